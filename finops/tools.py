"""Tools an LLM agent can call on a scenario's cost data (JSON in, JSON out).

They give the data, never an answer: no tool runs the baseline's drill-down, so an ``llm`` score
measures the model, not the baseline.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any

from finops.loaders.focus import read_focus_csv
from finops.loaders.lite import read_lite_csv
from finops.loaders.table import CostTable
from finops.model import FOCUS_HIERARCHY, Anomaly, Hierarchy
from itbench.fsutil import check_agent_path
from itbench.llm.tools import Tool


def make_tools(load_table: Callable[[], CostTable], anomaly: Anomaly) -> list[Tool]:
    """``list_levels`` and ``query_costs`` over the table ``load_table`` reads (once, lazily)."""
    cache: dict[str, CostTable] = {}

    def table() -> CostTable:
        if "t" not in cache:
            cache["t"] = load_table()
        return cache["t"]

    def list_levels() -> dict[str, Any]:
        t = table()
        return {
            "levels": list(t.hierarchy.levels),
            "accounts": t.account_ids(),
            "anomaly": {"date": str(anomaly.date), "account_id": anomaly.account_id},
        }

    def query_costs(
        level: str,
        filters: dict | None = None,
        start: str | None = None,
        end: str | None = None,
        top: int = 20,
    ) -> dict[str, Any]:
        t = table()
        if level not in t.hierarchy.levels:
            raise ValueError(f"unknown level {level!r}; levels: {', '.join(t.hierarchy.levels)}")
        frame = t.frame
        for key, value in (filters or {}).items():
            if key not in t.hierarchy.levels:
                raise ValueError(f"unknown filter level {key!r}")
            frame = frame[frame[key] == str(value)]
        if start:
            frame = frame[frame["date"] >= dt.date.fromisoformat(start).isoformat()]
        if end:
            frame = frame[frame["date"] <= dt.date.fromisoformat(end).isoformat()]
        daily = frame.groupby([level, "date"])["cost"].sum().unstack("date").fillna(0.0)
        totals = daily.sum(axis=1).sort_values(ascending=False).head(max(1, min(int(top), 200)))
        days = [d.date().isoformat() for d in daily.columns]  # type: ignore[attr-defined]  # the loader parses the date column into Timestamps
        rows = [
            {
                "name": str(name),
                "daily_cost": [round(float(v), 2) for v in daily.loc[name].tolist()],
            }
            for name in totals.index
        ]
        return {"level": level, "days": days, "rows": rows}

    return [
        Tool(
            "list_levels",
            "The hierarchy levels of the cost data, the accounts, and the anomaly to explain.",
            {"type": "object", "properties": {}},
            list_levels,
        ),
        Tool(
            "query_costs",
            'Daily cost per member of a hierarchy level, optionally filtered by other levels (e.g. {"Application": "checkout"}) and by date range (YYYY-MM-DD). Returns the top members by total cost.',
            {
                "type": "object",
                "properties": {
                    "level": {"type": "string"},
                    "filters": {"type": "object", "additionalProperties": {"type": "string"}},
                    "start": {"type": "string"},
                    "end": {"type": "string"},
                    "top": {"type": "integer"},
                },
                "required": ["level"],
            },
            query_costs,
        ),
    ]


def workspace_table_loader(
    workspace: Path, hierarchy: Hierarchy | None = None
) -> Callable[[], CostTable]:
    """The workspace's export, a FOCUS one read with ``hierarchy`` (its scenario's levels and
    cost column) when given."""

    def load() -> CostTable:
        # read when a tool is first called, as the runner's user outside any sandbox, after the
        # agent's shell may have put a link to another file of the machine (or a FIFO that would
        # block the runner) there: only a regular file reached through real folders is read
        for name in ("data.csv", "focus.csv"):
            check_agent_path(workspace, name)
        if (workspace / "data.csv").exists():
            return read_lite_csv(workspace / "data.csv")
        return read_focus_csv(workspace / "focus.csv", hierarchy or FOCUS_HIERARCHY)

    return load
