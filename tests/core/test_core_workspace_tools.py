"""The LLM agent's file tools: confined to the workspace, and never over the runner's own files
(issue 26: a model that rewrites ``transcript.jsonl`` could forge its time to diagnosis; one that
writes ``evaluation.json`` or ``.itbench/`` could stand in for the evaluator's records)."""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
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


def _call(workspace: Path, name: str, arguments: dict) -> str:
    tools = {t.name: t for t in workspace_tools(workspace)}
    return invoke(tools, ToolCall("1", name, json.dumps(arguments)))


def _release_after(fifo: Path, seconds: float, mode: int) -> list[bool]:
    """Open ``fifo``'s other end after ``seconds`` so a tool blocked on it (the code before)
    returns and the test ends; the list says whether that was needed."""
    released: list[bool] = []

    def other_end() -> None:
        time.sleep(seconds)
        released.append(True)
        with contextlib.suppress(OSError):  # ENXIO: nothing was waiting at the other end
            os.close(os.open(fifo, mode | os.O_NONBLOCK))

    threading.Thread(target=other_end, daemon=True).start()
    return released


@pytest.mark.parametrize(
    ("tool", "arguments", "other_end"),
    [
        ("read_file", {"path": "pipe"}, "O_WRONLY"),
        ("write_file", {"path": "pipe", "content": "x"}, "O_RDONLY"),
    ],
)
def test_a_fifo_in_the_workspace_does_not_block_the_runner(
    tmp_path: Path, tool: str, arguments: dict, other_end: str
) -> None:
    # the shell tool (--llm-shell on) can leave a FIFO in the workspace; the file tools run in
    # the runner's own process, which would wait on it for good
    os.mkfifo(tmp_path / "pipe")
    released = _release_after(tmp_path / "pipe", 5, getattr(os, other_end))
    answer = _call(tmp_path, tool, arguments)
    assert not released, f"{tool} waited on the FIFO until its other end was opened"
    assert "named pipe" in answer, answer


def test_read_file_reads_a_bounded_head_of_a_huge_file(tmp_path: Path) -> None:
    with open(tmp_path / "huge.log", "wb") as handle:
        handle.truncate(1 << 40)  # sparse: a terabyte the runner must not load whole
    answer = _call(tmp_path, "read_file", {"path": "huge.log"})
    assert "truncated" in answer and len(answer) < 300_000
