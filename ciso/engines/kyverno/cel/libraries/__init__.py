"""The CEL function libraries Kubernetes and Kyverno add to CEL's standard library, one module
per library; ``FUNCTIONS`` is every one of them, each guarded by the evaluation deadline."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ciso.engines.kyverno.cel.libraries import lists, optional, quantity, regex, strings
from ciso.engines.kyverno.cel.limits import guarded

LIBRARIES = (optional, strings, lists, regex, quantity)
FUNCTIONS: dict[str, Callable[..., Any]] = {
    name: guarded(fn) for library in LIBRARIES for name, fn in library.FUNCTIONS.items()
}
