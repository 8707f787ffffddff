"""A workload whose pods carry a priority class, scaled up in its own namespace: its new pods
preempt lower-priority pods of any namespace when the nodes are full, and the victims'
replacements wait (``FailedScheduling``). The scale-up acts on the applications put out after
it; the waiting victim is not the cause, and pods that were already waiting before it are not
its doing."""

from __future__ import annotations

import json
from datetime import datetime

from sre.agents.baseline import diagnose
from tests._support.sre_incident_files import clock, deployment, firing, warning, write_incident

T0 = datetime(2026, 10, 5, 22, 0)
APP_NS = "search"
BATCH_NS = "batch-jobs"
WAITING = "indexer-6d7f8g9h2-p4q5r"
_at = clock(T0)


def _deployment(name: str, namespace: str, replicas: int, priority: str = "") -> dict:
    pod_spec: dict = {"containers": [{"name": name, "image": f"registry.example/{name}:3",
                                      "resources": {"requests": {"cpu": "2"}}}]}  # fmt: skip
    if priority:
        pod_spec["priorityClassName"] = priority
    return deployment(namespace, name, pod_spec, replicas)


def _pending_pod() -> dict:
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": WAITING, "namespace": APP_NS,
                         "labels": {"app.kubernetes.io/name": "indexer"}},
            "spec": {"containers": [{"name": "indexer", "image": "registry.example/indexer:3"}]},
            "status": {"phase": "Pending",
                       "conditions": [{"type": "PodScheduled", "status": "False",
                                       "reason": "Unschedulable",
                                       "message": "0/3 nodes are available: 3 Insufficient cpu."}]}}  # fmt: skip


def _snapshot(tmp_path, waiting_since: float):
    rounds = {
        0: [_deployment("indexer", APP_NS, 2), _deployment("reindex", BATCH_NS, 0, "urgent")],
        5: [_deployment("indexer", APP_NS, 2), _deployment("reindex", BATCH_NS, 0, "urgent")],
        # the batch workload is scaled up: its prioritized pods take the nodes
        10: [_deployment("indexer", APP_NS, 2), _deployment("reindex", BATCH_NS, 5, "urgent")],
        20: [_deployment("indexer", APP_NS, 2), _deployment("reindex", BATCH_NS, 5, "urgent"),
             _pending_pod()],
    }  # fmt: skip
    objects = [(_at(m), obj) for m, objs in rounds.items() for obj in objs]
    message = "0/3 nodes are available: 3 Insufficient cpu."
    events = [
        warning(_at(waiting_since), APP_NS, "Pod", WAITING, "FailedScheduling", message, 1),
        warning(_at(20), APP_NS, "Pod", WAITING, "FailedScheduling", message, 12),
    ]
    alerts = [firing(APP_NS, _at(13), "KubePodNotReady", pod=WAITING)]
    root = write_incident(tmp_path / "incident", objects, events, alerts, _at(21))
    # the alert history: a dump every four minutes, each with what fired by then
    for minute in range(1, 21, 4):
        answer = {"status": "success", "data": {"alerts": alerts if minute >= 13 else []}}
        name = f"alerts_at_{_at(minute):%Y-%m-%dT%H-%M-%S}.json"
        (root / "alerts" / name).write_text(json.dumps(answer))
    return root


def _named(snapshot) -> list[str]:
    return [e["name"] for e in diagnose(snapshot).entities if e["contributing_factor"]]


def test_the_prioritized_scale_up_is_the_cause_of_the_pods_put_out_after_it(tmp_path):
    snapshot = _snapshot(tmp_path, waiting_since=11)
    assert _named(snapshot) == [f"{BATCH_NS}/Deployment/reindex"]


def test_pods_waiting_before_the_scale_up_are_not_its_doing(tmp_path):
    # guard: the victim already waited before the batch workload grew
    snapshot = _snapshot(tmp_path, waiting_since=2)
    assert f"{BATCH_NS}/Deployment/reindex" not in _named(snapshot)
