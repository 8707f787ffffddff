"""Kubernetes' MutatingAdmissionPolicy with its bindings (cel/mutating_admission.py), as the
Kyverno CLI evaluates it: one response named after the policy, carrying the patched object;
bindings narrow by matchResources and mutate in turn with their params; match conditions skip;
errors are errors. Kyverno's own CLI tests for it agree 15/15 where they name their resources."""

from __future__ import annotations

import copy

from ciso.engines.kyverno.engine import Context, apply
from ciso.engines.kyverno.testrunner import run_test_file

GROUP = "admissionregistration.k8s.io/v1beta1"
DEPLOYMENT = {
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {"name": "web", "namespace": "shop", "labels": {"tier": "front"}},
    "spec": {"replicas": 1},
}


def policy(**spec) -> dict:
    return {
        "apiVersion": GROUP,
        "kind": "MutatingAdmissionPolicy",
        "metadata": {"name": "set-replicas"},
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
            "mutations": [
                {
                    "patchType": "ApplyConfiguration",
                    "applyConfiguration": {"expression": "Object{spec: Object.spec{replicas: 3}}"},
                }
            ],
            **spec,
        },
    }


def binding(name: str, **spec) -> dict:
    return {
        "apiVersion": GROUP,
        "kind": "MutatingAdmissionPolicyBinding",
        "metadata": {"name": name},
        "spec": {"policyName": "set-replicas", **spec},
    }


def only(docs, ctx=None):
    results = apply(docs, [copy.deepcopy(DEPLOYMENT)], ctx or Context())
    assert len(results) <= 1, results
    return results[0] if results else None


def test_an_unbound_policy_mutates_and_carries_the_patched_object():
    result = only([policy()])
    assert (result.rule, result.status, result.rule_type) == ("set-replicas", "pass", "Mutation")
    assert result.patched["spec"]["replicas"] == 3
    assert result.patched["metadata"] == DEPLOYMENT["metadata"]


def test_json_patch_and_match_conditions():
    patched = policy(
        mutations=[
            {
                "patchType": "JSONPatch",
                "jsonPatch": {
                    "expression": "[JSONPatch{op: 'add', path: '/metadata/labels/owner', value: 'me'}]"
                },
            }
        ]
    )
    assert only([patched]).patched["metadata"]["labels"] == {"tier": "front", "owner": "me"}
    skipped = policy(matchConditions=[{"name": "big", "expression": "object.spec.replicas > 5"}])
    result = only([skipped])
    assert (result.status, result.message) == ("skip", "match conditions aren't met")


def test_bindings_narrow_and_mutate_in_turn_with_their_params():
    with_params = policy(
        paramKind={"apiVersion": "v1", "kind": "ConfigMap"},
        mutations=[
            {
                "patchType": "ApplyConfiguration",
                "applyConfiguration": {
                    "expression": "Object{spec: Object.spec{replicas: "
                    "object.spec.replicas + int(params.data.add)}}"
                },
            }
        ],
    )
    params = [
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": n}, "data": {"add": a}}
        for n, a in (("two", "2"), ("ten", "10"))
    ]
    first = binding("first", paramRef={"name": "two"})
    second = binding("second", paramRef={"name": "ten"})
    result = only([with_params, first, second], Context(params=params))
    assert result.patched["spec"]["replicas"] == 13  # 1 + 2, then + 10
    elsewhere = binding(
        "elsewhere",
        paramRef={"name": "two"},
        matchResources={"objectSelector": {"matchLabels": {"tier": "back"}}},
    )
    assert only([with_params, elsewhere], Context(params=params)) is None


def test_a_failing_mutation_is_an_error_naming_the_field():
    broken = policy(
        mutations=[{"patchType": "ApplyConfiguration", "applyConfiguration": {"expression": "1/0"}}]
    )
    result = only([broken])
    assert result.status == "error"
    assert "spec.mutations[0].applyConfiguration.expression" in result.message


def test_kyverno_test_compares_the_patched_resource(tmp_path):
    import yaml

    (tmp_path / "policy.yaml").write_text(yaml.safe_dump(policy()))
    (tmp_path / "resource.yaml").write_text(yaml.safe_dump(DEPLOYMENT))
    patched = copy.deepcopy(DEPLOYMENT)
    patched["spec"]["replicas"] = 3
    (tmp_path / "patched.yaml").write_text(yaml.safe_dump(patched))
    (tmp_path / "kyverno-test.yaml").write_text(
        "apiVersion: cli.kyverno.io/v1alpha1\nkind: Test\nmetadata: {name: t}\n"
        "policies: [policy.yaml]\nresources: [resource.yaml]\nresults:\n"
        "- {isMutatingAdmissionPolicy: true, policy: set-replicas, kind: Deployment,"
        " resources: [web], patchedResources: patched.yaml, result: pass}\n"
    )
    result = run_test_file(tmp_path / "kyverno-test.yaml")
    assert [(e.resource, e.outcome) for e in result.expectations] == [("web", "passed")]
    patched["spec"]["replicas"] = 4
    (tmp_path / "patched.yaml").write_text(yaml.safe_dump(patched))
    again = run_test_file(tmp_path / "kyverno-test.yaml")
    assert [e.outcome for e in again.expectations] == ["failed"]


def test_an_entry_naming_no_resource_checks_every_resource_the_policy_answered(tmp_path):
    # as the Kyverno CLI: "the test specifies no resources, check all results"
    import yaml

    other = copy.deepcopy(DEPLOYMENT)
    other["metadata"]["name"] = "api"
    (tmp_path / "policy.yaml").write_text(yaml.safe_dump(policy()))
    (tmp_path / "resource.yaml").write_text(yaml.safe_dump_all([DEPLOYMENT, other]))
    patched = []
    for obj in (DEPLOYMENT, other):
        obj = copy.deepcopy(obj)
        obj["spec"]["replicas"] = 3
        patched.append(obj)
    (tmp_path / "patched.yaml").write_text(yaml.safe_dump_all(patched))
    (tmp_path / "kyverno-test.yaml").write_text(
        "apiVersion: cli.kyverno.io/v1alpha1\nkind: Test\nmetadata: {name: t}\n"
        "policies: [policy.yaml]\nresources: [resource.yaml]\nresults:\n"
        "- {isMutatingAdmissionPolicy: true, policy: set-replicas, kind: Deployment,"
        " patchedResources: patched.yaml, result: pass}\n"
    )
    result = run_test_file(tmp_path / "kyverno-test.yaml")
    assert sorted((e.resource, e.outcome) for e in result.expectations) == [
        ("shop/api", "passed"),
        ("shop/web", "passed"),
    ]
