#!/usr/bin/env python3
"""sre-set15: held-out SRE incidents over the OpenTelemetry demo, as ITBench-Lite snapshots.

python gen.py OUT  -> OUT/Scenario-<N>/{alerts/,metrics/,k8s_events_raw.tsv,k8s_objects_raw.tsv,
                      otel_logs_raw.tsv,otel_traces_raw.tsv,ground_truth.yaml}
stdlib only, deterministic.
"""
import copy
import csv
import hashlib
import io
import json
import os
import random
import shutil
import sys
from datetime import datetime, timedelta, timezone

NS = "otel-demo"
CHAOS_NS = "chaos-mesh"
UTC = timezone.utc

# service -> callees (OpenTelemetry demo architecture)
CALLS = {
    "load-generator": ["frontend-proxy"],
    "frontend-proxy": ["frontend", "image-provider"],
    "frontend": ["ad", "cart", "checkout", "currency", "product-catalog", "recommendation",
                 "shipping", "product-reviews"],
    "checkout": ["cart", "currency", "email", "payment", "product-catalog", "shipping", "kafka"],
    "shipping": ["quote"],
    "recommendation": ["product-catalog"],
    "cart": ["valkey-cart"],
    "product-reviews": ["postgresql"],
    "accounting": ["postgresql"],
}
SERVICES = ["frontend-proxy", "frontend", "ad", "cart", "checkout", "currency", "email",
            "fraud-detection", "accounting", "image-provider", "load-generator", "payment",
            "product-catalog", "product-reviews", "quote", "recommendation", "shipping", "flagd",
            "kafka", "valkey-cart", "postgresql"]
PORTS = {"frontend-proxy": 8080, "frontend": 8080, "ad": 8080, "cart": 8080, "checkout": 8080,
         "currency": 8080, "email": 8080, "fraud-detection": 8080, "accounting": 8080,
         "image-provider": 8081, "load-generator": 8089, "payment": 8080, "product-catalog": 8080,
         "product-reviews": 8080, "quote": 8080, "recommendation": 8080, "shipping": 8080,
         "flagd": 8013, "kafka": 9092, "valkey-cart": 6379, "postgresql": 5432}
RPC = {
    "frontend": [("GET /api/products", "SERVER")],
    "ad": [("oteldemo.AdService/GetAds", "SERVER")],
    "cart": [("POST /oteldemo.CartService/GetCart", "SERVER")],
    "checkout": [("oteldemo.CheckoutService/PlaceOrder", "SERVER")],
    "currency": [("Currency/Convert", "SERVER")],
    "email": [("POST /send_order_confirmation", "SERVER")],
    "payment": [("grpc.oteldemo.PaymentService/Charge", "SERVER")],
    "product-catalog": [("oteldemo.ProductCatalogService/GetProduct", "SERVER")],
    "product-reviews": [("oteldemo.ProductReviewService/GetProductReviews", "SERVER")],
    "recommendation": [("/oteldemo.RecommendationService/ListRecommendations", "SERVER")],
    "shipping": [("oteldemo.ShippingService/GetQuote", "SERVER")],
    "quote": [("POST /getquote", "SERVER")],
    "frontend-proxy": [("ingress", "SERVER")],
    "image-provider": [("GET /images/{name}", "SERVER")],
    "valkey-cart": [("HGET", "CLIENT")],
    "postgresql": [("SELECT otel", "CLIENT")],
    "kafka": [("orders publish", "PRODUCER")],
}
NOT_TRACED = {"load-generator", "valkey-cart", "postgresql", "kafka", "flagd"}
NODES = ["ip-10-0-1-17.ec2.internal", "ip-10-0-2-41.ec2.internal", "ip-10-0-3-88.ec2.internal"]


def h(s, n=10):
    return hashlib.sha256(s.encode()).hexdigest()[:n]


SAFE = "bcdfghjklmnpqrstvwxz2456789"


def _safe(seed, n):
    d = hashlib.sha256(seed.encode()).digest()
    return "".join(SAFE[b % len(SAFE)] for b in d[:n])


def pod_name(svc, salt=""):
    a = _safe("rs" + svc + salt, 9 + (len(svc) % 2))
    b = _safe("pod" + svc + salt, 5)
    return f"{svc}-{a}-{b}"


def iso(t, frac=True, z=True):
    s = t.strftime("%Y-%m-%dT%H:%M:%S")
    if frac:
        s += ".%06d" % t.microsecond
    return s + ("Z" if z else "")


def ch(t):  # ClickHouse DateTime64(9)
    return t.strftime("%Y-%m-%d %H:%M:%S.") + "%06d000" % t.microsecond


# --------------------------------------------------------------------------- k8s objects
def deployment(svc, t, replicas=1, extra_env=None, gen=3, image_tag="2.0.2", strategy=None):
    env = [{"name": "OTEL_SERVICE_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1",
            "fieldPath": "metadata.labels['app.kubernetes.io/component']"}}},
           {"name": "OTEL_COLLECTOR_NAME", "value": "otel-collector"},
           {"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://$(OTEL_COLLECTOR_NAME):4317"}]
    env += extra_env or []
    d = {
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": svc, "namespace": NS, "generation": gen,
                     "uid": h("uid" + svc, 8) + "-" + h("u2" + svc, 4) + "-4" + h("u3" + svc, 3)
                     + "-a" + h("u4" + svc, 3) + "-" + h("u5" + svc, 12),
                     "resourceVersion": str(100000 + int(h(svc, 4), 16)),
                     "creationTimestamp": "2026-02-11T08:14:03Z",
                     "labels": {"app.kubernetes.io/component": svc, "app.kubernetes.io/name": svc,
                                "app.kubernetes.io/part-of": "opentelemetry-demo",
                                "app.kubernetes.io/version": image_tag,
                                "opentelemetry.io/name": svc},
                     "annotations": {"deployment.kubernetes.io/revision": str(gen),
                                     "meta.helm.sh/release-name": "otel-demo",
                                     "meta.helm.sh/release-namespace": NS}},
        "spec": {
            "replicas": replicas, "revisionHistoryLimit": 10,
            "selector": {"matchLabels": {"opentelemetry.io/name": svc}},
            "strategy": strategy or {"type": "RollingUpdate",
                                     "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
            "template": {
                "metadata": {"labels": {"app.kubernetes.io/component": svc,
                                        "app.kubernetes.io/name": svc,
                                        "opentelemetry.io/name": svc}},
                "spec": {
                    "serviceAccountName": "otel-demo",
                    "containers": [{
                        "name": svc,
                        "image": f"ghcr.io/open-telemetry/demo:{image_tag}-{svc}",
                        "imagePullPolicy": "IfNotPresent",
                        "ports": [{"containerPort": PORTS.get(svc, 8080), "name": "service",
                                   "protocol": "TCP"}],
                        "env": env,
                        "resources": {"limits": {"memory": "128Mi"}},
                        "terminationMessagePath": "/dev/termination-log",
                    }],
                    "restartPolicy": "Always", "schedulerName": "default-scheduler",
                    "terminationGracePeriodSeconds": 30,
                }}},
        "status": {"replicas": replicas, "readyReplicas": replicas, "availableReplicas": replicas,
                   "updatedReplicas": replicas, "observedGeneration": gen},
    }
    return d


def service(svc, t, port=None, extra=None):
    p = port or PORTS.get(svc, 8080)
    s = {"apiVersion": "v1", "kind": "Service",
         "metadata": {"name": svc, "namespace": NS, "resourceVersion": str(90000 + int(h("s" + svc, 4), 16)),
                      "creationTimestamp": "2026-02-11T08:14:02Z",
                      "labels": {"app.kubernetes.io/component": svc, "app.kubernetes.io/name": svc,
                                 "app.kubernetes.io/part-of": "opentelemetry-demo",
                                 "opentelemetry.io/name": svc}},
         "spec": {"type": "ClusterIP", "clusterIP": "10.96.%d.%d" % (int(h(svc, 2), 16) % 200, int(h(svc + "x", 2), 16) % 250 + 2),
                  "ports": [{"name": "tcp-service", "port": p, "protocol": "TCP", "targetPort": p}],
                  "selector": {"opentelemetry.io/name": svc},
                  "sessionAffinity": "None", "internalTrafficPolicy": "Cluster",
                  "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack"},
         "status": {"loadBalancer": {}}}
    if extra:
        s["spec"].update(extra)
    return s


def pod(svc, t, phase="Running", ready=True, restarts=0, node=None, salt="", reason=None,
        message=None, waiting=None, owner="ReplicaSet"):
    name = pod_name(svc, salt)
    cs = {"name": svc, "ready": ready, "restartCount": restarts,
          "image": f"ghcr.io/open-telemetry/demo:2.0.2-{svc}", "started": ready}
    if waiting:
        cs["state"] = {"waiting": {"reason": waiting, "message": message or ""}}
    elif phase == "Running":
        cs["state"] = {"running": {"startedAt": iso(t - timedelta(hours=3), frac=False)}}
    p = {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": name, "namespace": NS, "generateName": name[:-5],
                      "labels": {"opentelemetry.io/name": svc, "app.kubernetes.io/component": svc,
                                 "pod-template-hash": name.split("-")[-2]},
                      "ownerReferences": [{"apiVersion": "apps/v1", "kind": owner,
                                           "name": name.rsplit("-", 1)[0], "controller": True}]},
         "spec": {"nodeName": node or NODES[int(h(svc + salt, 2), 16) % 3],
                  "serviceAccountName": "otel-demo",
                  "containers": [{"name": svc, "image": f"ghcr.io/open-telemetry/demo:2.0.2-{svc}"}]},
         "status": {"phase": phase,
                    "conditions": [{"type": "Ready", "status": "True" if ready else "False"}],
                    "containerStatuses": [cs] if phase != "Pending" else []}}
    if reason:
        p["status"]["reason"] = reason
    if message:
        p["status"]["message"] = message
    if phase == "Pending":
        p["spec"].pop("nodeName")
        p["status"]["conditions"] = [{"type": "PodScheduled", "status": "False",
                                      "reason": "Unschedulable", "message": message or ""}]
    return p


# --------------------------------------------------------------------------- writers
LOG_COLS = ["Timestamp", "TimestampTime", "TraceId", "SpanId", "TraceFlags", "SeverityText",
            "SeverityNumber", "ServiceName", "Body", "ResourceSchemaUrl", "ResourceAttributes",
            "ScopeSchemaUrl", "ScopeName", "ScopeVersion", "ScopeAttributes", "LogAttributes"]
TRACE_COLS = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "TraceState", "SpanName",
              "SpanKind", "ServiceName", "ResourceAttributes", "ScopeName", "ScopeVersion",
              "SpanAttributes", "Duration", "StatusCode", "StatusMessage"]
SEV = {"DEBUG": 5, "INFO": 9, "WARN": 13, "WARNING": 13, "ERROR": 17, "FATAL": 21}


