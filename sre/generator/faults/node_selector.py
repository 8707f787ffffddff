"""The target's pod template requires a node label no node carries: the pod stays Pending."""

from __future__ import annotations

from sre.generator.faults._common import (
    APP_SERVICES,
    ROLLBACK,
    json_patch,
    pending_rollout,
)
from sre.generator.model import FaultContext, FaultPlan, FaultType, Remedy


def build(ctx: FaultContext) -> FaultPlan:
    def missing_node(dep: dict) -> None:
        dep["spec"]["template"]["spec"]["nodeSelector"] = {"kubernetes.io/hostname": "gpu-node-7"}

    n = len(ctx.nodes)
    return pending_rollout(
        ctx,
        missing_node,
        (
            f"0/{n} nodes are available: {n} node(s) didn't match Pod's node "
            f"affinity/selector. preemption: 0/{n} nodes are available: {n} Preemption is "
            "not helpful for scheduling."
        ),
        fault_type="node-selector",
        category="Configuration Setting",
        condition=f"{ctx.target.name} nodeSelector requires missing node gpu-node-7",
        mechanism="invalid-node-selector",
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
