"""Evaluator, answer-file reading, and the finops CLI end to end."""

from __future__ import annotations

import json

import pytest

from finops.evaluate import score_root_cause_resource
from finops.model import Resource
from finops.output import read_agent_output
from itbench.errors import InputError
from tests._support.cli import finops_outputs_to_evaluate, run_cli

GT = [Resource("m5.large", "Instance_Family"), Resource("checkout", "Application")]


def test_score_requires_every_truth_and_penalises_extras():
    assert score_root_cause_resource(GT, GT) == {
        "calculation": 1.0,
        "calculation_precision": 1.0,
        "calculation_recall": 1.0,
        "calculation_f1": 1.0,
    }
    partial = score_root_cause_resource(GT[:1], GT)
    assert partial["calculation"] == 0.0 and partial["calculation_recall"] == 0.5
    noisy = score_root_cause_resource([*GT, Resource("x", "CSP"), Resource("y", "CSP")], GT)
    assert noisy["calculation"] == 1.0 and noisy["calculation_precision"] == 0.5
    folded = score_root_cause_resource(
        [Resource(" M5.Large ", "instance family"), Resource("checkout", "application")], GT
    )
    assert folded["calculation"] == 1.0
    wrong_type = score_root_cause_resource([Resource("m5.large", "Application")], GT[:1])
    assert wrong_type["calculation"] == 0.0


@pytest.mark.parametrize(
    "text",
    [
        '{"resource": [{"name": "m5.large", "type": "Instance_Family"}]}',
        json.dumps('```json\n{"resource": [{"name": "m5.large", "type": "Instance_Family"}]}\n```'),
        'Here you go:\n```json\n{"resource": [{"name": "m5.large", "type": "Instance_Family"},]}\n```',
    ],
    ids=["plain", "json-string-with-fence", "text-and-trailing-comma"],
)
def test_answers_are_read_leniently(tmp_path, text):
    path = tmp_path / "agent_output.json"
    path.write_text(text)
    assert read_agent_output(path) == (Resource("m5.large", "Instance_Family"),)


def test_unrecoverable_answers_are_input_errors(tmp_path):
    path = tmp_path / "agent_output.json"
    path.write_text("the root cause is m5.large")
    with pytest.raises(InputError, match="not JSON"):
        read_agent_output(path)
    path.write_text('{"resource": [{"name": "m5.large"}]}')
    with pytest.raises(InputError, match=r"resource\[0\] needs string fields"):
        read_agent_output(path)


