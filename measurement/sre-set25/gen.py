#!/usr/bin/env python3
"""sre-set25: 10 held-out SRE incident snapshots (ITBench-Lite v0.2 layout), varied export shapes.
stdlib only, deterministic.  usage: python3 gen.py OUT"""
import csv, hashlib, io, json, math, os, random, sys
from datetime import datetime, timedelta, timezone

NS = "otel-demo"
IMG = "ghcr.io/open-telemetry/demo:2.0.2-"
NODES = ["ip-10-42-11-87.eu-west-1.compute.internal", "ip-10-42-12-140.eu-west-1.compute.internal",
         "ip-10-42-13-23.eu-west-1.compute.internal"]
PORTS = {"ad": 9555, "cart": 7070, "checkout": 5050, "currency": 7001, "email": 6060, "flagd": 8013,
         "fraud-detection": 0, "frontend": 8080, "frontend-proxy": 8080, "image-provider": 8081,
         "kafka": 9092, "load-generator": 8089, "payment": 50051, "product-catalog": 3550, "quote": 8080,
         "recommendation": 1010, "shipping": 50050, "valkey-cart": 6379, "accounting": 0}
SVCS = list(PORTS)
LANG = {"ad": "java", "cart": "dotnet", "checkout": "go", "currency": "cpp", "email": "ruby", "frontend": "nodejs",
        "payment": "nodejs", "product-catalog": "go", "quote": "php", "recommendation": "python",
        "shipping": "rust", "accounting": "dotnet", "fraud-detection": "java", "frontend-proxy": "envoy"}
PRODUCTS = ["OLJCESPC7Z", "66VCHSJNUP", "1YMWWN1N4O", "L9ECAV7KIM", "2ZYFJ3GM2N", "0PUK6V6EV0",
            "LS4PSXUNUM", "9SIQT8TOJO", "6E92ZMYYFZ", "HQTGWGPNH4"]
BASE_MS = {"frontend-proxy": 1.2, "frontend": 6, "product-catalog": 2.5, "currency": 0.9, "recommendation": 7,
           "ad": 4, "cart": 3, "checkout": 25, "shipping": 4, "quote": 2, "payment": 10, "email": 18,
           "accounting": 6, "fraud-detection": 5, "valkey-cart": 0.6, "kafka": 2, "order-audit": 3}
SEVNUM = {"TRACE": 1, "DEBUG": 5, "INFO": 9, "WARN": 13, "WARNING": 13, "ERROR": 17, "FATAL": 21}


def h(s, n=10):
    return hashlib.sha256(s.encode()).hexdigest()[:n]


def podname(svc, salt):
    a = hashlib.sha256((svc + salt).encode()).hexdigest()
    alph = "bcdfghjklmnpqrstvwxz2456789"
    rs = "".join(alph[int(a[i:i + 2], 16) % len(alph)] for i in range(0, 20, 2))[:10]
    p = "".join(alph[int(a[i:i + 2], 16) % len(alph)] for i in range(20, 30, 2))[:5]
    return f"{svc}-{rs}-{p}"


# ---------------------------------------------------------------- timestamp forms
def ts_form(t, form):
    if form == "ch":          # ClickHouse DateTime64(9)
        return t.strftime("%Y-%m-%d %H:%M:%S.%f") + "000"
    if form == "isoz":        # 2026-11-12T14:03:05.123456Z
        return t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    if form == "iso_off":     # pandas str(Timestamp) style, +00:00 offset
        return t.strftime("%Y-%m-%d %H:%M:%S.%f+00:00")
    if form == "isot_off":
        return t.strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")
    if form == "rfc3339nano":  # Go: trailing zeros trimmed -> mixed precision
        frac = ("%06d" % t.microsecond + "%03d" % ((t.microsecond * 7 + t.second * 13) % 1000)).rstrip("0")
        return t.strftime("%Y-%m-%dT%H:%M:%S") + ("." + frac if frac else "") + "Z"
    if form == "epoch":
        return "%.3f" % t.timestamp()
    if form == "epoch_ms":
        return str(int(t.timestamp() * 1000))
    raise ValueError(form)


def iso(t, frac=True):
    return t.strftime("%Y-%m-%dT%H:%M:%S.%fZ") if frac else t.strftime("%Y-%m-%dT%H:%M:%SZ")


def pydict(d):      # ClickHouse Map / python-dict text form
    return "{" + ", ".join("'%s': '%s'" % (k, str(v).replace("'", "")) for k, v in d.items()) + "}"


def chmap(d):       # ClickHouse Map(String,String) TSV output
    return "{" + ",".join("'%s':'%s'" % (k, str(v).replace("'", "")) for k, v in d.items()) + "}"


def jdump(o):
    return json.dumps(o, separators=(",", ":"), ensure_ascii=False)


# ---------------------------------------------------------------- call graph flows
GP = "oteldemo."
F_PRODUCT = ("frontend", "GET /api/products/{productId}", [
    ("product-catalog", GP + "ProductCatalogService/GetProduct", []),
    ("currency", GP + "CurrencyService/Convert", [])])
F_RECO = ("frontend", "GET /api/recommendations", [
    ("recommendation", GP + "RecommendationService/ListRecommendations", [
        ("product-catalog", GP + "ProductCatalogService/ListProducts", [])]),
    ("product-catalog", GP + "ProductCatalogService/GetProduct", [])])
F_ADS = ("frontend", "GET /api/data", [("ad", GP + "AdService/GetAds", [])])
F_CART_GET = ("frontend", "GET /api/cart", [
    ("cart", GP + "CartService/GetCart", [("valkey-cart", "HGET", [])]),
    ("currency", GP + "CurrencyService/Convert", [])])
F_CART_ADD = ("frontend", "POST /api/cart", [
    ("cart", GP + "CartService/AddItem", [("valkey-cart", "HGET", []), ("valkey-cart", "HSET", []),
                                           ("valkey-cart", "EXPIRE", [])])])
F_SHIP = ("frontend", "GET /api/shipping", [
    ("shipping", GP + "ShippingService/GetQuote", [("quote", "POST /getquote", [])]),
    ("currency", GP + "CurrencyService/Convert", [])])
F_CHECKOUT = ("frontend", "POST /api/checkout", [
    ("checkout", GP + "CheckoutService/PlaceOrder", [
        ("cart", GP + "CartService/GetCart", [("valkey-cart", "HGET", [])]),
        ("product-catalog", GP + "ProductCatalogService/GetProduct", []),
        ("currency", GP + "CurrencyService/Convert", []),
        ("shipping", GP + "ShippingService/GetQuote", [("quote", "POST /getquote", [])]),
        ("payment", GP + "PaymentService/Charge", []),
        ("shipping", GP + "ShippingService/ShipOrder", []),
        ("email", "POST /send_order_confirmation", []),
        ("cart", GP + "CartService/EmptyCart", [("valkey-cart", "DEL", [])]),
        ("kafka", "orders publish", [])])])
FLOWS = [(F_PRODUCT, 30), (F_RECO, 14), (F_ADS, 14), (F_CART_GET, 10), (F_CART_ADD, 10), (F_SHIP, 8),
         (F_CHECKOUT, 14)]
KIND_NAMES = {"short": {"S": "Server", "C": "Client", "I": "Internal", "P": "Producer", "N": "Consumer"},
              "otlp": {"S": "SPAN_KIND_SERVER", "C": "SPAN_KIND_CLIENT", "I": "SPAN_KIND_INTERNAL",
                       "P": "SPAN_KIND_PRODUCER", "N": "SPAN_KIND_CONSUMER"}}


# ---------------------------------------------------------------- object templates
def deployment(svc, ns=NS, image=None, env=None, mem="256Mi", extra_spec=None, replicas=1, labels=None):
    port = PORTS.get(svc, 8080)
    c = {"name": svc, "image": image or IMG + svc, "imagePullPolicy": "IfNotPresent",
         "env": env if env is not None else [
             {"name": "OTEL_SERVICE_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1",
                                                                        "fieldPath": "metadata.labels['app.kubernetes.io/component']"}}},
             {"name": "OTEL_COLLECTOR_NAME", "value": "otel-collector"},
             {"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://otel-collector:4317"}],
         "resources": {"limits": {"memory": mem}},
         "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}
    if port:
        c["ports"] = [{"containerPort": port, "name": "service", "protocol": "TCP"}]
    lab = {"app.kubernetes.io/name": svc, "app.kubernetes.io/component": svc, "app.kubernetes.io/part-of": "opentelemetry-demo",
           "app.kubernetes.io/instance": "otel-demo", "app.kubernetes.io/version": "2.0.2",
           "app.kubernetes.io/managed-by": "Helm", "helm.sh/chart": "opentelemetry-demo-0.37.2"}
    if labels:
        lab = labels
    spec = {"replicas": replicas, "revisionHistoryLimit": 10, "progressDeadlineSeconds": 600,
            "selector": {"matchLabels": {"app.kubernetes.io/name": svc} if not labels else
                         {k: v for k, v in labels.items() if k == "app.kubernetes.io/name"}},
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
            "template": {"metadata": {"labels": {"app.kubernetes.io/name": svc, "app.kubernetes.io/component": svc,
                                                 "opentelemetry.io/name": svc}},
                         "spec": {"serviceAccountName": "otel-demo" if ns == NS else "default",
                                  "containers": [c], "restartPolicy": "Always", "dnsPolicy": "ClusterFirst",
                                  "schedulerName": "default-scheduler", "terminationGracePeriodSeconds": 30,
                                  "securityContext": {}}}}
    if extra_spec:
        extra_spec(spec)
    return {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": svc, "namespace": ns, "generation": 3, "labels": lab,
                         "annotations": {"deployment.kubernetes.io/revision": "3",
                                         "meta.helm.sh/release-name": "otel-demo",
                                         "meta.helm.sh/release-namespace": ns}},
            "spec": spec,
            "status": {"replicas": replicas, "readyReplicas": replicas, "availableReplicas": replicas,
                       "updatedReplicas": replicas, "observedGeneration": 3}}


def service(svc, ns=NS, port=None, selector=None):
    port = port or PORTS.get(svc) or 8080
    return {"apiVersion": "v1", "kind": "Service",
            "metadata": {"name": svc, "namespace": ns, "labels": {"app.kubernetes.io/name": svc,
                                                                  "app.kubernetes.io/part-of": "opentelemetry-demo"}},
            "spec": {"type": "ClusterIP", "clusterIP": "172.20.%d.%d" % (len(svc) * 7 % 250, sum(map(ord, svc)) % 250),
                     "ports": [{"name": "tcp-service", "port": port, "protocol": "TCP", "targetPort": port}],
                     "selector": selector or {"app.kubernetes.io/name": svc}, "sessionAffinity": "None"},
            "status": {"loadBalancer": {}}}


def pod_obj(name, svc, node, phase="Running", ready=True, ns=NS, restarts=0, waiting=None, last=None, owner=None,
            image=None, mem="256Mi", start=None):
    cs = {"name": svc, "image": image or IMG + svc, "ready": ready, "restartCount": restarts, "started": ready,
          "state": {"running": {"startedAt": start}} if not waiting else {"waiting": waiting}}
    if last:
        cs["lastState"] = {"terminated": last}
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": ns, "labels": {"app.kubernetes.io/name": svc,
                                                                  "pod-template-hash": name.split("-")[-2]},
                         "ownerReferences": [owner or {"apiVersion": "apps/v1", "kind": "ReplicaSet",
                                                       "name": "-".join(name.split("-")[:-1]), "controller": True}]},
            "spec": {"nodeName": node, "containers": [{"name": svc, "image": image or IMG + svc,
                                                       "resources": {"limits": {"memory": mem}}}]},
            "status": {"phase": phase, "conditions": [{"type": "Ready", "status": "True" if ready else "False"}],
                       "containerStatuses": [cs], "qosClass": "Burstable"}}


