"""A third, stdlib-only writer of incident snapshots in ITBench's layout (``Scenario-N``: alerts
dumps, ``k8s_objects_raw.tsv``, ``k8s_events_raw.tsv``, ``otel_traces_raw.tsv``,
``otel_logs_raw.tsv``, ``metrics/pod_*.tsv``), written for these tests only: it shares no code
with ``sre/generator`` nor with ``tests/sre/shapes`` / ``tests/sre/shapes2``.

The shop is the OpenTelemetry demo's shape (namespace ``otel-demo``; pods labelled
``app.kubernetes.io/component`` and ``app.kubernetes.io/name`` with their service's name, as the
demo's chart labels them); Chaos Mesh objects live in namespace ``chaos-mesh`` and select their
victims across namespaces. Every incident carries normal life that is not its cause: ``ad``
fails one request in twenty all the time (with ERROR log lines), an alert on ``ad`` fires all
along, a Warning event from hours before the window, and decoys in the window (routine image
rollouts of other services, a Deployment created or scaled up) placed closer to the first alert
than the fault itself.

The fault's effect is described, not computed: which server spans fail or slow down, which
client spans cannot reach their callee (a partition, a port nobody listens on), which calls pay
network latency (a delay on the callee's pods: the callee's own spans stay fast), which
services log errors, which pods the metrics show throttled."""

from __future__ import annotations

import copy
import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

NS = "otel-demo"
CHAOS_NS = "chaos-mesh"
START = datetime(2026, 9, 14, 13, 0, tzinfo=UTC)
FAULT = START + timedelta(minutes=22, seconds=10)
END = START + timedelta(minutes=40)
#: the alert fires this long after the fault (its rule's ``for``)
ALERT_DELAY = timedelta(seconds=75)
#: a full observation of every object every five minutes (a periodic pull exporter)
OBSERVATIONS = tuple(START + timedelta(minutes=3 + 5 * k) for k in range(8)) + (
    END - timedelta(seconds=20),
)
CREATED = START - timedelta(days=6)
#: who makes the routine changes of normal life (the decoys); a fault's edit uses another manager
DECOY_MANAGERS = frozenset(
    {"argocd-application-controller", "kubectl-scale", "kubectl-client-side-apply"}
)

#: caller -> ((callee, protocol), ...)
CALLS: dict[str, tuple[tuple[str, str], ...]] = {
    "frontend": (("checkout", "grpc"), ("product-catalog", "grpc"), ("recommendation", "http"),
                 ("ad", "grpc")),
    "checkout": (("payment", "grpc"), ("cart", "grpc"), ("shipping", "http"), ("email", "http")),
    "cart": (("valkey-cart", "redis"),),
    "recommendation": (("product-catalog", "grpc"),),
    "shipping": (("quote", "http"),),
}  # fmt: skip
RPC = {
    "checkout": "oteldemo.CheckoutService",
    "product-catalog": "oteldemo.ProductCatalogService",
    "ad": "oteldemo.AdService",
    "payment": "oteldemo.PaymentService",
    "cart": "oteldemo.CartService",
}
SERVICES = ("frontend", "checkout", "product-catalog", "recommendation", "ad", "payment", "cart",
            "shipping", "email", "quote", "valkey-cart", "flagd", "load-generator")  # fmt: skip
#: services that write spans (valkey answers redis calls without tracing them; flagd and the
#: load generator are not on the request path here)
TRACED = frozenset(SERVICES) - {"valkey-cart", "flagd", "load-generator"}
PORTS = {"valkey-cart": 6379, "flagd": 8013}
FLAGS = ("adHighCpu", "adFailure", "cartFailure", "paymentFailure", "productCatalogFailure",
         "recommendationCacheFailure", "imageSlowLoad", "kafkaQueueProblems", "emailMemoryLeak",
         "paymentUnreachable")  # fmt: skip


