"""The agent sandbox (``--agent-cmd``, the llm agent's shell tool) on the container backend.

Only what is bound exists besides the image (``--agent-image``, default the evaluation image): the
workspace read-write as the working directory with the scenario's inputs read-only in it, and a
private HOME (tmpfs) or the ``--agent-home`` folder read-write. Run directories, scenario sources,
caches and itbench's code are simply absent: nothing needs covering. Network none (its own
loopback) or the host's (``--agent-network allow``); limits as in :mod:`itbench.sandbox.container`.
"""

from __future__ import annotations

import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from itbench.sandbox.agent import PRIVATE_HOME, AgentConfinement, CommandOutcome, agent_user
from itbench.sandbox.container import ContainerSpec, Mount, container_user, run_container
from itbench.sandbox.identity import hand_over
from itbench.sandbox.limits import cap_hit


def agent_spec(
    command: str,
    *,
    workspace: Path,
    read_only_inputs: Sequence[str],
    confinement: AgentConfinement,
    env: Mapping[str, str],
) -> ContainerSpec:
    from itbench.sandbox.engine import agent_image, engine_client

    workspace = workspace.resolve()
    # as in bubblewrap: nobody (or --agent-home's owner) when itbench runs as root; the workspace
    # is handed over to it
    user = agent_user(confinement)
    hand_over(workspace, user)
    mounts = [Mount(str(workspace), str(workspace), writable=True)]
    for name in read_only_inputs:
        source = workspace / name
        resolved = source.resolve()
        if source.exists() and (resolved == workspace or workspace in resolved.parents):
            mounts.append(Mount(str(resolved), str(resolved)))
    scratch: tuple[str, ...] = ("/tmp", "/run", "/dev/shm")
    if confinement.home is not None:
        home = confinement.home.resolve()
        mounts.append(Mount(str(home), str(home), writable=True))
    else:
        scratch += (PRIVATE_HOME,)
    network = "none" if confinement.network == "none" else "host"
    return ContainerSpec(
        image=agent_image(engine_client()),
        argv=("/bin/bash", "-c", command),
        workdir=str(workspace),
        mounts=tuple(mounts),
        env=dict(env),
        network=network,
        scratch=scratch,
        max_processes=confinement.max_processes,
        # a container on the host's network shares its host name too (engines refuse both)
        hostname="itbench-agent" if network == "none" else "",
        user=container_user(user),
    )


def run_agent_container(
    spec: ContainerSpec, *, timeout_s: float | None, confinement: AgentConfinement
) -> CommandOutcome:
    """:func:`itbench.sandbox.agent.run_agent_command`'s contract on the container backend:
    :class:`subprocess.TimeoutExpired` past the time limit, the cap hit in the outcome."""
    limits = confinement.limits
    done = run_container(spec, limits=limits, timeout_s=timeout_s)
    if done.timed_out:
        raise subprocess.TimeoutExpired(list(spec.argv), timeout_s or 0.0)
    stderr = done.stderr
    if done.oom_killed and limits.memory_bytes is not None:
        stderr += "\nitbench: out of memory: the container passed its memory cap"
    cap = cap_hit(limits, done.exit_code, stderr[-20000:], done.output_capped)
    return CommandOutcome(done.exit_code, done.stdout, stderr, cap)
