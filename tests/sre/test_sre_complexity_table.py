"""Scenario complexity (the paper's Equation 6) by hand on a small ground truth, in the results'
config of a run, and ``sre run``'s Table-4 layout beside gpt-4o's published row."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sre.complexity import EASY_BELOW, HARD_FROM, complexity, label_of
from sre.generator.ground_truth import parse_ground_truth
from sre.generator.snapshot import write_incident
from sre.report import table4
from sre.twin.suite import write_recipe
from tests._support.cli import SHARED, run_cli

FLAG = {
    "groups": [
        {"id": "cfg", "kind": "ConfigMap", "namespace": "otel-demo", "name": "flagd-config",
         "root_cause": True},
        {"id": "cart-service-1", "kind": "Service", "namespace": "otel-demo", "name": "cart"},
        {"id": "frontend-service-1", "kind": "Service", "namespace": "otel-demo",
         "name": "frontend"},
    ],
    "propagations": [
        {"source": "cfg", "target": "cart-service-1", "condition": "x", "effect": "errors"},
        {"source": "cart-service-1", "target": "frontend-service-1", "condition": "x",
         "effect": "errors"},
    ],
    "fault": [
        {"category": "Change", "condition": "flag on", "fault_mechanism": "custom(flagd)",
         "entity": {"kind": "ConfigMap", "name": "flagd-config"}}
    ],
}  # fmt: skip


def test_equation_6_by_hand():
    c = complexity(parse_ground_truth(FLAG, "t"))
    # chain cfg -> cart -> frontend; the flag's first remedy is one kubectl patch;
    # Kubernetes, flagd, cart's .NET, frontend's Node.js
    assert (c.chain_length, c.resolution_steps) == (3, 1)
    assert c.technologies == (".NET", "Kubernetes", "Node.js", "flagd")
    assert c.score == pytest.approx((3 * 1 * 4) ** (1 / 3))
    assert c.label == "Easy"  # 2.29 < 2.5
    # without a generator fault type: its recommended actions are the steps
    other = dict(FLAG, fault=[], recommended_actions=[{"a": 1}, {"b": 2}])
    c2 = complexity(parse_ground_truth(other, "t"))
    assert c2.resolution_steps == 2 and c2.technologies == (".NET", "Kubernetes", "Node.js")
    assert c2.score == pytest.approx((3 * 2 * 3) ** (1 / 3))


def test_thresholds():
    assert (EASY_BELOW, HARD_FROM) == (2.5, 4.0)
    assert [label_of(x) for x in (2.49, 2.5, 3.99, 4.0)] == ["Easy", "Medium", "Medium", "Hard"]


def _run(args: list[str], out: Path, fmt: str) -> str:
    proc = run_cli(
        ["sre", "run", *args, "--output", str(out), "--format", fmt, "--no-progress"],
        timeout=300,
    )
    assert proc.returncode in (0, 1), proc.stderr
    return proc.stdout


def _row(text: str, name: str) -> list[str]:
    line = next(ln for ln in text.splitlines() if ln.startswith(name + " "))
    return line[len(name) :].split()


def test_diagnosis_run_prints_table_4_with_complexity(tmp_path: Path) -> None:
    suite = tmp_path / "incidents"
    write_incident(suite / "Scenario-1", "feature-flag", 5)
    write_incident(suite / "Scenario-2", "oom-killed", 6)
    text = _run(["--scenarios", str(suite)], tmp_path / "run", "table")
    doc = json.loads((tmp_path / "run" / "results.json").read_text())
    levels = doc["config"]["complexity"]
    assert sorted(levels) == ["1", "2"]
    assert doc["config"]["task"] == "diagnose"
    for sid, level in levels.items():
        assert level["complexity"] == label_of(level["complexity_score"]), sid
    # the header, overall row (diagnosis filled in, mitigation "—") and the published row
    assert "diag pass@1 %  NTAM FL  NTAM FPC  MTTD s  mitig pass@1 %  MTTR s" in text
    overall = _row(text, "overall")
    assert overall[:2] == ["2", "2"] and overall[-2:] == ["—", "—"]
    assert float(overall[3]) == pytest.approx(1.0)  # NTAM FL of the right answers
    scores = [r["scores"] for r in doc["raw_results"]]
    assert float(overall[5]) == pytest.approx(sum(s["mttd_s"] for s in scores) / 2, abs=0.01)
    assert _row(text, "gpt-4o (published, ITBench paper Table 4)") == [
        "42", "420", "13.81", "0.39", "0.34", "72.44", "11.43", "282.47"
    ]  # fmt: skip
    for sid, level in levels.items():
        assert _row(text, level["complexity"])[0] in ("1", "2"), sid
    # `itbench report` of the run prints the same table
    again = run_cli(["report", str(tmp_path / "run" / "results.json")])
    assert again.returncode == 0 and again.stdout.startswith(text.splitlines()[0])


def test_table_4_counts_misses_as_the_paper_does():
    def trial(sid, recall, mttd=None, fl=0.5):
        scores = {"root_cause_entity": {"calculation_recall": recall},
                  "ntam_fault_localisation": {"calculation": fl},
                  "ntam_propagation_chain": {"calculation": fl}}  # fmt: skip
        if mttd is not None:
            scores["mttd_s"] = mttd
        return {"incident_id": sid, "trial_id": "1", "scores": scores}

    doc = {
        "config": {"scenario_classes": {"a": "x", "b": "x"}, "task": "diagnose"},
        "raw_results": [
            trial("a", 1.0, 10.0, 1.0),
            trial("b", 0.0),
            {"incident_id": "b", "trial_id": "2", "error": "boom"},
        ],
    }
    overall = _row(table4(doc), "overall")
    # pass@1: a 1/1, b 0/2 -> 50 %; NTAM: errored trial 0 -> (1 + 0.5 + 0) / 3; MTTD over found
    assert overall[:6] == ["2", "3", "50.00", "0.50", "0.50", "10.00"]
    none_found = dict(doc, raw_results=[trial("b", 0.0)])
    assert _row(table4(none_found), "overall")[5] == "—"


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
def test_mitigation_run_fills_the_other_half(tmp_path: Path) -> None:
    folder = tmp_path / "suite" / "Scenario-mitigate-network-policy"
    write_incident(folder, "network-policy", 42)
    write_recipe(folder, "network-policy", 42)
    text = _run(["--task", "mitigate", "--scenarios", str(folder.parent)], tmp_path / "r", "table")
    overall = _row(text, "overall")
    assert overall[2:6] == ["—", "—", "—", "—"]
    assert overall[6] == "100.00" and float(overall[7]) > 0
    doc = json.loads((tmp_path / "r" / "results.json").read_text())
    assert doc["config"]["task"] == "mitigate"
    assert doc["config"]["complexity"]["mitigate-network-policy"]["complexity"] in (
        "Easy", "Medium", "Hard"
    )  # fmt: skip


PUBLIC_GT = SHARED / "corpora" / "itbench" / "sre" / "itbench_repo_gt"


@pytest.mark.skipif(
    not PUBLIC_GT.is_dir(), reason=f"the public ITBench ground truths are not at {PUBLIC_GT}"
)
def test_thresholds_split_the_public_ground_truths_as_the_paper_does():
    from collections import Counter

    from sre.groundtruth import load_truths

    labels = Counter(complexity(t.truth).label for t in load_truths(PUBLIC_GT).values())
    assert labels == {"Easy": 18, "Medium": 32, "Hard": 17}


def test_the_results_config_is_computed_from_what_each_run_was_given(tmp_path, monkeypatch):
    """No run state in module globals: the sre domain's results config is a function of the
    scenarios a document covers and the run's options, so a second run in the same process
    (one with no --hide, over other scenarios) carries nothing of the first."""
    from sre.generator import faults
    from sre.plugin import domain
    from sre.twin.suite import mitigation_suite

    picked = ("network-policy", "oom-killed")
    monkeypatch.setattr(faults, "FAULT_TYPES", {k: faults.FAULT_TYPES[k] for k in picked})
    first, second = mitigation_suite(tmp_path)
    one = domain.results_config_for([first], {"hide": ("traces",), "sre_task": "mitigate"})
    two = domain.results_config_for([second], {})
    assert one["hide"] == ["traces"] and one["task"] == "mitigate"
    assert set(one["complexity"]) == {first.id}
    assert "hide" not in two and two["task"] == "diagnose"
    assert set(two["complexity"]) == {second.id}
    assert one["k"] == two["k"] == 3
