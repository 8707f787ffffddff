#!/usr/bin/env python3
"""Blind SRE set 2: 12 ITBench-Lite style incident snapshots of the OpenTelemetry demo
(Scenario-<N>/ with alerts/, metrics/, k8s_events_raw.tsv, k8s_objects_raw.tsv, otel_logs_raw.tsv,
otel_traces_raw.tsv, ground_truth.yaml). Written from the public format description only.
Deterministic, stdlib only.   Usage: python3 gen.py OUTDIR"""
import csv, datetime as dt, hashlib, json, os, random, sys

NS = "otel-demo"
REL = "2.0.2"
# service -> (port, port env, node, language)
SVC = {
    "frontend-proxy": (8080, "ENVOY_PORT", "worker-1", "envoy"),
    "frontend": (8080, "FRONTEND_PORT", "worker-1", "nodejs"),
    "ad": (8080, "AD_PORT", "worker-2", "java"),
    "cart": (8080, "CART_PORT", "worker-2", "dotnet"),
    "checkout": (8080, "CHECKOUT_PORT", "worker-1", "go"),
    "currency": (8080, "CURRENCY_PORT", "worker-3", "cpp"),
    "email": (8080, "EMAIL_PORT", "worker-3", "ruby"),
    "payment": (8080, "PAYMENT_PORT", "worker-3", "nodejs"),
    "product-catalog": (8080, "PRODUCT_CATALOG_PORT", "worker-2", "go"),
    "quote": (8080, "QUOTE_PORT", "worker-3", "php"),
    "recommendation": (8080, "RECOMMENDATION_PORT", "worker-2", "python"),
    "shipping": (8080, "SHIPPING_PORT", "worker-1", "rust"),
    "accounting": (None, None, "worker-3", "dotnet"),
    "fraud-detection": (None, None, "worker-2", "java"),
    "kafka": (9092, None, "worker-2", "java"),
    "valkey-cart": (6379, None, "worker-2", "c"),
    "flagd": (8013, "FLAGD_PORT", "worker-1", "go"),
    "image-provider": (8081, "IMAGE_PROVIDER_PORT", "worker-3", "nginx"),
    "load-generator": (8089, "LOCUST_WEB_PORT", "worker-1", "python"),
}
NODES = ["worker-1", "worker-2", "worker-3"]
RPC = {  # callee -> (grpc service, default method)
    "ad": "oteldemo.AdService", "cart": "oteldemo.CartService", "checkout": "oteldemo.CheckoutService",
    "currency": "oteldemo.CurrencyService", "payment": "oteldemo.PaymentService",
    "product-catalog": "oteldemo.ProductCatalogService", "recommendation": "oteldemo.RecommendationService",
    "shipping": "oteldemo.ShippingService",
}


def h(s, n):
    return hashlib.sha1(s.encode()).hexdigest()[:n]


SAFE = "bcdfghjklmnpqrstvwxz2456789"


def rshash(s, n=10):
    d = hashlib.sha1(s.encode()).digest()
    return "".join(SAFE[b % len(SAFE)] for b in d[:n])


def podname(svc, rs, rng):
    return f"{svc}-{rs}-{''.join(rng.choice('bcdfghjklmnpqrstvwxz2456789') for _ in range(5))}"


def iso(t, frac=True):
    return t.strftime("%Y-%m-%dT%H:%M:%S") + (".%06d" % t.microsecond if frac else "") + "Z"


def chts(t):  # ClickHouse DateTime64(9) text
    return t.strftime("%Y-%m-%d %H:%M:%S.%f") + "000"


# ------------------------------------------------------------------ object builders
def deployment(svc, rs_hash, t, rev=1, mut=None, replicas=1, managed=False, status_ready=None, gen=1):
    port, penv, node, lang = SVC[svc]
    c = {"name": svc, "image": f"ghcr.io/open-telemetry/demo:{REL}-{svc}", "imagePullPolicy": "IfNotPresent",
         "env": [{"name": "OTEL_SERVICE_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels['app.kubernetes.io/component']"}}},
                 {"name": "OTEL_COLLECTOR_NAME", "value": "otel-collector"},
                 {"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://otel-collector:4317"},
                 {"name": "FLAGD_HOST", "value": "flagd"}, {"name": "FLAGD_PORT", "value": "8013"}],
         "resources": {"limits": {"memory": "300Mi"}, "requests": {"cpu": "50m", "memory": "128Mi"}},
         "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}
    if port:
        c["ports"] = [{"containerPort": port, "name": "service" if svc != "kafka" else "plaintext", "protocol": "TCP"}]
    if penv:
        c["env"].insert(0, {"name": penv, "value": str(port)})
    if svc == "checkout":
        c["env"] += [{"name": "KAFKA_ADDR", "value": "kafka:9092"}, {"name": "CART_ADDR", "value": "cart:8080"},
                     {"name": "EMAIL_ADDR", "value": "http://email:8080"}, {"name": "PAYMENT_ADDR", "value": "payment:8080"},
                     {"name": "SHIPPING_ADDR", "value": "shipping:8080"}, {"name": "CURRENCY_ADDR", "value": "currency:8080"},
                     {"name": "PRODUCT_CATALOG_ADDR", "value": "product-catalog:8080"}]
    if svc == "shipping":
        c["env"].append({"name": "QUOTE_ADDR", "value": "http://quote:8080"})
    if svc == "recommendation":
        c["env"].append({"name": "PRODUCT_CATALOG_ADDR", "value": "product-catalog:8080"})
        c["resources"]["limits"]["memory"] = "500Mi"
    if svc in ("accounting", "fraud-detection"):
        c["env"].append({"name": "KAFKA_ADDR", "value": "kafka:9092"})
    if svc == "fraud-detection":
        c["env"].append({"name": "JAVA_TOOL_OPTIONS", "value": "-javaagent:/app/opentelemetry-javaagent.jar -Xmx220m"})
    if svc == "currency":
        c["resources"]["limits"]["cpu"] = "300m"
    if svc == "cart":
        c["env"].append({"name": "VALKEY_ADDR", "value": "valkey-cart:6379"})
    labels = {"app.kubernetes.io/component": svc, "app.kubernetes.io/name": svc, "app.kubernetes.io/part-of": "opentelemetry-demo",
              "opentelemetry.io/name": svc}
    spec = {"progressDeadlineSeconds": 600, "replicas": replicas, "revisionHistoryLimit": 10,
            "selector": {"matchLabels": {"opentelemetry.io/name": svc}},
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
            "template": {"metadata": {"labels": {"opentelemetry.io/name": svc, "app.kubernetes.io/component": svc, "app.kubernetes.io/name": svc}},
                         "spec": {"containers": [c], "serviceAccountName": "opentelemetry-demo", "restartPolicy": "Always",
                                  "dnsPolicy": "ClusterFirst", "schedulerName": "default-scheduler", "terminationGracePeriodSeconds": 30,
                                  "nodeSelector": {"kubernetes.io/hostname": node}}}}
    if mut:
        mut(spec)
    ready = replicas if status_ready is None else status_ready
    obj = {"apiVersion": "apps/v1", "kind": "Deployment",
           "metadata": {"name": svc, "namespace": NS, "uid": h("dep" + svc, 8) + "-" + h("u" + svc, 4) + "-4" + h("v" + svc, 3) + "-a" + h("w" + svc, 3) + "-" + h("x" + svc, 12),
                        "labels": labels, "generation": gen, "resourceVersion": str(100000 + int(h(svc + str(rev), 4), 16)),
                        "creationTimestamp": "2025-01-14T09:12:44Z",
                        "annotations": {"deployment.kubernetes.io/revision": str(rev), "meta.helm.sh/release-name": "opentelemetry-demo", "meta.helm.sh/release-namespace": NS}},
           "spec": spec,
           "status": {"observedGeneration": gen, "replicas": max(replicas, 1 if ready else replicas), "readyReplicas": ready, "availableReplicas": ready,
                      "updatedReplicas": replicas, "unavailableReplicas": (replicas - ready) if replicas > ready else None,
                      "conditions": [{"type": "Available", "status": "True" if ready >= replicas else "False", "reason": "MinimumReplicasAvailable" if ready >= replicas else "MinimumReplicasUnavailable", "lastUpdateTime": iso(t, False), "lastTransitionTime": iso(t, False)},
                                     {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable" if ready >= replicas else "ReplicaSetUpdated", "message": f'ReplicaSet "{svc}-{rs_hash}" has successfully progressed.' if ready >= replicas else f'ReplicaSet "{svc}-{rs_hash}" is progressing.', "lastUpdateTime": iso(t, False), "lastTransitionTime": iso(t, False)}]}}
    obj["status"] = {k: v for k, v in obj["status"].items() if v is not None}
    if not ready:
        obj["status"].pop("readyReplicas"); obj["status"].pop("availableReplicas")
    if managed:
        obj["metadata"]["managedFields"] = [
            {"manager": "helm", "operation": "Update", "apiVersion": "apps/v1", "time": "2025-01-14T09:12:44Z", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:app.kubernetes.io/component": {}}}, "f:spec": {"f:replicas": {}, "f:template": {"f:spec": {"f:containers": {f'k:{{"name":"{svc}"}}': {".": {}, "f:image": {}}}}}}}},
            {"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "apps/v1", "time": iso(t, False), "fieldsType": "FieldsV1", "subresource": "status",
             "fieldsV1": {"f:status": {"f:conditions": {}, "f:observedGeneration": {}, "f:replicas": {}}}}]
    return obj


def service_obj(svc, t, target=None, managed=False):
    port = SVC[svc][0]
    o = {"apiVersion": "v1", "kind": "Service",
         "metadata": {"name": svc, "namespace": NS, "uid": h("svc" + svc, 8) + "-1111-4222-8333-" + h("svc2" + svc, 12), "resourceVersion": str(5000 + int(h(svc, 3), 16)),
                      "creationTimestamp": "2025-01-14T09:12:43Z", "labels": {"app.kubernetes.io/component": svc, "app.kubernetes.io/name": svc, "opentelemetry.io/name": svc}},
         "spec": {"type": "ClusterIP", "clusterIP": "10.96.%d.%d" % (int(h(svc, 2), 16) % 200, int(h(svc + "x", 2), 16) % 250 + 2),
                  "ports": [{"name": "tcp-service" if svc != "kafka" else "plaintext", "port": port, "protocol": "TCP", "targetPort": target if target is not None else port}],
                  "selector": {"opentelemetry.io/name": svc}, "sessionAffinity": "None"},
         "status": {"loadBalancer": {}}}
    if managed:
        o["metadata"]["managedFields"] = [{"manager": "helm", "operation": "Update", "apiVersion": "v1", "time": "2025-01-14T09:12:43Z", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:ports": {}}}}]
    return o


def pod_obj(svc, name, rs, t, node=None, phase="Running", ready=True, cstate=None, last=None, restarts=0, image=None, mut=None, ip=None, reason=None, message=None):
    port, penv, n0, _ = SVC[svc]
    node = node or n0
    d = deployment(svc, rs, t, mut=mut)
    tmpl = d["spec"]["template"]
    if image:
        tmpl["spec"]["containers"][0]["image"] = image
    cs = {"name": svc, "image": tmpl["spec"]["containers"][0]["image"], "imageID": "" if cstate and "waiting" in cstate and not last else "ghcr.io/open-telemetry/demo@sha256:" + h(svc + "img", 64),
          "ready": ready, "restartCount": restarts, "started": ready or bool(cstate and "running" in cstate),
          "state": cstate or {"running": {"startedAt": iso(t - dt.timedelta(hours=3), False)}}}
    if last:
        cs["lastState"] = last
    else:
        cs["lastState"] = {}
    st = {"phase": phase, "hostIP": "172.18.0.%d" % (NODES.index(node) + 2) if node in NODES else None,
          "podIP": ip or "10.244.%d.%d" % (NODES.index(node) + 1 if node in NODES else 9, int(h(name, 2), 16) % 250 + 2),
          "qosClass": "Burstable", "startTime": iso(t - dt.timedelta(hours=3), False),
          "conditions": [{"type": "Initialized", "status": "True"}, {"type": "Ready", "status": "True" if ready else "False"},
                         {"type": "ContainersReady", "status": "True" if ready else "False"}, {"type": "PodScheduled", "status": "True"}],
          "containerStatuses": [cs]}
    if reason:
        st["reason"] = reason; st["message"] = message
        st.pop("containerStatuses", None)
    st = {k: v for k, v in st.items() if v is not None}
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": NS, "uid": h("pod" + name, 8) + "-aaaa-4bbb-8ccc-" + h("pod2" + name, 12),
                         "labels": dict(tmpl["metadata"]["labels"], **{"pod-template-hash": rs}),
                         "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": f"{svc}-{rs}", "uid": h("rs" + svc + rs, 8) + "-0000-4000-8000-" + h(rs, 12), "controller": True, "blockOwnerDeletion": True}],
                         "creationTimestamp": iso(t - dt.timedelta(hours=3), False), "resourceVersion": str(200000 + int(h(name + str(restarts), 4), 16))},
            "spec": dict(tmpl["spec"], nodeName=node), "status": st}


def configmap_flagd(t, flags_on=()):
    flags = {
        "productCatalogFailure": {"description": "Fail product catalog service on a specific product", "state": "ENABLED", "variants": {"on": True, "off": False}, "defaultVariant": "off"},
        "recommendationCacheFailure": {"description": "Fail recommendation service cache", "state": "ENABLED", "variants": {"on": True, "off": False}, "defaultVariant": "off"},
        "adManualGc": {"description": "Triggers full manual garbage collections in the ad service", "state": "ENABLED", "variants": {"on": True, "off": False}, "defaultVariant": "off"},
        "adHighCpu": {"description": "Triggers high cpu load in the ad service", "state": "ENABLED", "variants": {"on": True, "off": False}, "defaultVariant": "off"},
        "adFailure": {"description": "Fail ad service", "state": "ENABLED", "variants": {"on": True, "off": False}, "defaultVariant": "off"},
        "kafkaQueueProblems": {"description": "Overloads Kafka queue while simultaneously introducing a consumer side delay leading to a lag spike", "state": "ENABLED", "variants": {"on": 100, "off": 0}, "defaultVariant": "off"},
        "cartFailure": {"description": "Fail cart service", "state": "ENABLED", "variants": {"on": True, "off": False}, "defaultVariant": "off"},
        "paymentFailure": {"description": "Fail payment service charge requests n%", "state": "ENABLED", "variants": {"100%": 1, "90%": 0.95, "75%": 0.75, "50%": 0.5, "25%": 0.25, "10%": 0.1, "off": 0}, "defaultVariant": "off"},
        "paymentUnreachable": {"description": "Payment service is unavailable", "state": "ENABLED", "variants": {"on": True, "off": False}, "defaultVariant": "off"},
        "loadGeneratorFloodHomepage": {"description": "Flood the frontend with a large amount of requests.", "state": "ENABLED", "variants": {"on": 100, "off": 0}, "defaultVariant": "off"},
        "imageSlowLoad": {"description": "slow loading images in the frontend", "state": "ENABLED", "variants": {"10sec": 10000, "5sec": 5000, "off": 0}, "defaultVariant": "off"},
    }
    for f in flags_on:
        flags[f]["defaultVariant"] = "on"
    text = json.dumps({"$schema": "https://flagd.dev/schema/v0/flags.json", "flags": flags}, indent=2)
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "flagd-config", "namespace": NS, "uid": "5d0c1f7e-0a43-4c8e-9d0e-6b2f0e7f1c11",
            "resourceVersion": str(300000 + len(flags_on) * 17 + (7 if flags_on else 0)), "creationTimestamp": "2025-01-14T09:12:43Z",
            "labels": {"app.kubernetes.io/part-of": "opentelemetry-demo"}}, "data": {"demo.flagd.json": text}}


def node_obj(name, t, mem_pressure=False):
    conds = [{"type": "MemoryPressure", "status": "True" if mem_pressure else "False", "reason": "KubeletHasInsufficientMemory" if mem_pressure else "KubeletHasSufficientMemory",
              "message": "kubelet has insufficient memory available" if mem_pressure else "kubelet has sufficient memory available", "lastHeartbeatTime": iso(t, False), "lastTransitionTime": iso(t, False)},
             {"type": "DiskPressure", "status": "False", "reason": "KubeletHasNoDiskPressure", "message": "kubelet has no disk pressure", "lastHeartbeatTime": iso(t, False), "lastTransitionTime": "2025-01-14T09:01:02Z"},
             {"type": "PIDPressure", "status": "False", "reason": "KubeletHasSufficientPID", "message": "kubelet has sufficient PID available", "lastHeartbeatTime": iso(t, False), "lastTransitionTime": "2025-01-14T09:01:02Z"},
             {"type": "Ready", "status": "True", "reason": "KubeletReady", "message": "kubelet is posting ready status", "lastHeartbeatTime": iso(t, False), "lastTransitionTime": "2025-01-14T09:01:12Z"}]
    o = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "uid": h("node" + name, 8) + "-9999-4999-8999-" + h(name, 12), "labels": {"kubernetes.io/hostname": name, "kubernetes.io/os": "linux", "node-role.kubernetes.io/worker": ""}},
         "spec": {"podCIDR": "10.244.%d.0/24" % (NODES.index(name) + 1)},
         "status": {"capacity": {"cpu": "4", "memory": "8039784Ki", "pods": "110"}, "allocatable": {"cpu": "4", "memory": "7937384Ki", "pods": "110"}, "conditions": conds}}
    if mem_pressure:
        o["spec"]["taints"] = [{"key": "node.kubernetes.io/memory-pressure", "effect": "NoSchedule", "timeAdded": iso(t, False)}]
    return o


