"""The host's loopback services an outbound container agent is given, and nothing else of the host.

An agent with ``--agent-network allow`` on the container backend has a network namespace of its
own (outbound access, its own loopback). What its environment names on the host's loopback (the
trial's cluster in the kubeconfig ``KUBECONFIG`` points at, a local model server in a URL) is
relayed to it at the same address: a unix socket on the host per service, relaying to that
loopback port, bound into the container, where :data:`~itbench.sandbox.endpoint.FORWARDER`
listens on the same ``127.0.0.1:PORT`` and relays to the socket. URLs and kubeconfigs stay as
they are (TLS names included), the engine's way to the host (Podman's slirp4netns gateway,
Docker's bridge gateway, or none at all on Docker Engine without a bridge) does not matter, and
the host's other loopback ports stay out of reach.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import tempfile
import threading
import urllib.parse
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

#: Host names that mean "this machine's loopback" in a URL or a kubeconfig, and the address the
#: relay connects to for each.
LOOPBACK_HOSTS = {"127.0.0.1": "127.0.0.1", "localhost": "127.0.0.1", "::1": "::1"}
_DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(frozen=True, order=True)
class LoopbackService:
    """One port of the host's loopback an agent's environment names."""

    address: str
    port: int

    @property
    def in_sandbox(self) -> str:
        """Where its socket appears in the container (``/run`` is the container's own tmpfs)."""
        family = "6" if ":" in self.address else "4"
        return f"/run/itbench-loopback-{family}-{self.port}.sock"

    def route(self) -> str:
        """The forwarder's argument: listen on this address and port, relay to the socket."""
        return f"{self.address}:{self.port}={self.in_sandbox}"


def _service_of_url(value: str) -> LoopbackService | None:
    if "://" not in value:
        return None
    try:
        parts = urllib.parse.urlsplit(value.strip())
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if host not in LOOPBACK_HOSTS:
        return None
    port = port or _DEFAULT_PORTS.get(parts.scheme)
    return None if port is None else LoopbackService(LOOPBACK_HOSTS[host], port)


def _kubeconfig_servers(path: Path) -> list[str]:
    try:
        config: Any = yaml.safe_load(path.read_text())
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return []  # not a kubeconfig kubectl could use either
    clusters = config.get("clusters") if isinstance(config, dict) else None
    servers = []
    for entry in clusters if isinstance(clusters, list) else []:
        cluster = entry.get("cluster") if isinstance(entry, dict) else None
        if isinstance(cluster, dict) and isinstance(cluster.get("server"), str):
            servers.append(cluster["server"])
    return servers


def loopback_services(env: Mapping[str, str]) -> tuple[LoopbackService, ...]:
    """The host's loopback services ``env`` names: URLs on the loopback in any variable, and the
    clusters on the loopback of the kubeconfig(s) ``KUBECONFIG`` points at (read on the host)."""
    urls = list(env.values())
    for name in filter(None, env.get("KUBECONFIG", "").split(os.pathsep)):
        urls += _kubeconfig_servers(Path(name))
    found = {service for url in urls if (service := _service_of_url(url)) is not None}
    return tuple(sorted(found))


class UnixRelay:
    """A unix socket on the host relaying each connection to one TCP address (``host``,
    ``port``): how a sandbox without a network reaches exactly one service. ``mode`` is the
    socket file's: who may connect besides its owner."""

    def __init__(self, host: str, port: int, path: Path, *, mode: int, name: str) -> None:
        self.host, self.port, self.path = host, port, path
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(str(path))
        path.chmod(mode)
        self.listener.listen(64)
        self.thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:  # closed: the sandbox has ended
                return
            threading.Thread(target=self._relay, args=(client,), daemon=True).start()

    def _relay(self, client: socket.socket) -> None:
        try:
            upstream = socket.create_connection((self.host, self.port), 10)
        except OSError:  # nothing listens there (any more): the sandbox sees a closed connection
            client.close()
            return
        upstream.settimeout(None)
        splice(client, upstream)
        client.close()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()


def _pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        # half-close: the other direction may still carry the answer to what was sent
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)


def splice(client: socket.socket, upstream: socket.socket) -> None:
    """Relay both ways until both directions have ended, then close ``upstream``."""
    other = threading.Thread(target=_pump, args=(upstream, client), daemon=True)
    other.start()
    _pump(client, upstream)
    other.join()
    upstream.close()


@contextlib.contextmanager
def relayed(services: tuple[LoopbackService, ...]) -> Iterator[dict[LoopbackService, Path]]:
    """Each service's relay socket on the host, listening while the block runs."""
    if not services:
        yield {}
        return
    folder = Path(tempfile.mkdtemp(prefix="itbench-relay-"))
    relays: list[UnixRelay] = []
    try:
        for service in services:
            # the agent runs as nobody in the container; only the container sees the socket
            relay = UnixRelay(
                service.address,
                service.port,
                folder / f"{len(relays)}.sock",
                mode=0o666,
                name="itbench-relay",
            )
            relays.append(relay)
        yield {service: relay.path for service, relay in zip(services, relays, strict=True)}
    finally:
        for relay in relays:
            relay.close()
        shutil.rmtree(folder, ignore_errors=True)
