"""``itbench kyverno apply --values-file``: the Kyverno CLI values file's variables —
``globalValues``, ``policies[].resources[].values`` and ``policies[].rules[].values``, a
resource's winning over the global ones and a rule's over both (the CLI adds the rule's when the
rule's context loads, after the policy's) — substituted in the rules as the Kyverno CLI
substitutes them; a file of the wrong shape is a usage error naming the file,
the entry and the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tests._support.cli import run_cli

POLICY = {
    "apiVersion": "kyverno.io/v1",
    "kind": "ClusterPolicy",
    "metadata": {"name": "team-only"},
    "spec": {
        "background": True,
        "rules": [
            {
                "name": "allowed-team",
                "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
                "validate": {
                    "message": "team {{ request.object.metadata.labels.team }} is not allowed",
                    "deny": {
                        "conditions": {
                            "any": [
                                {
                                    "key": "{{ request.object.metadata.labels.team }}",
                                    "operator": "NotEquals",
                                    "value": "{{ allowedTeam }}",
                                }
                            ]
                        }
                    },
                },
            }
        ],
    },
}


def _pod(name: str, team: str) -> dict:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": "shop", "labels": {"team": team}},
        "spec": {"containers": [{"name": "c", "image": "nginx"}]},
    }


PODS = [_pod("pod-a", "a"), _pod("pod-b", "b"), _pod("pod-c", "c")]


def _apply(tmp_path: Path, values: object, *extra: str):  # type: ignore[no-untyped-def]  # a CompletedProcess
    (tmp_path / "policy.yaml").write_text(yaml.safe_dump(POLICY))
    (tmp_path / "pods.yaml").write_text(yaml.safe_dump_all(PODS))
    (tmp_path / "values.yaml").write_text(
        values if isinstance(values, str) else yaml.safe_dump(values)
    )
    return run_cli(
        ["kyverno", "apply", str(tmp_path / "policy.yaml"), "--resource",
         str(tmp_path / "pods.yaml"), "--values-file", str(tmp_path / "values.yaml"),
         "--format", "json", *extra]
    )  # fmt: skip


GLOBAL = {"globalValues": {"allowedTeam": "a"}}
RULE = {
    **GLOBAL,
    "policies": [{"name": "team-only", "rules": [{"name": "allowed-team",
                                                  "values": {"allowedTeam": "b"}}]}],
}  # fmt: skip
RESOURCE = {
    **GLOBAL,
    "policies": [
        {
            "name": "team-only",
            "rules": [{"name": "allowed-team", "values": {"allowedTeam": "b"}}],
            "resources": [{"name": "pod-c", "values": {"allowedTeam": "c"}}],
        }
    ],
}
RESOURCE_ONLY = {
    **GLOBAL,
    "policies": [{"name": "team-only", "resources": [{"name": "pod-c",
                                                      "values": {"allowedTeam": "c"}}]}],
}  # fmt: skip
OTHER_POLICY = {
    **GLOBAL,
    "policies": [
        {
            "name": "another-policy",
            "rules": [{"name": "allowed-team", "values": {"allowedTeam": "b"}}],
            "resources": [{"name": "pod-c", "values": {"allowedTeam": "c"}}],
        }
    ],
}


@pytest.mark.parametrize(
    ("values", "want"),
    [
        (GLOBAL, {"pod-a": "pass", "pod-b": "fail", "pod-c": "fail"}),
        (RULE, {"pod-a": "fail", "pod-b": "pass", "pod-c": "fail"}),
        (RESOURCE_ONLY, {"pod-a": "pass", "pod-b": "fail", "pod-c": "pass"}),
        (RESOURCE, {"pod-a": "fail", "pod-b": "pass", "pod-c": "fail"}),
        (OTHER_POLICY, {"pod-a": "pass", "pod-b": "fail", "pod-c": "fail"}),
    ],
    ids=[
        "global",
        "rule-over-global",
        "resource-over-global",
        "rule-over-resource",
        "another-policys-values",
    ],  # fmt: skip
)
@pytest.mark.parametrize("report", [False, True], ids=["results", "policy-report"])
def test_values_substitute_variables_with_kyvernos_precedence(
    tmp_path: Path, values: dict, want: dict, report: bool
) -> None:
    proc = _apply(tmp_path, values, *(["--policy-report"] if report else []))
    assert proc.returncode == 1, proc.stderr
    document = json.loads(proc.stdout)
    if report:
        got = {item["scope"]["name"]: r["result"] for item in document for r in item["results"]}
    else:
        got = {r["name"]: r["status"] for r in document}
    assert got == want


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ("globalValues: [a]\n", "globalValues: a mapping, not a list"),
        ("policies: {team-only: {}}\n", "policies: a list, not a dict"),
        ("policies: [{rules: []}]\n", "policies[0].name: a non-empty string, not None"),
        (
            "policies: [{name: team-only, rules: [{name: allowed-team, values: [x]}]}]\n",
            "policies[0] (team-only).rules[0] (allowed-team).values: a mapping, not a list",
        ),
        (
            "policies: [{name: team-only, resources: [{name: pod-c, values: 3}]}]\n",
            "policies[0] (team-only).resources[0] (pod-c).values: a mapping, not a int",
        ),
        (
            "policies: [{name: team-only, resources: [pod-c]}]\n",
            "policies[0] (team-only).resources[0]: a mapping, not 'pod-c'",
        ),
        (
            "namespaceSelector: [{name: dev, labels: [x]}]\n",
            "namespaceSelector[0] (dev).labels: a mapping, not a list",
        ),
        ("[1, 2]\n", "a values file is a mapping, not a list"),
    ],  # fmt: skip
)
def test_a_values_file_of_the_wrong_shape_is_a_usage_error_naming_the_field(
    tmp_path: Path, values: str, message: str
) -> None:
    proc = _apply(tmp_path, values)
    assert proc.returncode == 2, proc.stderr
    assert f"values.yaml: {message}" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""
