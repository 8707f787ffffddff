"""A Chaos Mesh StressChaos burning CPU in the target's pods."""

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
    change, ref = chaos_object(
        ctx,
        "StressChaos",
        f"{ctx.target.name}-cpu-stress",
        {"stressors": {"cpu": {"workers": 4, "load": 100}}},
    )
    return FaultPlan(
        fault_type="cpu-stress",
        target=ctx.target,
        root=ref,
        changes=(change,),
        # a throttled container answers its probes too late
        warnings=(
            WarningEvent(
                current_pod(ctx),
                "Unhealthy",
                "Liveness probe failed: command timed out: context deadline exceeded",
                "kubelet",
            ),
        ),
        symptom=Symptom(ctx.target.name, "latency", "slow response", latency_ms=900.0),
        pod_state="Running",
        category="Resource Saturation",
        condition=f"StressChaos saturates CPU of {ctx.target.name} pods",
        mechanism="chaos",
        pod_effect=f"{ctx.target.name} pod CPU is saturated and throttled",
        pod_alert="CPUThrottlingHigh",
        cpu_factor=8.0,
    )


FAULT = FaultType(
    "cpu-stress",
    "StressChaos CPU stress in the target's pods",
    build,
    APP_SERVICES,
    remedies=(delete_chaos("StressChaos"), pause_chaos("StressChaos")),
)