# ------------------------------------------------------------------ scenario engine
class Snap:
    def __init__(self, idx, t0, seed):
        self.idx, self.t0 = idx, t0
        self.rng = random.Random(seed)
        self.start = t0 - dt.timedelta(minutes=20)
        self.end = t0 + dt.timedelta(minutes=15)
        self.rs = {s: rshash(f"{idx}{s}rs") for s in SVC}
        self.pods = {s: [podname(s, self.rs[s], self.rng)] for s in SVC}
        self.objects = []   # (time, obj)
        self.events = []    # (time, event dict)
        self.logs = []
        self.spans = []
        self.metrics = {}   # filename -> rows
        self.alert_files = {}
        self.pod_since = {}     # pod -> creation time (no metric samples before it)
        # fault hooks
        self.call_fail = {}     # (caller or None, callee) -> (prob, msg, server_span: bool)
        self.extra_lat = {}     # callee -> ms
        self.server_fail = {}   # (callee, method or None) -> (prob, msg)
        self.down_window = {}   # callee -> predicate(t) whether down

    def active(self, t):
        return t >= self.t0

    # ---- objects: baseline snapshot of everything at several times
    def baseline_objects(self, managed=False, every=5):
        t = self.start
        while t <= self.end:
            for s in SVC:
                self.objects.append((t, deployment(s, self.rs[s], t, managed=managed)))
                if SVC[s][0]:
                    self.objects.append((t, service_obj(s, t, managed=managed)))
                for p in self.pods[s]:
                    self.objects.append((t, pod_obj(s, p, self.rs[s], t)))
            self.objects.append((t, configmap_flagd(t)))
            for n in NODES:
                self.objects.append((t, node_obj(n, t)))
            t += dt.timedelta(minutes=every)

    def replace_objects(self, kind, name, fn, after):
        """fn(obj, t) -> obj or None (drop) for observations at/after `after`."""
        out = []
        for t, o in self.objects:
            if o["kind"] == kind and o["metadata"]["name"] == name and t >= after:
                o2 = fn(o, t)
                if o2 is not None:
                    out.append((t, o2))
            else:
                out.append((t, o))
        self.objects = out

    def drop_pods(self, svc, after):
        self.objects = [(t, o) for t, o in self.objects if not (o["kind"] == "Pod" and o["metadata"]["name"] in self.pods[svc] and t >= after)]

    # ---- events
    def ev(self, t, kind, name, reason, msg, typ="Normal", count=1, comp="kubelet", host=None, style="core", uid=True, first=None):
        obj = {"kind": kind, "name": name, "namespace": NS if kind != "Node" else ""}
        if uid:
            obj["uid"] = h(kind + name, 8) + "-aaaa-4bbb-8ccc-" + h("pod2" + name, 12)
            obj["apiVersion"] = "v1" if kind in ("Pod", "Node", "Service") else "apps/v1"
        if kind == "Pod":
            obj["fieldPath"] = f"spec.containers{{{name.split('-')[0] if not any(name.startswith(s + '-') for s in SVC) else [s for s in SVC if name.startswith(s + '-')][0]}}}"
        evname = f"{name}.{h(name + reason + str(t), 16)}"
        if style == "core":
            e = {"apiVersion": "v1", "kind": "Event", "metadata": {"name": evname, "namespace": NS if kind != "Node" else "default", "resourceVersion": str(int(h(evname, 6), 16))},
                 "involvedObject": obj, "reason": reason, "message": msg, "type": typ, "count": count,
                 "firstTimestamp": iso(first or t, False), "lastTimestamp": iso(t, False), "source": {"component": comp, **({"host": host} if host else {})},
                 "reportingComponent": comp if comp != "kubelet" else "", "reportingInstance": host or ""}
        else:   # events.k8s.io/v1
            e = {"apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": {"name": evname, "namespace": NS if kind != "Node" else "default"},
                 "regarding": obj, "reason": reason, "note": msg, "type": typ, "eventTime": iso(first or t, True),
                 "reportingController": comp, "reportingInstance": host or comp, "action": reason,
                 **({"series": {"count": count, "lastObservedTime": iso(t, True)}} if count > 1 else {}), "deprecatedCount": count,
                 "deprecatedLastTimestamp": iso(t, False), "deprecatedFirstTimestamp": iso(first or t, False)}
        self.events.append((t, e, "MODIFIED" if count > 1 else "ADDED"))

    def normal_rollout_events(self, svc, t, newrs, oldrs, style="core", uid=True):
        self.ev(t, "Deployment", svc, "ScalingReplicaSet", f"Scaled up replica set {svc}-{newrs} to 1", comp="deployment-controller", style=style, uid=uid)
        p = podname(svc, newrs, self.rng)
        self.ev(t + dt.timedelta(seconds=1), "Pod", p, "Scheduled", f"Successfully assigned {NS}/{p} to {SVC[svc][2]}", comp="default-scheduler", style=style, uid=uid)
        return p

    # ---- traces
    def span(self, t, tid, sid, parent, name, kind, svc, dur_ms, err=None, attrs=None, pod=None):
        res = {"service.name": svc, "service.namespace": "opentelemetry-demo", "k8s.namespace.name": NS,
               "k8s.pod.name": pod or self.pods.get(svc, [svc])[0], "k8s.deployment.name": svc,
               "k8s.node.name": SVC.get(svc, (0, 0, "worker-1"))[2], "telemetry.sdk.language": SVC.get(svc, (0, 0, 0, "go"))[3]}
        self.spans.append({"Timestamp": t, "TraceId": tid, "SpanId": sid, "ParentSpanId": parent, "SpanName": name, "SpanKind": kind,
                           "ServiceName": svc, "ResourceAttributes": res, "SpanAttributes": attrs or {}, "Duration": int(dur_ms * 1e6),
                           "StatusCode": "Error" if err else "Unset", "StatusMessage": err or ""})

    def call(self, t, tid, parent, caller, callee, method, base_ms, children=()):
        """client span at caller + server span at callee (unless the request never arrives)."""
        rng = self.rng
        csid = h(f"{tid}{caller}{callee}{method}{rng.random()}", 16)
        fail = None
        server = True
        if callee in self.down_window and self.down_window[callee][0](t):
            fail, server = self.down_window[callee][1], False
        elif self.active(t):
            for key in ((caller, callee), (None, callee)):
                if key in self.call_fail:
                    prob, msg, server_ok = self.call_fail[key]
                    if rng.random() < prob:
                        fail, server = msg, server_ok
                    break
        lat = base_ms * rng.uniform(0.7, 1.4)
        if self.active(t):
            lat += self.extra_lat.get(callee, 0) * rng.uniform(0.6, 1.5)
        child_err = None
        tt = t + dt.timedelta(milliseconds=1)
        if server and not fail:
            ssid = h(csid + "s", 16)
            sfail = None
            if callee == "payment" and rng.random() < 0.03:   # routine: the load generator uses some expired cards
                sfail = "The credit card (ending %s) expired on %d/20%d." % (rng.choice(["0452", "8813", "1337"]), rng.randint(1, 12), rng.randint(19, 23))
            if self.active(t) and not sfail:
                for key in ((callee, method), (callee, None)):
                    if key in self.server_fail:
                        prob, msg = self.server_fail[key]
                        if rng.random() < prob:
                            sfail = msg
                        break
            for ch in children:
                e, d = ch(tt, tid, ssid)
                lat += d
                if e and not child_err:
                    child_err = e
            err = sfail or child_err
            rpc = RPC.get(callee)
            sname = f"{rpc}/{method}" if rpc else method
            self.span(tt, tid, ssid, csid, sname, "Server", callee, lat, err, {"rpc.system": "grpc", "rpc.service": rpc or "", "rpc.method": method, "rpc.grpc.status_code": 2 if err else 0} if rpc else {"http.request.method": "POST", "url.path": "/" + method, "http.response.status_code": 500 if err else 200})
            fail = err
        else:
            lat = lat if not fail else (lat + (self.rng.uniform(1000, 5000) if "deadline" in (fail or "").lower() or "timeout" in (fail or "").lower() else rng.uniform(1, 20)))
        rpc = RPC.get(callee)
        cname = f"{rpc}/{method}" if rpc else (f"{method}" if callee != "kafka" else "orders publish")
        kind = "Client" if callee != "kafka" else "Producer"
        attrs = {"rpc.system": "grpc", "rpc.service": rpc, "rpc.method": method, "server.address": callee, "server.port": 8080} if rpc else {"server.address": callee}
        if fail:
            attrs["rpc.grpc.status_code"] = 14 if "UNAVAILABLE" in fail else (4 if "DEADLINE" in fail else 2)
        self.span(t, tid, csid, parent, cname, kind, caller, lat + 1, fail, attrs)
        return fail, lat + 1

    def gen_traffic(self, rate_per_min=6):
        rng = self.rng
        t = self.start
        while t < self.end:
            for _ in range(rate_per_min):
                tt = t + dt.timedelta(seconds=rng.uniform(0, 60), microseconds=rng.randrange(10 ** 6))
                flow = rng.choices(["browse", "product", "cart", "checkout", "quote"], [4, 3, 2, 1.4, 1])[0]
                self.trace(tt, flow)
            t += dt.timedelta(minutes=1)

    def trace(self, t, flow):
        rng = self.rng
        tid = h(f"{self.idx}{t}{flow}{rng.random()}", 32)
        root = h(tid + "r", 16)
        fe = h(tid + "f", 16)
        C = self.call
        kids = []
        if flow == "browse":
            route = "GET /api/products"
            kids = [lambda a, b, p: C(a, b, p, "frontend", "product-catalog", "ListProducts", 4),
                    lambda a, b, p: C(a, b, p, "frontend", "currency", "GetSupportedCurrencies", 2)]
        elif flow == "product":
            route = "GET /api/recommendations"
            kids = [lambda a, b, p: C(a, b, p, "frontend", "recommendation", "ListRecommendations", 12,
                                      children=[lambda a2, b2, p2: C(a2, b2, p2, "recommendation", "product-catalog", "ListProducts", 4)]),
                    lambda a, b, p: C(a, b, p, "frontend", "ad", "GetAds", 6),
                    lambda a, b, p: C(a, b, p, "frontend", "product-catalog", "GetProduct", 3)]
        elif flow == "cart":
            route = "GET /api/cart"
            kids = [lambda a, b, p: C(a, b, p, "frontend", "cart", "GetCart", 5,
                                      children=[lambda a2, b2, p2: C(a2, b2, p2, "cart", "valkey-cart", "HGET", 1)])]
        elif flow == "quote":
            route = "GET /api/shipping"
            kids = [lambda a, b, p: C(a, b, p, "frontend", "shipping", "GetQuote", 8,
                                      children=[lambda a2, b2, p2: C(a2, b2, p2, "shipping", "quote", "getquote", 20)]),
                    lambda a, b, p: C(a, b, p, "frontend", "currency", "Convert", 2)]
        else:
            route = "POST /api/checkout"
            ch = [lambda a, b, p: C(a, b, p, "checkout", "cart", "GetCart", 5, children=[lambda a2, b2, p2: C(a2, b2, p2, "cart", "valkey-cart", "HGET", 1)]),
                  lambda a, b, p: C(a, b, p, "checkout", "product-catalog", "GetProduct", 3),
                  lambda a, b, p: C(a, b, p, "checkout", "currency", "Convert", 2),
                  lambda a, b, p: C(a, b, p, "checkout", "shipping", "GetQuote", 8, children=[lambda a2, b2, p2: C(a2, b2, p2, "shipping", "quote", "getquote", 20)]),
                  lambda a, b, p: C(a, b, p, "checkout", "payment", "Charge", 15),
                  lambda a, b, p: C(a, b, p, "checkout", "shipping", "ShipOrder", 3),
                  lambda a, b, p: (lambda r: (None, r[1]))(C(a, b, p, "checkout", "email", "POST /send_order_confirmation", 30)),  # email errors only logged
                  lambda a, b, p: C(a, b, p, "checkout", "cart", "EmptyCart", 4),
                  lambda a, b, p: (lambda r: (None, r[1]))(C(a, b, p, "checkout", "kafka", "orders publish", 2))]
            kids = [lambda a, b, p: C(a, b, p, "frontend", "checkout", "PlaceOrder", 10, children=ch)]
        lat, err = 3.0, None
        tt = t + dt.timedelta(milliseconds=2)
        for k in kids:
            e, d = k(tt, tid, fe)
            lat += d
            err = err or e
        self.span(t + dt.timedelta(milliseconds=1), tid, fe, root, route, "Server", "frontend", lat, err and "Internal Server Error",
                  {"http.request.method": route.split()[0], "http.route": route.split()[1], "http.response.status_code": 500 if err else 200})
        self.span(t, tid, root, "", "ingress", "Server", "frontend-proxy", lat + 2, err and "500",
                  {"http.response.status_code": 500 if err else 200, "upstream_cluster": "frontend", "http.method": route.split()[0]})
        if flow == "checkout" and not err:
            self.consumer_spans(t, tid)
        if err and self.rng.random() < 0.5:
            self.log(t, "frontend", "ERROR", f"Error: {err}", tid, fe)

    def consumer_spans(self, t, tid):
        lag = getattr(self, "consumer_delay_s", lambda t: 0)(t)
        prod = next((s["SpanId"] for s in reversed(self.spans[-40:]) if s["TraceId"] == tid and s["SpanKind"] == "Producer"), "")
        for svc, name in (("accounting", "orders receive"), ("fraud-detection", "orders process")):
            tt = t + dt.timedelta(milliseconds=50 + self.rng.uniform(0, 40), seconds=lag * self.rng.uniform(0.8, 1.2))
            self.span(tt, tid, h(tid + svc, 16), prod, name, "Consumer", svc, self.rng.uniform(2, 8) + (lag * 20 if lag else 0),
                      None, {"messaging.system": "kafka", "messaging.destination.name": "orders", "messaging.kafka.consumer.group": svc})

    # ---- logs
    def log(self, t, svc, sev, body, tid="", sid="", attrs=None, pod=None):
        self.logs.append({"Timestamp": t, "TraceId": tid, "SpanId": sid, "SeverityText": sev,
                          "SeverityNumber": {"DEBUG": 5, "INFO": 9, "WARN": 13, "WARNING": 13, "ERROR": 17, "FATAL": 21}.get(sev.upper(), 0),
                          "ServiceName": svc, "Body": body,
                          "ResourceAttributes": {"service.name": svc, "k8s.namespace.name": NS, "k8s.pod.name": pod or self.pods[svc][0], "k8s.container.name": svc},
                          "LogAttributes": attrs or {}})

    def background_logs(self):
        rng = self.rng
        t = self.start
        msgs = {"cart": ("INFO", "GetCartAsync called with userId={uid}"), "product-catalog": ("INFO", "Loaded 10 products"),
                "ad": ("INFO", "Targeted ad request received for [{cat}]"), "currency": ("INFO", "Conversion request successful"),
                "payment": ("INFO", '{{"level":30,"msg":"Transaction complete.","transactionId":"{uid}","cardType":"visa"}}'),
                "quote": ("INFO", "Calculated quote"), "shipping": ("INFO", "Sending Quote"), "email": ("INFO", "Order confirmation email sent to: {uid}@example.com"),
                "accounting": ("INFO", "Order details: {uid}"), "fraud-detection": ("INFO", "Consumed record with orderId: {uid}, and updated total count to: {n}"),
                "checkout": ("INFO", 'time=... level=INFO msg="order placed" app.order.id={uid}'), "recommendation": ("INFO", "Receive ListRecommendations for product ids:[{cat}]")}
        n = 0
        while t < self.end:
            for svc, (sev, m) in msgs.items():
                if rng.random() < 0.5:
                    n += 1
                    self.log(t + dt.timedelta(seconds=rng.uniform(0, 60)), svc, sev, m.format(uid=h(str(rng.random()), 8), cat=rng.choice(["telescopes", "binoculars", "accessories"]), n=n).replace("time=...", "time=" + iso(t)))
            t += dt.timedelta(minutes=1)

    # ---- metrics
    def metric_series(self, fname, metric, fn, tags, step=30, extra_cols=None, ts_style="ms"):
        rows = self.metrics.setdefault(fname, [])
        t = self.start
        since = self.pod_since.get(tags.get("pod"))
        while t <= self.end:
            v = fn(t) if since is None or t >= since else None
            if v is not None:
                ts = int(t.timestamp() * 1000) if ts_style == "ms" else (iso(t) if ts_style == "iso" else t.strftime("%Y-%m-%d %H:%M:%S"))
                rows.append((metric, ts, round(v, 6), tags, extra_cols or {}))
            t += dt.timedelta(seconds=step)

    def base_pod_metrics(self, svcs, ts_style="ms", tag_style="json"):
        for s in svcs:
            p = self.pods[s][0]
            tags = {"namespace": NS, "pod": p, "container": s, "node": SVC[s][2]}
            cpu0 = self.rng.uniform(0.01, 0.2)
            mem0 = self.rng.uniform(60, 250) * 2 ** 20
            acc = {"c": 0.0}
            def cpu(t, cpu0=cpu0, acc=acc):
                acc["c"] += cpu0 * 30 * self.rng.uniform(0.85, 1.15); return acc["c"]
            self.metric_series(f"pod_{p}.tsv", "container_cpu_usage_seconds_total", cpu, tags, ts_style=ts_style)
            self.metric_series(f"pod_{p}.tsv", "container_memory_working_set_bytes", lambda t, m=mem0: m * self.rng.uniform(0.97, 1.03), tags, ts_style=ts_style)
            self.metric_series(f"pod_{p}.tsv", "kube_pod_container_status_restarts_total", lambda t: 0, dict(tags, uid=h(p, 8)), step=60, ts_style=ts_style)

    def service_metrics(self, ts_style="ms"):
        """spanmetrics per service from the generated spans (server spans + client spans by caller)."""
        buckets = [2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000]
        agg = {}
        for s in self.spans:
            if s["SpanKind"] not in ("Server", "Client", "Producer", "Consumer"):
                continue
            minute = s["Timestamp"].replace(second=0, microsecond=0)
            k = (s["ServiceName"], s["SpanName"], s["SpanKind"], "STATUS_CODE_ERROR" if s["StatusCode"] == "Error" else "STATUS_CODE_UNSET")
            a = agg.setdefault(k, {})
            a.setdefault(minute, []).append(s["Duration"] / 1e6)
        for (svc, name, kind, code), per in agg.items():
            cum = 0; cumb = [0] * len(buckets)
            for minute in sorted(per):
                ds = per[minute]; cum += len(ds)
                for i, b in enumerate(buckets):
                    cumb[i] += sum(1 for d in ds if d <= b)
                tags = {"service_name": svc, "span_name": name, "span_kind": "SPAN_KIND_" + kind.upper(), "status_code": code, "namespace": NS}
                ts = int(minute.timestamp() * 1000) if ts_style == "ms" else iso(minute)
                rows = self.metrics.setdefault(f"service_{svc}.tsv", [])
                rows.append(("traces_span_metrics_calls_total", ts, cum, tags, {"service_name": svc, "status_code": code}))
                for i, b in enumerate(buckets):
                    rows.append(("traces_span_metrics_duration_milliseconds_bucket", ts, cumb[i], dict(tags, le=str(b)), {"service_name": svc, "bucket_le": str(b), "status_code": code}))

    # ---- alerts
    def alert(self, name, labels, summary, active_at, value, severity="warning"):
        return {"labels": dict({"alertname": name, "severity": severity, "namespace": NS}, **labels), "annotations": {"summary": summary, "description": summary},
                "state": "firing", "activeAt": active_at, "value": value}

    def write_alerts(self, files, style):
        """files: {time: [alert dicts]}; style 'prom' (/api/v1/alerts envelope), 'am' (Alertmanager v2 list), 'bare' (list of Prometheus alerts), 'rules_data' ({'alerts': [...]})"""
        for t, alerts in files.items():
            fn = f"alerts_at_{t.strftime('%Y-%m-%dT%H-%M-%S.%f')}.json"
            if style == "prom":
                doc = {"status": "success", "data": {"alerts": [dict(a, activeAt=iso(a["activeAt"]), value="%e" % a["value"]) for a in alerts]}}
            elif style == "am":
                doc = [{"labels": dict(a["labels"], prometheus="monitoring/kube-prometheus-stack-prometheus"), "annotations": a["annotations"], "startsAt": iso(a["activeAt"] + dt.timedelta(minutes=1)),
                        "endsAt": iso(t + dt.timedelta(minutes=4)), "updatedAt": iso(t), "generatorURL": "http://prometheus.prometheus:9090/graph?g0.expr=" + a["labels"]["alertname"],
                        "fingerprint": h(json.dumps(a["labels"], sort_keys=True), 16), "receivers": [{"name": "null"}], "status": {"state": "active", "silencedBy": [], "inhibitedBy": [], "mutedBy": []}} for a in alerts]
            elif style == "bare":
                doc = [dict(a, activeAt=iso(a["activeAt"]), value=str(a["value"])) for a in alerts]
            else:
                doc = {"alerts": [dict(a, activeAt=iso(a["activeAt"]), value="%e" % a["value"]) for a in alerts]}
            self.alert_files[fn] = doc

    # ---- write
    @staticmethod
    def tsv_writer(f, mode):
        """csv: pandas/csv-style (fields with quotes are quoted, quotes doubled); csv_all: every field
        quoted; raw: ClickHouse TSVRaw (no quoting, no escaping; JSON never holds tabs or newlines)."""
        if mode == "raw":
            class W:
                def writerow(self, row):
                    f.write("\t".join(str(x) for x in row) + "\n")
            return W()
        return csv.writer(f, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_ALL if mode == "csv_all" else csv.QUOTE_MINIMAL)

    def write(self, out, gt, enc):
        d = os.path.join(out, f"Scenario-{self.idx}")
        os.makedirs(os.path.join(d, "alerts"), exist_ok=True)
        for fn, doc in self.alert_files.items():
            with open(os.path.join(d, "alerts", fn), "w") as f:
                json.dump(doc, f, indent=1)
        if self.metrics:
            os.makedirs(os.path.join(d, "metrics"), exist_ok=True)
        for fn, rows in self.metrics.items():
            extra = sorted({k for r in rows for k in r[4]})
            with open(os.path.join(d, "metrics", fn), "w", newline="") as f:
                w = csv.writer(f, delimiter="\t", lineterminator="\n")
                w.writerow(["metric_name", "timestamp", "value", "tags"] + extra)
                for m, ts, v, tags, ex in rows:
                    tg = json.dumps(tags) if enc.get("tags", "json") == "json" else repr(tags)
                    w.writerow([m, ts, v, tg] + [ex.get(k, "") for k in extra])
        amap = (lambda a: json.dumps(a)) if enc.get("attrs", "json") == "json" else (lambda a: "{" + ",".join(f"'{k}':'{v}'" for k, v in a.items()) + "}")
        # traces
        tmode = enc.get("tsv", "csv")
        with open(os.path.join(d, "otel_traces_raw.tsv"), "w", newline="") as f:
            w = self.tsv_writer(f, tmode)
            w.writerow(["Timestamp", "TraceId", "SpanId", "ParentSpanId", "TraceState", "SpanName", "SpanKind", "ServiceName", "ResourceAttributes", "ScopeName", "SpanAttributes", "Duration", "StatusCode", "StatusMessage"])
            for s in sorted(self.spans, key=lambda s: s["Timestamp"]):
                kind = s["SpanKind"] if enc.get("kind", "short") == "short" else "SPAN_KIND_" + s["SpanKind"].upper()
                w.writerow([chts(s["Timestamp"]), s["TraceId"], s["SpanId"], s["ParentSpanId"], "", s["SpanName"], kind, s["ServiceName"],
                            amap(s["ResourceAttributes"]), "opentelemetry", amap({k: v for k, v in s["SpanAttributes"].items() if v is not None}), s["Duration"], s["StatusCode"], s["StatusMessage"]])
        with open(os.path.join(d, "otel_logs_raw.tsv"), "w", newline="") as f:
            w = self.tsv_writer(f, tmode)
            w.writerow(["Timestamp", "TraceId", "SpanId", "TraceFlags", "SeverityText", "SeverityNumber", "ServiceName", "Body", "ResourceAttributes", "LogAttributes"])
            for l in sorted(self.logs, key=lambda l: l["Timestamp"]):
                w.writerow([chts(l["Timestamp"]), l["TraceId"], l["SpanId"], 1 if l["TraceId"] else 0, l["SeverityText"], l["SeverityNumber"], l["ServiceName"], l["Body"],
                            amap(l["ResourceAttributes"]), amap(l["LogAttributes"])])
        body_enc = enc.get("body", "plain")
        def enc_body(o):
            j = json.dumps(o, separators=(",", ":"))
            return json.dumps(j) if body_enc == "double" else j
        kmode = "csv_all" if body_enc == "doubled_quotes" else tmode
        with open(os.path.join(d, "k8s_events_raw.tsv"), "w", newline="") as f:
            w = self.tsv_writer(f, kmode)
            w.writerow(["Timestamp", "TraceId", "SpanId", "SeverityText", "SeverityNumber", "ServiceName", "Body", "ResourceAttributes", "LogAttributes"])
            for t, e, typ in sorted(self.events, key=lambda x: x[0]):
                w.writerow([chts(t), "", "", "", 0, "", enc_body({"object": e, "type": typ}), amap({"k8s.cluster.name": "itbench-kind"}), amap({"event.domain": "k8s", "event.name": e["metadata"]["name"], "k8s.resource.name": "events"})])
        with open(os.path.join(d, "k8s_objects_raw.tsv"), "w", newline="") as f:
            w = self.tsv_writer(f, kmode)
            w.writerow(["Timestamp", "TraceId", "SpanId", "SeverityText", "SeverityNumber", "ServiceName", "Body", "ResourceAttributes", "LogAttributes"])
            for t, o in sorted(self.objects, key=lambda x: (x[0], x[1]["kind"], x[1]["metadata"]["name"])):
                w.writerow([chts(t), "", "", "", 0, "", enc_body(o), amap({"k8s.cluster.name": "itbench-kind"}), amap({"k8s.resource.name": o["kind"].lower() + "s"})])
        with open(os.path.join(d, "ground_truth.yaml"), "w") as f:
            f.write(to_yaml(gt))


