#!/usr/bin/env python3
"""sre-set14: held-out SRE incident snapshots (ITBench-Lite layout) over the OpenTelemetry demo.

Usage: python gen.py OUT   -> writes OUT/Scenario-<N>/{alerts/,metrics/,k8s_events_raw.tsv,
k8s_objects_raw.tsv,otel_logs_raw.tsv,otel_traces_raw.tsv,ground_truth.yaml}
Stdlib only, deterministic (seeded RNG, fixed timestamps).
"""
import csv
import datetime as dt
import hashlib
import io
import json
import os
import random
import shutil
import sys

NS = "otel-demo"
UTC = dt.timezone.utc

# deployment -> (base req/s, base server latency ms)
SVC = {
    "frontend-proxy": (22.0, 45), "frontend": (20.0, 38), "ad": (6.0, 6), "cart": (7.5, 4),
    "checkout": (0.6, 180), "currency": (30.0, 1.2), "email": (0.6, 22), "payment": (0.6, 14),
    "product-catalog": (18.0, 3), "recommendation": (5.0, 12), "shipping": (1.4, 9), "quote": (1.4, 6),
    "accounting": (0.6, 25), "fraud-detection": (0.6, 30), "image-provider": (9.0, 2),
    "load-generator": (0.0, 0), "flagd": (12.0, 1), "kafka": (1.2, 3), "valkey-cart": (9.0, 0.4),
    "postgresql": (0.8, 2), "product-reviews": (2.0, 15),
}
LANG = {"frontend": "nodejs", "ad": "java", "cart": "dotnet", "checkout": "go", "currency": "cpp",
        "email": "ruby", "payment": "nodejs", "product-catalog": "go", "recommendation": "python",
        "shipping": "rust", "quote": "php", "accounting": "dotnet", "fraud-detection": "java",
        "product-reviews": "python", "frontend-proxy": "envoy", "load-generator": "python",
        "image-provider": "nginx", "flagd": "go"}
IMAGE = {d: "ghcr.io/open-telemetry/demo:2.0.2-%s" % d for d in SVC}
IMAGE.update({"kafka": "ghcr.io/open-telemetry/demo:2.0.2-kafka", "valkey-cart": "valkey/valkey:8.1.1-alpine",
              "postgresql": "postgres:17.5", "flagd": "ghcr.io/open-feature/flagd:v0.12.5"})
PORT = {"frontend-proxy": 8080, "frontend": 8080, "ad": 8080, "cart": 8080, "checkout": 8080,
        "currency": 8080, "email": 8080, "payment": 8080, "product-catalog": 8080, "recommendation": 8080,
        "shipping": 8080, "quote": 8080, "accounting": None, "fraud-detection": None, "image-provider": 8081,
        "load-generator": 8089, "flagd": 8013, "kafka": 9092, "valkey-cart": 6379, "postgresql": 5432,
        "product-reviews": 3551}
NODES = ["ip-10-0-1-23.ec2.internal", "ip-10-0-2-147.ec2.internal", "ip-10-0-3-88.ec2.internal"]


# ---------------------------------------------------------------- helpers
def h(s, n=10, alpha="bcdfghjklmnpqrstvwxz2456789"):
    d = hashlib.sha256(s.encode()).digest()
    return "".join(alpha[b % len(alpha)] for b in d[:n])


