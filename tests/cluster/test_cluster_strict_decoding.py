"""The offline cluster decodes built-in objects strictly, as an API server does: kubectl's
default (fieldValidation=Strict) refuses an unknown field with the API server's message,
--validate=warn admits it with a warning, and a value of the wrong JSON type is refused either
way. Before, a Pod with `containerz:` or a Deployment with `replicas: "x"` was created."""

from __future__ import annotations

from pathlib import Path

import pytest

from itbench.cluster import start_cluster
from itbench.cluster.decoding import decode, is_built_in_group
from tests.cluster.kubectl_run import kubectl, needs_kubectl

FIXTURES = Path(__file__).parent / "fixtures"

POD_TYPO = """apiVersion: v1
kind: Pod
metadata: {name: typo}
spec:
  containers:
  - {name: app, image: nginx, imagePullPolicyy: Always}
"""
DEPLOYMENT_BAD_TYPE = """apiVersion: apps/v1
kind: Deployment
metadata: {name: bad}
spec:
  replicas: "three"
  selector: {matchLabels: {app: bad}}
  template:
    metadata: {labels: {app: bad}}
    spec: {containers: [{name: app, image: nginx}]}
"""


@pytest.fixture
def cluster(tmp_path):
    with start_cluster(FIXTURES / "workloads.yaml", kubeconfig=tmp_path / "kc") as running:
        yield running


@needs_kubectl
def test_an_unknown_field_is_refused_by_default(cluster, tmp_path):
    proc = kubectl(cluster.kubeconfig_path, tmp_path, "apply", "-f", "-", stdin=POD_TYPO)
    assert proc.returncode == 1
    assert (
        'Pod in version "v1" cannot be handled as a Pod: strict decoding error: '
        'unknown field "spec.containers[0].imagePullPolicyy"'
    ) in proc.stderr
    assert kubectl(cluster.kubeconfig_path, tmp_path, "get", "pod", "typo").returncode == 1


@needs_kubectl
def test_validate_warn_admits_with_a_warning(cluster, tmp_path):
    proc = kubectl(
        cluster.kubeconfig_path, tmp_path, "apply", "--validate=warn", "-f", "-", stdin=POD_TYPO
    )
    assert proc.returncode == 0, proc.stderr
    assert 'Warning: unknown field "spec.containers[0].imagePullPolicyy"' in proc.stderr
    ignored = kubectl(
        cluster.kubeconfig_path,
        tmp_path,
        "apply",
        "--validate=false",
        "-f",
        "-",
        stdin=POD_TYPO.replace("typo", "typo2"),
    )
    assert ignored.returncode == 0 and "Warning" not in ignored.stderr


@needs_kubectl
def test_a_wrong_type_is_refused_whatever_the_validation(cluster, tmp_path):
    for flag in ("--validate=strict", "--validate=false"):
        proc = kubectl(
            cluster.kubeconfig_path, tmp_path, "apply", flag, "-f", "-", stdin=DEPLOYMENT_BAD_TYPE
        )
        assert proc.returncode == 1, (flag, proc.stdout)
        assert (
            "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas "
            "of type int32"
        ) in proc.stderr


@needs_kubectl
def test_strategic_patches_and_correct_objects_still_apply(cluster, tmp_path):
    good = POD_TYPO.replace("imagePullPolicyy", "imagePullPolicy")
    assert (
        kubectl(cluster.kubeconfig_path, tmp_path, "apply", "-f", "-", stdin=good).returncode == 0
    )
    changed = good.replace("image: nginx", "image: nginx:1.27")
    proc = kubectl(cluster.kubeconfig_path, tmp_path, "apply", "-f", "-", stdin=changed)
    assert proc.returncode == 0 and "configured" in proc.stdout, proc.stderr  # $setElementOrder
    labelled = kubectl(cluster.kubeconfig_path, tmp_path, "label", "pod", "typo", "tier=web")
    assert labelled.returncode == 0, labelled.stderr


def test_decoding_covers_built_in_kinds_only():
    assert decode({"apiVersion": "kyverno.io/v1", "kind": "ClusterPolicy", "x": 1}) is None
    assert decode({"apiVersion": "example.com/v1", "kind": "Pod", "bogus": 1}) is None
    assert is_built_in_group("") and is_built_in_group("apps")
    assert is_built_in_group("networking.k8s.io") and not is_built_in_group("kyverno.io")
    found = decode(
        {
            "apiVersion": "networking.k8s.io/v1",
            "kind": "NetworkPolicy",
            "metadata": {"name": "n", "labels": {"a": "b"}},
            "spec": {"podSelector": {}, "policyTypes": "Ingress", "ingres": []},
        }
    )
    assert found.unknown == ["spec.ingres"]
    assert found.wrong_types == [
        "json: cannot unmarshal string into Go struct field NetworkPolicySpec.spec.policyTypes "
        "of type []string"
    ]
    # quantities and int-or-string fields accept numbers, as the API server does
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "p"},
        "spec": {
            "containers": [
                {
                    "name": "c",
                    "resources": {"limits": {"cpu": 1, "memory": "1Gi"}},
                    "livenessProbe": {"httpGet": {"port": 8080}},
                }
            ]
        },
    }
    assert decode(pod).unknown == [] and decode(pod).wrong_types == []


def test_every_manifest_the_project_ships_decodes_cleanly():
    """The built-in scenarios' and fixtures' Kubernetes manifests have no unknown field (a
    false positive here would refuse what a real cluster accepts)."""
    import yaml

    repo = Path(__file__).resolve().parents[2]
    checked = 0
    for path in [*repo.glob("ciso/suite/**/*.yaml"), *repo.glob("tests/cluster/fixtures/*.yaml")]:
        for doc in yaml.safe_load_all(path.read_text()):
            if not isinstance(doc, dict):
                continue
            found = decode(doc)
            if found is None:
                continue
            checked += 1
            assert (found.unknown, found.wrong_types) == ([], []), path
    assert checked > 100
