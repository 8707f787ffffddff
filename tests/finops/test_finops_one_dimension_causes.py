"""A rise that fills one region, provider or cloud is named there, on the day or days later.

When several services (or applications) rise together and what they share is one value of a
higher level (a stack applied to one region, projects linked to one provider, a cloud's standby
environment brought up), that value is the one name that explains them all; naming each
service or resource says less and says it several times (``drilldown._moved_as_one``). A line
the export bills without a resource id names its service (``drilldown._named``). Late alerts
reach these too, and two late shapes of their own: a rise the alert day can only call spread
over a node (the change day names it), and a switch of family some days before the alert
(``lookback._switch_held``). A FOCUS bill's own levels (``scenario.json``) reach the agent
through ``itbench finops run``, and a region below a service that bills in it alone names
the service.

Guards that pass before and after: one application's rise inside one cloud is that
application; one resource's rise inside one region is that resource; quiet bills (a quarterly
drill that ends the same day, a month-start fee) name nothing.

Bills are written here by hand, from what billing exports look like: ITBench-Lite ``data.csv``
through ``tests/finops/wide_fixtures.py`` and FOCUS ``focus.csv`` with a region level below.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from finops.model import Resource
from tests._support.cli import run_cli
from tests.finops.wide_fixtures import Bill, answer, write_focus

SEEDS = (3, 4, 5)
START = dt.date(2025, 6, 2)  # a Monday
DAYS = 7 * 9 + 3  # nine weeks and three days of history
ACCOUNT = "4410"
REGION_LEVELS = [
    "BillingAccountId",
    "ProviderName",
    "RegionId",
    "ServiceCategory",
    "ServiceName",
    "ResourceId",
]


@dataclass
class Export:
    """A FOCUS export written line by line: one daily cost series per (provider, region,
    category, service, resource); ``None`` as the resource writes an empty ``ResourceId``."""

    seed: int
    days: int = DAYS
    lines: dict[tuple[str, str, str, str, str | None], np.ndarray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng(self.seed)

    def line(
        self, key: tuple[str, str, str, str, str | None], daily: float, noise: float = 0.04
    ) -> np.ndarray:
        cost = daily * (1 + self.rng.normal(0, noise, self.days))
        self.lines[key] = np.maximum(cost, 0.0)
        return self.lines[key]

    def launch(self, key: tuple[str, str, str, str, str | None], daily: float, first: int) -> None:
        """A line that starts on day ``first`` (no rows before)."""
        cost = self.line(key, daily, 0.02)
        cost[:first] = 0.0

    def write(self, folder: Path, alert: int, levels: list[str] | None = None) -> Path:
        """Without ``levels`` the region column is left out and the loader's default levels
        apply; with them, the region column is written and ``scenario.json`` lists them."""
        columns = REGION_LEVELS if levels else [c for c in REGION_LEVELS if c != "RegionId"]
        rows = (
            (START + dt.timedelta(days=i), _values(key, with_region=bool(levels)), float(cost[i]))
            for i in range(self.days)
            for key, cost in self.lines.items()
            if cost[i] > 0
        )
        alert_day = START + dt.timedelta(days=alert)
        return write_focus(folder, columns, rows, alert_day, ACCOUNT, levels)


def _values(key: tuple[str, str, str, str, str | None], with_region: bool) -> tuple[str, ...]:
    """A line's row values below the account; ``None`` as the resource is an empty cell."""
    provider, region, category, service, resource = key
    where = (region,) if with_region else ()
    return (ACCOUNT, provider, *where, category, service, resource or "")


def _regions(seed: int) -> Export:
    """An online retailer on one provider in three regions: the same services in the two main
    regions, only a few functions in the third."""
    bill = Export(seed)
    for region, scale in (("ap-south-2", 1.0), ("sa-east-1", 0.8)):
        bill.line(("AWS", region, "Compute", "EC2", f"i-web-{region}"), 140 * scale)
        bill.line(("AWS", region, "Compute", "EC2", f"i-batch-{region}"), 60 * scale, 0.08)
        bill.line(("AWS", region, "Databases", "RDS", f"db-orders-{region}"), 48 * scale, 0.0)
        bill.line(("AWS", region, "Storage", "S3", f"bucket-media-{region}"), 35 * scale, 0.02)
    bill.line(("AWS", "ca-west-1", "Compute", "Lambda", "fn-thumbnails"), 22, 0.06)
    return bill


