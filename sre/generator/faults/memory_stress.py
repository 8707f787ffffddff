"""A Chaos Mesh StressChaos allocating memory past the container's limit (OOM kills follow)."""

from __future__ import annotations

from sre.generator.faults._common import (
    APP_SERVICES,
    chaos_object,
    current_pod,
    delete_chaos,
    pause_chaos,
)
from sre.generator.model import FaultContext, FaultPlan, FaultType, Remedy, Symptom, WarningEvent


def build(ctx: FaultContext) -> FaultPlan:
    change, ref = chaos_object(
        ctx,
        "StressChaos",
        f"{ctx.target.name}-memory-stress",
        {"stressors": {"memory": {"workers": 2, "size": "600MB"}}},
    )
    return FaultPlan(
        fault_type="memory-stress",
        target=ctx.target,
        root=ref,
        changes=(change,),
        warnings=(
            WarningEvent(
                current_pod(ctx),
                "BackOff",
                f"Back-off restarting failed container {ctx.target.name}",
                "kubelet",
                every_s=45,
            ),
        ),
        symptom=Symptom(ctx.target.name, "error", "connection reset by peer", latency_ms=300.0),
        pod_state="OOMKilled",
        category="Resource Saturation",
        condition=f"StressChaos allocates memory in {ctx.target.name} pods beyond their limit",
        mechanism="memory_stress",
        pod_effect=f"{ctx.target.name} container is OOMKilled and restarts repeatedly",
        pod_alert="KubePodCrashLooping",
        memory_mb=560.0,
        restarts=True,
    )


FAULT = FaultType(
    "memory-stress",
    "StressChaos memory stress past the limit",
    build,
    APP_SERVICES,
    remedies=(
        delete_chaos("StressChaos"),
        pause_chaos("StressChaos"),
        Remedy(
            "raise the memory limit",
            "a symptom fix: the stressor fills whatever the container is given, the OOM kills "
            "go on while the experiment runs",
            lambda r: [
                [
                    "-n",
                    r.namespace,
                    "set",
                    "resources",
                    f"deployment/{r.target}",
                    "--limits=memory=4Gi",
                ]
            ],
            accepted=False,
        ),  # fmt: skip
    ),
)
