"""A HorizontalPodAutoscaler whose utilisation targets were cut (CPU 70 % → 20 %, a memory target
of 30 % added, as ITBench's fault patches them): at the demo's steady load the autoscaler keeps
finding the pods "too busy" and scales the Deployment to its maximum, where it stays
(KubeHpaMaxedOut), with replicas the load does not need.

The scenario installs the autoscaler (``setup``): min 1, max 3 replicas, CPU at 70 %, under which
the load (``sre/twin/autoscaler.py``) needs one replica. The harm is the target itself: an idle
pod uses 23 % of its CPU request, so a 20 % target can never be met and the autoscaler asks for
more pods at every step; raising ``maxReplicas`` only moves the ceiling it is pinned at."""

from __future__ import annotations

import copy
from typing import Any

from sre.generator import objects as k8s
from sre.generator.faults._common import APP_SERVICES, json_patch, patch_deployment
from sre.generator.model import (
    FaultContext,
    FaultPlan,
    FaultType,
    ObjectChange,
    ObjectRef,
    Remedy,
    RemedyContext,
    Symptom,
)
from sre.generator.topology import Service

MAX_REPLICAS = 3


def _metric(resource: str, percent: int) -> dict[str, Any]:
    return {"type": "Resource", "resource": {
        "name": resource, "target": {"type": "Utilization", "averageUtilization": percent}}}  # fmt: skip


def autoscaler(namespace: str, name: str) -> dict[str, Any]:
    return {
        "apiVersion": "autoscaling/v2",
        "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": name, "namespace": namespace,
                     "uid": k8s.uid("HorizontalPodAutoscaler", namespace, name)},
        "spec": {
            "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": name},
            "minReplicas": 1,
            "maxReplicas": MAX_REPLICAS,
            "metrics": [_metric("cpu", 70)],
        },
    }  # fmt: skip


def setup(namespace: str, target: Service) -> tuple[dict[str, Any], ...]:
    return (autoscaler(namespace, target.name),)


def build(ctx: FaultContext) -> FaultPlan:
    before = autoscaler(ctx.namespace, ctx.target.name)
    after = copy.deepcopy(before)
    after["spec"]["metrics"] = [_metric("cpu", 20), _metric("memory", 30)]
    ref = ObjectRef("HorizontalPodAutoscaler", ctx.target.name, ctx.namespace)
    # the autoscaler writes the count it settles at into the Deployment (its scale subresource)
    scaled, _ = patch_deployment(ctx, lambda dep: dep["spec"].update(replicas=MAX_REPLICAS))
    return FaultPlan(
        fault_type="hpa-misconfigured",
        target=ctx.target,
        root=ref,
        changes=(ObjectChange(ref, after, before), scaled),
        warnings=(),
        # the service answers as before; the waste shows in the autoscaler, not in requests
        symptom=Symptom(ctx.target.name, "latency", "scaled beyond its load", 0.0),
        pod_state="Running",
        category="Configuration Setting",
        condition=f"HorizontalPodAutoscaler {ctx.target.name} targets CPU at 20 % and memory at "
        "30 %",
        mechanism="misconfigured-hpa",
        pod_effect=f"{ctx.target.name} is scaled to {MAX_REPLICAS} replicas at low utilisation",
        pod_alert="KubeHpaMaxedOut",
        replicas_after=MAX_REPLICAS,
    )


def _metrics(r: RemedyContext, *metrics: dict[str, Any]) -> list[str]:
    return json_patch(r, "hpa", r.target,
                      {"op": "replace", "path": "/spec/metrics", "value": list(metrics)})  # fmt: skip


FAULT = FaultType(
    "hpa-misconfigured",
    "HorizontalPodAutoscaler with too low utilisation targets",
    build,
    APP_SERVICES,
    remedies=(
        Remedy(
            "restore the CPU target",
            "CPU at 70 % again, no memory target: the load needs one replica",
            lambda r: [_metrics(r, _metric("cpu", 70))],
        ),
        Remedy(
            "raise the CPU target",
            "CPU at 70 %, the memory target kept: memory stays below 30 % (its working set over "
            "its request), so CPU alone decides, and one replica suffices",
            lambda r: [
                json_patch(
                    r,
                    "hpa",
                    r.target,
                    {
                        "op": "replace",
                        "path": "/spec/metrics/0/resource/target/averageUtilization",
                        "value": 70,
                    },
                )
            ],  # fmt: skip
        ),
        Remedy(
            "set a CPU target the pods can reach",
            "CPU at 50 %, no memory target: one replica uses 47 % of its request, within the "
            "tolerance of the target, so the autoscaler keeps one",
            lambda r: [_metrics(r, _metric("cpu", 50))],
        ),
        Remedy(
            "raise maxReplicas",
            "the ceiling moves, the cause stays: an idle pod already uses more than 20 % of its "
            "CPU request, so no replica count meets the target and the autoscaler holds the "
            "Deployment at the new maximum (still maxed out, with more replicas wasted)",
            lambda r: [
                json_patch(
                    r, "hpa", r.target, {"op": "replace", "path": "/spec/maxReplicas", "value": 10}
                )
            ],
            accepted=False,
        ),  # fmt: skip
        Remedy(
            "scale the deployment down",
            "the autoscaler owns the replica count: it scales the Deployment back to its maximum",
            lambda r: [["-n", r.namespace, "scale", f"deployment/{r.target}", "--replicas=1"]],
            accepted=False,
        ),
        Remedy(
            "raise the memory target",
            "the wrong metric: CPU at 20 % still drives the count to the maximum",
            lambda r: [_metrics(r, _metric("cpu", 20), _metric("memory", 70))],
            accepted=False,
        ),
        Remedy(
            "delete the HorizontalPodAutoscaler",
            "nothing is maxed out any more (the alert clears), but the Deployment keeps the "
            "surplus replicas and loses its autoscaling: destructive, strict fails",
            lambda r: [["-n", r.namespace, "delete", "hpa", r.target]],
            accepted=False,
            clears_alerts=True,
        ),
    ),
    setup=setup,
)
