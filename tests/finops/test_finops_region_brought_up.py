"""A region brought up for a customer, alerted days later, is the region; a small pilot stack
launched days before a quiet alert names nothing.

On the go-live day new instances, a database, a load balancer and a bucket start in a region
that held only an archive bucket: every service of the region started or grew together, and the
region is named once (``finops.rca.drilldown._moved_as_one``, the region's services being the
owners of its single-resource lines). By the alert, days later, the new lines run level with
themselves and the day looks ordinary against the days just before it; but the account costs
half as much again as its habits on that day, and a launch of that size is what the alert is
about (``finops.rca.lookback.raised_far_above_habit``). A stack adding a fifth is a plan running
level. Bills written here by hand, FOCUS exports with a region level
(``tests/finops/wide_fixtures.py``).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from finops.model import Resource
from tests.finops.wide_fixtures import Bill, answer, write_focus

SEEDS = (41, 42, 43)
START = dt.date(2026, 2, 2)  # a Monday
GO_LIVE = 7 * 10 + 1  # a Tuesday
ACCOUNT = "01A2B3-C4D5E6"
LEVELS = ("BillingAccountId", "ProviderName", "RegionId", "ServiceName", "ResourceId")
NEW = "me-central2"


def _bill(seed: int, days: int) -> Bill:
    """An insurer on Google Cloud in two regions (compute, a database, storage, a load
    balancer), an archive bucket in a third region, and global DNS."""
    bill = Bill(START, days, seed)
    office = bill.weekly(1.0, 0.75)
    for region, size in (("europe-west3", 1.0), ("us-east4", 0.6)):
        bill.usage((ACCOUNT, "GCP", region, "Compute Engine", f"mig-claims-{region}"), 0.38, 24 * size, 0.03, office)  # fmt: skip
        bill.usage((ACCOUNT, "GCP", region, "Cloud SQL", f"sql-policies-{region}"), 0.9, 4 * size, 0.02)  # fmt: skip
        bill.usage((ACCOUNT, "GCP", region, "Cloud Storage", f"gs-docs-{region}"), 0.02 / 24, 40000 * size, 0.01)  # fmt: skip
        bill.usage((ACCOUNT, "GCP", region, "Cloud Load Balancing", f"lb-{region}"), 0.025, 12, 0.02)  # fmt: skip
    bill.usage((ACCOUNT, "GCP", NEW, "Cloud Storage", "gs-archive-me"), 0.004 / 24, 20000, 0.005)
    bill.static((ACCOUNT, "GCP", "global", "Cloud DNS", "zone-insure"), 0.3)
    return bill


def _bring_up(bill: Bill, size: float) -> None:
    """The region's stack from the go-live day on, ``size`` times the primary's."""
    region = NEW
    lines = [
        bill.usage(
            (ACCOUNT, "GCP", region, "Compute Engine", "mig-claims-me"), 0.42, 24 * size, 0.03
        ),  # fmt: skip
        bill.usage(
            (ACCOUNT, "GCP", region, "Cloud SQL", "sql-policies-me"), 1.0, 4 * size, 0.02
        ),  # fmt: skip
        bill.usage(
            (ACCOUNT, "GCP", region, "Cloud Load Balancing", "lb-me"), 0.025, 12, 0.02
        ),  # fmt: skip
        bill.usage(
            (ACCOUNT, "GCP", region, "Cloud Storage", "gs-docs-me"), 0.022 / 24, 30000 * size, 0.01
        ),  # fmt: skip
    ]
    for line in lines:
        line.cost[:GO_LIVE] = 0.0
        line.count[:GO_LIVE] = 0.0


def _write(bill: Bill, folder: Path, alert: int) -> Path:
    rows = (
        (bill.day(i), line.key, float(line.cost[i]))
        for i in range(bill.days)
        for line in bill.lines
        if line.cost[i] != 0
    )
    return write_focus(folder, LEVELS, rows, bill.day(alert), ACCOUNT, LEVELS)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("days_late", (0, 2, 3))
def test_a_region_brought_up_is_named_on_its_go_live(tmp_path, seed, days_late):
    alert = GO_LIVE + days_late
    bill = _bill(seed, alert + 1)
    _bring_up(bill, 1.0)
    assert answer(_write(bill, tmp_path, alert)) == (Resource(NEW, "RegionId"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_small_pilot_stack_days_before_a_quiet_alert_names_nothing(tmp_path, seed):
    alert = GO_LIVE + 3
    bill = _bill(seed, alert + 1)
    _bring_up(bill, 0.2)
    assert answer(_write(bill, tmp_path, alert)) == ()
