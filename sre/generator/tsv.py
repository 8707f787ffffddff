"""Writing the snapshot's TSV files the way the originals were exported (pandas ``to_csv`` with a
tab separator): a field holding a quote, tab or newline is quoted and its quotes doubled.

Rows are streamed to disk; ``TsvWriter.bytes`` lets the size-targeted writers know when to stop.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from types import TracebackType
from typing import Any

LOG_COLUMNS = (
    "Timestamp",
    "TraceId",
    "SpanId",
    "SeverityText",
    "SeverityNumber",
    "ServiceName",
    "Body",
    "ResourceAttributes",
    "LogAttributes",
)
TRACE_COLUMNS = (
    "Timestamp",
    "TraceId",
    "SpanId",
    "ParentSpanId",
    "SpanName",
    "SpanKind",
    "ServiceName",
    "ResourceAttributes",
    "SpanAttributes",
    "Duration",
    "StatusCode",
    "StatusMessage",
)
METRIC_COLUMNS = ("metric_name", "timestamp", "value", "tags")


def field(value: str) -> str:
    """One TSV field, quoted only when it must be (the csv module's QUOTE_MINIMAL rule)."""
    if '"' in value or "\t" in value or "\n" in value or "\r" in value:
        return '"' + value.replace('"', '""') + '"'
    return value


def json_field(obj: Any) -> str:
    return field(json.dumps(obj, separators=(",", ":"), sort_keys=True))


def clickhouse_time(t: dt.datetime, extra_ns: int = 0) -> str:
    """``2025-06-02 08:15:00.123456789``: ClickHouse DateTime64(9), the exporter's UTC time."""
    ns = t.microsecond * 1000 + extra_ns
    return f"{t:%Y-%m-%d %H:%M:%S}.{ns:09d}"


def rfc3339(t: dt.datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


class TsvWriter:
    """Append-only TSV file with a header row; counts the bytes it wrote."""

    def __init__(self, path: Path, columns: tuple[str, ...]) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        # a large buffer: the 1 GB profile writes millions of short lines
        self._fh = path.open("w", encoding="utf-8", newline="", buffering=1 << 20)
        self.bytes = 0
        self.rows = 0
        self.write_line("\t".join(columns))

    def write_line(self, line: str) -> None:
        self._fh.write(line)
        self._fh.write("\n")
        # ASCII-only content in practice; len() is the byte count without an encode per line
        self.bytes += len(line) + 1

    def row(self, *fields: str) -> None:
        self.write_line("\t".join(fields))
        self.rows += 1

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> TsvWriter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
