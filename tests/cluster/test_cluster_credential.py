"""Each served cluster answers only the holder of its own kubeconfig: a random token made per
server, carried by kubectl as the URL's user and password (sent as Basic authorization with
every request, ``--raw`` ones too). Without it, or with another server's, the answer is 401
Unauthorized, as an API server answers a request it cannot authenticate. Before, any process on
the host reached every trial's cluster through its loopback port alone."""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from itbench.cluster import RunningCluster, start_cluster
from tests.cluster.kubectl_run import kubectl, kubectl_on, needs_kubectl

pytestmark = needs_kubectl


def _namespace(name: str) -> dict:
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}


@pytest.fixture
def orchard(tmp_path: Path):
    with start_cluster([_namespace("orchard")], kubeconfig=tmp_path / "orchard.yaml") as running:
        yield running


@pytest.fixture
def quarry(tmp_path: Path):
    with start_cluster([_namespace("quarry")], kubeconfig=tmp_path / "quarry.yaml") as running:
        yield running


REFUSED = "error: You must be logged in to the server"


def test_kubectl_without_the_clusters_kubeconfig_is_refused(orchard: RunningCluster, tmp_path):
    bare = ["--server", orchard.url]  # with no credential: an empty kubeconfig
    listed = kubectl(Path("/dev/null"), tmp_path, *bare, "get", "namespaces")
    assert listed.returncode == 1 and REFUSED in listed.stderr, listed.stderr
    created = kubectl(
        Path("/dev/null"), tmp_path, *bare, "create", "configmap", "stray", "--from-literal=k=v"
    )
    assert created.returncode == 1 and "Unauthorized" in created.stderr, created.stderr
    raw = kubectl(Path("/dev/null"), tmp_path, *bare, "get", "--raw", "/api/v1/namespaces/orchard")
    assert raw.returncode == 1 and "Unauthorized" in raw.stderr, raw.stderr
    assert orchard.overlay() == {"applied": [], "deleted": []}
    # the cluster's own kubeconfig reaches it, a raw request included
    assert kubectl_on(orchard, tmp_path, "get", "ns", "orchard", "-o", "name").stdout == (
        "namespace/orchard\n"
    )
    fetched = kubectl_on(orchard, tmp_path, "get", "--raw", "/api/v1/namespaces/orchard")
    assert json.loads(fetched.stdout)["metadata"]["name"] == "orchard"


def test_one_clusters_kubeconfig_does_not_open_another(orchard, quarry, tmp_path):
    # quarry's kubeconfig pointed at orchard's port: the right kind of credential, not its own
    borrowed = tmp_path / "borrowed.yaml"
    text = quarry.kubeconfig_path.read_text()
    borrowed.write_text(text.replace(f"127.0.0.1:{quarry.port}", f"127.0.0.1:{orchard.port}"))
    assert f"127.0.0.1:{orchard.port}" in borrowed.read_text()
    create = ["create", "configmap", "stray", "--from-literal=k=v"]
    for args in (["get", "namespaces"], create, ["get", "--raw", "/api/v1/pods"]):
        proc = kubectl(borrowed, tmp_path, *args)
        assert proc.returncode == 1, (args, proc.stdout)
        assert "Unauthorized" in proc.stderr or REFUSED in proc.stderr, (args, proc.stderr)
    assert orchard.overlay() == {"applied": [], "deleted": []}


def _post(cluster: RunningCluster, headers: dict[str, str]) -> tuple[int, dict]:
    body = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "posted"}}
    request = urllib.request.Request(
        f"{cluster.url}/api/v1/namespaces/orchard/configmaps",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", **headers},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def _basic(user: str, password: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer not-the-token"},
        {"Authorization": "Bearer "},
        _basic("itbench", "not-the-token"),
        {"Authorization": "Basic %%%"},
        {"Authorization": "Token whatever"},
    ],
    ids=["none", "wrong-bearer", "empty-bearer", "wrong-password", "bad-basic", "unknown-scheme"],
)
def test_a_write_without_the_token_is_401_and_stores_nothing(orchard, headers):
    code, status = _post(orchard, headers)
    assert (code, status["kind"], status["reason"]) == (401, "Status", "Unauthorized")
    assert status["message"] == "Unauthorized"
    assert orchard.overlay() == {"applied": [], "deleted": []}


def test_another_clusters_token_is_401(orchard, quarry):
    code, status = _post(orchard, quarry.authorization)
    assert (code, status["reason"]) == (401, "Unauthorized")
    code, _created = _post(orchard, orchard.authorization)
    assert code == 201
    assert [o["metadata"]["name"] for o in orchard.overlay()["applied"]] == ["posted"]
