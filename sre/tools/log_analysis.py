"""log_analysis: log patterns (Drain templates) with counts, severities, services and times."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from sre.snapshot import SourceKind, open_source
from sre.snapshot.layout import require_file
from sre.tools._common import (
    EntityRef,
    ToolArgs,
    ToolResult,
    ToolSpec,
    parse_time,
    window_warning,
)
from sre.tools._drain import Drain

DESCRIPTION = (
    "Mines log templates (Drain, depth 4; UUIDs, IPs, hex and numbers masked) from the OTel logs "
    "and returns patterns with count, percentage, severity and service breakdowns, time range and "
    "an example. Filters: k8_object (namespace/Kind/name, Kind/name or name: matches the pod, "
    "deployment or service the log came from, read from the k8s.* resource attributes without "
    "evaluating them), service_name, severity_filter (e.g. ERROR or 'ERROR,WARN'), body_contains, start_time, "
    "end_time. max_patterns caps the patterns (most frequent first). pattern_analysis=false "
    "returns the matching log lines instead, newest first, paged by limit (0: all) and offset."
)


class Args(ToolArgs):
    logs_file: str
    k8_object: str | None = None
    service_name: str | None = None
    severity_filter: str | None = None
    body_contains: str | None = None
    start_time: str | None = None
    end_time: str | None = None
    pattern_analysis: bool = True
    max_patterns: int = 50
    similarity_threshold: float = 0.5
    limit: int | None = 100
    offset: int = 0


class Example(BaseModel):
    body: str
    timestamp: str | None
    service: str | None
    severity: str | None


class Pattern(BaseModel):
    pattern: str
    count: int
    percentage: float
    severity_breakdown: dict[str, int]
    service_breakdown: dict[str, int]
    time_range: dict[str, str | None]
    example: Example


class Result(ToolResult):
    """The original's pattern answer, its rows answer (pattern_analysis=false), or its empty one."""

    mode: str = Field(exclude=True)
    total: int = Field(exclude=True)
    filters_applied: dict[str, Any]
    similarity_threshold: float | None = Field(default=None, exclude=True)
    patterns: list[Pattern] = Field(default_factory=list, exclude=True)
    #: added: how many patterns there are before max_patterns cuts them
    total_patterns: int = Field(default=0, exclude=True)
    data: list[dict[str, Any]] = Field(default_factory=list, exclude=True)
    offset: int = Field(default=0, exclude=True)
    limit: int | str = Field(default="all", exclude=True)

    def answer(self) -> Any:
        key = "patterns" if self.mode == "patterns" else "data"
        if self.total == 0:
            return {"total_count": 0, "filters_applied": self.filters_applied, key: []}
        if self.mode == "patterns":
            # total_count: the key the original's empty answer has (where its k8_object filter,
            # reading only the k8s.deployment.name attribute, finds none and ours finds logs)
            return {
                "total_logs": self.total, "total_count": self.total,
                "pattern_count": len(self.patterns),
                "similarity_threshold": self.similarity_threshold,
                "filters_applied": self.filters_applied,
                "patterns": [p.model_dump(mode="json") for p in self.patterns],
                "total_patterns": self.total_patterns,
            }  # fmt: skip
        return {
            "total_count": self.total, "offset": self.offset, "limit": self.limit,
            "returned_count": len(self.data), "filters_applied": self.filters_applied,
            "data": self.data,
        }  # fmt: skip


def _utc(value: datetime | None) -> str | None:
    """A time as the original prints its tz-aware pandas column."""
    return None if value is None else f"{value}+00:00"


