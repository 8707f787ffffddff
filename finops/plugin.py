"""The ``finops`` domain plugin: scenarios, agents, evaluator and commands wired into the core.

This module is an entry point: every ``itbench`` command that loads domains imports it. So the
modules that pull in numpy and pandas (loaders, scenarios, the suite, the algorithms, the tools, the
``generate`` command) are imported inside the functions that need them, which keeps ~0.25 s of
pandas out of every command that does not touch FinOps data; everything cheap is imported here.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

from finops.evaluate import RESOURCE_METRIC, score_finops
from finops.model import FOCUS_HIERARCHY, LITE_HIERARCHY, Hierarchy
from finops.output import read_agent_output, write_agent_output, write_resources
from finops.table import render_finops_table
from itbench.errors import InputError, UsageError
from itbench.models import AgentResult, PublicScenario, Scenario, ScoreValue
from itbench.plugins.spec import Domain, DomainRun, SessionSettings, TrialScores
from itbench.runner.layout import find_agent_output

if TYPE_CHECKING:
    from typing import TypeAlias

    import click

    from finops.k8s.suite import K8sTruth
    from finops.model import Resource

    #: What a FinOps scenario is scored against: the billing anomaly's root-cause resources (None:
    #: a folder without ground_truth.yaml), or a Kubernetes cost scenario's generator recipe.
    FinopsTruth: TypeAlias = tuple[Resource, ...] | K8sTruth | None
    #: The oracle's answer: the billing anomaly's root causes (None for a Kubernetes scenario).
    FinopsReference: TypeAlias = tuple[Resource, ...] | None
    #: A scenario of a FinOps run, typed to its truth and reference.
    FinopsCase: TypeAlias = Scenario[FinopsTruth, FinopsReference]
    #: A billing anomaly: its root causes are truth and reference (None: no ground_truth.yaml).
    BillingCase: TypeAlias = Scenario[tuple[Resource, ...] | None, tuple[Resource, ...] | None]
    #: A Kubernetes cost scenario: scored by regenerating it from its recipe; no reference.
    K8sCase: TypeAlias = Scenario[K8sTruth, None]

    from finops.scenario import FinOpsScenario
    from itbench.agents.base import Task

PRIMARY_METRIC = RESOURCE_METRIC
#: ``--task``: ``diagnose`` (billing data; the Kubernetes cost scenarios with ``--scenarios k8s``
#: or their ids) or ``mitigate`` (the Kubernetes cost scenarios on their offline cluster). The
#: run's session carries it to the loaders (:func:`open_run`).
DEFAULT_TASK = "diagnose"
K8S_CLASS_PREFIX = "finops-k8s-"


def _run_options() -> Sequence[click.Option]:
    import click  # start-up time: only run and eval build their options

    return [
        click.Option(
            ["--task", "finops_task"],
            type=click.Choice(["diagnose", "mitigate"]),
            default="diagnose",
            show_default=True,
            help="diagnose: the root cause of a billing anomaly (or, with --scenarios k8s or "
            "k8s-<family>-<seed> ids, of a Kubernetes cost alert); mitigate: bring a Kubernetes "
            "namespace's spend back under its cost alert through kubectl on an offline cluster "
            "(a built-in suite of 14 scenarios without --scenarios).",
        )
    ]


def open_run(domain: Domain, settings: SessionSettings) -> DomainRun[FinopsTruth, FinopsReference]:
    """The ``Domain.session`` hook: the run's ``--task`` reaches the scenario and ground-truth
    loaders through the session."""
    task = str(settings.options.get("finops_task") or DEFAULT_TASK)
    return DomainRun(
        domain,
        settings,
        evaluate=evaluate,
        trial_environment=_trial_environment,
        load_scenarios=functools.partial(load_scenarios, task=task),
        load_ground_truth=functools.partial(load_ground_truth, task=task),
        validate_output=validate_output,
        llm_tools=_tools,
        write_reference=write_reference,
    )


def _is_k8s(scenario: PublicScenario | Scenario) -> bool:
    return scenario.scenario_class.startswith(K8S_CLASS_PREFIX)


# The scenario's class tells the two kinds apart: the loaders give every ``finops-k8s-*``
# scenario a K8sTruth (``finops/k8s/suite.py``) and every other one its root causes.
def _k8s_case(scenario: FinopsCase) -> TypeGuard[K8sCase]:
    return _is_k8s(scenario)


def _billing_case(scenario: FinopsCase) -> TypeGuard[BillingCase]:
    return not _is_k8s(scenario)


PROMPT = """\
A cloud cost anomaly happened on {date} in billing account {account}.
Your workspace holds the billing data ({data}) and anomaly.json. The cost hierarchy is
{levels}; the cost column is {cost}.

