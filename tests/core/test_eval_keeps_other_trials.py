"""One trial's unforeseen input never costs the others their scores (``<domain> eval``).

Each case hides what a reader once let through to an exception no caller caught, so the whole
eval ended with exit 3, no results file and every trial lost: brackets nested 100,000 deep inside
a JSON *string* (the depth check skips string text; the lenient readers then unwrap it), a
transcript time of 400 digits (float() overflows), and an evaluator of a third-party domain that
raises something other than an itbench error. Now the readers refuse such input naming the file,
and the eval loop turns anything else one trial raises into that trial's error. A transcript no
runner wrote as it is costs its trial the MTTD only, with a note naming the file, line and field."""

from __future__ import annotations

import json
from pathlib import Path

from itbench.records import write_signed_text
from tests._support.cli import finops_outputs_to_evaluate, run_cli
from tests._support.sre import INFRA_OUTPUT, TRUTH

DEEP = 100_000


def _deep_in_a_string() -> str:
    """A JSON string whose content is ``[[[…]]]`` 100,000 deep: no bracket outside a string."""
    return json.dumps("[" * DEEP + "]" * DEEP)


def _finops_eval(scenarios: Path, out: Path) -> dict[str, dict]:
    args = ["finops", "eval", "--outputs", str(out), "--ground-truth", str(scenarios)]
    proc = run_cli([*args, "--format", "json"])
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "unexpected" not in proc.stderr
    return {r["incident_id"]: r for r in json.loads(proc.stdout)["raw_results"]}


def test_finops_deep_brackets_inside_a_json_string(tmp_path: Path) -> None:
    scenarios, out = finops_outputs_to_evaluate(tmp_path, seed=11)
    bad = out / "Scenario-2" / "1" / "agent_output.json"
    bad.write_text(_deep_in_a_string())
    by_id = _finops_eval(scenarios, out)
    assert (
        f"{bad} (the JSON string it holds): JSON nested {DEEP} levels deep"
        in (by_id["Scenario-2"]["error"])
    )
    assert by_id["Scenario-2"]["scores"] == {}
    for kept in ("Scenario-1", "Scenario-3"):
        assert by_id[kept].get("error") is None, by_id[kept]
        assert "root_cause_resource" in by_id[kept]["scores"]


def test_finops_deep_brackets_in_a_fenced_block_inside_a_string(tmp_path: Path) -> None:
    scenarios, out = finops_outputs_to_evaluate(tmp_path, seed=11)
    bad = out / "Scenario-3" / "1" / "agent_output.json"
    bad.write_text(json.dumps("here it is ```json\n" + "[" * DEEP + "]" * DEEP + "\n```"))
    by_id = _finops_eval(scenarios, out)
    assert f"JSON nested {DEEP} levels deep" in by_id["Scenario-3"]["error"]
    for kept in ("Scenario-1", "Scenario-2"):
        assert by_id[kept].get("error") is None, by_id[kept]


def _sre_eval(tmp_path: Path, bad_trial: dict[str, str]) -> tuple[dict, dict, Path]:
    """Trial 1 a good infrastructure answer, trial 2 the files of ``bad_trial``."""
    outputs = tmp_path / "outputs"
    good = outputs / "7" / "1" / "outputs"
    good.mkdir(parents=True)
    (good / "agent_output.json").write_text(json.dumps(INFRA_OUTPUT))
    bad = outputs / "7" / "2"  # the answer beside the transcript, as a run leaves them
    bad.mkdir(parents=True)
    for name, text in bad_trial.items():
        if name == "transcript.jsonl":  # signed, as the runner lays it (else it is not read)
            write_signed_text(bad, Path(name), text)
        else:
            (bad / name).write_text(text)
    truth = tmp_path / "gt.json"
    truth.write_text(json.dumps([TRUTH]))
    args = ["sre", "eval", "--outputs", str(outputs), "--ground-truth", str(truth)]
    proc = run_cli([*args, "--format", "json"])
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "unexpected" not in proc.stderr
    first, second = json.loads(proc.stdout)["raw_results"]
    return first, second, bad


