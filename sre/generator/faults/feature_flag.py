"""A flagd feature flag switched on in the ``flagd-config`` ConfigMap: the service fails by design."""

from __future__ import annotations

import copy
import json

from sre.generator.model import FaultContext, FaultPlan, FaultType, ObjectChange, ObjectRef, Symptom
from sre.generator.objects import FLAGD_CONFIGMAP, FLAGS, flagd_configmap

_FAILURE_FLAGS = {svc: flag for flag, svc in FLAGS.items() if flag.endswith("Failure")}


def build(ctx: FaultContext) -> FaultPlan:
    flag = _FAILURE_FLAGS[ctx.target.name]
    before = flagd_configmap(ctx.namespace)
    after = copy.deepcopy(before)
    flags = json.loads(after["data"]["demo.flagd.json"])
    flags["flags"][flag]["defaultVariant"] = "on"
    after["data"]["demo.flagd.json"] = json.dumps(flags, sort_keys=True)
    ref = ObjectRef("ConfigMap", FLAGD_CONFIGMAP, ctx.namespace)
    return FaultPlan(
        fault_type="feature-flag",
        target=ctx.target,
        root=ref,
        changes=(ObjectChange(ref, after, before),),
        warnings=(),  # flagd reloads the flag silently: Kubernetes sees nothing wrong
        symptom=Symptom(ctx.target.name, "error", f"Error: {flag} feature flag is enabled"),
        pod_state="Running",
        category="Configuration Setting",
        condition=f"feature flag {flag} enabled in ConfigMap {FLAGD_CONFIGMAP}",
        mechanism="custom(flagd)",
        pod_effect=f"{ctx.target.name} returns errors for requests ({flag})",
        extra={"flag": flag},
    )


FAULT = FaultType(
    "feature-flag",
    "a flagd failure flag enabled in the flagd-config ConfigMap",
    build,
    tuple(sorted(_FAILURE_FLAGS)),
)