def _stack_in(bill: Export, region: str, first: int) -> None:
    """A test environment's stack applied into ``region`` by mistake on day ``first``."""
    bill.launch(("AWS", region, "Compute", "EC2", "i-qa-app-1"), 55, first)
    bill.launch(("AWS", region, "Compute", "EC2", "i-qa-app-2"), 55, first)
    bill.launch(("AWS", region, "Storage", "EC2", "vol-qa-data"), 30, first)
    bill.launch(("AWS", region, "Databases", "RDS", "db-qa"), 40, first)
    bill.launch(("AWS", region, "Networking", "ELB", "alb-qa"), 6, first)


# --- a region, a provider, a cloud: named (each fails on the code before) ----------------------


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("days_late", (0, 1, 3))
def test_a_stack_launched_in_one_region_is_the_region(tmp_path, seed, days_late):
    bill = _regions(seed)
    alert = DAYS - 1
    _stack_in(bill, "ca-west-1", alert - days_late)
    folder = bill.write(tmp_path, alert, REGION_LEVELS)
    assert answer(folder) == (Resource("ca-west-1", "RegionId"),)


def _two_clouds(seed: int) -> Export:
    """A company on two providers: most of its estate on one, analytics and a game backend on
    the other."""
    bill = Export(seed)
    bill.line(("AWS", "-", "Compute", "EC2", "i-api"), 260)
    bill.line(("AWS", "-", "Databases", "RDS", "db-core"), 90, 0.0)
    bill.line(("AWS", "-", "Storage", "S3", "bucket-logs"), 45, 0.03)
    bill.line(("Google Cloud", "-", "Analytics", "BigQuery", None), 110, 0.12)
    bill.line(("Google Cloud", "-", "Compute", "Compute Engine", "vm-game-1"), 120)
    bill.line(("Google Cloud", "-", "Databases", "Cloud SQL", "sql-game"), 30, 0.0)
    bill.line(("Google Cloud", "-", "Storage", "Cloud Storage", "bucket-game"), 40, 0.02)
    return bill


@pytest.mark.parametrize("seed", SEEDS)
def test_projects_linked_to_one_provider_are_the_provider(tmp_path, seed):
    """Two more projects billed to the account from the alert day: new instances, databases and
    buckets in every service of that provider, and its query engine's usage doubles."""
    bill = _two_clouds(seed)
    alert = DAYS - 2
    for project in ("warehouse", "kiosk"):
        bill.launch(("Google Cloud", "-", "Compute", "Compute Engine", f"vm-{project}"), 95, alert)
        bill.launch(("Google Cloud", "-", "Databases", "Cloud SQL", f"sql-{project}"), 15, alert)
        bill.launch(
            ("Google Cloud", "-", "Storage", "Cloud Storage", f"bucket-{project}"), 25, alert
        )
    bill.lines[("Google Cloud", "-", "Analytics", "BigQuery", None)][alert:] *= 2.0
    assert answer(bill.write(tmp_path, alert)) == (Resource("Google Cloud", "ProviderName"),)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("days_late", (1, 4))
def test_a_usage_line_without_resource_id_is_its_service(tmp_path, seed, days_late):
    """A malware scanner switched on: its usage is billed to the account, with no ResourceId."""
    bill = _two_clouds(seed)
    bill.line(("AWS", "-", "Security", "Amazon Macie", None), 30, 0.05)
    alert = DAYS - 1
    bill.lines[("AWS", "-", "Security", "Amazon Macie", None)][alert - days_late :] *= 4.0
    assert answer(bill.write(tmp_path, alert)) == (Resource("Amazon Macie", "ServiceName"),)


def _estate(seed: int) -> Bill:
    """An insurer on two clouds: its core on one, a standby copy and an identity service on the
    other (the standby runs small every day)."""
    bill = Bill(START, DAYS, seed)
    account = ACCOUNT
    bill.usage((account, "GCP", "ComputeEngine", "claims", "n2-standard-8"), 0.39, 22, 0.04)
    bill.usage((account, "GCP", "ComputeEngine", "quotes", "n2-standard-4"), 0.19, 18, 0.05)
    bill.static((account, "GCP", "CloudSQL", "claims", "db-custom-8"), 0.62, 2)
    bill.static((account, "GCP", "CloudSQL", "quotes", "db-custom-4"), 0.31, 2)
    bill.usage((account, "GCP", "CloudStorage", "quotes", "standard"), 0.02, 90, 0.03)
    bill.usage((account, "Azure", "VirtualMachines", "claims-standby", "D8s_v5"), 0.38, 2, 0.0)
    bill.static((account, "Azure", "SQLDatabase", "claims-standby", "GP_Gen5_4"), 0.5, 1)
    bill.usage((account, "Azure", "AKS", "quotes-standby", "D4s_v5"), 0.19, 2, 0.0)
    bill.usage((account, "Azure", "AppService", "portal-standby", "P1v3"), 0.22, 1, 0.0)
    bill.usage((account, "Azure", "VirtualMachines", "identity", "B2ms"), 0.083, 6, 0.1)
    bill.usage((account, "Azure", "StorageAccounts", "claims-standby", "grs-hot"), 0.1, 25, 0.01)
    return bill


