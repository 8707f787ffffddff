"""What a namespace admits, changed before the pods it refused or limited were created.

A ResourceQuota, a LimitRange or a Namespace's pod-security labels are read by the API server
when a pod is created; no running pod reads them and no failing pod names them. An edit of one
shows only when the namespace next creates pods: a node drained (its pods evicted and replaced),
a rollout, a restart. The drain, rollout or restart is then the trigger that came closest to the
alert; the admission edit, however much earlier, is the cause (``admission``), and the
Deployment whose ReplicaSet cannot create pods is its victim.

Each incident of the warehouse below has a harmless change near the fault (a Deployment's own
label), a second namespace with a pod failing on its own, and alerts on the victim; the guards
keep a quota that did not change, a quota changed where the pods are fine and a LimitRange whose
defaults the failing workload does not take from being named."""

from __future__ import annotations

from datetime import datetime

from sre.agents.baseline import diagnose
from sre.agents.baseline.evidence import (
    AlertGroup,
    Change,
    Evidence,
    FailingState,
    PodLabels,
    WarningEvent,
)
from sre.agents.baseline.rank import rank
from sre.agents.baseline.report import build
from tests._support.sre_incident_files import clock, firing, stamp, warning, write_incident

T0 = datetime(2026, 9, 14, 2, 0)
NS = "depot"
_at = clock(T0)


def _pods(namespace: str, *apps: str, node: str = "") -> tuple[PodLabels, ...]:
    return tuple(
        PodLabels(namespace, f"{a}-6b7c8d9f4-q2w3e", a, {"app.kubernetes.io/name": a}, node=node)
        for a in apps
    )


#: another team's trouble in every incident: its pod keeps failing, its own alert fires
ELSEWHERE = FailingState("billing", "Pod", "invoicer-4x8k2", "invoicer",
                         "Warning Failed x2 on pod invoicer-4x8k2", 2.0)  # fmt: skip
ELSEWHERE_WARNING = WarningEvent("billing", "Pod", "invoicer-4x8k2", "Failed", 2)
#: a harmless change near the fault: a Deployment's own owner label
RELABEL = Change(NS, "Deployment", "labeler", _at(11), "modified",
                 ("metadata.labels.owner",), {}, (("metadata.labels.owner", None, "team-b"),))  # fmt: skip


def _evidence(changes: tuple[Change, ...], **more) -> Evidence:
    fields = dict(
        changes=(*changes, RELABEL),
        warnings=(ELSEWHERE_WARNING, *more.pop("warnings", ())),
        alerts=more.pop("alerts", ()),
        onset=more.pop("onset", _at(14)),
        paths=(),
        states=(ELSEWHERE, *more.pop("states", ())),
        pods=more.pop("pods", _pods(NS, "picker", "packer", "labeler", node="node-east"))
        + _pods("billing", "invoicer"),
    )
    return Evidence(**fields, **more)  # type: ignore[arg-type]  # overrides are a loose dict by design


def _top(evidence: Evidence) -> str:
    return rank(evidence)[0].change.entity


def _quota(name: str, minute: float, namespace: str = NS, path: str = "spec.hard.limits.memory",
           old: str = "20Gi", new: str = "6Gi") -> Change:  # fmt: skip
    return Change(namespace, "ResourceQuota", name, _at(minute), "modified", (path,), {},
                  ((path, old, new),), since=_at(minute - 5))  # fmt: skip


def _drain(minute: float) -> Change:
    return Change("", "Node", "node-east", _at(minute), "modified", ("spec.unschedulable",), {},
                  (("spec.unschedulable", None, True),))  # fmt: skip


def _over_quota(app: str, quota: str, minute: float) -> WarningEvent:
    message = (f'Error creating: pods "{app}-5d6e7f8a9-zz9yy" is forbidden: exceeded quota: '
               f"{quota}, requested: limits.memory=768Mi, used: limits.memory=6400Mi, "
               "limited: limits.memory=6Gi")  # fmt: skip
    return WarningEvent(NS, "ReplicaSet", f"{app}-5d6e7f8a9", "FailedCreate", 7, message,
                        first=_at(minute))  # fmt: skip


