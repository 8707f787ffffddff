"""Day-of-week aware expected values and noise for every node at once (vectorised).

Expected cost on the anomaly day: of (a) the median of the same weekday over the previous four
weeks, (b) the same weekday last week, (c) the level of the last three days rescaled to the
day's weekday and (d) the weekday median times the factor by which every earlier day at the same place
in the month (the last day of each month, or the same day of the month; the earlier quarter
ends on a quarter end, where the bill holds some that stood out) stood out, when they all did,
(e) for a line launched within the week before the day, the level of its days since, and (f)
the weekday median times how far the day 52 weeks back, or the same date a year back, stood
from the weeks before it, where it stood out (a season: a sales week, a filing deadline); the
one closest to what happened. Taking the
closest of honest baselines makes normal billing life look normal — a price change two weeks ago,
a service grown last week, a planned scale step three days ago, a month-end batch that comes every
month — while a real spike on the day stays far from all of them.

Noise: the robust spread (MAD) of relative week-over-week changes over the last five weeks, which
removes weekly seasonality and is not inflated by one past spike.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

_WEEKS = 4
_NOISE_WEEKS = 5
_MAD_TO_SIGMA = 1.4826
#: sigma / mean absolute deviation of a normal distribution.
_MEAN_ABS_TO_SIGMA = 1.2533
_SHRINK = 0.75
_RECENT_MIN_DAYS = 2
#: Days before the day that make up its recent level.
_RECENT_DAYS = 3
_RECENT_MIN_WEEKS = 2
#: An earlier month position counts as special when it stood this far from its weekly level.
_MONTHLY_RATIO = 1.3
#: Earlier occurrences a day of the month other than the last needs to be called special.
_MONTHLY_MIN_OTHER_DAY = 2
#: A year of weeks: the same weekday a year back.
_YEAR_IN_WEEKS = 52
#: A day a year back stood out from the weeks before it, as a season's day, when it was this
#: many of its line's sigmas away from their weekday median.
_SEASON_SIGMAS = 2.0
#: Four-week periods (13 in a year): every earlier period end must have stood out, and the bill
#: must hold this many, before the day's place in the cycle is a habit.
_CYCLE_DAYS = 28
_CYCLE_MIN_OCCURRENCES = 3
#: Earlier quarters a day's place in the quarter must have stood out in: once is as likely a
#: past incident that fell there.
_QUARTER_MIN_OCCURRENCES = 2
#: Days at the end of the month before the day's month over which a line must have billed one
#: amount (within ``_AMORTISED_TOLERANCE`` of it) to be a monthly amount spread over the days.
_AMORTISED_DAYS = 7
_AMORTISED_TOLERANCE = 0.005


def expected_values(
    values: np.ndarray,
    t: int,
    days: pd.DatetimeIndex | None = None,
    lines_rhythm: np.ndarray | None = None,
) -> np.ndarray:
    """``lines_rhythm``: for aggregates, the sum of their lines' own rhythm baselines (weekday
    median times each line's month factor), one more honest candidate where the day has a place
    in the month (see :func:`rhythm_baseline`)."""
    actual = values[:, t]
    same_weekday = [t - 7 * k for k in range(1, _WEEKS + 1) if t - 7 * k >= 0]
    if not same_weekday:
        if t == 0:
            return np.zeros_like(actual)
        return np.median(values[:, :t], axis=1)
    seasonal = weekday_median(values, t)
    candidates = [seasonal, values[:, t - 7], _recent_level(values, t), _launch_level(values, t)]
    if days is not None:
        candidates.append(month_amortised(values, t, days))
        month = _same_month_position(days, t)
        if len(month) >= _occurrences_needed(days, t):
            candidates.append(seasonal * _place_factor(values, t, days, month))
            candidates.append(charge_as_billed(values, t, month))
            if lines_rhythm is not None:
                # one month factor cannot describe an aggregate whose lines keep different weekly
                # habits: a month-end batch (x3 every last day) beside an office estate (x0.4 at
                # weekends) stood at x2.4 on weekday month-ends and stands at x2.7 on a
                # Saturday's; each line's own habit, summed, holds whatever weekday it falls on
                candidates.append(lines_rhythm)
        year_back = _same_weekday_a_year_back(days, t)
        if year_back:
            # a week that comes back every year (a sales day, a national holiday week, a
            # 52-week fiscal calendar's period close) stood out the same way 52 weeks ago
            candidates.append(seasonal * _monthly_factor(values, t, year_back))
        # a season that ramps over days (a sales week, a tax season) lifts the weeks around its
        # days a year back as well: each day of it against the weeks before it, as the day is
        # judged now, on the same weekday of the week (a sales week) or on the same date (a
        # season set by the calendar: a filing deadline, a school year) a year back
        for twin in _season_twins(days, t):
            candidates.append(seasonal * _year_back_season(values, t, twin))
        for quarter in same_places_in_quarter(days, t):
            # an event held once a quarter (a load test on the first Tuesday of every third
            # month, a review on the 15th) stood out each time before; lines billed only on
            # those days (the event's own fleet) are expected at their usual amount
            candidates.append(seasonal * _monthly_factor(values, t, quarter))
            candidates.append(monthly_charge(values, t, quarter))
        cycle = _same_place_in_four_weeks(t)
        if len(cycle) >= _CYCLE_MIN_OCCURRENCES:
            # a close every fourth week (a 13-period retail year) stood out each time before;
            # a line that ran on fewer of those days has no such habit (one past incident)
            ran = (values[:, cycle] != 0).sum(axis=1) >= _CYCLE_MIN_OCCURRENCES
            factor = np.where(ran, _monthly_factor(values, t, cycle), np.nan)
            candidates.append(seasonal * factor)
    stacked = np.vstack(candidates)
    distance = np.abs(stacked - actual)
    distance = np.where(np.isnan(distance), np.inf, distance)
    closest = np.argmin(distance, axis=0)
    return stacked[closest, np.arange(values.shape[0])]


def weekday_median(values: np.ndarray, t: int) -> np.ndarray:
    """The plain same-weekday median of the last four weeks: not pulled towards the day's value
    as the closest-of-baselines expectation is, so growth factors of siblings compare fairly.

    Weeks before a resource's first cost are not part of its history: a resource that started two
    weeks ago would otherwise be expected at half its level (two zeros and two real weeks)."""
    same_weekday = [t - 7 * k for k in range(1, _WEEKS + 1) if t - 7 * k >= 0]
    if not same_weekday:
        return np.median(values[:, :t], axis=1) if t else np.zeros(values.shape[0])
    ran = values[:, :t] != 0
    first = np.where(ran.any(axis=1), np.argmax(ran, axis=1), t)
    weeks = values[:, same_weekday]
    lived = np.asarray(same_weekday)[None, :] >= first[:, None]
    out = np.zeros(values.shape[0])
    some = lived.any(axis=1)
    if some.any():
        out[some] = np.nanmedian(np.where(lived, weeks, np.nan)[some], axis=1)
    return out


def rhythm_baseline(values: np.ndarray, t: int, days: pd.DatetimeIndex) -> np.ndarray:
    """The plain weekday median, times the month rhythm where the day's place in the month has
    always stood out (a batch on every 1st): the day's normal life, not leaning towards its value.
    Growth factors of siblings are compared on it: a monthly batch that triples on the 1st and
    takes a 15% price rise that day grew by 15%, not by 3.45."""
    base = weekday_median(values, t)
    month = _same_month_position(days, t)
    if len(month) < _occurrences_needed(days, t):
        return base
    factor = _place_factor(values, t, days, month)
    charge = monthly_charge(values, t, month)
    return np.where(np.isfinite(charge), charge, np.where(np.isfinite(factor), base * factor, base))


def monthly_charge(values: np.ndarray, t: int, positions: list[int]) -> np.ndarray:
    """The usual amount of lines billed only at the day's place in the month (a support fee or
    subscription charged on every 1st), NaN for every other line. Such a line has no weekly level
    for a month factor to multiply (it is zero on every other day), so a factor cannot expect it;
    an analyst reads it as the monthly charge it has always been, not as a new cost."""
    out = np.full(values.shape[0], np.nan)
    if not positions:
        return out
    history = values[:, :t]
    billed = history != 0
    at = np.zeros(t, bool)
    at[positions] = True
    only_there = billed[:, at].any(axis=1) & ~billed[:, ~at].any(axis=1)
    if only_there.any():
        amounts = np.where(billed[:, at], history[:, at], np.nan)[only_there]
        out[only_there] = np.nanmedian(amounts, axis=1)
    return out


#: How far a charge billed only at its place in the month or year (a subscription, a support
#: fee, a contract's renewal) may move from its usual amount as part of its normal life: seats
#: added or removed, a published price-list update, a contractual yearly uplift. Its amount is
#: set, not measured, and the bill shows it a few times at most, so its own spread (usually
#: none) cannot say how far it may move; a charge up by a few percent is that life, not a rise
#: infinitely many sigmas out. Beyond a tenth it changed, and is expected at its usual amount.
CHARGE_STEP = 0.1


def charge_as_billed(values: np.ndarray, t: int, positions: list[int]) -> np.ndarray:
    """What each charge billed only at the day's place in the month is expected at: the day's
    own amount where it stayed within :data:`CHARGE_STEP` of its usual amount
    (:func:`monthly_charge`), else that usual amount; NaN for every other line."""
    usual = monthly_charge(values, t, positions)
    actual = values[:, t]
    with np.errstate(divide="ignore", invalid="ignore"):
        within = np.abs(actual - usual) <= CHARGE_STEP * np.abs(usual)
    return np.where(np.isfinite(usual) & within, actual, usual)


def month_position(days: pd.DatetimeIndex, t: int) -> list[int]:
    """Earlier days at the day's place in the month, when they are enough to call it a rhythm
    (empty otherwise)."""
    month = _same_month_position(days, t)
    return month if len(month) >= _occurrences_needed(days, t) else []


def month_amortised(values: np.ndarray, t: int, days: pd.DatetimeIndex) -> np.ndarray:
    """For a line that billed one amount every day at the end of the month before the day's
    month, that month's total spread over the days of the day's month (NaN for other lines, and
    where the two months are as long). A monthly fee, reservation or support plan amortised per
    day is the month's amount over its days: its daily figure steps up by 31/28 on 1 February
    and back on 1 March with nothing bought or used differently. After the 1st, only for a line
    whose days of the month so far were that amount."""
    out = np.full(values.shape[0], np.nan)
    day = days[t]
    start = t - (day.day - 1)  # the 1st of the day's month, on a bill with every day
    if start - _AMORTISED_DAYS < 0 or days[start].day != 1:
        return out
    before_len = days[start - 1].days_in_month
    if before_len == day.days_in_month or days[start - 1].day != before_len:
        return out
    before = values[:, start - _AMORTISED_DAYS : start]
    level = before.mean(axis=1)
    held = (before.max(axis=1) - before.min(axis=1)) <= _AMORTISED_TOLERANCE * np.abs(level)
    spread = level * before_len / day.days_in_month
    # after the 1st, only a line whose days of this month so far showed the month's length
    # is one (a database that costs the same every day shows it did not)
    since = values[:, start:t]
    followed = (
        np.abs(since - spread[:, None]) <= _AMORTISED_TOLERANCE * np.abs(spread[:, None])
    ).all(axis=1)
    return np.where(held & followed & (level != 0), spread, out)


def _recent_level(values: np.ndarray, t: int) -> np.ndarray:
    """The level of the last three days, each carried to the anomaly day's weekday: a planned
    scale step two or more days before the anomaly is the new normal by then.

    A recent day is carried over by the ratio "anomaly weekday / that weekday" measured week by
    week over the last four weeks, only in weeks where the resource ran on both days, and the
    median of those ratios is taken. Ratios of weekday medians instead would be skewed by a
    resource that started a few weeks ago (zeros from before its start weigh on some weekdays'
    medians and not on others) and would turn its ordinary days into a wild expectation. NaN where
    fewer than two recent days can be carried (a resource that runs on weekdays only, seen on a
    Monday, is judged by the other baselines)."""
    if t < 7 * _WEEKS:
        return np.full(values.shape[0], np.nan)
    weeks = range(1, _WEEKS + 1)
    scaled = []
    for day in (t - 1, t - 2, t - 3):
        today = values[:, [t - 7 * k for k in weeks]]
        then = values[:, [day - 7 * k for k in weeks]]
        both = (today > 0) & (then > 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratios = np.where(both, today / then, np.nan)
        # two weeks at least: one week's ratio is one noisy sample of the weekly profile
        enough = (both.sum(axis=1) >= _RECENT_MIN_WEEKS) & (values[:, day] > 0)
        ratio = np.full(values.shape[0], np.nan)
        if enough.any():
            ratio[enough] = np.nanmedian(ratios[enough], axis=1)
        scaled.append(values[:, day] * ratio)
    stacked = np.vstack(scaled)
    usable = ~np.isnan(stacked)
    # two of three days at least: one odd day is not a level
    out = np.full(values.shape[0], np.nan)
    enough = usable.sum(axis=0) >= _RECENT_MIN_DAYS
    if enough.any():
        out[enough] = np.nanmedian(stacked[:, enough], axis=0)
    return out


def _launch_level(values: np.ndarray, t: int) -> np.ndarray:
    """The level of a line launched within the week before the day: the median of its costs on
    the last three days, when it ran on two of them at least. Such a line has no earlier week
    for :func:`_recent_level` to carry a day over by, so without this its only baselines are the
    zeros from before its launch, and a pool started two days ago at its normal price would be a
    new cost on every day of its first week. Alerting tools likewise learn a new line from its
    own first days before they judge it. A line first billed the day before, or on the day, has
    no level yet and keeps its anomaly. NaN for every other line."""
    out = np.full(values.shape[0], np.nan)
    if t < 7:
        return out
    recent = values[:, t - _RECENT_DAYS : t]
    launched = ~(values[:, : t - 7] != 0).any(axis=1) & (
        (recent != 0).sum(axis=1) >= _RECENT_MIN_DAYS
    )
    if launched.any():
        out[launched] = np.nanmedian(np.where(recent != 0, recent, np.nan)[launched], axis=1)
    return out


def _place_factor(
    values: np.ndarray, t: int, days: pd.DatetimeIndex, month: list[int]
) -> np.ndarray:
    """The month factor of the day's place in the month (:func:`_monthly_factor`), learnt from
    the earlier quarter ends alone where the day ends a quarter and the bill holds earlier ones
    that stood out: a close that runs x2.5 on every month end and x5 on every quarter end is
    expected at x5 on the next quarter end, which the median of all month ends would call x2.5.
    Where the history holds no quarter end (or a line's did not stand out), the month ends
    describe the day: a quarter end rising as the month ends do is their habit."""
    factor = _monthly_factor(values, t, month)
    quarter = _earlier_quarter_ends(days, t)
    if quarter:
        by_quarter = _monthly_factor(values, t, quarter)
        factor = np.where(np.isfinite(by_quarter), by_quarter, factor)
    # a year-end close (x4.5 on 31 December beside x2 on every month end, or on 31 March where
    # the fiscal year ends there) is learnt from the bill's own same month end a year back, as a
    # quarter end from earlier quarter ends; a period end the bill has never seen stand out keeps
    # the quarter's or month's habit, so a real anomaly there shows
    year = _earlier_same_month_ends(days, t)
    if year:
        by_year = _monthly_factor(values, t, year)
        factor = np.where(np.isfinite(by_year), by_year, factor)
    return factor


def _earlier_same_month_ends(days: pd.DatetimeIndex, t: int) -> list[int]:
    """Earlier last days of the same calendar month (a year or more back) when the day ends a
    month: a fiscal year or period closes on whatever month end the company chose, and the bill
    tells which by the earlier one that stood out."""
    day = days[t]
    if not _month_end(day):
        return []
    return [i for i in range(t) if days[i].month == day.month and _month_end(days[i])]


def same_places_in_quarter(days: pd.DatetimeIndex, t: int) -> list[list[int]]:
    """Earlier days at the day's place in a quarter, one list per way a quarterly event is set:
    in every third month before the day's, the same date, and the same weekday of the same week
    of the month (the first Tuesday); only lists that hold ``_QUARTER_MIN_OCCURRENCES``. A
    line's habit must have stood out on every day of a list (:func:`_monthly_factor`) or been
    billed only there (:func:`monthly_charge`)."""
    day = days[t]
    ordinal = (day.day - 1) // 7
    by_date: list[int] = []
    by_weekday: list[int] = []
    for i in range(t):
        other = days[i]
        months = (day.year - other.year) * 12 + day.month - other.month
        if months <= 0 or months % 3:
            continue
        if other.day == day.day:
            by_date.append(i)
        if other.weekday() == day.weekday() and (other.day - 1) // 7 == ordinal:
            by_weekday.append(i)
    return [p for p in (by_date, by_weekday) if len(p) >= _QUARTER_MIN_OCCURRENCES]


def _same_place_in_four_weeks(t: int) -> list[int]:
    """Every fourth week's same weekday before the day: where a four-week period ends."""
    return list(range(t - _CYCLE_DAYS, -1, -_CYCLE_DAYS))


def _year_back_season(values: np.ndarray, t: int, back: int) -> np.ndarray:
    """How far the day a year back (``back``) stood from the four weeks before it (its weekday
    median, as the day itself is judged), for lines where that was beyond ``_SEASON_SIGMAS`` of
    the line's own noise then; NaN elsewhere. A season ramps: a sales week's pre-scaling lifts
    the weeks around its peak, so the weeks on both sides (:func:`_monthly_factor`) hide part of
    it, and each day of the ramp stands only a little above the weeks before it."""
    level = weekday_median(values, back)
    sigma = noise(values[:, : back + 1], back, level)
    then = values[:, back]
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = np.where((level > 0) & (then > 0), then / level, np.nan)
        stood = np.abs(then - level) >= _SEASON_SIGMAS * sigma
    return np.where(stood, factor, np.nan)


def _season_twins(days: pd.DatetimeIndex, t: int) -> list[int]:
    """The day 52 weeks back and the same date a year back (28 February for a 29th), when the
    bill holds them: where last year's days of a season that follows weekdays, or dates, fell."""
    day = days[t]
    same_date = day.replace(year=day.year - 1, day=min(day.day, 28 if day.month == 2 else 31))
    twins = _same_weekday_a_year_back(days, t)
    found = np.flatnonzero(days[:t] == same_date)
    if found.size and int(found[0]) not in twins:
        twins.append(int(found[0]))
    return twins


def _same_weekday_a_year_back(days: pd.DatetimeIndex, t: int) -> list[int]:
    """The day 52 weeks (364 days) before, when the bill holds it: the same weekday of the same
    week of the year, where yearly habits that follow weekdays, not dates, fall."""
    back = days[t] - pd.Timedelta(days=_YEAR_IN_WEEKS * 7)
    found = np.flatnonzero(days[:t] == back)
    return [int(found[0])] if found.size else []


def _earlier_quarter_ends(days: pd.DatetimeIndex, t: int) -> list[int]:
    """Earlier last days of March, June, September and December when the day is one of them."""
    if not _quarter_end(days[t]):
        return []
    return [i for i in range(t) if _quarter_end(days[i])]


def _month_end(day: pd.Timestamp) -> bool:
    """The last day of its month."""
    return (day + pd.Timedelta(days=1)).month != day.month


def _quarter_end(day: pd.Timestamp) -> bool:
    return day.month % 3 == 0 and _month_end(day)


def _monthly_factor(values: np.ndarray, t: int, positions: list[int]) -> np.ndarray:
    """How far each earlier occurrence of the day's month position stood from its own weekly
    level (the same weekday one and two weeks around it), when every occurrence stood out the
    same way; NaN where the month position is nothing special. A month-end batch that tripled
    the cost at each earlier month-end then expects triple today; a plain day stays plain.

    Only days since the resource's first cost count: zeros before its start would halve its weekly
    level and make its first days look special, and expect a spike on the day it merely ran."""
    ran = values[:, :t] != 0
    first = np.where(ran.any(axis=1), np.argmax(ran, axis=1), t)
    ratios = []
    for i in positions:
        around = [j for j in (i - 14, i - 7, i + 7, i + 14) if 0 <= j < t]
        if len(around) < 2:
            continue
        lived = np.asarray(around)[None, :] >= first[:, None]
        usable = (lived.sum(axis=1) >= 2) & (i >= first)
        level = np.full(values.shape[0], np.nan)
        if usable.any():
            level[usable] = np.nanmedian(np.where(lived, values[:, around], np.nan)[usable], axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratios.append(np.where(level > 0, values[:, i] / level, np.nan))
    if not ratios:
        return np.full(values.shape[0], np.nan)
    stacked = np.vstack(ratios)
    seen = np.isfinite(stacked)
    enough = seen.any(axis=0)
    high = enough & np.all(~seen | (stacked >= _MONTHLY_RATIO), axis=0)
    low = enough & np.all(~seen | (stacked <= 1 / _MONTHLY_RATIO), axis=0)
    factor = np.full(values.shape[0], np.nan)
    special = high | low
    if special.any():
        factor[special] = np.nanmedian(stacked[:, special], axis=0)
    return factor


def _occurrences_needed(days: pd.DatetimeIndex, t: int) -> int:
    """A month's first and last days are known rhythms of billing (monthly fees and
    subscriptions charged on the 1st, batch jobs and closings at month-end): one earlier
    occurrence that stood out is evidence enough. Any other day of the month must have stood out
    twice: once is as likely a past incident that fell on that date."""
    day = days[t]
    month_edge = day.day == 1 or _month_end(day)
    return 1 if month_edge else _MONTHLY_MIN_OTHER_DAY


def _same_month_position(days: pd.DatetimeIndex, t: int) -> list[int]:
    """Earlier days at the anomaly day's place in the month: the last day of each earlier month
    when the anomaly is on a month's last day, else the same day of the month. A cost that comes
    back every month (month-end batch jobs, monthly invoices) is expected on those days."""
    day = days[t]
    last_of_month = _month_end(day)
    out = []
    for i in range(t):
        other = days[i]
        if last_of_month:
            if _month_end(other):
                out.append(i)
        elif other.day == day.day:
            out.append(i)
    return out


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
        deviation = np.abs(relative - np.median(relative, axis=1, keepdims=True))
        spread = np.median(deviation, axis=1)
        relative_sigma = _MAD_TO_SIGMA * spread / np.sqrt(2.0)
        # Small instance counts are whole numbers: most weeks repeat the same count, the MAD is 0
        # and a resource that moves by one instance in three weeks looks noiseless. The mean
        # absolute deviation, its largest tenth left out (past spikes), does not collapse.
        # Only where the MAD collapsed: elsewhere a few past spikes would inflate it.
        trimmed = np.sort(deviation, axis=1)[:, : max(1, int(deviation.shape[1] * 0.9))]
        relative_sigma = np.where(
            spread > 0, relative_sigma, _MEAN_ABS_TO_SIGMA * trimmed.mean(axis=1) / np.sqrt(2.0)
        )
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