def hexid(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def ts_ch(t, prec=9):
    """ClickHouse DateTime64 text."""
    base = t.strftime("%Y-%m-%d %H:%M:%S")
    us = t.microsecond
    if prec == 9:
        return "%s.%06d000" % (base, us)
    if prec == 6:
        return "%s.%06d" % (base, us)
    return "%s.%03d" % (base, us // 1000)


def iso(t, frac=False):
    if frac:
        return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%06dZ" % t.microsecond
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def write_tsv(path, header, rows, quoting="csv"):
    """quoting: 'csv' -> csv module (fields with quotes get wrapped, quotes doubled);
    'plain' -> raw tab join (JSON kept verbatim)."""
    if quoting == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, delimiter="\t", lineterminator="\n")
        w.writerow(header)
        for r in rows:
            w.writerow(r)
        data = buf.getvalue()
    else:
        lines = ["\t".join(header)]
        for r in rows:
            lines.append("\t".join(str(x).replace("\t", " ").replace("\n", " ") for x in r))
        data = "\n".join(lines) + "\n"
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(data)


def pydict(d):
    """ClickHouse Map rendering as seen in exports: {'k': 'v'}"""
    return "{" + ", ".join("'%s': '%s'" % (k, v) for k, v in d.items()) + "}"


def yaml_dump(o, ind=0):
    sp = "  " * ind
    out = []
    if isinstance(o, dict):
        for k, v in o.items():
            if isinstance(v, (dict, list)) and v:
                out.append("%s%s:" % (sp, k))
                out.append(yaml_dump(v, ind + 1))
            else:
                out.append("%s%s: %s" % (sp, k, yscalar(v)))
    elif isinstance(o, list):
        for v in o:
            if isinstance(v, dict) and v:
                sub = yaml_dump(v, ind + 1).split("\n")
                sub[0] = sp + "- " + sub[0].lstrip()
                out.append("\n".join(sub))
            elif isinstance(v, list) and v:
                sub = yaml_dump(v, ind + 1).split("\n")
                sub[0] = sp + "- " + sub[0].lstrip()
                out.append("\n".join(sub))
            else:
                out.append("%s- %s" % (sp, yscalar(v)))
    return "\n".join(out)


def yscalar(v):
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
    return json.dumps(v)


# ---------------------------------------------------------------- incident model
class Incident:
    def __init__(self, num, slug, start, seed, minutes=40, fault_min=18, step=30):
        self.num, self.slug = num, slug
        self.t0 = start
        self.tf = start + dt.timedelta(minutes=fault_min)
        self.te = start + dt.timedelta(minutes=minutes)
        self.step = step
        self.rng = random.Random(seed)
        self.seed = seed
        self.pods = {}  # deployment -> current pod name (before fault)
        self.podnode = {}
        for i, d in enumerate(sorted(SVC)):
            self.pods[d] = self.podname(d, "a")
            self.podnode[d] = NODES[(i + seed) % 3]
        self.newpods = {}   # deployment -> (pod name after fault, offset seconds)
        # service effects: svc -> dict(start=sec after tf, err=, lat=, rate=, down=bool, msg=)
        self.eff = {}
        self.logs = []      # (t, svc, sev, body, pod or None, extra attrs)
        self.events = []    # dicts
        self.alerts = []    # (name, sev, labels, active_t, value, summary)
        self.extra_objects = []  # (first_t, last_t or None, obj-factory(t)->obj)
        self.obj_overrides = {}  # deployment -> fn(t, dep_obj) mutating
        self.pod_metrics = {}    # pod -> {metric: fn(t)->value}
        self.restarts = {}       # pod -> list of restart datetimes
        self.notready = {}       # pod -> (from, to)
        self.gt = None
        self.span_kind_style = "short"
        self.status_style = "short"
        self.ts_prec = 9
        self.obj_encoding = "csv"      # csv | plain | double
        self.ev_encoding = "csv"
        self.log_attr_style = "json"
        self.alert_envelope = "data"
        self.alert_snapshots = 3
        self.metric_cols = "basic"
        self.traces_per_min = 10 + seed % 7
        self.removed_pods = set()
        self.pending = set()
        self.pod_end = {}

    def is_notready(self, pod, t):
        for (a, b) in self.notready.get(pod, []):
            if a <= t and (b is None or t < b):
                return True
        return False

    def podname(self, d, gen):
        rs = h(self.slug + d + gen, 10 if d not in ("kafka", "postgresql") else 9)
        return "%s-%s-%s" % (d, rs, h(self.slug + d + gen + "p", 5))

    def at(self, minutes):
        return self.tf + dt.timedelta(seconds=int(minutes * 60))

    # effects
    def effect(self, svc, start_min=0.0, err=0.0, lat=1.0, rate=1.0, down=False, msg=None, ramp=0.0, net=0.0,
               ops=None, end_min=None, own=False):
        self.eff[svc] = dict(start=start_min, err=err, lat=lat, rate=rate, down=down, msg=msg, ramp=ramp, net=net,
                             ops=ops, end=end_min, own=own)

    def ef(self, svc, t):
        e = self.eff.get(svc)
        none = dict(err=0.0, lat=1.0, rate=1.0, down=False, msg=None, net=0.0, ops=None, own=False)
        if not e:
            return none
        st = self.tf + dt.timedelta(seconds=e["start"] * 60)
        if t < st or (e["end"] is not None and t >= self.tf + dt.timedelta(seconds=e["end"] * 60)):
            return none
        k = 1.0
        if e["ramp"] > 0:
            k = min(1.0, (t - st).total_seconds() / (e["ramp"] * 60.0))
        return dict(err=e["err"] * k, lat=1.0 + (e["lat"] - 1.0) * k, rate=1.0 + (e["rate"] - 1.0) * k,
                    down=e["down"], msg=e["msg"], net=e["net"] * k, ops=e["ops"], own=e["own"])

    def log(self, t, svc, sev, body, pod=None, **attrs):
        self.logs.append((t, svc, sev, body, pod, attrs))

    def event(self, t, kind, name, reason, msg, etype="Warning", count=1, first=None, comp="kubelet",
              ns=NS, host=None):
        self.events.append(dict(t=t, kind=kind, name=name, reason=reason, msg=msg, type=etype, count=count,
                                first=first or t, comp=comp, ns=ns, host=host))

    def alert(self, name, sev, labels, active, value, summary, desc=None, until=None):
        self.alerts.append((name, sev, labels, active, value, summary, desc or summary, until))

    def cur_pod(self, d, t):
        if d in self.newpods and t >= self.newpods[d][1]:
            return self.newpods[d][0]
        return self.pods[d]


# ---------------------------------------------------------------- flows for traces
# (service, span name, children); client spans are generated automatically for each child
FLOWS = [
    (5, ("frontend-proxy", "ingress", [("frontend", "GET /", [
        ("product-catalog", "oteldemo.ProductCatalogService/ListProducts", []),
        ("currency", "CurrencyService/GetSupportedCurrencies", []),
        ("ad", "oteldemo.AdService/GetAds", []),
    ])])),
    (4, ("frontend-proxy", "ingress", [("frontend", "GET /api/products/{productId}", [
        ("product-catalog", "oteldemo.ProductCatalogService/GetProduct", []),
        ("currency", "CurrencyService/Convert", []),
    ])])),
    (3, ("frontend-proxy", "ingress", [("frontend", "GET /api/recommendations", [
        ("recommendation", "/oteldemo.RecommendationService/ListRecommendations", [
            ("product-catalog", "oteldemo.ProductCatalogService/ListProducts", [])]),
    ])])),
    (3, ("frontend-proxy", "ingress", [("frontend", "POST /api/cart", [
        ("cart", "POST /oteldemo.CartService/AddItem", [("valkey-cart", "HSET", [])]),
    ])])),
    (2, ("frontend-proxy", "ingress", [("frontend", "GET /api/cart", [
        ("cart", "POST /oteldemo.CartService/GetCart", [("valkey-cart", "HGET", [])]),
    ])])),
    (2, ("frontend-proxy", "ingress", [("frontend", "GET /api/data", [
        ("ad", "oteldemo.AdService/GetAds", []),
    ])])),
    (1, ("frontend-proxy", "ingress", [("frontend", "GET /api/product-reviews", [
        ("product-reviews", "/oteldemo.ProductReviewService/GetProductReviews", [("postgresql", "SELECT otel", [])]),
    ])])),
    (2, ("frontend-proxy", "ingress", [("frontend", "POST /api/checkout", [
        ("checkout", "oteldemo.CheckoutService/PlaceOrder", [
            ("cart", "POST /oteldemo.CartService/GetCart", [("valkey-cart", "HGET", [])]),
            ("product-catalog", "oteldemo.ProductCatalogService/GetProduct", []),
            ("currency", "CurrencyService/Convert", []),
            ("shipping", "oteldemo.ShippingService/GetQuote", [("quote", "POST /getquote", [])]),
            ("payment", "grpc.oteldemo.PaymentService/Charge", []),
            ("shipping", "oteldemo.ShippingService/ShipOrder", []),
            ("email", "POST /send_order_confirmation", []),
            ("cart", "POST /oteldemo.CartService/EmptyCart", [("valkey-cart", "DEL", [])]),
            ("kafka", "orders publish", [
                ("accounting", "orders receive", [("postgresql", "INSERT otel", [])]),
                ("fraud-detection", "orders receive", []),
            ]),
        ]),
    ])])),
]
INFRA_NO_SERVER = {"valkey-cart", "postgresql", "kafka"}  # only client spans from callers


def gen_traces(inc):
    rng = random.Random(inc.seed * 7 + 1)
    rows = []
    weights = [w for w, _ in FLOWS]
    t = inc.t0
    kind = {"short": {"SERVER": "Server", "CLIENT": "Client", "INTERNAL": "Internal", "PRODUCER": "Producer",
                      "CONSUMER": "Consumer"},
            "long": {"SERVER": "SPAN_KIND_SERVER", "CLIENT": "SPAN_KIND_CLIENT", "INTERNAL": "SPAN_KIND_INTERNAL",
                     "PRODUCER": "SPAN_KIND_PRODUCER", "CONSUMER": "SPAN_KIND_CONSUMER"}}[inc.span_kind_style]
    stat = {"short": {"ERR": "Error", "OK": "Unset"}, "long": {"ERR": "STATUS_CODE_ERROR", "OK": "STATUS_CODE_UNSET"}}[inc.status_style]
    total_sec = int((inc.te - inc.t0).total_seconds())
    n = int(total_sec / 60.0 * inc.traces_per_min)
    for i in range(n):
        t = inc.t0 + dt.timedelta(seconds=rng.uniform(0, total_sec))
        flow = rng.choices([f for _, f in FLOWS], weights=weights)[0]
        trace_id = hexid(rng, 32)
        out = []

        def emit(svc, name, children, parent_id, start, via_client):
            """returns (duration_ms, error, msg)"""
            e = inc.ef(svc, start)
            base = SVC[svc][1]
            # caller-side client span to this service
            if via_client is not None and via_client[0] == "kafka":
                if rng.random() > e["rate"]:
                    return 0.0, False, ""
                return serve(svc, name, children, via_client[1], start + dt.timedelta(milliseconds=rng.uniform(2, 40)),
                             e, base, "CONSUMER")
            if via_client is not None:
                psvc, pspan_parent = via_client
                cid = hexid(rng, 16)
                pe = inc.ef(psvc, start)
                opsok = e["ops"] is None or name in e["ops"]
                if e["down"] or (svc in INFRA_NO_SERVER and opsok and rng.random() < e["err"]):
                    dur = base * e["lat"] + e["net"] if not e["down"] else rng.uniform(0.5, 3.0)
                    if e["msg"] and e["msg"].startswith("timeout"):
                        dur = rng.uniform(4900, 5100)
                    msg = (e["msg"] or "connection refused")
                    out.append([start, trace_id, cid, pspan_parent, client_name(svc, name),
                                kind["PRODUCER" if svc == "kafka" else "CLIENT"], psvc, rattrs(inc, psvc, start),
                                sattrs(svc, name, True), dur, stat["ERR"], msg])
                    return dur, True, msg
                sid = hexid(rng, 16)
                dur, err, msg = serve(svc, name, children, cid, start + dt.timedelta(milliseconds=0.3), e, base)
                cdur = dur + rng.uniform(0.2, 1.5) + e["net"] * rng.uniform(0.8, 1.25)
                if svc in INFRA_NO_SERVER and svc != "kafka":
                    cdur = base * e["lat"] * rng.uniform(0.6, 1.6) + e["net"]
                    msg = ""
                    err = False
                if e["net"] and cdur > 3000 and psvc == "frontend":
                    cdur, err, msg = 3000.0 + rng.uniform(0, 5), True, "Deadline exceeded after 3.000s"
                out.append([start, trace_id, cid, pspan_parent, client_name(svc, name),
                            kind["PRODUCER" if svc == "kafka" else "CLIENT"], psvc, rattrs(inc, psvc, start),
                            sattrs(svc, name, err), cdur, stat["ERR"] if err else stat["OK"], msg if err else ""])
                return cdur, err, msg
            e0 = inc.ef(svc, start)
            return serve(svc, name, children, parent_id, start, e0, base)

        def serve(svc, name, children, parent_id, start, e, base, kk="SERVER"):
            if svc in INFRA_NO_SERVER and svc != "kafka":
                return base * e["lat"], False, ""
            sid = hexid(rng, 16)
            own = base * rng.uniform(0.5, 1.8) * (e["lat"] if e["own"] else 1.0)
            cur = start + dt.timedelta(milliseconds=own * 0.3)
            err = rng.random() < e["err"]
            msg = (e["msg"] or "") if err else ""
            child_ms = 0.0
            async_kids = svc == "kafka"
            for (cs, cn, cc) in children:
                d, ce, cm = emit(cs, cn, cc, sid, cur, (svc if svc != "kafka" else "kafka", sid))
                if not async_kids:
                    child_ms += d
                    cur = cur + dt.timedelta(milliseconds=d)
                if ce and not async_kids and (svc != "checkout" or cs not in ("email", "kafka")):
                    if not err:
                        err = True
                        msg = "%s: %s" % (cs, cm) if svc != "frontend-proxy" else "upstream error"
                    if svc == "checkout":
                        break
            dur = own + child_ms
            if svc == "kafka":
                return dur, err, msg
            out.append([start, trace_id, sid, parent_id, name, kind[kk],
                        svc, rattrs(inc, svc, start), sattrs(svc, name, err), dur, stat["ERR"] if err else stat["OK"],
                        msg])
            return dur, err, msg

        root_svc, root_name, kids = flow
        if inc.ef(root_svc, t)["rate"] < rng.random():
            continue
        # traffic drop for callee handled by 'rate' at root only
        emit(root_svc, root_name, kids, "", t, None)
        for r in out:
            r[9] = int(r[9] * 1e6)  # ns
            r[0] = ts_ch(r[0], inc.ts_prec)
        rows.extend(out)
    rows.sort(key=lambda r: r[0])
    return rows


def client_name(svc, name):
    if svc == "kafka":
        return "orders publish"
    if svc == "valkey-cart":
        return name
    if svc == "postgresql":
        return name
    return name


def rattrs(inc, svc, t):
    d = {"service.name": svc, "service.namespace": "opentelemetry-demo", "k8s.namespace.name": NS,
         "k8s.pod.name": inc.cur_pod(svc, t), "k8s.deployment.name": svc,
         "k8s.node.name": inc.podnode.get(svc, NODES[0])}
    if svc in LANG:
        d["telemetry.sdk.language"] = LANG[svc]
    return json.dumps(d) if inc.log_attr_style == "json" else pydict(d)


def sattrs(svc, name, err):
    if svc == "valkey-cart":
        d = {"db.system": "redis", "server.address": "valkey-cart", "server.port": "6379"}
    elif svc == "postgresql":
        d = {"db.system": "postgresql", "server.address": "postgresql", "db.name": "otel"}
    elif svc == "kafka":
        d = {"messaging.system": "kafka", "messaging.destination.name": "orders", "server.address": "kafka"}
    elif name == "ingress":
        d = {"http.request.method": "GET", "url.full": "http://frontend-proxy:8080/", "upstream_cluster": "frontend",
             "http.response.status_code": "503" if err else "200", "component": "proxy"}
    elif name.startswith(("GET", "POST")):
        d = {"http.request.method": name.split()[0], "url.path": name.split()[1],
             "http.response.status_code": "500" if err else "200"}
    else:
        d = {"rpc.system": "grpc", "rpc.service": name.split("/")[0].lstrip("/"), "rpc.method": name.split("/")[-1],
             "rpc.grpc.status_code": "14" if err else "0", "server.address": svc, "server.port": "8080"}
    return json.dumps(d)


# ---------------------------------------------------------------- logs
ROUTINE = {
    "frontend": ["GET /api/products 200", "GET /api/cart 200", "Rendered product page"],
    "ad": ["Targeted ad request received for [%s]", "Non-targeted ad request received, preparing random response."],
    "cart": ["GetCartAsync called with userId=%s", "AddItemAsync called with userId=%s, productId=OLJCESPC7Z, quantity=1"],
    "checkout": ["[PlaceOrder] user_id=%s user_currency=USD", "payment went through (transaction_id: %s)",
                 "order confirmation email sent to \"someone@example.com\"", "sending to postProcessor"],
    "currency": ["Conversion request successful", "Currency conversion request received"],
    "email": ["Order confirmation email sent to: someone@example.com"],
    "payment": ["Charge request received.", "Transaction complete."],
    "product-catalog": ["Loaded 10 products", "Product Found: %s"],
    "recommendation": ["Receive ListRecommendations for product ids:['%s']"],
    "shipping": ["Received quote request", "Sending Quote"],
    "quote": ["Calculated quote", "Received request for quote"],
    "accounting": ["Order details: orderId=%s", "Order saved to database"],
    "fraud-detection": ["Consumed record with orderId: %s, and updated total count to: 42"],
    "frontend-proxy": ["[%s] \"GET /api/products HTTP/1.1\" 200 - 0 1213 12 11"],
    "product-reviews": ["Receive GetProductReviews for product id:%s"],
    "image-provider": ["GET /static/images/NationalParkFoundationExplorascope.jpg 200"],
    "load-generator": ["GET /api/products/66VCHSJNUP 200"],
    "flagd": ["flag evaluation", "data sync from file"],
}
SEVN = {"TRACE": 1, "DEBUG": 5, "INFO": 9, "Information": 9, "WARN": 13, "Warning": 13, "ERROR": 17,
        "Error": 17, "FATAL": 21, "CRITICAL": 21}


def gen_logs(inc):
    rng = random.Random(inc.seed * 13 + 5)
    rows = []
    t = inc.t0
    while t < inc.te:
        for svc, msgs in ROUTINE.items():
            e = inc.ef(svc, t)
            if e["down"] or rng.random() > 0.35 * e["rate"]:
                continue
            m = rng.choice(msgs)
            if "%s" in m:
                m = m % h(str(rng.random()), 10, "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789")
            sev = "Information" if svc in ("cart", "accounting") else "INFO"
            rows.append((t + dt.timedelta(milliseconds=rng.randint(0, 9000)), svc, sev, m, None, {}))
        t += dt.timedelta(seconds=10)
    rows.extend(inc.logs)
    out = []
    for (t, svc, sev, body, pod, attrs) in sorted(rows, key=lambda r: (r[0], r[1], r[3])):
        pod = pod or inc.cur_pod(svc, t)
        ra = {"service.name": svc, "k8s.namespace.name": NS, "k8s.pod.name": pod, "k8s.deployment.name": svc,
              "k8s.container.name": svc, "k8s.node.name": inc.podnode.get(svc, NODES[0])}
        ra = json.dumps(ra) if inc.log_attr_style == "json" else pydict(ra)
        la = json.dumps(attrs) if inc.log_attr_style == "json" else pydict(attrs)
        tid = hexid(rng, 32) if sev.upper().startswith(("ERR", "WARN")) and rng.random() < 0.5 else ""
        sid = hexid(rng, 16) if tid else ""
        out.append([ts_ch(t, inc.ts_prec), tid, sid, sev, SEVN.get(sev, 9), svc, body, ra, la])
    return out


# ---------------------------------------------------------------- events
def api_of(kind):
    return {"Deployment": "apps/v1", "ReplicaSet": "apps/v1", "StatefulSet": "apps/v1",
            "HorizontalPodAutoscaler": "autoscaling/v2", "NetworkChaos": "chaos-mesh.org/v1alpha1"}.get(kind, "v1")


def gen_events(inc):
    rng = random.Random(inc.seed * 17 + 3)
    rows = []
    style = inc.seed % 2  # 0: core/v1, 1: events.k8s.io/v1
    for ev in sorted(inc.events, key=lambda e: (e["t"], e["name"], e["reason"])):
        uid = h(ev["name"] + ev["reason"] + str(ev["t"]), 8, "0123456789abcdef")
        evname = "%s.%s" % (ev["name"], h(ev["name"] + ev["reason"], 16, "0123456789abcdef"))
        if style == 0 or ev["kind"] in ("Node",):
            obj = {"apiVersion": "v1", "kind": "Event", "count": ev["count"],
                   "firstTimestamp": iso(ev["first"]), "lastTimestamp": iso(ev["t"]),
                   "involvedObject": {"apiVersion": api_of(ev["kind"]),
                                      "kind": ev["kind"], "name": ev["name"], "namespace": ev["ns"]},
                   "message": ev["msg"], "reason": ev["reason"], "type": ev["type"],
                   "metadata": {"name": evname, "namespace": ev["ns"], "uid": uid + "-0000-4000-8000-" + h(uid, 12, "0123456789abcdef")},
                   "source": {"component": ev["comp"], **({"host": ev["host"]} if ev["host"] else {})},
                   "reportingComponent": ev["comp"] if ev["comp"] != "kubelet" else "", "reportingInstance": ""}
        else:
            obj = {"apiVersion": "events.k8s.io/v1", "kind": "Event", "eventTime": iso(ev["t"], True),
                   "regarding": {"apiVersion": api_of(ev["kind"]),
                                 "kind": ev["kind"], "name": ev["name"], "namespace": ev["ns"]},
                   "note": ev["msg"], "reason": ev["reason"], "type": ev["type"],
                   "reportingController": ev["comp"], "reportingInstance": ev["host"] or ev["comp"],
                   "metadata": {"name": evname, "namespace": ev["ns"]},
                   "deprecatedCount": ev["count"], "deprecatedFirstTimestamp": iso(ev["first"]),
                   "deprecatedLastTimestamp": iso(ev["t"])}
            if ev["count"] > 1:
                obj["series"] = {"count": ev["count"], "lastObservedTime": iso(ev["t"], True)}
        wt = "ADDED" if ev["count"] == 1 else "MODIFIED"
        body = json.dumps({"object": obj, "type": wt}, separators=(",", ":"))
        ra = {"k8s.namespace.name": ev["ns"]}
        rows.append([ts_ch(ev["t"] + dt.timedelta(milliseconds=rng.randint(5, 900)), inc.ts_prec), "", "", "",
                     0, "", body, json.dumps(ra), json.dumps({"k8s.resource.name": "events", "event.domain": "k8s",
                                                              "event.name": evname})])
    return rows


# ---------------------------------------------------------------- objects
def deployment_obj(inc, d, t):
    port = PORT.get(d)
    c = {"name": d, "image": IMAGE[d], "imagePullPolicy": "IfNotPresent",
         "env": [{"name": "OTEL_SERVICE_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1",
                  "fieldPath": "metadata.labels['app.kubernetes.io/component']"}}},
                 {"name": "OTEL_COLLECTOR_NAME", "value": "otel-collector"},
                 {"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://$(OTEL_COLLECTOR_NAME):4317"}],
         "resources": {"limits": {"memory": "300Mi" if d != "ad" else "400Mi"}},
         "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}
    if port:
        c["ports"] = [{"containerPort": port, "name": "service" if d not in ("valkey-cart", "postgresql", "kafka") else d.split("-")[0], "protocol": "TCP"}]
    envx = {"checkout": [("CHECKOUT_PORT", "8080"), ("CART_ADDR", "cart:8080"), ("CURRENCY_ADDR", "currency:8080"),
                         ("EMAIL_ADDR", "http://email:8080"), ("PAYMENT_ADDR", "payment:8080"),
                         ("PRODUCT_CATALOG_ADDR", "product-catalog:8080"), ("SHIPPING_ADDR", "shipping:8080"),
                         ("KAFKA_ADDR", "kafka:9092")],
            "frontend": [("FRONTEND_PORT", "8080"), ("AD_ADDR", "ad:8080"), ("CART_ADDR", "cart:8080"),
                         ("CHECKOUT_ADDR", "checkout:8080"), ("CURRENCY_ADDR", "currency:8080"),
                         ("PRODUCT_CATALOG_ADDR", "product-catalog:8080"), ("RECOMMENDATION_ADDR", "recommendation:8080"),
                         ("SHIPPING_ADDR", "shipping:8080")],
            "cart": [("CART_PORT", "8080"), ("VALKEY_ADDR", "valkey-cart:6379")],
            "shipping": [("SHIPPING_PORT", "8080"), ("QUOTE_ADDR", "http://quote:8080")],
            "accounting": [("KAFKA_ADDR", "kafka:9092"), ("DB_CONNECTION_STRING", "Host=postgresql;Username=otelu;Password=otelp;Database=otel")],
            "fraud-detection": [("KAFKA_ADDR", "kafka:9092")],
            "recommendation": [("RECOMMENDATION_PORT", "8080"), ("PRODUCT_CATALOG_ADDR", "product-catalog:8080")],
            "ad": [("AD_PORT", "8080"), ("JAVA_TOOL_OPTIONS", "-javaagent:/usr/src/app/opentelemetry-javaagent.jar")],
            "payment": [("PAYMENT_PORT", "8080")], "email": [("EMAIL_PORT", "8080")],
            "product-reviews": [("PRODUCT_REVIEWS_PORT", "3551"), ("DB_CONNECTION_STRING", "host=postgresql user=otelu password=otelp dbname=otel")],
            }.get(d, [])
    c["env"] += [{"name": k, "value": v} for k, v in envx]
    spec = {"replicas": 1, "revisionHistoryLimit": 10,
            "selector": {"matchLabels": {"opentelemetry.io/name": d}},
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
            "template": {"metadata": {"labels": {"opentelemetry.io/name": d, "app.kubernetes.io/component": d,
                                                 "app.kubernetes.io/name": d}},
                         "spec": {"containers": [c], "serviceAccountName": "otel-demo", "restartPolicy": "Always",
                                  "dnsPolicy": "ClusterFirst", "schedulerName": "default-scheduler",
                                  "terminationGracePeriodSeconds": 30}}}
    obj = {"apiVersion": "apps/v1", "kind": "Deployment",
           "metadata": {"name": d, "namespace": NS, "generation": 1,
                        "labels": {"app.kubernetes.io/part-of": "opentelemetry-demo", "opentelemetry.io/name": d,
                                   "app.kubernetes.io/managed-by": "Helm"},
                        "annotations": {"deployment.kubernetes.io/revision": "1", "meta.helm.sh/release-name": "otel-demo"},
                        "uid": uid_of(inc, d), "resourceVersion": str(100000 + inc.seed)},
           "spec": spec,
           "status": {"replicas": 1, "readyReplicas": 1, "availableReplicas": 1, "updatedReplicas": 1,
                      "observedGeneration": 1,
                      "conditions": [{"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable"}]}}
    fn = inc.obj_overrides.get(d)
    if fn:
        fn(t, obj)
    return obj


def uid_of(inc, name):
    x = h(inc.slug + name, 32, "0123456789abcdef")
    return "%s-%s-%s-%s-%s" % (x[:8], x[8:12], x[12:16], x[16:20], x[20:32])


