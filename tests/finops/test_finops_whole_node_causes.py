"""Causes the drill-down missed on hand-made bills: monthly habits on a weekend month-end, a
provider that rose beside another provider in one account, a service whose every line grew by
its own factor, a data-transfer SKU repriced beside a tiered egress line of the same service.

Each bill is written here from what billing exports look like (not copied from any held-out
set); the labels are the smallest resource an analyst would name, fixed before the baseline was
changed, and every test failed on the baseline before the changes it comes with.
"""

from __future__ import annotations

import datetime as dt

import pytest

from finops.model import Resource
from finops.rca import diagnose
from finops.scenario import load_scenario
from tests.finops.wide_fixtures import Bill

SEEDS = (1, 2, 3)


def _answer(folder) -> tuple[Resource, ...]:
    scenario = load_scenario(folder)
    return diagnose(scenario.load_table(), scenario.anomaly).resources


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
    assert _answer(bill.write(tmp_path, day, "888")) == ()