def write_tsv(path, cols, rows):
    buf = io.StringIO()
    w = csv.writer(buf, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    w.writerow(cols)
    for r in rows:
        w.writerow([r.get(c, "") for c in cols])
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(buf.getvalue())


def pyrepr(d):
    return repr(d)


class Incident:
    def __init__(self, n, seed, t0, style):
        self.n = n
        self.rng = random.Random(seed)
        self.t0 = t0
        self.start = t0 - timedelta(minutes=25)
        self.end = t0 + timedelta(minutes=17)
        self.style = style  # dict of variation knobs
        self.events = []
        self.objects = []  # (t, obj)
        self.logs = []
        self.alerts = []  # (alertname, labels-extra, start_time, severity, summary, end?)
        self.errors = {}  # svc -> (from_t, to_t, error_prob, latency_factor, message)
        self.edge_down = {}
        self.down = {}  # svc -> (from,to) no spans at all (service not running)
        self.metric_overrides = []  # callables
        self.pod_metrics = {}  # pod -> list of (metric, fn(t))
        self.gt = None

    # events ---------------------------------------------------------------
    def event(self, t, kind, name, reason, msg, typ="Normal", count=1, ns=NS, comp="kubelet",
              watch="ADDED", host=None):
        self.events.append((t, kind, name, ns, reason, msg, typ, count, comp, watch, host))

    def log(self, t, svc, sev, body, trace=None, attrs=None):
        self.logs.append((t, svc, sev, body, trace, attrs or {}))

    def obj(self, t, o):
        self.objects.append((t, copy.deepcopy(o)))

    def periodic(self, o, times):
        for t in times:
            self.obj(t, o)

    # writer ---------------------------------------------------------------
    def write(self, out):
        d = os.path.join(out, f"Scenario-{self.n}")
        os.makedirs(os.path.join(d, "alerts"), exist_ok=True)
        os.makedirs(os.path.join(d, "metrics"), exist_ok=True)
        self._events(d)
        self._objects(d)
        self._traces_logs(d)
        self._metrics(d)
        self._alerts(d)
        with open(os.path.join(d, "ground_truth.yaml"), "w") as f:
            f.write(to_yaml(self.gt))

    def _events(self, d):
        rows = []
        v2 = self.style.get("events_v1", False)
        for (t, kind, name, ns, reason, msg, typ, count, comp, watch, host) in sorted(self.events, key=lambda e: (e[0], e[2])):
            ev_name = f"{name}.{h(name + reason + str(t), 16)}"
            if v2:
                o = {"apiVersion": "events.k8s.io/v1", "kind": "Event",
                     "metadata": {"name": ev_name, "namespace": ns,
                                  "creationTimestamp": iso(t, frac=False)},
                     "regarding": {"kind": kind, "name": name, "namespace": ns,
                                   "apiVersion": "apps/v1" if kind in ("Deployment", "ReplicaSet", "StatefulSet") else "v1"},
                     "reason": reason, "note": msg, "type": typ,
                     "eventTime": iso(t), "reportingController": comp,
                     "reportingInstance": host or comp, "action": reason,
                     "deprecatedCount": count}
                if count > 1:
                    o["series"] = {"count": count, "lastObservedTime": iso(t)}
            else:
                o = {"apiVersion": "v1", "kind": "Event",
                     "metadata": {"name": ev_name, "namespace": ns},
                     "involvedObject": {"kind": kind, "name": name, "namespace": ns},
                     "reason": reason, "message": msg, "type": typ, "count": count,
                     "firstTimestamp": iso(t - timedelta(seconds=30 * (count - 1)), frac=False),
                     "lastTimestamp": iso(t, frac=False),
                     "source": {"component": comp, **({"host": host} if host else {})}}
            body = {"object": o, "type": watch}
            rows.append({"Timestamp": ch(t), "TimestampTime": t.strftime("%Y-%m-%d %H:%M:%S"),
                         "SeverityText": "", "SeverityNumber": "0", "ServiceName": "",
                         "Body": json.dumps(body, separators=(",", ":")),
                         "ResourceAttributes": json.dumps({"k8s.namespace.name": ns}),
                         "LogAttributes": json.dumps({"k8s.event.reason": reason, "event.domain": "k8s",
                                                      "event.name": ev_name}),
                         "ScopeName": "github.com/open-telemetry/opentelemetry-collector-contrib/receiver/k8sobjectsreceiver"})
        write_tsv(os.path.join(d, "k8s_events_raw.tsv"), LOG_COLS, rows)

    def _objects(self, d):
        rows = []
        enc = self.style.get("obj_enc", "plain")
        for i, (t, o) in enumerate(sorted(self.objects, key=lambda x: (x[0], x[1]["kind"], x[1]["metadata"]["name"]))):
            o = copy.deepcopy(o)
            o["metadata"]["resourceVersion"] = str(int(o["metadata"].get("resourceVersion", "1000")) + i)
            if enc == "double":
                body = json.dumps(json.dumps(o, separators=(",", ":")))
            elif enc == "managed":
                # pull-mode export: full object incl. managedFields, default separators
                o["metadata"]["managedFields"] = [{"manager": "helm", "operation": "Update", "apiVersion": o.get("apiVersion", "v1"),
                                                   "time": "2026-02-11T08:14:03Z", "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {"f:labels": {}}}},
                                                  {"manager": "kubectl-edit" if o["kind"] not in ("Pod", "EndpointSlice") else "kubelet",
                                                   "operation": "Update", "apiVersion": o.get("apiVersion", "v1"),
                                                   "time": iso(t, frac=False), "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {}}}]
                body = json.dumps(o)
            else:
                body = json.dumps(o, separators=(",", ":"))
            ns = o["metadata"].get("namespace", "")
            rows.append({"Timestamp": ch(t), "TimestampTime": t.strftime("%Y-%m-%d %H:%M:%S"),
                         "SeverityText": "", "SeverityNumber": "0", "ServiceName": "",
                         "Body": body,
                         "ResourceAttributes": json.dumps({"k8s.namespace.name": ns}),
                         "LogAttributes": json.dumps({"k8s.resource.name": o["kind"].lower() + "s"}),
                         "ScopeName": "github.com/open-telemetry/opentelemetry-collector-contrib/receiver/k8sobjectsreceiver"})
        write_tsv(os.path.join(d, "k8s_objects_raw.tsv"), LOG_COLS, rows)

    def _state(self, svc, t):
        """(error_prob, latency_factor, msg) for svc at t."""
        if svc in self.down and self.down[svc][0] <= t < self.down[svc][1]:
            return ("down", 1.0, self.down[svc][2])
        e = self.errors.get(svc)
        if e and e[0] <= t < e[1]:
            return (e[2], e[3], e[4])
        return (0.0, 1.0, "")

    def _traces_logs(self, d):
        rng = self.rng
        spans = []
        stats = {}  # (svc, minute) -> [count, errors, durations]
        self.stats = stats
        per_min = self.style.get("traces_per_min", 9)
        entry_paths = [
            ["frontend-proxy", "frontend", "product-catalog"],
            ["frontend-proxy", "frontend", "recommendation", "product-catalog"],
            ["frontend-proxy", "frontend", "ad"],
            ["frontend-proxy", "frontend", "cart", "valkey-cart"],
            ["frontend-proxy", "frontend", "currency"],
            ["frontend-proxy", "frontend", "product-reviews", "postgresql"],
            ["frontend-proxy", "frontend", "shipping", "quote"],
            ["frontend-proxy", "image-provider"],
            ["frontend-proxy", "frontend", "checkout", ["cart", "currency", "product-catalog", "shipping", "payment", "email", "kafka"]],
        ]
        m = self.start
        while m < self.end:
            for k in range(per_min):
                t = m + timedelta(seconds=rng.uniform(0, 59))
                path = entry_paths[rng.randrange(len(entry_paths))]
                if path[-1] == ["cart", "currency", "product-catalog", "shipping", "payment", "email", "kafka"]:
                    tree = ("frontend-proxy", [("frontend", [("checkout", [(c, [("quote", [])] if c == "shipping" else []) for c in path[-1]])])])
                else:
                    tree = None
                    for s in reversed(path):
                        tree = (s, [tree] if tree else [])
                tid = h(f"{self.n}-{t.isoformat()}-{k}", 32)
                self._span(tree, tid, "", t, spans, stats, self.style.get("trace_depth_fail", True))
            m += timedelta(minutes=1)
        # accounting / fraud-detection consume from kafka (own traces)
        m = self.start
        while m < self.end:
            for svc in ("accounting", "fraud-detection"):
                t = m + timedelta(seconds=rng.uniform(0, 59))
                tid = h(f"{self.n}-{svc}-{t.isoformat()}", 32)
                tree = (svc, [("postgresql", [])] if svc == "accounting" else [])
                self._span(tree, tid, "", t, spans, stats, True, consumer=True)
            m += timedelta(minutes=1)
        # logs
        rows = []
        for (t, svc, sev, body, trace, attrs) in sorted(self.logs, key=lambda x: (x[0], x[1])):
            ra = {"service.name": svc, "k8s.namespace.name": NS,
                  "k8s.pod.name": attrs.pop("_pod", pod_name(svc)),
                  "k8s.deployment.name": svc, "telemetry.sdk.language": LANG.get(svc, "go")}
            rows.append({"Timestamp": ch(t), "TimestampTime": t.strftime("%Y-%m-%d %H:%M:%S"),
                         "TraceId": trace or "", "SpanId": h(trace, 16) if trace else "",
                         "TraceFlags": "1" if trace else "0",
                         "SeverityText": sev, "SeverityNumber": str(SEV.get(sev, 9)),
                         "ServiceName": svc, "Body": body,
                         "ResourceAttributes": json.dumps(ra) if self.style.get("ra_json", True) else pyrepr(ra),
                         "ScopeName": svc, "LogAttributes": json.dumps(attrs)})
        write_tsv(os.path.join(d, "otel_logs_raw.tsv"), LOG_COLS, rows)
        spans.sort(key=lambda r: (r["Timestamp"], r["SpanId"]))
        write_tsv(os.path.join(d, "otel_traces_raw.tsv"), TRACE_COLS, spans)

    def _span(self, tree, tid, parent, t, spans, stats, fail_up, consumer=False, caller=None):
        """returns (ok, duration_ns)"""
        svc, kids = tree
        st = self._state(svc, t)
        ed = self.edge_down.get((caller, svc))
        if ed and ed[0] <= t < ed[1]:
            st = ("down", 1.0, ed[2])
        sid = h(tid + svc + parent, 16)
        child_t = t + timedelta(microseconds=300)
        ok_all = True
        total = 0
        base = {"frontend-proxy": 2, "frontend": 8, "checkout": 25, "product-catalog": 1.5,
                "recommendation": 6, "ad": 4, "cart": 3, "currency": 0.8, "email": 40,
                "payment": 12, "shipping": 5, "quote": 9, "image-provider": 1.2,
                "product-reviews": 14, "accounting": 7, "fraud-detection": 5,
                "valkey-cart": 0.5, "postgresql": 2, "kafka": 3}.get(svc, 3)
        if st[0] == "down":
            # caller's client span fails with connection error; callee emits no span
            return (False, int(self.rng.uniform(1.0, 3.0) * 1e9) if "timeout" in st[2] else int(self.rng.uniform(0.5, 4) * 1e6), st[2])
        child_msg = ""
        for kid in kids:
            ok, dur, msg = self._span(kid, tid, sid, child_t, spans, stats, fail_up, caller=svc)
            total += dur
            if not ok:
                ok_all = False
                child_msg = child_msg or msg
        err_p, lat, msg = st
        dur = int((base * lat * self.rng.uniform(0.7, 1.6)) * 1e6) + total
        own_err = self.rng.random() < err_p
        ok = ok_all and not own_err if fail_up else not own_err
        if svc == "email" and not ok_all:
            ok = True
        status_msg = msg if own_err else (child_msg if not ok else "")
        if svc not in NOT_TRACED:
            name, kind = RPC.get(svc, [(svc, "SERVER")])[0]
            if consumer:
                name, kind = ("orders process", "CONSUMER")
            ra = {"service.name": svc, "k8s.namespace.name": NS, "k8s.pod.name": pod_name(svc),
                  "service.namespace": "opentelemetry-demo"}
            sa = {"rpc.system": "grpc"} if kind == "SERVER" and "/" in name and not name.startswith(("GET", "POST")) else {"http.route": name}
            if not ok:
                sa["rpc.grpc.status_code" if "rpc.system" in sa else "http.response.status_code"] = 14 if "rpc.system" in sa else 503
            spans.append({"Timestamp": ch(t), "TraceId": tid, "SpanId": sid, "ParentSpanId": parent,
                          "SpanName": name, "SpanKind": "SPAN_KIND_" + ("INTERNAL" if kind == "PRODUCER" else kind) if self.style.get("kind_prefix", True) else ("Server" if kind == "SERVER" else kind.title()),
                          "ServiceName": svc,
                          "ResourceAttributes": json.dumps(ra), "ScopeName": "opentelemetry",
                          "SpanAttributes": json.dumps(sa), "Duration": str(dur),
                          "StatusCode": "Error" if not ok else ("Ok" if self.rng.random() < 0.1 else "Unset"),
                          "StatusMessage": status_msg if not ok else ""})
        key = (svc, t.replace(second=0, microsecond=0))
        s = stats.setdefault(key, [0, 0, []])
        s[0] += 1
        s[1] += 0 if ok else 1
        s[2].append(dur / 1e9)
        return (ok, dur, status_msg)

    def _metrics(self, d):
        tagstyle = self.style.get("tags", "json")
        m = self.start.replace(second=0, microsecond=0)
        minutes = []
        while m < self.end:
            minutes.append(m)
            m += timedelta(minutes=1)
        for svc in SERVICES:
            if svc in NOT_TRACED and svc != "load-generator":
                continue
            rows = []
            for mm in minutes:
                cnt, err, durs = 0, 0, []
                for back in range(3):
                    s = self.stats.get((svc, mm - timedelta(minutes=back)))
                    if s:
                        cnt += s[0]
                        err += s[1]
                        durs += s[2]
                jr = random.Random(h(f"{self.n}{svc}{mm}"))
                st = self._state(svc, mm + timedelta(seconds=30))
                rate = BASE_RPS.get(svc, 1.0) * jr.uniform(0.85, 1.15)
                if st[0] == "down":
                    rate = 0.0
                ratio = (err / cnt) if cnt else 0.0
                tags = {"service_name": svc, "namespace": NS}
                tg = json.dumps(tags) if tagstyle == "json" else repr(tags)
                ts = iso(mm, frac=False) if self.style.get("metric_iso", True) else str(int(mm.timestamp()))
                if svc == "load-generator":
                    rate = BASE_RPS["frontend-proxy"] * jr.uniform(0.9, 1.1)
                    ratio = 0.0
                rows.append({"metric_name": "calls_total:rate1m", "timestamp": ts, "value": "%.4f" % rate, "tags": tg, "service_name": svc, "namespace": NS})
                rows.append({"metric_name": "calls_total:error_rate1m", "timestamp": ts, "value": "%.4f" % (rate * ratio), "tags": tg, "service_name": svc, "namespace": NS})
                p95 = sorted(durs)[int(0.95 * (len(durs) - 1))] if durs else 0.0
                rows.append({"metric_name": "duration_seconds:p95", "timestamp": ts, "value": "%.4f" % p95, "tags": tg, "service_name": svc, "namespace": NS})
            write_tsv(os.path.join(d, "metrics", f"service_{svc}.tsv"),
                      ["metric_name", "timestamp", "value", "tags", "service_name", "namespace"], rows)
        # pod metrics
        for svc in SERVICES:
            p = pod_name(svc)
            fns = self.pod_metrics.get(svc, {})
            rows = []
            for mm in minutes:
                tags = {"pod": p, "namespace": NS, "container": svc}
                tg = json.dumps(tags) if tagstyle == "json" else repr(tags)
                ts = iso(mm, frac=False) if self.style.get("metric_iso", True) else str(int(mm.timestamp()))
                r = random.Random(h(svc + str(mm) + str(self.n)))
                vals = {"container_cpu_usage_seconds_total:rate5m": 0.02 + r.uniform(0, 0.03),
                        "container_memory_working_set_bytes": 60e6 + r.uniform(0, 4e6),
                        "kube_pod_container_status_restarts_total": 0}
                for metric, fn in fns.items():
                    v = fn(mm)
                    if v is not None:
                        vals[metric] = v
                for metric, v in vals.items():
                    rows.append({"metric_name": metric, "timestamp": ts, "value": ("%.4f" % v) if isinstance(v, float) else str(v),
                                 "tags": tg, "pod_name": p, "namespace": NS})
            write_tsv(os.path.join(d, "metrics", f"pod_{p}.tsv"),
                      ["metric_name", "timestamp", "value", "tags", "pod_name", "namespace"], rows)

    def _alerts(self, d):
        env = self.style.get("alert_env", "data")
        for k in (6, 11, 16):
            at = self.t0 + timedelta(minutes=k)
            lst = []
            for (name, svc, st, sev, summary, extra) in self.alerts:
                if st > at:
                    continue
                pending = (at - st) < timedelta(minutes=2)
                labels = {"alertname": name, "severity": sev, "namespace": NS}
                if svc:
                    labels["service_name"] = svc
                labels.update(extra)
                lst.append({"labels": labels,
                            "annotations": {"summary": summary,
                                            "description": summary + "."},
                            "state": "pending" if pending else ("firing" if env != "bare" else "active"),
                            "activeAt": iso(st) if env != "bare" else None,
                            "startsAt": iso(st),
                            "value": "%.3fe-01" % (1 + (hash_int(name + svc) % 9))})
                if env == "bare":
                    lst[-1].pop("activeAt")
            if env == "data":
                doc = {"status": "success", "data": {"alerts": lst}}
            elif env == "alerts":
                doc = {"alerts": lst}
            else:
                doc = lst
            fn = "alerts_at_" + at.strftime("%Y-%m-%dT%H-%M-%S.%f") + ".json"
            with open(os.path.join(d, "alerts", fn), "w") as f:
                json.dump(doc, f, indent=2 if env == "data" else None, sort_keys=False)


BASE_RPS = {"frontend-proxy": 22.0, "frontend": 19.5, "ad": 6.1, "cart": 7.9, "checkout": 1.2,
            "currency": 11.4, "email": 1.2, "payment": 1.2, "product-catalog": 24.7,
            "product-reviews": 4.4, "quote": 2.9, "recommendation": 5.8, "shipping": 2.9,
            "image-provider": 9.3, "accounting": 1.2, "fraud-detection": 1.2}


LANG = {"frontend": "nodejs", "frontend-proxy": "cpp", "ad": "java", "cart": "dotnet", "checkout": "go",
        "currency": "cpp", "email": "ruby", "fraud-detection": "java", "accounting": "dotnet",
        "image-provider": "cpp", "load-generator": "python", "payment": "nodejs", "product-catalog": "go",
        "product-reviews": "python", "quote": "php", "recommendation": "python", "shipping": "rust",
        "postgresql": "sql", "flagd": "go", "kafka": "java"}


def hash_int(s):
    return int(h(s, 8), 16)


# --------------------------------------------------------------------------- YAML
def to_yaml(o, ind=0):
    sp = "  " * ind
    out = []
    if isinstance(o, dict):
        for k, v in o.items():
            if isinstance(v, (dict, list)) and v:
                out.append(f"{sp}{k}:")
                out.append(to_yaml(v, ind + 1))
            else:
                out.append(f"{sp}{k}: {scalar(v)}")
    elif isinstance(o, list):
        for v in o:
            if isinstance(v, dict) and v:
                sub = to_yaml(v, ind + 1).split("\n")
                out.append(f"{sp}- " + sub[0].lstrip())
                out.extend(sub[1:])
            elif isinstance(v, list) and v:
                sub = to_yaml(v, ind + 1).split("\n")
                out.append(f"{sp}- " + sub[0].lstrip())
                out.extend(sub[1:])
            else:
                out.append(f"{sp}- {scalar(v)}")
    return "\n".join(x for x in out if x != "") + ("\n" if ind == 0 else "")


def scalar(v):
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, dict):
        return "{}"
    if isinstance(v, list):
        return "[]"
    return json.dumps(str(v))


# --------------------------------------------------------------------------- GT helpers
def grp(gid, kind, name_or_filter, ns=NS, root=False, regex=True, name=None):
    g = {"id": gid, "kind": kind, "namespace": ns}
    if name:
        g["name"] = name
    if regex:
        g["filter"] = [name_or_filter]
    else:
        g["name"] = name_or_filter
    if root:
        g["root_cause"] = True
    return g


def svc_groups(svc):
    return [grp(f"{svc}-service-1", "Service", svc + r"\b", name=svc),
            grp(f"{svc}-pod-1", "Pod", svc + "-.*")]


def make_gt(n, groups, aliases, fault, props, alerts):
    return {"id": str(n), "groups": groups, "aliases": aliases, "fault": [fault],
            "propagations": [{"source": s, "target": t, "condition": c, "effect": e} for (s, t, c, e) in props],
            "alerts": [{"group_id": g, "id": a} for (g, a) in alerts]}


# =========================================================================== scenarios
def every(inc, step_min=5):
    t = inc.start + timedelta(seconds=37)
    out = []
    while t < inc.end:
        out.append(t)
        t += timedelta(minutes=step_min)
    return out


def noise(inc, restart_svc="fraud-detection", harmless=("ad", "annotation"), warn_svc="ad"):
    """Realistic background: baseline objects, an unrelated restart, unrelated warnings, a
    harmless change to another object near the fault time."""
    ts = every(inc)
    base = ["frontend", "checkout", "cart", "product-catalog", "recommendation", "shipping",
            "payment", "currency", "ad", "email", "quote", "accounting", "fraud-detection",
            "image-provider", "product-reviews", "frontend-proxy", "flagd", "kafka", "load-generator"]
    inc.base_deps = {s: deployment(s, inc.t0) for s in base}
    inc.base_svcs = {s: service(s, inc.t0) for s in base if s != "load-generator"}
    inc.touched = set()
    # unrelated restart ------------------------------------------------------
    rt = inc.t0 - timedelta(minutes=inc.rng.randint(3, 9), seconds=inc.rng.randint(0, 59))
    if restart_svc == "fraud-detection":
        inc.log(rt - timedelta(seconds=4), "fraud-detection", "ERROR",
                "Consumer clientId=consumer-fraud-detection-1, groupId=fraud-detection] Error while fetching metadata with correlation id 412 : {orders=LEADER_NOT_AVAILABLE}")
        inc.log(rt - timedelta(seconds=2), "fraud-detection", "ERROR",
                "Exception in thread \"main\" org.apache.kafka.common.errors.TimeoutException: Timeout expired while fetching topic metadata")
        inc.event(rt, "Pod", pod_name("fraud-detection"), "BackOff",
                  "Back-off restarting failed container fraud-detection in pod " + pod_name("fraud-detection") + "_otel-demo(" + h("fd", 8) + ")", "Warning", 2)
        inc.event(rt + timedelta(seconds=40), "Pod", pod_name("fraud-detection"), "Started", "Started container fraud-detection")
        inc.pod_metrics.setdefault("fraud-detection", {})["kube_pod_container_status_restarts_total"] = lambda t, rt=rt: 4 if t < rt else 5
    elif restart_svc == "load-generator":
        inc.event(rt, "Pod", pod_name("load-generator"), "Killing",
                  "Container load-generator definition changed, will be restarted")
        inc.event(rt + timedelta(seconds=9), "Pod", pod_name("load-generator"), "Pulled",
                  'Container image "ghcr.io/open-telemetry/demo:2.0.2-load-generator" already present on machine')
        inc.log(rt + timedelta(seconds=20), "load-generator", "INFO", "Starting Locust 2.31.8")
        inc.pod_metrics.setdefault("load-generator", {})["kube_pod_container_status_restarts_total"] = lambda t, rt=rt: 0 if t < rt else 1
    elif restart_svc == "accounting":
        inc.log(rt - timedelta(seconds=3), "accounting", "ERROR",
                "Unhandled exception. Confluent.Kafka.KafkaException: Local: Broker transport failure")
        inc.event(rt, "Pod", pod_name("accounting"), "BackOff",
                  "Back-off restarting failed container accounting in pod " + pod_name("accounting") + "_otel-demo(" + h("acc", 8) + ")", "Warning", 1)
        inc.pod_metrics.setdefault("accounting", {})["kube_pod_container_status_restarts_total"] = lambda t, rt=rt: 2 if t < rt else 3
    # unrelated warnings ---------------------------------------------------------
    for i in range(7):
        t = inc.start + timedelta(minutes=6 * i + inc.rng.randint(0, 4), seconds=inc.rng.randint(0, 59))
        if warn_svc == "ad":
            inc.log(t, "ad", "WARN", "[GC (Allocation Failure)  %dK->%dK(%dK), 0.00%d secs]" % (inc.rng.randint(40000, 60000), inc.rng.randint(20000, 30000), 125952, inc.rng.randint(100, 999)))
        elif warn_svc == "frontend-proxy":
            inc.log(t, "frontend-proxy", "WARN", "[%s] \"GET /images/products/%s.jpg HTTP/1.1\" 404 NR 0 0 1 - \"-\" \"python-requests/2.32.3\"" % (iso(t), ["TelescopeCase", "LensCleaningKit", "RoofBinoculars"][i % 3]))
        else:
            inc.log(t, "cart", "WARN", "Failed to refresh feature flag cache from flagd: DEADLINE_EXCEEDED (retrying)")
    inc.log(inc.start + timedelta(minutes=2), "product-catalog", "INFO", "Loaded 10 products")
    # background application logs (normal traffic) ------------------------------
    bg = [("checkout", "INFO", "payment went through (transaction_id: {u})"),
          ("cart", "INFO", "GetCartAsync called with userId={u}"),
          ("ad", "INFO", "Targeted ad request received for [telescopes]"),
          ("currency", "INFO", "Currency conversion successful from USD to EUR"),
          ("email", "INFO", "Order confirmation email sent to: sara@example.com"),
          ("quote", "INFO", "Calculated quote: 27.6 for 3 items"),
          ("shipping", "INFO", "Received quote request with 2 items"),
          ("recommendation", "INFO", "Receive ListRecommendations for product ids:['L9ECAV7KIM', '2ZYFJ3GM2N']"),
          ("payment", "INFO", "Charge request received."),
          ("accounting", "INFO", "Order details: {{\"orderId\": \"{u}\", \"items\": 2}}"),
          ("fraud-detection", "INFO", "Consumed record with orderId: {u}, and updated total count to: {k}"),
          ("product-reviews", "INFO", "Receive GetProductReviews for product id:OLJCESPC7Z"),
          ("frontend-proxy", "INFO", '[{ts}] "GET /api/products HTTP/1.1" 200 - 0 6731 18 17 "-" "python-requests/2.32.3"')]
    t = inc.start + timedelta(seconds=3)
    k = 0
    while t < inc.end:
        svc, sev, tpl = bg[inc.rng.randrange(len(bg))]
        u = h(f"{inc.n}-{k}", 8) + "-" + h(f"b{inc.n}-{k}", 4) + "-11f0-" + h(f"c{inc.n}-{k}", 4) + "-" + h(f"d{inc.n}-{k}", 12)
        inc.log(t, svc, sev, tpl.format(u=u, k=1200 + k, ts=iso(t)))
        k += 1
        t += timedelta(seconds=inc.rng.randint(9, 31))
    # background cluster events ------------------------------------------------------
    for i in range(inc.rng.randint(4, 8)):
        t = inc.start + timedelta(minutes=inc.rng.randint(0, 40), seconds=inc.rng.randint(0, 59))
        kind = inc.rng.randrange(4)
        if kind == 0:
            inc.event(t, "HorizontalPodAutoscaler", "frontend", "SuccessfulRescale", "New size: %d; reason: cpu resource utilization (percentage of request) above target" % inc.rng.randint(2, 3), comp="horizontal-pod-autoscaler")
        elif kind == 1:
            inc.event(t, "Pod", "otel-collector-agent-" + h(str(t), 5), "Unhealthy", "Liveness probe failed: Get \"http://10.244.2.7:13133/\": context deadline exceeded", "Warning", ns="opentelemetry-collectors")
        elif kind == 2:
            jn = "kube-prometheus-stack-admission-patch-" + h(str(t), 5)
            inc.event(t, "Job", jn, "Completed", "Job completed", ns="prometheus", comp="job-controller")
        else:
            inc.event(t, "Pod", "opensearch-cluster-master-0", "Unhealthy", "Readiness probe failed: Waiting for elasticsearch cluster to become ready (request params: \"wait_for_status=green&timeout=1s\" )", "Warning", 6, ns="opensearch")
    inc.event(inc.start + timedelta(minutes=1, seconds=12), "Pod", pod_name("load-generator"), "Unhealthy",
              "Readiness probe failed: Get \"http://10.244.1.31:8089/\": context deadline exceeded", "Warning", 3)
    # harmless change near the fault time ---------------------------------------
    hs, what = harmless
    ht = inc.t0 - timedelta(minutes=2, seconds=inc.rng.randint(0, 50))
    dep = inc.base_deps[hs]
    inc.touched.add(hs)
    if what == "annotation":
        new = copy.deepcopy(dep)
        new["metadata"]["annotations"]["owner.example.com/team"] = "storefront-sre"
        new["metadata"]["labels"]["cost-center"] = "cc-4411"
        inc.periodic(dep, [t for t in ts if t < ht])
        inc.periodic(new, [t for t in ts if t >= ht])
    elif what == "env":
        new = copy.deepcopy(dep)
        new["spec"]["template"]["spec"]["containers"][0]["env"].append({"name": "OTEL_METRIC_EXPORT_INTERVAL", "value": "30000"})
        new["metadata"]["generation"] += 1
        inc.periodic(dep, [t for t in ts if t < ht])
        inc.periodic(new, [t for t in ts if t >= ht])
        inc.event(ht + timedelta(seconds=1), "Deployment", hs, "ScalingReplicaSet",
                  f"Scaled up replica set {pod_name(hs, 'new').rsplit('-', 1)[0]} to 1", comp="deployment-controller")
        inc.event(ht + timedelta(seconds=14), "Deployment", hs, "ScalingReplicaSet",
                  f"Scaled down replica set {pod_name(hs).rsplit('-', 1)[0]} to 0 from 1", comp="deployment-controller")
    elif what == "replicas":
        new = copy.deepcopy(dep)
        new["spec"]["replicas"] = 2
        new["status"].update({"replicas": 2, "readyReplicas": 2, "availableReplicas": 2, "updatedReplicas": 2})
        inc.periodic(dep, [t for t in ts if t < ht])
        inc.periodic(new, [t for t in ts if t >= ht])
        inc.event(ht + timedelta(seconds=1), "Deployment", hs, "ScalingReplicaSet",
                  f"Scaled up replica set {pod_name(hs).rsplit('-', 1)[0]} to 2 from 1", comp="deployment-controller")
    return ts


def finish_objects(inc, ts, skip=()):
    for s, dep in inc.base_deps.items():
        if s in inc.touched or s in skip:
            continue
        inc.periodic(dep, ts)
    for s, sv in inc.base_svcs.items():
        if ("svc:" + s) in inc.touched:
            continue
        inc.periodic(sv, ts[::2])
    for s in ["frontend", "checkout", "cart", "currency", "payment", "recommendation"]:
        if ("pod:" + s) in inc.touched:
            continue
        inc.periodic(pod("", inc.t0) if False else pod(s, inc.t0), ts[::3])


def victim_alerts(inc, items):
    for (name, svc, dmin, sev) in items:
        summ = {"RequestErrorRate": f"Error rate is above threshold for {svc}",
                "RequestLatency": f"Latency p95 above threshold for {svc}",
                "KubePodNotReady": f"Pod in {NS} has been in a non-ready state for longer than 1 minute",
                "KubePodCrashLooping": "Pod is crash looping",
                "KubeDeploymentReplicasMismatch": "Deployment has not matched the expected number of replicas",
                "NoRequestsReceived": f"{svc} receives no requests",
                "KubeJobFailed": "Job failed to complete",
                "KubePersistentVolumeFillingUp": "PersistentVolume is filling up",
                "NodeNotReady": "Node is not ready"}.get(name, name)
        extra = {}
        lab = svc
        if name == "KubePodNotReady":
            extra = {"pod": "valkey-cart-0" if svc == "valkey-cart" else pod_name(svc, inc.style.get("podsalt", {}).get(svc, "")),
                     "job": "kube-state-metrics"}
            lab = ""
        elif name == "KubeDeploymentReplicasMismatch":
            extra = {"deployment": svc, "job": "kube-state-metrics", "container": "kube-state-metrics"}
            lab = ""
        inc.alerts.append((name, lab, inc.t0 + timedelta(minutes=dmin, seconds=17), sev, summ, extra))


# ---------------------------------------------------------------- 1 RBAC Role lost a verb
def s_rbac(inc):
    ts = noise(inc, "fraud-detection", ("checkout", "annotation"), "ad")
    t0 = inc.t0
    role = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
            "metadata": {"name": "product-catalog-configmap-reader", "namespace": NS,
                         "resourceVersion": "77120",
                         "labels": {"app.kubernetes.io/part-of": "opentelemetry-demo"}},
            "rules": [{"apiGroups": [""], "resources": ["configmaps"],
                       "verbs": ["get", "list", "watch"]}]}
    role2 = copy.deepcopy(role)
    role2["rules"][0]["verbs"] = ["get"]
    role2["metadata"]["annotations"] = {"kubectl.kubernetes.io/last-applied-configuration": json.dumps(role2["rules"])}
    rb = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
          "metadata": {"name": "product-catalog-configmap-reader", "namespace": NS, "resourceVersion": "77121"},
          "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "product-catalog-configmap-reader"},
          "subjects": [{"kind": "ServiceAccount", "name": "product-catalog", "namespace": NS}]}
    ct = t0 - timedelta(minutes=1, seconds=20)
    inc.periodic(role, [t for t in ts if t < ct])
    inc.periodic(role2, [t for t in ts if t >= ct])
    inc.periodic(rb, ts[::2])
    dep = inc.base_deps["product-catalog"]
    dep["spec"]["template"]["spec"]["serviceAccountName"] = "product-catalog"
    dep["spec"]["template"]["spec"]["containers"][0]["env"].append({"name": "PRODUCT_CATALOG_RELOAD", "value": "watch:configmap/product-catalog-products"})
    for i in range(12):
        t = t0 + timedelta(seconds=15 + 55 * i)
        inc.log(t, "product-catalog", "ERROR",
                'failed to list *v1.ConfigMap: configmaps is forbidden: User "system:serviceaccount:otel-demo:product-catalog" cannot list resource "configmaps" in API group "" in the namespace "otel-demo"')
        if i % 3 == 0:
            inc.log(t + timedelta(seconds=1), "product-catalog", "WARN", "product cache is stale, refusing to serve catalog older than 120s")
    inc.errors["product-catalog"] = (t0 + timedelta(minutes=2), inc.end, 0.55, 1.2, "rpc error: code = Unavailable desc = product cache is stale")
    for i in range(8):
        inc.log(t0 + timedelta(minutes=2, seconds=40 * i + 7), "frontend", "ERROR",
                "Error: 14 UNAVAILABLE: product cache is stale")
        inc.log(t0 + timedelta(minutes=3, seconds=45 * i), "recommendation", "ERROR",
                "Failed to get product list: <_InactiveRpcError of RPC that terminated with: status = StatusCode.UNAVAILABLE details = \"product cache is stale\">")
    inc.event(t0 + timedelta(minutes=4), "Pod", pod_name("product-catalog"), "Unhealthy",
              "Readiness probe failed: catalog not ready", "Warning", 4)
    victim_alerts(inc, [("RequestErrorRate", "frontend", 3, "warning"),
                        ("RequestErrorRate", "recommendation", 4, "warning"),
                        ("RequestErrorRate", "checkout", 5, "critical"),
                        ("RequestErrorRate", "product-catalog", 6, "warning")])
    finish_objects(inc, ts)
    g = [grp("product-catalog-configmap-reader-role-1", "Role", "product-catalog-configmap-reader", root=True, regex=False)]
    for s in ("product-catalog", "frontend", "recommendation", "checkout"):
        g += svc_groups(s)
    inc.gt = make_gt(inc.n, g, [["product-catalog-service-1", "product-catalog-pod-1"], ["frontend-service-1", "frontend-pod-1"]],
                     {"category": "Change", "condition": "Role product-catalog-configmap-reader lost the list/watch verbs",
                      "entity": {"group_id": "product-catalog-configmap-reader-role-1", "kind": "Role", "name": "product-catalog-configmap-reader"},
                      "fault_mechanism": "custom"},
                     [("product-catalog-configmap-reader-role-1", "product-catalog-pod-1", "Role no longer grants list/watch on configmaps", "product-catalog gets 403 Forbidden from the API server and its product cache goes stale"),
                      ("product-catalog-pod-1", "product-catalog-service-1", "stale cache", "product-catalog returns UNAVAILABLE errors"),
                      ("product-catalog-service-1", "recommendation-service-1", "product-catalog errors", "recommendation error rate above threshold"),
                      ("product-catalog-service-1", "frontend-service-1", "product-catalog errors", "frontend error rate above threshold"),
                      ("frontend-service-1", "checkout-service-1", "product lookups fail", "checkout error rate above threshold")],
                     [("frontend-service-1", "RequestErrorRate"), ("recommendation-service-1", "RequestErrorRate"),
                      ("checkout-service-1", "RequestErrorRate"), ("product-catalog-service-1", "RequestErrorRate")])


# ---------------------------------------------------------------- 2 emptyDir sizeLimit eviction
def s_emptydir(inc):
    ts = noise(inc, "load-generator", ("quote", "env"), "frontend-proxy")
    t0 = inc.t0
    dep = inc.base_deps["image-provider"]
    c = dep["spec"]["template"]["spec"]
    c["volumes"] = [{"name": "nginx-cache", "emptyDir": {"sizeLimit": "512Mi"}}]
    c["containers"][0]["volumeMounts"] = [{"name": "nginx-cache", "mountPath": "/var/cache/nginx"}]
    new = copy.deepcopy(dep)
    new["spec"]["template"]["spec"]["volumes"][0]["emptyDir"]["sizeLimit"] = "24Mi"
    new["metadata"]["generation"] += 1
    new["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = "4"
    new["status"] = {"replicas": 1, "readyReplicas": 0, "availableReplicas": 0, "unavailableReplicas": 1, "updatedReplicas": 1}
    ct = t0 - timedelta(minutes=11)
    inc.touched.add("image-provider")
    inc.periodic(dep, [t for t in ts if t < ct])
    inc.periodic(new, [t for t in ts if t >= ct])
    inc.event(ct + timedelta(seconds=2), "Deployment", "image-provider", "ScalingReplicaSet",
              f"Scaled up replica set {pod_name('image-provider', 'v4').rsplit('-', 1)[0]} to 1", comp="deployment-controller")
    p1 = pod_name("image-provider", "v4")
    evs = []
    for k in range(4):
        pn = pod_name("image-provider", "v4" + ("" if k == 0 else str(k)))
        et = t0 + timedelta(minutes=3 * k, seconds=20)
        inc.event(et, "Pod", pn, "Evicted",
                  'Usage of EmptyDir volume "nginx-cache" exceeds the limit "24Mi".', "Warning", comp="kubelet", host=NODES[k % 3])
        inc.event(et + timedelta(seconds=1), "Pod", pn, "Killing", "Stopping container image-provider", comp="kubelet")
        inc.event(et + timedelta(seconds=3), "ReplicaSet", p1.rsplit("-", 1)[0], "SuccessfulCreate",
                  "Created pod: " + pod_name("image-provider", "v4" + str(k + 1)), comp="replicaset-controller")
        evp = pod("image-provider", et, phase="Failed", ready=False, salt="v4" + ("" if k == 0 else str(k)), reason="Evicted",
                  message='Usage of EmptyDir volume "nginx-cache" exceeds the limit "24Mi". ')
        inc.obj(et + timedelta(seconds=30), evp)
        inc.down.setdefault("image-provider", (t0 + timedelta(minutes=3 * k, seconds=20), t0 + timedelta(minutes=3 * k + 2), "upstream connect error or disconnect/reset before headers. reset reason: connection failure"))
    inc.down["image-provider"] = (t0, inc.end, "upstream connect error or disconnect/reset before headers. reset reason: connection timeout")
    inc.errors["image-provider"] = (t0 - timedelta(minutes=8), t0, 0.0, 1.6, "")
    inc.pod_metrics["image-provider"] = {"container_fs_usage_bytes": lambda t: min(25e6, 3e6 + max(0, (t - ct).total_seconds()) * 3.1e4)}
    for i in range(14):
        t = t0 + timedelta(seconds=30 + 50 * i)
        inc.log(t, "frontend-proxy", "WARN", '[%s] "GET /images/products/%s.jpg HTTP/1.1" 503 UF 0 91 2003 - "-" "python-requests/2.32.3" "image-provider:8081"' % (iso(t), ["NationalParkFoundationExplorascope", "SolarFilter", "StarsenseExplorer"][i % 3]))
    inc.log(t0 - timedelta(minutes=6), "image-provider", "WARN", "an upstream response is buffered to a temporary file /var/cache/nginx/proxy_temp/1/00/0000000001 while reading upstream")
    inc.style["podsalt"] = {"image-provider": "v41"}
    victim_alerts(inc, [("RequestErrorRate", "frontend-proxy", 2, "critical"),
                        ("KubePodNotReady", "image-provider", 3, "warning"),
                        ("RequestLatency", "frontend-proxy", 4, "warning")])
    finish_objects(inc, ts)
    g = [grp("image-provider-deployment-1", "Deployment", "image-provider", root=True, regex=False),
         grp("image-provider-pod-1", "Pod", "image-provider-.*"),
         grp("image-provider-service-1", "Service", r"image-provider\b"),
         grp("frontend-proxy-service-1", "Service", r"frontend-proxy\b"),
         grp("frontend-proxy-pod-1", "Pod", "frontend-proxy-.*")]
    inc.gt = make_gt(inc.n, g, [["image-provider-deployment-1", "image-provider-pod-1"], ["image-provider-service-1", "image-provider-pod-1"],
                                ["frontend-proxy-service-1", "frontend-proxy-pod-1"]],
                     {"category": "Change", "condition": "emptyDir nginx-cache sizeLimit lowered from 512Mi to 24Mi",
                      "entity": {"group_id": "image-provider-deployment-1", "kind": "Deployment", "name": "image-provider"},
                      "fault_mechanism": "custom"},
                     [("image-provider-deployment-1", "image-provider-pod-1", "emptyDir sizeLimit 24Mi below the nginx cache working set", "kubelet evicts image-provider pods repeatedly"),
                      ("image-provider-pod-1", "image-provider-service-1", "pods evicted", "image-provider unavailable"),
                      ("image-provider-service-1", "frontend-proxy-service-1", "no healthy upstream", "frontend-proxy 503 error rate above threshold")],
                     [("frontend-proxy-service-1", "RequestErrorRate"), ("image-provider-pod-1", "KubePodNotReady"), ("frontend-proxy-service-1", "RequestLatency")])


def chain_groups(*svcs):
    g = []
    for s in svcs:
        g += svc_groups(s)
    return g, [[f"{s}-service-1", f"{s}-pod-1"] for s in svcs]


# ---------------------------------------------------------------- 3 readOnlyRootFilesystem
def s_rofs(inc):
    ts = noise(inc, "accounting", ("recommendation", "annotation"), "cart")
    t0 = inc.t0
    dep = inc.base_deps["email"]
    new = copy.deepcopy(dep)
    new["spec"]["template"]["spec"]["containers"][0]["securityContext"] = {
        "readOnlyRootFilesystem": True, "allowPrivilegeEscalation": False,
        "runAsNonRoot": True, "runAsUser": 1000, "capabilities": {"drop": ["ALL"]}}
    new["metadata"]["generation"] += 1
    new["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = "4"
    new["metadata"]["annotations"]["policy.example.com/hardening"] = "baseline-2026q1"
    ct = t0 - timedelta(minutes=3, seconds=5)
    inc.touched.add("email")
    inc.periodic(dep, [t for t in ts if t < ct])
    inc.periodic(new, [t for t in ts if t >= ct])
    inc.event(ct + timedelta(seconds=1), "Deployment", "email", "ScalingReplicaSet",
              f"Scaled up replica set {pod_name('email', 'ro').rsplit('-', 1)[0]} to 1", comp="deployment-controller")
    inc.event(ct + timedelta(seconds=19), "Deployment", "email", "ScalingReplicaSet",
              f"Scaled down replica set {pod_name('email').rsplit('-', 1)[0]} to 0 from 1", comp="deployment-controller")
    inc.event(ct + timedelta(seconds=6), "Pod", pod_name("email", "ro"), "Started", "Started container email")
    inc.errors["email"] = (t0, inc.end, 0.97, 1.1, "Errno::EROFS: Read-only file system @ rb_sysopen - /tmp/mail-20260304-1-1x3k9q.eml")
    for i in range(16):
        t = t0 + timedelta(seconds=20 + 48 * i)
        oid = h("o" + str(i), 8) + "-" + h("p" + str(i), 4) + "-11f0-" + h("q" + str(i), 4) + "-" + h("r" + str(i), 12)
        inc.log(t, "email", "ERROR", f"Errno::EROFS: Read-only file system @ rb_sysopen - /tmp/mail-{t.strftime('%Y%m%d')}-1-{h(str(i), 6)}.eml")
        inc.log(t + timedelta(milliseconds=3), "email", "INFO", '2026-03-04 10:%02d:%02d - sinatra - "POST /send_order_confirmation HTTP/1.1" 500 30 0.0042' % (t.minute, t.second))
        inc.log(t + timedelta(milliseconds=9), "checkout", "WARN", f"failed to send order confirmation to \"{['amelia', 'noah', 'kai', 'liam'][i % 4]}@example.com\": rpc error: code = Internal desc = 500 Internal Server Error")
        inc.log(t + timedelta(milliseconds=11), "checkout", "INFO", f"order placed app.order.id={oid}")
    victim_alerts(inc, [("RequestErrorRate", "email", 1, "warning"),
                        ("RequestErrorRate", "checkout", 3, "warning")])
    finish_objects(inc, ts)
    g, al = chain_groups("email", "checkout")
    g.insert(0, grp("email-deployment-1", "Deployment", "email", root=True, regex=False))
    al.insert(0, ["email-deployment-1", "email-pod-1"])
    inc.gt = make_gt(inc.n, g, al,
                     {"category": "Change", "condition": "securityContext.readOnlyRootFilesystem=true on email without a writable /tmp volume",
                      "entity": {"group_id": "email-deployment-1", "kind": "Deployment", "name": "email"}, "fault_mechanism": "custom"},
                     [("email-deployment-1", "email-pod-1", "root filesystem made read-only", "email cannot write its temp .eml file (EROFS)"),
                      ("email-pod-1", "email-service-1", "every send fails", "email error rate above threshold"),
                      ("email-service-1", "checkout-service-1", "confirmation calls return 500", "checkout logs and span errors")],
                     [("email-service-1", "RequestErrorRate"), ("checkout-service-1", "RequestErrorRate")])


# ---------------------------------------------------------------- 4 topologySpreadConstraints + later drain
def s_topology(inc):
    ts = noise(inc, "fraud-detection", ("shipping", "replicas"), "ad")
    t0 = inc.t0
    dep = inc.base_deps["currency"]
    new = copy.deepcopy(dep)
    new["spec"]["template"]["spec"]["topologySpreadConstraints"] = [{
        "maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "DoNotSchedule",
        "labelSelector": {"matchLabels": {"opentelemetry.io/name": "currency"}},
        "nodeAffinityPolicy": "Honor", "nodeTaintsPolicy": "Honor"}]
    new["spec"]["template"]["spec"]["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions": [{"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["us-east-1a", "us-east-1b"]}]}]}}}
    new["metadata"]["generation"] += 1
    new["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = "4"
    new["status"] = {"replicas": 2, "readyReplicas": 1, "availableReplicas": 1, "updatedReplicas": 1, "unavailableReplicas": 1}
    ct = inc.start + timedelta(minutes=3, seconds=12)
    inc.touched.add("currency")
    inc.periodic(dep, [t for t in ts if t < ct])
    inc.periodic(new, [t for t in ts if ct <= t < t0])
    down = copy.deepcopy(new)
    down["status"] = {"replicas": 1, "readyReplicas": 0, "availableReplicas": 0, "updatedReplicas": 1, "unavailableReplicas": 1}
    inc.periodic(down, [t for t in ts if t >= t0])
    newpod = pod_name("currency", "tsc")
    msg = "0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints (missing required label), 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
    inc.event(ct + timedelta(seconds=1), "Deployment", "currency", "ScalingReplicaSet",
              f"Scaled up replica set {newpod.rsplit('-', 1)[0]} to 1", comp="deployment-controller")
    inc.event(ct + timedelta(seconds=2), "Pod", newpod, "FailedScheduling", msg, "Warning", 1, comp="default-scheduler")
    inc.event(t0 + timedelta(seconds=50), "Pod", newpod, "FailedScheduling", msg, "Warning", 9, comp="default-scheduler")
    inc.periodic(pod("currency", t0, phase="Pending", ready=False, salt="tsc", message=msg), [t for t in ts if t >= ct][::2])
    inc.touched.add("pod:currency")
    # node maintenance drain at t0 evicts the old (still serving) pod
    node = NODES[0]
    inc.event(t0 - timedelta(seconds=40), "Node", node, "NodeNotSchedulable", f"Node {node} status is now: NodeNotSchedulable", ns="default", comp="kubelet")
    inc.event(t0, "Pod", pod_name("currency"), "Killing", "Stopping container currency", comp="kubelet")
    inc.event(t0 + timedelta(seconds=1), "Pod", pod_name("currency"), "Evicted", "Evicted by cluster-autoscaler drain: node scale-down", "Normal", comp="cluster-autoscaler")
    for s in ("ad", "email"):
        inc.event(t0 + timedelta(seconds=3), "Pod", pod_name(s), "Killing", f"Stopping container {s}", comp="kubelet")
        inc.event(t0 + timedelta(seconds=5), "ReplicaSet", pod_name(s).rsplit("-", 1)[0], "SuccessfulCreate", "Created pod: " + pod_name(s, "d"), comp="replicaset-controller")
        inc.event(t0 + timedelta(seconds=9), "Pod", pod_name(s, "d"), "Scheduled", f"Successfully assigned otel-demo/{pod_name(s, 'd')} to {NODES[2]}", comp="default-scheduler")
    inc.event(t0 + timedelta(seconds=5), "ReplicaSet", pod_name("currency").rsplit("-", 1)[0], "ScalingReplicaSet", "Scaled down replica set to 0", comp="deployment-controller")
    inc.down["currency"] = (t0 + timedelta(seconds=2), inc.end, "dial tcp 10.96.77.180:8080: connect: connection refused")
    for i in range(14):
        t = t0 + timedelta(seconds=25 + 52 * i)
        inc.log(t, "frontend", "ERROR", "Error: 14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 10.96.77.180:8080 (currency)")
        inc.log(t + timedelta(seconds=4), "checkout", "ERROR", "failed to convert currency: rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial tcp 10.96.77.180:8080: connect: connection refused\"")
    victim_alerts(inc, [("RequestErrorRate", "frontend", 1, "critical"), ("RequestErrorRate", "checkout", 2, "critical"),
                        ("KubeDeploymentReplicasMismatch", "currency", -14, "warning"), ("NoRequestsReceived", "currency", 3, "warning")])
    finish_objects(inc, ts)
    g, al = chain_groups("currency", "frontend", "checkout")
    g.insert(0, grp("currency-deployment-1", "Deployment", "currency", root=True, regex=False))
    al.insert(0, ["currency-deployment-1", "currency-pod-1"])
    inc.gt = make_gt(inc.n, g, al,
                     {"category": "Change", "condition": "topologySpreadConstraints on zone with DoNotSchedule plus zone affinity no node can satisfy; rollout stuck, old pod evicted by a later node drain",
                      "entity": {"group_id": "currency-deployment-1", "kind": "Deployment", "name": "currency"}, "fault_mechanism": "custom"},
                     [("currency-deployment-1", "currency-pod-1", "new pods unschedulable", "after the drain no currency pod runs"),
                      ("currency-pod-1", "currency-service-1", "no endpoints", "currency unavailable"),
                      ("currency-service-1", "frontend-service-1", "conversion calls refused", "frontend error rate above threshold"),
                      ("currency-service-1", "checkout-service-1", "conversion calls refused", "checkout error rate above threshold")],
                     [("frontend-service-1", "RequestErrorRate"), ("checkout-service-1", "RequestErrorRate"),
                      ("currency-deployment-1", "KubeDeploymentReplicasMismatch"), ("currency-service-1", "NoRequestsReceived")])


# ---------------------------------------------------------------- 5 CronJob storm saturating postgres
def s_cronjob(inc):
    ts = noise(inc, "load-generator", ("ad", "annotation"), "frontend-proxy")
    t0 = inc.t0
    cj = {"apiVersion": "batch/v1", "kind": "CronJob",
          "metadata": {"name": "reviews-summary-refresh", "namespace": NS, "resourceVersion": "66012",
                       "labels": {"app.kubernetes.io/part-of": "opentelemetry-demo", "team": "reviews"}},
          "spec": {"schedule": "*/15 * * * *", "concurrencyPolicy": "Forbid", "startingDeadlineSeconds": 120,
                   "successfulJobsHistoryLimit": 3, "failedJobsHistoryLimit": 1, "suspend": False,
                   "jobTemplate": {"spec": {"backoffLimit": 2, "template": {"spec": {
                       "restartPolicy": "Never",
                       "containers": [{"name": "refresh", "image": "ghcr.io/open-telemetry/demo:2.0.2-product-reviews",
                                       "command": ["python", "-m", "product_reviews.jobs.refresh_summaries"],
                                       "env": [{"name": "DB_CONNECTION_STRING", "value": "host=postgresql user=otelu dbname=otel"}]}]}}}}},
          "status": {"lastScheduleTime": iso(t0 - timedelta(minutes=30), frac=False)}}
    new = copy.deepcopy(cj)
    new["spec"]["schedule"] = "* * * * *"
    new["spec"]["concurrencyPolicy"] = "Allow"
    new["metadata"]["annotations"] = {"note": "temp: refresh every minute for launch"}
    ct = t0 - timedelta(minutes=9, seconds=30)
    inc.periodic(cj, [t for t in ts if t < ct])
    inc.periodic(new, [t for t in ts if t >= ct])
    k = 0
    t = ct.replace(second=0, microsecond=0) + timedelta(minutes=1)
    while t < inc.end:
        jn = f"reviews-summary-refresh-{int(t.timestamp()) // 60}"
        inc.event(t + timedelta(seconds=1), "CronJob", "reviews-summary-refresh", "SuccessfulCreate", f"Created job {jn}", comp="cronjob-controller")
        inc.event(t + timedelta(seconds=2), "Job", jn, "SuccessfulCreate", f"Created pod: {jn}-{h(jn, 5)}", comp="job-controller")
        if k % 4 == 3:
            inc.event(t + timedelta(seconds=58), "Job", jn, "DeadlineExceeded", "Job was active longer than specified deadline", "Warning", comp="job-controller")
        inc.log(t + timedelta(seconds=3), "product-reviews", "INFO", f"refresh_summaries: recomputing summaries for 10 products (job {jn})", attrs={"_pod": f"{jn}-{h(jn, 5)}"})
        k += 1
        t += timedelta(minutes=1)
    sat = t0
    inc.errors["product-reviews"] = (sat, inc.end, 0.45, 6.0, "psycopg2.OperationalError: canceling statement due to statement timeout")
    inc.errors["accounting"] = (sat + timedelta(minutes=1), inc.end, 0.3, 8.0, "Npgsql.NpgsqlException: Exception while reading from stream: Timeout during reading attempt")
    for i in range(15):
        t = sat + timedelta(seconds=12 + 50 * i)
        inc.log(t, "product-reviews", "ERROR", "Error getting product reviews: canceling statement due to statement timeout")
        if i % 2:
            inc.log(t + timedelta(seconds=7), "accounting", "ERROR", "Npgsql.NpgsqlException (0x80004005): Exception while reading from stream ---> System.TimeoutException: Timeout during reading attempt")
        if i % 3 == 0:
            inc.log(t + timedelta(seconds=9), "frontend", "ERROR", "Error: 4 DEADLINE_EXCEEDED: Deadline exceeded after 4.999s (product-reviews)")
    inc.pod_metrics["product-reviews"] = {"container_cpu_usage_seconds_total:rate5m": lambda t: 0.04 if t < sat else 0.01}
    victim_alerts(inc, [("RequestLatency", "product-reviews", 1, "warning"), ("RequestErrorRate", "product-reviews", 2, "warning"),
                        ("RequestLatency", "frontend", 3, "warning"), ("RequestLatency", "accounting", 4, "warning")])
    finish_objects(inc, ts)
    g, al = chain_groups("product-reviews", "accounting", "frontend")
    g.insert(0, grp("reviews-summary-refresh-cronjob-1", "CronJob", "reviews-summary-refresh", root=True, regex=False))
    g.insert(1, grp("postgresql-service-1", "Service", r"postgresql\b"))
    inc.gt = make_gt(inc.n, g, al,
                     {"category": "Change", "condition": "CronJob schedule moved to every minute with concurrencyPolicy Allow; overlapping jobs saturate postgresql",
                      "entity": {"group_id": "reviews-summary-refresh-cronjob-1", "kind": "CronJob", "name": "reviews-summary-refresh"}, "fault_mechanism": "custom"},
                     [("reviews-summary-refresh-cronjob-1", "postgresql-service-1", "overlapping refresh jobs pile up", "postgresql saturated, statements time out"),
                      ("postgresql-service-1", "product-reviews-service-1", "statement timeouts", "product-reviews latency and errors"),
                      ("postgresql-service-1", "accounting-service-1", "read timeouts", "accounting latency"),
                      ("product-reviews-service-1", "frontend-service-1", "slow reviews", "frontend latency")],
                     [("product-reviews-service-1", "RequestLatency"), ("product-reviews-service-1", "RequestErrorRate"),
                      ("frontend-service-1", "RequestLatency"), ("accounting-service-1", "RequestLatency")])


# ---------------------------------------------------------------- 6 postgres volume full
def s_pgdisk(inc):
    ts = noise(inc, "fraud-detection", ("frontend", "env"), "ad")
    t0 = inc.t0
    sts = {"apiVersion": "apps/v1", "kind": "StatefulSet",
           "metadata": {"name": "postgresql", "namespace": NS, "resourceVersion": "55001",
                        "labels": {"app.kubernetes.io/component": "postgresql", "opentelemetry.io/name": "postgresql"}},
           "spec": {"replicas": 1, "serviceName": "postgresql",
                    "selector": {"matchLabels": {"opentelemetry.io/name": "postgresql"}},
                    "template": {"spec": {"containers": [{"name": "postgresql", "image": "postgres:17.6",
                                                          "volumeMounts": [{"name": "data", "mountPath": "/var/lib/postgresql/data"}]}]}},
                    "volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {"accessModes": ["ReadWriteOnce"],
                                                                                     "resources": {"requests": {"storage": "2Gi"}}}}]},
           "status": {"replicas": 1, "readyReplicas": 1}}
    pvc = {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
           "metadata": {"name": "data-postgresql-0", "namespace": NS, "resourceVersion": "55010",
                        "labels": {"opentelemetry.io/name": "postgresql"},
                        "annotations": {"volume.kubernetes.io/storage-provisioner": "ebs.csi.aws.com"}},
           "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "2Gi"}},
                    "storageClassName": "gp3", "volumeName": "pvc-" + h("pgpv", 8) + "-" + h("pgpv2", 4) + "-" + h("pgpv3", 4) + "-" + h("pgpv4", 4) + "-" + h("pgpv5", 12), "volumeMode": "Filesystem"},
           "status": {"phase": "Bound", "capacity": {"storage": "2Gi"}}}
    inc.periodic(sts, ts)
    inc.periodic(pvc, ts)
    cap = 2 * 1024 ** 3
    full = t0 - timedelta(seconds=20)
    inc.pod_metrics["postgresql"] = {
        "kubelet_volume_stats_used_bytes": lambda t: float(min(cap - 4096, cap * 0.83 + (t - inc.start).total_seconds() * cap * 0.17 / (full - inc.start).total_seconds())),
        "kubelet_volume_stats_capacity_bytes": lambda t: float(cap)}
    inc.errors["accounting"] = (t0, inc.end, 0.9, 1.3, "53100: could not extend file \"base/16384/16521\": No space left on device")
    for i in range(15):
        t = t0 + timedelta(seconds=8 + 49 * i)
        inc.log(t, "accounting", "ERROR", "Npgsql.PostgresException (0x80004005): 53100: could not extend file \"base/16384/16521\": No space left on device")
        inc.log(t + timedelta(seconds=1), "postgresql", "ERROR", '%s UTC [%d] ERROR:  could not extend file "base/16384/16521": No space left on device' % (t.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3], 300 + i), attrs={"_pod": "postgresql-0"})
        if i % 4 == 0:
            inc.log(t + timedelta(seconds=2), "postgresql", "WARN", '%s UTC [68] LOG:  could not write temporary statistics file "pg_stat_tmp/global.tmp": No space left on device' % t.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3], attrs={"_pod": "postgresql-0"})
        if i % 3 == 1:
            inc.log(t + timedelta(seconds=4), "product-reviews", "ERROR", "Error getting product reviews: could not write to file \"base/pgsql_tmp/pgsql_tmp77.0\": No space left on device")
    inc.errors["product-reviews"] = (t0 + timedelta(minutes=1), inc.end, 0.25, 1.2, "could not write to file: No space left on device")
    inc.log(t0 - timedelta(minutes=14), "postgresql", "INFO", "checkpoint complete: wrote 2731 buffers (16.7%); 0 WAL file(s) added, 0 removed, 3 recycled", attrs={"_pod": "postgresql-0"})
    victim_alerts(inc, [("KubePersistentVolumeFillingUp", "", -12, "warning"), ("RequestErrorRate", "accounting", 1, "critical"),
                        ("RequestErrorRate", "product-reviews", 3, "warning")])
    inc.alerts[0] = (inc.alerts[0][0], "", inc.alerts[0][2], "warning", "PersistentVolume claimed by data-postgresql-0 in Namespace otel-demo is expected to fill up within four hours",
                     {"persistentvolumeclaim": "data-postgresql-0"})
    finish_objects(inc, ts)
    g, al = chain_groups("accounting", "product-reviews")
    g = [grp("postgresql-pvc-1", "PersistentVolumeClaim", "data-postgresql-0", root=True, regex=False),
         grp("postgresql-statefulset-1", "StatefulSet", "postgresql", regex=False),
         grp("postgresql-pod-1", "Pod", r"postgresql-\d+"),
         grp("postgresql-service-1", "Service", r"postgresql\b")] + g
    al = [["postgresql-pvc-1", "postgresql-statefulset-1", "postgresql-pod-1", "postgresql-service-1"]] + al
    inc.gt = make_gt(inc.n, g, al,
                     {"category": "Resource Unavailable", "condition": "postgresql data volume (2Gi PVC) is full",
                      "entity": {"group_id": "postgresql-pvc-1", "kind": "PersistentVolumeClaim", "name": "data-postgresql-0"}, "fault_mechanism": "custom"},
                     [("postgresql-pvc-1", "postgresql-pod-1", "volume full", "postgres cannot extend relation files (ENOSPC)"),
                      ("postgresql-pod-1", "accounting-service-1", "inserts fail", "accounting error rate above threshold"),
                      ("postgresql-pod-1", "product-reviews-service-1", "temp files fail", "product-reviews errors")],
                     [("postgresql-pvc-1", "KubePersistentVolumeFillingUp"), ("accounting-service-1", "RequestErrorRate"),
                      ("product-reviews-service-1", "RequestErrorRate")])


def chaos_obj(kind, name, spec, t, phase_inj=True):
    return {"apiVersion": "chaos-mesh.org/v1alpha1", "kind": kind,
            "metadata": {"name": name, "namespace": CHAOS_NS, "resourceVersion": "88" + h(name, 3).replace("a", "1").replace("b", "2").replace("c", "3").replace("d", "4").replace("e", "5").replace("f", "6"),
                         "creationTimestamp": iso(t, frac=False), "finalizers": ["chaos-mesh/records"],
                         "annotations": {"experiment.chaos-mesh.org/pause": "false"}},
            "spec": spec,
            "status": {"experiment": {"desiredPhase": "Run",
                                      "containerRecords": [{"id": f"{NS}/{pod_name(spec.get('selector', {}).get('labelSelectors', {}).get('opentelemetry.io/name', 'x'))}",
                                                            "phase": "Injected" if phase_inj else "Not Injected", "injectedCount": 1, "recoveredCount": 0}]},
                       "conditions": [{"type": "AllInjected", "status": "True"}, {"type": "Selected", "status": "True"}]}}


def leftover_chaos(inc, ts, kind, name, spec, days_ago):
    o = chaos_obj(kind, name, spec, inc.t0 - timedelta(days=days_ago, hours=3))
    o["metadata"]["annotations"]["experiment.chaos-mesh.org/pause"] = "true"
    o["status"]["experiment"]["desiredPhase"] = "Stop"
    for r in o["status"]["experiment"]["containerRecords"]:
        r["phase"] = "Not Injected"
        r["recoveredCount"] = 1
    o["status"]["conditions"] = [{"type": "AllInjected", "status": "False"}, {"type": "AllRecovered", "status": "True"},
                                 {"type": "Paused", "status": "True"}, {"type": "Selected", "status": "True"}]
    inc.periodic(o, ts[::2])


def chaos_events(inc, kind, name, t, target):
    inc.event(t, kind, name, "FinalizerInited", "Finalizer has been inited", ns=CHAOS_NS, comp="initFinalizers")
    inc.event(t + timedelta(seconds=1), kind, name, "Updated", "Successfully update desiredPhase of resource", ns=CHAOS_NS, comp="desiredphase")
    inc.event(t + timedelta(seconds=2), kind, name, "Applied", f"Successfully apply chaos for {target}", ns=CHAOS_NS, comp="records")


# ---------------------------------------------------------------- 7 StressChaos memory on recommendation
def s_memstress(inc):
    ts = noise(inc, "accounting", ("cart", "annotation"), "ad")
    t0 = inc.t0
    ct = t0 - timedelta(seconds=45)
    spec = {"mode": "all", "selector": {"namespaces": [NS], "labelSelectors": {"opentelemetry.io/name": "recommendation"}},
            "stressors": {"memory": {"workers": 4, "size": "90%", "oomScoreAdj": -1000}}, "duration": "30m"}
    leftover_chaos(inc, ts, "PodChaos", "checkout-failover-drill",
                   {"action": "pod-failure", "mode": "one", "duration": "5m",
                    "selector": {"namespaces": [NS], "labelSelectors": {"opentelemetry.io/name": "checkout"}}}, 2)
    co = chaos_obj("StressChaos", "recommendation-mem-pressure", spec, ct)
    inc.periodic(co, [t for t in ts if t >= ct])
    chaos_events(inc, "StressChaos", "recommendation-mem-pressure", ct, f"{NS}/{pod_name('recommendation')}")
    inc.errors["recommendation"] = (t0, inc.end, 0.22, 14.0, "Deadline Exceeded")
    inc.errors["frontend"] = (t0 + timedelta(seconds=30), inc.end, 0.0, 1.5, "")
    lim = 512 * 1024 ** 2
    inc.pod_metrics["recommendation"] = {
        "container_memory_working_set_bytes": lambda t: float(lim * 0.97) if t >= t0 else None,
        "container_cpu_usage_seconds_total:rate5m": lambda t: 0.9 if t >= t0 else None,
        "container_memory_major_page_faults:rate5m": lambda t: 310.0 if t >= t0 else 0.0}
    for i in range(14):
        t = t0 + timedelta(seconds=30 + 50 * i)
        inc.log(t, "frontend", "ERROR", "Error: 4 DEADLINE_EXCEEDED: Deadline exceeded after 0.995s,LB pick: 0.000s,remote_addr=10.96.12.44:8080 (recommendation)")
        if i % 2 == 0:
            inc.log(t + timedelta(seconds=3), "recommendation", "WARN", "Receive ListRecommendations for product ids:['OLJCESPC7Z', '66VCHSJNUP'] took 4.812s")
    victim_alerts(inc, [("RequestLatency", "recommendation", 1, "warning"), ("RequestLatency", "frontend", 2, "warning"),
                        ("RequestErrorRate", "frontend", 4, "warning")])
    finish_objects(inc, ts)
    g, al = chain_groups("recommendation", "frontend")
    g.insert(0, grp("recommendation-mem-pressure-1", "StressChaos", ".*recommendation-mem-pressure", ns=CHAOS_NS, root=True, name="recommendation-mem-pressure"))
    inc.gt = make_gt(inc.n, g, al,
                     {"category": "Resource Saturation", "condition": "StressChaos memory stressors fill the recommendation container's memory",
                      "entity": {"group_id": "recommendation-mem-pressure-1", "kind": "StressChaos", "name": "recommendation-mem-pressure"}, "fault_mechanism": "chaos"},
                     [("recommendation-mem-pressure-1", "recommendation-pod-1", "memory stressors at 90% of the limit", "page faults, recommendation slows down"),
                      ("recommendation-pod-1", "recommendation-service-1", "slow handler", "recommendation latency above threshold"),
                      ("recommendation-service-1", "frontend-service-1", "calls time out", "frontend latency and error rate above threshold")],
                     [("recommendation-service-1", "RequestLatency"), ("frontend-service-1", "RequestLatency"), ("frontend-service-1", "RequestErrorRate")])


# ---------------------------------------------------------------- 8 PodChaos pod-failure on payment
def s_podfailure(inc):
    ts = noise(inc, "load-generator", ("email", "env"), "cart")
    t0 = inc.t0
    ct = t0 - timedelta(seconds=20)
    spec = {"action": "pod-failure", "mode": "one", "duration": "20m",
            "selector": {"namespaces": [NS], "labelSelectors": {"opentelemetry.io/name": "payment"}}}
    leftover_chaos(inc, ts, "StressChaos", "frontend-memory-soak",
                   {"mode": "one", "duration": "10m", "stressors": {"memory": {"workers": 1, "size": "256MB"}},
                    "selector": {"namespaces": [NS], "labelSelectors": {"opentelemetry.io/name": "frontend"}}}, 4)
    co = chaos_obj("PodChaos", "payment-unavailable", spec, ct)
    inc.periodic(co, [t for t in ts if t >= ct])
    chaos_events(inc, "PodChaos", "payment-unavailable", ct, f"{NS}/{pod_name('payment')}")
    pn = pod_name("payment")
    inc.event(t0, "Pod", pn, "Pulling", 'Pulling image "gcr.io/google-containers/pause:latest"')
    inc.event(t0 + timedelta(seconds=3), "Pod", pn, "Killing", "Container payment definition changed, will be restarted")
    inc.event(t0 + timedelta(seconds=9), "Pod", pn, "Started", "Started container payment")
    inc.event(t0 + timedelta(seconds=40), "Pod", pn, "Unhealthy", "Readiness probe failed: dial tcp 10.244.2.19:8080: connect: connection refused", "Warning", 14)
    p = pod("payment", t0, ready=False)
    p["spec"]["containers"][0]["image"] = "gcr.io/google-containers/pause:latest"
    p["metadata"]["annotations"] = {"chaos-mesh.org/origin-payment-0-image": "ghcr.io/open-telemetry/demo:2.0.2-payment"}
    inc.touched.add("pod:payment")
    inc.periodic(pod("payment", t0), [t for t in ts if t < t0][::3])
    inc.periodic(p, [t for t in ts if t >= t0])
    inc.down["payment"] = (t0 + timedelta(seconds=3), inc.end, "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED")
    for i in range(12):
        t = t0 + timedelta(seconds=33 + 58 * i)
        inc.log(t, "checkout", "ERROR", "failed to charge card: could not charge the card: rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial tcp 10.96.41.7:8080: connect: connection refused\"")
        inc.log(t + timedelta(seconds=1), "frontend", "ERROR", "Error: 13 INTERNAL: failed to charge card: could not charge the card")
    victim_alerts(inc, [("RequestErrorRate", "checkout", 1, "critical"), ("RequestErrorRate", "frontend", 2, "warning"),
                        ("KubePodNotReady", "payment", 2, "warning"), ("NoRequestsReceived", "email", 4, "info")])
    finish_objects(inc, ts)
    g, al = chain_groups("payment", "checkout", "frontend", "email")
    g.insert(0, grp("payment-unavailable-1", "PodChaos", ".*payment-unavailable", ns=CHAOS_NS, root=True, name="payment-unavailable"))
    inc.gt = make_gt(inc.n, g, al,
                     {"category": "Resource Unavailable", "condition": "PodChaos pod-failure replaces the payment container image with pause",
                      "entity": {"group_id": "payment-unavailable-1", "kind": "PodChaos", "name": "payment-unavailable"}, "fault_mechanism": "chaos"},
                     [("payment-unavailable-1", "payment-pod-1", "pod-failure", "payment container runs pause, port closed"),
                      ("payment-pod-1", "payment-service-1", "not ready", "payment unavailable"),
                      ("payment-service-1", "checkout-service-1", "charge fails", "checkout error rate above threshold"),
                      ("checkout-service-1", "frontend-service-1", "PlaceOrder fails", "frontend error rate above threshold"),
                      ("checkout-service-1", "email-service-1", "no orders complete", "email receives no requests")],
                     [("checkout-service-1", "RequestErrorRate"), ("frontend-service-1", "RequestErrorRate"),
                      ("payment-pod-1", "KubePodNotReady"), ("email-service-1", "NoRequestsReceived")])


# ---------------------------------------------------------------- 9 feature rollout ConfigMap with bad JSON value
def s_badjson(inc):
    ts = noise(inc, "fraud-detection", ("product-catalog", "annotation"), "frontend-proxy")
    t0 = inc.t0
    cm = {"apiVersion": "v1", "kind": "ConfigMap",
          "metadata": {"name": "checkout-rollout", "namespace": NS, "resourceVersion": "61200",
                       "labels": {"app.kubernetes.io/part-of": "opentelemetry-demo", "opentelemetry.io/name": "checkout"}},
          "data": {"rollout.json": json.dumps({"newShippingFlow": {"enabled": False, "percent": 0},
                                               "orderBatching": {"enabled": True, "maxBatch": 5}}, indent=2)}}
    new = copy.deepcopy(cm)
    new["data"]["rollout.json"] = json.dumps({"newShippingFlow": {"enabled": True, "percent": "25%"},
                                              "orderBatching": {"enabled": True, "maxBatch": 5}}, indent=2)
    ct = t0 - timedelta(minutes=1, seconds=40)
    inc.periodic(cm, [t for t in ts if t < ct])
    inc.periodic(new, [t for t in ts if t >= ct])
    prods = {"apiVersion": "v1", "kind": "ConfigMap",
             "metadata": {"name": "product-catalog-products", "namespace": NS, "resourceVersion": "61003",
                          "labels": {"app.kubernetes.io/part-of": "opentelemetry-demo"}},
             "data": {"products.json": json.dumps({"products": [
                 {"id": "OLJCESPC7Z", "name": "National Park Foundation Explorascope", "priceUsd": {"currencyCode": "USD", "units": 101, "nanos": 960000000}},
                 {"id": "66VCHSJNUP", "name": "Starsense Explorer Refractor Telescope", "priceUsd": {"currencyCode": "USD", "units": 349, "nanos": 950000000}}]}, indent=2)}}
    prods2 = copy.deepcopy(prods)
    prods2["data"]["products.json"] = prods2["data"]["products.json"].replace('"units": 349', '"units": 329')
    pt = t0 - timedelta(minutes=4, seconds=12)
    inc.periodic(prods, [t for t in ts if t < pt])
    inc.periodic(prods2, [t for t in ts if t >= pt])
    inc.log(pt + timedelta(seconds=40), "product-catalog", "INFO", "Loaded 10 products")
    dep = inc.base_deps["checkout"]
    c = dep["spec"]["template"]["spec"]
    c["volumes"] = [{"name": "rollout", "configMap": {"name": "checkout-rollout"}}]
    c["containers"][0]["volumeMounts"] = [{"name": "rollout", "mountPath": "/etc/checkout", "readOnly": True}]
    c["containers"][0]["env"].append({"name": "ROLLOUT_CONFIG", "value": "/etc/checkout/rollout.json"})
    inc.log(t0 - timedelta(seconds=20), "checkout", "INFO", "rollout config changed on disk, reloading /etc/checkout/rollout.json")
    inc.log(t0 - timedelta(seconds=19), "checkout", "ERROR", "rollout: reload failed: json: cannot unmarshal string into Go struct field Stage.newShippingFlow.percent of type int; keeping no rollout config")
    inc.errors["checkout"] = (t0, inc.end, 0.62, 1.1, "rollout: no valid stage configuration for newShippingFlow")
    for i in range(14):
        t = t0 + timedelta(seconds=14 + 51 * i)
        inc.log(t, "checkout", "ERROR", "failed to prepare order: rollout: no valid stage configuration for newShippingFlow")
        inc.log(t + timedelta(milliseconds=40), "frontend", "ERROR", "Error: 13 INTERNAL: failed to prepare order: rollout: no valid stage configuration for newShippingFlow")
    victim_alerts(inc, [("RequestErrorRate", "checkout", 1, "critical"), ("RequestErrorRate", "frontend", 2, "warning"),
                        ("RequestErrorRate", "frontend-proxy", 4, "warning")])
    finish_objects(inc, ts)
    g, al = chain_groups("checkout", "frontend", "frontend-proxy")
    g.insert(0, grp("checkout-rollout-configmap-1", "ConfigMap", "checkout-rollout", root=True, regex=False))
    inc.gt = make_gt(inc.n, g, al,
                     {"category": "Change", "condition": "checkout-rollout ConfigMap sets newShippingFlow.percent to the string \"25%\" where an integer is expected",
                      "entity": {"group_id": "checkout-rollout-configmap-1", "kind": "ConfigMap", "name": "checkout-rollout"}, "fault_mechanism": "custom"},
                     [("checkout-rollout-configmap-1", "checkout-pod-1", "bad JSON value", "checkout drops its rollout config and fails orders"),
                      ("checkout-service-1", "frontend-service-1", "PlaceOrder errors", "frontend error rate above threshold"),
                      ("frontend-service-1", "frontend-proxy-service-1", "500s", "frontend-proxy error rate above threshold")],
                     [("checkout-service-1", "RequestErrorRate"), ("frontend-service-1", "RequestErrorRate"), ("frontend-proxy-service-1", "RequestErrorRate")])


# ---------------------------------------------------------------- 10 Service internalTrafficPolicy: Local
def s_itp(inc):
    ts = noise(inc, "accounting", ("currency", "replicas"), "ad")
    t0 = inc.t0
    sv = inc.base_svcs["cart"]
    new = copy.deepcopy(sv)
    new["spec"]["internalTrafficPolicy"] = "Local"
    new["metadata"]["annotations"] = {"kubectl.kubernetes.io/last-applied-configuration": json.dumps({"spec": {"internalTrafficPolicy": "Local"}})}
    ct = t0 - timedelta(seconds=50)
    inc.touched.add("svc:cart")
    inc.periodic(sv, [t for t in ts if t < ct])
    inc.periodic(new, [t for t in ts if t >= ct])
    # harmless Service change on another object at about the same time
    adsv = inc.base_svcs["ad"]
    ad2 = copy.deepcopy(adsv)
    ad2["metadata"]["annotations"] = {"prometheus.io/scrape": "true", "prometheus.io/port": "9464"}
    inc.touched.add("svc:ad")
    inc.periodic(adsv, [t for t in ts if t < ct - timedelta(minutes=1)])
    inc.periodic(ad2, [t for t in ts if t >= ct - timedelta(minutes=1)])
    # pods: cart on node 1, checkout on node 1, frontend on node 0
    inc.touched.update({"pod:cart", "pod:checkout", "pod:frontend"})
    inc.periodic(pod("cart", t0, node=NODES[1]), ts[::3])
    inc.periodic(pod("checkout", t0, node=NODES[1]), ts[::3])
    inc.periodic(pod("frontend", t0, node=NODES[0]), ts[::3])
    ep = {"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
          "metadata": {"name": "cart-" + h("eps", 5), "namespace": NS, "resourceVersion": "70001",
                       "labels": {"kubernetes.io/service-name": "cart", "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io"}},
          "addressType": "IPv4",
          "endpoints": [{"addresses": ["10.244.1.23"], "conditions": {"ready": True, "serving": True, "terminating": False},
                         "nodeName": NODES[1], "targetRef": {"kind": "Pod", "name": pod_name("cart"), "namespace": NS}}],
          "ports": [{"name": "tcp-service", "port": 8080, "protocol": "TCP"}]}
    inc.periodic(ep, ts[::2])
    inc.edge_down[("frontend", "cart")] = (ct + timedelta(seconds=5), inc.end, "14 UNAVAILABLE: No connection established. Last error: connect ETIMEDOUT 10.96.88.12:8080")
    inc.edge_down[("checkout", "cart")] = (inc.end, inc.end, "")
    for i in range(15):
        t = t0 + timedelta(seconds=10 + 47 * i)
        inc.log(t, "frontend", "ERROR", "Error: 14 UNAVAILABLE: No connection established. Last error: connect ETIMEDOUT 10.96.88.12:8080 (cart GetCart)")
        if i % 5 == 0:
            inc.log(t + timedelta(seconds=2), "frontend-proxy", "WARN", '[%s] "GET /api/cart?sessionId=%s&currencyCode=USD HTTP/1.1" 500 - 0 37 20012 20011 "-" "python-requests/2.32.3"' % (iso(t), h(str(i), 8)))
    inc.pod_metrics["cart"] = {"container_cpu_usage_seconds_total:rate5m": lambda t: 0.012 if t >= ct else None}
    victim_alerts(inc, [("RequestErrorRate", "frontend", 1, "critical"), ("RequestErrorRate", "frontend-proxy", 2, "warning"),
                        ("RequestLatency", "frontend", 2, "warning")])
    finish_objects(inc, ts)
    g, al = chain_groups("cart", "frontend", "frontend-proxy")
    g.insert(0, grp("cart-service-config-1", "Service", "cart", root=True, regex=False))
    al = al[1:]  # cart Service is the root cause itself
    inc.gt = make_gt(inc.n, [x for x in g if x["id"] != "cart-service-1"], al,
                     {"category": "Change", "condition": "cart Service internalTrafficPolicy changed from Cluster to Local; the only cart endpoint is on another node than frontend",
                      "entity": {"group_id": "cart-service-config-1", "kind": "Service", "name": "cart"}, "fault_mechanism": "custom"},
                     [("cart-service-config-1", "frontend-service-1", "no node-local cart endpoint on frontend's node", "frontend calls to cart time out; frontend error rate above threshold"),
                      ("frontend-service-1", "frontend-proxy-service-1", "cart API 500s", "frontend-proxy error rate above threshold")],
                     [("frontend-service-1", "RequestErrorRate"), ("frontend-proxy-service-1", "RequestErrorRate"), ("frontend-service-1", "RequestLatency")])


# ---------------------------------------------------------------- 11 GCPChaos node-stop
def s_gcpchaos(inc):
    ts = noise(inc, "fraud-detection", ("ad", "env"), "frontend-proxy")
    t0 = inc.t0
    node = "gke-otel-demo-pool-b-7f3c9a21-x2kq"
    ct = t0 - timedelta(seconds=35)
    spec = {"action": "node-stop", "secretName": "gcp-chaos-sa", "project": "shop-staging-41822",
            "zone": "us-central1-b", "instance": node, "duration": "15m"}
    co = chaos_obj("GCPChaos", "zone-b-node-outage", spec, ct)
    co["status"]["experiment"]["containerRecords"] = [{"id": f"projects/shop-staging-41822/zones/us-central1-b/instances/{node}", "phase": "Injected", "injectedCount": 1}]
    inc.periodic(co, [t for t in ts if t >= ct])
    chaos_events(inc, "GCPChaos", "zone-b-node-outage", ct, f"projects/shop-staging-41822/zones/us-central1-b/instances/{node}")
    inc.event(t0 + timedelta(seconds=40), "Node", node, "NodeNotReady", f"Node {node} status is now: NodeNotReady", "Normal", ns="default", comp="node-controller")
    for s in ("valkey-cart", "shipping"):
        pn = "valkey-cart-0" if s == "valkey-cart" else pod_name(s)
        inc.event(t0 + timedelta(seconds=41), "Pod", pn, "NodeNotReady", "Node is not ready", "Warning", comp="node-controller")
        inc.event(t0 + timedelta(minutes=5, seconds=41), "Pod", pn, "TaintManagerEviction", f"Marking for deletion Pod {NS}/{pn}", comp="taint-controller")
    pend = "0/3 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 2 node(s) had volume node affinity conflict."
    inc.event(t0 + timedelta(minutes=5, seconds=50), "Pod", "valkey-cart-0", "FailedScheduling", pend, "Warning", 3, comp="default-scheduler")
    inc.event(t0 + timedelta(minutes=6), "Pod", pod_name("shipping", "n"), "Scheduled", f"Successfully assigned otel-demo/{pod_name('shipping', 'n')} to gke-otel-demo-pool-a-1c9e02f4-m7wd", comp="default-scheduler")
    inc.down["valkey-cart"] = (t0, inc.end, "")
    inc.down["shipping"] = (t0, t0 + timedelta(minutes=6, seconds=30), "14 UNAVAILABLE: upstream connect error")
    inc.errors["cart"] = (t0, inc.end, 0.93, 3.0, "Can't access cart storage. StackExchange.Redis.RedisConnectionException: It was not possible to connect to the redis server(s). UnableToConnect on valkey-cart:6379/Interactive")
    for i in range(15):
        t = t0 + timedelta(seconds=15 + 48 * i)
        inc.log(t, "cart", "ERROR", "Can't access cart storage. StackExchange.Redis.RedisConnectionException: It was not possible to connect to the redis server(s). UnableToConnect on valkey-cart:6379/Interactive, Initializing/NotStarted, last: NONE")
        inc.log(t + timedelta(seconds=2), "frontend", "ERROR", "Error: 9 FAILED_PRECONDITION: Can't access cart storage.")
    victim_alerts(inc, [("RequestErrorRate", "cart", 1, "critical"), ("RequestErrorRate", "frontend", 1, "critical"),
                        ("RequestErrorRate", "checkout", 2, "warning"), ("KubePodNotReady", "valkey-cart", 3, "warning")])
    inc.alerts.append(("KubeNodeNotReady", "", t0 + timedelta(minutes=2), "warning", f"{node} has been unready for more than 1 minute", {"node": node}))
    finish_objects(inc, ts)
    g, al = chain_groups("cart", "frontend", "checkout", "shipping")
    g = [grp("zone-b-node-outage-1", "GCPChaos", ".*zone-b-node-outage", ns=CHAOS_NS, root=True, name="zone-b-node-outage"),
         grp("valkey-cart-pod-1", "Pod", "valkey-cart-.*"), grp("valkey-cart-service-1", "Service", r"valkey-cart\b")] + g
    al = [["valkey-cart-pod-1", "valkey-cart-service-1"]] + al
    inc.gt = make_gt(inc.n, g, al,
                     {"category": "Resource Unavailable", "condition": "GCPChaos node-stop stops the GCE instance hosting valkey-cart and shipping",
                      "entity": {"group_id": "zone-b-node-outage-1", "kind": "GCPChaos", "name": "zone-b-node-outage"}, "fault_mechanism": "chaos"},
                     [("zone-b-node-outage-1", "valkey-cart-pod-1", "node stopped", "valkey-cart unreachable, cannot reschedule (zonal volume)"),
                      ("valkey-cart-service-1", "cart-service-1", "redis connection fails", "cart error rate above threshold"),
                      ("cart-service-1", "frontend-service-1", "cart errors", "frontend error rate above threshold"),
                      ("cart-service-1", "checkout-service-1", "cart errors", "checkout error rate above threshold")],
                     [("cart-service-1", "RequestErrorRate"), ("frontend-service-1", "RequestErrorRate"),
                      ("checkout-service-1", "RequestErrorRate"), ("valkey-cart-pod-1", "KubePodNotReady")])


# ---------------------------------------------------------------- 12 hostPort conflict leaves quote Pending
def s_hostport(inc):
    ts = noise(inc, "load-generator", ("payment", "annotation"), "cart")
    t0 = inc.t0
    dep = inc.base_deps["quote"]
    dep["spec"]["strategy"] = {"type": "Recreate"}
    new = copy.deepcopy(dep)
    new["spec"]["template"]["spec"]["containers"][0]["ports"] = [{"containerPort": 8080, "hostPort": 9100, "name": "service", "protocol": "TCP"}]
    new["metadata"]["generation"] += 1
    new["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = "5"
    new["status"] = {"replicas": 1, "readyReplicas": 0, "availableReplicas": 0, "unavailableReplicas": 1, "updatedReplicas": 1}
    ct = t0 - timedelta(seconds=25)
    inc.touched.add("quote")
    inc.periodic(dep, [t for t in ts if t < ct])
    inc.periodic(new, [t for t in ts if t >= ct])
    ds = {"apiVersion": "apps/v1", "kind": "DaemonSet",
          "metadata": {"name": "node-exporter", "namespace": "prometheus", "resourceVersion": "3011"},
          "spec": {"template": {"spec": {"hostNetwork": True, "containers": [{"name": "node-exporter", "image": "quay.io/prometheus/node-exporter:v1.9.1",
                                                                                 "ports": [{"containerPort": 9100, "hostPort": 9100, "name": "metrics"}]}]}}},
          "status": {"desiredNumberScheduled": 3, "numberReady": 3}}
    inc.periodic(ds, ts[::3])
    rs_new = pod_name("quote", "hp").rsplit("-", 1)[0]
    inc.event(ct + timedelta(seconds=1), "Deployment", "quote", "ScalingReplicaSet", f"Scaled down replica set {pod_name('quote').rsplit('-', 1)[0]} to 0 from 1", comp="deployment-controller")
    inc.event(ct + timedelta(seconds=31), "Deployment", "quote", "ScalingReplicaSet", f"Scaled up replica set {rs_new} to 1", comp="deployment-controller")
    msg = "0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."
    inc.event(ct + timedelta(seconds=32), "Pod", pod_name("quote", "hp"), "FailedScheduling", msg, "Warning", 1, comp="default-scheduler")
    inc.event(t0 + timedelta(minutes=6), "Pod", pod_name("quote", "hp"), "FailedScheduling", msg, "Warning", 7, comp="default-scheduler")
    inc.periodic(pod("quote", t0, phase="Pending", ready=False, salt="hp", message=msg), [t for t in ts if t >= ct])
    inc.down["quote"] = (ct + timedelta(seconds=2), inc.end, "")
    inc.errors["shipping"] = (ct + timedelta(seconds=2), inc.end, 1.0, 1.0, "failed to get quote: error sending request for url (http://quote:8080/getquote): error trying to connect: tcp connect error: Connection refused (os error 111)")
    for i in range(15):
        t = t0 + timedelta(seconds=5 + 50 * i)
        inc.log(t, "shipping", "ERROR", "failed to get quote: error sending request for url (http://quote:8080/getquote): error trying to connect: tcp connect error: Connection refused (os error 111)")
        if i % 2 == 0:
            inc.log(t + timedelta(seconds=1), "checkout", "ERROR", "shipping quote failure: rpc error: code = Internal desc = failed to get quote")
    victim_alerts(inc, [("RequestErrorRate", "shipping", 1, "critical"), ("RequestErrorRate", "checkout", 2, "critical"),
                        ("RequestErrorRate", "frontend", 2, "warning"), ("KubeDeploymentReplicasMismatch", "quote", 5, "warning")])
    finish_objects(inc, ts)
    g, al = chain_groups("quote", "shipping", "checkout", "frontend")
    g.insert(0, grp("quote-deployment-1", "Deployment", "quote", root=True, regex=False))
    al.insert(0, ["quote-deployment-1", "quote-pod-1"])
    inc.gt = make_gt(inc.n, g, al,
                     {"category": "Change", "condition": "quote Deployment given hostPort 9100 already held by node-exporter on every node; Recreate strategy removed the old pod first",
                      "entity": {"group_id": "quote-deployment-1", "kind": "Deployment", "name": "quote"}, "fault_mechanism": "custom"},
                     [("quote-deployment-1", "quote-pod-1", "hostPort conflict", "quote pod Pending, no quote endpoint"),
                      ("quote-service-1", "shipping-service-1", "connection refused", "shipping error rate above threshold"),
                      ("shipping-service-1", "checkout-service-1", "quote failure", "checkout error rate above threshold"),
                      ("shipping-service-1", "frontend-service-1", "quote failure", "frontend error rate above threshold")],
                     [("shipping-service-1", "RequestErrorRate"), ("checkout-service-1", "RequestErrorRate"),
                      ("frontend-service-1", "RequestErrorRate"), ("quote-deployment-1", "KubeDeploymentReplicasMismatch")])


# ---------------------------------------------------------------- 13 PDB relaxed to 100% + node drain
def s_pdb(inc):
    ts = noise(inc, "accounting", ("recommendation", "env"), "ad")
    t0 = inc.t0
    dep = inc.base_deps["cart"]
    dep["spec"]["replicas"] = 2
    dep["status"].update({"replicas": 2, "readyReplicas": 2, "availableReplicas": 2, "updatedReplicas": 2})
    inc.touched.add("cart")
    down = copy.deepcopy(dep)
    down["status"] = {"replicas": 2, "readyReplicas": 0, "availableReplicas": 0, "updatedReplicas": 2, "unavailableReplicas": 2}
    rec = t0 + timedelta(minutes=4, seconds=10)
    inc.periodic(dep, [t for t in ts if t < t0 or t >= rec])
    inc.periodic(down, [t for t in ts if t0 <= t < rec])
    pdb = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
           "metadata": {"name": "cart-pdb", "namespace": NS, "resourceVersion": "50501",
                        "labels": {"app.kubernetes.io/part-of": "opentelemetry-demo"}},
           "spec": {"minAvailable": 1, "selector": {"matchLabels": {"opentelemetry.io/name": "cart"}}},
           "status": {"currentHealthy": 2, "desiredHealthy": 1, "disruptionsAllowed": 1, "expectedPods": 2}}
    new = copy.deepcopy(pdb)
    new["spec"] = {"maxUnavailable": "100%", "selector": {"matchLabels": {"opentelemetry.io/name": "cart"}}}
    new["status"] = {"currentHealthy": 2, "desiredHealthy": 0, "disruptionsAllowed": 2, "expectedPods": 2}
    new["metadata"]["annotations"] = {"change-ticket": "CHG-20931 unblock node-pool upgrade"}
    ct = t0 - timedelta(minutes=13, seconds=8)
    inc.periodic(pdb, [t for t in ts if t < ct])
    inc.periodic(new, [t for t in ts if t >= ct])
    node = NODES[2]
    newnode = "ip-10-0-3-142.ec2.internal"
    inc.event(t0 - timedelta(seconds=30), "Node", node, "NodeNotSchedulable", f"Node {node} status is now: NodeNotSchedulable", ns="default")
    inc.event(t0 - timedelta(seconds=25), "Node", newnode, "NodeReady", f"Node {newnode} status is now: NodeReady", ns="default")
    pods = [pod_name("cart"), pod_name("cart", "b")]
    inc.touched.add("pod:cart")
    for i, pn in enumerate(pods):
        inc.periodic(pod("cart", t0, node=node, salt="" if i == 0 else "b"), [t for t in ts if t < t0][::2])
        inc.event(t0 + timedelta(seconds=i), "Pod", pn, "Killing", "Stopping container cart", comp="kubelet", host=node)
        np_ = pod_name("cart", f"n{i}")
        inc.event(t0 + timedelta(seconds=2 + i), "ReplicaSet", pod_name("cart").rsplit("-", 1)[0], "SuccessfulCreate", f"Created pod: {np_}", comp="replicaset-controller")
        inc.event(t0 + timedelta(seconds=3 + i), "Pod", np_, "Scheduled", f"Successfully assigned otel-demo/{np_} to {newnode}", comp="default-scheduler")
        inc.event(t0 + timedelta(seconds=4 + i), "Pod", np_, "Pulling", 'Pulling image "ghcr.io/open-telemetry/demo:2.0.2-cart"', host=newnode)
        inc.event(t0 + timedelta(minutes=2, seconds=41 + i), "Pod", np_, "Pulled", 'Successfully pulled image "ghcr.io/open-telemetry/demo:2.0.2-cart" in 2m37.118s (2m37.118s including waiting). Image size: 98214312 bytes.', host=newnode)
        inc.event(t0 + timedelta(minutes=2, seconds=43 + i), "Pod", np_, "Started", "Started container cart", host=newnode)
        inc.event(t0 + timedelta(minutes=3, seconds=10), "Pod", np_, "Unhealthy", "Readiness probe failed: timeout: failed to connect service \":8080\" within 1s", "Warning", 3, host=newnode)
        pp = pod("cart", t0, phase="Pending", ready=False, salt=f"n{i}", message="")
        pp["spec"]["nodeName"] = newnode
        pp["status"]["conditions"] = [{"type": "PodScheduled", "status": "True"}, {"type": "Ready", "status": "False"}]
        pp["status"]["containerStatuses"] = [{"name": "cart", "ready": False, "restartCount": 0, "state": {"waiting": {"reason": "ContainerCreating"}}}]
        inc.periodic(pp, [t for t in ts if t0 <= t < rec])
        inc.periodic(pod("cart", t0, node=newnode, salt=f"n{i}"), [t for t in ts if t >= rec])
    for s in ("product-reviews", "image-provider"):
        inc.event(t0 + timedelta(seconds=6), "Pod", pod_name(s), "Killing", f"Stopping container {s}", host=node)
        inc.event(t0 + timedelta(seconds=8), "Pod", pod_name(s, "n"), "Scheduled", f"Successfully assigned otel-demo/{pod_name(s, 'n')} to {NODES[0]}", comp="default-scheduler")
    inc.down["cart"] = (t0 + timedelta(seconds=2), rec, "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 10.96.88.12:8080")
    for i in range(11):
        t = t0 + timedelta(seconds=8 + 22 * i)
        inc.log(t, "frontend", "ERROR", "Error: 14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 10.96.88.12:8080 (cart)")
        if i % 2:
            inc.log(t + timedelta(seconds=3), "checkout", "ERROR", "failed to get user cart during checkout: rpc error: code = Unavailable desc = connection error")
    inc.log(rec + timedelta(seconds=5), "cart", "INFO", "Application started. Press Ctrl+C to shut down.")
    victim_alerts(inc, [("RequestErrorRate", "frontend", 1, "critical"), ("RequestErrorRate", "checkout", 1, "warning"),
                        ("KubeDeploymentReplicasMismatch", "cart", 2, "warning")])
    finish_objects(inc, ts)
    g, al = chain_groups("cart", "frontend", "checkout")
    g.insert(0, grp("cart-pdb-1", "PodDisruptionBudget", "cart-pdb", root=True, regex=False))
    g.insert(1, grp("cart-deployment-1", "Deployment", "cart", regex=False))
    al.insert(0, ["cart-deployment-1", "cart-pod-1"])
    inc.gt = make_gt(inc.n, g, al,
                     {"category": "Change", "condition": "cart-pdb changed from minAvailable 1 to maxUnavailable 100%; a routine node drain then evicted both cart replicas at once",
                      "entity": {"group_id": "cart-pdb-1", "kind": "PodDisruptionBudget", "name": "cart-pdb"}, "fault_mechanism": "custom"},
                     [("cart-pdb-1", "cart-pod-1", "PDB allows all replicas to be disrupted", "drain evicts both cart pods together; replacements need a cold image pull"),
                      ("cart-pod-1", "cart-service-1", "no ready endpoints", "cart unavailable for ~4 minutes"),
                      ("cart-service-1", "frontend-service-1", "cart calls refused", "frontend error rate above threshold"),
                      ("cart-service-1", "checkout-service-1", "cart calls refused", "checkout error rate above threshold")],
                     [("frontend-service-1", "RequestErrorRate"), ("checkout-service-1", "RequestErrorRate"),
                      ("cart-deployment-1", "KubeDeploymentReplicasMismatch")])


# =========================================================================== main
STYLES = {
    1: dict(events_v1=False, obj_enc="plain", alert_env="data", tags="json", metric_iso=True, kind_prefix=True),
    2: dict(events_v1=True, obj_enc="double", alert_env="alerts", tags="py", metric_iso=False, kind_prefix=False, ra_json=False, traces_per_min=7),
    3: dict(events_v1=False, obj_enc="managed", alert_env="bare", tags="json", metric_iso=True, kind_prefix=True, traces_per_min=12),
}

SCEN = [  # (builder, t0, style)
    ("s_rbac", datetime(2026, 3, 2, 14, 7, 12, 481000, tzinfo=UTC), 1),
    ("s_emptydir", datetime(2026, 3, 3, 9, 41, 55, 12000, tzinfo=UTC), 2),
    ("s_rofs", datetime(2026, 3, 4, 10, 2, 31, 900000, tzinfo=UTC), 3),
    ("s_topology", datetime(2026, 3, 5, 22, 18, 4, 77000, tzinfo=UTC), 1),
    ("s_cronjob", datetime(2026, 3, 6, 13, 0, 41, 250000, tzinfo=UTC), 2),
    ("s_pgdisk", datetime(2026, 3, 8, 3, 33, 9, 600000, tzinfo=UTC), 3),
    ("s_memstress", datetime(2026, 3, 9, 16, 45, 0, 5000, tzinfo=UTC), 2),
    ("s_podfailure", datetime(2026, 3, 10, 11, 12, 12, 120000, tzinfo=UTC), 1),
    ("s_badjson", datetime(2026, 3, 11, 19, 27, 48, 330000, tzinfo=UTC), 3),
    ("s_itp", datetime(2026, 3, 12, 8, 5, 20, 700000, tzinfo=UTC), 2),
    ("s_gcpchaos", datetime(2026, 3, 13, 17, 51, 36, 440000, tzinfo=UTC), 1),
    ("s_hostport", datetime(2026, 3, 14, 6, 39, 2, 810000, tzinfo=UTC), 3),
    ("s_pdb", datetime(2026, 3, 16, 2, 14, 57, 390000, tzinfo=UTC), 2),
]


def main():
    if len(sys.argv) != 2:
        print("usage: gen.py OUT", file=sys.stderr)
        sys.exit(2)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for i, (fn, t0, st) in enumerate(SCEN, 1):
        stale = os.path.join(out, f"Scenario-{i}")
        if os.path.isdir(stale):  # rewrite from scratch so no file of an earlier run lingers
            shutil.rmtree(stale)
        inc = Incident(i, 15000 + i, t0, dict(STYLES[st]))
        globals()[fn](inc)
        inc.write(out)
    print(f"wrote {len(SCEN)} scenarios to {out}")


if __name__ == "__main__":
    main()
