"""A Chaos Mesh NetworkChaos partitioning the target's pods from their callers."""

from __future__ import annotations

from sre.generator.faults._common import APP_SERVICES, chaos_object, delete_chaos, pause_chaos
from sre.generator.model import FaultContext, FaultPlan, FaultType, Symptom


def build(ctx: FaultContext) -> FaultPlan:
    change, ref = chaos_object(
        ctx,
        "NetworkChaos",
        f"{ctx.target.name}-partition",
        {
            "action": "partition",
            "direction": "both",
            "target": {"mode": "all", "selector": {"namespaces": [ctx.namespace]}},
        },
    )
    return FaultPlan(
        fault_type="network-partition",
        target=ctx.target,
        root=ref,
        changes=(change,),
        warnings=(),  # the kubelet's probes come from the node, outside the partition
        symptom=Symptom(ctx.target.name, "unavailable", "dial tcp: i/o timeout"),
        pod_state="Running",
        category="Network",
        condition=f"network partition isolates {ctx.target.name} pods from the namespace",
        mechanism="network_partition",
        pod_effect=f"{ctx.target.name} is unreachable from its callers",
    )


FAULT = FaultType(
    "network-partition",
    "NetworkChaos partition around the target's pods",
    build,
    APP_SERVICES,
    remedies=(delete_chaos("NetworkChaos"), pause_chaos("NetworkChaos")),
)
