"""The benchmark as a library: :class:`RunRequest`, :func:`run_benchmark`, :func:`evaluate_outputs`.

``itbench <domain> run`` and ``eval`` parse their flags into these calls and print what they
return; a Python program gets the same run directory, the same ``results.json`` and the same
:class:`~itbench.scoring.document.ResultsDocument` without going through the command line.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from itbench.errors import UsageError
from itbench.plugins.spec import AgentOptions, Domain, time_limit_of
from itbench.scoring.document import ResultsDocument


@dataclass(frozen=True)
class RunRequest:
    """Everything one ``run`` needs, as plain values (it pickles, so it can travel to workers).

    The defaults are those of ``itbench <domain> run`` without flags, except ``progress``: a
    library call prints no progress lines unless asked.
    """

    #: The domain's name (``itbench domains`` lists them).
    domain: str
    #: ``None``: the built-in suite; else a scenario directory or comma-separated ids
    #: (``--scenarios``).
    scenarios: str | None = None
    #: Globs on scenario ids; only matching scenarios run (``--select``, repeatable).
    select: tuple[str, ...] = ()
    #: The agent's name; ``None``: ``command`` when ``agent_options.agent_cmd`` is set, else
    #: ``baseline``.
    agent: str | None = None
    agent_options: AgentOptions = field(default_factory=AgentOptions)
    trials: int = 1
    jobs: int = 1
    #: The run directory; ``None``: ``outputs/<domain>`` under the working directory.
    output_dir: Path | None = None
    #: Per-trial hard time limit in seconds; ``None``: the domain's default.
    time_limit_s: float | None = None
    #: A leaderboard protocol (``--protocol``): the llm agent scored on the protocol's metric.
    #: Its settings (turn cap, shell, trials) are the caller's to put in the request.
    protocol: str | None = None
    #: Redo trials whose evaluation recorded an error (``--retry-errors``).
    retry_errors: bool = False
    #: Progress lines on stderr (the command line's default; ``--no-progress`` turns them off).
    progress: bool = False
    #: ``local`` (forked workers) or ``ray``.
    executor: str = "local"
    ray_address: str | None = None
    #: Values of the domain's own run options (parameter name -> value, as the domain's
    #: session gets them in ``SessionSettings.options``).
    domain_options: Mapping[str, Any] = field(default_factory=dict)

    def run_directory(self) -> Path:
        """The absolute run directory: trial paths reach agents and tools in other working
        directories."""
        return (self.output_dir or Path("outputs") / self.domain).resolve()

    def agent_name(self) -> str:
        """The agent that runs: the one named, else ``command`` for a command, else baseline."""
        if self.agent_options.agent_cmd and self.agent not in (None, "command"):
            raise UsageError(
                "--agent-cmd runs the 'command' agent; drop --agent or use --agent command"
            )
        return self.agent or ("command" if self.agent_options.agent_cmd else "baseline")


def _domain_of(domain: Domain | str) -> Domain:
    if isinstance(domain, Domain):
        return domain
    from itbench.plugins.domains import get_domain

    return get_domain(domain).domain


def run_benchmark(domain: Domain | str, request: RunRequest) -> ResultsDocument:
    """Run ``request``'s agent on its scenarios, score every trial and write ``results.json``
    into the run directory (:meth:`RunRequest.run_directory`); the document written.

    A run directory holding complete trials of the same plan resumes: only trials without an
    ``evaluation.json`` run. Raises :class:`~itbench.errors.ItbenchError` subclasses for bad
    requests (unknown agent, no scenario selected, a protocol the domain lacks) before any trial.
    """
    plugin = _domain_of(domain)
    if plugin.name != request.domain:
        raise UsageError(f"the request is for domain {request.domain!r}, not {plugin.name!r}")
    out = request.run_directory()
    session = plugin.open_run(request)
    if session.evaluate is None or (session.load_scenarios or plugin.load_scenarios) is None:
        raise UsageError(f"the {plugin.name} domain has no scenarios to run or no evaluator")
    from itbench.agents.registry import resolve_agent
    from itbench.fsutil import ensure_directory
    from itbench.models.records import UNSANDBOXED
    from itbench.runner.executors import make_executor
    from itbench.runner.progress import Progress
    from itbench.runner.run import (
        collect_evaluations,
        execute_plan,
        plan_trials,
        results_config,
        results_path,
        write_results,
    )
    from itbench.runner.selection import select_scenarios
    from itbench.runner.trial import RunContext

    options = request.agent_options
    name = request.agent_name()
    primary_metric = plugin.primary_metric
    protocol_config: dict[str, Any] = {}
    if request.protocol is not None:
        name, primary_metric = _protocol_agent(request.protocol, name, request.agent, plugin)
        protocol_config["protocol"] = request.protocol
    if options.llm_shell != "off" and name != "llm":
        raise UsageError(
            f"--llm-shell {options.llm_shell} gives the llm agent a shell; the agent is {name}"
        )
    time_limit = request.time_limit_s
    if time_limit is None:
        time_limit = time_limit_of(plugin)
    factory = resolve_agent(name, plugin)
    selected = select_scenarios(session.scenarios(request.scenarios), request.select)
    if not selected:
        raise UsageError("no scenarios selected")
    extra_config = {
        **plugin.results_config_for(selected, request.domain_options),
        **protocol_config,
    }
    agent = factory(options, session)  # configuration errors surface before any trial
    ensure_directory(out)
    plan = plan_trials(selected, request.trials, out, retry_errors=request.retry_errors)
    # the command agent, or the llm agent's shell tool, ran outside the sandbox
    shell = name == "command" or (name == "llm" and options.llm_shell != "off")
    unsandboxed = shell and not options.agent_sandbox
    ctx = RunContext(
        plugin,
        agent,
        name,
        options.model,
        time_limit,
        unsandboxed=unsandboxed,
        session=session,
        build_agent=functools.partial(factory, options),
    )
    trial_executor = make_executor(request.executor, request.ray_address, request)
    if session.before_trials is not None and plan.todo and request.executor == "local":
        session.before_trials(selected)
    with Progress(len(plan.todo), len(plan.done), enabled=request.progress) as progress:
        execute_plan(
            plan, ctx, out, request.jobs, on_trial=progress.trial_done, executor=trial_executor
        )
    evaluations = collect_evaluations(plan)
    # trials of this run or of an earlier one resumed here whose agent ran unsandboxed
    marked = sum(1 for e in evaluations if e.details.get(UNSANDBOXED))
    if marked:
        extra_config["unsandboxed_trials"] = marked
        print(
            f"WARNING: {marked} trial(s) ran with --agent-sandbox off: results.json marks "
            "them unsandboxed; their scores prove nothing",
            file=sys.stderr,
        )
    config = results_config(
        plugin.name, name, options.model, request.trials, selected, primary_metric, extra_config
    )
    return write_results(evaluations, config, results_path(out))


def _protocol_agent(
    protocol: str, name: str, agent_name: str | None, domain: Domain
) -> tuple[str, str]:
    """The agent and primary metric of a ``--protocol`` run; a usage error where the domain does
    not define the protocol's metric or another agent than llm is asked for."""
    metric = domain.protocol_metrics.get(protocol)
    if metric is None:
        raise UsageError(
            f"--protocol {protocol}: the {domain.name} domain defines no metric for it"
        )
    if name != "llm" and agent_name is not None or name == "command":
        what = f"--agent {agent_name}" if agent_name else "--agent-cmd"
        raise UsageError(f"--protocol {protocol} runs the llm agent; drop {what}")
    return "llm", metric


def evaluate_outputs(
    domain: Domain | str,
    outputs: Path,
    *,
    ground_truth: Path | None = None,
    result_file: Path | None = None,
    domain_options: Mapping[str, Any] | None = None,
) -> ResultsDocument:
    """Score agent outputs laid out as ``OUTPUTS/<scenario>/<trial>/`` (what ``eval`` does):
    against ``ground_truth`` (``None``: the built-in suite's), written to ``result_file``
    (``None``: ``OUTPUTS/eval-results.json``, which must not exist yet); the document written."""
    from itbench.runner.evaluate import evaluate_outputs as evaluate_into

    plugin = _domain_of(domain)
    options = dict(domain_options or {})
    session = plugin.open_eval(options)
    if session.evaluate is None or (session.load_ground_truth or plugin.load_ground_truth) is None:
        raise UsageError(f"the {plugin.name} domain has no evaluator or no ground truth")
    document, _ = evaluate_into(session, outputs, ground_truth, result_file, options)
    return document
