"""The battery's forging attempts against ``--agent-sandbox off`` and the Ray executor (issue 26,
gap 6), through the real CLI.

- ``--agent-sandbox off`` is loud and marked: a warning on stderr, ``"unsandboxed": true`` in every
  trial's ``evaluation.json`` details and ``raw_results`` entry, and ``unsandboxed_trials`` in
  ``results.json``'s config, so that a leaderboard can refuse the run. Unsandboxed, the agent can
  copy the reference answer and pass (that is what the mark is for); what the runner itself
  refuses (a planted ``evaluation.json``, an answer that is a link) it refuses still.
- under ``--executor ray`` (a real local Ray cluster) the agent runs in the same sandbox as
  locally: no capability, no reference answer, its forged ``evaluation.json`` and linked answer
  refused, and its trials not marked.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
from pathlib import Path

import pytest

from tests._support.ciso import needs_sandbox
from tests._support.cli import REPO, run_cli
from tests._support.ray_cluster import ray_args

pytestmark = [pytest.mark.slow, needs_sandbox]

KYVERNO = "cis-k8s-5.1.1-cluster-admin.kyverno"
REFERENCE = REPO / "policies" / "kyverno" / "cis-k8s-5.1.1-cluster-admin" / "policy.yaml"
FORGED = '{"scores": {"itbench_pass": 1, "strict_pass": 1}}'
#: reads the reference answer, reports its capabilities, plants a score, links the answer
PROBE = (
    f"cat {REFERENCE} >/dev/null 2>&1 && echo SAW-REFERENCE; "
    "grep -E '^CapEff:' /proc/self/status; "
    f"echo '{FORGED}' > ../evaluation.json 2>/dev/null; echo '{FORGED}' > evaluation.json; "
    f"ln -s {REFERENCE} kyverno-policy.yaml; true"
)
#: copies the reference answer as a regular file: only an unsandboxed agent can
COPY = f"cp {REFERENCE} kyverno-policy.yaml"


def _run(out: Path, agent: str, *extra: str, env=None) -> subprocess.CompletedProcess[str]:
    return run_cli(
        ["ciso", "run", "--select", KYVERNO, "--agent-cmd", agent, "--output", str(out),
         "--format", "json", "--no-progress", *extra],
        env=env,
        timeout=900,
    )  # fmt: skip


def _stdout_of(trial: Path) -> str:
    for line in (trial / "transcript.jsonl").read_text().splitlines():
        event = json.loads(line)
        if event.get("event") == "command_end":
            return event["stdout_tail"]
    raise AssertionError(f"no command_end in {trial}")


def test_agent_sandbox_off_is_loud_and_marks_every_result(tmp_path: Path):
    out = tmp_path / "off"
    proc = _run(out, COPY, "--agent-sandbox", "off")
    assert proc.returncode in (0, 1), proc.stderr
    assert "WARNING: --agent-sandbox off" in proc.stderr
    assert "1 trial(s) ran with --agent-sandbox off" in proc.stderr, proc.stderr
    evaluation = json.loads((out / KYVERNO / "1" / "evaluation.json").read_text())
    assert evaluation["details"]["unsandboxed"] is True, evaluation
    # the copied reference passes: exactly why such a score must be refusable
    assert evaluation["scores"]["itbench_pass"] == 1
    results = json.loads((out / "results.json").read_text())
    assert results["config"]["unsandboxed_trials"] == 1, results["config"]
    assert [e.get("unsandboxed") for e in results["raw_results"]] == [True]
    # and the leaderboard refuses to rank it
    board = run_cli(["leaderboard", str(out)])
    assert board.returncode == 3, board.stderr
    assert "1 trial(s) ran with --agent-sandbox off" in board.stderr, board.stderr


def test_the_runner_refuses_forgeries_even_unsandboxed(tmp_path: Path):
    out = tmp_path / "off"
    proc = _run(out, PROBE, "--agent-sandbox", "off")
    assert proc.returncode in (0, 1), proc.stderr
    trial = out / KYVERNO / "1"
    evaluation = json.loads((trial / "evaluation.json").read_text())
    assert evaluation["details"]["unsandboxed"] is True
    assert evaluation["scores"].get("itbench_pass") == 0, evaluation  # the link is not read
    assert "kyverno-policy.yaml" in json.dumps(evaluation["details"].get("refused")), evaluation


def test_a_sandboxed_run_is_not_marked(tmp_path: Path):
    out = tmp_path / "on"
    proc = _run(out, COPY)
    # the reference is not there to copy: the agent's command fails, so does the run (exit 3)
    assert proc.returncode == 3, proc.stderr
    assert "cannot stat" in proc.stderr and "--agent-sandbox off" not in proc.stderr
    evaluation = json.loads((out / KYVERNO / "1" / "evaluation.json").read_text())
    assert "unsandboxed" not in evaluation["details"]
    assert evaluation["scores"] == {}, evaluation
    results = json.loads((out / "results.json").read_text())
    assert "unsandboxed_trials" not in results["config"]


@pytest.mark.ray
@pytest.mark.skipif(
    importlib.util.find_spec("ray") is None,
    reason="Ray is not installed: pip install 'itbench[ray]' (scripts/setup-venv.sh does)",
)
@pytest.mark.parametrize("executor", ["local", "ray-shared", "ray-transfer"])
def test_the_forging_attempts_hold_under_ray_as_locally(request, tmp_path: Path, executor):
    extra, env = [], None
    if executor != "local":
        extra = ray_args(request.getfixturevalue("ray_cluster"))
        env = dict(os.environ, ITBENCH_RAY_FILES=executor.removeprefix("ray-"))
    out = tmp_path / executor
    proc = _run(out, PROBE, *extra, env=env)
    assert proc.returncode in (0, 1), proc.stderr
    trial = out / KYVERNO / "1"
    said = _stdout_of(trial)
    assert "CapEff:\t0000000000000000" in said, said
    assert "SAW-REFERENCE" not in said, said
    evaluation = json.loads((trial / "evaluation.json").read_text())
    assert evaluation["scores"]["itbench_pass"] == 0, evaluation  # neither forgery counted
    assert "unsandboxed" not in evaluation["details"]
    refused = json.dumps(evaluation["details"].get("refused"))
    assert "kyverno-policy.yaml" in refused, evaluation
