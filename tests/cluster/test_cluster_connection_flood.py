"""Any process of the host can connect to a trial's API server before it shows a token: a flood of
token-less connections that never finish their headers, or send megabytes of them, must leave the
server's threads and memory bounded and the trial's own kubectl answered (`cluster serve`, the
real kubectl, raw sockets)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from itbench.cluster import ClusterState
from itbench.cluster.server import (
    MAX_CONNECTIONS,
    MAX_HEADER_BYTES,
    MAX_UNAUTHENTICATED,
    ApiServer,
)
from tests._support.cli import itbench_executable
from tests.cluster.kubectl_run import kubectl, needs_kubectl

pytestmark = needs_kubectl


class Served:
    def __init__(self, proc: subprocess.Popen[bytes], kubeconfig: Path, port: int) -> None:
        self.proc, self.kubeconfig, self.port = proc, kubeconfig, port

    def status(self, field: str) -> int:
        text = Path(f"/proc/{self.proc.pid}/status").read_text()
        found = re.search(rf"^{field}:\s+(\d+)", text, re.M)
        assert found is not None
        return int(found.group(1))


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    (tmp_path / "ns.yaml").write_text(
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: harbour}\n"
    )
    kubeconfig = tmp_path / "kubeconfig"
    args = [
        itbench_executable(),
        "cluster",
        "serve",
        str(tmp_path),
        "--kubeconfig",
        str(kubeconfig),
    ]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip()
        found = re.search(r"127\.0\.0\.1:(\d+)", kubeconfig.read_text())
        assert found is not None
        yield Served(proc, kubeconfig, int(found.group(1)))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)


def _connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=30)


def _namespaces(served: Served, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return kubectl(served.kubeconfig, tmp_path, "get", "ns", "-o", "name")


def test_unfinished_token_less_requests_hold_few_threads_and_kubectl_is_answered(
    served: Served, tmp_path: Path
) -> None:
    """300 connections each sending a request line and a header, then nothing: the server
    keeps at most MAX_UNAUTHENTICATED of them (a thread each), and kubectl still lists."""
    held = []
    try:
        for _ in range(300):
            sock = _connect(served.port)
            sock.sendall(b"GET /version HTTP/1.1\r\nHost: x\r\nX-Wait: ")
            held.append(sock)
        listed = _namespaces(served, tmp_path)
        assert listed.returncode == 0, listed.stderr
        assert "namespace/harbour" in listed.stdout
        # the serving loop, the main thread and the bounded unauthenticated ones
        assert served.status("Threads") <= MAX_UNAUTHENTICATED + 8
    finally:
        for sock in held:
            sock.close()


def test_oversized_headers_are_431_before_the_token_is_checked(served: Served) -> None:
    """One byte past MAX_HEADER_BYTES of request line and headers, none of them finished: the
    server answers 431 at once (the standard library waited for the rest of the line, then for
    up to 100 lines of 64 KiB)."""
    start = b"GET /version HTTP/1.1\r\nHost: x\r\nX-Pad: "
    # exactly what the server reads before it answers: nothing unread to reset the connection
    sent = start + b"p" * (MAX_HEADER_BYTES + 1 - len(start))
    sock = _connect(served.port)
    answer = b""
    try:
        sock.sendall(sent)
        while chunk := sock.recv(65536):
            answer += chunk
    finally:
        sock.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 431 "), head
    assert json.loads(body)["message"] == f"request headers exceed {MAX_HEADER_BYTES} bytes"


def test_a_flood_of_oversized_headers_leaves_memory_bounded(served: Served, tmp_path: Path) -> None:
    """150 connections that would each send 6.3 MB of headers: the server's resident memory
    grows by far less than one of them would hold (it held ~6 MB each), and kubectl lists."""
    before = served.status("VmRSS")
    chunk = (b"X-Pad: " + b"p" * 64_000 + b"\r\n") * 4
    held = []
    try:
        for _ in range(150):
            sock = _connect(served.port)
            sock.setblocking(False)
            with contextlib.suppress(OSError):  # the server already answered 431 and closed
                sock.send(b"GET /version HTTP/1.1\r\nHost: x\r\n" + chunk)
            held.append(sock)
        listed = _namespaces(served, tmp_path)
        assert listed.returncode == 0, listed.stderr
        grown_kb = served.status("VmRSS") - before
        assert grown_kb < 64 * 1024, grown_kb  # 150 x 6 MB held would be ~900 MB
        assert served.status("Threads") <= MAX_UNAUTHENTICATED + 8
    finally:
        for sock in held:
            sock.close()


def test_a_slow_request_is_closed_at_its_header_deadline() -> None:
    """A token-less client sending one header byte at a time is disconnected once the header
    deadline passes (a short one here); a request with the token is answered after it."""
    server = ApiServer(ClusterState([]))
    server.header_deadline_s = 0.5
    server.serve_in_thread()
    try:
        sock = _connect(server.port)
        sock.sendall(b"GET /version HTTP/1.1\r\nHost: x\r\n")
        sock.settimeout(0.1)
        closed = False
        for _ in range(600):  # 60 s at most; the deadline is 0.5 s
            try:
                sock.sendall(b"X")
                closed = sock.recv(1) == b""
            except TimeoutError:
                continue
            except OSError:
                closed = True
            if closed:
                break
        sock.close()
        assert closed
        assert _authorized_version(server).startswith(b"HTTP/1.1 200 ")
    finally:
        server.shutdown()
        server.server_close()


def _authorized_version(server: ApiServer) -> bytes:
    sock = _connect(server.port)
    try:
        token = f"Bearer {server.token}".encode()
        sock.sendall(b"GET /version HTTP/1.1\r\nHost: x\r\nAuthorization: " + token + b"\r\n\r\n")
        return sock.recv(65536)
    finally:
        sock.close()


def test_past_the_connection_cap_a_new_connection_is_503_with_retry_after() -> None:
    """The server's answer to a connection past MAX_CONNECTIONS, without a thread for it."""
    server = ApiServer(ClusterState([]))
    server.serve_in_thread()
    held = []
    try:
        token = f"Bearer {server.token}".encode()
        for _ in range(MAX_CONNECTIONS):
            sock = _connect(server.port)
            sock.sendall(
                b"GET /version HTTP/1.1\r\nHost: x\r\nAuthorization: " + token + b"\r\n\r\n"
            )
            assert sock.recv(65536).startswith(b"HTTP/1.1 200 ")  # kept alive, authenticated
            held.append(sock)
        extra = _connect(server.port)
        answer = extra.recv(65536)
        extra.close()
        assert answer.startswith(b"HTTP/1.1 503 "), answer[:80]
        assert b"Retry-After: 1" in answer
        assert len(os.listdir(f"/proc/{os.getpid()}/task")) < MAX_CONNECTIONS + 64
    finally:
        for sock in held:
            sock.close()
        server.shutdown()
        server.server_close()
