"""Containers whose CPU the metrics show throttled: in at least :data:`THROTTLED` of the periods
of the second half of the metrics, and twice the first half (a steady share is the workload's
normal life, not the incident)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from sre.agents.baseline.evidence import Change
from sre.snapshot import SourceKind, open_source

#: a container throttled in this share of its CPU periods (or seconds) is starved
THROTTLED = 0.25


def throttled_pods(metrics_dir: Path) -> list[tuple[str, str, float, float]]:
    """(pod, namespace, throttled share before, after) of every throttled container."""
    src = open_source(metrics_dir, SourceKind.METRICS)
    rows = (
        src.con.cursor()
        .execute(
            """WITH s AS (
             SELECT coalesce(pod_name, attr(tags, 'pod'),
                             CASE WHEN object_kind = 'pod' THEN object_name END) AS pod,
                    coalesce(namespace, attr(tags, 'namespace')) AS ns,
                    metric_name, ts, value FROM data
             WHERE metric_name LIKE '%cpu%' AND (metric_name LIKE '%throttled%'
                   OR metric_name LIKE '%cfs_periods%')),
           bounds AS (SELECT min(ts) AS lo, max(ts) AS hi FROM s),
           half AS (SELECT s.*, s.ts >= lo + (hi - lo) / 2 AS late FROM s, bounds)
           SELECT pod, any_value(ns), metric_name, late, max(value) - min(value), avg(value),
                  epoch(max(ts)) - epoch(min(ts))
           FROM half WHERE pod IS NOT NULL GROUP BY pod, metric_name, late"""
        )
        .fetchall()
    )
    series: dict[tuple[str, str], dict[str, dict[bool, tuple[float, float, float]]]] = {}
    for pod, ns, metric, late, rise, mean, seconds in rows:
        series.setdefault((pod, ns or ""), {}).setdefault(metric, {})[bool(late)] = (
            rise or 0.0, mean or 0.0, seconds or 0.0,
        )  # fmt: skip
    out = []
    for (pod, ns), metrics in series.items():
        share = {late: _share(metrics, late) for late in (False, True)}
        before, after = share[False], share[True]
        if after is not None and after >= THROTTLED and (before is None or after >= 2 * before):
            out.append((pod, ns, before or 0.0, after))
    return out


def _share(metrics: dict[str, dict[bool, tuple[float, float, float]]], late: bool) -> float | None:
    """The throttled share of one half: throttled periods over periods (counters), throttled
    seconds per second (a counter without periods), or a gauge's mean (a ready-made ratio)."""

    def rise(name_part: str, exclude: str | None = None) -> float | None:
        for metric, halves in metrics.items():
            if (
                name_part in metric
                and (exclude is None or exclude not in metric)
                and late in halves
            ):
                return halves[late][0]
        return None

    throttled = rise("throttled_periods")
    periods = rise("cfs_periods", exclude="throttled")
    if throttled is not None and periods:
        return throttled / periods
    for metric, halves in metrics.items():
        if "throttled_seconds" in metric and late in halves:
            r, _, seconds = halves[late]
            return r / seconds if seconds else None
        if "throttled" in metric and not metric.endswith(("_total", "_count")) and late in halves:
            mean = halves[late][1]
            return mean / 100 if mean > 1 else mean
    return None


def autoscaler_changed(changes: Iterable[Change], namespace: str, app: str) -> Change | None:
    """The change of a HorizontalPodAutoscaler of ``app`` (it scales it, scaled it before the
    change, or bears its name): throttled pods of a workload whose autoscaler was just edited
    (its maximum cut, its target renamed away) are starved by that edit, not by the workload,
    which changed only by the autoscaler's hand if at all. Read since the metrics are read whole
    (epoch-millisecond exports were skipped before), when a workload's throttling began to
    outrank the autoscaler edit that caused it."""
    for change in changes:
        if change.kind != "HorizontalPodAutoscaler" or (
            namespace and change.namespace != namespace
        ):
            continue
        target = (change.spec.get("spec") or {}).get("scaleTargetRef") or {}
        before = [old for path, old, _ in change.values if path.startswith("spec.scaleTargetRef")]
        if app in (change.name, target.get("name"), *before):
            return change
    return None
