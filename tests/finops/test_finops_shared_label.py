"""Causes in several branches of the bill that share one label of a lower level are that label
(``finops.rca.shared_label``).

* An application carried in a custom ``x_`` column (or ITBench-Lite's ``Application``) below the
  services: its query engine and its bucket both rose, by different factors; the other
  applications of both services kept their level. The application, not its two resources.
* A service whose rising lines carry no ``ResourceId`` (metrics billed to the account), in every
  sub-account and region: the service, not its regions one by one.
* One region's pricing mix moved (spot capacity gone: the same usage billed at on-demand rates)
  under three services of two sub-accounts, each by its own factor: the region.

Guards, the same before and after: two unrelated rises in two services of two applications
stay two; one application's rise inside one service is still that application (or its
resource); a label whose other branch gave up what the causes gained (a move inside the label)
is not named for it.

Bills written here by hand, ITBench-Lite ``data.csv`` and FOCUS ``focus.csv``, three seeds each.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from finops.model import Resource
from tests.finops.wide_fixtures import Bill, answer, write_focus

SEEDS = (21, 22, 23)
ACCOUNT = "5150"
START = dt.date(2025, 6, 2)  # a Monday
ALERT = 7 * 9 + 2  # a Wednesday, nine weeks of history


@dataclass
class Focus:
    """A FOCUS export: one daily cost series per path below the account; ``levels`` are the
    columns of the path, the account's column first."""

    seed: int
    levels: list[str]
    days: int = ALERT + 1
    lines: dict[tuple[str, ...], np.ndarray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng(self.seed)

    def line(self, key: tuple[str, ...], daily: float, noise: float = 0.04) -> None:
        assert len(key) == len(self.levels) - 1
        self.lines[key] = np.maximum(daily * (1 + self.rng.normal(0, noise, self.days)), 0.0)

    def rise(self, key: tuple[str, ...], factor: float) -> None:
        self.lines[key][ALERT:] *= factor

    def write(self, folder: Path) -> Path:
        rows = (
            (START + dt.timedelta(days=i), (ACCOUNT, *key), float(cost[i]))
            for i in range(self.days)
            for key, cost in self.lines.items()
        )
        alert = START + dt.timedelta(days=ALERT)
        return write_focus(folder, self.levels, rows, alert, ACCOUNT, self.levels)


APP_LEVELS = ["BillingAccountId", "ProviderName", "ServiceName", "x_Product", "ResourceId"]


def _products(seed: int) -> Focus:
    """Three products, each with a query workgroup, a data bucket and a cache, and a shared
    cluster."""
    bill = Focus(seed, APP_LEVELS)
    for product, size in (("ledger", 1.0), ("catalogue", 1.6), ("payouts", 0.8)):
        bill.line(("AWS", "Query Engine", product, f"wg-{product}"), 25 * size, 0.05)
        bill.line(("AWS", "Object Storage", product, f"bucket-{product}"), 60 * size, 0.03)
        bill.line(("AWS", "Cache", product, f"cache-{product}"), 70 * size, 0.01)
    bill.line(("AWS", "Kubernetes", "platform", "cluster-main"), 400, 0.03)
    return bill


@pytest.mark.parametrize("seed", SEEDS)
def test_a_product_in_a_custom_column_rising_in_two_services_is_the_product(tmp_path, seed):
    """The ledger's reports lost their partition filter: its workgroup scans x12 and its bucket
    serves x1.7 the reads; its cache keeps its level. Before, its two resources were named
    (not every line of the product rose, so it was not one product grown whole)."""
    bill = _products(seed)
    bill.rise(("AWS", "Query Engine", "ledger", "wg-ledger"), 12.0)
    bill.rise(("AWS", "Object Storage", "ledger", "bucket-ledger"), 1.7)
    assert answer(bill.write(tmp_path)) == (Resource("ledger", "x_Product"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_two_products_rising_in_two_services_stay_two(tmp_path, seed):
    """Guard: the ledger's workgroup and the payouts' bucket rose on one day: they share no
    label below the provider, so both are named."""
    bill = _products(seed)
    bill.rise(("AWS", "Query Engine", "ledger", "wg-ledger"), 8.0)
    bill.rise(("AWS", "Object Storage", "payouts", "bucket-payouts"), 3.0)
    assert set(answer(bill.write(tmp_path))) == {
        Resource("wg-ledger", "ResourceId"),
        Resource("bucket-payouts", "ResourceId"),
    }


@pytest.mark.parametrize("seed", SEEDS)
def test_a_product_rising_in_one_service_is_still_found_there(tmp_path, seed):
    """Guard: only the ledger's workgroup rose (x10): its resource, as before."""
    bill = _products(seed)
    bill.rise(("AWS", "Query Engine", "ledger", "wg-ledger"), 10.0)
    assert answer(bill.write(tmp_path)) == (Resource("wg-ledger", "ResourceId"),)


SERVICE_LEVELS = ["BillingAccountId", "SubAccountId", "ServiceName", "RegionId", "ResourceId"]
SUBACCOUNTS = ("acct-shop", "acct-data")
REGIONS = ("eu-west-9", "us-west-8")


def _monitoring(seed: int) -> Focus:
    """Two sub-accounts in two regions: a monitoring service's metrics (no ResourceId: billed to
    the account) and its log groups, machines and a database beside them."""
    bill = Focus(seed, SERVICE_LEVELS)
    for sub in SUBACCOUNTS:
        for region, size in zip(REGIONS, (1.0, 0.6), strict=True):
            bill.line((sub, "Monitoring", region, ""), 30 * size, 0.03)
            bill.line((sub, "Monitoring", region, f"logs-{sub}-{region}"), 45 * size, 0.03)
            bill.line((sub, "Compute", region, f"vm-{sub}-{region}"), 300 * size, 0.03)
            bill.line((sub, "Database", region, f"db-{sub}-{region}"), 150 * size, 0.01)
    return bill


@pytest.mark.parametrize("seed", SEEDS)
def test_metrics_without_a_resource_rising_everywhere_are_the_service(tmp_path, seed):
    """An SDK release added a label to every metric: the service's metric lines (no ResourceId)
    rise x2.6 in every sub-account and region; its log groups stay. Before, each region of it
    was named."""
    bill = _monitoring(seed)
    for sub in SUBACCOUNTS:
        for region in REGIONS:
            bill.rise((sub, "Monitoring", region, ""), 2.6)
    assert answer(bill.write(tmp_path)) == (Resource("Monitoring", "ServiceName"),)


REGION_LEVELS = [
    "BillingAccountId",
    "SubAccountId",
    "ServiceCategory",
    "ServiceName",
    "RegionId",
    "ResourceId",
]


def _spot_estate(seed: int) -> Focus:
    """Ingest fleets, a batch cluster and container nodes, mostly on spot, in two regions of two
    sub-accounts, beside storage and a database that are never on spot."""
    bill = Focus(seed, REGION_LEVELS)
    for region, size in (("ca-east-3", 1.0), ("sa-north-2", 1.2)):
        bill.line(("acct-ingest", "Compute", "Machines", region, f"fleet-{region}"), 90 * size)
        bill.line(("acct-batch", "Analytics", "Batch", region, f"batch-{region}"), 110 * size)
        bill.line(("acct-batch", "Compute", "Containers", region, f"nodes-{region}"), 60 * size)
        bill.line(("acct-batch", "Storage", "Objects", region, f"lake-{region}"), 200 * size, 0.02)
        bill.line(("acct-ingest", "Database", "SQL", region, f"sql-{region}"), 180 * size, 0.01)
    return bill


@pytest.mark.parametrize("seed", SEEDS)
def test_a_regions_spot_capacity_gone_is_the_region(tmp_path, seed):
    """Spot capacity dried up in one region: the same usage billed at on-demand rates, by each
    service's own spot share (x1.8, x1.5, x1.6); the other region and the storage and database
    stay. Before, the three resources were named."""
    bill = _spot_estate(seed)
    region = "ca-east-3"
    bill.rise(("acct-ingest", "Compute", "Machines", region, f"fleet-{region}"), 1.8)
    bill.rise(("acct-batch", "Analytics", "Batch", region, f"batch-{region}"), 1.5)
    bill.rise(("acct-batch", "Compute", "Containers", region, f"nodes-{region}"), 1.6)
    assert answer(bill.write(tmp_path)) == (Resource(region, "RegionId"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_move_inside_the_region_is_not_the_region(tmp_path, seed):
    """Guard: two services of one region grew while a third of the same region gave up as much
    (work moved between them): the region's total held, so the region is not named for it."""
    bill = _spot_estate(seed)
    region = "ca-east-3"
    bill.rise(("acct-ingest", "Compute", "Machines", region, f"fleet-{region}"), 2.0)
    bill.rise(("acct-batch", "Compute", "Containers", region, f"nodes-{region}"), 2.5)
    moved = 90 + 60 * 1.5
    lake = bill.lines[("acct-batch", "Storage", "Objects", region, f"lake-{region}")]
    lake[ALERT:] -= moved
    assert Resource(region, "RegionId") not in answer(bill.write(tmp_path))


# --- ITBench-Lite: Application sits below Cloud_Service -----------------------------------------

LITE_START = dt.date(2025, 6, 2)


def _lite_estate(seed: int) -> Bill:
    bill = Bill(LITE_START, ALERT + 1, seed)
    bill.usage((ACCOUNT, "AWS", "EC2", "ledger", "m7i.large"), 0.1008, 20, 0.04)
    bill.usage((ACCOUNT, "AWS", "EC2", "catalogue", "m7i.large"), 0.1008, 36, 0.04)
    bill.usage((ACCOUNT, "AWS", "EC2", "catalogue", "c7i.xlarge"), 0.1785, 14, 0.04)
    bill.usage((ACCOUNT, "AWS", "RDS", "ledger", "db.r7g.large"), 0.239, 6, 0.02)
    bill.usage((ACCOUNT, "AWS", "RDS", "catalogue", "db.r7g.large"), 0.239, 10, 0.02)
    bill.usage((ACCOUNT, "AWS", "EKS", "platform", "m7i.2xlarge"), 0.4032, 12, 0.03)
    bill.usage((ACCOUNT, "AWS", "ElastiCache", "ledger", "cache.r7g.large"), 0.219, 16, 0.03)
    return bill


@pytest.mark.parametrize("seed", SEEDS)
def test_a_lite_application_rising_in_two_services_is_the_application(tmp_path, seed):
    """The ledger's fleet tripled and its database gained replicas (x1.8); the same families of
    the catalogue kept their level, and so did the ledger's cache. Before, the two families
    were named (each only in the ledger)."""
    bill = _lite_estate(seed)
    for line in bill.lines:
        if line.app == "ledger" and line.service != "ElastiCache":
            factor = 3.0 if line.service == "EC2" else 1.8
            line.count[ALERT:] = np.rint(line.count[ALERT:] * factor)
            line.cost[ALERT:] = line.price[ALERT:] * line.count[ALERT:] * 24
    folder = bill.write(tmp_path, ALERT, ACCOUNT)
    assert answer(folder) == (Resource("ledger", "Application"),)
