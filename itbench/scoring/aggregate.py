"""Trial scores -> per-incident and overall statistics, as ITBench-Evaluations computes them.

The rules (checked number for number against the original's published result files):

- A score is a number or a dict. In a dict, ``calculation`` counts as ``<metric>`` and
  ``calculation_precision|recall|f1`` as ``<metric>_precision|recall|f1``; other keys (judge
  justifications, details) are ignored, and so are null values (they do not count in ``n``).
- Metrics named ``<metric>@<k>`` (``root_cause_entity_k@1..5``) stay in the raw results only; the
  ``root_cause_entity_k`` entry itself was computed at ``config.k``.
- Per incident: ``mean``, ``stderr`` = population std / sqrt(n), ``n``; ``pass@1`` = share of trials
  scoring exactly 1 for the pass/fail metrics below.
- Overall: the macro mean of per-incident means, ``stderr`` with ddof=1 (null for one incident),
  ``n_incidents``, ``pass@1`` as the mean of per-incident pass@1, and ``total_bad_runs``.
- A trial recorded with an ``error`` has no scores (``{}``): it counts in no mean and once in
  ``total_bad_runs`` (the original counts unreadable outputs there and drops them from the raw list;
  we keep them in the raw list so nothing is lost). When there are such trials, each overall metric
  also gets ``mean_with_failures_as_zero`` (bad runs scored 0); ITBench's documents have none, so
  they are written back unchanged.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

#: Metrics for which pass@1 (share of trials scoring exactly 1) is reported.
PASS_AT_1_METRICS = frozenset(
    {
        "root_cause_entity",
        "root_cause_entity_k",
        "fault_localization_component_identification",
        "root_cause_resource",
    }
)

_SUFFIXES = {
    "calculation": "",
    "calculation_precision": "_precision",
    "calculation_recall": "_recall",
    "calculation_f1": "_f1",
}
_AT_K = re.compile(r"@\d+$")


class ScoreShapeError(ValueError):
    """A score that is neither a number nor a dict of numbers; ``path`` locates it."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        super().__init__(f"{path}: {message}")


def _number(value: Any, path: str) -> float | None:
    kind = type(value)
    if kind is float:
        return None if value != value else value  # NaN counts as missing
    if kind is int or kind is bool:
        return float(value)
    if value is None:
        return None
    if isinstance(value, int | float):  # subclasses (numpy scalars)
        return _number(float(value), path)
    raise ScoreShapeError(path, f"expected a number, got {type(value).__name__} {value!r:.60}")


#: metric name -> whether it is an @k entry; names repeat in every trial, so remember them.
_at_k_cache: dict[str, bool] = {}


def flatten_scores(scores: Mapping[str, Any], path: str = "scores") -> dict[str, float]:
    """``{"m": {"calculation_f1": 0.5}}`` -> ``{"m_f1": 0.5}``; nulls and ``@k`` entries dropped."""
    flat: dict[str, float] = {}
    for metric, value in scores.items():
        at_k = _at_k_cache.get(metric)
        if at_k is None:
            at_k = _at_k_cache[metric] = bool(_AT_K.search(metric))
        if at_k:
            continue
        if isinstance(value, Mapping):
            for key, suffix in _SUFFIXES.items():
                if key in value:
                    number = _number(value[key], f"{path}.{metric}.{key}")
                    if number is not None:
                        flat[metric + suffix] = number
        else:
            number = _number(value, f"{path}.{metric}")
            if number is not None:
                flat[metric] = number
    return flat


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values)


def _std(values: Sequence[float], ddof: int) -> float:
    mean = _mean(values)
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (len(values) - ddof))


def overall_statistics(
    per_incident: Mapping[str, Mapping[str, Mapping[str, Any]]],
    total_bad_runs: int,
    pass_metrics: frozenset[str] = PASS_AT_1_METRICS,
) -> dict[str, Any]:
    means: dict[str, list[float]] = {}
    passes: dict[str, list[float]] = {}
    for incident in per_incident.values():
        for metric, entry in incident.items():
            means.setdefault(metric, []).append(entry["mean"])
            if metric in pass_metrics and "pass@1" in entry:
                passes.setdefault(metric, []).append(entry["pass@1"])
    overall: dict[str, Any] = {}
    for metric, values in means.items():
        n = len(values)
        summary: dict[str, Any] = {
            "mean": _mean(values),
            "stderr": _std(values, 1) / math.sqrt(n) if n > 1 else None,
            "n_incidents": n,
        }
        if passes.get(metric):
            summary["pass@1"] = _mean(passes[metric])
        overall[metric] = summary
    overall["total_bad_runs"] = total_bad_runs
    return overall


