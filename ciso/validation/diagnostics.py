"""What the CISO validator reports: one diagnostic per problem (or per dry-run fact), tagged with
the step that found it, rendered as the one-line strings fed back to a model."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Step(StrEnum):
    """The validator's steps, in the order they run."""

    FILES = "files"
    LINT = "lint"
    COMPILE = "compile"
    DRY_RUN = "dry-run"


class Level(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    #: A fact about the dry run (what the policy reported); not a problem, never fed back alone.
    INFO = "info"


@dataclass(frozen=True)
class Diagnostic:
    step: Step
    level: Level
    message: str
    #: Workspace-relative file the diagnostic is about, and where in it.
    file: str | None = None
    line: int | None = None
    #: The lint rule or tool check that produced it (``REGO001``, ``syntax-check``).
    rule: str | None = None

    @property
    def is_problem(self) -> bool:
        return self.level is not Level.INFO

    def render(self) -> str:
        where = ""
        if self.file:
            where = self.file + (f":{self.line}" if self.line else "") + ": "
        rule = f"{self.rule} " if self.rule else ""
        return f"[{self.step}] {where}{rule}{self.level}: {self.message}"


def problems(diagnostics: list[Diagnostic]) -> list[str]:
    """What ``DomainRun.validate_output`` returns: the problems only, [] when the answer is clean."""
    return [d.render() for d in diagnostics if d.is_problem]


def has_errors(diagnostics: list[Diagnostic]) -> bool:
    return any(d.level is Level.ERROR for d in diagnostics)
