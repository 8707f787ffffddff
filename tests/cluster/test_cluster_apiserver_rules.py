"""The offline cluster refuses what a real API server refuses (issue 34), through the real
kubectl: ephemeral containers on create, immutable fields on update; ephemeral containers are
added through the ``ephemeralcontainers`` subresource, as ``kubectl debug`` does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from itbench.cluster import ClusterError, ClusterState, start_cluster
from tests.cluster.kubectl_run import kubectl_on, needs_kubectl

POD = {
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {"name": "app", "namespace": "default"},
    "spec": {"containers": [{"name": "app", "image": "nginx:1.27"}]},
}
DEBUGGER = {"name": "debugger", "image": "busybox:1.36", "targetContainerName": "app"}
WITH_EPHEMERAL = {**POD, "spec": {**POD["spec"], "ephemeralContainers": [DEBUGGER]}}


@pytest.fixture
def cluster(tmp_path):
    with start_cluster([POD], kubeconfig=tmp_path / "kc") as running:
        yield running


def _pod(cluster, tmp_path: Path, name: str = "app") -> dict:
    return json.loads(kubectl_on(cluster, tmp_path, "get", "pod", name, "-o", "json").stdout)


@needs_kubectl
def test_a_pod_declaring_ephemeral_containers_is_refused_on_create(cluster, tmp_path):
    body = {**WITH_EPHEMERAL, "metadata": {"name": "dbg", "namespace": "default"}}
    for verb in ("apply", "create"):
        made = kubectl_on(cluster, tmp_path, verb, "-f", "-", stdin=json.dumps(body))
        assert made.returncode == 1, verb
        assert (
            'The Pod "dbg" is invalid: spec.ephemeralContainers: Forbidden: cannot be set on create'
            in made.stderr
        ), made.stderr
    assert kubectl_on(cluster, tmp_path, "get", "pod", "dbg").returncode == 1


@needs_kubectl
def test_kubectl_debug_adds_an_ephemeral_container_through_the_subresource(cluster, tmp_path):
    added = kubectl_on(
        cluster, tmp_path, "debug", "pod/app", "--image=busybox:1.36", "-c", "debugger",
        "--target=app", "--profile=general",
    )  # fmt: skip
    assert added.returncode == 0, added.stderr
    assert [c["name"] for c in _pod(cluster, tmp_path)["spec"]["ephemeralContainers"]] == [
        "debugger"
    ]
    # a second one through a strategic merge patch of the subresource keeps the first
    second = kubectl_on(
        cluster, tmp_path, "patch", "pod", "app", "--subresource=ephemeralcontainers",
        "--type=strategic", "-p", '{"spec":{"ephemeralContainers":[{"name":"d2","image":"busybox"}]}}',
    )  # fmt: skip
    assert second.returncode == 0, second.stderr
    names = [c["name"] for c in _pod(cluster, tmp_path)["spec"]["ephemeralContainers"]]
    assert names == ["debugger", "d2"]
    # one may not be removed
    removed = kubectl_on(
        cluster, tmp_path, "patch", "pod", "app", "--subresource=ephemeralcontainers",
        "--type=merge", "-p", '{"spec":{"ephemeralContainers":[{"name":"d2","image":"busybox"}]}}',
    )  # fmt: skip
    assert removed.returncode == 1
    assert 'existing ephemeral containers "debugger" may not be removed' in removed.stderr
    # nor added by updating the pod itself
    plain = kubectl_on(
        cluster, tmp_path, "patch", "pod", "app", "--type=merge",
        "-p", '{"spec":{"ephemeralContainers":[]}}',
    )  # fmt: skip
    assert plain.returncode == 1 and "pod updates may not change fields" in plain.stderr


@needs_kubectl
def test_a_pods_image_may_change_its_other_fields_may_not(cluster, tmp_path):
    assert (
        kubectl_on(cluster, tmp_path, "set", "image", "pod/app", "app=nginx:1.28").returncode == 0
    )
    assert _pod(cluster, tmp_path)["spec"]["containers"][0]["image"] == "nginx:1.28"
    changed = kubectl_on(
        cluster, tmp_path, "patch", "pod", "app", "--type=merge",
        "-p", '{"spec":{"hostNetwork":true}}',
    )  # fmt: skip
    assert changed.returncode == 1
    assert (
        'The Pod "app" is invalid: spec: Forbidden: pod updates may not change fields other than '
        "`spec.containers[*].image`" in changed.stderr
    )
    assert "hostNetwork" not in _pod(cluster, tmp_path)["spec"]
    labelled = kubectl_on(cluster, tmp_path, "label", "pod", "app", "tier=web")
    assert labelled.returncode == 0, labelled.stderr


@needs_kubectl
@pytest.mark.parametrize(
    ("manifest", "patch", "message"),
    [
        (
            {
                "apiVersion": "v1",
                "kind": "Service",
                "metadata": {"name": "web", "namespace": "default"},
                "spec": {"clusterIP": "10.96.0.10", "ports": [{"port": 80}]},
            },
            {"spec": {"clusterIP": "10.96.0.11"}},
            'spec.clusterIPs[0]: Invalid value: "10.96.0.11": may not change once set',
        ),
        (
            {
                "apiVersion": "batch/v1",
                "kind": "Job",
                "metadata": {"name": "once", "namespace": "default"},
                "spec": {
                    "template": {
                        "spec": {
                            "restartPolicy": "Never",
                            "containers": [{"name": "c", "image": "busybox:1.36"}],
                        }
                    }
                },
            },
            {"spec": {"template": {"spec": {"containers": [{"name": "c", "image": "b:2"}]}}}},
            "spec.template: Invalid value:",
        ),
        (
            {
                "apiVersion": "apps/v1",
                "kind": "Deployment",
                "metadata": {"name": "web", "namespace": "default"},
                "spec": {
                    "selector": {"matchLabels": {"app": "web"}},
                    "template": {
                        "metadata": {"labels": {"app": "web", "v": "2"}},
                        "spec": {"containers": [{"name": "c", "image": "nginx:1.27"}]},
                    },
                },
            },
            {"spec": {"selector": {"matchLabels": {"v": "2"}}}},
            "spec.selector: Invalid value:",
        ),
        (
            {
                "apiVersion": "v1",
                "kind": "ConfigMap",
                "metadata": {"name": "frozen", "namespace": "default"},
                "immutable": True,
                "data": {"mode": "a"},
            },
            {"data": {"mode": "b"}},
            "data: Forbidden: field is immutable when `immutable` is set",
        ),
    ],
    ids=["service-cluster-ip", "job-template", "deployment-selector", "immutable-configmap"],
)
def test_immutable_fields_are_refused_on_update(cluster, tmp_path, manifest, patch, message):
    made = kubectl_on(cluster, tmp_path, "create", "-f", "-", stdin=json.dumps(manifest))
    assert made.returncode == 0, made.stderr
    kind, name = manifest["kind"].lower(), manifest["metadata"]["name"]
    patched = kubectl_on(
        cluster, tmp_path, "patch", kind, name, "--type=merge", "-p", json.dumps(patch)
    )
    assert patched.returncode == 1
    assert f"is invalid: {message}" in patched.stderr, patched.stderr
    assert "field is immutable" in patched.stderr or "may not change" in patched.stderr


def test_loaded_objects_are_not_refused() -> None:
    """A scenario's declared objects are the cluster's state, not writes: a Pod that got its
    ephemeral container through the subresource is served as it is."""
    state = ClusterState([WITH_EPHEMERAL])
    served = [o for o in state.objects().values() if o["kind"] == "Pod"]
    assert served[0]["spec"]["ephemeralContainers"] == [DEBUGGER]
    with pytest.raises(ClusterError, match="pod updates may not change fields"):
        state.replace({**WITH_EPHEMERAL, "spec": POD["spec"]})
    # the ephemeralcontainers subresource keeps them; a status write is no spec change
    state.replace(WITH_EPHEMERAL, subresource="ephemeralcontainers")
    state.replace({**WITH_EPHEMERAL, "status": {"phase": "Running"}}, subresource="status")


def _eviction(name: str, kind: str = "Eviction") -> str:
    return json.dumps({"apiVersion": "policy/v1", "kind": kind,
                       "metadata": {"name": name, "namespace": "default"}})  # fmt: skip


@needs_kubectl
def test_a_pod_is_evicted_through_the_eviction_subresource(cluster, tmp_path):
    """``POST pods/NAME/eviction``, as ``kubectl drain`` evicts: the Pod is deleted; the body
    (streamed chunked by ``kubectl create --raw -f -``) must be an Eviction naming that Pod."""
    uri = "/api/v1/namespaces/default/pods/app/eviction"
    wrong = kubectl_on(
        cluster, tmp_path, "create", "--raw", uri, "-f", "-", stdin=_eviction("other")
    )
    assert wrong.returncode == 1 and "does not match" in wrong.stderr, wrong.stderr
    not_one = kubectl_on(cluster, tmp_path, "create", "--raw", uri, "-f", "-",
                      stdin=_eviction("app", kind="DeleteOptions"))  # fmt: skip
    assert not_one.returncode == 1 and "must be an Eviction" in not_one.stderr, not_one.stderr
    assert _pod(cluster, tmp_path)["metadata"]["name"] == "app"
    done = kubectl_on(cluster, tmp_path, "create", "--raw", uri, "-f", "-", stdin=_eviction("app"))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "Success"
    gone = kubectl_on(cluster, tmp_path, "get", "pod", "app")
    assert gone.returncode == 1 and "NotFound" in gone.stderr
    again = kubectl_on(cluster, tmp_path, "create", "--raw", uri, "-f", "-", stdin=_eviction("app"))
    assert again.returncode == 1 and "NotFound" in again.stderr


@needs_kubectl
def test_the_node_the_server_made_can_be_cordoned_and_uncordoned(cluster, tmp_path):
    """The node the offline cluster places Pods on is an object like any other node: kubectl
    cordon writes spec.unschedulable, uncordon removes it, the rest of the node stays."""
    (node,) = json.loads(kubectl_on(cluster, tmp_path, "get", "nodes", "-o", "json").stdout)[
        "items"
    ]
    name = node["metadata"]["name"]
    assert kubectl_on(cluster, tmp_path, "cordon", name).returncode == 0
    cordoned = json.loads(kubectl_on(cluster, tmp_path, "get", "node", name, "-o", "json").stdout)
    assert cordoned["spec"] == {"unschedulable": True}
    assert cordoned["metadata"]["labels"] == node["metadata"]["labels"]
    assert kubectl_on(cluster, tmp_path, "uncordon", name).returncode == 0
    after = json.loads(kubectl_on(cluster, tmp_path, "get", "node", name, "-o", "json").stdout)
    assert "unschedulable" not in after["spec"]


def _stated(name: str, status: dict, init: bool = False, deleting: bool = False) -> dict:
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {"containers": [{"name": "app", "image": "nginx:1.27"}]},
        "status": status,
    }
    if init:
        pod["spec"]["initContainers"] = [{"name": "a", "image": "busybox:1.36"},
                                         {"name": "b", "image": "busybox:1.36"}]  # fmt: skip
    if deleting:
        pod["metadata"]["deletionTimestamp"] = "2026-01-01T00:00:00Z"
    return pod


def _app(state: dict, restarts: int = 0) -> list[dict]:
    return [{"name": "app", "ready": False, "restartCount": restarts, "state": state}]


DONE = {
    "name": "a",
    "restartCount": 0,
    "state": {"terminated": {"exitCode": 0, "reason": "Completed"}},
}
STATED = [
    (_stated("crash", {"phase": "Running", "containerStatuses": _app(
        {"waiting": {"reason": "CrashLoopBackOff"}}, 4)}), "CrashLoopBackOff", 4),
    (_stated("oom", {"phase": "Running", "containerStatuses": _app(
        {"terminated": {"reason": "OOMKilled", "exitCode": 137}}, 1)}), "OOMKilled", 1),
    (_stated("exit", {"phase": "Failed", "containerStatuses": _app(
        {"terminated": {"exitCode": 3}})}), "ExitCode:3", 0),
    (_stated("init-crash", {"phase": "Pending", "initContainerStatuses": [DONE, {
        "name": "b", "restartCount": 5, "state": {"waiting": {"reason": "CrashLoopBackOff"}}}],
        "containerStatuses": _app({"waiting": {"reason": "PodInitializing"}})}, init=True),
     "Init:CrashLoopBackOff", 5),
    (_stated("init-running", {"phase": "Pending", "initContainerStatuses": [DONE, {
        "name": "b", "restartCount": 0, "state": {"running": {}}}],
        "containerStatuses": _app({"waiting": {"reason": "PodInitializing"}})}, init=True),
     "Init:1/2", 0),
    (_stated("init-error", {"phase": "Pending", "initContainerStatuses": [{
        "name": "a", "restartCount": 0, "state": {"terminated": {"exitCode": 1, "reason": "Error"}}}],
        "containerStatuses": _app({"waiting": {"reason": "PodInitializing"}})}, init=True),
     "Init:Error", 0),
    (_stated("going", {"phase": "Running", "containerStatuses": _app({"running": {}})},
             deleting=True), "Terminating", 0),
    (_stated("fine", {"phase": "Running", "containerStatuses": _app({"running": {}})}),
     "Running", 0),
]  # fmt: skip


@needs_kubectl
def test_kubectl_shows_a_pods_status_as_its_printer_derives_it(tmp_path):
    """STATUS and RESTARTS of ``kubectl get pods`` follow kubectl's printer: an init container
    not done first (``Init:<reason>``, ``Init:i/n``), then the last container's waiting or
    terminated reason, else the phase; ``Terminating`` once deletion began; the init
    containers' restarts counted too."""
    with start_cluster([p for p, _, _ in STATED], kubeconfig=tmp_path / "kc") as running:
        table = kubectl_on(running, tmp_path, "get", "pods", "--no-headers").stdout
    shown = {
        line.split()[0]: (line.split()[2], int(line.split()[3])) for line in table.splitlines()
    }
    for pod, status, restarts in STATED:
        assert shown[pod["metadata"]["name"]] == (status, restarts), pod["metadata"]["name"]


