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


class OutputError(ItbenchError):
    """An output file or folder cannot be written; the message names the path and the reason."""

    exit_code = ExitCode.TOOL_ERROR


def unknown_name(kind: str, name: str, known: list[str] | tuple[str, ...]) -> UsageError:
    """A usage error for an unknown name, listing the names that exist."""
    listing = ", ".join(sorted(known)) or "(none)"
    return UsageError(f"unknown {kind} {name!r}; available: {listing}")


def parse_problem(exc: Exception) -> str:
    """A YAML or JSON parse error as "line L, column C: problem", without the parser's own
    "<unicode string>" stand-in for the file (the caller puts the file name in front)."""
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None)
    if mark is not None and problem:
        context = getattr(exc, "context", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}"
        return f"{where}: {problem}" + (f" ({context})" if context else "")
    if hasattr(exc, "lineno") and hasattr(exc, "colno") and hasattr(exc, "msg"):
        return f"line {exc.lineno}, column {exc.colno}: {exc.msg}"  # json.JSONDecodeError
    return str(exc)
