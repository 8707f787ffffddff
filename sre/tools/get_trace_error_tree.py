"""get_trace_error_tree: call paths whose errors, latency or traffic changed around a pivot time."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from pydantic import BaseModel, Field

from sre.snapshot import SourceKind, open_source
from sre.snapshot.layout import require_file
from sre.tools._common import (
    ToolArgs,
    ToolResult,
    ToolSpec,
    iso,
    parse_duration,
    parse_time,
    window_warning,
)

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
    p99_latency_ms: float | None = None


class CallPath(BaseModel):
    path: str
    hops: int
    pre: PathStats
    post: PathStats


class Hop(BaseModel):
    """One service of a flagged path, before -> after, as the original writes it."""

    service: str
    traffic: str
    error_rate: str
    latency_p99: str


class Suspect(BaseModel):
    service: str
    reason: str


class CriticalPath(BaseModel):
    path: str
    severity: str
    hops: list[Hop]
    sample_errors: list[str]
    #: absent (not null) when no service stands out, as in the original
    root_cause_suspect: Suspect | None = None
    #: added: why the path is flagged, and its own figures before and after
    reason: str
    pre: PathStats
    post: PathStats


class Result(ToolResult):
    description: dict[str, Any] = Field(serialization_alias="_description")
    #: the original's own warnings key (set when pivot_time was not given)
    notes: list[str] = Field(default_factory=list, exclude=True)
    summary: dict[str, Any] | None = None
    all_paths: list[str]
    critical_paths: list[CriticalPath]
    filters_applied: dict[str, Any]
    #: added: the pivot used and the windows compared
    pivot_time: str | None
    window: dict[str, str | None]
    #: added: every path's figures (all_paths holds the original's one-line strings)
    paths: list[CallPath] = Field(default_factory=list)

    def answer(self) -> Any:
        out = self.model_dump(mode="json", by_alias=True)
        for c in out["critical_paths"]:
            if c["root_cause_suspect"] is None:
                del c["root_cause_suspect"]
        if self.notes:
            out = {"_description": out.pop("_description"), "warnings": self.notes, **out}
        if out["summary"] is None:
            del out["summary"]
        return out


#: how the original joins the services of a path
ARROW = " → "
_SEVERITY_ORDER = {"CRITICAL": 0, "NEW": 1, "DISAPPEARED": 2, "WARNING": 3}


def run(args: Args) -> Result:
    src = open_source(require_file(args.trace_file, "the traces file"), SourceKind.TRACES)
    con = src.con.cursor()
    delta = parse_duration(args.delta_time)
    asked = parse_time(args.pivot_time, "pivot_time")
    pivot = asked or _default_pivot(con)
    filters = {
        "service_name": args.service_name, "span_kind": args.span_kind,
        "pivot_time": args.pivot_time, "delta_time": args.delta_time if args.pivot_time else None,
        "error_threshold_pct": args.error_threshold_pct,
        "latency_threshold_pct": args.latency_threshold_pct,
    }  # fmt: skip
    warnings = src.warnings()
    if pivot is None:
        warnings.append("no spans in the traces file")
        return Result(
            description=_description(args, None, None, None), pivot_time=None,
            window={"pre_start": None, "post_end": None}, all_paths=[], critical_paths=[],
            filters_applied=filters, warnings=warnings,
        )  # fmt: skip
    lo, hi = pivot - delta, pivot + delta
    first, last = con.execute("SELECT min(ts), max(ts) FROM data").fetchall()[0]
    note = window_warning("the traces", lo, hi, first, last)
    if note:
        warnings.append(note)
    notes = []
    if asked is None:
        notes.append(
            "pivot_time not provided - compared around the first error span "
            f"({iso(pivot)}; the middle of the traces when none fails). Providing pivot_time "
            "is highly encouraged for incident investigation."
        )
    kind_filter, params = "", [lo, hi, pivot]
    if args.span_kind:
        kind_filter = "AND lower(s.span_kind) LIKE ?"
        params.append(f"%{args.span_kind.lower().removeprefix('span_kind_')}%")
    rows = con.execute(
        f"""
        SELECT call_path, ts >= $3 AS post, count(DISTINCT trace_id), count(*),
               count(*) FILTER (WHERE status_code ILIKE '%error%'),
               avg(duration_ns) / 1e6, quantile_cont(duration_ns, 0.95) / 1e6,
               quantile_cont(duration_ns, 0.99) / 1e6,
               list(DISTINCT status_message) FILTER (
                 WHERE status_code ILIKE '%error%' AND coalesce(status_message, '') <> '')
        FROM data s
        WHERE ts >= $1 AND ts < $2 AND call_path IS NOT NULL {kind_filter.replace("?", "$4")}
        GROUP BY ALL""",
        params,
    ).fetchall()
    stats: dict[tuple[str, ...], dict[bool, PathStats]] = {}
    messages: dict[tuple[str, ...], list[str]] = {}
    for path, post, traces, spans, errors, mean, p95, p99, msgs in rows:
        key = tuple(path.split(" -> "))
        stats.setdefault(key, {})[bool(post)] = PathStats(
            traces=traces, spans=spans, errors=errors,
            error_pct=round(100 * errors / spans, 2) if spans else 0.0,
            mean_latency_ms=None if mean is None else round(mean, 3),
            p95_latency_ms=None if p95 is None else round(p95, 3),
            p99_latency_ms=None if p99 is None else round(p99, 2),
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
    pre_of = lambda k: stats.get(k, {}).get(False, PathStats())  # noqa: E731 - one-line lookups, read like the table they index
    post_of = lambda k: stats.get(k, {}).get(True, PathStats())  # noqa: E731 - one-line lookups, read like the table they index
    critical = []
    for key in selected:
        pre, post = pre_of(key), post_of(key)
        verdict = _verdict(pre, post, args)
        if verdict is None:
            continue
        severity, reason = verdict
        seconds = delta.total_seconds() or 1
        hops = [
            _hop(key[i], pre_of(key[: i + 1]), post_of(key[: i + 1]), seconds)
            for i in range(len(key))
        ]
        suspect = _suspect(key, stats, pre_of, post_of, args, severity == "WARNING")
        critical.append(
            CriticalPath(
                path=ARROW.join(key), severity=severity, hops=hops, reason=reason,
                root_cause_suspect=None if suspect is None else Suspect(
                    service=suspect, reason=_suspect_reason(suspect, key, stats, pre_of, post_of)),
                pre=pre, post=post, sample_errors=messages.get(key, []),
            )
        )  # fmt: skip
    critical.sort(key=lambda c: (_SEVERITY_ORDER[c.severity], -c.post.errors, -len(c.hops), c.path))
    flagged = {c.path: c.severity for c in critical}
    # as in the original, all_paths lists the file's paths, the quiet ones at 0/s
    quiet = [
        tuple(p.split(" -> "))
        for (p,) in con.execute(
            "SELECT DISTINCT call_path FROM data WHERE call_path IS NOT NULL ORDER BY 1"
        ).fetchall()
    ]
    if args.service_name:
        wanted = args.service_name.lower()
        quiet = [k for k in quiet if any(wanted in s.lower() for s in k)]
    ordered = sorted(
        selected,
        key=lambda k: (
            _SEVERITY_ORDER.get(flagged.get(ARROW.join(k), ""), 9),
            -(post_of(k).spans + pre_of(k).spans), k,
        ),
    ) + [k for k in quiet if k not in selected]  # fmt: skip
    totals = {
        phase: _total([v.get(flag) for v in selected.values()])
        for phase, flag in (("pre", False), ("post", True))
    }
    summary: dict[str, Any] = {
        phase: None if not totals[phase]["span_count"] else totals[phase]
        for phase in ("pre", "post")
    }
    summary["delta"] = {
        k: round(totals["post"][k] - totals["pre"][k], 3)
        if isinstance(totals["post"][k], int | float) and isinstance(totals["pre"][k], int | float)
        else None
        for k in totals["pre"]
    }  # fmt: skip
    seconds = delta.total_seconds() or 1
    return Result(
        description=_description(args, lo, pivot, hi),
        notes=notes,
        pivot_time=iso(pivot),
        window={"pre_start": iso(lo), "post_end": iso(hi)},
        summary=summary,
        all_paths=[
            f"{ARROW.join(k)} [{_rate(post_of(k).spans / seconds)}]"
            + (f" ({flagged[ARROW.join(k)]})" if ARROW.join(k) in flagged else "")
            for k in ordered[:50]
        ],
        paths=[
            CallPath(path=ARROW.join(k), hops=len(k) - 1, pre=pre_of(k), post=post_of(k))
            for k in ordered[:50]
        ],
        critical_paths=critical,
        filters_applied=filters,
        warnings=warnings,
    )


def _description(args: Args, lo, pivot, hi) -> dict[str, Any]:
    return {
        "overview": "Critical path analysis - stats computed per unique service call path "
        "(every span's path from its trace's root), before and after the pivot",
        "time_windows": {
            "pre": f"[{iso(lo)}, {iso(pivot)}) = [pivot_time - {args.delta_time}, pivot_time)"
            if pivot else "N/A",
            "post": f"[{iso(pivot)}, {iso(hi)}) = [pivot_time, pivot_time + {args.delta_time}]"
            if pivot else "N/A",
        },
        "thresholds": {
            "error_rate_change_pct": args.error_threshold_pct,
            "latency_change_pct": args.latency_threshold_pct,
        },
        "note": "Each path groups the spans that follow the same service chain; hops give each "
        "service's own spans on it. Latency is read from Duration (ns).",
    }  # fmt: skip


def _rate(per_second: float) -> str:
    return f"{per_second:.2f}/s" if per_second < 1 else f"{per_second:.0f}/s"


def _latency(ms: float | None) -> str:
    ms = ms or 0.0
    if ms < 1:
        return f"{ms:.2f}ms"
    if ms < 1000:
        return f"{ms:.0f}ms"
    if ms < 60000:
        return f"{ms / 1000:.1f}s"
    return f"{ms / 60000:.1f}m"


def _hop(service: str, pre: PathStats, post: PathStats, seconds: float) -> Hop:
    return Hop(
        service=service,
        traffic=f"{_rate(pre.spans / seconds)} → {_rate(post.spans / seconds)}",
        error_rate=f"{pre.error_pct:.0f}% → {post.error_pct:.0f}%",
        latency_p99=f"{_latency(pre.p99_latency_ms)} → {_latency(post.p99_latency_ms)}",
    )


def _suspect_reason(service: str, key, stats, pre_of, post_of) -> str:
    related = [
        k for k in stats if k and k[-1] == service and (k[: len(key)] == key or key[: len(k)] == k)
    ]
    post = max((post_of(k) for k in related), key=lambda p: p.error_pct, default=None)
    pre = max((pre_of(k) for k in related), key=lambda p: p.error_pct, default=None)
    if post and pre and post.error_pct > pre.error_pct:
        return f"{post.error_pct:.0f}% error rate"
    return "latency rose"


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
        "trace_count": sum(p.traces for p in got),
        "span_count": spans,
        "error_rate_pct": round(100 * errors / spans, 1) if spans else 0.0,
        # the slowest path's p99: a bound on the pooled p99 the paths' figures allow
        "latency_p99_ms": max((p.p99_latency_ms or 0.0 for p in got), default=0.0),
        "spans": spans,
        "errors": errors,
        "error_pct": round(100 * errors / spans, 2) if spans else 0.0,
        "mean_latency_ms": round(sum(weighted) / spans, 3) if spans and weighted else None,
    }


SPEC = ToolSpec(
    "get_trace_error_tree", DESCRIPTION, Args, run, {"trace_file": "otel_traces_raw.tsv"}
)
__all__ = ["SPEC", "Args", "Result", "run", "timedelta"]
