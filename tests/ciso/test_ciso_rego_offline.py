"""Evaluated Rego has no network and no host access (issue 26): an agent's policy calling
``http.send`` to a listener on 127.0.0.1 is refused with the reason (the listener hears nothing,
not even of the leave-one-in environments); the evaluation worker itself has no network either,
and none of the host's environment variables."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from ciso.engines.rego.pool import RegoPool
from ciso.engines.rego.select import available_engines
from tests._support.ciso import needs_sandbox
from tests._support.cli import run_cli

OPA_STATIC = "cis-k8s-5.7.4-default-namespace.opa-static"


@pytest.fixture
def listener() -> Iterator[tuple[int, list[bytes]]]:
    heard: list[bytes] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            heard.append(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"{}")

        do_GET = do_POST

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], heard
    finally:
        server.shutdown()
        server.server_close()


def _exfiltrating_policy(port: int, body: str = "input") -> str:
    return (
        "package check\n"
        f'sent := http.send({{"method": "POST", "url": "http://127.0.0.1:{port}/leak", '
        f'"body": {body}, "raise_error": false}})\n'
        "result := sent.status_code == 0\n"
    )


@pytest.mark.slow
@needs_sandbox
def test_a_policy_calling_http_send_is_refused_and_sends_nothing(tmp_path: Path, listener):
    port, heard = listener
    fetch = "#!/bin/sh\necho '{\"n\": 1}' > collected_data.json\n"
    agent = (
        f"cat > fetch.sh <<'EOF'\n{fetch}EOF\n"
        f"cat > policy.rego <<'EOF'\n{_exfiltrating_policy(port)}EOF\n"
    )
    out = tmp_path / "run"
    proc = run_cli(
        ["ciso", "run", "--scenarios", OPA_STATIC, "--agent-cmd", agent,
         "--agent-network", "none", "--output", str(out), "--format", "json", "--no-progress"],
        timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    evaluation = json.loads((out / OPA_STATIC / "1" / "evaluation.json").read_text())
    assert heard == [], heard
    assert "policy.rego:2: http.send is not allowed" in json.dumps(evaluation), evaluation
    assert evaluation["scores"]["fetch_generates_data"] == 1  # it got as far as the policy
    assert evaluation["scores"]["itbench_pass"] == 0


@pytest.mark.skipif("opa-golib" not in available_engines(), reason="needs the embedded OPA")
def test_the_offline_worker_has_no_network_and_no_host_environment(listener, monkeypatch):
    """Below the refusal: even a policy that reached the worker could not send anything."""
    port, heard = listener
    monkeypatch.setenv("ITBENCH_TEST_SECRET_TOKEN", "do-not-hand-out")
    source = _exfiltrating_policy(port, body='{"n": 1}') + "env := opa.runtime().env\n"
    with RegoPool(size=1, timeout_s=20, offline=True) as pool:
        result = pool.evaluate({"p.rego": source}, "data.check.sent", {}, engine="opa-golib")
        assert result.value["status_code"] == 0, result.value  # no connection at all
        env = pool.evaluate({"p.rego": source}, "data.check.env", {}, engine="opa-golib").value
    assert heard == []
    assert "do-not-hand-out" not in json.dumps(env if isinstance(env, dict) else {})
    # the same policy on a worker with the host's network does reach the listener: the
    # listener and the policy are sound, the offline worker is what stops it
    with RegoPool(size=1, timeout_s=20) as pool:
        pool.evaluate({"p.rego": source}, "data.check.sent", {}, engine="opa-golib")
    assert heard == [b'{"n":1}'], heard
