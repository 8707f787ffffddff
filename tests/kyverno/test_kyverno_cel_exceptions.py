"""CEL PolicyExceptions (policies.kyverno.io) for ValidatingPolicy and MutatingPolicy: an
exception naming the policy (name and kind) whose matchConditions hold turns the verdict into
`skip`; another kind, another name or a false condition leaves it. Before, only
ImageValidatingPolicy honoured them (Kyverno's test/cli exceptions folders expected skip and got
fail or pass)."""

from __future__ import annotations

import copy

from ciso.engines.kyverno.engine import Context, apply

DEPLOYMENT = {
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {"name": "legacy", "namespace": "team-a", "labels": {}},
    "spec": {"template": {"spec": {"containers": [{"name": "c", "image": "nginx"}]}}},
}
RULES = {
    "resourceRules": [
        {
            "apiGroups": ["apps"],
            "apiVersions": ["v1"],
            "operations": ["CREATE", "UPDATE"],
            "resources": ["deployments"],
        }
    ]
}
VPOL = {
    "apiVersion": "policies.kyverno.io/v1alpha1",
    "kind": "ValidatingPolicy",
    "metadata": {"name": "require-team-label"},
    "spec": {
        "validationActions": ["Audit"],
        "matchConstraints": RULES,
        "validations": [{"expression": "'team' in object.metadata.labels", "message": "no team"}],
    },
}
MPOL = {
    "apiVersion": "policies.kyverno.io/v1alpha1",
    "kind": "MutatingPolicy",
    "metadata": {"name": "add-team-label"},
    "spec": {
        "matchConstraints": RULES,
        "mutations": [
            {
                "patchType": "JSONPatch",
                "jsonPatch": {
                    "expression": "[JSONPatch{op: 'add', path: '/metadata/labels/team', value: 'x'}]"
                },
            }
        ],
    },
}


def exception(kind: str, name: str, condition: str = "object.metadata.name == 'legacy'") -> dict:
    return {
        "apiVersion": "policies.kyverno.io/v1alpha1",
        "kind": "PolicyException",
        "metadata": {"name": "legacy-apps", "namespace": "team-a"},
        "spec": {
            "policyRefs": [{"name": name, "kind": kind}],
            "matchConditions": [{"name": "legacy", "expression": condition}],
        },
    }


def _status(policy: dict, exceptions: list[dict]) -> tuple[str, str]:
    results = apply([policy], [copy.deepcopy(DEPLOYMENT)], Context(exceptions=exceptions))
    own = [r for r in results if r.kind == "Deployment"]
    assert len(own) == 1, results
    return own[0].status, own[0].message


def test_a_validating_policy_is_skipped_where_an_exception_covers_the_resource():
    assert _status(VPOL, [])[0] == "fail"
    status, message = _status(VPOL, [exception("ValidatingPolicy", "require-team-label")])
    assert status == "skip"
    assert message == "rule is skipped due to policy exception: team-a/legacy-apps"


def test_a_mutating_policy_is_skipped_where_an_exception_covers_the_resource():
    assert _status(MPOL, [])[0] == "pass"
    assert _status(MPOL, [exception("MutatingPolicy", "add-team-label")])[0] == "skip"


def test_an_exception_for_another_kind_name_or_resource_changes_nothing():
    assert _status(VPOL, [exception("MutatingPolicy", "require-team-label")])[0] == "fail"
    assert _status(VPOL, [exception("ValidatingPolicy", "other")])[0] == "fail"
    other = exception("ValidatingPolicy", "require-team-label", "object.metadata.name == 'x'")
    assert _status(VPOL, [other])[0] == "fail"
