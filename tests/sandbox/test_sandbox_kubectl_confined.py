"""The kubectl the runner runs for an agent is confined (itbench.sandbox.kubectl): real kubectl
against the offline cluster, whatever the deny-lists in front of it miss. It reads no host file
outside the agent's workspace, writes nowhere but its private /tmp, runs no program found on the
runner's PATH, reaches no address but the checked kubeconfig's API server, and still does what
an agent ordinarily asks of it."""

from __future__ import annotations

import base64
import http.server
import json
import os
import shutil
import socket
import ssl
import subprocess
import threading
from pathlib import Path

import pytest
import yaml

from itbench.llm.tools import ToolCall, invoke
from sre.agents.kubectl_tool import kubectl_tool
from tests._support.sandbox import needs_sandbox

pytestmark = [
    needs_sandbox,
    pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent"),
]


def _confined(args: list[str], workspace: Path, stdin: str | None = None):  # noqa: ANN202  # KubectlRun, imported inside with the module under test
    from itbench.sandbox.kubectl import run_confined_kubectl

    text = (workspace / "kubeconfig.yaml").read_text()
    return run_confined_kubectl(
        args, kubeconfig=text, workspace=workspace, stdin=stdin, timeout_s=60
    )


def _plugin(folder: Path, name: str, marker: Path) -> None:
    """A kubectl plugin (``kubectl-<name>`` on PATH) that leaves ``marker`` when it runs."""
    folder.mkdir()
    script = folder / f"kubectl-{name}"
    script.write_text(f"#!/bin/sh\ntouch {marker}\necho plugin ran\n")
    script.chmod(0o755)


