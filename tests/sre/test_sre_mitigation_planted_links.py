"""A mitigation trial's runner-side writes into the workspace never go through a link the agent
planted there.

While the agent repairs, the twin's live view appends the cluster's present to the workspace's
snapshot files (and adds an alerts file) after every write; when the trial ends the verdict is
written to ``.itbench/mitigation.json``. All as the runner's user, outside any sandbox, while the
agent (``--agent-cmd`` in its sandbox, or the llm agent's shell tool) can replace those names by
links to any file or folder of the machine.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sre.agents.baseline.mitigate import Kubectl
from sre.generator.snapshot import write_incident
from sre.snapshot_entries import SNAPSHOT_ENTRIES
from sre.twin.suite import MitigationTruth, mitigation_environment, read_verdict, write_recipe

FAULT, SEED = "nonexistent-image", 7
#: what the files outside hold before the trial: they must hold it after
UNTOUCHED = "left as it was\n"


@pytest.fixture(scope="module")
def incident(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("planted") / "Scenario-x"
    write_incident(folder, FAULT, SEED)
    write_recipe(folder, FAULT, SEED)
    return folder


def _workspace(incident: Path, tmp_path: Path) -> Path:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    for name in SNAPSHOT_ENTRIES:
        source = incident / name
        if source.is_dir():
            shutil.copytree(source, workspace / name)
        elif source.is_file():
            shutil.copy(source, workspace / name)
    return workspace


def _plant(workspace: Path, outside: Path) -> None:
    """The agent's turn: each name the runner writes becomes a link out."""
    outside.mkdir()
    for name in ("k8s_objects_raw.tsv", "k8s_events_raw.tsv"):
        (outside / name).write_text(UNTOUCHED)
        (workspace / name).unlink()
        (workspace / name).symlink_to(outside / name)
    (outside / "alerts").mkdir()
    shutil.rmtree(workspace / "alerts")
    (workspace / "alerts").symlink_to(outside / "alerts")
    (outside / "runner").mkdir()
    shutil.rmtree(workspace / ".itbench", ignore_errors=True)
    (workspace / ".itbench").symlink_to(outside / "runner")


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
def test_live_view_and_verdict_are_not_written_through_planted_links(
    incident: Path, tmp_path: Path
) -> None:
    workspace = _workspace(incident, tmp_path)
    outside = tmp_path / "outside"
    with mitigation_environment(MitigationTruth(FAULT, SEED, None), workspace) as env:
        _plant(workspace, outside)
        kubectl = Kubectl(env["KUBECONFIG"], tmp_path)
        # the repair: every write makes the live view record the cluster's present
        items = kubectl.json("-n", "otel-demo", "get", "deployments")["items"]
        broken = [d["metadata"]["name"] for d in items
                  if d["status"].get("availableReplicas", 0) == 0]  # fmt: skip
        done = kubectl("-n", "otel-demo", "rollout", "undo", f"deployment/{broken[0]}")
        assert done.returncode == 0, done.stderr
        kubectl("-n", "otel-demo", "rollout", "status", f"deployment/{broken[0]}")
    for name in ("k8s_objects_raw.tsv", "k8s_events_raw.tsv"):
        assert (outside / name).read_text() == UNTOUCHED, name
    assert list((outside / "alerts").iterdir()) == []
    assert list((outside / "runner").iterdir()) == []
    # the verdict is still the runner's, in a real folder of the trial
    assert not (workspace / ".itbench").is_symlink()
    scores, _details = read_verdict(workspace)
    assert scores
