"""A cost export is read within a size and a row limit (``finops.loaders.export``).

The export comes from a scenario folder or, for the llm agent's FinOps tools, from the agent's
workspace, read as the runner's user outside any sandbox: before the limits, a huge file (or a
sparse one, which costs its maker nothing) was read whole into pandas. Sparse files stand in
for huge ones here: refused by their apparent size, they cost no disk and no time.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from finops.loaders.focus import read_focus_csv
from finops.loaders.lite import read_anomaly, read_lite_csv
from finops.tools import make_tools, workspace_table_loader
from itbench.errors import InputError, UsageError
from itbench.llm.tools import ToolCall, invoke
from tests.finops.finops_fixtures import write_lite


def _leaves(days: int = 21) -> dict:
    return {("aws", "compute", "shop", "m5"): (np.full(days, 0.5), np.full(days, 3.0))}


def _sparse(path: Path, size: int) -> Path:
    """``path`` grown to ``size`` bytes without writing them: the head stays a valid export."""
    with open(path, "r+b") as handle:
        handle.truncate(size)
    return path


def test_a_sparse_export_over_the_byte_limit_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ITBENCH_FINOPS_MAX_EXPORT_BYTES", "1M")
    data = _sparse(write_lite(tmp_path / "s", _leaves(), 15) / "data.csv", 64 << 20)
    with pytest.raises(InputError) as refused:
        read_lite_csv(data)
    message = str(refused.value)
    assert message.startswith(f"{data}: 64M (67108864 bytes) is over the export size limit of 1M")
    assert "ITBENCH_FINOPS_MAX_EXPORT_BYTES" in message


def test_a_focus_export_over_the_byte_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ITBENCH_FINOPS_MAX_EXPORT_BYTES", "4K")
    focus = tmp_path / "focus.csv"
    focus.write_text("BilledCost,ChargePeriodStart\n" + "1.0,2026-01-01 00:00:00\n" * 400)
    with pytest.raises(InputError, match=r"focus\.csv: .* over the export size limit of 4K"):
        read_focus_csv(focus)


def test_the_default_limit_refuses_a_terabyte_at_once(tmp_path: Path) -> None:
    """With no setting, a sparse terabyte is refused by its size; in a process of its own with a
    deadline, as before the limit pandas read it without end."""
    data = _sparse(write_lite(tmp_path / "s", _leaves(), 15) / "data.csv", 1 << 40)
    env = {k: v for k, v in os.environ.items() if not k.startswith("ITBENCH_FINOPS_MAX_EXPORT")}
    code = (
        "import sys\nfrom finops.loaders.lite import read_lite_csv\nfrom itbench.errors import "
        "InputError\ntry:\n    read_lite_csv(__import__('pathlib').Path(sys.argv[1]))\n"
        "except InputError as exc:\n    print(exc)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(data)],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert "over the export size limit of 256M" in proc.stdout, proc.stderr[-2000:]


def test_an_export_over_the_row_limit_is_refused_and_one_at_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = write_lite(tmp_path / "s", _leaves(), 15) / "data.csv"
    rows = len(data.read_text().splitlines()) - 1
    monkeypatch.setenv("ITBENCH_FINOPS_MAX_EXPORT_ROWS", str(rows))
    assert len(read_lite_csv(data).frame) > 0
    monkeypatch.setenv("ITBENCH_FINOPS_MAX_EXPORT_ROWS", str(rows - 1))
    with pytest.raises(InputError, match=rf"data\.csv: more than {rows - 1} rows, the export row"):
        read_lite_csv(data)


def test_the_agents_tools_refuse_a_sparse_export_in_the_workspace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shell tool made the workspace's export a sparse file: the tool call fails with the
    reason, the runner reads nothing."""
    monkeypatch.setenv("ITBENCH_FINOPS_MAX_EXPORT_BYTES", "1M")
    workspace = write_lite(tmp_path / "workspace", _leaves(), 15)
    _sparse(workspace / "data.csv", 64 << 20)
    tools = make_tools(workspace_table_loader(workspace), read_anomaly(workspace / "anomaly.json"))
    result = invoke({t.name: t for t in tools}, ToolCall("c1", "list_levels", "{}"))
    assert "data.csv: 64M (67108864 bytes) is over the export size limit of 1M" in result


@pytest.mark.parametrize(
    ("variable", "value"),
    [("ITBENCH_FINOPS_MAX_EXPORT_BYTES", "lots"), ("ITBENCH_FINOPS_MAX_EXPORT_ROWS", "-3")],
)
def test_a_limit_that_is_not_a_number_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    data = write_lite(tmp_path / "s", _leaves(), 15) / "data.csv"
    with pytest.raises(UsageError, match=variable):
        read_lite_csv(data)


def test_unlimited_lifts_the_byte_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ITBENCH_FINOPS_MAX_EXPORT_BYTES", "unlimited")
    data = write_lite(tmp_path / "s", _leaves(), 15) / "data.csv"
    assert len(read_lite_csv(data).frame) > 0
