"""FinOps accuracy: baseline vs a naive "largest day-over-day leaf increase" agent, in one run.

100 generated scenarios per difficulty (fresh seed by argument). Prints one JSON document.
Targets at medium: root_cause_resource >= 0.9 and element F1 >= 0.8.
Run: .venv/bin/python benchmarks/finops_accuracy.py [--n 100] [--seed 20261122]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from finops.evaluate import score_root_cause_resource
from finops.generator import generate_scenarios
from finops.rca import diagnose
from finops.rca.naive import naive_diagnose
from finops.scenario import discover_scenarios


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--seed", type=int, default=20261122)
    args = parser.parse_args()
    report = {
        "benchmark": "finops_accuracy",
        "n_per_difficulty": args.n,
        "seed": args.seed,
        "results": {},
    }
    with tempfile.TemporaryDirectory() as tmp:
        for difficulty in ("easy", "medium", "hard"):
            folder = Path(tmp) / difficulty
            generate_scenarios(folder, args.n, args.seed, difficulty)
            sums = {"baseline": [0.0, 0.0], "naive": [0.0, 0.0]}
            started = time.perf_counter()
            for scenario in discover_scenarios(folder):
                table = scenario.load_table()
                for name, predicted in (
                    ("baseline", diagnose(table, scenario.anomaly).resources),
                    ("naive", naive_diagnose(table, scenario.anomaly)),
                ):
                    score = score_root_cause_resource(predicted, scenario.ground_truth)
                    sums[name][0] += score["calculation"]
                    sums[name][1] += score["calculation_f1"]
            elapsed = time.perf_counter() - started
            report["results"][difficulty] = {
                agent: {
                    "root_cause_resource": round(s[0] / args.n, 4),
                    "element_f1": round(s[1] / args.n, 4),
                }
                for agent, s in sums.items()
            } | {"seconds": round(elapsed, 2)}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
