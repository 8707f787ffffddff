"""Chaos Mesh and misconfiguration semantics of the twin, beyond the verdict table: what a
one-shot PodChaos does, when an experiment's duration ends it, what each application-level kind
does to its service, and what a cordon or a claim does to scheduling. Experiments are created
through real kubectl against the twin's cluster; pure rules are checked on the model."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sre.generator.objects import node
from sre.twin.model import (
    APPLICATION_CHAOS,
    STARTUP_S,
    chaos_acting,
    claim_phase,
    duration_s,
    missing_claim,
    missing_config,
    schedule,
)
from sre.twin.scenario import build_case, serve_case

KUBECTL = shutil.which("kubectl")


def _kubectl(cluster, tmp_path: Path, *args: str, stdin: str | None = None) -> str:
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "KUBECACHEDIR": str(tmp_path / "c")}
    run = subprocess.run(
        [KUBECTL or "kubectl", "--kubeconfig", str(cluster.kubeconfig_path), *args],
        capture_output=True, text=True, env=env, timeout=60, input=stdin,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    return run.stdout


def _experiment(kind: str, name: str, target: str, spec: dict) -> str:
    return json.dumps({
        "apiVersion": "chaos-mesh.org/v1alpha1", "kind": kind,
        "metadata": {"name": name, "namespace": "chaos-mesh"},
        "spec": {"mode": "all", "selector": {"namespaces": ["otel-demo"],
                 "labelSelectors": {"app.kubernetes.io/name": target}}, **spec},
    })  # fmt: skip


@pytest.fixture
def healthy(tmp_path):
    """A twin whose fault has been repaired (the delay experiment deleted): every service fine."""
    if KUBECTL is None:
        pytest.skip("kubectl is not installed here")
    case = build_case("network-delay", 3)
    cluster, twin = serve_case(case)
    try:
        _kubectl(cluster, tmp_path, "-n", "chaos-mesh", "delete", "networkchaos", case.root.name)
        now = cluster.state.clock.now
        assert all(h.healthy for h in twin.health(now + 1).values())
        yield case, cluster, twin
    finally:
        cluster.stop()


@pytest.mark.parametrize("action", ["pod-kill", "container-kill"])
def test_a_one_shot_kill_recovers_by_itself(healthy, tmp_path, action):
    case, cluster, twin = healthy
    target = case.target
    before = {p.name for p in twin.frames[-1].pods if p.deployment == target}
    _kubectl(cluster, tmp_path, "apply", "-f", "-",
             stdin=_experiment("PodChaos", "kill-once", target, {"action": action}))  # fmt: skip
    killed_at = cluster.state.clock.now
    after = {p.name for p in twin.frames[-1].pods if p.deployment == target}
    # pod-kill: a new pod; container-kill: the same pod, its container started again
    assert (after != before) == (action == "pod-kill")
    assert twin.health(killed_at + 1)[target].serving == 0
    # nobody acts, the experiment is still there: the service is back once the pod has started
    assert twin.health(killed_at + STARTUP_S + 1)[target].healthy
    assert twin.health(killed_at + 600)[target].healthy


def test_pod_failure_lasts_for_its_duration_then_recovers(healthy, tmp_path):
    case, cluster, twin = healthy
    target = case.target
    _kubectl(cluster, tmp_path, "apply", "-f", "-", stdin=_experiment(
        "PodChaos", "fail-a-while", target, {"action": "pod-failure", "duration": "2m"}))  # fmt: skip
    began = cluster.state.clock.now
    assert twin.health(began + 60)[target].serving == 0
    assert any(k.alertname == "KubePodNotReady" for k in twin.alert_conditions(began + 60))
    assert twin.health(began + 120 + STARTUP_S + 1)[target].healthy
    assert not any(k.subject == target for k in twin.alert_conditions(began + 120 + STARTUP_S + 1))


def test_a_paused_experiment_stops_acting(healthy, tmp_path):
    case, cluster, twin = healthy
    target = case.target
    _kubectl(cluster, tmp_path, "apply", "-f", "-", stdin=_experiment(
        "HTTPChaos", "slow", target, {"target": "Response", "delay": "3s", "port": 8080}))  # fmt: skip
    assert twin.health(cluster.state.clock.now + 1)[target].latency_ms >= 3000
    _kubectl(cluster, tmp_path, "-n", "chaos-mesh", "annotate", "httpchaos", "slow",
             "experiment.chaos-mesh.org/pause=true")  # fmt: skip
    assert twin.health(cluster.state.clock.now + 1)[target].latency_ms < 500


def test_durations_and_lifecycle():
    assert duration_s("90s") == 90 and duration_s("1h30m") == 5400 and duration_s("500ms") == 0.5
    assert duration_s("") is None and duration_s("soon") is None and duration_s("5x") is None
    exp = {"kind": "NetworkChaos", "metadata": {"name": "n"}, "spec": {"duration": "60s"}}
    since = {("NetworkChaos", "n"): 100.0}
    assert chaos_acting(exp, since, 159.0) and not chaos_acting(exp, since, 160.0)
    assert chaos_acting({**exp, "spec": {}}, since, 10_000.0)  # no duration: until deleted


@pytest.mark.parametrize(
    ("kind", "spec", "fails", "slower_ms"),
    [
        ("HTTPChaos", {"abort": True}, True, 0),
        ("HTTPChaos", {"replace": {"body": "e30="}}, True, 0),
        ("HTTPChaos", {"delay": "2s"}, False, 2000),
        ("HTTPChaos", {"abort": True, "port": 9999}, False, 0),  # another port: untouched
        ("JVMChaos", {"action": "exception", "exception": "java.io.IOException"}, True, 0),
        ("JVMChaos", {"action": "return", "value": "null"}, True, 0),
        ("JVMChaos", {"action": "latency", "latency": 1500}, False, 1500),
        ("JVMChaos", {"action": "gc"}, False, 900),
        ("IOChaos", {"action": "fault", "errno": 5}, True, 0),
        ("IOChaos", {"action": "latency", "delay": "800ms"}, False, 800),
    ],
)
def test_application_chaos(kind, spec, fails, slower_ms):
    failure, slower = APPLICATION_CHAOS[kind](spec, 8080)
    assert bool(failure) == fails
    assert slower == pytest.approx(slower_ms)


def test_loss_is_not_a_partition(healthy, tmp_path):
    """Packet loss: the service still receives requests (its own error alert fires), unlike a
    partition, which cuts it off from its callers."""
    case, cluster, twin = healthy
    target = case.target
    _kubectl(cluster, tmp_path, "apply", "-f", "-", stdin=_experiment(
        "NetworkChaos", "lossy", target, {"action": "loss", "loss": {"loss": "80"}}))  # fmt: skip
    h = twin.health(cluster.state.clock.now + 1)[target]
    assert h.errors and h.receives and h.serving > 0


def test_a_cordon_keeps_new_pods_off_the_node_only():
    cordoned = node("worker-1")
    cordoned["spec"] = {"unschedulable": True}
    template = {"spec": {}}
    nodes = {"worker-1": cordoned}
    # a service at home on worker-1 ("ad"): its running pod stays, a new one is refused
    from sre.generator.objects import node_for

    svc = next(s for s in ("ad", "cart", "email", "quote", "shipping") if node_for(s) == "worker-1")
    assert schedule(svc, template, nodes, 50.0, {}, {"worker-1": 100.0})[0] == "worker-1"
    placed, why = schedule(svc, template, nodes, 150.0, {}, {"worker-1": 100.0})
    assert placed is None and "unschedulable" in why


def test_claims_and_config_references():
    template = {"spec": {"volumes": [{"name": "d", "persistentVolumeClaim": {"claimName": "c"}}]}}
    assert "not found" in missing_claim(template, {})
    pending = {"spec": {"storageClassName": "fast"}, "status": {"phase": "Pending"}}
    assert "unbound" in missing_claim(template, {"c": pending})
    assert missing_claim(template, {"c": {"status": {"phase": "Bound"}}}) == ""
    assert claim_phase({"spec": {"storageClassName": "fast"}}, ["standard"]) == "Pending"
    assert claim_phase({"spec": {"storageClassName": "fast"}}, ["fast"]) == "Bound"
    env = {"name": "T", "valueFrom": {"secretKeyRef": {"name": "s", "key": "token"}}}
    pod = {"spec": {"containers": [{"env": [env]}]}}
    assert missing_config(pod, {}, []) == 'Error: secret "s" not found'
    secret = {"metadata": {"name": "s", "namespace": "otel-demo"}, "data": {"other": "eA=="}}
    assert "couldn't find key token" in missing_config(pod, {"s": secret}, [])
    assert missing_config(pod, {"s": {**secret, "data": {"token": "eA=="}}}, []) == ""
    optional = {**env, "valueFrom": {"secretKeyRef": {**env["valueFrom"]["secretKeyRef"],
                                                      "optional": True}}}  # fmt: skip
    assert missing_config({"spec": {"containers": [{"env": [optional]}]}}, {}, []) == ""


def test_an_image_for_another_architecture_crashes_on_the_node():
    from sre.twin.model import image_platform, wrong_platform

    assert image_platform("ghcr.io/open-telemetry/demo:2.0.2-cart") is None  # multi-platform
    assert image_platform("quay.io/x/hello-arm64:1.0.0") == "arm64"
    assert image_platform("quay.io/x/hello-amd64@sha256:abc") == "amd64"
    arm = {"spec": {"containers": [{"name": "c", "image": "quay.io/x/hello-arm64:1.0.0"}]}}
    assert "exec format error" in wrong_platform(arm, node("worker-1"))  # amd64 by default
    arm_node = {**node("worker-1"), "status": {"nodeInfo": {"architecture": "arm64"}}}
    assert wrong_platform(arm, arm_node) == ""


def test_a_valkey_password_the_client_does_not_send_is_refused():
    from sre.twin.model import auth_refused

    def dep(**ctr) -> dict:
        return {"spec": {"template": {"spec": {"containers": [ctr]}}}}

    server = dep(args=["--requirepass", "s3"])
    assert auth_refused(dep(env=[]), server)
    assert auth_refused(dep(env=[{"name": "VALKEY_PASSWORD", "value": "other"}]), server)
    assert not auth_refused(dep(env=[{"name": "VALKEY_PASSWORD", "value": "s3"}]), server)
    assert not auth_refused(dep(env=[]), dep(args=["--maxmemory", "64mb"]))
    assert auth_refused(dep(env=[]), dep(args=["--requirepass=s3"]))


def test_valkey_memory_units_and_eviction():
    from sre.twin.model import valkey_bytes, valkey_out_of_memory

    assert valkey_bytes("16mb") == 16 * 2**20 and valkey_bytes("16m") == 16e6
    assert valkey_bytes("1gb") == 2**30 and valkey_bytes("lots") is None

    def dep(*args: str) -> dict:
        return {"spec": {"template": {"spec": {"containers": [{"args": list(args)}]}}}}

    assert "OOM" in valkey_out_of_memory(dep("--maxmemory", "16mb"))  # noeviction by default
    assert (
        valkey_out_of_memory(dep("--maxmemory", "16mb", "--maxmemory-policy", "allkeys-lru")) == ""
    )
    assert valkey_out_of_memory(dep("--maxmemory", "256mb")) == ""
    assert valkey_out_of_memory(dep("--maxmemory", "0")) == ""  # 0: no limit
    assert valkey_out_of_memory(dep()) == ""