def iso(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def row_time(t: datetime) -> str:
    return t.strftime("%Y-%m-%d %H:%M:%S.%f") + "000"


def labels(app: str) -> dict[str, str]:
    return {"app.kubernetes.io/component": app, "app.kubernetes.io/name": app,
            "app.kubernetes.io/part-of": "opentelemetry-demo"}  # fmt: skip


def rs_hash(app: str, revision: int) -> str:
    base = sum(ord(c) * (i + 3) for i, c in enumerate(app)) * (revision + 7)
    alphabet = "bcdfghjklmnpqrstvwxz2456789"
    out = ""
    while len(out) < 9:
        out += alphabet[base % len(alphabet)]
        base = base // len(alphabet) + 131 * len(out)
    return out


def pod_name(app: str, revision: int = 1) -> str:
    return f"{app}-{rs_hash(app, revision)}-{rs_hash(app[::-1], revision)[:5]}"


@dataclass
class Kept:
    """One object as the cluster holds it: its body and its write history."""

    body: dict[str, Any]
    created: datetime = CREATED
    writes: list[tuple[str, datetime]] = field(default_factory=list)
    version: int = 40000

    def wrote(self, manager: str, at: datetime) -> None:
        self.writes.append((manager, at))
        self.version += 211

    def render(self, managed_fields: bool = True) -> dict[str, Any]:
        doc = copy.deepcopy(self.body)
        m = doc.setdefault("metadata", {})
        m["creationTimestamp"] = iso(self.created)
        m["resourceVersion"] = str(self.version)
        key = f"{m.get('namespace')}/{doc.get('kind')}/{m['name']}"
        m["uid"] = f"{zlib.crc32(key.encode()):08x}-5c1e-4d2a-9f1b-{self.created:%H%M%S}000000"
        m["managedFields"] = [{"manager": "helm", "operation": "Update", "apiVersion": "v1",
                               "time": iso(self.created)}]  # fmt: skip
        m["managedFields"] += [{"manager": who, "operation": "Update", "time": iso(at)}
                               for who, at in self.writes]  # fmt: skip
        if not managed_fields:  # an exporter that strips them: only the observations date edits
            del m["managedFields"]
        return doc


Cluster = dict[tuple[str, str, str], Kept]


def container(app: str, image_tag: str = "2.1.3", cpu: str = "500m") -> dict[str, Any]:
    return {"name": app, "image": f"ghcr.io/open-telemetry/demo:{image_tag}-{app}",
            "ports": [{"containerPort": PORTS.get(app, 8080), "name": "service"}],
            "env": [{"name": "OTEL_SERVICE_NAME", "value": app},
                    {"name": "FLAGD_HOST", "value": "flagd"}],
            "resources": {"limits": {"cpu": cpu, "memory": "256Mi"},
                          "requests": {"cpu": "50m", "memory": "64Mi"}}}  # fmt: skip


def add_workload(cluster: Cluster, app: str, replicas: int = 1, created: datetime = CREATED,
                 manager: str = "") -> None:  # fmt: skip
    """A Deployment, its ReplicaSet, its pods and its Service."""
    dep = {"apiVersion": "apps/v1", "kind": "Deployment",
           "metadata": {"name": app, "namespace": NS, "labels": labels(app),
                        "annotations": {"deployment.kubernetes.io/revision": "1"}},
           "spec": {"replicas": replicas, "selector": {"matchLabels": {
               "app.kubernetes.io/component": app}},
               "template": {"metadata": {"labels": labels(app)},
                            "spec": {"containers": [container(app)]}}},
           "status": {"replicas": replicas, "readyReplicas": replicas,
                      "availableReplicas": replicas}}  # fmt: skip
    cluster[NS, "Deployment", app] = Kept(dep, created)
    if manager:
        cluster[NS, "Deployment", app].wrote(manager, created)
    set_replica_set(cluster, app, 1, replicas, created)
    for i in range(replicas):
        set_pod(cluster, app, 1, created, index=i)
    svc = {"apiVersion": "v1", "kind": "Service",
           "metadata": {"name": app, "namespace": NS, "labels": labels(app)},
           "spec": {"type": "ClusterIP", "selector": {"app.kubernetes.io/component": app},
                    "ports": [{"name": "tcp-service", "port": PORTS.get(app, 8080),
                               "targetPort": PORTS.get(app, 8080)}]}}  # fmt: skip
    cluster[NS, "Service", app] = Kept(svc, created)


def set_replica_set(cluster: Cluster, app: str, revision: int, replicas: int,
                    at: datetime) -> None:  # fmt: skip
    name = f"{app}-{rs_hash(app, revision)}"
    key = (NS, "ReplicaSet", name)
    if key in cluster:
        cluster[key].body["spec"]["replicas"] = replicas
        cluster[key].body["status"] = {"replicas": replicas}
        cluster[key].wrote("kube-controller-manager", at)
        return
    template = cluster[NS, "Deployment", app].body["spec"]["template"]
    cluster[key] = Kept({"apiVersion": "apps/v1", "kind": "ReplicaSet",
                         "metadata": {"name": name, "namespace": NS, "labels": labels(app),
                                      "ownerReferences": [{"kind": "Deployment", "name": app,
                                                           "controller": True}]},
                         "spec": {"replicas": replicas, "template": copy.deepcopy(template)},
                         "status": {"replicas": replicas}}, at)  # fmt: skip


def set_pod(cluster: Cluster, app: str, revision: int, at: datetime, index: int = 0,
            status: dict[str, Any] | None = None) -> str:  # fmt: skip
    name = pod_name(app, revision) if index == 0 else pod_name(app, revision)[:-1] + str(index)
    template = cluster[NS, "Deployment", app].body["spec"]["template"]
    cluster[NS, "Pod", name] = Kept({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": NS, "labels": dict(template["metadata"]["labels"]),
                     "ownerReferences": [{"kind": "ReplicaSet", "controller": True,
                                          "name": f"{app}-{rs_hash(app, revision)}"}]},
        "spec": {**copy.deepcopy(template["spec"]), "nodeName": "kind-worker"},
        "status": status or {"phase": "Running",
                             "conditions": [{"type": "Ready", "status": "True"}],
                             "containerStatuses": [{"name": app, "ready": True, "restartCount": 0,
                                                    "state": {"running": {"startedAt": iso(at)}}}]},
    }, at)  # fmt: skip
    return name


