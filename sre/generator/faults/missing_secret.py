"""The target's container given an environment variable from a Secret that does not exist: the
kubelet cannot build the container (CreateContainerConfigError)."""

from __future__ import annotations

from sre.generator.faults._common import (
    APP_SERVICES,
    ROLLBACK,
    container,
    new_pod,
    patch_deployment,
)
from sre.generator.model import FaultContext, FaultPlan, FaultType, Remedy, Symptom, WarningEvent


def build(ctx: FaultContext) -> FaultPlan:
    secret = f"{ctx.target.name}-{ctx.rng.choice(('credentials', 'api-key', 'db-password'))}"

    def secret_env(dep: dict) -> None:
        container(dep)["env"].append(
            {"name": "API_TOKEN",
             "valueFrom": {"secretKeyRef": {"name": secret, "key": "token"}}}
        )  # fmt: skip

    change, after = patch_deployment(ctx, secret_env)
    pod = new_pod(ctx, after)
    return FaultPlan(
        fault_type="missing-secret",
        target=ctx.target,
        root=change.ref,
        changes=(change,),
        warnings=(WarningEvent(pod, "Failed", f'Error: secret "{secret}" not found', "kubelet"),),
        symptom=Symptom(ctx.target.name, "unavailable", "connection refused"),
        pod_state="CreateContainerConfigError",
        category="Configuration Setting",
        condition=f"{ctx.target.name} reads API_TOKEN from Secret {secret}, which does not exist",
        mechanism="missing-secret-reference",
        pod_effect=f"{ctx.target.name} container cannot be created (CreateContainerConfigError)",
        pod_alert="KubePodNotReady",
        new_pods=True,
        extra={"secret": secret},
    )


FAULT = FaultType(
    "missing-secret",
    "environment variable from a missing Secret",
    build,
    APP_SERVICES,
    remedies=(
        ROLLBACK,
        Remedy(
            "remove the variable",
            "without the reference the kubelet creates the container",
            lambda r: [["-n", r.namespace, "set", "env", f"deployment/{r.target}", "API_TOKEN-"]],
        ),
    ),
)
