"""Hand-made bills whose normal life the generator never makes: static databases, tiered prices,
committed-use fees, credits, weekday/weekend and month-start habits, partial first days, several
accounts. Each line of the bill gets an explicit daily price and quantity (or cost) series.

Written from what billing exports look like, not from ``finops/generator``: the point of these
fixtures is that the baseline has not been tuned on their shape.

Also the one FOCUS writer the hand-written bills share (``write_focus``; a ``Bill`` through
``write_bill_as_focus``), and ``answer``: the baseline's causes for a scenario folder.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from finops.model import Diagnosis, Resource
from finops.rca import diagnose
from finops.scenario import load_scenario

HEADER = "date,Account ID,CSP,Cloud_Service,Application,Instance_Family,Price ($/hr),Num_Instances,unblended_cost"


@dataclass
class Line:
    """One leaf of the bill: ``cost`` per day, with the price and instance count it reports."""

    account: str
    csp: str
    service: str
    app: str
    family: str
    price: np.ndarray
    count: np.ndarray
    cost: np.ndarray

    @property
    def key(self) -> tuple[str, ...]:
        return (self.account, self.csp, self.service, self.app, self.family)


class Bill:
    def __init__(self, start: dt.date, days: int, seed: int = 0):
        self.start = start
        self.days = days
        self.rng = np.random.default_rng(seed)
        self.lines: list[Line] = []

    def day(self, i: int) -> dt.date:
        return self.start + dt.timedelta(days=i)

    def weekly(self, weekday: float, weekend: float) -> np.ndarray:
        return np.array(
            [weekend if self.day(i).weekday() >= 5 else weekday for i in range(self.days)]
        )

    def usage(
        self,
        key: tuple[str, ...],
        price: float,
        count: float,
        noise: float = 0.05,
        shape: np.ndarray | None = None,
    ) -> Line:
        """Compute that follows load: a noisy instance count times a list price, 24 h a day."""
        level = count * (shape if shape is not None else np.ones(self.days))
        counts = np.maximum(np.rint(level * (1 + self.rng.normal(0, noise, self.days))), 0)
        prices = np.full(self.days, price)
        return self._add(key, prices, counts, prices * counts * 24)

    def static(self, key: tuple[str, ...], price: float, count: int = 1) -> Line:
        """A database or a reserved volume: the same cost every day, to the cent."""
        prices = np.full(self.days, price)
        counts = np.full(self.days, float(count))
        return self._add(key, prices, counts, prices * counts * 24)

    def tiered(
        self, key: tuple[str, ...], tiers: list[tuple[float, float]], volume: float, noise=0.06
    ) -> Line:
        """Storage or egress priced by tiers: the first ``upto`` units at one rate, the next at a
        lower one; the reported price is the day's average rate, which moves with volume."""
        units = np.maximum(volume * (1 + self.rng.normal(0, noise, self.days)), 0)
        cost = np.array([_tiered_cost(u, tiers) for u in units])
        count = np.rint(units)
        price = np.where(count > 0, cost / np.maximum(count, 1) / 24, 0.0)
        return self._add(key, price, count, cost)

    def flat_fee(self, key: tuple[str, ...], daily: float) -> Line:
        """A committed-use fee or a support plan (positive) or a credit (negative): one line, the
        same amount each day, no instances."""
        cost = np.full(self.days, float(daily))
        return self._add(key, np.zeros(self.days), np.zeros(self.days), cost)

    def _add(self, key, price, count, cost) -> Line:
        line = Line(*key, price=price, count=count, cost=cost)
        self.lines.append(line)
        return line

    def raise_price(self, lines: list[Line], factor: float, from_day: int) -> None:
        for line in lines:
            line.price[from_day:] *= factor
            line.cost[from_day:] *= factor

    def under(self, *prefix: str) -> list[Line]:
        """Lines whose (csp, service, ...) start with ``prefix``, across every account."""
        return [line for line in self.lines if line.key[1 : 1 + len(prefix)] == prefix]

    def write(
        self,
        folder: Path,
        anomaly_day: int,
        account: str,
        partial_first: float | None = None,
        partial_last: float | None = None,
    ) -> Path:
        """The CSV and anomaly.json. ``partial_first`` / ``partial_last``: the share of a day the
        export covers on its first / last day (an export cut at 14:00)."""
        folder.mkdir(parents=True, exist_ok=True)
        rows = [HEADER]
        for i in range(self.days):
            share = 1.0
            if i == 0 and partial_first is not None:
                share = partial_first
            if i == self.days - 1 and partial_last is not None:
                share = partial_last
            for line in self.lines:
                cost = line.cost[i] * share
                if cost == 0 and line.count[i] == 0:
                    continue  # not running that day: no row
                rows.append(
                    f"{self.day(i).isoformat()},{','.join(line.key)},{line.price[i]:.5f},"
                    f"{_count(line.count[i])},{cost:.4f}"
                )
        (folder / "data.csv").write_text("\n".join(rows) + "\n")
        date = self.day(anomaly_day).isoformat()
        (folder / "anomaly.json").write_text(json.dumps({"date": date, "account_id": account}))
        return folder


