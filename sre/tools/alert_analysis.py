"""alert_analysis: alerts as a table (labels.* flattened) to filter, group, aggregate and page."""

from __future__ import annotations

import json
from datetime import datetime
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
    window_warning,
)

DESCRIPTION = (
    "Analyses alerts like SQL: filter -> group_by -> agg -> sort -> page. One row per alert per "
    "dump with every field of the alert flattened (labels.<name>, annotations.<name>, state, "
    "activeAt, value) plus snapshot_timestamp (the dump's time), duration_active_min (snapshot "
    "time - activeAt) and duration_active (the same, readable). Shortcuts: alertname, severity, "
    "service_name, namespace name the labels. Example: group_by='alertname'. agg: count "
    "(default), first, last, sum, mean, max, min (of value and duration_active_min), nunique, "
    "list. time_basis chooses which time start_time and end_time filter on ('snapshot' or "
    "'activeAt'). limit 0 or none: every row."
)

SHORTCUTS = {
    "alertname": "labels.alertname",
    "severity": "labels.severity",
    "service_name": "labels.service_name",
    "service": "labels.service_name",
    "namespace": "labels.namespace",
}
#: what the original computes beside the alert's own fields
DERIVED = ["duration_active_min", "duration_active", "snapshot_timestamp"]
TIMES = {"activeAt", "startsAt", "endsAt", "snapshot_timestamp"}


class Args(ToolArgs):
    base_dir: str
    time_basis: str = "snapshot"
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


def flatten(obj: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested objects as dotted columns, as ``pandas.json_normalize`` names them."""
    out: dict[str, Any] = {}
    for key, value in obj.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            out.update(flatten(value, name + "."))
        else:
            out[name] = value
    return out


def readable(minutes: float | None) -> str:
    if minutes is None:
        return "unknown"
    if minutes < 1:
        return "<1m"
    if minutes < 60:
        return f"{int(minutes)}m"
    if minutes < 1440:
        return f"{int(minutes // 60)}h {int(minutes % 60)}m"
    return f"{int(minutes // 1440)}d {int((minutes % 1440) // 60)}h"


def _number(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def run(args: Args) -> Result:
    dump = load_alerts(require_dir(args.base_dir, "the alerts folder"))
    records = []
    for a in dump.alerts:
        row = {k: v for k, v in flatten(a.raw).items() if not k.startswith("_")}
        minutes = None
        if a.observed_at and a.active_at and a.observed_at >= a.active_at:
            minutes = round((a.observed_at - a.active_at).total_seconds() / 60, 1)
        row.update(
            activeAt=a.active_at, value=_number(a.raw.get("value")), duration_active_min=minutes,
            duration_active=readable(minutes), snapshot_timestamp=a.observed_at,
        )  # fmt: skip
        records.append(row)
    columns = list(dict.fromkeys(k for r in records for k in r))
    if not columns:
        columns = ["labels.alertname", "state", "activeAt", "value", *DERIVED]
    resolve = lambda c: SHORTCUTS[c] if SHORTCUTS.get(c) in columns else c  # noqa: E731 - a one-line column resolver used in the comprehensions below
    if args.time_basis == "activeAt" or "snapshot_timestamp" not in columns:
        time_col = "activeAt"
    else:
        time_col = "snapshot_timestamp"
    con = duckdb.connect()

    def sql_type(c: str) -> str:
        if c in TIMES:
            return "TIMESTAMP"
        if c in ("value", "duration_active_min"):
            return "DOUBLE"
        return "VARCHAR"

    con.execute(
        "CREATE TABLE alerts ("
        + ", ".join(f"{quote_ident(c)} {sql_type(c)}" for c in columns)
        + ")"
    )
    if records:
        con.executemany(
            f"INSERT INTO alerts VALUES ({', '.join('?' for _ in columns)})",
            [[_cell(r.get(c), sql_type(c)) for c in columns] for r in records],
        )
    where, params = [], []
    start, end = parse_time(args.start_time, "start_time"), parse_time(args.end_time, "end_time")
    stamps = [r[time_col] for r in records if isinstance(r.get(time_col), datetime)]
    warnings = list(dump.warnings)
    note = window_warning(
        "the alerts", start, end, min(stamps, default=None), max(stamps, default=None)
    )
    if note:
        warnings.append(note)
    if start:
        where.append(f'"{time_col}" >= ?')
        params.append(start)
    if end:
        where.append(f'"{time_col}" <= ?')
        params.append(end)
    relation = "SELECT * FROM alerts" + (f" WHERE {' AND '.join(where)}" if where else "")
    group_by = args.group_by
    if group_by is not None:
        group_by = (
            resolve(group_by) if isinstance(group_by, str) else [resolve(g) for g in group_by]
        )
    out = table_query(
        con, relation, columns, what="alert_analysis",
        filters={resolve(k): v for k, v in (args.filters or {}).items()}, group_by=group_by,
        agg=args.agg, sort_by=resolve(args.sort_by) if args.sort_by else None, limit=args.limit,
        offset=args.offset, time_column=time_col, params=params,
        numeric=["value", "duration_active_min"],
        ascending=() if group_by else [c for c in columns if c not in ("duration_active_min", "value")],
    )  # fmt: skip
    # lists and objects (receivers, status.silencedBy ...) travel through the table as JSON text
    # and come back as what they were, as the original's json_normalize leaves them
    structured = {c for r in records for c, v in r.items() if isinstance(v, list | dict)}
    for row in out["data"]:
        for c in structured.intersection(row):
            row[c] = _structure(row[c])
    return Result(**out, warnings=warnings)


def _cell(value: Any, sql_type: str) -> Any:
    if sql_type == "VARCHAR" and isinstance(value, list | dict):
        return json.dumps(value, sort_keys=True)
    if sql_type == "VARCHAR" and value is not None and not isinstance(value, str):
        return str(value)
    return value


def _structure(value: Any) -> Any:
    if isinstance(value, str) and value[:1] in ("[", "{"):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value


SPEC = ToolSpec("alert_analysis", DESCRIPTION, Args, run, {"base_dir": "alerts"})
