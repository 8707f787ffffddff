"""``namespaceSelector`` in match and exclude, decided on the labels of the object's Namespace:
in the evaluation's background scan (the environment's Namespace objects, as the cluster holds
them), and in ``itbench kyverno apply`` (Namespace objects among the resources, or a Kyverno CLI
values file)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from ciso.evaluation.kyverno_engines import ItbenchScanner
from tests._support.cli import run_cli


def _policy(match_extra: dict | None = None, exclude: dict | None = None) -> dict:
    rule: dict = {
        "name": "no-host-network",
        "match": {"any": [{"resources": {"kinds": ["Pod", "ConfigMap"], **(match_extra or {})}}]},
        "validate": {
            "message": "hostNetwork is not allowed",
            "pattern": {"metadata": {"labels": {"ok": "yes"}}},
        },
    }
    if exclude is not None:
        rule["exclude"] = {"any": [{"resources": exclude}]}
    return {
        "apiVersion": "kyverno.io/v1",
        "kind": "ClusterPolicy",
        "metadata": {"name": "needs-ok"},
        "spec": {"background": True, "rules": [rule]},
    }


def _namespace(name: str, labels: dict | None = None) -> dict:
    meta: dict = {"name": name}
    if labels is not None:
        meta["labels"] = labels
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": meta}


def _pod(name: str, namespace: str) -> dict:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": namespace},
        "spec": {"containers": [{"name": "c", "image": "nginx"}]},
    }


OBJECTS = [
    _namespace("prod", {"env": "prod", "team": "a"}),
    _namespace("dev", {"env": "dev"}),
    _namespace("bare"),  # a Namespace with no labels
    _pod("p-prod", "prod"),
    _pod("p-dev", "dev"),
    _pod("p-bare", "bare"),
    _pod("p-ghost", "ghost"),  # its Namespace object is not declared
]


def _scanned(policy: dict, objects: list[dict] = OBJECTS) -> dict[str, str]:
    """Pod name -> the scan's result for it (absent: not matched)."""
    reports = ItbenchScanner().reports([policy], objects)
    return {
        r["scope"]["name"]: entry["result"]
        for r in reports
        if r["scope"]["kind"] == "Pod"
        for entry in r["results"]
    }


def test_scan_match_namespace_selector_match_labels():
    got = _scanned(_policy({"namespaceSelector": {"matchLabels": {"env": "prod"}}}))
    assert got == {"p-prod": "fail"}


def test_scan_exclude_namespace_selector():
    got = _scanned(_policy(exclude={"namespaceSelector": {"matchLabels": {"env": "prod"}}}))
    assert got == {"p-dev": "fail", "p-bare": "fail", "p-ghost": "fail"}


def test_scan_match_expressions():
    selector = {
        "matchExpressions": [
            {"key": "env", "operator": "In", "values": ["prod", "dev"]},
            {"key": "team", "operator": "DoesNotExist"},
        ]
    }
    assert _scanned(_policy({"namespaceSelector": selector})) == {"p-dev": "fail"}
    not_in = {"matchExpressions": [{"key": "env", "operator": "NotIn", "values": ["prod"]}]}
    # the unlabelled and the undeclared namespaces have no env label: NotIn holds
    assert _scanned(_policy({"namespaceSelector": not_in})) == {
        "p-dev": "fail",
        "p-bare": "fail",
        "p-ghost": "fail",
    }


def test_scan_namespace_name_label_the_cluster_sets():
    """The API server labels every Namespace with its name, declared or derived."""
    selector = {
        "matchExpressions": [
            {"key": "kubernetes.io/metadata.name", "operator": "In", "values": ["bare", "ghost"]}
        ]
    }
    assert _scanned(_policy({"namespaceSelector": selector})) == {
        "p-bare": "fail",
        "p-ghost": "fail",
    }


def test_scan_cluster_scoped_and_namespace_objects():
    """As Kyverno's matcher: a namespace selector never matches a Namespace; a cluster-scoped
    object is selected on no labels."""
    policy = _policy(
        {"namespaceSelector": {"matchExpressions": [{"key": "env", "operator": "DoesNotExist"}]}}
    )
    policy["spec"]["rules"][0]["match"]["any"][0]["resources"]["kinds"] = [
        "Namespace",
        "ClusterRole",
    ]
    role = {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRole",
        "metadata": {"name": "r"},
    }
    reports = ItbenchScanner().reports([policy], [*OBJECTS, role])
    scopes = {(r["scope"]["kind"], r["scope"]["name"]) for r in reports if r["results"]}
    assert scopes == {("ClusterRole", "r")}


