"""Loaders and their errors: every bad input is named, with file, row and column."""

from __future__ import annotations

import json

import numpy as np
import pytest

from finops.loaders.focus import read_focus_csv
from finops.loaders.lite import read_lite_csv
from finops.rca import diagnose
from finops.scenario import discover_scenarios, load_scenario
from itbench.errors import InputError, UsageError
from tests._support.cli import SHARED
from tests.finops.finops_fixtures import base_leaves, write_lite

FOCUS = SHARED / "corpora" / "focus-sample" / "focus_sample.csv"


def _scenario(tmp_path):
    return write_lite(tmp_path / "Scenario-1", base_leaves(), 41)


def test_renamed_column_is_named_with_a_hint(tmp_path):
    folder = _scenario(tmp_path)
    data = folder / "data.csv"
    data.write_text(data.read_text().replace("unblended_cost", "unblended cost", 1))
    with pytest.raises(
        InputError,
        match=r"missing column\(s\) 'unblended_cost' \(found 'unblended cost': renamed\?\)",
    ):
        read_lite_csv(data)


def test_non_numeric_cost_names_row_and_column(tmp_path):
    folder = _scenario(tmp_path)
    data = folder / "data.csv"
    lines = data.read_text().splitlines()
    parts = lines[5].split(",")
    parts[-1] = "lots"
    lines[5] = ",".join(parts)
    data.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError, match=r"row 6, column 'unblended_cost': 'lots' is not a number"):
        read_lite_csv(data)


def test_duplicate_rows_are_summed_and_credits_lower_the_day(tmp_path):
    folder = _scenario(tmp_path)
    data = folder / "data.csv"
    lines = data.read_text().splitlines()
    first = lines[1].split(",")
    credit = first[:]
    credit[-1] = "-5.0"
    data.write_text("\n".join([*lines, lines[1], ",".join(credit)]) + "\n")
    table = read_lite_csv(data)
    key = table.frame[
        (table.frame["date"] == first[0])
        & (table.frame["Application"] == first[4])
        & (table.frame["Instance_Family"] == first[5])
    ]
    assert len(key) == 1
    assert key["cost"].iloc[0] == pytest.approx(2 * float(first[-1]) - 5.0)


def test_anomaly_date_outside_data_and_unknown_account(tmp_path):
    folder = _scenario(tmp_path)
    scenario = load_scenario(folder)
    (folder / "anomaly.json").write_text(json.dumps({"date": "2031-01-01", "account_id": "111"}))
    with pytest.raises(
        InputError, match="anomaly date 2031-01-01 is outside the data of account 111"
    ):
        diagnose(scenario.load_table(), load_scenario(folder).anomaly)
    (folder / "anomaly.json").write_text(json.dumps({"date": "2024-04-10", "account_id": "999"}))
    with pytest.raises(InputError, match="account '999' is not in the data; accounts: 111"):
        diagnose(scenario.load_table(), load_scenario(folder).anomaly)


def test_malformed_anomaly_and_ground_truth(tmp_path):
    folder = _scenario(tmp_path)
    (folder / "anomaly.json").write_text('{"date": "yesterday", "account_id": "111"}')
    with pytest.raises(InputError, match="field 'date': 'yesterday' is not a YYYY-MM-DD date"):
        load_scenario(folder)
    (folder / "anomaly.json").write_text('{"date": "2024-04-10"}')
    with pytest.raises(InputError, match="field 'account_id' is missing"):
        load_scenario(folder)
    (folder / "anomaly.json").write_text('{"date": "2024-04-10", "account_id": "111"}')
    (folder / "ground_truth.yaml").write_text("resource:\n  - name: x\n")
    with pytest.raises(InputError, match=r"resource\[0\] needs 'name' and 'type'"):
        load_scenario(folder)


def test_discovery_accepts_the_original_folder_names(tmp_path):
    for name in ("3", "Scenario-1", "scenario_2"):
        write_lite(tmp_path / name, base_leaves(), 41)
    (tmp_path / "notes").mkdir()
    assert [s.id for s in discover_scenarios(tmp_path)] == ["Scenario-1", "scenario_2", "3"]
    with pytest.raises(UsageError, match="no scenario folders"):
        discover_scenarios(tmp_path / "notes")


def test_focus_sample_loads_with_credits_and_hourly_periods_summed():
    if not FOCUS.exists():
        pytest.skip(f"../shared is absent: {FOCUS} not found")
    import pandas as pd

    raw = pd.read_csv(FOCUS, dtype=str, keep_default_na=False)
    table = read_focus_csv(FOCUS)
    assert set(table.account_ids()) == set(raw["BillingAccountId"])
    assert table.frame["cost"].sum() == pytest.approx(pd.to_numeric(raw["BilledCost"]).sum())
    assert (table.frame["cost"] < 0).any()  # credits kept
    assert (table.frame["date"].dt.hour == 0).all()
    assert table.frame["date"].dt.normalize().nunique() == 30


def test_focus_injection_plants_resources_the_baseline_finds(tmp_path):
    if not FOCUS.exists():
        pytest.skip(f"../shared is absent: {FOCUS} not found")
    from finops.generator.focus import inject_into_focus

    folders = inject_into_focus(FOCUS, tmp_path, 3, 5, n=2)
    for folder in folders:
        scenario = load_scenario(folder)
        assert scenario.is_focus and len(scenario.ground_truth) == 3
        assert {r.type for r in scenario.ground_truth} == {"ResourceId"}
        found = set(diagnose(scenario.load_table(), scenario.anomaly).resources)
        assert len(set(scenario.ground_truth) & found) >= 2, folder.name


def test_generator_is_deterministic_and_truth_matches_plan(tmp_path):
    from finops.generator import generate_scenarios

    a = generate_scenarios(tmp_path / "a", 3, 42, "hard")
    b = generate_scenarios(tmp_path / "b", 3, 42, "hard")
    c = generate_scenarios(tmp_path / "c", 3, 43, "hard")
    for x, y in zip(a, b, strict=True):
        for name in ("data.csv", "anomaly.json", "ground_truth.yaml"):
            assert (x / name).read_bytes() == (y / name).read_bytes()
    assert (a[0] / "data.csv").read_bytes() != (c[0] / "data.csv").read_bytes()
    for folder in a:
        scenario = load_scenario(folder)
        kinds = [r["kind"] for r in scenario.metadata["root_causes"]]
        assert 2 <= len(kinds) <= 3
        table = scenario.load_table()
        day = table.frame[table.frame["date"] == str(scenario.anomaly.date)]
        for resource, kind in zip(scenario.ground_truth, kinds, strict=False):
            column = {"Application": "Application", "Instance_Family": "Instance_Family"}[
                resource.type
            ]
            assert resource.name in set(day[column]), (folder.name, resource)
            if kind == "new_application":
                before = table.frame[table.frame["date"] < str(scenario.anomaly.date)]
                assert resource.name not in set(before["Application"])
    _ = np
