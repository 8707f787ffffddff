#!/usr/bin/env python3
"""sre-set12 generator (blind-sre12). Stdlib + PyYAML. Usage: python3 gen.py OUTDIR
Writes OUTDIR/Scenario-<N>/ and OUTDIR-answer_key.json beside OUTDIR, then self-checks."""
import csv, json, os, random, sys, hashlib
from datetime import datetime, timedelta, timezone
import yaml

NS = "otel-demo"
T0 = datetime(2026, 10, 14, 9, 0, 0, tzinfo=timezone.utc)   # window start
WIN = 40  # minutes
FAULT_MIN = 20

def ts(dt, form):
    if form == 0: return dt.strftime("%Y-%m-%dT%H:%M:%SZ")
    if form == 1: return dt.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    if form == 2: return dt.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]
    return dt.strftime("%Y-%m-%dT%H:%M:%S+00:00")

def hexid(rng, n): return "".join(rng.choice("0123456789abcdef") for _ in range(n))

class Snap:
    def __init__(self, n, seed):
        self.n = n; self.rng = random.Random(seed); self.form = n % 4
        self.objs = []; self.events = []; self.logs = []; self.spans = []
        self.metrics = {}; self.alerts = []; self.pods = {}
    # ---------- objects
    def obj(self, at, body, enc="plain"):
        self.objs.append((at, body, enc))
    def meta(self, kind, name, ns=NS, api="v1", created=None, managers=None, labels=None, extra_meta=None):
        m = {"name": name}
        if ns: m["namespace"] = ns
        m["uid"] = hashlib.md5((kind + name + str(self.n)).encode()).hexdigest()
        m["resourceVersion"] = str(self.rng.randint(100000, 999999))
        m["creationTimestamp"] = ts(created or (T0 - timedelta(days=6)), 0)
        if labels: m["labels"] = labels
        if managers is not None:
            m["managedFields"] = [{"manager": mg, "operation": op, "apiVersion": api, "time": ts(t, 0),
                                   "fieldsType": "FieldsV1", **({"subresource": "status"} if op == "status" else {}),
                                   "fieldsV1": {"f:spec": {}} if op != "status" else {"f:status": {}}}
                                  for (mg, op, t) in managers]
            for f in m["managedFields"]:
                if f["operation"] == "status": f["operation"] = "Update"
        if extra_meta: m.update(extra_meta)
        return {"apiVersion": api, "kind": kind, "metadata": m}
    def pod(self, app, name, node="worker-1", phase="Running", restarts=0, created=None, with_status=True, reason=None, owner=None):
        b = self.meta("Pod", name, labels={"app.kubernetes.io/name": app, "app.kubernetes.io/component": app},
                      created=created, managers=[("kubelet", "status", created or T0 - timedelta(days=2))] if self.n % 2 else None,
                      extra_meta={"ownerReferences": [owner or {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": name.rsplit("-", 1)[0], "controller": True}]})
        b["spec"] = {"nodeName": node, "containers": [{"name": app, "image": f"ghcr.io/open-telemetry/demo:2.0.2-{app}"}], "serviceAccountName": "otel-demo"}
        if phase == "Pending": del b["spec"]["nodeName"]
        if with_status:
            cs = {"name": app, "restartCount": restarts, "ready": phase == "Running" and not reason}
            if reason: cs["state"] = {"waiting": {"reason": reason}}
            b["status"] = {"phase": phase, "containerStatuses": [cs]}
        self.pods[name] = app
        return b
    def deploy(self, app, replicas=1, managers=None, extra=None, kind="Deployment"):
        b = self.meta(kind, app, api="apps/v1", managers=managers if managers is not None else [("helm", "Update", T0 - timedelta(days=6))],
                      labels={"app.kubernetes.io/name": app})
        c = {"name": app, "image": f"ghcr.io/open-telemetry/demo:2.0.2-{app}", "ports": [{"containerPort": PORT.get(app, 8080)}],
             "resources": {"limits": {"memory": MEM.get(app, "100Mi")}}}
        b["spec"] = {"replicas": replicas, "selector": {"matchLabels": {"app.kubernetes.io/name": app}},
                     "template": {"metadata": {"labels": {"app.kubernetes.io/name": app}}, "spec": {"containers": [c]}}}
        if extra: extra(b)
        if self.n % 3: b["status"] = {"replicas": replicas, "readyReplicas": replicas, "observedGeneration": 3}
        return b
    def service(self, app):
        b = self.meta("Service", app, labels={"app.kubernetes.io/name": app})
        b["spec"] = {"selector": {"app.kubernetes.io/name": app}, "ports": [{"port": PORT.get(app, 8080), "targetPort": PORT.get(app, 8080)}]}
        return b
    # ---------- events
    def event(self, at, kind, name, reason, msg, typ="Normal", count=1, src="kubelet", ns=NS, watch="ADDED"):
        if self.n % 2:
            o = {"kind": "Event", "apiVersion": "events.k8s.io/v1", "metadata": {"name": f"{name}.{hexid(self.rng, 16)}", "namespace": ns},
                 "regarding": {"kind": kind, "name": name, "namespace": ns}, "reason": reason, "note": msg, "type": typ,
                 "eventTime": ts(at, 1), "reportingController": src, "deprecatedCount": count}
        else:
            o = {"kind": "Event", "apiVersion": "v1", "metadata": {"name": f"{name}.{hexid(self.rng, 16)}", "namespace": ns},
                 "involvedObject": {"kind": kind, "name": name, "namespace": ns}, "reason": reason, "message": msg, "type": typ,
                 "firstTimestamp": ts(at, 0), "lastTimestamp": ts(at, 0), "count": count, "source": {"component": src}}
        self.events.append((at, {"object": o, "type": watch}))
    # ---------- logs and traces
    def log(self, at, svc, sev, body, trace=""):
        self.logs.append((at, trace, svc, sev, body))
    def trace(self, at, chain, err_at=None, msg="", lat=None, root=True):
        """chain: list of (service, spanname). err_at: index of failing hop."""
        tid = hexid(self.rng, 32); parent = ""; t = at
        n = len(chain)
        for i, (svc, sp) in enumerate(chain):
            sid = hexid(self.rng, 16)
            dur = int((lat.get(svc, 0) if lat else 0) * 1e6) + self.rng.randint(300, 9000) * 1000 * (n - i)
            st = "Error" if err_at is not None and i <= err_at else "Unset"
            sm = msg if err_at is not None and i == err_at else ""
            if i == 0 and (not root or self.n in (3, 8, 11)):
                parent = hexid(self.rng, 16)  # root span not exported
            else:
                self.spans.append((t, tid, sid, parent, sp, "Server" if i % 2 == 0 else "Client", svc, dur, st, sm))
            parent = sid; t += timedelta(microseconds=200)
        return tid
    # ---------- metrics
    def metric(self, kind, name, metric, fn, tags=None):
        rows = self.metrics.setdefault(f"{kind}_{name}", [])
        for i in range(0, WIN * 2):
            at = T0 + timedelta(seconds=30 * i)
            rows.append((metric, at, round(fn(i / 2.0, self.rng), 4), tags or {"namespace": NS, ("pod" if kind == "pod" else "service_name"): name}))
    # ---------- alerts
    def alert(self, name, svc, sev, since_min, summary, value):
        self.alerts.append({"labels": {"alertname": name, "service_name": svc, "namespace": NS, "severity": sev},
                            "annotations": {"summary": summary}, "state": "firing",
                            "activeAt": ts(T0 + timedelta(minutes=since_min), 1), "value": str(value)})

PORT = {"frontend": 8080, "cart": 8080, "checkout": 8080, "currency": 7001, "payment": 8080, "shipping": 8080, "quote": 8080,
        "email": 8080, "recommendation": 8080, "product-catalog": 8080, "ad": 8080, "frontend-proxy": 8080, "image-provider": 8081,
        "kafka": 9092, "accounting": 8080, "fraud-detection": 8080, "valkey-cart": 6379, "flagd": 8013}
MEM = {"email": "100Mi", "recommendation": "500Mi", "frontend": "250Mi"}
APPS = ["frontend", "frontend-proxy", "cart", "checkout", "currency", "payment", "shipping", "quote", "email",
        "recommendation", "product-catalog", "ad", "image-provider", "kafka", "accounting", "fraud-detection", "valkey-cart", "flagd"]
FLAGS = ["productCatalogFailure", "recommendationCacheFailure", "adManualGc", "adHighCpu", "adFailure", "kafkaQueueProblems",
         "cartFailure", "paymentFailure", "paymentUnreachable", "loadGeneratorFloodHomepage", "imageSlowLoad", "emailMemoryLeak"]

def flagd_cm(s, on=None, managers=None, desc_edit=None):
    flags = {}
    for f in FLAGS:
        fl = {"description": f"{f} flag", "state": "ENABLED", "variants": {"on": True, "off": False}, "defaultVariant": "off"}
        if f == "kafkaQueueProblems": fl["variants"] = {"on": 100, "off": 0}
        if f == "imageSlowLoad": fl["variants"] = {"10sec": 10000, "5sec": 5000, "off": 0}
        if f == "emailMemoryLeak": fl["variants"] = {"1000x": 1000, "100x": 100, "off": 0}
        if f == "recommendationCacheFailure" or f == "cartFailure": pass
        if on and f in on: fl["defaultVariant"] = on[f]
        if desc_edit and f == desc_edit: fl["description"] = f"{f} flag (owner: team-storefront, see runbook RB-112)"
        flags[f] = fl
    b = s.meta("ConfigMap", "flagd-config", managers=managers or [("helm", "Update", T0 - timedelta(days=6))])
    txt = json.dumps({"$schema": "https://flagd.dev/schema/v0/flags.json", "flags": flags}, indent=2 if s.n % 2 else None)
    b["data"] = {"demo.flagd.json": txt}
    return b

def baseline(s, skip=(), replicas=None):
    """Full object snapshot of the app before and after: pods, deployments, services."""
    for app in APPS:
        if app in skip: continue
        r = (replicas or {}).get(app, 1)
        for at in (T0 + timedelta(minutes=1), T0 + timedelta(minutes=WIN - 1)):
            s.obj(at, s.deploy(app, r))
            s.obj(at, s.service(app))
    for app in APPS:
        if app in skip: continue
        for k in range((replicas or {}).get(app, 1)):
            nm = f"{app}-{hexid(random.Random(app + str(s.n)), 9)}-{hexid(random.Random(app + str(k) + str(s.n)), 5)}"
            for at in (T0 + timedelta(minutes=1), T0 + timedelta(minutes=WIN - 1)):
                s.obj(at, s.pod(app, nm, node=f"worker-{1 + (len(app) + k) % 3}"))

def podname(s, app, k=0):
    return f"{app}-{hexid(random.Random(app + str(s.n)), 9)}-{hexid(random.Random(app + str(k) + str(s.n)), 5)}"

def traffic(s, fault_chain, err_from=FAULT_MIN, err_to=WIN, rate=0.6, msg="", lat=None, root=True, err=True, ok_chains=None):
    ok_chains = ok_chains or [[("frontend-proxy", "ingress"), ("frontend", "GET /api/products"), ("product-catalog", "oteldemo.ProductCatalogService/ListProducts")],
                              [("frontend", "GET /api/recommendations"), ("recommendation", "/oteldemo.RecommendationService/ListRecommendations")],
                              [("frontend", "GET /api/cart"), ("cart", "oteldemo.CartService/GetCart"), ("valkey-cart", "HGET")]]
    for i in range(0, WIN * 60, 20):
        at = T0 + timedelta(seconds=i)
        for ch in ok_chains: s.trace(at, ch, root=root)
        infault = err_from * 60 <= i < err_to * 60
        if infault and s.rng.random() < rate:
            s.trace(at, fault_chain, err_at=(len(fault_chain) - 1) if err else None, msg=msg, lat=lat, root=root)
        else:
            s.trace(at, fault_chain, root=root)

def steady_metrics(s, apps):
    for a in apps:
        s.metric("service", a, "http_server_request_duration_seconds_p95" if s.n % 2 else "rpc_server_duration_ms_p95",
                 lambda m, r: 0.02 + r.random() * 0.01)
        s.metric("pod", podname(s, a), "container_memory_working_set_bytes", lambda m, r: 6e7 + r.random() * 2e6)

def decoy_rollout(s, app, minute):
    s.obj(T0 + timedelta(minutes=minute + 1), s.deploy(app, 1, managers=[("helm", "Update", T0 - timedelta(days=6)), ("kubectl-rollout", "Update", T0 + timedelta(minutes=minute))],
                                                      extra=lambda b: b["spec"]["template"]["metadata"].setdefault("annotations", {}).update({"kubectl.kubernetes.io/restartedAt": ts(T0 + timedelta(minutes=minute), 3)})))
    old, new = podname(s, app), podname(s, app, 7)
    s.obj(T0 + timedelta(minutes=minute + 1), s.pod(app, new, created=T0 + timedelta(minutes=minute)))
    s.event(T0 + timedelta(minutes=minute), "Deployment", app, "ScalingReplicaSet", f"Scaled up replica set {app}-{hexid(random.Random(app), 9)} to 1", src="deployment-controller")
    s.event(T0 + timedelta(minutes=minute, seconds=4), "Pod", new, "Started", f"Started container {app}")
    s.event(T0 + timedelta(minutes=minute, seconds=9), "Pod", old, "Killing", f"Stopping container {app}")
    s.objs = [o for o in s.objs if not (o[1]["kind"] == "Pod" and o[1]["metadata"]["name"] == old and o[0] > T0 + timedelta(minutes=minute))]
    s.obj(T0 + timedelta(minutes=minute - 1), s.pod(app, old))

def decoy_hpa(s, app, minute):
    h = s.meta("HorizontalPodAutoscaler", f"{app}-hpa", api="autoscaling/v2", managers=[("helm", "Update", T0 - timedelta(days=9))])
    h["spec"] = {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": app}, "minReplicas": 1, "maxReplicas": 3,
                 "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}}]}
    h2 = json.loads(json.dumps(h)); h2["status"] = {"currentReplicas": 2, "desiredReplicas": 2}
    s.obj(T0 + timedelta(minutes=2), h); s.obj(T0 + timedelta(minutes=minute + 1), h2)
    s.event(T0 + timedelta(minutes=minute), "HorizontalPodAutoscaler", f"{app}-hpa", "SuccessfulRescale",
            "New size: 2; reason: cpu resource utilization (percentage of request) above target", src="horizontal-pod-autoscaler")
    np = podname(s, app, 3); s.obj(T0 + timedelta(minutes=minute + 1), s.pod(app, np, created=T0 + timedelta(minutes=minute)))
    s.event(T0 + timedelta(minutes=minute, seconds=3), "Pod", np, "Scheduled", f"Successfully assigned {NS}/{np} to worker-3", src="default-scheduler")

def chaos_obj(s, kind, name, spec, at, paused=False):
    b = s.meta(kind, name, ns="chaos-mesh", api="chaos-mesh.org/v1alpha1", created=at, managers=[("kubectl-client-side-apply", "Update", at)])
    b["metadata"]["annotations"] = {"experiment.chaos-mesh.org/pause": "false"}
    b["spec"] = spec
    s.obj(at + timedelta(seconds=15), b)
    b2 = json.loads(json.dumps(b)); b2["status"] = {"experiment": {"desiredPhase": "Run", "containerRecords": [{"phase": "Injected", "injectedCount": 1}]}}
    s.obj(at + timedelta(minutes=10), b2)
    return b

# ---------------------------------------------------------------- ground truth helpers
def G(gid, kind, name, ns=NS, root=False, filt=None):
    g = {"id": gid, "kind": kind, "namespace": ns}
    if name is not None: g["name"] = name
    if filt: g["filter"] = [filt]
    if root: g["root_cause"] = True
    return g

def svc_groups(app):
    return [G(f"{app}-service-1", "Service", app), G(f"{app}-pod-1", "Pod", None, filt=f"^{app}-[0-9a-f]{{9}}-[0-9a-f]{{5}}$"),
            G(f"{app}-deployment-1", "Deployment", app)], [f"{app}-service-1", f"{app}-pod-1", f"{app}-deployment-1"]

def gt(root, chain, alerts, category, mech, extra_groups=()):
    groups = [root]; aliases = []
    for app in chain:
        gs, al = svc_groups(app)
        for g in gs:
            if g["id"] not in [x["id"] for x in groups]: groups.append(g)
        aliases.append(al)
    for g in extra_groups:
        groups.append(g)
    props = []; prev = root["id"]
    for app, cond, eff in alerts["chain"]:
        props.append({"source": prev, "target": f"{app}-service-1", "condition": cond, "effect": eff}); prev = f"{app}-service-1"
    return {"apiVersion": "itbench.io/v1", "kind": "GroundTruth", "metadata": {"name": "set12"},
            "spec": {"groups": groups, "aliases": aliases, "propagations": props,
                     "fault": [{"category": category, "condition": "To Be Specified",
                                "entity": {"kind": root["kind"], "name": root.get("name", ""), "group_id": root["id"]}, "fault_mechanism": mech}],
                     "alerts": [{"group_id": f"{a}-service-1", "id": n} for a, n in alerts["alerts"]]}}

CASES = []
def case(fn): CASES.append(fn); return fn
M = lambda m: T0 + timedelta(minutes=m)

# ---------------------------------------------------------------- the cases
@case
def c1(s):  # cartFailure seen only as checkout PlaceOrder errors; ConfigMap edited with kubectl-edit
    baseline(s)
    s.obj(M(2), flagd_cm(s))
    s.obj(M(FAULT_MIN + 1), flagd_cm(s, on={"cartFailure": "on"}, managers=[("helm", "Update", M(-8640)), ("kubectl-edit", "Update", M(FAULT_MIN))]))
    decoy_hpa(s, "frontend", 12)
    traffic(s, [("frontend", "POST /api/checkout"), ("checkout", "oteldemo.CheckoutService/PlaceOrder"), ("cart", "oteldemo.CartService/EmptyCart")],
            rate=0.9, msg="Can't access cart storage. System.ApplicationException: Wasn't able to connect to redis", err_from=FAULT_MIN + 1)
    for m in range(FAULT_MIN + 1, WIN, 2):
        s.log(M(m), "checkout", "ERROR", "failed to empty user cart during checkout: rpc error: code = FailedPrecondition desc = Can't access cart storage.")
    s.log(M(FAULT_MIN, ), "flagd", "INFO", json.dumps({"level": "info", "msg": "configuration change (write) for flagSource /etc/flagd/demo.flagd.json"}))
    s.alert("HighRequestErrorRate", "checkout", "critical", FAULT_MIN + 3, "checkout PlaceOrder error rate above 5%", 0.41)
    s.alert("HighRequestErrorRate", "frontend", "warning", FAULT_MIN + 4, "frontend error rate above 5%", 0.12)
    steady_metrics(s, ["cart", "checkout", "frontend"])
    return gt(G("flagd-config", "ConfigMap", "flagd-config", root=True), ["cart", "checkout", "frontend"],
              {"chain": [("cart", "cartFailure on: EmptyCart uses an unreachable redis", "error"), ("checkout", "PlaceOrder fails after charging", "error"),
                         ("frontend", "checkout returns 500", "error")], "alerts": [("checkout", "HighRequestErrorRate"), ("frontend", "HighRequestErrorRate")]},
              "Misconfiguration", "feature flag cartFailure enabled through a kubectl edit of flagd-config"), \
        ["kubectl-edit", "EmptyCart"], [], "cartFailure via kubectl-edit; visible as checkout PlaceOrder errors; HPA decoy on frontend"

@case
def c2(s):  # recommendationCacheFailure flipped in flagd-ui: no Kubernetes change; memory growth + restart
    baseline(s)
    s.obj(M(2), flagd_cm(s)); s.obj(M(WIN - 2), flagd_cm(s))
    decoy_rollout(s, "quote", 9)
    s.log(M(FAULT_MIN), "flagd-ui", "INFO", "POST /feature/api/write-to-file 200 recommendationCacheFailure defaultVariant=on")
    s.metric("pod", podname(s, "recommendation"), "container_memory_working_set_bytes",
             lambda m, r: 1.8e8 + (max(0, m - FAULT_MIN) * 1.6e7) + r.random() * 1e6)
    s.metric("service", "recommendation", "rpc_server_duration_ms_p95", lambda m, r: 30 + (max(0, m - FAULT_MIN) * 45) + r.random() * 5)
    for m in range(FAULT_MIN + 1, WIN, 3):
        s.log(M(m), "recommendation", "INFO", f"cache miss: product_ids list grew to {2 ** (m - FAULT_MIN + 3)} entries")
    traffic(s, [("frontend", "GET /api/recommendations"), ("recommendation", "/oteldemo.RecommendationService/ListRecommendations")],
            err=False, lat={"recommendation": 900, "frontend": 900}, ok_chains=[[("frontend", "GET /api/cart"), ("cart", "oteldemo.CartService/GetCart")]])
    s.alert("HighRequestLatency", "recommendation", "warning", FAULT_MIN + 6, "p95 latency above 500ms", 1.4)
    s.alert("HighMemoryUsage", "recommendation", "warning", FAULT_MIN + 9, "memory above 80% of limit", 0.86)
    return gt(G("recommendation-service-1", "Service", "recommendation", root=True), ["frontend"],
              {"chain": [("frontend", "recommendations slow", "latency")], "alerts": [("recommendation", "HighRequestLatency"), ("recommendation", "HighMemoryUsage")]},
              "Misconfiguration", "recommendationCacheFailure set in flagd-ui; the ConfigMap never changes") | {"_alias_root": ["recommendation-pod-1", "recommendation-deployment-1"]}, \
        ["write-to-file", "cache miss"], [], "recommendationCacheFailure set in flagd-ui (no K8s change); memory growth + latency; quote rollout decoy"

@case
def c3(s):  # imageSlowLoad 10sec, helm upgrade of flagd-config; only image requests through frontend-proxy slow
    baseline(s)
    s.obj(M(2), flagd_cm(s))
    s.obj(M(FAULT_MIN + 1), flagd_cm(s, on={"imageSlowLoad": "10sec"}, managers=[("helm", "Update", M(FAULT_MIN))]))
    decoy_rollout(s, "ad", 16)
    traffic(s, [("frontend-proxy", "ingress GET /images/products/*"), ("image-provider", "GET /images")], err=False,
            lat={"frontend-proxy": 10000, "image-provider": 10000}, err_from=FAULT_MIN + 1, rate=0.95)
    for m in range(FAULT_MIN + 1, WIN, 2):
        s.log(M(m), "frontend-proxy", "INFO", f'[{ts(M(m), 1)}] "GET /images/products/SolarFilter.jpg HTTP/1.1" 200 - via_upstream - "-" 0 88213 10004 3 "image-provider" fault.delay')
    s.alert("HighRequestLatency", "frontend-proxy", "warning", FAULT_MIN + 3, "p95 above 2s", 10.1)
    steady_metrics(s, ["image-provider"])
    return gt(G("flagd-config", "ConfigMap", "flagd-config", root=True), ["image-provider", "frontend-proxy"],
              {"chain": [("frontend-proxy", "Envoy fault filter delays /images by 10s", "latency")], "alerts": [("frontend-proxy", "HighRequestLatency")]},
              "Misconfiguration", "imageSlowLoad 10sec via helm upgrade"), ["fault.delay", "10sec"], [], \
        "imageSlowLoad 10sec by helm; only /images slow at frontend-proxy; ad rollout decoy"

@case
def c4(s):  # kafkaQueueProblems, seen at the consumer (accounting lag), ConfigMap SSA by flagd-ui manager
    baseline(s)
    s.obj(M(2), flagd_cm(s))
    s.obj(M(FAULT_MIN + 1), flagd_cm(s, on={"kafkaQueueProblems": "on"}, managers=[("helm", "Update", M(-8640)), ("flagd-ui", "Apply", M(FAULT_MIN))]))
    decoy_hpa(s, "product-catalog", 26)
    s.metric("service", "accounting", "kafka_consumer_records_lag_max", lambda m, r: 2 + (max(0, m - FAULT_MIN) ** 2 * 40) + r.random())
    s.metric("service", "fraud-detection", "kafka_consumer_records_lag_max", lambda m, r: 1 + (max(0, m - FAULT_MIN) ** 2 * 35) + r.random())
    for m in range(FAULT_MIN + 2, WIN, 2):
        s.log(M(m), "accounting", "WARN", f"Consumer group 'accounting' lag on partition orders-0 is {int((m - FAULT_MIN) ** 2 * 40)}; processing delayed")
        s.log(M(m), "fraud-detection", "WARN", "Slow consumer: poll() returned 500 records after 5012 ms")
    traffic(s, [("checkout", "orders publish"), ("kafka", "orders"), ("accounting", "orders process")], err=False,
            lat={"accounting": 6000}, err_from=FAULT_MIN + 1)
    s.alert("KafkaConsumerLagHigh", "accounting", "warning", FAULT_MIN + 5, "consumer lag above 1000", 14400)
    s.alert("KafkaConsumerLagHigh", "fraud-detection", "warning", FAULT_MIN + 6, "consumer lag above 1000", 12600)
    return gt(G("flagd-config", "ConfigMap", "flagd-config", root=True), ["kafka", "accounting", "fraud-detection"],
              {"chain": [("kafka", "checkout floods the orders topic", "saturation"), ("accounting", "consumer lag", "latency")],
               "alerts": [("accounting", "KafkaConsumerLagHigh"), ("fraud-detection", "KafkaConsumerLagHigh")]},
              "Misconfiguration", "kafkaQueueProblems on (server-side apply by flagd-ui)"), ["flagd-ui", "lag"], [], \
        "kafkaQueueProblems applied by flagd-ui manager; seen only as consumer lag; HPA decoy"

@case
def c5(s):  # emailMemoryLeak with no K8s change; a description-only flagd-config edit in window is the decoy
    baseline(s, skip=("email",))
    s.obj(M(2), flagd_cm(s))
    s.obj(M(11), flagd_cm(s, desc_edit="paymentUnreachable", managers=[("helm", "Update", M(-8640)), ("kubectl-edit", "Update", M(10))]))
    for at in (M(1), M(WIN - 1)): s.obj(at, s.deploy("email")); s.obj(at, s.service("email"))
    ep = podname(s, "email")
    s.obj(M(1), s.pod("email", ep)); s.obj(M(WIN - 1), s.pod("email", ep, restarts=3))
    s.log(M(FAULT_MIN - 1), "flagd", "INFO", json.dumps({"level": "info", "msg": "flag emailMemoryLeak updated via sync provider grpc://flagd-sync:8015"}))
    s.metric("pod", ep, "container_memory_working_set_bytes", lambda m, r: (3e7 + ((m - FAULT_MIN) % 6) * 1.4e7) if m > FAULT_MIN else 3e7 + r.random() * 1e6)
    for k, m in enumerate((FAULT_MIN + 6, FAULT_MIN + 12, FAULT_MIN + 18)):
        s.event(M(m), "Pod", ep, "Killing" if k % 2 else "OOMKilling", "Container email exceeded its memory limit (100Mi), OOMKilled", typ="Warning")
        s.event(M(m) + timedelta(seconds=20), "Pod", ep, "BackOff", "Back-off restarting failed container email", typ="Warning", count=k + 1)
    traffic(s, [("checkout", "oteldemo.CheckoutService/PlaceOrder"), ("email", "POST /send_order_confirmation")], rate=0.3,
            msg="Connection refused - connect(2) for \"email\" port 8080", err_from=FAULT_MIN + 6)
    s.alert("PodRestarting", "email", "warning", FAULT_MIN + 7, "email restarted 3 times", 3)
    s.alert("HighRequestErrorRate", "checkout", "warning", FAULT_MIN + 8, "error rate above 5%", 0.09)
    return gt(G("email-service-1", "Service", "email", root=True), ["checkout"],
              {"chain": [("checkout", "confirmation email refused", "error")], "alerts": [("email", "PodRestarting"), ("checkout", "HighRequestErrorRate")]},
              "Resource Exhaustion", "emailMemoryLeak 100x through a flagd sync provider, no Kubernetes change") | {"_alias_root": ["email-pod-1", "email-deployment-1"]}, \
        ["OOMKilled", "runbook RB-112"], [], "emailMemoryLeak via flagd sync (no K8s change); OOM restarts; description-only flagd-config edit decoy"

@case
def c6(s):  # NetworkChaos bandwidth on product-catalog egress
    steady_metrics(s, ["product-catalog"])
    baseline(s); s.obj(M(2), flagd_cm(s)); decoy_rollout(s, "shipping", 8)
    chaos_obj(s, "NetworkChaos", "catalog-bandwidth", {"action": "bandwidth", "mode": "all", "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/name": "product-catalog"}},
                                                      "bandwidth": {"rate": "8kbps", "limit": 2048, "buffer": 1600}, "direction": "to", "duration": "20m"}, M(FAULT_MIN))
    s.event(M(FAULT_MIN), "NetworkChaos", "catalog-bandwidth", "Applied", f"Successfully apply chaos for {NS}/{podname(s, 'product-catalog')}", src="chaos-controller-manager", ns="chaos-mesh")
    traffic(s, [("frontend-proxy", "ingress"), ("frontend", "GET /api/products"), ("product-catalog", "oteldemo.ProductCatalogService/ListProducts")], err=False,
            lat={"frontend-proxy": 4200, "frontend": 4200, "product-catalog": 3}, rate=0.9, ok_chains=[[("frontend", "GET /api/cart"), ("cart", "oteldemo.CartService/GetCart")]])
    s.metric("pod", podname(s, "product-catalog"), "container_network_transmit_bytes_total", lambda m, r: 9e5 if m < FAULT_MIN else 1000 + r.random() * 24)
    s.alert("HighRequestLatency", "frontend", "warning", FAULT_MIN + 2, "p95 above 2s", 4.3)
    return gt(G("catalog-bandwidth", "NetworkChaos", "catalog-bandwidth", ns="chaos-mesh", root=True), ["product-catalog", "frontend", "frontend-proxy"],
              {"chain": [("product-catalog", "egress throttled to 8kbps", "latency"), ("frontend", "ListProducts slow", "latency"), ("frontend-proxy", "page slow", "latency")],
               "alerts": [("frontend", "HighRequestLatency")]}, "Network", "NetworkChaos bandwidth 8kbps"), ["bandwidth", "8kbps"], [], \
        "NetworkChaos bandwidth 8kbps on product-catalog egress; latency only; shipping rollout decoy"

@case
def c7(s):  # NetworkChaos partition checkout <-> payment
    steady_metrics(s, ["checkout"])
    baseline(s); s.obj(M(2), flagd_cm(s)); decoy_hpa(s, "frontend", 6)
    chaos_obj(s, "NetworkChaos", "checkout-payment-partition", {"action": "partition", "mode": "all",
              "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/name": "checkout"}}, "direction": "both",
              "target": {"mode": "all", "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/name": "payment"}}}, "duration": "15m"}, M(FAULT_MIN))
    traffic(s, [("frontend", "POST /api/checkout"), ("checkout", "oteldemo.CheckoutService/PlaceOrder"), ("checkout", "oteldemo.PaymentService/Charge")], rate=0.95,
            msg="rpc error: code = Unavailable desc = connection error: dial tcp 10.42.1.37:8080: i/o timeout", lat={"checkout": 5000})
    for m in range(FAULT_MIN + 1, WIN, 2):
        s.log(M(m), "checkout", "ERROR", "failed to charge card: could not charge the card: rpc error: code = Unavailable desc = dial tcp 10.42.1.37:8080: i/o timeout")
    s.metric("service", "payment", "rpc_server_requests_total", lambda m, r: 3 + r.random() if m < FAULT_MIN else 0)
    s.alert("HighRequestErrorRate", "checkout", "critical", FAULT_MIN + 2, "error rate above 5%", 0.95)
    s.alert("NoRequestsReceived", "payment", "warning", FAULT_MIN + 3, "payment receives no requests", 0)
    return gt(G("checkout-payment-partition", "NetworkChaos", "checkout-payment-partition", ns="chaos-mesh", root=True), ["payment", "checkout", "frontend"],
              {"chain": [("payment", "unreachable from checkout", "unavailable"), ("checkout", "Charge times out", "error"), ("frontend", "checkout fails", "error")],
               "alerts": [("checkout", "HighRequestErrorRate"), ("payment", "NoRequestsReceived")]}, "Network", "NetworkChaos partition between checkout and payment"), \
        ["partition", "i/o timeout"], [], "NetworkChaos partition checkout<->payment; payment healthy but silent; HPA decoy"

