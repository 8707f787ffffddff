"""A season the bill went through a year back is normal life (``seasonal._year_back_season``).

* A sales week that ramps (pre-scaling a week ahead, the peak, a tail of two weeks after it) on
  the same weekday of the year as a year back, on an estate that grew over the year: the peak
  day names nothing. Before, the peak was compared with how far last year's peak stood from
  the weeks around it, which the ramp and the tail lift, so the estate's peak looked too high.
* A season set by the calendar (a filing deadline: the same dates every year, so another
  weekday) found a week into its ramp: nothing named. Before, the ramp's first days were found
  by the look-back and named.

Guards that pass before and after: the same sales week on a bill whose year back was flat
names the storefront; a runner that tripled in the filing season beside it is named.

Bills written here by hand, ITBench-Lite ``data.csv`` and FOCUS ``focus.csv``, three seeds each.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import numpy as np
import pytest

from finops.model import Resource
from tests.finops.wide_fixtures import Bill, answer, write_focus

SEEDS = (41, 42, 43)
ACCOUNT = "8808"

# --- a sales week on the same weekday of the year (ITBench-Lite) -------------------------------

SALES_START = dt.date(2024, 10, 7)  # a Monday
LAST_PEAK = (dt.date(2024, 11, 29) - SALES_START).days  # a Friday
PEAK = LAST_PEAK + 364  # the same Friday of the year after
SALES_DAYS = PEAK + 1


def _sales_week(peak: int) -> np.ndarray:
    """How far the estate's busy lines stand from their usual level around ``peak``: a week of
    pre-scaling, the peak, three busy days after it and a tail of two weeks."""
    shape = np.ones(SALES_DAYS)
    for back in range(1, 9):
        shape[peak - back] = 1.0 + 0.6 * (9 - back) / 8
    shape[peak] = 2.5
    for after, level in enumerate((2.2, 2.0, 2.1), start=1):
        if peak + after < SALES_DAYS:
            shape[peak + after] = level
    for after in range(4, 18):
        if peak + after < SALES_DAYS:
            shape[peak + after] = 1.4 if after < 11 else 1.15
    return shape


def _shop(seed: int, last_year: bool) -> Bill:
    bill = Bill(SALES_START, SALES_DAYS, seed)
    growth = 1 + 0.12 * np.arange(SALES_DAYS) / 365  # the estate grew over the year
    season = _sales_week(PEAK) * (_sales_week(LAST_PEAK) if last_year else 1.0)
    weekend = bill.weekly(1.0, 1.1)
    busy = growth * weekend * season
    bill.usage((ACCOUNT, "AWS", "EC2", "shopfront", "c7g.xlarge"), 0.145, 40, 0.03, busy)
    bill.usage((ACCOUNT, "AWS", "EC2", "orders", "m7g.large"), 0.0816, 24, 0.03, busy)
    bill.usage((ACCOUNT, "AWS", "EMR", "analytics", "r7g.xlarge"), 0.2142, 10, 0.04)
    bill.static((ACCOUNT, "AWS", "RDS", "orders", "db.r7g.xlarge"), 0.478, 2)
    return bill


@pytest.mark.parametrize("seed", SEEDS)
def test_the_sales_week_of_a_year_back_is_normal(tmp_path, seed):
    """The shop's peak Friday, 2.5 times its usual level after a week of pre-scaling, as on the
    same Friday a year back (on an estate 12 % smaller then)."""
    bill = _shop(seed, last_year=True)
    assert answer(bill.write(tmp_path, PEAK, ACCOUNT)) == ()


@pytest.mark.parametrize("seed", SEEDS)
def test_a_sales_week_the_bill_never_had_is_named(tmp_path, seed):
    """Guard: the same week on a bill whose year back was flat: the shop's rise is named."""
    bill = _shop(seed, last_year=False)
    found = answer(bill.write(tmp_path, PEAK, ACCOUNT))
    assert found and all(
        r in {Resource("EC2", "Cloud_Service"), Resource("AWS", "CSP")}
        or r.name in {"shopfront", "orders", "c7g.xlarge", "m7g.large"}
        for r in found
    )


# --- a season set by the calendar (FOCUS) ------------------------------------------------------

LEVELS = ["BillingAccountId", "ProviderName", "ServiceName", "ResourceId"]
FILING_START = dt.date(2024, 1, 1)
SEASON_OPENS = ((1, 20), (4, 15))  # (month, day) of the season's first and last day
FILING_ALERT = (dt.date(2025, 1, 27) - FILING_START).days  # a week into this year's season


def _filing_shape(days: int) -> np.ndarray:
    """From 20 January to 15 April every year: a ramp over ten days to 1.8 times the usual level."""
    shape = np.ones(days)
    for i in range(days):
        day = FILING_START + dt.timedelta(days=i)
        opens = dt.date(day.year, *SEASON_OPENS[0])
        closes = dt.date(day.year, *SEASON_OPENS[1])
        if opens <= day <= closes:
            shape[i] = 1.0 + 0.8 * min((day - opens).days + 1, 10) / 10
    return shape


def _filing(folder: Path, seed: int, runner_rise: float = 1.0) -> Path:
    """The bill, written to ``folder``: a FOCUS export, a row per line and day."""
    rng = np.random.default_rng(seed)
    days = FILING_ALERT + 1
    growth = 1 + 0.08 * np.arange(days) / 365
    weekday = np.array(
        [0.7 if (FILING_START + dt.timedelta(days=i)).weekday() >= 5 else 1.0 for i in range(days)]
    )
    season = _filing_shape(days)
    lines = {
        ("CloudY", "Filing API", "api-pool"): 220 * growth * weekday * season,
        ("CloudY", "Document Store", "doc-bucket"): 90 * growth * (1 + (season - 1) / 2),
        ("CloudY", "Directory", "dir-main"): 35 * np.ones(days),
        ("CloudY", "Build", "runner-pool"): 60 * weekday,
    }
    lines[("CloudY", "Build", "runner-pool")][FILING_ALERT] *= runner_rise
    noisy = {k: v * (1 + rng.normal(0, 0.03, days)) for k, v in lines.items()}
    rows = (
        (FILING_START + dt.timedelta(days=i), (ACCOUNT, *key), float(cost[i]))
        for i in range(days)
        for key, cost in noisy.items()
    )
    alert = FILING_START + dt.timedelta(days=FILING_ALERT)
    return write_focus(folder, LEVELS, rows, alert, ACCOUNT, LEVELS)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_season_on_the_same_dates_as_a_year_back_is_normal(tmp_path, seed):
    """The filing service a week into its season (from 20 January, a Saturday a year back and
    a Monday now): the same ramp as on the same dates a year back."""
    assert answer(_filing(tmp_path, seed)) == ()


@pytest.mark.parametrize("seed", SEEDS)
def test_a_runner_tripled_in_the_season_is_named(tmp_path, seed):
    """Guard: the build runners tripled on the alert day, inside the filing season."""
    found = answer(_filing(tmp_path, seed, runner_rise=3.0))
    assert found in ((Resource("runner-pool", "ResourceId"),), (Resource("Build", "ServiceName"),))
