"""MTTD through ``itbench sre run`` with a sandboxed command agent that tries to look faster than
it was: back-dating its answer file, or rewriting the trial's transcript with an earlier write.
Every agent below waits ``WAIT_S`` seconds before it writes the right answer, so the honest
figure is at least that; a forged route may give the honest figure or none, never a smaller one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._support.cli import run_cli
from tests._support.sre import generated_incident, right_answer

#: A seed no other MTTD test uses.
SEED = 4177
WAIT_S = 2


@pytest.fixture(scope="module")
def incident(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generated_incident(tmp_path_factory.mktemp("mttd-forgery") / "incidents", SEED)


def _trial(incident: Path, out: Path, then: str) -> tuple[dict, Path]:
    """One trial of an agent that waits, then runs ``then`` (with ``$ANSWER`` set)."""
    command = f"sleep {WAIT_S}; ANSWER='{right_answer(incident)}'; {then}"
    proc = run_cli(
        ["sre", "run", "--scenarios", str(incident), "--agent-cmd", command]
        + ["--output", str(out), "--format", "json", "--no-progress"],
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    (trial,) = [p.parent for p in out.glob("*/1/evaluation.json")]
    evaluation = json.loads((trial / "evaluation.json").read_text())
    assert evaluation.get("error") is None, evaluation
    assert evaluation["scores"]["root_cause_entity"]["calculation_recall"] == 1.0
    return evaluation, trial


def test_an_honest_agent_is_timed_from_the_runners_watch(incident: Path, tmp_path: Path) -> None:
    evaluation, _ = _trial(incident, tmp_path / "o", 'echo "$ANSWER" > agent_output.json')
    assert evaluation["scores"]["mttd_s"] >= WAIT_S
    assert evaluation["details"]["mttd_source"] == "runner watch"


def test_a_back_dated_answer_file_is_not_faster(incident: Path, tmp_path: Path) -> None:
    evaluation, _ = _trial(
        incident,
        tmp_path / "o",
        'echo "$ANSWER" > agent_output.json; touch -d @0 agent_output.json',
    )
    assert evaluation["scores"].get("mttd_s", WAIT_S) >= WAIT_S


#: Rewrites the transcript as if the trial had started now and the answer had been written at
#: once by an llm agent's write_file, then writes the answer.
_REWRITE = """python3 - "$ANSWER" <<'PY'
import json, sys, time
now = time.time()
with open("transcript.jsonl", "w") as f:
    f.write(json.dumps({"ts": now, "event": "trial_start"}) + "\\n")
    call = {"name": "write_file", "arguments": {"path": "agent_output.json", "content": sys.argv[1]}}
    f.write(json.dumps({"ts": now, "event": "llm_response", "tool_calls": [call]}) + "\\n")
    f.write(json.dumps({"ts": now, "event": "answer_seen", "content": sys.argv[1]}) + "\\n")
PY
echo "$ANSWER" > agent_output.json"""


def test_a_rewritten_transcript_neither_times_nor_erases(incident: Path, tmp_path: Path) -> None:
    evaluation, trial = _trial(incident, tmp_path / "o", _REWRITE)
    assert evaluation["scores"].get("mttd_s", WAIT_S) >= WAIT_S
    assert evaluation["details"].get("mttd_source") != "transcript write_file"
    # the trial folder holds the runner's history, with its own start and the command it ran
    events = [json.loads(line) for line in (trial / "transcript.jsonl").read_text().splitlines()]
    assert events[0]["event"] == "trial_start" and events[0]["agent"] == "command"
    assert [e["event"] for e in events].count("trial_start") == 1
    assert any(e["event"] == "command_start" for e in events)
    assert any("transcript.jsonl" in note for note in evaluation["details"]["refused"])