def run(args: Args) -> Result:
    src = open_source(require_file(args.logs_file, "the logs file"), SourceKind.LOGS)
    con = src.con.cursor()
    where: list[str] = ["true"]
    params: list[Any] = []
    if args.k8_object:
        ref = EntityRef.parse(args.k8_object)
        where.append("(lower(pod) = ? OR lower(deployment) = ? OR lower(service_name) = ?)")
        params += [ref.name.lower()] * 3
        if ref.namespace:
            where.append("lower(namespace) = ?")
            params.append(ref.namespace.lower())
    if args.service_name:
        where.append("lower(service_name) = ?")
        params.append(args.service_name.lower())
    if args.severity_filter:  # comma-separated, as the original reads it
        wanted = [s.strip().upper() for s in args.severity_filter.split(",") if s.strip()]
        where.append(f"upper(severity_text) IN ({', '.join('?' for _ in wanted)})")
        params += wanted
    if args.body_contains:
        where.append("contains(lower(body), ?)")
        params.append(args.body_contains.lower())
    start, end = parse_time(args.start_time, "start_time"), parse_time(args.end_time, "end_time")
    warnings = src.warnings()
    first, last = con.execute("SELECT min(ts), max(ts) FROM data").fetchall()[0]
    note = window_warning("the logs", start, end, first, last)
    if note:
        warnings.append(note)
    if start:
        where.append("ts >= ?")
        params.append(start)
    if end:
        where.append("ts <= ?")
        params.append(end)
    cond = " AND ".join(where)
    total = con.execute(f"SELECT count(*) FROM data WHERE {cond}", params).fetchall()[0][0]
    filters = {
        "k8_object": args.k8_object, "service_name": args.service_name,
        "severity_filter": args.severity_filter, "body_contains": args.body_contains,
        "start_time": args.start_time, "end_time": args.end_time,
    }  # fmt: skip
    if not args.pattern_analysis:
        limit = f" LIMIT {int(args.limit)}" if args.limit else ""
        rows = con.execute(
            f"""SELECT ts, service_name, severity_text, body, trace_id, span_id, deployment, pod,
                  namespace FROM data WHERE {cond}
                ORDER BY ts DESC{limit} OFFSET {int(args.offset)}""",
            params,
        ).fetchall()
        data = [
            {"Timestamp": _utc(t), "ServiceName": svc, "SeverityText": sev, "Body": b,
             "TraceId": tid, "SpanId": sid, "deployment": d, "pod": p, "namespace": n}
            for t, svc, sev, b, tid, sid, d, p, n in rows
        ]  # fmt: skip
        return Result(
            mode="rows", total=total, filters_applied=filters, data=data, offset=args.offset,
            limit=args.limit or "all", warnings=warnings,
        )  # fmt: skip
    groups = con.execute(
        f"""SELECT template, coalesce(severity_text, ''), coalesce(service_name, ''), count(*),
                   min(ts), max(ts), arg_min(body, ts), min(ts)
            FROM data WHERE {cond} GROUP BY ALL ORDER BY 4 DESC, 1""",
        params,
    ).fetchall()
    drain = Drain(depth=4, similarity=args.similarity_threshold)
    for i, g in enumerate(groups):
        drain.add(g[0] or "", i)
    patterns = []
    for cluster in drain.clusters:
        members = [groups[i] for i in cluster.members]
        count = sum(m[3] for m in members)
        sev: dict[str, int] = {}
        svc: dict[str, int] = {}
        for m in members:
            sev[m[1]] = sev.get(m[1], 0) + m[3]
            svc[m[2]] = svc.get(m[2], 0) + m[3]
        earliest = min(members, key=lambda m: m[7])
        patterns.append(
            Pattern(
                pattern=cluster.template, count=count,
                percentage=round(100 * count / total, 2) if total else 0.0,
                severity_breakdown=sev, service_breakdown=svc,
                time_range={"first": _utc(min(m[4] for m in members)),
                            "last": _utc(max(m[5] for m in members))},
                example=Example(body=(earliest[6] or "")[:500], timestamp=_utc(earliest[7]),
                                service=earliest[2], severity=earliest[1]),
            )
        )  # fmt: skip
    patterns.sort(key=lambda p: (-p.count, p.pattern))
    return Result(
        mode="patterns", total=total, filters_applied=filters,
        similarity_threshold=args.similarity_threshold, total_patterns=len(patterns),
        patterns=patterns[: args.max_patterns], warnings=warnings,
    )  # fmt: skip


SPEC = ToolSpec("log_analysis", DESCRIPTION, Args, run, {"logs_file": "otel_logs_raw.tsv"})
