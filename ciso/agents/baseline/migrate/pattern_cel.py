"""A Kyverno ``validate.pattern`` as one CEL expression over the same object.

Kyverno's pattern semantics, read key by key:

- ``key: p``: the key must be present and its value match ``p``;
- ``=(key): p`` (equality anchor): when the key is present, its value must match;
- ``X(key): _`` (negation anchor): the key must be absent;
- ``^(key): [p]`` (existence anchor): at least one element of the list matches;
- ``(key): p`` (conditional anchor): the map is judged only when the key matches, otherwise it
  passes;
- a list pattern ``[p]``: every element of the resource's list matches ``p``;
- a scalar: booleans and numbers compare equal; strings may hold ``|`` (or), ``&`` (and), ``!``
  (not), ``<``/``>``/``<=``/``>=`` on numbers, ``a-b`` ranges and ``*``/``?`` wildcards;
  ``"null"`` matches a null value.

Global anchors ``<(key)``, quantities with units and lists of several patterns raise
:class:`NotTranslatable`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

from ciso.agents.baseline.migrate import cel_text
from ciso.agents.baseline.migrate.jmespath_cel import NotTranslatable, cel_literal
from ciso.engines.kyverno import wildcard

_ANCHOR = re.compile(r"^(?P<anchor>=|X|\^|<|\+)?\((?P<key>.+)\)$")
_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def _and(parts: list[str]) -> str:
    parts = [p for p in parts if p != "true"]
    if not parts:
        return "true"
    return parts[0] if len(parts) == 1 else "(" + " && ".join(parts) + ")"


def _or(parts: list[str]) -> str:
    if "true" in parts:
        return "true"
    return parts[0] if len(parts) == 1 else "(" + " || ".join(parts) + ")"


class _Translator:
    def __init__(self) -> None:
        self._names: Iterator[int] = itertools.count(1)

    def variable(self) -> str:
        return f"e{next(self._names)}"

    def match(self, value: str, pattern: Any) -> str:
        if isinstance(pattern, dict):
            return self.map(value, pattern)
        if isinstance(pattern, list):
            return self.list(value, pattern)
        return scalar(value, pattern)

    def map(self, value: str, pattern: dict[str, Any]) -> str:
        conditions: list[str] = []
        checks: list[str] = []
        for raw_key, sub in pattern.items():
            anchor_match = _ANCHOR.match(str(raw_key))
            anchor = anchor_match.group("anchor") if anchor_match else None
            key = anchor_match.group("key") if anchor_match else str(raw_key)
            present, field = cel_text.has(value, key), cel_text.field(value, key)
            if anchor_match is None:
                checks.append(_and([present, self.match(field, sub)]))
            elif anchor == "=":
                inner = self.match(field, sub)
                checks.append("true" if inner == "true" else f"(!{present} || {inner})")
            elif anchor == "X":
                checks.append(f"!{present}")
            elif anchor == "^":
                if not isinstance(sub, list) or len(sub) != 1:
                    raise NotTranslatable(f"the existence anchor ^({key}) on a non-list pattern")
                var = self.variable()
                checks.append(f"({present} && {field}.exists({var}, {self.match(var, sub[0])}))")
            elif anchor is None:  # (key): a conditional anchor
                conditions.append(_and([present, self.match(field, sub)]))
            else:
                raise NotTranslatable(f"the anchor {anchor}({key}) in a validate pattern")
        body = _and(checks)
        if conditions:
            return f"(!{_and(conditions)} || {body})"
        return body

    def list(self, value: str, pattern: list[Any]) -> str:
        if len(pattern) != 1:
            raise NotTranslatable("a list pattern of other than one element")
        var = self.variable()
        inner = self.match(var, pattern[0])
        return "true" if inner == "true" else f"{value}.all({var}, {inner})"


def scalar(value: str, pattern: Any) -> str:
    """A scalar pattern (with Kyverno's string operators) against the CEL ``value``."""
    if pattern is None:
        return f"{value} == null"
    if isinstance(pattern, bool):
        return f"{value} == {cel_literal(pattern)}"
    if isinstance(pattern, (int, float)):
        return f"{value} == {cel_literal(pattern)}"
    if not isinstance(pattern, str):
        raise NotTranslatable(f"the pattern value {pattern!r}")
    alternatives = [a.strip() for a in pattern.split("|")]
    return _or([_and([_atom(value, c.strip()) for c in a.split("&")]) for a in alternatives])


def _atom(value: str, text: str) -> str:
    if text == "*":
        return "true"
    if text == "?*":
        return f"({value} != null && string({value}) != '')"
    if text == "null":
        return f"{value} == null"
    for op in (">=", "<=", ">", "<", "!"):
        if text.startswith(op):
            rest = text[len(op) :].strip()
            if op == "!":
                return f"!({_atom(value, rest)})"
            if not _NUMBER.fullmatch(rest):
                raise NotTranslatable(f"the comparison {text!r} on a non-number")
            return f"double({value}) {op} {float(rest)!r}"
    range_match = re.fullmatch(r"(-?\d+(?:\.\d+)?)-(-?\d+(?:\.\d+)?)", text)
    if range_match:
        low, high = (float(g) for g in range_match.groups())
        return f"(double({value}) >= {low!r} && double({value}) <= {high!r})"
    if "*" in text or "?" in text:
        return f"string({value}).matches({cel_literal(wildcard.anchored(text))})"
    return f"string({value}) == {cel_literal(text)}"


def translate_pattern(pattern: Any, root: str = "object") -> str:
    """The whole pattern as a CEL boolean: true when ``root`` matches it."""
    return _Translator().match(root, pattern)


def translate_element_pattern(pattern: Any, element: str) -> str:
    """A foreach pattern, matched against each element bound to ``element``."""
    return _Translator().match(element, pattern)
