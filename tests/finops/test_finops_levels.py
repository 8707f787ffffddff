"""Causes at every level of the hierarchy, and the normal life of a bill that is not a cause.

Each test builds one scenario of one shape by hand (tests/finops/finops_fixtures.py) and checks
what the baseline names, at which level and of which kind.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re

import numpy as np

from finops.model import Resource
from tests.finops.finops_fixtures import START, three_app_leaves, write_lite
from tests.finops.wide_fixtures import diagnosis

SERVICES = {"AWS": ("EC2", "RDS"), "GCP": ("GKE", "CloudSQL")}


def world(days: int) -> dict:
    """Two providers, two services each, three applications per service, two families each."""
    return three_app_leaves(SERVICES, days, first_seed=100)


def _named(d) -> list[tuple[Resource, str]]:
    return [(rc.resource, rc.kind) for rc in d.root_causes]


DAYS, DAY = 49, 48  # the anomaly on the last day, a Sunday


def test_a_price_change_on_every_application_of_a_service_is_the_service(tmp_path):
    leaves = world(DAYS)
    for key, (price, _) in leaves.items():
        if key[1] == "GKE":
            price[DAY:] *= 1.3
    d = diagnosis(write_lite(tmp_path, leaves, DAY))
    assert _named(d) == [(Resource("GKE", "Cloud_Service"), "price_change")]
    price, instances = re.search(
        r"price x([\d.]+), instances x([\d.]+)", d.root_causes[0].explanation
    ).groups()
    assert abs(float(price) - 1.3) < 0.06 and abs(float(instances) - 1.0) < 0.05


def test_an_instance_surge_on_every_application_of_a_service_says_so(tmp_path):
    leaves = world(DAYS)
    for key, (_, count) in leaves.items():
        if key[1] == "RDS":
            count[DAY:] = np.rint(count[DAY:] * 1.5)
    d = diagnosis(write_lite(tmp_path, leaves, DAY))
    assert _named(d) == [(Resource("RDS", "Cloud_Service"), "instance_count_spike")]


def test_a_discount_expiring_on_a_whole_provider_is_the_csp(tmp_path):
    leaves = world(DAYS)
    for key, (price, _) in leaves.items():
        if key[0] == "GCP":
            price[DAY:] *= 1.2
    d = diagnosis(write_lite(tmp_path, leaves, DAY))
    assert _named(d) == [(Resource("GCP", "CSP"), "price_change")]


def test_one_family_inside_a_service_stays_the_family(tmp_path):
    """The finer answer wins when one child explains the increase alone."""
    leaves = world(DAYS)
    leaves[("GCP", "GKE", "gke-b", "n2-standard-4")][0][DAY:] *= 2.5
    d = diagnosis(write_lite(tmp_path, leaves, DAY))
    assert _named(d) == [(Resource("n2-standard-4", "Instance_Family"), "price_change")]


def test_a_cost_neutral_migration_is_not_a_cause(tmp_path):
    leaves = world(DAYS)
    # rds-a moves all its m5.large to a new m6i.large family at the same cost; the application
    # total is flat. A real spike elsewhere is the only cause.
    old_count = leaves[("AWS", "RDS", "rds-a", "m5.large")][1]
    moved = old_count[DAY:].copy()
    old_count[DAY:] = 0
    new_count = np.zeros(DAYS)
    new_count[DAY:] = np.rint(moved * 0.096 / 0.12)
    leaves[("AWS", "RDS", "rds-a", "m6i.large")] = (np.full(DAYS, 0.12), new_count)
    leaves[("AWS", "EC2", "ec2-c", "c5.2xlarge")][1][DAY:] *= 3
    d = diagnosis(write_lite(tmp_path, leaves, DAY))
    assert _named(d) == [(Resource("c5.2xlarge", "Instance_Family"), "instance_count_spike")]


def test_a_month_end_batch_that_recurs_is_not_a_cause(tmp_path):
    days = 58  # START + 57 days is 2024-04-30, a month's last day; 2024-03-31 is in the history
    day = days - 1
    assert (START + dt.timedelta(days=day)).isoformat() == "2024-04-30"
    leaves = world(days)
    for i in range(days):
        date = START + dt.timedelta(days=i)
        if (date + dt.timedelta(days=1)).month != date.month:
            for key, (_, count) in leaves.items():
                if key[2] == "ec2-b":
                    count[i] *= 3
    leaves[("AWS", "RDS", "rds-a", "c5.2xlarge")][1][day:] *= 3
    d = diagnosis(write_lite(tmp_path, leaves, day))
    assert _named(d) == [(Resource("c5.2xlarge", "Instance_Family"), "instance_count_spike")]


def test_resources_without_weekend_rows_are_not_a_cause_on_monday(tmp_path):
    days, day = 50, 49  # day 49 is a Monday
    assert (START + dt.timedelta(days=day)).weekday() == 0
    leaves = world(days)
    weekend = np.array([(START + dt.timedelta(days=i)).weekday() >= 5 for i in range(days)])
    for key, (_, count) in leaves.items():
        if key[1] in ("EC2", "CloudSQL"):
            count[weekend] = 0  # no rows at all at weekends
    leaves[("AWS", "RDS", "rds-b", "c5.2xlarge")][0][day:] *= 1.8
    d = diagnosis(write_lite(tmp_path, leaves, day))
    assert _named(d) == [(Resource("c5.2xlarge", "Instance_Family"), "price_change")]


def test_a_planned_scale_step_days_before_is_history(tmp_path):
    leaves = world(DAYS)
    for key, (_, count) in leaves.items():
        if key[2] == "gke-a":
            count[DAY - 3 :] = np.rint(count[DAY - 3 :] * 1.6)
    leaves[("AWS", "EC2", "ec2-a", "m5.large")][1][DAY:] *= 3
    d = diagnosis(write_lite(tmp_path, leaves, DAY))
    assert _named(d) == [(Resource("m5.large", "Instance_Family"), "instance_count_spike")]


def test_one_answer_per_resource(tmp_path):
    """The same family spiking in two applications is one {name, type}, named once."""
    leaves = world(DAYS)
    leaves[("AWS", "EC2", "ec2-a", "c5.2xlarge")][1][DAY:] *= 3
    leaves[("AWS", "EC2", "ec2-c", "c5.2xlarge")][1][DAY:] *= 3
    d = diagnosis(write_lite(tmp_path, leaves, DAY))
    assert [rc.resource for rc in d.root_causes] == [Resource("c5.2xlarge", "Instance_Family")]
    assert "also in" in d.root_causes[0].explanation


def test_numeric_account_ids_unsorted_rows_and_data_after_the_day(tmp_path):
    days = DAYS + 6  # a week of data after the anomaly day
    leaves = world(days)
    leaves[("GCP", "GKE", "gke-c", "e2-medium")][1][DAY:] *= 4
    folder = write_lite(tmp_path, leaves, DAY, account="012345678901")
    lines = (folder / "data.csv").read_text().splitlines()
    body = lines[1:]
    random.Random(3).shuffle(body)
    (folder / "data.csv").write_text("\n".join([lines[0], *body]) + "\n")
    anomaly = json.loads((folder / "anomaly.json").read_text())
    anomaly["account_id"] = 12345678901  # a JSON number: the leading zero is gone
    (folder / "anomaly.json").write_text(json.dumps(anomaly))
    d = diagnosis(folder)
    assert _named(d) == [(Resource("e2-medium", "Instance_Family"), "instance_count_spike")]
