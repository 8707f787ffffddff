"""The baseline drill-down on hand-built scenarios: what it finds, per scenario, and what it doesn't."""

from __future__ import annotations

import re

import numpy as np
import pytest

from finops.model import Resource
from finops.rca import diagnose
from finops.rca.naive import naive_diagnose
from finops.scenario import load_scenario
from tests.finops.finops_fixtures import base_leaves, steady, write_lite
from tests.finops.wide_fixtures import diagnosis

DAY = 41  # last day of 42, a Sunday


def test_instance_count_spike_is_found_at_the_instance_family(tmp_path):
    leaves = base_leaves()
    price, count = leaves[("AWS", "EC2", "ec2-app-a", "c5.2xlarge")]
    count[DAY] *= 3
    d = diagnosis(write_lite(tmp_path, leaves, DAY))
    assert [rc.resource for rc in d.root_causes] == [Resource("c5.2xlarge", "Instance_Family")]
    assert d.root_causes[0].kind == "instance_count_spike"
    assert d.root_causes[0].path == ("111", "AWS", "EC2", "ec2-app-a", "c5.2xlarge")
    assert (
        "instances x3" in d.root_causes[0].explanation
        or "instances x2.9" in d.root_causes[0].explanation
    )


def test_price_change_is_classified_as_such(tmp_path):
    leaves = base_leaves()
    price, count = leaves[("AWS", "RDS", "rds-app-b", "m5.large")]
    price[DAY:] = price[DAY] * 4
    d = diagnosis(write_lite(tmp_path, leaves, DAY))
    assert [(rc.resource, rc.kind) for rc in d.root_causes] == [
        (Resource("m5.large", "Instance_Family"), "price_change")
    ]


def test_two_independent_root_causes_are_both_reported(tmp_path):
    leaves = base_leaves()
    leaves[("AWS", "EC2", "ec2-app-b", "m5.large")][1][DAY] *= 4
    leaves[("AWS", "RDS", "rds-app-a", "c5.2xlarge")][1][DAY] *= 3
    d = diagnosis(write_lite(tmp_path, leaves, DAY))
    assert sorted(rc.path for rc in d.root_causes) == [
        ("111", "AWS", "EC2", "ec2-app-b", "m5.large"),
        ("111", "AWS", "RDS", "rds-app-a", "c5.2xlarge"),
    ]


def test_a_new_application_is_reported_as_the_application(tmp_path):
    leaves = base_leaves()
    count = np.zeros(42)
    count[DAY] = 60
    leaves[("AWS", "EC2", "brand-new", "r5.large")] = (np.full(42, 0.126), count)
    leaves[("AWS", "EC2", "brand-new", "m5.large")] = (np.full(42, 0.096), count.copy())
    d = diagnosis(write_lite(tmp_path, leaves, DAY))
    assert [(rc.resource, rc.kind) for rc in d.root_causes] == [
        (Resource("brand-new", "Application"), "new_resource")
    ]


def test_an_application_scaled_as_a_whole_is_reported_as_the_application(tmp_path):
    leaves = base_leaves()
    for family in ("m5.large", "c5.2xlarge"):
        leaves[("AWS", "RDS", "rds-app-b", family)][1][DAY] *= 3
    leaves[("AWS", "RDS", "rds-app-b", "r5.large")] = (np.full(42, 0.126), steady(42, 30, seed=77))
    leaves[("AWS", "RDS", "rds-app-b", "r5.large")][1][DAY] *= 3
    d = diagnosis(write_lite(tmp_path, leaves, DAY))
    # every family tripled its instances: one change of the application, and it says which kind
    assert [(rc.resource, rc.kind) for rc in d.root_causes] == [
        (Resource("rds-app-b", "Application"), "instance_count_spike")
    ]
    instances = float(re.search(r"instances x([\d.]+)", d.root_causes[0].explanation).group(1))
    assert abs(instances - 3) < 0.15


def test_a_quiet_day_has_no_root_cause(tmp_path):
    d = diagnosis(write_lite(tmp_path, base_leaves(), DAY))
    assert d.root_causes == ()
    assert any("no node deviates" in note for note in d.notes)


def test_a_weekly_peak_is_not_an_anomaly_but_fools_the_naive_agent(tmp_path):
    leaves = base_leaves(43)
    monday_peak = (2.5, 1, 1, 1, 1, 1, 1)
    leaves[("AWS", "EC2", "ec2-app-a", "m5.large")] = (
        np.full(43, 0.096),
        steady(43, 30, seed=5, weekly=monday_peak),
    )
    folder = write_lite(tmp_path, leaves, 42)  # day 42 is a Monday
    assert diagnosis(folder).root_causes == ()
    scenario = load_scenario(folder)
    assert naive_diagnose(scenario.load_table(), scenario.anomaly) == (
        Resource("m5.large", "Instance_Family"),
    )


def test_a_thin_planned_scale_up_is_not_reported_beside_the_real_cause(tmp_path):
    leaves = base_leaves()
    for _key, (_price, count) in leaves.items():
        count[DAY] = np.rint(count[DAY] * 1.05)  # every leaf a little up
    leaves[("AWS", "EC2", "ec2-app-a", "m5.large")][1][DAY] *= 5
    d = diagnosis(write_lite(tmp_path, leaves, DAY))
    assert [rc.resource for rc in d.root_causes] == [Resource("m5.large", "Instance_Family")]


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_generated_scenarios_are_solved(tmp_path, difficulty):
    from finops.generator import generate_scenarios
    from finops.scenario import discover_scenarios

    generate_scenarios(tmp_path, 4, 11, difficulty)
    for scenario in discover_scenarios(tmp_path):
        d = diagnose(scenario.load_table(), scenario.anomaly)
        assert set(scenario.ground_truth) <= set(d.resources), scenario.id