def test_sre_deep_brackets_inside_a_json_string(tmp_path: Path) -> None:
    good, bad, folder = _sre_eval(tmp_path, {"agent_output.json": _deep_in_a_string()})
    assert good.get("error") is None and "root_cause_entity" in good["scores"]
    where = folder / "agent_output.json"
    assert f"{where} (the JSON string it holds): JSON nested {DEEP} levels deep" in bad["error"]
    assert bad["scores"] == {}


def test_sre_transcript_time_of_400_digits(tmp_path: Path) -> None:
    events = [
        '{"ts": 100.0, "event": "trial_start"}',
        '{"ts": 1' + "0" * 400 + ', "event": "llm_response", "tool_calls": [{"name": '
        '"write_file", "arguments": {"path": "agent_output.json", "content": "{}"}}]}',
    ]
    files = {
        "agent_output.json": json.dumps(INFRA_OUTPUT),
        "transcript.jsonl": "\n".join(events) + "\n",
    }
    good, bad, _ = _sre_eval(tmp_path, files)
    assert good.get("error") is None and "root_cause_entity" in good["scores"]
    # a forged time costs the trial its MTTD only (tests/sre/test_sre_mttd.py: the note)
    assert bad.get("error") is None, bad
    assert bad["scores"]["root_cause_entity"] == good["scores"]["root_cause_entity"]
    assert "mttd_s" not in bad["scores"]


def test_sre_transcript_start_time_that_is_text(tmp_path: Path) -> None:
    files = {
        "agent_output.json": json.dumps(INFRA_OUTPUT),
        "transcript.jsonl": '{"ts": 5.0, "event": "trial_start"}\n'
        '{"ts": 6.0, "event": "llm_response", "tool_calls": [{"name": "write_file", '
        '"arguments": {"path": "agent_output.json", "content": "{}"}}]}\n'
        '{"ts": "soon", "event": "agent_end"}\n',
    }
    good, bad, _ = _sre_eval(tmp_path, files)
    assert good.get("error") is None
    assert bad.get("error") is None, bad
    assert bad["scores"]["root_cause_entity"] == good["scores"]["root_cause_entity"]
    assert "mttd_s" not in bad["scores"]


def test_sre_transcript_line_that_is_no_object_leaves_mttd_unmeasured(tmp_path: Path) -> None:
    files = {
        "agent_output.json": json.dumps(INFRA_OUTPUT),
        "transcript.jsonl": '{"ts": 5.0, "event": "trial_start"}\n[1, 2]\n',
    }
    good, spoiled, _ = _sre_eval(tmp_path, files)
    # the answer still scores as the good trial's does; only its time cannot be measured
    assert spoiled.get("error") is None, spoiled
    assert spoiled["scores"]["root_cause_entity"] == good["scores"]["root_cause_entity"]
    assert "mttd_s" not in spoiled["scores"]


def test_third_party_evaluator_raising_keeps_the_other_trials(
    tmp_path: Path, toy_env: dict[str, str]
) -> None:
    outputs = tmp_path / "outputs"
    answers = {"add-1": '{"sum": 11}', "add-2": "[22]", "add-3": '{"sum": 33}'}
    for scenario, text in answers.items():
        folder = outputs / scenario / "1"
        folder.mkdir(parents=True)
        (folder / "answer.json").write_text(text)
    proc = run_cli(["toy", "eval", "--outputs", str(outputs), "--format", "json"], env=toy_env)
    # the toy evaluator calls .get on the answer: a list raises AttributeError, no itbench error
    assert proc.returncode == 0, proc.stderr
    assert "1 of 3 trial(s) failed" in proc.stderr
    by_id = {r["incident_id"]: r for r in json.loads(proc.stdout)["raw_results"]}
    assert by_id["add-2"]["error"].startswith("evaluation failed: AttributeError:")
    assert by_id["add-2"]["scores"] == {}
    assert by_id["add-1"]["scores"] == {"correct": 1.0}
    assert by_id["add-3"]["scores"] == {"correct": 1.0}
    written = json.loads((outputs / "eval-results.json").read_text())
    assert len(written["raw_results"]) == 3
