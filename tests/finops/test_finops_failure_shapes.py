"""Shapes that cost the baseline accuracy in the generated benchmark, one scenario each.

Every test builds, by hand, the shape a benchmark failure had (tests/finops/finops_fixtures.py)
and checks what the baseline names. Where the shape needs a precondition to be the shape (a
service below the significance threshold, a sibling whose closest baseline hides its rise), the
test asserts it first, so a change to the data cannot silently turn the test into an easy one.
"""

from __future__ import annotations

import datetime as dt

import numpy as np

from finops.model import Resource
from finops.rca.cube import build_cube
from finops.rca.nodes import NodeStats, build_tree
from finops.scenario import load_scenario
from tests.finops.finops_fixtures import FAMILY_PRICES, START, steady, three_app_leaves, write_lite
from tests.finops.wide_fixtures import diagnosis

SERVICES = {"AWS": ("EC2", "RDS"), "GCP": ("GKE", "CloudSQL", "ComputeEngine")}
DAYS, DAY = 49, 48  # the anomaly on the last day, 2024-04-21, a Sunday


def world(days: int = DAYS) -> dict:
    """Two providers (two and three services), three applications per service, two families."""
    return three_app_leaves(SERVICES, days, first_seed=500)


def _cost(leaves: dict, keep, day: int) -> float:
    return sum(p[day] * c[day] * 24 for key, (p, c) in leaves.items() if keep(key))


def _named(d) -> set[Resource]:
    return {rc.resource for rc in d.root_causes}


def _node(folder, *path: str) -> NodeStats:
    scenario = load_scenario(folder)
    cube = build_cube(scenario.load_table(), scenario.anomaly.account_id, scenario.anomaly.date)
    tree = build_tree(cube)
    return next(n for level in tree.stats for n in level if n.path[1:] == path)


def test_two_independent_spikes_under_a_provider_with_two_services_stay_two(tmp_path):
    """The known weakness: each of AWS's two services rises by about the same share, one
    through a spike of one family, the other through a new family. The services moved alike,
    their leaves did not: the answer is the two leaves, not AWS."""
    leaves = world()
    ec2 = _cost(leaves, lambda k: k[1] == "EC2", DAY)
    rds = _cost(leaves, lambda k: k[1] == "RDS", DAY)
    price, count = leaves[("AWS", "EC2", "ec2-b", "c5.2xlarge")]
    count[DAY:] += np.ceil(0.35 * ec2 / (price[DAY] * 24))
    new = np.zeros(DAYS)
    new[DAY:] = np.ceil(0.35 * rds / (0.5 * 24))
    leaves[("AWS", "RDS", "rds-a", "r5.xlarge")] = (np.full(DAYS, 0.5), new)
    d = diagnosis(write_lite(tmp_path, leaves, DAY))
    assert _named(d) == {
        Resource("c5.2xlarge", "Instance_Family"),
        Resource("r5.xlarge", "Instance_Family"),
    }


def test_a_new_application_and_a_spike_under_every_service_of_a_provider_are_named(tmp_path):
    """Three services of GCP each carry an independent cause (hard scenarios plant up to three):
    the children all rose, so only the leaves can tell that nothing moved GCP as a whole."""
    leaves = world()
    for service, app in (("GKE", "gke-a"), ("CloudSQL", "cloudsql-c")):
        share = 0.5 * _cost(leaves, lambda k, s=service: k[1] == s, DAY)
        price, count = leaves[("GCP", service, app, "n2-standard-4")]
        count[DAY:] += np.ceil(share / (price[DAY] * 24))
    share = 0.5 * _cost(leaves, lambda k: k[1] == "ComputeEngine", DAY)
    new = np.zeros(DAYS)
    new[DAY:] = np.ceil(share / (0.3 * 24))
    leaves[("GCP", "ComputeEngine", "batch-new", "c2-standard-8")] = (np.full(DAYS, 0.3), new)
    d = diagnosis(write_lite(tmp_path, leaves, DAY))
    assert _named(d) == {
        Resource("n2-standard-4", "Instance_Family"),
        Resource("batch-new", "Application"),
    }
    assert Resource("GCP", "CSP") not in _named(d)


