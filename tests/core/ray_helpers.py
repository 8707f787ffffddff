"""A tiny domain and agents for the Ray executor tests, importable by Ray's worker processes
(the test cluster has this folder on its ``PYTHONPATH``).

Scenario ``ok-N`` asks for ``answer.json`` with ``{"n": N}``; ``doomed`` makes the agent kill
the process that runs it (the Ray worker) every time; ``hang`` starts a helper process, records
its pid and then waits far past any time limit.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import time
from pathlib import Path

from itbench.models import AgentResult, Scenario
from itbench.plugins.hooks import hook
from itbench.plugins.spec import Domain, DomainRun, SessionSettings, Task


def _evaluate(scenario: Scenario, workspace: Path) -> dict:
    answer = json.loads((workspace / "answer.json").read_text())
    return {"correct": 1.0 if answer == scenario.ground_truth else 0.0}


DOMAIN = Domain(name="raytoy", evaluate=_evaluate)


def _evaluate_weighted(scenario: Scenario, workspace: Path, weight: float, worker: bool) -> dict:
    return {**_evaluate(scenario, workspace), "weight": weight, "on_worker": float(worker)}


def open_session(domain: Domain, settings: SessionSettings) -> DomainRun:
    """A session carrying a run setting (``weight``) into the evaluator, and whether it was
    opened for a worker (no run directory) or for the driver."""
    evaluate = functools.partial(
        _evaluate_weighted,
        weight=float(settings.options["weight"]),
        worker=settings.run_directory is None,
    )
    return DomainRun(domain, settings, evaluate)


#: The same domain with a session: trials score what the session was opened with.
SESSION_DOMAIN = Domain(name="raytoy", session=hook("ray_helpers:open_session"))


def scenarios(root: Path, ids: list[str]) -> list[Scenario]:
    out = []
    for scenario_id in ids:
        folder = root / scenario_id
        folder.mkdir(parents=True, exist_ok=True)
        number = int(scenario_id.split("-")[1]) if scenario_id.startswith("ok-") else 0
        (folder / "task.json").write_text(json.dumps({"n": number}))
        out.append(
            Scenario(
                id=scenario_id,
                domain="raytoy",
                **{"class": "plain"},
                title=scenario_id,
                inputs={"task.json": folder / "task.json"},
                ground_truth={"n": number},
            )
        )
    return out


class RayToyAgent:
    name = "raytoy"

    def solve(self, task: Task) -> AgentResult:
        if task.scenario.id == "doomed":
            # the trial runs in a process forked by the Ray worker: kill the worker itself
            os.kill(os.getppid(), signal.SIGKILL)
            time.sleep(30)
        if task.scenario.id == "hang":
            helper = subprocess.Popen(["sleep", "60"])
            (task.workspace / "helper.pid").write_text(str(helper.pid))
            time.sleep(60)
        data = json.loads((task.workspace / "task.json").read_text())
        (task.workspace / "answer.json").write_text(json.dumps({"n": data["n"]}))
        return AgentResult()


class SessionAgent(RayToyAgent):
    """The raytoy agent, built from a session: it leaves in the workspace which session built it
    (a Ray worker's, opened without the run directory, or the driver's)."""

    name = "session-agent"

    def __init__(self, run: DomainRun) -> None:
        self.built_on = "worker" if run.settings.run_directory is None else "driver"

    def solve(self, task: Task) -> AgentResult:
        (task.workspace / "built_on.txt").write_text(self.built_on)
        return super().solve(task)


def session_agent(options: object, run: DomainRun) -> SessionAgent:
    return SessionAgent(run)
