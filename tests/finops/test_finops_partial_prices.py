"""Partial price changes on hand-made bills: one family, one region or one application repriced
beside lines that kept their price, and whole-service or whole-provider rises beside lines whose
price a commitment fixes (reserved instances, savings-plan fees, credits).

The labels were written before the baseline was changed for these situations. A line that kept
its unit price is evidence against a service-wide cause only when a price list could have moved
it: an on-demand line billed by usage. A reserved line (the same count at the same rate every
day), a fee or a credit keeps its price through any list-price change.
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from finops.model import Resource
from finops.rca.cube import price_step
from tests.finops.wide_fixtures import Bill, Line, answer, small_fleets

SEEDS = (1, 2, 3)


START = dt.date(2024, 5, 6)  # a Monday
DAY = 49  # a Monday, seven weeks of history
AWS = Resource("AWS", "CSP")
EC2 = Resource("EC2", "Cloud_Service")
M5 = Resource("m5.large", "Instance_Family")
C5 = Resource("c5.xlarge", "Instance_Family")

#: Family -> on-demand list price ($/hour).
FAMILIES = {"m5.large": 0.096, "c5.xlarge": 0.17, "r5.large": 0.126, "t3.medium": 0.0416}


def _fleets(bill: Bill, apps=(("shop", 16), ("search", 12), ("mail", 8)), weekly=True) -> None:
    """On-demand fleets of four families in every application, a database, a second provider."""
    shape = bill.weekly(1.0, 0.55) if weekly else None
    for app, n in apps:
        for family, price in FAMILIES.items():
            bill.usage(("111", "AWS", "EC2", app, family), price, n, shape=shape)
    bill.static(("111", "AWS", "RDS", "shop", "db.m5.large"), 0.171, 2)
    bill.usage(("111", "GCP", "Compute Engine", "batch", "e2-standard-4"), 0.134, 6, shape=shape)


def _reserved(bill: Bill) -> list[Line]:
    """A platform team's reserved instances (the same count at the reserved rate every day) and
    a savings plan's daily fee: a new list price moves none of them."""
    lines = [
        bill.static(("111", "AWS", "EC2", "platform", "m5.large"), 0.060, 10),
        bill.static(("111", "AWS", "EC2", "platform", "c5.xlarge"), 0.107, 6),
    ]
    bill.flat_fee(("111", "AWS", "Savings Plans", "shared", "Compute SP"), 30.0)
    return lines


def _on_demand(bill: Bill, *prefix: str, family: str | None = None) -> list[Line]:
    """Usage-billed lines under ``prefix`` (not the fixed ones a commitment prices)."""
    return [
        line
        for line in bill.under(*prefix)
        if line.count.any() and len(set(line.count)) > 1 and (family in (None, line.family))
    ]


@pytest.mark.parametrize("seed", SEEDS)
def test_one_family_repriced_beside_three_unchanged_families(tmp_path, seed):
    bill = Bill(START, DAY + 1, seed)
    _fleets(bill)
    bill.raise_price(_on_demand(bill, "AWS", "EC2", family="m5.large"), 1.2, DAY)
    assert answer(bill.write(tmp_path, DAY, "111")) == (M5,)


@pytest.mark.parametrize("seed", SEEDS)
def test_one_family_repriced_without_a_weekly_rhythm(tmp_path, seed):
    bill = Bill(START, DAY + 1, seed)
    _fleets(bill, weekly=False)
    bill.raise_price(_on_demand(bill, "AWS", "EC2", family="m5.large"), 1.15, DAY)
    assert answer(bill.write(tmp_path, DAY, "111")) == (M5,)


