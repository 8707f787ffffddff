"""Kubernetes protobuf request bodies: kubectl's generator commands against the offline cluster
(each stored object checked field by field, and against the JSON ``--dry-run=client`` prints),
and the wire decoder on hand-built bytes."""

from __future__ import annotations

import base64
import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from itbench.cluster import ClusterError, start_cluster
from itbench.cluster.manifests import MAX_DEPTH
from itbench.cluster.protobuf import MAGIC, decode_body, read_varint, schema
from itbench.gotime import format_duration
from tests.cluster.kubectl_run import kubectl, needs_kubectl

# -- a tiny protobuf writer for hand-built bodies -------------------------------------------------


def varint(value: int) -> bytes:
    value &= 0xFFFF_FFFF_FFFF_FFFF  # negative ints go out as 10-byte two's complement
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def vfield(number: int, value: int) -> bytes:
    return varint(number << 3) + varint(value)


def lfield(number: int, value: bytes | str) -> bytes:
    data = value.encode() if isinstance(value, str) else value
    return varint(number << 3 | 2) + varint(len(data)) + data


def body(api_version: str, kind: str, raw: bytes) -> bytes:
    type_meta = lfield(1, api_version) + lfield(2, kind)
    return MAGIC + lfield(1, type_meta) + lfield(2, raw) + lfield(3, "") + lfield(4, "")


def object_meta(name: str, **labels: str) -> bytes:
    entries = b"".join(lfield(11, lfield(1, k) + lfield(2, v)) for k, v in labels.items())
    return lfield(1, name) + entries


def meta(name: str, **labels: str) -> bytes:
    """An object's ``metadata`` field (number 1 in every kind)."""
    return lfield(1, object_meta(name, **labels))


# -- the wire decoder -----------------------------------------------------------------------------


def test_varints_over_127_and_negative_int32_decode():
    assert read_varint(varint(300), 0) == (300, 2)
    assert read_varint(varint(2**40 + 5), 0)[0] == 2**40 + 5
    spec = vfield(1, 300) + vfield(5, -7)  # replicas, minReadySeconds
    deployment = decode_body(body("apps/v1", "Deployment", meta("d") + lfield(2, spec)))
    assert deployment["spec"]["replicas"] == 300
    assert deployment["spec"]["minReadySeconds"] == -7  # sent as a 10-byte varint


def test_nested_messages_and_repeated_messages():
    container = lfield(1, "app") + lfield(2, "nginx:1.27")
    sidecar = lfield(1, "log") + lfield(2, "busybox")
    pod_spec = lfield(2, container) + lfield(2, sidecar)
    template = meta("", app="web") + lfield(2, pod_spec)
    spec = lfield(3, template)
    deployment = decode_body(body("apps/v1", "Deployment", meta("web") + lfield(2, spec)))
    containers = deployment["spec"]["template"]["spec"]["containers"]
    assert [(c["name"], c["image"]) for c in containers] == [
        ("app", "nginx:1.27"),
        ("log", "busybox"),
    ]
    assert deployment["spec"]["template"]["metadata"]["labels"] == {"app": "web"}
    assert deployment["metadata"]["name"] == "web"
    # a non-pointer struct absent on the wire is still an object (Go never omits structs)
    assert containers[0]["resources"] == {}
    assert deployment["status"] == {}


def test_packed_and_unpacked_repeated_scalars_agree():
    groups = [1000, 2000, 70000]
    packed_payload = b"".join(varint(g) for g in groups)
    packed = lfield(4, packed_payload)  # PodSecurityContext.supplementalGroups
    unpacked = b"".join(vfield(4, g) for g in groups)
    for security in (packed, unpacked):
        pod = decode_body(body("v1", "Pod", meta("p") + lfield(2, lfield(14, security))))
        assert pod["spec"]["securityContext"]["supplementalGroups"] == groups


