"""A Test's mocks of the world outside the cluster: ``globalContextEntries`` (for ``globalReference``
context entries and CEL ``globalContext.Get``) and ``apiCallResponses`` as CEL ``http`` answers,
through the kyverno test runner, asserted per expectation; bad entries fail the file naming the
entry and field."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.kyverno.kyverno_test_file import dump, run_test

CLASSIC = {
    "apiVersion": "kyverno.io/v1",
    "kind": "ClusterPolicy",
    "metadata": {"name": "classic"},
    "spec": {
        "rules": [
            {
                "name": "enough",
                "match": {"any": [{"resources": {"kinds": ["Deployment"]}}]},
                "context": [
                    {
                        "name": "count",
                        "globalReference": {"name": "REFERENCE", "jmesPath": "PATH"},
                    }
                ],
                "validate": {
                    "message": "not enough",
                    "deny": {
                        "conditions": {
                            "any": [{"key": "{{ count }}", "operator": "LessThan", "value": 2}]
                        }
                    },
                },
            }
        ]
    },
}
CEL = {
    "apiVersion": "policies.kyverno.io/v1",
    "kind": "ValidatingPolicy",
    "metadata": {"name": "cel"},
    "spec": {
        "matchConstraints": {
            "resourceRules": [
                {
                    "apiGroups": ["apps"],
                    "apiVersions": ["v1"],
                    "operations": ["CREATE"],
                    "resources": ["deployments"],
                }
            ]
        },
        "validations": [],  # the test's expression
    },
}
DEPLOYMENT = {
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {"name": "web", "namespace": "team"},
    "spec": {"template": {"spec": {"containers": [{"name": "c", "image": "nginx"}]}}},
}


def _deployment(name: str) -> dict:
    return {**DEPLOYMENT, "metadata": {"name": name, "namespace": "default"}}


def _run(tmp_path: Path, test: dict, *policies: dict) -> tuple[str | None, dict]:
    fields = {
        "policies": ["policies.yaml"],
        "resources": ["resources.yaml"],
        "results": [
            {"policy": p["metadata"]["name"], "kind": "Deployment", "resources": ["team/web"]}
            | ({"rule": "enough"} if p["kind"] == "ClusterPolicy" else {"isValidatingPolicy": True})
            | {"result": "pass"}
            for p in policies
        ],
        **test,
    }
    files = {"policies.yaml": list(policies), "resources.yaml": DEPLOYMENT}
    outcome = run_test(tmp_path, fields, files)
    return outcome.error, {e.policy: (e.actual, e.reason) for e in outcome.expectations}


def _classic(reference: str, path: str) -> dict:
    text = yaml.safe_dump(CLASSIC).replace("REFERENCE", reference).replace("PATH", path)
    return yaml.safe_load(text)


def _cel(expression: str) -> dict:
    return {**CEL, "spec": {**CEL["spec"], "validations": [{"expression": expression}]}}


DATA_ENTRY = {
    "name": "deployments",
    "data": {"found": [{"name": "a"}, {"name": "b"}], "other": 1},
    "projections": [{"name": "items", "path": "found"}],
}


@pytest.mark.parametrize(
    ("entries", "reference", "path", "expected"),
    [
        # projections make the entry an object of the projected names
        ([DATA_ENTRY], "deployments", "items | length(@)", "pass"),
        ([DATA_ENTRY], "deployments.items", "length(@)", "pass"),
        ([DATA_ENTRY], "deployments", "other || `0`", "fail"),  # `other` was not projected
        (
            [{**DATA_ENTRY, "projections": [{"name": "items", "path": "found[:1]"}]}],
            "deployments.items",
            "length(@)",
            "fail",
        ),
        # inline resources are a list; fieldPath selects before projections
        (
            [{"name": "deployments", "resources": [_deployment("a"), _deployment("b")]}],
            "deployments",
            "length(@)",
            "pass",
        ),
        (
            [
                {
                    "name": "deployments",
                    "resources": [_deployment("a"), _deployment("b")],
                    "fieldPath": "[?metadata.name == 'a']",
                }
            ],
            "deployments",
            "length(@)",
            "fail",
        ),
    ],
)
def test_global_reference_reads_the_tests_global_context_entries(
    tmp_path, entries, reference, path, expected
):
    error, got = _run(tmp_path, {"globalContextEntries": entries}, _classic(reference, path))
    assert error is None
    assert got["classic"][0] == expected, got


def test_an_entry_the_test_does_not_mock_is_an_error_not_a_pass(tmp_path):
    error, got = _run(
        tmp_path, {"globalContextEntries": [DATA_ENTRY]}, _classic("elsewhere", "length(@)")
    )
    assert error is None
    actual, reason = got["classic"]
    assert actual == "error" and "elsewhere" in reason


def test_cel_global_context_reads_resource_files_beside_the_test(tmp_path):
    (tmp_path / "more.yaml").write_text(dump(_deployment("a"), _deployment("b"), _deployment("c")))
    entries = [{"name": "deployments", "resourceFiles": ["more.yaml"]}]
    for bound, expected in ((3, "pass"), (4, "fail")):
        expression = f'size(globalContext.Get("deployments", "")) >= {bound}'
        error, got = _run(tmp_path, {"globalContextEntries": entries}, _cel(expression))
        assert error is None
        assert got["cel"][0] == expected, (bound, got)


def test_cel_global_context_projection(tmp_path):
    expression = 'size(globalContext.Get("deployments", "items")) == 2'
    error, got = _run(tmp_path, {"globalContextEntries": [DATA_ENTRY]}, _cel(expression))
    assert error is None
    assert got["cel"][0] == "pass"


@pytest.mark.parametrize(
    ("body", "status", "expression", "expected"),
    [
        ({"allowed": True}, 200, 'http.Get("https://authz.example/check").body.allowed', "pass"),
        ({"allowed": False}, 200, 'http.Get("https://authz.example/check").body.allowed', "fail"),
        # the status reaches the policy, which decides (the CLI does not turn it into an error)
        (
            {"allowed": True},
            503,
            'http.Get("https://authz.example/check").statusCode == 200',
            "fail",
        ),
        (
            {"allowed": True},
            None,
            'http.Get("https://authz.example/check").statusCode == 200',
            "pass",
        ),
    ],
)
def test_cel_http_answers_from_api_call_responses(tmp_path, body, status, expression, expected):
    response = {"body": body} | ({"statusCode": status} if status else {})
    mocks = [{"url": "https://authz.example/check", "method": "GET", "response": response}]
    error, got = _run(tmp_path, {"apiCallResponses": mocks}, _cel(expression))
    assert error is None
    assert got["cel"][0] == expected, got


def test_cel_http_post_matches_the_method_then_the_url_alone(tmp_path):
    mocks = [
        {"url": "https://authz.example/v", "method": "GET", "response": {"body": {"ok": False}}},
        {"url": "https://authz.example/v", "response": {"body": {"ok": True}}},
    ]
    expression = 'http.Post("https://authz.example/v", {"name": object.metadata.name}).body.ok'
    error, got = _run(tmp_path, {"apiCallResponses": mocks}, _cel(expression))
    assert error is None
    assert got["cel"][0] == "pass", got


@pytest.mark.parametrize(
    ("test", "problem"),
    [
        (
            {"globalContextEntries": [DATA_ENTRY, DATA_ENTRY]},
            "globalContextEntries[1]: a second entry named 'deployments'",
        ),
        (
            {"globalContextEntries": [{"name": "x", "data": {}, "resources": []}]},
            "globalContextEntries[0] (x): exactly one of data, resources, resourceFiles",
        ),
        (
            {"globalContextEntries": [{"name": "x", "resourceFiles": ["../outside.yaml"]}]},
            "globalContextEntries[0] (x): resourceFiles[0] must be a path inside",
        ),
        (
            {"globalContextEntries": [{"name": "x", "data": {"a": 1}, "projections": [{}]}]},
            "globalContextEntries[0] (x): projections[0].name is required",
        ),
        (
            {"apiCallResponses": [{"url": "example.com/x", "response": {"body": {}}}]},
            "apiCallResponses[0]: url 'example.com/x' must be an absolute http(s) URL",
        ),
        (
            {"apiCallResponses": [{"urlPath": "/x", "method": "PUT", "response": {"body": {}}}]},
            "apiCallResponses[0]: method must be GET or POST",
        ),
        (
            {"apiCallResponses": [{"urlPath": "/x", "response": {"body": [1]}}]},
            "apiCallResponses[0]: response.body must be an object",
        ),
        (
            {
                "apiCallResponses": [
                    {"urlPath": "/x", "response": {"body": {}, "statusCode": 700}},
                ]
            },
            "apiCallResponses[0]: response.statusCode must be a number from 100 to 599",
        ),
        (
            {
                "apiCallResponses": [
                    {"urlPath": "/x", "response": {"body": {}}},
                    {"urlPath": "/x", "response": {"body": {}}},
                ]
            },
            "apiCallResponses[1]: a second entry for '/x'",
        ),
    ],
)
def test_a_bad_mock_fails_the_file_naming_the_entry_and_field(tmp_path, test, problem):
    error, got = _run(tmp_path, test, _cel("true"))
    assert error is not None and problem in error, error
    assert str(tmp_path / "kyverno-test.yaml") in error
    assert got == {}
