"""One trial, start to finish, inside its worker process: workspace, agent, evaluation, record."""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import json
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from itbench import records
from itbench.agents.base import Agent, Task, task_prompt
from itbench.agents.command import CommandAgent
from itbench.agents.llm import LLMAgent
from itbench.agents.oracle import OracleAgent
from itbench.errors import ItbenchError
from itbench.fsutil import agent_files, atomic_write_text, clear_planted, copy_input
from itbench.models import AgentResult, AgentStatus, Evaluation, Scenario, ScoreValue, Usage
from itbench.models.records import UNSANDBOXED
from itbench.plugins.hooks import Hook
from itbench.plugins.spec import Domain, DomainRun, SessionSettings, split_scores
from itbench.runner.answer_watch import AnswerWatch
from itbench.runner.failures import evaluation_error
from itbench.runner.layout import (
    EVALUATION_FILE,
    TRANSCRIPT_FILE,
    TRANSCRIPTS_DIR,
    runner_transcript,
    seal_evaluation,
)
from itbench.sandbox.agent import cache_dirs
from itbench.transcript import Transcript


@dataclass(frozen=True)
class TrialSpec:
    scenario: Scenario
    number: int
    directory: Path

    @property
    def label(self) -> str:
        return f"{self.scenario.id}#{self.number}"


@dataclass(frozen=True)
class RunContext:
    """What every trial of one run shares."""

    domain: Domain
    agent: Agent
    agent_name: str
    model: str | None
    time_limit_s: float | None
    #: the agent's programs ran outside any sandbox (``--agent-sandbox off``): every evaluation
    #: says so (``UNSANDBOXED``), so that a leaderboard can refuse the run's scores
    unsandboxed: bool = False
    #: The domain's session for this run (``Domain.open_run``); None: the domain's own hooks,
    #: as they are (a context built by hand, in tests).
    session: DomainRun | None = None
    #: Builds the agent from a session (the agent's factory with the run's options): a Ray
    #: worker opens its own session from the run's request and builds its own agent with it, so
    #: the agent's tools and validator are bound to that session. None: ``agent`` travels as it
    #: is (a context built by hand, in tests).
    build_agent: Callable[[DomainRun], Agent] | None = None

    def for_session(self, session: DomainRun) -> RunContext:
        """This context on ``session`` (a Ray worker's own), the agent rebuilt with it."""
        agent = self.agent if self.build_agent is None else self.build_agent(session)
        return replace(self, session=session, agent=agent)

    @property
    def run(self) -> DomainRun:
        """The session trials are evaluated and given their environment with."""
        if self.session is not None:
            return self.session
        return DomainRun(
            self.domain,
            SessionSettings({}),
            self.domain.evaluate,
            self.domain.trial_environment,
        )


def prepare_workspace(spec: TrialSpec) -> None:
    """Copy exactly what the scenario exposes; ground truth is never among ``inputs``."""
    spec.directory.mkdir(parents=True, exist_ok=True)
    for name, source in spec.scenario.inputs.items():
        copy_input(source, spec.directory / name)


def failed_evaluation(spec: TrialSpec, ctx: RunContext, reason: str, **extra: object) -> Evaluation:
    if ctx.unsandboxed:
        given = extra.get("details")
        extra["details"] = {**(given if isinstance(given, Mapping) else {}), UNSANDBOXED: True}
    return Evaluation(
        scenario_id=spec.scenario.id,
        trial_id=str(spec.number),
        scenario_class=spec.scenario.scenario_class,
        agent=ctx.agent_name,
        model=ctx.model,
        error=reason,
        **extra,
    )


