"""What every executor shares: the interface the runner calls, and how a finished trial is settled.

An executor runs the trials a plan left to do and reports each one, once, with its evaluation
already committed (``evaluation.json`` renamed into place) in the run directory. Where the trial
ran — a forked worker on this machine or a Ray worker on another node — is the executor's business.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from itbench.errors import OutputError
from itbench.models import Evaluation
from itbench.runner.layout import EVALUATION_FILE, read_evaluation
from itbench.runner.trial import (
    RunContext,
    TrialSpec,
    failed_evaluation,
    publish_transcript,
    write_evaluation,
)

OnTrial = Callable[[TrialSpec, Evaluation], None]


class Executor(Protocol):
    def execute(
        self,
        specs: Sequence[TrialSpec],
        ctx: RunContext,
        output_dir: Path,
        jobs: int,
        on_trial: OnTrial,
    ) -> None:
        """Run every spec (its directory already reset) and call ``on_trial`` after each."""
        ...


def settle_trial(
    spec: TrialSpec, ctx: RunContext, failure: str | None, timed_out: bool
) -> Evaluation:
    """The trial's committed evaluation; a trial that timed out or died before committing one
    gets an error evaluation written in its place, so every planned trial ends with one."""
    evaluation = read_evaluation(spec.directory / EVALUATION_FILE)
    if evaluation is None or timed_out:
        reason = "timeout" if timed_out else (failure or "no evaluation written")
        evaluation = record_failure(spec, ctx, reason)
    return evaluation


def record_failure(spec: TrialSpec, ctx: RunContext, reason: str) -> Evaluation:
    spec.directory.mkdir(parents=True, exist_ok=True)
    evaluation = failed_evaluation(spec, ctx, reason)
    try:
        # the history of a trial that died: the runner's, never what its agent left
        publish_transcript(spec.directory, last=True)
        write_evaluation(spec.directory, evaluation)
    except OutputError as exc:  # one trial's folder that cannot be written never stops the run
        print(f"warning: {spec.label}: {exc}", file=sys.stderr)
    return evaluation
