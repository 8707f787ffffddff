"""``{{ … }}`` substitution with JMESPath over the rule's context (``request``, ``element``, …)."""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from jmespath.exceptions import JMESPathError, LexerError, ParseError

from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.jmespath import NotFound, search

# innermost first: "{{ f('{{ a }}') }}" resolves a, then f(...), as Kyverno does
_VARIABLE = re.compile(r"\{\{-?\s*((?:(?!\{\{).)*?)\s*-?\}\}", re.DOTALL)
_ESCAPED = re.compile(r"\\\{\{")


class VariableError(RuleError):
    """A variable that cannot be resolved (invalid JMESPath, or a failing function)."""


class UnknownKey(VariableError):
    """The variable's path ends at an absent key: Kyverno's "Unknown key" error, which a foreach
    list treats as "nothing to iterate" and everything else as a rule error."""


def evaluate(expression: str, context: dict[str, Any]) -> Any:
    expression = expression.strip()
    if expression == "@":
        return context.get("@")
    try:
        return search(expression, context)
    except NotFound as exc:
        raise UnknownKey(f"variable {expression!r}: {exc}") from None
    except (ParseError, LexerError) as exc:
        # the parser's message spans lines (a caret under the expression): keep one line, with
        # the column when the parser knows it
        position = getattr(exc, "lex_position", None)
        detail = str(exc).splitlines()[0].rstrip(":")
        if isinstance(position, int):
            detail = f"{detail} at column {position + 1}"
        raise VariableError(f"invalid JMESPath {expression!r}: {detail}") from None
    except JMESPathError as exc:
        raise VariableError(f"JMESPath {expression!r} failed: {exc}") from None
    except (ValueError, TypeError, ZeroDivisionError, KeyError, IndexError) as exc:
        raise VariableError(f"JMESPath {expression!r} failed: {exc}") from None


def _to_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dict | list):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def substitute(value: Any, context: dict[str, Any]) -> Any:
    """Replace variables everywhere in a JSON-like value; a string that is exactly one variable
    takes the variable's value and type."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            try:
                out[substitute(k, context) if isinstance(k, str) and "{{" in k else k] = substitute(
                    v, context
                )
            except VariableError as exc:
                raise exc.at(k) from None
        return out
    if isinstance(value, list):
        if all(_plain_scalar(v) for v in value):
            return list(value)  # e.g. a condition's list of allowed values: nothing to replace
        items = []
        for i, v in enumerate(value):
            try:
                items.append(substitute(v, context))
            except VariableError as exc:
                raise exc.at(i) from None
        return items
    if not isinstance(value, str) or "{{" not in value:
        return value
    if _ESCAPED.search(value):
        return value.replace("\\{{", "{{")
    for _ in range(32):  # bounded: a variable may not expand into more variables forever
        step = _next_variable(value)
        if step is None:
            return value
        start, end, expression = step
        if start < 0:
            return evaluate(expression, context)
        value = value[:start] + _to_text(evaluate(expression, context)) + value[end:]
        if "{{" not in value:
            return value
    raise VariableError(f"variables nested too deeply in {value[:80]!r}")


def _plain_scalar(value: Any) -> bool:
    """A value substitution leaves as it is (not a container, not a string with a variable)."""
    if value.__class__ is str:
        return "{{" not in value
    return not isinstance(value, dict | list | str)


@functools.lru_cache(maxsize=8192)  # the same policy strings are substituted for every resource
def _next_variable(value: str) -> tuple[int, int, str] | None:
    """Where the next variable of ``value`` is, innermost first: (start, end, expression), with
    start -1 when the whole (stripped) string is one variable, which keeps its value's type;
    None when there is none."""
    whole = _VARIABLE.fullmatch(value.strip())
    if whole:
        return -1, -1, whole.group(1)
    match = _VARIABLE.search(value)
    if match is None:
        return None
    return match.start(), match.end(), match.group(1)
