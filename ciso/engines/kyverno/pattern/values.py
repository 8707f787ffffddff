"""Compare one resource value with one pattern value: wildcards, ``!``, ``|``, ``&``, ``>``,
``<``, ``>=``, ``<=``, ranges ``a-b`` / ``a!-b``, quantities (``100Mi``) and durations (``1h``)."""

from __future__ import annotations

import fnmatch
import re
from typing import Any

_QUANTITY = re.compile(r"^([+-]?\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E)?$")
_SUFFIX = {
    None: 1,
    "m": 1e-3,
    "k": 1e3,
    "M": 1e6,
    "G": 1e9,
    "T": 1e12,
    "P": 1e15,
    "E": 1e18,
    "Ki": 2**10,
    "Mi": 2**20,
    "Gi": 2**30,
    "Ti": 2**40,
    "Pi": 2**50,
    "Ei": 2**60,
}
_DURATION = re.compile(r"^(?:(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns))+$")
_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)")
_DURATION_UNIT = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}
_RANGE = re.compile(r"^(?P<low>[^!\s-][^\s]*?)(?P<neg>!?)-(?P<high>[^\s]+)$")


def as_string(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def as_number(value: Any) -> float | None:
    """Numbers, quantities and durations (in seconds) on one scale; None if not numeric."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return float(value)
    text = str(value).strip()
    match = _QUANTITY.match(text)
    if match:
        return float(match.group(1)) * _SUFFIX[match.group(2)]
    if _DURATION.match(text):
        return sum(float(n) * _DURATION_UNIT[u] for n, u in _DURATION_PART.findall(text))
    return None


def _wildcard(value: Any, pattern: str) -> bool:
    text = as_string(value)
    if "*" in pattern or "?" in pattern:
        return fnmatch.fnmatchcase(text, pattern.replace("[", "[[]"))
    return text == pattern


def _compare(value: Any, op: str, operand: str) -> bool:
    left, right = as_number(value), as_number(operand)
    if left is None or right is None:
        return False
    return {">": left > right, "<": left < right, ">=": left >= right, "<=": left <= right}[op]


def _one(value: Any, pattern: str) -> bool:
    pattern = pattern.strip()
    for op in (">=", "<=", ">", "<"):
        if pattern.startswith(op):
            return _compare(value, op, pattern[len(op) :].strip())
    if pattern.startswith("!") and not pattern.startswith("!-"):
        return not _wildcard(value, pattern[1:].strip())
    ranged = _RANGE.match(pattern)
    if (
        ranged
        and as_number(ranged.group("low")) is not None
        and as_number(ranged.group("high")) is not None
    ):
        number = as_number(value)
        if number is None:
            return False
        low, high = as_number(ranged.group("low")), as_number(ranged.group("high"))
        inside = low <= number <= high  # type: ignore[operator]
        return not inside if ranged.group("neg") else inside
    return _wildcard(value, pattern)


def value_matches(value: Any, pattern: Any) -> bool:
    if isinstance(value, dict | list):
        return False
    if isinstance(pattern, bool):
        return isinstance(value, bool) and value == pattern
    if isinstance(pattern, int | float):
        if isinstance(value, bool):
            return False
        if isinstance(value, int | float):
            return float(value) == float(pattern)
        number = as_number(value)
        return number is not None and number == float(pattern)
    if pattern is None:
        return value in (None, "", 0, False) and not (isinstance(value, float) and value != 0)
    if isinstance(pattern, str):
        if pattern == "" and value in (None, ""):
            return True
        return any(
            all(_one(value, part) for part in alternative.split("&"))
            for alternative in pattern.split("|")
        )
    return False
