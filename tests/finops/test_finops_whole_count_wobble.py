"""A small fleet whose whole-instance count wobbles from week to week is not a cause when the
day's count lies within that wobble; a fleet that doubled still is.

Most weeks repeat a count, so the spread of the cost's relative changes (a median of absolute
deviations) sees half of them unmoved and puts the fleet's noise below one instance: two
instances more than the weekday median, a count the fleet had on several weeks, stood 5 to 7
sigmas out and a quiet bill named the family or its service. The noise of a fleet, and of the
nodes holding it, is floored at the count's own mean week-over-week change at its usual level
(``finops.rca.nodes``). Bills written here by hand (``tests/finops/wide_fixtures.py``).
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from finops.model import Resource
from tests.finops.wide_fixtures import Bill, Line, answer

SEEDS = (11, 12, 13)
START = dt.date(2025, 2, 3)  # a Monday
ALERT = 7 * 12 + 1  # a Tuesday, twelve weeks in
ACCOUNT = "ocid1.tenancy.kiosk"
KIOSKS = ("OCI", "Desktops", "branch-kiosks", "VM.Standard.E5.Flex")


def _bill(seed: int) -> Bill:
    """Branch kiosks (a pool of 14 desktops on working days, one more or one less on some, 4
    at weekends), the
    back office's larger fleet, a database and object storage."""
    bill = Bill(START, ALERT + 1, seed)
    bill.usage((ACCOUNT, "OCI", "Compute", "back-office", "VM.Standard3.Flex"), 0.29, 40, 0.01, bill.weekly(1.0, 0.6))  # fmt: skip
    bill.static((ACCOUNT, "OCI", "Autonomous DB", "back-office", "ADB-ECPU"), 1.35, 2)
    bill.usage((ACCOUNT, "OCI", "Object Storage", "archive", "StandardTier"), 0.0255 / 24, 9000, 0.01)  # fmt: skip
    kiosks = bill.static((ACCOUNT, *KIOSKS), 0.344, 4)
    for day in range(bill.days):
        if bill.day(day).weekday() < 5:
            kiosks.count[day] = float(bill.rng.choice([13, 14, 15], p=[0.3, 0.4, 0.3]))
    return bill


def _set(line: Line, day: int, count: float) -> None:
    line.count[day] = count
    line.cost[day] = line.price[day] * count * 24


def _kiosks(bill: Bill) -> Line:
    return next(line for line in bill.lines if line.key[1:] == KIOSKS)


def _low_tuesdays_then(bill: Bill, count: float, holiday: bool) -> None:
    """The four Tuesdays before the alert at the pool's low end, the alert at ``count``; with
    ``holiday``, the Monday before is a public holiday (weekend level)."""
    kiosks = _kiosks(bill)
    for week in range(1, 5):
        _set(kiosks, ALERT - 7 * week, 13.0)
    _set(kiosks, ALERT, count)
    if holiday:
        for line in bill.lines:
            if line.app in ("branch-kiosks", "back-office") and line.family != "ADB-ECPU":
                weekend = ALERT - 2
                line.count[ALERT - 1] = line.count[weekend]
                line.cost[ALERT - 1] = line.cost[weekend]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("holiday", (False, True))
def test_a_count_within_the_fleets_wobble_names_nothing(tmp_path, seed, holiday):
    bill = _bill(seed)
    _low_tuesdays_then(bill, 15.0, holiday)
    assert np.sum(_kiosks(bill).count[:ALERT] == 15.0) >= 4  # the pool had 15 on other days
    assert answer(bill.write(tmp_path, ALERT, ACCOUNT)) == ()


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("holiday", (False, True))
def test_a_fleet_that_doubled_is_still_named(tmp_path, seed, holiday):
    bill = _bill(seed)
    _low_tuesdays_then(bill, 28.0, holiday)
    assert answer(bill.write(tmp_path, ALERT, ACCOUNT)) == (
        Resource("VM.Standard.E5.Flex", "Instance_Family"),
    )
