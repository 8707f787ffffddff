"""event_analysis: Kubernetes events flattened into columns to filter, group, aggregate and page."""

from __future__ import annotations

from typing import Any

from sre.snapshot import SourceKind, open_source
from sre.snapshot.layout import require_file
from sre.tools._common import ToolArgs, ToolResult, ToolSpec, parse_time, table_query

COLUMNS = [
    "object_kind", "object_name", "namespace", "reason", "message", "event_time", "event_kind",
    "watch_type", "count", "source_component", "deployment",
]  # fmt: skip

DESCRIPTION = (
    "Analyses Kubernetes events like SQL: filter -> group_by -> agg -> sort -> page. Columns: "
    + ", ".join(COLUMNS)
    + " (deployment is derived from Pod and ReplicaSet names). Both event shapes are read "
    "(involvedObject/message/lastTimestamp and events.k8s.io regarding/note/eventTime), and "
    "double-encoded bodies. Example: filters={'event_kind': 'Warning'}, group_by='reason'. "
    "agg: count (default), first, last, nunique, list. Malformed rows are skipped and counted "
    "in warnings with their line numbers."
)


class Args(ToolArgs):
    events_file: str
    filters: dict[str, Any] | None = None
    group_by: str | list[str] | None = None
    agg: str = "count"
    sort_by: str | None = None
    limit: int = 100
    offset: int = 0
    start_time: str | None = None
    end_time: str | None = None


class Result(ToolResult):
    total_count: int
    offset: int
    limit: int
    returned_count: int
    data: list[dict[str, Any]]


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
    relation = f"SELECT {', '.join(COLUMNS)} FROM data" + (
        f" WHERE {' AND '.join(where)}" if where else ""
    )
    out = table_query(
        src.con.cursor(), relation, COLUMNS, what="event_analysis", filters=args.filters,
        group_by=args.group_by, agg=args.agg, sort_by=args.sort_by, limit=args.limit,
        offset=args.offset, time_column="event_time", params=params,
    )  # fmt: skip
    return Result(**out, warnings=src.warnings())


SPEC = ToolSpec("event_analysis", DESCRIPTION, Args, run, {"events_file": "k8s_events_raw.tsv"})
