"""Label and field selectors as the API server parses them (``?labelSelector=``, ``?fieldSelector=``),
and the structured label selector objects carry (``matchLabels``/``matchExpressions``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from itbench.errors import UsageError

Predicate = Callable[[Mapping[str, Any]], bool]

_SET = re.compile(r"^\s*([A-Za-z0-9./_-]+)\s+(in|notin)\s+\(([^)]*)\)\s*$")


def _split(selector: str) -> list[str]:
    """Split on commas that are not inside parentheses (``env in (a,b),tier=web``)."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in selector:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


def _value_in(key: str, values: set[str], *, wanted: bool) -> Predicate:
    """Labels whose ``key`` is (``wanted``) or is not one of ``values``; an absent key is in none."""
    return lambda labels: (labels.get(key) in values) is wanted


def _has_key(key: str, *, wanted: bool) -> Predicate:
    return lambda labels: (key in labels) is wanted


def _field_equals(path: str, value: str, *, wanted: bool) -> Predicate:
    return lambda obj: (_dotted(obj, path) == value) is wanted


def selects(selector: Any, labels: Mapping[str, Any]) -> bool:
    """A structured label selector (``metav1.LabelSelector``: exact ``matchLabels``,
    ``matchExpressions`` with In, NotIn, Exists, DoesNotExist) against labels; an empty or missing
    selector selects everything."""
    if not isinstance(selector, Mapping):
        return True
    for key, value in (selector.get("matchLabels") or {}).items():
        if labels.get(key) != value:
            return False
    for expression in selector.get("matchExpressions") or []:
        key, operator = expression.get("key"), expression.get("operator")
        values = expression.get("values") or []
        present = key in labels
        if operator == "In" and not (present and labels[key] in values):
            return False
        if operator == "NotIn" and present and labels[key] in values:
            return False
        if operator == "Exists" and not present:
            return False
        if operator == "DoesNotExist" and present:
            return False
    return True


def label_selector(selector: str | None) -> Predicate:
    if not selector:
        return lambda labels: True
    tests: list[Predicate] = []
    for term in _split(selector):
        match = _SET.match(term)
        if match:
            key, op, values = (
                match.group(1),
                match.group(2),
                {v.strip() for v in match.group(3).split(",")},
            )
            if op == "in":
                tests.append(_value_in(key, values, wanted=True))
            else:
                tests.append(_value_in(key, values, wanted=False))
        elif "!=" in term:
            key, value = (s.strip() for s in term.split("!=", 1))
            tests.append(_value_in(key, {value}, wanted=False))
        elif "=" in term:
            key, value = (s.strip() for s in term.replace("==", "=").split("=", 1))
            tests.append(_value_in(key, {value}, wanted=True))
        elif term.startswith("!"):
            absent = term[1:].strip()
            tests.append(_has_key(absent, wanted=False))
        elif re.fullmatch(r"[A-Za-z0-9./_-]+", term):
            tests.append(_has_key(term, wanted=True))
        else:
            raise UsageError(f"unable to parse label selector term {term!r}")
    return lambda labels: all(t(labels) for t in tests)


def _dotted(obj: Mapping[str, Any], path: str) -> str | None:
    value: Any = obj
    for part in path.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return None if isinstance(value, dict | list) else str(value)


def field_selector(selector: str | None) -> Callable[[Mapping[str, Any]], bool]:
    """``metadata.name=x``, ``metadata.namespace!=y``, ``status.phase=Running``, ``spec.nodeName=n``."""
    if not selector:
        return lambda obj: True
    tests: list[Predicate] = []
    for term in _split(selector):
        negate = "!=" in term
        key, value = (s.strip() for s in term.replace("==", "=").replace("!=", "=").split("=", 1))
        tests.append(_field_equals(key, value, wanted=not negate))
    return lambda obj: all(t(obj) for t in tests)
