"""A small hand-written shop (web -> basket -> store, web -> catalog) and one incident per fault,
written in the shapes other exporters use. Written for these tests only: it shares nothing with
``sre/generator`` (its own names, times, ports, label sets and files) so that what the baseline
and the tools read here is not what our generator writes.

Every case is a :class:`Case` (what differs from the healthy shop); :func:`write` turns a case and
a :class:`Shape` (how each source is encoded) into a snapshot folder.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

NS = "shop"
APPS = ("web", "basket", "catalog", "store")
#: caller -> callees
CALLS = {"web": ("basket", "catalog"), "basket": ("store",)}
START = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
FAULT = START + timedelta(minutes=15)
END = START + timedelta(minutes=30)
RS_HASH = {"web": "6b7c8d9f5", "basket": "5d8f7c9b6", "catalog": "7c9d5f8b4", "store": "84f6b7c5d"}
POD_SUFFIX = {"web": "q2w4e", "basket": "x7k2p", "catalog": "m3n8v", "store": "z5t9r"}


def pod_name(app: str) -> str:
    return f"{app}-{RS_HASH[app]}-{POD_SUFFIX[app]}"


@dataclass(frozen=True)
class Case:
    """What one incident changes in the shop."""

    name: str
    expected: str  # the root cause entity the baseline must name
    #: apps whose server spans vanish after the fault (callers' client spans fail instead)
    unreachable: tuple[str, ...] = ()
    client_error: str = "connection refused"
    #: apps whose own server spans fail after the fault, with this message
    failing: dict[str, str] = field(default_factory=dict)
    #: apps whose server spans slow down this many times after the fault
    slow: dict[str, float] = field(default_factory=dict)
    #: apps with no pod at all
    no_pods: tuple[str, ...] = ()
    #: pod status overrides per app (the latest snapshot)
    pod_status: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Deployment spec overrides per app, before and after the fault (None: same as the shop)
    deployment_before: dict[str, dict[str, Any]] = field(default_factory=dict)
    deployment_after: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Service spec port overrides per app, before and after
    service_before: dict[str, dict[str, Any]] = field(default_factory=dict)
    service_after: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: extra objects in the snapshots before / after the fault
    objects_before: tuple[dict[str, Any], ...] = ()
    objects_after: tuple[dict[str, Any], ...] = ()
    #: Warning events (pod app, reason, message)
    warnings: tuple[tuple[str, str, str], ...] = ()
    #: pods whose CPU is throttled after the fault
    throttled: tuple[str, ...] = ()
    #: alerts (alertname, label key, label value) that fire two minutes after the fault
    alerts: tuple[tuple[str, str, str], ...] = ()
    #: how a caller's client spans name a callee after the fault, when not by its own name (a
    #: wrong address in the caller's environment)
    peer_as: dict[str, str] = field(default_factory=dict)
    #: the nodes the objects hold (none: the export has no Node objects); pods run on the first
    #: unless ``node_of`` says otherwise
    nodes: tuple[str, ...] = ()
    node_of: dict[str, str] = field(default_factory=dict)
    #: Node status/spec overrides after the fault (conditions, taints)
    node_after: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Warning events on nodes (node, reason, message)
    node_warnings: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True)
class Shape:
    """How each source is written."""

    #: tsv | tsv-no-parent | tsv-orphan-roots (roots name a parent never exported) | otlp |
    #: otlp-lines | jaeger
    traces: str = "tsv"
    logs: str = "tsv"  # tsv | jsonl | text | jsonl-gz
    events: str = "tsv"  # tsv | jsonl
    objects: str = "tsv"  # tsv | list-json (one kubectl List, times from managedFields)
    alerts: str = "prometheus"  # prometheus | alertmanager | alertmanager-groups
    metrics: bool = True
    #: objects observed once (at the end) rather than before and after the fault
    single_observation: bool = False
    #: how a client span names its callee: peer.service, server.address (a cluster DNS name),
    #: net.peer.name with a port, or only the URL it calls (url.full)
    peer: str = "peer.service"
    #: whether the objects export holds pods (some exporters keep only workloads and services)
    pods_in_objects: bool = True
    #: the shop's namespace
    namespace: str = "shop"


def _ts(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S.%f") + "000"


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _managed(moment: datetime) -> list[dict[str, Any]]:
    return [
        {
            "manager": "kubectl-client-side-apply",
            "operation": "Update",
            "apiVersion": "apps/v1",
            "time": _iso(moment),
            "fieldsType": "FieldsV1",
            "fieldsV1": {"f:metadata": {"f:labels": {}}},
        }
    ]


def _meta(name: str, moment: datetime, labels: dict[str, str] | None = None) -> dict[str, Any]:
    return {
        "name": name,
        "namespace": NS,
        "uid": f"uid-{name}",
        "resourceVersion": str(int(moment.timestamp())),
        "creationTimestamp": _iso(START - timedelta(days=1)),
        "labels": labels or {},
        "managedFields": _managed(moment),
    }


def _deployment(app: str, moment: datetime, override: dict[str, Any]) -> dict[str, Any]:
    spec = {
        "replicas": 1,
        "selector": {"matchLabels": {"app.kubernetes.io/name": app}},
        "template": {
            "metadata": {"labels": {"app.kubernetes.io/name": app}},
            "spec": {
                "containers": [
                    {
                        "name": app,
                        "image": f"registry.example/shop/{app}:1.4.2",
                        "ports": [{"containerPort": 8080, "name": "http"}],
                        "resources": {"limits": {"cpu": "500m", "memory": "256Mi"}},
                    }
                ]
            },
        },
    }
    spec.update(override)
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": _meta(app, moment, {"app.kubernetes.io/name": app}),
        "spec": spec,
        "status": {"replicas": spec["replicas"], "availableReplicas": spec["replicas"]},
    }


def _service(app: str, moment: datetime, override: dict[str, Any]) -> dict[str, Any]:
    port = {"name": "http", "port": 80, "targetPort": 8080, "protocol": "TCP"}
    port.update(override)
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": _meta(app, moment, {"app.kubernetes.io/name": app}),
        "spec": {"selector": {"app.kubernetes.io/name": app}, "ports": [port]},
    }


def _pod(app: str, moment: datetime, status: dict[str, Any] | None, node: str) -> dict[str, Any]:
    meta = _meta(pod_name(app), moment, {"app.kubernetes.io/name": app})
    meta["ownerReferences"] = [{"kind": "ReplicaSet", "name": f"{app}-{RS_HASH[app]}"}]
    container = {
        "name": app,
        "ready": True,
        "restartCount": 0,
        "image": f"registry.example/shop/{app}:1.4.2",
        "state": {"running": {"startedAt": _iso(START - timedelta(hours=2))}},
    }
    status = dict(status or {})
    pod_status = status.pop("pod", {})  # the pod's own status fields (an eviction)
    container.update(status)
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": meta,
        "spec": {
            "containers": [
                {"name": app, "ports": [{"containerPort": 8080, "name": "http"}]},
            ],
            **({"nodeName": node} if node else {}),
        },
        "status": {"phase": "Running", "containerStatuses": [container], **pod_status},
    }


def _node(name: str, moment: datetime, override: dict[str, Any]) -> dict[str, Any]:
    conditions = [
        {"type": t, "status": "False", "reason": f"KubeletHas{r}"}
        for t, r in (("MemoryPressure", "SufficientMemory"), ("DiskPressure", "NoDiskPressure"),
                     ("PIDPressure", "SufficientPID"))
    ] + [{"type": "Ready", "status": "True", "reason": "KubeletReady"}]  # fmt: skip
    node = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": name,
            "uid": f"uid-{name}",
            "labels": {"kubernetes.io/hostname": name},
            "managedFields": _managed(moment),
        },
        "spec": {"podCIDR": "10.244.1.0/24"},
        "status": {"conditions": conditions, "allocatable": {"memory": "8Gi", "cpu": "4"}},
    }
    for kind, value in override.items():
        if kind == "conditions":
            by_type = {c["type"]: c for c in conditions}
            by_type.update({c["type"]: c for c in value})
            node["status"]["conditions"] = list(by_type.values())
        else:
            node["spec"][kind] = value
    return node


def _objects(case: Case, moment: datetime, after: bool) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for app in APPS:
        dep = (case.deployment_after if after else case.deployment_before).get(app, {})
        out.append(_deployment(app, moment, dep))
        svc = (case.service_after if after else case.service_before).get(app, {})
        out.append(_service(app, moment, svc))
        if app not in case.no_pods:
            node = case.node_of.get(app, case.nodes[0] if case.nodes else "")
            out.append(_pod(app, moment, case.pod_status.get(app) if after else None, node))
    for node in case.nodes:
        out.append(_node(node, moment, case.node_after.get(node, {}) if after else {}))
    for extra in case.objects_after if after else case.objects_before:
        obj = json.loads(json.dumps(extra))
        obj.setdefault("metadata", {}).update({"namespace": NS, "managedFields": _managed(moment)})
        out.append(obj)
    return out


@dataclass
class _Request:
    """One request through the shop: its trace id, span ids, and whether it is after the fault."""

    case: Case
    trace: str
    late: bool
    spans: list[dict[str, Any]]
    counter: int = 0

    def span_id(self) -> str:
        self.counter += 1
        return f"{self.trace[-8:]}{self.counter:08x}"

    def serve(self, app: str, parent: str, at: datetime) -> tuple[bool, float]:
        """The server span of ``app`` and what it calls; (failed, duration ms)."""
        case, late = self.case, self.late
        me = self.span_id()
        duration = 20.0 * (case.slow.get(app, 1.0) if late else 1.0)
        failed = late and app in case.failing
        message = case.failing.get(app, "") if failed else ""
        for callee in CALLS.get(app, ()):
            client = self.span_id()
            if late and (callee in case.unreachable or callee in case.no_pods):
                c_failed, c_ms, c_msg = True, 3.0, case.client_error
            else:
                c_failed, c_ms = self.serve(callee, client, at)
                c_msg = "upstream error" if c_failed else ""
            peer = case.peer_as.get(callee, callee) if late else callee
            self.spans.append(_span(self.trace, client, me, f"{callee}/call", "Client", app, at,
                                    c_ms + 1, c_failed, c_msg, peer=peer))  # fmt: skip
            duration += c_ms
            if c_failed:
                failed, message = True, message or f"call to {callee} failed"
        self.spans.append(_span(self.trace, me, parent, f"{app}/handle", "Server", app, at,
                                duration, failed, message))  # fmt: skip
        return failed, duration


def _spans(case: Case) -> list[dict[str, Any]]:
    """One request every 10 s: web's server span and a client span per call, each callee's
    server span under it."""
    spans: list[dict[str, Any]] = []
    moment, n = START, 0
    while moment < END:
        n += 1
        _Request(case, f"{n:032x}", moment >= FAULT, spans).serve("web", "", moment)
        moment += timedelta(seconds=10)
    spans.sort(key=lambda s: (s["start"], s["SpanId"]))
    return spans


def _span(trace, span, parent, name, kind, service, at, ms, failed, message, peer=None):
    attributes = {"peer.service": peer} if peer else {"http.route": f"/{service}"}
    return {
        "TraceId": trace,
        "SpanId": span,
        "ParentSpanId": parent,
        "SpanName": name,
        "SpanKind": kind,
        "ServiceName": service,
        "start": at,
        "ms": ms,
        "failed": failed,
        "StatusMessage": message,
        "SpanAttributes": attributes,
    }


def _write_traces(folder: Path, spans: list[dict[str, Any]], how: str) -> None:
    if how in ("tsv", "tsv-no-parent", "tsv-orphan-roots"):
        cols = ["Timestamp", "TraceId", "SpanId"] + (
            ["ParentSpanId"] if how != "tsv-no-parent" else []
        )
        cols += ["SpanName", "SpanKind", "ServiceName", "ResourceAttributes", "SpanAttributes",
                 "Duration", "StatusCode", "StatusMessage"]  # fmt: skip
        lines = ["\t".join(cols)]
        for s in spans:
            row = {
                **s,
                "Timestamp": _ts(s["start"]),
                "SpanKind": f"SPAN_KIND_{s['SpanKind'].upper()}",
                "ResourceAttributes": json.dumps({"service.name": s["ServiceName"]}),
                "SpanAttributes": json.dumps(s["SpanAttributes"]),
                "Duration": str(int(s["ms"] * 1e6)),
                "StatusCode": "STATUS_CODE_ERROR" if s["failed"] else "STATUS_CODE_UNSET",
            }
            if how == "tsv-orphan-roots" and not s["ParentSpanId"]:
                row["ParentSpanId"] = "00f067aa0ba902b7"  # the load generator's, not exported
            lines.append("\t".join(str(row[c]) for c in cols))
        (folder / "otel_traces_raw.tsv").write_text("\n".join(lines) + "\n")
        return
    if how in ("otlp", "otlp-lines"):
        docs = []
        by_service: dict[str, list[dict[str, Any]]] = {}
        for s in spans:
            start = int(s["start"].timestamp() * 1e9)
            by_service.setdefault(s["ServiceName"], []).append(
                {
                    "traceId": s["TraceId"],
                    "spanId": s["SpanId"],
                    "parentSpanId": s["ParentSpanId"],
                    "name": s["SpanName"],
                    "kind": 3 if s["SpanKind"] == "Client" else 2,
                    "startTimeUnixNano": str(start),
                    "endTimeUnixNano": str(start + int(s["ms"] * 1e6)),
                    "attributes": [
                        {"key": k, "value": {"stringValue": v}}
                        for k, v in s["SpanAttributes"].items()
                    ],
                    "status": {"code": 2, "message": s["StatusMessage"]} if s["failed"] else {},
                }
            )
        for service, items in by_service.items():
            docs.append(
                {
                    "resourceSpans": [
                        {
                            "resource": {
                                "attributes": [
                                    {"key": "service.name", "value": {"stringValue": service}},
                                    {"key": "k8s.namespace.name", "value": {"stringValue": NS}},
                                ]
                            },
                            "scopeSpans": [{"scope": {"name": "shop"}, "spans": items}],
                        }
                    ]
                }
            )
        if how == "otlp":
            merged = {"resourceSpans": [r for d in docs for r in d["resourceSpans"]]}
            (folder / "traces.otlp.json").write_text(json.dumps(merged, indent=1))
        else:
            (folder / "traces.jsonl").write_text("\n".join(json.dumps(d) for d in docs) + "\n")
        return
    if how == "jaeger":
        traces: dict[str, list[dict[str, Any]]] = {}
        processes = {f"p{i}": {"serviceName": a, "tags": []} for i, a in enumerate(APPS)}
        pid = {a: f"p{i}" for i, a in enumerate(APPS)}
        for s in spans:
            tags = [
                {"key": k, "type": "string", "value": v} for k, v in s["SpanAttributes"].items()
            ]
            tags.append({"key": "span.kind", "type": "string", "value": s["SpanKind"].lower()})
            if s["failed"]:
                tags.append({"key": "error", "type": "bool", "value": True})
                tags.append({"key": "otel.status_description", "type": "string",
                             "value": s["StatusMessage"]})  # fmt: skip
            refs = (
                [{"refType": "CHILD_OF", "traceID": s["TraceId"], "spanID": s["ParentSpanId"]}]
                if s["ParentSpanId"]
                else []
            )
            traces.setdefault(s["TraceId"], []).append(
                {
                    "traceID": s["TraceId"],
                    "spanID": s["SpanId"],
                    "operationName": s["SpanName"],
                    "references": refs,
                    "startTime": int(s["start"].timestamp() * 1e6),
                    "duration": int(s["ms"] * 1000),
                    "tags": tags,
                    "processID": pid[s["ServiceName"]],
                }
            )
        doc = {
            "data": [
                {"traceID": t, "spans": items, "processes": processes}
                for t, items in traces.items()
            ]
        }
        (folder / "jaeger_traces.json").write_text(json.dumps(doc))
        return
    raise ValueError(how)


def _log_records(case: Case) -> list[dict[str, Any]]:
    out = []
    moment = START
    while moment < END:
        late = moment >= FAULT
        for app in APPS:
            if late and app in case.no_pods:
                continue
            level, message = "INFO", f"handled request on {app} in 20ms"
            if late and app in case.failing:
                level, message = "ERROR", case.failing[app]
            for callee in CALLS.get(app, ()):
                if late and (callee in case.unreachable or callee in case.no_pods):
                    level, message = "ERROR", f"call to {callee}: {case.client_error}"
            out.append({"time": moment, "level": level, "service": app, "message": message})
        moment += timedelta(seconds=30)
    return out


def _write_logs(folder: Path, records: list[dict[str, Any]], how: str) -> None:
    if how == "tsv":
        lines = ["Timestamp\tTraceId\tSpanId\tSeverityText\tSeverityNumber\tServiceName\tBody\t"
                 "ResourceAttributes\tLogAttributes"]  # fmt: skip
        for r in records:
            res = json.dumps({"k8s.pod.name": pod_name(r["service"]), "k8s.namespace.name": NS})
            lines.append(f"{_ts(r['time'])}\t\t\t{r['level']}\t9\t{r['service']}\t{r['message']}"
                         f"\t{res}\t{{}}")  # fmt: skip
        (folder / "otel_logs_raw.tsv").write_text("\n".join(lines) + "\n")
    elif how in ("jsonl", "jsonl-gz"):
        text = "\n".join(
            json.dumps({"ts": r["time"].isoformat(), "level": r["level"].lower(),
                        "msg": r["message"], "service.name": r["service"],
                        "kubernetes": {"pod_name": pod_name(r["service"]), "namespace_name": NS}})
            for r in records
        ) + "\n"  # fmt: skip
        if how == "jsonl":
            (folder / "logs.jsonl").write_text(text)
        else:
            (folder / "app_logs.jsonl.gz").write_bytes(gzip.compress(text.encode()))
    elif how == "text":
        text = "\n".join(
            f"{r['time']:%Y-%m-%dT%H:%M:%S.%fZ} {r['level']} [{r['service']}] {r['message']}"
            for r in records
        )
        (folder / "app_logs.txt").write_text(text + "\n")
    else:
        raise ValueError(how)


def _events(case: Case) -> list[dict[str, Any]]:
    out = []
    for app in APPS:
        if app in case.no_pods:
            continue
        out.append(
            {"kind": "Event", "apiVersion": "v1",
             "metadata": {"name": f"{pod_name(app)}.1", "namespace": NS},
             # no uid in involvedObject: some exporters drop it
             "involvedObject": {"kind": "Pod", "name": pod_name(app), "namespace": NS},
             "reason": "Started", "message": f"Started container {app}", "type": "Normal",
             "count": 1, "lastTimestamp": _iso(START + timedelta(minutes=1)),
             "source": {"component": "kubelet"}}
        )  # fmt: skip
    for i, (node, reason, message) in enumerate(case.node_warnings):
        out.append(
            # the kubelet records node events in the default namespace, the node has none
            {"kind": "Event", "apiVersion": "v1",
             "metadata": {"name": f"{node}.n{i}", "namespace": "default"},
             "involvedObject": {"kind": "Node", "name": node, "uid": node},
             "reason": reason, "message": message, "type": "Warning", "count": 3,
             "firstTimestamp": _iso(FAULT + timedelta(seconds=10)),
             "lastTimestamp": _iso(FAULT + timedelta(minutes=4)),
             "source": {"component": "kubelet", "host": node}}
        )  # fmt: skip
    for i, (app, reason, message) in enumerate(case.warnings):
        out.append(
            {"kind": "Event", "apiVersion": "v1",
             "metadata": {"name": f"{pod_name(app)}.w{i}", "namespace": NS},
             "involvedObject": {"kind": "Pod", "name": pod_name(app), "namespace": NS},
             "reason": reason, "message": message, "type": "Warning", "count": 5,
             "firstTimestamp": _iso(FAULT + timedelta(seconds=20)),
             "lastTimestamp": _iso(FAULT + timedelta(minutes=5)),
             "source": {"component": "kubelet"}}
        )  # fmt: skip
    return out


def _write_events(folder: Path, events: list[dict[str, Any]], how: str) -> None:
    if how == "tsv":
        lines = ["Timestamp\tBody"]
        for e in events:
            lines.append(
                f"{e['lastTimestamp'].replace('T', ' ').rstrip('Z')}.000000000\t"
                + json.dumps({"object": e, "type": "ADDED"})
            )
        (folder / "k8s_events_raw.tsv").write_text("\n".join(lines) + "\n")
    elif how == "jsonl":
        (folder / "k8s_events.jsonl").write_text("\n".join(json.dumps(e) for e in events) + "\n")
    else:
        raise ValueError(how)


def _write_objects(folder: Path, case: Case, shape: Shape) -> None:
    times = [END - timedelta(minutes=1)] if shape.single_observation else [
        START + timedelta(minutes=5), FAULT + timedelta(minutes=5)]  # fmt: skip
    rows = []
    for moment in times:
        for obj in _objects(case, moment, after=moment > FAULT):
            if shape.pods_in_objects or obj["kind"] != "Pod":
                rows.append((moment, obj))
    if shape.objects == "tsv":
        lines = ["Timestamp\tBody"] + [f"{_ts(t)}\t{json.dumps(o)}" for t, o in rows]
        (folder / "k8s_objects_raw.tsv").write_text("\n".join(lines) + "\n")
    elif shape.objects == "list-json":
        last = [o for t, o in rows if t == times[-1]]
        doc = {"apiVersion": "v1", "kind": "List", "items": last}
        (folder / "k8s_objects.json").write_text(json.dumps(doc, indent=1))
    else:
        raise ValueError(shape.objects)


def _write_alerts(folder: Path, case: Case, how: str) -> None:
    alerts_dir = folder / "alerts"
    alerts_dir.mkdir()
    fired = FAULT + timedelta(minutes=2)
    for minute in (5, 20, 28):
        observed = START + timedelta(minutes=minute)
        active = [a for a in case.alerts if observed >= fired]
        name = f"alerts_at_{observed:%Y-%m-%dT%H-%M-%S}.000000.json"
        if how == "prometheus":
            items = [
                {"labels": {"alertname": n, key: value, "namespace": NS, "severity": "warning"},
                 "annotations": {"summary": f"{n} on {value}"}, "state": "firing",
                 "activeAt": _iso(fired), "value": "1e+00"}
                for n, key, value in active
            ]  # fmt: skip
            doc: Any = {"status": "success", "data": {"alerts": items}}
        else:
            items = [
                {"labels": {"alertname": n, key: value, "namespace": NS, "severity": "critical",
                            "prometheus": "monitoring/k8s"},
                 "annotations": {"description": f"{n} for {value}"},
                 "startsAt": _iso(fired), "endsAt": _iso(observed + timedelta(minutes=4)),
                 "status": {"state": "active", "silencedBy": [], "inhibitedBy": []},
                 "receivers": [{"name": "default"}], "fingerprint": f"{abs(hash(n)) % 10**8:08d}"}
                for n, key, value in active
            ]  # fmt: skip
            doc = items if how == "alertmanager" else [
                {"labels": {"namespace": NS}, "receiver": {"name": "default"}, "alerts": items}]  # fmt: skip
        (alerts_dir / name).write_text(json.dumps(doc))


def _write_metrics(folder: Path, case: Case) -> None:
    metrics = folder / "metrics"
    metrics.mkdir()
    for app in APPS:
        if app in case.no_pods:
            continue
        pod = pod_name(app)
        lines = ["metric_name\ttimestamp\tvalue\ttags"]
        moment, periods, throttled = START, 0.0, 0.0
        while moment < END:
            late = moment >= FAULT
            periods += 600  # 100 ms periods over a minute
            throttled += 420 if late and app in case.throttled else 6
            tags = json.dumps({"pod": pod, "namespace": NS, "container": app})
            at = moment.strftime("%Y-%m-%d %H:%M:%S")
            lines.append(f"container_cpu_cfs_periods_total\t{at}\t{periods}\t{tags}")
            lines.append(f"container_cpu_cfs_throttled_periods_total\t{at}\t{throttled}\t{tags}")
            lines.append(f"container_memory_working_set_bytes\t{at}\t{120e6}\t{tags}")
            moment += timedelta(minutes=1)
        (metrics / f"pod_{pod}.tsv").write_text("\n".join(lines) + "\n")


def write(folder: Path, case: Case, shape: Shape = Shape()) -> Path:
    """The incident ``case`` as a snapshot folder in ``shape``; returns the folder."""
    global NS
    # every writer below reads the module's namespace: set for this write only
    saved, NS = NS, shape.namespace
    try:
        return _write(folder, case, shape)
    finally:
        NS = saved


def expected(case: Case, shape: Shape = Shape()) -> str:
    """The root cause entity of ``case`` written in ``shape`` (its namespace)."""
    if case.expected.startswith("shop/"):
        return f"{shape.namespace}/{case.expected.removeprefix('shop/')}"
    return case.expected


def _write(folder: Path, case: Case, shape: Shape) -> Path:
    folder.mkdir(parents=True)
    spans = _spans(case)
    for span in spans:
        callee = span["SpanAttributes"].pop("peer.service", None)
        if callee is not None:
            span["SpanAttributes"][shape.peer] = {
                "peer.service": callee,
                "server.address": f"{callee}.{NS}.svc.cluster.local",
                "net.peer.name": f"{callee}:8080",
                "url.full": f"http://{callee}:8080/api/{callee}?v=1",
            }[shape.peer]
    _write_traces(folder, spans, shape.traces)
    _write_logs(folder, _log_records(case), shape.logs)
    _write_events(folder, _events(case), shape.events)
    _write_objects(folder, case, shape)
    _write_alerts(folder, case, shape.alerts)
    if shape.metrics:
        _write_metrics(folder, case)
    return folder


def _policy(name: str, app: str) -> dict[str, Any]:
    return {
        "apiVersion": "networking.k8s.io/v1",
        "kind": "NetworkPolicy",
        "metadata": {"name": name},
        "spec": {
            "podSelector": {"matchLabels": {"app.kubernetes.io/name": app}},
            "policyTypes": ["Ingress"],
        },
    }


def _image(app: str, tag: str) -> dict[str, Any]:
    """A Deployment spec override whose template runs ``tag`` (observed in every snapshot: the
    edit happened before the export began)."""
    spec = _deployment(app, START, {})["spec"]
    spec["template"]["spec"]["containers"][0]["image"] = f"registry.example/shop/{app}:{tag}"
    return {"template": spec["template"]}


def _flags(on: bool) -> dict[str, Any]:
    flags = {
        "flags": {
            "basketStoreOutage": {
                "state": "ENABLED",
                "variants": {"on": True, "off": False},
                "defaultVariant": "on" if on else "off",
            },
            "catalogBanner": {"state": "ENABLED", "variants": {"a": "a"}, "defaultVariant": "a"},
        }
    }
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "shop-flags"},
            "data": {"flags.json": json.dumps(flags, indent=2)}}  # fmt: skip


def _guard(
    name: str, app: str, direction: str, rules: list[dict[str, Any]], selector: dict[str, Any]
) -> dict[str, Any]:
    """A NetworkPolicy on ``app``'s pods (``selector``) with ``rules`` in one direction."""
    return {
        "apiVersion": "networking.k8s.io/v1",
        "kind": "NetworkPolicy",
        "metadata": {"name": name, "labels": {"team": "platform"}},
        "spec": {"podSelector": selector, "policyTypes": [direction], direction.lower(): rules},
    }