@case
def c8(s):  # StressChaos memory on one frontend pod (mode one of 2)
    steady_metrics(s, ["frontend-proxy"])
    baseline(s, replicas={"frontend": 2}); s.obj(M(2), flagd_cm(s)); decoy_rollout(s, "currency", 14)
    victim = podname(s, "frontend", 1)
    chaos_obj(s, "StressChaos", "frontend-mem-stress", {"mode": "one", "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/name": "frontend"}},
              "stressors": {"memory": {"workers": 2, "size": "256MB"}}, "duration": "10m"}, M(FAULT_MIN))
    s.obj(M(WIN - 1), s.pod("frontend", victim, restarts=2, node="worker-2"))
    for k, m in enumerate((FAULT_MIN + 2, FAULT_MIN + 6)):
        s.event(M(m), "Pod", victim, "OOMKilling", "Memory cgroup out of memory: Killed process 23 (node)", typ="Warning", src="kernel-monitor")
        s.event(M(m, ) + timedelta(seconds=5), "Pod", victim, "Pulled", "Container image \"ghcr.io/open-telemetry/demo:2.0.2-frontend\" already present on machine")
    s.metric("pod", victim, "container_memory_working_set_bytes", lambda m, r: 1.2e8 if m < FAULT_MIN else 2.6e8 - r.random() * 1e7)
    traffic(s, [("frontend-proxy", "ingress"), ("frontend", "GET /")], rate=0.45, msg="upstream connect error or disconnect/reset before headers. reset reason: connection termination",
            err_from=FAULT_MIN + 2, err_to=FAULT_MIN + 10)
    s.alert("HighRequestErrorRate", "frontend-proxy", "warning", FAULT_MIN + 3, "5xx above 5%", 0.22)
    s.alert("PodRestarting", "frontend", "warning", FAULT_MIN + 7, "frontend pod restarted", 2)
    return gt(G("frontend-mem-stress", "StressChaos", "frontend-mem-stress", ns="chaos-mesh", root=True), ["frontend", "frontend-proxy"],
              {"chain": [("frontend", "one pod OOMKilled", "crash"), ("frontend-proxy", "resets from that pod", "error")],
               "alerts": [("frontend-proxy", "HighRequestErrorRate"), ("frontend", "PodRestarting")]}, "Resource Exhaustion", "StressChaos memory on one frontend pod"), \
        ["256MB", victim], [], "StressChaos memory mode one on 1 of 2 frontend pods; half the traffic errors; currency rollout decoy"

