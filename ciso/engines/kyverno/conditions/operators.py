"""The condition operators of preconditions and deny conditions, one handler each, with
Kyverno's exact semantics (its operator handlers): what a key of each JSON type means next to a
value of each type, where wildcards apply, when a string is a duration, a quantity, a number or a
semantic version, and how In-style operators read a value given as a string (a wildcard, a
range ``1-5``, a JSON list or a single item).

Go's JSON numbers are all float64, so every number here is one; a type a handler does not accept
makes the condition false, as in Kyverno."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from ciso.engines.kyverno import wildcard
from ciso.engines.kyverno.jmespath.gotypes import Quantity, is_number, parse_duration, parse_float
from ciso.engines.kyverno.jmespath.semver import satisfies_order
from ciso.engines.kyverno.pattern.values import IN_RANGE, NOT_IN_RANGE, value_matches
from ciso.engines.kyverno.schema import ACCEPTED_OPERATORS, DEPRECATED_ALIASES
from itbench import jsonsafe


class OperatorError(Exception):
    """A key or value the operator cannot take (Kyverno would fail the rule)."""


def go_sprint(value: Any) -> str:
    """Go's fmt.Sprint of a JSON value."""
    if value is None:
        return "<nil>"
    if isinstance(value, bool):
        return "true" if value else "false"
    if is_number(value):
        number = float(value)
        if number.is_integer() and abs(number) < 1e21:
            return str(int(number))
        return repr(number).replace("e+", "e+").replace("inf", "+Inf")
    if isinstance(value, list):
        return "[" + " ".join(go_sprint(v) for v in value) + "]"
    if isinstance(value, dict):
        return "map[" + " ".join(f"{k}:{go_sprint(value[k])}" for k in sorted(value)) + "]"
    return str(value)


def _json_equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b, strict=True))
    if is_number(a) and is_number(b):
        return float(a) == float(b)
    return type(a) is type(b) and a == b


def _durations(key: Any, value: Any) -> tuple[float, float] | None:
    """Both sides as seconds when at least one is a duration string and the other a duration
    string or a number (of seconds); else None."""

    def as_duration(side: Any) -> float | None:
        if isinstance(side, str) and side != "0":
            try:
                return parse_duration(side) / 1e9
            except ValueError:
                return None
        return None

    left, right = as_duration(key), as_duration(value)
    if left is None and right is None:
        return None
    if left is None:
        if not is_number(key):
            return None
        left = float(math.trunc(key))
    if right is None:
        if not is_number(value):
            return None
        right = float(math.trunc(value))
    return left, right


def _quantity(text: Any) -> Fraction | None:
    if not isinstance(text, str):
        return None
    try:
        return Quantity.parse(text).value
    except ValueError:
        return None


# -- Equals / NotEquals ---------------------------------------------------------------------------


def equals(key: Any, value: Any) -> bool:
    if isinstance(key, bool):
        return isinstance(value, bool) and key == value
    if is_number(key):
        if is_number(value):
            return float(key) == float(value)
        if isinstance(value, str):
            number = parse_float(value)
            return number is not None and number == float(key)
        return False
    if isinstance(key, str):
        durations = _durations(key, value)
        if durations is not None:
            return durations[0] == durations[1]
        if _quantity(key) is not None and isinstance(value, str):
            other = _quantity(value)
            return other is not None and other == _quantity(key)
        return isinstance(value, str) and wildcard.match(value, key)
    if isinstance(key, dict | list):
        return type(value) is type(key) and _json_equal(key, value)
    return False


def not_equals(key: Any, value: Any) -> bool:
    if isinstance(key, bool):
        return not isinstance(value, bool) or key != value
    if is_number(key):
        if is_number(value):
            return float(key) != float(value)
        if isinstance(value, str):
            number = parse_float(value)
            return number is None or number != float(key)
        return True
    if isinstance(key, str):
        durations = _durations(key, value)
        if durations is not None:
            return durations[0] != durations[1]
        if _quantity(key) is not None and isinstance(value, str) and value != "":
            other = _quantity(value)
            return other is None or other != _quantity(key)
        return not isinstance(value, str) or not wildcard.match(value, key)
    if isinstance(key, dict | list):
        return type(value) is not type(key) or not _json_equal(key, value)
    return False


# -- In family -------------------------------------------------------------------------------------


