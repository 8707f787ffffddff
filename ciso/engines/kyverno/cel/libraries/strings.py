"""Kubernetes' strings library (cel-go ext.Strings, version 2): what CEL's standard library
lacks for text, ``strings.quote`` and ``<string>.format(<list>)``.

``format`` is cel-go's formatting of strings versions 1 to 3 (``ext/formatting.go``; the
spec-conformant rewrite, with ``%v``, is version 4, which Kyverno does not enable): the clauses
``%s %d %f %e %b %x %X %o`` and ``%%``, ``%f``/``%e`` through golang.org/x/text's en-US number
formatting (``%f`` groups thousands: ``1,234.50``; ``%e`` is ``1.052033 × 10⁰³`` with narrow
no-break spaces, always six decimals: cel-go hands the precision over as a width). A value the
evaluator hands over without its CEL type (a ``type`` arrives as its name, a duration without
nanoseconds) formats as what arrives. Checks cel-go makes only while compiling a literal format
string against a literal list (too many arguments, a clause's type) are not made."""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from ciso.engines.kyverno import growth
from ciso.engines.kyverno.cel.syntax import namespaced


def _split(text: str, sep: str, limit: int = -1) -> list[str]:
    if limit == 0:
        return []
    if sep == "":
        chars = list(text)
        return (
            chars if limit < 0 or limit >= len(chars) else [*chars[: limit - 1], text[limit - 1 :]]
        )
    return text.split(sep) if limit < 0 else text.split(sep, limit - 1)


def _join(items: list[Any], sep: str = "") -> str:
    return sep.join(items)


def _index_of(text: str, sub: str, start: int = 0) -> int:
    if start < 0 or start > len(text):
        raise ValueError(f"index out of range: {start}")
    return text.find(sub, start)


def _last_index_of(text: str, sub: str, end: int | None = None) -> int:
    return text.rfind(sub) if end is None else text.rfind(sub, 0, end + len(sub))


def _substring(text: str, start: int, end: int | None = None) -> str:
    end = len(text) if end is None else end
    if not 0 <= start <= end <= len(text):
        raise ValueError(f"substring out of range: [{start}:{end}] of {len(text)}")
    return text[start:end]


def _replace(text: str, old: str, new: str, limit: int = -1) -> str:
    growth.check("replace", growth.replaced_length(text, old, new, limit))
    return text.replace(old, new, limit)


def _char_at(text: str, i: int) -> str:
    if not 0 <= i <= len(text):
        raise ValueError(f"index out of range: {i}")
    return text[i] if i < len(text) else ""


def go_quote(text: str) -> str:
    """Go's ``%q`` of a string (strconv.Quote): printable characters as they are, the usual
    escapes, ``\\xNN`` for other control bytes and ``\\uNNNN``/``\\UNNNNNNNN`` above."""
    out = ['"']
    for c in text:
        if c in _GO_ESCAPES:
            out.append(_GO_ESCAPES[c])
        elif c.isprintable():
            out.append(c)
        elif ord(c) < 0x20 or c == "\x7f":
            out.append(f"\\x{ord(c):02x}")
        elif ord(c) < 0x10000:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(f"\\U{ord(c):08x}")
    out.append('"')
    return "".join(out)


_GO_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
}


def _quote(text: str) -> str:
    """cel-go's strings.quote: in double quotes, with CEL's escapes for quote, backslash and
    the control characters that have one; every other character as it is."""
    if not isinstance(text, str):
        raise ValueError(f"no such overload: strings.quote({type(text).__name__})")
    return '"' + "".join(_GO_ESCAPES.get(c, c) for c in text) + '"'


# ---- format ---------------------------------------------------------------------------------

#: the largest precision accepted: cel-go before strings version 5 has none, but a precision of
#: millions would exhaust memory, so a larger one is an error here
MAX_PRECISION = 1000
#: the one-key maps other libraries hand over for their opaque CEL types, by key
_OPAQUE = {
    "@quantity": "kubernetes.Quantity",
    "@ip": "net.IP",
    "@cidr": "net.CIDR",
    "@url": "kubernetes.URL",
    "@format": "kubernetes.NamedFormat",
    "@semver": "kubernetes.Semver",
}


class FormatError(ValueError):
    """A clause that does not parse or does not fit its argument (cel-go's words)."""


def type_name(value: Any) -> str:
    """The CEL type name cel-go's errors show for ``value``."""
    if value is None:
        return "null_type"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "uint" if value > 2**63 - 1 else "int"
    if isinstance(value, dict) and len(value) == 1:
        key = next(iter(value))
        if key in _OPAQUE:
            return _OPAQUE[key]
    for python, name in (
        (float, "double"),
        (str, "string"),
        (bytes, "bytes"),
        (list, "list"),
        (dict, "map"),
        (timedelta, "google.protobuf.Duration"),
        (datetime, "google.protobuf.Timestamp"),
    ):
        if isinstance(value, python):
            return name
    return "optional_type" if type(value).__name__ == "OptionalValue" else type(value).__name__


