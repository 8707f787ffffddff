"""Kyverno ValidatingPolicy: matchConstraints, autogen for pod controllers, matchConditions,
variables, validations and their messages, auditAnnotations, the ruleless responses ``kyverno
test`` reads, and Kyverno's own CEL libraries (resource, image, http, globalContext, time, user)
and sets, each against a fixture."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from ciso.engines.kyverno.cel import autogen, matching
from ciso.engines.kyverno.cel.libraries.environment import Environment, using
from ciso.engines.kyverno.cel.program import CelError, evaluate
from ciso.engines.kyverno.cel.syntax import rewrite_optional_syntax
from ciso.engines.kyverno.engine import Context, apply
from ciso.engines.kyverno.testrunner import run_test_file

POD = {
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {"name": "web", "namespace": "team-a", "labels": {"app": "web"}},
    "spec": {"containers": [{"name": "nginx", "image": "registry.io/nginx:1.25"}]},
}
HOST_NETWORK_POD = copy.deepcopy(POD) | {"metadata": {"name": "bad", "namespace": "team-a"}}
HOST_NETWORK_POD["spec"] = {**POD["spec"], "hostNetwork": True}
DEPLOYMENT = {
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {"name": "deploy", "namespace": "team-a"},
    "spec": {"template": {"metadata": {"labels": {"app": "x"}}, "spec": HOST_NETWORK_POD["spec"]}},
}
CRONJOB = {
    "apiVersion": "batch/v1",
    "kind": "CronJob",
    "metadata": {"name": "cron", "namespace": "team-a"},
    "spec": {"jobTemplate": {"spec": {"template": {"spec": POD["spec"]}}}},
}
SERVICE = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "svc", "namespace": "a"}}


def policy(**spec_fields) -> dict:
    spec = {
        "validationActions": ["Audit"],
        "matchConstraints": {
            "resourceRules": [
                {
                    "apiGroups": [""],
                    "apiVersions": ["v1"],
                    "operations": ["CREATE", "UPDATE"],
                    "resources": ["pods"],
                }
            ]
        },
        "validations": [
            {
                "expression": "!object.spec.?hostNetwork.orValue(false)",
                "message": "host network is not allowed",
            }
        ],
    }
    spec.update(spec_fields)
    return {
        "apiVersion": "policies.kyverno.io/v1alpha1",
        "kind": "ValidatingPolicy",
        "metadata": {"name": "no-host-network"},
        "spec": spec,
    }


def statuses(results) -> dict[str, tuple[str, str]]:
    return {r.name: (r.status, r.message) for r in results}


# -- matching ---------------------------------------------------------------------------------


def test_only_matched_resources_get_a_response_with_an_empty_rule_name():
    results = apply([policy()], [POD, HOST_NETWORK_POD, SERVICE])
    assert statuses(results) == {
        "web": ("pass", "success"),
        "bad": ("fail", "host network is not allowed"),
    }
    assert {r.rule for r in results} == {""} and {r.policy for r in results} == {"no-host-network"}


@pytest.mark.parametrize(
    ("constraints", "matched"),
    [
        (
            {
                "resourceRules": [
                    {
                        "apiGroups": ["*"],
                        "apiVersions": ["*"],
                        "operations": ["*"],
                        "resources": ["*"],
                    }
                ]
            },
            True,
        ),
        (
            {
                "resourceRules": [
                    {
                        "apiGroups": [""],
                        "apiVersions": ["v1"],
                        "operations": ["UPDATE"],
                        "resources": ["pods"],
                    }
                ]
            },
            False,
        ),  # the CLI's request is a CREATE
        (
            {
                "resourceRules": [
                    {
                        "apiGroups": [""],
                        "apiVersions": ["v1"],
                        "operations": ["CREATE"],
                        "resources": ["pods/status"],
                    }
                ]
            },
            False,
        ),  # a subresource
        (
            {
                "resourceRules": [
                    {
                        "apiGroups": [""],
                        "apiVersions": ["v1"],
                        "operations": ["CREATE"],
                        "resources": ["pods"],
                        "resourceNames": ["other"],
                    }
                ]
            },
            False,
        ),
        (
            {
                "resourceRules": [
                    {
                        "apiGroups": [""],
                        "apiVersions": ["v1"],
                        "operations": ["CREATE"],
                        "resources": ["pods"],
                        "scope": "Cluster",
                    }
                ]
            },
            False,
        ),
        (
            {
                "resourceRules": [
                    {
                        "apiGroups": ["*"],
                        "apiVersions": ["*"],
                        "operations": ["*"],
                        "resources": ["*"],
                    }
                ],
                "excludeResourceRules": [
                    {"apiGroups": [""], "apiVersions": ["*"], "resources": ["pods"]}
                ],
            },
            False,
        ),
        (
            {
                "resourceRules": [
                    {
                        "apiGroups": [""],
                        "apiVersions": ["v1"],
                        "operations": ["CREATE"],
                        "resources": ["pods"],
                    }
                ],
                "objectSelector": {"matchLabels": {"app": "web"}},
            },
            True,
        ),
        (
            {
                "resourceRules": [
                    {
                        "apiGroups": [""],
                        "apiVersions": ["v1"],
                        "operations": ["CREATE"],
                        "resources": ["pods"],
                    }
                ],
                "objectSelector": {
                    "matchExpressions": [{"key": "app", "operator": "NotIn", "values": ["web"]}]
                },
            },
            False,
        ),
        (
            {
                "resourceRules": [
                    {
                        "apiGroups": [""],
                        "apiVersions": ["v1"],
                        "operations": ["CREATE"],
                        "resources": ["pods"],
                    }
                ],
                "namespaceSelector": {"matchLabels": {"env": "prod"}},
            },
            True,
        ),
        (
            {
                "resourceRules": [
                    {
                        "apiGroups": [""],
                        "apiVersions": ["v1"],
                        "operations": ["CREATE"],
                        "resources": ["pods"],
                    }
                ],
                "namespaceSelector": {"matchLabels": {"env": "dev"}},
            },
            False,
        ),
        (None, False),  # no constraints match nothing
    ],
)
def test_match_constraints(constraints, matched):
    request = matching.admission_of(POD, "CREATE", {"env": "prod"})
    assert matching.matches(constraints, request) is matched


def test_plural_names_come_from_known_kinds_then_english():
    assert matching.plural_of("NetworkPolicy") == "networkpolicies"
    assert matching.plural_of("Ingress") == "ingresses"
    assert matching.plural_of("Widget") == "widgets"


# -- autogen ----------------------------------------------------------------------------------


def test_a_pod_policy_also_checks_controllers_through_the_pod_template():
    results = apply([policy()], [DEPLOYMENT, CRONJOB])
    assert statuses(results) == {
        "deploy": ("fail", "host network is not allowed"),
        "cron": ("pass", "success"),
    }


def test_autogen_keeps_the_controllers_own_namespace_and_honours_the_controller_list():
    spec = policy(
        validations=[{"expression": "object.metadata.namespace == 'team-a' && object.spec.x"}]
    )["spec"]
    found = {v.name: v for v in autogen.variants(spec)}
    assert set(found) == {"cronjobs", "defaults"}
    assert found["defaults"].spec["validations"][0]["expression"] == (
        "object.metadata.namespace == 'team-a' && object.spec.template.spec.x"
    )
    assert found["cronjobs"].kinds == ("CronJob",)
    only = dict(spec, autogen={"podControllers": {"controllers": ["deployments"]}})
    [variant] = autogen.variants(only)
    assert variant.kinds == ("Deployment",)
    assert apply([policy(autogen={"podControllers": {"controllers": []}})], [DEPLOYMENT]) == []


def test_no_autogen_when_the_policy_matches_more_than_pods():
    spec = policy()["spec"]
    spec["matchConstraints"]["resourceRules"][0]["resources"] = ["pods", "services"]
    assert autogen.variants(spec) == []
    spec = policy(
        matchConstraints={
            **policy()["spec"]["matchConstraints"],
            "objectSelector": {"matchLabels": {"a": "b"}},
        }
    )["spec"]
    assert autogen.variants(spec) == []


# -- evaluation -------------------------------------------------------------------------------


def test_match_conditions_skip_and_their_errors_follow_the_failure_policy():
    false = [{"name": "not-web", "expression": "object.metadata.name != 'web'"}]
    assert statuses(apply([policy(matchConditions=false)], [POD])) == {
        "web": ("skip", "skip: match conditions not met")
    }
    broken = [{"name": "broken", "expression": "object.metadata.nope == 1"}]
    [result] = apply([policy(matchConditions=broken)], [POD])
    assert result.status == "error" and "spec.matchConditions[0]" in result.message
    assert apply([policy(matchConditions=broken, failurePolicy="Ignore")], [POD])[0].status == (
        "skip"
    )


def test_variables_message_expression_and_the_default_message():
    spec = {
        "variables": [
            {"name": "names", "expression": "object.spec.containers.map(c, c.name)"},
            {"name": "count", "expression": "size(variables.names)"},
        ],
        "validations": [
            {"expression": "variables.count > 0"},
            {
                "expression": "variables.count > 1",
                "messageExpression": "'only ' + variables.names.join(', ')",
                "message": "static",
            },
        ],
    }
    assert statuses(apply([policy(**spec)], [POD])) == {"web": ("fail", "only nginx")}
    spec["validations"][1] = {"expression": "false"}
    assert statuses(apply([policy(**spec)], [POD]))["web"] == (
        "fail",
        "CEL expression validation failed at index 1",
    )
    spec["validations"][1] = {"expression": "false", "messageExpression": "object.nope"}
    status, message = statuses(apply([policy(**spec)], [POD]))["web"]
    assert status == "fail" and message.startswith("failed to evaluate message expression")


def test_a_non_bool_or_failing_validation_is_an_error_naming_the_field():
    [result] = apply([policy(validations=[{"expression": "object.metadata.name"}])], [POD])
    assert result.status == "error" and "spec.validations[0].expression" in result.message
    [result] = apply(
        [
            policy(
                validations=[{"expression": "variables.broken == 1"}],
                variables=[{"name": "broken", "expression": "object.nope"}],
            )
        ],
        [POD],
    )
    assert result.status == "error" and "variable 'broken' failed" in result.message


def test_audit_annotations_that_fail_make_an_error():
    ok = [{"key": "who", "valueExpression": "object.metadata.name"}]
    assert apply([policy(auditAnnotations=ok)], [POD])[0].status == "pass"
    bad = [{"key": "who", "valueExpression": "object.nope"}]
    assert apply([policy(auditAnnotations=bad)], [POD])[0].status == "error"


def test_namespace_object_comes_from_the_values_namespaces():
    spec = {
        "validations": [
            {"expression": "namespaceObject.metadata.?labels.?env.orValue('') == 'prod'"}
        ]
    }
    ctx = Context()
    ctx.cel_context = {
        "namespaces": [
            {
                "apiVersion": "v1",
                "kind": "Namespace",
                "metadata": {"name": "team-a", "labels": {"env": "prod"}},
            }
        ]
    }
    assert apply([policy(**spec)], [POD], ctx)[0].status == "pass"
    assert apply([policy(**spec)], [POD])[0].status == "fail"


def test_a_namespaced_validating_policy_sees_only_its_namespace():
    p = policy() | {
        "kind": "NamespacedValidatingPolicy",
        "metadata": {"name": "ns-pol", "namespace": "other"},
    }
    assert apply([p], [HOST_NETWORK_POD]) == []
    p["metadata"]["namespace"] = "team-a"
    assert statuses(apply([p], [HOST_NETWORK_POD]))["bad"][0] == "fail"


# -- Kyverno's libraries, each against its fixture ------------------------------------------

CONFIGMAP = {
    "apiVersion": "v1",
    "kind": "ConfigMap",
    "metadata": {"name": "registries", "namespace": "default"},
    "data": {"allowed": "registry.io"},
}
ENV = Environment(
    objects=(CONFIGMAP,),
    images={
        "registry.io/nginx:1.25": {
            "image": "registry.io/nginx:1.25",
            "config": {"created": "2020-01-01T00:00:00Z"},
        }
    },
    global_context={"clusters": {"names": ["a", "b"]}},
    http={
        "GET:https://api.example/ok": (200, {"allowed": True}),
        "https://api.example/down": (503, None),
    },
)


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ('resource.Get("v1", "configmaps", "default", "registries").data.allowed', "registry.io"),
        ('size(resource.List("v1", "configmaps", "default").items)', 1),
        ('size(resource.List("v1", "configmaps", "elsewhere").items)', 0),
        ('image.GetMetadata("registry.io/nginx:1.25").config.created', "2020-01-01T00:00:00Z"),
        ('globalContext.Get("clusters", "names")', ["a", "b"]),
        ('globalContext.Get("unknown", "")', None),
        ('http.Get("https://api.example/ok").body.allowed', True),
        ('http.Get("https://api.example/ok").statusCode', 200),
        ('http.Post("https://api.example/down", {}).statusCode', 503),
        ('time.now() > timestamp("2020-01-01T00:00:00Z")', True),
        ("parseServiceAccount('system:serviceaccount:ns:sa').Name", "sa"),
        ("parseServiceAccount('alice').Namespace", ""),
        ("sets.contains([1, 2, 3], [1, 3])", True),
        ("sets.contains([1, 2], [4])", False),
        ("sets.equivalent([1, 2, 2], [2, 1])", True),
        ("sets.intersects([1, 2], [3, 2])", True),
    ],
)
def test_kyverno_libraries_answer_from_the_environment(source, value):
    with using(ENV):
        assert evaluate(source, {}) == value


@pytest.mark.parametrize(
    ("source", "problem"),
    [
        ('resource.Get("v1", "configmaps", "default", "missing")', "not found"),
        ('resource.List("v1", "secrets", "default")', "resource not found"),
        ('image.GetMetadata("docker.io/unknown")', "not found in the context"),
        ('http.Get("https://elsewhere")', "no mocked response"),
        ('globalContext.Get("clusters", "nope")', "projection"),
    ],
)
def test_kyverno_libraries_fail_clearly_on_what_the_environment_lacks(source, problem):
    with using(ENV), pytest.raises(CelError, match=problem):
        evaluate(source, {})


def test_namespaced_calls_are_rewritten_but_variables_of_the_same_name_are_not():
    assert rewrite_optional_syntax('resource.Get("v1", "x", "", "n")') == (
        '_resource_Get("v1", "x", "", "n")'
    )
    assert rewrite_optional_syntax("ips.all(ip, ip.startsWith('10.'))") == (
        "ips.all(ip, ip.startsWith('10.'))"
    )
    assert rewrite_optional_syntax("object.image.GetMetadata(x)") == "object.image.GetMetadata(x)"


# -- kyverno test -----------------------------------------------------------------------------


def _write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder / "kyverno-test.yaml"


VPOL_YAML = """apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata: {name: registries}
spec:
  validationActions: [Deny]
  matchConstraints:
    resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
  variables:
    - name: allowed
      expression: resource.Get("v1", "configmaps", "default", "registries").data.allowed
  validations:
    - expression: object.spec.containers.all(c, c.image.startsWith(variables.allowed))
      messageExpression: "'images must come from ' + variables.allowed"