# ---------------------------------------------------------------- incident
class Inc:
    def __init__(self, sid, t0, seed, st, fault_m):
        self.sid, self.t0, self.st, self.fm = sid, t0, st, fault_m
        self.r = random.Random(seed)
        self.events, self.objs, self.logs, self.spans = [], [], [], []
        self.alertdefs, self.alert_times = [], []
        self.rv = 7_310_000 + seed * 3917
        self.podn = {}
        self.node_of = {s: NODES[int(h(s + sid, 8), 16) % 3] for s in SVCS + ["order-audit", "otel-collector"]}
        self.effect = lambda callee, op, m, tr: None
        self.extra_logs = []      # callables(inc) run after traffic
        self.traffic_mult = lambda m: 1.0
        self.pod_metrics = {}     # svc -> dict overrides
        self.consumers = ["accounting", "fraud-detection"]
        self.consumer_fn = lambda svc, m: (svc, NS)
        self.win = 32
        self.metric_svcs = ["frontend-proxy", "frontend", "checkout"]
        self.metric_pods = []

    def T(self, m):
        return self.t0 + timedelta(microseconds=round(m * 60e6))

    def pod(self, svc, gen="a", ns=NS):
        return podname(svc, self.sid + gen + ns)

    def cur_pod(self, svc, m):
        g = self.podn.get(svc)
        if g:
            gen = "a"
            for (mm, gg) in g:
                if m >= mm:
                    gen = gg
            return self.pod(svc, gen)
        return self.pod(svc)

    def repod(self, svc, m, gen):
        self.podn.setdefault(svc, []).append((m, gen))

    # --- events
    def event(self, m, kind, name, reason, msg, etype="Normal", ns=NS, count=1, comp="kubelet", host=None,
              api=None, watch=None, first_m=None):
        t = self.T(m)
        self.rv += self.r.randint(5, 60)
        api = api or self.st.get("ev", "v1")
        if api == "mixed":
            api = "events.k8s.io" if comp in ("default-scheduler", "deployment-controller", "keda-operator",
                                              "replicaset-controller", "cronjob-controller", "job-controller") else "v1"
        evname = "%s.%s" % (name, h(name + reason + str(m) + str(count), 16))
        if first_m is None:
            first_m = m - min(count - 1, 6) * 0.5
        if api == "events.k8s.io":
            o = {"kind": "Event", "apiVersion": "events.k8s.io/v1",
                 "metadata": {"name": evname, "namespace": ns, "uid": h(evname, 8) + "-" + h(evname, 4) + "-4" + h(evname + "x", 3) + "-a" + h(evname + "y", 3) + "-" + h(evname + "z", 12),
                              "resourceVersion": str(self.rv), "creationTimestamp": iso(self.T(first_m), False)},
                 "eventTime": iso(self.T(first_m)) if count == 1 else None,
                 "reportingController": comp if "/" in comp or comp.startswith("chaos") or comp.startswith("keda") else
                 ("kubelet" if comp == "kubelet" else comp),
                 "reportingInstance": host or comp, "action": reason, "reason": reason,
                 "regarding": {"kind": kind, "namespace": ns, "name": name,
                               "apiVersion": {"Pod": "v1", "Node": "v1", "Service": "v1", "ConfigMap": "v1"}.get(kind, "apps/v1")
                               if kind not in ("StressChaos", "ScaledObject", "Job", "CronJob") else
                               {"StressChaos": "chaos-mesh.org/v1alpha1", "ScaledObject": "keda.sh/v1alpha1"}.get(kind, "batch/v1")},
                 "note": msg, "type": etype}
            if o["eventTime"] is None:
                o["eventTime"] = iso(self.T(first_m))
            if count > 1:
                o["series"] = {"count": count, "lastObservedTime": iso(t)}
                o["deprecatedCount"] = count
                o["deprecatedFirstTimestamp"] = iso(self.T(first_m), False)
                o["deprecatedLastTimestamp"] = iso(t, False)
        else:
            o = {"kind": "Event", "apiVersion": "v1",
                 "metadata": {"name": evname, "namespace": ns, "uid": h(evname, 32),
                              "resourceVersion": str(self.rv), "creationTimestamp": iso(self.T(first_m), False)},
                 "involvedObject": {"kind": kind, "namespace": ns, "name": name, "uid": h(kind + name, 32),
                                    "apiVersion": "v1" if kind in ("Pod", "Node", "Service", "ConfigMap") else "apps/v1"},
                 "reason": reason, "message": msg, "source": {"component": comp, **({"host": host} if host else {})},
                 "firstTimestamp": iso(self.T(first_m), False), "lastTimestamp": iso(t, False), "count": count,
                 "type": etype, "eventTime": None, "reportingComponent": comp, "reportingInstance": host or ""}
            if kind == "Pod" and comp == "kubelet":
                o["involvedObject"]["fieldPath"] = "spec.containers{%s}" % name.rsplit("-", 2)[0]
        self.events.append((t, {"type": watch or ("MODIFIED" if count > 1 else "ADDED"), "object": o}))

    def repeat(self, m0, m1, step, kind, name, reason, msg, etype="Warning", **kw):
        c, m = 1, m0
        while m <= m1:
            self.event(m, kind, name, reason, msg, etype, count=c, first_m=m0, **kw)
            c += 1
            m += step

    def rollout(self, m, svc, newgen, ns=NS, oldgen="a", host=None):
        """routine RollingUpdate events: ScalingReplicaSet + pod lifecycle"""
        newp, oldp = self.pod(svc, newgen, ns), self.pod(svc, oldgen, ns)
        rs_new, rs_old = newp.rsplit("-", 1)[0], oldp.rsplit("-", 1)[0]
        self.event(m, "Deployment", svc, "ScalingReplicaSet", "Scaled up replica set %s from 0 to 1" % rs_new,
                   ns=ns, comp="deployment-controller")
        self.event(m + 0.01, "ReplicaSet", rs_new, "SuccessfulCreate", "Created pod: %s" % newp, ns=ns,
                   comp="replicaset-controller")
        node = host or self.node_of.get(svc, NODES[0])
        self.event(m + 0.02, "Pod", newp, "Scheduled", "Successfully assigned %s/%s to %s" % (ns, newp, node), ns=ns,
                   comp="default-scheduler")
        self.event(m + 0.1, "Pod", newp, "Pulled", "Container image already present on machine", ns=ns, host=node)
        self.event(m + 0.11, "Pod", newp, "Created", "Created container %s" % svc, ns=ns, host=node)
        self.event(m + 0.12, "Pod", newp, "Started", "Started container %s" % svc, ns=ns, host=node)
        return newp, oldp, rs_new, rs_old

    def finish_rollout(self, m, svc, newp, oldp, rs_new, rs_old, ns=NS):
        self.event(m, "Deployment", svc, "ScalingReplicaSet", "Scaled down replica set %s from 1 to 0" % rs_old,
                   ns=ns, comp="deployment-controller")
        self.event(m + 0.01, "ReplicaSet", rs_old, "SuccessfulDelete", "Deleted pod: %s" % oldp, ns=ns,
                   comp="replicaset-controller")
        self.event(m + 0.02, "Pod", oldp, "Killing", "Stopping container %s" % svc, ns=ns,
                   host=self.node_of.get(svc, NODES[0]))

    # --- objects
    def obj(self, m, o):
        o = json.loads(json.dumps(o))
        self.rv += self.r.randint(5, 60)
        md = o["metadata"]
        md["resourceVersion"] = str(self.rv)
        md.setdefault("uid", h(o["kind"] + md.get("namespace", "") + md["name"], 8) + "-" + h(md["name"], 4) + "-4"
                      + h(o["kind"], 3) + "-9" + h(md["name"] + "u", 3) + "-" + h(md["name"] + "v", 12))
        md.setdefault("creationTimestamp", iso(self.t0 - timedelta(days=11, hours=5, minutes=17), False))
        if self.st.get("mf"):
            md["managedFields"] = [{"manager": "helm", "operation": "Update", "apiVersion": o["apiVersion"],
                                    "time": iso(self.t0 - timedelta(days=11), False), "fieldsType": "FieldsV1",
                                    "fieldsV1": {"f:metadata": {"f:labels": {".": {}}}, "f:spec": {}}}]
        self.objs.append((self.T(m), o))

    # --- logs
    def log(self, m, svc, sev, body, trace="", span="", ns=NS, attrs=None, pod=None):
        t = self.T(m)
        ra = {"k8s.namespace.name": ns, "k8s.pod.name": pod or self.cur_pod(svc, m), "k8s.node.name": self.node_of.get(svc, NODES[0]),
              "service.name": svc, "service.namespace": "opentelemetry-demo", "k8s.deployment.name": svc}
        if svc in LANG:
            ra["telemetry.sdk.language"] = LANG[svc]
        self.logs.append((t, trace, span, sev, SEVNUM.get(sev.upper(), 9), svc, body, ra, attrs or {}))

    # --- traces
    def sp(self, m, tid, sid, parent, name, kind, svc, dur_ms, status="Unset", smsg="", attrs=None, ns=NS):
        pn = self.cur_pod(svc, m) if ns == NS else self.pod(svc, "a", ns)
        ra = {"service.name": svc, "k8s.namespace.name": ns, "k8s.pod.name": pn,
              "service.namespace": "opentelemetry-demo" if ns == NS else ns, "host.name": pn}
        if svc in LANG:
            ra["telemetry.sdk.language"] = LANG[svc]
        self.spans.append((self.T(m), tid, sid, parent, name, kind, svc, ra, attrs or {}, int(dur_ms * 1e6), status, smsg))

    def newid(self, n):
        return "%0*x" % (n, self.r.getrandbits(n * 4))

    def call(self, m, tr, caller, caller_span, node, depth=0):
        """caller makes client call to node=(callee, op, children); returns (err_msg|None, dur_ms)"""
        callee, op, kids = node
        eff = self.effect(callee, op, m, tr) or {}
        cid = self.newid(16)
        is_redis = callee == "valkey-cart"
        is_kafka = callee == "kafka"
        lat = BASE_MS[callee] * self.r.lognormvariate(0, 0.35) + eff.get("lat", 0)
        err = eff.get("err")
        cm = m
        if is_redis:
            a = {"db.system": "redis", "db.statement": op + " " + tr.get("user", "u"), "net.peer.name": "valkey-cart",
                 "net.peer.port": 6379}
            self.sp(cm, tr["tid"], cid, caller_span, op, "C", caller, lat, "Error" if err else "Unset", err or "", a)
            return err, lat
        if is_kafka:
            a = {"messaging.system": "kafka", "messaging.destination.name": "orders", "messaging.operation": "publish"}
            self.sp(cm, tr["tid"], cid, caller_span, op, "P", caller, lat, "Error" if err else "Unset", err or "", a)
            if not err:
                for c in self.consumers:
                    who, ns = self.consumer_fn(c, m)
                    if who is None:
                        continue
                    self.sp(m + 0.02, tr["tid"], self.newid(16), cid, "orders process", "N", who,
                            BASE_MS.get(who, 5) * self.r.lognormvariate(0, 0.3), "Unset", "",
                            {"messaging.system": "kafka", "messaging.destination.name": "orders",
                             "messaging.operation": "process", "messaging.kafka.consumer.group": c}, ns=ns)
                    tr.setdefault("consumed", []).append((who, ns, m + 0.02))
            return err, lat
        server_id = self.newid(16)
        kid_err = None
        if not eff.get("unreach") and not eff.get("early"):
            cur = m + lat / 120000.0
            for k in kids:
                e, d = self.call(cur, tr, callee, server_id, k, depth + 1)
                cur += (d * (0.6 if len(kids) > 2 else 1.0) + 0.05) / 60000.0
                lat += d * (0.6 if len(kids) > 2 else 1.0)
                if e and not kid_err and k[0] not in eff.get("ignore", ()):
                    kid_err = e
        if eff.get("unreach"):
            cerr = eff.get("err") or "14 UNAVAILABLE: No connection established"
            lat = eff.get("lat", 3.0) * self.r.uniform(0.8, 1.3)
            self.sp(cm, tr["tid"], cid, caller_span, op, "C", caller, lat, "Error", cerr,
                    {"rpc.system": "grpc", "net.peer.name": callee, "rpc.grpc.status_code": 14} if "/" in op and not op.startswith(("GET", "POST")) else
                    {"http.method": op.split()[0], "net.peer.name": callee, "http.url": "http://%s:%d%s" % (callee, PORTS.get(callee, 80), op.split()[-1])})
            return "%s: %s" % (callee, cerr), lat
        own = err or (("%s" % kid_err) if kid_err and not eff.get("swallow") else None)
        st = "Error" if own else "Unset"
        attrs = {"rpc.system": "grpc", "rpc.service": op.rsplit("/", 1)[0], "rpc.method": op.rsplit("/", 1)[-1]} \
            if not op.startswith(("GET", "POST")) else {"http.method": op.split()[0], "http.route": op.split()[-1],
                                                         "http.status_code": 500 if own else 200}
        if "product" in tr and "ProductCatalog" in op:
            attrs["app.product.id"] = tr["product"]
        if eff.get("attrs"):
            attrs.update(eff["attrs"])
        smsg = (err or kid_err or "") if own else ""
        self.sp(cm + 0.1 / 60000.0, tr["tid"], server_id, cid, op, "S", callee, lat, st, smsg[:200], attrs)
        if own and eff.get("log") and self.r.random() < 0.7:
            self.log(cm + 0.001, callee, eff.get("logsev", "ERROR"), eff["log"], tr["tid"], server_id)
        elif not own and self.r.random() < 0.05:
            self.log(cm + 0.001, callee, "INFO", "%s handled in %.1f ms" % (op.rsplit("/", 1)[-1], lat), tr["tid"], server_id)
        self.sp(cm - 0.2 / 60000.0, tr["tid"], cid, caller_span, op, "C", caller, lat + 0.4, st, smsg[:200],
                {"net.peer.name": callee, **({"rpc.system": "grpc"} if "/" in op and not op.startswith(("GET", "POST")) else {})})
        return own, lat

    def traffic(self):
        weights = [w for _, w in FLOWS]
        for mi in range(0, self.win):
            n = int(15 * self.traffic_mult(mi))
            for k in range(n):
                m = mi + (k + self.r.random()) / n
                flow = self.r.choices([f for f, _ in FLOWS], weights)[0]
                tr = {"tid": self.newid(32), "product": self.r.choice(PRODUCTS),
                      "user": "user-" + h(str(self.r.random()), 8), "flow": flow[1]}
                if flow is F_CHECKOUT:
                    tr["cart_items"] = self.r.sample(PRODUCTS, self.r.randint(1, 3))
                root = self.newid(16)
                e, d = self.call(m + 0.4 / 60000.0, tr, "frontend-proxy", root, flow)
                d += BASE_MS["frontend-proxy"]
                self.sp(m, tr["tid"], root, "", "ingress", "S", "frontend-proxy", d, "Error" if e else "Unset", "",
                        {"http.method": flow[1].split()[0], "http.url": "http://frontend-proxy:8080" + flow[1].split()[1],
                         "http.status_code": 500 if e else 200, "upstream_cluster": "frontend",
                         "user_agent.original": "python-requests/2.32.3"})
                if e and self.r.random() < 0.3:
                    self.log(m + 0.002, "frontend", "ERROR", "Error: %s" % e[:160], tr["tid"])
        for f in self.extra_logs:
            f(self)

    # --- alerts
    def alert(self, name, svc, start_m, end_m=None, sev="warning", summary="", value=None, ns=NS, lab=None, forr=1.0):
        self.alertdefs.append(dict(name=name, svc=svc, start=start_m, end=end_m, sev=sev, summary=summary,
                                   value=value, ns=ns, lab=lab or {}, forr=forr))

    # --- metrics
    def service_metrics(self):
        per = {}
        srv = [s for s in self.spans if KIND_NAMES["short"].get(s[5]) in ("Server", "Consumer")]
        for s in srv:
            svc = s[6]
            if svc not in self.metric_svcs:
                continue
            mi = int((s[0] - self.t0).total_seconds() // 60)
            d = per.setdefault(svc, {}).setdefault(mi, {"n": 0, "e": 0, "d": []})
            d["n"] += 1
            d["e"] += s[10] == "Error"
            d["d"].append(s[9] / 1e6)
        return per


# ---------------------------------------------------------------- writers
ALL_COLS_LOG = ["Timestamp", "TraceId", "SpanId", "SeverityText", "SeverityNumber", "ServiceName", "Body",
                "ResourceAttributes", "LogAttributes"]
ALL_COLS_TR = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
               "ResourceAttributes", "SpanAttributes", "Duration", "StatusCode", "StatusMessage"]


def ch_escape(v):
    return str(v).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def write_table(path, header, rows, shape):
    """shape: pandas | pandas_idx | quote_all | clickhouse ; crlf ; bom"""
    kind = shape.get("kind", "pandas")
    nl = "\r\n" if shape.get("crlf") else "\n"
    enc = "utf-8-sig" if shape.get("bom") else "utf-8"
    with open(path, "w", newline="", encoding=enc) as f:
        if kind == "clickhouse":
            f.write("\t".join(header) + nl)
            for r in rows:
                f.write("\t".join(ch_escape("" if v is None else v) for v in r) + nl)
            return
        q = csv.QUOTE_ALL if kind == "quote_all" else csv.QUOTE_MINIMAL
        w = csv.writer(f, delimiter="\t", lineterminator=nl, quoting=q)
        if kind == "pandas_idx":
            w.writerow([""] + header)
            for i, r in enumerate(rows):
                w.writerow([i] + ["" if v is None else v for v in r])
        else:
            w.writerow(header)
            for r in rows:
                w.writerow(["" if v is None else v for v in r])


def attrs_text(d, style):
    if style == "ch":
        return chmap(d)
    if style == "py":
        return pydict(d)
    return jdump(d)


