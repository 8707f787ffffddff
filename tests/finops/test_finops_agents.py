"""Every agent kind on the FinOps domain: llm (real litellm over HTTP, with the FinOps tools) and
command (an external program)."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from tests._support.cli import run_cli
from tests._support.fake_openai import ScriptedServer, Step, chat_reply


def _scenario(tmp_path: Path) -> tuple[Path, list[dict]]:
    folder = tmp_path / "scenarios"
    run_cli(
        [
            "finops",
            "generate",
            "--n",
            "1",
            "--seed",
            "3",
            "--out",
            str(folder),
            "--difficulty",
            "easy",
        ]
    )
    truth = yaml.safe_load((folder / "Scenario-1" / "ground_truth.yaml").read_text())["resource"]
    return folder, truth


def test_llm_agent_uses_finops_tools_and_answers(tmp_path):
    folder, truth = _scenario(tmp_path)
    answer = json.dumps({"path": "agent_output.json", "content": json.dumps({"resource": truth})})
    steps = [
        Step(chat_reply(tool_calls=[{"name": "list_levels", "arguments": "{}"}])),
        Step(
            chat_reply(
                tool_calls=[
                    {
                        "name": "query_costs",
                        "arguments": json.dumps({"level": "Application", "top": 3}),
                    }
                ]
            )
        ),
        Step(chat_reply(tool_calls=[{"name": "write_file", "arguments": answer}])),
        Step(chat_reply("done")),
    ]
    env = {
        "OPENAI_API_KEY": "sk-finops-test-abcdef123456",
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
    }
    with ScriptedServer(steps) as server:
        proc = run_cli(
            [
                "finops",
                "run",
                "--scenarios",
                str(folder),
                "--agent",
                "llm",
                "--model",
                "openai/scripted",
                "--api-base",
                server.api_base,
                "--output",
                str(tmp_path / "out"),
                "--format",
                "json",
                "--no-progress",
            ],
            env=env,
        )
    assert proc.returncode == 0, proc.stderr
    (entry,) = json.loads(proc.stdout)["raw_results"]
    assert entry["scores"]["root_cause_resource"]["calculation"] == 1.0
    tool_results = [m["content"] for m in server.requests[-1]["messages"] if m["role"] == "tool"]
    levels = json.loads(tool_results[0])
    assert levels["levels"][0] == "Account ID"
    costs = json.loads(tool_results[1])
    assert costs["level"] == "Application" and len(costs["rows"]) == 3
    first = server.requests[0]
    offered = {t["function"]["name"] for t in first["tools"]}
    assert {"list_levels", "query_costs", "write_file"} <= offered
    # no tool hands the model the baseline's answer: the score measures the model
    assert "run_drilldown" not in offered
    assert "agent_output.json" in first["messages"][1]["content"]


def test_command_agent_answer_is_scored(tmp_path):
    folder, truth = _scenario(tmp_path)
    payload = json.dumps({"resource": truth}).replace("'", "")
    proc = run_cli(
        [
            "finops",
            "run",
            "--scenarios",
            str(folder),
            "--agent-cmd",
            f"test -f anomaly.json && test -f data.csv && test ! -e ground_truth.yaml && echo '{payload}' > agent_output.json",
            "--output",
            str(tmp_path / "cmd"),
            "--format",
            "json",
        ],
    )
    assert proc.returncode == 0, proc.stderr
    (entry,) = json.loads(proc.stdout)["raw_results"]
    assert entry["scores"]["root_cause_resource"]["calculation"] == 1.0
