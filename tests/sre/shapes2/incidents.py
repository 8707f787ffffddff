"""One incident per family of ITBench's fault mechanisms, each with its root cause named as
ITBench's ground truths name it (see ``writer.py`` for the shop and its normal life)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from tests.sre.shapes2.writer import (
    FAULT,
    NS,
    T0,
    Incident,
    Obj,
    _meta,
    flagd_config,
    pod,
    pod_of,
)

Objects = dict[tuple[str, str], Obj]
CHAOS_API = "chaos-mesh.org/v1alpha1"


def _schedule(name: str, kind: str, app: str, spec: dict[str, Any]) -> dict[str, Any]:
    field = kind[0].lower() + kind[1:]
    return {
        "apiVersion": CHAOS_API, "kind": "Schedule", "metadata": _meta(name),
        "spec": {"schedule": "@every 1m", "type": kind, "historyLimit": 1,
                 "concurrencyPolicy": "Forbid",
                 field: {"mode": "all", "duration": "50s",
                         "selector": {"namespaces": [NS],
                                      "labelSelectors": {"app.kubernetes.io/name": app}},
                         **spec}},
    }  # fmt: skip


def _scheduled(objs: Objects, t: datetime, name: str, kind: str, app: str,
               spec: dict[str, Any], since: datetime) -> None:  # fmt: skip
    """A Schedule created at ``since`` and the one experiment it has running at ``t``: a new
    object each minute, named after the Schedule and the minute, owned by the Schedule."""
    if t < since:
        return
    sched = Obj(_schedule(name, kind, app, spec))
    sched.write(since, "kubectl-client-side-apply")
    objs["Schedule", name] = sched
    minute = t.replace(second=0, microsecond=0)
    child_name = f"{name}-{int(minute.timestamp()) % 100000:05d}"
    body = sched.rendered()["spec"][kind[0].lower() + kind[1:]]
    child = Obj({
        "apiVersion": CHAOS_API, "kind": kind,
        "metadata": _meta(child_name, ownerReferences=[
            {"apiVersion": CHAOS_API, "kind": "Schedule", "name": name, "controller": True}]),
        "spec": body,
        "status": {"experiment": {"desiredPhase": "Run"}},
    })  # fmt: skip
    child.write(minute, "chaos-controller-manager")
    objs[kind, child_name] = child


def schedule_delay(objs: Objects, t: datetime) -> None:
    _scheduled(objs, t, "product-catalog-network-delay", "NetworkChaos", "product-catalog",
               {"action": "delay", "delay": {"latency": "2s"}}, FAULT)  # fmt: skip


def schedule_partition(objs: Objects, t: datetime) -> None:
    _scheduled(objs, t, "checkout-cart-network-partition", "NetworkChaos", "cart",
               {"action": "partition", "direction": "from",
                "target": {"mode": "all", "selector": {
                    "labelSelectors": {"app.kubernetes.io/name": "checkout"}}}}, FAULT)  # fmt: skip


def schedule_stress_before(objs: Objects, t: datetime) -> None:
    # created before the export began: every observation shows it, none shows it change
    _scheduled(objs, t, "payment-memory-stress", "StressChaos", "payment",
               {"stressors": {"memory": {"workers": 4, "size": "900MB"}}},
               T0 - timedelta(minutes=30))  # fmt: skip
    if t >= FAULT:
        objs["Pod", pod_of("payment")].body["status"] = {
            "phase": "Running", "conditions": [{"type": "Ready", "status": "False"}],
            "containerStatuses": [{"name": "payment", "ready": False, "restartCount": 4,
                                   "state": {"waiting": {"reason": "CrashLoopBackOff"}},
                                   "lastState": {"terminated": {"reason": "OOMKilled",
                                                                "exitCode": 137}}}]}  # fmt: skip


def corrupted_secret(objs: Objects, t: datetime) -> None:
    if t >= FAULT:
        s = objs["Secret", "email-service-secret"]
        s.body["data"]["password"] = "Y29ycnVwdGVk"
        s.write(FAULT)


def redacted_secret(objs: Objects, t: datetime) -> None:
    # the exporter withholds Secret data: only the new resourceVersion and write show the edit
    s = objs["Secret", "email-service-secret"]
    del s.body["data"]
    if t >= FAULT:
        s.write(FAULT)


def deleted_service(objs: Objects, t: datetime) -> None:
    if t >= FAULT:
        del objs["Service", "product-catalog"]


def capped_hpa(objs: Objects, t: datetime) -> None:
    d = objs["Deployment", "checkout"]
    d.body["spec"]["replicas"] = 3  # the autoscaler's choice under the shop's usual load
    d.write(T0 - timedelta(hours=5), "kube-controller-manager")
    if t >= FAULT:
        h = objs["HorizontalPodAutoscaler", "checkout"]
        h.body["spec"]["maxReplicas"] = 1
        h.write(FAULT)
        d.body["spec"]["replicas"] = 1  # the autoscaler obeying its new cap
        d.write(FAULT + timedelta(seconds=15), "kube-controller-manager")


def _unschedulable(objs: Objects, t: datetime, app: str, message: str) -> None:
    if t >= FAULT:
        del objs["Pod", pod_of(app)]
        objs["Pod", pod_of(app, 1)] = Obj(pod(app, 1, {
            "phase": "Pending",
            "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                            "message": message}]}))  # fmt: skip


def preemption(objs: Objects, t: datetime) -> None:
    if t >= FAULT:
        batch = Obj({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": _meta("nightly-report", {"app.kubernetes.io/name": "nightly-report"}),
            "spec": {"replicas": 1, "selector": {"matchLabels": {
                "app.kubernetes.io/name": "nightly-report"}},
                "template": {"metadata": {"labels": {"app.kubernetes.io/name": "nightly-report"}},
                             "spec": {"priorityClassName": "business-critical", "containers": [
                                 {"name": "report", "image": "registry.local/report:3"}]}}}})  # fmt: skip
        batch.write(FAULT - timedelta(seconds=10), "kubectl-client-side-apply")
        objs["Deployment", "nightly-report"] = batch
    _unschedulable(objs, t, "payment", "0/3 nodes are available: 3 Insufficient cpu.")


def cordoned(objs: Objects, t: datetime) -> None:
    _unschedulable(
        objs,
        t,
        "email",
        "0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient memory.",
    )


def flag_flip(objs: Objects, t: datetime) -> None:
    if t >= FAULT:
        c = objs["ConfigMap", "flagd-config"]
        c.body = flagd_config(on="paymentFailure")
        c.write(FAULT)


def bad_rollout(objs: Objects, t: datetime) -> None:
    if t >= FAULT:
        d = objs["Deployment", "checkout"]
        d.body["spec"]["template"]["spec"]["containers"][0]["image"] = (
            "ghcr.io/open-telemetry/demo:2.0.3-checkout"
        )
        d.write(FAULT, "argocd-controller")
        del objs["Pod", pod_of("checkout")]
        objs["Pod", pod_of("checkout", 1)] = Obj(pod("checkout", 1, {
            "phase": "Running", "conditions": [{"type": "Ready", "status": "False"}],
            "containerStatuses": [{"name": "checkout", "ready": False, "restartCount": 3,
                                   "state": {"waiting": {"reason": "CrashLoopBackOff"}}}]}))  # fmt: skip


def target_port(objs: Objects, t: datetime) -> None:
    if t >= FAULT:
        s = objs["Service", "email"]
        s.body["spec"]["ports"][0]["targetPort"] = 8081
        s.write(FAULT)


def scaled_to_zero(objs: Objects, t: datetime) -> None:
    if t >= FAULT:
        d = objs["Deployment", "email"]
        d.body["spec"]["replicas"] = 0
        d.body["status"] = {"replicas": 0}
        d.write(FAULT, "kubectl-scale")
        del objs["Pod", pod_of("email")]


def valkey_password(objs: Objects, t: datetime) -> None:
    if t >= FAULT:
        d = objs["Deployment", "valkey-cart"]
        d.body["spec"]["template"]["spec"]["containers"][0]["args"] = [
            "--requirepass",
            "rotated-3f9",
        ]
        d.write(FAULT, "kubectl-patch")


def hanging_init(objs: Objects, t: datetime) -> None:
    if t >= FAULT:
        d = objs["Deployment", "email"]
        d.body["spec"]["strategy"] = {"type": "Recreate"}
        d.body["spec"]["template"]["spec"]["initContainers"] = [
            {"name": "wait-for-smtp", "image": "busybox:1.36",
             "command": ["sh", "-c", "until nc -z smtp-relay 25; do sleep 2; done"]}
        ]  # fmt: skip
        d.write(FAULT, "kubectl-patch")
        del objs["Pod", pod_of("email")]
        objs["Pod", pod_of("email", 1)] = Obj(pod("email", 1, {
            "phase": "Pending", "conditions": [{"type": "Initialized", "status": "False"}],
            "initContainerStatuses": [{"name": "wait-for-smtp", "ready": False,
                                       "state": {"running": {}}}],
            "containerStatuses": [{"name": "email", "ready": False,
                                   "state": {"waiting": {"reason": "PodInitializing"}}}]}))  # fmt: skip


def readiness_probe(objs: Objects, t: datetime) -> None:
    if t >= FAULT:
        d = objs["Deployment", "checkout"]
        d.body["spec"]["template"]["spec"]["containers"][0]["readinessProbe"] = {
            "httpGet": {"path": "/healthz", "port": 8089}, "periodSeconds": 5}  # fmt: skip
        d.write(FAULT, "kubectl-patch")
        objs["Pod", pod_of("checkout")].body["status"] = {
            "phase": "Running", "conditions": [{"type": "Ready", "status": "False"}],
            "containerStatuses": [{"name": "checkout", "ready": False, "restartCount": 0,
                                   "state": {"running": {}}}]}  # fmt: skip


def _rc(kind: str, name: str) -> str:
    return f"{NS}/{kind}/{name}"


INCIDENTS = {
    i.name: i
    for i in (
        Incident("schedule-network-delay", _rc("Schedule", "product-catalog-network-delay"),
                 "scheduled-chaos-mesh-experiment", schedule_delay,
                 effect={"product-catalog": "slow"}, alert="HighRequestLatency"),
        Incident("schedule-partition-grpc", _rc("Schedule", "checkout-cart-network-partition"),
                 "scheduled-chaos-mesh-experiment", schedule_partition, unreachable=("cart",),
                 client_error="transport: Error while dialing: dial tcp: i/o timeout"),
        Incident("schedule-stress-before-export", _rc("Schedule", "payment-memory-stress"),
                 "scheduled-chaos-mesh-experiment", schedule_stress_before,
                 unreachable=("payment",),
                 events=(("Pod", pod_of("payment"), "BackOff",
                          "Back-off restarting failed container payment"),)),
        Incident("corrupted-secret", _rc("Secret", "email-service-secret"),
                 "corrupted-kubernetes-secret-credentials", corrupted_secret,
                 effect={"email": "error"}, client_error="535 5.7.8 authentication failed"),
        Incident("redacted-secret", _rc("Secret", "email-service-secret"),
                 "corrupted-kubernetes-secret-credentials", redacted_secret,
                 effect={"email": "error"}, client_error="535 5.7.8 authentication failed",
                 decoy_rollout="email"),
        Incident("deleted-service", _rc("Service", "product-catalog"),
                 "deleted-kubernetes-service", deleted_service, unreachable=("product-catalog",),
                 client_error="name resolver error: produced zero addresses"),
        Incident("capped-hpa", _rc("HorizontalPodAutoscaler", "checkout"),
                 "misconfigured-kubernetes-horizontal-pod-autoscaler", capped_hpa,
                 effect={"checkout": "slow"}, alert="HighRequestLatency"),
        Incident("priority-preemption", _rc("Deployment", "payment"),
                 "priority-kubernetes-workload-priority-preemption", preemption,
                 unreachable=("payment",),
                 events=(("Pod", pod_of("payment"), "Preempted",
                          "Preempted by pod nightly-report-6c9d8f7b5-k2j4h on node worker-2"),
                         ("Pod", pod_of("payment", 1), "FailedScheduling",
                          "0/3 nodes are available: 3 Insufficient cpu."))),
        Incident("cordoned-node", _rc("Deployment", "email"),
                 "cordoned-kubernetes-worker-node", cordoned, unreachable=("email",),
                 events=(("Pod", pod_of("email", 1), "FailedScheduling",
                          "0/3 nodes are available: 1 node(s) were unschedulable, "
                          "2 Insufficient memory."),)),
        Incident("flag-flip", _rc("ConfigMap", "flagd-config"), "opentelemetry-demo-feature-flag",
                 flag_flip, effect={"payment": "error"}, client_error="Payment request failed"),
        Incident("bad-rollout", _rc("Deployment", "checkout"),
                 "invalid-kubernetes-workload-container-command", bad_rollout,
                 unreachable=("checkout",),
                 events=(("Pod", pod_of("checkout", 1), "BackOff",
                          "Back-off restarting failed container checkout"),)),
        Incident("target-port", _rc("Service", "email"), "modified-target-port-kubernetes-service",
                 target_port, unreachable=("email",)),
        Incident("scaled-to-zero", _rc("Deployment", "email"), "scaled-to-zero-kubernetes-workload",
                 scaled_to_zero, unreachable=("email",), decoy_rollout="cart"),
        Incident("hanging-init-container", _rc("Deployment", "email"),
                 "hanging-kubernetes-workload-init-container", hanging_init,
                 unreachable=("email",)),
        Incident("readiness-probe", _rc("Deployment", "checkout"),
                 "misconfigured-kubernetes-workload-container-readiness-probe", readiness_probe,
                 unreachable=("checkout",),
                 events=(("Pod", pod_of("checkout"), "Unhealthy",
                          "Readiness probe failed: dial tcp 10.0.3.7:8089: connect: "
                          "connection refused"),)),
        Incident("valkey-password", _rc("Deployment", "valkey-cart"),
                 "valkey-workload-changed-password", valkey_password,
                 unreachable=("valkey-cart",),
                 client_error="WRONGPASS invalid username-password pair or user is disabled."),
    )
}  # fmt: skip
