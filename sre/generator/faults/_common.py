"""Helpers the fault modules share: patching the target Deployment and naming its new pod."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from sre.generator.model import (
    FaultContext,
    FaultPlan,
    ObjectChange,
    ObjectRef,
    Symptom,
    WarningEvent,
)
from sre.generator.objects import pod_name, template_hash

#: application services a workload fault can hit (not the proxy, the traffic source or datastores)
APP_SERVICES = (
    "ad",
    "cart",
    "checkout",
    "currency",
    "email",
    "payment",
    "product-catalog",
    "product-reviews",
    "quote",
    "recommendation",
    "shipping",
)


def patch_deployment(
    ctx: FaultContext, mutate: Callable[[dict[str, Any]], None]
) -> tuple[ObjectChange, dict[str, Any]]:
    """The Deployment after ``mutate`` (generation and revision bumped, as the API server does)."""
    after = copy.deepcopy(ctx.deployment)
    mutate(after)
    meta = after["metadata"]
    meta["generation"] = meta.get("generation", 1) + 1
    if after["spec"]["template"] != ctx.deployment["spec"]["template"]:
        meta["annotations"]["deployment.kubernetes.io/revision"] = "2"
    ref = ObjectRef("Deployment", ctx.target.name, ctx.namespace)
    return ObjectChange(ref, after, before=ctx.deployment), after


def container(dep: dict[str, Any]) -> dict[str, Any]:
    return dep["spec"]["template"]["spec"]["containers"][0]


def new_pod(ctx: FaultContext, dep: dict[str, Any]) -> ObjectRef:
    """The pod the changed template brings up (its name carries the new template hash)."""
    return ObjectRef("Pod", pod_name(ctx.target, template_hash(dep)), ctx.namespace)


def current_pod(ctx: FaultContext) -> ObjectRef:
    return ObjectRef("Pod", pod_name(ctx.target, template_hash(ctx.deployment)), ctx.namespace)


def chaos_object(
    ctx: FaultContext, kind: str, name: str, spec: dict[str, Any]
) -> tuple[ObjectChange, ObjectRef]:
    """A Chaos Mesh experiment selecting the target's pods, created at the fault time."""
    ref = ObjectRef(kind, name, "chaos-mesh")
    selector = {
        "namespaces": [ctx.namespace],
        "labelSelectors": {"app.kubernetes.io/name": ctx.target.name},
    }
    body = {
        "apiVersion": "chaos-mesh.org/v1alpha1",
        "kind": kind,
        "metadata": {"name": name, "namespace": "chaos-mesh"},
        "spec": {"selector": selector, "mode": "all", **spec},
    }
    return ObjectChange(ref, body), ref


def crash_looping_rollout(
    ctx: FaultContext,
    patch: Callable[[dict[str, Any]], None],
    *,
    first_failure: Callable[[ObjectRef], WarningEvent] | None = None,
    **plan: Any,
) -> FaultPlan:
    """The target Deployment patched so its new pod crash-loops: the change is the root cause,
    the kubelet reports BackOff (after ``first_failure``, when the start itself fails visibly),
    callers see connection refused. ``plan`` holds the fault's own FaultPlan fields."""
    change, after = patch_deployment(ctx, patch)
    pod = new_pod(ctx, after)
    backoff = WarningEvent(
        pod, "BackOff", f"Back-off restarting failed container {ctx.target.name}", "kubelet"
    )
    return FaultPlan(
        target=ctx.target,
        root=change.ref,
        changes=(change,),
        warnings=((first_failure(pod),) if first_failure else ()) + (backoff,),
        symptom=Symptom(ctx.target.name, "unavailable", "connection refused"),
        pod_alert="KubePodCrashLooping",
        new_pods=True,
        restarts=True,
        **plan,
    )