def to_yaml(o, ind=0):
    sp = "  " * ind
    if isinstance(o, dict):
        if not o: return sp + "{}\n"
        s = ""
        for k, v in o.items():
            if isinstance(v, (dict, list)) and v:
                s += f"{sp}{k}:\n" + to_yaml(v, ind + 1)
            else:
                s += f"{sp}{k}: {scalar(v)}\n"
        return s
    if isinstance(o, list):
        s = ""
        for v in o:
            if isinstance(v, (dict, list)) and v:
                inner = to_yaml(v, ind + 1)
                s += f"{sp}- " + inner[len(sp) + 2:]
            else:
                s += f"{sp}- {scalar(v)}\n"
        return s
    return sp + scalar(o) + "\n"


def scalar(v):
    if isinstance(v, bool): return "true" if v else "false"
    if v is None: return "null"
    if isinstance(v, (int, float)): return str(v)
    if isinstance(v, list): return "[]"
    if isinstance(v, dict): return "{}"
    return json.dumps(str(v))


# ------------------------------------------------------------------ ground-truth helpers
def grp(gid, kind, name, root=False, pod=False):
    g = {"id": gid, "kind": kind, "namespace": NS if kind != "Node" else "", "name": name,
         "filter": [f"^{name}-[a-z0-9]+-[a-z0-9]+$" if pod else f"^{name}$"]}
    if kind == "Node":
        g.pop("namespace")
    if root: g["root_cause"] = True
    return g


