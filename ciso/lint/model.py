"""Findings, rule descriptions and severities shared by every lint rule and output format."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SEVERITIES = ("info", "warning", "error")


def severity_rank(severity: str) -> int:
    return SEVERITIES.index(severity)


@dataclass(frozen=True)
class RuleInfo:
    id: str
    severity: str
    description: str
    #: What an author should do: shown in SARIF help and fed back to agents.
    help: str
    docs: str = ""

    @property
    def help_uri(self) -> str:
        """The rule's section in docs/lint-rules.md (one page, an anchor per rule)."""
        return (
            self.docs
            or f"https://github.com/itbench/itbench/blob/main/docs/lint-rules.md#{self.id.lower()}"
        )


@dataclass(frozen=True)
class Finding:
    rule: RuleInfo
    file: str
    message: str
    line: int | None = None
    column: int | None = None
    severity: str | None = None  # overrides the rule's default

    @property
    def level(self) -> str:
        return self.severity or self.rule.severity


@dataclass
class LintTarget:
    """One discovered file and what it holds."""

    path: Path
    kind: str  # rego, kyverno-policy, kyverno-test, ansible, unknown
    text: str = ""
    documents: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class Options:
    profile: str | None = None
    run_tests: bool = False
    rego_engine: str | None = None
    timeout_s: float = 30.0


@dataclass
class LintRun:
    findings: list[Finding] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    #: Problems of the tool itself (a linter that could not run), not of the linted files.
    tool_errors: list[str] = field(default_factory=list)
    #: Things worth saying that are not problems (a linter not installed, so its rule was skipped).
    notes: list[str] = field(default_factory=list)
