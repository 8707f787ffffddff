"""Incidents shaped as ITBench's own scenarios leave them, one per family of its fault mechanisms,
written for these tests only (stdlib; nothing shared with ``sre/generator`` or the other test
writers): an astronomy shop (frontend -> checkout -> payment, cart, email; frontend ->
product-catalog; cart -> valkey-cart) whose gRPC calls name their callee only in ``rpc.service``,
observed every ten minutes by a pull exporter, so that a change shows up to ten minutes after it
was made and only its ``managedFields`` time and ``resourceVersion`` say when.

Each :class:`Incident` names its root cause as ITBench's ground truths do (the Schedule for a
scheduled Chaos Mesh experiment, the Secret for a corrupted Secret, the victim Deployment for a
preempted or unschedulable pod, ...) and carries the normal life every real snapshot has: a
steady background error rate on cart, an alert that fires all the time, Warning events from
before the window, and, in most incidents, a routine rollout of another service in the window.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

NS = "astronomy"
T0 = datetime(2026, 5, 4, 8, 0, tzinfo=UTC)
FAULT = T0 + timedelta(minutes=21, seconds=40)
T_END = T0 + timedelta(minutes=40)
#: a pull exporter's observations: every ten minutes, the last one at the end
OBSERVED = tuple(T0 + timedelta(minutes=m) for m in (4, 14, 24, 34, 39))
#: the healthy rollout of another service inside the window (a decoy)
ROLLOUT = T0 + timedelta(minutes=12, seconds=5)

#: caller -> (callee, protocol); a gRPC client span names its callee only by ``rpc.service``
EDGES: dict[str, tuple[tuple[str, str], ...]] = {
    "frontend": (("checkout", "http"), ("product-catalog", "grpc")),
    "checkout": (("payment", "grpc"), ("cart", "grpc"), ("email", "http")),
    "cart": (("valkey-cart", "redis"),),
}
GRPC = {
    "product-catalog": "oteldemo.ProductCatalogService",
    "payment": "oteldemo.PaymentService",
    "cart": "oteldemo.CartService",
    "checkout": "oteldemo.CheckoutService",
}
APPS = ("frontend", "checkout", "payment", "cart", "email", "product-catalog", "valkey-cart")
#: applications with spans of their own (valkey is seen only in cart's client spans)
TRACED = APPS[:-1]


def _stamp(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def _tsv_time(t: datetime) -> str:
    return t.strftime("%Y-%m-%d %H:%M:%S.%f")


def pod_of(app: str, generation: int = 0) -> str:
    rs = f"{app}-{'7d9f8c6b5' if generation == 0 else '5c8b7f9d4'}"
    return f"{rs}-{'x2k9q' if generation == 0 else 'r7m4t'}"


@dataclass
class Obj:
    """One object's life: its body now, when it was last written, and its resourceVersion."""

    body: dict[str, Any]
    written: datetime = T0 - timedelta(days=2)
    version: int = 1000
    manager: str = "kubectl-edit"

    def write(self, when: datetime, manager: str = "kubectl-edit") -> None:
        self.written, self.version, self.manager = when, self.version + 137, manager

    def rendered(self) -> dict[str, Any]:
        out = copy.deepcopy(self.body)
        meta = out.setdefault("metadata", {})
        meta["resourceVersion"] = str(self.version)
        meta.setdefault("creationTimestamp", _stamp(T0 - timedelta(days=2)))
        meta["managedFields"] = [
            {"manager": "helm", "operation": "Update", "time": _stamp(T0 - timedelta(days=2))}
        ]
        if self.written > T0 - timedelta(days=2):
            meta["managedFields"].append(
                {"manager": self.manager, "operation": "Update",
                 "time": _stamp(self.written)}
            )  # fmt: skip
        return out


def _meta(name: str, labels: dict[str, str] | None = None, **extra: Any) -> dict[str, Any]:
    return {"name": name, "namespace": NS, "labels": labels or {}, **extra}


