#!/usr/bin/env python3
"""sre-set13: 13 held-out SRE incident snapshots (ITBench-Lite v0.2 layout), written from scratch.

Usage: python3 gen.py OUTDIR   -> OUTDIR/Scenario-1..13/ and OUTDIR/../<basename>-answer_key.json
Deterministic (no hash-order or clock dependence). Python 3 stdlib + PyYAML.
"""
import copy
import hashlib
import json
import os
import random
import re
import sys
from datetime import datetime, timedelta, timezone

import yaml

NS = "otel-demo"
NODES = ["ip-10-0-1-23.us-east-2.compute.internal",
         "ip-10-0-2-118.us-east-2.compute.internal",
         "ip-10-0-3-41.us-east-2.compute.internal"]
NODE_IID = {NODES[0]: "i-0a1b2c3d4e5f60718", NODES[1]: "i-0f9e8d7c6b5a49382", NODES[2]: "i-05c4d3e2f1a0b9c87"}
PORTS = {"frontend": 8080, "frontend-proxy": 8080, "cart": 8080, "checkout": 8080, "payment": 8080,
         "product-catalog": 8080, "currency": 8080, "shipping": 8080, "quote": 8080, "email": 8080,
         "ad": 8080, "recommendation": 8080, "fraud-detection": 8080, "accounting": 8080,
         "product-reviews": 8080, "valkey-cart": 6379, "kafka": 9092, "flagd": 8013, "postgresql": 5432,
         "llm": 8000}
IMAGES = {s: "ghcr.io/open-telemetry/demo:2.1.3-%s" % s for s in PORTS}
IMAGES["valkey-cart"] = "valkey/valkey:8.1.3-alpine"
IMAGES["kafka"] = "ghcr.io/open-telemetry/demo:2.1.3-kafka"
IMAGES["flagd"] = "ghcr.io/open-feature/flagd:v0.12.9"
IMAGES["postgresql"] = "postgres:17.6"


def hid(*parts, n=16):
    return hashlib.sha256("|".join(str(p) for p in parts).encode()).hexdigest()[:n]


def podname(svc, tag, case):
    h = hid(svc, tag, case, n=32)
    al = "bcdfghjklmnpqrstvwxz2456789"
    rs = "".join(al[int(h[i:i + 2], 16) % 27] for i in range(0, 20, 2))
    sfx = "".join(al[int(h[i:i + 2], 16) % 27] for i in range(20, 30, 2))
    return "%s-%s-%s" % (svc, rs[:9 + int(h[30], 16) % 2], sfx)


def sibling(w, svc, tag):
    """A new pod name in the ReplicaSet of svc's current pod (same pod-template-hash)."""
    cur = [o["metadata"]["name"] for m, o, wt in w.snaps if o["kind"] == "Pod" and o["metadata"].get("namespace") == NS
           and o["metadata"]["labels"].get("opentelemetry.io/name") == svc][-1:]
    sfx = "".join("bcdfghjklmnpqrstvwxz2456789"[int(x, 16) % 27] for x in hid(svc, tag, w.c["n"], n=5))
    return cur[0].rsplit("-", 1)[0] + "-" + sfx


# ---------------------------------------------------------------- timestamps
def tsfmt(dt, form):
    if form == 0:
        return dt.strftime("%Y-%m-%dT%H:%M:%SZ")
    if form == 1:
        return dt.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    if form == 2:
        return dt.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]
    if form == 3:
        return dt.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "+00:00"
    return dt.strftime("%Y-%m-%d %H:%M:%S.%f") + "000"  # ClickHouse DateTime64(9)


def k8sts(dt):
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


# ---------------------------------------------------------------- world
class World:
    def __init__(self, case):
        self.c = case
        self.t0 = case["t0"]
        self.objs = {}          # (kind, ns, name) -> obj
        self.snaps = []         # (minute, obj copy, watchtype)
        self.events = []        # (minute(float), event object)
        self.logs = []          # (minute, svc, sev, body, pod, traceid, spanid)
        self.pods_ever = set()
        self.rng = random.Random(case["n"] * 7919)

    def at(self, m):
        return self.t0 + timedelta(seconds=round(m * 60, 3))

    # objects
    def put(self, obj, m, watch="MODIFIED"):
        k = (obj["kind"], obj["metadata"].get("namespace", ""), obj["metadata"]["name"])
        rv = 48211 + len(self.snaps) * 7
        obj["metadata"]["resourceVersion"] = str(rv)
        if k not in self.objs and watch == "MODIFIED":
            watch = "ADDED"
        self.objs[k] = obj
        if obj["kind"] == "Pod":
            self.pods_ever.add(obj["metadata"]["name"])
        self.snaps.append((m, copy.deepcopy(obj), watch))
        return obj

    def get(self, kind, name, ns=NS):
        return self.objs[(kind, ns, name)]

    def delete(self, kind, name, m, ns=NS):
        obj = self.objs.pop((kind, ns, name))
        self.snaps.append((m, copy.deepcopy(obj), "DELETED"))

    def snapshot_all(self, m):
        for k in sorted(self.objs):
            self.snaps.append((m, copy.deepcopy(self.objs[k]), "MODIFIED"))

    def mf(self, manager, op, m, fields):
        if not self.c.get("managed"):
            return None
        return {"manager": manager, "operation": op, "apiVersion": "v1", "time": k8sts(self.at(m)),
                "fieldsType": "FieldsV1", "fieldsV1": fields}

    def add_mf(self, obj, manager, op, m, fields=None):
        e = self.mf(manager, op, m, fields or {"f:data": {}})
        if e:
            obj["metadata"].setdefault("managedFields", []).append(e)

    def event(self, m, kind, name, reason, msg, typ="Normal", count=1, comp="kubelet", host=None,
              ns=NS, first=None):
        self.events.append((m, dict(kind=kind, name=name, ns=ns, reason=reason, msg=msg, typ=typ,
                                    count=count, comp=comp, host=host, first=first)))

    def log(self, m, svc, sev, body, pod=None, trace="", span=""):
        self.logs.append((m, svc, sev, body, pod, trace, span))


def node_obj(name, m0, ready=True, taints=None, labels=None, with_status=True):
    lab = {"kubernetes.io/hostname": name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
           "node.kubernetes.io/instance-type": "m6i.xlarge", "topology.kubernetes.io/zone":
           "us-east-2" + "abc"[NODES.index(name)], "eks.amazonaws.com/nodegroup": "otel-demo-ng"}
    lab.update(labels or {})
    o = {"apiVersion": "v1", "kind": "Node",
         "metadata": {"name": name, "labels": lab, "uid": hid("node", name, n=8) + "-4e1a-9c2d-" + hid(name, n=12),
                      "creationTimestamp": "2026-09-02T07:14:55Z"},
         "spec": {"providerID": "aws:///us-east-2%s/%s" % ("abc"[NODES.index(name)], NODE_IID[name])}}
    if taints:
        o["spec"]["taints"] = taints
    if with_status:
        o["status"] = {"capacity": {"cpu": "4", "memory": "16073588Ki", "pods": "58"},
                       "allocatable": {"cpu": "3920m", "memory": "15056756Ki", "pods": "58"},
                       "conditions": [{"type": "Ready", "status": "True" if ready else "Unknown",
                                       "reason": "KubeletReady" if ready else "NodeStatusUnknown",
                                       "message": "kubelet is posting ready status" if ready else
                                       "Kubelet stopped posting node status.",
                                       "lastHeartbeatTime": "2026-11-01T00:00:00Z",
                                       "lastTransitionTime": "2026-11-01T00:00:00Z"}]}
    return o


def deploy_obj(w, svc, replicas=1, env=None, extra_spec=None, limits=True, ts_created="2026-10-30T11:02:13Z"):
    c = {"name": svc, "image": IMAGES[svc], "imagePullPolicy": "IfNotPresent",
         "ports": [{"containerPort": PORTS[svc], "name": "service", "protocol": "TCP"}],
         "env": [{"name": "OTEL_SERVICE_NAME", "value": svc}] + (env or [])}
    if limits:
        c["resources"] = {"limits": {"memory": "%dMi" % (300 if svc not in ("kafka", "fraud-detection") else 800)},
                          "requests": {"cpu": "50m", "memory": "%dMi" % (120 if svc != "kafka" else 500)}}
    o = {"kind": "Deployment", "apiVersion": "apps/v1",
         "metadata": {"name": svc, "namespace": NS, "generation": 1,
                      "labels": {"app.kubernetes.io/name": svc, "app.kubernetes.io/part-of": "opentelemetry-demo",
                                 "app.kubernetes.io/managed-by": "Helm"},
                      "annotations": {"deployment.kubernetes.io/revision": "1", "meta.helm.sh/release-name": "otel-demo"},
                      "creationTimestamp": ts_created, "uid": hid("dep", svc, w.c["n"], n=8) + "-7d1c-4b0e-a1f3-" + hid(svc, n=12)},
         "spec": {"replicas": replicas, "revisionHistoryLimit": 10,
                  "selector": {"matchLabels": {"opentelemetry.io/name": svc}},
                  "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
                  "template": {"metadata": {"labels": {"opentelemetry.io/name": svc, "app.kubernetes.io/name": svc}},
                               "spec": {"containers": [c], "serviceAccountName": "otel-demo"}}}}
    if extra_spec:
        o["spec"]["template"]["spec"].update(extra_spec)
    if w.c.get("dep_status", True):
        o["status"] = {"replicas": replicas, "readyReplicas": replicas, "availableReplicas": replicas,
                       "updatedReplicas": replicas, "observedGeneration": 1}
    return o


def svc_obj(svc):
    return {"apiVersion": "v1", "kind": "Service",
            "metadata": {"name": svc, "namespace": NS, "labels": {"app.kubernetes.io/name": svc}},
            "spec": {"type": "ClusterIP", "selector": {"opentelemetry.io/name": svc},
                     "ports": [{"name": "tcp-service", "port": PORTS[svc], "protocol": "TCP",
                                "targetPort": PORTS[svc]}]}}


def pod_obj(w, dep, name, node, m, phase="Running", ready=True, restarts=0, state=None, last=None, rs=None):
    tmpl = copy.deepcopy(dep["spec"]["template"]["spec"])
    rsname = rs or name.rsplit("-", 1)[0]
    st = {"phase": phase, "hostIP": "10.0.%d.%d" % (NODES.index(node) + 1 if node in NODES else 9, 23),
          "podIP": "10.0.%d.%d" % (NODES.index(node) + 1 if node in NODES else 9, 100 + int(hid(name, n=2), 16) % 120),
          "startTime": k8sts(w.at(m)), "qosClass": "Burstable",
          "conditions": [{"type": "Ready", "status": "True" if ready else "False"},
                         {"type": "ContainersReady", "status": "True" if ready else "False"},
                         {"type": "PodScheduled", "status": "True" if node else "False"}]}
    if node:
        cs = {"name": tmpl["containers"][0]["name"], "image": tmpl["containers"][0]["image"], "ready": ready,
              "restartCount": restarts, "started": ready,
              "state": state or {"running": {"startedAt": k8sts(w.at(m))}}}
        if last:
            cs["lastState"] = last
        st["containerStatuses"] = [cs]
    else:
        st.pop("hostIP"); st.pop("podIP")
    if node:
        tmpl["nodeName"] = node
    labels = dict(dep["spec"]["template"]["metadata"]["labels"])
    labels["pod-template-hash"] = rsname.rsplit("-", 1)[-1]
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": NS, "labels": labels,
                         "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": rsname,
                                              "controller": True}],
                         "creationTimestamp": k8sts(w.at(m)), "uid": hid("pod", name, n=8) + "-0c2e-4f7a-8b1d-" + hid(name, "u", n=12)},
            "spec": tmpl, "status": st}


# ---------------------------------------------------------------- traffic
CHAINS = {
    "cart": [("frontend-proxy", "ingress", "Server", 2), ("frontend", "GET /api/cart", "Server", 3),
             ("frontend", "oteldemo.CartService/GetCart", "Client", 1), ("cart", "oteldemo.CartService/GetCart", "Server", 2),
             ("cart", "HGET", "Client", 1)],
    "product": [("frontend-proxy", "ingress", "Server", 2), ("frontend", "GET /api/products/{productId}", "Server", 3),
                ("frontend", "oteldemo.ProductCatalogService/GetProduct", "Client", 1),
                ("product-catalog", "oteldemo.ProductCatalogService/GetProduct", "Server", 3)],
    "ads": [("frontend-proxy", "ingress", "Server", 2), ("frontend", "GET /api/data", "Server", 3),
            ("frontend", "oteldemo.AdService/GetAds", "Client", 1), ("ad", "oteldemo.AdService/GetAds", "Server", 6)],
    "reco": [("frontend-proxy", "ingress", "Server", 2), ("frontend", "GET /api/recommendations", "Server", 3),
             ("frontend", "oteldemo.RecommendationService/ListRecommendations", "Client", 1),
             ("recommendation", "/oteldemo.RecommendationService/ListRecommendations", "Server", 9),
             ("recommendation", "oteldemo.ProductCatalogService/ListProducts", "Client", 1),
             ("product-catalog", "oteldemo.ProductCatalogService/ListProducts", "Server", 2)],
    "checkout": [("frontend-proxy", "ingress", "Server", 2), ("frontend", "POST /api/checkout", "Server", 4),
                 ("frontend", "oteldemo.CheckoutService/PlaceOrder", "Client", 1),
                 ("checkout", "oteldemo.CheckoutService/PlaceOrder", "Server", 12)],
    "co-product": [("checkout", "oteldemo.ProductCatalogService/GetProduct", "Client", 1),
                   ("product-catalog", "oteldemo.ProductCatalogService/GetProduct", "Server", 2)],
    "co-cart": [("checkout", "oteldemo.CartService/GetCart", "Client", 1), ("cart", "oteldemo.CartService/GetCart", "Server", 2),
                ("cart", "HGET", "Client", 1)],
    "co-payment": [("checkout", "oteldemo.PaymentService/Charge", "Client", 1), ("payment", "grpc.oteldemo.PaymentService/Charge", "Server", 5)],
    "co-shipping": [("checkout", "POST", "Client", 1), ("shipping", "POST /get-quote", "Server", 2),
                    ("shipping", "POST", "Client", 1), ("quote", "POST /getquote", "Server", 4)],
    "co-currency": [("checkout", "oteldemo.CurrencyService/Convert", "Client", 1), ("currency", "Currency/Convert", "Server", 1)],
    "co-email": [("checkout", "POST", "Client", 1), ("email", "POST /send_order_confirmation", "Server", 6)],
    "co-kafka": [("checkout", "orders publish", "Producer", 2)],
    "kafka-consume": [("accounting", "orders process", "Consumer", 4)],
    "fraud-consume": [("fraud-detection", "orders process", "Consumer", 5)],
    "reviews": [("frontend-proxy", "ingress", "Server", 2), ("frontend", "GET /api/product-reviews/{productId}", "Server", 3),
                ("frontend", "oteldemo.ProductReviewService/GetProductReviews", "Client", 1),
                ("product-reviews", "/oteldemo.ProductReviewService/GetProductReviews", "Server", 4),
                ("product-reviews", "SELECT otel.productreviews", "Client", 2)],
}
CHECKOUT_KIDS = ["co-cart", "co-product", "co-currency", "co-shipping", "co-payment", "co-email", "co-kafka"]


