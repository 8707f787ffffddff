"""The llm agent's guarded kubectl tool: it reaches the trial's cluster and nothing else."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from itbench.llm.tools import ToolCall, invoke
from sre.agents.kubectl_tool import kubectl_tool, refusal
from sre.twin.scenario import build_case, serve_case


@pytest.mark.parametrize(
    "args",
    [
        ["--kubeconfig", "/etc/other", "get", "pods"],
        ["get", "pods", "--server=https://10.0.0.1"],
        ["--context", "prod", "get", "pods"],
        ["apply", "-f", "/etc/passwd"],
        ["apply", "--filename=manifest.yaml"],
        ["config", "view", "--raw"],
        ["port-forward", "svc/cart", "8080"],
        ["-n", "otel-demo", "exec", "cart-x", "--", "sh"],
        ["cp", "otel-demo/cart-x:/etc/passwd", "x"],
        [],
    ],
)
def test_refused(args):
    assert refusal(args)


def test_allowed():
    assert refusal(["-n", "otel-demo", "rollout", "undo", "deployment/cart"]) == ""
    assert refusal(["apply", "-f", "-"]) == ""


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
def test_the_tool_reaches_the_trials_cluster(tmp_path: Path):
    case = build_case("scaled-to-zero", 5)
    cluster, _twin = serve_case(case, tmp_path / "kubeconfig.yaml")
    try:
        tools = {"kubectl": kubectl_tool(tmp_path)}
        call = ToolCall("1", "kubectl", json.dumps(
            {"args": ["-n", "otel-demo", "scale", f"deployment/{case.target}", "--replicas=1"]}
        ))  # fmt: skip
        answer = json.loads(invoke(tools, call))
        assert answer["exit_code"] == 0, answer
        assert cluster.state.overlay()["applied"][0]["spec"]["replicas"] == 1
        refused = json.loads(
            invoke(tools, ToolCall("2", "kubectl", '{"args": ["config", "view"]}'))
        )
        assert "not allowed" in refused["error"]
    finally:
        cluster.stop()
