"""Causes the drill-down missed on hand-made bills: monthly habits on a weekend month-end, a
provider whose every line rose beside another provider of the account, a service whose every
line grew by its own factor, a data-transfer SKU repriced beside a tiered egress line of the
same service.

Each bill is written here from what billing exports look like (not copied from any held-out
set); the labels are the smallest resource an analyst would name, fixed before the baseline was
changed, and every test failed on the baseline before the changes it comes with.
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from finops.model import Resource
from tests.finops.wide_fixtures import Bill, answer

SEEDS = (1, 2, 3)


# Saturday 31 May 2025; the earlier month-ends in the history are a Monday (31 March) and a
# Wednesday (30 April).
MONTH_END_START = dt.date(2025, 3, 10)
SATURDAY_MONTH_END = (dt.date(2025, 5, 31) - MONTH_END_START).days


def _is_month_end(day: dt.date) -> bool:
    return (day + dt.timedelta(days=1)).month != day.month


@pytest.mark.parametrize("seed", SEEDS)
def test_a_month_end_close_on_a_saturday_names_nothing(tmp_path, seed):
    """finance's close runs on every last day of the month (its fleet and its warehouse triple,
    whatever the weekday) beside an office estate at 40% at weekends. The two earlier month-ends
    were weekdays, when the office estate was at full strength: the service's total on those
    days stood out by less than it does on a Saturday's month-end. Each line keeps its habits:
    nothing is anomalous."""
    day = SATURDAY_MONTH_END
    bill = Bill(MONTH_END_START, day + 1, seed)
    office = bill.weekly(1.0, 0.4)
    bill.usage(("888", "Azure", "Virtual Machines", "intranet", "D4as_v5"), 0.172, 20, 0.03, office)
    bill.usage(("888", "Azure", "Virtual Machines", "portal", "D2as_v5"), 0.086, 12, 0.03, office)
    close = [
        bill.usage(("888", "Azure", "Virtual Machines", "finance", "E16as_v5"), 0.904, 8, 0.03),
        bill.usage(("888", "Azure", "Synapse", "finance", "DWU-100"), 1.2, 6, 0.04),
    ]
    bill.static(("888", "Azure", "Azure SQL Database", "finance", "GP_Gen5_8"), 1.7, 1)
    for i in range(bill.days):
        if _is_month_end(bill.day(i)):
            for line in close:
                line.count[i] *= 3
                line.cost[i] *= 3
    assert answer(bill.write(tmp_path, day, "888")) == ()


START = dt.date(2025, 2, 3)  # a Monday
DAY = 44  # a Wednesday, six weeks of history


@pytest.mark.parametrize("seed", SEEDS)
def test_a_transfer_sku_repriced_beside_tiered_egress_of_the_same_service_is_the_family(
    tmp_path, seed
):
    """Traffic between availability zones costs 50% more per GB in every application; internet
    egress, billed in the same service by volume tiers (its unit price is a blend that moves
    with volume every day, so it cannot show a price of its own), keeps its usual cost. A new
    price list for the service would have lifted the egress too: the transfer SKU is the cause."""
    bill = Bill(START, DAY + 1, seed)
    shape = bill.weekly(1.0, 0.3)
    zonal = [
        bill.usage(("444", "AWS", "Data Transfer", app, "Regional-Bytes-GB"), 0.01, n, 0.05, shape)
        for app, n in (("web", 3000), ("orders", 1800), ("reports", 900))
    ]
    bill.tiered(
        ("444", "AWS", "Data Transfer", "web", "Internet-Egress-GB"),
        [(300.0, 0.09 * 24), (1e9, 0.05 * 24)],
        400,
    )
    bill.usage(("444", "AWS", "EC2", "web", "c7i.xlarge"), 0.1785, 20, 0.04, shape)
    bill.usage(("444", "AWS", "EKS", "orders", "m7g.2xlarge"), 0.3264, 8, 0.04, shape)
    bill.static(("444", "AWS", "RDS", "orders", "db.r7g.2xlarge"), 0.967, 2)
    bill.raise_price(zonal, 1.5, DAY)
    assert answer(bill.write(tmp_path, DAY, "444")) == (
        Resource("Regional-Bytes-GB", "Instance_Family"),
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_a_logging_surge_in_every_application_is_the_service(tmp_path, seed):
    """A shared library logs at debug level in every application: Azure Monitor's log
    ingestion grows about 2.5 times and its custom metrics half as much again, in each of three
    applications (two families, three applications: neither one family nor one application
    holds the change); the VMs, databases and storage of the same applications keep theirs."""
    bill = Bill(START, DAY + 1, seed)
    shape = bill.weekly(1.0, 0.35)
    monitor = []
    for app, gb, series in (
        ("checkout", 10, 30_000),
        ("catalog", 6, 15_000),
        ("payments", 3, 9_000),
    ):
        logs = bill.usage(
            ("654", "Azure", "Azure Monitor", app, "Log-Ingestion-GB"), 0.115, gb, 0.05, shape
        )
        metrics = bill.usage(
            ("654", "Azure", "Azure Monitor", app, "Custom-Metrics"), 0.00025, series, 0.01
        )
        for line, factor in ((logs, 2.5), (metrics, 1.5)):
            line.count[DAY] = np.rint(line.count[DAY] * factor)
            line.cost[DAY] *= factor
        monitor += [logs, metrics]
        bill.usage(("654", "Azure", "Virtual Machines", app, "D4as_v5"), 0.172, 12, 0.04, shape)
        bill.static(("654", "Azure", "Azure SQL Database", app, "GP_Gen5_2"), 0.46, 1)
    bill.usage(("654", "Azure", "Storage", "shared", "Hot-LRS-GB"), 0.0000264, 200_000, 0.01)
    assert answer(bill.write(tmp_path, DAY, "654")) == (Resource("Azure Monitor", "Cloud_Service"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_provider_whose_every_line_rose_beside_another_provider_is_the_provider(tmp_path, seed):
    """A cost-centre account holds Oracle Cloud beside AWS. A disaster-recovery drill fails the
    ERP and the portal over to Oracle: every Oracle line runs more, each by its own factor (the
    compute fleet scales by 40%, the block volumes take a full copy, the load balancer carries a
    little more), in three services and three families; AWS, in the same account, keeps its
    life. One provider holds every moved line: it is the cause, not its families or services."""
    bill = Bill(START, DAY + 1, seed)
    shape = bill.weekly(1.0, 0.5)
    compute = ("321", "OCI", "Compute", "erp", "VM.Standard.E5.Flex")
    volumes = ("321", "OCI", "Block Volume", "erp", "Balanced-GB")
    balancer = ("321", "OCI", "Load Balancer", "portal", "Flexible-LB-Mbps")
    for line, factor in (
        (bill.usage(compute, 0.12, 30, 0.03, shape), 1.4),
        (bill.usage(volumes, 0.0000354, 90_000, 0.01), 2.5),
        (bill.usage(balancer, 0.0113, 400, 0.02), 1.2),
    ):
        line.count[DAY] = np.rint(line.count[DAY] * factor)
        line.cost[DAY] *= factor
    bill.usage(("321", "AWS", "EC2", "web", "m7i.xlarge"), 0.2016, 25, 0.04, shape)
    bill.usage(("321", "AWS", "S3", "web", "Standard-GB"), 0.0000319, 300_000, 0.01)
    bill.static(("321", "AWS", "RDS", "billing", "db.r7g.large"), 0.24, 2)
    assert answer(bill.write(tmp_path, DAY, "321")) == (Resource("OCI", "CSP"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_lifecycle_change_moving_cost_between_storage_classes_is_the_service(tmp_path, seed):
    """A storage account's lifecycle policy is rewritten to move blobs back to the hot tier on
    their first read, and a nightly indexer reads everything: hot-tier storage doubles, cool-tier
    storage falls to a third and cool-tier reads grow sixfold, in three applications. One line
    falls while the others rise: no family and no application holds the change, the service
    does; the VMs and databases beside it keep their life."""
    bill = Bill(START, DAY + 1, seed)
    shape = bill.weekly(1.0, 0.4)
    for app, gb, reads in (("media", 60_000, 500), ("archive", 90_000, 700), ("docs", 20_000, 0)):
        moved = [
            (bill.usage(("555", "Azure", "Storage", app, "Hot-LRS-GB"), 0.0000264, gb, 0.005), 2.0),
            (
                bill.usage(("555", "Azure", "Storage", app, "Cool-LRS-GB"), 0.0000139, gb, 0.005),
                1 / 3,
            ),
        ]
        if reads:
            key = ("555", "Azure", "Storage", app, "Cool-Read-Ops-10K")
            moved.append((bill.usage(key, 0.0004, reads, 0.05), 6.0))
        for line, factor in moved:
            line.count[DAY] = np.rint(line.count[DAY] * factor)
            line.cost[DAY] *= factor
        bill.usage(("555", "Azure", "Virtual Machines", app, "D4as_v5"), 0.172, 10, 0.04, shape)
    bill.static(("555", "Azure", "Azure SQL Database", "media", "GP_Gen5_4"), 0.92, 1)
    assert answer(bill.write(tmp_path, DAY, "555")) == (Resource("Storage", "Cloud_Service"),)


# Wednesday 31 December 2025; the bill holds the quarter ends of 30 June and 30 September.
QUARTER_START = dt.date(2025, 6, 2)
QUARTER_END = (dt.date(2025, 12, 31) - QUARTER_START).days


def _is_quarter_end(day: dt.date) -> bool:
    return _is_month_end(day) and day.month % 3 == 0


@pytest.mark.parametrize("seed", SEEDS)
def test_a_quarter_end_close_seen_at_earlier_quarter_ends_names_nothing(tmp_path, seed):
    """The ledger's close runs twice as much on every month end and four times as much on every
    quarter end (the quarterly consolidation), beside a web estate with a weekly rhythm. The day
    is the third quarter end of the bill: far above the other month ends, and exactly what the
    two earlier quarter ends did. Nothing is anomalous."""
    bill = Bill(QUARTER_START, QUARTER_END + 1, seed)
    shape = bill.weekly(1.0, 0.5)
    bill.usage(("777", "GCP", "Compute Engine", "web", "n2-standard-8"), 0.3885, 24, 0.03, shape)
    bill.usage(("777", "GCP", "Cloud SQL", "web", "db-custom-8-32768"), 0.62, 2, 0.01)
    close = [
        bill.usage(("777", "GCP", "BigQuery", "ledger", "Analysis-Slots"), 0.06, 200, 0.03),
        bill.usage(("777", "GCP", "Dataflow", "ledger", "vCPU-Hours"), 0.056, 120, 0.03),
    ]
    for i in range(bill.days):
        day = bill.day(i)
        factor = 4.0 if _is_quarter_end(day) else 2.0 if _is_month_end(day) else 1.0
        for line in close:
            line.count[i] = np.rint(line.count[i] * factor)
            line.cost[i] *= factor
    assert answer(bill.write(tmp_path, QUARTER_END, "777")) == ()