def test_a_service_changed_whole_below_the_significance_threshold_is_the_service(tmp_path):
    """ComputeEngine's applications share a daily wobble (one service, one demand), so the
    service is as noisy as each of them, and 25% more instances on all of them leave the service
    under 5 sigma. No leaf's price moved to flag it either: it was never entered."""
    leaves = world()
    wobble = 1 + np.random.default_rng(7).normal(0, 0.05, DAYS)
    for key, (_, count) in leaves.items():
        if key[1] == "ComputeEngine":
            count[:] = np.rint(count * wobble)
            count[DAY:] = np.rint(count[DAY:] * 1.25)
    folder = write_lite(tmp_path, leaves, DAY)
    service = _node(folder, "GCP", "ComputeEngine")
    assert 3.0 <= service.z < 5.0, service.z  # the shape: material, not significant by itself
    d = diagnosis(folder)
    assert [(rc.resource, rc.kind) for rc in d.root_causes] == [
        (Resource("ComputeEngine", "Cloud_Service"), "instance_count_spike")
    ]


def test_a_provider_price_change_counts_a_service_whose_last_week_peaked(tmp_path):
    """GKE ran 20% high on the same weekday last week; the closest of the baselines is then
    last week and GKE's share of GCP's price change looks like no rise at all. Siblings are
    compared against their plain weekday median."""
    leaves = world()
    for key, (price, count) in leaves.items():
        if key[0] == "GCP":
            price[DAY:] *= 1.2
        if key[1] == "GKE":
            count[DAY - 7] = np.rint(count[DAY - 7] * 1.2)
    folder = write_lite(tmp_path, leaves, DAY)
    gke = _node(folder, "GCP", "GKE")
    rise = (gke.actual - gke.baseline) / gke.sigma  # against the plain weekday median
    assert gke.z < 1.5 <= rise, (gke.z, rise)  # the shape
    d = diagnosis(folder)
    assert [(rc.resource, rc.kind) for rc in d.root_causes] == [
        (Resource("GCP", "CSP"), "price_change")
    ]


def test_an_application_started_three_weeks_ago_does_not_hide_a_spike(tmp_path):
    """An application that started 15 days before the anomaly has zeros in some of its
    weekday medians and not in others; rescaling the service's recent days by those medians
    inflated its expectation up to where the day's spike brought the service, and the spike
    vanished."""
    leaves = world()
    start = DAY - 15
    for seed, (family, price) in enumerate(FAMILY_PRICES["AWS"]):
        count = steady(DAYS, 150, seed=900 + seed)
        count[:start] = 0
        leaves[("AWS", "EC2", "ec2-young", family)] = (np.full(DAYS, price), count)
    young = _cost(leaves, lambda k: k[2] == "ec2-young", DAY)
    price, count = leaves[("AWS", "EC2", "ec2-a", "c5.2xlarge")]
    count[DAY:] += np.ceil(young / (price[DAY] * 24))
    d = diagnosis(write_lite(tmp_path, leaves, DAY))
    assert _named(d) == {Resource("c5.2xlarge", "Instance_Family")}


def test_one_earlier_high_day_on_the_same_date_of_the_month_is_not_a_habit(tmp_path):
    """gke-b ran 2.5 times its level once, on 2024-03-21; on 2024-04-21 its n2-standard-4
    spikes. One high day on a date is a past incident, not a monthly habit: the spike stands."""
    assert (START + dt.timedelta(days=DAY)).day == 21 == (START + dt.timedelta(days=17)).day
    leaves = world()
    for key, (_, count) in leaves.items():
        if key[2] == "gke-b":
            count[17] = np.rint(count[17] * 2.5)
    leaves[("GCP", "GKE", "gke-b", "n2-standard-4")][1][DAY:] *= 2.5
    d = diagnosis(write_lite(tmp_path, leaves, DAY))
    assert [(rc.resource, rc.kind) for rc in d.root_causes] == [
        (Resource("n2-standard-4", "Instance_Family"), "instance_count_spike")
    ]
