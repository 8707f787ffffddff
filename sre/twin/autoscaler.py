"""The HorizontalPodAutoscaler controller over a minimal load model: how many replicas an
``autoscaling/v2`` HPA gives the Deployment it targets.

Load model: each pod of a demo service spends ``IDLE_CPU_M`` millicores whatever its share of
the work (its runtime, the telemetry SDK exporting, health checks), plus an even share of the
``CPU_LOAD_M`` millicores the load generator's steady traffic costs the service in all; each
pod's memory is its working set (``model.WORKING_SET_MI``), whatever the replica count.
Utilisation is usage over the container's request (a limit without a request is the request, as
the API server defaults it).

What follows from Kubernetes' rule: a utilisation target below what an idle pod already uses
(more than the tolerance below) can never be met by adding pods, so every step asks for more and
the autoscaler holds the Deployment at whatever maximum it is given. Raising ``maxReplicas``
moves that ceiling without removing the cause; only a target the pods can reach does.

Kubernetes' rule, per Resource metric of type Utilization: ``ratio = current / target``; within
the tolerance (``|ratio - 1| <= 0.1``) the count stays, otherwise ``desired = ceil(current
replicas × ratio)``; the largest over the metrics, clamped to ``[minReplicas, maxReplicas]``; a
Deployment at 0 replicas is not scaled. The controller acts every 15 s until nothing changes: the
twin takes that fixed point at once (the scale-down stabilisation window, 5 min by default, is not
modelled: a repaired HPA scales down at the next write).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from sre.twin.model import WORKING_SET_MI, container, quantity

#: millicores every pod spends whatever its share of the traffic
IDLE_CPU_M = 23.0
#: millicores each service spends under the demo's steady load, all replicas together
CPU_LOAD_M = 24.0
TOLERANCE = 0.1


def _requests(dep: Mapping[str, Any]) -> dict[str, float]:
    res = container((dep.get("spec") or {}).get("template") or {}).get("resources") or {}
    out = {}
    for resource in ("cpu", "memory"):
        value = (res.get("requests") or {}).get(resource) or (res.get("limits") or {}).get(resource)
        amount = quantity(value) if value is not None else None
        if amount:
            out[resource] = amount
    return out


def utilisation(dep: Mapping[str, Any], resource: str, replicas: int) -> float | None:
    """Per-pod usage of ``resource`` over its request, in percent (None: no request)."""
    request = _requests(dep).get(resource)
    if not request or replicas <= 0:
        return None
    if resource == "cpu":
        return 100.0 * ((IDLE_CPU_M + CPU_LOAD_M / replicas) / 1000.0) / request
    return 100.0 * WORKING_SET_MI * 2**20 / request


def _targets(hpa: Mapping[str, Any]) -> list[tuple[str, float]]:
    out = []
    for metric in (hpa.get("spec") or {}).get("metrics") or ():
        resource = metric.get("resource") or {}
        target = resource.get("target") or {}
        if metric.get("type") == "Resource" and target.get("type") == "Utilization":
            try:
                value = target.get("averageUtilization")
                percent = float(value)  # type: ignore[arg-type]  # None: TypeError, skipped
                out.append((str(resource.get("name")), percent))
            except (TypeError, ValueError):
                continue
    return out


def _step(hpa: Mapping[str, Any], dep: Mapping[str, Any], current: int) -> int:
    spec = hpa.get("spec") or {}
    low = int(spec.get("minReplicas", 1) or 1)
    high = int(spec.get("maxReplicas", low) or low)
    proposals = []
    for resource, target in _targets(hpa):
        used = utilisation(dep, resource, current)
        if used is None or target <= 0:
            continue
        ratio = used / target
        proposals.append(current if abs(ratio - 1.0) <= TOLERANCE else math.ceil(current * ratio))
    desired = max(proposals) if proposals else current
    return min(max(desired, low), high)


def scaled_replicas(hpa: Mapping[str, Any], dep: Mapping[str, Any]) -> int:
    """The replica count the HPA settles the Deployment at, from its declared ``replicas``."""
    current = (dep.get("spec") or {}).get("replicas", 1)
    current = current if isinstance(current, int) and current >= 0 else 1
    if current == 0:
        return 0
    seen = {current}
    for _ in range(50):
        nxt = _step(hpa, dep, current)
        if nxt == current or nxt in seen:
            return nxt
        seen.add(nxt)
        current = nxt
    return current


def target_of(hpa: Mapping[str, Any]) -> str | None:
    ref = (hpa.get("spec") or {}).get("scaleTargetRef") or {}
    return str(ref.get("name")) if ref.get("kind") == "Deployment" else None


def limits(hpa: Mapping[str, Any]) -> tuple[int, int]:
    spec = hpa.get("spec") or {}
    low = int(spec.get("minReplicas", 1) or 1)
    return low, int(spec.get("maxReplicas", low) or low)


def status(hpa: Mapping[str, Any], dep: Mapping[str, Any], replicas: int) -> dict[str, Any]:
    """The HPA's status as the controller writes it (``kubectl get hpa`` reads it)."""
    metrics = []
    for resource, _ in _targets(hpa):
        used = utilisation(dep, resource, replicas)
        if used is not None:
            metrics.append({"type": "Resource", "resource": {
                "name": resource, "current": {"averageUtilization": round(used)}}})  # fmt: skip
    return {"currentReplicas": replicas, "desiredReplicas": replicas, "currentMetrics": metrics}