def execute_trial(spec: TrialSpec, ctx: RunContext) -> Evaluation:
    """Run the agent, score its files and write ``evaluation.json`` atomically (the commit point)."""
    started = time.monotonic()
    prepare_workspace(spec)
    # written where no sandboxed command reaches; the trial folder gets a copy once the agent
    # has ended, and the file itself once the trial is scored (a redo starts a new one)
    kept = runner_transcript(spec.directory)
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.unlink(missing_ok=True)
    transcript = Transcript(kept)
    prompt = task_prompt(spec.scenario)
    transcript.record(
        "trial_start", scenario=spec.scenario.id, trial=spec.number, agent=ctx.agent_name
    )
    try:
        with _environment(spec, ctx) as env:
            task = Task(
                spec.scenario.public_view(),
                prompt,
                spec.directory,
                ctx.time_limit_s,
                transcript,
                dict(env),
            )
            # the runner's own clock on the answer file (``answer_seen``): what MTTD is timed by
            with AnswerWatch(spec.directory, transcript):
                result = _solve(ctx.agent, task, spec, ctx.domain)
    except ItbenchError as exc:  # the environment itself could not be set up or torn down
        result = AgentResult(status=AgentStatus.ERROR, reason=f"environment: {exc}")
    transcript.record("agent_end", status=result.status.value, reason=result.reason)
    # only the runner writes evaluation.json and transcript.jsonl: whatever the agent left under
    # those names (a forged score or history, a link, a folder in the way) goes before anything
    # is scored, and the evaluator reads the runner's transcript
    planted = [
        note
        for note in (
            _discard_planted(spec.directory / EVALUATION_FILE),
            _discard_planted(spec.directory / TRANSCRIPT_FILE),
        )
        if note
    ]
    publish_transcript(spec.directory)

    scores: dict[str, ScoreValue] = {}
    details: dict[str, Any] = {}
    error: str | None = None
    if result.status is not AgentStatus.OK:
        error = result.reason or result.status.value
    elif (evaluate := ctx.run.evaluate) is None:
        error = f"domain {ctx.domain.name!r} has no evaluator"
    else:
        try:
            scores, details = split_scores(evaluate(spec.scenario, spec.directory))
        except Exception as exc:  # the trial's error: the worker goes on to the next trial
            error = evaluation_error(exc)
    _, refused = agent_files(spec.directory)
    if planted or refused:
        # links and special files are never read by an evaluator: say so beside its verdict
        listed = planted + refused
        extra = [f"… and {len(listed) - 20} more"] if len(listed) > 20 else []
        details = {**details, "refused": listed[:20] + extra}
    if ctx.unsandboxed:
        details = {**details, UNSANDBOXED: True}
    evaluation = Evaluation(
        scenario_id=spec.scenario.id,
        trial_id=str(spec.number),
        scenario_class=spec.scenario.scenario_class,
        agent=ctx.agent_name,
        model=ctx.model,
        scores=scores if error is None else {},
        error=error,
        usage=result.usage if isinstance(result.usage, Usage) else Usage(),
        duration_s=round(time.monotonic() - started, 4),
        details=details,
    )
    transcript.record("evaluation", scores=evaluation.scores, error=evaluation.error)
    publish_transcript(spec.directory, last=True)
    write_evaluation(spec.directory, evaluation)
    return evaluation


def publish_transcript(trial: Path, *, last: bool = False) -> None:
    """Lay the runner's transcript of ``trial`` in the trial folder (``transcript.jsonl``),
    replacing whatever stands there; nothing when the runner kept none. ``last``: the runner
    records nothing more for the trial, so its own copy is removed once laid (each transcript
    stored once); the agent has ended before either, so it never wrote what is laid. Signed: a
    later ``eval`` times MTTD only from a transcript whose signature holds."""
    kept = runner_transcript(trial)
    if not kept.is_file():
        return
    target = trial / TRANSCRIPT_FILE
    clear_planted(target)
    clear_planted(trial / records.signature_of(Path(TRANSCRIPT_FILE)))
    text = kept.read_text(encoding="utf-8")
    try:
        # signed: a later ``eval`` times MTTD from a folder anyone may have edited
        records.write_signed_text(trial, Path(TRANSCRIPT_FILE), text)
    except ItbenchError as exc:
        # a user who cannot keep the signing key (a state folder that is not theirs) still gets
        # the trial scored: its transcript is laid unsigned, and times no MTTD
        print(f"warning: {exc}; {target} is laid unsigned (no MTTD)", file=sys.stderr)
        atomic_write_text(target, text)
    if last:  # the trial's own copy is the one kept: the runner's is not stored twice
        kept.unlink(missing_ok=True)


