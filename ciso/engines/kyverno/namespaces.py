"""The labels of each namespace, which ``namespaceSelector`` filters are decided on.

Kyverno's background scan reads them from the cluster's Namespace objects; its CLI reads them
from a values file's ``namespaceSelector`` (name and labels) and ``namespaces`` (Namespace
objects, which win over the former), or from the cluster with ``--cluster``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

#: the label the API server puts on every Namespace (Kubernetes 1.22 and later), so a selector
#: on it names namespaces
NAME_LABEL = "kubernetes.io/metadata.name"


def _labels(value: Any) -> dict[str, str]:
    if not isinstance(value, Mapping):
        return {}
    return {str(k): str(v) for k, v in value.items()}


def is_namespace(obj: Mapping[str, Any]) -> bool:
    """A core ``v1`` Namespace (a custom kind named Namespace is not one)."""
    return obj.get("kind") == "Namespace" and obj.get("apiVersion") in ("v1", None)


def from_objects(objects: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, str]]:
    """Namespace name -> its labels, as the API server stores them (with ``NAME_LABEL``)."""
    found: dict[str, dict[str, str]] = {}
    for obj in objects:
        if not isinstance(obj, Mapping) or not is_namespace(obj):
            continue
        meta = obj.get("metadata")
        if not isinstance(meta, Mapping) or not meta.get("name"):
            continue
        name = str(meta["name"])
        found[name] = {**_labels(meta.get("labels")), NAME_LABEL: name}
    return found


def from_values(data: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """A Kyverno CLI values file's namespace labels: ``namespaceSelector`` entries (``name``,
    ``labels``), overridden by ``namespaces`` (Namespace objects), as the CLI reads them."""
    found: dict[str, dict[str, str]] = {}
    for entry in data.get("namespaceSelector") or []:
        if isinstance(entry, Mapping):
            found[str(entry.get("name", ""))] = _labels(entry.get("labels"))
    for namespace in data.get("namespaces") or []:
        meta = namespace.get("metadata") if isinstance(namespace, Mapping) else None
        if isinstance(meta, Mapping):
            found[str(meta.get("name", ""))] = _labels(meta.get("labels"))
    return found