def effect_for(case, chain, hop, m, rng, key):
    """Return (err_msg or None, extra_ms, cut) for this hop at minute m."""
    for e in case.get("effects", []):
        if e["chain"] != chain or e["svc"] != hop[0] or e.get("kind", "Server") != hop[2]:
            continue
        if m < e["start"] or (e.get("end") is not None and m >= e["end"]):
            continue
        if e.get("keyfilter") and not e["keyfilter"](key):
            continue
        if rng.random() >= e.get("prob", 1.0):
            continue
        return e.get("err"), e.get("ms", 0), e.get("cut", False), e.get("log")
    return None, 0, False, None


def gen_traffic(w):
    c = w.c
    rng = random.Random(c["n"] * 104729)
    spans, tick = [], c.get("tick", 20)
    products = ["OLJCESPC7Z", "66VCHSJNUP", "1YMWWN1N4O", "L9ECAV7KIM", "2ZYFJ3GM2N", "0PUK6V6EV0", "LS4PSXUNUM", "9SIQT8TOJO", "6E92ZMYYFZ", "HQTGWGPNH4"]
    t = 0.0
    while t < c["dur"]:
        for ci, chname in enumerate(c["chains"]):
            key = products[int(rng.random() * len(products))]
            tid = hid(c["n"], chname, ci, t, n=32)
            root_parent = hid("lost", tid, n=16) if c.get("no_root") else ""
            base = w.at(t + rng.random() * tick / 60.0 * 0.9)
            emit_chain(w, c, spans, chname, tid, root_parent, base, t, rng, key)
        t += tick / 60.0
    return spans


def emit_chain(w, c, spans, chname, tid, parent, start, m, rng, key, depth=0):
    hops = CHAINS[chname]
    ids, durs, errs, cut_at = [], [], [None] * len(hops), len(hops)
    extra = [0.0] * len(hops)
    for i, hop in enumerate(hops):
        err, ms, cut, lg = effect_for(c, chname, hop, m, rng, key)
        if ms:
            extra[i] += ms * (0.8 + 0.4 * rng.random())
        if err:
            errs[i] = err
            if lg:
                w.log(m, hop[0], "ERROR", lg.format(key=key), trace=tid, span=hid(tid, i, n=16))
        if cut:
            cut_at = i + 1 if err else i
            if not err:
                # the hop itself is never reached (nothing exported for it); caller sees the error
                pass
            break
    n = min(cut_at, len(hops))
    # durations inner-first
    d = [0.0] * n
    for i in range(n - 1, -1, -1):
        own = hops[i][3] * (0.7 + 0.6 * rng.random()) + extra[i]
        d[i] = own + (d[i + 1] if i + 1 < n else 0.0)
    # checkout kids
    kid_spans = []
    # error propagation up to the parents
    err_up = None
    for i in range(n - 1, -1, -1):
        if errs[i]:
            err_up = errs[i]
        elif err_up and i < n:
            errs[i] = c.get("upmsg", {}).get(hops[i][0], err_up)
    if n < len(hops) and not any(errs[:n]):
        # a cut with no error at the cut hop: the caller saw a failure
        msg = c.get("cutmsg", "connection refused")
        for i in range(n):
            errs[i] = c.get("upmsg", {}).get(hops[i][0], msg)
    off = 0.0
    for i in range(n):
        sid = hid(tid, chname, i, n=16)
        ids.append(sid)
        par = parent if i == 0 else ids[i - 1]
        st = start + timedelta(milliseconds=off)
        spans.append(dict(ts=st, tid=tid, sid=sid, par=par, name=hops[i][2 - 1] if False else hops[i][1], kind=hops[i][2],
                          svc=hops[i][0], dur=int(d[i] * 1e6), err=errs[i], key=key, m=m, chain=chname))
        off += 0.3
    # checkout fan-out
    if chname == "checkout" and n == len(hops):
        co_sid = ids[-1]
        co_err = None
        sub_off = 1.0
        for kid in CHECKOUT_KIDS:
            if kid == "co-email" and co_err:
                continue
            kspans_before = len(spans)
            emit_chain(w, c, spans, kid, tid, co_sid, start + timedelta(milliseconds=sub_off), m, rng, key, depth + 1)
            new = spans[kspans_before:]
            if new:
                sub_off += new[0]["dur"] / 1e6
                if new[0]["err"] and not co_err and kid not in ("co-email", "co-kafka"):
                    co_err = c.get("upmsg", {}).get("checkout", new[0]["err"])
                    break
        # parent durations include kids; parents get kid errors
        for s in spans:
            if s["tid"] == tid and s["chain"] == "checkout":
                s["dur"] += int(sub_off * 1e6)
                if co_err and not s["err"]:
                    s["err"] = c.get("upmsg", {}).get(s["svc"], co_err)
    return ids


# ---------------------------------------------------------------- writers
def j(obj, w):
    if w.c.get("sortkeys"):
        return json.dumps(obj, sort_keys=True, separators=(",", ":"))
    return json.dumps(obj, separators=(", ", ": ") if w.c["n"] % 2 else (",", ":"))


def attrs(d, w):
    if w.c.get("pyrepr"):
        return repr(d)
    return json.dumps(d, sort_keys=True)


def cell(x):
    x = str(x).replace("\t", " ").replace("\n", "\\n")
    if x.startswith('"'):
        # a double-encoded body: CSV-quote it (quotes doubled), as ClickHouse CSV/TSV exports do
        return '"' + x.replace('"', '""') + '"'
    return x


def tsv_write(path, header, rows):
    with open(path, "w", newline="") as f:
        f.write("\t".join(header) + "\n")
        for r in rows:
            f.write("\t".join(cell(x) for x in r) + "\n")


def pod_of(w, svc, m):
    """The pod of svc that exists at minute m (last snapshot before m)."""
    best = None
    for sm, o, wt in w.snaps:
        if sm > m:
            break
        if o["kind"] == "Pod" and o["metadata"]["labels"].get("opentelemetry.io/name") == svc:
            if wt == "DELETED":
                if best == o["metadata"]["name"]:
                    best = None
            elif o["status"].get("phase") == "Running":
                best = o["metadata"]["name"]
    return best


def write_case(w, out):
    c = w.c
    form = c["tsform"]
    d = os.path.join(out, "Scenario-%d" % c["n"])
    os.makedirs(os.path.join(d, "alerts"), exist_ok=True)
    os.makedirs(os.path.join(d, "metrics"), exist_ok=True)
    # ---- objects
    rows = []
    snaps = sorted(w.snaps, key=lambda s: s[0])
    for i, (m, o, wt) in enumerate(snaps):
        o = copy.deepcopy(o)
        if not c.get("managed"):
            o["metadata"].pop("managedFields", None)
        body = {"object": o, "type": wt} if c.get("watch") else o
        if not c.get("watch") and wt == "DELETED":
            continue
        b = j(body, w)
        if c.get("dbl") and i % 2:
            b = json.dumps(b)
        res = {"k8s.namespace.name": o["metadata"].get("namespace", ""), "k8s.cluster.name": "otel-demo-eks"}
        la = {"k8s.resource.name": o["kind"].lower() + "s", "event.domain": "k8s", "event.name": o["metadata"]["name"]}
        r = [tsfmt(w.at(m), form)]
        if c.get("tstime"):
            r.append(w.at(m).strftime("%Y-%m-%d %H:%M:%S"))
        r += ["", "", "0", "", "0", "", b, attrs(res, w), "k8sobjectsreceiver", attrs(la, w)]
        rows.append(r)
    hdr = ["Timestamp"] + (["TimestampTime"] if c.get("tstime") else []) + \
        ["TraceId", "SpanId", "TraceFlags", "SeverityText", "SeverityNumber", "ServiceName", "Body",
         "ResourceAttributes", "ScopeName", "LogAttributes"]
    tsv_write(os.path.join(d, "k8s_objects_raw.tsv"), hdr, rows)
    # ---- events
    rows = []
    new_api = c.get("evapi") == "events.k8s.io/v1"
    for i, (m, e) in enumerate(sorted(w.events, key=lambda x: x[0])):
        t = w.at(m)
        first = w.at(e["first"]) if e.get("first") is not None else t
        nm = "%s.%s" % (e["name"], hid(e["name"], e["reason"], m, n=16))
        ref = {"kind": e["kind"], "name": e["name"], "namespace": e["ns"],
               "apiVersion": "v1" if e["kind"] in ("Pod", "Node", "ConfigMap", "Secret", "Service", "PersistentVolumeClaim")
               else ("apps/v1" if e["kind"] in ("Deployment", "ReplicaSet") else "chaos-mesh.org/v1alpha1")}
        if e["kind"] == "Node":
            ref.pop("namespace")
        if new_api:
            ev = {"apiVersion": "events.k8s.io/v1", "kind": "Event",
                  "metadata": {"name": nm, "namespace": e["ns"] or "default", "creationTimestamp": k8sts(first)},
                  "eventTime": t.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), "reason": e["reason"], "note": e["msg"],
                  "type": e["typ"], "regarding": ref, "reportingController": e["comp"],
                  "reportingInstance": e["host"] or e["comp"], "action": e["reason"]}
            if e["count"] > 1:
                ev["series"] = {"count": e["count"], "lastObservedTime": t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")}
        else:
            ev = {"kind": "Event", "apiVersion": "v1",
                  "metadata": {"name": nm, "namespace": e["ns"] or "default"},
                  "involvedObject": ref, "reason": e["reason"], "message": e["msg"],
                  "source": {"component": e["comp"], **({"host": e["host"]} if e["host"] else {})},
                  "firstTimestamp": k8sts(first), "lastTimestamp": k8sts(t), "count": e["count"], "type": e["typ"]}
        body = {"object": ev, "type": "MODIFIED" if e["count"] > 1 else "ADDED"}
        rows.append([tsfmt(t, form), "", "", "0", "", "0", "", j(body, w),
                     attrs({"k8s.cluster.name": "otel-demo-eks"}, w), "k8sobjectsreceiver",
                     attrs({"k8s.resource.name": "events", "event.domain": "k8s", "event.name": nm}, w)])
    tsv_write(os.path.join(d, "k8s_events_raw.tsv"),
              ["Timestamp", "TraceId", "SpanId", "TraceFlags", "SeverityText", "SeverityNumber", "ServiceName",
               "Body", "ResourceAttributes", "ScopeName", "LogAttributes"], rows)
    # ---- traces
    rows = []
    for s in sorted(w.spans, key=lambda s: (s["ts"], s["sid"])):
        pod = pod_of(w, s["svc"], s["m"]) or ""
        ra = {"service.name": s["svc"], "service.namespace": "opentelemetry-demo", "k8s.namespace.name": NS,
              "k8s.pod.name": pod, "k8s.deployment.name": s["svc"]}
        sa = {}
        if s["kind"] == "Server" and s["name"].startswith(("GET", "POST")):
            sa = {"http.request.method": s["name"].split()[0], "http.route": s["name"].split()[1] if " " in s["name"] else "/",
                  "http.response.status_code": 500 if s["err"] else 200}
        elif "/" in s["name"] and "oteldemo" in s["name"]:
            sa = {"rpc.system": "grpc", "rpc.service": s["name"].split("/")[-2].lstrip("/") if s["name"].count("/") >= 1 else "",
                  "rpc.method": s["name"].split("/")[-1], "rpc.grpc.status_code": 2 if s["err"] else 0}
            if "Product" in s["name"]:
                sa["app.product.id"] = s["key"]
        elif s["kind"] in ("Producer", "Consumer"):
            sa = {"messaging.system": "kafka", "messaging.destination.name": "orders",
                  "messaging.operation.type": "publish" if s["kind"] == "Producer" else "process"}
        if s["svc"] == "frontend-proxy":
            sa = {"upstream_cluster": "frontend", "http.status_code": "500" if s["err"] else "200"}
        rows.append([tsfmt(s["ts"], form), s["tid"], s["sid"], s["par"], s["name"],
                     ("SPAN_KIND_" + s["kind"].upper()) if c.get("kindenum") else s["kind"], s["svc"],
                     attrs(ra, w), attrs(sa, w), s["dur"], "Error" if s["err"] else ("Unset" if c["n"] % 3 else "Ok"),
                     s["err"] or ""])
    tsv_write(os.path.join(d, "otel_traces_raw.tsv"),
              ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
               "ResourceAttributes", "SpanAttributes", "Duration", "StatusCode", "StatusMessage"], rows)
    # ---- logs
    rows = []
    sevnum = {"DEBUG": 5, "INFO": 9, "WARN": 13, "ERROR": 17, "FATAL": 21}
    for (m, svc, sev, body, pod, tr, sp) in sorted(w.logs, key=lambda x: (x[0], x[1], x[3])):
        pod = pod or pod_of(w, svc, m) or ""
        ra = {"service.name": svc, "k8s.namespace.name": NS, "k8s.pod.name": pod,
              "k8s.container.name": svc}
        if c.get("logjson") and svc in ("payment", "frontend"):
            body = json.dumps({"level": {"INFO": 30, "WARN": 40, "ERROR": 50}.get(sev, 30), "time": int(w.at(m).timestamp() * 1000),
                               "msg": body, "service": svc})
        rows.append([tsfmt(w.at(m), form), tr, sp, sev, sevnum[sev], svc, body, attrs(ra, w), attrs({}, w)])
    tsv_write(os.path.join(d, "otel_logs_raw.tsv"),
              ["Timestamp", "TraceId", "SpanId", "SeverityText", "SeverityNumber", "ServiceName", "Body",
               "ResourceAttributes", "LogAttributes"], rows)
    # ---- metrics: per service, derived from server spans; per pod, given by the case
    per = {}
    for s in w.spans:
        if s["kind"] not in ("Server", "Consumer"):
            continue
        mi = int(s["m"])
        per.setdefault(s["svc"], {}).setdefault(mi, []).append(s)
    for svc in sorted(per):
        rows = []
        for mi in sorted(per[svc]):
            ss = per[svc][mi]
            ts = tsfmt(w.at(mi + 1), form)
            ok = sum(1 for s in ss if not s["err"]); bad = len(ss) - ok
            tg = {"service_name": svc, "namespace": NS}
            rows.append(["calls_total_rate", ts, round(ok / 60.0, 4), attrs(dict(tg, status_code="STATUS_CODE_UNSET"), w)])
            if bad:
                rows.append(["calls_total_rate", ts, round(bad / 60.0, 4), attrs(dict(tg, status_code="STATUS_CODE_ERROR"), w)])
            ds = sorted(s["dur"] / 1e6 for s in ss)
            rows.append(["duration_milliseconds_p95", ts, round(ds[min(len(ds) - 1, int(0.95 * len(ds)))], 2), attrs(tg, w)])
        tsv_write(os.path.join(d, "metrics", "service_%s.tsv" % svc), ["metric_name", "timestamp", "value", "tags"], rows)
    # pod metrics from the object story: working set, cpu, restarts while the pod runs
    life = {}
    for sm, o, wt in sorted(w.snaps, key=lambda s: s[0]):
        if o["kind"] != "Pod" or o["metadata"].get("namespace") != NS:
            continue
        nm = o["metadata"]["name"]
        life.setdefault(nm, []).append((sm, o, wt))
    for nm in sorted(life):
        obs_ = life[nm]
        svc = obs_[0][1]["metadata"]["labels"].get("opentelemetry.io/name", "")
        rows = []
        for mi in range(0, c["dur"]):
            cur = None
            for sm, o, wt in obs_:
                if sm <= mi + 0.99:
                    cur = (o, wt)
            if cur is None and obs_[0][0] > mi:
                continue
            if cur is None or cur[1] == "DELETED" or cur[0]["status"].get("phase") != "Running":
                continue
            o = cur[0]
            cs = (o["status"].get("containerStatuses") or [{}])[0]
            lim = (o["spec"]["containers"][0].get("resources", {}).get("limits", {}) or {}).get("memory", "")
            base = {"kafka": 620, "fraud-detection": 410, "ad": 260, "recommendation": 140}.get(svc, 70)
            r = random.Random(hid(nm, mi))
            mem = base * (0.95 + 0.1 * r.random())
            if lim == "64Mi":
                mem = 60 + 5 * r.random()
            cpu = 0.01 + 0.02 * r.random()
            for hk in c.get("hot", []):
                if hk[0] == svc and mi >= hk[1]:
                    cpu *= hk[2]
            ts = tsfmt(w.at(mi), form)
            tg = attrs({"pod": nm, "namespace": NS, "container": svc, "node": o["spec"].get("nodeName", "")}, w)
            rows.append(["container_memory_working_set_bytes", ts, int(mem * 1048576), tg])
            rows.append(["container_cpu_usage_seconds_rate", ts, round(cpu, 5), tg])
            rows.append(["kube_pod_container_status_restarts_total", ts, cs.get("restartCount", 0), tg])
            rows.append(["kube_pod_container_status_ready", ts, 1 if cs.get("ready") else 0, tg])
        if rows:
            tsv_write(os.path.join(d, "metrics", "pod_%s.tsv" % nm), ["metric_name", "timestamp", "value", "tags"], rows)
    for (pod, metric, fn) in c.get("podmetrics", []):
        p = os.path.join(d, "metrics", "pod_%s.tsv" % pod)
        exists = os.path.exists(p)
        with open(p, "a") as f:
            if not exists:
                f.write("metric_name\ttimestamp\tvalue\ttags\n")
            for mi in range(0, c["dur"]):
                v = fn(mi)
                if v is None:
                    continue
                f.write("%s\t%s\t%s\t%s\n" % (metric, tsfmt(w.at(mi), form), v,
                                              attrs({"pod": pod, "namespace": NS, "container": pod.split("-7")[0]}, w)))
    # ---- alerts
    for obs in c["obs"]:
        al = []
        for a in c["alerts"]:
            if a["start"] > obs or (a.get("end") and a["end"] <= obs):
                continue
            lab = {"alertname": a["name"], "severity": a.get("sev", "warning"), "namespace": a.get("ns", NS)}
            lab.update(a["labels"])
            pending = obs - a["start"] < a.get("for", 1)
            al.append({"labels": lab, "annotations": {"summary": a.get("summary", a["name"]),
                                                     "description": a.get("desc", "")},
                       "state": "pending" if pending else ("firing" if c["n"] % 2 else "active"),
                       "activeAt": w.at(a["start"]).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z",
                       "value": str(a.get("value", "1e+00"))})
        t = w.at(obs)
        env = c["alertenv"]
        if env == "data":
            doc = {"status": "success", "data": {"alerts": al}}
        elif env == "alerts":
            doc = {"alerts": al}
        elif env == "list":
            doc = al
        else:
            doc = {"timestamp": t.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), "alerts": al}
        with open(os.path.join(d, "alerts", "alerts_at_%s.json" % t.strftime("%Y-%m-%dT%H-%M-%S.%f")), "w") as f:
            json.dump(doc, f, indent=1 if c["n"] % 2 else None)
    # ---- ground truth
    gt = c["gt"]
    body = {"groups": gt["groups"], "aliases": gt["aliases"], "propagations": gt["propagations"],
            "fault": gt["fault"], "alerts": gt["alerts"]}
    if c["n"] % 2:
        body = {"apiVersion": "itbench.io/v1", "kind": "GroundTruth",
                "metadata": {"name": "scenario-%d" % c["n"]}, "spec": body}
    with open(os.path.join(d, "ground_truth.yaml"), "w") as f:
        yaml.safe_dump(body, f, sort_keys=False, default_flow_style=False)
    return d


