"""The twin's models behind ITBench's last eight mechanisms, rule by rule (``sre/twin/mesh.py``,
``autoscaler.py``, ``apiserver.py``, ``model.preempted``), and what ``kubectl`` shows of them on
a served incident. The verdict per remedy is in ``test_sre_mitigation_verdicts.py``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sre.twin import apiserver, autoscaler, mesh
from sre.twin.model import Pod, preempted

NS = "otel-demo"
AMBIENT = {mesh.MODE_LABEL: "ambient"}


def _peer(name: str, mode: str, namespace: str = NS, selector: dict | None = None) -> dict:
    spec: dict = {"mtls": {"mode": mode}}
    if selector:
        spec["selector"] = {"matchLabels": selector}
    return {"kind": "PeerAuthentication", "metadata": {"name": name, "namespace": namespace},
            "spec": spec}  # fmt: skip


def test_enrolment_follows_the_namespace_unless_the_pod_opts_out_or_in():
    assert mesh.enrolled(AMBIENT, {})
    assert not mesh.enrolled(AMBIENT, {mesh.MODE_LABEL: "none"})
    assert mesh.enrolled({}, {mesh.MODE_LABEL: "ambient"})
    assert not mesh.enrolled({mesh.MODE_LABEL: "none"}, {})


def test_the_most_specific_peer_authentication_applies():
    labels = {"app.kubernetes.io/name": "cart"}
    mesh_wide = _peer("default", "STRICT", mesh.ROOT_NAMESPACE)
    assert mesh.peer_mode([mesh_wide], NS, labels) == "STRICT"
    ns_wide = _peer("ns", "PERMISSIVE")
    assert mesh.peer_mode([mesh_wide, ns_wide], NS, labels) == "PERMISSIVE"
    workload = _peer("cart", "STRICT", selector=labels)
    assert mesh.peer_mode([mesh_wide, ns_wide, workload], NS, labels) == "STRICT"
    other = _peer("ad", "DISABLE", selector={"app.kubernetes.io/name": "ad"})
    assert mesh.peer_mode([ns_wide, other], NS, labels) == "PERMISSIVE"
    assert mesh.peer_mode([], NS, labels) == "PERMISSIVE"


def test_strict_refuses_plaintext_only_at_an_enrolled_destination():
    strict = [_peer("mtls-strict", "STRICT")]
    out = {mesh.MODE_LABEL: "none"}
    assert mesh.mtls_refused(strict, NS, AMBIENT, out, {})  # plaintext to an enrolled callee
    assert not mesh.mtls_refused(strict, NS, AMBIENT, {}, out)  # the callee enforces nothing
    assert not mesh.mtls_refused(strict, NS, AMBIENT, {}, {})  # both in the mesh: mTLS
    assert not mesh.mtls_refused([_peer("p", "PERMISSIVE")], NS, AMBIENT, out, {})


GATEWAY = {"kind": "Gateway", "metadata": {"name": "gw", "namespace": NS},
           "spec": {"gatewayClassName": "istio"}}  # fmt: skip


def _authz(action: str, rules: list | None, name: str = "p", target: str = "gw") -> dict:
    spec: dict = {"action": action,
                  "targetRef": {"group": "gateway.networking.k8s.io", "kind": "Gateway",
                                "name": target}}  # fmt: skip
    if rules is not None:
        spec["rules"] = rules
    return {"kind": "AuthorizationPolicy", "metadata": {"name": name, "namespace": NS},
            "spec": spec}  # fmt: skip


def test_gateway_policies_match_methods_and_paths():
    deny = _authz("DENY", [{"to": [{"operation": {"methods": ["GET", "POST"]}}]}])
    assert "RBAC: access denied" in mesh.gateway_denial([deny], [GATEWAY])
    # another Gateway's policy, a DENY without rules, a method users do not send: nothing denied
    assert mesh.gateway_denial([_authz("DENY", [{"to": [{"operation": {"methods": ["GET"]}}]}],
                                       target="other")], [GATEWAY]) == ""  # fmt: skip
    assert mesh.gateway_denial([_authz("DENY", None)], [GATEWAY]) == ""
    assert mesh.gateway_denial([_authz("DENY", [{"to": [{"operation": {"methods": ["PUT"]}}]}])],
                               [GATEWAY]) == ""  # fmt: skip
    # a rule without ``to`` matches every request; a path rule only its paths
    assert mesh.gateway_denial([_authz("DENY", [{}])], [GATEWAY])
    admin = _authz("DENY", [{"to": [{"operation": {"paths": ["/admin*"]}}]}])
    assert mesh.gateway_denial([admin], [GATEWAY]) == ""
    api = _authz("DENY", [{"to": [{"operation": {"paths": ["/api/*"]}}]}])
    assert "/api/cart" in mesh.gateway_denial([api], [GATEWAY])
    # ALLOW policies let in only what one matches; AUDIT denies nothing
    only_get = _authz("ALLOW", [{"to": [{"operation": {"methods": ["GET"]}}]}])
    assert "POST" in mesh.gateway_denial([only_get], [GATEWAY])
    assert mesh.gateway_denial([_authz("AUDIT", [{}])], [GATEWAY]) == ""
    # no Gateway, no mesh
    assert not mesh.installed([]) and mesh.installed([GATEWAY])


def _dep(replicas: int = 1, cpu: str | None = "100m", memory_limit: str = "512Mi") -> dict:
    resources: dict = {"limits": {"memory": memory_limit}}
    if cpu:
        resources["requests"] = {"cpu": cpu}
    return {"spec": {"replicas": replicas, "template": {"spec": {"containers": [
        {"name": "x", "resources": resources}]}}}}  # fmt: skip


def _hpa(cpu: int, memory: int | None = None, low: int = 1, high: int = 3) -> dict:
    metrics = [{"type": "Resource", "resource": {"name": "cpu", "target": {
        "type": "Utilization", "averageUtilization": cpu}}}]  # fmt: skip
    if memory is not None:
        metrics.append({"type": "Resource", "resource": {"name": "memory", "target": {
            "type": "Utilization", "averageUtilization": memory}}})  # fmt: skip
    return {"spec": {"scaleTargetRef": {"kind": "Deployment", "name": "ad"}, "minReplicas": low,
                     "maxReplicas": high, "metrics": metrics}}  # fmt: skip


def test_the_autoscaler_follows_kubernetes_rule():
    # 23m idle + 24m of traffic over one 100m request: 47 %; target 70 %: ratio 0.67, outside
    # the tolerance, ceil(1 × 0.67) = 1
    assert autoscaler.utilisation(_dep(), "cpu", 1) == pytest.approx(47.0)
    assert autoscaler.utilisation(_dep(), "cpu", 2) == pytest.approx(35.0)
    assert autoscaler.scaled_replicas(_hpa(70), _dep()) == 1
    # target 20 %: below the 23 % an idle pod uses, so every step asks for more pods: the count
    # runs to the maximum, whatever the maximum is (raising it moves the ceiling, not the cause)
    assert autoscaler.scaled_replicas(_hpa(20), _dep()) == 3
    assert autoscaler.scaled_replicas(_hpa(20, high=10), _dep()) == 10
    assert autoscaler.scaled_replicas(_hpa(20, high=50), _dep()) == 50
    # target 10 %: clamped to the maximum
    assert autoscaler.scaled_replicas(_hpa(10, high=5), _dep()) == 5
    # a reachable target settles below the ceiling: 50 % at one replica is a ratio of 0.94
    assert autoscaler.scaled_replicas(_hpa(50, high=10), _dep()) == 1
    # 25 %: 1 -> 2 -> 3 -> 4 -> 5 -> 6, where 27 % against 25 % is within the tolerance
    assert autoscaler.scaled_replicas(_hpa(25, high=10), _dep()) == 6
    # from a manual scale to 1 the autoscaler climbs back; from 3 a sane target comes down
    # (3: 31 % -> ceil(1.33) = 2; 2: 35 % -> ceil(1.0) = 1)
    assert autoscaler.scaled_replicas(_hpa(20), _dep(replicas=1)) == 3
    assert autoscaler.scaled_replicas(_hpa(70), _dep(replicas=3)) == 1
    assert autoscaler.scaled_replicas(_hpa(70, high=10), _dep(replicas=10)) == 1
    # the memory metric: 96Mi of 512Mi (the limit stands for the missing request) = 18.75 %
    assert autoscaler.utilisation(_dep(), "memory", 1) == pytest.approx(18.75)
    # a memory target below it: ceil(1 × 1.875) = 2, then ceil(2 × 1.875) = 4; a pod's working
    # set does not shrink with more replicas, so the count runs to the maximum
    assert autoscaler.scaled_replicas(_hpa(70, memory=10), _dep()) == 3
    # minReplicas holds; a Deployment at zero is not scaled; no request, no utilisation
    assert autoscaler.scaled_replicas(_hpa(70, low=2), _dep()) == 2
    assert autoscaler.scaled_replicas(_hpa(20), _dep(replicas=0)) == 0
    assert autoscaler.scaled_replicas(_hpa(20), _dep(cpu=None)) == 1


def _pod(name: str, node: str, cpu: str, created: float, cls: str = "", rate: int = 0) -> Pod:
    spec: dict = {"nodeSelector": {"kubernetes.io/hostname": node},
                  "containers": [{"resources": {"requests": {"cpu": cpu}}, "env": (
                      [{"name": "REQUESTS_PER_SECOND", "value": str(rate)}] if rate else [])}]}  # fmt: skip
    if cls:
        spec["priorityClassName"] = cls
    return Pod(name, NS, name, name, {}, {"spec": spec}, created, node, "Running")


def test_priority_decides_who_keeps_a_full_node():
    nodes = {"worker-1": {"status": {"allocatable": {"cpu": "1"}}}}
    big = [_pod(f"big-{i}", "worker-1", "300m", 0.0, "high") for i in range(3)]
    low = _pod("low", "worker-1", "200m", -100.0, "low")  # older, lower: preempted
    assert set(preempted([*big, low], nodes, {"high": 1000, "low": 1})) == {"low"}
    # equal priority preempts nothing: the earlier pod keeps its place
    late = _pod("late", "worker-1", "200m", 50.0, "high")
    assert set(preempted([*big, late], nodes, {"high": 1000})) == {"late"}
    # room for all: nobody moves; a pod not pinned by name does not count
    assert preempted([big[0], low], nodes, {"high": 1000, "low": 1}) == {}
    loose = Pod("loose", NS, "loose", "loose", {}, {"spec": {"containers": [
        {"resources": {"requests": {"cpu": "900m"}}}]}}, 0.0, "worker-1", "Running")  # fmt: skip
    assert preempted([*big, loose], nodes, {"high": 1000}) == {}


def test_the_api_server_saturates_above_its_capacity():
    clients = [_pod(f"c{i}", "worker-1", "10m", 0.0, rate=60) for i in range(2)]
    assert apiserver.request_rate(clients) == 120 and apiserver.saturated(clients)
    assert not apiserver.saturated(clients[:1])
    pending = Pod("p", NS, "c", "c", {}, clients[0].template, 0.0, None, "Pending")
    assert apiserver.request_rate([pending]) == 0  # a pod that does not run sends nothing


KUBECTL = shutil.which("kubectl")


@pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed here")
def test_kubectl_sees_the_autoscaler_and_the_mesh_objects(tmp_path: Path):
    """On a served incident the HPA shows its status and the Deployment the count the HPA gave
    it; the mesh's kinds are served like any other."""
    from sre.twin.scenario import build_case, serve_case

    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path)}

    def kubectl(cluster, *args: str) -> dict:
        run = subprocess.run([KUBECTL or "kubectl", "--kubeconfig", str(cluster.kubeconfig_path),
                              *args, "-o", "json"], capture_output=True, text=True, env=env,
                             timeout=60)  # fmt: skip
        assert run.returncode == 0, run.stderr
        return json.loads(run.stdout)

    case = build_case("hpa-misconfigured", 3)
    cluster, _ = serve_case(case)
    try:
        hpa = kubectl(cluster, "-n", NS, "get", "hpa", case.target)
        assert hpa["status"]["currentReplicas"] == 3
        assert (
            hpa["status"]["currentMetrics"][0]["resource"]["current"]["averageUtilization"] == 31
        )  # 23m idle + 8m of traffic
        assert kubectl(cluster, "-n", NS, "get", "deployment", case.target)["spec"]["replicas"] == 3
        pods = kubectl(cluster, "-n", NS, "get", "pods", "-l",
                       f"app.kubernetes.io/name={case.target}")["items"]  # fmt: skip
        assert len(pods) == 3
    finally:
        cluster.stop()
    case = build_case("strict-mtls", 3)
    cluster, _ = serve_case(case)
    try:
        policy = kubectl(cluster, "-n", NS, "get", "peerauthentication", "mtls-strict")
        assert policy["spec"]["mtls"]["mode"] == "STRICT"
        namespace = kubectl(cluster, "get", "namespace", NS)
        assert namespace["metadata"]["labels"][mesh.MODE_LABEL] == "ambient"
        assert kubectl(cluster, "-n", NS, "get", "gateways")["items"]
    finally:
        cluster.stop()


@pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed here")
def test_relaxing_strict_mtls_beside_the_repair_is_destructive(tmp_path: Path):
    """Fixing the workload's label *and* deleting the STRICT policy clears every alert (lenient
    pass), and the blast radius records the lost mTLS as destructive: strict fails."""
    from sre.generator.faults import FAULT_TYPES
    from sre.twin.scenario import build_case, remedy_context
    from tests._support.sre_twin import run_commands as _run

    case = build_case("strict-mtls", 3)
    (fix,) = [
        r for r in FAULT_TYPES["strict-mtls"].remedies if r.name == "remove the opt-out label"
    ]
    commands = [*fix.commands(remedy_context(case)),
                ["-n", NS, "delete", "peerauthentication", "mtls-strict"]]  # fmt: skip
    verdict = _run("strict-mtls", commands, tmp_path)
    assert verdict.mitigation_pass, verdict
    assert not verdict.strict_mitigation_pass
    assert f"PeerAuthentication {NS}/mtls-strict: STRICT mTLS relaxed" in verdict.blast.destructive


@pytest.mark.parametrize(("fault", "istio"), [("gateway-deny", True), ("ambient-off", True),
                                              ("strict-mtls", True), ("api-surge", False)])  # fmt: skip
def test_mesh_faults_count_istio_among_their_technologies(fault, istio, tmp_path: Path):
    from sre.complexity import complexity
    from sre.generator.ground_truth import load_ground_truth
    from sre.generator.snapshot import write_incident

    write_incident(tmp_path / fault, fault, 3)
    truth = load_ground_truth(tmp_path / fault / "ground_truth.yaml")
    assert ("Istio" in complexity(truth, fault).technologies) is istio
