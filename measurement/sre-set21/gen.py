#!/usr/bin/env python3
"""sre-set21: 8 offline SRE incident snapshots (ITBench-Lite layout) with ground truth.

Usage: python gen.py OUT     -> OUT/Scenario-<N>/...   (stdlib only, deterministic)
"""
from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
import os
import random
import sys

NS = "otel-demo"
ALNUM = "bcdfghjklmnpqrstvwxz2456789"

# ----------------------------------------------------------------------------- helpers


def utc(y, mo, d, h, mi, s=0):
    return dt.datetime(y, mo, d, h, mi, s, tzinfo=dt.timezone.utc)


def iso_z(t, frac=False):
    if frac:
        return t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def ch_ts(t, style):
    """Timestamp column of a ClickHouse export row."""
    if style == "ch9":
        return t.strftime("%Y-%m-%d %H:%M:%S.%f") + "000"
    if style == "iso":
        return t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    raise ValueError(style)


def hexid(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def uid(rng):
    h = hexid(rng, 32)
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def suffix(rng, n):
    return "".join(rng.choice(ALNUM) for _ in range(n))


def write_tsv(path, header, rows):
    buf = io.StringIO()
    w = csv.writer(buf, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    w.writerow(header)
    for r in rows:
        w.writerow(r)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(buf.getvalue())


def jd(o):
    return json.dumps(o, separators=(",", ":"), sort_keys=False)


def yaml_scalar(v):
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if isinstance(v, (int, float)):
        return str(v)
    s = str(v)
    plain_ok = (
        s
        and all(c.isalnum() or c in "-_./ " for c in s)
        and not s[0] in "-. "
        and s.strip() == s
        and s.lower() not in ("true", "false", "null", "yes", "no", "on", "off", "~")
        and not s.replace(".", "").isdigit()
    )
    return s if plain_ok else json.dumps(s)


def yaml_dump(o, indent=0):
    pad = " " * indent
    out = []
    if isinstance(o, dict):
        for k, v in o.items():
            if isinstance(v, (dict, list)) and v:
                out.append(f"{pad}{k}:")
                out.append(yaml_dump(v, indent + 2))
            elif isinstance(v, (dict, list)):
                out.append(f"{pad}{k}: {'{}' if isinstance(v, dict) else '[]'}")
            else:
                out.append(f"{pad}{k}: {yaml_scalar(v)}")
    elif isinstance(o, list):
        for v in o:
            if isinstance(v, (dict, list)) and v:
                sub = yaml_dump(v, indent + 2).split("\n")
                first = sub[0][indent + 2 :]
                out.append(f"{pad}- {first}")
                out.extend(sub[1:])
            else:
                out.append(f"{pad}- {yaml_scalar(v)}")
    return "\n".join(out)


# ----------------------------------------------------------------------------- the app

# deployment name -> (otel service.name, container port, language, base rps, base latency ms)
APP = {
    "frontend-proxy": ("frontend-proxy", 8080, "envoy", 9.0, 4),
    "frontend": ("frontend", 8080, "nodejs", 9.0, 12),
    "ad": ("ad", 8080, "java", 2.2, 3),
    "cart": ("cart", 8080, "dotnet", 3.5, 2),
    "checkout": ("checkout", 8080, "go", 0.6, 18),
    "currency": ("currency", 8080, "cpp", 6.0, 1),
    "email": ("email", 8080, "ruby", 0.6, 6),
    "payment": ("payment", 8080, "nodejs", 0.6, 3),
    "product-catalog": ("product-catalog", 8080, "go", 7.0, 2),
    "quote": ("quote", 8080, "php", 1.1, 3),
    "recommendation": ("recommendation", 8080, "python", 2.0, 5),
    "shipping": ("shipping", 8080, "rust", 1.1, 4),
    "accounting": ("accounting", 0, "dotnet", 0.6, 9),
    "fraud-detection": ("fraud-detection", 0, "kotlin", 0.6, 7),
    "kafka": ("kafka", 9092, "java", 1.2, 1),
    "valkey-cart": ("valkey-cart", 6379, "c", 4.0, 1),
    "load-generator": ("load-generator", 8089, "python", 9.0, 30),
    "flagd": ("flagd", 8013, "go", 3.0, 1),
    "image-provider": ("image-provider", 8081, "nginx", 4.0, 1),
    "product-reviews": ("product-reviews", 8080, "python", 1.0, 6),
}
IMG_TAG = "2.1.3"


def image_of(dep):
    if dep in ("kafka",):
        return f"ghcr.io/open-telemetry/demo:{IMG_TAG}-kafka"
    if dep == "valkey-cart":
        return "valkey/valkey:8.1.3-alpine"
    return f"ghcr.io/open-telemetry/demo:{IMG_TAG}-{dep}"


class Cluster:
    """Holds pod names and a tiny object model so every file agrees with every other."""

    def __init__(self, rng, nodes):
        self.rng = rng
        self.nodes = nodes
        self.rs = {}
        self.pods = {}  # dep -> list of dicts {name, node, uid, start}
        self.uids = {}
        for dep in APP:
            self.rs[dep] = suffix(rng, 10 if rng.random() < 0.5 else 9)
            self.pods[dep] = [self.new_pod(dep, None)]

    def new_pod(self, dep, start, rs=None):
        rs = rs or self.rs[dep]
        return {
            "name": f"{dep}-{rs}-{suffix(self.rng, 5)}",
            "node": self.rng.choice(self.nodes),
            "uid": uid(self.rng),
            "start": start,
            "rs": rs,
        }

    def pod(self, dep, t=None):
        if t is None:
            return self.pods[dep][-1]["name"]
        live = [p for p in self.pods[dep] if p["start"] is None or p["start"] <= t]
        return (live or self.pods[dep])[-1]["name"]

    def uid_of(self, key):
        if key not in self.uids:
            self.uids[key] = uid(self.rng)
        return self.uids[key]


def deployment_obj(cl, dep, t, generation=3, containers=None, annotations=None, managed=True,
                   replicas=1, extra_spec=None, rv=None):
    svc, port, lang, _, _ = APP[dep]
    c = {
        "name": dep,
        "image": image_of(dep),
        "imagePullPolicy": "IfNotPresent",
        "env": [
            {"name": "OTEL_SERVICE_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels['app.kubernetes.io/component']"}}},
            {"name": "OTEL_COLLECTOR_NAME", "value": "otel-collector"},
            {"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://$(OTEL_COLLECTOR_NAME):4317"},
            {"name": "FLAGD_HOST", "value": "flagd"},
            {"name": "FLAGD_PORT", "value": "8013"},
        ],
        "resources": {"limits": {"memory": "300Mi" if lang in ("java", "kotlin") else "120Mi"}},
        "terminationMessagePath": "/dev/termination-log",
        "terminationMessagePolicy": "File",
    }
    if port:
        c["ports"] = [{"containerPort": port, "name": "service", "protocol": "TCP"}]
    if containers:
        c = containers(c)
    meta = {
        "name": dep,
        "namespace": NS,
        "uid": cl.uid_of(("deploy", dep)),
        "resourceVersion": str(rv or 100000 + hash_int(dep) % 90000),
        "generation": generation,
        "creationTimestamp": "2026-01-08T09:12:44Z",
        "labels": {
            "app.kubernetes.io/component": dep,
            "app.kubernetes.io/name": dep,
            "app.kubernetes.io/part-of": "opentelemetry-demo",
            "app.kubernetes.io/managed-by": "Helm",
            "helm.sh/chart": "opentelemetry-demo-0.37.2",
        },
        "annotations": {"deployment.kubernetes.io/revision": str(generation), "meta.helm.sh/release-name": "otel-demo",
                        "meta.helm.sh/release-namespace": NS},
    }
    if annotations:
        meta["annotations"].update(annotations)
    if managed:
        meta["managedFields"] = [
            {"manager": "helm", "operation": "Update", "apiVersion": "apps/v1", "time": "2026-01-08T09:12:44Z",
             "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:replicas": {}, "f:template": {}}}},
            {"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "apps/v1",
             "time": iso_z(t - dt.timedelta(hours=3)), "fieldsType": "FieldsV1", "subresource": "status",
             "fieldsV1": {"f:status": {"f:availableReplicas": {}}}},
        ]
    spec = {
        "replicas": replicas,
        "revisionHistoryLimit": 10,
        "selector": {"matchLabels": {"app.kubernetes.io/name": dep}},
        "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
        "template": {
            "metadata": {"labels": {"app.kubernetes.io/component": dep, "app.kubernetes.io/name": dep,
                                    "opentelemetry.io/name": dep}},
            "spec": {"containers": [c], "serviceAccountName": "otel-demo", "restartPolicy": "Always",
                     "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst"},
        },
    }
    if extra_spec:
        extra_spec(spec)
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta, "spec": spec,
            "status": {"replicas": replicas, "readyReplicas": replicas, "availableReplicas": replicas,
                       "updatedReplicas": replicas, "observedGeneration": generation}}


def service_obj(cl, dep, port=None, target=None, managed=False):
    svc, p, _, _, _ = APP[dep]
    port = port or p
    o = {
        "apiVersion": "v1", "kind": "Service",
        "metadata": {"name": dep, "namespace": NS, "uid": cl.uid_of(("svc", dep)),
                     "resourceVersion": str(90000 + hash_int("s" + dep) % 9000),
                     "creationTimestamp": "2026-01-08T09:12:43Z",
                     "labels": {"app.kubernetes.io/component": dep, "app.kubernetes.io/name": dep,
                                "app.kubernetes.io/part-of": "opentelemetry-demo"}},
        "spec": {"type": "ClusterIP", "clusterIP": f"10.96.{hash_int(dep) % 250}.{hash_int(dep + 'x') % 250}",
                 "selector": {"opentelemetry.io/name": dep},
                 "ports": [{"name": "tcp-service", "port": port, "protocol": "TCP", "targetPort": target or port}],
                 "sessionAffinity": "None", "internalTrafficPolicy": "Cluster"},
        "status": {"loadBalancer": {}},
    }
    if managed:
        o["metadata"]["managedFields"] = [{"manager": "helm", "operation": "Update", "apiVersion": "v1",
                                           "time": "2026-01-08T09:12:43Z", "fieldsType": "FieldsV1",
                                           "fieldsV1": {"f:spec": {"f:ports": {}}}}]
    return o


def pod_obj(cl, dep, p, t, phase="Running", ready=True, restarts=0, last_state=None, waiting=None,
            mutate=None):
    c = deployment_obj(cl, dep, t, managed=False)["spec"]["template"]["spec"]["containers"][0]
    cs = {"name": dep, "image": image_of(dep), "ready": ready, "restartCount": restarts, "started": ready,
          "containerID": "containerd://" + hashlib.sha256(p["name"].encode()).hexdigest()}
    if waiting:
        cs["state"] = {"waiting": waiting}
    else:
        cs["state"] = {"running": {"startedAt": iso_z(p["start"] or t - dt.timedelta(days=2))}}
    if last_state:
        cs["lastState"] = last_state
    o = {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": p["name"], "namespace": NS, "uid": p["uid"],
                     "generateName": f"{dep}-{p['rs']}-",
                     "labels": {"app.kubernetes.io/name": dep, "opentelemetry.io/name": dep,
                                "pod-template-hash": p["rs"]},
                     "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": f"{dep}-{p['rs']}",
                                          "controller": True, "blockOwnerDeletion": True,
                                          "uid": cl.uid_of(("rs", dep, p["rs"]))}]},
        "spec": {"containers": [c], "nodeName": p["node"], "serviceAccountName": "otel-demo",
                 "priority": 0, "schedulerName": "default-scheduler"},
        "status": {"phase": phase, "hostIP": "10.0.%d.%d" % (hash_int(p["node"]) % 3 + 1, hash_int(p["node"]) % 200 + 10),
                   "podIP": "10.244.%d.%d" % (hash_int(p["name"]) % 8, hash_int(p["name"]) % 250 + 2),
                   "qosClass": "Burstable",
                   "conditions": [{"type": "Ready", "status": "True" if ready else "False"}],
                   "containerStatuses": [cs]},
    }
    if mutate:
        mutate(o)
    return o


def hash_int(s):
    return int(hashlib.md5(s.encode()).hexdigest()[:8], 16)


# ----------------------------------------------------------------------------- traffic simulation

# route -> list of calls (caller, callee, span name, critical)
ROUTES = {
    "GET /api/products": [("frontend", "product-catalog", "oteldemo.ProductCatalogService/ListProducts", True),
                          ("frontend", "currency", "oteldemo.CurrencyService/GetSupportedCurrencies", True)],
    "GET /api/recommendations": [("frontend", "recommendation", "oteldemo.RecommendationService/ListRecommendations", True),
                                 ("recommendation", "product-catalog", "oteldemo.ProductCatalogService/ListProducts", True)],
    "GET /api/data": [("frontend", "ad", "oteldemo.AdService/GetAds", True)],
    "GET /api/cart": [("frontend", "cart", "oteldemo.CartService/GetCart", True),
                      ("cart", "valkey-cart", "HGET", True)],
    "POST /api/cart": [("frontend", "cart", "oteldemo.CartService/AddItem", True),
                       ("cart", "valkey-cart", "HMSET", True)],
    "GET /api/shipping": [("frontend", "shipping", "oteldemo.ShippingService/GetQuote", True),
                          ("shipping", "quote", "POST /getquote", True)],
    "POST /api/checkout": [("frontend", "checkout", "oteldemo.CheckoutService/PlaceOrder", True),
                           ("checkout", "cart", "oteldemo.CartService/GetCart", True),
                           ("cart", "valkey-cart", "HGET", True),
                           ("checkout", "product-catalog", "oteldemo.ProductCatalogService/GetProduct", True),
                           ("checkout", "currency", "oteldemo.CurrencyService/Convert", True),
                           ("checkout", "shipping", "oteldemo.ShippingService/GetQuote", True),
                           ("shipping", "quote", "POST /getquote", True),
                           ("checkout", "payment", "oteldemo.PaymentService/Charge", True),
                           ("checkout", "shipping", "oteldemo.ShippingService/ShipOrder", True),
                           ("checkout", "cart", "oteldemo.CartService/EmptyCart", True),
                           ("cart", "valkey-cart", "EXPIRE", True),
                           ("checkout", "email", "oteldemo.EmailService/SendOrderConfirmation", False),
                           ("checkout", "kafka", "orders publish", False)],
}
ROUTE_W = {"GET /api/products": 5, "GET /api/recommendations": 3, "GET /api/data": 3, "GET /api/cart": 3,
           "POST /api/cart": 2, "GET /api/shipping": 1, "POST /api/checkout": 1}


class Fault:
    """Default: no fault. Subclass per incident.

    edge(t, caller, callee, name) -> None | dict(kind=client_error|server_error|latency|drop, msg, ms)
    """

    def edge(self, t, caller, callee, name):
        return None


def simulate(rng, cl, t0, minutes, fault, per_min=7):
    traces = []
    for m in range(minutes):
        for _ in range(per_min):
            t = t0 + dt.timedelta(seconds=m * 60 + rng.random() * 60)
            route = rng.choices(list(ROUTE_W), weights=list(ROUTE_W.values()))[0]
            traces.append(one_trace(rng, cl, t, route, fault))
    traces.sort(key=lambda tr: tr[0]["start"])
    return traces


