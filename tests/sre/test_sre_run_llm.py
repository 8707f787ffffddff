"""The ``llm`` agent on SRE: real litellm over HTTP against a scripted server that calls two SRE
investigation tools, writes an answer, and is held to the output schema by the reflection loop."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sre.generator.snapshot import write_incident
from tests._support.cli import run_cli
from tests._support.fake_openai import ScriptedServer, Step, chat_reply

ANSWER = {
    "entities": [
        {
            "name": "otel-demo/Deployment/email",
            "contributing_factor": True,
            "reasoning": "command changed to a missing binary just before the errors",
            "evidence": "k8s_spec_change_analysis",
        }
    ],
    "propagations": [
        {"source": "otel-demo/Deployment/email", "target": "otel-demo/Service/email",
         "condition": "crash loop", "effect": "email unreachable"},
        {"source": "otel-demo/Service/email", "target": "otel-demo/Service/checkout",
         "condition": "calls fail", "effect": "checkout errors"},
    ],
    "alerts_explained": [
        {"alert": "RequestErrorRate on checkout", "explanation": "email down", "explained": True}
    ],
}  # fmt: skip


@pytest.fixture(scope="module")
def incident(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sre-llm")
    write_incident(root / "Scenario-1", "bad-command", 5, target="email")
    return root


def _write(document: dict) -> Step:
    arguments = json.dumps({"path": "agent_output.json", "content": json.dumps(document)})
    return Step(chat_reply(tool_calls=[{"name": "write_file", "arguments": arguments}]))


def _call(name: str, arguments: dict) -> Step:
    return Step(chat_reply(tool_calls=[{"name": name, "arguments": json.dumps(arguments)}]))


def _run(incident: Path, server: ScriptedServer, out: Path) -> dict:
    env = {"OPENAI_API_KEY": "sk-sre-test-abcdef123456", "PATH": "/usr/bin:/bin", "HOME": str(out)}
    proc = run_cli(
        ["sre", "run", "--scenarios", str(incident), "--agent", "llm", "--model",
         "openai/scripted", "--api-base", server.api_base, "--output", str(out / "run"),
         "--format", "json", "--no-progress"],
        env=env,
        timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_llm_agent_calls_two_sre_tools_and_writes_a_valid_answer(
    incident: Path, tmp_path: Path
) -> None:
    steps = [
        _call("alert_summary", {"state_filter": "firing"}),
        _call("k8s_spec_change_analysis", {"k8_object_name": "Deployment/email"}),
        _write(ANSWER),
        Step(chat_reply("email's Deployment command change is the root cause")),
    ]
    with ScriptedServer(steps) as server:
        doc = _run(incident, server, tmp_path)
    (entry,) = doc["raw_results"]
    assert "error" not in entry, entry
    assert entry["scores"]["root_cause_entity"]["calculation_f1"] == 1.0
    first = server.requests[0]
    offered = {t["function"]["name"]: t["function"] for t in first["tools"]}
    assert {"alert_summary", "k8s_spec_change_analysis", "get_trace_error_tree"} <= set(offered)
    assert "write_file" in offered
    # file arguments are the workspace's snapshot: the model is never asked for paths
    assert "base_dir" not in offered["alert_summary"]["parameters"]["properties"]
    assert "k8s_objects_file" not in offered["k8s_spec_change_analysis"]["parameters"]["properties"]
    # the prompt names the snapshot, the tools and the MCP server
    assert "itbench sre mcp --snapshot" in first["messages"][1]["content"]
    results = [m["content"] for m in server.requests[-1]["messages"] if m["role"] == "tool"]
    # the original tools' text (alert_summary: the list itself), our warnings after it if any
    alerts = json.loads(results[0].split("\n\nwarnings:\n")[0])
    assert {a["alertname"] for a in alerts} >= {"RequestErrorRate"}
    assert all(a["state"] == "firing" for a in alerts)
    changes = json.loads(results[1].split("\n\nwarnings:\n")[0])
    assert changes["entity_order"] == ["otel-demo/Deployment/email"]
    # the spec edit's window; the original's resourceVersion window (entity_modified) comes first
    windows = changes["entities_with_changes"][0]["changes"]
    (change,) = [w for w in windows if w["change"] == "modified"]
    assert any("command" in item["path"] for item in change["changes"])


def test_reflection_feeds_schema_problems_back(incident: Path, tmp_path: Path) -> None:
    broken = {"entities": [{"name": "email", "contributing_factor": False}]}
    steps = [
        _write(broken),
        Step(chat_reply("done")),
        _write(ANSWER),
        Step(chat_reply("fixed")),
    ]
    with ScriptedServer(steps) as server:
        doc = _run(incident, server, tmp_path)
    (entry,) = doc["raw_results"]
    assert entry["scores"]["root_cause_entity"]["calculation_f1"] == 1.0
    feedback = [
        m["content"]
        for m in server.requests[2]["messages"]
        if m["role"] == "user" and "agent_output.json" in m["content"]
    ]
    text = feedback[-1]
    assert 'no entity has "contributing_factor": true' in text
    assert "'email' is not namespace/Kind/name" in text


def test_llm_agent_mitigates_through_the_guarded_kubectl_tool(tmp_path: Path) -> None:
    """A mitigation trial: the scripted model rolls the faulty Deployment back with the kubectl
    tool (a refused call in between is feedback, not a crash), writes its diagnosis, and the
    twin's verdict passes."""
    from sre.twin.suite import write_recipe

    root = tmp_path / "suite"
    write_incident(root / "Scenario-1", "bad-command", 5, target="email")
    write_recipe(root / "Scenario-1", "bad-command", 5, target="email")
    steps = [
        _call("kubectl", {"args": ["--context", "prod", "get", "pods"]}),
        _call("kubectl", {"args": ["-n", "otel-demo", "rollout", "undo", "deployment/email"]}),
        _write(ANSWER),
        Step(chat_reply("rolled email back to its previous revision")),
    ]
    env = {"OPENAI_API_KEY": "sk-sre-test-abcdef123456", "PATH": "/usr/bin:/bin",
           "HOME": str(tmp_path)}  # fmt: skip
    with ScriptedServer(steps) as server:
        proc = run_cli(
            ["sre", "run", "--task", "mitigate", "--scenarios", str(root), "--agent", "llm",
             "--model", "openai/scripted", "--api-base", server.api_base, "--output",
             str(tmp_path / "run"), "--format", "json", "--no-progress"],
            env=env,
            timeout=300,
        )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (entry,) = json.loads(proc.stdout)["raw_results"]
    assert "error" not in entry, entry
    assert entry["scores"]["mitigation_pass"] == 1.0
    assert entry["scores"]["agent_writes"] == 1.0  # the refused call never reached the cluster
    (transcript,) = (tmp_path / "run").glob("*/1/transcript.jsonl")
    task = json.loads(transcript.read_text().splitlines()[1])
    assert task["system"].startswith("You are an SRE repairing an incident"), task
