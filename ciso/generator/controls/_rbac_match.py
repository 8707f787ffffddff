"""How an RBAC rule reaches a verb, group or resource: named, or through "*" (and a resource
through "*/<subresource>"), as the API server's authorizer matches them."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any


def covers(values: Iterable[Any] | None, wanted: Collection[str]) -> bool:
    listed = {str(v) for v in values or ()}
    return "*" in listed or bool(listed & set(wanted))


def covers_resource(resources: Iterable[Any] | None, wanted: Collection[str]) -> bool:
    listed = [str(r) for r in resources or ()]
    if covers(listed, wanted):
        return True
    return any(
        r.startswith("*/") and "/" in t and t.endswith(r[1:]) for r in listed for t in wanted
    )


def grants(
    rule: Mapping[str, Any],
    verbs: Collection[str] | None,
    groups: Collection[str] | None,
    resources: Collection[str],
) -> bool:
    """Whether the rule grants one of ``verbs`` (None: any verb at all) on one of ``resources``
    in one of ``groups`` (None: whatever the group, for resource names no other group uses)."""
    verb_ok = bool(rule.get("verbs")) if verbs is None else covers(rule.get("verbs"), verbs)
    return (
        verb_ok
        and (groups is None or covers(rule.get("apiGroups"), groups))
        and covers_resource(rule.get("resources"), resources)
    )
