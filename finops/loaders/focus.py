"""FinOps Foundation FOCUS 1.0 billing exports mapped onto a configurable hierarchy."""

from __future__ import annotations

from pathlib import Path

from finops.loaders.export import read_export
from finops.loaders.table import CostTable, normalise
from finops.model import FOCUS_HIERARCHY, Hierarchy
from itbench.errors import InputError

COST_COLUMNS = ("BilledCost", "EffectiveCost")
#: FOCUS columns that hold the account ``anomaly.json``'s ``account_id`` names
ACCOUNT_COLUMNS = ("BillingAccountId", "SubAccountId")


def focus_hierarchy(
    levels: tuple[str, ...] | None = None, cost_column: str = "BilledCost"
) -> Hierarchy:
    if cost_column not in COST_COLUMNS:
        raise InputError(
            f"cost column must be one of {', '.join(COST_COLUMNS)}, not {cost_column!r}"
        )
    listed = tuple(levels) if levels else FOCUS_HIERARCHY.levels
    if not any(level in ACCOUNT_COLUMNS for level in listed):
        # The hierarchy's first level is the account anomaly.json names. A scenario.json that
        # lists only the levels a cause can be named at (ProviderName, RegionId, ...) still
        # has its alert on a billing account, which FOCUS always carries: without it the first
        # listed level (a provider) was taken for the account and the run stopped with
        # "account '1234' is not in the data; accounts: AWS".
        listed = (FOCUS_HIERARCHY.levels[0], *listed)
    return Hierarchy(
        levels=listed,
        cost_column=cost_column,
        date_column=FOCUS_HIERARCHY.date_column,
    )


def read_focus_csv(path: Path, hierarchy: Hierarchy = FOCUS_HIERARCHY) -> CostTable:
    """Read a FOCUS export; hourly charge periods are summed per day (credits included)."""
    # ids look numeric ("1234567890123") but are names: read every level as text
    raw = read_export(
        path,
        dtype={level: str for level in hierarchy.levels},
        keep_default_na=True,
        na_values=["NULL"],
    )
    return normalise(raw, hierarchy, path)
