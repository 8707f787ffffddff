"""get_trace_error_tree: call paths whose errors, latency or traffic changed around a pivot time."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from pydantic import Field

from sre.snapshot import SourceKind, open_source
from sre.snapshot.layout import require_file
from sre.snapshot.sql import header_columns
from sre.tools._common import (
    ToolArgs,
    ToolResult,
    ToolSpec,
    iso,
    parse_duration,
    parse_time,
    window_warning,
)
from sre.tools._span_paths import (
    ARROW,
    CallPath,
    CriticalPath,
    Hop,
    HopFigures,
    PathStats,
    Suspect,
    hop,
    rate,
    span_paths,
)

DESCRIPTION = (
    "Compares the service call paths of traces before and after a pivot time (windows of "
    "delta_time on each side), as the original: every trace is grouped by its service chain (the "
    "longest root-to-leaf path of its spans), and each path's figures are the spans of its "
    "traces whose service is on the path. A path is NEW (spans only after), DISAPPEARED (only "
    "before), CRITICAL (error rate changed by more than 50 %, or above 50 % after) or WARNING "
    "(error rate changed by more than error_threshold_pct percent). root_cause_suspect is the "
    "first service of the path above 50 % errors after the pivot (the original's); "
    "deepest_suspect (added) is the deepest one whose errors rose (or latency, for a path "
    "flagged for latency), where a failure starts. Errors are spans with StatusCode 'Error'. "
    "Fixes over the original: hop latencies come from Duration (ns) when there is no "
    "duration_ms (the original shows 0 ms; like it, only a duration_ms column's latency flags a "
    "path); a client span's callee ends its path even when it never answered; span_kind filters "
    "the spans measured (e.g. 'Server'). pivot_time defaults to the first error span, else the "
    "middle of the traces."
)


class Args(ToolArgs):
    trace_file: str
    service_name: str | None = None
    span_kind: str | None = None
    pivot_time: str | None = None
    delta_time: str = "5m"
    error_threshold_pct: float = 10
    latency_threshold_pct: float = 10


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
    #: added: every span path's figures (all_paths holds the original's one-line strings of
    #: whole traces' chains) and the span paths flagged, with the deepest failing service
    paths: list[CallPath] = Field(default_factory=list)
    span_critical_paths: list[CriticalPath] = Field(default_factory=list)
    #: whether service_name has spans of its own on a whole trace's chain, the only way the
    #: original finds a service (ours also finds one named only as a client span's callee, or
    #: by a part of its name)
    original_finds_service: bool = Field(default=False, exclude=True)

    def answer(self) -> Any:
        out = self.model_dump(mode="json", by_alias=True)
        for c in out["critical_paths"] + out["span_critical_paths"]:
            for optional in ("root_cause_suspect", "deepest_suspect"):
                if c[optional] is None:
                    del c[optional]
        if self.notes:
            out = {"_description": out.pop("_description"), "warnings": self.notes, **out}
        if out["summary"] is None:
            del out["summary"]
        return out


#: the original's order of flagged paths in all_paths
_SEVERITY_ORDER = {"CRITICAL": 0, "WARNING": 1, "NEW": 2, "DISAPPEARED": 3}
#: the original's bar for CRITICAL and for a root cause suspect: errors (or their change) in %
_CRITICAL_PCT = 50


@dataclass
class Window:
    """The spans of one service (or one path) in one window: what the original counts."""

    spans: int = 0
    errors: int = 0
    traces: set[str] = field(default_factory=set)
    latencies: list[float] = field(default_factory=list)

    def add(self, other: Window) -> None:
        self.spans += other.spans
        self.errors += other.errors
        self.traces |= other.traces
        self.latencies += other.latencies

    @property
    def error_pct(self) -> float:
        return 100 * self.errors / self.spans if self.spans else 0.0

    def p99(self) -> float:
        return _percentile(self.latencies, 0.99)

    def stats(self) -> PathStats:
        lat = self.latencies
        return PathStats(
            traces=len(self.traces), spans=self.spans, errors=self.errors,
            error_pct=round(self.error_pct, 2),
            mean_latency_ms=round(sum(lat) / len(lat), 3) if lat else None,
            p95_latency_ms=_percentile(lat, 0.95) if lat else None,
            p99_latency_ms=_percentile(lat, 0.99) if lat else None,
        )  # fmt: skip


@dataclass
class TracePath:
    """The traces that follow one service chain, and their spans per service and window."""

    services: tuple[str, ...]
    traces: int = 0
    #: (service, after the pivot) -> its spans on this path's traces
    windows: dict[tuple[str, bool], Window] = field(default_factory=dict)
    messages: list[str] = field(default_factory=list)

    def of(self, service: str, post: bool) -> Window:
        return self.windows.get((service, post), Window())

    def total(self, post: bool) -> Window:
        """The path's own figures: its services' spans summed, as the original sums them."""
        out = Window()
        for service in dict.fromkeys(self.services):
            out.add(self.of(service, post))
        return out


def run(args: Args) -> Result:
    trace_file = require_file(args.trace_file, "the traces file")
    src = open_source(trace_file, SourceKind.TRACES)
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
    groups = _trace_paths(con, lo, pivot, hi, args.span_kind)
    if args.service_name:
        wanted = args.service_name.lower()
        selected = [g for g in groups if any(wanted == s.lower() for s in g.services)]
        if not selected:  # as loose as the entity references elsewhere
            selected = [g for g in groups if any(wanted in s.lower() for s in g.services)]
    else:
        selected = groups
    seconds = delta.total_seconds() or 1
    latency_flags = _has_duration_ms(trace_file)
    verdicts = {g.services: _verdict(g, args, latency_flags) for g in selected}
    critical = [
        _critical(g, verdict, seconds, args)
        for g in selected
        if (verdict := verdicts[g.services]) is not None
    ]
    # as the original: the paths in the order their first trace comes, CRITICAL ones first
    critical.sort(key=lambda c: c.severity != "CRITICAL")
    ordered = sorted(
        selected, key=lambda g: _SEVERITY_ORDER[v[0]] if (v := verdicts[g.services]) else 9
    )
    by_span = span_paths(con, lo, pivot, hi, seconds, args.span_kind, args.service_name, args)
    totals = {phase: Window() for phase in (False, True)}
    for g in selected:
        for phase in (False, True):
            totals[phase].add(g.total(phase))
    summary: dict[str, Any] = {
        phase: _summary(totals[post], sum(g.traces for g in selected))
        if totals[post].spans
        else None
        for phase, post in (("pre", False), ("post", True))
    }
    summary["delta"] = _summary_delta(totals[False], totals[True])
    all_paths = []
    for g in ordered[:50]:
        verdict = verdicts[g.services]
        line = f"{ARROW.join(g.services)} [{rate(g.total(True).spans / seconds)}]"
        all_paths.append(line + (f" ({verdict[0]})" if verdict else ""))
    return Result(
        description=_description(args, lo, pivot, hi),
        notes=notes,
        pivot_time=iso(pivot),
        window={"pre_start": iso(lo), "post_end": iso(hi)},
        summary=summary,
        all_paths=all_paths,
        paths=by_span.paths,
        span_critical_paths=by_span.critical,
        critical_paths=critical,
        filters_applied=filters,
        warnings=warnings,
        original_finds_service=args.service_name is not None
        and _owns_spans_on_chain(con, args.service_name),
    )


#: Each trace's service chain, as a common table expression of the query that reads it (not a
#: temporary table: the snapshot's connection is shared, and two calls at once would overwrite it)
_TRACE_PATH = """WITH trace_path AS (
    SELECT trace_id, min(ts) AS started,
           first(call_path ORDER BY len(string_split(call_path, ' -> ')) DESC, ts) AS path
    FROM data WHERE call_path IS NOT NULL GROUP BY trace_id)"""


def _trace_paths(con, lo, pivot, hi, span_kind: str | None) -> list[TracePath]:
    """Every trace's service chain (the longest of its spans' paths from the root, the first
    such span on a tie, as the original's walk down the first root), grouped; then each group's
    spans in the two windows per service. Groups come in the order their first trace starts."""
    kind_filter, params = "", [lo, hi, pivot]
    if span_kind:
        kind_filter = "AND lower(d.span_kind) LIKE $4"
        params.append(f"%{span_kind.lower().removeprefix('span_kind_')}%")
    groups: dict[str, TracePath] = {}
    for path, traces in con.execute(
        f"{_TRACE_PATH} SELECT path, count(*) FROM trace_path GROUP BY path "
        "ORDER BY min(started), path"
    ).fetchall():
        groups[path] = TracePath(tuple(path.split(" -> ")), traces=traces)
    rows = con.execute(
        f"""{_TRACE_PATH}
        SELECT t.path, d.service_name, d.ts >= $3 AS post, count(*),
               count(*) FILTER (WHERE d.status_code ILIKE '%error%'),
               list(d.duration_ns / 1e6) FILTER (WHERE d.duration_ns IS NOT NULL),
               list(DISTINCT d.trace_id),
               list(DISTINCT left(d.status_message, 200)) FILTER (
                 WHERE d.status_code ILIKE '%error%' AND coalesce(d.status_message, '') <> '')
        FROM data d JOIN trace_path t USING (trace_id)
        WHERE d.ts >= $1 AND d.ts < $2 {kind_filter}
        GROUP BY ALL ORDER BY ALL""",
        params,
    ).fetchall()
    for path, service, post, spans, errors, latencies, traces, messages in rows:
        group = groups[path]
        if service not in group.services:
            continue  # the original counts only the path's own services
        group.windows[(service, bool(post))] = Window(
            spans, errors, set(traces), sorted(latencies or [])
        )
        group.messages += [m for m in messages or [] if m not in group.messages]
    return list(groups.values())


def _owns_spans_on_chain(con, service: str) -> bool:
    """Whether ``service`` has spans of its own on their trace's chain (the original builds
    chains of span services only, and looks the service up in them by name)."""
    (count,) = con.execute(
        f"""{_TRACE_PATH} SELECT count(*) FROM data d JOIN trace_path t USING (trace_id)
        WHERE lower(d.service_name) = lower($1)
          AND list_contains(string_split(t.path, ' -> '), d.service_name)""",
        [service],
    ).fetchall()[0]
    return count > 0


def _verdict(group: TracePath, args: Args, latency_flags: bool) -> tuple[str, str] | None:
    """The original's classification of a path by its summed figures before and after."""
    pre, post = group.total(False), group.total(True)
    if not pre.spans and post.spans:
        return "NEW", "only seen after the pivot"
    if pre.spans and not post.spans:
        return "DISAPPEARED", f"{pre.spans} span(s) before the pivot, none after"
    if not pre.spans:
        return None
    err_change = abs(_change(pre.error_pct, post.error_pct))
    err_exceeds = err_change > args.error_threshold_pct or (
        pre.error_pct == 0 and post.error_pct > args.error_threshold_pct
    )
    lat_change = abs(_change(pre.p99(), post.p99())) if latency_flags else 0.0
    lat_exceeds = lat_change > args.latency_threshold_pct
    if not err_exceeds and not lat_exceeds:
        return None
    reason = (
        f"error rate {pre.error_pct:.1f}% -> {post.error_pct:.1f}%"
        if err_exceeds
        else f"p99 latency {pre.p99()} -> {post.p99()} ms"
    )
    if err_change > _CRITICAL_PCT or post.error_pct > _CRITICAL_PCT or lat_change > 100:
        return "CRITICAL", reason
    return "WARNING", reason


