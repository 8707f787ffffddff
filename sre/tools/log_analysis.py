"""log_analysis: log patterns (Drain templates) with counts, severities, services and times."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from sre.snapshot import SourceKind, open_source
from sre.snapshot.layout import require_file
from sre.tools._common import EntityRef, ToolArgs, ToolResult, ToolSpec, iso, parse_time
from sre.tools._drain import Drain

DESCRIPTION = (
    "Mines log templates (Drain, depth 4; UUIDs, IPs, hex and numbers masked) from the OTel logs "
    "and returns patterns with count, percentage, severity and service breakdowns, time range and "
    "an example. Filters: k8_object (namespace/Kind/name, Kind/name or name: matches the pod, "
    "deployment or service the log came from, read from the k8s.* resource attributes without "
    "evaluating them), service_name, severity_filter (e.g. ERROR), body_contains, start_time, "
    "end_time. pattern_analysis=false returns the matching log lines instead."
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
    similarity_threshold: float = 0.4
    limit: int = 100
    offset: int = 0


class Pattern(BaseModel):
    pattern: str
    count: int
    percentage: float
    severity_breakdown: dict[str, int]
    service_breakdown: dict[str, int]
    time_range: dict[str, str | None]
    example: str


class Result(ToolResult):
    total_logs: int
    pattern_count: int
    patterns: list[Pattern] = []
    logs: list[dict[str, Any]] = []


def run(args: Args) -> Result:
    src = open_source(require_file(args.logs_file, "the logs file"), SourceKind.LOGS)
    con = src.con.cursor()
    where, params = ["true"], []
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
    if args.severity_filter:
        where.append("upper(severity_text) = ?")
        params.append(args.severity_filter.upper())
    if args.body_contains:
        where.append("contains(lower(body), ?)")
        params.append(args.body_contains.lower())
    start, end = parse_time(args.start_time, "start_time"), parse_time(args.end_time, "end_time")
    if start:
        where.append("ts >= ?")
        params.append(start)
    if end:
        where.append("ts <= ?")
        params.append(end)
    cond = " AND ".join(where)
    total = con.execute(f"SELECT count(*) FROM data WHERE {cond}", params).fetchone()[0]
    if not args.pattern_analysis:
        rows = con.execute(
            f"SELECT ts, severity_text, service_name, pod, namespace, body FROM data WHERE {cond} "
            f"ORDER BY ts LIMIT {int(args.limit)} OFFSET {int(args.offset)}",
            params,
        ).fetchall()
        logs = [
            {
                "timestamp": iso(t),
                "severity": s,
                "service": svc,
                "pod": p,
                "namespace": n,
                "body": b,
            }
            for t, s, svc, p, n, b in rows
        ]
        return Result(total_logs=total, pattern_count=0, logs=logs, warnings=src.warnings())
    groups = con.execute(
        f"""SELECT template, coalesce(severity_text, ''), coalesce(service_name, ''), count(*),
                   min(ts), max(ts), any_value(body)
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
        patterns.append(
            Pattern(
                pattern=cluster.template, count=count,
                percentage=round(100 * count / total, 2) if total else 0.0,
                severity_breakdown=sev, service_breakdown=svc,
                time_range={"start": iso(min(m[4] for m in members)), "end": iso(max(m[5] for m in members))},
                example=max(members, key=lambda m: m[3])[6],
            )
        )  # fmt: skip
    patterns.sort(key=lambda p: (-p.count, p.pattern))
    page = patterns[args.offset : args.offset + args.max_patterns]
    return Result(
        total_logs=total, pattern_count=len(patterns), patterns=page, warnings=src.warnings()
    )


SPEC = ToolSpec("log_analysis", DESCRIPTION, Args, run, {"logs_file": "otel_logs_raw.tsv"})
