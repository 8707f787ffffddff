"""What every report format renders: one :class:`RunSummary` per results document."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from itbench.scoring.aggregate import flatten_scores
from itbench.scoring.results import load_results_file, recompute


@dataclass(frozen=True)
class MetricSummary:
    mean: float
    stderr: float | None
    n_incidents: int
    pass_at_1: float | None


@dataclass(frozen=True)
class TrialRow:
    scenario: str
    trial: str
    scenario_class: str
    scores: dict[str, float]
    error: str | None


@dataclass(frozen=True)
class RunSummary:
    label: str
    source: str
    domain: str | None
    agent: str | None
    model: str | None
    primary_metric: str | None
    metrics: dict[str, MetricSummary]
    #: class -> (number of scenarios, metric -> mean of per-scenario means)
    classes: dict[str, tuple[int, dict[str, float]]]
    trials: tuple[TrialRow, ...]
    bad_runs: int

    def verdict_metric(self) -> str | None:
        """The metric a trial passes or fails on (JUnit): the primary one, else the first pass@1 one."""
        if self.primary_metric:
            return self.primary_metric
        return next((m for m, s in self.metrics.items() if s.pass_at_1 is not None), None)


def _summary(document: dict[str, Any], label: str, source: str) -> RunSummary:
    config = document.get("config") or {}
    stats = document["statistics"]
    overall = stats.get("overall", {})
    metrics = {
        name: MetricSummary(
            entry["mean"], entry.get("stderr"), entry.get("n_incidents", 0), entry.get("pass@1")
        )
        for name, entry in overall.items()
        if isinstance(entry, dict) and "mean" in entry
    }
    classes_of = config.get("scenario_classes") or {}
    grouped: dict[str, dict[str, list[float]]] = {}
    counts: dict[str, int] = {}
    for incident, entries in stats.get("per_incident", {}).items():
        cls = classes_of.get(incident, "all")
        counts[cls] = counts.get(cls, 0) + 1
        for metric, entry in entries.items():
            grouped.setdefault(cls, {}).setdefault(metric, []).append(entry["mean"])
    classes = {
        cls: (counts[cls], {m: math.fsum(v) / len(v) for m, v in grouped.get(cls, {}).items()})
        for cls in sorted(counts)
    }
    trials = []
    for i, entry in enumerate(document.get("raw_results", [])):
        incident = str(entry.get("incident_id"))
        scores = flatten_scores(entry.get("scores") or {}, f"raw_results[{i}].scores")
        error = entry.get("error")
        trials.append(
            TrialRow(
                incident,
                str(entry.get("trial_id")),
                classes_of.get(incident, "all"),
                scores,
                str(error) if error is not None else None,
            )
        )
    return RunSummary(
        label=label,
        source=source,
        domain=config.get("domain"),
        agent=config.get("agent"),
        model=config.get("model"),
        primary_metric=config.get("primary_metric"),
        metrics=metrics,
        classes=classes,
        trials=tuple(trials),
        bad_runs=int(overall.get("total_bad_runs", 0) or 0),
    )


def load_runs(paths: Sequence[Path]) -> list[RunSummary]:
    """Every results document of every file (AgentBeats files may hold several), statistics
    recomputed from the raw results so a report never trusts stale numbers."""
    runs = []
    for path in paths:
        loaded = load_results_file(path)
        for index, document in enumerate(loaded.documents):
            document = recompute(document, path)
            config = document.get("config") or {}
            # "outputs/finops-llm/results.json" is best called by its folder
            label = config.get("run_name") or (
                path.parent.name if path.stem == "results" and path.parent.name else path.stem
            )
            if len(loaded.documents) > 1:
                label = f"{label}[{index}]"
            runs.append(_summary(document, label, str(path)))
    labels = [r.label for r in runs]
    if len(set(labels)) != len(labels):  # two files with one name: tell them apart by their path
        runs = [
            RunSummary(**{**r.__dict__, "label": r.source}) if labels.count(r.label) > 1 else r
            for r in runs
        ]
    return runs


def metric_names(runs: Sequence[RunSummary]) -> list[str]:
    """Metrics in first-seen order across runs, primary metrics first."""
    names: list[str] = []
    for run in runs:
        if (
            run.primary_metric
            and run.primary_metric in run.metrics
            and run.primary_metric not in names
        ):
            names.append(run.primary_metric)
    for run in runs:
        for name in run.metrics:
            if name not in names:
                names.append(name)
    return names


def fmt_mean(summary: MetricSummary | None) -> str:
    if summary is None:
        return "-"
    text = f"{summary.mean:.3f}"
    if summary.stderr is not None:
        text += f" ± {summary.stderr:.3f}"
    return text
