"""A provider's licence terms lost in every sub-account are the provider, though the drill-down
finds one service in two sub-accounts and only the largest of the other lines.

Bring-your-own-licence ends: every compute and database line of the provider is billed with the
licence included, about 1.4 times, in both compartments, while block storage (no licence) keeps
its level. The drill-down names what is material on its own: the compute service of each
compartment (one name twice) and the largest database; the smaller databases rose by the same
factor and are not material each. Several causes that rose by about one factor and meet below
the account are that node (``finops.rca.drilldown._one_factor_where_they_meet``): a name found in
two sub-accounts beside another cause no longer stops it, and the lines beside them that rose by
the same factor count in what the causes carry. Bills written here by hand, FOCUS exports with a
sub-account level (``tests/finops/wide_fixtures.py``).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from finops.model import Resource
from tests.finops.wide_fixtures import Bill, Line, answer, write_focus

SEEDS = (31, 32, 33)
START = dt.date(2025, 10, 6)  # a Monday
ALERT = 7 * 9 + 3  # a Thursday, nine weeks in
ACCOUNT = "EA-4410"
LEVELS = ("BillingAccountId", "ProviderName", "SubAccountId", "ServiceName", "ResourceId")
LICENSED = ("Compute", "Database", "Exadata")


def _bill(seed: int) -> Bill:
    """Two OCI compartments (production and its disaster-recovery copy at half size) with
    compute, databases of three sizes and block volumes; an AWS account beside them."""
    bill = Bill(START, ALERT + 1, seed)
    office = bill.weekly(1.0, 0.7)
    for compartment, size in (("fin-prod", 1.0), ("fin-dr", 0.5)):
        bill.usage((ACCOUNT, "OCI", compartment, "Compute", f"ocid-vm-ledger-{compartment}"), 0.9, 20 * size, 0.03, office)  # fmt: skip
        bill.usage((ACCOUNT, "OCI", compartment, "Database", f"ocid-db-ledger-{compartment}"), 2.2, 4 * size, 0.02)  # fmt: skip
        bill.usage((ACCOUNT, "OCI", compartment, "Database", f"ocid-db-audit-{compartment}"), 2.2, 1 * size, 0.02)  # fmt: skip
        bill.usage((ACCOUNT, "OCI", compartment, "Exadata", f"ocid-exa-{compartment}"), 3.1, 1, 0.02)  # fmt: skip
        bill.usage((ACCOUNT, "OCI", compartment, "Block Volume", f"ocid-bv-{compartment}"), 0.04 / 24, 8000 * size, 0.01)  # fmt: skip
    bill.usage((ACCOUNT, "AWS", "acct-3391", "EC2", "i-0b7e-web"), 0.19, 30, 0.03, office)
    bill.static((ACCOUNT, "AWS", "acct-3391", "RDS", "db-orders"), 0.7, 2)
    return bill


def _oci(bill: Bill, services: tuple[str, ...]) -> list[Line]:
    return [line for line in bill.lines if line.csp == "OCI" and line.app in services]


def _licence_included(lines: list[Line], factors: tuple[float, ...]) -> None:
    """Each line billed from the alert on at its own licence-included factor."""
    for i, line in enumerate(lines):
        factor = factors[i % len(factors)]
        line.price[ALERT:] *= factor
        line.cost[ALERT:] *= factor


def _write(bill: Bill, folder: Path) -> Path:
    rows = (
        (bill.day(i), line.key, float(line.cost[i]))
        for i in range(bill.days)
        for line in bill.lines
        if line.cost[i] != 0
    )
    return write_focus(folder, LEVELS, rows, bill.day(ALERT), ACCOUNT, LEVELS)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_licence_lost_on_every_licensed_line_names_the_provider(tmp_path, seed):
    bill = _bill(seed)
    _licence_included(_oci(bill, LICENSED), (1.42, 1.37, 1.45, 1.4))
    assert answer(_write(bill, tmp_path)) == (Resource("OCI", "ProviderName"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_compute_alone_in_both_compartments_is_the_service(tmp_path, seed):
    """Only the compute lines moved (an image switched to licence-included): the service in
    both compartments, not the provider whose databases kept their level."""
    bill = _bill(seed)
    _licence_included(_oci(bill, ("Compute",)), (1.42,))
    assert answer(_write(bill, tmp_path)) == (Resource("Compute", "ServiceName"),)
