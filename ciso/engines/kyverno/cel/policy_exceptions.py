"""CEL PolicyExceptions (``policies.kyverno.io`` PolicyException): an exception names policies by
``policyRefs`` (name and kind) and may narrow itself with ``matchConditions``; a resource an
exception covers gets ``skip`` from the policy instead of its verdict, as the Kyverno CLI reports
it ("rule is skipped due to policy exception: <namespace>/<name>"). Used by ValidatingPolicy,
MutatingPolicy and ImageValidatingPolicy."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ciso.engines.kyverno.cel.match_conditions import conditions_hold
from ciso.engines.kyverno.model import Context, RuleOutcome, RuleStatus

GROUP = "policies.kyverno.io/"


def covering(policy: Mapping[str, Any], bound: dict[str, Any], ctx: Context) -> str | None:
    """The ``namespace/name`` of the CEL PolicyExceptions that name this policy and whose
    matchConditions all hold; None when none does."""
    name = (policy.get("metadata") or {}).get("name")
    keys = []
    for exception in ctx.exceptions:
        if not str(exception.get("apiVersion", "")).startswith(GROUP):
            continue
        spec = exception.get("spec") or {}
        refs = spec.get("policyRefs") or []
        if not any(
            isinstance(r, dict) and r.get("name") == name and r.get("kind") == policy.get("kind")
            for r in refs
        ):
            continue
        if conditions_hold({"matchConditions": spec.get("matchConditions")}, bound):
            meta = exception.get("metadata") or {}
            namespace = meta.get("namespace")
            keys.append(f"{namespace}/{meta.get('name')}" if namespace else str(meta.get("name")))
    return ", ".join(keys) or None


def skip(excepted: str) -> RuleOutcome:
    return RuleOutcome(RuleStatus.SKIP, f"rule is skipped due to policy exception: {excepted}")
