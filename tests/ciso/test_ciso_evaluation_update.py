"""kyverno-update: ITBench's eval_config.yaml rules and the strict additions, per agent output."""

from __future__ import annotations

from pathlib import Path

import pytest

from ciso.evaluation.kyverno_update import itbench_subset, strict_subset
from ciso.evaluation.trial import evaluate_trial
from tests._support.ciso import benchmark_scenario, trial_dir, update_scenario

SCENARIO = benchmark_scenario(update_scenario())


@pytest.fixture(autouse=True)
def _our_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ITBENCH_KYVERNO_ENGINE", "itbench")


def test_edited_policy_passes(tmp_path: Path) -> None:
    result = evaluate_trial(SCENARIO, trial_dir(tmp_path, "kyverno-update", "correct"))
    assert result.scores == {"itbench_pass": 1, "strict_pass": 1}
    assert result.details["environments"]["agent"] == {
        "edited": ["container-security-controls"],
        "created": [],
    }
    assert "failure" not in result.details


def test_a_new_policy_instead_of_the_edit_fails_check_violations(tmp_path: Path) -> None:
    result = evaluate_trial(SCENARIO, trial_dir(tmp_path, "kyverno-update", "new-policy"))
    assert result.scores == {"itbench_pass": 0, "strict_pass": 0}
    assert result.details["failure"] == {
        "step": "check_violations",
        "reason": "container-security-controls gives no fail on Pod/test-untrusted-registry "
        "(disallow-privilege-escalation: pass); expected fail",
    }


def test_removing_a_trailing_rule_passes_itbench_but_not_strict(tmp_path: Path) -> None:
    result = evaluate_trial(
        SCENARIO, trial_dir(tmp_path, "kyverno-update", "removes-unchanged-rule")
    )
    assert result.scores == {"itbench_pass": 1, "strict_pass": 0}
    assert result.details["failure"] == {
        "step": "strict unchanged",
        "reason": "a rule of service-account-requirements was removed, added or reordered",
    }


def test_no_change_at_all(tmp_path: Path) -> None:
    result = evaluate_trial(SCENARIO, trial_dir(tmp_path, "kyverno-update", "empty"))
    assert result.scores == {"itbench_pass": 0, "strict_pass": 0}
    assert result.details["failure"]["step"] == "policies"
    assert result.details["failure"]["reason"].startswith("the agent changed no policy")


def test_edit_applied_to_the_cluster_counts(tmp_path: Path) -> None:
    import json

    import yaml

    trial = trial_dir(tmp_path, "kyverno-update", "empty")
    edited = yaml.safe_load(
        (
            Path(__file__).parent / "fixtures/agents/kyverno-update/correct/"
            "container-security-controls.yaml"
        ).read_text()
    )
    (trial / ".itbench").mkdir()
    (trial / ".itbench" / "cluster-applied.json").write_text(
        json.dumps({"applied": [edited], "deleted": []})
    )
    result = evaluate_trial(SCENARIO, trial)
    assert result.scores == {"itbench_pass": 1, "strict_pass": 1}


@pytest.mark.parametrize(
    ("expected", "actual", "itbench", "strict"),
    [
        ({"a": [1, 2]}, {"a": [1, 2], "b": 3}, True, True),
        ({"a": [1, 2]}, {"a": [1]}, True, False),  # ITBench's zip misses the removed element
        ({"a": [1, 2]}, {"a": [2, 1]}, False, False),
        ({"a": {"x": 1}}, {"a": {"x": 2}}, False, False),
        ({"a": [1]}, {"a": [1, 2]}, True, False),
    ],
)
def test_subset_compares(expected, actual, itbench: bool, strict: bool) -> None:
    assert itbench_subset(expected, actual) is itbench
    assert strict_subset(expected, actual) is strict
