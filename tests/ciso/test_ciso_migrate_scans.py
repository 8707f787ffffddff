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
    # a wrong answer: another control's reference migration, flagging other resources
    other = MIGRATION_CONTROLS[(MIGRATION_CONTROLS.index(control) + 1) % len(MIGRATION_CONTROLS)]
    scanner = engines.ItbenchScanner()
    batches = []
    for answer in (_answer(control), _answer(other)):
        batched = migrate.flagged_pairs(scanner, source, answer, environments)
        batches.append(batched)
        for (name, env), (want, got) in zip(environments, batched, strict=True):
            assert want == migrate._flagged(scanner, source, env), (control, name)
            assert got == migrate._flagged(scanner, answer, env), (control, name)
    # the scenario's violating environment: something flagged by the source (not a vacuous
    # check); read from the reference answer's batch above (the same call, not a second fork)
    assert batches[0][0][0]


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


def _names(objects) -> frozenset:  # type: ignore[no-untyped-def]  # manifests
    return frozenset((o.get("kind"), (o.get("metadata") or {}).get("name")) for o in objects)


def _failing_scan(monkeypatch: pytest.MonkeyPatch, kind: str, objects, fault) -> None:  # type: ignore[no-untyped-def]  # manifests, a callable
    """Our engine's scan, with ``fault()`` in place of the scan of ``kind`` policies over
    ``objects`` (the forked child inherits the patch)."""
    real, target = engines._our_scan, _names(objects)

    def scan(policies, objects):  # type: ignore[no-untyped-def]  # as _our_scan
        if policies[0]["kind"] == kind and _names(objects) == target:
            fault()
        return real(policies, objects)

    monkeypatch.setattr(engines, "_our_scan", scan)


def _trial(tmp_path: Path, control: str) -> Path:
    trial = tmp_path / "trial"
    trial.mkdir()
    (trial / "kyverno-policy.yaml").write_text(_reference(control).read_text())
    return trial


def test_a_failed_scan_names_its_environment_and_policy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    control = "cis-k8s-5.2.2-privileged"  # a ClusterPolicy source, a ValidatingPolicy answer
    scenario = _scenario(control)
    environments = dict(migrate._environments(scenario))
    assert _answer(control)[0]["kind"] == "ValidatingPolicy"

    def boom() -> None:
        raise RuntimeError("boom")

    _failing_scan(monkeypatch, "ValidatingPolicy", environments["generated-1 compliant"], boom)
    result = evaluate_trial(scenario, _trial(tmp_path, control))
    assert result.scores["strict_pass"] == 0
    assert result.details["failure"]["step"] == "scan (generated-1 compliant)"
    assert result.details["failure"]["reason"] == (
        "generated-1 compliant, the answer: the policy scan failed: RuntimeError: boom"
    )


def test_a_scan_past_its_time_limit_names_its_environment_and_policy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    control = "cis-k8s-5.2.2-privileged"
    scenario = _scenario(control)
    environments = dict(migrate._environments(scenario))
    monkeypatch.setattr(engines, "TIME_LIMIT_S", 0.5)

    def hang() -> None:
        import time

        time.sleep(60)

    _failing_scan(monkeypatch, "ClusterPolicy", environments["violating"], hang)
    result = evaluate_trial(scenario, _trial(tmp_path, control))
    assert result.details["failure"]["step"] == "scan (violating)"
    reason = result.details["failure"]["reason"]
    assert reason.startswith("violating, the source source-policy.yaml: the policy scans did not")


def test_the_batch_goes_to_the_scanners_own_reports_many() -> None:
    """Any scanner's ``reports_many`` takes the batch (the protocol's method, not a test of the
    scanner's class); a failure it reports by index names that environment."""
    control = "cis-k8s-5.2.2-privileged"
    scenario = _scenario(control)
    source, _ = migrate.source_policies(scenario.migration_source, scenario.migration_target)
    environments = migrate._environments(scenario)
    calls: list[int] = []

    class Batching:
        name, version = "batching", "1"

        def reports(self, policies, objects):  # type: ignore[no-untyped-def]  # the protocol's
            raise AssertionError("one scan at a time")

        def reports_many(self, scans):  # type: ignore[no-untyped-def]  # the protocol's
            calls.append(len(scans))
            if len(calls) > 1:
                raise engines.ScanFailed("no report", index=len(environments) + 1)
            return engines.ItbenchScanner().reports_many(scans)

    scanner = Batching()
    got = migrate.flagged_pairs(scanner, source, _answer(control), environments)
    assert got == migrate.flagged_pairs(engines.ItbenchScanner(), source, _answer(control),
                                        environments)  # fmt: skip
    assert calls == [2 * len(environments)]
    with pytest.raises(migrate.EnvironmentScanFailed) as caught:
        migrate.flagged_pairs(scanner, source, _answer(control), environments)
    # the second half of the batch is the answer's scans, in the environments' order
    assert caught.value.environment == environments[1][0]
    assert str(caught.value) == f"{environments[1][0]}, the answer: no report"
