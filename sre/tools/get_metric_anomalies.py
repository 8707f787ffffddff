"""get_metric_anomalies: points above mean + 2 standard deviations, per metric of an object."""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from typing import Any

from pydantic import BaseModel

from sre.snapshot import SourceKind, open_source
from sre.snapshot.layout import require_dir
from sre.snapshot.sql import unquote
from sre.tools._common import ToolArgs, ToolResult, ToolSpec, parse_time, window_warning
from sre.tools._metrics import (
    ExtraColumn,
    extra_cells,
    extra_columns,
    object_filter,
    optional_columns,
    select_objects,
)

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
    #: the k8_object_name asked for, as the original echoes it
    object: str
    #: added: the metric files (kind/name) it resolved to
    objects: list[str]
    metrics: list[MetricAnomalies]

    def answer(self) -> Any:
        if not self.objects:  # no metrics file for the object: the original's sentence
            return f"No metric files found for {self.object}"
        out = self.model_dump(mode="json")
        for m in out["metrics"]:
            if m["data"] is None:  # raw_content=false: the original leaves the key out
                del m["data"]
        return out


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
                  SELECT file, metric_name, ts, value, tags, pod_name, namespace, service_name,
                    status_code, bucket_le, extra,
                    avg(value) OVER m AS mean, stddev_samp(value) OVER m AS std,
                    count(*) OVER m AS n
                  FROM data WHERE {cond}
                  WINDOW m AS (PARTITION BY file, metric_name))
                SELECT file, metric_name, any_value(n), any_value(mean), any_value(std),
                  list({POINT} ORDER BY ts) FILTER (WHERE std > 0 AND value > mean + 2 * std),
                  list({POINT} ORDER BY ts)
                FROM s GROUP BY file, metric_name ORDER BY file, metric_name""",
            params,
        )
        .fetchall()
    )
    headed = optional_columns(src)
    extras = extra_columns(src)
    metrics = []
    for file, name, n, mean, std, anomalies, data in rows:
        threshold = mean + 2 * std if std else None
        has = headed.get(file, frozenset()), extras.get(file, ())
        metrics.append(
            MetricAnomalies(
                metric_name=name, file=file, count=n, mean=mean, std=std, threshold=threshold,
                anomaly_count=len(anomalies or []), anomalies=_points(anomalies, *has),
                data=_points(data, *has) if args.raw_content else None,
            )
        )  # fmt: skip
    metrics.sort(key=lambda m: (-m.anomaly_count, m.file, m.metric_name))
    if not metrics and (start or end):
        first, last = (
            src.con.cursor()
            .execute(
                f"SELECT min(ts), max(ts) FROM data WHERE {object_filter(chosen)[0]}",
                object_filter(chosen)[1],
            )
            .fetchall()[0]
        )
        note = window_warning("these metrics", start, end, first, last)
        if note:
            warnings.append(note)
    return Result(
        object=args.k8_object_name,
        objects=[f"{k}/{n}" for k, n in chosen],
        metrics=metrics,
        warnings=warnings,
    )


#: one metric row as the original returns it: the TSV's columns (the optional ones when set)
POINT = (
    "{'metric_name': metric_name, 'timestamp': ts, 'value': value, 'tags': tags, "
    "'pod_name': pod_name, 'namespace': namespace, 'service_name': service_name, "
    "'status_code': status_code, 'bucket_le': bucket_le, 'extra': extra}"
)


def _points(
    xs: list[dict[str, Any]] | None,
    headed: AbstractSet[str] = frozenset(),
    extras: tuple[ExtraColumn, ...] = (),
) -> list[dict[str, Any]]:
    """The rows; an optional column is kept when set or when the file has it (null, as the
    original answers an empty cell); the file's extra columns are kept too, as in the
    original's rows (every column of the file)."""
    keep = {"metric_name", "timestamp", "value", "tags", *headed}
    return [
        {**extra_cells(p.get("extra"), extras),
         **{k: (f"{v}+00:00" if k == "timestamp" else unquote(v) if k == "tags"
                else _number(v) if k in NUMERIC_LABELS else v)
            for k, v in p.items() if k != "extra" and (v is not None or k in keep)}}
        for p in xs or []
    ]  # fmt: skip


#: label columns the original's pandas reads as numbers when they hold numbers (500, 0.25)
NUMERIC_LABELS = frozenset({"status_code", "bucket_le"})
_INTEGER = re.compile(r"^-?[0-9]+$")
_DECIMAL = re.compile(r"^-?([0-9]+\.[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$")


def _number(text: Any) -> Any:
    """A label's text as the number it writes, else unchanged; ``+Inf`` is null, as in
    metric_analysis (the original writes JSON's non-standard Infinity)."""
    if isinstance(text, str) and text.strip().lower() in ("+inf", "inf"):
        return None
    if isinstance(text, str) and _INTEGER.match(text):
        return int(text)
    if isinstance(text, str) and _DECIMAL.match(text):
        return float(text)
    return text


SPEC = ToolSpec("get_metric_anomalies", DESCRIPTION, Args, run, {"base_dir": "metrics"})
