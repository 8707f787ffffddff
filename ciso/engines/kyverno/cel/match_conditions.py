"""``matchConditions`` of the CEL policy kinds and their PolicyExceptions: every condition true, an
error fails the request unless the spec's ``failurePolicy`` is Ignore (then it is a non-match).
Its own module because ValidatingPolicy and the PolicyExceptions that name one both need it."""

from __future__ import annotations

from typing import Any

from ciso.engines.kyverno.cel import bindings as cel_bindings


def ignores_failures(spec: dict[str, Any]) -> bool:
    return spec.get("failurePolicy") == "Ignore"


def conditions_hold(spec: dict[str, Any], bound: dict[str, Any]) -> bool:
    """All ``matchConditions`` true; an error fails the request (RuleError) unless the
    failurePolicy is Ignore, which makes it a non-match."""
    held, errors = cel_bindings.all_hold(
        spec.get("matchConditions"), bound, "matchConditions", "a match condition"
    )
    if not held:
        return False
    if errors:
        if ignores_failures(spec):
            return False
        raise errors[0]
    return True
