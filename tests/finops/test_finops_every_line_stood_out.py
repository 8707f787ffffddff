"""Every line of one owner standing far out on the same day is one change of the owner.

A batch run over one application's fleets (its GPU pool twelve times its size, its memory pool
eight times) makes each of its instance families rise by its own factor, so no common growth
factor describes the application and the drill-down named each family: two names where one
says it, and a family's name that also covers the other applications running it
(``drilldown._every_line_stood_out``). Where one of the application's families kept its life,
the one that rose is the cause, as before. ITBench-Lite bills written here by hand
(``tests/finops/wide_fixtures.py``); the application level exists only there.
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from finops.model import Resource
from tests.finops.wide_fixtures import Bill, Line, answer

SEEDS = (21, 22, 23)
START = dt.date(2025, 4, 7)  # a Monday
ALERT = 7 * 9 + 3  # a Thursday, nine weeks of history
ACCOUNT = "60917"
INDEXING = Resource("case-review", "Application")


def _firm(seed: int, last: int = ALERT) -> Bill:
    """A law firm's analytics account up to day ``last``: a document-review application on a
    GPU pool and a memory-optimised pool (and its viewer on a small Kubernetes pool, which the
    runs do not touch), a transcoding application on the same GPU family, a search application,
    a static database."""
    bill = Bill(start=START, days=last + 1, seed=seed)
    office = bill.weekly(1.0, 0.6)
    bill.usage((ACCOUNT, "GCP", "ComputeEngine", "case-review", "g2-standard-8"), 0.85, 2, 0.0)
    bill.usage((ACCOUNT, "GCP", "ComputeEngine", "case-review", "n2-highmem-16"), 1.05, 2, 0.0)
    bill.usage(
        (ACCOUNT, "GCP", "ComputeEngine", "transcode", "g2-standard-8"), 0.85, 6, 0.2, office
    )
    bill.usage((ACCOUNT, "GCP", "ComputeEngine", "search", "n2-standard-8"), 0.39, 10, 0.05)
    bill.usage((ACCOUNT, "GCP", "GKE", "search", "e2-standard-8"), 0.27, 12, 0.08, office)
    bill.usage((ACCOUNT, "GCP", "GKE", "case-review", "e2-standard-4"), 0.134, 3, 0.0)
    bill.static((ACCOUNT, "GCP", "CloudSQL", "billing", "db-custom-8-32768"), 0.62, 1)
    return bill


def _line(bill: Bill, app: str, family: str) -> Line:
    return next(line for line in bill.lines if line.app == app and line.family == family)


def _times(line: Line, days: range, factor: float) -> None:
    for day in days:
        line.count[day] = np.rint(line.count[day] * factor)
        line.cost[day] = line.price[day] * line.count[day] * 24


def _review_run(bill: Bill, days: range) -> None:
    """An indexing run over a litigation export: both of case-review's pools scaled out."""
    _times(_line(bill, "case-review", "g2-standard-8"), days, 12.0)
    _times(_line(bill, "case-review", "n2-highmem-16"), days, 8.0)


@pytest.mark.parametrize("seed", SEEDS)
def test_both_pools_of_one_application_scaled_out_are_the_application(tmp_path, seed):
    bill = _firm(seed)
    _review_run(bill, range(ALERT, ALERT + 1))
    assert answer(bill.write(tmp_path, ALERT, ACCOUNT)) == (INDEXING,)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_run_over_before_the_alert_is_the_application(tmp_path, seed):
    """A three-day run that ended two days before the alert, on a Sunday."""
    sunday = ALERT + 3
    bill = _firm(seed, sunday)
    _review_run(bill, range(sunday - 4, sunday - 1))
    assert answer(bill.write(tmp_path, sunday, ACCOUNT)) == (INDEXING,)


# --- guard: one pool of the application scaled out, the other kept its life (before and after) --


@pytest.mark.parametrize("seed", SEEDS)
def test_one_pool_scaled_out_beside_its_quiet_sibling_is_the_family(tmp_path, seed):
    bill = _firm(seed)
    _times(_line(bill, "case-review", "n2-highmem-16"), range(ALERT, ALERT + 1), 8.0)
    assert answer(bill.write(tmp_path, ALERT, ACCOUNT)) == (
        Resource("n2-highmem-16", "Instance_Family"),
    )
