"""Merge a (preprocessed) ``patchStrategicMerge`` overlay into a resource, as the kustomize
strategic-merge filter Kyverno uses does it:

- maps merge key by key; ``null`` deletes a key; ``$patch: delete`` deletes the map and
  ``$patch: replace`` replaces it;
- a list of maps is associative when its elements carry one of kustomize's associative keys
  (``mountPath``, ``devicePath``, ``ip``, ``type``, ``topologyKey``, ``name``, ``containerPort``):
  elements merge with the resource element of the same key (the Kubernetes merge key where the
  API defines one, e.g. ``port`` for Service ports), new ones come first (kustomize prepends, as
  Kyverno configures it), ``$patch: delete`` removes one; any other list is replaced whole,
  except ``finalizers`` (a set: union, new values first);
- scalars replace.
"""

from __future__ import annotations

import copy
from typing import Any

ASSOCIATIVE_KEYS = ("mountPath", "devicePath", "ip", "type", "topologyKey", "name", "containerPort")
# Kubernetes patch merge keys that differ from what the element's own keys would suggest
MERGE_KEYS = {
    "volumeMounts": "mountPath",
    "volumeDevices": "devicePath",
    "hostAliases": "ip",
    "topologySpreadConstraints": "topologyKey",
    "ownerReferences": "uid",
}
SET_LISTS = ("finalizers",)
DIRECTIVE = "$patch"


def _merge_key(field: str, elements: list[Any]) -> str | None:
    first = next((e for e in elements if isinstance(e, dict)), None)
    if first is None:
        return None
    if field == "ports":  # container ports by containerPort, Service ports by port
        if "containerPort" in first:
            return "containerPort"
        if "port" in first:
            return "port"
    if field in MERGE_KEYS and MERGE_KEYS[field] in first:
        return MERGE_KEYS[field]
    return next((k for k in ASSOCIATIVE_KEYS if k in first), None)


def merge(target: Any, overlay: Any, field: str = "") -> Any:
    """The merged value (``target`` is not modified)."""
    if isinstance(overlay, dict):
        directive = overlay.get(DIRECTIVE)
        if directive == "replace":
            return _clean({k: v for k, v in overlay.items() if k != DIRECTIVE})
        base = copy.deepcopy(target) if isinstance(target, dict) else {}
        for key, value in overlay.items():
            if key == DIRECTIVE:
                continue
            if value is None or isinstance(value, dict) and value.get(DIRECTIVE) == "delete":
                base.pop(key, None)
            else:
                base[key] = merge(base.get(key), value, key)
        return base
    if isinstance(overlay, list):
        if field in SET_LISTS and isinstance(target, list):
            return [v for v in overlay if v not in target] + list(target)
        elements = (target if isinstance(target, list) else []) + overlay
        key = _merge_key(field, elements) if all(isinstance(e, dict) for e in elements) else None
        if key is None or not isinstance(target, list):
            return [_clean(v) for v in overlay]
        return _merge_list(target, overlay, key, field)
    return copy.deepcopy(overlay)


def _merge_list(target: list[Any], overlay: list[Any], key: str, field: str) -> list[Any]:
    merged = [copy.deepcopy(e) for e in target]
    added: list[Any] = []
    for element in overlay:
        wanted = element.get(key, _ABSENT)
        index = next(
            (i for i, e in enumerate(merged) if wanted is not _ABSENT and e.get(key) == wanted),
            None,
        )
        if element.get(DIRECTIVE) == "delete":
            if index is not None:
                del merged[index]
            continue
        if index is None:
            added.append(_clean(element))
        else:
            merged[index] = merge(merged[index], element, field)
    # kustomize's strategic merge (as Kyverno configures it) prepends new elements
    return added + merged


_ABSENT = object()


def _clean(value: Any) -> Any:
    """A new subtree: nulls and directives have nothing to act on, so they go."""
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items() if v is not None and k != DIRECTIVE}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value