def write_incident(inc, out, gt_text):
    d = os.path.join(out, inc.sid)
    os.makedirs(os.path.join(d, "alerts"), exist_ok=True)
    os.makedirs(os.path.join(d, "metrics"), exist_ok=True)
    st = inc.st
    tf = st.get("ts", "isoz")
    shape = st.get("shape", {"kind": "pandas"})
    amap = st.get("attrs", "json")

    def T(t):
        return ts_form(t, tf)

    # ---- events
    ev = sorted(inc.events, key=lambda x: x[0])
    hdr = list(ALL_COLS_LOG)
    rows = []
    for t, b in ev:
        o = b["object"]
        body = jdump(b)
        if shape.get("kind") == "clickhouse":
            assert "\\" not in body, body
        rows.append([T(t), "", "", "", 0, "", body,
                     attrs_text({"k8s.cluster.name": inc.st.get("cluster", "shop-prod-euw1"),
                                 "service.name": "k8s-event-exporter"}, amap),
                     attrs_text({"k8s.event.reason": o.get("reason", ""), "k8s.event.name": o["metadata"]["name"],
                                 "k8s.namespace.name": o["metadata"]["namespace"],
                                 "event.domain": "k8s"}, amap)])
    write_table(os.path.join(d, "k8s_events_raw.tsv"), hdr, rows, st.get("ev_shape", shape))

    # ---- objects
    rows = []
    for t, o in sorted(inc.objs, key=lambda x: x[0]):
        body = jdump(o)
        if shape.get("kind") == "clickhouse":
            assert "\\" not in body, body[:300]
        if st.get("dbl"):
            body = json.dumps(body)
        rows.append([T(t), "", "", "", 0, "", body,
                     attrs_text({"k8s.cluster.name": inc.st.get("cluster", "shop-prod-euw1")}, amap),
                     attrs_text({"k8s.resource.name": o["kind"].lower() + "s", "event.domain": "k8s",
                                 "event.name": o["metadata"]["name"]}, amap)])
    write_table(os.path.join(d, "k8s_objects_raw.tsv"), ALL_COLS_LOG, rows, st.get("obj_shape", shape))

    # ---- logs
    extra = st.get("log_extra", [])
    lcols = st.get("log_cols", ALL_COLS_LOG) + extra
    rows = []
    for (t, tid, sid, sev, num, svc, body, ra, la) in sorted(inc.logs, key=lambda x: x[0]):
        base = {"Timestamp": T(t), "TraceId": tid, "SpanId": sid, "SeverityText": sev, "SeverityNumber": num,
                "ServiceName": svc, "Body": body, "ResourceAttributes": attrs_text(ra, amap),
                "LogAttributes": attrs_text(la, amap), "TraceFlags": 1 if tid else 0,
                "ScopeName": {"java": "io.opentelemetry.ad", "dotnet": "Microsoft.Extensions.Logging"}.get(LANG.get(svc, ""), ""),
                "ScopeVersion": "", "TimestampTime": t.strftime("%Y-%m-%d %H:%M:%S"),
                "ResourceSchemaUrl": "", "ScopeAttributes": attrs_text({}, amap)}
        rows.append([base[c] for c in lcols])
    write_table(os.path.join(d, "otel_logs_raw.tsv"), lcols, rows, st.get("log_shape", shape))

    # ---- traces
    kn = KIND_NAMES[st.get("kinds", "short")]
    tcols = st.get("tr_cols", ALL_COLS_TR) + st.get("tr_extra", [])
    rows = []
    for (t, tid, sid, par, name, kind, svc, ra, sa, dur, status, smsg) in sorted(inc.spans, key=lambda x: x[0]):
        base = {"Timestamp": T(t), "TraceId": tid, "SpanId": sid, "ParentSpanId": par, "SpanName": name,
                "SpanKind": kn[kind], "ServiceName": svc, "ResourceAttributes": attrs_text(ra, amap),
                "SpanAttributes": attrs_text(sa, amap), "Duration": dur, "StatusCode": status,
                "StatusMessage": smsg, "TraceState": "", "ScopeName": "opentelemetry-instrumentation",
                "ScopeVersion": "", "Events.Timestamp": "[]", "Events.Name": "[]", "Links.TraceId": "[]"}
        rows.append([base[c] for c in tcols])
    write_table(os.path.join(d, "otel_traces_raw.tsv"), tcols, rows, st.get("tr_shape", shape))

    # ---- metrics
    mts = st.get("mts", "isoz")
    mcols = st.get("mcols", ["metric_name", "timestamp", "value", "tags"])
    mtags = st.get("mtags", "json")
    per = inc.service_metrics()
    for svc, mins in per.items():
        rows = []
        cum = {"Unset": 0, "Error": 0}
        for mi in range(inc.win):
            dd = mins.get(mi, {"n": 0, "e": 0, "d": []})
            t = inc.T(mi + 1)
            cum["Unset"] += dd["n"] - dd["e"]
            cum["Error"] += dd["e"]
            for code in ("STATUS_CODE_UNSET", "STATUS_CODE_ERROR"):
                v = cum["Unset" if code.endswith("UNSET") else "Error"]
                tags = {"service_name": svc, "namespace": NS, "status_code": code, "span_kind": "SPAN_KIND_SERVER",
                        "job": "otel-collector"}
                rows.append(_mrow(mcols, "traces_span_metrics_calls_total", ts_form(t, mts), v, tags, mtags, svc, code, ""))
            ds = sorted(dd["d"])
            p95 = ds[min(len(ds) - 1, int(len(ds) * 0.95))] if ds else float("nan")
            rows.append(_mrow(mcols, "service:latency_p95_ms:1m", ts_form(t, mts),
                              (("nan" if st.get("m_shape", {}).get("kind") == "clickhouse" else "") if not ds else round(p95, 3)), {"service_name": svc, "namespace": NS}, mtags, svc, "", ""))
            er = (dd["e"] / dd["n"]) if dd["n"] else 0.0
            rows.append(_mrow(mcols, "service:error_ratio:1m", ts_form(t, mts), round(er, 4),
                              {"service_name": svc, "namespace": NS}, mtags, svc, "", ""))
            if st.get("buckets"):
                acc = 0
                for le in (5, 10, 25, 50, 100, 250, 500, 1000, 2500, "+Inf"):
                    acc = sum(1 for x in ds if le == "+Inf" or x <= le)
                    rows.append(_mrow(mcols, "traces_span_metrics_duration_milliseconds_bucket", ts_form(t, mts), acc,
                                      {"service_name": svc, "namespace": NS, "le": str(le)}, mtags, svc, "", str(le)))
        write_table(os.path.join(d, "metrics", "service_%s.tsv" % svc), mcols, rows, st.get("m_shape", {"kind": "pandas"}))
    for (svc, ns, podfn, series) in inc.metric_pods:
        byname = {}
        for mi in range(inc.win):
            t = inc.T(mi + 0.5)
            pname = podfn(mi)
            if pname is None:
                continue
            for mname, fn in series.items():
                v = fn(mi)
                if v is None:
                    continue
                tags = {"pod": pname, "namespace": ns, "container": svc, "node": inc.node_of.get(svc, NODES[0]),
                        "job": "kubelet" if mname.startswith("container") else "kube-state-metrics"}
                byname.setdefault(pname, []).append(_mrow(mcols, mname, ts_form(t, mts), v, tags, mtags, svc, "", "", pname, ns))
        for pname, rows in byname.items():
            write_table(os.path.join(d, "metrics", "pod_%s.tsv" % pname), mcols, rows, st.get("m_shape", {"kind": "pandas"}))

    # ---- alerts
    env = st.get("alerts", "prom")
    for k, am in enumerate(inc.alert_times):
        t = inc.T(am)
        act = []
        for a in inc.alertdefs:
            if a["start"] <= am and (a["end"] is None or am < a["end"]):
                firing = am >= a["start"] + a["forr"]
                act.append((a, firing))
        fname_t = t.strftime("%Y-%m-%dT%H-%M-%S.%f")
        if env in ("am", "am_alerts"):      # Alertmanager only ever holds firing alerts
            act = [(a, f) for a, f in act if f]
        objs = [_alert(inc, a, firing, env) for a, firing in act]
        if env == "single":
            for j, o in enumerate(objs):
                tt = t + timedelta(microseconds=j)
                with open(os.path.join(d, "alerts", "alerts_at_%s.json" % tt.strftime("%Y-%m-%dT%H-%M-%S.%f")), "w") as f:
                    json.dump(o, f, indent=1)
            continue
        if env == "prom":
            doc = {"status": "success", "data": {"alerts": objs}}
        elif env == "data_ts":
            doc = {"data": {"alerts": objs}, "timestamp": iso(t)}
        elif env == "data":
            doc = {"data": {"alerts": objs}}
        elif env in ("alerts", "am_alerts"):
            doc = {"alerts": objs}
        else:      # bare list, am list
            doc = objs
        with open(os.path.join(d, "alerts", "alerts_at_%s.json" % fname_t), "w") as f:
            json.dump(doc, f, indent=st.get("aindent", 2))
    with open(os.path.join(d, "ground_truth.yaml"), "w") as f:
        f.write(gt_text)


def _mrow(cols, name, ts, v, tags, mtags, svc, code, le, pod="", ns=NS):
    base = {"metric_name": name, "timestamp": ts, "value": v, "tags": jdump(tags) if mtags == "json" else pydict(tags),
            "pod_name": pod or tags.get("pod", ""), "namespace": ns, "service_name": svc if not pod else "",
            "bucket_le": le, "status_code": code}
    return [base[c] for c in cols]


def _alert(inc, a, firing, env):
    t_start = inc.T(a["start"])
    lab = {"alertname": a["name"], "severity": a["sev"], "namespace": a["ns"]}
    if a["svc"]:
        if a["svc"].startswith("pod:"):
            lab["pod"] = a["svc"][4:]
        elif a["svc"].startswith("node:"):
            lab["instance"] = a["svc"][5:]
        else:
            lab["service_name"] = a["svc"]
    lab.update(a["lab"])
    ann = {"summary": a["summary"] or "%s on %s" % (a["name"], a["svc"]),
           "description": a["summary"] or a["name"]}
    v = a["value"] if a["value"] is not None else round(0.05 + 0.4 * inc.r.random(), 4)
    if env in ("am", "am_alerts"):
        return {"annotations": ann, "endsAt": iso(inc.T(max(a["start"] + 6, 40))), "fingerprint": h(jdump(lab), 16),
                "receivers": [{"name": "sre-oncall-slack"}], "startsAt": iso(t_start),
                "status": {"inhibitedBy": [], "silencedBy": [], "state": "active"},
                "updatedAt": iso(inc.T(a["start"] + 0.5)), "generatorURL": "http://prometheus-server/graph?g0.expr=" + a["name"],
                "labels": lab}
    sv = ("%e" % v) if inc.st.get("sci") else str(v)
    o = {"labels": lab, "annotations": ann, "state": "firing" if firing else "pending",
         "activeAt": ts_form(t_start, inc.st.get("ats", "isoz")), "value": sv}
    return o


# ---------------------------------------------------------------- ground truth yaml
def yq(s):
    s = str(s)
    if s == "" or any(c in s for c in ":#{}[],&*?|<>=!%@`'\"\\") or s.strip() != s or s.lower() in ("true", "false", "null", "yes", "no") \
            or s[0] in "-0123456789.":
        return "'" + s.replace("'", "''") + "'"
    return s


def yaml_dump(o, ind=0):
    pad = "  " * ind
    out = []
    if isinstance(o, dict):
        for k, v in o.items():
            if isinstance(v, (dict, list)) and v:
                out.append("%s%s:" % (pad, k))
                out.append(yaml_dump(v, ind + 1))
            elif isinstance(v, bool):
                out.append("%s%s: %s" % (pad, k, "true" if v else "false"))
            elif isinstance(v, (dict, list)):
                out.append("%s%s: %s" % (pad, k, "{}" if isinstance(v, dict) else "[]"))
            else:
                out.append("%s%s: %s" % (pad, k, yq(v)))
    else:
        for v in o:
            if isinstance(v, (dict, list)):
                sub = yaml_dump(v, ind + 1).split("\n")
                out.append("%s- %s" % (pad, sub[0].lstrip()))
                out.extend(sub[1:])
            else:
                out.append("%s- %s" % (pad, yq(v)))
    return "\n".join(out)


def gt_doc(name, groups, aliases, props, fault, alerts, actions, wrapped):
    spec = {"groups": groups, "aliases": aliases, "propagations": props, "fault": fault, "alerts": alerts}
    if wrapped:
        spec["recommendedActions"] = actions
        doc = {"apiVersion": "itbench.io/v1", "kind": "GroundTruth", "metadata": {"name": name}, "spec": spec}
    else:
        spec["recommended_actions"] = actions
        doc = spec
    return "---\n" + yaml_dump(doc) + "\n"


def G(gid, kind, name=None, filt=None, ns=NS, root=False):
    g = {"id": gid, "kind": kind, "namespace": ns}
    if name:
        g["name"] = name
    g["filter"] = filt or ["^%s$" % name]
    if root:
        g["root_cause"] = True
    return g


def svc_groups(svc, ns=NS, root=False):
    """service, pod, deployment groups of one app + their alias set"""
    p = svc.replace("-", "_")
    return ([G(p + "-service", "Service", svc, ns=ns), G(p + "-pod", "Pod", None, ["^%s-[a-z0-9]+-[a-z0-9]+$" % svc], ns=ns),
             G(p + "-deployment", "Deployment", svc, ns=ns, root=root)],
            [p + "-deployment", p + "-service", p + "-pod"])


def P(src, tgt, cond, eff):
    return {"source": src, "target": tgt, "condition": cond, "effect": eff}


# ---------------------------------------------------------------- shared noise / snapshots
MAIN = ["ad", "cart", "checkout", "currency", "email", "frontend", "frontend-proxy", "payment", "product-catalog",
        "quote", "recommendation", "shipping", "valkey-cart", "accounting", "fraud-detection", "kafka", "flagd",
        "image-provider", "load-generator"]


def flagd_cm(over=None, extra_flag=None):
    flags = {}
    for f in ["productCatalogFailure", "recommendationCacheFailure", "adManualGc", "adHighCpu", "adFailure",
              "kafkaQueueProblems", "cartFailure", "paymentUnreachable", "loadGeneratorFloodHomepage",
              "imageSlowLoad"]:
        flags[f] = {"description": "Fail %s" % f, "state": "ENABLED", "variants": {"on": True, "off": False},
                    "defaultVariant": "off"}
    flags["paymentFailure"] = {"description": "Fail payment service charge requests n%", "state": "ENABLED",
                               "variants": {"100%": 1, "90%": 0.95, "75%": 0.75, "50%": 0.5, "25%": 0.25,
                                            "10%": 0.1, "off": 0}, "defaultVariant": "off"}
    if over:
        for k, v in over.items():
            flags[k]["defaultVariant"] = v
    if extra_flag:
        flags.update(extra_flag)
    return {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "flagd-config", "namespace": NS, "labels": {"app.kubernetes.io/part-of": "opentelemetry-demo"}},
            "data": {"demo.flagd.json": json.dumps({"$schema": "https://flagd.dev/schema/v0/flags.json", "flags": flags},
                                                   indent=2)}}


