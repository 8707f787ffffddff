"""The ``baseline`` agent's algorithm: cube -> tree -> drill-down -> explained root causes."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from finops.loaders.table import CostTable
from finops.model import Anomaly, Diagnosis, Resource, RootCause
from finops.rca.cube import CostCube, build_cube
from finops.rca.daylength import day_length_factor, per_24_hours
from finops.rca.drilldown import DEFAULT_THRESHOLDS, Thresholds, drill_down
from finops.rca.explain import explain, money
from finops.rca.kinds import classify, classify_broad
from finops.rca.nodes import build_tree
from itbench.errors import InputError


def diagnose(
    table: CostTable, anomaly: Anomaly, thresholds: Thresholds = DEFAULT_THRESHOLDS
) -> Diagnosis:
    billed = build_cube(table, anomaly.account_id, anomaly.date)
    hours = day_length_factor(billed)
    cube = per_24_hours(billed, hours)
    tree = build_tree(cube)
    findings, total = drill_down(
        tree, thresholds, lambda: _changed_elsewhere(table, cube, anomaly, thresholds)
    )
    root = tree.root
    notes = [
        f"account {anomaly.account_id} cost {money(root.actual)} on {anomaly.date} against an expected "
        f"{money(root.expected)} ({money(root.delta)}, {root.z:.1f} sigma)"
    ]
    if hours != 1.0:
        notes.append(
            f"{anomaly.date} had {round(24 * hours)} hours (daylight saving): every metered line "
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
        if finding.reason == "credits":
            kind, detail = "cost_spike", "every credit under it ended"
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
                explanation=explain(node, level, kind, detail, share, anomaly.date),
            )
        )
    causes.sort(key=lambda c: -c.actual + c.expected)
    return Diagnosis(anomaly, root.actual, root.expected, _one_per_resource(causes), tuple(notes))


#: Other accounts looked at for a change they share with the anomalous one (a bill can hold
#: hundreds of accounts; a provider's price change shows in any few of them).
MAX_OTHER_ACCOUNTS = 5


def _changed_elsewhere(
    table: CostTable, cube: CostCube, anomaly: Anomaly, thresholds: Thresholds
) -> dict[tuple[str, ...], float]:
    """Paths below the account (``("AWS",)``, ``("AWS", "EC2")``) that the drill-down finds
    changed as a whole on the same day in other accounts of the bill, with the median of their
    growth factors there."""
    here = cube.matrices[0].paths[0][0]
    factors: dict[tuple[str, ...], list[float]] = {}
    others = [a for a in table.account_ids() if a != here][:MAX_OTHER_ACCOUNTS]
    for account in others:
        try:
            other = build_tree(build_cube(table, account, anomaly.date))
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
