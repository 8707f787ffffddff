"""Comparing the shape of our tools' answers with the original tools' recorded answers.

A shape is what a client of the original server relies on: which keys an object has and which
JSON type each value is. Values themselves may differ (our tools fix some of the original's
defects). ``null`` in either answer matches any type (the original writes null where data is
missing); a number matches a number (JSON does not tell int from float); our answers may add
keys (what ours knows more) but never drop or retype one of the original's. The original's
``NaN`` (pandas' missing value for an empty cell, written as JSON's non-standard ``NaN``) is a
missing value too, as null: it is no number the original read.
"""

from __future__ import annotations

import math
from typing import Any

#: object paths whose keys are data (entity ids, severities, services), not field names: only
#: their values' shapes are compared
MAPS = (
    "entities",
    "entities_with_changes[].changes[].changes",
    "patterns[].severity_breakdown",
    "patterns[].service_breakdown",
    "relationships_by_type",
    "entities.*.changes_detected",
    "[].labels",
)


#: paths holding data of any shape (a Kubernetes manifest, a changed value): not compared
OPAQUE = (
    "spec",
    "reference_spec.spec",
    "latest_spec",
    "old",
    "new",
    "evidence",
)


def missing(value: Any) -> bool:
    """null, or the NaN the original writes for an empty cell."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def kind(value: Any) -> str:
    if missing(value):
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _is_map(path: str) -> bool:
    return _matches(path, MAPS)


def _matches(path: str, patterns: tuple[str, ...]) -> bool:
    bare = path.replace("[]", "")
    return any(
        path == m or path.endswith("." + m) or bare == m or bare.endswith("." + m) for m in patterns
    )


def differences(original: Any, ours: Any, path: str = "") -> list[str]:
    """Where ``ours`` does not have the shape of ``original`` (empty: a drop-in answer)."""
    where = path or "(answer)"
    if missing(original) or missing(ours) or (path and _matches(path, OPAQUE)):
        return []
    if kind(original) != kind(ours):
        return [f"{where}: the original answers {kind(original)}, ours {kind(ours)}"]
    if isinstance(original, list):
        if not original:
            return []
        if not ours and "." not in path and "[]" not in path:
            # at the answer's top level an empty list where the original has items hides the
            # shape; deeper down it is data (which anomalies, which changes)
            return [f"{where}: ours is empty where the original has {len(original)} items"]
        if not ours:
            return []
        return differences(_merged(original), _merged(ours), path + "[]")
    if isinstance(original, dict):
        if _is_map(path):
            if not original or not ours:
                return []
            return differences(
                _merged(list(original.values())), _merged(list(ours.values())), path + ".*"
            )
        out = []
        for key, value in original.items():
            sub = f"{path}.{key}" if path else key
            if key not in ours:
                if key == "error" or key.endswith("_error"):
                    continue  # the original reports its own failure there; ours answered
                out.append(f"{sub}: missing (the original has {kind(value)})")
            else:
                out.extend(differences(value, ours[key], sub))
        return out
    return []


def _merged(items: list[Any]) -> Any:
    """One representative of a list's items: objects merged key by key (the first non-null value
    of each key), so a key present in any item is compared."""
    objects = [i for i in items if isinstance(i, dict)]
    if len(objects) != len(items) or not objects:
        return next((i for i in items if not missing(i)), None)
    merged: dict[str, Any] = {}
    for obj in objects:
        for key, value in obj.items():
            if missing(merged.get(key)):
                merged[key] = value
            elif isinstance(merged[key], list) and isinstance(value, list):
                merged[key] = merged[key] + value
    return merged
