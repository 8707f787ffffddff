"""One reading of epoch numbers everywhere (review leftover of issue 28): a tool argument, a
foreign export's field and a raw file's timestamp column told seconds, milliseconds,
microseconds and nanoseconds apart by three separately written rules; a pivot_time copied out of
an OTLP export in nanoseconds was refused by the tools though the snapshot read the same number."""

from __future__ import annotations

import calendar
from datetime import datetime

import duckdb
import pytest

from itbench.errors import UsageError
from sre.snapshot import foreign
from sre.snapshot.sql import MACROS
from sre.tools._common import parse_time

#: 2027-01-02 03:04:05.678 UTC, a moment of our own, written in each unit
WHEN = datetime(2027, 1, 2, 3, 4, 5, 678000)
WHOLE = calendar.timegm(WHEN.timetuple())
TEXTS = {
    "s": f"{WHOLE}.678",
    "ms": f"{WHOLE}678",
    "us": f"{WHOLE}678000",
    "ns": f"{WHOLE}678000000",
}
MICROS = WHOLE * 10**6 + 678000


def _sql() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    for macro in MACROS:
        con.execute(macro)
    return con


@pytest.mark.parametrize("unit", sorted(TEXTS))
def test_a_tool_argument_in_any_epoch_unit_is_the_same_moment(unit: str):
    assert parse_time(TEXTS[unit], "pivot_time") == WHEN


@pytest.mark.parametrize("unit", sorted(TEXTS))
def test_the_sql_reader_and_the_python_reader_agree(unit: str):
    (got,) = _sql().execute("SELECT parse_ts(?)", [TEXTS[unit]]).fetchone()
    assert got == WHEN
    assert abs(foreign._epoch_ns(TEXTS[unit]) / 1000 - MICROS) <= 1


@pytest.mark.parametrize(
    "number",
    # one below and one at each threshold between units
    [99_999_999_999, 100_000_000_000, 99_999_999_999_999, 100_000_000_000_000,
     99_999_999_999_999_999, 100_000_000_000_000_000],
)  # fmt: skip
def test_the_thresholds_between_units_are_the_same_in_sql_and_python(number: int):
    from sre.snapshot import epoch  # the one reader (absent before it was made one)

    (sql,) = _sql().execute("SELECT epoch_us(parse_ts(?))", [str(number)]).fetchone()
    assert abs(sql - epoch.epoch_ns(float(number)) / 1000) <= 1


@pytest.mark.parametrize("text", ["12345678", "12345678901234567890"])
def test_numbers_too_short_or_too_long_are_no_epoch(text: str):
    with pytest.raises(UsageError, match="ISO 8601"):
        parse_time(text, "pivot_time")
