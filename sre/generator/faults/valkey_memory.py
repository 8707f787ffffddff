"""The cart's Valkey restarted with a ``--maxmemory`` below the data it holds (no eviction): it
runs and answers reads, every write of the cart fails with OOM."""

from __future__ import annotations

import json

from sre.generator.faults._common import ROLLBACK, container, patch_deployment
from sre.generator.model import FaultContext, FaultPlan, FaultType, Remedy, Symptom


def build(ctx: FaultContext) -> FaultPlan:
    limit = ctx.rng.choice(("8mb", "16mb", "32mb"))

    def cap_memory(dep: dict) -> None:
        container(dep)["args"] = ["--maxmemory", limit, "--maxmemory-policy", "noeviction"]

    change, _ = patch_deployment(ctx, cap_memory)
    return FaultPlan(
        fault_type="valkey-memory",
        target=ctx.target,
        root=change.ref,
        changes=(change,),
        warnings=(),  # Valkey runs; only its writes are refused
        symptom=Symptom(
            ctx.target.name, "error", "OOM command not allowed when used memory > 'maxmemory'."
        ),
        pod_state="Running",
        category="Resource Unavailable",
        condition=f"{ctx.target.name} maxmemory {limit} is below the cart's data, no eviction",
        mechanism="valkey-out-of-memory",
        pod_effect=f"{ctx.target.name} refuses every write with OOM",
        new_pods=True,
        extra={"maxmemory": limit},
    )


def _args(*args: str):
    patch = [
        {"op": "replace", "path": "/spec/template/spec/containers/0/args", "value": list(args)}
    ]
    return lambda r: [
        ["-n", r.namespace, "patch", "deployment", r.target, "--type=json", "-p",
         json.dumps(patch)]
    ]  # fmt: skip


FAULT = FaultType(
    "valkey-memory",
    "Valkey maxmemory below its data (out of memory)",
    build,
    ("valkey-cart",),
    remedies=(
        ROLLBACK,
        Remedy(
            "raise maxmemory",
            "room for the cart's data: writes succeed again",
            _args("--maxmemory", "256mb", "--maxmemory-policy", "noeviction"),
        ),
        Remedy(
            "a limit still below the data",
            "40 MB is still below the cart's 48 MB: writes still fail",
            _args("--maxmemory", "40mb", "--maxmemory-policy", "noeviction"),
            accepted=False,
        ),
    ),
)
