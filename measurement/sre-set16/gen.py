#!/usr/bin/env python3
"""sre-set16: held-out SRE incident snapshots (ITBench-Lite v0.2 layout), stdlib only.

python gen.py OUT  -> OUT/Scenario-<N>/{alerts/,metrics/,k8s_events_raw.tsv,k8s_objects_raw.tsv,
                      otel_logs_raw.tsv,otel_traces_raw.tsv,ground_truth.yaml}
Deterministic: every random choice comes from a seeded random.Random; no clock, no network.
"""
import csv
import hashlib
import io
import json
import os
import random
import sys
from datetime import datetime, timezone

NS = "otel-demo"


# ----------------------------------------------------------------------------- helpers
def h(s, n=10):
    return hashlib.sha1(s.encode()).hexdigest()[:n]


def podname(dep, rs="a", idx=0):
    alphabet = "bcdfghjklmnpqrstvwxz2456789"
    hh = hashlib.sha1(f"{dep}/{rs}/{idx}".encode()).digest()
    rsh = "".join(alphabet[b % len(alphabet)] for b in hh[:9])[:9 if len(dep) < 14 else 8]
    suf = "".join(alphabet[b % len(alphabet)] for b in hh[9:14])
    return f"{dep}-{rsh}-{suf}"


def iso(t, frac=6, z=True):
    d = datetime.fromtimestamp(t, tz=timezone.utc)
    s = d.strftime("%Y-%m-%dT%H:%M:%S")
    if frac:
        us = int(round((t - int(t)) * 1_000_000))
        s += "." + f"{us:06d}"[:frac]
    return s + ("Z" if z else "")


def chts(t):
    """ClickHouse DateTime64(9) text."""
    d = datetime.fromtimestamp(int(t), tz=timezone.utc)
    ns = int(round((t - int(t)) * 1e9))
    return d.strftime("%Y-%m-%d %H:%M:%S") + f".{ns:09d}"


def fname_ts(t):
    d = datetime.fromtimestamp(int(t), tz=timezone.utc)
    return d.strftime("%Y-%m-%dT%H-%M-%S") + ".000000"


def yaml_dump(o, ind=0):
    pad = "  " * ind
    out = []
    if isinstance(o, dict):
        for k, v in o.items():
            if isinstance(v, (dict, list)) and v:
                out.append(f"{pad}{k}:")
                out.append(yaml_dump(v, ind + 1))
            else:
                out.append(f"{pad}{k}: {yscalar(v)}")
    elif isinstance(o, list):
        for v in o:
            if isinstance(v, dict) and v:
                sub = yaml_dump(v, ind + 1).split("\n")
                out.append(f"{pad}- " + sub[0].lstrip())
                out.extend(sub[1:])
            elif isinstance(v, list) and v:
                sub = yaml_dump(v, ind + 1).split("\n")
                out.append(f"{pad}- " + sub[0].lstrip())
                out.extend(sub[1:])
            else:
                out.append(f"{pad}- {yscalar(v)}")
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
    if v == {}:
        return "{}"
    if v == []:
        return "[]"
    import re
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9._\\*/()+ -]*", v) and v.lower() not in ("true", "false", "null", "yes", "no", "on", "off") \
            and not v.endswith(" ") and ": " not in v and " #" not in v:
        return v
    return json.dumps(v)


# ----------------------------------------------------------------------------- topology
# OpenTelemetry demo call graph (caller -> callee, rpc/span name)
OTEL_FLOWS = {
    "browse": ("frontend-proxy", "ingress GET /api/products", [
        ("frontend", "GET /api/products", [
            ("product-catalog", "oteldemo.ProductCatalogService/ListProducts", []),
            ("currency", "Currency/Convert", []),
        ])]),
    "product": ("frontend-proxy", "ingress GET /api/products/{id}", [
        ("frontend", "GET /api/products/[productId]", [
            ("product-catalog", "oteldemo.ProductCatalogService/GetProduct", []),
            ("recommendation", "/oteldemo.RecommendationService/ListRecommendations", [
                ("product-catalog", "oteldemo.ProductCatalogService/ListProducts", [])]),
            ("ad", "oteldemo.AdService/GetAds", []),
            ("product-reviews", "oteldemo.ProductReviewService/GetProductReviews", [
                ("postgresql", "SELECT reviews", [])]),
        ])]),
    "cart": ("frontend-proxy", "ingress POST /api/cart", [
        ("frontend", "POST /api/cart", [
            ("cart", "POST /oteldemo.CartService/AddItem", [
                ("valkey-cart", "HGET", []), ("valkey-cart", "HMSET", [])]),
        ])]),
    "checkout": ("frontend-proxy", "ingress POST /api/checkout", [
        ("frontend", "POST /api/checkout", [
            ("checkout", "oteldemo.CheckoutService/PlaceOrder", [
                ("cart", "POST /oteldemo.CartService/GetCart", [("valkey-cart", "HGET", [])]),
                ("product-catalog", "oteldemo.ProductCatalogService/GetProduct", []),
                ("currency", "Currency/Convert", []),
                ("shipping", "oteldemo.ShippingService/GetQuote", [("quote", "POST /getquote", [])]),
                ("payment", "oteldemo.PaymentService/Charge", []),
                ("shipping", "oteldemo.ShippingService/ShipOrder", []),
                ("email", "POST /send_order_confirmation", []),
                ("cart", "POST /oteldemo.CartService/EmptyCart", [("valkey-cart", "DEL", [])]),
                ("kafka", "orders publish", [
                    ("accounting", "orders receive", [("postgresql", "INSERT otel.orders", [])]),
                    ("fraud-detection", "orders receive", []),
                ]),
            ])])]),
    "shipping": ("frontend-proxy", "ingress GET /api/shipping", [
        ("frontend", "GET /api/shipping", [
            ("shipping", "oteldemo.ShippingService/GetQuote", [("quote", "POST /getquote", [])]),
        ])]),
}
BOOKINFO_FLOWS = {
    "page": ("istio-ingressgateway", "productpage.book-info.svc.cluster.local:9080/productpage", [
        ("productpage", "GET /productpage", [
            ("details", "GET /details/0", []),
            ("reviews", "GET /reviews/0", [("ratings", "GET /ratings/0", [])]),
        ])]),
}
LANG = {"frontend": "nodejs", "frontend-proxy": "cpp", "product-catalog": "go", "currency": "cpp",
        "recommendation": "python", "ad": "java", "product-reviews": "python", "cart": "dotnet",
        "checkout": "go", "shipping": "rust", "quote": "php", "payment": "nodejs", "email": "ruby",
        "kafka": "java", "accounting": "dotnet", "fraud-detection": "java", "valkey-cart": "",
        "postgresql": "", "productpage": "python", "details": "ruby", "reviews": "java",
        "ratings": "nodejs", "istio-ingressgateway": "cpp"}
SPAN_KIND = {"frontend-proxy": "Server", "istio-ingressgateway": "Server"}


class Snap:
    def __init__(self, num, seed, t0, minutes=40, ns=NS, flows=None, style=None):
        self.num = num
        self.r = random.Random(seed)
        self.t0 = t0
        self.t1 = t0 + minutes * 60
        self.ns = ns
        self.flows = flows if flows is not None else OTEL_FLOWS
        self.style = style or {}
        self.events, self.objects, self.logs, self.spans = [], [], [], []
        self.metrics = {}
        self.alert_files = []
        self.fail = {}          # svc -> list of (start, end, dict(err=msg, lat=ms, drop=bool))
        self.pods = {}          # svc -> pod name (current)
        self.pod_switch = {}    # svc -> list of (t, podname)
        self.gt = None
        self.extra_pod_ns = {}

    # -- identities
    def pod(self, svc, t=None):
        if svc in self.pod_switch and t is not None:
            cur = self.pods.get(svc) or podname(svc)
            for (ts, p) in self.pod_switch[svc]:
                if t >= ts:
                    cur = p
            return cur
        return self.pods.get(svc) or podname(svc)

    def resattrs(self, svc, t=None, ns=None):
        ra = {"service.name": svc, "k8s.namespace.name": ns or self.ns,
              "k8s.pod.name": self.pod(svc, t), "k8s.deployment.name": svc,
              "k8s.node.name": "ip-10-0-%d-%d.ec2.internal" % (1 + len(svc) % 3, 20 + len(svc) * 3 % 200)}
        if LANG.get(svc):
            ra["telemetry.sdk.language"] = LANG[svc]
        return ra

    # -- events
    def ev(self, t, kind, name, reason, msg, etype="Normal", ns=None, count=1, comp="kubelet",
           host=None, api=None, watch="ADDED", first=None):
        ns = ns or self.ns
        api = api or self.style.get("events_api", "v1")
        uid = h(f"{kind}{name}{reason}{t}", 8) + "-" + h(msg, 4) + "-4" + h(name, 3) + "-a" + h(reason, 3) + "-" + h(str(t) + msg, 12)
        ename = f"{name}.{h(reason + name + str(int(t)), 16)}"
        if api == "events.k8s.io/v1":
            o = {"apiVersion": "events.k8s.io/v1", "kind": "Event",
                 "metadata": {"name": ename, "namespace": ns, "uid": uid,
                              "resourceVersion": str(100000 + int(t) % 900000),
                              "creationTimestamp": iso(first or t, 0)},
                 "regarding": {"kind": kind, "name": name, "namespace": ns,
                               "apiVersion": "apps/v1" if kind in ("Deployment", "ReplicaSet", "StatefulSet") else "v1"},
                 "reason": reason, "note": msg, "type": etype,
                 "eventTime": iso(t, 6),
                 "reportingController": {"kubelet": "kubelet", "default-scheduler": "default-scheduler"}.get(comp, comp),
                 "reportingInstance": host or comp, "action": reason}
            if count > 1:
                o["series"] = {"count": count, "lastObservedTime": iso(t, 6)}
                o["deprecatedCount"] = count
            if kind == "Node":
                o["regarding"].pop("namespace")
        else:
            o = {"kind": "Event", "apiVersion": "v1",
                 "metadata": {"name": ename, "namespace": ns, "uid": uid,
                              "resourceVersion": str(100000 + int(t) % 900000),
                              "creationTimestamp": iso(first or t, 0)},
                 "involvedObject": {"kind": kind, "namespace": ns, "name": name,
                                    "apiVersion": "apps/v1" if kind in ("Deployment", "ReplicaSet", "StatefulSet") else "v1"},
                 "reason": reason, "message": msg,
                 "source": {"component": comp, **({"host": host} if host else {})},
                 "firstTimestamp": iso(first or t, 0, True), "lastTimestamp": iso(t, 0, True),
                 "count": count, "type": etype, "eventTime": None,
                 "reportingComponent": comp if comp != "kubelet" else "", "reportingInstance": host or ""}
            if kind == "Node":
                o["involvedObject"].pop("namespace")
        self.events.append((t, {"object": o, "type": watch}))

    # -- objects
    def obj(self, t, o, watch=None):
        self.objects.append((t, o, watch))

    # -- logs
    def log(self, t, svc, sev, body, trace="", span="", attrs=None, ns=None):
        self.logs.append((t, trace, span, sev, svc, body, self.resattrs(svc, t, ns), attrs or {}))

    # -- failures
    def failing(self, svc, t):
        for (a, b, m) in self.fail.get(svc, []):
            if a <= t < b:
                return m
        return None

    # -- traffic
    def traffic(self, every=20, mix=None, ns=None, log_every=4):
        mix = mix or list(self.flows)
        t = self.t0 + self.r.uniform(0, 5)
        i = 0
        while t < self.t1:
            fl = mix[i % len(mix)]
            i += 1
            self._trace(t, self.flows[fl], ns, log_every)
            t += every * self.r.uniform(0.6, 1.4)

    def _trace(self, t, root, ns, log_every):
        tid = h(f"trace{self.num}{t}", 32)
        drop_root = self.style.get("orphan_roots") and self.r.random() < 0.3
        self._span(t, tid, "" if not drop_root else h(f"p{t}", 16), root, ns, log_every, depth=0)

    def _span(self, t, tid, parent, node, ns, log_every, depth):
        svc, name, kids = node
        sid = h(f"{tid}{svc}{name}{t}{depth}", 16)
        m = self.failing(svc, t)
        base = {"frontend-proxy": 3, "frontend": 8, "checkout": 15, "kafka": 2}.get(svc, 4) * self.r.uniform(0.7, 1.5)
        dur = base
        err, msg = False, ""
        cursor = t + 0.0005
        child_err = None
        if m and m.get("drop"):
            return ("unavailable", m.get("err", "14 UNAVAILABLE: No connection established"), 0)
        for k in kids:
            res = self._span(cursor, tid, sid, k, ns, log_every, depth + 1)
            if res is None:
                continue
            st, cm, cd = res
            if st == "unavailable" and k[0] not in ("accounting", "fraud-detection"):
                cd = self.r.uniform(1, 4) if not (self.failing(k[0], cursor) or {}).get("timeout") else 3000 + self.r.uniform(0, 50)
                csid = h(f"{tid}{svc}{k[0]}{cursor}c", 16)
                self.spans.append((cursor, tid, csid, sid, k[1], "Client", svc, self.resattrs(svc, cursor, ns),
                                   {"peer.service": k[0], "net.peer.name": k[0]}, int(cd * 1e6), "Error", cm))
            cursor += cd / 1000.0
            dur += cd
            if st in ("error", "unavailable") and k[0] not in ("accounting", "fraud-detection"):
                if child_err is None:
                    child_err = (k[0], cm)
        if m:
            dur += m.get("lat", 0) * self.r.uniform(0.8, 1.2)
            if m.get("err") and self.r.random() < m.get("rate", 1.0):
                err, msg = True, m["err"]
        if child_err and not err and svc in self.style.get("swallow", ()):
            if self.r.random() < 0.5:
                self.log(t + dur / 1000.0, svc, "WARN", f"Error fetching from {child_err[0]}: {child_err[1][:160]}", tid, sid, ns=ns)
            child_err = None
        if child_err and not err:
            err = True
            callee, cm = child_err
            msg = self._wrap(svc, callee, cm)
        kind = SPAN_KIND.get(svc, "Server" if depth else "Server")
        if svc in ("valkey-cart", "postgresql"):
            kind = "Client"
            svc_emit = {"valkey-cart": "cart", "postgresql": "product-reviews" if "reviews" in name.lower() else "accounting"}[svc]
        else:
            svc_emit = svc
        if svc == "kafka":
            kind = "Producer"
            svc_emit = "checkout"
        if name == "orders receive":
            kind = "Consumer"
        sattrs = {}
        if svc in ("frontend-proxy", "frontend", "istio-ingressgateway", "productpage", "details", "reviews", "ratings", "quote", "email"):
            sattrs["http.method"] = name.split(" ")[0] if " " in name else "GET"
            sattrs["http.status_code"] = 503 if err and svc in ("frontend-proxy", "istio-ingressgateway") else (500 if err else 200)
        elif svc_emit == svc and kind == "Server":
            sattrs["rpc.system"] = "grpc"
            sattrs["rpc.grpc.status_code"] = 14 if err and "unavailable" in msg.lower() else (2 if err else 0)
        if svc == "valkey-cart":
            sattrs["db.system"] = "redis"
        if svc == "postgresql":
            sattrs["db.system"] = "postgresql"
            sattrs["db.name"] = "otel"
        if svc == "kafka":
            sattrs["messaging.system"] = "kafka"
            sattrs["messaging.destination.name"] = "orders"
        self.spans.append((t, tid, sid, parent, name, kind, svc_emit, self.resattrs(svc_emit, t, ns),
                           sattrs, int(dur * 1e6), "Error" if err else "Unset", msg if err else ""))
        if err and svc_emit == svc:
            self.log(t + dur / 1000.0, svc, "ERROR", self._errlog(svc, name, msg), tid, sid, ns=ns)
        elif self.r.random() < 1.0 / log_every and svc_emit == svc and svc not in ("frontend-proxy", "istio-ingressgateway"):
            self.log(t + dur / 1000.0, svc, "INFO", self._oklog(svc, name), tid, sid, ns=ns)
        return ("error" if err else "ok", msg, dur)

    def _wrap(self, svc, callee, cm):
        if svc in ("frontend-proxy", "istio-ingressgateway"):
            return "upstream status 500" if "503" not in cm else cm
        if svc == "frontend":
            return f"13 INTERNAL: {callee} call failed: {cm[:120]}"
        if svc == "checkout":
            return f"rpc error: code = Internal desc = failed to prepare order: {cm[:140]}"
        if svc == "productpage":
            return f"Error fetching product reviews: {cm[:100]}"
        return f"{callee}: {cm[:150]}"

    def _errlog(self, svc, name, msg):
        if self.style.get("json_logs", {}).get(svc, svc in ("checkout", "product-catalog", "shipping")):
            return json.dumps({"level": "error", "msg": f"{name} failed", "error": msg,
                               "service": svc}, separators=(",", ":"))
        return f"{name} failed: {msg}"

    def _oklog(self, svc, name):
        txt = {"checkout": "payment went through (transaction_id: %s)" % h(name + str(self.r.random()), 8),
               "email": "Order confirmation email sent to: someone@example.com",
               "cart": "GetCartAsync called with userId=%s" % h(str(self.r.random()), 8),
               "quote": "Calculated quote: 12.%02d" % self.r.randint(0, 99),
               "shipping": "Received quote request",
               "currency": "Conversion request successful",
               "ad": "received ad request (context_words=[travel])",
               "recommendation": "Receive ListRecommendations for product ids:['OLJCESPC7Z']",
               "product-catalog": "Product Found",
               "payment": "Transaction complete.",
               "accounting": "Order details saved to database",
               "fraud-detection": "Consumed record with orderId: %s" % h(str(self.r.random()), 12),
               "frontend": "request completed",
               }.get(svc, f"{name} ok")
        if self.style.get("json_logs", {}).get(svc, svc in ("checkout", "product-catalog", "shipping")):
            return json.dumps({"level": "info", "msg": txt}, separators=(",", ":"))
        return txt

    # -- metrics
    def met(self, kind, name, metric, t, value, tags, extra=None):
        self.metrics.setdefault(f"{kind}_{name}", []).append((metric, t, value, tags, extra))

    def std_metrics(self, svcs, ns=None, restarts=None, cpu=None, mem=None, step=60):
        """Pod and service metrics derived from the failure schedule."""
        ns = ns or self.ns
        restarts = restarts or {}
        for svc in svcs:
            calls = {"ok": 0.0, "err": 0.0}
            rc = 0
            t = self.t0
            while t <= self.t1:
                m = self.failing(svc, t)
                rate = 2.0 + self.r.uniform(-0.3, 0.3)
                er = 0.0
                if m and m.get("err"):
                    er = rate * m.get("rate", 1.0)
                if m and m.get("drop"):
                    rate, er = 0.0, 0.0
                calls["ok"] += (rate - er) * step
                calls["err"] += er * step
                p = self.pod(svc, t)
                if m and m.get("nopod"):
                    t += step
                    continue
                ptags = {"namespace": ns, "pod": p, "container": svc}
                c = (cpu or {}).get(svc)
                cv = c(t) if c else 0.02 + self.r.uniform(0, 0.01)
                self.met("pod", p, "container_cpu_usage_seconds_total:rate5m" if self.style.get("recorded") else "rate(container_cpu_usage_seconds_total[5m])", t, round(cv, 5), ptags)
                mv = (mem or {}).get(svc)
                self.met("pod", p, "container_memory_working_set_bytes", t,
                         int(mv(t) if mv else 120e6 + self.r.uniform(0, 5e6)), ptags)
                rfun = restarts.get(svc)
                if rfun:
                    rc = rfun(t)
                self.met("pod", p, "kube_pod_container_status_restarts_total", t, rc, ptags)
                stags = {"service_name": svc, "namespace": ns, "span_kind": "SPAN_KIND_SERVER"}
                self.met("service", svc, "traces_span_metrics_calls_total", t, round(calls["ok"], 1),
                         dict(stags, status_code="STATUS_CODE_UNSET"), {"service_name": svc, "status_code": "STATUS_CODE_UNSET"})
                self.met("service", svc, "traces_span_metrics_calls_total", t, round(calls["err"], 1),
                         dict(stags, status_code="STATUS_CODE_ERROR"), {"service_name": svc, "status_code": "STATUS_CODE_ERROR"})
                lat = (m or {}).get("lat", 0) + 12
                for le in ("10", "50", "250", "1000", "+Inf"):
                    frac = 1.0 if le == "+Inf" else min(1.0, max(0.02, float(le) / (lat * 2.2)))
                    self.met("service", svc, "traces_span_metrics_duration_milliseconds_bucket", t,
                             round(calls["ok"] * frac + calls["err"] * frac, 1), dict(stags, le=le),
                             {"service_name": svc, "bucket_le": le})
                t += step

    # -- alerts
    def alert(self, t, alerts, env="prom"):
        self.alert_files.append((t, alerts, env))

    def bg_noise(self):
        r = random.Random(self.num * 7919)
        node = "ip-10-0-%d-%d.ec2.internal" % (r.randint(1, 3), r.randint(10, 99))
        t = self.t0 + r.uniform(30, 200)
        while t < self.t1:
            k = r.randint(0, 5)
            if k == 0:
                self.ev(t, "Pod", "coredns-5d78c9869d-%s" % h(str(self.num), 5), "DNSConfigForming",
                        "Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: 10.0.0.2 169.254.169.253 fd00:ec2::253",
                        "Warning", ns="kube-system", host=node, count=r.randint(20, 400), first=self.t0 - 86400)
            elif k == 1:
                job = "metrics-rollup-%d" % (29544000 + int(t) // 60)
                self.ev(t, "CronJob", "metrics-rollup", "SuccessfulCreate", f"Created job {job}", ns="data-jobs", comp="cronjob-controller")
                self.ev(t + 40, "CronJob", "metrics-rollup", "SawCompletedJob", f"Saw completed job: {job}, status: Complete", ns="data-jobs", comp="cronjob-controller")
            elif k == 2:
                self.ev(t, "HorizontalPodAutoscaler", "otel-collector", "FailedGetResourceMetric",
                        "failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API",
                        "Warning", ns="opentelemetry-collectors", comp="horizontal-pod-autoscaler", count=r.randint(2, 9))
            elif k == 3:
                self.ev(t, "Node", node, "NodeHasSufficientMemory", f"Node {node} status is now: NodeHasSufficientMemory", ns="default", host=node)
            elif k == 4:
                self.ev(t, "Pod", "prometheus-kube-prometheus-stack-prometheus-0", "Unhealthy",
                        "Readiness probe failed: Get \"http://10.244.1.9:9090/-/ready\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
                        "Warning", ns="prometheus", host=node)
            else:
                self.ev(t, "Pod", "clickhouse-otel-0", "Pulled", 'Container image "clickhouse/clickhouse-server:24.3" already present on machine',
                        ns="clickhouse", host=node)
            t += r.uniform(120, 420)

    # ------------------------------------------------------------------------- writing
    def write(self, out):
        self.bg_noise()
        d = os.path.join(out, f"Scenario-{self.num}")
        os.makedirs(os.path.join(d, "alerts"), exist_ok=True)
        os.makedirs(os.path.join(d, "metrics"), exist_ok=True)
        tsfmt = chts if self.style.get("ts", "ch") == "ch" else (lambda t: iso(t, 6))
        quoting = csv.QUOTE_ALL if self.style.get("quote_all") else csv.QUOTE_MINIMAL

        def tsv(path, header, rows):
            buf = io.StringIO()
            w = csv.writer(buf, delimiter="\t", quoting=quoting, lineterminator="\n")
            w.writerow(header)
            for r in rows:
                w.writerow(r)
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(buf.getvalue())

        LOGHDR = ["Timestamp", "TimestampTime", "TraceId", "SpanId", "TraceFlags", "SeverityText",
                  "SeverityNumber", "ServiceName", "Body", "ResourceSchemaUrl", "ResourceAttributes",
                  "ScopeSchemaUrl", "ScopeName", "ScopeVersion", "ScopeAttributes", "LogAttributes"]
        rows = []
        for t, body in sorted(self.events, key=lambda x: x[0]):
            rows.append([tsfmt(t), chts(int(t))[:19], "", "", 0, "", 0, "",
                         json.dumps(body, separators=(",", ":")), "",
                         json.dumps({"k8s.cluster.name": self.style.get("cluster", "itbench-lab")}), "", "", "", "{}",
                         json.dumps({"event.domain": "k8s", "event.name": body["object"]["metadata"]["name"],
                                     "k8s.resource.name": "events"})])
        tsv(os.path.join(d, "k8s_events_raw.tsv"), LOGHDR, rows)

        rows = []
        for t, o, watch in sorted(self.objects, key=lambda x: x[0]):
            oo = json.loads(json.dumps(o))
            if not self.style.get("managed_fields"):
                oo.get("metadata", {}).pop("managedFields", None)
            body = {"type": watch, "object": oo} if watch else oo
            s = json.dumps(body, separators=(",", ":"))
            if self.style.get("double_encode"):
                s = json.dumps(s)
            rows.append([tsfmt(t), chts(int(t))[:19], "", "", 0, "", 0, "", s, "",
                         json.dumps({"k8s.cluster.name": self.style.get("cluster", "itbench-lab")}), "", "", "", "{}",
                         json.dumps({"k8s.resource.name": o["kind"].lower() + "s",
                                     **({"event.name": o["kind"].lower() + "s", "event.domain": "k8s"} if watch else {})})])
        tsv(os.path.join(d, "k8s_objects_raw.tsv"), LOGHDR, rows)

        SEVN = {"DEBUG": 5, "INFO": 9, "WARN": 13, "WARNING": 13, "ERROR": 17, "FATAL": 21}
        rows = []
        for (t, tid, sid, sev, svc, body, ra, la) in sorted(self.logs, key=lambda x: (x[0], x[4])):
            rows.append([tsfmt(t), tid, sid, sev, SEVN.get(sev, 9), svc, body, json.dumps(ra), json.dumps(la)])
        tsv(os.path.join(d, "otel_logs_raw.tsv"),
            ["Timestamp", "TraceId", "SpanId", "SeverityText", "SeverityNumber", "ServiceName", "Body",
             "ResourceAttributes", "LogAttributes"], rows)

        rows = []
        for sp in sorted(self.spans, key=lambda x: (x[0], x[1])):
            (t, tid, sid, par, name, kind, svc, ra, sa, dur, st, sm) = sp
            sk = kind if self.style.get("short_kind") else "SPAN_KIND_" + kind.upper()
            stc = st if not self.style.get("status_prefix") else "STATUS_CODE_" + st.upper()
            if self.style.get("status_prefix") and st == "Error":
                stc = "Error"
            rows.append([tsfmt(t), tid, sid, par, name, sk, svc, json.dumps(ra), json.dumps(sa), dur, stc, sm])
        tsv(os.path.join(d, "otel_traces_raw.tsv"),
            ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
             "ResourceAttributes", "SpanAttributes", "Duration", "StatusCode", "StatusMessage"], rows)

        for key, pts in sorted(self.metrics.items()):
            extra_cols = self.style.get("metric_extra")
            hdr = ["metric_name", "timestamp", "value", "tags"]
            if extra_cols:
                hdr += ["pod_name", "namespace", "service_name", "bucket_le", "status_code"]
            rws = []
            for (mname, t, v, tags, extra) in pts:
                ts = int(t) if self.style.get("metric_epoch") else iso(t, 0, False).replace("T", " ")
                tg = json.dumps(tags) if not self.style.get("pydict_tags") else repr(tags)
                row = [mname, ts, v, tg]
                if extra_cols:
                    e = extra or {}
                    row += [tags.get("pod", ""), tags.get("namespace", ""), e.get("service_name", ""),
                            e.get("bucket_le", ""), e.get("status_code", "")]
                rws.append(row)
            tsv(os.path.join(d, "metrics", f"{key}.tsv"), hdr, rws)

        for (t, alerts, env) in self.alert_files:
            p = os.path.join(d, "alerts", f"alerts_at_{fname_ts(t)}.json")
            if env == "prom":
                doc = {"status": "success", "data": {"alerts": alerts}}
            elif env == "am2":
                doc = alerts
            elif env == "webhook":
                doc = {"receiver": "sre-oncall", "status": "firing", "alerts": alerts, "groupLabels": {},
                       "commonLabels": {}, "commonAnnotations": {}, "externalURL": "http://alertmanager:9093",
                       "version": "4", "groupKey": "{}:{}", "truncatedAlerts": 0}
            else:
                doc = alerts[0]
            with open(p, "w", encoding="utf-8") as f:
                json.dump(doc, f, indent=2 if env != "am2" else None, sort_keys=False)
                f.write("\n")

        with open(os.path.join(d, "ground_truth.yaml"), "w", encoding="utf-8") as f:
            f.write(self.gt_text() + "\n")

    def gt_text(self):
        g = self.gt
        if self.style.get("gt_wrapped"):
            return "---\n" + yaml_dump({"apiVersion": "itbench.io/v1", "kind": "GroundTruth",
                                        "metadata": {"name": f"scenario-{self.num}"}, "spec": g})
        return yaml_dump(g)


