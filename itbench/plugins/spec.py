"""What a domain plugin provides. Every field but ``name`` is optional: a domain offers what it has.

A domain's entry point (group ``itbench.domains``) names a :class:`Domain` instance. Core builds
``itbench <domain> run|eval`` from these pieces, so every domain gets the same flags and outputs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, runtime_checkable

# TypeVar defaults (PEP 696) before Python 3.13; typing_extensions comes with pydantic
from typing_extensions import TypeVar

if TYPE_CHECKING:
    import click

    from itbench.cluster.extensions import ClusterExtension
    from itbench.models import AgentResult, PublicScenario, Scenario, ScoreValue
    from itbench.runner.benchmark import RunRequest
    from itbench.sandbox.limits import ResourceLimits
    from itbench.scoring.document import ResultsDocument
    from itbench.transcript import Transcript

# The agent contract lives here, beside the Domain that refers to it, so that neither this module
# nor ``itbench.agents.base`` (which re-exports it) imports the other's package at import time.


@dataclass(frozen=True)
class Task:
    """What an agent is given. ``scenario`` is the public view: it has no ground-truth or
    reference field at all (the oracle gets the reference through :class:`ReferenceAgent`)."""

    scenario: PublicScenario
    prompt: str
    workspace: Path
    time_limit_s: float | None
    transcript: Transcript
    #: Environment variables of the trial's live environment (``KUBECONFIG`` for a cluster);
    #: agents that run tools or external commands pass them on.
    env: Mapping[str, str] = field(default_factory=dict)


#: ``allow``: the agent shares the host's network (model APIs, the trial's cluster on the host's
#: loopback); ``none``: a private network namespace with only its own loopback.
AgentNetwork = Literal["allow", "none"]


#: Defaults of ``run`` that help texts, agents and docs/running.md state: one value each, here.
#: Feedback rounds of the llm agent: the first answer plus up to this many validator-fed fixes.
DEFAULT_REFLECTION_ROUNDS = 3
#: Seconds to wait for one model reply before retrying.
DEFAULT_LLM_TIMEOUT_S = 120.0
#: The per-trial time limit of a domain that does not set ``Domain.default_time_limit_s``.
DEFAULT_TIME_LIMIT_S = 600.0


@dataclass(frozen=True)
class AgentOptions:
    """Options from the command line that agent factories may use."""

    model: str | None = None
    api_base: str | None = None
    agent_cmd: str | None = None
    reflection_rounds: int = DEFAULT_REFLECTION_ROUNDS
    max_steps: int = 20
    temperature: float = 0.0
    llm_timeout_s: float = DEFAULT_LLM_TIMEOUT_S
    max_retries: int = 4
    #: The command agent's confinement (``--agent-network``, ``--agent-home``, ``--agent-env``,
    #: ``--agent-sandbox``).
    agent_network: AgentNetwork = "allow"
    agent_home: Path | None = None
    agent_env: tuple[str, ...] = ()
    agent_sandbox: bool = True
    #: ``--agent-memory``, ``--agent-file-size``, ``--agent-output``; None: the defaults.
    agent_limits: ResourceLimits | None = None
    #: ``--agent-processes``: tasks the command may run at once (a pids cgroup); None: default.
    agent_max_processes: int | None = None
    #: A Jinja2 file replacing the llm agent's system prompt template (``--prompt-template``).
    prompt_template: Path | None = None
    #: ``--llm-shell``: ``on`` adds a sandboxed ``shell`` tool to the llm agent's tools, ``only``
    #: leaves it the only tool (ITBench-AA's harness), ``off`` none.
    llm_shell: Literal["off", "on", "only"] = "off"


@runtime_checkable
class Agent(Protocol):
    @property
    def name(self) -> str: ...  # read-only: the built-in agents are frozen dataclasses

    def solve(self, task: Task) -> AgentResult:
        """Attempt the task, leaving the answer as files in ``task.workspace``."""
        ...


@runtime_checkable
class ReferenceAgent(Protocol):
    """An agent that replays reference answers. The runner hands the full scenario only to the
    built-in ``oracle``; any other agent, whatever it declares, gets :class:`Task` alone."""

    @property
    def name(self) -> str: ...  # read-only: the built-in agents are frozen dataclasses

    def solve_with_reference(self, task: Task, scenario: Scenario) -> AgentResult: ...


@runtime_checkable
class ConfinedAgent(Protocol):
    """An agent that confines external programs. The runner hands the paths they must not see
    (the run directory with other trials, the scenario's source folders with ground truth beside
    the inputs, the itbench cache, the domain packages with built-in references) only to the
    built-in ``command`` agent: the paths themselves point at ground truth."""

    @property
    def name(self) -> str: ...  # read-only: the built-in agents are frozen dataclasses

    def solve_confined(self, task: Task, hidden_paths: Sequence[Path]) -> AgentResult: ...


#: Builds an agent from CLI options and the run's session (the domain's validator, tools and
#: reference answers as this run's settings bind them; the domain itself is ``run.domain``).
#: Called once in the parent before any trial, so configuration errors (unknown model, missing
#: API key) surface before work starts; a Ray worker calls it again with the session it opens.
AgentFactory = Callable[["AgentOptions", "DomainRun[Any, Any]"], Agent]


@dataclass(frozen=True)
class TrialScores:
    """What an evaluator may return instead of bare scores: the scores plus details recorded in
    ``evaluation.json`` (which engines decided, timings, why a check failed) but never aggregated."""

    scores: Mapping[str, ScoreValue]
    details: Mapping[str, Any] = field(default_factory=dict)


def split_scores(
    value: Mapping[str, ScoreValue] | TrialScores,
) -> tuple[dict[str, ScoreValue], dict[str, Any]]:
    """(scores, details) of an evaluator's return value."""
    if isinstance(value, TrialScores):
        return dict(value.scores), dict(value.details)
    return dict(value), {}


