"""`itbench stats` on hand-made documents, and its handling of bad input."""

from __future__ import annotations

import json
import math

from tests._support.cli import run_cli


def _doc(raw):
    return {"raw_results": raw, "statistics": {}, "config": {"k": 3}}


def test_statistics_by_hand(tmp_path):
    raw = [
        {
            "incident_id": "1",
            "trial_id": "1",
            "scores": {
                "root_cause_resource": {
                    "calculation": 1,
                    "calculation_precision": 1.0,
                    "calculation_recall": 1.0,
                    "calculation_f1": 1.0,
                }
            },
        },
        {
            "incident_id": "1",
            "trial_id": "2",
            "scores": {
                "root_cause_resource": {
                    "calculation": 0,
                    "calculation_precision": 0.5,
                    "calculation_recall": 1.0,
                    "calculation_f1": 2 / 3,
                }
            },
        },
        {
            "incident_id": "2",
            "trial_id": "1",
            "scores": {
                "root_cause_resource": {
                    "calculation": 0,
                    "calculation_precision": 0.0,
                    "calculation_recall": 0.0,
                    "calculation_f1": 0.0,
                }
            },
        },
        {"incident_id": "2", "trial_id": "2", "error": "timeout"},
    ]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(_doc(raw)))
    proc = run_cli(["stats", str(path)])
    assert proc.returncode == 0, proc.stderr
    stats = json.loads(proc.stdout)["statistics"]
    inc1 = stats["per_incident"]["1"]
    # incident 1: scores 1 and 0 -> mean .5, population std .5, stderr .5/sqrt(2)
    assert inc1["root_cause_resource"] == {
        "mean": 0.5,
        "stderr": 0.5 / math.sqrt(2),
        "n": 2,
        "pass@1": 0.5,
    }
    assert inc1["root_cause_resource_precision"]["mean"] == 0.75
    assert "pass@1" not in inc1["root_cause_resource_precision"]
    # incident 2: the errored trial counts in no mean
    assert stats["per_incident"]["2"]["root_cause_resource"]["n"] == 1
    overall = stats["overall"]
    # macro mean of .5 and 0 = .25; sample std of (.5, 0) = .3536; / sqrt(2) = .25
    assert overall["root_cause_resource"]["mean"] == 0.25
    assert abs(overall["root_cause_resource"]["stderr"] - 0.25) < 1e-12
    assert overall["root_cause_resource"]["n_incidents"] == 2
    assert overall["root_cause_resource"]["pass@1"] == 0.25
    assert overall["total_bad_runs"] == 1


def test_one_incident_has_null_overall_stderr_and_at_k_entries_stay_raw(tmp_path):
    raw = [
        {
            "incident_id": "7",
            "trial_id": "1",
            "scores": {
                "root_cause_entity_k": {
                    "calculation_precision": 1.0,
                    "calculation_recall": 0.5,
                    "calculation_f1": 2 / 3,
                },
                "root_cause_entity_k@1": {"calculation_precision": 1.0},
                "propagation_chain": {"calculation": None, "justification": "judge failed"},
            },
        }
    ]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(_doc(raw)))
    stats = json.loads(run_cli(["stats", str(path)]).stdout)["statistics"]
    assert set(stats["per_incident"]["7"]) == {
        "root_cause_entity_k_precision",
        "root_cause_entity_k_recall",
        "root_cause_entity_k_f1",
    }
    assert stats["overall"]["root_cause_entity_k_recall"]["stderr"] is None


def test_malformed_inputs_exit_3_naming_the_file_and_leave_it_untouched(tmp_path):
    cases = {
        "broken.json": '{"raw_results": [',
        "notdoc.json": '{"hello": 1}',
        "badentry.json": json.dumps({"raw_results": [{"trial_id": "1", "scores": {}}]}),
        "badscore.json": json.dumps(
            {"raw_results": [{"incident_id": "1", "trial_id": "1", "scores": {"m": "high"}}]}
        ),
    }
    expectations = {
        "broken.json": "not valid JSON",
        "notdoc.json": "not a results document",
        "badentry.json": "raw_results[0].incident_id is missing",
        "badscore.json": "raw_results[0].scores.m",
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text)
        proc = run_cli(["stats", str(path)])
        assert proc.returncode == 3, name
        assert name in proc.stderr and expectations[name] in proc.stderr, (name, proc.stderr)
        assert "Traceback" not in proc.stderr
        assert proc.stdout == ""
        assert path.read_text() == text
    # a path that does not exist is a usage error (docs/cli-contract.md)
    proc = run_cli(["stats", str(tmp_path / "missing.json")])
    assert proc.returncode == 2 and "missing.json" in proc.stderr
