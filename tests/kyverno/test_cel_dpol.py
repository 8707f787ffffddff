"""DeletingPolicy (cel/dpol.py) as the Kyverno CLI evaluates one: through `kyverno test` on our
fixtures (conditions, variables, objectSelector, namespaceObject from the values file, the
resource library from the context file, JSON payloads), and each rule on its own through the
engine: the response's name and type, widened operations, errors, clusterResources, lint."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from ciso.engines.kyverno.cel import dpol
from ciso.engines.kyverno.cel.program import CelError, evaluate
from ciso.engines.kyverno.cel.syntax import rewrite_bind
from ciso.engines.kyverno.engine import Context, apply
from ciso.engines.kyverno.testrunner import run_test_file
from ciso.lint.model import Options
from ciso.lint.runner import lint_paths

FIXTURE = Path(__file__).parent / "fixtures" / "dpol"

POD = {
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {"name": "batch-7", "namespace": "jobs", "labels": {"team": "data"}},
    "spec": {"containers": [{"name": "c", "image": "busybox"}]},
}


def policy(*conditions: str, **spec) -> dict:
    return {
        "apiVersion": "policies.kyverno.io/v1beta1",
        "kind": "DeletingPolicy",
        "metadata": {"name": "reap"},
        "spec": {
            "schedule": "*/5 * * * *",
            "matchConstraints": {
                "resourceRules": [
                    {
                        "apiGroups": [""],
                        "apiVersions": ["v1"],
                        "operations": ["CREATE"],
                        "resources": ["pods"],
                    }
                ]
            },
            "conditions": [
                {"name": f"c{i}", "expression": text} for i, text in enumerate(conditions)
            ],
            **spec,
        },
    }


def outcomes(file: str) -> dict[tuple[str, str], tuple[str, str | None]]:
    result = run_test_file(FIXTURE / file)
    assert result.error is None, result.error
    return {(e.policy, e.resource): (e.outcome, e.actual) for e in result.expectations}


def test_kyverno_test_fixture_agrees_per_expectation():
    assert outcomes("kyverno-test.yaml") == {
        # conditions and variables all true
        ("expire-scratch-configmaps", "build/tmp-render-cache"): ("passed", "pass"),
        # the owner variable is empty: a condition is false
        ("expire-scratch-configmaps", "tmp-orphaned"): ("passed", "fail"),
        # outside the objectSelector: no response at all
        ("expire-scratch-configmaps", "tmp-pinned"): ("passed", None),
        # namespaceObject from the values file's namespaces
        ("clean-sandbox-pods", "sandbox/try-me"): ("passed", "pass"),
        ("clean-sandbox-pods", "shop/checkout"): ("passed", "fail"),
        # a namespace the values do not declare: namespaceObject is null
        ("clean-sandbox-pods", "nowhere/stray"): ("passed", "fail"),
        # resource.get from the context file (inside cel.bind)
        ("retire-switched-off-workers", "indexer"): ("passed", "pass"),
        ("retire-switched-off-workers", "mailer"): ("passed", "fail"),
    }


def test_json_payloads_are_judged_by_their_file_name():
    assert outcomes("json/kyverno-test.yaml") == {
        ("stale-linux-builds", "build.json"): ("passed", "pass"),
        ("stale-windows-builds", "build.json"): ("passed", "fail"),
    }


def test_the_response_is_named_after_the_policy_with_type_deletion():
    [result] = apply([policy("object.metadata.namespace == 'jobs'")], [POD], Context())
    assert (result.policy, result.rule, result.rule_type) == ("reap", "reap", "Deletion")
    assert (result.status, result.message) == ("pass", "resource matched")
    [result] = apply([policy("object.metadata.name == 'other'")], [POD], Context())
    assert (result.status, result.message) == ("fail", "resource did not match")


def test_operations_are_widened_but_resources_and_selectors_still_match():
    # the rule lists CREATE only; the CLI matches a deleting policy whatever the operation
    assert [r.status for r in apply([policy()], [POD], Context(operation="UPDATE"))] == ["pass"]
    secret = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "namespace": "x"}}
    assert apply([policy()], [secret], Context()) == []
    selected = policy()
    selected["spec"]["matchConstraints"]["objectSelector"] = {"matchLabels": {"team": "web"}}
    assert apply([selected], [POD], Context()) == []
    no_constraints = policy()
    del no_constraints["spec"]["matchConstraints"]
    assert apply([no_constraints], [POD], Context()) == []


def test_namespace_selector_reads_the_values_namespaces():
    scoped = policy()
    scoped["spec"]["matchConstraints"]["namespaceSelector"] = {"matchLabels": {"purge": "yes"}}
    ctx = Context()
    ctx.cel_context = {
        "namespaces": [
            {"kind": "namespace", "metadata": {"name": "jobs", "labels": {"purge": "yes"}}}
        ]
    }
    assert [r.status for r in apply([scoped], [POD], ctx)] == ["pass"]
    assert apply([scoped], [POD], Context()) == []


def test_a_false_condition_wins_over_an_earlier_error():
    [result] = apply([policy("object.nope.deeper == 1", "false")], [POD], Context())
    assert result.status == "fail"
    [result] = apply([policy("object.nope.deeper == 1", "true")], [POD], Context())
    assert result.status == "error"
    assert result.message.startswith("spec.conditions[0].expression:")
    [result] = apply([policy("'not a bool'")], [POD], Context())
    assert result.status == "error" and "expected a bool" in result.message


def test_variables_and_no_admission_request():
    with_vars = policy(
        "variables.team == 'data'",
        variables=[{"name": "team", "expression": "object.metadata.labels.team"}],
    )
    assert [r.status for r in apply([with_vars], [POD], Context())] == ["pass"]
    # a deleting policy is not an admission check: there is no request to read
    [result] = apply([policy("request.operation == 'CREATE'")], [POD], Context())
    assert result.status == "error"


def test_resource_lookup_missing_is_an_error_not_a_pass():
    lookup = policy("resource.get('v1', 'configmaps', 'jobs', 'switch').data.on == 'yes'")
    [result] = apply([lookup], [POD], Context())
    assert result.status == "error" and "not found" in result.message
    ctx = Context()
    switch = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "switch", "namespace": "jobs"},
        "data": {"on": "yes"},
    }
    ctx.cel_context = {"resources": [switch]}
    assert [r.status for r in apply([lookup], [POD], ctx)] == ["pass"]


def test_cluster_resources_answer_resource_lookups(tmp_path):
    (tmp_path / "policy.yaml").write_text(
        """apiVersion: policies.kyverno.io/v1beta1
