"""The per-span call paths of a traces file (every span's service path from its trace's root),
compared before and after a pivot: what get_trace_error_tree answered before it followed the
original's grouping of whole traces, kept beside it (``paths``, ``span_critical_paths``) because
a service called beside a deeper chain, which the original's longest chain leaves out, is found
here; the baseline agent reads its suspects. Also the data models both analyses share."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from pydantic import BaseModel

#: how the original joins the services of a path
ARROW = " → "
_SEVERITY_ORDER = {"CRITICAL": 0, "NEW": 1, "DISAPPEARED": 2, "WARNING": 3}


class Thresholds(Protocol):
    error_threshold_pct: float
    latency_threshold_pct: float


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
    #: absent (not null) when no service is above 50 % errors, as in the original
    root_cause_suspect: Suspect | None = None
    #: added: the deepest service of the path whose own errors (or latency) rose
    deepest_suspect: Suspect | None = None
    #: added: why the path is flagged, and its own figures before and after
    reason: str
    pre: PathStats
    post: PathStats


@dataclass(frozen=True)
class SpanPaths:
    """Every span path's figures (the most active first, flagged ones before) and the flagged."""

    paths: list[CallPath]
    critical: list[CriticalPath]


def span_paths(
    con, lo: datetime, pivot: datetime, hi: datetime, seconds: float,
    span_kind: str | None, service_name: str | None, args: Thresholds,
) -> SpanPaths:  # fmt: skip
    """The spans' own paths between ``lo`` and ``hi`` split at ``pivot``; CRITICAL when the error
    rate rose by error_threshold_pct points, WARNING when mean latency rose by
    latency_threshold_pct percent or traffic halved; the suspect is the deepest failing service
    on the path or a longer one through it."""
    kind_filter = ""
    params: list[Any] = [lo, hi, pivot]
    if span_kind:
        kind_filter = "AND lower(s.span_kind) LIKE ?"
        params.append(f"%{span_kind.lower().removeprefix('span_kind_')}%")
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
    if service_name:
        wanted = service_name.lower()
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
        hops = [
            hop(key[i], _figures(pre_of(key[: i + 1])), _figures(post_of(key[: i + 1])), seconds)
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
    # every path of the file is listed, the quiet ones at 0/s
    quiet = [
        tuple(p.split(" -> "))
        for (p,) in con.execute(
            "SELECT DISTINCT call_path FROM data WHERE call_path IS NOT NULL ORDER BY 1"
        ).fetchall()
    ]
    if service_name:
        wanted = service_name.lower()
        quiet = [k for k in quiet if any(wanted in s.lower() for s in k)]
    ordered = sorted(
        selected,
        key=lambda k: (
            _SEVERITY_ORDER.get(flagged.get(ARROW.join(k), ""), 9),
            -(post_of(k).spans + pre_of(k).spans), k,
        ),
    ) + [k for k in quiet if k not in selected]  # fmt: skip
    return SpanPaths(
        paths=[
            CallPath(path=ARROW.join(k), hops=len(k) - 1, pre=pre_of(k), post=post_of(k))
            for k in ordered[:50]
        ],
        critical=critical,
    )


def rate(per_second: float) -> str:
    return f"{per_second:.2f}/s" if per_second < 1 else f"{per_second:.0f}/s"


def latency(ms: float | None) -> str:
    ms = ms or 0.0
    if ms < 1:
        return f"{ms:.2f}ms"
    if ms < 1000:
        return f"{ms:.0f}ms"
    if ms < 60000:
        return f"{ms / 1000:.1f}s"
    return f"{ms / 60000:.1f}m"


@dataclass(frozen=True)
class HopFigures:
    """One service's figures in one window, as a hop prints them."""

    spans: int
    error_pct: float
    p99_ms: float | None


def hop(service: str, pre: HopFigures, post: HopFigures, seconds: float) -> Hop:
    """A service on a path, its traffic, errors and p99 before → after (both trace tree views)."""
    return Hop(
        service=service,
        traffic=f"{rate(pre.spans / seconds)} → {rate(post.spans / seconds)}",
        error_rate=f"{pre.error_pct:.0f}% → {post.error_pct:.0f}%",
        latency_p99=f"{latency(pre.p99_ms)} → {latency(post.p99_ms)}",
    )


def _figures(stats: PathStats) -> HopFigures:
    return HopFigures(stats.spans, stats.error_pct, stats.p99_latency_ms)


def _suspect_reason(service: str, key, stats, pre_of, post_of) -> str:
    related = [
        k for k in stats if k and k[-1] == service and (k[: len(key)] == key or key[: len(k)] == k)
    ]
    post = max((post_of(k) for k in related), key=lambda p: p.error_pct, default=None)
    pre = max((pre_of(k) for k in related), key=lambda p: p.error_pct, default=None)
    if post and pre and post.error_pct > pre.error_pct:
        return f"{post.error_pct:.0f}% error rate"
    return "latency rose"


def _verdict(pre: PathStats, post: PathStats, args: Thresholds) -> tuple[str, str] | None:
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


def _suspect(key, stats, pre_of, post_of, args: Thresholds, latency_first: bool) -> str | None:
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
