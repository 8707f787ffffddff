"""Progress on stderr: a live bar on a terminal, one line per trial otherwise (CI logs)."""

from __future__ import annotations

import sys
from types import TracebackType
from typing import TYPE_CHECKING

from itbench.models import Evaluation
from itbench.runner.trial import TrialSpec

if TYPE_CHECKING:
    from rich.progress import Progress as RichProgress
    from rich.progress import TaskID


class Progress:
    def __init__(self, total: int, skipped: int, enabled: bool = True) -> None:
        self.total = total
        self.skipped = skipped
        self.enabled = enabled
        self._bar: RichProgress | None = None  # rich is imported only for a terminal
        self._task: TaskID | None = None
        self._done = 0

    def __enter__(self) -> Progress:
        if self.skipped:  # a message, not progress: shown even with --no-progress
            print(f"resuming: {self.skipped} complete trial(s) kept", file=sys.stderr)
        if self.enabled and sys.stderr.isatty() and self.total:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as RichProgress

            self._bar = RichProgress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self._bar.__enter__()
            self._task = self._bar.add_task("trials", total=self.total)
        return self

    def trial_done(self, spec: TrialSpec, evaluation: Evaluation) -> None:
        self._done += 1
        if not self.enabled:
            return
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, advance=1, description=spec.label)
            return
        outcome = f"error: {evaluation.error}" if evaluation.error else _brief(evaluation)
        print(f"[{self._done}/{self.total}] {spec.label} {outcome}", file=sys.stderr, flush=True)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.__exit__(exc_type, exc, tb)


def _brief(evaluation: Evaluation) -> str:
    parts = []
    for name, value in evaluation.scores.items():
        if isinstance(value, dict):
            value = value.get("calculation", value.get("calculation_f1"))
        if isinstance(value, int | float):
            parts.append(f"{name}={value:g}")
    return " ".join(parts) or "ok"