def pod_obj(inc, d, pod, t, created):
    ready = not inc.is_notready(pod, t)
    restarts = len([r for r in inc.restarts.get(pod, []) if r <= t])
    cs = {"name": d, "image": IMAGE[d], "ready": ready, "restartCount": restarts, "started": ready,
          "state": {"running": {"startedAt": iso(created)}} if ready else
          {"waiting": {"reason": "CrashLoopBackOff" if restarts else "ContainerCreating"}}}
    o = {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": pod, "namespace": NS, "labels": {"opentelemetry.io/name": d, "app.kubernetes.io/component": d,
                                                              "app.kubernetes.io/name": d,
                                                              "pod-template-hash": pod.split("-")[-2]},
                      "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet",
                                           "name": pod.rsplit("-", 1)[0], "controller": True}],
                      "creationTimestamp": iso(created), "uid": uid_of(inc, pod)},
         "spec": {"nodeName": inc.podnode.get(d), "containers": [{"name": d, "image": IMAGE[d]}],
                  "serviceAccountName": "otel-demo"},
         "status": {"phase": "Pending" if pod in inc.pending else "Running", "podIP": "10.42.%d.%d" % (len(d) % 3, 10 + len(pod) * 3 % 200),
                    "conditions": [{"type": "Ready", "status": "True" if ready else "False"}],
                    "containerStatuses": [cs], "qosClass": "Burstable"}}
    if pod in inc.pending:
        o["status"] = {"phase": "Pending", "qosClass": "Burstable",
                       "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]}
    fn = inc.obj_overrides.get("pod:" + d)
    if fn:
        fn(t, o)
    return o


def service_obj(d):
    port = PORT.get(d)
    return {"apiVersion": "v1", "kind": "Service",
            "metadata": {"name": d, "namespace": NS, "labels": {"opentelemetry.io/name": d}},
            "spec": {"type": "ClusterIP", "selector": {"opentelemetry.io/name": d},
                     "ports": [{"name": "tcp-service", "port": port, "protocol": "TCP", "targetPort": port}]}}


def gen_objects(inc):
    rows = []
    t = inc.t0 + dt.timedelta(seconds=45)
    created = inc.t0 - dt.timedelta(days=2, hours=3)
    while t < inc.te:
        objs = []
        for d in sorted(SVC):
            objs.append(deployment_obj(inc, d, t))
            pod = inc.cur_pod(d, t)
            if pod not in inc.pod_end or t < inc.pod_end[pod]:
                pc = created if pod == inc.pods[d] else inc.newpods[d][1]
                objs.append(pod_obj(inc, d, pod, t, pc))
            if PORT.get(d):
                objs.append(service_obj(d))
        for (first, last, fn) in inc.extra_objects:
            if first <= t and (last is None or t < last):
                o = fn(t)
                if o:
                    objs.append(o)
        for o in objs:
            body = json.dumps(o, separators=(",", ":"), sort_keys=False)
            if inc.obj_encoding == "double":
                body = json.dumps(body)
            ra = json.dumps({"k8s.namespace.name": o["metadata"].get("namespace", "")})
            rows.append([ts_ch(t, inc.ts_prec), "", "", "", 0, "", body, ra,
                         json.dumps({"k8s.resource.name": o["kind"].lower() + "s", "event.domain": "k8s"})])
        t += dt.timedelta(minutes=5)
    return rows


# ---------------------------------------------------------------- metrics
def gen_metrics(inc, mdir):
    rng = random.Random(inc.seed * 19 + 11)
    times = []
    t = inc.t0
    while t < inc.te:
        times.append(t)
        t += dt.timedelta(seconds=inc.step)
    cols = ["metric_name", "timestamp", "value", "tags"]
    if inc.metric_cols == "wide":
        cols = ["metric_name", "timestamp", "value", "tags", "pod_name", "namespace", "service_name", "bucket_le",
                "status_code"]
    for svc in sorted(SVC):
        if svc in INFRA_NO_SERVER or svc == "load-generator":
            continue
        rows = []
        calls_ok = calls_err = 0.0
        base_rate, base_lat = SVC[svc]
        for t in times:
            e = inc.ef(svc, t)
            r = 0 if e["down"] else base_rate * e["rate"] * rng.uniform(0.85, 1.15)
            calls_ok += r * inc.step * (1 - e["err"])
            calls_err += r * inc.step * e["err"]
            lat = base_lat * e["lat"] * rng.uniform(0.9, 1.1)
            tsx = iso(t)
            for code, val in (("STATUS_CODE_UNSET", calls_ok), ("STATUS_CODE_ERROR", calls_err)):
                if code == "STATUS_CODE_ERROR" and val == 0:
                    continue
                tags = {"service_name": svc, "namespace": NS, "span_kind": "SPAN_KIND_SERVER",
                        "status_code": code, "job": "opentelemetry-collector"}
                rows.append(mrow(inc, "traces_span_metrics_calls_total", tsx, round(val, 3), tags, svc, code))
            for q, mult in (("0.5", 1.0), ("0.95", 2.6), ("0.99", 4.1)):
                tags = {"service_name": svc, "namespace": NS, "quantile": q}
                rows.append(mrow(inc, "traces_span_metrics_duration_milliseconds:p%s" % q.split(".")[1].ljust(2, "0")[:2],
                                 tsx, round(lat * mult, 3), tags, svc, ""))
            if inc.metric_cols == "wide":
                cum = 0
                for le in ("5", "10", "50", "100", "250", "1000", "5000", "+Inf"):
                    frac = 1.0 if le == "+Inf" else min(1.0, float(le) / (lat * 3.0))
                    cum = max(cum, round(r * inc.step * frac, 2))
                    tags = {"service_name": svc, "namespace": NS, "le": le}
                    rows.append(mrow(inc, "traces_span_metrics_duration_milliseconds_bucket", tsx, cum, tags, svc, "", le))
        write_tsv(os.path.join(mdir, "service_%s.tsv" % svc), cols, rows, "plain" if inc.seed % 3 else "csv")
    # pods
    pods = []
    for d in sorted(SVC):
        pods.append((d, inc.pods[d], inc.t0, inc.newpods[d][1] if d in inc.newpods else None))
        if d in inc.newpods:
            pods.append((d, inc.newpods[d][0], inc.newpods[d][1], None))
    for (d, pod, since, until) in pods:
        rows = []
        cpu = 0.0
        mem0 = rng.uniform(60, 260) * 2 ** 20
        custom = inc.pod_metrics.get(pod, {})
        for t in times:
            if t < since or (until and t >= until) or (pod in inc.pod_end and t >= inc.pod_end[pod]):
                continue
            e = inc.ef(d, t)
            tsx = iso(t)
            tags = {"pod": pod, "namespace": NS, "container": d, "node": inc.podnode.get(d)}
            running = not inc.is_notready(pod, t)
            cpu += (0.02 + 0.0015 * SVC[d][0] * e["rate"]) * inc.step * (1 if running else 0.05)
            rows.append(mrow(inc, "container_cpu_usage_seconds_total", tsx, round(cpu, 4), tags, d, ""))
            if "container_memory_working_set_bytes" not in custom:
                rows.append(mrow(inc, "container_memory_working_set_bytes", tsx,
                                 int(mem0 * rng.uniform(0.97, 1.03)) if running else 0, tags, d, ""))
            rs = len([r for r in inc.restarts.get(pod, []) if r <= t])
            rows.append(mrow(inc, "kube_pod_container_status_restarts_total", tsx, rs, tags, d, ""))
            rows.append(mrow(inc, "kube_pod_status_ready", tsx, 1 if running else 0,
                             {"pod": pod, "namespace": NS, "condition": "true"}, d, ""))
            for m, fn in sorted(custom.items()):
                v = fn(t)
                if v is not None:
                    rows.append(mrow(inc, m, tsx, v, tags, d, ""))
        if rows:
            write_tsv(os.path.join(mdir, "pod_%s.tsv" % pod), cols, rows, "plain" if inc.seed % 2 else "csv")


def mrow(inc, name, tsx, val, tags, svc, code, le=""):
    tg = json.dumps(tags) if inc.seed % 2 == 0 else repr(tags)
    if inc.metric_cols == "wide":
        return [name, tsx, val, tg, tags.get("pod", ""), NS, svc, le, code]
    return [name, tsx, val, tg]


# ---------------------------------------------------------------- alerts
def gen_alerts(inc, adir):
    n = inc.alert_snapshots
    span = (inc.te - inc.tf).total_seconds()
    snaps = [inc.tf + dt.timedelta(seconds=int(span * (i + 1) / (n + 0.3))) for i in range(n)]
    for i, st in enumerate(snaps):
        items = []
        for (name, sev, labels, active, value, summary, desc, until) in inc.alerts:
            if active > st or (until is not None and st >= until):
                continue
            firing = (st - active).total_seconds() >= 120
            lab = {"alertname": name, "severity": sev, "namespace": NS}
            lab.update(labels)
            a = {"labels": lab, "annotations": {"summary": summary, "description": desc},
                 "state": "firing" if firing else "pending", "activeAt": iso(active, True),
                 "value": "%g" % value if isinstance(value, (int, float)) else str(value)}
            if inc.alert_envelope == "am":  # Alertmanager v2 shape
                a = {"labels": lab, "annotations": a["annotations"], "startsAt": iso(active, True),
                     "endsAt": iso(st + dt.timedelta(minutes=4), True),
                     "status": {"state": "active", "silencedBy": [], "inhibitedBy": []},
                     "fingerprint": h(json.dumps(lab, sort_keys=True), 16, "0123456789abcdef"),
                     "generatorURL": "http://prometheus-server.prometheus:9090/graph?g0.expr=..."}
            items.append(a)
        items.sort(key=lambda a: (a["labels"]["alertname"], json.dumps(a["labels"], sort_keys=True)))
        if inc.alert_envelope == "data":
            doc = {"status": "success", "data": {"alerts": items}}
        elif inc.alert_envelope == "alerts":
            doc = {"alerts": items}
        else:
            doc = items
        fn = "alerts_at_%s.json" % st.strftime("%Y-%m-%dT%H-%M-%S.%f")
        with open(os.path.join(adir, fn), "w") as f:
            json.dump(doc, f, indent=2 if i % 2 == 0 else None)


# ---------------------------------------------------------------- ground truth helpers
def grp_app(d, gid_prefix=None, kinds=("Deployment", "Pod", "Service"), rc=False):
    p = gid_prefix or d
    out = []
    for k in kinds:
        g = {"id": "%s-%s-1" % (p, k.lower()), "kind": k, "namespace": NS}
        if k == "Pod":
            g["filter"] = ["^%s-[a-z0-9]+-[a-z0-9]{5}$" % d]
        else:
            g["name"] = d
            g["filter"] = ["^%s$" % d]
        if rc and k == kinds[0]:
            g["root_cause"] = True
        out.append(g)
    return out


def write_gt(inc, path):
    g = inc.gt
    spec = {"groups": g["groups"], "aliases": g["aliases"], "propagations": g["propagations"],
            "fault": g["fault"], "alerts": g["alerts"], "recommended_actions": g.get("actions", [])}
    if inc.num % 2:
        doc = {"apiVersion": "itbench.io/v1", "kind": "GroundTruth",
               "metadata": {"name": "scenario-%d" % inc.num}, "spec": spec}
    else:
        doc = spec
    with open(path, "w") as f:
        f.write("---\n" + yaml_dump(doc) + "\n")


def prop(s, t, c, e):
    return {"source": s, "target": t, "condition": c, "effect": e}


# ---------------------------------------------------------------- noise common to all incidents
def add_noise(inc, kinds):
    r = inc.rng
    if "lg-restart" in kinds:
        # load-generator locust worker restarts (unrelated) well before the fault
        pod = inc.pods["load-generator"]
        t = inc.t0 + dt.timedelta(minutes=r.randint(3, 9))
        inc.restarts[pod] = [t]
        inc.event(t, "Pod", pod, "BackOff", "Back-off restarting failed container load-generator in pod %s_%s(%s)"
                  % (pod, NS, uid_of(inc, pod)), count=1)
        inc.event(t + dt.timedelta(seconds=20), "Pod", pod, "Pulled",
                  'Container image "%s" already present on machine' % IMAGE["load-generator"], etype="Normal")
        inc.event(t + dt.timedelta(seconds=21), "Pod", pod, "Started", "Started container load-generator", etype="Normal")
        inc.log(t - dt.timedelta(seconds=2), "load-generator", "ERROR",
                "greenlet.GreenletExit: Locust worker lost heartbeat to master, exiting")
    if "flagd-ui-restart" in kinds:
        pod = inc.pods["flagd"]
        t = inc.at(r.uniform(-6, 12))
        inc.restarts[pod] = [t]
        inc.event(t, "Pod", pod, "Killing", "Container flagd-ui failed liveness probe, will be restarted")
        inc.event(t - dt.timedelta(seconds=31), "Pod", pod, "Unhealthy",
                  "Liveness probe failed: Get \"http://10.42.1.31:4000/\": context deadline exceeded", count=3)
        inc.log(t + dt.timedelta(seconds=40), "flagd", "INFO", "Flag sync complete: 14 flags loaded from /etc/flagd/demo.flagd.json")
    if "collector-warn" in kinds:
        for k in range(r.randint(4, 9)):
            t = inc.t0 + dt.timedelta(minutes=r.uniform(0, 39))
            inc.log(t, "frontend", "WARN", "OTLP exporter: export timed out after 10000ms, dropping 512 spans")
    if "image-provider-probe" in kinds:
        pod = inc.pods["image-provider"]
        t = inc.t0 + dt.timedelta(minutes=r.uniform(2, 30))
        inc.event(t, "Pod", pod, "Unhealthy", "Readiness probe failed: Get \"http://10.42.2.17:8081/status\": context deadline exceeded")
    if "hpa-warn" in kinds:
        t = inc.t0 + dt.timedelta(minutes=1)
        inc.event(t, "HorizontalPodAutoscaler", "recommendation", "FailedGetResourceMetric",
                  "failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API",
                  count=12, comp="horizontal-pod-autoscaler")
    if "ad-gc-info" in kinds:
        for k in range(6):
            inc.log(inc.t0 + dt.timedelta(minutes=6 * k + 1), "ad", "INFO",
                    "[GC (Allocation Failure) [PSYoungGen: 65536K->6142K(76288K)] 65536K->6150K(251392K), 0.0051 secs]")
    if "cpu-throttle-alert" in kinds:
        inc.alert("CPUThrottlingHigh", "info", {"pod": inc.pods["recommendation"], "container": "recommendation"},
                  inc.t0 + dt.timedelta(minutes=4), 0.31,
                  "Processes experience elevated CPU throttling.",
                  "31% throttling of CPU in namespace otel-demo for container recommendation.")
    if "kafka-rebalance" in kinds:
        t = inc.t0 + dt.timedelta(minutes=r.uniform(1, 10))
        inc.log(t, "fraud-detection", "INFO",
                "[Consumer clientId=consumer-fraud-detection-1, groupId=fraud-detection] Successfully joined group with generation Generation{generationId=7}")


# ---------------------------------------------------------------- incidents
def base_alert_err(inc, svc, at_min, value, sev="warning", name="HighRequestErrorRate"):
    inc.alert(name, sev, {"service_name": svc}, inc.at(at_min), value,
              "Error rate is above threshold for %s service" % svc,
              "%s error ratio over the last 5m is %.1f%%" % (svc, value * 100))


def base_alert_lat(inc, svc, at_min, value, sev="warning"):
    inc.alert("HighRequestLatency", sev, {"service_name": svc}, inc.at(at_min), value,
              "Latency is above threshold for %s service" % svc,
              "p95 latency of %s is %.0f ms (threshold 500 ms)" % (svc, value))


def no_req(inc, svc, at_min):
    inc.alert("NoRequestsReceived", "warning", {"service_name": svc}, inc.at(at_min), 0,
              "%s service has stopped receiving requests" % svc)


INCIDENTS = []


def incident(fn):
    INCIDENTS.append(fn)
    return fn




def T(s):
    return dt.datetime.strptime(s, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)


def rollout(inc, d, at, old_end=None, rev=2, rs_old=None):
    """new ReplicaSet/pod for deployment d at time `at`."""
    newp = inc.podname(d, "b")
    inc.newpods[d] = (newp, at)
    inc.pod_end[inc.pods[d]] = old_end or at + dt.timedelta(seconds=40)
    new_rs = newp.rsplit("-", 1)[0]
    old_rs = inc.pods[d].rsplit("-", 1)[0]
    inc.event(at, "Deployment", d, "ScalingReplicaSet", "Scaled up replica set %s to 1" % new_rs,
              etype="Normal", comp="deployment-controller")
    inc.event(at + dt.timedelta(seconds=1), "ReplicaSet", new_rs, "SuccessfulCreate", "Created pod: %s" % newp,
              etype="Normal", comp="replicaset-controller")
    inc.event(at + dt.timedelta(seconds=2), "Pod", newp, "Scheduled", "Successfully assigned %s/%s to %s"
              % (NS, newp, inc.podnode[d]), etype="Normal", comp="default-scheduler")
    inc.event(inc.pod_end[inc.pods[d]], "Deployment", d, "ScalingReplicaSet",
              "Scaled down replica set %s to 0 from 1" % old_rs, etype="Normal", comp="deployment-controller")
    inc.event(inc.pod_end[inc.pods[d]] + dt.timedelta(seconds=1), "Pod", inc.pods[d], "Killing",
              "Stopping container %s" % d, etype="Normal")
    return newp


def set_rev(obj, rev):
    obj["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = str(rev)
    obj["metadata"]["generation"] = rev
    obj["status"]["observedGeneration"] = rev


def container(obj):
    return obj["spec"]["template"]["spec"]["containers"][0]


def mk_gt(groups, aliases, props, fault, alerts, actions=None):
    return dict(groups=groups, aliases=aliases, propagations=props, fault=fault, alerts=alerts,
                actions=[{"solution": {"id": a.lower().replace(" ", "_")[:60], "actions": [a]}} for a in (actions or [])])


def svc_grp(d):
    return {"id": "%s-service-1" % d, "kind": "Service", "namespace": NS, "name": d, "filter": ["^%s$" % d]}


def pod_grp(d):
    return {"id": "%s-pod-1" % d, "kind": "Pod", "namespace": NS, "filter": ["^%s-[a-z0-9]+-[a-z0-9]{5}$" % d]}


def dep_grp(d, rc=False):
    g = {"id": "%s-deployment-1" % d, "kind": "Deployment", "namespace": NS, "name": d, "filter": ["^%s$" % d]}
    if rc:
        g["root_cause"] = True
    return g


# ---------------- 1: PVC Pending, StorageClass missing (postgresql)
@incident
def s1():
    inc = Incident(1, "pvc-pending", T("2026-10-03 09:12:00"), 101)
    inc.alert_envelope, inc.obj_encoding = "data", "csv"
    tf = inc.tf
    newp = rollout(inc, "postgresql", tf, old_end=tf + dt.timedelta(seconds=3))
    inc.pending.add(newp)
    inc.notready[newp] = [(tf, None)]
    inc.pod_metrics[newp] = {}

    def pg(t, o):
        if t >= tf:
            set_rev(o, 2)
            o["spec"]["strategy"] = {"type": "Recreate"}
            o["spec"]["template"]["spec"]["volumes"] = [{"name": "data", "persistentVolumeClaim": {"claimName": "postgresql-data"}}]
            container(o)["volumeMounts"] = [{"name": "data", "mountPath": "/var/lib/postgresql/data", "subPath": "pgdata"}]
            o["status"] = {"replicas": 1, "unavailableReplicas": 1, "updatedReplicas": 1, "observedGeneration": 2,
                           "conditions": [{"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable"},
                                          {"type": "Progressing", "status": "True", "reason": "ReplicaSetUpdated"}]}
        else:
            o["spec"]["strategy"] = {"type": "Recreate"}
            o["spec"]["template"]["spec"]["volumes"] = [{"name": "data", "emptyDir": {}}]
    inc.obj_overrides["postgresql"] = pg

    def pvc(t):
        return {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                "metadata": {"name": "postgresql-data", "namespace": NS, "labels": {"opentelemetry.io/name": "postgresql"},
                             "annotations": {"volume.beta.kubernetes.io/storage-provisioner": "ebs.csi.aws.com"},
                             "creationTimestamp": iso(tf - dt.timedelta(seconds=70))},
                "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "8Gi"}},
                         "storageClassName": "gp3-encrypted", "volumeMode": "Filesystem"},
                "status": {"phase": "Pending"}}
    inc.extra_objects.append((tf - dt.timedelta(seconds=70), None, pvc))
    for scn, dflt in (("gp2", "true"), ("gp3", "false")):
        inc.extra_objects.append((inc.t0, None, lambda t, scn=scn, dflt=dflt: {
            "apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
            "metadata": {"name": scn, "annotations": {"storageclass.kubernetes.io/is-default-class": dflt}},
            "provisioner": "ebs.csi.aws.com", "reclaimPolicy": "Delete", "volumeBindingMode": "WaitForFirstConsumer",
            "parameters": {"type": scn, "fsType": "ext4"}}))
    k = 0
    t = tf + dt.timedelta(seconds=5)
    while t < inc.te:
        k += 1
        inc.event(t, "PersistentVolumeClaim", "postgresql-data", "ProvisioningFailed",
                  'storageclass.storage.k8s.io "gp3-encrypted" not found', count=k, first=tf + dt.timedelta(seconds=5),
                  comp="persistentvolume-controller")
        t += dt.timedelta(seconds=90 if k < 4 else 300)
    for j, m in enumerate((0.1, 1.2, 6.3, 16.4)):
        inc.event(inc.at(m), "Pod", newp, "FailedScheduling",
                  "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are "
                  "available: 3 Preemption is not helpful for scheduling.", count=j + 1, first=inc.at(0.1),
                  comp="default-scheduler")
    inc.effect("postgresql", 0.05, down=True, msg="Connection refused (postgresql:5432)")
    inc.effect("accounting", 0.1, err=0.97)
    inc.effect("product-reviews", 0.05, err=0.93)
    inc.effect("frontend", 0.1, err=0.03)
    r = inc.rng
    t = inc.at(0.2)
    while t < inc.te:
        inc.log(t, "accounting", "Error", "Npgsql.NpgsqlException (0x80004005): Failed to connect to 10.43.112.9:5432\n"
                " ---> System.Net.Sockets.SocketException (111): Connection refused".replace("\n", " "))
        inc.log(t + dt.timedelta(seconds=3), "product-reviews", "ERROR",
                'psycopg2.OperationalError: connection to server at "postgresql" (10.43.112.9), port 5432 failed: Connection refused')
        t += dt.timedelta(seconds=r.randint(20, 50))
    add_noise(inc, ["lg-restart", "hpa-warn", "collector-warn"])
    inc.alert("KubePodNotReady", "warning", {"pod": newp}, inc.at(0.5), 1,
              "Pod has been in a non-ready state for more than 15 minutes.",
              "Pod otel-demo/%s has been in a non-ready state for longer than 15 minutes." % newp)
    inc.alert("KubeDeploymentReplicasMismatch", "warning", {"deployment": "postgresql"}, inc.at(1), 0,
              "Deployment has not matched the expected number of replicas.")
    base_alert_err(inc, "product-reviews", 1.5, 0.93)
    inc.alert("KafkaConsumerGroupLagHigh", "warning", {"service_name": "accounting", "consumergroup": "accounting",
              "topic": "orders"}, inc.at(4), 840, "Kafka consumer group accounting lag is growing")
    inc.pod_metrics[inc.pods["kafka"]] = {"kafka_consumergroup_lag": lambda t: max(0, int((t - tf).total_seconds() * 0.6)) if t >= tf else 2}
    groups = [{"id": "postgresql-data-pvc-1", "kind": "PersistentVolumeClaim", "namespace": NS, "name": "postgresql-data",
               "filter": ["^postgresql-data$"], "root_cause": True},
              dep_grp("postgresql"), pod_grp("postgresql"), svc_grp("postgresql"),
              svc_grp("accounting"), pod_grp("accounting"), svc_grp("product-reviews"), svc_grp("frontend")]
    inc.gt = mk_gt(groups, [["postgresql-deployment-1", "postgresql-pod-1", "postgresql-service-1"],
                            ["accounting-service-1", "accounting-pod-1"]],
                   [prop("postgresql-data-pvc-1", "postgresql-pod-1", "PVC references StorageClass gp3-encrypted that does not exist; it stays Pending",
                         "new postgresql pod cannot be scheduled (unbound immediate PersistentVolumeClaims)"),
                    prop("postgresql-pod-1", "postgresql-service-1", "postgresql has no running pod", "postgresql service has no endpoints"),
                    prop("postgresql-service-1", "accounting-service-1", "database connections refused", "accounting fails to store orders; consumer lag grows"),
                    prop("postgresql-service-1", "product-reviews-service-1", "database connections refused", "product-reviews requests fail"),
                    prop("product-reviews-service-1", "frontend-service-1", "product-reviews errors", "frontend product review calls fail")],
                   [{"category": "Configuration", "condition": "PersistentVolumeClaim requests a non-existent StorageClass",
                     "entity": {"group_id": "postgresql-data-pvc-1", "kind": "PersistentVolumeClaim", "name": "postgresql-data"},
                     "fault_mechanism": "pvc-missing-storageclass"}],
                   [{"group_id": "postgresql-pod-1", "id": "KubePodNotReady"},
                    {"group_id": "postgresql-deployment-1", "id": "KubeDeploymentReplicasMismatch"},
                    {"group_id": "product-reviews-service-1", "id": "HighRequestErrorRate"},
                    {"group_id": "accounting-service-1", "id": "KafkaConsumerGroupLagHigh"}],
                   ["set storageClassName of postgresql-data to an existing class (gp3) and recreate the PVC"])
    return inc


# ---------------- 2: ResourceQuota blocks the ad rollout (maxSurge 0)
@incident
def s2():
    inc = Incident(2, "quota-ad", T("2026-10-07 14:40:00"), 102, minutes=42, fault_min=17, step=60)
    inc.alert_envelope, inc.obj_encoding, inc.metric_cols = "alerts", "double", "wide"
    inc.span_kind_style, inc.log_attr_style = "long", "py"
    tf = inc.tf
    old = inc.pods["ad"]
    new_rs = inc.podname("ad", "b").rsplit("-", 1)[0]
    old_rs = old.rsplit("-", 1)[0]
    inc.pod_end[old] = tf + dt.timedelta(seconds=2)
    inc.event(tf, "Deployment", "ad", "ScalingReplicaSet", "Scaled down replica set %s to 0 from 1" % old_rs,
              etype="Normal", comp="deployment-controller")
    inc.event(tf + dt.timedelta(seconds=1), "Deployment", "ad", "ScalingReplicaSet", "Scaled up replica set %s to 1" % new_rs,
              etype="Normal", comp="deployment-controller")
    inc.event(tf + dt.timedelta(seconds=2), "Pod", old, "Killing", "Stopping container ad", etype="Normal")
    k, t = 0, tf + dt.timedelta(seconds=2)
    while t < inc.te:
        k += 1
        inc.event(t, "ReplicaSet", new_rs, "FailedCreate",
                  'Error creating: pods "%s-%s" is forbidden: exceeded quota: otel-demo-compute, requested: '
                  'limits.memory=400Mi, used: limits.memory=5900Mi, limited: limits.memory=6Gi' % (new_rs, h(str(k), 5)),
                  count=k, first=tf + dt.timedelta(seconds=2), comp="replicaset-controller")
        t += dt.timedelta(seconds=[1, 2, 4, 8, 16, 32, 64, 128, 256, 300][min(k - 1, 9)])

    def addep(t, o):
        o["spec"]["strategy"] = {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 1}}
        if t >= tf:
            set_rev(o, 4)
            container(o)["env"][-1]["value"] = "-javaagent:/usr/src/app/opentelemetry-javaagent.jar -XX:+UseG1GC -XX:MaxGCPauseMillis=200"
            o["spec"]["template"]["metadata"]["annotations"] = {"kubectl.kubernetes.io/restartedAt": iso(tf)}
            o["status"] = {"replicas": 0, "unavailableReplicas": 1, "observedGeneration": 4,
                           "conditions": [{"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable"},
                                          {"type": "ReplicaFailure", "status": "True", "reason": "FailedCreate",
                                           "message": 'pods "%s-xxxxx" is forbidden: exceeded quota: otel-demo-compute' % new_rs}]}
        else:
            set_rev(o, 3)
    inc.obj_overrides["ad"] = addep
    chg = tf - dt.timedelta(minutes=11)

    def quota(t):
        hard = "6Gi" if t >= chg else "12Gi"
        used = "5900Mi" if t >= tf else "6300Mi"
        return {"apiVersion": "v1", "kind": "ResourceQuota",
                "metadata": {"name": "otel-demo-compute", "namespace": NS,
                             "labels": {"app.kubernetes.io/managed-by": "platform-budgets"},
                             "annotations": {"platform.example.com/ticket": "FINOPS-2291"}},
                "spec": {"hard": {"limits.memory": hard, "requests.cpu": "8", "pods": "40"}},
                "status": {"hard": {"limits.memory": hard, "requests.cpu": "8", "pods": "40"},
                           "used": {"limits.memory": used, "requests.cpu": "2350m", "pods": "21" if t < tf else "20"}}}
    inc.extra_objects.append((inc.t0, None, quota))
    inc.effect("ad", 0.05, down=True, msg="14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 10.43.37.201:8080")
    inc.effect("frontend", 0.05, err=0.21)
    inc.effect("frontend-proxy", 0.05, err=0.19)
    r = inc.rng
    t = inc.at(0.1)
    while t < inc.te:
        inc.log(t, "frontend", "ERROR", "Error: 14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED "
                "10.43.37.201:8080 (2026-10-07T%s)" % t.strftime("%H:%M:%S.000Z"), **{"rpc.service": "oteldemo.AdService"})
        t += dt.timedelta(seconds=r.randint(4, 15))
    add_noise(inc, ["flagd-ui-restart", "image-provider-probe", "kafka-rebalance"])
    base_alert_err(inc, "frontend", 1, 0.21, sev="critical")
    base_alert_err(inc, "frontend-proxy", 1.5, 0.19)
    inc.alert("KubeDeploymentReplicasMismatch", "warning", {"deployment": "ad"}, inc.at(0.5), 0,
              "Deployment has not matched the expected number of replicas.",
              "Deployment otel-demo/ad has not matched the expected number of replicas for longer than 15 minutes.")
    no_req(inc, "ad", 2)
    groups = [{"id": "otel-demo-compute-quota-1", "kind": "ResourceQuota", "namespace": NS, "name": "otel-demo-compute",
               "filter": ["^otel-demo-compute$"], "root_cause": True},
              dep_grp("ad"), pod_grp("ad"), svc_grp("ad"), svc_grp("frontend"), pod_grp("frontend"), svc_grp("frontend-proxy")]
    inc.gt = mk_gt(groups, [["ad-deployment-1", "ad-pod-1", "ad-service-1"], ["frontend-service-1", "frontend-pod-1"]],
                   [prop("otel-demo-compute-quota-1", "ad-pod-1", "ResourceQuota limits.memory lowered to 6Gi; the ad rollout (maxSurge 0) deletes the old pod first",
                         "replacement ad pod is forbidden (exceeded quota), ad has no pod"),
                    prop("ad-pod-1", "ad-service-1", "no ad pod", "ad service has no endpoints"),
                    prop("ad-service-1", "frontend-service-1", "GetAds calls refused", "frontend error rate rises"),
                    prop("frontend-service-1", "frontend-proxy-service-1", "frontend 5xx", "frontend-proxy error rate rises")],
                   [{"category": "Configuration", "condition": "ResourceQuota too small for the workloads; new pods rejected",
                     "entity": {"group_id": "otel-demo-compute-quota-1", "kind": "ResourceQuota", "name": "otel-demo-compute"},
                     "fault_mechanism": "resource-quota-exceeded"}],
                   [{"group_id": "frontend-service-1", "id": "HighRequestErrorRate"},
                    {"group_id": "frontend-proxy-service-1", "id": "HighRequestErrorRate"},
                    {"group_id": "ad-deployment-1", "id": "KubeDeploymentReplicasMismatch"},
                    {"group_id": "ad-service-1", "id": "NoRequestsReceived"}],
                   ["raise limits.memory of ResourceQuota otel-demo-compute back to 12Gi"])
    return inc


