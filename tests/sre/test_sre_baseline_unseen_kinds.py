"""Faults of kinds the baseline has no rule for, found from what links them to the failing
workload: a route whose backend the gateway's 5xx access lines name, a namespace's admission
labels that refuse the replacement of an evicted pod, a configuration named after its
application and taken up by a restart whose pods do not fail; and an export that stops showing
most of a namespace's Services at once, which deleted none of them.

The bakery here (till -> oven, a courier consuming orders, a gateway in front of the till) is
written for these tests. Each incident sets the cause beside decoys: an edit of another object
made near the fault, a second namespace with its own trouble, an alert on the victim."""

from __future__ import annotations

from datetime import datetime

from sre.agents.baseline import diagnose
from sre.agents.baseline import vanished as export
from sre.agents.baseline.dependency_clients import clients_naming
from sre.agents.baseline.evidence import (
    AlertGroup,
    Change,
    Evidence,
    FailingState,
    PodLabels,
    Symptom,
    WarningEvent,
)
from sre.agents.baseline.rank import rank, touched_apps
from sre.agents.baseline.symptoms import is_error
from tests._support.sre_incident_files import clock, firing, write_incident, write_rows

T0 = datetime(2026, 9, 14, 7, 0)
NS = "bakery"
_at = clock(T0)


def _pods() -> tuple[PodLabels, ...]:
    def pod(app: str, namespace: str = NS) -> PodLabels:
        return PodLabels(namespace, f"{app}-6b8f7c9d5-k2m4n", app, {"app": app})

    return (pod("till"), pod("oven"), pod("courier"), pod("door-gw"), pod("sieve", "pantry"))


def _edit(kind: str, name: str, spec: dict, *paths: str, namespace: str = NS,
          at: float = 10, since: float = 6) -> Change:  # fmt: skip
    """An edit an export without write times dates only between two observations."""
    return Change(namespace=namespace, kind=kind, name=name, time=_at(at), change="modified",
                  paths=paths, spec=spec, since=_at(since))  # fmt: skip


def _top(evidence: Evidence) -> str:
    return rank(evidence)[0].change.entity


# --- a route whose backend the gateway's access lines name --------------------------------------


def test_a_proxy_access_line_answered_5xx_is_an_error_whatever_its_level():
    envoy = '[2026-09-14T07:11:02Z] "GET /menu HTTP/1.1" 503 UH no_healthy_upstream 0 0 0 -'
    nginx = '10.1.2.3 - - [14/Sep/2026:07:11:02 +0000] "POST /pay HTTP/2.0" 502 157 "-" "curl"'
    # a TSV exporter that doubles the quotes inside the body
    doubled = '"[2026-09-14T07:11:02Z] ""GET / HTTP/2"" 504 UT upstream_timeout 0 0 150 -"'
    for line in (envoy, nginx, doubled):
        assert is_error("INFO", 9, line), line
    assert not is_error("INFO", 9, '"GET /menu HTTP/1.1" 200 - via_upstream 0 512 12 -')
    assert not is_error("INFO", 9, '"GET /menu HTTP/1.1" 404 - route_not_found 0 0 1 -')


def _route(weights: tuple[int, int]) -> Change:
    spec = {"parentRefs": [{"kind": "Gateway", "name": "door"}],
            "rules": [{"backendRefs": [{"kind": "Service", "name": "till", "weight": weights[0]},
                                       {"kind": "Service", "name": "till-preview",
                                        "weight": weights[1]}]}]}  # fmt: skip
    return _edit("HTTPRoute", "front", spec, "spec.rules[0].backendRefs[1].weight")


def test_a_route_acts_on_the_clients_whose_errors_name_a_service_it_routes_to():
    route = _route((0, 100))
    lines = [
        # before the edit: a routine failure of another upstream
        ("door-gw", _at(2), '"GET /x HTTP/1.1" 503 UF outbound|80||oven.bakery.svc.cluster.local'),
        ("door-gw", _at(11), '"GET / HTTP/2" 503 UH outbound|80||till-preview.bakery.svc.cluster.local'),
        # a line naming a Service the route does not name
        ("courier", _at(12), "ERROR publish failed: broker unreachable"),
    ]  # fmt: skip
    services = {"till", "till-preview", "oven", "courier"}
    assert clients_naming([route], lines, services) == {f"{NS}/HTTPRoute/front": {"door-gw"}}
    # the kinds words of a spec (``Service``, ``Gateway``) name no Service of the snapshot
    assert clients_naming([route], [("x", _at(11), "ERROR Service Gateway down")], services) == {}


