"""A LimitRange whose defaults a workload takes: a container that declares no memory limit gets
the LimitRange's ``default`` when its pod is admitted. Lowering that default changes nothing
until the workload's next pods are created (an autoscaler's scale-out, a rollout): those pods
get the new limit and are OOM-killed, while the pod that ran before keeps its old one. The
LimitRange acts on the workloads that leave a resource it defaults undeclared
(``limit_users``), and its edit is the cause of their failing pods, as a configuration edit is:
not the workload, whose own edit came earlier and ran fine."""

from __future__ import annotations

from datetime import datetime

from sre.agents.baseline import diagnose
from sre.agents.baseline.states.objects import ObjectView
from tests._support.sre_incident_files import (
    clock,
    deployment,
    firing,
    stamp,
    warning,
    write_incident,
)

T0 = datetime(2026, 8, 3, 14, 0)
NS = "catalog"
OLD_POD = "pricing-7c9d8b6f5-a1b2c"
NEW_POD = "pricing-7c9d8b6f5-k4m5n"
_at = clock(T0)


def _limit_range(memory: str, request: str, written: float, name: str = "tenant-defaults",
                 namespace: str = NS) -> dict:  # fmt: skip
    return {"apiVersion": "v1", "kind": "LimitRange",
            "metadata": {"name": name, "namespace": namespace,
                         "managedFields": [{"manager": "kubectl", "time": stamp(_at(written))}]},
            "spec": {"limits": [{"type": "Container", "default": {"memory": memory},
                                 "defaultRequest": {"memory": request}}]}}  # fmt: skip


def _workload(name: str, resources: dict | None, replicas: int = 1, namespace: str = NS) -> dict:
    container: dict = {"name": name, "image": f"registry.example/{name}:4"}
    if resources is not None:
        container["resources"] = resources
    return deployment(namespace, name, {"containers": [container]}, replicas)


def test_the_workloads_that_take_a_default_are_its_users():
    # imported here, so the end-to-end test below is judged by its assertion on any code
    from sre.agents.baseline.states import limit_users

    view = ObjectView.of([
        (_at(0), _limit_range("512Mi", "256Mi", 0)),
        (_at(0), _workload("pricing", None)),
        # a limit alone is its request too: nothing of memory is left to the defaults
        (_at(0), _workload("search", {"limits": {"memory": "1Gi"}})),
        (_at(0), _workload("reviews", {"requests": {"memory": "200Mi"}})),
        (_at(0), _workload("pricing", None, namespace="archive")),
    ])  # fmt: skip
    assert limit_users.users(view) == {
        f"{NS}/LimitRange/tenant-defaults": frozenset({"pricing", "reviews"})
    }


def test_a_limit_range_without_defaults_has_no_users():
    from sre.agents.baseline.states import limit_users

    bare = _limit_range("1Gi", "1Gi", 0)
    bare["spec"]["limits"] = [{"type": "Container", "max": {"memory": "2Gi"}}]
    view = ObjectView.of([(_at(0), bare), (_at(0), _workload("pricing", None))])
    assert limit_users.users(view) == {}


def _pod(name: str, memory: str, crashing: bool) -> dict:
    status: dict = {"name": "pricing", "ready": not crashing, "restartCount": 5 if crashing else 0,
                    "state": {"running": {}}}  # fmt: skip
    if crashing:
        status["state"] = {"waiting": {"reason": "CrashLoopBackOff"}}
        status["lastState"] = {"terminated": {"reason": "OOMKilled", "exitCode": 137}}
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": NS,
                         "labels": {"app.kubernetes.io/name": "pricing"}},
            "spec": {"containers": [{"name": "pricing", "image": "registry.example/pricing:4",
                                     "resources": {"limits": {"memory": memory}}}]},
            "status": {"phase": "Running", "containerStatuses": [status]}}  # fmt: skip


def _autoscaler() -> dict:
    return {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
            "metadata": {"name": "pricing", "namespace": NS},
            "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment",
                                        "name": "pricing"},
                     "minReplicas": 1, "maxReplicas": 4}}  # fmt: skip


def test_a_lowered_default_is_the_cause_of_the_new_pods_oom_kills(tmp_path):
    own = {"limits": {"memory": "900Mi"}, "requests": {"memory": "400Mi"}}
    rounds = {
        0: [_limit_range("1Gi", "512Mi", -600), _workload("pricing", own), _autoscaler(),
            _workload("search", None), _pod(OLD_POD, "900Mi", False)],
        # the workload leaves its memory to the namespace's defaults (it ran fine on them)
        5: [_limit_range("1Gi", "512Mi", -600), _workload("pricing", None), _autoscaler(),
            _workload("search", None), _pod(OLD_POD, "900Mi", False)],
        10: [_limit_range("96Mi", "64Mi", 8), _workload("pricing", None), _autoscaler(),
             _workload("search", None), _pod(OLD_POD, "900Mi", False)],
        # the autoscaler adds two pods: they take the new default
        20: [_limit_range("96Mi", "64Mi", 8), _workload("pricing", None, replicas=3),
             _autoscaler(), _workload("search", None), _pod(OLD_POD, "900Mi", False),
             _pod(NEW_POD, "96Mi", True)],
    }  # fmt: skip
    objects = [(_at(m), obj) for m, objs in rounds.items() for obj in objs]
    snapshot = write_incident(
        tmp_path / "incident",
        objects,
        [
            warning(
                _at(19),
                NS,
                "Pod",
                NEW_POD,
                "BackOff",
                "Back-off restarting failed container pricing",
                7,
            )
        ],  # fmt: skip
        [firing(NS, _at(19), "KubePodCrashLooping", pod=NEW_POD)],
        _at(21),
    )
    diagnosis = diagnose(snapshot)
    named = [e["name"] for e in diagnosis.entities if e["contributing_factor"]]
    assert named == [f"{NS}/LimitRange/tenant-defaults"], diagnosis.entities
    assert "CrashLoopBackOff" in diagnosis.entities[0]["reasoning"]