@pytest.mark.parametrize("seed", SEEDS)
def test_one_family_repriced_beside_its_own_reserved_lines(tmp_path, seed):
    """The on-demand m5.large lines rise; the reserved m5.large keeps its rate. Still the family."""
    bill = Bill(START, DAY + 1, seed)
    _fleets(bill)
    _reserved(bill)
    bill.raise_price(_on_demand(bill, "AWS", "EC2", family="m5.large"), 1.2, DAY)
    assert answer(bill.write(tmp_path, DAY, "111")) == (M5,)


@pytest.mark.parametrize("seed", SEEDS)
def test_one_region_repriced_is_the_applications_running_there(tmp_path, seed):
    """Every on-demand line of the two applications deployed in one region costs 15% more; the
    same families elsewhere do not. The hierarchy has no region: the smallest nodes whose
    priced lines all moved are those two applications."""
    bill = Bill(START, DAY + 1, seed)
    apps = (("shop-eu", 12), ("search-eu", 8), ("shop-us", 16), ("search-us", 10))
    _fleets(bill, apps=apps)
    for app in ("shop-eu", "search-eu"):
        bill.raise_price(_on_demand(bill, "AWS", "EC2", app), 1.15, DAY)
    assert set(answer(bill.write(tmp_path, DAY, "111"))) == {
        Resource("shop-eu", "Application"),
        Resource("search-eu", "Application"),
    }


