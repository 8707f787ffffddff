"""Faults in objects the baseline has no rule for, linked to the failing workload only by what
they name or select; an edit of a pod's priority that puts other workloads' pods out; and a
workload edit that nothing but the export's observations date.

The warehouse here (storefront -> stock, a ledger consuming a broker's topic, a batch indexer)
is written for these tests. Each incident sets the cause beside decoys: an edit of another
object of the same kind made at the same moment, a Deployment kept at zero replicas all along,
a failing Job in another namespace, an alert on the victim rather than the cause."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from sre.agents.baseline import diagnose
from sre.agents.baseline.evidence import (
    AlertGroup,
    Change,
    Evidence,
    FailingState,
    PodLabels,
    Symptom,
    WarningEvent,
)
from sre.agents.baseline.preemption import displaced
from sre.agents.baseline.rank import rank, touched_apps
from sre.agents.baseline.references import referenced_apps
from tests._support.sre_incident_files import clock, deployment, firing, stamp, write_incident

T0 = datetime(2026, 10, 6, 14, 0)
NS = "warehouse"
_at = clock(T0)


def _pods() -> tuple[PodLabels, ...]:
    def pod(app: str, version: str = "v1", namespace: str = NS) -> PodLabels:
        return PodLabels(namespace, f"{app}-5c7d9f8b6-q4w2e", app,
                         {"app": app, "version": version})  # fmt: skip

    return (pod("storefront"), pod("stock"), pod("ledger"), pod("indexer", namespace="batch"))


def _edit(kind: str, name: str, spec: dict, *paths: str, namespace: str = NS) -> Change:
    """An edit an export without write times dates only between two observations."""
    return Change(namespace=namespace, kind=kind, name=name, time=_at(10), change="modified",
                  paths=paths, spec=spec, since=_at(6))  # fmt: skip


def _top(evidence: Evidence) -> str:
    return rank(evidence)[0].change.entity


# --- what an object of any kind names or selects ------------------------------------------------


def test_an_object_names_the_applications_of_its_hosts_targets_and_own_name():
    apps = {"storefront", "stock", "ledger", "indexer"}
    routing = {"host": "stock.warehouse.svc.cluster.local", "subsets": [{"labels": {"v": "2"}}]}
    assert referenced_apps("stock-routing", NS, routing, apps, _pods()) == {"stock"}
    # a URL, a host:port, a nested target: whole host names only
    hooks = {"webhooks": [{"clientConfig": {"url": "https://ledger:8443/validate"}}]}
    assert referenced_apps("audit", NS, hooks, apps, _pods()) == {"ledger"}
    # a principal named after the client it authenticates
    rights = {"acls": [{"resource": {"name": "invoices"}, "operations": ["Read"]}]}
    assert referenced_apps("ledger", "broker", rights, apps, _pods()) == {"ledger"}
    # a word inside a longer name is not a reference
    assert referenced_apps("x", NS, {"note": "stockroom-cleanup"}, apps, _pods()) == frozenset()
    # a topic or a subset's version labels name no application
    assert referenced_apps("invoices", "broker", {"partitions": 6}, apps, _pods()) == frozenset()


def test_an_object_selects_the_pods_its_selector_picks():
    policy = {"selector": {"matchLabels": {"app": "stock"}}, "rules": [{"to": []}]}
    assert referenced_apps("deny-writes", NS, policy, set(), _pods()) == {"stock"}
    sidecar = {"workloadSelector": {"labels": {"app": "storefront"}}}
    assert referenced_apps("egress", NS, sidecar, set(), _pods()) == {"storefront"}
    # a selector picks within its own namespace only
    assert referenced_apps("egress", "batch", sidecar, set(), _pods()) == frozenset()


def _mesh_incident(*extra: Change) -> Evidence:
    """storefront's calls to stock fail (503, no healthy upstream) after the routing rule for
    stock points at pods none carry; the alert, six minutes later, names stock; a stock
    Deployment of an older version has had no replica all along."""
    rule = _edit(
        "DestinationRule", "stock",
        {"host": "stock", "subsets": [{"name": "v2", "labels": {"version": "v2-next"}}]},
        "spec.subsets[0].labels.version",
    )  # fmt: skip
    decoy = _edit("VirtualService", "storefront",
                  {"hosts": ["storefront"], "http": [{"timeout": "10s"}]},
                  "spec.http[0].timeout")  # fmt: skip
    idle = FailingState(namespace=NS, kind="Deployment", name="stock-v0", app="stock-v0",
                        what="Deployment stock-v0 has spec.replicas 0: no pod serves it",
                        strength=1.5)  # fmt: skip
    return Evidence(
        changes=(rule, decoy, *extra),
        warnings=(),
        # the error-rate rule fires minutes after the calls began to fail
        alerts=(AlertGroup("MeshHighErrorRate", "stock", NS, _at(16), "firing"),),
        onset=_at(16),
        paths=(),
        symptoms=(Symptom("stock", _at(10.5), "errors of calls to it 0% -> 90%"),),
        states=(idle,),
        pods=_pods(),
    )


def test_a_routing_rule_for_the_failing_host_outranks_an_idle_deployment_and_its_neighbour():
    assert _top(_mesh_incident()) == f"{NS}/DestinationRule/stock"


def test_a_routing_rule_acts_on_the_host_it_routes():
    evidence = _mesh_incident()
    rule = evidence.changes[0]
    assert touched_apps(rule, evidence) == {"stock"}
    assert touched_apps(evidence.changes[1], evidence) == {"storefront"}


def test_a_routing_edit_of_a_healthy_host_leaves_a_crashing_workload_named():
    """Guard: the storefront's routing rule gets a longer timeout at the moment stock's pods
    start crashing; the rule names storefront, which nothing blames."""
    timeout = _edit("VirtualService", "storefront",
                    {"hosts": ["storefront.warehouse.svc.cluster.local"],
                     "http": [{"timeout": "30s"}]}, "spec.http[0].timeout")  # fmt: skip
    crash = FailingState(namespace=NS, kind="Deployment", name="stock", app="stock",
                         what="container stock waiting: CrashLoopBackOff", strength=3)  # fmt: skip
    evidence = Evidence(
        changes=(timeout,),
        warnings=(WarningEvent(NS, "Pod", "stock-5c7d9f8b6-q4w2e", "BackOff", 12),),
        alerts=(AlertGroup("KubePodCrashLooping", "stock-5c7d9f8b6-q4w2e", NS, _at(11), "firing"),),
        onset=_at(11),
        paths=(),
        symptoms=(Symptom("stock", _at(10.5), "errors of calls to it 0% -> 100%"),),
        states=(crash,),
        pods=_pods(),
    )
    assert _top(evidence) == f"{NS}/Deployment/stock"


def test_a_broker_user_that_lost_a_right_outranks_a_topic_edit_and_a_failing_job_elsewhere():
    user = _edit("KafkaUser", "ledger",
                 {"authorization": {"acls": [{"resource": {"type": "topic", "name": "invoices"},
                                              "operations": ["Describe"]}]}},
                 "spec.authorization.acls[0].operations", namespace="broker")  # fmt: skip
    topic = _edit("KafkaTopic", "invoices", {"partitions": 6, "config": {"retention.ms": 1}},
                  "spec.config.retention.ms", namespace="broker")  # fmt: skip
    job = FailingState(namespace="exports", kind="Pod", name="export-29100-k2x8q",
                       app="export-29100-k2x8q", what="Warning Failed x1 on pod export-29100-k2x8q",
                       strength=2)  # fmt: skip
    evidence = Evidence(
        changes=(topic, user),
        warnings=(WarningEvent("exports", "Pod", "export-29100-k2x8q", "Failed", 1),),
        alerts=(AlertGroup("KubeJobFailed", "exports", "exports", _at(2), "firing"),),
        onset=None,
        paths=(),
        symptoms=(Symptom("ledger", _at(9), "ERROR log lines 0% -> 100%", logs=True),),
        states=(job,),
        pods=_pods(),
    )
    assert _top(evidence) == "broker/KafkaUser/ledger"


# --- a pod priority raised: the pods it puts out ------------------------------------------------


def _preemption(indexer: Change) -> Evidence:
    victim = "stock-5c7d9f8b6-z8k3m"
    unplaced = FailingState(namespace=NS, kind="Deployment", name="stock", app="stock",
                            what=f"pod {victim} cannot be scheduled: no node fits",
                            strength=2.5, unplaced=True)  # fmt: skip
    # the product's own ConfigMap was edited a few minutes before: a decoy acting on stock
    config = Change(namespace=NS, kind="ConfigMap", name="stock-catalogue", time=_at(7),
                    change="modified", paths=("data.catalogue.json",), spec={}, since=_at(3))  # fmt: skip
    return Evidence(
        changes=(config, indexer),
        warnings=(
            # the preemptor's pods took the room: only the victim's wait
            WarningEvent(NS, "Pod", victim, "FailedScheduling", 2),
        ),
        alerts=(AlertGroup("KubePodNotReady", victim, NS, _at(13), "firing"),),
        onset=_at(13),
        paths=(),
        symptoms=(Symptom("storefront", _at(10.5), "errors of server spans 0% -> 60%"),),
        states=(unplaced,),
        pods=_pods(),
        config_users={f"{NS}/ConfigMap/stock-catalogue": frozenset({"stock"})},
    )


def _indexer(change: str, *paths: str) -> Change:
    spec = {"template": {"spec": {"priorityClassName": "urgent"}}}
    return Change(namespace="batch", kind="Deployment", name="indexer", time=_at(10),
                  change=change, paths=paths, spec=spec, since=_at(6))  # fmt: skip


def test_an_edit_raising_a_pod_priority_acts_on_the_pods_put_out():
    raised = _indexer("modified", "spec.template.spec.priorityClassName")
    assert displaced(raised, _preemption(raised)) == {"stock"}
    # an image rollout of the same workload puts nobody out
    rolled = _indexer("modified", "spec.template.spec.containers[0].image")
    assert displaced(rolled, _preemption(rolled)) == frozenset()


def test_the_priority_edit_outranks_the_workload_it_put_out():
    raised = _indexer("modified", "spec.template.spec.priorityClassName")
    top = rank(_preemption(raised))[0]
    assert top.change.entity == "batch/Deployment/indexer"
    assert any("cannot be scheduled" in r for r in top.reasons)


def test_a_new_high_priority_workload_leaves_its_victim_named_not_a_configmap_it_reads():
    # ITBench names the displaced workload when the preemptor is a new arrival; the victim's
    # ConfigMap edited before cannot have left its pods unschedulable (what a pod reads at run
    # time decides nothing about where it fits)
    made = _indexer("created")
    assert _top(_preemption(made)) == f"{NS}/Deployment/stock"


def test_a_configmap_edited_just_before_does_not_take_an_unschedulable_state():
    """The victim's ConfigMap edited a minute before the alert, while a new high-priority
    workload took the room: the pods wait for a node, not for their configuration. The edit
    stays a candidate by its timing, but the unschedulable state stays the workload's."""
    config = Change(namespace=NS, kind="ConfigMap", name="stock-catalogue", time=_at(12),
                    change="modified", paths=("data.catalogue.json",), spec={}, since=_at(11))  # fmt: skip
    evidence = replace(_preemption(_indexer("created")), changes=(config, _indexer("created")))
    ranked = {c.change.entity: c for c in rank(evidence)}
    assert not any("cannot be scheduled" in r for r in ranked[config.entity].reasons)
    assert any("cannot be scheduled" in r for r in ranked[f"{NS}/Deployment/stock"].reasons)