def _apply_output(
    tmp_path: Path, policy: dict[str, Any], objects: list[dict[str, Any]], *extra: str
) -> Any:
    """``itbench kyverno apply`` of ``policy`` to ``objects``: its JSON output (results, or
    reports with ``--policy-report``)."""
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(policy))
    (tmp_path / "r.yaml").write_text(yaml.safe_dump_all(objects))
    proc = run_cli(
        [
            "kyverno",
            "apply",
            str(tmp_path / "p.yaml"),
            "--resource",
            str(tmp_path / "r.yaml"),
            "--format",
            "json",
            *extra,
        ]
    )
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def _apply(tmp_path: Path, policy: dict, objects: list[dict], *extra: str) -> dict[str, str]:
    results = _apply_output(tmp_path, policy, objects, *extra)
    return {r["name"]: r["status"] for r in results if r["kind"] == "Pod"}


@pytest.mark.parametrize("report", [False, True])
def test_apply_reads_namespaces_among_the_resources(tmp_path, report):
    policy = _policy({"namespaceSelector": {"matchLabels": {"env": "prod"}}})
    if report:
        reports = _apply_output(tmp_path, policy, OBJECTS, "--policy-report")
        failed = {r["scope"]["name"] for r in reports if r["summary"]["fail"]}
        assert failed == {"p-prod"}
    else:
        assert _apply(tmp_path, policy, OBJECTS) == {"p-prod": "fail"}


def test_apply_namespace_object_absent(tmp_path):
    """Without the Namespace object (and no values file) the namespace has no labels, as
    Kyverno's CLI run offline: an exclusion by its labels excludes nothing."""
    policy = _policy(exclude={"namespaceSelector": {"matchLabels": {"env": "prod"}}})
    got = _apply(tmp_path, policy, [o for o in OBJECTS if o["kind"] == "Pod"])
    assert got == {"p-prod": "fail", "p-dev": "fail", "p-bare": "fail", "p-ghost": "fail"}


def test_apply_values_file_labels_win(tmp_path):
    """A values file's ``namespaceSelector`` entries, overridden by its ``namespaces`` objects,
    over the Namespace objects among the resources."""
    values = {
        "namespaceSelector": [
            {"name": "dev", "labels": {"env": "prod"}},
            {"name": "ghost", "labels": {"env": "dev"}},
        ],
        "namespaces": [_namespace("ghost", {"env": "prod"})],
    }
    (tmp_path / "values.yaml").write_text(yaml.safe_dump(values))
    policy = _policy({"namespaceSelector": {"matchLabels": {"env": "prod"}}})
    got = _apply(tmp_path, policy, OBJECTS, "--values-file", str(tmp_path / "values.yaml"))
    assert got == {"p-prod": "fail", "p-dev": "fail", "p-ghost": "fail"}


def test_apply_bad_values_file_is_a_usage_error(tmp_path):
    (tmp_path / "values.yaml").write_text("namespaceSelector: {a: b}\n")
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(_policy()))
    (tmp_path / "r.yaml").write_text(yaml.safe_dump_all(OBJECTS))
    proc = run_cli(
        [
            "kyverno",
            "apply",
            str(tmp_path / "p.yaml"),
            "--resource",
            str(tmp_path / "r.yaml"),
            "--values-file",
            str(tmp_path / "values.yaml"),
        ]
    )
    assert proc.returncode == 2
    assert "values.yaml: namespaceSelector: a list" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_apply_values_file_with_aliases_is_refused_unexpanded(tmp_path):
    """A values file is untrusted input: YAML aliases are refused, as for every other file."""
    (tmp_path / "values.yaml").write_text(
        "a: &a [x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\nnamespaces: []\n"
    )
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(_policy()))
    (tmp_path / "r.yaml").write_text(yaml.safe_dump_all(OBJECTS))
    proc = run_cli(
        ["kyverno", "apply", str(tmp_path / "p.yaml"), "--resource", str(tmp_path / "r.yaml"),
         "--values-file", str(tmp_path / "values.yaml")]
    )  # fmt: skip
    assert proc.returncode == 2
    assert "values.yaml: not a readable values file" in proc.stderr
    assert "aliases are not accepted" in proc.stderr
