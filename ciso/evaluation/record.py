"""What one CISO evaluation records besides its scores: the engines that decided it, a verdict per
environment, the time each step took, and the first step that failed with its output."""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from itbench.models import ScoreValue
from itbench.plugins.spec import TrialScores

#: Output kept from a failing step (a fetcher's stderr can be long).
OUTPUT_LIMIT = 2000


def truncate(text: str, limit: int = OUTPUT_LIMIT) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[:limit] + f"… [{len(text) - limit} more characters]"


@dataclass(frozen=True)
class Failure:
    """The first thing that went wrong, in the words a person debugging the agent needs."""

    step: str
    reason: str
    output: str = ""


@dataclass
class Record:
    """Collects details while one evaluation runs (local to that evaluation, never shared)."""

    engines: dict[str, str] = field(default_factory=dict)
    environments: dict[str, dict[str, Any]] = field(default_factory=dict)
    timings_s: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    failure: Failure | None = None

    @contextmanager
    def timed(self, step: str) -> Iterator[None]:
        started = time.monotonic()
        try:
            yield
        finally:
            self.timings_s[step] = round(
                self.timings_s.get(step, 0.0) + time.monotonic() - started, 4
            )

    def fail(self, step: str, reason: str, output: str = "") -> None:
        """Remember a failure; only the first one is the trial's reason."""
        if self.failure is None:
            self.failure = Failure(step, reason, truncate(output))

    def verdict(self, environment: str, **facts: Any) -> None:
        self.environments.setdefault(environment, {}).update(facts)

    def scores(self, scores: Mapping[str, ScoreValue]) -> TrialScores:
        details: dict[str, Any] = {
            "engines": dict(self.engines),
            "environments": self.environments,
            "timings_s": dict(self.timings_s),
        }
        if self.notes:
            details["notes"] = list(self.notes)
        if self.failure is not None:
            details["failure"] = {
                "step": self.failure.step,
                "reason": self.failure.reason,
                **({"output": self.failure.output} if self.failure.output else {}),
            }
        return TrialScores(dict(scores), details)


def as_score(flag: bool) -> int:
    return 1 if flag else 0
