"""A Chaos Mesh IOChaos failing the file operations on the data volume of a stateful service
(the cart's Valkey): its writes and reads return EIO, its callers get errors."""

from __future__ import annotations

from sre.generator.faults._common import chaos_object, delete_chaos, pause_chaos
from sre.generator.model import FaultContext, FaultPlan, FaultType, Symptom


def build(ctx: FaultContext) -> FaultPlan:
    change, ref = chaos_object(
        ctx,
        "IOChaos",
        f"{ctx.target.name}-io-fault",
        {"action": "fault", "volumePath": "/data", "path": "/data/**", "errno": 5,
         "percent": 100, "methods": ["READ", "WRITE", "FSYNC"]},
    )  # fmt: skip
    return FaultPlan(
        fault_type="io-fault",
        target=ctx.target,
        root=ref,
        changes=(change,),
        warnings=(),  # the process keeps running and answers its TCP probe
        symptom=Symptom(
            ctx.target.name, "error", "MISCONF Errors writing to the AOF file: Input/output error"
        ),
        pod_state="Running",
        category="Storage",
        condition=f"IOChaos fails file operations on /data of {ctx.target.name} with EIO",
        mechanism="chaos",
        pod_effect=f"{ctx.target.name} cannot read or write its data volume",
    )


FAULT = FaultType(
    "io-fault",
    "IOChaos I/O errors on a stateful service's volume",
    build,
    ("valkey-cart",),
    remedies=(delete_chaos("IOChaos"), pause_chaos("IOChaos")),
)
