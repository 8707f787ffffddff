"""Kubernetes' ValidatingAdmissionPolicy with its bindings (cel/vap.py): through `kyverno test`
on a fixture (bindings with matchResources and paramRef, an unbound policy, match conditions),
and each rule of the validator on its own: messages, errors, params by name and by selector,
namespace selection, failurePolicy."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from ciso.engines.kyverno.engine import Context, apply
from ciso.engines.kyverno.testrunner import run_test_file
from tests._support.cli import run_cli

FIXTURE = Path(__file__).parent / "fixtures" / "vap"

DEPLOYMENT = {
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {"name": "web", "namespace": "team-a", "labels": {"app": "web"}},
    "spec": {"replicas": 4},
}


def vap(name: str = "limit", **spec) -> dict:
    return {
        "apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "ValidatingAdmissionPolicy",
        "metadata": {"name": name},
        "spec": {
            "matchConstraints": {
                "resourceRules": [
                    {
                        "apiGroups": ["apps"],
                        "apiVersions": ["v1"],
                        "operations": ["CREATE", "UPDATE"],
                        "resources": ["deployments"],
                    }
                ]
            },
            "validations": [{"expression": "object.spec.replicas <= 3"}],
            **spec,
        },
    }


def binding(policy: str = "limit", **spec) -> dict:
    return {
        "apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "ValidatingAdmissionPolicyBinding",
        "metadata": {"name": f"{policy}-binding"},
        "spec": {"policyName": policy, "validationActions": ["Deny"], **spec},
    }


def only(docs: list[dict], resource: dict = DEPLOYMENT, ctx: Context | None = None):
    results = apply(docs, [resource], ctx)
    assert len(results) <= 1, results
    return results[0] if results else None


def test_the_fixture_through_kyverno_test():
    result = run_test_file(FIXTURE / "kyverno-test.yaml")
    assert result.error is None
    outcomes = {(e.policy, e.resource, e.expected, e.outcome) for e in result.expectations}
    assert outcomes == {
        ("replica-limit", "small", "pass", "passed"),
        ("replica-limit", "large", "fail", "passed"),
        ("replica-limit", "untiered", "skip", "passed"),
        ("pinned-images", "small", "pass", "passed"),
        ("pinned-images", "large", "pass", "passed"),
        ("pinned-images", "untiered", "fail", "passed"),
        ("pinned-images", "system-dns", "skip", "passed"),
    }


def test_kyverno_apply_reads_parameter_resources_and_names_the_rule_after_the_policy():
    proc = run_cli(
        ["kyverno", "apply", str(FIXTURE / "policy.yaml"), "--resource"]
        + [str(FIXTURE / "resources.yaml"), "--format", "json"]
        + ["--parameter-resource", str(FIXTURE / "params.yaml")]
    )
    assert proc.returncode == 1, proc.stderr
    import json

    rows = {(r["policy"], r["name"]): r for r in json.loads(proc.stdout)}
    large = rows[("replica-limit", "large")]
    assert large["rule"] == "replica-limit" and large["status"] == "fail"
    assert large["message"] == "replicas 5 over the limit of 3"  # params of platform, not other
    assert ("replica-limit", "untiered") not in rows
    assert ("pinned-images", "not-a-deployment") not in rows


def test_policy_reports_carry_vap_results_with_kyvernos_source():
    proc = run_cli(
        ["kyverno", "apply", str(FIXTURE / "policy.yaml"), "--resource"]
        + [str(FIXTURE / "resources.yaml"), "--policy-report", "--format", "json"]
        + ["--parameter-resource", str(FIXTURE / "params.yaml")]
    )
    import json

    reports = {r["scope"]["name"]: r for r in json.loads(proc.stdout)}
    sources = {e["source"] for e in reports["large"]["results"]}
    assert sources == {"ValidatingAdmissionPolicy"}
    assert reports["large"]["summary"]["fail"] == 1 and reports["large"]["summary"]["pass"] == 1


def test_message_falls_back_from_expression_to_message_to_the_failed_expression():
    no_message = only([vap()])
    assert no_message.status == "fail"
    assert no_message.message == "failed expression: object.spec.replicas <= 3"
    with_message = only([vap(validations=[{"expression": "false", "message": " too many "}])])
    assert with_message.message == "too many"
    # a multi-line or failing messageExpression is not used (Kubernetes' validator)
    multi = vap(
        validations=[{"expression": "false", "messageExpression": "'a\\nb'", "message": "m"}]
    )
    assert only([multi]).message == "m"
    broken = vap(validations=[{"expression": "false", "messageExpression": "1 / 0"}])
    assert only([broken]).message == "failed expression: false"


def test_validations_stop_at_the_first_failure():
    policy = vap(
        validations=[
            {"expression": "true"},
            {"expression": "object.spec.replicas < 2", "message": "second"},
            {"expression": "false", "message": "third"},
        ]
    )
    assert only([policy]).message == "second"


@pytest.mark.parametrize("failure_policy", ["Fail", "Ignore"])
def test_validation_errors_are_errors_whatever_the_failure_policy(failure_policy):
    policy = vap(failurePolicy=failure_policy, validations=[{"expression": "object.spec.nope"}])
    result = only([policy])
    assert result.status == "error" and "spec.validations[0].expression" in result.message


def test_a_match_condition_error_is_an_error_unless_the_failure_policy_ignores_it():
    failing = [{"name": "c", "expression": "1 / 0"}]
    assert only([vap(matchConditions=failing)]).status == "error"
    ignored = only([vap(failurePolicy="Ignore", matchConditions=failing)])
    assert (ignored.status, ignored.message) == ("skip", "match conditions aren't met")


def test_a_validation_that_is_not_true_fails_even_when_not_a_bool():
    not_bool = only([vap(validations=[{"expression": "object.spec.replicas", "message": "m"}])])
    assert (not_bool.status, not_bool.message) == ("fail", "m")


def test_the_request_is_a_create_whatever_the_operation():
    policy = vap(validations=[{"expression": "request.operation == 'CREATE' && oldObject == null"}])
    assert only([policy], ctx=Context(operation="UPDATE")).status == "pass"


def test_a_false_match_condition_skips():
    policy = vap(matchConditions=[{"name": "big", "expression": "object.spec.replicas > 10"}])
    result = only([policy])
    assert (result.status, result.message) == ("skip", "match conditions aren't met")


def test_other_kinds_and_operations_get_no_response():
    service = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}}
    assert only([vap()], service) is None
    delete_only = vap()
    delete_only["spec"]["matchConstraints"]["resourceRules"][0]["operations"] = ["DELETE"]
    assert only([delete_only]) is None


def test_bindings_narrow_by_match_resources_and_the_last_matching_binding_answers():
    labelled = binding(
        paramRef={"name": "loose"},
        matchResources={"objectSelector": {"matchLabels": {"app": "web"}}},
    )
    other = binding(paramRef={"name": "strict"})
    other["metadata"]["name"] = "second"
    params = [
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": n}, "data": {"max": m}}
        for n, m in (("loose", "10"), ("strict", "1"))
    ]
    policy = vap(
        paramKind={"apiVersion": "v1", "kind": "ConfigMap"},
        validations=[{"expression": "object.spec.replicas <= int(params.data.max)"}],
    )
    ctx = Context(params=params)
    assert only([policy, labelled], ctx=ctx).status == "pass"  # loose: 4 <= 10
    assert only([policy, labelled, other], ctx=Context(params=params)).status == "fail"
    unlabelled = copy.deepcopy(DEPLOYMENT)
    unlabelled["metadata"]["labels"] = {}
    assert only([policy, labelled], unlabelled, Context(params=params)) is None


def test_params_by_selector_are_a_list():
    policy = vap(
        paramKind={"apiVersion": "v1", "kind": "ConfigMap"},
        validations=[
            {"expression": "params.items.all(p, object.spec.replicas <= int(p.data.max))"}
        ],
    )
    chosen = binding(paramRef={"selector": {"matchLabels": {"limits": "yes"}}})
    params = [
        {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": f"cm{i}", "labels": {"limits": label}},
            "data": {"max": m},
        }
        for i, (label, m) in enumerate((("yes", "5"), ("yes", "6"), ("no", "1")))
    ]
    assert only([policy, chosen], ctx=Context(params=params)).status == "pass"
    params[1]["data"]["max"] = "3"
    assert only([policy, chosen], ctx=Context(params=params)).status == "fail"


def test_namespace_selector_reads_the_namespaces_labels():
    policy = vap()
    policy["spec"]["matchConstraints"]["namespaceSelector"] = {"matchLabels": {"env": "prod"}}
    prod = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a"}}
    prod["metadata"]["labels"] = {"env": "prod"}
    assert only([policy], ctx=Context(objects=[prod])).status == "fail"
    prod["metadata"]["labels"] = {"env": "dev"}
    assert only([policy], ctx=Context(objects=[prod])) is None


def test_a_binding_for_another_policy_does_not_bind_this_one():
    narrowing = binding(
        "someone-else", matchResources={"objectSelector": {"matchLabels": {"x": "y"}}}
    )
    assert only([vap(), narrowing]).status == "fail"  # evaluated as unbound
