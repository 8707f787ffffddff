"""The target Deployment's memory limit lowered below its working set: OOMKilled in a loop."""

from __future__ import annotations

from sre.generator.faults._common import APP_SERVICES, ROLLBACK, container, crash_looping_rollout
from sre.generator.model import FaultContext, FaultPlan, FaultType, Remedy


def build(ctx: FaultContext) -> FaultPlan:
    def lower_limit(dep: dict) -> None:
        container(dep)["resources"]["limits"]["memory"] = "20Mi"

    return crash_looping_rollout(
        ctx,
        lower_limit,
        fault_type="oom-killed",
        pod_state="OOMKilled",
        category="Configuration Setting",
        condition=f"{ctx.target.name} Deployment memory limit set to 20Mi",
        mechanism="insufficient-resources",
        pod_effect=f"{ctx.target.name} container is OOMKilled (exit code 137) and crash-loops",
        memory_mb=20.0,
    )


FAULT = FaultType(
    "oom-killed",
    "memory limit below the working set",
    build,
    APP_SERVICES,
    remedies=(
        ROLLBACK,
        Remedy(
            "raise the memory limit",
            "a limit above the working set stops the OOM kills",
            lambda r: [
                [
                    "-n",
                    r.namespace,
                    "set",
                    "resources",
                    f"deployment/{r.target}",
                    "--limits=memory=512Mi",
                ]
            ],
        ),
        Remedy(
            "raise the limit too little",
            "64Mi is still below the service's working set",
            lambda r: [
                [
                    "-n",
                    r.namespace,
                    "set",
                    "resources",
                    f"deployment/{r.target}",
                    "--limits=memory=64Mi",
                ]
            ],
            accepted=False,
        ),
    ),
)
