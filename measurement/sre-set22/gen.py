#!/usr/bin/env python3
"""sre-set22: 8 offline SRE incident snapshots (ITBench-Lite layout). stdlib only, deterministic.
usage: python gen.py OUT"""
import csv, hashlib, json, os, random, sys
from datetime import datetime, timedelta, timezone

NS = "otel-demo"
SVCS = ["ad", "cart", "checkout", "currency", "email", "flagd", "fraud-detection", "frontend",
        "frontend-proxy", "image-provider", "kafka", "load-generator", "payment", "product-catalog",
        "quote", "recommendation", "shipping", "valkey-cart", "accounting"]


def h(s, n=10):
    return hashlib.sha256(s.encode()).hexdigest()[:n]


def podname(svc, salt, sts=False):
    if sts:
        return svc + "-0"
    a = hashlib.sha256((svc + salt).encode()).hexdigest()
    alph = "bcdfghjklmnpqrstvwxz2456789"
    rs = "".join(alph[int(a[i:i + 2], 16) % len(alph)] for i in range(0, 20, 2))[:9]
    p = "".join(alph[int(a[i:i + 2], 16) % len(alph)] for i in range(20, 30, 2))[:5]
    return f"{svc}-{rs}-{p}"


def iso(t, frac=True):
    return t.strftime("%Y-%m-%dT%H:%M:%S.%fZ") if frac else t.strftime("%Y-%m-%dT%H:%M:%SZ")


def ch(t):  # clickhouse DateTime64(9)
    return t.strftime("%Y-%m-%d %H:%M:%S.%f") + "000"


class Snap:
    def __init__(self, sid, t0, seed, style):
        self.sid, self.t0, self.r, self.st = sid, t0, random.Random(seed), style
        self.events, self.objs, self.logs, self.spans, self.metrics = [], [], [], [], {}
        self.alert_files = []
        self.rv = 481000 + seed * 1000
        self.pods = {}

    def T(self, minutes):
        return self.t0 + timedelta(minutes=minutes)

    def pod(self, svc, salt="a", ns=NS):
        return podname(svc, self.sid + salt + ns, svc in ("kafka",))

    # ---------- events
    def event(self, m, kind, name, reason, msg, etype="Normal", ns=NS, count=1, comp="kubelet",
              watch="ADDED", host=None):
        t = self.T(m)
        self.rv += self.r.randint(3, 40)
        evname = f"{name}.{h(name + reason + str(m), 16)}"
        if self.st.get("ev") == "events.k8s.io":
            o = {"apiVersion": "events.k8s.io/v1", "kind": "Event",
                 "metadata": {"name": evname, "namespace": ns, "resourceVersion": str(self.rv),
                              "creationTimestamp": iso(t, False), "uid": h(evname, 32)},
                 "regarding": {"kind": kind, "name": name, "namespace": ns,
                               "apiVersion": "v1" if kind in ("Pod", "Service", "Node") else "apps/v1"},
                 "reason": reason, "note": msg, "type": etype, "eventTime": iso(t),
                 "reportingController": comp if "/" in comp else "kubernetes.io/" + comp,
                 "reportingInstance": host or comp, "action": reason}
            if count > 1:
                o["series"] = {"count": count, "lastObservedTime": iso(t)}
                o["deprecatedCount"] = count
        else:
            o = {"apiVersion": "v1", "kind": "Event", "count": count,
                 "metadata": {"name": evname, "namespace": ns, "resourceVersion": str(self.rv),
                              "creationTimestamp": iso(t, False), "uid": h(evname, 32)},
                 "involvedObject": {"kind": kind, "name": name, "namespace": ns, "uid": h(kind + name, 32)},
                 "reason": reason, "message": msg, "type": etype,
                 "firstTimestamp": iso(t - timedelta(minutes=min(count, 5) - 1), False) if count > 1 else iso(t, False),
                 "lastTimestamp": iso(t, False), "source": {"component": comp, **({"host": host} if host else {})},
                 "eventTime": None, "reportingComponent": "", "reportingInstance": ""}
        self.events.append((t, {"object": o, "type": watch}))

    # ---------- objects
    def obj(self, m, o, watch="MODIFIED"):
        t = self.T(m)
        o = json.loads(json.dumps(o))
        self.rv += self.r.randint(3, 40)
        md = o.setdefault("metadata", {})
        md["resourceVersion"] = str(self.rv)
        md.setdefault("uid", h(o["kind"] + md.get("namespace", "") + md["name"], 32))
        md.setdefault("creationTimestamp", iso(self.t0 - timedelta(days=6, hours=3), False))
        if self.st.get("mf"):
            md["managedFields"] = [{"manager": "helm", "operation": "Update", "apiVersion": o.get("apiVersion", "v1"),
                                    "time": iso(self.t0 - timedelta(days=6), False), "fieldsType": "FieldsV1",
                                    "fieldsV1": {"f:metadata": {"f:labels": {".": {}}}}}]
        self.objs.append((t, o, watch))

    # ---------- logs
    def log(self, m, svc, sev, body, pod=None, trace="", span="", ns=NS, attrs=None):
        t = self.T(m)
        num = {"TRACE": 1, "DEBUG": 5, "INFO": 9, "WARN": 13, "WARNING": 13, "ERROR": 17, "FATAL": 21}.get(sev.upper(), 9)
        ra = {"service.name": svc, "k8s.namespace.name": ns, "k8s.pod.name": pod or self.pod(svc),
              "k8s.deployment.name": svc, "service.namespace": "opentelemetry-demo"}
        self.logs.append((t, trace, span, sev, num, svc, body, ra, attrs or {}))

    # ---------- traces
    def span(self, m, tid, sid, parent, name, kind, svc, dur_ms, status="Unset", smsg="", attrs=None):
        t = self.T(m)
        if self.st.get("noparent"):
            parent = ""
        ra = {"service.name": svc, "k8s.namespace.name": NS, "k8s.pod.name": self.pod(svc)}
        self.spans.append((t, tid, sid, parent, name, kind, svc, ra, attrs or {}, int(dur_ms * 1e6), status, smsg))

    # ---------- metrics
    def metric(self, fname, name, m, value, tags):
        t = self.T(m)
        self.metrics.setdefault(fname, []).append((name, t, value, tags))

    # ---------- alerts
    def alerts(self, m, alerts):
        self.alert_files.append((self.T(m), alerts))

    # ---------- writing
    def write(self, out, gt):
        d = os.path.join(out, self.sid)
        os.makedirs(os.path.join(d, "alerts"), exist_ok=True)
        os.makedirs(os.path.join(d, "metrics"), exist_ok=True)
        tsfmt = self.st.get("ts", "ch")

        def ts(t):
            return ch(t) if tsfmt == "ch" else iso(t)

        def wtsv(name, header, rows):
            with open(os.path.join(d, name), "w", newline="", encoding="utf-8") as f:
                w = csv.writer(f, delimiter="\t", lineterminator="\n")
                w.writerow(header)
                for r in rows:
                    w.writerow(r)

        ev = sorted(self.events, key=lambda x: x[0])
        wtsv("k8s_events_raw.tsv", ["Timestamp", "TraceId", "SpanId", "SeverityText", "SeverityNumber",
                                     "ServiceName", "Body", "ResourceAttributes", "LogAttributes"],
             [[ts(t), "", "", "", 0, "", json.dumps(b, separators=(",", ":")),
               json.dumps({"k8s.cluster.name": "shop-prod-eu1"}),
               json.dumps({"k8s.resource.name": "events", "event.domain": "k8s", "event.name": b["object"]["metadata"]["name"]})]
              for t, b in ev])
        rows = []
        for t, o, watch in sorted(self.objs, key=lambda x: x[0]):
            if self.st.get("objwatch"):
                body = json.dumps({"object": o, "type": watch}, separators=(",", ":"))
            else:
                body = json.dumps(o, separators=(",", ":"))
            if self.st.get("dbl"):
                body = json.dumps(body)
            rows.append([ts(t), "", "", "", 0, "", body, json.dumps({"k8s.cluster.name": "shop-prod-eu1"}),
                         json.dumps({"k8s.resource.name": o["kind"].lower() + "s",
                                     "event.domain": "k8s", "k8s.namespace.name": o["metadata"].get("namespace", "")})])
        wtsv("k8s_objects_raw.tsv", ["Timestamp", "TraceId", "SpanId", "SeverityText", "SeverityNumber",
                                      "ServiceName", "Body", "ResourceAttributes", "LogAttributes"], rows)
        wtsv("otel_logs_raw.tsv", ["Timestamp", "TraceId", "SpanId", "SeverityText", "SeverityNumber", "ServiceName",
                                    "Body", "ResourceAttributes", "LogAttributes"],
             [[ts(t), a, b, c, n, s, body if isinstance(body, str) else json.dumps(body), json.dumps(ra), json.dumps(la)]
              for t, a, b, c, n, s, body, ra, la in sorted(self.logs, key=lambda x: x[0])])
        wtsv("otel_traces_raw.tsv", ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind",
                                      "ServiceName", "ResourceAttributes", "SpanAttributes", "Duration",
                                      "StatusCode", "StatusMessage"],
             [[ts(t), a, b, c, n, k, s, json.dumps(ra), json.dumps(sa), dur, sc, sm]
              for t, a, b, c, n, k, s, ra, sa, dur, sc, sm in sorted(self.spans, key=lambda x: (x[0], x[1], x[2]))])
        for fname, rows in sorted(self.metrics.items()):
            with open(os.path.join(d, "metrics", fname + ".tsv"), "w", newline="", encoding="utf-8") as f:
                w = csv.writer(f, delimiter="\t", lineterminator="\n")
                w.writerow(["metric_name", "timestamp", "value", "tags"])
                for name, t, v, tags in sorted(rows, key=lambda x: (x[0], x[1])):
                    tv = str(tags) if self.st.get("pytags") else json.dumps(tags)
                    w.writerow([name, iso(t) if self.st.get("mts") != "epoch" else int(t.timestamp()), v, tv])
        for t, al in self.alert_files:
            fn = "alerts_at_" + t.strftime("%Y-%m-%dT%H-%M-%S.%f") + ".json"
            with open(os.path.join(d, "alerts", fn), "w", encoding="utf-8") as f:
                json.dump(al, f, indent=1)
        with open(os.path.join(d, "ground_truth.yaml"), "w", encoding="utf-8") as f:
            f.write(to_yaml(gt))


