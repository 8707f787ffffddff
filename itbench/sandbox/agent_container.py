"""The agent sandbox (``--agent-cmd``, the llm agent's shell tool) on the container backend.

Only what is bound exists besides the image (``--agent-image``, default the evaluation image): the
workspace read-write as the working directory with the scenario's inputs read-only in it, and a
private HOME (tmpfs) or the ``--agent-home`` folder read-write. Run directories, scenario sources,
caches and itbench's code are simply absent: nothing needs covering. Network none (its own
loopback) or, with ``--agent-network allow``, a network namespace of its own with outbound access
(:func:`itbench.sandbox.engine.outbound_network`): never the host's, whose abstract UNIX sockets
would be reachable (bubblewrap closes them with Landlock, which a container does not apply).
What the agent's environment names on the host's loopback (the trial's cluster in its
kubeconfig, a local model server's URL) is relayed into the container's own loopback at the same
address (:mod:`itbench.sandbox.loopback`), on every engine alike; the host's other loopback ports
are out of reach. Limits as in :mod:`itbench.sandbox.container`.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from itbench.sandbox.agent import PRIVATE_HOME, AgentConfinement, CommandOutcome, agent_user
from itbench.sandbox.container import ContainerSpec, Mount, container_user, run_container
from itbench.sandbox.endpoint import FORWARDER, FORWARDER_PYTHONS, SANDBOX_SOCKET, Endpoint
from itbench.sandbox.identity import hand_over
from itbench.sandbox.limits import cap_hit
from itbench.sandbox.loopback import LoopbackService, loopback_services


def agent_spec(
    command: str,
    *,
    workspace: Path,
    read_only_inputs: Sequence[str],
    confinement: AgentConfinement,
    env: Mapping[str, str],
    endpoint: Endpoint | None = None,
) -> ContainerSpec:
    """The agent's container. With ``endpoint`` (and ``--agent-network allow``) its network is
    that endpoint alone, as in bubblewrap: no network (its own loopback), the endpoint's socket
    bound in, and :data:`~itbench.sandbox.endpoint.FORWARDER` relaying ``127.0.0.1:PORT`` to it
    before the agent's command starts. Without one, ``allow`` is an outbound network of the
    container's own, and the host's loopback services ``env`` names are relayed into it the same
    way (:mod:`itbench.sandbox.loopback`)."""
    from itbench.sandbox.availability import SandboxUnavailable
    from itbench.sandbox.engine import agent_image, engine_client, outbound_network

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
    argv: tuple[str, ...] = ("/bin/bash", "-c", command)
    relays: tuple[LoopbackService, ...] = ()
    if confinement.network == "none":
        network = "none"  # none is none: the trial's endpoint too
    elif confinement.network == "allow" and endpoint is not None:
        network = "none"
        # bound after /run's tmpfs (the engine mounts the shallower first); connecting to a
        # socket needs no writable mount
        mounts.append(Mount(str(endpoint.socket), SANDBOX_SOCKET))
        argv = _through_forwarder((endpoint.route(),), argv)
    elif confinement.network == "allow":
        network = outbound_network(engine_client())
        relays = loopback_services(env)
        if relays:
            argv = _through_forwarder(tuple(r.route() for r in relays), argv)
    else:
        raise SandboxUnavailable(
            f"--agent-network {confinement.network}: not available on the container backend "
            "(none or allow); use --sandbox bubblewrap"
        )
    return ContainerSpec(
        image=agent_image(engine_client()),
        argv=argv,
        workdir=str(workspace),
        mounts=tuple(mounts),
        env=dict(env),
        network=network,
        relays=relays,
        scratch=scratch,
        max_processes=confinement.max_processes,
        hostname="itbench-agent",
        user=container_user(user),
    )


def _forwarder_pythons() -> tuple[str, ...]:
    """Interpreters the forwarder may run with in the agent's image, the first found: the
    evaluation image holds this environment's interpreter (and no system Python); an image
    named with ``--agent-image`` usually holds a system one."""
    return (sys.executable, *FORWARDER_PYTHONS)


def _through_forwarder(routes: tuple[str, ...], argv: tuple[str, ...]) -> tuple[str, ...]:
    """``argv`` started by the forwarder of ``routes`` (``ADDRESS:PORT=SOCKET``), run by the
    first Python of the image (an image with none: exit 127 saying so)."""
    candidates = " ".join(shlex.quote(p) for p in _forwarder_pythons())
    pick = (
        f"for py in {candidates}; do "
        '[ -x "$py" ] && exec "$py" -c "$0" "$@"; done; '
        "echo \"itbench: the host's services the agent is given (its trial's cluster, a local "
        "server) are relayed into its container by a Python forwarder, and its image has no "
        f'Python 3 ({candidates})" >&2; exit 127'
    )
    return ("/bin/sh", "-c", pick, FORWARDER, *routes, "--", *argv)


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
