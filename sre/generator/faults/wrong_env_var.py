"""The target's port environment variable set to a value the service rejects at start-up."""

from __future__ import annotations

from sre.generator.faults._common import APP_SERVICES, container, new_pod, patch_deployment
from sre.generator.model import FaultContext, FaultPlan, FaultType, Symptom, WarningEvent


def build(ctx: FaultContext) -> FaultPlan:
    var = f"{ctx.target.name.upper().replace('-', '_')}_PORT"
    value = "eighty-eighty"

    def bad_env(dep: dict) -> None:
        for env in container(dep)["env"]:
            if env["name"] == var:
                env["value"] = value

    change, after = patch_deployment(ctx, bad_env)
    pod = new_pod(ctx, after)
    return FaultPlan(
        fault_type="wrong-env-var",
        target=ctx.target,
        root=change.ref,
        changes=(change,),
        warnings=(
            WarningEvent(
                pod, "BackOff", f"Back-off restarting failed container {ctx.target.name}", "kubelet"
            ),
        ),
        symptom=Symptom(ctx.target.name, "unavailable", "connection refused"),
        pod_state="CrashLoopBackOff",
        category="Configuration Setting",
        condition=f"{ctx.target.name} environment variable {var}={value!r}",
        mechanism="environment_variable_misconfiguration",
        pod_effect=f"{ctx.target.name} exits at start-up: invalid {var} and crash-loops",
        pod_alert="KubePodCrashLooping",
        new_pods=True,
        restarts=True,
        extra={"variable": var, "value": value},
    )


FAULT = FaultType("wrong-env-var", "invalid environment variable value", build, APP_SERVICES)