def to_yaml(x, ind=0):
    sp = "  " * ind
    out = []
    if isinstance(x, dict):
        for k, v in x.items():
            if isinstance(v, (dict, list)) and v:
                out.append(f"{sp}{k}:")
                out.append(to_yaml(v, ind + 1))
            else:
                out.append(f"{sp}{k}: {scalar(v)}")
    else:
        for v in x:
            if isinstance(v, dict) and v:
                body = to_yaml(v, ind + 1).split("\n")
                out.append(f"{sp}- " + body[0].lstrip())
                out.extend(body[1:])
            elif isinstance(v, list) and v:
                body = to_yaml(v, ind + 1).split("\n")
                out.append(f"{sp}- " + body[0].lstrip())
                out.extend(body[1:])
            else:
                out.append(f"{sp}- {scalar(v)}")
    return "\n".join(out) + ("\n" if ind == 0 else "")


def scalar(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, (dict, list)):
        return "{}" if isinstance(v, dict) else "[]"
    return json.dumps(v)

# ---------------------------------------------------------------- shared building blocks
IMG = "ghcr.io/open-telemetry/demo:2.0.2-"
PORTS = {"ad": 8080, "cart": 8080, "checkout": 8080, "currency": 8080, "email": 8080, "frontend": 8080,
         "frontend-proxy": 8080, "payment": 8080, "product-catalog": 8080, "quote": 8080,
         "recommendation": 8080, "shipping": 8080, "valkey-cart": 6379, "flagd": 8013, "kafka": 9092,
         "image-provider": 8081, "fraud-detection": 8080, "accounting": 8080, "load-generator": 8089}
MEM = {"ad": "300Mi", "cart": "160Mi", "checkout": "20Mi", "currency": "20Mi", "email": "100Mi",
       "frontend": "250Mi", "payment": "120Mi", "product-catalog": "20Mi", "quote": "40Mi",
       "recommendation": "500Mi", "shipping": "20Mi", "valkey-cart": "20Mi", "frontend-proxy": "65Mi",
       "fraud-detection": "300Mi", "accounting": "120Mi", "load-generator": "1500Mi", "flagd": "75Mi",
       "kafka": "600Mi", "image-provider": "50Mi"}


def labels(svc):
    return {"app.kubernetes.io/name": svc, "app.kubernetes.io/component": svc,
            "app.kubernetes.io/part-of": "opentelemetry-demo", "opentelemetry.io/name": svc}


def deployment(svc, ns=NS, image=None, replicas=1, mem=None, env=None, extra=None, status=None, gen=3):
    c = {"name": svc, "image": image or IMG + svc, "imagePullPolicy": "IfNotPresent",
         "ports": [{"containerPort": PORTS.get(svc, 8080), "name": "service", "protocol": "TCP"}],
         "env": env or [{"name": "OTEL_SERVICE_NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.labels['app.kubernetes.io/component']"}}},
                        {"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://otel-collector:4317"}],
         "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}
    if mem != "none":
        c["resources"] = {"limits": {"memory": mem or MEM.get(svc, "100Mi")}}
    d = {"apiVersion": "apps/v1", "kind": "Deployment",
         "metadata": {"name": svc, "namespace": ns, "generation": gen,
                      "labels": {**labels(svc), "app.kubernetes.io/managed-by": "Helm", "helm.sh/chart": "opentelemetry-demo-0.37.1"},
                      "annotations": {"deployment.kubernetes.io/revision": str(gen), "meta.helm.sh/release-name": "otel-demo"}},
         "spec": {"replicas": replicas, "revisionHistoryLimit": 10, "selector": {"matchLabels": {"opentelemetry.io/name": svc}},
                  "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
                  "template": {"metadata": {"labels": labels(svc)},
                               "spec": {"containers": [c], "serviceAccountName": "otel-demo", "restartPolicy": "Always",
                                        "terminationGracePeriodSeconds": 30}}},
         "status": status or {"replicas": replicas, "readyReplicas": replicas, "availableReplicas": replicas,
                              "updatedReplicas": replicas, "observedGeneration": gen}}
    if extra:
        extra(d)
    return d


def service(svc, ns=NS, selector=None, port=None):
    p = port or PORTS.get(svc, 8080)
    return {"apiVersion": "v1", "kind": "Service",
            "metadata": {"name": svc, "namespace": ns, "labels": {**labels(svc), "app.kubernetes.io/managed-by": "Helm"}},
            "spec": {"type": "ClusterIP", "clusterIP": "10.96.%d.%d" % (len(svc) * 7 % 250, sum(map(ord, svc)) % 250),
                     "ports": [{"name": "tcp-service", "port": p, "protocol": "TCP", "targetPort": p}],
                     "selector": selector or {"opentelemetry.io/name": svc}, "sessionAffinity": "None"},
            "status": {"loadBalancer": {}}}


def podobj(S, svc, salt="a", phase="Running", ready=True, restarts=0, waiting=None, term=None, node="ip-10-0-1-17", ns=NS, mem=None):
    cs = {"name": svc, "image": IMG + svc, "ready": ready, "restartCount": restarts, "started": ready}
    if waiting:
        cs["state"] = {"waiting": waiting}
    else:
        cs["state"] = {"running": {"startedAt": iso(S.T(-300), False)}}
    if term:
        cs["lastState"] = {"terminated": term}
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": S.pod(svc, salt, ns), "namespace": ns, "labels": labels(svc),
                         "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": S.pod(svc, salt, ns).rsplit("-", 1)[0], "controller": True}]},
            "spec": {"nodeName": node, "containers": [{"name": svc, "image": IMG + svc,
                                                        "resources": {"limits": {"memory": mem or MEM.get(svc, "100Mi")}}}]},
            "status": {"phase": phase, "containerStatuses": [cs], "qosClass": "Burstable"}}


FLOWS = [
    ("GET /", [("frontend-proxy", "ingress", 0), ("frontend", "GET /", 1), ("product-catalog", "oteldemo.ProductCatalogService/ListProducts", 2),
               ("currency", "Currency/Convert", 2), ("ad", "oteldemo.AdService/GetAds", 2)]),
    ("GET /api/products/{id}", [("frontend-proxy", "ingress", 0), ("frontend", "GET /api/products/{productId}", 1),
                                ("product-catalog", "oteldemo.ProductCatalogService/GetProduct", 2),
                                ("recommendation", "/oteldemo.RecommendationService/ListRecommendations", 2),
                                ("product-catalog", "oteldemo.ProductCatalogService/ListProducts", 3)]),
    ("POST /api/cart", [("frontend-proxy", "ingress", 0), ("frontend", "POST /api/cart", 1), ("cart", "POST /oteldemo.CartService/AddItem", 2),
                        ("valkey-cart", "HSET", 3)]),
    ("POST /api/checkout", [("frontend-proxy", "ingress", 0), ("frontend", "POST /api/checkout", 1),
                            ("checkout", "oteldemo.CheckoutService/PlaceOrder", 2), ("cart", "POST /oteldemo.CartService/GetCart", 3),
                            ("valkey-cart", "HGET", 4), ("product-catalog", "oteldemo.ProductCatalogService/GetProduct", 3),
                            ("currency", "Currency/Convert", 3), ("shipping", "POST /get-quote", 3), ("quote", "POST /getquote", 4),
                            ("payment", "oteldemo.PaymentService/Charge", 3), ("shipping", "POST /ship-order", 3),
                            ("email", "POST /send_order_confirmation", 3), ("cart", "POST /oteldemo.CartService/EmptyCart", 3),
                            ("checkout", "orders publish", 3)]),
    ("GET /api/recommendations", [("frontend-proxy", "ingress", 0), ("frontend", "GET /api/recommendations", 1),
                                  ("recommendation", "/oteldemo.RecommendationService/ListRecommendations", 2),
                                  ("product-catalog", "oteldemo.ProductCatalogService/ListProducts", 3)]),
    ("GET /api/data", [("frontend-proxy", "ingress", 0), ("frontend", "GET /api/data", 1), ("ad", "oteldemo.AdService/GetAds", 2)]),
]
BASE_MS = {"frontend-proxy": 40, "frontend": 30, "product-catalog": 3, "currency": 1, "ad": 6, "recommendation": 9,
           "cart": 4, "valkey-cart": 0.6, "checkout": 60, "shipping": 8, "quote": 3, "payment": 5, "email": 12}