# ---------------- 3: liveness probe too strict on cart (restarts under load)
@incident
def s3():
    inc = Incident(3, "liveness-cart", T("2026-10-11 03:05:00"), 103, minutes=45, fault_min=15, step=30)
    inc.alert_envelope, inc.obj_encoding, inc.alert_snapshots = "list", "plain", 4
    tf = inc.tf
    newp = rollout(inc, "cart", tf, old_end=tf + dt.timedelta(seconds=35))
    rs = [inc.at(m) for m in (3.1, 6.4, 8.9, 12.2, 15.7, 19.0, 22.8, 26.1)]
    inc.restarts[newp] = rs
    inc.notready[newp] = [(x - dt.timedelta(seconds=4), x + dt.timedelta(seconds=25 + 10 * i)) for i, x in enumerate(rs)]
    inc.notready[newp].insert(0, (tf, tf + dt.timedelta(seconds=9)))

    def cartdep(t, o):
        c = container(o)
        if t >= tf:
            set_rev(o, 2)
            c["livenessProbe"] = {"grpc": {"port": 8080}, "initialDelaySeconds": 5, "periodSeconds": 3,
                                  "timeoutSeconds": 1, "failureThreshold": 1, "successThreshold": 1}
        else:
            c["livenessProbe"] = {"grpc": {"port": 8080}, "initialDelaySeconds": 15, "periodSeconds": 10,
                                  "timeoutSeconds": 5, "failureThreshold": 3, "successThreshold": 1}
        c["readinessProbe"] = {"grpc": {"port": 8080}, "periodSeconds": 10, "timeoutSeconds": 5, "failureThreshold": 3}
    inc.obj_overrides["cart"] = cartdep
    for i, x in enumerate(rs):
        inc.event(x - dt.timedelta(seconds=1), "Pod", newp, "Unhealthy",
                  'Liveness probe failed: timeout: failed to connect service ":8080" within 1s: context deadline exceeded',
                  count=i + 1, first=rs[0] - dt.timedelta(seconds=1))
        inc.event(x, "Pod", newp, "Killing", "Container cart failed liveness probe, will be restarted",
                  etype="Normal", count=i + 1, first=rs[0])
        if i >= 3:
            inc.event(x + dt.timedelta(seconds=12), "Pod", newp, "BackOff",
                      "Back-off restarting failed container cart in pod %s_%s(%s)" % (newp, NS, uid_of(inc, newp)),
                      count=i - 2, first=rs[3] + dt.timedelta(seconds=12))
        inc.log(x - dt.timedelta(seconds=2), "cart", "Warning",
                "Request processing exceeded 900ms: /oteldemo.CartService/GetCart (thread pool starvation suspected)", pod=newp)
        inc.log(x + dt.timedelta(seconds=0.5), "cart", "Information", "Application is shutting down...", pod=newp)
        inc.log(x + dt.timedelta(seconds=14 + 10 * i), "cart", "Information",
                "Now listening on: http://[::]:8080", pod=newp)
    inc.effect("cart", 2.8, err=0.31, lat=2.4, own=True)
    inc.effect("checkout", 2.8, err=0.27, lat=1.3)
    inc.effect("frontend", 2.8, err=0.09)
    r = inc.rng
    t = inc.at(3)
    while t < inc.te:
        inc.log(t, "checkout", "ERROR", 'failed to get user cart during checkout: rpc error: code = Unavailable desc = '
                'connection error: desc = "transport: Error while dialing: dial tcp 10.43.160.71:8080: connect: connection refused"')
        inc.log(t + dt.timedelta(seconds=2), "frontend", "ERROR", "Error: 14 UNAVAILABLE: read ECONNRESET",
                **{"rpc.service": "oteldemo.CartService"})
        t += dt.timedelta(seconds=r.randint(15, 45))
    add_noise(inc, ["lg-restart", "hpa-warn", "cpu-throttle-alert"])
    inc.alert("KubePodCrashLooping", "warning", {"pod": newp, "container": "cart"}, inc.at(9.5), 1,
              "Pod is crash looping.", "Pod otel-demo/%s (cart) is in waiting state (reason: \"CrashLoopBackOff\")." % newp)
    base_alert_err(inc, "checkout", 4, 0.27, sev="critical")
    base_alert_err(inc, "frontend", 5, 0.09)
    base_alert_lat(inc, "cart", 6, 910)
    groups = [dep_grp("cart", rc=True), pod_grp("cart"), svc_grp("cart"), svc_grp("checkout"), svc_grp("frontend"),
              pod_grp("valkey-cart")]
    inc.gt = mk_gt(groups, [["cart-deployment-1", "cart-pod-1", "cart-service-1"]],
                   [prop("cart-deployment-1", "cart-pod-1", "liveness probe set to timeout 1s / failureThreshold 1",
                         "cart container killed and restarted whenever a probe is slow under load"),
                    prop("cart-pod-1", "cart-service-1", "cart restarting", "cart requests fail or time out"),
                    prop("cart-service-1", "checkout-service-1", "GetCart fails", "checkout PlaceOrder errors"),
                    prop("cart-service-1", "frontend-service-1", "cart calls fail", "frontend error rate rises")],
                   [{"category": "Configuration", "condition": "liveness probe too aggressive (1s timeout, failureThreshold 1)",
                     "entity": {"group_id": "cart-deployment-1", "kind": "Deployment", "name": "cart"},
                     "fault_mechanism": "liveness-probe-too-strict"}],
                   [{"group_id": "cart-pod-1", "id": "KubePodCrashLooping"}, {"group_id": "checkout-service-1", "id": "HighRequestErrorRate"},
                    {"group_id": "frontend-service-1", "id": "HighRequestErrorRate"}, {"group_id": "cart-service-1", "id": "HighRequestLatency"}],
                   ["relax the cart liveness probe (timeoutSeconds 5, failureThreshold 3) or roll back"])
    return inc


