"""The judge on the real corpus: agreement with the original LLM judge, every ground truth loads,
``itbench sre eval`` on the sample writes a document ``itbench stats`` accepts, ``--judge``."""

from __future__ import annotations

import json
import shutil

import pytest

from sre.groundtruth import load_truths
from sre.judge.agreement import compare, load_results
from sre.judge.matching import Matcher
from tests._support.cli import SHARED, run_cli
from tests._support.fake_openai import ScriptedServer, Step, chat_reply

CORPUS = SHARED / "corpora" / "itbench" / "sre"
SAMPLE = CORPUS / "evaluations_sample"
pytestmark = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f"the shared SRE corpus is not at {CORPUS}"
)


def test_every_ground_truth_in_the_corpus_loads():
    flat = load_truths(SAMPLE / "data" / "ground_truths.json")
    assert len(flat) == 44
    repo = load_truths(CORPUS / "itbench_repo_gt")
    v1 = sorted(CORPUS.glob("itbench_repo_gt/*/groundtruth_v1.yaml"))
    assert len(v1) == 61
    # each folder with a v1 file is read from it (v1 has groups, aliases and propagations)
    for path in v1:
        loaded = repo[path.parent.name.removeprefix("scenario_")]
        assert loaded.source == str(path)
        assert loaded.truth.root_causes, path
        Matcher(loaded.truth, loaded.source)  # every filter regex compiles
    wrapped = [p for p in v1 if p.read_text().lstrip("-\n ").startswith("apiVersion")]
    assert 0 < len(wrapped) < len(v1)  # both forms are present and both loaded
    assert len(repo) == len(list(CORPUS.glob("itbench_repo_gt/*/")))  # v2-only folders too


def test_agreement_with_the_original_judge():
    report = compare(
        load_results(SAMPLE / "evaluation_results.json"),
        load_truths(SAMPLE / "data" / "ground_truths.json"),
        "evaluation_results.json",
    )
    assert report.verdicts == 16
    assert report.agreed == 15
    [d] = report.disagreements
    assert (d.incident_id, d.trial_id, d.entity) == (
        "1",
        "3",
        "otel-demo/Deployment/load-generator",
    )
    assert (d.judge, d.ours, d.reason) == (True, False, "kind")
    by_trial = {(t.incident_id, t.trial_id): t for t in report.trials}
    # every trial whose verdicts all agree has exactly the judge's entity scores (incl. k@1..5)
    for key, trial in by_trial.items():
        assert trial.scores_equal == (trial.agreed == trial.verdicts), key
    # incident 2 agrees everywhere: its statistics are reproduced from our scores
    assert {i for i, _ in report.reproduced} == {"2"}
    assert len(report.reproduced) == 6
    for (incident, stat), (ours, theirs) in report.reproduced.items():
        assert ours == pytest.approx(theirs, abs=1e-12), (incident, stat)


