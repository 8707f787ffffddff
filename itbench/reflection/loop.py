"""Generate, validate, feed the diagnostics back, regenerate: at most ``feedback_rounds`` times.

Domains supply the validator (policies: lint, compile, dry-run; answers: the output schema);
the loop stops as soon as validation is clean. Every round goes into the transcript with the
diagnostics that were given back, so a reader can see what the model was told.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from itbench.transcript import Transcript


@dataclass(frozen=True)
class ReflectionRound:
    number: int
    diagnostics: tuple[str, ...]

    @property
    def clean(self) -> bool:
        return not self.diagnostics


@dataclass(frozen=True)
class ReflectionOutcome:
    rounds: tuple[ReflectionRound, ...]

    @property
    def clean(self) -> bool:
        return bool(self.rounds) and self.rounds[-1].clean


def feedback_message(diagnostics: Sequence[str]) -> str:
    lines = "\n".join(f"- {d}" for d in diagnostics)
    return (
        "Validation of your output found these problems:\n"
        f"{lines}\n"
        "Fix every one of them and write the corrected output again."
    )


def reflect(
    generate: Callable[[Sequence[str] | None], None],
    validate: Callable[[], Sequence[str]],
    feedback_rounds: int,
    transcript: Transcript,
) -> ReflectionOutcome:
    """Generate, validate, and feed the diagnostics back up to ``feedback_rounds`` times: 0 is one
    unassisted attempt (still validated, for the record), 3 is the first attempt plus three fixes
    (ITBench's reference agent retried tool errors up to 3 times)."""
    rounds: list[ReflectionRound] = []
    feedback: Sequence[str] | None = None
    for number in range(1, max(0, feedback_rounds) + 2):
        generate(feedback)
        diagnostics = tuple(validate())
        rounds.append(ReflectionRound(number, diagnostics))
        transcript.record(
            "reflection_round", round=number, clean=not diagnostics, diagnostics=list(diagnostics)
        )
        if not diagnostics:
            break
        feedback = diagnostics
    return ReflectionOutcome(tuple(rounds))
