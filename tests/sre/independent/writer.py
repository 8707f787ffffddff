"""An independent ITBench-Lite v0.2 snapshot writer (issue 28, item 2).

Written from the public formats document (itbench-formats.md section 3) and the real ITBench
ground truths only; it shares no code with the project's generator and was written without
reading it, so the project's tools and baseline can be measured on evidence they were not tuned
on.  Each fault deliberately leaves different evidence from the obvious one (no Warning event for
throttling, only client spans for a NetworkPolicy, a ConfigMap change with no pod change...).

    python -m tests.sre.independent.writer --out DIR --seed N
"""

from __future__ import annotations

import argparse
import csv
import json
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml

NS = "otel-demo"
T0 = datetime(2025, 3, 14, 9, 0, 0, tzinfo=UTC)
# Callers of each service in the OpenTelemetry demo (the subset the incidents use).
CALLS = {
    "frontend-proxy": ["frontend"],
    "frontend": ["product-catalog", "cart", "checkout", "ad", "recommendation", "currency"],
    "checkout": ["payment", "cart", "product-catalog", "currency", "shipping", "email"],
    "cart": ["valkey-cart"],
    "recommendation": ["product-catalog"],
}


@dataclass(frozen=True)
class FaultSpec:
    """One incident: the faulty entity, the service that shows the symptom, and how."""

    fault: str
    kind: str  # kind of the root-cause object
    name: str  # name of the root-cause object
    service: str  # app service whose behaviour the fault breaks
    symptom_service: str  # the caller where the alert fires
    mechanism: str
    condition: str
    effect: str
    variant: int = 0
    extra: dict = field(default_factory=dict)


FAULTS: list[FaultSpec] = [
    FaultSpec(
        "cpu-throttling",
        "Deployment",
        "product-catalog",
        "product-catalog",
        "frontend",
        "custom",
        "CPU limit too low: container CFS-throttled",
        "Latency",
    ),
    FaultSpec(
        "networkpolicy-block",
        "NetworkPolicy",
        "deny-ingress-payment",
        "payment",
        "checkout",
        "custom",
        "NetworkPolicy denies ingress to payment",
        "Error",
    ),
    FaultSpec(
        "flagd-flag",
        "ConfigMap",
        "flagd-config",
        "product-catalog",
        "frontend",
        "custom",
        "feature flag productCatalogFailure turned on",
        "Error",
    ),
    FaultSpec(
        "service-targetport",
        "Service",
        "cart",
        "cart",
        "frontend",
        "custom",
        "Service targetPort points to a closed port",
        "Error",
    ),
    FaultSpec(
        "bad-image",
        "Deployment",
        "ad",
        "ad",
        "frontend",
        "custom",
        "Deployment rolled out an image that does not exist",
        "Unavailable",
    ),
    FaultSpec(
        "oom-memory-limit",
        "Deployment",
        "recommendation",
        "recommendation",
        "frontend",
        "custom",
        "memory limit lowered; container OOMKilled",
        "Error",
    ),
    FaultSpec(
        "scaled-to-zero",
        "Deployment",
        "currency",
        "currency",
        "frontend",
        "custom",
        "Deployment scaled to zero replicas",
        "Unavailable",
    ),
    FaultSpec(
        "chaos-network-delay",
        "NetworkChaos",
        "shipping-delay",
        "shipping",
        "checkout",
        "chaos-mesh",
        "NetworkChaos adds 2s delay to shipping",
        "Latency",
    ),
    FaultSpec(
        "wrong-env-var",
        "Deployment",
        "email",
        "email",
        "checkout",
        "custom",
        "EMAIL port env var set to a wrong value",
        "Error",
    ),
    FaultSpec(
        "valkey-password",
        "Deployment",
        "valkey-cart",
        "valkey-cart",
        "cart",
        "custom",
        "valkey password changed; cart cannot authenticate",
        "Error",
    ),
]


def _ts(t: datetime, form: int) -> str:
    """Timestamps in the forms real exporters write (ClickHouse, RFC 3339 with Z, nanoseconds)."""
    if form == 0:
        return t.strftime("%Y-%m-%d %H:%M:%S.%f")
    if form == 1:
        return t.strftime("%Y-%m-%dT%H:%M:%SZ")
    return t.strftime("%Y-%m-%dT%H:%M:%S.%f") + "000Z"