# ---------------- 4: checkout PAYMENT_ADDR points at a host that does not exist
@incident
def s4():
    inc = Incident(4, "env-host-checkout", T("2026-10-14 19:22:00"), 104, minutes=38, fault_min=14, step=30)
    inc.alert_envelope, inc.obj_encoding, inc.ts_prec = "am", "csv", 6
    tf = inc.tf
    newp = rollout(inc, "checkout", tf, old_end=tf + dt.timedelta(seconds=28))
    sw = tf + dt.timedelta(seconds=28)

    def co(t, o):
        if t >= tf:
            set_rev(o, 6)
            for e in container(o)["env"]:
                if e["name"] == "PAYMENT_ADDR":
                    e["value"] = "paymentservice:8080"
            container(o)["env"].append({"name": "CHECKOUT_ORDER_TIMEOUT", "value": "15s"})
        else:
            set_rev(o, 5)
    inc.obj_overrides["checkout"] = co
    m = ('could not charge the card: rpc error: code = Unavailable desc = name resolver error: produced zero addresses')
    inc.effect("payment", 0.47, down=True, msg="dial tcp: lookup paymentservice on 10.96.0.10:53: no such host")
    inc.effect("checkout", 0.47, err=0.98)
    inc.effect("frontend", 0.47, err=0.07)
    inc.effect("frontend-proxy", 0.47, err=0.06)
    for d in ("email", "accounting", "fraud-detection"):
        inc.effect(d, 0.5, rate=0.01)
    inc.effect("shipping", 0.5, rate=0.52)
    inc.effect("quote", 0.5, rate=1.0)
    r = inc.rng
    t = sw + dt.timedelta(seconds=4)
    inc.log(sw - dt.timedelta(seconds=6), "checkout", "INFO", "service config: payment=paymentservice:8080 email=http://email:8080 kafka=kafka:9092", pod=newp)
    while t < inc.te:
        inc.log(t, "checkout", "ERROR", "failed to charge card: " + m, pod=newp)
        inc.log(t + dt.timedelta(milliseconds=40), "checkout", "WARN",
                '[core] [Channel #4 SubChannel #5] grpc: addrConn.createTransport failed to connect to {Addr: "paymentservice:8080"}. '
                'Err: connection error: desc = "transport: Error while dialing: dial tcp: lookup paymentservice on 10.96.0.10:53: no such host"', pod=newp)
        inc.log(t + dt.timedelta(milliseconds=90), "frontend", "ERROR", "Error: 13 INTERNAL: failed to charge card: " + m)
        t += dt.timedelta(seconds=r.randint(25, 70))
    add_noise(inc, ["collector-warn", "ad-gc-info", "kafka-rebalance"])
    no_req(inc, "payment", 2.5)
    no_req(inc, "email", 4)
    no_req(inc, "accounting", 5)
    base_alert_err(inc, "checkout", 1.5, 0.98, sev="critical")
    base_alert_err(inc, "frontend", 2, 0.07)
    inc.alert("KafkaTopicNoMessages", "info", {"topic": "orders", "service_name": "kafka"}, inc.at(6), 0,
              "No messages produced to topic orders in 5m")
    groups = [dep_grp("checkout", rc=True), pod_grp("checkout"), svc_grp("checkout"), svc_grp("payment"), pod_grp("payment"),
              svc_grp("email"), svc_grp("accounting"), svc_grp("frontend"), svc_grp("kafka")]
    inc.gt = mk_gt(groups, [["checkout-deployment-1", "checkout-pod-1", "checkout-service-1"], ["payment-service-1", "payment-pod-1"]],
                   [prop("checkout-deployment-1", "checkout-pod-1", "PAYMENT_ADDR changed to paymentservice:8080 (no such Service)",
                         "checkout cannot resolve the payment address"),
                    prop("checkout-pod-1", "payment-service-1", "charge calls never leave checkout", "payment receives no requests"),
                    prop("checkout-pod-1", "frontend-service-1", "PlaceOrder fails", "frontend checkout errors"),
                    prop("checkout-pod-1", "kafka-service-1", "no orders placed", "no order events on topic orders"),
                    prop("kafka-service-1", "accounting-service-1", "no order events", "accounting receives nothing"),
                    prop("checkout-pod-1", "email-service-1", "no orders placed", "email receives no requests")],
                   [{"category": "Configuration", "condition": "environment variable points to a non-existent host",
                     "entity": {"group_id": "checkout-deployment-1", "kind": "Deployment", "name": "checkout"},
                     "fault_mechanism": "wrong-env-host"}],
                   [{"group_id": "payment-service-1", "id": "NoRequestsReceived"}, {"group_id": "email-service-1", "id": "NoRequestsReceived"},
                    {"group_id": "accounting-service-1", "id": "NoRequestsReceived"}, {"group_id": "checkout-service-1", "id": "HighRequestErrorRate"},
                    {"group_id": "frontend-service-1", "id": "HighRequestErrorRate"}, {"group_id": "kafka-service-1", "id": "KafkaTopicNoMessages"}],
                   ["set PAYMENT_ADDR of checkout back to payment:8080"])
    return inc


def chaos_obj(kind, name, spec, created, t, ns="chaos-mesh", paused=False, target="pod"):
    return {"apiVersion": "chaos-mesh.org/v1alpha1", "kind": kind,
            "metadata": {"name": name, "namespace": ns, "creationTimestamp": iso(created),
                         "finalizers": ["chaos-mesh/records"], "generation": 1},
            "spec": spec,
            "status": {"conditions": [{"type": "Selected", "status": "True"}, {"type": "AllInjected", "status": "True"},
                                      {"type": "AllRecovered", "status": "False"}, {"type": "Paused", "status": "False"}],
                       "experiment": {"desiredPhase": "Run", "containerRecords": [
                           {"id": "%s/%s" % (spec["selector"]["namespaces"][0], target), "phase": "Injected",
                            "injectedCount": 1, "recoveredCount": 0, "selectorKey": "."}]}}}


def chaos_events(inc, kind, name, at, target_pod):
    for i, (rs, msg) in enumerate((("FinalizerInited", "Finalizer has been inited"),
                                   ("Updated", "Successfully update finalizer of resource"),
                                   ("Started", "Experiment has started"),
                                   ("Applied", "Successfully apply chaos for %s/%s" % (NS, target_pod)),
                                   ("Updated", "Successfully update records of resource"))):
        inc.event(at + dt.timedelta(milliseconds=150 * i), kind, name, rs, msg, etype="Normal",
                  comp="chaos-controller-manager", ns="chaos-mesh")


# ---------------- 5: NetworkChaos bandwidth cap on kafka
@incident
def s5():
    inc = Incident(5, "kafka-bandwidth", T("2026-10-18 11:50:00"), 105, minutes=40, fault_min=16, step=30)
    inc.alert_envelope, inc.obj_encoding, inc.metric_cols = "data", "plain", "wide"
    tf = inc.tf
    kpod = inc.pods["kafka"]
    spec = {"action": "bandwidth", "mode": "all", "direction": "to",
            "selector": {"namespaces": [NS], "labelSelectors": {"opentelemetry.io/name": "kafka"}},
            "bandwidth": {"rate": "16kbps", "limit": 4096, "buffer": 1200}}
    inc.extra_objects.append((tf, None, lambda t: chaos_obj("NetworkChaos", "kafka-bandwidth-cap", spec, tf, t, target=kpod)))
    chaos_events(inc, "NetworkChaos", "kafka-bandwidth-cap", tf, kpod)
    inc.effect("kafka", 0.3, err=0.22, lat=1.0, net=2600.0, ramp=2.0, msg="kafka: Failed to produce message to topic orders: "
               "kafka server: Request exceeded the user-specified time limit in the request")
    inc.effect("checkout", 0.3, lat=9.0, err=0.05, ramp=2.0)
    inc.effect("frontend", 0.3, lat=1.5, ramp=2.0)
    inc.effect("frontend-proxy", 0.3, lat=1.45, ramp=2.0)
    inc.effect("accounting", 0.5, rate=0.12, ramp=3.0)
    inc.effect("fraud-detection", 0.5, rate=0.1, ramp=3.0)
    lag = lambda g: (lambda t: 3 if t < tf else int(3 + (t - tf).total_seconds() * (0.48 if g == "a" else 0.51)))
    inc.pod_metrics[kpod] = {"kafka_consumergroup_lag": lag("a"),
                             "kafka_network_io_bytes_total": lambda t: int((t - inc.t0).total_seconds() * (5200 if t < tf else 2000))}
    inc.pod_metrics[inc.pods["fraud-detection"]] = {"kafka_consumer_records_lag_max": lag("f"),
                                                    "kafka_consumer_fetch_latency_avg": lambda t: 12.0 if t < tf else 2950.0}
    r = inc.rng
    t = inc.at(1.5)
    while t < inc.te:
        inc.log(t, "checkout", "ERROR", "Failed to send message to Kafka: kafka: Failed to produce message to topic orders: "
                "kafka server: Request exceeded the user-specified time limit in the request")
        inc.log(t + dt.timedelta(seconds=7), "fraud-detection", "WARN",
                "[Consumer clientId=consumer-fraud-detection-1, groupId=fraud-detection] Offset commit failed on partition orders-0 at offset %d: The request timed out." % (1900 + int((t - tf).total_seconds() / 9)))
        inc.log(t + dt.timedelta(seconds=11), "accounting", "Warning",
                "Consume error: Local: Timed out (Broker: kafka:9092/1: 1 request(s) timed out: disconnect)")
        t += dt.timedelta(seconds=r.randint(30, 80))
    add_noise(inc, ["lg-restart", "image-provider-probe", "ad-gc-info"])
    base_alert_lat(inc, "checkout", 3, 4210, sev="critical")
    base_alert_lat(inc, "frontend-proxy", 4, 612)
    inc.alert("KafkaConsumerGroupLagHigh", "warning", {"consumergroup": "accounting", "topic": "orders", "service_name": "accounting"},
              inc.at(6), 410, "Kafka consumer group accounting lag is growing")
    inc.alert("KafkaConsumerGroupLagHigh", "warning", {"consumergroup": "fraud-detection", "topic": "orders", "service_name": "fraud-detection"},
              inc.at(6.5), 440, "Kafka consumer group fraud-detection lag is growing")
    groups = [{"id": "kafka-bandwidth-cap-1", "kind": "NetworkChaos", "namespace": "chaos-mesh", "name": "kafka-bandwidth-cap",
               "filter": ["kafka-bandwidth-cap"], "root_cause": True},
              pod_grp("kafka"), svc_grp("kafka"), svc_grp("checkout"), svc_grp("accounting"), svc_grp("fraud-detection"),
              svc_grp("frontend-proxy"), svc_grp("frontend")]
    inc.gt = mk_gt(groups, [["kafka-pod-1", "kafka-service-1"]],
                   [prop("kafka-bandwidth-cap-1", "kafka-pod-1", "egress bandwidth to kafka limited to 16kbps", "kafka produce/fetch requests slow down and time out"),
                    prop("kafka-pod-1", "checkout-service-1", "order publish takes seconds", "checkout PlaceOrder latency rises"),
                    prop("kafka-pod-1", "accounting-service-1", "fetches time out", "consumer lag grows"),
                    prop("kafka-pod-1", "fraud-detection-service-1", "fetches time out", "consumer lag grows"),
                    prop("checkout-service-1", "frontend-service-1", "slow checkout", "frontend latency rises"),
                    prop("frontend-service-1", "frontend-proxy-service-1", "slow frontend", "frontend-proxy latency rises")],
                   [{"category": "Network", "condition": "Chaos Mesh bandwidth limit on kafka pods",
                     "entity": {"group_id": "kafka-bandwidth-cap-1", "kind": "NetworkChaos", "name": "kafka-bandwidth-cap"},
                     "fault_mechanism": "network-bandwidth"}],
                   [{"group_id": "checkout-service-1", "id": "HighRequestLatency"}, {"group_id": "frontend-proxy-service-1", "id": "HighRequestLatency"},
                    {"group_id": "accounting-service-1", "id": "KafkaConsumerGroupLagHigh"}, {"group_id": "fraud-detection-service-1", "id": "KafkaConsumerGroupLagHigh"}],
                   ["delete NetworkChaos chaos-mesh/kafka-bandwidth-cap"])
    return inc


