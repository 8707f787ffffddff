"""`kubectl scale` against the offline cluster: the scale subresource of Deployments,
ReplicaSets, StatefulSets and ReplicationControllers (an autoscaling/v1 Scale read and written
in place of the object), the Pods following the new size. Before, the subresource was not
served and `kubectl scale` failed."""

from __future__ import annotations

import json

import pytest

from itbench.cluster import start_cluster
from tests.cluster.kubectl_run import kubectl, needs_kubectl

WORKLOADS = """apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: nginx}]}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: postgres}]}
"""


@pytest.fixture
def cluster(tmp_path):
    manifest = tmp_path / "workloads.yaml"
    manifest.write_text(WORKLOADS)
    with start_cluster(manifest, kubeconfig=tmp_path / "kc") as running:
        yield running


@needs_kubectl
def test_kubectl_scale_changes_replicas_pods_and_status(cluster, tmp_path):
    kc = cluster.kubeconfig_path
    proc = kubectl(kc, tmp_path, "-n", "shop", "scale", "deployment", "web", "--replicas=3")
    assert proc.returncode == 0 and "scaled" in proc.stdout, proc.stderr
    deployment = json.loads(
        kubectl(kc, tmp_path, "-n", "shop", "get", "deployment", "web", "-o", "json").stdout
    )
    assert deployment["spec"]["replicas"] == 3
    assert deployment["status"]["readyReplicas"] == 3
    pods = json.loads(
        kubectl(kc, tmp_path, "-n", "shop", "get", "pods", "-l", "app=web", "-o", "json").stdout
    )
    assert len(pods["items"]) == 3
    down = kubectl(kc, tmp_path, "-n", "shop", "scale", "statefulset", "db", "--replicas=0")
    assert down.returncode == 0, down.stderr
    pods = json.loads(
        kubectl(kc, tmp_path, "-n", "shop", "get", "pods", "-l", "app=db", "-o", "json").stdout
    )
    assert pods["items"] == []


@needs_kubectl
def test_kubectl_scale_with_a_precondition_finds_the_subresource_in_discovery(cluster, tmp_path):
    """``--current-replicas`` makes kubectl look the scale subresource up in discovery first."""
    kc = cluster.kubeconfig_path
    wrong = kubectl(
        kc, tmp_path, "-n", "shop", "scale", "deployment", "web", "--current-replicas=5",
        "--replicas=2",
    )  # fmt: skip
    assert wrong.returncode != 0 and "expected replicas to be 5" in wrong.stderr.lower(), (
        wrong.stderr
    )
    proc = kubectl(
        kc, tmp_path, "-n", "shop", "scale", "deployment", "web", "--current-replicas=1",
        "--replicas=2",
    )  # fmt: skip
    assert proc.returncode == 0 and "scaled" in proc.stdout, proc.stderr
    deployment = json.loads(
        kubectl(kc, tmp_path, "-n", "shop", "get", "deployment", "web", "-o", "json").stdout
    )
    assert deployment["spec"]["replicas"] == 2
    listed = json.loads(kubectl(kc, tmp_path, "get", "--raw", "/apis/apps/v1").stdout)
    names = {r["name"]: r for r in listed["resources"]}
    assert names["deployments/scale"]["kind"] == "Scale"
    assert names["deployments/scale"]["group"] == "autoscaling"
    core = json.loads(kubectl(kc, tmp_path, "get", "--raw", "/api/v1").stdout)
    assert {r["name"] for r in core["resources"]} >= {"pods/eviction", "pods/status"}


@needs_kubectl
def test_the_scale_subresource_reads_as_a_scale_and_refuses_bad_sizes(cluster, tmp_path):
    kc = cluster.kubeconfig_path
    raw = kubectl(
        kc, tmp_path, "get", "--raw", "/apis/apps/v1/namespaces/shop/deployments/web/scale"
    )
    scale = json.loads(raw.stdout)
    assert (scale["kind"], scale["spec"], scale["status"]["selector"]) == (
        "Scale",
        {"replicas": 1},
        "app=web",
    )
    patched = kubectl(
        kc, tmp_path, "-n", "shop", "patch", "deployment", "web", "--subresource=scale", "--type=merge",
        "-p", '{"spec": {"replicas": -2}}',
    )  # fmt: skip
    assert patched.returncode == 1 and "is invalid" in patched.stderr  # a 422, as the API's
    again = kubectl(
        kc, tmp_path, "get", "--raw", "/apis/apps/v1/namespaces/shop/deployments/web/scale"
    )
    assert json.loads(again.stdout)["spec"] == {"replicas": 1}
    pods_have_none = kubectl(
        kc, tmp_path, "-n", "shop", "get", "--raw", "/api/v1/namespaces/shop/pods/x/scale"
    )
    assert (
        pods_have_none.returncode == 1
        and "NotFound" in pods_have_none.stderr + pods_have_none.stdout
    )
