"""MTTD of a diagnosis trial: the first diagnosis naming the root cause, from the runner's records
in the transcript (never the answer file's write time); absent when never found."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from itbench.records import write_signed_text
from sre.generator.ground_truth import parse_ground_truth
from sre.judge.hooks import evaluate_diagnosis, truth_scenario
from tests._support.sre import flagd_truth

TRUTH = flagd_truth(
    {"id": "cart-service-1", "kind": "Service", "namespace": "otel-demo", "name": "cart"},
    propagations=[
        {"source": "cfg", "target": "cart-service-1", "condition": "flag", "effect": "errors"}
    ],
)
RIGHT = {"entities": [{"name": "otel-demo/ConfigMap/flagd-config", "contributing_factor": True}]}
WRONG = {"entities": [{"name": "otel-demo/Service/cart", "contributing_factor": True}]}


def _write_call(ts: float, doc: dict, path: str = "agent_output.json") -> dict:
    args = json.dumps({"path": path, "content": json.dumps(doc)})
    return {
        "ts": ts,
        "event": "llm_response",
        "tool_calls": [{"name": "write_file", "arguments": args}],
    }


def _trial(tmp_path: Path, events: list[dict], final: dict, mtime: float) -> dict:
    # signed, as the runner lays it in the trial folder (an unsigned one is not read)
    write_signed_text(
        tmp_path, Path("transcript.jsonl"), "".join(json.dumps(e) + "\n" for e in events)
    )
    out = tmp_path / "agent_output.json"
    out.write_text(json.dumps(final))
    os.utime(out, (mtime, mtime))
    scenario = truth_scenario("1", parse_ground_truth(TRUTH, "t"), "t")
    result = evaluate_diagnosis(scenario, tmp_path)
    return {"scores": dict(result.scores), "details": dict(result.details)}


def test_first_right_write_in_the_transcript(tmp_path):
    events = [
        {"ts": 1000.0, "event": "trial_start"},
        _write_call(1010.0, WRONG),
        _write_call(1030.5, RIGHT),
        _write_call(1050.0, RIGHT),
        {"ts": 1060.0, "event": "agent_end"},
    ]
    e = _trial(tmp_path, events, RIGHT, 1059.0)
    assert e["scores"]["mttd_s"] == 30.5
    assert e["details"]["mttd_source"] == "transcript write_file"


def _seen(ts: float, doc: dict) -> dict:
    return {
        "ts": ts,
        "event": "answer_seen",
        "path": "agent_output.json",
        "content": json.dumps(doc),
    }


def test_an_agent_writing_once_counts_when_the_runner_first_saw_it(tmp_path):
    events = [
        {"ts": 1000.0, "event": "trial_start"},
        _seen(1004.0, WRONG),
        _seen(1012.25, RIGHT),
        {"ts": 1020.0, "event": "agent_end"},
    ]
    # the file's modification time is the agent's to set: never read
    e = _trial(tmp_path, events, RIGHT, 1001.0)
    assert e["scores"]["mttd_s"] == 12.25
    assert e["details"]["mttd_source"] == "runner watch"


def test_without_a_runner_record_of_the_answer_it_counts_at_the_agents_end(tmp_path):
    events = [{"ts": 1000.0, "event": "trial_start"}, {"ts": 1020.0, "event": "agent_end"}]
    e = _trial(tmp_path, events, RIGHT, 1001.0)
    assert e["scores"]["mttd_s"] == 20.0
    assert e["details"]["mttd_source"] == "agent end"


def test_a_redone_trial_is_timed_from_its_own_start(tmp_path):
    # not the runner's (a redo starts a new transcript): one sre eval may be handed
    events = [
        {"ts": 1000.0, "event": "trial_start"},
        _seen(1001.0, RIGHT),
        {"ts": 2000.0, "event": "trial_start"},
        _seen(2007.5, RIGHT),
        {"ts": 2010.0, "event": "agent_end"},
    ]
    assert _trial(tmp_path, events, RIGHT, 1001.0)["scores"]["mttd_s"] == 7.5


def test_never_right_has_no_mttd(tmp_path):
    events = [
        {"ts": 1000.0, "event": "trial_start"},
        _write_call(1010.0, WRONG),
        {"ts": 1020.0, "event": "agent_end"},
    ]
    e = _trial(tmp_path, events, WRONG, 1011.0)
    assert "mttd_s" not in e["scores"]
    assert e["scores"]["root_cause_entity"]["calculation_recall"] == 0.0


@pytest.mark.parametrize(
    ("lines", "named"),
    [
        (['{"ts": 1000.0, "event": "trial_start"}', "[1, 2]"], "line 2: not a JSON object"),
        (['{"ts": 1000.0, "event": "trial_start"}', "{not json"], "line 2: not JSON"),
        (
            ['{"ts": 1000.0, "event": "trial_start"}', '{"ts": "later", "event": "agent_end"}'],
            "event 2: 'ts' is not a number",
        ),
        (['{"ts": -5, "event": "trial_start"}'], "event 1: 'ts' -5 is not a time in seconds"),
        (
            [
                '{"ts": 1000.0, "event": "trial_start"}',
                '{"ts": 1' + "0" * 400 + ', "event": "agent_end"}',
            ],
            "event 2: 'ts' 1000",
        ),
    ],
    ids=["no-object", "no-json", "ts-text", "ts-negative", "ts-400-digits"],
)
def test_a_transcript_no_runner_wrote_loses_the_time_only(tmp_path, lines, named):
    # signed as the runner signs: the lines themselves are what no runner wrote
    write_signed_text(tmp_path, Path("transcript.jsonl"), "\n".join(lines) + "\n")
    (tmp_path / "agent_output.json").write_text(json.dumps(RIGHT))
    scenario = truth_scenario("1", parse_ground_truth(TRUTH, "t"), "t")
    result = evaluate_diagnosis(scenario, tmp_path)
    # the answer is scored as ever
    assert result.scores["root_cause_entity"]["calculation_recall"] == 1.0
    assert "mttd_s" not in result.scores
    assert result.details["mttd_note"].startswith(f"{tmp_path / 'transcript.jsonl'}: {named}")


def _large_right() -> dict:
    """A right diagnosis over the size the watch records as text: it keeps its digest only."""
    note = "checked the flag service's config map and the cart's errors; " * 5000
    return {**RIGHT, "notes": note}


def test_a_large_right_answer_is_timed_by_its_digest(tmp_path):
    final = _large_right()
    text = json.dumps(final)
    assert len(text) > 256 * 1024
    wrong = {"ts": 1003.0, "event": "answer_seen", "path": "agent_output.json"}
    right = dict(wrong, ts=1009.5)
    wrong["sha256"] = hashlib.sha256(json.dumps(WRONG).encode()).hexdigest()
    right["sha256"] = hashlib.sha256(text.encode()).hexdigest()
    events = [{"ts": 1000.0, "event": "trial_start"}, wrong, right]
    e = _trial(tmp_path, [*events, {"ts": 1020.0, "event": "agent_end"}], final, 1001.0)
    assert e["scores"]["mttd_s"] == 9.5
    assert e["details"]["mttd_source"] == "runner watch"


def test_a_digest_of_another_version_does_not_time_the_answer(tmp_path):
    final = _large_right()
    seen = {"ts": 1004.0, "event": "answer_seen", "path": "agent_output.json"}
    seen["sha256"] = hashlib.sha256(json.dumps({**final, "notes": "draft"}).encode()).hexdigest()
    events = [{"ts": 1000.0, "event": "trial_start"}, seen, {"ts": 1020.0, "event": "agent_end"}]
    e = _trial(tmp_path, events, final, 1001.0)
    assert e["scores"]["mttd_s"] == 20.0  # no record of the final version: the agent's end
    assert e["details"]["mttd_source"] == "agent end"


def test_a_right_guess_withdrawn_for_a_wrong_one_times_nothing(tmp_path):
    # one suspect after another (each at precision 1): the right one shown at 1002 and replaced
    # is a guess; the diagnosis held to the end is the one shown at 1012
    events = [
        {"ts": 1000.0, "event": "trial_start"},
        _seen(1001.0, WRONG),
        _seen(1002.0, RIGHT),
        _seen(1003.0, WRONG),
        _seen(1012.0, RIGHT),
        {"ts": 1015.0, "event": "agent_end"},
    ]
    e = _trial(tmp_path, events, RIGHT, 1012.0)
    assert e["scores"]["mttd_s"] == 12.0
    assert e["details"]["mttd_source"] == "runner watch"
