"""The ``kyverno test`` runner's three steps apart, and the outcome memo as a wrapper around the
validate handler: reading gives frozen values, comparing judges given responses without the
engine, running answers once per admission operation, and the memo calls the handler once per
distinct view of the resource."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from ciso.engines.kyverno import outcome_memo
from ciso.engines.kyverno.model import RuleOutcome, RuleResult, RuleStatus
from ciso.engines.kyverno.testrunner import _compare, _read_test, _run, _TestRun
from tests.kyverno.kyverno_test_file import TEST_HEADER, dump

POLICY = {
    "apiVersion": "kyverno.io/v1",
    "kind": "ClusterPolicy",
    "metadata": {"name": "require-team"},
    "spec": {
        "rules": [
            {
                "name": "team-label",
                "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
                "validate": {"pattern": {"metadata": {"labels": {"team": "?*"}}}},
            }
        ]
    },
}


def _pod(name: str, labels: dict[str, str]) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "labels": labels}}


def _read(folder: Path, results: list[dict[str, Any]]) -> Any:
    (folder / "policy.yaml").write_text(dump(POLICY))
    (folder / "resources.yaml").write_text(dump(_pod("labelled", {"team": "a"}), _pod("bare", {})))
    test = {
        **TEST_HEADER,
        "policies": ["policy.yaml"],
        "resources": ["resources.yaml"],
        "results": results,
    }
    path = folder / "kyverno-test.yaml"
    path.write_text(dump(test))
    return _read_test(path, test, str(path))


def _entry(resource: str, result: str, **extra: Any) -> dict[str, Any]:
    return {
        "policy": "require-team",
        "rule": "team-label",
        "kind": "Pod",
        "resources": [resource],
        "result": result,
        **extra,
    }


def test_reading_gives_frozen_values_naming_what_the_test_expects(tmp_path: Path) -> None:
    loaded = _read(tmp_path, [_entry("labelled", "pass"), _entry("bare", "fail")])
    assert [p["metadata"]["name"] for p in loaded.policies] == ["require-team"]
    assert [r["metadata"]["name"] for r in loaded.resources] == ["labelled", "bare"]
    assert loaded.sources == {"require-team": str(tmp_path / "policy.yaml")}
    assert [(e.names, e.result) for e in loaded.expected] == [
        (("labelled",), "pass"),
        (("bare",), "fail"),
    ]
    with pytest.raises(dataclasses.FrozenInstanceError):
        loaded.expected[0].result = "fail"  # type: ignore[misc]  # the point: it is frozen


def test_comparing_judges_the_responses_it_is_given(tmp_path: Path) -> None:
    loaded = _read(
        tmp_path,
        [_entry("labelled", "pass"), _entry("bare", "fail"), _entry("ghost", "pass")],
    )

    def response(name: str, status: str) -> RuleResult:
        return RuleResult("require-team", "team-label", "Pod", "default", name, status, "m")

    # responses that contradict the engine: comparing must report what it was handed
    given = _TestRun({None: (response("labelled", "fail"),)}, ())
    outcomes = [(e.resource, e.actual, e.outcome) for e in _compare(loaded, given)]
    assert outcomes == [
        ("labelled", "fail", "failed"),
        ("bare", None, "excluded"),  # no response where fail was expected
        ("ghost", None, "failed"),  # a resource the test does not declare
    ]


def test_running_answers_once_per_operation_the_results_name(tmp_path: Path) -> None:
    loaded = _read(
        tmp_path,
        [
            _entry("labelled", "pass"),
            _entry("bare", "fail"),
            _entry("bare", "fail", operation="UPDATE"),
        ],
    )
    ran = _run(loaded)
    assert sorted(ran.by_operation, key=str) == [None, "UPDATE"]
    statuses = {r.name: r.status for r in ran.by_operation[None]}
    assert statuses == {"labelled": "pass", "bare": "fail"}
    assert [(e.resource, e.outcome) for e in _compare(loaded, ran)] == [
        ("labelled", "passed"),
        ("bare", "passed"),
        ("bare", "passed"),
    ]


def test_the_memo_calls_the_handler_once_per_distinct_view() -> None:
    memo = outcome_memo.Memo((("metadata", "labels"),))
    calls: list[str] = []

    def handler(name: str) -> RuleOutcome | None:
        calls.append(name)
        return None if name == "quiet" else RuleOutcome(RuleStatus.PASS, f"checked {name}")

    def ask(resource: dict[str, Any], name: str) -> RuleOutcome | None:
        return memo.outcome(resource, {}, handler, name)

    first = ask(_pod("a", {"team": "x"}), "a")
    again = ask(_pod("b", {"team": "x"}), "b")  # the same labels: remembered
    other = ask(_pod("c", {"team": "y"}), "c")
    assert first == again == RuleOutcome(RuleStatus.PASS, "checked a")
    assert other == RuleOutcome(RuleStatus.PASS, "checked c")
    # "no response" (None) is remembered too
    assert ask(_pod("q", {"team": "z"}), "quiet") is None
    assert ask(_pod("r", {"team": "z"}), "r") is None
    assert calls == ["a", "c", "quiet"]
    assert (memo.hits, memo.misses) == (2, 3)
