"""event_analysis: Kubernetes events flattened into columns to filter, group, aggregate and page."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sre.snapshot import SourceKind, open_source
from sre.snapshot.layout import require_file
from sre.tools._common import (
    ToolArgs,
    ToolResult,
    ToolSpec,
    parse_time,
    table_query,
    window_warning,
)

COLUMNS = [
    "object_kind", "object_name", "namespace", "reason", "message", "event_time", "event_kind",
    "watch_type", "count", "source_component", "log_timestamp", "deployment",
]  # fmt: skip

DESCRIPTION = (
    "Analyses Kubernetes events like SQL: filter -> group_by -> agg -> sort -> page. Columns: "
    + ", ".join(COLUMNS)
    + " (deployment is derived from Pod and ReplicaSet names; log_timestamp is the row's "
    "Timestamp as written). Both event shapes are read "
    "(involvedObject/message/lastTimestamp and events.k8s.io regarding/note/eventTime), and "
    "double-encoded bodies. Example: filters={'event_kind': 'Warning'}, group_by='reason'. "
    "agg: count (default), first, last, nunique (columns <col>_unique), list (the distinct "
    "reasons, messages and event kinds, up to 10). limit 0 or none: every row."
)


class Args(ToolArgs):
    events_file: str
    filters: dict[str, Any] | None = None
    group_by: str | list[str] | None = None
    agg: str = "count"
    sort_by: str | None = None
    limit: int | None = None
    offset: int = 0
    start_time: str | None = None
    end_time: str | None = None


class Result(ToolResult):
    total_count: int
    offset: int
    limit: int | str
    returned_count: int
    data: list[dict[str, Any]]


def _utc(value: datetime) -> str:
    """event_time as the original prints its tz-aware column: ``2025-12-12 02:20:30+00:00``."""
    return f"{value}+00:00"


def run(args: Args) -> Result:
    src = open_source(require_file(args.events_file, "the events file"), SourceKind.EVENTS)
    where, params = [], []
    start, end = parse_time(args.start_time, "start_time"), parse_time(args.end_time, "end_time")
    if start:
        where.append("event_time >= ?")
        params.append(start)
    if end:
        where.append("event_time <= ?")
        params.append(end)
    con = src.con.cursor()
    first, last = con.execute("SELECT min(event_time), max(event_time) FROM data").fetchall()[0]
    warnings = src.warnings()
    note = window_warning("the events", start, end, first, last)
    if note:
        warnings.append(note)
    relation = f"SELECT {', '.join(COLUMNS)} FROM data" + (
        f" WHERE {' AND '.join(where)}" if where else ""
    )
    out = table_query(
        con, relation, COLUMNS, what="event_analysis", filters=args.filters,
        group_by=args.group_by, agg=args.agg, sort_by=args.sort_by, limit=args.limit,
        offset=args.offset, time_column="event_time", params=params,
        listed=["reason", "message", "event_kind"], stamp=_utc,
        ascending=() if args.group_by else COLUMNS,
    )  # fmt: skip
    return Result(**out, warnings=warnings)


SPEC = ToolSpec("event_analysis", DESCRIPTION, Args, run, {"events_file": "k8s_events_raw.tsv"})
