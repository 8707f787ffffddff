"""Plant labelled anomalies into a real FOCUS export.

k resources of the billing account with the most rows get an extra charge on one day, each sized
well above the account's day-to-day noise; the rows copy a real row of the resource (so every
FOCUS column stays plausible) with the cost columns replaced. Resources are drawn from distinct
services that were billed before the day, so that each planted charge is one independent root
cause at the ResourceId level.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import yaml

from finops.loaders.export import read_export
from finops.model import FOCUS_HIERARCHY
from itbench.errors import InputError, UsageError
from itbench.fsutil import atomic_write_text

COST_COLUMNS = ("BilledCost", "EffectiveCost", "ListCost", "ContractedCost")


def _robust_sigma(daily: np.ndarray) -> float:
    diffs = np.diff(daily)
    mad = np.median(np.abs(diffs - np.median(diffs))) if len(diffs) else 0.0
    return float(max(1.4826 * mad / np.sqrt(2), np.median(np.abs(daily)) * 0.05, 1e-3))


def inject_into_focus(source: Path, out_dir: Path, k: int, seed: int, n: int = 1) -> list[Path]:
    raw = read_export(source, dtype=str, keep_default_na=False)
    needed = [*FOCUS_HIERARCHY.levels, "BilledCost", "ChargePeriodStart", "ChargePeriodEnd"]
    missing = [c for c in needed if c not in raw.columns]
    if missing:
        raise InputError(f"{source}: missing FOCUS column(s) {', '.join(missing)}")
    account_col, service_col, resource_col = "BillingAccountId", "ServiceName", "ResourceId"
    account = raw[account_col].value_counts().index[0]
    mine = raw[raw[account_col] == account].copy()
    mine["_day"] = pd.to_datetime(mine["ChargePeriodStart"], errors="coerce").dt.normalize()
    mine["_cost"] = pd.to_numeric(mine["BilledCost"].replace("NULL", "0"), errors="coerce").fillna(
        0.0
    )
    days = sorted(mine["_day"].dropna().unique())
    if len(days) < 10:
        raise InputError(
            f"{source}: account {account} has {len(days)} days of data; at least 10 are needed"
        )
    daily = mine.groupby("_day")["_cost"].sum().reindex(days, fill_value=0.0).to_numpy()
    sigma = _robust_sigma(daily)
    scale = max(sigma, float(np.median(np.abs(daily))))
    folders = []
    for i in range(n):
        rng = random.Random(f"{seed}:{i}")
        day = pd.Timestamp(rng.choice(days[len(days) // 2 :]))
        before = mine[
            (mine["_day"] < day) & (mine[resource_col] != "") & (mine[resource_col] != "NULL")
        ]
        services = sorted(before[service_col].unique())
        if len(services) < k:
            raise UsageError(
                f"{source}: only {len(services)} services have history before {day.date()}; --k {k} is too many"
            )
        planted_rows: list[pd.Series] = []
        truth: list[dict[str, Any]] = []
        for service in rng.sample(services, k):
            candidates = before[before[service_col] == service]
            row = candidates.iloc[rng.randrange(len(candidates))].copy()
            amount = rng.uniform(8.0, 15.0) * scale
            start = day + pd.Timedelta(hours=rng.randrange(24))
            row["ChargePeriodStart"] = start.strftime("%Y-%m-%d %H:%M:%S")
            row["ChargePeriodEnd"] = (start + pd.Timedelta(hours=1)).strftime("%Y-%m-%d %H:%M:%S")
            for column in COST_COLUMNS:
                if column in row.index:
                    row[column] = f"{amount:.10f}"
            if "Id" in row.index:
                row["Id"] = f"itbench-planted-{i}-{len(truth)}"
            planted_rows.append(row.drop(labels=["_day", "_cost"]))
            truth.append({"name": row[resource_col], "type": resource_col})
        out = pd.concat([raw, pd.DataFrame(planted_rows)], ignore_index=True)
        folder = out_dir / f"Scenario-{i + 1}"
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_text(folder / "focus.csv", out.to_csv(index=False))
        atomic_write_text(
            folder / "anomaly.json",
            json.dumps({"date": str(day.date()), "account_id": account}) + "\n",
        )
        atomic_write_text(
            folder / "ground_truth.yaml", yaml.safe_dump({"resource": truth}, sort_keys=False)
        )
        meta = {
            "generator": "itbench.finops.focus-inject",
            "source": source.name,
            "seed": seed,
            "k": k,
            "levels": list(FOCUS_HIERARCHY.levels),
            "cost_column": "BilledCost",
            "root_causes": [{"kind": "planted_charge"} for _ in truth],
        }
        atomic_write_text(folder / "scenario.json", json.dumps(meta, indent=2) + "\n")
        folders.append(folder)
    return folders
