"""The target Deployment scaled to zero replicas."""

from __future__ import annotations

from sre.generator.faults._common import APP_SERVICES, patch_deployment
from sre.generator.model import FaultContext, FaultPlan, FaultType, Remedy, Symptom


def build(ctx: FaultContext) -> FaultPlan:
    def scale_down(dep: dict) -> None:
        dep["spec"]["replicas"] = 0

    change, _ = patch_deployment(ctx, scale_down)
    return FaultPlan(
        fault_type="scaled-to-zero",
        target=ctx.target,
        root=change.ref,
        changes=(change,),
        warnings=(),  # scaling to zero is a valid request: only Normal ScalingReplicaSet events
        symptom=Symptom(ctx.target.name, "unavailable", "connection refused"),
        pod_state="Running",
        category="Change",
        condition=f"{ctx.target.name} Deployment scaled to 0 replicas",
        mechanism="custom",
        pod_effect=f"{ctx.target.name} has no pods to serve requests",
        pod_alert="KubeDeploymentReplicasMismatch",
        replicas_after=0,
    )


FAULT = FaultType(
    "scaled-to-zero",
    "Deployment scaled to zero",
    build,
    APP_SERVICES,
    remedies=(
        Remedy(
            "scale up",
            "one replica serves again",
            lambda r: [["-n", r.namespace, "scale", f"deployment/{r.target}", "--replicas=1"]],
        ),
        Remedy(
            "rollback",
            "replicas are not part of the pod template: there is no revision to undo",
            lambda r: [["-n", r.namespace, "rollout", "undo", f"deployment/{r.target}"]],
            accepted=False,
        ),
    ),
)
