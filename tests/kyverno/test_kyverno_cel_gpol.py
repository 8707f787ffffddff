"""GeneratingPolicy: generator.Apply as the Kyverno CLI records it, the policy through the engine
and through ``kyverno test`` (generatedResource compared as for classic generate rules), and the
shared library's GeneratingPolicy tests."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ciso.engines.kyverno.cel import gpol
from ciso.engines.kyverno.cel.libraries.generator import collecting
from ciso.engines.kyverno.cel.program import CelError, evaluate
from ciso.engines.kyverno.engine import Context, apply
from ciso.engines.kyverno.testrunner import run_test_file

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpora" / "kyverno-policies"

NAMESPACE = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a"}}


def _policy(expression: str, conditions: list | None = None) -> dict:
    spec = {
        "matchConstraints": {
            "resourceRules": [
                {
                    "apiGroups": [""],
                    "apiVersions": ["v1"],
                    "operations": ["CREATE", "UPDATE"],
                    "resources": ["namespaces"],
                }
            ]
        },
        "variables": [{"name": "ns", "expression": "object.metadata.name"}],
        "generate": [{"expression": expression}],
    }
    if conditions:
        spec["matchConditions"] = conditions
    return {
        "apiVersion": "policies.kyverno.io/v1alpha1",
        "kind": "GeneratingPolicy",
        "metadata": {"name": "default-quota"},
        "spec": spec,
    }


QUOTA = """generator.Apply(variables.ns, [{
  "apiVersion": dyn("v1"), "kind": dyn("ResourceQuota"),
  "metadata": dyn({"name": "default", "annotations": {"a": "b"}, "uid": "x"}),
  "spec": dyn({"hard": {"pods": "10"}})
}])"""


def test_generator_apply_records_objects_in_the_namespace_given():
    listed = """generator.Apply("team-a", [{"apiVersion": "v1", "kind": "ConfigMapList",
        "items": [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}},
                  {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "b",
                   "namespace": "elsewhere", "resourceVersion": "7"}}]}])"""
    with collecting() as made:
        # true, so that it can sit in `list.all(ns, generator.Apply(ns, ...))`
        assert evaluate(listed, {}) is True
    # a List's items are generated one by one; the namespace is the call's, server fields go
    assert made == [
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "namespace": "team-a"}},
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "b", "namespace": "team-a"}},
    ]


def test_generator_apply_outside_a_generating_policy_is_an_error():
    with pytest.raises(CelError, match="only available in a GeneratingPolicy"):
        evaluate('generator.Apply("ns", [])', {})


def test_the_engine_gives_one_ruleless_pass_carrying_the_generated_objects():
    [result] = apply([_policy(QUOTA)], [NAMESPACE], Context())
    assert (result.policy, result.rule, result.status) == ("default-quota", "", "pass")
    assert result.rule_type == "Generation"
    assert result.generated == (
        {
            "apiVersion": "v1",
            "kind": "ResourceQuota",
            "metadata": {"name": "default", "namespace": "team-a"},
            "spec": {"hard": {"pods": "10"}},
        },
    )


def test_match_conditions_and_constraints_decide_whether_it_runs():
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "team-a"}}
    assert apply([_policy(QUOTA)], [pod], Context()) == []
    unless_system = [{"name": "not-system", "expression": "!variables.ns.startsWith('kube-')"}]
    system = {**NAMESPACE, "metadata": {"name": "kube-public"}}
    [result] = apply([_policy(QUOTA, unless_system)], [system], Context())
    assert (result.status, result.generated) == ("skip", None)


def test_a_failing_generate_expression_is_an_error_naming_the_field():
    [result] = apply([_policy('generator.Apply(variables.ns, "not a list")')], [NAMESPACE])
    assert result.status == "error"
    assert "spec.generate[0].expression" in result.message
    assert "needs a list of objects" in result.message


def test_check_structure_names_each_problem():
    problems = gpol.check_structure({"spec": {"generate": [{"expr": "x"}]}})
    assert "spec.matchConstraints: required (a policy without it matches nothing)" in problems
    assert "spec.generate[0]: one of expression or template must be set" in problems
    both = gpol.check_structure({"spec": {"generate": [{"expression": "x", "template": {}}]}})
    assert "spec.generate[0]: only one of expression or template may be set" in both


def _write_test(tmp_path: Path, generated: dict) -> Path:
    (tmp_path / "policy.yaml").write_text(yaml.safe_dump(_policy(QUOTA)))
    (tmp_path / "resource.yaml").write_text(yaml.safe_dump(NAMESPACE))
    (tmp_path / "generated.yaml").write_text(yaml.safe_dump(generated))
    test = {
        "apiVersion": "cli.kyverno.io/v1alpha1",
        "kind": "Test",
        "metadata": {"name": "quota"},
        "policies": ["policy.yaml"],
        "resources": ["resource.yaml"],
        "results": [
            {
                "policy": "default-quota",
                "kind": "Namespace",
                "resources": ["team-a"],
                "result": "pass",
                "isGeneratingPolicy": True,
                "generatedResource": "generated.yaml",
            }
        ],
    }
    path = tmp_path / "kyverno-test.yaml"
    path.write_text(yaml.safe_dump(test))
    return path


EXPECTED_QUOTA = {
    "apiVersion": "v1",
    "kind": "ResourceQuota",
    "metadata": {"name": "default", "namespace": "team-a"},
    "spec": {"hard": {"pods": "10"}},
}


def test_kyverno_test_compares_the_generated_resource(tmp_path: Path):
    [expectation] = run_test_file(_write_test(tmp_path, EXPECTED_QUOTA)).expectations
    assert (expectation.outcome, expectation.actual) == ("passed", "pass")


def test_kyverno_test_fails_when_the_generated_resource_differs(tmp_path: Path):
    other = {**EXPECTED_QUOTA, "spec": {"hard": {"pods": "20"}}}
    [expectation] = run_test_file(_write_test(tmp_path, other)).expectations
    assert expectation.outcome == "failed"
    assert expectation.reason == "no generated object equals generated.yaml"


GPOL_TESTS = (
    sorted(CORPUS.glob("*-gpol/*/.kyverno-test/kyverno-test.yaml")) if CORPUS.exists() else []
)


@pytest.mark.skipif(not CORPUS.exists(), reason=f"../shared is absent: {CORPUS} not found")
@pytest.mark.parametrize("path", GPOL_TESTS, ids=lambda p: p.parents[1].name)
def test_each_corpus_generating_policy_expectation(path: Path):
    result = run_test_file(path)
    assert result.error is None, result.error
    assert result.expectations, path
    for expectation in result.expectations:
        assert expectation.outcome == "passed", (expectation.resource, expectation.reason)


def test_a_cel_policy_exception_skips_the_generation():
    exception = {
        "apiVersion": "policies.kyverno.io/v1alpha1",
        "kind": "PolicyException",
        "metadata": {"name": "not-team-a", "namespace": "kyverno"},
        "spec": {
            "policyRefs": [{"name": "default-quota", "kind": "GeneratingPolicy"}],
            "matchConditions": [{"name": "a", "expression": "object.metadata.name == 'team-a'"}],
        },
    }
    other = {**NAMESPACE, "metadata": {"name": "team-b"}}
    results = apply([_policy(QUOTA)], [NAMESPACE, other], Context(exceptions=[exception]))
    got = {r.name: (r.status, bool(r.generated)) for r in results}
    assert got == {"team-a": ("skip", False), "team-b": ("pass", True)}
    assert "kyverno/not-team-a" in results[0].message
