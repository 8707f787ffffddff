"""Late alerts: is a change found days before the alert day what the alert is about?

Cost-anomaly alerts are raised once the billing data has landed (a day or two of export delay)
and a detector has confirmed the new level (a few days more): one to six days after the cost
changed. By then the alert day's own baselines (the last few days, see ``seasonal``) hold the new
level, and the day itself looks ordinary. The drill-down on the day the account's cost changed,
against the days before it, finds what changed; this module decides whether that change is the
alert's cause, from the bill's own history, the way an alerting tool would have judged it:

* **The line had a history before the look-back.** Detectors learn every monitored line
  (service, account, cost category) from its own past and judge a new line only after it has
  built one: a line first billed inside the look-back is a launch (a planned pool, a new region),
  and days later it runs level with itself. Such lines are also left out of the service or
  provider that holds them, so the launch does not come back one level up on a later day.
  (A line new on the alert day itself is still named; that is the drill-down's job, not this.)
* **The alert day still shows the change** against the same weekday before the change (the
  alert's weekday, so a weekly habit is compared with itself): at least half of the rise held
  (a step, a ramp still climbing). A level that came back to what the bill always had on that
  weekday (a rise after a holiday dip) is over, and a detector that confirms days later has
  nothing left to confirm.
* **Or the change was a spike, already over, that the bill never did before**: the line at
  least doubled and stood above every earlier day of its history. A spike the bill has done
  before (a fortnightly job, a quarterly fee) is a habit, whatever the drill-down made of its
  day.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np
import pandas as pd

from finops.rca.cube import CostCube
from finops.rca.seasonal import rhythm_baseline

#: Days before the alert searched for the change. With the alert day that is one week, so each
#: weekday, with its own habit, is judged once; further back the same-weekday baselines of the
#: change day would start to hold the weekly rhythm of the change itself.
LOOK_BACK_DAYS = 6
#: Share of the rise found on the change day that the alert day must still show.
HELD_SHARE = 0.5
#: A rise already over is the alert's cause only if it at least doubled the line.
SPIKE_FACTOR = 2.0


@dataclass(frozen=True)
class EarlierChange:
    """A node the drill-down named on an earlier day: its path and its cost and expected cost
    there (per 24 hours)."""

    path: tuple[str, ...]
    day: dt.date
    actual: float
    expected: float


def look_back_days(alert: dt.date, first: dt.date) -> list[dt.date]:
    """Days before the alert, earliest first, after the bill's first day (that day has no history
    to be judged against)."""
    days = [alert - dt.timedelta(days=back) for back in range(LOOK_BACK_DAYS, 0, -1)]
    return [day for day in days if day > first]


def explains_late_alert(
    change: EarlierChange, alert_cube: CostCube, alert_stood_out: bool = False
) -> bool:
    """The change is what an alert raised on the cube's last day is about (module docstring).
    ``alert_stood_out``: the account's total stood out on the alert day itself (see
    :func:`launched_inside`)."""
    if change.actual <= change.expected:
        return False  # the late alerts looked for are of rises
    lines = _lines_under(change.path, alert_cube)
    settled = lines[(lines[:, : alert_cube.anomaly_index - LOOK_BACK_DAYS] != 0).any(axis=1)]
    start = _index_of(change.day, alert_cube)
    if not len(settled):
        # launched inside the look-back: no history to stand out against, unless it took over
        # from lines that stopped that day (a switch of tier or machine type), or the alert day
        # itself stood out and the launch still runs: a planned step is level with the days
        # since by the alert day, and a launch the alert day still shows out of the account's
        # life (keys leaked into a region never used, a product bought for every web ACL) is
        # what it is about
        return _switch_held(change, lines, start, alert_cube) or (
            alert_stood_out and _held(change, lines, alert_cube.days)
        )
    # a line launched inside the look-back is left out of the node's cost: its launch is
    # what a later day's drill-down can find in the service or provider that holds it
    return _held(change, settled, alert_cube.days) or _spike_never_seen(
        change, settled[:, :start].sum(axis=0)
    )


def launched_inside(path: tuple[str, ...], cube: CostCube) -> bool:
    """Every line under the node was first billed inside the look-back before the cube's last
    day. Such a line is judged on that day against its own first days (a launch is billed
    from the hour it started, so its first day is partial, and a fleet launched fills up over
    a day or two): what it does on the day is the tail of its launch, and the launch, found on
    its own day, says what the account's change was."""
    lines = _lines_under(path, cube)
    start = cube.anomaly_index - LOOK_BACK_DAYS
    return (
        bool(len(lines))
        and not (lines[:, :start] != 0).any()
        and bool((lines[:, start : cube.anomaly_index] != 0).any())
    )