def remove_transcript_folders(output_dir: Path) -> None:
    """Remove the runner's transcript folders of ``output_dir`` once no trial runs, when empty
    (each trial's own copy was moved into its folder); a trial interrupted before that left its
    copy, which its redo replaces."""
    root = output_dir / TRANSCRIPTS_DIR
    if not root.is_dir():
        return
    for folder in [*root.iterdir(), root]:
        with contextlib.suppress(OSError):  # not empty, not a folder: kept
            folder.rmdir()


def _environment(spec: TrialSpec, ctx: RunContext) -> AbstractContextManager[Mapping[str, str]]:
    environment = ctx.run.trial_environment
    if environment is None:
        return nullcontext({})
    return environment(spec.scenario, spec.directory)


def hidden_paths(spec: TrialSpec, domain: Domain) -> tuple[Path, ...]:
    """What the agent's external programs must not see: the run directory (``DIR`` of
    ``DIR/<scenario>/<n>``, holding the other trials), the folders the scenario's inputs come from
    (its ground truth lies beside them), its ``source_dir``, the itbench cache, the folder of the
    key that signs the runner's records and the domain's packages."""
    paths = [spec.directory.parent.parent]
    paths += [source.parent for source in spec.scenario.inputs.values()]
    if spec.scenario.source_dir is not None:
        paths.append(spec.scenario.source_dir)
    paths += cache_dirs()
    # the home folders are hidden anyway; $ITBENCH_STATE_DIR may name a folder elsewhere
    paths.append(records.state_dir())
    paths += domain_package_dirs(domain)
    return tuple(dict.fromkeys(paths))


@functools.cache
def _package_dirs(package: str) -> tuple[Path, ...]:
    try:
        found = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return ()
    if found is None:
        return ()
    if found.submodule_search_locations:
        return tuple(Path(p) for p in found.submodule_search_locations)
    return (Path(found.origin),) if found.origin else ()


def domain_package_dirs(domain: Domain) -> tuple[Path, ...]:
    """Folders of the packages holding the domain's code and the ones it declares for the
    sandbox: built-in suites and reference answers ship there."""
    packages = set(domain.sandbox_packages) | set(domain.answer_packages)
    for item in fields(domain):
        value = getattr(domain, item.name)
        # a hook names its module; a function knows its own
        module = value.module if isinstance(value, Hook) else getattr(value, "__module__", None)
        if callable(value) and module:
            packages.add(module.partition(".")[0])
    packages.discard("itbench")  # the harness, not a domain: no ground truth lives in it
    return tuple(d for package in sorted(packages) for d in _package_dirs(package))


def _solve(agent: Agent, task: Task, spec: TrialSpec, domain: Domain) -> AgentResult:
    try:
        # Only the built-in oracle, command and llm agents (not subclasses, not look-alikes
        # declaring the same methods) get more than the task: the reference, or where ground truth
        # lies (what the command's and the llm's shell tool's sandbox must cover).
        if type(agent) is OracleAgent:
            return agent.solve_with_reference(task, spec.scenario)
        if type(agent) is CommandAgent or type(agent) is LLMAgent:
            return agent.solve_confined(task, hidden_paths(spec, domain))
        return agent.solve(task)
    except subprocess.TimeoutExpired:
        return AgentResult(status=AgentStatus.TIMEOUT, reason="timeout")
    except ItbenchError as exc:
        return AgentResult(status=AgentStatus.ERROR, reason=str(exc))
    except Exception as exc:  # an agent's bug fails its trial, not the run
        return AgentResult(status=AgentStatus.ERROR, reason=f"{type(exc).__name__}: {exc}")


def _discard_planted(path: Path) -> str | None:
    """Remove what the agent left at the runner's ``path``; what it was, or None."""
    if clear_planted(path) is not None:
        return f"{path.name}: the agent left something that is not a regular file there: removed"
    if path.exists():
        path.unlink()
        return f"{path.name}: the agent wrote one: removed (only the runner writes it)"
    return None


def write_evaluation(directory: Path, evaluation: Evaluation) -> None:
    """Commit the trial's evaluation; a link or folder in its place is replaced, never followed."""
    clear_planted(directory / EVALUATION_FILE)
    text = json.dumps(evaluation.model_dump(mode="json"), indent=2, default=str) + "\n"
    seal_evaluation(directory / EVALUATION_FILE, text)
    atomic_write_text(directory / EVALUATION_FILE, text)
