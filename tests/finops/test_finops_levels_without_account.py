"""A FOCUS scenario whose ``scenario.json`` lists only the levels a cause can be named at (no
account column) is read with the billing account above them, as every FOCUS export carries it.

Before, the first listed level was taken for the account, and the alert's ``account_id`` (a
``BillingAccountId``) was not found in it: the trial stopped with "account '...' is not in the
data; accounts: <providers>" and was scored nothing. Bills written here by hand.
"""

from __future__ import annotations

import json

import pytest

from finops.loaders.focus import focus_hierarchy
from finops.model import Resource
from finops.scenario import load_scenario
from tests.finops.test_finops_one_factor_causes import (
    REGION_ALERT,
    REGION_LEVELS,
    SEEDS,
    _two_regions,
)
from tests.finops.wide_fixtures import answer

WITHOUT_ACCOUNT = [level for level in REGION_LEVELS if level != "BillingAccountId"]


@pytest.mark.parametrize("seed", SEEDS)
def test_levels_without_the_account_still_name_the_region(tmp_path, seed):
    bill = _two_regions(seed)
    for (_, region, service, _), cost in bill.lines.items():
        if region == "af-south-4" and service != "Managed SQL":
            cost[REGION_ALERT:] *= 2.1
    folder = bill.write(tmp_path, REGION_ALERT, REGION_LEVELS)
    (folder / "scenario.json").write_text(json.dumps({"levels": WITHOUT_ACCOUNT}))
    assert answer(folder) == (Resource("af-south-4", "RegionId"),)


def test_the_account_is_put_above_the_listed_levels_only_when_none_is_listed():
    assert focus_hierarchy(("ProviderName", "RegionId")).levels == (
        "BillingAccountId",
        "ProviderName",
        "RegionId",
    )
    assert focus_hierarchy(("SubAccountId", "ServiceName")).levels == (
        "SubAccountId",
        "ServiceName",
    )


def test_a_truth_at_a_listed_level_still_loads(tmp_path):
    bill = _two_regions(SEEDS[0])
    folder = bill.write(tmp_path, REGION_ALERT, REGION_LEVELS)
    (folder / "scenario.json").write_text(json.dumps({"levels": WITHOUT_ACCOUNT}))
    (folder / "ground_truth.yaml").write_text(
        "resource:\n- name: eu-north-7\n  type: RegionId\n", encoding="utf-8"
    )
    scenario = load_scenario(folder)
    assert scenario.hierarchy.levels[0] == "BillingAccountId"