def _gateway_incident() -> Evidence:
    """The gateway answers 503 for every request since the route sent all traffic to a preview
    Service with no pod; in-cluster traffic to the till stays healthy. Decoys: the till's
    autoscaler got a higher minimum four minutes earlier, the preview Deployment has had no
    replica all along, and a Job's pod fails in another namespace with its own alert."""
    route = _route((0, 100))
    scaler = _edit("HorizontalPodAutoscaler", "till",
                   {"scaleTargetRef": {"kind": "Deployment", "name": "till"}, "minReplicas": 2},
                   "spec.minReplicas", at=6, since=3)  # fmt: skip
    idle = FailingState(namespace=NS, kind="Deployment", name="till-preview", app="till-preview",
                        what="Deployment till-preview has spec.replicas 0: no pod serves it",
                        strength=1.5)  # fmt: skip
    job = FailingState(namespace="pantry", kind="Pod", name="sieve-29301-q7w2e",
                       app="sieve-29301-q7w2e", what="Warning Failed x1 on pod sieve-29301-q7w2e",
                       strength=2)  # fmt: skip
    return Evidence(
        changes=(scaler, route),
        warnings=(WarningEvent("pantry", "Pod", "sieve-29301-q7w2e", "Failed", 1),),
        alerts=(
            AlertGroup("GatewayErrorRate", "door-gw", NS, _at(14), "firing"),
            AlertGroup("KubeJobFailed", "pantry", "pantry", _at(9), "firing"),
        ),
        onset=_at(14),
        paths=(),
        symptoms=(Symptom("door-gw", _at(10.5), "ERROR log lines 0% -> 100%", logs=True),),
        states=(idle, job),
        pods=_pods(),
        named_by={f"{NS}/HTTPRoute/front": frozenset({"door-gw"})},
    )


def test_a_route_to_a_service_with_no_pod_outranks_the_idle_deployment_and_an_autoscaler():
    evidence = _gateway_incident()
    assert "door-gw" in touched_apps(evidence.changes[1], evidence)
    assert _top(evidence) == f"{NS}/HTTPRoute/front"


# --- a namespace that refuses the replacement of an evicted pod ---------------------------------


def _eviction(*changes: Change, refused: bool = True) -> Evidence:
    """A node short of memory evicts the oven's pod at minute 20; its ReplicaSet's new pods are
    refused (``FailedCreate``) when ``refused``. The alert names the oven's Deployment."""
    node = FailingState(namespace="", kind="Node", name="worker-3", app="oven",
                        what="node worker-3: EvictionThresholdMet; pods of oven evicted",
                        strength=2.5, needs_blame=True)  # fmt: skip
    warnings = [
        WarningEvent("", "Node", "worker-3", "EvictionThresholdMet", 1),
        WarningEvent(NS, "Pod", "oven-6b8f7c9d5-k2m4n", "Evicted", 1),
    ]
    if refused:
        warnings.append(WarningEvent(NS, "ReplicaSet", "oven-6b8f7c9d5", "FailedCreate", 11,
                                     'pods "oven-6b8f7c9d5-x9q8w" is forbidden: violates '
                                     'PodSecurity "restricted:latest"'))  # fmt: skip
    return Evidence(
        changes=changes,
        warnings=tuple(warnings),
        alerts=(AlertGroup("KubeDeploymentReplicasMismatch", "oven", NS, _at(23), "firing"),),
        onset=_at(23),
        paths=(),
        symptoms=(Symptom("oven", _at(20.5), "errors of calls to it 0% -> 100%"),),
        states=(node,),
        pods=_pods(),
    )


def _labelled(name: str) -> Change:
    # a Namespace is cluster-scoped: no namespace of its own; labelled 14 minutes before
    return Change(namespace="", kind="Namespace", name=name, time=_at(6), change="modified",
                  paths=("metadata.labels.pod-security.kubernetes.io/enforce",), spec={})  # fmt: skip


def test_a_namespace_acts_on_the_workloads_whose_new_pods_it_refused():
    evidence = _eviction(_labelled(NS), _labelled("pantry"))
    assert touched_apps(evidence.changes[0], evidence) == {"oven"}
    # the other namespace, relabelled at the same moment, refused nothing
    assert touched_apps(evidence.changes[1], evidence) == frozenset()


def test_the_admission_edit_outranks_the_node_that_evicted_the_pod_it_could_not_replace():
    top = rank(_eviction(_labelled("pantry"), _labelled(NS)))[0]
    assert top.change.entity == f"Namespace/{NS}"
    assert any("evicted" in r for r in top.reasons)


def test_an_eviction_whose_pod_was_replaced_leaves_the_node_named():
    """Guard: the same labels edit, but the oven's replacement pod was created (no refusal):
    the node's memory pressure is the fault."""
    assert _top(_eviction(_labelled(NS), refused=False)) == "Node/worker-3"


# --- a configuration named after its application, taken up by a restart ------------------------


