"""The ``llm`` agent on the Kubernetes cost tasks: real litellm over HTTP against a scripted server
that reads OpenCost's allocation and the HPAs through the FinOps tools, changes the cluster with
the guarded kubectl (the API server's 422 for a malformed HPA comes back as feedback), and is
judged on the cluster it leaves."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests._support.cli import run_cli
from tests._support.fake_openai import ScriptedServer, Step, chat_reply

pytestmark = pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
SCENARIO = "k8s-hpa-target-low-7"
TARGET = "/spec/metrics/0/resource/target/averageUtilization"
DIAGNOSIS = {"workload": "api", "kind": "HorizontalPodAutoscaler", "field": "averageUtilization"}


def _call(name: str, arguments: dict) -> Step:
    return Step(chat_reply(tool_calls=[{"name": name, "arguments": json.dumps(arguments)}]))


def _write(document: dict) -> Step:
    arguments = json.dumps({"path": "agent_output.json", "content": json.dumps(document)})
    return Step(chat_reply(tool_calls=[{"name": "write_file", "arguments": arguments}]))


def _patch(body: list | dict, kind: str = "json") -> dict:
    return {"args": ["-n", "shop", "patch", "hpa", "api", f"--type={kind}", "-p", json.dumps(body)]}


def _run(steps: list[Step], out: Path, task: str) -> tuple[dict, ScriptedServer]:
    env = {"OPENAI_API_KEY": "sk-finops-test-abcdef123456", "PATH": "/usr/bin:/bin",
           "HOME": str(out.parent)}  # fmt: skip
    with ScriptedServer(steps) as server:
        proc = run_cli(
            ["finops", "run", "--task", task, "--scenarios", SCENARIO, "--agent", "llm",
             "--model", "openai/scripted", "--api-base", server.api_base, "--output", str(out),
             "--format", "json", "--no-progress"],
            env=env,
            timeout=300,
        )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr
    (entry,) = json.loads(proc.stdout)["raw_results"]
    return entry, server


def _tool_results(server: ScriptedServer) -> list[str]:
    return [m["content"] for m in server.requests[-1]["messages"] if m["role"] == "tool"]


def test_llm_agent_mitigates_with_the_cost_tools_and_guarded_kubectl(tmp_path: Path) -> None:
    steps = [
        _call("cost_allocation", {}),
        _call("hpa_status", {}),
        _call("kubectl", {"args": ["--context", "prod", "get", "hpa"]}),
        # malformed: minReplicas above maxReplicas; the API server refuses it with a 422
        _call("kubectl", _patch({"spec": {"minReplicas": 500}}, "merge")),
        _call("kubectl", _patch([{"op": "replace", "path": TARGET, "value": 75}])),
        _write(DIAGNOSIS),
        Step(chat_reply("raised the HPA's CPU target to 75%")),
    ]
    entry, server = _run(steps, tmp_path / "run", "mitigate")
    assert "error" not in entry, entry
    assert entry["scores"]["mitigation_pass"] == 1.0
    assert entry["scores"]["diagnosis_pass"] == 1.0
    assert entry["scores"]["blast_radius"] == 0.0
    offered = {t["function"]["name"] for t in server.requests[0]["tools"]}
    assert {"cost_allocation", "hpa_status", "workload_resources", "kubectl"} <= offered
    allocation, hpas, refused, malformed, patched = (
        json.loads(r) for r in _tool_results(server)[:5]
    )
    assert allocation["alert"]["firing"] is True and "api" in allocation["workloads"]
    (api,) = [h for h in hpas if h["name"] == "api"]
    assert api["metrics"][0]["resource"]["target"]["averageUtilization"] < 40
    assert "--context is not allowed" in refused["error"]
    assert malformed["exit_code"] != 0
    assert "must be greater than or equal to `minReplicas`" in malformed["stderr"]
    assert patched["exit_code"] == 0, patched


def test_llm_agent_on_the_diagnose_task_reads_but_cannot_change(tmp_path: Path) -> None:
    steps = [
        _call("workload_resources", {}),
        _call("kubectl", _patch([{"op": "replace", "path": TARGET, "value": 75}])),
        _call("kubectl", {"args": ["-n", "shop", "get", "hpa", "api", "-o", "json"]}),
        _write(DIAGNOSIS),
        Step(chat_reply("the HPA's target is too low")),
    ]
    entry, server = _run(steps, tmp_path / "run", "diagnose")
    assert entry["scores"] == {"diagnosis_pass": 1.0}, entry
    resources, refused, read = _tool_results(server)[:3]
    assert any(d["name"] == "api" for d in json.loads(resources))
    assert "not allowed on the diagnose task" in json.loads(refused)["error"]
    assert json.loads(read)["exit_code"] == 0
    (evaluation,) = (tmp_path / "run").glob("*/1/evaluation.json")
    assert json.loads(evaluation.read_text())["details"]["writes"] == 0
