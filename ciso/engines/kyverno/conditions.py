"""``preconditions`` and ``validate.deny.conditions``: any/all of key-operator-value, every operator."""

from __future__ import annotations

import fnmatch
from collections.abc import Iterator
from typing import Any

from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.pattern.values import as_number, as_string
from ciso.engines.kyverno.variables import substitute


class ConditionError(RuleError):
    """A condition that cannot be evaluated (unknown operator, malformed block)."""


def _wild_eq(key: Any, value: Any) -> bool:
    if (
        isinstance(value, str)
        and isinstance(key, str | int | float | bool)
        and not isinstance(key, dict | list)
    ):
        if "*" in value or "?" in value:
            return fnmatch.fnmatchcase(as_string(key), value)
        number_key, number_value = as_number(key), as_number(value)
        if (
            number_key is not None
            and number_value is not None
            and isinstance(key, str) != isinstance(value, str)
        ):
            return number_key == number_value
        return as_string(key) == value
    if (
        isinstance(key, int | float)
        and isinstance(value, int | float)
        and not isinstance(key, bool)
        and not isinstance(value, bool)
    ):
        return float(key) == float(value)
    return key == value


def _as_list(value: Any) -> list:
    if isinstance(value, list):
        return value
    if isinstance(value, str) and value.startswith("[") and value.endswith("]"):
        import json

        try:
            parsed = json.loads(value)
            if isinstance(parsed, list):
                return parsed
        except ValueError:
            pass
    return [value]


_RANGE = __import__("re").compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(!?)-\s*(-?\d+(?:\.\d+)?)\s*$")


def _in(item: Any, collection: Any) -> bool:
    if isinstance(collection, str) and collection.startswith("["):
        collection = _as_list(collection)  # a JSON list given as a string (values files do this)
    if isinstance(collection, str) and _RANGE.match(collection) and as_number(item) is not None:
        low, negate, high = _RANGE.match(collection).groups()  # type: ignore[union-attr]
        inside = float(low) <= as_number(item) <= float(high)  # type: ignore[operator]
        return not inside if negate else inside
    if isinstance(collection, str) and not isinstance(item, list):
        return _wild_eq(item, collection) or (
            isinstance(item, str) and item in collection.split(",")
        )
    # membership is checked both ways: a wildcard in the key ("*" verbs) also covers the values
    return any(
        _wild_eq(item, c)
        or (isinstance(item, str) and ("*" in item or "?" in item) and _wild_eq(c, item))
        for c in _as_list(collection)
    )


def _numbers(key: Any, value: Any) -> tuple[float, float]:
    left, right = as_number(key), as_number(value)
    if left is None or right is None:
        raise ConditionError(
            f"cannot compare {key!r} with {value!r} as numbers, quantities or durations"
        )
    return left, right


def check(operator: str, key: Any, value: Any) -> bool:
    op = operator.lower()
    if op in ("equals", "equal"):
        return _wild_eq(key, value)
    if op in ("notequals", "notequal"):
        return not _wild_eq(key, value)
    if op == "in":
        return all(_in(k, value) for k in key) if isinstance(key, list) else _in(key, value)
    if op == "notin":
        return not any(_in(k, value) for k in key) if isinstance(key, list) else not _in(key, value)
    if op == "anyin":
        return any(_in(k, value) for k in _as_list(key))
    if op == "allin":
        return all(_in(k, value) for k in _as_list(key))
    if op == "anynotin":
        return any(not _in(k, value) for k in _as_list(key))
    if op == "allnotin":
        return all(not _in(k, value) for k in _as_list(key))
    comparisons = {
        "greaterthan": lambda a, b: a > b,
        "greaterthanorequals": lambda a, b: a >= b,
        "lessthan": lambda a, b: a < b,
        "lessthanorequals": lambda a, b: a <= b,
        "durationgreaterthan": lambda a, b: a > b,
        "durationgreaterthanorequals": lambda a, b: a >= b,
        "durationlessthan": lambda a, b: a < b,
        "durationlessthanorequals": lambda a, b: a <= b,
    }
    if op in comparisons:
        try:
            return comparisons[op](*_numbers(key, value))
        except ConditionError:
            return False  # as Kyverno: a value that is not a number never compares true
    raise ConditionError(f"unsupported: condition operator {operator!r}")


def _one(condition: Any, context: dict[str, Any]) -> bool:
    if not isinstance(condition, dict):
        raise ConditionError("a condition must be an object with key, operator and value")
    try:
        key = substitute(condition.get("key"), context)
    except RuleError as exc:
        raise exc.at("key") from None
    try:
        value = substitute(condition.get("value"), context)
    except RuleError as exc:
        raise exc.at("value") from None
    try:
        return check(str(condition.get("operator", "Equals")), key, value)
    except RuleError as exc:
        raise exc.at("operator") from None


def _each(conditions: Any, context: dict[str, Any], quantifier: Any, name: str | None) -> bool:
    """any() / all() over a list of conditions, naming the failing one's index on error."""
    prefix = (name,) if name else ()
    if not isinstance(conditions, list):
        raise ConditionError("must be a list of conditions").at(*prefix)

    # a generator keeps any()/all() short-circuiting, as Kyverno stops at the deciding condition
    def outcomes() -> Iterator[bool]:
        for i, condition in enumerate(conditions):
            try:
                yield _one(condition, context)
            except RuleError as exc:
                raise exc.at(*prefix, i) from None

    return quantifier(outcomes())


def evaluate(block: Any, context: dict[str, Any]) -> bool:
    """True when the conditions hold. ``block`` is {any: [...], all: [...]} or a list (= all)."""
    if block is None:
        return True
    if isinstance(block, list):
        return _each(block, context, all, None)
    if not isinstance(block, dict):
        raise ConditionError("conditions must be a list or an object with any/all")
    result = True
    if block.get("any"):
        result = _each(block["any"], context, any, "any")
    if result and block.get("all"):
        result = _each(block["all"], context, all, "all")
    return result
