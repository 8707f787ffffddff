"""``kyverno-migrate`` scans the source and the answer over every environment of a trial in one
forked child (``flagged_pairs``): per environment, the same resources flagged as one scan per
policy and environment gives, for the reference answer and for a wrong one; and one fork per
trial instead of two per environment."""

from __future__ import annotations

from pathlib import Path

import pytest

import ciso.evaluation.deadline as deadline
import ciso.evaluation.kyverno_engines as engines
from ciso.evaluation import kyverno_migrate as migrate
from ciso.evaluation.trial import evaluate_trial
from ciso.scenarios.format import load_scenario_dir
from ciso.scenarios.loader import load_benchmark_scenarios
from tests._support.ciso import MIGRATION_CONTROLS
from tests._support.cli import REPO

SUITE = REPO / "ciso" / "suite" / "kubernetes"


def _scenario(control: str):
    (scenario,) = [
        s for s in load_scenario_dir(SUITE / control) if s.id.endswith(".kyverno-migrate")
    ]
    return scenario


def _reference(control: str) -> Path:
    (scenario,) = load_benchmark_scenarios(f"{control}.kyverno-migrate")
    return scenario.reference["kyverno-policy.yaml"]


def _answer(control: str) -> list[dict]:
    return migrate._load(_reference(control))


@pytest.mark.parametrize("control", MIGRATION_CONTROLS)
def test_one_child_flags_what_one_scan_per_environment_flags(control: str) -> None:
    scenario = _scenario(control)
    source, _ = migrate.source_policies(scenario.migration_source, scenario.migration_target)
    environments = migrate._environments(scenario)
    objects = [o for _, o in environments]
    # a wrong answer: another control's reference migration, flagging other resources
    other = MIGRATION_CONTROLS[(MIGRATION_CONTROLS.index(control) + 1) % len(MIGRATION_CONTROLS)]
    scanner = engines.ItbenchScanner()
    for answer in (_answer(control), _answer(other)):
        batched = migrate.flagged_pairs(scanner, source, answer, objects)
        for (name, env), (want, got) in zip(environments, batched, strict=True):
            assert want == migrate._flagged(scanner, source, env), (control, name)
            assert got == migrate._flagged(scanner, answer, env), (control, name)
    # the scenario's violating environment: something flagged by the source (not a vacuous check)
    assert migrate.flagged_pairs(scanner, source, _answer(control), objects)[0][0]


def test_a_trial_forks_once_for_its_scans(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = _scenario("cis-k8s-5.2.2-privileged")  # a ClusterPolicy source: Kyverno scans
    calls: list[str] = []
    real = deadline.call_with_deadline

    def counted(fn, *args, timeout_s):
        calls.append(fn.__name__)
        return real(fn, *args, timeout_s=timeout_s)

    monkeypatch.setattr(engines, "call_with_deadline", counted)
    trial = tmp_path / "trial"
    trial.mkdir()
    (trial / "kyverno-policy.yaml").write_text(_reference("cis-k8s-5.2.2-privileged").read_text())
    result = evaluate_trial(scenario, trial)
    assert result.scores["strict_pass"] == 1, result.details.get("failure")
    assert result.details["environments"]["equivalence"]["environments"] == 6
    assert calls == ["_our_scans"]
