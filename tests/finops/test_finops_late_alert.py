"""An alert raised days after the cost changed still names the cause; normal life in the days
before a quiet alert names nothing.

Anomaly alerts arrive once the export has landed and a detector has confirmed the new level:
one to six days after the change. By then the alert day's recent baselines hold the new level
and the day looks ordinary. The baseline finds the change within the week before the alert and
keeps it only when the bill's history says it is what the alert is about
(``finops.rca.lookback``): a step or a ramp that held, a spike already over that the bill never
made before; not a launch days before a quiet alert, a weekend back to normal after a holiday
dip, a month-start fee, a fortnightly job, a new deployment growing slowly. A change on the alert
day keeps its answer. Bills written here by hand (``tests/finops/wide_fixtures.py``), in both
layouts: ITBench-Lite ``data.csv`` and FOCUS ``focus.csv``.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import numpy as np
import pytest

from finops.model import Resource
from tests.finops.wide_fixtures import Bill, Line, answer, write_bill_as_focus

SEEDS = (7, 8, 9)
START = dt.date(2025, 9, 1)  # a Monday
ALERT = 7 * 10 + 2  # a Wednesday, ten weeks of history
ACCOUNT = "880"
INDEXER = Resource("r6g.2xlarge.search", "Instance_Family")
INDEXER_FOCUS = Resource("r6g.2xlarge.search", "ResourceId")


def _shop(seed: int, days: int = ALERT + 1, start: dt.date = START) -> Bill:
    """A ticketing site's account: front-end and batch compute that follow office hours, a search
    domain, a static database and object storage."""
    bill = Bill(start, days, seed)
    office = bill.weekly(1.0, 0.55)
    bill.usage((ACCOUNT, "AWS", "EC2", "tickets", "m7i.large"), 0.1008, 36, 0.03, office)
    bill.usage((ACCOUNT, "AWS", "EC2", "settlement", "c7i.xlarge"), 0.1785, 10, 0.04, office)
    bill.usage((ACCOUNT, "AWS", "OpenSearch", "catalog", "r6g.2xlarge.search"), 0.167, 5, 0.03)
    bill.static((ACCOUNT, "AWS", "RDS", "tickets", "db.r7g.large"), 0.239, 2)
    bill.usage((ACCOUNT, "AWS", "S3", "assets", "StandardStorage"), 0.023 / 24, 2500, 0.02)
    return bill


def _line(bill: Bill, app: str) -> Line:
    return next(line for line in bill.lines if line.app == app)


def _times(bill: Bill, app: str, factors: dict[int, float]) -> None:
    """The application's instance count (and cost) times a factor on the given days."""
    line = _line(bill, app)
    for day, factor in factors.items():
        line.count[day] = np.rint(line.count[day] * factor)
        line.cost[day] = line.price[day] * line.count[day] * 24


def _from(bill: Bill, app: str, first: int, factor: float) -> None:
    _times(bill, app, {day: factor for day in range(first, bill.days)})


def _write_focus(bill: Bill, folder: Path, alert: int) -> Path:
    """The same bill as a FOCUS export, a row per line and day it ran."""
    return write_bill_as_focus(bill, folder, alert, ACCOUNT, _running)


def _running(line: Line, i: int) -> bool:
    """A line has a row on a day it cost something or ran instances (a free instance too)."""
    return line.cost[i] != 0 or line.count[i] != 0


# --- the cost changed days before the alert: named (each fails on the code before) ------------


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("days_late", (2, 3, 5))
def test_a_step_that_held_is_named_days_later(tmp_path, seed, days_late):
    bill = _shop(seed)
    _from(bill, "catalog", ALERT - days_late, 3.0)
    assert answer(bill.write(tmp_path, ALERT, ACCOUNT)) == (INDEXER,)