def _count(count: float) -> str:
    """Whole instances as integers; a mean over 24 hours of a day of 23 or 25 as three decimals."""
    return str(int(count)) if count == int(count) else f"{count:.3f}"


def _tiered_cost(units: float, tiers: list[tuple[float, float]]) -> float:
    cost, below = 0.0, 0.0
    for upto, rate in tiers:
        portion = max(0.0, min(units, upto) - below)
        cost += portion * rate
        below = upto
        if units <= upto:
            break
    return cost


def write_focus(
    folder: Path,
    columns: Sequence[str],
    rows: Iterable[tuple[dt.date, Sequence[str], float]],
    alert: dt.date,
    account: str,
    levels: Sequence[str] | None = None,
) -> Path:
    """A FOCUS export: ``focus.csv`` with the level ``columns`` then the day and the billed cost,
    one row per (day, the row's values of ``columns``, cost) in the order given; the alert in
    ``anomaly.json``; and, when given, the ``levels`` a cause may be named at in
    ``scenario.json`` (without it the loader takes its default levels). Which days a line has no
    row on is the caller's: exports differ on it."""
    folder.mkdir(parents=True, exist_ok=True)
    csv = [",".join([*columns, "ChargePeriodStart", "BilledCost"])]
    for day, path, cost in rows:
        csv.append(f"{','.join(path)},{day.isoformat()}T00:00:00Z,{cost:.4f}")
    (folder / "focus.csv").write_text("\n".join(csv) + "\n")
    anomaly = {"date": alert.isoformat(), "account_id": account}
    (folder / "anomaly.json").write_text(json.dumps(anomaly))
    if levels:
        (folder / "scenario.json").write_text(json.dumps({"levels": list(levels)}))
    return folder


def small_fleets(bill: Bill) -> None:
    """Account 111: fleets of two to eight instances of two families in three applications on a
    weekday/weekend rhythm, a database and a second provider. Weeks at one count make each
    fleet's measured noise tiny, and any day may have one instance more or less; one family
    repriced makes every application rise by about the same share."""
    shape = bill.weekly(1.0, 0.5)
    for app, n in (("shop", 8), ("search", 6), ("mail", 4)):
        bill.usage(("111", "AWS", "EC2", app, "m5.large"), 0.096, n, shape=shape)
        bill.usage(("111", "AWS", "EC2", app, "c5.xlarge"), 0.17, n / 2, shape=shape)
    bill.static(("111", "AWS", "RDS", "shop", "db.m5.large"), 0.171, 2)
    bill.usage(("111", "GCP", "Compute Engine", "batch", "e2-standard-4"), 0.134, 5, shape=shape)


#: the columns a bill's lines take in FOCUS: provider, service category (the service), service
#: name (the application), resource id (the family)
BILL_AS_FOCUS = ("BillingAccountId", "ProviderName", "ServiceCategory", "ServiceName", "ResourceId")


def write_bill_as_focus(
    bill: Bill, folder: Path, alert: int, account: str, billed: Callable[[Line, int], bool]
) -> Path:
    """The same bill as a FOCUS export (``BILL_AS_FOCUS``), a row per line and day ``billed``
    keeps, no ``scenario.json``."""
    rows = (
        (bill.day(i), line.key, float(line.cost[i]))
        for i in range(bill.days)
        for line in bill.lines
        if billed(line, i)
    )
    return write_focus(folder, BILL_AS_FOCUS, rows, bill.day(alert), account)


def diagnosis(folder: Path) -> Diagnosis:
    """The baseline's whole diagnosis of the scenario written in ``folder``, as the agent makes
    it: the scenario's own loader, then the drill-down on its table and alert."""
    scenario = load_scenario(folder)
    return diagnose(scenario.load_table(), scenario.anomaly)


def answer(folder: Path) -> tuple[Resource, ...]:
    """The baseline's root causes for the scenario written in ``folder``."""
    return diagnosis(folder).resources