def _tsv(path: Path, header: list[str], rows: list[list]) -> None:
    with path.open("w", newline="") as f:
        w = csv.writer(f, delimiter="\t", quoting=csv.QUOTE_MINIMAL, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def _alerts(spec: FaultSpec, rng: random.Random, out: Path, t: datetime) -> list[dict]:
    alertname = {
        "Latency": "HighLatency",
        "Error": "HighRequestErrorRate",
        "Unavailable": "HighRequestErrorRate",
    }[spec.effect]
    labels = {
        "alertname": alertname,
        "severity": rng.choice(["warning", "critical"]),
        "namespace": NS,
    }
    # Vary the label carrying the entity: service_name (otel-demo rules) or service (kube rules).
    labels["service_name" if spec.variant % 2 == 0 else "service"] = spec.symptom_service
    alert = {
        "labels": labels,
        "annotations": {"description": f"{alertname} on {spec.symptom_service}"},
        "state": "firing",
        "value": f"{rng.uniform(0.2, 0.9):.3f}",
    }
    if spec.variant % 2 == 0:  # Prometheus /api/v1/alerts
        alert["activeAt"] = _ts(t - timedelta(minutes=4), 2)
        doc = {"status": "success", "data": {"alerts": [alert]}}
    else:  # Alertmanager /api/v2/alerts
        alert["startsAt"] = _ts(t - timedelta(minutes=4), 1)
        alert["status"] = {"state": "active", "silencedBy": [], "inhibitedBy": []}
        doc = [alert]
    d = out / "alerts"
    d.mkdir()
    (d / f"alerts_at_{t.strftime('%Y-%m-%dT%H-%M-%S.%f')}.json").write_text(json.dumps(doc))
    return [{"group_id": f"{spec.symptom_service}-service-1", "id": alertname}]


def _objects(spec: FaultSpec, rng: random.Random, out: Path, t_fault: datetime) -> None:
    rows = []

    def meta(kind: str, name: str, rv: int, **extra) -> dict:
        m = {
            "name": name,
            "namespace": NS,
            "uid": f"{rng.getrandbits(64):016x}",
            "resourceVersion": str(rv),
            "creationTimestamp": _ts(T0 - timedelta(days=2), 1),
            "managedFields": [
                {
                    "manager": "kubectl-client-side-apply",
                    "operation": "Update",
                    "apiVersion": "apps/v1" if kind == "Deployment" else "v1",
                    "time": _ts(T0 - timedelta(days=2), 1),
                    "fieldsType": "FieldsV1",
                    "fieldsV1": {"f:metadata": {"f:labels": {}}},
                }
            ],
        }
        m.update(extra)
        return m

    def deploy(svc: str, replicas=1, image_tag="2.0.2", mem="200Mi", cpu="500m", env=None) -> dict:
        env = env or [{"name": "OTEL_SERVICE_NAME", "value": svc}]
        return {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": meta("Deployment", svc, 1000, labels={"app.kubernetes.io/name": svc}),
            "spec": {
                "replicas": replicas,
                "selector": {"matchLabels": {"app.kubernetes.io/name": svc}},
                "template": {
                    "metadata": {"labels": {"app.kubernetes.io/name": svc}},
                    "spec": {
                        "containers": [
                            {
                                "name": svc,
                                "image": f"ghcr.io/open-telemetry/demo:{image_tag}-{svc}",
                                "env": env,
                                "resources": {"limits": {"memory": mem, "cpu": cpu}},
                            }
                        ]
                    },
                },
            },
            "status": {"replicas": replicas, "readyReplicas": replicas},
        }

    def service(svc: str, target=8080) -> dict:
        return {
            "apiVersion": "v1",
            "kind": "Service",
            "metadata": meta("Service", svc, 900, labels={"app.kubernetes.io/name": svc}),
            "spec": {
                "selector": {"app.kubernetes.io/name": svc},
                "ports": [{"port": 8080, "targetPort": target, "protocol": "TCP"}],
            },
        }

    def pod(svc: str, phase="Running", ready=True, reason=None, name=None) -> dict:
        st = {"phase": phase, "conditions": [{"type": "Ready", "status": str(ready)}]}
        if reason:
            st["containerStatuses"] = [
                {
                    "name": svc,
                    "ready": False,
                    "restartCount": 3,
                    "state": {"waiting": {"reason": reason}},
                }
            ]
        return {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": meta(
                "Pod",
                name or f"{svc}-5f7c9d8b4-q2zt",
                1100,
                labels={"app.kubernetes.io/name": svc},
            ),
            "spec": {"containers": [{"name": svc}]},
            "status": st,
        }

    services = sorted({s for k, v in CALLS.items() for s in [k, *v]})
    flags = {
        "productCatalogFailure": {
            "state": "ENABLED",
            "variants": {"on": True, "off": False},
            "defaultVariant": "off",
        }
    }
    before: list[dict] = [deploy(s) for s in services] + [service(s) for s in services]
    before += [pod(s) for s in services]
    before.append(
        {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": meta("ConfigMap", "flagd-config", 500),
            "data": {"demo.flagd.json": json.dumps({"flags": flags})},
        }
    )
    after = json.loads(json.dumps(before))

    def find(objs, kind, name):
        return next(o for o in objs if o["kind"] == kind and o["metadata"]["name"] == name)

    f, s = spec.fault, spec.service
    if f == "cpu-throttling":
        find(after, "Deployment", s)["spec"]["template"]["spec"]["containers"][0]["resources"][
            "limits"
        ]["cpu"] = "20m"
    elif f == "networkpolicy-block":
        after.append(
            {
                "apiVersion": "networking.k8s.io/v1",
                "kind": "NetworkPolicy",
                "metadata": meta("NetworkPolicy", spec.name, 2000),
                "spec": {
                    "podSelector": {"matchLabels": {"app.kubernetes.io/name": s}},
                    "policyTypes": ["Ingress"],
                    "ingress": [],
                },
            }
        )
    elif f == "flagd-flag":
        cm = find(after, "ConfigMap", "flagd-config")
        flags["productCatalogFailure"]["defaultVariant"] = "on"
        cm["data"]["demo.flagd.json"] = json.dumps({"flags": flags})
        cm["metadata"]["resourceVersion"] = "501"
    elif f == "service-targetport":
        find(after, "Service", s)["spec"]["ports"][0]["targetPort"] = 8081
    elif f == "bad-image":
        find(after, "Deployment", s)["spec"]["template"]["spec"]["containers"][0]["image"] = (
            f"ghcr.io/open-telemetry/demo:9.9.9-{s}"
        )
        after.append(pod(s, "Pending", False, "ImagePullBackOff", f"{s}-6c8d7f9b5-zz"))
    elif f == "oom-memory-limit":
        find(after, "Deployment", s)["spec"]["template"]["spec"]["containers"][0]["resources"][
            "limits"
        ]["memory"] = "20Mi"
        after.append(pod(s, "Running", False, "CrashLoopBackOff", f"{s}-6c8d7f9b5-zz"))
    elif f == "scaled-to-zero":
        d = find(after, "Deployment", s)
        d["spec"]["replicas"] = 0
        d["status"] = {"replicas": 0}
        after = [
            o
            for o in after
            if not (o["kind"] == "Pod" and o["metadata"]["labels"]["app.kubernetes.io/name"] == s)
        ]
    elif f == "chaos-network-delay":
        after.append(
            {
                "apiVersion": "chaos-mesh.org/v1alpha1",
                "kind": "NetworkChaos",
                "metadata": meta("NetworkChaos", spec.name, 2100),
                "spec": {
                    "action": "delay",
                    "mode": "all",
                    "selector": {
                        "namespaces": [NS],
                        "labelSelectors": {"app.kubernetes.io/name": s},
                    },
                    "delay": {"latency": "2000ms"},
                },
            }
        )
    elif f == "wrong-env-var":
        find(after, "Deployment", s)["spec"]["template"]["spec"]["containers"][0]["env"].append(
            {"name": "EMAIL_PORT", "value": "1"}
        )
    elif f == "valkey-password":
        find(after, "Deployment", s)["spec"]["template"]["spec"]["containers"][0]["env"].append(
            {"name": "VALKEY_PASSWORD", "value": "rotated-" + str(rng.randint(100, 999))}
        )
    for t, objs in ((T0, before), (t_fault + timedelta(minutes=1), after)):
        for o in objs:
            body = json.dumps(o)
            rows.append(
                [
                    _ts(t, 0),
                    "",
                    "",
                    "",
                    "0",
                    "k8s-objects",
                    body,
                    json.dumps({"k8s.namespace.name": NS}),
                    json.dumps({}),
                ]
            )
    _tsv(
        out / "k8s_objects_raw.tsv",
        [
            "Timestamp",
            "TraceId",
            "SpanId",
            "SeverityText",
            "SeverityNumber",
            "ServiceName",
            "Body",
            "ResourceAttributes",
            "LogAttributes",
        ],
        rows,
    )


