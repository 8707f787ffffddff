"""Evidence the SRE baseline reads in shapes our generator never writes: an export that lists a
few objects before its first full pull; a new prioritized workload named only by the scheduler's
``Preempted`` events (Normal ones, by pod uid or by timing); a configuration edit that re-values a
setting its server's clients then quote; a workload restarted by a reloader annotation; a
NetworkPolicy whose claimed cut-offs the server spans refute; traces whose error tree is blind
(spans without parent ids) while each service's own spans stepped."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from sre.agents.baseline.dependency_clients import changed_settings, clients_naming
from sre.agents.baseline.evidence import (
    AlertGroup,
    CallPath,
    Change,
    Evidence,
    FailingState,
    PodLabels,
    Preemption,
    Symptom,
    WarningEvent,
)
from sre.agents.baseline.preemption import displaced, pod_uids, preemptions, put_out_by
from sre.agents.baseline.rank import blame, rank
from sre.agents.baseline.states import config_users
from sre.agents.baseline.states.network_policies import answered
from sre.agents.baseline.states.objects import ObjectView, Workloads, latest_objects
from tests._support.sre_incident_files import clock, deployment, stamp, write_rows

START = datetime(2026, 9, 14, 6, 0)
at = clock(START)
NS = "bazaar"


def _top(evidence: Evidence) -> str:
    return rank(evidence)[0].change.entity


# --- an export listing a few objects before its first full pull --------------------------------


def _service(name: str, made: datetime) -> dict:
    return {"apiVersion": "v1", "kind": "Service",
            "metadata": {"name": name, "namespace": NS, "uid": f"svc-{name}",
                         "creationTimestamp": stamp(made)},
            "spec": {"selector": {"app": name}, "ports": [{"port": 7000}]}}  # fmt: skip


def test_objects_first_shown_by_a_full_pull_after_a_partial_one_are_not_created(tmp_path: Path):
    from sre.agents.baseline.evidence import gather

    long_ago = START - timedelta(days=20)
    names = ["till", "courier", "pricer", "ledger", "atlas", "gazette", "quay", "orchard"]
    rows = [(at(0), _service("till", long_ago)), (at(0), _service("courier", long_ago))]
    # the first full pull, six minutes later, shows every object, most for the first time
    rows += [(at(6) + timedelta(seconds=i), _service(n, long_ago)) for i, n in enumerate(names)]
    # a later pull shows one more, alone: it appeared while the export watched
    rows += [(at(12) + timedelta(seconds=i), _service(n, long_ago)) for i, n in enumerate(names)]
    rows += [(at(12), _service("lantern", long_ago))]
    root = tmp_path / "snap"
    root.mkdir()
    write_rows(root / "k8s_objects_raw.tsv", rows)
    changes = {(c.entity, c.change) for c in gather(root).changes}
    assert changes == {(f"{NS}/Service/lantern", "created")}


# --- a new prioritized workload, named only by Preempted events ---------------------------------


def _arrival(change: str = "created", priority: str | None = "overnight-urgent") -> Change:
    spec: dict = {"replicas": 8, "template": {"spec": {}}}
    if priority:
        spec["template"]["spec"]["priorityClassName"] = priority
    return Change(namespace="warehouse", kind="Deployment", name="reindexer", time=at(10),
                  change=change, paths=(), spec=spec)  # fmt: skip


def _put_out(arrival: Change, preempted: tuple[Preemption, ...]) -> Evidence:
    victims = ("courier", "pricer")
    states = tuple(
        FailingState(namespace=NS, kind="Deployment", name=v, app=v, unplaced=True,
                     what=f"pod {v}-7d9c5b6f8-x2k4q cannot be scheduled: Insufficient cpu",
                     strength=2.5)
        for v in victims
    )  # fmt: skip
    # a routine rollout of an application in the shop, a minute later: a decoy
    rollout = Change(namespace=NS, kind="Deployment", name="gazette", time=at(11),
                     change="modified", paths=("spec.template.spec.containers[0].image",),
                     spec={})  # fmt: skip
    return Evidence(
        changes=(arrival, rollout),
        warnings=tuple(
            WarningEvent(NS, "Pod", f"{v}-7d9c5b6f8-x2k4q", "FailedScheduling", 3, first=at(10.5))
            for v in victims
        ),
        alerts=(
            AlertGroup(
                "KubePodNotScheduled", f"{victims[0]}-7d9c5b6f8-x2k4q", NS, at(14), "firing"
            ),
        ),  # fmt: skip
        onset=at(14),
        paths=(),
        states=states,
        preemptions=preempted,
    )


def test_a_new_prioritized_workload_whose_arrival_preempted_pods_is_named():
    unnamed = tuple(Preemption(NS, v, at(10.1)) for v in ("courier", "pricer"))
    evidence = _put_out(_arrival(), unnamed)
    assert displaced(_arrival(), evidence) == {"courier", "pricer"}
    assert _top(evidence) == "warehouse/Deployment/reindexer"


def test_an_event_naming_the_preempting_pod_names_its_workload_whenever_it_came():
    named = (Preemption(NS, "courier", at(13), by=("warehouse", "reindexer")),)
    assert displaced(_arrival(), _put_out(_arrival(), named)) >= {"courier"}
    # another workload's pods did it: this one put nobody out
    other = (Preemption(NS, "courier", at(10.1), by=("warehouse", "compactor")),)
    assert displaced(_arrival(), _put_out(_arrival(), other)) == frozenset()


def test_preemptions_before_the_arrival_or_by_pods_without_priority_are_not_its_doing():
    early = tuple(Preemption(NS, v, at(8)) for v in ("courier", "pricer"))
    assert displaced(_arrival(), _put_out(_arrival(), early)) == frozenset()
    plain = _arrival(priority=None)
    unnamed = tuple(Preemption(NS, v, at(10.1)) for v in ("courier", "pricer"))
    assert displaced(plain, _put_out(plain, unnamed)) == frozenset()
    # the victim's own priority lowered and its pods pinned before it came (ITBench's
    # injection): the victim keeps its own case, the arrival put out only the other one
    demoted = Change(namespace=NS, kind="Deployment", name="courier", time=at(4),
                     change="modified", paths=("spec.template.spec.priorityClassName",
                                               "spec.template.spec.nodeSelector"), spec={})  # fmt: skip
    evidence = _put_out(_arrival(), unnamed)
    evidence = Evidence(**{**evidence.__dict__, "changes": (*evidence.changes, demoted)})
    assert displaced(_arrival(), evidence) == {"pricer"}


def test_a_new_arrival_acts_only_on_the_pods_it_put_out_not_on_every_pod_waiting_after_it():
    # courier's pods were preempted for the arrival's; pricer's (and a pod of another namespace)
    # only wait for room after it came, with no Preempted event: not the arrival's doing
    preempted = (Preemption(NS, "courier", at(10.1)),)
    evidence = _put_out(_arrival(), preempted)
    waiting = WarningEvent("ledger", "Pod", "ledger-5c6d7e8f9-q1w2e", "FailedScheduling", 2,
                           first=at(11))  # fmt: skip
    evidence = Evidence(**{**evidence.__dict__, "warnings": (*evidence.warnings, waiting)})
    assert displaced(_arrival(), evidence) == {"courier"}
    taken = {c.change.entity: c.apps for c in rank(evidence)}
    assert "pricer" not in taken.get("warehouse/Deployment/reindexer", frozenset())


def _event(when: datetime, pod: str, message: str, kind: str = "Normal") -> tuple:
    return when, {
        "type": "ADDED",
        "object": {"apiVersion": "events.k8s.io/v1", "kind": "Event", "type": kind,
                   "metadata": {"name": f"{pod}.1", "namespace": NS},
                   "regarding": {"kind": "Pod", "name": pod, "namespace": NS},
                   "reason": "Preempted", "note": message, "eventTime": stamp(when)},
    }  # fmt: skip


def test_preempted_events_of_any_type_are_read_with_the_preemptor_they_name(tmp_path: Path):
    uid = "5b0c7e2a-91d4-4f3e-8a6b-2c9d0e1f3a47"
    pod = {"apiVersion": "v1", "kind": "Pod",
           "metadata": {"name": "reindexer-6b8f9c7d5-p9q2r", "namespace": "warehouse", "uid": uid,
                        "labels": {"app": "reindexer"}}}  # fmt: skip
    events = write_rows(tmp_path / "events.tsv", [
        _event(at(10), "courier-7d9c5b6f8-x2k4q", f"Preempted by pod {uid} on node n-2"),
        _event(at(10.2), "pricer-7d9c5b6f8-z8m3n", "Preempted by warehouse/compactor-5d6f7c9b8-g7h8j "
                                                   "on node n-1", kind="Warning"),
        _event(at(10.4), "quay-7d9c5b6f8-w4e5t", "Preempted by pod 0f0f0f0f-aaaa-4bbb-8ccc-"
                                                 "dddddddddddd on node n-3"),
    ])  # fmt: skip
    with events.open("a") as torn:  # a row cut short by the export: the tool skips it
        torn.write(f'{stamp(at(11))}\t\t{{"type": "ADDED", "object": {{"kind\n')
    notes: list[str] = []
    uids = pod_uids(Workloads([(at(9), pod)], {}))
    found = {p.app: p.by for p in preemptions(events, uids, notes)}
    assert found == {"courier": ("warehouse", "reindexer"), "pricer": ("warehouse", "compactor"),
                     "quay": None}  # fmt: skip
    # the tool's warning reaches the notes the run reports
    assert any("malformed" in note for note in notes), notes


def test_a_preemptor_named_by_uid_is_its_workload_whatever_its_pods_app_label_says(
    tmp_path: Path,
):
    # the Deployment ``reindexer`` labels its pods ``app: search-batch``; the arrival is the
    # Deployment, so the uid must resolve to its name, as ``ns/name`` in the message would
    uid = "9e4d2c1b-7a6f-4e5d-8c3b-1a2f3e4d5c6b"
    made = deployment("warehouse", "reindexer", {"priorityClassName": "overnight-urgent",
                                                 "containers": [{"name": "r", "image": "r:3"}]},
                      label="app")  # fmt: skip
    pod = {"apiVersion": "v1", "kind": "Pod",
           "metadata": {"name": "reindexer-6b8f9c7d5-p9q2r", "namespace": "warehouse", "uid": uid,
                        "labels": {"app": "search-batch"},
                        "ownerReferences": [{"kind": "ReplicaSet",
                                             "name": "reindexer-6b8f9c7d5"}]}}  # fmt: skip
    work = ObjectView.of(latest_objects(write_rows(tmp_path / "objects.tsv",
                                                   [(at(9), made), (at(10), pod)]))).work  # fmt: skip
    # reported well after the arrival: only the uid ties it to the arrival, not the timing
    events = write_rows(tmp_path / "events.tsv", [
        _event(at(17), "courier-7d9c5b6f8-x2k4q", f"Preempted by pod {uid} on node n-2"),
    ])  # fmt: skip
    named = preemptions(events, pod_uids(work), [])
    assert [(p.app, p.by) for p in named] == [("courier", ("warehouse", "reindexer"))]
    assert put_out_by(_arrival(), _put_out(_arrival(), named)) == {"courier"}


# --- a configuration edit re-valuing a setting its clients quote -------------------------------


def _conf(old: str, new: str) -> Change:
    return Change(namespace=NS, kind="ConfigMap", name="queue-broker-conf", time=at(10),
                  change="modified", paths=("data.broker.conf",), spec={},
                  values=(("data.broker.conf", old, new),))  # fmt: skip


def test_a_setting_given_another_value_is_what_the_clients_quote():
    old = "listen 0.0.0.0\nmax_clients 500\nqueue_depth = 4000\n"
    new = "listen 0.0.0.0\nmax_clients 3\nqueue_depth = 4000\nsyslog_ident broker\n"
    # re-valued: max_clients; only added (syslog_ident) or untouched (queue_depth): not
    assert changed_settings(old, new) == {"max_clients"}
    lines = [
        ("courier", at(12), "enqueue failed: broker refused connection (max_clients reached)"),
        ("pricer", at(12), "enqueue failed: queue_depth exceeded"),
        ("till", at(2), "max_clients reached"),  # before the edit: not its doing
    ]
    named = clients_naming((_conf(old, new),), lines, {"courier", "pricer", "till"})
    assert named == {f"{NS}/ConfigMap/queue-broker-conf": {"courier"}}


def _keyed(key: str, old: str, new: str) -> Change:
    return Change(namespace=NS, kind="ConfigMap", name="basket-cache-env", time=at(10),
                  change="modified", paths=(f"data.{key}",), spec={},
                  values=((f"data.{key}", old, new),))  # fmt: skip


def test_a_key_that_is_itself_a_setting_is_quoted_by_its_clients_when_its_value_is_one_line():
    # a plain word with neither ``_`` nor ``.``: no file's name, only the key's own value says
    # it is a setting (read as an environment variable)
    quoted = [("till", at(11), "OOM command not allowed when used memory > 'maxmemory'")]
    capped = _keyed("maxmemory", "256mb", "2mb")
    assert clients_naming((capped,), quoted, {"till"}) == {
        f"{NS}/ConfigMap/basket-cache-env": {"till"}
    }
    # a key holding lines is a file, whatever its name: its name is no setting it re-valued
    listed = _keyed("maxmemory", "256mb\nallkeys-lru\n", "2mb\nallkeys-lru\n")
    assert clients_naming((listed,), quoted, {"till"}) == {}


def test_a_workload_a_reloader_annotation_ties_to_a_configmap_uses_it(tmp_path: Path):
    annotated = deployment(NS, "broker", {"containers": [{"name": "b", "image": "broker:2"}]})
    annotated["metadata"]["annotations"] = {
        "configmap.reloader.stakater.com/reload": "queue-broker-conf, broker-acl",
        "secret.reloader.stakater.com/reload": "broker-tls",
    }
    plain = deployment(NS, "courier", {"containers": [{"name": "c", "image": "courier:5"}]})
    path = write_rows(tmp_path / "objects.tsv", [(at(0), annotated), (at(0), plain)])
    users = config_users.users(ObjectView.of(latest_objects(path)))
    assert users[f"{NS}/ConfigMap/queue-broker-conf"] == {"broker"}
    assert users[f"{NS}/ConfigMap/broker-acl"] == {"broker"}
    assert users[f"{NS}/Secret/broker-tls"] == {"broker"}


def test_a_reloader_annotation_on_the_pod_template_ties_the_workload_too(tmp_path: Path):
    templated = deployment(NS, "ledger", {"containers": [{"name": "l", "image": "ledger:7"}]})
    templated["spec"]["template"]["metadata"]["annotations"] = {
        "secret.reloader.stakater.com/reload": "ledger-db-login",
        "checksum/config": "9f2c4e",
    }
    path = write_rows(tmp_path / "objects.tsv", [(at(0), templated)])
    users = config_users.users(ObjectView.of(latest_objects(path)))
    assert users[f"{NS}/Secret/ledger-db-login"] == {"ledger"}
    # the other annotation names neither kind: it adds no ConfigMap or Secret
    assert {u for u in users if "/ConfigMap/" in u or "/Secret/" in u} == {
        f"{NS}/Secret/ledger-db-login"
    }


# --- NetworkPolicy cut-offs the server spans refute -------------------------------------------


def _cut_off(policy: str, app: str, seen: float = 10) -> FailingState:
    return FailingState(NS, "NetworkPolicy", policy, app,
                        f"NetworkPolicy {policy} admits no ingress to {app} (only from x)", 1.0,
                        at(seen), needs_blame=True)  # fmt: skip


def _made(policy: str) -> Change:
    return Change(NS, "NetworkPolicy", policy, at(10), "created", (), {})


def test_cut_offs_refuted_by_the_spans_are_dropped_and_with_most_refuted_all_of_the_policy():
    wide = [_cut_off("scrape-only", a) for a in ("courier", "pricer", "till", "cache")]
    narrow = [_cut_off("cache-ingress", "cache")]
    # courier, pricer and till answer requests all along; the cache (no spans of its own) not
    served = {a: [(at(m), 12) for m in range(0, 30)] for a in ("courier", "pricer", "till")}
    dropped = answered([*wide, *narrow], [_made("scrape-only"), _made("cache-ingress")], served)
    assert set(dropped) == set(wide)
    # one refuted of four: only that one goes
    few = {"courier": served["courier"]}
    assert answered(wide, [_made("scrape-only")], few) == [wide[0]]
    # answered only before the policy (and in the minutes it settles): a real cut-off
    before = {a: [(at(m), 12) for m in range(0, 12)] for a in ("courier", "pricer", "till")}
    assert answered(wide, [_made("scrape-only")], before) == []


def test_a_cut_off_is_refuted_from_five_server_spans_after_the_policy_settled():
    alone = [_cut_off("till-ingress", "till")]
    made = [_made("till-ingress")]  # at minute 10: settled from minute 12
    assert answered(alone, made, {"till": [(at(13), 3), (at(14), 1)]}) == []
    assert answered(alone, made, {"till": [(at(13), 3), (at(14), 2)]}) == alone
    # spans before it settled (minute 11) prove nothing
    assert answered(alone, made, {"till": [(at(11), 9), (at(13), 3)]}) == []


def test_a_cut_off_is_dated_by_its_policy_change_not_by_when_the_state_was_last_seen():
    # the export saw the policy last at minute 25; it was made at minute 10, and till answered
    # requests from minute 13 to 20: the spans refute it
    late = [_cut_off("till-ingress", "till", seen=25)]
    served = {"till": [(at(m), 4) for m in range(13, 21)]}
    assert answered(late, [_made("till-ingress")], served) == late
    # an egress cut-off is not something the application's own server spans refute
    outbound = FailingState(NS, "NetworkPolicy", "till-egress", "till",
                            "NetworkPolicy till-egress admits no egress from till", 1.0, at(10),
                            needs_blame=True)  # fmt: skip
    assert answered([outbound], [_made("till-egress")], served) == []


# --- a blind error tree: each service's own spans stepped ---------------------------------------


def _slowed(paths: tuple, unlinked: bool = True) -> Evidence:
    chaos = Change(namespace="chaos-testing", kind="NetworkChaos", name="slow-lane", time=at(5),
                   change="created", paths=(),
                   spec={"action": "delay", "selector": {"namespaces": [NS],
                                                         "labelSelectors": {"app": "pricer"}}})  # fmt: skip
    # a settings edit timed to the first alert, well after the slowdown began: a decoy
    edit = Change(namespace=NS, kind="ConfigMap", name="till-theme", time=at(19), change="modified",
                  paths=("data.theme.json",), spec={}, since=at(18))  # fmt: skip
    return Evidence(
        changes=(chaos, edit),
        warnings=(),
        alerts=(AlertGroup("HighRequestLatency", "till", NS, at(20), "firing"),),
        onset=at(20),
        paths=paths,
        symptoms=(Symptom("pricer", at(5.1), "latency of server spans of it 4 ms -> 790 ms"),),
        pods=(PodLabels(NS, "pricer-6c8d7f9b5-k3j2h", "pricer", {"app": "pricer"}),),
        unlinked_spans=unlinked,
    )


def test_without_a_trace_path_the_span_steps_blame_and_the_experiment_is_named():
    evidence = _slowed(paths=())
    assert "spans" in blame(evidence)["pricer"]
    assert _top(evidence) == "chaos-testing/NetworkChaos/slow-lane"
    # a trace path blaming a service: the tree sees, the span steps add nothing
    path = CallPath(("till", "ledger"), "CRITICAL", "ledger", "error rate 0% -> 80%", ())
    assert "spans" not in blame(_slowed(paths=(path,))).get("pricer", {})
    # spans linked to their parents, no path blamed: a service slowed on its own, not blamed
    assert "spans" not in blame(_slowed(paths=(), unlinked=False)).get("pricer", {})
