"""Walk a resource against a ``validate.pattern`` tree, as Kyverno's validator does.

Anchors are evaluated before plain keys. A failed conditional (or global) anchor does not fail the
rule: in a list it skips that element, at the top it skips the rule. A negation anchor that finds
its key fails. Errors carry the path where they happened.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from ciso.engines.kyverno import budget, wildcard
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.pattern import anchors
from ciso.engines.kyverno.pattern.values import value_matches

MAX_DEPTH = 200


@dataclass
class Mismatch(Exception):
    """Why and where the pattern did not hold; ``kind`` is fail, condition, global or negation."""

    path: str
    message: str
    kind: str = "fail"
    #: raised by a conditional or global anchor of the map being walked (not passed up from a
    #: deeper map): such a failure makes Kyverno ignore its siblings' failures
    direct: bool = False

    @property
    def skip(self) -> bool:
        return self.kind in ("condition", "global")


class PatternSyntaxError(RuleError):
    """The pattern itself is malformed (e.g. an existence anchor on a non-list)."""


def walk(resource: Any, pattern: Any, path: str = "/", depth: int = 0) -> None:
    """``validate`` by walking the pattern as it is."""
    budget.tick()
    if depth > MAX_DEPTH:
        raise PatternSyntaxError(f"pattern nested deeper than {MAX_DEPTH} levels at {path}")
    if isinstance(pattern, dict):
        if not isinstance(resource, dict):
            raise Mismatch(
                path, f"pattern and resource have different structures at {path}: expected a map"
            )
        _validate_map(resource, pattern, path, depth)
    elif isinstance(pattern, list):
        if not isinstance(resource, list):
            raise Mismatch(path, f"validation rule failed at path {path}: expected a list")
        _validate_list(resource, pattern, path, depth)
    elif isinstance(resource, list):
        for item in resource:
            if not value_matches(item, pattern):
                raise Mismatch(
                    path, f"resource value '{item}' does not match '{pattern}' at path {path}"
                )
    elif not value_matches(resource, pattern):
        raise Mismatch(
            path, f"resource value '{_show(resource)}' does not match '{pattern}' at path {path}"
        )


def _show(value: Any) -> str:
    if value is None:
        return "<nil>"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _expand_wildcard_keys(resource: dict, pattern: dict) -> dict:
    """Pattern keys with wildcards (``=(container.apparmor.security.beta.kubernetes.io/*)``) stand
    for every resource key they match; with no match the key stays as written."""
    expanded: dict = {}
    for key, value in pattern.items():
        anchor = anchors.parse(key)
        bare = anchor.key if anchor else key
        if "*" not in bare and "?" not in bare:
            expanded[key] = value
            continue
        hits = [k for k in resource if wildcard.match(bare, k)]
        if not hits:
            expanded[key] = value
        for hit in hits:
            expanded[key.replace(bare, hit) if anchor else hit] = value
    return expanded


@functools.lru_cache(maxsize=4096)
def _has_wildcard(key: str) -> bool:
    return "*" in key or "?" in key


def _wildcard_keys(pattern: dict) -> bool:
    return any(_has_wildcard(k) for k in pattern)


#: per pattern map (by id, with the map itself to check the id was not reused): None when its
#: keys have wildcards (split anew for each resource), else its split
_PLANS: dict[int, tuple[dict, tuple[list, list] | None]] = {}


def _plan(pattern: dict, path: str) -> tuple[list, list] | None:
    """The pattern map's split, made once: the same policy patterns are walked for every
    resource. None for a map with wildcard keys, whose keys depend on the resource."""
    cached = _PLANS.get(id(pattern))
    if cached is not None and cached[0] is pattern:
        return cached[1]
    plan = None if _wildcard_keys(pattern) else _split(pattern, path)
    if len(_PLANS) > 50_000:  # bounded for long-lived processes (the cluster's report hook)
        _PLANS.clear()
    _PLANS[id(pattern)] = (pattern, plan)
    return plan


def _split(pattern: dict, path: str) -> tuple[list, list]:
    """(anchored entries, plain entries with nested anchors first) of a pattern map."""
    anchored = sorted(
        ((k, v, anchors.parse(k)) for k, v in pattern.items() if anchors.parse(k) is not None),
        key=lambda entry: entry[0],
    )
    plain = [(k, v) for k, v in pattern.items() if anchors.parse(k) is None]
    for key, _ in plain:
        modifier = anchors.unknown_modifier(key)
        if modifier is not None:
            raise PatternSyntaxError(
                f"unknown anchor {modifier!r} in pattern key {key!r} at {path}"
            )
    # nested anchors first, as Kyverno sorts keys whose values hold anchors to the front
    plain.sort(key=lambda kv: 0 if _holds_anchor(kv[1]) else 1)
    return anchored, plain


def _check_anchor(resource: dict, key: str, value: Any, anchor: Any, path: str, depth: int) -> None:
    """One anchored key of a map, as Kyverno's anchor handlers check it."""
    here = f"{path}{anchor.key}/"
    present = anchor.key in resource
    if anchor.kind == anchors.NEGATION:
        if present:
            raise Mismatch(here, f"{here} is not allowed", "negation")
    elif anchor.kind == anchors.EQUALITY:
        if present:
            walk(resource[anchor.key], value, here, depth + 1)
    elif anchor.kind == anchors.CONDITION:
        if not present:
            raise Mismatch(
                here, "conditional anchor key doesn't exist in the resource", "condition", True
            )
        try:
            walk(resource[anchor.key], value, here, depth + 1)
        except Mismatch as exc:
            # any failure under a conditional anchor means "does not apply"
            raise Mismatch(exc.path, exc.message, "condition", True) from None
    elif anchor.kind == anchors.GLOBAL:
        if present:
            try:
                walk(resource[anchor.key], value, here, depth + 1)
            except Mismatch as exc:
                raise Mismatch(exc.path, exc.message, "global", True) from None
    elif anchor.kind == anchors.EXISTENCE and present:
        _existence(resource[anchor.key], value, here, depth)


def _validate_map(resource: dict, pattern: dict, path: str, depth: int) -> None:
    plan = _plan(pattern, path)
    if plan is None:
        # a pattern rewritten for this resource's wildcard keys is used once: do not remember it
        plan = _split(_expand_wildcard_keys(resource, pattern), path)
    anchored, plain = plan
    # Kyverno checks the anchored keys in sorted order; failed conditions (skips) are collected,
    # and once a condition of this very map failed, other anchors' failures no longer count
    skips: list[Mismatch] = []
    applied = 0
    for key, value, anchor in anchored:
        if anchor.kind == anchors.ADD:
            continue  # "+(k)" only means something when mutating
        try:
            _check_anchor(resource, key, value, anchor, path, depth)
        except Mismatch as exc:
            if exc.skip:
                skips.append(exc)
                continue
            if any(s.direct for s in skips):
                continue
            raise
        applied += 1
    if skips and (applied == 0 or any(s.direct for s in skips)):
        raise Mismatch(path, "; ".join(s.message for s in skips), skips[0].kind)
    for key, value in plain:
        if value == "*":
            if resource.get(key) is None:
                raise Mismatch(path, f"{path}{key} not found")
            continue
        walk(resource.get(key), value, f"{path}{key}/", depth + 1)


def _holds_anchor(value: Any) -> bool:
    if isinstance(value, dict):
        return any(anchors.is_anchor_key(k) for k in value)
    if isinstance(value, list):
        return any(_holds_anchor(v) for v in value)
    return False


def _existence(resource: Any, pattern: Any, path: str, depth: int) -> None:
    if not isinstance(resource, list):
        raise Mismatch(
            path,
            f"existence anchor ^() can only be used on lists, found {type(resource).__name__} at {path}",
        )
    if not isinstance(pattern, list):
        raise PatternSyntaxError(f"existence anchor at {path} needs a list pattern")
    for element in pattern:
        if not any(_ok(item, element, f"{path}{i}/", depth) for i, item in enumerate(resource)):
            raise Mismatch(path, f"existence anchor validation failed at path {path}")


def _ok(resource: Any, pattern: Any, path: str, depth: int) -> bool:
    try:
        walk(resource, pattern, path, depth + 1)
    except Mismatch:
        return False
    return True


def _validate_list(resource: list, pattern: list, path: str, depth: int) -> None:
    if not pattern:
        raise PatternSyntaxError(f"empty list in pattern at {path}")
    first = pattern[0]
    if isinstance(first, dict):
        applied, skipped = 0, None
        for i, item in enumerate(resource):
            try:
                walk(item, first, f"{path}{i}/", depth + 1)
            except Mismatch as exc:
                if exc.skip:
                    skipped = exc
                    continue
                raise
            applied += 1
        if applied == 0 and skipped is not None:
            raise Mismatch(path, skipped.message, "condition")
    elif not isinstance(first, list):
        walk(resource, first, path, depth + 1)
    else:
        if len(resource) < len(pattern):
            raise Mismatch(path, f"validate Array failed, array length mismatch at {path}")
        for i, element in enumerate(pattern):
            walk(resource[i], element, f"{path}{i}/", depth + 1)
