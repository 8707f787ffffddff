"""The CEL function libraries Kubernetes and Kyverno add to CEL's standard library, one module
per library; ``FUNCTIONS`` is every one of them, each guarded by the evaluation deadline.

Kubernetes': optional types, strings, lists, regex, quantity, sets, url, ip, cidr, format.
Kyverno's: resource, image (data), image verification (unsupported offline), http,
globalContext, time, user, generator; they answer from the ``environment`` a run sets
(offline: the test's context file, resources and mocked answers)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ciso.engines.kyverno.cel.libraries import (
    cidr,
    conversions,
    format,
    generator,
    globalcontext,
    http,
    image,
    imageverify,
    ip,
    lists,
    optional,
    quantity,
    regex,
    resource,
    sets,
    strings,
    time,
    url,
    user,
)
from ciso.engines.kyverno.cel.limits import guarded

LIBRARIES = (
    optional,
    strings,
    lists,
    regex,
    quantity,
    sets,
    url,
    ip,
    cidr,
    format,
    conversions,
    resource,
    image,
    imageverify,
    http,
    globalcontext,
    time,
    user,
    generator,
)
FUNCTIONS: dict[str, Callable[..., Any]] = {
    name: guarded(fn) for library in LIBRARIES for name, fn in library.FUNCTIONS.items()
}
