"""The ``baseline`` agent's algorithm: cube -> tree -> drill-down -> explained root causes."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace

import numpy as np

from finops.loaders.table import CostTable
from finops.model import Anomaly, Diagnosis, Resource, RootCause
from finops.rca.cube import CostCube, build_cube
from finops.rca.daylength import day_length_factor, per_24_hours
from finops.rca.drilldown import DEFAULT_THRESHOLDS, Thresholds, drill_down
from finops.rca.explain import explain, money
from finops.rca.kinds import classify, classify_broad
from finops.rca.lookback import (
    EarlierChange,
    explains_late_alert,
    launched_inside,
    look_back_days,
)
from finops.rca.nodes import Tree, build_tree
from itbench.errors import InputError


def diagnose(
    table: CostTable, anomaly: Anomaly, thresholds: Thresholds = DEFAULT_THRESHOLDS
) -> Diagnosis:
    """Root causes of the anomaly. When the alert day itself names nothing, the alert may have
    been raised days after the cost changed (``finops.rca.lookback``): the earliest day of the
    week before it where the account's total stood out and the drill-down names causes that the
    bill's history says the alert is about is diagnosed instead, against the days before it."""
    alert = _day_tree(table, anomaly.account_id, anomaly.date)
    on_alert, spread_only = _diagnose_on(table, anomaly, alert, thresholds)
    # the account's total stood out on the alert day: the alert is about a cost that is still
    # wrong, whatever the day's own drill-down makes of it
    stood_out = alert.tree.root.z >= thresholds.z
    launches = bool(on_alert.root_causes) and all(
        launched_inside(cause.path, alert.cube) for cause in on_alert.root_causes
    )
    if on_alert.root_causes and not spread_only and not (stood_out and launches):
        return on_alert
    # a rise the alert day can only call spread out (no part of it stands out below a node)
    # is what a change some days before leaves once the recent days hold part of it; lines
    # launched days before, judged on the alert day against their own first days, are the
    # tail of their launch: the change day, when one explains the alert, names it better
    first = table.frame["date"].min().date()
    for day in look_back_days(anomaly.date, first):
        try:
            earlier = _day_tree(table, anomaly.account_id, day)
        except InputError:
            continue  # before the account's first day
        if earlier.tree.root.z < thresholds.broad_z:
            continue  # the account's total was ordinary that day: its cost did not change then
        found, _ = _diagnose_on(table, anomaly, earlier, thresholds)
        if found.root_causes and all(
            explains_late_alert(
                EarlierChange(cause.path, day, cause.actual, cause.expected),
                alert.cube,
                alert_stood_out=stood_out,
            )
            for cause in found.root_causes
        ):
            moved = (
                f"the account's cost changed on {day}, {(anomaly.date - day).days} day(s) before "
                f"the alert ({anomaly.date} is judged against days that already hold the "
                f"change); the causes are found on {day} against the days before it"
            )
            return replace(found, notes=(*on_alert.notes, moved, *found.notes))
    return on_alert


@dataclass(frozen=True)
class _DayTree:
    """The account's tree on one day (costs per 24 hours) and that day's length factor."""

    day: dt.date
    cube: CostCube
    hours: float
    tree: Tree


def _day_tree(table: CostTable, account_id: str, day: dt.date) -> _DayTree:
    billed = build_cube(table, account_id, day)
    hours = day_length_factor(billed)
    cube = per_24_hours(billed, hours)
    return _DayTree(day, cube, hours, build_tree(cube))


