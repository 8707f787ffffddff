"""``eval``: score outputs someone else produced, laid out as ``DIR/<scenario>/<trial>/``."""

from __future__ import annotations

import sys
from pathlib import Path

from itbench.errors import ItbenchError, UsageError
from itbench.models import Evaluation
from itbench.plugins.spec import Domain, split_scores
from itbench.runner.layout import RESULTS_FILE, discover_outputs, scenario_key
from itbench.scoring.document import ResultsDocument


def evaluate_outputs(
    domain: Domain, outputs: Path, ground_truth: Path | None, result_file: Path | None
) -> tuple[ResultsDocument, Path]:
    from itbench.runner.run import results_config, write_results

    # absolute: evaluators hand trial paths to tools that run in other working directories
    outputs = outputs.resolve()

    assert domain.load_ground_truth is not None and domain.evaluate is not None
    truths = domain.load_ground_truth(ground_truth)
    by_key = {scenario_key(sid): s for sid, s in truths.items()}
    trials = discover_outputs(outputs)
    if not trials:
        raise UsageError(f"{outputs}: no trial folders found (expected <scenario>/<trial number>/)")
    evaluations: list[Evaluation] = []
    seen = []
    for trial in trials:
        scenario = by_key.get(scenario_key(trial.scenario_folder))
        if scenario is None:
            print(
                f"warning: {trial.path}: no ground truth for scenario {trial.scenario_folder!r}; skipped",
                file=sys.stderr,
            )
            continue
        seen.append(scenario)
        try:
            scores, details = split_scores(domain.evaluate(scenario, trial.path))
            error = None
        except ItbenchError as exc:
            scores, details, error = {}, {}, f"unusable agent output: {exc}"
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
    missing = [s for s in truths.values() if s.id not in answered]
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
    extra = {**domain.results_config, "outputs": str(outputs)}
    config = results_config(domain.name, "external", None, 0, unique, domain.primary_metric, extra)
    path = result_file or outputs / RESULTS_FILE
    document = write_results(evaluations, config, path)
    return document, path
