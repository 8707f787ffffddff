"""MTTD of a diagnosis trial: the first diagnosis naming the root cause, from the transcript's
timestamps or the answer file's write time; absent when never found."""

from __future__ import annotations

import json
import os
from pathlib import Path

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
    (tmp_path / "transcript.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
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


def test_an_agent_writing_once_counts_at_the_files_write_time(tmp_path):
    events = [{"ts": 1000.0, "event": "trial_start"}, {"ts": 1020.0, "event": "agent_end"}]
    e = _trial(tmp_path, events, RIGHT, 1012.25)
    assert e["scores"]["mttd_s"] == 12.25
    assert e["details"]["mttd_source"] == "agent_output.json write time"
    # a write time the agent set after its own end is clamped to the end
    assert _trial(tmp_path, events, RIGHT, 5000.0)["scores"]["mttd_s"] == 20.0


def test_never_right_has_no_mttd(tmp_path):
    events = [
        {"ts": 1000.0, "event": "trial_start"},
        _write_call(1010.0, WRONG),
        {"ts": 1020.0, "event": "agent_end"},
    ]
    e = _trial(tmp_path, events, WRONG, 1011.0)
    assert "mttd_s" not in e["scores"]
    assert e["scores"]["root_cause_entity"]["calculation_recall"] == 0.0
