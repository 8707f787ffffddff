"""Faults of kinds no rule reads by name, linked to the failing workload by the object itself.

Each incident here is the baseline's own, with its own names: what it shares with the faults
real users bring is the link between the changed object and the workload that fails. The object
is referenced by the workload (the ServiceAccount its pods run as), configures what its traffic
passes through (a DNS server's or a database's rule file, which the clients' errors quote),
applies to its whole namespace (a mesh policy without a selector), or it only relabels the
workload (its own annotations, which no pod reads). Beside each: a harmless change near the
fault time, a second namespace with its own trouble, alerts on the victim."""

from __future__ import annotations

import json
from datetime import datetime

from sre.agents.baseline.batch_load import raises_load
from sre.agents.baseline.dependency_clients import clients_naming, configured_names
from sre.agents.baseline.evidence import (
    AlertGroup,
    CallPath,
    Change,
    Evidence,
    FailingState,
    PodLabels,
    Symptom,
    WarningEvent,
)
from sre.agents.baseline.rank import rank
from sre.agents.baseline.references import namespace_wide
from sre.agents.baseline.states import config_users
from sre.agents.baseline.states.objects import ObjectView
from tests._support.sre_incident_files import clock

T0 = datetime(2026, 9, 3, 11, 0)
_at = clock(T0)


def _pods(namespace: str, *apps: str) -> tuple[PodLabels, ...]:
    return tuple(
        PodLabels(namespace, f"{a}-7c9f8d6b5-x2k4p", a, {"app.kubernetes.io/name": a}) for a in apps
    )


#: another namespace's own trouble, in every incident: a pod there keeps failing
ELSEWHERE = FailingState("reports", "Pod", "ledger-sync-2k9x", "ledger-sync",
                         "Warning Failed x1 on pod ledger-sync-2k9x", 2.0)  # fmt: skip
ELSEWHERE_WARNING = WarningEvent("reports", "Pod", "ledger-sync-2k9x", "Failed", 1)
#: a harmless change near the fault time: a dashboard ConfigMap created
DASHBOARD = Change("bazaar", "ConfigMap", "board-panels", _at(12), "created", (), {})


def _evidence(changes: tuple[Change, ...], **more) -> Evidence:
    fields = dict(
        changes=(*changes, DASHBOARD),
        warnings=(ELSEWHERE_WARNING, *more.pop("warnings", ())),
        alerts=more.pop("alerts", ()),
        onset=more.pop("onset", None),
        paths=more.pop("paths", ()),
        states=(ELSEWHERE, *more.pop("states", ())),
        pods=_pods("bazaar", "till", "pricer", "courier", "lister", "edge")
        + _pods("reports", "ledger-sync"),
    )
    return Evidence(**fields, **more)  # type: ignore[arg-type]  # overrides are a loose dict by design


def _ranked(evidence: Evidence) -> list[str]:
    return [c.change.entity for c in rank(evidence)]


# --- a ServiceAccount the workload runs as -------------------------------------------------------


def _object_rows(rows: list[tuple[str, dict]]) -> str:
    return "Timestamp\tBody\n" + "".join(f"{ts}\t{json.dumps(body)}\n" for ts, body in rows)


def _account(pulls: list[str]) -> dict:
    body: dict = {"apiVersion": "v1", "kind": "ServiceAccount",
                  "metadata": {"name": "bazaar-runner", "namespace": "bazaar",
                               "creationTimestamp": "2026-08-01T00:00:00Z"}}  # fmt: skip
    if pulls:
        body["imagePullSecrets"] = [{"name": p} for p in pulls]
    return body


def test_an_edit_outside_spec_and_data_is_a_change(tmp_path):
    # a ServiceAccount holds its pull secrets beside its metadata, not under spec or data: an
    # export that dropped one of them is a change of the account
    from sre.agents.baseline.evidence import gather

    rows = [(f"2026-09-03 11:{m:02d}:00.000000000", _account(p))
            for m, p in ((0, ["vault-pull"]), (5, ["vault-pull"]), (10, []))]  # fmt: skip
    (tmp_path / "k8s_objects_raw.tsv").write_text(_object_rows(rows))
    changes = [c for c in gather(tmp_path).changes if c.kind == "ServiceAccount"]
    assert [(c.change, c.paths) for c in changes] == [("modified", ("imagePullSecrets",))], changes