def _bring_up_standby(bill: Bill, first: int) -> None:
    """The standby copy scaled up to production size on ``first`` and left running."""
    factors = {"claims-standby": 5.0, "quotes-standby": 4.0, "portal-standby": 3.0}
    for line in bill.lines:
        if line.service == "StorageAccounts":
            line.count[first:] = np.rint(line.count[first:] * 1.35)  # replication catches up
        elif line.service == "SQLDatabase":
            line.price[first:] *= 2.0  # the database moved to a tier twice the price
        elif line.app in factors:
            line.count[first:] = line.count[first:] * factors[line.app]
        line.cost[first:] = line.price[first:] * line.count[first:] * 24


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("days_late", (2, 5))
def test_a_clouds_standby_left_running_is_the_cloud(tmp_path, seed, days_late):
    bill = _estate(seed)
    alert = DAYS - 1
    _bring_up_standby(bill, alert - days_late)
    assert answer(bill.write(tmp_path, alert, ACCOUNT)) == (Resource("Azure", "CSP"),)


def _cache_estate(seed: int) -> Bill:
    bill = Bill(START, DAYS, seed)
    bill.usage((ACCOUNT, "GCP", "ComputeEngine", "checkout", "e2-standard-4"), 0.134, 30, 0.03)
    bill.usage((ACCOUNT, "GCP", "ComputeEngine", "search", "c3-standard-8"), 0.41, 6, 0.05)
    bill.static((ACCOUNT, "GCP", "Memorystore", "sessions", "redis-basic-m2"), 1.1, 1)
    bill.static((ACCOUNT, "GCP", "Memorystore", "sessions", "redis-basic-m1"), 0.3, 1)
    return bill


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("days_late", (2, 3, 5))
def test_a_family_switched_days_before_is_the_new_family(tmp_path, seed, days_late):
    """A cache moved to its high-availability tier: the basic family stops the day the standard
    one starts at twice its price."""
    bill = _cache_estate(seed)
    alert = DAYS - 1
    switch = alert - days_late
    old = next(line for line in bill.lines if line.family == "redis-basic-m2")
    new = bill.static((ACCOUNT, "GCP", "Memorystore", "sessions", "redis-standard-m2"), 2.2, 1)
    old.count[switch:] = 0
    old.cost[switch:] = 0
    new.count[:switch] = 0
    new.cost[:switch] = 0
    assert answer(bill.write(tmp_path, alert, ACCOUNT)) == (
        Resource("redis-standard-m2", "Instance_Family"),
    )


def test_a_focus_bills_own_levels_reach_the_agent(tmp_path):
    """``itbench finops run``: the baseline reads the export with the levels its scenario.json
    lists, so a region can be named (and the answer is a valid level of the bill)."""
    bill = _regions(3)
    alert = DAYS - 1
    for key, cost in bill.lines.items():
        # traffic moved: one region's web fleet triples, the other's falls to a third
        if key[4] == "i-web-ap-south-2":
            cost[alert:] *= 3.0
        if key[4] == "bucket-media-ap-south-2":
            cost[alert:] *= 2.0
        if key[4] == "i-web-sa-east-1":
            cost[alert:] *= 0.3
    scenarios = tmp_path / "scenarios"
    bill.write(scenarios / "Scenario-1", alert, REGION_LEVELS)
    (scenarios / "Scenario-1" / "ground_truth.yaml").write_text(
        "resource:\n- name: ap-south-2\n  type: RegionId\n"
    )
    out = tmp_path / "run"
    proc = run_cli(
        ["finops", "run", "--scenarios", str(scenarios), "--output", str(out)]
        + ["--format", "json", "--no-progress"]
    )
    assert proc.returncode == 0, proc.stderr
    (result,) = json.loads(proc.stdout)["raw_results"]
    assert result["scores"]["root_cause_resource_exact"] == 1.0