def _events(spec: FaultSpec, out: Path, t: datetime) -> None:
    """Only the events the fault really causes; involvedObject carries no uid (v1 and events.k8s.io)."""
    ev = []
    s = spec.service
    if spec.fault == "bad-image":
        ev.append(("Pod", f"{s}-6c8d7f9b5-zz", "Failed", "Back-off pulling image", "Warning"))
        ev.append(("Pod", f"{s}-6c8d7f9b5-zz", "BackOff", "ImagePullBackOff", "Warning"))
    elif spec.fault == "oom-memory-limit":
        ev.append(
            (
                "Pod",
                f"{s}-6c8d7f9b5-zz",
                "BackOff",
                "Back-off restarting failed container (OOMKilled)",
                "Warning",
            )
        )
    elif spec.fault == "scaled-to-zero":
        ev.append(
            (
                "ReplicaSet",
                f"{s}-5f7c9d8b4",
                "SuccessfulDelete",
                f"Deleted pod: {s}-5f7c9d8b4-q2zt",
                "Normal",
            )
        )
        ev.append(
            (
                "Deployment",
                s,
                "ScalingReplicaSet",
                f"Scaled down replica set {s}-5f7c9d8b4 to 0 from 1",
                "Normal",
            )
        )
    elif spec.fault in ("wrong-env-var", "valkey-password", "bad-image"):
        ev.append(
            ("Deployment", s, "ScalingReplicaSet", f"Scaled up replica set {s}-6 to 1", "Normal")
        )
    # Unrelated background noise every incident has.
    ev.append(
        ("Pod", "load-generator-7d9f8-abcde", "Pulled", "Container image already present", "Normal")
    )
    rows = []
    for i, (kind, name, reason, msg, typ) in enumerate(ev):
        when = t + timedelta(seconds=30 * i)
        if (i + spec.variant) % 2 == 0:
            obj = {
                "involvedObject": {"kind": kind, "name": name, "namespace": NS},
                "reason": reason,
                "message": msg,
                "type": typ,
                "count": 1,
                "lastTimestamp": _ts(when, 1),
                "firstTimestamp": _ts(when, 1),
                "source": {"component": "kubelet"},
            }
        else:
            obj = {
                "regarding": {"kind": kind, "name": name, "namespace": NS},
                "reason": reason,
                "note": msg,
                "type": typ,
                "eventTime": _ts(when, 2),
                "reportingController": "kubelet",
            }
        rows.append(
            [
                _ts(when, 0),
                "",
                "",
                "",
                "0",
                "k8s-events",
                json.dumps({"object": obj, "type": "ADDED"}),
                json.dumps({}),
                json.dumps({}),
            ]
        )
    _tsv(
        out / "k8s_events_raw.tsv",
        [
            "Timestamp",
            "TraceId",
            "SpanId",
            "SeverityText",
            "SeverityNumber",
            "ServiceName",
            "Body",
            "ResourceAttributes",
            "LogAttributes",
        ],
        rows,
    )


