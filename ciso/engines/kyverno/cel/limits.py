"""What keeps a hostile CEL expression from hanging a run.

The Rust evaluator cannot be interrupted, so two limits work together, as Kubernetes' static and
runtime cost limits do:

- before evaluating, the *estimated cost*: how many elements one comprehension can range over,
  raised to the depth at which iterating macros nest. Kubernetes bounds a collection by its
  schema (maxItems, or the request size); we know the object, so we bound it by what is actually
  there: the largest collection in the input or the elements of all the source's literals
  together, whichever is larger, times one more than the list concatenations in the source (a
  comprehension's own result is no longer than what it ranges over). An expression over the limit
  is an error without being run;
- while evaluating, a *deadline*: every library function (the optional selection ``.?`` among
  them, so nearly every expression calls one) checks it and raises once it has passed.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

from ciso.engines.kyverno import growth
from ciso.engines.kyverno.cel.syntax import CostShape

#: Kubernetes' per-expression cost limit is 1e6 units on typed bounds; ours is on actual sizes.
#: The evaluator cannot be interrupted inside a comprehension that calls no library function, so
#: the limit is what it runs well within the time limit: 1e6 of the cheapest iterations
#: (``l.all(a, l.all(b, a != b || true))``) took 0.23 s here
COST_LIMIT = 2_000_000
#: wall-clock time one expression may take
TIME_LIMIT_SECONDS = 1.0


class CelLimitExceeded(RuntimeError):
    """An expression went over its cost estimate or its time."""


_deadline = [float("inf")]


def start(seconds: float = TIME_LIMIT_SECONDS) -> None:
    _deadline[0] = time.monotonic() + seconds


def stop() -> None:
    _deadline[0] = float("inf")


def check() -> None:
    if time.monotonic() > _deadline[0]:
        raise CelLimitExceeded(f"CEL evaluation exceeded its time limit ({TIME_LIMIT_SECONDS}s)")


def guarded(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``fn`` checking the deadline first and the length of what it returns after (a function
    that can grow its result checks before building it too: see ``growth``)."""

    @functools.wraps(fn)
    def wrapper(*args: Any) -> Any:
        check()
        return growth.bounded(name, fn(*args))

    return wrapper


def largest_collection(value: Any, depth: int = 0, *, strings: bool = False) -> int:
    """The size of the largest list or map anywhere in ``value`` (or string, with ``strings``:
    for an expression that splits strings into lists)."""
    if depth > 64:
        return 0
    if isinstance(value, dict):
        inner = (largest_collection(v, depth + 1, strings=strings) for v in value.values())
        return max(len(value), *inner) if value else 0
    if isinstance(value, (list, tuple)):
        inner = (largest_collection(v, depth + 1, strings=strings) for v in value)
        return max(len(value), *inner) if value else 0
    if strings and isinstance(value, (str, bytes)):
        return len(value)
    return 0


#: largest_collection of the bindings' values by identity (each value kept alive beside its
#: size, so an id is never reused while cached): one resource is bound once per policy, and
#: walking it again for every policy cost as much as evaluating the policy. Inputs are not
#: changed while policies are applied; a stale size could only move the cost estimate, and the
#: deadline of every library call still holds.
_SIZES: dict[int, tuple[Any, int]] = {}


def largest_binding(bindings: dict[str, Any], depth: int = 0) -> int:
    """``largest_collection`` over the values of ``bindings``, each value's size remembered;
    a map built per request (``request``, which holds the object again) is opened one level so
    the object inside it is found in the cache."""
    largest = 0
    for value in bindings.values():
        if not isinstance(value, (dict, list)):
            continue
        cached = _SIZES.get(id(value))
        if cached is not None and cached[0] is value:
            largest = max(largest, cached[1])
        elif depth == 0 and isinstance(value, dict):
            largest = max(largest, len(value), largest_binding(value, depth + 1))
        else:
            if len(_SIZES) > 8192:
                _SIZES.clear()
            _SIZES[id(value)] = (value, largest_collection(value))
            largest = max(largest, _SIZES[id(value)][1])
    return largest


def iteration_bound(largest: int, shape: CostShape) -> int:
    """How many elements one comprehension may range over: the input's largest collection or
    all the source's literal elements, times the terms a list concatenation can join."""
    return max(largest, shape.literal_elements, 1) * (shape.concatenations + 1)


def estimated_cost(largest: int, shape: CostShape) -> int:
    return iteration_bound(largest, shape) ** shape.depth if shape.depth else 0
