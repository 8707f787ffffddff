"""The entry point of pattern checking: a pattern met a second time (a policy's, checked for every
resource) is compiled into closures (:mod:`.compiled`) and checked by them from then on; one met
once (substituted for one resource) is walked as it is (:mod:`.match`)."""

from __future__ import annotations

from typing import Any

from ciso.engines.kyverno import budget
from ciso.engines.kyverno.pattern import compiled
from ciso.engines.kyverno.pattern.match import Mismatch, PatternSyntaxError, walk

__all__ = ["Mismatch", "PatternSyntaxError", "validate"]

#: per pattern (by id, with the pattern itself to check the id was not reused): None once seen,
#: then its compiled check
_COMPILED: dict[int, tuple[Any, Any]] = {}


def validate(resource: Any, pattern: Any, path: str = "/", depth: int = 0) -> None:
    """Raise :class:`Mismatch` when the resource does not satisfy the pattern. A pattern met a
    second time (a policy's, checked for every resource) is compiled into closures and checked
    by them from then on; one met once (substituted for one resource) is walked."""
    budget.tick()
    entry = _COMPILED.get(id(pattern))
    if entry is not None and entry[0] is pattern:
        check = entry[1]
        if check is None:
            check = compiled.compile_pattern(pattern)
            _COMPILED[id(pattern)] = (pattern, check)
        check(resource, path, depth)
        return
    if isinstance(pattern, dict | list):
        if len(_COMPILED) > 20_000:  # bounded for long-lived processes (the cluster's hook)
            _COMPILED.clear()
        _COMPILED[id(pattern)] = (pattern, None)
    walk(resource, pattern, path, depth)
