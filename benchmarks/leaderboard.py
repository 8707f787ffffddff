"""Time to build ``itbench leaderboard`` over 20 runs x 110 scenarios x 5 trials (11,000 trials).

Synthesises 20 run folders (results.json built as the runner builds it, with usage on every trial,
four scenario classes, some errored trials) in a temporary directory, then times reading them and
building the board (rows, classes, reliability) and rendering it in every format. The goal is 2 s.
Prints one JSON document. Run: .venv/bin/python benchmarks/leaderboard.py
"""

from __future__ import annotations

import json
import random
import tempfile
import time
from pathlib import Path

from itbench.report.leaderboard import build_leaderboard
from itbench.report.leaderboard_formats import (
    render_csv,
    render_json,
    render_markdown,
    render_table,
)
from itbench.scoring.document import ResultsDocument

RUNS, SCENARIOS, TRIALS = 20, 110, 5
GOAL_S = 2.0


def _synthesise(root: Path) -> list[Path]:
    rng = random.Random(33)
    classes = {f"Scenario-{i}": f"class-{i % 4}" for i in range(1, SCENARIOS + 1)}
    folders = []
    for r in range(RUNS):
        skill = 0.2 + 0.6 * r / RUNS
        raw = []
        for scenario in classes:
            difficulty = rng.random()
            for t in range(1, TRIALS + 1):
                entry: dict = {"incident_id": scenario, "trial_id": str(t)}
                if rng.random() < 0.02:
                    entry.update(scores={}, error="agent timed out")
                else:
                    solved = 1 if rng.random() < skill * (1.2 - difficulty) else 0
                    entry["scores"] = {"solved": solved}
                entry["duration_s"] = rng.uniform(5, 60)
                entry["usage"] = {
                    "prompt_tokens": rng.randint(1000, 50000),
                    "completion_tokens": rng.randint(100, 5000),
                    "cost_usd": rng.uniform(0.01, 2.0),
                    "llm_calls": rng.randint(1, 100),
                }
                raw.append(entry)
        config = {
            "domain": "toy",
            "agent": "llm",
            "model": f"model-{r}",
            "primary_metric": "solved",
            "pass_at_1_metrics": ["solved"],
            "scenario_classes": classes,
        }
        folder = root / f"run-{r}"
        folder.mkdir()
        (folder / "results.json").write_bytes(ResultsDocument.build(raw, config).to_json_bytes())
        folders.append(folder)
    return folders


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folders = _synthesise(Path(tmp))
        start = time.perf_counter()
        board = build_leaderboard(folders, min_trials=TRIALS)
        built = time.perf_counter() - start
        renders = {}
        for name, render in (
            ("table", render_table),
            ("markdown", render_markdown),
            ("json", render_json),
            ("csv", render_csv),
        ):
            start = time.perf_counter()
            render(board)
            renders[name] = round(time.perf_counter() - start, 4)
    print(
        json.dumps(
            {
                "runs": RUNS,
                "scenarios": SCENARIOS,
                "trials_per_scenario": TRIALS,
                "trials_total": RUNS * SCENARIOS * TRIALS,
                "build_s": round(built, 4),
                "render_s": renders,
                "goal_s": GOAL_S,
                "within_goal": built + max(renders.values()) <= GOAL_S,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