def _env(app: str, value: str, var: str = "STORE_ADDR") -> dict[str, Any]:
    """A Deployment spec override whose container has ``var=value`` in its environment."""
    spec = _deployment(app, START, {})["spec"]
    spec["template"]["spec"]["containers"][0]["env"] = [
        {"name": "OTEL_SERVICE_NAME", "value": app},
        {
            "name": "OTEL_EXPORTER_OTLP_ENDPOINT",
            "value": "http://otel-collector.observability:4317",
        },
        {"name": "LISTEN_PORT", "value": "8080"},
        {"name": var, "value": value},
    ]
    return {"template": spec["template"]}


_EVICTED = (
    "The node was low on resource: memory. Threshold quantity: 100Mi, available: 52Mi. "
    "Container store was using 310Mi, request is 0, has larger consumption of memory."
)
_MEMORY_PRESSURE = {
    "conditions": [
        {"type": "MemoryPressure", "status": "True", "reason": "KubeletHasInsufficientMemory"}
    ],
    "taints": [{"key": "node.kubernetes.io/memory-pressure", "effect": "NoSchedule"}],
}
_EVICTED_STORE = {
    "store": {
        "ready": False,
        "state": {"terminated": {"reason": "ContainerStatusUnknown", "exitCode": 137}},
        "pod": {"phase": "Failed", "reason": "Evicted", "message": _EVICTED},
    }
}

