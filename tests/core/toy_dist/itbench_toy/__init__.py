"""A small third-party domain, installed as a real distribution (dist-info on sys.path) by tests.

Scenario ``add-N``: add two numbers from ``task.json``; the answer goes in ``answer.json``, or
the file the run's ``--answer-file`` names. Written against the session API: the run's session
binds that setting into the evaluator, validator, llm tools and references, and the baseline's
factory reads it from the session it is given.
Environment knobs let tests slow the baseline down (kill/resume) or make it hang (timeouts).
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from itbench.errors import InputError, UsageError
from itbench.llm.tools import Tool
from itbench.models import AgentResult, PublicScenario, Scenario
from itbench.plugins.hooks import hook
from itbench.plugins.spec import AgentOptions, Domain, DomainRun, SessionSettings

if TYPE_CHECKING:
    import click

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


#: Where the answer goes unless the run says otherwise (``--answer-file``, a run setting: its
#: session binds it into the evaluator, the validator, the tools, the references and the agents).
ANSWER_FILE = "answer.json"


def _answer_file(settings: SessionSettings) -> str:
    return str(settings.options.get("toy_answer_file") or ANSWER_FILE)


def _read_answer(workspace: Path, answer_file: str = ANSWER_FILE) -> dict:
    path = workspace / answer_file
    if not path.exists():
        raise InputError(f"{path}: missing")
    try:
        return json.loads(path.read_text())
    except ValueError as exc:
        raise InputError(f"{path}: not JSON ({exc})") from exc


def _evaluate(
    scenario: Scenario[ToyAnswer, ToyAnswer], workspace: Path, answer_file: str = ANSWER_FILE
) -> dict:
    answer = _read_answer(workspace, answer_file)
    return {"correct": 1.0 if answer.get("sum") == scenario.ground_truth["sum"] else 0.0}


def _validate(scenario: PublicScenario, workspace: Path, answer_file: str) -> list[str]:
    try:
        answer = _read_answer(workspace, answer_file)
    except InputError as exc:
        return [str(exc)]
    if not isinstance(answer.get("sum"), int):
        return [f"{answer_file}: field 'sum' must be an integer"]
    return []


def _tools(scenario: PublicScenario, workspace: Path, answer_file: str) -> list[Tool]:
    """One tool: where this run wants the answer."""

    def answer_location() -> str:
        return f"write your answer to {answer_file}"

    return [
        Tool(
            "answer_location",
            "Where the answer file goes",
            {"type": "object", "properties": {}},
            answer_location,
        )
    ]


def _ground_truth(path: Path | None) -> dict[str, Scenario]:
    return {s.id: s for s in _scenarios(None)}


def _reference(scenario: Scenario[ToyAnswer, ToyAnswer], workspace: Path, answer_file: str) -> None:
    (workspace / answer_file).write_text(json.dumps(scenario.reference))


@dataclass(frozen=True)
class ToyBaseline:
    name: str = "baseline"
    answer_file: str = ANSWER_FILE

    def solve(self, task) -> AgentResult:
        delay = float(os.environ.get("TOY_AGENT_SLEEP", "0"))
        if delay:
            time.sleep(delay)
        data = json.loads((task.workspace / "task.json").read_text())
        answer = json.dumps({"sum": data["a"] + data["b"]})
        (task.workspace / self.answer_file).write_text(answer)
        return AgentResult()


def baseline_factory(options: AgentOptions, run: DomainRun) -> ToyBaseline:
    """The baseline writes where the run's session says the answer goes."""
    return ToyBaseline(answer_file=_answer_file(run.settings))


@dataclass(frozen=True)
class EchoAgent:
    """A third-party agent arriving through ``itbench.agents``: always answers 0."""

    name: str = "echo-agent"

    def solve(self, task) -> AgentResult:
        (task.workspace / "answer.json").write_text(json.dumps({"sum": 0}))
        return AgentResult()


def echo_agent_factory(options: AgentOptions, run: DomainRun) -> EchoAgent:
    return EchoAgent()


def _run_options() -> list[click.Option]:
    import click

    return [
        click.Option(
            ["--answer-file", "toy_answer_file"],
            default=ANSWER_FILE,
            show_default=True,
            help="The file an agent writes its answer to.",
        )
    ]


def open_run(domain: Domain, settings: SessionSettings) -> DomainRun[ToyAnswer, ToyAnswer]:
    """The toy's run session (``Domain.session``): the run's answer file bound into its
    evaluator, validator, tools and references; typed to its scenarios' answers."""
    answer_file = _answer_file(settings)
    return DomainRun(
        domain,
        settings,
        evaluate=functools.partial(_evaluate, answer_file=answer_file),
        load_scenarios=_scenarios,
        validate_output=functools.partial(_validate, answer_file=answer_file),
        llm_tools=functools.partial(_tools, answer_file=answer_file),
        write_reference=functools.partial(_reference, answer_file=answer_file),
    )


domain = Domain(
    name="toy",
    description="Toy arithmetic domain (test fixture)",
    # named, imported when first called: what a third-party domain writes
    load_scenarios=hook("itbench_toy:_scenarios"),
    agents={"baseline": hook("itbench_toy:baseline_factory")},
    load_ground_truth=hook("itbench_toy:_ground_truth"),
    primary_metric="correct",
    run_options=hook("itbench_toy:_run_options"),
    session=hook("itbench_toy:open_run"),
)
