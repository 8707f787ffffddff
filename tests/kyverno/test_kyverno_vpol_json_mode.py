"""ValidatingPolicy ``evaluation.mode: JSON``: any JSON document validated with only ``object``
bound, on a Test's ``jsonPayloads`` and on Kubernetes objects; Kubernetes-mode policies leave
payloads alone; and Test files holding several Test documents, each run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from ciso.engines.kyverno.engine import apply
from ciso.engines.kyverno.testrunner import run_test_file


def _policy(name: str, expression: str, mode: str | None = "JSON", **spec) -> dict:
    body = {"validations": [{"expression": expression, "message": f"{name} failed"}], **spec}
    if mode:
        body["evaluation"] = {"mode": mode}
    else:
        body["matchConstraints"] = {
            "resourceRules": [
                {
                    "apiGroups": [""],
                    "apiVersions": ["v1"],
                    "operations": ["CREATE"],
                    "resources": ["pods"],
                }
            ]
        }
    return {
        "apiVersion": "policies.kyverno.io/v1beta1",
        "kind": "ValidatingPolicy",
        "metadata": {"name": name},
        "spec": body,
    }


NO_ROOT_CA = _policy("no-root-ca", "!object.ca.root")
PAYLOADS = {
    "good.json": {"ca": {"root": False}},
    "bad.json": {"ca": {"root": True}},
    "other.json": {"type": "something-else"},
}


def _test(tmp_path: Path, policies: list[dict], results: list[dict], **extra) -> dict:
    for name, payload in PAYLOADS.items():
        (tmp_path / name).write_text(json.dumps(payload))
    (tmp_path / "policies.yaml").write_text(yaml.safe_dump_all(policies))
    return {
        "apiVersion": "cli.kyverno.io/v1alpha1",
        "kind": "Test",
        "metadata": {"name": "t"},
        "policies": ["policies.yaml"],
        "results": results,
        **extra,
    }


def _run(tmp_path: Path, *tests: dict) -> tuple[str | None, list[tuple]]:
    (tmp_path / "kyverno-test.yaml").write_text(yaml.safe_dump_all(tests))
    outcome = run_test_file(tmp_path / "kyverno-test.yaml")
    return outcome.error, [
        (e.policy, e.resource, e.actual, e.outcome) for e in outcome.expectations
    ]


def test_json_mode_validates_each_payload(tmp_path: Path):
    test = _test(
        tmp_path,
        [NO_ROOT_CA],
        [
            {"policy": "no-root-ca", "kind": "", "resources": ["bad.json"], "result": "fail"},
            {"policy": "no-root-ca", "kind": "", "resources": ["good.json"], "result": "pass"},
        ],
        jsonPayloads=["./good.json", "bad.json"],  # named as the CLI names them: no "./"
    )
    assert _run(tmp_path, test) == (
        None,
        [
            ("no-root-ca", "bad.json", "fail", "passed"),
            ("no-root-ca", "good.json", "pass", "passed"),
        ],
    )


def test_only_object_is_bound_and_match_conditions_can_leave_a_payload_out(tmp_path: Path):
    bound = _policy("bound", "request == null && oldObject == null && namespaceObject == null")
    conditioned = _policy(
        "conditioned",
        "false",
        matchConditions=[{"name": "has-ca", "expression": "has(object.ca)"}],
    )
    test = _test(
        tmp_path,
        [bound, conditioned],
        [
            {"policy": "bound", "kind": "", "resources": ["other.json"], "result": "pass"},
            {"policy": "conditioned", "kind": "", "resources": ["good.json"], "result": "fail"},
            # no response at all for a payload the match conditions leave out
            {"policy": "conditioned", "kind": "", "resources": ["other.json"], "result": "fail"},
        ],
        jsonPayloads=["good.json", "other.json"],
    )
    error, got = _run(tmp_path, test)
    assert error is None
    assert got == [
        ("bound", "other.json", "pass", "passed"),
        ("conditioned", "good.json", "fail", "passed"),
        ("conditioned", "other.json", None, "excluded"),
    ]


def test_a_kubernetes_mode_policy_leaves_payloads_alone(tmp_path: Path):
    test = _test(
        tmp_path,
        [_policy("k8s", "false", mode=None)],
        [{"policy": "k8s", "kind": "", "resources": ["good.json"], "result": "fail"}],
        jsonPayloads=["good.json"],
    )
    error, got = _run(tmp_path, test)
    assert error is None
    assert got == [("k8s", "good.json", None, "skipped")]


def test_json_mode_reads_kubernetes_objects_as_plain_json():
    # no matchConstraints: every object is a document to validate
    policy = _policy("named", "object.metadata.name == 'web'")
    pods = [
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name}, "spec": {}}
        for name in ("web", "db")
    ]
    config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "web"}}
    got = {(r.kind, r.name): r.status for r in apply([policy], [*pods, config])}
    assert got == {("Pod", "web"): "pass", ("Pod", "db"): "fail", ("ConfigMap", "web"): "pass"}


def test_every_test_document_of_a_file_runs(tmp_path: Path):
    first = _test(
        tmp_path,
        [NO_ROOT_CA],
        [{"policy": "no-root-ca", "kind": "", "result": "pass"}],
        jsonPayloads=["good.json"],
    )
    second = {
        **first,
        "jsonPayloads": ["bad.json"],
        "results": [{"policy": "no-root-ca", "kind": "", "result": "fail"}],
    }
    assert _run(tmp_path, first, second) == (
        None,
        [
            ("no-root-ca", "good.json", "pass", "passed"),
            ("no-root-ca", "bad.json", "fail", "passed"),
        ],
    )


@pytest.mark.parametrize("broken", [{"polices": ["x.yaml"]}, "not a mapping"])
def test_a_broken_second_document_is_named_and_the_first_still_counts(tmp_path: Path, broken):
    first = _test(
        tmp_path,
        [NO_ROOT_CA],
        [{"policy": "no-root-ca", "kind": "", "result": "pass"}],
        jsonPayloads=["good.json"],
    )
    error, got = _run(tmp_path, first, broken)
    assert error is not None and "(Test document 2)" in error, error
    assert got == [("no-root-ca", "good.json", "pass", "passed")]