@pytest.mark.parametrize("seed", SEEDS)
def test_one_application_repriced_is_the_application(tmp_path, seed):
    bill = Bill(START, DAY + 1, seed)
    _fleets(bill)
    bill.raise_price(_on_demand(bill, "AWS", "EC2", "search"), 1.2, DAY)
    assert answer(bill.write(tmp_path, DAY, "111")) == (Resource("search", "Application"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_an_application_scaled_whole_is_the_application(tmp_path, seed):
    """Every usage line of one application runs 60% more instances; its prices stay."""
    bill = Bill(START, DAY + 1, seed)
    _fleets(bill)
    for line in _on_demand(bill, "AWS", "EC2", "search"):
        line.cost[DAY] *= 1.6
        line.count[DAY] *= 1.6
    assert answer(bill.write(tmp_path, DAY, "111")) == (Resource("search", "Application"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_service_rise_beside_reserved_lines_and_a_credit_is_the_service(tmp_path, seed):
    """Every on-demand EC2 line costs 15% more; the reserved lines, the savings plan and a credit
    keep their amounts: their price is fixed by the commitment, not evidence against EC2."""
    bill = Bill(START, DAY + 1, seed)
    _fleets(bill)
    _reserved(bill)
    bill.flat_fee(("111", "AWS", "Credits", "shared", "Promotional credit"), -25.0)
    bill.raise_price(_on_demand(bill, "AWS", "EC2"), 1.15, DAY)
    assert answer(bill.write(tmp_path, DAY, "111")) == (EC2,)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_provider_rise_beside_reserved_lines_is_the_provider(tmp_path, seed):
    bill = Bill(START, DAY + 1, seed)
    _fleets(bill)
    _reserved(bill)
    on_demand = [line for line in bill.under("AWS") if line.count.any() and line.app != "platform"]
    bill.raise_price(on_demand, 1.12, DAY)
    assert answer(bill.write(tmp_path, DAY, "111")) == (AWS,)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_provider_rise_the_export_rounds_away_on_tiny_unit_prices(tmp_path, seed):
    """Functions billed per GB-second at $0.0000167: the export's five decimals print the same
    price before and after a 10% rise, though the cost rose by 10%. A price the export cannot
    resolve says nothing about whether it moved."""
    bill = Bill(START, DAY + 1, seed)
    _fleets(bill)
    shape = bill.weekly(1.0, 0.55)
    for app, gbs in (("shop", 90_000), ("search", 60_000)):
        bill.usage(("111", "AWS", "Lambda", app, "GB-second"), 0.0000167, gbs, shape=shape)
    bill.raise_price([line for line in bill.under("AWS") if line.count.any()], 1.1, DAY)
    assert answer(bill.write(tmp_path, DAY, "111")) == (AWS,)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_family_repriced_and_another_fleet_tripled_the_same_day(tmp_path, seed):
    """Usage and price change on the same day: m5.large dearer everywhere, and shop's c5.xlarge
    fleet triples. Two causes."""
    bill = Bill(START, DAY + 1, seed)
    _fleets(bill)
    bill.raise_price(_on_demand(bill, "AWS", "EC2", family="m5.large"), 1.2, DAY)
    (fleet,) = _on_demand(bill, "AWS", "EC2", "shop", family="c5.xlarge")
    fleet.cost[DAY] *= 3
    fleet.count[DAY] *= 3
    assert set(answer(bill.write(tmp_path, DAY, "111"))) == {M5, C5}


@pytest.mark.parametrize("seed", SEEDS)
def test_a_service_repriced_and_a_fleet_tripled_the_same_day(tmp_path, seed):
    """EC2 15% dearer on every on-demand line, and shop's c5.xlarge fleet triples that day:
    the service's price list and the fleet are two causes."""
    bill = Bill(START, DAY + 1, seed)
    _fleets(bill)
    bill.raise_price(_on_demand(bill, "AWS", "EC2"), 1.15, DAY)
    (fleet,) = _on_demand(bill, "AWS", "EC2", "shop", family="c5.xlarge")
    fleet.cost[DAY] *= 3
    fleet.count[DAY] *= 3
    assert set(answer(bill.write(tmp_path, DAY, "111"))) == {EC2, C5}


@pytest.mark.parametrize("seed", SEEDS)
def test_one_of_two_families_repriced_beside_its_reserved_lines(tmp_path, seed):
    bill = Bill(START, DAY + 1, seed)
    small_fleets(bill)
    _reserved(bill)
    bill.raise_price(_on_demand(bill, "AWS", "EC2", family="m5.large"), 1.25, DAY)
    assert answer(bill.write(tmp_path, DAY, "111")) == (M5,)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_service_rise_over_two_families_beside_reserved_lines_is_the_service(tmp_path, seed):
    """The counterpart of the test above: both families' on-demand lines rise, the reserved
    ones keep their rate."""
    bill = Bill(START, DAY + 1, seed)
    small_fleets(bill)
    _reserved(bill)
    bill.raise_price(_on_demand(bill, "AWS", "EC2"), 1.2, DAY)
    assert answer(bill.write(tmp_path, DAY, "111")) == (EC2,)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_service_rise_beside_usage_at_a_savings_plan_rate_is_the_service(tmp_path, seed):
    """The covered usage follows load at the plan's rate (14% of the service's price-bearing
    cost): one line kept its price beside the many that rose, an exception to the service's
    new price (it was a strict xfail, the service split into its applications, until kept lines
    fewer than the risen ones less one were read as exceptions)."""
    bill = Bill(START, DAY + 1, seed)
    _fleets(bill)
    bill.usage(("111", "AWS", "EC2", "platform", "m5.large"), 0.062, 40, shape=bill.weekly(1, 0.55))
    bill.flat_fee(("111", "AWS", "Savings Plans", "shared", "Compute SP"), 18.0)
    on_demand = [line for line in _on_demand(bill, "AWS", "EC2") if line.app != "platform"]
    bill.raise_price(on_demand, 1.15, DAY)
    assert answer(bill.write(tmp_path, DAY, "111")) == (EC2,)


@pytest.mark.parametrize(
    ("prices", "step"),
    [
        ([0.00002, 0.096, 0.17], 1e-5),
        ([0.1, 0.25, 1.5], 0.01),
        ([0.0416, 0.096], 1e-4),
        ([1 / 3, 0.5], None),
        ([0.0, float("nan")], None),
    ],
)
def test_the_exports_price_step_is_read_from_its_decimals(prices, step):
    found = price_step(np.array(prices))
    assert found == pytest.approx(step) if step is not None else found is None