# ----------------------------------------------------------------------------- alert builders
def prom_alert(name, labels, t_active, value, summary, state="firing", severity="warning"):
    lb = {"alertname": name, "severity": severity}
    lb.update(labels)
    return {"labels": lb, "annotations": {"summary": summary, "description": summary},
            "state": state, "activeAt": iso(t_active, 9), "value": str(value)}


def am_alert(name, labels, t_start, summary, severity="warning", v1=False):
    lb = {"alertname": name, "severity": severity}
    lb.update(labels)
    fp = h(json.dumps(lb, sort_keys=True), 16)
    if v1:
        return {"status": "firing", "labels": lb, "annotations": {"summary": summary},
                "startsAt": iso(t_start, 3), "endsAt": "0001-01-01T00:00:00Z",
                "generatorURL": "http://prometheus:9090/graph?g0.expr=...", "fingerprint": fp}
    return {"labels": lb, "annotations": {"summary": summary, "runbook_url": "https://runbooks.example.com/" + name.lower()},
            "startsAt": iso(t_start, 3), "endsAt": iso(t_start + 3600, 3), "updatedAt": iso(t_start + 60, 3),
            "fingerprint": fp, "receivers": [{"name": "sre-oncall"}],
            "status": {"state": "active", "silencedBy": [], "inhibitedBy": []},
            "generatorURL": "http://prometheus:9090/graph?g0.expr=..."}


def svc_labels(svc, ns=NS):
    return {"service_name": svc, "namespace": ns}


# ----------------------------------------------------------------------------- k8s object builders
def meta(name, ns, t_created, labels=None, ann=None, rv=1, gen=None, mf=None):
    m = {"name": name, "namespace": ns, "uid": f"{h(name + ns, 8)}-{h(name, 4)}-4{h(ns, 3)}-9{h(name + 'u', 3)}-{h(name + ns + 'x', 12)}",
         "resourceVersion": str(rv), "creationTimestamp": iso(t_created, 0)}
    if ns is None:
        m.pop("namespace")
    if gen is not None:
        m["generation"] = gen
    if labels:
        m["labels"] = labels
    if ann:
        m["annotations"] = ann
    if mf:
        m["managedFields"] = [{"manager": mf, "operation": "Update", "apiVersion": "apps/v1",
                               "time": iso(t_created, 0), "fieldsType": "FieldsV1",
                               "fieldsV1": {"f:spec": {"f:template": {}}}}]
    return m


def container(name, image, ports=None, env=None, res=None, extra=None):
    c = {"name": name, "image": image, "imagePullPolicy": "IfNotPresent",
         "resources": res or {"limits": {"memory": "200Mi"}, "requests": {"cpu": "50m", "memory": "100Mi"}},
         "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}
    if ports:
        c["ports"] = [{"name": n, "containerPort": p, "protocol": "TCP"} for n, p in ports]
    if env:
        c["env"] = env
    if extra:
        c.update(extra)
    return c


def deployment(name, ns, t, rv, gen, containers, replicas=1, labels=None, strategy=None, pod_extra=None,
               ann=None, status=None, mf=None):
    lb = labels or {"app.kubernetes.io/name": name, "app.kubernetes.io/component": name,
                    "app.kubernetes.io/part-of": "opentelemetry-demo", "opentelemetry.io/name": name}
    spec_t = {"metadata": {"labels": {"opentelemetry.io/name": name, "app.kubernetes.io/name": name}},
              "spec": {"containers": containers, "restartPolicy": "Always", "dnsPolicy": "ClusterFirst",
                       "serviceAccountName": "otel-demo" if ns == NS else "default",
                       "terminationGracePeriodSeconds": 30, "schedulerName": "default-scheduler",
                       "securityContext": {}}}
    if pod_extra:
        spec_t["spec"].update(pod_extra)
    d = {"apiVersion": "apps/v1", "kind": "Deployment",
         "metadata": meta(name, ns, t - 86400 * 6, lb, ann or {"deployment.kubernetes.io/revision": str(gen)}, rv, gen, mf),
         "spec": {"replicas": replicas, "revisionHistoryLimit": 10,
                  "selector": {"matchLabels": {"opentelemetry.io/name": name}},
                  "strategy": strategy or {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
                  "template": spec_t, "progressDeadlineSeconds": 600},
         "status": status or {"observedGeneration": gen, "replicas": replicas, "readyReplicas": replicas,
                              "availableReplicas": replicas, "updatedReplicas": replicas}}
    return d


def service(name, ns, t, ports, selector=None, rv=1):
    return {"apiVersion": "v1", "kind": "Service",
            "metadata": meta(name, ns, t - 86400 * 6, {"app.kubernetes.io/name": name}, None, rv),
            "spec": {"type": "ClusterIP", "clusterIP": "10.96.%d.%d" % (int(h(name + ns, 4), 16) % 250 + 1, int(h(ns + name, 4), 16) % 250 + 2),
                     "selector": selector or {"opentelemetry.io/name": name},
                     "ports": [{"name": n, "port": p, "targetPort": tp, "protocol": "TCP"} for n, p, tp in ports]},
            "status": {"loadBalancer": {}}}


def pod_obj(name, ns, owner_rs, t, node, phase="Running", ready=True, containers=None, waiting=None, restarts=0,
            labels=None, extra_status=None):
    cs = []
    for c in containers or []:
        st = {"running": {"startedAt": iso(t - 3600, 0)}}
        if waiting:
            st = {"waiting": {"reason": waiting[0], "message": waiting[1]}}
        cs.append({"name": c["name"], "image": c["image"], "ready": ready and not waiting, "restartCount": restarts,
                   "state": st, "started": not waiting})
    p = {"apiVersion": "v1", "kind": "Pod",
         "metadata": {**meta(name, ns, t - 3600, labels or {}, None, int(t) % 100000),
                      "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": owner_rs,
                                           "controller": True, "blockOwnerDeletion": True, "uid": h(owner_rs, 8)}]},
         "spec": {"nodeName": node, "containers": containers or []},
         "status": {"phase": phase,
                    "conditions": [{"type": "Ready", "status": "True" if ready and not waiting else "False"}],
                    "containerStatuses": cs, "podIP": "10.244.%d.%d" % (len(name) % 5, len(name) * 13 % 250)}}
    if phase == "Pending":
        p["spec"].pop("nodeName")
        p["status"].pop("podIP")
        p["status"]["conditions"] = [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]
    if extra_status:
        p["status"].update(extra_status)
    return p


def img(svc, ver="2.0.2"):
    return f"ghcr.io/open-telemetry/demo:{ver}-{svc}"


def snapshot_series(s, t_list, make, watch_first=None, watch_rest=None):
    """Write make(t) at each t (periodic pull or watch stream)."""
    for i, t in enumerate(t_list):
        o = make(t)
        if o is None:
            continue
        s.obj(t, o, (watch_first if i == 0 else watch_rest))


def ticks(s, every=300, offset=15):
    out = []
    t = s.t0 + offset
    while t < s.t1:
        out.append(t)
        t += every
    return out


# ----------------------------------------------------------------------------- ground truth builder
def G(gid, kind, ns, filt=None, name=None, root=False):
    g = {"id": gid, "kind": kind, "namespace": ns}
    if name is None and filt and kind not in ("Pod", "ReplicaSet"):
        name = filt[0].replace("\\b", "")
    if filt:
        # anchor the patterns so that cart does not also match valkey-cart, nor frontend-.* frontend-proxy pods
        nf = []
        for f in filt:
            if kind != "Pod" and f.endswith("\\b"):
                f = "^" + f[:-2] + "$"
            elif kind == "Pod" and f.endswith("-.*"):
                f = "^" + f[:-3] + "-[a-z0-9]+(-[a-z0-9]+)?$"
            nf.append(f)
        filt = nf
    if name:
        g["name"] = name
    if filt:
        g["filter"] = filt
    if root:
        g["root_cause"] = True
    return g


