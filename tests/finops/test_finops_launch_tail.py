"""A launch days before an alert that still stands out is named on the day it launched.

Something launched mid-day (keys leaked into a region the account never used, a marketplace
product switched on for every web application) is billed from its launch hour, so its first
day is partial, and a fleet fills up over a day or two. Two days later the alert day is judged
against the launch's own first days: the account's total still stands out, yet the day names
nothing (the launch's lines are each within their short history) or names the launch's biggest
line rising against its own partial first day. The look-back kept launches out as planned steps
(``lookback``: a pool launched days before a quiet alert runs level with itself since). When
the alert day itself stands out, the launch, found on its own day and still running, is what the
alert is about (``lookback.launched_inside``, ``explains_late_alert(alert_stood_out=...)``).
A launch days before a quiet alert still names nothing (``test_finops_late_alert.py``).

Bills written here by hand: FOCUS ``focus.csv`` with the region below the service, and
ITBench-Lite ``data.csv`` (``tests/finops/wide_fixtures.py``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from finops.model import Resource
from tests.finops.wide_fixtures import Bill, answer, write_focus

SEEDS = (31, 32, 33)
START = dt.date(2025, 3, 3)  # a Monday
DAYS = 7 * 9 + 4
ALERT = DAYS - 1
ACCOUNT = "2093"
LEVELS = [
    "BillingAccountId",
    "ProviderName",
    "ServiceCategory",
    "ServiceName",
    "RegionId",
    "ResourceId",
]


@dataclass
class Export:
    """A FOCUS export, one daily cost series per (category, service, region, resource)."""

    seed: int
    lines: dict[tuple[str, str, str, str], np.ndarray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng(self.seed)

    def line(self, key: tuple[str, str, str, str], daily: float, noise: float = 0.04) -> np.ndarray:
        self.lines[key] = np.maximum(daily * (1 + self.rng.normal(0, noise, DAYS)), 0.0)
        return self.lines[key]

    def write(self, folder: Path) -> Path:
        rows = (
            (START + dt.timedelta(days=i), (ACCOUNT, "AWS", *key), float(cost[i]))
            for i in range(DAYS)
            for key, cost in self.lines.items()
            if cost[i] > 0
        )
        alert = START + dt.timedelta(days=ALERT)
        return write_focus(folder, LEVELS, rows, alert, ACCOUNT, LEVELS)


def _freight(seed: int) -> Export:
    """A freight company on one provider in two regions: instances, containers, a database."""
    bill = Export(seed)
    for region, scale in (("eu-west-1", 1.0), ("us-east-2", 0.4)):
        bill.line(("Compute", "EC2", region, f"i-tracking-{region}"), 240 * scale)
        bill.line(("Compute", "ECS", region, f"cluster/dispatch-{region}"), 70 * scale, 0.08)
        bill.line(("Databases", "RDS", region, f"db-orders-{region}"), 60 * scale, 0.0)
    return bill


def _launched(cost: np.ndarray, first: int, first_share: float, second_share: float = 1.0) -> None:
    """No cost before ``first``; the first day billed ``first_share`` of a day, the second
    ``second_share`` (a fleet still filling up)."""
    cost[:first] = 0.0
    cost[first] *= first_share
    cost[first + 1] *= second_share


@pytest.mark.parametrize("seed", SEEDS)
def test_instances_launched_in_a_region_never_used_are_the_region(tmp_path, seed):
    """Miners on large instances and a container cluster in ap-east-9 from 04:00, two days
    before the alert; the cluster reached its size on the second day."""
    bill = _freight(seed)
    first = ALERT - 2
    for n in range(6):
        _launched(bill.line(("Compute", "EC2", "ap-east-9", f"i-x{n}"), 75, 0.01), first, 20 / 24)
    cluster = bill.line(("Compute", "ECS", "ap-east-9", "cluster/default"), 250, 0.02)
    _launched(cluster, first, 0.4, 0.9)
    assert answer(bill.write(tmp_path)) == (Resource("ap-east-9", "RegionId"),)


def _shop(seed: int) -> Bill:
    """A web shop on one provider (ITBench-Lite): storefront, checkout and an API, a firewall
    on each, a database."""
    bill = Bill(START, DAYS, seed)
    office = bill.weekly(1.0, 0.7)
    for app, count in (("storefront", 20), ("checkout", 8), ("partner-api", 6)):
        bill.usage((ACCOUNT, "AWS", "EC2", app, "m7i.xlarge"), 0.2016, count, 0.04, office)
        bill.usage((ACCOUNT, "AWS", "WAF", app, "WebACL"), 0.0125, 24, 0.0)
    bill.static((ACCOUNT, "AWS", "RDS", "checkout", "db.r7g.xlarge"), 0.478, 2)
    return bill


@pytest.mark.parametrize("seed", SEEDS)
def test_a_product_switched_on_for_every_firewall_is_its_service(tmp_path, seed):
    """A managed rule group bought for every web ACL from 15:00, two days before the alert: a
    subscription and a per-request fee per application."""
    bill = _shop(seed)
    first = ALERT - 2
    for app, requests in (("storefront", 40), ("checkout", 12), ("partner-api", 9)):
        line = bill.usage(
            (ACCOUNT, "AWS", "WAF-ManagedRules", app, "RuleGroup"), 1.0, requests, 0.03
        )
        _launched(line.cost, first, 9 / 24)
        line.count[:first] = 0
    assert answer(bill.write(tmp_path, ALERT, ACCOUNT)) == (
        Resource("WAF-ManagedRules", "Cloud_Service"),
    )


# --- guards (before and after) ------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_a_launch_two_days_before_a_quiet_alert_names_nothing(tmp_path, seed):
    """A planned batch fleet in a new region, started at midnight two days before: the alert day
    is level with the days since."""
    bill = _freight(seed)
    for n in range(3):
        _launched(
            bill.line(("Compute", "EC2", "ap-east-9", f"i-batch{n}"), 60, 0.01), ALERT - 2, 1.0
        )
    assert answer(bill.write(tmp_path)) == ()


@pytest.mark.parametrize("seed", SEEDS)
def test_one_resources_step_in_one_region_days_before_is_the_resource(tmp_path, seed):
    """The tracking instances of one region tripled two days before the alert and held."""
    bill = _freight(seed)
    bill.lines[("Compute", "EC2", "eu-west-1", "i-tracking-eu-west-1")][ALERT - 2 :] *= 3.0
    assert answer(bill.write(tmp_path)) == (Resource("i-tracking-eu-west-1", "ResourceId"),)