@case
def c9(s):  # Schedule of PodChaos pod-failure on StatefulSet member kafka-0
    baseline(s, skip=("kafka",)); s.obj(M(2), flagd_cm(s)); decoy_hpa(s, "recommendation", 24)
    for at in (M(1), M(WIN - 1)):
        st = s.deploy("kafka", 1, kind="StatefulSet"); st["spec"]["serviceName"] = "kafka"; s.obj(at, st); s.obj(at, s.service("kafka"))
    own = {"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "kafka", "controller": True}
    s.obj(M(1), s.pod("kafka", "kafka-0", owner=own)); p = s.pod("kafka", "kafka-0", owner=own, restarts=0)
    p["spec"]["containers"][0]["image"] = "gcr.io/google-containers/pause:latest"; p["status"]["containerStatuses"][0]["ready"] = False
    s.obj(M(FAULT_MIN + 3), p); s.pods["kafka-0"] = "kafka"
    sch = s.meta("Schedule", "kafka-pod-failure-hourly", ns="chaos-mesh", api="chaos-mesh.org/v1alpha1", created=M(-300), managers=[("kubectl-create", "Update", M(-300))])
    sch["spec"] = {"schedule": "20 * * * *", "type": "PodChaos", "historyLimit": 2, "concurrencyPolicy": "Forbid",
                   "podChaos": {"action": "pod-failure", "mode": "one", "duration": "8m", "selector": {"pods": {NS: ["kafka-0"]}}}}
    s.obj(M(3), sch)
    chaos_obj(s, "PodChaos", "kafka-pod-failure-hourly-8k2xq", {"action": "pod-failure", "mode": "one", "duration": "8m", "selector": {"pods": {NS: ["kafka-0"]}}}, M(FAULT_MIN))
    s.event(M(FAULT_MIN), "Schedule", "kafka-pod-failure-hourly", "Spawned", "Create new object: kafka-pod-failure-hourly-8k2xq", src="chaos-controller-manager", ns="chaos-mesh")
    s.event(M(FAULT_MIN, ) + timedelta(seconds=8), "Pod", "kafka-0", "Pulled", "Container image \"gcr.io/google-containers/pause:latest\" already present on machine")
    for m in range(FAULT_MIN + 1, FAULT_MIN + 8):
        s.log(M(m), "checkout", "ERROR", "Failed to send message to Kafka: kafka: client has run out of available brokers to talk to: dial tcp: lookup kafka-0.kafka: connection refused")
    traffic(s, [("checkout", "oteldemo.CheckoutService/PlaceOrder"), ("checkout", "orders publish")], err_to=FAULT_MIN + 8, rate=0.9,
            msg="kafka: client has run out of available brokers to talk to")
    s.alert("HighRequestErrorRate", "checkout", "critical", FAULT_MIN + 1, "error rate above 5%", 0.9)
    steady_metrics(s, ["checkout", "accounting"])
    s.alert("NoRequestsReceived", "accounting", "warning", FAULT_MIN + 4, "no orders consumed", 0)
    r = gt(G("kafka-pod-failure-hourly", "Schedule", "kafka-pod-failure-hourly", ns="chaos-mesh", root=True), ["kafka", "checkout", "accounting"],
           {"chain": [("kafka", "broker container replaced by pause", "unavailable"), ("checkout", "publish fails", "error")],
            "alerts": [("checkout", "HighRequestErrorRate"), ("accounting", "NoRequestsReceived")]}, "Resource Unavailable", "Schedule spawns PodChaos pod-failure on kafka-0")
    r["spec"]["groups"].append(G("kafka-pod-failure-hourly-8k2xq", "PodChaos", "kafka-pod-failure-hourly-8k2xq", ns="chaos-mesh"))
    r["spec"]["aliases"].append(["kafka-pod-failure-hourly", "kafka-pod-failure-hourly-8k2xq"])
    for g in r["spec"]["groups"]:
        if g["id"] == "kafka-deployment-1": g["kind"] = "StatefulSet"
        if g["id"] == "kafka-pod-1": g["filter"] = ["^kafka-0$"]
    return r, ["pod-failure", "kafka-0"], [], "Schedule spawning PodChaos pod-failure on StatefulSet member kafka-0; recovers after 8m; HPA decoy"

@case
def c10(s):  # ConfigMap key renamed (QUOTE_ADDR -> QUOTE_SERVICE_ADDR) read via configMapKeyRef; Recreate rollout of shipping
    steady_metrics(s, ["checkout", "quote"])
    baseline(s, skip=("shipping",)); s.obj(M(2), flagd_cm(s)); decoy_hpa(s, "cart", 5)
    def envref(b):
        b["spec"]["strategy"] = {"type": "Recreate"}
        b["spec"]["template"]["spec"]["containers"][0]["env"] = [{"name": "QUOTE_ADDR", "valueFrom": {"configMapKeyRef": {"name": "shipping-config", "key": "QUOTE_ADDR"}}}]
    cm = s.meta("ConfigMap", "shipping-config", managers=[("helm", "Update", M(-8640))]); cm["data"] = {"QUOTE_ADDR": "http://quote:8080"}
    s.obj(M(1), cm)
    cm2 = s.meta("ConfigMap", "shipping-config", managers=[("helm", "Update", M(-8640)), ("kubectl-apply", "Update", M(FAULT_MIN - 3))]); cm2["data"] = {"QUOTE_SERVICE_ADDR": "http://quote:8080"}
    s.obj(M(FAULT_MIN - 2), cm2)
    s.obj(M(1), s.deploy("shipping", extra=envref)); s.obj(M(1), s.service("shipping")); s.obj(M(WIN - 1), s.service("shipping"))
    d2 = s.deploy("shipping", managers=[("helm", "Update", M(-8640)), ("kubectl-rollout", "Update", M(FAULT_MIN))], extra=envref)
    d2["spec"]["template"]["metadata"]["annotations"] = {"kubectl.kubernetes.io/restartedAt": ts(M(FAULT_MIN), 3)}
    d2["status"] = {"replicas": 1, "unavailableReplicas": 1}
    s.obj(M(FAULT_MIN + 1), d2)
    old, new = podname(s, "shipping"), podname(s, "shipping", 4)
    s.obj(M(1), s.pod("shipping", old))
    s.obj(M(FAULT_MIN + 2), s.pod("shipping", new, phase="Pending", reason="CreateContainerConfigError", created=M(FAULT_MIN)))
    s.event(M(FAULT_MIN), "Pod", old, "Killing", "Stopping container shipping")
    s.event(M(FAULT_MIN) + timedelta(seconds=6), "Pod", new, "Failed", "Error: couldn't find key QUOTE_ADDR in ConfigMap otel-demo/shipping-config", typ="Warning", count=14)
    traffic(s, [("frontend", "POST /api/checkout"), ("checkout", "oteldemo.CheckoutService/PlaceOrder"), ("checkout", "oteldemo.ShippingService/ShipOrder")], rate=0.95,
            msg="rpc error: code = Unavailable desc = name resolver error: produced zero addresses", err_from=FAULT_MIN + 1)
    s.alert("HighRequestErrorRate", "checkout", "critical", FAULT_MIN + 2, "error rate above 5%", 0.93)
    s.alert("KubeDeploymentReplicasMismatch", "shipping", "warning", FAULT_MIN + 10, "shipping has 0/1 ready", 0)
    return gt(G("shipping-config", "ConfigMap", "shipping-config", root=True), ["shipping", "checkout", "frontend"],
              {"chain": [("shipping", "pod cannot start: missing key", "unavailable"), ("checkout", "ShipOrder has no endpoints", "error"), ("frontend", "checkout fails", "error")],
               "alerts": [("checkout", "HighRequestErrorRate"), ("shipping", "KubeDeploymentReplicasMismatch")]}, "Misconfiguration",
              "ConfigMap key renamed; Deployment reads the old key through configMapKeyRef; Recreate restart"), ["couldn't find key QUOTE_ADDR", "QUOTE_SERVICE_ADDR"], [], \
        "shipping-config key renamed, exposed by a Recreate restart 3 min later (CreateContainerConfigError); cart HPA decoy"

@case
def c11(s):  # NetworkPolicy allowing ingress to currency only on 8080 (currency listens on 7001)
    steady_metrics(s, ["frontend"])
    baseline(s); s.obj(M(2), flagd_cm(s)); decoy_rollout(s, "email", 22)
    np = s.meta("NetworkPolicy", "currency-ingress", api="networking.k8s.io/v1", created=M(FAULT_MIN), managers=[("kubectl-client-side-apply", "Update", M(FAULT_MIN))])
    np["spec"] = {"podSelector": {"matchLabels": {"app.kubernetes.io/name": "currency"}}, "policyTypes": ["Ingress"],
                  "ingress": [{"from": [{"podSelector": {"matchLabels": {"app.kubernetes.io/name": "frontend"}}}, {"podSelector": {"matchLabels": {"app.kubernetes.io/name": "checkout"}}}],
                               "ports": [{"protocol": "TCP", "port": 8080}]}]}
    s.obj(M(FAULT_MIN + 1), np)
    traffic(s, [("frontend", "GET /api/currency"), ("frontend", "oteldemo.CurrencyService/Convert")], rate=0.95,
            msg="14 UNAVAILABLE: No connection established. Last error: connect ETIMEDOUT 10.43.12.9:7001", err=True)
    for m in range(FAULT_MIN + 1, WIN, 2):
        s.log(M(m), "frontend", "ERROR", json.dumps({"level": 50, "msg": "Convert failed", "err": "14 UNAVAILABLE: No connection established. Last error: connect ETIMEDOUT 10.43.12.9:7001"}))
    s.metric("service", "currency", "rpc_server_requests_total", lambda m, r: 12 + r.random() if m < FAULT_MIN else 0)
    s.alert("HighRequestErrorRate", "frontend", "critical", FAULT_MIN + 2, "error rate above 5%", 0.6)
    s.alert("NoRequestsReceived", "currency", "warning", FAULT_MIN + 3, "currency receives no requests", 0)
    return gt(G("currency-ingress", "NetworkPolicy", "currency-ingress", root=True), ["currency", "frontend", "checkout"],
              {"chain": [("currency", "ingress allowed only on 8080; serves 7001", "unavailable"), ("frontend", "Convert times out", "error")],
               "alerts": [("frontend", "HighRequestErrorRate"), ("currency", "NoRequestsReceived")]}, "Network", "NetworkPolicy ingress rule on the wrong port"), \
        ["currency-ingress", "ETIMEDOUT 10.43.12.9:7001"], [], "new NetworkPolicy on currency allows 8080, currency serves 7001; email rollout decoy"

@case
def c12(s):  # liveness probe too strict on ad (timeoutSeconds 1, failureThreshold 1) during GC pauses
    steady_metrics(s, ["ad", "frontend"])
    baseline(s, skip=("ad",)); s.obj(M(2), flagd_cm(s)); decoy_hpa(s, "frontend", 30)
    def probe(strict):
        def f(b):
            b["spec"]["template"]["spec"]["containers"][0]["livenessProbe"] = {"grpc": {"port": 8080}, "periodSeconds": 3 if strict else 10,
                                                                               "timeoutSeconds": 1, "failureThreshold": 1 if strict else 5}
        return f
    s.obj(M(1), s.deploy("ad", extra=probe(False))); s.obj(M(1), s.service("ad")); s.obj(M(WIN - 1), s.service("ad"))
    s.obj(M(FAULT_MIN + 1), s.deploy("ad", managers=[("helm", "Update", M(-8640)), ("kubectl-patch", "Update", M(FAULT_MIN))], extra=probe(True)))
    p = podname(s, "ad", 2); s.obj(M(FAULT_MIN + 1), s.pod("ad", p, created=M(FAULT_MIN))); s.obj(M(WIN - 1), s.pod("ad", p, restarts=5, reason="CrashLoopBackOff", created=M(FAULT_MIN)))
    s.obj(M(1), s.pod("ad", podname(s, "ad")))
    s.event(M(FAULT_MIN) + timedelta(seconds=2), "Pod", podname(s, "ad"), "Killing", "Stopping container ad")
    for k in range(5):
        at = M(FAULT_MIN + 2 + 3 * k)
        s.event(at, "Pod", p, "Unhealthy", "Liveness probe failed: timeout: failed to connect service \":8080\" within 1s", typ="Warning", count=k + 1)
        s.event(at + timedelta(seconds=1), "Pod", p, "Killing", "Container ad failed liveness probe, will be restarted")
        s.log(at - timedelta(seconds=1), "ad", "INFO", "[GC (Allocation Failure) 180224K->61200K(251392K), 1.2310 secs]")
    traffic(s, [("frontend", "GET /api/data"), ("frontend", "oteldemo.AdService/GetAds")], rate=0.35, msg="14 UNAVAILABLE: Connection refused")
    s.alert("PodRestarting", "ad", "warning", FAULT_MIN + 8, "ad restarted 5 times", 5)
    return gt(G("ad-deployment-1", "Deployment", "ad", root=True), ["ad", "frontend"],
              {"chain": [("ad", "killed by liveness probe during GC pauses", "crash"), ("frontend", "GetAds refused", "error")],
               "alerts": [("ad", "PodRestarting")]}, "Misconfiguration", "livenessProbe periodSeconds 3, failureThreshold 1 patched onto ad"), \
        ["kubectl-patch", "Liveness probe failed"], [], "kubectl-patch makes ad's gRPC livenessProbe failureThreshold 1; GC pauses trigger restarts; HPA decoy"

@case
def c13(s):  # node worker-3 cordoned and drained: evicted payment pod stays Pending (others lack CPU)
    steady_metrics(s, ["checkout", "payment"])
    baseline(s, skip=("payment",)); s.obj(M(2), flagd_cm(s)); decoy_rollout(s, "product-catalog", 7)
    for nm, unsched, mg in (("worker-3", False, [("kubelet", "status", M(-50))]), ("worker-3", True, [("kubelet", "status", M(-50)), ("kubectl-cordon", "Update", M(FAULT_MIN))])):
        n = s.meta("Node", nm, ns=None, managers=mg, labels={"kubernetes.io/hostname": nm})
        n["spec"] = {"podCIDR": "10.42.3.0/24"}
        if unsched: n["spec"]["unschedulable"] = True; n["spec"]["taints"] = [{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}]
        s.obj(M(1) if not unsched else M(FAULT_MIN + 1), n)
    for at in (M(1), M(WIN - 1)): s.obj(at, s.deploy("payment")); s.obj(at, s.service("payment"))
    old, new = podname(s, "payment"), podname(s, "payment", 6)
    s.obj(M(1), s.pod("payment", old, node="worker-3"))
    s.obj(M(FAULT_MIN + 2), s.pod("payment", new, phase="Pending", created=M(FAULT_MIN)))
    s.event(M(FAULT_MIN), "Node", "worker-3", "NodeNotSchedulable", "Node worker-3 status is now: NodeNotSchedulable", src="kubelet", ns="default")
    s.event(M(FAULT_MIN) + timedelta(seconds=30), "Pod", old, "Killing", "Stopping container payment")
    s.event(M(FAULT_MIN) + timedelta(seconds=31), "Pod", new, "FailedScheduling",
            "0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
            typ="Warning", count=9, src="default-scheduler")
    traffic(s, [("checkout", "oteldemo.CheckoutService/PlaceOrder"), ("checkout", "oteldemo.PaymentService/Charge")], rate=0.95,
            msg="rpc error: code = Unavailable desc = no healthy upstream", err_from=FAULT_MIN + 1)
    s.alert("HighRequestErrorRate", "checkout", "critical", FAULT_MIN + 2, "error rate above 5%", 0.95)
    s.alert("KubePodNotScheduled", "payment", "warning", FAULT_MIN + 6, "payment pod Pending", 1)
    r = gt(G("worker-3", "Node", "worker-3", ns="", root=True), ["payment", "checkout", "frontend"],
           {"chain": [("payment", "evicted by drain, replacement Pending", "unavailable"), ("checkout", "Charge fails", "error"), ("frontend", "checkout fails", "error")],
            "alerts": [("checkout", "HighRequestErrorRate"), ("payment", "KubePodNotScheduled")]}, "Resource Unavailable", "node cordoned and drained; remaining nodes lack CPU")
    return r, ["kubectl-cordon", "Insufficient cpu"], [], "node worker-3 cordoned+drained; payment replacement Pending (other nodes lack CPU); catalog rollout decoy"

# ---------------------------------------------------------------- writer
def tsv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, delimiter="\t", lineterminator="\n"); w.writerow(header); w.writerows(rows)