def app_groups(app, ns=NS, kinds=("Service", "Pod"), root_kind=None, pod_filter=None):
    out = []
    for k in kinds:
        gid = f"{app}-{k.lower()}-1"
        if k == "Pod":
            f = [pod_filter or f"{app}-.*"]
        elif k == "ReplicaSet":
            f = [f"^{app}-[a-z0-9]+$"]
        elif k == "Service":
            f = [f"{app}\\b"]
        else:
            f = [f"{app}\\b"]
        out.append(G(gid, k, ns, f, root=(k == root_kind)))
    return out


def P(src, tgt, cond, eff):
    return {"source": src, "target": tgt, "condition": cond, "effect": eff}


def A(gid, aid, desc):
    return {"group_id": gid, "id": aid, "metadata": {"description": desc}}


def gt(groups, aliases, props, fault, alerts, actions):
    return {"alerts": alerts, "groups": groups, "aliases": aliases, "propagations": props, "fault": fault,
            "recommendedActions": [{"solution": {"id": a[0], "actions": [a[1]]}} for a in actions]}


# ----------------------------------------------------------------------------- shared background
SVC_PORTS = {"frontend": [("tcp-service", 8080, 8080)], "frontend-proxy": [("tcp-service", 8080, 8080)],
             "product-catalog": [("tcp-service", 8080, 8080)], "currency": [("tcp-service", 8080, 8080)],
             "recommendation": [("tcp-service", 8080, 8080)], "ad": [("tcp-service", 8080, 8080)],
             "cart": [("tcp-service", 8080, 8080)], "checkout": [("tcp-service", 8080, 8080)],
             "shipping": [("tcp-service", 8080, 8080)], "quote": [("tcp-service", 8080, 8080)],
             "payment": [("tcp-service", 8080, 8080)], "email": [("tcp-service", 8080, 8080)],
             "kafka": [("plaintext", 9092, 9092), ("controller", 9093, 9093)],
             "accounting": [], "fraud-detection": [], "product-reviews": [("tcp-service", 3551, 3551)],
             "valkey-cart": [("valkey-cart", 6379, 6379)], "postgresql": [("postgresql", 5432, 5432)],
             "load-generator": [("tcp-service", 8089, 8089)], "image-provider": [("tcp-service", 8081, 8081)],
             "flagd": [("tcp-service", 8013, 8013)]}


def std_container(svc, ver="2.0.2"):
    ports = [("service", SVC_PORTS[svc][0][2])] if SVC_PORTS.get(svc) else None
    env = [{"name": "OTEL_SERVICE_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels['app.kubernetes.io/component']"}}},
           {"name": "OTEL_COLLECTOR_NAME", "value": "otel-collector"},
           {"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://$(OTEL_COLLECTOR_NAME):4317"},
           {"name": "OTEL_RESOURCE_ATTRIBUTES", "value": "service.name=$(OTEL_SERVICE_NAME),service.namespace=opentelemetry-demo,service.version=" + ver}]
    if ports:
        env.insert(1, {"name": svc.upper().replace("-", "_") + "_PORT", "value": str(ports[0][1])})
    image = {"valkey-cart": "valkey/valkey:7.2-alpine", "postgresql": "postgres:17.2"}.get(svc) or img(svc, ver)
    return container(svc, image, ports, env)


def bg_objects(s, svcs, every=300, watch=False, skip_services=(), ns=None, mf=None):
    ns = ns or s.ns
    tl = ticks(s, every, 20)
    for svc in svcs:
        dep = deployment(svc, ns, s.t0, 1000 + len(svc) * 17, 3, [std_container(svc)], mf=mf)
        svo = service(svc, ns, s.t0, SVC_PORTS.get(svc) or [("metrics", 9464, 9464)])
        if watch:
            s.obj(tl[0] - 5, dep, "ADDED")
            if svc not in skip_services:
                s.obj(tl[0] - 4, svo, "ADDED")
        else:
            for t in tl:
                s.obj(t, dep)
                if svc not in skip_services:
                    s.obj(t + 1, svo)


def noise_restart(s, svc, t, reason_txt=None):
    """An unrelated rollout restart (harmless)."""
    old, new = s.pod(svc, t - 1), podname(svc, "r" + str(int(t)))
    s.pod_switch.setdefault(svc, []).append((t + 20, new))
    rs_new = new.rsplit("-", 1)[0]
    s.ev(t, "Deployment", svc, "ScalingReplicaSet", f"Scaled up replica set {rs_new} to 1", comp="deployment-controller")
    s.ev(t + 1, "ReplicaSet", rs_new, "SuccessfulCreate", f"Created pod: {new}", comp="replicaset-controller")
    s.ev(t + 2, "Pod", new, "Scheduled", f"Successfully assigned {s.ns}/{new} to ip-10-0-1-88.ec2.internal", comp="default-scheduler")
    s.ev(t + 6, "Pod", new, "Pulled", f'Container image "{img(svc)}" already present on machine')
    s.ev(t + 7, "Pod", new, "Created", f"Created container {svc}")
    s.ev(t + 8, "Pod", new, "Started", f"Started container {svc}")
    s.ev(t + 20, "Pod", old, "Killing", f"Stopping container {svc}")
    s.ev(t + 21, "Deployment", svc, "ScalingReplicaSet", f"Scaled down replica set {old.rsplit('-', 1)[0]} to 0 from 1", comp="deployment-controller")
    s.log(t + 9, svc, "INFO", reason_txt or f"{svc} starting up")


def noise_other_ns(s, kind, t):
    if kind == "ci-job":
        ns = "ci"
        s.ev(t, "Pod", "e2e-nightly-7hq2k", "BackOff", "Back-off restarting failed container runner in pod e2e-nightly-7hq2k_ci(3c1f...)", "Warning", ns=ns, count=4)
        s.ev(t + 240, "Job", "e2e-nightly", "BackoffLimitExceeded", "Job has reached the specified backoff limit", "Warning", ns=ns, comp="job-controller")
        return prom_alert("KubeJobFailed", {"namespace": ns, "job_name": "e2e-nightly"}, t + 250, 1,
                          "Job ci/e2e-nightly failed to complete.")
    if kind == "cert":
        ns = "cert-manager"
        s.ev(t, "Certificate", "grafana-tls", "Failed", "The certificate request has failed to complete and will be retried: Failed to wait for order resource \"grafana-tls-1-3360872416\" to become ready: order is in \"errored\" state: Failed to create Order: 429 urn:ietf:params:acme:error:rateLimited", "Warning", ns="monitoring", comp="cert-manager-certificates-issuing")
        return None
    if kind == "logging":
        ns = "logging"
        s.ev(t, "Pod", "fluent-bit-x8kq2", "Unhealthy", "Liveness probe failed: Get \"http://10.244.3.17:2020/api/v1/health\": context deadline exceeded", "Warning", ns=ns, count=3, host="ip-10-0-3-12.ec2.internal")
        s.ev(t + 30, "Pod", "fluent-bit-x8kq2", "Killing", "Container fluent-bit failed liveness probe, will be restarted", ns=ns, host="ip-10-0-3-12.ec2.internal")
        return prom_alert("KubePodCrashLooping", {"namespace": ns, "pod": "fluent-bit-x8kq2", "container": "fluent-bit"}, t + 300, 2,
                          "Pod logging/fluent-bit-x8kq2 (fluent-bit) is in waiting state (reason: \"CrashLoopBackOff\").")
    if kind == "batch":
        ns = "data-jobs"
        s.ev(t, "CronJob", "nightly-export", "SawCompletedJob", "Saw completed job: nightly-export-29544120, status: Failed", "Warning", ns=ns, comp="cronjob-controller")
        s.ev(t + 2, "Pod", "nightly-export-29544120-bq6tn", "Failed", "Error: container exited with 1 (s3: AccessDenied on PutObject)", "Warning", ns=ns)
        return prom_alert("KubeJobFailed", {"namespace": ns, "job_name": "nightly-export-29544120"}, t + 30, 1,
                          "Job data-jobs/nightly-export-29544120 failed to complete.", severity="warning")
    return None


def ts_base(day, hh, mm):
    return datetime(2026, 3, day, hh, mm, 0, tzinfo=timezone.utc).timestamp()


