"""The agent's way to the live cluster: a proxy on the loopback interface in front of the API
server, which forwards every request with the user's credentials and records the agent's writes
(POST, PUT, PATCH, DELETE) with their time, so live mode's MTTR counts write requests as the
offline twin does.

The agent's kubeconfig names only the proxy (``http://127.0.0.1:<port>``, no credentials of its
own); the proxy listens there and on a unix socket, the only endpoint of a sandboxed agent's
network (:mod:`itbench.sandbox.endpoint` relays the port to it inside the sandbox). It holds the user's (a bearer token, a client certificate, basic auth) and the
cluster's CA. Responses are streamed as they come (``kubectl get -w``, ``rollout status``); protocol upgrades
(``kubectl exec``, ``attach``, ``port-forward``) are spliced through once the server switches
protocols, an exec or attach counted as a write. The user's credentials, an ``exec``
plugin's and a ``tokenFile``'s included, are read by :mod:`sre.live.credentials`. Not supported: the deprecated
``auth-provider`` entries (live mode then hands the agent the user's own kubeconfig and records
no write count).
"""

from __future__ import annotations

import http.client
import shutil
import socket
import socketserver
import tempfile
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import yaml

from itbench.errors import InputError
from itbench.sandbox.endpoint import Endpoint
from itbench.sandbox.loopback import splice
from sre.live.credentials import Upstream, upstream_of

WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")
#: request headers the proxy sets itself, or that only concern one hop
_HOP = {"host", "authorization", "connection", "keep-alive", "proxy-connection", "te",
        "transfer-encoding", "upgrade", "content-length"}  # fmt: skip


@dataclass(frozen=True)
class AgentWrite:
    at: float  # time.monotonic()
    method: str
    path: str
    status: int