def traffic(S, n, hook, minutes=30):
    """hook(m, svc, name) -> None | (extra_ms, status, msg, drop_children)"""
    r = S.r
    for i in range(n):
        m = round(r.uniform(0, minutes), 3)
        fl = FLOWS[r.choice([0, 0, 1, 1, 1, 2, 2, 3, 4, 5])]
        tid = h(S.sid + "t" + str(i), 32)
        stack = {}
        failed_parent_levels = set()
        errs = []
        spans = []
        for j, (svc, name, lvl) in enumerate(fl[1]):
            if any(l < lvl for l in failed_parent_levels):
                continue
            sid = h(tid + str(j), 16)
            parent = stack.get(lvl - 1, "")
            stack[lvl] = sid
            res = hook(m, svc, name) if hook else None
            dur = BASE_MS.get(svc, 5) * r.uniform(0.6, 1.8)
            status, msg = "Unset", ""
            if res and res[1] == "Absent":
                # callee never reached: no server span; the caller records the failure
                failed_parent_levels.add(lvl)
                errs.append(lvl)
                for s in reversed(spans):
                    if s[10] == lvl - 1:
                        s[7] += res[0]
                        s[8], s[9] = "Error", res[2]
                        break
                continue
            if res:
                extra, status, msg, drop = res
                dur += extra
                if drop:
                    failed_parent_levels.add(lvl)
                if status == "Error":
                    errs.append(lvl)
            kind = "Server" if lvl and svc != "valkey-cart" else ("Client" if svc == "valkey-cart" else "Server")
            if name == "orders publish":
                kind = "Producer"
            spans.append([m + j * 0.0001, tid, sid, parent, name, kind, svc, dur, status, msg, lvl])
        # propagate errors and latency up
        if errs:
            lo = min(errs)
            for s in spans:
                if s[10] < lo and s[8] != "Error":
                    s[8] = "Error"
                    s[9] = s[9] or ("HTTP 500" if s[6].startswith("frontend") else "")
        for s in spans:
            attrs = {"rpc.system": "grpc"} if "/" in s[4] and not s[4].startswith(("GET", "POST")) else {"http.method": s[4].split(" ")[0]}
            if s[4] == "ingress":
                attrs = {"http.method": "GET" if S.r.random() < 0.7 else "POST", "upstream_cluster": "frontend", "component": "proxy"}
            if s[8] == "Error" and "http.method" in attrs:
                attrs["http.status_code"] = 500
            svcname = s[6]
            if svcname == "valkey-cart":
                svcname = "cart"
                attrs = {"db.system": "redis", "net.peer.name": "valkey-cart", "net.peer.port": 6379}
            S.span(s[0], s[1], s[2], s[3], s[4], "SPAN_KIND_" + s[5].upper() if S.st.get("kindfmt") else s[5], svcname, s[7], s[8], s[9], attrs)


