"""Mutating existing resources: classic ``mutate.targets`` and a MutatingPolicy's
``evaluation.mutateExisting`` with ``targetMatchConstraints``, through the engine, ``kyverno test``
(``targetResources``, ``patchedResources``, a result naming no kind) and ``kyverno apply
--target-resource``; each target's response asserted."""

from __future__ import annotations

import subprocess
from pathlib import Path

import yaml

from ciso.engines.kyverno.engine import Context, apply
from tests._support.cli import REPO
from tests.kyverno.kyverno_test_file import run_test

TRIGGER = {
    "apiVersion": "v1",
    "kind": "ConfigMap",
    "metadata": {"name": "dictionary-1", "namespace": "staging", "labels": {"team": "red"}},
    "data": {"k": "v"},
}


def _secret(name: str, namespace: str = "staging", **labels: str) -> dict:
    return {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": name, "namespace": namespace, "labels": dict(labels)},
        "type": "Opaque",
    }


def _classic(targets: list[dict], patch: dict | None = None, kind: str = "ClusterPolicy") -> dict:
    return {
        "apiVersion": "kyverno.io/v1",
        "kind": kind,
        "metadata": {"name": "label-secrets"}
        | ({"namespace": "staging"} if kind == "Policy" else {}),
        "spec": {
            "rules": [
                {
                    "name": "on-configmap",
                    "match": {"any": [{"resources": {"kinds": ["ConfigMap"]}}]},
                    "mutate": {
                        "targets": targets,
                        "patchStrategicMerge": patch
                        or {"metadata": {"labels": {"from": "{{ request.object.metadata.name }}"}}},
                    },
                }
            ]
        },
    }


def _responses(results) -> dict:
    return {(r.kind, r.namespace, r.name): (r.status, r.patched) for r in results}


def test_the_target_is_patched_and_the_trigger_left_alone():
    targets = [_secret("secret-1"), _secret("secret-2")]
    policy = _classic(
        [{"apiVersion": "v1", "kind": "Secret", "name": "secret-1", "namespace": "staging"}]
    )
    got = _responses(apply([policy], [TRIGGER], Context(targets=targets)))
    assert list(got) == [("Secret", "staging", "secret-1")]  # the response is the target's
    status, patched = got[("Secret", "staging", "secret-1")]
    assert status == "pass"
    assert patched["metadata"]["labels"] == {"from": "dictionary-1"}
    assert targets[0]["metadata"]["labels"] == {}  # the input is not modified


def test_wildcards_selectors_trigger_variables_target_binding_and_preconditions():
    targets = [
        _secret("app-a", tier="web"),
        _secret("app-b", tier="web", frozen="yes"),
        _secret("app-c", tier="db"),
        _secret("app-d", namespace="prod", tier="web"),
        _secret("other", tier="web"),
    ]
    entry = {
        "apiVersion": "v1",
        "kind": "Secret",
        "name": "app-*",
        "namespace": "{{ request.object.metadata.namespace }}",
        "selector": {"matchLabels": {"tier": "web"}},
        "preconditions": {
            "all": [
                {
                    "key": "{{ target.metadata.labels.frozen || '' }}",
                    "operator": "NotEquals",
                    "value": "yes",
                }
            ]
        },
    }
    patch = {
        "metadata": {
            "labels": {
                "seen": "{{ target.metadata.name }}-{{ request.object.metadata.labels.team }}"
            }
        }
    }
    got = _responses(apply([_classic([entry], patch)], [TRIGGER], Context(targets=targets)))
    assert {key: status for key, (status, _) in got.items()} == {
        ("Secret", "staging", "app-a"): "pass",
        ("Secret", "staging", "app-b"): "skip",  # its target preconditions do not hold
    }
    assert got[("Secret", "staging", "app-a")][1]["metadata"]["labels"]["seen"] == "app-a-red"


def test_no_target_found_gives_no_response_and_a_namespaced_policy_stays_home():
    entry = {"apiVersion": "v1", "kind": "Secret", "name": "secret-1", "namespace": "prod"}
    targets = [_secret("secret-1", namespace="prod"), _secret("secret-1")]
    assert (
        apply([_classic([{**entry, "name": "missing"}])], [TRIGGER], Context(targets=targets)) == []
    )
    # a Policy in "staging" finds targets in its own namespace whatever the entry says
    got = _responses(apply([_classic([entry], kind="Policy")], [TRIGGER], Context(targets=targets)))
    assert list(got) == [("Secret", "staging", "secret-1")]


def test_a_patch_that_fails_on_a_target_is_an_error_naming_the_rule():
    policy = _classic(
        [{"apiVersion": "v1", "kind": "Secret", "name": "secret-1"}],
        patch={"metadata": {"labels": {"x": "{{ target.nope.missing }}"}}},
    )
    [result] = apply([policy], [TRIGGER], Context(targets=[_secret("secret-1")]))
    assert (result.name, result.status) == ("secret-1", "error")
    assert "label-secrets" in result.message and "on-configmap" in result.message


