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
    #: The smallest step the export prints prices in (1e-5 for five decimals); None when the
    #: prices are not rounded to a few decimals.
    price_step: float | None = None


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


def _leaf_matrices(
    frame: pd.DataFrame, keys: list[str], days: pd.DatetimeIndex
) -> tuple[list[tuple[str, ...]], dict[str, np.ndarray]]:
    """(sorted leaf paths, column -> leaf x day matrix) with numpy scatter-adds: grouping a million
    rows by six string columns is the slow part of pandas, so each column is factorised once."""
    leaf = np.zeros(len(frame), dtype=np.int64)
    for key in keys:
        codes, uniques = pd.factorize(frame[key])
        leaf, _ = pd.factorize(leaf * (len(uniques) + 1) + codes)  # stays compact: no overflow
    n_leaves = int(leaf.max()) + 1 if len(leaf) else 0
    first_row = np.full(n_leaves, -1)
    first_row[leaf[::-1]] = np.arange(len(leaf))[::-1]
    labels = frame[keys].to_numpy()
    paths = [tuple(str(v) for v in labels[i]) for i in first_row]
    order = sorted(range(n_leaves), key=lambda i: paths[i])
    rank = np.empty(n_leaves, dtype=np.int64)
    rank[order] = np.arange(n_leaves)
    row = rank[leaf]
    col = ((frame["date"].to_numpy() - days[0].to_datetime64()) // np.timedelta64(1, "D")).astype(
        np.int64
    )
    flat = row * len(days) + col
    size = n_leaves * len(days)
    out = {}
    for column in ("cost", "price", "quantity"):
        if column in frame.columns:
            out[column] = np.bincount(
                flat, weights=frame[column].to_numpy(dtype=float), minlength=size
            ).reshape(n_leaves, len(days))
    if "price" in out:  # a mean, not a sum: several source rows of one leaf-day share one price
        counts = np.bincount(flat, minlength=size).reshape(n_leaves, len(days))
        with np.errstate(divide="ignore", invalid="ignore"):
            out["price"] = np.where(counts > 0, out["price"] / np.maximum(counts, 1), 0.0)
    return [paths[i] for i in order], out


#: Most decimals looked for in an export's prices; beyond them a price counts as exact.
_MAX_PRICE_DECIMALS = 8
#: Prices read to find the export's decimals (the first ones with a price).
_PRICE_SAMPLE = 100_000


def price_step(prices: np.ndarray) -> float | None:
    """The step an export rounds its unit prices to: ``10**-k`` for the fewest decimals ``k``
    that print every price exactly. A function billed at $0.0000167 per GB-second and exported
    with five decimals reads 0.00002 before and after a 10% rise: knowing the step tells such a
    price apart from one that really held."""
    sample = prices[np.isfinite(prices) & (prices != 0)][:_PRICE_SAMPLE]
    if not len(sample):
        return None
    for decimals in range(_MAX_PRICE_DECIMALS + 1):
        scaled = sample * 10.0**decimals
        if np.all(np.abs(scaled - np.rint(scaled)) <= 1e-9 * np.maximum(1.0, np.abs(scaled))):
            return float(10.0**-decimals)
    return None


def _matching_account(table: CostTable, account_id: str) -> str:
    """The data's spelling of ``account_id``. Account ids are numbers to many tools: an
    anomaly.json that carries ``12345678901`` means the CSV's ``012345678901`` (AWS ids keep
    their leading zeros only as text), so all-digit ids also match by numeric value."""
    known = table.account_ids()
    if account_id in known:
        return account_id
    if account_id.isdigit():
        same = [k for k in known if k.isdigit() and int(k) == int(account_id)]
        if len(same) == 1:
            return same[0]
    raise InputError(
        f"{table.source}: account {account_id!r} is not in the data; accounts: {', '.join(known[:20])}"
    )


def _one_spelling(frame: pd.DataFrame, levels: tuple[str, ...]) -> pd.DataFrame:
    """Labels that differ only in case are one node, spelt as on the latest day they appear: a
    tagging policy that lower-cases every tag (``Payments`` -> ``payments``) renames nothing, and
    a baseline keyed on the exact string would see the application born weeks before the day."""
    for key in levels[1:]:
        latest = frame.groupby(key, sort=False, observed=True)["date"].max()
        spellings: dict[str, list[tuple[pd.Timestamp, str]]] = {}
        for label, last_seen in latest.items():
            spellings.setdefault(str(label).casefold(), []).append((last_seen, str(label)))
        rename = {
            label: max(group)[1]
            for group in spellings.values()
            if len(group) > 1
            for _, label in group
        }
        if rename:
            frame = frame.assign(**{key: frame[key].astype(object).replace(rename)})
    return frame


def build_cube(table: CostTable, account_id: str, day: dt.date) -> CostCube:
    levels = table.hierarchy.levels
    frame = table.frame
    account_id = _matching_account(table, account_id)
    frame = frame[frame[levels[0]] == account_id]
    first, last = frame["date"].min().date(), frame["date"].max().date()
    if not first <= day <= last:
        raise InputError(
            f"{table.source}: anomaly date {day} is outside the data of account {account_id} ({first} .. {last})"
        )
    frame = _one_spelling(frame[frame["date"] <= pd.Timestamp(day)], levels)
    days = pd.date_range(first, day, freq="D")
    paths, leaf = _leaf_matrices(frame, list(levels), days)
    step = price_step(frame["price"].to_numpy(dtype=float)) if "price" in frame.columns else None
    index = pd.MultiIndex.from_tuples(paths, names=list(levels))
    leaf_cost = pd.DataFrame(leaf["cost"], index=index)
    matrices = []
    for depth in range(len(levels)):
        if depth == len(levels) - 1:
            cost, level_paths = leaf_cost, tuple(paths)
        else:
            cost = leaf_cost.groupby(level=list(range(depth + 1)), sort=True).sum()
            level_paths = tuple(
                tuple(str(v) for v in (k if isinstance(k, tuple) else (k,))) for k in cost.index
            )
        is_leaf = depth == len(levels) - 1
        matrices.append(
            LevelMatrix(
                depth,
                level_paths,
                cost.to_numpy(dtype=float),
                leaf.get("price") if is_leaf else None,
                leaf.get("quantity") if is_leaf else None,
                step if is_leaf else None,
            )
        )
    return CostCube(levels, days, tuple(matrices))
