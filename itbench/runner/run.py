"""A benchmark run: plan trials, skip the complete ones, run the rest, write ``results.json``.

Resumability rests on one rule: ``evaluation.json`` is written by rename as the last act of a trial,
so it is either absent (redo the trial from scratch) or complete (skip it). ``results.json`` is then
rebuilt from the evaluation files of exactly the planned (scenario, trial) pairs.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from itbench.models import Evaluation, Scenario
from itbench.runner.executors import Executor, LocalExecutor
from itbench.runner.layout import EVALUATION_FILE, RESULTS_FILE, read_evaluation, trial_dir
from itbench.runner.trial import RunContext, TrialSpec, remove_transcript_folders
from itbench.scoring.document import ResultsDocument, RunConfig


@dataclass(frozen=True)
class RunPlan:
    specs: tuple[TrialSpec, ...]
    done: tuple[TrialSpec, ...]
    todo: tuple[TrialSpec, ...]


def plan_trials(
    scenarios: Sequence[Scenario], trials: int, output_dir: Path, retry_errors: bool = False
) -> RunPlan:
    specs = tuple(
        TrialSpec(s, n, trial_dir(output_dir, s.id, n))
        for s in scenarios
        for n in range(1, trials + 1)
    )
    done, todo = [], []
    for spec in specs:
        evaluation = read_evaluation(spec.directory / EVALUATION_FILE)
        if evaluation is not None and not (retry_errors and evaluation.error is not None):
            done.append(spec)
        else:
            todo.append(spec)
    return RunPlan(specs, tuple(done), tuple(todo))


def _reset(spec: TrialSpec, output_dir: Path) -> None:
    """Remove what an interrupted attempt left, so the redo starts clean."""
    root = output_dir.resolve()
    target = spec.directory.resolve()
    if root not in target.parents:  # defence in depth: never delete outside the run directory
        raise RuntimeError(f"refusing to reset {target}: outside {root}")
    if target.exists():
        shutil.rmtree(target)


def execute_plan(
    plan: RunPlan,
    ctx: RunContext,
    output_dir: Path,
    jobs: int,
    on_trial: Callable[[TrialSpec, Evaluation], None] | None = None,
    executor: Executor | None = None,
) -> None:
    """Run the plan's remaining trials with ``executor`` (default: local forked workers)."""
    for spec in plan.todo:
        _reset(spec, output_dir)

    def report(spec: TrialSpec, evaluation: Evaluation) -> None:
        if on_trial is not None:
            on_trial(spec, evaluation)

    (executor or LocalExecutor()).execute(plan.todo, ctx, output_dir, jobs, report)
    remove_transcript_folders(output_dir)


def collect_evaluations(plan: RunPlan) -> list[Evaluation]:
    evaluations = []
    for spec in plan.specs:
        evaluation = read_evaluation(spec.directory / EVALUATION_FILE)
        if evaluation is not None:
            evaluations.append(evaluation)
    return evaluations


def results_config(
    ctx_domain: str,
    agent: str,
    model: str | None,
    trials: int,
    scenarios: Sequence[Scenario],
    primary_metric: str | None,
    extra: Mapping[str, Any],
) -> RunConfig:
    """The ``config`` of a results document; ``extra`` (a domain's ``results_config``) is added
    last and wins, as ITBench keys like ``k`` are the domain's to set."""
    fields: dict[str, Any] = {
        "domain": ctx_domain,
        "agent": agent,
        "model": model,
        "trials": trials,
        "primary_metric": primary_metric,
        "scenario_classes": {s.id: s.scenario_class for s in scenarios},
    }
    fields.update(extra)
    return RunConfig.model_validate(fields)


def write_results(
    evaluations: Sequence[Evaluation], config: RunConfig, path: Path
) -> ResultsDocument:
    """Build the run's results document once, write it, and hand it back for display."""
    from itbench.scoring.results import write_results_document

    document = ResultsDocument.build([e.raw_result() for e in evaluations], config)
    write_results_document(document, path)
    return document


def results_path(output_dir: Path) -> Path:
    return output_dir / RESULTS_FILE
