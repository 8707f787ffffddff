"""``command``: any external agent CLI run through the shell in the workspace, sandboxed.

This is how ITBench-AA and the Zero runner drive Codex CLI, Claude Code or a script: the prompt is
in ``TASK.md`` and in ``$ITBENCH_TASK``; whatever the command leaves in the workspace is its answer.
The command runs in bubblewrap (:mod:`itbench.sandbox.agent`): it sees its workspace, a private
HOME and /tmp and the system read-only, never ground truth, reference answers, other trials or the
itbench cache. ``--agent-sandbox off`` is an escape hatch that warns loudly on every trial.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from itbench.agents.base import TASK_ENV, TASK_FILE, AgentOptions, Task
from itbench.agents.usage_file import UsageFileError, read_usage_file
from itbench.errors import UsageError
from itbench.models import AgentResult, AgentStatus, Usage
from itbench.plugins.spec import DomainRun
from itbench.sandbox.agent import (
    DEFAULT_MAX_PROCESSES,
    PRIVATE_HOME,
    AgentConfinement,
    CommandOutcome,
    agent_bwrap_argv,
    agent_environment,
    agent_user,
    cache_dirs,
    check_confinement,
    run_agent_command,
)
from itbench.sandbox.backend import current as current_backend
from itbench.sandbox.container import ContainerSpec
from itbench.sandbox.endpoint import endpoint_in, without_endpoint
from itbench.sandbox.identity import hand_over
from itbench.sandbox.limits import DEFAULT_AGENT_LIMITS

_OUTPUT_TAIL = 4000  # characters of stdout/stderr kept in the transcript
UNSANDBOXED_WARNING = (
    "WARNING: --agent-sandbox off: the agent command runs UNSANDBOXED with your user's rights; "
    "it can read ground truth and reference answers and write anywhere you can"
)


@dataclass(frozen=True)
class CommandAgent:
    command: str
    confinement: AgentConfinement = AgentConfinement()
    name: str = "command"

    def solve(self, task: Task) -> AgentResult:
        """Outside the runner nothing says where the scenario's files are: hide the caches."""
        return self.solve_confined(task, cache_dirs())

    def solve_confined(self, task: Task, hidden_paths: Sequence[Path]) -> AgentResult:
        (task.workspace / TASK_FILE).write_text(task.prompt + "\n", encoding="utf-8")
        workspace = task.workspace.resolve()
        confinement = self.confinement
        launch = confined_launch(self.command, task, hidden_paths, confinement)
        home = launch.home
        task.transcript.record(
            "command_start",
            command=self.command,
            sandbox=confinement.sandboxed,
            network=confinement.network,
            home=home,
            passed_env=sorted(confinement.passthrough),
            limits=confinement.limits.describe(),
        )
        started = time.monotonic()
        outcome = run_launch(
            launch, cwd=workspace, timeout_s=task.time_limit_s, confinement=confinement
        )
        duration = time.monotonic() - started
        task.transcript.record(
            "command_end",
            exit_code=outcome.exit_code,
            stdout_tail=outcome.stdout[-_OUTPUT_TAIL:],
            stderr_tail=outcome.stderr[-_OUTPUT_TAIL:],
            duration_s=round(duration, 3),
            cap=list(outcome.cap) if outcome.cap else None,
        )
        try:
            usage = read_usage_file(workspace)
        except UsageFileError as exc:
            # the answer still counts; the bad report is kept where the trial's reader looks
            print(f"warning: {task.scenario.id}: {exc}; usage not recorded", file=sys.stderr)
            task.transcript.record("usage_rejected", reason=str(exc))
            usage = None
        if usage is not None:
            task.transcript.record("usage_reported", **usage.model_dump())
        reported = usage or Usage()
        if outcome.cap is not None:
            which, size = outcome.cap
            return AgentResult(
                status=AgentStatus.ERROR,
                reason=f"agent command hit the {which} cap of {size} (--agent-{which}); "
                f"exit code {outcome.exit_code}",
                usage=reported,
                duration_s=duration,
            )
        if outcome.exit_code != 0:
            return AgentResult(
                status=AgentStatus.ERROR,
                reason=exit_reason(outcome.exit_code, outcome.stderr, confinement.sandboxed),
                usage=reported,
                duration_s=duration,
            )
        return AgentResult(usage=reported, duration_s=duration)


@dataclass(frozen=True)
class Launch:
    """How to start one shell command as the agent: the argv (bwrap's, or the bare shell's with
    ``--agent-sandbox off``), the environment to start it with and the agent's HOME."""

    argv: list[str]
    env: dict[str, str] | None
    home: str
    #: the same command as a container (``--sandbox container``); None: run ``argv``
    container: ContainerSpec | None = None