def deployment(app: str, env: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    labels = {"app.kubernetes.io/name": app, "app.kubernetes.io/part-of": "astronomy-shop"}
    return {
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": _meta(app, labels),
        "spec": {
            "replicas": 1, "selector": {"matchLabels": {"app.kubernetes.io/name": app}},
            "template": {
                "metadata": {"labels": labels},
                "spec": {"containers": [{
                    "name": app, "image": f"ghcr.io/open-telemetry/demo:2.0.2-{app}",
                    "ports": [{"containerPort": 8080, "name": "service"}],
                    "env": env or [{"name": "OTEL_SERVICE_NAME", "value": app}],
                }]},
            },
        },
        "status": {"replicas": 1, "readyReplicas": 1, "availableReplicas": 1},
    }  # fmt: skip


def pod(app: str, generation: int = 0, status: dict[str, Any] | None = None) -> dict[str, Any]:
    name = pod_of(app, generation)
    rs = name.rsplit("-", 1)[0]
    return {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": _meta(name, {"app.kubernetes.io/name": app},
                          ownerReferences=[{"kind": "ReplicaSet", "name": rs}]),
        "spec": {"nodeName": "worker-2", "containers": [
            {"name": app, "ports": [{"containerPort": 8080, "name": "service"}]}]},
        "status": status or {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}],
                             "containerStatuses": [{"name": app, "ready": True, "restartCount": 0,
                                                    "state": {"running": {}}}]},
    }  # fmt: skip


def service(app: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1", "kind": "Service",
        "metadata": _meta(app, {"app.kubernetes.io/name": app}),
        "spec": {"selector": {"app.kubernetes.io/name": app},
                 "ports": [{"port": 8080, "targetPort": 8080, "name": "tcp-service"}]},
    }  # fmt: skip


FLAGS = ("paymentFailure", "cartFailure", "adHighCpu", "productCatalogFailure")


def flagd_config(on: str = "") -> dict[str, Any]:
    flags = {
        f: {"state": "ENABLED", "variants": {"on": True, "off": False},
            "defaultVariant": "on" if f == on else "off"}
        for f in FLAGS
    }  # fmt: skip
    return {
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": _meta("flagd-config", {"app.kubernetes.io/name": "flagd"}),
        "data": {"demo.flagd.json": json.dumps({"flags": flags}, indent=2)},
    }  # fmt: skip


def shop() -> dict[tuple[str, str], Obj]:
    """The healthy shop's objects (keyed by kind and name)."""
    out: dict[tuple[str, str], Obj] = {}
    for app in APPS:
        env = [{"name": "OTEL_SERVICE_NAME", "value": app}]
        if app == "email":
            env.append({"name": "SMTP_PASSWORD", "valueFrom": {
                "secretKeyRef": {"name": "email-service-secret", "key": "password"}}})  # fmt: skip
        out["Deployment", app] = Obj(deployment(app, env))
        out["Pod", pod_of(app)] = Obj(pod(app))
        out["Service", app] = Obj(service(app))
    out["ConfigMap", "flagd-config"] = Obj(flagd_config())
    out["Secret", "email-service-secret"] = Obj({
        "apiVersion": "v1", "kind": "Secret", "type": "Opaque",
        "metadata": _meta("email-service-secret"), "data": {"password": "czNjcjN0LXNtdHA="}})  # fmt: skip
    for app in ("frontend", "checkout"):
        out["HorizontalPodAutoscaler", app] = Obj({
            "apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
            "metadata": _meta(app),
            "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": app},
                     "minReplicas": 1, "maxReplicas": 4,
                     "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {
                         "type": "Utilization", "averageUtilization": 80}}}]}})  # fmt: skip
    return out


#: the objects as an incident leaves them at an observation time (in place; each write keeps
#: the time it was made)
Mutation = Callable[[dict[tuple[str, str], Obj], datetime], None]


@dataclass(frozen=True)
class Incident:
    name: str
    #: the root cause as ITBench's ground truth names it: namespace/Kind/name
    root_cause: str
    mechanism: str
    mutate: Mutation
    #: app -> what its own server spans do after the fault: "error" or "slow"
    effect: dict[str, str] = field(default_factory=dict)
    #: apps that answer nothing after the fault: their callers' client spans fail, no server span
    unreachable: tuple[str, ...] = ()
    client_error: str = "connection refused"
    #: the service the shop's alert fires on after the fault
    alerting: str = "frontend"
    alert: str = "HighRequestErrorRate"
    #: events.k8s.io/v1 Warning events after the fault: (kind, name, reason, note)
    events: tuple[tuple[str, str, str, str], ...] = ()
    #: a routine image rollout of this app inside the window (a decoy), "" for none
    decoy_rollout: str = "product-catalog"