# ---------------- 6: expired TLS certificate Secret on the frontend-proxy https listener
@incident
def s6():
    inc = Incident(6, "tls-expired", T("2026-10-21 07:41:00"), 106, minutes=40, fault_min=19, step=60)
    inc.alert_envelope, inc.obj_encoding, inc.log_attr_style = "alerts", "csv", "py"
    tf = T("2026-10-22 00:00:00")
    inc.t0 = tf - dt.timedelta(minutes=19)
    inc.tf, inc.te = tf, tf + dt.timedelta(minutes=21)
    cert = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSURXakNDQWtLZ0F3SUJBZ0lVYz" + h("crt", 40, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    inc.extra_objects.append((inc.t0, None, lambda t: {
        "apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/tls",
        "metadata": {"name": "frontend-proxy-tls", "namespace": NS, "creationTimestamp": "2025-10-21T23:58:12Z",
                     "labels": {"app.kubernetes.io/part-of": "opentelemetry-demo"},
                     "annotations": {"shop.example.com/issued-by": "manual (openssl req -x509 -days 365)",
                                     "shop.example.com/not-after": "2026-10-22T00:00:00Z"}},
        "data": {"tls.crt": cert, "tls.key": "LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JSUV2UUlCQURBTkJna3Foa2lHOXcwQkFRRUZBQVND"}}))

    def fp(t, o):
        o["spec"]["template"]["spec"]["volumes"] = [{"name": "tls", "secret": {"secretName": "frontend-proxy-tls"}},
                                                    {"name": "config", "configMap": {"name": "frontend-proxy-envoy"}}]
        container(o)["volumeMounts"] = [{"name": "tls", "mountPath": "/etc/envoy/tls", "readOnly": True}]
        container(o)["ports"].append({"containerPort": 8443, "name": "https", "protocol": "TCP"})
    inc.obj_overrides["frontend-proxy"] = fp

    def lg(t, o):
        container(o)["env"] += [{"name": "LOCUST_HOST", "value": "https://frontend-proxy:8443"},
                                {"name": "LOCUST_USERS", "value": "20"}, {"name": "REQUESTS_CA_BUNDLE", "value": "/etc/ssl/shop/ca.crt"}]
    inc.obj_overrides["load-generator"] = lg
    for d, rt in (("frontend-proxy", 0.04), ("frontend", 0.04), ("ad", 0.03), ("cart", 0.03), ("checkout", 0.0),
                  ("currency", 0.05), ("email", 0.0), ("payment", 0.0), ("product-catalog", 0.06), ("recommendation", 0.03),
                  ("shipping", 0.02), ("quote", 0.02), ("accounting", 0.0), ("fraud-detection", 0.0),
                  ("image-provider", 0.02), ("product-reviews", 0.03), ("load-generator", 0.0)):
        inc.effect(d, 0.0, rate=rt)
    r = inc.rng
    t = tf + dt.timedelta(seconds=1)
    while t < inc.te:
        inc.log(t, "load-generator", "ERROR",
                "GET /api/products/%s: SSLError(MaxRetryError(\"HTTPSConnectionPool(host='frontend-proxy', port=8443): Max retries exceeded "
                "(Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: "
                "certificate has expired (_ssl.c:1006)')))\"))" % r.choice(["66VCHSJNUP", "OLJCESPC7Z", "2ZYFJ3GM2N", "9SIQT8TOJO"]))
        if r.random() < 0.5:
            inc.log(t + dt.timedelta(milliseconds=3), "frontend-proxy", "WARN",
                    "[source/common/tls/ssl_socket.cc:227] [Tags: \"ConnectionId\":\"%d\"] remote address:10.42.0.77:%d,"
                    "TLS_error:|268436501:SSL routines:OPENSSL_internal:SSLV3_ALERT_CERTIFICATE_EXPIRED:TLS_error_end"
                    % (r.randint(10000, 99999), r.randint(30000, 60000)))
        t += dt.timedelta(seconds=r.uniform(0.8, 6))
    add_noise(inc, ["collector-warn", "hpa-warn", "flagd-ui-restart"])
    for i, d in enumerate(("frontend", "frontend-proxy", "checkout", "cart", "payment", "product-catalog", "ad")):
        no_req(inc, d, 3 + i * 0.4)
    inc.alert("LocustFailureRatioHigh", "warning", {"service_name": "load-generator", "job": "load-generator"}, inc.at(1), 1.0,
              "Locust reports 100% failed requests")
    groups = [{"id": "frontend-proxy-tls-secret-1", "kind": "Secret", "namespace": NS, "name": "frontend-proxy-tls",
               "filter": ["^frontend-proxy-tls$"], "root_cause": True},
              dep_grp("frontend-proxy"), pod_grp("frontend-proxy"), svc_grp("frontend-proxy"), svc_grp("load-generator"),
              pod_grp("load-generator"), svc_grp("frontend"), svc_grp("checkout"), svc_grp("cart"), svc_grp("payment"),
              svc_grp("product-catalog"), svc_grp("ad")]
    inc.gt = mk_gt(groups, [["frontend-proxy-deployment-1", "frontend-proxy-pod-1", "frontend-proxy-service-1"],
                            ["load-generator-service-1", "load-generator-pod-1"]],
                   [prop("frontend-proxy-tls-secret-1", "frontend-proxy-pod-1", "certificate in the TLS Secret expired at 2026-10-22T00:00:00Z",
                         "TLS handshakes on the https listener fail"),
                    prop("frontend-proxy-pod-1", "load-generator-pod-1", "certificate verify failed: certificate has expired", "all user requests fail before HTTP"),
                    prop("frontend-proxy-service-1", "frontend-service-1", "no traffic passes the proxy", "frontend receives no requests"),
                    prop("frontend-service-1", "checkout-service-1", "no traffic", "checkout receives no requests"),
                    prop("frontend-service-1", "product-catalog-service-1", "no traffic", "product-catalog receives no requests")],
                   [{"category": "Security", "condition": "expired TLS certificate",
                     "entity": {"group_id": "frontend-proxy-tls-secret-1", "kind": "Secret", "name": "frontend-proxy-tls"},
                     "fault_mechanism": "expired-certificate"}],
                   [{"group_id": "frontend-service-1", "id": "NoRequestsReceived"}, {"group_id": "frontend-proxy-service-1", "id": "NoRequestsReceived"},
                    {"group_id": "checkout-service-1", "id": "NoRequestsReceived"}, {"group_id": "cart-service-1", "id": "NoRequestsReceived"},
                    {"group_id": "payment-service-1", "id": "NoRequestsReceived"}, {"group_id": "product-catalog-service-1", "id": "NoRequestsReceived"},
                    {"group_id": "ad-service-1", "id": "NoRequestsReceived"}, {"group_id": "load-generator-service-1", "id": "LocustFailureRatioHigh"}],
                   ["renew the certificate in Secret frontend-proxy-tls and restart frontend-proxy"])
    return inc


# ---------------- 7: CoreDNS scaled to 0 in kube-system
@incident
def s7():
    inc = Incident(7, "coredns-down", T("2026-10-25 16:03:00"), 107, minutes=36, fault_min=13, step=30)
    inc.alert_envelope, inc.obj_encoding, inc.alert_snapshots = "am", "double", 2
    inc.status_style = "long"
    tf = inc.tf
    cpods = ["coredns-7db6d8ff4d-%s" % h("c%d" % i, 5) for i in range(2)]

    def coredns(t):
        rep = 0 if t >= tf else 2
        return {"apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": "coredns", "namespace": "kube-system", "labels": {"k8s-app": "kube-dns"},
                             "annotations": {"deployment.kubernetes.io/revision": "1"}, "generation": 3 if t >= tf else 2},
                "spec": {"replicas": rep, "selector": {"matchLabels": {"k8s-app": "kube-dns"}},
                         "template": {"metadata": {"labels": {"k8s-app": "kube-dns"}},
                                      "spec": {"containers": [{"name": "coredns", "image": "registry.k8s.io/coredns/coredns:v1.11.1",
                                                               "args": ["-conf", "/etc/coredns/Corefile"]}],
                                               "priorityClassName": "system-cluster-critical"}}},
                "status": {"replicas": rep, "readyReplicas": rep, "availableReplicas": rep} if rep else
                {"observedGeneration": 3, "conditions": [{"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable"}]}}
    inc.extra_objects.append((inc.t0, None, coredns))
    for p in cpods:
        inc.extra_objects.append((inc.t0, tf, lambda t, p=p: {"apiVersion": "v1", "kind": "Pod",
                                  "metadata": {"name": p, "namespace": "kube-system", "labels": {"k8s-app": "kube-dns"}},
                                  "spec": {"containers": [{"name": "coredns", "image": "registry.k8s.io/coredns/coredns:v1.11.1"}]},
                                  "status": {"phase": "Running"}}))
    inc.event(tf, "Deployment", "coredns", "ScalingReplicaSet", "Scaled down replica set coredns-7db6d8ff4d to 0 from 2",
              etype="Normal", comp="deployment-controller", ns="kube-system")
    for p in cpods:
        inc.event(tf + dt.timedelta(seconds=1), "ReplicaSet", "coredns-7db6d8ff4d", "SuccessfulDelete", "Deleted pod: %s" % p,
                  etype="Normal", comp="replicaset-controller", ns="kube-system")
        inc.event(tf + dt.timedelta(seconds=2), "Pod", p, "Killing", "Stopping container coredns", etype="Normal", ns="kube-system")
    dns = "dial tcp: lookup %s on 10.96.0.10:53: read udp 10.42.%d.%d:%d->10.96.0.10:53: i/o timeout"
    inc.effect("quote", 0.6, down=True, msg="timeout: error sending request for url (http://quote:8080/getquote): error trying to connect: "
               "dns error: failed to lookup address information: Temporary failure in name resolution")
    inc.effect("email", 0.6, down=True, msg="timeout: " + dns % ("email", 1, 17, 40312))
    inc.effect("shipping", 0.6, err=0.93, lat=1.0)
    inc.effect("checkout", 0.6, err=0.95, lat=8.0)
    inc.effect("frontend", 0.6, err=0.12, lat=1.4)
    inc.effect("product-reviews", 1.0, err=0.4)
    inc.effect("frontend-proxy", 0.6, err=0.1)
    r = inc.rng
    t = inc.at(0.7)
    while t < inc.te:
        inc.log(t, "shipping", "ERROR", "failed to get quote: error sending request for url (http://quote:8080/getquote): error trying to connect: "
                "dns error: failed to lookup address information: Temporary failure in name resolution")
        inc.log(t + dt.timedelta(seconds=5), "checkout", "ERROR", "shipping quote failure: rpc error: code = Internal desc = failed to get quote")
        if r.random() < 0.5:
            inc.log(t + dt.timedelta(seconds=8), "product-reviews", "ERROR",
                    'psycopg2.OperationalError: could not translate host name "postgresql" to address: Temporary failure in name resolution')
        if r.random() < 0.4:
            inc.log(t + dt.timedelta(seconds=9), "frontend", "WARN", "getaddrinfo EAI_AGAIN flagd")
        t += dt.timedelta(seconds=r.randint(15, 40))
    add_noise(inc, ["lg-restart", "ad-gc-info", "cpu-throttle-alert"])
    base_alert_err(inc, "checkout", 2, 0.95, sev="critical")
    base_alert_err(inc, "shipping", 2.5, 0.93)
    base_alert_err(inc, "frontend", 3, 0.12)
    no_req(inc, "quote", 3)
    no_req(inc, "email", 3.5)
    groups = [{"id": "coredns-deployment-1", "kind": "Deployment", "namespace": "kube-system", "name": "coredns",
               "filter": ["^coredns$"], "root_cause": True},
              {"id": "coredns-pod-1", "kind": "Pod", "namespace": "kube-system", "filter": ["^coredns-[a-z0-9]+-[a-z0-9]{5}$"]},
              {"id": "kube-dns-service-1", "kind": "Service", "namespace": "kube-system", "name": "kube-dns", "filter": ["^kube-dns$"]},
              svc_grp("shipping"), svc_grp("quote"), svc_grp("checkout"), svc_grp("email"), svc_grp("frontend"), svc_grp("product-reviews")]
    inc.gt = mk_gt(groups, [["coredns-deployment-1", "coredns-pod-1", "kube-dns-service-1"]],
                   [prop("coredns-deployment-1", "kube-dns-service-1", "coredns scaled from 2 to 0 replicas", "cluster DNS has no endpoints; lookups time out"),
                    prop("kube-dns-service-1", "shipping-service-1", "quote host not resolvable", "shipping GetQuote fails"),
                    prop("kube-dns-service-1", "checkout-service-1", "email host not resolvable", "order confirmation mail fails"),
                    prop("shipping-service-1", "checkout-service-1", "GetQuote fails", "PlaceOrder fails"),
                    prop("checkout-service-1", "frontend-service-1", "checkout errors", "frontend error rate rises"),
                    prop("kube-dns-service-1", "product-reviews-service-1", "postgresql host not resolvable", "reviews fail")],
                   [{"category": "Change", "condition": "CoreDNS deployment scaled to zero",
                     "entity": {"group_id": "coredns-deployment-1", "kind": "Deployment", "name": "coredns"},
                     "fault_mechanism": "coredns-scaled-down"}],
                   [{"group_id": "checkout-service-1", "id": "HighRequestErrorRate"}, {"group_id": "shipping-service-1", "id": "HighRequestErrorRate"},
                    {"group_id": "frontend-service-1", "id": "HighRequestErrorRate"}, {"group_id": "quote-service-1", "id": "NoRequestsReceived"},
                    {"group_id": "email-service-1", "id": "NoRequestsReceived"}],
                   ["kubectl -n kube-system scale deployment coredns --replicas=2"])
    return inc


# ---------------- 8: init container of payment fails (Recreate strategy)
@incident
def s8():
    inc = Incident(8, "init-payment", T("2026-10-28 21:15:00"), 108, minutes=40, fault_min=17, step=30)
    inc.alert_envelope, inc.obj_encoding, inc.ts_prec = "list", "csv", 3
    tf = inc.tf
    newp = rollout(inc, "payment", tf + dt.timedelta(seconds=31), old_end=tf + dt.timedelta(seconds=1))
    inc.pending.add(newp)
    inc.notready[newp] = [(tf, None)]
    fails = [tf + dt.timedelta(seconds=s) for s in (36, 52, 81, 124, 205, 366, 667, 968, 1269)]

    def pay(t, o):
        o["spec"]["strategy"] = {"type": "Recreate"}
        if t >= tf:
            set_rev(o, 3)
            o["spec"]["template"]["spec"]["initContainers"] = [{
                "name": "init-config", "image": "busybox:1.36",
                "command": ["sh", "-c", "cp /config/payment.json /app/config/ && echo config copied"],
                "volumeMounts": [{"name": "payment-config", "mountPath": "/etc/payment"}, {"name": "app-config", "mountPath": "/app/config"}]}]
            o["spec"]["template"]["spec"]["volumes"] = [{"name": "payment-config", "configMap": {"name": "payment-config"}},
                                                        {"name": "app-config", "emptyDir": {}}]
            o["status"] = {"replicas": 1, "unavailableReplicas": 1, "updatedReplicas": 1, "observedGeneration": 3,
                           "conditions": [{"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable"}]}
        else:
            set_rev(o, 2)
    inc.obj_overrides["payment"] = pay

    def ppod(t, o):
        if o["metadata"]["name"] == newp and t >= tf:
            n = len([f for f in fails if f <= t])
            o["spec"]["initContainers"] = [{"name": "init-config", "image": "busybox:1.36"}]
            o["status"] = {"phase": "Pending", "qosClass": "Burstable",
                           "conditions": [{"type": "Initialized", "status": "False", "reason": "ContainersNotInitialized",
                                           "message": "containers with incomplete status: [init-config]"},
                                          {"type": "Ready", "status": "False", "reason": "ContainersNotReady"}],
                           "initContainerStatuses": [{"name": "init-config", "ready": False, "restartCount": n,
                                                      "lastState": {"terminated": {"exitCode": 1, "reason": "Error"}},
                                                      "state": {"waiting": {"reason": "CrashLoopBackOff",
                                                                            "message": "back-off 5m0s restarting failed container=init-config pod=%s_otel-demo" % newp}}}],
                           "containerStatuses": [{"name": "payment", "ready": False, "restartCount": 0,
                                                  "state": {"waiting": {"reason": "PodInitializing"}}}]}
    inc.obj_overrides["pod:payment"] = ppod
    inc.extra_objects.append((inc.t0, None, lambda t: {"apiVersion": "v1", "kind": "ConfigMap",
                              "metadata": {"name": "payment-config", "namespace": NS},
                              "data": {"payment.json": "{\"currency\": \"USD\", \"maxChargeUSD\": 100000}"}}))
    for i, f in enumerate(fails):
        inc.event(f, "Pod", newp, "Pulled", 'Container image "busybox:1.36" already present on machine', etype="Normal", count=i + 1, first=fails[0])
        if i >= 1:
            inc.event(f + dt.timedelta(seconds=1), "Pod", newp, "BackOff",
                      "Back-off restarting failed container init-config in pod %s_%s(%s)" % (newp, NS, uid_of(inc, newp)),
                      count=i, first=fails[1])
        inc.log(f, "payment", "ERROR", "cp: can't stat '/config/payment.json': No such file or directory", pod=newp,
                **{"log.file.path": "/var/log/pods/otel-demo_%s/init-config/%d.log" % (newp, i)})
    inc.effect("payment", 0.03, down=True, msg='connection error: desc = "transport: Error while dialing: dial tcp 10.43.201.14:8080: connect: connection refused"')
    inc.effect("checkout", 0.03, err=0.97)
    inc.effect("frontend", 0.03, err=0.06)
    for d in ("email", "accounting", "fraud-detection"):
        inc.effect(d, 0.05, rate=0.01)
    r = inc.rng
    t = inc.at(0.2)
    while t < inc.te:
        inc.log(t, "checkout", "ERROR", 'failed to charge card: could not charge the card: rpc error: code = Unavailable desc = '
                'connection error: desc = "transport: Error while dialing: dial tcp 10.43.201.14:8080: connect: connection refused"')
        t += dt.timedelta(seconds=r.randint(20, 60))
    add_noise(inc, ["lg-restart", "collector-warn", "kafka-rebalance", "image-provider-probe"])
    inc.alert("KubePodNotReady", "warning", {"pod": newp}, inc.at(1), 1, "Pod has been in a non-ready state for more than 15 minutes.")
    inc.alert("KubeContainerWaiting", "warning", {"pod": newp, "container": "init-config"}, inc.at(2), 1,
              "Pod container waiting longer than 1 hour")
    base_alert_err(inc, "checkout", 1.2, 0.97, sev="critical")
    base_alert_err(inc, "frontend-proxy", 2.0, 0.05)
    no_req(inc, "accounting", 5)
    groups = [dep_grp("payment", rc=True), pod_grp("payment"), svc_grp("payment"), svc_grp("checkout"), svc_grp("frontend-proxy"),
              svc_grp("frontend"), svc_grp("accounting")]
    inc.gt = mk_gt(groups, [["payment-deployment-1", "payment-pod-1", "payment-service-1"]],
                   [prop("payment-deployment-1", "payment-pod-1", "new init container copies /config/payment.json but the ConfigMap is mounted at /etc/payment",
                         "init container exits 1, pod stuck in Init:CrashLoopBackOff (Recreate strategy removed the old pod)"),
                    prop("payment-pod-1", "payment-service-1", "no ready payment pod", "payment has no endpoints"),
                    prop("payment-service-1", "checkout-service-1", "Charge refused", "PlaceOrder fails"),
                    prop("checkout-service-1", "frontend-service-1", "checkout errors", "frontend checkout errors"),
                    prop("frontend-service-1", "frontend-proxy-service-1", "frontend 5xx", "frontend-proxy error rate rises"),
                    prop("checkout-service-1", "accounting-service-1", "no orders", "accounting receives no requests")],
                   [{"category": "Configuration", "condition": "init container command fails (wrong path)",
                     "entity": {"group_id": "payment-deployment-1", "kind": "Deployment", "name": "payment"},
                     "fault_mechanism": "init-container-failure"}],
                   [{"group_id": "payment-pod-1", "id": "KubePodNotReady"}, {"group_id": "payment-pod-1", "id": "KubeContainerWaiting"},
                    {"group_id": "checkout-service-1", "id": "HighRequestErrorRate"}, {"group_id": "frontend-proxy-service-1", "id": "HighRequestErrorRate"},
                    {"group_id": "accounting-service-1", "id": "NoRequestsReceived"}],
                   ["fix the init container path (/etc/payment/payment.json) or roll back payment"])
    return inc


