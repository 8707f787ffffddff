"""A month-end close on the same weekday last week is not what this week's day is expected at.

One of a day's honest expectations is the same weekday last week. When that day was a month-end
close (a ledger batch at five times its level on the month's last two days), its value is a habit
of its date, not of the weekday: taken as the account's expectation a week later, it hid a real
rise smaller than the close's lift, and the account's total looked lower than expected. Last
week's value is divided by the factor its own place in the month stood out by every earlier time,
line by line (a close stands out in its line, not in the account's total, which it still lifts;
``finops.rca.seasonal``). Bills written here by hand (``tests/finops/wide_fixtures.py``).
"""

from __future__ import annotations

import datetime as dt

import pytest

from finops.model import Resource
from tests.finops.wide_fixtures import Bill, Line, answer

SEEDS = (21, 22, 23)
START = dt.date(2025, 3, 3)  # a Monday
ACCOUNT = "tenant-5521"
#: a week after the close's first day (30 July) and after its last (31 July)
ALERTS = (dt.date(2025, 8, 6), dt.date(2025, 8, 7))


def _bill(seed: int, alert: dt.date) -> Bill:
    """A marketplace on one cloud: a ledger batch that runs at five times its level on the last
    two days of every month, a storefront with weekend peaks, a pricing service, a database."""
    bill = Bill(START, (alert - START).days + 1, seed)
    bill.usage((ACCOUNT, "GCP", "Compute Engine", "ledger", "n2-highmem-8"), 0.52, 6, 0.02)
    bill.usage((ACCOUNT, "GCP", "GKE", "storefront", "e2-standard-8"), 0.27, 30, 0.03, bill.weekly(1.0, 1.3))  # fmt: skip
    bill.usage((ACCOUNT, "GCP", "GKE", "pricing", "c3-standard-4"), 0.21, 40, 0.03)
    bill.static((ACCOUNT, "GCP", "Cloud SQL", "storefront", "db-custom-8-32768"), 0.62, 2)
    ledger = _line(bill, "ledger")
    for i in range(bill.days):
        day = bill.day(i)
        if (day + dt.timedelta(days=2)).month != day.month:  # the month's last two days
            ledger.count[i] *= 5
            ledger.cost[i] *= 5
    return bill


def _line(bill: Bill, app: str) -> Line:
    return next(line for line in bill.lines if line.app == app)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("alert", ALERTS)
def test_a_rise_a_week_after_the_close_is_named(tmp_path, seed, alert):
    """The pricing fleet doubled on the day: two thirds of what the close lifted the account by
    last week, so the account stood nearer last week's close than its usual weekday."""
    bill = _bill(seed, alert)
    pricing = _line(bill, "pricing")
    last = bill.days - 1
    pricing.count[last] *= 2
    pricing.cost[last] *= 2
    assert answer(bill.write(tmp_path, last, ACCOUNT)) == (
        Resource("c3-standard-4", "Instance_Family"),
    )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("alert", ALERTS)
def test_an_ordinary_day_a_week_after_the_close_names_nothing(tmp_path, seed, alert):
    bill = _bill(seed, alert)
    assert answer(bill.write(tmp_path, bill.days - 1, ACCOUNT)) == ()