Find every independent root cause of the anomaly: the resources whose cost change explains it,
each at the hierarchy level that explains it (often the instance family; the application when a
whole application is new). Report no more than you can justify.

Write your answer to agent_output.json in the workspace:
{{"resource": [{{"name": "<value at that level>", "type": "<level name, e.g. {leaf}>"}}],
 "explanation": "<why, with numbers>"}}
"""


def _scenario_class(metadata: dict[str, Any], is_focus: bool) -> str:
    """``easy|medium|hard`` for the classic generator, the family for the others."""
    family = metadata.get("family")
    if family and family != "classic":
        return str(family)
    return str(metadata.get("difficulty", "focus" if is_focus else "custom"))


def _to_scenario(s: FinOpsScenario) -> FinopsCase:
    hierarchy = s.hierarchy
    prompt = PROMPT.format(
        date=s.anomaly.date,
        account=s.anomaly.account_id,
        data=s.data_path.name,
        levels=" > ".join(hierarchy.levels),
        cost=hierarchy.cost_column,
        leaf=hierarchy.levels[-1],
    )
    return Scenario(
        id=s.id,
        domain="finops",
        **{"class": f"finops-{_scenario_class(s.metadata, s.is_focus)}"},
        title=f"Root cause of the cost anomaly on {s.anomaly.date} in account {s.anomaly.account_id}",
        description=prompt,
        inputs={"anomaly.json": s.path / "anomaly.json", s.data_path.name: s.data_path},
        ground_truth=s.ground_truth,
        reference=s.ground_truth,
        # the bill's levels and cost column are public (the prompt states them): an agent reads
        # the workspace's export with them, or a cause at a level scenario.json adds (RegionId)
        # could never be named
        metadata={"levels": list(hierarchy.levels), "cost_column": hierarchy.cost_column},
        # the folder holds ground_truth.yaml: a hidden field, not public metadata
        source_dir=s.path,
    )


def _check_data_header(s: FinOpsScenario) -> None:
    """A user's billing file, checked before any trial copies it into a workspace."""
    # pandas: start-up time (module docstring)
    from finops.loaders.table import check_header

    check_header(s.data_path, s.hierarchy, skip_initial_space=not s.is_focus)


def _names_k8s(spec: str) -> bool:
    """``k8s``, ``k8s-<family>-<seed>`` ids, or a folder of Kubernetes cost scenarios."""
    from finops.k8s.folder import is_k8s_folder  # start-up time (module docstring)

    return spec.startswith("k8s") or is_k8s_folder(Path(spec))


def load_scenarios(spec: str | None, task: str = DEFAULT_TASK) -> list[FinopsCase]:
    # pandas: start-up time (module docstring)
    from finops.scenario import discover_scenarios
    from finops.suite import builtin_scenarios

    if task == "mitigate" or (spec is not None and _names_k8s(spec)):
        from finops.k8s.suite import k8s_scenarios, warm_up  # start-up time (module docstring)

        scenarios = k8s_scenarios(spec, task)
        warm_up()  # here, in the runner's process: the forked workers inherit it
        return scenarios
    if spec is None:
        return [_to_scenario(s) for s in builtin_scenarios()]
    path = Path(spec)
    if path.is_dir():
        found = discover_scenarios(path)
        for scenario in found:
            _check_data_header(scenario)
        return [_to_scenario(s) for s in found]
    known = {s.id: s for s in builtin_scenarios()}
    wanted = [w.strip() for w in spec.split(",") if w.strip()]
    missing = [w for w in wanted if w not in known]
    if missing:
        raise UsageError(
            f"unknown scenario {missing[0]!r} (not a directory, not a built-in id); built-in: {', '.join(known)}"
        )
    return [_to_scenario(known[w]) for w in wanted]


