"""Causes that select no pod of their own: a Role whose rights a workload holds through its
ServiceAccount, a Service setting seen only in its clients' errors, a cloud experiment stopping
a machine, a volume the metrics show full, a certificate past its date, a JVM heap that stays
full; and two decoys that are not causes: a single back-off of an unrelated pod and an edit of
nothing but an object's own labels or annotations.

The shop here (web -> basket -> store, a ledger reading a queue) is written for these tests; each
incident puts the cause beside a decoy made at the same moment, so the ranking, not the timing,
decides."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from sre.agents.baseline.dependency_clients import clients_naming
from sre.agents.baseline.evidence import (
    AlertGroup,
    Change,
    Evidence,
    PodLabels,
    Symptom,
    WarningEvent,
)
from sre.agents.baseline.outside_faults import victims
from sre.agents.baseline.rank import rank
from sre.agents.baseline.states import (
    event_failures,
    exhausted_heaps,
    expired_certificates,
    full_volumes,
    rbac_users,
)
from sre.agents.baseline.states.objects import ObjectView
from tests._support.sre_incident_files import clock

T0 = datetime(2026, 9, 3, 11, 0)
_at = clock(T0)


def _top(evidence: Evidence) -> str:
    return rank(evidence)[0].change.entity


def _relabelled(name: str) -> Change:
    """A decoy: someone tagged a Deployment with its owning team at the same moment."""
    return Change(namespace="shop", kind="Deployment", name=name, time=_at(10), change="modified",
                  paths=("metadata.labels.team", "metadata.annotations.owner"), spec={},
                  since=_at(5))  # fmt: skip


# --- a Role whose rights a workload holds ------------------------------------------------------


def _objects() -> list[tuple[datetime, dict]]:
    basket = {
        "kind": "Deployment",
        "metadata": {"name": "basket", "namespace": "shop"},
        "spec": {
            "template": {
                "spec": {"serviceAccountName": "basket-runner", "containers": [{"name": "basket"}]}
            }
        },
    }
    web = {
        "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "shop"},
        "spec": {"template": {"spec": {"containers": [{"name": "web"}]}}},
    }
    binding = {
        "kind": "RoleBinding",
        "metadata": {"name": "basket-reads-config", "namespace": "shop"},
        "roleRef": {"kind": "Role", "name": "config-watcher"},
        "subjects": [{"kind": "ServiceAccount", "name": "basket-runner"}],
    }
    cluster = {
        "kind": "ClusterRoleBinding",
        "metadata": {"name": "web-sees-nodes"},
        "roleRef": {"kind": "ClusterRole", "name": "node-viewer"},
        "subjects": [{"kind": "ServiceAccount", "name": "default", "namespace": "shop"}],
    }
    return [(_at(0), o) for o in (basket, web, binding, cluster)]  # fmt: skip


def test_a_role_reaches_the_workloads_running_as_the_accounts_it_is_bound_to():
    users = rbac_users.users(ObjectView.of(_objects()))
    assert users["shop/Role/config-watcher"] == {"basket"}
    assert users["shop/RoleBinding/basket-reads-config"] == {"basket"}
    # a pod without serviceAccountName runs as its namespace's default account
    assert users["ClusterRole/node-viewer"] == {"web"}


def test_a_role_that_lost_a_verb_outranks_a_relabelled_deployment():
    role = Change(namespace="shop", kind="Role", name="config-watcher", time=_at(10),
                  change="modified", paths=("rules[0].verbs",), spec={}, since=_at(5))  # fmt: skip
    evidence = Evidence(
        changes=(_relabelled("web"), role),
        warnings=(), alerts=(), onset=None, paths=(),
        symptoms=(Symptom("basket", _at(11), "ERROR log lines 10% -> 80%", logs=True),),
        config_users=rbac_users.users(ObjectView.of(_objects())),
    )  # fmt: skip
    assert _top(evidence) == "shop/Role/config-watcher"


# --- a Service setting seen only in its clients' errors ----------------------------------------


def _policy_change() -> Change:
    return Change(namespace="shop", kind="Service", name="basket", time=_at(10),
                  change="modified", paths=("spec.internalTrafficPolicy",), spec={},
                  since=_at(5))  # fmt: skip


def test_a_service_spec_edit_acts_on_the_clients_naming_it():
    lines = [("web", _at(11), "dial tcp 10.0.4.7:7070: i/o timeout (basket AddItem)"),
             ("web", _at(2), "basket slow")]  # fmt: skip
    assert clients_naming([_policy_change()], lines) == {"shop/Service/basket": {"web"}}
    # an edit of the Service's own annotations sets nothing its clients use
    tagged = Change(namespace="shop", kind="Service", name="basket", time=_at(10),
                    change="modified", paths=("metadata.annotations.owner",), spec={})  # fmt: skip
    assert clients_naming([tagged], lines) == {}


def test_a_service_traffic_policy_outranks_a_scaled_deployment():
    scaled = Change(namespace="shop", kind="Deployment", name="ledger", time=_at(10),
                    change="modified", paths=("spec.replicas",), spec={},
                    values=(("spec.replicas", 2, 3),), since=_at(5))  # fmt: skip
    evidence = Evidence(
        changes=(scaled, _policy_change()),
        warnings=(), alerts=(), onset=None, paths=(),
        symptoms=(Symptom("web", _at(11), "ERROR log lines from silence", logs=True),),
        named_by={"shop/Service/basket": frozenset({"web"})},
    )  # fmt: skip
    assert _top(evidence) == "shop/Service/basket"


# --- a cloud experiment stopping a machine -----------------------------------------------------


def _machine_stop(created: float = 10) -> Change:
    return Change(namespace="chaos-mesh", kind="AzureChaos", name="rack-7-poweroff",
                  time=_at(created), change="created", paths=(),
                  spec={"action": "vm-stop", "vmName": "worker-rack7-03"})  # fmt: skip


def test_a_cloud_experiment_acts_on_the_pods_of_its_machine_else_on_what_broke_after_it():
    pods = [PodLabels("shop", "store-0", "store", {}, node="worker-rack7-03"),
            PodLabels("shop", "web-7d9f8-abcde", "web", {}, node="worker-rack2-01")]  # fmt: skip
    began = [Symptom("basket", _at(11), "errors 0% -> 70%"), Symptom("web", _at(30), "slow")]
    assert victims(_machine_stop(), pods, began) == {"store"}
    # no pod of the snapshot on that machine: the applications that failed just after it
    assert victims(_machine_stop(), pods[1:], began) == {"basket"}
    # an experiment with a pod selector is not a machine's
    selected = Change(
        namespace="chaos-mesh",
        kind="PodChaos",
        name="kill",
        time=_at(10),
        change="created",
        paths=(),
        spec={"selector": {"pods": {"shop": ["web"]}}},
    )
    assert victims(selected, pods, began) == frozenset()


def test_a_machine_stop_outranks_the_pod_it_left_unschedulable():
    evidence = Evidence(
        changes=(_machine_stop(),),
        warnings=(WarningEvent("shop", "Pod", "store-0", "FailedScheduling", 1,
                               "0/3 nodes are available"),),
        alerts=(AlertGroup("KubePodNotReady", "store-0", "shop", _at(16), "firing"),),
        onset=_at(16), paths=(),
        symptoms=(Symptom("basket", _at(11), "ERROR log lines 0% -> 90%", logs=True),),
    )  # fmt: skip
    from sre.agents.baseline.states.event_failures import find

    evidence = Evidence(**{**evidence.__dict__, "states": tuple(find(evidence, {}))})
    assert _top(evidence) == "chaos-mesh/AzureChaos/rack-7-poweroff"


# --- a volume the metrics show full -------------------------------------------------------------

HEADER = "metric_name\ttimestamp\tvalue\ttags\tpod_name\tnamespace\n"


def _metrics(tmp_path: Path, used: float) -> Path:
    folder = tmp_path / "metrics"
    folder.mkdir()
    tags = '"{""pod"": ""store-6b7c9d-x1y2z"", ""namespace"": ""shop""}"'
    rows = []
    for minute in range(5):
        at = f"2026-09-03T11:{minute:02d}:00Z"
        filled = used * (0.9 + 0.025 * minute)
        rows.append(
            f"kubelet_volume_stats_used_bytes\t{at}\t{filled}\t{tags}\tstore-6b7c9d-x1y2z\tshop"
        )
        rows.append(
            f"kubelet_volume_stats_capacity_bytes\t{at}\t1000\t{tags}\tstore-6b7c9d-x1y2z\tshop"
        )
    (folder / "pod_store-6b7c9d-x1y2z.tsv").write_text(HEADER + "\n".join(rows) + "\n")
    return folder


def test_a_full_volume_is_read_off_the_volume_metrics(tmp_path):
    (full,) = full_volumes.full_pods(_metrics(tmp_path, 1000))
    assert full[:3] == ("store-6b7c9d-x1y2z", "shop", "")


def test_a_volume_with_room_left_is_not_full(tmp_path):
    assert full_volumes.full_pods(_metrics(tmp_path, 800)) == []


def test_a_full_volume_names_the_claim_its_alert_names_else_the_one_mounted():
    full = [("store-6b7c9d-x1y2z", "shop", "", 0.99)]
    alert = AlertGroup("VolumeAlmostFull-PersistentVolume", "orders-db", "shop", _at(3), "firing")
    (state,) = full_volumes.find(full, [alert], {})
    assert state.entity == "shop/PersistentVolumeClaim/orders-db" and state.app == "store"
    (state,) = full_volumes.find(full, [], {("shop", "store"): "store-data"})
    assert state.entity == "shop/PersistentVolumeClaim/store-data"


def test_a_full_volume_outranks_an_environment_edit_made_as_it_filled():
    # the catalog's edit comes just before the first errors, but nothing it acts on fails
    env = Change(namespace="shop", kind="Deployment", name="catalog", time=_at(10), change="modified",
                 paths=("spec.template.spec.containers[0].env",), spec={})  # fmt: skip
    full = [("store-6b7c9d-x1y2z", "shop", "", 1.0)]
    evidence = Evidence(
        changes=(env,), warnings=(), alerts=(), onset=None, paths=(),
        symptoms=(Symptom("store", _at(11), "ERROR log lines 5% -> 90%", logs=True),
                  Symptom("basket", _at(10.5), "ERROR log lines 0% -> 60%", logs=True)),
        states=tuple(full_volumes.find(full, [], {("shop", "store"): "store-data"})),
    )  # fmt: skip
    assert _top(evidence) == "shop/PersistentVolumeClaim/store-data"


# --- decoys --------------------------------------------------------------------------------------


def test_one_back_off_is_a_restart_waited_out_not_a_failing_pod():
    once = Evidence(
        changes=(),
        alerts=(),
        onset=None,
        paths=(),
        warnings=(WarningEvent("shop", "Pod", "ledger-5f6d7c8b9-q2w3e", "BackOff", 1),),
    )
    assert event_failures.find(once, {("shop", "ledger"): "Deployment"}) == []
    looping = Evidence(
        changes=(),
        alerts=(),
        onset=None,
        paths=(),
        warnings=(WarningEvent("shop", "Pod", "ledger-5f6d7c8b9-q2w3e", "BackOff", 6),),
    )
    (state,) = event_failures.find(looping, {("shop", "ledger"): "Deployment"})
    assert state.entity == "shop/Deployment/ledger"


def test_an_edit_of_labels_and_annotations_alone_is_a_routine_one():
    (candidate,) = rank(Evidence(changes=(_relabelled("web"),), warnings=(), alerts=(),
                                 onset=None, paths=()))  # fmt: skip
    assert not any("not a routine rollout" in r for r in candidate.reasons), candidate.reasons


# --- an expired certificate ---------------------------------------------------------------------


def test_an_expired_certificate_names_the_secret_its_server_reads(tmp_path):
    logs = tmp_path / "logs.jsonl"
    logs.write_text(
        '{"ts": "2026-09-03T11:01:00Z", "service": "gateway", "level": "WARN", '
        '"msg": "handshake failed: tls alert CERTIFICATE_EXPIRED sent to 10.1.2.3"}\n'
        '{"ts": "2026-09-03T11:01:01Z", "service": "shopper", "level": "ERROR", '
        '"msg": "x509: certificate has expired or is not yet valid"}\n'
        '{"ts": "2026-09-03T11:01:02Z", "service": "basket", "level": "ERROR", "msg": "timeout"}\n'
    )
    reports = expired_certificates.reporting(logs)
    assert reports == {"gateway": 1, "shopper": 1}
    users = {"shop/Secret/gateway-serving-cert": frozenset({"gateway"}),
             "shop/Secret/gateway-api-key": frozenset({"gateway"}),
             "shop/ConfigMap/gateway-routes": frozenset({"gateway"})}  # fmt: skip
    (state,) = expired_certificates.find(reports, users)
    assert state.entity == "shop/Secret/gateway-serving-cert"
    assert state.app == "gateway" and state.reaches == "shopper"


def test_no_expiry_in_the_logs_names_no_secret():
    users = {"shop/Secret/gateway-serving-cert": frozenset({"gateway"})}
    assert expired_certificates.find({}, users) == []


# --- a JVM heap that stays full -----------------------------------------------------------------


def _gc_log(tmp_path: Path, after_mb: int, runs: int = 4) -> Path:
    logs = tmp_path / "logs.jsonl"
    lines = [
        f'{{"ts": "2026-09-03T11:{m:02d}:00Z", "service": "pricer", "level": "INFO", '
        f'"msg": "[gc] GC({900 + m}) Pause Full (G1 Compaction Pause) 510M->{after_mb}M(512M) 700ms"}}'
        for m in range(runs)
    ]
    logs.write_text("\n".join(lines) + "\n")
    return logs


def test_full_collections_that_free_nothing_leave_the_workload_failing(tmp_path):
    counts = exhausted_heaps.full_heaps(_gc_log(tmp_path, 495))
    assert counts == {"pricer": 4}
    (state,) = exhausted_heaps.find(counts, {("shop", "pricer"): "Deployment"})
    assert state.entity == "shop/Deployment/pricer"


def test_full_collections_that_free_the_heap_are_routine(tmp_path):
    assert exhausted_heaps.full_heaps(_gc_log(tmp_path, 120)) == {}
    # a couple of collections leaving it full is not yet a leak
    assert exhausted_heaps.find({"pricer": 2}, {("shop", "pricer"): "Deployment"}) == []