def _digits(x: float) -> tuple[str, int]:
    """The shortest decimal digits that read back as ``x`` (x > 0) and the position of the
    decimal point after the first of them (Go's strconv ``digs.nd``/``digs.dp``)."""
    sign, digits, exponent = Decimal(repr(x)).as_tuple()
    text = "".join(map(str, digits))
    stripped = text.lstrip("0")
    point = len(text) + int(exponent) - (len(text) - len(stripped))
    return stripped.rstrip("0") or "0", point


def _fixed(digits: str, point: int, decimals: int) -> str:
    whole = (digits[:point].ljust(point, "0") if point > 0 else "") or "0"
    frac = "".join(
        digits[point + i] if 0 <= point + i < len(digits) else "0" for i in range(decimals)
    )
    return whole + ("." + frac if decimals else "")


def go_float(x: float) -> str:
    """Go's ``%g`` of a float64 (what cel-go's ``string(double)`` gives): the shortest digits
    that read back, in exponent form below 1e-4 and from 1e6 on (``1e+06``, ``2e-09``)."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "+Inf" if x > 0 else "-Inf"
    sign = "-" if math.copysign(1.0, x) < 0 else ""
    if x == 0:
        return sign + "0"
    digits, point = _digits(abs(x))
    exponent = point - 1
    if exponent < -4 or exponent >= 6:
        mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{sign}{mantissa}e{'-' if exponent < 0 else '+'}{abs(exponent):02d}"
    return sign + _fixed(digits, point, max(len(digits) - point, 0))


def _duration(value: timedelta) -> str:
    """cel-go's ``string(duration)``: the seconds, shortest, then "s"."""
    micros = (value.days * 86_400 + value.seconds) * 1_000_000 + value.microseconds
    seconds = micros // 1_000_000 + (micros % 1_000_000) / 1e6
    if seconds == 0:
        return "0s"
    digits, point = _digits(abs(seconds))
    sign = "-" if seconds < 0 else ""
    return sign + _fixed(digits, point, max(len(digits) - point, 0)) + "s"


