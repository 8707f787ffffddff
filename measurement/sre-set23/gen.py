#!/usr/bin/env python3
"""sre-set23: 10 held-out SRE diagnosis incidents in the ITBench-Lite v0.2 snapshot layout.

python3 gen.py OUT   -> OUT/Scenario-1 .. OUT/Scenario-10 (stdlib only, deterministic)
Ground truth of each incident is fixed in its scenario function below (GT dicts), before any data.
"""
import csv, hashlib, json, os, random, sys
from datetime import datetime, timedelta, timezone

NS = "otel-demo"
IMG = "ghcr.io/open-telemetry/demo:2.0.2-"
APPS = ["accounting", "ad", "cart", "checkout", "currency", "email", "flagd", "fraud-detection",
        "frontend", "frontend-proxy", "image-provider", "kafka", "load-generator", "payment",
        "product-catalog", "quote", "recommendation", "shipping", "valkey-cart", "postgresql"]
PORTS = {"frontend-proxy": 8080, "frontend": 8080, "cart": 8080, "checkout": 8080, "currency": 8080,
         "email": 8080, "payment": 8080, "product-catalog": 8080, "quote": 8080, "recommendation": 8080,
         "shipping": 8080, "ad": 8080, "flagd": 8013, "kafka": 9092, "valkey-cart": 6379,
         "image-provider": 8081, "load-generator": 8089, "accounting": 8080, "fraud-detection": 8080,
         "postgresql": 5432}
ALPH = "bcdfghjklmnpqrstvwxz2456789"


def H(s, n=16):
    return hashlib.sha256(s.encode()).hexdigest()[:n]


def rnd_suffix(s, n):
    a = hashlib.sha256(s.encode()).digest()
    return "".join(ALPH[b % len(ALPH)] for b in a[:n])


def iso(t, frac=False):
    return t.strftime("%Y-%m-%dT%H:%M:%S.%fZ") if frac else t.strftime("%Y-%m-%dT%H:%M:%SZ")


# --------------------------------------------------------------------------- request templates
# (callee, operation, children); the root caller is load-generator (or a browser via ingress)
def T_HOME():
    return ("frontend", "GET /", [
        ("currency", "oteldemo.CurrencyService/GetSupportedCurrencies", []),
        ("product-catalog", "oteldemo.ProductCatalogService/ListProducts", []),
        ("cart", "oteldemo.CartService/GetCart", [("valkey-cart", "HGET", [])]),
        ("currency", "oteldemo.CurrencyService/Convert", []),
        ("ad", "oteldemo.AdService/GetAds", []),
    ])


def T_PRODUCT():
    return ("frontend", "GET /api/products/[productId]", [
        ("product-catalog", "oteldemo.ProductCatalogService/GetProduct", []),
        ("currency", "oteldemo.CurrencyService/Convert", []),
        ("recommendation", "/oteldemo.RecommendationService/ListRecommendations", [
            ("product-catalog", "oteldemo.ProductCatalogService/ListProducts", [])]),
        ("ad", "oteldemo.AdService/GetAds", []),
    ])


def T_ADDCART():
    return ("frontend", "POST /api/cart", [
        ("cart", "oteldemo.CartService/AddItem", [("valkey-cart", "HSET", []), ("valkey-cart", "EXPIRE", [])]),
    ])


def T_SHIPQUOTE():
    return ("frontend", "GET /api/shipping", [
        ("shipping", "oteldemo.ShippingService/GetQuote", [("quote", "POST /getquote", [])]),
        ("currency", "oteldemo.CurrencyService/Convert", []),
    ])


def T_CHECKOUT():
    return ("frontend", "POST /api/checkout", [
        ("checkout", "oteldemo.CheckoutService/PlaceOrder", [
            ("cart", "oteldemo.CartService/GetCart", [("valkey-cart", "HGET", [])]),
            ("product-catalog", "oteldemo.ProductCatalogService/GetProduct", []),
            ("currency", "oteldemo.CurrencyService/Convert", []),
            ("shipping", "oteldemo.ShippingService/GetQuote", [("quote", "POST /getquote", [])]),
            ("payment", "oteldemo.PaymentService/Charge", []),
            ("shipping", "oteldemo.ShippingService/ShipOrder", []),
            ("email", "POST /send_order_confirmation", []),
            ("cart", "oteldemo.CartService/EmptyCart", [("valkey-cart", "DEL", [])]),
            ("kafka", "orders publish", []),
        ])])


MIX = [(T_HOME, 30), (T_PRODUCT, 34), (T_ADDCART, 14), (T_SHIPQUOTE, 8), (T_CHECKOUT, 14)]
TOLERATE = {("frontend", "ad"), ("checkout", "email"), ("checkout", "kafka")}
CLIENT_ONLY = {"valkey-cart", "kafka", "postgresql"}
BASE_MS = {"frontend": 9, "currency": 1.2, "product-catalog": 2.5, "cart": 3.5, "ad": 6, "recommendation": 7,
           "checkout": 12, "shipping": 3, "quote": 4, "payment": 6, "email": 8, "valkey-cart": 0.6,
           "kafka": 2.5, "frontend-proxy": 1.5, "postgresql": 1.8, "image-provider": 4}


