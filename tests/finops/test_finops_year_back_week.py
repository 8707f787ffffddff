"""A day that stood out the same way 52 weeks earlier is the bill's own yearly habit.

Yearly events that follow weekdays, not dates (a sales Friday, a holiday week, the close of a
52-week fiscal period), fall on the same weekday 364 days apart. A bill that holds the earlier
one shows the habit; the day is not an anomaly for it, while a change beside it still is.
No calendar of named days: the bill's own history says which day is special. Bills written here
by hand (tests/finops/wide_fixtures.py), not copied from any held-out set.
"""

from __future__ import annotations

import datetime as dt

import pytest

from finops.model import Resource
from tests.finops.wide_fixtures import Bill, answer

SEEDS = (21, 22, 23)
START = dt.date(2024, 1, 1)  # a Monday
DAY = 420  # a Monday in late February 2025, 60 weeks of history
YEAR_BACK = DAY - 364


def _shop_bill(seed: int, yearly: float, earlier: float) -> Bill:
    """A shop: web fleet and CDN traffic that peak ``yearly`` on the event day, queue workers and
    a database that do not; a year back the traffic peaked ``earlier``."""
    bill = Bill(START, DAY + 1, seed)
    office = bill.weekly(1.0, 0.8)
    traffic = [
        bill.usage(("610", "AWS", "EC2", "web", "m7i.large"), 0.1008, 80, 0.03, office),
        bill.usage(
            ("610", "AWS", "CloudFront", "web", "Requests-Tier1"), 0.0001, 9000, 0.03, office
        ),
    ]
    bill.usage(("610", "AWS", "EC2", "workers", "c7i.xlarge"), 0.1785, 30, 0.03, office)
    bill.static(("610", "AWS", "RDS", "web", "db.r7g.2xlarge"), 0.956, 2)
    for line in traffic:
        for day, factor in ((YEAR_BACK, earlier), (DAY, yearly)):
            line.count[day] *= factor
            line.cost[day] *= factor
    return bill


@pytest.mark.parametrize("seed", SEEDS)
def test_a_peak_seen_52_weeks_earlier_names_nothing(tmp_path, seed):
    bill = _shop_bill(seed, yearly=2.0, earlier=1.9)
    assert answer(bill.write(tmp_path, DAY, "610")) == ()


@pytest.mark.parametrize("seed", SEEDS)
def test_a_change_beside_the_yearly_peak_is_still_named(tmp_path, seed):
    """The same peak, and the queue workers tripled on the day: the workers' line is the cause."""
    bill = _shop_bill(seed, yearly=2.0, earlier=1.9)
    (workers,) = [line for line in bill.lines if line.app == "workers"]
    workers.count[DAY] *= 3
    workers.cost[DAY] *= 3
    assert answer(bill.write(tmp_path, DAY, "610")) == (Resource("c7i.xlarge", "Instance_Family"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_peak_the_year_back_day_never_had_is_named(tmp_path, seed):
    bill = _shop_bill(seed, yearly=2.0, earlier=1.0)
    assert answer(bill.write(tmp_path, DAY, "610")) != ()