def _traces_and_logs(spec: FaultSpec, rng: random.Random, out: Path, t: datetime) -> None:
    caller, callee = spec.symptom_service, spec.service
    broken = spec.fault in (
        "networkpolicy-block",
        "service-targetport",
        "scaled-to-zero",
        "bad-image",
        "oom-memory-limit",
    )
    slow = spec.effect == "Latency"
    trows, lrows = [], []
    for i in range(80):
        when = T0 + timedelta(seconds=15 * i)
        after = when >= t
        tid = f"{rng.getrandbits(128):032x}"
        root, client, server = (f"{rng.getrandbits(64):016x}" for _ in range(3))
        dur = rng.randint(2, 9) * 1_000_000
        if after and slow:
            dur *= 150
        fail = after and (broken or spec.effect == "Error")
        client_status = "Error" if fail else "Unset"
        # Roots sometimes have no ParentSpanId at all, sometimes an all-zero one.
        root_parent = "" if i % 2 else "0000000000000000"
        spans = [
            (
                root,
                root_parent,
                "GET /",
                "Server",
                "frontend-proxy",
                dur + 3_000_000,
                "Error" if fail else "Unset",
            )
        ]
        spans.append((client, root, f"{callee}/call", "Client", caller, dur, client_status))
        # No server span when the request never reached the server.
        if not (after and broken):
            sstat = (
                "Error"
                if after and spec.effect == "Error" and spec.fault not in ("networkpolicy-block",)
                else "Unset"
            )
            spans.append(
                (server, client, f"{callee}/handle", "Server", callee, dur - 500_000, sstat)
            )
        for sid, parent, name, kind, svc, d, st in spans:
            trows.append(
                [
                    _ts(when, 0 if spec.variant == 0 else 2),
                    tid,
                    sid,
                    parent,
                    name,
                    f"SPAN_KIND_{kind.upper()}" if spec.variant else kind,
                    svc,
                    json.dumps({"service.name": svc, "k8s.namespace.name": NS}),
                    json.dumps({"rpc.service": callee}),
                    str(d),
                    st,
                    "connection refused" if st == "Error" else "",
                ]
            )
        if fail and i % 3 == 0:
            msg = {
                "networkpolicy-block": f"dial tcp {callee}:8080: i/o timeout",
                "service-targetport": f"connect ECONNREFUSED {callee}:8080",
            }.get(spec.fault, f"call to {callee} failed")
            body = json.dumps({"level": "error", "msg": msg}) if spec.variant else msg
            lrows.append(
                [
                    _ts(when, 0),
                    tid,
                    client,
                    "ERROR",
                    "17",
                    caller,
                    body,
                    json.dumps(
                        {
                            "service.name": caller,
                            "k8s.namespace.name": NS,
                            "k8s.pod.name": f"{caller}-6b8f-abc12",
                        }
                    ),
                    json.dumps({}),
                ]
            )
        elif i % 5 == 0:
            lrows.append(
                [
                    _ts(when, 0),
                    tid,
                    client,
                    "INFO",
                    "9",
                    caller,
                    f"request {i} ok",
                    json.dumps({"service.name": caller, "k8s.namespace.name": NS}),
                    json.dumps({}),
                ]
            )
    _tsv(
        out / "otel_traces_raw.tsv",
        [
            "Timestamp",
            "TraceId",
            "SpanId",
            "ParentSpanId",
            "SpanName",
            "SpanKind",
            "ServiceName",
            "ResourceAttributes",
            "SpanAttributes",
            "Duration",
            "StatusCode",
            "StatusMessage",
        ],
        trows,
    )
    _tsv(
        out / "otel_logs_raw.tsv",
        [
            "Timestamp",
            "TraceId",
            "SpanId",
            "SeverityText",
            "SeverityNumber",
            "ServiceName",
            "Body",
            "ResourceAttributes",
            "LogAttributes",
        ],
        lrows,
    )


