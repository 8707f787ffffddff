"""One change that reaches several children of a node by about one factor is that node; a monthly
amount spread over a month's days is normal when February is shorter.

* One factor where they meet (``drilldown._one_factor_where_they_meet``): an autoscaler target
  lowered for one region's clusters doubles its compute, its load balancers and its logs, while
  the region's database (which the autoscaler does not drive) stays flat. The drill-down weighs
  one factor against the children only across all of a node's children, so the flat database
  split the rise into its services and resources. A licence benefit lost on one provider's
  machines and managed databases, beside its storage that never carried the benefit, is the
  provider, not its services.
* Month-amortised amounts (``seasonal.month_amortised``): a reservation or a support plan billed
  as its monthly amount over the month's days steps up on 1 February by 31/28 with nothing
  bought; nothing is named.

Guards that pass before and after: a licence lost on one provider's machines and databases in
an ITBench-Lite bill (already the provider before: there the provider's children are services);
one team's rise inside one region still names the team; two causes of different sizes in one
region are still both named; the amortised amounts falling back on 1 March name nothing; a
database that costs the same every day repriced mid-February is still named. A
monthly amount that rose on 1 February beyond the month's length is named alone (before, the
other amortised lines' 31/28 step was named beside it on two of the three seeds).

Bills written here by hand, in both layouts (ITBench-Lite ``data.csv`` and FOCUS ``focus.csv``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from finops.model import Resource
from tests.finops.wide_fixtures import Bill, answer, write_focus

SEEDS = (11, 12, 13)
ACCOUNT = "7301"
REGION_LEVELS = ["BillingAccountId", "ProviderName", "RegionId", "ServiceName", "ResourceId"]
APP_LEVELS = ["BillingAccountId", "ProviderName", "RegionId", "x_Team", "ResourceId"]


@dataclass
class Export:
    """A FOCUS export: one daily cost series per (provider, region, middle level, resource); the
    middle level is ``ServiceName`` or, with ``APP_LEVELS``, a custom ``x_Team`` column."""

    seed: int
    start: dt.date
    days: int
    lines: dict[tuple[str, str, str, str], np.ndarray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng(self.seed)

    def line(self, key: tuple[str, str, str, str], daily: float, noise: float = 0.04) -> np.ndarray:
        cost = daily * (1 + self.rng.normal(0, noise, self.days))
        self.lines[key] = np.maximum(cost, 0.0)
        return self.lines[key]

    def amortised(self, key: tuple[str, str, str, str], monthly: float) -> np.ndarray:
        """A monthly amount billed per day as amount / days in that month."""
        self.lines[key] = np.array([monthly / _month_days(self.day(i)) for i in range(self.days)])
        return self.lines[key]

    def day(self, i: int) -> dt.date:
        return self.start + dt.timedelta(days=i)

    def write(self, folder: Path, alert: int, levels: list[str]) -> Path:
        rows = (
            (self.day(i), (ACCOUNT, *key), float(cost[i]))
            for i in range(self.days)
            for key, cost in self.lines.items()
            if cost[i] > 0
        )
        return write_focus(folder, levels, rows, self.day(alert), ACCOUNT, levels)


def _month_days(day: dt.date) -> int:
    following = dt.date(day.year + day.month // 12, day.month % 12 + 1, 1)
    return (following - dt.date(day.year, day.month, 1)).days


# --- one factor where the causes meet ----------------------------------------------------------

REGION_START = dt.date(2025, 3, 3)  # a Monday
REGION_ALERT = 7 * 9 + 1  # a Tuesday, nine weeks of history


def _two_regions(seed: int) -> Export:
    """A delivery app's clusters in two regions: node pools, a load balancer, logs and a database
    in each."""
    bill = Export(seed, REGION_START, REGION_ALERT + 1)
    for region, scale in (("eu-north-7", 1.0), ("af-south-4", 0.7)):
        for pool in ("pool-a", "pool-b", "pool-c"):
            bill.line(("CloudX", region, "Kubernetes Engine", f"{region}/{pool}"), 90 * scale)
        bill.line(("CloudX", region, "Load Balancing", f"{region}/lb"), 85 * scale, 0.03)
        bill.line(("CloudX", region, "Logging", f"{region}/logs"), 70 * scale, 0.05)
        bill.line(("CloudX", region, "Managed SQL", f"{region}/sql"), 120 * scale, 0.01)
    return bill


@pytest.mark.parametrize("seed", SEEDS)
def test_one_region_scaled_beside_its_flat_database_is_the_region(tmp_path, seed):
    """The region's autoscaler target was halved: its node pools, load balancer and logs nearly
    double on the day; its database and the other region keep their level."""
    bill = _two_regions(seed)
    for (_, region, service, _), cost in bill.lines.items():
        if region == "eu-north-7" and service != "Managed SQL":
            cost[REGION_ALERT:] *= 1.9
    folder = bill.write(tmp_path, REGION_ALERT, REGION_LEVELS)
    assert answer(folder) == (Resource("eu-north-7", "RegionId"),)


def _two_clouds(seed: int) -> Bill:
    """An ERP estate on two providers: machines, managed databases and storage on one, compute
    on the other."""
    bill = Bill(REGION_START, REGION_ALERT + 1, seed)
    office = bill.weekly(1.0, 0.6)
    bill.usage((ACCOUNT, "Azure", "Virtual Machines", "erp", "D8s_v5"), 0.384, 24, 0.03, office)
    bill.usage((ACCOUNT, "Azure", "Virtual Machines", "reports", "E4s_v5"), 0.252, 12, 0.04)
    bill.static((ACCOUNT, "Azure", "SQL Database", "erp", "GP_Gen5_8"), 1.85, 3)
    bill.static((ACCOUNT, "Azure", "SQL Database", "reports", "GP_Gen5_4"), 0.93, 2)
    bill.usage((ACCOUNT, "Azure", "Storage", "erp", "Hot_LRS"), 0.0008, 40000, 0.02)
    bill.usage((ACCOUNT, "AWS", "EC2", "portal", "m6i.xlarge"), 0.192, 30, 0.04)
    return bill


@pytest.mark.parametrize("seed", SEEDS)
def test_a_licence_lost_on_machines_and_databases_is_the_provider(tmp_path, seed):
    """Guard: the provider's licence benefit lapsed: every machine and managed database of it
    bills the licence (x1.5 on the price) from the day; its storage never carried the benefit."""
    bill = _two_clouds(seed)
    licensed = [line for line in bill.under("Azure") if line.service != "Storage"]
    bill.raise_price(licensed, 1.5, REGION_ALERT)
    assert answer(bill.write(tmp_path, REGION_ALERT, ACCOUNT)) == (Resource("Azure", "CSP"),)


CATEGORY_LEVELS = [
    "BillingAccountId",
    "ProviderName",
    "ServiceCategory",
    "ServiceName",
    "ResourceId",
]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_licence_lost_in_two_service_categories_is_the_provider(tmp_path, seed):
    """A FOCUS bill whose provider holds service categories: the licence benefit lapsed on the
    provider's machines and container nodes (Compute) and its managed databases (Databases),
    x1.5 from the day; its storage and key store, which never carried it, and the other
    provider stay. Before, each category was named."""
    bill = Export(seed, REGION_START, REGION_ALERT + 1)
    licensed = [
        ("Azure", "Compute", "Virtual Machines", "vm-erp-01"),
        ("Azure", "Compute", "Virtual Machines", "vm-erp-02"),
        ("Azure", "Compute", "Kubernetes Service", "aks-win-pool"),
        ("Azure", "Databases", "SQL Database", "sqldb-erp"),
        ("Azure", "Databases", "SQL Managed Instance", "sqlmi-finance"),
    ]
    for key, daily in zip(licensed, (70, 55, 90, 110, 140), strict=True):
        bill.line(key, daily, 0.03)
    bill.line(("Azure", "Storage", "Storage Accounts", "st-erp-archive"), 95, 0.02)
    bill.line(("Azure", "Security", "Key Vault", "kv-erp"), 12, 0.05)
    bill.line(("AWS", "Compute", "EC2", "i-portal"), 240, 0.04)
    for key in licensed:
        bill.lines[key][REGION_ALERT:] *= 1.5
    folder = bill.write(tmp_path, REGION_ALERT, CATEGORY_LEVELS)
    assert answer(folder) == (Resource("Azure", "ProviderName"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_one_teams_rise_inside_one_region_is_the_team(tmp_path, seed):
    """Guard: one team's resources in one region triple; the region's other teams stay."""
    bill = Export(seed, REGION_START, REGION_ALERT + 1)
    for region in ("eu-north-7", "af-south-4"):
        for team in ("checkout", "search", "ledger"):
            bill.line(("CloudX", region, team, f"{region}/{team}/vm"), 80, 0.04)
            bill.line(("CloudX", region, team, f"{region}/{team}/db"), 40, 0.01)
    for (_, region, team, _), cost in bill.lines.items():
        if region == "eu-north-7" and team == "search":
            cost[REGION_ALERT:] *= 3.0
    folder = bill.write(tmp_path, REGION_ALERT, APP_LEVELS)
    assert answer(folder) == (Resource("search", "x_Team"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_two_causes_of_different_sizes_stay_two(tmp_path, seed):
    """Guard: a runaway pool (x4) and the logs of the same region (x2.5) on one day are two
    causes, not one change of the region: their factors differ."""
    bill = _two_regions(seed)
    bill.lines[("CloudX", "eu-north-7", "Kubernetes Engine", "eu-north-7/pool-b")][
        REGION_ALERT
    ] *= 4.0
    bill.lines[("CloudX", "eu-north-7", "Logging", "eu-north-7/logs")][REGION_ALERT] *= 2.5
    folder = bill.write(tmp_path, REGION_ALERT, REGION_LEVELS)
    assert set(answer(folder)) == {
        Resource("eu-north-7/pool-b", "ResourceId"),
        Resource("eu-north-7/logs", "ResourceId"),
    }


# --- amounts amortised over the month's days ---------------------------------------------------

MONTH_START = dt.date(2024, 11, 4)  # a Monday
FEB_1 = (dt.date(2025, 2, 1) - MONTH_START).days
MAR_1 = (dt.date(2025, 3, 1) - MONTH_START).days


def _amortised_estate(seed: int, days: int) -> Export:
    """Usage on two providers beside a reservation, a savings plan and a support plan, each
    billed per day as its monthly amount over the month's days."""
    bill = Export(seed, MONTH_START, days)
    bill.line(("AWS", "us-west-9", "EC2", "i-app-1"), 260, 0.04)
    bill.line(("AWS", "us-west-9", "S3", "bucket-docs"), 70, 0.02)
    bill.line(("Azure", "westeu-3", "Virtual Machines", "vm-crm"), 150, 0.04)
    bill.amortised(("AWS", "us-west-9", "EC2", "savings-plan-7"), 9300)
    bill.amortised(("AWS", "us-west-9", "Support", "support-business"), 2480)
    bill.amortised(("Azure", "westeu-3", "Virtual Machines", "reservation-42"), 6200)
    return bill


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("alert", (FEB_1, MAR_1))
def test_month_amortised_amounts_on_a_month_of_another_length_name_nothing(tmp_path, seed, alert):
    bill = _amortised_estate(seed, alert + 1)
    assert answer(bill.write(tmp_path, alert, REGION_LEVELS)) == ()


