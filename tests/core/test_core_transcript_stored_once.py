"""Each trial's transcript is stored once, in its trial folder. While a trial runs, the runner
writes it under ``DIR/.itbench-transcripts/`` (out of the agent's reach) and lays a copy in the
trial folder once the agent has ended; when the trial is scored, or recorded as failed, the
runner's file is moved there and the folder it lay in goes. The toy domain through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

from itbench.runner.layout import TRANSCRIPTS_DIR
from tests._support.cli import run_cli


def _events(trial: Path) -> list[str]:
    lines = (trial / "transcript.jsonl").read_text().splitlines()
    return [json.loads(line)["event"] for line in lines]


def test_a_scored_trial_keeps_its_whole_transcript_in_its_folder_only(
    toy_env: dict[str, str], tmp_path: Path
) -> None:
    out = tmp_path / "run"
    toy_env["TOY_SCENARIOS"] = "2"
    args = ["toy", "run", "--output", str(out), "--trials", "2", "--no-progress"]
    proc = run_cli(args, env=toy_env)
    assert proc.returncode == 0, proc.stderr
    for scenario in ("add-1", "add-2"):
        for number in ("1", "2"):
            events = _events(out / scenario / number)
            assert events[0] == "trial_start", (scenario, number)
            assert events[-2:] == ["agent_end", "evaluation"], (scenario, number)
    assert not (out / TRANSCRIPTS_DIR).exists()


def test_a_timed_out_trial_keeps_its_transcript_in_its_folder_only(
    toy_env: dict[str, str], tmp_path: Path
) -> None:
    out = tmp_path / "run"
    toy_env["TOY_SCENARIOS"] = "1"
    args = ["toy", "run", "--agent-cmd", "sleep 60", "--timeout", "1", "--output", str(out)]
    proc = run_cli([*args, "--no-progress"], env=toy_env)
    assert proc.returncode == 3, proc.stderr  # the only trial has no score
    assert _events(out / "add-1" / "1")[0] == "trial_start"
    assert not (out / TRANSCRIPTS_DIR).exists()
