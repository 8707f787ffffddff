"""The target Deployment's memory limit lowered below its working set: OOMKilled in a loop."""

from __future__ import annotations

from sre.generator.faults._common import APP_SERVICES, container, new_pod, patch_deployment
from sre.generator.model import FaultContext, FaultPlan, FaultType, Symptom, WarningEvent


def build(ctx: FaultContext) -> FaultPlan:
    def lower_limit(dep: dict) -> None:
        container(dep)["resources"]["limits"]["memory"] = "20Mi"

    change, after = patch_deployment(ctx, lower_limit)
    pod = new_pod(ctx, after)
    return FaultPlan(
        fault_type="oom-killed",
        target=ctx.target,
        root=change.ref,
        changes=(change,),
        warnings=(
            WarningEvent(
                pod, "BackOff", f"Back-off restarting failed container {ctx.target.name}", "kubelet"
            ),
        ),
        symptom=Symptom(ctx.target.name, "unavailable", "connection refused"),
        pod_state="OOMKilled",
        category="Configuration Setting",
        condition=f"{ctx.target.name} Deployment memory limit set to 20Mi",
        mechanism="insufficient-resources",
        pod_effect=f"{ctx.target.name} container is OOMKilled (exit code 137) and crash-loops",
        pod_alert="KubePodCrashLooping",
        new_pods=True,
        memory_mb=20.0,
        restarts=True,
    )


FAULT = FaultType("oom-killed", "memory limit below the working set", build, APP_SERVICES)
