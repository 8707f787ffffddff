"""A Chaos Mesh NetworkChaos adding delay to every packet of the target's pods."""

from __future__ import annotations

from sre.generator.faults._common import (
    APP_SERVICES,
    chaos_object,
    current_pod,
    delete_chaos,
    pause_chaos,
)
from sre.generator.model import FaultContext, FaultPlan, FaultType, Symptom, WarningEvent


def build(ctx: FaultContext) -> FaultPlan:
    delay_ms = ctx.rng.choice((1500, 2000, 3000))
    change, ref = chaos_object(
        ctx,
        "NetworkChaos",
        f"{ctx.target.name}-network-delay",
        {"action": "delay", "delay": {"latency": f"{delay_ms}ms", "jitter": "100ms"}},
    )
    pod = current_pod(ctx)
    return FaultPlan(
        fault_type="network-delay",
        target=ctx.target,
        root=ref,
        changes=(change,),
        # the delay also hits the kubelet's probes, which time out after 1 s
        warnings=(
            WarningEvent(
                pod,
                "Unhealthy",
                "Readiness probe failed: dial tcp: i/o timeout (Client.Timeout exceeded)",
                "kubelet",
            ),
        ),
        symptom=Symptom(
            ctx.target.name, "latency", "context deadline exceeded", latency_ms=float(delay_ms)
        ),
        pod_state="Running",
        category="Network",
        condition=f"NetworkChaos adds {delay_ms}ms delay to {ctx.target.name} pods",
        mechanism="chaos",
        pod_effect=f"{ctx.target.name} responses are delayed by {delay_ms}ms",
    )


FAULT = FaultType(
    "network-delay",
    "NetworkChaos delay on the target's pods",
    build,
    APP_SERVICES,
    remedies=(delete_chaos("NetworkChaos"), pause_chaos("NetworkChaos")),
)
