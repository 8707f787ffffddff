"""GeneratingPolicy ``generate[].template``: the YAML form of what to create, with ``(( CEL ))``
placeholders spliced whole or written into strings, through the engine; its errors; and lint
KYV007 on its placeholders."""

from __future__ import annotations

from pathlib import Path

import pytest

from ciso.engines.kyverno.cel.gpol_template import Segment, scan
from ciso.engines.kyverno.engine import apply
from ciso.lint.model import Options
from ciso.lint.runner import lint_paths

NAMESPACE = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a"}}


def _policy(
    value: str, interpolate: str | None = "cel", resources: str = "namespaces", **metadata
) -> dict:
    template = {"value": value} | ({"interpolate": interpolate} if interpolate else {})
    return {
        "apiVersion": "policies.kyverno.io/v1beta1",
        "kind": "NamespacedGeneratingPolicy" if metadata.get("namespace") else "GeneratingPolicy",
        "metadata": {"name": "gen", **metadata},
        "spec": {
            "matchConstraints": {
                "resourceRules": [
                    {
                        "apiGroups": [""],
                        "apiVersions": ["v1"],
                        "operations": ["CREATE"],
                        "resources": [resources],
                    }
                ]
            },
            "variables": [
                {"name": "ns", "expression": "object.metadata.name"},
                {"name": "labels", "expression": '{"team": "platform", "tier": 2}'},
            ],
            "generate": [{"template": template}],
        },
    }


def _generated(policy: dict, trigger: dict = NAMESPACE) -> tuple[str, tuple, str]:
    [result] = apply([policy], [trigger])
    return result.status, result.generated, result.message


CONFIG_MAP = """apiVersion: v1
kind: ConfigMap
metadata:
  name: (( variables.ns ))-config
  namespace: (( variables.ns ))
  labels: (( variables.labels ))
data:
  replicas: "(( 1 + 2 ))"
  enabled: on-(( size(variables.ns) > 3 ))
  literal: \\(( not a placeholder ))
"""


def test_placeholders_splice_whole_values_and_write_into_strings():
    status, made, _ = _generated(_policy(CONFIG_MAP))
    assert status == "pass"
    assert made == (
        {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {
                "name": "team-a-config",
                "namespace": "team-a",
                # a whole-value placeholder keeps its type: a map, and the int inside it
                "labels": {"team": "platform", "tier": 2},
            },
            "data": {"replicas": 3, "enabled": "on-true", "literal": "(( not a placeholder ))"},
        },
    )


def test_without_interpolation_the_template_is_plain_yaml():
    status, made, _ = _generated(_policy(CONFIG_MAP, interpolate=None))
    assert status == "pass"
    assert made[0]["metadata"]["name"] == "(( variables.ns ))-config"
    assert made[0]["metadata"]["labels"] == "(( variables.labels ))"


def test_every_document_is_generated_in_its_own_namespace():
    value = (
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: x}\n---\n"
        "apiVersion: v1\nkind: Secret\nmetadata: {name: b, namespace: (( variables.ns ))}\n"
    )
    status, made, message = _generated(_policy(value))
    assert status == "pass"
    assert [(o["kind"], o["metadata"]["namespace"]) for o in made] == [
        ("ConfigMap", "x"),
        ("Secret", "team-a"),
    ]
    assert message == "created ConfigMap/a, Secret/b"


def test_a_namespaced_policy_fills_in_its_namespace_and_may_not_leave_it():
    trigger = {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": "s", "namespace": "team-a"},
    }
    inside = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"
    policy = _policy(inside, resources="secrets", namespace="team-a")
    status, made, _ = _generated(policy, trigger)
    assert status == "pass" and made[0]["metadata"]["namespace"] == "team-a"
    outside = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: other}\n"
    policy = _policy(outside, resources="secrets", namespace="team-a")
    status, made, message = _generated(policy, trigger)
    assert status == "error" and not made
    assert "cross-namespace generation denied" in message


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  (( variables.ns )): x\n", "mapping keys"),
        (
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: 'x-(( variables.labels ))'}\n",
            "inside a string must be a scalar, got dict",
        ),
        ("- a\n- b\n", "document 1 must be a mapping describing a resource"),
        ("", "at least one YAML document"),
        ("a: [\n", "failed to parse YAML"),
        ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: (( nope.x ))}\n", "placeholder"),
        ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: '(( size( ))'}\n", "unbalanced"),
        ("(( variables.ns ))", "expected a mapping describing a resource"),
        ("(( variables.labels ))", "needs objects with apiVersion and kind"),
    ],
)
def test_template_errors_name_the_field(value, problem):
    status, made, message = _generated(_policy(value))
    assert status == "error" and not made
    assert "spec.generate[0].template" in message and problem in message, message


@pytest.mark.parametrize(
    ("text", "segments"),
    [
        ("(( a ))", [Segment("a", True)]),
        ("x-(( f(g(1)) ))-y", [Segment("x-"), Segment("f(g(1))", True), Segment("-y")]),
        ("(( \"))\" + ')' ))", [Segment("\"))\" + ')'", True)]),
        ("\\(( a ))", [Segment("(( a ))")]),
    ],
)
def test_scan_respects_nesting_quotes_and_escapes(text, segments):
    assert scan(text) == segments


def test_lint_type_checks_placeholders_at_their_line(tmp_path: Path):
    policy = tmp_path / "policy.yaml"
    policy.write_text(
        """apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata: {name: t}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [namespaces]}]
  variables:
    - {name: ns, expression: object.metadata.name}
  generate:
    - template:
        interpolate: cel
        value: |
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: (( variables.ns ))
            namespace: (( variables.nope ))
          data:
            a: (( unclosed
"""
    )
    findings = [
        f for f in lint_paths([policy], Options(), progress=False).findings if f.rule.id == "KYV007"
    ]
    got = sorted((f.line, f.message.split(": ", 2)[-1][:40]) for f in findings)
    assert got == [
        (12, "'(( unclosed': unterminated placeholder "),
        (17, "CEL type error at 1:10: unknown variable"),
    ], got
