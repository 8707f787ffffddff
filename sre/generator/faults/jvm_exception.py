"""A Chaos Mesh JVMChaos throwing an exception from a method of the target's Java service (the
paper's "JVM code" faults): the JVM keeps running, the method's calls fail."""

from __future__ import annotations

from sre.generator.faults._common import chaos_object, delete_chaos, pause_chaos
from sre.generator.model import FaultContext, FaultPlan, FaultType, Symptom

#: the Java services of the demo and the method serving their main request
JAVA_METHODS = {"ad": ("oteldemo.AdService$AdServiceImpl", "getAds")}


def build(ctx: FaultContext) -> FaultPlan:
    cls, method = JAVA_METHODS[ctx.target.name]
    exception = ctx.rng.choice(
        ('java.io.IOException("BOOM")', 'java.lang.IllegalStateException("chaos")')
    )
    change, ref = chaos_object(
        ctx,
        "JVMChaos",
        f"{ctx.target.name}-jvm-exception",
        {"action": "exception", "class": cls, "method": method, "exception": exception,
         "port": 9277},
    )  # fmt: skip
    return FaultPlan(
        fault_type="jvm-exception",
        target=ctx.target,
        root=ref,
        changes=(change,),
        warnings=(),  # the JVM and its probe are fine; only the method throws
        symptom=Symptom(
            ctx.target.name, "error", f"rpc error: code = Unknown desc = {exception.split('(')[0]}"
        ),
        pod_state="Running",
        category="Application",
        condition=f"JVMChaos throws {exception} in {cls}.{method}",
        mechanism="chaos",
        pod_effect=f"{ctx.target.name} fails every call of {method}",
    )


FAULT = FaultType(
    "jvm-exception",
    "JVMChaos exception in the target's Java method",
    build,
    tuple(JAVA_METHODS),
    remedies=(delete_chaos("JVMChaos"), pause_chaos("JVMChaos")),
)