def flag_document(on: tuple[str, ...] = ()) -> str:
    flags = {name: {"description": f"{name} feature flag", "state": "ENABLED",
                    "variants": {"on": True, "off": False},
                    "defaultVariant": "on" if name in on else "off"} for name in FLAGS}  # fmt: skip
    return json.dumps({"$schema": "https://flagd.dev/schema/v0/flags.json", "flags": flags},
                      indent=2)  # fmt: skip


def healthy() -> Cluster:
    cluster: Cluster = {}
    for app in SERVICES:
        add_workload(cluster, app)
    cluster[NS, "ConfigMap", "flagd-config"] = Kept({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "flagd-config", "namespace": NS, "labels": labels("flagd")},
        "data": {"demo.flagd.json": flag_document()}})  # fmt: skip
    flagd = cluster[NS, "Deployment", "flagd"].body["spec"]["template"]["spec"]
    flagd["volumes"] = [{"name": "config-ro", "configMap": {"name": "flagd-config"}}]
    cluster[NS, "ConfigMap", "valkey-cart-config"] = Kept({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "valkey-cart-config", "namespace": NS},
        "data": {"valkey.conf": "port 6379\nmaxmemory 256mb\nmaxmemory-policy allkeys-lru\n"
                                "appendonly no\n"}})  # fmt: skip
    valkey = cluster[NS, "Deployment", "valkey-cart"].body["spec"]["template"]["spec"]
    valkey["volumes"] = [{"name": "conf", "configMap": {"name": "valkey-cart-config"}}]
    valkey["containers"][0]["args"] = ["/etc/valkey/valkey.conf"]
    cluster[NS, "ConfigMap", "shipping-settings"] = Kept({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "shipping-settings", "namespace": NS},
        "data": {"settings.yaml": "upstream:\n  timeoutMs: 2500\n  retries: 2\n"}})  # fmt: skip
    shipping = cluster[NS, "Deployment", "shipping"].body["spec"]["template"]["spec"]
    shipping["volumes"] = [{"name": "settings", "configMap": {"name": "shipping-settings"}}]
    cluster[NS, "NetworkPolicy", "payment-ingress"] = Kept({
        "apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
        "metadata": {"name": "payment-ingress", "namespace": NS},
        "spec": {"podSelector": {"matchLabels": {"app.kubernetes.io/component": "payment"}},
                 "policyTypes": ["Ingress"],
                 "ingress": [{"from": [{"podSelector": {"matchLabels": {
                     "app.kubernetes.io/component": "checkout"}}}],
                     "ports": [{"port": 8080, "protocol": "TCP"}]}]}})  # fmt: skip
    for (_, kind, _name), kept in list(cluster.items()):
        if kind == "Pod":  # re-render the pods now that the templates carry their volumes
            app = kept.body["metadata"]["labels"]["app.kubernetes.io/component"]
            kept.body["spec"].update(copy.deepcopy(
                cluster[NS, "Deployment", app].body["spec"]["template"]["spec"]))  # fmt: skip
    return cluster


