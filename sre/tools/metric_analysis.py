"""metric_analysis: filter -> eval -> group_by -> agg over the metrics of many objects, answering
with the original tool's rows (a list of records whose columns depend on the mode)."""

from __future__ import annotations

import ast
import json
import math
import re
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from statistics import mean
from typing import Any, Literal

from pydantic import Field

from itbench.errors import UsageError
from sre.snapshot import SourceKind, open_source
from sre.snapshot.layout import require_dir
from sre.snapshot.sql import unquote
from sre.tools._common import (
    ToolArgs,
    ToolResult,
    ToolSpec,
    parse_time,
    window_warning,
)
from sre.tools._metrics import (
    extra_cells,
    extra_columns,
    object_filter,
    optional_columns,
    parse_tags,
    select_objects,
)

DESCRIPTION = (
    "Analyses metrics of K8s objects like SQL: select objects (k8_object_name, or object_pattern "
    "a glob over kind/name such as 'pod/*' or 'service/checkout*') and metric_names, then eval "
    "derives a metric ('throttle_pct = container_cpu_cfs_throttled_periods_total / "
    "container_cpu_cfs_periods_total * 100'; ':' '-' '.' in metric names become '_'; only + - * "
    "/ and numbers, never Python eval), filters keeps exact column matches, group_by "
    "(deployment, pod_name, metric_name, timestamp, ...) and agg (mean, sum, max, min, median, "
    "count) aggregate. Returns a list of rows. Compact verbosity (default) without group_by "
    "summarises each series (count, mean, min, max, last_timestamp, last_value, labels from "
    "tags kept by labels_keep) and drops histogram _bucket metrics unless asked; asking for "
    "_bucket metrics gives p50/p90/p95/p99 per series unless include_buckets. verbosity='raw' "
    "returns the rows. limit caps compact rows (0: no cap); sort_by sorts descending."
)

