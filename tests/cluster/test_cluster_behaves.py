"""The offline cluster answers like a cluster where kubectl expects it: access reviews, nodes,
a watch that prints once, Status objects for every error, and a kubeconfig it cleans up."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
from pathlib import Path

import pytest

from itbench.cluster import start_cluster
from tests._support.cli import itbench_executable
from tests.cluster.kubectl_run import kubectl, needs_kubectl

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def cluster(tmp_path):
    with start_cluster(FIXTURES / "workloads.yaml", kubeconfig=tmp_path / "kc") as running:
        yield running


@needs_kubectl
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("auth", "can-i", "create", "pods"), "yes"),
        (("auth", "can-i", "delete", "clusterpolicies.kyverno.io"), "yes"),
        (("auth", "can-i", "get", "secrets", "-n", "paa"), "yes"),
    ],
)
def test_auth_can_i_answers_through_an_access_review(cluster, tmp_path, args, expected):
    proc = kubectl(cluster.kubeconfig_path, tmp_path, *args)
    assert (proc.returncode, proc.stdout.strip()) == (0, expected), proc.stderr


@needs_kubectl
def test_auth_can_i_list_and_whoami(cluster, tmp_path):
    listed = kubectl(cluster.kubeconfig_path, tmp_path, "auth", "can-i", "--list")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines()[1].split()[0] == "*.*"
    who = kubectl(cluster.kubeconfig_path, tmp_path, "auth", "whoami", "-o", "json")
    assert who.returncode == 0, who.stderr
    assert json.loads(who.stdout)["status"]["userInfo"]["username"] == "itbench-offline"


@needs_kubectl
def test_get_nodes_lists_the_node_pods_are_scheduled_on(cluster, tmp_path):
    out = kubectl(cluster.kubeconfig_path, tmp_path, "get", "nodes").stdout.splitlines()
    assert out[0].split() == ["NAME", "STATUS", "ROLES", "AGE", "VERSION"]
    (row,) = out[1:]
    assert row.split()[:3] == ["itbench-offline-node", "Ready", "<none>"]
    pods = json.loads(
        kubectl(cluster.kubeconfig_path, tmp_path, "get", "pods", "-A", "-o", "json").stdout
    )["items"]
    assert {p["spec"]["nodeName"] for p in pods} == {"itbench-offline-node"}
    # a Pod placed on another node brings that node along
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "pinned", "namespace": "paa"},
        "spec": {"nodeName": "worker-2", "containers": [{"name": "c", "image": "busybox"}]},
    }
    (tmp_path / "pinned.json").write_text(json.dumps(pod))
    assert (
        kubectl(
            cluster.kubeconfig_path, tmp_path, "apply", "-f", str(tmp_path / "pinned.json")
        ).returncode
        == 0
    )
    names = kubectl(cluster.kubeconfig_path, tmp_path, "get", "nodes", "-o", "name").stdout.split()
    assert names == ["node/itbench-offline-node", "node/worker-2"]
    wide = kubectl(cluster.kubeconfig_path, tmp_path, "get", "pods", "-n", "paa", "-o", "wide")
    assert "worker-2" in wide.stdout


@needs_kubectl
def test_get_watch_prints_one_header_and_each_object_once(cluster, tmp_path):
    proc = kubectl(cluster.kubeconfig_path, tmp_path, "get", "pods", "-n", "paa", "-w")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert [line for line in lines if line.startswith("NAME")] == [lines[0]]
    names = [line.split()[0] for line in lines[1:]]
    assert len(names) == 2 and len(set(names)) == 2
    assert all(n.startswith("nginx-deployment-") for n in names)


def test_a_watch_without_resource_version_replays_every_object(cluster):
    import urllib.request

    def get(path: str) -> bytes:
        request = urllib.request.Request(f"{cluster.url}{path}", headers=cluster.authorization)
        with urllib.request.urlopen(request) as answer:
            return answer.read()

    events = [
        json.loads(line) for line in get("/api/v1/namespaces/paa/pods?watch=true").splitlines()
    ]
    assert [e["type"] for e in events] == ["ADDED", "ADDED"]
    listed = json.loads(get("/api/v1/pods"))
    since = listed["metadata"]["resourceVersion"]
    assert get(f"/api/v1/namespaces/paa/pods?watch=true&resourceVersion={since}") == b""


def _raw(cluster, request: bytes) -> tuple[str, dict]:
    """Send ``request`` as bytes, its credential added after the request line."""
    line, _, rest = request.partition(b"\r\n")
    credential = f"Authorization: {cluster.authorization['Authorization']}\r\n".encode()
    with socket.create_connection(("127.0.0.1", cluster.port), timeout=5) as sock:
        sock.sendall(line + b"\r\n" + credential + rest)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return head.decode().splitlines()[0], json.loads(body)


@pytest.mark.parametrize(
    ("request_bytes", "code", "reason"),
    [
        (
            b"OPTIONS /api/v1/pods HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            405,
            "MethodNotAllowed",
        ),
        (b"BREW /api HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 405, "MethodNotAllowed"),
        (b"GET /api HTTP/9.9\r\n\r\n", 505, "InternalError"),
        (b"GARBAGE\r\n\r\n", 400, "BadRequest"),
        (b"GET /nothing/here HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404, "NotFound"),
    ],
    ids=["options", "unknown-verb", "bad-version", "bad-request-line", "unknown-path"],
)
def test_unsupported_requests_get_a_status_object_not_an_html_page(
    cluster, request_bytes, code, reason
):
    line, body = _raw(cluster, request_bytes)
    assert line.split()[1] == str(code)
    assert body["kind"] == "Status" and body["status"] == "Failure"
    assert (body["code"], body["reason"]) == (code, reason)
    assert body["message"]


def test_a_bug_in_a_route_answers_a_status_and_the_server_keeps_serving(cluster, monkeypatch):
    import urllib.error
    import urllib.request

    def broken(*args, **kwargs):
        raise RuntimeError("route bug")

    monkeypatch.setattr(cluster.state, "list", broken)
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(
            urllib.request.Request(f"{cluster.url}/api/v1/pods", headers=cluster.authorization)
        )
    body = json.loads(info.value.read())
    assert (info.value.code, body["reason"]) == (500, "InternalError")
    assert "RuntimeError: route bug" in body["message"]
    monkeypatch.undo()
    version = urllib.request.Request(f"{cluster.url}/version", headers=cluster.authorization)
    assert urllib.request.urlopen(version).status == 200


def test_serve_default_kubeconfig_is_where_help_says_and_removed_on_exit(tmp_path):
    help_text = subprocess.run(
        [itbench_executable(), "cluster", "serve", "--help"], capture_output=True, text=True
    ).stdout
    assert "temporary directory, removed on exit" in " ".join(help_text.split())
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    proc = subprocess.Popen(
        [itbench_executable(), "cluster", "serve", str(FIXTURES / "workloads.yaml")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        kubeconfig = Path(proc.stdout.readline().strip())
        # inside this process's scratch folder under $TMPDIR (itbench.scratch), itself removed
        assert tmp_path in kubeconfig.parents and kubeconfig.is_file()
        assert kubeconfig.parent.name.startswith("itbench-cluster-")
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
    assert not kubeconfig.parent.exists()
    assert list(tmp_path.iterdir()) == []


def test_start_cluster_removes_its_temporary_kubeconfig(tmp_path, monkeypatch):
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with start_cluster(None) as running:
        assert running.kubeconfig_path.is_file()
        assert running.kubeconfig_path.parent.parent == tmp_path
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n", "aliases are not accepted"),
        (b"x: " + b"[" * 5000 + b"]" * 5000, "nested more than"),
        (b"kind: ConfigMap\n---\nkind: ConfigMap\n", "several objects"),
    ],
    ids=["alias-bomb", "deep", "two-documents"],
)
def test_yaml_request_bodies_have_the_file_protections(cluster, body, message):
    import urllib.error
    import urllib.request

    request = urllib.request.Request(
        f"{cluster.url}/api/v1/namespaces/paa/configmaps",
        data=body,
        method="POST",
        headers={"Content-Type": "application/yaml", **cluster.authorization},
    )
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(request)
    answer = json.loads(info.value.read())
    assert (info.value.code, answer["reason"]) == (400, "BadRequest")
    assert message in answer["message"]
