"""One application grown in every service it uses, and bills with no anomaly at all.

Hand-made bills (not copied from any held-out set): an application whose every line grows on the
day, each by its own factor (a new customer's traffic, a DR copy doubling it), beside other
applications running the same families flat; a provider's credits ending in every service; a
service surge beside a commitment fee whose amount drifts; and days whose only rises are the
bill's normal life (a month's 1st with its batch and fee, a weekend with a partial last day),
whose truth is ``resource: []``. Each failed on the baseline before its change: the grown
application before :func:`_one_application_grown` (it named each grown line's family), the credits
before :func:`_credits_ended` (it named the credit's family), the surge before a fee of one unit a
day counted as a fixed amount (it named each application); the no-anomaly bills scored 0 on
``root_cause_resource_exact`` before an empty truth answered by nothing counted as exact.
"""

from __future__ import annotations

import datetime as dt
import json

import numpy as np
import pytest

from finops.model import Resource
from tests._support.cli import run_cli
from tests.finops.wide_fixtures import Bill, answer

SEEDS = (1, 2, 3)

START = dt.date(2025, 2, 3)  # a Monday
DAY = 43  # a Tuesday, six weeks of history


def _estate(bill: Bill, apps: tuple[str, ...]) -> None:
    """Every application runs a Kubernetes fleet, a cache, a queue and egress: the same families
    in each, so no family or service is one application's."""
    shape = bill.weekly(1.0, 0.6)
    for i, app in enumerate(apps):
        n = 12 - 3 * i
        bill.usage(("333", "AWS", "EKS", app, "m6g.2xlarge"), 0.308, n, shape=shape)
        bill.static(("333", "AWS", "ElastiCache", app, "cache.r6g.large"), 0.206, 2 + i)
        bill.usage(("333", "AWS", "SQS", app, "Requests-M"), 0.4, 30 * n, 0.06, shape)
        bill.usage(("333", "AWS", "Data Transfer", app, "Egress-GB"), 0.09, 400 * n, 0.05, shape)


def _grow(bill: Bill, app: str, factors: dict[str, float], day: int) -> None:
    for line in bill.lines:
        if line.app == app:
            factor = factors[line.service]
            line.count[day] = round(line.count[day] * factor)
            line.cost[day] = line.price[day] * line.count[day] * 24


