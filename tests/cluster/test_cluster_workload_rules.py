"""The offline cluster refuses malformed autoscalers and container resources as the API server
does (422 Invalid), through the real kubectl, on create and on patch; the quantity parser."""

from __future__ import annotations

import json

import pytest

from itbench.cluster import start_cluster
from itbench.cluster.quantity import parse_quantity
from tests.cluster.kubectl_run import kubectl_on, needs_kubectl

DEPLOYMENT = {
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {"name": "api", "namespace": "default"},
    "spec": {
        "replicas": 2,
        "selector": {"matchLabels": {"app": "api"}},
        "template": {
            "metadata": {"labels": {"app": "api"}},
            "spec": {
                "containers": [
                    {
                        "name": "api",
                        "image": "nginx:1.27",
                        "resources": {
                            "requests": {"cpu": "250m", "memory": "256Mi"},
                            "limits": {"cpu": "500m", "memory": "512Mi"},
                        },
                    }
                ]
            },
        },
    },
}
HPA = {
    "apiVersion": "autoscaling/v2",
    "kind": "HorizontalPodAutoscaler",
    "metadata": {"name": "api", "namespace": "default"},
    "spec": {
        "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "api"},
        "minReplicas": 2,
        "maxReplicas": 10,
        "metrics": [
            {
                "type": "Resource",
                "resource": {
                    "name": "cpu",
                    "target": {"type": "Utilization", "averageUtilization": 70},
                },
            }
        ],
    },
}


@pytest.fixture
def cluster(tmp_path):
    with start_cluster([DEPLOYMENT, HPA], kubeconfig=tmp_path / "kc") as running:
        yield running


@pytest.mark.parametrize(
    ("text", "value"),
    [("250m", 0.25), ("1.5", 1.5), ("512Mi", 512 * 2**20), ("1G", 1e9), ("2e3", 2000.0), (3, 3.0)],
)
def test_quantities(text, value):
    assert parse_quantity(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["abc", "1Qi", "", None, True])
def test_not_quantities(text):
    assert parse_quantity(text) is None


@needs_kubectl
def test_hpa_min_above_max_is_refused_on_patch(cluster, tmp_path):
    out = kubectl_on(
        cluster,
        tmp_path,
        "patch",
        "hpa",
        "api",
        "--type=merge",
        "-p",
        '{"spec":{"minReplicas":12}}',
    )
    assert out.returncode == 1
    assert (
        'The HorizontalPodAutoscaler "api" is invalid: spec.maxReplicas: Invalid value: 10: '
        "must be greater than or equal to `minReplicas`" in out.stderr
    )
    got = json.loads(kubectl_on(cluster, tmp_path, "get", "hpa", "api", "-o", "json").stdout)
    assert got["spec"]["minReplicas"] == 2  # unchanged


@needs_kubectl
def test_hpa_zero_min_and_zero_target_are_refused_on_create(cluster, tmp_path):
    body = json.loads(json.dumps(HPA))
    body["metadata"]["name"] = "other"
    body["spec"]["minReplicas"] = 0
    body["spec"]["metrics"][0]["resource"]["target"]["averageUtilization"] = 0
    out = kubectl_on(cluster, tmp_path, "apply", "-f", "-", stdin=json.dumps(body))
    assert out.returncode == 1
    assert "spec.minReplicas: Invalid value: 0: must be greater than or equal to 1" in out.stderr
    assert (
        "spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0"
        in out.stderr
    )


@needs_kubectl
def test_negative_request_is_refused(cluster, tmp_path):
    out = kubectl_on(
        cluster, tmp_path, "set", "resources", "deployment", "api", "--requests=cpu=-1"
    )
    assert out.returncode == 1
    assert (
        'spec.template.spec.containers[0].resources.requests[cpu]: Invalid value: "-1": '
        "must be greater than or equal to 0" in out.stderr
    )


@needs_kubectl
def test_negative_replicas_are_refused(cluster, tmp_path):
    out = kubectl_on(
        cluster, tmp_path, "patch", "deployment", "api", "--type=merge", "-p",
        '{"spec":{"replicas":-2}}',
    )  # fmt: skip
    assert out.returncode == 1
    assert "spec.replicas: Invalid value: -2: must be greater than or equal to 0" in out.stderr
    got = json.loads(kubectl_on(cluster, tmp_path, "get", "deployment", "api", "-o", "json").stdout)
    assert got["spec"]["replicas"] == 2  # unchanged


@needs_kubectl
def test_request_above_limit_is_refused(cluster, tmp_path):
    out = kubectl_on(
        cluster, tmp_path, "set", "resources", "deployment", "api", "--requests=memory=1Gi"
    )
    assert out.returncode == 1
    assert (
        'spec.template.spec.containers[0].resources.requests: Invalid value: "1Gi": '
        "must be less than or equal to memory limit of 512Mi" in out.stderr
    )


@needs_kubectl
def test_valid_changes_are_accepted(cluster, tmp_path):
    out = kubectl_on(
        cluster, tmp_path, "patch", "hpa", "api", "--type=merge", "-p", '{"spec":{"minReplicas":3}}'
    )
    assert out.returncode == 0, out.stderr
    out = kubectl_on(
        cluster, tmp_path, "set", "resources", "deployment", "api", "--requests=cpu=100m"
    )
    assert out.returncode == 0, out.stderr