# ============================================================================ incidents
def inc_webhook_down(num):
    """Gatekeeper webhook (failurePolicy Fail) loses its only pod to a nodeSelector; replacement pods refused."""
    t0 = ts_base(3, 9, 10)
    s = Snap(num, 101, t0, 42, style={"events_api": "v1", "ts": "ch", "metric_epoch": True})
    tf = t0 + 13 * 60
    tev = tf + 7 * 60
    gk = "gatekeeper-controller-manager"
    gns = "gatekeeper-system"
    old_gk = podname(gk, "v4")
    new_gk = podname(gk, "v5")
    svcs = ["frontend-proxy", "frontend", "product-catalog", "currency", "recommendation", "ad", "cart",
            "checkout", "shipping", "quote", "payment", "email", "product-reviews"]
    bg_objects(s, [x for x in svcs if x not in ("recommendation", "ad", "frontend")])
    # recommendation & ad lose pods at tev, never come back
    s.fail["recommendation"] = [(tev + 20, s.t1 + 1, {"drop": True, "nopod": True, "err": "14 UNAVAILABLE: No connection established"})]
    s.fail["ad"] = [(tev + 25, s.t1 + 1, {"drop": True, "nopod": True, "err": "14 UNAVAILABLE: No connection established"})]
    s.traffic(every=9, mix=["browse", "product", "cart", "product", "checkout", "shipping"])
    # the gatekeeper Deployment change (pull-mode snapshots)
    for t in ticks(s, 300, 20):
        after = t >= tf
        pe = {"nodeSelector": {"node-role.kubernetes.io/infra": "true"}} if after else {"nodeSelector": {"kubernetes.io/os": "linux"}}
        pe["priorityClassName"] = "system-cluster-critical"
        c = container("manager", "openpolicyagent/gatekeeper:v3.15.1", [("port", 8443), ("metrics", 8888), ("healthz", 9090)],
                      None, {"limits": {"memory": "512Mi"}, "requests": {"cpu": "100m", "memory": "256Mi"}},
                      {"args": ["--port=8443", "--logtostderr", "--exempt-namespace=gatekeeper-system", "--operation=webhook", "--operation=mutation-webhook"]})
        d = deployment(gk, gns, t0, 88120 if not after else 90377, 4 if not after else 5, [c], replicas=1,
                       labels={"control-plane": "controller-manager", "gatekeeper.sh/operation": "webhook"},
                       strategy={"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 1}},
                       pod_extra=pe,
                       ann={"deployment.kubernetes.io/revision": "5" if after else "4", "meta.helm.sh/release-name": "gatekeeper"},
                       status=({"observedGeneration": 5, "replicas": 1, "updatedReplicas": 1, "unavailableReplicas": 1,
                                "conditions": [{"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable"},
                                               {"type": "Progressing", "status": "True", "reason": "ReplicaSetUpdated"}]}
                               if after else None))
        d["metadata"]["labels"]["app.kubernetes.io/managed-by"] = "Helm"
        s.obj(t, d)
        s.obj(t + 1, service("gatekeeper-webhook-service", gns, t0, [("https-webhook-server", 443, "webhook-server")],
                             selector={"control-plane": "controller-manager", "gatekeeper.sh/operation": "webhook"}))
        vwc = {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingWebhookConfiguration",
               "metadata": {"name": "gatekeeper-validating-webhook-configuration", "uid": h("vwc", 8) + "-1111-4222-8333-" + h("vwc2", 12),
                            "resourceVersion": "88001", "creationTimestamp": iso(t0 - 86400 * 30, 0),
                            "labels": {"gatekeeper.sh/system": "yes"}},
               "webhooks": [{"name": "validation.gatekeeper.sh", "failurePolicy": "Fail", "sideEffects": "None",
                             "timeoutSeconds": 3, "admissionReviewVersions": ["v1", "v1beta1"], "matchPolicy": "Exact",
                             "clientConfig": {"service": {"name": "gatekeeper-webhook-service", "namespace": gns, "path": "/v1/admit", "port": 443}},
                             "namespaceSelector": {"matchExpressions": [{"key": "admission.gatekeeper.sh/ignore", "operator": "DoesNotExist"}]},
                             "rules": [{"apiGroups": ["*"], "apiVersions": ["*"], "operations": ["CREATE", "UPDATE"], "resources": ["*"], "scope": "*"}]}]}
        s.obj(t + 2, vwc)
        pods = [pod_obj(old_gk, gns, old_gk.rsplit("-", 1)[0], t, "ip-10-0-1-31.ec2.internal",
                        containers=[c], labels={"control-plane": "controller-manager"})] if not after else \
               [pod_obj(new_gk, gns, new_gk.rsplit("-", 1)[0], t, None, phase="Pending", ready=False, containers=[c],
                        labels={"control-plane": "controller-manager"})]
        for p in pods:
            s.obj(t + 3, p)
        # recommendation / ad deployments lose availability after tev
        for svc in ("recommendation", "ad", "frontend"):
            bad = t >= tev and svc != "frontend"
            dd = deployment(svc, NS, t0, 2000 + len(svc), 3, [std_container(svc)],
                            status={"observedGeneration": 3, "replicas": 0, "unavailableReplicas": 1,
                                    "conditions": [{"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable"},
                                                   {"type": "ReplicaFailure", "status": "True", "reason": "FailedCreate",
                                                    "message": "Internal error occurred: failed calling webhook \"validation.gatekeeper.sh\""}]} if bad else None)
            s.obj(t + 4, dd)
            fs = service(svc, NS, t0, SVC_PORTS[svc])
            if svc == "frontend" and t >= tf - 120:
                fs["metadata"]["labels"]["team"] = "storefront"   # harmless label change near fault time
                fs["metadata"]["resourceVersion"] = "90311"
            s.obj(t + 5, fs)
    # gatekeeper rollout events
    s.ev(tf, "Deployment", gk, "ScalingReplicaSet", f"Scaled down replica set {old_gk.rsplit('-', 1)[0]} to 0 from 1", ns=gns, comp="deployment-controller")
    s.ev(tf + 1, "Deployment", gk, "ScalingReplicaSet", f"Scaled up replica set {new_gk.rsplit('-', 1)[0]} to 1", ns=gns, comp="deployment-controller")
    s.ev(tf + 2, "Pod", old_gk, "Killing", "Stopping container manager", ns=gns, host="ip-10-0-1-31.ec2.internal")
    s.ev(tf + 2, "ReplicaSet", new_gk.rsplit("-", 1)[0], "SuccessfulCreate", f"Created pod: {new_gk}", ns=gns, comp="replicaset-controller")
    s.ev(s.t1 - 30, "Pod", new_gk, "FailedScheduling",
         "0/6 nodes are available: 6 node(s) didn't match Pod's node affinity/selector. preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling.",
         "Warning", ns=gns, comp="default-scheduler", count=9, first=tf + 3)
    # autoscaler removes a node: two otel-demo pods are evicted
    node = "ip-10-0-2-77.ec2.internal"
    s.ev(tev - 60, "Node", node, "ScaleDown", "marked the node as toBeDeleted/unschedulable", comp="cluster-autoscaler", ns="default")
    for svc in ("recommendation", "ad"):
        p = s.pod(svc)
        rs = p.rsplit("-", 1)[0]
        s.ev(tev, "Pod", p, "ScaleDown", f"deleting pod for node scale down", comp="cluster-autoscaler")
        s.ev(tev + 5, "Pod", p, "Killing", f"Stopping container {svc}", host=node)
        s.ev(s.t1 - 40, "ReplicaSet", rs, "FailedCreate",
             f'Error creating: Internal error occurred: failed calling webhook "validation.gatekeeper.sh": failed to call webhook: Post "https://gatekeeper-webhook-service.{gns}.svc:443/v1/admit?timeout=3s": no endpoints available for service "gatekeeper-webhook-service"',
             "Warning", comp="replicaset-controller", count=14, first=tev + 6)
    s.ev(tev + 200, "Node", node, "RemovingNode", f"Node {node} event: Removing Node {node} from Controller", comp="node-controller", ns="default")
    # noise
    noise_restart(s, "load-generator", t0 + 4 * 60, "Starting Locust 2.24.1")
    na = noise_other_ns(s, "ci-job", t0 + 2 * 60)
    s.std_metrics(["frontend", "frontend-proxy", "recommendation", "ad", "product-catalog", "checkout"])
    for k in range(3):
        t = tev + 240 + k * 300
        al = [prom_alert("RequestErrorRate", svc_labels("frontend"), tev + 90, 0.31, "Error rate on frontend above 5%"),
              prom_alert("RequestErrorRate", svc_labels("frontend-proxy"), tev + 120, 0.22, "Error rate on frontend-proxy above 5%"),
              prom_alert("KubeDeploymentReplicasMismatch", {"namespace": NS, "deployment": "recommendation"}, tev + 60, 0,
                         "Deployment otel-demo/recommendation has not matched the expected number of replicas for longer than 15 minutes.",
                         state="firing" if k else "pending"),
              prom_alert("KubeDeploymentReplicasMismatch", {"namespace": NS, "deployment": "ad"}, tev + 60, 0,
                         "Deployment otel-demo/ad has not matched the expected number of replicas for longer than 15 minutes.",
                         state="firing" if k else "pending"),
              na]
        if k == 2:
            al.append(prom_alert("KubeDeploymentReplicasMismatch", {"namespace": gns, "deployment": gk}, tf + 60, 0,
                                 f"Deployment {gns}/{gk} has not matched the expected number of replicas for longer than 15 minutes."))
        s.alert(t, al, "prom")
    gk_g = [G("gatekeeper-deployment-1", "Deployment", gns, [gk + "\\b"], root=True),
            G("gatekeeper-pod-1", "Pod", gns, [gk + "-.*"]),
            G("gatekeeper-webhook-service-1", "Service", gns, ["gatekeeper-webhook-service\\b"])]
    groups = gk_g + app_groups("recommendation", kinds=("Service", "Pod", "ReplicaSet")) + app_groups("ad", kinds=("Service", "Pod", "ReplicaSet")) \
        + app_groups("frontend") + app_groups("frontend-proxy", kinds=("Service",))
    s.gt = gt(groups,
              [["gatekeeper-deployment-1", "gatekeeper-pod-1", "gatekeeper-webhook-service-1"],
               ["recommendation-service-1", "recommendation-pod-1", "recommendation-replicaset-1"],
               ["ad-service-1", "ad-pod-1", "ad-replicaset-1"], ["frontend-service-1", "frontend-pod-1"]],
              [P("gatekeeper-deployment-1", "gatekeeper-pod-1", "nodeSelector node-role.kubernetes.io/infra=true matches no node", "webhook pod Pending, webhook service has no endpoints"),
               P("gatekeeper-webhook-service-1", "recommendation-replicaset-1", "validating webhook failurePolicy Fail, no endpoints", "pod creation refused after node scale-down"),
               P("gatekeeper-webhook-service-1", "ad-replicaset-1", "validating webhook failurePolicy Fail, no endpoints", "pod creation refused after node scale-down"),
               P("recommendation-service-1", "frontend-service-1", "recommendation has no pods", "frontend product page errors"),
               P("ad-service-1", "frontend-service-1", "ad has no pods", "frontend product page errors"),
               P("frontend-service-1", "frontend-proxy-service-1", "frontend errors", "frontend-proxy error rate")],
              [{"category": "Change", "condition": "admission webhook backend unschedulable (nodeSelector) with failurePolicy Fail",
                "entity": {"group_id": "gatekeeper-deployment-1", "kind": "Deployment", "name": gk}, "fault_mechanism": "custom"}],
              [A("frontend-service-1", "RequestErrorRate", "frontend errors from missing recommendation/ad"),
               A("recommendation-replicaset-1", "KubeDeploymentReplicasMismatch", "pods refused by webhook"),
               A("ad-replicaset-1", "KubeDeploymentReplicasMismatch", "pods refused by webhook")],
              [("revert_node_selector", "remove the infra nodeSelector from gatekeeper-controller-manager")])
    return s


def dep_series(s, name, tf, mk, every=300, watch=False, ns=None, pods=True, pod_state=None):
    """Snapshots of a Deployment that changes at tf. mk(after: bool, t) -> Deployment dict.
    pod_state(t) -> (podname, kwargs for pod_obj) or None."""
    ns = ns or s.ns
    tl = ticks(s, every, 25)
    if watch:
        s.obj(tl[0] - 3, mk(False, tl[0]), "ADDED")
        s.obj(tf + 1, mk(True, tf + 1), "MODIFIED")
        s.obj(tf + 40, mk(True, tf + 40), "MODIFIED")
    else:
        for t in tl:
            s.obj(t, mk(t >= tf, t))
    if pods and pod_state:
        seen = set()
        for t in tl:
            st = pod_state(t)
            if not st:
                continue
            pn, kw = st
            if watch:
                if pn in seen:
                    continue
                seen.add(pn)
                s.obj(t + 2, pod_obj(pn, ns, pn.rsplit("-", 1)[0], t, **kw), "ADDED")
            else:
                s.obj(t + 2, pod_obj(pn, ns, pn.rsplit("-", 1)[0], t, **kw))


def rollout_events(s, svc, t, old, new, ns=None, image=None, pulled_msg=None, node="ip-10-0-2-45.ec2.internal", kill_old=True):
    ns = ns or s.ns
    rs_new, rs_old = new.rsplit("-", 1)[0], old.rsplit("-", 1)[0]
    s.ev(t, "Deployment", svc, "ScalingReplicaSet", f"Scaled up replica set {rs_new} to 1", ns=ns, comp="deployment-controller")
    s.ev(t + 1, "ReplicaSet", rs_new, "SuccessfulCreate", f"Created pod: {new}", ns=ns, comp="replicaset-controller")
    s.ev(t + 2, "Pod", new, "Scheduled", f"Successfully assigned {ns}/{new} to {node}", ns=ns, comp="default-scheduler")
    s.ev(t + 4, "Pod", new, "Pulled", pulled_msg or f'Container image "{image or img(svc)}" already present on machine', ns=ns, host=node)
    s.ev(t + 5, "Pod", new, "Created", f"Created container {svc}", ns=ns, host=node)
    s.ev(t + 6, "Pod", new, "Started", f"Started container {svc}", ns=ns, host=node)
    if kill_old:
        s.ev(t + 15, "Pod", old, "Killing", f"Stopping container {svc}", ns=ns)
        s.ev(t + 16, "Deployment", svc, "ScalingReplicaSet", f"Scaled down replica set {rs_old} to 0 from 1", ns=ns, comp="deployment-controller")


def std_alerts(s, times, specs, env, extra=()):
    """specs: list of (alertname, labels, active_at, value, summary, severity)."""
    for k, t in enumerate(times):
        al = []
        for (an, lb, ta, v, summ, sev) in specs:
            if ta > t:
                continue
            if env in ("prom", "single"):
                al.append(prom_alert(an, lb, ta, v, summ, "firing" if t - ta > 120 else "pending", sev))
            else:
                al.append(am_alert(an, lb, ta, summ, sev, v1=(env == "webhook")))
        for e in extra:
            if e is not None:
                al.append(e if env in ("prom", "single") else am_alert(e["labels"]["alertname"], {k2: v2 for k2, v2 in e["labels"].items() if k2 not in ("alertname", "severity")},
                                                                        s.t0 + 300, e["annotations"]["summary"], e["labels"].get("severity", "warning"), v1=(env == "webhook")))
        if not al:
            continue
        if env == "single":
            for j, a in enumerate(al):
                s.alert(t + j, [a], "single")
        else:
            s.alert(t, al, env)


def otel_gt_groups(apps, root=None, root_kind="Deployment", extra_kinds=("Service", "Pod")):
    gs, al = [], []
    for a in apps:
        kinds = list(extra_kinds)
        if a == root and root_kind not in kinds:
            kinds = [root_kind] + kinds
        gg = app_groups(a, kinds=kinds, root_kind=root_kind if a == root else None)
        gs += gg
        if a == root:
            al.append([g["id"] for g in gg if g["kind"] in (root_kind, "Pod", "ReplicaSet")])
        elif len(gg) > 1:
            al.append([g["id"] for g in gg])
    return gs, al


# ---------------------------------------------------------------------------- 2
def inc_priority_preempt(num):
    t0 = ts_base(5, 22, 40)
    s = Snap(num, 202, t0, 40, style={"events_api": "events.k8s.io/v1", "ts": "iso", "managed_fields": True,
                                       "pydict_tags": True})
    tf = t0 + 16 * 60
    bns = "search-batch"
    svcs = ["frontend-proxy", "frontend", "product-catalog", "currency", "recommendation", "checkout", "cart",
            "shipping", "quote", "payment", "email", "ad"]
    bg_objects(s, [x for x in svcs if x != "product-catalog"], watch=True, mf="helm")
    pc_old = podname("product-catalog")
    pc_new = podname("product-catalog", "b")
    s.pods["product-catalog"] = pc_old
    s.fail["product-catalog"] = [(tf + 35, s.t1 + 1, {"drop": True, "nopod": True})]
    s.fail["recommendation"] = [(tf + 35, s.t1 + 1, {"err": "failed to get product list: <_InactiveRpcError of RPC that terminated with: status = StatusCode.UNAVAILABLE details = \"connection refused\">", "rate": 1.0})]
    s.traffic(every=10, mix=["browse", "product", "checkout", "cart", "browse", "shipping"])

    def mk_re(after, t):
        c = container("reindexer", "registry.internal.example.com/search/reindexer:4.12.0", None,
                      [{"name": "ES_URL", "value": "http://opensearch.search.svc:9200"}, {"name": "BATCH_SIZE", "value": "5000"}],
                      {"requests": {"cpu": "2", "memory": "4Gi"}, "limits": {"memory": "6Gi"}})
        d = deployment("search-reindexer", bns, t0, 771200 if not after else 774915, 7 if not after else 8, [c], replicas=4,
                       labels={"app": "search-reindexer", "team": "search"},
                       pod_extra={"priorityClassName": "platform-critical" if after else "batch-low"},
                       mf="kubectl-edit" if after else "argocd-controller",
                       status={"observedGeneration": 8 if after else 7, "replicas": 4, "readyReplicas": 4 if after else 2,
                               "availableReplicas": 4 if after else 2, "updatedReplicas": 4})
        d["spec"]["selector"] = {"matchLabels": {"app": "search-reindexer"}}
        d["spec"]["template"]["metadata"]["labels"] = {"app": "search-reindexer"}
        return d
    dep_series(s, "search-reindexer", tf, mk_re, watch=True, ns=bns)
    # product-catalog deployment + pods
    def mk_pc(after, t):
        return deployment("product-catalog", NS, t0, 51200, 3, [std_container("product-catalog")], mf="helm",
                          status={"observedGeneration": 3, "replicas": 1, "unavailableReplicas": 1,
                                  "conditions": [{"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable"}]} if after else None)
    s.obj(t0 + 10, mk_pc(False, t0), "ADDED")
    s.obj(t0 + 10, service("product-catalog", NS, t0, SVC_PORTS["product-catalog"]), "ADDED")
    s.obj(tf + 36, mk_pc(True, tf + 36), "MODIFIED")
    s.obj(t0 + 11, pod_obj(pc_old, NS, pc_old.rsplit("-", 1)[0], t0, "ip-10-0-3-12.ec2.internal",
                           containers=[std_container("product-catalog")]), "ADDED")
    s.obj(tf + 34, pod_obj(pc_old, NS, pc_old.rsplit("-", 1)[0], tf, "ip-10-0-3-12.ec2.internal",
                           containers=[std_container("product-catalog")]), "DELETED")
    s.obj(tf + 36, pod_obj(pc_new, NS, pc_new.rsplit("-", 1)[0], tf, None, phase="Pending", ready=False,
                           containers=[std_container("product-catalog")]), "ADDED")
    # harmless decoy: products ConfigMap edited 3 minutes earlier
    cm = {"apiVersion": "v1", "kind": "ConfigMap",
          "metadata": meta("product-catalog-products", NS, t0 - 86400 * 6, {"app.kubernetes.io/name": "product-catalog"}, None, 50011),
          "data": {"products.json": json.dumps({"products": [{"id": "OLJCESPC7Z", "name": "National Park Foundation Explorascope", "priceUsd": {"currencyCode": "USD", "units": 101, "nanos": 960000000}}]})}}
    s.obj(t0 + 12, cm, "ADDED")
    cm2 = json.loads(json.dumps(cm))
    cm2["metadata"]["resourceVersion"] = "774602"
    cm2["data"]["products.json"] = cm2["data"]["products.json"].replace("101", "99")
    s.obj(tf - 190, cm2, "MODIFIED")
    node = "ip-10-0-3-12.ec2.internal"
    rp = [podname("search-reindexer", "p", i) for i in range(4)]
    s.ev(tf + 1, "Deployment", "search-reindexer", "ScalingReplicaSet", f"Scaled up replica set {rp[2].rsplit('-', 1)[0]} to 4", ns=bns, comp="deployment-controller")
    for i in (2, 3):
        s.ev(tf + 3 + i, "Pod", rp[i], "FailedScheduling", "0/5 nodes are available: 5 Insufficient cpu. preemption: 0/5 nodes are available: 5 No preemption victims found for incoming pod.", "Warning", ns=bns, comp="default-scheduler", count=31, first=t0)
    s.ev(tf + 30, "Pod", pc_old, "Preempted", f"Preempted by pod {h('rp2', 8)}-5c2e-4f0a-9d1b-{h('rp2x', 12)} on node {node}", "Normal", comp="default-scheduler")
    s.ev(tf + 31, "Pod", pc_old, "Killing", "Stopping container product-catalog", host=node)
    s.ev(tf + 33, "Pod", rp[2], "Scheduled", f"Successfully assigned {bns}/{rp[2]} to {node}", ns=bns, comp="default-scheduler")
    s.ev(tf + 60, "Pod", rp[3], "Scheduled", f"Successfully assigned {bns}/{rp[3]} to ip-10-0-1-88.ec2.internal", ns=bns, comp="default-scheduler")
    s.ev(tf + 36, "ReplicaSet", pc_new.rsplit("-", 1)[0], "SuccessfulCreate", f"Created pod: {pc_new}", comp="replicaset-controller")
    s.ev(s.t1 - 20, "Pod", pc_new, "FailedScheduling",
         "0/5 nodes are available: 2 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 3 Insufficient cpu. preemption: 0/5 nodes are available: 2 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.",
         "Warning", comp="default-scheduler", count=17, first=tf + 37)
    # noise: HPA of frontend, cert-manager in monitoring
    s.ev(t0 + 300, "HorizontalPodAutoscaler", "frontend", "SuccessfulRescale", "New size: 2; reason: cpu resource utilization (percentage of request) above target", comp="horizontal-pod-autoscaler")
    noise_other_ns(s, "cert", t0 + 500)
    s.log(tf + 40, "recommendation", "WARNING", "product catalog channel reconnecting")
    s.std_metrics(["frontend", "frontend-proxy", "product-catalog", "recommendation", "checkout"])
    std_alerts(s, [tf + 420, tf + 720, s.t1 - 10],
               [("RequestErrorRate", svc_labels("frontend"), tf + 150, 0.42, "Error rate above threshold on frontend", "critical"),
                ("RequestErrorRate", svc_labels("recommendation"), tf + 160, 0.97, "Error rate above threshold on recommendation", "warning"),
                ("RequestErrorRate", svc_labels("checkout"), tf + 170, 0.88, "Error rate above threshold on checkout", "critical"),
                ("KubePodNotReady", {"namespace": NS, "pod": pc_new}, tf + 300, 1, f"Pod otel-demo/{pc_new} has been in a non-ready state for longer than 5 minutes.", "warning")],
               "am2")
    gs, al = otel_gt_groups(["product-catalog", "frontend", "recommendation", "checkout"])
    gs = [G("search-reindexer-deployment-1", "Deployment", bns, ["search-reindexer\\b"], root=True),
          G("search-reindexer-pod-1", "Pod", bns, ["search-reindexer-.*"])] + gs
    al = [["search-reindexer-deployment-1", "search-reindexer-pod-1"]] + al
    s.gt = gt(gs, al,
              [P("search-reindexer-deployment-1", "search-reindexer-pod-1", "priorityClassName changed from batch-low to platform-critical", "pending batch pods now preempt lower-priority pods"),
               P("search-reindexer-pod-1", "product-catalog-pod-1", "preemption on a full node", "product-catalog pod evicted and replacement Pending (Insufficient cpu)"),
               P("product-catalog-service-1", "recommendation-service-1", "no product-catalog endpoints", "recommendation errors"),
               P("product-catalog-service-1", "frontend-service-1", "no product-catalog endpoints", "frontend errors"),
               P("product-catalog-service-1", "checkout-service-1", "no product-catalog endpoints", "checkout errors")],
              [{"category": "Change", "condition": "batch workload given a high PriorityClass preempts an application pod",
                "entity": {"group_id": "search-reindexer-deployment-1", "kind": "Deployment", "name": "search-reindexer"}, "fault_mechanism": "custom"}],
              [A("frontend-service-1", "RequestErrorRate", "product-catalog unavailable"),
               A("recommendation-service-1", "RequestErrorRate", "product-catalog unavailable"),
               A("checkout-service-1", "RequestErrorRate", "product-catalog unavailable"),
               A("product-catalog-pod-1", "KubePodNotReady", "replacement pod pending after preemption")],
              [("restore_priority_class", "set search-reindexer priorityClassName back to batch-low")])
    return s


# ---------------------------------------------------------------------------- 3
BI = "book-info"


def bi_dep(name, ver, t0, rv, gen=1, replicas=1, status=None):
    d = deployment(f"{name}-{ver}", BI, t0, rv, gen,
                   [container(name, f"docker.io/istio/examples-bookinfo-{name}-{ver}:1.20.2", [("http", 9080)], None,
                              {"requests": {"cpu": "10m", "memory": "64Mi"}})], replicas,
                   labels={"app": name, "version": ver}, status=status)
    d["spec"]["selector"] = {"matchLabels": {"app": name, "version": ver}}
    d["spec"]["template"]["metadata"] = {"labels": {"app": name, "version": ver},
                                         "annotations": {"sidecar.istio.io/inject": "true"}}
    d["spec"]["template"]["spec"]["serviceAccountName"] = f"bookinfo-{name}"
    return d


def inc_istio_subset(num):
    t0 = ts_base(8, 14, 0)
    s = Snap(num, 303, t0, 36, ns=BI, flows=BOOKINFO_FLOWS,
             style={"events_api": "v1", "ts": "ch", "double_encode": True, "short_kind": True, "quote_all": True,
                    "swallow": ("productpage",), "cluster": "mesh-prod-2"})
    tf = t0 + 15 * 60
    for svc in ("productpage", "details", "reviews", "ratings"):
        s.pods[svc] = podname(svc + "-v1" if svc != "reviews" else "reviews-v2")
    s.fail["reviews"] = [(tf + 8, s.t1 + 1, {"drop": True, "err": "upstream connect error or disconnect/reset before headers. reset reason: no healthy upstream (503 UH)"})]
    s.traffic(every=6)
    tl = ticks(s, 240, 30)
    for t in tl:
        for name, vers in (("productpage", ["v1"]), ("details", ["v1"]), ("reviews", ["v1", "v2", "v3"]), ("ratings", ["v1"])):
            for v in vers:
                s.obj(t, bi_dep(name, v, t0, 3000 + len(name) + len(v), replicas=0 if (name == "reviews" and v != "v2") else 1))
            s.obj(t + 1, service(name, BI, t0, [("http", 9080, 9080)], selector={"app": name}))
        vs = {"apiVersion": "networking.istio.io/v1", "kind": "VirtualService",
              "metadata": meta("reviews", BI, t0 - 86400 * 20, None, None, 40211, 3),
              "spec": {"hosts": ["reviews"], "http": [{"route": [{"destination": {"host": "reviews", "subset": "v2"}}]}]}}
        s.obj(t + 2, vs)
        vsd = {"apiVersion": "networking.istio.io/v1", "kind": "VirtualService",
               "metadata": meta("details", BI, t0 - 86400 * 20, None, None, 40100 if t < tf - 100 else 41890, 1 if t < tf - 100 else 2),
               "spec": {"hosts": ["details"], "http": [dict({"route": [{"destination": {"host": "details", "subset": "v1"}}]},
                                                            **({"timeout": "10s", "retries": {"attempts": 2, "perTryTimeout": "4s"}} if t >= tf - 100 else {}))]}}
        s.obj(t + 3, vsd)
        after = t >= tf
        dr = {"apiVersion": "networking.istio.io/v1", "kind": "DestinationRule",
              "metadata": meta("reviews", BI, t0 - 86400 * 20, {"owner": "reviews-team"}, None, 40212 if not after else 41977, 2 if not after else 3),
              "spec": {"host": "reviews", "trafficPolicy": {"loadBalancer": {"simple": "LEAST_REQUEST"}},
                       "subsets": [{"name": "v1", "labels": {"version": "v1"}},
                                   {"name": "v2", "labels": {"version": "v2-canary" if after else "v2"}},
                                   {"name": "v3", "labels": {"version": "v3"}}]}}
        s.obj(t + 4, dr)
        for name in ("details", "ratings", "productpage"):
            s.obj(t + 5, {"apiVersion": "networking.istio.io/v1", "kind": "DestinationRule",
                          "metadata": meta(name, BI, t0 - 86400 * 20, None, None, 40000 + len(name), 1),
                          "spec": {"host": name, "subsets": [{"name": "v1", "labels": {"version": "v1"}}]}})
        for svc in ("productpage", "details", "reviews", "ratings"):
            pn = s.pod(svc, t)
            s.obj(t + 6, pod_obj(pn, BI, pn.rsplit("-", 1)[0], t, "ip-10-1-0-%d.ec2.internal" % (10 + len(svc)),
                                 containers=[container(svc, f"docker.io/istio/examples-bookinfo-{svc}:1.20.2"),
                                             container("istio-proxy", "docker.io/istio/proxyv2:1.22.3")],
                                 labels={"app": svc}))
    # envoy access logs in productpage sidecar
    tt = tf + 10
    while tt < s.t1:
        s.log(tt, "productpage", "INFO",
              f'[{iso(tt, 3)}] "GET /reviews/0 HTTP/1.1" 503 UH no_healthy_upstream - "-" 0 19 0 - "-" "python-requests/2.31.0" "{h(str(tt), 8)}-{h(str(tt) + "a", 4)}" "reviews:9080" "-" outbound|9080|v2|reviews.book-info.svc.cluster.local - 10.96.44.12:9080 10.244.1.17:50122 - -',
              attrs={"log.file.name": "istio-proxy"})
        tt += 23
    s.log(tf + 2, "productpage", "INFO", '2026-03-08T14:15:02.117Z info ads ADS: "10.244.1.17:46682" productpage-v1.book-info-56 resources:29 size:41.2kB cached:28/29',
          attrs={"log.file.name": "istio-proxy"})
    # istiod event-ish log: push after DR change
    # noise: ratings pod rescheduled after a node maintenance (unrelated), logging ns trouble
    old_r = s.pod("ratings")
    new_r = podname("ratings-v1", "m")
    s.pod_switch["ratings"] = [(t0 + 6 * 60 + 20, new_r)]
    s.ev(t0 + 6 * 60, "Node", "ip-10-1-0-17.ec2.internal", "NodeNotSchedulable", "Node ip-10-1-0-17.ec2.internal status is now: NodeNotSchedulable", comp="kubelet", ns="default")
    s.ev(t0 + 6 * 60 + 2, "Pod", old_r, "Killing", "Stopping container ratings")
    s.ev(t0 + 6 * 60 + 3, "ReplicaSet", new_r.rsplit("-", 1)[0], "SuccessfulCreate", f"Created pod: {new_r}", comp="replicaset-controller")
    s.ev(t0 + 6 * 60 + 9, "Pod", new_r, "Started", "Started container ratings")
    s.ev(t0 + 6 * 60 + 12, "Pod", new_r, "Unhealthy", "Readiness probe failed: Get \"http://10.244.2.9:15021/healthz/ready\": dial tcp 10.244.2.9:15021: connect: connection refused", "Warning", count=2)
    na = noise_other_ns(s, "logging", t0 + 3 * 60)
    s.std_metrics(["productpage", "reviews", "details", "ratings"])
    # istio metrics for productpage -> reviews
    t = s.t0
    c200 = c503 = 0.0
    while t <= s.t1:
        rate = 10.0
        if t >= tf + 8:
            c503 += rate * 60
        else:
            c200 += rate * 60
        for code, v in (("200", c200), ("503", c503)):
            s.met("service", "reviews", "istio_requests_total", t, round(v, 1),
                  {"destination_service_name": "reviews", "destination_service_namespace": BI, "source_workload": "productpage-v1",
                   "response_code": code, "response_flags": "UH" if code == "503" else "-", "reporter": "source"})
        t += 60
    std_alerts(s, [tf + 300, tf + 600, s.t1 - 5],
               [("IstioHighRequestErrorRate", {"destination_service_name": "reviews", "namespace": BI, "service_name": "reviews"}, tf + 70, 1.0,
                 "More than 5% of requests to reviews.book-info fail (reporter=source)", "critical"),
                ("ReviewsNoTraffic", {"service_name": "reviews", "namespace": BI}, tf + 200, 0,
                 "reviews-v2 received no inbound requests in 3m", "warning")],
               "prom", extra=[na])
    gs = [G("reviews-destinationrule-1", "DestinationRule", BI, ["reviews\\b"], root=True),
          G("reviews-virtualservice-1", "VirtualService", BI, ["reviews\\b"]),
          G("reviews-service-1", "Service", BI, ["reviews\\b"]),
          G("reviews-pod-1", "Pod", BI, ["reviews-v.*"]),
          G("productpage-service-1", "Service", BI, ["productpage\\b"]),
          G("productpage-pod-1", "Pod", BI, ["productpage-v1-.*"])]
    s.gt = gt(gs, [["reviews-service-1", "reviews-pod-1"], ["productpage-service-1", "productpage-pod-1"]],
              [P("reviews-destinationrule-1", "reviews-service-1", "subset v2 selects version=v2-canary, which no pod carries", "the VirtualService route to subset v2 has no healthy upstream (503 UH)"),
               P("reviews-service-1", "productpage-service-1", "503 no_healthy_upstream", "product page rendered without reviews")],
              [{"category": "Change", "condition": "DestinationRule subset label matches no pods",
                "entity": {"group_id": "reviews-destinationrule-1", "kind": "DestinationRule", "name": "reviews"}, "fault_mechanism": "custom"}],
              [A("reviews-service-1", "IstioHighRequestErrorRate", "503 UH from the empty subset"),
               A("reviews-service-1", "ReviewsNoTraffic", "no request reaches reviews-v2")],
              [("fix_subset_labels", "restore subset v2 labels version: v2")])
    return s


# ---------------------------------------------------------------------------- 4
def inc_hpa_wrong_metric(num):
    t0 = ts_base(10, 18, 5)
    s = Snap(num, 404, t0, 45, style={"events_api": "events.k8s.io/v1", "ts": "ch", "metric_extra": True, "recorded": True,
                                       "json_logs": {"checkout": True, "payment": False}})
    tf = t0 + 14 * 60
    t_down = tf + 5 * 60 + 30     # HPA stabilization window 300s
    svcs = ["frontend-proxy", "frontend", "product-catalog", "currency", "cart", "shipping", "quote", "email",
            "recommendation", "ad"]
    bg_objects(s, svcs)
    ck = [podname("checkout", "h", i) for i in range(4)]
    s.pods["checkout"] = ck[0]
    s.fail["checkout"] = [(t_down, t_down + 240, {"lat": 900}), (t_down + 240, s.t1 + 1, {"lat": 2600, "err": "context deadline exceeded", "rate": 0.35})]
    s.fail["frontend"] = [(t_down + 240, s.t1 + 1, {"lat": 400})]
    s.traffic(every=8, mix=["checkout", "browse", "product", "checkout", "cart", "shipping"])
    tl = ticks(s, 300, 20)
    for t in tl:
        after = t >= tf
        hpa = {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
               "metadata": meta("checkout", NS, t0 - 86400 * 40, {"app.kubernetes.io/name": "checkout"},
                                {"meta.helm.sh/release-name": "otel-demo"}, 90210 if not after else 93377),
               "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "checkout"},
                        "minReplicas": 1, "maxReplicas": 8,
                        "metrics": ([{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}}]
                                    if not after else
                                    [{"type": "External", "external": {"metric": {"name": "kafka_consumergroup_lag", "selector": {"matchLabels": {"consumergroup": "checkout"}}},
                                                                        "target": {"type": "AverageValue", "averageValue": "100"}}}]),
                        "behavior": {"scaleDown": {"stabilizationWindowSeconds": 300, "policies": [{"type": "Percent", "value": 100, "periodSeconds": 15}]}}},
               "status": {"currentReplicas": 4 if t < t_down else 1, "desiredReplicas": 4 if t < tf else 1,
                          "currentMetrics": ([{"type": "Resource", "resource": {"name": "cpu", "current": {"averageUtilization": 64, "averageValue": "320m"}}}]
                                             if not after else [{"type": "External", "external": {"metric": {"name": "kafka_consumergroup_lag"}, "current": {"averageValue": "0"}}}])}}
        s.obj(t, hpa)
        dep = deployment("checkout", NS, t0, 90300 if t < t_down else 93390, 6, [std_container("checkout")], replicas=4 if t < t_down else 1)
        s.obj(t + 1, dep)
        s.obj(t + 2, service("checkout", NS, t0, SVC_PORTS["checkout"]))
        for i, p in enumerate(ck if t < t_down else ck[:1]):
            s.obj(t + 3, pod_obj(p, NS, p.rsplit("-", 1)[0], t, "ip-10-0-%d-40.ec2.internal" % (i + 1), containers=[std_container("checkout")]))
    s.ev(t_down, "HorizontalPodAutoscaler", "checkout", "SuccessfulRescale", "New size: 1; reason: All metrics below target", comp="horizontal-pod-autoscaler")
    s.ev(t_down + 1, "Deployment", "checkout", "ScalingReplicaSet", f"Scaled down replica set {ck[0].rsplit('-', 1)[0]} to 1 from 4", comp="deployment-controller")
    for p in ck[1:]:
        s.ev(t_down + 2, "Pod", p, "Killing", "Stopping container checkout")
    # noise: payment restarted by an unrelated config rollout near the fault; batch ns trouble
    noise_restart(s, "payment", tf - 150, "payment service started: listening on port 8080 (LOG_LEVEL=info)")
    na = noise_other_ns(s, "batch", t0 + 9 * 60)
    cpu = {"checkout": lambda t: 0.32 if t < t_down else 0.98 + 0.03 * ((int(t) // 60) % 3)}
    s.std_metrics(["checkout", "frontend", "frontend-proxy", "payment", "cart"], cpu=cpu)
    std_alerts(s, [t_down + 300, t_down + 600, s.t1 - 30],
               [("RequestLatency", svc_labels("checkout"), t_down + 60, 2.9, "p95 latency above 1.5s on checkout", "warning"),
                ("RequestLatency", svc_labels("frontend"), t_down + 200, 3.4, "p95 latency above 1.5s on frontend", "warning"),
                ("RequestErrorRate", svc_labels("checkout"), t_down + 300, 0.33, "Error rate above threshold on checkout", "critical"),
                ("KubeHpaReplicasMismatch", {"namespace": NS, "horizontalpodautoscaler": "checkout"}, tf + 60, 1,
                 "HPA otel-demo/checkout has not matched the desired number of replicas for longer than 15 minutes.", "warning")],
               "webhook", extra=[na])
    gs, al = otel_gt_groups(["checkout", "frontend", "frontend-proxy"], extra_kinds=("Service", "Pod", "Deployment"))
    gs = [G("checkout-hpa-1", "HorizontalPodAutoscaler", NS, ["checkout\\b"], root=True)] + gs
    s.gt = gt(gs, al,
              [P("checkout-hpa-1", "checkout-deployment-1", "HPA metric switched from cpu utilization to kafka_consumergroup_lag of a group checkout does not consume", "metric reads 0, HPA scales checkout from 4 to 1"),
               P("checkout-deployment-1", "checkout-service-1", "one replica under full load", "checkout latency and timeouts"),
               P("checkout-service-1", "frontend-service-1", "slow checkout", "frontend latency"),
               P("frontend-service-1", "frontend-proxy-service-1", "slow frontend", "frontend-proxy latency")],
              [{"category": "Change", "condition": "HPA scales on a metric unrelated to load",
                "entity": {"group_id": "checkout-hpa-1", "kind": "HorizontalPodAutoscaler", "name": "checkout"}, "fault_mechanism": "custom"}],
              [A("checkout-service-1", "RequestLatency", "saturated single replica"),
               A("frontend-service-1", "RequestLatency", "slow checkout"),
               A("checkout-service-1", "RequestErrorRate", "timeouts")],
              [("restore_hpa_metric", "restore the cpu utilization metric on the checkout HPA")])
    return s


# ---------------------------------------------------------------------------- 5
def inc_max_unavailable(num):
    t0 = ts_base(12, 7, 30)
    s = Snap(num, 505, t0, 38, style={"events_api": "v1", "ts": "iso", "status_prefix": True, "metric_epoch": True,
                                       "json_logs": {"cart": False}})
    tf = t0 + 17 * 60
    t_ready = tf + 4 * 60 + 10
    svcs = ["frontend-proxy", "frontend", "product-catalog", "currency", "checkout", "shipping", "quote", "email",
            "payment", "recommendation", "ad", "valkey-cart"]
    bg_objects(s, svcs, watch=True)
    old = [podname("cart", "o", i) for i in range(3)]
    new = [podname("cart", "n", i) for i in range(3)]
    s.pods["cart"] = old[0]
    s.pod_switch["cart"] = [(t_ready, new[0])]
    s.fail["cart"] = [(tf + 6, t_ready, {"drop": True, "nopod": True, "err": "Status(StatusCode=\"Unavailable\", Detail=\"Error connecting to subchannel.\")"})]
    s.traffic(every=7, mix=["cart", "browse", "checkout", "product", "cart", "shipping"])

    def mk(after, t):
        c = std_container("cart", "2.0.3" if after else "2.0.2")
        c["readinessProbe"] = {"grpc": {"port": 8080}, "initialDelaySeconds": 30, "periodSeconds": 10, "failureThreshold": 3}
        st = {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 0, "maxUnavailable": "100%"}} if after else None
        status = None
        if after and t < t_ready:
            status = {"observedGeneration": 9, "replicas": 3, "updatedReplicas": 3, "unavailableReplicas": 3,
                      "conditions": [{"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable", "message": "Deployment does not have minimum availability."}]}
        return deployment("cart", NS, t0, 64000 if not after else (64100 if t < t_ready else 64188), 8 if not after else 9, [c], replicas=3,
                          strategy=st, status=status, ann={"deployment.kubernetes.io/revision": "9" if after else "8",
                                                            "kubernetes.io/change-cause": "ci: bump cart to 2.0.3; speed up rollouts"})
    s.obj(t0 + 10, mk(False, t0), "ADDED")
    s.obj(t0 + 10, service("cart", NS, t0, SVC_PORTS["cart"]), "ADDED")
    s.obj(tf, mk(True, tf), "MODIFIED")
    s.obj(t_ready + 2, mk(True, t_ready + 2), "MODIFIED")
    for i in range(3):
        s.obj(t0 + 11, pod_obj(old[i], NS, old[i].rsplit("-", 1)[0], t0, f"ip-10-0-{i + 1}-61.ec2.internal", containers=[std_container("cart")]), "ADDED")
        s.obj(tf + 31, pod_obj(old[i], NS, old[i].rsplit("-", 1)[0], tf, f"ip-10-0-{i + 1}-61.ec2.internal", containers=[std_container("cart")]), "DELETED")
        s.obj(tf + 2, pod_obj(new[i], NS, new[i].rsplit("-", 1)[0], tf, f"ip-10-0-{i + 1}-61.ec2.internal", containers=[std_container("cart", "2.0.3")], ready=False), "ADDED")
        s.obj(t_ready - 5 + i * 3, pod_obj(new[i], NS, new[i].rsplit("-", 1)[0], t_ready, f"ip-10-0-{i + 1}-61.ec2.internal", containers=[std_container("cart", "2.0.3")]), "MODIFIED")
    rs_o, rs_n = old[0].rsplit("-", 1)[0], new[0].rsplit("-", 1)[0]
    s.ev(tf + 1, "Deployment", "cart", "ScalingReplicaSet", f"Scaled down replica set {rs_o} to 0 from 3", comp="deployment-controller")
    s.ev(tf + 1, "Deployment", "cart", "ScalingReplicaSet", f"Scaled up replica set {rs_n} to 3", comp="deployment-controller")
    for i in range(3):
        s.ev(tf + 2, "Pod", old[i], "Killing", "Stopping container cart", host=f"ip-10-0-{i + 1}-61.ec2.internal")
        s.ev(tf + 3, "ReplicaSet", rs_n, "SuccessfulCreate", f"Created pod: {new[i]}", comp="replicaset-controller")
        s.ev(tf + 9 + i, "Pod", new[i], "Pulling", f'Pulling image "{img("cart", "2.0.3")}"', host=f"ip-10-0-{i + 1}-61.ec2.internal")
        s.ev(tf + 71 + i * 4, "Pod", new[i], "Pulled", f'Successfully pulled image "{img("cart", "2.0.3")}" in 1m2.114s (1m2.114s including waiting). Image size: 61772145 bytes.', host=f"ip-10-0-{i + 1}-61.ec2.internal")
        s.ev(tf + 73 + i * 4, "Pod", new[i], "Started", "Started container cart", host=f"ip-10-0-{i + 1}-61.ec2.internal")
        s.ev(tf + 150 + i * 4, "Pod", new[i], "Unhealthy", "Readiness probe failed: timeout: failed to connect service \":8080\" within 1s: context deadline exceeded", "Warning", count=5, host=f"ip-10-0-{i + 1}-61.ec2.internal")
    s.log(tf + 80, "cart", "INFO", "Application started. Press Ctrl+C to shut down. Hosting environment: Production")
    s.log(tf + 95, "cart", "INFO", "Warming product cache from valkey-cart:6379 (connect timeout 5000ms)")
    s.log(t_ready - 10, "cart", "INFO", "Warm-up complete in 168.4s")
    # noise: unrelated flagd-ui restart, a harmless valkey-cart annotation; second namespace
    noise_restart(s, "image-provider", t0 + 5 * 60, "nginx: [notice] start worker processes")
    vk = deployment("valkey-cart", NS, t0, 64050, 2, [container("valkey-cart", "valkey/valkey:7.2-alpine", [("valkey", 6379)])],
                    ann={"deployment.kubernetes.io/revision": "2", "backup.velero.io/backup-volumes": "valkey-data"})
    s.obj(tf - 130, vk, "MODIFIED")
    na = noise_other_ns(s, "ci-job", t0 + 12 * 60)
    s.std_metrics(["cart", "frontend", "checkout", "frontend-proxy"])
    std_alerts(s, [tf + 150, tf + 240, s.t1 - 20],
               [("RequestErrorRate", svc_labels("frontend"), tf + 60, 0.48, "Error rate above threshold on frontend", "critical"),
                ("RequestErrorRate", svc_labels("checkout"), tf + 70, 0.9, "Error rate above threshold on checkout", "critical"),
                ("KubeDeploymentReplicasMismatch", {"namespace": NS, "deployment": "cart"}, tf + 30, 0, "Deployment otel-demo/cart has 0 of 3 replicas available", "warning"),
                ("TargetDown", {"namespace": NS, "job": "cart", "service": "cart"}, tf + 40, 100, "100% of the cart/cart targets in otel-demo namespace are down.", "warning")],
               "am2", extra=[na])
    gs, al = otel_gt_groups(["cart", "frontend", "checkout"], root="cart", extra_kinds=("Service", "Pod", "ReplicaSet"))
    s.gt = gt(gs, al,
              [P("cart-deployment-1", "cart-pod-1", "rollout with maxUnavailable 100% and maxSurge 0", "all three cart pods terminated at once; new pods not ready for ~4 minutes"),
               P("cart-service-1", "frontend-service-1", "cart has no ready endpoints", "frontend cart requests fail"),
               P("cart-service-1", "checkout-service-1", "cart has no ready endpoints", "checkout fails on GetCart")],
              [{"category": "Change", "condition": "Deployment strategy maxUnavailable 100% during rollout",
                "entity": {"group_id": "cart-deployment-1", "kind": "Deployment", "name": "cart"}, "fault_mechanism": "custom"}],
              [A("frontend-service-1", "RequestErrorRate", "cart unavailable"), A("checkout-service-1", "RequestErrorRate", "cart unavailable"),
               A("cart-deployment-1", "KubeDeploymentReplicasMismatch", "all replicas replaced at once")],
              [("restore_rollout_strategy", "set maxUnavailable back to 25% (or maxSurge>0)")])
    return s


# ---------------------------------------------------------------------------- 6
def inc_token_audience(num):
    t0 = ts_base(14, 11, 50)
    s = Snap(num, 606, t0, 40, style={"events_api": "events.k8s.io/v1", "ts": "ch", "managed_fields": True, "orphan_roots": True,
                                       "json_logs": {"payment": True}})
    tf = t0 + 15 * 60
    svcs = ["frontend-proxy", "frontend", "product-catalog", "currency", "cart", "shipping", "quote", "email",
            "recommendation", "ad", "checkout"]
    bg_objects(s, svcs, mf="helm")
    p_old, p_new = podname("payment", "v6"), podname("payment", "v7")
    s.pods["payment"] = p_old
    s.pod_switch["payment"] = [(tf + 25, p_new)]
    verr = ("vault: failed to renew card-processor credentials: Error making API request. URL: PUT http://vault.vault.svc:8200/v1/auth/kubernetes/login "
            "Code: 403. Errors: * invalid audience (aud) claim: audience claim does not match any expected audience")
    s.fail["payment"] = [(tf + 25 + 60, s.t1 + 1, {"err": "13 INTERNAL: Charge failed: card-processor credentials unavailable", "rate": 1.0})]
    s.traffic(every=8, mix=["checkout", "browse", "checkout", "product", "cart"])

    def mk(after, t):
        c = std_container("payment")
        c["volumeMounts"] = [{"name": "vault-token", "mountPath": "/var/run/secrets/vault", "readOnly": True}]
        c["env"].append({"name": "VAULT_ADDR", "value": "http://vault.vault.svc:8200"})
        c["env"].append({"name": "VAULT_ROLE", "value": "payment"})
        vol = {"name": "vault-token", "projected": {"defaultMode": 420, "sources": [{"serviceAccountToken": {
            "audience": "https://kubernetes.default.svc.cluster.local" if after else "vault", "expirationSeconds": 3600, "path": "token"}}]}}
        d = deployment("payment", NS, t0, 70001 if not after else 72455, 6 if not after else 7, [c],
                       pod_extra={"volumes": [vol], "serviceAccountName": "payment"},
                       mf="kustomize-controller" if after else "helm",
                       ann={"deployment.kubernetes.io/revision": "7" if after else "6"})
        return d
    dep_series(s, "payment", tf, mk, pod_state=lambda t: (s.pod("payment", t), {"node": "ip-10-0-2-19.ec2.internal", "containers": [std_container("payment")]}))
    s.obj(t0 + 30, service("payment", NS, t0, SVC_PORTS["payment"]))
    s.obj(t0 + 31, service("accounting", NS, t0, [("metrics", 9464, 9464)]))
    s.obj(t0 + 32, service("vault", "vault", t0, [("http", 8200, 8200), ("https-internal", 8201, 8201)], selector={"app.kubernetes.io/name": "vault"}))
    rollout_events(s, "payment", tf, p_old, p_new)
    tt = tf + 85
    while tt < s.t1:
        s.log(tt, "payment", "ERROR", json.dumps({"level": 50, "time": int(tt * 1000), "pid": 1, "hostname": p_new, "msg": verr}), ns=NS)
        tt += 60
    # vault side (victim-looking)
    for k in range(int((s.t1 - tf - 85) // 60)):
        tt = tf + 86 + 60 * k
        s.logs.append((tt, "", "", "ERROR", "vault",
                       f"{iso(tt, 3)} [ERROR] auth.kubernetes.auth_kubernetes_6b1d8c2a: login unauthorized: err=\"invalid audience (aud) claim: audience claim does not match any expected audience\" role=payment",
                       {"service.name": "vault", "k8s.namespace.name": "vault", "k8s.pod.name": "vault-0", "k8s.statefulset.name": "vault"}, {}))
    s.logs.append((tf - 400, "", "", "INFO", "vault", f"{iso(tf - 400, 3)} [INFO]  core: successful mount: namespace=\"\" path=pki_int/ type=pki",
                   {"service.name": "vault", "k8s.namespace.name": "vault", "k8s.pod.name": "vault-0", "k8s.statefulset.name": "vault"}, {}))
    s.obj(t0 + 40, {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": meta("vault", "vault", t0 - 86400 * 90, {"app.kubernetes.io/name": "vault"}, None, 11002, 4),
                    "spec": {"replicas": 1, "serviceName": "vault-internal", "selector": {"matchLabels": {"app.kubernetes.io/name": "vault"}},
                             "template": {"metadata": {"labels": {"app.kubernetes.io/name": "vault"}},
                                          "spec": {"containers": [container("vault", "hashicorp/vault:1.17.2", [("http", 8200), ("https-internal", 8201)])]}}},
                    "status": {"replicas": 1, "readyReplicas": 1}})
    # harmless: vault role config reload (a noise log) and flagd restarted by its own probe; second namespace
    noise_restart(s, "flagd", t0 + 7 * 60, "Flag sync started: file /etc/flagd/demo.flagd.json")
    na = noise_other_ns(s, "cert", t0 + 10 * 60)
    s.ev(tf + 5 * 60, "Pod", "vault-0", "Unhealthy", "Readiness probe failed: Key Value --- ----- Seal Type shamir Initialized true Sealed false ... HA Enabled false", "Warning", ns="vault", count=1)
    s.std_metrics(["payment", "checkout", "frontend", "frontend-proxy"])
    t = s.t0
    while t <= s.t1:
        s.met("service", "vault", "vault_core_handle_login_request_count", t, 40 + (int((t - tf - 85) / 60) if t > tf + 85 else 0),
              {"namespace": "vault", "service_name": "vault", "auth_method": "kubernetes"})
        s.met("service", "vault", "vault_route_rollback_auth_kubernetes_errors", t, (int((t - tf - 85) / 60) if t > tf + 85 else 0),
              {"namespace": "vault", "service_name": "vault"})
        t += 60
    std_alerts(s, [tf + 360, tf + 660, s.t1 - 15],
               [("VaultAuthFailuresHigh", {"namespace": "vault", "service_name": "vault", "auth_method": "kubernetes"}, tf + 150, 1.0,
                 "Kubernetes auth login failures on vault above 0.5/min", "warning"),
                ("RequestErrorRate", svc_labels("payment"), tf + 120, 1.0, "Error rate above threshold on payment", "critical"),
                ("RequestErrorRate", svc_labels("checkout"), tf + 130, 0.97, "Error rate above threshold on checkout", "critical"),
                ("CheckoutNoOrdersPlaced", {"service_name": "accounting", "namespace": NS}, tf + 400, 0, "No orders recorded in 5m", "warning")],
               "single")
    gs, al = otel_gt_groups(["payment", "checkout", "frontend", "accounting"], root="payment")
    gs.append(G("vault-service-1", "Service", "vault", ["vault\\b"]))
    gs.append(G("vault-pod-1", "Pod", "vault", ["vault-0"]))
    al.append(["vault-service-1", "vault-pod-1"])
    s.gt = gt(gs, al,
              [P("payment-deployment-1", "payment-pod-1", "projected ServiceAccount token audience changed from vault to the API server audience", "Vault kubernetes auth rejects the token (invalid aud)"),
               P("payment-pod-1", "payment-service-1", "no card-processor credentials", "every Charge fails"),
               P("payment-service-1", "checkout-service-1", "Charge fails", "PlaceOrder fails"),
               P("checkout-service-1", "frontend-service-1", "PlaceOrder fails", "checkout errors to users"),
               P("checkout-service-1", "accounting-service-1", "no orders published", "no orders recorded")],
              [{"category": "Change", "condition": "ServiceAccount token projection audience changed",
                "entity": {"group_id": "payment-deployment-1", "kind": "Deployment", "name": "payment"}, "fault_mechanism": "custom"}],
              [A("payment-service-1", "RequestErrorRate", "charges fail"), A("checkout-service-1", "RequestErrorRate", "charges fail"),
               A("vault-service-1", "VaultAuthFailuresHigh", "payment logins rejected for audience")],
              [("restore_audience", "set the projected token audience back to vault")])
    return s


# ---------------------------------------------------------------------------- 7
def inc_secret_items_key(num):
    t0 = ts_base(17, 3, 20)
    s = Snap(num, 707, t0, 40, style={"events_api": "v1", "ts": "ch", "pydict_tags": True, "metric_epoch": True,
                                       "json_logs": {"product-reviews": True}})
    tf = t0 + 18 * 60
    svcs = ["frontend-proxy", "frontend", "product-catalog", "currency", "cart", "checkout", "recommendation", "ad",
            "shipping", "quote", "payment", "email", "accounting", "postgresql"]
    bg_objects(s, svcs, watch=True)
    o, n = podname("product-reviews", "k3"), podname("product-reviews", "k4")
    s.pods["product-reviews"] = o
    s.pod_switch["product-reviews"] = [(tf + 20, n)]
    s.fail["product-reviews"] = [(tf + 20, s.t1 + 1, {"err": "StatusCode.INTERNAL: could not fetch reviews", "rate": 1.0})]
    s.fail["postgresql"] = [(tf + 20, s.t1 + 1, {"err": "FATAL: password authentication failed for user \"otelu\"", "rate": 0.0})]
    s.traffic(every=8, mix=["product", "browse", "checkout", "product", "cart"])

    def mk(after, t):
        c = std_container("product-reviews")
        c["env"] += [{"name": "DB_CONNECTION_STRING", "value": "host=postgresql user=otelu dbname=otel password_file=/run/secrets/db/password"}]
        c["volumeMounts"] = [{"name": "db", "mountPath": "/run/secrets/db", "readOnly": True}]
        items = [{"key": "replication-password" if after else "password", "path": "password"}]
        d = deployment("product-reviews", NS, t0, 33001 if not after else 33950, 4 if not after else 5, [c],
                       pod_extra={"volumes": [{"name": "db", "secret": {"secretName": "postgresql", "defaultMode": 256, "items": items}}]})
        return d
    dep_series(s, "product-reviews", tf, mk, watch=True,
               pod_state=lambda t: (s.pod("product-reviews", t), {"node": "ip-10-0-1-52.ec2.internal", "containers": [std_container("product-reviews")]}))
    s.obj(t0 + 14, service("product-reviews", NS, t0, SVC_PORTS["product-reviews"]), "ADDED")
    s.obj(t0 + 15, {"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
                    "metadata": meta("postgresql", NS, t0 - 86400 * 60, {"app.kubernetes.io/name": "postgresql"}, None, 1201),
                    "data": {"password": "KioqKioqKio=", "postgres-password": "KioqKioqKio=", "replication-password": "KioqKioqKio="}}, "ADDED")
    rollout_events(s, "product-reviews", tf, o, n)
    # postgres logs (plain text)
    tt = tf + 21
    while tt < s.t1:
        ra = {"service.name": "postgresql", "k8s.namespace.name": NS, "k8s.pod.name": podname("postgresql"), "k8s.deployment.name": "postgresql"}
        s.logs.append((tt, "", "", "ERROR", "postgresql", f'{chts(tt)[:23]} UTC [{3000 + int(tt) % 900}] FATAL:  password authentication failed for user "otelu"', ra, {}))
        s.logs.append((tt + 0.001, "", "", "INFO", "postgresql", f'{chts(tt)[:23]} UTC [{3000 + int(tt) % 900}] DETAIL:  Connection matched file "/opt/bitnami/postgresql/conf/pg_hba.conf" line 4: "host     all             all             0.0.0.0/0               md5"', ra, {}))
        s.log(tt + 0.01, "product-reviews", "ERROR", json.dumps({"levelname": "ERROR", "name": "product_reviews_server",
                                                                   "message": 'psycopg2.OperationalError: connection to server at "postgresql" (10.96.77.4), port 5432 failed: FATAL:  password authentication failed for user "otelu"'}))
        tt += 17
    # noise: accounting rollout (unrelated, new version) near fault; second namespace; a warning on image-provider
    noise_restart(s, "accounting", tf - 240, "Accounting service started, consuming topic orders")
    s.ev(t0 + 200, "Pod", podname("image-provider"), "Unhealthy", "Readiness probe failed: HTTP probe failed with statuscode: 502", "Warning", count=2)
    na = noise_other_ns(s, "batch", t0 + 4 * 60)
    s.std_metrics(["product-reviews", "postgresql", "frontend", "frontend-proxy", "accounting"])
    t = s.t0
    while t <= s.t1:
        s.met("service", "postgresql", "pg_stat_database_numbackends", t, 7 if t < tf else 5, {"datname": "otel", "namespace": NS, "service_name": "postgresql"})
        t += 60
    std_alerts(s, [tf + 300, tf + 600, s.t1 - 10],
               [("PostgresqlAuthFailures", {"namespace": NS, "service_name": "postgresql", "instance": "postgresql:9187"}, tf + 90, 3.5,
                 "Many failed authentication attempts on postgresql", "warning"),
                ("RequestErrorRate", svc_labels("product-reviews"), tf + 100, 1.0, "Error rate above threshold on product-reviews", "critical"),
                ("RequestErrorRate", svc_labels("frontend"), tf + 130, 0.27, "Error rate above threshold on frontend", "warning")],
               "prom", extra=[na])
    gs, al = otel_gt_groups(["product-reviews", "postgresql", "frontend"], root="product-reviews")
    gs.append(G("postgresql-secret-1", "Secret", NS, ["postgresql\\b"]))
    s.gt = gt(gs, al,
              [P("product-reviews-deployment-1", "product-reviews-pod-1", "Secret volume items maps key replication-password to the file password", "the pod reads the wrong password"),
               P("product-reviews-pod-1", "postgresql-service-1", "wrong password", "postgres rejects the login"),
               P("product-reviews-service-1", "frontend-service-1", "GetProductReviews fails", "product page errors")],
              [{"category": "Change", "condition": "Secret mounted with a wrong key via items",
                "entity": {"group_id": "product-reviews-deployment-1", "kind": "Deployment", "name": "product-reviews"}, "fault_mechanism": "custom"}],
              [A("postgresql-service-1", "PostgresqlAuthFailures", "product-reviews logs in with the wrong password"),
               A("product-reviews-service-1", "RequestErrorRate", "no db connection"), A("frontend-service-1", "RequestErrorRate", "reviews fail")],
              [("fix_items_key", "map key password (not replication-password) in the secret volume items")])
    return s


# ---------------------------------------------------------------------------- 8
def inc_port_rename(num):
    t0 = ts_base(19, 16, 10)
    s = Snap(num, 808, t0, 40, style={"events_api": "events.k8s.io/v1", "ts": "iso", "double_encode": True,
                                       "json_logs": {"checkout": True, "frontend": True}})
    tf = t0 + 13 * 60
    svcs = ["frontend-proxy", "frontend", "product-catalog", "cart", "checkout", "recommendation", "ad",
            "shipping", "quote", "payment", "email"]
    bg_objects(s, svcs, skip_services=("quote",))
    o, n = podname("currency", "g1"), podname("currency", "g2")
    s.pods["currency"] = o
    s.pod_switch["currency"] = [(tf + 30, n)]
    err = "14 UNAVAILABLE: failed to connect to all addresses; last error: UNKNOWN: ipv4:10.96.63.11:8080: Failed to connect to remote host: Connection refused"
    s.fail["currency"] = [(tf + 31, s.t1 + 1, {"drop": True, "err": err})]
    s.traffic(every=8, mix=["browse", "checkout", "product", "browse", "cart"])

    def mk(after, t):
        c = std_container("currency")
        c["ports"] = [{"name": "grpc-currency" if after else "grpc", "containerPort": 8080, "protocol": "TCP"}]
        c["readinessProbe"] = {"tcpSocket": {"port": 8080}, "periodSeconds": 10}
        return deployment("currency", NS, t0, 12001 if not after else 12744, 3 if not after else 4, [c],
                          ann={"deployment.kubernetes.io/revision": "4" if after else "3", "argocd.argoproj.io/sync-wave": "2"})
    dep_series(s, "currency", tf, mk, pod_state=lambda t: (s.pod("currency", t), {"node": "ip-10-0-3-8.ec2.internal", "containers": [std_container("currency")]}))
    for t in ticks(s, 300, 27):
        sv = service("currency", NS, t0, [("grpc", 8080, "grpc")])
        sv["spec"]["clusterIP"] = "10.96.63.11"
        s.obj(t, sv)
        after = t >= tf + 30
        eps = {"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice", "addressType": "IPv4",
               "metadata": meta("currency-7xk2p", NS, t0 - 86400, {"kubernetes.io/service-name": "currency", "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io"}, None, 12800 if after else 12010),
               "endpoints": [] if after else [{"addresses": ["10.244.3.21"], "conditions": {"ready": True, "serving": True, "terminating": False},
                                               "targetRef": {"kind": "Pod", "name": o, "namespace": NS}, "nodeName": "ip-10-0-3-8.ec2.internal"}],
               "ports": None if after else [{"name": "grpc", "port": 8080, "protocol": "TCP"}]}
        s.obj(t + 1, eps)
        q = service("quote", NS, t0, SVC_PORTS["quote"])
        if t > tf - 200:
            q["metadata"]["annotations"] = {"prometheus.io/scrape": "true", "prometheus.io/port": "9464"}
            q["metadata"]["resourceVersion"] = "12690"
        s.obj(t + 2, q)
    rollout_events(s, "currency", tf, o, n, node="ip-10-0-3-8.ec2.internal")
    s.log(tf + 10, "currency", "INFO", "Currency Server listening on port: 8080")
    # noise: frontend-proxy restarted (envoy hot restart), second namespace
    noise_restart(s, "frontend-proxy", t0 + 5 * 60, "[info][main] starting main dispatch loop")
    na = noise_other_ns(s, "logging", t0 + 8 * 60)
    s.std_metrics(["currency", "frontend", "checkout", "frontend-proxy"])
    std_alerts(s, [tf + 240, tf + 540, s.t1 - 25],
               [("RequestErrorRate", svc_labels("frontend"), tf + 60, 0.71, "Error rate above threshold on frontend", "critical"),
                ("RequestErrorRate", svc_labels("checkout"), tf + 70, 1.0, "Error rate above threshold on checkout", "critical"),
                ("NoRequestsReceived", svc_labels("currency"), tf + 180, 0, "currency received no requests in the last 2 minutes", "warning"),
                ("KubeEndpointsEmpty", {"namespace": NS, "service": "currency", "endpoint": "currency"}, tf + 100, 0, "Service otel-demo/currency has no ready endpoints", "warning")],
               "prom", extra=[na])
    gs, al = otel_gt_groups(["currency"], root="currency", extra_kinds=("Pod", "ReplicaSet"))
    gs2, al2 = otel_gt_groups(["frontend", "checkout"])
    gs, al = gs + gs2, al + al2
    gs.append(G("currency-service-1", "Service", NS, ["currency\\b"]))
    s.gt = gt(gs, al,
              [P("currency-deployment-1", "currency-service-1", "container port renamed grpc -> grpc-currency; Service targetPort 'grpc' no longer resolves", "EndpointSlice has no endpoints; connections refused"),
               P("currency-service-1", "frontend-service-1", "connection refused", "currency conversion fails on every page"),
               P("currency-service-1", "checkout-service-1", "connection refused", "PlaceOrder fails")],
              [{"category": "Change", "condition": "container port renamed so the Service's named targetPort no longer resolves",
                "entity": {"group_id": "currency-deployment-1", "kind": "Deployment", "name": "currency"}, "fault_mechanism": "custom"}],
              [A("frontend-service-1", "RequestErrorRate", "currency unreachable"), A("checkout-service-1", "RequestErrorRate", "currency unreachable"),
               A("currency-service-1", "NoRequestsReceived", "no endpoints")],
              [("restore_port_name", "rename the container port back to grpc (or point targetPort at grpc-currency)")])
    return s


# ---------------------------------------------------------------------------- 9
def inc_digest_moved(num):
    t0 = ts_base(21, 8, 45)
    s = Snap(num, 909, t0, 40, style={"events_api": "v1", "ts": "ch", "short_kind": True, "orphan_roots": True})
    tf = t0 + 16 * 60
    svcs = ["frontend-proxy", "frontend", "product-catalog", "currency", "cart", "checkout", "recommendation", "ad",
            "shipping", "quote", "payment"]
    bg_objects(s, svcs)
    o, n = podname("email", "d1"), podname("email", "d2")
    s.pods["email"] = o
    s.pod_switch["email"] = [(tf + 40, n)]
    s.fail["email"] = [(tf + 40, s.t1 + 1, {"drop": True, "err": "Post \"http://email:8080/send_order_confirmation\": dial tcp 10.96.18.40:8080: connect: connection refused"})]
    s.traffic(every=8, mix=["checkout", "browse", "checkout", "product", "cart"])
    d_old = "sha256:4b1e0c8f2a9d7716c3f6e1b2d4a8c9e0f3b5d7a1c2e4f6a8b0d2c4e6f8a0b2c4"
    d_new = "sha256:9f07aa31c5d2e8b4f6a1c3e5d7b9f1a3c5e7d9b1f3a5c7e9d1b3f5a7c9e1d3b5"

    def mk(after, t):
        c = std_container("email")
        c["imagePullPolicy"] = "Always"
        c["env"].append({"name": "SMTP_TIMEOUT_SECONDS", "value": "20" if after else "10"})
        return deployment("email", NS, t0, 81000 if not after else 81733, 5 if not after else 6, [c])

    def ps(t):
        pn = s.pod("email", t)
        p_new = t >= tf + 40
        return (pn, {"node": "ip-10-0-1-77.ec2.internal", "containers": [std_container("email")],
                     "extra_status": {"containerStatuses": [{"name": "email", "image": img("email"), "imageID": "ghcr.io/open-telemetry/demo@" + (d_new if p_new else d_old),
                                                             "ready": True, "restartCount": 0, "started": True, "state": {"running": {"startedAt": iso(tf + 38 if p_new else t0 - 7200, 0)}}}]}})
    dep_series(s, "email", tf, mk, pod_state=ps)
    s.obj(t0 + 30, service("email", NS, t0, SVC_PORTS["email"]))
    rollout_events(s, "email", tf, o, n, pulled_msg=f'Successfully pulled image "{img("email")}" in 3.482s (3.482s including waiting). Image size: 98213370 bytes.',
                   node="ip-10-0-1-77.ec2.internal")
    s.ev(tf + 3, "Pod", n, "Pulling", f'Pulling image "{img("email")}"', host="ip-10-0-1-77.ec2.internal")
    s.log(tf + 39, "email", "INFO", "Puma starting in single mode...")
    s.log(tf + 39.1, "email", "INFO", "* Puma version: 6.4.2 (ruby 3.3.4-p94) (\"The Eagle of Durango\")")
    s.log(tf + 39.2, "email", "INFO", "*  Min threads: 0 *  Max threads: 5 *  Environment: development")
    s.log(tf + 39.3, "email", "INFO", "* Listening on http://0.0.0.0:9292")
    s.log(t0 + 60, "email", "INFO", "== Sinatra (v4.0.0) has taken the stage on 8080 for production with backup from Puma")
    # checkout logs the email failure as a warning only? (checkout returns error)
    # noise: a recommendation pod restarts after a transient node network blip; a quote warning; cert-manager
    noise_restart(s, "recommendation", t0 + 8 * 60, "Recommendation service started on port 8080")
    s.ev(t0 + 14 * 60, "Pod", s.pod("quote"), "Unhealthy", "Liveness probe failed: Get \"http://10.244.2.31:8080/\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)", "Warning", count=1)
    noise_other_ns(s, "cert", t0 + 3 * 60)
    s.std_metrics(["email", "checkout", "frontend", "frontend-proxy"])
    std_alerts(s, [tf + 300, tf + 600, s.t1 - 10],
               [("RequestErrorRate", svc_labels("checkout"), tf + 80, 1.0, "Error rate above threshold on checkout", "critical"),
                ("RequestErrorRate", svc_labels("frontend"), tf + 95, 0.18, "Error rate above threshold on frontend", "warning"),
                ("NoRequestsReceived", svc_labels("email"), tf + 200, 0, "email received no requests in the last 2 minutes", "warning")],
               "webhook")
    gs, al = otel_gt_groups(["email", "checkout", "frontend"], root="email")
    s.gt = gt(gs, al,
              [P("email-deployment-1", "email-pod-1", "image tag 2.0.2-email re-pulled (imagePullPolicy Always) now resolves to a new digest whose entrypoint runs puma on 9292", "nothing listens on 8080"),
               P("email-service-1", "checkout-service-1", "connection refused on 8080", "PlaceOrder fails on send_order_confirmation"),
               P("checkout-service-1", "frontend-service-1", "PlaceOrder fails", "checkout errors")],
              [{"category": "Change", "condition": "image entrypoint changed under the same tag (digest moved)",
                "entity": {"group_id": "email-deployment-1", "kind": "Deployment", "name": "email"}, "fault_mechanism": "custom"}],
              [A("checkout-service-1", "RequestErrorRate", "email refuses connections"), A("email-service-1", "NoRequestsReceived", "port 8080 closed")],
              [("pin_digest", "pin email image to the previous digest")])
    return s


# ---------------------------------------------------------------------------- 10
def inc_downward_api(num):
    t0 = ts_base(23, 20, 0)
    s = Snap(num, 1010, t0, 42, style={"events_api": "events.k8s.io/v1", "ts": "ch", "metric_extra": True,
                                        "json_logs": {"checkout": True, "accounting": False, "fraud-detection": False}})
    tf = t0 + 15 * 60
    svcs = ["frontend-proxy", "frontend", "product-catalog", "currency", "cart", "checkout", "shipping", "quote",
            "payment", "email", "accounting", "fraud-detection"]
    bg_objects(s, svcs, watch=True)
    o, n = podname("kafka", "z1"), podname("kafka", "z2")
    s.pods["kafka"] = o
    s.pod_switch["kafka"] = [(tf + 45, n)]
    perr = "kafka: Failed to produce message to topic orders: dial tcp 10.0.2.45:9092: connect: connection refused"
    s.fail["kafka"] = [(tf + 45, s.t1 + 1, {"err": perr, "rate": 1.0})]
    s.fail["accounting"] = [(tf + 45, s.t1 + 1, {"drop": True})]
    s.fail["fraud-detection"] = [(tf + 45, s.t1 + 1, {"drop": True})]
    s.traffic(every=8, mix=["checkout", "browse", "checkout", "product", "cart"])

    def mk(after, t):
        c = container("kafka", img("kafka"), [("plaintext", 9092), ("controller", 9093)],
                      [{"name": "MY_POD_IP", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "status.hostIP" if after else "status.podIP"}}},
                       {"name": "KAFKA_ADVERTISED_LISTENERS", "value": "PLAINTEXT://$(MY_POD_IP):9092"},
                       {"name": "KAFKA_HEAP_OPTS", "value": "-Xmx400M -Xms400M"},
                       {"name": "OTEL_SERVICE_NAME", "value": "kafka"}],
                      {"limits": {"memory": "1Gi"}, "requests": {"cpu": "100m", "memory": "800Mi"}})
        return deployment("kafka", NS, t0, 41000 if not after else 41876, 2 if not after else 3, [c],
                          strategy={"type": "Recreate"})
    dep_series(s, "kafka", tf, mk, watch=True,
               pod_state=lambda t: (s.pod("kafka", t), {"node": "ip-10-0-2-45.ec2.internal", "containers": [container("kafka", img("kafka"))]}))
    s.obj(t0 + 9, service("kafka", NS, t0, SVC_PORTS["kafka"]), "ADDED")
    s.ev(tf, "Deployment", "kafka", "ScalingReplicaSet", f"Scaled down replica set {o.rsplit('-', 1)[0]} to 0 from 1", comp="deployment-controller")
    s.ev(tf + 1, "Pod", o, "Killing", "Stopping container kafka")
    s.ev(tf + 30, "Deployment", "kafka", "ScalingReplicaSet", f"Scaled up replica set {n.rsplit('-', 1)[0]} to 1", comp="deployment-controller")
    s.ev(tf + 31, "Pod", n, "Scheduled", f"Successfully assigned {NS}/{n} to ip-10-0-2-45.ec2.internal", comp="default-scheduler")
    s.ev(tf + 35, "Pod", n, "Started", "Started container kafka", host="ip-10-0-2-45.ec2.internal")
    s.log(tf + 44, "kafka", "INFO", "[KafkaServer id=1] started (kafka.server.KafkaServer)")
    s.log(tf + 43, "kafka", "INFO", "Registered broker 1 at path /brokers/ids/1 with addresses: PLAINTEXT://10.0.2.45:9092, czxid (broker epoch): 4294967362")
    s.log(t0 + 30, "kafka", "INFO", "Registered broker 1 at path /brokers/ids/1 with addresses: PLAINTEXT://10.244.2.37:9092, czxid (broker epoch): 4294967300")
    tt = tf + 50
    while tt < s.t1:
        s.log(tt, "accounting", "WARN", "%4|1711224052.123|FAIL|rdkafka#consumer-1| [thrd:10.0.2.45:9092/1]: 10.0.2.45:9092/1: Connect to ipv4#10.0.2.45:9092 failed: Connection refused (after 0ms in state CONNECT)")
        s.log(tt + 3, "fraud-detection", "WARN", "[Consumer clientId=consumer-fraud-detection-1, groupId=fraud-detection] Connection to node 1 (/10.0.2.45:9092) could not be established. Broker may not be available.")
        tt += 30
    # noise: fraud-detection restarted before (unrelated JVM upgrade), harmless ConfigMap change, second ns
    noise_restart(s, "fraud-detection", t0 + 6 * 60, "Started FraudDetectionKt in 4.2 seconds")
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta("otel-collector", NS, t0 - 86400 * 9, {"app.kubernetes.io/name": "otel-collector"}, None, 41820),
          "data": {"relay": "receivers:\n  otlp:\n    protocols:\n      grpc: {}\nprocessors:\n  batch:\n    send_batch_size: 2048\n"}}
    s.obj(tf - 160, cm, "MODIFIED")
    na = noise_other_ns(s, "ci-job", t0 + 3 * 60)
    s.std_metrics(["checkout", "frontend", "kafka", "accounting", "fraud-detection"])
    t = s.t0
    while t <= s.t1:
        lag = 0 if t < tf + 45 else 0
        s.met("service", "accounting", "kafka_consumergroup_lag", t, lag, {"consumergroup": "accounting", "topic": "orders", "namespace": NS})
        s.met("service", "accounting", "db_client_operations_total", t, 300 + (min(t, tf + 45) - s.t0) / 8, {"namespace": NS, "service_name": "accounting", "db_operation": "INSERT"})
        t += 60
    std_alerts(s, [tf + 300, tf + 600, s.t1 - 10],
               [("RequestErrorRate", svc_labels("checkout"), tf + 100, 1.0, "Error rate above threshold on checkout", "critical"),
                ("RequestErrorRate", svc_labels("frontend"), tf + 110, 0.4, "Error rate above threshold on frontend", "critical"),
                ("NoDatabaseOperations", svc_labels("accounting"), tf + 240, 0, "accounting performed no database operations in 3m", "warning"),
                ("KafkaConsumerGroupNoMembers", {"namespace": NS, "consumergroup": "fraud-detection", "service_name": "fraud-detection"}, tf + 200, 0, "Consumer group fraud-detection has no active members", "warning")],
               "am2", extra=[na])
    gs, al = otel_gt_groups(["kafka", "checkout", "frontend", "accounting", "fraud-detection"], root="kafka")
    s.gt = gt(gs, al,
              [P("kafka-deployment-1", "kafka-pod-1", "downward-API MY_POD_IP now reads status.hostIP", "broker advertises the node IP 10.0.2.45:9092"),
               P("kafka-service-1", "checkout-service-1", "clients redirected to an address where nothing listens", "order publish fails"),
               P("kafka-service-1", "accounting-service-1", "consumer cannot reach broker", "no database operations"),
               P("kafka-service-1", "fraud-detection-service-1", "consumer cannot reach broker", "no consumption"),
               P("checkout-service-1", "frontend-service-1", "PlaceOrder fails", "checkout errors")],
              [{"category": "Change", "condition": "downward-API env changed (status.podIP -> status.hostIP)",
                "entity": {"group_id": "kafka-deployment-1", "kind": "Deployment", "name": "kafka"}, "fault_mechanism": "custom"}],
              [A("checkout-service-1", "RequestErrorRate", "publish fails"), A("accounting-service-1", "NoDatabaseOperations", "no orders consumed")],
              [("restore_fieldref", "set MY_POD_IP fieldRef back to status.podIP")])
    return s


# ---------------------------------------------------------------------------- 11
def inc_dns_policy(num):
    t0 = ts_base(26, 13, 15)
    s = Snap(num, 1111, t0, 40, style={"events_api": "v1", "ts": "iso", "managed_fields": True, "quote_all": True,
                                        "json_logs": {"shipping": False}})
    tf = t0 + 14 * 60
    svcs = ["frontend-proxy", "frontend", "product-catalog", "currency", "cart", "checkout", "recommendation", "ad",
            "payment", "email"]
    bg_objects(s, svcs, mf="helm")
    so, sn = podname("shipping", "s1"), podname("shipping", "s2")
    qo, qn = podname("quote", "q1"), podname("quote", "q2")
    s.pods["shipping"], s.pods["quote"] = so, qo
    s.pod_switch["shipping"] = [(tf + 25, sn)]
    s.pod_switch["quote"] = [(tf - 240 + 20, qn)]
    err = "failed to get quote: error sending request for url (http://quote:8080/getquote): error trying to connect: dns error: failed to lookup address information: Name or service not known"
    s.fail["shipping"] = [(tf + 25, s.t1 + 1, {"err": err, "rate": 1.0})]
    s.fail["quote"] = [(tf + 25, s.t1 + 1, {"drop": True})]
    s.flows = dict(OTEL_FLOWS)
    s.traffic(every=8, mix=["checkout", "shipping", "browse", "checkout", "product"])

    def mk(after, t):
        c = std_container("shipping")
        c["env"].append({"name": "QUOTE_ADDR", "value": "http://quote:8080"})
        d = deployment("shipping", NS, t0, 22001 if not after else 22519, 5 if not after else 6, [c], mf="kubectl-client-side-apply" if after else "helm")
        d["spec"]["template"]["spec"]["dnsPolicy"] = "Default" if after else "ClusterFirst"
        if after:
            d["spec"]["template"]["spec"]["dnsConfig"] = {"options": [{"name": "single-request-reopen"}]}
        return d
    dep_series(s, "shipping", tf, mk, pod_state=lambda t: (s.pod("shipping", t), {"node": "ip-10-0-1-23.ec2.internal", "containers": [std_container("shipping")]}))

    def mkq(after, t):
        return deployment("quote", NS, t0, 22100 if not after else 22430, 4 if not after else 5, [std_container("quote", "2.0.3" if after else "2.0.2")])
    dep_series(s, "quote", tf - 240, mkq, pod_state=lambda t: (s.pod("quote", t), {"node": "ip-10-0-3-51.ec2.internal", "containers": [std_container("quote")]}))
    for t in ticks(s, 300, 28):
        s.obj(t, service("shipping", NS, t0, SVC_PORTS["shipping"]))
        s.obj(t, service("quote", NS, t0, SVC_PORTS["quote"]))
    rollout_events(s, "quote", tf - 240, qo, qn, image=img("quote", "2.0.3"), node="ip-10-0-3-51.ec2.internal")
    rollout_events(s, "shipping", tf, so, sn, node="ip-10-0-1-23.ec2.internal")
    s.log(tf - 215, "quote", "INFO", "[25-Mar-2026 13:25:05] NOTICE: fpm is running, pid 1")
    s.log(tf + 24, "shipping", "INFO", "listening on 0.0.0.0:8080")
    na = noise_other_ns(s, "logging", t0 + 5 * 60)
    s.ev(t0 + 9 * 60, "Pod", s.pod("ad"), "Unhealthy", "Readiness probe failed: timeout: failed to connect service \":8080\" within 1s", "Warning", count=1)
    s.std_metrics(["shipping", "quote", "checkout", "frontend", "frontend-proxy"])
    std_alerts(s, [tf + 300, tf + 600, s.t1 - 10],
               [("RequestErrorRate", svc_labels("shipping"), tf + 80, 1.0, "Error rate above threshold on shipping", "critical"),
                ("RequestErrorRate", svc_labels("checkout"), tf + 90, 1.0, "Error rate above threshold on checkout", "critical"),
                ("RequestErrorRate", svc_labels("frontend"), tf + 95, 0.6, "Error rate above threshold on frontend", "critical"),
                ("NoRequestsReceived", svc_labels("quote"), tf + 200, 0, "quote received no requests in the last 2 minutes", "warning")],
               "prom", extra=[na])
    gs, al = otel_gt_groups(["shipping", "quote", "checkout", "frontend"], root="shipping")
    s.gt = gt(gs, al,
              [P("shipping-deployment-1", "shipping-pod-1", "dnsPolicy changed from ClusterFirst to Default", "the pod resolves with the node's resolv.conf; cluster Service names do not resolve"),
               P("shipping-pod-1", "quote-service-1", "cannot resolve quote", "quote receives no requests"),
               P("shipping-service-1", "checkout-service-1", "GetQuote fails", "PlaceOrder fails"),
               P("shipping-service-1", "frontend-service-1", "GetQuote fails", "shipping and checkout errors")],
              [{"category": "Change", "condition": "Pod dnsPolicy set to Default",
                "entity": {"group_id": "shipping-deployment-1", "kind": "Deployment", "name": "shipping"}, "fault_mechanism": "custom"}],
              [A("shipping-service-1", "RequestErrorRate", "DNS failures"), A("checkout-service-1", "RequestErrorRate", "shipping fails"),
               A("quote-service-1", "NoRequestsReceived", "shipping cannot resolve quote")],
              [("restore_dns_policy", "set dnsPolicy back to ClusterFirst")])
    return s


# ---------------------------------------------------------------------------- 12
def inc_kafka_acl(num):
    t0 = ts_base(28, 1, 30)
    s = Snap(num, 1212, t0, 40, style={"events_api": "events.k8s.io/v1", "ts": "ch", "status_prefix": True,
                                        "json_logs": {"accounting": False}})
    tf = t0 + 17 * 60
    kns = "kafka"
    svcs = ["frontend-proxy", "frontend", "product-catalog", "currency", "cart", "checkout", "shipping", "quote",
            "payment", "email", "fraud-detection", "accounting"]
    bg_objects(s, svcs)
    s.fail["accounting"] = [(tf + 20, s.t1 + 1, {"drop": True})]
    s.traffic(every=9, mix=["checkout", "browse", "product", "checkout", "cart"])
    for t in ticks(s, 300, 22):
        after = t >= tf
        acls = [{"resource": {"type": "topic", "name": "orders", "patternType": "literal"}, "operations": ["Describe"] if after else ["Describe", "Read"], "host": "*"},
                {"resource": {"type": "group", "name": "accounting", "patternType": "literal"}, "operations": ["Read"], "host": "*"}]
        ku = {"apiVersion": "kafka.strimzi.io/v1beta2", "kind": "KafkaUser",
              "metadata": meta("accounting", kns, t0 - 86400 * 50, {"strimzi.io/cluster": "orders-cluster"}, None, 510200 if not after else 512877, 4 if not after else 5),
              "spec": {"authentication": {"type": "tls"}, "authorization": {"type": "simple", "acls": acls}},
              "status": {"observedGeneration": 5 if after else 4, "username": "CN=accounting", "secret": "accounting",
                         "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": iso(tf + 8 if after else t0 - 86400, 0)}]}}
        s.obj(t, ku)
        fd = {"apiVersion": "kafka.strimzi.io/v1beta2", "kind": "KafkaUser",
              "metadata": meta("fraud-detection", kns, t0 - 86400 * 50, {"strimzi.io/cluster": "orders-cluster"}, None, 510190, 3),
              "spec": {"authentication": {"type": "tls"}, "authorization": {"type": "simple", "acls": [
                  {"resource": {"type": "topic", "name": "orders", "patternType": "literal"}, "operations": ["Describe", "Read"], "host": "*"},
                  {"resource": {"type": "group", "name": "fraud-detection", "patternType": "literal"}, "operations": ["Read"], "host": "*"}]}},
              "status": {"observedGeneration": 3, "username": "CN=fraud-detection", "conditions": [{"type": "Ready", "status": "True"}]}}
        s.obj(t + 1, fd)
        kt = {"apiVersion": "kafka.strimzi.io/v1beta2", "kind": "KafkaTopic",
              "metadata": meta("orders", kns, t0 - 86400 * 50, {"strimzi.io/cluster": "orders-cluster"}, None, 509001 if t < tf - 300 else 512400, 2 if t < tf - 300 else 3),
              "spec": {"partitions": 6, "replicas": 3, "config": {"retention.ms": 604800000 if t < tf - 300 else 259200000, "min.insync.replicas": 2}}}
        s.obj(t + 2, kt)
    tt = tf + 20
    while tt < s.t1:
        s.log(tt, "accounting", "ERROR", "Confluent.Kafka.ConsumeException: Broker: Topic authorization failed\n   at Confluent.Kafka.Consumer`2.Consume(Int32 millisecondsTimeout)\n   at Accounting.Consumer.StartListening()")
        s.logs.append((tt + 0.2, "", "", "INFO", "kafka",
                       f"[{chts(tt)[:23].replace('.', ',')}] INFO Principal = User:CN=accounting is Denied operation = READ from host = 10.244.1.66 on resource = Topic:LITERAL:orders for request = Fetch with resourceRefCount = 1 based on rule DefaultDeny (kafka.authorizer.logger)",
                       {"service.name": "kafka", "k8s.namespace.name": kns, "k8s.pod.name": "orders-cluster-kafka-%d" % (int(tt) % 3), "k8s.statefulset.name": "orders-cluster-kafka"}, {}))
        tt += 25
    s.log(tf + 21, "accounting", "WARN", "Consumer group accounting: partitions revoked: [orders [0..5]]")
    # noise: checkout restart before the fault, a harmless KafkaTopic retention change (above), a second namespace job
    noise_restart(s, "checkout", t0 + 9 * 60, '{"level":"info","msg":"checkout service started on port 8080"}')
    na = noise_other_ns(s, "batch", t0 + 6 * 60)
    s.ev(t0 + 11 * 60, "Pod", "orders-cluster-kafka-2", "Unhealthy", "Readiness probe failed: command timed out", "Warning", ns=kns, count=1)
    s.std_metrics(["accounting", "checkout", "fraud-detection", "frontend"])
    t = s.t0
    lag = 0
    while t <= s.t1:
        if t > tf + 20:
            lag += 14
        s.met("service", "accounting", "kafka_consumergroup_lag", t, lag, {"consumergroup": "accounting", "topic": "orders", "namespace": kns})
        s.met("service", "fraud-detection", "kafka_consumergroup_lag", t, 0, {"consumergroup": "fraud-detection", "topic": "orders", "namespace": kns})
        t += 60
    std_alerts(s, [tf + 300, tf + 600, s.t1 - 10],
               [("NoDatabaseOperations", svc_labels("accounting"), tf + 200, 0, "accounting performed no database operations in 3m", "warning"),
                ("KafkaConsumerLagHigh", {"namespace": kns, "consumergroup": "accounting", "topic": "orders"}, tf + 400, lag, "Consumer group accounting lag on orders above 100", "warning")],
               "single", extra=[na])
    gs, al = otel_gt_groups(["accounting"])
    gs = [G("accounting-kafkauser-1", "KafkaUser", kns, ["accounting\\b"], root=True),
          G("orders-kafkatopic-1", "KafkaTopic", kns, ["orders\\b"]),
          G("kafka-pod-1", "Pod", kns, ["orders-cluster-kafka-.*"])] + gs
    s.gt = gt(gs, al,
              [P("accounting-kafkauser-1", "kafka-pod-1", "Read ACL on topic orders removed from KafkaUser accounting", "brokers deny Fetch for CN=accounting"),
               P("kafka-pod-1", "accounting-service-1", "TOPIC_AUTHORIZATION_FAILED", "accounting consumes nothing; no database operations")],
              [{"category": "Change", "condition": "Kafka ACL removed",
                "entity": {"group_id": "accounting-kafkauser-1", "kind": "KafkaUser", "name": "accounting"}, "fault_mechanism": "custom"}],
              [A("accounting-service-1", "NoDatabaseOperations", "consumer not authorized")],
              [("restore_acl", "add Read on topic orders back to KafkaUser accounting")])
    return s