class Inc:
    def __init__(self, num, seed, t0, style, window=34):
        self.num, self.sid, self.t0, self.st, self.W = num, "Scenario-%d" % num, t0, style, window
        self.r = random.Random(seed)
        self.seed = seed
        self.events, self.obs, self.logs, self.spans, self.metrics, self.alerts = [], [], [], [], {}, []
        self.cur = {}           # (kind, ns, name) -> object
        self.pods = {}          # (ns, app) -> pod name
        self.rs = {}            # (ns, app) -> rs hash
        self.rv = 7100000 + seed * 3137
        self.nodes = style.get("nodes", ["worker-1", "worker-2", "worker-3", "worker-4"])
        self.podnode = {}
        self.fault = lambda m, caller, callee, op: None
        self.podmetric = lambda m, ns, app, metric, v: v
        self.extra_traffic = None
        self.traffic_scale = lambda m: 1.0
        self.ips = {}
        self.actions = []
        self.podhist = {}

    # ---------------------------------------------------------------- time helpers
    def at(self, m, fn):
        self.actions.append((m, len(self.actions), fn))

    def run_actions(self):
        for k in range(0, self.W + 1, 5):
            self.actions.append((k - 0.001, -1, lambda k=k: self.snapshot_all(k)))
        for m, _, fn in sorted(self.actions, key=lambda x: (x[0], x[1])):
            fn()

    def setpod(self, ns, app, name, m):
        self.pods[(ns, app)] = name
        self.podhist.setdefault((ns, app), []).append((m, name))

    def podat(self, ns, app, t):
        m = (t - self.t0).total_seconds() / 60
        name = app
        for (mm, nm) in self.podhist.get((ns, app), []):
            if mm <= m:
                name = nm
        return name

    def T(self, m):
        return self.t0 + timedelta(seconds=round(m * 60, 3))

    def nrv(self):
        self.rv += self.r.randint(5, 90)
        return str(self.rv)

    def ip(self, key, base="10.42"):
        if key not in self.ips:
            hv = int(H(key + self.sid, 6), 16)
            self.ips[key] = "%s.%d.%d" % (base, hv % 5, 2 + (hv >> 8) % 250)
        return self.ips[key]

    # ---------------------------------------------------------------- objects
    def put(self, m, o, record=True, manager="helm"):
        o = json.loads(json.dumps(o))
        md = o.setdefault("metadata", {})
        key = (o["kind"], md.get("namespace", ""), md["name"])
        md["resourceVersion"] = self.nrv()
        md.setdefault("uid", "%s-%s-%s-%s-%s" % (H(str(key), 8), H(str(key) + "a", 4), H(str(key) + "b", 4),
                                                  H(str(key) + "c", 4), H(str(key) + "d", 12)))
        md.setdefault("creationTimestamp", iso(self.t0 - timedelta(days=11, hours=4, minutes=self.num * 7)))
        if self.st.get("mf"):
            md["managedFields"] = [{"manager": manager, "operation": "Update", "apiVersion": o.get("apiVersion", "v1"),
                                    "time": iso(self.T(m)) if record and m >= 0 else md["creationTimestamp"],
                                    "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {}}}]
        self.cur[key] = o
        if record:
            self.obs.append((self.T(m), o))
        return o

    def get(self, kind, name, ns=NS):
        return json.loads(json.dumps(self.cur[(kind, ns, name)]))

    def delete(self, m, kind, name, ns=NS):
        o = self.cur.pop((kind, ns, name))
        o["metadata"]["deletionTimestamp"] = iso(self.T(m))
        o["metadata"]["resourceVersion"] = self.nrv()
        self.obs.append((self.T(m), o))

    def snapshot_all(self, m):
        for k in sorted(self.cur):
            o = json.loads(json.dumps(self.cur[k]))
            self.obs.append((self.T(m), o))

    def deployment(self, app, ns=NS, image=None, replicas=1, extra_spec=None, labels=None, containers=None):
        lab = {"app.kubernetes.io/name": app, "app.kubernetes.io/component": app,
               "app.kubernetes.io/part-of": "opentelemetry-demo" if ns == NS else ns}
        if labels:
            lab.update(labels)
        c = {"name": app, "image": image or (IMG + app), "imagePullPolicy": "IfNotPresent",
             "ports": [{"containerPort": PORTS.get(app, 8080), "name": "service", "protocol": "TCP"}],
             "env": [{"name": "OTEL_SERVICE_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1",
                      "fieldPath": "metadata.labels['app.kubernetes.io/component']"}}},
                     {"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://otel-collector.opentelemetry-collectors:4317"}],
             "resources": {"limits": {"memory": "%dMi" % (300 if app in ("kafka", "ad", "fraud-detection", "frontend") else 120)}}}
        d = {"apiVersion": "apps/v1", "kind": "Deployment",
             "metadata": {"name": app, "namespace": ns, "labels": dict(lab),
                          "annotations": {"deployment.kubernetes.io/revision": "3", "meta.helm.sh/release-name": "otel-demo"},
                          "generation": 3},
             "spec": {"replicas": replicas, "revisionHistoryLimit": 10,
                      "selector": {"matchLabels": {"app.kubernetes.io/name": app}},
                      "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
                      "template": {"metadata": {"labels": {"app.kubernetes.io/name": app, "app.kubernetes.io/component": app}},
                                   "spec": {"containers": containers or [c], "serviceAccountName": "otel-demo",
                                            "restartPolicy": "Always", "terminationGracePeriodSeconds": 30}}},
             "status": {"replicas": replicas, "readyReplicas": replicas, "availableReplicas": replicas,
                        "updatedReplicas": replicas, "observedGeneration": 3}}
        if extra_spec:
            extra_spec(d)
        return d

    def service(self, app, ns=NS, port=None, cip=None):
        p = port or PORTS.get(app, 8080)
        return {"apiVersion": "v1", "kind": "Service",
                "metadata": {"name": app, "namespace": ns, "labels": {"app.kubernetes.io/name": app}},
                "spec": {"type": "ClusterIP", "clusterIP": cip or self.ip("svc/" + ns + app, "10.96"),
                         "ports": [{"name": "tcp-service", "port": p, "targetPort": p, "protocol": "TCP"}],
                         "selector": {"app.kubernetes.io/name": app}}}

    def pod_obj(self, app, name, rs, dep, ns=NS, phase="Running", ready=True, node=None, restarts=0,
                waiting=None, last_term=None, start_m=None, owner_kind="ReplicaSet"):
        node = node or self.podnode.get(name) or self.nodes[int(H(name, 4), 16) % len(self.nodes)]
        self.podnode[name] = node
        c = json.loads(json.dumps(dep["spec"]["template"]["spec"]["containers"][0]))
        st = {"name": c["name"], "image": c["image"], "ready": ready, "restartCount": restarts,
              "started": ready, "imageID": "",
              "state": ({"waiting": waiting} if waiting else {"running": {"startedAt": iso(self.T(start_m or -600))}})}
        if last_term:
            st["lastState"] = {"terminated": last_term}
        return {"apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": name, "namespace": ns,
                             "labels": dict(dep["spec"]["template"]["metadata"]["labels"], **{"pod-template-hash": rs}),
                             "ownerReferences": [{"apiVersion": "apps/v1" if owner_kind != "Job" else "batch/v1",
                                                  "kind": owner_kind, "name": (app + "-" + rs) if owner_kind == "ReplicaSet" else rs,
                                                  "controller": True, "blockOwnerDeletion": True,
                                                  "uid": H(app + rs, 8) + "-0000-4000-8000-" + H(app + rs, 12)}]},
                "spec": {"nodeName": node, "containers": [c], "restartPolicy": dep["spec"]["template"]["spec"].get("restartPolicy", "Always"),
                         "serviceAccountName": "otel-demo", "priority": 0},
                "status": {"phase": phase, "podIP": self.ip("pod/" + name), "hostIP": self.ip(node, "10.0"),
                           "qosClass": "Burstable",
                           "conditions": [{"type": "Ready", "status": "True" if ready else "False"}],
                           "containerStatuses": [st]}}

    # ---------------------------------------------------------------- events
    def ev(self, m, kind, name, reason, msg, etype="Normal", ns=NS, count=1, comp="kubelet", host=None, watch="ADDED",
           first_m=None):
        t = self.T(m)
        evname = "%s.%s" % (name, H(name + reason + str(m) + msg, 16))
        if self.st.get("ev") == "events.k8s.io":
            o = {"apiVersion": "events.k8s.io/v1", "kind": "Event",
                 "metadata": {"name": evname, "namespace": ns, "resourceVersion": self.nrv(),
                              "creationTimestamp": iso(self.T(first_m if first_m is not None else m))},
                 "regarding": {"kind": kind, "name": name, "namespace": ns},
                 "reason": reason, "note": msg, "type": etype,
                 "eventTime": iso(self.T(first_m if first_m is not None else m), True),
                 "reportingController": comp if "/" in comp else "kubernetes.io/" + comp,
                 "reportingInstance": host or comp, "action": reason}
            if not ns:
                del o["regarding"]["namespace"]
                o["metadata"]["namespace"] = "default"
            if count > 1:
                o["series"] = {"count": count, "lastObservedTime": iso(t, True)}
                o["deprecatedCount"] = count
        else:
            o = {"apiVersion": "v1", "kind": "Event", "count": count,
                 "metadata": {"name": evname, "namespace": ns or "default", "resourceVersion": self.nrv(),
                              "creationTimestamp": iso(self.T(first_m if first_m is not None else m))},
                 "involvedObject": {"kind": kind, "name": name, "namespace": ns} if ns else {"kind": kind, "name": name},
                 "reason": reason, "message": msg, "type": etype,
                 "firstTimestamp": iso(self.T(first_m if first_m is not None else m)), "lastTimestamp": iso(t),
                 "source": {"component": comp, **({"host": host} if host else {})},
                 "eventTime": None, "reportingComponent": comp, "reportingInstance": host or ""}
        self.events.append((t, {"object": o, "type": watch if count == 1 else "MODIFIED"}))

    def repeat_ev(self, m0, m1, step, *a, **kw):
        c, m = 1, m0
        while m <= m1:
            self.ev(m, *a, count=c, first_m=m0, **kw)
            c += max(1, int(step))
            m += step

    # ---------------------------------------------------------------- logs
    def log(self, m, svc, sev, body, ns=NS, pod=None, trace="", span="", attrs=None):
        pod = pod or self.podat(ns, svc, self.T(m))
        ra = {"service.name": svc, "k8s.namespace.name": ns, "k8s.pod.name": pod,
              "k8s.node.name": self.podnode.get(pod, self.nodes[0])}
        if ns == NS:
            ra["k8s.deployment.name"] = svc
            ra["service.namespace"] = "opentelemetry-demo"
        self.logs.append((self.T(m), trace, span, sev, svc, body, ra, attrs or {}))

    # ---------------------------------------------------------------- alerts
    def alert(self, name, start, end, labels, summary, sev="warning", value=None):
        self.alerts.append((name, start, end, labels, summary, sev, value))

    # ---------------------------------------------------------------- rollout helper
    def rollout(self, m, app, mutate, ns=NS, new_ok=True, dur=0.6, manager="argocd-controller", reason_ann=None):
        d = self.get("Deployment", app, ns)
        mutate(d)
        d["metadata"]["generation"] = d["metadata"].get("generation", 1) + 1
        rev = str(int(d["metadata"]["annotations"].get("deployment.kubernetes.io/revision", "1")) + 1)
        d["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = rev
        if reason_ann:
            d["spec"]["template"]["metadata"].setdefault("annotations", {}).update(reason_ann)
        self.put(m, d, manager=manager)
        old_rs, old_pod = self.rs[(ns, app)], self.pods[(ns, app)]
        new_rs = rnd_suffix(app + "rs" + str(m) + self.sid, 10)
        new_pod = "%s-%s-%s" % (app, new_rs, rnd_suffix(app + str(m) + "p" + self.sid, 5))
        self.ev(m, "Deployment", app, "ScalingReplicaSet", "Scaled up replica set %s-%s to 1" % (app, new_rs),
                ns=ns, comp="deployment-controller")
        self.ev(m + 0.01, "ReplicaSet", app + "-" + new_rs, "SuccessfulCreate", "Created pod: " + new_pod, ns=ns,
                comp="replicaset-controller")
        node = self.nodes[int(H(new_pod, 4), 16) % len(self.nodes)]
        self.podnode[new_pod] = node
        self.ev(m + 0.02, "Pod", new_pod, "Scheduled", "Successfully assigned %s/%s to %s" % (ns, new_pod, node),
                ns=ns, comp="default-scheduler")
        img = d["spec"]["template"]["spec"]["containers"][0]["image"]
        self.ev(m + 0.03, "Pod", new_pod, "Pulling", 'Pulling image "%s"' % img, ns=ns, host=node)
        self.rs[(ns, app)] = new_rs
        self.setpod(ns, app, new_pod, m + (dur if new_ok else 0))
        if new_ok:
            self.ev(m + 0.2, "Pod", new_pod, "Pulled", 'Successfully pulled image "%s" in 3.912s (3.912s including waiting). Image size: 48213417 bytes.' % img, ns=ns, host=node)
            self.ev(m + 0.21, "Pod", new_pod, "Created", "Created container " + app, ns=ns, host=node)
            self.ev(m + 0.22, "Pod", new_pod, "Started", "Started container " + app, ns=ns, host=node)
            self.put(m + dur, self.pod_obj(app, new_pod, new_rs, d, ns=ns, start_m=m + 0.22))
            self.ev(m + dur, "Deployment", app, "ScalingReplicaSet", "Scaled down replica set %s-%s to 0 from 1" % (app, old_rs),
                    ns=ns, comp="deployment-controller")
            self.ev(m + dur + 0.01, "Pod", old_pod, "Killing", "Stopping container " + app, ns=ns, host=self.podnode.get(old_pod))
            self.delete(m + dur + 0.02, "Pod", old_pod, ns)
        return d, new_pod, old_pod, new_rs, old_rs

    # ---------------------------------------------------------------- baseline cluster
    def base(self, second_ns, second_fail):
        for n in self.nodes:
            self.put(-1, {"apiVersion": "v1", "kind": "Node",
                          "metadata": {"name": n, "labels": {"kubernetes.io/hostname": n, "kubernetes.io/arch": "amd64",
                                                             "node.kubernetes.io/instance-type": "m6i.2xlarge",
                                                             "topology.kubernetes.io/zone": "eu-west-1" + "abc"[int(H(n, 2), 16) % 3]}},
                          "spec": {"podCIDR": self.ip(n, "10.42") + "/24"},
                          "status": {"capacity": {"cpu": "8", "memory": "32386660Ki", "pods": "110"},
                                     "allocatable": {"cpu": "7910m", "memory": "31235684Ki", "pods": "110"},
                                     "conditions": [{"type": "MemoryPressure", "status": "False"},
                                                    {"type": "DiskPressure", "status": "False"},
                                                    {"type": "Ready", "status": "True"}],
                                     "nodeInfo": {"kubeletVersion": "v1.30.4", "architecture": "amd64"}}}, record=False)
        for app in APPS:
            d = self.deployment(app)
            self.put(-1, d, record=False)
            if app != "load-generator" or True:
                self.put(-1, self.service(app), record=False)
            rs = rnd_suffix(app + "rs0" + self.sid, 10)
            pn = "%s-%s-%s" % (app, rs, rnd_suffix(app + "p0" + self.sid, 5))
            self.rs[(NS, app)] = rs
            self.setpod(NS, app, pn, -999)
            self.put(-1, self.pod_obj(app, pn, rs, d), record=False)
        flags = {"$schema": "https://flagd.dev/schema/v0/flags.json", "flags": {
            "productCatalogFailure": {"description": "Fail product catalog service on a specific product", "state": "ENABLED",
                                      "variants": {"on": True, "off": False}, "defaultVariant": "off"},
            "recommendationCacheFailure": {"description": "Fail recommendation service cache", "state": "ENABLED",
                                           "variants": {"on": True, "off": False}, "defaultVariant": "off"},
            "adFailure": {"description": "Fail ad service", "state": "ENABLED", "variants": {"on": True, "off": False}, "defaultVariant": "off"},
            "cartFailure": {"description": "Fail cart service", "state": "ENABLED", "variants": {"on": True, "off": False}, "defaultVariant": "off"},
            "paymentFailure": {"description": "Fail payment service charge requests n%", "state": "ENABLED",
                               "variants": {"100%": 1, "90%": 0.95, "75%": 0.75, "50%": 0.5, "25%": 0.25, "10%": 0.1, "off": 0},
                               "defaultVariant": "off"},
            "paymentUnreachable": {"description": "Payment service is unavailable", "state": "ENABLED",
                                   "variants": {"on": True, "off": False}, "defaultVariant": "off"},
            "kafkaQueueProblems": {"description": "Overloads Kafka queue while simultaneously introducing a consumer side delay leading to a lag spike",
                                   "state": "ENABLED", "variants": {"on": 100, "off": 0}, "defaultVariant": "off"},
            "imageSlowLoad": {"description": "slow loading images in the frontend", "state": "ENABLED",
                              "variants": {"10sec": 10000, "5sec": 5000, "off": 0}, "defaultVariant": "off"},
            "emailMemoryLeak": {"description": "Memory leak in the email service.", "state": "ENABLED",
                                "variants": {"off": 0, "1x": 1, "10x": 10, "100x": 100}, "defaultVariant": "off"}}}
        self.flags = flags
        self.put(-1, {"apiVersion": "v1", "kind": "ConfigMap",
                      "metadata": {"name": "flagd-config", "namespace": NS, "labels": {"app.kubernetes.io/part-of": "opentelemetry-demo"}},
                      "data": {"demo.flagd.json": json.dumps(flags, indent=2)}}, record=False)
        # second namespace with its own trouble
        self.second_ns = second_ns
        for app, img in second_fail:
            d = self.deployment(app, ns=second_ns, image=img)
            self.put(-1, d, record=False)
            rs = rnd_suffix(app + "rs0" + second_ns, 10)
            pn = "%s-%s-%s" % (app, rs, rnd_suffix(app + "p0" + second_ns, 5))
            self.rs[(second_ns, app)] = rs
            self.setpod(second_ns, app, pn, -999)
            self.put(-1, self.pod_obj(app, pn, rs, d, ns=second_ns, ready=False, restarts=41,
                                      waiting={"reason": "CrashLoopBackOff", "message": "back-off 5m0s restarting failed container=%s pod=%s_%s" % (app, pn, second_ns)}),
                     record=False)

    def base_noise(self, lg_restart_m, second_msgs):
        ns2 = self.second_ns
        # second namespace crashlooping pods (their own, older failure)
        for app, logmsg in second_msgs:
            pn = self.pods[(ns2, app)]
            self.repeat_ev(0.7, self.W - 1, 5.0, "Pod", pn, "BackOff", "Back-off restarting failed container %s in pod %s_%s(%s)" % (app, pn, ns2, H(pn, 8)),
                           etype="Warning", ns=ns2, host=self.podnode.get(pn))
            for k in range(0, self.W, 5):
                self.log(k + 0.3, app, "ERROR", logmsg, ns=ns2, pod=pn)
            self.alert("KubePodCrashLooping", -40, None, {"namespace": ns2, "pod": pn, "container": app, "severity": "warning",
                                                          "job": "kube-state-metrics"},
                       "Pod %s/%s (%s) is in waiting state (reason: \"CrashLoopBackOff\")." % (ns2, pn, app))
        # load-generator liveness restart (locust worker hiccup)
        lp = self.pods[(NS, "load-generator")]
        self.ev(lg_restart_m, "Pod", lp, "Unhealthy", "Liveness probe failed: Get \"http://%s:8089/\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)" % self.ip("pod/" + lp),
                etype="Warning", count=3, first_m=lg_restart_m - 0.33, host=self.podnode.get(lp))
        self.ev(lg_restart_m + 0.02, "Pod", lp, "Killing", "Container load-generator failed liveness probe, will be restarted", host=self.podnode.get(lp))
        self.ev(lg_restart_m + 0.1, "Pod", lp, "Pulled", 'Container image "%sload-generator" already present on machine' % IMG, host=self.podnode.get(lp))
        self.ev(lg_restart_m + 0.12, "Pod", lp, "Started", "Started container load-generator", host=self.podnode.get(lp))
        p = self.get("Pod", lp)
        p["status"]["containerStatuses"][0]["restartCount"] = 1
        p["status"]["containerStatuses"][0]["lastState"] = {"terminated": {"exitCode": 137, "reason": "Error",
                                                                            "finishedAt": iso(self.T(lg_restart_m))}}
        self.put(lg_restart_m + 0.15, p)
        self.log(lg_restart_m - 0.4, "load-generator", "WARNING", "CPU usage above 90%! This may constrain your throughput and may even give inconsistent response time measurements!")
        # collector noise + watchdog
        self.alert("Watchdog", -120, None, {"severity": "none", "namespace": "prometheus"},
                   "This is an alert meant to ensure that the entire alerting pipeline is functional.", sev="none")
        self.alert("CPUThrottlingHigh", -30, None, {"namespace": "opentelemetry-collectors", "pod": "otel-collector-agent-%s" % rnd_suffix(self.sid + "c", 5),
                                                    "container": "otel-collector", "severity": "info"},
                   "31.2% throttling of CPU in namespace opentelemetry-collectors for container otel-collector.", sev="info")
        for k in range(2, self.W, 7):
            self.log(k + 0.5, "otel-collector", "WARN", 'Exporting failed. Will retry the request after interval.\t{"kind": "exporter", "data_type": "logs", "name": "opensearch", "error": "context deadline exceeded", "interval": "4.81s"}',
                     ns="opentelemetry-collectors", pod="otel-collector-agent-" + rnd_suffix(self.sid + "c", 5))

    # ---------------------------------------------------------------- traffic
    def traffic(self, every_s=4.0):
        m = 0.05
        while m < self.W:
            if self.r.random() < self.traffic_scale(m):
                tmpl = self.r.choices([x for x, _ in MIX], [w for _, w in MIX])[0]()
                self.request(m, tmpl)
            if self.extra_traffic:
                self.extra_traffic(m)
            m += (every_s + self.r.uniform(-1.5, 1.5)) / 60.0

    def span(self, t, tid, sid, parent, name, kind, svc, dur_ms, status, smsg, attrs, ns=NS, pod=None):
        if self.st.get("noparent"):
            parent = ""
        self.spans.append((t, tid, sid, parent, name, kind, svc, ns, pod or self.podat(ns, svc, t), attrs, dur_ms, status, smsg))

    def request(self, m, tmpl, root_svc="load-generator", root_ns=NS, root_name=None, tid=None, root_parent=""):
        tid = tid or H("t%s%s%f" % (self.sid, tmpl[1], m), 32)
        t = self.T(m)
        rid = H(tid + "root", 16)
        # root client span of load-generator -> frontend-proxy server -> frontend
        dur, err = self.call(m, t, tid, rid, "frontend-proxy", tmpl[0], tmpl[1], tmpl[2], 1)
        pdur, perr = dur + BASE_MS["frontend-proxy"], err
        pid = H(tid + "proxy", 16)
        code = "Error" if perr else "Unset"
        self.span(t, tid, pid, rid, "ingress", "Server", "frontend-proxy", pdur, code, "",
                  {"http.method": tmpl[1].split()[0], "http.status_code": 500 if perr else 200, "upstream_cluster": "frontend"})
        self.span(t, tid, rid, root_parent, root_name or tmpl[1].split()[0], "Client", root_svc, pdur + 1.0, code, "",
                  {"http.url": "http://frontend-proxy:8080" + (tmpl[1].split()[1] if " " in tmpl[1] else "/"), "http.status_code": 500 if perr else 200},
                  ns=root_ns)
        return perr

    def call(self, m, t, tid, parent_sid, caller, callee, op, children, depth):
        """client span in caller + server span in callee (unless unreachable). returns (dur_ms, err)"""
        fx = self.fault(m, caller, callee, op) or {}
        csid = H(tid + caller + callee + op + str(depth) + str(len(self.spans)), 16)
        ssid = H(csid + "s", 16)
        rpc = op.startswith("oteldemo") or op.startswith("/oteldemo")
        cattrs = {"rpc.system": "grpc", "rpc.method": op.split("/")[-1], "net.peer.name": callee} if rpc else \
            ({"db.system": "redis", "db.operation": op, "net.peer.name": "valkey-cart", "net.peer.port": 6379} if callee == "valkey-cart" else
             ({"messaging.system": "kafka", "messaging.destination.name": "orders", "messaging.operation": "publish"} if callee == "kafka" else
              {"http.method": op.split()[0], "net.peer.name": callee, "http.url": "http://%s:8080%s" % (callee, op.split()[-1])}))
        if "unreach" in fx:
            d = fx.get("timeout_ms", self.r.uniform(2, 8))
            self.span(t, tid, csid, parent_sid, op, "Client" if callee != "kafka" else "Producer", caller, d, "Error", fx["unreach"], cattrs)
            return d, fx["unreach"]
        if callee in CLIENT_ONLY:
            d = BASE_MS[callee] * self.r.uniform(0.6, 1.8) + fx.get("slow", 0)
            err = fx.get("err")
            self.span(t, tid, csid, parent_sid, op, "Client" if callee != "kafka" else "Producer", caller, d,
                      "Error" if err else "Unset", err or "", cattrs)
            if callee == "kafka" and not err:
                self.consumers(m, t, tid, csid)
            return d, err
        own = BASE_MS.get(callee, 3) * self.r.uniform(0.7, 1.6) + fx.get("slow", 0)
        tot, err = own, None
        ct = t + timedelta(milliseconds=own * 0.3)
        for cc, cop, cch in children:
            cd, ce = self.call(m, ct, tid, ssid, callee, cc, cop, cch, depth + 1)
            tot += cd
            ct = ct + timedelta(milliseconds=cd)
            if ce and not err:
                err = self.wrap(callee, cc, cop, ce)
                if (callee, cc) in TOLERATE:
                    err = None  # the caller logs it and carries on (page without ads, order without email/event)
                    if self.r.random() < 0.5:
                        self.log(m, callee, "WARN" if callee != "checkout" else "ERROR",
                                 {"ad": "failed to retrieve ads: %s", "email": "failed to send order confirmation: %s",
                                  "kafka": "Failed to write message to kafka topic orders: %s"}[cc] % ce[:200], trace=tid, span=ssid)
                if err and fx.get("stop_on_err", True):
                    break
        if fx.get("err"):
            err = fx["err"]
        if fx.get("timeout_ms") and tot > fx["timeout_ms"]:
            err = fx.get("timeout_err", "context deadline exceeded")
        sattrs = {"rpc.system": "grpc", "rpc.grpc.status_code": 2 if err else 0} if rpc else {"http.status_code": 500 if err else 200}
        self.span(t, tid, ssid, csid, op, "Server", callee, tot, "Error" if err else "Unset", err or "", sattrs)
        self.span(t, tid, csid, parent_sid, op, "Client", caller, tot + 0.6, "Error" if err else "Unset", err or "", cattrs)
        if err and self.r.random() < 0.35:
            self.log(m, callee, "ERROR", self.errlog(callee, op, err), trace=tid, span=ssid)
        elif not err and self.r.random() < 0.04:
            self.log(m, callee, "INFO", self.infolog(callee, op), trace=tid, span=ssid)
        return tot + 0.6, err

    def wrap(self, svc, callee, op, e):
        meth = op.split("/")[-1]
        if svc == "frontend":
            return "13 INTERNAL: %s failed: %s" % (meth, e[:160])
        if svc == "checkout":
            return "failed to prepare order: rpc error: code = Unavailable desc = %s" % e[:160] if callee != "payment" else \
                "failed to charge card: could not charge the card: rpc error: code = Unknown desc = %s" % e[:160]
        if svc == "shipping":
            return "failed to get quote: %s" % e[:160]
        if svc == "recommendation":
            return "StatusCode.UNAVAILABLE: %s" % e[:160]
        return e

    def errlog(self, svc, op, err):
        return {"frontend": "Error: %s" % err, "checkout": "failed to place order: %s" % err,
                "cart": "Can't access cart storage. %s" % err}.get(svc, err)

    def infolog(self, svc, op):
        return {"frontend": "request completed", "checkout": "payment went through (transaction_id: %s)" % H(op + str(self.r.random()), 8),
                "cart": "GetCartAsync called with userId=%s" % H(str(self.r.random()), 8),
                "currency": "Currency conversion successful", "product-catalog": "Product Found",
                "shipping": "Received quote: 8.99", "quote": "Calculated quote", "email": "Order confirmation email sent",
                "ad": "Targeted ad request received for [telescopes]", "recommendation": "Receive ListRecommendations for product ids:['OLJCESPC7Z']",
                "payment": "Transaction complete."}.get(svc, "ok")

    def consumers(self, m, t, tid, psid):
        for svc in ("accounting", "fraud-detection"):
            fx = self.fault(m, "kafka", svc, "orders process") or {}
            if fx.get("drop"):
                continue
            sid = H(tid + svc + "cons", 16)
            d = 3.0 * self.r.uniform(0.8, 1.4)
            tc = t + timedelta(milliseconds=self.r.uniform(20, 200))
            self.span(tc, tid, sid, psid, "orders process", "Consumer", svc, d, "Unset", "",
                      {"messaging.system": "kafka", "messaging.destination.name": "orders", "messaging.operation": "process"})
            if svc == "accounting":
                self.span(tc, tid, H(sid + "db", 16), sid, "INSERT otel.order", "Client", "accounting", 1.5, "Unset", "",
                          {"db.system": "postgresql", "net.peer.name": "postgresql", "db.name": "otel"})

    # ---------------------------------------------------------------- metrics
    def compute_metrics(self):
        style = self.st
        per = {}
        for (t, tid, sid, par, name, kind, svc, ns, pod, attrs, dur, status, smsg) in self.spans:
            if kind not in ("Server", "Consumer") or ns != NS:
                continue
            mi = int((t - self.t0).total_seconds() // 60)
            k = per.setdefault((svc, mi), [0, 0, []])
            k[0] += 1
            k[1] += status == "Error"
            k[2].append(dur)
        cum = {}
        for svc in sorted({s for s, _ in per}):
            for mi in range(self.W):
                n, e, ds = per.get((svc, mi), [0, 0, []])
                ok = n - e
                c = cum.setdefault(svc, [0, 0])
                c[0] += ok * 15  # the recorded traffic is a 1/15 sample
                c[1] += e * 15
                for code, v in (("STATUS_CODE_UNSET", c[0]), ("STATUS_CODE_ERROR", c[1])):
                    self.metric("service_" + svc, "traces_span_metrics_calls_total", mi + 1, v,
                                {"service_name": svc, "namespace": NS, "span_kind": "SPAN_KIND_SERVER", "status_code": code},
                                status_code=code)
                if ds:
                    ds = sorted(ds)
                    p95 = ds[min(len(ds) - 1, int(0.95 * len(ds)))]
                    self.metric("service_" + svc, "span_latency_p95_ms", mi + 1, round(p95, 3),
                                {"service_name": svc, "namespace": NS})
                    self.metric("service_" + svc, "error_ratio", mi + 1, round(e / n, 4), {"service_name": svc, "namespace": NS})
        # pod metrics (one per running app pod at the end + any pod named by the scenario)
        for (ns, app), hist in sorted(self.podhist.items()):
          if ns != NS and not self.st.get("pod_metrics_all_ns"):
              continue
          for hi, (start, pod) in enumerate(hist):
            end = hist[hi + 1][0] if hi + 1 < len(hist) else self.W
            base_cpu = 0.02 + (int(H(app, 2), 16) % 30) / 300
            base_mem = (40 + int(H(app, 3), 16) % 200) * 1048576
            for mi in range(max(0, int(start + 0.999)), min(self.W, int(end + 0.999)), 1):
                cpu = self.podmetric(mi, ns, app, "cpu", base_cpu * self.r.uniform(0.85, 1.15))
                mem = self.podmetric(mi, ns, app, "mem", base_mem * self.r.uniform(0.98, 1.02))
                lab = {"namespace": ns, "pod": pod, "container": app}
                self.metric("pod_" + pod, "container_cpu_usage_seconds_total:rate1m", mi, round(cpu, 5), lab)
                self.metric("pod_" + pod, "container_memory_working_set_bytes", mi, int(mem), lab)
                thr = self.podmetric(mi, ns, app, "throttle", 0.0)
                if thr is not None and (thr > 0 or app in ("checkout", "frontend")):
                    self.metric("pod_" + pod, "container_cpu_cfs_throttled_periods_ratio", mi, round(thr, 4), lab)

    def metric(self, fname, name, m, value, tags, status_code=""):
        self.metrics.setdefault(fname, []).append((name, self.T(m), value, tags, status_code))

    # ---------------------------------------------------------------- writing
    def write(self, out, gt):
        d = os.path.join(out, self.sid)
        os.makedirs(os.path.join(d, "alerts"), exist_ok=True)
        os.makedirs(os.path.join(d, "metrics"), exist_ok=True)
        tsf = self.st.get("ts", "ch")

        def ts(t):
            if tsf == "ch":
                return t.strftime("%Y-%m-%d %H:%M:%S.%f") + "000"
            if tsf == "iso":
                return t.strftime("%Y-%m-%dT%H:%M:%S.%f") + "Z"
            return t.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]

        def wtsv(name, header, rows, index=False):
            with open(os.path.join(d, name), "w", newline="", encoding="utf-8") as f:
                w = csv.writer(f, delimiter="\t", lineterminator="\n")
                w.writerow(([""] if index else []) + header)
                for i, r in enumerate(rows):
                    w.writerow(([i] if index else []) + r)

        idx = bool(self.st.get("pandas_index"))
        ra_cluster = json.dumps({"k8s.cluster.name": "shop-prod-eu1", "service.name": "k8s-event-exporter"})
        wtsv("k8s_events_raw.tsv", ["Timestamp", "TraceId", "SpanId", "SeverityText", "SeverityNumber", "ServiceName",
                                    "Body", "ResourceAttributes", "LogAttributes"],
             [[ts(t), "", "", "", 0, "", json.dumps(b, separators=(",", ":")), ra_cluster,
               json.dumps({"k8s.event.reason": b["object"]["reason"], "k8s.namespace.name": b["object"]["metadata"]["namespace"]})]
              for t, b in sorted(self.events, key=lambda x: x[0])], index=idx)
        rows = []
        for t, o in sorted(self.obs, key=lambda x: x[0]):
            body = json.dumps(o, separators=(",", ":"))
            if self.st.get("dbl"):
                body = json.dumps(body)
            md = o["metadata"]
            rows.append([ts(t), "", "", "", 0, "", body, json.dumps({"k8s.cluster.name": "shop-prod-eu1"}),
                         json.dumps({"k8s.resource.name": o["kind"].lower() + "s", "k8s.object.name": md["name"],
                                     "k8s.namespace.name": md.get("namespace", "")})])
        wtsv("k8s_objects_raw.tsv", ["Timestamp", "TraceId", "SpanId", "SeverityText", "SeverityNumber", "ServiceName",
                                     "Body", "ResourceAttributes", "LogAttributes"], rows, index=idx)
        sevnum = {"TRACE": 1, "DEBUG": 5, "INFO": 9, "WARN": 13, "WARNING": 13, "ERROR": 17, "FATAL": 21, "LOG": 9}
        wtsv("otel_logs_raw.tsv", ["Timestamp", "TraceId", "SpanId", "SeverityText", "SeverityNumber", "ServiceName",
                                   "Body", "ResourceAttributes", "LogAttributes"],
             [[ts(t), tr, sp, sev, sevnum.get(sev, 9), svc, body,
               json.dumps(ra) if not self.st.get("pydict") else repr(ra), json.dumps(la)]
              for (t, tr, sp, sev, svc, body, ra, la) in sorted(self.logs, key=lambda x: x[0])], index=idx)
        kmap = {"Server": "SPAN_KIND_SERVER", "Client": "SPAN_KIND_CLIENT", "Producer": "SPAN_KIND_PRODUCER",
                "Consumer": "SPAN_KIND_CONSUMER", "Internal": "SPAN_KIND_INTERNAL"}
        trows = []
        for (t, tid, sid, par, name, kind, svc, ns, pod, attrs, dur, status, smsg) in sorted(self.spans, key=lambda x: (x[0], x[1])):
            ra = {"service.name": svc, "k8s.namespace.name": ns, "k8s.pod.name": pod,
                  "telemetry.sdk.language": {"frontend": "nodejs", "checkout": "go", "cart": "dotnet", "payment": "nodejs",
                                             "shipping": "rust", "quote": "php", "currency": "cpp", "ad": "java",
                                             "recommendation": "python", "product-catalog": "go", "email": "ruby",
                                             "accounting": "dotnet", "fraud-detection": "java"}.get(svc, "cpp")}
            trows.append([ts(t), tid, sid, par, name, kmap[kind] if self.st.get("kindstyle") == "otlp" else kind, svc,
                          json.dumps(ra) if not self.st.get("pydict") else repr(ra), json.dumps(attrs),
                          int(dur * 1e6), status, smsg])
        wtsv("otel_traces_raw.tsv", ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
                                     "ResourceAttributes", "SpanAttributes", "Duration", "StatusCode", "StatusMessage"], trows, index=idx)
        mts = self.st.get("mts", "iso")
        for fname, rws in sorted(self.metrics.items()):
            def mt(t):
                if mts == "epoch":
                    return str(int(t.timestamp()))
                if mts == "epoch_ms":
                    return str(int(t.timestamp() * 1000))
                return t.strftime("%Y-%m-%d %H:%M:%S")
            extra = self.st.get("metric_cols")
            hdr = ["metric_name", "timestamp", "value", "tags"] + (["pod_name", "namespace", "service_name", "status_code"] if extra else [])
            out_rows = []
            for (name, t, v, tags, sc) in rws:
                tg = json.dumps(tags) if not self.st.get("pydict") else repr(tags)
                r = [name, mt(t), v, tg]
                if extra:
                    r += [tags.get("pod", ""), tags.get("namespace", ""), tags.get("service_name", ""), sc]
                out_rows.append(r)
            wtsv(os.path.join("metrics", fname + ".tsv"), hdr, out_rows)
        # alerts: one dump per minute
        env = self.st.get("alerts", "prom")
        for mi in range(1, self.W + 1):
            t = self.T(mi)
            act = []
            for (name, s, e, labels, summary, sev, value) in self.alerts:
                if s > mi or (e is not None and e < mi):
                    continue
                state = "pending" if mi - s < 1 else "firing"
                lab = dict({"alertname": name, "severity": sev}, **labels)
                ann = {"summary": summary, "description": summary}
                if env == "am2":
                    if state == "pending":
                        continue
                    act.append({"labels": lab, "annotations": ann, "startsAt": iso(self.T(s) , True),
                                "endsAt": iso(t + timedelta(minutes=4), True), "updatedAt": iso(t, True),
                                "generatorURL": "http://prometheus-server.prometheus:9090/graph?g0.expr=" + name,
                                "fingerprint": H(json.dumps(lab, sort_keys=True), 16),
                                "status": {"state": "active", "silencedBy": [], "inhibitedBy": []}, "receivers": [{"name": "sre-pager"}]})
                else:
                    a = {"labels": lab, "annotations": ann, "state": state,
                         "activeAt": iso(self.T(s), True) if self.st.get("activefrac") else iso(self.T(s)),
                         "value": str(value if value is not None else "1e+00")}
                    act.append(a)
            if env == "prom":
                doc = {"status": "success", "data": {"alerts": act}}
            elif env == "data":
                doc = {"data": {"alerts": act}}
            elif env == "alerts":
                doc = {"alerts": act, "timestamp": iso(t)}
            else:
                doc = act
            with open(os.path.join(d, "alerts", "alerts_at_%s.json" % t.strftime("%Y-%m-%dT%H-%M-%S.%f")), "w") as f:
                json.dump(doc, f, indent=1 if env in ("prom", "am2") else None)
        with open(os.path.join(d, "ground_truth.yaml"), "w") as f:
            f.write(to_yaml(gt))


