"""`itbench cluster serve` answers hostile writes as Kubernetes does, through the real kubectl and
raw HTTP: invalid names are 422 Invalid in the API server's words, a malformed Content-Length or
a 100,000-deep body is 400 with a Status (both were 500), and a policy that would take minutes
to admit a write is cut off at the admission timeout ("context deadline exceeded", as a
fail-closed webhook that does not answer) while the server keeps serving."""

from __future__ import annotations

import http.client
import json
import re
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from itbench.cluster import ClusterState, domain_extensions
from tests._support.cli import itbench_executable
from tests.cluster.kubectl_run import kubectl, needs_kubectl

SUBDOMAIN = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)
LABEL = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex "
    "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
)
DNS1035 = (
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
    "'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
)


class Served:
    def __init__(self, kubeconfig: Path, port: int, token: str) -> None:
        self.kubeconfig, self.port = kubeconfig, port
        #: the header every request must carry (the token is in the kubeconfig's server URL)
        self.authorization = {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("served")
    (folder / "ns.yaml").write_text("apiVersion: v1\nkind: Namespace\nmetadata: {name: default}\n")
    kubeconfig = folder / "kubeconfig"
    args = [itbench_executable(), "cluster", "serve", str(folder), "--kubeconfig", str(kubeconfig)]
    proc = subprocess.Popen(
        [*args, "--admission-timeout", "2"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip()
        server = re.search(
            r"server: http://itbench:([\w-]+)@127\.0\.0\.1:(\d+)", kubeconfig.read_text()
        )
        assert server is not None
        yield Served(kubeconfig, int(server.group(2)), server.group(1))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)


def _kubectl(served: Served, tmp_path: Path, *args: str, stdin: str | None = None):
    return kubectl(served.kubeconfig, tmp_path, *args, stdin=stdin)


INVALID_NAMES = {
    "configmap-underscore": (
        ["create", "configmap", "Bad_Name"],
        f'ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": {SUBDOMAIN}',
    ),
    "configmap-too-long": (
        ["create", "configmap", "a" * 254],
        f'metadata.name: Invalid value: "{"a" * 254}": must be no more than 253 characters',
    ),
    "namespace-dot": (
        ["create", "namespace", "my.ns"],
        f'The Namespace "my.ns" is invalid: metadata.name: Invalid value: "my.ns": {LABEL}',
    ),
    "service-digit-first": (
        ["create", "service", "clusterip", "1web", "--tcp=80"],
        f'Service "1web" is invalid: metadata.name: Invalid value: "1web": {DNS1035}',
    ),
    "deployment-upper": (
        ["create", "deployment", "Web", "--image=nginx"],
        f'Deployment.apps "Web" is invalid: metadata.name: Invalid value: "Web": {SUBDOMAIN}',
    ),
    "clusterrole-percent": (
        ["create", "clusterrole", "a%b", "--verb=get", "--resource=pods"],
        "metadata.name: Invalid value: \"a%b\": may not contain '%'",
    ),
}


@needs_kubectl
@pytest.mark.parametrize("case", sorted(INVALID_NAMES))
def test_an_invalid_name_is_422_in_the_api_servers_words(served, tmp_path, case):
    args, message = INVALID_NAMES[case]
    proc = _kubectl(served, tmp_path, *args)
    assert proc.returncode == 1
    assert message in proc.stderr


@needs_kubectl
def test_valid_names_by_kind_and_generate_name(served, tmp_path):
    # RBAC names are path segments: a colon is fine; a Namespace may start with a digit
    ok = [
        ["create", "clusterrole", "system:viewer-x", "--verb=get", "--resource=pods"],
        ["create", "namespace", "123-abc"],
        ["create", "configmap", "a.b-c"],
    ]
    for args in ok:
        proc = _kubectl(served, tmp_path, *args)
        assert proc.returncode == 0, proc.stderr
    made = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"generateName":"web-"}}'
    proc = _kubectl(served, tmp_path, "create", "-f", "-", "-o", "name", stdin=made)
    assert proc.returncode == 0, proc.stderr
    assert re.fullmatch(r"configmap/web-[bcdfghjklmnpqrstvwxz2456789]{5}", proc.stdout.strip())
    bad = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"generateName":"Web-"}}'
    proc = _kubectl(served, tmp_path, "create", "-f", "-", stdin=bad)
    assert proc.returncode == 1
    assert f'metadata.generateName: Invalid value: "Web-": {SUBDOMAIN}' in proc.stderr
    nameless = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{}}'
    proc = _kubectl(served, tmp_path, "create", "-f", "-", stdin=nameless)
    assert proc.returncode == 1
    assert "metadata.name: Required value: name or generateName is required" in proc.stderr