def test_generate_run_and_eval_through_the_cli(tmp_path):
    scenarios = tmp_path / "scenarios"
    proc = run_cli(
        [
            "finops",
            "generate",
            "--n",
            "3",
            "--seed",
            "5",
            "--out",
            str(scenarios),
            "--difficulty",
            "easy",
        ]
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [str(scenarios / f"Scenario-{i}") for i in (1, 2, 3)]
    out = tmp_path / "run"
    proc = run_cli(
        [
            "finops",
            "run",
            "--scenarios",
            str(scenarios),
            "--output",
            str(out),
            "--format",
            "json",
            "--no-progress",
        ]
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert {
        r["incident_id"]: r["scores"]["root_cause_resource"]["calculation"]
        for r in doc["raw_results"]
    } == {
        "Scenario-1": 1.0,
        "Scenario-2": 1.0,
        "Scenario-3": 1.0,
    }
    for i in (1, 2, 3):
        workspace = out / f"Scenario-{i}" / "1"
        assert not (workspace / "ground_truth.yaml").exists()
        answer = json.loads((workspace / "agent_output.json").read_text())
        assert answer["root_causes"][0]["explanation"].count("$") >= 2
    proc = run_cli(
        [
            "finops",
            "eval",
            "--outputs",
            str(out),
            "--ground-truth",
            str(scenarios),
            "--result-file",
            str(tmp_path / "eval.json"),
            "--format",
            "json",
        ]
    )
    assert proc.returncode == 0, proc.stderr
    evaluated = json.loads((tmp_path / "eval.json").read_text())
    assert evaluated["statistics"]["overall"]["root_cause_resource"]["mean"] == 1.0
    assert evaluated["statistics"]["overall"]["root_cause_resource"]["pass@1"] == 1.0


def test_naive_agent_and_oracle_on_generated_scenarios(tmp_path):
    scenarios = tmp_path / "s"
    run_cli(
        [
            "finops",
            "generate",
            "--n",
            "2",
            "--seed",
            "9",
            "--out",
            str(scenarios),
            "--difficulty",
            "hard",
        ]
    )
    proc = run_cli(
        [
            "finops",
            "run",
            "--scenarios",
            str(scenarios),
            "--agent",
            "oracle",
            "--output",
            str(tmp_path / "o"),
            "--format",
            "json",
        ]
    )
    assert proc.returncode == 0, proc.stderr
    assert all(
        r["scores"]["root_cause_resource"]["calculation"] == 1.0
        for r in json.loads(proc.stdout)["raw_results"]
    )
    proc = run_cli(
        [
            "finops",
            "run",
            "--scenarios",
            str(scenarios),
            "--agent",
            "naive",
            "--output",
            str(tmp_path / "n"),
            "--format",
            "json",
            "--fail-under",
            "0.99",
        ]
    )
    import yaml

    # where the truth names two or more distinct resources, one leaf can never cover them
    for entry in json.loads(proc.stdout)["raw_results"]:
        truth = yaml.safe_load((scenarios / entry["incident_id"] / "ground_truth.yaml").read_text())
        if len(truth["resource"]) >= 2:
            assert entry["scores"]["root_cause_resource"]["calculation"] == 0.0, entry[
                "incident_id"
            ]
    assert proc.returncode == (
        0
        if json.loads(proc.stdout)["statistics"]["overall"]["root_cause_resource"]["mean"] >= 0.99
        else 1
    )


def test_bad_scenarios_argument_and_broken_data_are_clean_errors(tmp_path):
    proc = run_cli(["finops", "run", "--scenarios", "Scenario-99", "--output", str(tmp_path / "x")])
    assert proc.returncode == 2 and "Scenario-1" in proc.stderr
    broken = tmp_path / "broken" / "Scenario-1"
    broken.mkdir(parents=True)
    (broken / "anomaly.json").write_text("{not json")
    (broken / "data.csv").write_text("a,b\n1,2\n")
    proc = run_cli(
        ["finops", "run", "--scenarios", str(tmp_path / "broken"), "--output", str(tmp_path / "y")]
    )
    assert proc.returncode == 3
    assert "anomaly.json: not valid JSON" in proc.stderr and "Traceback" not in proc.stderr


def test_unusable_data_in_a_trial_is_recorded_not_crashed(tmp_path):
    scenario = tmp_path / "bad" / "Scenario-1"
    scenario.mkdir(parents=True)
    (scenario / "anomaly.json").write_text('{"date": "2024-01-05", "account_id": "1"}')
    (scenario / "data.csv").write_text("date,Account ID,CSP\n2024-01-01,1,aws\n")
    (scenario / "ground_truth.yaml").write_text("resource: [{name: a, type: CSP}]\n")
    proc = run_cli(
        [
            "finops",
            "run",
            "--scenarios",
            str(tmp_path / "bad"),
            "--output",
            str(tmp_path / "r"),
            "--format",
            "json",
        ]
    )
    # checked when the scenario loads: the user's file is named, and no trial starts
    assert proc.returncode == 3, proc.stderr
    assert f"{scenario / 'data.csv'}: missing column(s) 'Cloud_Service'" in proc.stderr
    assert not (tmp_path / "r").exists()


def test_eval_counts_a_scenario_without_output_as_a_bad_run(tmp_path):
    """A ground-truth scenario with no output is listed, shown in the table, excluded from the
    mean (ITBench's rule) and counted as 0 in mean_with_failures_as_zero."""
    import shutil

    scenarios, out = finops_outputs_to_evaluate(tmp_path)
    shutil.rmtree(out / "Scenario-2")
    base = ["finops", "eval", "--outputs", str(out), "--ground-truth", str(scenarios)]
    proc = run_cli([*base, "--format", "json"])
    assert proc.returncode == 0, proc.stderr
    assert "no output for 1 scenario(s)" in proc.stderr and "Scenario-2" in proc.stderr
    doc = json.loads(proc.stdout)
    by_id = {r["incident_id"]: r for r in doc["raw_results"]}
    assert set(by_id) == {"Scenario-1", "Scenario-2", "Scenario-3"}
    assert by_id["Scenario-2"]["scores"] == {}
    assert by_id["Scenario-2"]["error"].startswith("missing output")
    assert all("scores" in r for r in doc["raw_results"])
    overall = doc["statistics"]["overall"]
    per_scenario = [
        by_id[s]["scores"]["root_cause_resource"]["calculation"]
        for s in ("Scenario-1", "Scenario-3")
    ]
    assert overall["total_bad_runs"] == 1
    assert overall["root_cause_resource"]["n_incidents"] == 2
    assert overall["root_cause_resource"]["mean"] == sum(per_scenario) / 2
    assert overall["root_cause_resource"]["mean_with_failures_as_zero"] == sum(per_scenario) / 3
    # eval-results.json of the first eval exists now: a second eval is told where to write
    again = [*base, "--result-file", str(tmp_path / "again.json")]
    table = run_cli([*again, "--format", "table"]).stdout
    row = next(line for line in table.splitlines() if line.startswith("Scenario-2"))
    assert "1" in row.split()[2:4]  # one trial, one error
    assert "bad runs" in table


@pytest.mark.parametrize(
    ("family", "level"),
    [("service_wide", "Cloud_Service"), ("provider_wide", "CSP")],
)
def test_generate_writes_causes_above_the_instance_family(tmp_path, family, level):
    import yaml

    proc = run_cli(
        [
            "finops",
            "generate",
            "--n",
            "2",
            "--seed",
            "9",
            "--family",
            family,
            "--out",
            str(tmp_path),
        ]
    )
    assert proc.returncode == 0, proc.stderr
    for i in (1, 2):
        folder = tmp_path / f"Scenario-{i}"
        truth = yaml.safe_load((folder / "ground_truth.yaml").read_text())["resource"]
        assert truth[0]["type"] == level
        assert json.loads((folder / "scenario.json").read_text())["family"] == family


def test_generate_messy_export_family_has_its_quirks(tmp_path):
    proc = run_cli(
        [
            "finops",
            "generate",
            "--n",
            "1",
            "--seed",
            "4",
            "--family",
            "messy_export",
            "--out",
            str(tmp_path),
        ]
    )
    assert proc.returncode == 0, proc.stderr
    folder = tmp_path / "Scenario-1"
    anomaly = json.loads((folder / "anomaly.json").read_text())
    assert isinstance(anomaly["account_id"], int)  # a JSON number: its leading zero is gone
    rows = (folder / "data.csv").read_text().splitlines()[1:]
    dates = [row.split(",")[0] for row in rows]
    assert dates != sorted(dates)  # rows not sorted by date
    assert max(dates) > anomaly["date"]  # data after the anomaly day
    assert all(row.split(",")[1].startswith("0") for row in rows)


def test_renamed_column_names_the_users_file_and_fails_the_run(tmp_path):
    """Issue 27: a generated scenario whose CSV has one column renamed: the error names the
    user's file (not the workspace copy) with the rename hint, and the run fails (exit 3)."""
    scenarios = tmp_path / "scenarios"
    gen = ["finops", "generate", "--n", "1", "--seed", "5", "--difficulty", "easy"]
    assert run_cli([*gen, "--out", str(scenarios)]).returncode == 0
    (data,) = scenarios.glob("*/data.csv")
    lines = data.read_text().splitlines(keepends=True)
    lines[0] = lines[0].replace("Cloud_Service", "Cloud Service")
    data.write_text("".join(lines))
    out = tmp_path / "r"
    proc = run_cli(["finops", "run", "--scenarios", str(scenarios), "--output", str(out)])
    assert proc.returncode == 3, proc.stderr
    assert f"{data}: missing column(s) 'Cloud_Service' (found 'Cloud Service': renamed?)" in (
        proc.stderr
    )
    assert "/1/data.csv" not in proc.stderr  # not the workspace copy
