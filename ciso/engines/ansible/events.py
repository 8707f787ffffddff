"""ansible-runner's per-task events, read from its ``--json`` stream: which task ran on which
host and how it ended, so reflection can say "task 'Read sshd_config' failed on localhost:
non-zero return code (rc 1): cat: ...: No such file" instead of a tail of play output.

ansible-runner prints one JSON object per line (``runner_on_ok``, ``runner_on_failed``,
``runner_on_unreachable``, ``runner_on_skipped``, ``playbook_on_stats``, ...); each carries the
human-readable text Ansible would have printed in ``stdout``. A line that is not JSON (a warning
the runner itself printed) is kept as text.
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


@dataclass(frozen=True)
class RunnerOutput:
    events: tuple[TaskEvent, ...]
    #: what Ansible printed, rebuilt from the events' text (what ``ansible-playbook`` would show)
    text: str


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
    for line in stdout.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            text.append(line)
            continue
        if not isinstance(event, dict):
            text.append(line)
            continue
        shown = event.get("stdout")
        if isinstance(shown, str) and shown:
            text.append(shown)
        outcome = _OUTCOMES.get(str(event.get("event")))
        data = event.get("event_data")
        if outcome is None or not isinstance(data, dict):
            continue
        result = data.get("res") if isinstance(data.get("res"), dict) else {}
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
    return RunnerOutput(tuple(events), "\n".join(text))


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