def _raw(cluster, head: bytes, body: bytes = b"") -> tuple[int, dict]:
    """Send one request as bytes, its credential added after the request line; the status code
    and the Status body of the answer."""
    line, _, rest = head.partition(b"\r\n")
    credential = f"Authorization: {cluster.authorization['Authorization']}\r\n".encode()
    with socket.create_connection(("127.0.0.1", cluster.port), timeout=20) as sock:
        sock.sendall(line + b"\r\n" + credential + rest + b"\r\n" + body)
        answer = http.client.HTTPResponse(sock)
        answer.begin()
        return answer.status, json.loads(answer.read())


POST = b"POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: x\r\n"


@pytest.mark.parametrize("length", [b"-5", b"abc", b"1e3"])
def test_a_malformed_content_length_is_400_with_a_status(served, length):
    code, body = _raw(
        served, POST + b"Content-Type: application/json\r\nContent-Length: " + length + b"\r\n"
    )
    assert code == 400
    assert body["kind"] == "Status" and body["reason"] == "BadRequest" and body["code"] == 400
    assert body["message"] == f'bad Content-Length "{length.decode()}"'


def test_a_deep_body_is_400_with_a_status_and_the_server_goes_on(served):
    deep = (
        b'{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":'
        + b"[" * 100_000
        + b"]" * 100_000
        + b"}"
    )
    head = POST + b"Content-Type: application/json\r\nContent-Length: %d\r\n" % len(deep)
    code, body = _raw(served, head, deep)
    assert code == 400
    assert body["reason"] == "BadRequest"
    assert "JSON nested 100001 levels deep, deeper than the limit of 512" in body["message"]
    code, body = _raw(served, b"GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n")
    assert code == 200 and body["kind"] == "NamespaceList"


SLOW_POLICY = """apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: slow}
spec:
  validationFailureAction: Enforce
  background: false
  rules:
    - name: slow
      match: {any: [{resources: {kinds: [ConfigMap]}}]}
      validate:
        message: "m"
        foreach:
          - list: "split(request.object.data.x, '')"
            foreach:
              - list: "split(request.object.data.x, '')"
                foreach:
                  - list: "split(request.object.data.x, '')"
                    deny:
                      conditions:
                        any:
                          - key: "{{ element }}"
                            operator: Equals
                            value: "zzz"
"""
REDOS_POLICY = """apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: redos}
spec:
  validationFailureAction: Enforce
  rules:
    - name: redos
      match: {any: [{resources: {kinds: [Secret]}}]}
      validate:
        message: "annotation s must not be all letter a"
        deny:
          conditions:
            any:
              - key: "{{ regex_match('^(a+)+$', request.object.metadata.annotations.s) }}"
                operator: Equals
                value: true
"""


