"""The ``ciso`` domain plugin: compliance scenarios (Kyverno, OPA Rego, Ansible), their
environments and evaluators, the policy engines and their commands.

Every hook imports its module when first called: ``itbench --help`` and ``itbench domains`` load this
module, and must not pay for the engines (start-up time).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from itbench.models import PublicScenario, Scenario
from itbench.plugins.spec import RUN_DIRECTORY, Domain, TrialScores

if TYPE_CHECKING:
    from itbench.cluster.extensions import ClusterExtension
    from itbench.scoring.document import ResultsDocument


def _load_scenarios(selection: str | None) -> Sequence[Scenario]:
    from ciso.generator.fresh import fresh_selection
    from ciso.scenarios.loader import load_benchmark_scenarios

    return load_benchmark_scenarios(fresh_selection(selection))


def _load_ground_truth(path: Path | None) -> Mapping[str, Scenario]:
    from ciso.scenarios.loader import load_benchmark_scenarios

    scenarios = load_benchmark_scenarios(str(path) if path else None)
    by_id = {s.id: s for s in scenarios}
    # ITBench-Lite and CAA outputs name the scenario folder by its base id (no ".<class>"): a
    # base id that expands into exactly one class stands for that scenario too
    bases: dict[str, list[Scenario]] = {}
    for s in scenarios:
        bases.setdefault(s.id.rsplit(".", 1)[0], []).append(s)
    for base, found in bases.items():
        if len(found) == 1 and base not in by_id:
            by_id[base] = found[0]
    return by_id


def _evaluate(scenario: Scenario, trial_dir: Path) -> TrialScores:
    from ciso.evaluation.trial import evaluate_trial

    return evaluate_trial(scenario, trial_dir)


def _write_reference(scenario: Scenario, workspace: Path) -> None:
    from ciso.scenarios.reference import write_reference

    write_reference(scenario, workspace)


@contextmanager
def _trial_environment(scenario: Scenario, workspace: Path) -> Iterator[Mapping[str, str]]:
    from ciso.environments import trial_environment

    with trial_environment(scenario, workspace) as env:
        yield env


def _render_table(document: ResultsDocument) -> str:
    from ciso.report import class_table

    return class_table(document)


def _cluster_extension() -> ClusterExtension:
    from ciso.engines.kyverno.cluster_types import cluster_extension

    return cluster_extension()


def _baseline_agent(options: Any, domain: Domain) -> Any:
    from ciso.agents.baseline import BaselineAgent

    return BaselineAgent()


def _validate_output(scenario: PublicScenario, workspace: Path) -> Sequence[str]:
    from ciso.validation import validate_output

    return validate_output(scenario, workspace)


def _llm_tools(scenario: PublicScenario, workspace: Path) -> Sequence[Any]:
    from ciso.agents.llm_tools import ciso_tools

    return ciso_tools(scenario, workspace)


def _llm_prompt_template() -> str:
    from ciso.agents.prompts import system_template

    return system_template()


def _run_options() -> Sequence[Any]:
    from ciso.generator.fresh import fresh_option
    from ciso.live import run_options

    return [*run_options(), fresh_option()]


def _configure(options: Mapping[str, Any]) -> None:
    from ciso.generator.fresh import configure_fresh

    run_directory = options.get(RUN_DIRECTORY)
    configure_fresh(options, Path(run_directory) if run_directory is not None else None)
    # nothing to load unless live mode was asked for: the offline path stays import-free
    if options.get("live_kubeconfig") is None:
        return
    from ciso.live import configure

    configure(options)


def _commands() -> Sequence[Any]:
    from ciso.cli.ciso_cmd import commands

    return commands()


domain = Domain(
    name="ciso",
    description=(
        "Compliance policies: Kyverno, OPA Rego and Ansible scenarios; engines and lint "
        "(itbench kyverno|rego|lint|ansible)"
    ),
    load_scenarios=_load_scenarios,
    agents={"baseline": _baseline_agent},
    load_ground_truth=_load_ground_truth,
    evaluate=_evaluate,
    write_reference=_write_reference,
    trial_environment=_trial_environment,
    render_table=_render_table,
    primary_metric="strict_pass",
    commands=_commands,
    validate_output=_validate_output,
    llm_tools=_llm_tools,
    llm_prompt_template=_llm_prompt_template,
    # ITBench gives an agent 200 s per CISO scenario
    default_time_limit_s=200.0,
    cluster_extension=_cluster_extension,
    # Sandboxed tools (the cluster's background scan and types, Ansible) import ciso; the
    # reference answers and the built-in suite (with its solutions) are never visible there, nor
    # the baseline agent that would write an answer for an agent's fetcher.
    sandbox_packages=("ciso",),
    answer_packages=("policies", "playbooks"),
    answer_folders=("ciso/suite", "ciso/agents"),
    # live mode: --kubeconfig PATH runs kyverno and kubectl-opa scenarios on a real cluster
    run_options=_run_options,
    configure=_configure,
)
