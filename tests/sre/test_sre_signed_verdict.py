"""The SRE mitigation verdict is signed by the runner, and scored only when the signature matches
(``itbench.records``).

The verdict sits in the trial folder, which an agent or whoever hands the outputs in can edit;
``itbench sre eval --task mitigate`` scores it again without a cluster. Before signing, a failed
trial's verdict with its scores rewritten to 1 scored 1; and the live mode's janitor, finishing a
killed trial, kept whatever scores stood in the file.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from itbench.errors import InputError
from sre.generator.snapshot import write_incident
from sre.live.janitor import CleanUp, _record
from sre.snapshot_entries import SNAPSHOT_ENTRIES
from sre.twin.suite import (
    VERDICT_FILE,
    MitigationTruth,
    mitigation_environment,
    read_verdict,
    write_recipe,
)

FAULT, SEED = "nonexistent-image", 13


@pytest.fixture(scope="module")
def idle_trial(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A trial whose agent did nothing, under ``run/Scenario-x/1`` (a run's layout)."""
    base = tmp_path_factory.mktemp("signed-verdict")
    incident = base / "incident"
    write_incident(incident, FAULT, SEED)
    write_recipe(incident, FAULT, SEED)
    workspace = base / "run" / "Scenario-x" / "1"
    workspace.mkdir(parents=True)
    for name in SNAPSHOT_ENTRIES:
        if (incident / name).is_file():
            shutil.copy(incident / name, workspace / name)
    with mitigation_environment(MitigationTruth(FAULT, SEED, None), workspace):
        pass
    return workspace


@pytest.fixture
def trial(idle_trial: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "run" / "Scenario-x" / "1"
    shutil.copytree(idle_trial, copy)
    return copy


needs_kubectl = pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")


@needs_kubectl
def test_the_runners_verdict_is_scored(trial: Path) -> None:
    scores, _ = read_verdict(trial)
    assert scores["mitigation_pass"] == 0.0


@needs_kubectl
def test_a_verdict_with_forged_scores_is_refused(trial: Path) -> None:
    record = trial / VERDICT_FILE
    doc = json.loads(record.read_text())
    doc["scores"] = {name: 1.0 for name in doc["scores"]}
    record.write_text(json.dumps(doc, indent=2) + "\n")
    with pytest.raises(InputError, match=r"mitigation\.json: its signature does not match"):
        read_verdict(trial)


@needs_kubectl
def test_a_verdict_moved_to_another_trial_is_refused(trial: Path) -> None:
    other = trial.parent / "2"
    shutil.copytree(trial, other)
    with pytest.raises(InputError, match="signature does not match"):
        read_verdict(other)


@needs_kubectl
def test_an_unsigned_verdict_cannot_be_verified(trial: Path) -> None:
    (trial / ".itbench" / "mitigation.json.sig").unlink()
    with pytest.raises(InputError, match=r"mitigation\.json: not signed .*cannot be verified"):
        read_verdict(trial)


def test_the_janitor_keeps_no_scores_it_did_not_sign(tmp_path: Path) -> None:
    """A live trial killed before its clean-up: the janitor records the clean-up in the verdict.
    What stands there unsigned (the agent's, written during its turn) is not carried over."""
    workspace = tmp_path / "run" / "Scenario-x" / "1"
    (workspace / ".itbench").mkdir(parents=True)
    planted = {"scores": {"mitigation_pass": 1.0}, "details": {"mode": "live"}}
    (workspace / VERDICT_FILE).write_text(json.dumps(planted))
    _record(workspace / VERDICT_FILE, CleanUp(by="janitor"))
    assert json.loads((workspace / VERDICT_FILE).read_text())["scores"] == {}
    from itbench.records import read_signed_record

    doc = read_signed_record(workspace, VERDICT_FILE, "missing")  # and it is signed
    assert doc["details"]["cleanup"]["by"] == "janitor"
    assert "ended before its clean-up" in doc["details"]["error"]
