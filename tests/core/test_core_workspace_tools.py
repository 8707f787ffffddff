"""The LLM agent's file tools: confined to the workspace, and never over the runner's own files
(issue 26: a model that rewrites ``transcript.jsonl`` could forge its time to diagnosis; one that
writes ``evaluation.json`` or ``.itbench/`` could stand in for the evaluator's records)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from itbench.agents.workspace_tools import workspace_tools
from itbench.llm.tools import ToolCall, invoke


def _write(workspace: Path, path: str) -> str:
    tools = {t.name: t for t in workspace_tools(workspace)}
    call = ToolCall("1", "write_file", json.dumps({"path": path, "content": "forged"}))
    return invoke(tools, call)


@pytest.mark.parametrize(
    "path",
    [
        "transcript.jsonl",
        "./transcript.jsonl",
        "evaluation.json",
        ".itbench/cluster-applied.json",
        "sub/../evaluation.json",
        "../elsewhere.txt",
    ],
)
def test_runner_files_and_outside_paths_are_refused(tmp_path: Path, path: str) -> None:
    workspace = tmp_path / "trial"
    workspace.mkdir()
    (workspace / "transcript.jsonl").write_text('{"event": "trial_start"}\n')
    answer = _write(workspace, path)
    assert "error" in answer.lower(), answer
    assert (workspace / "transcript.jsonl").read_text() == '{"event": "trial_start"}\n'
    assert not (workspace / "evaluation.json").exists()
    assert not (workspace / ".itbench").exists()
    assert not (tmp_path / "elsewhere.txt").exists()


@pytest.mark.parametrize("path", ["agent_output.json", "sub/transcript.jsonl", "policy.rego"])
def test_answer_files_are_written(tmp_path: Path, path: str) -> None:
    answer = _write(tmp_path, path)
    assert "wrote" in answer, answer
    assert (tmp_path / path).read_text() == "forged"
