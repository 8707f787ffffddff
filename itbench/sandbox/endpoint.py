"""One endpoint as the agent's whole network.

A trial environment that hands the agent a single service (a cluster's API server behind a
proxy) can say so with :data:`ENDPOINT_VARIABLE`: ``PORT=SOCKET``, a unix socket on the host where
the service listens and the loopback port the agent's configuration names. The bubblewrap sandbox
then gives the agent a network namespace of its own (its own loopback, nothing else), binds the
socket into it and starts :data:`FORWARDER` inside, listening on ``127.0.0.1:PORT`` and relaying
each connection to the socket, before the agent's command; the container backend does the same
with a container of network ``none`` (:func:`itbench.sandbox.agent_container.agent_spec`). The host's loopback, the service's own
address and the outside world are unreachable: there is no route out of the namespace, and the
only door is the socket.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from itbench.errors import UsageError
from itbench.sandbox.availability import SandboxUnavailable

ENDPOINT_VARIABLE = "ITBENCH_AGENT_ENDPOINT"
#: where the socket appears inside the sandbox (``/run`` is the sandbox's own tmpfs)
SANDBOX_SOCKET = "/run/itbench-endpoint.sock"
#: interpreters the forwarder may run with: the system's, visible read-only in the sandbox
FORWARDER_PYTHONS = ("/usr/bin/python3", "/usr/local/bin/python3", "/bin/python3")

#: Run as ``python3 -c FORWARDER ADDRESS:PORT=SOCKET... -- COMMAND...``: binds every port
#: (``127.0.0.1`` or ``::1``; one it cannot bind is said on stderr and left out) before the
#: command starts (no race with a client that connects at once), serves from a forked child whose standard streams are closed (the runner waits for the
#: command's output to end, not the forwarder's), and becomes the command itself (its exit status
#: is the sandbox's).
FORWARDER = r"""
import os, socket, sys, threading
split = sys.argv.index("--")
routes, command = sys.argv[1:split], sys.argv[split + 1:]
servers = []
for route in routes:
    where, _, path = route.partition("=")
    address, _, port = where.rpartition(":")
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    server = socket.socket(family, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        server.bind((address, int(port)))
    except OSError as exc:
        server.close()
        # a loopback without IPv6 (clients fall back to 127.0.0.1), a port below 1024 the
        # sandbox's user may not bind: that service is out of reach, the command runs all the same
        if family == socket.AF_INET:
            print(f"itbench: cannot relay {where} into the sandbox: {exc}", file=sys.stderr)
        continue
    server.listen(64)
    servers.append((server, path))
if servers and os.fork() == 0:
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    def pump(src, dst):
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
    def relay(client, path):
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            upstream.connect(path)
        except OSError:
            client.close()
            return
        threading.Thread(target=pump, args=(upstream, client), daemon=True).start()
        pump(client, upstream)
    def serve(server, path):
        while True:
            client, _ = server.accept()
            threading.Thread(target=relay, args=(client, path), daemon=True).start()
    for server, path in servers[1:]:
        threading.Thread(target=serve, args=(server, path), daemon=True).start()
    serve(*servers[0])
for server, _ in servers:
    server.close()
os.execv(command[0], command)
"""


@dataclass(frozen=True)
class Endpoint:
    """The one service the agent may reach: ``socket`` on the host, ``127.0.0.1:port`` inside."""

    socket: Path
    port: int

    def variable(self) -> dict[str, str]:
        return {ENDPOINT_VARIABLE: f"{self.port}={self.socket}"}

    def route(self) -> str:
        """The forwarder's argument for this endpoint (the socket where the sandbox sees it)."""
        return f"127.0.0.1:{self.port}={SANDBOX_SOCKET}"


def endpoint_in(env: Mapping[str, str]) -> Endpoint | None:
    """The endpoint a trial environment names, or None."""
    value = env.get(ENDPOINT_VARIABLE)
    if value is None:
        return None
    port, _, socket = value.partition("=")
    if not port.isdigit() or not 0 < int(port) < 65536 or not socket.startswith("/"):
        raise UsageError(f"{ENDPOINT_VARIABLE}={value!r}: not PORT=/path/of/a/unix/socket")
    return Endpoint(Path(socket), int(port))


def without_endpoint(env: Mapping[str, str]) -> dict[str, str]:
    """The environment the agent gets: the host path of the socket is the sandbox's business."""
    return {k: v for k, v in env.items() if k != ENDPOINT_VARIABLE}


def forwarder_argv(endpoint: Endpoint) -> list[str]:
    """The forwarder's command line, before the agent's own."""
    python = next((p for p in FORWARDER_PYTHONS if Path(p).is_file()), None)
    if python is None:
        raise SandboxUnavailable(
            "the agent's network is its trial's one endpoint, relayed inside the sandbox by a "
            f"Python forwarder, and no system Python 3 exists ({', '.join(FORWARDER_PYTHONS)})"
        )
    return [python, "-c", FORWARDER, endpoint.route(), "--"]
