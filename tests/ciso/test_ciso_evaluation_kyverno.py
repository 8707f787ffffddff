"""kyverno class: each hand-written agent output scores exactly the metrics it should."""

from __future__ import annotations

from pathlib import Path

import pytest

from ciso.evaluation.trial import evaluate_trial
from ciso.scenarios.model import ScenarioClass
from tests._support.ciso import K8S, benchmark_scenario, ciso_scenario, trial_dir

SCENARIO = benchmark_scenario(ciso_scenario(K8S, ScenarioClass.KYVERNO))


@pytest.fixture(autouse=True)
def _our_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ITBENCH_KYVERNO_ENGINE", "itbench")


def score(tmp_path: Path, case: str):
    return evaluate_trial(SCENARIO, trial_dir(tmp_path, "kyverno", case))


@pytest.mark.parametrize("case", ["correct", "applied-to-cluster"])
def test_a_correct_policy_passes_every_metric(tmp_path: Path, case: str) -> None:
    result = score(tmp_path, case)
    assert result.scores == {
        "itbench_pass": 1,
        "strict_pass": 1,
        "resource_recall": 1.0,
        "resource_precision": 1.0,
    }
    assert "failure" not in result.details
    assert result.details["engines"]["kyverno"].startswith("itbench-kyverno ")
    violating = result.details["environments"]["violating"]
    assert violating["violating_caught"] == [
        "CronJob/paa/backup-hostnet",
        "Deployment/paa/web-hostnet",
    ]
    assert result.details["environments"]["compliant"]["failed"] == []


def test_the_policy_applied_to_the_cluster_is_named_as_its_origin(tmp_path: Path) -> None:
    result = score(tmp_path, "applied-to-cluster")
    assert result.details["environments"]["agent"]["policies"] == [
        "ClusterPolicy/disallow-host-network (cluster)"
    ]


def test_too_broad_flags_the_compliant_environment(tmp_path: Path) -> None:
    result = score(tmp_path, "too-broad")
    # web-plain (no hostNetwork field) is flagged in the violating environment as well
    assert result.scores == {
        "itbench_pass": 1,
        "strict_pass": 0,
        "resource_recall": 1.0,
        "resource_precision": round(2 / 3, 4),
    }
    assert result.details["failure"]["step"] == "scan (compliant)"
    assert "too broad" in result.details["failure"]["reason"]
    assert "CronJob/paa/backup-hostnet" in result.details["failure"]["reason"]


def test_missing_the_tricky_violation_fails_strict_only(tmp_path: Path) -> None:
    result = score(tmp_path, "misses-tricky")
    assert result.scores == {
        "itbench_pass": 1,
        "strict_pass": 0,
        "resource_recall": 0.5,
        "resource_precision": 1.0,
    }
    assert result.details["failure"] == {
        "step": "scan (violating)",
        "reason": "violating resources without a fail: CronJob/paa/backup-hostnet",
    }


def test_a_gatekeeper_constraint_is_the_wrong_kind(tmp_path: Path) -> None:
    result = score(tmp_path, "wrong-kind")
    assert result.scores == {
        "itbench_pass": 0,
        "strict_pass": 0,
        "resource_recall": 0.0,
        "resource_precision": 0.0,
    }
    reason = result.details["failure"]["reason"]
    assert reason.startswith("no Kyverno ClusterPolicy/Policy")
    assert "K8sPSPHostNetworkingPorts (policy.yaml)" in reason


def test_a_yaml_syntax_error_names_the_file(tmp_path: Path) -> None:
    result = score(tmp_path, "syntax-error")
    assert result.scores["itbench_pass"] == 0 and result.scores["strict_pass"] == 0
    reason = result.details["failure"]["reason"]
    assert "unreadable: policy.yaml:" in reason


def test_an_empty_workspace_fails_with_that_reason(tmp_path: Path) -> None:
    result = score(tmp_path, "empty")
    assert result.scores["itbench_pass"] == 0
    assert result.details["failure"]["step"] == "policies"
    assert "no Kyverno ClusterPolicy/Policy" in result.details["failure"]["reason"]


def test_a_policy_that_never_finishes_fails_the_trial(tmp_path: Path, monkeypatch) -> None:
    import time

    from ciso.evaluation import kyverno_engines

    def endless(policies, objects):  # the engine stuck in a pathological policy
        time.sleep(60)

    monkeypatch.setattr(kyverno_engines, "_our_scan", endless)
    monkeypatch.setattr(kyverno_engines, "TIME_LIMIT_S", 1.0)
    started = time.monotonic()
    result = score(tmp_path, "correct")
    assert time.monotonic() - started < 20
    assert result.scores["itbench_pass"] == 0
    assert result.details["failure"]["reason"] == "the policy scan did not finish within 1 s"
