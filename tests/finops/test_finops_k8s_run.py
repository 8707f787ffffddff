"""``itbench finops run --task mitigate|diagnose`` on the Kubernetes cost scenarios, end to end:
the baseline through kubectl, the naive agent, a sandboxed command agent given KUBECONFIG, the
diagnose task leaving the cluster unchanged, bad scenario ids refused."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import run_cli

needs_kubectl = pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None, reason="bubblewrap is absent: command agents refuse to run"
)
IDS = "k8s-hpa-target-low-7,k8s-budget-too-low-7"


def _run(args: list[str], out: Path, task: str = "mitigate") -> dict[str, dict]:
    proc = run_cli(["finops", "run", "--task", task, "--output", str(out), *args], timeout=300)
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr
    evaluations = [json.loads(p.read_text()) for p in sorted(out.glob("*/1/evaluation.json"))]
    return {e["scenario_id"]: e for e in evaluations}


@needs_kubectl
def test_baseline_mitigates_and_diagnoses(tmp_path: Path) -> None:
    got = _run(["--scenarios", IDS, "--agent", "baseline"], tmp_path / "o")
    assert sorted(got) == ["k8s-budget-too-low-7", "k8s-hpa-target-low-7"]
    for e in got.values():
        assert e["error"] is None, e
        assert e["scores"]["mitigation_pass"] == 1.0, e["details"]
        assert e["scores"]["diagnosis_pass"] == 1.0, e["details"]
        assert e["scores"]["blast_radius"] == 0.0
    assert got["k8s-budget-too-low-7"]["details"]["changed"] == ["alert"]
    assert got["k8s-hpa-target-low-7"]["details"]["changed"] == ["api"]


@needs_kubectl
def test_naive_halving_fails(tmp_path: Path) -> None:
    got = _run(["--scenarios", IDS, "--agent", "naive"], tmp_path / "o")
    for e in got.values():
        assert e["error"] is None, e
        assert e["scores"]["mitigation_pass"] == 0.0, e["details"]
        assert e["scores"]["blast_radius"] >= 1.0


@needs_kubectl
def test_diagnose_task_scores_the_cause_and_changes_nothing(tmp_path: Path) -> None:
    got = _run(["--scenarios", IDS, "--agent", "baseline"], tmp_path / "o", task="diagnose")
    for e in got.values():
        assert e["scores"] == {"diagnosis_pass": 1.0}, e
        assert e["details"]["changed"] == [] and e["details"]["writes"] == 0


@needs_kubectl
@needs_bwrap
def test_command_agent_gets_kubeconfig_and_its_fix_is_judged(tmp_path: Path) -> None:
    patch = (
        '[{"op":"replace","path":"/spec/metrics/0/resource/target/averageUtilization","value":75}]'
    )
    command = (
        "kubectl -n shop get cm opencost-allocation -o jsonpath='{.data.allocation\\.json}' >/dev/null && "
        f"kubectl -n shop patch hpa api --type=json -p '{patch}' && "
        'echo \'{"workload":"api","kind":"HorizontalPodAutoscaler","field":"averageUtilization"}\' > agent_output.json'
    )
    got = _run(["--scenarios", "k8s-hpa-target-low-7", "--agent-cmd", command], tmp_path / "o")
    e = got["k8s-hpa-target-low-7"]
    assert e["error"] is None, e
    assert e["scores"]["mitigation_pass"] == 1.0, e["details"]
    assert e["scores"]["diagnosis_pass"] == 1.0


@needs_kubectl
@needs_bwrap
def test_command_agent_applying_a_malformed_hpa_gets_422(tmp_path: Path) -> None:
    command = (
        'kubectl -n shop patch hpa api --type=merge -p \'{"spec":{"minReplicas":500}}\' 2> err.txt; '
        "grep -q 'must be greater than or equal to `minReplicas`' err.txt"
    )
    got = _run(["--scenarios", "k8s-hpa-target-low-7", "--agent-cmd", command], tmp_path / "o")
    e = got["k8s-hpa-target-low-7"]
    assert e["error"] is None, e  # the command's own check of the 422 passed: it exited 0
    assert e["scores"]["mitigation_pass"] == 0.0
    assert e["details"]["changed"] == []


def test_unknown_scenario_id_is_a_usage_error(tmp_path: Path) -> None:
    proc = run_cli(
        [
            "finops",
            "run",
            "--task",
            "mitigate",
            "--scenarios",
            "k8s-nope-1",
            "--output",
            str(tmp_path / "o"),
        ]
    )
    assert proc.returncode == 2
    assert "not k8s-<family>-<seed>" in proc.stderr


@needs_kubectl
@needs_bwrap
def test_command_agent_on_the_diagnose_task_reads_the_cluster_and_is_scored(
    tmp_path: Path,
) -> None:
    """KUBECONFIG names the trial's cluster inside the sandbox; the answer is judged, and
    ``eval`` of the same folder gives the same score."""
    command = (
        'test -f "$KUBECONFIG" && '
        "kubectl -n shop get hpa api -o jsonpath='{.spec.metrics[0].resource.target.averageUtilization}' > target.txt && "
        'test "$(cat target.txt)" -lt 40 && '
        'echo \'{"workload":"api","kind":"HorizontalPodAutoscaler","field":"averageUtilization"}\' > agent_output.json'
    )
    out = tmp_path / "o"
    got = _run(
        ["--scenarios", "k8s-hpa-target-low-7", "--agent-cmd", command], out, task="diagnose"
    )
    e = got["k8s-hpa-target-low-7"]
    assert e["error"] is None, e
    assert e["scores"] == {"diagnosis_pass": 1.0}
    proc = run_cli(
        ["finops", "eval", "--task", "diagnose", "--outputs", str(out), "--ground-truth", str(out),
         "--format", "json"]
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (again,) = json.loads((out / "eval-results.json").read_text())["raw_results"]
    assert again["scores"] == {"diagnosis_pass": 1.0}
