"""``itbench finops eval`` on the outputs of Kubernetes cost trials: the trial is judged again from
what it left (the cluster's end state and agent_output.json), without its cluster; results go to
eval-results.json and never replace a document; a trial that cannot be judged is an error of its
own, the others are scored."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests._support.cli import run_cli

pytestmark = pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
IDS = "k8s-hpa-target-low-7,k8s-budget-too-low-7"


def _eval(out: Path, *extra: str):
    return run_cli(
        ["finops", "eval", "--task", "mitigate", "--outputs", str(out), "--format", "json", *extra]
    )


def _by_id(document: dict) -> dict[str, dict]:
    return {r["incident_id"]: r for r in document["raw_results"]}


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("k8s") / "run"
    proc = run_cli(
        ["finops", "run", "--task", "mitigate", "--scenarios", IDS, "--agent", "baseline"]
        + ["--output", str(out), "--no-progress"],
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return out


def _copy(run_dir: Path, tmp_path: Path) -> Path:
    out = tmp_path / "copy"
    shutil.copytree(run_dir, out)
    return out


def test_eval_scores_a_k8s_run_as_the_run_did(run_dir: Path, tmp_path: Path) -> None:
    out = _copy(run_dir, tmp_path)
    proc = _eval(out, "--ground-truth", str(out))
    assert proc.returncode == 0, proc.stderr
    got = _by_id(json.loads((out / "eval-results.json").read_text()))
    for sid in IDS.split(","):
        ran = json.loads((out / sid / "1" / "evaluation.json").read_text())
        assert got[sid]["scores"] == ran["scores"], sid
        assert got[sid]["scores"]["mitigation_pass"] == 1.0
    # the run's own results document is left as it was
    assert (out / "results.json").read_bytes() == (run_dir / "results.json").read_bytes()


def test_eval_judges_again_from_the_trial_folder(run_dir: Path, tmp_path: Path) -> None:
    """A changed diagnosis changes the score: eval judges, it does not copy the run's scores."""
    out = _copy(run_dir, tmp_path)
    (out / "k8s-hpa-target-low-7" / "1" / "agent_output.json").write_text(
        json.dumps({"workload": "web", "kind": "ConfigMap", "field": "data.budgetPerDay"})
    )
    proc = _eval(out, "--ground-truth", str(out))
    assert proc.returncode in (0, 1), proc.stderr
    got = _by_id(json.loads((out / "eval-results.json").read_text()))
    assert got["k8s-hpa-target-low-7"]["scores"]["diagnosis_pass"] == 0.0
    assert got["k8s-hpa-target-low-7"]["scores"]["mitigation_pass"] == 1.0  # the fix stands
    assert got["k8s-budget-too-low-7"]["scores"]["diagnosis_pass"] == 1.0


def test_eval_records_a_trial_without_its_end_state_as_an_error(
    run_dir: Path, tmp_path: Path
) -> None:
    out = _copy(run_dir, tmp_path)
    (out / "k8s-budget-too-low-7" / "1" / ".itbench" / "k8s-end-state.json").unlink()
    proc = _eval(out, "--ground-truth", str(out))
    assert "Traceback" not in proc.stderr
    document = json.loads((out / "eval-results.json").read_text())
    got = _by_id(document)
    assert got["k8s-hpa-target-low-7"]["scores"]["mitigation_pass"] == 1.0
    failed = got["k8s-budget-too-low-7"]
    assert not failed.get("scores")
    assert "end state" in json.dumps(failed)


def test_eval_refuses_an_end_state_edited_after_the_run(run_dir: Path, tmp_path: Path) -> None:
    """The end state is the runner's, signed: an edited one is an error naming the file, never
    judged; the untouched trial beside it is scored."""
    out = _copy(run_dir, tmp_path)
    record = out / "k8s-budget-too-low-7" / "1" / ".itbench" / "k8s-end-state.json"
    doc = json.loads(record.read_text())
    doc["writes"] = 0
    record.write_text(json.dumps(doc))
    proc = _eval(out, "--ground-truth", str(out))
    assert "Traceback" not in proc.stderr
    got = _by_id(json.loads((out / "eval-results.json").read_text()))
    assert got["k8s-hpa-target-low-7"]["scores"]["mitigation_pass"] == 1.0
    assert not got["k8s-budget-too-low-7"].get("scores")
    assert f"{record}: its signature does not match" in got["k8s-budget-too-low-7"]["error"]


def test_eval_never_replaces_a_results_document(run_dir: Path, tmp_path: Path) -> None:
    out = _copy(run_dir, tmp_path)
    assert _eval(out, "--ground-truth", str(out)).returncode == 0
    first = (out / "eval-results.json").read_bytes()
    again = _eval(out, "--ground-truth", str(out))
    assert again.returncode == 2
    assert "exists" in again.stderr
    assert (out / "eval-results.json").read_bytes() == first


def test_eval_without_ground_truth_names_the_folders_it_cannot_score(
    run_dir: Path, tmp_path: Path
) -> None:
    """Seed 7 is not in the built-in suite: eval says so instead of scoring against other truth."""
    out = _copy(run_dir, tmp_path)
    proc = _eval(out)
    assert proc.returncode == 2
    assert "k8s-hpa-target-low-7" in proc.stderr and "--ground-truth" in proc.stderr
    assert not (out / "eval-results.json").exists()