def noise(S, variant):
    """unrelated trouble seen in every real snapshot"""
    r = S.r
    lg = S.pod("load-generator")
    if variant % 2 == 0:
        S.event(r.uniform(2, 8), "Pod", lg, "Unhealthy", "Liveness probe failed: Get \"http://10.42.1.33:8089/\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)", "Warning", count=3)
        S.event(r.uniform(8, 9), "Pod", lg, "Killing", "Container load-generator failed liveness probe, will be restarted")
        S.event(r.uniform(9, 10), "Pod", lg, "Started", "Started container load-generator")
        S.log(8.5, "load-generator", "WARNING", "Locust worker heartbeat missed; 0 users spawned", lg)
    else:
        S.event(r.uniform(1, 29), "Pod", S.pod("image-provider"), "BackOff", "Back-off pulling image \"ghcr.io/open-telemetry/demo:2.0.2-image-provider-debug\"", "Warning", count=4)
    # second namespace with its own trouble
    ns2 = ["staging", "batch-jobs", "tenant-b"][variant % 3]
    job = ["orders-export-29061440", "catalog-sync-29061455", "nightly-report-29061400"][variant % 3]
    S.event(r.uniform(3, 25), "Job", job, "BackoffLimitExceeded", "Job has reached the specified backoff limit", "Warning", ns=ns2, comp="job-controller")
    S.event(r.uniform(3, 25), "Pod", job + "-" + h(job, 5), "Failed", "Error: container has runAsNonRoot and image will run as root", "Warning", ns=ns2)
    S.log(r.uniform(3, 25), "otel-collector", "WARN", "Exporting failed. Will retry the request after interval. {\"kind\": \"exporter\", \"name\": \"otlp/clickhouse\", \"error\": \"context deadline exceeded\", \"interval\": \"5.3s\"}",
          "otel-collector-agent-" + h(S.sid, 5), ns="opentelemetry-collectors")
    # normal info logs
    for i in range(40):
        m = r.uniform(0, 30)
        svc = r.choice(["frontend", "cart", "checkout", "product-catalog", "recommendation", "ad", "payment", "shipping", "email", "quote", "currency"])
        body = {"frontend": "GET /api/products 200", "cart": "GetCartAsync called with userId={userId}",
                "checkout": "[PlaceOrder] user_id=%s user_currency=USD" % h(str(i), 8),
                "product-catalog": "Product Found", "recommendation": "Receive ListRecommendations for product ids:['66VCHSJNUP', '1YMWWN1N4O']",
                "ad": "Targeted ad request received for [telescopes]", "payment": json.dumps({"level": 30, "msg": "Transaction complete.", "transactionId": h(str(i), 12)}),
                "shipping": "Get quote request received", "email": "Order confirmation email sent to: someone@example.com",
                "quote": "Calculated quote", "currency": "Convert conversion successful"}[svc]
        S.log(m, svc, "INFO", body, S.pod(svc))
    # a harmless change near fault time: annotation/HPA-free bump on a bystander
    by = ["quote", "accounting", "fraud-detection", "currency"][variant % 4]
    d0 = deployment(by)
    S.obj(0, d0, "ADDED")
    d1 = deployment(by, gen=4)
    d1["spec"]["template"]["metadata"]["annotations"] = {"kubectl.kubernetes.io/restartedAt": iso(S.T(11.5), False)}
    d1["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = "4"
    S.obj(11.6, d1)
    S.event(11.6, "Deployment", by, "ScalingReplicaSet", f"Scaled up replica set {S.pod(by, 'new').rsplit('-', 1)[0]} to 1", comp="deployment-controller")


def periodic(S, skip, every=10.0):
    """background: the exporter's periodic pulls of every Deployment and Service of the app"""
    t = every / 2 + S.r.uniform(0, 1)
    while t < 30:
        for svc in SVCS:
            if ("Deployment", svc) not in skip and svc != "kafka":
                S.obj(t + 0.001 * len(svc), deployment(svc, image="valkey/valkey:7.2-alpine" if svc == "valkey-cart" else None), "MODIFIED")
            if ("Service", svc) not in skip:
                S.obj(t + 0.002 * len(svc), service(svc), "MODIFIED")
        t += every


def std_metrics(S, svc, fault_fn, every=1.0, pod_salt="a", minutes=30):
    p = S.pod(svc, pod_salt)
    m = 0.0
    while m <= minutes:
        cpu, mem, extra = 0.02 + S.r.uniform(0, 0.01), 50e6 * (1 + S.r.uniform(-0.03, 0.03)), {}
        if fault_fn:
            cpu, mem, extra = fault_fn(m, cpu, mem)
        tags = {"namespace": NS, "pod": p, "container": svc}
        S.metric("pod_" + p, "container_cpu_usage_seconds_total:rate1m", m, round(cpu, 5), tags)
        S.metric("pod_" + p, "container_memory_working_set_bytes", m, int(mem), tags)
        for k, v in extra.items():
            S.metric("pod_" + p, k, m, v, tags)
        m += every


def svc_metrics(S, svc, err_fn, lat_fn, minutes=30):
    m = 0.0
    while m <= minutes:
        rate = round(3.2 + S.r.uniform(-0.4, 0.4), 3)
        err = err_fn(m) if err_fn else 0.0
        lat = lat_fn(m) if lat_fn else 0.01
        tg = {"service_name": svc, "namespace": NS, "span_kind": "SPAN_KIND_SERVER"}
        S.metric("service_" + svc, "traces_span_metrics_calls_total:rate1m", m, round(rate * (1 - err), 4), {**tg, "status_code": "STATUS_CODE_UNSET"})
        S.metric("service_" + svc, "traces_span_metrics_calls_total:rate1m", m, round(rate * err, 4), {**tg, "status_code": "STATUS_CODE_ERROR"})
        S.metric("service_" + svc, "traces_span_metrics_duration_milliseconds:p95", m, round(lat * 1000 * S.r.uniform(0.9, 1.1), 2), tg)
        m += 1.0


def prom_alert(name, svc, sev, active, summary, ns=NS, value="1", state="firing", extra=None):
    a = {"labels": {"alertname": name, "severity": sev, "service_name": svc, "namespace": ns, **(extra or {})},
         "annotations": {"summary": summary, "description": summary},
         "state": state, "activeAt": iso(active), "value": value}
    return a


def am_alert(name, svc, sev, active, summary, ns=NS, extra=None):
    lb = {"alertname": name, "severity": sev, "service_name": svc, "namespace": ns, **(extra or {})}
    return {"labels": lb, "annotations": {"summary": summary}, "startsAt": iso(active), "endsAt": iso(active + timedelta(hours=4)),
            "updatedAt": iso(active + timedelta(minutes=2)), "generatorURL": "http://prometheus:9090/graph?g0.expr=...",
            "fingerprint": h(json.dumps(lb, sort_keys=True), 16), "status": {"state": "active", "silencedBy": [], "inhibitedBy": []},
            "receivers": [{"name": "sre-oncall"}]}


def svcgroup(svc, gid=None, root=False, kind="Service", ns=NS):
    g = {"id": gid or f"{svc}-{kind.lower()}-1", "kind": kind, "namespace": ns, "filter": [f"{svc}\\b"] if kind != "Pod" else [f"{svc}-.*"]}
    if kind == "Deployment":
        g["name"] = svc
    if root:
        g["root_cause"] = True
    return g


def gt(groups, aliases, props, faults, alerts):
    return {"apiVersion": "itbench.io/v1", "kind": "GroundTruth",
            "spec": {"metadata": {"version": "v1"}, "groups": groups, "aliases": aliases,
                     "propagations": props, "fault": faults, "alerts": alerts,
                     "recommended_actions": []}}


def finish(S, out, g, wrap):
    if not wrap:
        g = g["spec"]
    S.write(out, g)


def podg(svc, gid, ns=NS):
    return {"id": gid, "kind": "Pod", "namespace": ns, "filter": [f"^{svc}-[a-z0-9]+-[a-z0-9]+$"]}


def svcg(svc, gid, kind="Service", ns=NS, root=False, exact=True):
    g = {"id": gid, "kind": kind, "namespace": ns}
    if exact:
        g["name"] = svc
        g["filter"] = [f"^{svc}$"]
    else:
        g["filter"] = [f"{svc}\\b"]
    if root:
        g["root_cause"] = True
    return g


def P(src, tgt, cond, eff):
    return {"source": src, "target": tgt, "condition": cond, "effect": eff}


# ---------------------------------------------------------------- 1 bad image tag (catalogue)
def s1(out):
    S = Snap("Scenario-1", datetime(2026, 3, 14, 9, 40, tzinfo=timezone.utc), 1, {"ev": "v1", "mf": True, "ts": "ch"})
    noise(S, 0)
    periodic(S, {("Deployment","ad"),("Service","ad"),("Deployment","quote")})
    F = 12.2

    def rec(d):
        d["spec"]["strategy"] = {"type": "Recreate"}
    S.obj(0, deployment("ad", extra=rec), "ADDED")
    S.obj(0, service("ad"), "ADDED")
    S.obj(0, podobj(S, "ad"), "ADDED")
    bad = "ghcr.io/open-telemetry/demo:2.0.2-ad-service"
    d = deployment("ad", image=bad, gen=4, extra=rec, status={"replicas": 1, "unavailableReplicas": 1, "updatedReplicas": 1, "observedGeneration": 4,
                                                            "conditions": [{"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable"}]})
    d["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = "4"
    d["metadata"]["annotations"]["kubernetes.io/change-cause"] = "ci: bump ad to release/2.0.2 (pipeline #8812)"
    S.obj(F, d)
    old = S.pod("ad")
    new = S.pod("ad", "n")
    S.event(F, "Deployment", "ad", "ScalingReplicaSet", f"Scaled down replica set {old.rsplit('-', 1)[0]} to 0 from 1", comp="deployment-controller")
    S.event(F + 0.05, "Pod", old, "Killing", "Stopping container ad")
    S.obj(F + 0.1, podobj(S, "ad"), "DELETED")
    S.event(F + 0.6, "Deployment", "ad", "ScalingReplicaSet", f"Scaled up replica set {new.rsplit('-', 1)[0]} to 1", comp="deployment-controller")
    S.event(F + 0.7, "Pod", new, "Scheduled", f"Successfully assigned otel-demo/{new} to ip-10-0-2-88", comp="default-scheduler")
    S.event(F + 0.9, "Pod", new, "Pulling", f"Pulling image \"{bad}\"", count=5)
    S.event(F + 1.4, "Pod", new, "Failed", f"Failed to pull image \"{bad}\": rpc error: code = NotFound desc = failed to pull and unpack image \"{bad}\": failed to resolve reference \"{bad}\": {bad}: not found", "Warning", count=5)
    S.event(F + 1.5, "Pod", new, "Failed", "Error: ErrImagePull", "Warning", count=5)
    S.event(F + 2.5, "Pod", new, "BackOff", f"Back-off pulling image \"{bad}\"", "Warning", count=41)
    p = podobj(S, "ad", "n", phase="Pending", ready=False, waiting={"reason": "ImagePullBackOff", "message": f"Back-off pulling image \"{bad}\""}, node="ip-10-0-2-88")
    p["spec"]["containers"][0]["image"] = bad
    S.obj(F + 3, p, "ADDED")
    S.obj(F + 15, p)

    def hook(m, svc, name):
        if m > F and svc == "ad":
            return (0, "Absent", "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 10.96.14.199:8080", True)
    traffic(S, 420, hook)
    for i in range(25):
        m = F + 0.3 + i * 0.7
        S.log(m, "frontend", "ERROR", json.dumps({"level": "error", "msg": "failed to get ads", "err": {"code": 14, "details": "No connection established. Last error: connect ECONNREFUSED 10.96.14.199:8080 (2026-03-14T09:%02d:12.000Z)" % int(52 + i * 0.7 % 8)}}), S.pod("frontend"))
    S.log(F - 0.02, "ad", "INFO", "AdService shutting down... received SIGTERM", old)
    svc_metrics(S, "frontend", lambda m: 0.16 if m > F else 0.0, None)
    svc_metrics(S, "ad", lambda m: 0.0, None, minutes=F)
    std_metrics(S, "ad", None, minutes=F)
    a = [prom_alert("FrontendErrorRatioHigh", "frontend", "warning", S.T(F + 3), "frontend 5xx ratio above 5% for 2m", value="0.161"),
         prom_alert("KubeDeploymentReplicasMismatch", "ad", "warning", S.T(F + 12), "Deployment otel-demo/ad has not matched the expected number of replicas for 10m", state="pending",
                    extra={"deployment": "ad"}),
         prom_alert("KubeJobFailed", "orders-export", "warning", S.T(9), "Job staging/orders-export-29061440 failed", ns="staging", extra={"job_name": "orders-export-29061440"})]
    S.alerts(F + 6, {"status": "success", "data": {"alerts": a[:1] + a[2:]}})
    S.alerts(F + 14, {"status": "success", "data": {"alerts": a}})
    g = gt([svcg("ad", "ad-deployment-1", "Deployment", root=True), svcg("ad", "ad-service-1"), podg("ad", "ad-pod-1"),
            svcg("frontend", "frontend-service-1"), svcg("frontend-proxy", "frontend-proxy-service-1")],
           [["ad-deployment-1", "ad-service-1", "ad-pod-1"]],
           [P("ad-deployment-1", "ad-pod-1", "image tag 2.0.2-ad-service does not exist in registry; Recreate strategy removed the old pod", "new pod stuck in ImagePullBackOff, no ad endpoints"),
            P("ad-pod-1", "ad-service-1", "no ready endpoints", "ad service unavailable"),
            P("ad-service-1", "frontend-service-1", "GetAds calls refused", "frontend errors on /api/data and home page"),
            P("frontend-service-1", "frontend-proxy-service-1", "frontend returns 500", "error ratio alert")],
           [{"category": "Change", "condition": "Deployment image changed to a tag that does not exist",
             "entity": {"kind": "Deployment", "name": "ad", "group_id": "ad-deployment-1"}, "fault_mechanism": "bad_image_tag"}],
           [{"group_id": "frontend-service-1", "id": "FrontendErrorRatioHigh"}, {"group_id": "ad-deployment-1", "id": "KubeDeploymentReplicasMismatch"}])
    finish(S, out, g, True)



# ---------------------------------------------------------------- 2 NetworkChaos delay (catalogue)
def s2(out):
    S = Snap("Scenario-2", datetime(2026, 4, 2, 14, 5, tzinfo=timezone.utc), 2, {"ev": "events.k8s.io", "ts": "iso", "noparent": True})
    noise(S, 1)
    periodic(S, {("Deployment","product-catalog"),("Deployment","recommendation"),("Deployment","accounting")})
    F = 9.5
    name = "pc-latency-exp-7"
    nc = {"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "NetworkChaos",
          "metadata": {"name": name, "namespace": "chaos-mesh", "annotations": {"experiment.chaos-mesh.org/pause": "false"}},
          "spec": {"action": "delay", "mode": "all", "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/name": "product-catalog"}},
                   "delay": {"latency": "800ms", "jitter": "120ms", "correlation": "25"}, "direction": "to", "duration": "45m"},
          "status": {"experiment": {"desiredPhase": "Run", "containerRecords": [{"id": f"{NS}/{S.pod('product-catalog')}", "phase": "Injected", "injectedCount": 1}]}}}
    S.obj(F, nc, "ADDED")
    S.obj(F + 10, nc)
    S.event(F + 0.02, "NetworkChaos", name, "FinalizerInited", "Finalizer has been inited", ns="chaos-mesh", comp="chaos-controller-manager")
    S.event(F + 0.05, "NetworkChaos", name, "Updated", "Successfully update finalizer of resource", ns="chaos-mesh", comp="chaos-controller-manager")
    S.event(F + 0.1, "NetworkChaos", name, "Applied", f"Successfully apply chaos for {NS}/{S.pod('product-catalog')}", ns="chaos-mesh", comp="chaos-controller-manager")
    S.event(F + 0.12, "NetworkChaos", name, "Started", "Experiment has started", ns="chaos-mesh", comp="chaos-controller-manager")
    S.obj(0, deployment("product-catalog"), "ADDED")
    S.obj(0, deployment("recommendation"), "ADDED")
    # unrelated: checkout restarted once (node-pressure eviction earlier, unrelated)
    S.event(4.0, "Pod", S.pod("checkout"), "Evicted", "The node was low on resource: ephemeral-storage. Threshold quantity: 2146223340, available: 1947132Ki.", "Warning")
    S.event(4.3, "Pod", S.pod("checkout", "b"), "Scheduled", f"Successfully assigned {NS}/{S.pod('checkout', 'b')} to ip-10-0-3-12", comp="default-scheduler")

    def hook(m, svc, name_):
        if m > F and svc == "product-catalog":
            ex = S.r.uniform(680, 950)
            if S.r.random() < 0.05:
                return (ex, "Error", "context deadline exceeded", True)
            return (ex, "Unset", "", False)
    traffic(S, 380, hook)
    for i in range(14):
        m = F + 1 + i * 1.3
        S.log(m, "recommendation", "WARN", "ListProducts call to product catalog took %d ms" % (800 + (i * 37) % 150), S.pod("recommendation"))
    for i in range(5):
        S.log(F + 3 + i * 3.1, "frontend", "ERROR", "Error: 4 DEADLINE_EXCEEDED: Deadline exceeded after 1.998s,LB pick: 0.000s,remote_addr=10.96.105.172:8080", S.pod("frontend"))
    svc_metrics(S, "product-catalog", None, lambda m: 0.86 if m > F else 0.004)
    svc_metrics(S, "recommendation", None, lambda m: 1.9 if m > F else 0.02)
    svc_metrics(S, "frontend", lambda m: 0.02 if m > F else 0.0, lambda m: 2.7 if m > F else 0.08)
    std_metrics(S, "product-catalog", None)
    a = [am_alert("HighRequestLatency", "frontend", "warning", S.T(F + 2.5), "frontend p95 latency > 1.5s"),
         am_alert("HighRequestLatency", "recommendation", "warning", S.T(F + 3), "recommendation p95 latency > 1s"),
         am_alert("KubePodEvicted", "checkout", "info", S.T(4.1), "Pod evicted due to ephemeral-storage pressure", extra={"pod": S.pod("checkout")}),
         am_alert("KubeJobFailed", "catalog-sync", "warning", S.T(6), "Job batch-jobs/catalog-sync-29061455 failed", ns="batch-jobs")]
    S.alerts(F + 5, a[:1] + a[2:])
    S.alerts(F + 16, a)
    g = gt([{"id": "pc-latency-chaos", "kind": "NetworkChaos", "namespace": "chaos-mesh", "name": name, "filter": [".*pc-latency-exp.*"], "root_cause": True},
            svcg("product-catalog", "product-catalog-service-1"), podg("product-catalog", "product-catalog-pod-1"),
            svcg("product-catalog", "product-catalog-deployment-1", "Deployment"),
            svcg("recommendation", "recommendation-service-1"), svcg("frontend", "frontend-service-1"),
            svcg("frontend-proxy", "frontend-proxy-service-1")],
           [["product-catalog-service-1", "product-catalog-pod-1", "product-catalog-deployment-1"]],
           [P("pc-latency-chaos", "product-catalog-pod-1", "800ms egress delay injected", "every product-catalog RPC ~0.8s slower"),
            P("product-catalog-pod-1", "product-catalog-service-1", "delayed responses", "high latency"),
            P("product-catalog-service-1", "recommendation-service-1", "ListProducts slow", "recommendation latency"),
            P("product-catalog-service-1", "frontend-service-1", "GetProduct/ListProducts slow", "frontend latency, some deadline exceeded"),
            P("frontend-service-1", "frontend-proxy-service-1", "slow pages", "user-facing latency")],
           [{"category": "Network", "condition": "network delay on product-catalog", "entity": {"kind": "NetworkChaos", "name": name, "group_id": "pc-latency-chaos"}, "fault_mechanism": "network_delay"}],
           [{"group_id": "frontend-service-1", "id": "HighRequestLatency"}, {"group_id": "recommendation-service-1", "id": "HighRequestLatency"}])
    finish(S, out, g, False)