def _rollout(objs: dict[tuple[str, str], Obj], app: str, at: datetime, t: datetime) -> None:
    if app and t >= at:
        d = objs["Deployment", app]
        d.body["spec"]["template"]["spec"]["containers"][0]["image"] += "-b"
        d.write(at, "argocd-controller")


def _objects_at(incident: Incident, t: datetime) -> list[dict[str, Any]]:
    objs = shop()
    _rollout(objs, incident.decoy_rollout, ROLLOUT, t)
    incident.mutate(objs, t)
    return [o.rendered() for o in objs.values()]


def _write_objects(folder: Path, incident: Incident) -> None:
    lines = ["Timestamp\tBody\tResourceAttributes"]
    for t in OBSERVED:
        for body in _objects_at(incident, t):
            lines.append(f"{_tsv_time(t)}\t{json.dumps(body)}\t{{}}")
    (folder / "k8s_objects_raw.tsv").write_text("\n".join(lines) + "\n")


def _event(kind: str, name: str, reason: str, note: str, at: datetime, n: int) -> dict[str, Any]:
    """An Event in events.k8s.io/v1 shape: ``regarding`` and ``note``, no involvedObject, no uid."""
    return {
        "apiVersion": "events.k8s.io/v1", "kind": "Event",
        "metadata": {"name": f"{name}.{n:x}", "namespace": NS},
        "regarding": {"kind": kind, "name": name, "namespace": NS},
        "reason": reason, "note": note, "type": "Warning" if reason != "Pulled" else "Normal",
        "eventTime": None, "deprecatedLastTimestamp": _stamp(at), "deprecatedCount": 3,
        "reportingController": "kubelet",
    }  # fmt: skip


def _write_events(folder: Path, incident: Incident) -> None:
    rows = [
        # a Warning from long before the window: normal life, not this incident
        (T0 - timedelta(hours=3), _event("Pod", pod_of("email"), "Unhealthy",
                                         "Readiness probe failed: context deadline exceeded",
                                         T0 - timedelta(hours=3), 1)),
        (T0 + timedelta(minutes=1), _event("Pod", pod_of("frontend"), "Pulled",
                                           "Container image already present", T0, 2)),
    ]  # fmt: skip
    for i, (kind, name, reason, note) in enumerate(incident.events):
        at = FAULT + timedelta(seconds=30 + 20 * i)
        rows.append((at, _event(kind, name, reason, note, at, 10 + i)))
    lines = ["Timestamp\tBody"]
    lines += [f"{_tsv_time(t)}\t{json.dumps({'type': 'ADDED', 'object': e})}" for t, e in rows]
    (folder / "k8s_events_raw.tsv").write_text("\n".join(lines) + "\n")