def _is_range(text: str) -> bool:
    # Kyverno reads >, <, != first and the not-in-range form before the in-range one
    if len(text) < 2 or text.startswith((">", "<", "!=")) or NOT_IN_RANGE.match(text):
        return False
    return IN_RANGE.match(text) is not None


def _in_range(key: str, spec: str) -> bool:
    return value_matches(key, spec)


def _string_list(text: str, *, lenient: bool) -> list[str] | None:
    """A value string read as a list of strings: JSON when it parses as JSON (a JSON value that
    is not a list of strings is invalid: None); otherwise, when ``lenient``, the string itself."""
    try:
        parsed = jsonsafe.loads(text, "condition value")
    except ValueError:
        return [text] if lenient else None
    if isinstance(parsed, list) and all(isinstance(p, str) for p in parsed):
        return parsed
    return None


def _key_text(key: Any) -> str | None:
    if isinstance(key, str):
        return key
    if is_number(key) or isinstance(key, bool):
        return go_sprint(key)
    return None


def _either_wild(a: str, b: str) -> bool:
    return wildcard.match(a, b) or wildcard.match(b, a)


def _exists_exact(key: str, value: Any) -> bool | None:
    """In/NotIn with one key: None when the value has a type the operator refuses."""
    if isinstance(value, list):
        return any(_either_wild(go_sprint(v), key) for v in value)
    if isinstance(value, str):
        if wildcard.match(value, key):
            return True
        items = _string_list(value, lenient=False)
        return None if items is None else key in items
    return None


def _exists_any(key: str, value: Any) -> bool | None:
    """AnyIn/AllIn/AnyNotIn/AllNotIn with one key."""
    if isinstance(value, list):
        return any(_either_wild(go_sprint(v), key) for v in value)
    if isinstance(value, str):
        if wildcard.match(value, key):
            return True
        if _is_range(value):
            return _in_range(key, value)
        items = _string_list(value, lenient=True)
        return None if items is None else key in items
    return None


def _strings(key: list[Any], strict: bool) -> list[str]:
    if strict and not all(isinstance(k, str) for k in key):
        raise OperatorError("In and NotIn need a list of strings as key")
    return [k if isinstance(k, str) else go_sprint(k) for k in key]


def in_(key: Any, value: Any) -> bool:
    return _in(key, value, negate=False)


def not_in(key: Any, value: Any) -> bool:
    return _in(key, value, negate=True)


def _in(key: Any, value: Any, negate: bool) -> bool:
    if isinstance(key, list):
        keys = _strings(key, strict=True)
        if isinstance(value, list):
            if not all(isinstance(v, str) for v in value):
                return False
            items: list[str] | None = value
        elif isinstance(value, str):
            if len(keys) == 1 and keys[0] == value:
                return True  # Kyverno answers true here for In and NotIn alike
            items = _string_list(value, lenient=False)
        else:
            items = None
        if items is None:
            return False
        found = [k in set(items) for k in keys]
        return (not all(found)) if negate else all(found)
    text = _key_text(key)
    if text is None:
        return False
    exists = _exists_exact(text, value)
    if exists is None:
        return False
    return not exists if negate else exists


def _set_values(value: Any, *, numbers: bool) -> list[str] | None:
    if isinstance(value, list):
        return [go_sprint(v) for v in value]
    if numbers and (is_number(value) or isinstance(value, bool)):
        return [go_sprint(value)]
    if isinstance(value, str):
        return _string_list(value, lenient=True)
    return None


def any_in(key: Any, value: Any) -> bool:
    if isinstance(key, list):
        keys = [go_sprint(k) for k in key]
        if isinstance(value, str) and len(keys) == 1 and keys[0] == value:
            return True
        if isinstance(value, str) and _is_range(value):
            return any(_in_range(k, value) for k in keys)
        values = _set_values(value, numbers=True)
        return values is not None and any(_either_wild(k, v) for k in keys for v in values)
    text = _key_text(key)
    exists = None if text is None else _exists_any(text, value)
    return bool(exists)


def any_not_in(key: Any, value: Any) -> bool:
    if isinstance(key, list):
        keys = [go_sprint(k) for k in key]
        if isinstance(value, str) and len(keys) == 1 and keys[0] == value:
            return False
        if isinstance(value, str) and _is_range(value):
            outside = value.replace("-", "!-", 1)
            return any(_in_range(k, outside) for k in keys)
        values = _set_values(value, numbers=True)
        return values is not None and any(not any(_either_wild(k, v) for v in values) for k in keys)
    text = _key_text(key)
    exists = None if text is None else _exists_any(text, value)
    return exists is not None and not exists


