"""The application namespace taken out of Istio's ambient mesh (its ``istio.io/dataplane-mode``
label set to ``none``): its pods' traffic no longer passes the node's ztunnel, so the mesh's
telemetry sees none of their requests (NoRequestsReceived) and its policies no longer apply. The
application itself keeps answering."""

from __future__ import annotations

import copy

from sre.generator.faults._common import json_patch
from sre.generator.faults._mesh import MODE_LABEL, mesh_setup, namespace
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
    before = namespace(ctx.namespace)
    after = copy.deepcopy(before)
    after["metadata"]["labels"][MODE_LABEL] = "none"
    ref = ObjectRef("Namespace", ctx.namespace, "")
    return FaultPlan(
        fault_type="ambient-off",
        target=ctx.target,
        root=ref,
        changes=(ObjectChange(ref, after, before),),
        warnings=(),
        # the application answers as before: only the mesh stops seeing (and policing) it
        symptom=Symptom(ctx.target.name, "latency", "the mesh reports no requests", 0.0),
        pod_state="Running",
        category="Configuration Setting",
        condition=f"Namespace {ctx.namespace} is labelled {MODE_LABEL}=none",
        mechanism="ambient-mode-disabled",
        pod_effect=f"the mesh sees no request to {ctx.target.name} (its pods left the mesh)",
        pod_alert="NoRequestsReceived",
    )


FAULT = FaultType(
    "ambient-off",
    "namespace taken out of the ambient mesh",
    build,
    ("frontend-proxy",),
    remedies=(
        Remedy(
            "enrol the namespace again",
            "the namespace's pods join the ambient mesh: ztunnel carries and reports their traffic",
            lambda r: [["label", "namespace", r.namespace, f"{MODE_LABEL}=ambient", "--overwrite"]],
        ),
        Remedy(
            "remove the mode label",
            "a namespace without the label is not in the mesh either",
            lambda r: [["label", "namespace", r.namespace, f"{MODE_LABEL}-"]],
            accepted=False,
        ),
        Remedy(
            "enrol the entry workload only",
            "frontend-proxy's pods join the mesh, every other service stays outside, unseen",
            lambda r: [
                json_patch(
                    r,
                    "deployment",
                    r.target,
                    {
                        "op": "add",
                        "path": "/spec/template/metadata/labels/" + MODE_LABEL.replace("/", "~1"),
                        "value": "ambient",
                    },
                )
            ],  # fmt: skip
            accepted=False,
        ),
    ),
    setup=mesh_setup,
)
