"""The SRE domain's ``Domain`` hooks for scoring: ground truth in, scores out.

``itbench sre eval`` is built by the core from :func:`load_ground_truth` and the evaluator of the
run's task (:func:`evaluate_diagnosis`, :func:`evaluate_mitigation`, chosen by its session);
``--judge MODEL`` (from :func:`run_options`, read by :func:`judge_settings` into the run's
session, :mod:`sre.session`) adds the LLM judge of the reasoning metrics.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from itbench.errors import InputError, UsageError
from itbench.models import Scenario
from itbench.plugins.spec import TrialScores
from itbench.runner.layout import find_agent_output
from sre.generator.ground_truth import GroundTruth
from sre.snapshot.hidden import SOURCES

if TYPE_CHECKING:
    import click

    from sre.judge.mttd import Diagnosed
    from sre.outputs import AgentDiagnosis
    from sre.twin.suite import MitigationTruth

PRIMARY_METRIC = "root_cause_entity"


@dataclass(frozen=True)
class JudgeSettings:
    model: str | None = None
    api_base: str | None = None
    timeout_s: float = 120.0
    exclude_namespaces: frozenset[str] = frozenset()
    #: ``diagnose`` (snapshots) or ``mitigate`` (the twin's cluster)
    task: str = "diagnose"
    #: sources left out of every agent's snapshot (``--hide``, the observability ablation)
    hide: frozenset[str] = frozenset()


def run_options() -> Sequence[click.Option]:
    import click

    return [
        click.Option(
            ["--task", "sre_task"],
            type=click.Choice(["diagnose", "mitigate"]),
            default="diagnose",
            show_default=True,
            help="diagnose: find the root cause in a snapshot; mitigate: repair the incident "
            "through kubectl on its offline cluster (one scenario per generator fault type), "
            "judged by the alerts clearing.",
        ),
        click.Option(
            ["--hide", "hide"],
            type=click.Choice(sorted(SOURCES)),
            multiple=True,
            help="Observability ablation (repeatable): leave these sources out of every agent's "
            "snapshot; the tools answer that they are hidden. Recorded in the results' config.",
        ),
        click.Option(
            ["--judge", "judge_model"],
            metavar="MODEL",
            help="Also score the reasoning (root_cause_reasoning) with this litellm model; "
            "default: deterministic metrics only, no LLM.",
        ),
        click.Option(
            ["--judge-api-base", "judge_api_base"],
            metavar="URL",
            help="OpenAI-compatible server for --judge.",
        ),
        click.Option(
            ["--exclude-infra-namespaces", "exclude_infra_namespaces"],
            is_flag=True,
            default=False,
            help="Drop predicted root causes in infrastructure namespaces (kube-system, "
            "prometheus, opentelemetry-collectors, ...) before scoring root_cause_entity, as "
            "ITBench-Evaluations' post-filter does.",
        ),
    ]


def judge_settings(options: Mapping[str, Any]) -> JudgeSettings:
    """The settings of ``options`` (the run's ``run_options`` values), checked: a usage error
    names a flag given without the one it needs, or a judge model without its API key."""
    model = options.get("judge_model")
    api_base = options.get("judge_api_base")
    if api_base and not model:
        raise UsageError("--judge-api-base needs --judge MODEL")
    if model:
        from itbench.llm.client import check_model_environment

        check_model_environment(model, api_base)
    from sre.judge.namespaces import INFRASTRUCTURE_NAMESPACES

    excluded = INFRASTRUCTURE_NAMESPACES if options.get("exclude_infra_namespaces") else frozenset()
    return JudgeSettings(
        model=model,
        api_base=api_base,
        exclude_namespaces=excluded,
        task=str(options.get("sre_task") or "diagnose"),
        hide=frozenset(options.get("hide") or ()),
    )


def scenario_class(truth: GroundTruth) -> str:
    category = truth.fault[0].category if truth.fault else "unknown"
    return "sre-" + "-".join(category.lower().split())


def truth_scenario(scenario_id: str, truth: GroundTruth, source: str) -> Scenario:
    return Scenario(
        id=scenario_id,
        domain="sre",
        **{"class": scenario_class(truth)},
        title=f"Diagnose incident {scenario_id}",
        ground_truth=truth,
        metadata={"ground_truth_file": source},
    )


def load_ground_truth(
    path: Path | None, settings: JudgeSettings = JudgeSettings()
) -> dict[str, Scenario]:
    if settings.task == "mitigate":
        # a mitigation run is scored again from the verdict its trials left; the suite's folders
        # name the scenarios
        from sre.twin.suite import load_mitigation_scenarios

        if path is None:
            raise UsageError(
                "sre eval --task mitigate needs --ground-truth DIR (the run's mitigation-suite/ "
                "or the folders given to --scenarios)"
            )

        loaded = load_mitigation_scenarios(str(path), path)
        return {s.id: s for s in loaded}
    if path is None:
        raise UsageError(
            "sre eval needs --ground-truth DIR|FILE (scenario folders with ground_truth.yaml, "
            "groundtruth_v1.yaml, or a ground_truths.json list)"
        )
    from sre.groundtruth import load_truths

    scenarios = {
        sid: truth_scenario(sid, loaded.truth, loaded.source)
        for sid, loaded in load_truths(path).items()
    }
    return scenarios


def evaluate_mitigation(
    scenario: Scenario[MitigationTruth, None],
    workspace: Path,
    settings: JudgeSettings = JudgeSettings(),
) -> TrialScores:
    """A ``--task mitigate`` trial: the verdict the trial's environment left, plus the diagnosis
    when the agent wrote one."""
    from sre.twin.suite import read_verdict

    truth = scenario.ground_truth
    scores, details = read_verdict(workspace)
    if truth.diagnosis is not None and find_agent_output(workspace) is not None:
        diagnosed = evaluate_diagnosis(
            scenario.with_ground_truth(truth.diagnosis), workspace, settings
        )
        scores.update(diagnosed.scores)
        details["diagnosis"] = dict(diagnosed.details)
    return TrialScores(scores, details)


def _diagnosed(truth: GroundTruth) -> Callable[[AgentDiagnosis], Diagnosed]:
    """Whether a diagnosis names every root cause, and its root-cause entity precision (as the
    scored ``root_cause_entity``): what MTTD compares an earlier answer with the final one by."""
    from sre.judge import metrics
    from sre.judge.matching import Matcher
    from sre.judge.mttd import Diagnosed

    matcher = Matcher(truth)

    def diagnosed(diagnosis: AgentDiagnosis) -> Diagnosed:
        vs = metrics.verdicts(matcher, metrics.predicted_root_causes(diagnosis))
        credited = {v.matched_to for v in vs if v.credited}
        every = bool(matcher.root_causes) and credited >= set(matcher.root_causes)
        return Diagnosed(every, Fraction(len(credited), len(vs)) if vs else Fraction(0))

    return diagnosed


def evaluate_diagnosis(
    scenario: Scenario[GroundTruth, Any],
    workspace: Path,
    settings: JudgeSettings = JudgeSettings(),
) -> TrialScores:
    """A ``--task diagnose`` trial: the agent's diagnosis against the incident's ground truth."""
    from sre.judge import judge
    from sre.judge.mttd import time_to_diagnosis
    from sre.outputs import read_diagnosis

    truth = scenario.ground_truth
    output = find_agent_output(workspace)
    if output is None:
        raise InputError(f"{workspace}: agent_output.json is missing")
    diagnosis = read_diagnosis(output)
    reasoning = None
    if settings.model:
        from sre.judge.llm import ReasoningJudge

        reasoning = ReasoningJudge(settings.model, settings.api_base, settings.timeout_s)
    scores = judge(
        truth,
        diagnosis,
        reasoning_judge=reasoning,
        exclude_namespaces=settings.exclude_namespaces,
    )
    details: dict[str, Any] = {"agent_output": str(output.relative_to(workspace))}
    found = time_to_diagnosis(workspace, output, diagnosis, _diagnosed(truth))
    if found.seconds is not None:
        # absent when never found: the paper's infinity, left out of the means
        scores["mttd_s"] = found.seconds
        details["mttd_source"] = found.source
    if found.note is not None:
        # ``sre eval``'s results keep no details: the reader learns here why MTTD is absent
        details["mttd_note"] = found.note
        print(f"warning: {found.note}", file=sys.stderr)
    if diagnosis.notes:
        details["read_notes"] = list(diagnosis.notes)
    if reasoning is not None:
        details["judge_model"] = settings.model
        details["judge_usage"] = reasoning.usage_totals()
    return TrialScores(scores, details)
