"""Anchors in a ``patchStrategicMerge`` overlay, resolved against the resource before merging,
as Kyverno's strategic preprocessing does it:

- ``+(key)`` add-if-not-present: dropped where the resource has the key, else made plain;
- ``(key)`` conditions and ``<(key)`` global conditions: checked against the resource with the
  validate pattern semantics. In a map, a failed condition drops the whole overlay (the rule
  does nothing); in a list of maps, an element applies to each resource element whose conditions
  hold, copied with that element's ``name`` so the merge can find it. A failed global condition
  drops the overlay unless some element passed it;
- afterwards every conditional key, and every element that held only anchors, is removed.
"""

from __future__ import annotations

import copy
from typing import Any

from ciso.engines.kyverno.pattern import anchors
from ciso.engines.kyverno.pattern.check import Mismatch, validate

_CONDITIONAL = (
    anchors.CONDITION,
    anchors.EQUALITY,
    anchors.EXISTENCE,
    anchors.NEGATION,
    anchors.GLOBAL,
)


class ConditionFailed(Exception):
    """A ``(key)`` condition did not hold."""


class GlobalConditionFailed(Exception):
    """A ``<(key)`` condition did not hold."""


def _kind(key: Any) -> str | None:
    parsed = anchors.parse(key) if isinstance(key, str) else None
    return parsed.kind if parsed else None


def _conditional(key: Any) -> bool:
    return _kind(key) in _CONDITIONAL


def _any_anchor(key: Any) -> bool:
    return _conditional(key) or _kind(key) == anchors.ADD


def _rename(mapping: dict[str, Any], old: str, new: str) -> None:
    """Rename a key in place, keeping its position (the merge keeps the overlay's order)."""
    items = [(new if k == old else k, v) for k, v in mapping.items()]
    mapping.clear()
    mapping.update(items)


def _field(resource: Any, key: str) -> Any:
    return resource.get(key) if isinstance(resource, dict) else None


def _has(resource: Any, key: str) -> bool:
    return isinstance(resource, dict) and key in resource


def _add_if_not_present(pattern: Any, resource: Any) -> int:
    if not isinstance(pattern, dict):
        return 0
    found = [k for k in pattern if _kind(k) == anchors.ADD]
    for raw in found:
        key = anchors.parse(raw).key  # type: ignore[union-attr]  # raw was selected above as an add anchor, so it parses
        if _has(resource, key):
            del pattern[raw]
        else:
            _rename(pattern, raw, key)
    return len(found)


def _check_conditions(pattern: dict[str, Any], resource: Any, kinds: tuple[str, ...]) -> None:
    for raw in [k for k in pattern if _kind(k) in kinds]:
        key = anchors.parse(raw).key  # type: ignore[union-attr]  # raw was selected above as an anchor, so it parses
        if not _has(resource, key):
            raise Mismatch("/", f'could not found "{key}" key in the resource')
        if _add_if_not_present(pattern[raw], resource[key]) > 0:
            continue
        validate(resource[key], pattern[raw])


def _validate_conditions(pattern: dict[str, Any], resource: Any) -> None:
    try:
        _check_conditions(pattern, resource, (anchors.GLOBAL,))
    except Mismatch as exc:
        raise GlobalConditionFailed(exc.message) from None
    try:
        _check_conditions(pattern, resource, (anchors.CONDITION,))
    except Mismatch as exc:
        raise ConditionFailed(exc.message) from None


def _walk(pattern: Any, resource: Any) -> None:
    if isinstance(pattern, dict):
        _walk_map(pattern, resource)
    elif isinstance(pattern, list) and pattern and isinstance(pattern[0], dict):
        _walk_list_of_maps(pattern, resource)


def _walk_map(pattern: dict[str, Any], resource: Any) -> None:
    _add_if_not_present(pattern, resource)
    _validate_conditions(pattern, resource)
    for key in [k for k in pattern if not _any_anchor(k)]:
        _walk(pattern[key], _field(resource, key))


def has_anchors(value: Any, wanted: Any = _any_anchor) -> bool:
    if isinstance(value, dict):
        return any(
            wanted(k) or (v not in (None, {}, [], "") and has_anchors(v, wanted))
            for k, v in value.items()
        )
    if isinstance(value, list):
        return any(has_anchors(v, wanted) for v in value)
    return isinstance(value, str) and _conditional(value)


def _walk_list_of_maps(pattern: list[Any], resource: Any) -> None:
    elements = resource if isinstance(resource, list) else []
    for element in list(pattern):  # elements appended below are not walked again
        if not has_anchors(element):
            continue
        is_global = has_anchors(element, lambda k: _kind(k) == anchors.GLOBAL)
        global_passed, global_error = False, None
        # one copy serves every resource element, as in Kyverno: an add-if-not-present key made
        # plain for one element stays plain for the next
        working = copy.deepcopy(element)
        for target in elements:
            try:
                _walk(working, target)
            except ConditionFailed:
                continue
            except GlobalConditionFailed as exc:
                global_error = exc
                continue
            if is_global:
                global_passed = True
            else:
                _append_named(pattern, working, target)
        if resource is None:
            try:
                _walk(working, None)
            except ConditionFailed:
                continue
            if is_global:
                global_passed = True
        if not global_passed and global_error is not None:
            raise global_error


def _append_named(pattern: list[Any], element: dict[str, Any], target: Any) -> None:
    """The overlay element, anchors removed, for one matching resource element by its name."""
    name = _field(target, "name")
    if name in (None, ""):
        return  # without a name the merge could not find the element
    named = copy.deepcopy(element)
    if remove_anchors(named, delete_scalar=True):
        return
    named["name"] = name
    pattern.append(named)


def remove_anchors(node: Any, delete_scalar: bool, traverse: bool = False) -> bool:
    """Strip conditional anchors; True when ``node`` held nothing else and must go."""
    if isinstance(node, dict):
        return _remove_in_map(node, traverse)
    if isinstance(node, list):
        return _remove_in_list(node, traverse)
    return delete_scalar


def _remove_in_map(node: dict[str, Any], traverse: bool) -> bool:
    kept_anchor = False
    for raw in [k for k in node if _conditional(k)]:
        if remove_anchors(node[raw], True, traverse):
            del node[raw]
        else:
            kept_anchor = True
    if kept_anchor:
        for raw in [k for k in node if _conditional(k)]:
            _rename(node, raw, anchors.parse(raw).key)  # type: ignore[union-attr]  # raw was selected above as an anchor, so it parses
    delete = True
    for key in list(node):
        if remove_anchors(node[key], False, traverse):
            del node[key]
        else:
            delete = False
    return delete


def _remove_in_list(node: list[Any], traverse: bool) -> bool:
    was_empty = not node
    kept = []
    for element in node:
        if has_anchors(element):
            drop = (
                remove_anchors(element, True, traverse)
                if traverse and isinstance(element, dict)
                else True
            )
        else:
            drop = remove_anchors(element, False, traverse)
        if not drop:
            kept.append(element)
    node[:] = kept
    return not node and not was_empty


def resolve(overlay: dict[str, Any], resource: Any) -> dict[str, Any]:
    """The overlay to merge: anchors resolved against ``resource``; {} when a condition of the
    overlay's own map failed (the rule then changes nothing)."""
    pattern = copy.deepcopy(overlay)
    try:
        _walk(pattern, resource)
    except (ConditionFailed, GlobalConditionFailed):
        return {}
    for key in list(pattern):
        if remove_anchors(pattern[key], _conditional(key)):
            del pattern[key]
    return pattern
