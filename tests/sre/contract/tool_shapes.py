"""Comparing the shape of our tools' answers with the original tools' recorded answers.

A shape is what a client of the original server relies on: which keys an object has and which
JSON type each value is. Values themselves may differ (our tools fix some of the original's
defects). ``null`` in either answer matches any type (the original writes null where data is
missing); a number matches a number (JSON does not tell int from float); our answers may add
keys (what ours knows more) but never drop or retype one of the original's.
"""

from __future__ import annotations

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
    "metric_anomalies.metrics",
)


def kind(value: Any) -> str:
    if value is None:
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
    generic = ".".join("*" if p and p[0] == "\x00" else p for p in path.split("."))
    return any(generic == m or generic.endswith("." + m) for m in MAPS)


def differences(original: Any, ours: Any, path: str = "") -> list[str]:
    """Where ``ours`` does not have the shape of ``original`` (empty: a drop-in answer)."""
    where = path or "(answer)"
    if original is None or ours is None:
        return []
    if kind(original) != kind(ours):
        return [f"{where}: the original answers {kind(original)}, ours {kind(ours)}"]
    if isinstance(original, list):
        if not original:
            return []
        if not ours:
            return [f"{where}: ours is empty where the original has {len(original)} items"]
        return differences(_merged(original), _merged(ours), path + "[]")
    if isinstance(original, dict):
        if _is_map(path):
            if not original or not ours:
                return []
            return differences(_merged(list(original.values())), _merged(list(ours.values())), path + ".*")
        out = []
        for key, value in original.items():
            sub = f"{path}.{key}" if path else key
            if key not in ours:
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
        return next((i for i in items if i is not None), None)
    merged: dict[str, Any] = {}
    for obj in objects:
        for key, value in obj.items():
            if merged.get(key) is None:
                merged[key] = value
            elif isinstance(merged[key], list) and isinstance(value, list):
                merged[key] = merged[key] + value
    return merged