@pytest.mark.parametrize("seed", SEEDS)
def test_an_office_hours_step_before_a_weekend_is_named_after_it(tmp_path, seed):
    """The settlement fleet (at half strength at weekends) tripled on the Friday; the alert comes
    on the Wednesday after the weekend, when the weekend days already hold the new level."""
    bill = _shop(seed)
    _from(bill, "settlement", ALERT - 5, 3.0)
    family = "c7i.xlarge"
    assert answer(bill.write(tmp_path, ALERT, ACCOUNT)) == (Resource(family, "Instance_Family"),)
    assert answer(_write_focus(bill, tmp_path / "focus", ALERT)) == (
        Resource(family, "ResourceId"),
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_a_step_days_before_the_alert_is_named_in_a_focus_export(tmp_path, seed):
    bill = _shop(seed)
    _from(bill, "catalog", ALERT - 3, 3.0)
    assert answer(_write_focus(bill, tmp_path, ALERT)) == (INDEXER_FOCUS,)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_ramp_over_three_days_that_then_held_is_named(tmp_path, seed):
    """A re-index doubles the domain's nodes over three days, five days before the alert."""
    bill = _shop(seed)
    first = ALERT - 5
    ramp = {first: 1.6, first + 1: 2.2}
    ramp.update({day: 2.8 for day in range(first + 2, bill.days)})
    _times(bill, "catalog", ramp)
    assert answer(bill.write(tmp_path, ALERT, ACCOUNT)) == (INDEXER,)
    assert answer(_write_focus(bill, tmp_path / "focus", ALERT)) == (INDEXER_FOCUS,)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_spike_already_over_is_named(tmp_path, seed):
    bill = _shop(seed)
    _times(bill, "settlement", {ALERT - 2: 5.0})  # Monday's runaway batch, stopped since
    family = "c7i.xlarge"
    assert answer(bill.write(tmp_path, ALERT, ACCOUNT)) == (Resource(family, "Instance_Family"),)
    assert answer(_write_focus(bill, tmp_path / "focus", ALERT)) == (
        Resource(family, "ResourceId"),
    )


# --- guard: the alert day is the change (the same answer as before) -----------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_a_change_on_the_alert_day_keeps_its_answer(tmp_path, seed):
    bill = _shop(seed)
    _from(bill, "catalog", ALERT, 3.0)
    assert answer(bill.write(tmp_path, ALERT, ACCOUNT)) == (INDEXER,)
    assert answer(_write_focus(bill, tmp_path / "focus", ALERT)) == (INDEXER_FOCUS,)


# --- guards: normal life in the week before a quiet alert names nothing ------------------------


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("days_before", (2, 5))
def test_a_launch_days_before_a_quiet_alert_names_nothing(tmp_path, seed, days_before):
    """A planned new pool (a new application at its normal price) runs level since its launch."""
    bill = _shop(seed)
    pool = bill.usage((ACCOUNT, "AWS", "EC2", "tickets-replay", "m7i.large"), 0.1008, 12, 0.0)
    pool.count[: ALERT - days_before] = 0
    pool.cost[: ALERT - days_before] = 0
    assert answer(bill.write(tmp_path, ALERT, ACCOUNT)) == ()
    assert answer(_write_focus(bill, tmp_path / "focus", ALERT)) == ()


@pytest.mark.parametrize("seed", SEEDS)
def test_a_weekend_back_to_normal_after_a_holiday_dip_names_nothing(tmp_path, seed):
    """Traffic fell by half from Wednesday to Friday before the alert (a public holiday and the
    bridge days); the weekend rose back to an ordinary weekend, and the Monday alert is an
    ordinary Monday."""
    monday = ALERT - 2
    bill = _shop(seed, monday + 1)
    for app in ("tickets", "settlement"):
        _times(bill, app, {day: 0.45 for day in range(monday - 5, monday - 2)})
    assert answer(bill.write(tmp_path, monday, ACCOUNT)) == ()
    assert answer(_write_focus(bill, tmp_path / "focus", monday)) == ()


@pytest.mark.parametrize("seed", SEEDS)
def test_a_month_start_fee_days_before_the_alert_names_nothing(tmp_path, seed):
    """A support plan billed on every 1st (the 1st of December is four days before the alert)."""
    start = dt.date(2025, 8, 4)  # a Monday
    alert = (dt.date(2025, 12, 5) - start).days
    bill = _shop(seed, alert + 1, start)
    fee = bill.flat_fee((ACCOUNT, "AWS", "Support", "account", "BusinessSupport"), 0.0)
    for i in range(bill.days):
        if bill.day(i).day == 1:
            fee.cost[i] = 900.0
    assert answer(bill.write(tmp_path, alert, ACCOUNT)) == ()
    assert answer(_write_focus(bill, tmp_path / "focus", alert)) == ()


@pytest.mark.parametrize("seed", SEEDS)
def test_a_fortnightly_job_days_before_the_alert_names_nothing(tmp_path, seed):
    """A reconciliation batch that quadruples every other Monday: the spike it made two days
    before the alert is one the bill has made before."""
    bill = _shop(seed)
    _times(bill, "settlement", {day: 4.0 for day in range(ALERT - 2, -1, -14)})
    assert answer(bill.write(tmp_path, ALERT, ACCOUNT)) == ()


@pytest.mark.parametrize("seed", SEEDS)
def test_a_new_deployment_growing_slowly_names_nothing(tmp_path, seed):
    """A new region's pool launched four weeks ago grows by one instance every three days."""
    bill = _shop(seed)
    region = bill.usage((ACCOUNT, "AWS", "EC2", "tickets-eu", "m7i.large"), 0.1008, 1, 0.0)
    launch = ALERT - 28
    for day in range(bill.days):
        region.count[day] = 0.0 if day < launch else float(1 + (day - launch) // 3)
        region.cost[day] = region.price[day] * region.count[day] * 24
    assert answer(bill.write(tmp_path, ALERT, ACCOUNT)) == ()
    assert answer(_write_focus(bill, tmp_path / "focus", ALERT)) == ()
