"""A Chaos Mesh NetworkChaos dropping a share of the packets to and from the target's pods:
calls time out after retransmissions, callers see errors and latency."""

from __future__ import annotations

from sre.generator.faults._common import APP_SERVICES, chaos_object, delete_chaos, pause_chaos
from sre.generator.model import FaultContext, FaultPlan, FaultType, Symptom


def build(ctx: FaultContext) -> FaultPlan:
    percent = ctx.rng.choice((60, 80, 90))
    change, ref = chaos_object(
        ctx,
        "NetworkChaos",
        f"{ctx.target.name}-packet-loss",
        {
            "action": "loss",
            "loss": {"loss": str(percent), "correlation": "25"},
            "direction": "to",
        },
    )
    return FaultPlan(
        fault_type="network-loss",
        target=ctx.target,
        root=ref,
        changes=(change,),
        warnings=(),  # the kubelet's probes still get through on a retransmission
        symptom=Symptom(
            ctx.target.name,
            "error",
            "rpc error: code = DeadlineExceeded desc = context deadline exceeded",
            latency_ms=600.0,
        ),
        pod_state="Running",
        category="Network",
        condition=f"NetworkChaos drops {percent}% of the packets of {ctx.target.name} pods",
        mechanism="chaos",
        pod_effect=f"calls to {ctx.target.name} time out after retransmissions",
    )


FAULT = FaultType(
    "network-loss",
    "NetworkChaos packet loss on the target's pods",
    build,
    APP_SERVICES,
    remedies=(delete_chaos("NetworkChaos"), pause_chaos("NetworkChaos")),
)