def test_maps_of_strings_and_of_bytes():
    data = lfield(2, lfield(1, "a") + lfield(2, "1")) + lfield(2, lfield(1, "b") + lfield(2, ""))
    config_map = decode_body(body("v1", "ConfigMap", meta("cm", tier="db") + data))
    assert config_map["data"] == {"a": "1", "b": ""}
    assert config_map["metadata"]["labels"] == {"tier": "db"}
    blob = bytes(range(256))
    secret = decode_body(
        body("v1", "Secret", meta("s") + lfield(2, lfield(1, "k") + lfield(2, blob)))
    )
    assert base64.b64decode(secret["data"]["k"]) == blob


def test_pointer_zero_is_kept_and_omitempty_zero_is_dropped():
    spec = vfield(1, 0) + vfield(5, 0) + vfield(7, 0)  # replicas, minReadySeconds, paused
    deployment = decode_body(body("apps/v1", "Deployment", meta("d") + lfield(2, spec)))
    assert deployment["spec"]["replicas"] == 0
    assert "minReadySeconds" not in deployment["spec"]
    assert "paused" not in deployment["spec"]
    # a pointer absent on the wire is absent in JSON
    assert "replicas" not in decode_body(body("apps/v1", "Deployment", lfield(2, b"")))["spec"]


def test_int_or_string_time_and_microtime():
    by_number = lfield(1, "http") + vfield(3, 80) + lfield(4, vfield(1, 0) + vfield(2, 8080))
    by_name = lfield(1, "named") + vfield(3, 81) + lfield(4, vfield(1, 1) + lfield(3, "web"))
    service = decode_body(
        body("v1", "Service", lfield(2, lfield(1, by_number) + lfield(1, by_name)))
    )
    assert [p["targetPort"] for p in service["spec"]["ports"]] == [8080, "web"]
    created = lfield(8, vfield(1, 1_700_000_000) + vfield(2, 5))
    event_time = lfield(10, vfield(1, 1_700_000_000) + vfield(2, 123_456_789))
    event = decode_body(body("v1", "Event", lfield(1, lfield(1, "e") + created) + event_time))
    assert event["metadata"]["creationTimestamp"] == "2023-11-14T22:13:20Z"
    assert event["eventTime"] == "2023-11-14T22:13:20.123456Z"
    # Go's zero time marshals as null
    assert decode_body(body("v1", "Event", lfield(1, b"")))["metadata"]["creationTimestamp"] is None


@pytest.mark.parametrize(
    ("nanoseconds", "text"),
    [
        (0, "0s"),
        (1_500, "1.5µs"),
        (100_000_000, "100ms"),
        (1_500_000_000, "1.5s"),
        (90 * 10**9, "1m30s"),
        (3600 * 10**9, "1h0m0s"),
        (-2 * 10**9, "-2s"),
    ],
)
def test_durations_print_as_go_does(nanoseconds, text):
    assert format_duration(nanoseconds) == text


def test_truncated_body_is_a_400_naming_kind_and_field():
    spec = lfield(3, lfield(2, lfield(2, lfield(1, "app") + lfield(2, "nginx"))))
    whole = body("apps/v1", "Deployment", meta("d") + lfield(2, spec))
    raw = meta("d") + lfield(2, spec)
    cut = body("apps/v1", "Deployment", raw[:-3] + b"")  # the envelope is whole, the object is not
    assert decode_body(whole)["spec"]["template"]["spec"]["containers"][0]["image"] == "nginx"
    with pytest.raises(ClusterError) as caught:
        decode_body(cut)
    assert caught.value.code == 400
    message = str(caught.value)
    assert message.startswith("protobuf body of Deployment spec")
    assert "declares" in message and "bytes but only" in message
    with pytest.raises(ClusterError) as envelope:
        decode_body(whole[:-5])
    assert envelope.value.code == 400
    assert "envelope" in str(envelope.value)


def test_unknown_kind_is_a_415_naming_it():
    with pytest.raises(ClusterError) as caught:
        decode_body(body("example.com/v1", "Widget", meta("w")))
    assert caught.value.code == 415
    assert "Widget (example.com/v1)" in str(caught.value)


