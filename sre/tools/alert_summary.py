"""alert_summary: one row per (alertname, entity, severity) over every alert dump."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from sre.snapshot.alerts import load_alerts
from sre.snapshot.layout import require_dir
from sre.tools._common import ToolArgs, ToolResult, ToolSpec, iso, parse_time

DESCRIPTION = (
    "Summarises the alerts of the snapshot: one row per (alertname, entity, severity) with when it "
    "was first and last seen, for how long, and in how many dumps. entity is the first of the "
    "labels service_name, service, pod, deployment, instance, job, namespace (else cluster-wide). "
    "time_basis='snapshot' dates an alert by the dumps it appears in; 'activeAt' by its activeAt. "
    "Reads every *.json in base_dir (or base_dir/alerts) in any envelope: {data:{alerts}}, "
    "{alerts}, a list or one alert; unreadable dumps are skipped and named in warnings."
)


class Args(ToolArgs):
    base_dir: str
    time_basis: Literal["snapshot", "activeAt"] = "snapshot"
    start_time: str | None = None
    end_time: str | None = None
    state_filter: str | None = None
    min_duration_min: float | None = None
    limit: int = 50


class AlertGroup(BaseModel):
    alertname: str
    entity: str
    namespace: str | None
    severity: str | None
    state: str | None
    first_seen: str | None
    last_seen: str | None
    duration_min: float
    occurrences: int


class Result(ToolResult):
    alerts: list[AlertGroup]
    total_groups: int


def run(args: Args) -> Result:
    dump = load_alerts(require_dir(args.base_dir, "the alerts folder"))
    start, end = parse_time(args.start_time, "start_time"), parse_time(args.end_time, "end_time")
    groups: dict[tuple[str, str, str | None], list] = {}
    for alert in dump.alerts:
        if args.state_filter and (alert.state or "").lower() != args.state_filter.lower():
            continue
        key = (alert.labels.get("alertname", "?"), alert.entity, alert.labels.get("severity"))
        groups.setdefault(key, []).append(alert)
    rows = []
    for (name, entity, severity), members in groups.items():
        seen = sorted(a.observed_at for a in members if a.observed_at is not None)
        if args.time_basis == "activeAt":
            actives = [a.active_at for a in members if a.active_at is not None]
            first = min(actives) if actives else (seen[0] if seen else None)
        else:
            first = seen[0] if seen else None
        last = seen[-1] if seen else first
        if start and last and last < start or end and first and first > end:
            continue
        duration = (last - first).total_seconds() / 60 if first and last else 0.0
        if args.min_duration_min is not None and duration < args.min_duration_min:
            continue
        latest = max(members, key=lambda a: a.observed_at or a.active_at or first)
        rows.append(
            AlertGroup(
                alertname=name,
                entity=entity,
                namespace=latest.labels.get("namespace"),
                severity=severity,
                state=latest.state,
                first_seen=iso(first),
                last_seen=iso(last),
                duration_min=round(duration, 2),
                occurrences=len({a.file for a in members}),
            )
        )
    rows.sort(key=lambda r: (-r.duration_min, r.alertname, r.entity))
    return Result(
        alerts=rows[: args.limit] if args.limit else rows,
        total_groups=len(rows),
        warnings=list(dump.warnings),
    )


SPEC = ToolSpec("alert_summary", DESCRIPTION, Args, run, {"base_dir": "alerts"})
__all__ = ["SPEC", "Args", "Result", "run", "Path"]