def compute_statistics(
    raw_results: Sequence[Mapping[str, Any]], extra_pass_metrics: Iterable[str] = ()
) -> dict[str, Any]:
    """``statistics`` of a results document from its ``raw_results``, incidents in first-seen order."""
    pass_metrics = PASS_AT_1_METRICS | frozenset(extra_pass_metrics)
    # incident -> metric -> values, filled in one pass (100,000 trials must take well under a second)
    values: dict[str, dict[str, list[float]]] = {}
    bad_runs = 0
    failed: dict[str, int] = {}  # incident -> bad runs
    for index, entry in enumerate(raw_results):
        incident = str(entry["incident_id"])
        bucket = values.get(incident)
        if bucket is None:
            bucket = values[incident] = {}
        scores = entry.get("scores")
        if not scores:
            if "error" in entry:
                bad_runs += 1
                failed[incident] = failed.get(incident, 0) + 1
            continue
        if not isinstance(scores, Mapping):
            raise ScoreShapeError(f"raw_results[{index}].scores", "expected an object")
        _collect(scores, bucket, index)
    per_incident = {iid: _incident_from_columns(cols, pass_metrics) for iid, cols in values.items()}
    overall = overall_statistics(per_incident, bad_runs, pass_metrics)
    if failed:
        _add_failures_as_zero(overall, values, failed)
    return {"per_incident": per_incident, "overall": overall}


def _add_failures_as_zero(
    overall: dict[str, Any],
    values: Mapping[str, Mapping[str, list[float]]],
    failed: Mapping[str, int],
) -> None:
    """``mean_with_failures_as_zero`` beside each overall ``mean``: every bad run counts as a
    trial scoring 0 on every metric, and an incident with only bad runs counts with 0, so a reader
    sees what the failures cost. Added only when the raw results hold bad runs: ITBench's own
    documents drop them from the raw list, so their statistics stay byte for byte the same."""
    for metric, entry in overall.items():
        if metric == "total_bad_runs":
            continue
        per_incident = []
        for incident, columns in values.items():
            scored = columns.get(metric, [])
            trials = len(scored) + failed.get(incident, 0)
            if trials:
                per_incident.append(math.fsum(scored) / trials)
        entry["mean_with_failures_as_zero"] = _mean(per_incident) if per_incident else 0.0


def _collect(scores: Mapping[str, Any], bucket: dict[str, list[float]], index: int) -> None:
    """:func:`flatten_scores` inlined into the bucket: the hot loop of ``itbench stats``."""
    for metric, value in scores.items():
        names = _names_cache.get(metric)
        if names is None:
            names = _names_cache[metric] = _metric_names(metric)
        if not names:
            continue
        if type(value) is dict:
            for key, name in names:
                raw = value.get(key)
                if raw is None:
                    continue
                if type(raw) is not float or raw != raw:
                    raw = _number(raw, f"raw_results[{index}].scores.{metric}.{key}")
                    if raw is None:
                        continue
                column = bucket.get(name)
                if column is None:
                    bucket[name] = [raw]
                else:
                    column.append(raw)
        else:
            number = _number(value, f"raw_results[{index}].scores.{metric}")
            if number is not None:
                column = bucket.get(metric)
                if column is None:
                    bucket[metric] = [number]
                else:
                    column.append(number)


#: metric -> ((dict key, statistic name), ...); empty for ``@k`` entries that stay raw.
_names_cache: dict[str, tuple[tuple[str, str], ...]] = {}


def _metric_names(metric: str) -> tuple[tuple[str, str], ...]:
    if _AT_K.search(metric):
        return ()
    return tuple((key, metric + suffix) for key, suffix in _SUFFIXES.items())


def _incident_from_columns(
    columns: Mapping[str, list[float]], pass_metrics: frozenset[str]
) -> dict[str, dict[str, Any]]:
    stats: dict[str, dict[str, Any]] = {}
    for metric, vals in columns.items():
        n = len(vals)
        entry: dict[str, Any] = {
            "mean": _mean(vals),
            "stderr": _std(vals, 0) / math.sqrt(n),
            "n": n,
        }
        if metric in pass_metrics:
            entry["pass@1"] = sum(1 for v in vals if v == 1) / n
        stats[metric] = entry
    return stats