def test_field_number_the_schema_lacks_is_a_400_naming_it():
    with pytest.raises(ClusterError) as caught:
        decode_body(body("v1", "ConfigMap", meta("cm") + lfield(99, "x")))
    assert caught.value.code == 400
    assert "ConfigMap" in str(caught.value)
    assert "field number 99 is not a field of ConfigMap" in str(caught.value)


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        (b"{}", "does not start with the Kubernetes magic"),
        (MAGIC + lfield(2, b""), "names no apiVersion and kind"),
        (body("v1", "ConfigMap", lfield(1, lfield(1, b"\xff\xfe"))), "metadata.name"),
        (body("v1", "ConfigMap", vfield(1, 3)), "wire type 0"),
        (body("v1", "ConfigMap", b"\x0a\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"), "varint"),
    ],
)
def test_garbled_bodies_are_clean_400s(raw, problem):
    with pytest.raises(ClusterError) as caught:
        decode_body(raw)
    assert caught.value.code == 400
    assert problem in str(caught.value)


def test_nesting_beyond_the_limit_is_refused():
    ok = body("v1", "ConfigMap", meta("cm"))
    assert decode_body(ok, depth=MAX_DEPTH - 2)["metadata"]["name"] == "cm"
    with pytest.raises(ClusterError) as caught:
        decode_body(ok, depth=MAX_DEPTH)
    assert caught.value.code == 400
    assert f"nested more than {MAX_DEPTH} levels" in str(caught.value)


def test_schema_covers_every_kind_the_cluster_serves():
    from itbench.cluster.resources import BUILTIN_TYPES

    table = schema()
    for rtype in BUILTIN_TYPES:
        if rtype.group == "apiextensions.k8s.io":
            continue  # another repository; no kubectl generator creates CRDs
        message = table.message_of(rtype.api_version, rtype.kind)
        assert message is not None, rtype
        assert message in table.messages


# -- real kubectl ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with start_cluster(None, kubeconfig=tmp_path_factory.mktemp("kc") / "kc") as running:
        yield running


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("home")


def run(cluster, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return kubectl(cluster.kubeconfig_path, home, *args)


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("files")
    key, cert = folder / "tls.key", folder / "tls.crt"
    made = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key)]
        + ["-out", str(cert), "-days", "1", "-subj", "/CN=offline"],
        capture_output=True,
    )
    blob = folder / "blob.bin"
    blob.write_bytes(bytes(range(256)) * 3)
    paths = {"blob": blob}
    if made.returncode == 0:
        paths |= {"key": key, "cert": cert}
    return paths


Check = Callable[[dict[str, Any], dict[str, Path]], None]


def _containers(obj: dict[str, Any]) -> list[dict[str, Any]]:
    spec = obj["spec"]
    if "jobTemplate" in spec:
        spec = spec["jobTemplate"]["spec"]
    return spec["template"]["spec"]["containers"]


def _check_secret_tls(obj, files):
    assert obj["type"] == "kubernetes.io/tls"
    assert base64.b64decode(obj["data"]["tls.crt"]) == files["cert"].read_bytes()
    assert base64.b64decode(obj["data"]["tls.key"]) == files["key"].read_bytes()


def _check_docker(obj, files):
    assert obj["type"] == "kubernetes.io/dockerconfigjson"
    config = json.loads(base64.b64decode(obj["data"][".dockerconfigjson"]))
    assert config["auths"]["r.example"]["username"] == "robot"
    assert config["auths"]["r.example"]["password"] == "hunter2"


def _check_ingress(obj, files):
    rule = obj["spec"]["rules"][0]
    assert rule["host"] == "shop.example"
    path = rule["http"]["paths"][0]
    assert path["path"] == "/cart"
    assert path["backend"]["service"] == {"name": "cart", "port": {"number": 8080}}