def enc_body(s, body, k):
    j = json.dumps(body, separators=(",", ":") if (s.n + k) % 3 == 0 else (", ", ": "))
    if s.n % 4 == 2 and k % 2: return json.dumps(j)       # double-encoded
    return j

def res_attrs(s, svc):
    d = {"service.name": svc, "k8s.namespace.name": NS}
    if podname(s, svc) in s.pods: d["k8s.pod.name"] = podname(s, svc)
    return json.dumps(d) if s.n % 2 else repr(d)

def write_snap(s, d):
    os.makedirs(os.path.join(d, "alerts")); os.makedirs(os.path.join(d, "metrics"))
    # alerts: two observations, envelope varies
    for k, at in enumerate((M(FAULT_MIN + 10), M(WIN - 1))):
        live = [a for a in s.alerts if a["activeAt"] <= ts(at, 1)] if k == 0 else s.alerts
        env = s.n % 4
        doc = {"status": "success", "data": {"alerts": live}} if env == 0 else {"alerts": live} if env == 1 else live if env == 2 else {"timestamp": ts(at, 0), "alerts": live}
        with open(os.path.join(d, "alerts", "alerts_at_" + at.strftime("%Y-%m-%dT%H-%M-%S.%f") + ".json"), "w") as f:
            json.dump(doc, f, indent=1 if k else None)
    tsf = s.form
    objs = sorted(s.objs, key=lambda x: (x[0], x[1]["kind"], x[1]["metadata"]["name"]))
    tsv(os.path.join(d, "k8s_objects_raw.tsv"), ["Timestamp", "ObservedTimestamp", "SeverityText", "Body", "ResourceAttributes", "LogAttributes"],
        [(ts(a, tsf), ts(a, tsf), "INFO", enc_body(s, b, i), "{}", json.dumps({"k8s.resource.name": b["kind"].lower() + "s"})) for i, (a, b, _) in enumerate(objs)])
    ev = sorted(s.events, key=lambda x: x[0])
    tsv(os.path.join(d, "k8s_events_raw.tsv"), ["Timestamp", "SeverityText", "Body", "ResourceAttributes"],
        [(ts(a, tsf), "INFO", json.dumps(b), "{}") for a, b in ev])
    sevn = {"INFO": 9, "WARN": 13, "ERROR": 17}
    tsv(os.path.join(d, "otel_logs_raw.tsv"), ["Timestamp", "TraceId", "SpanId", "SeverityText", "SeverityNumber", "ServiceName", "Body", "ResourceAttributes", "LogAttributes"],
        [(ts(a, tsf), t, "", sv, sevn[sv], svc, body, res_attrs(s, svc), "{}") for a, t, svc, sv, body in sorted(s.logs, key=lambda x: x[0])])
    tsv(os.path.join(d, "otel_traces_raw.tsv"), ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName", "ResourceAttributes",
                                                 "SpanAttributes", "Duration", "StatusCode", "StatusMessage"],
        [(ts(a, 1 if tsf != 2 else 2), t, sid, par, sp, kind, svc, res_attrs(s, svc), "{}", dur, st, sm) for a, t, sid, par, sp, kind, svc, dur, st, sm in s.spans])
    for fn, rows in s.metrics.items():
        tsv(os.path.join(d, "metrics", fn + ".tsv"), ["metric_name", "timestamp", "value", "tags"],
            [(m, ts(a, 0 if s.n % 2 else 3), v, json.dumps(t) if s.n % 3 else repr(t)) for m, a, v, t in rows])

