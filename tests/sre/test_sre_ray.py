"""The SRE suite through ``--executor ray`` gives the local executor's results, incident by
incident: one generated incident of every fault type, in both file modes (in transfer mode the
snapshots travel to the workers in Ray's object store)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from pathlib import Path

import pytest

from tests._support.cli import run_cli
from tests._support.ray_cluster import by_trial, ray_args, run_suite

pytestmark = [
    pytest.mark.ray,
    pytest.mark.skipif(
        importlib.util.find_spec("ray") is None,
        reason="Ray is not installed: pip install 'itbench[ray]' (scripts/setup-venv.sh does)",
    ),
]


@pytest.fixture(scope="module")
def incidents(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sre-ray") / "incidents"
    # --n 17 cycles through every fault type once
    proc = run_cli(["sre", "generate", "--n", "17", "--seed", "31337", "--out", str(out)])
    assert proc.returncode == 0, proc.stderr
    return out


#: Scores that are wall-clock times (time to diagnosis): they differ between any two runs, local
#: or not, so they are compared by presence only.
WALL_CLOCK_SCORES = frozenset({"mttd_s"})


def _without_wall_clock(value):
    if isinstance(value, dict):
        return {k: _without_wall_clock(v) for k, v in value.items() if k not in WALL_CLOCK_SCORES}
    if isinstance(value, list):
        return [_without_wall_clock(v) for v in value]
    return value


@pytest.mark.parametrize("files", ["shared", "transfer"])
def test_the_sre_suite_through_ray_scores_as_locally(ray_cluster, incidents, tmp_path, files):
    local = run_suite("sre", str(incidents), tmp_path / "local", [])
    env = dict(os.environ, ITBENCH_RAY_FILES=files)
    remote = run_suite("sre", str(incidents), tmp_path / "ray", ray_args(ray_cluster), env)
    expected = set(by_trial(local))
    folders = [p for p in incidents.iterdir() if p.is_dir()]
    assert len(folders) == 17 and len(expected) == 34
    for trial, (scores, error) in by_trial(local).items():
        remote_scores, remote_error = by_trial(remote)[trial]
        assert _without_wall_clock(remote_scores) == _without_wall_clock(scores), trial
        assert WALL_CLOCK_SCORES & set(remote_scores) == WALL_CLOCK_SCORES & set(scores), trial
        assert remote_error is None and error is None, trial  # scored on both sides
    assert _without_wall_clock(remote["statistics"]) == _without_wall_clock(local["statistics"])
    assert remote["config"] == local["config"]
    # the agent's answers came back to the driver's run directory in both modes
    for incident_id, trial in expected:
        assert (tmp_path / "ray" / incident_id / trial / "evaluation.json").is_file()


def test_ray_workers_score_with_the_runs_judge_settings(ray_cluster, incidents, tmp_path):
    """The workers open the SRE session from the run request: ``--exclude-infra-namespaces``
    reaches the judge on the worker and drops the answer's collector entity there."""
    if shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is not installed: the command agent refuses to run unsandboxed")
    folder = sorted(p for p in incidents.iterdir() if p.is_dir())[0]
    blamed = "opentelemetry-collectors/Deployment/otel-collector"
    answer = json.dumps({"entities": [{"name": blamed, "contributing_factor": True}]})
    extra = ["--agent-cmd", f"echo '{answer}' > agent_output.json", "--exclude-infra-namespaces"]
    doc = run_suite("sre", str(folder), tmp_path / "ray", [*ray_args(ray_cluster), *extra])
    assert len(doc["raw_results"]) == 2
    for entry in doc["raw_results"]:
        assert "error" not in entry, entry
        dropped = entry["scores"]["root_cause_entity"]["namespace_filter"]["removed_entities"]
        assert dropped == [blamed], entry
