"""FinOps accuracy: the baseline against two simple methods, on the same fresh scenarios.

- ``naive``: the leaf with the largest day-over-day increase. One leaf only, so it cannot score on
  a scenario with several root causes by construction.
- ``topk``: the leaves with the largest day-over-day increases, k read from the data (the elbow of
  the sorted increases; ``finops/rca/topk.py``). The fair simple comparison: no oracle knowledge
  of how many causes there are.

Per agent and difficulty: ``root_cause_resource`` (ITBench's rule: every true resource among the
predictions; naming everything scores 1), element precision and F1, ``root_cause_resource_exact``
(predictions equal the truth) and the mean number of resources named. 100 generated scenarios per
difficulty and per family (finops/generator/families.py: service- and provider-wide causes, and
normal billing life beside a cause), fresh seed by argument. Prints one JSON document.
Targets in every family: root_cause_resource >= 0.9 and element F1 >= 0.85.
Run: .venv/bin/python benchmarks/finops_accuracy.py [--n 100] [--seed 20261122]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from finops.evaluate import score_finops
from finops.generator import FAMILY_NAMES, generate_scenarios
from finops.loaders.table import CostTable
from finops.model import Anomaly, Resource
from finops.rca import diagnose
from finops.rca.naive import naive_diagnose
from finops.rca.topk import topk_diagnose
from finops.scenario import discover_scenarios

AGENTS: dict[str, Callable[[CostTable, Anomaly], tuple[Resource, ...]]] = {
    "baseline": lambda table, anomaly: diagnose(table, anomaly).resources,
    "naive": naive_diagnose,
    "topk": topk_diagnose,
}
FIGURES = ("root_cause_resource", "precision", "f1", "exact", "resources_named")


def _figures(predicted: tuple[Resource, ...], truth: tuple[Resource, ...]) -> dict[str, float]:
    scores = score_finops(predicted, truth)
    lenient = scores["root_cause_resource"]
    assert isinstance(lenient, dict)
    return {
        "root_cause_resource": lenient["calculation"],
        "precision": lenient["calculation_precision"],
        "f1": lenient["calculation_f1"],
        "exact": float(scores["root_cause_resource_exact"]),
        "resources_named": float(len(predicted)),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--seed", type=int, default=20261122)
    args = parser.parse_args()
    report: dict = {
        "benchmark": "finops_accuracy",
        "n_per_difficulty": args.n,
        "seed": args.seed,
        "results": {},
    }
    groups = [(d, "classic") for d in ("easy", "medium", "hard")]
    groups += [("medium", family) for family in FAMILY_NAMES]
    with tempfile.TemporaryDirectory() as tmp:
        for difficulty, family in groups:
            name = difficulty if family == "classic" else family
            folder = Path(tmp) / name
            generate_scenarios(folder, args.n, args.seed, difficulty, family=family)
            sums = {agent: dict.fromkeys(FIGURES, 0.0) for agent in AGENTS}
            multi_cause = 0
            started = time.perf_counter()
            for scenario in discover_scenarios(folder):
                table = scenario.load_table()
                truth = tuple(scenario.ground_truth or ())
                multi_cause += len(set(truth)) > 1
                for agent, method in AGENTS.items():
                    for figure, value in _figures(method(table, scenario.anomaly), truth).items():
                        sums[agent][figure] += value
            elapsed = time.perf_counter() - started
            report["results"][name] = {
                agent: {figure: round(total / args.n, 4) for figure, total in s.items()}
                for agent, s in sums.items()
            } | {"multi_cause_scenarios": multi_cause, "seconds": round(elapsed, 2)}
            print(f"{name}: {report['results'][name]['baseline']}", file=sys.stderr)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
