"""The ``isX(string)`` predicates of Kubernetes' libraries (``isIP``, ``isCIDR``, ``isURL``):
whether a string parses as the library's ``X(string)`` would take it; any other argument type
is CEL's "no such overload"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def parses(parse: Callable[[str], Any]) -> Callable[[Any], bool]:
    def predicate(text: Any) -> bool:
        if not isinstance(text, str):
            raise ValueError("no such overload")
        try:
            parse(text)
        except ValueError:
            return False
        return True

    return predicate
