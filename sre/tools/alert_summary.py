"""alert_summary: one row per (alertname, entity, severity) over every alert dump."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel

from sre.snapshot.alerts import load_alerts
from sre.snapshot.layout import require_dir
from sre.tools._common import ToolArgs, ToolResult, ToolSpec, parse_time, window_warning

DESCRIPTION = (
    "Summarises the alerts of the snapshot: one row per (alertname, entity, severity) with when it "
    "was first and last seen firing, for how long, and how often. entity is the first of the "
    "labels service_name, service, pod, deployment, persistentvolumeclaim, instance, job, namespace "
    "(else cluster-wide). "
    "time_basis='snapshot' dates an alert by the dumps it appears in; 'activeAt' by its activeAt. "
    "Reads every *.json in base_dir (or base_dir/alerts) in any envelope: {data:{alerts}}, "
    "{alerts}, a list or one alert. Returns the list, longest-firing first."
)


class Args(ToolArgs):
    base_dir: str
    time_basis: Literal["snapshot", "activeAt"] = "snapshot"
    start_time: str | None = None
    end_time: str | None = None
    state_filter: str | None = None
    min_duration_min: float | None = None
    limit: int | None = 50


class AlertGroup(BaseModel):
    """One row of the original's answer, its keys and types."""

    alertname: str
    entity: str
    namespace: str
    severity: str
    state: str
    #: naive UTC as ``str(datetime)`` (``2025-12-12 02:25:00``), as the original writes them
    first_seen: str | None
    last_seen: str | None
    duration_min: float | None
    occurrences: int


class Result(ToolResult):
    alerts: list[AlertGroup]

    def answer(self) -> Any:
        return [a.model_dump(mode="json") for a in self.alerts]


def run(args: Args) -> Result:
    dump = load_alerts(require_dir(args.base_dir, "the alerts folder"))
    start, end = parse_time(args.start_time, "start_time"), parse_time(args.end_time, "end_time")
    by_activity = args.time_basis == "activeAt"
    warnings = list(dump.warnings)
    stamped = [a.active_at if by_activity else a.observed_at for a in dump.alerts]
    stamps = [s for s in stamped if s is not None]
    note = window_warning(
        "the alert dumps" if not by_activity else "the alerts' activeAt times",
        start, end, min(stamps, default=None), max(stamps, default=None),
    )  # fmt: skip
    if note:
        warnings.append(note)
    groups: dict[tuple[str, str, str], dict[str, Any]] = {}
    for alert in dump.alerts:
        seen = alert.observed_at
        outside = seen is not None and ((start and seen < start) or (end and seen > end))
        if not by_activity and outside:
            continue  # a dump outside the window
        key = (alert.labels.get("alertname", "Unknown"), alert.entity,
               alert.labels.get("severity", "unknown"))  # fmt: skip
        g = groups.setdefault(key, {"namespace": alert.labels.get("namespace", "unknown"),
                                    "times": set(), "n": 0, "states": set(),
                                    "latest": None, "state": None})  # fmt: skip
        state = alert.state or "unknown"
        g["n"] += 1
        g["states"].add(state)
        at = alert.active_at if by_activity else seen
        if at is None or g["latest"] is None or at >= g["latest"]:
            g["latest"] = at if at is not None else g["latest"]
            g["state"] = state
        if state == "firing":
            t = alert.active_at if by_activity else seen
            if t is not None and not (start and t < start) and not (end and t > end):
                g["times"].add(t)
    rows = []
    for (name, entity, severity), g in groups.items():
        times: list[datetime] = sorted(g["times"])
        first, last = (times[0], times[-1]) if times else (None, None)
        rows.append(
            AlertGroup(
                alertname=name, entity=entity, namespace=g["namespace"], severity=severity,
                state="firing" if "firing" in g["states"] else g["state"],
                first_seen=str(first) if first else None, last_seen=str(last) if last else None,
                duration_min=(
                    round((times[-1] - times[0]).total_seconds() / 60, 1) if times else None
                ),
                occurrences=g["n"],
            )
        )  # fmt: skip
    if args.state_filter:
        rows = [r for r in rows if r.state == args.state_filter]
    if start or end:  # a window keeps the alerts seen firing in it
        rows = [r for r in rows if r.first_seen is not None]
    if args.min_duration_min is not None:
        rows = [
            r
            for r in rows
            if (r.duration_min or 0) >= args.min_duration_min and r.duration_min is not None
        ]
    rows.sort(key=lambda r: (-(r.duration_min or 0), -r.occurrences))
    return Result(alerts=rows[: args.limit] if args.limit else rows, warnings=warnings)


SPEC = ToolSpec("alert_summary", DESCRIPTION, Args, run, {"base_dir": "alerts"})
