"""The target's port environment variable set to a value the service rejects at start-up."""

from __future__ import annotations

from sre.generator.faults._common import APP_SERVICES, ROLLBACK, container, crash_looping_rollout
from sre.generator.model import FaultContext, FaultPlan, FaultType, Remedy


def build(ctx: FaultContext) -> FaultPlan:
    var = f"{ctx.target.name.upper().replace('-', '_')}_PORT"
    value = "eighty-eighty"

    def bad_env(dep: dict) -> None:
        for env in container(dep)["env"]:
            if env["name"] == var:
                env["value"] = value

    return crash_looping_rollout(
        ctx,
        bad_env,
        fault_type="wrong-env-var",
        pod_state="CrashLoopBackOff",
        category="Configuration Setting",
        condition=f"{ctx.target.name} environment variable {var}={value!r}",
        mechanism="environment_variable_misconfiguration",
        pod_effect=f"{ctx.target.name} exits at start-up: invalid {var} and crash-loops",
        extra={"variable": var, "value": value},
    )


FAULT = FaultType(
    "wrong-env-var",
    "invalid environment variable value",
    build,
    APP_SERVICES,
    remedies=(
        ROLLBACK,
        Remedy(
            "set the variable to the port",
            "kubectl set env puts the service's port back",
            lambda r: [
                [
                    "-n",
                    r.namespace,
                    "set",
                    "env",
                    f"deployment/{r.target}",
                    f"{r.port_variable}={r.port}",
                ]
            ],
        ),
        Remedy(
            "set the variable to another port",
            "a number, so it starts, but it listens where neither probe nor Service look",
            lambda r: [
                [
                    "-n",
                    r.namespace,
                    "set",
                    "env",
                    f"deployment/{r.target}",
                    f"{r.port_variable}={r.port + 1}",
                ]
            ],
            accepted=False,
        ),
    ),
)
