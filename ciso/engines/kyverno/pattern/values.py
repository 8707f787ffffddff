"""Compare one resource value with one pattern leaf as Kyverno's pattern.Validate does: a bool,
number or null leaf by type; a string leaf as ``|`` alternatives of ``&`` conjunctions of
conditions, each with an operator (``>=``, ``<=``, ``>``, ``<``, ``!``, ranges ``a-b`` and
``a!-b``, or plain) applied to the value read as a Go duration, else as a Kubernetes quantity,
else (plain and ``!`` only) as text matched against a ``*``/``?`` wildcard."""

from __future__ import annotations

import decimal
import re
from fractions import Fraction
from typing import Any

from ciso.engines.kyverno import wildcard
from ciso.engines.kyverno.jmespath.gotypes import Quantity, is_number, parse_duration, parse_float

IN_RANGE = re.compile(r"^([-|+]?\d+(?:\.\d+)?[A-Za-z]*)-([-|+]?\d+(?:\.\d+)?[A-Za-z]*)$")
NOT_IN_RANGE = re.compile(r"^([-|+]?\d+(?:\.\d+)?[A-Za-z]*)!-([-|+]?\d+(?:\.\d+)?[A-Za-z]*)$")
ORDERING = (">=", "<=", ">", "<")


def operator_of(pattern: str) -> str:
    """The operator a string condition starts with ("" for plain equality, "-" / "!-" for
    ranges), as Kyverno reads it."""
    if len(pattern) < 2:
        return ""
    for op in (*ORDERING, "!"):
        if pattern.startswith(op):
            return op
    if NOT_IN_RANGE.match(pattern):
        return "!-"
    if IN_RANGE.match(pattern):
        return "-"
    return ""


def _number_text(value: Any) -> str | None:
    """What Kyverno compares as a duration or quantity: null is "0", numbers print as %f."""
    if value is None:
        return "0"
    if isinstance(value, str):
        return value
    if is_number(value):
        return f"{float(value):f}"
    return None


def _order(op: str, left: Any, right: Any) -> bool:
    return {
        "": left == right,
        "!": left != right,
        ">": left > right,
        "<": left < right,
        ">=": left >= right,
        "<=": left <= right,
    }[op]


def _as_duration(text: str) -> int | None:
    try:
        return parse_duration(text)
    except ValueError:
        return None


def _as_quantity(text: str) -> Fraction | None:
    try:
        return Quantity.parse(text).value
    except ValueError:
        return None


def _go_exponent(value: float) -> str:
    """strconv.FormatFloat(v, 'E', -1, 64): the shortest digits, exponent form (5E+00)."""
    if value == 0:
        return "0E+00"
    sign, digits, exponent = decimal.Decimal(repr(value)).as_tuple()
    text = "".join(map(str, digits)).rstrip("0") or "0"
    power = int(exponent) + len(digits) - 1
    mantissa = text[0] + ("." + text[1:] if len(text) > 1 else "")
    return f"{'-' if sign else ''}{mantissa}E{'+' if power >= 0 else '-'}{abs(power):02d}"


def _compare(value: Any, pattern: str, op: str) -> bool:
    text = _number_text(value)
    wanted = _as_duration(pattern)
    if wanted is not None and text is not None:
        actual = _as_duration(text)
        if actual is not None:
            return _order(op, actual, wanted)
    wanted_quantity = _as_quantity(pattern)
    if wanted_quantity is not None and text is not None:
        actual_quantity = _as_quantity(text)
        if actual_quantity is not None:
            return _order(op, actual_quantity, wanted_quantity)
    if op not in ("", "!"):
        return False
    if isinstance(value, str):
        shown = value
    elif isinstance(value, bool):
        shown = "true" if value else "false"
    elif is_number(value):
        shown = _go_exponent(float(value))
    else:
        return False
    matched = wildcard.match(pattern, shown)
    return not matched if op == "!" else matched


def _condition(value: Any, pattern: str) -> bool:
    op = operator_of(pattern)
    if op == "-":
        low, high = IN_RANGE.match(pattern).groups()  # type: ignore[union-attr]  # operator_of returned '-' only for a pattern IN_RANGE matches
        return _condition(value, f">= {low}") and _condition(value, f"<= {high}")
    if op == "!-":
        low, high = NOT_IN_RANGE.match(pattern).groups()  # type: ignore[union-attr]  # operator_of returned '!-' only for a pattern NOT_IN_RANGE matches
        return _condition(value, f"< {low}") or _condition(value, f"> {high}")
    return _compare(value, pattern[len(op) :].strip(), op)


#: the classes of leaves and values whose comparison is remembered (hashable, compared by value)
_SCALARS = frozenset({str, bool, int, float, type(None)})
_REMEMBERED: dict[tuple[type, Any, type, Any], bool] = {}


def value_matches(value: Any, pattern: Any) -> bool:
    """Whether a resource value satisfies a pattern leaf (bool, number, null, map or string).
    Remembered for scalars: the same few values meet the same policy leaves for every resource,
    and a string leaf costs a parse (alternatives, operators, durations, quantities)."""
    if value.__class__ not in _SCALARS or pattern.__class__ not in _SCALARS:
        return _value_matches(value, pattern)
    # the classes are part of the key: True, 1 and 1.0 are equal keys but not equal values here
    key = (value.__class__, value, pattern.__class__, pattern)
    found = _REMEMBERED.get(key)
    if found is None:
        found = _value_matches(value, pattern)
        if len(_REMEMBERED) > 100_000:  # bounded: values such as names are unique per resource
            _REMEMBERED.clear()
        _REMEMBERED[key] = found
    return found


def _value_matches(value: Any, pattern: Any) -> bool:
    if isinstance(pattern, bool):
        return isinstance(value, bool) and value == pattern
    if is_number(pattern):
        if is_number(value):
            return float(value) == float(pattern)
        if isinstance(value, str) and parse_float(value) is not None:
            return float(value) == float(pattern)
        return False
    if pattern is None:
        if is_number(value):
            return float(value) == 0.0
        return value is None or value == "" or value is False
    if isinstance(pattern, dict):
        return isinstance(value, dict)
    if not isinstance(pattern, str):
        return False
    if isinstance(value, str) and value == pattern:
        return True
    return any(
        all(_condition(value, part.strip(" ")) for part in alternative.strip(" ").split("&"))
        for alternative in pattern.split("|")
    )
