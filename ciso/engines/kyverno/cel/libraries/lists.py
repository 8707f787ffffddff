"""Kubernetes' list library: ``isSorted``, ``sum``, ``min``, ``max``, ``indexOf``,
``lastIndexOf``; and cel-go's lists extension (below)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import cel

from ciso.engines.kyverno import growth
from ciso.engines.kyverno.cel.libraries import strings
from ciso.engines.kyverno.cel.syntax import SORT_BY_KEY, namespaced

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


# cel-go's lists extension (``ext.Lists`` version 3, as Kyverno enables it): slice, flatten,
# distinct, reverse, sort, sortBy (a macro: ``syntax.rewrite_sort_by`` turns it into a ``map``
# to (element, key) pairs and ``_sort_by_key``), ``lists.range``; and ``first``/``last`` of
# cel-go's optional library (version 2), which return optionals.


def _list(value: Any, function: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"no such overload: {function} expects a list, got {type(value).__name__}")
    return value


def _slice(items: list[Any], start: int, end: int) -> list[Any]:
    items = _list(items, "slice")
    if start < 0 or end < 0:
        raise ValueError(f"cannot slice({start}, {end}), negative indexes not supported")
    if start > end:
        raise ValueError(
            f"cannot slice({start}, {end}), start index must be less than or equal to end index"
        )
    if len(items) < end:
        raise ValueError(f"cannot slice({start}, {end}), list is length {len(items)}")
    return items[start:end]


def _flatten(items: list[Any], depth: int = 1) -> list[Any]:
    items = _list(items, "flatten")
    if depth < 0:
        raise ValueError("level must be non-negative")
    out: list[Any] = []
    for item in items:
        if isinstance(item, list) and depth > 0:
            out.extend(_flatten(item, depth - 1))
        else:
            out.append(item)
    return out


def cel_equal(a: Any, b: Any) -> bool:
    """CEL's ``==`` on the values the evaluator hands over: numbers compare across int, uint
    and double, but a bool is no number (Python's ``True == 1`` is not CEL's)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(cel_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return len(a) == len(b) and all(k in b and cel_equal(v, b[k]) for k, v in a.items())
    if type(a) is not type(b) and not (a is None or b is None):
        return False
    return bool(a == b)


def _distinct(items: list[Any]) -> list[Any]:
    out: list[Any] = []
    for item in _list(items, "distinct"):
        if not any(cel_equal(item, seen) for seen in out):
            out.append(item)
    return out


def _reverse(items: list[Any]) -> list[Any]:
    return _list(items, "reverse")[::-1]


def _kind(value: Any) -> str | None:
    """The CEL type by which ``sort`` orders a value; None when it has no order. An int and a
    uint are one kind here: the evaluator does not tell a small uint from an int."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        if value != value:
            raise ValueError("NaN values cannot be ordered")
        return "double"
    for python, name in ((str, "string"), (bytes, "bytes"), (timedelta, "duration")):
        if isinstance(value, python):
            return name
    return "timestamp" if isinstance(value, datetime) else None


def _sorted_by(items: list[Any], keys: list[Any]) -> list[Any]:
    if not items:
        return items
    kinds = {_kind(key) for key in keys}
    if None in kinds:
        raise ValueError("list elements must be comparable")
    if len(kinds) > 1:
        raise ValueError("list elements must have the same type")
    order = sorted(range(len(items)), key=keys.__getitem__)
    return [items[i] for i in order]


def _sort(items: list[Any]) -> list[Any]:
    items = _list(items, "sort")
    return _sorted_by(items, items)


def _sort_by_key(pairs: list[Any]) -> list[Any]:
    """``list.sortBy(e, key)`` after ``rewrite_sort_by``: ``pairs`` is ``[[e, key], ...]``."""
    pairs = _list(pairs, "sortBy")
    return _sorted_by([p[0] for p in pairs], [p[1] for p in pairs])


def _range(n: int) -> list[int]:
    if not isinstance(n, int) or isinstance(n, bool):
        raise ValueError(f"no such overload: lists.range({type(n).__name__})")
    growth.check("lists.range", n)
    return list(range(n))


def _first(items: list[Any]) -> Any:
    items = _list(items, "first")
    return cel.OptionalValue.of(items[0]) if items else cel.OptionalValue.none()


def _last(items: list[Any]) -> Any:
    items = _list(items, "last")
    return cel.OptionalValue.of(items[-1]) if items else cel.OptionalValue.none()


FUNCTIONS.update(
    {
        "slice": _slice,
        "flatten": _flatten,
        "distinct": _distinct,
        "reverse": _reverse,
        "sort": _sort,
        SORT_BY_KEY: _sort_by_key,
        namespaced("lists", "range"): _range,
        "first": _first,
        "last": _last,
    }
)
