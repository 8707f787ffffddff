"""What every report format renders: one :class:`RunSummary` per results document."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from itbench.scoring.aggregate import flatten_scores
from itbench.scoring.document import ResultsDocument
from itbench.scoring.results import load_results_file

_DIGITS = re.compile(r"(\d+)")


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
class ScenarioRow:
    """One scenario of one run: its trials, how many errored, and its per-metric means."""

    scenario: str
    scenario_class: str
    trials: int
    errors: int
    means: dict[str, float]


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
    #: scenarios in natural order (``Scenario-2`` before ``Scenario-10``)
    scenarios: tuple[ScenarioRow, ...]
    trials: tuple[TrialRow, ...]
    bad_runs: int

    def verdict_metric(self) -> str | None:
        """The metric a trial passes or fails on (JUnit): the primary one, else the first pass@1 one."""
        if self.primary_metric:
            return self.primary_metric
        return next((m for m, s in self.metrics.items() if s.pass_at_1 is not None), None)


def summarize(document: ResultsDocument, label: str, source: str) -> RunSummary:
    """What the report formats show of one results document."""
    config = document.config
    overall = document.statistics.overall
    metrics = {
        name: MetricSummary(m.mean, m.stderr, m.n_incidents, m.pass_at_1)
        for name, m in overall.metrics.items()
    }
    classes_of = config.scenario_classes
    grouped: dict[str, dict[str, list[float]]] = {}
    counts: dict[str, int] = {}
    for incident, entries in document.statistics.per_incident.items():
        cls = classes_of.get(incident, "all")
        counts[cls] = counts.get(cls, 0) + 1
        for metric, incident_metric in entries.items():
            grouped.setdefault(cls, {}).setdefault(metric, []).append(incident_metric.mean)
    classes = {
        cls: (counts[cls], {m: math.fsum(v) / len(v) for m, v in grouped.get(cls, {}).items()})
        for cls in sorted(counts)
    }
    trials = []
    for i, entry in enumerate(document.raw_results):
        incident = str(entry["incident_id"])
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
        domain=config.domain,
        agent=config.agent,
        model=config.model,
        primary_metric=config.primary_metric,
        metrics=metrics,
        classes=classes,
        scenarios=_scenario_rows(document, trials),
        trials=tuple(trials),
        bad_runs=overall.total_bad_runs,
    )


def _scenario_rows(
    document: ResultsDocument, trials: Sequence[TrialRow]
) -> tuple[ScenarioRow, ...]:
    counts: dict[str, int] = {}
    errors: dict[str, int] = {}
    for trial in trials:
        counts[trial.scenario] = counts.get(trial.scenario, 0) + 1
        if trial.error is not None:
            errors[trial.scenario] = errors.get(trial.scenario, 0) + 1
    per_incident = document.statistics.per_incident
    classes_of = document.config.scenario_classes
    return tuple(
        ScenarioRow(
            scenario,
            classes_of.get(scenario, "-"),
            counts[scenario],
            errors.get(scenario, 0),
            {m: e.mean for m, e in per_incident.get(scenario, {}).items()},
        )
        for scenario in sorted(counts, key=natural_key)
    )


def natural_key(text: str) -> tuple[Any, ...]:
    """``Scenario-2`` before ``Scenario-10``."""
    return tuple((0, int(t)) if t.isdigit() else (1, t) for t in _DIGITS.split(text))


def run_label(document: ResultsDocument, path: Path) -> str:
    """``config.run_name``, else the folder of a ``results.json``
    (``outputs/<domain>-llm/results.json`` is best called by its folder), else the file name."""
    if document.config.run_name:
        return document.config.run_name
    return path.parent.name if path.stem == "results" and path.parent.name else path.stem


def load_runs(paths: Sequence[Path]) -> list[RunSummary]:
    """Every results document of every file (AgentBeats files may hold several), statistics
    recomputed from the raw results so a report never trusts stale numbers."""
    runs = []
    for path in paths:
        loaded = load_results_file(path)
        for index, document in enumerate(loaded.documents):
            label = run_label(document, path)
            if len(loaded.documents) > 1:
                label = f"{label}[{index}]"
            runs.append(summarize(document, label, str(path)))
    labels = [r.label for r in runs]
    if len(set(labels)) != len(labels):  # two files with one name: tell them apart by their path
        runs = [replace(r, label=r.source) if labels.count(r.label) > 1 else r for r in runs]
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
