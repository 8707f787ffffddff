"""The cart's Valkey restarted with a password its client does not know (``--requirepass``):
Valkey runs and answers its probe, every command of the cart is refused with NOAUTH."""

from __future__ import annotations

from sre.generator.faults._common import ROLLBACK, container, json_patch, patch_deployment
from sre.generator.model import FaultContext, FaultPlan, FaultType, Remedy, Symptom


def build(ctx: FaultContext) -> FaultPlan:
    password = ctx.rng.choice(("s3cr3t-rotated", "valkey-2025", "changeme-now"))

    def require_password(dep: dict) -> None:
        container(dep)["args"] = ["--requirepass", password]

    change, _ = patch_deployment(ctx, require_password)
    return FaultPlan(
        fault_type="valkey-password",
        target=ctx.target,
        root=change.ref,
        changes=(change,),
        warnings=(),  # a valid configuration: Valkey runs, its clients are refused
        symptom=Symptom(ctx.target.name, "error", "NOAUTH Authentication required."),
        pod_state="Running",
        category="Configuration Setting",
        condition=f"{ctx.target.name} requires a password the cart does not send",
        mechanism="valkey-password-change",
        pod_effect=f"{ctx.target.name} refuses every command of its client with NOAUTH",
        new_pods=True,
        extra={"password": password},
    )


FAULT = FaultType(
    "valkey-password",
    "Valkey password its client does not know",
    build,
    ("valkey-cart",),
    remedies=(
        ROLLBACK,
        Remedy(
            "drop the password requirement",
            "without --requirepass Valkey serves the cart as before",
            lambda r: [
                json_patch(
                    r,
                    "deployment",
                    r.target,
                    {"op": "remove", "path": "/spec/template/spec/containers/0/args"},
                )
            ],
        ),  # fmt: skip
        Remedy(
            "restart the client",
            "the cart restarts with the same (absent) password: still refused",
            lambda r: [["-n", r.namespace, "rollout", "restart", "deployment/cart"]],
            accepted=False,
        ),
    ),
)
