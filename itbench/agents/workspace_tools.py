"""File tools every LLM agent gets, confined to its workspace."""

from __future__ import annotations

from pathlib import Path

from itbench.llm.tools import Tool
from itbench.runner.layout import RUNNER_NAMES

_MAX_READ = 200_000


def _inside(workspace: Path, relative: str) -> Path:
    root = workspace.resolve()
    target = (root / relative).resolve()
    if target != root and root not in target.parents:
        raise ValueError(f"path {relative!r} is outside the workspace")
    return target


def _writable(workspace: Path, relative: str) -> Path:
    """Inside the workspace and not one of the runner's own files (transcript, evaluation)."""
    target = _inside(workspace, relative)
    if target != workspace.resolve():
        top = target.relative_to(workspace.resolve()).parts[0]
        if top in RUNNER_NAMES:
            raise ValueError(f"path {relative!r} belongs to the benchmark runner, not the agent")
    return target


def workspace_tools(workspace: Path) -> list[Tool]:
    def write_file(path: str, content: str) -> str:
        target = _writable(workspace, path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
        return f"wrote {len(content)} characters to {path}"

    def read_file(path: str) -> str:
        target = _inside(workspace, path)
        data = target.read_text(encoding="utf-8", errors="replace")
        if len(data) > _MAX_READ:
            return data[:_MAX_READ] + f"\n... (truncated; {len(data)} characters in all)"
        return data

    def list_files() -> list[str]:
        root = workspace.resolve()
        return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())

    return [
        Tool(
            "write_file",
            "Write a text file in your workspace (relative path). Use it for your answer files.",
            {
                "type": "object",
                "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
                "required": ["path", "content"],
            },
            write_file,
        ),
        Tool(
            "read_file",
            "Read a text file from your workspace (relative path).",
            {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
            read_file,
        ),
        Tool(
            "list_files",
            "List the files in your workspace.",
            {"type": "object", "properties": {}},
            list_files,
        ),
    ]
