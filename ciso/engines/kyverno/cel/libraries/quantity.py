"""Kubernetes' quantity library: ``quantity``, ``isQuantity`` and the methods on a quantity.

A quantity crosses the evaluator as a one-key map holding its exact value as a fraction
(``{"@quantity": "3/2"}``), so that CEL's ``==`` compares quantities by value as Kubernetes
does (``quantity("1Gi") == quantity("1024Mi")``)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from ciso.engines.kyverno.jmespath.gotypes import Quantity

KEY = "@quantity"


def _make(value: Fraction) -> dict[str, str]:
    return {KEY: f"{value.numerator}/{value.denominator}"}


def _value(q: Any) -> Fraction:
    if not (isinstance(q, dict) and KEY in q):
        raise ValueError(f"no such overload: expected a quantity, got {type(q).__name__}")
    return Fraction(q[KEY])


def _parse(text: str) -> dict[str, str]:
    try:
        return _make(Quantity.parse(text).value)
    except ValueError:
        raise ValueError(f"quantities must match the regular expression: {text!r}") from None


def _is_quantity(text: str) -> bool:
    try:
        Quantity.parse(text)
    except ValueError:
        return False
    return True


def _compare(a: Any, b: Any) -> int:
    x, y = _value(a), _value(b)
    return (x > y) - (x < y)


def _as_integer(q: Any) -> int:
    value = _value(q)
    if value.denominator != 1 or not -(2**63) <= value.numerator < 2**63:
        raise ValueError("cannot convert value to integer")
    return value.numerator


def _other(value: Any) -> Fraction:
    return Fraction(value) if isinstance(value, int) else _value(value)


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "quantity": _parse,
    "isQuantity": _is_quantity,
    "compareTo": _compare,
    "isGreaterThan": lambda a, b: _compare(a, b) > 0,
    "isLessThan": lambda a, b: _compare(a, b) < 0,
    "add": lambda a, b: _make(_value(a) + _other(b)),
    "sub": lambda a, b: _make(_value(a) - _other(b)),
    "sign": lambda q: (_value(q) > 0) - (_value(q) < 0),
    "isInteger": lambda q: _value(q).denominator == 1,
    "asInteger": _as_integer,
    "asApproximateFloat": lambda q: float(_value(q)),
}