class World:
    def __init__(self, inc):
        self.inc = inc
        self.dep = {s: deployment(s) for s in MAIN}
        self.svc = {s: service(s) for s in MAIN if PORTS.get(s)}
        self.other = {}
        self.q = []
        self.podfn = {}

    def snap(self, m, pods=True):
        inc = self.inc
        for s in sorted(self.dep):
            inc.obj(m, self.dep[s])
        for s in sorted(self.svc):
            inc.obj(m + 0.01, self.svc[s])
        for k in sorted(self.other):
            inc.obj(m + 0.02, self.other[k])
        if pods:
            for s in sorted(self.dep):
                if self.dep[s]["spec"]["replicas"] == 0:
                    continue
                st = self.podstate(s, m)
                if st:
                    inc.obj(m + 0.03, st)

    def podstate(self, s, m):
        inc = self.inc
        if s in self.podfn:
            return self.podfn[s](m)
        return pod_obj(inc.cur_pod(s, m), s, inc.node_of.get(s, NODES[0]),
                       start=iso(inc.t0 - timedelta(days=2, hours=int(h(s), 16) % 20), False),
                       mem=self.dep[s]["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"].get("memory", "256Mi"))

    def at(self, m, key, fn, kind="dep"):
        self.q.append((m, len(self.q), key, fn, kind))

    def finish(self, snaps=(0, 10, 20, 30)):
        items = [(m, -1, None, None, "snap") for m in snaps] + self.q
        for m, _, key, fn, kind in sorted(items, key=lambda x: (x[0], x[1])):
            if kind == "snap":
                self.snap(m)
            else:
                self.change(m, key, fn, kind)

    def change(self, m, key, fn, kind="dep"):
        table = {"dep": self.dep, "svc": self.svc, "other": self.other}[kind]
        if key not in table and kind == "other":
            o = fn(None)
        else:
            o = json.loads(json.dumps(table[key]))
            r = fn(o)
            if isinstance(r, dict):
                o = r
        if o["kind"] == "Deployment":
            g = o["metadata"].get("generation", 3) + 1
            o["metadata"]["generation"] = g
            o["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = str(g)
            o["status"]["observedGeneration"] = g
        table[key] = o
        self.inc.obj(m, o)
        return o


def std_noise(inc, w, variant):
    r = inc.r
    # background info logs
    def bg(inc):
        for mi in range(inc.win):
            for s, msg in [("frontend", "GET /api/products 200"), ("cart", "GetCartAsync called with userId=%s"),
                           ("recommendation", "Receive ListRecommendations for product ids:%s"),
                           ("shipping", "Received quote request"), ("ad", "Targeted ad request received for [%s]"),
                           ("quote", "Calculated quote"), ("checkout", "[PlaceOrder] user_id=%s user_currency=USD"),
                           ("accounting", "Order details: OrderId=%s"), ("fraud-detection", "Consumed record with orderId: %s")]:
                if r.random() < 0.45:
                    inc.log(mi + r.random(), s, "INFO", msg.replace("%s", h(str(r.random()), 8)) if "%s" in msg else msg)
            if r.random() < 0.3:
                inc.log(mi + r.random(), "otel-collector", "WARN",
                        "Exporting failed. Will retry the request after interval. {\"kind\": \"exporter\", \"name\": \"otlphttp/prometheus\", \"error\": \"context deadline exceeded\"}",
                        ns="opentelemetry-collectors", pod="otel-collector-agent-" + h(inc.sid, 5))
    inc.extra_logs.append(bg)
    # load-generator liveness restart
    lg = inc.cur_pod("load-generator", 0)
    m0 = [6.3, 21.7, 4.1, 24.2, 8.8][variant % 5]
    nq = inc.st.get("noquote")
    inc.repeat(m0, m0 + 1.0, 0.5, "Pod", lg, "Unhealthy",
               "Liveness probe failed: HTTP probe failed with statuscode: 503" if nq else
               "Liveness probe failed: Get \"http://10.42.%d.%d:8089/\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)"
               % (variant + 11, 40 + variant), host=inc.node_of["load-generator"])
    inc.event(m0 + 1.05, "Pod", lg, "Killing", "Container load-generator failed liveness probe, will be restarted",
              host=inc.node_of["load-generator"])
    # other namespace
    ons = ["batch-jobs", "staging", "tenant-b", "data-platform", "ci-runners"][variant % 5]
    job = ["report-export-2941", "db-migrate-v41", "nightly-etl-29411520", "thumbnailer-backfill", "cache-warm-8"][variant % 5]
    inc.event(5.5 + variant, "Job", job, "BackoffLimitExceeded", "Job has reached the specified backoff limit", "Warning",
              ns=ons, comp="job-controller")
    jp = job + "-" + h(job + inc.sid, 5)
    if nq:
        inc.event(3.0 + variant, "Pod", jp, "FailedScheduling", "0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
                  "Warning", ns=ons, comp="default-scheduler")
    else:
      inc.event(3.0 + variant, "Pod", jp, "Failed", "Error: container has runAsNonRoot and image will run as root (pod: \"%s_%s(%s)\", container: main)"
                % (jp, ons, h(jp, 8)), "Warning", ns=ons, host=NODES[variant % 3])
    # alerts
    inc.alert("Watchdog", "", -30, sev="none", summary="An alert that should always be firing to certify that Alertmanager is working properly.",
              value=1, ns="prometheus")
    inc.alert("CPUThrottlingHigh", "pod:otel-collector-agent-" + h(inc.sid, 5), -12, sev="info",
              summary="27% throttling of CPU in namespace opentelemetry-collectors for container otel-collector",
              ns="opentelemetry-collectors", lab={"container": "otel-collector"})
    if variant % 2 == 0:
        inc.alert("KubeJobFailed", "", 6 + variant, sev="warning", ns=ons, lab={"job_name": job},
                  summary="Job %s/%s failed to complete." % (ons, job))


def gt_alert(gid, aid):
    return {"group_id": gid, "id": aid}


SCEN = []


def scenario(f):
    SCEN.append(f)
    return f


def podmetrics(inc, svc, cpu, mem, restarts=None, ns=NS, podfn=None, extra=None):
    ser = {"container_cpu_usage_seconds:rate1m": cpu, "container_memory_working_set_bytes": mem}
    if restarts:
        ser["kube_pod_container_status_restarts_total"] = restarts
    if extra:
        ser.update(extra)
    inc.metric_pods.append((svc, ns, podfn or (lambda mi: inc.cur_pod(svc, mi + 0.5)), ser))


def jit(inc, base, rel=0.08):
    return lambda mi: round(base * (1 + inc.r.uniform(-rel, rel)), 4)


# ================================================================ 1 catalogue: wrong env var (shipping)
@scenario
def s1(out):
    inc = Inc("Scenario-1", datetime(2026, 11, 3, 9, 41, 7, 120000, tzinfo=timezone.utc), 101,
              {"shape": {"kind": "pandas_idx"}, "ts": "isoz", "ev": "v1", "alerts": "prom", "mf": True,
               "mts": "isoz", "mtags": "json"}, 13.0)
    w = World(inc)
    env = lambda port: [{"name": "SHIPPING_PORT", "value": "50050"}, {"name": "QUOTE_ADDR", "value": "http://quote:%d" % port},
                        {"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://otel-collector:4317"},
                        {"name": "OTEL_RESOURCE_ATTRIBUTES", "value": "service.name=shipping,service.namespace=opentelemetry-demo"}]
    w.dep["shipping"] = deployment("shipping", env=env(8080), mem="20Mi")
    w.dep["quote"] = deployment("quote", env=[{"name": "QUOTE_PORT", "value": "8080"}, {"name": "OTEL_PHP_AUTOLOAD_ENABLED", "value": "true"}], mem="40Mi")
    fm = inc.fm

    def bad(o):
        c = o["spec"]["template"]["spec"]["containers"][0]
        c["env"] = env(8090)
        c["env"].append({"name": "SHIPPING_TRACING_SAMPLE_RATIO", "value": "1.0"})
        o["metadata"]["annotations"]["kubernetes.io/change-cause"] = "values: tracing sampler env for shipping (PLAT-2291)"
    w.at(fm, "shipping", bad)
    inc.repod("shipping", fm + 0.3, "b")
    np_, op_, rn, ro = inc.rollout(fm, "shipping", "b")
    inc.finish_rollout(fm + 0.3, "shipping", np_, op_, rn, ro)
    # lure: routine email rollout a minute earlier
    w.at(fm - 0.8, "email", lambda o: o["spec"]["template"]["spec"]["containers"][0].update(image=IMG + "email-r2"))
    inc.repod("email", fm - 0.5, "b")
    a = inc.rollout(fm - 0.8, "email", "b")
    inc.finish_rollout(fm - 0.5, "email", *a)
    std_noise(inc, w, 0)
    qerr = "error sending request for url (http://quote:8090/getquote): error trying to connect: tcp connect error: Connection refused (os error 111)"

    def eff(callee, op, m, tr):
        if m < fm + 0.3:
            return None
        if callee == "quote":
            return {"unreach": True, "err": qerr, "lat": 1.5}
        if callee == "shipping" and op.endswith("GetQuote"):
            return {"log": "failed to get quote: %s" % qerr}
        if callee == "checkout":
            return {"log": "failed to prepare order: failed to get shipping quote: rpc error: code = Internal desc = failed to get quote"}
        return None
    inc.effect = eff
    inc.metric_svcs = ["frontend-proxy", "frontend", "checkout", "shipping", "quote"]
    podmetrics(inc, "shipping", jit(inc, 0.004), jit(inc, 9.1e6, 0.02))
    podmetrics(inc, "quote", lambda mi: round((0.011 if mi < fm else 0.0012) * (1 + inc.r.uniform(-.1, .1)), 5), jit(inc, 31e6, 0.02))
    inc.alert("RequestErrorRate", "frontend-proxy", fm + 1.4, summary="frontend-proxy 5xx ratio above 5% for 1m")
    inc.alert("RequestErrorRate", "checkout", fm + 1.6, sev="critical", summary="checkout PlaceOrder error ratio above 5%")
    inc.alert("RequestErrorRate", "shipping", fm + 2.0, summary="shipping error ratio above 5%")
    inc.alert("NoRequestsReceived", "quote", fm + 3.0, summary="quote received no requests in the last 2m")
    inc.alert_times = [fm - 4 + k for k in range(19)]
    w.finish()
    inc.traffic()
    g1, a1 = svc_groups("shipping", root=True)
    groups = g1 + [G("quote-service", "Service", "quote"), G("checkout-service", "Service", "checkout"),
                   G("frontend-service", "Service", "frontend"), G("frontend-proxy-service", "Service", "frontend-proxy")]
    props = [P("shipping-deployment", "shipping-pod", "QUOTE_ADDR changed to http://quote:8090 (quote listens on 8080) in a rollout", "new shipping pod runs with wrong quote address"),
             P("shipping-pod", "shipping-service", "every GetQuote connects to quote:8090 and is refused", "shipping GetQuote error rate high"),
             P("shipping-service", "quote-service", "shipping never reaches quote", "quote receives no requests"),
             P("shipping-service", "checkout-service", "PlaceOrder needs a shipping quote", "checkout error rate high"),
             P("checkout-service", "frontend-service", "checkout fails", "frontend checkout and shipping API errors"),
             P("frontend-service", "frontend-proxy-service", "frontend returns 500", "frontend-proxy error rate high")]
    fault = [{"category": "Change", "condition": "wrong environment variable value", "entity": {"kind": "Deployment", "name": "shipping", "group_id": "shipping-deployment"},
              "fault_mechanism": "wrong_env_var"}]
    alerts = [gt_alert("frontend-proxy-service", "RequestErrorRate"), gt_alert("checkout-service", "RequestErrorRate"),
              gt_alert("shipping-service", "RequestErrorRate"), gt_alert("quote-service", "NoRequestsReceived")]
    acts = [{"solution": {"id": "fix_quote_addr", "actions": ["kubectl -n otel-demo set env deployment/shipping QUOTE_ADDR=http://quote:8080"]}}]
    write_incident(inc, out, gt_doc("set25-1", groups, [a1], props, fault, alerts, acts, True))


# ================================================================ 2 catalogue: StressChaos CPU (recommendation)
@scenario
def s2(out):
    inc = Inc("Scenario-2", datetime(2026, 11, 5, 16, 2, 44, 310000, tzinfo=timezone.utc), 202,
              {"shape": {"kind": "quote_all", "crlf": True}, "ts": "iso_off", "ev": "events.k8s.io", "alerts": "list",
               "kinds": "otlp", "mts": "epoch", "mtags": "json", "ats": "isot_off"}, 14.2)
    w = World(inc)
    fm = inc.fm
    chaos = {"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "StressChaos",
             "metadata": {"name": "recommendation-cpu-hog", "namespace": "chaos-mesh",
                          "annotations": {"experiment.chaos-mesh.org/pause": "false"},
                          "finalizers": ["chaos-mesh/records"]},
             "spec": {"mode": "all", "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/name": "recommendation"}},
                      "stressors": {"cpu": {"workers": 4, "load": 100}}, "duration": "45m"},
             "status": {"conditions": [{"type": "AllInjected", "status": "True"}, {"type": "Selected", "status": "True"}],
                        "experiment": {"desiredPhase": "Run", "containerRecords": [
                            {"id": "%s/%s/recommendation" % (NS, inc.pod("recommendation")), "phase": "Injected", "injectedCount": 1}]}}}
    w.at(fm, "chaos", lambda o: chaos, "other")
    for k, (rs, msg) in enumerate([("FinalizerInited", "Finalizer has been inited"), ("Updated", "Successfully update finalizer of resource"),
                                   ("Started", "Experiment has started"), ("Updated", "Successfully update desiredPhase of resource"),
                                   ("Applied", "Successfully apply chaos for %s/%s/recommendation" % (NS, inc.pod("recommendation"))),
                                   ("Updated", "Successfully update records of resource")]):
        inc.event(fm + 0.01 * k, "StressChaos", "recommendation-cpu-hog", rs, msg, ns="chaos-mesh",
                  comp="chaos-controller-manager" if rs != "Applied" else "records")
    # lure: product-catalog rollout 40 s earlier
    w.at(fm - 0.65, "product-catalog", lambda o: o["spec"]["template"]["spec"]["containers"][0]["env"].append(
        {"name": "GOMEMLIMIT", "value": "180MiB"}))
    inc.repod("product-catalog", fm - 0.4, "b")
    a = inc.rollout(fm - 0.65, "product-catalog", "b")
    inc.finish_rollout(fm - 0.4, "product-catalog", *a)
    std_noise(inc, w, 1)

    def eff(callee, op, m, tr):
        if m < fm + 0.1:
            return None
        if callee == "recommendation":
            x = inc.r.random()
            if x < 0.14:
                return {"lat": 2000 + inc.r.uniform(0, 300), "err": "Deadline Exceeded",
                        "log": "Exception calling application: Deadline Exceeded", "logsev": "ERROR"}
            return {"lat": inc.r.uniform(600, 1700)}
        if callee == "frontend" and "recommendations" in op:
            return {"lat": 5}
        return None
    inc.effect = eff
    inc.metric_svcs = ["frontend-proxy", "frontend", "recommendation", "product-catalog"]
    rp = lambda mi: inc.cur_pod("recommendation", mi)
    podmetrics(inc, "recommendation", lambda mi: round((0.035 if mi < fm else 0.998) * (1 + inc.r.uniform(-.05, .02)), 4),
               jit(inc, 61e6, 0.03), extra={"container_cpu_cfs_throttled_periods:ratio_rate1m":
                                            lambda mi: round(0.01 if mi < fm else 0.71 + inc.r.uniform(0, .2), 3),
                                            "container_spec_cpu_quota": lambda mi: 100000})
    podmetrics(inc, "product-catalog", jit(inc, 0.021), jit(inc, 23e6, 0.03))
    inc.alert("RequestLatency", "frontend", fm + 1.0, summary="frontend p95 latency above 800ms")
    inc.alert("RequestLatency", "recommendation", fm + 0.9, summary="recommendation p95 latency above 500ms")
    inc.alert("CPUThrottlingHigh", "pod:" + inc.pod("recommendation"), fm + 1.5, sev="info",
              summary="74% throttling of CPU in namespace otel-demo for container recommendation", lab={"container": "recommendation"})
    inc.alert_times = [fm - 5 + k * 1.5 for k in range(12)]
    w.finish()
    inc.traffic()
    g1, a1 = svc_groups("recommendation")
    groups = [G("chaos-stress", "StressChaos", "recommendation-cpu-hog", ns="chaos-mesh", root=True)] + g1 + [
        G("frontend-service", "Service", "frontend"), G("frontend-proxy-service", "Service", "frontend-proxy")]
    props = [P("chaos-stress", "recommendation-pod", "StressChaos 4 CPU workers at 100% in the recommendation container", "container CPU at its limit, throttled"),
             P("recommendation-pod", "recommendation-service", "CPU starvation", "ListRecommendations latency high, some deadline exceeded"),
             P("recommendation-service", "frontend-service", "frontend waits on recommendations", "frontend latency high"),
             P("frontend-service", "frontend-proxy-service", "slow upstream", "frontend-proxy latency high")]
    fault = [{"category": "Chaos", "condition": "CPU stress", "entity": {"kind": "StressChaos", "name": "recommendation-cpu-hog", "group_id": "chaos-stress"},
              "fault_mechanism": "stress_chaos_cpu"}]
    alerts = [gt_alert("frontend-service", "RequestLatency"), gt_alert("recommendation-service", "RequestLatency"),
              gt_alert("recommendation-pod", "CPUThrottlingHigh")]
    acts = [{"solution": {"id": "delete_chaos", "actions": ["kubectl -n chaos-mesh delete stresschaos recommendation-cpu-hog"]}}]
    write_incident(inc, out, gt_doc("set25-2", groups, [a1], props, fault, alerts, acts, False))


