"""ansible-runner's per-task events, read from its ``--json`` stream: which task ran on which
host and how it ended, so reflection can say "task 'Read sshd_config' failed on localhost:
non-zero return code (rc 1): cat: ...: No such file" instead of a tail of play output.

ansible-runner prints one JSON object per line (``runner_on_ok``, ``runner_on_failed``,
``runner_on_unreachable``, ``runner_on_skipped``, ``playbook_on_stats``, ...); each carries the
human-readable text Ansible would have printed in ``stdout``. A line that is not JSON (a warning
Ansible printed past the stream) is kept as text. Warnings and errors, which ``ansible-playbook``
writes to stderr, are kept apart, whether they came as ``verbose`` events or as bare lines.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

#: The runner events that end one task on one host, and the outcome each stands for.
_OUTCOMES = {
    "runner_on_ok": "ok",
    "runner_on_failed": "failed",
    "runner_on_unreachable": "unreachable",
    "runner_on_skipped": "skipped",
}
#: Characters of a failed task's stderr/stdout kept in its message.
_DETAIL = 300


@dataclass(frozen=True)
class TaskEvent:
    task: str
    host: str
    #: ok, failed, unreachable or skipped
    outcome: str
    #: the task's ``msg`` and, for a failure, its return code and first error text
    message: str
    #: ``ignore_errors: true`` on a failed task: the play went on
    ignored: bool = False
    #: where the task is defined (``playbook.yml:12``) when Ansible says
    path: str = ""


#: How Ansible's display starts the lines it writes to stderr (the runner streams them as
#: ``verbose`` events among the rest).
_STDERR_MARKS = ("[WARNING]", "[DEPRECATION WARNING]", "[ERROR]")


@dataclass(frozen=True)
class RunnerOutput:
    events: tuple[TaskEvent, ...]
    #: what Ansible printed on stdout, rebuilt from the events' text (as ``ansible-playbook``)
    text: str
    #: Ansible's warnings and errors, which ``ansible-playbook`` writes to stderr
    warnings: str = ""


def _message(result: dict, outcome: str) -> str:
    parts = []
    msg = result.get("msg")
    if isinstance(msg, str) and msg:
        parts.append(msg)
    if outcome == "failed":
        rc = result.get("rc")
        if isinstance(rc, int):
            parts.append(f"(rc {rc})")
        for key in ("stderr", "stdout", "module_stderr"):
            detail = result.get(key)
            if isinstance(detail, str) and detail.strip():
                parts.append(f"{key}: {detail.strip()[:_DETAIL]}")
                break
    return " ".join(parts)


def parse_runner_output(stdout: str) -> RunnerOutput:
    events: list[TaskEvent] = []
    text: list[str] = []
    warnings: list[str] = []
    for line in stdout.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            event = None
        if not isinstance(event, dict):
            # a line Ansible's display wrote past the runner's event stream (it does so for some
            # warnings): stderr's when it is marked as such
            (warnings if line.lstrip().startswith(_STDERR_MARKS) else text).append(line)
            continue
        shown = event.get("stdout")
        if isinstance(shown, str) and shown:
            if event.get("event") == "verbose" and shown.lstrip().startswith(_STDERR_MARKS):
                warnings.append(shown)
            else:
                text.append(shown)
        outcome = _OUTCOMES.get(str(event.get("event")))
        data = event.get("event_data")
        if outcome is None or not isinstance(data, dict):
            continue
        raw_result = data.get("res")
        result = raw_result if isinstance(raw_result, dict) else {}
        events.append(
            TaskEvent(
                task=str(data.get("task") or ""),
                host=str(data.get("host") or ""),
                outcome=outcome,
                message=_message(result, outcome),
                ignored=bool(data.get("ignore_errors")),
                path=str(data.get("task_path") or ""),
            )
        )
    return RunnerOutput(tuple(events), "\n".join(text), "\n".join(warnings))


def failures(events: tuple[TaskEvent, ...]) -> list[str]:
    """One line per task that stopped the play on a host (ignored failures left out)."""
    lines = []
    for event in events:
        if event.outcome in ("failed", "unreachable") and not event.ignored:
            where = f" ({event.path.rsplit('/', 1)[-1]})" if event.path else ""
            lines.append(
                f"task {event.task!r}{where} {event.outcome} on {event.host}: {event.message}"
            )
    return lines