# ---------------------------------------------------------------- self-check
def selfcheck(w, d):
    c, gt = w.c, w.c["gt"]
    problems = []
    gids = {g["id"]: g for g in gt["groups"]}
    ever = {}
    for m, o, wt in w.snaps:
        ever.setdefault((o["kind"], o["metadata"].get("namespace", ""), o["metadata"]["name"]), o)
    pods = [k[2] for k in ever if k[0] == "Pod"]
    for g in gt["groups"]:
        if g.get("root_cause"):
            if (g["kind"], g["namespace"], g["name"]) not in ever:
                problems.append("root %s not in objects" % g["id"])
        if g["kind"] == "Pod":
            rx = g.get("filter", [])
            if not any(re.search(r, p) for r in rx for p in pods):
                problems.append("pod group %s matches no pod" % g["id"])
        elif g["kind"] not in ("Service",) and "name" in g:
            if (g["kind"], g["namespace"], g["name"]) not in ever:
                problems.append("group %s object absent" % g["id"])
    for p in gt["propagations"]:
        for k in ("source", "target"):
            if p[k] not in gids:
                problems.append("propagation id %s" % p[k])
    for a in gt["aliases"]:
        for x in a:
            if x not in gids:
                problems.append("alias id %s" % x)
    for a in gt["alerts"]:
        g = gids.get(a["group_id"])
        if not g:
            problems.append("alert group %s" % a["group_id"]); continue
        ok = any(x["name"] == a["id"] and g.get("name") in x["labels"].values() for x in c["alerts"]
                 if x["start"] <= max(c["obs"]))
        if not ok:
            problems.append("alert %s/%s not in alerts" % (a["group_id"], a["id"]))
    for f in gt["fault"]:
        if f["entity"]["group_id"] not in gids:
            problems.append("fault group")
    for m, e in w.events:
        if e["kind"] == "Pod" and e["name"] not in w.pods_ever:
            problems.append("event pod %s not in pod list" % e["name"])
        elif e["kind"] not in ("Pod", "Node") and (e["kind"], e["ns"], e["name"]) not in ever:
            problems.append("event object %s/%s absent" % (e["kind"], e["name"]))
    for k, o in ever.items():
        if k[0] == "Pod" and o["status"].get("phase") == "Running" and not o["spec"].get("nodeName"):
            problems.append("running pod %s without nodeName" % k[2])
    blob = ""
    for fn in sorted(os.listdir(d)):
        p = os.path.join(d, fn)
        if os.path.isfile(p) and fn != "ground_truth.yaml":
            blob += open(p).read()
    for fn in sorted(os.listdir(os.path.join(d, "alerts"))):
        blob += open(os.path.join(d, "alerts", fn)).read()
    for s in c.get("must", []):
        if s not in blob and json.dumps(s)[1:-1] not in blob and json.dumps(json.dumps(s)[1:-1])[1:-1] not in blob:
            problems.append("must string missing: %r" % s)
    for s in c.get("mustnot", []):
        if s in blob:
            problems.append("forbidden string present: %r" % s)
    if problems:
        raise SystemExit("self-check failed, Scenario-%d: %s" % (c["n"], "; ".join(problems)))


# ---------------------------------------------------------------- GT helpers
def G(id_, kind, name, ns=NS, root=False, filt=None):
    g = {"id": id_, "kind": kind, "namespace": ns}
    if name is not None:
        g["name"] = name
    if filt:
        g["filter"] = filt
    if root:
        g["root_cause"] = True
    return g


def app_groups(svc, with_pod=True, with_dep=True):
    gs = [G("%s-service-1" % svc, "Service", svc)]
    al = ["%s-service-1" % svc]
    if with_pod:
        gs.append(G("%s-pod-1" % svc, "Pod", None, filt=["^%s-[0-9a-z]+-[0-9a-z]+$" % re.escape(svc)]))
        al.append("%s-pod-1" % svc)
    if with_dep:
        gs.append(G("%s-deployment-1" % svc, "Deployment", svc))
        al.append("%s-deployment-1" % svc)
    return gs, al


def P(s, t, cond, eff):
    return {"source": s, "target": t, "condition": cond, "effect": eff}


def A(name, start, labels, sev="warning", for_=1, **kw):
    d = {"name": name, "start": start, "labels": labels, "sev": sev, "for": for_}
    d.update(kw)
    return d


# ---------------------------------------------------------------- baseline build
def build_base(w, svcs, replicas=None, limits=True, extra=None, nodes_of=None, node_kw=None):
    m = 0
    for i, n in enumerate(NODES):
        w.put(node_obj(n, 0, **((node_kw or {}).get(n, {}))), m)
    pods = {}
    for i, s in enumerate(svcs):
        dep = deploy_obj(w, s, replicas=(replicas or {}).get(s, 1), limits=limits,
                         **((extra or {}).get(s, {})))
        w.put(dep, m)
        w.put(svc_obj(s), m)
        pods[s] = []
        for r in range(dep["spec"]["replicas"]):
            node = (nodes_of or {}).get((s, r), NODES[(i + r) % 3])
            pn = podname(s, "base%d" % r, w.c["n"])
            p = pod_obj(w, dep, pn, node, -60 * 24 * 2 + i)
            p["metadata"]["creationTimestamp"] = "2026-%02d-%02dT%02d:%02d:11Z" % (11, 20 + (i % 6), 3 + i % 9, 10 + i)
            w.put(p, m)
            pods[s].append(pn)
    return pods


def flagd_cm(flags, on=None, variant=None):
    fl = {}
    for f in flags:
        fl[f] = {"description": FLAG_DESC.get(f, f), "state": "ENABLED",
                 "variants": FLAG_VARIANTS.get(f, {"on": True, "off": False}), "defaultVariant": "off"}
    if on:
        for k, v in on.items():
            fl[k]["defaultVariant"] = v
    if variant:
        for k, v in variant.items():
            fl[k].update(v)
    doc = {"$schema": "https://flagd.dev/schema/v0/flags.json", "flags": fl}
    return {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "flagd-config", "namespace": NS,
                         "labels": {"app.kubernetes.io/managed-by": "Helm", "app.kubernetes.io/part-of": "opentelemetry-demo"}},
            "data": {"demo.flagd.json": json.dumps(doc, indent=2)}}


FLAG_DESC = {"productCatalogFailure": "Fail product catalog service on a specific product",
             "failedReadinessProbe": "Cart service readiness probe returns failure",
             "adFailure": "Fail ad service", "paymentFailure": "Fail payment service charge requests n%",
             "recommendationCacheFailure": "Fail recommendation service cache",
             "imageSlowLoad": "slow loading images in the frontend", "kafkaQueueProblems": "Overloads Kafka queue while simultaneously introducing a consumer side delay leading to a lag spike",
             "adManualGc": "Triggers full manual garbage collections in the ad service"}
FLAG_VARIANTS = {"paymentFailure": {"100%": 1, "90%": 0.95, "75%": 0.75, "50%": 0.5, "25%": 0.25, "10%": 0.1, "off": 0},
                 "imageSlowLoad": {"10sec": 10000, "5sec": 5000, "off": 0},
                 "kafkaQueueProblems": {"on": 100, "off": 0}}
ALL_FLAGS = ["productCatalogFailure", "recommendationCacheFailure", "adManualGc", "adFailure", "paymentFailure",
             "failedReadinessProbe", "imageSlowLoad", "kafkaQueueProblems"]


def flagd_dep(w, mount_subpath=False):
    dep = deploy_obj(w, "flagd", env=[{"name": "FLAGD_METRICS_EXPORTER", "value": "otel"}])
    c0 = dep["spec"]["template"]["spec"]["containers"][0]
    c0["command"] = ["/flagd-build", "start", "--port", "8013", "--uri", "file:./etc/flagd/demo.flagd.json"]
    vm = {"name": "config-rw", "mountPath": "/etc/flagd"}
    if mount_subpath:
        vm = {"name": "config-ro", "mountPath": "/etc/flagd/demo.flagd.json", "subPath": "demo.flagd.json"}
    c0["volumeMounts"] = [vm]
    dep["spec"]["template"]["spec"]["volumes"] = [{"name": vm["name"], "configMap": {"name": "flagd-config"}}]
    return dep


