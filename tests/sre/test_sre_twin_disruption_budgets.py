"""PodDisruptionBudgets on the incident's offline cluster, through real kubectl: served
(``policy/v1``: create, get, list, patch, delete), their status kept as the disruption controller
computes it over the twin's pods (after a scale, for ``minAvailable`` and ``maxUnavailable``,
integer and percent), and the Eviction API (``kubectl drain``, ``pods/NAME/eviction``) refused
with 429 and Kubernetes' message while the budget allows no disruption, allowed when it does. A
remedy that deletes or loosens a budget it did not need counts in the blast radius."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from sre.generator.faults import FAULT_TYPES
from sre.generator.objects import node_for
from sre.twin.scenario import build_case, remedy_context, serve_case
from sre.twin.verdict import judge
from tests._support.sre_twin import SEED, kubectl_env, kubectl_in

KUBECTL = shutil.which("kubectl")
pytestmark = pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed here")

#: a healthy service of the feature-flag incident (not its target), with one replica
SERVICE = "currency"
SELECTOR = f"app.kubernetes.io/name={SERVICE}"


@pytest.fixture
def served(tmp_path: Path):
    case = build_case("feature-flag", SEED)
    assert case.target != SERVICE
    cluster, twin = serve_case(case)
    try:
        yield case, cluster, twin, kubectl_in(cluster, case.namespace, tmp_path)
    finally:
        cluster.stop()


def _status(kubectl, name: str = "guard") -> dict:
    return json.loads(kubectl("get", "pdb", name, "-o", "json"))["status"]


def _counts(status: dict) -> tuple[int, int, int, int]:
    return (status["currentHealthy"], status["desiredHealthy"], status["expectedPods"],
            status["disruptionsAllowed"])  # fmt: skip


def _pods(kubectl) -> list[str]:
    return kubectl("get", "pods", "-l", SELECTOR, "-o", "name").split()


def _raw_evict(cluster, namespace: str, pod: str, tmp_path: Path) -> subprocess.CompletedProcess:
    body = tmp_path / "eviction.json"
    body.write_text(json.dumps({"apiVersion": "policy/v1", "kind": "Eviction",
                                "metadata": {"name": pod, "namespace": namespace}}))  # fmt: skip
    return subprocess.run(
        [KUBECTL or "kubectl", "--kubeconfig", str(cluster.kubeconfig_path), "create", "--raw",
         f"/api/v1/namespaces/{namespace}/pods/{pod}/eviction", "-f", str(body)],
        capture_output=True, text=True, env=kubectl_env(tmp_path), timeout=60,
    )  # fmt: skip


def test_a_budgets_status_follows_the_pods_it_guards(served):
    _, _, _, kubectl = served
    kubectl("create", "pdb", "guard", f"--selector={SELECTOR}", "--min-available=1")
    assert "guard" in kubectl("get", "pdb")
    # one Ready pod, one required: no disruption allowed
    assert _counts(_status(kubectl)) == (1, 1, 1, 0)
    kubectl("scale", f"deployment/{SERVICE}", "--replicas=3")
    kubectl("rollout", "status", f"deployment/{SERVICE}", "--timeout=60s")
    assert _counts(_status(kubectl)) == (3, 1, 3, 2)
    # a percent counts over the controllers' scale, rounded up: 50% of 3 -> 2
    kubectl("patch", "pdb", "guard", "--type=merge", "-p", '{"spec": {"minAvailable": "50%"}}')
    assert _counts(_status(kubectl)) == (3, 2, 3, 1)
    patch = [{"op": "remove", "path": "/spec/minAvailable"},
             {"op": "add", "path": "/spec/maxUnavailable", "value": "33%"}]  # fmt: skip
    kubectl("patch", "pdb", "guard", "--type=json", "-p", json.dumps(patch))
    # 33% of 3 is 0.99, rounded up: 1 may be unavailable -> 2 healthy wanted
    assert _counts(_status(kubectl)) == (3, 2, 3, 1)
    kubectl("patch", "pdb", "guard", "--type=merge", "-p", '{"spec": {"maxUnavailable": "34%"}}')
    # 34% of 3 is 1.02, rounded up: 2 may be unavailable -> 1 healthy wanted
    assert _counts(_status(kubectl)) == (3, 1, 3, 2)
    kubectl("patch", "pdb", "guard", "--type=json", "-p",
            json.dumps([{"op": "replace", "path": "/spec/maxUnavailable", "value": 0}]))  # fmt: skip
    assert _counts(_status(kubectl)) == (3, 3, 3, 0)
    condition = _status(kubectl)["conditions"][0]
    assert (condition["type"], condition["status"], condition["reason"]) == (
        "DisruptionAllowed", "False", "InsufficientPods",
    )  # fmt: skip
    kubectl("delete", "pdb", "guard")
    assert "guard" not in kubectl("get", "pdb", "-o", "name")


def test_an_eviction_the_budget_forbids_is_refused(served, tmp_path):
    case, cluster, _, kubectl = served
    kubectl("create", "pdb", "guard", f"--selector={SELECTOR}", "--min-available=1")
    (pod,) = _pods(kubectl)
    name = pod.removeprefix("pod/")
    refused = _raw_evict(cluster, case.namespace, name, tmp_path)
    assert refused.returncode != 0
    assert "Cannot evict pod as it would violate the pod's disruption budget." in refused.stderr
    drain = subprocess.run(
        [KUBECTL or "kubectl", "--kubeconfig", str(cluster.kubeconfig_path), "drain",
         node_for(SERVICE), f"--pod-selector={SELECTOR}", "--ignore-daemonsets",
         "--delete-emptydir-data", "--timeout=3s"],
        capture_output=True, text=True, env=kubectl_env(tmp_path), timeout=60,
    )  # fmt: skip
    assert drain.returncode != 0
    assert "Cannot evict pod as it would violate the pod's disruption budget." in drain.stderr
    assert _pods(kubectl) == [pod]  # still there, not replaced


def test_an_eviction_the_budget_allows_deletes_the_pod(served, tmp_path):
    case, cluster, _, kubectl = served
    kubectl("create", "pdb", "guard", f"--selector={SELECTOR}", "--min-available=1")
    kubectl("scale", f"deployment/{SERVICE}", "--replicas=2")
    kubectl("rollout", "status", f"deployment/{SERVICE}", "--timeout=60s")
    assert _counts(_status(kubectl)) == (2, 1, 2, 1)
    first, second = (p.removeprefix("pod/") for p in _pods(kubectl))
    allowed = _raw_evict(cluster, case.namespace, first, tmp_path)
    assert allowed.returncode == 0, allowed.stderr
    assert f"pod/{first}" not in _pods(kubectl)
    # its replacement is not Ready yet: the budget allows no second disruption
    assert _counts(_status(kubectl)) == (1, 1, 2, 0)
    refused = _raw_evict(cluster, case.namespace, second, tmp_path)
    assert "Cannot evict pod as it would violate the pod's disruption budget." in refused.stderr
    assert f"pod/{second}" in _pods(kubectl)


def test_a_pod_without_a_budget_is_evicted(served, tmp_path):
    case, cluster, _, kubectl = served
    (pod,) = _pods(kubectl)
    allowed = _raw_evict(cluster, case.namespace, pod.removeprefix("pod/"), tmp_path)
    assert allowed.returncode == 0, allowed.stderr
    assert pod not in _pods(kubectl)


@pytest.mark.parametrize(
    ("change", "verb"),
    [(["delete", "pdb", "guard"], "deleted"),
     (["patch", "pdb", "guard", "--type=merge", "-p", '{"spec": {"minAvailable": 0}}'],
      "changed")],
)  # fmt: skip
def test_touching_a_budget_the_repair_did_not_need_counts_in_the_blast_radius(
    change, verb, tmp_path
):
    case = build_case("feature-flag", SEED)
    budget = {
        "apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
        "metadata": {"name": "guard", "namespace": case.namespace},
        "spec": {"minAvailable": 1, "selector": {"matchLabels": {
            "app.kubernetes.io/name": SERVICE}}},
    }  # fmt: skip
    case = dataclasses.replace(case, objects=(*case.objects, budget))
    (off,) = [r for r in FAULT_TYPES["feature-flag"].remedies if r.name == "turn the flag off"]
    cluster, twin = serve_case(case)
    try:
        env = kubectl_env(tmp_path)
        for args in [["-n", case.namespace, *change], *off.commands(remedy_context(case))]:
            run = subprocess.run(
                [KUBECTL or "kubectl", "--kubeconfig", str(cluster.kubeconfig_path), *args],
                capture_output=True, text=True, env=env, timeout=60,
            )  # fmt: skip
            assert run.returncode == 0, run.stderr
        verdict = judge(twin, case.root, case.target, case.start, 0.0, cluster.state.clock.now)
    finally:
        cluster.stop()
    assert verdict.mitigation_pass, verdict
    assert verdict.blast.objects_changed == (f"PodDisruptionBudget {case.namespace}/guard {verb}",)


def test_a_drain_evicts_what_the_budget_can_spare(served, tmp_path):
    """Three replicas under ``minAvailable: 1`` on the node a drain cordons: two are evicted
    (each replacement stays Pending, the node cordoned), the third is refused until the
    drain's timeout."""
    _, cluster, _, kubectl = served
    kubectl("create", "pdb", "guard", f"--selector={SELECTOR}", "--min-available=1")
    kubectl("scale", f"deployment/{SERVICE}", "--replicas=3")
    kubectl("rollout", "status", f"deployment/{SERVICE}", "--timeout=60s")
    before = set(_pods(kubectl))
    drain = subprocess.run(
        [KUBECTL or "kubectl", "--kubeconfig", str(cluster.kubeconfig_path), "drain",
         node_for(SERVICE), f"--pod-selector={SELECTOR}", "--ignore-daemonsets",
         "--delete-emptydir-data", "--timeout=3s"],
        capture_output=True, text=True, env=kubectl_env(tmp_path), timeout=60,
    )  # fmt: skip
    assert drain.returncode != 0
    assert drain.stdout.count(" evicted") == 2, drain.stdout
    assert "Cannot evict pod as it would violate the pod's disruption budget." in drain.stderr
    assert len(before & set(_pods(kubectl))) == 1
    assert _counts(_status(kubectl)) == (1, 1, 3, 0)
