"""Day-of-week aware expected values and noise for every node at once (vectorised).

Expected cost on the anomaly day: of (a) the median of the same weekday over the previous four weeks
and (b) the same weekday last week, the one closer to what happened. Taking the closer of two honest
baselines makes a planned level shift (a price change two weeks ago, a service grown last week)
look normal, while a real spike on the day stays far from both.

Noise: the robust spread (MAD) of relative week-over-week changes over the last five weeks, which
removes weekly seasonality and is not inflated by one past spike.
"""

from __future__ import annotations

import numpy as np

_WEEKS = 4
_NOISE_WEEKS = 5
_MAD_TO_SIGMA = 1.4826
_SHRINK = 0.75


def expected_values(values: np.ndarray, t: int) -> np.ndarray:
    actual = values[:, t]
    same_weekday = [t - 7 * k for k in range(1, _WEEKS + 1) if t - 7 * k >= 0]
    if not same_weekday:
        if t == 0:
            return np.zeros_like(actual)
        return np.median(values[:, :t], axis=1)
    seasonal = np.median(values[:, same_weekday], axis=1)
    last_week = values[:, t - 7]
    closer = np.abs(actual - seasonal) <= np.abs(actual - last_week)
    return np.where(closer, seasonal, last_week)


def noise(values: np.ndarray, t: int, expected: np.ndarray) -> np.ndarray:
    """Noise at the expected level. Cost noise is multiplicative (a busier day is noisier), so the
    spread is measured on relative week-over-week changes and scaled to the day's expected cost;
    a Monday peak then gets a Monday-sized noise."""
    start = max(7, t - 7 * _NOISE_WEEKS)
    if t - start >= 3:
        now, before = values[:, start:t], values[:, start - 7 : t - 7]
        level = (np.abs(now) + np.abs(before)) / 2
        with np.errstate(divide="ignore", invalid="ignore"):
            relative = np.where(level > 0, (now - before) / level, 0.0)
        spread = np.median(np.abs(relative - np.median(relative, axis=1, keepdims=True)), axis=1)
        relative_sigma = _MAD_TO_SIGMA * spread / np.sqrt(2.0)
        # A few weeks of history give a shaky spread per node; shrink towards the typical noise of
        # the level so a node whose few differences happened to be small is not over-trusted.
        relative_sigma = np.maximum(relative_sigma, _SHRINK * np.median(relative_sigma))
        sigma = relative_sigma * np.abs(expected)
    elif t >= 2:
        sigma = np.std(np.diff(values[:, :t], axis=1), axis=1)
    else:
        sigma = np.zeros(values.shape[0])
    # A perfectly flat history would make any change infinitely surprising. Flat leaves are already
    # lifted by the shrinkage above; this floor (0.2% of the level) only guards a lone flat series.
    floor = np.maximum(0.002 * np.abs(expected), 1e-9)
    return np.maximum(sigma, floor)


def history_total(values: np.ndarray, t: int) -> np.ndarray:
    """Absolute cost before the anomaly day; zero means the node is new on that day."""
    return np.abs(values[:, :t]).sum(axis=1)
