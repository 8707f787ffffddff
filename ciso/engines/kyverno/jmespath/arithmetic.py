"""Arithmetic: add, sum, subtract, multiply, divide, modulo, round. Operands are numbers,
Kubernetes quantities or Go durations (a string is a quantity when it parses as one, else a
duration); which pairs combine, and the type of the result, follow Kyverno's operand rules."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from jmespath import functions

from ciso.engines.kyverno.jmespath.gotypes import (
    Quantity,
    parse_duration,
)
from ciso.engines.kyverno.jmespath.strings import FunctionError
from itbench.gotime import format_duration

if TYPE_CHECKING:  # the stubs name the shape of a signature argument
    from jmespath.functions import _Signature

_OPERAND: _Signature = {"types": ["number", "string"]}


class _Duration(int):
    """Nanoseconds, told apart from plain numbers."""


def _operand(value: Any, function: str) -> Fraction | Quantity | _Duration:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return Fraction(value)
    if isinstance(value, str):
        try:
            return Quantity.parse(value)
        except ValueError:
            pass
        try:
            return _Duration(parse_duration(value))
        except ValueError:
            pass
    raise FunctionError(f"{function}: invalid operand {value!r}")


def _number(value: Fraction) -> float | int:
    return int(value) if value.denominator == 1 else float(value)


def _mismatch(function: str) -> FunctionError:
    return FunctionError(f"{function}: types mismatch")


def _zero(function: str) -> FunctionError:
    return FunctionError(f"{function}: Zero divisor passed")


def add(left: Any, right: Any, function: str = "add") -> Any:
    a, b = _operand(left, function), _operand(right, function)
    if isinstance(a, Quantity) and isinstance(b, Quantity):
        return str(Quantity(a.value + b.value, a.format))
    if isinstance(a, _Duration) and isinstance(b, _Duration):
        return format_duration(a + b)
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return _number(a + b)
    raise _mismatch(function)


def subtract(left: Any, right: Any) -> Any:
    a, b = _operand(left, "subtract"), _operand(right, "subtract")
    if isinstance(a, Quantity) and isinstance(b, Quantity):
        return str(Quantity(a.value - b.value, a.format))
    if isinstance(a, _Duration) and isinstance(b, _Duration):
        return format_duration(a - b)
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return _number(a - b)
    raise _mismatch("subtract")


def multiply(left: Any, right: Any) -> Any:
    a, b = _operand(left, "multiply"), _operand(right, "multiply")
    if isinstance(a, Fraction) and not isinstance(b, Fraction):
        a, b = b, a  # a number times a quantity or duration is that quantity or duration
    if isinstance(a, Quantity) and isinstance(b, Fraction):
        return str(Quantity(a.value * b, a.format))
    if isinstance(a, _Duration) and isinstance(b, Fraction):
        return format_duration(int(a * b))
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return _number(a * b)
    raise _mismatch("multiply")


def divide(left: Any, right: Any) -> Any:
    a, b = _operand(left, "divide"), _operand(right, "divide")
    if isinstance(a, Quantity) and isinstance(b, Quantity):
        if b.value == 0:
            raise _zero("divide")
        return float(a.value / b.value)
    if isinstance(a, Quantity) and isinstance(b, Fraction):
        if b == 0:
            raise _zero("divide")
        return str(Quantity(a.value / b, a.format))
    if isinstance(a, _Duration) and isinstance(b, _Duration):
        if b == 0:
            raise _zero("divide")
        return float(Fraction(int(a), int(b)))
    if isinstance(a, _Duration) and isinstance(b, Fraction):
        if b == 0:
            raise _zero("divide")
        return format_duration(int(Fraction(int(a)) / b))
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        if b == 0:
            raise _zero("divide")
        return float(a / b)
    raise _mismatch("divide")


def _whole(value: Fraction) -> int:
    if value.denominator != 1:
        raise FunctionError("modulo: Non-integer argument(s) passed for modulo")
    return int(value)


def _go_mod(a: int, b: int) -> int:
    """Go's % truncates toward zero: the result has the dividend's sign."""
    result = abs(a) % abs(b)
    return -result if a < 0 else result


def modulo(left: Any, right: Any) -> Any:
    a, b = _operand(left, "modulo"), _operand(right, "modulo")
    if isinstance(a, Quantity) and isinstance(b, Quantity):
        dividend, divisor = _whole(a.value), _whole(b.value)
        if divisor == 0:
            raise _zero("modulo")
        return str(Quantity(Fraction(_go_mod(dividend, divisor)), a.format))
    if isinstance(a, _Duration) and isinstance(b, _Duration):
        if b == 0:
            raise _zero("modulo")
        return format_duration(_go_mod(int(a), int(b)))
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        dividend, divisor = _whole(a), _whole(b)
        if divisor == 0:
            raise _zero("modulo")
        return float(_go_mod(dividend, divisor))
    raise _mismatch("modulo")


class ArithmeticFunctions:
    @functions.signature(_OPERAND, _OPERAND)
    def _func_add(self, a: Any, b: Any) -> Any:
        return add(a, b)

    @functions.signature({"types": ["array"]})
    def _func_sum(self, items: list) -> Any:
        if not items:
            raise FunctionError("sum: at least one element in the array is required")
        total = items[0]
        for item in items[1:]:
            total = add(total, item, "sum")
        return total

    @functions.signature(_OPERAND, _OPERAND)
    def _func_subtract(self, a: Any, b: Any) -> Any:
        return subtract(a, b)

    @functions.signature(_OPERAND, _OPERAND)
    def _func_multiply(self, a: Any, b: Any) -> Any:
        return multiply(a, b)

    @functions.signature(_OPERAND, _OPERAND)
    def _func_divide(self, a: Any, b: Any) -> Any:
        return divide(a, b)

    @functions.signature(_OPERAND, _OPERAND)
    def _func_modulo(self, a: Any, b: Any) -> Any:
        return modulo(a, b)

    @functions.signature({"types": ["number"]}, {"types": ["number"]})
    def _func_round(self, value: float, digits: float) -> float:
        if float(digits) != int(digits):
            raise FunctionError("round: Non-integer argument(s) passed for round off")
        if digits < 0:
            raise FunctionError("round: Argument out of bounds")
        shift = 10 ** int(digits)
        scaled = value * shift
        # Go's math.Round rounds half away from zero (Python's round() goes to even)
        rounded = int(abs(scaled) + 0.5) * (1 if scaled >= 0 else -1)
        return rounded / shift
