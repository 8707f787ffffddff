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


def is_anchor_key(element: str) -> bool:
    return parse(element) is not None
