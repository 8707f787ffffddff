"""alert_analysis: alerts as a table (labels.* flattened) to filter, group, aggregate and page."""

from __future__ import annotations

from typing import Any

import duckdb

from sre.snapshot.alerts import load_alerts
from sre.snapshot.layout import require_dir
from sre.tools._common import (
    ToolArgs,
    ToolResult,
    ToolSpec,
    parse_time,
    quote_ident,
    table_query,
)

DESCRIPTION = (
    "Analyses alerts like SQL: filter -> group_by -> agg -> sort -> page. One row per alert per "
    "dump with columns labels.<name> for every label, state, activeAt, snapshot_time, value, file "
    "and duration_active_min (snapshot time - activeAt). Example: group_by='labels.alertname'. "
    "agg: count (default), first, last, nunique, list. time_basis chooses which time start_time "
    "and end_time filter on ('snapshot' or 'activeAt')."
)


class Args(ToolArgs):
    base_dir: str
    time_basis: str = "snapshot"
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
    dump = load_alerts(require_dir(args.base_dir, "the alerts folder"))
    label_names = sorted({k for a in dump.alerts for k in a.labels})
    records = []
    for a in dump.alerts:
        row: dict[str, Any] = {f"labels.{k}": a.labels.get(k) for k in label_names}
        row.update(
            state=a.state,
            activeAt=a.active_at,
            snapshot_time=a.observed_at,
            value=None if a.value is None else str(a.value),
            file=a.file,
            duration_active_min=(
                round((a.observed_at - a.active_at).total_seconds() / 60, 2)
                if a.observed_at and a.active_at
                else None
            ),
        )
        records.append(row)
    columns = [
        *(f"labels.{k}" for k in label_names),
        "state",
        "activeAt",
        "snapshot_time",
        "value",
        "file",
        "duration_active_min",
    ]
    time_col = "activeAt" if args.time_basis == "activeAt" else "snapshot_time"
    con = duckdb.connect()
    types = {"activeAt": "TIMESTAMP", "snapshot_time": "TIMESTAMP", "duration_active_min": "DOUBLE"}
    con.execute(
        "CREATE TABLE alerts ("
        + ", ".join(f"{quote_ident(c)} {types.get(c, 'VARCHAR')}" for c in columns)
        + ")"
    )
    if records:
        con.executemany(
            f"INSERT INTO alerts VALUES ({', '.join('?' for _ in columns)})",
            [[r[c] for c in columns] for r in records],
        )
    where, params = [], []
    start, end = parse_time(args.start_time, "start_time"), parse_time(args.end_time, "end_time")
    if start:
        where.append(f'"{time_col}" >= ?')
        params.append(start)
    if end:
        where.append(f'"{time_col}" <= ?')
        params.append(end)
    relation = "SELECT * FROM alerts" + (f" WHERE {' AND '.join(where)}" if where else "")
    out = table_query(
        con, relation, columns, what="alert_analysis", filters=args.filters, group_by=args.group_by,
        agg=args.agg, sort_by=args.sort_by, limit=args.limit, offset=args.offset,
        time_column=time_col, params=params,
    )  # fmt: skip
    return Result(**out, warnings=list(dump.warnings))


SPEC = ToolSpec("alert_analysis", DESCRIPTION, Args, run, {"base_dir": "alerts"})
