"""cel-go's math extension (``ext.Math()``, every version: Kyverno sets none): ``math.greatest``
and ``math.least`` (cel-go's macros; one list or numbers), rounding, ``math.abs``/``math.sign``,
the floating point tests, the bitwise operations and ``math.sqrt``.

CEL's ``uint`` reaches Python as a plain ``int``: the evaluator returns an ``int`` of 2**63 or
more as a ``uint`` and anything smaller as an ``int``. So a value of 2**63 or more is known to be
a ``uint``; a smaller one is taken for an ``int`` (``math.bitNot(1u)`` gives ``-2``, not
``18446744073709551614u``). Kubernetes objects hold no ``uint`` (JSON numbers are ``int`` or
``double``): only a ``u`` literal or ``uint(...)`` in the expression itself can differ."""

from __future__ import annotations

import math
from typing import Any

from ciso.engines.kyverno.cel.syntax import namespaced

_INT64_MIN = -(2**63)
_UINT64_MAX = 2**64 - 1


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "uint" if value > 2**63 - 1 else "int"
    if isinstance(value, float):
        return "double"
    return type(value).__name__


def _no_overload(function: str, *args: Any) -> ValueError:
    shown = ", ".join(_type_name(a) for a in args)
    return ValueError(f"no such overload: math.{function}({shown})")


def _double(function: str, value: Any) -> float:
    """The argument of a function cel-go declares on ``double`` only."""
    if not isinstance(value, float):
        raise _no_overload(function, value)
    return value


def _ordered(function: str, values: list[Any]) -> list[Any]:
    """The numbers to choose from; cel-go's errors for an empty list, a non-number, NaN."""
    if not values:
        raise ValueError(f"math.{function}(list) argument must not be empty")
    for value in values:
        if not _is_number(value):
            raise _no_overload(function, value)
        if isinstance(value, float) and math.isnan(value):
            raise ValueError("NaN values cannot be ordered")
    return values


def _candidates(function: str, first: Any, rest: tuple[Any, ...]) -> list[Any]:
    # one list argument, or one or more numbers (cel-go's macro rejects a list among several)
    if not rest and isinstance(first, list):
        return _ordered(function, first)
    return _ordered(function, [first, *rest])


def _greatest(first: Any, *rest: Any) -> Any:
    # max() keeps the first of equal values, as cel-go's pairwise comparison does
    return max(_candidates("greatest", first, rest))


def _least(first: Any, *rest: Any) -> Any:
    return min(_candidates("least", first, rest))


def _integral(x: float, whole: float) -> float:
    """``whole`` with the sign of ``x`` when it is zero: Go's math.Ceil(-0.5) is -0.0."""
    return math.copysign(0.0, x) if whole == 0 else whole


def _ceil(x: float) -> float:
    x = _double("ceil", x)
    return x if not math.isfinite(x) else _integral(x, float(math.ceil(x)))


def _floor(x: float) -> float:
    x = _double("floor", x)
    return x if not math.isfinite(x) else _integral(x, float(math.floor(x)))


def _trunc(x: float) -> float:
    x = _double("trunc", x)
    return x if not math.isfinite(x) else _integral(x, float(math.trunc(x)))


def _round(x: float) -> float:
    """Go's math.Round: halves away from zero (Python's round() goes to even)."""
    x = _double("round", x)
    if not math.isfinite(x):
        return x
    whole = float(math.trunc(x))
    if abs(x - whole) >= 0.5:  # exact: x - trunc(x) has no rounding error for a double
        whole += math.copysign(1.0, x)
    return _integral(x, whole)


def _abs(x: Any) -> Any:
    if not _is_number(x):
        raise _no_overload("abs", x)
    if x == _INT64_MIN and isinstance(x, int):
        raise ValueError("integer overflow")
    return abs(x)


def _sign(x: Any) -> Any:
    if isinstance(x, float):
        if math.isnan(x):
            return x
        return 1.0 if x > 0 else -1.0 if x < 0 else 0.0
    if _is_integer(x):
        return (x > 0) - (x < 0)
    raise _no_overload("sign", x)


def _sqrt(x: Any) -> float:
    if not _is_number(x):
        raise _no_overload("sqrt", x)
    value = float(x)
    # Go's math.Sqrt: NaN for a negative number (Python's raises)
    return math.sqrt(value) if value >= 0 or math.isnan(value) else math.nan


def _bits(function: str, *values: Any) -> bool:
    """Whether the operands are uints (both at 2**63 or more, see the module note); an error
    for a non-integer or for an int beside a uint."""
    for value in values:
        if not _is_integer(value) or not _INT64_MIN <= value <= _UINT64_MAX:
            raise _no_overload(function, *values)
    unsigned = {value > 2**63 - 1 for value in values}
    if len(unsigned) > 1 and any(v < 0 for v in values):
        raise _no_overload(function, *values)
    return True in unsigned


def _signed(pattern: int) -> int:
    """The int64 whose two's complement bits are ``pattern`` (0 <= pattern < 2**64)."""
    return pattern - 2**64 if pattern > 2**63 - 1 else pattern


def _bit_and(a: Any, b: Any) -> int:
    _bits("bitAnd", a, b)
    return a & b


def _bit_or(a: Any, b: Any) -> int:
    _bits("bitOr", a, b)
    return a | b


def _bit_xor(a: Any, b: Any) -> int:
    _bits("bitXor", a, b)
    return a ^ b


def _bit_not(a: Any) -> int:
    return _UINT64_MAX - a if _bits("bitNot", a) else ~a


def _shift_amount(function: str, value: Any, bits: Any) -> bool:
    unsigned = _bits(function, value)
    if not _is_integer(bits) or bits > 2**63 - 1:
        raise _no_overload(function, value, bits)
    if bits < 0:
        raise ValueError(f"math.{function}() negative offset: {bits}")
    return unsigned


def _bit_shift_left(value: Any, bits: int) -> int:
    unsigned = _shift_amount("bitShiftLeft", value, bits)
    if bits >= 64:
        return 0
    pattern = (value << bits) & _UINT64_MAX
    return pattern if unsigned else _signed(pattern)


def _bit_shift_right(value: Any, bits: int) -> int:
    """cel-go shifts the 64-bit pattern: an int's sign is not extended."""
    _shift_amount("bitShiftRight", value, bits)
    if bits >= 64:
        return 0
    return _signed((value & _UINT64_MAX) >> bits)


def _is_inf(x: float) -> bool:
    return math.isinf(_double("isInf", x))


def _is_nan(x: float) -> bool:
    return math.isnan(_double("isNaN", x))


def _is_finite(x: float) -> bool:
    return math.isfinite(_double("isFinite", x))


FUNCTIONS = {
    namespaced("math", name): fn
    for name, fn in {
        "greatest": _greatest,
        "least": _least,
        "ceil": _ceil,
        "floor": _floor,
        "round": _round,
        "trunc": _trunc,
        "abs": _abs,
        "sign": _sign,
        "sqrt": _sqrt,
        "isInf": _is_inf,
        "isNaN": _is_nan,
        "isFinite": _is_finite,
        "bitAnd": _bit_and,
        "bitOr": _bit_or,
        "bitXor": _bit_xor,
        "bitNot": _bit_not,
        "bitShiftLeft": _bit_shift_left,
        "bitShiftRight": _bit_shift_right,
    }.items()
}