def svc_groups(name, root_kind=None):
    """Deployment/Service/Pod groups of one app; root_kind marks which is root cause."""
    gs = [grp(f"{name}-deployment-1", "Deployment", name, root_kind == "Deployment"),
          grp(f"{name}-service-1", "Service", name, root_kind == "Service"),
          grp(f"{name}-pod-1", "Pod", name, root_kind == "Pod", pod=True)]
    return gs


def gt_doc(idx, groups, aliases, props, fault, alerts, wrapped):
    body = {"groups": groups, "aliases": aliases, "propagations": props, "fault": [fault], "alerts": alerts}
    if wrapped:
        return {"apiVersion": "itbench.io/v1", "kind": "GroundTruth", "metadata": {"name": f"scenario-{idx}"}, "spec": body}
    return dict({"id": str(idx)}, **body)


def P(s, t, c, e):
    return {"source": s, "target": t, "condition": c, "effect": e}


# ------------------------------------------------------------------ the twelve scenarios
def with_background(S, managed=False, pod_metrics=None, rate=6):
    S.baseline_objects(managed=managed)
    S.background_logs()
    lg = S.pods["load-generator"][0]
    tb = S.start + dt.timedelta(minutes=3)
    S.ev(tb, "Pod", lg, "Pulled", f'Container image "ghcr.io/open-telemetry/demo:{REL}-load-generator" already present on machine', host="worker-1", count=2, first=S.start - dt.timedelta(days=2))
    S.ev(tb, "Pod", lg, "Created", "Created container load-generator", host="worker-1", count=2, first=S.start - dt.timedelta(days=2))
    S.ev(tb + dt.timedelta(seconds=1), "Pod", lg, "Started", "Started container load-generator", host="worker-1", count=2, first=S.start - dt.timedelta(days=2))
    # routine noise: a collector CPU throttling alert in an infra namespace, image-provider slow
    return S


def normal_alerts(S, t):
    return [S.alert("CPUThrottlingHigh", {"namespace": "opentelemetry-collectors", "pod": "otel-collector-agent-7x2kq", "container": "otel-collector"},
                    "30% throttling of CPU in namespace opentelemetry-collectors for container otel-collector.", S.start - dt.timedelta(hours=2), 0.31, "info")]


def sc1_cpu_throttle(idx, out):
    """currency: CPU limit cut from 300m to 25m by a rollout; no Warning event; throttling + latency."""
    S = Snap(idx, dt.datetime(2025, 2, 11, 14, 30, 0), 101)
    newrs = rshash("cur-new")
    def mut(spec): spec["template"]["spec"]["containers"][0]["resources"]["limits"]["cpu"] = "25m"
    with_background(S, managed=True)
    newpod = podname("currency", newrs, S.rng)
    S.pod_since[newpod] = S.t0 - dt.timedelta(seconds=15)
    S.replace_objects("Deployment", "currency", lambda o, t: deployment("currency", newrs, t, rev=2, mut=mut, managed=True, gen=2), S.t0)
    S.drop_pods("currency", S.t0)
    S.objects += [(t, pod_obj("currency", newpod, newrs, t, mut=mut)) for t, o in S.objects if o["kind"] == "Node" and o["metadata"]["name"] == "worker-1" and t >= S.t0]
    S.normal_rollout_events("currency", S.t0 - dt.timedelta(seconds=20), newrs, S.rs["currency"])
    for r, m in (("Pulled", f'Container image "ghcr.io/open-telemetry/demo:{REL}-currency" already present on machine'), ("Created", "Created container currency"), ("Started", "Started container currency")):
        S.ev(S.t0 - dt.timedelta(seconds=15), "Pod", newpod, r, m, host="worker-3")
    S.ev(S.t0 - dt.timedelta(seconds=5), "Pod", S.pods["currency"][0], "Killing", "Stopping container currency", host="worker-3")
    S.ev(S.t0 - dt.timedelta(seconds=4), "Deployment", "currency", "ScalingReplicaSet", f"Scaled down replica set currency-{S.rs['currency']} to 0 from 1", comp="deployment-controller")
    S.pods["currency"] = [newpod]
    S.extra_lat["currency"] = 900
    S.call_fail[(None, "currency")] = (0.08, "4 DEADLINE_EXCEEDED: Deadline exceeded", True)
    S.gen_traffic()
    S.base_pod_metrics(["currency", "frontend", "checkout", "cart", "product-catalog"])
    p = newpod
    tags = {"namespace": NS, "pod": p, "container": "currency"}
    acc = {"thr": 0.0, "per": 0.0}
    def per(t):
        acc["per"] += 300; return acc["per"]
    def thr(t):
        acc["thr"] += (S.rng.uniform(230, 290) if t >= S.t0 else S.rng.uniform(0, 4)); return acc["thr"]
    S.metric_series(f"pod_{p}.tsv", "container_cpu_cfs_periods_total", per, tags)
    S.metric_series(f"pod_{p}.tsv", "container_cpu_cfs_throttled_periods_total", thr, tags)
    S.metric_series(f"pod_{p}.tsv", "container_spec_cpu_quota", lambda t: 2500 if t >= S.t0 else 30000, tags)
    S.service_metrics()
    for t in list(S.spans[:0]): pass
    for k in range(4):
        tt = S.t0 + dt.timedelta(minutes=4 + k)
        S.log(tt, "frontend", "ERROR", "Error: 4 DEADLINE_EXCEEDED: Deadline exceeded after 2.001s", attrs={"rpc.method": "Convert"})
    alerts = {}
    for k, tt in enumerate([S.t0 + dt.timedelta(minutes=m) for m in (6, 10, 14)]):
        a = normal_alerts(S, tt)
        a.append(S.alert("CPUThrottlingHigh", {"pod": p, "container": "currency"}, f"88% throttling of CPU in namespace {NS} for container currency in pod {p}.", S.t0 + dt.timedelta(minutes=2), 0.88, "info"))
        a.append(S.alert("RequestLatency", {"service_name": "frontend"}, "Latency in service frontend is above 1.5s", S.t0 + dt.timedelta(minutes=3), 2.31))
        if k >= 1:
            a.append(S.alert("RequestLatency", {"service_name": "checkout"}, "Latency in service checkout is above 1.5s", S.t0 + dt.timedelta(minutes=7), 1.8))
        alerts[tt] = a
    S.write_alerts(alerts, "prom")
    g = svc_groups("currency", "Deployment") + svc_groups("frontend")[1:] + svc_groups("checkout")[1:]
    gt = gt_doc(idx, g, [["currency-deployment-1", "currency-pod-1", "currency-service-1"], ["frontend-service-1", "frontend-pod-1"], ["checkout-service-1", "checkout-pod-1"]],
                [P("currency-deployment-1", "currency-pod-1", "currency container CPU limit lowered to 25m", "currency pod CPU throttled"),
                 P("currency-pod-1", "currency-service-1", "currency pod CPU throttled", "currency Convert latency high"),
                 P("currency-service-1", "frontend-service-1", "currency Convert latency high", "frontend latency above threshold"),
                 P("currency-service-1", "checkout-service-1", "currency Convert latency high", "checkout PlaceOrder latency above threshold")],
                {"category": "Change", "condition": "cpu limit too low", "entity": {"group_id": "currency-deployment-1", "kind": "Deployment", "name": "currency"}, "fault_mechanism": "custom"},
                [{"group_id": "currency-pod-1", "id": "CPUThrottlingHigh"}, {"group_id": "frontend-service-1", "id": "RequestLatency"}, {"group_id": "checkout-service-1", "id": "RequestLatency"}], wrapped=True)
    S.write(out, gt, {"tags": "json", "attrs": "json", "body": "plain", "tsv": "raw"})
    return "cpu-throttling", "Deployment/currency"