# --------------------------------------------------------------------------- tiny YAML writer
def ys(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    return json.dumps(v)


def to_yaml(o, ind=0):
    sp = "  " * ind
    out = ""
    if isinstance(o, dict):
        for k, v in o.items():
            if isinstance(v, (dict, list)) and v:
                out += "%s%s:\n%s" % (sp, k, to_yaml(v, ind + 1))
            else:
                out += "%s%s: %s\n" % (sp, k, ys(v) if not isinstance(v, (dict, list)) else ("{}" if isinstance(v, dict) else "[]"))
    elif isinstance(o, list):
        for v in o:
            if isinstance(v, (dict, list)) and v:
                inner = to_yaml(v, ind + 1)
                out += "%s- %s\n" % (sp, inner.strip("\n").lstrip(" ").replace("\n", "\n", -1)) if False else \
                    "%s-\n%s" % (sp, inner)
            else:
                out += "%s- %s\n" % (sp, ys(v))
    return out


def gtdoc(n, groups, aliases, props, fault, alerts, actions, wrapped):
    spec = {"groups": groups, "aliases": aliases, "propagations": props, "fault": fault, "alerts": alerts,
            "recommended_actions": [{"solution": {"id": a[0], "actions": a[1]}} for a in actions]}
    if wrapped:
        return {"apiVersion": "itbench.io/v1", "kind": "GroundTruth", "metadata": {"name": "scenario-%d" % n}, "spec": spec}
    d = dict(spec)
    d["metadata"] = {"version": "v1"}
    return d


def svc_group(app, ns=NS):
    return {"id": "%s-service-1" % app, "kind": "Service", "namespace": ns, "name": app, "filter": ["^%s$" % app]}


def pod_group(app, ns=NS):
    return {"id": "%s-pod-1" % app, "kind": "Pod", "namespace": ns, "filter": ["^%s-[a-z0-9]{8,10}-[a-z0-9]{5}$" % app]}


def dep_group(app, ns=NS, rc=False):
    g = {"id": "%s-deployment-1" % app, "kind": "Deployment", "namespace": ns, "name": app, "filter": ["^%s$" % app]}
    if rc:
        g["root_cause"] = True
    return g


def prop(s, t, c, e):
    return {"source": s, "target": t, "condition": c, "effect": e}


# =========================================================================== scenarios
T0 = datetime(2026, 10, 14, 3, 12, 0, tzinfo=timezone.utc)


def harmless_image_bump(inc, m, app, tag="2.0.2-%s-p1"):
    def f():
        def mut(d):
            d["spec"]["template"]["spec"]["containers"][0]["image"] = IMG.replace("2.0.2-", "") + (tag % app)
        inc.rollout(m, app, mut)
    inc.at(m, f)


def restart_rollout(inc, m, app, who="kubectl-rollout", ns=NS):
    def f():
        inc.rollout(m, app, lambda d: None, ns=ns, manager=who,
                    reason_ann={"kubectl.kubernetes.io/restartedAt": iso(inc.T(m))})
    inc.at(m, f)


def std_alerts(inc, F, svcs, end=None, name="RequestErrorRate", extra=None):
    for i, s in enumerate(svcs):
        inc.alert(name, F + 1 + 0.5 * i, end, {"service_name": s, "namespace": NS, **(extra or {})},
                  "%s for %s is above threshold" % ("Error rate" if "Error" in name else "p95 latency", s),
                  sev="critical" if s == "frontend-proxy" else "warning")


# ---------------------------------------------------------------- 1 catalogue: Chaos Mesh Schedule -> PodChaos pod-failure on currency
def s1():
    inc = Inc(1, 101, T0, {"alerts": "prom", "ev": "v1", "mf": True, "ts": "ch", "mts": "iso"})
    F = 18.0  # 03:30:00, when the cron schedule fires
    inc.base("staging", [("recommendation", "ghcr.io/acme-shop/recommendation:pr-1182")])
    inc.base_noise(7.3, [("recommendation", "ModuleNotFoundError: No module named 'grpc_health'")])
    sched = {"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "Schedule",
             "metadata": {"name": "currency-pod-failure", "namespace": "chaos-mesh",
                          "annotations": {"chaos-mesh.org/description": "gameday GD-114: currency resilience"}},
             "spec": {"schedule": "30 3 * * *", "concurrencyPolicy": "Forbid", "historyLimit": 1, "type": "PodChaos",
                      "podChaos": {"action": "pod-failure", "mode": "all", "duration": "6m",
                                   "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/name": "currency"}}}},
             "status": {"lastScheduleTime": iso(inc.T(F) - timedelta(days=1)), "active": []}}
    inc.put(-1, sched, record=False)  # left over from a gameday; fires daily at 03:30
    old = {"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "Schedule",
           "metadata": {"name": "shipping-latency-weekly", "namespace": "chaos-mesh",
                        "annotations": {"experiment.chaos-mesh.org/pause": "true"}},
           "spec": {"schedule": "0 14 * * 3", "type": "NetworkChaos", "concurrencyPolicy": "Forbid",
                    "networkChaos": {"action": "delay", "mode": "one", "delay": {"latency": "300ms"},
                                     "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/name": "shipping"}}}}}
    inc.put(-1, old, record=False)
    pc_name = "currency-pod-failure-" + rnd_suffix("pc1", 5)

    def sched_status():
        sc = inc.get("Schedule", "currency-pod-failure", "chaos-mesh")
        sc["status"] = {"lastScheduleTime": iso(inc.T(F)), "active": [{"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "PodChaos", "name": pc_name, "namespace": "chaos-mesh"}]}
        inc.put(F + 0.01, sc, manager="chaos-controller-manager")

    def spawn():
        pc = {"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "PodChaos",
              "metadata": {"name": pc_name, "namespace": "chaos-mesh", "labels": {"managed-by": "currency-pod-failure"},
                           "ownerReferences": [{"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "Schedule", "name": "currency-pod-failure", "controller": True}]},
              "spec": sched["spec"]["podChaos"],
              "status": {"experiment": {"desiredPhase": "Run", "containerRecords": [{"id": "%s/%s" % (NS, inc.pods[(NS, "currency")]), "phase": "Injected", "selectorKey": "."}]}}}
        inc.put(F, pc, manager="chaos-controller-manager")
        inc.ev(F, "Schedule", "currency-pod-failure", "Spawned", "Create new object: " + pc_name, ns="chaos-mesh", comp="schedule-controller")
        inc.ev(F + 0.01, "PodChaos", pc_name, "FinalizerInited", "Finalizer has been inited", ns="chaos-mesh", comp="initFinalizers")
        inc.ev(F + 0.02, "PodChaos", pc_name, "Started", "Experiment has started", ns="chaos-mesh", comp="desiredphase")
        inc.ev(F + 0.04, "PodChaos", pc_name, "Applied", "Successfully apply chaos for %s/%s" % (NS, inc.pods[(NS, "currency")]), ns="chaos-mesh", comp="records")
        cp = inc.pods[(NS, "currency")]
        host = inc.podnode.get(cp)
        inc.ev(F + 0.05, "Pod", cp, "Killing", "Container currency definition changed, will be restarted", host=host)
        inc.ev(F + 0.1, "Pod", cp, "Pulling", 'Pulling image "gcr.io/google-containers/pause:latest"', host=host)
        inc.ev(F + 0.2, "Pod", cp, "Started", "Started container currency", host=host)
        inc.repeat_ev(F + 0.4, F + 6, 0.5, "Pod", cp, "Unhealthy", "Readiness probe failed: dial tcp %s:8080: connect: connection refused" % inc.ip("pod/" + cp),
                      etype="Warning", host=host)
        p = inc.get("Pod", cp)
        p["spec"]["containers"][0]["image"] = "gcr.io/google-containers/pause:latest"
        p["status"]["conditions"][0]["status"] = "False"
        p["status"]["containerStatuses"][0].update({"ready": False, "restartCount": 1, "image": "gcr.io/google-containers/pause:latest"})
        inc.put(F + 0.3, p, manager="chaos-daemon")

    inc.at(F + 0.01, sched_status)

    def recover():
        cp = inc.pods[(NS, "currency")]
        inc.ev(F + 6.0, "PodChaos", pc_name, "Recovered", "Successfully recover chaos for %s/%s" % (NS, cp), ns="chaos-mesh", comp="records")
        inc.ev(F + 6.02, "Pod", cp, "Killing", "Container currency definition changed, will be restarted", host=inc.podnode.get(cp))
        inc.ev(F + 6.1, "Pod", cp, "Started", "Started container currency", host=inc.podnode.get(cp))
        p = inc.get("Pod", cp)
        p["spec"]["containers"][0]["image"] = IMG + "currency"
        p["status"]["conditions"][0]["status"] = "True"
        p["status"]["containerStatuses"][0].update({"ready": True, "restartCount": 2, "image": IMG + "currency"})
        inc.put(F + 6.2, p, manager="chaos-daemon")
    inc.at(F + 6.0, recover)
    inc.at(F, spawn)
    harmless_image_bump(inc, F - 1.6, "ad")
    restart_rollout(inc, F + 1.2, "fraud-detection")
    inc.fault = lambda m, caller, callee, op: (
        {"unreach": "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED %s:8080" % inc.ip("svc/" + NS + "currency", "10.96")
         if caller == "frontend" else "rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial tcp %s:8080: connect: connection refused\"" % inc.ip("svc/" + NS + "currency", "10.96")}
        if callee == "currency" and F + 0.1 <= m < F + 6 else None)
    inc.run_actions()
    inc.traffic()
    std_alerts(inc, F, ["frontend", "frontend-proxy", "checkout"], end=F + 7)
    inc.alert("KubePodNotReady", F + 1.5, F + 6.5, {"namespace": NS, "pod": inc.pods[(NS, "currency")], "job": "kube-state-metrics"},
              "Pod %s/%s has been in a non-ready state for longer than 1 minute." % (NS, inc.pods[(NS, "currency")]))
    inc.alert("KubeDeploymentReplicasMismatch", 3, None, {"namespace": "staging", "deployment": "recommendation"},
              "Deployment staging/recommendation has not matched the expected number of replicas for longer than 15 minutes.")
    inc.compute_metrics()
    groups = [{"id": "currency-pod-failure-schedule", "kind": "Schedule", "namespace": "chaos-mesh", "name": "currency-pod-failure",
               "filter": ["^currency-pod-failure$"], "root_cause": True},
              {"id": "currency-pod-failure-podchaos", "kind": "PodChaos", "namespace": "chaos-mesh", "name": pc_name,
               "filter": ["^currency-pod-failure-[a-z0-9]+$"]},
              svc_group("currency"), pod_group("currency"), svc_group("frontend"), pod_group("frontend"),
              svc_group("checkout"), svc_group("frontend-proxy")]
    aliases = [["currency-pod-failure-schedule", "currency-pod-failure-podchaos"], ["currency-service-1", "currency-pod-1"],
               ["frontend-service-1", "frontend-pod-1"]]
    props = [prop("currency-pod-failure-schedule", "currency-pod-failure-podchaos", "Schedule fires", "PodChaos pod-failure created"),
             prop("currency-pod-failure-podchaos", "currency-pod-1", "pod-failure injected", "currency container replaced by pause image, pod not ready"),
             prop("currency-pod-1", "currency-service-1", "no ready endpoints", "connections to currency refused"),
             prop("currency-service-1", "frontend-service-1", "Convert/GetSupportedCurrencies fail", "frontend returns 500"),
             prop("currency-service-1", "checkout-service-1", "Convert fails", "PlaceOrder fails"),
             prop("frontend-service-1", "frontend-proxy-service-1", "frontend errors", "frontend-proxy error rate above threshold")]
    fault = [{"category": "Chaos", "condition": "PodChaos pod-failure on currency",
              "entity": {"kind": "Schedule", "name": "currency-pod-failure", "group_id": "currency-pod-failure-schedule"},
              "fault_mechanism": "chaos-mesh(PodChaos pod-failure)"}]
    alerts = [{"group_id": "frontend-service-1", "id": "RequestErrorRate"}, {"group_id": "checkout-service-1", "id": "RequestErrorRate"},
              {"group_id": "frontend-proxy-service-1", "id": "RequestErrorRate"}, {"group_id": "currency-pod-1", "id": "KubePodNotReady"}]
    return inc, gtdoc(1, groups, aliases, props, fault, alerts,
                      [("delete-schedule", ["kubectl -n chaos-mesh delete schedule currency-pod-failure"])], True)


def move_pod(inc, app, node, ns=NS):
    pn = inc.pods[(ns, app)]
    p = inc.get("Pod", pn, ns)
    p["spec"]["nodeName"] = node
    p["status"]["hostIP"] = inc.ip(node, "10.0")
    inc.podnode[pn] = node
    inc.put(-1, p, record=False)


# ---------------------------------------------------------------- 2 novel: webhook backend scaled to 0 in platform-system; autoscaler scale-down evicts pods that cannot be recreated
def s2():
    inc = Inc(2, 202, T0 + timedelta(days=3, hours=9, minutes=41), {"alerts": "am2", "ev": "events.k8s.io", "mf": True, "ts": "ch",
                                                                     "mts": "epoch_ms", "metric_cols": True,
                                                                     "nodes": ["ip-10-0-31-7.eu-west-1.compute.internal", "ip-10-0-47-112.eu-west-1.compute.internal",
                                                                               "ip-10-0-58-203.eu-west-1.compute.internal", "ip-10-0-12-90.eu-west-1.compute.internal"]})
    F = 17.2
    N2 = inc.nodes[1]
    inc.base("batch-jobs", [("report-exporter", "registry.internal.example/batch/report-exporter:1.9.0")])
    for app in ("product-catalog", "email", "image-provider"):
        move_pod(inc, app, N2)
    inc.base_noise(4.1, [("report-exporter", "panic: runtime error: invalid memory address or nil pointer dereference [signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x9f3c21]")])
    PS = "platform-system"
    wh = inc.deployment("pod-defaults-webhook", ns=PS, image="registry.internal.example/platform/pod-defaults-webhook:v0.14.2", replicas=2,
                        labels={"app.kubernetes.io/part-of": "platform"})
    inc.put(-1, wh, record=False)
    inc.put(-1, inc.service("pod-defaults-webhook", ns=PS, port=443), record=False)
    wpods = []
    for i in range(2):
        pn = "pod-defaults-webhook-7d9f8c6b4-" + rnd_suffix("wh%d" % i, 5)
        wpods.append(pn)
        inc.put(-1, inc.pod_obj("pod-defaults-webhook", pn, "7d9f8c6b4", wh, ns=PS), record=False)
    mwc = {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingWebhookConfiguration",
           "metadata": {"name": "pod-defaults-webhook", "labels": {"app.kubernetes.io/part-of": "platform"},
                        "creationTimestamp": iso(inc.t0 - timedelta(days=46))},
           "webhooks": [{"name": "pods.defaults.platform.example.com", "admissionReviewVersions": ["v1"], "sideEffects": "None",
                         "failurePolicy": "Fail", "timeoutSeconds": 10, "matchPolicy": "Equivalent", "reinvocationPolicy": "Never",
                         "clientConfig": {"service": {"name": "pod-defaults-webhook", "namespace": PS, "path": "/mutate-v1-pod", "port": 443}},
                         "namespaceSelector": {"matchExpressions": [{"key": "platform.example.com/webhook-opt-out", "operator": "NotIn", "values": ["true"]}]},
                         "rules": [{"apiGroups": [""], "apiVersions": ["v1"], "operations": ["CREATE"], "resources": ["pods"], "scope": "Namespaced"}]}]}
    inc.put(-1, mwc, record=False)
    inc.put(-1, {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": PS, "labels": {"platform.example.com/webhook-opt-out": "true", "kubernetes.io/metadata.name": PS}}}, record=False)
    inc.put(-1, {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NS, "labels": {"kubernetes.io/metadata.name": NS}}}, record=False)
    harmless_image_bump(inc, F - 9.3, "cart")

    def scale_down():
        d = inc.get("Deployment", "pod-defaults-webhook", PS)
        d["spec"]["replicas"] = 0
        d["metadata"]["generation"] += 1
        d["status"] = {"observedGeneration": d["metadata"]["generation"]}
        inc.put(F - 6.8, d, manager="kubectl")
        inc.ev(F - 6.8, "Deployment", "pod-defaults-webhook", "ScalingReplicaSet", "Scaled down replica set pod-defaults-webhook-7d9f8c6b4 to 0 from 2",
               ns=PS, comp="deployment-controller")
        for i, pn in enumerate(wpods):
            inc.ev(F - 6.79, "ReplicaSet", "pod-defaults-webhook-7d9f8c6b4", "SuccessfulDelete", "Deleted pod: " + pn, ns=PS, comp="replicaset-controller")
            inc.ev(F - 6.78, "Pod", pn, "Killing", "Stopping container pod-defaults-webhook", ns=PS, host=inc.podnode.get(pn))
            inc.delete(F - 6.7, "Pod", pn, PS)
        inc.log(F - 6.75, "pod-defaults-webhook", "INFO", '{"level":"info","ts":%d.118,"logger":"setup","msg":"shutting down webhook server","signal":"terminated"}' % int(inc.T(F - 6.75).timestamp()),
                ns=PS, pod=wpods[0])

    def scale_node_down():
        n = inc.get("Node", N2, "")
        n["spec"]["unschedulable"] = True
        n["spec"]["taints"] = [{"key": "ToBeDeletedByClusterAutoscaler", "value": str(int(inc.T(F).timestamp())), "effect": "NoSchedule"}]
        inc.put(F, n, manager="cluster-autoscaler")
        inc.ev(F, "Node", N2, "ScaleDown", "marked the node as toBeDeleted/unschedulable", ns="", comp="cluster-autoscaler")
        for app in ("product-catalog", "email", "image-provider"):
            pn = inc.pods[(NS, app)]
            rs = "%s-%s" % (app, inc.rs[(NS, app)])
            inc.ev(F + 0.05, "Pod", pn, "ScaleDown", "deleting pod for node scale down", comp="cluster-autoscaler")
            inc.ev(F + 0.07, "Pod", pn, "Killing", "Stopping container " + app, host=N2)
            inc.delete(F + 0.1, "Pod", pn)
            inc.setpod(NS, app, app, F + 0.1)
            inc.repeat_ev(F + 0.1, inc.W - 0.5, 1.3, "ReplicaSet", rs, "FailedCreate",
                          'Error creating: Internal error occurred: failed calling webhook "pods.defaults.platform.example.com": failed to call webhook: Post "https://pod-defaults-webhook.platform-system.svc:443/mutate-v1-pod?timeout=10s": no endpoints available for service "pod-defaults-webhook"',
                          etype="Warning", comp="replicaset-controller")
            d = inc.get("Deployment", app)
            d["status"] = {"replicas": 0, "readyReplicas": 0, "availableReplicas": 0, "unavailableReplicas": 1, "observedGeneration": 3,
                           "conditions": [{"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable", "message": "Deployment does not have minimum availability."},
                                          {"type": "ReplicaFailure", "status": "True", "reason": "FailedCreate",
                                           "message": 'Internal error occurred: failed calling webhook "pods.defaults.platform.example.com": failed to call webhook: Post "https://pod-defaults-webhook.platform-system.svc:443/mutate-v1-pod?timeout=10s": no endpoints available for service "pod-defaults-webhook"'}]}
            inc.put(F + 0.3, d, manager="kube-controller-manager")
        inc.ev(F + 2.6, "Node", N2, "RemovingNode", "Node %s event: Removing Node %s from Controller" % (N2, N2), ns="", comp="node-controller")

    def node_gone():
        inc.delete(F + 2.6, "Node", N2, "")

    inc.at(F - 6.8, scale_down)
    inc.at(F, scale_node_down)
    inc.at(F + 2.6, node_gone)
    pc_ip = inc.ip("svc/" + NS + "product-catalog", "10.96")

    def fx(m, caller, callee, op):
        if m < F + 0.1:
            return None
        if callee == "product-catalog":
            return {"unreach": {"frontend": "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED %s:8080" % pc_ip,
                                "recommendation": "<_InactiveRpcError of RPC that terminated with: status = StatusCode.UNAVAILABLE details = \"failed to connect to all addresses; last error: UNKNOWN: ipv4:%s:8080: Failed to connect to remote host: Connection refused\">" % pc_ip,
                                "checkout": "rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial tcp %s:8080: connect: connection refused\"" % pc_ip}[caller]}
        if callee == "email":
            return {"unreach": "Post \"http://email:8080/send_order_confirmation\": dial tcp %s:8080: connect: connection refused" % inc.ip("svc/" + NS + "email", "10.96")}
        return None
    inc.fault = fx
    inc.run_actions()
    inc.traffic()
    std_alerts(inc, F, ["frontend", "frontend-proxy", "recommendation", "checkout"])
    for i, app in enumerate(("product-catalog", "email", "image-provider")):
        inc.alert("KubeDeploymentReplicasMismatch", F + 1.2 + 0.2 * i, None, {"namespace": NS, "deployment": app, "job": "kube-state-metrics"},
                  "Deployment %s/%s has not matched the expected number of replicas for longer than 15 minutes." % (NS, app))
    inc.alert("KubeDeploymentRolloutStuck", F + 3.1, None, {"namespace": NS, "deployment": "product-catalog", "condition": "ReplicaFailure"},
              "Rollout of deployment otel-demo/product-catalog is not progressing for longer than 15 minutes.")
    inc.compute_metrics()
    groups = [dep_group("pod-defaults-webhook", ns=PS, rc=True),
              svc_group("pod-defaults-webhook", ns=PS),
              {"id": "pod-defaults-webhook-pod-1", "kind": "Pod", "namespace": PS, "filter": ["^pod-defaults-webhook-[a-z0-9]+-[a-z0-9]{5}$"]},
              {"id": "pod-defaults-webhook-mwc", "kind": "MutatingWebhookConfiguration", "name": "pod-defaults-webhook", "filter": ["^pod-defaults-webhook$"]},
              svc_group("product-catalog"), pod_group("product-catalog"), dep_group("product-catalog"),
              svc_group("email"), svc_group("recommendation"), svc_group("checkout"), svc_group("frontend"), svc_group("frontend-proxy")]
    aliases = [["pod-defaults-webhook-deployment-1", "pod-defaults-webhook-service-1", "pod-defaults-webhook-pod-1", "pod-defaults-webhook-mwc"],
               ["product-catalog-service-1", "product-catalog-pod-1", "product-catalog-deployment-1"]]
    props = [prop("pod-defaults-webhook-deployment-1", "pod-defaults-webhook-mwc", "webhook backend scaled to 0 while the failurePolicy=Fail webhook stays registered",
                  "every Pod CREATE in opted-in namespaces is rejected"),
             prop("pod-defaults-webhook-mwc", "product-catalog-deployment-1", "node scale-down deletes product-catalog's pod",
                  "ReplicaSet cannot create a replacement (FailedCreate)"),
             prop("product-catalog-deployment-1", "product-catalog-service-1", "no pods", "no endpoints, connections refused"),
             prop("product-catalog-service-1", "recommendation-service-1", "ListProducts fails", "recommendation errors"),
             prop("product-catalog-service-1", "frontend-service-1", "GetProduct/ListProducts fail", "frontend 500s"),
             prop("product-catalog-service-1", "checkout-service-1", "GetProduct fails", "PlaceOrder fails"),
             prop("frontend-service-1", "frontend-proxy-service-1", "frontend errors", "error rate above threshold")]
    fault = [{"category": "Change", "condition": "admission webhook backend scaled to zero (failurePolicy Fail)",
              "entity": {"kind": "Deployment", "name": "pod-defaults-webhook", "group_id": "pod-defaults-webhook-deployment-1"},
              "fault_mechanism": "custom(admission webhook unavailable)"}]
    alerts = [{"group_id": "frontend-service-1", "id": "RequestErrorRate"}, {"group_id": "frontend-proxy-service-1", "id": "RequestErrorRate"},
              {"group_id": "recommendation-service-1", "id": "RequestErrorRate"}, {"group_id": "checkout-service-1", "id": "RequestErrorRate"},
              {"group_id": "product-catalog-deployment-1", "id": "KubeDeploymentReplicasMismatch"}]
    return inc, gtdoc(2, groups, aliases, props, fault, alerts,
                      [("scale-webhook-up", ["kubectl -n platform-system scale deployment pod-defaults-webhook --replicas=2"])], False)


# ---------------------------------------------------------------- 3 catalogue: flagd paymentFailure 50%
def s3():
    inc = Inc(3, 303, T0 + timedelta(days=5, hours=14, minutes=3), {"alerts": "data", "ev": "events.k8s.io", "mf": False, "ts": "ch",
                                                                      "dbl": True, "mts": "iso"})
    F = 18.7
    inc.base("staging", [("ad", "ghcr.io/open-telemetry/demo:2.0.2-ad")])
    inc.base_noise(24.2, [("ad", "Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space")])
    sflags = json.loads(json.dumps(inc.flags))
    inc.put(-1, {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "flagd-config", "namespace": "staging"},
                 "data": {"demo.flagd.json": json.dumps(sflags, indent=2)}}, record=False)

    def staging_flag():
        sflags["flags"]["adFailure"]["defaultVariant"] = "on"
        inc.put(F - 2.3, {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "flagd-config", "namespace": "staging"},
                          "data": {"demo.flagd.json": json.dumps(sflags, indent=2)}}, manager="flagd-ui")

    def prod_flag():
        fl = json.loads(json.dumps(inc.flags))
        fl["flags"]["paymentFailure"]["defaultVariant"] = "50%"
        cm = inc.get("ConfigMap", "flagd-config")
        cm["data"]["demo.flagd.json"] = json.dumps(fl, indent=2)
        inc.put(F, cm, manager="flagd-ui")
        inc.log(F + 0.2, "flagd", "INFO", 'configuration change (write) for flagSource /etc/flagd/demo.flagd.json')
        inc.log(F + 0.21, "flagd", "INFO", "flag set updated: paymentFailure")

    def lg_users():
        def mut(d):
            d["spec"]["template"]["spec"]["containers"][0]["env"].append({"name": "LOCUST_USERS", "value": "14"})
        inc.rollout(F - 4.1, "load-generator", mut, manager="helm")

    inc.at(F - 2.3, staging_flag)
    inc.at(F, prod_flag)
    inc.at(F - 4.1, lg_users)
    harmless_image_bump(inc, F + 0.7, "shipping")

    def fx(m, caller, callee, op):
        if callee == "payment" and m >= F + 0.25 and inc.r.random() < 0.5:
            return {"err": "Payment request failed. Invalid token. app.loyalty.level=gold"}
        return None
    inc.fault = fx
    inc.traffic_scale = lambda m: 1.0 if m < F - 4.1 else 1.0
    inc.run_actions()
    inc.traffic(every_s=3.4)
    std_alerts(inc, F, ["checkout", "frontend", "frontend-proxy"])
    inc.alert("RequestErrorRate", F + 2.4, None, {"service_name": "payment", "namespace": NS}, "Error rate for payment is above threshold")
    inc.alert("RequestErrorRate", F - 1.0, None, {"service_name": "ad", "namespace": "staging"}, "Error rate for ad is above threshold")
    inc.compute_metrics()
    groups = [{"id": "flagd-config", "kind": "ConfigMap", "namespace": NS, "name": "flagd-config", "filter": ["^flagd-config$"], "root_cause": True},
              svc_group("payment"), pod_group("payment"), svc_group("checkout"), pod_group("checkout"), svc_group("frontend"), svc_group("frontend-proxy")]
    aliases = [["payment-service-1", "payment-pod-1"], ["checkout-service-1", "checkout-pod-1"]]
    props = [prop("flagd-config", "payment-service-1", "paymentFailure defaultVariant off -> 50%", "half of Charge calls fail with Invalid token"),
             prop("payment-service-1", "checkout-service-1", "Charge fails", "PlaceOrder fails"),
             prop("checkout-service-1", "frontend-service-1", "PlaceOrder fails", "POST /api/checkout 500"),
             prop("frontend-service-1", "frontend-proxy-service-1", "frontend errors", "error rate above threshold")]
    fault = [{"category": "Configuration Setting", "condition": "paymentFailure flag set to 50%",
              "changed": {"element": "data.demo\\.flagd\\.json", "from": '"defaultVariant": "off"', "to": '"defaultVariant": "50%"'},
              "entity": {"kind": "ConfigMap", "name": "flagd-config", "group_id": "flagd-config"}, "fault_mechanism": "custom(flagd)"}]
    alerts = [{"group_id": "checkout-service-1", "id": "RequestErrorRate"}, {"group_id": "frontend-service-1", "id": "RequestErrorRate"},
              {"group_id": "frontend-proxy-service-1", "id": "RequestErrorRate"}, {"group_id": "payment-service-1", "id": "RequestErrorRate"}]
    return inc, gtdoc(3, groups, aliases, props, fault, alerts, [("disable-flag", ["set paymentFailure defaultVariant to off in otel-demo/flagd-config"])], True)


# ---------------------------------------------------------------- 4 novel: data-eng CronJob without memory limit drives a node into MemoryPressure; kubelet evicts otel-demo pods
def s4():
    inc = Inc(4, 404, T0 + timedelta(days=8, hours=20, minutes=57), {"alerts": "prom", "ev": "v1", "mf": True, "ts": "iso", "mts": "epoch",
                                                                       "pandas_index": True, "activefrac": True})
    F = 16.5
    N3 = inc.nodes[2]
    DE = "data-eng"
    inc.base(DE, [("airflow-scheduler", "apache/airflow:2.9.3-python3.11")])
    for app in ("valkey-cart", "kafka", "accounting"):
        move_pod(inc, app, N3)
    inc.base_noise(9.6, [("airflow-scheduler", "sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at \"airflow-postgresql.data-eng\" (10.96.77.4), port 5432 failed: FATAL:  remaining connection slots are reserved for non-replication superuser connections")])
    job_sched = 29342712
    cj = {"apiVersion": "batch/v1", "kind": "CronJob",
          "metadata": {"name": "warehouse-backfill", "namespace": DE, "labels": {"team": "data-eng", "app.kubernetes.io/managed-by": "argocd"}},
          "spec": {"schedule": "0 */6 * * *", "concurrencyPolicy": "Forbid", "successfulJobsHistoryLimit": 3, "failedJobsHistoryLimit": 1,
                   "jobTemplate": {"spec": {"backoffLimit": 4, "template": {"spec": {
                       "priorityClassName": "data-pipeline-high", "restartPolicy": "Never",
                       "containers": [{"name": "backfill", "image": "registry.internal.example/data/warehouse-backfill:2026.10.2",
                                       "args": ["--from=2026-01-01", "--to=2026-10-21", "--parallelism=16"],
                                       "resources": {"requests": {"cpu": "500m", "memory": "512Mi"}}}]}}}}},
          "status": {"lastScheduleTime": iso(inc.T(-340))}}
    inc.put(-1, cj, record=False)
    inc.put(-1, {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "data-pipeline-high"}, "value": 100000,
                 "globalDefault": False, "description": "data pipeline jobs that must finish before business hours"}, record=False)
    jname = "warehouse-backfill-%d" % job_sched
    jm = 2.0
    p1 = jname + "-" + rnd_suffix("bf1", 5)
    p2 = jname + "-" + rnd_suffix("bf2", 5)
    victims = [("valkey-cart", F, 18256, 0.7, inc.nodes[0]), ("kafka", F + 1.3, 611402, 2.9, inc.nodes[3])]
    victims2 = [("accounting", F + 12.6, 148221, 0.9, inc.nodes[0])]

    def job_start():
        cj2 = inc.get("CronJob", "warehouse-backfill", DE)
        cj2["status"] = {"active": [{"kind": "Job", "name": jname, "namespace": DE}], "lastScheduleTime": iso(inc.T(jm))}
        inc.put(jm, cj2, manager="kube-controller-manager")
        job = {"apiVersion": "batch/v1", "kind": "Job",
               "metadata": {"name": jname, "namespace": DE, "labels": {"team": "data-eng"},
                            "ownerReferences": [{"apiVersion": "batch/v1", "kind": "CronJob", "name": "warehouse-backfill", "controller": True}],
                            "creationTimestamp": iso(inc.T(jm))},
               "spec": cj["spec"]["jobTemplate"]["spec"], "status": {"active": 1, "startTime": iso(inc.T(jm))}}
        inc.put(jm, job, manager="kube-controller-manager")
        inc.ev(jm, "CronJob", "warehouse-backfill", "SuccessfulCreate", "Created job " + jname, ns=DE, comp="cronjob-controller")
        inc.ev(jm + 0.01, "Job", jname, "SuccessfulCreate", "Created pod: " + p1, ns=DE, comp="job-controller")
        inc.ev(jm + 0.02, "Pod", p1, "Scheduled", "Successfully assigned %s/%s to %s" % (DE, p1, N3), ns=DE, comp="default-scheduler")
        inc.ev(jm + 0.3, "Pod", p1, "Started", "Started container backfill", ns=DE, host=N3)
        inc.podnode[p1] = N3
        inc.setpod(DE, "warehouse-backfill", p1, jm)
        dep = {"spec": {"template": {"metadata": {"labels": {"job-name": jname}}, "spec": cj["spec"]["jobTemplate"]["spec"]["template"]["spec"]}}}
        po = inc.pod_obj("backfill", p1, jname, dep, ns=DE, node=N3, start_m=jm + 0.3, owner_kind="Job")
        po["spec"]["priority"] = 100000
        po["spec"]["priorityClassName"] = "data-pipeline-high"
        inc.put(jm + 0.3, po, manager="kubelet")

    def evict(app, m, used_ki, back, newnode):
        pn = inc.pods[(NS, app)]
        inc.ev(m, "Pod", pn, "Evicted", "The node was low on resource: memory. Threshold quantity: 100Mi, available: %dKi. Container %s was using %dKi, request is 0, has larger consumption of memory. " % (inc.r.randint(51000, 98000), app, used_ki),
               etype="Warning", host=N3)
        inc.ev(m + 0.01, "Pod", pn, "Killing", "Stopping container " + app, host=N3)
        p = inc.get("Pod", pn)
        p["status"] = {"phase": "Failed", "reason": "Evicted", "message": "The node was low on resource: memory. Threshold quantity: 100Mi, available: 61340Ki. Container %s was using %dKi, request is 0, has larger consumption of memory. " % (app, used_ki),
                       "qosClass": "Burstable"}
        inc.put(m + 0.02, p, manager="kubelet")
        rs = inc.rs[(NS, app)]
        np = "%s-%s-%s" % (app, rs, rnd_suffix(app + "ev" + str(m), 5))
        inc.podnode[np] = newnode
        inc.ev(m + 0.03, "ReplicaSet", app + "-" + rs, "SuccessfulCreate", "Created pod: " + np, comp="replicaset-controller")
        inc.ev(m + 0.04, "Pod", np, "Scheduled", "Successfully assigned %s/%s to %s" % (NS, np, newnode), comp="default-scheduler")
        inc.ev(m + 0.3, "Pod", np, "Started", "Started container " + app, host=newnode)
        inc.setpod(NS, app, np, m + back)
        inc.put(m + back, inc.pod_obj(app, np, rs, inc.get("Deployment", app), node=newnode, start_m=m + 0.3))

    def pressure(m, n):
        node = inc.get("Node", N3, "")
        node["status"]["conditions"][0] = {"type": "MemoryPressure", "status": "True", "reason": "KubeletHasInsufficientMemory",
                                           "message": "kubelet has insufficient memory available", "lastTransitionTime": iso(inc.T(m))}
        node["spec"]["taints"] = [{"key": "node.kubernetes.io/memory-pressure", "effect": "NoSchedule", "timeAdded": iso(inc.T(m))}]
        inc.put(m, node, manager="kubelet")
        inc.ev(m, "Node", N3, "EvictionThresholdMet", "Attempting to reclaim memory", etype="Warning", ns="", host=N3)
        inc.ev(m + 0.01, "Node", N3, "NodeHasInsufficientMemory", "Node %s status is now: NodeHasInsufficientMemory" % N3, ns="", host=N3)

    def relief(m):
        node = inc.get("Node", N3, "")
        node["status"]["conditions"][0] = {"type": "MemoryPressure", "status": "False", "reason": "KubeletHasSufficientMemory",
                                           "message": "kubelet has sufficient memory available", "lastTransitionTime": iso(inc.T(m))}
        node["spec"].pop("taints", None)
        inc.put(m, node, manager="kubelet")
        inc.ev(m, "Node", N3, "NodeHasSufficientMemory", "Node %s status is now: NodeHasSufficientMemory" % N3, ns="", host=N3)

    def oom_and_retry():
        m = F + 5.2
        inc.ev(m, "Pod", p1, "OOMKilling", "Memory cgroup out of memory: Killed process 48213 (python3) total-vm:15482212kB, anon-rss:14011960kB", etype="Warning", ns=DE, comp="kernel-monitor", host=N3)
        po = inc.get("Pod", p1, DE)
        po["status"]["phase"] = "Failed"
        po["status"]["containerStatuses"][0]["state"] = {"terminated": {"exitCode": 137, "reason": "OOMKilled", "finishedAt": iso(inc.T(m))}}
        inc.put(m, po, manager="kubelet")
        relief(m + 0.6)
        inc.ev(m + 0.1, "Job", jname, "SuccessfulCreate", "Created pod: " + p2, ns=DE, comp="job-controller")
        inc.ev(m + 0.12, "Pod", p2, "Scheduled", "Successfully assigned %s/%s to %s" % (DE, p2, N3), ns=DE, comp="default-scheduler")
        inc.podnode[p2] = N3
        inc.setpod(DE, "warehouse-backfill", p2, m + 0.1)
        dep = {"spec": {"template": {"metadata": {"labels": {"job-name": jname}}, "spec": cj["spec"]["jobTemplate"]["spec"]["template"]["spec"]}}}
        po2 = inc.pod_obj("backfill", p2, jname, dep, ns=DE, node=N3, start_m=m + 0.4, owner_kind="Job")
        po2["spec"]["priority"] = 100000
        inc.put(m + 0.4, po2, manager="kubelet")

    inc.at(jm, job_start)
    inc.at(F - 0.2, lambda: pressure(F - 0.2, 1))
    for v in victims:
        inc.at(v[1], lambda v=v: evict(*v))
    inc.at(F + 5.2, oom_and_retry)
    inc.at(F + 12.3, lambda: pressure(F + 12.3, 2))
    for v in victims2:
        inc.at(v[1], lambda v=v: evict(*v))
    restart_rollout(inc, F - 1.1, "cart", who="argocd-controller")

    def fx(m, caller, callee, op):
        if callee == "valkey-cart" and F <= m < F + 0.75:
            return {"unreach": "StackExchange.Redis.RedisConnectionException: It was not possible to connect to the redis server(s). Error connecting right now. To allow this multiplexer to continue retrying until it's able to connect, use abortConnect=false. ConnectTimeout",
                    "timeout_ms": 5000}
        if callee == "kafka" and F + 1.3 <= m < F + 4.3:
            return {"unreach": "kafka: client has run out of available brokers to talk to: dial tcp %s:9092: connect: connection refused" % inc.ip("svc/" + NS + "kafka", "10.96")}
        if callee == "accounting" and F + 12.6 <= m < F + 13.6:
            return {"drop": True}
        return None
    inc.fault = fx

    def pm(mi, ns, app, metric, v):
        if metric == "mem" and app in ("valkey-cart", "kafka", "accounting"):
            return v
        return v
    inc.podmetric = pm
    inc.run_actions()
    inc.traffic()
    # backfill pod memory, node memory
    for mi in range(int(jm) + 1, inc.W):
        if mi < F + 5.2:
            mem = 0.6e9 + (mi - jm) / (F + 5.2 - jm) * 13.9e9
            pod = p1
        else:
            mem = 0.4e9 + max(0, (mi - F - 5.6)) / 7.0 * 13.5e9
            pod = p2
        inc.metric("pod_" + pod, "container_memory_working_set_bytes", mi, int(mem), {"namespace": DE, "pod": pod, "container": "backfill"})
        inc.metric("pod_" + pod, "container_cpu_usage_seconds_total:rate1m", mi, round(5.2 + inc.r.uniform(-0.8, 0.8), 3), {"namespace": DE, "pod": pod, "container": "backfill"})
    for mi in range(inc.W):
        if mi < jm:
            avail = 22.1e9
        elif mi < F + 5.2:
            avail = max(0.06e9, 22.1e9 - (mi - jm) / (F + 5.2 - jm) * 23e9)
        else:
            avail = max(0.07e9, 22.5e9 - max(0, mi - F - 5.6) / 7.0 * 23e9)
        inc.metric("node_" + N3, "node_memory_MemAvailable_bytes", mi, int(avail * inc.r.uniform(0.98, 1.02)), {"instance": N3, "job": "node-exporter"})
    std_alerts(inc, F, ["cart", "frontend", "frontend-proxy"], end=F + 3)
    inc.alert("KafkaProduceErrors", F + 2.3, F + 6, {"service_name": "checkout", "namespace": NS, "topic": "orders"}, "checkout fails to publish to topic orders")
    inc.alert("NodeMemoryHighUtilization", F - 1.5, F + 6, {"instance": N3, "job": "node-exporter", "severity": "warning"},
              "Memory is filling up at %s, available below 5%%." % N3)
    inc.alert("NodeMemoryHighUtilization", F + 11.5, None, {"instance": N3, "job": "node-exporter"}, "Memory is filling up at %s, available below 5%%." % N3)
    inc.alert("KubePodNotReady", F + 1.4, F + 4.5, {"namespace": NS, "pod": inc.podhist[(NS, "kafka")][1][1], "job": "kube-state-metrics"}, "Pod otel-demo/%s has been in a non-ready state for longer than 1 minute." % inc.podhist[(NS, "kafka")][1][1])
    inc.alert("KafkaConsumerGroupLag", F + 13.2, None, {"namespace": NS, "consumergroup": "accounting", "topic": "orders"}, "Consumer group accounting lag is growing on topic orders")
    inc.alert("KubeJobFailed", F + 5.3, F + 6.3, {"namespace": DE, "job_name": jname}, "Job %s/%s pod failed (OOMKilled), retrying." % (DE, jname))
    inc.compute_metrics()
    groups = [{"id": "warehouse-backfill-cronjob", "kind": "CronJob", "namespace": DE, "name": "warehouse-backfill", "filter": ["^warehouse-backfill$"], "root_cause": True},
              {"id": "warehouse-backfill-job", "kind": "Job", "namespace": DE, "name": jname, "filter": ["^warehouse-backfill-[0-9]+$"]},
              {"id": "warehouse-backfill-pod", "kind": "Pod", "namespace": DE, "filter": ["^warehouse-backfill-[0-9]+-[a-z0-9]{5}$"]},
              {"id": "node-3", "kind": "Node", "name": N3, "filter": ["^%s$" % N3]},
              pod_group("valkey-cart"), svc_group("valkey-cart"), pod_group("kafka"), svc_group("kafka"),
              svc_group("cart"), svc_group("checkout"), svc_group("frontend"), svc_group("frontend-proxy"), svc_group("accounting")]
    aliases = [["warehouse-backfill-cronjob", "warehouse-backfill-job", "warehouse-backfill-pod"],
               ["valkey-cart-pod-1", "valkey-cart-service-1"], ["kafka-pod-1", "kafka-service-1"]]
    props = [prop("warehouse-backfill-cronjob", "warehouse-backfill-job", "scheduled run 0 */6 * * * (no memory limit in the job template)", "Job created"),
             prop("warehouse-backfill-job", "warehouse-backfill-pod", "Job pod scheduled on %s with priority 100000" % N3, "pod memory grows to 14Gi"),
             prop("warehouse-backfill-pod", "node-3", "backfill container without memory limit grows to 14Gi", "node MemoryPressure"),
             prop("node-3", "valkey-cart-pod-1", "kubelet eviction (lower priority pods first)", "valkey-cart evicted"),
             prop("node-3", "kafka-pod-1", "kubelet eviction", "kafka evicted, broker down ~3 min"),
             prop("valkey-cart-service-1", "cart-service-1", "redis unreachable", "cart calls fail"),
             prop("cart-service-1", "frontend-service-1", "cart errors", "frontend 500s"),
             prop("frontend-service-1", "frontend-proxy-service-1", "frontend errors", "error rate above threshold"),
             prop("kafka-service-1", "checkout-service-1", "no brokers", "order events not published"),
             prop("node-3", "accounting-service-1", "second eviction round after Job retry", "accounting consumer lag")]
    fault = [{"category": "Resource Contention", "condition": "memory-hungry batch job without limit on shared node",
              "entity": {"kind": "CronJob", "name": "warehouse-backfill", "group_id": "warehouse-backfill-cronjob"}, "fault_mechanism": "custom(noisy neighbour, node-pressure eviction)"}]
    alerts = [{"group_id": "cart-service-1", "id": "RequestErrorRate"}, {"group_id": "frontend-service-1", "id": "RequestErrorRate"},
              {"group_id": "frontend-proxy-service-1", "id": "RequestErrorRate"}, {"group_id": "node-3", "id": "NodeMemoryHighUtilization"},
              {"group_id": "kafka-pod-1", "id": "KubePodNotReady"}, {"group_id": "checkout-service-1", "id": "KafkaProduceErrors"}]
    return inc, gtdoc(4, groups, aliases, props, fault, alerts,
                      [("limit-backfill", ["kubectl -n data-eng patch cronjob warehouse-backfill (set resources.limits.memory)", "kubectl -n data-eng delete job " + jname])], True)


# ---------------------------------------------------------------- 5 catalogue: quote rolled out with an arm64-only image (exec format error)
def s5():
    inc = Inc(5, 505, T0 + timedelta(days=12, hours=2, minutes=18), {"alerts": "list", "ev": "events.k8s.io", "mf": False, "ts": "iso", "mts": "iso"})
    F = 20.1
    inc.base("staging", [("quote", "ghcr.io/acme-shop/quote:2.0.4-rc1")])
    inc.base_noise(11.8, [("quote", "PHP Fatal error:  Uncaught Error: Class \"OpenTelemetry\\SDK\\Trace\\TracerProvider\" not found in /var/www/public/index.php:23")])
    d = inc.get("Deployment", "quote")
    d["spec"]["strategy"] = {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 1}}
    inc.put(-1, d, record=False)
    harmless_image_bump(inc, F - 1.5, "shipping", tag="2.0.2-%s-r2")
    new_img = "ghcr.io/acme-shop/quote:2.0.3"

    def bad():
        def mut(dd):
            dd["spec"]["template"]["spec"]["containers"][0]["image"] = new_img
            dd["metadata"]["labels"]["app.kubernetes.io/version"] = "2.0.3"
        old_pod = inc.pods[(NS, "quote")]
        dd, np, op, nrs, ors = inc.rollout(F, "quote", mut, new_ok=False, manager="argocd-controller")
        host = inc.podnode.get(np)
        # maxSurge 0: the old pod goes first
        inc.ev(F, "Deployment", "quote", "ScalingReplicaSet", "Scaled down replica set quote-%s to 0 from 1" % ors, comp="deployment-controller")
        inc.ev(F + 0.01, "Pod", old_pod, "Killing", "Stopping container quote", host=inc.podnode.get(old_pod))
        inc.delete(F + 0.05, "Pod", old_pod)
        inc.ev(F + 0.18, "Pod", np, "Pulled", 'Successfully pulled image "%s" in 6.204s (6.204s including waiting). Image size: 31940211 bytes.' % new_img, host=host)
        inc.ev(F + 0.19, "Pod", np, "Created", "Created container quote", host=host)
        inc.ev(F + 0.2, "Pod", np, "Started", "Started container quote", host=host)
        inc.repeat_ev(F + 0.3, inc.W - 0.2, 1.1, "Pod", np, "BackOff", "Back-off restarting failed container quote in pod %s_%s(%s)" % (np, NS, H(np, 8)),
                      etype="Warning", host=host)
        for k, mm in enumerate([F + 0.25, F + 0.5, F + 0.9, F + 1.7, F + 3.1, F + 5.9, F + 10.9]):
            if mm < inc.W:
                inc.log(mm, "quote", "ERROR", "exec /usr/local/bin/docker-php-entrypoint: exec format error", pod=np)
        p = inc.pod_obj("quote", np, nrs, dd, ready=False, restarts=6,
                        waiting={"reason": "CrashLoopBackOff", "message": "back-off 2m40s restarting failed container=quote pod=%s_%s" % (np, NS)},
                        last_term={"exitCode": 255, "reason": "Error", "startedAt": iso(inc.T(F + 5.8)), "finishedAt": iso(inc.T(F + 5.9))})
        inc.put(F + 6, p, manager="kubelet")
        dd["status"] = {"replicas": 1, "updatedReplicas": 1, "unavailableReplicas": 1, "observedGeneration": dd["metadata"]["generation"]}
        inc.put(F + 0.4, dd, manager="kube-controller-manager")
        inc.setpod(NS, "quote", np, F + 0.2)

    inc.at(F, bad)
    qip = inc.ip("svc/" + NS + "quote", "10.96")
    inc.fault = lambda m, caller, callee, op: (
        {"unreach": "error sending request for url (http://quote:8080/getquote): error trying to connect: tcp connect error: Connection refused (os error 111)"}
        if callee == "quote" and m >= F + 0.05 else None)
    inc.run_actions()
    inc.traffic()
    std_alerts(inc, F, ["shipping", "checkout", "frontend", "frontend-proxy"])
    inc.alert("KubePodCrashLooping", F + 2.5, None, {"namespace": NS, "pod": inc.pods[(NS, "quote")], "container": "quote", "job": "kube-state-metrics"},
              "Pod otel-demo/%s (quote) is in waiting state (reason: \"CrashLoopBackOff\")." % inc.pods[(NS, "quote")])
    inc.alert("KubeDeploymentReplicasMismatch", F + 4, None, {"namespace": "staging", "deployment": "quote"}, "Deployment staging/quote has not matched the expected number of replicas.")
    inc.compute_metrics()
    groups = [dep_group("quote", rc=True), pod_group("quote"), svc_group("quote"),
              {"id": "quote-replicaset-1", "kind": "ReplicaSet", "namespace": NS, "filter": ["^quote-[a-z0-9]{8,10}$"]},
              svc_group("shipping"), pod_group("shipping"), svc_group("checkout"), svc_group("frontend"), svc_group("frontend-proxy")]
    aliases = [["quote-deployment-1", "quote-pod-1", "quote-service-1", "quote-replicaset-1"], ["shipping-service-1", "shipping-pod-1"]]
    props = [prop("quote-deployment-1", "quote-pod-1", "image built for arm64 on amd64 nodes; maxSurge 0 removed the old pod", "exec format error, CrashLoopBackOff"),
             prop("quote-pod-1", "quote-service-1", "no ready pod", "connection refused"),
             prop("quote-service-1", "shipping-service-1", "getquote fails", "GetQuote errors"),
             prop("shipping-service-1", "checkout-service-1", "GetQuote fails", "PlaceOrder fails"),
             prop("shipping-service-1", "frontend-service-1", "GetQuote fails", "/api/shipping 500"),
             prop("frontend-service-1", "frontend-proxy-service-1", "frontend errors", "error rate above threshold")]
    fault = [{"category": "Change", "condition": "image for the wrong CPU architecture", "entity": {"kind": "Deployment", "name": "quote", "group_id": "quote-deployment-1"},
              "fault_mechanism": "custom(wrong-architecture image)"}]
    alerts = [{"group_id": "shipping-service-1", "id": "RequestErrorRate"}, {"group_id": "checkout-service-1", "id": "RequestErrorRate"},
              {"group_id": "frontend-service-1", "id": "RequestErrorRate"}, {"group_id": "frontend-proxy-service-1", "id": "RequestErrorRate"},
              {"group_id": "quote-pod-1", "id": "KubePodCrashLooping"}]
    return inc, gtdoc(5, groups, aliases, props, fault, alerts, [("rollback", ["kubectl -n otel-demo rollout undo deployment quote"])], False)


# ---------------------------------------------------------------- 6 novel: ExternalSecret refresh put a not-yet-activated password into the postgres Secret; reloader restarts accounting
def s6():
    inc = Inc(6, 606, T0 + timedelta(days=15, hours=7, minutes=30), {"alerts": "alerts", "ev": "v1", "mf": True, "ts": "ch", "mts": "epoch",
                                                                       "pydict": True, "kindstyle": "otlp"})
    F = 14.6
    inc.base("tenant-b", [("invoice-api", "registry.internal.example/tenant-b/invoice-api:3.2.0")])
    inc.base_noise(26.4, [("invoice-api", "Error: connect ECONNREFUSED 10.96.201.17:6379")])
    acc = inc.get("Deployment", "accounting")
    acc["metadata"]["annotations"]["secret.reloader.stakater.com/reload"] = "postgresql-credentials"
    acc["spec"]["template"]["spec"]["containers"][0]["env"] += [
        {"name": "DB_CONNECTION_STRING", "value": "Host=postgresql;Username=otelu;Database=otel"},
        {"name": "DB_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "postgresql-credentials", "key": "password"}}}]
    inc.put(-1, acc, record=False)
    sec = {"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
           "metadata": {"name": "postgresql-credentials", "namespace": NS,
                        "labels": {"reconcile.external-secrets.io/managed": "true"},
                        "annotations": {"reconcile.external-secrets.io/data-hash": H("old-pw", 32)},
                        "ownerReferences": [{"apiVersion": "external-secrets.io/v1beta1", "kind": "ExternalSecret", "name": "postgresql-credentials", "controller": True}]},
           "data": {"username": "b3RlbHU=", "password": "b3RlbHUtMjAyNi0wNy1yb3QtNDEx"}}
    inc.put(-1, sec, record=False)
    es = {"apiVersion": "external-secrets.io/v1beta1", "kind": "ExternalSecret",
          "metadata": {"name": "postgresql-credentials", "namespace": NS},
          "spec": {"refreshInterval": "1h", "secretStoreRef": {"kind": "ClusterSecretStore", "name": "vault-prod"},
                   "target": {"name": "postgresql-credentials", "creationPolicy": "Owner"},
                   "data": [{"secretKey": "password", "remoteRef": {"key": "shop/prod/postgres/otelu", "property": "password"}},
                            {"secretKey": "username", "remoteRef": {"key": "shop/prod/postgres/otelu", "property": "username"}}]},
          "status": {"refreshTime": iso(inc.T(-45)), "syncedResourceVersion": "1-" + H("es1", 32),
                     "conditions": [{"type": "Ready", "status": "True", "reason": "SecretSynced", "message": "Secret was synced"}]}}
    inc.put(-1, es, record=False)

    def rotate():
        s2 = inc.get("Secret", "postgresql-credentials")
        s2["data"]["password"] = "b3RlbHUtMjAyNi0xMC1yb3QtNTEy"
        s2["metadata"]["annotations"]["reconcile.external-secrets.io/data-hash"] = H("new-pw", 32)
        inc.put(F, s2, manager="external-secrets")
        e2 = inc.get("ExternalSecret", "postgresql-credentials")
        e2["status"]["refreshTime"] = iso(inc.T(F))
        e2["status"]["syncedResourceVersion"] = "1-" + H("es2", 32)
        inc.put(F, e2, manager="external-secrets")
        inc.ev(F, "ExternalSecret", "postgresql-credentials", "Updated", "Updated Secret", comp="external-secrets")

    def reload():
        inc.log(F + 0.3, "reloader", "INFO", 'time="%s" level=info msg="Changes detected in \'postgresql-credentials\' of type \'SECRET\' in namespace \'otel-demo\'; updated \'accounting\' of type \'Deployment\' in namespace \'otel-demo\'"' % iso(inc.T(F + 0.3)),
                ns="reloader", pod="reloader-reloader-6b5d7c9f8-" + rnd_suffix("rl", 5))
        dd, np, op, nrs, ors = inc.rollout(F + 0.3, "accounting", lambda d: None, new_ok=False, manager="Reloader",
                                           reason_ann={"reloader.stakater.com/last-reloaded-from": json.dumps({"type": "SECRET", "name": "postgresql-credentials", "namespace": NS, "hash": H("new-pw", 40)})})
        host = inc.podnode.get(np)
        inc.ev(F + 0.5, "Pod", np, "Pulled", 'Container image "%saccounting" already present on machine' % IMG, host=host)
        inc.ev(F + 0.51, "Pod", np, "Created", "Created container accounting", host=host)
        inc.ev(F + 0.52, "Pod", np, "Started", "Started container accounting", host=host)
        # readiness has no probe: rollout proceeds, old pod removed
        inc.ev(F + 0.6, "Deployment", "accounting", "ScalingReplicaSet", "Scaled down replica set accounting-%s to 0 from 1" % ors, comp="deployment-controller")
        inc.ev(F + 0.61, "Pod", op, "Killing", "Stopping container accounting", host=inc.podnode.get(op))
        inc.delete(F + 0.62, "Pod", op)
        inc.setpod(NS, "accounting", np, F + 0.5)
        crash = [F + 0.55, F + 0.8, F + 1.3, F + 2.2, F + 3.8, F + 6.5, F + 11.4, F + 16.3]
        for k, mm in enumerate(crash):
            if mm >= inc.W:
                break
            inc.log(mm, "accounting", "ERROR", "Npgsql.PostgresException (0x80004005): 28P01: password authentication failed for user \"otelu\"\n   at Npgsql.Internal.NpgsqlConnector.ReadMessageLong(Boolean async, DataRowLoadingMode dataRowLoadingMode, Boolean readingNotifications, Boolean isReadingPrependedMessage)\n   at Accounting.DBContext.EnsureCreated()\n   at Accounting.Consumer..ctor(ILogger`1 logger)", pod=np)
            inc.log(mm + 0.001, "accounting", "FATAL", "Unhandled exception. Host terminated unexpectedly", pod=np)
            inc.log(mm + 0.002, "postgresql", "ERROR", 'FATAL:  password authentication failed for user "otelu"\nDETAIL:  Connection matched file "/var/lib/postgresql/data/pg_hba.conf" line 100: "host all all all scram-sha-256"')
        inc.repeat_ev(F + 1.3, inc.W - 0.3, 1.5, "Pod", np, "BackOff", "Back-off restarting failed container accounting in pod %s_%s(%s)" % (np, NS, H(np, 8)), etype="Warning", host=host)
        p = inc.pod_obj("accounting", np, nrs, dd, ready=False, restarts=7,
                        waiting={"reason": "CrashLoopBackOff", "message": "back-off 5m0s restarting failed container=accounting pod=%s_%s" % (np, NS)},
                        last_term={"exitCode": 134, "reason": "Error", "finishedAt": iso(inc.T(F + 16.3))})
        inc.put(F + 16.4, p, manager="kubelet")

    inc.at(F, rotate)
    inc.at(F + 0.3, reload)
    restart_rollout(inc, F + 2.2, "fraud-detection", who="argocd-controller")
    harmless_image_bump(inc, F - 3.4, "email", tag="2.0.2-%s-hotfix1")
    inc.fault = lambda m, caller, callee, op: {"drop": True} if callee == "accounting" and m >= F + 0.5 else None
    inc.run_actions()
    inc.traffic()
    np = inc.pods[(NS, "accounting")]
    inc.alert("KubePodCrashLooping", F + 3.0, None, {"namespace": NS, "pod": np, "container": "accounting", "job": "kube-state-metrics", "severity": "warning"},
              "Pod otel-demo/%s (accounting) is in waiting state (reason: \"CrashLoopBackOff\")." % np)
    inc.alert("KafkaConsumerGroupLag", F + 4.0, None, {"namespace": NS, "consumergroup": "accounting", "topic": "orders", "severity": "warning"},
              "Kafka consumer group accounting lag on topic orders is above 500 for 3m", value="612")
    inc.alert("PostgresqlAuthFailures", F + 1.6, None, {"namespace": NS, "service_name": "postgresql", "severity": "warning", "datname": "otel"},
              "PostgreSQL otel-demo/postgresql is rejecting logins (password authentication failed)")
    inc.alert("NoDatabaseOperations", F + 5.0, None, {"namespace": NS, "service_name": "accounting", "severity": "warning"},
              "accounting has performed no database operations for 5 minutes")
    inc.alert("KubeDeploymentReplicasMismatch", 2, None, {"namespace": "tenant-b", "deployment": "invoice-api"}, "Deployment tenant-b/invoice-api has not matched the expected number of replicas.")
    inc.compute_metrics()
    groups = [{"id": "postgresql-credentials-secret", "kind": "Secret", "namespace": NS, "name": "postgresql-credentials", "filter": ["^postgresql-credentials$"], "root_cause": True},
              {"id": "postgresql-credentials-externalsecret", "kind": "ExternalSecret", "namespace": NS, "name": "postgresql-credentials", "filter": ["^postgresql-credentials$"]},
              dep_group("accounting"), pod_group("accounting"), svc_group("accounting"), svc_group("postgresql"), pod_group("postgresql"), svc_group("kafka")]
    aliases = [["postgresql-credentials-secret", "postgresql-credentials-externalsecret"], ["accounting-deployment-1", "accounting-pod-1", "accounting-service-1"],
               ["postgresql-service-1", "postgresql-pod-1"]]
    props = [prop("postgresql-credentials-externalsecret", "postgresql-credentials-secret", "Vault value rotated before the database role was altered", "Secret holds a password postgres does not accept"),
             prop("postgresql-credentials-secret", "accounting-deployment-1", "reloader rolls accounting on the Secret change", "new accounting pod reads the new password"),
             prop("accounting-pod-1", "postgresql-service-1", "login with wrong password", "28P01 password authentication failed"),
             prop("accounting-pod-1", "kafka-service-1", "consumer crashloops", "orders consumer lag grows")]
    fault = [{"category": "Configuration Setting", "condition": "credential rotation out of sync with the database",
              "entity": {"kind": "Secret", "name": "postgresql-credentials", "group_id": "postgresql-credentials-secret"}, "fault_mechanism": "custom(secret rotation)"}]
    alerts = [{"group_id": "accounting-pod-1", "id": "KubePodCrashLooping"}, {"group_id": "kafka-service-1", "id": "KafkaConsumerGroupLag"},
              {"group_id": "postgresql-service-1", "id": "PostgresqlAuthFailures"}, {"group_id": "accounting-service-1", "id": "NoDatabaseOperations"}]
    return inc, gtdoc(6, groups, aliases, props, fault, alerts,
                      [("sync-password", ["ALTER ROLE otelu PASSWORD <new> on postgresql, or revert the Vault value and force-sync the ExternalSecret", "kubectl -n otel-demo rollout restart deployment accounting"])], True)


# ---------------------------------------------------------------- 7 catalogue: cart liveness probe on the old 7070 port
def s7():
    inc = Inc(7, 707, T0 + timedelta(days=19, hours=11, minutes=2), {"alerts": "am2", "ev": "v1", "mf": True, "ts": "ch", "mts": "iso", "kindstyle": "otlp"})
    F = 17.9
    inc.base("tenant-b", [("invoice-worker", "registry.internal.example/tenant-b/invoice-worker:3.2.0")])
    inc.base_noise(5.5, [("invoice-worker", "java.lang.IllegalStateException: Required property 'INVOICE_QUEUE_URL' is not set")])
    d = inc.get("Deployment", "cart")
    d["spec"]["template"]["spec"]["containers"][0]["readinessProbe"] = {"grpc": {"port": 8080}, "periodSeconds": 10, "failureThreshold": 3}
    inc.put(-1, d, record=False)

    def bad():
        def mut(dd):
            dd["spec"]["template"]["spec"]["containers"][0]["livenessProbe"] = {"grpc": {"port": 7070}, "initialDelaySeconds": 10, "periodSeconds": 10,
                                                                                 "timeoutSeconds": 1, "failureThreshold": 3}
        dd, np, op, nrs, ors = inc.rollout(F, "cart", mut, manager="helm", dur=0.35)
        host = inc.podnode.get(np)
        restarts = 0
        m = F + 0.22
        back = 0
        while m < inc.W - 0.5:
            # liveness fails 3x after initialDelay, container restarted
            inc.ev(m + 0.5, "Pod", np, "Unhealthy", 'Liveness probe failed: timeout: failed to connect service "%s:7070" within 1s: context deadline exceeded' % inc.ip("pod/" + np),
                   etype="Warning", count=3 * (restarts + 1), first_m=F + 0.4, host=host)
            inc.ev(m + 0.67, "Pod", np, "Killing", "Container cart failed liveness probe, will be restarted", host=host)
            restarts += 1
            back = min(back * 2 if back else 0.17, 5)
            if restarts >= 2:
                inc.ev(m + 0.7, "Pod", np, "BackOff", "Back-off restarting failed container cart in pod %s_%s(%s)" % (np, NS, H(np, 8)), etype="Warning",
                       count=restarts - 1, first_m=F + 1.5, host=host)
            inc.ev(m + 0.7 + back, "Pod", np, "Pulled", 'Container image "%scart" already present on machine' % IMG, host=host)
            inc.ev(m + 0.71 + back, "Pod", np, "Started", "Started container cart", host=host)
            inc.log(m + 0.68, "cart", "INFO", "Application is shutting down...", pod=np)
            inc.log(m + 0.72 + back, "cart", "INFO", "Now listening on: http://[::]:8080", pod=np)
            down.append((m + 0.67, m + 0.72 + back + 0.08))
            m = m + 0.72 + back
        p = inc.pod_obj("cart", np, nrs, dd, ready=False, restarts=restarts,
                        waiting={"reason": "CrashLoopBackOff", "message": "back-off 5m0s restarting failed container=cart pod=%s_%s" % (np, NS)},
                        last_term={"exitCode": 143, "reason": "Error", "finishedAt": iso(inc.T(down[-1][0]))})
        inc.put(down[-1][0] + 0.05, p, manager="kubelet")
    down = []
    inc.at(F, bad)
    harmless_image_bump(inc, F + 1.0, "frontend", tag="2.0.2-%s-2")
    restart_rollout(inc, F - 2.6, "product-catalog", who="kubectl-rollout")
    cip = inc.ip("svc/" + NS + "cart", "10.96")

    def fx(m, caller, callee, op):
        if callee == "cart" and any(a <= m < b for a, b in down):
            return {"unreach": {"frontend": "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED %s:8080" % cip,
                                "checkout": "rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial tcp %s:8080: connect: connection refused\"" % cip}[caller]}
        return None
    inc.fault = fx
    inc.run_actions()
    inc.traffic()
    std_alerts(inc, F, ["frontend", "frontend-proxy", "checkout"])
    np = inc.pods[(NS, "cart")]
    inc.alert("KubePodCrashLooping", F + 3.2, None, {"namespace": NS, "pod": np, "container": "cart", "job": "kube-state-metrics"},
              "Pod otel-demo/%s (cart) is in waiting state (reason: \"CrashLoopBackOff\")." % np)
    inc.alert("KubeDeploymentReplicasMismatch", F + 6, None, {"namespace": NS, "deployment": "cart"}, "Deployment otel-demo/cart has not matched the expected number of replicas.")
    inc.alert("KubeJobFailed", 1, None, {"namespace": "tenant-b", "job_name": "invoice-reconcile-29342100"}, "Job tenant-b/invoice-reconcile-29342100 failed to complete.")
    inc.compute_metrics()
    groups = [dep_group("cart", rc=True), pod_group("cart"), svc_group("cart"), svc_group("frontend"), pod_group("frontend"),
              svc_group("checkout"), svc_group("frontend-proxy")]
    aliases = [["cart-deployment-1", "cart-pod-1", "cart-service-1"], ["frontend-service-1", "frontend-pod-1"]]
    props = [prop("cart-deployment-1", "cart-pod-1", "livenessProbe grpc port 7070 (cart listens on 8080)", "container killed every ~40 s, CrashLoopBackOff"),
             prop("cart-pod-1", "cart-service-1", "pod not ready most of the time", "connection refused"),
             prop("cart-service-1", "frontend-service-1", "GetCart/AddItem fail", "frontend 500s"),
             prop("cart-service-1", "checkout-service-1", "GetCart fails", "PlaceOrder fails"),
             prop("frontend-service-1", "frontend-proxy-service-1", "frontend errors", "error rate above threshold")]
    fault = [{"category": "Change", "condition": "liveness probe on wrong port", "entity": {"kind": "Deployment", "name": "cart", "group_id": "cart-deployment-1"},
              "fault_mechanism": "custom(liveness probe)"}]
    alerts = [{"group_id": "frontend-service-1", "id": "RequestErrorRate"}, {"group_id": "frontend-proxy-service-1", "id": "RequestErrorRate"},
              {"group_id": "checkout-service-1", "id": "RequestErrorRate"}, {"group_id": "cart-pod-1", "id": "KubePodCrashLooping"}]
    return inc, gtdoc(7, groups, aliases, props, fault, alerts, [("fix-probe", ["kubectl -n otel-demo rollout undo deployment cart"])], False)


# ---------------------------------------------------------------- 8 novel: Kyverno ClusterPolicy generates a namespace-isolation NetworkPolicy; ingress-nginx can no longer reach frontend-proxy
def s8():
    inc = Inc(8, 808, T0 + timedelta(days=22, hours=16, minutes=44), {"alerts": "prom", "ev": "events.k8s.io", "mf": False, "ts": "iso", "mts": "epoch_ms",
                                                                        "metric_cols": True})
    F = 18.2
    inc.base("staging", [("frontend", "ghcr.io/open-telemetry/demo:2.0.2-frontend")])
    inc.base_noise(21.7, [("frontend", "Error: Cannot find module '/app/server.js'")])
    inc.put(-1, {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
                 "metadata": {"name": "frontend", "namespace": NS, "annotations": {"nginx.ingress.kubernetes.io/proxy-connect-timeout": "5"}},
                 "spec": {"ingressClassName": "nginx", "tls": [{"hosts": ["shop.example.com"], "secretName": "shop-tls"}],
                          "rules": [{"host": "shop.example.com", "http": {"paths": [{"path": "/", "pathType": "Prefix",
                                                                                    "backend": {"service": {"name": "frontend-proxy", "port": {"number": 8080}}}}]}}]}}, record=False)
    for nsn in ("ingress-nginx", NS, "staging", "kube-system", "monitoring"):
        inc.put(-1, {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": nsn, "labels": {"kubernetes.io/metadata.name": nsn}}}, record=False)
    ing_pod = "ingress-nginx-controller-5c8d66c76d-" + rnd_suffix("ing", 5)
    inc.setpod("ingress-nginx", "ingress-nginx", ing_pod, -999)
    inc.put(-1, {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": ing_pod, "namespace": "ingress-nginx",
                                                                  "labels": {"app.kubernetes.io/name": "ingress-nginx", "app.kubernetes.io/component": "controller"}},
                 "spec": {"nodeName": inc.nodes[0], "containers": [{"name": "controller", "image": "registry.k8s.io/ingress-nginx/controller:v1.11.2"}]},
                 "status": {"phase": "Running", "podIP": inc.ip("pod/" + ing_pod)}}, record=False)
    cp = {"apiVersion": "kyverno.io/v1", "kind": "ClusterPolicy",
          "metadata": {"name": "generate-default-netpol", "annotations": {"policies.kyverno.io/title": "Default namespace isolation",
                                                                         "policies.kyverno.io/category": "Multi-Tenancy",
                                                                         "policies.kyverno.io/description": "Generate a NetworkPolicy that only allows ingress from the same namespace into every tenant namespace (SEC-2291)."}},
          "spec": {"generateExisting": True, "rules": [{"name": "default-namespace-isolation",
                   "match": {"any": [{"resources": {"kinds": ["Namespace"]}}]},
                   "exclude": {"any": [{"resources": {"namespaces": ["kube-system", "kube-public", "kyverno", "ingress-nginx", "monitoring",
                                                                     "opentelemetry-collectors", "chaos-mesh"]}}]},
                   "generate": {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "name": "default-namespace-isolation",
                                "namespace": "{{request.object.metadata.name}}", "synchronize": True,
                                "data": {"spec": {"podSelector": {}, "policyTypes": ["Ingress"], "ingress": [{"from": [{"podSelector": {}}]}]}}}}]}}

    def create():
        inc.put(F - 0.7, cp, manager="argocd-controller")
        inc.ev(F - 0.7, "ClusterPolicy", "generate-default-netpol", "PolicyApplied", "policy generate-default-netpol/default-namespace-isolation queued for existing resources", ns="", comp="kyverno-admission")
        for k, nsn in enumerate((NS, "staging")):
            npol = {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
                    "metadata": {"name": "default-namespace-isolation", "namespace": nsn,
                                 "labels": {"app.kubernetes.io/managed-by": "kyverno", "generate.kyverno.io/policy-name": "generate-default-netpol",
                                            "generate.kyverno.io/rule-name": "default-namespace-isolation", "generate.kyverno.io/trigger-kind": "Namespace",
                                            "generate.kyverno.io/trigger-name": nsn},
                                 "creationTimestamp": iso(inc.T(F + 0.1 * k))},
                    "spec": {"podSelector": {}, "policyTypes": ["Ingress"], "ingress": [{"from": [{"podSelector": {}}]}]}}
            inc.put(F + 0.1 * k, npol, manager="kyverno")
            inc.ev(F + 0.1 * k + 0.01, "ClusterPolicy", "generate-default-netpol", "PolicyApplied",
                   "Resource Namespace/%s: rule default-namespace-isolation generated NetworkPolicy %s/default-namespace-isolation" % (nsn, nsn), ns="", comp="kyverno-background")
    inc.at(F - 0.7, create)
    restart_rollout(inc, F + 0.9, "frontend-proxy", who="kubectl-rollout")
    harmless_image_bump(inc, F - 5.2, "recommendation")
    fp_ip = inc.ip("pod/" + inc.pods[(NS, "frontend-proxy")])
    paths = ["/", "/api/products/OLJCESPC7Z", "/api/cart", "/api/recommendations?productIds=66VCHSJNUP", "/images/products/NationalParkFoundationExplorascope.jpg",
             "/api/data?contextKeys=telescopes", "/_next/static/chunks/pages/_app-3c8a2b.js"]

    def ext(m):
        if inc.r.random() > 0.8:
            return
        tid = H("ext%s%f" % (inc.sid, m), 32)
        t = inc.T(m)
        path = inc.r.choice(paths)
        sid = H(tid + "ing", 16)
        cid = H(tid + "ingc", 16)
        ua = inc.r.choice(["Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 Safari/605.1.15",
                           "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/129.0 Safari/537.36", "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0) Mobile/15E148"])
        if m >= F + 0.05:
            inc.span(t, tid, sid, "", "HTTP GET", "Server", "ingress-nginx", 5003.0, "Error", "",
                     {"http.method": "GET", "http.target": path, "http.status_code": 504, "http.user_agent": ua, "net.host.name": "shop.example.com"},
                     ns="ingress-nginx", pod=ing_pod)
            inc.span(t, tid, cid, sid, "HTTP GET frontend-proxy", "Client", "ingress-nginx", 5000.0, "Error", "upstream timed out (110: Operation timed out) while connecting to upstream",
                     {"net.peer.name": fp_ip, "net.peer.port": 8080, "upstream.service": "otel-demo-frontend-proxy-8080"}, ns="ingress-nginx", pod=ing_pod)
            if inc.r.random() < 0.5:
                inc.log(m + 0.083, "ingress-nginx", "ERROR",
                        '%s [error] 31#31: *%d upstream timed out (110: Operation timed out) while connecting to upstream, client: 203.0.113.%d, server: shop.example.com, request: "GET %s HTTP/2.0", upstream: "http://%s:8080%s", host: "shop.example.com"'
                        % (inc.T(m + 0.083).strftime("%Y/%m/%d %H:%M:%S"), inc.r.randint(10000, 99999), inc.r.randint(2, 250), path, fp_ip, path),
                        ns="ingress-nginx", pod=ing_pod)
            return
        inc.span(t, tid, sid, "", "HTTP GET", "Server", "ingress-nginx", 30.0, "Unset", "",
                 {"http.method": "GET", "http.target": path, "http.status_code": 200, "http.user_agent": ua, "net.host.name": "shop.example.com"},
                 ns="ingress-nginx", pod=ing_pod)
        tmpl = T_PRODUCT() if "products" in path else T_HOME()
        inc.request(m, tmpl, root_svc="ingress-nginx", root_ns="ingress-nginx", root_name="HTTP GET frontend-proxy", tid=tid, root_parent=sid)
    inc.extra_traffic = ext
    inc.run_actions()
    inc.traffic()
    inc.alert("BlackboxProbeFailed", F + 1.0, None, {"instance": "https://shop.example.com/", "job": "blackbox-https", "namespace": "monitoring", "severity": "critical"},
              "Probe https://shop.example.com/ failed (HTTP 504)", sev="critical")
    inc.alert("NginxIngressHigh5xxRate", F + 1.4, None, {"ingress": "frontend", "exported_namespace": NS, "namespace": "ingress-nginx", "service": "frontend-proxy", "severity": "critical"},
              "Ingress otel-demo/frontend: 100% of requests answered 5xx in the last 2m", sev="critical", value="1")
    for i, job in enumerate(("frontend-proxy-envoy", "otel-demo-kafka-jmx", "otel-demo-postgresql")):
        inc.alert("TargetDown", F + 5.0 + 0.3 * i, None, {"job": job, "namespace": NS, "service": job.replace("otel-demo-", ""), "severity": "warning"},
                  "100%% of the %s/%s targets in %s namespace are down." % (job, job, NS))
    inc.alert("KubeDeploymentReplicasMismatch", 0, None, {"namespace": "staging", "deployment": "frontend"}, "Deployment staging/frontend has not matched the expected number of replicas.")
    inc.compute_metrics()
    # ingress controller metrics
    for mi in range(inc.W):
        v5 = 0.0 if mi < F + 0.5 else round(0.21 * inc.r.uniform(0.85, 1.15), 4)
        v2 = round(0.22 * inc.r.uniform(0.85, 1.15), 4) if mi < F + 0.5 else 0.0
        for code, v in (("2xx", v2), ("5xx", v5)):
            inc.metric("pod_" + ing_pod, "nginx_ingress_controller_requests:rate1m", mi, v,
                       {"namespace": "ingress-nginx", "pod": ing_pod, "ingress": "frontend", "exported_namespace": NS, "status": code})
    groups = [{"id": "generate-default-netpol-clusterpolicy", "kind": "ClusterPolicy", "name": "generate-default-netpol", "filter": ["^generate-default-netpol$"], "root_cause": True},
              {"id": "default-namespace-isolation-netpol", "kind": "NetworkPolicy", "namespace": NS, "name": "default-namespace-isolation", "filter": ["^default-namespace-isolation$"]},
              svc_group("frontend-proxy"), pod_group("frontend-proxy"),
              {"id": "frontend-ingress", "kind": "Ingress", "namespace": NS, "name": "frontend", "filter": ["^frontend$"]},
              {"id": "ingress-nginx-controller-pod", "kind": "Pod", "namespace": "ingress-nginx", "filter": ["^ingress-nginx-controller-.*"]}]
    aliases = [["generate-default-netpol-clusterpolicy", "default-namespace-isolation-netpol"], ["frontend-proxy-service-1", "frontend-proxy-pod-1"]]
    props = [prop("generate-default-netpol-clusterpolicy", "default-namespace-isolation-netpol", "generateExisting for every non-excluded Namespace", "NetworkPolicy allowing ingress only from otel-demo pods"),
             prop("default-namespace-isolation-netpol", "frontend-proxy-service-1", "traffic from ingress-nginx namespace dropped", "frontend-proxy unreachable from outside"),
             prop("frontend-proxy-service-1", "ingress-nginx-controller-pod", "connect timeouts", "504 to every external user"),
             prop("ingress-nginx-controller-pod", "frontend-ingress", "upstream unreachable", "shop.example.com down (blackbox probe fails)")]
    fault = [{"category": "Change", "condition": "policy engine generated a deny-from-other-namespaces NetworkPolicy",
              "entity": {"kind": "ClusterPolicy", "name": "generate-default-netpol", "group_id": "generate-default-netpol-clusterpolicy"},
              "fault_mechanism": "custom(kyverno generate NetworkPolicy)"}]
    alerts = [{"group_id": "frontend-ingress", "id": "BlackboxProbeFailed"}, {"group_id": "ingress-nginx-controller-pod", "id": "NginxIngressHigh5xxRate"},
              {"group_id": "frontend-proxy-service-1", "id": "TargetDown"}]
    return inc, gtdoc(8, groups, aliases, props, fault, alerts,
                      [("exclude-or-allow-ingress", ["kubectl delete clusterpolicy generate-default-netpol (or add an ingress rule from namespace ingress-nginx)", "kubectl -n otel-demo delete networkpolicy default-namespace-isolation"])], True)


# ---------------------------------------------------------------- 9 catalogue: checkout CPU limit 20m -> throttling, latency, deadline errors
def s9():
    inc = Inc(9, 909, T0 + timedelta(days=26, hours=5, minutes=9), {"alerts": "data", "ev": "v1", "mf": False, "ts": "iso", "mts": "epoch",
                                                                      "pydict": True, "kindstyle": "otlp"})
    F = 19.0
    inc.base("staging", [("payment", "ghcr.io/open-telemetry/demo:2.0.2-payment")])
    inc.base_noise(13.3, [("payment", "Error: Cannot find module '@opentelemetry/sdk-node'")])
    harmless_image_bump(inc, F - 1.2, "payment", tag="2.0.2-%s-r1")
    restart_rollout(inc, F + 2.4, "currency", who="kubectl-rollout")

    def bad():
        def mut(d):
            d["spec"]["template"]["spec"]["containers"][0]["resources"] = {"limits": {"cpu": "20m", "memory": "120Mi"}, "requests": {"cpu": "20m", "memory": "64Mi"}}
        inc.rollout(F, "checkout", mut, manager="helm", dur=0.5)
    inc.at(F, bad)

    def fx(m, caller, callee, op):
        if callee == "checkout" and m >= F + 0.5:
            return {"slow": inc.r.uniform(2600, 7400), "timeout_ms": 5000, "timeout_err": "context deadline exceeded"}
        return None
    inc.fault = fx

    def pm(mi, ns, app, metric, v):
        if app == "checkout" and mi >= F + 0.5:
            return {"cpu": 0.0199, "throttle": round(inc.r.uniform(0.88, 0.99), 3)}.get(metric, v)
        return v
    inc.podmetric = pm
    inc.run_actions()
    inc.traffic()
    std_alerts(inc, F, ["checkout", "frontend"], name="RequestLatency")
    std_alerts(inc, F + 1.5, ["frontend-proxy", "frontend"])
    inc.alert("CPUThrottlingHigh", F + 3.0, None, {"namespace": NS, "pod": inc.pods[(NS, "checkout")], "container": "checkout", "severity": "info"},
              "96.4%% throttling of CPU in namespace otel-demo for container checkout in pod %s." % inc.pods[(NS, "checkout")], sev="info")
    inc.alert("RequestLatency", 0.5, None, {"service_name": "image-provider", "namespace": NS}, "p95 latency for image-provider is above threshold")
    inc.compute_metrics()
    groups = [dep_group("checkout", rc=True), pod_group("checkout"), svc_group("checkout"), svc_group("frontend"), pod_group("frontend"), svc_group("frontend-proxy")]
    aliases = [["checkout-deployment-1", "checkout-pod-1", "checkout-service-1"], ["frontend-service-1", "frontend-pod-1"]]
    props = [prop("checkout-deployment-1", "checkout-pod-1", "CPU limit 20m", "CFS throttling above 90%"),
             prop("checkout-pod-1", "checkout-service-1", "throttled", "PlaceOrder p95 several seconds"),
             prop("checkout-service-1", "frontend-service-1", "PlaceOrder slow / deadline exceeded", "checkout requests slow or fail"),
             prop("frontend-service-1", "frontend-proxy-service-1", "frontend errors", "error rate above threshold")]
    fault = [{"category": "Resource Contention", "condition": "CPU limit too low", "entity": {"kind": "Deployment", "name": "checkout", "group_id": "checkout-deployment-1"},
              "fault_mechanism": "custom(cpu limit)"}]
    alerts = [{"group_id": "checkout-service-1", "id": "RequestLatency"}, {"group_id": "frontend-service-1", "id": "RequestLatency"},
              {"group_id": "frontend-proxy-service-1", "id": "RequestErrorRate"}, {"group_id": "checkout-pod-1", "id": "CPUThrottlingHigh"}]
    return inc, gtdoc(9, groups, aliases, props, fault, alerts, [("raise-limit", ["kubectl -n otel-demo set resources deployment checkout --limits=cpu=500m"])], False)


# ---------------------------------------------------------------- 10 novel: CoreDNS hosts override sends payment.otel-demo to a dead IP
def s10():
    inc = Inc(10, 1010, T0 + timedelta(days=29, hours=22, minutes=15), {"alerts": "alerts", "ev": "events.k8s.io", "mf": True, "ts": "ch", "mts": "iso",
                                                                          "noparent": True})
    F = 16.8
    inc.base("staging", [("checkout", "ghcr.io/open-telemetry/demo:2.0.2-checkout")])
    inc.base_noise(8.8, [("checkout", "panic: dial tcp: lookup kafka on 10.96.0.10:53: no such host")])
    KS = "kube-system"
    corefile = """.:53 {
    errors
    health {
       lameduck 5s
    }
    ready
    kubernetes cluster.local in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30
    loop
    reload
    loadbalance
}
"""
    inc.put(-1, {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "coredns", "namespace": KS}, "data": {"Corefile": corefile}}, record=False)
    cdep = inc.deployment("coredns", ns=KS, image="registry.k8s.io/coredns/coredns:v1.11.3", replicas=2, labels={"k8s-app": "kube-dns"})
    inc.put(-1, cdep, record=False)
    inc.put(-1, inc.service("kube-dns", ns=KS, port=53, cip="10.96.0.10"), record=False)
    cpods = ["coredns-76f75df574-" + rnd_suffix("cd%d" % i, 5) for i in range(2)]
    for pn in cpods:
        inc.put(-1, inc.pod_obj("coredns", pn, "76f75df574", cdep, ns=KS), record=False)
    ms = inc.deployment("metrics-server", ns=KS, image="registry.k8s.io/metrics-server/metrics-server:v0.7.2")
    inc.put(-1, ms, record=False)
    inc.rs[(KS, "metrics-server")] = "6d94bc8694"
    inc.setpod(KS, "metrics-server", "metrics-server-6d94bc8694-" + rnd_suffix("ms", 5), -999)
    inc.put(-1, inc.pod_obj("metrics-server", inc.pods[(KS, "metrics-server")], "6d94bc8694", ms, ns=KS), record=False)
    pay_ip = inc.ip("svc/" + NS + "payment", "10.96")
    dead = "10.96.14.2"
    new_core = corefile.replace("    ready\n", "    ready\n    # CHG-4821 payment cut-over to the pci cluster gateway (do not remove before 2026-11-20)\n    hosts {\n       %s payment.otel-demo.svc.cluster.local\n       fallthrough\n    }\n" % dead)

    def change():
        inc.put(F - 0.6, {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "coredns", "namespace": KS}, "data": {"Corefile": new_core}},
                manager="kubectl-edit")
        for i, pn in enumerate(cpods):
            inc.log(F - 0.1 + 0.08 * i, "coredns", "INFO", "[INFO] Reloading", ns=KS, pod=pn)
            inc.log(F - 0.09 + 0.08 * i, "coredns", "INFO", "[INFO] plugin/reload: Running configuration SHA512 = %s" % hashlib.sha512(new_core.encode()).hexdigest(), ns=KS, pod=pn)
            inc.log(F - 0.08 + 0.08 * i, "coredns", "INFO", "[INFO] Reloading complete", ns=KS, pod=pn)
    inc.at(F - 0.6, change)
    harmless_image_bump(inc, F + 1.6, "payment", tag="2.0.2-%s-r3")
    restart_rollout(inc, F - 3.9, "metrics-server", who="kubectl-rollout", ns=KS)

    def fx(m, caller, callee, op):
        if callee == "payment" and m >= F + 0.1:
            return {"unreach": "rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial tcp %s:8080: i/o timeout\"" % dead,
                    "timeout_ms": 5000 + inc.r.uniform(0, 30)}
        return None
    inc.fault = fx
    inc.run_actions()
    inc.traffic()
    for k in range(int(F) + 1, inc.W, 2):
        inc.log(k + 0.2, "checkout", "ERROR", "failed to charge card: could not charge the card: rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial tcp %s:8080: i/o timeout\"" % dead)
    std_alerts(inc, F, ["checkout", "frontend", "frontend-proxy"])
    inc.alert("RequestLatency", F + 1.2, None, {"service_name": "checkout", "namespace": NS}, "p95 latency for checkout is above threshold")
    inc.alert("NoRequestsReceived", F + 3.0, None, {"service_name": "payment", "namespace": NS, "severity": "warning"}, "payment has received no requests for 2 minutes")
    inc.alert("KubeDeploymentReplicasMismatch", 1, None, {"namespace": "staging", "deployment": "checkout"}, "Deployment staging/checkout has not matched the expected number of replicas.")
    inc.compute_metrics()
    groups = [{"id": "coredns-configmap", "kind": "ConfigMap", "namespace": KS, "name": "coredns", "filter": ["^coredns$"], "root_cause": True},
              {"id": "coredns-deployment", "kind": "Deployment", "namespace": KS, "name": "coredns", "filter": ["^coredns$"]},
              {"id": "coredns-pod", "kind": "Pod", "namespace": KS, "filter": ["^coredns-[a-z0-9]+-[a-z0-9]{5}$"]},
              svc_group("payment"), pod_group("payment"), svc_group("checkout"), pod_group("checkout"), svc_group("frontend"), svc_group("frontend-proxy")]
    aliases = [["coredns-configmap", "coredns-deployment", "coredns-pod"], ["payment-service-1", "payment-pod-1"], ["checkout-service-1", "checkout-pod-1"]]
    props = [prop("coredns-configmap", "coredns-pod", "hosts override for payment.otel-demo.svc.cluster.local -> %s (reload plugin)" % dead, "CoreDNS answers the stale IP"),
             prop("coredns-pod", "checkout-service-1", "checkout resolves payment to %s (real ClusterIP %s)" % (dead, pay_ip), "Charge dials time out after 5 s"),
             prop("checkout-service-1", "payment-service-1", "no connection reaches payment", "payment receives no requests"),
             prop("checkout-service-1", "frontend-service-1", "PlaceOrder fails", "POST /api/checkout 500"),
             prop("frontend-service-1", "frontend-proxy-service-1", "frontend errors", "error rate above threshold")]
    fault = [{"category": "Change", "condition": "cluster DNS override with a stale address", "entity": {"kind": "ConfigMap", "name": "coredns", "group_id": "coredns-configmap"},
              "fault_mechanism": "custom(coredns hosts)"}]
    alerts = [{"group_id": "checkout-service-1", "id": "RequestErrorRate"}, {"group_id": "frontend-service-1", "id": "RequestErrorRate"},
              {"group_id": "frontend-proxy-service-1", "id": "RequestErrorRate"}, {"group_id": "payment-service-1", "id": "NoRequestsReceived"}]
    return inc, gtdoc(10, groups, aliases, props, fault, alerts, [("revert-corefile", ["remove the hosts block from kube-system/coredns Corefile"])], True)


SCENARIOS = [s1, s2, s3, s4, s5, s6, s7, s8, s9, s10]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python3 gen.py OUT")
    out = sys.argv[1]
    for fn in SCENARIOS:
        inc, gt = fn()
        inc.write(out, gt)
        print(os.path.join(out, inc.sid))


if __name__ == "__main__":
    main()
