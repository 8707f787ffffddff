"""``eval``: score outputs someone else produced, laid out as ``DIR/<scenario>/<trial>/``."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from itbench.errors import UsageError
from itbench.models import Evaluation
from itbench.plugins.spec import DomainRun, split_scores
from itbench.runner.failures import evaluation_error
from itbench.runner.layout import EVAL_RESULTS_FILE, discover_outputs, scenario_key
from itbench.scoring.document import ResultsDocument


def evaluate_outputs(
    session: DomainRun,
    outputs: Path,
    ground_truth: Path | None,
    result_file: Path | None,
    options: Mapping[str, Any] | None = None,
) -> tuple[ResultsDocument, Path]:
    from itbench.runner.run import results_config, write_results

    # absolute: evaluators hand trial paths to tools that run in other working directories
    outputs = outputs.resolve()

    domain = session.domain
    evaluate = session.evaluate
    if evaluate is None:
        raise UsageError(f"the {domain.name} domain has no evaluator")
    path = result_path(outputs, result_file)
    trials = discover_outputs(outputs)
    if not trials:
        raise UsageError(f"{outputs}: no trial folders found (expected <scenario>/<trial number>/)")
    truths = session.ground_truth(ground_truth)
    by_key = {scenario_key(sid): s for sid, s in truths.items()}
    unknown = sorted(
        {t.scenario_folder for t in trials if scenario_key(t.scenario_folder) not in by_key}
    )
    if unknown:
        # scoring the rest against whatever truth happened to load would report a different
        # benchmark than the one that ran: name what cannot be scored and where truth comes from
        source = f"in {ground_truth}" if ground_truth else "in the built-in suite"
        raise UsageError(
            f"{outputs}: no ground truth {source} for {len(unknown)} scenario folder(s): "
            f"{', '.join(unknown)}; pass --ground-truth with the scenarios they were run on"
        )
    evaluations: list[Evaluation] = []
    seen = []
    for trial in trials:
        scenario = by_key[scenario_key(trial.scenario_folder)]
        seen.append(scenario)
        try:
            scores, details = split_scores(evaluate(scenario, trial.path))
            error = None
        except Exception as exc:  # one trial's surprise must not lose the others
            # that trial's error (scored 0, as ``run`` records it), every other trial still
            # scored and the document still written
            scores, details, error = {}, {}, evaluation_error(exc)
        evaluations.append(
            Evaluation(
                scenario_id=scenario.id,
                trial_id=trial.trial_id,
                scenario_class=scenario.scenario_class,
                scores=scores,
                error=error,
                details=details,
            )
        )
    # a scenario of the ground truth with no output is a bad run, not a scenario left out: ITBench
    # excludes bad runs from means, and mean_with_failures_as_zero shows what they cost
    answered = {s.id for s in seen}
    # one scenario may sit under several keys (a base id standing for its only class)
    distinct = {s.id: s for s in truths.values()}
    missing = [s for s in distinct.values() if s.id not in answered]
    if missing:
        print(
            f"warning: {outputs}: no output for {len(missing)} scenario(s) of the ground truth, "
            f"counted as bad runs: {', '.join(s.id for s in missing)}",
            file=sys.stderr,
        )
    for scenario in missing:
        seen.append(scenario)
        evaluations.append(
            Evaluation(
                scenario_id=scenario.id,
                trial_id="1",
                scenario_class=scenario.scenario_class,
                error=f"missing output: no trial folder for this scenario under {outputs}",
            )
        )
    unique = list({s.id: s for s in seen}.values())
    extra = {**domain.results_config_for(unique, options or {}), "outputs": str(outputs)}
    config = results_config(domain.name, "external", None, 0, unique, domain.primary_metric, extra)
    document = write_results(evaluations, config, path)
    return document, path


def written_to(outputs: Path, result_file: Path | None) -> Path:
    """Where :func:`evaluate_outputs` wrote its document (checks nothing: for saying so after)."""
    return result_file if result_file is not None else outputs.resolve() / EVAL_RESULTS_FILE


def result_path(outputs: Path, result_file: Path | None) -> Path:
    """Where ``eval`` writes: ``--result-file`` (replaced if it exists: that was asked), else
    ``OUTPUTS/eval-results.json``, which must not exist yet. A run's own ``results.json`` (agent
    name, durations) is never replaced unless named."""
    if result_file is not None:
        return result_file
    path = outputs / EVAL_RESULTS_FILE
    if path.exists():
        raise UsageError(
            f"{path} exists; eval does not replace a results document unless asked: pass "
            f"--result-file {path} to replace it, or --result-file with another name"
        )
    return path