"""
RESOURCES_YAML = """apiVersion: v1
kind: Pod
metadata: {name: good}
spec: {containers: [{name: c, image: registry.io/nginx}]}
---
apiVersion: v1
kind: Pod
metadata: {name: bad}
spec: {containers: [{name: c, image: docker.io/nginx}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: bad-deploy}
spec: {template: {spec: {containers: [{name: c, image: docker.io/nginx}]}}}
"""
CONTEXT_YAML = """apiVersion: cli.kyverno.io/v1alpha1
kind: Context
metadata: {name: context}
spec:
  resources:
    - apiVersion: v1
      kind: ConfigMap
      metadata: {name: registries, namespace: default}
      data: {allowed: registry.io}
"""
TEST_YAML = """apiVersion: cli.kyverno.io/v1alpha1
kind: Test
metadata: {name: t}
policies: [policy.yaml]
resources: [resources.yaml]
context: context.yaml
results:
  - {isValidatingPolicy: true, policy: registries, kind: Pod, resources: [good], result: pass}
  - {isValidatingPolicy: true, policy: registries, rule: ignored, kind: Pod, resources: [bad],
     result: fail}
  - {isValidatingPolicy: true, policy: registries, kind: Deployment, resources: [bad-deploy],
     result: fail}
"""


def test_kyverno_test_evaluates_a_validating_policy_with_its_context_file(tmp_path):
    test = _write(
        tmp_path / "t",
        {
            "policy.yaml": VPOL_YAML,
            "resources.yaml": RESOURCES_YAML,
            "context.yaml": CONTEXT_YAML,
            "kyverno-test.yaml": TEST_YAML,
        },
    )
    outcome = run_test_file(test)
    assert outcome.error is None
    got = {(e.resource, e.actual, e.outcome) for e in outcome.expectations}
    assert got == {
        ("good", "pass", "passed"),
        ("bad", "fail", "passed"),
        ("bad-deploy", "fail", "passed"),
    }


def test_without_the_context_file_the_lookup_is_an_error_not_a_pass(tmp_path):
    test = _write(
        tmp_path / "t",
        {
            "policy.yaml": VPOL_YAML,
            "resources.yaml": RESOURCES_YAML,
            "kyverno-test.yaml": TEST_YAML.replace("context: context.yaml\n", ""),
        },
    )
    outcome = run_test_file(test)
    assert {e.outcome for e in outcome.expectations} == {"errors"}
    assert all("not found" in e.reason for e in outcome.expectations)


def test_a_context_file_without_spec_is_an_error_naming_the_file(tmp_path):
    test = _write(
        tmp_path / "t",
        {
            "policy.yaml": VPOL_YAML,
            "resources.yaml": RESOURCES_YAML,
            "context.yaml": "kind: Context\n",
            "kyverno-test.yaml": TEST_YAML,
        },
    )
    outcome = run_test_file(test)
    assert outcome.error is not None and "context.yaml" in outcome.error and "spec" in outcome.error
