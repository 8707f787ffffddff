"""``command``: any external agent CLI run through the shell in the workspace.

This is how ITBench-AA and the Zero runner drive Codex CLI, Claude Code or a script: the prompt is
in ``TASK.md`` and in ``$ITBENCH_TASK``; whatever the command leaves in the workspace is its answer.
The runner's per-trial time limit kills the whole process group, the command's children included.
"""

from __future__ import annotations

import os
import subprocess
import time
from dataclasses import dataclass

from itbench.agents.base import TASK_ENV, TASK_FILE, AgentOptions, Task
from itbench.errors import UsageError
from itbench.models import AgentResult, AgentStatus
from itbench.plugins.spec import Domain

_OUTPUT_TAIL = 4000  # characters of stdout/stderr kept in the transcript


@dataclass(frozen=True)
class CommandAgent:
    command: str
    name: str = "command"

    def solve(self, task: Task) -> AgentResult:
        (task.workspace / TASK_FILE).write_text(task.prompt + "\n", encoding="utf-8")
        env = dict(os.environ)
        env[TASK_ENV] = task.prompt
        env["ITBENCH_WORKSPACE"] = str(task.workspace)
        task.transcript.record("command_start", command=self.command)
        started = time.monotonic()
        proc = subprocess.run(
            ["/bin/bash", "-c", self.command],
            cwd=task.workspace,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=task.time_limit_s,
        )
        duration = time.monotonic() - started
        task.transcript.record(
            "command_end",
            exit_code=proc.returncode,
            stdout_tail=proc.stdout[-_OUTPUT_TAIL:],
            stderr_tail=proc.stderr[-_OUTPUT_TAIL:],
            duration_s=round(duration, 3),
        )
        if proc.returncode != 0:
            return AgentResult(
                status=AgentStatus.ERROR,
                reason=f"agent command exited with {proc.returncode}",
                duration_s=duration,
            )
        return AgentResult(duration_s=duration)


def command_factory(options: AgentOptions, domain: Domain) -> CommandAgent:
    if not options.agent_cmd:
        raise UsageError("the command agent needs --agent-cmd '<shell command>'")
    return CommandAgent(options.agent_cmd)
