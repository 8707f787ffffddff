"""A charge billed only at its place in the month or year moves by a few percent as part of its
normal life; a charge that changed is still named.

A subscription on every 1st or a contract renewed once a year has one amount each time, so its
own history shows no spread, and the baseline gave it none: a seat added or a yearly uplift of a
few percent on the day it recurs was a rise infinitely many sigmas out. Such a charge is now
expected at what it came to when it stayed within a tenth of its usual amount
(``seasonal.charge_as_billed``), and at its usual amount beyond that. Bills written here by hand
(``tests/finops/wide_fixtures.py``): ITBench-Lite ``data.csv`` and FOCUS ``focus.csv``.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from finops.model import Resource
from tests.finops.wide_fixtures import Bill, Line, answer, write_bill_as_focus

SEEDS = (11, 12, 13)
ACCOUNT = "7315"


def _studio(seed: int, start: dt.date, alert: dt.date) -> Bill:
    """A game studio's account: build agents that follow office hours, a render farm, a static
    asset database and object storage."""
    bill = Bill(start, (alert - start).days + 1, seed)
    office = bill.weekly(1.0, 0.5)
    bill.usage((ACCOUNT, "Azure", "VirtualMachines", "builds", "D8as_v5"), 0.344, 24, 0.04, office)
    bill.usage((ACCOUNT, "Azure", "VirtualMachines", "render", "NC24ads_A100"), 3.67, 3, 0.05)
    bill.static((ACCOUNT, "Azure", "SQLDatabase", "assets", "GP_Gen5_4"), 0.505, 1)
    bill.usage((ACCOUNT, "Azure", "Storage", "assets", "HotLRS"), 0.0184 / 24, 60000, 0.02)
    return bill


def _charged(bill: Bill, key: tuple[str, ...], amounts: dict[dt.date, float]) -> Line:
    """A line billed only on the given days (a subscription, a renewal), nothing in between."""
    line = bill.flat_fee(key, 0.0)
    for i in range(bill.days):
        line.cost[i] = amounts.get(bill.day(i), 0.0)
    return line


def _seat_plan(bill: Bill, last: float) -> None:
    """A per-seat developer plan on every 1st: 40 seats at $39 until May, 42 from May (two
    hires), and ``last`` on the bill's last 1st."""
    firsts = [bill.day(i) for i in range(bill.days) if bill.day(i).day == 1]
    amounts = {day: 39.0 * (40 if day.month < 5 else 42) for day in firsts}
    amounts[firsts[-1]] = last
    _charged(bill, (ACCOUNT, "Azure", "Marketplace", "engineering", "SeatPlan"), amounts)


START = dt.date(2025, 2, 3)  # a Monday
FIRST = dt.date(2025, 7, 1)  # a Tuesday, the alert


@pytest.mark.parametrize("seed", SEEDS)
def test_a_monthly_plan_up_by_a_price_list_step_names_nothing(tmp_path, seed):
    """42 seats, and a published +3 % per-seat price from July."""
    bill = _studio(seed, START, FIRST)
    _seat_plan(bill, 42 * 39.0 * 1.03)
    assert answer(bill.write(tmp_path, bill.days - 1, ACCOUNT)) == ()


@pytest.mark.parametrize("seed", SEEDS)
def test_a_monthly_plan_with_two_seats_more_names_nothing(tmp_path, seed):
    bill = _studio(seed, START, FIRST)
    _seat_plan(bill, 44 * 39.0)
    assert answer(bill.write(tmp_path, bill.days - 1, ACCOUNT)) == ()


# --- guard: a charge that changed is still named (before and after) ----------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_a_monthly_plan_that_doubled_is_named(tmp_path, seed):
    """Every contractor was given a seat by a directory sync: 84 seats."""
    bill = _studio(seed, START, FIRST)
    _seat_plan(bill, 84 * 39.0)
    assert answer(bill.write(tmp_path, bill.days - 1, ACCOUNT)) == (
        Resource("SeatPlan", "Instance_Family"),
    )


# --- a yearly renewal, FOCUS --------------------------------------------------------------------

YEAR_START = dt.date(2024, 9, 2)  # a Monday
RENEWAL = dt.date(2025, 10, 8)  # a Wednesday, the alert; renewed on 2024-10-08 a year before


def _write_focus(bill: Bill, folder: Path, alert: int) -> Path:
    """The bill as a FOCUS export, a row on each day a line cost something."""
    return write_bill_as_focus(bill, folder, alert, ACCOUNT, lambda line, i: line.cost[i] != 0)


def _renewed(seed: int, uplift: float) -> Bill:
    """An endpoint-protection contract paid once a year, renewed on the same date at ``uplift``
    times last year's price."""
    bill = _studio(seed, YEAR_START, RENEWAL)
    year_before = RENEWAL.replace(year=RENEWAL.year - 1)
    _charged(
        bill,
        (ACCOUNT, "Azure", "Security", "EndpointShield", "annual-contract"),
        {year_before: 36000.0, RENEWAL: 36000.0 * uplift},
    )
    return bill


@pytest.mark.parametrize("seed", SEEDS)
def test_a_yearly_renewal_with_its_contractual_uplift_names_nothing(tmp_path, seed):
    bill = _renewed(seed, 1.05)
    assert answer(_write_focus(bill, tmp_path, bill.days - 1)) == ()


@pytest.mark.parametrize("seed", SEEDS)
def test_a_yearly_renewal_at_half_as_much_again_is_named(tmp_path, seed):
    """Guard: the renewal came at +50 % (a tier the account does not need)."""
    bill = _renewed(seed, 1.5)
    assert answer(_write_focus(bill, tmp_path, bill.days - 1)) == (
        Resource("annual-contract", "ResourceId"),
    )