def _mismatch(app: str, minute: float) -> AlertGroup:
    return AlertGroup("KubeDeploymentReplicasMismatch", app, NS, _at(minute), "firing")


def _drain_case(*changes: Change, quota: str = "depot-compute") -> Evidence:
    return _evidence(
        (*changes, _drain(12)),
        warnings=(_over_quota("picker", quota, 12.5), _over_quota("packer", quota, 12.5)),
        alerts=(_mismatch("picker", 14), _mismatch("packer", 14.5)),
    )


# --- a ResourceQuota lowered before a node drain ---------------------------------------------------


def test_a_quota_lowered_before_a_drain_is_the_cause_of_the_refused_pods():
    # the quota was cut well before; the drain 8 minutes later evicted two pods whose
    # replacements the quota refused: the drain only made the namespace create pods
    evidence = _drain_case(_quota("depot-compute", 4))
    ranked = rank(evidence)
    assert ranked[0].change.entity == f"{NS}/ResourceQuota/depot-compute", ranked[:3]
    drain = next(c for c in ranked if c.change.kind == "Node")
    assert drain.score == 0.0, drain


def test_a_quota_created_before_a_drain_is_the_cause_too():
    made = Change(NS, "ResourceQuota", "depot-compute", _at(3), "created", (), {"hard": {}})
    assert _top(_drain_case(made)) == f"{NS}/ResourceQuota/depot-compute"


def test_a_quota_that_did_not_change_is_not_named():
    # guard: the same refusals under a quota the window never saw change: nothing but the
    # drain changed, and a quota that merely exists is no candidate
    top = _top(_drain_case())
    assert top != f"{NS}/ResourceQuota/depot-compute"
    assert top == "Node/node-east", top


def test_a_quota_changed_where_the_pods_are_fine_is_not_named():
    # guard: one quota was cut in a namespace whose pods all run, another of the incident's
    # namespace changed a count the refusals do not name (they name the unchanged compute quota)
    from sre.agents.baseline.admission import refused  # here: the ranking is judged on any code

    elsewhere = _quota("billing-compute", 4, namespace="billing")
    objects = _quota("depot-objects", 4, path="spec.hard.count/configmaps", old="50", new="40")
    evidence = _drain_case(elsewhere, objects)
    assert _top(evidence) == "Node/node-east"
    assert refused(objects, evidence) == frozenset()
    assert refused(elsewhere, evidence) == frozenset()


def test_a_refusal_reported_before_the_edit_is_not_its_doing():
    # guard: the pods were refused before the quota changed (the export dates its write later)
    from sre.agents.baseline.admission import victims

    late = _quota("depot-compute", 20)
    assert victims(late, _drain_case(late)) == frozenset()


# --- a LimitRange whose maximum refuses a rollout ---------------------------------------------------


def test_a_limit_range_maximum_lowered_before_a_rollout_is_the_cause():
    ceiling = Change(NS, "LimitRange", "depot-ceilings", _at(4), "modified",
                     ("spec.limits",), {}, (("spec.limits", "4Gi", "1Gi"),), since=_at(0))  # fmt: skip
    rollout = Change(NS, "Deployment", "packer", _at(12), "modified",
                     ("spec.template.spec.containers[0].image",), {},
                     (("spec.template.spec.containers[0].image", "reg/packer:7", "reg/packer:8"),))  # fmt: skip
    refusal = WarningEvent(NS, "ReplicaSet", "packer-7f8e9d0c1", "FailedCreate", 5,
                           'Error creating: pods "packer-7f8e9d0c1-abcde" is forbidden: maximum '
                           "memory usage per Container is 1Gi, but limit is 1536Mi",
                           first=_at(12.2))  # fmt: skip
    evidence = _evidence((ceiling, rollout), warnings=(refusal,), alerts=(_mismatch("packer", 14),))
    ranked = rank(evidence)
    assert ranked[0].change.entity == f"{NS}/LimitRange/depot-ceilings", ranked[:3]
    # a LimitRange's refusal is not a quota's: a quota edited at the same time is not its cause
    from sre.agents.baseline.admission import refused

    quota = _quota("depot-compute", 4)
    assert refused(quota, _evidence((quota,), warnings=(refusal,))) == frozenset()


