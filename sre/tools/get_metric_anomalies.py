"""get_metric_anomalies: points above mean + 2 standard deviations, per metric of an object."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from sre.snapshot import SourceKind, open_source
from sre.snapshot.layout import require_dir
from sre.tools._common import ToolArgs, ToolResult, ToolSpec, iso, parse_time
from sre.tools._metrics import object_filter, select_objects

DESCRIPTION = (
    "Reads the metrics of a K8s object (metrics/<kind>_<name>.tsv) and flags anomalies: values "
    "strictly above mean + 2 standard deviations (sample std) of the same metric; none when the "
    "metric is constant. Unlike the original, which pooled every metric of a file into one "
    "threshold (so a large steady metric hid a spike in a small one), the threshold is computed "
    "per metric; and the object is looked up by exact name, not by prefix (frontend is not "
    "frontend-proxy). k8_object_name: 'namespace/kind/name', 'kind/name' or 'name'. "
    "metric_name_filter keeps metrics whose name contains it; raw_content=false omits the series."
)


class Args(ToolArgs):
    k8_object_name: str
    base_dir: str
    metric_name_filter: str | None = None
    start_time: str | None = None
    end_time: str | None = None
    raw_content: bool = True


class MetricAnomalies(BaseModel):
    metric_name: str
    file: str
    count: int
    mean: float | None
    std: float | None
    threshold: float | None
    anomaly_count: int
    anomalies: list[dict[str, Any]]
    data: list[dict[str, Any]] | None = None


class Result(ToolResult):
    object: str
    metrics: list[MetricAnomalies]


def run(args: Args) -> Result:
    src = open_source(require_dir(args.base_dir, "the metrics folder"), SourceKind.METRICS)
    chosen, loose = select_objects(src, args.k8_object_name, None)
    warnings = src.warnings()
    if not chosen:
        warnings.append(f"no metrics file for {args.k8_object_name!r} in {args.base_dir}")
    elif loose:
        warnings.append(f"no exact match for {args.k8_object_name!r}; matched by substring")
    cond, params = object_filter(chosen)
    if args.metric_name_filter:
        cond += " AND contains(lower(metric_name), ?)"
        params.append(args.metric_name_filter.lower())
    start, end = parse_time(args.start_time, "start_time"), parse_time(args.end_time, "end_time")
    if start:
        cond += " AND ts >= ?"
        params.append(start)
    if end:
        cond += " AND ts <= ?"
        params.append(end)
    rows = (
        src.con.cursor()
        .execute(
            f"""WITH s AS (
                  SELECT file, metric_name, ts, value,
                    avg(value) OVER m AS mean, stddev_samp(value) OVER m AS std,
                    count(*) OVER m AS n
                  FROM data WHERE {cond}
                  WINDOW m AS (PARTITION BY file, metric_name))
                SELECT file, metric_name, any_value(n), any_value(mean), any_value(std),
                  list({{'timestamp': ts, 'value': value}} ORDER BY ts)
                    FILTER (WHERE std > 0 AND value > mean + 2 * std),
                  list({{'timestamp': ts, 'value': value}} ORDER BY ts)
                FROM s GROUP BY file, metric_name ORDER BY file, metric_name""",
            params,
        )
        .fetchall()
    )
    metrics = []
    for file, name, n, mean, std, anomalies, data in rows:
        threshold = mean + 2 * std if std else None
        metrics.append(
            MetricAnomalies(
                metric_name=name, file=file, count=n, mean=mean, std=std, threshold=threshold,
                anomaly_count=len(anomalies or []), anomalies=_points(anomalies),
                data=_points(data) if args.raw_content else None,
            )
        )  # fmt: skip
    metrics.sort(key=lambda m: (-m.anomaly_count, m.file, m.metric_name))
    label = ", ".join(f"{k}/{n}" for k, n in chosen) or args.k8_object_name
    return Result(object=label, metrics=metrics, warnings=warnings)


def _points(xs: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    return [{"timestamp": iso(p["timestamp"]), "value": p["value"]} for p in xs or []]


SPEC = ToolSpec("get_metric_anomalies", DESCRIPTION, Args, run, {"base_dir": "metrics"})
