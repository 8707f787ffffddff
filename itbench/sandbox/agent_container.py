"""The agent sandbox (``--agent-cmd``, the llm agent's shell tool) on the container backend.

Only what is bound exists besides the image (``--agent-image``, default the evaluation image): the
workspace read-write as the working directory with the scenario's inputs read-only in it, and a
private HOME (tmpfs) or the ``--agent-home`` folder read-write. Run directories, scenario sources,
caches and itbench's code are simply absent: nothing needs covering. Network none (its own
loopback) or, with ``--agent-network allow``, a network namespace of its own with outbound access
(:func:`itbench.sandbox.engine.outbound_network`): never the host's, whose abstract UNIX sockets
would be reachable (bubblewrap closes them with Landlock, which a container does not apply).
What listens on the host's loopback (the trial's cluster, a local model server) is reached at the
engine's host address instead: URLs naming the loopback in the agent's environment are rewritten
to it, and so is the server of the cluster ``KUBECONFIG`` names (a copy in the container's /tmp).
Limits as in :mod:`itbench.sandbox.container`.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import urllib.parse
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from itbench.sandbox.agent import PRIVATE_HOME, AgentConfinement, CommandOutcome, agent_user
from itbench.sandbox.container import ContainerSpec, Mount, container_user, run_container
from itbench.sandbox.endpoint import FORWARDER, FORWARDER_PYTHONS, SANDBOX_SOCKET, Endpoint
from itbench.sandbox.identity import hand_over
from itbench.sandbox.limits import cap_hit

#: The variable telling an agent with ``--agent-network allow`` where the host's loopback is.
HOST_ADDRESS_ENV = "ITBENCH_HOST_ADDRESS"
#: Host names that mean "this machine's loopback" in a URL or a kubeconfig.
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
#: Where the rewritten kubeconfig lies in the container (its private /tmp).
KUBECONFIG_IN_CONTAINER = "/tmp/itbench-kubeconfig.yaml"
#: The variable carrying the kubeconfig copy's text into the container (not an argument: a
#: container's arguments show in the host's process list, its environment does not).
_KUBECONFIG_TEXT_ENV = "_ITBENCH_KUBECONFIG_TEXT"
#: The agent's command ($1, run by bash -c as without a copy) started once the copy is written.
_WITH_KUBECONFIG = (
    f'(umask 077 && printf "%s" "${_KUBECONFIG_TEXT_ENV}" > {KUBECONFIG_IN_CONTAINER}) '
    f'&& unset {_KUBECONFIG_TEXT_ENV} && exec /bin/bash -c "$1"'
)


def _loopback_url_to(value: str, address: str) -> str:
    """``value`` with its host replaced by ``address`` when it is a URL on the loopback."""
    if "://" not in value:
        return value
    try:
        parts = urllib.parse.urlsplit(value)
        host, port = parts.hostname, parts.port
    except ValueError:
        return value
    if host not in LOOPBACK_HOSTS:
        return value
    netloc = address if port is None else f"{address}:{port}"
    if "@" in parts.netloc:
        netloc = parts.netloc.rsplit("@", 1)[0] + "@" + netloc
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


def kubeconfig_for_container(text: str, address: str) -> str | None:
    """The kubeconfig ``text`` with every cluster on the loopback moved to ``address`` (TLS still
    checks the name the certificate was made for, through ``tls-server-name``); None when no
    cluster is on the loopback or the text is no kubeconfig."""
    try:
        config: Any = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    if not isinstance(config, dict) or not isinstance(config.get("clusters"), list):
        return None
    moved = False
    for entry in config["clusters"]:
        cluster = entry.get("cluster") if isinstance(entry, dict) else None
        if not isinstance(cluster, dict) or not isinstance(cluster.get("server"), str):
            continue
        server = cluster["server"]
        rewritten = _loopback_url_to(server, address)
        if rewritten == server:
            continue
        host = urllib.parse.urlsplit(server).hostname
        if server.startswith("https:") and host and "tls-server-name" not in cluster:
            cluster["tls-server-name"] = host
        cluster["server"] = rewritten
        moved = True
    return yaml.safe_dump(config, sort_keys=False) if moved else None


def _outbound_environment(
    env: Mapping[str, str], address: str
) -> tuple[dict[str, str], str | None]:
    """The agent's environment for a container off the host's network: loopback URLs moved to
    ``address``, KUBECONFIG pointed at the copy; and that copy's text (None: no copy)."""
    moved = {name: _loopback_url_to(value, address) for name, value in env.items()}
    kubeconfig = None
    source = Path(env["KUBECONFIG"]) if env.get("KUBECONFIG") else None
    if source is not None and source.is_file():
        try:
            kubeconfig = kubeconfig_for_container(source.read_text(), address)
        except (OSError, UnicodeDecodeError):
            kubeconfig = None
        if kubeconfig is not None:
            moved["KUBECONFIG"] = KUBECONFIG_IN_CONTAINER
    return moved, kubeconfig


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
    before the agent's command starts."""
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
    extra_hosts: dict[str, str] = {}
    if confinement.network == "none":
        network = "none"  # none is none: the trial's endpoint too
    elif confinement.network == "allow" and endpoint is not None:
        network = "none"
        # bound after /run's tmpfs (the engine mounts the shallower first); connecting to a
        # socket needs no writable mount
        mounts.append(Mount(str(endpoint.socket), SANDBOX_SOCKET))
        argv = _through_forwarder(endpoint, argv)
    elif confinement.network == "allow":
        outbound = outbound_network(engine_client())
        network, extra_hosts = outbound.mode, outbound.extra_hosts
        env, kubeconfig = _outbound_environment(env, outbound.host_address)
        env = {**env, HOST_ADDRESS_ENV: outbound.host_address}
        if kubeconfig is not None:
            env[_KUBECONFIG_TEXT_ENV] = kubeconfig
            argv = ("/bin/bash", "-c", _WITH_KUBECONFIG, "itbench-agent", command)
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
        extra_hosts=extra_hosts,
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


def _through_forwarder(endpoint: Endpoint, argv: tuple[str, ...]) -> tuple[str, ...]:
    """``argv`` started by the endpoint's forwarder, run by the first Python of the image (an
    image with none: exit 127 saying so)."""
    candidates = " ".join(shlex.quote(p) for p in _forwarder_pythons())
    pick = (
        f"for py in {candidates}; do "
        '[ -x "$py" ] && exec "$py" -c "$0" "$@"; done; '
        "echo \"itbench: the agent's network is its trial's one endpoint, relayed by a Python "
        f'forwarder, and its image has no Python 3 ({candidates})" >&2; exit 127'
    )
    return ("/bin/sh", "-c", pick, FORWARDER, SANDBOX_SOCKET, str(endpoint.port), *argv)


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