# ---------------- 9: NetworkChaos delay on currency (client-side latency only)
@incident
def s9():
    inc = Incident(9, "currency-delay", T("2026-11-02 10:30:00"), 109, minutes=40, fault_min=20, step=30)
    inc.alert_envelope, inc.obj_encoding = "data", "plain"
    inc.span_kind_style = "long"
    tf = inc.tf
    spec = {"action": "delay", "mode": "all", "direction": "to",
            "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/component": "currency"}},
            "delay": {"latency": "1200ms", "jitter": "300ms", "correlation": "25"}, "duration": "60m"}
    inc.extra_objects.append((tf, None, lambda t: chaos_obj("NetworkChaos", "currency-latency", spec, tf, t, target=inc.pods["currency"])))
    chaos_events(inc, "NetworkChaos", "currency-latency", tf, inc.pods["currency"])
    inc.effect("currency", 0.1, net=1200.0)
    inc.effect("frontend", 0.1, lat=38.0, err=0.16)
    inc.effect("frontend-proxy", 0.1, lat=34.0, err=0.15)
    inc.effect("checkout", 0.1, lat=8.5)
    inc.effect("load-generator", 0.1, rate=0.6)
    r = inc.rng
    t = inc.at(0.5)
    while t < inc.te:
        inc.log(t, "frontend", "ERROR", "Error: 4 DEADLINE_EXCEEDED: Deadline exceeded after 3.000s,LB pick: 0.000s,remote_addr=10.43.24.118:8080",
                **{"rpc.service": "oteldemo.CurrencyService", "rpc.method": "Convert"})
        if r.random() < 0.5:
            inc.log(t + dt.timedelta(seconds=1), "load-generator", "WARN", "GET /api/products/L9ECAV7KIM: 504 Gateway Timeout (3.4s)")
        t += dt.timedelta(seconds=r.randint(8, 25))
    add_noise(inc, ["lg-restart", "hpa-warn", "ad-gc-info", "cpu-throttle-alert"])
    base_alert_lat(inc, "frontend", 1, 3020, sev="critical")
    base_alert_lat(inc, "frontend-proxy", 1.5, 3110)
    base_alert_lat(inc, "checkout", 2.5, 1540)
    base_alert_err(inc, "frontend", 3, 0.16)
    groups = [{"id": "currency-latency-1", "kind": "NetworkChaos", "namespace": "chaos-mesh", "name": "currency-latency",
               "filter": ["currency-latency"], "root_cause": True},
              pod_grp("currency"), svc_grp("currency"), svc_grp("frontend"), svc_grp("frontend-proxy"), svc_grp("checkout")]
    inc.gt = mk_gt(groups, [["currency-pod-1", "currency-service-1"]],
                   [prop("currency-latency-1", "currency-pod-1", "1200ms +-300ms delay on traffic to currency pods", "every currency call takes > 1s on the wire"),
                    prop("currency-service-1", "frontend-service-1", "Convert/GetSupportedCurrencies slow", "frontend latency and deadline errors"),
                    prop("currency-service-1", "checkout-service-1", "Convert slow", "checkout latency rises"),
                    prop("frontend-service-1", "frontend-proxy-service-1", "slow frontend", "frontend-proxy latency rises")],
                   [{"category": "Network", "condition": "network delay injected to currency",
                     "entity": {"group_id": "currency-latency-1", "kind": "NetworkChaos", "name": "currency-latency"},
                     "fault_mechanism": "network-delay"}],
                   [{"group_id": "frontend-service-1", "id": "HighRequestLatency"}, {"group_id": "frontend-proxy-service-1", "id": "HighRequestLatency"},
                    {"group_id": "checkout-service-1", "id": "HighRequestLatency"}, {"group_id": "frontend-service-1", "id": "HighRequestErrorRate"}],
                   ["delete NetworkChaos chaos-mesh/currency-latency"])
    return inc


# ---------------- 10: JVM heap leak in ad (GC thrash, no OOMKill)
@incident
def s10():
    inc = Incident(10, "ad-gc-leak", T("2026-11-05 13:00:00"), 110, minutes=50, fault_min=14, step=60)
    inc.alert_envelope, inc.obj_encoding, inc.metric_cols = "alerts", "csv", "wide"
    inc.alert_snapshots = 4
    tf = inc.tf
    pod = inc.pods["ad"]
    mx = 268435456

    def heap(t):
        if t < tf:
            return int(mx * (0.41 + 0.04 * ((t - inc.t0).total_seconds() % 300) / 300))
        k = min(1.0, (t - tf).total_seconds() / 1500.0)
        return int(mx * (0.55 + 0.43 * k))

    def gcs(t):
        base = (t - inc.t0).total_seconds() * 0.004
        if t >= tf:
            x = (t - tf).total_seconds()
            base += 0.0004 * x * x / 60.0
        return round(base, 3)
    inc.pod_metrics[pod] = {"jvm_memory_used_bytes": heap, "jvm_memory_limit_bytes": lambda t: mx,
                            "jvm_gc_duration_seconds_sum": gcs,
                            "container_memory_working_set_bytes": lambda t: int(heap(t) * 1.05 + 92 * 2 ** 20)}
    inc.effect("ad", 3.0, lat=160.0, err=0.28, ramp=14.0, own=True)
    inc.effect("frontend", 3.0, err=0.12, lat=1.6, ramp=14.0)
    inc.effect("frontend-proxy", 3.0, err=0.1, lat=1.5, ramp=14.0)

    def adep(t, o):
        container(o)["env"][-1]["value"] = "-javaagent:/usr/src/app/opentelemetry-javaagent.jar -Xmx256m -XX:+UseG1GC"
    inc.obj_overrides["ad"] = adep
    r = inc.rng
    t = inc.at(4)
    n = 0
    while t < inc.te:
        n += 1
        p = 0.2 + min(1.0, (t - tf).total_seconds() / 1500.0) * 2.6
        inc.log(t, "ad", "WARN", "[gc] GC(%d) Pause Full (G1 Compaction Pause) %dM->%dM(256M) %.3fms" %
                (4100 + n, int(245 + 8 * r.random()), int(238 + 8 * r.random()), p * 1000))
        if (t - tf).total_seconds() > 600 and r.random() < 0.6:
            inc.log(t + dt.timedelta(seconds=2), "ad", "WARN",
                    "io.grpc.netty.shaded.io.grpc.netty.NettyServerHandler: Stream Error: DEADLINE_EXCEEDED while serving oteldemo.AdService/GetAds")
            inc.log(t + dt.timedelta(seconds=3), "frontend", "ERROR", "Error: 4 DEADLINE_EXCEEDED: Deadline exceeded after 2.999s",
                    **{"rpc.service": "oteldemo.AdService"})
        t += dt.timedelta(seconds=max(6, 60 - n * 2))
    add_noise(inc, ["lg-restart", "flagd-ui-restart", "collector-warn"])
    base_alert_err(inc, "frontend", 12, 0.12)
    base_alert_lat(inc, "frontend-proxy", 13, 720)
    inc.alert("JvmMemoryFillingUp", "warning", {"service_name": "ad", "area": "heap"}, inc.at(16), 0.93,
              "JVM memory filling up", "JVM heap usage of ad is above 90%")
    groups = [dep_grp("ad", rc=True), pod_grp("ad"), svc_grp("ad"), svc_grp("frontend"), svc_grp("frontend-proxy")]
    inc.gt = mk_gt(groups, [["ad-deployment-1", "ad-pod-1", "ad-service-1"]],
                   [prop("ad-pod-1", "ad-service-1", "heap grows to ~98% of -Xmx256m; continuous Full GC pauses", "GetAds latency in seconds, deadline errors"),
                    prop("ad-service-1", "frontend-service-1", "GetAds slow/failing", "frontend error rate and latency rise"),
                    prop("frontend-service-1", "frontend-proxy-service-1", "slow frontend", "frontend-proxy latency rises")],
                   [{"category": "Resource", "condition": "JVM heap leak causes GC thrash without OOMKill",
                     "entity": {"group_id": "ad-deployment-1", "kind": "Deployment", "name": "ad"},
                     "fault_mechanism": "memory-leak"}],
                   [{"group_id": "frontend-service-1", "id": "HighRequestErrorRate"}, {"group_id": "frontend-proxy-service-1", "id": "HighRequestLatency"},
                    {"group_id": "ad-service-1", "id": "JvmMemoryFillingUp"}],
                   ["restart ad to release heap, capture a heap dump, fix the leak"])
    return inc


# ---------------- 11: wrong container command for email (CrashLoopBackOff), impact hidden by checkout
@incident
def s11():
    inc = Incident(11, "email-command", T("2026-11-09 08:20:00"), 111, minutes=36, fault_min=15, step=30)
    inc.alert_envelope, inc.obj_encoding, inc.log_attr_style = "am", "double", "py"
    tf = inc.tf
    newp = rollout(inc, "email", tf + dt.timedelta(seconds=4), old_end=tf + dt.timedelta(seconds=1))
    crashes = [tf + dt.timedelta(seconds=s) for s in (9, 22, 48, 95, 180, 345, 650, 955, 1260)]
    inc.restarts[newp] = crashes[1:]
    inc.notready[newp] = [(tf, None)]

    def em(t, o):
        o["spec"]["strategy"] = {"type": "Recreate"}
        if t >= tf:
            set_rev(o, 5)
            container(o)["command"] = ["bundle", "exec", "ruby", "server.rb"]
            o["status"] = {"replicas": 1, "unavailableReplicas": 1, "updatedReplicas": 1, "observedGeneration": 5,
                           "conditions": [{"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable"}]}
        else:
            set_rev(o, 4)
    inc.obj_overrides["email"] = em

    def epod(t, o):
        if o["metadata"]["name"] == newp:
            o["spec"]["containers"][0]["command"] = ["bundle", "exec", "ruby", "server.rb"]
            n = len([c for c in crashes if c <= t])
            o["status"]["containerStatuses"][0].update({
                "restartCount": max(0, n - 1),
                "lastState": {"terminated": {"exitCode": 1, "reason": "Error"}},
                "state": {"waiting": {"reason": "CrashLoopBackOff",
                                      "message": "back-off 5m0s restarting failed container=email pod=%s_otel-demo(%s)" % (newp, uid_of(inc, newp))}}})
    inc.obj_overrides["pod:email"] = epod
    for i, c in enumerate(crashes):
        inc.log(c, "email", "FATAL", "ruby: No such file or directory -- server.rb (LoadError)", pod=newp,
                **{"log.iostream": "stderr"})
        if i >= 1:
            inc.event(c + dt.timedelta(seconds=1), "Pod", newp, "BackOff",
                      "Back-off restarting failed container email in pod %s_%s(%s)" % (newp, NS, uid_of(inc, newp)), count=i, first=crashes[1])
    inc.effect("email", 0.1, down=True, msg='Post "http://email:8080/send_order_confirmation": dial tcp 10.43.88.120:8080: connect: connection refused')
    r = inc.rng
    t = inc.at(0.5)
    while t < inc.te:
        inc.log(t, "checkout", "WARN", 'failed to send order confirmation to "%s@example.com": Post "http://email:8080/send_order_confirmation": '
                'dial tcp 10.43.88.120:8080: connect: connection refused' % h(str(t), 6, "abcdefghijklmnop"))
        t += dt.timedelta(seconds=r.randint(40, 110))
    add_noise(inc, ["lg-restart", "hpa-warn", "image-provider-probe", "cpu-throttle-alert"])
    inc.alert("KubePodCrashLooping", "warning", {"pod": newp, "container": "email"}, inc.at(4), 1,
              "Pod is crash looping.", "Pod otel-demo/%s (email) is in waiting state (reason: \"CrashLoopBackOff\")." % newp)
    no_req(inc, "email", 3)
    # unrelated: a latency blip on recommendation earlier
    inc.effect("recommendation", 1.0, lat=3.0, end_min=5.0, own=True)
    inc.alert("HighRequestLatency", "warning", {"service_name": "recommendation"}, inc.at(1.5), 540,
              "Latency is above threshold for recommendation service", until=inc.at(12))
    groups = [dep_grp("email", rc=True), pod_grp("email"), svc_grp("email"), svc_grp("checkout")]
    inc.gt = mk_gt(groups, [["email-deployment-1", "email-pod-1", "email-service-1"]],
                   [prop("email-deployment-1", "email-pod-1", "container command overridden to ruby server.rb (file does not exist)",
                         "email container exits 1, CrashLoopBackOff"),
                    prop("email-pod-1", "email-service-1", "no running email pod", "email has no endpoints"),
                    prop("email-service-1", "checkout-service-1", "confirmation mail refused", "checkout logs warnings; orders still succeed")],
                   [{"category": "Configuration", "condition": "wrong container command",
                     "entity": {"group_id": "email-deployment-1", "kind": "Deployment", "name": "email"},
                     "fault_mechanism": "wrong-command"}],
                   [{"group_id": "email-pod-1", "id": "KubePodCrashLooping"}, {"group_id": "email-service-1", "id": "NoRequestsReceived"}],
                   ["remove the command override of email (image runs email_server.rb)"])
    return inc