# ================================================================ 3 catalogue: memory limit too low -> OOMKilled (currency)
@scenario
def s3(out):
    inc = Inc("Scenario-3", datetime(2026, 11, 8, 22, 17, 3, 0, tzinfo=timezone.utc), 303,
              {"shape": {"kind": "clickhouse"}, "ts": "ch", "ev": "v1", "alerts": "alerts", "attrs": "ch", "noquote": True,
               "mts": "ch", "mtags": "py", "mcols": ["timestamp", "metric_name", "value", "tags", "pod_name", "namespace"],
               "m_shape": {"kind": "clickhouse"}}, 15.0)
    w = World(inc)
    fm = inc.fm
    w.dep["currency"] = deployment("currency", mem="20Mi")
    w.dep["currency"]["spec"]["template"]["spec"]["containers"][0]["resources"] = {"limits": {"memory": "20Mi"}, "requests": {"memory": "20Mi", "cpu": "10m"}}

    def bad(o):
        o["spec"]["template"]["spec"]["containers"][0]["resources"] = {"limits": {"memory": "8Mi", "cpu": "100m"},
                                                                       "requests": {"memory": "8Mi", "cpu": "10m"}}
        o["metadata"]["annotations"]["kubernetes.io/change-cause"] = "rightsizing: apply VPA recommendation (target 6Mi)"
    w.at(fm, "currency", bad)
    inc.repod("currency", fm + 0.2, "b")
    a = inc.rollout(fm, "currency", "b")
    inc.finish_rollout(fm + 0.2, "currency", *a)
    newp = a[0]
    node = inc.node_of["currency"]
    down = [(15.9, 16.05), (17.2, 17.6), (18.3, 19.0), (19.8, 21.3), (22.0, 24.8), (25.6, 30.6), (31.3, 33)]
    ooms = [d[0] for d in down]
    for k, m in enumerate(ooms[:-1]):
        inc.event(m, "Node", node, "OOMKilling", "Memory cgroup out of memory: Killed process %d (currency) total-vm:61344kB, anon-rss:8012kB, file-rss:5120kB, shmem-rss:0kB, UID:0 pgtables:112kB oom_score_adj:999"
                  % (29417 + 211 * k), "Warning", ns="default", comp="kernel-monitor", host=node)
        if k >= 1:
            inc.event(m + 0.05, "Pod", newp, "BackOff", "Back-off restarting failed container currency in pod %s_otel-demo(%s)" % (newp, h(newp, 8) + "-" + h(newp, 4) + "-4c1e-9a0b-" + h(newp + "x", 12)),
                      "Warning", count=k, first_m=ooms[1] + 0.05, host=node)
        inc.event(down[k][1], "Pod", newp, "Pulled", "Container image %scurrency already present on machine" % IMG, count=k + 1, first_m=fm + 0.1, host=node)
        inc.event(down[k][1] + 0.01, "Pod", newp, "Started", "Started container currency", count=k + 2, first_m=fm + 0.12, host=node)

    def podst(m):
        k = sum(1 for x in ooms if x <= m)
        if m < fm + 0.2:
            return pod_obj(inc.cur_pod("currency", m), "currency", node, mem="20Mi", start=iso(inc.t0 - timedelta(days=3), False))
        isdown = any(a0 <= m < a1 for a0, a1 in down)
        return pod_obj(newp, "currency", node, ready=not isdown, restarts=k, mem="8Mi",
                       waiting={"reason": "CrashLoopBackOff", "message": "back-off 2m40s restarting failed container=currency pod=%s_otel-demo" % newp} if isdown and k > 1 else None,
                       last={"reason": "OOMKilled", "exitCode": 137, "startedAt": iso(inc.T(ooms[k - 1] - 1), False),
                             "finishedAt": iso(inc.T(ooms[k - 1]), False)} if k else None, start=iso(inc.T(fm + 0.1), False))
    w.podfn["currency"] = podst
    for m in (16.0, 18.4, 22.1, 25.7):
        inc.obj(m, podst(m))
    # lure: payment rollout 36 s before
    w.at(fm - 0.6, "payment", lambda o: o["spec"]["template"]["spec"]["containers"][0].update(image=IMG + "payment-r1"))
    inc.repod("payment", fm - 0.4, "b")
    a = inc.rollout(fm - 0.6, "payment", "b")
    inc.finish_rollout(fm - 0.4, "payment", *a)
    std_noise(inc, w, 2)
    cerr = "14 UNAVAILABLE: failed to connect to all addresses; last error: UNKNOWN: ipv4:172.20.56.171:7001: Failed to connect to remote host: Connection refused"

    def eff(callee, op, m, tr):
        if m < fm + 0.2:
            return None
        if callee == "currency":
            if any(a0 <= m < a1 for a0, a1 in down):
                return {"unreach": True, "err": cerr, "lat": 2}
            return {"lat": inc.r.uniform(0, 4)}
        if callee == "checkout":
            return {"log": "failed to prepare order: failed to convert currency for order: rpc error: code = Unavailable desc = connection error"}
        if callee == "frontend":
            return {"log": "Error: 14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 172.20.56.171:7001"}
        return None
    inc.effect = eff
    inc.metric_svcs = ["frontend-proxy", "frontend", "checkout", "currency"]
    podmetrics(inc, "currency", lambda mi: round(6.1e6 + inc.r.uniform(0, 4e5), 0) if mi < fm else round(8.2e6 + inc.r.uniform(0, 1.5e5), 0),
               lambda mi: round(0.003 + inc.r.uniform(0, .002), 5),
               restarts=lambda mi: 0 if mi < fm else sum(1 for x in ooms if x <= mi + 0.5),
               podfn=lambda mi: inc.cur_pod("currency", mi + 0.5))
    inc.metric_pods[-1][3]["container_memory_working_set_bytes"], inc.metric_pods[-1][3]["container_cpu_usage_seconds:rate1m"] = \
        inc.metric_pods[-1][3]["container_cpu_usage_seconds:rate1m"], inc.metric_pods[-1][3]["container_memory_working_set_bytes"]
    podmetrics(inc, "payment", jit(inc, 0.012), jit(inc, 71e6, 0.02))
    inc.alert("RequestErrorRate", "frontend", fm + 1.2, summary="frontend error ratio above 5%")
    inc.alert("RequestErrorRate", "checkout", fm + 1.6, sev="critical", summary="checkout error ratio above 5%")
    inc.alert("RequestErrorRate", "frontend-proxy", fm + 1.5, summary="frontend-proxy 5xx above 5%")
    inc.alert("KubePodCrashLooping", "pod:" + newp, fm + 3.4, summary="Pod otel-demo/%s (currency) is in waiting state (reason: CrashLoopBackOff)." % newp,
              lab={"container": "currency", "reason": "CrashLoopBackOff"}, forr=0)
    inc.alert_times = [fm - 3 + k for k in range(17)]
    w.finish()
    inc.traffic()
    g1, a1 = svc_groups("currency", root=True)
    groups = g1 + [G("checkout-service", "Service", "checkout"), G("frontend-service", "Service", "frontend"),
                   G("frontend-proxy-service", "Service", "frontend-proxy")]
    props = [P("currency-deployment", "currency-pod", "memory limit lowered from 20Mi to 8Mi", "container OOMKilled, CrashLoopBackOff"),
             P("currency-pod", "currency-service", "pod restarting", "currency unavailable intermittently"),
             P("currency-service", "frontend-service", "Convert fails", "frontend error rate high"),
             P("currency-service", "checkout-service", "Convert fails", "checkout PlaceOrder errors"),
             P("checkout-service", "frontend-service", "checkout fails", "frontend checkout errors"),
             P("frontend-service", "frontend-proxy-service", "frontend 500", "frontend-proxy error rate high")]
    fault = [{"category": "Change", "condition": "memory limit too low", "entity": {"kind": "Deployment", "name": "currency", "group_id": "currency-deployment"},
              "fault_mechanism": "memory_resource_limit"}]
    alerts = [gt_alert("frontend-service", "RequestErrorRate"), gt_alert("checkout-service", "RequestErrorRate"),
              gt_alert("frontend-proxy-service", "RequestErrorRate"), gt_alert("currency-pod", "KubePodCrashLooping")]
    acts = [{"solution": {"id": "raise_limit", "actions": ["kubectl -n otel-demo set resources deployment/currency --limits=memory=20Mi --requests=memory=20Mi"]}}]
    write_incident(inc, out, gt_doc("set25-3", groups, [a1], props, fault, alerts, acts, False))


# ================================================================ 4 catalogue: flagd paymentFailure 50%
@scenario
def s4(out):
    inc = Inc("Scenario-4", datetime(2026, 11, 10, 13, 30, 0, 500000, tzinfo=timezone.utc), 404,
              {"shape": {"kind": "pandas"}, "obj_shape": {"kind": "pandas", "bom": True}, "dbl": True, "ts": "ch",
               "ev": "v1", "alerts": "am", "mts": "isoz", "mtags": "py", "mf": True, "buckets": True}, 12.4)
    w = World(inc)
    fm = inc.fm
    w.other["flagd-config"] = flagd_cm()
    col = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "otel-collector-agent", "namespace": "opentelemetry-collectors"},
           "data": {"relay": "exporters:\n  otlphttp/prometheus:\n    endpoint: http://prometheus-server:9090/api/v1/otlp\n    timeout: 5s\nprocessors:\n  batch: {}\n  memory_limiter:\n    check_interval: 5s\n    limit_percentage: 80\n"}}
    w.other["otel-collector-agent"] = col
    w.at(fm, "flagd-config", lambda o: flagd_cm({"paymentFailure": "50%"}), "other")
    w.at(fm + 0.7, "otel-collector-agent", lambda o: o["data"].update(relay=o["data"]["relay"].replace("timeout: 5s", "timeout: 15s")), "other")
    # lure: cart rollout 30 s before
    w.at(fm - 0.5, "cart", lambda o: o["spec"]["template"]["spec"]["containers"][0].update(image=IMG + "cart-r3"))
    inc.repod("cart", fm - 0.3, "b")
    a = inc.rollout(fm - 0.5, "cart", "b")
    inc.finish_rollout(fm - 0.3, "cart", *a)
    std_noise(inc, w, 3)
    inc.log(fm + 0.05, "flagd", "INFO", "configuration modified: /etc/flagd/demo.flagd.json (watcher event WRITE)")
    inc.log(fm + 0.06, "flagd", "INFO", "flag sync: 11 flags loaded from file source, 1 updated")

    def eff(callee, op, m, tr):
        if m < fm + 0.1:
            return None
        if callee == "payment":
            if inc.r.random() < 0.5:
                lvl = inc.r.choice(["gold", "silver", "platinum"])
                return {"err": "Payment request failed. Invalid token. app.loyalty.level=%s" % lvl,
                        "attrs": {"app.loyalty.level": lvl, "app.payment.charged": False},
                        "log": "Payment request failed. Invalid token. app.loyalty.level=%s" % lvl}
            return {"attrs": {"app.payment.charged": True}}
        if callee == "checkout":
            return {"log": "failed to charge card: could not charge the card: rpc error: code = Unknown desc = Payment request failed. Invalid token."}
        return None
    inc.effect = eff
    inc.metric_svcs = ["frontend-proxy", "frontend", "checkout", "payment", "cart"]
    podmetrics(inc, "payment", jit(inc, 0.009), jit(inc, 74e6, 0.02))
    podmetrics(inc, "cart", jit(inc, 0.017), jit(inc, 118e6, 0.02))
    inc.alert("RequestErrorRate", "payment", fm + 1.2, summary="payment Charge error ratio 48%")
    inc.alert("RequestErrorRate", "checkout", fm + 1.3, sev="critical", summary="checkout PlaceOrder error ratio above 5%")
    inc.alert("RequestErrorRate", "frontend-proxy", fm + 1.6, summary="frontend-proxy 5xx above 5%")
    inc.alert_times = [fm - 3 + k * 2 for k in range(9)]
    w.finish()
    inc.traffic()
    groups = [G("flagd-config", "ConfigMap", "flagd-config", root=True), G("payment-service", "Service", "payment"),
              G("payment-pod", "Pod", None, ["^payment-[a-z0-9]+-[a-z0-9]+$"]), G("checkout-service", "Service", "checkout"),
              G("frontend-service", "Service", "frontend"), G("frontend-proxy-service", "Service", "frontend-proxy")]
    props = [P("flagd-config", "payment-service", "paymentFailure defaultVariant off -> 50%", "half of Charge calls fail"),
             P("payment-service", "checkout-service", "Charge fails", "PlaceOrder error rate high"),
             P("checkout-service", "frontend-service", "checkout fails", "frontend checkout errors"),
             P("frontend-service", "frontend-proxy-service", "frontend 500", "frontend-proxy error rate high")]
    fault = [{"category": "Change", "condition": "feature flag enabled", "entity": {"kind": "ConfigMap", "name": "flagd-config", "group_id": "flagd-config"},
              "fault_mechanism": "feature_flag"}]
    alerts = [gt_alert("payment-service", "RequestErrorRate"), gt_alert("checkout-service", "RequestErrorRate"),
              gt_alert("frontend-proxy-service", "RequestErrorRate")]
    acts = [{"solution": {"id": "flag_off", "actions": ["set flags.paymentFailure.defaultVariant to off in ConfigMap otel-demo/flagd-config"]}}]
    write_incident(inc, out, gt_doc("set25-4", groups, [["payment-service", "payment-pod"]], props, fault, alerts, acts, True))


