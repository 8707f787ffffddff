"""The agent's way to the live cluster: a proxy on the loopback interface in front of the API
server, which forwards every request with the user's credentials and records the agent's writes
(POST, PUT, PATCH, DELETE) with their time, so live mode's MTTR counts write requests as the
offline twin does.

The agent's kubeconfig names only the proxy (``http://127.0.0.1:<port>``, no credentials of its
own); the proxy listens there and on a unix socket, the only endpoint of a sandboxed agent's
network (:mod:`itbench.sandbox.endpoint` relays the port to it inside the sandbox). It holds the user's (a bearer token, a client certificate, basic auth) and the
cluster's CA. Responses are streamed as they come (``kubectl get -w``, ``rollout status``).
Not supported: protocol upgrades (``kubectl exec``, ``attach``, ``port-forward``, answered 501)
and credentials from an exec plugin or auth provider (live mode then hands the agent the user's
own kubeconfig and records no write count).
"""

from __future__ import annotations

import base64
import http.client
import shutil
import socketserver
import ssl
import tempfile
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from itbench.sandbox.endpoint import Endpoint

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


@dataclass(frozen=True)
class Upstream:
    scheme: str
    host: str
    port: int
    base_path: str
    headers: tuple[tuple[str, str], ...]
    context: ssl.SSLContext | None


def _decoded(value: str) -> bytes:
    return base64.b64decode(value)


def upstream_of(kubeconfig_text: str, scratch: Path) -> Upstream | None:
    """The API server and credentials of a flattened single-context kubeconfig (``kubectl
    config view --minify --flatten``); None when its credentials come from a plugin the proxy
    cannot replay. ``scratch`` receives the client certificate files ssl needs on disk."""
    doc: Any = yaml.safe_load(kubeconfig_text) or {}
    cluster = ((doc.get("clusters") or [{}])[0] or {}).get("cluster") or {}
    user = ((doc.get("users") or [{}])[0] or {}).get("user") or {}
    if user.get("exec") or user.get("auth-provider") or user.get("tokenFile"):
        return None
    url = urlsplit(str(cluster.get("server", "")))
    if url.scheme not in ("http", "https") or not url.hostname:
        return None
    headers: list[tuple[str, str]] = []
    if user.get("token"):
        headers.append(("Authorization", f"Bearer {user['token']}"))
    elif user.get("username"):
        pair = f"{user['username']}:{user.get('password', '')}".encode()
        headers.append(("Authorization", "Basic " + base64.b64encode(pair).decode()))
    context = None
    if url.scheme == "https":
        context = ssl.create_default_context()
        if cluster.get("insecure-skip-tls-verify"):
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
        elif cluster.get("certificate-authority-data"):
            context.load_verify_locations(
                cadata=_decoded(cluster["certificate-authority-data"]).decode()
            )
        if cluster.get("tls-server-name"):
            context.check_hostname = False  # verified by name below would need SNI plumbing
        if user.get("client-certificate-data") and user.get("client-key-data"):
            scratch.mkdir(parents=True, exist_ok=True)
            cert, key = scratch / "client.crt", scratch / "client.key"
            cert.write_bytes(_decoded(user["client-certificate-data"]))
            key.write_bytes(_decoded(user["client-key-data"]))
            key.chmod(0o600)
            context.load_cert_chain(str(cert), str(key))
    port = url.port or (443 if url.scheme == "https" else 80)
    return Upstream(url.scheme, url.hostname, port, url.path.rstrip("/"), tuple(headers), context)


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
            handler.send_error(
                501, "protocol upgrades (exec, attach, port-forward) are not proxied"
            )
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
        headers.update(dict(up.headers))
        try:
            conn.request(method, up.base_path + handler.path, body=body, headers=headers)
            response = conn.getresponse()
        except (OSError, http.client.HTTPException) as exc:
            handler.send_error(502, f"the API server did not answer: {exc}")
            return
        if method in WRITE_METHODS:
            with self._lock:
                self.writes.append(
                    AgentWrite(
                        time.monotonic(), method, handler.path.split("?")[0], response.status
                    )  # fmt: skip
                )
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


def start_proxy(kubeconfig_text: str, scratch: Path | None = None) -> WriteCountingProxy | None:
    """A proxy for the kubeconfig's cluster, or None when its credentials cannot be replayed."""
    upstream = upstream_of(kubeconfig_text, scratch or Path(tempfile.mkdtemp(prefix="proxy-")))
    return WriteCountingProxy(upstream) if upstream is not None else None
