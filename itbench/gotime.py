"""Go's spelling of a duration (``time.Duration.String``): Kubernetes objects and policy engines'
functions print durations this way, and readers compare the strings."""

from __future__ import annotations


def _decimal(value: int, digits: int) -> str:
    """``value / 10**digits`` without trailing zeros, as Go prints duration fractions."""
    whole, frac = divmod(value, 10**digits)
    text = str(whole)
    if frac:
        text += "." + str(frac).rjust(digits, "0").rstrip("0")
    return text


def format_duration(ns: int) -> str:
    """Go's Duration.String of ``ns`` nanoseconds: ``72h3m0.5s``, ``1.5ms``, ``0s``."""
    if ns == 0:
        return "0s"
    sign = "-" if ns < 0 else ""
    u = abs(ns)
    if u < 1_000:
        return f"{sign}{u}ns"
    if u < 1_000_000:
        return f"{sign}{_decimal(u, 3)}µs"
    if u < 1_000_000_000:
        return f"{sign}{_decimal(u, 6)}ms"
    seconds = _decimal(u % 60_000_000_000, 9) + "s"
    minutes, hours = (u // 60_000_000_000) % 60, u // 3_600_000_000_000
    if hours:
        return f"{sign}{hours}h{minutes}m{seconds}"
    if minutes:
        return f"{sign}{minutes}m{seconds}"
    return sign + seconds
