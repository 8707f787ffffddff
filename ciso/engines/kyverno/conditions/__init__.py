"""``preconditions`` and ``validate.deny.conditions``: any/all of key-operator-value; the
operators themselves are in ``operators.py``."""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Any

from ciso.engines.kyverno import budget
from ciso.engines.kyverno.conditions.operators import OPERATORS, OperatorError
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.variables import substitute


class ConditionError(RuleError):
    """A condition that cannot be evaluated (unknown operator, malformed block)."""


#: the classes of keys and values (alone or in a list) whose outcome is remembered
_SCALARS = frozenset({str, bool, int, float, type(None)})
_REMEMBERED: dict[tuple[Any, Hashable, Hashable], bool] = {}


def _frozen(value: Any) -> Hashable | None:
    """A hashable stand-in for a scalar or a list of scalars (None for anything else); the
    classes are part of it, as True, 1 and 1.0 are equal keys but not equal operands."""
    cls = value.__class__
    if cls in _SCALARS:
        return cls, value
    if cls is list and all(v.__class__ in _SCALARS for v in value):
        return list, tuple((v.__class__, v) for v in value)
    return None


def check(operator: str, key: Any, value: Any) -> bool:
    """One condition, by Kyverno's handler for ``operator`` (case-insensitive). The operators are
    pure: an outcome is remembered for scalar operands (the same operation, image or capability
    lists meet the same policy values for every resource)."""
    handler = OPERATORS.get(str(operator).lower())
    if handler is None:
        raise ConditionError(f"unknown condition operator {operator!r}")
    frozen_key, frozen_value = _frozen(key), _frozen(value)
    remembered = None
    if frozen_key is not None and frozen_value is not None:
        remembered = (handler, frozen_key, frozen_value)
        found = _REMEMBERED.get(remembered)
        if found is not None:
            return found
    try:
        outcome = handler(key, value)
    except OperatorError as exc:
        raise ConditionError(str(exc)) from None
    if remembered is not None:
        if len(_REMEMBERED) > 100_000:  # bounded: keys such as names are unique per resource
            _REMEMBERED.clear()
        _REMEMBERED[remembered] = outcome
    return outcome


def _one(condition: Any, context: dict[str, Any]) -> bool:
    budget.tick()
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