# --- guards: pass before and after -------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_one_applications_rise_inside_one_cloud_is_the_application(tmp_path, seed):
    """Only the claims application grows, in both its services; its cloud has a sibling."""
    bill = _estate(seed)
    alert = DAYS - 1
    for line in bill.lines:
        if line.csp == "GCP" and line.app == "claims":
            line.count[alert:] *= 3
            line.cost[alert:] = line.price[alert:] * line.count[alert:] * 24
    assert answer(bill.write(tmp_path, alert, ACCOUNT)) == (Resource("claims", "Application"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_one_resources_rise_inside_one_region_is_the_resource(tmp_path, seed):
    bill = _regions(seed)
    alert = DAYS - 1
    bill.lines[("AWS", "ap-south-2", "Compute", "EC2", "i-batch-ap-south-2")][alert:] *= 3.0
    folder = bill.write(tmp_path, alert, REGION_LEVELS)
    assert answer(folder) == (Resource("i-batch-ap-south-2", "ResourceId"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_quarterly_drill_that_ended_the_same_day_names_nothing(tmp_path, seed):
    """The standby is brought up for one day every quarter (here every 28 days as well, so the
    bill holds it twice); the alert comes the day after the last drill."""
    bill = _estate(seed)
    alert = DAYS - 1
    factors = {"claims-standby": 5.0, "quotes-standby": 4.0, "portal-standby": 3.0}
    for drill, extra in ((alert - 57, 1), (alert - 29, 0), (alert - 1, 0)):
        for line in bill.lines:
            if line.app in factors and line.service in ("VirtualMachines", "AKS", "AppService"):
                # each drill about the same size: the first ran one instance more per fleet
                line.count[drill] = line.count[drill] * factors[line.app] + extra
                line.cost[drill] = line.price[drill] * line.count[drill] * 24
    assert answer(bill.write(tmp_path, alert, ACCOUNT)) == ()


@pytest.mark.parametrize("seed", SEEDS)
def test_a_month_start_fee_in_every_region_names_nothing(tmp_path, seed):
    bill = _regions(seed)
    fee = np.zeros(bill.days)
    firsts = [i for i in range(bill.days) if (START + dt.timedelta(days=i)).day == 1]
    fee[firsts] = 900.0
    bill.lines[("AWS", "ap-south-2", "Other", "Support", "support-business")] = fee
    assert answer(bill.write(tmp_path, firsts[-1], REGION_LEVELS)) == ()


def _recommender(seed: int) -> Bill:
    """A recommender on one cloud: a feature pipeline with streaming jobs and workers, beside a
    serving fleet and a clickstream job on the same machine types."""
    bill = Bill(START, DAYS + 1, seed)  # to a Thursday
    mondays = np.array([3.0 if bill.day(i).weekday() == 0 else 1.0 for i in range(bill.days)])
    bill.usage((ACCOUNT, "GCP", "VertexAI", "training", "a2-highgpu-1g"), 3.67, 2, 0.1, mondays)
    bill.usage((ACCOUNT, "GCP", "Dataflow", "clickstream", "n2-standard-4"), 0.19, 9, 0.1)
    bill.usage((ACCOUNT, "GCP", "Dataflow", "features", "n2-highmem-8"), 0.47, 6, 0.1)
    bill.usage((ACCOUNT, "GCP", "ComputeEngine", "features", "n2-standard-16"), 0.78, 3, 0.1)
    bill.usage((ACCOUNT, "GCP", "ComputeEngine", "serving", "n2-standard-16"), 0.78, 8, 0.03)
    bill.static((ACCOUNT, "GCP", "CloudStorage", "features", "standard-regional"), 0.55, 4)
    return bill


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("days_late", (2, 3))
def test_an_applications_backfill_found_days_later_is_the_application(tmp_path, seed, days_late):
    """The feature pipeline re-runs a backfill: its jobs and workers triple and stay so. By the
    alert the recent days hold part of the rise, which the alert day alone can only see spread
    over the cloud; the day it began names the application."""
    bill = _recommender(seed)
    alert = DAYS - 1
    first = alert - days_late
    for line in bill.lines:
        if line.app == "features" and line.service != "CloudStorage":
            line.count[first:] *= 3
            line.cost[first:] = line.price[first:] * line.count[first:] * 24
    assert answer(bill.write(tmp_path, alert, ACCOUNT)) == (Resource("features", "Application"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_service_in_one_region_is_the_service_when_the_region_lies_below_it(tmp_path, seed):
    """With the region a level below the service, a security service that bills in one region
    only rises in every account it watches: the region below it holds the same lines, but its
    name also covers every other service there; the service is the answer."""
    bill = _regions(seed)
    alert = DAYS - 1
    for watched in ("acct-shop", "acct-data", "acct-dev"):
        line = bill.line(("AWS", "ap-south-2", "Security", "Security Hub", watched), 1.5, 0.02)
        line[alert:] *= 20.0
    levels = [
        "BillingAccountId",
        "ProviderName",
        "ServiceCategory",
        "ServiceName",
        "RegionId",
        "ResourceId",
    ]
    folder = bill.write(tmp_path, alert, levels)
    assert answer(folder) == (Resource("Security Hub", "ServiceName"),)
