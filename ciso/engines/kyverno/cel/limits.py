"""What keeps a hostile CEL expression from hanging a run.

The Rust evaluator cannot be interrupted, so two limits work together, as Kubernetes' static and
runtime cost limits do:

- before evaluating, the *estimated cost*: the largest collection in the input (or the source's
  length, which bounds any list literal) raised to the depth at which iterating macros nest. An
  expression over the limit is an error without being run;
- while evaluating, a *deadline*: every library function (the optional selection ``.?`` among
  them, so nearly every expression calls one) checks it and raises once it has passed.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

#: Kubernetes' per-expression cost limit is 1e6 units on typed bounds; ours is on actual sizes
COST_LIMIT = 10_000_000
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


def guarded(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any) -> Any:
        check()
        return fn(*args)

    return wrapper


def largest_collection(value: Any, depth: int = 0) -> int:
    """The size of the largest list or map anywhere in ``value``."""
    if depth > 64:
        return 0
    if isinstance(value, dict):
        inner = (largest_collection(v, depth + 1) for v in value.values())
        return max(len(value), *inner) if value else 0
    if isinstance(value, (list, tuple)):
        inner = (largest_collection(v, depth + 1) for v in value)
        return max(len(value), *inner) if value else 0
    return 0


def iteration_bound(largest: int, source_length: int) -> int:
    """How many elements one comprehension may iterate: the input's largest collection, or a
    list literal in the source (each element takes at least two characters)."""
    return max(largest, source_length // 2, 1)
