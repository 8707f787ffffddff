"""Sentences with numbers, so a reader can check every root cause by hand."""

from __future__ import annotations

import datetime as dt

from finops.rca.nodes import NodeStats


def money(value: float) -> str:
    sign = "-" if value < 0 else ""
    return f"{sign}${abs(value):,.2f}"


def explain(node: NodeStats, level: str, kind: str, detail: str, share: float, day: dt.date) -> str:
    where = " / ".join(node.path[1:]) or node.path[0]
    change = (node.delta / node.expected * 100) if node.expected > 0 else float("inf")
    pct = "new" if change == float("inf") else f"{change:+.0f}%"
    text = (
        f"{level} {node.path[-1]!r} ({where}) cost {money(node.actual)} on {day} against an expected "
        f"{money(node.expected)} ({money(node.delta)}, {pct}, {node.z:.1f} sigma); it explains "
        f"{share:.0%} of the account's increase; kind: {kind}"
    )
    return text + (f" ({detail})" if detail else "")