def test_a_workload_uses_the_account_its_pods_run_as():
    def deployment(name: str, account: str | None) -> dict:
        spec = {"containers": [{"name": name, "image": f"registry.example/{name}:1"}]}
        if account:
            spec["serviceAccountName"] = account
        return {"kind": "Deployment", "metadata": {"name": name, "namespace": "bazaar"},
                "spec": {"template": {"spec": spec}}}  # fmt: skip

    view = ObjectView.of(
        [(T0, deployment("pricer", "bazaar-runner")), (T0, deployment("till", None))]
    )
    users = config_users.users(view)
    assert users["bazaar/ServiceAccount/bazaar-runner"] == {"pricer"}
    # a pod that names no account runs as its namespace's default one
    assert users["bazaar/ServiceAccount/default"] == {"till"}


def test_an_account_that_lost_its_pull_secret_is_the_cause_of_the_pull_failure():
    account = Change("bazaar", "ServiceAccount", "bazaar-runner", _at(10), "modified",
                     ("imagePullSecrets",), {}, (("imagePullSecrets", [{"name": "vault-pull"}], None),),
                     since=_at(5))  # fmt: skip
    # the workload's pods were rescheduled much later (a node went away) and cannot pull
    pulled = FailingState("bazaar", "Deployment", "pricer", "pricer",
                          "pod pricer-7c9f8d6b5-x2k4p container pricer: ImagePullBackOff", 3.0,
                          time=_at(40))  # fmt: skip
    evidence = _evidence(
        (account,),
        warnings=(WarningEvent("bazaar", "Pod", "pricer-7c9f8d6b5-x2k4p", "Failed", 3),),
        alerts=(
            AlertGroup("KubePodNotReady", "pricer-7c9f8d6b5-x2k4p", "bazaar", _at(35), "firing"),
        ),
        onset=_at(35),
        states=(pulled,),
        config_users={"bazaar/ServiceAccount/bazaar-runner": frozenset({"pricer", "till"})},
    )
    ranked = _ranked(evidence)
    assert ranked[0] == "bazaar/ServiceAccount/bazaar-runner", ranked


def test_a_pull_failure_with_no_account_edit_names_the_workload():
    # guard: the same state with the account unchanged is the workload's own
    pulled = FailingState("bazaar", "Deployment", "pricer", "pricer",
                          "pod pricer-7c9f8d6b5-x2k4p container pricer: ImagePullBackOff", 3.0,
                          time=_at(40))  # fmt: skip
    evidence = _evidence((), states=(pulled,), onset=_at(35),
                         config_users={"bazaar/ServiceAccount/bazaar-runner": frozenset({"pricer"})})  # fmt: skip
    assert _ranked(evidence)[0] == "bazaar/Deployment/pricer"


# --- a rule file or a name a configuration serves, quoted by the clients' errors ------------------


def _config(namespace: str, name: str, path: str, old: str, new: str) -> Change:
    return Change(namespace, "ConfigMap", name, _at(10), "modified", (path,), {},
                  ((path, old, new),), since=_at(2))  # fmt: skip


RESOLVER = _config(
    "kube-system",
    "name-server",
    "data.Zonefile",
    ". {\n  forward . 10.0.0.2\n}\n",
    ". {\n  rewrite name pricer.bazaar.svc.cluster.local pricer.gone.svc.cluster.local\n"
    "  forward . 10.0.0.2\n}\n",
)
RULES = _config("bazaar", "ledger-db-settings", "data.client_rules.conf",
                "host all all 10.8.0.0/16 md5", "host all all 10.8.0.0/24 md5")  # fmt: skip


def test_a_configuration_names_the_files_and_the_hosts_its_edit_changed():
    services = {"pricer", "courier", "till"}
    assert configured_names(RESOLVER, services) == {"pricer"}
    assert configured_names(RULES, services) == {"client_rules.conf"}
    # a ConfigMap created, or a key without a file's name, configures nothing to quote
    created = Change("bazaar", "ConfigMap", "x", _at(10), "created", (), {})
    assert configured_names(created, services) == frozenset()


def test_the_clients_whose_errors_quote_it_are_what_it_configured():
    lines = [
        ("courier", _at(11), "quote lookup: dial tcp: lookup pricer: no such host"),
        ("lister", _at(11), "ledger refused: no client_rules.conf entry for host 10.8.3.7"),
        ("till", _at(1), "lookup pricer: timeout"),  # before the edit: not its doing
    ]
    named = clients_naming((RESOLVER, RULES), lines, {"pricer", "courier", "lister", "till"})
    assert named == {"kube-system/ConfigMap/name-server": {"courier"},
                     "bazaar/ConfigMap/ledger-db-settings": {"lister"}}  # fmt: skip


