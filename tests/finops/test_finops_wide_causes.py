"""Provider-wide and service-wide causes on bills whose normal life the generator never makes.

One situation per test, a few seeds each; every fixture must be answered with exactly the true
resource (the parsimonious answer), not with the leaves under it or beside it.
"""

from __future__ import annotations

import datetime as dt

import pytest

from finops.model import Resource
from tests.finops.wide_fixtures import Bill, answer, small_fleets

SEEDS = (1, 2, 3)


AWS = Resource("AWS", "CSP")
RDS = Resource("RDS", "Cloud_Service")


def estate(bill: Bill, account: str = "111", weekly: bool = False, scale: float = 1.0) -> None:
    """An ordinary estate: AWS compute that follows load, databases that cost the same every day,
    tiered object storage; a second provider beside it."""
    shape = bill.weekly(1.0, 0.45) if weekly else None
    for app, n in (("shop", 20), ("search", 12)):
        bill.usage((account, "AWS", "EC2", app, "m5.large"), 0.096, n * scale, shape=shape)
        bill.usage((account, "AWS", "EC2", app, "c5.2xlarge"), 0.34, n * scale / 2, shape=shape)
    bill.static((account, "AWS", "RDS", "shop", "db.r5.2xlarge"), 1.0, 3)
    bill.static((account, "AWS", "RDS", "search", "db.m5.xlarge"), 0.342, 2)
    bill.tiered(
        (account, "AWS", "S3", "shop", "Standard"),
        [(50_000, 0.023 / 30), (450_000, 0.022 / 30), (1e12, 0.021 / 30)],
        120_000 * scale,
    )
    bill.usage(
        (account, "GCP", "Compute Engine", "batch", "n2-standard-4"), 0.19, 10 * scale, shape=shape
    )
    bill.static((account, "GCP", "Cloud SQL", "batch", "db-custom-4"), 0.4, 1)


def _provider_rise(bill: Bill, day: int, factor: float = 1.15, account: str | None = None) -> None:
    lines = [
        line
        for line in bill.under("AWS")
        if line.count.any() and (account is None or line.account == account)
    ]
    bill.raise_price(lines, factor, day)


@pytest.mark.parametrize("seed", SEEDS)
def test_provider_price_rise_over_static_databases_and_tiered_storage(tmp_path, seed):
    bill = Bill(dt.date(2024, 5, 6), 49, seed)
    estate(bill)
    _provider_rise(bill, 48)
    assert answer(bill.write(tmp_path, 48, "111")) == (AWS,)


@pytest.mark.parametrize("seed", SEEDS)
def test_provider_rise_beside_a_committed_use_fee_and_a_credit(tmp_path, seed):
    """The fee and the credit are fixed amounts: the provider's new price list does not move them."""
    bill = Bill(dt.date(2024, 5, 6), 49, seed)
    estate(bill)
    bill.flat_fee(("111", "AWS", "Savings Plans", "shared", "Compute SP"), 60.0)
    bill.flat_fee(("111", "AWS", "Credits", "shared", "Promotional credit"), -40.0)
    _provider_rise(bill, 48)
    assert answer(bill.write(tmp_path, 48, "111")) == (AWS,)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_committed_use_discount_expiring_is_the_provider(tmp_path, seed):
    """The commitment's fee line stops and every AWS usage line goes back to list price."""
    bill = Bill(dt.date(2024, 5, 6), 49, seed)
    estate(bill)
    fee = bill.flat_fee(("111", "AWS", "Savings Plans", "shared", "Compute SP"), 25.0)
    fee.cost[48:] = 0.0
    _provider_rise(bill, 48, 1.35)
    assert answer(bill.write(tmp_path, 48, "111")) == (AWS,)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("weekday", ["Monday", "Saturday"])
def test_provider_rise_on_a_weekday_weekend_estate(tmp_path, seed, weekday):
    start = dt.date(2024, 5, 6)  # a Monday: day 49 is a Monday, day 54 a Saturday
    day = 49 if weekday == "Monday" else 54
    bill = Bill(start, day + 1, seed)
    estate(bill, weekly=True)
    _provider_rise(bill, day)
    assert bill.day(day).strftime("%A") == weekday
    assert answer(bill.write(tmp_path, day, "111")) == (AWS,)


@pytest.mark.parametrize("seed", SEEDS)
def test_provider_rise_on_a_month_start_with_a_monthly_batch(tmp_path, seed):
    """A batch runs on the 1st of every month (three times its usual size); the provider raises
    its prices on a 1st too. One earlier month start is in the window."""
    start = dt.date(2024, 4, 20)
    day = (dt.date(2024, 6, 1) - start).days
    bill = Bill(start, day + 1, seed)
    estate(bill)
    batch = bill.usage(("111", "AWS", "EC2", "reports", "r5.2xlarge"), 0.504, 4)
    for i in range(bill.days):
        if bill.day(i).day == 1:
            batch.count[i] *= 3
            batch.cost[i] *= 3
    _provider_rise(bill, day)
    assert answer(bill.write(tmp_path, day, "111")) == (AWS,)


@pytest.mark.parametrize("seed", SEEDS)
def test_provider_rise_with_partial_days_at_both_edges(tmp_path, seed):
    """The export starts at 14:00 on its first day and stops at 07:00 two days after the anomaly."""
    bill = Bill(dt.date(2024, 5, 6), 31, seed)
    estate(bill)
    _provider_rise(bill, 28)
    folder = bill.write(tmp_path, 28, "111", partial_first=10 / 24, partial_last=7 / 24)
    assert answer(folder) == (AWS,)


