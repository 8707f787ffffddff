"""Epoch numbers, told apart by their size: the one reader of the unit thresholds, shared by the
snapshot readers (foreign exports in Python, raw files through the SQL macro ``epoch_ts``
generated here) and the tools' time arguments, so a number reads as the same moment everywhere.

Seconds, milliseconds, microseconds and nanoseconds since 1970 differ by a factor of 1000, so any
moment between 1973 and 5138 has exactly one reading: below 1e11 seconds, below 1e14
milliseconds, below 1e17 microseconds, else nanoseconds."""

from __future__ import annotations

import re

#: (|n| below this, nanoseconds per unit): seconds, milliseconds, microseconds; nanoseconds beyond
UNITS: tuple[tuple[float, int], ...] = ((1e11, 10**9), (1e14, 10**6), (1e17, 10**3))

#: the digits (before any fraction) an epoch number written as text has: from 9 (September 2001
#: in seconds) to 19 (nanoseconds), so that a small number (a row counter, a port) is no moment
DIGITS = (9, 19)
TEXT = re.compile(rf"^\s*[0-9]{{{DIGITS[0]},{DIGITS[1]}}}(\.[0-9]+)?\s*$")


def epoch_ns(number: float) -> int:
    """Nanoseconds since 1970 of an epoch number in any of the four units."""
    for limit, ns_per_unit in UNITS:
        if abs(number) < limit:
            return round(number * ns_per_unit)
    return round(number)


def sql_macro() -> str:
    """``epoch_ts(n)``: the DuckDB timestamp (microseconds) of an epoch number, by :data:`UNITS`."""
    cases = " ".join(
        f"WHEN n < {limit:.0e} THEN n * {ns // 1000}".replace("+", "") for limit, ns in UNITS
    )
    return (
        "CREATE OR REPLACE MACRO epoch_ts(n) AS "
        f"make_timestamp(CAST(CASE {cases} ELSE n / 1e3 END AS BIGINT))"
    )


#: the SQL pattern of :data:`TEXT` (DuckDB's regexp_full_match: no anchors, no spaces)
SQL_TEXT = rf"[0-9]{{{DIGITS[0]},{DIGITS[1]}}}(\.[0-9]+)?"