def _courier_fails(named_by: dict) -> Evidence:
    # the courier cannot resolve the pricer: its calls fail and its caller's alerts fire
    return _evidence(
        (RESOLVER,),
        alerts=(
            AlertGroup("ErrorRate", "courier", "bazaar", _at(13), "firing"),
            AlertGroup("RequestRateLow", "pricer", "bazaar", _at(20), "firing"),
        ),
        onset=_at(13),
        paths=(
            CallPath(
                ("edge", "till", "courier"), "CRITICAL", "courier", "error rate 0% -> 60%", ()
            ),
        ),
        symptoms=(Symptom("courier", _at(10.5), "errors of server spans of it 0% -> 60%"),),
        named_by=named_by,
    )


def test_a_platform_configuration_the_clients_errors_quote_is_the_cause():
    ranked = _ranked(_courier_fails({RESOLVER.entity: frozenset({"courier"})}))
    assert ranked[0] == "kube-system/ConfigMap/name-server", ranked


def test_a_platform_configuration_no_error_quotes_stays_routine():
    # guard: the same edit with no client naming what it changed is the platform's own
    assert "kube-system/ConfigMap/name-server" not in _ranked(_courier_fails({}))


def test_a_rule_file_the_refused_clients_quote_is_the_cause():
    evidence = _evidence(
        (RULES,),
        alerts=(AlertGroup("ConsumerLagHigh", "lister", "bazaar", _at(14), "firing"),),
        onset=_at(14),
        symptoms=(Symptom("lister", _at(10.5), "ERROR log lines from silence", logs=True),),
        named_by={RULES.entity: frozenset({"lister"})},
    )
    candidates = {c.change.entity: c for c in rank(evidence)}
    assert next(iter(candidates)) == "bazaar/ConfigMap/ledger-db-settings", list(candidates)
    # it acts on the client it refused, though no workload of the snapshot mounts it
    assert "lister" in candidates["bazaar/ConfigMap/ledger-db-settings"].apps


# --- a policy that applies to its whole namespace ------------------------------------------------


def test_a_spec_that_selects_nothing_applies_to_its_namespace():
    assert namespace_wide({"mtls": {"mode": "STRICT"}})
    assert not namespace_wide({"selector": {"matchLabels": {"app": "till"}}, "mtls": {}})
    assert not namespace_wide({"targetRefs": [{"kind": "Service", "name": "till"}]})
    assert not namespace_wide({"template": {"spec": {}}})  # it runs pods of its own
    assert not namespace_wide({})


def _edge_fails(policy: Change) -> Evidence:
    # the edge proxy (outside the mesh) gets its connections closed by every callee
    retagged = Change("bazaar", "Deployment", "edge", _at(1), "modified",
                      ("spec.template.metadata.annotations",), {})  # fmt: skip
    return _evidence(
        (policy, retagged),
        alerts=(
            AlertGroup("ErrorRate", "edge", "bazaar", _at(13), "firing"),
            AlertGroup("RequestRateLow", "till", "bazaar", _at(13), "firing"),
        ),
        onset=_at(13),
        paths=(CallPath(("edge",), "CRITICAL", "edge", "error rate 0% -> 100%", ()),),
        symptoms=(Symptom("edge", _at(10.5), "errors of server spans of it 0% -> 100%"),),
    )


def test_a_mesh_policy_without_a_selector_is_the_cause_of_its_namespace_failing():
    policy = Change("bazaar", "PeerAuthentication", "default", _at(10), "modified",
                    ("spec.mtls.mode",), {"mtls": {"mode": "STRICT"}},
                    (("spec.mtls.mode", "PERMISSIVE", "STRICT"),), since=_at(2))  # fmt: skip
    ranked = _ranked(_edge_fails(policy))
    assert ranked[0] == "bazaar/PeerAuthentication/default", ranked


def test_a_routing_rule_naming_another_host_stays_on_that_host():
    # guard: a rule that names its host acts on that host only, not on the failing edge
    rule = Change("bazaar", "DestinationRule", "lister", _at(10), "modified",
                  ("spec.trafficPolicy",), {"host": "lister", "trafficPolicy": {"tls": {}}})  # fmt: skip
    candidates = {c.change.entity: c for c in rank(_edge_fails(rule))}
    assert candidates["bazaar/DestinationRule/lister"].apps == {"lister"}


