"""A ground truth names its cause at a level of the bill's hierarchy, or the scenario is refused.

An answer names hierarchy levels, so a truth typed with a name that is not one (a misspelling, a
FOCUS column the hierarchy does not use, a tag key) could only ever score a miss, silently. The
loader refuses it with the file and the field instead; the same name is accepted once the FOCUS
scenario's ``scenario.json`` lists it among its levels.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from finops.model import Resource
from finops.scenario import load_scenario
from itbench.errors import InputError
from tests.finops.finops_fixtures import steady, write_lite

FOCUS_HEADER = "BillingAccountId,ProviderName,ServiceCategory,ServiceName,RegionId,ResourceId,ChargePeriodStart,BilledCost"


def _lite(folder: Path) -> Path:
    days = 30
    price = np.full(days, 0.2)
    write_lite(folder, {("AWS", "EC2", "shop", "m5.large"): (price, steady(days, 10))}, 25)
    return folder


def _focus(folder: Path, levels: list[str] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    rows = [FOCUS_HEADER]
    for day in range(1, 29):
        rows.append(f"900,AWS,Compute,EC2,eu-north-1,i-0abc,2025-02-{day:02d} 00:00:00,12.5")
    (folder / "focus.csv").write_text("\n".join(rows) + "\n")
    (folder / "anomaly.json").write_text(json.dumps({"date": "2025-02-20", "account_id": "900"}))
    if levels:
        (folder / "scenario.json").write_text(json.dumps({"levels": levels}))
    return folder


def _truth(folder: Path, name: str, kind: str) -> Path:
    (folder / "ground_truth.yaml").write_text(f"resource:\n- name: {name}\n  type: {kind}\n")
    return folder / "ground_truth.yaml"


@pytest.mark.parametrize("kind", ["Instance_Famly", "Region", "team"])
def test_lite_truth_with_a_level_the_bill_does_not_have_is_refused(tmp_path, kind):
    folder = _lite(tmp_path / "Scenario-1")
    gt = _truth(folder, "m5.large", kind)
    with pytest.raises(InputError) as err:
        load_scenario(folder)
    assert str(gt) in str(err.value) and "resource[0].type" in str(err.value)
    assert repr(kind) in str(err.value)


@pytest.mark.parametrize("kind", ["Instance_Family", "instance family", "Cloud-Service", "CSP"])
def test_lite_truth_at_a_level_in_any_spelling_the_scorer_folds_loads(tmp_path, kind):
    folder = _lite(tmp_path / "Scenario-1")
    _truth(folder, "x", kind)
    assert load_scenario(folder).ground_truth == (Resource("x", kind),)


@pytest.mark.parametrize("kind", ["RegionId", "Application"])
def test_focus_truth_outside_the_default_levels_is_refused(tmp_path, kind):
    folder = _focus(tmp_path / "Scenario-1")
    gt = _truth(folder, "eu-north-1", kind)
    with pytest.raises(InputError) as err:
        load_scenario(folder)
    assert str(gt) in str(err.value) and "ProviderName" in str(err.value)


def test_focus_truth_at_a_level_scenario_json_lists_loads(tmp_path):
    levels = ["BillingAccountId", "ProviderName", "RegionId", "ServiceName", "ResourceId"]
    folder = _focus(tmp_path / "Scenario-1", levels)
    _truth(folder, "eu-north-1", "RegionId")
    assert load_scenario(folder).ground_truth == (Resource("eu-north-1", "RegionId"),)


def test_empty_truth_of_a_quiet_bill_loads(tmp_path):
    folder = _focus(tmp_path / "Scenario-1")
    (folder / "ground_truth.yaml").write_text("resource: []\n")
    assert load_scenario(folder).ground_truth == ()
