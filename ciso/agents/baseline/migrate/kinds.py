"""Kinds a Kyverno rule matches, and the API resources a ValidatingPolicy names for them."""

from __future__ import annotations

from dataclasses import dataclass

from ciso.agents.baseline.migrate.jmespath_cel import NotTranslatable
from itbench.cluster.resources import default_registry


@dataclass(frozen=True)
class ApiResource:
    group: str
    version: str
    resource: str
    kind: str
    namespaced: bool = True


#: every built-in kind the offline API server serves (its registry, not a list kept here)
_KNOWN = tuple(
    ApiResource(t.group, t.version, t.plural, t.kind, t.namespaced)
    for t in default_registry().types
)
BY_KIND = {r.kind: r for r in _KNOWN}
BY_RESOURCE = {(r.group, r.resource): r for r in _KNOWN}


def api_resource(kind: str) -> ApiResource:
    """``Pod``, ``v1/Pod`` or ``apps/v1/Deployment`` as its API resource."""
    name = kind.split("/")[-1]
    if name not in BY_KIND:
        raise NotTranslatable(f"the kind {kind!r} (no API resource known for it)")
    return BY_KIND[name]


def resource_rules(kinds: list[str], operations: list[str]) -> list[dict[str, object]]:
    """``matchConstraints.resourceRules`` for ``kinds``, one rule per group and version."""
    grouped: dict[tuple[str, str], list[str]] = {}
    for kind in kinds:
        found = api_resource(kind)
        names = grouped.setdefault((found.group, found.version), [])
        if found.resource not in names:
            names.append(found.resource)
    return [
        {
            "apiGroups": [group],
            "apiVersions": [version],
            "operations": list(operations),
            "resources": names,
        }
        for (group, version), names in grouped.items()
    ]


def kind_of(group: str, resource: str) -> str:
    found = BY_RESOURCE.get((group, resource))
    if found is None:
        raise NotTranslatable(f"the resource {group or 'core'}/{resource} (no kind known for it)")
    return found.kind