def _kyverno_test(tmp_path: Path, policy: dict, patched: dict, result: dict) -> list[tuple]:
    fields = {
        "policies": ["policy.yaml"],
        "resources": ["trigger.yaml"],
        "targetResources": ["targets.yaml"],
        "results": [{"patchedResources": "patched.yaml", "result": "pass", **result}],
    }
    files = {
        "policy.yaml": policy,
        "trigger.yaml": TRIGGER,
        "targets.yaml": [_secret("secret-1"), _secret("secret-2")],
        "patched.yaml": patched,
    }
    outcome = run_test(tmp_path, fields, files)
    assert outcome.error is None
    return [(e.resource, e.actual, e.outcome, e.reason) for e in outcome.expectations]


def test_kyverno_test_checks_the_patched_target(tmp_path: Path):
    policy = _classic(
        [{"apiVersion": "v1", "kind": "Secret", "name": "secret-1", "namespace": "staging"}]
    )
    good = _secret("secret-1")
    good["metadata"]["labels"] = {"from": "dictionary-1"}
    entry = {
        "policy": "label-secrets",
        "rule": "on-configmap",
        "kind": "",
        "resources": ["secret-1"],
    }
    [(name, actual, outcome, _)] = _kyverno_test(tmp_path, policy, good, entry)
    assert (name, actual, outcome) == ("secret-1", "pass", "passed")
    wrong = _secret("secret-1")
    wrong["metadata"]["labels"] = {"from": "elsewhere"}
    [(_, _, outcome, reason)] = _kyverno_test(tmp_path, policy, wrong, entry)
    assert outcome == "failed" and "patched resource differs" in reason


MPOL = {
    "apiVersion": "policies.kyverno.io/v1beta1",
    "kind": "MutatingPolicy",
    "metadata": {"name": "label-configmaps"},
    "spec": {
        "evaluation": {"mutateExisting": {"enabled": True}},
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
        "targetMatchConstraints": {
            "resourceRules": [
                {
                    "apiGroups": [""],
                    "apiVersions": ["v1"],
                    "operations": ["UPDATE"],
                    "resources": ["configmaps"],
                }
            ]
        },
        "mutations": [
            {
                "patchType": "ApplyConfiguration",
                "applyConfiguration": {
                    "expression": "Object{metadata: Object.metadata{labels: Object.metadata.labels{by: request.name}}}"
                },
            }
        ],
    },
}
DEPLOYMENT = {
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {"name": "web", "namespace": "team"},
    "spec": {"template": {"spec": {"containers": [{"name": "c", "image": "nginx"}]}}},
}


def _config_map(name: str) -> dict:
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": name, "namespace": "team"},
    }


def test_mutating_policy_mutates_the_targets_its_target_constraints_select():
    targets = [_config_map("a"), _config_map("b"), _secret("s", namespace="team")]
    results = apply([MPOL], [DEPLOYMENT], Context(targets=targets))
    existing = {(r.kind, r.name): r for r in results if r.kind != "Deployment"}
    # operations do not matter for targets; the request is the trigger's
    assert set(existing) == {("ConfigMap", "a"), ("ConfigMap", "b")}
    assert all(
        r.status == "pass" and r.patched["metadata"]["labels"] == {"by": "web"}
        for r in existing.values()
    )
    # the trigger itself gets the policy's admission response, as the CLI gives it
    assert [(r.kind, r.name) for r in results if r.kind == "Deployment"] == [("Deployment", "web")]


def test_a_target_expression_selects_by_the_trigger():
    policy = yaml.safe_load(yaml.safe_dump(MPOL))
    policy["spec"]["targetMatchConstraints"] = {
        "expression": 'resource.Get("v1", "configmaps", object.metadata.namespace, "b")'
    }
    results = apply([policy], [DEPLOYMENT], Context(targets=[_config_map("a"), _config_map("b")]))
    assert sorted((r.kind, r.name, r.status) for r in results if r.kind == "ConfigMap") == [
        ("ConfigMap", "b", "pass")
    ]


def test_without_mutate_existing_targets_are_left_alone():
    policy = yaml.safe_load(yaml.safe_dump(MPOL))
    policy["spec"]["evaluation"] = {}
    results = apply([policy], [DEPLOYMENT], Context(targets=[_config_map("a")]))
    assert [r.kind for r in results] == ["Deployment"]


def test_kyverno_apply_takes_target_resources(tmp_path: Path):
    (tmp_path / "policy.yaml").write_text(
        yaml.safe_dump(_classic([{"apiVersion": "v1", "kind": "Secret", "name": "secret-1"}]))
    )
    (tmp_path / "trigger.yaml").write_text(yaml.safe_dump(TRIGGER))
    (tmp_path / "targets.yaml").write_text(yaml.safe_dump(_secret("secret-1")))
    command = [
        str(REPO / ".venv/bin/itbench"),
        "kyverno",
        "apply",
        "policy.yaml",
        "--resource",
        "trigger.yaml",
    ]
    run = subprocess.run(
        [*command, "--target-resource", "targets.yaml", "--format", "json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "Secret" in run.stdout and "secret-1" in run.stdout and '"pass"' in run.stdout