def run_launch(
    launch: Launch, *, cwd: Path, timeout_s: float | None, confinement: AgentConfinement
) -> CommandOutcome:
    """Run one launch on its backend: bubblewrap (or bare with ``--agent-sandbox off``), or a
    container; the same outcome and the same :class:`subprocess.TimeoutExpired` either way."""
    if launch.container is not None:
        from itbench.sandbox.agent_container import run_agent_container

        return run_agent_container(launch.container, timeout_s=timeout_s, confinement=confinement)
    return run_agent_command(
        launch.argv,
        cwd=cwd,
        env=launch.env,
        timeout_s=timeout_s,
        max_processes=confinement.max_processes,
        limits=confinement.limits,
    )


def confined_launch(
    command: str, task: Task, hidden_paths: Sequence[Path], confinement: AgentConfinement
) -> Launch:
    """The sandbox every agent shell command runs in (``--agent-cmd`` and the llm agent's shell
    tool alike): the workspace writable, the inputs read-only, ``hidden_paths`` covered."""
    workspace = task.workspace.resolve()
    own = {TASK_ENV: task.prompt, "ITBENCH_WORKSPACE": str(workspace)}
    endpoint = endpoint_in(task.env)
    trial_env = without_endpoint(task.env)
    if confinement.sandboxed:
        home = str(confinement.home.resolve()) if confinement.home else PRIVATE_HOME
        env = agent_environment(confinement, trial_env=trial_env, extra=own, home=home)
        if current_backend() == "container":
            from itbench.sandbox.agent_container import agent_spec

            spec = agent_spec(
                command,
                workspace=workspace,
                read_only_inputs=task.scenario.inputs,
                confinement=confinement,
                env=env,
                endpoint=endpoint,
            )
            return Launch(list(spec.argv), {}, home, spec)
        # bubblewrap drops root to an unprivileged uid: the workspace is handed over to it
        hand_over(workspace, agent_user(confinement))
        argv = agent_bwrap_argv(
            command,
            workspace=workspace,
            read_only_inputs=task.scenario.inputs,
            hidden=hidden_paths,
            confinement=confinement,
            env=env,
            endpoint=endpoint,
        )
        return Launch(argv, {}, home)
    print(UNSANDBOXED_WARNING, file=sys.stderr)
    home = str(confinement.home or os.environ.get("HOME") or workspace)
    env = agent_environment(confinement, trial_env=trial_env, extra=own, home=home)
    return Launch(["/bin/bash", "-c", command], env, home)


#: The shell's exit status for a command it could not find (126: found but not executable).
_NOT_FOUND = 127
_REASON_LINE = 300  # characters of the command's last stderr line kept in the trial's error


def exit_reason(exit_code: int, stderr: str, sandboxed: bool) -> str:
    """Why the command failed, in one line: its exit status and the last line it wrote on
    stderr (where a shell says which program it did not find), so the cause reaches the run's
    summary and not only ``transcript.jsonl``."""
    reason = f"agent command exited with {exit_code}"
    last = next((line.strip() for line in reversed(stderr.splitlines()) if line.strip()), "")
    if last:
        reason += f": {last[:_REASON_LINE]}"
    if exit_code == _NOT_FOUND and sandboxed:
        reason += (
            " (a program the sandbox cannot see: install it system-wide or under --agent-home)"
        )
    return reason


def confinement_of(options: AgentOptions) -> AgentConfinement:
    """The ``--agent-*`` options as a confinement, checked (exit 2 or 3 before any trial)."""
    confinement = AgentConfinement(
        network=options.agent_network,
        home=options.agent_home,
        passthrough=tuple(options.agent_env),
        sandboxed=options.agent_sandbox,
        limits=options.agent_limits or DEFAULT_AGENT_LIMITS,
        max_processes=options.agent_max_processes or DEFAULT_MAX_PROCESSES,
    )
    if confinement.sandboxed and current_backend() == "container":
        check_confinement(replace(confinement, sandboxed=False))  # options; the engine answered
    else:
        check_confinement(confinement)
    if not confinement.sandboxed:
        print(UNSANDBOXED_WARNING, file=sys.stderr)
    return confinement


def command_factory(options: AgentOptions, run: DomainRun) -> CommandAgent:
    if not options.agent_cmd:
        raise UsageError("the command agent needs --agent-cmd '<shell command>'")
    return CommandAgent(options.agent_cmd, confinement_of(options))