def test_a_plugin_on_the_runners_path_is_neither_allowed_nor_found(
    workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    marker = tmp_path / "plugin-ran"
    _plugin(tmp_path / "bin", "inventory", marker)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    tools = {"kubectl": kubectl_tool(workspace)}
    answer = json.loads(invoke(tools, ToolCall("1", "kubectl", '{"args": ["inventory"]}')))
    assert "not a kubectl command" in answer.get("error", ""), answer
    assert not marker.exists()
    # and past the guard, the confined call finds no plugin: its PATH is empty
    done = _confined(["inventory"], workspace)
    assert done.exit_code != 0 and "plugin ran" not in done.stdout, done
    assert not marker.exists()


def test_a_file_outside_the_workspace_is_not_read(workspace: Path, tmp_path: Path):
    outside = tmp_path / "outside"
    outside.mkdir(mode=0o755)
    manifest = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {}\ndata: {{k: v}}\n"
    (outside / "held.yaml").write_text(manifest.format("only-the-host-holds-this"))
    (outside / "held.yaml").chmod(0o644)
    (workspace / "mine.yaml").write_text(manifest.format("written-by-the-agent"))
    (workspace / "mine.yaml").chmod(0o644)
    dry = ["create", "--dry-run=client", "-o", "yaml", "-f"]
    far = _confined([*dry, str(outside / "held.yaml")], workspace)
    near = _confined([*dry, "mine.yaml"], workspace)
    assert far.exit_code != 0 and "only-the-host-holds-this" not in far.stdout, far
    assert near.exit_code == 0 and "written-by-the-agent" in near.stdout, near
    # a link the agent's shell left in its workspace leads nowhere either
    (workspace / "link.yaml").symlink_to(outside / "held.yaml")
    linked = _confined([*dry, "link.yaml"], workspace)
    assert "only-the-host-holds-this" not in linked.stdout, linked


def test_kubectl_writes_nowhere_but_its_own_temp(workspace: Path, tmp_path: Path):
    target = tmp_path / "written"
    target.mkdir(mode=0o777)
    for where in (target / "cpu.prof", workspace / "cpu.prof"):
        done = _confined(["get", "ns", "--profile=cpu", f"--profile-output={where}"], workspace)
        assert not where.exists(), done
    dumped = _confined(["cluster-info", "dump", f"--output-directory={target / 'dump'}"], workspace)
    assert not (target / "dump").exists(), dumped


class _Listener:
    """A TCP server on the host that counts the connections it is offered."""

    def __init__(self, address: str) -> None:
        self.server = socket.create_server((address, 0))
        self.port = self.server.getsockname()[1]
        self.accepted = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            self.accepted += 1
            client.close()

    def close(self) -> None:
        self.server.close()


def _own_address() -> str | None:
    """This machine's address on a network interface (no packet is sent), None without one."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") else address


def test_only_the_kubeconfigs_api_server_is_reachable(workspace: Path):
    other = _Listener("127.0.0.1")
    try:
        served = _confined(["get", "ns", "-o", "name"], workspace)
        elsewhere = _confined(
            ["get", "ns", f"--server=http://127.0.0.1:{other.port}", "--request-timeout=5s"],
            workspace,
        )
    finally:
        other.close()
    assert served.exit_code == 0 and "namespace/" in served.stdout, served
    assert elsewhere.exit_code != 0 and other.accepted == 0, elsewhere


def test_another_host_is_not_reachable(workspace: Path):
    address = _own_address()
    if address is None:
        pytest.skip("this machine has no address but its loopback")
    other = _Listener("0.0.0.0")  # noqa: S104 - reachable from the host's own address
    try:
        done = _confined(
            ["get", "ns", f"--server=http://{address}:{other.port}", "--request-timeout=5s"],
            workspace,
        )
    finally:
        other.close()
    assert done.exit_code != 0 and other.accepted == 0, done


def test_ordinary_calls_still_work(workspace: Path):
    tools = {"kubectl": kubectl_tool(workspace)}

    def call(*args: str, stdin: str | None = None) -> dict:
        body: dict = {"args": list(args)} | ({"stdin": stdin} if stdin else {})
        return json.loads(invoke(tools, ToolCall("1", "kubectl", json.dumps(body))))

    first = call("-n", "otel-demo", "get", "deploy", "-o", "jsonpath={.items[0].metadata.name}")
    assert first["exit_code"] == 0, first
    name = first["stdout"]
    one = call("-n", "otel-demo", "get", "deploy", name, "-o", "json")
    assert json.loads(one["stdout"])["metadata"]["name"] == name, one
    for args in (
        ["get", "pods", "-Ao", "wide"],
        ["-n", "otel-demo", "get", "deploy", name, "-o", "yaml"],
        ["-n", "otel-demo", "get", "deploy", "-o", "jsonpath={.items[*].metadata.name}"],
        ["-n", "otel-demo", "describe", f"deployment/{name}"],
        ["-n", "otel-demo", "scale", f"deployment/{name}", "--replicas=2"],
        ["-n", "otel-demo", "patch", "deploy", name, "-p", '{"metadata":{"labels":{"t":"1"}}}'],
    ):
        done = call(*args)
        assert done.get("exit_code") == 0, (args, done)
    replicas = call("-n", "otel-demo", "get", "deploy", name, "-o", "jsonpath={.spec.replicas}")
    assert replicas["stdout"] == "2", replicas
    config = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: from-stdin, namespace: otel-demo}\n"
    for spelling in (["-f", "-"], ["-f-"]):
        applied = call("apply", *spelling, stdin=config)
        assert applied.get("exit_code") == 0 and "from-stdin" in applied["stdout"], applied
    # logs reach the server (which serves no logs offline), -f follows there
    for args in (["logs", "-f", f"deploy/{name}", "--tail=5"], ["logs", f"deploy/{name}"]):
        done = call("-n", "otel-demo", *args)
        assert "error from server" in done.get("stderr", "").lower(), (args, done)


def test_no_sandbox_no_kubectl(workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from itbench.sandbox import SandboxUnavailable
    from itbench.sandbox.availability import bwrap_path

    only_kubectl = tmp_path / "only-kubectl"
    only_kubectl.mkdir()
    (only_kubectl / "kubectl").symlink_to(shutil.which("kubectl") or "kubectl")
    tools = {"kubectl": kubectl_tool(workspace)}
    monkeypatch.setenv("PATH", str(only_kubectl))
    bwrap_path.cache_clear()
    try:
        with pytest.raises(SandboxUnavailable, match="bubblewrap"):
            invoke(tools, ToolCall("1", "kubectl", '{"args": ["get", "ns"]}'))
    finally:
        monkeypatch.undo()
        bwrap_path.cache_clear()


def _certificate(folder: Path, name: str) -> tuple[Path, Path]:
    """A self-signed certificate for ``name`` and its key (the openssl command line)."""
    stem = folder / f"{name}-{len(list(folder.iterdir()))}"
    cert, key = stem.with_suffix(".pem"), stem.with_suffix(".key")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", f"/CN={name}", "-addext", f"subjectAltName=DNS:{name}",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is absent")
def test_tls_passes_through_and_is_checked_against_the_servers_own_name(tmp_path: Path):
    from itbench.sandbox.kubectl import run_confined_kubectl

    class Healthy(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            self.wfile.write(b"served over tls")

        def log_message(self, *args: object) -> None:
            pass

    served, key = _certificate(tmp_path, "localhost")
    stranger, _ = _certificate(tmp_path, "localhost")  # same name, another key: not trusted
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Healthy)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(served, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def kubeconfig(authority: Path) -> str:
        cluster = {
            "server": f"https://localhost:{server.server_address[1]}",
            "certificate-authority-data": base64.b64encode(authority.read_bytes()).decode(),
        }
        return yaml.safe_dump({
            "apiVersion": "v1", "kind": "Config", "current-context": "x",
            "clusters": [{"name": "c", "cluster": cluster}],
            "users": [{"name": "u", "user": {"token": "t"}}],
            "contexts": [{"name": "x", "context": {"cluster": "c", "user": "u"}}],
        })  # fmt: skip

    try:
        trusted = run_confined_kubectl(
            ["get", "--raw", "/healthz"], kubeconfig=kubeconfig(served), timeout_s=60
        )
        untrusted = run_confined_kubectl(
            ["get", "--raw", "/healthz"], kubeconfig=kubeconfig(stranger), timeout_s=60
        )
    finally:
        server.shutdown()
    assert trusted.exit_code == 0 and trusted.stdout == "served over tls", trusted
    assert untrusted.exit_code != 0 and "certificate" in untrusted.stderr, untrusted
