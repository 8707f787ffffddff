"""The target Service's selector changed to a label its pods do not carry: no endpoints."""

from __future__ import annotations

import copy
import json

from sre.generator.faults._common import APP_SERVICES
from sre.generator.model import (
    FaultContext,
    FaultPlan,
    FaultType,
    ObjectChange,
    ObjectRef,
    Remedy,
    RemedyContext,
    Symptom,
)


def build(ctx: FaultContext) -> FaultPlan:
    after = copy.deepcopy(ctx.service)
    wrong = f"{ctx.target.name}-{ctx.rng.choice(('v2', 'svc', 'service'))}"
    after["spec"]["selector"] = {"app.kubernetes.io/name": wrong}
    ref = ObjectRef("Service", ctx.target.name, ctx.namespace)
    return FaultPlan(
        fault_type="service-selector",
        target=ctx.target,
        root=ref,
        changes=(ObjectChange(ref, after, ctx.service),),
        warnings=(),  # a selector that matches nothing is valid to Kubernetes
        symptom=Symptom(ctx.target.name, "unavailable", "no healthy upstream"),
        pod_state="Running",
        category="Configuration Setting",
        condition=f"{ctx.target.name} Service selects app.kubernetes.io/name={wrong}",
        mechanism="misconfigured-service-selector",
        pod_effect=f"the {ctx.target.name} Service has no endpoints",
        extra={"selector": wrong},
    )


def _select(r: RemedyContext, selector: dict[str, str]) -> list[list[str]]:
    patch = [{"op": "replace", "path": "/spec/selector", "value": selector}]
    return [["-n", r.namespace, "patch", "service", r.target, "--type=json", "-p",
             json.dumps(patch)]]  # fmt: skip


#: the label every pod of the demo carries (the Helm chart's), whatever its application
PART_OF = {"app.kubernetes.io/part-of": "opentelemetry-demo"}


FAULT = FaultType(
    "service-selector",
    "Service selector matching no pod",
    build,
    APP_SERVICES,
    remedies=(
        Remedy(
            "fix the selector",
            "the Service selects the pods' own label again",
            lambda r: [
                [
                    "-n",
                    r.namespace,
                    "patch",
                    "service",
                    r.target,
                    "--type=json",
                    "-p",
                    json.dumps(
                        [
                            {
                                "op": "replace",
                                "path": "/spec/selector",
                                "value": {"app.kubernetes.io/name": r.target},
                            }
                        ]
                    ),
                ]
            ],
        ),  # fmt: skip
        Remedy(
            "select the pods by their name and the demo's label",
            "any selector that matches only the service's own pods repairs it",
            lambda r: _select(r, {"app.kubernetes.io/name": r.target, **PART_OF}),
        ),
        Remedy(
            "select every pod of the demo",
            "the Service gets endpoints, but most are other applications' pods: the calls that "
            "land there fail, the callers' errors go on",
            lambda r: _select(r, dict(PART_OF)),
            accepted=False,
        ),
        Remedy(
            "point the targetPort elsewhere",
            "the port is not what is wrong: the selector still matches no pod",
            lambda r: [
                [
                    "-n",
                    r.namespace,
                    "patch",
                    "service",
                    r.target,
                    "--type=json",
                    "-p",
                    json.dumps(
                        [{"op": "replace", "path": "/spec/ports/0/targetPort", "value": "service"}]
                    ),
                ]
            ],
            accepted=False,
        ),  # fmt: skip
    ),
)