def _restart(at: float) -> Change:
    return Change(namespace=NS, kind="Deployment", name="courier", time=_at(at),
                  change="modified", paths=("spec.template.metadata.annotations.checksum/config",),
                  spec={})  # fmt: skip


def _exporter_edit() -> Change:
    return Change(namespace=NS, kind="ConfigMap", name="courier", time=_at(9.9),
                  change="modified", paths=("data.pipeline.yaml",), spec={},
                  values=(("data.pipeline.yaml", "port: 7100", "port: 7101"),),
                  since=_at(6))  # fmt: skip


def _courier_incident(*states: FailingState) -> Evidence:
    """The courier's ConfigMap points its exporter at a wrong port, and a restart rolls its pods
    to read it: the new pods run (no failing state) and log that every export fails. The
    export leaves out the volume that mounts the ConfigMap (no reader is known)."""
    return Evidence(
        changes=(_exporter_edit(), _restart(10)),
        warnings=(),
        alerts=(AlertGroup("NoOrdersDelivered", "courier", NS, _at(16), "firing"),),
        onset=_at(16),
        paths=(),
        symptoms=(Symptom("courier", _at(10.5), "ERROR log lines 0% -> 100%", logs=True),),
        states=states,
        pods=_pods(),
    )


def test_a_configmap_named_after_its_application_acts_on_it():
    evidence = _courier_incident()
    assert "courier" in touched_apps(evidence.changes[0], evidence, frozenset({"courier"}))


def test_a_restart_whose_pods_run_hands_its_case_to_the_configuration_they_read():
    ranked = rank(_courier_incident())
    assert ranked[0].change.entity == f"{NS}/ConfigMap/courier"
    restart = next(c for c in ranked if c.change.kind == "Deployment")
    assert restart.score == 0.0


def test_a_restart_whose_pods_cannot_pull_their_image_keeps_its_case():
    """Guard: the restarted pods wait in ImagePullBackOff, which nothing they read explains."""
    pull = FailingState(namespace=NS, kind="Deployment", name="courier", app="courier",
                        what="container courier waiting: ImagePullBackOff", strength=3)  # fmt: skip
    assert _top(_courier_incident(pull)) == f"{NS}/Deployment/courier"


# --- an export that stops showing most Services at once -----------------------------------------


def _service(name: str) -> dict:
    return {"apiVersion": "v1", "kind": "Service",
            "metadata": {"name": name, "namespace": NS, "resourceVersion": "40"},
            "spec": {"selector": {"app": name}, "ports": [{"port": 80, "targetPort": 8080}]}}  # fmt: skip


def _deployment(name: str, replicas: int = 1) -> dict:
    return {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": name, "namespace": NS, "resourceVersion": "70"},
            "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": name}},
                     "template": {"metadata": {"labels": {"app": name}},
                                  "spec": {"containers": [{"name": name,
                                                           "image": f"reg/{name}:2"}]}}}}  # fmt: skip


def test_services_the_export_stopped_showing_together_were_not_deleted(tmp_path):
    """Four Services of five are in the first pull only; the fifth (a preview Service no pod
    serves) is pulled every five minutes, unchanged, and so are all the Deployments."""
    apps = ("till", "oven", "courier", "door-gw")
    rows = [(_at(0), _service(a)) for a in apps]
    for minute in (0, 5, 10, 15):
        rows += [(_at(minute), _service("till-preview"))]
        rows += [(_at(minute), _deployment(a)) for a in apps]
        rows += [(_at(minute), _deployment("till-preview", replicas=0))]
    objects = write_rows(tmp_path / "k8s_objects_raw.tsv", rows)
    assert export.vanished(objects) == []
    assert export.dropped_by_export(objects) == {(NS, "Service", a) for a in apps}
    snapshot = write_incident(
        tmp_path / "incident", rows, [],
        [firing(NS, _at(12), "RequestRateDrop", service="till")], _at(13),
    )  # fmt: skip
    entities = diagnose(snapshot).entities
    gone = [e["name"] for e in entities if "gone" in e["reasoning"] or "deleted" in e["evidence"]]
    assert gone == [], entities


def test_one_service_gone_while_its_neighbours_are_pulled_again_is_still_deleted(tmp_path):
    """Guard: the export pulls every Service each round and one of five disappears."""
    apps = ("till", "oven", "courier", "door-gw", "till-preview")
    rows = []
    for minute in (0, 5, 10, 15):
        rows += [(_at(minute), _service(a)) for a in apps if a != "oven" or minute < 10]
        rows += [(_at(minute), _deployment(a)) for a in apps]
    objects = write_rows(tmp_path / "k8s_objects_raw.tsv", rows)
    assert [c.entity for c in export.vanished(objects)] == [f"{NS}/Service/oven"]
