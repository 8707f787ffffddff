"""Which workloads take their resources from a LimitRange: a LimitRange's ``Container`` limit
gives ``default`` limits and ``defaultRequest`` requests to every container of its namespace that
declares none of its own, when the pod is admitted. A workload whose pod template leaves such a
resource undeclared runs with the LimitRange's value, so a change of those defaults acts on it:
its pods created after the change (a rollout, an autoscaler's scale-out, a pod replaced) get the
new value, and a memory default lowered below what the process needs OOM-kills them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sre.agents.baseline.states.objects import ObjectView, meta

#: the LimitRange fields that fill in what a container leaves out, and where the container says it
DEFAULTS = (("default", "limits"), ("defaultRequest", "requests"))


def _defaulted(limit_range: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(container field, resource) of every default a LimitRange gives containers."""
    for item in (limit_range.get("spec") or {}).get("limits") or []:
        if not isinstance(item, dict) or item.get("type", "Container") != "Container":
            continue
        for given, field in DEFAULTS:
            values = item.get(given)
            if isinstance(values, dict):
                yield from ((field, str(resource)) for resource in values)


def _declared(resources: Any, field: str) -> set[str]:
    """The resources a container declares under ``field``; a limit declared without its request
    is the request too (the API server sets it so before the LimitRange is consulted)."""
    resources = resources if isinstance(resources, dict) else {}
    named = {str(r) for r in resources.get(field) or {}}
    return named | (
        {str(r) for r in resources.get("limits") or {}} if field == "requests" else set()
    )


def _leaves_out(template: dict[str, Any], defaulted: set[tuple[str, str]]) -> bool:
    """Whether a container of the pod template declares none of a defaulted resource."""
    spec = template.get("spec") or {}
    for c in (spec.get("containers") or []) + (spec.get("initContainers") or []):
        resources = (c or {}).get("resources") if isinstance(c, dict) else None
        if any(resource not in _declared(resources, field) for field, resource in defaulted):
            return True
    return False


def users(view: ObjectView) -> dict[str, frozenset[str]]:
    """namespace/LimitRange/name -> the workloads of its namespace that take a default of it."""
    found: dict[str, set[str]] = {}
    for _, limit_range in view.kind("LimitRange"):
        namespace, name, _ = meta(limit_range)
        defaulted = set(_defaulted(limit_range))
        if not defaulted:
            continue
        for _, workload in view.kind("Deployment", "StatefulSet", "DaemonSet"):
            own_namespace, workload_name, _ = meta(workload)
            template = (workload.get("spec") or {}).get("template") or {}
            if own_namespace == namespace and _leaves_out(template, defaulted):
                found.setdefault(f"{namespace}/LimitRange/{name}", set()).add(workload_name)
    return {k: frozenset(v) for k, v in found.items()}