def _metrics(spec: FaultSpec, rng: random.Random, out: Path, t: datetime) -> None:
    d = out / "metrics"
    d.mkdir()
    s = spec.service
    pod = f"{s}-5f7c9d8b4-q2zt"
    rows = []
    for i in range(40):
        when = T0 + timedelta(seconds=30 * i)
        after = when >= t
        tags = {"namespace": NS, "pod": pod, "container": s}
        thr = rng.uniform(0.8, 0.99) if (after and spec.fault == "cpu-throttling") else 0.0
        rows.append(
            [
                "container_cpu_cfs_throttled_periods_total",
                _ts(when, 1),
                f"{thr * 100 * i:.1f}",
                json.dumps(tags),
            ]
        )
        rows.append(
            ["container_cpu_cfs_periods_total", _ts(when, 1), f"{100 * i}", json.dumps(tags)]
        )
        mem = 19.5e6 if (after and spec.fault == "oom-memory-limit") else rng.uniform(5e7, 6e7)
        rows.append(
            ["container_memory_working_set_bytes", _ts(when, 1), f"{mem:.0f}", str(tags)]
        )  # Python-dict tags, as some exporters write
    _tsv(d / f"pod_{pod}.tsv", ["metric_name", "timestamp", "value", "tags"], rows)
    # Service metrics only for the caller, and only in even variants: the folder may lack them.
    if spec.variant == 0:
        rows = []
        for i in range(40):
            when = T0 + timedelta(seconds=30 * i)
            after = when >= t
            lat = rng.uniform(5, 15) * (150 if after and spec.effect == "Latency" else 1)
            for le in ("10", "100", "1000", "+Inf"):
                rows.append(
                    [
                        "traces_span_metrics_duration_milliseconds_bucket",
                        _ts(when, 0),
                        str(i * (1 if lat < float(le.replace("+Inf", "1e9")) else 0)),
                        json.dumps({"service_name": spec.symptom_service, "le": le}),
                    ]
                )
            err = 0.5 if after and spec.effect != "Latency" else 0.0
            rows.append(
                [
                    "traces_span_metrics_calls_total",
                    _ts(when, 0),
                    f"{i * (1 + err):.1f}",
                    json.dumps(
                        {
                            "service_name": spec.symptom_service,
                            "status_code": "STATUS_CODE_ERROR" if err else "STATUS_CODE_UNSET",
                        }
                    ),
                ]
            )
        _tsv(
            d / f"service_{spec.symptom_service}.tsv",
            ["metric_name", "timestamp", "value", "tags"],
            rows,
        )


