"""Runner overhead per trial with a no-op agent (-j 1 and -j 2), and kill-and-resume timing.

Prints one JSON document. Target: <= 5 ms of runner overhead per trial.
Run: .venv/bin/python benchmarks/runner_overhead.py [--trials 400]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from itbench.models import AgentResult, Scenario
from itbench.plugins.spec import Domain
from itbench.runner.run import collect_evaluations, execute_plan, plan_trials
from itbench.runner.trial import RunContext


class NoopAgent:
    name = "noop"

    def solve(self, task):
        return AgentResult()


def _domain() -> Domain:
    return Domain(name="bench", evaluate=lambda scenario, workspace: {"ok": 1.0})


def _scenarios(n: int) -> list[Scenario]:
    return [
        Scenario(id=f"s{i}", domain="bench", **{"class": "noop"}, title="noop") for i in range(n)
    ]


def measure(trials: int, jobs: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        scenarios = _scenarios(trials // 4)
        plan = plan_trials(scenarios, 4, out)
        ctx = RunContext(_domain(), NoopAgent(), "noop", None, 60.0)
        started = time.perf_counter()
        execute_plan(plan, ctx, out, jobs)
        elapsed = time.perf_counter() - started
        assert len(collect_evaluations(plan)) == len(plan.specs)
        # a resumed run over a complete directory: planning cost only
        started = time.perf_counter()
        again = plan_trials(scenarios, 4, out)
        resume_plan_s = time.perf_counter() - started
        assert not again.todo
    return {
        "jobs": jobs,
        "trials": len(plan.specs),
        "wall_s": round(elapsed, 3),
        "ms_per_trial": round(1000 * elapsed / len(plan.specs), 3),
        "resume_scan_ms_per_trial": round(1000 * resume_plan_s / len(plan.specs), 4),
    }


def kill_and_resume(tmp: Path) -> dict:
    """Run the toy domain through the CLI, kill -9 it part-way, and time the resumed run."""
    repo = Path(__file__).resolve().parents[1]
    env = dict(os.environ)
    env["PYTHONPATH"] = str(repo / "tests" / "core" / "toy_dist")
    env["TOY_SUITE_DIR"] = str(tmp / "suite")
    env["TOY_SCENARIOS"] = "10"
    env["TOY_AGENT_SLEEP"] = "0.05"
    exe = str(Path(sys.executable).parent / "itbench")
    out = tmp / "run"
    args = [
        exe,
        "toy",
        "run",
        "--trials",
        "10",
        "-j",
        "2",
        "--output",
        str(out),
        "--no-progress",
        "--format",
        "json",
    ]
    proc = subprocess.Popen(
        args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    while len(list(out.glob("*/*/evaluation.json"))) < 50:
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    kept = len(list(out.glob("*/*/evaluation.json")))
    started = time.perf_counter()
    done = subprocess.run(args, env=env, capture_output=True, text=True)
    resumed_s = time.perf_counter() - started
    raw = json.loads(done.stdout)["raw_results"]
    return {
        "trials": 100,
        "complete_when_killed": kept,
        "resume_wall_s": round(resumed_s, 3),
        "results_unique": len({(r["incident_id"], r["trial_id"]) for r in raw}) == len(raw) == 100,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=400)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        resume = kill_and_resume(Path(tmp))
    print(
        json.dumps(
            {
                "benchmark": "runner_overhead",
                "cpu_count": os.cpu_count(),
                "noop_agent": [measure(args.trials, 1), measure(args.trials, 2)],
                "kill_and_resume": resume,
                "target_ms_per_trial": 5,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
