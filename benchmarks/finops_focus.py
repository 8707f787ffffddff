"""Planted anomalies in the real FOCUS sample: share of the k planted root causes the baseline finds.

Target >= 0.8. Needs ../shared (exits with a message if absent).
Run: .venv/bin/python benchmarks/finops_focus.py [--k 3] [--n 20] [--seed 7]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from finops.generator.focus import inject_into_focus
from finops.rca import diagnose
from finops.scenario import discover_scenarios

SAMPLE = (
    Path(__file__).resolve().parents[2] / "shared" / "corpora" / "focus-sample" / "focus_sample.csv"
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--n", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if not SAMPLE.exists():
        sys.exit(f"{SAMPLE} not found: ../shared is needed for this benchmark")
    found = planted = extra = 0
    with tempfile.TemporaryDirectory() as tmp:
        inject_into_focus(SAMPLE, Path(tmp), args.k, args.seed, n=args.n)
        for scenario in discover_scenarios(Path(tmp)):
            predicted = set(diagnose(scenario.load_table(), scenario.anomaly).resources)
            truth = set(scenario.ground_truth)
            found += len(predicted & truth)
            planted += len(truth)
            extra += len(predicted - truth)
    print(
        json.dumps(
            {
                "benchmark": "finops_focus_planted",
                "scenarios": args.n,
                "k": args.k,
                "planted": planted,
                "found": found,
                "share_found": round(found / planted, 4),
                "extra_predictions": extra,
                "target": 0.8,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