@dataclass(frozen=True)
class Domain:
    """A domain plugin: scenarios, agents, evaluator and commands of one problem area."""

    name: str
    description: str = ""
    #: Load scenarios: ``None`` -> the built-in suite; otherwise a directory or comma-separated ids.
    load_scenarios: Callable[[str | None], Sequence[Scenario]] | None = None
    #: Domain-specific agents (``baseline`` at least); core adds ``oracle``, ``command``, ``llm``.
    agents: Mapping[str, AgentFactory] = field(default_factory=dict)
    #: Score one trial: (scenario, trial directory holding the agent's files) -> scores, or
    #: :class:`TrialScores` when it has details to record.
    evaluate: Callable[[Scenario, Path], Mapping[str, ScoreValue] | TrialScores] | None = None
    #: Load ground truth for ``eval --ground-truth PATH`` (None -> the built-in suite's):
    #: scenario id -> scenario carrying that truth.
    load_ground_truth: Callable[[Path | None], Mapping[str, Scenario]] | None = None
    #: The primary metric shown in tables and compared with ``--fail-under``.
    primary_metric: str | None = None
    #: Renders the results document ``itbench <domain> run|eval`` wrote as this domain's own
    #: table (e.g. a per-class table beside a paper's); None -> the generic one.
    render_table: Callable[[ResultsDocument], str] | None = None
    #: Extra ``config`` entries for the results document (e.g. ``{"k": 3}``), or a function of
    #: (the scenarios the document covers, the domain's options) giving them when it is written:
    #: what a run measured is passed in, never kept between runs in module state.
    results_config: (
        Mapping[str, Any] | Callable[[Sequence[Scenario], Mapping[str, Any]], Mapping[str, Any]]
    ) = field(default_factory=dict)

    def results_config_for(
        self, scenarios: Sequence[Scenario], options: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The extra ``config`` entries of a document over ``scenarios``."""
        if callable(self.results_config):
            return dict(self.results_config(scenarios, options))
        return dict(self.results_config)

    #: The primary metric under a named protocol (``--protocol``, :mod:`itbench.agents.protocols`),
    #: e.g. ``{"itbench-aa": "precision_at_full_recall"}``; a protocol a domain does not name
    #: cannot be run on it.
    protocol_metrics: Mapping[str, str] = field(default_factory=dict)
    #: Extra subcommands of ``itbench <domain>`` (e.g. ``generate``).
    commands: Callable[[], Sequence[click.Command]] | None = None
    #: The Jinja2 template text of the llm agent's system prompt for this domain (variables:
    #: ``scenario``, the public view; ``tools``, the tool names; ``reflection_rounds``). Fixed
    #: text, domain-level: a template varies with the scenario it is rendered for, not the run.
    llm_prompt_template: Callable[[], str] | None = None
    #: The per-trial time limit when ``--timeout`` is not given (None: core's 600 s).
    default_time_limit_s: float | None = None
    #: The live environment of one trial (e.g. an offline cluster serving the scenario's violating
    #: state). Entered before the agent starts and left after it ends, before the evaluation; the
    #: mapping it yields is environment variables handed to the agent (``KUBECONFIG`` ...). On exit
    #: it leaves in the trial directory whatever the evaluator needs (objects the agent applied).
    trial_environment: (
        Callable[[Scenario, Path], AbstractContextManager[Mapping[str, str]]] | None
    ) = None
    #: The API types this domain's scenarios need the offline cluster to serve (custom resources,
    #: their ``kubectl get`` columns and validation, a report producer). A callable, so that loading
    #: the plugin stays cheap; every cluster started without explicit extensions calls it.
    #: Domain-level on purpose, unlike the validator, tools and references of :class:`DomainRun`:
    #: the types are the domain's code, which no run setting changes, and they are served outside
    #: any run (``itbench cluster serve``, a domain's own serving command), where opening a
    #: session would check live clusters or generate scenarios for nothing.
    cluster_extension: Callable[[], ClusterExtension] | None = None
    #: Top-level import packages a sandboxed tool of this domain must see besides itbench and the
    #: package holding this plugin (the sandbox hides the checkout they live in otherwise).
    sandbox_packages: tuple[str, ...] = ()
    #: Top-level import packages holding reference answers: hidden from the agent and never
    #: visible in the evaluation sandbox, where the agent's own scripts run.
    answer_packages: tuple[str, ...] = ()
    #: Folders inside the packages above (``"pkg/suite"``) holding answers: built-in suites with
    #: their solutions, reference solvers. Left out wherever their package is visible.
    answer_folders: tuple[str, ...] = ()
    #: Absolute paths of a host's system that this domain's host trees describe whole
    #: (``/etc/sysctl.d``, ``/etc/login.defs``): where a host tree is laid over the machine, the
    #: machine's own files there are hidden, so a verdict never depends on the machine that runs
    #: it (its ``/usr/lib/sysctl.d`` drop-ins, its ``/etc/security/limits.conf``). The tree's own
    #: files at those paths show as usual.
    host_owned_paths: tuple[str, ...] = ()
    #: Extra options of ``itbench <domain> run|eval`` (e.g. a real cluster to use instead of an
    #: offline one), built with the commands; their values reach the domain's ``session``.
    run_options: Callable[[], Sequence[click.Option]] | None = None
    #: Builds this domain's :class:`DomainRun` for one run or eval from its settings (the
    #: domain's options and the run directory), before any scenario is loaded: run settings live
    #: in the session, never in module state. None: :func:`default_session` (the hooks above
    #: as they are, for a domain without run settings).
    session: Callable[[Domain, SessionSettings], DomainRun] | None = None

    def open_run(self, request: RunRequest, *, worker: bool = False) -> DomainRun:
        """This domain's session for ``request`` (a run). A Ray worker opens its own from the
        same request with ``worker=True``: it runs trials of scenarios the driver loaded, so it
        is not given the run directory (where a domain may generate scenarios)."""
        directory = None if worker else request.run_directory()
        settings = SessionSettings(dict(request.domain_options), directory, request.select)
        return (self.session or default_session)(self, settings)

    def open_eval(self, options: Mapping[str, Any]) -> DomainRun:
        """This domain's session for scoring outputs someone else produced (``eval``)."""
        return (self.session or default_session)(self, SessionSettings(dict(options)))


@dataclass(frozen=True)
class SessionSettings:
    """What a session factory is given: the domain's own options (parameter name -> value, as
    its ``run_options`` define them) and, for ``run``, the run's absolute directory (``None``
    for ``eval``, which scores outputs someone else produced)."""

    options: Mapping[str, Any]
    run_directory: Path | None = None
    #: the run's ``--select`` patterns: a domain that generates its built-in scenarios into the
    #: run directory writes only the selected ones (core filters what it loads all the same)
    select: tuple[str, ...] = ()


#: A session's ground-truth and reference types (``Scenario[TruthT, ReferenceT]``); ``Any`` for a
#: ``DomainRun`` written without them (core).
TruthT = TypeVar("TruthT", default=Any)
ReferenceT = TypeVar("ReferenceT", default=Any)

Evaluator = Callable[
    ["Scenario[TruthT, ReferenceT]", Path], "Mapping[str, ScoreValue] | TrialScores"
]
TrialEnvironment = Callable[
    ["Scenario[TruthT, ReferenceT]", Path], AbstractContextManager[Mapping[str, str]]
]


@dataclass(frozen=True)
class DomainRun(Generic[TruthT, ReferenceT]):
    """A domain during one run or eval (``Domain.open_run``): what core calls while it lasts,
    bound to the run's own settings (a live cluster, a task) instead of module state.

    Typed to the domain's scenarios: a session factory returning ``DomainRun[MyTruth, MyAnswer]``
    has its evaluator, environment and loaders checked against ``Scenario[MyTruth, MyAnswer]``,
    so they read the truth's fields without unwrapping it."""

    domain: Domain
    settings: SessionSettings
    #: Scores one trial (scenario, trial directory holding the agent's files).
    evaluate: Evaluator[TruthT, ReferenceT] | None
    #: The live environment of one trial (see ``Domain.trial_environment``); None: nothing.
    trial_environment: TrialEnvironment[TruthT, ReferenceT] | None = None
    #: Loads this run's scenarios (e.g. ones generated into its directory); None: the
    #: domain's ``load_scenarios``.
    load_scenarios: Callable[[str | None], Sequence[Scenario[TruthT, ReferenceT]]] | None = None
    #: Loads the ground truth ``eval`` scores against under this run's settings; None: the
    #: domain's ``load_ground_truth``.
    load_ground_truth: (
        Callable[[Path | None], Mapping[str, Scenario[TruthT, ReferenceT]]] | None
    ) = None
    #: Checks an agent's output directory (the llm agent's reflection loop): one line per
    #: problem, [] when clean. None: every answer stands.
    validate_output: Callable[[PublicScenario, Path], Sequence[str]] | None = None
    #: The tools an llm agent may call on a scenario, built from (scenario view, workspace).
    llm_tools: Callable[[PublicScenario, Path], Sequence[Any]] | None = None
    #: Writes a scenario's reference answer into a workspace (the ``oracle``); None: this run
    #: has no reference answers and the oracle cannot run.
    write_reference: Callable[[Scenario[TruthT, ReferenceT], Path], None] | None = None
    #: Called once in the runner with the scenarios a run will try, before its forked workers
    #: start: what each worker would otherwise build for itself (a cache every trial of a class
    #: uses) is built once and inherited. Only for the local executor; None: nothing.
    before_trials: Callable[[Sequence[Scenario[TruthT, ReferenceT]]], None] | None = None

    def scenarios(self, selection: str | None) -> Sequence[Scenario[TruthT, ReferenceT]]:
        """The scenarios of ``selection`` (None: the built-in suite)."""
        load = self.load_scenarios or self.domain.load_scenarios
        if load is None:
            raise ValueError(f"the {self.domain.name} domain has no scenarios to run")
        return load(selection)

    def ground_truth(self, path: Path | None) -> Mapping[str, Scenario[TruthT, ReferenceT]]:
        """Scenario id -> scenario carrying its truth (``eval --ground-truth``)."""
        load = self.load_ground_truth or self.domain.load_ground_truth
        if load is None:
            raise ValueError(f"the {self.domain.name} domain has no ground truth to score with")
        return load(path)


def default_session(domain: Domain, settings: SessionSettings) -> DomainRun:
    """The session of a domain without a factory (and so without run settings): the domain's
    hooks serve every run as they are."""
    return DomainRun(domain, settings, domain.evaluate, domain.trial_environment)


def time_limit_of(domain: Domain) -> float:
    """The per-trial time limit ``run`` uses without ``--timeout`` (and its help states)."""
    return domain.default_time_limit_s or DEFAULT_TIME_LIMIT_S
