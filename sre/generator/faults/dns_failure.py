"""A Chaos Mesh DNSChaos making every name lookup of the target's pods fail."""

from __future__ import annotations

from sre.generator.faults._common import chaos_object, delete_chaos, pause_chaos
from sre.generator.model import FaultContext, FaultPlan, FaultType, Symptom


def build(ctx: FaultContext) -> FaultPlan:
    change, ref = chaos_object(
        ctx, "DNSChaos", f"{ctx.target.name}-dns-error", {"action": "error", "patterns": ["*"]}
    )
    return FaultPlan(
        fault_type="dns-failure",
        target=ctx.target,
        root=ref,
        changes=(change,),
        warnings=(),  # DNS errors surface in the application, not in Kubernetes events
        symptom=Symptom(
            ctx.target.name,
            "error",
            "dial tcp: lookup {callee} on 10.96.0.10:53: no such host",
            origin="client",
        ),
        pod_state="Running",
        category="Network",
        condition=f"DNSChaos makes DNS lookups from {ctx.target.name} pods fail",
        mechanism="chaos",
        pod_effect=f"{ctx.target.name} cannot resolve the services it calls",
    )


# only services that call others can show a DNS failure
FAULT = FaultType(
    "dns-failure",
    "DNSChaos: lookups from the target fail",
    build,
    ("checkout", "recommendation", "shipping", "cart"),
    remedies=(delete_chaos("DNSChaos"), pause_chaos("DNSChaos")),
)
