"""Kyverno's generator library: ``generator.Apply(namespace, objects)``, which a
GeneratingPolicy calls to create objects. Run as the Kyverno CLI runs it, nothing is created:
each object (each item of a ``...List``) is recorded in the namespace given, with the fields a
server would own (uid, resourceVersion, creationTimestamp, managedFields) and its annotations
dropped; the call's value is true (so it can sit in ``list.all(ns, generator.Apply(ns, ...))``).

The objects go to the collector ``collecting`` sets for one policy's evaluation (a context
variable, as the environment is); a call outside one is an error."""

from __future__ import annotations

import contextlib
import contextvars
import copy
from collections.abc import Iterator
from typing import Any

from ciso.engines.kyverno.cel.syntax import namespaced

_SERVER_OWNED = ("uid", "resourceVersion", "creationTimestamp", "managedFields", "annotations")

_COLLECTED: contextvars.ContextVar[list[dict[str, Any]] | None] = contextvars.ContextVar(
    "kyverno_cel_generated", default=None
)


@contextlib.contextmanager
def collecting() -> Iterator[list[dict[str, Any]]]:
    """The objects ``generator.Apply`` records while the block runs."""
    made: list[dict[str, Any]] = []
    token = _COLLECTED.set(made)
    try:
        yield made
    finally:
        _COLLECTED.reset(token)


def _items(data: Any) -> list[Any]:
    kind = data.get("kind") if isinstance(data, dict) else None
    if isinstance(kind, str) and kind.endswith("List") and isinstance(data.get("items"), list):
        return list(data["items"])
    return [data]


def _as_generated(item: Any, namespace: str) -> dict[str, Any]:
    if not isinstance(item, dict) or not item.get("kind") or not item.get("apiVersion"):
        raise ValueError(f"generator.Apply needs objects with apiVersion and kind, got {item!r}")
    made = copy.deepcopy(item)
    meta = made.get("metadata")
    meta = dict(meta) if isinstance(meta, dict) else {}
    for key in _SERVER_OWNED:
        meta.pop(key, None)
    if namespace:
        meta["namespace"] = namespace
    else:
        meta.pop("namespace", None)
    made["metadata"] = meta
    return made


def apply(namespace: Any, objects: Any) -> bool:
    made = _COLLECTED.get()
    if made is None:
        raise ValueError("generator.Apply is only available in a GeneratingPolicy")
    if not isinstance(namespace, str):
        raise ValueError(f"generator.Apply needs a namespace string, got {namespace!r}")
    if not isinstance(objects, list):
        raise ValueError(f"generator.Apply needs a list of objects, got {objects!r}")
    for data in objects:
        made.extend(_as_generated(item, namespace) for item in _items(data))
    return True


FUNCTIONS = {namespaced("generator", "Apply"): apply, namespaced("generator", "apply"): apply}