@needs_kubectl
def test_a_policy_that_would_take_minutes_is_cut_off_at_the_admission_timeout(served, tmp_path):
    assert _kubectl(served, tmp_path, "apply", "-f", "-", stdin=SLOW_POLICY).returncode == 0
    # 400^3 = 64 million foreach evaluations: about half an hour in this engine
    slow = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: slow}\ndata: {x: " + "a" * 400 + "}\n"
    started = time.monotonic()
    proc = _kubectl(served, tmp_path, "create", "-f", "-", stdin=slow)
    took = time.monotonic() - started
    assert proc.returncode == 1
    assert "Internal error occurred: failed calling webhook" in proc.stderr
    assert "context deadline exceeded (no answer within 2s)" in proc.stderr
    assert took < 15
    # the server is free again at once: the worker was stopped, nothing was stored
    started = time.monotonic()
    listed = _kubectl(served, tmp_path, "get", "configmap", "-o", "name")
    assert listed.returncode == 0 and "configmap/slow" not in listed.stdout
    assert time.monotonic() - started < 5
    assert _kubectl(served, tmp_path, "delete", "clusterpolicy", "slow").returncode == 0


@needs_kubectl
def test_a_redos_policy_admits_in_time(served, tmp_path):
    """The issue's hostile regex, applied to the trial cluster: it froze the server before."""
    assert _kubectl(served, tmp_path, "apply", "-f", "-", stdin=REDOS_POLICY).returncode == 0
    secret = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: %s\n  annotations: {s: '%s'}\n"
    started = time.monotonic()
    proc = _kubectl(
        served, tmp_path, "create", "-f", "-", stdin=secret % ("passes", "a" * 60 + "!")
    )
    assert proc.returncode == 0, proc.stderr
    assert time.monotonic() - started < 10
    denied = _kubectl(served, tmp_path, "create", "-f", "-", stdin=secret % ("denied", "aaa"))
    assert denied.returncode == 1 and "annotation s must not be all letter a" in denied.stderr


def test_a_background_scan_that_would_take_minutes_is_stopped():
    """The report producer reruns every policy after each write: bounded as well."""
    config_map = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "slow", "namespace": "default"},
        "data": {"x": "a" * 400},
    }
    import yaml

    state = ClusterState([config_map], extensions=domain_extensions(), report_seconds=1)
    policy = yaml.safe_load(SLOW_POLICY.replace("background: false", "background: true"))
    policy["spec"]["validationFailureAction"] = "Audit"
    started = time.monotonic()
    state.create(policy)
    assert time.monotonic() - started < 10
    # the scan's deadline (1 s) comes before the policy's own budget (5 s per resource): it is
    # the deadline that stops it, named, never minutes. (A budget left small by an earlier
    # caller in this process once made the budget win here: budget.limited restores it.)
    assert any(
        "background scan stopped: context deadline exceeded" in e for e in state.report_errors
    ), state.report_errors


@pytest.mark.parametrize(
    ("content_type", "patch"),
    [
        ("application/json-patch+json", [{"op": "replace", "path": "", "value": [1]}]),
        ("application/merge-patch+json", ["not", "an", "object"]),
    ],
)
def test_a_patch_that_leaves_no_object_is_422_and_the_object_stays(served, content_type, patch):
    """A JSON patch may replace the root and a merge patch that is not an object replaces the
    whole: the result must still be an object, or the write is refused in the API's words."""
    name = f"keep-{content_type.split('/')[1].split('-')[0]}"
    created = json.dumps(
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": {"a": "1"}}
    ).encode()
    code, _ = _raw(
        served,
        POST + b"Content-Type: application/json\r\nContent-Length: %d\r\n" % len(created),
        created,
    )
    assert code == 201
    body = json.dumps(patch).encode()
    head = (
        f"PATCH /api/v1/namespaces/default/configmaps/{name} HTTP/1.1\r\nHost: x\r\n"
        f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
    ).encode()
    code, status = _raw(served, head, body)
    assert code == 422, status
    assert status["kind"] == "Status" and status["reason"] == "Invalid"
    get = f"GET /api/v1/namespaces/default/configmaps/{name} HTTP/1.1\r\nHost: x\r\n".encode()
    code, kept = _raw(served, get)
    assert code == 200 and kept["data"] == {"a": "1"}
