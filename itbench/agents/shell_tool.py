"""The llm agent's ``shell`` tool: one command per call, run in the sandbox ``--agent-cmd`` runs in.

This is ITBench-AA's harness shape (a model that works through a shell, no bespoke tools) with any
litellm model. Each call is a fresh ``bash -c`` in bubblewrap with the trial's confinement
(``--agent-network``, ``--agent-memory``, ``--agent-processes``, ...): the workspace is the working
directory and the only writable folder that outlives the call, the scenario's inputs are
read-only, and everything the runner hides from ``--agent-cmd`` is hidden here too. A call gets at
most :data:`CALL_TIMEOUT_S` seconds and never more than what is left of the trial's time limit;
what the model reads back is the exit status and the head and tail of stdout and stderr.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from itbench.agents.base import Task
from itbench.agents.command import confined_launch, run_launch
from itbench.llm.tools import Tool
from itbench.sandbox.agent import AgentConfinement

#: Seconds one shell call may run (a hung ``kubectl --watch`` must not eat the whole trial).
CALL_TIMEOUT_S = 120.0
#: Characters of each stream the model reads back: the head and the tail, the middle elided.
OUTPUT_CHARS = 8000


def clip(text: str, limit: int = OUTPUT_CHARS) -> str:
    """``text`` when it fits, else its head and tail around a line saying how much was cut."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n... ({len(text) - limit} characters elided) ...\n{text[-half:]}"


@dataclass(frozen=True)
class ShellSession:
    """One trial's shell: where commands run, what they may not see, and when the trial ends."""

    task: Task
    hidden_paths: Sequence[Path]
    confinement: AgentConfinement
    #: ``time.monotonic()`` past which the trial is out of time (None: no limit).
    deadline: float | None

    def run(self, command: str) -> str:
        timeout = CALL_TIMEOUT_S
        if self.deadline is not None:
            left = self.deadline - time.monotonic()
            if left <= 0:
                return "error: the trial's time limit is reached; no more commands run"
            timeout = min(timeout, left)
        launch = confined_launch(command, self.task, self.hidden_paths, self.confinement)
        started = time.monotonic()
        try:
            outcome = run_launch(
                launch,
                cwd=self.task.workspace.resolve(),
                timeout_s=timeout,
                confinement=self.confinement,
            )
        except subprocess.TimeoutExpired:
            self.task.transcript.record("shell", command=command, timed_out_s=round(timeout, 3))
            return f"error: the command ran past {timeout:.0f} s and was killed"
        duration = time.monotonic() - started
        self.task.transcript.record(
            "shell",
            command=command,
            exit_code=outcome.exit_code,
            duration_s=round(duration, 3),
            cap=list(outcome.cap) if outcome.cap else None,
        )
        lines = [f"exit code: {outcome.exit_code}"]
        if outcome.cap is not None:
            which, size = outcome.cap
            lines.append(f"stopped: the command hit the {which} cap of {size}")
        lines += ["--- stdout ---", clip(outcome.stdout), "--- stderr ---", clip(outcome.stderr)]
        return "\n".join(lines)


def shell_tool(session: ShellSession) -> Tool:
    return Tool(
        "shell",
        "Run one bash command in your sandboxed workspace (the working directory; TASK.md holds "
        "the task) and read its exit code, stdout and stderr (long output is cut in the middle). "
        "Files you write in the workspace are your answer; nothing else you write is kept.",
        {
            "type": "object",
            "properties": {"command": {"type": "string", "description": "a bash command line"}},
            "required": ["command"],
        },
        session.run,
    )
