"""metric_analysis: filter -> eval -> group_by -> agg over the metrics of many objects."""

from __future__ import annotations

import ast
import re
from typing import Any, Literal

from itbench.errors import UsageError
from sre.snapshot import SourceKind, open_source
from sre.snapshot.layout import require_dir
from sre.tools._common import ToolArgs, ToolResult, ToolSpec, iso, parse_time, quote_ident
from sre.tools._metrics import labels, object_filter, select_objects

DESCRIPTION = (
    "Analyses metrics of K8s objects like SQL: select objects (k8_object_name, or object_pattern "
    "a glob over kind/name such as 'pod/*' or 'service/checkout*') and metric_names, then eval "
    "derives a metric ('throttle_pct = container_cpu_cfs_throttled_periods_total / "
    "container_cpu_cfs_periods_total * 100'; ':' in metric names becomes '_'; only + - * / and "
    "numbers, evaluated in SQL, never by Python eval), filters keeps exact column matches, "
    "group_by (deployment, object_name, metric_name, timestamp, pod_name, namespace, "
    "service_name, status_code) and agg (mean, sum, max, min, median, count) aggregate. Without "
    "group_by, compact verbosity summarises each series (count, mean, min, max, last, p50, p90, "
    "p95, p99, labels from tags) and drops histogram _bucket metrics unless include_buckets; "
    "verbosity='raw' returns the rows. limit caps the rows (0: no cap); sort_by sorts descending."
)

GROUPABLE = [
    "deployment", "object_kind", "object_name", "metric_name", "timestamp", "pod_name",
    "namespace", "service_name", "status_code", "bucket_le",
]  # fmt: skip
AGGS = {
    "mean": "avg",
    "sum": "sum",
    "max": "max",
    "min": "min",
    "median": "median",
    "count": "count",
}


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
    limit: int = 200
    sort_by: str | None = None
    include_tags: bool = False
    include_buckets: bool = False
    labels_keep: list[str] | None = None


class Result(ToolResult):
    objects: list[str]
    total_rows: int
    returned_rows: int
    data: list[dict[str, Any]]


def sanitize(name: str) -> str:
    return re.sub(r"[^0-9A-Za-z_]", "_", name)


def _eval_sql(expression: str) -> tuple[str, str, set[str]]:
    """(new column, SQL expression over sanitised metric columns, the metrics it reads)."""
    target, sep, rhs = expression.partition("=")
    if not sep or not target.strip().isidentifier():
        raise UsageError(f"eval: {expression!r} must read 'name = expression'")
    try:
        tree = ast.parse(rhs.strip(), mode="eval").body
    except SyntaxError as exc:
        raise UsageError(
            f"eval: {rhs.strip()!r} is not an arithmetic expression ({exc.msg})"
        ) from None
    used: set[str] = set()
    ops = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}

    def emit(node: ast.AST) -> str:
        if isinstance(node, ast.BinOp) and type(node.op) in ops:
            left, right = emit(node.left), emit(node.right)
            if isinstance(node.op, ast.Div):
                return f"({left} / nullif({right}, 0))"
            return f"({left} {ops[type(node.op)]} {right})"
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return f"(-{emit(node.operand)})"
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return repr(float(node.value))
        if isinstance(node, ast.Name):
            used.add(node.id)
            return quote_ident(node.id)
        raise UsageError(
            f"eval: only metric names, numbers and + - * / are allowed in {rhs.strip()!r}"
        )

    return target.strip(), emit(tree), used


