"""A small third-party domain, installed as a real distribution (dist-info on sys.path) by tests.

Scenario ``add-N``: add two numbers from ``task.json``; the answer goes in ``answer.json``.
Environment knobs let tests slow the baseline down (kill/resume) or make it hang (timeouts).
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from itbench.errors import InputError, UsageError
from itbench.models import AgentResult, Scenario
from itbench.plugins.hooks import hook
from itbench.plugins.spec import Domain, DomainRun, SessionSettings

#: The toy's ground truth and reference answer: ``{"sum": a + b}``.
ToyAnswer = dict[str, int]


def _suite_dir() -> Path:
    root = Path(
        os.environ.get("TOY_SUITE_DIR") or Path(tempfile.gettempdir()) / "itbench-toy-suite"
    )
    return root


def _scenarios(spec: str | None) -> list[Scenario]:
    count = int(os.environ.get("TOY_SCENARIOS", "3"))
    root = _suite_dir()
    out = []
    for i in range(1, count + 1):
        folder = root / f"add-{i}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "task.json").write_text(json.dumps({"a": i, "b": 10 * i}))
        (folder / "truth.json").write_text(json.dumps({"sum": 11 * i}))
        out.append(
            Scenario(
                id=f"add-{i}",
                domain="toy",
                **{"class": "even" if i % 2 == 0 else "odd"},
                title=f"Add the numbers of scenario {i}",
                description='Read task.json ({a, b}) and write answer.json with {"sum": a + b}.',
                inputs={"task.json": folder / "task.json"},
                ground_truth={"sum": 11 * i},
                reference={"sum": 11 * i},
            )
        )
    if spec is None:
        return out
    wanted = spec.split(",")
    known = {s.id: s for s in out}
    missing = [w for w in wanted if w not in known]
    if missing:
        raise UsageError(f"unknown scenario {missing[0]!r}; available: {', '.join(known)}")
    return [known[w] for w in wanted]


def _read_answer(workspace: Path) -> dict:
    path = workspace / "answer.json"
    if not path.exists():
        raise InputError(f"{path}: missing")
    try:
        return json.loads(path.read_text())
    except ValueError as exc:
        raise InputError(f"{path}: not JSON ({exc})") from exc


def _evaluate(scenario: Scenario[ToyAnswer, ToyAnswer], workspace: Path) -> dict:
    answer = _read_answer(workspace)
    return {"correct": 1.0 if answer.get("sum") == scenario.ground_truth["sum"] else 0.0}


def _validate(scenario: Scenario, workspace: Path) -> list[str]:
    try:
        answer = _read_answer(workspace)
    except InputError as exc:
        return [str(exc)]
    if not isinstance(answer.get("sum"), int):
        return ["answer.json: field 'sum' must be an integer"]
    return []


def _ground_truth(path: Path | None) -> dict[str, Scenario]:
    return {s.id: s for s in _scenarios(None)}


def _reference(scenario: Scenario, workspace: Path) -> None:
    (workspace / "answer.json").write_text(json.dumps(scenario.reference))


@dataclass(frozen=True)
class ToyBaseline:
    name: str = "baseline"

    def solve(self, task) -> AgentResult:
        delay = float(os.environ.get("TOY_AGENT_SLEEP", "0"))
        if delay:
            time.sleep(delay)
        data = json.loads((task.workspace / "task.json").read_text())
        (task.workspace / "answer.json").write_text(json.dumps({"sum": data["a"] + data["b"]}))
        return AgentResult()


@dataclass(frozen=True)
class EchoAgent:
    """A third-party agent arriving through ``itbench.agents``: always answers 0."""

    name: str = "echo-agent"

    def solve(self, task) -> AgentResult:
        (task.workspace / "answer.json").write_text(json.dumps({"sum": 0}))
        return AgentResult()


def echo_agent_factory(options, domain) -> EchoAgent:
    return EchoAgent()


def open_run(domain: Domain, settings: SessionSettings) -> DomainRun[ToyAnswer, ToyAnswer]:
    """The toy's run session (``Domain.session``): it has no run settings, so its evaluator and
    scenarios serve every run as they are; typed to its scenarios' answers."""
    return DomainRun(domain, settings, evaluate=_evaluate, load_scenarios=_scenarios)


domain = Domain(
    name="toy",
    description="Toy arithmetic domain (test fixture)",
    # named, imported when first called: what a third-party domain writes
    load_scenarios=hook("itbench_toy:_scenarios"),
    agents={"baseline": lambda options, domain: ToyBaseline()},
    evaluate=hook("itbench_toy:_evaluate"),
    load_ground_truth=hook("itbench_toy:_ground_truth"),
    write_reference=hook("itbench_toy:_reference"),
    validate_output=hook("itbench_toy:_validate"),
    primary_metric="correct",
    session=hook("itbench_toy:open_run"),
)
