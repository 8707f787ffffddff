"""A day of 23 or 25 hours (daylight saving starts or ends in the export's time zone) bills every
metered line 23/24 or 25/24 of a day: a static database reads 1.042 instances, every line looks
4% up or down, and a steady line with little noise looks many sigmas off. The bill tells such a
day itself: lines whose quantity never moved for weeks all move by exactly that factor, with
their prices unchanged. The day is then read per 24 hours, as an analyst would, so only what
moved beyond the extra hour is a change."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from finops.rca.cube import CostCube

#: Hours a civil day can have besides 24.
_HOURS = (23.0, 25.0)
#: Days a line's quantity must have stood still to count as static.
_STATIC_DAYS = 14
#: Quantities are exported rounded (1.042 for 25/24 of one instance).
_TOLERANCE = 0.005
#: Static lines of whole instances that must show the factor as a fraction of an instance.
_MIN_LINES = 1


def day_length_factor(cube: CostCube) -> float:
    """23/24 or 25/24 when the static lines of the bill say the day had that many hours, else 1."""
    leaves = cube.matrices[-1]
    t = cube.anomaly_index
    if leaves.quantity is None or t < _STATIC_DAYS:
        return 1.0
    window = leaves.quantity[:, t - _STATIC_DAYS : t]
    static = (window > 0).all(axis=1) & (window == window[:, :1]).all(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(static, leaves.quantity[:, t] / window[:, -1], np.nan)
    moved = static & (np.abs(ratio - 1) > _TOLERANCE)
    whole = np.abs(window[:, -1] - np.rint(window[:, -1])) < 1e-9
    today = leaves.quantity[:, t]
    whole_today = np.abs(today - np.rint(today)) < _TOLERANCE * np.maximum(today, 1)
    for hours in _HOURS:
        factor = hours / 24
        # whole instances billed a fraction of one more or fewer: hours changed, not instances
        # (a step of whole instances, 24 -> 25 databases, stays whole)
        hit = static & (np.abs(ratio / factor - 1) <= _TOLERANCE) & whole & ~whole_today
        # most static lines that moved moved by the day's length (a few others may be the anomaly)
        if hit.sum() >= _MIN_LINES and 2 * hit.sum() >= moved.sum():
            return factor
    return 1.0


def per_24_hours(cube: CostCube, factor: float) -> CostCube:
    """The cube with the day's metered cost and quantities read per 24 hours when the day had 23
    or 25 (``factor``, from :func:`day_length_factor`). A fee or an amortized commitment (one
    unit, its amount billed whatever the hours) keeps its amount: read per 24 hours, a month's
    fees on a 25-hour 1st would look lower and hide a rise beside them."""
    if factor == 1.0:
        return cube
    t = cube.anomaly_index
    leaves = cube.matrices[-1]
    assert leaves.quantity is not None  # a factor is only read from quantities
    metered = leaves.quantity[:, t] != 1
    removed = np.where(metered, leaves.values[:, t] * (1 - 1 / factor), 0.0)
    matrices = []
    for matrix in cube.matrices:
        values = matrix.values.copy()
        size = matrix.depth + 1
        by_path: dict[tuple[str, ...], float] = {}
        for path, amount in zip(leaves.paths, removed, strict=True):
            by_path[path[:size]] = by_path.get(path[:size], 0.0) + amount
        values[:, t] -= np.array([by_path.get(path, 0.0) for path in matrix.paths])
        quantity = None
        if matrix.quantity is not None:
            quantity = matrix.quantity.copy()
            quantity[metered, t] /= factor
        matrices.append(replace(matrix, values=values, quantity=quantity))
    return replace(cube, matrices=tuple(matrices))
