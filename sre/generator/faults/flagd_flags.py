"""One fault type per flag of the demo's flagd file (``sre/generator/demo_flags.py``): the flag
switched to the variant the demo uses to break things, in the ConfigMap as the demo ships it.

Named ``flag-<flag in kebab case>``. Remedies: turn the flag off (defaultVariant back to off, or
its targeting rule back to off), or set the selected variant's value to off's, in whatever JSON
formatting; restarting, deleting the pods, deleting the ConfigMap or scaling do not repair it.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from collections.abc import Callable
from typing import Any

from sre.generator.demo_flags import (
    FLAG_EFFECTS,
    FlagEffect,
    demo_flagd_configmap,
    demo_flags,
    turned_off,
    zeroed,
)
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
    WarningEvent,
)
from sre.generator.objects import FLAGD_CONFIGMAP, pod_name, template_hash


def fault_name(flag: str) -> str:
    return "flag-" + re.sub(r"(?<!^)(?=[A-Z])", "-", flag).lower()


def _symptom(effect: FlagEffect) -> Symptom:
    if effect.leaks:
        return Symptom(effect.leaks, "unavailable", "connection refused")
    if effect.unreachable:
        caller, callee = effect.unreachable
        return Symptom(caller, "error", f"dial tcp: lookup badAddress: no such host ({callee})")
    if effect.errors:
        return Symptom(effect.errors[0], "error", f"Error: {effect.flag} feature flag is enabled")
    service, ms = max(effect.latency_ms.items(), key=lambda kv: kv[1] or 0)
    value = effect.variants[effect.on]
    return Symptom(service, "latency", "context deadline exceeded", latency_ms=float(ms or value))


def _build(effect: FlagEffect) -> Callable[[FaultContext], FaultPlan]:
    def build(ctx: FaultContext) -> FaultPlan:
        before = demo_flagd_configmap(ctx.namespace)
        after = demo_flagd_configmap(ctx.namespace, on=effect.flag)
        ref = ObjectRef("ConfigMap", FLAGD_CONFIGMAP, ctx.namespace)
        symptom = _symptom(effect)
        plan: dict[str, Any] = {}
        warnings: tuple[WarningEvent, ...] = ()
        if effect.leaks:
            # the cache grows until the kernel kills the container: the pod restarts
            pod = ObjectRef(
                "Pod", pod_name(ctx.target, template_hash(ctx.deployment)), ctx.namespace
            )
            warnings = (
                WarningEvent(
                    pod, "BackOff", f"Back-off restarting failed container {effect.leaks}",
                    "kubelet", every_s=45,
                ),
            )  # fmt: skip
            plan = {"pod_state": "OOMKilled", "pod_alert": "KubePodCrashLooping",
                    "restarts": True, "memory_mb": 600.0}  # fmt: skip
        return FaultPlan(
            fault_type=fault_name(effect.flag),
            target=ctx.target,
            root=ref,
            changes=(ObjectChange(ref, after, before),),
            warnings=warnings,
            symptom=symptom,
            pod_state=plan.pop("pod_state", "Running"),
            category="Configuration Setting",
            condition=f"feature flag {effect.flag} set to {effect.on!r} in ConfigMap "
            f"{FLAGD_CONFIGMAP}",
            mechanism="custom(flagd)",
            pod_effect=f"{effect.description} ({effect.flag})",
            extra={"flag": effect.flag},
            **plan,
        )

    return build


def _patch(document: dict[str, Any], r: RemedyContext, compact: bool) -> list[list[str]]:
    text = (
        json.dumps(document, separators=(",", ":")) if compact else json.dumps(document, indent=4)
    )
    patch = {"data": {"demo.flagd.json": text}}
    return [["-n", r.namespace, "patch", "configmap", FLAGD_CONFIGMAP, "--type=merge", "-p",
             json.dumps(patch)]]  # fmt: skip


def _remedies(effect: FlagEffect) -> tuple[Remedy, ...]:
    on = demo_flags(effect.flag)
    return (
        Remedy(
            "turn the flag off",
            "defaultVariant (and a targeting rule) back to off: flagd reloads the ConfigMap",
            lambda r: _patch(turned_off(copy.deepcopy(on), effect.flag), r, compact=False),
        ),
        Remedy(
            "set the variant's value to off",
            "the selected variant now carries false/0; written on one line (formatting is free)",
            lambda r: _patch(zeroed(copy.deepcopy(on), effect.flag), r, compact=True),
        ),
        # a slowing flag's latency alerts give way to error alerts once flagd has nothing to
        # serve: ITBench's lenient check passes (its alerts cleared), strict fails on the deletion
        dataclasses.replace(DELETE_FLAG_CONFIG, clears_alerts=_only_slows(effect)),
        Remedy(
            "scale the target up",
            "more replicas read the same flag",
            lambda r: [["-n", r.namespace, "scale", f"deployment/{r.target}", "--replicas=3"]],
            accepted=False,
        ),
    )


def _only_slows(effect: FlagEffect) -> bool:
    return not (effect.errors or effect.unreachable or effect.leaks)


def fault_type(effect: FlagEffect) -> FaultType:
    return FaultType(
        fault_name(effect.flag),
        f"flagd flag {effect.flag} on: {effect.description}",
        _build(effect),
        (effect.service,),
        remedies=_remedies(effect),
    )


FAULTS: tuple[FaultType, ...] = tuple(fault_type(e) for e in FLAG_EFFECTS)
