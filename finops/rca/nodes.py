"""Per-node statistics on the anomaly day, and the parent -> children links of the tree."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from finops.rca.cube import CostCube
from finops.rca.seasonal import (
    charge_as_billed,
    expected_values,
    history_total,
    month_amortised,
    month_position,
    monthly_charge,
    noise,
    rhythm_baseline,
    weekday_median,
)

#: Relative day-to-day spread below which a history counts as one fixed amount.
_FIXED_TOLERANCE = 0.005
#: Standard deviation of rounding to a whole number (1/sqrt(12)).
_ROUNDING_SIGMA = 0.2887
#: Days a price must have held before the day for its change on the day to be news (a blended
#: price moves every day; a list price changed a week ago has held since).
_PRICE_STABLE_DAYS = 3
#: A price the export prints in steps larger than this share of it cannot show a list-price
#: change (a function at $0.0000167 printed with five decimals).
_PRICE_RESOLUTION = 0.05
#: A line of one count whose amount stayed within this many sigmas of its noise did not move.
_UNMOVED_SIGMAS = 1.5
#: Days of history a series needs before "it never changed" means anything.
_FIXED_MIN_DAYS = 7


@dataclass(frozen=True)
class NodeStats:
    depth: int
    index: int
    path: tuple[str, ...]
    actual: float
    expected: float
    sigma: float
    history: float
    #: The unit price changed on the day (leaves of data that has prices only).
    price_moved: bool = False
    #: The plain same-weekday median (unbiased; ``expected`` is the closest of several baselines).
    baseline: float = 0.0
    #: The same amount, to the cent, every day of its history: a fee, a commitment, a credit, a
    #: database whose instance never changed.
    fixed: bool = False
    #: The unit price on the day over the price it had held before (leaves of data that has
    #: prices, whose price held over the last few days; None otherwise: a blended price says
    #: nothing about a price list).
    price_factor: float | None = None
    #: Every line under it billed one count every day it ran, the day included (a fee of one
    #: unit, a database's nodes): no change of usage moves it.
    count_fixed: bool = False

    @property
    def untouched_fixed_amount(self) -> bool:
        """A fixed amount that did not rise on the day (a fee or credit that stayed, or a
        commitment that ended): no price list moves it, so it says nothing about whether the
        priced lines beside it rose together. A line of one count every day whose amount only
        drifts (an amortised commitment's fee, a few hundredths of a percent a day) is one as
        well when it stayed within its noise: no usage moved it, and no new price did."""
        if self.fixed and self.actual <= self.baseline * (1 + _FIXED_TOLERANCE):
            return True
        return self.count_fixed and self.sigma > 0 and self.rise < _UNMOVED_SIGMAS

    @property
    def price_added(self) -> float:
        """What a higher unit price on the day added to the line: its usual cost times the rise
        (0 for a line whose price did not rise, could not be read, or that is new). A dip or a
        peak of usage on the same day does not hide it, as it hides the line's rise in cost."""
        if self.price_factor is None or self.price_factor <= 1 or self.is_new:
            return 0.0
        return self.baseline * (self.price_factor - 1)

    @property
    def delta(self) -> float:
        return self.actual - self.expected

    @property
    def z(self) -> float:
        return self.delta / self.sigma

    @property
    def rise(self) -> float:
        """Deviation from the plain weekday median in units of noise. Unlike :attr:`z` it is not
        measured from the closest of several baselines, which leans towards the day's own value
        (last week's Monday peak can hide this Monday's price rise in one child and not in its
        sibling): what siblings did is compared on this one."""
        return (self.actual - self.baseline) / self.sigma

    @property
    def is_new(self) -> bool:
        return self.history <= 1e-9 and self.actual > 0


@dataclass(frozen=True)
class Tree:
    cube: CostCube
    stats: tuple[tuple[NodeStats, ...], ...]
    children: dict[tuple[str, ...], tuple[NodeStats, ...]]

    @property
    def root(self) -> NodeStats:
        return self.stats[0][0]

    def is_leaf(self, node: NodeStats) -> bool:
        return node.depth == len(self.cube.levels) - 1

    def leaves_under(self, node: NodeStats) -> list[NodeStats]:
        size = len(node.path)
        return [leaf for leaf in self.stats[-1] if leaf.path[:size] == node.path]

    def node_at(self, path: tuple[str, ...]) -> NodeStats:
        """The node of the tree at ``path`` (its depth is the path's length less one)."""
        (node,) = [k for k in self.stats[len(path) - 1] if k.path == path]
        return node


def build_tree(cube: CostCube) -> Tree:
    t = cube.anomaly_index
    per_level = []
    # An aggregate's plain baseline is the sum of its leaves' baselines: each leaf's median skips
    # the weeks before it started, and the aggregate's own median would not (a service that gained
    # an application three weeks ago would look grown by the whole application on any day).
    leaves = cube.level(len(cube.levels) - 1)
    leaf_baseline = rhythm_baseline(leaves.values, t, cube.days)
    # Monthly charges (a fee billed on every 1st) add a known amount to the aggregates above them:
    # a month factor on an aggregate's total would scale its weekly level by the fee's share of
    # earlier 1sts, and a 1st with a quieter or busier estate would miss by a multiple of it.
    # Aggregates are expected without those lines, plus their amounts (they carry no noise): the
    # usual one, or the day's where it moved only by a charge's ordinary step (a seat added, a
    # yearly uplift: ``seasonal.charge_as_billed``).
    steady = (
        _counts_fixed(leaves.quantity, t)
        if leaves.quantity is not None
        else np.zeros(len(leaves.paths), bool)
    )
    charge = charge_as_billed(leaves.values, t, month_position(cube.days, t))
    # a monthly amount spread over the month's days is a known amount too, where the day shows
    # the line billed by the month's length (a database that costs the same every day does
    # not): the aggregates above it are expected without it, plus its share of this month
    amortised = month_amortised(leaves.values, t, cube.days)
    with np.errstate(invalid="ignore"):
        spread = np.abs(leaves.values[:, t] - amortised) <= _FIXED_TOLERANCE * np.abs(amortised)
    charge = np.where(np.isfinite(charge), charge, np.where(spread, amortised, np.nan))
    charged = np.isfinite(charge)
    for matrix in cube.matrices:
        values = matrix.values
        lines_rhythm = (
            None
            if matrix is leaves
            else _summed(np.where(charged, 0.0, leaf_baseline), leaves.paths, matrix.paths)
        )
        if charged.any() and matrix is not leaves:
            values_apart = values - _summed(
                np.where(charged[:, None], leaves.values, 0.0), leaves.paths, matrix.paths
            )
            expected_apart = expected_values(values_apart, t, cube.days, lines_rhythm)
            sigma = noise(values_apart, t, expected_apart)
            expected = expected_apart + _summed(
                np.where(charged, charge, 0.0), leaves.paths, matrix.paths
            )
        else:
            expected = expected_values(values, t, cube.days, lines_rhythm)
            sigma = noise(values, t, expected)
        if matrix.quantity is not None:
            sigma = _whole_instances(sigma, expected, matrix.quantity, t)
        history = history_total(values, t)
        baseline = _summed(leaf_baseline, leaves.paths, matrix.paths)
        actual = values[:, t]
        fixed = _fixed_amounts(values, t, month_position(cube.days, t))
        count_fixed = _summed((~steady).astype(float), leaves.paths, matrix.paths) == 0
        moved = (
            _price_moved(matrix.price, t, step=matrix.price_step)
            if matrix.price is not None
            else np.zeros(len(actual), bool)
        )
        factors = (
            _price_factor(matrix.price, t, step=matrix.price_step)
            if matrix.price is not None
            else np.full(len(actual), np.nan)
        )
        per_level.append(
            tuple(
                NodeStats(
                    matrix.depth,
                    i,
                    path,
                    float(actual[i]),
                    float(expected[i]),
                    float(sigma[i]),
                    float(history[i]),
                    bool(moved[i]),
                    float(baseline[i]),
                    bool(fixed[i]),
                    float(factors[i]) if np.isfinite(factors[i]) else None,
                    bool(count_fixed[i]),
                )
                for i, path in enumerate(matrix.paths)
            )
        )
    children: dict[tuple[str, ...], list[NodeStats]] = {}
    for level in per_level[1:]:
        for node in level:
            children.setdefault(node.path[:-1], []).append(node)
    return Tree(cube, tuple(per_level), {k: tuple(v) for k, v in children.items()})


def _whole_instances(
    sigma: np.ndarray, expected: np.ndarray, quantity: np.ndarray, t: int
) -> np.ndarray:
    """Six instances are never 6.1: a fleet whose count moves by whole instances moves by one
    in ``n`` at a time, and weeks at the same count make its measured noise ~0 although any day
    can be one more or one less. Rounding to a whole count alone is ~0.29 of an instance (a
    uniform error). A count that never moved (a database, a reserved fleet) gets no such floor."""
    history = quantity[:, :t]
    lived = history > 0
    high = np.where(lived, history, -np.inf).max(axis=1, initial=-np.inf)
    low = np.where(lived, history, np.inf).min(axis=1, initial=np.inf)
    moves = lived.any(axis=1) & (high > low)
    count = weekday_median(quantity, t)
    with np.errstate(divide="ignore", invalid="ignore"):
        rounding = np.where(
            moves & (count > 0), np.abs(expected) * _ROUNDING_SIGMA / np.maximum(count, 1), 0.0
        )
    return np.maximum(sigma, rounding)


def _counts_fixed(quantity: np.ndarray, t: int) -> np.ndarray:
    """Lines that billed one count every day they ran (at least a week) before the day, and the
    same count on the day."""
    history = quantity[:, :t]
    lived = history > 0
    high = np.where(lived, history, -np.inf).max(axis=1, initial=-np.inf)
    low = np.where(lived, history, np.inf).min(axis=1, initial=np.inf)
    return (lived.sum(axis=1) >= _FIXED_MIN_DAYS) & (high == low) & (quantity[:, t] == high)


def _fixed_amounts(values: np.ndarray, t: int, month: list[int]) -> np.ndarray:
    """Series that were one amount every day they existed (at least a week) before the day, and
    monthly charges: one amount each time, billed only at the day's place in the month (a fee on
    every 1st is as fixed as a daily one, though it has fewer days to show it)."""
    history = values[:, :t]
    lived = history != 0
    enough = (lived.sum(axis=1) >= _FIXED_MIN_DAYS) | np.isfinite(monthly_charge(values, t, month))
    high = np.where(lived, history, -np.inf).max(axis=1, initial=-np.inf)
    low = np.where(lived, history, np.inf).min(axis=1, initial=np.inf)
    with np.errstate(invalid="ignore"):
        spread = np.abs(high - low) <= _FIXED_TOLERANCE * np.maximum(np.abs(high), np.abs(low))
    return enough & spread


def _summed(
    leaf_values: np.ndarray,
    leaf_paths: tuple[tuple[str, ...], ...],
    paths: tuple[tuple[str, ...], ...],
) -> np.ndarray:
    """Leaf rows (numbers or daily series) summed into the rows of ``paths``."""
    size = len(paths[0]) if paths else 0
    position = {path: i for i, path in enumerate(paths)}
    out = np.zeros((len(paths), *leaf_values.shape[1:]))
    for value, leaf in zip(leaf_values, leaf_paths, strict=True):
        out[position[leaf[:size]]] += value
    return out


def _price_moved(
    price: np.ndarray, t: int, tolerance: float = 0.01, step: float | None = None
) -> np.ndarray:
    """Price on the day differs from the last day the resource ran, and it had been one price
    every day it ran over the last few days. A blended price (tiers, committed-use coverage,
    sustained-use discounts) moves with usage every day: its moving on the day is no news."""
    factor = _price_factor(price, t, tolerance, step)
    with np.errstate(invalid="ignore"):
        return np.isfinite(factor) & (np.abs(factor - 1) > tolerance)


def _price_factor(
    price: np.ndarray, t: int, tolerance: float = 0.01, step: float | None = None
) -> np.ndarray:
    """Price on the day over the price of the last day the resource ran, where that price had
    held over the last few days (NaN elsewhere: not priced, not running, a blended price, or a
    price that kept its printed value in an export whose rounding ``step`` is too coarse for it
    to show a change)."""
    if t == 0:
        return np.full(price.shape[0], np.nan)
    before = price[:, :t]
    ran = before > 0
    last_index = np.where(ran.any(axis=1), t - 1 - np.argmax(ran[:, ::-1], axis=1), -1)
    last = np.where(
        last_index >= 0, before[np.arange(price.shape[0]), np.maximum(last_index, 0)], 0.0
    )
    today = price[:, t]
    with np.errstate(divide="ignore", invalid="ignore"):
        recent = before[:, -_PRICE_STABLE_DAYS:]
        wobble = np.where(
            (recent > 0) & (last[:, None] > 0), np.abs(recent / last[:, None] - 1), 0.0
        ).max(axis=1, initial=0.0)
        factor = np.where(last > 0, today / last, np.nan)
        # a price that kept its printed value is a kept price only where the export's step
        # could have shown a rise: a price list moves by several percent (the step is read from
        # the data's decimals, so it is never finer than the export's own)
        coarse = (
            np.zeros(price.shape[0], bool)
            if step is None
            else step / np.maximum(last, 1e-300) > _PRICE_RESOLUTION
        )
        resolved = ~(coarse & (np.abs(factor - 1) <= tolerance))
    return np.where((today > 0) & (last > 0) & (wobble <= tolerance) & resolved, factor, np.nan)


def leaf_ratios(cube: CostCube, node: NodeStats) -> tuple[float | None, float | None]:
    """Price and quantity on the day relative to their seasonal expectation (ITBench-Lite only)."""
    matrix = cube.level(node.depth)
    if matrix.price is None or matrix.quantity is None:
        return None, None
    t = cube.anomaly_index
    row = slice(node.index, node.index + 1)
    price_expected = float(expected_values(matrix.price[row], t, cube.days)[0])
    quantity_expected = float(expected_values(matrix.quantity[row], t, cube.days)[0])
    price_ratio = matrix.price[node.index, t] / price_expected if price_expected > 0 else None
    quantity_ratio = (
        matrix.quantity[node.index, t] / quantity_expected if quantity_expected > 0 else None
    )
    return (
        float(price_ratio) if price_ratio is not None else None,
        float(quantity_ratio) if quantity_ratio is not None else None,
    )


def np_is_finite(value: float) -> bool:
    return bool(np.isfinite(value))