def test_sre_eval_on_the_sample_writes_a_document_stats_accepts(tmp_path):
    outputs = tmp_path / "outputs"
    shutil.copytree(SAMPLE / "data", outputs)
    (outputs / "2" / "2" / "outputs" / "agent_output.json").write_text("not json at all")
    result = tmp_path / "results.json"
    proc = run_cli(
        [
            "sre",
            "eval",
            "--outputs",
            str(outputs),
            "--ground-truth",
            str(SAMPLE / "data" / "ground_truths.json"),
            "--result-file",
            str(result),
            "--format",
            "json",
        ]
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(result.read_text())
    by = {(r["incident_id"], r["trial_id"]): r for r in doc["raw_results"]}
    assert "cannot be repaired" in by[("2", "2")]["error"]  # a bad run, not a crash
    entity = by[("2", "1")]["scores"]["root_cause_entity"]
    flagd = [p for p in entity["predicted_entities"] if p["entity"] == "flagd-config ConfigMap"]
    assert flagd == [
        {
            "entity": "flagd-config ConfigMap",
            "matches_gt": True,
            "matched_to": "flagd-config",
            "matched_group": "flagd-config",
            "match": "name",
        }
    ]
    assert entity["calculation_recall"] == 1.0
    assert by[("1", "1")]["scores"]["root_cause_entity"]["calculation_recall"] == 0.0
    assert doc["config"]["primary_metric"] == "root_cause_entity"
    stats = run_cli(["stats", str(result)])
    assert stats.returncode == 0, stats.stderr
    overall = json.loads(stats.stdout)["statistics"]["overall"]
    assert overall["root_cause_entity_recall"]["n_incidents"] == 2
    assert "root_cause_reasoning" not in overall  # LLM-only metric absent without --judge


def test_eval_usage_errors(tmp_path):
    proc = run_cli(["sre", "eval", "--outputs", str(tmp_path)])
    assert proc.returncode == 2 and "no trial folders found" in proc.stderr
    (tmp_path / "7" / "1").mkdir(parents=True)  # a trial, but no ground truth named for it
    proc = run_cli(["sre", "eval", "--outputs", str(tmp_path)])
    assert proc.returncode == 2 and "--ground-truth" in proc.stderr
    proc = run_cli(["sre", "eval", "--outputs", str(tmp_path), "--ground-truth", str(tmp_path)])
    assert proc.returncode == 2 and "no ground truth found" in proc.stderr


def test_llm_judge_scores_reasoning_through_a_scripted_server(tmp_path):
    outputs = tmp_path / "outputs"
    shutil.copytree(SAMPLE / "data" / "2", outputs / "2")
    gt = tmp_path / "gt.json"
    gt.write_text(
        json.dumps(
            [
                g
                for g in json.loads((SAMPLE / "data" / "ground_truths.json").read_text())
                if g["id"] == "2"
            ]
        )
    )
    # a strict reply grades each entity on the fault's path, by the ids the prompt gives them:
    # trial 1 has three such entities, trial 2 one
    answer, answer_2 = (
        json.dumps({"root_cause_reasoning": 0.5, "symptoms": dict.fromkeys(ids, 0),
                    "justification": "partly"})
        for ids in (("E1", "E2", "E3"), ("E1",))
    )  # fmt: skip
    steps = [Step(chat_reply(answer)), Step(chat_reply("```json\n" + answer_2 + "\n```"))]
    env = {**__import__("os").environ, "OPENAI_API_KEY": "test-key"}
    with ScriptedServer(steps) as server:
        proc = run_cli(
            [
                "sre",
                "eval",
                "--outputs",
                str(outputs),
                "--ground-truth",
                str(gt),
                "--judge",
                "openai/scripted",
                "--judge-api-base",
                server.api_base,
                "--format",
                "json",
            ],
            env=env,
        )
        requests = list(server.requests)
    assert proc.returncode == 0, proc.stderr
    assert len(requests) == 2  # one call per trial
    prompt = json.loads(requests[0]["messages"][1]["content"])
    # the agent's words reach the judge fenced by the request's own marker
    entity = prompt["credited_root_causes"][0]["entity"]
    assert entity.startswith("<<agent-text ") and entity.endswith(">>")
    assert "flagd-config ConfigMap" in entity
    doc = json.loads(proc.stdout)
    for r in doc["raw_results"]:
        assert r["scores"]["root_cause_reasoning"]["calculation"] == 0.5
        assert r["scores"]["root_cause_reasoning_partial"]["calculation"] == 0.5


def test_judge_cost_is_kept_apart_from_the_agents_and_shown_by_the_leaderboard(tmp_path):
    outputs = tmp_path / "outputs"
    shutil.copytree(SAMPLE / "data" / "2", outputs / "2")
    gt = tmp_path / "gt.json"
    truths = json.loads((SAMPLE / "data" / "ground_truths.json").read_text())
    gt.write_text(json.dumps([g for g in truths if g["id"] == "2"]))
    # a strict reply grades each entity on the fault's path, by the ids the prompt gives them:
    # trial 1 has three such entities, trial 2 one
    answer, answer_2 = (
        json.dumps({"root_cause_reasoning": 0.5, "symptoms": dict.fromkeys(ids, 0),
                    "justification": "partly"})
        for ids in (("E1", "E2", "E3"), ("E1",))
    )  # fmt: skip
    steps = [Step(chat_reply(answer)), Step(chat_reply(answer_2))]
    env = {**__import__("os").environ, "OPENAI_API_KEY": "test-key"}
    with ScriptedServer(steps) as server:
        args = ["sre", "eval", "--outputs", str(outputs), "--ground-truth", str(gt)]
        args += ["--judge", "openai/scripted", "--judge-api-base", server.api_base]
        # the leaderboard reads a run folder's results.json: eval writes there only when asked
        args += ["--result-file", str(outputs / "results.json")]
        proc = run_cli(args, env=env)
    assert proc.returncode == 0, proc.stderr
    raw = json.loads((outputs / "results.json").read_text())["raw_results"]
    assert len(raw) == 2
    for entry in raw:
        # one judge call per trial, the fake server's token counts; the agent spent nothing here
        assert entry["judge_usage"]["prompt_tokens"] == 100
        assert entry["judge_usage"]["completion_tokens"] == 20
        assert entry["judge_usage"]["llm_calls"] == 1
        assert "usage" not in entry
    proc = run_cli(["leaderboard", str(outputs), "--format", "json"])
    assert proc.returncode == 0, proc.stderr
    row = json.loads(proc.stdout)["domains"]["sre"]["leaderboard"][0]
    assert row["judge_reported"] is True and row["usage_reported"] is False
    assert row["cost_usd_per_task"] == 0.0
    table = run_cli(["leaderboard", str(outputs)]).stdout
    assert "0 (no LLM)" in table and "judge $/task" in table