#: One incident per fault whose evidence differs from our generator's.
CASES = {
    c.name: c
    for c in (
        Case(
            "cpu-throttling",
            "shop/Deployment/catalog",
            slow={"catalog": 6.0},
            throttled=("catalog",),
            alerts=(("HighLatency", "service", "web"),),
        ),
        Case(
            "network-policy",
            "shop/NetworkPolicy/basket-lockdown",
            unreachable=("basket",),
            client_error="dial tcp 10.1.2.3:80: i/o timeout",
            objects_after=(_policy("basket-lockdown", "basket"),),
            alerts=(("HighErrorRate", "service", "web"),),
        ),
        Case(
            "flag-flip",
            "shop/ConfigMap/shop-flags",
            failing={"basket": "feature flag basketStoreOutage: store unavailable"},
            objects_before=(_flags(False),),
            objects_after=(_flags(True),),
            alerts=(("HighErrorRate", "service", "web"), ("HighErrorRate", "service", "basket")),
        ),
        Case(
            "target-port",
            "shop/Service/basket",
            unreachable=("basket",),
            service_after={"basket": {"targetPort": 9090}},
            alerts=(("HighErrorRate", "service", "web"),),
        ),
        Case(
            "bad-image",
            "shop/Deployment/basket",
            unreachable=("basket",),
            client_error="no healthy upstream",
            deployment_before={"basket": _image("basket", "1.4.3-typo")},
            deployment_after={"basket": _image("basket", "1.4.3-typo")},
            pod_status={
                "basket": {
                    "ready": False,
                    "image": "registry.example/shop/basket:1.4.3-typo",
                    "state": {
                        "waiting": {
                            "reason": "ImagePullBackOff",
                            "message": "Back-off pulling image",
                        }
                    },
                }
            },  # fmt: skip
            warnings=(
                ("basket", "Failed", "Failed to pull image: not found"),
                ("basket", "BackOff", "Back-off pulling image"),
            ),
            alerts=(
                ("HighErrorRate", "service", "web"),
                ("KubePodNotReady", "pod", pod_name("basket")),
            ),
        ),
        Case(
            "oom-last-state",
            "shop/Deployment/store",
            failing={"store": "connection reset by peer"},
            pod_status={
                "store": {
                    "restartCount": 4,
                    "lastState": {
                        "terminated": {
                            "reason": "OOMKilled",
                            "exitCode": 137,
                            "finishedAt": _iso(FAULT + timedelta(minutes=3)),
                        }
                    },
                }
            },  # fmt: skip
            alerts=(("HighErrorRate", "service", "basket"),),
        ),
        Case(
            "scaled-to-zero",
            "shop/Deployment/catalog",
            no_pods=("catalog",),
            client_error="no endpoints available for service catalog",
            deployment_after={"catalog": {"replicas": 0}},
            deployment_before={"catalog": {"replicas": 0}},
            alerts=(("HighErrorRate", "service", "web"),),
        ),
        # NetworkPolicies seen only in the callers' failing client spans: no server span of the
        # callee, no event, pods Ready
        Case(
            "network-policy-allow-list",
            "shop/NetworkPolicy/basket-admins-only",
            unreachable=("basket",),
            client_error="context deadline exceeded",
            objects_after=(
                _guard(
                    "basket-admins-only",
                    "basket",
                    "Ingress",
                    [{"from": [{"podSelector": {"matchLabels": {"role": "admin"}}}]}],
                    {
                        "matchExpressions": [
                            {
                                "key": "app.kubernetes.io/name",
                                "operator": "In",
                                "values": ["basket"],
                            }
                        ]
                    },
                ),
            ),  # fmt: skip
            alerts=(("HighErrorRate", "service", "web"),),
        ),
        Case(
            "network-policy-other-port",
            "shop/NetworkPolicy/basket-metrics-port",
            unreachable=("basket",),
            client_error="dial tcp 10.96.14.2:80: i/o timeout",
            objects_after=(
                _guard(
                    "basket-metrics-port",
                    "basket",
                    "Ingress",
                    [{"ports": [{"port": 9464}]}],
                    {"matchLabels": {"app.kubernetes.io/name": "basket"}},
                ),
            ),  # fmt: skip
            alerts=(("HighErrorRate", "service", "web"),),
        ),
        Case(
            "network-policy-other-namespace",
            "shop/NetworkPolicy/catalog-from-monitoring",
            unreachable=("catalog",),
            client_error="upstream connect error or disconnect/reset before headers",
            objects_after=(
                _guard(
                    "catalog-from-monitoring",
                    "catalog",
                    "Ingress",
                    [
                        {
                            "from": [
                                {
                                    "namespaceSelector": {
                                        "matchLabels": {"kubernetes.io/metadata.name": "monitoring"}
                                    }
                                }
                            ]
                        }
                    ],
                    {"matchLabels": {"app.kubernetes.io/name": "catalog"}},
                ),
            ),  # fmt: skip
            alerts=(("HighErrorRate", "service", "web"),),
        ),
        Case(
            "network-policy-egress",
            "shop/NetworkPolicy/web-dns-only",
            unreachable=("basket", "catalog"),
            client_error="dial tcp: i/o timeout",
            objects_after=(
                _guard(
                    "web-dns-only",
                    "web",
                    "Egress",
                    [{"ports": [{"port": 53, "protocol": "UDP"}, {"port": 53}]}],
                    {"matchLabels": {"app.kubernetes.io/name": "web"}},
                ),
            ),  # fmt: skip
            alerts=(("HighErrorRate", "service", "web"),),
        ),
        # a wrong address in a workload's environment: the fault is the workload's spec, not
        # the service it cannot reach
        Case(
            "env-wrong-port",
            "shop/Deployment/basket",
            unreachable=("store",),
            client_error="dial tcp 10.96.3.7:9999: connect: connection refused",
            deployment_before={"basket": _env("basket", "store:80")},
            deployment_after={"basket": _env("basket", "store:9999")},
            alerts=(("HighErrorRate", "service", "web"), ("HighErrorRate", "service", "basket")),
        ),
        Case(
            "env-wrong-host",
            "shop/Deployment/basket",
            unreachable=("store",),
            client_error="dial tcp: lookup stroe on 10.96.0.10:53: no such host",
            peer_as={"store": "stroe"},
            deployment_before={"basket": _env("basket", "http://store:80/api")},
            deployment_after={"basket": _env("basket", "http://stroe:80/api")},
            alerts=(("HighErrorRate", "service", "basket"),),
        ),
        Case(
            "env-empty",
            "shop/Deployment/basket",
            unreachable=("store",),
            client_error="invalid address: missing host",
            failing={"basket": "store address not configured: STORE_ADDR is empty"},
            deployment_before={"basket": _env("basket", "store:80")},
            deployment_after={"basket": _env("basket", "")},
            alerts=(("HighErrorRate", "service", "web"),),
        ),
        # memory pressure on one node: the kubelet evicts store's pod
        Case(
            "node-memory-pressure",
            "Node/shop-node-2",
            unreachable=("store",),
            client_error="no healthy upstream",
            nodes=("shop-node-1", "shop-node-2"),
            node_of={"store": "shop-node-2"},
            node_after={"shop-node-2": _MEMORY_PRESSURE},
            pod_status=_EVICTED_STORE,
            warnings=(("store", "Evicted", _EVICTED),),
            node_warnings=(
                ("shop-node-2", "EvictionThresholdMet", "Attempting to reclaim memory"),
            ),
            alerts=(("HighErrorRate", "service", "basket"),),
        ),
        Case(
            "node-memory-pressure-events-only",
            "Node/shop-node-2",
            unreachable=("store",),
            client_error="connection refused",
            pod_status=_EVICTED_STORE,
            warnings=(("store", "Evicted", _EVICTED),),
            node_warnings=(
                ("shop-node-2", "EvictionThresholdMet", "Attempting to reclaim memory"),
            ),
            alerts=(("HighErrorRate", "service", "basket"),),
        ),
    )
}
