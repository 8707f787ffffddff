"""What Kyverno's own libraries answer from, offline: the Kyverno CLI's test ``context`` file
(resources for ``resource.Get``/``List``, image data for ``image.GetMetadata``), the test's
resources (as a cluster would hold them), global context entries and mocked HTTP answers.

One evaluation sees one environment: ``using`` sets it for the duration of a policy's
evaluation (a context variable, so nested or concurrent runs do not see each other's)."""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Environment:
    #: objects a cluster would hold: the context file's resources, then the test's
    objects: tuple[dict[str, Any], ...] = ()
    #: image reference -> its data (``image``, ``registry``, ``config``, ``manifest``, ...)
    images: Mapping[str, dict[str, Any]] = field(default_factory=dict)
    #: global context entry name -> its data
    global_context: Mapping[str, Any] = field(default_factory=dict)
    #: ``METHOD:url`` or ``url`` -> (status code, body)
    http: Mapping[str, tuple[int, Any]] = field(default_factory=dict)


_EMPTY = Environment()
_CURRENT: contextvars.ContextVar[Environment | None] = contextvars.ContextVar(
    "kyverno_cel_environment", default=None
)


def current() -> Environment:
    """The environment set by ``using``; outside one, an empty one (every lookup fails)."""
    return _CURRENT.get() or _EMPTY


@contextlib.contextmanager
def using(environment: Environment) -> Iterator[None]:
    token = _CURRENT.set(environment)
    try:
        yield
    finally:
        _CURRENT.reset(token)
