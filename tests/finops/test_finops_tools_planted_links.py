"""The llm agent's FinOps tools read the workspace's own cost export, never what a link leads to.

They load the export lazily, as the runner's user outside any sandbox, after the agent has had
its turn: with the shell tool (``--llm-shell on``) it can replace ``data.csv`` by a link to
another file of the machine, or by a FIFO that would block the runner.
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import numpy as np

from finops.loaders.lite import read_anomaly
from finops.tools import make_tools, workspace_table_loader
from itbench.llm.tools import ToolCall, invoke
from tests.finops.finops_fixtures import write_lite

#: an account only the file outside the workspace has
HIDDEN_ACCOUNT = "424242"


def _leaves() -> dict:
    days = 21
    return {("aws", "compute", "shop", "m5"): (np.full(days, 0.5), np.full(days, 3.0))}


def _tools(workspace: Path) -> dict:
    tools = make_tools(workspace_table_loader(workspace), read_anomaly(workspace / "anomaly.json"))
    return {t.name: t for t in tools}


def test_a_planted_link_at_the_export_is_not_followed(tmp_path: Path) -> None:
    workspace = write_lite(tmp_path / "workspace", _leaves(), 15)
    outside = write_lite(tmp_path / "elsewhere", _leaves(), 15, account=HIDDEN_ACCOUNT)
    (workspace / "data.csv").unlink()
    (workspace / "data.csv").symlink_to(outside / "data.csv")
    result = invoke(_tools(workspace), ToolCall("c1", "list_levels", "{}"))
    assert HIDDEN_ACCOUNT not in result
    assert "symbolic link" in result


def test_a_fifo_at_the_export_does_not_block_the_runner(tmp_path: Path) -> None:
    workspace = write_lite(tmp_path / "workspace", _leaves(), 15)
    (workspace / "data.csv").unlink()
    os.mkfifo(workspace / "data.csv")
    # on the code before, pandas opened the FIFO and waited for a writer forever; a writer that
    # comes after a while releases it, so the test ends either way and says which
    released = []

    def writer() -> None:
        time.sleep(5)
        released.append(True)
        try:
            fd = os.open(workspace / "data.csv", os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # ENXIO: no reader holds the FIFO (the tool did not wait on it)
            return
        os.close(fd)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    result = invoke(_tools(workspace), ToolCall("c1", "list_levels", "{}"))
    assert not released, "the tool waited on the FIFO until something wrote to it"
    assert "named pipe" in result


def test_the_workspace_export_still_answers(tmp_path: Path) -> None:
    workspace = write_lite(tmp_path / "workspace", _leaves(), 15)
    result = json.loads(invoke(_tools(workspace), ToolCall("c1", "list_levels", "{}")))
    assert result["accounts"] == ["111"]