def _switch_held(change: EarlierChange, lines: np.ndarray, start: int, cube: CostCube) -> bool:
    """New lines that replaced lines of the same owner (its other families, the siblings of the
    node) which billed the day before the change and stopped on it: a switch (a cache moved to
    its high-availability tier, a fleet to a larger machine type). The pair has the old lines'
    history, and a detector watching the owner sees the switch's net rise (what the new lines
    cost less what the old ones did); it explains the alert when the owner's lines still show
    half of that net rise on the alert day, as a held step would (:func:`_held`). A launch
    beside nothing that stopped has no history and stays out."""
    if len(change.path) < 2 or start < 1:
        return False
    siblings = _lines_under(change.path[:-1], cube)
    ended = siblings[(siblings[:, start - 1] > 0) & (siblings[:, start:] == 0).all(axis=1)]
    if not len(ended):
        return False
    replaced = float(ended[:, start - 1].sum())
    net = EarlierChange(change.path, change.day, change.actual, replaced)
    return _held(net, np.vstack([lines, ended]), cube.days)


def _lines_under(path: tuple[str, ...], cube: CostCube) -> np.ndarray:
    """Daily costs of the lines under the node (one row per line). The drill-down's node of one
    application in every service of a provider spells the service ``every <level>``."""
    leaves = cube.level(len(cube.levels) - 1)
    wildcards = {i for i, part in enumerate(path) if part == f"every {cube.levels[i]}"}
    rows = [
        i
        for i, leaf in enumerate(leaves.paths)
        if all(
            a == b or at in wildcards
            for at, (a, b) in enumerate(zip(path, leaf[: len(path)], strict=True))
        )
    ]
    return np.asarray(leaves.values[rows], dtype=float).reshape(len(rows), len(cube.days))


def _index_of(day: dt.date, cube: CostCube) -> int:
    return cube.anomaly_index - (cube.days[-1].date() - day).days


def _held(change: EarlierChange, lines: np.ndarray, days: pd.DatetimeIndex) -> bool:
    """At least half the change's rise shows on the alert day against what each line's habits
    expect of that day from before the change: the alert's weekday over the weeks before the
    change, times the line's month rhythm where the day's place in the month always stood out
    (``seasonal.rhythm_baseline``; the look-back is shorter than a week, so none of those days
    holds the change). A month-end close that triples on a Saturday alert is its habit, not a
    wobble found two days before it that "held". The rise is compared as a factor where both had
    a cost (an office-hours line keeps its weekly rhythm after a step), else in money."""
    t = len(days) - 1
    before = float(rhythm_baseline(lines, t, days).sum())
    now = float(lines[:, t].sum())
    if change.expected > 0 and before > 0:
        return now / before - 1 >= HELD_SHARE * (change.actual / change.expected - 1)
    return now - before >= HELD_SHARE * (change.actual - change.expected)


def _spike_never_seen(change: EarlierChange, before: np.ndarray) -> bool:
    """The change at least doubled the node and took it above every earlier day it was billed."""
    if not len(before):
        return False
    return change.actual >= SPIKE_FACTOR * change.expected and change.actual > float(before.max())