def _critical(group: TracePath, verdict: tuple[str, str], seconds: float, args: Args):
    severity, reason = verdict
    hops = [_hop(s, group.of(s, False), group.of(s, True), seconds) for s in group.services]
    first = None
    for s in group.services:  # the original: the first service with the highest rate above 50 %
        rate = round(group.of(s, True).error_pct)
        if rate > _CRITICAL_PCT and (first is None or rate > first[1]):
            first = (s, rate)
    return CriticalPath(
        path=ARROW.join(group.services), severity=severity, hops=hops, reason=reason,
        root_cause_suspect=None if first is None else Suspect(
            service=first[0], reason=f"{first[1]:.0f}% error rate"),
        deepest_suspect=_deepest(group, args, latency_first=not reason.startswith("error")),
        pre=group.total(False).stats(), post=group.total(True).stats(),
        sample_errors=group.messages[:3],
    )  # fmt: skip


def _deepest(group: TracePath, args: Args, latency_first: bool) -> Suspect | None:
    """The deepest service of the path whose own spans fail after the pivot (or slow down:
    first, for a path flagged for latency): errors and latency propagate up the call chain, so
    the deepest failing service is where they start."""

    def failing(s: str) -> str | None:
        pre, post = group.of(s, False), group.of(s, True)
        if post.spans and post.error_pct - pre.error_pct >= args.error_threshold_pct:
            return f"{post.error_pct:.0f}% error rate"
        return None

    def slower(s: str) -> str | None:
        pre, post = group.of(s, False).stats(), group.of(s, True).stats()
        if not (pre.mean_latency_ms and post.mean_latency_ms):
            return None
        rise = 100 * (post.mean_latency_ms - pre.mean_latency_ms) / pre.mean_latency_ms
        return "latency rose" if rise >= args.latency_threshold_pct else None

    for test in (slower, failing) if latency_first else (failing, slower):
        for s in reversed(group.services):
            why = test(s)
            if why:
                return Suspect(service=s, reason=why)
    return None


