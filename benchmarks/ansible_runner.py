"""What ansible-runner costs on top of a bare ``ansible-playbook``: the same playbook on the same
host tree in the same bubblewrap sandbox, through each driver of ``ciso.engines.ansible``,
alternated so machine load falls on both alike. Wall time per run (the CPU time of the sandboxed
processes is not measurable from here: bubblewrap's PID namespace reaps them, so they never reach
this process's RUSAGE_CHILDREN). Prints one JSON document.
Run: .venv/bin/python benchmarks/ansible_runner.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from ciso.engines.ansible import run_playbook

REPO = Path(__file__).resolve().parents[1]
PLAYBOOK = REPO / "tests" / "sandbox" / "fixtures" / "collect_x11.yml"
HOST = REPO / "tests" / "sandbox" / "fixtures" / "host"


def once(driver: str, out: Path) -> float:
    started = time.perf_counter()
    result = run_playbook(PLAYBOOK, out_dir=out, host_tree=HOST, driver=driver)
    wall = time.perf_counter() - started
    assert result.ok and result.collected_data is not None, result.summary()
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    samples: dict[str, list[float]] = {"runner": [], "playbook": []}
    with tempfile.TemporaryDirectory() as scratch:
        for i in range(args.repeat + 1):
            for driver in ("runner", "playbook") if i % 2 else ("playbook", "runner"):
                sample = once(driver, Path(scratch) / f"{driver}-{i}")
                if i:  # the first round warms caches (bytecode, page cache) for both
                    samples[driver].append(sample)
    summary: dict[str, object] = {
        driver: {
            "wall_s_median": round(statistics.median(runs), 3),
            "wall_s_min": round(min(runs), 3),
            "runs": len(runs),
        }
        for driver, runs in samples.items()
    }
    summary["runner_extra_wall_s_median"] = round(
        statistics.median(samples["runner"]) - statistics.median(samples["playbook"]), 3
    )
    print(json.dumps({"playbook": PLAYBOOK.name, **summary}, indent=2))


if __name__ == "__main__":
    main()