def finish_gt(g, n):
    al = g.pop("_alias_root", None)
    sp = g["spec"]; g["metadata"]["name"] = f"sre-set12-scenario-{n}"
    ids = [x["id"] for x in sp["groups"]]
    if al:
        app = sp["groups"][0]["name"]
        gs, _ = svc_groups(app)
        for x in gs[1:]:
            if x["id"] not in ids: sp["groups"].append(x)
        sp["aliases"].insert(0, [sp["groups"][0]["id"]] + al)
    return g

def self_check(n, s, g, must, must_not, d):
    sp = g["spec"]; ids = {x["id"]: x for x in sp["groups"]}
    import re
    podset0 = {b["metadata"]["name"] for _, b, _ in s.objs if b["kind"] == "Pod"}
    for x in sp["groups"]:
        if x["kind"] == "Pod": assert any(re.search(x["filter"][0], p) for p in podset0), (n, "pod filter matches no pod", x)
    blob = ""
    for root, _, files in os.walk(d):
        for f in files:
            if f != "ground_truth.yaml": blob += open(os.path.join(root, f)).read()
    root = sp["groups"][0]; assert root.get("root_cause"), n
    kinds = {(b["kind"], b["metadata"]["name"]) for _, b, _ in s.objs}
    assert (root["kind"], root["name"]) in kinds, (n, "root object missing", root)
    for p in sp["propagations"]:
        assert p["source"] in ids and p["target"] in ids, (n, p)
    for a in sp["aliases"]:
        for x in a: assert x in ids, (n, x)
    for a in sp["alerts"]:
        app = ids[a["group_id"]]["name"]
        assert any(x["labels"]["alertname"] == a["id"] and x["labels"]["service_name"] == app for x in s.alerts), (n, a)
    podset = {b["metadata"]["name"] for _, b, _ in s.objs if b["kind"] == "Pod"}
    for _, e in s.events:
        o = e["object"]; ref = o.get("involvedObject") or o.get("regarding")
        if ref["kind"] == "Pod": assert ref["name"] in podset, (n, "event pod not in pod list", ref["name"])
        else: assert (ref["kind"], ref["name"]) in kinds or ref["kind"] in ("Node",), (n, ref)
    for m in must:
        assert m in blob or json.dumps(m)[1:-1] in blob or m.replace('"', '\\"') in blob, (n, "missing", m)
    for m in must_not: assert m not in blob, (n, m)

def main():
    out = os.path.abspath(sys.argv[1]); os.makedirs(out, exist_ok=True)
    key = {}
    for i, fn in enumerate(CASES, 1):
        s = Snap(i, 1200 + i)
        g, must, must_not, summary = fn(s)
        g = finish_gt(g, i)
        d = os.path.join(out, f"Scenario-{i}")
        if os.path.exists(d):
            import shutil; shutil.rmtree(d)
        os.makedirs(d)
        write_snap(s, d)
        with open(os.path.join(d, "ground_truth.yaml"), "w") as f:
            yaml.safe_dump(g if i % 2 else g["spec"], f, sort_keys=False)
        self_check(i, s, g, must, must_not, d)
        key[f"Scenario-{i}"] = {"root_cause": [f"{x['namespace']}/{x['kind']}/{x['name']}" for x in g["spec"]["groups"] if x.get("root_cause")], "summary": summary}
    with open(out.rstrip("/") + "-answer_key.json", "w") as f: json.dump(key, f, indent=1)
    print("ok", len(CASES), "scenarios")

if __name__ == "__main__":
    main()