# --- a workload that only relabelled itself ------------------------------------------------------


def test_a_workload_that_changed_only_its_own_annotations_is_not_the_cause():
    # a GitOps sync re-annotates the victim and runs a batch Job in the same minute: the Job's
    # pods hold the lock the victim waits on; the annotations change nothing the victim does
    synced = Change("bazaar", "Deployment", "lister", _at(9.9), "modified",
                    ("metadata.annotations.sync/revision",), {})  # fmt: skip
    job = Change("bazaar", "Job", "lister-backfill-v3", _at(10), "created", (), {})
    evidence = _evidence(
        (synced, job),
        alerts=(AlertGroup("LatencyHigh", "lister", "bazaar", _at(14), "firing"),),
        onset=_at(14),
        symptoms=(
            Symptom("lister", _at(10.3), "latency of server spans of it 8 ms -> 3900 ms"),
            Symptom("lister", _at(10.3), "ERROR log lines from silence", logs=True),
        ),
        # its pods and the Job were seen from its creation until minute 25
        job_runs={"bazaar/Job/lister-backfill-v3": (_at(10), _at(25))},
    )
    candidates = {c.change.entity: c for c in rank(evidence)}
    assert candidates["bazaar/Deployment/lister"].score == 0.0, candidates
    assert next(iter(candidates)) == "bazaar/Job/lister-backfill-v3", list(candidates)


def test_a_one_off_job_loads_what_it_uses_and_a_scheduled_run_does_not():
    assert raises_load(Change("bazaar", "Job", "lister-backfill-v3", _at(10), "created", (), {}))
    # a CronJob's run is named after its scheduled minute: the CronJob's change is the one
    scheduled = Change("bazaar", "Job", "nightly-roll-29412345", _at(10), "created", (), {})
    assert not raises_load(scheduled)
    # an edit of a Job that already ran adds no run
    edited = Change("bazaar", "Job", "lister-backfill-v3", _at(20), "modified", ("metadata.x",), {})
    assert not raises_load(edited)


def test_a_services_addresses_moving_with_pod_readiness_are_no_change(tmp_path):
    # guard: the endpoints controller rewrites a Service's addresses when a pod turns NotReady;
    # the change analysis sees every declared field now, and those addresses follow the pods
    from sre.agents.baseline.evidence import gather

    def endpoints(ready: bool) -> dict:
        address = [{"ip": "10.8.1.4", "targetRef": {"kind": "Pod", "name": "till-7c9f8d6b5-x2k4p"}}]
        subset = {"addresses" if ready else "notReadyAddresses": address, "ports": [{"port": 80}]}
        return {"apiVersion": "v1", "kind": "Endpoints",
                "metadata": {"name": "till", "namespace": "bazaar",
                             "creationTimestamp": "2026-08-01T00:00:00Z"},
                "subsets": [subset]}  # fmt: skip

    rows = [(f"2026-09-03 11:{m:02d}:00.000000000", endpoints(r))
            for m, r in ((0, True), (5, True), (10, False))]  # fmt: skip
    (tmp_path / "k8s_objects_raw.tsv").write_text(_object_rows(rows))
    assert [c for c in gather(tmp_path).changes if c.kind == "Endpoints"] == []


def _slice(manager: str, address: str) -> dict:
    return {"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
            "metadata": {"name": f"till-{manager[:4]}", "namespace": "bazaar",
                         "creationTimestamp": "2026-08-01T00:00:00Z",
                         "labels": {"kubernetes.io/service-name": "till",
                                    "endpointslice.kubernetes.io/managed-by": manager}},
            "addressType": "IPv4", "endpoints": [{"addresses": [address]}]}  # fmt: skip


def test_the_controllers_slice_follows_the_pods_and_a_hand_applied_one_is_a_change(tmp_path):
    from sre.agents.baseline.evidence import gather

    rows = [
        (f"2026-09-03 11:{m:02d}:00.000000000", _slice(manager, address))
        for manager in ("endpointslice-controller.k8s.io", "night-shift")
        for m, address in ((0, "10.8.1.4"), (5, "10.8.1.4"), (10, "10.8.9.9"))
    ]
    (tmp_path / "k8s_objects_raw.tsv").write_text(_object_rows(rows))
    changed = [c.name for c in gather(tmp_path).changes if c.kind == "EndpointSlice"]
    assert changed == ["till-nigh"], changed