# ================================================================ 5 catalogue: broken readiness probe (ad)
@scenario
def s5(out):
    lc = ["Timestamp", "ServiceName", "SeverityText", "SeverityNumber", "Body", "TraceId", "SpanId", "ResourceAttributes", "LogAttributes"]
    tc = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "ServiceName", "SpanName", "SpanKind", "Duration", "StatusCode",
          "StatusMessage", "SpanAttributes", "ResourceAttributes"]
    inc = Inc("Scenario-5", datetime(2026, 11, 12, 7, 55, 31, 0, tzinfo=timezone.utc), 505,
              {"shape": {"kind": "pandas"}, "ts": "isot_off", "ats": "isot_off", "ev": "events.k8s.io", "alerts": "single", "log_cols": lc,
               "log_extra": ["ScopeName", "TimestampTime", "TraceFlags"], "tr_cols": tc,
               "tr_extra": ["TraceState", "ScopeName", "ScopeVersion", "Events.Timestamp", "Events.Name"],
               "mts": "epoch_ms", "mtags": "json", "mcols": ["metric_name", "timestamp", "value", "tags", "service_name", "status_code"]}, 14.0)
    w = World(inc)
    fm = inc.fm
    w.dep["ad"] = deployment("ad", mem="400Mi", extra_spec=lambda sp: sp.update(strategy={"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 1}}))
    node = inc.node_of["ad"]

    def bad(o):
        c = o["spec"]["template"]["spec"]["containers"][0]
        c["readinessProbe"] = {"httpGet": {"path": "/healthz", "port": 9555, "scheme": "HTTP"}, "initialDelaySeconds": 10,
                               "periodSeconds": 10, "timeoutSeconds": 1, "failureThreshold": 3, "successThreshold": 1}
        o["metadata"]["annotations"]["kubernetes.io/change-cause"] = "chart values: add readiness probes to java services"
    w.at(fm, "ad", bad)
    newp, oldp = inc.pod("ad", "b"), inc.pod("ad", "a")
    rs_new, rs_old = newp.rsplit("-", 1)[0], oldp.rsplit("-", 1)[0]
    inc.event(fm, "Deployment", "ad", "ScalingReplicaSet", "Scaled down replica set %s from 1 to 0" % rs_old, comp="deployment-controller")
    inc.event(fm + 0.01, "Pod", oldp, "Killing", "Stopping container ad", host=node)
    inc.event(fm + 0.02, "Deployment", "ad", "ScalingReplicaSet", "Scaled up replica set %s from 0 to 1" % rs_new, comp="deployment-controller")
    inc.event(fm + 0.03, "Pod", newp, "Scheduled", "Successfully assigned otel-demo/%s to %s" % (newp, node), comp="default-scheduler")
    inc.event(fm + 0.1, "Pod", newp, "Pulled", "Container image \"%sad\" already present on machine" % IMG, host=node)
    inc.event(fm + 0.11, "Pod", newp, "Created", "Created container: ad", host=node)
    inc.event(fm + 0.12, "Pod", newp, "Started", "Started container ad", host=node)
    inc.repeat(fm + 0.4, 31, 0.9, "Pod", newp, "Unhealthy",
               "Readiness probe failed: Get \"http://10.42.12.%d:9555/healthz\": net/http: HTTP/1.x transport connection broken: malformed HTTP response \"\\x00\\x00\\x06\\x04\\x00\\x00\\x00\\x00\\x00\\x00\\x04\\x00\\x10\\x00\\x00\\x00\\x06\\x00\\x00 \\x00\"" % (77,),
               host=node)
    inc.repod("ad", fm + 0.01, "b")
    w.podfn["ad"] = lambda m: pod_obj(inc.cur_pod("ad", m), "ad", node, ready=m < fm, mem="400Mi",
                                      start=iso(inc.T(fm + 0.12) if m >= fm else inc.t0 - timedelta(days=4), False))
    inc.obj(fm + 0.5, w.podfn["ad"](fm + 0.5))
    # lure: recommendation rollout 36 s later
    w.at(fm + 0.6, "recommendation", lambda o: o["spec"]["template"]["spec"]["containers"][0].update(image=IMG + "recommendation-r2"))
    inc.repod("recommendation", fm + 0.9, "b")
    a = inc.rollout(fm + 0.6, "recommendation", "b")
    inc.finish_rollout(fm + 0.9, "recommendation", *a)
    std_noise(inc, w, 4)

    def eff(callee, op, m, tr):
        if m < fm + 0.01:
            return None
        if callee == "ad":
            return {"unreach": True, "err": "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 172.20.11.158:9555", "lat": 1.2}
        if callee == "frontend" and op == "GET /api/data":
            return {"log": "Error: 14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 172.20.11.158:9555 (GetAds)"}
        return None
    inc.effect = eff
    inc.metric_svcs = ["frontend-proxy", "frontend", "ad"]

    def adlog(inc):
        for mi in range(0, int(fm)):
            inc.log(mi + 0.3, "ad", "INFO", "Targeted ad request received for [binoculars, telescopes]")
        inc.log(fm + 0.2, "ad", "INFO", "Ad service started, listening on 9555")
        for k in range(16):
            inc.log(fm + 0.45 + k * 1.0, "ad", "WARN", "io.grpc.netty.shaded.io.grpc.netty.NettyServerHandler onDataRead: Stream Error: Unexpected HTTP/1.x request: GET /healthz")
    inc.extra_logs.append(adlog)
    podmetrics(inc, "ad", jit(inc, 0.03), jit(inc, 290e6, 0.03), extra={"kube_pod_status_ready": lambda mi: 1 if mi < fm else 0})
    inc.alert("RequestErrorRate", "frontend", fm + 1.0, summary="frontend error ratio above 5%")
    inc.alert("RequestErrorRate", "frontend-proxy", fm + 1.2, summary="frontend-proxy 5xx above 5%")
    inc.alert("KubeDeploymentReplicasMismatch", "", fm + 4.0, lab={"deployment": "ad"}, summary="Deployment otel-demo/ad has not matched the expected number of replicas for longer than 15 minutes.")
    inc.alert_times = [fm - 2 + k * 1.5 for k in range(12)]
    w.finish()
    inc.traffic()
    g1, a1 = svc_groups("ad", root=True)
    groups = g1 + [G("frontend-service", "Service", "frontend"), G("frontend-proxy-service", "Service", "frontend-proxy")]
    props = [P("ad-deployment", "ad-pod", "readiness probe httpGet /healthz on the gRPC-only port 9555; maxUnavailable 1 removed the old pod first", "new pod Running but never Ready"),
             P("ad-pod", "ad-service", "no ready pod", "ad Service has no endpoints, connections refused"),
             P("ad-service", "frontend-service", "GetAds fails", "frontend /api/data errors"),
             P("frontend-service", "frontend-proxy-service", "frontend 500", "frontend-proxy error rate high")]
    fault = [{"category": "Change", "condition": "readiness probe misconfigured", "entity": {"kind": "Deployment", "name": "ad", "group_id": "ad-deployment"},
              "fault_mechanism": "readiness_probe"}]
    alerts = [gt_alert("frontend-service", "RequestErrorRate"), gt_alert("frontend-proxy-service", "RequestErrorRate"),
              gt_alert("ad-deployment", "KubeDeploymentReplicasMismatch")]
    acts = [{"solution": {"id": "fix_probe", "actions": ["kubectl -n otel-demo rollout undo deployment/ad"]}}]
    write_incident(inc, out, gt_doc("set25-5", groups, [a1], props, fault, alerts, acts, True))


# ================================================================ 6 novel: off-hours CronJob aimed at the wrong namespace
@scenario
def s6(out):
    inc = Inc("Scenario-6", datetime(2026, 11, 13, 19, 0, 2, 0, tzinfo=timezone.utc), 606,
              {"shape": {"kind": "pandas", "crlf": True}, "ts": "isoz", "ev": "mixed", "alerts": "data_ts",
               "mts": "epoch", "mtags": "json", "mcols": ["metric_name", "timestamp", "value", "tags", "pod_name", "namespace"],
               "m_shape": {"kind": "pandas", "crlf": True}, "mf": True}, 15.0)
    w = World(inc)
    fm = inc.fm
    ons = "platform-ops"
    cj = {"apiVersion": "batch/v1", "kind": "CronJob",
          "metadata": {"name": "offhours-scaledown", "namespace": ons, "labels": {"app.kubernetes.io/managed-by": "argocd",
                                                                                 "team": "platform"},
                       "annotations": {"argocd.argoproj.io/tracking-id": "platform-ops:batch/CronJob:platform-ops/offhours-scaledown"}},
          "spec": {"schedule": "15 19 * * 1-5", "timeZone": "Etc/UTC", "concurrencyPolicy": "Forbid", "suspend": False,
                   "successfulJobsHistoryLimit": 3, "failedJobsHistoryLimit": 1,
                   "jobTemplate": {"spec": {"backoffLimit": 0, "template": {"spec": {
                       "serviceAccountName": "offhours-scaler", "restartPolicy": "Never",
                       "containers": [{"name": "scaler", "image": "bitnami/kubectl:1.31.2",
                                       "command": ["/bin/sh", "/scripts/scaledown.sh"],
                                       "env": [{"name": "TARGET_NAMESPACES", "value": "staging"},
                                               {"name": "SKIP_LABEL", "value": "ops.acme.io/keep-alive"},
                                               {"name": "TIER_SELECTOR", "value": "app.kubernetes.io/part-of"}]}]}}}}},
          "status": {"lastScheduleTime": "2026-11-12T19:15:00Z", "lastSuccessfulTime": "2026-11-12T19:15:09Z"}}
    w.other["cronjob"] = cj

    def widen(o):
        o["spec"]["jobTemplate"]["spec"]["template"]["spec"]["containers"][0]["env"][0]["value"] = "staging,otel-demo"
        o["metadata"]["annotations"]["argocd.argoproj.io/sync-revision"] = "9f1c2e7"
    w.at(3.2, "cronjob", widen, "other")
    jobname = "offhours-scaledown-%d" % int((inc.t0.timestamp() + 15 * 60 - 2) // 60)
    jpod = jobname + "-" + "x7k2q"
    inc.event(fm, "CronJob", "offhours-scaledown", "SuccessfulCreate", "Created job %s" % jobname, ns=ons, comp="cronjob-controller")
    inc.event(fm + 0.01, "Job", jobname, "SuccessfulCreate", "Created pod: %s" % jpod, ns=ons, comp="job-controller")
    inc.event(fm + 0.02, "Pod", jpod, "Scheduled", "Successfully assigned %s/%s to %s" % (ons, jpod, NODES[1]), ns=ons, comp="default-scheduler")
    inc.event(fm + 0.05, "Pod", jpod, "Pulled", "Container image \"bitnami/kubectl:1.31.2\" already present on machine", ns=ons, host=NODES[1])
    inc.event(fm + 0.06, "Pod", jpod, "Started", "Started container scaler", ns=ons, host=NODES[1])
    inc.event(fm + 0.6, "Job", jobname, "Completed", "Job completed", ns=ons, comp="job-controller")
    inc.event(fm + 0.65, "CronJob", "offhours-scaledown", "SawCompletedJob", "Saw completed job: %s, status: Complete" % jobname, ns=ons, comp="cronjob-controller")
    job = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": jobname, "namespace": ons,
                                                                  "ownerReferences": [{"apiVersion": "batch/v1", "kind": "CronJob", "name": "offhours-scaledown", "controller": True}]},
           "spec": {"backoffLimit": 0, "template": cj["spec"]["jobTemplate"]["spec"]["template"]},
           "status": {"succeeded": 1, "startTime": iso(inc.T(fm), False), "completionTime": iso(inc.T(fm + 0.6), False)}}
    w.at(fm + 0.62, "job", lambda o: job, "other")
    victims = ["shipping", "recommendation", "email", "quote"]
    for k, v in enumerate(victims):
        m = fm + 0.2 + 0.05 * k

        def scale(o, m=m):
            o["spec"]["replicas"] = 0
            o["metadata"]["annotations"]["ops.acme.io/original-replicas"] = "1"
            o["metadata"]["annotations"]["ops.acme.io/scaled-down-at"] = iso(inc.T(m), False)
            o["status"] = {"observedGeneration": o["status"]["observedGeneration"] + 1, "replicas": 0}
        w.at(m, v, scale)
        rs = inc.pod(v).rsplit("-", 1)[0]
        inc.event(m + 0.01, "Deployment", v, "ScalingReplicaSet", "Scaled down replica set %s from 1 to 0" % rs, comp="deployment-controller")
        inc.event(m + 0.02, "ReplicaSet", rs, "SuccessfulDelete", "Deleted pod: %s" % inc.pod(v), comp="replicaset-controller")
        inc.event(m + 0.03, "Pod", inc.pod(v), "Killing", "Stopping container %s" % v, host=inc.node_of[v])

    def joblogs(inc):
        inc.log(fm + 0.1, "offhours-scaledown", "INFO", "scaledown: namespaces=staging,otel-demo skip-label=ops.acme.io/keep-alive", ns=ons, pod=jpod)
        inc.log(fm + 0.12, "offhours-scaledown", "INFO", "staging: 6 deployments already at 0 replicas", ns=ons, pod=jpod)
        for k, v in enumerate(victims):
            inc.log(fm + 0.2 + 0.05 * k, "offhours-scaledown", "INFO", "deployment.apps/%s scaled" % v, ns=ons, pod=jpod)
        for v in ["frontend", "checkout", "cart", "product-catalog"]:
            inc.log(fm + 0.42, "offhours-scaledown", "INFO", "otel-demo/%s: skipped (ops.acme.io/keep-alive=true)" % v, ns=ons, pod=jpod)
        inc.log(fm + 0.55, "offhours-scaledown", "INFO", "done: 4 scaled, 9 skipped, 0 errors", ns=ons, pod=jpod)
    inc.extra_logs.append(joblogs)
    # lure: currency rollout 50 s earlier
    w.at(fm - 0.85, "currency", lambda o: o["spec"]["template"]["spec"]["containers"][0].update(image=IMG + "currency-r1"))
    inc.repod("currency", fm - 0.6, "b")
    a = inc.rollout(fm - 0.85, "currency", "b")
    inc.finish_rollout(fm - 0.6, "currency", *a)
    std_noise(inc, w, 5)
    gone = {v: fm + 0.2 + 0.05 * k + 0.03 for k, v in enumerate(victims)}

    def eff(callee, op, m, tr):
        if callee in gone and m >= gone[callee]:
            port = PORTS[callee]
            msg = ("14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 172.20.%d.%d:%d" % (len(callee) * 7 % 250, sum(map(ord, callee)) % 250, port)) \
                if callee != "email" else "Failed to open TCP connection to email:6060 (Connection refused - connect(2) for 172.20.35.%d:6060)" % (sum(map(ord, "email")) % 250)
            return {"unreach": True, "err": msg, "lat": 1.5}
        if callee == "checkout" and m >= fm:
            return {"ignore": ("email",), "log": "failed to prepare order: failed to get shipping quote: rpc error: code = Unavailable desc = connection error"}
        return None
    inc.effect = eff
    inc.metric_svcs = ["frontend-proxy", "frontend", "checkout", "shipping", "recommendation", "email"]
    for v in victims:
        podmetrics(inc, v, jit(inc, 0.01), jit(inc, 40e6, 0.03), podfn=lambda mi, v=v: inc.pod(v) if mi < fm else None)
    inc.alert("RequestErrorRate", "frontend", fm + 1.3, summary="frontend error ratio above 5%")
    inc.alert("RequestErrorRate", "frontend-proxy", fm + 1.4, summary="frontend-proxy 5xx above 5%")
    inc.alert("RequestErrorRate", "checkout", fm + 1.5, sev="critical", summary="checkout error ratio above 5%")
    inc.alert("NoRequestsReceived", "email", fm + 3.0, summary="email received no requests in the last 2m")
    inc.alert_times = [fm - 3 + k for k in range(16)]
    w.finish()
    inc.traffic()
    groups = [G("scaledown-cronjob", "CronJob", "offhours-scaledown", ns=ons, root=True),
              G("scaledown-job", "Job", None, ["^offhours-scaledown-[0-9]+$"], ns=ons),
              G("scaledown-pod", "Pod", None, ["^offhours-scaledown-[0-9]+-[a-z0-9]{5}$"], ns=ons)]
    aliases = [["scaledown-cronjob", "scaledown-job", "scaledown-pod"]]
    for v in ["shipping", "recommendation", "email"]:
        g, al = svc_groups(v)
        groups += g
        aliases.append(al)
    groups += [G("quote-deployment", "Deployment", "quote"), G("checkout-service", "Service", "checkout"),
               G("frontend-service", "Service", "frontend"), G("frontend-proxy-service", "Service", "frontend-proxy")]
    props = [P("scaledown-cronjob", "scaledown-job", "TARGET_NAMESPACES widened from staging to staging,otel-demo; 19:15 run", "job scales every otel-demo Deployment without keep-alive label to 0"),
             P("scaledown-job", "shipping-deployment", "kubectl scale --replicas=0", "shipping has no pods"),
             P("shipping-deployment", "shipping-service", "no endpoints", "connections refused"),
             P("shipping-service", "checkout-service", "GetQuote/ShipOrder fail", "PlaceOrder error rate high"),
             P("checkout-service", "frontend-service", "checkout fails", "frontend errors"),
             P("scaledown-job", "recommendation-deployment", "kubectl scale --replicas=0", "recommendation has no pods"),
             P("recommendation-deployment", "recommendation-service", "no endpoints", "connections refused"),
             P("recommendation-service", "frontend-service", "ListRecommendations fails", "frontend errors"),
             P("frontend-service", "frontend-proxy-service", "frontend 500", "frontend-proxy error rate high"),
             P("scaledown-job", "email-deployment", "kubectl scale --replicas=0", "email has no pods, receives no requests")]
    fault = [{"category": "Change", "condition": "scheduled scale-down aimed at production namespace", "entity": {"kind": "CronJob", "name": "offhours-scaledown", "group_id": "scaledown-cronjob"},
              "fault_mechanism": "custom"}]
    alerts = [gt_alert("frontend-service", "RequestErrorRate"), gt_alert("frontend-proxy-service", "RequestErrorRate"),
              gt_alert("checkout-service", "RequestErrorRate"), gt_alert("email-service", "NoRequestsReceived")]
    acts = [{"solution": {"id": "revert_cronjob_and_scale_up", "actions": [
        "set TARGET_NAMESPACES=staging in CronJob platform-ops/offhours-scaledown (or suspend it)",
        "kubectl -n otel-demo scale deployment shipping recommendation email quote --replicas=1"]}}]
    write_incident(inc, out, gt_doc("set25-6", groups, aliases, props, fault, alerts, acts, False))


# ================================================================ 7 novel: new consumer joins the accounting consumer group
@scenario
def s7(out):
    inc = Inc("Scenario-7", datetime(2026, 11, 16, 10, 12, 40, 0, tzinfo=timezone.utc), 707,
              {"shape": {"kind": "pandas"}, "ts": "rfc3339nano", "ev": "v1", "alerts": "prom", "sci": True, "kinds": "otlp",
               "log_extra": ["ScopeName", "ScopeVersion"], "tr_extra": ["TraceState", "ScopeName"],
               "mts": "isoz", "mtags": "json"}, 12.0)
    w = World(inc)
    fm = inc.fm
    ans = "analytics"
    dep = deployment("order-audit", ns=ans, image="registry.internal.acme.io/analytics/order-audit:0.3.1", mem="256Mi",
                     labels={"app.kubernetes.io/name": "order-audit", "team": "analytics"},
                     env=[{"name": "KAFKA_ADDR", "value": "kafka.otel-demo.svc.cluster.local:9092"},
                          {"name": "KAFKA_TOPIC", "value": "orders"},
                          {"name": "KAFKA_GROUP_ID", "value": "accounting"},
                          {"name": "AUDIT_DRY_RUN", "value": "true"},
                          {"name": "OTEL_SERVICE_NAME", "value": "order-audit"}])
    dep["metadata"]["annotations"] = {"deployment.kubernetes.io/revision": "1", "kubernetes.io/change-cause": "first deploy of order-audit (ANL-77)"}
    dep["metadata"]["generation"] = 0
    dep["status"]["observedGeneration"] = 0
    w.at(fm, "order-audit", lambda o: dep, "other")
    inc.node_of["order-audit"] = NODES[2]
    ap = inc.pod("order-audit", "a", ans)
    rs = ap.rsplit("-", 1)[0]
    inc.event(fm + 0.01, "Deployment", "order-audit", "ScalingReplicaSet", "Scaled up replica set %s from 0 to 1" % rs, ns=ans, comp="deployment-controller")
    inc.event(fm + 0.02, "ReplicaSet", rs, "SuccessfulCreate", "Created pod: %s" % ap, ns=ans, comp="replicaset-controller")
    inc.event(fm + 0.03, "Pod", ap, "Scheduled", "Successfully assigned %s/%s to %s" % (ans, ap, NODES[2]), ns=ans, comp="default-scheduler")
    inc.event(fm + 0.05, "Pod", ap, "Pulling", "Pulling image \"registry.internal.acme.io/analytics/order-audit:0.3.1\"", ns=ans, host=NODES[2])
    inc.event(fm + 0.2, "Pod", ap, "Pulled", "Successfully pulled image \"registry.internal.acme.io/analytics/order-audit:0.3.1\" in 8.412s (8.412s including waiting). Image size: 98114311 bytes.", ns=ans, host=NODES[2])
    inc.event(fm + 0.21, "Pod", ap, "Created", "Created container: order-audit", ns=ans, host=NODES[2])
    inc.event(fm + 0.22, "Pod", ap, "Started", "Started container order-audit", ns=ans, host=NODES[2])
    w.podfn["order-audit"] = lambda m: None
    inc.obj(fm + 0.3, pod_obj(ap, "order-audit", NODES[2], ns=ans, image=dep["spec"]["template"]["spec"]["containers"][0]["image"],
                              start=iso(inc.T(fm + 0.22), False), owner={"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": rs, "controller": True}))
    rb = fm + 0.4
    inc.consumer_fn = lambda svc, m: (("order-audit", ans) if (svc == "accounting" and m >= rb) else (svc, NS))

    def kl(inc):
        kp = inc.cur_pod("kafka", rb)
        inc.log(rb - 0.01, "kafka", "INFO", "[GroupCoordinator 1]: Dynamic member with unknown member id joins group accounting in Stable state. Created a new member id rdkafka-6c0f1d52-8e41-4f6b-9a43-1f0b8d7e2c11 and request the member to rejoin with this id. (kafka.coordinator.group.GroupCoordinator)", pod=kp)
        inc.log(rb, "kafka", "INFO", "[GroupCoordinator 1]: Preparing to rebalance group accounting in state PreparingRebalance with old generation 31 (__consumer_offsets-8) (reason: Adding new member rdkafka-6c0f1d52-8e41-4f6b-9a43-1f0b8d7e2c11 with group instance id None; client reason: not provided) (kafka.coordinator.group.GroupCoordinator)", pod=kp)
        inc.log(rb + 0.05, "kafka", "INFO", "[GroupCoordinator 1]: Stabilized group accounting generation 32 (__consumer_offsets-8) with 2 members (kafka.coordinator.group.GroupCoordinator)", pod=kp)
        inc.log(rb + 0.06, "kafka", "INFO", "[GroupCoordinator 1]: Assignment received from leader rdkafka-6c0f1d52-8e41-4f6b-9a43-1f0b8d7e2c11 for group accounting for generation 32. The group has 2 members, 0 of which are static. (kafka.coordinator.group.GroupCoordinator)", pod=kp)
        inc.log(rb + 0.04, "accounting", "INFO", "Partitions revoked: [orders [[0]]]")
        inc.log(rb + 0.07, "accounting", "INFO", "Partitions assigned: []")
        inc.log(rb + 0.07, "order-audit", "INFO", "consumer group=accounting assigned partitions: orders[0]", ns=ans, pod=ap)
        for mi in range(int(rb) + 1, inc.win):
            if inc.r.random() < 0.7:
                inc.log(mi + 0.5, "order-audit", "INFO", "DRY_RUN: audit record for order %s not persisted" % h(str(mi) + "o", 8) + "-" + h(str(mi), 4), ns=ans, pod=ap)
            if mi % 3 == 0:
                inc.log(mi + 0.2, "accounting", "DEBUG", "Consumer poll: no messages (partitions assigned: 0)")
    inc.extra_logs.append(kl)
    # lure: checkout rollout 40 s before; fraud-detection JVM warning
    w.at(fm - 0.7, "checkout", lambda o: o["spec"]["template"]["spec"]["containers"][0].update(image=IMG + "checkout-r4"))
    inc.repod("checkout", fm - 0.45, "b")
    a = inc.rollout(fm - 0.7, "checkout", "b")
    inc.finish_rollout(fm - 0.45, "checkout", *a)
    for k in range(3):
        inc.log(fm + 2 + k * 4, "fraud-detection", "WARN", "[kafka-coordinator-heartbeat-thread | fraud-detection] Consumer poll timeout has expired. This means the time between subsequent calls to poll() was longer than the configured max.poll.interval.ms")
    std_noise(inc, w, 6)
    inc.effect = lambda callee, op, m, tr: None
    inc.metric_svcs = ["frontend-proxy", "checkout", "accounting", "fraud-detection"]
    podmetrics(inc, "accounting", lambda mi: round((0.02 if mi < rb else 0.003) * (1 + inc.r.uniform(-.1, .1)), 5), jit(inc, 112e6, 0.02),
               extra={"db_client_operations_total:rate1m": lambda mi: round((0.33 if mi < rb else 0.0) * (1 + inc.r.uniform(-.2, .2)), 3)})
    podmetrics(inc, "kafka", jit(inc, 0.08), jit(inc, 610e6, 0.02),
               extra={"kafka_consumergroup_lag{group=accounting}": lambda mi: int(inc.r.uniform(0, 3)),
                      "kafka_consumergroup_members{group=accounting}": lambda mi: 1 if mi < rb else 2})
    inc.alert("NoDatabaseOperations", "accounting", rb + 3.0, summary="accounting performed no database operations in the last 3 minutes")
    inc.alert("RequestRateDrop", "accounting", rb + 2.5, summary="accounting consumed orders rate dropped to 0")
    inc.alert_times = [fm - 3 + k for k in range(18)]
    w.finish()
    inc.traffic()
    groups = [G("order-audit-deployment", "Deployment", "order-audit", ns=ans, root=True),
              G("order-audit-pod", "Pod", None, ["^order-audit-[a-z0-9]+-[a-z0-9]+$"], ns=ans),
              G("kafka-service", "Service", "kafka"), G("kafka-pod", "Pod", None, ["^kafka-[a-z0-9]+-[a-z0-9]+$"]),
              G("accounting-service", "Service", "accounting"), G("accounting-pod", "Pod", None, ["^accounting-[a-z0-9]+-[a-z0-9]+$"]),
              G("accounting-deployment", "Deployment", "accounting")]
    aliases = [["order-audit-deployment", "order-audit-pod"], ["kafka-service", "kafka-pod"],
               ["accounting-service", "accounting-pod", "accounting-deployment"]]
    props = [P("order-audit-deployment", "kafka-service", "new consumer with KAFKA_GROUP_ID=accounting joins the accounting group", "group rebalanced; the only partition of orders assigned to order-audit"),
             P("kafka-service", "accounting-service", "accounting consumer has no partition", "accounting consumes no orders, no database operations")]
    fault = [{"category": "Change", "condition": "consumer group id collision", "entity": {"kind": "Deployment", "name": "order-audit", "group_id": "order-audit-deployment"},
              "fault_mechanism": "custom"}]
    alerts = [gt_alert("accounting-service", "NoDatabaseOperations"), gt_alert("accounting-service", "RequestRateDrop")]
    acts = [{"solution": {"id": "own_group_id", "actions": ["kubectl -n analytics set env deployment/order-audit KAFKA_GROUP_ID=order-audit (or scale it to 0)"]}}]
    write_incident(inc, out, gt_doc("set25-7", groups, aliases, props, fault, alerts, acts, True))


# ================================================================ 8 novel: product removed from the catalogue ConfigMap
def products(drop=None):
    names = {"OLJCESPC7Z": ("National Park Foundation Explorascope", 101, 960000000), "66VCHSJNUP": ("Starsense Explorer Refractor Telescope", 349, 950000000),
             "1YMWWN1N4O": ("Eclipsmart Travel Refractor Telescope", 129, 950000000), "L9ECAV7KIM": ("Lens Cleaning Kit", 21, 950000000),
             "2ZYFJ3GM2N": ("Roof Binoculars", 209, 950000000), "0PUK6V6EV0": ("Solar System Color Imager", 175, 0),
             "LS4PSXUNUM": ("Red Flashlight", 57, 80000000), "9SIQT8TOJO": ("Optical Tube Assembly", 3599, 0),
             "6E92ZMYYFZ": ("Solar Filter", 69, 950000000), "HQTGWGPNH4": ("The Comet Book", 0, 990000000)}
    lst = []
    for pid in PRODUCTS:
        if pid == drop:
            continue
        n, u, na = names[pid]
        lst.append({"id": pid, "name": n, "description": n + " for amateur astronomers.", "picture": n.replace(" ", "") + ".jpg",
                    "priceUsd": {"currencyCode": "USD", "units": u, "nanos": na}, "categories": ["telescopes"] if "Telescope" in n else ["accessories"]})
    if drop:   # the edit also re-priced one product
        lst[2]["priceUsd"]["units"] = 24
    return json.dumps({"products": lst}, indent=2)


@scenario
def s8(out):
    inc = Inc("Scenario-8", datetime(2026, 11, 19, 14, 5, 12, 0, tzinfo=timezone.utc), 808,
              {"shape": {"kind": "pandas_idx"}, "ts": "isoz", "ev": "events.k8s.io", "alerts": "am_alerts", "attrs": "py",
               "mts": "iso_off", "mtags": "py", "mcols": ["metric_name", "timestamp", "value", "tags", "service_name", "status_code", "bucket_le"],
               "buckets": True}, 14.3)
    w = World(inc)
    fm = inc.fm
    drop = "66VCHSJNUP"
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "product-catalog-products", "namespace": NS,
                                                                "labels": {"app.kubernetes.io/part-of": "opentelemetry-demo"},
                                                                "annotations": {"meta.helm.sh/release-name": "otel-demo"}},
          "data": {"products.json": products()}}
    w.other["product-catalog-products"] = cm
    w.other["flagd-config"] = flagd_cm()
    w.dep["product-catalog"]["metadata"]["annotations"]["configmap.reloader.stakater.com/reload"] = "product-catalog-products"

    def edit(o):
        o["data"]["products.json"] = products(drop)
        o["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"] = ""
        o["metadata"]["annotations"]["merch.acme.io/edited-by"] = "catalog-sync (merchandising export 2026-11-19)"
    w.at(fm, "product-catalog-products", edit, "other")
    # lure: flagd-config gets a new, disabled flag 40 s earlier
    w.at(fm - 0.7, "flagd-config", lambda o: flagd_cm(extra_flag={"newCheckoutFlow": {"description": "Route checkout through the v2 flow", "state": "ENABLED",
                                                                                  "variants": {"on": True, "off": False}, "defaultVariant": "off"}}), "other")
    inc.log(fm - 0.68, "flagd", "INFO", "configuration modified: /etc/flagd/demo.flagd.json (watcher event WRITE)")
    # reloader rolls product-catalog
    w.at(fm + 0.1, "product-catalog", lambda o: o["spec"]["template"]["metadata"].setdefault("annotations", {}).update(
        {"reloader.stakater.com/last-reloaded-from": "{\"type\":\"CONFIGMAP\",\"name\":\"product-catalog-products\",\"namespace\":\"otel-demo\",\"hash\":\"%s\"}" % h("pc" + drop, 40)}))
    inc.repod("product-catalog", fm + 0.3, "b")
    a = inc.rollout(fm + 0.1, "product-catalog", "b")
    inc.finish_rollout(fm + 0.3, "product-catalog", *a)
    std_noise(inc, w, 7)

    def pcl(inc):
        inc.log(0.5, "product-catalog", "INFO", "Loaded 10 products", pod=inc.pod("product-catalog"))
        inc.log(fm + 0.25, "product-catalog", "INFO", "Loaded 9 products")
        inc.log(fm + 0.26, "product-catalog", "INFO", "Product Catalog gRPC server started on port: 3550")
    inc.extra_logs.append(pcl)

    def eff(callee, op, m, tr):
        if m < fm + 0.3:
            return None
        if callee == "product-catalog" and op.endswith("GetProduct") and tr["product"] == drop:
            return {"err": "rpc error: code = NotFound desc = Product Not Found: %s" % drop, "log": "Product Not Found: %s" % drop, "logsev": "WARN",
                    "attrs": {"rpc.grpc.status_code": 5}}
        if callee == "checkout":
            return {"log": "failed to prepare order: failed to prepare order items: failed to get product #\"%s\"" % drop}
        return None
    inc.effect = eff
    inc.metric_svcs = ["frontend-proxy", "frontend", "checkout", "product-catalog"]
    podmetrics(inc, "product-catalog", jit(inc, 0.015), jit(inc, 21e6, 0.03))
    inc.alert("RequestErrorRate", "product-catalog", fm + 1.6, summary="product-catalog GetProduct error ratio above 5%")
    inc.alert("RequestErrorRate", "checkout", fm + 1.9, sev="critical", summary="checkout PlaceOrder error ratio above 5%")
    inc.alert("RequestErrorRate", "frontend", fm + 1.7, summary="frontend error ratio above 5%")
    inc.alert_times = [fm - 4 + k for k in range(17)]
    w.finish()
    inc.traffic()
    groups = [G("products-configmap", "ConfigMap", "product-catalog-products", root=True)]
    g1, a1 = svc_groups("product-catalog")
    groups += g1 + [G("checkout-service", "Service", "checkout"), G("frontend-service", "Service", "frontend"),
                    G("frontend-proxy-service", "Service", "frontend-proxy")]
    props = [P("products-configmap", "product-catalog-pod", "product 66VCHSJNUP removed from products.json; reloader restarted product-catalog", "catalogue loads 9 products"),
             P("product-catalog-pod", "product-catalog-service", "GetProduct 66VCHSJNUP", "NotFound errors"),
             P("product-catalog-service", "checkout-service", "carts still hold 66VCHSJNUP", "PlaceOrder fails"),
             P("product-catalog-service", "frontend-service", "product page of 66VCHSJNUP", "frontend errors"),
             P("checkout-service", "frontend-service", "checkout fails", "frontend errors"),
             P("frontend-service", "frontend-proxy-service", "frontend 500", "frontend-proxy errors")]
    fault = [{"category": "Change", "condition": "catalogue data edited", "entity": {"kind": "ConfigMap", "name": "product-catalog-products", "group_id": "products-configmap"},
              "fault_mechanism": "custom"}]
    alerts = [gt_alert("product-catalog-service", "RequestErrorRate"), gt_alert("checkout-service", "RequestErrorRate"),
              gt_alert("frontend-service", "RequestErrorRate")]
    acts = [{"solution": {"id": "restore_product", "actions": ["restore 66VCHSJNUP in ConfigMap otel-demo/product-catalog-products"]}}]
    write_incident(inc, out, gt_doc("set25-8", groups, [a1], props, fault, alerts, acts, False))


