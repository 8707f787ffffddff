"""A Chaos Mesh HTTPChaos aborting the responses of the target's HTTP server: every request on
its port ends with the connection closed."""

from __future__ import annotations

from sre.generator.faults._common import chaos_object, delete_chaos, pause_chaos
from sre.generator.model import FaultContext, FaultPlan, FaultType, Symptom


def build(ctx: FaultContext) -> FaultPlan:
    change, ref = chaos_object(
        ctx,
        "HTTPChaos",
        f"{ctx.target.name}-http-abort",
        {"target": "Response", "port": ctx.target.port, "path": "*", "abort": True},
    )
    return FaultPlan(
        fault_type="http-abort",
        target=ctx.target,
        root=ref,
        changes=(change,),
        warnings=(),  # the probe is a TCP connect, which HTTPChaos lets through
        symptom=Symptom(
            ctx.target.name, "error", "upstream connect error or disconnect/reset before headers"
        ),
        pod_state="Running",
        category="Network",
        condition=f"HTTPChaos aborts the HTTP responses of {ctx.target.name}",
        mechanism="chaos",
        pod_effect=f"every HTTP request to {ctx.target.name} is aborted",
    )


# HTTPChaos hijacks HTTP/1 servers only: the demo's HTTP services
FAULT = FaultType(
    "http-abort",
    "HTTPChaos aborts the target's HTTP responses",
    build,
    ("email", "quote"),
    remedies=(delete_chaos("HTTPChaos"), pause_chaos("HTTPChaos")),
)
