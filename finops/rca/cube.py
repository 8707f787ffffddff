"""The cost cube of one account: a (node x day) matrix per hierarchy level, up to the anomaly day.

Days without a row cost 0 (a resource that did not run cost nothing), so every series is dense.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np
import pandas as pd

from finops.loaders.table import CostTable
from itbench.errors import InputError


@dataclass(frozen=True)
class LevelMatrix:
    """Daily values of every node of one level: ``values[i, t]`` for node ``paths[i]``."""

    depth: int
    paths: tuple[tuple[str, ...], ...]
    values: np.ndarray
    #: Same shape, when the source has them (ITBench-Lite): mean price, summed quantity.
    price: np.ndarray | None = None
    quantity: np.ndarray | None = None


@dataclass(frozen=True)
class CostCube:
    levels: tuple[str, ...]
    days: pd.DatetimeIndex
    matrices: tuple[LevelMatrix, ...]

    @property
    def anomaly_index(self) -> int:
        return len(self.days) - 1

    def level(self, depth: int) -> LevelMatrix:
        return self.matrices[depth]


def _pivot(
    frame: pd.DataFrame, keys: list[str], column: str, days: pd.DatetimeIndex, agg: str
) -> pd.DataFrame:
    grouped = frame.groupby([*keys, "date"], sort=True, observed=True)[column].agg(agg)
    return grouped.unstack("date").reindex(columns=days, fill_value=0.0).fillna(0.0)


def build_cube(table: CostTable, account_id: str, day: dt.date) -> CostCube:
    levels = table.hierarchy.levels
    frame = table.frame
    if account_id not in set(frame[levels[0]].unique()):
        known = ", ".join(table.account_ids()[:20])
        raise InputError(
            f"{table.source}: account {account_id!r} is not in the data; accounts: {known}"
        )
    frame = frame[frame[levels[0]] == account_id]
    first, last = frame["date"].min().date(), frame["date"].max().date()
    if not first <= day <= last:
        raise InputError(
            f"{table.source}: anomaly date {day} is outside the data of account {account_id} ({first} .. {last})"
        )
    frame = frame[frame["date"] <= pd.Timestamp(day)]
    days = pd.date_range(first, day, freq="D")
    matrices = []
    has_price = "price" in frame.columns
    for depth in range(len(levels)):
        keys = list(levels[: depth + 1])
        cost = _pivot(frame, keys, "cost", days, "sum")
        paths = tuple(
            tuple(str(v) for v in (k if isinstance(k, tuple) else (k,))) for k in cost.index
        )
        price = quantity = None
        if has_price and depth == len(levels) - 1:
            price = _pivot(frame, keys, "price", days, "mean").to_numpy(dtype=float)
            quantity = _pivot(frame, keys, "quantity", days, "sum").to_numpy(dtype=float)
        matrices.append(LevelMatrix(depth, paths, cost.to_numpy(dtype=float), price, quantity))
    return CostCube(levels, days, tuple(matrices))
