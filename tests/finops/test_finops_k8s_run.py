"""``itbench finops run --task mitigate|diagnose`` on the Kubernetes cost scenarios, end to end:
the baseline through kubectl, the naive agent, a sandboxed command agent given KUBECONFIG, the
diagnose task leaving the cluster unchanged, bad scenario ids refused."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests._support.cli import run_cli, run_evaluations

needs_kubectl = pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None, reason="bubblewrap is absent: command agents refuse to run"
)
IDS = "k8s-hpa-target-low-7,k8s-budget-too-low-7"


def _run(args: list[str], out: Path, task: str = "mitigate") -> dict[str, dict]:
    return run_evaluations(["finops", "run", "--task", task, *args], out, timeout=300)


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


@needs_kubectl
@needs_bwrap
def test_diagnose_task_cluster_refuses_every_write_with_403(tmp_path: Path) -> None:
    """On ``--task diagnose`` the trial's cluster answers create, update (replace), patch,
    delete and scale with RBAC's 403 Forbidden, to real kubectl run by a command agent; reads
    work, ``auth can-i`` says no to writes, and the end state records no write."""
    ns = "kubectl -n shop"
    attempts = {
        "patch": f'{ns} patch hpa api --type=merge -p \'{{"spec":{{"minReplicas":2}}}}\'',
        "scale": f"{ns} scale deployment web --replicas=1",
        "delete": f"{ns} delete configmap cost-alert",
        "create": f"{ns} create configmap extra --from-literal=a=b",
        "replace": f"{ns} get hpa api -o yaml > hpa.yaml && {ns} replace -f hpa.yaml",
    }
    steps = [f"{ns} get hpa api >/dev/null"]
    for name, cmd in attempts.items():
        # each must fail, and with kubectl's rendering of a 403 Forbidden Status
        steps.append(f"! ( {cmd} ) 2> {name}.err && grep -q 'is forbidden: User' {name}.err")
    steps.append(f"! {ns} auth can-i patch hpa --quiet && {ns} auth can-i get hpa --quiet")
    steps.append(
        'echo \'{"workload":"api","kind":"HorizontalPodAutoscaler","field":"averageUtilization"}\''
        " > agent_output.json"
    )
    out = tmp_path / "o"
    got = _run(
        ["--scenarios", "k8s-hpa-target-low-7", "--agent-cmd", " && ".join(steps)],
        out,
        task="diagnose",
    )
    e = got["k8s-hpa-target-low-7"]
    # the agent's own checks passed (it exited 0 and wrote its answer)
    assert e["error"] is None, e
    assert e["scores"] == {"diagnosis_pass": 1.0}
    assert e["details"]["changed"] == [] and e["details"]["writes"] == 0
    errors = {p.stem: p.read_text() for p in out.glob("*/1/**/*.err")}
    assert sorted(errors) == sorted(attempts), errors
    assert (
        'horizontalpodautoscalers.autoscaling "api" is forbidden: User "itbench-offline" '
        'cannot patch resource "horizontalpodautoscalers" in API group "autoscaling" in the '
        'namespace "shop"'
    ) in errors["patch"]
    assert 'cannot patch resource "deployments/scale" in API group "apps"' in errors["scale"]
    assert 'cannot create resource "configmaps"' in errors["create"]
    assert 'cannot delete resource "configmaps"' in errors["delete"]
    assert 'cannot update resource "horizontalpodautoscalers"' in errors["replace"]


@needs_kubectl
@needs_bwrap
def test_mitigate_task_cluster_still_takes_writes(tmp_path: Path) -> None:
    """The refusal is the diagnose task's only: on mitigate the same patch is applied."""
    command = (
        "kubectl -n shop patch hpa api --type=merge "
        '-p \'{"spec":{"metrics":[{"type":"Resource","resource":{"name":"cpu","target":'
        '{"type":"Utilization","averageUtilization":75}}}]}}\''
    )
    got = _run(["--scenarios", "k8s-hpa-target-low-7", "--agent-cmd", command], tmp_path / "o")
    e = got["k8s-hpa-target-low-7"]
    assert e["error"] is None, e
    assert e["details"]["changed"] == ["api"] and e["details"]["writes"] >= 1
