"""A close that runs every fourth week (a 13-period year) is a habit the bill shows.

Period ends of a 13-period calendar fall 28 days apart on the same weekday, never on a month's
edge; the batch that runs on each stood out on every earlier one. The day is not an anomaly for
it; a close the bill never ran before still is. Bills written here by hand (tests/finops/wide_fixtures.py), not copied from any held-out set.
"""

from __future__ import annotations

import datetime as dt

import pytest

from finops.model import Resource
from tests.finops.wide_fixtures import Bill, answer

SEEDS = (31, 32, 33)
START = dt.date(2025, 1, 6)  # a Monday
DAY = 7 * 30 + 3  # a Thursday, 30 weeks of history
PERIOD_ENDS = list(range(DAY, -1, -28))


def _close_bill(seed: int, close: float, earlier: bool) -> Bill:
    """Warehouse and ETL jobs of a finance application that run ``close`` times their usual
    amount on every period end (on the day, and on earlier ones when ``earlier``); web compute
    and a database beside them."""
    bill = Bill(START, DAY + 1, seed)
    office = bill.weekly(1.0, 0.5)
    jobs = [
        bill.usage(("902", "AWS", "Redshift", "finance", "ra3.xlplus"), 1.086, 4, 0.03, office),
        bill.usage(
            ("902", "AWS", "Glue", "finance", "Glue-DPU-Hour"), 0.44 / 24, 120, 0.04, office
        ),
    ]
    bill.usage(("902", "AWS", "EC2", "web", "m7i.large"), 0.1008, 50, 0.03, office)
    bill.static(("902", "AWS", "RDS", "web", "db.r7g.large"), 0.239, 2)
    for line in jobs:
        for day in PERIOD_ENDS if earlier else [DAY]:
            line.count[day] *= close
            line.cost[day] *= close
    return bill


@pytest.mark.parametrize("seed", SEEDS)
def test_a_period_close_every_fourth_week_names_nothing(tmp_path, seed):
    bill = _close_bill(seed, close=3.0, earlier=True)
    assert answer(bill.write(tmp_path, DAY, "902")) == ()


@pytest.mark.parametrize("seed", SEEDS)
def test_a_close_the_bill_never_ran_before_is_named(tmp_path, seed):
    bill = _close_bill(seed, close=3.0, earlier=False)
    assert answer(bill.write(tmp_path, DAY, "902")) == (Resource("finance", "Application"),)
