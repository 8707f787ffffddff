"""A flagd feature flag switched on in the ``flagd-config`` ConfigMap: the service fails by design."""

from __future__ import annotations

import copy
import json

from sre.generator.faults._common import DELETE_FLAG_CONFIG
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


def _flags(r: RemedyContext, change: str) -> list[list[str]]:
    """A merge patch of the flagd ConfigMap with every failure flag of the target changed."""
    cm = flagd_configmap(r.namespace)
    flags = json.loads(cm["data"]["demo.flagd.json"])
    for flag, service in FLAGS.items():
        if service == r.target and change == "disable" and flag in _FAILURE_FLAGS.values():
            # the flag stays "on", but flagd serves a disabled flag's code default (off)
            flags["flags"][flag].update(state="DISABLED", defaultVariant="on")
    patch = {"data": {"demo.flagd.json": json.dumps(flags, sort_keys=True)}}
    return [["-n", r.namespace, "patch", "configmap", FLAGD_CONFIGMAP, "--type=merge", "-p",
             json.dumps(patch)]]  # fmt: skip


FAULT = FaultType(
    "feature-flag",
    "a flagd failure flag enabled in the flagd-config ConfigMap",
    build,
    tuple(sorted(_FAILURE_FLAGS)),
    remedies=(
        Remedy(
            "turn the flag off",
            "defaultVariant back to off: flagd reloads the ConfigMap",
            lambda r: _flags(r, "off"),
        ),
        Remedy(
            "disable the flag",
            "a DISABLED flag evaluates to the code's default, off",
            lambda r: _flags(r, "disable"),
        ),
        DELETE_FLAG_CONFIG,
    ),
)