#: the TSV columns beside metric_name, timestamp, value and tags that some snapshots carry
OPTIONAL = ["pod_name", "namespace", "service_name", "status_code", "bucket_le"]
DEFAULT_LABELS = ["span_name", "span_kind", "status_code", "le"]
#: an aggregation over the non-null values of a column
AGGS: dict[str, Callable[[list[Any]], Any]] = {
    "mean": mean,
    "sum": sum,
    "max": max,
    "min": min,
    "median": lambda v: (
        sorted(v)[len(v) // 2]
        if len(v) % 2
        else sum(sorted(v)[len(v) // 2 - 1 : len(v) // 2 + 1]) / 2
    ),
    "count": len,
}
PER_OBJECT = ("deployment", "pod_name", "_object_name")


class Args(ToolArgs):
    base_dir: str
    k8_object_name: str | None = None
    object_pattern: str | None = None
    metric_names: list[str] | None = None
    eval: str | None = None
    filters: dict[str, Any] | None = None
    group_by: str | None = None
    agg: str = "mean"
    start_time: str | None = None
    end_time: str | None = None
    verbosity: Literal["compact", "raw"] = "compact"
    limit: int | None = 200
    sort_by: str | None = None
    include_tags: bool = False
    include_buckets: bool = False
    labels_keep: list[str] | None = None


class Result(ToolResult):
    rows: list[dict[str, Any]]
    #: no metrics file matched the object or pattern: the original answers this sentence
    nothing_matched: bool = Field(default=False, exclude=True)

    def answer(self) -> Any:
        return "No metric files found matching pattern" if self.nothing_matched else self.rows


def sanitize(name: str) -> str:
    """A metric name usable in eval, as the original rewrites it (``:`` ``-`` ``.`` ``/`` and
    spaces become ``_``, runs collapse, ends trimmed)."""
    return re.sub(r"_+", "_", re.sub(r"[:\-./\s]", "_", name)).strip("_")


def epoch_ms(value: datetime) -> int:
    """A time as pandas' ``to_json`` writes one (milliseconds since the epoch)."""
    return int(value.replace(tzinfo=UTC).timestamp() * 1000)


def utc_text(value: datetime) -> str:
    return f"{value}+00:00"


def _compile(expression: str) -> tuple[str, ast.AST]:
    """(the derived column, the parsed arithmetic) of ``name = expr`` or ``expr`` (-> result)."""
    target, sep, rhs = expression.partition("=")
    if not sep:
        target, rhs = "result", expression
    elif not target.strip().isidentifier():
        raise UsageError(f"eval: {expression!r} must read 'name = expression'")
    try:
        tree = ast.parse(rhs.strip(), mode="eval").body
    except SyntaxError as exc:
        raise UsageError(
            f"eval: {rhs.strip()!r} is not an arithmetic expression ({exc.msg})"
        ) from None
    for node in ast.walk(tree):
        if not isinstance(
            node,
            ast.BinOp
            | ast.UnaryOp
            | ast.Constant
            | ast.Name
            | ast.Load
            | ast.Add
            | ast.Sub
            | ast.Mult
            | ast.Div
            | ast.USub,
        ) or (isinstance(node, ast.Constant) and not isinstance(node.value, int | float)):
            raise UsageError(
                f"eval: only metric names, numbers and + - * / are allowed in {rhs.strip()!r}"
            )
    return target.strip(), tree


def _evaluate(node: ast.AST, row: dict[str, Any]) -> float | None:
    if isinstance(node, ast.Constant):
        return float(node.value)  # type: ignore[arg-type]  # _compile admits numeric constants only
    if isinstance(node, ast.Name):
        if node.id not in row:
            raise UsageError(
                f"eval: {node.id!r} is not a metric here; columns: {', '.join(sorted(row))}"
            )
        v = row[node.id]
        return None if v is None else float(v)
    if isinstance(node, ast.UnaryOp):
        v = _evaluate(node.operand, row)
        return None if v is None else -v
    assert isinstance(node, ast.BinOp)
    left, right = _evaluate(node.left, row), _evaluate(node.right, row)
    if left is None or right is None:
        return None
    if isinstance(node.op, ast.Add):
        return left + right
    if isinstance(node.op, ast.Sub):
        return left - right
    if isinstance(node.op, ast.Mult):
        return left * right
    return None if right == 0 else left / right


def _quantile(q: float, buckets: list[tuple[float, float]]) -> float | None:
    """Prometheus' histogram_quantile over cumulative (le, count) buckets."""
    buckets = sorted((le, c) for le, c in buckets if le is not None and not math.isnan(le))
    if not buckets or buckets[-1][1] <= 0:
        return None
    rank, prev_le, prev_count = q * buckets[-1][1], 0.0, 0.0
    for le, count in buckets:
        if count >= rank:
            if math.isinf(le):
                return prev_le
            width = count - prev_count
            return le if width <= 0 else prev_le + (le - prev_le) * ((rank - prev_count) / width)
        prev_le, prev_count = le, count
    return buckets[-1][0]


def _le(text: Any) -> float:
    try:
        return float(str(text).replace("+Inf", "inf"))
    except ValueError:
        return math.nan


def _json(value: Any) -> Any:
    if isinstance(value, datetime):
        return epoch_ms(value)
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return None
    return value


def _pivot(rows: list[dict[str, Any]], how) -> list[dict[str, Any]]:
    """Metrics as columns per timestamp (``how`` combines duplicates), gaps filled forward then
    backward, as the original's pivot_table + ffill + bfill."""
    cells: dict[datetime, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for r in rows:
        cells[r["timestamp"]][sanitize(r["metric_name"])].append(r["value"])
    names = sorted({n for by in cells.values() for n in by})
    out = [
        {"timestamp": t, **{n: how(by[n]) if by.get(n) else None for n in names}}
        for t, by in sorted(cells.items())
    ]
    for n in names:
        last = None
        for row in out:
            last = row[n] = row[n] if row[n] is not None else last
        nxt = None
        for row in reversed(out):
            nxt = row[n] = row[n] if row[n] is not None else nxt
    return out


def run(args: Args) -> Result:
    src = open_source(require_dir(args.base_dir, "the metrics folder"), SourceKind.METRICS)
    chosen, loose = select_objects(src, args.k8_object_name, args.object_pattern)
    warnings = src.warnings()
    if loose and chosen:
        warnings.append(f"no exact match for {args.k8_object_name!r}; matched by substring")
    if not chosen:
        warnings.append(
            f"no metrics file for {args.k8_object_name or args.object_pattern!r} in {args.base_dir}"
        )
    cond, params = object_filter(chosen)
    con = src.con.cursor()
    start, end = parse_time(args.start_time, "start_time"), parse_time(args.end_time, "end_time")
    first, last = con.execute(f"SELECT min(ts), max(ts) FROM data WHERE {cond}", params).fetchall()[
        0
    ]
    note = window_warning("these metrics", start, end, first, last)
    if note:
        warnings.append(note)
    if args.metric_names:
        cond += f" AND metric_name IN ({', '.join('?' for _ in args.metric_names)})"
        params += list(args.metric_names)
    if start:
        cond += " AND ts >= ?"
        params.append(start)
    if end:
        cond += " AND ts <= ?"
        params.append(end)
    cur = con.execute(
        f"""SELECT file, object_kind, object_name, metric_name, ts, value, tags, extra,
              {", ".join(OPTIONAL)},
              CASE WHEN object_kind = 'pod' THEN deployment_of('Pod', object_name)
                   ELSE object_name END AS deployment
            FROM data WHERE {cond} ORDER BY object_kind, object_name, ts""",
        params,
    )
    names = [d[0] for d in cur.description]
    fetched = [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
    by_file = optional_columns(src)
    headed = {c for r in fetched for c in by_file.get(r["file"], ())}
    # a column the files have (even empty, as the original answers it: null) or one with values
    present = [c for c in OPTIONAL if c in headed or any(r[c] is not None for r in fetched)]
    for r in fetched:  # a bucket bound is a number, as the original's numeric column reads it
        if r["bucket_le"] is not None:
            r["bucket_le"] = _le(r["bucket_le"])
    extras = extra_columns(src)
    rows = [
        {**extra_cells(r["extra"], extras.get(r["file"], ())),
         "metric_name": r["metric_name"], "timestamp": r["ts"], "value": r["value"],
         "tags": unquote(r["tags"]), **{c: r[c] for c in present}, "deployment": r["deployment"],
         "_object_name": r["object_name"]}
        for r in fetched
    ]  # fmt: skip
    for key, value in (args.filters or {}).items():
        if rows and key not in rows[0]:
            raise UsageError(
                f"metric_analysis: filters names unknown column {key!r}; "
                f"columns: {', '.join(k for k in rows[0] if not k.startswith('_'))}"
            )
        rows = [r for r in rows if r.get(key) == value or str(r.get(key)) == str(value)]
    if not rows:
        return Result(rows=[], warnings=warnings, nothing_matched=not chosen)
    compact = args.verbosity != "raw"
    limit = args.limit or 0
    if compact:
        asked_buckets = any(str(m).endswith("_bucket") for m in args.metric_names or [])
        if not asked_buckets and not args.include_buckets:
            rows = [r for r in rows if not str(r["metric_name"]).endswith("_bucket")]
        keep = args.labels_keep or DEFAULT_LABELS
        for r in rows:
            tags = parse_tags(r["tags"])
            r["labels"] = {k: tags[k] for k in keep if k in tags}
            if not args.include_tags:
                del r["tags"]
        seen: dict[tuple, dict[str, Any]] = {}
        for r in rows:  # duplicates (the same sample dumped twice) once, the last kept
            sample = tuple(
                json.dumps(r.get(c), sort_keys=True, default=str)
                for c in ("timestamp", "metric_name", *present, "value", "labels")
            )
            seen.pop(sample, None)
            seen[sample] = r
        rows = list(seen.values())
        if asked_buckets and not args.include_buckets:
            quantiles = _bucket_quantiles(rows, present, args)
            if quantiles is not None:
                return Result(rows=quantiles, warnings=warnings)
    if args.eval:
        target, tree = _compile(args.eval)
        if args.group_by in PER_OBJECT:
            wide = []
            by_object: dict[str, list[dict[str, Any]]] = defaultdict(list)
            for r in rows:
                by_object[r["_object_name"]].append(r)
            for obj, members in by_object.items():
                for w in _pivot(members, mean):
                    w[target] = _evaluate(tree, w)
                    w.update(_object_name=obj, deployment=members[0]["deployment"], pod_name=obj)
                    wide.append(w)
        else:
            wide = _pivot(rows, sum)
            for w in wide:
                w[target] = _evaluate(tree, w)
        rows = wide
    elif compact and not args.group_by and args.agg == "mean":
        return Result(rows=_summary(rows, args, limit), warnings=warnings)
    columns = list(dict.fromkeys(c for r in rows for c in r))  # objects differ in metrics
    numeric = [
        c for c in columns
        if not c.startswith("_") and c != "timestamp"
        and all(isinstance(r.get(c), int | float) or r.get(c) is None for r in rows)
        # an optional column the files have but never fill is numeric too (all NaN, as the
        # original's dataframe reads it): it aggregates to null
        and (any(isinstance(r.get(c), int | float) for r in rows) or c in present)
    ]  # fmt: skip
    if args.group_by:
        if args.group_by not in rows[0]:
            raise UsageError(
                f"metric_analysis: group_by column {args.group_by!r} not found; columns: "
                f"{', '.join(c for c in rows[0] if not c.startswith('_'))}"
            )
        if args.agg not in AGGS:
            raise UsageError(f"metric_analysis: agg {args.agg!r} is not one of {', '.join(AGGS)}")
        groups: dict[Any, list[dict[str, Any]]] = defaultdict(list)
        for r in rows:
            groups[r[args.group_by]].append(r)
        out = []
        for key, members in sorted(groups.items(), key=lambda kv: str(kv[0])):
            row = {args.group_by: _json(key)}
            for c in numeric:
                values = [m[c] for m in members if m.get(c) is not None]
                row[c] = _json(AGGS[args.agg](values)) if values else None
            out.append(row)
        sort_col = target if args.eval and "=" in args.eval else (numeric[-1] if numeric else None)
        if sort_col:
            out.sort(key=lambda r: (r.get(sort_col) is None, -(r.get(sort_col) or 0)))
        out = _sort_limit(out, args.sort_by if compact else None, limit if compact else 0)
        return Result(rows=out, warnings=warnings)
    if args.agg != "mean":
        if args.agg not in AGGS:
            raise UsageError(f"metric_analysis: agg {args.agg!r} is not one of {', '.join(AGGS)}")
        by_column = {c: [r[c] for r in rows if r.get(c) is not None] for c in numeric}
        return Result(
            rows=[{c: _json(AGGS[args.agg](v)) if v else None for c, v in by_column.items()}],
            warnings=warnings,
        )
    rows.sort(key=lambda r: r["timestamp"])
    out = [
        {
            k: (utc_text(v) if k == "timestamp" else _json(v))
            for k, v in r.items()
            if not k.startswith("_")
        }
        for r in rows
    ]
    if compact:
        out = _sort_limit(out, args.sort_by, limit)
    return Result(rows=out, warnings=warnings)


def _sort_limit(
    rows: list[dict[str, Any]], sort_by: str | None, limit: int
) -> list[dict[str, Any]]:
    if sort_by and rows and sort_by in rows[0]:
        rows = sorted(rows, key=lambda r: (r.get(sort_by) is None, _desc(r.get(sort_by))))
    return rows[:limit] if limit else rows


def _desc(value: Any) -> Any:
    return -value if isinstance(value, int | float) else value


def _summary(rows: list[dict[str, Any]], args: Args, limit: int) -> list[dict[str, Any]]:
    """One row per series: its dimensions, count, mean, min, max and the last point."""
    dims = [c for c in rows[0] if c not in ("timestamp", "value") and not c.startswith("_")]
    series: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        series[json.dumps([r.get(d) for d in dims], sort_keys=True, default=str)].append(r)
    out = []
    for members in series.values():
        values = [m["value"] for m in members if m["value"] is not None]
        latest = max(members, key=lambda m: m["timestamp"])
        row = {d: _json(members[0].get(d)) for d in dims if d != "labels"}
        row.update(
            count=len(values), mean=mean(values) if values else None,
            min=min(values, default=None), max=max(values, default=None),
            last_timestamp=epoch_ms(latest["timestamp"]), last_value=_json(latest["value"]),
        )  # fmt: skip
        if "labels" in dims:
            row["labels"] = members[0]["labels"]
        out.append(row)
    out.sort(key=lambda r: (r.get("max") is None, -(r.get("max") or 0)))
    return _sort_limit(out, args.sort_by, limit)


def _bucket_quantiles(
    rows: list[dict[str, Any]], present: list[str], args: Args
) -> list[dict[str, Any]] | None:
    """p50/p90/p95/p99 of each histogram series at its latest time (in the buckets' unit)."""
    buckets = [r for r in rows if str(r["metric_name"]).endswith("_bucket")]
    if not buckets:
        return None
    dims = ["metric_name", *(c for c in present if c != "bucket_le"), "deployment"]
    if args.include_tags:
        dims.append("tags")
    series: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in buckets:
        no_le = {k: v for k, v in r["labels"].items() if k != "le"}
        key = json.dumps([*(r.get(d) for d in dims), no_le], sort_keys=True, default=str)
        series[key].append({**r, "_labels": no_le})
    out = []
    for members in series.values():
        at = max(m["timestamp"] for m in members)
        latest = [m for m in members if m["timestamp"] == at]
        pairs = [
            (_le(m.get("bucket_le", m["labels"].get("le"))), float(m["value"] or 0.0))
            for m in latest
        ]
        infinite = [c for le, c in pairs if math.isinf(le)]
        row = {d: latest[0].get(d) for d in dims}
        row.update(
            labels=latest[0]["_labels"], timestamp=utc_text(at),
            sample_count=max(infinite) if infinite else max((c for _, c in pairs), default=0.0),
            duration_ms={f"p{int(q * 100)}": _quantile(q, pairs) for q in (0.5, 0.9, 0.95, 0.99)},
        )  # fmt: skip
        out.append(row)
    return _sort_limit(out, args.sort_by, args.limit or 0)


SPEC = ToolSpec("metric_analysis", DESCRIPTION, Args, run, {"base_dir": "metrics"})
