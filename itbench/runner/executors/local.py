"""The default executor: persistent forked workers on this machine (``itbench.runner.pool``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from itbench.runner.executors.base import OnTrial, settle_trial
from itbench.runner.pool import WorkerExit, run_in_workers
from itbench.runner.trial import RunContext, TrialSpec, execute_trial


@dataclass(frozen=True)
class LocalExecutor:
    def execute(
        self,
        specs: Sequence[TrialSpec],
        ctx: RunContext,
        output_dir: Path,
        jobs: int,
        on_trial: OnTrial,
    ) -> None:
        def work(spec: TrialSpec) -> None:
            execute_trial(spec, ctx)

        def on_exit(exit_: WorkerExit) -> None:
            evaluation = settle_trial(exit_.spec, ctx, exit_.failure, exit_.timed_out)
            on_trial(exit_.spec, evaluation)

        run_in_workers(specs, work, jobs, ctx.time_limit_s, on_exit)