def run(args: Args) -> Result:
    src = open_source(require_dir(args.base_dir, "the metrics folder"), SourceKind.METRICS)
    chosen, loose = select_objects(src, args.k8_object_name, args.object_pattern)
    warnings = src.warnings()
    if loose and chosen:
        warnings.append(f"no exact match for {args.k8_object_name!r}; matched by substring")
    cond, params = object_filter(chosen)
    if args.metric_names:
        wanted = list(args.metric_names)
        cond += f" AND (metric_name IN ({', '.join('?' for _ in wanted)})"
        cond += f" OR regexp_replace(metric_name, '[^0-9A-Za-z_]', '_', 'g') IN ({', '.join('?' for _ in wanted)}))"
        params += wanted + [sanitize(w) for w in wanted]
    if args.verbosity == "compact" and not args.include_buckets:
        cond += " AND NOT ends_with(metric_name, '_bucket')"
    start, end = parse_time(args.start_time, "start_time"), parse_time(args.end_time, "end_time")
    if start:
        cond += " AND ts >= ?"
        params.append(start)
    if end:
        cond += " AND ts <= ?"
        params.append(end)
    base = f"""SELECT object_kind, object_name, metric_name, ts AS timestamp, value, tags,
                 coalesce(pod_name, CASE WHEN object_kind = 'pod' THEN object_name END) AS pod_name,
                 namespace, coalesce(service_name, CASE WHEN object_kind = 'service' THEN object_name END)
                   AS service_name, status_code, bucket_le,
                 CASE WHEN object_kind = 'pod' THEN deployment_of('Pod', object_name)
                      ELSE object_name END AS deployment
               FROM data WHERE {cond}"""
    if args.eval:
        target, expr, used = _eval_sql(args.eval)
        pivots = ", ".join(
            f"max(value) FILTER (WHERE regexp_replace(metric_name, '[^0-9A-Za-z_]', '_', 'g') = '{u}') AS {quote_ident(u)}"
            for u in sorted(used)
        )
        # one row per (object, time) with a column per metric the expression reads
        base = f"""WITH b AS ({_base_no_eval(cond)})
                 SELECT object_kind, object_name, '{target}' AS metric_name, timestamp,
                   {expr} AS value, NULL AS tags, pod_name, namespace, service_name,
                   NULL AS status_code, NULL AS bucket_le, deployment
                 FROM (SELECT object_kind, object_name, timestamp, any_value(pod_name) AS pod_name,
                         any_value(namespace) AS namespace, any_value(service_name) AS service_name,
                         any_value(deployment) AS deployment, {pivots}
                       FROM b GROUP BY object_kind, object_name, timestamp)"""
    for key in args.filters or {}:
        if key not in [*GROUPABLE, "value"]:
            raise UsageError(
                f"metric_analysis: filters names unknown column {key!r}; columns: {', '.join(GROUPABLE)}"
            )
    fcond = (
        " AND ".join(f"CAST({quote_ident(k)} AS VARCHAR) = ?" for k in args.filters or {}) or "true"
    )
    params += [str(v) for v in (args.filters or {}).values()]
    con = src.con.cursor()
    if args.group_by:
        if args.group_by not in GROUPABLE:
            raise UsageError(
                f"metric_analysis: group_by {args.group_by!r} is not one of {', '.join(GROUPABLE)}"
            )
        if args.agg not in AGGS:
            raise UsageError(f"metric_analysis: agg {args.agg!r} is not one of {', '.join(AGGS)}")
        g = quote_ident(args.group_by)
        statement = f"""SELECT {g}, metric_name, {AGGS[args.agg]}(value) AS value, count(*) AS points
                        FROM ({base}) r WHERE {fcond} GROUP BY {g}, metric_name"""
        order = "timestamp" if args.group_by == "timestamp" else "value"
        desc = "" if order == "timestamp" and not args.sort_by else " DESC NULLS LAST"
        order = quote_ident(args.sort_by) if args.sort_by else quote_ident(order)
    elif args.verbosity == "compact":
        statement = f"""SELECT object_kind, object_name, metric_name, count(*) AS count,
                          avg(value) AS mean, min(value) AS min, max(value) AS max,
                          arg_max(value, timestamp) AS last,
                          quantile_cont(value, 0.5) AS p50, quantile_cont(value, 0.9) AS p90,
                          quantile_cont(value, 0.95) AS p95, quantile_cont(value, 0.99) AS p99,
                          min(timestamp) AS first_time, max(timestamp) AS last_time,
                          any_value(tags) AS tags
                        FROM ({base}) r WHERE {fcond}
                        GROUP BY object_kind, object_name, metric_name"""
        order = (
            quote_ident(args.sort_by) if args.sort_by else "object_kind, object_name, metric_name"
        )
        desc = " DESC NULLS LAST" if args.sort_by else ""
    else:
        statement = f"SELECT * FROM ({base}) r WHERE {fcond}"
        order = (
            quote_ident(args.sort_by)
            if args.sort_by
            else "object_kind, object_name, metric_name, timestamp"
        )
        desc = " DESC NULLS LAST" if args.sort_by else ""
    try:
        total = con.execute(f"SELECT count(*) FROM ({statement}) t", params).fetchone()[0]
        limit = f" LIMIT {int(args.limit)}" if args.limit else ""
        cur = con.execute(f"SELECT * FROM ({statement}) t ORDER BY {order}{desc}{limit}", params)
    except Exception as exc:  # a sort_by or eval column the data does not have
        if "not found" in str(exc).lower() or "binder" in str(exc).lower():
            raise UsageError(f"metric_analysis: {str(exc).splitlines()[0]}") from None
        raise
    names = [d[0] for d in cur.description]
    data = []
    for row in cur.fetchall():
        item = dict(zip(names, row, strict=True))
        for k, v in item.items():
            if hasattr(v, "isoformat"):
                item[k] = iso(v)
        if "tags" in item:
            tags = item.pop("tags")
            if args.include_tags:
                item["tags"] = tags
            elif tags is not None or args.verbosity == "compact":
                item["labels"] = labels(tags, args.labels_keep)
        data.append(item)
    return Result(
        objects=[f"{k}/{n}" for k, n in chosen], total_rows=total, returned_rows=len(data),
        data=data, warnings=warnings,
    )  # fmt: skip


def _base_no_eval(cond: str) -> str:
    return f"""SELECT object_kind, object_name, metric_name, ts AS timestamp, value,
                 coalesce(pod_name, CASE WHEN object_kind = 'pod' THEN object_name END) AS pod_name,
                 namespace, coalesce(service_name, CASE WHEN object_kind = 'service' THEN object_name END)
                   AS service_name,
                 CASE WHEN object_kind = 'pod' THEN deployment_of('Pod', object_name)
                      ELSE object_name END AS deployment
               FROM data WHERE {cond}"""


SPEC = ToolSpec("metric_analysis", DESCRIPTION, Args, run, {"base_dir": "metrics"})
