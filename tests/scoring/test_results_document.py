"""ResultsDocument: typed reading, building, and writing back exactly what was read."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from itbench.errors import InputError
from itbench.models import Evaluation, Scenario
from itbench.runner.run import results_config, write_results
from itbench.scoring.document import ResultsDocument, RunConfig
from itbench.scoring.results import load_results_file
from tests._support.cli import SHARED, run_cli

SRE = SHARED / "corpora" / "itbench" / "sre"
SAMPLES = [
    SRE / "evaluations_sample" / "evaluation_results.json",
    SRE / "agentbeats_results" / "itbench-hub-20260130-221517.json",
    SRE / "agentbeats_results" / "itbench-hub-20260131-162603.json",
]


def _documents(data: dict) -> list[dict]:
    if "raw_results" in data:
        return [data]
    return [r["evaluation_results"] for r in data["results"] if "evaluation_results" in r]


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_itbench_files_are_written_back_with_their_keys_in_their_order(sample: Path):
    if not sample.exists():
        pytest.skip(f"../shared is absent: {sample} not found")
    original = orjson.loads(sample.read_bytes())
    loaded = load_results_file(sample)
    written = orjson.loads(orjson.dumps(loaded.to_jsonable()))
    for before, document, after in zip(
        _documents(original), loaded.documents, _documents(written), strict=True
    ):
        assert list(after) == list(before)
        assert list(after["config"]) == list(before["config"])
        assert after["config"] == before["config"]
        # raw entries keep ITBench's own key order (scenario_index, scores, incident_id, trial_id)
        assert [list(e) for e in after["raw_results"]] == [list(e) for e in before["raw_results"]]
        assert after["raw_results"] == before["raw_results"]
        # typed access reads the same numbers the file serialises
        overall = after["statistics"]["overall"]
        assert document.statistics.overall.total_bad_runs == overall["total_bad_runs"]
        for metric, entry in document.statistics.overall.metrics.items():
            assert entry.mean == overall[metric]["mean"]
            assert entry.pass_at_1 == overall[metric].get("pass@1")
        assert document.config.model_extra["k"] == before["config"]["k"]


def test_a_read_document_keeps_unusual_key_order_extras_and_adds_nothing(tmp_path):
    data = {
        "config": {"trials": 2, "k": 3, "domain": "toy"},
        "note": {"kept": True},
        "raw_results": [
            {"trial_id": "1", "scores": {"m": 1}, "incident_id": "a", "extra": 7},
            {"error": "timeout", "incident_id": "a", "trial_id": "2"},
        ],
    }
    path = tmp_path / "r.json"
    path.write_bytes(orjson.dumps(data))
    (document,) = load_results_file(path).documents
    out = document.to_jsonable()
    # statistics had no place in the file: it goes last, as it always did
    assert list(out) == ["config", "note", "raw_results", "statistics"]
    assert list(out["config"]) == ["trials", "k", "domain"]
    assert out["note"] == {"kept": True} and document.model_extra == {"note": {"kept": True}}
    assert [list(e) for e in out["raw_results"]] == [
        ["trial_id", "scores", "incident_id", "extra"],
        ["error", "incident_id", "trial_id"],
    ]
    assert document.config.trials == 2 and document.config.domain == "toy"
    assert document.config.agent is None and "agent" not in out["config"]
    assert out["statistics"]["overall"]["total_bad_runs"] == 1


def test_a_file_without_config_is_written_without_one(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"raw_results": [{"incident_id": "1", "scores": {"m": 0.5}}]}))
    (document,) = load_results_file(path).documents
    assert "config" not in document.to_jsonable()
    assert document.config == RunConfig()


@pytest.mark.parametrize(
    ("config", "needle"),
    [
        ({"trials": "3"}, "config.trials"),
        ({"scenario_classes": {"a": 1}}, "config.scenario_classes.a"),
        ({"primary_metric": ["m"]}, "config.primary_metric"),
        ([1, 2], "config is not an object"),
    ],
    ids=["trials-string", "class-number", "metric-list", "config-list"],
)
def test_a_mistyped_config_is_an_error_naming_file_and_field(tmp_path, config, needle):
    path = tmp_path / "typed.json"
    path.write_text(json.dumps({"raw_results": [], "config": config}))
    with pytest.raises(InputError) as info:
        load_results_file(path)
    assert str(path) in str(info.value) and needle in str(info.value)
    proc = run_cli(["stats", str(path)])
    assert proc.returncode == 3 and needle in proc.stderr and "Traceback" not in proc.stderr


def test_an_agentbeats_error_names_the_wrapped_document(tmp_path):
    path = tmp_path / "wrapped.json"
    bad = {"raw_results": [{"incident_id": "1"}], "config": {}}
    path.write_text(json.dumps({"results": [{"evaluation_results": bad}]}))
    with pytest.raises(InputError, match=r"results\[0\]\.evaluation_results\.raw_results\[0\]"):
        load_results_file(path)


def _scenario(sid: str, cls: str) -> Scenario:
    return Scenario(id=sid, domain="toy", scenario_class=cls, title=sid)


def test_the_runner_builds_one_typed_document_and_writes_it_once(tmp_path):
    evaluations = [
        Evaluation(scenario_id="s1", trial_id="1", scores={"m": 1.0}),
        Evaluation(scenario_id="s1", trial_id="2", scores={"m": 0.0}),
        Evaluation(scenario_id="s2", trial_id="1", error="timeout"),
    ]
    config = results_config(
        "toy", "baseline", None, 2, [_scenario("s1", "easy"), _scenario("s2", "hard")], "m", {}
    )
    path = tmp_path / "results.json"
    document = write_results(evaluations, config, path)
    assert path.read_bytes() == document.to_json_bytes()
    assert [e["incident_id"] for e in document.raw_results] == ["s1", "s1", "s2"]
    # an errored trial carries empty scores beside its error, so scripts iterating scores work
    assert document.raw_results[2] == {
        "incident_id": "s2",
        "trial_id": "1",
        "scores": {},
        "error": "timeout",
    }
    assert document.statistics.per_incident["s1"]["m"].mean == 0.5
    assert document.statistics.per_incident["s1"]["m"].n == 2
    assert "s2" in document.statistics.per_incident  # seen, though it has no scores
    assert document.statistics.per_incident["s2"] == {}
    assert document.statistics.overall.total_bad_runs == 1
    assert document.statistics.mean("m") == 0.5
    # the bad run of s2 scored 0: (mean of s1 = 0.5, s2 = 0) / 2 incidents
    assert document.statistics.overall.metrics["m"].mean_with_failures_as_zero == 0.25
    assert document.statistics.mean("absent") is None and document.statistics.mean(None) is None
    assert document.config.scenario_classes == {"s1": "easy", "s2": "hard"}
    written = orjson.loads(path.read_bytes())
    assert list(written) == ["raw_results", "statistics", "config"]
    assert list(written["config"]) == [
        "domain",
        "agent",
        "model",
        "trials",
        "primary_metric",
        "scenario_classes",
    ]
    # reading the written file gives the same document back
    assert load_results_file(path).documents[0].to_json_bytes() == path.read_bytes()


def test_a_domain_results_config_comes_last_and_wins():
    config = results_config(
        "toy", "baseline", "m1", 1, [], "m", {"k": 3, "primary_metric": "other"}
    )
    document = ResultsDocument.build([], config)
    out = document.to_jsonable()["config"]
    assert list(out) == [
        "domain",
        "agent",
        "model",
        "trials",
        "primary_metric",
        "scenario_classes",
        "k",
    ]
    assert out["primary_metric"] == "other" and document.config.model_extra == {"k": 3}


def test_extra_pass_at_1_metrics_from_config_are_reported():
    raw = [
        {"incident_id": "a", "trial_id": "1", "scores": {"ok": 1}},
        {"incident_id": "a", "trial_id": "2", "scores": {"ok": 0}},
    ]
    with_pass = ResultsDocument.build(raw, {"pass_at_1_metrics": ["ok"]})
    without = ResultsDocument.build(raw, {})
    assert with_pass.statistics.per_incident["a"]["ok"].pass_at_1 == 0.5
    assert with_pass.statistics.overall.metrics["ok"].pass_at_1 == 0.5
    assert without.statistics.per_incident["a"]["ok"].pass_at_1 is None
    assert "pass@1" not in without.to_jsonable()["statistics"]["overall"]["ok"]
    assert with_pass.to_jsonable()["config"]["pass_at_1_metrics"] == ("ok",)