def _diagnose_on(
    table: CostTable, anomaly: Anomaly, at: _DayTree, thresholds: Thresholds
) -> tuple[Diagnosis, bool]:
    """The drill-down's causes on ``at.day`` against the days before it, and whether every one
    of them is a rise spread over a node with nothing standing out below it."""
    cube, hours, tree, day = at.cube, at.hours, at.tree, at.day
    findings, total = drill_down(
        tree, thresholds, lambda: _changed_elsewhere(table, cube, day, thresholds)
    )
    root = tree.root
    notes = [
        f"account {anomaly.account_id} cost {money(root.actual)} on {day} against an expected "
        f"{money(root.expected)} ({money(root.delta)}, {root.z:.1f} sigma)"
    ]
    if hours != 1.0:
        notes.append(
            f"{day} had {round(24 * hours)} hours (daylight saving): every metered line "
            "billed that share of a day; costs are read per 24 hours"
        )
    if not findings:
        notes.append("no node deviates enough to be justified as a root cause")
    causes: list[RootCause] = []
    seen: set[tuple[str, ...]] = set()
    for finding in findings:
        node = finding.node
        if node.path in seen:
            continue
        seen.add(node.path)
        level = cube.levels[node.depth]
        kind, detail = classify(cube, node, tree.is_leaf(node))
        if finding.reason == "broad":
            kind, detail = classify_broad(cube, node)
        if finding.reason == "across":
            kind = "price_change"
            detail = f"every priced line of it in every {cube.levels[node.depth - 1]} repriced"
        if finding.reason == "grown":
            kind = "cost_spike"
            detail = (
                f"every line of it in every {cube.levels[node.depth - 1]} rose beyond its noise"
            )
        if finding.reason == "every line":
            kind, detail = classify_broad(cube, node, "every line of it moved beyond its noise")
        if finding.reason == "switched":
            kind = "cost_spike"
            detail = (
                f"lines of several of its {cube.levels[-2]} values stopped and new ones that "
                "cost more started on the day"
            )
        if finding.reason == "one factor":
            kind, detail = classify_broad(
                cube, node, "several of its children rose by about one factor on the day"
            )
        if finding.reason == "shared":
            kind = "cost_spike"
            detail = (
                f"what rose lies in several branches of the bill, every one of them {level} "
                f"'{node.path[-1]}'"
            )
        if finding.reason == "credits":
            kind, detail = "cost_spike", "every credit under it ended"
        if finding.reason == "as one":
            kind, detail = classify_broad(
                cube, node, "every child of it rose beyond its noise or started"
            )
        share = node.delta / total if total else 0.0
        causes.append(
            RootCause(
                resource=Resource(node.path[-1], level),
                kind=kind,
                path=node.path,
                actual=node.actual,
                expected=node.expected,
                z_score=node.z,
                share=share,
                explanation=explain(node, level, kind, detail, share, day),
            )
        )
    causes.sort(key=lambda c: -c.actual + c.expected)
    spread_only = bool(findings) and all(f.reason == "spread" for f in findings)
    diagnosis = Diagnosis(
        anomaly, root.actual, root.expected, _one_per_resource(causes), tuple(notes)
    )
    return diagnosis, spread_only


#: Other accounts looked at for a change they share with the anomalous one (a bill can hold
#: hundreds of accounts; a provider's price change shows in any few of them).
MAX_OTHER_ACCOUNTS = 5


def _changed_elsewhere(
    table: CostTable, cube: CostCube, day: dt.date, thresholds: Thresholds
) -> dict[tuple[str, ...], float]:
    """Paths below the account (``("AWS",)``, ``("AWS", "EC2")``) that the drill-down finds
    changed as a whole on the same day in other accounts of the bill, with the median of their
    growth factors there."""
    here = cube.matrices[0].paths[0][0]
    factors: dict[tuple[str, ...], list[float]] = {}
    others = [a for a in table.account_ids() if a != here][:MAX_OTHER_ACCOUNTS]
    for account in others:
        try:
            other = build_tree(build_cube(table, account, day))
        except InputError:
            continue  # the day is outside that account's data
        for finding in drill_down(other, thresholds)[0]:
            node = finding.node
            if finding.reason == "broad" and node.baseline > 0:
                factors.setdefault(node.path[1:], []).append(node.actual / node.baseline)
    return {path: float(np.median(f)) for path, f in factors.items()}


def _one_per_resource(causes: list[RootCause]) -> tuple[RootCause, ...]:
    """One answer per ``{name, type}``: the same instance family can cause an increase in two
    applications; it is one resource, reported once (the largest increase first) with the other
    places named in its explanation."""
    merged: dict[Resource, RootCause] = {}
    for cause in causes:
        first = merged.get(cause.resource)
        if first is None:
            merged[cause.resource] = cause
            continue
        also = " / ".join(cause.path[1:])
        merged[cause.resource] = replace(
            first,
            share=first.share + cause.share,
            explanation=f"{first.explanation}; also in {also}: {cause.explanation}",
        )
    return tuple(merged.values())