class WriteCountingProxy:
    """A running proxy; ``writes`` holds what the agent wrote so far."""

    def __init__(self, upstream: Upstream) -> None:
        self.upstream = upstream
        self.writes: list[AgentWrite] = []
        self._lock = threading.Lock()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"  # one request a connection; a streamed body ends at close

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class names it
                return  # the trial's stderr is the agent's, not the proxy's

            def _forward(self) -> None:
                proxy.forward(self)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _forward

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        # the same proxy on a unix socket: the one door of a sandboxed agent's network (a short
        # path, as sockets need; 0700 folder, so no other host user reaches it)
        self._socket_dir = Path(tempfile.mkdtemp(prefix="itbench-api-"))
        self.socket_path = self._socket_dir / "api.sock"
        self.unix_server = socketserver.ThreadingUnixStreamServer(str(self.socket_path), Handler)
        self.unix_server.daemon_threads = True
        # the sandboxed agent runs as an unprivileged user; connecting needs write permission
        self.socket_path.chmod(0o666)
        for server in (self.server, self.unix_server):
            threading.Thread(target=server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def kubeconfig_text(self) -> str:
        """What the agent gets: the proxy as its only cluster, no credentials."""
        name = "itbench-live"
        return yaml.safe_dump({
            "apiVersion": "v1", "kind": "Config",
            "clusters": [{"name": name, "cluster": {"server": self.url}}],
            "users": [{"name": name, "user": {}}],
            "contexts": [{"name": name, "context": {"cluster": name, "user": name}}],
            "current-context": name, "preferences": {},
        }, sort_keys=False)  # fmt: skip

    @property
    def endpoint(self) -> Endpoint:
        """The proxy as a sandboxed agent's only endpoint: its socket, relayed inside the
        sandbox on the port the kubeconfig names."""
        return Endpoint(self.socket_path, int(self.server.server_address[1]))

    def stop(self) -> None:
        for server in (self.server, self.unix_server):
            server.shutdown()
            server.server_close()
        shutil.rmtree(self._socket_dir, ignore_errors=True)

    def writes_until(self, moment: float) -> int:
        with self._lock:
            return sum(1 for w in self.writes if w.at <= moment)

    def forward(self, handler: BaseHTTPRequestHandler) -> None:
        method = handler.command
        if handler.headers.get("Upgrade"):
            self.upgrade(handler)
            return
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else None
        up = self.upstream
        conn: http.client.HTTPConnection
        if up.scheme == "https":
            conn = http.client.HTTPSConnection(up.host, up.port, context=up.context, timeout=300)
        else:
            conn = http.client.HTTPConnection(up.host, up.port, timeout=300)
        headers = {k: v for k, v in handler.headers.items() if k.lower() not in _HOP}
        try:
            headers.update(dict(up.auth_headers()))
        except InputError as exc:
            handler.send_error(502, str(exc))
            return
        try:
            conn.request(method, up.base_path + handler.path, body=body, headers=headers)
            response = conn.getresponse()
        except (OSError, http.client.HTTPException) as exc:
            handler.send_error(502, f"the API server did not answer: {exc}")
            return
        if method in WRITE_METHODS:
            self._record(method, handler.path.split("?")[0], response.status)
        try:
            handler.send_response(response.status, response.reason)
            for key, value in response.getheaders():
                if key.lower() not in ("transfer-encoding", "connection", "keep-alive"):
                    handler.send_header(key, value)
            handler.end_headers()
            while chunk := response.read1(65536):
                handler.wfile.write(chunk)
                handler.wfile.flush()
        except (OSError, http.client.HTTPException):
            pass  # the agent hung up (a watch it stopped)
        finally:
            conn.close()

    def _record(self, method: str, path: str, status: int) -> None:
        with self._lock:
            self.writes.append(AgentWrite(time.monotonic(), method, path, status))

    def upgrade(self, handler: BaseHTTPRequestHandler) -> None:
        """A connection upgrade (``kubectl exec``, ``attach``, ``port-forward``: SPDY or
        WebSocket streams): the request goes upstream with the user's credentials, and once the
        server switches protocols the two connections are spliced byte for byte. An exec or
        attach counts as a write whatever its method (WebSocket ones are GETs): it can change
        the container."""
        handler.close_connection = True
        up = self.upstream
        try:
            raw = socket.create_connection((up.host, up.port), timeout=30)
            upstream: socket.socket = (
                up.context.wrap_socket(raw, server_hostname=up.host) if up.context else raw
            )
        except OSError as exc:
            handler.send_error(502, f"the API server did not answer: {exc}")
            return
        lines = [f"{handler.command} {up.base_path}{handler.path} HTTP/1.1",
                 f"Host: {up.host}:{up.port}"]  # fmt: skip
        for key, value in handler.headers.items():
            if key.lower() not in ("host", "authorization", "proxy-connection"):
                lines.append(f"{key}: {value}")
        try:
            lines += [f"{key}: {value}" for key, value in up.auth_headers()]
        except InputError as exc:
            upstream.close()
            handler.send_error(502, str(exc))
            return
        try:
            upstream.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
            head = b""
            while b"\r\n\r\n" not in head and len(head) < 65536:
                chunk = upstream.recv(4096)
                if not chunk:
                    break
                head += chunk
        except OSError as exc:
            upstream.close()
            handler.send_error(502, f"the API server did not answer: {exc}")
            return
        status_line = head.split(b"\r\n", 1)[0].split()
        status = int(status_line[1]) if len(status_line) > 1 and status_line[1].isdigit() else 0
        path = handler.path.split("?")[0]
        if handler.command in WRITE_METHODS or path.rsplit("/", 1)[-1] in ("exec", "attach"):
            self._record(handler.command, path, status)
        client = handler.connection
        try:
            client.sendall(head)
        except OSError:
            upstream.close()
            return
        upstream.settimeout(None)
        client.settimeout(None)
        splice(client, upstream)


def start_proxy(kubeconfig_text: str, scratch: Path | None = None) -> WriteCountingProxy | None:
    """A proxy for the kubeconfig's cluster, or None when its credentials cannot be replayed."""
    upstream = upstream_of(kubeconfig_text, scratch or Path(tempfile.mkdtemp(prefix="proxy-")))
    return WriteCountingProxy(upstream) if upstream is not None else None