def test_a_claim_that_gets_no_volume_takes_the_wait_of_the_workload_edited_to_mount_it():
    """stock's Deployment was edited to mount a new claim, whose storage class does not exist;
    both are dated just before the first symptom. The pods wait for the volume: the claim."""
    mount = Change(namespace=NS, kind="Deployment", name="stock", time=_at(10.2),
                   change="modified", paths=("spec.template.spec.volumes[0].persistentVolumeClaim",),
                   spec={})  # fmt: skip
    claim = Change(namespace=NS, kind="PersistentVolumeClaim", name="stock-data", time=_at(10),
                   change="created", paths=(), spec={})  # fmt: skip
    unplaced = FailingState(namespace=NS, kind="Deployment", name="stock", app="stock",
                            what="pod stock-5c7d9f8b6-z8k3m cannot be scheduled: no node fits",
                            strength=2.5, unplaced=True)  # fmt: skip
    unbound = FailingState(namespace=NS, kind="PersistentVolumeClaim", name="stock-data",
                           app="stock", what="Warning ProvisioningFailed x5: no such class",
                           strength=3)  # fmt: skip
    evidence = Evidence(
        changes=(mount, claim),
        warnings=(WarningEvent(NS, "Pod", "stock-5c7d9f8b6-z8k3m", "FailedScheduling", 4),),
        alerts=(AlertGroup("KubeDeploymentReplicasMismatch", "stock", NS, _at(14), "firing"),),
        onset=_at(14),
        paths=(),
        symptoms=(Symptom("stock", _at(10.5), "errors of calls to it 0% -> 100%"),),
        states=(unplaced, unbound),
        pods=_pods(),
        config_users={f"{NS}/PersistentVolumeClaim/stock-data": frozenset({"stock"})},
    )
    assert _top(evidence) == f"{NS}/PersistentVolumeClaim/stock-data"