def load_ground_truth(path: Path | None, task: str = DEFAULT_TASK) -> dict[str, FinopsCase]:
    from finops.scenario import discover_scenarios  # pandas: start-up time (module docstring)

    if task == "mitigate" and path is None:
        return {s.id: s for s in load_scenarios(None, task)}  # the built-in Kubernetes cost suite
    if path is not None and path.is_dir():
        from finops.k8s.suite import k8s_ground_truth  # start-up time (module docstring)

        # the truth of k8s-<family>-<seed> is regenerated from the name: a folder of such
        # folders (the outputs themselves) is their ground truth
        k8s = k8s_ground_truth(path, task)
        if k8s is not None:
            return {s.id: s for s in k8s}
    scenarios = (
        load_scenarios(None)
        if path is None
        else [_to_scenario(s) for s in discover_scenarios(path)]
    )
    missing = [s.id for s in scenarios if s.ground_truth is None]
    if missing:
        raise InputError(f"{path}: no ground_truth.yaml for {', '.join(missing[:5])}")
    return {s.id: s for s in scenarios}


def _output_path(workspace: Path) -> Path:
    found = find_agent_output(workspace)
    if found is None:
        raise InputError(f"{workspace}: agent_output.json is missing")
    return found


def evaluate(scenario: FinopsCase, workspace: Path) -> Mapping[str, ScoreValue] | TrialScores:
    if _k8s_case(scenario):
        # the Kubernetes cost model: start-up time (module docstring)
        from finops.k8s.suite import rejudge

        scores, details = rejudge(scenario.ground_truth, workspace)
        return TrialScores(scores, details)
    if not _billing_case(scenario) or scenario.ground_truth is None:
        raise InputError(f"scenario {scenario.id} has no ground truth to score against")
    predicted = read_agent_output(_output_path(workspace))
    return score_finops(predicted, scenario.ground_truth)


def validate_output(scenario: PublicScenario, workspace: Path) -> list[str]:
    if _is_k8s(scenario):
        return []  # the cluster is the answer; a diagnosis is optional when mitigating
    try:
        resources = read_agent_output(_output_path(workspace))
    except InputError as exc:
        return [str(exc)]
    problems = []
    if not resources:
        problems.append("agent_output.json: 'resource' is empty; name at least one root cause")
    levels = _levels(scenario)
    for r in resources:
        if r.type not in levels:
            problems.append(
                f"agent_output.json: type {r.type!r} of {r.name!r} is not a level; use one of {', '.join(levels)}"
            )
    return problems


def _levels(scenario: PublicScenario) -> tuple[str, ...]:
    listed = _listed_levels(scenario)
    if listed:
        return listed
    return FOCUS_HIERARCHY.levels if "focus.csv" in scenario.inputs else LITE_HIERARCHY.levels


def _listed_levels(scenario: PublicScenario) -> tuple[str, ...]:
    """The levels the trial's public metadata lists (none for a scenario made before they
    were public)."""
    return tuple(str(level) for level in scenario.metadata.get("levels") or ())


def _bill_hierarchy(scenario: PublicScenario) -> Hierarchy | None:
    """The levels and cost column the scenario's export is read with (None: the layout's
    defaults, for a scenario made before they were public)."""
    from finops.loaders.focus import focus_hierarchy  # pandas: start-up time (module docstring)

    listed = _listed_levels(scenario)
    if not listed or "focus.csv" not in scenario.inputs:
        return None
    return focus_hierarchy(
        listed, str(scenario.metadata.get("cost_column", FOCUS_HIERARCHY.cost_column))
    )


def write_reference(scenario: FinopsCase, workspace: Path) -> None:
    if scenario.reference is None:
        raise InputError(f"scenario {scenario.id} has no reference answer")
    write_resources(workspace / "agent_output.json", scenario.reference)


def _anomaly(workspace: Path):
    from finops.loaders.lite import read_anomaly  # pandas: start-up time (module docstring)

    return read_anomaly(workspace / "anomaly.json")


def _workspace_table(task: Task):
    from finops.tools import workspace_table_loader  # pandas: start-up time (module docstring)

    return workspace_table_loader(task.workspace, _bill_hierarchy(task.scenario))()


