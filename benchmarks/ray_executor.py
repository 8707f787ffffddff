"""The Ray executor's cost: per-trial overhead against the local executor, and throughput vs workers.

1. No-op trials (the agent does nothing, the evaluator returns a constant) through the local
   executor and through Ray (shared files and transfer mode): the time per trial once the
   workers are up, and the fixed cost of starting them, medians over --repeats runs.
2. A simulated cluster: one local Ray instance with N logical CPUs, a sleep agent (--sleep s per
   trial) and -j N, for N in --workers; throughput against the ideal N / sleep, over the whole
   run and in the steady state (after every worker's first trial), and the driver's own CPU time
   per trial (what bounds how many workers one driver can feed).

Prints one JSON document. Run: .venv/bin/python benchmarks/ray_executor.py
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import tempfile
import time
from pathlib import Path

import ray

from itbench.models import AgentResult, Scenario
from itbench.plugins.spec import Domain
from itbench.runner.executors import LocalExecutor
from itbench.runner.executors.ray_executor import RayExecutor
from itbench.runner.run import collect_evaluations, execute_plan, plan_trials
from itbench.runner.trial import RunContext


class NoopAgent:
    name = "noop"

    def solve(self, task):
        return AgentResult()


class SleepAgent:
    name = "sleep"

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def solve(self, task):
        time.sleep(self.seconds)
        return AgentResult()


def _domain() -> Domain:
    return Domain(name="bench", evaluate=lambda scenario, workspace: {"ok": 1.0})


def _scenarios(n: int, root: Path) -> list[Scenario]:
    # one small input each, so transfer mode has something to ship
    out = []
    for i in range(n):
        source = root / f"s{i}.json"
        source.write_text(json.dumps({"i": i}))
        out.append(
            Scenario(
                id=f"s{i}",
                domain="bench",
                **{"class": "noop"},
                title="noop",
                inputs={"input.json": source},
            )
        )
    return out


def _timed_run(
    executor, agent, trials: int, jobs: int, finished: list[float] | None = None
) -> tuple[float, float]:
    """Wall and driver CPU seconds of one run of ``trials`` single-trial scenarios; the
    ``perf_counter`` of each trial's completion is appended to ``finished``."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        out = root / "run"
        out.mkdir()
        plan = plan_trials(_scenarios(trials, root), 1, out)
        ctx = RunContext(_domain(), agent, agent.name, None, 60.0)
        done = finished if finished is not None else []
        wall, cpu = time.perf_counter(), time.process_time()
        execute_plan(
            plan,
            ctx,
            out,
            jobs,
            on_trial=lambda spec, evaluation: done.append(time.perf_counter()),
            executor=executor,
        )
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        evaluations = collect_evaluations(plan)
        assert len(evaluations) == trials and all(e.error is None for e in evaluations)
    return wall, cpu


def overhead(trials: int, jobs: int, repeats: int) -> list[dict]:
    """Per executor, the median over ``repeats`` runs of: the time per trial once the pool is up
    (completions after every worker's first, so the workers' start is not spread over the
    trials), and the fixed cost (the rest of the wall time)."""
    rows = []
    executors = {
        "local": LocalExecutor(),
        "ray-shared": RayExecutor(files="shared"),
        "ray-transfer": RayExecutor(files="transfer"),
    }
    for name, executor in executors.items():
        _timed_run(executor, NoopAgent(), jobs, jobs)  # warm: imports, Ray's idle workers
        per_trial, fixed, cpu_per_trial = [], [], []
        for _ in range(repeats):
            finished: list[float] = []
            wall, cpu = _timed_run(executor, NoopAgent(), trials, jobs, finished)
            finished.sort()
            steady = (finished[-1] - finished[jobs - 1]) / (len(finished) - jobs)
            per_trial.append(steady)
            fixed.append(wall - trials * steady)
            cpu_per_trial.append(cpu / trials)
        rows.append(
            {
                "executor": name,
                "jobs": jobs,
                "trials": trials,
                "ms_per_trial": round(1000 * statistics.median(per_trial), 3),
                "ms_per_trial_runs": [round(1000 * v, 3) for v in per_trial],
                "fixed_s": round(statistics.median(fixed), 3),
                "driver_cpu_ms_per_trial": round(1000 * statistics.median(cpu_per_trial), 3),
            }
        )
    return rows


def scaling(workers: list[int], sleep_s: float, per_worker: int) -> list[dict]:
    rows = []
    agent = SleepAgent(sleep_s)
    executor = RayExecutor()
    for n in workers:
        trials = n * per_worker
        finished: list[float] = []
        wall, cpu = _timed_run(executor, agent, trials, n, finished)
        ideal = n / sleep_s
        # once every worker has finished a trial the pool is up: the rate from there on is the
        # steady state, without the workers' one-off start (process, imports, payload)
        finished.sort()
        steady = (len(finished) - n) / (finished[-1] - finished[n - 1])
        rows.append(
            {
                "workers": n,
                "trials": trials,
                "wall_s": round(wall, 3),
                "trials_per_s": round(trials / wall, 2),
                "ideal_trials_per_s": round(ideal, 2),
                "efficiency": round(trials / wall / ideal, 3),
                "steady_trials_per_s": round(steady, 2),
                "steady_efficiency": round(steady / ideal, 3),
                "driver_cpu_ms_per_trial": round(1000 * cpu / trials, 3),
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--workers", default="1,2,4,8,16")
    parser.add_argument("--sleep", type=float, default=0.5)
    parser.add_argument("--per-worker", type=int, default=12)
    args = parser.parse_args()
    workers = [int(n) for n in args.workers.split(",")]

    started = time.perf_counter()
    # one local instance for everything; logical CPUs so that N sleeping workers fit
    ray.init(
        address="local",
        num_cpus=max([*workers, args.jobs]),
        include_dashboard=False,
        log_to_driver=False,
        logging_level=logging.WARNING,
    )
    ray_start_s = time.perf_counter() - started
    try:
        noop = overhead(args.trials, args.jobs, args.repeats)
        cluster = scaling(workers, args.sleep, args.per_worker)
    finally:
        ray.shutdown()
    print(
        json.dumps(
            {
                "benchmark": "ray_executor",
                "ray_version": ray.__version__,
                "cpu_count": os.cpu_count(),
                "ray_local_instance_start_s": round(ray_start_s, 3),
                "noop_trials": noop,
                "simulated_cluster": {"sleep_s": args.sleep, "runs": cluster},
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
