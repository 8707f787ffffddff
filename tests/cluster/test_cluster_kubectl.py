"""The offline cluster driven by the real kubectl binary and the real kubernetes Python client."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from itbench.cluster import start_cluster
from tests._support.cli import itbench_executable
from tests.cluster.cluster_producer import host_network_reports

FIXTURES = Path(__file__).parent / "fixtures"
KUBECTL = shutil.which("kubectl")
pytestmark = pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed on this machine")


@pytest.fixture
def cluster(tmp_path):
    with start_cluster(
        FIXTURES / "workloads.yaml",
        kubeconfig=tmp_path / "kubeconfig",
        report_producer=host_network_reports,
    ) as running:
        yield running


def kubectl(cluster, tmp_path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "KUBECACHEDIR": str(tmp_path / "cache"),
    }
    proc = subprocess.run(
        [KUBECTL, "--kubeconfig", str(cluster.kubeconfig_path), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def test_pods_derived_from_a_deployment(cluster, tmp_path):
    pods = json.loads(kubectl(cluster, tmp_path, "get", "pods", "-A", "-o", "json").stdout)["items"]
    nginx = [p for p in pods if p["metadata"]["labels"].get("app") == "nginx"]
    assert len(nginx) == 2
    for pod in nginx:
        assert pod["metadata"]["namespace"] == "paa"
        assert pod["metadata"]["name"].startswith("nginx-deployment-")
        (owner,) = pod["metadata"]["ownerReferences"]
        assert owner["kind"] == "ReplicaSet" and owner["name"].startswith("nginx-deployment-")
        assert pod["spec"]["hostNetwork"] is True
        assert (
            pod["metadata"]["labels"]["tier"] == "web"
            and "pod-template-hash" in pod["metadata"]["labels"]
        )
        assert pod["status"]["phase"] == "Running"
    statefulset = sorted(
        p["metadata"]["name"] for p in pods if p["metadata"]["labels"].get("app") == "db"
    )
    assert statefulset == ["db-0", "db-1"]
    replicasets = json.loads(
        kubectl(cluster, tmp_path, "get", "rs", "-n", "paa", "-o", "json").stdout
    )["items"]
    assert replicasets[0]["metadata"]["ownerReferences"][0]["name"] == "nginx-deployment"


def test_plain_get_prints_the_server_table_and_wide_columns(cluster, tmp_path):
    out = kubectl(cluster, tmp_path, "get", "deploy", "-n", "paa").stdout.splitlines()
    assert out[0].split() == ["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"]
    assert out[1].split()[:4] == ["nginx-deployment", "2/2", "2", "2"]
    wide = kubectl(cluster, tmp_path, "get", "pods", "-n", "paa", "-o", "wide").stdout.splitlines()
    assert wide[0].split()[:7] == ["NAME", "READY", "STATUS", "RESTARTS", "AGE", "IP", "NODE"]
    namespaces = kubectl(cluster, tmp_path, "get", "ns").stdout
    for ns in ("paa", "data", "default"):
        assert f"\n{ns} " in namespaces


def test_selectors_and_yaml_output(cluster, tmp_path):
    by_label = kubectl(
        cluster, tmp_path, "get", "pods", "-A", "-l", "app in (db),app!=nginx", "-o", "name"
    ).stdout.split()
    assert by_label == ["pod/db-0", "pod/db-1"]
    by_field = kubectl(
        cluster,
        tmp_path,
        "get",
        "pods",
        "-n",
        "data",
        "--field-selector",
        "metadata.name=db-1",
        "-o",
        "yaml",
    ).stdout
    assert "name: db-1" in by_field and "db-0" not in by_field
    cm = kubectl(
        cluster,
        tmp_path,
        "get",
        "configmap",
        "settings",
        "-n",
        "paa",
        "-o",
        "jsonpath={.data.mode}",
    ).stdout
    assert cm == "strict"


def test_not_found_is_a_status(cluster, tmp_path):
    proc = kubectl(cluster, tmp_path, "get", "pod", "nope", "-n", "paa", check=False)
    assert proc.returncode == 1
    assert 'Error from server (NotFound): pods "nope" not found' in proc.stderr


def test_apply_get_patch_delete_a_clusterpolicy_and_reports_follow(cluster, tmp_path):
    assert kubectl(cluster, tmp_path, "get", "polr", "-A", check=False).stderr.startswith(
        "No resources found"
    )
    out = kubectl(cluster, tmp_path, "apply", "-f", str(FIXTURES / "clusterpolicy.yaml")).stdout
    assert "clusterpolicy.kyverno.io/disallow-host-network created" in out
    table = kubectl(cluster, tmp_path, "get", "clusterpolicy").stdout.splitlines()
    assert table[1].split()[:3] == ["disallow-host-network", "true", "Audit"]
    reports = json.loads(kubectl(cluster, tmp_path, "get", "polr", "-A", "-o", "json").stdout)[
        "items"
    ]
    summaries = {r["metadata"]["namespace"]: r["summary"] for r in reports}
    assert summaries["paa"]["fail"] == 2 and summaries["data"]["pass"] == 2
    kubectl(
        cluster,
        tmp_path,
        "patch",
        "cpol",
        "disallow-host-network",
        "--type",
        "merge",
        "-p",
        '{"spec":{"validationFailureAction":"Enforce"}}',
    )
    assert (
        json.loads(
            kubectl(cluster, tmp_path, "get", "cpol", "disallow-host-network", "-o", "json").stdout
        )["spec"]["validationFailureAction"]
        == "Enforce"
    )
    overlay = cluster.overlay()
    assert [o["metadata"]["name"] for o in overlay["applied"]] == ["disallow-host-network"]
    assert "deleted" in kubectl(cluster, tmp_path, "delete", "cpol", "disallow-host-network").stdout
    assert kubectl(cluster, tmp_path, "get", "polr", "-A", check=False).stderr.startswith(
        "No resources found"
    )
    assert cluster.overlay()["deleted"] == [
        {
            "group": "kyverno.io",
            "resource": "clusterpolicies",
            "namespace": "",
            "name": "disallow-host-network",
        }
    ]


def test_create_from_file_and_unknown_kinds_rejected(cluster, tmp_path):
    manifest = tmp_path / "pod.yaml"
    manifest.write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: probe, namespace: paa}\nspec: {containers: [{name: c, image: busybox}]}\n"
    )
    assert "pod/probe created" in kubectl(cluster, tmp_path, "create", "-f", str(manifest)).stdout
    again = kubectl(cluster, tmp_path, "create", "-f", str(manifest), check=False)
    assert again.returncode == 1 and "AlreadyExists" in again.stderr
    unknown = tmp_path / "widget.yaml"
    unknown.write_text("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n")
    proc = kubectl(cluster, tmp_path, "apply", "--validate=false", "-f", str(unknown), check=False)
    assert proc.returncode == 1 and "Widget" in proc.stderr


def test_kubernetes_python_client(cluster):
    from kubernetes import client, config

    api_client = config.new_client_from_config(str(cluster.kubeconfig_path))
    pods = client.CoreV1Api(api_client).list_pod_for_all_namespaces().items
    assert sorted(p.metadata.name for p in pods if p.metadata.namespace == "data") == [
        "db-0",
        "db-1",
    ]
    deployment = client.AppsV1Api(api_client).read_namespaced_deployment("nginx-deployment", "paa")
    assert deployment.spec.template.spec.host_network is True
    with pytest.raises(client.exceptions.ApiException) as info:
        client.AppsV1Api(api_client).read_namespaced_deployment("nope", "paa")
    assert info.value.status == 404


def test_serve_command_writes_kubeconfig_then_serves_then_stops_on_sigterm(tmp_path):
    kubeconfig = tmp_path / "kc"
    proc = subprocess.Popen(
        [itbench_executable(), "cluster", "serve", str(FIXTURES), "--kubeconfig", str(kubeconfig)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline().strip()
        assert line == str(kubeconfig)
        assert kubeconfig.exists()  # written before the path was printed

        class Running:
            kubeconfig_path = kubeconfig

        names = kubectl(Running, tmp_path, "get", "deploy", "-A", "-o", "name").stdout.split()
        assert names == ["deployment.apps/nginx-deployment"]
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0


def test_malformed_manifests_name_file_and_document(tmp_path):
    (tmp_path / "a.yaml").write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n---\napiVersion: v1\nmetadata: {name: nokind}\n"
    )
    proc = subprocess.run(
        [itbench_executable(), "cluster", "serve", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.returncode == 3
    assert "a.yaml: document 1: field 'kind' is missing" in proc.stderr
    (tmp_path / "a.yaml").write_text("a: [unclosed\n")
    proc = subprocess.run(
        [itbench_executable(), "cluster", "serve", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert (
        proc.returncode == 3
        and "a.yaml: not valid YAML" in proc.stderr
        and "Traceback" not in proc.stderr
    )


def test_deleting_a_namespace_deletes_what_it_holds(tmp_path):
    """As Kubernetes' namespace controller does: the Deployment of a deleted namespace is gone
    too, and so are its Pods (without a reconciler, which used to be the only case emptying it)."""
    manifests = tmp_path / "ns.yaml"
    manifests.write_text(
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n---\n"
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\n"
        "spec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n"
        "  template:\n    metadata: {labels: {app: web}}\n"
        "    spec: {containers: [{name: web, image: nginx}]}\n"
    )
    with start_cluster(manifests, kubeconfig=tmp_path / "kubeconfig") as running:
        kubectl(running, tmp_path, "delete", "namespace", "shop")
        left = kubectl(running, tmp_path, "get", "deployments,pods", "-n", "shop", "-o", "json")
        assert json.loads(left.stdout)["items"] == []
        gone = kubectl(running, tmp_path, "get", "namespace", "shop", check=False)
        assert gone.returncode != 0 and "NotFound" in gone.stderr