def _has_duration_ms(trace_file) -> bool:
    """Whether the file has the duration_ms column the original reads latency from (a
    ClickHouse export has only Duration, so the original's latencies are all 0 there)."""
    return "duration_ms" in header_columns(Path(trace_file))


def _change(pre: float, post: float) -> float:
    """The original's percentage change (infinite from zero)."""
    if pre == 0:
        return float("inf") if post > 0 else 0.0
    return round((post - pre) / pre * 100, 1)


def _percentile(values: list[float], q: float) -> float:
    """The original's nearest-rank percentile of sorted values, rounded to 0.01."""
    if not values:
        return 0.0
    return round(values[min(int(len(values) * q), len(values) - 1)], 2)


def _summary(w: Window, traces: int) -> dict[str, Any]:
    return {
        "trace_count": traces,
        "span_count": w.spans,
        "error_rate_pct": round(w.error_pct, 1),
        "latency_p99_ms": _percentile(sorted(w.latencies), 0.99),
        "spans": w.spans,
        "errors": w.errors,
        "error_pct": round(w.error_pct, 2),
        "mean_latency_ms": round(sum(w.latencies) / len(w.latencies), 3) if w.latencies else None,
    }


def _summary_delta(pre: Window, post: Window) -> dict[str, Any]:
    a, b = _summary(pre, 0), _summary(post, 0)
    return {
        k: round(b[k] - a[k], 3)
        if isinstance(a[k], int | float) and isinstance(b[k], int | float) and k != "trace_count"
        else None
        for k in a
    }  # fmt: skip


def _description(args: Args, lo, pivot, hi) -> dict[str, Any]:
    return {
        "overview": "Critical path analysis - stats computed per unique trace path using "
        "trace_id stitching",
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
        "note": "Each path groups traces that follow the same service chain. Stats are computed "
        "from spans within those specific traces. Latency is read from Duration (ns).",
    }  # fmt: skip


def _hop(service: str, pre: Window, post: Window, seconds: float) -> Hop:
    return hop(
        service,
        HopFigures(pre.spans, pre.error_pct, pre.p99()),
        HopFigures(post.spans, post.error_pct, post.p99()),
        seconds,
    )


def _default_pivot(con):
    first_error, lo, hi = con.execute(
        "SELECT min(ts) FILTER (WHERE status_code ILIKE '%error%'), min(ts), max(ts) FROM data"
    ).fetchone()
    if first_error is not None:
        return first_error
    return None if lo is None else lo + (hi - lo) / 2


SPEC = ToolSpec(
    "get_trace_error_tree", DESCRIPTION, Args, run, {"trace_file": "otel_traces_raw.tsv"}
)
__all__ = ["SPEC", "Args", "Result", "run", "timedelta"]
