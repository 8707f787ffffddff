"""Go and Kubernetes value types Kyverno's functions speak: Go durations (``1h30m0s``; printed
by ``itbench.gotime``), RFC 3339 times and Go time layouts, and Kubernetes quantities (``1536Mi``,
``500m``) with their canonical spelling. Results must read exactly as Kyverno prints them, since
policies compare the strings."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from fractions import Fraction

# -- numbers -------------------------------------------------------------------------------------

_GO_FLOAT = re.compile(
    r"^[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|[Ii]nf(?:inity)?|NaN)$"
)


def parse_float(text: str) -> float | None:
    """strconv.ParseFloat: no surrounding spaces, no underscores; None when it is no number."""
    return float(text) if _GO_FLOAT.match(text) else None


def is_number(value: object) -> bool:
    """A JSON number (Go's float64): an int or float that is not a bool."""
    return isinstance(value, int | float) and not isinstance(value, bool)


# -- durations (nanoseconds as int) ----------------------------------------------------------------

_UNIT_NS = {
    "ns": 1,
    "us": 1_000,
    "µs": 1_000,  # micro sign
    "μs": 1_000,  # greek mu
    "ms": 1_000_000,
    "s": 1_000_000_000,
    "m": 60_000_000_000,
    "h": 3_600_000_000_000,
}
_DURATION_PART = re.compile(r"(\d*\.?\d*)(ns|us|µs|μs|ms|s|m|h)")


def parse_duration(text: str) -> int:
    """Go's time.ParseDuration, in nanoseconds; ValueError when it is not a duration."""
    rest = text.strip()
    sign = -1 if rest.startswith("-") else 1
    rest = rest.lstrip("+-")
    if rest == "0":
        return 0
    if not rest:
        raise ValueError(f"invalid duration {text!r}")
    total = Fraction(0)
    position = 0
    while position < len(rest):
        match = _DURATION_PART.match(rest, position)
        if not match or match.group(1) in ("", "."):
            raise ValueError(f"invalid duration {text!r}")
        total += Fraction(match.group(1)) * _UNIT_NS[match.group(2)]
        position = match.end()
    return sign * int(total)


# -- times ---------------------------------------------------------------------------------------

_RFC3339 = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$"
)


def parse_rfc3339(text: str) -> dt.datetime:
    match = _RFC3339.match(text)
    if not match:
        raise ValueError(f'parsing time "{text}" as RFC3339: cannot parse')
    year, month, day, hour, minute, second = (int(g) for g in match.groups()[:6])
    fraction, zone = match.group(7), match.group(8)
    micro = int((fraction[1:] + "000000")[:6]) if fraction else 0
    tz = dt.UTC
    if zone not in ("Z", "z"):
        hours, minutes = int(zone[1:3]), int(zone[4:6])
        offset = dt.timedelta(hours=hours, minutes=minutes)
        tz = dt.timezone(offset if zone[0] == "+" else -offset)
    return dt.datetime(year, month, day, hour, minute, second, micro, tzinfo=tz)


