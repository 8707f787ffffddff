"""File tools every LLM agent gets, confined to its workspace."""

from __future__ import annotations

import errno
import os
import stat
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


def _open_regular(target: Path, shown: str, flags: int) -> int:
    """A descriptor of the regular file ``target``. The tools run in the runner's own process,
    outside any sandbox, on files the agent's shell tool may have made: a FIFO there would block
    the runner for good (opened non-blocking, then refused), a device is no answer file."""
    try:
        fd = os.open(target, flags | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO opened to write with no reader
            raise ValueError(f"{shown} is a named pipe: not opened") from None
        raise
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = "a named pipe" if stat.S_ISFIFO(mode) else "not a regular file"
        raise ValueError(f"{shown} is {kind}: not opened")
    os.set_blocking(fd, True)
    return fd


def workspace_tools(workspace: Path) -> list[Tool]:
    def write_file(path: str, content: str) -> str:
        target = _writable(workspace, path)
        target.parent.mkdir(parents=True, exist_ok=True)
        with os.fdopen(
            _open_regular(target, path, os.O_WRONLY | os.O_CREAT), "w", encoding="utf-8"
        ) as out:
            out.truncate()
            out.write(content)
        return f"wrote {len(content)} characters to {path}"

    def read_file(path: str) -> str:
        target = _inside(workspace, path)
        with os.fdopen(_open_regular(target, path, os.O_RDONLY), "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            # a head only: a sparse file of a terabyte costs the agent nothing to make
            head = handle.read(_MAX_READ * 4)
        data = head.decode("utf-8", errors="replace")
        if len(data) > _MAX_READ or size > len(head):
            return data[:_MAX_READ] + f"\n... (truncated; {size} bytes in all)"
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
