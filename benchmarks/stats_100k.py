"""`itbench stats` over 100,000 raw results (1,000 incidents x 100 trials, SRE-like scores).

Target: <= 2 s for the whole command. Prints one JSON document.
Run: .venv/bin/python benchmarks/stats_100k.py
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from itbench.scoring.results import load_results_file


def make_document(incidents: int, trials: int) -> dict:
    rng = random.Random(0)
    raw = []
    for i in range(incidents):
        for t in range(1, trials + 1):
            if rng.random() < 0.02:
                raw.append({"incident_id": str(i), "trial_id": str(t), "error": "timeout"})
                continue
            p, r = rng.random(), rng.random()
            raw.append(
                {
                    "incident_id": str(i),
                    "trial_id": str(t),
                    "scores": {
                        "root_cause_entity": {
                            "calculation_precision": p,
                            "calculation_recall": r,
                            "calculation_f1": 2 * p * r / (p + r or 1),
                            "justification": "x" * 40,
                        },
                        "root_cause_entity_k": {
                            "calculation_precision": p,
                            "calculation_recall": r,
                            "calculation_f1": 0.5,
                        },
                        "propagation_chain": {"calculation": rng.random()},
                        "fault_localization_component_identification": {
                            "calculation": rng.choice([0, 1])
                        },
                        "root_cause_entity_k@1": {"calculation_precision": p},
                    },
                }
            )
    return {"raw_results": raw, "statistics": {}, "config": {"k": 3}}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "results.json"
        path.write_text(json.dumps(make_document(1000, 100)))
        exe = str(Path(sys.executable).parent / "itbench")
        started = time.perf_counter()
        proc = subprocess.run([exe, "stats", str(path)], capture_output=True, text=True, check=True)
        cli_s = time.perf_counter() - started
        started = time.perf_counter()
        load_results_file(path)  # reads and recomputes the statistics
        inprocess_s = time.perf_counter() - started
        overall = json.loads(proc.stdout)["statistics"]["overall"]
        file_mb = round(path.stat().st_size / 2**20, 1)
    print(
        json.dumps(
            {
                "benchmark": "stats_100k",
                "raw_results": 100_000,
                "file_mb": file_mb,
                "cli_wall_s": round(cli_s, 3),
                "in_process_s": round(inprocess_s, 3),
                "total_bad_runs": overall["total_bad_runs"],
                "target_s": 2.0,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