# --- a LimitRange created before a restart, whose default memory the new pods get ------------------


def _defaults_case(users: frozenset[str]) -> Evidence:
    made = Change(NS, "LimitRange", "depot-defaults", _at(3), "created", (),
                  {"limits": [{"type": "Container", "default": {"memory": "192Mi"}}]})  # fmt: skip
    restart = Change(NS, "Deployment", "picker", _at(13), "modified",
                     ("spec.template.metadata.annotations",), {},
                     (("spec.template.metadata.annotations", None, {"restartedAt": "02:13"}),))  # fmt: skip
    pod = "picker-8a9b0c1d2-r5t6y"
    oom = FailingState(NS, "Deployment", "picker", "picker",
                       f"pod {pod} container picker: CrashLoopBackOff (last OOMKilled)", 3.0,
                       time=_at(14))  # fmt: skip
    return _evidence(
        (made, restart),
        warnings=(WarningEvent(NS, "Pod", pod, "BackOff", 9, "Back-off restarting", _at(13.5)),),
        alerts=(AlertGroup("KubePodCrashLooping", pod, NS, _at(14), "firing"),),
        states=(oom,),
        config_users={f"{NS}/LimitRange/depot-defaults": users},
    )


def test_a_limit_range_created_before_a_restart_is_the_cause_of_the_oom_kills():
    # the restart gave the workload new pods; they took the namespace's new default memory
    ranked = rank(_defaults_case(frozenset({"picker", "packer"})))
    assert ranked[0].change.entity == f"{NS}/LimitRange/depot-defaults", ranked[:3]
    restart = next(c for c in ranked if c.change.entity == f"{NS}/Deployment/picker")
    assert restart.score == 0.0, restart


def test_a_limit_range_whose_defaults_the_workload_does_not_take_is_not_named():
    # guard: the restarted workload declares its own memory (not a user of the defaults): its
    # pods fail on their own and the restart keeps its case
    assert _top(_defaults_case(frozenset({"packer"}))) == f"{NS}/Deployment/picker"


# --- the report: every entity keeps its own namespace -----------------------------------------------


POD = "invoicer-5c6d7e8f9-k2l3m"


def test_the_propagation_names_a_pod_in_its_own_namespace():
    # the incident's namespace (most pod Warning events) is depot; the root cause is a
    # workload of another namespace, whose pod must not be written under depot
    rollout = Change("billing", "Deployment", "invoicer", _at(12), "modified",
                     ("spec.template.spec.containers[0].image",), {},
                     (("spec.template.spec.containers[0].image", "reg/inv:3", "reg/inv:4x"),))  # fmt: skip
    pulled = FailingState("billing", "Deployment", "invoicer", "invoicer",
                          f"pod {POD} container invoicer: ImagePullBackOff", 3.0,
                          time=_at(13))  # fmt: skip
    noise = tuple(WarningEvent(NS, "Pod", f"picker-6b7c8d9f4-{s}", "Unhealthy", 1, "probe", _at(1))
                  for s in ("aaaaa", "bbbbb", "ccccc"))  # fmt: skip
    evidence = Evidence(
        changes=(rollout,),
        warnings=(*noise, WarningEvent("billing", "Pod", POD, "Failed", 4)),
        alerts=(AlertGroup("KubePodNotReady", POD, "billing", _at(14), "firing"),),
        onset=_at(14),
        paths=(),
        states=(pulled,),
        pods=_pods(NS, "picker") + _pods("billing", "invoicer"),
    )
    diagnosis = build(evidence, rank(evidence))
    assert diagnosis.entities[0]["name"] == "billing/Deployment/invoicer"
    edges = [(e["source"], e["target"]) for e in diagnosis.propagations]
    assert edges[:2] == [
        ("billing/Deployment/invoicer", f"billing/Pod/{POD}"),
        (f"billing/Pod/{POD}", "billing/Service/invoicer"),
    ], edges
    assert not any(e["name"].startswith(f"{NS}/") for e in diagnosis.entities), diagnosis.entities