@pytest.mark.parametrize("seed", SEEDS)
def test_several_accounts_rise_together_when_the_provider_raises_a_price(tmp_path, seed):
    bill = Bill(dt.date(2024, 5, 6), 49, seed)
    for account, scale in (("111", 1.0), ("222", 0.6), ("333", 2.0)):
        estate(bill, account, scale=scale)
    _provider_rise(bill, 48, 1.12)
    for account in ("111", "222", "333"):
        assert answer(bill.write(tmp_path / account, 48, account)) == (AWS,), account


@pytest.mark.parametrize("seed", SEEDS)
def test_another_accounts_provider_rise_does_not_widen_a_leaf_spike_here(tmp_path, seed):
    """Account 333's provider raised its prices; account 111's only change that day is one
    fleet tripling. The other account's change is not evidence about this one's leaf."""
    bill = Bill(dt.date(2024, 5, 6), 49, seed)
    for account in ("111", "333"):
        estate(bill, account)
    _provider_rise(bill, 48, 1.15, account="333")
    (fleet,) = [
        line for line in bill.under("AWS", "EC2", "shop", "c5.2xlarge") if line.account == "111"
    ]
    fleet.count[48] *= 3
    fleet.cost[48] *= 3
    assert answer(bill.write(tmp_path / "111", 48, "111")) == (
        Resource("c5.2xlarge", "Instance_Family"),
    )
    assert answer(bill.write(tmp_path / "333", 48, "333")) == (AWS,)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_managed_database_price_rise_is_the_service(tmp_path, seed):
    """Every database of every application costs 20% more: the service's price list moved."""
    bill = Bill(dt.date(2024, 5, 6), 49, seed)
    estate(bill)
    bill.static(("111", "AWS", "RDS", "reports", "db.t3.medium"), 0.068, 3)
    bill.raise_price(bill.under("AWS", "RDS"), 1.2, 48)
    assert answer(bill.write(tmp_path, 48, "111")) == (RDS,)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_compute_price_rise_on_a_weekday_weekend_estate_is_the_service(tmp_path, seed):
    bill = Bill(dt.date(2024, 5, 6), 50, seed)
    estate(bill, weekly=True)
    bill.raise_price(bill.under("AWS", "EC2"), 1.18, 49)
    assert answer(bill.write(tmp_path, 49, "111")) == (Resource("EC2", "Cloud_Service"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_one_database_resized_is_that_database_not_the_service(tmp_path, seed):
    """Parsimony both ways: one static resource that doubled is named alone."""
    bill = Bill(dt.date(2024, 5, 6), 49, seed)
    estate(bill)
    (db,) = [line for line in bill.under("AWS", "RDS") if line.family == "db.r5.2xlarge"]
    db.count[48:] *= 2
    db.cost[48:] *= 2
    assert answer(bill.write(tmp_path, 48, "111")) == (
        Resource("db.r5.2xlarge", "Instance_Family"),
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_a_quiet_day_on_this_estate_has_no_cause(tmp_path, seed):
    bill = Bill(dt.date(2024, 5, 6), 49, seed)
    estate(bill, weekly=True)
    bill.flat_fee(("111", "AWS", "Credits", "shared", "Promotional credit"), -40.0)
    assert answer(bill.write(tmp_path, 48, "111")) == ()


def _one_instance_more(bill: Bill, day: int, app: str) -> None:
    (fleet,) = [line for line in bill.under("AWS", "EC2", app, "m5.large")]
    fleet.cost[day] *= (fleet.count[day] + 1) / max(fleet.count[day], 1)
    fleet.count[day] += 1


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("day", [49, 54])  # a Monday, a Saturday
def test_a_provider_rise_with_a_one_instance_move_that_day_is_the_provider(tmp_path, seed, day):
    """Every AWS price rises 12% on the day a fleet of a few instances gains one: the new price
    list explains every line; the one instance is not a cause of its own."""
    bill = Bill(dt.date(2024, 5, 6), day + 1, seed)
    small_fleets(bill)
    _provider_rise(bill, day, 1.12)
    _one_instance_more(bill, day, "search")
    assert answer(bill.write(tmp_path, day, "111")) == (AWS,)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("day", [49, 54])
def test_a_service_rise_with_a_one_instance_move_that_day_is_the_service(tmp_path, seed, day):
    bill = Bill(dt.date(2024, 5, 6), day + 1, seed)
    small_fleets(bill)
    bill.raise_price(bill.under("AWS", "EC2"), 1.2, day)
    _one_instance_more(bill, day, "mail")
    assert answer(bill.write(tmp_path, day, "111")) == (Resource("EC2", "Cloud_Service"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_one_family_repriced_in_every_application_is_that_family(tmp_path, seed):
    """Control: m5.large costs 25% more in every application, c5.xlarge does not: the service's
    lines did not all move, so the answer is the family, not EC2."""
    bill = Bill(dt.date(2024, 5, 6), 50, seed)
    small_fleets(bill)
    bill.raise_price([line for line in bill.under("AWS", "EC2") if line.family == "m5.large"],
                     1.25, 49)  # fmt: skip
    assert answer(bill.write(tmp_path, 49, "111")) == (Resource("m5.large", "Instance_Family"),)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_provider_repricing_each_service_differently_is_the_provider(tmp_path, seed):
    """Compute 9% dearer, databases 16%, on a Saturday with a one-instance move: every priced
    AWS line moved on the day, so one price list explains them all."""
    bill = Bill(dt.date(2024, 5, 6), 55, seed)
    small_fleets(bill)
    bill.raise_price(bill.under("AWS", "EC2"), 1.09, 54)
    bill.raise_price(bill.under("AWS", "RDS"), 1.16, 54)
    _one_instance_more(bill, 54, "shop")
    assert answer(bill.write(tmp_path, 54, "111")) == (AWS,)
