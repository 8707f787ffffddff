"""The CISO ``baseline`` and ``oracle`` agents on fresh generated instances.

For each seed, ``itbench ciso run --fresh SEED --agent A -j 2`` (A = baseline, oracle). Prints one
JSON document: per seed and agent, ITBench and strict pass@1 per class and overall, wall time;
the generation time per instance (``itbench ciso generate``, timed per control in process); and the
baseline's mean over the seeds, the figure ``ciso/report.py`` shows beside the built-in one.
Run: .venv/bin/python benchmarks/ciso_fresh.py [--seeds 11,22,33] [-j 2] [--keep DIR]
[--agents baseline,oracle]
(``--keep DIR`` keeps every run's output folder there, to read which trials failed and why;
``--agents baseline`` leaves the oracle out, when its 100% on those seeds is already known.)
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ciso.generator import generate
from ciso.report import pass_at_1, trials


def _itbench() -> str:
    candidate = Path(sys.executable).parent / "itbench"
    return str(candidate) if candidate.exists() else "itbench"


def run(seed: int, agent: str, output: Path, jobs: int) -> dict:
    command = [_itbench(), "ciso", "run", "--fresh", str(seed), "--agent", agent, "-j", str(jobs)]
    command += ["--output", str(output), "--format", "json", "--no-progress"]
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.monotonic() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"itbench ciso run failed ({done.returncode}): {done.stderr[-2000:]}")
    rows = trials(json.loads((output / "results.json").read_text()))
    classes = sorted({r.scenario_class for r in rows})
    per_class = {}
    for name in [*classes, "overall"]:
        group = rows if name == "overall" else [r for r in rows if r.scenario_class == name]
        per_class[name] = {
            "scenarios": len({r.scenario for r in group}),
            "itbench_pass_at_1": round(pass_at_1(group, "itbench_pass") or 0, 2),
            "strict_pass_at_1": round(pass_at_1(group, "strict_pass") or 0, 2),
        }
    return {"wall_s": round(wall, 2), "classes": per_class}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", default="11,22,33")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="keep the runs' output folders here")
    parser.add_argument("--agents", default="baseline,oracle")
    args = parser.parse_args()
    agents = [a for a in args.agents.split(",") if a]
    if "baseline" not in agents:
        parser.error("--agents must include baseline (the mean is the baseline's)")
    seeds = [int(s) for s in args.seeds.split(",")]
    runs: dict[str, dict[str, dict]] = {}
    generation: list[float] = []
    with tempfile.TemporaryDirectory() as scratch:
        kept = args.keep or Path(scratch)
        for seed in seeds:
            generation += [g.seconds for g in generate(seed, Path(scratch) / f"gen-{seed}")]
            runs[str(seed)] = {
                agent: run(seed, agent, kept / f"{agent}-{seed}", args.jobs) for agent in agents
            }
    mean = {}
    for name in runs[str(seeds[0])]["baseline"]["classes"]:
        mean[name] = {
            metric: round(
                statistics.fmean(runs[str(s)]["baseline"]["classes"][name][metric] for s in seeds),
                2,
            )
            for metric in ("itbench_pass_at_1", "strict_pass_at_1")
        }
    print(
        json.dumps(
            {
                "seeds": seeds,
                "runs": runs,
                "baseline_mean_over_seeds": mean,
                "generation_s_per_instance": {
                    "mean": round(statistics.fmean(generation), 4),
                    "max": round(max(generation), 4),
                    "instances": len(generation),
                },
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
