"""The shape of a pattern map, as Kyverno's validator orders it: anchored keys (sorted) before
plain ones, plain keys whose values hold anchors first; keys with wildcards stand for every
resource key they match."""

from __future__ import annotations

import functools
from typing import Any

from ciso.engines.kyverno import wildcard
from ciso.engines.kyverno.pattern import anchors
from ciso.engines.kyverno.pattern.errors import PatternSyntaxError

#: (key, value, anchor) of the anchored keys; (key, value) of the plain ones
Split = tuple[list[tuple[str, Any, anchors.Anchor]], list[tuple[str, Any]]]


@functools.lru_cache(maxsize=4096)
def _has_wildcard(key: str) -> bool:
    return "*" in key or "?" in key


def has_wildcard_keys(pattern: dict) -> bool:
    return any(_has_wildcard(k) for k in pattern)


def expand_wildcard_keys(resource: dict, pattern: dict) -> dict:
    """Pattern keys with wildcards (``=(container.apparmor.security.beta.kubernetes.io/*)``) stand
    for every resource key they match; with no match the key stays as written."""
    expanded: dict = {}
    for key, value in pattern.items():
        anchor = anchors.parse(key)
        bare = anchor.key if anchor else key
        if not _has_wildcard(bare):
            expanded[key] = value
            continue
        hits = [k for k in resource if wildcard.match(bare, k)]
        if not hits:
            expanded[key] = value
        for hit in hits:
            expanded[key.replace(bare, hit) if anchor else hit] = value
    return expanded


def split(pattern: dict, path: str) -> Split:
    """(anchored entries, plain entries with nested anchors first) of a pattern map; an unknown
    anchor modifier is a PatternSyntaxError naming ``path``."""
    anchored: list[tuple[str, Any, anchors.Anchor]] = []
    plain: list[tuple[str, Any]] = []
    for k, v in pattern.items():
        anchor = anchors.parse(k)
        if anchor is None:
            plain.append((k, v))
        else:
            anchored.append((k, v, anchor))
    anchored.sort(key=lambda entry: entry[0])
    for key, _ in plain:
        modifier = anchors.unknown_modifier(key)
        if modifier is not None:
            raise PatternSyntaxError(
                f"unknown anchor {modifier!r} in pattern key {key!r} at {path}"
            )
    # nested anchors first, as Kyverno sorts keys whose values hold anchors to the front
    plain.sort(key=lambda kv: 0 if _holds_anchor(kv[1]) else 1)
    return anchored, plain


def _holds_anchor(value: Any) -> bool:
    if isinstance(value, dict):
        return any(anchors.is_anchor_key(k) for k in value)
    if isinstance(value, list):
        return any(_holds_anchor(v) for v in value)
    return False


def show(value: Any) -> str:
    """A resource value as Kyverno's messages print it (Go's formatting)."""
    if value is None:
        return "<nil>"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
