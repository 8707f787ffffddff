"""A commitment that starts moves cost between lines: not an anomaly while the total stays flat.

A savings plan or committed-use discount bought on the day bills a new fixed amortisation line
while the on-demand usage it covers falls by the share it now covers. The new line is cost the
on-demand line gave up; naming it as a new resource blames a purchase that saved money. Bills
written here by hand (tests/finops/wide_fixtures.py), not copied from any held-out set.
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from finops.model import Resource
from tests.finops.wide_fixtures import Bill, answer

SEEDS = (4, 5, 6, 7, 8)
START = dt.date(2025, 5, 5)  # a Monday
DAY = 51  # a Thursday, seven weeks of history


def _commitment_bill(seed: int, covered: float, amortised_rate: float) -> Bill:
    """A web fleet, a reporting fleet, a database and growing storage; a plan bought earlier amortised for the
    reporting fleet. On ``DAY`` a new plan covers ``covered`` of the web fleet: its on-demand count
    falls by that share and a fixed line new to the bill amortises the plan at
    ``amortised_rate`` of the on-demand cost it covers."""
    bill = Bill(START, DAY + 1, seed)
    office = bill.weekly(1.0, 0.6)
    web = bill.usage(("731", "AWS", "EC2", "storefront", "m7i.xlarge"), 0.2016, 60, 0.03, office)
    bill.usage(("731", "AWS", "EC2", "reporting", "c7i.large"), 0.0893, 25, 0.04, office)
    bill.static(("731", "AWS", "RDS", "storefront", "db.r7g.large"), 0.239, 2)
    bill.flat_fee(("731", "AWS", "Savings Plans", "reporting", "ComputeSP-1yr"), 31.5)
    # storage that grows every day lifts the day above its weekday median: the account is not
    # cheaper on the day for all the plan saves
    logs = bill.usage(("731", "AWS", "S3", "storefront", "Standard-Storage-GB"), 0.000032, 1, 0.0)
    logs.count[:] = np.rint(400000 * (1 + 0.012 * np.arange(bill.days)))
    logs.cost[:] = logs.count * logs.price * 24
    usual = float(np.median(web.cost[DAY - 28 : DAY : 7]))
    web.count[DAY:] = np.rint(web.count[DAY:] * (1 - covered))
    web.cost[DAY:] = web.count[DAY:] * web.price[DAY:] * 24
    plan = bill.flat_fee(
        ("731", "AWS", "Savings Plans", "storefront", "ComputeSP-1yr"),
        usual * covered * amortised_rate,
    )
    plan.cost[:DAY] = 0
    return bill


@pytest.mark.parametrize("seed", SEEDS)
def test_a_savings_plan_starting_with_a_flat_total_names_nothing(tmp_path, seed):
    """Three fifths of the web fleet covered at 70% of its on-demand cost: the new amortised
    line is less than the on-demand cost it replaced; with the storage's growth the account is
    flat, a little above or below its expected cost by noise (seed 6 below: nothing was named
    there before this rule either)."""
    bill = _commitment_bill(seed, covered=0.6, amortised_rate=0.7)
    assert answer(bill.write(tmp_path, DAY, "731")) == ()


@pytest.mark.parametrize("seed", SEEDS)
def test_a_commitment_far_above_the_usage_it_covers_is_still_named(tmp_path, seed):
    """The same plan bought three times too big: its amortisation is three times the on-demand
    cost it replaced, and that new cost is the cause of the rise: the new plan's line is named
    (as the new application node under the plans service)."""
    bill = _commitment_bill(seed, covered=0.6, amortised_rate=3.0)
    assert answer(bill.write(tmp_path, DAY, "731")) == (Resource("storefront", "Application"),)