# ---------------------------------------------------------------- 3 Service selector (catalogue)
def s3(out):
    S = Snap("Scenario-3", datetime(2026, 2, 20, 22, 31, tzinfo=timezone.utc), 3, {"ev": "v1", "mts": "epoch", "pytags": True, "ts": "ch"})
    noise(S, 2)
    periodic(S, {("Service","cart"),("Deployment","cart"),("Deployment","fraud-detection")})
    F = 13.0
    S.obj(0, service("cart"), "ADDED")
    s = service("cart", selector={"app.kubernetes.io/name": "cart", "app.kubernetes.io/version": "2.0.2"})
    s["metadata"]["annotations"] = {"meta.helm.sh/release-revision": "17"}
    S.obj(F, s)
    S.obj(0, deployment("cart"), "ADDED")
    S.obj(0, podobj(S, "cart"), "ADDED")
    ep = {"apiVersion": "v1", "kind": "Endpoints", "metadata": {"name": "cart", "namespace": NS, "labels": labels("cart")},
          "subsets": [{"addresses": [{"ip": "10.42.2.61", "nodeName": "ip-10-0-2-88", "targetRef": {"kind": "Pod", "name": S.pod("cart"), "namespace": NS}}],
                       "ports": [{"name": "tcp-service", "port": 8080, "protocol": "TCP"}]}]}
    S.obj(0, ep, "ADDED")
    ep2 = json.loads(json.dumps(ep))
    ep2.pop("subsets")
    S.obj(F + 0.01, ep2)
    S.obj(F + 10, ep2)
    S.obj(F + 10, podobj(S, "cart"))
    # unrelated: recommendation had a config reload (harmless)
    S.event(F + 0.5, "ConfigMap", "otel-collector-agent", "Updated", "collector config hash changed; rollout triggered", comp="opentelemetry-operator", ns="opentelemetry-collectors")

    def hook(m, svc, name):
        if m > F and svc == "cart":
            return (0, "Absent", "rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial tcp 10.96.28.17:8080: connect: connection refused\"", True)
    traffic(S, 400, hook)
    for i in range(12):
        S.log(F + 0.4 + i * 1.4, "checkout", "ERROR", "failed to prepare order: failed to get user cart during checkout: rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial tcp 10.96.28.17:8080: connect: connection refused\"", S.pod("checkout"))
        S.log(F + 0.6 + i * 1.4, "frontend", "ERROR", "Error: 14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 10.96.28.17:8080", S.pod("frontend"))
    svc_metrics(S, "cart", lambda m: 0.0, None, minutes=F)
    svc_metrics(S, "checkout", lambda m: 1.0 if m > F else 0.0, None)
    svc_metrics(S, "frontend", lambda m: 0.3 if m > F else 0.0, None)
    std_metrics(S, "cart", lambda m, c, mem: (c * (0.1 if m > F else 1), mem, {}))
    a = [prom_alert("RequestErrorRate", "checkout", "critical", S.T(F + 2), "checkout error rate 100%", value="1"),
         prom_alert("RequestErrorRate", "frontend", "warning", S.T(F + 2.5), "frontend error rate 30%", value="0.3"),
         prom_alert("NoRequestsReceived", "cart", "warning", S.T(F + 5), "cart received no requests in 5m", value="0"),
         prom_alert("KubeJobFailed", "nightly-report", "warning", S.T(7), "Job tenant-b/nightly-report-29061400 failed", ns="tenant-b")]
    S.alerts(F + 8, {"alerts": a})
    g = gt([svcg("cart", "cart-service-1", root=True), svcg("checkout", "checkout-service-1"), svcg("frontend", "frontend-service-1"),
            svcg("frontend-proxy", "frontend-proxy-service-1")],
           [],
           [P("cart-service-1", "checkout-service-1", "Service selector no longer matches cart pods (requires app.kubernetes.io/version label); Endpoints empty", "GetCart refused, PlaceOrder fails"),
            P("cart-service-1", "frontend-service-1", "cart calls refused", "add-to-cart and cart page fail"),
            P("frontend-service-1", "frontend-proxy-service-1", "500 responses", "user-facing errors")],
           [{"category": "Configuration", "condition": "Service selector changed to labels the pods do not carry", "entity": {"kind": "Service", "name": "cart", "group_id": "cart-service-1"}, "fault_mechanism": "service_selector_mismatch"}],
           [{"group_id": "checkout-service-1", "id": "RequestErrorRate"}, {"group_id": "frontend-service-1", "id": "RequestErrorRate"}, {"group_id": "cart-service-1", "id": "NoRequestsReceived"}])
    finish(S, out, g, True)


# ---------------------------------------------------------------- 4 flagd feature flag (catalogue)
FLAGS = {"productCatalogFailure": {"description": "Fail product catalog service on a specific product", "state": "ENABLED", "variants": {"on": True, "off": False}, "defaultVariant": "off"},
         "recommendationCacheFailure": {"description": "Fail recommendation service cache", "state": "ENABLED", "variants": {"on": True, "off": False}, "defaultVariant": "off"},
         "adManualGc": {"description": "Triggers full manual garbage collections in the ad service", "state": "ENABLED", "variants": {"on": True, "off": False}, "defaultVariant": "off"},
         "paymentUnreachable": {"description": "Payment service is unavailable", "state": "ENABLED", "variants": {"on": True, "off": False}, "defaultVariant": "off"},
         "imageSlowLoad": {"description": "slow loading images in the frontend", "state": "ENABLED", "variants": {"10sec": 10000, "5sec": 5000, "off": 0}, "defaultVariant": "off"}}


def flagcm(flags):
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "flagd-config", "namespace": NS, "labels": {"app.kubernetes.io/part-of": "opentelemetry-demo"}},
            "data": {"demo.flagd.json": json.dumps({"$schema": "https://flagd.dev/schema/v0/flags.json", "flags": flags}, indent=2)}}


