"""A machine move made across several applications of one service at once is the service.

Two applications' fleets move from one instance family to another that costs more, keeping
their size: the old family's lines stop, the new family's lines start in the same applications.
One change of the service, made once, not a new machine type in each application; a move of a
single application stays that application's new line. Bills written here by hand
(tests/finops/wide_fixtures.py), not copied from any held-out set.
"""

from __future__ import annotations

import datetime as dt

import pytest

from finops.model import Resource
from tests.finops.wide_fixtures import Bill, answer

SEEDS = (11, 12, 13)
START = dt.date(2025, 9, 1)  # a Monday
DAY = 45  # a Thursday


def _move_bill(seed: int, movers: tuple[str, ...], cost_factor: float) -> Bill:
    """Azure VMs of three applications and a flat SQL database; on ``DAY`` the ``movers`` go from
    D8s_v5 to E8s_v5 at ``cost_factor`` the hourly price, the same number of machines."""
    bill = Bill(START, DAY + 1, seed)
    office = bill.weekly(1.0, 0.7)
    for app, fleet in (("billing", 18), ("portal", 24), ("intake", 12)):
        old = bill.usage(
            ("880", "Azure", "Virtual Machines", app, "D8s_v5"), 0.384, fleet, 0.03, office
        )
        if app in movers:
            new = bill.usage(
                ("880", "Azure", "Virtual Machines", app, "E8s_v5"), 0.384 * cost_factor, 1, 0.0
            )
            new.count[:] = old.count
            new.count[:DAY] = 0
            new.cost[:] = new.count * new.price * 24
            old.count[DAY:] = 0
            old.cost[DAY:] = 0
    bill.static(("880", "Azure", "SQL Database", "billing", "GP_Gen5_4"), 0.505, 1)
    bill.usage(("880", "Azure", "Storage", "portal", "Hot-LRS-GB"), 0.000025, 900000, 0.02)
    return bill


@pytest.mark.parametrize("seed", SEEDS)
def test_two_applications_moved_to_a_dearer_family_are_the_service(tmp_path, seed):
    bill = _move_bill(seed, ("billing", "portal"), 1.4)
    assert answer(bill.write(tmp_path, DAY, "880")) == (
        Resource("Virtual Machines", "Cloud_Service"),
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_one_application_moved_to_a_dearer_family_is_not_raised_to_the_service(tmp_path, seed):
    bill = _move_bill(seed, ("portal",), 1.4)
    named = answer(bill.write(tmp_path, DAY, "880"))
    assert named and Resource("Virtual Machines", "Cloud_Service") not in named


@pytest.mark.parametrize("seed", SEEDS)
def test_two_applications_moved_at_the_same_cost_name_nothing(tmp_path, seed):
    bill = _move_bill(seed, ("billing", "portal"), 1.0)
    assert answer(bill.write(tmp_path, DAY, "880")) == ()
