"""The target Service's targetPort changed to a port nothing listens on."""

from __future__ import annotations

import copy

from sre.generator.faults._common import APP_SERVICES, json_patch
from sre.generator.model import (
    FaultContext,
    FaultPlan,
    FaultType,
    ObjectChange,
    ObjectRef,
    Remedy,
    Symptom,
)


def build(ctx: FaultContext) -> FaultPlan:
    after = copy.deepcopy(ctx.service)
    wrong = ctx.target.port + ctx.rng.choice((1, 10, 1000))
    after["spec"]["ports"][0]["targetPort"] = wrong
    ref = ObjectRef("Service", ctx.target.name, ctx.namespace)
    return FaultPlan(
        fault_type="wrong-target-port",
        target=ctx.target,
        root=ref,
        changes=(ObjectChange(ref, after, ctx.service),),
        warnings=(),  # a Service pointing at a closed port is valid to Kubernetes
        symptom=Symptom(ctx.target.name, "unavailable", "connect: connection refused"),
        pod_state="Running",
        category="Configuration Setting",
        condition=f"{ctx.target.name} Service targetPort changed to {wrong}",
        mechanism="misconfigured-service-port",
        pod_effect=f"traffic to the {ctx.target.name} Service reaches a closed port",
        extra={"target_port": wrong},
    )


FAULT = FaultType(
    "wrong-target-port",
    "Service targetPort to a closed port",
    build,
    APP_SERVICES,
    remedies=(
        Remedy(
            "fix the targetPort",
            "the Service sends traffic to the port the pods listen on",
            lambda r: [
                json_patch(
                    r,
                    "service",
                    r.target,
                    {"op": "replace", "path": "/spec/ports/0/targetPort", "value": r.port},
                )
            ],
        ),
        Remedy(
            "name the container port",
            "targetPort by the container port's name resolves to the listening port",
            lambda r: [
                json_patch(
                    r,
                    "service",
                    r.target,
                    {"op": "replace", "path": "/spec/ports/0/targetPort", "value": "service"},
                )
            ],
        ),
    ),
)