def all_in(key: Any, value: Any) -> bool:
    if isinstance(key, list):
        keys = [go_sprint(k) for k in key]
        if isinstance(value, str) and len(keys) == 1 and keys[0] == value:
            return True
        if isinstance(value, str) and _is_range(value):
            return all(_in_range(k, value) for k in keys)
        values = _set_values(value, numbers=False)
        return values is not None and all(any(_either_wild(k, v) for v in values) for k in keys)
    text = _key_text(key)
    exists = None if text is None else _exists_any(text, value)
    return bool(exists)


def all_not_in(key: Any, value: Any) -> bool:
    if isinstance(key, list):
        keys = [go_sprint(k) for k in key]
        if isinstance(value, str) and len(keys) == 1 and keys[0] == value:
            return False
        if isinstance(value, str) and _is_range(value):
            return not any(_in_range(k, value) for k in keys)
        values = _set_values(value, numbers=False)
        return values is not None and not any(_either_wild(k, v) for k in keys for v in values)
    text = _key_text(key)
    exists = None if text is None else _exists_any(text, value)
    return exists is not None and not exists


# -- ordering -------------------------------------------------------------------------------------

_ORDER: dict[str, Callable[[Any, Any], bool]] = {
    "greaterthan": lambda a, b: a > b,
    "greaterthanorequals": lambda a, b: a >= b,
    "lessthan": lambda a, b: a < b,
    "lessthanorequals": lambda a, b: a <= b,
}


def _number_against(order: Callable[[Any, Any], bool], key: float, value: Any) -> bool:
    if is_number(value):
        return order(key, float(value))
    if isinstance(value, str):
        durations = _durations(key, value)
        if durations is not None:
            return order(*durations)
        number = parse_float(value)
        return number is not None and order(key, number)
    return False


def numeric(name: str) -> Callable[[Any, Any], bool]:
    """GreaterThan and friends: numbers, durations, quantities, then semantic versions."""
    order = _ORDER[name]

    def compare(key: Any, value: Any) -> bool:
        if is_number(key):
            return _number_against(order, float(key), value)
        if not isinstance(key, str):
            return False
        durations = _durations(key, value)
        if durations is not None:
            return order(*durations)
        left, right = _quantity(key), _quantity(value)
        if left is not None and right is not None:
            return order(left, right)
        number = parse_float(key)
        if number is not None:
            return _number_against(order, number, value)
        versions = satisfies_order(key, value)
        return versions is not None and order(*versions)

    return compare


def duration(name: str) -> Callable[[Any, Any], bool]:
    """The deprecated Duration* operators: numbers are seconds, strings Go durations."""
    order = _ORDER[name.removeprefix("duration")]

    def side(value: Any) -> float | None:
        if is_number(value):
            return float(math.trunc(value))
        if isinstance(value, str):
            try:
                return parse_duration(value) / 1e9
            except ValueError:
                return None
        return None

    def compare(key: Any, value: Any) -> bool:
        left, right = side(key), side(value)
        return left is not None and right is not None and order(left, right)

    return compare


#: one handler per canonical operator name (schema.CANONICAL_OPERATORS)
HANDLERS: dict[str, Callable[[Any, Any], bool]] = {
    "Equals": equals,
    "NotEquals": not_equals,
    "In": in_,
    "NotIn": not_in,
    "AnyIn": any_in,
    "AllIn": all_in,
    "AnyNotIn": any_not_in,
    "AllNotIn": all_not_in,
    "GreaterThan": numeric("greaterthan"),
    "GreaterThanOrEquals": numeric("greaterthanorequals"),
    "LessThan": numeric("lessthan"),
    "LessThanOrEquals": numeric("lessthanorequals"),
    "DurationGreaterThan": duration("durationgreaterthan"),
    "DurationGreaterThanOrEquals": duration("durationgreaterthanorequals"),
    "DurationLessThan": duration("durationlessthan"),
    "DurationLessThanOrEquals": duration("durationlessthanorequals"),
}
#: the handler for every name Kyverno's engine takes, keyed lowercased: its handlers match
#: operator names case-insensitively and take the deprecated aliases (schema.canonical_operator)
OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    name.lower(): HANDLERS[DEPRECATED_ALIASES.get(name, name)] for name in ACCEPTED_OPERATORS
}
