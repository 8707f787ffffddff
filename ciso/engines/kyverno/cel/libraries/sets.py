"""Kubernetes' sets library on lists: ``sets.contains(a, b)`` (every element of b is in a),
``sets.equivalent(a, b)`` (the same elements, duplicates ignored), ``sets.intersects(a, b)``."""

from __future__ import annotations

from typing import Any

from ciso.engines.kyverno.cel.syntax import namespaced


def _contains(a: list[Any], b: list[Any]) -> bool:
    return all(item in a for item in b)


FUNCTIONS = {
    namespaced("sets", "contains"): _contains,
    namespaced("sets", "equivalent"): lambda a, b: _contains(a, b) and _contains(b, a),
    namespaced("sets", "intersects"): lambda a, b: any(item in a for item in b),
}
