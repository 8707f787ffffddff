"""Label and field selectors as the API server parses them (``?labelSelector=``, ``?fieldSelector=``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from itbench.errors import UsageError

Predicate = Callable[[Mapping[str, Any]], bool]

_SET = re.compile(r"^\s*([A-Za-z0-9./_-]+)\s+(in|notin)\s+\(([^)]*)\)\s*$")


def _split(selector: str) -> list[str]:
    """Split on commas that are not inside parentheses (``env in (a,b),tier=web``)."""
    parts, depth, current = [], 0, []
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
                tests.append(lambda labels, k=key, vs=values: labels.get(k) in vs)
            else:
                tests.append(lambda labels, k=key, vs=values: labels.get(k) not in vs)
        elif "!=" in term:
            key, value = (s.strip() for s in term.split("!=", 1))
            tests.append(lambda labels, k=key, v=value: labels.get(k) != v)
        elif "=" in term:
            key, value = (s.strip() for s in term.replace("==", "=").split("=", 1))
            tests.append(lambda labels, k=key, v=value: labels.get(k) == v)
        elif term.startswith("!"):
            absent = term[1:].strip()
            tests.append(lambda labels, k=absent: k not in labels)
        elif re.fullmatch(r"[A-Za-z0-9./_-]+", term):
            tests.append(lambda labels, k=term: k in labels)
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
    tests = []
    for term in _split(selector):
        negate = "!=" in term
        key, value = (s.strip() for s in term.replace("==", "=").replace("!=", "=").split("=", 1))
        if negate:
            tests.append(lambda obj, k=key, v=value: _dotted(obj, k) != v)
        else:
            tests.append(lambda obj, k=key, v=value: _dotted(obj, k) == v)
    return lambda obj: all(t(obj) for t in tests)
