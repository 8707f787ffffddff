"""KYV001 on a document of a Kyverno API group with a kind the group does not have: before, every
rule skipped it as "not a policy" and a misspelt ClusterPolicy linted clean (exit 0)."""

from __future__ import annotations

import json

import pytest

from tests._support.cli import run_cli


@pytest.mark.parametrize(
    ("api_version", "kind", "suggestion"),
    [
        ("kyverno.io/v1", "ClusterPolcy", "ClusterPolicy"),
        ("kyverno.io/v2", "PolicyExeption", "PolicyException"),
        ("policies.kyverno.io/v1alpha1", "ValidatingPolcy", "ValidatingPolicy"),
        ("policies.kyverno.io/v1", "NamespacedMutatingPolicies", "NamespacedMutatingPolicy"),
    ],
)
def test_a_misspelt_kyverno_kind_is_an_error_with_a_suggestion(
    tmp_path, api_version, kind, suggestion
):
    policy = tmp_path / "policy.yaml"
    policy.write_text(
        "# a policy\n"
        f"apiVersion: {api_version}\nkind: {kind}\nmetadata:\n  name: p\nspec:\n  rules: []\n"
    )
    proc = run_cli(["lint", "--format", "json", str(policy)])
    assert proc.returncode == 1, proc.stdout + proc.stderr
    findings = json.loads(proc.stdout)["findings"]
    (finding,) = [f for f in findings if f["severity"] == "error"]
    assert finding["rule"] == "KYV001" and finding["line"] == 3
    assert f"has no kind {kind!r} (did you mean {suggestion!r}?)" in finding["message"]


def test_every_kind_of_the_kyverno_groups_is_known(tmp_path):
    kinds = {
        "kyverno.io/v1": ["ClusterPolicy", "Policy", "ClusterCleanupPolicy", "UpdateRequest"],
        "kyverno.io/v2": ["PolicyException", "GlobalContextEntry", "CleanupPolicy"],
        "policies.kyverno.io/v1alpha1": [
            "ValidatingPolicy",
            "NamespacedValidatingPolicy",
            "MutatingPolicy",
            "GeneratingPolicy",
            "DeletingPolicy",
            "ImageValidatingPolicy",
            "PolicyException",
        ],
    }
    for api_version, names in kinds.items():
        for kind in names:
            path = tmp_path / f"{kind}.yaml"
            path.write_text(f"apiVersion: {api_version}\nkind: {kind}\nmetadata:\n  name: p\n")
            proc = run_cli(["lint", "--format", "json", str(path)])
            messages = [f["message"] for f in json.loads(proc.stdout)["findings"]]
            assert not any("has no kind" in m for m in messages), (kind, messages)
