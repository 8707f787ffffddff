"""The parsimonious cause on hand-made bills of kinds the drill-down used to split or widen.

Each test is one kind of bill, written from what billing exports look like (not copied from any
held-out set): a family repriced beside static lines of other classes and reserved lines of its
own; a month's first day carrying monthly fees and batches beside a price change; an account (a
region) holding one application that rises on every line; one application moved to other prices
in every service it uses; a service repriced beside spot lines or one application on a private
contract; a provider repriced beside reserved fleets billed as usage. The labels are the smallest
resource an analyst would name, fixed before the baseline was changed; every test failed on the
baseline before the rules of issue 28 item 4 (one family repriced, monthly charges, one
application across services, contract exceptions).
"""

from __future__ import annotations

import datetime as dt

import pytest

from finops.model import Resource
from tests.finops.wide_fixtures import Bill, Line, answer

SEEDS = (1, 2, 3)

START = dt.date(2024, 5, 6)  # a Monday
DAY = 49  # a Monday, seven weeks of history
AWS = Resource("AWS", "CSP")
EC2 = Resource("EC2", "Cloud_Service")

FAMILIES = {"m5.large": 0.096, "c5.xlarge": 0.17, "r5.large": 0.126}


def _compute(bill: Bill, account: str = "111", apps=(("shop", 14), ("search", 10))) -> None:
    """Noisy on-demand fleets on a weekday/weekend rhythm: the bill's ordinary life."""
    shape = bill.weekly(1.0, 0.55)
    for app, n in apps:
        for family, price in FAMILIES.items():
            bill.usage((account, "AWS", "EC2", app, family), price, n, shape=shape)


def _usage_lines(bill: Bill, *prefix: str) -> list[Line]:
    """Lines billed by usage (their count moves), not static amounts."""
    return [line for line in bill.under(*prefix) if line.count.any() and len(set(line.count)) > 1]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_family_repriced_beside_static_classes_and_its_reserved_nodes_is_the_family(
    tmp_path, seed
):
    """A cache estate: every node is static (the same cost every day). cache.r7g.large costs 20%
    more in every application; the other node classes keep their price, and so do two reserved
    r7g.large nodes. A price list would have moved the other classes too: the family."""
    bill = Bill(START, DAY + 1, seed)
    _compute(bill)
    family = [
        bill.static(("111", "AWS", "ElastiCache", app, "cache.r7g.large"), 0.219, n)
        for app, n in (("shop", 3), ("search", 2), ("mail", 2))
    ]
    bill.static(("111", "AWS", "ElastiCache", "shop", "cache.r7g.xlarge"), 0.437, 2)
    bill.static(("111", "AWS", "ElastiCache", "mail", "cache.t4g.medium"), 0.065, 2)
    bill.static(("111", "AWS", "ElastiCache", "sessions", "cache.r7g.large"), 0.14, 2)
    bill.raise_price(family, 1.2, DAY)
    assert answer(bill.write(tmp_path, DAY, "111")) == (
        Resource("cache.r7g.large", "Instance_Family"),
    )


# A month's first day with two earlier ones in the history.
MONTHLY_START = dt.date(2024, 4, 22)
FIRST = (dt.date(2024, 7, 1) - MONTHLY_START).days


def _monthly_life(bill: Bill) -> None:
    """A support fee billed on every 1st only (one unit at the day's amount per hour, as exports
    write fees), and a billing batch that triples on every 1st."""
    fee = bill.flat_fee(("111", "AWS", "Support", "shared", "Business-Support"), 1400.0)
    batch = bill.usage(("111", "AWS", "EC2", "finance", "c6i.4xlarge"), 0.68, 4)
    for i in range(bill.days):
        if bill.day(i).day != 1:
            fee.cost[i] = 0.0
        else:
            fee.count[i], fee.price[i] = 1.0, fee.cost[i] / 24
            batch.cost[i] *= 3
            batch.count[i] *= 3


