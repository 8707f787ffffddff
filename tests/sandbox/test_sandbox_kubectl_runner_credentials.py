"""A live cluster whose kubeconfig (the runner's) gets its token from an exec credential plugin
works through the agents' confined kubectl (real kubectl, real plugin program, a server that
checks the token): the runner runs the plugin outside the sandbox, where kubectl's PATH is
empty and the plugin could not be found, and kubectl sends the token it gave."""

from __future__ import annotations

import base64
import http.server
import json
import shutil
import ssl
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from itbench.llm.tools import ToolCall, invoke
from sre.agents.kubectl_tool import kubectl_tool
from tests._support.sandbox import needs_sandbox

pytestmark = [
    needs_sandbox,
    pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent"),
    # kubectl sends a bearer token over TLS only
    pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is absent"),
]


class _TokenChecking(http.server.BaseHTTPRequestHandler):
    """Answers ``/healthz`` to a request bearing a token the plugin issued, 401 otherwise."""

    seen: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        header = self.headers.get("Authorization", "")
        type(self).seen.append(header)
        if header.startswith("Bearer issued-"):
            body, code = f"let in with {header.removeprefix('Bearer ')}".encode(), 200
        else:
            body, code = b'{"kind":"Status","status":"Failure","code":401}', 401
        self.send_response(code)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[dict, list[str]]]:
    """The token-checking server over TLS (a certificate of its own for ``localhost``), and
    the kubeconfig cluster that reaches it."""
    cert, key = tmp_path / "server.pem", tmp_path / "server.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    seen: list[str] = []
    handler = type("Handler", (_TokenChecking,), {"seen": seen})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    cluster = {
        "server": f"https://localhost:{httpd.server_address[1]}",
        "certificate-authority-data": base64.b64encode(cert.read_bytes()).decode(),
    }
    try:
        yield cluster, seen
    finally:
        httpd.shutdown()


def _workspace(tmp_path: Path, cluster: dict, expires: str | None) -> tuple[Path, Path]:
    """A workspace whose runner-written kubeconfig runs a token plugin (outside it); the file
    counting the plugin's runs."""
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    runs = plugins / "runs"
    script = plugins / "token-issuer"
    script.write_text(
        f"#!{sys.executable}\nimport json, pathlib\n"
        f"runs = pathlib.Path({str(runs)!r})\n"
        "n = int(runs.read_text()) + 1 if runs.exists() else 1\n"
        "runs.write_text(str(n))\n"
        "status = {'token': f'issued-{n}'}\n"
        f"if {expires!r}: status['expirationTimestamp'] = {expires!r}\n"
        "print(json.dumps({'apiVersion': 'client.authentication.k8s.io/v1',"
        " 'kind': 'ExecCredential', 'status': status}))\n"
    )
    script.chmod(0o755)
    workspace = tmp_path / "workspace"
    workspace.mkdir(mode=0o755)
    (workspace / "kubeconfig.yaml").write_text(yaml.safe_dump({
        "apiVersion": "v1", "kind": "Config", "current-context": "cloud",
        "clusters": [{"name": "c", "cluster": cluster}],
        "users": [{"name": "u", "user": {"exec": {
            "apiVersion": "client.authentication.k8s.io/v1", "command": str(script),
            "interactiveMode": "Never"}}}],
        "contexts": [{"name": "cloud", "context": {"cluster": "c", "user": "u"}}],
    }))  # fmt: skip
    return workspace, runs


def _healthz(tools: dict) -> dict:
    call = ToolCall("1", "kubectl", json.dumps({"args": ["get", "--raw", "/healthz"]}))
    return json.loads(invoke(tools, call))


def test_the_runners_exec_plugin_token_reaches_the_server(server, tmp_path: Path):
    cluster, seen = server
    workspace, runs = _workspace(tmp_path, cluster, "2099-01-01T00:00:00Z")
    tools = {"kubectl": kubectl_tool(workspace)}
    first, second = _healthz(tools), _healthz(tools)
    assert first.get("exit_code") == 0 and first["stdout"] == "let in with issued-1", first
    assert second.get("stdout") == "let in with issued-1", second
    assert runs.read_text() == "1"  # valid until 2099: run once
    assert seen and set(seen) == {"Bearer issued-1"}


def test_an_expired_token_is_fetched_again(server, tmp_path: Path):
    cluster, seen = server
    workspace, runs = _workspace(tmp_path, cluster, "2000-01-01T00:00:00Z")
    tools = {"kubectl": kubectl_tool(workspace)}
    assert _healthz(tools).get("stdout") == "let in with issued-1"
    assert _healthz(tools).get("stdout") == "let in with issued-2"
    assert runs.read_text() == "2"
    assert seen[-1] == "Bearer issued-2"


def test_an_agent_that_writes_the_plugin_in_gets_nothing_run(server, tmp_path: Path):
    cluster, seen = server
    workspace, runs = _workspace(tmp_path, cluster, None)
    planted = (workspace / "kubeconfig.yaml").read_text()
    (workspace / "kubeconfig.yaml").write_text(
        yaml.safe_dump(
            {
                "apiVersion": "v1",
                "kind": "Config",
                "current-context": "x",
                "clusters": [{"name": "c", "cluster": cluster}],
                "users": [{"name": "u", "user": {"token": "runner-given"}}],
                "contexts": [{"name": "x", "context": {"cluster": "c", "user": "u"}}],
            }
        )  # fmt: skip
    )
    tools = {"kubectl": kubectl_tool(workspace)}  # the runner's text: an inline token
    (workspace / "kubeconfig.yaml").write_text(planted)  # the agent's: an exec plugin
    answer = _healthz(tools)
    assert "refused" in answer.get("error", "") and "exec" in answer["error"], answer
    assert not runs.exists() and seen == []