def s4(out):
    S = Snap("Scenario-4", datetime(2026, 5, 11, 3, 17, tzinfo=timezone.utc), 4, {"ev": "events.k8s.io", "dbl": True, "ts": "ch", "kindfmt": True})
    noise(S, 3)
    periodic(S, {("Deployment","currency")})
    F = 11.0
    S.obj(0, flagcm(FLAGS), "ADDED")
    f2 = json.loads(json.dumps(FLAGS))
    f2["productCatalogFailure"]["defaultVariant"] = "on"
    S.obj(F, flagcm(f2))
    S.obj(F + 15, flagcm(f2))
    S.log(F + 0.1, "flagd", "INFO", json.dumps({"level": "info", "ts": (S.T(F + 0.1)).timestamp(), "caller": "file/filepath_sync.go:64", "msg": "configuration modified: /etc/flagd/demo.flagd.json"}), S.pod("flagd"))
    S.log(F + 0.11, "flagd", "INFO", json.dumps({"level": "info", "msg": "flag definitions changed", "flags": ["productCatalogFailure"], "source": "file:/etc/flagd/demo.flagd.json"}), S.pod("flagd"))
    # unrelated: ad had a long GC pause earlier
    S.log(5.0, "ad", "WARN", "GC pause (G1 Evacuation Pause) 412ms", S.pod("ad"))

    def hook(m, svc, name):
        if m > F and svc == "product-catalog" and "GetProduct" in name and S.r.random() < 0.22:
            return (0, "Error", "Error: Product Catalog Fail Feature Flag Enabled", True)
    traffic(S, 420, hook)
    for i in range(10):
        S.log(F + 0.7 + i * 1.7, "product-catalog", "ERROR", "GetProduct failed productId=OLJCESPC7Z error=\"Error: Product Catalog Fail Feature Flag Enabled\"", S.pod("product-catalog"))
        S.log(F + 0.8 + i * 1.7, "checkout", "ERROR", "failed to prepare order: failed to prepare order items: failed to get product #\"OLJCESPC7Z\"", S.pod("checkout"))
    svc_metrics(S, "product-catalog", lambda m: 0.09 if m > F else 0.0, None)
    svc_metrics(S, "checkout", lambda m: 0.35 if m > F else 0.0, None)
    svc_metrics(S, "frontend", lambda m: 0.1 if m > F else 0.0, None)
    a = [prom_alert("CheckoutFailures", "checkout", "critical", S.T(F + 3), "PlaceOrder failing for >20% of requests", value="0.35"),
         prom_alert("RequestErrorRate", "frontend", "warning", S.T(F + 4), "frontend error rate above 5%", value="0.1"),
         prom_alert("KubeDeploymentRolloutStuck", "currency", "info", S.T(11.7), "currency rollout in progress", state="pending")]
    S.alerts(F + 6, a[0])
    S.alerts(F + 12, a)
    g = gt([svcg("flagd-config", "flagd-config", "ConfigMap", root=True), svcg("product-catalog", "product-catalog-service-1"),
            svcg("checkout", "checkout-service-1"), svcg("frontend", "frontend-service-1"), svcg("frontend-proxy", "frontend-proxy-service-1")],
           [],
           [P("flagd-config", "product-catalog-service-1", "productCatalogFailure defaultVariant set to on", "GetProduct fails for OLJCESPC7Z"),
            P("product-catalog-service-1", "checkout-service-1", "order items lookup fails", "PlaceOrder errors"),
            P("product-catalog-service-1", "frontend-service-1", "product page errors", "frontend 500s"),
            P("frontend-service-1", "frontend-proxy-service-1", "errors", "user-facing errors")],
           [{"category": "Configuration Setting", "condition": "productCatalogFailure flag enabled", "entity": {"kind": "ConfigMap", "name": "flagd-config", "group_id": "flagd-config"}, "fault_mechanism": "custom(flagd)"}],
           [{"group_id": "checkout-service-1", "id": "CheckoutFailures"}, {"group_id": "frontend-service-1", "id": "RequestErrorRate"}])
    finish(S, out, g, False)


# ---------------------------------------------------------------- 5 NetworkPolicy (catalogue)
def s5(out):
    S = Snap("Scenario-5", datetime(2026, 1, 27, 16, 48, tzinfo=timezone.utc), 5, {"ev": "v1", "mf": True, "ts": "iso"})
    noise(S, 4)
    periodic(S, {("Deployment","valkey-cart"),("Deployment","cart"),("Deployment","quote")})
    F = 14.4
    np_ = {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
           "metadata": {"name": "valkey-cart-ingress", "namespace": NS, "annotations": {"owner": "platform-security", "ticket": "SEC-2291"}},
           "spec": {"podSelector": {"matchLabels": {"app.kubernetes.io/name": "valkey-cart"}}, "policyTypes": ["Ingress"],
                    "ingress": [{"from": [{"podSelector": {"matchLabels": {"app.kubernetes.io/component": "cart-service"}}}],
                                 "ports": [{"protocol": "TCP", "port": 6379}]}]}}
    S.obj(F, np_, "ADDED")
    S.obj(F + 10, np_)
    S.obj(0, deployment("valkey-cart", image="valkey/valkey:7.2-alpine"), "ADDED")
    S.obj(0, deployment("cart"), "ADDED")
    S.obj(0, podobj(S, "cart"), "ADDED")
    # harmless nearby change: a second NetworkPolicy that allows metrics scraping
    np2 = {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": {"name": "allow-prometheus-scrape", "namespace": NS},
           "spec": {"podSelector": {}, "policyTypes": ["Ingress"], "ingress": [{"from": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "prometheus"}}}]}]}}
    S.obj(F - 0.3, np2, "ADDED")

    def hook(m, svc, name):
        if m > F and svc == "valkey-cart":
            return (5000, "Error", "It was not possible to connect to the redis server(s). ConnectTimeout", True)
        if m > F and svc == "cart":
            return (5000, "Error", "Can't access cart storage. StackExchange.Redis.RedisConnectionException: It was not possible to connect to the redis server(s). ConnectTimeout", False)
    traffic(S, 400, hook)
    for i in range(16):
        S.log(F + 0.3 + i * 0.9, "cart", "ERROR" if i % 3 else "FATAL", "StackExchange.Redis.RedisConnectionException: It was not possible to connect to the redis server(s). Error connecting right now. To allow this multiplexer to continue retrying until it's able to connect, use abortConnect=false in your connection string or AbortOnConnectFail=false; in your code. ConnectTimeout", S.pod("cart"))
    S.event(F + 6, "Pod", S.pod("cart"), "Unhealthy", "Readiness probe failed: timeout: failed to connect service \":8080\" within 1s: context deadline exceeded", "Warning", count=7)
    svc_metrics(S, "cart", lambda m: 0.97 if m > F else 0.0, lambda m: 5.0 if m > F else 0.004)
    svc_metrics(S, "frontend", lambda m: 0.24 if m > F else 0.0, None)
    std_metrics(S, "valkey-cart", lambda m, c, mem: (c * (0.2 if m > F else 1), mem, {"redis_connected_clients": 1 if m > F else 4}))
    a = [prom_alert("RequestErrorRate", "cart", "critical", S.T(F + 2), "cart error rate 97%", value="0.97"),
         prom_alert("RequestErrorRate", "frontend", "warning", S.T(F + 2.5), "frontend error rate 24%", value="0.24"),
         prom_alert("RequestLatency", "checkout", "warning", S.T(F + 3), "checkout p95 > 4s", value="5.3")]
    S.alerts(F + 4, [a[0]])
    S.alerts(F + 12, {"data": {"alerts": a}})
    g = gt([{"id": "valkey-cart-ingress-np", "kind": "NetworkPolicy", "namespace": NS, "name": "valkey-cart-ingress", "filter": ["^valkey-cart-ingress$"], "root_cause": True},
            svcg("valkey-cart", "valkey-cart-service-1"), svcg("cart", "cart-service-1"), podg("cart", "cart-pod-1"), svcg("checkout", "checkout-service-1"),
            svcg("frontend", "frontend-service-1")],
           [["cart-service-1", "cart-pod-1"]],
           [P("valkey-cart-ingress-np", "valkey-cart-service-1", "ingress allowed only from component=cart-service, which no pod carries", "valkey unreachable from cart"),
            P("valkey-cart-service-1", "cart-service-1", "connect timeouts", "cart RPC errors"),
            P("cart-service-1", "checkout-service-1", "GetCart/EmptyCart fail", "checkout slow/failing"),
            P("cart-service-1", "frontend-service-1", "cart RPC errors", "frontend errors")],
           [{"category": "Network", "condition": "NetworkPolicy blocks cart to valkey-cart", "entity": {"kind": "NetworkPolicy", "name": "valkey-cart-ingress", "group_id": "valkey-cart-ingress-np"}, "fault_mechanism": "network_policy"}],
           [{"group_id": "cart-service-1", "id": "RequestErrorRate"}, {"group_id": "frontend-service-1", "id": "RequestErrorRate"}, {"group_id": "checkout-service-1", "id": "RequestLatency"}])
    finish(S, out, g, True)