def one_trace(rng, cl, t, route, fault):
    tid = hexid(rng, 32)
    spans = []
    root = {"sid": hexid(rng, 16), "parent": "", "svc": "frontend-proxy", "name": "ingress", "kind": "Server",
            "start": t, "ms": 0.0, "err": False, "msg": "", "attrs": {"http.method": route.split()[0],
                                                                        "http.url": "http://frontend-proxy:8080" + route.split()[1],
                                                                        "upstream_cluster": "frontend"}}
    fe = {"sid": hexid(rng, 16), "parent": root["sid"], "svc": "frontend", "name": route, "kind": "Server",
          "start": t + dt.timedelta(milliseconds=1), "ms": 0.0, "err": False, "msg": "",
          "attrs": {"http.route": route.split()[1], "http.method": route.split()[0]}}
    spans += [root, fe]
    server_of = {"frontend": fe}
    cursor = fe["start"] + dt.timedelta(milliseconds=2)
    calls = ROUTES[route]
    # process calls in order; each call's server span becomes parent of the callee's later calls
    child_err = {}
    for caller, callee, name, critical in calls:
        parent = server_of.get(caller)
        if parent is None or parent.get("dead"):
            continue
        eff = fault.edge(t, caller, callee, name) or {}
        base = APP[callee][4] * (0.6 + rng.random() * 0.9)
        kind_client = "Producer" if callee == "kafka" else "Client"
        cspan = {"sid": hexid(rng, 16), "parent": parent["sid"], "svc": caller, "name": name, "kind": kind_client,
                 "start": cursor, "ms": 0.0, "err": False, "msg": "", "attrs": {"rpc.system": "grpc", "peer.service": callee}}
        if callee == "valkey-cart":
            cspan["attrs"] = {"db.system": "redis", "server.address": "valkey-cart", "server.port": 6379,
                              "db.statement": name + " " + hexid(rng, 8)}
        if name.startswith("POST /"):
            cspan["name"] = "POST"
            cspan["attrs"] = {"http.request.method": "POST", "url.full": "http://quote:8080/getquote"}
        if callee == "kafka":
            cspan["attrs"] = {"messaging.system": "kafka", "messaging.destination.name": "orders",
                              "messaging.operation": "publish"}
        spans.append(cspan)
        k = eff.get("kind")
        ms = base
        if k == "latency":
            ms += eff["ms"] * (0.7 + rng.random() * 0.6)
        wire = eff["ms"] * (0.7 + rng.random() * 0.6) if k == "net_latency" else 0.0
        if k in ("client_error", "drop"):
            cspan["ms"] = eff.get("ms", 2.0) * (0.8 + rng.random() * 0.4)
            cspan["err"] = True
            cspan["msg"] = eff["msg"]
        elif callee in ("valkey-cart", "kafka"):
            cspan["ms"] = ms + wire
            if k == "server_error":
                cspan["err"] = True
                cspan["msg"] = eff["msg"]
        else:
            sspan = {"sid": hexid(rng, 16), "parent": cspan["sid"], "svc": callee, "name": name, "kind": "Server",
                     "start": cursor + dt.timedelta(microseconds=300), "ms": ms, "err": False, "msg": "",
                     "attrs": {"rpc.system": "grpc"} if not name.startswith("POST") else {"http.route": "/getquote"}}
            if k == "server_error":
                sspan["err"] = True
                sspan["msg"] = eff["msg"]
                sspan["dead"] = True
            spans.append(sspan)
            server_of[callee] = sspan
            cspan["ms"] = ms + 0.6 + wire
            if k == "server_error":
                cspan["err"] = True
                cspan["msg"] = eff["msg"]
        if eff.get("timeout_ms") and cspan["ms"] > eff["timeout_ms"]:
            cspan["ms"] = eff["timeout_ms"]
            cspan["err"] = True
            cspan["msg"] = "rpc error: code = DeadlineExceeded desc = context deadline exceeded"
        cursor = cursor + dt.timedelta(milliseconds=cspan["ms"] + 0.4)
        if cspan["err"] and critical:
            child_err[caller] = cspan["msg"]
            # a failed critical call aborts the caller's server span
            if caller != "frontend":
                sp = server_of[caller]
                sp["err"] = True
                sp["msg"] = cspan["msg"] if not sp["msg"] else sp["msg"]
                sp["dead"] = True
                child_err["frontend"] = "rpc error: code = Unavailable desc = " + caller + " failed"
            else:
                fe["dead"] = True
    # set durations of server spans bottom up roughly: each server span lasts until its last child ends
    for sp in reversed(spans):
        if sp["kind"] == "Server" and sp is not root:
            kids = [c for c in spans if c["parent"] == sp["sid"]]
            if kids:
                end = max(c["start"] + dt.timedelta(milliseconds=c["ms"]) for c in kids)
                sp["ms"] = max(sp["ms"], (end - sp["start"]).total_seconds() * 1000 + 0.8)
    if "frontend" in child_err:
        fe["err"] = True
        fe["msg"] = child_err["frontend"]
    if fe["ms"] == 0:
        fe["ms"] = APP["frontend"][4] * (0.7 + rng.random() * 0.6)
    root["ms"] = fe["ms"] + APP["frontend-proxy"][4] * (0.5 + rng.random())
    root["err"] = fe["err"]
    root["msg"] = "upstream status 500" if fe["err"] else ""
    for s in spans:
        s["tid"] = tid
        s["route"] = route
    return spans


def trace_rows(cl, traces, ts_style, drop_proxy=False):
    rows = []
    for tr in traces:
        for s in tr:
            if drop_proxy and s["svc"] == "frontend-proxy":
                continue  # the proxy's spans were not exported: frontend roots keep a dangling parent id
            dep = s["svc"]
            res = {"service.name": APP[dep][0], "k8s.namespace.name": NS, "k8s.pod.name": cl.pod(dep, s["start"]),
                   "k8s.deployment.name": dep, "telemetry.sdk.language": APP[dep][2]}
            rows.append([ch_ts(s["start"], ts_style), s["tid"], s["sid"], s["parent"], s["name"],
                         "SPAN_KIND_" + s["kind"].upper() if ts_style == "ch9" else s["kind"],
                         APP[dep][0], jd(res), jd(s["attrs"]), str(int(s["ms"] * 1e6)),
                         "Error" if s["err"] else "Unset", s["msg"] if s["err"] else ""])
    rows.sort(key=lambda r: r[0])
    return rows


TRACE_HDR = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
             "ResourceAttributes", "SpanAttributes", "Duration", "StatusCode", "StatusMessage"]
LOG_HDR = ["Timestamp", "TraceId", "SpanId", "SeverityText", "SeverityNumber", "ServiceName", "Body",
           "ResourceAttributes", "LogAttributes"]
SEV = {"DEBUG": 5, "INFO": 9, "WARN": 13, "WARNING": 13, "ERROR": 17, "FATAL": 21}


def log_row(cl, t, dep, sev, body, ts_style, tid="", sid="", extra=None, pod=None):
    res = {"service.name": APP[dep][0] if dep in APP else dep, "k8s.namespace.name": NS,
           "k8s.pod.name": pod or (cl.pod(dep, t) if dep in APP else dep)}
    return [ch_ts(t, ts_style), tid, sid, sev, str(SEV[sev]), res["service.name"], body, jd(res), jd(extra or {})]


def normal_logs(rng, cl, traces, ts_style, json_style):
    """A thin slice of ordinary application logs correlated with traces."""
    rows = []
    for tr in traces[:: 3]:
        for s in tr:
            if s["kind"] != "Server" or s["svc"] in ("frontend-proxy",):
                continue
            dep = s["svc"]
            if s["err"]:
                msg = f"{s['name']} failed: {s['msg']}"
                sev = "ERROR"
            else:
                if rng.random() < 0.6:
                    continue
                msg = {
                    "frontend": f"{s['name']} 200",
                    "product-catalog": "Loaded 10 products",
                    "currency": "Currency conversion successful",
                    "ad": "Targeted ad request received for [telescopes]",
                    "cart": "GetCartAsync called with userId=" + hexid(rng, 8),
                    "recommendation": "Receive ListRecommendations for product ids:['OLJCESPC7Z', '66VCHSJNUP']",
                    "checkout": "order placed: " + uid(rng),
                    "shipping": "Received quote: $%d.%02d" % (rng.randint(5, 40), rng.randint(0, 99)),
                    "quote": "Calculated quote",
                    "payment": "Transaction complete.",
                    "email": "Order confirmation email sent",
                }.get(dep, "request handled")
                sev = "INFO"
            if json_style and dep in ("payment", "frontend", "recommendation"):
                msg = jd({"level": sev.lower(), "msg": msg, "service": dep})
            rows.append(log_row(cl, s["start"] + dt.timedelta(milliseconds=s["ms"] / 2), dep, sev, msg, ts_style,
                                s["tid"], s["sid"]))
    return rows


# ----------------------------------------------------------------------------- metrics

def service_metrics(rng, cl, t0, minutes, fault, ts_mode, style, step=30, with_buckets=False):
    """service_<svc>.tsv rows per service from the fault model (fraction of failing edges)."""
    files = {}
    for dep in ["frontend", "frontend-proxy", "checkout", "cart", "product-catalog", "currency", "recommendation",
                "ad", "shipping", "quote", "payment", "email", "accounting", "fraud-detection"]:
        svc, _, _, rps, lat = APP[dep]
        rows = []
        n = minutes * 60 // step
        for i in range(n):
            t = t0 + dt.timedelta(seconds=i * step)
            e, l, r = fault.svc_state(t, dep) if hasattr(fault, "svc_state") else (0.0, 1.0, 1.0)
            err = max(0.0, e + rng.gauss(0, 0.002)) if e or rng.random() < 0.3 else 0.0
            rate = rps * r * (0.9 + rng.random() * 0.2)
            p95 = lat * 2.2 * l * (0.85 + rng.random() * 0.3)
            ts = fmt_metric_ts(t, ts_mode)
            tags = {"service_name": svc, "namespace": NS, "job": "opentelemetry-demo/" + svc}
            tg = jd(tags) if style == "json" else repr(tags)
            rows.append(["service:request_rate:1m", ts, "%.4f" % rate, tg])
            rows.append(["service:error_ratio:1m", ts, "%.5f" % min(1.0, err), tg])
            rows.append(["service:latency_p95_ms:1m", ts, "%.2f" % p95, tg])
            if with_buckets:
                for le in ("5", "10", "25", "50", "100", "250", "1000", "+Inf"):
                    lv = float("inf") if le == "+Inf" else float(le)
                    share = 1.0 if lv >= p95 * 3 else min(1.0, 0.95 * lv / max(p95, 0.1))
                    tb = dict(tags, le=le)
                    rows.append(["traces_span_metrics_duration_milliseconds_bucket", ts, "%.3f" % (rate * 30 * share),
                                 jd(tb) if style == "json" else repr(tb)])
        files[f"service_{svc}.tsv"] = rows
    return files


def fmt_metric_ts(t, mode):
    if mode == "epoch":
        return str(int(t.timestamp()))
    if mode == "epoch_ms":
        return str(int(t.timestamp() * 1000))
    return t.strftime("%Y-%m-%d %H:%M:%S")


