"""Alerts over the twin, by the rules the generator writes its alert files with
(``sre/generator/alerts.py``): request error ratio and p95 latency per service, the faulty
workload's own alert, each with a one-minute ``for`` on the simulated clock.

An alert is identified by its name and its subject (service, deployment or node), not by the pod
it names: a crash-looping pod deleted and replaced by another crash-looping pod is the same alert
still firing, as ITBench's recovery check matches alerts by name and a subset of labels.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from sre.generator.alerts import LATENCY_P95_MS
from sre.twin.model import Pod, ServiceHealth

#: every rule's ``for`` (the generator's: one minute)
FOR_S = 60.0


@dataclass(frozen=True, order=True)
class AlertKey:
    alertname: str
    subject: str

    def __str__(self) -> str:
        return f"{self.alertname} on {self.subject}"


@dataclass(frozen=True)
class AlertState:
    key: AlertKey
    state: Literal["pending", "firing"]
    #: when the condition last became true (Prometheus' activeAt)
    active_at: float
    labels: Mapping[str, str]
    description: str


def conditions(
    namespace: str,
    health: Mapping[str, ServiceHealth],
    pods: Sequence[Pod],
    pressured_nodes: Sequence[str],
    throttled: Mapping[str, str],
    now: float,
) -> dict[AlertKey, tuple[dict[str, str], str]]:
    """Alert key -> (labels, description) of every rule whose condition holds at ``now``."""
    out: dict[AlertKey, tuple[dict[str, str], str]] = {}
    for name, h in sorted(health.items()):
        if not h.receives or name == "load-generator":
            continue  # no requests reach it: no spans, no request metrics
        labels = {"service_name": name, "namespace": namespace}
        if h.errors:
            out[AlertKey("RequestErrorRate", name)] = (
                {**labels, "severity": "critical"},
                f"Error rate of {name} is above 5%: {h.why[0]}",
            )
        if h.latency_ms > LATENCY_P95_MS:
            out[AlertKey("RequestLatency", name)] = (
                {**labels, "severity": "warning"},
                f"p95 latency of {name} is above {LATENCY_P95_MS:.0f} ms",
            )
    by_deployment: dict[str, list[Pod]] = {}
    for pod in pods:
        by_deployment.setdefault(pod.deployment, []).append(pod)
        base = {"namespace": namespace, "pod": pod.name, "service_name": pod.deployment}
        if pod.crash_looping(now):
            out[AlertKey("KubePodCrashLooping", pod.deployment)] = (
                {**base, "severity": "warning"},
                f"Pod {pod.name} is crash looping",
            )
        elif not pod.ready(now) and now >= pod.created + 2 * 15.0:
            out[AlertKey("KubePodNotReady", pod.deployment)] = (
                {**base, "severity": "warning"},
                f"Pod {pod.name} has been in a non-ready state",
            )
    for node in pressured_nodes:
        out[AlertKey("KubeNodeDiskPressure", node)] = (
            {"node": node, "severity": "warning"},
            f"Node {node} has DiskPressure",
        )
    for deployment, pod_name in sorted(throttled.items()):
        out[AlertKey("CPUThrottlingHigh", deployment)] = (
            {
                "namespace": namespace,
                "pod": pod_name,
                "service_name": deployment,
                "severity": "info",
            },
            f"CPU throttling of {pod_name} is high",
        )
    return out


def replicas_mismatch(
    namespace: str, desired: Mapping[str, int], available: Mapping[str, int]
) -> dict[AlertKey, tuple[dict[str, str], str]]:
    return {
        AlertKey("KubeDeploymentReplicasMismatch", name): (
            {
                "namespace": namespace,
                "deployment": name,
                "service_name": name,
                "severity": "warning",
            },
            f"Deployment {name} has not matched the expected number of replicas",
        )  # fmt: skip
        for name, want in sorted(desired.items())
        if available.get(name, 0) < want
    }


def no_requests_seen(
    namespace: str, services: Sequence[str]
) -> dict[AlertKey, tuple[dict[str, str], str]]:
    """The mesh's telemetry alert: requests reach each of ``services`` and the mesh counts none
    (its pods are outside the mesh: no ztunnel or waypoint reports them)."""
    return {
        AlertKey("NoRequestsReceived", name): (
            {"namespace": namespace, "service_name": name, "severity": "warning"},
            f"The mesh has seen no request to {name}",
        )
        for name in services
    }


def evaluate(
    moments: Sequence[float],
    holds: Callable[[float], Mapping[AlertKey, tuple[dict[str, str], str]]],
    now: float,
) -> dict[AlertKey, AlertState]:
    """Prometheus' view at ``now``: each condition true at ``now`` is pending, or firing once it
    has held for ``FOR_S``. ``moments`` are the times the conditions may change (writes, pods
    starting or crashing), in order; between two of them nothing changes."""
    current = holds(now)
    states = {}
    earlier = [m for m in moments if m < now]
    for key, (labels, description) in current.items():
        since = now
        for moment in reversed(earlier):
            if key not in holds(moment):
                break
            since = moment
        state: Literal["pending", "firing"] = "firing" if now - since >= FOR_S else "pending"
        states[key] = AlertState(key, state, since, labels, description)
    return states