@pytest.mark.parametrize("seed", SEEDS)
def test_month_amortised_fees_in_a_lite_bill_name_nothing_on_1_february(tmp_path, seed):
    bill = Bill(MONTH_START, FEB_1 + 1, seed)
    bill.usage((ACCOUNT, "AWS", "EC2", "shop", "m6i.large"), 0.096, 60, 0.04)
    bill.usage((ACCOUNT, "GCP", "Compute Engine", "etl", "n2-standard-8"), 0.389, 14, 0.05)
    for key, monthly in (
        ((ACCOUNT, "AWS", "Support", "shop", "business-plan"), 2600.0),
        ((ACCOUNT, "GCP", "Commitments", "etl", "cud-n2"), 4100.0),
    ):
        line = bill.flat_fee(key, 0.0)
        line.cost[:] = [monthly / _month_days(bill.day(i)) for i in range(bill.days)]
    assert answer(bill.write(tmp_path, FEB_1, ACCOUNT)) == ()


@pytest.mark.parametrize("seed", SEEDS)
def test_a_monthly_amount_that_rose_on_the_1st_is_still_named(tmp_path, seed):
    """Guard: the reservation's monthly amount itself rose by a third on 1 February."""
    bill = _amortised_estate(seed, FEB_1 + 1)
    bill.lines[("Azure", "westeu-3", "Virtual Machines", "reservation-42")][FEB_1] *= 1.6
    folder = bill.write(tmp_path, FEB_1, REGION_LEVELS)
    assert answer(folder) == (Resource("reservation-42", "ResourceId"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_static_database_repriced_mid_month_after_a_longer_month_is_named(tmp_path, seed):
    """A database that costs the same every day (not a monthly amount) held one figure through
    January; its price rises by a quarter on 12 February. That it also held at the end of January
    does not make it a monthly amount: February's first days did not follow the month's
    length. Guard (passes on main and now)."""
    alert = FEB_1 + 11
    bill = _amortised_estate(seed, alert + 1)
    database = bill.line(("AWS", "us-west-9", "RDS", "db-ledger"), 180, 0.0)
    database[alert:] *= 1.25
    folder = bill.write(tmp_path, alert, REGION_LEVELS)
    assert answer(folder) == (Resource("db-ledger", "ResourceId"),)
