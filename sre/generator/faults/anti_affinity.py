"""The target's pods required to avoid the pods of a service on their own node: the only node
with room is ruled out, the pod stays Pending."""

from __future__ import annotations

from sre.generator.faults._common import (
    APP_SERVICES,
    ROLLBACK,
    json_patch,
    pending_rollout,
)
from sre.generator.model import FaultContext, FaultPlan, FaultType, Remedy
from sre.generator.objects import node_for


def neighbour(ctx: FaultContext) -> str:
    """A service whose pod runs on the target's node."""
    home = node_for(ctx.target.name)
    return sorted(
        s.name
        for s in ctx.topology.services
        if s.name != ctx.target.name and node_for(s.name) == home
    )[0]


def build(ctx: FaultContext) -> FaultPlan:
    other = neighbour(ctx)

    def avoid(dep: dict) -> None:
        dep["spec"]["template"]["spec"]["affinity"] = {
            "podAntiAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [
                    {"labelSelector": {"matchLabels": {"app.kubernetes.io/name": other}},
                     "topologyKey": "kubernetes.io/hostname"}
                ]
            }
        }  # fmt: skip

    n = len(ctx.nodes)
    return pending_rollout(
        ctx,
        avoid,
        (
            f"0/{n} nodes are available: 1 node(s) didn't match pod anti-affinity rules, "
            f"{n - 1} Insufficient memory. preemption: 0/{n} nodes are available: 1 No "
            f"preemption victims found for incoming pod, {n - 1} Preemption is not helpful "
            "for scheduling."
        ),
        fault_type="anti-affinity",
        category="Configuration Setting",
        condition=f"{ctx.target.name} requires a node without {other} pods; none has room",
        mechanism="unsatisfiable-pod-anti-affinity",
        extra={"avoids": other},
    )


FAULT = FaultType(
    "anti-affinity",
    "pod anti-affinity no node can satisfy",
    build,
    APP_SERVICES,
    remedies=(
        ROLLBACK,
        Remedy(
            "remove the anti-affinity",
            "the pod is scheduled on its node again",
            lambda r: [
                json_patch(
                    r,
                    "deployment",
                    r.target,
                    {"op": "remove", "path": "/spec/template/spec/affinity"},
                )
            ],
        ),  # fmt: skip
    ),
)