def pod_metrics(rng, cl, t0, minutes, dep, mem_fn=None, restarts_fn=None, cpu_fn=None, ts_mode="iso",
                style="json", pod=None, step=30, ns=NS, extra_cols=False):
    pod = pod or cl.pod(dep)
    rows = []
    cpu_total = 1000.0 + rng.random() * 500
    for i in range(minutes * 60 // step):
        t = t0 + dt.timedelta(seconds=i * step)
        mem = mem_fn(t) if mem_fn else (60 + hash_int(dep) % 80) * 1048576 * (0.97 + rng.random() * 0.06)
        cpu_rate = cpu_fn(t) if cpu_fn else 0.02 + rng.random() * 0.03
        cpu_total += cpu_rate * step
        rs = restarts_fn(t) if restarts_fn else 0
        tags = {"namespace": ns, "pod": pod, "container": dep}
        tg = jd(tags) if style == "json" else repr(tags)
        ts = fmt_metric_ts(t, ts_mode)
        for name, val in (("container_memory_working_set_bytes", "%d" % mem),
                          ("container_cpu_usage_seconds_total", "%.3f" % cpu_total),
                          ("kube_pod_container_status_restarts_total", str(rs))):
            r = [name, ts, val, tg]
            if extra_cols:
                r += [pod, ns, APP[dep][0] if dep in APP else dep]
            rows.append(r)
    return rows


# ----------------------------------------------------------------------------- events

class Events:
    def __init__(self, style, ts_style, rng):
        self.style = style  # "core" or "k8sio"
        self.ts_style = ts_style
        self.rng = rng
        self.rows = []

    def add(self, t, kind, name, ns, reason, message, etype="Normal", count=1, first=None, source="kubelet",
            watch="ADDED", host=None, api="v1", style=None, ename=None):
        style = style or self.style
        first = first or t
        ename = ename or f"{name}.{hexid(self.rng, 16)}"
        if style == "core":
            ev = {"apiVersion": "v1", "kind": "Event",
                  "metadata": {"name": ename, "namespace": ns, "uid": uid(self.rng),
                               "resourceVersion": str(self.rng.randint(10**6, 10**7)),
                               "creationTimestamp": iso_z(first)},
                  "involvedObject": {"kind": kind, "name": name, "namespace": ns, "apiVersion": api},
                  "reason": reason, "message": message, "type": etype, "count": count,
                  "firstTimestamp": iso_z(first), "lastTimestamp": iso_z(t),
                  "source": {"component": source, **({"host": host} if host else {})},
                  "reportingComponent": source, "reportingInstance": host or ""}
        else:
            ev = {"apiVersion": "events.k8s.io/v1", "kind": "Event",
                  "metadata": {"name": ename, "namespace": ns, "uid": uid(self.rng),
                               "resourceVersion": str(self.rng.randint(10**6, 10**7)),
                               "creationTimestamp": iso_z(first)},
                  "regarding": {"kind": kind, "name": name, "namespace": ns, "apiVersion": api},
                  "reason": reason, "note": message, "type": etype,
                  "eventTime": iso_z(t, frac=True) if count == 1 else None,
                  "deprecatedCount": count, "deprecatedFirstTimestamp": iso_z(first),
                  "deprecatedLastTimestamp": iso_z(t),
                  "reportingController": source if "/" in source else "kubernetes.io/" + source,
                  "reportingInstance": host or source,
                  "deprecatedSource": {"component": source, **({"host": host} if host else {})}}
            if count > 1:
                ev["series"] = {"count": count, "lastObservedTime": iso_z(t, frac=True)}
                del ev["eventTime"]
                ev["eventTime"] = iso_z(first, frac=True)
        body = {"object": ev, "type": watch}
        self.rows.append((t, body))
        return ev

    def repeat(self, t_from, t_to, every_s, kind, name, ns, reason, message, etype="Warning", source="kubelet",
               host=None):
        """A recurring event: ADDED once, then MODIFIED rows with a rising count."""
        t = t_from
        c = 1
        first = t_from
        ename = f"{name}.{hexid(self.rng, 16)}"
        while t <= t_to:
            self.add(t, kind, name, ns, reason, message, etype, count=c, first=first, source=source,
                     watch="ADDED" if c == 1 else "MODIFIED", host=host, ename=ename)
            c += 1
            t += dt.timedelta(seconds=every_s)

    def tsv_rows(self):
        out = []
        for t, body in sorted(self.rows, key=lambda x: x[0]):
            la = {"k8s.resource.name": "events", "event.domain": "k8s",
                  "event.name": body["object"]["metadata"]["name"]}
            out.append([ch_ts(t, self.ts_style), "", "", "", "0", "", jd(body), jd({"k8s.cluster.name": "itb-lab"}),
                        jd(la)])
        return out


OBJ_HDR = ["Timestamp", "TraceId", "SpanId", "SeverityText", "SeverityNumber", "ServiceName", "Body",
           "ResourceAttributes", "LogAttributes"]


def obj_rows(snaps, ts_style, double=False):
    out = []
    for t, o in sorted(snaps, key=lambda x: (x[0], x[1]["kind"], x[1]["metadata"]["name"])):
        body = jd(o)
        if double:
            body = json.dumps(body)  # the exporter stored the object as a JSON string inside the Body
        la = {"k8s.resource.name": o["kind"].lower() + "s", "k8s.object.kind": o["kind"]}
        out.append([ch_ts(t, ts_style), "", "", "", "0", "", body, jd({"k8s.cluster.name": "itb-lab"}), jd(la)])
    return out


# ----------------------------------------------------------------------------- alerts

def prom_alert(name, sev, labels, summary, desc, active, value, state="firing"):
    lab = {"alertname": name, "severity": sev}
    lab.update(labels)
    return {"labels": lab, "annotations": {"summary": summary, "description": desc}, "state": state,
            "activeAt": iso_z(active, frac=True), "value": value}


def am_alert(name, sev, labels, summary, desc, active, rng):
    lab = {"alertname": name, "severity": sev}
    lab.update(labels)
    return {"status": "firing", "labels": lab, "annotations": {"summary": summary, "description": desc},
            "startsAt": iso_z(active, frac=True), "endsAt": "0001-01-01T00:00:00Z",
            "generatorURL": "http://prometheus-server.prometheus:9090/graph?g0.expr=" + name,
            "fingerprint": hexid(rng, 16)}


def write_alerts(d, at, payload):
    os.makedirs(os.path.join(d, "alerts"), exist_ok=True)
    fn = "alerts_at_" + at.strftime("%Y-%m-%dT%H-%M-%S.%f") + ".json"
    with open(os.path.join(d, "alerts", fn), "w", encoding="utf-8") as f:
        json.dump(payload, f, indent=1)
        f.write("\n")


# ----------------------------------------------------------------------------- ground truth helpers

def g(id_, kind, ns, filt=None, name=None, root=False):
    o = {"id": id_, "kind": kind, "namespace": ns}
    if name:
        o["name"] = name
    if filt:
        o["filter"] = filt
    if root:
        o["root_cause"] = True
    return o


def svc_groups(*deps):
    out = []
    for d in deps:
        out.append(g(f"{d}-service-1", "Service", NS, [d + r"\b"]))
        out.append(g(f"{d}-pod-1", "Pod", NS, [d + "-.*"]))
    return out


def write_gt(d, gt, wrapped):
    if wrapped:
        doc = {"apiVersion": "itbench.io/v1", "kind": "GroundTruth", "metadata": {"name": os.path.basename(d).lower()},
               "spec": gt}
    else:
        doc = gt
    with open(os.path.join(d, "ground_truth.yaml"), "w", encoding="utf-8") as f:
        f.write("---\n" + yaml_dump(doc) + "\n")


# ----------------------------------------------------------------------------- common snapshot writer

def base_objects(cl, t0, minutes, every, deps, managed=True, skip=()):
    snaps = []
    for k in range(0, minutes + 1, every):
        t = t0 + dt.timedelta(minutes=k)
        for dep in deps:
            if dep in skip:
                continue
            snaps.append((t, deployment_obj(cl, dep, t, managed=managed)))
            if APP[dep][1]:
                snaps.append((t, service_obj(cl, dep, managed=managed)))
            for p in cl.pods[dep]:
                snaps.append((t, pod_obj(cl, dep, p, t)))
    return snaps


def routine_events(ev, cl, t0, minutes, rng):
    """Noise every cluster has: probes on image-provider, a job completing, HPA chatter, old events expiring."""
    ev.add(t0 + dt.timedelta(minutes=2, seconds=11), "Pod", cl.pod("image-provider"), NS, "Unhealthy",
           "Readiness probe failed: Get \"http://10.244.1.17:8081/status\": context deadline exceeded "
           "(Client.Timeout exceeded while awaiting headers)", "Warning", host=cl.pods["image-provider"][0]["node"])
    old = t0 - dt.timedelta(minutes=58)
    ev.add(t0 + dt.timedelta(minutes=1, seconds=3), "Pod", cl.pod("flagd"), NS, "Pulled",
           "Container image \"ghcr.io/open-feature/flagd:v0.12.8\" already present on machine", "Normal",
           first=old, watch="DELETED", host=cl.pods["flagd"][0]["node"])
    ev.add(t0 + dt.timedelta(minutes=minutes - 6, seconds=40), "Node", cl.nodes[-1], "", "NodeHasSufficientMemory",
           f"Node {cl.nodes[-1]} status is now: NodeHasSufficientMemory", "Normal", host=cl.nodes[-1])


def finish(d, cl, rng, t0, minutes, fault, cfg, extra_events, extra_objs, extra_logs, pod_files, alerts, gt):
    os.makedirs(os.path.join(d, "metrics"), exist_ok=True)
    traces = simulate(rng, cl, t0, minutes, fault, per_min=cfg.get("per_min", 7))
    write_tsv(os.path.join(d, "otel_traces_raw.tsv"), TRACE_HDR,
              trace_rows(cl, traces, cfg["ts"], drop_proxy=cfg.get("drop_proxy", False)))
    logs = normal_logs(rng, cl, traces, cfg["ts"], cfg.get("json_logs", False)) + extra_logs
    logs.sort(key=lambda r: r[0])
    write_tsv(os.path.join(d, "otel_logs_raw.tsv"), LOG_HDR, logs)
    routine_events(extra_events, cl, t0, minutes, rng)
    write_tsv(os.path.join(d, "k8s_events_raw.tsv"), OBJ_HDR, extra_events.tsv_rows())
    write_tsv(os.path.join(d, "k8s_objects_raw.tsv"), OBJ_HDR, obj_rows(extra_objs, cfg["ts"], cfg.get("double", False)))
    sm = service_metrics(rng, cl, t0, minutes, fault, cfg["mts"], cfg["mstyle"], with_buckets=cfg.get("buckets", False))
    for fn, rows in sm.items():
        write_tsv(os.path.join(d, "metrics", fn), ["metric_name", "timestamp", "value", "tags"], rows)
    for fn, rows in pod_files.items():
        hdr = ["metric_name", "timestamp", "value", "tags"]
        if rows and len(rows[0]) == 7:
            hdr += ["pod_name", "namespace", "service_name"]
        write_tsv(os.path.join(d, "metrics", fn), hdr, rows)
    for at, payload in alerts:
        write_alerts(d, at, payload)
    write_gt(d, gt, cfg.get("wrapped", False))


class RuleFault(Fault):
    def __init__(self, rng, start, edges, svc, end=None):
        self.rng = random.Random(rng.random())
        self.start = start
        self.end = end
        self.edges = edges  # (caller, callee, name substring or None, probability, effect)
        self.svc = svc  # dep -> (error ratio, latency multiplier, rate multiplier)

    def on(self, t):
        return t >= self.start and (self.end is None or t < self.end)

    def edge(self, t, caller, callee, name):
        if not self.on(t):
            return None
        for c, e, sub, p, eff in self.edges:
            if c in (caller, "*") and e == callee and (sub is None or sub in name) and self.rng.random() < p:
                return eff
        return None

    def svc_state(self, t, dep):
        if not self.on(t) or dep not in self.svc:
            return (0.0, 1.0, 1.0)
        return self.svc[dep]


def M(t0, m, s=0):
    return t0 + dt.timedelta(minutes=m, seconds=s)


def chaos_obj(kind, name, t, spec, rng, phase="Run"):
    return {"apiVersion": "chaos-mesh.org/v1alpha1", "kind": kind,
            "metadata": {"name": name, "namespace": "chaos-mesh", "uid": uid(rng), "generation": 1,
                         "resourceVersion": str(rng.randint(10**6, 10**7)), "creationTimestamp": iso_z(t),
                         "finalizers": ["chaos-mesh/records"],
                         "annotations": {"experiment.chaos-mesh.org/pause": "false"}},
            "spec": spec,
            "status": {"conditions": [{"type": "AllInjected", "status": "True"}, {"type": "Selected", "status": "True"}],
                       "experiment": {"desiredPhase": phase}}}


def chaos_events(ev, kind, name, t, targets):
    ev.add(t, kind, name, "chaos-mesh", "FinalizerInited", "Finalizer has been inited", source="initFinalizers",
           api="chaos-mesh.org/v1alpha1")
    ev.add(t + dt.timedelta(seconds=1), kind, name, "chaos-mesh", "Updated", "Successfully update finalizer of resource",
           source="initFinalizers", api="chaos-mesh.org/v1alpha1")
    ev.add(t + dt.timedelta(seconds=1), kind, name, "chaos-mesh", "Started", "Experiment has started",
           source="desiredphase", api="chaos-mesh.org/v1alpha1")
    for tg in targets:
        ev.add(t + dt.timedelta(seconds=2), kind, name, "chaos-mesh", "Applied",
               f"Successfully apply chaos for {NS}/{tg}", source="records", api="chaos-mesh.org/v1alpha1")


def other_ns_trouble(ev, snaps, rng, t0, minutes, ns, pod, reason, msg, dep_image):
    """A second namespace with its own small, unrelated problem."""
    ev.repeat(M(t0, 1, 20), M(t0, minutes - 1), 300, "Pod", pod, ns, reason, msg, "Warning", host="worker-3")
    o = {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": pod, "namespace": ns, "uid": uid(rng)},
         "spec": {"containers": [{"name": pod.rsplit("-", 2)[0], "image": dep_image}], "nodeName": "worker-3"},
         "status": {"phase": "Running" if reason == "BackOff" else "Pending",
                    "containerStatuses": [{"name": pod.rsplit("-", 2)[0], "ready": False, "restartCount": 9 if reason == "BackOff" else 0,
                                           "state": {"waiting": {"reason": "CrashLoopBackOff" if reason == "BackOff" else "ImagePullBackOff"}}}]}}
    for k in range(0, minutes + 1, 10):
        snaps.append((M(t0, k), json.loads(json.dumps(o))))


DEPS = [d for d in APP if d not in ("load-generator-x",)]


# ============================================================================= incidents

def inc1(d):
    """catalogue: Chaos Mesh NetworkChaos bandwidth limit on currency; alerts only on its callers."""
    rng = random.Random(2101)
    t0, minutes = utc(2026, 3, 14, 10, 0), 40
    cl = Cluster(rng, ["worker-1", "worker-2", "worker-3"])
    tf = M(t0, 16, 7)
    chaos = "otel-demo-currency-bandwidth-limit"
    fault = RuleFault(rng, tf,
                      [("*", "currency", None, 0.97, {"kind": "net_latency", "ms": 850, "timeout_ms": 1000})],
                      {"frontend": (0.04, 7.0, 0.8), "frontend-proxy": (0.04, 5.5, 1.0), "checkout": (0.06, 9.0, 0.7),
                       "currency": (0.0, 1.05, 0.8)})
    ev = Events("core", "ch9", rng)
    snaps = base_objects(cl, t0, minutes, 5, DEPS)
    spec = {"action": "bandwidth", "mode": "all", "direction": "to",
            "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/name": "currency"}},
            "bandwidth": {"rate": "8kbps", "limit": 20971520, "buffer": 10000}, "duration": "45m"}
    for k in range(20, minutes + 1, 5):
        snaps.append((M(t0, k), chaos_obj("NetworkChaos", chaos, tf, spec, random.Random(7))))
    chaos_events(ev, "NetworkChaos", chaos, tf, [cl.pod("currency")])
    # unrelated: load-generator OOM restart early on (locust workers), and a second namespace
    lg = cl.pods["load-generator"][0]
    ev.add(M(t0, 5, 31), "Pod", lg["name"], NS, "Pulled",
           'Container image "ghcr.io/open-telemetry/demo:2.1.3-load-generator" already present on machine',
           host=lg["node"])
    ev.add(M(t0, 5, 32), "Pod", lg["name"], NS, "Started", "Started container load-generator", host=lg["node"])
    other_ns_trouble(ev, snaps, rng, t0, minutes, "staging-shop", "legacy-batch-5d8c7b9f6-q2x7m", "BackOff",
                     "Back-off restarting failed container legacy-batch in pod legacy-batch-5d8c7b9f6-q2x7m_staging-shop"
                     "(a2c41f0e-1b7e-4d43-9f3e-21b1c0de9a11)", "registry.internal/shop/legacy-batch:0.9")
    logs = []
    for i in range(12):
        t = M(t0, 17 + i * 2, rng.randint(0, 59))
        logs.append(log_row(cl, t, "frontend", "ERROR",
                            "Error: 4 DEADLINE_EXCEEDED: Deadline exceeded after 1.500s,LB pick: 0.000s,remote_addr=10.96.41.7:8080",
                            "ch9"))
        logs.append(log_row(cl, t + dt.timedelta(seconds=3), "checkout", "WARN",
                            "failed to convert currency for order: rpc error: code = DeadlineExceeded desc = context deadline exceeded",
                            "ch9"))
    logs.append(log_row(cl, M(t0, 5, 2), "load-generator", "ERROR",
                        "Worker 3 exceeded memory limit, restarting locust process", "ch9"))
    logs.append(log_row(cl, M(t0, 21, 12), "currency", "INFO", "Currency conversion successful", "ch9"))
    pods = {f"pod_{cl.pod(dep)}.tsv": pod_metrics(rng, cl, t0, minutes, dep) for dep in
            ("currency", "frontend", "checkout", "product-catalog")}
    pods[f"pod_{lg['name']}.tsv"] = pod_metrics(rng, cl, t0, minutes, "load-generator",
                                                restarts_fn=lambda t: 1 if t > M(t0, 5) else 0)
    alerts = []
    for at, st in ((M(t0, 19, 30), "pending"), (M(t0, 24, 30), "firing"), (M(t0, 33, 0), "firing")):
        al = [prom_alert("HighRequestLatency", "warning", {"service_name": "frontend", "namespace": NS},
                         "Latency is above threshold", "p95 latency of frontend above 500ms", M(t0, 18, 30),
                         "1.93e+03", st),
              prom_alert("HighRequestLatency", "warning", {"service_name": "checkout", "namespace": NS},
                         "Latency is above threshold", "p95 latency of checkout above 500ms", M(t0, 18, 0),
                         "2.41e+03", st),
              prom_alert("KubePodCrashLooping", "warning", {"namespace": "staging-shop", "pod": "legacy-batch-5d8c7b9f6-q2x7m",
                                                            "container": "legacy-batch"},
                         "Pod is crash looping.", "Pod staging-shop/legacy-batch-5d8c7b9f6-q2x7m is in waiting state (reason: CrashLoopBackOff).",
                         M(t0, 0, 0) - dt.timedelta(hours=2), "1e+00")]
        if st == "firing" and at > M(t0, 30):
            al.append(prom_alert("HighRequestErrorRate", "critical", {"service_name": "frontend-proxy", "namespace": NS},
                                 "Error rate is above threshold", "frontend-proxy 5xx ratio above 3%", M(t0, 27, 0),
                                 "4.2e-02"))
        alerts.append((at, {"status": "success", "data": {"alerts": al}}))
    gt = {
        "alerts": [{"group_id": "frontend-service-1", "id": "HighRequestLatency", "metadata": {"description": "Latency is above threshold"}},
                   {"group_id": "checkout-service-1", "id": "HighRequestLatency", "metadata": {"description": "Latency is above threshold"}},
                   {"group_id": "frontend-proxy-service-1", "id": "HighRequestErrorRate", "metadata": {"description": "Error rate is above threshold"}}],
        "aliases": [["currency-service-1", "currency-pod-1"], ["frontend-service-1", "frontend-pod-1"],
                    ["checkout-service-1", "checkout-pod-1"]],
        "fault": [{"category": "Latency", "condition": "egress bandwidth of currency pods limited to 8kbps",
                   "entity": {"group_id": "currency-bandwidth-chaos-1", "kind": "NetworkChaos", "name": chaos},
                   "fault_mechanism": "chaos"}],
        "groups": [g("currency-bandwidth-chaos-1", "NetworkChaos", "chaos-mesh", [chaos], root=True)]
        + svc_groups("currency", "frontend", "checkout")
        + [g("frontend-proxy-service-1", "Service", NS, [r"frontend-proxy\b"])],
        "propagations": [
            {"source": "currency-bandwidth-chaos-1", "target": "currency-pod-1", "condition": "NetworkChaos bandwidth action on currency pods",
             "effect": "currency responses are throttled on the wire"},
            {"source": "currency-service-1", "target": "checkout-service-1", "condition": "currency calls take ~1s and time out",
             "effect": "checkout latency above threshold"},
            {"source": "currency-service-1", "target": "frontend-service-1", "condition": "currency calls take ~1s and time out",
             "effect": "frontend latency above threshold"},
            {"source": "frontend-service-1", "target": "frontend-proxy-service-1", "condition": "frontend requests hit deadline",
             "effect": "frontend-proxy error rate above threshold"}],
    }
    cfg = {"ts": "ch9", "mts": "iso", "mstyle": "json"}
    finish(d, cl, rng, t0, minutes, fault, cfg, ev, snaps, logs, pods, alerts, gt)