@pytest.mark.parametrize("seed", SEEDS)
def test_a_family_repriced_on_the_first_beside_monthly_fees_and_batches_is_the_family(
    tmp_path, seed
):
    """The fee and the batch are the 1st's normal life: neither is a new cost."""
    bill = Bill(MONTHLY_START, FIRST + 1, seed)
    _compute(bill)
    _monthly_life(bill)
    bill.raise_price(
        [line for line in _usage_lines(bill, "AWS", "EC2") if line.family == "m5.large"],
        1.2,
        FIRST,
    )
    assert answer(bill.write(tmp_path, FIRST, "111")) == (Resource("m5.large", "Instance_Family"),)


# A month's first day that is a Saturday, two earlier 1sts in the history.
SATURDAY_START = dt.date(2024, 3, 18)
SATURDAY_FIRST = (dt.date(2024, 6, 1) - SATURDAY_START).days


@pytest.mark.parametrize("seed", SEEDS)
def test_a_provider_rise_on_the_first_beside_fees_credits_and_commitments_is_the_provider(
    tmp_path, seed
):
    """A weekend 1st: the estate at its weekend level, the monthly fee far larger than the day's
    usage. AWS prices rise 9% on every usage line and the database; the fee, a savings plan's
    fee and a credit keep their amounts. The fee's kept price is no evidence against the
    provider's price list: it is billed every month at its own amount."""
    day = SATURDAY_FIRST
    bill = Bill(SATURDAY_START, day + 1, seed)
    _compute(bill)
    _monthly_life(bill)
    shape = bill.weekly(1.0, 0.55)
    bill.usage(("111", "AWS", "S3", "shop", "Standard-Storage"), 0.023, 300, 0.02, shape)
    bill.static(("111", "AWS", "RDS", "search", "db.r6g.large"), 0.258, 2)
    bill.flat_fee(("111", "AWS", "Savings Plans", "shared", "Compute-SP-Fee"), 96.0)
    bill.flat_fee(("111", "AWS", "Credits", "shared", "EDP-Credit"), -70.0)
    usage = [line for line in _usage_lines(bill, "AWS") if line.service != "Support"]
    moved = usage + bill.under("AWS", "RDS")
    bill.raise_price(moved, 1.09, day)
    assert answer(bill.write(tmp_path, day, "111")) == (AWS,)


