"""Compare a patched resource with the one a test expects, as the Kyverno CLI does: both are
tidied (nulls, empty maps and empty lists removed, recursively) and must then be equal. A
resource the test wrote without a namespace matches one the CLI put in ``default``."""

from __future__ import annotations

from typing import Any


def tidy(value: Any) -> Any:
    if isinstance(value, dict):
        out = {k: t for k, v in value.items() if (t := tidy(v)) is not None}
        return out or None
    if isinstance(value, list):
        items = [t for v in value if (t := tidy(v)) is not None]
        return items or None
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return float(value)  # JSON numbers: 1 and 1.0 are the same value
    return value


def same_resource(expected: dict[str, Any], actual: dict[str, Any]) -> bool:
    left, right = tidy(expected) or {}, tidy(actual) or {}
    left_meta, right_meta = left.get("metadata") or {}, right.get("metadata") or {}
    if "namespace" not in left_meta and right_meta.get("namespace") == "default":
        right = {**right, "metadata": {k: v for k, v in right_meta.items() if k != "namespace"}}
    return left == right
