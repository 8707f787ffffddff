"""The ``ciso`` domain's hooks that do more than name one function (``ciso/plugin.py`` names
them as ``"ciso.hooks:..."``): imported when first called, and each imports what it needs then."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from itbench.plugins.hooks import hook
from itbench.plugins.spec import DomainRun

if TYPE_CHECKING:
    from ciso.agents.baseline import BaselineAgent
    from ciso.scenarios.model import CisoScenario
    from itbench.models import Scenario
    from itbench.plugins.spec import AgentOptions, Domain, SessionSettings


def load_scenarios(selection: str | None, fresh: Path | None = None) -> Sequence[Scenario]:
    """The scenarios of ``selection``, or the run's fresh instances in ``fresh`` (``--fresh``)."""
    from ciso.generator.fresh import fresh_selection
    from ciso.scenarios.loader import load_benchmark_scenarios

    return load_benchmark_scenarios(fresh_selection(selection, fresh))


def load_ground_truth(path: Path | None) -> Mapping[str, Scenario]:
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


def baseline_agent(options: AgentOptions, run: DomainRun) -> BaselineAgent:
    from ciso.agents.baseline import BaselineAgent

    return BaselineAgent()


def run_options() -> Sequence[Any]:
    from ciso.generator.fresh import fresh_option
    from ciso.live import run_options as live_options

    return [*live_options(), fresh_option()]


def open_run(
    domain: Domain, settings: SessionSettings
) -> DomainRun[CisoScenario, Mapping[str, Path]]:
    """The ``Domain.session`` hook: the run's fresh instances (``--fresh``) and its live cluster
    (``--kubeconfig``, checked to answer before any trial), which the session hands to the trial
    environments and evaluators."""
    from ciso.generator.fresh import generate_fresh

    fresh = generate_fresh(settings.options, settings.run_directory)
    live = None
    # nothing to load unless live mode was asked for: the offline path stays import-free
    if settings.options.get("live_kubeconfig") is not None:
        from ciso.live import settings_from

        live = settings_from(settings.options)
    return DomainRun(
        domain,
        settings,
        load_scenarios=functools.partial(load_scenarios, fresh=fresh),
        evaluate=functools.partial(hook("ciso.evaluation.trial:evaluate_trial"), live=live),
        trial_environment=functools.partial(hook("ciso.environments:trial_environment"), live=live),
        validate_output=hook("ciso.validation:validate_output"),
        llm_tools=hook("ciso.agents.llm_tools:ciso_tools"),
        write_reference=hook("ciso.scenarios.reference:write_reference"),
        before_trials=_before_trials,
    )


def _before_trials(scenarios: Sequence[Scenario[CisoScenario, Any]]) -> None:
    """The module payload seed of the rhel9 class's plays, built once in the runner before its
    workers fork, instead of once in each worker (about 0.65 s of CPU per build)."""
    from ciso.scenarios.model import ScenarioClass

    if any(s.scenario_class == ScenarioClass.RHEL9_ANSIBLE_OPA.value for s in scenarios):
        from ciso.engines.ansible import module_seed

        module_seed()