def inc2(d):
    """catalogue: DNSChaos makes checkout's lookups of email fail; email is non-critical so the only
    alert is on email's vanished traffic. A harmless flagd-config edit lands 3 minutes earlier."""
    rng = random.Random(2102)
    t0, minutes = utc(2026, 4, 2, 21, 30), 36
    cl = Cluster(rng, ["ip-10-0-1-23.ec2.internal", "ip-10-0-2-141.ec2.internal", "ip-10-0-3-77.ec2.internal"])
    tf = M(t0, 13, 42)
    chaos = "checkout-dns-error-email"
    dns_msg = ("rpc error: code = Unavailable desc = name resolver error: produced zero addresses "
               "(lookup email.otel-demo.svc.cluster.local on 10.96.0.10:53: server misbehaving)")
    fault = RuleFault(rng, tf, [("checkout", "email", None, 1.0, {"kind": "client_error", "msg": dns_msg, "ms": 3})],
                      {"email": (0.0, 1.0, 0.01)})
    ev = Events("k8sio", "iso", rng)
    snaps = base_objects(cl, t0, minutes, 6, DEPS, managed=False)
    spec = {"action": "error", "mode": "all", "patterns": ["email", "email.otel-demo.*"],
            "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/name": "checkout"}}}
    for k in range(18, minutes + 1, 6):
        snaps.append((M(t0, k), chaos_obj("DNSChaos", chaos, tf, spec, random.Random(8))))
    chaos_events(ev, "DNSChaos", chaos, tf, [cl.pod("checkout")])
    # harmless: a disabled flag added to flagd-config shortly before
    flags_before = {"$schema": "https://flagd.dev/schema/v0/flags.json", "flags": {
        "productCatalogFailure": {"description": "Fail product catalog service on a specific product", "state": "ENABLED",
                                  "variants": {"on": True, "off": False}, "defaultVariant": "off"},
        "paymentFailure": {"description": "Fail payment service charge requests n%", "state": "ENABLED",
                           "variants": {"100%": 1, "50%": 0.5, "off": 0}, "defaultVariant": "off"},
        "adHighCpu": {"description": "Triggers high cpu load in the ad service", "state": "ENABLED",
                      "variants": {"on": True, "off": False}, "defaultVariant": "off"}}}
    flags_after = json.loads(json.dumps(flags_before))
    flags_after["flags"]["newCheckoutLayout"] = {"description": "UI experiment (frontend only, not wired yet)",
                                                 "state": "DISABLED", "variants": {"on": True, "off": False},
                                                 "defaultVariant": "off"}
    for k in range(0, minutes + 1, 6):
        t = M(t0, k)
        fl = flags_after if t >= M(t0, 10, 50) else flags_before
        snaps.append((t, {"apiVersion": "v1", "kind": "ConfigMap",
                          "metadata": {"name": "flagd-config", "namespace": NS, "uid": cl.uid_of("cm-flagd"),
                                       "resourceVersion": "884120" if fl is flags_before else "902317"},
                          "data": {"demo.flagd.json": json.dumps(fl, indent=2)}}))
    logs = [log_row(cl, M(t0, 10, 51), "flagd", "INFO",
                    jd({"level": "info", "ts": M(t0, 10, 51).timestamp(), "caller": "file/filepath_sync.go:128",
                        "msg": "configuration modified", "component": "sync", "sync": "filepath"}), "iso")]
    for i in range(16):
        t = M(t0, 14 + i, rng.randint(0, 59))
        em = f"{hexid(rng, 6)}@example.com"
        logs.append(log_row(cl, t, "checkout", "WARN",
                            f'failed to send order confirmation to "{em}": {dns_msg}', "iso"))
        logs.append(log_row(cl, t - dt.timedelta(milliseconds=40), "checkout", "INFO",
                            "payment went through (transaction_id: %s)" % uid(rng), "iso"))
    other_ns_trouble(ev, snaps, rng, t0, minutes, "ml-serving", "ranker-7b5c9d8f4-x8kqp", "Failed",
                     'Failed to pull image "registry.internal/ml/ranker:2026.04.01": rpc error: code = NotFound desc = '
                     'failed to pull and unpack image: not found', "registry.internal/ml/ranker:2026.04.01")
    pods = {f"pod_{cl.pod(dep)}.tsv": pod_metrics(rng, cl, t0, minutes, dep, ts_mode="epoch", style="repr")
            for dep in ("email", "checkout", "flagd")}
    alerts = []
    am = [am_alert("ServiceRequestRateDrop", "warning", {"service_name": "email", "namespace": NS},
                   "Request rate dropped", "email request rate fell below 10% of its 1h average", M(t0, 18), rng),
          am_alert("KubeContainerWaiting", "warning", {"namespace": "ml-serving", "pod": "ranker-7b5c9d8f4-x8kqp",
                                                       "container": "ranker"},
                   "Pod container waiting longer than 1 hour", "ml-serving/ranker-7b5c9d8f4-x8kqp container ranker waiting (ImagePullBackOff)",
                   t0 - dt.timedelta(hours=3), rng)]
    alerts.append((M(t0, 22), {"version": "4", "groupKey": "{}:{namespace=\"otel-demo\"}", "status": "firing",
                               "receiver": "sre-oncall", "groupLabels": {"namespace": NS}, "alerts": am}))
    alerts.append((M(t0, 31), {"version": "4", "groupKey": "{}:{namespace=\"otel-demo\"}", "status": "firing",
                               "receiver": "sre-oncall", "groupLabels": {"namespace": NS}, "alerts": am}))
    gt = {
        "groups": [g("checkout-dns-chaos-1", "DNSChaos", "chaos-mesh", [chaos], root=True)]
        + svc_groups("checkout", "email")
        + [g("flagd-config-1", "ConfigMap", NS, [r"flagd-config\b"])],
        "aliases": [["checkout-service-1", "checkout-pod-1"], ["email-service-1", "email-pod-1"]],
        "propagations": [
            {"source": "checkout-dns-chaos-1", "target": "checkout-pod-1", "condition": "DNSChaos error action for email* lookups from checkout pods",
             "effect": "checkout cannot resolve email; SendOrderConfirmation fails (logged, order still placed)"},
            {"source": "checkout-service-1", "target": "email-service-1", "condition": "no confirmation calls reach email",
             "effect": "email request rate drops to zero (unavailable from the caller's side)"}],
        "fault": [{"category": "Network", "condition": "DNS errors for email lookups from checkout",
                   "entity": {"group_id": "checkout-dns-chaos-1", "kind": "DNSChaos", "name": chaos},
                   "fault_mechanism": "chaos"}],
        "alerts": [{"group_id": "email-service-1", "id": "ServiceRequestRateDrop",
                    "metadata": {"description": "email receives no traffic"}}],
    }
    cfg = {"ts": "iso", "mts": "epoch", "mstyle": "repr", "drop_proxy": True, "wrapped": True}
    finish(d, cl, rng, t0, minutes, fault, cfg, ev, snaps, logs, pods, alerts, gt)


