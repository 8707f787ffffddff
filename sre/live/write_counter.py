"""The agent's way to the live cluster: a proxy on the loopback interface in front of the API
server, which forwards every request with the user's credentials and records the agent's writes
(POST, PUT, PATCH, DELETE) with their time, so live mode's MTTR counts write requests as the
offline twin does.

The agent's kubeconfig names only the proxy (``http://127.0.0.1:<port>``, no credentials of its
own); the proxy listens there and on a unix socket, the only endpoint of a sandboxed agent's
network (:mod:`itbench.sandbox.endpoint` relays the port to it inside the sandbox). It holds the user's (a bearer token, a client certificate, basic auth) and the
cluster's CA. Responses are streamed as they come (``kubectl get -w``, ``rollout status``); protocol upgrades
(``kubectl exec``, ``attach``, ``port-forward``) are spliced through once the server switches
protocols, an exec or attach counted as a write. Credentials from an ``exec`` plugin are the
proxy's to get: it runs the plugin as kubectl does and uses its token until it expires (or its
client certificate); a ``tokenFile`` is read on each request. Not supported: the deprecated
``auth-provider`` entries (live mode then hands the agent the user's own kubeconfig and records
no write count).
"""

from __future__ import annotations

import base64
import contextlib
import datetime as dt
import http.client
import json
import os
import shutil
import socket
import socketserver
import ssl
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from itbench.errors import InputError
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


@dataclass
class ExecPlugin:
    """Credentials from a kubeconfig's ``exec`` plugin (``client.authentication.k8s.io``): the
    command run as kubectl runs it, its ExecCredential's token kept until it expires."""

    command: str
    args: tuple[str, ...]
    env: tuple[tuple[str, str], ...]
    api_version: str
    token: str | None = None
    expires: float | None = None  # time.time()
    client_cert: tuple[bytes, bytes] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def credential(self) -> None:
        """Run the plugin when no token is held or it has expired; an error names the plugin."""
        with self._lock:
            if self.token is not None and (self.expires is None or time.time() < self.expires):
                return
            info = {"apiVersion": self.api_version, "kind": "ExecCredential",
                    "spec": {"interactive": False}}  # fmt: skip
            env = {**os.environ, **dict(self.env), "KUBERNETES_EXEC_INFO": json.dumps(info)}
            try:
                done = subprocess.run([self.command, *self.args], capture_output=True, text=True,
                                      env=env, stdin=subprocess.DEVNULL, timeout=60)  # fmt: skip
                doc = json.loads(done.stdout) if done.returncode == 0 else None
            except (OSError, subprocess.TimeoutExpired, ValueError) as exc:
                raise InputError(f"kubeconfig exec plugin {self.command}: {exc}") from None
            status = (doc or {}).get("status") if isinstance(doc, dict) else None
            if not isinstance(status, dict):
                reason = (done.stderr or "").strip().splitlines()[-1:] or [
                    f"exit {done.returncode}"
                ]
                raise InputError(
                    f"kubeconfig exec plugin {self.command}: no ExecCredential status ({reason[0]})"
                )
            if status.get("clientCertificateData") and status.get("clientKeyData"):
                self.client_cert = (str(status["clientCertificateData"]).encode(),
                                    str(status["clientKeyData"]).encode())  # fmt: skip
            self.token = str(status["token"]) if status.get("token") else ""
            stamp = status.get("expirationTimestamp")
            self.expires = None
            if isinstance(stamp, str) and stamp:
                with contextlib.suppress(ValueError):
                    # a minute early: a request never leaves with a token about to lapse
                    moment = dt.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
                    self.expires = moment.timestamp() - 60


@dataclass(frozen=True)
class Upstream:
    scheme: str
    host: str
    port: int
    base_path: str
    headers: tuple[tuple[str, str], ...]
    context: ssl.SSLContext | None
    plugin: ExecPlugin | None = None
    token_file: Path | None = None

    def auth_headers(self) -> list[tuple[str, str]]:
        """The user's credentials for one request: static ones, or read now (a token file an
        agent of the cloud rotates, an exec plugin's token)."""
        if self.plugin is not None:
            self.plugin.credential()
            if self.plugin.token:
                return [("Authorization", f"Bearer {self.plugin.token}")]
        if self.token_file is not None:
            try:
                token = self.token_file.read_text(encoding="utf-8").strip()
            except OSError as exc:
                raise InputError(f"kubeconfig tokenFile {self.token_file}: {exc}") from None
            return [("Authorization", f"Bearer {token}")]
        return list(self.headers)


def _decoded(value: str) -> bytes:
    return base64.b64decode(value)


def upstream_of(kubeconfig_text: str, scratch: Path) -> Upstream | None:
    """The API server and credentials of a flattened single-context kubeconfig (``kubectl
    config view --minify --flatten``); None when its credentials come from an auth-provider the proxy
    cannot replay. ``scratch`` receives the client certificate files ssl needs on disk."""
    doc: Any = yaml.safe_load(kubeconfig_text) or {}
    cluster = ((doc.get("clusters") or [{}])[0] or {}).get("cluster") or {}
    user = ((doc.get("users") or [{}])[0] or {}).get("user") or {}
    if user.get("auth-provider"):
        return None  # a deprecated in-tree provider (gcp, azure, oidc) kubectl alone runs
    plugin = None
    if isinstance(user.get("exec"), dict):
        spec = user["exec"]
        if not spec.get("command"):
            return None
        plugin = ExecPlugin(
            str(spec["command"]),
            tuple(str(a) for a in spec.get("args") or ()),
            tuple((str(e["name"]), str(e.get("value", ""))) for e in spec.get("env") or ()),
            str(spec.get("apiVersion") or "client.authentication.k8s.io/v1"),
        )
        plugin.credential()  # now: a plugin that fails says so before the agent starts
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
        chain: tuple[bytes, bytes] | None = None
        if user.get("client-certificate-data") and user.get("client-key-data"):
            chain = (_decoded(user["client-certificate-data"]), _decoded(user["client-key-data"]))
        elif plugin is not None and plugin.client_cert is not None:
            chain = plugin.client_cert  # PEM as the plugin gave it
        if chain is not None:
            scratch.mkdir(parents=True, exist_ok=True)
            cert, key = scratch / "client.crt", scratch / "client.key"
            key.touch(mode=0o600)
            cert.write_bytes(chain[0])
            key.write_bytes(chain[1])
            context.load_cert_chain(str(cert), str(key))
    port = url.port or (443 if url.scheme == "https" else 80)
    token_file = Path(str(user["tokenFile"])) if user.get("tokenFile") and not headers else None
    return Upstream(url.scheme, url.hostname, port, url.path.rstrip("/"), tuple(headers), context,
                    plugin, token_file)  # fmt: skip


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


def _pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)


def splice(client: socket.socket, upstream: socket.socket) -> None:
    """Relay both ways until both directions have ended."""
    other = threading.Thread(target=_pump, args=(upstream, client), daemon=True)
    other.start()
    _pump(client, upstream)
    other.join()
    upstream.close()


def start_proxy(kubeconfig_text: str, scratch: Path | None = None) -> WriteCountingProxy | None:
    """A proxy for the kubeconfig's cluster, or None when its credentials cannot be replayed."""
    upstream = upstream_of(kubeconfig_text, scratch or Path(tempfile.mkdtemp(prefix="proxy-")))
    return WriteCountingProxy(upstream) if upstream is not None else None
