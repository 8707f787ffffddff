"""``itbench sre eval`` times MTTD only from a transcript the runner signed when it laid it in the
trial folder: a hand-written one (an early ``answer_seen``), an edited one or one whose signature
was removed gives no MTTD and a warning naming the file; the runner's own still times it. Through
the real CLI: one ``sre run`` with a sandboxed command agent, then ``sre eval`` of its folder."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sre.agents.hooks import _entity
from sre.generator.snapshot import generate_incidents
from sre.groundtruth import load_truths
from tests._support.cli import run_cli

#: A seed no other MTTD test uses.
SEED = 6043
WAIT_S = 3


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(incident folder, run directory) of one trial that answers right after WAIT_S."""
    if shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is not installed: the command agent refuses to run unsandboxed")
    root = tmp_path_factory.mktemp("signed-transcript")
    generate_incidents(root / "incidents", SEED, 1)
    incident = root / "incidents" / "Scenario-1"
    ((_, loaded),) = load_truths(incident / "ground_truth.yaml").items()
    names = [n for n in (_entity(g) for g in loaded.truth.groups if g.root_cause) if n]
    answer = json.dumps({"entities": [{"name": n, "contributing_factor": True} for n in names]})
    out = root / "run"
    proc = run_cli(
        ["sre", "run", "--scenarios", str(incident), "--output", str(out), "--agent-cmd",
         f"sleep {WAIT_S}; echo '{answer}' > agent_output.json", "--no-progress"],
        timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return incident, out


def _eval(incident: Path, outputs: Path) -> tuple[dict, str]:
    proc = run_cli(
        ["sre", "eval", "--outputs", str(outputs), "--ground-truth", str(incident.parent),
         "--format", "json"]
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (result,) = json.loads(proc.stdout)["raw_results"]
    assert result.get("error") is None, result
    assert result["scores"]["root_cause_entity"]["calculation_recall"] == 1.0
    return result["scores"], proc.stderr


def _copy(out: Path, to: Path) -> Path:
    """The run's trial folders alone, as someone hands them in; the transcript's path."""
    (trial,) = [p.parent for p in out.glob("*/1/evaluation.json")]
    target = to / trial.parent.name / trial.name
    shutil.copytree(trial, target)
    (target / "evaluation.json").unlink()
    return target / "transcript.jsonl"


def test_the_runners_transcript_still_times_it(ran: tuple[Path, Path], tmp_path: Path) -> None:
    incident, out = ran
    _copy(out, tmp_path / "as-run")
    scores, stderr = _eval(incident, tmp_path / "as-run")
    assert scores["mttd_s"] >= WAIT_S
    assert "transcript.jsonl" not in stderr


def _answer_seen_at_once(transcript: Path) -> str:
    """The transcript with the answer seen 0.01 s after the trial began."""
    events = [json.loads(line) for line in transcript.read_text().splitlines()]
    start = next(e["ts"] for e in events if e["event"] == "trial_start")
    seen = next(e for e in events if e["event"] == "answer_seen")
    seen["ts"] = start + 0.01
    return "".join(json.dumps(e) + "\n" for e in events)


@pytest.mark.parametrize("how", ["edited", "hand-written, signature removed"])
def test_a_forged_transcript_gives_no_mttd(
    ran: tuple[Path, Path], tmp_path: Path, how: str
) -> None:
    incident, out = ran
    transcript = _copy(out, tmp_path / "forged")
    transcript.write_text(_answer_seen_at_once(transcript))
    if how != "edited":
        transcript.with_name("transcript.jsonl.sig").unlink(missing_ok=True)
    scores, stderr = _eval(incident, tmp_path / "forged")
    assert "mttd_s" not in scores, scores
    assert f"{transcript}" in stderr and "no MTTD" in stderr, stderr
