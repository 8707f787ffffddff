"""The one exit-code table every itbench command follows."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Process exit codes, shared by every command (documented in docs/cli-contract.md)."""

    #: The command did what was asked and found nothing to report.
    OK = 0
    #: Findings: lint findings at or above the fail level, failing policy tests, a sandboxed
    #: program that failed, or a run scoring below ``--fail-under``.
    FINDINGS = 1
    #: Usage error: unknown flag, domain, agent or scenario id.
    USAGE = 2
    #: Tool error: unexpected failure or unreadable input.
    TOOL_ERROR = 3