# ---------------------------------------------------------------- 6 cross-namespace preemption (novel)
def s6(out):
    S = Snap("Scenario-6", datetime(2026, 6, 3, 1, 2, tzinfo=timezone.utc), 6, {"ev": "events.k8s.io", "ts": "iso", "mf": True})
    noise(S, 5)
    periodic(S, {("Deployment","shipping"),("Deployment","accounting")})
    F = 10.0
    ns2 = "analytics"
    dep = {"apiVersion": "apps/v1", "kind": "Deployment",
           "metadata": {"name": "nightly-reindex", "namespace": ns2, "labels": {"app": "nightly-reindex", "team": "search"}},
           "spec": {"replicas": 6, "selector": {"matchLabels": {"app": "nightly-reindex"}},
                    "template": {"metadata": {"labels": {"app": "nightly-reindex"}},
                                 "spec": {"priorityClassName": "platform-high", "containers": [{"name": "reindexer", "image": "registry.internal/search/reindexer:5.4.1",
                                          "resources": {"requests": {"cpu": "3", "memory": "6Gi"}, "limits": {"memory": "6Gi"}}}]}}},
           "status": {"replicas": 6, "readyReplicas": 6, "availableReplicas": 6}}
    pc = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "platform-high"}, "value": 1000000,
          "globalDefault": False, "preemptionPolicy": "PreemptLowerPriority", "description": "platform components"}
    S.obj(0, pc, "ADDED")
    S.obj(F, dep, "ADDED")
    S.event(F, "Deployment", "nightly-reindex", "ScalingReplicaSet", "Scaled up replica set nightly-reindex-6f9c7d4b8d to 6", ns=ns2, comp="deployment-controller")
    nodes = ["ip-10-0-1-17", "ip-10-0-2-88", "ip-10-0-3-12", "ip-10-0-1-54"]
    victims = [("shipping", nodes[1]), ("quote", nodes[1]), ("email", nodes[2]), ("shipping", nodes[3])]
    for i in range(6):
        pn = f"nightly-reindex-6f9c7d4b8d-{h('nr' + str(i), 5)}"
        S.event(F + 0.05 + i * 0.02, "Pod", pn, "Scheduled", f"Successfully assigned {ns2}/{pn} to {nodes[i % 4]}", ns=ns2, comp="default-scheduler")
        S.event(F + 0.5 + i * 0.02, "Pod", pn, "Started", "Started container reindexer", ns=ns2)
    for j, (v, node) in enumerate(victims):
        pn = S.pod(v, "v" + str(j))
        S.event(F + 0.04 + j * 0.01, "Pod", pn, "Preempted", f"Preempted by pod {h('nr' + str(j), 8)}-{h('x' + str(j), 4)}-4e1b-9a0c-{h('y' + str(j), 12)} on node {node}", "Normal", comp="default-scheduler")
        S.event(F + 0.06 + j * 0.01, "Pod", pn, "Killing", f"Stopping container {v}")
        S.obj(F + 0.07, podobj(S, v, "v" + str(j), node=node), "DELETED")
        newp = S.pod(v, "r" + str(j))
        S.event(F + 0.3 + j * 0.01, "Pod", newp, "FailedScheduling", "0/4 nodes are available: 4 Insufficient cpu. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.", "Warning", count=9, comp="default-scheduler")
        p = podobj(S, v, "r" + str(j), phase="Pending", ready=False)
        p["spec"].pop("nodeName")
        p["status"] = {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable", "message": "0/4 nodes are available: 4 Insufficient cpu."}]}
        S.obj(F + 5, p, "ADDED")
    S.obj(0, deployment("shipping", replicas=2), "ADDED")
    S.obj(F + 6, deployment("shipping", replicas=2, status={"replicas": 2, "unavailableReplicas": 2, "observedGeneration": 3}))
    # a cluster-autoscaler that cannot help (max size reached)
    S.event(F + 1, "Pod", S.pod("shipping", "r0"), "NotTriggerScaleUp", "pod didn't trigger scale-up: 1 max node group size reached", comp="cluster-autoscaler")

    def hook(m, svc, name):
        if m > F + 0.1 and svc in ("shipping", "quote"):
            return (0, "Absent", "rpc error: code = Unavailable desc = shipping: dial tcp 10.96.56.28:8080: connect: connection refused" if svc == "shipping" else "quote unavailable", True)
        if m > F + 0.1 and svc == "email":
            return (0, "Absent", "Post \"http://email:8080/send_order_confirmation\": dial tcp 10.96.35.90:8080: connect: connection refused", True)
    traffic(S, 380, hook)
    for i in range(9):
        S.log(F + 0.8 + i * 1.9, "checkout", "ERROR", json.dumps({"message": "failed to get shipping quote: rpc error: code = Unavailable desc = connection error", "severity": "error", "timestamp": iso(S.T(F + 0.8 + i * 1.9))}), S.pod("checkout"))
    for i in range(6):
        S.log(F + 0.5 + i * 3, "reindexer", "INFO", "reindex batch %d/412 committed (shard=products-v7)" % (i * 11), f"nightly-reindex-6f9c7d4b8d-{h('nr' + str(i), 5)}", ns=ns2)
    svc_metrics(S, "checkout", lambda m: 0.92 if m > F else 0.0, None)
    svc_metrics(S, "shipping", lambda m: 0.0, None, minutes=F)
    a = [prom_alert("RequestErrorRate", "checkout", "critical", S.T(F + 2), "checkout error rate above 50%", value="0.92"),
         prom_alert("KubePodNotScheduled", "shipping", "warning", S.T(F + 5), "Pod otel-demo/shipping is unschedulable", extra={"pod": S.pod("shipping", "r0")}),
         prom_alert("NodeCPUHigh", "ip-10-0-2-88", "warning", S.T(F + 4), "node CPU requests > 95%", ns="", extra={"instance": "ip-10-0-2-88"}),
         prom_alert("KubeJobFailed", "nightly-report", "warning", S.T(6), "Job tenant-b/nightly-report-29061400 failed", ns="tenant-b")]
    S.alerts(F + 7, {"status": "success", "data": {"alerts": a}})
    S.alerts(F + 17, {"status": "success", "data": {"alerts": a}})
    g = gt([{"id": "nightly-reindex-deployment", "kind": "Deployment", "namespace": ns2, "name": "nightly-reindex", "filter": ["^nightly-reindex$"], "root_cause": True},
            {"id": "nightly-reindex-pods", "kind": "Pod", "namespace": ns2, "filter": ["^nightly-reindex-"]},
            svcg("shipping", "shipping-service-1"), podg("shipping", "shipping-pod-1"), svcg("quote", "quote-service-1"), svcg("email", "email-service-1"),
            svcg("checkout", "checkout-service-1"), svcg("frontend", "frontend-service-1")],
           [["nightly-reindex-deployment", "nightly-reindex-pods"], ["shipping-service-1", "shipping-pod-1"]],
           [P("nightly-reindex-deployment", "shipping-pod-1", "6 high-priority (platform-high) replicas requesting 3 CPU each preempt lower-priority pods", "shipping, quote, email pods evicted and unschedulable"),
            P("shipping-pod-1", "shipping-service-1", "no endpoints", "shipping unavailable"),
            P("shipping-service-1", "checkout-service-1", "GetQuote/ShipOrder refused", "PlaceOrder fails"),
            P("checkout-service-1", "frontend-service-1", "checkout errors", "users cannot place orders")],
           [{"category": "Resource Contention", "condition": "new high-priority deployment preempted application pods", "entity": {"kind": "Deployment", "name": "nightly-reindex", "group_id": "nightly-reindex-deployment"}, "fault_mechanism": "priority_preemption"}],
           [{"group_id": "checkout-service-1", "id": "RequestErrorRate"}, {"group_id": "shipping-pod-1", "id": "KubePodNotScheduled"}])
    finish(S, out, g, False)


# ---------------------------------------------------------------- 7 LimitRange default limit (novel)
def s7(out):
    S = Snap("Scenario-7", datetime(2026, 3, 30, 11, 55, tzinfo=timezone.utc), 7, {"ev": "v1", "ts": "ch", "noparent": False, "pytags": True})
    noise(S, 6)
    periodic(S, {("Deployment","email"),("Deployment","fraud-detection")})
    L, F = 4.2, 13.1
    lr = {"apiVersion": "v1", "kind": "LimitRange", "metadata": {"name": "container-defaults", "namespace": NS, "labels": {"policy.example.com/baseline": "v3"}},
          "spec": {"limits": [{"type": "Container", "default": {"cpu": "500m", "memory": "64Mi"}, "defaultRequest": {"cpu": "50m", "memory": "32Mi"}}]}}
    S.obj(L, lr, "ADDED")
    S.obj(L + 20, lr)
    S.obj(0, deployment("email", mem="none"), "ADDED")
    d = deployment("email", mem="none", gen=5)
    d["spec"]["template"]["metadata"]["annotations"] = {"reloader.stakater.com/last-reloaded-from": "{\"type\":\"SECRET\",\"name\":\"smtp-credentials\",\"hash\":\"5c0e91\"}"}
    S.obj(F, d)
    new = S.pod("email", "n")
    p = podobj(S, "email", "n", ready=False, restarts=5, waiting={"reason": "CrashLoopBackOff", "message": f"back-off 2m40s restarting failed container=email pod={new}_otel-demo"},
               term={"exitCode": 137, "reason": "OOMKilled", "startedAt": iso(S.T(F + 14), False), "finishedAt": iso(S.T(F + 14.4), False)}, mem="64Mi")
    p["metadata"]["annotations"] = {"kubernetes.io/limit-ranger": "LimitRanger plugin set: cpu, memory request for container email; cpu, memory limit for container email"}
    p["spec"]["containers"][0]["resources"] = {"limits": {"cpu": "500m", "memory": "64Mi"}, "requests": {"cpu": "50m", "memory": "32Mi"}}
    S.obj(F + 0.5, p, "ADDED")
    S.obj(F + 15, p)
    S.event(F, "Deployment", "email", "ScalingReplicaSet", f"Scaled up replica set {new.rsplit('-', 1)[0]} to 1", comp="deployment-controller")
    S.event(F + 0.8, "Pod", S.pod("email"), "Killing", "Stopping container email")
    S.event(F + 0.6, "Pod", new, "Started", "Started container email", count=6)
    S.event(F + 2.0, "Pod", new, "BackOff", "Back-off restarting failed container email in pod " + new + "_otel-demo(" + h(new, 8) + "-1f2e-4d3c-9b8a-" + h(new + "u", 12) + ")", "Warning", count=38)
    # unrelated: a secret rotation (the reloader trigger) is harmless by itself
    S.obj(F - 0.2, {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "smtp-credentials", "namespace": NS}, "type": "Opaque", "data": {"password": "KioqKioqKio="}}, "MODIFIED")
    for i in range(7):
        S.log(F + 0.7 + i * 2.2, "email", "INFO", "Puma starting in single mode... * Puma version: 6.4.2 (ruby 3.3.1-p55)", new)
    for i in range(11):
        S.log(F + 1 + i * 1.5, "checkout", "WARN", "failed to send order confirmation to \"customer%d@example.com\": Post \"http://email:8080/send_order_confirmation\": dial tcp 10.96.35.90:8080: connect: connection refused" % i, S.pod("checkout"))

    def hook(m, svc, name):
        if m > F + 1 and svc == "email":
            return (0, "Absent", "Post \"http://email:8080/send_order_confirmation\": dial tcp 10.96.35.90:8080: connect: connection refused", True)
    traffic(S, 400, hook)

    def memfn(m, c, mem):
        if m > F + 0.5:
            return c, min(67.1e6, 40e6 + ((m - F) % 2.5) * 20e6), {"kube_pod_container_status_restarts_total": int((m - F) / 2.5)}
        return c, 88e6 + S.r.uniform(-2e6, 2e6), {}
    std_metrics(S, "email", memfn)
    svc_metrics(S, "checkout", lambda m: 0.0, lambda m: 0.4 if m > F else 0.09)
    a = [am_alert("KubePodCrashLooping", "email", "warning", S.T(F + 5), "Pod otel-demo/" + new + " is crash looping", extra={"pod": new, "container": "email"}),
         am_alert("ContainerOOMKilled", "email", "warning", S.T(F + 3), "Container email OOMKilled (limit 64Mi)", extra={"pod": new}),
         am_alert("EmailSendFailures", "checkout", "warning", S.T(F + 4), "order confirmation sends failing"),
         am_alert("KubeJobFailed", "orders-export", "warning", S.T(7), "Job staging/orders-export-29061440 failed", ns="staging")]
    S.alerts(F + 8, a)
    S.alerts(F + 16, a)
    g = gt([{"id": "container-defaults-limitrange", "kind": "LimitRange", "namespace": NS, "name": "container-defaults", "filter": ["^container-defaults$"], "root_cause": True},
            svcg("email", "email-service-1"), podg("email", "email-pod-1"), svcg("email", "email-deployment-1", "Deployment"),
            svcg("checkout", "checkout-service-1")],
           [["email-service-1", "email-pod-1", "email-deployment-1"]],
           [P("container-defaults-limitrange", "email-pod-1", "new LimitRange defaults memory limit to 64Mi for containers without limits; email declares none and was recreated by a reloader rollout", "email OOMKilled, CrashLoopBackOff"),
            P("email-pod-1", "email-service-1", "no ready endpoints", "email unavailable"),
            P("email-service-1", "checkout-service-1", "send_order_confirmation refused", "checkout warnings and extra latency")],
           [{"category": "Resource Limit", "condition": "LimitRange default memory limit too small for email", "entity": {"kind": "LimitRange", "name": "container-defaults", "group_id": "container-defaults-limitrange"}, "fault_mechanism": "limitrange_default"}],
           [{"group_id": "email-pod-1", "id": "KubePodCrashLooping"}, {"group_id": "email-pod-1", "id": "ContainerOOMKilled"}, {"group_id": "checkout-service-1", "id": "EmailSendFailures"}])
    finish(S, out, g, True)