def inc3(d):
    """catalogue: a liveness probe edited onto the wrong port restarts recommendation in a loop."""
    rng = random.Random(2103)
    t0, minutes = utc(2026, 5, 19, 14, 5), 42
    cl = Cluster(rng, ["aks-pool1-31415926-vmss000000", "aks-pool1-31415926-vmss000001", "aks-pool1-31415926-vmss000002"])
    tf = M(t0, 12, 20)
    old = cl.pods["recommendation"][0]
    new_rs = suffix(rng, 10)
    newp = cl.new_pod("recommendation", tf + dt.timedelta(seconds=4), rs=new_rs)
    unavailable = "rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial tcp 10.96.118.204:8080: connect: connection refused\""
    fault = RuleFault(rng, tf + dt.timedelta(seconds=50),
                      [("frontend", "recommendation", None, 0.55, {"kind": "client_error", "msg": unavailable, "ms": 2})],
                      {"recommendation": (0.5, 1.1, 0.5), "frontend": (0.11, 1.2, 1.0), "frontend-proxy": (0.11, 1.1, 1.0)})
    ev = Events("core", "ch9", rng)

    def probe_bad(c):
        c["livenessProbe"] = {"grpc": {"port": 8081, "service": ""}, "initialDelaySeconds": 5, "periodSeconds": 5,
                              "timeoutSeconds": 1, "failureThreshold": 2, "successThreshold": 1}
        return c

    def probe_ok(c):
        c["livenessProbe"] = {"tcpSocket": {"port": 8080}, "initialDelaySeconds": 10, "periodSeconds": 10,
                              "timeoutSeconds": 1, "failureThreshold": 3, "successThreshold": 1}
        return c

    snaps = []
    restarts = lambda t: 0 if t < tf else min(14, int((t - tf).total_seconds() // 95))
    for k in range(0, minutes + 1, 5):
        t = M(t0, k)
        for dep in DEPS:
            if dep == "recommendation":
                bad = t >= tf
                o = deployment_obj(cl, dep, t, generation=8 if bad else 7, containers=probe_bad if bad else probe_ok)
                if bad:
                    o["metadata"]["managedFields"].append(
                        {"manager": "kubectl-edit", "operation": "Update", "apiVersion": "apps/v1", "time": iso_z(tf),
                         "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:template": {"f:spec": {"f:containers": {}}}}}})
                    o["status"].update({"unavailableReplicas": 1, "readyReplicas": 0, "availableReplicas": 0})
                snaps.append((t, o))
                snaps.append((t, service_obj(cl, dep, managed=True)))
                if not bad:
                    snaps.append((t, pod_obj(cl, dep, old, t, mutate=lambda o: o["spec"]["containers"][0].update(probe_ok({})))))
                else:
                    r = restarts(t)
                    snaps.append((t, pod_obj(cl, dep, newp, t, ready=False, restarts=r,
                                             waiting={"reason": "CrashLoopBackOff", "message": "back-off 2m40s restarting failed container=recommendation"} if r > 3 else None,
                                             last_state={"terminated": {"exitCode": 137, "reason": "Error",
                                                                        "startedAt": iso_z(t - dt.timedelta(seconds=80)),
                                                                        "finishedAt": iso_z(t - dt.timedelta(seconds=60))}} if r else None,
                                             mutate=lambda o: o["spec"]["containers"][0].update(probe_bad({})))))
            elif dep == "ad":
                ann = {"owner-team": "ads-platform"} if t >= M(t0, 10, 5) else None
                snaps.append((t, deployment_obj(cl, dep, t, annotations=ann)))
                snaps.append((t, service_obj(cl, dep, managed=True)))
                snaps.append((t, pod_obj(cl, dep, cl.pods[dep][0], t)))
            else:
                o = deployment_obj(cl, dep, t)
                snaps.append((t, o))
                if APP[dep][1]:
                    snaps.append((t, service_obj(cl, dep, managed=True)))
                rs_ = 1 if dep == "fraud-detection" and t > M(t0, 3, 40) else 0
                snaps.append((t, pod_obj(cl, dep, cl.pods[dep][0], t, restarts=rs_,
                                         last_state={"terminated": {"exitCode": 137, "reason": "OOMKilled"}} if rs_ else None)))
    cl.pods["recommendation"] = [old, newp]
    n = newp["node"]
    ev.add(tf, "Deployment", "recommendation", NS, "ScalingReplicaSet",
           f"Scaled up replica set recommendation-{new_rs} to 1", source="deployment-controller", api="apps/v1")
    ev.add(tf + dt.timedelta(seconds=1), "ReplicaSet", f"recommendation-{new_rs}", NS, "SuccessfulCreate",
           f"Created pod: {newp['name']}", source="replicaset-controller", api="apps/v1")
    ev.add(tf + dt.timedelta(seconds=1), "Pod", newp["name"], NS, "Scheduled",
           f"Successfully assigned {NS}/{newp['name']} to {n}", source="default-scheduler")
    ev.add(tf + dt.timedelta(seconds=3), "Pod", newp["name"], NS, "Pulled",
           f'Container image "{image_of("recommendation")}" already present on machine', host=n)
    ev.add(tf + dt.timedelta(seconds=3), "Pod", newp["name"], NS, "Created", "Created container recommendation", host=n)
    ev.add(tf + dt.timedelta(seconds=4), "Pod", newp["name"], NS, "Started", "Started container recommendation", host=n)
    ev.add(tf + dt.timedelta(seconds=9), "Deployment", "recommendation", NS, "ScalingReplicaSet",
           f"Scaled down replica set recommendation-{old['rs']} to 0 from 1", source="deployment-controller", api="apps/v1")
    ev.add(tf + dt.timedelta(seconds=9), "Pod", old["name"], NS, "Killing", "Stopping container recommendation", host=old["node"])
    ev.repeat(tf + dt.timedelta(seconds=14), M(t0, minutes), 95, "Pod", newp["name"], NS, "Unhealthy",
              'Liveness probe failed: timeout: failed to connect service ":8081" within 1s: context deadline exceeded', host=n)
    ev.repeat(tf + dt.timedelta(seconds=19), M(t0, minutes), 95, "Pod", newp["name"], NS, "Killing",
              "Container recommendation failed liveness probe, will be restarted", "Normal", host=n)
    ev.repeat(tf + dt.timedelta(minutes=5), M(t0, minutes), 60, "Pod", newp["name"], NS, "BackOff",
              f"Back-off restarting failed container recommendation in pod {newp['name']}_{NS}({newp['uid']})", host=n)
    fd = cl.pods["fraud-detection"][0]
    ev.add(M(t0, 3, 41), "Pod", fd["name"], NS, "Pulled",
           f'Container image "{image_of("fraud-detection")}" already present on machine', host=fd["node"])
    ev.add(M(t0, 3, 42), "Pod", fd["name"], NS, "Started", "Started container fraud-detection", host=fd["node"])
    logs = []
    for i in range(14):
        t = M(t0, 13 + i * 2, rng.randint(0, 59))
        logs.append(log_row(cl, t, "recommendation", "INFO",
                            jd({"message": "Recommendation service started, listening on port 8080", "otelServiceName": "recommendation",
                                "severity": "info"}), "ch9", pod=newp["name"]))
        logs.append(log_row(cl, t + dt.timedelta(seconds=40), "frontend", "ERROR",
                            jd({"level": "error", "msg": "Error: 14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 10.96.118.204:8080",
                                "route": "/api/recommendations"}), "ch9"))
    logs.append(log_row(cl, M(t0, 3, 39), "fraud-detection", "ERROR",
                        "Exception in thread \"kafka-coordinator-heartbeat-thread | fraud-detection\" java.lang.OutOfMemoryError: Java heap space", "ch9"))
    pods = {f"pod_{newp['name']}.tsv": pod_metrics(rng, cl, t0, minutes, "recommendation", pod=newp["name"], ts_mode="epoch_ms",
                                                   restarts_fn=restarts,
                                                   mem_fn=lambda t: 0 if t < tf else (40 + rng.random() * 30) * 1048576),
            f"pod_{old['name']}.tsv": pod_metrics(rng, cl, t0, 13, "recommendation", pod=old["name"], ts_mode="epoch_ms"),
            f"pod_{fd['name']}.tsv": pod_metrics(rng, cl, t0, minutes, "fraud-detection", ts_mode="epoch_ms",
                                                 restarts_fn=lambda t: 1 if t > M(t0, 3, 40) else 0,
                                                 mem_fn=lambda t: (290 if M(t0, 2) < t < M(t0, 3, 40) else 180) * 1048576)}
    alerts = []
    for at in (M(t0, 20), M(t0, 28), M(t0, 36)):
        al = [prom_alert("HighRequestErrorRate", "critical", {"service_name": "frontend", "namespace": NS},
                         "Error rate is above threshold", "frontend error ratio 0.11", M(t0, 15, 30), "1.1e-01"),
              prom_alert("KubePodCrashLooping", "warning", {"namespace": NS, "pod": newp["name"], "container": "recommendation"},
                         "Pod is crash looping.", f"Pod {NS}/{newp['name']} ({{container}}) is restarting 3.00 times / 10 minutes.",
                         M(t0, 17, 0), "3e+00", "firing" if at > M(t0, 27) else "pending")]
        alerts.append((at, {"status": "success", "data": {"alerts": al}}))
    gt = {
        "alerts": [{"group_id": "frontend-service-1", "id": "HighRequestErrorRate", "metadata": {"description": "frontend error rate above threshold"}},
                   {"group_id": "recommendation-pod-1", "id": "KubePodCrashLooping", "metadata": {"description": "recommendation restarted by liveness probe"}}],
        "aliases": [["recommendation-deployment-1", "recommendation-pod-1", "recommendation-service-1"],
                    ["frontend-service-1", "frontend-pod-1"]],
        "fault": [{"category": "Change", "condition": "livenessProbe changed to grpc on port 8081 (app listens on 8080)",
                   "entity": {"group_id": "recommendation-deployment-1", "kind": "Deployment", "name": "recommendation"},
                   "fault_mechanism": "custom"}],
        "groups": [g("recommendation-deployment-1", "Deployment", NS, [r"recommendation\b"], name="recommendation", root=True)]
        + svc_groups("recommendation", "frontend")
        + [g("ad-deployment-1", "Deployment", NS, [r"ad\b"])],
        "propagations": [
            {"source": "recommendation-deployment-1", "target": "recommendation-pod-1", "condition": "liveness probe targets a closed port",
             "effect": "recommendation container killed every ~90s, CrashLoopBackOff"},
            {"source": "recommendation-pod-1", "target": "frontend-service-1", "condition": "recommendation unavailable most of the time",
             "effect": "frontend error rate above threshold on /api/recommendations"}],
    }
    cfg = {"ts": "ch9", "mts": "epoch_ms", "mstyle": "json", "buckets": True, "json_logs": True}
    finish(d, cl, rng, t0, minutes, fault, cfg, ev, snaps, logs, pods, alerts, gt)


def inc4(d):
    """catalogue: the quote Service's targetPort changed to 8090; quote pods stay healthy and silent."""
    rng = random.Random(2104)
    t0, minutes = utc(2026, 6, 7, 3, 40), 38
    cl = Cluster(rng, ["gke-shop-default-pool-8f2a1c3d-4x7k", "gke-shop-default-pool-8f2a1c3d-9qzt",
                       "gke-shop-default-pool-8f2a1c3d-m2lp"])
    tf = M(t0, 15, 3)
    refused = ("error sending request for url (http://quote:8080/getquote): client error (Connect): "
               "tcp connect error: Connection refused (os error 111)")
    fault = RuleFault(rng, tf, [("shipping", "quote", None, 1.0, {"kind": "client_error", "msg": refused, "ms": 1.5})],
                      {"shipping": (0.62, 0.6, 1.0), "quote": (0.0, 1.0, 0.0), "checkout": (0.58, 0.7, 0.9),
                       "frontend": (0.09, 0.9, 1.0), "frontend-proxy": (0.09, 0.9, 1.0)})
    ev = Events("core", "iso", rng)
    snaps = base_objects(cl, t0, minutes, 6, DEPS, managed=False, skip=("quote",))
    last_applied_old = jd({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "quote", "namespace": NS},
                           "spec": {"ports": [{"name": "tcp-service", "port": 8080, "targetPort": 8080}],
                                    "selector": {"opentelemetry.io/name": "quote"}}})
    last_applied_new = last_applied_old.replace('"targetPort":8080', '"targetPort":8090')
    qp = cl.pods["quote"][0]
    for k in range(0, minutes + 1, 6):
        t = M(t0, k)
        bad = t >= tf
        snaps.append((t, deployment_obj(cl, "quote", t, managed=False)))
        so = service_obj(cl, "quote", target=8090 if bad else 8080)
        so["metadata"]["annotations"] = {"kubectl.kubernetes.io/last-applied-configuration": last_applied_new if bad else last_applied_old}
        so["metadata"]["resourceVersion"] = "1193377" if bad else "1042210"
        snaps.append((t, so))
        snaps.append((t, pod_obj(cl, "quote", qp, t)))
        snaps.append((t, {"apiVersion": "v1", "kind": "Endpoints",
                          "metadata": {"name": "quote", "namespace": NS, "labels": {"app.kubernetes.io/name": "quote"}},
                          "subsets": [{"addresses": [{"ip": "10.52.1.%d" % (hash_int(qp["name"]) % 200 + 2), "nodeName": qp["node"],
                                                      "targetRef": {"kind": "Pod", "name": qp["name"], "namespace": NS}}],
                                       "ports": [{"name": "tcp-service", "port": 8090 if bad else 8080, "protocol": "TCP"}]}]}))
        if t >= M(t0, 11, 30):
            snaps.append((t, {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
                              "metadata": {"name": "load-generator-ui-ingress", "namespace": NS,
                                           "creationTimestamp": iso_z(M(t0, 11, 30))},
                              "spec": {"podSelector": {"matchLabels": {"app.kubernetes.io/name": "load-generator"}},
                                       "policyTypes": ["Ingress"],
                                       "ingress": [{"ports": [{"port": 8089, "protocol": "TCP"}]}]}}))
    other_ns_trouble(ev, snaps, rng, t0, minutes, "payments-sandbox", "stripe-mock-6f9b8c7d5-hw2rt", "Failed",
                     'Failed to pull image "stripe/stripe-mock:v0.199.0": rpc error: code = Unknown desc = '
                     'failed to pull and unpack image "docker.io/stripe/stripe-mock:v0.199.0": '
                     'unexpected status from HEAD request: 429 Too Many Requests', "stripe/stripe-mock:v0.199.0")
    ev.add(M(t0, 22, 10), "Deployment", "image-provider", NS, "ScalingReplicaSet",
           f"Scaled up replica set image-provider-{cl.rs['image-provider']} to 2 from 1", source="deployment-controller",
           api="apps/v1")
    logs = []
    for i in range(30):
        t = M(t0, 15, 10) + dt.timedelta(seconds=i * 44 + rng.randint(0, 20))
        logs.append(log_row(cl, t, "shipping", "ERROR",
                            f"Failed to get quote: {refused}", "iso",
                            extra={"code.filepath": "src/shipping_service/quote.rs", "code.lineno": 46}))
        if i % 3 == 0:
            logs.append(log_row(cl, t + dt.timedelta(milliseconds=300), "checkout", "ERROR",
                                "failed to prepare order: shipping quote failure: rpc error: code = Internal desc = "
                                "failed to get quote", "iso"))
    pods = {f"pod_{cl.pod(dep)}.tsv": pod_metrics(rng, cl, t0, minutes, dep, ts_mode="iso", style="repr", extra_cols=True,
                                                  cpu_fn=(lambda t: 0.004 if t > tf else 0.03) if dep == "quote" else None)
            for dep in ("quote", "shipping", "checkout")}
    alerts = []
    base = [prom_alert("KubeContainerWaiting", "warning", {"namespace": "payments-sandbox", "pod": "stripe-mock-6f9b8c7d5-hw2rt",
                                                           "container": "stripe-mock"},
                       "Pod container waiting longer than 1 hour", "ImagePullBackOff", t0 - dt.timedelta(hours=5), "1e+00")]
    for at in (M(t0, 19), M(t0, 25), M(t0, 34)):
        al = list(base)
        al.append(prom_alert("HighRequestErrorRate", "critical", {"service_name": "shipping", "namespace": NS},
                             "Error rate is above threshold", "shipping error ratio above 5%", M(t0, 16, 30), "6.2e-01"))
        al.append(prom_alert("HighRequestErrorRate", "critical", {"service_name": "checkout", "namespace": NS},
                             "Error rate is above threshold", "checkout error ratio above 5%", M(t0, 17, 0), "5.8e-01"))
        if at > M(t0, 20):
            al.append(prom_alert("HighRequestErrorRate", "warning", {"service_name": "frontend", "namespace": NS},
                                 "Error rate is above threshold", "frontend error ratio above 5%", M(t0, 20, 30), "9e-02"))
        alerts.append((at, al))
    gt = {
        "groups": [g("quote-service-1", "Service", NS, [r"quote\b"], name="quote", root=True),
                   g("quote-pod-1", "Pod", NS, ["quote-.*"])]
        + svc_groups("shipping", "checkout", "frontend")
        + [g("load-generator-netpol-1", "NetworkPolicy", NS, ["load-generator-ui-ingress"])],
        "aliases": [["shipping-service-1", "shipping-pod-1"], ["checkout-service-1", "checkout-pod-1"],
                    ["frontend-service-1", "frontend-pod-1"]],
        "propagations": [
            {"source": "quote-service-1", "target": "shipping-service-1", "condition": "Service quote targetPort 8090 while pods listen on 8080",
             "effect": "shipping gets connection refused; shipping error rate above threshold"},
            {"source": "shipping-service-1", "target": "checkout-service-1", "condition": "GetQuote fails",
             "effect": "checkout error rate above threshold"},
            {"source": "checkout-service-1", "target": "frontend-service-1", "condition": "PlaceOrder fails",
             "effect": "frontend error rate above threshold"}],
        "fault": [{"category": "Change", "condition": "spec.ports[0].targetPort changed 8080 -> 8090",
                   "entity": {"group_id": "quote-service-1", "kind": "Service", "name": "quote"}, "fault_mechanism": "custom"}],
        "alerts": [{"group_id": "shipping-service-1", "id": "HighRequestErrorRate", "metadata": {"description": "Error rate above threshold"}},
                   {"group_id": "checkout-service-1", "id": "HighRequestErrorRate", "metadata": {"description": "Error rate above threshold"}},
                   {"group_id": "frontend-service-1", "id": "HighRequestErrorRate", "metadata": {"description": "Error rate above threshold"}}],
    }
    cfg = {"ts": "iso", "mts": "iso", "mstyle": "repr", "double": True, "wrapped": True}
    finish(d, cl, rng, t0, minutes, fault, cfg, ev, snaps, logs, pods, alerts, gt)