# ================================================================ 9 novel: valkey hardened with a read-only root fs -> MISCONF
@scenario
def s9(out):
    inc = Inc("Scenario-9", datetime(2026, 11, 22, 3, 20, 0, 250000, tzinfo=timezone.utc), 909,
              {"shape": {"kind": "pandas"}, "log_shape": {"kind": "pandas", "bom": True}, "ts": "iso_off", "ev": "events.k8s.io",
               "alerts": "list", "ats": "rfc3339nano", "mts": "isoz", "mtags": "json"}, 8.5)
    w = World(inc)
    fm = inc.fm
    w.dep["valkey-cart"] = deployment("valkey-cart", image="valkey/valkey:8.1.3-alpine", mem="20Mi")
    vc = w.dep["valkey-cart"]["spec"]["template"]["spec"]["containers"][0]
    vc["env"] = []
    vc["resources"] = {"limits": {"memory": "20Mi"}}

    def harden(o):
        o["spec"]["template"]["spec"]["containers"][0]["securityContext"] = {
            "readOnlyRootFilesystem": True, "runAsNonRoot": True, "runAsUser": 999, "allowPrivilegeEscalation": False,
            "capabilities": {"drop": ["ALL"]}, "seccompProfile": {"type": "RuntimeDefault"}}
        o["metadata"]["annotations"]["kubernetes.io/change-cause"] = "policy remediation: require-ro-rootfs (SEC-1182)"
    w.at(fm, "valkey-cart", harden)
    inc.repod("valkey-cart", fm + 0.25, "b")
    a = inc.rollout(fm, "valkey-cart", "b")
    inc.finish_rollout(fm + 0.25, "valkey-cart", *a)
    # also: a routine cart rollout right at symptom onset
    w.at(13.55, "cart", lambda o: o["spec"]["template"]["spec"]["containers"][0].update(image=IMG + "cart-r5"))
    inc.repod("cart", 13.8, "b")
    a = inc.rollout(13.55, "cart", "b")
    inc.finish_rollout(13.8, "cart", *a)
    std_noise(inc, w, 8)
    bg = 13.95
    misconf = "MISCONF Valkey is configured to save RDB snapshots, but it's currently unable to persist to disk. Commands that may modify the data set are disabled, because this instance is configured to report errors during writes if RDB snapshotting fails (stop-writes-on-bgsave-error option). Please check the Valkey logs for details about the RDB error."

    def vl(inc):
        vp = inc.pod("valkey-cart", "b")
        for k, (dm, msg) in enumerate([(0.12, "oO0OoO0OoO0Oo Valkey is starting oO0OoO0OoO0Oo"),
                                       (0.12, "Valkey version=8.1.3, bits=64, commit=00000000, modified=0, pid=1, just started"),
                                       (0.13, "Warning: no config file specified, using the default config. In order to specify a config file use valkey-server /path/to/valkey.conf"),
                                       (0.14, "Server initialized"), (0.14, "Ready to accept connections tcp")]):
            inc.log(fm + dm, "valkey-cart", "INFO", "1:M %s * %s" % (inc.T(fm + dm).strftime("%d %b %Y %H:%M:%S.%f")[:-3], msg), pod=vp)
        t = bg
        n = 0
        while t < inc.win:
            pid = 27 + n
            ts = inc.T(t).strftime("%d %b %Y %H:%M:%S.%f")[:-3]
            if n == 0:
                inc.log(t, "valkey-cart", "INFO", "1:M %s * 100 changes in 300 seconds. Saving..." % ts, pod=vp)
            inc.log(t + 0.001, "valkey-cart", "INFO", "1:M %s * Background saving started by pid %d" % (ts, pid), pod=vp)
            inc.log(t + 0.002, "valkey-cart", "WARN", "%d:C %s # Failed opening the temp RDB file temp-%d.rdb (in server root dir /data) for saving: Read-only file system" % (pid, ts, pid), pod=vp)
            inc.log(t + 0.003, "valkey-cart", "WARN", "1:M %s # Background saving error" % ts, pod=vp)
            n += 1
            t += 5 / 60.0 * (6 if n > 3 else 1)
    inc.extra_logs.append(vl)

    def eff(callee, op, m, tr):
        if callee == "valkey-cart" and m >= bg and op in ("HSET", "EXPIRE", "DEL"):
            return {"err": misconf}
        if callee == "cart" and m >= bg and ("AddItem" in op or "EmptyCart" in op):
            return {"log": "Can't access cart storage. StackExchange.Redis.RedisServerException: " + misconf[:120]}
        if callee == "checkout" and m >= bg:
            return {"log": "failed to empty user cart during checkout: rpc error: code = FailedPrecondition desc = Can't access cart storage."}
        return None
    inc.effect = eff
    inc.metric_svcs = ["frontend-proxy", "frontend", "checkout", "cart"]
    vpf = lambda mi: inc.cur_pod("valkey-cart", mi + 0.5)
    podmetrics(inc, "valkey-cart", jit(inc, 0.004), jit(inc, 7.4e6, 0.03), podfn=vpf,
               extra={"redis_rdb_last_bgsave_status": lambda mi: 1 if mi + 0.5 < bg else 0,
                      "redis_rdb_changes_since_last_save": lambda mi: int(max(0, (mi + 0.5 - (fm if mi + 0.5 > fm else 0)) * 23))})
    podmetrics(inc, "cart", jit(inc, 0.02), jit(inc, 120e6, 0.02))
    inc.alert("RequestErrorRate", "cart", bg + 1.0, summary="cart error ratio above 5%")
    inc.alert("RequestErrorRate", "frontend-proxy", bg + 1.3, summary="frontend-proxy 5xx above 5%")
    inc.alert("RequestErrorRate", "checkout", bg + 1.4, sev="critical", summary="checkout error ratio above 5%")
    inc.alert_times = [bg - 2 + k * 1.25 for k in range(13)]
    w.finish()
    inc.traffic()
    g1, a1 = svc_groups("valkey-cart", root=True)
    groups = g1 + [G("cart-service", "Service", "cart"), G("cart-pod", "Pod", None, ["^cart-[a-z0-9]+-[a-z0-9]+$"]),
                   G("checkout-service", "Service", "checkout"), G("frontend-service", "Service", "frontend"),
                   G("frontend-proxy-service", "Service", "frontend-proxy")]
    props = [P("valkey-cart-deployment", "valkey-cart-pod", "readOnlyRootFilesystem: true, /data is not a volume", "RDB background save fails (Read-only file system)"),
             P("valkey-cart-pod", "valkey-cart-service", "stop-writes-on-bgsave-error", "writes rejected with MISCONF; reads served"),
             P("valkey-cart-service", "cart-service", "HSET/EXPIRE/DEL fail", "AddItem and EmptyCart errors"),
             P("cart-service", "checkout-service", "EmptyCart fails", "PlaceOrder errors"),
             P("cart-service", "frontend-service", "AddItem fails", "frontend errors"),
             P("checkout-service", "frontend-service", "checkout fails", "frontend errors"),
             P("frontend-service", "frontend-proxy-service", "frontend 500", "frontend-proxy errors")]
    fault = [{"category": "Change", "condition": "security hardening breaks persistence", "entity": {"kind": "Deployment", "name": "valkey-cart", "group_id": "valkey-cart-deployment"},
              "fault_mechanism": "custom"}]
    alerts = [gt_alert("cart-service", "RequestErrorRate"), gt_alert("frontend-proxy-service", "RequestErrorRate"),
              gt_alert("checkout-service", "RequestErrorRate")]
    acts = [{"solution": {"id": "writable_data", "actions": ["mount an emptyDir at /data in valkey-cart (or roll back the securityContext change)"]}}]
    write_incident(inc, out, gt_doc("set25-9", groups, [a1, ["cart-service", "cart-pod"]], props, fault, alerts, acts, True))


