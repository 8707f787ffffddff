"""``preconditions`` and ``validate.deny.conditions``: any/all of key-operator-value; the
operators themselves are in ``operators.py``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ciso.engines.kyverno.conditions.operators import OPERATORS, OperatorError
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.variables import substitute


class ConditionError(RuleError):
    """A condition that cannot be evaluated (unknown operator, malformed block)."""


def check(operator: str, key: Any, value: Any) -> bool:
    """One condition, by Kyverno's handler for ``operator`` (case-insensitive)."""
    handler = OPERATORS.get(str(operator).lower())
    if handler is None:
        raise ConditionError(f"unknown condition operator {operator!r}")
    try:
        return handler(key, value)
    except OperatorError as exc:
        raise ConditionError(str(exc)) from None


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
