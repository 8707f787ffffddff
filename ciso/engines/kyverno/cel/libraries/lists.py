"""Kubernetes' list library: ``isSorted``, ``sum``, ``min``, ``max``, ``indexOf``,
``lastIndexOf``."""

from __future__ import annotations

from typing import Any

from ciso.engines.kyverno.cel.libraries import strings

# ``indexOf`` and ``lastIndexOf`` are overloaded on strings and lists; the evaluator dispatches
# on the name only, so these take both and leave a string receiver to the strings library.


def _min(items: list[Any]) -> Any:
    if not items:
        raise ValueError("min called on an empty list")
    return min(items)


def _max(items: list[Any]) -> Any:
    if not items:
        raise ValueError("max called on an empty list")
    return max(items)


def _index_of(items: Any, item: Any, *rest: Any) -> int:
    if isinstance(items, str):
        return strings.FUNCTIONS["indexOf"](items, item, *rest)
    for i, candidate in enumerate(items):
        if candidate == item:
            return i
    return -1


def _last_index_of(items: Any, item: Any, *rest: Any) -> int:
    if isinstance(items, str):
        return strings.FUNCTIONS["lastIndexOf"](items, item, *rest)
    for i in range(len(items) - 1, -1, -1):
        if items[i] == item:
            return i
    return -1


FUNCTIONS = {
    "isSorted": lambda items: all(a <= b for a, b in zip(items, items[1:], strict=False)),
    "sum": lambda items: sum(items),
    "min": _min,
    "max": _max,
    "indexOf": _index_of,
    "lastIndexOf": _last_index_of,
}
