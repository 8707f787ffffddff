"""Which evaluator scores a trial: the scenario's class picks its module, imported on demand (a
kyverno trial never loads Ansible, an OPA one never loads Kyverno)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ciso.environments import ciso_truth
from ciso.scenarios.model import CisoScenario, ScenarioClass
from itbench.plugins.spec import TrialScores

if TYPE_CHECKING:
    from ciso.environments import CisoBenchmarkScenario
    from ciso.live import LiveSettings


def _evaluator(scenario_class: ScenarioClass) -> Callable[[CisoScenario, Path], TrialScores]:
    # imported per class: a kyverno trial never loads Ansible, an OPA one never loads Kyverno
    # each under its own name: their signatures differ past the first two parameters
    if scenario_class is ScenarioClass.KYVERNO:
        from ciso.evaluation.kyverno import evaluate as kyverno

        return kyverno
    if scenario_class is ScenarioClass.KUBECTL_OPA:
        from ciso.evaluation.kubectl_opa import evaluate as kubectl_opa

        return kubectl_opa
    if scenario_class is ScenarioClass.OPA_STATIC:
        from ciso.evaluation.opa_static import evaluate as opa_static

        return opa_static
    if scenario_class is ScenarioClass.RHEL9_ANSIBLE_OPA:
        from ciso.evaluation.rhel9 import evaluate as rhel9

        return rhel9
    if scenario_class is ScenarioClass.KYVERNO_MIGRATE:
        from ciso.evaluation.kyverno_migrate import evaluate as kyverno_migrate

        return kyverno_migrate
    from ciso.evaluation.kyverno_update import evaluate as kyverno_update

    return kyverno_update


def evaluate_trial(
    scenario: CisoBenchmarkScenario | CisoScenario,
    trial_dir: Path,
    live: LiveSettings | None = None,
) -> TrialScores:
    """Score one trial; ``live`` (the run's session gives it in live mode) scores the classes
    that run on a live cluster there."""
    truth = ciso_truth(scenario)
    if live is not None and truth.scenario_class is ScenarioClass.KYVERNO:
        from ciso.evaluation.kyverno import evaluate as evaluate_kyverno

        return evaluate_kyverno(truth, trial_dir, live)
    if live is not None and truth.scenario_class is ScenarioClass.KUBECTL_OPA:
        from ciso.evaluation.kubectl_opa import evaluate as evaluate_kubectl_opa

        return evaluate_kubectl_opa(truth, trial_dir, live=live)
    return _evaluator(truth.scenario_class)(truth, trial_dir)