# ================================================================ 10 novel: KEDA ScaledObject with a business-hours cron trigger
@scenario
def s10(out):
    inc = Inc("Scenario-10", datetime(2026, 11, 20, 19, 28, 0, 0, tzinfo=timezone.utc), 1010,
              {"shape": {"kind": "quote_all"}, "ts": "isoz", "ev": "mixed", "alerts": "data", "mts": "epoch", "mtags": "py",
               "mf": True, "kinds": "short", "cluster": "shop-prod-fra1"}, 11.0)
    w = World(inc)
    fm = inc.fm
    so = {"apiVersion": "keda.sh/v1alpha1", "kind": "ScaledObject",
          "metadata": {"name": "checkout-business-hours", "namespace": NS, "finalizers": ["finalizer.keda.sh"],
                       "labels": {"scaledobject.keda.sh/name": "checkout-business-hours"},
                       "annotations": {"kubectl.kubernetes.io/last-applied-configuration": ""}},
          "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "checkout"},
                   "minReplicaCount": 0, "maxReplicaCount": 4, "pollingInterval": 30, "cooldownPeriod": 300,
                   "triggers": [{"type": "cron", "metadata": {"timezone": "Europe/Berlin", "start": "0 8 * * 1-5",
                                                              "end": "0 20 * * 1-5", "desiredReplicas": "2"}},
                                {"type": "cpu", "metricType": "Utilization", "metadata": {"value": "70"}}]},
          "status": {"scaleTargetKind": "apps/v1.Deployment", "scaleTargetGVKR": {"group": "apps", "kind": "Deployment", "resource": "deployments", "version": "v1"},
                     "originalReplicaCount": 1, "hpaName": "keda-hpa-checkout-business-hours",
                     "conditions": [{"type": "Ready", "status": "True", "reason": "ScaledObjectReady", "message": "ScaledObject is defined correctly and is ready for scaling"},
                                    {"type": "Active", "status": "False", "reason": "ScalerNotActive", "message": "Scaling is not performed because triggers are not active"},
                                    {"type": "Fallback", "status": "False"}]}}
    hpa = {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
           "metadata": {"name": "keda-hpa-checkout-business-hours", "namespace": NS,
                        "ownerReferences": [{"apiVersion": "keda.sh/v1alpha1", "kind": "ScaledObject", "name": "checkout-business-hours", "controller": True}],
                        "labels": {"app.kubernetes.io/managed-by": "keda-operator", "scaledobject.keda.sh/name": "checkout-business-hours"}},
           "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "checkout"}, "minReplicas": 1, "maxReplicas": 4,
                    "metrics": [{"type": "External", "external": {"metric": {"name": "s0-cron-Europe-Berlin-08xxx1-5-020xxx1-5",
                                                                             "selector": {"matchLabels": {"scaledobject.keda.sh/name": "checkout-business-hours"}}},
                                                                  "target": {"type": "AverageValue", "averageValue": "1"}}},
                                {"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}}]},
           "status": {"currentReplicas": 0, "desiredReplicas": 0}}
    w.at(fm, "so", lambda o: so, "other")
    w.at(fm + 0.05, "hpa", lambda o: hpa, "other")
    off = fm + 0.55

    def zero(o):
        o["spec"]["replicas"] = 0
        o["status"] = {"observedGeneration": o["status"]["observedGeneration"] + 1, "replicas": 0}
    w.at(off, "checkout", zero)
    inc.event(fm + 0.02, "ScaledObject", "checkout-business-hours", "KEDAScalersStarted", "Scaler cron is built.", comp="keda-operator")
    inc.event(fm + 0.03, "ScaledObject", "checkout-business-hours", "KEDAScalersStarted", "Started scalers watch", comp="keda-operator")
    inc.event(fm + 0.04, "ScaledObject", "checkout-business-hours", "ScaledObjectReady", "ScaledObject is ready for scaling", comp="keda-operator")
    inc.event(off, "ScaledObject", "checkout-business-hours", "KEDAScaleTargetDeactivated", "Deactivated apps/v1.Deployment otel-demo/checkout from 1 to 0", comp="keda-operator")
    rs = inc.pod("checkout").rsplit("-", 1)[0]
    inc.event(off + 0.01, "Deployment", "checkout", "ScalingReplicaSet", "Scaled down replica set %s from 1 to 0" % rs, comp="deployment-controller")
    inc.event(off + 0.02, "ReplicaSet", rs, "SuccessfulDelete", "Deleted pod: %s" % inc.pod("checkout"), comp="replicaset-controller")
    inc.event(off + 0.03, "Pod", inc.pod("checkout"), "Killing", "Stopping container checkout", host=inc.node_of["checkout"])
    inc.event(fm + 0.6, "HorizontalPodAutoscaler", "keda-hpa-checkout-business-hours", "FailedGetResourceMetric",
              "failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API", "Warning",
              comp="horizontal-pod-autoscaler", count=1)
    # lures: quote rollout and frontend rollout near the fault
    w.at(fm - 0.5, "quote", lambda o: o["spec"]["template"]["spec"]["containers"][0].update(image=IMG + "quote-r1"))
    inc.repod("quote", fm - 0.3, "b")
    a = inc.rollout(fm - 0.5, "quote", "b")
    inc.finish_rollout(fm - 0.3, "quote", *a)
    w.at(fm + 0.3, "frontend", lambda o: o["spec"]["template"]["spec"]["containers"][0]["env"].append({"name": "NODE_OPTIONS", "value": "--max-old-space-size=200"}))
    inc.repod("frontend", fm + 0.5, "b")
    a = inc.rollout(fm + 0.3, "frontend", "b")
    inc.finish_rollout(fm + 0.5, "frontend", *a)
    std_noise(inc, w, 9)

    def eff(callee, op, m, tr):
        if callee == "checkout" and m >= off + 0.03:
            return {"unreach": True, "err": "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 172.20.59.%d:5050" % (sum(map(ord, "checkout")) % 250), "lat": 1.3}
        if callee == "frontend" and op == "POST /api/checkout" and m >= off:
            return {"log": "Error: 14 UNAVAILABLE: No connection established (PlaceOrder)"}
        return None
    inc.effect = eff
    inc.metric_svcs = ["frontend-proxy", "frontend", "checkout", "accounting"]
    podmetrics(inc, "checkout", jit(inc, 0.02), jit(inc, 41e6, 0.03), podfn=lambda mi: inc.pod("checkout") if mi + 0.5 < off else None)
    inc.alert("RequestErrorRate", "frontend", fm + 1.5, summary="frontend error ratio above 5%")
    inc.alert("RequestErrorRate", "frontend-proxy", fm + 1.6, summary="frontend-proxy 5xx above 5%")
    inc.alert("NoRequestsReceived", "checkout", fm + 2.6, summary="checkout received no requests in the last 2m")
    inc.alert("NoDatabaseOperations", "accounting", fm + 4.5, summary="accounting performed no database operations in the last 3 minutes")
    inc.alert_times = [fm - 3 + k for k in range(19)]
    w.finish()
    inc.traffic()
    groups = [G("scaledobject", "ScaledObject", "checkout-business-hours", root=True),
              G("keda-hpa", "HorizontalPodAutoscaler", "keda-hpa-checkout-business-hours")]
    g1, a1 = svc_groups("checkout")
    groups += g1 + [G("frontend-service", "Service", "frontend"), G("frontend-proxy-service", "Service", "frontend-proxy"),
                    G("accounting-service", "Service", "accounting")]
    props = [P("scaledobject", "checkout-deployment", "cron trigger 08:00-20:00 Europe/Berlin, minReplicaCount 0; created at 20:39 Berlin time", "KEDA deactivates checkout: replicas 1 -> 0"),
             P("checkout-deployment", "checkout-service", "no pods", "no endpoints, connection refused"),
             P("checkout-service", "frontend-service", "PlaceOrder unreachable", "frontend checkout errors"),
             P("frontend-service", "frontend-proxy-service", "frontend 500", "frontend-proxy errors"),
             P("checkout-service", "accounting-service", "no orders published", "accounting has nothing to store")]
    fault = [{"category": "Change", "condition": "autoscaler scaled workload to zero outside its time window", "entity": {"kind": "ScaledObject", "name": "checkout-business-hours", "group_id": "scaledobject"},
              "fault_mechanism": "custom"}]
    alerts = [gt_alert("frontend-service", "RequestErrorRate"), gt_alert("frontend-proxy-service", "RequestErrorRate"),
              gt_alert("checkout-service", "NoRequestsReceived"), gt_alert("accounting-service", "NoDatabaseOperations")]
    acts = [{"solution": {"id": "fix_scaledobject", "actions": ["set minReplicaCount: 1 on ScaledObject otel-demo/checkout-business-hours (or delete it) and scale checkout to 1"]}}]
    write_incident(inc, out, gt_doc("set25-10", groups, [["scaledobject", "keda-hpa"], a1], props, fault, alerts, acts, False))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python3 gen.py OUT")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for f in SCEN:
        f(out)
        print(f.__name__, file=sys.stderr)


if __name__ == "__main__":
    main()