def _timestamp(value: datetime) -> str:
    """Go's RFC 3339 with nanoseconds, as cel-go's ``string(timestamp)``."""
    text = f"{value.year:04d}-{value.month:02d}-{value.day:02d}T"
    text += f"{value.hour:02d}:{value.minute:02d}:{value.second:02d}"
    if value.microsecond:
        text += "." + f"{value.microsecond:06d}".rstrip("0")
    offset = value.utcoffset()
    if not offset:
        return text + "Z"
    minutes = int(offset.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    return text + f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def _bytes_text(value: bytes) -> str:
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        raise FormatError("invalid UTF-8 in bytes, cannot convert to string") from None


def _string_error(value: Any) -> FormatError:
    return FormatError(
        "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, "
        f"types, durations, and timestamps, was given {type_name(value)}"
    )


def _as_string(value: Any) -> str:
    """The ``%s`` clause (cel-go's FormatString)."""
    name = type_name(value)
    if name == "list":
        return "[" + ", ".join(_member(item) for item in value) + "]"
    if name == "map":
        return _map(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return go_float(value)
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return _bytes_text(value)
    if isinstance(value, timedelta):
        return _duration(value)
    if isinstance(value, datetime):
        return _timestamp(value)
    raise _string_error(value)


def _member(value: Any) -> str:
    """A list element or map value inside ``%s``: formatted and quoted as a CEL literal."""
    if isinstance(value, float):
        text = f"{value:.6f}" if math.isfinite(value) else go_float(value)
        return text if math.isfinite(value) else go_quote(text)
    if isinstance(value, timedelta):
        return f"duration({go_quote(_duration(value))})"
    if isinstance(value, datetime):
        return f"timestamp({go_quote(_timestamp(value))})"
    text = _as_string(value)
    if isinstance(value, str):
        return go_quote(text)
    if isinstance(value, bytes):
        return "b" + go_quote(text)
    return text


def _map(value: dict[Any, Any]) -> str:
    pairs = []
    for key, item in value.items():
        if not isinstance(key, (str, bool, int)):
            raise FormatError(f"no formatting function for map key of type {type_name(key)}")
        shown = go_quote(key) if isinstance(key, str) else _as_string(key)
        pairs.append((shown, _member(item)))
    pairs.sort(key=lambda pair: pair[0])
    return "{" + ", ".join(f"{k}:{v}" for k, v in pairs) + "}"


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _decimal(value: Any) -> str:
    if not _integer(value):
        raise FormatError(
            f"decimal clause can only be used on integers, was given {type_name(value)}"
        )
    return str(value)


_SPECIAL = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def _floating(value: Any, clause: str) -> float:
    if isinstance(value, float):
        return value
    if isinstance(value, str) and value in _SPECIAL:
        return _SPECIAL[value]
    raise FormatError(f"{clause} clause can only be used on doubles, was given {type_name(value)}")


def _not_finite(x: float) -> str:
    return "NaN" if math.isnan(x) else "∞" if x > 0 else "-∞"


def _fixed_clause(value: Any, precision: int | None) -> str:
    """x/text's en-US decimal: thousands grouped, ``precision`` decimals (6 by default); the
    sign of a negative number that rounds to zero kept, that of -0.0 not."""
    x = _floating(value, "fixed-point")
    if not math.isfinite(x):
        return _not_finite(x)
    decimals = 6 if precision is None else precision
    return ("-" if x < 0 else "") + f"{abs(x):,.{decimals}f}"


_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _scientific_clause(value: Any, precision: int | None) -> str:
    """x/text's en-US scientific form with six decimals; cel-go passes the precision as the
    width (``%.10e`` is Go's ``%10e``), so it pads on the left to that many characters."""
    x = _floating(value, "scientific")
    if math.isfinite(x):
        mantissa, _, exponent = f"{abs(x):.6e}".partition("e")
        power = int(exponent)
        sign = "⁻" if power < 0 else ""
        text = f"{'-' if x < 0 else ''}{mantissa}\u202f×\u202f10{sign}"
        text += f"{abs(power):02d}".translate(_SUPERSCRIPT)
    else:
        text = _not_finite(x)
    return text.rjust(precision or 0)


def _binary(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if _integer(value):
        return format(value, "b")
    raise FormatError(
        f"only integers and bools can be formatted as binary, was given {type_name(value)}"
    )


def _hex(value: Any, upper: bool) -> str:
    if isinstance(value, str):
        text = value.encode("utf-8").hex()
    elif isinstance(value, bytes):
        text = value.hex()
    elif _integer(value):
        text = format(value, "x")
    else:
        raise FormatError(
            "only integers, byte buffers, and strings can be formatted as hex, was given "
            + type_name(value)
        )
    return text.upper() if upper else text


def _octal(value: Any) -> str:
    if not _integer(value):
        raise FormatError(
            f"octal clause can only be used on integers, was given {type_name(value)}"
        )
    return format(value, "o")


def _precision(text: str, i: int) -> tuple[int, int | None]:
    """The precision after a '%' at ``text[i]`` if any: (index after it, value)."""
    if text[i] != ".":
        return i, None
    j = i + 1
    while j < len(text) and text[j] in "0123456789":
        j += 1
    if j >= len(text):
        raise FormatError(
            "could not parse formatting clause: error while parsing precision: could not find "
            "end of precision specifier"
        )
    digits = text[i + 1 : j]
    if not digits:
        raise FormatError(
            "could not parse formatting clause: error while parsing precision: error while "
            'converting precision to integer: strconv.Atoi: parsing "": invalid syntax'
        )
    if int(digits) > MAX_PRECISION:
        raise FormatError(
            f"could not parse formatting clause: precision {int(digits)} exceeds the maximum "
            f"this engine allows ({MAX_PRECISION})"
        )
    return j, int(digits)


def _clause(verb: str, value: Any, precision: int | None) -> str:
    if verb == "s":
        return _as_string(value)
    if verb == "d":
        return _decimal(value)
    if verb == "f":
        return _fixed_clause(value, precision)
    if verb == "e":
        return _scientific_clause(value, precision)
    if verb == "b":
        return _binary(value)
    if verb in "xX":
        return _hex(value, verb == "X")
    return _octal(value)


def _format(text: str, args: list[Any]) -> str:
    """``<string>.format(<list>)`` as cel-go's strings extension (versions 1 to 3) runs it."""
    if not isinstance(text, str) or not isinstance(args, list):
        raise ValueError(
            f"no such overload: {type_name(text)}.format({type_name(args)}): "
            "format takes a string and a list"
        )
    out: list[str] = []
    i, used = 0, 0
    while i < len(text):
        if text[i] != "%":
            out.append(text[i])
            i += 1
            continue
        if i + 1 < len(text) and text[i + 1] == "%":
            out.append("%")
            i += 2
            continue
        if used >= len(args):
            raise FormatError(f"index {used} out of range")
        if i + 1 >= len(text):
            raise FormatError("unexpected end of string")
        j, precision = _precision(text, i + 1)
        verb = text[j]
        if verb not in "sdfebxXo":
            raise FormatError(
                f'could not parse formatting clause: unrecognized formatting clause "{verb}"'
            )
        try:
            out.append(_clause(verb, args[used], precision))
        except FormatError as exc:
            raise FormatError(f"error during formatting: {exc}") from None
        used += 1
        i = j + 1
    return "".join(out)


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "format": _format,
    namespaced("strings", "quote"): _quote,
    "split": _split,
    "join": _join,
    "indexOf": _index_of,
    "lastIndexOf": _last_index_of,
    "substring": _substring,
    "replace": _replace,
    "charAt": _char_at,
    "lowerAscii": lambda s: "".join(c.lower() if c.isascii() else c for c in s),
    "upperAscii": lambda s: "".join(c.upper() if c.isascii() else c for c in s),
    "trim": lambda s: s.strip(" \t\n\r\v\f\u0085\u00a0"),
}