# --- the same class on a snapshot written to disk, diagnosed as a user runs it ----------------------


def _meta(name: str, written: float, namespace: str | None = NS, **more: object) -> dict:
    meta: dict = {"name": name, "creationTimestamp": "2026-08-01T00:00:00Z",
                  "managedFields": [{"manager": "kubectl", "time": stamp(_at(written))}], **more}  # fmt: skip
    if namespace:
        meta["namespace"] = namespace
    return meta


def _quota_object(memory: str, written: float) -> dict:
    return {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": _meta("depot-compute", written),
            "spec": {"hard": {"limits.memory": memory, "pods": "30"}}}  # fmt: skip


def _node(name: str, cordoned: bool, written: float) -> dict:
    spec = {"unschedulable": True} if cordoned else {}
    return {"apiVersion": "v1", "kind": "Node", "metadata": _meta(name, written, namespace=None),
            "spec": spec}  # fmt: skip


def _deployment(name: str, written: float, labels: dict | None = None) -> dict:
    match = {"app.kubernetes.io/name": name}
    return {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": _meta(name, written, labels={**match, **(labels or {})}),
            "spec": {"replicas": 1, "selector": {"matchLabels": match},
                     "template": {"metadata": {"labels": match},
                                  "spec": {"containers": [{
                                      "name": name, "image": f"registry.example/{name}:3",
                                      "resources": {"limits": {"memory": "768Mi"}}}]}}}}  # fmt: skip


def _running_pod(app: str, node: str) -> dict:
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": _meta(f"{app}-6b7c8d9f4-q2w3e", -600,
                              labels={"app.kubernetes.io/name": app}),
            "spec": {"nodeName": node, "containers": [{"name": app,
                                                       "image": f"registry.example/{app}:3"}]},
            "status": {"phase": "Running", "containerStatuses": [
                {"name": app, "ready": True, "restartCount": 0, "state": {"running": {}}}]}}  # fmt: skip


def test_a_quota_lowered_before_a_drain_is_named_from_a_snapshot_on_disk(tmp_path):
    def round_(minute: float) -> list[dict]:
        drained = minute >= 15
        objects = [
            _quota_object("20Gi" if minute < 5 else "6Gi", -600 if minute < 5 else 3),
            _node("node-east", drained, 12 if drained else -600),
            _node("node-west", False, -600),
            _deployment("picker", -600),
            _deployment("packer", -600),
            # the harmless change near the fault: an owner label on another Deployment
            _deployment(
                "labeler", 11 if drained else -600, {"owner": "team-b"} if drained else None
            ),
            _running_pod("labeler", "node-west"),
        ]
        if not drained:  # the drain evicted them; their replacements were refused
            objects += [_running_pod("picker", "node-east"), _running_pod("packer", "node-east")]
        return objects

    objects = [(_at(m), obj) for m in (0, 5, 10, 15) for obj in round_(m)]
    refusals = [
        warning(_at(12.5), NS, "ReplicaSet", f"{app}-5d6e7f8a9", "FailedCreate",
                f'Error creating: pods "{app}-5d6e7f8a9-zz9yy" is forbidden: exceeded quota: '
                "depot-compute, requested: limits.memory=768Mi, used: limits.memory=6400Mi, "
                "limited: limits.memory=6Gi", 7)
        for app in ("picker", "packer")
    ]  # fmt: skip
    snapshot = write_incident(
        tmp_path / "incident",
        objects,
        refusals,
        [firing(NS, _at(14), "KubeDeploymentReplicasMismatch", deployment="picker")],
        _at(16),
    )
    diagnosis = diagnose(snapshot)
    named = [e["name"] for e in diagnosis.entities if e["contributing_factor"]]
    assert named == [f"{NS}/ResourceQuota/depot-compute"], diagnosis.entities
