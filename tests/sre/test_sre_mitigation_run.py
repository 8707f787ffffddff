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
from conftest import run_cli

from sre.agents.baseline.mitigate import Kubectl, mitigate
from sre.generator.snapshot import write_incident
from sre.twin.suite import write_recipe

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
            "objects_changed": [], "services_made_unhealthy": [], "pods_restarted_for_nothing": []
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
