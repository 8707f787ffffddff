"""The entry point of pattern checking: each pattern is compiled (:mod:`.compiled`) and its check
kept while the pattern lives. Met the first time it is compiled lazily (a pattern substituted for
one resource is never met again); met a second time (a policy's pattern, checked for every
resource) it is compiled whole, once."""

from __future__ import annotations

from typing import Any

from ciso.engines.kyverno import budget
from ciso.engines.kyverno.pattern.compiled import Check, compile_pattern
from ciso.engines.kyverno.pattern.errors import Mismatch, PatternSyntaxError

__all__ = ["Mismatch", "PatternSyntaxError", "validate"]

#: per pattern (by id, with the pattern itself to check the id was not reused): its check, None
#: while it was met once
_COMPILED: dict[int, tuple[Any, Check | None]] = {}
#: bounded for long-lived processes (the cluster's hook compiles patterns substituted per resource)
_KEEP = 20_000


def validate(resource: Any, pattern: Any, path: str = "/", depth: int = 0) -> None:
    """Raise :class:`Mismatch` when the resource does not satisfy the pattern."""
    budget.tick()
    entry = _COMPILED.get(id(pattern))
    if entry is not None and entry[0] is pattern:
        check = entry[1]
        if check is None:
            check = compile_pattern(pattern)
            _COMPILED[id(pattern)] = (pattern, check)
    else:
        check = compile_pattern(pattern, lazy=True)
        if isinstance(pattern, dict | list):  # a scalar pattern is checked as cheaply as made
            if len(_COMPILED) >= _KEEP:
                _COMPILED.clear()
            _COMPILED[id(pattern)] = (pattern, None)
    check(resource, path, depth)