def _ground_truth(spec: FaultSpec, alerts: list[dict]) -> dict:
    rc_id = f"{spec.name}-{spec.kind.lower()}-1"
    groups = [
        {"id": rc_id, "kind": spec.kind, "namespace": NS, "name": spec.name, "root_cause": True}
    ]
    chain = [rc_id]
    aliases = []
    if spec.kind not in ("Service",) and spec.service == spec.name:
        sid = f"{spec.service}-service-1"
        groups.append(
            {"id": sid, "kind": "Service", "namespace": NS, "filter": [spec.service + r"\b"]}
        )
        groups.append(
            {
                "id": f"{spec.service}-pod-1",
                "kind": "Pod",
                "namespace": NS,
                "filter": [spec.service + "-.*"],
            }
        )
        aliases.append([rc_id, sid, f"{spec.service}-pod-1"])
        chain.append(sid)
    elif spec.kind != "Service":
        sid = f"{spec.service}-service-1"
        groups.append(
            {"id": sid, "kind": "Service", "namespace": NS, "filter": [spec.service + r"\b"]}
        )
        chain.append(sid)
    sym = f"{spec.symptom_service}-service-1"
    groups.append(
        {"id": sym, "kind": "Service", "namespace": NS, "filter": [spec.symptom_service + r"\b"]}
    )
    chain.append(sym)
    props = [
        {
            "source": a,
            "target": b,
            "condition": spec.condition if i == 0 else f"{a} degraded",
            "effect": spec.effect,
        }
        for i, (a, b) in enumerate(zip(chain, chain[1:], strict=False))
    ]
    return {
        "apiVersion": "itbench.io/v1",
        "kind": "GroundTruth",
        "metadata": {"name": f"independent-{spec.fault}-{spec.variant}"},
        "spec": {
            "groups": groups,
            "aliases": aliases,
            "propagations": props,
            "fault": [
                {
                    "category": "Change",
                    "condition": spec.condition,
                    "entity": {"kind": spec.kind, "name": spec.name, "group_id": rc_id},
                    "fault_mechanism": spec.mechanism,
                }
            ],
            "alerts": alerts,
        },
    }


def write_incident(spec: FaultSpec, out_dir: Path, seed: int = 0) -> Path:
    """Write one Scenario-like folder for `spec` under out_dir; returns it."""
    rng = random.Random(f"{spec.fault}/{spec.variant}/{seed}")
    out_dir.mkdir(parents=True, exist_ok=False)
    t_fault = T0 + timedelta(minutes=10)
    alerts = _alerts(spec, rng, out_dir, T0 + timedelta(minutes=19))
    _objects(spec, rng, out_dir, t_fault)
    _events(spec, out_dir, t_fault)
    _traces_and_logs(spec, rng, out_dir, t_fault)
    _metrics(spec, rng, out_dir, t_fault)
    (out_dir / "ground_truth.yaml").write_text(
        yaml.safe_dump(_ground_truth(spec, alerts), sort_keys=False)
    )
    return out_dir


def all_specs() -> list[FaultSpec]:
    """Every fault in two variants (envelope, label set, timestamp form, encodings differ)."""
    from dataclasses import replace

    return [replace(f, variant=v) for f in FAULTS for v in (0, 1)]


def write_all(out: Path, seed: int = 0) -> list[Path]:
    return [write_incident(s, out / f"Scenario-{i + 1}", seed) for i, s in enumerate(all_specs())]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    for p in write_all(a.out, a.seed):
        print(p)


if __name__ == "__main__":
    main()
