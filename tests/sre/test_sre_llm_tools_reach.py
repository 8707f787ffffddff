"""The llm agent's investigation tools read the trial's snapshot and nothing else.

They run as the runner's user, outside any sandbox; the file arguments they take are filled from
the workspace and never shown to the model. A model that sends one anyway, or a link planted in
the workspace by the shell tool, must not make them read another file of the machine.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from itbench.llm.tools import ToolCall, invoke
from itbench.models import PublicScenario
from sre.agents.llm_tools import sre_llm_tools

FIXTURE = Path(__file__).parent / "fixtures" / "incident-checkout"
#: a reason no event of the fixture has: it reaches the model only from the file outside
MARKER = "HostOnlySecretReason"


def _outside_events(where: Path) -> Path:
    """An events file beside (not inside) the workspace, as a hidden answer would lie."""
    text = (FIXTURE / "k8s_events_raw.tsv").read_text(encoding="utf-8")
    secret = where / "hidden_events.tsv"
    secret.write_text(text.replace("ScalingReplicaSet", MARKER), encoding="utf-8")
    return secret


def _workspace(tmp_path: Path) -> Path:
    workspace = tmp_path / "workspace"
    shutil.copytree(FIXTURE, workspace)
    return workspace


def _call(workspace: Path, name: str, arguments: dict) -> str:
    scenario = PublicScenario(id="s1", domain="sre", scenario_class="sre-diagnosis", title="t")
    tools = {t.name: t for t in sre_llm_tools(scenario, workspace)}
    return invoke(tools, ToolCall("c1", name, json.dumps(arguments)))


def test_a_file_argument_the_model_sends_is_refused(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    secret = _outside_events(tmp_path)
    result = _call(workspace, "event_analysis", {"events_file": str(secret), "group_by": "reason"})
    assert MARKER not in result
    assert result.startswith("error:") and "events_file" in result


@pytest.mark.parametrize("argument", ["../hidden_events.tsv", "k8s_events_raw.tsv"])
def test_a_relative_file_argument_is_refused_too(tmp_path: Path, argument: str) -> None:
    workspace = _workspace(tmp_path)
    _outside_events(tmp_path)
    result = _call(workspace, "event_analysis", {"events_file": argument, "group_by": "reason"})
    assert MARKER not in result
    assert result.startswith("error:")


def test_a_planted_link_in_the_workspace_is_not_followed(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    secret = _outside_events(tmp_path)
    (workspace / "k8s_events_raw.tsv").unlink()
    (workspace / "k8s_events_raw.tsv").symlink_to(secret)
    result = _call(workspace, "event_analysis", {"group_by": "reason"})
    assert MARKER not in result
    assert "symbolic link" in result


def test_a_planted_link_inside_a_snapshot_folder_is_not_followed(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    secret = tmp_path / "hidden_alerts.json"
    secret.write_text((workspace / "alerts").iterdir().__next__().read_text(), encoding="utf-8")
    for alert in (workspace / "alerts").iterdir():
        alert.unlink()
    (workspace / "alerts" / "alerts_at_2025-12-12T02-30-00.000000.json").symlink_to(secret)
    result = _call(workspace, "alert_summary", {})
    assert "symbolic link" in result


def test_a_glob_in_a_file_name_does_not_read_the_files_beside_it(tmp_path: Path) -> None:
    # the events file renamed to a name DuckDB reads as a pattern, and beside it a link that
    # pattern matches: each path the tools were given is a regular file, what DuckDB reads not
    workspace = _workspace(tmp_path)
    secret = _outside_events(tmp_path)
    (workspace / "k8s_events_raw.tsv").rename(workspace / "*events*.tsv")
    (workspace / "zz_events_copy.tsv").symlink_to(secret)
    result = _call(workspace, "event_analysis", {"group_by": "reason"})
    assert MARKER not in result
    assert result.startswith("error:")


def test_the_snapshot_itself_still_answers(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    result = _call(workspace, "event_analysis", {"group_by": "reason"})
    assert "ScalingReplicaSet" in result
    assert not result.startswith("error:")