# ---------------------------------------------------------------- 8 valkey maxmemory ConfigMap (novel)
def s8(out):
    S = Snap("Scenario-8", datetime(2026, 7, 19, 18, 40, tzinfo=timezone.utc), 8, {"ev": "events.k8s.io", "ts": "ch", "mts": "epoch", "kindfmt": True})
    noise(S, 7)
    periodic(S, {("Deployment","valkey-cart"),("Deployment","currency")})
    F, R = 11.8, 12.3
    conf = "bind 0.0.0.0\nport 6379\nappendonly no\nsave \"\"\nmaxmemory 256mb\nmaxmemory-policy allkeys-lru\nlatency-tracking no\n"
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "valkey-cart-config", "namespace": NS, "labels": labels("valkey-cart")}, "data": {"valkey.conf": conf}}
    S.obj(0, cm, "ADDED")
    cm2 = json.loads(json.dumps(cm))
    cm2["data"]["valkey.conf"] = conf.replace("maxmemory 256mb", "maxmemory 2mb").replace("allkeys-lru", "noeviction")
    cm2["metadata"]["annotations"] = {"change-request": "CHG-40117 tighten cache memory for cost"}
    S.obj(F, cm2)
    S.obj(F + 15, cm2)
    d = deployment("valkey-cart", image="valkey/valkey:7.2-alpine", gen=2)
    d["metadata"]["annotations"]["configmap.reloader.stakater.com/reload"] = "valkey-cart-config"
    S.obj(0, d, "ADDED")
    d2 = json.loads(json.dumps(d))
    d2["metadata"]["generation"] = 3
    d2["spec"]["template"]["metadata"]["annotations"] = {"reloader.stakater.com/last-reloaded-from": "{\"type\":\"CONFIGMAP\",\"name\":\"valkey-cart-config\"}"}
    S.obj(R, d2)
    S.event(R, "Deployment", "valkey-cart", "ScalingReplicaSet", f"Scaled up replica set {S.pod('valkey-cart', 'n').rsplit('-', 1)[0]} to 1", comp="deployment-controller")
    S.event(R + 0.2, "Pod", S.pod("valkey-cart"), "Killing", "Stopping container valkey-cart")
    S.event(R + 0.1, "Pod", S.pod("valkey-cart", "n"), "Started", "Started container valkey-cart")
    # nearby harmless change: frontend HPA min replicas bumped
    hpa = {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "frontend", "namespace": NS},
           "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "frontend"}, "minReplicas": 2, "maxReplicas": 6,
                    "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}}]}}
    S.obj(0, hpa, "ADDED")
    hpa2 = json.loads(json.dumps(hpa))
    hpa2["spec"]["minReplicas"] = 3
    S.obj(F + 0.4, hpa2)
    S.event(F + 0.6, "HorizontalPodAutoscaler", "frontend", "SuccessfulRescale", "New size: 3; reason: Current number of replicas below Spec.MinReplicas", comp="horizontal-pod-autoscaler")
    vk = S.pod("valkey-cart", "n")
    S.log(R + 0.15, "valkey-cart", "INFO", "1:M 19 Jul 2026 18:52:18.402 * Server initialized", vk)
    S.log(R + 0.16, "valkey-cart", "WARNING", "1:M 19 Jul 2026 18:52:18.402 # WARNING: maxmemory is set to 2097152 bytes; with noeviction writes will be refused once the limit is reached", vk)
    OOM = "OOM command not allowed when used memory > 'maxmemory'."
    for i in range(15):
        m = R + 2.5 + i * 1.0
        S.log(m, "cart", "ERROR", "Can't access cart storage. StackExchange.Redis.RedisServerException: " + OOM, S.pod("cart"),
              attrs={"exception.type": "StackExchange.Redis.RedisServerException", "rpc.method": "AddItem"})

    def hook(m, svc, name):
        if m > R + 2.3 and svc == "valkey-cart" and name == "HSET":
            return (0, "Error", OOM, True)
        if m > R + 2.3 and svc == "cart" and "AddItem" in name:
            return (0, "Error", "Can't access cart storage. StackExchange.Redis.RedisServerException: " + OOM, False)
    traffic(S, 420, hook)

    def vm(m, c, mem):
        used = 1.6e6 + min(m, R) * 4e4 if m < R else min(2.09e6, 0.9e6 + (m - R) * 6e5)
        return c, 9e6, {"redis_memory_used_bytes": int(used), "redis_memory_max_bytes": 268435456 if m < R else 2097152,
                        "redis_rejected_calls_total": 0 if m < R + 2.3 else int((m - R - 2.3) * 190)}
    std_metrics(S, "valkey-cart", vm, pod_salt="n")
    svc_metrics(S, "cart", lambda m: 0.41 if m > R + 2.3 else 0.0, None)
    svc_metrics(S, "frontend", lambda m: 0.12 if m > R + 2.3 else 0.0, None)
    a = [prom_alert("RequestErrorRate", "cart", "critical", S.T(R + 4), "cart error rate 41%", value="0.41"),
         prom_alert("RequestErrorRate", "frontend-proxy", "warning", S.T(R + 5), "5xx at edge above 5%", value="0.11"),
         prom_alert("KubeHpaReplicasMismatch", "frontend", "info", S.T(F + 0.8), "HPA frontend scaling", state="pending", extra={"horizontalpodautoscaler": "frontend"})]
    S.alerts(R + 9, a)
    g = gt([svcg("valkey-cart-config", "valkey-cart-config", "ConfigMap", root=True), svcg("valkey-cart", "valkey-cart-service-1"),
            podg("valkey-cart", "valkey-cart-pod-1"), svcg("cart", "cart-service-1"), svcg("frontend", "frontend-service-1"),
            svcg("frontend-proxy", "frontend-proxy-service-1")],
           [["valkey-cart-service-1", "valkey-cart-pod-1"]],
           [P("valkey-cart-config", "valkey-cart-pod-1", "maxmemory lowered 256mb -> 2mb with noeviction; reloader restarted valkey", "writes refused with OOM once 2MB used"),
            P("valkey-cart-pod-1", "cart-service-1", "HSET refused", "AddItem fails (reads still work)"),
            P("cart-service-1", "frontend-service-1", "add to cart fails", "frontend 500 on POST /api/cart"),
            P("frontend-service-1", "frontend-proxy-service-1", "500s", "edge error rate")],
           [{"category": "Configuration Setting", "condition": "valkey maxmemory too small with noeviction", "entity": {"kind": "ConfigMap", "name": "valkey-cart-config", "group_id": "valkey-cart-config"}, "fault_mechanism": "config_change"}],
           [{"group_id": "cart-service-1", "id": "RequestErrorRate"}, {"group_id": "frontend-proxy-service-1", "id": "RequestErrorRate"}])
    finish(S, out, g, False)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for f in SCEN:
        f(out)


SCEN = [s1, s2, s3, s4, s5, s6, s7, s8]
if __name__ == "__main__":
    main()
