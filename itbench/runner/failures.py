"""One rule for failed trials, shared by ``run`` and ``eval``.

A trial that recorded an error produced no score. A run where *no* trial produced a score did not
measure anything: it is a tool error (exit 3) whose first cause is printed, never a green table of
zeros. Partial failures are reported on stderr with their first cause and fail the command only
beyond ``--fail-on-errors N``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from itbench.errors import ItbenchError
from itbench.scoring.document import RawResult


def evaluation_error(exc: Exception) -> str:
    """A trial's error when its evaluator raised ``exc``: the agent's output refused by a reader
    (an itbench error), or an evaluator bug or input no reader foresaw, named by its type and cut
    to 500 characters (a message may quote a whole file)."""
    if isinstance(exc, ItbenchError):
        return f"unusable agent output: {exc}"
    return f"evaluation failed: {type(exc).__name__}: {str(exc)[:500]}"


@dataclass(frozen=True)
class FailedTrials:
    """Which trials of a results document produced no score, and the first one's cause."""

    total: int
    failed: int
    #: ``<scenario>#<trial>: <error>`` of the first failed trial, in document order.
    first_cause: str | None

    @property
    def none_scored(self) -> bool:
        return self.total > 0 and self.failed == self.total


def failed_trials(raw_results: Sequence[RawResult]) -> FailedTrials:
    failed = [r for r in raw_results if r.get("error") or not r.get("scores")]
    first = None
    if failed:
        head = failed[0]
        first = (
            f"{head.get('incident_id')}#{head.get('trial_id', '?')}: "
            f"{head.get('error') or 'no score recorded'}"
        )
    return FailedTrials(len(raw_results), len(failed), first)


def failure_messages(outcome: FailedTrials, fail_on_errors: int | None) -> tuple[list[str], bool]:
    """The lines to print on stderr, and whether the command must end with a tool error."""
    if outcome.failed == 0:
        return [], False
    if outcome.none_scored:
        return [
            f"error: no trial produced a score: all {outcome.total} trial(s) failed; "
            f"first: {outcome.first_cause}"
        ], True
    share = f"{outcome.failed} of {outcome.total} trial(s) failed (no score); first: "
    if fail_on_errors is not None and outcome.failed > fail_on_errors:
        return [
            f"error: {share}{outcome.first_cause} (more than --fail-on-errors {fail_on_errors})"
        ], True
    return [f"warning: {share}{outcome.first_cause}"], False