class _Spans:
    def __init__(self, incident: Incident) -> None:
        self.incident, self.rows, self.n = incident, [], 0

    def sid(self) -> str:
        self.n += 1
        return f"{self.n:016x}"

    def serve(self, app: str, parent: str, trace: str, at: datetime, late: bool, k: int):
        """Server span of ``app`` and its calls; returns (failed, ms)."""
        inc = self.incident
        me = self.sid()
        ms = 12.0 * (40 if late and inc.effect.get(app) == "slow" else 1)
        failed = late and inc.effect.get(app) == "error"
        # normal life: cart fails one request in twenty all the time
        failed = failed or (app == "cart" and k % 20 == 7)
        for callee, proto in EDGES.get(app, ()):
            client = self.sid()
            if callee not in TRACED or (late and callee in inc.unreachable):
                c_failed = late and callee in inc.unreachable
                c_ms, msg = (3.0, inc.client_error) if c_failed else (1.0, "")
            else:
                c_failed, c_ms = self.serve(callee, client, trace, at, late, k)
                msg = "upstream failed" if c_failed else ""
            if proto == "grpc":  # a gRPC client names its callee only by its rpc.service
                attrs = {"rpc.system": "grpc", "rpc.service": GRPC[callee],
                         "rpc.method": "Call", "rpc.grpc.status_code": 14 if c_failed else 0}  # fmt: skip
            elif proto == "redis":
                attrs = {"db.system": "redis", "server.address": f"{callee}:6379"}
            else:
                attrs = {"http.request.method": "POST",
                         "url.full": f"http://{callee}.{NS}.svc.cluster.local:8080/api"}  # fmt: skip
            self.add(trace, client, me, f"{callee} call", "Client", app, at, c_ms, c_failed, msg,
                     attrs)  # fmt: skip
            ms += c_ms
            failed = failed or c_failed
        attrs = {"rpc.service": GRPC[app], "rpc.system": "grpc"} if app in GRPC else {}
        self.add(trace, me, parent, f"{app} handle", "Server", app, at, ms, failed,
                 "internal error" if failed else "", attrs)  # fmt: skip
        return failed, ms

    def add(self, trace, span, parent, name, kind, service, at, ms, failed, msg, attrs):
        self.rows.append([
            _tsv_time(at) + "000", trace, span, parent, name, f"SPAN_KIND_{kind.upper()}", service,
            json.dumps({"service.name": service, "k8s.namespace.name": NS}), json.dumps(attrs),
            str(int(ms * 1e6)), "STATUS_CODE_ERROR" if failed else "STATUS_CODE_UNSET", msg,
        ])  # fmt: skip


def _write_traces(folder: Path, incident: Incident) -> None:
    spans = _Spans(incident)
    at, k = T0, 0
    while at < T_END:
        k += 1
        spans.serve("frontend", "", f"{k:032x}", at, at >= FAULT + timedelta(seconds=20), k)
        at += timedelta(seconds=6)
    cols = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind",
            "ServiceName", "ResourceAttributes", "SpanAttributes", "Duration", "StatusCode",
            "StatusMessage"]  # fmt: skip
    lines = ["\t".join(cols)] + ["\t".join(r) for r in spans.rows]
    (folder / "otel_traces_raw.tsv").write_text("\n".join(lines) + "\n")


def _write_logs(folder: Path, incident: Incident) -> None:
    """Log lines without a level (the shop's services log plain text)."""
    lines = ["Timestamp\tTraceId\tSpanId\tSeverityText\tSeverityNumber\tServiceName\tBody\t"
             "ResourceAttributes\tLogAttributes"]  # fmt: skip
    at = T0
    while at < T_END:
        for app in TRACED:
            body = f"{app}: request served"
            if at >= FAULT and (incident.effect.get(app) == "error" or app in incident.unreachable):
                body = f"{app}: {incident.client_error}"
            lines.append(f"{_tsv_time(at)}000\t\t\t\t0\t{app}\t{body}\t{{}}\t{{}}")
        at += timedelta(seconds=30)
    (folder / "otel_logs_raw.tsv").write_text("\n".join(lines) + "\n")


def _write_alerts(folder: Path, incident: Incident) -> None:
    (folder / "alerts").mkdir()
    fired = FAULT + timedelta(minutes=1, seconds=20)
    for minute in range(2, 40, 3):
        now = T0 + timedelta(minutes=minute)
        alerts = [{  # always firing: the shop's ad service has been slow for days
            "labels": {"alertname": "HighRequestLatency", "service_name": "ad", "namespace": NS,
                       "severity": "warning"},
            "state": "firing", "activeAt": _stamp(T0 - timedelta(days=1)), "value": "2.1"}]  # fmt: skip
        if now >= fired:
            alerts.append({
                "labels": {"alertname": incident.alert, "service_name": incident.alerting,
                           "namespace": NS, "severity": "critical"},
                "state": "firing", "activeAt": _stamp(fired), "value": "0.4"})  # fmt: skip
        doc = {"status": "success", "data": {"alerts": alerts}}
        (folder / "alerts" / f"alerts_at_{now:%Y-%m-%dT%H-%M-%S}.json").write_text(json.dumps(doc))


def write(folder: Path, incident: Incident) -> Path:
    folder.mkdir(parents=True)
    _write_objects(folder, incident)
    _write_events(folder, incident)
    _write_traces(folder, incident)
    _write_logs(folder, incident)
    _write_alerts(folder, incident)
    return folder