def sc2_netpol(idx, out):
    """NetworkPolicy on product-catalog admits only frontend; checkout and recommendation time out (client spans only)."""
    S = Snap(idx, dt.datetime(2025, 3, 4, 9, 5, 0), 102)
    with_background(S)
    np_ = {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
           "metadata": {"name": "product-catalog", "namespace": NS, "uid": "c1e0a7b2-55d1-4b1e-9d55-0f6e7f2a1b3c", "resourceVersion": "412331", "generation": 1,
                        "creationTimestamp": iso(S.t0, False), "labels": {"app.kubernetes.io/part-of": "opentelemetry-demo"},
                        "managedFields": [{"manager": "kubectl-client-side-apply", "operation": "Update", "apiVersion": "networking.k8s.io/v1", "time": iso(S.t0, False), "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:ingress": {}, "f:podSelector": {}, "f:policyTypes": {}}}}]},
           "spec": {"podSelector": {"matchLabels": {"opentelemetry.io/name": "product-catalog"}}, "policyTypes": ["Ingress"],
                    "ingress": [{"from": [{"podSelector": {"matchLabels": {"opentelemetry.io/name": "frontend"}}}], "ports": [{"port": 8080, "protocol": "TCP"}]}]}}
    t = S.t0
    while t <= S.end:
        S.objects.append((t, np_)); t += dt.timedelta(minutes=5)
    msg = "14 UNAVAILABLE: upstream connect error or disconnect/reset before headers. reset reason: connection timeout"
    S.call_fail[("checkout", "product-catalog")] = (1.0, "rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial tcp 10.96.41.17:8080: i/o timeout\"", False)
    S.call_fail[("recommendation", "product-catalog")] = (1.0, "<_InactiveRpcError of RPC that terminated with: status = StatusCode.UNAVAILABLE details = \"failed to connect to all addresses\">", False)
    S.gen_traffic(7)
    for k in range(12):
        tt = S.t0 + dt.timedelta(minutes=1 + k)
        S.log(tt, "recommendation", "ERROR", "failed to get product list: StatusCode.UNAVAILABLE failed to connect to all addresses; last error: UNKNOWN: ipv4:10.96.41.17:8080: Timeout occurred: FD Shutdown")
        S.log(tt + dt.timedelta(seconds=20), "checkout", "WARN", 'time=' + iso(tt) + ' level=ERROR msg="failed to prepare order" error="failed to get product #\\"OLJCESPC7Z\\": rpc error: code = Unavailable desc = connection error"')
    S.base_pod_metrics(["product-catalog", "checkout", "recommendation", "frontend"], ts_style="iso")
    S.service_metrics(ts_style="iso")
    alerts = {}
    for k, m in enumerate((5, 9, 13)):
        tt = S.t0 + dt.timedelta(minutes=m)
        a = normal_alerts(S, tt)
        a.append(S.alert("RequestErrorRate", {"service_name": "recommendation"}, "Error rate in service recommendation is above 5%", S.t0 + dt.timedelta(minutes=1), 0.42))
        a.append(S.alert("RequestErrorRate", {"service_name": "checkout"}, "Error rate in service checkout is above 5%", S.t0 + dt.timedelta(minutes=2), 1.0))
        a.append(S.alert("RequestErrorRate", {"service_name": "frontend"}, "Error rate in service frontend is above 5%", S.t0 + dt.timedelta(minutes=2), 0.31))
        alerts[tt] = a
    S.write_alerts(alerts, "am")
    g = [{"id": "product-catalog-networkpolicy-1", "kind": "NetworkPolicy", "namespace": NS, "name": "product-catalog", "filter": ["^product-catalog$"], "root_cause": True}] + \
        svc_groups("product-catalog")[1:] + svc_groups("checkout")[1:] + svc_groups("recommendation")[1:] + svc_groups("frontend")[1:]
    gt = gt_doc(idx, g, [["product-catalog-service-1", "product-catalog-pod-1"], ["checkout-service-1", "checkout-pod-1"], ["recommendation-service-1", "recommendation-pod-1"], ["frontend-service-1", "frontend-pod-1"]],
                [P("product-catalog-networkpolicy-1", "product-catalog-service-1", "NetworkPolicy admits ingress to product-catalog only from frontend", "connections from other callers dropped"),
                 P("product-catalog-service-1", "recommendation-service-1", "connections from recommendation dropped", "recommendation ListRecommendations errors"),
                 P("product-catalog-service-1", "checkout-service-1", "connections from checkout dropped", "checkout PlaceOrder errors"),
                 P("recommendation-service-1", "frontend-service-1", "recommendation errors", "frontend error rate above threshold"),
                 P("checkout-service-1", "frontend-service-1", "checkout errors", "frontend error rate above threshold")],
                {"category": "Change", "condition": "network policy too restrictive", "entity": {"group_id": "product-catalog-networkpolicy-1", "kind": "NetworkPolicy", "name": "product-catalog"}, "fault_mechanism": "custom"},
                [{"group_id": "recommendation-service-1", "id": "RequestErrorRate"}, {"group_id": "checkout-service-1", "id": "RequestErrorRate"}, {"group_id": "frontend-service-1", "id": "RequestErrorRate"}], wrapped=False)
    S.write(out, gt, {"tags": "py", "attrs": "json", "body": "doubled_quotes"})
    return "network-policy", "NetworkPolicy/product-catalog"


def sc3_flag(idx, out):
    """flagd-config: productCatalogFailure flipped on (ConfigMap only, no restart)."""
    S = Snap(idx, dt.datetime(2025, 3, 19, 22, 40, 0), 103)
    with_background(S)
    S.replace_objects("ConfigMap", "flagd-config", lambda o, t: configmap_flagd(t, ["productCatalogFailure"]), S.t0)
    S.server_fail[("product-catalog", "GetProduct")] = (0.3, "Error: Product Catalog Fail Feature Flag Enabled")
    S.gen_traffic(12)
    for s in S.spans:
        if s["ServiceName"] == "product-catalog" and s["StatusCode"] == "Error":
            S.log(s["Timestamp"], "product-catalog", "ERROR", "Error: Product Catalog Fail Feature Flag Enabled", s["TraceId"], s["SpanId"], {"app.product.id": "OLJCESPC7Z"})
    S.base_pod_metrics(["product-catalog", "flagd", "frontend", "checkout"])
    # no per-service metrics in this scenario
    alerts = {}
    for m in (4, 8, 12):
        tt = S.t0 + dt.timedelta(minutes=m)
        a = normal_alerts(S, tt)
        a.append(S.alert("RequestErrorRate", {"service_name": "product-catalog"}, "Error rate in service product-catalog is above 5%", S.t0 + dt.timedelta(minutes=1), 0.21))
        a.append(S.alert("RequestErrorRate", {"service_name": "frontend"}, "Error rate in service frontend is above 5%", S.t0 + dt.timedelta(minutes=1), 0.07))
        alerts[tt] = a
    S.write_alerts(alerts, "bare")
    g = [{"id": "flagd-config-1", "kind": "ConfigMap", "namespace": NS, "name": "flagd-config", "filter": ["^flagd-config$"], "root_cause": True}] + svc_groups("flagd")[1:] + \
        svc_groups("product-catalog")[1:] + svc_groups("frontend")[1:] + svc_groups("checkout")[1:]
    gt = gt_doc(idx, g, [["flagd-service-1", "flagd-pod-1"], ["product-catalog-service-1", "product-catalog-pod-1"], ["frontend-service-1", "frontend-pod-1"], ["checkout-service-1", "checkout-pod-1"]],
                [P("flagd-config-1", "flagd-service-1", "feature flag productCatalogFailure default variant set to on", "flagd serves the flag as on"),
                 P("flagd-service-1", "product-catalog-service-1", "flag on", "GetProduct fails for one product"),
                 P("product-catalog-service-1", "frontend-service-1", "GetProduct errors", "frontend error rate above threshold"),
                 P("product-catalog-service-1", "checkout-service-1", "GetProduct errors", "checkout PlaceOrder errors")],
                {"category": "Change", "condition": "feature flag enabled", "entity": {"group_id": "flagd-config-1", "kind": "ConfigMap", "name": "flagd-config"}, "fault_mechanism": "custom"},
                [{"group_id": "product-catalog-service-1", "id": "RequestErrorRate"}, {"group_id": "frontend-service-1", "id": "RequestErrorRate"}], wrapped=True)
    S.write(out, gt, {"tags": "json", "attrs": "ch", "body": "double"})
    return "flagd-flag", "ConfigMap/flagd-config"


def sc4_targetport(idx, out):
    """Service cart targetPort 8080 -> 8088; pods stay Ready; callers get connection refused."""
    S = Snap(idx, dt.datetime(2025, 4, 2, 3, 15, 0), 104)
    with_background(S, managed=True)
    S.replace_objects("Service", "cart", lambda o, t: service_obj("cart", t, target=8088, managed=True), S.t0)
    msg = "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 10.96.88.141:8080"
    S.call_fail[("frontend", "cart")] = (1.0, msg, False)
    S.call_fail[("checkout", "cart")] = (1.0, 'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 10.96.88.141:8080: connect: connection refused"', False)
    S.gen_traffic(6)
    S.base_pod_metrics(["cart", "frontend", "checkout", "valkey-cart"])
    S.service_metrics()
    for k in range(8):
        S.log(S.t0 + dt.timedelta(minutes=k + 1), "frontend", "ERROR", json.dumps({"level": "error", "msg": "GetCart failed", "err": msg}))
    alerts = {}
    for m in (3, 7, 12):
        tt = S.t0 + dt.timedelta(minutes=m)
        a = normal_alerts(S, tt)
        a.append(S.alert("RequestErrorRate", {"service_name": "frontend"}, "Error rate in service frontend is above 5%", S.t0 + dt.timedelta(minutes=1), 0.38))
        a.append(S.alert("RequestErrorRate", {"service_name": "checkout"}, "Error rate in service checkout is above 5%", S.t0 + dt.timedelta(minutes=1), 1.0))
        alerts[tt] = a
    S.write_alerts(alerts, "rules_data")
    g = svc_groups("cart", "Service") + svc_groups("frontend")[1:] + svc_groups("checkout")[1:]
    gt = gt_doc(idx, g, [["frontend-service-1", "frontend-pod-1"], ["checkout-service-1", "checkout-pod-1"]],
                [P("cart-service-1", "frontend-service-1", "cart Service targetPort does not match the container port", "frontend GetCart connection refused"),
                 P("cart-service-1", "checkout-service-1", "cart Service targetPort mismatch", "checkout PlaceOrder errors"),
                 P("checkout-service-1", "frontend-service-1", "checkout errors", "frontend error rate above threshold")],
                {"category": "Change", "condition": "service targetPort changed", "entity": {"group_id": "cart-service-1", "kind": "Service", "name": "cart"}, "fault_mechanism": "custom"},
                [{"group_id": "frontend-service-1", "id": "RequestErrorRate"}, {"group_id": "checkout-service-1", "id": "RequestErrorRate"}], wrapped=False)
    S.write(out, gt, {"tags": "json", "attrs": "json", "body": "plain", "kind": "long"})
    return "service-targetport", "Service/cart"


def sc5_badimage(idx, out):
    """ad: image tag changed to a release that does not exist; Recreate strategy -> ad down."""
    S = Snap(idx, dt.datetime(2025, 4, 23, 16, 0, 0), 105)
    newrs = rshash("ad-new")
    img = f"ghcr.io/open-telemetry/demo:{REL}1-ad"
    def mut(spec):
        spec["template"]["spec"]["containers"][0]["image"] = img
        spec["strategy"] = {"type": "Recreate"}
    def mut0(spec): spec["strategy"] = {"type": "Recreate"}
    with_background(S)
    S.replace_objects("Deployment", "ad", lambda o, t: deployment("ad", S.rs["ad"], t, mut=mut0), S.start)
    S.replace_objects("Deployment", "ad", lambda o, t: deployment("ad", newrs, t, rev=5, mut=mut, status_ready=0, gen=5), S.t0)
    S.drop_pods("ad", S.t0)
    newpod = podname("ad", newrs, S.rng)
    S.pod_since[newpod] = S.t0 - dt.timedelta(seconds=20)
    ts = sorted({t for t, o in S.objects if t >= S.t0})
    S.objects += [(t, pod_obj("ad", newpod, newrs, t, ready=False, phase="Pending", image=img,
                              cstate={"waiting": {"reason": "ImagePullBackOff", "message": f'Back-off pulling image "{img}"'}})) for t in ts]
    S.ev(S.t0 - dt.timedelta(seconds=30), "Deployment", "ad", "ScalingReplicaSet", f"Scaled down replica set ad-{S.rs['ad']} to 0 from 1", comp="deployment-controller", style="new")
    S.ev(S.t0 - dt.timedelta(seconds=25), "Deployment", "ad", "ScalingReplicaSet", f"Scaled up replica set ad-{newrs} to 1", comp="deployment-controller", style="new")
    S.ev(S.t0 - dt.timedelta(seconds=24), "Pod", newpod, "Scheduled", f"Successfully assigned {NS}/{newpod} to worker-2", comp="default-scheduler", style="new")
    for k in range(1, 14):
        tt = S.t0 + dt.timedelta(minutes=k)
        S.ev(tt, "Pod", newpod, "Pulling", f'Pulling image "{img}"', count=k + 1, first=S.t0 - dt.timedelta(seconds=20), host="worker-2", style="new", uid=False)
        S.ev(tt, "Pod", newpod, "Failed", f'Failed to pull image "{img}": rpc error: code = NotFound desc = failed to pull and unpack image "{img}": failed to resolve reference "{img}": {img}: not found', "Warning", k + 1, first=S.t0 - dt.timedelta(seconds=19), host="worker-2", style="new", uid=False)
        S.ev(tt, "Pod", newpod, "Failed", "Error: ErrImagePull", "Warning", k + 1, first=S.t0 - dt.timedelta(seconds=19), host="worker-2", style="new", uid=False)
        S.ev(tt + dt.timedelta(seconds=5), "Pod", newpod, "BackOff", f'Back-off pulling image "{img}"', "Warning", 3 * k, first=S.t0, host="worker-2", style="new", uid=False)
    S.call_fail[(None, "ad")] = (1.0, "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 10.96.61.40:8080", False)
    S.gen_traffic(6)
    S.base_pod_metrics(["frontend", "checkout"])
    S.service_metrics()
    alerts = {}
    for m in (4, 9, 14):
        tt = S.t0 + dt.timedelta(minutes=m)
        a = normal_alerts(S, tt)
        a.append(S.alert("KubeContainerWaiting", {"pod": newpod, "container": "ad"}, f"pod/{newpod} in namespace {NS} on container ad has been in waiting state for longer than 1 hour.", S.t0 + dt.timedelta(minutes=1), 1))
        a.append(S.alert("KubeDeploymentReplicasMismatch", {"deployment": "ad"}, f"Deployment {NS}/ad has not matched the expected number of replicas for longer than 15 minutes.", S.t0 + dt.timedelta(minutes=1), 1))
        a.append(S.alert("RequestErrorRate", {"service_name": "frontend"}, "Error rate in service frontend is above 5%", S.t0 + dt.timedelta(minutes=1), 0.29))
        alerts[tt] = a
    S.write_alerts(alerts, "am")
    g = svc_groups("ad", "Deployment") + svc_groups("frontend")[1:]
    gt = gt_doc(idx, g, [["ad-deployment-1", "ad-pod-1"], ["ad-service-1", "ad-pod-1"], ["frontend-service-1", "frontend-pod-1"]],
                [P("ad-deployment-1", "ad-pod-1", "ad Deployment image points at a tag that does not exist", "ad pod ImagePullBackOff"),
                 P("ad-pod-1", "ad-service-1", "no ad pod running", "ad service has no endpoints"),
                 P("ad-service-1", "frontend-service-1", "ad unavailable", "frontend GetAds errors, error rate above threshold")],
                {"category": "Change", "condition": "invalid image", "entity": {"group_id": "ad-deployment-1", "kind": "Deployment", "name": "ad"}, "fault_mechanism": "custom"},
                [{"group_id": "ad-pod-1", "id": "KubeContainerWaiting"}, {"group_id": "ad-deployment-1", "id": "KubeDeploymentReplicasMismatch"}, {"group_id": "frontend-service-1", "id": "RequestErrorRate"}], wrapped=True)
    S.write(out, gt, {"tags": "py", "attrs": "ch", "body": "plain"})
    return "bad-image-tag", "Deployment/ad"


