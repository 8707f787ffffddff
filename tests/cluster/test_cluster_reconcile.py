"""The reconcile hook and the simulated clock: a reconciler sees every write, its objects and
observed statuses are what reads return, deletes of what it made reach it, time moves per write."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from typing import Any

import pytest

from itbench.cluster import ClusterError, ClusterState, Reconciled, SimClock, Write, start_cluster
from tests.cluster.kubectl_run import KUBECTL, kubectl, needs_kubectl

CONFIG = {
    "apiVersion": "v1",
    "kind": "ConfigMap",
    "metadata": {"name": "settings", "namespace": "shop"},
    "data": {"mode": "broken"},
}


class Toy:
    """One Pod per ConfigMap, Ready iff the ConfigMap says ``mode: ok``; a deleted Pod comes back
    under the next name; the ConfigMap's observed copy carries the pod's name."""

    def __init__(self) -> None:
        self.writes: list[Write | None] = []
        self.generation = 0

    def owns(self, key: tuple[str, str, str, str]) -> bool:
        return key[1] == "pods"

    def reconcile(
        self, declared: Mapping[tuple, dict[str, Any]], write: Write | None, now: float
    ) -> Reconciled:
        self.writes.append(write)
        if write is not None and write.derived and write.key[1] == "pods":
            self.generation += 1
        objects, observed = {}, {}
        for key, obj in declared.items():
            if obj["kind"] != "ConfigMap":
                continue
            name = f"{key[3]}-{self.generation}"
            ready = obj.get("data", {}).get("mode") == "ok"
            objects[("", "pods", key[2], name)] = {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {"name": name, "namespace": key[2]},
                "spec": {"containers": [{"name": "c", "image": "i"}]},
                "status": {
                    "phase": "Running",
                    "conditions": [{"type": "Ready", "status": "True" if ready else "False"}],
                    "startTime": f"{now:.0f}",
                },
            }
            observed[key] = {**obj, "metadata": {**obj["metadata"], "annotations": {"pod": name}}}
        return Reconciled(objects, observed)


def _pods(state: ClusterState) -> list[dict]:
    rtype = state.registry.by_plural("", "pods")
    assert rtype is not None
    return state.list(rtype)


def test_reconciler_sees_every_write_and_time_moves_per_write():
    toy = Toy()
    clock = SimClock(1000.0, write_step_s=7)
    state = ClusterState([CONFIG], reconciler=toy, clock=clock)
    assert toy.writes == [None]  # the initial state
    (pod,) = _pods(state)
    assert pod["status"]["conditions"][0]["status"] == "False"
    cm_type = state.registry.by_plural("", "configmaps")
    assert cm_type is not None
    stored = state.get(cm_type, "shop", "settings")
    assert stored["metadata"]["annotations"] == {"pod": "settings-0"}  # observed replaces stored
    state.replace({**CONFIG, "data": {"mode": "ok"}})
    write = toy.writes[-1]
    assert write is not None and write.verb == "replace" and write.at == 1007.0  # took its step
    assert write.before is not None and write.before["data"] == {"mode": "broken"}
    assert clock.now == 1007.0
    (pod,) = _pods(state)
    assert pod["status"]["conditions"][0]["status"] == "True"
    assert pod["status"]["startTime"] == "1007"  # read after the write's time passed


def test_a_delete_of_a_reconciled_object_reaches_the_reconciler():
    toy = Toy()
    state = ClusterState([CONFIG], reconciler=toy, clock=SimClock(0))
    pod_type = state.registry.by_plural("", "pods")
    assert pod_type is not None
    state.delete(pod_type, "shop", "settings-0")
    write = toy.writes[-1]
    assert write is not None and write.derived and write.verb == "delete"
    assert [p["metadata"]["name"] for p in _pods(state)] == ["settings-1"]
    with pytest.raises(ClusterError) as err:  # what nobody made stays a 404
        state.delete(pod_type, "shop", "nothing")
    assert err.value.code == 404


def test_deleting_a_namespace_empties_it():
    toy = Toy()
    state = ClusterState([CONFIG], reconciler=toy, clock=SimClock(0))
    ns_type = state.registry.by_plural("", "namespaces")
    assert ns_type is not None
    state.delete(ns_type, "", "shop")
    assert _pods(state) == []
    assert state.overlay()["deleted"][0]["name"] == "settings"


def test_without_a_reconciler_core_controllers_and_404s_stay():
    deployment = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "shop"},
        "spec": {"selector": {"matchLabels": {"a": "b"}}, "template": {"spec": {}}},
    }
    state = ClusterState([deployment])
    assert len(_pods(state)) == 1 and state.clock is None
    pod_type = state.registry.by_plural("", "pods")
    assert pod_type is not None
    with pytest.raises(ClusterError):
        state.delete(pod_type, "shop", _pods(state)[0]["metadata"]["name"])


@needs_kubectl
def test_kubectl_sees_the_reconciled_state(tmp_path):
    with start_cluster([CONFIG], reconciler=Toy(), clock=SimClock(0), extensions=[]) as cluster:
        cfg = cluster.kubeconfig_path
        out = kubectl(cfg, tmp_path, "get", "pods", "-n", "shop", "-o", "name")
        assert out.stdout.split() == ["pod/settings-0"], out.stderr
        done = kubectl(cfg, tmp_path, "delete", "pod", "-n", "shop", "settings-0", "--wait=false")
        assert done.returncode == 0, done.stderr
        out = kubectl(cfg, tmp_path, "get", "pods", "-n", "shop", "-o", "name")
        assert out.stdout.split() == ["pod/settings-1"]


def test_a_watch_lets_simulated_time_pass_on_a_reacting_cluster_only():
    from itbench.cluster.server import WATCH_WAIT_S

    clock = SimClock(0)
    with start_cluster([CONFIG], reconciler=Toy(), clock=clock, extensions=[]) as cluster:
        import urllib.request

        url = f"{cluster.url}/api/v1/namespaces/shop/pods?watch=true&resourceVersion=0"
        request = urllib.request.Request(url, headers=cluster.authorization)
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert b'"settings-0"' in answer.read()
        assert clock.now == WATCH_WAIT_S
    with start_cluster([CONFIG], extensions=[]) as plain:
        url = f"{plain.url}/api/v1/namespaces/shop/configmaps?watch=true"
        request = urllib.request.Request(url, headers=plain.authorization)
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert b'"settings"' in answer.read()
        assert plain.state.clock is None


def test_objects_created_on_a_reacting_cluster_are_stamped_with_its_clock():
    clock = SimClock(86400.0)
    state = ClusterState([CONFIG], reconciler=Toy(), clock=clock)
    made = state.create({**CONFIG, "metadata": {"name": "other", "namespace": "shop"}})
    assert made["metadata"]["creationTimestamp"] == "1970-01-02T00:00:00Z"
    with pytest.raises(ValueError):
        clock.advance(-1)


def test_a_failing_reconciler_is_a_status_not_a_dead_server():
    class Broken(Toy):
        def reconcile(self, declared, write, now):
            if write is not None:
                raise RuntimeError("model bug")
            return super().reconcile(declared, write, now)

    state = ClusterState([CONFIG], reconciler=Broken(), clock=SimClock(0))
    with pytest.raises(ClusterError) as err:
        state.replace({**CONFIG, "data": {"mode": "ok"}})
    assert err.value.code == 500 and "the reconciler failed: RuntimeError: model bug" in str(
        err.value
    )


class Remaker(Toy):
    """A controller that makes its object again under the same name at once (as a Deployment
    its ReplicaSet, the endpoints controller a Service's Endpoints), with the uid it derives
    from the name: the same each time."""

    def reconcile(
        self, declared: Mapping[tuple, dict[str, Any]], write: Write | None, now: float
    ) -> Reconciled:
        self.writes.append(write)
        pod = {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": "settings", "namespace": "shop", "uid": "uid-of-settings"},
            "spec": {"containers": [{"name": "c", "image": "i"}]},
        }
        return Reconciled({("", "pods", "shop", "settings"): pod}, {})


def test_an_object_made_again_after_a_delete_has_a_new_uid():
    """A uid is never reused: the reconciler's object made again after a delete is a new
    object, each incarnation with a uid none of the deleted ones had, the same in every run."""
    uids = []
    for _run in range(2):
        state = ClusterState([CONFIG], reconciler=Remaker(), clock=SimClock(0))
        pod_type = state.registry.by_plural("", "pods")
        assert pod_type is not None
        seen = [state.get(pod_type, "shop", "settings")["metadata"]["uid"]]
        for _ in range(2):
            state.delete(pod_type, "shop", "settings")
            seen.append(state.get(pod_type, "shop", "settings")["metadata"]["uid"])
        assert seen[0] == "uid-of-settings"
        assert len(set(seen)) == 3, seen
        uids.append(seen)
    assert uids[0] == uids[1]  # deterministic


@needs_kubectl
@pytest.mark.parametrize("flags", [(), ("--wait",), ("--cascade=foreground",)])
def test_kubectl_delete_of_an_object_made_again_returns(tmp_path, flags):
    """``kubectl delete`` waits until the object it deleted is gone: one made again under the
    same name with the same uid kept it waiting forever (timeout here: 30 s)."""
    with start_cluster([CONFIG], reconciler=Remaker(), clock=SimClock(0), extensions=[]) as cluster:
        cfg = cluster.kubeconfig_path
        before = kubectl(cfg, tmp_path, "get", "pod", "-n", "shop", "settings", "-o",
                         "jsonpath={.metadata.uid}").stdout  # fmt: skip
        done = subprocess.run(
            [KUBECTL or "kubectl", "--kubeconfig", str(cfg), "delete", "pod", "-n", "shop",
             "settings", *flags],
            capture_output=True, text=True, timeout=30,
            env={"PATH": os.environ["PATH"], "HOME": str(tmp_path)},
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert 'pod "settings" deleted' in done.stdout
        after = kubectl(cfg, tmp_path, "get", "pod", "-n", "shop", "settings", "-o",
                        "jsonpath={.metadata.uid}").stdout  # fmt: skip
        assert before == "uid-of-settings" and after not in ("", before)
