"""`itbench ciso run|eval` through the real CLI on the fixture scenarios: the oracle scores 100%
strict on every scenario and class, and `eval` scores outputs laid out as ITBench-Lite's
CISOEvaluator and ITBench's CAA leave them."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests._support.ciso import AGENTS, K8S, SCENARIOS, kubectl_missing, needs_sandbox
from tests._support.cli import run_cli

pytestmark = [
    pytest.mark.slow,
    needs_sandbox,
    pytest.mark.skipif(kubectl_missing() is not None, reason=str(kubectl_missing())),
]

CLASSES = {
    "fixture-k8s-5.2.5-host-network.kyverno": "kyverno",
    "fixture-k8s-5.2.5-host-network.kubectl-opa": "kubectl-opa",
    "fixture-k8s-5.2.5-host-network.opa-static": "opa-static",
    "fixture-rhel9-5.2.12-x11-forwarding.rhel9-ansible-opa": "rhel9-ansible-opa",
    "update-registry.kyverno-update": "kyverno-update",
}


def test_oracle_run_scores_100_percent_strict_per_scenario(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = run_cli(
        [
            "ciso",
            "run",
            "--agent",
            "oracle",
            "-j",
            "2",
            "--scenarios",
            str(SCENARIOS),
            "--output",
            str(out),
            "--no-progress",
        ],
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    document = json.loads((out / "results.json").read_text())
    assert document["config"]["scenario_classes"] == CLASSES
    by_id = {r["incident_id"]: r for r in document["raw_results"]}
    assert set(by_id) == set(CLASSES)
    for scenario_id, entry in by_id.items():
        assert "error" not in entry, (scenario_id, entry)
        assert entry["scores"]["itbench_pass"] == 1, scenario_id
        assert entry["scores"]["strict_pass"] == 1, scenario_id
    # each evaluation.json says which engines decided it
    evaluation = json.loads(
        (out / "fixture-k8s-5.2.5-host-network.kubectl-opa" / "1" / "evaluation.json").read_text()
    )
    assert evaluation["details"]["engines"]["rego"]
    assert evaluation["details"]["environments"]["compliant"]["result"] == "true"
    # the table: a row per class plus overall, ITBench and strict pass@1 at 100
    rows = {line.split()[0]: line.split() for line in proc.stdout.splitlines() if line.strip()}
    for name in [*CLASSES.values(), "overall"]:
        assert rows[name][3:5] == ["100.00", "100.00"], rows[name]
    assert rows["kyverno"][-2:] == ["40.28", "16.18"]


def _lite_outputs(root: Path) -> Path:
    """ITBench-Lite's layout: <outputs>/<id>/<trial>/outputs/{fetch.sh, policy.rego}."""
    scenario = root / "fixture-k8s-5.2.5-host-network.opa-static"
    for trial, case in (("1", "correct"), ("2", "misses-tricky"), ("3", "no-shebang")):
        shutil.copytree(AGENTS / "opa-static" / case, scenario / trial / "outputs")
    return root


def _eval(outputs: Path) -> subprocess.CompletedProcess[str]:
    """``itbench ciso eval`` of the agents' ``outputs`` against the fixture scenarios, as JSON."""
    cmd = ["ciso", "eval", "--outputs", str(outputs), "--scenarios", str(SCENARIOS)]
    return run_cli([*cmd, "--format", "json"], timeout=300)


def test_eval_of_itbench_lite_outputs(tmp_path: Path) -> None:
    outputs = _lite_outputs(tmp_path / "lite")
    proc = _eval(outputs)
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout)["raw_results"]
    scored = "fixture-k8s-5.2.5-host-network.opa-static"
    raw = {r["trial_id"]: r["scores"] for r in results if r["incident_id"] == scored}
    assert {
        t: (s["compliance_validation"], s["strict_pass"], s["resource_recall"])
        for t, s in raw.items()
    } == {"1": (1, 1, 1.0), "2": (1, 0, 0.5), "3": (0, 0, 0.0)}
    # the other scenarios of the ground truth had no output: counted as bad runs, by id
    missing = {r["incident_id"] for r in results if r["incident_id"] != scored}
    assert missing == set(CLASSES) - {scored}
    assert all(
        r["error"].startswith("missing output") for r in results if r["incident_id"] in missing
    )
    assert "counted as bad runs" in proc.stderr


def test_eval_of_caa_workdirs(tmp_path: Path) -> None:
    """ITBench's CAA workdir: the agent's files at the top of <outputs>/<id>/<trial>/, the
    scenario folder named by its base id."""
    outputs = tmp_path / "caa"
    kyverno = outputs / "fixture-k8s-5.2.5-host-network.kyverno"
    shutil.copytree(AGENTS / "kyverno" / "correct", kyverno / "1")
    shutil.copytree(AGENTS / "kyverno" / "too-broad", kyverno / "2")
    rhel = outputs / "fixture-rhel9-5.2.12-x11-forwarding"  # base id: one class
    shutil.copytree(AGENTS / "rhel9" / "correct", rhel / "1")
    proc = _eval(outputs)
    assert proc.returncode == 0, proc.stderr
    raw = {
        (r["incident_id"], r["trial_id"]): r["scores"]
        for r in json.loads(proc.stdout)["raw_results"]
    }
    assert raw[("fixture-k8s-5.2.5-host-network.kyverno", "1")]["strict_pass"] == 1
    assert raw[("fixture-k8s-5.2.5-host-network.kyverno", "2")]["strict_pass"] == 0
    assert raw[("fixture-k8s-5.2.5-host-network.kyverno", "2")]["itbench_pass"] == 1
    assert raw[("fixture-rhel9-5.2.12-x11-forwarding.rhel9-ansible-opa", "1")] == {
        "itbench_pass": 1,
        "strict_pass": 1,
    }


def test_command_agent_that_writes_nothing_fails_and_the_run_goes_on(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = run_cli(
        [
            "ciso",
            "run",
            "--agent-cmd",
            "true",
            "--scenarios",
            str(K8S),
            "--output",
            str(out),
            "--no-progress",
        ],
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    document = json.loads((out / "results.json").read_text())
    assert len(document["raw_results"]) == 3
    for entry in document["raw_results"]:
        assert entry["scores"]["itbench_pass"] == 0 and entry["scores"]["strict_pass"] == 0
    evaluation = json.loads(
        (out / "fixture-k8s-5.2.5-host-network.kyverno" / "1" / "evaluation.json").read_text()
    )
    assert evaluation["details"]["failure"]["step"] == "policies"