def format_rfc3339(moment: dt.datetime) -> str:
    """Go's time.RFC3339 (whole seconds; ``Z`` for UTC, else ``+hh:mm``)."""
    offset = moment.utcoffset() or dt.timedelta(0)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    if offset == dt.timedelta(0):
        return text + "Z"
    minutes = int(offset.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    minutes = abs(minutes)
    return f"{text}{sign}{minutes // 60:02d}:{minutes % 60:02d}"


# Go layout tokens, longest first so that "January" wins over "Jan" and "2006" over "2"
_LAYOUT_TOKENS = [
    ("January", "%B"),
    ("Monday", "%A"),
    ("Z07:00", "%z"),
    ("-07:00", "%z"),
    ("-0700", "%z"),
    ("2006", "%Y"),
    ("Jan", "%b"),
    ("Mon", "%a"),
    ("MST", "%Z"),
    ("01", "%m"),
    ("02", "%d"),
    ("_2", "%d"),
    ("15", "%H"),
    ("03", "%I"),
    ("04", "%M"),
    ("05", "%S"),
    ("06", "%y"),
    ("PM", "%p"),
    ("pm", "%p"),
    ("1", "%m"),
    ("2", "%d"),
    ("3", "%I"),
    ("4", "%M"),
    ("5", "%S"),
]
_FRACTION = re.compile(r"[.,](0+|9+)")


def parse_layout(layout: str, text: str) -> dt.datetime:
    """Go's time.Parse(layout, text) for the common layout elements; a time without a zone is
    UTC, as in Go."""
    fmt, position, has_zone = "", 0, False
    while position < len(layout):
        fraction = _FRACTION.match(layout, position)
        if fraction and fmt.endswith("%S"):
            fmt += ".%f"  # Go's ".000" / ".999" fractional seconds
            position = fraction.end()
            continue
        for token, directive in _LAYOUT_TOKENS:
            if layout.startswith(token, position):
                fmt += directive
                has_zone |= directive in ("%z", "%Z")
                position += len(token)
                break
        else:
            char = layout[position]
            fmt += "%%" if char == "%" else char
            position += 1
    value = text.replace("Z", "+00:00") if "%z" in fmt else text
    try:
        moment = dt.datetime.strptime(value, fmt)
    except ValueError as exc:
        raise ValueError(f'parsing time "{text}" as "{layout}": {exc}') from None
    if not has_zone or moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment


# -- quantities ----------------------------------------------------------------------------------

_QUANTITY = re.compile(
    r"^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]))?$"
)
_DECIMAL_SUFFIX = {
    "n": -9,
    "u": -6,
    "m": -3,
    "": 0,
    "k": 3,
    "M": 6,
    "G": 9,
    "T": 12,
    "P": 15,
    "E": 18,
}
_BINARY_SUFFIX = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_DECIMAL_BY_EXPONENT = {v: k for k, v in _DECIMAL_SUFFIX.items()}
_BINARY_BY_POWER = {v // 10: k for k, v in _BINARY_SUFFIX.items()}
BINARY_SI, DECIMAL_SI, DECIMAL_EXPONENT = "BinarySI", "DecimalSI", "DecimalExponent"


@dataclass(frozen=True)
class Quantity:
    value: Fraction
    format: str

    @classmethod
    def parse(cls, text: str) -> Quantity:
        match = _QUANTITY.match(text.strip()) if isinstance(text, str) else None
        if not match:
            raise ValueError(f"{text!r} is not a quantity")
        number = Fraction(match.group(1))
        if match.group(2):
            return cls(number * Fraction(10) ** int(match.group(2)[1:]), DECIMAL_EXPONENT)
        suffix = match.group(3) or ""
        if suffix in _BINARY_SUFFIX:
            return cls(number * 2 ** _BINARY_SUFFIX[suffix], BINARY_SI)
        return cls(number * Fraction(10) ** _DECIMAL_SUFFIX[suffix], DECIMAL_SI)

    def __str__(self) -> str:
        """Kubernetes' canonical spelling (Quantity.String)."""
        value, fmt = self.value, self.format
        if fmt == BINARY_SI and (abs(value) < 1024 or value.denominator != 1):
            fmt = DECIMAL_SI  # small or fractional binary quantities print in decimal SI
        sign = "-" if value < 0 else ""
        magnitude = abs(value)
        if fmt == BINARY_SI:
            integer, power = int(magnitude), 0
            while power < 6 and integer % 1024 == 0 and integer:
                integer //= 1024
                power += 1
            return f"{sign}{integer}{_BINARY_BY_POWER.get(power, '')}"
        # decimal: round up to nano precision, then the largest exponent (a multiple of 3)
        # that keeps the mantissa whole
        nanos = -((-magnitude * 10**9) // 1)
        mantissa, exponent = int(nanos), -9
        if mantissa == 0:
            return "0"
        while mantissa % 1000 == 0 and exponent < 18:
            mantissa //= 1000
            exponent += 3
        if fmt == DECIMAL_EXPONENT:
            return f"{sign}{mantissa}" + (f"e{exponent}" if exponent else "")
        return f"{sign}{mantissa}{_DECIMAL_BY_EXPONENT[exponent]}"