@pytest.mark.parametrize("seed", SEEDS)
def test_one_application_grown_on_every_line_in_every_service_is_the_application(tmp_path, seed):
    """bids onboards a new exchange: its fleet x1.5, its cache 2 -> 4 nodes, its queue x1.7, its
    egress x1.4; the same families in feeds and billing keep their life."""
    bill = Bill(START, DAY + 1, seed)
    _estate(bill, ("bids", "feeds", "billing"))
    _grow(bill, "bids", {"EKS": 1.5, "ElastiCache": 2.0, "SQS": 1.7, "Data Transfer": 1.4}, DAY)
    assert answer(bill.write(tmp_path, DAY, "333")) == (Resource("bids", "Application"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_copy_of_one_application_doubling_its_every_line_is_the_application(tmp_path, seed):
    """A DR copy of ledger starts: every line of it doubles, its static database too; the same
    database class and fleet family in another application stay as they were."""
    bill = Bill(START, DAY + 1, seed)
    shape = bill.weekly(1.0, 0.5)
    for app, n in (("ledger", 4), ("portal", 6)):
        bill.usage(("444", "Azure", "Virtual Machines", app, "E8as_v5"), 0.504, n, shape=shape)
        bill.static(("444", "Azure", "Azure SQL Database", app, "GP_Gen5_8"), 1.85, 1)
    bill.usage(("444", "Azure", "Storage", "ledger", "Hot-LRS-GB"), 0.0208 / 24, 9000, 0.01)
    bill.usage(("444", "Azure", "Key Vault", "ledger", "Operations-10k"), 0.03, 20, 0.08, shape)
    services = ("Virtual Machines", "Azure SQL Database", "Storage", "Key Vault")
    _grow(bill, "ledger", dict.fromkeys(services, 2.0), DAY)
    assert answer(bill.write(tmp_path, DAY, "444")) == (Resource("ledger", "Application"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_credits_ending_in_every_service_of_a_provider_are_the_provider(tmp_path, seed):
    """A startup programme's credit is billed per service (one negative line in each of four
    GCP services) and ends on the day; the usage lines and an Azure subscription in the same
    account keep their life. One agreement ended: the provider, not a family named "credit"."""
    bill = Bill(START, DAY + 1, seed)
    shape = bill.weekly(1.0, 0.6)
    bill.usage(("666", "GCP", "Compute Engine", "api", "n2-standard-8"), 0.39, 9, shape=shape)
    bill.usage(("666", "GCP", "GKE", "web", "e2-standard-4"), 0.134, 14, shape=shape)
    bill.static(("666", "GCP", "Cloud SQL", "api", "db-custom-4-16384"), 0.41, 1)
    bill.usage(("666", "GCP", "BigQuery", "reports", "Analysis-TB"), 6.25 / 24, 3, 0.08, shape)
    bill.usage(("666", "Azure", "Virtual Machines", "legacy", "D4s_v5"), 0.192, 6, shape=shape)
    credits = [
        bill.flat_fee(("666", "GCP", service, "shared", "Startup-Credit"), -amount)
        for service, amount in (
            ("Compute Engine", 40),
            ("GKE", 25),
            ("Cloud SQL", 6),
            ("BigQuery", 9),
        )
    ]
    for line in credits:
        line.cost[DAY] = 0.0
    assert answer(bill.write(tmp_path, DAY, "666")) == (Resource("GCP", "CSP"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_service_surge_in_every_application_beside_a_drifting_commitment_fee_is_the_service(
    tmp_path, seed
):
    """A bad autoscaling policy doubles every EC2 fleet of every application; the EC2 commitment
    fee (one unit a day, its amount drifting by a few hundredths of a percent a day as it is
    amortised) and the databases keep theirs. The fee is no application that stayed put: EC2."""
    bill = Bill(START, DAY + 1, seed)
    shape = bill.weekly(1.0, 0.6)
    fleets = [
        bill.usage(("777", "AWS", "EC2", app, family), price, n, shape=shape)
        for app, family, price, n in (
            ("etl", "c6i.2xlarge", 0.34, 7),
            ("etl", "m5.xlarge", 0.192, 6),
            ("recs", "r6g.large", 0.1008, 9),
            ("recs", "t3.medium", 0.0416, 10),
        )
    ]
    bill.usage(("777", "AWS", "EKS", "etl", "m6g.xlarge"), 0.154, 8, shape=shape)
    bill.static(("777", "AWS", "RDS", "etl", "db.r6g.xlarge"), 0.48, 3)
    fee = bill.flat_fee(("777", "AWS", "EC2", "shared", "Commitment-Fee"), 70.0)
    fee.cost *= 1 + 0.0004 * np.arange(bill.days)
    fee.count[:], fee.price[:] = 1.0, fee.cost / 24
    for line in fleets:
        line.count[DAY] *= 2
        line.cost[DAY] *= 2
    ec2 = Resource("EC2", "Cloud_Service")
    assert answer(bill.write(tmp_path, DAY, "777")) == (ec2,)


# A month's 1st with two earlier 1sts in the history.
MONTHLY_START = dt.date(2025, 6, 16)
FIRST = (dt.date(2025, 9, 1) - MONTHLY_START).days


def _no_anomaly_truth(folder) -> None:
    (folder / "ground_truth.yaml").write_text("resource: []\n")


def _exact(scenarios, out) -> list[float]:
    proc = run_cli(
        [
            "finops",
            "run",
            "--scenarios",
            str(scenarios),
            "--agent",
            "baseline",
            "--output",
            str(out),
            "--format",
            "json",
            "--no-progress",
        ]
    )
    assert proc.returncode in (0, 1), proc.stderr
    return [
        r["scores"]["root_cause_resource_exact"] for r in json.loads(proc.stdout)["raw_results"]
    ]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_first_of_the_month_whose_only_rises_are_its_habits_names_nothing(tmp_path, seed):
    """invoicing's close batch triples on every 1st in two services (compute and a warehouse)
    and a support fee is billed on every 1st only: the account's cost jumps on the day, as it
    did on the two 1sts before. Nothing is anomalous; naming nothing is the exact answer."""
    bill = Bill(MONTHLY_START, FIRST + 1, seed)
    _estate(bill, ("api", "search"))
    shape = bill.weekly(1.0, 0.6)
    batch = [
        bill.usage(("333", "AWS", "EC2", "invoicing", "c6i.4xlarge"), 0.68, 5, shape=shape),
        bill.usage(("333", "AWS", "Redshift", "invoicing", "ra3.xlplus"), 1.086, 2, 0.03),
    ]
    fee = bill.flat_fee(("333", "AWS", "Support", "shared", "Business-Support"), 900.0)
    for i in range(bill.days):
        if bill.day(i).day != 1:
            fee.cost[i] = 0.0
            continue
        fee.count[i], fee.price[i] = 1.0, fee.cost[i] / 24
        for line in batch:
            line.count[i] *= 3
            line.cost[i] *= 3
    folder = bill.write(tmp_path / "s" / "Scenario-1", FIRST, "333")
    _no_anomaly_truth(folder)
    assert answer(folder) == ()
    assert _exact(tmp_path / "s", tmp_path / "out") == [1.0]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_weekend_of_an_office_estate_cut_short_names_nothing(tmp_path, seed):
    """A Saturday: office fleets at 40%, dev machines off at weekends, tiered blob storage whose
    blended price drifts, and an export that ends at 08:00 on the Sunday (a partial last day).
    Nothing is anomalous; naming nothing is the exact answer."""
    day = 47  # a Saturday (START is a Monday)
    bill = Bill(START, day + 2, seed)
    office = bill.weekly(1.0, 0.4)
    bill.usage(("555", "Azure", "Virtual Machines", "intranet", "D4as_v5"), 0.192, 10, 0.05, office)
    bill.usage(("555", "Azure", "AKS", "crm", "D8as_v5"), 0.384, 8, 0.05, office)
    dev = bill.usage(("555", "Azure", "Virtual Machines", "dev", "B4ms"), 0.166, 6)
    dev.count[bill.weekly(1.0, 0.0) == 0] = 0
    dev.cost[bill.weekly(1.0, 0.0) == 0] = 0
    bill.tiered(
        ("555", "Azure", "Storage", "crm", "Hot-LRS-GB"), [(50_000, 0.0208), (1e12, 0.02)], 80_000
    )
    bill.static(("555", "Azure", "Azure SQL Database", "crm", "GP_Gen5_4"), 0.92, 1)
    folder = bill.write(tmp_path / "s" / "Scenario-1", day, "555", partial_last=0.35)
    _no_anomaly_truth(folder)
    assert answer(folder) == ()
    assert _exact(tmp_path / "s", tmp_path / "out") == [1.0]
