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
    Remedy,
    RemedyContext,
    Symptom,
    WarningEvent,
)
from sre.generator.objects import FLAGD_CONFIGMAP, node_for, pod_name, template_hash

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


def pending_rollout(
    ctx: FaultContext, patch: Callable[[dict[str, Any]], None], scheduler_message: str, **plan: Any
) -> FaultPlan:
    """The target Deployment patched so its new pod cannot be scheduled: the change is the root
    cause, the scheduler reports FailedScheduling with ``scheduler_message``, the pod stays
    Pending and callers see connection refused. ``plan`` holds the fault's own FaultPlan fields."""
    change, after = patch_deployment(ctx, patch)
    pod = new_pod(ctx, after)
    return FaultPlan(
        target=ctx.target,
        root=change.ref,
        changes=(change,),
        warnings=(WarningEvent(pod, "FailedScheduling", scheduler_message, "default-scheduler"),),
        symptom=Symptom(ctx.target.name, "unavailable", "connection refused"),
        pod_state="Pending",
        pod_effect=f"{ctx.target.name} pod cannot be scheduled and stays Pending",
        pod_alert="KubePodNotReady",
        new_pods=True,
        **plan,
    )


# -- remedies (how a mitigation is judged: sre/twin) ----------------------------------------------
def _deployment(r: RemedyContext) -> str:
    return f"deployment/{r.target}"


#: undo the faulty rollout: the Deployment's previous revision comes back
ROLLBACK = Remedy(
    "rollback",
    "kubectl rollout undo restores the template before the faulty change",
    lambda r: [["-n", r.namespace, "rollout", "undo", _deployment(r)]],
)


def json_patch(r: RemedyContext, kind: str, name: str, *ops: dict, ns: str | None = None) -> list:
    import json

    return [
        "-n",
        ns or r.namespace,
        "patch",
        kind,
        name,
        "--type=json",
        "-p",
        json.dumps(list(ops)),
    ]


def container_path(field: str) -> str:
    return f"/spec/template/spec/containers/0/{field}"


def delete_chaos(kind: str) -> Remedy:
    return Remedy(
        "delete the chaos experiment",
        f"the {kind} stops acting once deleted (Chaos Mesh recovers the pods)",
        lambda r: [["-n", r.root.namespace, "delete", kind.lower(), r.root.name]],
    )


def pause_chaos(kind: str) -> Remedy:
    return Remedy(
        "pause the chaos experiment",
        f"Chaos Mesh stops a {kind} annotated experiment.chaos-mesh.org/pause=true",
        lambda r: [
            [
                "-n",
                r.root.namespace,
                "annotate",
                kind.lower(),
                r.root.name,
                "experiment.chaos-mesh.org/pause=true",
            ]
        ],  # fmt: skip
    )


#: cordoning the target's node: stops new placements only, repairs nothing and (running pods
#: keep serving) breaks nothing
CORDON = Remedy(
    "cordon the target's node",
    "no repair: the running pods keep serving, the fault stays",
    lambda r: [["cordon", node_for(r.target)]],
    accepted=False,
)

#: what looks like a repair for any fault and is not one (each must fail the mitigation)
NOT_REMEDIES = (
    Remedy("no action", "the fault stays", lambda r: [], accepted=False),
    Remedy(
        "delete the failing pods",
        "a symptom fix: the ReplicaSet recreates them from the same faulty spec",
        lambda r: [
            [
                "-n",
                r.namespace,
                "delete",
                "pods",
                "-l",
                f"app.kubernetes.io/name={r.target}",
                "--wait=false",
            ]
        ],
        accepted=False,
    ),  # fmt: skip
    Remedy(
        "restart the deployment",
        "new pods, same spec, same cluster around them",
        lambda r: [["-n", r.namespace, "rollout", "restart", f"deployment/{r.target}"]],
        accepted=False,
    ),
    Remedy(
        "scale a caller",
        "more replicas of a service that only suffers from the fault",
        lambda r: [["-n", r.namespace, "scale", f"deployment/{r.caller}", "--replicas=2"]],
        accepted=False,
    ),
    Remedy(
        "delete the deployment",
        "destructive: the faulty service is gone, not repaired",
        lambda r: [["-n", r.namespace, "delete", "deployment", r.target, "--wait=false"]],
        accepted=False,
    ),
    Remedy(
        "delete the namespace",
        "destructive: silences every alert by removing the application",
        lambda r: [["delete", "namespace", r.namespace, "--wait=false"]],
        accepted=False,
    ),
    CORDON,
)


#: flag faults: deleting flagd's configuration instead of turning the flag off
DELETE_FLAG_CONFIG = Remedy(
    "delete the flagd ConfigMap",
    "destructive: flagd has no flags left to serve, every service reading one fails",
    lambda r: [["-n", r.namespace, "delete", "configmap", FLAGD_CONFIGMAP, "--wait=false"]],
    accepted=False,
)

#: Chaos Mesh faults: what stops the experiment by destroying more than the experiment
CHAOS_NOT_REMEDIES = (
    Remedy(
        "delete the chaos-mesh namespace",
        "the experiment goes with it (the alerts clear), and so does the Chaos Mesh install: "
        "destructive, strict fails",
        lambda r: [["delete", "namespace", r.root.namespace, "--wait=false"]],
        accepted=False,
        clears_alerts=True,
    ),
)