#: (id, kubectl create arguments, resource, name, namespaced, check of the stored object)
COMMANDS: list[tuple[str, list[str], str, str, bool, Check]] = [
    (
        "namespace",
        ["namespace", "pb-ns"],
        "namespace",
        "pb-ns",
        False,
        lambda o, f: _eq(o["metadata"]["name"], "pb-ns"),
    ),
    (
        "configmap",
        ["configmap", "cm1", "--from-literal=a=1", "--from-literal=b=two"],
        "configmap",
        "cm1",
        True,
        lambda o, f: _eq(o["data"], {"a": "1", "b": "two"}),
    ),
    (
        "secret-generic",
        ["secret", "generic", "s1", "--from-literal=k=v"],
        "secret",
        "s1",
        True,
        lambda o, f: _eq(base64.b64decode(o["data"]["k"]), b"v"),
    ),
    (
        "secret-generic-binary",
        ["secret", "generic", "bin", "--from-file=blob={blob}"],
        "secret",
        "bin",
        True,
        lambda o, f: _eq(base64.b64decode(o["data"]["blob"]), f["blob"].read_bytes()),
    ),
    (
        "secret-tls",
        ["secret", "tls", "t1", "--cert={cert}", "--key={key}"],
        "secret",
        "t1",
        True,
        _check_secret_tls,
    ),
    (
        "secret-docker-registry",
        ["secret", "docker-registry", "d1"]
        + ["--docker-username=robot", "--docker-password=hunter2", "--docker-server=r.example"],
        "secret",
        "d1",
        True,
        _check_docker,
    ),
    (
        "serviceaccount",
        ["serviceaccount", "sa1"],
        "serviceaccount",
        "sa1",
        True,
        lambda o, f: _eq(o["metadata"]["name"], "sa1"),
    ),
    (
        "deployment",
        ["deployment", "web", "--image=nginx:1.27", "--replicas=3", "--port=8080"],
        "deployment",
        "web",
        True,
        lambda o, f: _eq(
            (o["spec"]["replicas"], _containers(o)[0]["image"], _containers(o)[0]["ports"]),
            (3, "nginx:1.27", [{"containerPort": 8080}]),
        ),
    ),
    (
        "deployment-zero-replicas",
        ["deployment", "idle", "--image=nginx", "--replicas=0"],
        "deployment",
        "idle",
        True,
        lambda o, f: _eq(o["spec"]["replicas"], 0),
    ),
    (
        "job",
        ["job", "j1", "--image=busybox", "--", "echo", "hi"],
        "job",
        "j1",
        True,
        lambda o, f: _eq(
            (_containers(o)[0]["image"], _containers(o)[0]["command"]),
            ("busybox", ["echo", "hi"]),
        ),
    ),
    (
        "cronjob",
        ["cronjob", "c1", "--image=busybox", "--schedule=*/5 * * * *", "--", "date"],
        "cronjob",
        "c1",
        True,
        lambda o, f: _eq(
            (o["spec"]["schedule"], _containers(o)[0]["command"]), ("*/5 * * * *", ["date"])
        ),
    ),
    (
        "role",
        ["role", "r1", "--verb=get,list", "--resource=pods,deployments.apps"],
        "role",
        "r1",
        True,
        lambda o, f: _eq(
            [(r["apiGroups"], r["resources"], r["verbs"]) for r in o["rules"]],
            [([""], ["pods"], ["get", "list"]), (["apps"], ["deployments"], ["get", "list"])],
        ),
    ),
    (
        "clusterrole",
        ["clusterrole", "cr1", "--verb=get", "--resource=nodes", "--non-resource-url=/logs/*"],
        "clusterrole",
        "cr1",
        False,
        lambda o, f: _eq(
            [(r.get("resources"), r.get("nonResourceURLs"), r["verbs"]) for r in o["rules"]],
            [(["nodes"], None, ["get"]), (None, ["/logs/*"], ["get"])],
        ),
    ),
    (
        "rolebinding",
        ["rolebinding", "rb1", "--role=r1", "--user=bob", "--group=devs"],
        "rolebinding",
        "rb1",
        True,
        lambda o, f: _eq(
            (o["roleRef"]["name"], [(s["kind"], s["name"]) for s in o["subjects"]]),
            ("r1", [("User", "bob"), ("Group", "devs")]),
        ),
    ),
    (
        "clusterrolebinding",
        ["clusterrolebinding", "crb1", "--clusterrole=cr1", "--serviceaccount=pb:sa1"],
        "clusterrolebinding",
        "crb1",
        False,
        lambda o, f: _eq(
            (o["roleRef"]["kind"], o["subjects"]),
            ("ClusterRole", [{"kind": "ServiceAccount", "name": "sa1", "namespace": "pb"}]),
        ),
    ),
    (
        "priorityclass",
        ["priorityclass", "pc1", "--value=1000", "--description=urgent"],
        "priorityclass",
        "pc1",
        False,
        lambda o, f: _eq((o["value"], o["description"]), (1000, "urgent")),
    ),
    (
        "quota",
        ["quota", "q1", "--hard=pods=10,cpu=2,memory=1Gi"],
        "resourcequota",
        "q1",
        True,
        lambda o, f: _eq(o["spec"]["hard"], {"pods": "10", "cpu": "2", "memory": "1Gi"}),
    ),
    (
        "poddisruptionbudget",
        ["poddisruptionbudget", "pdb1", "--selector=app=web", "--min-available=1"],
        "poddisruptionbudget",
        "pdb1",
        True,
        lambda o, f: _eq(
            (o["spec"]["minAvailable"], o["spec"]["selector"]), (1, {"matchLabels": {"app": "web"}})
        ),
    ),
    (
        "poddisruptionbudget-percent",
        ["poddisruptionbudget", "pdb2", "--selector=app=web", "--max-unavailable=25%"],
        "poddisruptionbudget",
        "pdb2",
        True,
        lambda o, f: _eq(o["spec"]["maxUnavailable"], "25%"),
    ),
    (
        "ingress",
        ["ingress", "ing1", "--rule=shop.example/cart=cart:8080"],
        "ingress",
        "ing1",
        True,
        _check_ingress,
    ),
    (
        "service-clusterip",
        ["service", "clusterip", "svc1", "--tcp=80:8080"],
        "service",
        "svc1",
        True,
        lambda o, f: _eq(
            (o["spec"]["type"], o["spec"]["ports"][0]["port"], o["spec"]["ports"][0]["targetPort"]),
            ("ClusterIP", 80, 8080),
        ),
    ),
    (
        "service-nodeport",
        ["service", "nodeport", "svc2", "--tcp=80:8080", "--node-port=30080"],
        "service",
        "svc2",
        True,
        lambda o, f: _eq(
            (o["spec"]["type"], o["spec"]["ports"][0]["nodePort"]), ("NodePort", 30080)
        ),
    ),
    (
        "service-loadbalancer",
        ["service", "loadbalancer", "svc3", "--tcp=443:8443"],
        "service",
        "svc3",
        True,
        lambda o, f: _eq(
            (o["spec"]["type"], o["spec"]["ports"][0]["targetPort"]), ("LoadBalancer", 8443)
        ),
    ),
    (
        "service-externalname",
        ["service", "externalname", "svc4", "--external-name=db.example"],
        "service",
        "svc4",
        True,
        lambda o, f: _eq(
            (o["spec"]["type"], o["spec"]["externalName"]), ("ExternalName", "db.example")
        ),
    ),
]