# ---------------------------------------------------------------------------- 13
def inc_istio_mtls(num):
    t0 = ts_base(30, 10, 25)
    s = Snap(num, 1313, t0, 38, ns=BI, flows=BOOKINFO_FLOWS,
             style={"events_api": "events.k8s.io/v1", "ts": "iso", "swallow": ("reviews", "productpage"), "cluster": "mesh-prod-1",
                    "metric_epoch": True, "pydict_tags": True})
    tf = t0 + 16 * 60
    for svc in ("productpage", "details", "ratings"):
        s.pods[svc] = podname(svc + "-v1")
    s.pods["reviews"] = podname("reviews-v3")
    rerr = "upstream connect error or disconnect/reset before headers. retried and the latest reset reason: connection termination"
    s.fail["ratings"] = [(tf + 5, s.t1 + 1, {"drop": True, "err": rerr})]
    s.traffic(every=6)
    tl = ticks(s, 300, 18)
    s.obj(tl[0] - 10, {"apiVersion": "security.istio.io/v1", "kind": "PeerAuthentication",
                       "metadata": meta("default", BI, t0 - 86400 * 31, None, None, 20011, 1),
                       "spec": {"mtls": {"mode": "STRICT"}}}, "ADDED")
    for name in ("productpage", "details", "reviews", "ratings"):
        for v in (["v1", "v2", "v3"] if name == "reviews" else ["v1"]):
            s.obj(tl[0] - 9, bi_dep(name, v, t0, 3000 + len(name) + len(v), replicas=1 if (name != "reviews" or v == "v3") else 0), "ADDED")
        s.obj(tl[0] - 8, service(name, BI, t0, [("http", 9080, 9080)], selector={"app": name}), "ADDED")

    def dr(name, t, tls="ISTIO_MUTUAL", extra=None, rv=30000, gen=1):
        tp = {"tls": {"mode": tls}}
        if extra:
            tp.update(extra)
        return {"apiVersion": "networking.istio.io/v1", "kind": "DestinationRule",
                "metadata": meta(name, BI, t0 - 86400 * 31, None, {"kubectl.kubernetes.io/last-applied-configuration": "{}"}, rv, gen),
                "spec": {"host": f"{name}.{BI}.svc.cluster.local", "trafficPolicy": tp,
                         "subsets": [{"name": v, "labels": {"version": v}} for v in (["v1", "v2", "v3"] if name == "reviews" else ["v1"])]}}
    for name in ("productpage", "details", "reviews", "ratings"):
        s.obj(tl[0] - 7, dr(name, t0, rv=30000 + len(name)), "ADDED")
    s.obj(tf - 150, dr("details", tf - 150, extra={"connectionPool": {"http": {"http1MaxPendingRequests": 64, "maxRequestsPerConnection": 8}}},
                       rv=31755, gen=2), "MODIFIED")
    s.obj(tf, dr("ratings", tf, tls="DISABLE", extra={"loadBalancer": {"simple": "ROUND_ROBIN"}}, rv=31802, gen=2), "MODIFIED")
    # pods (watch ADDED once)
    for svc in ("productpage", "details", "reviews", "ratings"):
        pn = s.pod(svc)
        s.obj(tl[0] - 5, pod_obj(pn, BI, pn.rsplit("-", 1)[0], t0, "ip-10-1-0-%d.ec2.internal" % (10 + len(svc)),
                                 containers=[container(svc, f"docker.io/istio/examples-bookinfo-{svc}:1.20.2"),
                                             container("istio-proxy", "docker.io/istio/proxyv2:1.22.3")], labels={"app": svc}), "ADDED")
    tt = tf + 7
    while tt < s.t1:
        s.log(tt, "reviews", "INFO",
              f'[{iso(tt, 3)}] "GET /ratings/0 HTTP/1.1" 503 UC upstream_reset_before_response_started{{connection_termination}} - "-" 0 95 1 - "-" "Apache-CXF/3.1.18" "{h(str(tt), 8)}-{h(str(tt) + "b", 4)}" "ratings:9080" "10.244.2.14:9080" outbound|9080||ratings.book-info.svc.cluster.local 10.244.1.30:41876 10.96.201.7:9080 10.244.1.30:51214 - default',
              attrs={"log.file.name": "istio-proxy"})
        s.logs.append((tt + 0.01, "", "", "WARN", "ratings",
                       f"{iso(tt, 6)}\twarning\tenvoy connection\t[C{int(tt) % 9000}] remote address:10.244.1.30:51214,TLS_error:|268435612:SSL routines:OPENSSL_internal:HTTP_REQUEST:TLS_error_end",
                       {"service.name": "ratings", "k8s.namespace.name": BI, "k8s.pod.name": s.pod("ratings"), "k8s.container.name": "istio-proxy"}, {}))
        s.log(tt + 0.02, "reviews", "INFO", "Error: unable to contact ratings service (status 503), returning reviews without stars")
        tt += 19
    # noise: productpage rollout (unrelated), cert-manager
    old_p, new_p = s.pod("productpage"), podname("productpage-v1", "u")
    s.pod_switch["productpage"] = [(t0 + 5 * 60 + 20, new_p)]
    rollout_events(s, "productpage-v1", t0 + 5 * 60, old_p, new_p, image="docker.io/istio/examples-bookinfo-productpage-v1:1.20.2", node="ip-10-1-0-21.ec2.internal")
    noise_other_ns(s, "cert", t0 + 12 * 60)
    s.std_metrics(["productpage", "reviews", "details", "ratings"])
    t = s.t0
    c200 = c503 = 0.0
    while t <= s.t1:
        if t >= tf + 5:
            c503 += 600
        else:
            c200 += 600
        for code, v in (("200", c200), ("503", c503)):
            s.met("service", "ratings", "istio_requests_total", t, round(v, 1),
                  {"destination_service_name": "ratings", "destination_service_namespace": BI, "source_workload": "reviews-v3",
                   "response_code": code, "response_flags": "UC" if code == "503" else "-", "reporter": "source"})
        t += 60
    std_alerts(s, [tf + 300, tf + 600, s.t1 - 5],
               [("IstioHighRequestErrorRate", {"destination_service_name": "ratings", "namespace": BI, "service_name": "ratings"}, tf + 60, 1.0,
                 "More than 5% of requests to ratings.book-info fail (reporter=source)", "critical"),
                ("IstioNoInboundTraffic", {"destination_workload": "ratings-v1", "namespace": BI, "service_name": "ratings"}, tf + 180, 0,
                 "ratings-v1 reported no inbound requests (reporter=destination) in 3m", "warning")],
               "am2")
    gs = [G("ratings-destinationrule-1", "DestinationRule", BI, ["ratings\\b"], root=True),
          G("default-peerauthentication-1", "PeerAuthentication", BI, ["default\\b"]),
          G("ratings-service-1", "Service", BI, ["ratings\\b"]),
          G("ratings-pod-1", "Pod", BI, ["ratings-v1-.*"]),
          G("reviews-service-1", "Service", BI, ["reviews\\b"]),
          G("reviews-pod-1", "Pod", BI, ["reviews-v.*"]),
          G("productpage-service-1", "Service", BI, ["productpage\\b"])]
    s.gt = gt(gs, [["ratings-service-1", "ratings-pod-1"], ["reviews-service-1", "reviews-pod-1"]],
              [P("ratings-destinationrule-1", "ratings-service-1", "client TLS mode DISABLE while the namespace PeerAuthentication is STRICT", "plaintext connections reset by the ratings sidecar (503 UC)"),
               P("ratings-service-1", "reviews-service-1", "ratings unreachable", "reviews returned without stars"),
               P("reviews-service-1", "productpage-service-1", "degraded reviews", "product page without ratings")],
              [{"category": "Change", "condition": "DestinationRule TLS mode DISABLE against STRICT mTLS",
                "entity": {"group_id": "ratings-destinationrule-1", "kind": "DestinationRule", "name": "ratings"}, "fault_mechanism": "custom"}],
              [A("ratings-service-1", "IstioHighRequestErrorRate", "plaintext rejected"), A("ratings-service-1", "IstioNoInboundTraffic", "no request passes")],
              [("restore_tls_mode", "set the ratings DestinationRule tls mode back to ISTIO_MUTUAL")])
    return s


INCIDENTS = [inc_webhook_down, inc_priority_preempt, inc_istio_subset, inc_hpa_wrong_metric, inc_max_unavailable,
             inc_token_audience, inc_secret_items_key, inc_port_rename, inc_digest_moved, inc_downward_api,
             inc_dns_policy, inc_kafka_acl, inc_istio_mtls]
def main():
    if len(sys.argv) != 2:
        print("usage: gen.py OUT", file=sys.stderr)
        sys.exit(2)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for i, fn in enumerate(INCIDENTS, 1):
        s = fn(i)
        s.write(out)
    print(f"wrote {len(INCIDENTS)} incidents to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