def rollout_decoy(w, svc, m, old_pod, new_tag, node, image=None, restart=False, gen=2):
    """A decoy rollout: new pod appears, old pod goes away, Deployment revision/template changes."""
    dep = copy.deepcopy(w.get("Deployment", svc))
    dep["metadata"]["generation"] = gen
    dep["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = str(gen)
    if image:
        dep["spec"]["template"]["spec"]["containers"][0]["image"] = image
        w.add_mf(dep, "kubectl-set", "Update", m, {"f:spec": {"f:template": {"f:spec": {"f:containers": {}}}}})
    if restart:
        dep["spec"]["template"]["metadata"]["annotations"] = {"kubectl.kubernetes.io/restartedAt": k8sts(w.at(m))}
        w.add_mf(dep, "kubectl-rollout", "Update", m, {"f:spec": {"f:template": {"f:metadata": {"f:annotations": {}}}}})
    w.put(dep, m)
    np_ = podname(svc, new_tag, w.c["n"])
    newrs = np_.rsplit("-", 1)[0]
    w.event(m, "Deployment", svc, "ScalingReplicaSet", "Scaled up replica set %s from 0 to 1" % newrs, comp="deployment-controller")
    w.event(m + 0.05, "Pod", np_, "Scheduled", "Successfully assigned %s/%s to %s" % (NS, np_, node), comp="default-scheduler")
    p = pod_obj(w, dep, np_, node, m + 0.1)
    w.put(p, m + 0.1, "ADDED")
    w.event(m + 0.2, "Pod", np_, "Pulled", 'Container image "%s" already present on machine' % dep["spec"]["template"]["spec"]["containers"][0]["image"], host=node)
    w.event(m + 0.25, "Pod", np_, "Started", "Started container %s" % svc, host=node)
    w.event(m + 0.6, "Deployment", svc, "ScalingReplicaSet", "Scaled down replica set %s from 1 to 0" % old_pod.rsplit("-", 1)[0], comp="deployment-controller")
    w.event(m + 0.62, "Pod", old_pod, "Killing", "Stopping container %s" % svc, host=None)
    w.delete("Pod", old_pod, m + 0.7)
    return np_


def hpa_decoy(w, svc, m, node, minr=1, to=2):
    hpa = {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
           "metadata": {"name": svc, "namespace": NS},
           "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": svc},
                    "minReplicas": minr, "maxReplicas": 4,
                    "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}}]},
           "status": {"currentReplicas": minr, "desiredReplicas": minr}}
    w.put(hpa, 0)
    h2 = copy.deepcopy(hpa); h2["status"] = {"currentReplicas": to, "desiredReplicas": to,
                                             "lastScaleTime": k8sts(w.at(m))}
    w.put(h2, m)
    w.event(m, "HorizontalPodAutoscaler", svc, "SuccessfulRescale",
            "New size: %d; reason: cpu resource utilization (percentage of request) above target" % to,
            comp="horizontal-pod-autoscaler")
    dep = copy.deepcopy(w.get("Deployment", svc)); dep["spec"]["replicas"] = to
    if "status" in dep:
        dep["status"]["replicas"] = to; dep["status"]["readyReplicas"] = to; dep["status"]["availableReplicas"] = to
    w.put(dep, m)
    np_ = sibling(w, svc, "hpa%d" % m)
    w.event(m + 0.05, "Pod", np_, "Scheduled", "Successfully assigned %s/%s to %s" % (NS, np_, node), comp="default-scheduler")
    w.put(pod_obj(w, dep, np_, node, m + 0.1), m + 0.1, "ADDED")
    w.event(m + 0.3, "Pod", np_, "Started", "Started container %s" % svc, host=node)
    return np_, hpa


def baseline_logs(w, svcs, every=2):
    msgs = {"frontend": "request completed", "cart": "GetCartAsync called with userId={uid}",
            "checkout": "[PlaceOrder] user_id=\"{uid}\" user_currency=\"USD\"",
            "payment": "Charge request received.", "product-catalog": "Product Catalog Service loaded 10 products",
            "ad": "Targeted ad request received for [travel]", "recommendation": "Receive ListRecommendations for product ids:['{p}']",
            "shipping": "Received quote: 8.9", "quote": "Calculated quote", "currency": "Currency conversion successful",
            "email": "Order confirmation email sent to: {uid}@example.com", "accounting": "Order details: {p}",
            "fraud-detection": "Consumed record with orderId: {uid}", "product-reviews": "Receive GetProductReviews for product id:{p}",
            "kafka": "[LocalLog partition=orders-0] Rolled new log segment", "valkey-cart": "DB saved on disk",
            "flagd": "flag evaluation", "frontend-proxy": "[2026] \"GET / HTTP/1.1\" 200"}
    for m in range(0, w.c["dur"], every):
        for s in svcs:
            b = msgs.get(s, "ok").format(uid=hid("u", m, s, n=8) + "-" + hid(m, n=4), p="66VCHSJNUP")
            w.log(m + 0.37, s, "INFO", b)