# --- a workload edit dated only by the export's observations -----------------------------------


def _deployment(name: str, env: str, version: str) -> dict:
    container = {"name": name, "image": f"reg/{name}:4", "env": [{"name": "MODE", "value": env}]}
    return deployment(NS, name, {"containers": [container]}, label="app", resourceVersion=version)


def _config(value: str, version: str) -> dict:
    return {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "storefront-banner", "namespace": NS, "resourceVersion": version},
            "data": {"banner": value}}  # fmt: skip


def _pod(name: str, app: str, started: datetime) -> dict:
    # the exporter rewrote creationTimestamp to the Deployment's: only the container's start
    # dates the pod
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": NS, "labels": {"app": app},
                         "creationTimestamp": "2026-10-01T08:00:00Z"},
            "spec": {"containers": [{"name": app, "image": f"reg/{app}:4"}]},
            "status": {"phase": "Running", "containerStatuses": [
                {"name": app, "ready": True, "restartCount": 0,
                 "state": {"running": {"startedAt": stamp(started)}}}]}}  # fmt: skip


def test_a_rollout_no_replica_set_dates_is_dated_by_its_new_pod(tmp_path):
    """Deployments and Pods observed every five minutes, no ReplicaSets, no managedFields: the
    stock rollout shows at minute 10, its new pod started at minute 7 and the alert's answer
    came at minute 9; a ConfigMap edit of another application lies in the span 5 to 10. The
    rollout is dated by its pod's start, just before the alert, not by the observation after."""
    rows = []
    for minute in (0, 5, 10, 15):
        late = minute >= 10
        rows += [
            (_at(minute), _deployment("stock", "strict" if late else "lenient", str(100 + minute))),
            (_at(minute), _deployment("storefront", "web", "50")),
            (_at(minute), _config("winter" if late else "autumn", str(200 + minute))),
            (
                _at(minute),
                _pod(
                    f"stock-6f7d8c9b5-{'m2n4p' if late else 'a1b2c'}",
                    "stock",
                    _at(7) if late else _at(-50),
                ),
            ),
            (_at(minute), _pod("storefront-7c8d9e6f5-x7y8z", "storefront", _at(-50))),
        ]
    snapshot = write_incident(
        tmp_path / "incident", rows, [],
        [firing(NS, _at(8), "KubeDeploymentReplicasMismatch", deployment="stock")], _at(9),
    )  # fmt: skip
    diagnosis = diagnose(snapshot)
    named = [e["name"] for e in diagnosis.entities if e["contributing_factor"]]
    assert named == [f"{NS}/Deployment/stock"], diagnosis.entities
    assert "modified at 14:07:00" in diagnosis.entities[0]["reasoning"]