WEB = {
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {"name": "web", "namespace": "default"},
    "spec": {
        "replicas": 2,
        "selector": {"matchLabels": {"app": "web"}},
        "template": {
            "metadata": {"labels": {"app": "web"}},
            "spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]},
        },
    },
}


@needs_kubectl
def test_a_disruption_budget_guards_the_pods_of_a_deployment(tmp_path):
    """Core's disruption controller, without any domain's reconciler: a budget's status counts
    the Deployment's pods (expected from its scale, through the ReplicaSet), and an eviction it
    forbids is refused with 429 and Kubernetes' message, naming the budget."""
    with start_cluster([WEB], kubeconfig=tmp_path / "kc") as running:
        made = kubectl_on(running, tmp_path, "create", "pdb", "web", "--selector=app=web",
                       "--max-unavailable=1")  # fmt: skip
        assert made.returncode == 0, made.stderr
        budget = json.loads(kubectl_on(running, tmp_path, "get", "pdb", "web", "-o", "json").stdout)
        assert budget["status"]["expectedPods"] == 2
        assert budget["status"]["desiredHealthy"] == 1
        assert budget["status"]["currentHealthy"] == 2
        assert budget["status"]["disruptionsAllowed"] == 1
        zero = kubectl_on(running, tmp_path, "patch", "pdb", "web", "--type=merge", "-p",
                       '{"spec": {"maxUnavailable": 0}}')  # fmt: skip
        assert zero.returncode == 0, zero.stderr
        pods = json.loads(kubectl_on(running, tmp_path, "get", "pods", "-o", "json").stdout)[
            "items"
        ]
        name = pods[0]["metadata"]["name"]
        uri = f"/api/v1/namespaces/default/pods/{name}/eviction"
        refused = kubectl_on(running, tmp_path, "create", "--raw", uri, "-f", "-",
                          stdin=_eviction(name))  # fmt: skip
        assert refused.returncode == 1
        assert "Cannot evict pod as it would violate the pod's disruption budget." in (
            refused.stderr
        )
        assert _pod(running, tmp_path, name)["metadata"]["name"] == name
