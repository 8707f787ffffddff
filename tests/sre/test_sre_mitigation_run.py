"""``itbench sre run --task mitigate`` end to end: the baseline repairs generated incidents
through kubectl, a sandboxed command agent gets KUBECONFIG, and bad input (no fault entry, an
agent deleting the namespace, a kubeconfig pointing nowhere) ends in a clear error or a recorded
failed trial."""

from __future__ import annotations

import json
import shutil
import socket
from pathlib import Path

import pytest

from sre.agents.baseline.mitigate import Kubectl, mitigate
from sre.generator.snapshot import write_incident
from sre.twin.suite import write_recipe
from tests._support.cli import run_cli

needs_kubectl = pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None, reason="bubblewrap is absent: command agents refuse to run"
)


@pytest.fixture(scope="module")
def scenarios(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mitigation")
    for fault, seed in (("nonexistent-image", 41), ("network-policy", 42)):
        folder = root / f"Scenario-{fault}"
        write_incident(folder, fault, seed)
        write_recipe(folder, fault, seed)
    return root


def _run(args: list[str], out: Path) -> list[dict]:
    proc = run_cli(["sre", "run", "--task", "mitigate", "--output", str(out), *args], timeout=300)
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr
    return [json.loads(p.read_text()) for p in sorted(out.glob("*/1/evaluation.json"))]


@needs_kubectl
def test_baseline_repairs_each_incident(scenarios: Path, tmp_path: Path) -> None:
    evaluations = _run(["--scenarios", str(scenarios), "--agent", "baseline"], tmp_path / "o")
    assert [e["scenario_id"] for e in evaluations] == ["network-policy", "nonexistent-image"]
    for e in evaluations:
        assert e["error"] is None, e
        assert e["scores"]["mitigation_pass"] == 1.0, e["details"]
        assert e["scores"]["strict_mitigation_pass"] == 1.0, e["details"]
        assert e["scores"]["mttr_writes"] == 1.0
        assert e["details"]["blast"] == {
            "objects_changed": [], "services_made_unhealthy": [], "pods_restarted_for_nothing": [],
            "destructive": [],
        }  # fmt: skip
        # the baseline also wrote its diagnosis, scored against the incident's ground truth
        assert e["scores"]["root_cause_entity"]["calculation_f1"] == 1.0


@needs_kubectl
@needs_bwrap
def test_command_agent_deleting_the_namespace_is_a_recorded_failure(
    scenarios: Path, tmp_path: Path
) -> None:
    command = "kubectl get pods -n otel-demo >/dev/null && kubectl delete namespace otel-demo"
    evaluations = _run(
        ["--scenarios", str(scenarios / "Scenario-network-policy"), "--agent-cmd", command],
        tmp_path / "o",
    )
    (e,) = evaluations
    assert e["error"] is None, e
    assert e["scores"]["mitigation_pass"] == 0.0
    blast = e["details"]["blast"]
    assert "Namespace otel-demo deleted" in blast["objects_changed"]
    assert "Deployment otel-demo/frontend deleted" in blast["objects_changed"]
    assert "ad" in blast["services_made_unhealthy"]  # a leaf the fault never touched


@needs_kubectl
@needs_bwrap
def test_command_agent_that_does_nothing_fails(scenarios: Path, tmp_path: Path) -> None:
    evaluations = _run(
        ["--scenarios", str(scenarios / "Scenario-nonexistent-image"), "--agent-cmd",
         "test -n \"$KUBECONFIG\" && kubectl get deployments -n otel-demo"],
        tmp_path / "o",
    )  # fmt: skip
    (e,) = evaluations
    assert e["error"] is None, e
    assert e["scores"]["mitigation_pass"] == 0.0
    assert e["details"]["still_firing"], e["details"]
    assert e["scores"]["agent_writes"] == 0.0
    assert "mttr_sim_s" not in e["scores"]  # no repair, no time to repair


def test_a_scenario_without_a_fault_entry_is_a_usage_error(scenarios: Path, tmp_path: Path) -> None:
    copy = tmp_path / "Scenario-x"
    shutil.copytree(scenarios / "Scenario-network-policy", copy)
    (copy / "mitigation.json").unlink()
    proc = run_cli(
        ["sre", "run", "--task", "mitigate", "--scenarios", str(copy), "--output",
         str(tmp_path / "o")]
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert f"{copy}: no mitigation.json" in proc.stderr
    assert "Traceback" not in proc.stderr


@needs_kubectl
def test_a_kubeconfig_pointing_nowhere_gives_failed_commands_not_a_crash(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed once the block ends: nothing listens there
    config = tmp_path / "kubeconfig"
    config.write_text(
        json.dumps(
            {"apiVersion": "v1", "kind": "Config", "current-context": "c",
             "clusters": [{"name": "c", "cluster": {"server": f"http://127.0.0.1:{port}"}}],
             "contexts": [{"name": "c", "context": {"cluster": "c", "user": "u"}}],
             "users": [{"name": "u", "user": {}}]}
        )
    )  # fmt: skip
    done = mitigate(Kubectl(str(config), tmp_path), ["otel-demo/Deployment/cart"])
    assert len(done) == 1 and done[0][1] == 1
    assert "refused" in done[0][2] or "connect" in done[0][2]


@needs_kubectl
def test_the_tools_read_the_present_after_a_repair(scenarios: Path, tmp_path: Path) -> None:
    """The live view appends the twin's state to the workspace snapshot after every write: the
    investigation tools see the repaired cluster's alerts and objects, not only the past."""
    from sre.snapshot_entries import SNAPSHOT_ENTRIES
    from sre.tools import alert_summary, k8s_spec_change_analysis
    from sre.twin.suite import MitigationTruth, mitigation_environment

    folder = scenarios / "Scenario-nonexistent-image"
    workspace = tmp_path / "ws"
    workspace.mkdir()
    for name in SNAPSHOT_ENTRIES:
        source = folder / name
        if source.is_dir():
            shutil.copytree(source, workspace / name)
        elif source.is_file():
            shutil.copy(source, workspace / name)
    before = len(list((workspace / "alerts").iterdir()))
    with mitigation_environment(MitigationTruth("nonexistent-image", 41, None), workspace) as env:
        kubectl = Kubectl(env["KUBECONFIG"], tmp_path)
        target = kubectl.json("-n", "otel-demo", "get", "deployments")["items"]
        broken = [d["metadata"]["name"] for d in target
                  if d["status"].get("availableReplicas", 0) == 0]  # fmt: skip
        assert len(broken) == 1
        fixed = kubectl("-n", "otel-demo", "rollout", "undo", f"deployment/{broken[0]}")
        assert fixed.returncode == 0, fixed.stderr
        # waiting on the rollout lets simulated time pass: the new pod becomes Ready
        waited = kubectl("-n", "otel-demo", "rollout", "status", f"deployment/{broken[0]}")
        assert "successfully rolled out" in waited.stdout, waited.stdout + waited.stderr
    files = sorted((workspace / "alerts").iterdir())
    assert len(files) > before + 1
    latest = json.loads(files[-1].read_text())["data"]["alerts"]
    assert all(a["labels"].get("service_name") != broken[0] for a in latest)
    summary = alert_summary.run(alert_summary.Args(base_dir=str(workspace / "alerts")))
    assert summary.model_dump()  # the tools read the appended alert files
    changes = k8s_spec_change_analysis.run(
        k8s_spec_change_analysis.Args(k8s_objects_file=str(workspace / "k8s_objects_raw.tsv"))
    ).model_dump_json()
    # the repair itself is a change the spec-change tool reports: the image back to the release
    assert f'"new":"ghcr.io/open-telemetry/demo:2.0.2-{broken[0]}"' in changes


@needs_kubectl
def test_eval_scores_a_mitigation_run_again(scenarios: Path, tmp_path: Path) -> None:
    out = tmp_path / "o"
    first = _run(["--scenarios", str(scenarios), "--agent", "baseline"], out)
    proc = run_cli(
        ["sre", "eval", "--task", "mitigate", "--outputs", str(out), "--ground-truth",
         str(scenarios), "--format", "json", "--result-file", str(tmp_path / "again.json")]
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    again = {r["incident_id"]: r["scores"] for r in json.loads(proc.stdout)["raw_results"]}
    assert again == {e["scenario_id"]: e["scores"] for e in first}


def test_the_suite_does_not_name_the_fault_to_the_agent(tmp_path: Path, monkeypatch) -> None:
    """The agent sees its scenario's id (the workspace path, ITBENCH_WORKSPACE, the scenario
    handed to in-process agents): the built-in suite's ids, titles and prompts name no fault
    type, and neither the public metadata nor the task text carries a complexity label."""
    from sre.generator import faults
    from sre.twin.suite import mitigation_suite

    picked = ("feature-flag", "flag-kafka-queue-problems", "readiness-probe")
    monkeypatch.setattr(faults, "FAULT_TYPES", {k: faults.FAULT_TYPES[k] for k in picked})
    scenarios = mitigation_suite(tmp_path)
    assert [s.ground_truth.fault_type for s in scenarios] == list(picked)
    for s in scenarios:
        public = json.dumps(s.public_view().model_dump(by_alias=True)).lower()
        for word in (*faults.FAULT_TYPES, "flag", "kafka", "probe", "easy", "medium", "hard",
                     "complexity"):  # fmt: skip
            assert word not in s.id and word not in public, (word, s.id)
    assert len({s.id for s in scenarios}) == len(picked)


def test_a_fault_types_suite_seed_depends_on_its_name_alone(tmp_path: Path, monkeypatch) -> None:
    """Adding a fault type moves no other type's suite incident: each type's seed is a function
    of its own name (it was SUITE_SEED plus its position in name order, so a new type moved
    every type after it). The suite writes each incident at that seed."""
    from sre.generator import faults
    from sre.twin import suite

    every = sorted(faults.FAULT_TYPES)
    (tmp_path / "fewer" / "mitigation-suite").mkdir(parents=True)
    (tmp_path / "more" / "mitigation-suite").mkdir(parents=True)
    for run in ("fewer", "more"):  # one secret for both runs: the same incidents
        (tmp_path / run / "mitigation-suite" / suite.SECRET_FILE).write_text("77\n")
    seeds = {f: suite.suite_seed(f, 77) for f in every}
    assert len(set(seeds.values())) == len(every)  # no two types share an incident seed
    assert all(suite.SUITE_SEED <= s < suite.SUITE_SEED + suite.SUITE_SEED_SPAN
               for s in seeds.values())  # fmt: skip
    # a suite without the alphabetically first type, then with it: the others' seeds stay
    known = dict(faults.FAULT_TYPES)
    monkeypatch.setattr(faults, "FAULT_TYPES", {"oom-killed": known["oom-killed"]})
    (alone,) = suite.mitigation_suite(tmp_path / "fewer")
    picked = ("bad-command", "oom-killed")
    monkeypatch.setattr(faults, "FAULT_TYPES", {k: known[k] for k in picked})
    first, second = suite.mitigation_suite(tmp_path / "more")
    assert alone.ground_truth.seed == second.ground_truth.seed == seeds["oom-killed"]
    assert first.ground_truth.seed == seeds["bad-command"]


@needs_kubectl
@needs_bwrap
def test_eval_refuses_a_verdict_edited_after_the_run(scenarios: Path, tmp_path: Path) -> None:
    """The verdict in the trial folder is the runner's, signed: rewriting a failed trial's scores
    to a pass (which eval used to score) makes the trial an error naming the file, not a score."""
    out = tmp_path / "o"
    (ran,) = _run(
        ["--scenarios", str(scenarios / "Scenario-nonexistent-image"), "--agent-cmd", "true"], out
    )
    assert ran["scores"]["mitigation_pass"] == 0.0
    verdict = out / "nonexistent-image" / "1" / ".itbench" / "mitigation.json"
    doc = json.loads(verdict.read_text())
    doc["scores"] = {name: 1.0 for name in doc["scores"]}
    verdict.write_text(json.dumps(doc))
    proc = run_cli(
        ["sre", "eval", "--task", "mitigate", "--outputs", str(out), "--ground-truth",
         str(scenarios), "--format", "json", "--result-file", str(tmp_path / "again.json")]
    )  # fmt: skip
    assert proc.returncode == 3, proc.stderr  # no trial scored
    rows = {r["incident_id"]: r for r in json.loads(proc.stdout)["raw_results"]}
    row = rows["nonexistent-image"]
    assert not row.get("scores")
    assert f"{verdict}: its signature does not match" in row["error"]