# ---------------- 12: valkey-cart maxmemory 2mb with noeviction
@incident
def s12():
    inc = Incident(12, "valkey-maxmem", T("2026-11-12 17:45:00"), 112, minutes=40, fault_min=15, step=30)
    inc.alert_envelope, inc.obj_encoding, inc.metric_cols = "list", "plain", "wide"
    inc.status_style = "long"
    tf = inc.tf
    newp = rollout(inc, "valkey-cart", tf, old_end=tf + dt.timedelta(seconds=8))
    full = tf + dt.timedelta(minutes=3.5)

    def vk(t, o):
        if t >= tf:
            set_rev(o, 2)
            container(o)["args"] = ["--maxmemory", "2mb", "--maxmemory-policy", "noeviction", "--save", ""]
        else:
            container(o)["args"] = ["--save", ""]
    inc.obj_overrides["valkey-cart"] = vk
    inc.pod_metrics[newp] = {"redis_memory_used_bytes": lambda t: min(2097152 + 4096, int(900000 + (t - tf).total_seconds() * 6200)),
                             "redis_memory_max_bytes": lambda t: 2097152,
                             "redis_commands_rejected_total": lambda t: max(0, int((t - full).total_seconds() * 2.6))}
    inc.pod_metrics[inc.pods["valkey-cart"]] = {"redis_memory_used_bytes": lambda t: int(3.1e6 + (t - inc.t0).total_seconds() * 30),
                                                "redis_memory_max_bytes": lambda t: 0}
    inc.effect("valkey-cart", 3.5, err=0.97, ops={"HSET"}, msg="OOM command not allowed when used memory > 'maxmemory'.")
    inc.effect("cart", 3.5, err=0.42)
    inc.effect("frontend", 3.5, err=0.11)
    inc.effect("checkout", 3.5, err=0.05)
    r = inc.rng
    t = full + dt.timedelta(seconds=3)
    while t < inc.te:
        inc.log(t, "cart", "Error", "Error: Can't access cart storage. StackExchange.Redis.RedisServerException: OOM command not allowed "
                "when used memory > 'maxmemory'. at Cart.cartstore.ValkeyCartStore.AddItemAsync(String userId, String productId, Int32 quantity)")
        inc.log(t + dt.timedelta(milliseconds=30), "frontend", "ERROR",
                "Error: 9 FAILED_PRECONDITION: Can't access cart storage. StackExchange.Redis.RedisServerException: OOM command not allowed when used memory > 'maxmemory'.")
        t += dt.timedelta(seconds=r.randint(6, 20))
    add_noise(inc, ["flagd-ui-restart", "collector-warn", "kafka-rebalance"])
    base_alert_err(inc, "cart", 5, 0.42, sev="critical")
    base_alert_err(inc, "frontend", 5.5, 0.11)
    base_alert_err(inc, "frontend-proxy", 6, 0.1)
    groups = [dep_grp("valkey-cart", rc=True), pod_grp("valkey-cart"), svc_grp("valkey-cart"), svc_grp("cart"), pod_grp("cart"),
              svc_grp("frontend"), svc_grp("frontend-proxy"), svc_grp("checkout")]
    inc.gt = mk_gt(groups, [["valkey-cart-deployment-1", "valkey-cart-pod-1", "valkey-cart-service-1"], ["cart-service-1", "cart-pod-1"]],
                   [prop("valkey-cart-deployment-1", "valkey-cart-pod-1", "valkey started with --maxmemory 2mb --maxmemory-policy noeviction",
                         "memory reaches the cap within minutes; writes rejected with OOM command not allowed"),
                    prop("valkey-cart-pod-1", "cart-service-1", "HSET rejected", "AddItem fails"),
                    prop("cart-service-1", "frontend-service-1", "add to cart fails", "frontend error rate rises"),
                    prop("frontend-service-1", "frontend-proxy-service-1", "frontend 5xx", "frontend-proxy error rate rises")],
                   [{"category": "Configuration", "condition": "valkey maxmemory far too small with noeviction",
                     "entity": {"group_id": "valkey-cart-deployment-1", "kind": "Deployment", "name": "valkey-cart"},
                     "fault_mechanism": "cache-maxmemory"}],
                   [{"group_id": "cart-service-1", "id": "HighRequestErrorRate"}, {"group_id": "frontend-service-1", "id": "HighRequestErrorRate"},
                    {"group_id": "frontend-proxy-service-1", "id": "HighRequestErrorRate"}],
                   ["remove --maxmemory 2mb / use allkeys-lru on valkey-cart"])
    return inc


# ---------------- 13: postgresql max_connections lowered through its ConfigMap
@incident
def s13():
    inc = Incident(13, "pg-maxconn", T("2026-11-16 04:10:00"), 113, minutes=40, fault_min=16, step=30)
    inc.alert_envelope, inc.obj_encoding, inc.ts_prec = "data", "double", 6
    tf = inc.tf
    chg = tf - dt.timedelta(minutes=2)
    newp = rollout(inc, "postgresql", tf, old_end=tf + dt.timedelta(seconds=6))

    def cm(t):
        mc = "5" if t >= chg else "100"
        return {"apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": "postgresql-config", "namespace": NS, "labels": {"opentelemetry.io/name": "postgresql"}},
                "data": {"postgresql.conf": "listen_addresses = '*'\nmax_connections = %s\nsuperuser_reserved_connections = 3\n"
                                            "shared_buffers = 128MB\nlog_connections = on\n" % mc}}
    inc.extra_objects.append((inc.t0, None, cm))

    def pg(t, o):
        o["spec"]["strategy"] = {"type": "Recreate"}
        o["spec"]["template"]["spec"]["volumes"] = [{"name": "config", "configMap": {"name": "postgresql-config"}}]
        container(o)["args"] = ["-c", "config_file=/etc/postgresql/postgresql.conf"]
        if t >= tf:
            set_rev(o, 3)
            o["spec"]["template"]["metadata"]["annotations"] = {"kubectl.kubernetes.io/restartedAt": iso(tf)}
        else:
            set_rev(o, 2)
    inc.obj_overrides["postgresql"] = pg
    inc.effect("product-reviews", 0.5, err=0.64, lat=1.3)
    inc.effect("accounting", 0.5, err=0.48)
    inc.effect("frontend", 0.5, err=0.04)
    r = inc.rng
    t = inc.at(0.4)
    while t < inc.te:
        inc.log(t, "postgresql", "FATAL", "FATAL:  sorry, too many clients already", pod=newp)
        if r.random() < 0.6:
            inc.log(t + dt.timedelta(milliseconds=12), "product-reviews", "ERROR",
                    'psycopg2.OperationalError: connection to server at "postgresql" (10.43.112.9), port 5432 failed: FATAL:  sorry, too many clients already')
        else:
            inc.log(t + dt.timedelta(milliseconds=15), "accounting", "Error",
                    "Npgsql.PostgresException (0x80004005): 53300: sorry, too many clients already")
        t += dt.timedelta(seconds=r.randint(5, 25))
    inc.log(tf + dt.timedelta(seconds=9), "postgresql", "INFO", "LOG:  database system is ready to accept connections", pod=newp)
    add_noise(inc, ["lg-restart", "ad-gc-info", "image-provider-probe"])
    base_alert_err(inc, "product-reviews", 1.5, 0.64, sev="critical")
    base_alert_err(inc, "accounting", 2, 0.48)
    inc.alert("PostgresqlTooManyConnections", "warning", {"service_name": "postgresql", "instance": "postgresql:9187"}, inc.at(2.5), 0.98,
              "PostgreSQL instance has too many connections (> 80%)")
    inc.pod_metrics[newp] = {"pg_stat_database_numbackends": lambda t: 2, "pg_settings_max_connections": lambda t: 5}
    inc.pod_metrics[inc.pods["postgresql"]] = {"pg_stat_database_numbackends": lambda t: 11, "pg_settings_max_connections": lambda t: 100}
    groups = [{"id": "postgresql-config-cm-1", "kind": "ConfigMap", "namespace": NS, "name": "postgresql-config",
               "filter": ["^postgresql-config$"], "root_cause": True},
              dep_grp("postgresql"), pod_grp("postgresql"), svc_grp("postgresql"), svc_grp("product-reviews"), svc_grp("accounting"),
              svc_grp("frontend")]
    inc.gt = mk_gt(groups, [["postgresql-deployment-1", "postgresql-pod-1", "postgresql-service-1"]],
                   [prop("postgresql-config-cm-1", "postgresql-pod-1", "max_connections lowered from 100 to 5 (3 reserved) and postgresql restarted",
                         "postgresql rejects connections: too many clients"),
                    prop("postgresql-pod-1", "product-reviews-service-1", "connections rejected", "product-reviews errors"),
                    prop("postgresql-pod-1", "accounting-service-1", "connections rejected", "accounting fails to store orders"),
                    prop("product-reviews-service-1", "frontend-service-1", "review calls fail", "frontend errors")],
                   [{"category": "Configuration", "condition": "database max_connections too low",
                     "entity": {"group_id": "postgresql-config-cm-1", "kind": "ConfigMap", "name": "postgresql-config"},
                     "fault_mechanism": "db-max-connections"}],
                   [{"group_id": "product-reviews-service-1", "id": "HighRequestErrorRate"}, {"group_id": "accounting-service-1", "id": "HighRequestErrorRate"},
                    {"group_id": "postgresql-service-1", "id": "PostgresqlTooManyConnections"}],
                   ["restore max_connections = 100 in ConfigMap postgresql-config and restart postgresql"])
    return inc


# ---------------- 14: fraud-detection consumer stalled by max.poll.interval.ms far too low (rebalance loop)
@incident
def s14():
    inc = Incident(14, "fraud-poll", T("2026-11-20 22:05:00"), 114, minutes=44, fault_min=15, step=60)
    inc.alert_envelope, inc.obj_encoding, inc.metric_cols, inc.traces_per_min = "alerts", "plain", "basic", 11
    inc.log_attr_style = "py"
    tf = inc.tf
    newp = rollout(inc, "fraud-detection", tf, old_end=tf + dt.timedelta(seconds=50))

    def fd(t, o):
        if t >= tf:
            set_rev(o, 3)
            container(o)["env"] += [{"name": "KAFKA_MAX_POLL_INTERVAL_MS", "value": "5000"},
                                    {"name": "KAFKA_MAX_POLL_RECORDS", "value": "500"}]
        else:
            set_rev(o, 2)
            container(o)["env"] += [{"name": "KAFKA_MAX_POLL_RECORDS", "value": "500"}]
    inc.obj_overrides["fraud-detection"] = fd
    lagf = lambda t: 4 if t < tf + dt.timedelta(minutes=1) else int(4 + (t - tf).total_seconds() * 0.55)
    inc.pod_metrics[newp] = {"kafka_consumer_records_lag_max": lagf,
                             "kafka_consumer_coordinator_rebalance_total": lambda t: max(0, int((t - tf).total_seconds() / 21))}
    inc.pod_metrics[inc.pods["kafka"]] = {"kafka_consumergroup_lag": lambda t: 3 + (lagf(t) if t >= tf else 0)}
    inc.effect("fraud-detection", 1.0, rate=0.08)
    r = inc.rng
    t = inc.at(1.2)
    gen = 9
    while t < inc.te:
        gen += 1
        inc.log(t, "fraud-detection", "WARN",
                "[Consumer clientId=consumer-fraud-detection-1, groupId=fraud-detection] consumer poll timeout has expired. This means the "
                "time between subsequent calls to poll() was longer than the configured max.poll.interval.ms, which typically implies that "
                "the poll loop is spending too much time processing messages. You can address this either by increasing "
                "max.poll.interval.ms or by reducing the maximum size of batches returned in poll() with max.poll.records.", pod=newp)
        inc.log(t + dt.timedelta(milliseconds=4), "fraud-detection", "INFO",
                "[Consumer clientId=consumer-fraud-detection-1, groupId=fraud-detection] Member consumer-fraud-detection-1-%s sending "
                "LeaveGroup request to coordinator kafka:9092 (id: 2147483646 rack: null) due to consumer poll timeout has expired."
                % h(str(gen), 8, "0123456789abcdef"), pod=newp)
        inc.log(t + dt.timedelta(seconds=3), "fraud-detection", "ERROR",
                "org.apache.kafka.clients.consumer.CommitFailedException: Offset commit cannot be completed since the consumer is not "
                "part of an active group for auto partition assignment; it is likely that the consumer was kicked out of the group.", pod=newp)
        inc.log(t + dt.timedelta(seconds=9), "fraud-detection", "INFO",
                "[Consumer clientId=consumer-fraud-detection-1, groupId=fraud-detection] Successfully joined group with generation "
                "Generation{generationId=%d, memberId='consumer-fraud-detection-1-%s', protocol='range'}" % (gen + 1, h(str(gen + 1), 8, "0123456789abcdef")), pod=newp)
        t += dt.timedelta(seconds=r.randint(17, 26))
    add_noise(inc, ["lg-restart", "image-provider-probe", "collector-warn", "cpu-throttle-alert"])
    # unrelated: accounting pod restarted by a node-level container runtime hiccup long before
    ap = inc.pods["accounting"]
    ta = inc.t0 + dt.timedelta(minutes=4)
    inc.restarts[ap] = [ta]
    inc.event(ta, "Pod", ap, "SandboxChanged", "Pod sandbox changed, it will be killed and re-created.", etype="Normal")
    inc.event(ta + dt.timedelta(seconds=6), "Pod", ap, "Started", "Started container accounting", etype="Normal")
    inc.alert("KafkaConsumerGroupLagHigh", "warning", {"consumergroup": "fraud-detection", "topic": "orders", "service_name": "fraud-detection"},
              inc.at(5), 330, "Kafka consumer group fraud-detection lag is growing")
    no_req(inc, "fraud-detection", 6)
    inc.alert("KafkaConsumerGroupRebalancing", "info", {"consumergroup": "fraud-detection", "service_name": "kafka"}, inc.at(3), 1,
              "Consumer group fraud-detection is rebalancing frequently")
    groups = [dep_grp("fraud-detection", rc=True), pod_grp("fraud-detection"), svc_grp("fraud-detection"), svc_grp("kafka"), pod_grp("kafka")]
    inc.gt = mk_gt(groups, [["fraud-detection-deployment-1", "fraud-detection-pod-1", "fraud-detection-service-1"], ["kafka-service-1", "kafka-pod-1"]],
                   [prop("fraud-detection-deployment-1", "fraud-detection-pod-1", "KAFKA_MAX_POLL_INTERVAL_MS=5000 with 500 records per poll",
                         "consumer exceeds max.poll.interval, leaves the group, rejoins, cannot commit"),
                    prop("fraud-detection-pod-1", "kafka-service-1", "rebalance loop on group fraud-detection", "consumer group lag on orders grows"),
                    prop("fraud-detection-pod-1", "fraud-detection-service-1", "consumer stalled", "no orders analysed")],
                   [{"category": "Configuration", "condition": "Kafka consumer max.poll.interval.ms far too low",
                     "entity": {"group_id": "fraud-detection-deployment-1", "kind": "Deployment", "name": "fraud-detection"},
                     "fault_mechanism": "kafka-consumer-stalled"}],
                   [{"group_id": "fraud-detection-service-1", "id": "KafkaConsumerGroupLagHigh"}, {"group_id": "fraud-detection-service-1", "id": "NoRequestsReceived"},
                    {"group_id": "kafka-service-1", "id": "KafkaConsumerGroupRebalancing"}],
                   ["remove KAFKA_MAX_POLL_INTERVAL_MS (default 300000) from fraud-detection"])
    return inc


# ---------------------------------------------------------------- main
LOG_HDR = ["Timestamp", "TraceId", "SpanId", "SeverityText", "SeverityNumber", "ServiceName", "Body",
           "ResourceAttributes", "LogAttributes"]
TRACE_HDR = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
             "ResourceAttributes", "SpanAttributes", "Duration", "StatusCode", "StatusMessage"]


def build(out):
    os.makedirs(out, exist_ok=True)
    for fn in INCIDENTS:
        inc = fn()
        d = os.path.join(out, "Scenario-%d" % inc.num)
        if os.path.isdir(d):
            shutil.rmtree(d)
        os.makedirs(os.path.join(d, "alerts"), exist_ok=True)
        os.makedirs(os.path.join(d, "metrics"), exist_ok=True)
        gen_alerts(inc, os.path.join(d, "alerts"))
        gen_metrics(inc, os.path.join(d, "metrics"))
        write_tsv(os.path.join(d, "k8s_events_raw.tsv"), LOG_HDR, gen_events(inc), inc.ev_encoding)
        write_tsv(os.path.join(d, "k8s_objects_raw.tsv"), LOG_HDR, gen_objects(inc),
                  "plain" if inc.obj_encoding in ("plain", "double") else "csv")
        write_tsv(os.path.join(d, "otel_logs_raw.tsv"), LOG_HDR, gen_logs(inc), "csv" if inc.num % 2 else "plain")
        write_tsv(os.path.join(d, "otel_traces_raw.tsv"), TRACE_HDR, gen_traces(inc), "plain" if inc.num % 3 else "csv")
        write_gt(inc, os.path.join(d, "ground_truth.yaml"))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python gen.py OUT")
    build(sys.argv[1])
