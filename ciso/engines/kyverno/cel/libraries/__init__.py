"""The CEL function libraries Kubernetes and Kyverno add to CEL's standard library, one module
per library; ``FUNCTIONS`` is every one of them, each guarded by the evaluation deadline.

Kubernetes': optional types, strings, lists, regex, quantity, sets, url, ip, cidr, format,
semver; cel-go's extensions Kyverno adds: math, encoders (and those in strings and lists).
Kyverno's: resource, image (data), image verification (unsupported offline), http,
globalContext, time, user, generator; they answer from the ``environment`` a run sets
(offline: the test's context file, resources and mocked answers)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ciso.engines.kyverno.cel.libraries import (
    cidr,
    conversions,
    encoders,
    format,
    generator,
    globalcontext,
    http,
    image,
    imageverify,
    ip,
    lists,
    math,
    optional,
    quantity,
    regex,
    resource,
    semver,
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
    semver,  # after quantity: its compareTo/isLessThan/isGreaterThan hand quantities on to it
    math,
    encoders,
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
    name: guarded(fn, name) for library in LIBRARIES for name, fn in library.FUNCTIONS.items()
}
