"""How ``kyverno test`` judges, as the Kyverno CLI: an entry expecting ``error`` agrees with a real
rule error, never with an ``unsupported: …`` one; a patched manifest is compared before the
status; a values file's ``request.object.…`` keys (quoted parts may hold dots) rewrite the
resource the policy matches."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kyverno.kyverno_test_file import run_test


def _policy(rule_body: dict) -> dict:
    return {
        "apiVersion": "kyverno.io/v1",
        "kind": "ClusterPolicy",
        "metadata": {"name": "p"},
        "spec": {
            "rules": [
                {"name": "r", "match": {"any": [{"resources": {"kinds": ["Pod"]}}]}, **rule_body}
            ]
        },
    }


POD = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web"}, "spec": {}}


def _run(
    tmp_path: Path,
    policies: list[dict],
    resources: list[dict],
    results: list[dict],
    values: dict | None = None,
    **files: dict,
) -> list:
    """Write a Test (policies, resources, values file, extra files by name) and run it: its
    expectations."""
    fields = {"policies": ["policy.yaml"], "resources": ["resources.yaml"], "results": results}
    files = {"policy.yaml": policies, "resources.yaml": resources, **files}
    if values is not None:
        files["values.yaml"] = values
        fields["variables"] = "values.yaml"
    return run_test(tmp_path, fields, files).expectations


def _entry(expected: str, policy: str = "p", rule: str = "r", kind: str = "Pod", name: str = "web"):
    return {"policy": policy, "rule": rule, "kind": kind, "resources": [name], "result": expected}


MISSING_KEY = {
    "validate": {
        "message": "m",
        "deny": {
            "conditions": {
                "all": [{"key": "{{ request.object.spec.nope }}", "operator": "Equals", "value": 1}]
            }
        },
    }
}
UNSUPPORTED = {"validate": {"manifests": {"attestors": []}}}


@pytest.mark.parametrize(
    ("body", "expected", "outcome"),
    [
        (MISSING_KEY, "error", "passed"),
        (MISSING_KEY, "fail", "errors"),
        (UNSUPPORTED, "error", "errors"),
    ],
)
def test_an_error_result_against_each_expectation(tmp_path: Path, body, expected, outcome):
    (only,) = _run(tmp_path, [_policy(body)], [POD], [_entry(expected)])
    assert (only.actual, only.outcome) == ("error", outcome), only.reason


LABEL = {"mutate": {"patchStrategicMerge": {"metadata": {"labels": {"team": "core"}}}}}


def _patched_run(tmp_path: Path, patched: dict, expected: str) -> tuple:
    entry = _entry(expected) | {"patchedResources": "patched.yaml"}
    (only,) = _run(tmp_path, [_policy(LABEL)], [POD], [entry], **{"patched.yaml": patched})
    return only.outcome, only.reason


def _patched_pod(namespace: str | None = None, team: str = "core") -> dict:
    meta = {"name": "web", "labels": {"team": team}} | (
        {"namespace": namespace} if namespace else {}
    )
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": {}}


def test_the_patched_manifest_is_compared_before_the_status(tmp_path: Path):
    # as the CLI: a differing patched resource fails the entry whatever status it expects
    outcome, reason = _patched_run(tmp_path, _patched_pod(team="other"), "fail")
    assert (outcome, reason) == ("failed", "patched resource differs from patched.yaml")
    assert _patched_run(tmp_path, _patched_pod(), "pass")[0] == "passed"
    # an equal patched resource leaves the status comparison to decide
    assert _patched_run(tmp_path, _patched_pod(), "fail")[0] == "failed"


def test_the_manifest_object_is_found_by_namespace_as_the_cli_reads_it(tmp_path: Path):
    # no namespace in the manifest reads as "default", as the resource does
    assert _patched_run(tmp_path, _patched_pod(namespace="default"), "pass")[0] == "passed"
    outcome, reason = _patched_run(tmp_path, _patched_pod(namespace="elsewhere"), "pass")
    assert outcome == "skipped" and "holds no Pod web" in reason


ROLE_POLICY = {
    "apiVersion": "kyverno.io/v1",
    "kind": "ClusterPolicy",
    "metadata": {"name": "platform"},
    "spec": {
        "rules": [
            {
                "name": "deny",
                "match": {
                    "any": [
                        {
                            "resources": {
                                "kinds": ["Role"],
                                "annotations": {"example.com/platform": "true"},
                            }
                        }
                    ]
                },
                "validate": {"message": "platform roles are read-only", "deny": {}},
            }
        ]
    },
}


def test_request_object_values_rewrite_the_resource_matched_and_validated(tmp_path: Path):
    # as the CLI: the values are added to the request and request.object read back, so a
    # quoted key (a dot inside) lands as one annotation and changes what the policy matches
    roles = [
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": n}}
        for n in ("platform-role", "plain-role")
    ]
    key = 'request.object.metadata.annotations."example.com/platform"'
    values = {
        "apiVersion": "cli.kyverno.io/v1alpha1",
        "kind": "Values",
        "policies": [
            {"name": "platform", "resources": [{"name": "platform-role", "values": {key: "true"}}]}
        ],
    }
    results = [
        _entry(r, "platform", "deny", "Role", name)
        for name, r in (("platform-role", "fail"), ("plain-role", "skip"))
    ]
    expectations = _run(tmp_path, [ROLE_POLICY], roles, results, values)
    got = {e.resource: (e.actual, e.outcome) for e in expectations}
    assert got == {"platform-role": ("fail", "passed"), "plain-role": (None, "passed")}
    assert "annotations" not in roles[0]["metadata"]  # the input objects stay as read


def test_values_paths_split_on_dots_outside_quotes():
    from ciso.engines.kyverno.rule_context import nested_set, path_parts

    assert path_parts('request.object.metadata.annotations."a.b/c"') == [
        "request",
        "object",
        "metadata",
        "annotations",
        "a.b/c",
    ]
    shared = {"metadata": {"name": "x"}}
    holder = {"object": shared}
    nested_set(holder, 'object.metadata.labels."app.kubernetes.io/name"', "web")
    assert holder["object"]["metadata"] == {
        "name": "x",
        "labels": {"app.kubernetes.io/name": "web"},
    }
    assert shared == {"metadata": {"name": "x"}}  # copied on the way, never written through


def test_an_unscored_policys_failure_is_a_warning(tmp_path: Path):
    policy = _policy({"validate": {"message": "m", "deny": {}}})
    outcomes = {}
    for scored, expected in (("false", "warn"), ("true", "fail"), ("false", "fail")):
        policy["metadata"]["annotations"] = {"policies.kyverno.io/scored": scored}
        (only,) = _run(tmp_path, [policy], [POD], [_entry(expected)])
        outcomes[(scored, expected)] = (only.actual, only.outcome)
    assert outcomes == {
        ("false", "warn"): ("warn", "passed"),
        ("true", "fail"): ("fail", "passed"),
        ("false", "fail"): ("warn", "failed"),
    }


def test_a_context_entry_may_read_a_value_standing_in_for_another_entry(tmp_path: Path):
    # the values are in place before the context entries load, as the CLI's initializer puts
    # them: varB reads varA's data, which the values file gives instead of the ConfigMap
    policy = _policy(
        {
            "context": [
                {"name": "varA", "configMap": {"name": "missing", "namespace": "default"}},
                {"name": "varB", "variable": {"jmesPath": "varA.data.b"}},
            ],
            "validate": {
                "message": "m",
                "deny": {
                    "conditions": {
                        "all": [{"key": "{{ varB }}", "operator": "Equals", "value": "x"}]
                    }
                },
            },
        }
    )
    values = {
        "apiVersion": "cli.kyverno.io/v1alpha1",
        "kind": "Values",
        "policies": [{"name": "p", "rules": [{"name": "r", "values": {"varA.data.b": "y"}}]}],
    }
    (only,) = _run(tmp_path, [policy], [POD], [_entry("pass")], values)
    assert (only.actual, only.outcome) == ("pass", "passed"), only.reason


def test_values_subresources_let_an_object_stand_for_a_subresource_request(tmp_path: Path):
    policy = {
        "apiVersion": "kyverno.io/v1",
        "kind": "ClusterPolicy",
        "metadata": {"name": "scale"},
        "spec": {
            "rules": [
                {
                    "name": "max",
                    "match": {"any": [{"resources": {"kinds": ["Deployment/scale"]}}]},
                    "validate": {"message": "m", "pattern": {"spec": {"replicas": "<4"}}},
                },
                {
                    "name": "plain",
                    "match": {"any": [{"resources": {"kinds": ["Deployment"]}}]},
                    "validate": {"message": "m", "pattern": {"spec": {"replicas": "<4"}}},
                },
            ]
        },
    }
    scale = {
        "apiVersion": "autoscaling/v1",
        "kind": "Scale",
        "metadata": {"name": "web", "namespace": "default"},
        "spec": {"replicas": 5},
    }
    values = {
        "apiVersion": "cli.kyverno.io/v1alpha1",
        "kind": "Values",
        "subresources": [
            {
                "parentResource": {
                    "group": "apps",
                    "version": "v1",
                    "kind": "Deployment",
                    "name": "deployments",
                },
                "subresource": {
                    "group": "autoscaling",
                    "version": "v1",
                    "kind": "Scale",
                    "name": "deployments/scale",
                },
            }
        ],
    }
    results = [
        _entry(r, "scale", rule, "Scale") for rule, r in (("max", "fail"), ("plain", "skip"))
    ]
    outcomes = {
        declared: {
            e.rule: (e.actual, e.outcome)
            for e in _run(tmp_path, [policy], [scale], results, values if declared else None)
        }
        for declared in (True, False)
    }
    # declared: the Scale is the deployment's scale subresource (a plain Deployment rule skips it)
    assert outcomes[True] == {"max": ("fail", "passed"), "plain": (None, "passed")}
    # undeclared: a Scale object is no subresource request, so nothing matches it
    assert outcomes[False] == {"max": (None, "excluded"), "plain": (None, "passed")}


def test_cel_policies_see_a_declared_subresource_request():
    from ciso.engines.kyverno.cel.matching import admission_of, matches

    binding = {"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "p", "namespace": "d"}}
    declared = {("v1", "Binding"): ("v1", "Pod", "binding")}

    def constraint(*resources: str) -> dict:
        rule = {"apiGroups": [""], "apiVersions": ["v1"], "operations": ["CREATE"]}
        return {"resourceRules": [rule | {"resources": list(resources)}]}

    request = admission_of(binding, "CREATE", None, declared)
    assert (request.plural, request.subresource) == ("pods", "binding")
    assert matches(constraint("pods/binding"), request)
    assert matches(constraint("pods/*"), request)
    assert not matches(constraint("pods"), request)  # a subresource is not its parent
    assert not matches(constraint("*"), request)
    # undeclared, a Binding is its own resource
    assert matches(constraint("bindings"), admission_of(binding, "CREATE", None))
    assert not matches(constraint("pods/binding"), admission_of(binding, "CREATE", None))
