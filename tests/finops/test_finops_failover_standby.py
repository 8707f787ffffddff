"""A standby region left at the primary's size after a failover, alerted days later, is named.

During a failover the primary region's cost falls while the standby's rises to take its load: on
that day the account's total barely moves (a fall hides the rise). Once the primary is back, the
standby is left at full size and the account costs far more than it did; by the alert, days
later, the days just before it already hold the new level. The account still stands far above
its habits from before the look-back, so the change day is looked at although its total did
not stand out (``finops.rca.diagnose``), and the standby region is its cause. A drill whose
standby was scaled back names nothing. Bills written here by hand, FOCUS exports with a region
level (``tests/finops/wide_fixtures.py``).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from finops.model import Resource
from tests.finops.wide_fixtures import Bill, Line, answer, write_focus

SEEDS = (3, 4, 5)
START = dt.date(2026, 1, 5)  # a Monday
ACCOUNT = "billing-7731"
PRIMARY, STANDBY = "europe-north1", "southamerica-east1"
LEVELS = ("BillingAccountId", "RegionId", "ServiceName", "x_Team", "ResourceId")
#: The drill starts on a Saturday ten weeks in and moves the load for two days.
DRILL = 7 * 10 + 5


def _estate(seed: int, days: int) -> Bill:
    """A ticket reseller on two regions: the primary serves, the standby keeps a warm copy at
    a sixth of its size; a global DNS line beside them. Costs in BRL, office-hours compute."""
    bill = Bill(START, days, seed)
    office = bill.weekly(1.0, 0.8)
    for region, share in ((PRIMARY, 1.0), (STANDBY, 1 / 6)):
        bill.usage((ACCOUNT, region, "Compute Engine", "web", f"mig-web-{region}"), 1.9, 30 * share, 0.03, office)  # fmt: skip
        bill.usage((ACCOUNT, region, "Cloud SQL", "data", f"sql-orders-{region}"), 3.1, 6 * share, 0.02)  # fmt: skip
        bill.usage((ACCOUNT, region, "Memorystore", "web", f"redis-session-{region}"), 0.8, 12 * share, 0.02)  # fmt: skip
    bill.static((ACCOUNT, "global", "Cloud DNS", "platform", "zone-tickets"), 0.35)
    return bill


def _in(bill: Bill, region: str) -> list[Line]:
    return [line for line in bill.lines if line.csp == region]


def _scale(lines: list[Line], days: range, factor: float) -> None:
    for line in lines:
        for day in days:
            line.cost[day] *= factor
            line.count[day] *= factor


def _drill(bill: Bill, standby_stays: bool) -> None:
    """The primary runs at a tenth for two days while the standby runs at the primary's size;
    then the primary is back, and the standby stays at that size or is scaled back."""
    moved = range(DRILL, DRILL + 2)
    _scale(_in(bill, PRIMARY), moved, 0.1)
    _scale(_in(bill, STANDBY), range(DRILL, bill.days) if standby_stays else moved, 6.0)


def _write(bill: Bill, folder: Path, alert: int) -> Path:
    rows = (
        (bill.day(i), line.key, float(line.cost[i]))
        for i in range(bill.days)
        for line in bill.lines
        if line.cost[i] != 0
    )
    return write_focus(folder, LEVELS, rows, bill.day(alert), ACCOUNT, LEVELS)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("days_late", (3, 4, 5))
def test_a_standby_left_at_full_size_after_a_failover_is_named(tmp_path, seed, days_late):
    alert = DRILL + days_late
    bill = _estate(seed, alert + 1)
    _drill(bill, standby_stays=True)
    assert answer(_write(bill, tmp_path, alert)) == (Resource(STANDBY, "RegionId"),)


# --- guards: a drill undone, and the change on the alert day itself ------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_a_failover_drill_scaled_back_names_nothing(tmp_path, seed):
    alert = DRILL + 4
    bill = _estate(seed, alert + 1)
    _drill(bill, standby_stays=False)
    assert answer(_write(bill, tmp_path, alert)) == ()


@pytest.mark.parametrize("seed", SEEDS)
def test_a_standby_grown_on_the_alert_day_is_named(tmp_path, seed):
    alert = DRILL + 2
    bill = _estate(seed, alert + 1)
    _scale(_in(bill, STANDBY), range(alert, bill.days), 6.0)
    assert answer(_write(bill, tmp_path, alert)) == (Resource(STANDBY, "RegionId"),)
