"""The Kubernetes cost trial's end state is written into the trial's own folder, never through a
link the agent left.

The runner writes ``.itbench/k8s-end-state.json`` after the agent's turn, as its own user,
outside any sandbox; an agent (``--agent-cmd`` in its sandbox, or the llm agent's shell tool) can
replace ``.itbench`` by a link to any folder of the machine.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from finops.k8s import suite


def test_a_planted_link_at_the_runner_folder_is_not_written_through(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    truth = suite.K8sTruth("hpa-target-low", 3, "mitigate")
    with suite.k8s_environment(truth, workspace):
        # the agent's turn: the runner's folder becomes a link to a folder outside
        shutil.rmtree(workspace / ".itbench", ignore_errors=True)
        (workspace / ".itbench").symlink_to(elsewhere)
    assert list(elsewhere.iterdir()) == []
    assert not (workspace / ".itbench").is_symlink()
    # and the trial is still judged on what the runner wrote
    scores, _ = suite.rejudge(truth, workspace)
    assert scores["mitigation_pass"] == 0.0
