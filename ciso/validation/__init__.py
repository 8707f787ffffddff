"""The CISO validator: what reflection feeds back to a model, and what ``itbench``'s agents may
run on their own answer.

Four steps in order, each only when the ones before found no error (a later step cannot run on
an answer that is missing or does not load): (1) the class's files exist under the right names;
(2) ``itbench lint --profile itbench`` findings; (3) Rego compile errors, Kyverno structural
errors, ``ansible-playbook --syntax-check``; (4) a dry run on the violating environment the agent
was given (never the compliant one, never ground truth).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path

from ciso.scenarios.model import ScenarioClass
from ciso.validation.diagnostics import Diagnostic, Level, Step, has_errors, problems
from itbench.errors import InputError
from itbench.fsutil import append_line, real_directory
from itbench.models import PublicScenario

__all__ = ["Diagnostic", "Level", "Step", "problems", "validate", "validate_output"]

#: One JSON line per validation (steps run, seconds), for people and the ablation benchmark.
LOG_FILE = Path(".itbench") / "validation.jsonl"


def scenario_class_of(scenario: PublicScenario) -> ScenarioClass:
    try:
        return ScenarioClass(scenario.scenario_class)
    except ValueError:
        raise InputError(
            f"scenario {scenario.id!r}: class {scenario.scenario_class!r} is not a CISO class"
        ) from None


def validate(scenario: PublicScenario, workspace: Path) -> list[Diagnostic]:
    from ciso.validation.compile_step import compile_answer
    from ciso.validation.dry_run import dry_run
    from ciso.validation.files import required_files
    from ciso.validation.lint_step import lint_answer

    started = time.monotonic()
    timings: dict[str, float] = {}
    cls = scenario_class_of(scenario)
    migrate_to = scenario.metadata.get("migrate_to")  # kyverno-migrate: the answer's dialect
    files, diagnostics = required_files(cls, workspace, migrate_to)
    timings[Step.FILES] = time.monotonic() - started
    for step, run in (
        (Step.LINT, lambda: lint_answer(files)),
        (Step.COMPILE, lambda: compile_answer(files)),
        (Step.DRY_RUN, lambda: dry_run(cls, files, scenario.metadata.get("cis_id"), migrate_to)),
    ):
        if has_errors(diagnostics):
            break
        begun = time.monotonic()
        diagnostics += run()
        timings[step] = time.monotonic() - begun
    _log(workspace, diagnostics, timings, time.monotonic() - started)
    return diagnostics


def _log(
    workspace: Path, diagnostics: list[Diagnostic], timings: dict[str, float], total: float
) -> None:
    # the workspace is the agent's: a link planted at .itbench or the log is replaced, not followed
    path = real_directory(workspace, LOG_FILE.parent) / LOG_FILE.name
    entry = {
        "seconds": round(total, 4),
        "steps": {str(k): round(v, 4) for k, v in timings.items()},
        "problems": sum(d.is_problem for d in diagnostics),
    }
    append_line(path, json.dumps(entry) + "\n")


def validate_output(scenario: PublicScenario, workspace: Path) -> Sequence[str]:
    """The ``DomainRun.validate_output`` hook: the problems as one-line strings, [] when clean."""
    return problems(validate(scenario, workspace))


def render(diagnostics: Sequence[Diagnostic]) -> str:
    """Everything, facts included: what the ``validate`` tool shows a model."""
    if not diagnostics:
        return "clean: no problem found"
    lines = [d.render() for d in diagnostics]
    verdict = "problems found" if any(d.is_problem for d in diagnostics) else "clean"
    return verdict + ":\n" + "\n".join(lines)
