"""PolicyExceptions (``kyverno.io/v2`` and ``v2beta1``): an exception names policies and rules
(rule names may use wildcards), matches resources like a rule's ``match`` block, and may add
``conditions``; a rule it covers is skipped for that resource. For a podSecurity rule an
exception may instead carry ``podSecurity`` exclusions, applied to what the rule still
forbids."""

from __future__ import annotations

from typing import Any

from ciso.engines.kyverno import conditions, wildcard
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.matching import Facts, block_matches

KIND = "PolicyException"


def _key(exception: dict[str, Any]) -> str:
    meta = exception.get("metadata") or {}
    return (
        f"{meta['namespace']}/{meta.get('name', '')}"
        if meta.get("namespace")
        else meta.get("name", "")
    )


def covers(exception: dict[str, Any], policy: str, rule: str) -> bool:
    """The exception lists this policy (``ns/name`` for a namespaced Policy) and rule."""
    for entry in (exception.get("spec") or {}).get("exceptions") or []:
        if (
            isinstance(entry, dict)
            and entry.get("policyName") == policy
            and wildcard.any_match(entry.get("ruleNames"), rule)
        ):
            return True
    return False


def matching(
    exceptions: list[dict[str, Any]],
    policy: str,
    rule: str,
    resource: dict[str, Any],
    facts: Facts,
    context: dict[str, Any],
) -> list[dict[str, Any]]:
    """The exceptions that cover the rule and hold for this resource."""
    found = []
    for exception in exceptions:
        if not covers(exception, policy, rule):
            continue
        spec = exception.get("spec") or {}
        if not block_matches(spec.get("match"), resource, facts):
            continue
        if spec.get("conditions") is not None:
            try:
                if not conditions.evaluate(spec["conditions"], context):
                    continue
            except RuleError:
                continue  # as Kyverno: an exception whose conditions fail to evaluate is ignored
        found.append(exception)
    return found


def names(found: list[dict[str, Any]]) -> str:
    return ", ".join(_key(e) for e in found)


def pod_security_exclusions(found: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The podSecurity exclusions of the exceptions, or None when one of them has none (then it
    exempts the whole rule)."""
    exclusions: list[dict[str, Any]] = []
    for exception in found:
        extra = (exception.get("spec") or {}).get("podSecurity")
        if not extra:
            return None
        exclusions += list(extra)
    return exclusions
