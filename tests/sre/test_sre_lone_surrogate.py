"""An answer whose entity name holds a lone surrogate (the JSON escape ``"\\udc80"`` read on its
own) has no UTF-8 form: `sre run` lost that trial ("UnicodeEncodeError" writing its transcript)
and `sre eval` of the run wrote nothing at all (exit 3, "str is not valid UTF-8"). Both now keep
every trial: such text is written as U+FFFD, the bad trial scored as the name it gave."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from itbench.jsonsafe import writable_text
from itbench.transcript import Transcript, read_transcript
from sre.generator.snapshot import generate_incidents
from tests._support.cli import run_cli

SEED = 523


def _run(suite: Path, out: Path, *agent: str) -> dict:
    args = ["sre", "run", "--scenarios", str(suite), "--output", str(out), "--no-progress"]
    proc = run_cli([*args, *agent, "--format", "json"], timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_run_and_eval_keep_the_trial_beside_one_with_a_lone_surrogate(tmp_path: Path) -> None:
    suite = tmp_path / "incidents"
    generate_incidents(suite, SEED, 1)
    _run(suite, tmp_path / "oracle", "--agent", "oracle")
    (oracle,) = (tmp_path / "oracle").glob("*/1/agent_output.json")
    answer = json.loads(oracle.read_text())
    right = answer["entities"][0]["name"]
    good = json.dumps(answer)
    # the agent writes the escape itself: six characters in the file, one code point once read
    spoiled = good.replace(json.dumps(right), json.dumps(right)[:-1] + '\\udc80"', 1)
    assert spoiled != good
    agent = (
        f'case "$ITBENCH_WORKSPACE" in */2) printf %s {shlex.quote(spoiled)} > agent_output.json;; '
        f"*) printf %s {shlex.quote(good)} > agent_output.json;; esac"
    )
    run = tmp_path / "run"
    document = _run(suite, run, "--agent-cmd", agent, "--trials", "2")
    by_trial = {r["trial_id"]: r for r in document["raw_results"]}
    assert by_trial["1"].get("error") is None, by_trial["1"]
    assert by_trial["1"]["scores"]["root_cause_entity"]["calculation_f1"] == 1.0
    assert by_trial["2"].get("error") is None, by_trial["2"]
    predicted = by_trial["2"]["scores"]["root_cause_entity"]["predicted_entities"]
    assert [p["entity"] for p in predicted][0] == right + "\ufffd"

    proc = run_cli(["sre", "eval", "--outputs", str(run), "--ground-truth", str(suite)])
    assert proc.returncode == 0, proc.stderr
    written = json.loads((run / "eval-results.json").read_text(encoding="utf-8"))
    by_trial = {r["trial_id"]: r for r in written["raw_results"]}
    assert by_trial["1"]["scores"]["root_cause_entity"]["calculation_f1"] == 1.0
    assert by_trial["2"]["scores"]["root_cause_entity"]["calculation_f1"] == 0.0
    predicted = by_trial["2"]["scores"]["root_cause_entity"]["predicted_entities"]
    assert predicted[0]["entity"] == right + "\ufffd"


def test_the_transcript_records_a_lone_surrogate_as_u_fffd(tmp_path: Path) -> None:
    transcript = Transcript(tmp_path / "transcript.jsonl")
    transcript.record("answer_seen", content='{"name": "cart\udc80"}', keys={"k\ud800": 1})
    (event,) = read_transcript(tmp_path / "transcript.jsonl")
    assert event["content"] == '{"name": "cart\ufffd"}'
    assert event["keys"] == {"k\ufffd": 1}
    assert writable_text("plain ascii and ünïcode") == "plain ascii and ünïcode"
