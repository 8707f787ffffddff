"""A Chaos Mesh PodChaos pod-failure on the target's pods: their containers are swapped for a
pause image for the experiment's duration, so the pods run, never get Ready and serve nothing."""

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
        "PodChaos",
        f"{ctx.target.name}-pod-failure",
        # longer than any incident window and its recovery check: it will not end by itself
        {"action": "pod-failure", "duration": "2h"},
    )
    pod = current_pod(ctx)
    return FaultPlan(
        fault_type="pod-failure",
        target=ctx.target,
        root=ref,
        changes=(change,),
        warnings=(
            WarningEvent(
                pod,
                "Unhealthy",
                f"Readiness probe failed: dial tcp 10.244.1.17:{ctx.target.port}: connect: "
                "connection refused",
                "kubelet",
                every_s=10,
            ),
        ),
        symptom=Symptom(ctx.target.name, "unavailable", "no healthy upstream"),
        pod_state="NotReady",
        category="Infrastructure",
        condition=f"PodChaos pod-failure pauses the containers of {ctx.target.name}",
        mechanism="chaos",
        pod_effect=f"{ctx.target.name} pod runs a pause image and is never Ready",
        pod_alert="KubePodNotReady",
    )


FAULT = FaultType(
    "pod-failure",
    "PodChaos pod-failure on the target's pods",
    build,
    APP_SERVICES,
    remedies=(delete_chaos("PodChaos"), pause_chaos("PodChaos")),
)
