"""get_trace_error_tree: call paths whose errors, latency or traffic changed around a pivot time."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from pydantic import BaseModel, Field

from sre.snapshot import SourceKind, open_source
from sre.snapshot.layout import require_file
from sre.tools._common import ToolArgs, ToolResult, ToolSpec, iso, parse_duration, parse_time

DESCRIPTION = (
    "Compares the service call paths of traces before and after a pivot time (windows of "
    "delta_time on each side) and flags the paths that changed: NEW (only after), DISAPPEARED "
    "(only before), CRITICAL (error rate up by error_threshold_pct points), WARNING (mean latency "
    "up by latency_threshold_pct percent, or traffic down by half). root_cause_suspect is the "
    "deepest service on the path whose own spans fail (or slow down). Errors are spans with "
    "StatusCode 'Error'. Fixes over the original: latency comes from Duration (ns) when there is "
    "no duration_ms; every span's path counts, not only one longest path per trace, so a service "
    "called beside a deeper chain is found; traffic collapses are flagged; span_kind filters the "
    "spans measured (e.g. 'Server'). pivot_time defaults to the first error span, else the middle "
    "of the traces."
)


class Args(ToolArgs):
    trace_file: str
    service_name: str | None = None
    span_kind: str | None = None
    pivot_time: str | None = None
    delta_time: str = "5m"
    error_threshold_pct: float = 10
    latency_threshold_pct: float = 10


class PathStats(BaseModel):
    traces: int = 0
    spans: int = 0
    errors: int = 0
    error_pct: float = 0.0
    mean_latency_ms: float | None = None
    p95_latency_ms: float | None = None


class CallPath(BaseModel):
    path: str
    hops: int
    pre: PathStats
    post: PathStats


class CriticalPath(BaseModel):
    path: str
    severity: str
    hops: int
    reason: str
    root_cause_suspect: str | None
    pre: PathStats
    post: PathStats
    sample_errors: list[str]


class Result(ToolResult):
    #: the original's key for this text
    description: str = Field(serialization_alias="_description")
    pivot_time: str | None
    window: dict[str, str | None]
    summary: dict[str, Any]
    all_paths: list[CallPath]
    critical_paths: list[CriticalPath]


_SEVERITY_ORDER = {"CRITICAL": 0, "NEW": 1, "DISAPPEARED": 2, "WARNING": 3}


def run(args: Args) -> Result:
    src = open_source(require_file(args.trace_file, "the traces file"), SourceKind.TRACES)
    con = src.con.cursor()
    delta = parse_duration(args.delta_time)
    pivot = parse_time(args.pivot_time, "pivot_time") or _default_pivot(con)
    if pivot is None:
        return Result(
            description="no spans in the traces file", pivot_time=None,
            window={"pre_start": None, "post_end": None}, summary={}, all_paths=[],
            critical_paths=[], warnings=src.warnings(),
        )  # fmt: skip
    lo, hi = pivot - delta, pivot + delta
    kind_filter, params = "", [lo, hi, pivot]
    if args.span_kind:
        kind_filter = "AND lower(s.span_kind) LIKE ?"
        params.append(f"%{args.span_kind.lower().removeprefix('span_kind_')}%")
    rows = con.execute(
        f"""
        SELECT call_path, ts >= $3 AS post, count(DISTINCT trace_id), count(*),
               count(*) FILTER (WHERE status_code ILIKE '%error%'),
               avg(duration_ns) / 1e6, quantile_cont(duration_ns, 0.95) / 1e6,
               list(DISTINCT status_message) FILTER (
                 WHERE status_code ILIKE '%error%' AND coalesce(status_message, '') <> '')
        FROM data s
        WHERE ts >= $1 AND ts < $2 AND call_path IS NOT NULL {kind_filter.replace("?", "$4")}
        GROUP BY ALL""",
        params,
    ).fetchall()
    stats: dict[tuple[str, ...], dict[bool, PathStats]] = {}
    messages: dict[tuple[str, ...], list[str]] = {}
    for path, post, traces, spans, errors, mean, p95, msgs in rows:
        key = tuple(path.split(" -> "))
        stats.setdefault(key, {})[bool(post)] = PathStats(
            traces=traces, spans=spans, errors=errors,
            error_pct=round(100 * errors / spans, 2) if spans else 0.0,
            mean_latency_ms=None if mean is None else round(mean, 3),
            p95_latency_ms=None if p95 is None else round(p95, 3),
        )  # fmt: skip
        if post and msgs:
            messages[key] = [m for m in msgs if m][:3]
    if args.service_name:
        wanted = args.service_name.lower()
        selected = {k: v for k, v in stats.items() if any(wanted == s.lower() for s in k)}
        if not selected:  # as loose as the entity references elsewhere
            selected = {k: v for k, v in stats.items() if any(wanted in s.lower() for s in k)}
    else:
        selected = stats
    pre_of = lambda k: stats.get(k, {}).get(False, PathStats())  # noqa: E731
    post_of = lambda k: stats.get(k, {}).get(True, PathStats())  # noqa: E731
    critical = []
    for key in selected:
        pre, post = pre_of(key), post_of(key)
        verdict = _verdict(pre, post, args)
        if verdict is None:
            continue
        severity, reason = verdict
        critical.append(
            CriticalPath(
                path=" -> ".join(key), severity=severity, hops=len(key) - 1, reason=reason,
                root_cause_suspect=_suspect(key, stats, pre_of, post_of, args, severity == "WARNING"),
                pre=pre, post=post,
                sample_errors=messages.get(key, []),
            )
        )  # fmt: skip
    critical.sort(key=lambda c: (_SEVERITY_ORDER[c.severity], -c.post.errors, -c.hops, c.path))
    ordered = sorted(selected, key=lambda k: (-(post_of(k).spans + pre_of(k).spans), k))
    totals = {
        phase: _total([v.get(flag) for v in selected.values()])
        for phase, flag in (("pre", False), ("post", True))
    }
    totals["delta"] = {
        k: (
            round(totals["post"][k] - totals["pre"][k], 3)
            if totals["post"][k] is not None and totals["pre"][k] is not None
            else None
        )
        for k in totals["pre"]
    }
    return Result(
        description=(
            f"call paths in [{iso(lo)}, {iso(pivot)}) vs [{iso(pivot)}, {iso(hi)}); "
            f"{len(critical)} of {len(selected)} paths changed"
        ),
        pivot_time=iso(pivot),
        window={"pre_start": iso(lo), "post_end": iso(hi)},
        summary=totals,
        all_paths=[
            CallPath(path=" -> ".join(k), hops=len(k) - 1, pre=pre_of(k), post=post_of(k))
            for k in ordered[:50]
        ],
        critical_paths=critical,
        warnings=src.warnings(),
    )


def _default_pivot(con):
    first_error, lo, hi = con.execute(
        "SELECT min(ts) FILTER (WHERE status_code ILIKE '%error%'), min(ts), max(ts) FROM data"
    ).fetchone()
    if first_error is not None:
        return first_error
    return None if lo is None else lo + (hi - lo) / 2


def _verdict(pre: PathStats, post: PathStats, args: Args) -> tuple[str, str] | None:
    if pre.spans == 0 and post.spans > 0:
        return "NEW", "only seen after the pivot"
    if post.spans == 0 and pre.spans > 0:
        return "DISAPPEARED", f"{pre.spans} span(s) before the pivot, none after"
    if post.error_pct - pre.error_pct >= args.error_threshold_pct:
        return "CRITICAL", f"error rate {pre.error_pct}% -> {post.error_pct}%"
    if pre.mean_latency_ms and post.mean_latency_ms is not None:
        rise = 100 * (post.mean_latency_ms - pre.mean_latency_ms) / pre.mean_latency_ms
        if rise >= args.latency_threshold_pct:
            return (
                "WARNING",
                f"mean latency {pre.mean_latency_ms} -> {post.mean_latency_ms} ms (+{rise:.0f}%)",
            )
    if pre.spans >= 4 and post.spans <= pre.spans / 2:
        return "WARNING", f"traffic {pre.spans} -> {post.spans} spans"
    return None


def _suspect(key, stats, pre_of, post_of, args: Args, latency_first: bool) -> str | None:
    """The deepest service whose own spans fail after the pivot (or slow down: first, for a path
    flagged for latency), on this path or on a longer path through it: errors and latency
    propagate up the call chain, so the deepest failing service is where they start."""
    related = [k for k in stats if k[: len(key)] == key or key[: len(k)] == k]

    def failing(k) -> bool:
        pre, post = pre_of(k), post_of(k)
        return bool(post.spans) and post.error_pct - pre.error_pct >= args.error_threshold_pct

    def slower(k) -> bool:
        pre, post = pre_of(k), post_of(k)
        if not (pre.mean_latency_ms and post.mean_latency_ms):
            return False
        rise = 100 * (post.mean_latency_ms - pre.mean_latency_ms) / pre.mean_latency_ms
        return rise >= args.latency_threshold_pct

    for test in (slower, failing) if latency_first else (failing, slower):
        hits = [k for k in related if test(k)]
        if hits:
            return max(hits, key=lambda k: (len(k), k))[-1]
    return None


def _total(parts: list[PathStats | None]) -> dict[str, Any]:
    got = [p for p in parts if p is not None]
    spans = sum(p.spans for p in got)
    errors = sum(p.errors for p in got)
    weighted = [p.mean_latency_ms * p.spans for p in got if p.mean_latency_ms is not None]
    return {
        "spans": spans,
        "errors": errors,
        "error_pct": round(100 * errors / spans, 2) if spans else 0.0,
        "mean_latency_ms": round(sum(weighted) / spans, 3) if spans and weighted else None,
    }


SPEC = ToolSpec(
    "get_trace_error_tree", DESCRIPTION, Args, run, {"trace_file": "otel_traces_raw.tsv"}
)
__all__ = ["SPEC", "Args", "Result", "run", "timedelta"]
