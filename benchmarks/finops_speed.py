"""RCA speed and memory on a 1,000,000-row ITBench-Lite data.csv (target <= 5 s, <= 1 GB peak).

The data is generated into a temporary folder; the diagnosis (CSV read included) runs in a fresh
subprocess whose peak RSS is read from getrusage.
Run: .venv/bin/python benchmarks/finops_speed.py [--rows 1000000]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

CHILD = """
import json, resource, sys, time
from pathlib import Path
started = time.perf_counter()
from finops.scenario import load_scenario
from finops.rca import diagnose
s = load_scenario(Path(sys.argv[1]))
table = s.load_table()
loaded = time.perf_counter()
d = diagnose(table, s.anomaly)
done = time.perf_counter()
print(json.dumps({"load_s": loaded - started, "diagnose_s": done - loaded, "total_s": done - started,
    "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "found": [[r.name, r.type] for r in d.resources]}))
"""


def make_data(folder: Path, rows: int, days: int = 60) -> tuple[str, str]:
    rng = np.random.default_rng(1)
    leaves = rows // days
    start = dt.date(2024, 1, 1)
    dates = np.repeat(pd.date_range(start, periods=days).strftime("%Y-%m-%d").to_numpy(), leaves)
    leaf = np.tile(np.arange(leaves), days)
    count = rng.integers(5, 50, size=leaves)[leaf] * (1 + rng.normal(0, 0.05, leaf.size))
    count = np.maximum(np.rint(count), 1)
    price = rng.choice([0.096, 0.192, 0.34, 0.126], size=leaves)[leaf]
    spiked = leaves // 2
    # a real anomaly: ten times the account's day-to-day noise, on one leaf
    daily = pd.Series(price * count * 24).groupby(dates).sum().to_numpy()
    sigma = 1.4826 * np.median(np.abs(np.diff(daily) - np.median(np.diff(daily)))) / np.sqrt(2)
    on_day = (leaf == spiked) & (dates == dates[-1])
    count[on_day] += np.ceil(10 * sigma / (price[on_day] * 24))
    frame = pd.DataFrame(
        {
            "date": dates,
            "Account ID": "100200300",
            "CSP": np.array(["AWS", "Azure", "GCP"])[leaf % 3],
            "Cloud_Service": np.char.add("svc-", (leaf % 40).astype(str)),
            "Application": np.char.add("app-", (leaf % 2000).astype(str)),
            "Instance_Family": np.char.add("fam-", leaf.astype(str)),
            "Price ($/hr)": price,
            "Num_Instances": count.astype(int),
            "unblended_cost": np.round(price * count * 24, 4),
        }
    )
    frame.to_csv(folder / "data.csv", index=False)
    (folder / "anomaly.json").write_text(
        json.dumps({"date": str(dates[-1]), "account_id": "100200300"})
    )
    return f"fam-{spiked}", str(len(frame))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "Scenario-1"
        folder.mkdir()
        expected, rows = make_data(folder, args.rows)
        size_mb = (folder / "data.csv").stat().st_size / 2**20
        proc = subprocess.run(
            [sys.executable, "-c", CHILD, str(folder)], capture_output=True, text=True, check=True
        )
        result = json.loads(proc.stdout)
    result = {k: round(v, 3) if isinstance(v, float) else v for k, v in result.items()}
    print(
        json.dumps(
            {
                "benchmark": "finops_speed",
                "rows": int(rows),
                "csv_mb": round(size_mb, 1),
                **result,
                "planted": expected,
                "targets": {"total_s": 5, "peak_rss_mb": 1024},
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