kind: DeletingPolicy
metadata: {name: reap-when-flagged}
spec:
  schedule: "0 * * * *"
  matchConstraints:
    resourceRules:
      - {apiGroups: [""], apiVersions: [v1], resources: [pods]}
  conditions:
    - name: flagged
      expression: resource.List("v1", "configmaps", "jobs").items.exists(c, c.metadata.name == "reap")
"""
    )
    (tmp_path / "pod.yaml").write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: jobs}\n"
        "spec: {containers: [{name: c, image: busybox}]}\n"
    )
    (tmp_path / "cluster.yaml").write_text(
        """apiVersion: cli.kyverno.io/v1alpha1
kind: ClusterResource
metadata: {name: cluster}
spec:
  resources:
    - {apiVersion: v1, kind: ConfigMap, metadata: {name: reap, namespace: jobs}}
"""
    )
    test = """apiVersion: cli.kyverno.io/v1alpha1
kind: Test
metadata: {name: t}
policies: [policy.yaml]
resources: [pod.yaml]
{cluster}results:
  - {isDeletingPolicy: true, policy: reap-when-flagged, kind: Pod, resources: [p], result: pass}
"""
    (tmp_path / "kyverno-test.yaml").write_text(
        test.replace("{cluster}", "clusterResources: [cluster.yaml]\n")
    )
    [seen] = run_test_file(tmp_path / "kyverno-test.yaml").expectations
    assert (seen.outcome, seen.actual) == ("passed", "pass")
    # without the cluster resources the list has no ConfigMaps: an error, never a pass
    (tmp_path / "kyverno-test.yaml").write_text(test.replace("{cluster}", ""))
    [seen] = run_test_file(tmp_path / "kyverno-test.yaml").expectations
    assert (seen.outcome, seen.actual) == ("errors", "error")


def test_a_bad_json_payload_names_its_file(tmp_path):
    (tmp_path / "payload.json").write_text("[1, 2]")
    (tmp_path / "kyverno-test.yaml").write_text(
        "apiVersion: cli.kyverno.io/v1alpha1\nkind: Test\nmetadata: {name: t}\n"
        "policies: []\njsonPayloads: [payload.json]\nresults: []\n"
    )
    result = run_test_file(tmp_path / "kyverno-test.yaml")
    assert result.error is not None and "payload.json" in result.error
    assert "one non-empty object" in result.error


def test_structure_problems_name_the_field():
    broken = copy.deepcopy(policy("true"))
    del broken["spec"]["schedule"]
    broken["spec"]["conditions"] = [{"name": "x"}]
    broken["spec"]["deletionPropagationPolicy"] = "Eventually"
    assert dpol.check_structure(broken) == [
        "spec.schedule: required (a cron expression)",
        "spec.conditions[0].expression: required",
        "spec.deletionPropagationPolicy: must be Orphan, Background or Foreground",
    ]
    assert dpol.check_structure(policy("true")) == []


def test_lint_reports_a_missing_schedule_and_a_bad_condition(tmp_path):
    path = tmp_path / "dpol.yaml"
    path.write_text(
        """apiVersion: policies.kyverno.io/v1beta1
kind: DeletingPolicy
metadata:
  name: no-schedule
spec:
  conditions:
    - name: c
      expression: "object.metadata.name =="
"""
    )
    run = lint_paths([path], Options(), enable=["KYV007"], progress=False)
    errors = sorted(f.message for f in run.findings if f.level == "error")
    assert len(errors) == 2, errors
    assert errors[0].startswith(
        "DeletingPolicy no-schedule: spec.conditions[0].expression: CEL syntax error at 1:"
    )
    assert errors[1] == "DeletingPolicy no-schedule: spec.schedule is missing"


@pytest.mark.parametrize("kind", ["DeletingPolicy", "NamespacedDeletingPolicy"])
def test_both_kinds_are_evaluated(kind):
    doc = policy("true")
    doc["kind"] = kind
    doc["metadata"]["namespace"] = "elsewhere"
    # the CLI's deleting engine does not narrow a namespaced policy to its namespace
    assert [r.status for r in apply([doc], [POD], Context())] == ["pass"]


def test_cel_bind_is_rewritten_to_a_one_element_map():
    assert rewrite_bind("cel.bind(x, a.b, x + 1) > 2") == "[ a.b].map(x, x + 1)[0] > 2"
    # a string that merely mentions it is left alone
    assert rewrite_bind("'cel.bind(x, 1, x)' != ''") == "'cel.bind(x, 1, x)' != ''"
    assert evaluate("cel.bind(a, [1, 2], cel.bind(n, a.size(), n + a[1]))", {}) == 4
    assert evaluate("cel.bind(m, {'k': (1)}, m.k == 1) && true", {}) is True
    with pytest.raises(CelError, match="cel.bind takes a name, a value and a body"):
        evaluate("cel.bind(x, 1)", {})