@pytest.mark.parametrize("seed", SEEDS)
def test_an_account_holding_one_application_that_rises_on_every_line_is_the_application(
    tmp_path, seed
):
    """One account per region; the new region's account holds one application (compute, a
    database, storage) and a support allocation. Its region is repriced: every line of the
    application rises, the allocation does not. The finest resource holding every moved line
    is the application (the bill has no region)."""
    bill = Bill(START, DAY + 1, seed)
    _compute(bill)  # the home region's account: same families, flat
    shape = bill.weekly(1.0, 0.6)
    app = [
        bill.usage(("222", "AWS", "EC2", "pay-mx", "m5.large"), 0.11, 8, shape=shape),
        bill.usage(("222", "AWS", "EC2", "pay-mx", "c5.xlarge"), 0.19, 3, shape=shape),
        bill.static(("222", "AWS", "RDS", "pay-mx", "db.r6g.large"), 0.29, 1),
        bill.usage(("222", "AWS", "S3", "pay-mx", "Standard-Storage"), 0.025, 40, 0.02),
    ]
    bill.flat_fee(("222", "AWS", "Support", "shared", "Support-Allocation"), 45.0)
    bill.raise_price(app, 1.13, DAY)
    assert answer(bill.write(tmp_path, DAY, "222")) == (Resource("pay-mx", "Application"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_one_application_moved_to_other_prices_in_every_service_is_the_application(tmp_path, seed):
    """analytics' subscription leaves the enterprise agreement: every line of it, in compute,
    databases and storage, is billed 18% dearer; the same families in other applications keep
    their price. Neither a family nor a service holds the change: the application does."""
    bill = Bill(START, DAY + 1, seed)
    apps = (("analytics", 10), ("portal", 8), ("claims", 6))
    _compute(bill, apps=apps)
    shape = bill.weekly(1.0, 0.55)
    for app, n in apps:
        bill.static(("111", "AWS", "RDS", app, "db.r6g.large"), 0.258, 1)
        bill.usage(("111", "AWS", "S3", app, "Standard-Storage"), 0.023, 30 * n, 0.02, shape)
    bill.raise_price([line for line in bill.lines if line.app == "analytics"], 1.18, DAY)
    assert answer(bill.write(tmp_path, DAY, "111")) == (Resource("analytics", "Application"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_service_repriced_beside_spot_lines_is_the_service(tmp_path, seed):
    """Pay-as-you-go EC2 prices rise 20% in every application; two applications also run spot
    capacity, billed by usage at a market price that does not follow the list. Two kept lines
    beside six that rose are the list price's exceptions, not six causes."""
    bill = Bill(START, DAY + 1, seed)
    _compute(bill)
    shape = bill.weekly(1.0, 0.55)
    on_demand = _usage_lines(bill, "AWS", "EC2")
    bill.usage(("111", "AWS", "EC2", "shop", "m5.large-Spot"), 0.035, 10, shape=shape)
    bill.usage(("111", "AWS", "EC2", "search", "c5.xlarge-Spot"), 0.062, 8, shape=shape)
    bill.static(("111", "AWS", "RDS", "shop", "db.m5.large"), 0.171, 2)
    bill.raise_price(on_demand, 1.2, DAY)
    assert answer(bill.write(tmp_path, DAY, "111")) == (EC2,)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_service_repriced_except_one_application_on_private_pricing_is_the_service(
    tmp_path, seed
):
    """CDN egress and request prices rise 30% in every application but media, whose private
    pricing contract keeps its rate."""
    bill = Bill(START, DAY + 1, seed)
    _compute(bill)
    shape = bill.weekly(1.0, 0.7)
    cdn = Resource("CloudFront", "Cloud_Service")
    for app, gb in (("catalog", 600), ("mobile", 900), ("storefront", 700), ("media", 2500)):
        bill.usage(("111", "AWS", "CloudFront", app, "Egress-GB"), 0.085, gb, shape=shape)
        bill.usage(("111", "AWS", "CloudFront", app, "Requests-10k"), 0.0075, gb / 2, shape=shape)
    listed = [line for line in bill.under("AWS", "CloudFront") if line.app != "media"]
    bill.raise_price(listed, 1.3, DAY)
    assert answer(bill.write(tmp_path, DAY, "111")) == (cdn,)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_provider_repriced_beside_reserved_fleets_billed_as_usage_is_the_provider(tmp_path, seed):
    """AWS list prices rise 10%; a platform team's fleets of m5.large and c5.xlarge run at a
    reserved rate billed by usage (their count moves, their price does not). The same families
    rose in the other applications of EC2: the kept lines are the reservation's exceptions to
    the provider's new price list."""
    bill = Bill(START, DAY + 1, seed)
    _compute(bill, apps=(("shop", 14), ("search", 10), ("mail", 6)))
    shape = bill.weekly(1.0, 0.55)
    bill.usage(("111", "AWS", "S3", "shop", "Standard-Storage"), 0.023, 400, 0.02, shape)
    bill.static(("111", "AWS", "RDS", "search", "db.m5.large"), 0.171, 2)
    listed = list(bill.lines)
    bill.usage(("111", "AWS", "EC2", "platform", "m5.large"), 0.060, 10, shape=shape)
    bill.usage(("111", "AWS", "EC2", "platform", "c5.xlarge"), 0.107, 6, shape=shape)
    bill.usage(("111", "GCP", "Compute Engine", "batch", "e2-standard-4"), 0.134, 6, shape=shape)
    bill.raise_price(listed, 1.1, DAY)
    assert answer(bill.write(tmp_path, DAY, "111")) == (AWS,)
