"""Exceptions that the CLI turns into exit codes and one clear message (never a traceback)."""

from __future__ import annotations

from itbench.exitcodes import ExitCode


class ItbenchError(Exception):
    """Base class: ``exit_code`` says how the CLI should end."""

    exit_code: ExitCode = ExitCode.TOOL_ERROR


class UsageError(ItbenchError):
    """The user asked for something that does not exist (message lists what does)."""

    exit_code = ExitCode.USAGE


class InputError(ItbenchError):
    """An input file is unreadable or malformed; the message names the file, object and field."""

    exit_code = ExitCode.TOOL_ERROR


def unknown_name(kind: str, name: str, known: list[str] | tuple[str, ...]) -> UsageError:
    """A usage error for an unknown name, listing the names that exist."""
    listing = ", ".join(sorted(known)) or "(none)"
    return UsageError(f"unknown {kind} {name!r}; available: {listing}")
