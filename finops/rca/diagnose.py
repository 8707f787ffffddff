"""The ``baseline`` agent's algorithm: cube -> tree -> drill-down -> explained root causes."""

from __future__ import annotations

from finops.loaders.table import CostTable
from finops.model import Anomaly, Diagnosis, Resource, RootCause
from finops.rca.cube import build_cube
from finops.rca.drilldown import DEFAULT_THRESHOLDS, Thresholds, drill_down
from finops.rca.explain import explain, money
from finops.rca.kinds import classify
from finops.rca.nodes import build_tree


def diagnose(
    table: CostTable, anomaly: Anomaly, thresholds: Thresholds = DEFAULT_THRESHOLDS
) -> Diagnosis:
    cube = build_cube(table, anomaly.account_id, anomaly.date)
    tree = build_tree(cube)
    findings, total = drill_down(tree, thresholds)
    root = tree.root
    notes = [
        f"account {anomaly.account_id} cost {money(root.actual)} on {anomaly.date} against an expected "
        f"{money(root.expected)} ({money(root.delta)}, {root.z:.1f} sigma)"
    ]
    if not findings:
        notes.append("no node deviates enough to be justified as a root cause")
    causes = []
    seen = set()
    for finding in findings:
        node = finding.node
        if node.path in seen:
            continue
        seen.add(node.path)
        level = cube.levels[node.depth]
        kind, detail = classify(cube, node, tree.is_leaf(node))
        if finding.reason == "broad":
            kind, detail = "broad_increase", "most of its children rose together"
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
    return Diagnosis(anomaly, root.actual, root.expected, tuple(causes), tuple(notes))