# ---------------------------------------------------------------- cases
def make_cases():
    cases = []

    # ============ 1. productCatalogFailure seen only as checkout errors; product-catalog exports no spans
    def c1(w):
        svcs = ["frontend-proxy", "frontend", "checkout", "cart", "currency", "shipping", "quote", "payment",
                "email", "product-catalog", "flagd", "kafka", "recommendation"]
        pods = build_base(w, svcs)
        w.put(flagd_cm(ALL_FLAGS), 0)
        hp, _ = hpa_decoy(w, "frontend", 11, NODES[2])
        cm = flagd_cm(ALL_FLAGS, on={"productCatalogFailure": "on"})
        cm["metadata"]["annotations"] = {"argocd.argoproj.io/tracking-id": "otel-demo:/ConfigMap:otel-demo/flagd-config"}
        w.add_mf(cm, "argocd-controller", "Apply", 20, {"f:data": {"f:demo.flagd.json": {}}})
        w.put(cm, 20)
        baseline_logs(w, ["frontend", "checkout", "cart", "payment", "currency"])
        for m in range(21, 40, 1):
            w.log(m + 0.5, "product-catalog", "ERROR",
                  "Error: Product Catalog Fail Feature Flag Enabled (product id OLJCESPC7Z)")
        return dict(pods=pods, hpapod=hp)
    cases.append(dict(
        n=1, t0=datetime(2026, 11, 3, 14, 0, tzinfo=timezone.utc), dur=40, build=c1, tsform=0, alertenv="data",
        evapi="v1", managed=True, watch=True, sortkeys=False, pyrepr=False, no_root=False,
        chains=["cart", "checkout", "ads" if False else "reco"],
        effects=[dict(chain="co-product", svc="product-catalog", start=20, prob=1.0, cut=True,
                      keyfilter=lambda k: k in ("OLJCESPC7Z", "66VCHSJNUP", "1YMWWN1N4O", "L9ECAV7KIM", "2ZYFJ3GM2N"))],
        cutmsg="rpc error: code = Internal desc = Error: Product Catalog Fail Feature Flag Enabled",
        upmsg={"checkout": "failed to prepare order: failed to get product #\"OLJCESPC7Z\"",
               "frontend": "failed to complete the order: rpc error: code = Internal desc = failed to prepare order",
               "frontend-proxy": "500"},
        obs=[30, 40],
        alerts=[A("RequestErrorRate", 22, {"service_name": "checkout"}, for_=2),
                A("RequestErrorRate", 23, {"service_name": "frontend"}, for_=2),
                A("KubeHpaReplicasMismatch", 11, {"horizontalpodautoscaler": "frontend"}, for_=15, end=29)],
        must=["productCatalogFailure", "\\\"defaultVariant\\\": \\\"on\\\"", "failed to get product"],
        summary="productCatalogFailure turned on by an Argo CD server-side apply; product-catalog exports no spans for the failing calls, seen only as checkout PlaceOrder errors (fails only when the cart holds the telescope); frontend HPA scale-out decoy at min 11",
        gt=dict(groups=[G("flagd-config-1", "ConfigMap", "flagd-config", root=True)] + app_groups("product-catalog")[0]
                + app_groups("checkout")[0] + app_groups("frontend")[0],
                aliases=[app_groups("product-catalog")[1], app_groups("checkout")[1], app_groups("frontend")[1]],
                propagations=[P("flagd-config-1", "product-catalog-service-1", "productCatalogFailure set to on", "GetProduct fails for product OLJCESPC7Z"),
                              P("product-catalog-service-1", "checkout-service-1", "checkout prepares order items by GetProduct", "PlaceOrder errors"),
                              P("checkout-service-1", "frontend-service-1", "frontend calls PlaceOrder", "checkout POST errors")],
                fault=[{"category": "Change", "condition": "feature flag productCatalogFailure enabled",
                        "entity": {"kind": "ConfigMap", "name": "flagd-config", "group_id": "flagd-config-1"},
                        "fault_mechanism": "flagd"}],
                alerts=[{"group_id": "checkout-service-1", "id": "RequestErrorRate"},
                        {"group_id": "frontend-service-1", "id": "RequestErrorRate"}])))

    # ============ 2. failedReadinessProbe by helm upgrade; cart NotReady; frontend "produced zero addresses"
    def c2(w):
        svcs = ["frontend-proxy", "frontend", "checkout", "cart", "valkey-cart", "flagd", "currency", "product-catalog"]
        pods = build_base(w, svcs, extra={"cart": {}})
        dep = w.get("Deployment", "cart")
        dep["spec"]["template"]["spec"]["containers"][0]["readinessProbe"] = {"grpc": {"port": 8080}, "periodSeconds": 10, "failureThreshold": 3}
        w.put(copy.deepcopy(dep), 0)
        w.put(flagd_cm(ALL_FLAGS), 0)
        # decoy: valkey-cart restart at min 14
        rollout_decoy(w, "valkey-cart", 14, pods["valkey-cart"][0], "r2", NODES[0], restart=True)
        cm = flagd_cm(ALL_FLAGS, on={"failedReadinessProbe": "on"})
        cm["metadata"]["labels"]["helm.sh/chart"] = "opentelemetry-demo-0.38.4"
        cm["metadata"]["annotations"] = {"meta.helm.sh/release-name": "otel-demo", "meta.helm.sh/release-revision": "7"}
        w.add_mf(cm, "helm", "Update", 19.5, {"f:data": {"f:demo.flagd.json": {}}})
        w.put(cm, 19.5)
        cp = pods["cart"][0]
        p = copy.deepcopy(w.get("Pod", cp))
        p["status"]["conditions"][0]["status"] = "False"; p["status"]["conditions"][1]["status"] = "False"
        p["status"]["containerStatuses"][0]["ready"] = False
        w.put(p, 20.6)
        w.event(20.5, "Pod", cp, "Unhealthy", "Readiness probe failed: service unhealthy (responded with \"NOT_SERVING\")",
                typ="Warning", count=112, host=NODES[3 % 3], first=20.5)
        ep = {"apiVersion": "v1", "kind": "Endpoints", "metadata": {"name": "cart", "namespace": NS},
              "subsets": [{"addresses": [{"ip": "10.0.%d.77" % 1, "targetRef": {"kind": "Pod", "name": cp}}], "ports": [{"port": 8080}]}]}
        w.put(ep, 0)
        ep2 = copy.deepcopy(ep); ep2["subsets"] = [{"notReadyAddresses": ep["subsets"][0]["addresses"], "ports": [{"port": 8080}]}]
        w.put(ep2, 20.6)
        baseline_logs(w, ["frontend", "checkout", "currency"])
        for m in range(21, 40):
            w.log(m + 0.1, "cart", "INFO", "Feature flag failedReadinessProbe enabled: reporting NOT_SERVING to health check", pod=cp)
        # last snapshot (ensure objects visible)
        w.event(39.9, "Pod", cp, "Unhealthy", "Readiness probe failed: service unhealthy (responded with \"NOT_SERVING\")",
                typ="Warning", count=118, host=NODES[0], first=20.5)
        return dict(pods=pods)
    cases.append(dict(
        n=2, t0=datetime(2026, 11, 4, 2, 30, tzinfo=timezone.utc), dur=40, build=c2, tsform=1, alertenv="alerts",
        evapi="events.k8s.io/v1", managed=True, watch=False, sortkeys=True, pyrepr=True, no_root=False, dbl=True,
        chains=["cart", "checkout"],
        effects=[dict(chain="cart", svc="cart", start=20.6, cut=True), dict(chain="co-cart", svc="cart", start=20.6, cut=True)],
        cutmsg="rpc error: code = Unavailable desc = name resolver error: produced zero addresses",
        upmsg={"checkout": "failed to get user cart during checkout: rpc error: code = Unavailable desc = name resolver error: produced zero addresses",
               "frontend-proxy": "500"},
        obs=[32, 40],
        alerts=[A("KubePodNotReady", 21, {"pod": "@cart", "service_name": "cart"}, for_=5),
                A("RequestErrorRate", 22, {"service_name": "frontend"}, for_=2),
                A("RequestErrorRate", 23, {"service_name": "checkout"}, for_=2)],
        must=["failedReadinessProbe", "produced zero addresses", "NOT_SERVING", "helm"],
        summary="failedReadinessProbe turned on by a helm upgrade of flagd-config; cart Running but NotReady, Endpoints empty, frontend/checkout get 'produced zero addresses'; valkey-cart restart decoy at min 14",
        gt=dict(groups=[G("flagd-config-1", "ConfigMap", "flagd-config", root=True)] + app_groups("cart")[0]
                + app_groups("checkout")[0] + app_groups("frontend")[0],
                aliases=[app_groups("cart")[1], app_groups("checkout")[1], app_groups("frontend")[1]],
                propagations=[P("flagd-config-1", "cart-service-1", "failedReadinessProbe on", "cart readiness fails, no ready endpoints"),
                              P("cart-service-1", "frontend-service-1", "frontend GetCart", "Unavailable errors"),
                              P("cart-service-1", "checkout-service-1", "checkout GetCart", "PlaceOrder errors")],
                fault=[{"category": "Change", "condition": "feature flag failedReadinessProbe enabled",
                        "entity": {"kind": "ConfigMap", "name": "flagd-config", "group_id": "flagd-config-1"},
                        "fault_mechanism": "flagd"}],
                alerts=[{"group_id": "cart-service-1", "id": "KubePodNotReady"},
                        {"group_id": "frontend-service-1", "id": "RequestErrorRate"},
                        {"group_id": "checkout-service-1", "id": "RequestErrorRate"}])))

    # ============ 3. adFailure through a fractional targeting rule (30 %), ad rollout decoy 2 min before
    def c3(w):
        svcs = ["frontend-proxy", "frontend", "ad", "flagd", "cart", "recommendation", "product-catalog"]
        pods = build_base(w, svcs)
        w.put(flagd_cm(ALL_FLAGS), 0)
        rollout_decoy(w, "ad", 18, pods["ad"][0], "v2", NODES[1], image="ghcr.io/open-telemetry/demo:2.1.4-ad")
        cm = flagd_cm(ALL_FLAGS, variant={"adFailure": {"targeting": {"fractional": [{"cat": [{"var": "$flagd.flagKey"}, {"var": "session.id"}]}, ["on", 30], ["off", 70]]}}})
        w.add_mf(cm, "kubectl-patch", "Update", 20, {"f:data": {"f:demo.flagd.json": {}}})
        w.put(cm, 20)
        baseline_logs(w, ["frontend", "ad", "cart", "recommendation"], every=3)
        return dict(pods=pods)
    cases.append(dict(
        n=3, t0=datetime(2026, 11, 6, 21, 10, tzinfo=timezone.utc), dur=40, build=c3, tsform=2, alertenv="list",
        evapi="v1", managed=True, watch=True, sortkeys=False, pyrepr=False, no_root=True, tstime=True,
        chains=["ads", "cart", "reco"],
        effects=[dict(chain="ads", svc="ad", start=20, prob=0.3, err="io.grpc.StatusRuntimeException: UNAVAILABLE",
                      log="GetAds Failed with status Status{{code=UNAVAILABLE, description=null, cause=null}}")],
        upmsg={"frontend": "failed to get ads: rpc error: code = Unavailable desc = ", "frontend-proxy": "500"},
        obs=[30, 40],
        alerts=[A("RequestErrorRate", 22, {"service_name": "ad"}, for_=2),
                A("RequestErrorRate", 23, {"service_name": "frontend"}, for_=2)],
        must=["fractional", "session.id", "GetAds Failed", "2.1.4-ad"],
        summary="adFailure switched on for 30 % of sessions through a fractional targeting rule (defaultVariant stays off; kubectl-patch); an ad image rollout 2 min before is the decoy; no root spans",
        gt=dict(groups=[G("flagd-config-1", "ConfigMap", "flagd-config", root=True)] + app_groups("ad")[0] + app_groups("frontend")[0],
                aliases=[app_groups("ad")[1], app_groups("frontend")[1]],
                propagations=[P("flagd-config-1", "ad-service-1", "adFailure targeting 30 %", "GetAds UNAVAILABLE"),
                              P("ad-service-1", "frontend-service-1", "frontend GetAds", "/api/data errors")],
                fault=[{"category": "Change", "condition": "feature flag adFailure enabled for a fraction of sessions",
                        "entity": {"kind": "ConfigMap", "name": "flagd-config", "group_id": "flagd-config-1"}, "fault_mechanism": "flagd"}],
                alerts=[{"group_id": "ad-service-1", "id": "RequestErrorRate"}, {"group_id": "frontend-service-1", "id": "RequestErrorRate"}])))

    # ============ 4. paymentFailure 100% written at min 6, flagd mounts by subPath, picked up only when flagd restarts at min 20
    def c4(w):
        svcs = ["frontend-proxy", "frontend", "checkout", "payment", "flagd", "cart", "currency", "shipping", "quote", "email", "product-catalog", "kafka"]
        pods = build_base(w, svcs, extra={})
        w.put(flagd_dep(w, mount_subpath=True), 0)
        w.put(flagd_cm(ALL_FLAGS), 0)
        cm = flagd_cm(ALL_FLAGS, on={"paymentFailure": "100%"})
        w.add_mf(cm, "kubectl-edit", "Update", 6, {"f:data": {"f:demo.flagd.json": {}}})
        w.put(cm, 6)
        newf = rollout_decoy(w, "flagd", 20, pods["flagd"][0], "rs2", NODES[2], restart=True)
        w.log(20.4, "flagd", "INFO", "flag set file:./etc/flagd/demo.flagd.json loaded: 8 flags", pod=newf)
        baseline_logs(w, ["frontend", "checkout", "cart", "currency", "shipping"])
        return dict(pods=pods)
    cases.append(dict(
        n=4, t0=datetime(2026, 11, 9, 8, 0, tzinfo=timezone.utc), dur=40, build=c4, tsform=3, alertenv="ts",
        evapi="events.k8s.io/v1", managed=True, watch=False, sortkeys=False, pyrepr=True, no_root=False, logjson=True,
        chains=["cart", "checkout", "checkout"],
        effects=[dict(chain="co-payment", svc="payment", start=20.5, err="Payment request failed. Invalid token. app.loyalty.level=gold",
                      log="Payment request failed. Invalid token. app.loyalty.level=gold")],
        upmsg={"checkout": "failed to charge card: could not charge the card: rpc error: code = Unknown desc = Payment request failed. Invalid token. app.loyalty.level=gold",
               "frontend-proxy": "500"},
        obs=[30, 40],
        alerts=[A("RequestErrorRate", 21, {"service_name": "payment"}, for_=2),
                A("RequestErrorRate", 21, {"service_name": "checkout"}, for_=2),
                A("RequestErrorRate", 22, {"service_name": "frontend"}, for_=2)],
        must=["subPath", "100%", "kubectl.kubernetes.io/restartedAt", "Invalid token"],
        summary="paymentFailure set to 100% by kubectl-edit at min 6 but flagd mounts the file by subPath, so it takes effect only when flagd is restarted at min 20 (the visible change); all charges fail",
        gt=dict(groups=[G("flagd-config-1", "ConfigMap", "flagd-config", root=True)] + app_groups("flagd")[0] + app_groups("payment")[0]
                + app_groups("checkout")[0] + app_groups("frontend")[0],
                aliases=[app_groups("flagd")[1], app_groups("payment")[1], app_groups("checkout")[1], app_groups("frontend")[1]],
                propagations=[P("flagd-config-1", "flagd-service-1", "flagd restarted reads paymentFailure 100%", "flag served"),
                              P("flagd-service-1", "payment-service-1", "payment evaluates paymentFailure", "Charge fails"),
                              P("payment-service-1", "checkout-service-1", "checkout Charge", "PlaceOrder errors"),
                              P("checkout-service-1", "frontend-service-1", "frontend PlaceOrder", "checkout errors")],
                fault=[{"category": "Change", "condition": "feature flag paymentFailure 100%",
                        "entity": {"kind": "ConfigMap", "name": "flagd-config", "group_id": "flagd-config-1"}, "fault_mechanism": "flagd"}],
                alerts=[{"group_id": "payment-service-1", "id": "RequestErrorRate"}, {"group_id": "checkout-service-1", "id": "RequestErrorRate"},
                        {"group_id": "frontend-service-1", "id": "RequestErrorRate"}])))

    # ============ 5. TimeChaos on one container (valkey-cart) -> carts expire, checkout gets empty carts
    def c5(w):
        svcs = ["frontend-proxy", "frontend", "cart", "valkey-cart", "checkout", "currency", "product-catalog", "shipping", "quote"]
        pods = build_base(w, svcs)
        tc = {"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "TimeChaos",
              "metadata": {"name": "valkey-cart-clock-forward", "namespace": "chaos-mesh",
                           "annotations": {"experiment.chaos-mesh.org/pause": "false"}},
              "spec": {"mode": "all", "selector": {"namespaces": [NS], "labelSelectors": {"opentelemetry.io/name": "valkey-cart"}},
                       "containerNames": ["valkey-cart"], "timeOffset": "+2h", "clockIds": ["CLOCK_REALTIME", "CLOCK_MONOTONIC"], "duration": "30m"},
              "status": {"experiment": {"desiredPhase": "Run", "containerRecords": [
                  {"id": "%s/%s/valkey-cart" % (NS, pods["valkey-cart"][0]), "phase": "Injected", "selectorKey": "."}]}}}
        w.put(tc, 20, "ADDED")
        w.event(20.02, "TimeChaos", "valkey-cart-clock-forward", "FinalizerInited", "Finalizer has been inited", ns="chaos-mesh", comp="initFinalizers")
        w.event(20.05, "TimeChaos", "valkey-cart-clock-forward", "Applied", "Successfully apply chaos for %s/%s/valkey-cart" % (NS, pods["valkey-cart"][0]), ns="chaos-mesh", comp="records")
        # decoy: unrelated node label change
        n = copy.deepcopy(w.get("Node", NODES[1], ns="")); n["metadata"]["labels"]["topology.ebs.csi.aws.com/zone"] = "us-east-2b"
        w.put(n, 9)
        rollout_decoy(w, "quote", 26, pods["quote"][0], "v2", NODES[2], image="ghcr.io/open-telemetry/demo:2.1.4-quote")
        baseline_logs(w, ["frontend", "checkout", "currency", "shipping", "valkey-cart"])
        for m in range(21, 40):
            w.log(m + 0.7, "cart", "WARN", "Cart for user {} was empty or expired".format(hid("u", m, n=8)))
            if m % 3 == 0:
                w.log(m + 0.2, "valkey-cart", "INFO", "1:M 09 Nov 2026 %02d:%02d:11.004 * 9 keys expired in active cycle" % (11 + (m + 120) // 60, (m + 120) % 60), pod=pods["valkey-cart"][0])
        return dict(pods=pods)
    cases.append(dict(
        n=5, t0=datetime(2026, 11, 9, 9, 0, tzinfo=timezone.utc), dur=40, build=c5, tsform=4, alertenv="data",
        evapi="v1", managed=False, watch=True, sortkeys=True, pyrepr=False, no_root=False, dep_status=False,
        chains=["cart", "checkout", "checkout"],
        effects=[dict(chain="co-cart", svc="checkout", kind="Client", start=20.1, prob=0.85, err="cart is empty",
                      log="failed to prepare order: cart is empty")],
        upmsg={"checkout": "failed to prepare order: cart is empty", "frontend": "failed to complete the order: rpc error: code = Internal desc = failed to prepare order: cart is empty", "frontend-proxy": "500"},
        obs=[28, 40],
        alerts=[A("RequestErrorRate", 22, {"service_name": "checkout"}, for_=2),
                A("RequestErrorRate", 23, {"service_name": "frontend"}, for_=2)],
        must=["containerNames", "timeOffset", "keys expired", "cart is empty"],
        summary="TimeChaos +2h on the valkey-cart container only: cart keys expire at once, carts read empty, checkout fails 'cart is empty'; no error in valkey; decoys: node label change (min 9), quote image rollout (min 26)",
        gt=dict(groups=[G("valkey-cart-clock-forward", "TimeChaos", "valkey-cart-clock-forward", ns="chaos-mesh", root=True)]
                + app_groups("valkey-cart")[0] + app_groups("cart")[0] + app_groups("checkout")[0] + app_groups("frontend")[0],
                aliases=[app_groups("valkey-cart")[1], app_groups("cart")[1], app_groups("checkout")[1], app_groups("frontend")[1]],
                propagations=[P("valkey-cart-clock-forward", "valkey-cart-service-1", "clock +2h in valkey container", "keys expire"),
                              P("valkey-cart-service-1", "cart-service-1", "HGET returns nothing", "empty carts"),
                              P("cart-service-1", "checkout-service-1", "GetCart empty", "PlaceOrder errors"),
                              P("checkout-service-1", "frontend-service-1", "frontend PlaceOrder", "errors")],
                fault=[{"category": "Chaos", "condition": "clock skew", "entity": {"kind": "TimeChaos", "name": "valkey-cart-clock-forward",
                                                                                    "group_id": "valkey-cart-clock-forward"}, "fault_mechanism": "chaos-mesh"}],
                alerts=[{"group_id": "checkout-service-1", "id": "RequestErrorRate"}, {"group_id": "frontend-service-1", "id": "RequestErrorRate"}])))

    # ============ 6. NetworkChaos loss by label across two namespaces
    def c6(w):
        svcs = ["frontend-proxy", "frontend", "checkout", "shipping", "quote", "cart", "currency", "payment", "email", "product-catalog"]
        pods = build_base(w, svcs)
        # a staging copy of quote in otel-demo-stage
        sq = podname("quote", "stage", 6)
        sp = pod_obj(w, w.get("Deployment", "quote"), sq, NODES[1], -3000)
        sp["metadata"]["namespace"] = "otel-demo-stage"
        w.put(sp, 0)
        nc = {"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "NetworkChaos",
              "metadata": {"name": "pricing-tier-loss", "namespace": "chaos-mesh"},
              "spec": {"action": "loss", "mode": "all",
                       "selector": {"namespaces": [NS, "otel-demo-stage"], "labelSelectors": {"app.kubernetes.io/name": "quote"}},
                       "loss": {"loss": "45", "correlation": "25"}, "direction": "to", "duration": "25m"}}
        w.put(nc, 19.8, "ADDED")
        w.event(19.85, "NetworkChaos", "pricing-tier-loss", "Applied", "Successfully apply chaos for %s/%s" % (NS, pods["quote"][0]), ns="chaos-mesh", comp="records")
        w.event(19.86, "NetworkChaos", "pricing-tier-loss", "Applied", "Successfully apply chaos for otel-demo-stage/%s" % sq, ns="chaos-mesh", comp="records")
        hpa_decoy(w, "checkout", 31, NODES[0])
        baseline_logs(w, ["frontend", "checkout", "currency", "payment", "email"])
        for m in range(20, 40):
            w.log(m + 0.3, "shipping", "WARN", "quote request to http://quote:8080/getquote failed, retrying: operation timed out")
        return dict(pods=pods)
    cases.append(dict(
        n=6, t0=datetime(2026, 11, 11, 16, 20, tzinfo=timezone.utc), dur=40, build=c6, tsform=0, alertenv="alerts",
        evapi="events.k8s.io/v1", managed=False, watch=False, sortkeys=False, pyrepr=True, no_root=False, kindenum=True,
        chains=["checkout", "checkout", "cart"],
        effects=[dict(chain="co-shipping", svc="quote", start=19.9, prob=0.2, cut=True),
                 dict(chain="co-shipping", svc="shipping", kind="Client", start=19.9, prob=0.6, ms=1400)],
        cutmsg="failed to get shipping quote: error sending request for url (http://quote:8080/getquote): operation timed out",
        upmsg={"checkout": "shipping quote failure: failed POST to shipping service: 500", "frontend-proxy": "500"},
        obs=[30, 40],
        alerts=[A("RequestLatencyHigh", 21, {"service_name": "shipping"}, for_=3),
                A("RequestErrorRate", 24, {"service_name": "checkout"}, for_=2)],
        must=["otel-demo-stage", "\"loss\"", "operation timed out"],
        summary="NetworkChaos loss 45% on pods labelled app.kubernetes.io/name=quote in two namespaces (otel-demo and otel-demo-stage); shipping's quote calls time out/retry, checkout errors; quote server spans look healthy; checkout HPA decoy at min 31",
        gt=dict(groups=[G("pricing-tier-loss", "NetworkChaos", "pricing-tier-loss", ns="chaos-mesh", root=True)]
                + app_groups("quote")[0] + app_groups("shipping")[0] + app_groups("checkout")[0],
                aliases=[app_groups("quote")[1], app_groups("shipping")[1], app_groups("checkout")[1]],
                propagations=[P("pricing-tier-loss", "quote-service-1", "45% packet loss on quote pods", "requests to quote lost"),
                              P("quote-service-1", "shipping-service-1", "shipping calls quote", "timeouts and latency"),
                              P("shipping-service-1", "checkout-service-1", "checkout gets a quote", "PlaceOrder errors")],
                fault=[{"category": "Chaos", "condition": "packet loss", "entity": {"kind": "NetworkChaos", "name": "pricing-tier-loss", "group_id": "pricing-tier-loss"},
                        "fault_mechanism": "chaos-mesh"}],
                alerts=[{"group_id": "shipping-service-1", "id": "RequestLatencyHigh"}, {"group_id": "checkout-service-1", "id": "RequestErrorRate"}])))

    # ============ 7. Schedule (cron) of PodChaos container-kill, selector by explicit pods
    def c7(w):
        svcs = ["frontend-proxy", "frontend", "checkout", "currency", "cart", "product-catalog", "payment", "shipping", "quote", "email"]
        pods = build_base(w, svcs)
        cp = pods["currency"][0]
        sch = {"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "Schedule",
               "metadata": {"name": "currency-container-kill-5m", "namespace": "chaos-mesh", "creationTimestamp": k8sts(w.at(-95)),
                            "annotations": {"experiment.chaos-mesh.org/pause": "true"}},
               "spec": {"schedule": "*/5 * * * *", "type": "PodChaos", "historyLimit": 3, "concurrencyPolicy": "Forbid", "startingDeadlineSeconds": 60,
                        "podChaos": {"action": "container-kill", "mode": "all", "containerNames": ["currency"],
                                     "selector": {"pods": {NS: [cp]}}}},
               "status": {"time": k8sts(w.at(-95))}}
        w.put(sch, -95 if False else 0, "ADDED")
        # the schedule was paused (annotation) until min 20
        restarts = 0
        for k, m in enumerate([20, 25, 30, 35]):
            nm = "currency-container-kill-5m-%s" % hid("sp", m, n=5)
            pc = {"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "PodChaos",
                  "metadata": {"name": nm, "namespace": "chaos-mesh",
                               "ownerReferences": [{"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "Schedule", "name": "currency-container-kill-5m"}],
                               "labels": {"managed-by": "currency-container-kill-5m"}},
                  "spec": sch["spec"]["podChaos"]}
            w.put(pc, m, "ADDED")
            w.event(m, "Schedule", "currency-container-kill-5m", "Spawned", "Create new object: %s" % nm, ns="chaos-mesh", comp="schedule-cron")
            w.event(m + 0.02, "PodChaos", nm, "Applied", "Successfully apply chaos for %s/%s/currency" % (NS, cp), ns="chaos-mesh", comp="records")
            restarts += 1
            p = copy.deepcopy(w.get("Pod", cp))
            cs = p["status"]["containerStatuses"][0]
            cs["restartCount"] = restarts
            cs["lastState"] = {"terminated": {"exitCode": 137, "reason": "Error", "finishedAt": k8sts(w.at(m + 0.03))}}
            if k >= 2:
                cs["state"] = {"waiting": {"reason": "CrashLoopBackOff", "message": "back-off 20s restarting failed container=currency pod=%s" % cp}}
                cs["ready"] = False
                w.event(m + 0.1, "Pod", cp, "BackOff", "Back-off restarting failed container currency in pod %s" % cp, typ="Warning", count=k, host=NODES[svcs.index("currency") % 3])
            w.put(p, m + 0.05)
            p2 = copy.deepcopy(p); p2["status"]["containerStatuses"][0]["state"] = {"running": {"startedAt": k8sts(w.at(m + 0.6))}}; p2["status"]["containerStatuses"][0]["ready"] = True
            w.put(p2, m + 0.6)
            w.event(m + 0.04, "Pod", cp, "Pulled", 'Container image "%s" already present on machine' % IMAGES["currency"], host=NODES[svcs.index("currency") % 3])
            w.log(m + 0.59, "currency", "INFO", "Currency Server listening on port: 8080", pod=cp)
        sch2 = copy.deepcopy(sch); sch2["metadata"]["annotations"] = {"experiment.chaos-mesh.org/pause": "false"}
        w.put(sch2, 19.9)
        rollout_decoy(w, "email", 12, pods["email"][0], "v2", NODES[2], image="ghcr.io/open-telemetry/demo:2.1.4-email")
        baseline_logs(w, ["frontend", "checkout", "payment", "shipping", "currency"])
        return dict(pods=pods)
    cases.append(dict(
        n=7, t0=datetime(2026, 11, 14, 5, 40, tzinfo=timezone.utc), dur=40, build=c7, tsform=1, alertenv="list",
        evapi="v1", managed=True, watch=True, sortkeys=False, pyrepr=False, no_root=False,
        chains=["checkout", "checkout", "product"],
        effects=[dict(chain="co-currency", svc="currency", start=20, end=20.7, cut=True),
                 dict(chain="co-currency", svc="currency", start=25, end=25.7, cut=True),
                 dict(chain="co-currency", svc="currency", start=30, end=31.0, cut=True),
                 dict(chain="co-currency", svc="currency", start=35, end=36.0, cut=True)],
        cutmsg="rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial tcp 172.20.14.9:8080: connect: connection refused\"",
        upmsg={"checkout": "failed to convert currency: rpc error: code = Unavailable desc = connection refused", "frontend-proxy": "500"},
        obs=[33, 40],
        alerts=[A("KubePodCrashLooping", 30.1, {"pod": "@currency", "service_name": "currency"}, for_=1),
                A("RequestErrorRate", 25.1, {"service_name": "checkout"}, for_=1)],
        must=["*/5 * * * *", "container-kill", "exitCode\":137" if False else "137"],
        summary="A Schedule (cron */5, unpaused at min 19.9) spawns PodChaos container-kill on the currency container of one named pod; currency restarts every 5 min, checkout errors in bursts; email rollout decoy at min 12",
        gt=dict(groups=[G("currency-container-kill-5m", "Schedule", "currency-container-kill-5m", ns="chaos-mesh", root=True),
                        G("currency-container-kill-podchaos", "PodChaos", None, ns="chaos-mesh", filt=["^currency-container-kill-5m-"])]
                + app_groups("currency")[0] + app_groups("checkout")[0],
                aliases=[["currency-container-kill-5m", "currency-container-kill-podchaos"], app_groups("currency")[1], app_groups("checkout")[1]],
                propagations=[P("currency-container-kill-5m", "currency-container-kill-podchaos", "cron spawns", "PodChaos every 5 min"),
                              P("currency-container-kill-podchaos", "currency-service-1", "container-kill", "currency restarts, CrashLoopBackOff"),
                              P("currency-service-1", "checkout-service-1", "checkout Convert", "PlaceOrder errors in bursts")],
                fault=[{"category": "Chaos", "condition": "container killed repeatedly", "entity": {"kind": "Schedule", "name": "currency-container-kill-5m",
                                                                                                 "group_id": "currency-container-kill-5m"}, "fault_mechanism": "chaos-mesh"}],
                alerts=[{"group_id": "currency-service-1", "id": "KubePodCrashLooping"}, {"group_id": "checkout-service-1", "id": "RequestErrorRate"}])))

    # ============ 8. AWSChaos ec2-stop -> node NotReady, kafka unreachable
    def c8(w):
        svcs = ["frontend-proxy", "frontend", "checkout", "kafka", "accounting", "fraud-detection", "cart", "payment", "currency", "email", "shipping", "quote", "product-catalog"]
        nodes_of = {(x, 0): NODES[i % 2] for i, x in enumerate(svcs)}
        nodes_of.update({("kafka", 0): NODES[2], ("fraud-detection", 0): NODES[2]})
        pods = build_base(w, svcs, nodes_of=nodes_of)
        aw = {"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "AWSChaos",
              "metadata": {"name": "stop-worker-c", "namespace": "chaos-mesh"},
              "spec": {"action": "ec2-stop", "secretName": "cloud-key-secret", "awsRegion": "us-east-2",
                       "ec2Instance": NODE_IID[NODES[2]], "duration": "20m"}}
        w.put(aw, 20, "ADDED")
        w.event(20.01, "AWSChaos", "stop-worker-c", "Applied", "Successfully apply chaos for us-east-2/%s" % NODE_IID[NODES[2]], ns="chaos-mesh", comp="records")
        n = node_obj(NODES[2], 0, ready=False, taints=[{"key": "node.kubernetes.io/unreachable", "effect": "NoSchedule", "timeAdded": k8sts(w.at(20.8))},
                                                        {"key": "node.kubernetes.io/unreachable", "effect": "NoExecute", "timeAdded": k8sts(w.at(20.8))}])
        w.put(n, 20.8)
        w.event(20.8, "Node", NODES[2], "NodeNotReady", "Node %s status is now: NodeNotReady" % NODES[2], typ="Normal", comp="node-controller", ns="")
        # pods on the node: Ready False, then after 300s evicted and recreated
        victims = [p for s in svcs for p in pods[s] if w.get("Pod", p)["spec"].get("nodeName") == NODES[2]]
        for v in victims:
            p = copy.deepcopy(w.get("Pod", v)); p["status"]["conditions"][0]["status"] = "False"
            p["status"]["conditions"][0]["reason"] = "NodeStatusUnknown" if False else None
            p["status"]["conditions"][0].pop("reason")
            w.put(p, 20.9)
            w.event(20.9, "Pod", v, "NodeNotReady", "Node is not ready", typ="Warning", comp="node-controller")
            w.event(25.9, "Pod", v, "TaintManagerEviction", "Marking for deletion Pod %s/%s" % (NS, v), comp="taint-eviction-controller")
            p2 = copy.deepcopy(p); p2["metadata"]["deletionTimestamp"] = k8sts(w.at(25.9)); p2["metadata"]["deletionGracePeriodSeconds"] = 30
            w.put(p2, 25.9)
            svc = p["metadata"]["labels"]["opentelemetry.io/name"]
            np_ = sibling(w, svc, "resched")
            tgt = NODES[0] if svc != "kafka" else NODES[1]
            w.event(26.0, "Pod", np_, "Scheduled", "Successfully assigned %s/%s to %s" % (NS, np_, tgt), comp="default-scheduler")
            pn = pod_obj(w, w.get("Deployment", svc), np_, tgt, 26.0, ready=svc != "kafka")
            w.put(pn, 26.1, "ADDED")
            if svc == "kafka":
                pn2 = copy.deepcopy(pn); pn2["status"]["conditions"][0]["status"] = "True"; pn2["status"]["containerStatuses"][0]["ready"] = True
                w.put(pn2, 29.0)
                w.log(28.8, "kafka", "INFO", "[KafkaServer id=1] started", pod=np_)
        for m in range(21, 29):
            w.log(m + 0.2, "checkout", "ERROR", "Failed to write message to kafka: kafka: client has run out of available brokers to talk to: dial tcp 10.0.3.191:9092: i/o timeout")
            w.log(m + 0.4, "accounting", "WARN", "Connection to node 1 (kafka/10.0.3.191:9092) could not be established. Node may not be available.")
        hpa_decoy(w, "frontend", 8, NODES[1])
        baseline_logs(w, ["frontend", "cart", "payment", "currency", "shipping"])
        return dict(pods=pods)
    cases.append(dict(
        n=8, t0=datetime(2026, 11, 16, 12, 0, tzinfo=timezone.utc), dur=40, build=c8, tsform=2, alertenv="ts",
        evapi="v1", managed=False, watch=False, sortkeys=True, pyrepr=True, no_root=True, tstime=True,
        chains=["checkout", "checkout", "kafka-consume", "fraud-consume"],
        effects=[dict(chain="co-kafka", svc="checkout", kind="Producer", start=20.5, end=29, err="kafka: client has run out of available brokers to talk to"),
                 dict(chain="kafka-consume", svc="accounting", kind="Consumer", start=20.5, end=29, cut=True),
                 dict(chain="fraud-consume", svc="fraud-detection", kind="Consumer", start=20.5, end=29, cut=True)],
        upmsg={"checkout": "failed to send order to kafka", "frontend-proxy": "500"},
        obs=[30, 40],
        alerts=[A("KubeNodeNotReady", 21.8, {"node": NODES[2]}, sev="critical", for_=1),
                A("KafkaProducerErrors", 21, {"service_name": "checkout", "topic": "orders"}, for_=2, end=31),
                A("KafkaConsumerLag", 23, {"service_name": "accounting", "consumergroup": "accounting"}, for_=2)],
        must=["ec2-stop", "NodeNotReady", "TaintManagerEviction", NODE_IID[NODES[2]]],
        summary="AWSChaos ec2-stop stops the EC2 instance of node ip-10-0-3-41: the node goes NotReady, kafka (and fraud-detection) on it are unreachable then evicted after 300 s; checkout cannot publish, accounting lags; frontend HPA decoy at min 8",
        gt=dict(groups=[G("stop-worker-c", "AWSChaos", "stop-worker-c", ns="chaos-mesh", root=True),
                        G("node-c", "Node", NODES[2], ns="")] + app_groups("kafka")[0] + app_groups("checkout")[0] + app_groups("accounting")[0],
                aliases=[app_groups("kafka")[1], app_groups("checkout")[1], app_groups("accounting")[1]],
                propagations=[P("stop-worker-c", "node-c", "EC2 instance stopped", "node NotReady"),
                              P("node-c", "kafka-service-1", "kafka pod on the node", "broker unreachable"),
                              P("kafka-service-1", "checkout-service-1", "checkout publishes orders", "publish errors"),
                              P("kafka-service-1", "accounting-service-1", "accounting consumes", "consumer lag")],
                fault=[{"category": "Chaos", "condition": "node stopped", "entity": {"kind": "AWSChaos", "name": "stop-worker-c", "group_id": "stop-worker-c"},
                        "fault_mechanism": "chaos-mesh"}],
                alerts=[{"group_id": "node-c", "id": "KubeNodeNotReady"}, {"group_id": "checkout-service-1", "id": "KafkaProducerErrors"},
                        {"group_id": "accounting-service-1", "id": "KafkaConsumerLag"}])))

    # ============ 9. node tainted NoExecute -> pods evicted, replacement Pending
    def c9(w):
        svcs = ["frontend-proxy", "frontend", "product-catalog", "recommendation", "cart", "checkout", "currency", "ad", "shipping", "quote", "payment", "email"]
        nodes_of = {(x, 0): NODES[1 + i % 2] for i, x in enumerate(svcs)}
        nodes_of.update({("product-catalog", 0): NODES[0], ("recommendation", 0): NODES[0]})
        pods = build_base(w, svcs, nodes_of=nodes_of)
        dep = w.get("Deployment", "product-catalog"); dep["spec"]["template"]["spec"]["containers"][0]["resources"]["requests"]["memory"] = "2Gi"
        w.put(copy.deepcopy(dep), 0)
        n = copy.deepcopy(w.get("Node", NODES[0], ns=""))
        n["spec"]["taints"] = [{"key": "dedicated", "value": "batch", "effect": "NoExecute", "timeAdded": k8sts(w.at(20))}]
        w.add_mf(n, "kubectl-taint", "Update", 20, {"f:spec": {"f:taints": {}}})
        w.put(n, 20)
        np_ = sibling(w, "recommendation", "re")
        pp = sibling(w, "product-catalog", "re")
        for svc in ("product-catalog", "recommendation"):
            v = pods[svc][0]
            w.event(20.02, "Pod", v, "TaintManagerEviction", "Marking for deletion Pod %s/%s" % (NS, v), comp="taint-eviction-controller")
            w.event(20.05, "Pod", v, "Killing", "Stopping container %s" % svc, host=NODES[0])
            w.delete("Pod", v, 20.6)
        w.event(20.1, "Pod", np_, "Scheduled", "Successfully assigned %s/%s to %s" % (NS, np_, NODES[1]), comp="default-scheduler")
        w.put(pod_obj(w, w.get("Deployment", "recommendation"), np_, NODES[1], 20.1), 20.2, "ADDED")
        pend = pod_obj(w, w.get("Deployment", "product-catalog"), pp, None, 20.1, phase="Pending", ready=False)
        pend["status"]["conditions"][2]["reason"] = "Unschedulable"
        w.put(pend, 20.2, "ADDED")
        w.event(20.2, "Pod", pp, "FailedScheduling", "0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: batch}, 2 Insufficient memory. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
                typ="Warning", count=9, comp="default-scheduler", first=20.2)
        # decoy: ad rollout at min 7, node label change on NODES[2] at min 15
        rollout_decoy(w, "ad", 7, pods["ad"][0], "v2", NODES[2], restart=True)
        n3 = copy.deepcopy(w.get("Node", NODES[2], ns="")); n3["metadata"]["labels"]["workload-tier"] = "general"
        w.add_mf(n3, "kubectl-label", "Update", 15, {"f:metadata": {"f:labels": {}}})
        w.put(n3, 15)
        baseline_logs(w, ["frontend", "cart", "checkout", "currency", "recommendation"])
        for m in range(21, 40):
            w.log(m + 0.55, "recommendation", "ERROR", "failed to get product list: <_InactiveRpcError of RPC that terminated with: status = StatusCode.UNAVAILABLE details = \"failed to connect to all addresses\">")
        return dict(pods=pods)
    cases.append(dict(
        n=9, t0=datetime(2026, 11, 18, 23, 15, tzinfo=timezone.utc), dur=40, build=c9, tsform=3, alertenv="data",
        evapi="events.k8s.io/v1", managed=True, watch=True, sortkeys=False, pyrepr=False, no_root=False, dbl=True,
        chains=["product", "reco", "checkout", "cart"],
        effects=[dict(chain="product", svc="product-catalog", start=20.6, cut=True),
                 dict(chain="reco", svc="product-catalog", start=20.6, cut=True),
                 dict(chain="co-product", svc="product-catalog", start=20.6, cut=True)],
        cutmsg="rpc error: code = Unavailable desc = no healthy upstream",
        upmsg={"recommendation": "failed to connect to all addresses", "checkout": "failed to prepare order: failed to get product", "frontend-proxy": "500"},
        obs=[30, 40],
        alerts=[A("KubePodNotScheduled" if False else "KubePodPending", 25.2, {"pod": "@product-catalog", "service_name": "product-catalog"}, for_=5),
                A("RequestErrorRate", 22, {"service_name": "frontend"}, for_=2),
                A("RequestErrorRate", 22, {"service_name": "recommendation"}, for_=2)],
        must=["NoExecute", "untolerated taint", "kubectl-taint", "Insufficient memory"],
        summary="Node ip-10-0-1-23 tainted dedicated=batch:NoExecute (kubectl-taint): product-catalog and recommendation evicted; recommendation reschedules, product-catalog (2Gi request) stays Pending; decoys: ad restart (min 7), a node label on another node (min 15)",
        gt=dict(groups=[G("node-a", "Node", NODES[0], ns="", root=True)] + app_groups("product-catalog")[0] + app_groups("recommendation")[0]
                + app_groups("frontend")[0] + app_groups("checkout")[0],
                aliases=[app_groups("product-catalog")[1], app_groups("recommendation")[1], app_groups("frontend")[1], app_groups("checkout")[1]],
                propagations=[P("node-a", "product-catalog-service-1", "NoExecute taint evicts the pod; no node fits", "no product-catalog pod"),
                              P("product-catalog-service-1", "frontend-service-1", "GetProduct", "errors"),
                              P("product-catalog-service-1", "recommendation-service-1", "ListProducts", "errors"),
                              P("product-catalog-service-1", "checkout-service-1", "GetProduct", "PlaceOrder errors")],
                fault=[{"category": "Misconfiguration", "condition": "node tainted NoExecute", "entity": {"kind": "Node", "name": NODES[0], "group_id": "node-a"},
                        "fault_mechanism": "kubectl"}],
                alerts=[{"group_id": "product-catalog-service-1", "id": "KubePodPending"}, {"group_id": "frontend-service-1", "id": "RequestErrorRate"},
                        {"group_id": "recommendation-service-1", "id": "RequestErrorRate"}])))

    # ============ 10. Secret rotated at min 4, picked up by a rollout restart at min 20 -> postgres auth fails
    def c10(w):
        svcs = ["frontend-proxy", "frontend", "product-reviews", "postgresql", "product-catalog", "cart", "llm"]
        env = [{"name": "DB_CONNECTION_STRING", "valueFrom": {"secretKeyRef": {"name": "product-reviews-db", "key": "connection-string"}}}]
        pods = build_base(w, svcs, extra={"product-reviews": {"env": env}})
        dep = w.get("Deployment", "product-reviews"); dep["spec"]["strategy"] = {"type": "Recreate"}
        w.put(copy.deepcopy(dep), 0)
        sec = {"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
               "metadata": {"name": "product-reviews-db", "namespace": NS, "annotations": {"rotated-by": "vault-secrets-operator"}},
               "data": {"connection-string": "aG9zdD1wb3N0Z3Jlc3FsIHVzZXI9b3RlbHUgcGFzc3dvcmQ9b3RlbHAgZGJuYW1lPW90ZWw="}}
        w.put(sec, 0)
        s2 = copy.deepcopy(sec); s2["data"]["connection-string"] = "aG9zdD1wb3N0Z3Jlc3FsIHVzZXI9b3RlbHUgcGFzc3dvcmQ9UjB0YXRlZC0yMDI2MTEgZGJuYW1lPW90ZWw="
        w.add_mf(s2, "vault-secrets-operator", "Update", 4, {"f:data": {"f:connection-string": {}}})
        w.put(s2, 4)
        old = pods["product-reviews"][0]
        dep2 = copy.deepcopy(dep); dep2["spec"]["template"]["metadata"]["annotations"] = {"kubectl.kubernetes.io/restartedAt": k8sts(w.at(20))}
        dep2["metadata"]["generation"] = 2
        if "status" in dep2:
            dep2["status"].update({"readyReplicas": 0, "availableReplicas": 0})
        w.add_mf(dep2, "kubectl-rollout", "Update", 20, {"f:spec": {"f:template": {"f:metadata": {"f:annotations": {}}}}})
        w.put(dep2, 20)
        w.event(20, "Deployment", "product-reviews", "ScalingReplicaSet", "Scaled down replica set %s from 1 to 0" % old.rsplit("-", 1)[0], comp="deployment-controller")
        w.event(20.02, "Pod", old, "Killing", "Stopping container product-reviews", host=NODES[svcs.index("product-reviews") % 3])
        w.delete("Pod", old, 20.3)
        np_ = podname("product-reviews", "r2", 10)
        w.event(20.4, "Deployment", "product-reviews", "ScalingReplicaSet", "Scaled up replica set %s from 0 to 1" % np_.rsplit("-", 1)[0], comp="deployment-controller")
        w.event(20.45, "Pod", np_, "Scheduled", "Successfully assigned %s/%s to %s" % (NS, np_, NODES[1]), comp="default-scheduler")
        p = pod_obj(w, dep2, np_, NODES[1], 20.5, ready=False, restarts=4,
                    state={"waiting": {"reason": "CrashLoopBackOff", "message": "back-off 1m20s restarting failed container=product-reviews pod=%s" % np_}},
                    last={"terminated": {"exitCode": 1, "reason": "Error"}})
        w.put(pod_obj(w, dep2, np_, NODES[1], 20.5, ready=False), 20.5, "ADDED")
        w.put(p, 24)
        w.event(21.5, "Pod", np_, "BackOff", "Back-off restarting failed container product-reviews in pod %s" % np_, typ="Warning", count=14, host=NODES[1], first=21.5)
        for m in [20.7, 21.2, 22.0, 23.4, 26.1, 30.5, 36.0]:
            w.log(m, "product-reviews", "ERROR", 'psycopg2.OperationalError: connection to server at "postgresql" (172.20.81.4), port 5432 failed: FATAL:  password authentication failed for user "otelu"', pod=np_)
            w.log(m + 0.01, "postgresql", "ERROR", '2026-11-20 10:%02d:11.118 UTC [%d] FATAL:  password authentication failed for user "otelu"' % (int(m) + 10, 3000 + int(m * 10)))
        hpa_decoy(w, "frontend", 28, NODES[2])
        baseline_logs(w, ["frontend", "product-catalog", "cart", "postgresql"])
        return dict(pods=pods)
    cases.append(dict(
        n=10, t0=datetime(2026, 11, 20, 10, 0, tzinfo=timezone.utc), dur=40, build=c10, tsform=4, alertenv="alerts",
        evapi="v1", managed=True, watch=False, sortkeys=True, pyrepr=True, no_root=False, logjson=False,
        chains=["reviews", "product", "cart"],
        effects=[dict(chain="reviews", svc="product-reviews", start=20.05, cut=True)],
        cutmsg="rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial tcp 172.20.40.12:8080: connect: connection refused\"",
        upmsg={"frontend-proxy": "500"},
        obs=[30, 40],
        alerts=[A("KubePodCrashLooping", 23, {"pod": "@product-reviews", "service_name": "product-reviews"}, for_=1),
                A("RequestErrorRate", 21, {"service_name": "frontend"}, for_=2)],
        must=["vault-secrets-operator", "password authentication failed", "restartedAt", "Recreate"],
        summary="Secret product-reviews-db rotated by vault-secrets-operator at min 4 (new password, database unchanged); a rollout restart at min 20 picks it up and product-reviews CrashLoops on password authentication; frontend HPA decoy at min 28",
        gt=dict(groups=[G("product-reviews-db-secret", "Secret", "product-reviews-db", root=True)] + app_groups("product-reviews")[0] + app_groups("frontend")[0],
                aliases=[app_groups("product-reviews")[1], app_groups("frontend")[1]],
                propagations=[P("product-reviews-db-secret", "product-reviews-service-1", "rotated password read on restart", "auth fails, CrashLoopBackOff"),
                              P("product-reviews-service-1", "frontend-service-1", "GetProductReviews", "errors")],
                fault=[{"category": "Misconfiguration", "condition": "secret rotated without the database", "entity": {"kind": "Secret", "name": "product-reviews-db",
                                                                                                                    "group_id": "product-reviews-db-secret"}, "fault_mechanism": "config"}],
                alerts=[{"group_id": "product-reviews-service-1", "id": "KubePodCrashLooping"}, {"group_id": "frontend-service-1", "id": "RequestErrorRate"}])))

    # ============ 11. ConfigMap volume key removed, pod restarted by a node-pressure-free delete
    def c11(w):
        svcs = ["frontend-proxy", "frontend", "product-catalog", "recommendation", "checkout", "cart", "currency", "flagd"]
        extra = {"product-catalog": {"extra_spec": {"volumes": [{"name": "products", "configMap": {"name": "product-catalog-products"}}]}}}
        pods = build_base(w, svcs, extra=extra)
        dep = w.get("Deployment", "product-catalog")
        dep["spec"]["template"]["spec"]["containers"][0]["volumeMounts"] = [{"name": "products", "mountPath": "/usr/src/app/products"}]
        w.put(copy.deepcopy(dep), 0)
        old = pods["product-catalog"][0]
        op = copy.deepcopy(w.get("Pod", old)); op["spec"]["containers"][0]["volumeMounts"] = dep["spec"]["template"]["spec"]["containers"][0]["volumeMounts"]
        w.put(op, 0)
        cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "product-catalog-products", "namespace": NS},
              "data": {"products.json": json.dumps({"products": [{"id": "OLJCESPC7Z", "name": "National Park Foundation Explorascope"}]})}}
        w.put(cm, 0)
        cm2 = copy.deepcopy(cm); cm2["data"] = {"products-2026.json": cm["data"]["products.json"]}
        w.add_mf(cm2, "kubectl-client-side-apply", "Update", 8, {"f:data": {"f:products-2026.json": {}}})
        w.put(cm2, 8)
        w.log(8.9, "product-catalog", "WARN", "products directory changed; catalogue reload skipped until restart", pod=old)
        # the pod is deleted at min 20 (descheduler rebalance), replacement cannot load
        w.event(20, "Pod", old, "Descheduled", "pod evicted from %s node by sigs.k8s.io/descheduler: pod has too many restarts or is unbalanced (RemoveDuplicates)" % NODES[svcs.index("product-catalog") % 3], comp="sigs.k8s.io/descheduler")
        w.event(20.02, "Pod", old, "Killing", "Stopping container product-catalog", host=NODES[svcs.index("product-catalog") % 3])
        w.delete("Pod", old, 20.3)
        np_ = sibling(w, "product-catalog", "d2")
        w.event(20.1, "Pod", np_, "Scheduled", "Successfully assigned %s/%s to %s" % (NS, np_, NODES[0]), comp="default-scheduler")
        p = pod_obj(w, dep, np_, NODES[0], 20.2, ready=False)
        w.put(p, 20.2, "ADDED")
        p2 = pod_obj(w, dep, np_, NODES[0], 20.2, ready=False, restarts=5,
                     state={"waiting": {"reason": "CrashLoopBackOff"}}, last={"terminated": {"exitCode": 1, "reason": "Error"}})
        w.put(p2, 26)
        w.event(21, "Pod", np_, "BackOff", "Back-off restarting failed container product-catalog in pod %s" % np_, typ="Warning", count=19, host=NODES[0], first=21)
        for m in [20.3, 20.8, 21.6, 23.0, 25.7, 30.9, 36.2]:
            w.log(m, "product-catalog", "FATAL", "failed to load products: open /usr/src/app/products/products.json: no such file or directory", pod=np_)
        rollout_decoy(w, "cart", 13, pods["cart"][0], "v2", NODES[1], image="ghcr.io/open-telemetry/demo:2.1.4-cart")
        baseline_logs(w, ["frontend", "cart", "checkout", "currency"])
        return dict(pods=pods)
    cases.append(dict(
        n=11, t0=datetime(2026, 11, 21, 17, 45, tzinfo=timezone.utc), dur=40, build=c11, tsform=0, alertenv="ts",
        evapi="events.k8s.io/v1", managed=True, watch=True, sortkeys=True, pyrepr=False, no_root=True,
        chains=["product", "reco", "checkout"],
        effects=[dict(chain="product", svc="product-catalog", start=20.05, cut=True), dict(chain="reco", svc="product-catalog", start=20.05, cut=True),
                 dict(chain="co-product", svc="product-catalog", start=20.05, cut=True)],
        cutmsg="rpc error: code = Unavailable desc = connection refused",
        upmsg={"frontend-proxy": "500", "checkout": "failed to prepare order: failed to get product"},
        obs=[30, 40],
        alerts=[A("KubePodCrashLooping", 22, {"pod": "@product-catalog", "service_name": "product-catalog"}, for_=1),
                A("RequestErrorRate", 21, {"service_name": "frontend"}, for_=2),
                A("RequestErrorRate", 22, {"service_name": "checkout"}, for_=2)],
        must=["products-2026.json", "no such file or directory", "descheduler"],
        summary="ConfigMap product-catalog-products key products.json renamed to products-2026.json (mounted as a volume) at min 8; harmless until the descheduler evicts the pod at min 20 and the new pod cannot load the file (CrashLoopBackOff); cart rollout decoy at min 13; no root spans",
        gt=dict(groups=[G("product-catalog-products-cm", "ConfigMap", "product-catalog-products", root=True)] + app_groups("product-catalog")[0]
                + app_groups("frontend")[0] + app_groups("checkout")[0],
                aliases=[app_groups("product-catalog")[1], app_groups("frontend")[1], app_groups("checkout")[1]],
                propagations=[P("product-catalog-products-cm", "product-catalog-service-1", "products.json key missing at restart", "CrashLoopBackOff"),
                              P("product-catalog-service-1", "frontend-service-1", "GetProduct", "errors"),
                              P("product-catalog-service-1", "checkout-service-1", "GetProduct", "PlaceOrder errors")],
                fault=[{"category": "Misconfiguration", "condition": "ConfigMap volume key removed", "entity": {"kind": "ConfigMap", "name": "product-catalog-products",
                                                                                                             "group_id": "product-catalog-products-cm"}, "fault_mechanism": "config"}],
                alerts=[{"group_id": "product-catalog-service-1", "id": "KubePodCrashLooping"}, {"group_id": "frontend-service-1", "id": "RequestErrorRate"},
                        {"group_id": "checkout-service-1", "id": "RequestErrorRate"}])))

    # ============ 12. image pull secret removed; email rescheduled with imagePullPolicy Always -> ImagePullBackOff
    def c12(w):
        svcs = ["frontend-proxy", "frontend", "checkout", "email", "payment", "shipping", "quote", "currency", "cart", "product-catalog", "kafka"]
        extra = {"email": {"extra_spec": {"imagePullSecrets": [{"name": "ghcr-mirror-creds"}]}}}
        pods = build_base(w, svcs, extra=extra)
        dep = w.get("Deployment", "email")
        c0 = dep["spec"]["template"]["spec"]["containers"][0]
        c0["image"] = "registry.internal.example.com/otel/demo:2.1.3-email"; c0["imagePullPolicy"] = "Always"
        w.put(copy.deepcopy(dep), 0)
        sec = {"apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/dockerconfigjson",
               "metadata": {"name": "ghcr-mirror-creds", "namespace": NS, "labels": {"team": "platform"}},
               "data": {".dockerconfigjson": "eyJhdXRocyI6eyJyZWdpc3RyeS5pbnRlcm5hbC5leGFtcGxlLmNvbSI6eyJhdXRoIjoiYm05MFlTMXlaV0ZzIn19fQ=="}}
        w.put(sec, 0)
        w.delete("Secret", "ghcr-mirror-creds", 9)
        old = pods["email"][0]
        nd = NODES[svcs.index("email") % 3]
        w.event(20, "Pod", old, "Evicted", "The node was low on resource: ephemeral-storage. Threshold quantity: 2Gi, available: 1803096Ki. Container email was using 14Mi, request is 0, has larger consumption of ephemeral-storage.", typ="Warning", host=nd)
        w.delete("Pod", old, 20.2)
        np_ = sibling(w, "email", "pull")
        w.event(20.1, "Pod", np_, "Scheduled", "Successfully assigned %s/%s to %s" % (NS, np_, NODES[0]), comp="default-scheduler")
        w.event(20.12, "Pod", np_, "FailedToRetrieveImagePullSecret", 'Unable to retrieve some image pull secrets (ghcr-mirror-creds); attempting to pull the image without them', typ="Warning", host=NODES[0], count=30, first=20.12)
        w.event(20.3, "Pod", np_, "Failed", 'Failed to pull image "registry.internal.example.com/otel/demo:2.1.3-email": failed to authorize: failed to fetch anonymous token: unexpected status from GET request to https://registry.internal.example.com/token: 401 Unauthorized',
                typ="Warning", host=NODES[0], count=6, first=20.3)
        w.event(20.5, "Pod", np_, "BackOff", 'Back-off pulling image "registry.internal.example.com/otel/demo:2.1.3-email"', typ="Warning", host=NODES[0], count=88, first=20.5)
        p = pod_obj(w, dep, np_, NODES[0], 20.1, phase="Pending", ready=False,
                    state={"waiting": {"reason": "ImagePullBackOff", "message": 'Back-off pulling image "registry.internal.example.com/otel/demo:2.1.3-email"'}})
        w.put(p, 20.4, "ADDED")
        # decoys: kafka restart at min 5, checkout HPA at min 33
        rollout_decoy(w, "kafka", 5, pods["kafka"][0], "k2", NODES[2], restart=True)
        for m in range(21, 40):
            w.log(m + 0.45, "checkout", "WARN", 'failed to send order confirmation to "%s@example.com": Post "http://email:8080/send_order_confirmation": dial tcp 172.20.77.3:8080: connect: connection refused' % hid("mail", m, n=6))
        hpa_decoy(w, "checkout", 33, NODES[1])
        baseline_logs(w, ["frontend", "checkout", "payment", "shipping", "currency"])
        return dict(pods=pods)
    cases.append(dict(
        n=12, t0=datetime(2026, 11, 23, 6, 5, tzinfo=timezone.utc), dur=40, build=c12, tsform=1, alertenv="list",
        evapi="v1", managed=False, watch=True, sortkeys=False, pyrepr=True, no_root=False, dep_status=False, kindenum=True,
        chains=["checkout", "checkout", "cart"],
        effects=[dict(chain="co-email", svc="email", start=20.2, cut=True)],
        cutmsg="Failed to open TCP connection to email:8080 (Connection refused - connect(2) for \"email\" port 8080)",
        upmsg={"checkout": "failed to send order confirmation to \"someone@example.com\": rpc error: connection refused"},
        obs=[30, 40],
        alerts=[A("KubePodNotReady", 25.4, {"pod": "@email", "service_name": "email"}, for_=5),
                A("KubeDeploymentReplicasMismatch", 35.4, {"deployment": "email", "service_name": "email"}, for_=15)],
        must=["ghcr-mirror-creds", "401 Unauthorized", "ImagePullBackOff", "DELETED"],
        summary="imagePullSecret ghcr-mirror-creds deleted at min 9 (only a DELETED watch row shows it); email is evicted at min 20 and its replacement (pullPolicy Always, private registry) sits in ImagePullBackOff; checkout confirmation calls fail; decoys: kafka restart (min 5), checkout HPA (min 33)",
        gt=dict(groups=[G("pull-secret", "Secret", "ghcr-mirror-creds", root=True)] + app_groups("email")[0] + app_groups("checkout")[0],
                aliases=[app_groups("email")[1], app_groups("checkout")[1]],
                propagations=[P("pull-secret", "email-service-1", "replacement pod cannot pull without the secret", "no email pod"),
                              P("email-service-1", "checkout-service-1", "send order confirmation", "confirmation calls refused (logged as warnings, orders still placed)")],
                fault=[{"category": "Misconfiguration", "condition": "image pull secret removed", "entity": {"kind": "Secret", "name": "ghcr-mirror-creds",
                                                                                                          "group_id": "pull-secret"}, "fault_mechanism": "config"}],
                alerts=[{"group_id": "email-service-1", "id": "KubePodNotReady"}, {"group_id": "email-service-1", "id": "KubeDeploymentReplicasMismatch"}])))

    # ============ 13. LimitRange default memory lowered; HPA scale-out pods get 64Mi and OOM
    def c13(w):
        svcs = ["frontend-proxy", "frontend", "recommendation", "product-catalog", "cart", "ad", "flagd"]
        pods = build_base(w, svcs)
        dep = w.get("Deployment", "recommendation"); dep["spec"]["template"]["spec"]["containers"][0].pop("resources")
        w.put(copy.deepcopy(dep), 0)
        rp = copy.deepcopy(w.get("Pod", pods["recommendation"][0]))
        rp["spec"]["containers"][0]["resources"] = {"limits": {"memory": "512Mi"}, "requests": {"memory": "256Mi"}}
        rp["metadata"]["annotations"] = {"kubernetes.io/limit-ranger": "LimitRanger plugin set: memory request for container recommendation; memory limit for container recommendation"}
        w.put(rp, 0)
        lr = {"apiVersion": "v1", "kind": "LimitRange", "metadata": {"name": "otel-demo-defaults", "namespace": NS},
              "spec": {"limits": [{"type": "Container", "default": {"memory": "512Mi"}, "defaultRequest": {"memory": "256Mi"}}]}}
        w.put(lr, 0)
        lr2 = copy.deepcopy(lr); lr2["spec"]["limits"][0]["default"] = {"memory": "64Mi"}; lr2["spec"]["limits"][0]["defaultRequest"] = {"memory": "48Mi"}
        w.add_mf(lr2, "kubectl-client-side-apply", "Update", 6, {"f:spec": {"f:limits": {}}})
        w.put(lr2, 6)
        # HPA scales recommendation at min 20; new pods get 64Mi and OOM
        hpa = {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "recommendation", "namespace": NS},
               "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "recommendation"}, "minReplicas": 1, "maxReplicas": 3,
                        "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 60}}}]}}
        w.put(hpa, 0)
        w.event(20, "HorizontalPodAutoscaler", "recommendation", "SuccessfulRescale", "New size: 3; reason: cpu resource utilization (percentage of request) above target", comp="horizontal-pod-autoscaler")
        d2 = copy.deepcopy(dep); d2["spec"]["replicas"] = 3
        w.put(d2, 20)
        newp = []
        for i, nd in enumerate([NODES[0], NODES[2]]):
            np_ = sibling(w, "recommendation", "hpa%d" % i)
            newp.append(np_)
            w.event(20.05, "Pod", np_, "Scheduled", "Successfully assigned %s/%s to %s" % (NS, np_, nd), comp="default-scheduler")
            p = pod_obj(w, d2, np_, nd, 20.1)
            p["spec"]["containers"][0]["resources"] = {"limits": {"memory": "64Mi"}, "requests": {"memory": "48Mi"}}
            p["metadata"]["annotations"] = {"kubernetes.io/limit-ranger": "LimitRanger plugin set: memory request for container recommendation; memory limit for container recommendation"}
            w.put(p, 20.1, "ADDED")
            p2 = copy.deepcopy(p); cs = p2["status"]["containerStatuses"][0]
            cs.update({"restartCount": 4, "ready": False, "state": {"waiting": {"reason": "CrashLoopBackOff"}},
                       "lastState": {"terminated": {"exitCode": 137, "reason": "OOMKilled"}}})
            w.put(p2, 25)
            w.event(20.6, "Pod", np_, "BackOff", "Back-off restarting failed container recommendation in pod %s" % np_, typ="Warning", count=12, host=nd, first=20.6)
        for m in [20.5, 21.1, 22.3, 24.8, 29.0, 34.5]:
            w.event(m, "Node", NODES[0], "OOMKilling" if False else "SystemOOM", "System OOM encountered, victim process: python, pid: %d" % (41000 + int(m * 10)), typ="Warning", ns="", comp="kubelet", host=NODES[0])
        rollout_decoy(w, "product-catalog", 10, pods["product-catalog"][0], "v2", NODES[1], image="ghcr.io/open-telemetry/demo:2.1.4-product-catalog")
        baseline_logs(w, ["frontend", "cart", "ad", "recommendation"])
        return dict(pods=pods, newp=newp)
    cases.append(dict(
        n=13, t0=datetime(2026, 11, 25, 19, 30, tzinfo=timezone.utc), dur=40, build=c13, tsform=2, alertenv="alerts",
        evapi="events.k8s.io/v1", managed=True, watch=False, sortkeys=False, pyrepr=False, no_root=False, logjson=True,
        chains=["reco", "reco", "cart", "ads"],
        effects=[dict(chain="reco", svc="recommendation", start=20.5, prob=0.6, cut=True)],
        cutmsg="rpc error: code = Unavailable desc = upstream connect error or disconnect/reset before headers. reset reason: connection termination",
        upmsg={"frontend-proxy": "500"},
        obs=[30, 40],
        alerts=[A("KubePodCrashLooping", 22, {"pod": "@recommendation", "service_name": "recommendation"}, for_=1),
                A("RequestErrorRate", 22, {"service_name": "frontend"}, for_=2)],
        must=["64Mi", "OOMKilled", "limit-ranger", "SuccessfulRescale"],
        summary="LimitRange otel-demo-defaults default memory lowered 512Mi->64Mi at min 6 (recommendation sets no limits); only the pods the HPA adds at min 20 get 64Mi and OOM-crash; the old pod keeps 512Mi, so ~60% of ListRecommendations fail; product-catalog rollout decoy at min 10",
        gt=dict(groups=[G("limitrange-1", "LimitRange", "otel-demo-defaults", root=True)] + app_groups("recommendation")[0] + app_groups("frontend")[0],
                aliases=[app_groups("recommendation")[1], app_groups("frontend")[1]],
                propagations=[P("limitrange-1", "recommendation-service-1", "new pods admitted with 64Mi limit", "OOMKilled, CrashLoopBackOff"),
                              P("recommendation-service-1", "frontend-service-1", "ListRecommendations", "errors")],
                fault=[{"category": "Misconfiguration", "condition": "LimitRange default memory too low", "entity": {"kind": "LimitRange", "name": "otel-demo-defaults",
                                                                                                                   "group_id": "limitrange-1"}, "fault_mechanism": "config"}],
                alerts=[{"group_id": "recommendation-service-1", "id": "KubePodCrashLooping"}, {"group_id": "frontend-service-1", "id": "RequestErrorRate"}])))
    return cases


def resolve_alert_pods(w, c):
    for a in c["alerts"]:
        for k, v in list(a["labels"].items()):
            if isinstance(v, str) and v.startswith("@"):
                svc = v[1:]
                # the pod that is in trouble: the newest pod of that service
                cands = [o["metadata"]["name"] for m, o, wt in w.snaps if o["kind"] == "Pod"
                         and o["metadata"]["labels"].get("opentelemetry.io/name") == svc and o["metadata"].get("namespace") == NS]
                a["labels"][k] = cands[-1]


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: gen.py OUTDIR")
    out = os.path.abspath(sys.argv[1])
    os.makedirs(out, exist_ok=True)
    key = {}
    for c in make_cases():
        w = World(c)
        info = c["build"](w)
        resolve_alert_pods(w, c)
        w.snapshot_all(c["dur"] - 0.5)
        w.spans = gen_traffic(w)
        d = write_case(w, out)
        selfcheck(w, d)
        roots = [g for g in c["gt"]["groups"] if g.get("root_cause")]
        key["Scenario-%d" % c["n"]] = {"summary": c["summary"],
                                       "root_cause": ["%s/%s/%s" % (g["namespace"], g["kind"], g["name"]) for g in roots]}
    with open(out.rstrip("/") + "-answer_key.json", "w") as f:
        json.dump(key, f, indent=2, sort_keys=True)
    print("wrote %d scenarios to %s; self-check passed" % (len(key), out))


if __name__ == "__main__":
    main()