def _k8s_solve(name: str, task: Task) -> AgentResult:
    """A Kubernetes cost trial: the agent works through kubectl (``finops/k8s/agents.py``); on
    the diagnose task the cluster is only read."""
    import json  # start-up time: only a Kubernetes trial needs these

    from finops.k8s.agents import AGENTS, NS, Kubectl, diagnose_only  # start-up time

    kubeconfig = task.env.get("KUBECONFIG")
    if not kubeconfig:
        raise InputError(f"{task.scenario.id}: no KUBECONFIG (the trial's cluster is missing)")
    home = task.workspace / ".kube-home"
    home.mkdir(exist_ok=True)
    k = Kubectl(Path(kubeconfig), home, namespace=str(task.scenario.metadata.get("namespace", NS)))
    if task.scenario.metadata.get("task") == "diagnose":
        k = diagnose_only(k)
    diagnosis = AGENTS[name](k)
    if diagnosis is not None:
        workload, kind, field = diagnosis
        (task.workspace / "agent_output.json").write_text(
            json.dumps({"workload": workload, "kind": kind, "field": field}) + "\n",
            encoding="utf-8",
        )
    task.transcript.record(name, diagnosis=list(diagnosis or ()), kubectl=list(k.calls))
    return AgentResult()


@dataclass(frozen=True)
class BaselineAgent:
    """Seasonal baseline + top-down drill-down; reads only the workspace."""

    name: str = "baseline"

    def solve(self, task: Task) -> AgentResult:
        if _is_k8s(task.scenario):
            return _k8s_solve("baseline", task)
        from finops.rca import diagnose  # numpy, pandas: start-up time (module docstring)

        diagnosis = diagnose(_workspace_table(task), _anomaly(task.workspace))
        write_agent_output(task.workspace / "agent_output.json", diagnosis)
        task.transcript.record(
            "baseline",
            notes=list(diagnosis.notes),
            root_causes=[rc.explanation for rc in diagnosis.root_causes],
        )
        return AgentResult()


@dataclass(frozen=True)
class NaiveAgent:
    """A comparison point: the leaf with the largest day-over-day increase (one leaf, so it
    cannot score on a scenario with several root causes)."""

    name: str = "naive"

    def solve(self, task: Task) -> AgentResult:
        if _is_k8s(task.scenario):
            return _k8s_solve("naive", task)
        from finops.rca.naive import naive_diagnose  # numpy: start-up time (module docstring)

        resources = naive_diagnose(_workspace_table(task), _anomaly(task.workspace))
        write_resources(task.workspace / "agent_output.json", resources)
        return AgentResult()


@dataclass(frozen=True)
class TopKAgent:
    """The fair simple comparison point: the leaves whose day-over-day increases stand out, as
    many as the data single out (``finops/rca/topk.py``)."""

    name: str = "topk"

    def solve(self, task: Task) -> AgentResult:
        from finops.rca.topk import topk_diagnose  # numpy: start-up time (module docstring)

        resources = topk_diagnose(_workspace_table(task), _anomaly(task.workspace))
        write_resources(task.workspace / "agent_output.json", resources)
        return AgentResult()


def _tools(scenario: PublicScenario, workspace: Path) -> Sequence[Any]:
    if _is_k8s(scenario):
        from finops.k8s.llm_tools import k8s_llm_tools  # start-up time (module docstring)

        return k8s_llm_tools(
            workspace,
            str(scenario.metadata.get("task", "mitigate")),
            str(scenario.metadata.get("namespace", "shop")),
        )
    # pandas: start-up time (module docstring)
    from finops.tools import make_tools, workspace_table_loader

    return make_tools(
        workspace_table_loader(workspace, _bill_hierarchy(scenario)), _anomaly(workspace)
    )


def _trial_environment(
    scenario: FinopsCase, workspace: Path
) -> AbstractContextManager[Mapping[str, str]]:
    if not _k8s_case(scenario):
        return nullcontext({})
    from finops.k8s.suite import k8s_environment  # start-up time: only Kubernetes trials

    return k8s_environment(scenario.ground_truth, workspace)


def _commands():
    from finops.cli import generate  # numpy via the generator: start-up time (module docstring)

    return [generate]


domain = Domain(
    name="finops",
    description="Cost anomaly root cause in hierarchical billing data",
    load_scenarios=load_scenarios,
    agents={
        "baseline": lambda options, run: BaselineAgent(),
        "naive": lambda options, run: NaiveAgent(),
        "topk": lambda options, run: TopKAgent(),
    },
    evaluate=evaluate,
    load_ground_truth=load_ground_truth,
    primary_metric=PRIMARY_METRIC,
    render_table=render_finops_table,
    results_config={"eval_criteria": ["ROOT_CAUSE_RESOURCE"], "judge": "deterministic"},
    commands=_commands,
    run_options=_run_options,
    session=open_run,
    # ``--task mitigate``: the Kubernetes cost scenario's offline cluster around each trial
    trial_environment=_trial_environment,
)

__all__ = ["domain"]