def inc5(d):
    """catalogue: payment's memory limit lowered 120Mi -> 40Mi in a rollout; OOMKilled loop breaks checkout.
    An email image bump six minutes earlier is harmless."""
    rng = random.Random(2105)
    t0, minutes = utc(2026, 7, 22, 16, 20), 40
    cl = Cluster(rng, ["node-a1", "node-a2", "node-b1", "node-b2"])
    tf = M(t0, 14, 25)
    old = cl.pods["payment"][0]
    new_rs = suffix(rng, 10)
    newp = cl.new_pod("payment", tf + dt.timedelta(seconds=3), rs=new_rs)
    eold = cl.pods["email"][0]
    e_rs = suffix(rng, 9)
    enew = cl.new_pod("email", M(t0, 8, 14), rs=e_rs)
    refused = ("rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: "
               "dial tcp 10.96.77.31:8080: connect: connection refused\"")
    fault = RuleFault(rng, tf + dt.timedelta(seconds=40),
                      [("checkout", "payment", None, 0.72, {"kind": "client_error", "msg": refused, "ms": 1})],
                      {"payment": (0.3, 1.4, 0.3), "checkout": (0.72, 0.8, 1.0), "frontend": (0.07, 1.0, 1.0),
                       "frontend-proxy": (0.07, 1.0, 1.0)})
    ev = Events("k8sio", "ch9", rng)
    snaps = []
    restarts = lambda t: 0 if t < tf else int((t - tf).total_seconds() // 110) + 1

    def lim(v):
        def f(c):
            c["resources"] = {"limits": {"memory": v}, "requests": {"cpu": "20m", "memory": v}}
            return c
        return f

    for k in range(0, minutes + 1, 4):
        t = M(t0, k)
        for dep in DEPS:
            if dep == "payment":
                bad = t >= tf
                o = deployment_obj(cl, dep, t, generation=5 if bad else 4, containers=lim("40Mi" if bad else "120Mi"),
                                   managed=False)
                snaps.append((t, o))
                snaps.append((t, service_obj(cl, dep)))
                if not bad:
                    snaps.append((t, pod_obj(cl, dep, old, t, mutate=lambda o: o["spec"]["containers"][0].update(lim("120Mi")({})))))
                else:
                    r = restarts(t)
                    snaps.append((t, pod_obj(cl, dep, newp, t, ready=False, restarts=r,
                                             waiting={"reason": "CrashLoopBackOff", "message": f"back-off 1m20s restarting failed container=payment pod={newp['name']}"},
                                             last_state={"terminated": {"exitCode": 137, "reason": "OOMKilled",
                                                                        "startedAt": iso_z(t - dt.timedelta(seconds=70)),
                                                                        "finishedAt": iso_z(t - dt.timedelta(seconds=52))}},
                                             mutate=lambda o: o["spec"]["containers"][0].update(lim("40Mi")({})))))
                    if t < tf + dt.timedelta(minutes=2):
                        snaps.append((t, pod_obj(cl, dep, old, t)))
            elif dep == "email":
                bump = t >= M(t0, 8, 10)
                o = deployment_obj(cl, dep, t, generation=3 if bump else 2, managed=False)
                if bump:
                    o["spec"]["template"]["spec"]["containers"][0]["image"] = f"ghcr.io/open-telemetry/demo:2.1.4-email"
                snaps.append((t, o))
                snaps.append((t, service_obj(cl, dep)))
                snaps.append((t, pod_obj(cl, dep, enew if bump else eold, t)))
            else:
                snaps.append((t, deployment_obj(cl, dep, t, managed=False)))
                if APP[dep][1]:
                    snaps.append((t, service_obj(cl, dep)))
                snaps.append((t, pod_obj(cl, dep, cl.pods[dep][0], t)))
    cl.pods["payment"] = [old, newp]
    cl.pods["email"] = [eold, enew]
    ev.add(M(t0, 8, 10), "Deployment", "email", NS, "ScalingReplicaSet", f"Scaled up replica set email-{e_rs} to 1",
           source="deployment-controller", api="apps/v1")
    ev.add(M(t0, 8, 14), "Pod", enew["name"], NS, "Pulled",
           'Successfully pulled image "ghcr.io/open-telemetry/demo:2.1.4-email" in 3.412s (3.412s including waiting). Image size: 61244135 bytes.',
           host=enew["node"])
    ev.add(M(t0, 8, 20), "Deployment", "email", NS, "ScalingReplicaSet", f"Scaled down replica set email-{eold['rs']} to 0 from 1",
           source="deployment-controller", api="apps/v1")
    ev.add(tf, "Deployment", "payment", NS, "ScalingReplicaSet", f"Scaled up replica set payment-{new_rs} to 1",
           source="deployment-controller", api="apps/v1")
    ev.add(tf + dt.timedelta(seconds=2), "Pod", newp["name"], NS, "Scheduled",
           f"Successfully assigned {NS}/{newp['name']} to {newp['node']}", source="default-scheduler")
    ev.add(tf + dt.timedelta(seconds=3), "Pod", newp["name"], NS, "Started", "Started container payment", host=newp["node"])
    ev.add(tf + dt.timedelta(seconds=8), "Deployment", "payment", NS, "ScalingReplicaSet",
           f"Scaled down replica set payment-{old['rs']} to 0 from 1", source="deployment-controller", api="apps/v1")
    ev.repeat(tf + dt.timedelta(seconds=21), M(t0, minutes), 110, "Node", newp["node"], "", "OOMKilling",
              "Memory cgroup out of memory: Killed process 31337 (node) total-vm:1120512kB, anon-rss:40344kB, file-rss:0kB, "
              "shmem-rss:0kB, UID:1000 pgtables:1204kB oom_score_adj:999", source="kernel-monitor", host=newp["node"])
    ev.repeat(tf + dt.timedelta(seconds=90), M(t0, minutes), 60, "Pod", newp["name"], NS, "BackOff",
              "Back-off restarting failed container payment in pod " + newp["name"] + "_" + NS + "(" + newp["uid"] + ")",
              host=newp["node"])
    other_ns_trouble(ev, snaps, rng, t0, minutes, "batch-jobs", "nightly-report-29718260-6kx4d", "BackOff",
                     "Back-off restarting failed container report in pod nightly-report-29718260-6kx4d_batch-jobs",
                     "registry.internal/finance/report:3.2")
    ev.add(M(t0, 31), "Job", "nightly-report-29718260", "batch-jobs", "BackoffLimitExceeded",
           "Job has reached the specified backoff limit", "Warning", source="job-controller", api="batch/v1")
    logs = []
    for i in range(12):
        t = tf + dt.timedelta(seconds=5 + i * 110)
        logs.append(log_row(cl, t, "payment", "INFO",
                            jd({"level": 30, "time": int(t.timestamp() * 1000), "pid": 1, "hostname": newp["name"],
                                "msg": "payment gRPC server started on port 8080"}), "ch9", pod=newp["name"]))
        logs.append(log_row(cl, t + dt.timedelta(seconds=12), "payment", "WARN",
                            jd({"level": 40, "time": int(t.timestamp() * 1000) + 12000, "pid": 1, "hostname": newp["name"],
                                "msg": "heap usage high", "heapUsed": 36110212}), "ch9", pod=newp["name"]))
    for i in range(10):
        t = tf + dt.timedelta(seconds=60 + i * 120 + rng.randint(0, 50))
        logs.append(log_row(cl, t, "checkout", "ERROR", f"failed to charge card: could not charge the card: {refused}", "ch9"))
    logs.append(log_row(cl, M(t0, 2, 2), "cart", "WARN",
                        "Connection to valkey-cart:6379 lost, reconnecting (attempt 1)", "ch9"))
    logs.append(log_row(cl, M(t0, 2, 3), "cart", "INFO", "Reconnected to valkey-cart:6379", "ch9"))
    pods = {f"pod_{newp['name']}.tsv": pod_metrics(rng, cl, t0, minutes, "payment", pod=newp["name"], ts_mode="epoch",
                                                   restarts_fn=restarts,
                                                   mem_fn=lambda t: 0 if t < tf else (28 + ((t - tf).total_seconds() % 110) / 8) * 1048576),
            f"pod_{old['name']}.tsv": pod_metrics(rng, cl, t0, 15, "payment", pod=old["name"], ts_mode="epoch",
                                                  mem_fn=lambda t: (71 + rng.random() * 4) * 1048576),
            f"pod_{enew['name']}.tsv": pod_metrics(rng, cl, t0, minutes, "email", pod=enew["name"], ts_mode="epoch")}
    alerts = []
    for at in (M(t0, 18), M(t0, 24), M(t0, 33)):
        al = [am_alert("HighRequestErrorRate", "critical", {"service_name": "checkout", "namespace": NS},
                       "Error rate is above threshold", "checkout error ratio 72%", M(t0, 16), rng),
              am_alert("HighRequestErrorRate", "warning", {"service_name": "frontend", "namespace": NS},
                       "Error rate is above threshold", "frontend error ratio 7%", M(t0, 17), rng)]
        if at > M(t0, 20):
            al.append(am_alert("KubePodCrashLooping", "warning", {"namespace": NS, "pod": newp["name"], "container": "payment"},
                               "Pod is crash looping.", f"Pod {NS}/{newp['name']} is in waiting state (reason: CrashLoopBackOff).",
                               M(t0, 19, 30), rng))
        al.append(am_alert("KubeJobFailed", "warning", {"namespace": "batch-jobs", "job_name": "nightly-report-29718260"},
                           "Job failed to complete.", "Job batch-jobs/nightly-report-29718260 failed to complete.", M(t0, 31), rng)
                  ) if at > M(t0, 31) else None
        alerts.append((at, {"receiver": "default", "status": "firing", "alerts": al, "version": "4"}))
    gt = {
        "groups": [g("payment-deployment-1", "Deployment", NS, [r"payment\b"], name="payment", root=True)]
        + svc_groups("payment", "checkout", "frontend")
        + [g("email-deployment-1", "Deployment", NS, [r"email\b"])],
        "aliases": [["payment-deployment-1", "payment-pod-1", "payment-service-1"], ["checkout-service-1", "checkout-pod-1"],
                    ["frontend-service-1", "frontend-pod-1"]],
        "propagations": [
            {"source": "payment-deployment-1", "target": "payment-pod-1", "condition": "memory limit lowered to 40Mi",
             "effect": "payment container OOMKilled repeatedly, CrashLoopBackOff"},
            {"source": "payment-pod-1", "target": "checkout-service-1", "condition": "payment unavailable",
             "effect": "checkout error rate above threshold"},
            {"source": "checkout-service-1", "target": "frontend-service-1", "condition": "PlaceOrder fails",
             "effect": "frontend error rate above threshold"}],
        "fault": [{"category": "Change", "condition": "resources.limits.memory 120Mi -> 40Mi",
                   "entity": {"group_id": "payment-deployment-1", "kind": "Deployment", "name": "payment"},
                   "fault_mechanism": "custom"}],
        "alerts": [{"group_id": "checkout-service-1", "id": "HighRequestErrorRate", "metadata": {"description": "checkout errors"}},
                   {"group_id": "frontend-service-1", "id": "HighRequestErrorRate", "metadata": {"description": "frontend errors"}},
                   {"group_id": "payment-pod-1", "id": "KubePodCrashLooping", "metadata": {"description": "payment OOM loop"}}],
    }
    cfg = {"ts": "ch9", "mts": "epoch", "mstyle": "json"}
    finish(d, cl, rng, t0, minutes, fault, cfg, ev, snaps, logs, pods, alerts, gt)


def inc6(d):
    """novel: a batch Deployment in another namespace, scaled up with a high PriorityClass, preempts the
    kafka pod; kafka stays Pending (Insufficient memory). The cause's namespace raises no alert at all."""
    rng = random.Random(2106)
    t0, minutes = utc(2026, 8, 30, 8, 50), 44
    cl = Cluster(rng, ["worker-01", "worker-02", "worker-03"])
    tf = M(t0, 17, 12)
    kold = cl.pods["kafka"][0]
    kold["node"] = "worker-02"
    knew = cl.new_pod("kafka", tf + dt.timedelta(seconds=31))
    knew["name"] = f"kafka-{kold['rs']}-{suffix(rng, 5)}"
    bf_rs = "6b9f8d7c4"
    bf_pods = [{"name": f"clickstream-backfill-{bf_rs}-{suffix(rng, 5)}", "uid": uid(rng),
                "node": ["worker-01", "worker-02", "worker-03"][i % 3]} for i in range(6)]
    preemptor = bf_pods[4]  # lands on worker-02
    no_broker = "kafka: client has run out of available brokers to talk to: dial tcp 10.96.12.9:9092: connect: connection refused"
    fault = RuleFault(rng, tf + dt.timedelta(seconds=25),
                      [("checkout", "kafka", None, 1.0, {"kind": "client_error", "msg": no_broker, "ms": 30})],
                      {"accounting": (0.0, 1.0, 0.0), "fraud-detection": (0.0, 1.0, 0.0), "checkout": (0.0, 1.3, 1.0)})
    ev = Events("k8sio", "ch9", rng)
    snaps = base_objects(cl, t0, minutes, 5, DEPS, skip=("kafka",))
    for k in range(0, minutes + 1, 5):
        t = M(t0, k)
        bad = t >= tf
        snaps.append((t, deployment_obj(cl, "kafka", t)))
        snaps.append((t, service_obj(cl, "kafka", managed=True)))
        if not bad:
            snaps.append((t, pod_obj(cl, "kafka", kold, t)))
        else:
            def pend(o):
                o["spec"].pop("nodeName", None)
                o["status"] = {"phase": "Pending", "qosClass": "Burstable",
                               "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                                               "message": "0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
                                               "lastTransitionTime": iso_z(tf + dt.timedelta(seconds=31))}]}
                o["spec"]["containers"][0]["resources"] = {"limits": {"memory": "1Gi"}, "requests": {"memory": "800Mi"}}
            snaps.append((t, pod_obj(cl, "kafka", knew, t, mutate=pend)))
        # the other namespace
        reps = 6 if bad else 1
        bd = {"apiVersion": "apps/v1", "kind": "Deployment",
              "metadata": {"name": "clickstream-backfill", "namespace": "analytics", "generation": 12 if bad else 11,
                           "uid": cl.uid_of("bf"), "labels": {"app": "clickstream-backfill", "team": "data-eng"},
                           "annotations": {"deployment.kubernetes.io/revision": "9"},
                           "managedFields": [{"manager": "argocd-controller", "operation": "Apply", "apiVersion": "apps/v1",
                                              "time": iso_z(tf if bad else t0 - dt.timedelta(days=4)),
                                              "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:replicas": {}}}}]},
              "spec": {"replicas": reps, "selector": {"matchLabels": {"app": "clickstream-backfill"}},
                       "template": {"metadata": {"labels": {"app": "clickstream-backfill"}},
                                    "spec": {"priorityClassName": "batch-critical",
                                             "containers": [{"name": "spark-driver", "image": "registry.internal/data/clickstream-backfill:1.14.0",
                                                             "resources": {"requests": {"cpu": "1500m", "memory": "5Gi"},
                                                                           "limits": {"memory": "5Gi"}}}]}}},
              "status": {"replicas": reps, "readyReplicas": reps}}
        snaps.append((t, bd))
        for p in bf_pods[: reps]:
            snaps.append((t, {"apiVersion": "v1", "kind": "Pod",
                              "metadata": {"name": p["name"], "namespace": "analytics", "uid": p["uid"],
                                           "labels": {"app": "clickstream-backfill", "pod-template-hash": bf_rs}},
                              "spec": {"nodeName": p["node"], "priorityClassName": "batch-critical", "priority": 1000000,
                                       "preemptionPolicy": "PreemptLowerPriority",
                                       "containers": [{"name": "spark-driver", "image": "registry.internal/data/clickstream-backfill:1.14.0"}]},
                              "status": {"phase": "Running"}}))
        snaps.append((t, {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
                          "metadata": {"name": "batch-critical", "creationTimestamp": "2026-02-02T10:00:00Z"},
                          "value": 1000000, "globalDefault": False, "preemptionPolicy": "PreemptLowerPriority",
                          "description": "Backfills that must finish before the reporting window"}))
    ev.add(tf, "Deployment", "clickstream-backfill", "analytics", "ScalingReplicaSet",
           f"Scaled up replica set clickstream-backfill-{bf_rs} to 6 from 1", source="deployment-controller", api="apps/v1")
    for i, p in enumerate(bf_pods[1:], 1):
        ev.add(tf + dt.timedelta(seconds=1), "ReplicaSet", f"clickstream-backfill-{bf_rs}", "analytics", "SuccessfulCreate",
               f"Created pod: {p['name']}", source="replicaset-controller", api="apps/v1")
        ev.add(tf + dt.timedelta(seconds=2 + (28 if p is preemptor else 0)), "Pod", p["name"], "analytics", "Scheduled",
               f"Successfully assigned analytics/{p['name']} to {p['node']}", source="default-scheduler")
    ev.add(tf + dt.timedelta(seconds=2), "Pod", preemptor["name"], "analytics", "FailedScheduling",
           "0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 1 Insufficient memory, 2 No preemption victims found for incoming pod.",
           "Warning", source="default-scheduler")
    ev.add(tf + dt.timedelta(seconds=3), "Pod", kold["name"], NS, "Preempted",
           f"Preempted by pod {preemptor['uid']} on node worker-02", source="default-scheduler")
    ev.add(tf + dt.timedelta(seconds=3), "Pod", kold["name"], NS, "Killing", "Stopping container kafka", host="worker-02")
    ev.add(tf + dt.timedelta(seconds=31), "ReplicaSet", f"kafka-{kold['rs']}", NS, "SuccessfulCreate",
           f"Created pod: {knew['name']}", source="replicaset-controller", api="apps/v1")
    ev.repeat(tf + dt.timedelta(seconds=32), M(t0, minutes), 120, "Pod", knew["name"], NS, "FailedScheduling",
              "0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
              source="default-scheduler")
    # unrelated: product-reviews liveness blip and restart, early on
    pr = cl.pods["product-reviews"][0]
    ev.add(M(t0, 3, 5), "Pod", pr["name"], NS, "Unhealthy",
           "Liveness probe failed: Get \"http://10.244.2.19:8080/health\": context deadline exceeded", "Warning", host=pr["node"])
    ev.add(M(t0, 3, 26), "Pod", pr["name"], NS, "Killing",
           "Container product-reviews failed liveness probe, will be restarted", host=pr["node"])
    logs = []
    for i in range(22):
        t = tf + dt.timedelta(seconds=20 + i * 70 + rng.randint(0, 30))
        logs.append(log_row(cl, t, "accounting", "WARN",
                            "Confluent.Kafka: [thrd:kafka:9092/bootstrap]: kafka:9092/bootstrap: Connect to ipv4#10.96.12.9:9092 failed: "
                            "Connection refused (after 0ms in state CONNECT)", "ch9"))
        logs.append(log_row(cl, t + dt.timedelta(seconds=4), "fraud-detection", "WARN",
                            "[Consumer clientId=consumer-fraud-detection-1, groupId=fraud-detection] Connection to node 1 "
                            "(kafka/10.96.12.9:9092) could not be established. Node may not be available.", "ch9"))
        if i % 2 == 0:
            logs.append(log_row(cl, t + dt.timedelta(seconds=9), "checkout", "ERROR",
                                f"Failed to write message to kafka topic orders: {no_broker}", "ch9"))
    logs.append(log_row(cl, M(t0, 3, 2), "product-reviews", "WARN", "LLM call timed out after 5s, returning cached summary", "ch9"))
    for i in range(5):
        logs.append(log_row(cl, M(t0, 5 + i * 8), "accounting", "INFO", f"Order details persisted: {uid(rng)}", "ch9"))
    pods = {f"pod_{kold['name']}.tsv": pod_metrics(rng, cl, t0, 18, "kafka", pod=kold["name"], ts_mode="epoch",
                                                   mem_fn=lambda t: (690 + rng.random() * 20) * 1048576),
            f"pod_{cl.pod('accounting')}.tsv": pod_metrics(rng, cl, t0, minutes, "accounting", ts_mode="epoch",
                                                           cpu_fn=lambda t: 0.002 if t > tf else 0.03)}
    alerts = []
    for at in (M(t0, 21, 15), M(t0, 27, 45), M(t0, 39, 0)):
        al = [prom_alert("KubePodNotReady", "warning", {"namespace": NS, "pod": knew["name"]},
                         "Pod has been in a non-ready state for more than 15 minutes.",
                         f"Pod {NS}/{knew['name']} has been in a non-ready state for longer than 15 minutes.",
                         tf + dt.timedelta(seconds=31), "1e+00", "firing" if at > M(t0, 33) else "pending"),
              prom_alert("NoDatabaseOperations", "warning", {"service_name": "accounting", "namespace": NS},
                         "Accounting stopped writing orders", "No postgres operations from accounting for 3m", M(t0, 20, 40), "0e+00"),
              prom_alert("KafkaProducerErrors", "warning", {"service_name": "checkout", "namespace": NS},
                         "checkout fails to publish orders", "rate of kafka publish errors > 0", M(t0, 19, 0), "1.8e-01")]
        alerts.append((at, {"data": {"alerts": al}}))
    gt = {
        "groups": [g("backfill-deployment-1", "Deployment", "analytics", name="clickstream-backfill", root=True),
                   g("backfill-pod-1", "Pod", "analytics", ["clickstream-backfill-.*"]),
                   g("kafka-pod-1", "Pod", NS, ["kafka-.*"]), g("kafka-service-1", "Service", NS, [r"kafka\b"])]
        + svc_groups("checkout", "accounting", "fraud-detection"),
        "aliases": [["backfill-deployment-1", "backfill-pod-1"], ["kafka-pod-1", "kafka-service-1"],
                    ["accounting-service-1", "accounting-pod-1"], ["checkout-service-1", "checkout-pod-1"],
                    ["fraud-detection-service-1", "fraud-detection-pod-1"]],
        "propagations": [
            {"source": "backfill-deployment-1", "target": "backfill-pod-1", "condition": "scaled 1 -> 6 replicas with priorityClassName batch-critical (1000000)",
             "effect": "new high-priority pods need 5Gi each"},
            {"source": "backfill-pod-1", "target": "kafka-pod-1", "condition": "scheduler preempts lower-priority kafka on worker-02",
             "effect": "kafka evicted; replacement Pending (Insufficient memory) - unavailable"},
            {"source": "kafka-service-1", "target": "checkout-service-1", "condition": "no broker", "effect": "order publish errors"},
            {"source": "kafka-service-1", "target": "accounting-service-1", "condition": "no broker",
             "effect": "accounting consumes nothing; no database operations"},
            {"source": "kafka-service-1", "target": "fraud-detection-service-1", "condition": "no broker",
             "effect": "fraud-detection consumes nothing"}],
        "fault": [{"category": "Change", "condition": "high-priority batch scale-up preempts kafka",
                   "entity": {"group_id": "backfill-deployment-1", "kind": "Deployment", "name": "clickstream-backfill"},
                   "fault_mechanism": "custom"}],
        "alerts": [{"group_id": "kafka-pod-1", "id": "KubePodNotReady", "metadata": {"description": "replacement kafka pod Pending"}},
                   {"group_id": "accounting-service-1", "id": "NoDatabaseOperations", "metadata": {"description": "accounting idle"}},
                   {"group_id": "checkout-service-1", "id": "KafkaProducerErrors", "metadata": {"description": "publish fails"}}],
    }
    cl.pods["kafka"] = [kold, knew]
    cfg = {"ts": "ch9", "mts": "epoch", "mstyle": "json"}
    finish(d, cl, rng, t0, minutes, fault, cfg, ev, snaps, logs, pods, alerts, gt)


