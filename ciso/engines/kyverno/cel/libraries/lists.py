"""Kubernetes' list library: ``isSorted``, ``sum``, ``min``, ``max``, ``indexOf``,
``lastIndexOf``."""

from __future__ import annotations

from typing import Any


def _min(items: list[Any]) -> Any:
    if not items:
        raise ValueError("min called on an empty list")
    return min(items)


def _max(items: list[Any]) -> Any:
    if not items:
        raise ValueError("max called on an empty list")
    return max(items)


def _last_index_of(items: list[Any], item: Any) -> int:
    for i in range(len(items) - 1, -1, -1):
        if items[i] == item:
            return i
    return -1


FUNCTIONS = {
    "isSorted": lambda items: all(a <= b for a, b in zip(items, items[1:], strict=False)),
    "sum": lambda items: sum(items),
    "min": _min,
    "max": _max,
    "lastIndexOf": _last_index_of,
}
