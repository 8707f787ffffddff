"""A MutatingPolicy's ``ApplyConfiguration`` patch merged into the object as server-side apply
merges it (structured-merge-diff): maps merge key by key; a list the schema declares a map
(``x-kubernetes-list-type: map``) merges element by element on its keys, the object's elements
first, in order, then the new ones; a set list (``finalizers``) is a union; any other list is
atomic and the patch's list replaces it.

Offline there is no OpenAPI schema, so the associative lists are those of the built-in kinds
(pod spec, containers, services, metadata), found by field name; a kind the offline cluster does
not know (a custom resource) has a deduced schema, where every list is atomic, as Kubernetes
deduces it for a type without a schema.
"""

from __future__ import annotations

import copy
from typing import Any

from itbench.cluster.resources import default_registry

#: field name -> the keys of its elements, for the built-in kinds' list-type map fields
LIST_MAP_KEYS: dict[str, tuple[str, ...]] = {
    "containers": ("name",),
    "initContainers": ("name",),
    "ephemeralContainers": ("name",),
    "volumes": ("name",),
    "env": ("name",),
    "volumeMounts": ("mountPath",),
    "volumeDevices": ("devicePath",),
    "imagePullSecrets": ("name",),
    "hostAliases": ("ip",),
    "resourceClaims": ("name",),
    "schedulingGates": ("name",),
    "topologySpreadConstraints": ("topologyKey", "whenUnsatisfiable"),
    "ownerReferences": ("uid",),
}
#: a container's ports and a Service's ports: keyed on the port and its protocol
PORT_KEYS = {"containerPort": ("containerPort", "protocol"), "port": ("port", "protocol")}
SET_LISTS = frozenset(("finalizers",))
#: key fields Kubernetes defaults, so that an element that leaves one out still matches
KEY_DEFAULTS = {"protocol": "TCP"}


def _keys_of(field: str, elements: list[Any]) -> tuple[str, ...] | None:
    if field in LIST_MAP_KEYS:
        return LIST_MAP_KEYS[field]
    if field == "ports":
        for first_key, keys in PORT_KEYS.items():
            if any(isinstance(e, dict) and first_key in e for e in elements):
                return keys
    return None


def _identity(element: Any, keys: tuple[str, ...]) -> tuple[Any, ...] | None:
    if not isinstance(element, dict):
        return None
    return tuple(element.get(k, KEY_DEFAULTS.get(k)) for k in keys)


def _merge_map_list(live: list[Any], patch: list[Any], keys: tuple[str, ...], typed: bool) -> list:
    merged = [copy.deepcopy(e) for e in live]
    positions = {_identity(e, keys): i for i, e in enumerate(merged)}
    for element in patch:
        identity = _identity(element, keys)
        if identity is not None and identity in positions:
            index = positions[identity]
            merged[index] = merge(merged[index], element, typed=typed)
        else:
            positions[identity] = len(merged)
            merged.append(copy.deepcopy(element))
    return merged


def merge(live: Any, patch: Any, field: str = "", *, typed: bool = True) -> Any:
    """``live`` with ``patch`` applied; neither is modified. ``typed``: the object is of a
    built-in kind, whose associative lists are known."""
    if isinstance(live, dict) and isinstance(patch, dict):
        out = copy.deepcopy(live)
        for key, value in patch.items():
            out[key] = merge(live[key], value, key, typed=typed) if key in live else value
        return out
    if typed and isinstance(live, list) and isinstance(patch, list):
        if field in SET_LISTS:
            return list(live) + [v for v in patch if v not in live]
        keys = _keys_of(field, live + patch)
        if keys is not None:
            return _merge_map_list(live, patch, keys, typed)
    return copy.deepcopy(patch)


def apply(resource: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """``resource`` after the apply configuration ``patch``."""
    typed = default_registry().by_kind(str(resource.get("kind", ""))) is not None
    return merge(resource, patch, typed=typed)
