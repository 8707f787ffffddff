"""Which evaluator scores a trial: the scenario's class picks its module, imported on demand (a
kyverno trial never loads Ansible, an OPA one never loads Kyverno)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ciso.environments import ciso_truth
from ciso.scenarios.model import CisoScenario, ScenarioClass
from itbench.models import Scenario
from itbench.plugins.spec import TrialScores


def _evaluator(scenario_class: ScenarioClass) -> Callable[[CisoScenario, Path], TrialScores]:
    # imported per class: a kyverno trial never loads Ansible, an OPA one never loads Kyverno
    if scenario_class is ScenarioClass.KYVERNO:
        from ciso.evaluation.kyverno import evaluate
    elif scenario_class is ScenarioClass.KUBECTL_OPA:
        from ciso.evaluation.kubectl_opa import evaluate
    elif scenario_class is ScenarioClass.OPA_STATIC:
        from ciso.evaluation.opa_static import evaluate
    elif scenario_class is ScenarioClass.RHEL9_ANSIBLE_OPA:
        from ciso.evaluation.rhel9 import evaluate
    elif scenario_class is ScenarioClass.KYVERNO_MIGRATE:
        from ciso.evaluation.kyverno_migrate import evaluate
    else:
        from ciso.evaluation.kyverno_update import evaluate
    return evaluate


def evaluate_trial(scenario: Scenario | CisoScenario, trial_dir: Path) -> TrialScores:
    truth = ciso_truth(scenario)
    return _evaluator(truth.scenario_class)(truth, trial_dir)
