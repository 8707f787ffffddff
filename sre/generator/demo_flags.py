"""The OpenTelemetry demo's flagd flags, each with its own failure mode: the variants the demo's
``src/flagd/demo.flagd.json`` declares, the variant a fault selects, and what the services do
while the flag evaluates to a non-zero value. The generator writes incidents from this table
(``faults/flagd_flags.py``) and the twin reads the effects from it (``sre/twin/model.py``).

One :class:`FlagEffect` per flag; semantics written down from the demo's documentation of each
flag, not from its code.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sre.generator.objects import FLAGD_CONFIGMAP, uid

_ON_OFF = {"on": True, "off": False}
_PERCENT = {"10%": 0.1, "25%": 0.25, "50%": 0.5, "75%": 0.75, "90%": 0.95, "100%": 1, "off": 0}


@dataclass(frozen=True)
class FlagEffect:
    """What one flag does while on. ``service`` is the faulty entity the generator names (the
    service whose code reads the flag, or the broker for the queue flag); the other fields
    say which services fail or slow down, so the twin and the generator tell one story."""

    flag: str
    service: str
    description: str
    variants: Mapping[str, Any]
    #: the variant a fault selects
    on: str
    #: services whose requests fail (a fractional value is the share of failing requests)
    errors: tuple[str, ...] = ()
    #: service -> latency added (ms); None takes the variant's value as milliseconds
    latency_ms: Mapping[str, float | None] = field(default_factory=dict)
    #: (caller, callee): the caller's calls to the callee fail (it dials a bad address)
    unreachable: tuple[str, str] | None = None
    #: a service whose memory grows without bound (OOM kills follow, whatever its limit)
    leaks: str | None = None
    #: the flag is switched on by its targeting rule (for one product), not its defaultVariant
    targeted: bool = False


FLAG_EFFECTS: tuple[FlagEffect, ...] = (
    FlagEffect("adFailure", "ad", "Fail ad service", _ON_OFF, "on", errors=("ad",)),
    FlagEffect(
        "adHighCpu", "ad", "Triggers high cpu load in the ad service", _ON_OFF, "on",
        latency_ms={"ad": 900.0},
    ),
    FlagEffect(
        "adManualGc", "ad", "Triggers full manual garbage collections in the ad service",
        _ON_OFF, "on", latency_ms={"ad": 1500.0},
    ),
    FlagEffect(
        "cartFailure", "cart", "Fail cart service n% of the time", _PERCENT, "50%",
        errors=("cart",),
    ),
    FlagEffect(
        # the frontend serves the product images slowly (its image loader waits); the
        # image-provider behind it is fine
        "imageSlowLoad", "frontend", "slow loading images in the frontend",
        {"10sec": 10000, "5sec": 5000, "off": 0}, "5sec", latency_ms={"frontend": None},
    ),
    FlagEffect(
        "kafkaQueueProblems", "kafka",
        "Overloads Kafka queue while simultaneously introducing a consumer side delay leading "
        "to a lag spike",
        {"on": 100, "off": 0}, "on",
        latency_ms={"checkout": 700.0, "accounting": 3000.0, "fraud-detection": 3000.0},
    ),
    FlagEffect(
        "loadgeneratorFloodHomepage", "frontend",
        "Flood the frontend with a large amount of requests.",
        {"on": 100, "off": 0}, "on", latency_ms={"frontend": 2000.0},
    ),
    FlagEffect(
        "paymentFailure", "payment", "Fail payment service charge requests n%", _PERCENT, "50%",
        errors=("payment",),
    ),
    FlagEffect(
        "paymentUnreachable", "checkout", "Payment service is unavailable", _ON_OFF, "on",
        unreachable=("checkout", "payment"),
    ),
    FlagEffect(
        "productCatalogFailure", "product-catalog",
        "Fail product catalog service on a specific product", _ON_OFF, "on",
        errors=("product-catalog",), targeted=True,
    ),
    FlagEffect(
        "recommendationCacheFailure", "recommendation", "Fail recommendation service cache",
        _ON_OFF, "on", latency_ms={"recommendation": 800.0}, leaks="recommendation",
    ),
)  # fmt: skip

EFFECTS = {e.flag: e for e in FLAG_EFFECTS}
#: the product the demo's targeting rule singles out
TARGETED_PRODUCT = "OLJCESPC7Z"


def _targeting(variant: str) -> dict[str, Any]:
    return {"if": [{"==": [{"var": "product_id"}, TARGETED_PRODUCT]}, variant, "off"]}


def demo_flags(on: str | None = None) -> dict[str, Any]:
    """The ``flags`` document of the demo's flagd file, every flag off but ``on``."""
    flags: dict[str, Any] = {}
    for effect in FLAG_EFFECTS:
        entry: dict[str, Any] = {
            "defaultVariant": "off",
            "description": effect.description,
            "state": "ENABLED",
            "variants": dict(effect.variants),
        }
        if effect.targeted:
            entry["targeting"] = _targeting(effect.on if effect.flag == on else "off")
        elif effect.flag == on:
            entry["defaultVariant"] = effect.on
        flags[effect.flag] = entry
    return {"$schema": "https://flagd.dev/schema/v0/flags.json", "flags": flags}


def demo_flagd_configmap(namespace: str, on: str | None = None) -> dict[str, Any]:
    """The flagd ConfigMap as the demo's Helm chart ships it (the file indented by two)."""
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {
            "name": FLAGD_CONFIGMAP,
            "namespace": namespace,
            "uid": uid("ConfigMap", namespace, FLAGD_CONFIGMAP),
        },
        "data": {"demo.flagd.json": json.dumps(demo_flags(on), indent=2)},
    }


def turned_off(document: Mapping[str, Any], flag: str) -> dict[str, Any]:
    """The flags document with ``flag`` back to off the way the demo ships it: defaultVariant
    off and a targeting rule that picks off for every product."""
    out = copy.deepcopy(dict(document))
    entry = out["flags"][flag]
    entry["defaultVariant"] = "off"
    if "targeting" in entry:
        entry["targeting"] = _targeting("off")
    return out


def zeroed(document: Mapping[str, Any], flag: str) -> dict[str, Any]:
    """The flags document with the value of the variant a fault selects set to off's value
    (false or 0): the flag may still select that variant, it does nothing."""
    out = copy.deepcopy(dict(document))
    effect = EFFECTS[flag]
    entry = out["flags"][flag]
    entry["variants"][effect.on] = entry["variants"]["off"]
    return out
