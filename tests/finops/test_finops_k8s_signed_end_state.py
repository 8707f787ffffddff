"""The Kubernetes cost trial's end state is signed by the runner, and judged only when the
signature matches (``itbench.records``).

The end state sits in the trial folder, which an agent or whoever hands the outputs in can edit;
``itbench finops eval`` judges it again without a cluster. Before signing, an idle trial's record
rewritten with a repaired cluster's objects passed.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from finops.k8s.agents import AGENTS, Kubectl
from finops.k8s.suite import END_STATE_FILE, K8sTruth, k8s_environment, rejudge
from itbench.errors import InputError

pytestmark = pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
TRUTH = K8sTruth("hpa-target-low", 11, "mitigate")


def _trial(root: Path, number: int, agent: str) -> Path:
    """One trial of TRUTH under ``root/<scenario>/<number>`` (a run's layout), ``agent`` acting."""
    workspace = root / "k8s-hpa-target-low-11" / str(number)
    workspace.mkdir(parents=True)
    with k8s_environment(TRUTH, workspace) as env:
        AGENTS[agent](Kubectl(Path(env["KUBECONFIG"]), workspace))
    return workspace


@pytest.fixture(scope="module")
def trials(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(an idle trial, a repaired one) of the same scenario, numbers 1 and 2."""
    root = tmp_path_factory.mktemp("signed") / "run"
    return _trial(root, 1, "nothing"), _trial(root, 2, "baseline")


@pytest.fixture
def idle(trials: tuple[Path, Path], tmp_path: Path) -> Path:
    copy = tmp_path / "run" / trials[0].parent.name / trials[0].name
    shutil.copytree(trials[0], copy)
    return copy


def test_untouched_records_are_judged_as_the_run_left_them(trials: tuple[Path, Path]) -> None:
    idle, repaired = trials
    assert rejudge(TRUTH, idle)[0]["mitigation_pass"] == 0.0
    assert rejudge(TRUTH, repaired)[0]["mitigation_pass"] == 1.0


def test_an_edited_end_state_is_refused_not_scored(trials: tuple[Path, Path], idle: Path) -> None:
    # the forgery: the idle trial's record now holds the repaired cluster's objects
    repaired = json.loads((trials[1] / END_STATE_FILE).read_text())
    forged = json.loads((idle / END_STATE_FILE).read_text())
    forged["objects"] = repaired["objects"]
    (idle / END_STATE_FILE).write_text(json.dumps(forged, indent=2) + "\n")
    with pytest.raises(InputError, match=r"k8s-end-state\.json: its signature does not match"):
        rejudge(TRUTH, idle)


def test_one_changed_byte_is_refused(idle: Path) -> None:
    record = idle / END_STATE_FILE
    record.write_bytes(record.read_bytes().replace(b'"writes": 0', b'"writes": 00'))
    with pytest.raises(InputError, match="signature does not match"):
        rejudge(TRUTH, idle)


def test_a_genuine_record_moved_from_another_trial_is_refused(
    trials: tuple[Path, Path], idle: Path
) -> None:
    # record and signature both the runner's, but written for trial 2, not this trial 1
    for name in (END_STATE_FILE.name, END_STATE_FILE.name + ".sig"):
        shutil.copy(trials[1] / END_STATE_FILE.parent / name, idle / END_STATE_FILE.parent / name)
    with pytest.raises(InputError, match="signature does not match"):
        rejudge(TRUTH, idle)


def test_an_unsigned_record_cannot_be_verified(idle: Path) -> None:
    (idle / END_STATE_FILE.parent / (END_STATE_FILE.name + ".sig")).unlink()
    with pytest.raises(InputError, match=r"k8s-end-state\.json: not signed .*cannot be verified"):
        rejudge(TRUTH, idle)


def test_a_signature_made_without_the_key_is_refused(idle: Path) -> None:
    import hashlib

    record = idle / END_STATE_FILE
    # a guess at the scheme without the secret: a plain digest of the bytes
    (record.parent / (record.name + ".sig")).write_text(
        hashlib.sha256(record.read_bytes()).hexdigest() + "\n"
    )
    with pytest.raises(InputError, match="signature does not match"):
        rejudge(TRUTH, idle)