def _eq(actual: Any, expected: Any) -> None:
    assert actual == expected


def _args(args: list[str], files: dict[str, Path]) -> list[str]:
    needed = {name for name in ("cert", "key") if any(f"{{{name}}}" in a for a in args)}
    if needed - files.keys():
        pytest.skip("openssl could not make a TLS key pair here")
    return [a.format(**{k: str(v) for k, v in files.items()}) for a in args]


#: Metadata the API server sets on create, whatever the client sent.
SERVER_SET = ("creationTimestamp", "uid", "resourceVersion", "generation")


def _comparable(obj: dict[str, Any]) -> dict[str, Any]:
    obj = json.loads(json.dumps(obj))
    for key in SERVER_SET:
        obj["metadata"].pop(key, None)
    return obj


@needs_kubectl
@pytest.mark.parametrize(
    ("args", "resource", "name", "namespaced", "check"),
    [pytest.param(*entry[1:], id=entry[0]) for entry in COMMANDS],
)
def test_generator_command_stores_what_kubectl_built(
    cluster, home, files, args, resource, name, namespaced, check
):
    scope = ["-n", "pb"] if namespaced else []
    if namespaced:
        run(cluster, home, "create", "namespace", "pb")  # once; later calls find it there
    argv = _args(args, files)
    # flags go before ``--``: what follows is the container's command
    split = argv.index("--") if "--" in argv else len(argv)
    head, command = ["create", *argv[:split], *scope], argv[split:]
    dry = run(cluster, home, *head, "--dry-run=client", "-o", "json", *command)
    assert dry.returncode == 0, dry.stderr
    built = json.loads(dry.stdout)

    created = run(cluster, home, *head, *command)
    assert created.returncode == 0, created.stderr
    assert "created" in created.stdout
    got = run(cluster, home, "get", resource, name, *scope, "-o", "json")
    assert got.returncode == 0, got.stderr
    stored = json.loads(got.stdout)
    check(stored, files)

    # differential: every field of kubectl's own JSON rendering of the object it sent as
    # protobuf came through the decoder unchanged; the server adds only its own metadata and,
    # for workloads, the status its controllers write
    expected, actual = _comparable(built), _comparable(stored)
    if expected.get("status") == {}:
        actual["status"] = {}
    if expected.get("kind") == "PodDisruptionBudget":
        # the disruption controller writes a budget's status (disruption.py), not the client
        actual["status"] = expected["status"]
    if namespaced:
        expected["metadata"].setdefault("namespace", "pb")
    assert actual == expected


