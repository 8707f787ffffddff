"""The target's pod template requires a node label no node carries: the pod stays Pending."""

from __future__ import annotations

from sre.generator.faults._common import (
    APP_SERVICES,
    ROLLBACK,
    json_patch,
    new_pod,
    patch_deployment,
)
from sre.generator.model import FaultContext, FaultPlan, FaultType, Remedy, Symptom, WarningEvent


def build(ctx: FaultContext) -> FaultPlan:
    def missing_node(dep: dict) -> None:
        dep["spec"]["template"]["spec"]["nodeSelector"] = {"kubernetes.io/hostname": "gpu-node-7"}

    change, after = patch_deployment(ctx, missing_node)
    pod = new_pod(ctx, after)
    n = len(ctx.nodes)
    return FaultPlan(
        fault_type="node-selector",
        target=ctx.target,
        root=change.ref,
        changes=(change,),
        warnings=(
            WarningEvent(
                pod,
                "FailedScheduling",
                f"0/{n} nodes are available: {n} node(s) didn't match Pod's node "
                f"affinity/selector. preemption: 0/{n} nodes are available: {n} Preemption is "
                "not helpful for scheduling.",
                "default-scheduler",
            ),
        ),
        symptom=Symptom(ctx.target.name, "unavailable", "connection refused"),
        pod_state="Pending",
        category="Configuration Setting",
        condition=f"{ctx.target.name} nodeSelector requires missing node gpu-node-7",
        mechanism="invalid-node-selector",
        pod_effect=f"{ctx.target.name} pod cannot be scheduled and stays Pending",
        pod_alert="KubePodNotReady",
        new_pods=True,
    )


FAULT = FaultType(
    "node-selector",
    "nodeSelector to a node that does not exist",
    build,
    APP_SERVICES,
    remedies=(
        ROLLBACK,
        Remedy(
            "remove the nodeSelector",
            "the pod can be scheduled on its node again",
            lambda r: [
                json_patch(
                    r,
                    "deployment",
                    r.target,
                    {"op": "remove", "path": "/spec/template/spec/nodeSelector"},
                )
            ],
        ),
    ),
)