def inc7(d):
    """novel: a LimitRange added to the namespace gives containers without limits a 128Mi default; a routine
    rollout restart (identical spec) of the two kafka consumers then OOM-loops both."""
    rng = random.Random(2107)
    t0, minutes = utc(2026, 9, 11, 11, 15), 40
    cl = Cluster(rng, ["ip-172-31-7-201.eu-west-1.compute.internal", "ip-172-31-22-48.eu-west-1.compute.internal",
                       "ip-172-31-40-9.eu-west-1.compute.internal"])
    t_lr = M(t0, 9, 2)
    t_rr = M(t0, 15, 0)
    victims = ("fraud-detection", "accounting")
    old, new = {}, {}
    for v in victims:
        old[v] = cl.pods[v][0]
        new[v] = cl.new_pod(v, t_rr + dt.timedelta(seconds=5), rs=suffix(rng, 10))
    fault = RuleFault(rng, t_rr + dt.timedelta(seconds=40), [],
                      {"accounting": (0.0, 1.0, 0.0), "fraud-detection": (0.0, 1.0, 0.0)})
    ev = Events("core", "iso", rng)
    restarts = lambda t: 0 if t < t_rr else int((t - t_rr).total_seconds() // 140) + 1

    def nolimits(c):
        c.pop("resources", None)
        return c

    def defaulted(c):
        c["resources"] = {"limits": {"cpu": "500m", "memory": "128Mi"}, "requests": {"cpu": "100m", "memory": "64Mi"}}
        return c

    lr = {"apiVersion": "v1", "kind": "LimitRange",
          "metadata": {"name": "namespace-defaults", "namespace": NS, "uid": uid(rng), "creationTimestamp": iso_z(t_lr),
                       "labels": {"platform.example.com/baseline": "v3"},
                       "managedFields": [{"manager": "kubectl-client-side-apply", "operation": "Update", "apiVersion": "v1",
                                          "time": iso_z(t_lr), "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:limits": {}}}}]},
          "spec": {"limits": [{"type": "Container", "default": {"cpu": "500m", "memory": "128Mi"},
                               "defaultRequest": {"cpu": "100m", "memory": "64Mi"}, "max": {"memory": "2Gi"}}]}}
    snaps = []
    for k in range(0, minutes + 1, 5):
        t = M(t0, k)
        for dep in DEPS:
            if dep in victims:
                rr = t >= t_rr
                ann = {"kubectl.kubernetes.io/restartedAt": iso_z(t_rr)} if rr else None
                o = deployment_obj(cl, dep, t, generation=4 if rr else 3, containers=nolimits)
                if ann:
                    o["spec"]["template"]["metadata"]["annotations"] = ann
                    o["status"].update({"unavailableReplicas": 1, "readyReplicas": 0})
                snaps.append((t, o))
                if not rr:
                    snaps.append((t, pod_obj(cl, dep, old[dep], t, mutate=lambda o: o["spec"]["containers"][0].pop("resources", None))))
                else:
                    r = restarts(t)

                    def m(o, dep=dep):
                        defaulted(o["spec"]["containers"][0])
                        o["metadata"]["annotations"] = {
                            "kubernetes.io/limit-ranger": f"LimitRanger plugin set: cpu, memory request for container {dep}; cpu, memory limit for container {dep}",
                            "kubectl.kubernetes.io/restartedAt": iso_z(t_rr)}
                    snaps.append((t, pod_obj(cl, dep, new[dep], t, ready=False, restarts=r,
                                             waiting={"reason": "CrashLoopBackOff"} if r > 1 else None,
                                             last_state={"terminated": {"exitCode": 137, "reason": "OOMKilled",
                                                                        "finishedAt": iso_z(t - dt.timedelta(seconds=30))}} if r else None,
                                             mutate=m)))
            else:
                snaps.append((t, deployment_obj(cl, dep, t)))
                if APP[dep][1]:
                    snaps.append((t, service_obj(cl, dep, managed=True)))
                snaps.append((t, pod_obj(cl, dep, cl.pods[dep][0], t)))
        if t >= t_lr:
            snaps.append((t, lr))
        snaps.append((t, {"apiVersion": "v1", "kind": "ResourceQuota",
                          "metadata": {"name": "otel-demo-quota", "namespace": NS},
                          "spec": {"hard": {"pods": "60", "requests.memory": "24Gi"}},
                          "status": {"hard": {"pods": "60", "requests.memory": "24Gi"},
                                     "used": {"pods": "23", "requests.memory": "3712Mi"}}}))
    for v in victims:
        cl.pods[v] = [old[v], new[v]]
        n = new[v]["node"]
        ev.add(t_rr, "Deployment", v, NS, "ScalingReplicaSet", f"Scaled up replica set {v}-{new[v]['rs']} to 1",
               source="deployment-controller", api="apps/v1")
        ev.add(t_rr + dt.timedelta(seconds=4), "Pod", new[v]["name"], NS, "Started", f"Started container {v}", host=n)
        ev.add(t_rr + dt.timedelta(seconds=30), "Deployment", v, NS, "ScalingReplicaSet",
               f"Scaled down replica set {v}-{old[v]['rs']} to 0 from 1", source="deployment-controller", api="apps/v1")
        ev.repeat(t_rr + dt.timedelta(seconds=150), M(t0, minutes), 75, "Pod", new[v]["name"], NS, "BackOff",
                  f"Back-off restarting failed container {v} in pod {new[v]['name']}_{NS}({new[v]['uid']})", host=n)
    other_ns_trouble(ev, snaps, rng, t0, minutes, "observability-lab", "grafana-7c6d9b8f5-tt4qz", "BackOff",
                     "Back-off restarting failed container grafana in pod grafana-7c6d9b8f5-tt4qz_observability-lab",
                     "grafana/grafana:11.2.0")
    logs = []
    for i in range(10):
        t = t_rr + dt.timedelta(seconds=8 + i * 140)
        logs.append(log_row(cl, t, "fraud-detection", "INFO",
                            "[main] INFO org.apache.kafka.clients.consumer.KafkaConsumer - [Consumer clientId=consumer-fraud-detection-1, "
                            "groupId=fraud-detection] Subscribed to topic(s): orders", "iso", pod=new["fraud-detection"]["name"]))
        logs.append(log_row(cl, t + dt.timedelta(seconds=25), "fraud-detection", "WARN",
                            "[main] WARN o.a.k.c.c.internals.ConsumerCoordinator - Offset commit failed on partition orders-0: "
                            "The coordinator is loading and hence can't process requests.", "iso", pod=new["fraud-detection"]["name"]))
        logs.append(log_row(cl, t + dt.timedelta(seconds=3), "accounting", "INFO",
                            "Microsoft.Hosting.Lifetime[0] Application started. Hosting environment: Production",
                            "iso", pod=new["accounting"]["name"]))
    logs.append(log_row(cl, M(t0, 9, 5), "frontend", "INFO", "Next.js ready on http://0.0.0.0:8080", "iso"))
    pods = {}
    for v in victims:
        pods[f"pod_{new[v]['name']}.tsv"] = pod_metrics(
            rng, cl, t0, minutes, v, pod=new[v]["name"], ts_mode="iso", style="repr", restarts_fn=restarts,
            mem_fn=lambda t: 0 if t < t_rr else (70 + ((t - t_rr).total_seconds() % 140) * 0.45) * 1048576)
        pods[f"pod_{old[v]['name']}.tsv"] = pod_metrics(rng, cl, t0, 16, v, pod=old[v]["name"], ts_mode="iso", style="repr",
                                                        mem_fn=lambda t: (212 + rng.random() * 15) * 1048576)
    alerts = [(M(t0, 24), prom_alert("KafkaConsumerGroupLag", "warning",
                                     {"consumergroup": "fraud-detection", "topic": "orders", "service_name": "kafka", "namespace": NS},
                                     "Consumer group lag is growing", "fraud-detection lag 412 messages", M(t0, 21), "4.12e+02"))]
    for at in (M(t0, 29), M(t0, 37)):
        al = [prom_alert("KafkaConsumerGroupLag", "warning",
                         {"consumergroup": "fraud-detection", "topic": "orders", "service_name": "kafka", "namespace": NS},
                         "Consumer group lag is growing", "fraud-detection lag", M(t0, 21), "9.4e+02"),
              prom_alert("KafkaConsumerGroupLag", "warning",
                         {"consumergroup": "accounting", "topic": "orders", "service_name": "kafka", "namespace": NS},
                         "Consumer group lag is growing", "accounting lag", M(t0, 22), "8.8e+02"),
              prom_alert("NoDatabaseOperations", "warning", {"service_name": "accounting", "namespace": NS},
                         "Accounting stopped writing orders", "No postgres operations from accounting for 3m", M(t0, 19), "0e+00"),
              prom_alert("KubePodCrashLooping", "warning", {"namespace": "observability-lab", "pod": "grafana-7c6d9b8f5-tt4qz"},
                         "Pod is crash looping.", "grafana restarting", t0 - dt.timedelta(minutes=50), "4e+00")]
        alerts.append((at, {"alerts": al}))
    gt = {
        "groups": [g("limitrange-1", "LimitRange", NS, ["namespace-defaults"], name="namespace-defaults", root=True)]
        + [g("fraud-detection-deployment-1", "Deployment", NS, [r"fraud-detection\b"]),
           g("accounting-deployment-1", "Deployment", NS, [r"accounting\b"]),
           g("kafka-service-1", "Service", NS, [r"kafka\b"])]
        + svc_groups("fraud-detection", "accounting"),
        "aliases": [["fraud-detection-deployment-1", "fraud-detection-pod-1", "fraud-detection-service-1"],
                    ["accounting-deployment-1", "accounting-pod-1", "accounting-service-1"]],
        "propagations": [
            {"source": "limitrange-1", "target": "fraud-detection-pod-1", "condition": "default container limit 128Mi applied at admission to the restarted pod",
             "effect": "fraud-detection OOMKilled, CrashLoopBackOff"},
            {"source": "limitrange-1", "target": "accounting-pod-1", "condition": "default container limit 128Mi applied at admission to the restarted pod",
             "effect": "accounting OOMKilled, CrashLoopBackOff"},
            {"source": "fraud-detection-pod-1", "target": "kafka-service-1", "condition": "consumer down", "effect": "consumer group lag grows"},
            {"source": "accounting-pod-1", "target": "kafka-service-1", "condition": "consumer down",
             "effect": "consumer group lag grows; no database operations"}],
        "fault": [{"category": "Change", "condition": "LimitRange namespace-defaults created (default memory limit 128Mi)",
                   "entity": {"group_id": "limitrange-1", "kind": "LimitRange", "name": "namespace-defaults"},
                   "fault_mechanism": "custom"}],
        "alerts": [{"group_id": "kafka-service-1", "id": "KafkaConsumerGroupLag", "metadata": {"description": "lag"}},
                   {"group_id": "accounting-service-1", "id": "NoDatabaseOperations", "metadata": {"description": "idle"}}],
    }
    cfg = {"ts": "iso", "mts": "iso", "mstyle": "repr", "drop_proxy": True, "wrapped": True}
    finish(d, cl, rng, t0, minutes, fault, cfg, ev, snaps, logs, pods, alerts, gt)