@needs_kubectl
def test_a_custom_kind_in_protobuf_is_refused_naming_it(cluster, home):
    """The HTTP path: what the server answers for a protobuf body it cannot read."""
    import urllib.error
    import urllib.request

    for raw, code, text in [
        (body("example.com/v1", "Widget", meta("w")), 415, "Widget (example.com/v1)"),
        (body("v1", "ConfigMap", meta("cm")[:-1]), 400, "protobuf body of ConfigMap"),
    ]:
        request = urllib.request.Request(
            f"http://127.0.0.1:{cluster.port}/api/v1/namespaces/default/configmaps",
            data=raw,
            method="POST",
            headers={
                "Content-Type": "application/vnd.kubernetes.protobuf",
                **cluster.authorization,
            },
        )
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(request, timeout=10)
        answer = json.loads(caught.value.read())
        assert (caught.value.code, answer["kind"], answer["code"]) == (code, "Status", code)
        assert text in answer["message"]


@needs_kubectl
def test_kubectl_really_sends_protobuf_and_gets_the_object_back(cluster, home):
    created = run(cluster, home, "create", "configmap", "wire", "--from-literal=x=y", "-v=8")
    assert created.returncode == 0, created.stderr
    assert "Content-Type: application/vnd.kubernetes.protobuf" in created.stderr
    assert "configmap/wire created" in created.stdout
    got = run(cluster, home, "get", "configmap", "wire", "-o", "jsonpath={.data.x}")
    assert got.stdout == "y"


@needs_kubectl
def test_access_reviews_sent_as_protobuf_echo_their_question(cluster, home):
    """``auth can-i`` sends a SelfSubjectAccessReview as protobuf; the answer carries its spec."""
    asked = run(cluster, home, "auth", "can-i", "delete", "pods", "-n", "pb", "-v=9")
    assert (asked.returncode, asked.stdout.strip()) == (0, "yes"), asked.stderr
    assert "Content-Type: application/vnd.kubernetes.protobuf" in asked.stderr
    assert '"resourceAttributes":{"namespace":"pb","verb":"delete","resource":"pods"}' in (
        asked.stderr.replace(" ", "").replace("\\", "")  # -v=9 logs the body with \" quotes
    )
    whoami = run(cluster, home, "auth", "whoami", "-o", "json")
    assert whoami.returncode == 0, whoami.stderr
    assert json.loads(whoami.stdout)["kind"] == "SelfSubjectReview"
