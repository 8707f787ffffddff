"""Pattern keys with anchors: ``(k)`` conditional, ``=(k)`` equality, ``^(k)`` existence,
``X(k)`` negation, ``<(k)`` global; ``+(k)`` (add-if-not-present) belongs to mutation."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

_ANCHOR = re.compile(r"^(?P<modifier>[=^X<+]?)\((?P<key>.+)\)$")

CONDITION, EQUALITY, EXISTENCE, NEGATION, GLOBAL, ADD = (
    "condition",
    "equality",
    "existence",
    "negation",
    "global",
    "add",
)
_BY_MODIFIER = {"": CONDITION, "=": EQUALITY, "^": EXISTENCE, "X": NEGATION, "<": GLOBAL, "+": ADD}


@dataclass(frozen=True)
class Anchor:
    kind: str
    key: str


@functools.lru_cache(maxsize=4096)  # pattern keys repeat for every resource
def parse(element: str) -> Anchor | None:
    match = _ANCHOR.match(element)
    if match is None:
        return None
    return Anchor(_BY_MODIFIER[match.group("modifier")], match.group("key"))


_LOOKS_LIKE = re.compile(r"^(?P<modifier>[^\s()])\((?P<key>.+)\)$")


def unknown_modifier(element: str) -> str | None:
    """The modifier of a key shaped like an anchor whose modifier Kyverno does not know
    (``Y(key)``), or None. Such a key would otherwise be read as a plain field name."""
    match = _LOOKS_LIKE.match(element)
    if match and parse(element) is None:
        return match.group("modifier")
    return None


def is_anchor_key(element: str) -> bool:
    return parse(element) is not None
