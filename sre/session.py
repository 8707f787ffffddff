"""The ``sre`` domain's run session (``Domain.session``): the settings of one run or eval, read
from its options once, checked, and handed as one frozen value to what needs them: the scenario
loader (the task, ``--hide``, live mode, the run directory where a fresh suite is generated),
the judge (``--judge``, the task) and the trial environment (the twin, or the live cluster).

Kept light: the plugin names :func:`open_run` as a hook, and this module imports the judge only
when a session opens."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from itbench.errors import UsageError
from itbench.plugins.hooks import hook
from itbench.plugins.spec import DomainRun

if TYPE_CHECKING:
    from itbench.plugins.spec import Domain, SessionSettings
    from sre.generator.ground_truth import GroundTruth
    from sre.judge.hooks import JudgeSettings
    from sre.live.environment import LiveSettings
    from sre.twin.suite import MitigationTruth


def _default_judge() -> JudgeSettings:
    from sre.judge.hooks import JudgeSettings

    return JudgeSettings()


@dataclass(frozen=True)
class SreSettings:
    """One run's settings: ``judge`` (the task, ``--hide``, the judge model), ``live`` (the live
    cluster of ``--kubeconfig``, None: the offline twin) and the run's directory (None: eval, or
    a Ray worker, which runs scenarios its driver loaded)."""

    judge: JudgeSettings = field(default_factory=_default_judge)
    live: LiveSettings | None = None
    run_directory: Path | None = None
    #: the run's ``--select`` patterns: a built-in suite generates only the scenarios they select
    select: tuple[str, ...] = ()

    @property
    def directory(self) -> Path:
        """Where a fresh suite and the hidden-sources marker go: the run's directory, or
        ``outputs/sre`` for a session opened without one."""
        return self.run_directory or Path("outputs") / "sre"


def sre_settings(settings: SessionSettings) -> SreSettings:
    """The checked settings of a session's options (a usage error names a bad combination; the
    live cluster and Prometheus must answer)."""
    from sre.judge.hooks import judge_settings
    from sre.live.environment import live_settings_from

    judge = judge_settings(settings.options)
    if settings.run_directory is None and settings.options.get("live_kubeconfig"):
        # eval reads the trials' verdicts; a Ray worker (opened without the run directory)
        # would share the cluster with other nodes' trials, without the run's common lock
        raise UsageError(
            "--kubeconfig (live mode) runs in sre run with the local executor only "
            "(sre eval reads the trials' verdicts)"
        )
    live = live_settings_from(settings.options, settings.run_directory)
    return SreSettings(judge, live, settings.run_directory, settings.select)


def open_run(
    domain: Domain, settings: SessionSettings
) -> DomainRun[GroundTruth, GroundTruth] | DomainRun[MitigationTruth, None]:
    """The ``Domain.session`` hook: the run's :class:`SreSettings`, bound into its loaders,
    judge and trial environment. The task decides the scenarios' type: a diagnosis run's carry
    the incident's :class:`GroundTruth` (and restate it as the reference answer), a mitigation
    run's the :class:`MitigationTruth` of the fault injected into its cluster."""
    run = sre_settings(settings)
    load_scenarios = functools.partial(hook("sre.agents.scenarios:load_scenarios"), run=run)
    # the llm agent's tools (the mitigation scenarios' add kubectl on the trial's cluster), its
    # validator of agent_output.json and the oracle's answers: the same for both tasks
    validate_output = hook("sre.agents.hooks:validate_output")
    llm_tools = hook("sre.agents.llm_tools:sre_llm_tools")
    write_reference = hook("sre.agents.hooks:write_reference")
    load_ground_truth = functools.partial(
        hook("sre.judge.hooks:load_ground_truth"), settings=run.judge
    )
    if run.judge.task == "mitigate":
        mitigation: DomainRun[MitigationTruth, None] = DomainRun(
            domain,
            settings,
            evaluate=functools.partial(
                hook("sre.judge.hooks:evaluate_mitigation"), settings=run.judge
            ),
            # the twin's cluster around each trial, or the live one (--kubeconfig)
            trial_environment=functools.partial(
                hook("sre.twin.environment:trial_environment"), live=run.live
            ),
            load_scenarios=load_scenarios,
            load_ground_truth=load_ground_truth,
            validate_output=validate_output,
            llm_tools=llm_tools,
            write_reference=write_reference,
        )
        return mitigation
    # a diagnosis trial has no environment: the snapshot in its workspace is the whole world
    diagnosis: DomainRun[GroundTruth, GroundTruth] = DomainRun(
        domain,
        settings,
        evaluate=functools.partial(hook("sre.judge.hooks:evaluate_diagnosis"), settings=run.judge),
        load_scenarios=load_scenarios,
        load_ground_truth=load_ground_truth,
        validate_output=validate_output,
        llm_tools=llm_tools,
        write_reference=write_reference,
    )
    return diagnosis
