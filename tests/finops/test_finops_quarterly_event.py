"""An event held once a quarter is a habit the bill shows.

A failover drill on the second Wednesday of every third month, or a compliance scan on the 20th
of every third month: its own fleet is billed only on those days, and the application it exercises
doubles, the same on every earlier one. The day is not an anomaly; the same event on a day the bill
never held it before still is. Bills written here by hand (tests/finops/wide_fixtures.py), not
copied from any held-out set.
"""

from __future__ import annotations

import datetime as dt

import pytest

from finops.model import Resource
from tests.finops.wide_fixtures import Bill, answer

SEEDS = (41, 42)
START = dt.date(2025, 1, 6)  # a Monday
#: The quarter's event days, the last one the alert day: the second Wednesday of January, April,
#: July and October 2025, or the 20th of those months (one on a weekend, one on a Monday).
SECOND_WEDNESDAYS = [dt.date(2025, 1, 8), dt.date(2025, 4, 9), dt.date(2025, 7, 9)]
TWENTIETHS = [dt.date(2025, 1, 20), dt.date(2025, 4, 20), dt.date(2025, 7, 20)]
PLACEMENTS = {
    "second Wednesday": (SECOND_WEDNESDAYS, dt.date(2025, 10, 8)),
    "20th": (TWENTIETHS, dt.date(2025, 10, 20)),
}


def _drill_bill(seed: int, earlier: list[dt.date], day: dt.date) -> tuple[Bill, int]:
    """A retail estate whose drill fleet runs on ``earlier`` days and on ``day``, and whose
    web tier doubles on each of them; a database and a support fee beside them."""
    index = (day - START).days
    bill = Bill(START, index + 1, seed)
    office = bill.weekly(1.0, 0.6)
    web = bill.usage(("903", "AWS", "EC2", "storefront", "m7i.xlarge"), 0.2016, 30, 0.03, office)
    bill.static(("903", "AWS", "RDS", "storefront", "db.r7g.xlarge"), 0.478, 2)
    bill.flat_fee(("903", "AWS", "Support", "account", "business"), 33.0)
    fleet = bill.usage(("903", "AWS", "EC2", "drill", "c7i.2xlarge"), 0.357, 12, 0.0)
    held = {(d - START).days for d in [*earlier, day]}
    for i in range(bill.days):
        if i in held:
            web.count[i] *= 2
            web.cost[i] *= 2
        else:
            fleet.count[i] = 0
            fleet.cost[i] = 0
    return bill, index


@pytest.mark.parametrize("placement", sorted(PLACEMENTS))
@pytest.mark.parametrize("seed", SEEDS)
def test_an_event_held_every_quarter_names_nothing(tmp_path, seed, placement):
    earlier, day = PLACEMENTS[placement]
    bill, index = _drill_bill(seed, earlier, day)
    assert answer(bill.write(tmp_path, index, "903")) == ()


@pytest.mark.parametrize("placement", sorted(PLACEMENTS))
@pytest.mark.parametrize("seed", SEEDS)
def test_the_event_on_a_day_it_was_never_held_is_named(tmp_path, seed, placement):
    _, day = PLACEMENTS[placement]
    bill, index = _drill_bill(seed, [], day)
    found = answer(bill.write(tmp_path, index, "903"))
    assert found
    assert set(found) <= {
        Resource("drill", "Application"),
        Resource("c7i.2xlarge", "Instance_Family"),
        Resource("storefront", "Application"),
        Resource("m7i.xlarge", "Instance_Family"),
        Resource("EC2", "Cloud_Service"),
    }
