"""Kyverno conditions (``deny.conditions``, ``preconditions``: ``key``, ``operator``, ``value``
under ``any``/``all``) as one CEL boolean."""

from __future__ import annotations

import re
from typing import Any

from ciso.agents.baseline.migrate.jmespath_cel import Cel, NotTranslatable, cel_literal, translate
from ciso.engines.kyverno import wildcard

_WHOLE_VARIABLE = re.compile(r"^\s*\{\{\s*(?P<expr>.+?)\s*\}\}\s*$", re.S)


def operand(value: Any, element: str | None) -> Cel:
    """A condition's key or value: ``{{ jmespath }}`` translated, anything else a literal."""
    if isinstance(value, str):
        whole = _WHOLE_VARIABLE.match(value)
        if whole:
            return translate(whole.group("expr"), element)
        if "{{" in value:
            raise NotTranslatable(f"the interpolated string {value!r}")
    shape = "list" if isinstance(value, list) else "value"
    return Cel(cel_literal(value), shape)  # type: ignore[arg-type]  # shape is one of Cel's Shape literals


def _as_list(cel: Cel) -> str:
    return cel.as_list() if cel.shape in ("list", "optional") else f"[{cel.text}]"


def _wildcard_equals(key: Cel, value: Cel, value_raw: Any) -> str:
    if isinstance(value_raw, str) and ("*" in value_raw or "?" in value_raw):
        return f"string({key.value()}).matches({cel_literal(wildcard.anchored(value_raw))})"
    return f"{key.value()} == {value.value()}"


#: characters a regular expression reads as syntax, escaped before a wildcard becomes a regex
#: (the backslash first, so the escapes added after it are not escaped again)
_REGEX_SYNTAX = "\\.+()[]{}^$|"


def _runtime_wildcard_regex(x: str) -> str:
    """CEL that turns the string ``x`` holds at run time (a Kyverno wildcard) into an anchored
    regular expression: every other regex character escaped, ``*`` and ``?`` read as wildcards.
    CEL has no quoting function, hence the chain of replacements."""
    escaped = x
    for char in _REGEX_SYNTAX:
        quoted = cel_literal("\\" + char)
        escaped = f"{escaped}.replace({cel_literal(char)}, {quoted})"
    return f"'^' + {escaped}.replace('*', '.*').replace('?', '.') + '$'"


def _member(x: str, value: Cel, raw: Any) -> str:
    """``x`` is among the values, wildcards read both ways (as Kyverno's In operators do: a
    ``*`` in the key's element or in a listed value matches)."""
    regex = _runtime_wildcard_regex(x)

    def key_pattern(literal: str) -> str:
        return (
            f"(type({x}) == string && ({x}.contains('*') || {x}.contains('?')) && "
            f"{literal}.matches({regex}))"
        )

    if isinstance(raw, list) and all(isinstance(v, (str, int, float, bool)) for v in raw):
        parts = []
        for v in raw:
            literal = cel_literal(v)
            if isinstance(v, str) and ("*" in v or "?" in v):
                parts.append(f"string({x}).matches({cel_literal(wildcard.anchored(v))})")
            elif isinstance(v, str):
                parts.append(f"({x} == {literal} || {key_pattern(literal)})")
            else:
                parts.append(f"{x} == {literal}")
        return "(" + " || ".join(parts) + ")" if parts else "false"
    if isinstance(raw, str) and "{{" not in raw:
        return _member(x, value, [raw])
    return f"({x} in {_as_list(value)})"


def condition(entry: dict[str, Any], element: str | None) -> str:
    if not isinstance(entry, dict) or "operator" not in entry:
        raise NotTranslatable(f"the condition {entry!r}")
    key = operand(entry.get("key"), element)
    value = operand(entry.get("value"), element)
    op = str(entry["operator"])
    compare = {
        "GreaterThan": ">",
        "GreaterThanOrEquals": ">=",
        "LessThan": "<",
        "LessThanOrEquals": "<=",
    }
    if op in ("Equals", "Equal"):
        return _wildcard_equals(key, value, entry.get("value"))
    if op in ("NotEquals", "NotEqual"):
        return f"!({_wildcard_equals(key, value, entry.get('value'))})"
    if op in compare:
        return f"double({key.value()}) {compare[op]} double({value.value()})"
    in_family = {
        "AnyIn": ("exists", False),
        "AllIn": ("all", False),
        "In": ("all", False),
        "AnyNotIn": ("exists", True),
        "AllNotIn": ("all", True),
        "NotIn": ("all", True),
    }
    if op in in_family:
        quantifier, negate = in_family[op]

        def test(x: str) -> str:
            found = _member(x, value, entry.get("value"))
            return f"!({found})" if negate else found

        if key.shape == "list":
            return f"{key.text}.{quantifier}(k, {test('k')})"
        if isinstance(entry.get("key"), str) and key.shape == "value" and "{{" not in entry["key"]:
            return test(key.text)  # a literal key
        # a path whose value is a list or a scalar: which one is known when run
        k = key.value()
        return f"(type({k}) == list ? {k}.{quantifier}(k, {test('k')}) : {test(k)})"
    raise NotTranslatable(f"the condition operator {op}")


def conditions(block: Any, element: str | None = None) -> str:
    """``{any: [...], all: [...]}`` (both must hold when both are given) or a bare list (all)."""
    if isinstance(block, list):
        parts = [condition(c, element) for c in block]
        return "(" + " && ".join(parts) + ")" if parts else "true"
    if not isinstance(block, dict):
        raise NotTranslatable(f"the conditions {block!r}")
    out = []
    if block.get("any"):
        out.append("(" + " || ".join(condition(c, element) for c in block["any"]) + ")")
    if block.get("all"):
        out.append("(" + " && ".join(condition(c, element) for c in block["all"]) + ")")
    return " && ".join(out) if out else "true"