def sc6_oom_laststate(idx, out):
    """recommendation: memory limit lowered to 90Mi; OOMKilled only in containerStatuses.lastState; no OOM event."""
    S = Snap(idx, dt.datetime(2025, 5, 8, 11, 20, 0), 106)
    newrs = rshash("rec-new")
    def mut(spec): spec["template"]["spec"]["containers"][0]["resources"]["limits"]["memory"] = "90Mi"
    with_background(S, managed=True)
    S.replace_objects("Deployment", "recommendation", lambda o, t: deployment("recommendation", newrs, t, rev=3, mut=mut, managed=True, gen=3), S.t0)
    S.drop_pods("recommendation", S.t0)
    newpod = podname("recommendation", newrs, S.rng)
    S.pod_since[newpod] = S.t0 - dt.timedelta(seconds=20)
    ts = sorted({t for t, o in S.objects if t >= S.t0})
    for i, t in enumerate(ts):
        restarts = int((t - S.t0).total_seconds() // 170)
        last = {"terminated": {"exitCode": 137, "reason": "OOMKilled", "startedAt": iso(t - dt.timedelta(minutes=3), False), "finishedAt": iso(t - dt.timedelta(seconds=20), False), "containerID": "containerd://" + h(newpod + str(i), 64)}} if restarts else None
        S.objects.append((t, pod_obj("recommendation", newpod, newrs, t, mut=mut, restarts=restarts, last=last,
                                     cstate={"running": {"startedAt": iso(t - dt.timedelta(seconds=20), False)}})))
    S.normal_rollout_events("recommendation", S.t0 - dt.timedelta(seconds=30), newrs, S.rs["recommendation"])
    for k in range(1, 6):
        tt = S.t0 + dt.timedelta(seconds=170 * k)
        S.ev(tt, "Pod", newpod, "Pulled", f'Container image "ghcr.io/open-telemetry/demo:{REL}-recommendation" already present on machine', count=k + 1, host="worker-2", first=S.t0)
        S.ev(tt, "Pod", newpod, "Created", "Created container recommendation", count=k + 1, host="worker-2", first=S.t0)
        S.ev(tt, "Pod", newpod, "Started", "Started container recommendation", count=k + 1, host="worker-2", first=S.t0)
    S.pods["recommendation"] = [newpod]
    def down(t):
        return t >= S.t0 and ((t - S.t0).total_seconds() % 170) > 130
    S.down_window["recommendation"] = (down, "14 UNAVAILABLE: Connection dropped")
    S.gen_traffic(10)
    S.base_pod_metrics(["frontend", "product-catalog"])
    p = newpod
    tags = {"namespace": NS, "pod": p, "container": "recommendation"}
    S.metric_series(f"pod_{p}.tsv", "container_memory_working_set_bytes",
                    lambda t: (70 + 25 * (((t - S.t0).total_seconds() % 170) / 170)) * 2 ** 20 if t >= S.t0 else None, tags, step=15)
    S.metric_series(f"pod_{p}.tsv", "kube_pod_container_status_restarts_total", lambda t: int((t - S.t0).total_seconds() // 170) if t >= S.t0 else None, tags, step=30)
    S.metric_series(f"pod_{p}.tsv", "kube_pod_container_resource_limits", lambda t: 90 * 2 ** 20 if t >= S.t0 else None, dict(tags, resource="memory", unit="byte"), step=60)
    for k in range(1, 6):
        tt = S.t0 + dt.timedelta(seconds=170 * k + 2)
        S.log(tt, "recommendation", "INFO", "Recommendation service started on port 8080", pod=newpod)
    alerts = {}
    for m in (6, 10, 14):
        tt = S.t0 + dt.timedelta(minutes=m)
        a = normal_alerts(S, tt)
        a.append(S.alert("RequestErrorRate", {"service_name": "frontend"}, "Error rate in service frontend is above 5%", S.t0 + dt.timedelta(minutes=3), 0.06))
        if m >= 10:
            a.append(S.alert("KubePodCrashLooping", {"pod": newpod, "container": "recommendation"}, f"Pod {NS}/{newpod} (recommendation) is in waiting state (reason: \"CrashLoopBackOff\").", S.t0 + dt.timedelta(minutes=8), 1))
        alerts[tt] = a
    S.write_alerts(alerts, "prom")
    g = svc_groups("recommendation", "Deployment") + svc_groups("frontend")[1:]
    gt = gt_doc(idx, g, [["recommendation-deployment-1", "recommendation-pod-1", "recommendation-service-1"], ["frontend-service-1", "frontend-pod-1"]],
                [P("recommendation-deployment-1", "recommendation-pod-1", "memory limit lowered below the working set", "recommendation container OOMKilled and restarted"),
                 P("recommendation-pod-1", "recommendation-service-1", "container restarts", "recommendation unavailable during restarts"),
                 P("recommendation-service-1", "frontend-service-1", "recommendation unavailable", "frontend error rate above threshold")],
                {"category": "Change", "condition": "memory limit too low", "entity": {"group_id": "recommendation-deployment-1", "kind": "Deployment", "name": "recommendation"}, "fault_mechanism": "custom"},
                [{"group_id": "frontend-service-1", "id": "RequestErrorRate"}, {"group_id": "recommendation-pod-1", "id": "KubePodCrashLooping"}], wrapped=False)
    S.write(out, gt, {"tags": "json", "attrs": "json", "body": "double"})
    return "oom-laststate", "Deployment/recommendation"


def sc7_scaled_zero(idx, out):
    """shipping scaled to 0 (no Warning event; replicas 0 so no ReplicasMismatch)."""
    S = Snap(idx, dt.datetime(2025, 5, 27, 7, 45, 0), 107)
    with_background(S)
    S.replace_objects("Deployment", "shipping", lambda o, t: deployment("shipping", S.rs["shipping"], t, replicas=0, status_ready=0, gen=4), S.t0)
    S.drop_pods("shipping", S.t0)
    S.ev(S.t0 - dt.timedelta(seconds=10), "Deployment", "shipping", "ScalingReplicaSet", f"Scaled down replica set shipping-{S.rs['shipping']} to 0 from 1", comp="deployment-controller", uid=False)
    S.ev(S.t0 - dt.timedelta(seconds=9), "Pod", S.pods["shipping"][0], "Killing", "Stopping container shipping", host="worker-1", uid=False)
    S.call_fail[(None, "shipping")] = (1.0, "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 10.96.12.77:8080", False)
    S.call_fail[("checkout", "shipping")] = (1.0, 'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 10.96.12.77:8080: connect: connection refused"', False)
    S.gen_traffic(6)
    S.base_pod_metrics(["frontend", "checkout", "quote"], ts_style="iso", tag_style="py")
    alerts = {}
    for m in (3, 8, 13):
        tt = S.t0 + dt.timedelta(minutes=m)
        a = normal_alerts(S, tt)
        a.append(S.alert("RequestErrorRate", {"service_name": "frontend"}, "Error rate in service frontend is above 5%", S.t0 + dt.timedelta(minutes=1), 0.27))
        a.append(S.alert("RequestErrorRate", {"service_name": "checkout"}, "Error rate in service checkout is above 5%", S.t0 + dt.timedelta(minutes=1), 1.0))
        alerts[tt] = a
    S.write_alerts(alerts, "bare")
    g = svc_groups("shipping", "Deployment") + svc_groups("frontend")[1:] + svc_groups("checkout")[1:]
    gt = gt_doc(idx, g, [["shipping-deployment-1", "shipping-service-1", "shipping-pod-1"], ["frontend-service-1", "frontend-pod-1"], ["checkout-service-1", "checkout-pod-1"]],
                [P("shipping-deployment-1", "shipping-service-1", "shipping Deployment scaled to 0 replicas", "shipping service has no endpoints"),
                 P("shipping-service-1", "checkout-service-1", "shipping unreachable", "checkout PlaceOrder errors"),
                 P("shipping-service-1", "frontend-service-1", "shipping unreachable", "frontend GetQuote errors"),
                 P("checkout-service-1", "frontend-service-1", "checkout errors", "frontend error rate above threshold")],
                {"category": "Change", "condition": "replicas set to 0", "entity": {"group_id": "shipping-deployment-1", "kind": "Deployment", "name": "shipping"}, "fault_mechanism": "custom"},
                [{"group_id": "frontend-service-1", "id": "RequestErrorRate"}, {"group_id": "checkout-service-1", "id": "RequestErrorRate"}], wrapped=True)
    S.write(out, gt, {"tags": "py", "attrs": "json", "body": "plain"})
    return "scaled-to-zero", "Deployment/shipping"


def sc8_env_crash(idx, out):
    """email: EMAIL_PORT set to a value puma cannot bind -> crash loop; checkout only logs the failure."""
    S = Snap(idx, dt.datetime(2025, 6, 12, 19, 10, 0), 108)
    newrs = rshash("email-new")
    def mut0(spec):
        spec["strategy"] = {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 1}}
    def mut(spec):
        mut0(spec)
        for e in spec["template"]["spec"]["containers"][0]["env"]:
            if e["name"] == "EMAIL_PORT": e["value"] = "80800"
    with_background(S, managed=True)
    S.replace_objects("Deployment", "email", lambda o, t: deployment("email", S.rs["email"], t, mut=mut0, managed=True), S.start)
    S.replace_objects("Deployment", "email", lambda o, t: deployment("email", newrs, t, rev=2, mut=mut, managed=True, status_ready=0, gen=2), S.t0)
    # rollout: old pod stays until the new one is ready? maxUnavailable 25% of 1 -> 0, so old keeps running: make it Recreate-free by maxSurge 0
    S.drop_pods("email", S.t0)
    newpod = podname("email", newrs, S.rng)
    S.pod_since[newpod] = S.t0 - dt.timedelta(seconds=20)
    ts = sorted({t for t, o in S.objects if t >= S.t0})
    for i, t in enumerate(ts):
        r = 1 + i * 2
        S.objects.append((t, pod_obj("email", newpod, newrs, t, mut=mut, ready=False, restarts=r,
                                     cstate={"waiting": {"reason": "CrashLoopBackOff", "message": f"back-off 2m40s restarting failed container=email pod={newpod}_{NS}"}},
                                     last={"terminated": {"exitCode": 1, "reason": "Error", "startedAt": iso(t - dt.timedelta(seconds=40), False), "finishedAt": iso(t - dt.timedelta(seconds=38), False)}})))
    S.ev(S.t0 - dt.timedelta(seconds=30), "Deployment", "email", "ScalingReplicaSet", f"Scaled down replica set email-{S.rs['email']} to 0 from 1", comp="deployment-controller")
    S.ev(S.t0 - dt.timedelta(seconds=29), "Deployment", "email", "ScalingReplicaSet", f"Scaled up replica set email-{newrs} to 1 from 0", comp="deployment-controller")
    for k in range(1, 14):
        S.ev(S.t0 + dt.timedelta(minutes=k), "Pod", newpod, "BackOff", f"Back-off restarting failed container email in pod {newpod}_{NS}({h(newpod, 8)}-0000-4000-8000-{h(newpod, 12)})", "Warning", count=2 * k, host="worker-3", first=S.t0)
        S.log(S.t0 + dt.timedelta(minutes=k, seconds=3), "email", "ERROR", "/usr/local/bundle/gems/puma-6.4.2/lib/puma/binder.rb:334:in `initialize': getaddrinfo: Servname not supported for ai_socktype (SocketError)", pod=newpod)
        S.log(S.t0 + dt.timedelta(minutes=k, seconds=3), "email", "FATAL", "! Unable to start server: port out of range", pod=newpod)
    S.call_fail[("checkout", "email")] = (1.0, 'Post "http://email:8080/send_order_confirmation": dial tcp 10.96.7.201:8080: connect: connection refused', False)
    S.gen_traffic(6)
    for s in S.spans:
        if s["ServiceName"] == "checkout" and "send_order" in s["SpanName"] and s["StatusCode"] == "Error":
            S.log(s["Timestamp"], "checkout", "WARN", f'time={iso(s["Timestamp"])} level=WARN msg="failed to send order confirmation" email=someone@example.com error="{s["StatusMessage"]}"', s["TraceId"], s["SpanId"])
    S.base_pod_metrics(["checkout", "frontend"])
    rtags = {"namespace": NS, "pod": newpod, "container": "email"}
    S.metric_series(f"pod_{newpod}.tsv", "kube_pod_container_status_restarts_total", lambda t: 1 + int((t - S.t0).total_seconds() // 30) if t >= S.t0 else None, rtags, step=30)
    S.metric_series(f"pod_{newpod}.tsv", "kube_pod_container_status_waiting_reason", lambda t: 1 if t >= S.t0 else None, dict(rtags, reason="CrashLoopBackOff"), step=30)
    S.service_metrics()
    alerts = {}
    for m in (5, 10, 15):
        tt = S.t0 + dt.timedelta(minutes=m)
        a = normal_alerts(S, tt)
        a.append(S.alert("KubePodCrashLooping", {"pod": newpod, "container": "email", "job": "kube-state-metrics"}, f"Pod {NS}/{newpod} (email) is in waiting state (reason: \"CrashLoopBackOff\").", S.t0 + dt.timedelta(minutes=2), 1))
        a.append(S.alert("KubeDeploymentReplicasMismatch", {"deployment": "email", "job": "kube-state-metrics"}, f"Deployment {NS}/email has not matched the expected number of replicas.", S.t0 + dt.timedelta(minutes=3), 1))
        alerts[tt] = a
    S.write_alerts(alerts, "prom")
    g = svc_groups("email", "Deployment") + svc_groups("checkout")[1:]
    gt = gt_doc(idx, g, [["email-deployment-1", "email-pod-1"], ["email-service-1", "email-pod-1"], ["checkout-service-1", "checkout-pod-1"]],
                [P("email-deployment-1", "email-pod-1", "EMAIL_PORT set to an invalid port", "email container exits at start, CrashLoopBackOff"),
                 P("email-pod-1", "email-service-1", "no ready email pod", "email service unreachable"),
                 P("email-service-1", "checkout-service-1", "email unreachable", "checkout fails to send order confirmations")],
                {"category": "Change", "condition": "wrong environment variable", "entity": {"group_id": "email-deployment-1", "kind": "Deployment", "name": "email"}, "fault_mechanism": "custom"},
                [{"group_id": "email-pod-1", "id": "KubePodCrashLooping"}, {"group_id": "email-deployment-1", "id": "KubeDeploymentReplicasMismatch"}], wrapped=False)
    S.write(out, gt, {"tags": "json", "attrs": "ch", "body": "doubled_quotes"})
    return "wrong-env-crashloop", "Deployment/email"


def sc9_dns(idx, out):
    """shipping: dnsPolicy None with an unreachable nameserver -> lookups of quote fail; quote itself healthy."""
    S = Snap(idx, dt.datetime(2025, 7, 3, 13, 0, 0), 109)
    newrs = rshash("ship-new")
    def mut(spec):
        spec["template"]["spec"]["dnsPolicy"] = "None"
        spec["template"]["spec"]["dnsConfig"] = {"nameservers": ["10.96.0.100"], "searches": [f"{NS}.svc.cluster.local", "svc.cluster.local", "cluster.local"], "options": [{"name": "ndots", "value": "5"}]}
    with_background(S)
    S.replace_objects("Deployment", "shipping", lambda o, t: deployment("shipping", newrs, t, rev=4, mut=mut, gen=4), S.t0)
    S.drop_pods("shipping", S.t0)
    newpod = podname("shipping", newrs, S.rng)
    S.pod_since[newpod] = S.t0 - dt.timedelta(seconds=20)
    ts = sorted({t for t, o in S.objects if t >= S.t0})
    S.objects += [(t, pod_obj("shipping", newpod, newrs, t, mut=mut)) for t in ts]
    S.normal_rollout_events("shipping", S.t0 - dt.timedelta(seconds=40), newrs, S.rs["shipping"], style="new", uid=False)
    S.ev(S.t0 - dt.timedelta(seconds=10), "Pod", S.pods["shipping"][0], "Killing", "Stopping container shipping", host="worker-1", style="new", uid=False)
    S.pods["shipping"] = [newpod]
    err = "error sending request for url (http://quote:8080/getquote): error trying to connect: dns error: failed to lookup address information: Temporary failure in name resolution"
    S.call_fail[("shipping", "quote")] = (1.0, err, False)
    S.gen_traffic(6)
    for s in S.spans:
        if s["ServiceName"] == "shipping" and s["StatusCode"] == "Error" and s["SpanKind"] == "Client":
            S.log(s["Timestamp"], "shipping", "ERROR", json.dumps({"timestamp": iso(s["Timestamp"]), "level": "ERROR", "fields": {"message": "Failed to get quote", "error": err}, "target": "shipping::shipping_service"}), s["TraceId"], s["SpanId"], pod=newpod)
    S.base_pod_metrics(["shipping", "quote", "frontend"])
    S.metric_series("pod_coredns-6f6b679f8f-4xk2p.tsv", "coredns_dns_requests_total", (lambda acc: (lambda t: acc.__setitem__(0, acc[0] + S.rng.uniform(300, 340)) or acc[0]))([0.0]), {"namespace": "kube-system", "pod": "coredns-6f6b679f8f-4xk2p", "server": "dns://:53", "zone": "."})
    S.service_metrics(ts_style="iso")
    alerts = {}
    for m in (4, 9, 14):
        tt = S.t0 + dt.timedelta(minutes=m)
        a = normal_alerts(S, tt)
        a.append(S.alert("RequestErrorRate", {"service_name": "shipping"}, "Error rate in service shipping is above 5%", S.t0 + dt.timedelta(minutes=1), 1.0))
        a.append(S.alert("RequestErrorRate", {"service_name": "frontend"}, "Error rate in service frontend is above 5%", S.t0 + dt.timedelta(minutes=1), 0.22))
        a.append(S.alert("RequestErrorRate", {"service_name": "checkout"}, "Error rate in service checkout is above 5%", S.t0 + dt.timedelta(minutes=2), 1.0))
        alerts[tt] = a
    S.write_alerts(alerts, "am")
    g = svc_groups("shipping", "Deployment") + svc_groups("frontend")[1:] + svc_groups("checkout")[1:] + svc_groups("quote")[1:2]
    gt = gt_doc(idx, g, [["shipping-deployment-1", "shipping-pod-1", "shipping-service-1"], ["frontend-service-1", "frontend-pod-1"], ["checkout-service-1", "checkout-pod-1"]],
                [P("shipping-deployment-1", "shipping-pod-1", "pod DNS config points at a nameserver that does not answer", "shipping cannot resolve quote"),
                 P("shipping-pod-1", "shipping-service-1", "name resolution fails", "GetQuote errors"),
                 P("shipping-service-1", "checkout-service-1", "GetQuote errors", "checkout PlaceOrder errors"),
                 P("shipping-service-1", "frontend-service-1", "GetQuote errors", "frontend error rate above threshold")],
                {"category": "Change", "condition": "DNS resolution failure", "entity": {"group_id": "shipping-deployment-1", "kind": "Deployment", "name": "shipping"}, "fault_mechanism": "custom"},
                [{"group_id": "shipping-service-1", "id": "RequestErrorRate"}, {"group_id": "frontend-service-1", "id": "RequestErrorRate"}, {"group_id": "checkout-service-1", "id": "RequestErrorRate"}], wrapped=True)
    S.write(out, gt, {"tags": "json", "attrs": "json", "body": "plain", "tsv": "raw"})
    return "dns-failure", "Deployment/shipping"


def sc10_kafka(idx, out):
    """kafkaQueueProblems flag on -> checkout floods 'orders', consumers delayed -> consumer lag grows."""
    S = Snap(idx, dt.datetime(2025, 8, 19, 2, 30, 0), 110)
    with_background(S, managed=True)
    S.replace_objects("ConfigMap", "flagd-config", lambda o, t: configmap_flagd(t, ["kafkaQueueProblems"]), S.t0)
    S.consumer_delay_s = lambda t: 0 if t < S.t0 else min(600, (t - S.t0).total_seconds() * 0.6)
    S.gen_traffic(6)
    # flood: extra producer spans from checkout
    t = S.t0
    while t < S.end:
        for _ in range(40):
            tid = h(str(S.rng.random()), 32)
            S.span(t + dt.timedelta(seconds=S.rng.uniform(0, 60)), tid, h(tid, 16), "", "orders publish", "Producer", "checkout", S.rng.uniform(1, 4), None,
                   {"messaging.system": "kafka", "messaging.destination.name": "orders", "messaging.operation": "publish"})
        t += dt.timedelta(minutes=1)
    S.base_pod_metrics(["kafka", "accounting", "fraud-detection", "checkout"], ts_style="sec")
    for svc in ("accounting", "fraud-detection"):
        p = S.pods[svc][0]
        tags = {"namespace": NS, "pod": p, "topic": "orders", "partition": "0", "client_id": svc, "group": svc}
        S.metric_series(f"pod_{p}.tsv", "kafka_consumer_records_lag_max",
                        lambda t, svc=svc: S.rng.uniform(0, 3) if t < S.t0 else (t - S.t0).total_seconds() * (38 if svc == "fraud-detection" else 31) * S.rng.uniform(0.95, 1.05), tags, ts_style="sec")
        S.metric_series(f"pod_{p}.tsv", "kafka_consumer_fetch_manager_records_consumed_rate", lambda t: S.rng.uniform(0.1, 0.2) if t < S.t0 else S.rng.uniform(0.6, 1.6), tags, ts_style="sec")
    kp = S.pods["kafka"][0]
    acc = {"v": 1000.0}
    S.metric_series(f"pod_{kp}.tsv", "kafka_server_brokertopicmetrics_messagesin_total", lambda t: acc.__setitem__("v", acc["v"] + (S.rng.uniform(3, 6) if t < S.t0 else S.rng.uniform(1150, 1250))) or acc["v"], {"namespace": NS, "pod": kp, "topic": "orders"}, ts_style="sec")
    for k in range(12):
        S.log(S.t0 + dt.timedelta(minutes=k + 1), "fraud-detection", "INFO", f"Consumed record with orderId: {h(str(k), 8)}-{h(str(k) + 'a', 4)}, and updated total count to: {1200 + k * 3}")
        S.log(S.t0 + dt.timedelta(minutes=k + 1, seconds=30), "checkout", "INFO", f'time={iso(S.t0 + dt.timedelta(minutes=k + 1))} level=INFO msg="sending to postProcessor" count=100')
    alerts = {}
    for m in (5, 10, 14):
        tt = S.t0 + dt.timedelta(minutes=m)
        a = normal_alerts(S, tt)
        a.append(S.alert("KafkaConsumerGroupLagHigh", {"consumergroup": "fraud-detection", "topic": "orders", "service_name": "fraud-detection"}, "Kafka consumer group fraud-detection lag on topic orders is above 1000 messages", S.t0 + dt.timedelta(minutes=2), 38.0 * 60 * m))
        a.append(S.alert("KafkaConsumerGroupLagHigh", {"consumergroup": "accounting", "topic": "orders", "service_name": "accounting"}, "Kafka consumer group accounting lag on topic orders is above 1000 messages", S.t0 + dt.timedelta(minutes=3), 31.0 * 60 * m))
        alerts[tt] = a
    S.write_alerts(alerts, "rules_data")
    g = [{"id": "flagd-config-1", "kind": "ConfigMap", "namespace": NS, "name": "flagd-config", "filter": ["^flagd-config$"], "root_cause": True}] + svc_groups("flagd")[1:] + \
        svc_groups("checkout")[1:] + svc_groups("kafka")[1:] + svc_groups("fraud-detection")[2:] + svc_groups("accounting")[2:]
    gt = gt_doc(idx, g, [["flagd-service-1", "flagd-pod-1"], ["checkout-service-1", "checkout-pod-1"], ["kafka-service-1", "kafka-pod-1"]],
                [P("flagd-config-1", "flagd-service-1", "kafkaQueueProblems flag default variant set to on", "flagd serves the flag"),
                 P("flagd-service-1", "checkout-service-1", "flag on", "checkout publishes a burst of messages per order"),
                 P("checkout-service-1", "kafka-service-1", "message burst", "orders topic floods"),
                 P("kafka-service-1", "fraud-detection-pod-1", "orders topic flooded and consumer delay", "fraud-detection consumer lag grows"),
                 P("kafka-service-1", "accounting-pod-1", "orders topic flooded and consumer delay", "accounting consumer lag grows")],
                {"category": "Change", "condition": "feature flag enabled", "entity": {"group_id": "flagd-config-1", "kind": "ConfigMap", "name": "flagd-config"}, "fault_mechanism": "custom"},
                [{"group_id": "fraud-detection-pod-1", "id": "KafkaConsumerGroupLagHigh"}, {"group_id": "accounting-pod-1", "id": "KafkaConsumerGroupLagHigh"}], wrapped=False)
    S.write(out, gt, {"tags": "py", "attrs": "json", "body": "plain", "kind": "long"})
    return "kafka-consumer-lag", "ConfigMap/flagd-config"


def sc11_node_mem(idx, out):
    """fraud-detection's memory limit and -Xmx were removed; its heap grows, worker-2 hits MemoryPressure and
    the kubelet evicts cart and recommendation pods (BestEffort/Burstable above request)."""
    S = Snap(idx, dt.datetime(2025, 9, 9, 17, 50, 0), 111)
    rel = S.t0 - dt.timedelta(minutes=12)
    newrs = rshash("fd-new")
    def mut(spec):
        c = spec["template"]["spec"]["containers"][0]
        c["resources"] = {"requests": {"cpu": "50m", "memory": "128Mi"}}
        c["env"] = [e for e in c["env"] if e["name"] != "JAVA_TOOL_OPTIONS"] + [{"name": "JAVA_TOOL_OPTIONS", "value": "-javaagent:/app/opentelemetry-javaagent.jar"}]
    with_background(S, managed=True)
    S.replace_objects("Deployment", "fraud-detection", lambda o, t: deployment("fraud-detection", newrs, t, rev=6, mut=mut, managed=True, gen=6), rel)
    S.drop_pods("fraud-detection", rel)
    fdp = podname("fraud-detection", newrs, S.rng)
    S.pod_since[fdp] = rel
    ts = sorted({t for t, o in S.objects if t >= rel})
    S.objects += [(t, pod_obj("fraud-detection", fdp, newrs, t, mut=mut)) for t in ts]
    S.normal_rollout_events("fraud-detection", rel - dt.timedelta(seconds=30), newrs, S.rs["fraud-detection"])
    S.pods["fraud-detection"] = [fdp]
    S.replace_objects("Node", "worker-2", lambda o, t: node_obj("worker-2", t, mem_pressure=True), S.t0)
    evicted = {}
    for svc in ("cart", "recommendation"):
        old = S.pods[svc][0]
        S.replace_objects("Pod", old, lambda o, t, svc=svc, old=old: pod_obj(svc, old, S.rs[svc], t, phase="Failed", ready=False, reason="Evicted",
                                                                         message="The node was low on resource: memory. Threshold quantity: 100Mi, available: 63428Ki. Container %s was using 212344Ki, request is 128Mi, has larger consumption of memory. " % svc), S.t0)
        newp = podname(svc, S.rs[svc], S.rng)
        evicted[svc] = (old, newp)
        for t in ts:
            if t >= S.t0:
                S.objects.append((t, pod_obj(svc, newp, S.rs[svc], t, phase="Pending", ready=False, node="",
                                             cstate={"waiting": {"reason": "ContainerCreating"}})))
        S.ev(S.t0 + dt.timedelta(seconds=20), "Pod", old, "Evicted", "The node was low on resource: memory. Threshold quantity: 100Mi, available: 63428Ki. Container %s was using 212344Ki, request is 128Mi, has larger consumption of memory." % svc, "Warning", host="worker-2", comp="kubelet")
        S.ev(S.t0 + dt.timedelta(seconds=21), "Pod", old, "Killing", f"Stopping container {svc}", host="worker-2")
        for k in range(1, 12):
            S.ev(S.t0 + dt.timedelta(minutes=k), "Pod", newp, "FailedScheduling", "0/4 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 node(s) had untolerated taint {node.kubernetes.io/memory-pressure: }, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.", "Warning", count=k, comp="default-scheduler", first=S.t0 + dt.timedelta(seconds=25), uid=False)
    S.ev(S.t0, "Node", "worker-2", "NodeHasInsufficientMemory", "Node worker-2 status is now: NodeHasInsufficientMemory", host="worker-2")
    S.ev(S.t0 + dt.timedelta(seconds=10), "Node", "worker-2", "EvictionThresholdMet", "Attempting to reclaim memory", "Warning", host="worker-2")
    S.call_fail[(None, "cart")] = (1.0, "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 10.96.88.141:8080", False)
    S.call_fail[(None, "recommendation")] = (1.0, "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 10.96.5.31:8080", False)
    S.active = lambda t: t >= S.t0 + dt.timedelta(seconds=25)
    S.gen_traffic(6)
    S.base_pod_metrics(["frontend", "checkout", "kafka", "product-catalog"])
    tags = {"namespace": NS, "pod": fdp, "container": "fraud-detection", "node": "worker-2"}
    S.metric_series(f"pod_{fdp}.tsv", "container_memory_working_set_bytes", lambda t: None if t < rel else (250 + 6.0 * (t - rel).total_seconds()) * 2 ** 20 if t < S.t0 else (250 + 6.0 * 720) * 2 ** 20 * S.rng.uniform(0.98, 1.0), tags, step=15)
    S.metric_series("node_worker-2.tsv", "node_memory_MemAvailable_bytes", lambda t: max(60e6, 5.1e9 - (0 if t < rel else 6.3e6 * (t - rel).total_seconds())), {"instance": "worker-2", "node": "worker-2"}, step=15)
    for svc, (old, newp) in evicted.items():
        S.metric_series(f"pod_{old}.tsv", "container_memory_working_set_bytes", lambda t: 207e6 * S.rng.uniform(0.98, 1.02) if t < S.t0 else None, {"namespace": NS, "pod": old, "container": svc, "node": "worker-2"})
    alerts = {}
    for m in (3, 8, 13):
        tt = S.t0 + dt.timedelta(minutes=m)
        a = normal_alerts(S, tt)
        a.append(S.alert("KubeNodePressure", {"node": "worker-2", "condition": "MemoryPressure", "job": "kube-state-metrics"}, "Node worker-2 has active Condition MemoryPressure.", S.t0, 1, "info"))
        a.append(S.alert("KubeDeploymentReplicasMismatch", {"deployment": "cart"}, f"Deployment {NS}/cart has not matched the expected number of replicas.", S.t0 + dt.timedelta(minutes=1), 1))
        a.append(S.alert("KubeDeploymentReplicasMismatch", {"deployment": "recommendation"}, f"Deployment {NS}/recommendation has not matched the expected number of replicas.", S.t0 + dt.timedelta(minutes=1), 1))
        a.append(S.alert("RequestErrorRate", {"service_name": "frontend"}, "Error rate in service frontend is above 5%", S.t0 + dt.timedelta(minutes=1), 0.45))
        alerts[tt] = a
    S.write_alerts(alerts, "prom")
    g = svc_groups("fraud-detection", "Deployment")[::2] + [grp("worker-2-node-1", "Node", "worker-2")] + svc_groups("cart") + svc_groups("recommendation") + svc_groups("frontend")[1:]
    gt = gt_doc(idx, g, [["fraud-detection-deployment-1", "fraud-detection-pod-1"], ["cart-deployment-1", "cart-service-1", "cart-pod-1"], ["recommendation-deployment-1", "recommendation-service-1", "recommendation-pod-1"], ["frontend-service-1", "frontend-pod-1"]],
                [P("fraud-detection-deployment-1", "fraud-detection-pod-1", "memory limit and heap cap removed", "fraud-detection memory grows without bound"),
                 P("fraud-detection-pod-1", "worker-2-node-1", "fraud-detection consumes the node's memory", "worker-2 MemoryPressure"),
                 P("worker-2-node-1", "cart-pod-1", "kubelet eviction under memory pressure", "cart pod evicted, replacement unschedulable"),
                 P("worker-2-node-1", "recommendation-pod-1", "kubelet eviction under memory pressure", "recommendation pod evicted, replacement unschedulable"),
                 P("cart-pod-1", "frontend-service-1", "cart unavailable", "frontend error rate above threshold"),
                 P("recommendation-pod-1", "frontend-service-1", "recommendation unavailable", "frontend error rate above threshold")],
                {"category": "Change", "condition": "memory limit removed", "entity": {"group_id": "fraud-detection-deployment-1", "kind": "Deployment", "name": "fraud-detection"}, "fault_mechanism": "custom"},
                [{"group_id": "worker-2-node-1", "id": "KubeNodePressure"}, {"group_id": "cart-deployment-1", "id": "KubeDeploymentReplicasMismatch"}, {"group_id": "recommendation-deployment-1", "id": "KubeDeploymentReplicasMismatch"}, {"group_id": "frontend-service-1", "id": "RequestErrorRate"}], wrapped=True)
    S.write(out, gt, {"tags": "json", "attrs": "ch", "body": "double"})
    return "node-memory-pressure", "Deployment/fraud-detection (via Node/worker-2)"


def sc12_readiness(idx, out):
    """quote: readiness probe moved to 8081 (nothing listens); maxSurge 0 so the old pod is gone; pods Running, not Ready."""
    S = Snap(idx, dt.datetime(2025, 10, 21, 8, 25, 0), 112)
    newrs = rshash("quote-new")
    def mut(spec):
        spec["strategy"] = {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 1}}
        spec["template"]["spec"]["containers"][0]["readinessProbe"] = {"tcpSocket": {"port": 8081}, "periodSeconds": 10, "timeoutSeconds": 1, "successThreshold": 1, "failureThreshold": 3}
    def mut0(spec):
        spec["strategy"] = {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 1}}
        spec["template"]["spec"]["containers"][0]["readinessProbe"] = {"tcpSocket": {"port": 8080}, "periodSeconds": 10, "timeoutSeconds": 1, "successThreshold": 1, "failureThreshold": 3}
    with_background(S)
    S.replace_objects("Deployment", "quote", lambda o, t: deployment("quote", S.rs["quote"], t, rev=7, mut=mut0, gen=7), S.start)
    S.replace_objects("Deployment", "quote", lambda o, t: deployment("quote", newrs, t, rev=8, mut=mut, status_ready=0, gen=8), S.t0)
    S.drop_pods("quote", S.t0)
    newpod = podname("quote", newrs, S.rng)
    S.pod_since[newpod] = S.t0 - dt.timedelta(seconds=20)
    ts = sorted({t for t, o in S.objects if t >= S.t0})
    S.objects += [(t, pod_obj("quote", newpod, newrs, t, mut=mut, ready=False, cstate={"running": {"startedAt": iso(S.t0, False)}})) for t in ts]
    S.ev(S.t0 - dt.timedelta(seconds=15), "Deployment", "quote", "ScalingReplicaSet", f"Scaled down replica set quote-{S.rs['quote']} to 0 from 1", comp="deployment-controller", style="new", uid=False)
    S.ev(S.t0 - dt.timedelta(seconds=14), "Deployment", "quote", "ScalingReplicaSet", f"Scaled up replica set quote-{newrs} to 1 from 0", comp="deployment-controller", style="new", uid=False)
    ip = "10.244.3.%d" % (int(h(newpod, 2), 16) % 250 + 2)
    for k in range(1, 15):
        S.ev(S.t0 + dt.timedelta(minutes=k), "Pod", newpod, "Unhealthy", f"Readiness probe failed: dial tcp {ip}:8081: connect: connection refused", "Warning", count=6 * k, host="worker-3", first=S.t0 + dt.timedelta(seconds=12), style="new", uid=False)
    S.call_fail[("shipping", "quote")] = (1.0, "error sending request for url (http://quote:8080/getquote): error trying to connect: tcp connect error: Connection refused (os error 111)", False)
    S.gen_traffic(6)
    for k in range(14):
        S.log(S.t0 + dt.timedelta(minutes=k, seconds=5), "quote", "INFO", '[2025-10-21T08:%02d:05.000Z] slim.INFO: quote service listening on 0.0.0.0:8080 []' % (25 + k) if k == 0 else "NOTICE: ready to handle connections", pod=newpod)
    S.base_pod_metrics(["shipping", "frontend", "checkout"])
    # no service metrics, no pod metrics for quote
    alerts = {}
    for m in (4, 9, 14):
        tt = S.t0 + dt.timedelta(minutes=m)
        a = normal_alerts(S, tt)
        a.append(S.alert("KubePodNotReady", {"pod": newpod}, f"Pod {NS}/{newpod} has been in a non-ready state for longer than 15 minutes.", S.t0 + dt.timedelta(minutes=1), 1))
        a.append(S.alert("RequestErrorRate", {"service_name": "shipping"}, "Error rate in service shipping is above 5%", S.t0 + dt.timedelta(minutes=1), 1.0))
        a.append(S.alert("RequestErrorRate", {"service_name": "checkout"}, "Error rate in service checkout is above 5%", S.t0 + dt.timedelta(minutes=2), 1.0))
        alerts[tt] = a
    S.write_alerts(alerts, "bare")
    g = svc_groups("quote", "Deployment") + svc_groups("shipping")[1:] + svc_groups("checkout")[1:] + svc_groups("frontend")[1:]
    gt = gt_doc(idx, g, [["quote-deployment-1", "quote-pod-1"], ["quote-service-1", "quote-pod-1"], ["shipping-service-1", "shipping-pod-1"], ["checkout-service-1", "checkout-pod-1"], ["frontend-service-1", "frontend-pod-1"]],
                [P("quote-deployment-1", "quote-pod-1", "readiness probe checks a port the container does not listen on", "quote pod never Ready"),
                 P("quote-pod-1", "quote-service-1", "no ready endpoints", "quote service refuses connections"),
                 P("quote-service-1", "shipping-service-1", "quote unreachable", "shipping GetQuote errors"),
                 P("shipping-service-1", "checkout-service-1", "GetQuote errors", "checkout PlaceOrder errors"),
                 P("shipping-service-1", "frontend-service-1", "GetQuote errors", "frontend errors")],
                {"category": "Change", "condition": "readiness probe misconfigured", "entity": {"group_id": "quote-deployment-1", "kind": "Deployment", "name": "quote"}, "fault_mechanism": "custom"},
                [{"group_id": "quote-pod-1", "id": "KubePodNotReady"}, {"group_id": "shipping-service-1", "id": "RequestErrorRate"}, {"group_id": "checkout-service-1", "id": "RequestErrorRate"}], wrapped=False)
    S.write(out, gt, {"tags": "py", "attrs": "json", "body": "doubled_quotes"})
    return "readiness-wrong-port", "Deployment/quote"


SCEN = [sc1_cpu_throttle, sc2_netpol, sc3_flag, sc4_targetport, sc5_badimage, sc6_oom_laststate,
        sc7_scaled_zero, sc8_env_crash, sc9_dns, sc10_kafka, sc11_node_mem, sc12_readiness]


def main():
    if len(sys.argv) != 2: sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    table = []
    for i, f in enumerate(SCEN, 1):
        fault, root = f(i, out)
        table.append({"scenario": f"Scenario-{i}", "fault": fault, "root_cause": root})
    with open(os.path.join(out, "cases.json"), "w") as fh:
        json.dump(table, fh, indent=1)
    print(f"{len(table)} snapshots written to {out}")


if __name__ == "__main__":
    main()