# --- changes an incident (or a decoy) makes, each at its own time ---------------------------


def rollout(cluster: Cluster, app: str, at: datetime, edit: Callable[[dict[str, Any]], None],
            manager: str = "argocd-application-controller") -> None:  # fmt: skip
    """A new revision of ``app``'s pod template: a new ReplicaSet and pod, the old ones gone."""
    dep = cluster[NS, "Deployment", app]
    edit(dep.body["spec"]["template"]["spec"])
    revision = int(dep.body["metadata"]["annotations"]["deployment.kubernetes.io/revision"]) + 1
    dep.body["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = str(revision)
    dep.wrote(manager, at)
    replicas = dep.body["spec"]["replicas"]
    set_replica_set(cluster, app, revision, replicas, at + timedelta(seconds=1))
    set_replica_set(cluster, app, revision - 1, 0, at + timedelta(seconds=20))
    for key in [k for k in cluster if k[1] == "Pod" and k[2].startswith(
            f"{app}-{rs_hash(app, revision - 1)}-")]:  # fmt: skip
        del cluster[key]
    for i in range(replicas):
        set_pod(cluster, app, revision, at + timedelta(seconds=2), index=i)


def new_image(tag: str) -> Callable[[dict[str, Any]], None]:
    def edit(spec: dict[str, Any]) -> None:
        c = spec["containers"][0]
        c["image"] = c["image"].rsplit(":", 1)[0] + f":{tag}-{c['name']}"

    return edit


def scale(cluster: Cluster, app: str, replicas: int, at: datetime) -> None:
    dep = cluster[NS, "Deployment", app]
    old = dep.body["spec"]["replicas"]
    dep.body["spec"]["replicas"] = replicas
    dep.body["status"] = {"replicas": replicas, "readyReplicas": replicas,
                          "availableReplicas": replicas}  # fmt: skip
    dep.wrote("kubectl-scale", at)
    set_replica_set(cluster, app, 1, replicas, at)
    for i in range(old, replicas):
        set_pod(cluster, app, 1, at + timedelta(seconds=3), index=i)


def create_batch(cluster: Cluster, name: str, at: datetime) -> None:
    """A new workload of its own, unrelated to the shop's requests (a reporting job's runner)."""
    add_workload(cluster, name, replicas=2, created=at, manager="kubectl-client-side-apply")
    del cluster[NS, "Service", name]


def set_flags(cluster: Cluster, at: datetime, *on: str) -> None:
    cm = cluster[NS, "ConfigMap", "flagd-config"]
    cm.body["data"]["demo.flagd.json"] = flag_document(on)
    cm.wrote("kubectl-edit", at)


def chaos(kind: str, name: str, spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "chaos-mesh.org/v1alpha1", "kind": kind,
            "metadata": {"name": name, "namespace": CHAOS_NS,
                         "annotations": {"experiment.chaos-mesh.org/pause": "false"}},
            "spec": spec,
            "status": {"experiment": {"desiredPhase": "Run",
                                      "containerRecords": [{"phase": "Injected"}]}}}  # fmt: skip


def selector(app: str) -> dict[str, Any]:
    return {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/component": app}}


# --- the incident ---------------------------------------------------------------------------


#: (what the incident does to the cluster at observation time ``t``), in place
Change = Callable[[Cluster, datetime], None]


@dataclass(frozen=True)
class Incident:
    name: str
    #: the root cause as ITBench's ground truth names it: namespace/Kind/name
    root_cause: str
    #: what the fault is, in a few words (for the tests' ids and messages)
    shape: str
    fault: Change
    #: decoys: changes in the window that cause nothing
    decoys: Change
    #: server spans of these services fail after the fault (message)
    errors: dict[str, str] = field(default_factory=dict)
    #: server spans of these services take this many times longer after the fault
    slow: dict[str, float] = field(default_factory=dict)
    #: calls to these callees pay this much network latency (ms) after the fault
    net_delay: dict[str, float] = field(default_factory=dict)
    #: (caller or "*", callee) calls that never reach the callee after the fault, and the error
    cut: tuple[tuple[str, str], ...] = ()
    cut_error: str = "connection refused"
    #: services logging ERROR lines after the fault (message)
    logs: dict[str, str] = field(default_factory=dict)
    #: pods (by app) the metrics show throttled after the fault
    throttled: tuple[str, ...] = ()
    #: Warning events after the fault: (kind, name, reason, message)
    events: tuple[tuple[str, str, str, str], ...] = ()
    #: the service the incident's alert names, and the alert
    alert_on: str = "frontend"
    alert: str = "RequestErrorRateHigh"
    #: objects exported with their ``managedFields`` (False: stripped, as some exporters do)
    managed_fields: bool = True


def cluster_at(incident: Incident, t: datetime) -> Cluster:
    cluster = healthy()
    incident.decoys(cluster, t)
    incident.fault(cluster, t)
    return cluster


def write_objects(folder: Path, incident: Incident) -> None:
    out = ["Timestamp\tObservedTimestamp\tBody\tResourceAttributes\tLogAttributes"]
    for t in OBSERVATIONS:
        for kept in cluster_at(incident, t).values():
            body = json.dumps(kept.render(incident.managed_fields), separators=(",", ":"))
            out.append(f"{row_time(t)}\t{row_time(t)}\t{body}\t{{}}\t{{}}")
    (folder / "k8s_objects_raw.tsv").write_text("\n".join(out) + "\n")


def write_events(folder: Path, incident: Incident) -> None:
    def event(kind: str, name: str, reason: str, message: str, at: datetime, kind_: str,
              n: int) -> dict[str, Any]:  # fmt: skip
        return {"type": "ADDED", "object": {
            "apiVersion": "v1", "kind": "Event",
            "metadata": {"name": f"{name}.{n:012x}", "namespace": NS},
            "involvedObject": {"kind": kind, "name": name, "namespace": NS},
            "reason": reason, "message": message, "type": kind_, "count": 1,
            "firstTimestamp": iso(at), "lastTimestamp": iso(at),
            "source": {"component": "kubelet"}}}  # fmt: skip

    rows = [(START - timedelta(hours=2), event("Pod", pod_name("ad"), "Unhealthy",
                                               "Liveness probe failed: HTTP probe failed with "
                                               "statuscode: 503", START - timedelta(hours=2),
                                               "Warning", 1))]  # fmt: skip
    # the Normal events every rollout, scale and creation leaves (what a watch saw)
    final = cluster_at(incident, END)
    n = 10
    for (_, kind, name), kept in sorted(final.items()):
        for who, at in kept.writes:
            if kind == "Deployment" and START <= at <= END:
                n += 1
                rows.append((at, event("Deployment", name, "ScalingReplicaSet",
                                       f"Scaled up replica set by {who}", at, "Normal", n)))  # fmt: skip
    # a new pod of a routine rollout or scale-up is not Ready for its first seconds: the kubelet
    # says so once (a transient Warning of normal life, not the incident's)
    for (_, kind, name), kept in sorted(final.items()):
        if kind != "Pod" or not START <= kept.created <= END:
            continue
        app = kept.body["metadata"]["labels"]["app.kubernetes.io/component"]
        routine = [
            who
            for who, at in final[NS, "Deployment", app].writes
            if who in DECOY_MANAGERS and abs((kept.created - at).total_seconds()) < 5
        ]
        if routine or final[NS, "Deployment", app].created == kept.created:
            n += 1
            rows.append((kept.created + timedelta(seconds=6), event(
                "Pod", name, "Unhealthy", "Readiness probe failed: dial tcp 10.244.1.17:8080: "
                "connect: connection refused", kept.created + timedelta(seconds=6), "Warning", n)))  # fmt: skip
    for i, (kind, name, reason, message) in enumerate(incident.events):
        at = FAULT + timedelta(seconds=40 + 15 * i)
        rows.append((at, event(kind, name, reason, message, at, "Warning", 100 + i)))
    rows.sort(key=lambda r: r[0])
    out = ["Timestamp\tBody"] + [f"{row_time(t)}\t{json.dumps(body)}" for t, body in rows]
    (folder / "k8s_events_raw.tsv").write_text("\n".join(out) + "\n")


class Tracer:
    def __init__(self, incident: Incident) -> None:
        self.incident = incident
        self.rows: list[list[str]] = []
        self.count = 0

    def span_id(self) -> str:
        self.count += 1
        return f"{self.count * 2654435761 % 2**64:016x}"

    def handle(self, app: str, parent: str, trace: str, at: datetime, after: bool,
               request: int) -> tuple[bool, float]:  # fmt: skip
        """``app``'s server span and the calls it makes; (failed, duration in ms)."""
        inc = self.incident
        me = self.span_id()
        ms = 8.0 + (request % 5)
        error = ""
        if after and app in inc.slow:
            ms *= inc.slow[app]
        if after and app in inc.errors:
            error = inc.errors[app]
        if app == "ad" and request % 20 == 3:  # normal life: ad fails now and then
            error = "failed to retrieve ads: context deadline exceeded"
        for callee, protocol in CALLS.get(app, ()):
            client = self.span_id()
            cut = after and ((app, callee) in inc.cut or ("*", callee) in inc.cut)
            if cut:
                c_failed, c_ms, c_error = True, 3000.0 if "timeout" in inc.cut_error else 2.0, \
                    inc.cut_error  # fmt: skip
            elif callee in TRACED:
                c_failed, c_ms = self.handle(callee, client, trace, at, after, request)
                c_ms += 0.6
                c_error = f"{callee} returned an error" if c_failed else ""
            else:
                c_failed, c_ms, c_error = False, 0.8, ""
                if after and callee in inc.errors:
                    c_failed, c_error = True, inc.errors[callee]
            if after and callee in inc.net_delay and not cut:
                c_ms += inc.net_delay[callee]
            attributes: dict[str, Any] = {"server.address": callee}
            if protocol == "grpc":
                attributes = {"rpc.system": "grpc", "rpc.service": RPC[callee],
                              "rpc.method": "Get", "server.address": callee,
                              "rpc.grpc.status_code": 14 if c_failed else 0}  # fmt: skip
            elif protocol == "http":
                attributes = {"http.request.method": "GET", "server.address": callee,
                              "server.port": 8080,
                              "http.response.status_code": 503 if c_failed else 200}  # fmt: skip
            else:
                attributes = {"db.system": "redis", "server.address": callee,
                              "server.port": 6379}  # fmt: skip
            self.span(trace, client, me, f"{protocol} {callee}", "CLIENT", app, at, c_ms,
                      c_error if c_failed else None, attributes)  # fmt: skip
            ms += c_ms
            if c_failed and not error:
                error = f"call to {callee} failed"
        mine = {"rpc.system": "grpc", "rpc.service": RPC[app]} if app in RPC else {}
        self.span(trace, me, parent, f"{app} request", "SERVER", app, at, ms, error or None, mine)
        return bool(error), ms

    def span(self, trace: str, span: str, parent: str, name: str, kind: str, service: str,
             at: datetime, ms: float, error: str | None, attributes: dict[str, Any]) -> None:  # fmt: skip
        resource = {"service.name": service, "k8s.namespace.name": NS,
                    "k8s.pod.name": pod_name(service)}  # fmt: skip
        self.rows.append([row_time(at), trace, span, parent, name, f"SPAN_KIND_{kind}", service,
                          json.dumps(resource), json.dumps(attributes), str(int(ms * 1e6)),
                          "STATUS_CODE_ERROR" if error else "STATUS_CODE_UNSET",
                          error or ""])  # fmt: skip


def write_traces(folder: Path, incident: Incident) -> None:
    tracer = Tracer(incident)
    at, request = START, 0
    while at < END:
        request += 1
        tracer.handle("frontend", "", f"{request * 40503:032x}", at, at >= FAULT, request)
        at += timedelta(seconds=5)
    head = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind",
            "ServiceName", "ResourceAttributes", "SpanAttributes", "Duration", "StatusCode",
            "StatusMessage"]  # fmt: skip
    out = ["\t".join(head)] + ["\t".join(r) for r in tracer.rows]
    (folder / "otel_traces_raw.tsv").write_text("\n".join(out) + "\n")


def write_logs(folder: Path, incident: Incident) -> None:
    head = "Timestamp\tTraceId\tSpanId\tSeverityText\tSeverityNumber\tServiceName\tBody\t" \
           "ResourceAttributes\tLogAttributes"  # fmt: skip
    out = [head]
    at, tick = START, 0
    while at < END:
        tick += 1
        for app in SERVICES:
            level, body = "INFO", f"{app}: handled request"
            if app == "ad" and tick % 7 == 2:
                level, body = "ERROR", "ad: failed to retrieve ads: context deadline exceeded"
            if at >= FAULT and app in incident.logs:
                level, body = "ERROR", incident.logs[app]
            number = "17" if level == "ERROR" else "9"
            resource = json.dumps({"service.name": app, "k8s.namespace.name": NS})
            out.append(f"{row_time(at)}\t\t\t{level}\t{number}\t{app}\t{body}\t{resource}\t{{}}")
        at += timedelta(seconds=20)
    (folder / "otel_logs_raw.tsv").write_text("\n".join(out) + "\n")


def write_metrics(folder: Path, incident: Incident) -> None:
    metrics = folder / "metrics"
    metrics.mkdir()
    final = cluster_at(incident, END)
    pods = [(k[2], kept.body["metadata"]["labels"]["app.kubernetes.io/component"])
            for k, kept in final.items() if k[1] == "Pod"]  # fmt: skip
    for pod, app in pods:
        lines = ["metric_name\ttimestamp\tvalue\ttags"]
        at, periods, throttled = START, 0.0, 0.0
        while at < END:
            periods += 300
            throttled += 190 if at >= FAULT and app in incident.throttled else 4
            tags = json.dumps({"pod": pod, "namespace": NS, "container": app})
            stamp = at.strftime("%Y-%m-%d %H:%M:%S")
            lines.append(f"container_cpu_cfs_periods_total\t{stamp}\t{periods}\t{tags}")
            lines.append(f"container_cpu_cfs_throttled_periods_total\t{stamp}\t{throttled}\t{tags}")
            at += timedelta(seconds=30)
        (metrics / f"pod_{pod}.tsv").write_text("\n".join(lines) + "\n")


def write_alerts(folder: Path, incident: Incident) -> None:
    alerts = folder / "alerts"
    alerts.mkdir()
    fired = FAULT + ALERT_DELAY
    final = cluster_at(incident, END)
    at = START + timedelta(minutes=1)
    while at < END:
        items = [{"labels": {"alertname": "RequestLatencyHigh", "service_name": "ad",
                             "namespace": NS, "severity": "warning"},
                  "annotations": {"summary": "ad p95 latency above 500ms"},
                  "state": "firing", "activeAt": iso(START - timedelta(hours=9)),
                  "value": "0.71"}]  # fmt: skip
        # a scale-up's replicas are not all available for a few minutes
        for (_, kind, name), kept in sorted(final.items()):
            for who, when in kept.writes if kind == "Deployment" else ():
                if who == "kubectl-scale" and when + timedelta(minutes=1) <= at <= when + \
                        timedelta(minutes=4):  # fmt: skip
                    items.append({"labels": {"alertname": "KubeDeploymentReplicasMismatch",
                                             "deployment": name, "namespace": NS,
                                             "severity": "warning"},
                                  "state": "firing",
                                  "activeAt": iso(when + timedelta(minutes=1)),
                                  "value": "1"})  # fmt: skip
        if at >= fired:
            items.append({"labels": {"alertname": incident.alert,
                                     "service_name": incident.alert_on, "namespace": NS,
                                     "severity": "critical"},
                          "state": "firing", "activeAt": iso(fired), "value": "0.3"})  # fmt: skip
        doc = {"status": "success", "data": {"alerts": items}}
        (alerts / f"alerts_at_{at:%Y-%m-%dT%H-%M-%S}.000000.json").write_text(json.dumps(doc))
        at += timedelta(minutes=1)


def write(folder: Path, incident: Incident) -> Path:
    folder.mkdir(parents=True)
    write_objects(folder, incident)
    write_events(folder, incident)
    write_traces(folder, incident)
    write_logs(folder, incident)
    write_metrics(folder, incident)
    write_alerts(folder, incident)
    return folder