def inc8(d):
    """novel: a maintenance CronJob's schedule was edited from weekly to every 20 minutes; its job sets
    valkey maxmemory 2mb + noeviction, so cart writes (AddItem) fail while reads still work."""
    rng = random.Random(2108)
    t0, minutes = utc(2026, 10, 25, 1, 40), 45
    cl = Cluster(rng, ["k3s-agent-1", "k3s-agent-2", "k3s-server-1"])
    t_edit = M(t0, 8, 37)
    t_job = M(t0, 20, 0)
    job = f"valkey-maintenance-{int(t_job.timestamp() // 60)}"
    jpod = f"{job}-{suffix(rng, 5)}"
    t_job2 = M(t0, 40, 0)
    job2 = f"valkey-maintenance-{int(t_job2.timestamp() // 60)}"
    jpod2 = f"{job2}-{suffix(rng, 5)}"
    oom = "OOM command not allowed when used memory > 'maxmemory'."
    fault = RuleFault(rng, t_job + dt.timedelta(seconds=6),
                      [("cart", "valkey-cart", "HMSET", 1.0, {"kind": "server_error", "msg": oom})],
                      {"cart": (0.27, 1.0, 1.0), "frontend": (0.13, 1.0, 1.0), "frontend-proxy": (0.13, 1.0, 1.0)})
    ev = Events("core", "ch9", rng)
    snaps = base_objects(cl, t0, minutes, 5, DEPS, managed=False, skip=("image-provider",))
    for k in range(0, minutes + 1, 5):
        t = M(t0, k)
        snaps.append((t, service_obj(cl, "image-provider")))
        snaps.append((t, pod_obj(cl, "image-provider", cl.pods["image-provider"][0], t)))
        if t < M(t0, 18, 10):
            snaps.append((t, deployment_obj(cl, "image-provider", t, managed=False, generation=3)))
    cj_script = ("valkey-cli -h valkey-cart CONFIG SET maxmemory 2mb && valkey-cli -h valkey-cart CONFIG SET maxmemory-policy noeviction && "
                 "valkey-cli -h valkey-cart MEMORY PURGE && echo compaction window open")
    for k in range(0, minutes + 1, 5):
        t = M(t0, k)
        edited = t >= t_edit
        snaps.append((t, {"apiVersion": "batch/v1", "kind": "CronJob",
                          "metadata": {"name": "valkey-maintenance", "namespace": NS, "uid": cl.uid_of("cj"),
                                       "creationTimestamp": "2026-09-30T12:00:00Z",
                                       "resourceVersion": "3391021" if edited else "2210774",
                                       "annotations": {"owner": "cart-team", "description": "weekly compaction of the cart cache"}},
                          "spec": {"schedule": "*/20 * * * *" if edited else "30 3 * * 0", "timeZone": "Etc/UTC",
                                   "concurrencyPolicy": "Forbid", "suspend": False, "successfulJobsHistoryLimit": 3,
                                   "jobTemplate": {"spec": {"backoffLimit": 0, "template": {"spec": {
                                       "restartPolicy": "Never",
                                       "containers": [{"name": "maint", "image": "valkey/valkey:8.1.3-alpine",
                                                       "command": ["/bin/sh", "-c", cj_script]}]}}}}},
                          "status": {"lastScheduleTime": iso_z(t_job)} if t >= t_job else {}}))
        if t >= t_job:
            snaps.append((t, {"apiVersion": "batch/v1", "kind": "Job",
                              "metadata": {"name": job, "namespace": NS,
                                           "ownerReferences": [{"apiVersion": "batch/v1", "kind": "CronJob", "name": "valkey-maintenance",
                                                                "controller": True}]},
                              "spec": {"backoffLimit": 0},
                              "status": {"succeeded": 1, "startTime": iso_z(t_job), "completionTime": iso_z(t_job + dt.timedelta(seconds=7))}}))
        if t >= M(t0, 18, 10):
            o = deployment_obj(cl, "image-provider", t, managed=False, replicas=2, generation=4)
            snaps.append((t, o))
    ev.add(t_job, "CronJob", "valkey-maintenance", NS, "SuccessfulCreate", f"Created job {job}", source="cronjob-controller",
           api="batch/v1")
    ev.add(t_job, "Job", job, NS, "SuccessfulCreate", f"Created pod: {jpod}", source="job-controller", api="batch/v1")
    ev.add(t_job + dt.timedelta(seconds=1), "Pod", jpod, NS, "Scheduled", f"Successfully assigned {NS}/{jpod} to k3s-agent-2",
           source="default-scheduler")
    ev.add(t_job + dt.timedelta(seconds=3), "Pod", jpod, NS, "Started", "Started container maint", host="k3s-agent-2")
    ev.add(t_job + dt.timedelta(seconds=7), "Job", job, NS, "Completed", "Job completed", source="job-controller", api="batch/v1")
    ev.add(t_job + dt.timedelta(seconds=10), "CronJob", "valkey-maintenance", NS, "SawCompletedJob",
           f"Saw completed job: {job}, status: Complete", source="cronjob-controller", api="batch/v1")
    ev.add(t_job2, "CronJob", "valkey-maintenance", NS, "SuccessfulCreate", f"Created job {job2}", source="cronjob-controller",
           api="batch/v1")
    ev.add(t_job2 + dt.timedelta(seconds=6), "Job", job2, NS, "Completed", "Job completed", source="job-controller", api="batch/v1")
    ev.add(M(t0, 18, 10), "Deployment", "image-provider", NS, "ScalingReplicaSet",
           f"Scaled up replica set image-provider-{cl.rs['image-provider']} to 2 from 1", source="deployment-controller", api="apps/v1")
    fp = cl.pods["frontend-proxy"][0]
    ev.add(M(t0, 4, 12), "Pod", fp["name"], NS, "SandboxChanged", "Pod sandbox changed, it will be killed and re-created.",
           host=fp["node"])
    ev.add(M(t0, 4, 15), "Pod", fp["name"], NS, "Started", "Started container frontend-proxy", host=fp["node"])
    other_ns_trouble(ev, snaps, rng, t0, minutes, "search", "opensearch-node-1-0", "BackOff",
                     "Back-off restarting failed container opensearch in pod opensearch-node-1-0_search",
                     "opensearchproject/opensearch:2.17.0")
    logs = [log_row(cl, t_job + dt.timedelta(seconds=4), "valkey-maintenance", "INFO", "OK", "ch9", pod=jpod),
            log_row(cl, t_job + dt.timedelta(seconds=4), "valkey-maintenance", "INFO", "OK", "ch9", pod=jpod),
            log_row(cl, t_job + dt.timedelta(seconds=5), "valkey-maintenance", "INFO", "compaction window open", "ch9", pod=jpod),
            log_row(cl, t_job2 + dt.timedelta(seconds=4), "valkey-maintenance", "INFO", "compaction window open", "ch9", pod=jpod2),
            log_row(cl, M(t0, 4, 16), "frontend-proxy", "INFO",
                    "[2026-10-25 01:44:16.201][1][info][main] [source/server/server.cc:955] starting main dispatch loop", "ch9")]
    for i in range(26):
        t = t_job + dt.timedelta(seconds=15 + i * 55 + rng.randint(0, 30))
        logs.append(log_row(cl, t, "cart", "ERROR",
                            f"Can't access cart storage. StackExchange.Redis.RedisServerException: {oom}\n"
                            "   at cart.cartstore.ValkeyCartStore.AddItemAsync(String userId, String productId, Int32 quantity)",
                            "ch9"))
    logs.append(log_row(cl, M(t0, 2), "valkey-cart", "INFO", "1:M 25 Oct 2026 01:42:00.113 * 100 changes in 300 seconds. Saving...", "ch9"))
    pods = {f"pod_{cl.pod('valkey-cart')}.tsv": pod_metrics(rng, cl, t0, minutes, "valkey-cart", ts_mode="iso",
                                                            mem_fn=lambda t: (11.5 if t < t_job else 3.9) * 1048576 * (0.98 + rng.random() * 0.04)),
            f"pod_{cl.pod('cart')}.tsv": pod_metrics(rng, cl, t0, minutes, "cart", ts_mode="iso"),
            f"pod_{fp['name']}.tsv": pod_metrics(rng, cl, t0, minutes, "frontend-proxy", ts_mode="iso",
                                                 restarts_fn=lambda t: 1 if t > M(t0, 4, 12) else 0)}
    alerts = []
    for at in (M(t0, 24), M(t0, 30), M(t0, 42)):
        al = [prom_alert("HighRequestErrorRate", "critical", {"service_name": "frontend", "namespace": NS},
                         "Error rate is above threshold", "frontend error ratio above 5%", M(t0, 22), "1.3e-01"),
              prom_alert("HighRequestErrorRate", "critical", {"service_name": "cart", "namespace": NS},
                         "Error rate is above threshold", "cart error ratio above 5%", M(t0, 21, 30), "2.7e-01"),
              prom_alert("KubeStatefulSetReplicasMismatch", "warning", {"namespace": "search", "statefulset": "opensearch-node-1"},
                         "StatefulSet has not matched the expected number of replicas.", "search/opensearch-node-1 2/3",
                         t0 - dt.timedelta(hours=1), "2e+00")]
        alerts.append((at, {"status": "success", "data": {"alerts": al}}))
    gt = {
        "groups": [g("valkey-maintenance-cronjob-1", "CronJob", NS, name="valkey-maintenance", root=True),
                   g("valkey-maintenance-job-1", "Job", NS, ["valkey-maintenance-.*"]),
                   g("valkey-maintenance-pod-1", "Pod", NS, ["valkey-maintenance-.*"]),
                   g("valkey-cart-service-1", "Service", NS, [r"valkey-cart\b"]),
                   g("valkey-cart-pod-1", "Pod", NS, ["valkey-cart-.*"])]
        + svc_groups("cart", "frontend"),
        "aliases": [["valkey-maintenance-cronjob-1", "valkey-maintenance-job-1", "valkey-maintenance-pod-1"],
                    ["valkey-cart-service-1", "valkey-cart-pod-1"], ["cart-service-1", "cart-pod-1"],
                    ["frontend-service-1", "frontend-pod-1"]],
        "propagations": [
            {"source": "valkey-maintenance-cronjob-1", "target": "valkey-maintenance-job-1",
             "condition": "schedule edited from '30 3 * * 0' to '*/20 * * * *'", "effect": "maintenance job runs during business traffic"},
            {"source": "valkey-maintenance-job-1", "target": "valkey-cart-service-1",
             "condition": "CONFIG SET maxmemory 2mb, maxmemory-policy noeviction", "effect": "valkey rejects writes with OOM"},
            {"source": "valkey-cart-service-1", "target": "cart-service-1", "condition": "HMSET rejected", "effect": "cart AddItem error rate above threshold"},
            {"source": "cart-service-1", "target": "frontend-service-1", "condition": "POST /api/cart fails", "effect": "frontend error rate above threshold"}],
        "fault": [{"category": "Change", "condition": "CronJob schedule changed; job reconfigures valkey",
                   "entity": {"group_id": "valkey-maintenance-cronjob-1", "kind": "CronJob", "name": "valkey-maintenance"},
                   "fault_mechanism": "custom"}],
        "alerts": [{"group_id": "frontend-service-1", "id": "HighRequestErrorRate", "metadata": {"description": "frontend errors"}},
                   {"group_id": "cart-service-1", "id": "HighRequestErrorRate", "metadata": {"description": "cart errors"}}],
    }
    cfg = {"ts": "ch9", "mts": "iso", "mstyle": "json", "buckets": True}
    finish(d, cl, rng, t0, minutes, fault, cfg, ev, snaps, logs, pods, alerts, gt)


def main(argv):
    if len(argv) != 2:
        print("usage: python gen.py OUT", file=sys.stderr)
        return 2
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    for n, fn in enumerate((inc1, inc2, inc3, inc4, inc5, inc6, inc7, inc8), 1):
        d = os.path.join(out, f"Scenario-{n}")
        os.makedirs(d, exist_ok=True)
        fn(d)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
