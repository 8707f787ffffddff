#!/usr/bin/env python3
"""sre-set4 (library part copied from measurement/sre-set3/gen.py, with a network-delay hook): 12 blind SRE incident snapshots of the OpenTelemetry demo, each written in the shapes
other exporters produce (OTLP/JSON and Jaeger traces, OTLP/JSON, fluent-bit and plain-text logs,
kubectl watch streams and Lists, Alertmanager groups/webhooks), with ITBench-style ground truth.

Usage: python3 gen.py OUTDIR      (stdlib only, deterministic, independent of PYTHONHASHSEED)
Writes OUTDIR/Scenario-<N>/... and OUTDIR-answer_key.json beside OUTDIR (the answer key: hide it
from agents, with every ground_truth.yaml)."""
import gzip, hashlib, json, math, os, random, sys
from datetime import datetime, timedelta, timezone

NS = "otel-demo"
SAFE = "bcdfghjklmnpqrstvwxz2456789"
UTC = timezone.utc
VER = "2.0.2"

# service -> (port, sdk language, node, memory limit, address env vars it holds)
SVC = {
    "accounting":      (None, "dotnet", "worker-2", "120Mi", {"KAFKA_ADDR": "kafka:9092"}),
    "ad":              (8080, "java",   "worker-3", "300Mi", {"AD_PORT": "8080", "FLAGD_HOST": "flagd", "FLAGD_PORT": "8013"}),
    "cart":            (8080, "dotnet", "worker-1", "160Mi", {"CART_PORT": "8080", "VALKEY_ADDR": "valkey-cart:6379", "FLAGD_HOST": "flagd", "FLAGD_PORT": "8013"}),
    "checkout":        (8080, "go",     "worker-2", "20Mi",  {"CHECKOUT_PORT": "8080", "CART_ADDR": "cart:8080", "CURRENCY_ADDR": "currency:8080",
                                                                "EMAIL_ADDR": "http://email:8080", "PAYMENT_ADDR": "payment:8080",
                                                                "PRODUCT_CATALOG_ADDR": "product-catalog:8080", "SHIPPING_ADDR": "shipping:8080",
                                                                "KAFKA_ADDR": "kafka:9092", "FLAGD_HOST": "flagd", "FLAGD_PORT": "8013"}),
    "currency":        (8080, "cpp",    "worker-1", "20Mi",  {"CURRENCY_PORT": "8080"}),
    "email":           (8080, "ruby",   "worker-3", "100Mi", {"EMAIL_PORT": "8080"}),
    "flagd":           (8013, "go",     "worker-1", "75Mi",  {"FLAGD_METRICS_EXPORTER": "otel"}),
    "fraud-detection": (None, "java",   "worker-2", "300Mi", {"KAFKA_ADDR": "kafka:9092", "FLAGD_HOST": "flagd", "FLAGD_PORT": "8013"}),
    "frontend":        (8080, "nodejs", "worker-1", "250Mi", {"PORT": "8080", "AD_ADDR": "ad:8080", "CART_ADDR": "cart:8080", "CHECKOUT_ADDR": "checkout:8080",
                                                                "CURRENCY_ADDR": "currency:8080", "PRODUCT_CATALOG_ADDR": "product-catalog:8080",
                                                                "RECOMMENDATION_ADDR": "recommendation:8080", "SHIPPING_ADDR": "shipping:8080"}),
    "frontend-proxy":  (8080, "cpp",    "worker-3", "65Mi",  {"ENVOY_PORT": "8080", "FRONTEND_HOST": "frontend", "IMAGE_PROVIDER_HOST": "image-provider"}),
    "image-provider":  (8081, "cpp",    "worker-2", "50Mi",  {"IMAGE_PROVIDER_PORT": "8081"}),
    "kafka":           (9092, "java",   "worker-3", "600Mi", {"KAFKA_PROCESS_ROLES": "broker,controller"}),
    "load-generator":  (8089, "python", "worker-2", "1500Mi", {"LOCUST_USERS": "10", "LOCUST_HOST": "http://frontend-proxy:8080"}),
    "payment":         (8080, "nodejs", "worker-1", "120Mi", {"PAYMENT_PORT": "8080", "FLAGD_HOST": "flagd", "FLAGD_PORT": "8013"}),
    "product-catalog": (8080, "go",     "worker-3", "20Mi",  {"PRODUCT_CATALOG_PORT": "8080", "FLAGD_HOST": "flagd", "FLAGD_PORT": "8013"}),
    "quote":           (8080, "php",    "worker-1", "40Mi",  {"QUOTE_PORT": "8080"}),
    "recommendation":  (8080, "python", "worker-2", "500Mi", {"RECOMMENDATION_PORT": "8080", "PRODUCT_CATALOG_ADDR": "product-catalog:8080",
                                                                "FLAGD_HOST": "flagd", "FLAGD_PORT": "8013"}),
    "shipping":        (8080, "rust",   "worker-3", "20Mi",  {"SHIPPING_PORT": "8080", "QUOTE_ADDR": "http://quote:8080"}),
    "valkey-cart":     (6379, None,     "worker-1", "20Mi",  {}),
}
NODES = ["control-plane", "worker-1", "worker-2", "worker-3"]


def H(*parts):
    return hashlib.sha256("|".join(str(p) for p in parts).encode()).hexdigest()


def iso(t, frac=False):
    if frac:
        return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%06dZ" % t.microsecond
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def ns_of(t):
    return int(round((t - datetime(1970, 1, 1, tzinfo=UTC)).total_seconds() * 1e6)) * 1000


def ch_ts(t):  # ClickHouse DateTime64(9) text
    return t.strftime("%Y-%m-%d %H:%M:%S.") + "%06d000" % t.microsecond


def uid(*p):
    h = H("uid", *p)
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], "4" + h[13:16], "8" + h[17:20], h[20:32])


# ---------------------------------------------------------------- case definitions
class Case:
    """Everything a scenario needs; the hooks are overridden per case."""
    n = 0
    title = ""
    seed = ""
    start = None          # window start
    fault_min = 15        # fault at start + fault_min minutes
    enc = {}              # traces/logs/events/objects/alerts encodings
    def __init__(self):
        self.rng = random.Random(int(H("seed", self.seed)[:12], 16))
        self.F = self.start + timedelta(minutes=self.fault_min)
        self.E = self.start + timedelta(minutes=30)
        self.pods = {}    # svc -> list of (podname, node, created, deleted or None, hash)
        self.hashes = {}
        for s, (port, lang, node, mem, env) in SVC.items():
            h = "".join(self.rng.choice(SAFE) for _ in range(9 if self.rng.random() < .3 else 10))
            self.hashes[s] = [h]
            self.pods[s] = [[self.podname(s, h), node, self.start - timedelta(days=2, minutes=self.rng.randint(0, 600)), None, h]]
        self.extra_spans = []
        self.setup()
    def podname(self, svc, h):
        return "%s-%s-%s" % (svc, h, "".join(self.rng.choice(SAFE) for _ in range(5)))
    def new_pod(self, svc, t, node=None, new_hash=True, deleted_old=True):
        if new_hash:
            h = "".join(self.rng.choice(SAFE) for _ in range(10))
            self.hashes[svc].append(h)
        else:
            h = self.hashes[svc][-1]
        if deleted_old:
            for p in self.pods[svc]:
                if p[3] is None:
                    p[3] = t
        p = [self.podname(svc, h), node or SVC[svc][2], t, None, h]
        self.pods[svc].append(p)
        return p
    def pod_at(self, svc, t):
        live = [p for p in self.pods[svc] if p[2] <= t and (p[3] is None or p[3] > t)]
        return live[-1] if live else self.pods[svc][-1]
    # hooks -------------------------------------------------------------
    def setup(self): pass
    def edge(self, caller, callee, op, t):
        """None, or dict(fail=msg, dur=ms, server=False|True, code=..)"""
        return None
    def server(self, svc, op, t):
        """(extra_ms, error message or None)"""
        return 0, None
    def noise(self, svc, op, rng):
        """normal life: the load generator's expired test cards fail about 1 charge in 40"""
        if svc == "payment" and op == "Charge" and rng.random() < .025:
            return "Payment request failed. Invalid token. app.loyalty.level=gold"
        if svc == "product-catalog" and op == "GetProduct" and rng.random() < .004:
            return "Product Not Found: 9SIQT8TOJX"
        return None
    def wrap(self, svc, op, child, err):
        """the error text a server reports when its call to child failed"""
        return err
    def delay(self, caller, callee, op, t):
        """(ms before the request reaches the server, ms added to the response on the way back)"""
        return 0, 0
    def objects_at(self, t, objs): pass         # mutate the object list at observation t
    def events(self): return []
    def logs(self): return []
    def alerts(self, t): return []
    def metrics(self, spans): return {}
    def gt(self): raise NotImplementedError
    load = 1.0                                  # traffic multiplier


# ---------------------------------------------------------------- objects
def deployment(c, svc, t, **over):
    port, lang, node, mem, env = SVC[svc]
    h = c.pod_at(svc, t)[4]
    rev = c.hashes[svc].index(h) + 1 + 3
    envl = [{"name": "OTEL_SERVICE_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels['app.kubernetes.io/component']"}}},
            {"name": "OTEL_COLLECTOR_NAME", "value": "otel-collector"},
            {"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://$(OTEL_COLLECTOR_NAME):4317"}]
    envl += [{"name": k, "value": v} for k, v in env.items()]
    image = "valkey/valkey:8.1.3-alpine" if svc == "valkey-cart" else "ghcr.io/open-telemetry/demo:%s-%s" % (VER, svc)
    if svc == "kafka":
        image = "ghcr.io/open-telemetry/demo:%s-kafka" % VER
    cont = {"name": svc, "image": image, "imagePullPolicy": "IfNotPresent", "env": envl,
            "resources": {"limits": {"memory": mem}},
            "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}
    if port:
        cont["ports"] = [{"containerPort": port, "name": "service" if svc != "valkey-cart" else "valkey-cart", "protocol": "TCP"}]
    if svc == "valkey-cart":
        cont.pop("env")
    labels = {"app.kubernetes.io/component": svc, "app.kubernetes.io/name": svc, "app.kubernetes.io/instance": "opentelemetry-demo",
              "app.kubernetes.io/part-of": "opentelemetry-demo", "app.kubernetes.io/version": VER, "helm.sh/chart": "opentelemetry-demo-0.37.1",
              "app.kubernetes.io/managed-by": "Helm"}
    created = c.start - timedelta(days=9, hours=3, minutes=len(svc))
    d = {"apiVersion": "apps/v1", "kind": "Deployment",
         "metadata": {"name": svc, "namespace": NS, "uid": uid(c.n, "deploy", svc), "generation": rev,
                      "resourceVersion": str(400000 + rev * 37 + len(svc)),
                      "creationTimestamp": iso(created), "labels": labels,
                      "annotations": {"deployment.kubernetes.io/revision": str(rev), "meta.helm.sh/release-name": "opentelemetry-demo",
                                      "meta.helm.sh/release-namespace": NS},
                      "managedFields": [{"manager": "helm", "operation": "Update", "apiVersion": "apps/v1", "time": iso(created),
                                         "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:template": {}}}},
                                        {"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "apps/v1",
                                         "time": iso(c.pod_at(svc, t)[2] + timedelta(seconds=9)), "fieldsType": "FieldsV1",
                                         "fieldsV1": {"f:status": {}}, "subresource": "status"}]},
         "spec": {"replicas": 1, "revisionHistoryLimit": 10, "progressDeadlineSeconds": 600,
                  "selector": {"matchLabels": {"opentelemetry.io/name": svc}},
                  "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
                  "template": {"metadata": {"labels": {"opentelemetry.io/name": svc, "app.kubernetes.io/component": svc,
                                                         "app.kubernetes.io/name": svc}},
                               "spec": {"containers": [cont], "restartPolicy": "Always", "dnsPolicy": "ClusterFirst",
                                        "schedulerName": "default-scheduler", "serviceAccountName": "opentelemetry-demo",
                                        "terminationGracePeriodSeconds": 30, "securityContext": {}}}},
         "status": {"observedGeneration": rev, "replicas": 1, "updatedReplicas": 1, "readyReplicas": 1, "availableReplicas": 1,
                    "conditions": [{"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable",
                                    "message": "Deployment has minimum availability.", "lastUpdateTime": iso(created),
                                    "lastTransitionTime": iso(created)},
                                   {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable",
                                    "message": 'ReplicaSet "%s-%s" has successfully progressed.' % (svc, h),
                                    "lastUpdateTime": iso(c.pod_at(svc, t)[2]), "lastTransitionTime": iso(created)}]}}
    return d


def pod(c, svc, p, t, phase="Running", ready=True, cstate=None, init=None):
    name, node, created, deleted, h = p
    cs = {"name": svc, "ready": ready, "restartCount": 0, "started": ready,
          "image": "ghcr.io/open-telemetry/demo:%s-%s" % (VER, svc), "imageID": "ghcr.io/open-telemetry/demo@sha256:" + H("img", svc)[:64],
          "containerID": "containerd://" + H("cid", name)[:64],
          "state": cstate or {"running": {"startedAt": iso(created + timedelta(seconds=4))}}, "lastState": {}}
    st = {"phase": phase, "hostIP": "10.0.0.%d" % (11 + NODES.index(node)) if node else None,
          "podIP": "10.244.%d.%d" % (NODES.index(node) if node else 0, int(H(name)[:2], 16) % 250 + 2),
          "startTime": iso(created), "qosClass": "Burstable", "containerStatuses": [cs],
          "conditions": [{"type": "PodScheduled", "status": "True" if node else "False", "lastTransitionTime": iso(created)},
                         {"type": "Initialized", "status": "True" if not init else "False", "lastTransitionTime": iso(created)},
                         {"type": "ContainersReady", "status": "True" if ready else "False", "lastTransitionTime": iso(created + timedelta(seconds=6))},
                         {"type": "Ready", "status": "True" if ready else "False", "lastTransitionTime": iso(created + timedelta(seconds=6))}]}
    if not node:
        st = {"phase": "Pending", "qosClass": "Burstable", "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                                                                             "message": cstate or "", "lastTransitionTime": iso(created)}]}
    if init:
        st["initContainerStatuses"] = init
    dep = deployment(c, svc, created + timedelta(seconds=1))
    spec = json.loads(json.dumps(dep["spec"]["template"]["spec"]))
    if node:
        spec["nodeName"] = node
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "generateName": "%s-%s-" % (svc, h), "namespace": NS, "uid": uid(c.n, "pod", name),
                         "resourceVersion": str(500000 + int(H(name, t)[:4], 16)), "creationTimestamp": iso(created),
                         "labels": {"opentelemetry.io/name": svc, "app.kubernetes.io/component": svc, "app.kubernetes.io/name": svc,
                                    "pod-template-hash": h},
                         "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "%s-%s" % (svc, h),
                                              "uid": uid(c.n, "rs", svc, h), "controller": True, "blockOwnerDeletion": True}]},
            "spec": spec, "status": st}


def service(c, svc):
    port = SVC[svc][0]
    return {"apiVersion": "v1", "kind": "Service",
            "metadata": {"name": svc, "namespace": NS, "uid": uid(c.n, "svc", svc), "resourceVersion": str(3000 + len(svc)),
                         "creationTimestamp": iso(c.start - timedelta(days=9, hours=3)),
                         "labels": {"app.kubernetes.io/component": svc, "app.kubernetes.io/name": svc, "app.kubernetes.io/part-of": "opentelemetry-demo"}},
            "spec": {"type": "ClusterIP", "clusterIP": "10.96.%d.%d" % (int(H("ip", svc)[:2], 16) % 200 + 10, int(H("ip2", svc)[:2], 16) % 250 + 2),
                     "ports": [{"name": "tcp-service" if svc != "valkey-cart" else "valkey-cart", "port": port, "protocol": "TCP", "targetPort": port}],
                     "selector": {"opentelemetry.io/name": svc}, "sessionAffinity": "None"},
            "status": {"loadBalancer": {}}}


FLAGS = {
    "adFailure": ("Fail ad service", {"on": True, "off": False}),
    "adHighCpu": ("Triggers high cpu load in the ad service", {"on": True, "off": False}),
    "adManualGc": ("Triggers full manual garbage collections in the ad service", {"on": True, "off": False}),
    "cartFailure": ("Fail cart service", {"on": True, "off": False}),
    "imageSlowLoad": ("slow loading images in the frontend", {"10sec": 10000, "5sec": 5000, "off": 0}),
    "kafkaQueueProblems": ("Overloads Kafka queue while simultaneously introducing a consumer side delay leading to a lag spike", {"on": 100, "off": 0}),
    "loadGeneratorFloodHomepage": ("Flood the frontend with a large amount of requests.", {"on": 100, "off": 0}),
    "paymentFailure": ("Fail payment service charge requests n%", {"100%": 1, "90%": 0.95, "75%": 0.75, "50%": 0.5, "25%": 0.25, "10%": 0.1, "off": 0}),
    "paymentUnreachable": ("Payment service is unavailable", {"on": True, "off": False}),
    "productCatalogFailure": ("Fail product catalog service on a specific product", {"on": True, "off": False}),
    "recommendationCacheFailure": ("Fail recommendation service cache", {"on": True, "off": False}),
}


def flagd_cm(c, on=None, changed=None):
    flags = {}
    for k, (desc, var) in FLAGS.items():
        flags[k] = {"description": desc, "state": "ENABLED", "variants": var, "defaultVariant": on.get(k, "off") if on else "off"}
    txt = json.dumps({"$schema": "https://flagd.dev/schema/v0/flags.json", "flags": flags}, indent=2)
    created = c.start - timedelta(days=9, hours=3)
    mf = [{"manager": "helm", "operation": "Update", "apiVersion": "v1", "time": iso(created), "fieldsType": "FieldsV1",
           "fieldsV1": {"f:data": {".": {}, "f:demo.flagd.json": {}}}}]
    if changed:
        mf.append({"manager": "kubectl-edit", "operation": "Update", "apiVersion": "v1", "time": iso(changed), "fieldsType": "FieldsV1",
                   "fieldsV1": {"f:data": {"f:demo.flagd.json": {}}}})
    return {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "flagd-config", "namespace": NS, "uid": uid(c.n, "cm"), "resourceVersion": str(77120 if not changed else 611904),
                         "creationTimestamp": iso(created), "labels": {"app.kubernetes.io/part-of": "opentelemetry-demo", "app.kubernetes.io/managed-by": "Helm"},
                         "managedFields": mf},
            "data": {"demo.flagd.json": txt}}


def node_obj(c, name, unschedulable=False, since=None, pressure=None):
    o = {"apiVersion": "v1", "kind": "Node",
         "metadata": {"name": name, "uid": uid(c.n, "node", name), "resourceVersion": str(900000 + NODES.index(name)),
                      "creationTimestamp": iso(c.start - timedelta(days=40)),
                      "labels": {"kubernetes.io/hostname": name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
                                 "node-role.kubernetes.io/control-plane": ""} if name == "control-plane" else
                                {"kubernetes.io/hostname": name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64"}},
         "spec": {"podCIDR": "10.244.%d.0/24" % NODES.index(name)},
         "status": {"capacity": {"cpu": "4", "memory": "16373836Ki", "pods": "110"},
                    "allocatable": {"cpu": "4", "memory": "16271436Ki", "pods": "110"},
                    "conditions": [{"type": "MemoryPressure", "status": "False", "reason": "KubeletHasSufficientMemory"},
                                   {"type": "DiskPressure", "status": "False", "reason": "KubeletHasNoDiskPressure"},
                                   {"type": "PIDPressure", "status": "False", "reason": "KubeletHasSufficientPID"},
                                   {"type": "Ready", "status": "True", "reason": "KubeletReady"}],
                    "nodeInfo": {"kubeletVersion": "v1.31.4", "containerRuntimeVersion": "containerd://1.7.24", "architecture": "amd64"}}}
    if name == "control-plane":
        o["spec"]["taints"] = [{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]
    if unschedulable:
        o["spec"]["unschedulable"] = True
        o["spec"]["taints"] = [{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule", "timeAdded": iso(since)}]
        o["metadata"]["managedFields"] = [{"manager": "kubectl-cordon", "operation": "Update", "apiVersion": "v1", "time": iso(since),
                                           "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:unschedulable": {}}}}]
    return o


def base_objects(c, t):
    objs = []
    for s in SVC:
        objs.append(deployment(c, s, t))
        if SVC[s][0]:
            objs.append(service(c, s))
        for p in c.pods[s]:
            if p[2] <= t and (p[3] is None or p[3] > t):
                objs.append(pod(c, s, p, t))
    objs.append(flagd_cm(c))
    for n in NODES:
        objs.append(node_obj(c, n))
    return objs


# ---------------------------------------------------------------- traces
OPS = {  # (callee, op) -> (base ms, proto, rpc service)
    ("product-catalog", "ListProducts"): (2.0, "grpc", "oteldemo.ProductCatalogService"),
    ("product-catalog", "GetProduct"): (1.5, "grpc", "oteldemo.ProductCatalogService"),
    ("currency", "Convert"): (0.8, "grpc", "oteldemo.CurrencyService"),
    ("currency", "GetSupportedCurrencies"): (0.5, "grpc", "oteldemo.CurrencyService"),
    ("recommendation", "ListRecommendations"): (9.0, "grpc", "oteldemo.RecommendationService"),
    ("ad", "GetAds"): (6.0, "grpc", "oteldemo.AdService"),
    ("cart", "GetCart"): (3.0, "grpc", "oteldemo.CartService"),
    ("cart", "AddItem"): (4.0, "grpc", "oteldemo.CartService"),
    ("cart", "EmptyCart"): (3.0, "grpc", "oteldemo.CartService"),
    ("shipping", "GetQuote"): (5.0, "grpc", "oteldemo.ShippingService"),
    ("shipping", "ShipOrder"): (2.0, "grpc", "oteldemo.ShippingService"),
    ("quote", "POST /getquote"): (14.0, "http", None),
    ("payment", "Charge"): (8.0, "grpc", "oteldemo.PaymentService"),
    ("email", "POST /send_order_confirmation"): (35.0, "http", None),
    ("checkout", "PlaceOrder"): (20.0, "grpc", "oteldemo.CheckoutService"),
    ("valkey-cart", "HGET"): (0.4, "redis", None),
    ("valkey-cart", "HMSET"): (0.5, "redis", None),
    ("valkey-cart", "EXPIRE"): (0.3, "redis", None),
    ("kafka", "orders publish"): (3.0, "kafka", None),
    ("image-provider", "GET /images"): (4.0, "http", None),
    ("smtp", "smtp.send"): (120.0, "smtp", None),
}
VALKEY_GET = [("valkey-cart", "HGET", [])]
VALKEY_SET = [("valkey-cart", "HGET", []), ("valkey-cart", "HMSET", []), ("valkey-cart", "EXPIRE", [])]
CHECKOUT_TREE = [("cart", "GetCart", VALKEY_GET), ("product-catalog", "GetProduct", []), ("product-catalog", "GetProduct", []),
                 ("currency", "Convert", []), ("currency", "Convert", []),
                 ("shipping", "GetQuote", [("quote", "POST /getquote", [])]), ("currency", "Convert", []),
                 ("payment", "Charge", []), ("shipping", "ShipOrder", []),
                 ("email", "POST /send_order_confirmation", [("smtp", "smtp.send", [])]),
                 ("cart", "EmptyCart", VALKEY_SET), ("kafka", "orders publish", [])]
FLOWS = [  # weight, frontend route (None: proxy straight to image-provider), children
    (3.0, "GET /api/products", [("product-catalog", "ListProducts", [])]),
    (3.0, "GET /api/products/[productId]", [("product-catalog", "GetProduct", []), ("currency", "Convert", [])]),
    (2.0, "GET /api/recommendations", [("recommendation", "ListRecommendations", [("product-catalog", "ListProducts", [])])]),
    (2.0, "GET /api/data", [("ad", "GetAds", [])]),
    (2.0, "GET /api/cart", [("cart", "GetCart", VALKEY_GET)]),
    (1.5, "POST /api/cart", [("cart", "AddItem", VALKEY_SET)]),
    (1.0, "GET /api/shipping", [("shipping", "GetQuote", [("quote", "POST /getquote", [])]), ("currency", "Convert", [])]),
    (1.0, "GET /api/currency", [("currency", "GetSupportedCurrencies", [])]),
    (1.2, "POST /api/checkout", [("checkout", "PlaceOrder", CHECKOUT_TREE)]),
    (2.0, None, [("image-provider", "GET /images", [])]),
]
OPTIONAL = {("checkout", "email"), ("checkout", "kafka")}   # failures the caller tolerates (logs only)
PRODUCTS = ["OLJCESPC7Z", "66VCHSJNUP", "1YMWWN1N4O", "L9ECAV7KIM", "2ZYFJ3GM2N", "0PUK6V6EV0", "LS4PSXUNUM", "9SIQT8TOJO", "6E92ZMYYFZ", "HQTGWGPNH4"]


class Span(dict):
    pass


def gen_traces(c):
    rng = random.Random(int(H("traces", c.seed)[:12], 16))
    spans = []
    t = c.start + timedelta(seconds=rng.uniform(0, 3))
    tot = sum(w for w, _, _ in FLOWS)
    while t < c.E:
        w = rng.uniform(0, tot)
        for fw, route, kids in FLOWS:
            w -= fw
            if w <= 0:
                break
        trace = H("trace", c.seed, t.isoformat(), rng.random())[:32]
        mk = lambda: H("span", trace, rng.random())[:16]
        def srv(svc, name, parent, st, kind="server"):
            return Span(trace=trace, span=mk(), parent=parent, name=name, kind=kind, svc=svc, start=st, dur=0.0,
                        status="unset", msg="", attrs={})
        def call(caller, parent_span, callee, op, kids, st):
            """client span + server subtree; returns (client span, ok, end time, error text)"""
            base, proto, rsvc = OPS[(callee, op)]
            cl_name = "%s/%s" % (rsvc, op) if proto == "grpc" else op
            if proto == "redis":
                cl_name = op
            if proto == "kafka":
                cl_name = "orders publish"
            cl = Span(trace=trace, span=mk(), parent=parent_span["span"], name=cl_name, kind="producer" if proto == "kafka" else "client",
                      svc=caller, start=st, dur=0.0, status="unset", msg="", attrs={})
            port = SVC.get(callee, (587,))[0] or 0
            if proto == "grpc":
                cl["attrs"] = {"rpc.system": "grpc", "rpc.service": rsvc, "rpc.method": op, "server.address": callee, "server.port": port}
            elif proto == "http":
                cl["attrs"] = {"http.request.method": op.split()[0], "url.full": "http://%s:%d%s" % (callee, port, op.split()[1]),
                               "server.address": callee, "server.port": port}
            elif proto == "redis":
                cl["attrs"] = {"db.system": "redis", "db.statement": op + " cart:" + H(trace)[:8], "server.address": "valkey-cart", "server.port": 6379}
            elif proto == "kafka":
                cl["attrs"] = {"messaging.system": "kafka", "messaging.destination.name": "orders", "messaging.operation": "publish",
                               "server.address": "kafka", "server.port": 9092}
            elif proto == "smtp":
                cl["attrs"] = {"server.address": "smtp-relay.mail.example.net", "server.port": 587, "net.peer.name": "smtp-relay.mail.example.net"}
            f = c.edge(caller, callee, op, st)
            if f and f.get("attrs"):
                cl["attrs"].update(f["attrs"])
            spans.append(cl)
            if f and not f.get("server", False):
                cl["dur"] = f["dur"] * rng.uniform(.9, 1.1)
                cl["status"], cl["msg"] = "error", f["fail"]
                if proto == "grpc":
                    cl["attrs"]["rpc.grpc.status_code"] = f.get("code", 14)
                if proto == "http" and f.get("http"):
                    cl["attrs"]["http.response.status_code"] = f["http"]
                return cl, False, st + timedelta(milliseconds=cl["dur"]), f["fail"]
            if callee in ("valkey-cart", "smtp") or proto == "kafka":
                extra, err = c.server(callee, op, st)
                cl["dur"] = base * rng.lognormvariate(0, .25) + extra
                if err:
                    cl["status"], cl["msg"] = "error", err
                    return cl, False, st + timedelta(milliseconds=cl["dur"]), err
                if proto == "kafka":
                    for cons in ("accounting", "fraud-detection"):
                        ex, cerr = c.server(cons, "orders process", st)
                        if ex is None:
                            continue
                        cs = Span(trace=trace, span=mk(), parent=cl["span"], name="orders process", kind="consumer", svc=cons,
                                  start=st + timedelta(milliseconds=rng.uniform(20, 400) + ex), dur=rng.uniform(2, 15), status="unset", msg="",
                                  attrs={"messaging.system": "kafka", "messaging.destination.name": "orders", "messaging.operation": "process",
                                         "messaging.kafka.consumer.group": cons})
                        spans.append(cs)
                return cl, True, st + timedelta(milliseconds=cl["dur"]), None
            pre, post = c.delay(caller, callee, op, st)
            s = srv(callee, cl_name if proto == "grpc" else op, cl["span"], st + timedelta(milliseconds=rng.uniform(.1, .6) + pre))
            if proto == "grpc":
                s["attrs"] = {"rpc.system": "grpc", "rpc.service": rsvc, "rpc.method": op}
            else:
                s["attrs"] = {"http.request.method": op.split()[0], "url.path": op.split()[1], "http.route": op.split()[1]}
            if callee == "product-catalog" and op == "GetProduct":
                s["attrs"]["app.product.id"] = rng.choice(PRODUCTS)
            spans.append(s)
            cur = s["start"] + timedelta(milliseconds=base * .3 * rng.lognormvariate(0, .3))
            ok, err = True, None
            for (cc, cop, ckids) in kids:
                ch, cok, cend, cerr = call(callee, s, cc, cop, ckids, cur)
                cur = cend + timedelta(milliseconds=rng.uniform(.05, .4))
                if not cok and (callee, cc) not in OPTIONAL:
                    ok, err = False, c.wrap(callee, op, cc, cerr)
                    break
            extra, serr = c.server(callee, op, st)
            if not serr:
                serr = c.noise(callee, op, rng)
            cur += timedelta(milliseconds=base * .7 * rng.lognormvariate(0, .3) + extra)
            if serr and ok:
                ok, err = False, serr
            s["dur"] = (cur - s["start"]).total_seconds() * 1000
            if f and f.get("server"):
                ok, err = False, f["fail"]
            if not ok:
                s["status"], s["msg"] = "error", err
                if proto == "grpc":
                    s["attrs"]["rpc.grpc.status_code"] = (f or {}).get("code", 13)
                else:
                    s["attrs"]["http.response.status_code"] = 500
            elif proto == "grpc":
                s["attrs"]["rpc.grpc.status_code"] = 0
            else:
                s["attrs"]["http.response.status_code"] = 200
            cl["dur"] = s["dur"] + rng.uniform(.3, 1.5) + pre + post
            if not ok:
                cl["status"], cl["msg"] = "error", err
                if proto == "grpc":
                    cl["attrs"]["rpc.grpc.status_code"] = s["attrs"]["rpc.grpc.status_code"]
                else:
                    cl["attrs"]["http.response.status_code"] = 500
            elif proto == "grpc":
                cl["attrs"]["rpc.grpc.status_code"] = 0
            else:
                cl["attrs"]["http.response.status_code"] = 200
            return cl, ok, st + timedelta(milliseconds=cl["dur"]), err
        # load generator -> frontend-proxy
        path = route.split()[1] if route else "/images/" + rng.choice(["NationalParkFoundationExplorascope.jpg", "RoofBinoculars.jpg", "SolarSystemColorImager.jpg"])
        method = route.split()[0] if route else "GET"
        lg = Span(trace=trace, span=mk(), parent="", name=method, kind="client", svc="load-generator", start=t, dur=0.0, status="unset", msg="",
                  attrs={"http.request.method": method, "url.full": "http://frontend-proxy:8080" + path.replace("[productId]", rng.choice(PRODUCTS)),
                         "server.address": "frontend-proxy", "server.port": 8080})
        px = srv("frontend-proxy", "ingress", lg["span"], t + timedelta(milliseconds=.4))
        px["attrs"] = {"http.method": method, "upstream_cluster": "frontend" if route else "image-provider", "node_id": "sidecar~frontend-proxy",
                       "component": "proxy", "guid:x-request-id": H("rid", trace)[:32]}
        spans.append(lg); spans.append(px)
        cur = px["start"] + timedelta(milliseconds=.3)
        ok, err = True, None
        if route:
            fe_client = Span(trace=trace, span=mk(), parent=px["span"], name="router frontend egress", kind="client", svc="frontend-proxy",
                             start=cur, dur=0.0, status="unset", msg="", attrs={"upstream_cluster": "frontend", "server.address": "frontend", "server.port": 8080})
            spans.append(fe_client)
            fe = srv("frontend", route, fe_client["span"], cur + timedelta(milliseconds=.4))
            fe["attrs"] = {"http.request.method": method, "http.route": route.split()[1], "url.path": path}
            spans.append(fe)
            c2 = fe["start"] + timedelta(milliseconds=rng.uniform(1, 3))
            for (cc, cop, ckids) in kids:
                ch, cok, cend, cerr = call("frontend", fe, cc, cop, ckids, c2)
                c2 = cend + timedelta(milliseconds=rng.uniform(.2, 1))
                if not cok:
                    ok, err = False, cerr
                    break
            extra, serr = c.server("frontend", route, t)
            c2 += timedelta(milliseconds=rng.uniform(2, 8) + extra)
            if serr and ok:
                ok, err = False, serr
            fe["dur"] = (c2 - fe["start"]).total_seconds() * 1000
            fe["attrs"]["http.response.status_code"] = 200 if ok else 500
            if not ok:
                fe["status"], fe["msg"] = "error", ""
            fe_client["dur"] = fe["dur"] + rng.uniform(.3, 1)
            fe_client["attrs"]["http.response.status_code"] = 200 if ok else 500
            cur = fe_client["start"] + timedelta(milliseconds=fe_client["dur"])
        else:
            ch, ok, cend, err = call("frontend-proxy", px, "image-provider", "GET /images", [], cur)
            cur = cend
        px["dur"] = (cur - px["start"]).total_seconds() * 1000 + rng.uniform(.2, .8)
        px["attrs"]["http.status_code"] = "200" if ok else "500"
        px["attrs"]["response_flags"] = "-"
        if not ok:
            px["status"] = "error"
        lg["dur"] = px["dur"] + rng.uniform(.5, 2)
        lg["attrs"]["http.response.status_code"] = 200 if ok else 500
        if not ok:
            lg["status"] = "error"
        t += timedelta(seconds=rng.expovariate(1 / (4.0 / c.load)))
    spans.extend(c.extra_spans)
    spans.sort(key=lambda s: (s["start"], s["span"]))
    return spans


def res_attrs(c, svc, t):
    if svc == "smtp":
        svc = "email"
    p = c.pod_at(svc, t) if svc in SVC else [svc, "worker-1"]
    lang = (SVC.get(svc) or (0, "go"))[1] or "go"
    return {"service.name": svc, "service.namespace": "opentelemetry-demo", "service.version": VER,
            "k8s.namespace.name": NS, "k8s.pod.name": p[0], "k8s.deployment.name": svc, "k8s.node.name": p[1] or "",
            "telemetry.sdk.language": lang, "telemetry.sdk.name": "opentelemetry"}


def any_value(v):
    if isinstance(v, bool):
        return {"boolValue": v}
    if isinstance(v, int):
        return {"intValue": str(v)}
    if isinstance(v, float):
        return {"doubleValue": v}
    return {"stringValue": str(v)}


def kv(d):
    return [{"key": k, "value": any_value(v)} for k, v in d.items()]


KIND_NUM = {"internal": 1, "server": 2, "client": 3, "producer": 4, "consumer": 5}
SCOPE = {"go": "go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc", "nodejs": "@opentelemetry/instrumentation-http",
         "java": "io.opentelemetry.grpc-1.6", "dotnet": "OpenTelemetry.Instrumentation.AspNetCore", "python": "opentelemetry.instrumentation.grpc",
         "rust": "opentelemetry-otlp", "php": "io.opentelemetry.contrib.php.slim", "ruby": "OpenTelemetry::Instrumentation::Sinatra",
         "cpp": "envoy"}


def otlp_traces(c, spans, per_line):
    """OTLP/JSON ExportTraceServiceRequest: one for everything, or one per 15 s batch (one per line)."""
    batches = {}
    for s in spans:
        key = int((s["start"] - c.start).total_seconds() // 15) if per_line else 0
        batches.setdefault(key, []).append(s)
    out = []
    for key in sorted(batches):
        by_res = {}
        for s in batches[key]:
            ra = res_attrs(c, s["svc"], s["start"])
            by_res.setdefault(json.dumps(ra, sort_keys=True), []).append(s)
        rs = []
        for rk in sorted(by_res):
            ra = json.loads(rk)
            sp = []
            for s in by_res[rk]:
                st = ns_of(s["start"])
                d = {"traceId": s["trace"], "spanId": s["span"], "parentSpanId": s["parent"], "name": s["name"],
                     "kind": KIND_NUM[s["kind"]], "startTimeUnixNano": str(st), "endTimeUnixNano": str(st + int(s["dur"] * 1e6)),
                     "attributes": kv(s["attrs"]), "status": {}}
                if s["status"] == "error":
                    d["status"] = {"code": 2, "message": s["msg"]} if s["msg"] else {"code": 2}
                if not s["parent"]:
                    del d["parentSpanId"]
                sp.append(d)
            rs.append({"resource": {"attributes": kv(ra)},
                       "scopeSpans": [{"scope": {"name": SCOPE.get(ra["telemetry.sdk.language"], "opentelemetry"), "version": "0.58.0"}, "spans": sp}],
                       "schemaUrl": "https://opentelemetry.io/schemas/1.26.0"})
        out.append(json.dumps({"resourceSpans": rs}, separators=(",", ":")))
    return "\n".join(out) + "\n"


def jaeger_traces(c, spans):
    """Jaeger query API /api/traces response (µs times, tags, processes)."""
    by_trace = {}
    for s in spans:
        by_trace.setdefault(s["trace"], []).append(s)
    data = []
    for tid in sorted(by_trace, key=lambda k: by_trace[k][0]["start"]):
        procs, pid_of, js = {}, {}, []
        for s in by_trace[tid]:
            ra = res_attrs(c, s["svc"], s["start"])
            key = ra["service.name"] + "|" + ra["k8s.pod.name"]
            if key not in pid_of:
                pid_of[key] = "p%d" % (len(pid_of) + 1)
                procs[pid_of[key]] = {"serviceName": ra["service.name"],
                                      "tags": [{"key": k, "type": "string", "value": v} for k, v in ra.items() if k != "service.name"]}
            tags = []
            for k, v in s["attrs"].items():
                tp = "bool" if isinstance(v, bool) else "int64" if isinstance(v, int) else "float64" if isinstance(v, float) else "string"
                tags.append({"key": k, "type": tp, "value": v})
            tags.append({"key": "span.kind", "type": "string", "value": s["kind"]})
            if s["status"] == "error":
                tags.append({"key": "otel.status_code", "type": "string", "value": "ERROR"})
                if s["msg"]:
                    tags.append({"key": "otel.status_description", "type": "string", "value": s["msg"]})
                tags.append({"key": "error", "type": "bool", "value": True})
            tags.append({"key": "internal.span.format", "type": "string", "value": "otlp"})
            refs = [{"refType": "CHILD_OF", "traceID": tid, "spanID": s["parent"]}] if s["parent"] else []
            js.append({"traceID": tid, "spanID": s["span"], "operationName": s["name"], "references": refs, "flags": 1,
                       "startTime": ns_of(s["start"]) // 1000, "duration": max(1, int(s["dur"] * 1000)), "tags": tags,
                       "logs": [], "processID": pid_of[key], "warnings": None})
        data.append({"traceID": tid, "spans": js, "processes": procs, "warnings": None})
    return json.dumps({"data": data, "total": 0, "limit": 0, "offset": 0, "errors": None}, separators=(",", ":"))


def tsv_field(x, quote):
    x = "" if x is None else str(x)
    if quote == "raw":
        return x.replace("\t", " ").replace("\n", "\\n")
    if quote == "csv" and not any(ch in x for ch in '"\t\n'):
        return x
    return '"' + x.replace('"', '""') + '"'


def tsv(header, rows, quote):
    lines = ["\t".join(header)]
    for r in rows:
        lines.append("\t".join(tsv_field(x, quote) for x in r))
    return "\n".join(lines) + "\n"


def tsv_traces(c, spans, quote):
    """ClickHouse exporter rows; the csv-quoted variant is an older exporter (pdata names SPAN_KIND_*/STATUS_CODE_*)."""
    old_pdata = quote == "csv"
    rows = []
    for s in spans:
        ra = res_attrs(c, s["svc"], s["start"])
        rows.append([ch_ts(s["start"]), s["trace"], s["span"], s["parent"], "", s["name"],
                     ("SPAN_KIND_" + s["kind"].upper()) if old_pdata else s["kind"].capitalize(), ra["service.name"], json.dumps(ra), "opentelemetry",
                     json.dumps(s["attrs"]), int(s["dur"] * 1e6),
                     ("STATUS_CODE_ERROR" if s["status"] == "error" else "STATUS_CODE_UNSET") if old_pdata else ("Error" if s["status"] == "error" else "Unset"),
                     s["msg"]])
    return tsv(["Timestamp", "TraceId", "SpanId", "ParentSpanId", "TraceState", "SpanName", "SpanKind", "ServiceName", "ResourceAttributes",
                "ScopeName", "SpanAttributes", "Duration", "StatusCode", "StatusMessage"], rows, quote)


# ---------------------------------------------------------------- logs
def background_logs(c, spans):
    """(time, svc, level, text, trace, span) from normal operation."""
    rng = random.Random(int(H("logs", c.seed)[:12], 16))
    out = []
    for s in spans:
        if s["kind"] != "server" and s["kind"] != "consumer":
            continue
        svc, ok = s["svc"], s["status"] != "error"
        t = s["start"] + timedelta(milliseconds=s["dur"] * .8)
        if not ok and svc == "payment":
            out.append((t, svc, "ERROR", json.dumps({"level": 50, "time": ns_of(t) // 1000000, "pid": 1, "hostname": c.pod_at("payment", t)[0],
                                                      "err": {"type": "Error", "message": s["msg"]}, "msg": "Payment request failed"}), s["trace"], s["span"]))
            continue
        if not ok or rng.random() > .5:
            continue
        txt = None
        if svc == "checkout" and s["name"].endswith("PlaceOrder"):
            txt = "time=%s level=INFO msg=\"payment went through\" transaction_id=%s" % (iso(t, True), uid("tx", s["span"]))
        elif svc == "payment":
            txt = json.dumps({"level": 30, "time": ns_of(t) // 1000000, "pid": 1, "hostname": c.pod_at("payment", t)[0],
                              "transactionId": uid("tx", s["span"]), "cardType": rng.choice(["visa", "mastercard"]), "msg": "Transaction complete."})
        elif svc == "ad":
            txt = "Targeted ad request received for [%s]" % rng.choice(["telescopes", "binoculars", "accessories", "travel", "books"])
        elif svc == "cart" and "GetCart" in s["name"]:
            txt = "GetCartAsync called with userId=%s" % uid("user", s["trace"])
        elif svc == "recommendation":
            txt = "Receive ListRecommendations for product ids:['%s']" % rng.choice(PRODUCTS)
        elif svc == "shipping" and "GetQuote" in s["name"]:
            txt = json.dumps({"timestamp": iso(t, True), "level": "INFO", "fields": {"message": "Sending Quote"}, "target": "shipping::shipping_service"})
        elif svc == "quote":
            txt = "[%s] quote.INFO: Calculated quote {\"total\":%.2f} []" % (iso(t), rng.uniform(5, 90))
        elif svc == "email":
            txt = "Order confirmation email sent to: %s@example.com" % H("mail", s["span"])[:8]
        elif svc == "currency" and rng.random() < .3:
            txt = "Conversion request successful"
        elif svc == "fraud-detection":
            txt = "Consumed record with orderId: %s, and updated total count to: %d" % (uid("ord", s["trace"]), rng.randint(100, 900))
        elif svc == "accounting":
            txt = "Order details: {\"orderId\":\"%s\"}" % uid("ord", s["trace"])
        if txt:
            out.append((t, svc, "INFO", txt, s["trace"], s["span"]))
    return out


def raw_line(s, lvl, txt, t):
    """what the container itself prints (fluent-bit ships it untouched)"""
    if txt.startswith("{") or "level=" in txt or txt.startswith(("ERROR:", "INFO:", "WARNING:", "[", "nc:", "waiting", "1:M")):
        return txt
    lang = (SVC.get(s) or (0, ""))[1]
    if lang == "dotnet":
        return "%s: %s[0]\n      %s" % ({"ERROR": "fail", "WARN": "warn"}.get(lvl, "info"), "cart.cartstore.ValkeyCartStore" if s == "cart" else "Accounting.Consumer", txt)
    if lang == "java":
        return "%s - %s - %s" % (t.strftime("%Y-%m-%d %H:%M:%S"), "oteldemo.AdService" if s == "ad" else "frauddetection", txt)
    if lang == "python":
        return "%s:root:%s" % ({"WARN": "WARNING"}.get(lvl, lvl), txt)
    if lang == "ruby":
        return "%s, [%s #1] %5s -- : %s" % (lvl[0], t.strftime("%Y-%m-%dT%H:%M:%S.%f"), lvl, txt)
    return txt


def fmt_logs(c, recs, shape):
    recs = sorted(recs, key=lambda r: (r[0], r[1], r[3]))
    if shape == "otlp":
        by = {}
        for r in recs:
            ra = res_attrs(c, r[1], r[0]) if r[1] in SVC else {"service.name": r[1], "k8s.namespace.name": "kube-system"}
            by.setdefault(json.dumps(ra, sort_keys=True), []).append(r)
        rl = []
        for rk in sorted(by):
            lr = []
            for (t, s, lvl, txt, tr, sp) in by[rk]:
                d = {"timeUnixNano": str(ns_of(t)), "observedTimeUnixNano": str(ns_of(t) + 1800000),
                     "severityNumber": {"DEBUG": 5, "INFO": 9, "WARN": 13, "ERROR": 17, "FATAL": 21}[lvl], "severityText": lvl,
                     "body": {"stringValue": txt}, "attributes": [], "traceId": tr or "", "spanId": sp or ""}
                lr.append(d)
            ra = json.loads(rk)
            rl.append({"resource": {"attributes": kv(ra)}, "scopeLogs": [{"scope": {"name": ra["service.name"]}, "logRecords": lr}]})
        return json.dumps({"resourceLogs": rl}, separators=(",", ":")) + "\n"
    if shape == "fluentbit":
        lines = []
        for (t, s, lvl, txt, tr, sp) in recs:
            p = c.pod_at(s, t) if s in SVC else ["%s-0" % s, "worker-1", 0, 0, ""]
            line = raw_line(s, lvl, txt, t)
            lines.append(json.dumps({"date": round((t - datetime(1970, 1, 1, tzinfo=UTC)).total_seconds(), 6), "time": iso(t, True),
                                     "stream": "stderr" if lvl in ("ERROR", "WARN") else "stdout", "_p": "F", "log": line,
                                     "kubernetes": {"pod_name": p[0], "namespace_name": NS if s != "coredns" else "kube-system",
                                                    "container_name": s, "host": p[1] or "", "labels": {"app.kubernetes.io/name": s},
                                                    "container_image": "ghcr.io/open-telemetry/demo:%s-%s" % (VER, s)}}, separators=(",", ":")))
        return "\n".join(lines) + "\n"
    if shape == "text":
        lines = []
        for (t, s, lvl, txt, tr, sp) in recs:
            first, *rest = txt.split("\n")
            lines.append("%s %-5s [%s] %s" % (iso(t, True), lvl, s, first))
            lines.extend(rest)
        return "\n".join(lines) + "\n"
    rows = []  # v0.2 TSV
    for (t, s, lvl, txt, tr, sp) in recs:
        ra = res_attrs(c, s, t) if s in SVC else {"service.name": s, "k8s.namespace.name": "kube-system"}
        rows.append([ch_ts(t), tr or "", sp or "", 0, lvl, {"DEBUG": 5, "INFO": 9, "WARN": 13, "ERROR": 17}[lvl], s, txt, json.dumps(ra), "{}"])
    return tsv(["Timestamp", "TraceId", "SpanId", "TraceFlags", "SeverityText", "SeverityNumber", "ServiceName", "Body",
                "ResourceAttributes", "LogAttributes"], rows, "csv")


# ---------------------------------------------------------------- events
API_OF = {"Deployment": "apps/v1", "ReplicaSet": "apps/v1", "HorizontalPodAutoscaler": "autoscaling/v2", "CronJob": "batch/v1"}


def ev(c, t, kind, name, reason, msg, typ="Normal", comp="kubelet", host=None, count=1, first=None, ns=NS, api=None):
    api = api or API_OF.get(kind, "v1")
    return dict(t=t, kind=kind, name=name, reason=reason, msg=msg, type=typ, comp=comp, host=host, count=count, first=first or t, ns=ns, api=api)


def pod_start_events(c, svc, p):
    name, node, t = p[0], p[1], p[2]
    img = "ghcr.io/open-telemetry/demo:%s-%s" % (VER, svc)
    return [ev(c, t, "Pod", name, "Scheduled", "Successfully assigned %s/%s to %s" % (NS, name, node), comp="default-scheduler"),
            ev(c, t + timedelta(seconds=1), "Pod", name, "Pulled", 'Container image "%s" already present on machine' % img, host=node),
            ev(c, t + timedelta(seconds=1), "Pod", name, "Created", "Created container %s" % svc, host=node),
            ev(c, t + timedelta(seconds=2), "Pod", name, "Started", "Started container %s" % svc, host=node)]


def background_events(c):
    out = [ev(c, c.start + timedelta(minutes=3, seconds=12), "Pod", c.pod_at("frontend-proxy", c.start)[0], "Unhealthy",
              "Readiness probe failed: Get \"http://10.244.3.41:8080/ready\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
              typ="Warning", host=SVC["frontend-proxy"][2]),
           ev(c, c.start + timedelta(minutes=7), "CronJob", "opensearch-index-cleanup", "SawCompletedJob",
              "Saw completed job: opensearch-index-cleanup-29012340, status: Complete", comp="cronjob-controller"),
           ev(c, c.start + timedelta(minutes=22), "CronJob", "opensearch-index-cleanup", "SuccessfulDelete",
              "Deleted job opensearch-index-cleanup-29012280", comp="cronjob-controller")]
    return out


def fmt_events(c, evs, shape):
    evs = sorted(evs, key=lambda e: (e["t"], e["name"], e["reason"]))
    objs = []
    for i, e in enumerate(evs):
        nm = "%s.%s" % (e["name"], H("ev", e["name"], e["reason"], e["t"])[:16])
        inv = {"kind": e["kind"], "name": e["name"], "namespace": e["ns"], "apiVersion": e["api"]}
        if e["kind"] == "Node":
            inv.pop("namespace")
        if shape == "eventsv1":
            o = {"apiVersion": "events.k8s.io/v1", "kind": "Event",
                 "metadata": {"name": nm, "namespace": e["ns"] or "default", "creationTimestamp": iso(e["first"])},
                 "eventTime": None if e["comp"] == "kubelet" else iso(e["t"], True), "reason": e["reason"], "note": e["msg"], "type": e["type"],
                 "regarding": inv, "reportingController": e["comp"] if "/" in e["comp"] else "kubernetes.io/" + e["comp"] if e["comp"] == "kubelet" else e["comp"],
                 "reportingInstance": e["host"] or e["comp"], "action": "Binding" if e["reason"] == "Scheduled" else e["reason"],
                 "deprecatedSource": {"component": e["comp"], "host": e["host"]} if e["host"] else {"component": e["comp"]},
                 "deprecatedFirstTimestamp": iso(e["first"]), "deprecatedLastTimestamp": iso(e["t"]), "deprecatedCount": e["count"]}
            if e["count"] > 1:
                o["series"] = {"count": e["count"], "lastObservedTime": iso(e["t"], True)}
        else:
            o = {"apiVersion": "v1", "kind": "Event",
                 "metadata": {"name": nm, "namespace": e["ns"] or "default", "resourceVersion": str(700000 + i), "creationTimestamp": iso(e["first"])},
                 "involvedObject": inv, "reason": e["reason"], "message": e["msg"], "type": e["type"], "count": e["count"],
                 "firstTimestamp": iso(e["first"]), "lastTimestamp": iso(e["t"]),
                 "source": {"component": e["comp"], "host": e["host"]} if e["host"] else {"component": e["comp"]},
                 "reportingComponent": e["comp"], "reportingInstance": e["host"] or ""}
        objs.append((e, o))
    if shape in ("list", "eventsv1"):
        return json.dumps({"apiVersion": "v1", "kind": "List", "items": [o for _, o in objs], "metadata": {"resourceVersion": ""}}, indent=1)
    if shape == "watch":
        return "\n".join(json.dumps({"type": "ADDED" if e["count"] == 1 else "MODIFIED", "object": o}, separators=(",", ":")) for e, o in objs) + "\n"
    rows = [[ch_ts(e["t"]), "", "", 0, "", 0, "", json.dumps({"object": o, "type": "ADDED" if e["count"] == 1 else "MODIFIED"}), "{}", "{}"] for e, o in objs]
    return tsv(["Timestamp", "TraceId", "SpanId", "TraceFlags", "SeverityText", "SeverityNumber", "ServiceName", "Body", "ResourceAttributes",
                "LogAttributes"], rows, "csv")


# ---------------------------------------------------------------- objects output
def object_snapshots(c):
    snaps = []
    t = c.start
    while t <= c.E:
        objs = base_objects(c, t)
        c.objects_at(t, objs)
        snaps.append((t, objs))
        t += timedelta(minutes=5)
    return snaps


def fmt_objects(c, shape):
    snaps = object_snapshots(c)
    if shape in ("tsv", "tsvgz"):
        rows = []
        for t, objs in snaps:
            for i, o in enumerate(objs):
                rows.append([ch_ts(t + timedelta(milliseconds=i * 3)), "", "", 0, "", 0, "", json.dumps(o, separators=(",", ":")), "{}",
                             json.dumps({"k8s.resource.name": o["kind"].lower() + "s", "event.domain": "k8s", "event.name": o["metadata"]["name"]})])
        return tsv(["Timestamp", "TraceId", "SpanId", "TraceFlags", "SeverityText", "SeverityNumber", "ServiceName", "Body",
                    "ResourceAttributes", "LogAttributes"], rows, "csv")
    if shape == "watch":  # kubectl get ... -w -o json: the initial list, then an object each time it changes
        lines, last = [], {}
        for t, objs in snaps:
            seen = set()
            for o in objs:
                k = (o["kind"], o["metadata"].get("namespace", ""), o["metadata"]["name"])
                seen.add(k)
                body = json.dumps(o, sort_keys=True)
                strip = json.loads(body)
                strip["metadata"].pop("resourceVersion", None)
                sig = json.dumps(strip, sort_keys=True)
                if last.get(k) != sig:
                    if k in last:  # a change: the object carries its change time in managedFields
                        mf = o["metadata"].setdefault("managedFields", [])
                        if not any(m.get("time", "") >= iso(t - timedelta(minutes=5)) for m in mf):
                            mf.append({"manager": "kube-controller-manager" if o["kind"] in ("Pod", "Deployment") else "kubectl",
                                       "operation": "Update", "apiVersion": o["apiVersion"], "time": iso(t - timedelta(seconds=20)),
                                       "fieldsType": "FieldsV1", "fieldsV1": {"f:status": {}}, "subresource": "status"})
                        o["metadata"]["resourceVersion"] = str(int(o["metadata"].get("resourceVersion", "1")) + 1)
                    lines.append(json.dumps(o, separators=(",", ":")))
                    last[k] = sig
        return "\n".join(lines) + "\n"
    # a single kubectl get -o json List at the end of the window
    t, objs = snaps[-1]
    return json.dumps({"apiVersion": "v1", "kind": "List", "items": objs, "metadata": {"resourceVersion": ""}}, indent=1)


# ---------------------------------------------------------------- alerts
def alert(name, labels, since, t, for_min, summary, value=None, severity="warning"):
    st = "firing" if t >= since + timedelta(minutes=for_min) else "pending"
    lab = {"alertname": name, "severity": severity}
    lab.update(labels)
    return dict(labels=lab, annotations={"summary": summary, "description": summary}, since=since, state=st, value=value)


def bg_alerts(c, t):
    return [alert("Watchdog", {"prometheus": "monitoring/kube-prometheus-stack-prometheus"}, c.start - timedelta(days=9), t, 0,
                  "An alert that should always be firing to certify that Alertmanager is working properly.", severity="none"),
            alert("KubeCPUOvercommit", {"prometheus": "monitoring/kube-prometheus-stack-prometheus"}, c.start - timedelta(days=3, hours=2), t, 10,
                  "Cluster has overcommitted CPU resource requests.", value=1.08)]


def fmt_alerts(c, t, alerts, shape):
    alerts = [a for a in alerts if a["since"] <= t]
    fp = lambda a: H("fp", json.dumps(a["labels"], sort_keys=True))[:16]
    gen = "http://prometheus-kube-prometheus-prometheus.monitoring:9090/graph?g0.expr=..."
    if shape == "prom":
        return {"status": "success", "data": {"alerts": [{"labels": a["labels"], "annotations": a["annotations"], "state": a["state"],
                                                           "activeAt": iso(a["since"], True), "value": "%e" % (a["value"] if a["value"] is not None else 1)}
                                                          for a in alerts]}}
    am = []
    for a in alerts:
        if a["state"] != "firing":
            continue  # Alertmanager only ever sees firing alerts
        am.append({"labels": a["labels"], "annotations": a["annotations"], "startsAt": iso(a["since"] + timedelta(minutes=0), True),
                   "endsAt": iso(t + timedelta(minutes=4), True), "updatedAt": iso(t - timedelta(seconds=11), True), "generatorURL": gen,
                   "fingerprint": fp(a), "receivers": [{"name": "default"}], "status": {"state": "active", "silencedBy": [], "inhibitedBy": []}})
    if shape == "amv2":
        return am
    if shape == "amgroups":
        groups = {}
        for a in am:
            groups.setdefault(a["labels"].get("namespace", ""), []).append(a)
        return [{"labels": {"namespace": k} if k else {}, "receiver": {"name": "default"}, "alerts": v} for k, v in sorted(groups.items())]
    if shape == "webhook":
        return {"version": "4", "groupKey": "{}:{namespace=\"%s\"}" % NS, "truncatedAlerts": 0, "status": "firing", "receiver": "sre-webhook",
                "groupLabels": {"namespace": NS}, "commonLabels": {}, "commonAnnotations": {},
                "externalURL": "http://alertmanager.monitoring:9093",
                "alerts": [{"status": "firing", "labels": a["labels"], "annotations": a["annotations"], "startsAt": a["startsAt"],
                            "endsAt": "0001-01-01T00:00:00Z", "generatorURL": gen, "fingerprint": a["fingerprint"]} for a in am]}
    raise ValueError(shape)


# ---------------------------------------------------------------- metrics
def span_metrics(c, spans, svcs, quote="csv", ts="ms"):
    """service_<svc>.tsv: spanmetrics-style cumulative counters per 30 s, by status."""
    files = {}
    for svc in svcs:
        buckets = {}
        for s in spans:
            if s["svc"] != svc or s["kind"] not in ("server", "consumer"):
                continue
            b = int((s["start"] - c.start).total_seconds() // 30)
            d = buckets.setdefault(b, [0, 0, 0.0])
            d[0 if s["status"] != "error" else 1] += 1
            d[2] += s["dur"]
        rows, tot = [], [0, 0, 0.0]
        for b in range(60):
            d = buckets.get(b, [0, 0, 0.0])
            tot = [tot[0] + d[0], tot[1] + d[1], tot[2] + d[2]]
            t = c.start + timedelta(seconds=30 * (b + 1))
            tv = ns_of(t) // 1000000 if ts == "ms" else iso(t)
            for code, v in (("STATUS_CODE_UNSET", tot[0]), ("STATUS_CODE_ERROR", tot[1])):
                rows.append(["traces_span_metrics_calls_total", tv, v,
                             json.dumps({"service_name": svc, "span_kind": "SPAN_KIND_SERVER", "status_code": code, "namespace": NS}), svc, code])
            rows.append(["traces_span_metrics_duration_milliseconds_sum", tv, round(tot[2], 3),
                         json.dumps({"service_name": svc, "span_kind": "SPAN_KIND_SERVER", "namespace": NS}), svc, ""])
            rows.append(["traces_span_metrics_duration_milliseconds_count", tv, tot[0] + tot[1],
                         json.dumps({"service_name": svc, "span_kind": "SPAN_KIND_SERVER", "namespace": NS}), svc, ""])
        files["service_%s.tsv" % svc] = tsv(["metric_name", "timestamp", "value", "tags", "service_name", "status_code"], rows, quote)
    return files


def gauge_file(c, series, quote="csv"):
    """series: list of (metric, tags, fn(t)->value or None); every 30 s."""
    rows = []
    for b in range(61):
        t = c.start + timedelta(seconds=30 * b)
        for m, tags, fn in series:
            v = fn(t)
            if v is not None:
                rows.append([m, ns_of(t) // 1000000, round(v, 6) if isinstance(v, float) else v, json.dumps(tags)])
    return tsv(["metric_name", "timestamp", "value", "tags"], rows, quote)


# ================================================================ ground truth helpers
def grp(gid, kind, name, ns=NS, root=False, filt=None):
    if filt is None:
        filt = "^%s-[a-z0-9]+-[a-z0-9]+$" % name if kind == "Pod" else "^%s$" % name
    g = {"id": gid, "kind": kind, "namespace": ns, "name": name, "filter": [filt]}
    if ns is None:
        g.pop("namespace")
    if root:
        g["root_cause"] = True
    return g


def app(name, pod=True):
    gs = [grp("%s-service-1" % name, "Service", name)]
    if pod:
        gs.append(grp("%s-pod-1" % name, "Pod", name))
    return gs


def yq(v):
    return json.dumps(v)


def to_yaml(d):
    out = ["id: %s" % yq(d["id"])]
    out.append("groups:")
    for g in d["groups"]:
        out.append("  - id: %s" % yq(g["id"]))
        for k in ("kind", "namespace", "name"):
            if k in g:
                out.append("    %s: %s" % (k, yq(g[k])))
        out.append("    filter:")
        for f in g["filter"]:
            out.append("      - %s" % yq(f))
        if g.get("root_cause"):
            out.append("    root_cause: true")
    out.append("aliases:")
    for a in d["aliases"]:
        out.append("  - - %s" % yq(a[0]))
        for x in a[1:]:
            out.append("    - %s" % yq(x))
    if not d["aliases"]:
        out[-1] = "aliases: []"
    out.append("propagations:")
    for p in d["propagations"]:
        out.append("  - source: %s" % yq(p[0]))
        out.append("    target: %s" % yq(p[1]))
        out.append("    condition: %s" % yq(p[2]))
        out.append("    effect: %s" % yq(p[3]))
    out.append("fault:")
    for f in d["fault"]:
        out.append("  - category: %s" % yq(f["category"]))
        out.append("    condition: %s" % yq(f["condition"]))
        out.append("    entity:")
        for k in ("group_id", "kind", "name"):
            out.append("      %s: %s" % (k, yq(f["entity"][k])))
        out.append("    fault_mechanism: %s" % yq(f["fault_mechanism"]))
    out.append("alerts:")
    for a in d["alerts"]:
        out.append("  - group_id: %s" % yq(a[0]))
        out.append("    id: %s" % yq(a[1]))
    return "\n".join(out) + "\n"


def aliases_of(groups):
    names = {}
    for g in groups:
        if g["kind"] in ("Service", "Pod", "Deployment") and g.get("namespace") == NS:
            names.setdefault(g["name"], []).append(g["id"])
    return [v for k, v in sorted(names.items()) if len(v) > 1]


def find(objs, kind, name):
    for o in objs:
        if o["kind"] == kind and o["metadata"]["name"] == name:
            return o
    return None


def mf_add(o, manager, t, fields, sub=None):
    m = {"manager": manager, "operation": "Update", "apiVersion": o["apiVersion"], "time": iso(t), "fieldsType": "FieldsV1", "fieldsV1": fields}
    if sub:
        m["subresource"] = sub
    o["metadata"].setdefault("managedFields", []).append(m)


def ip_of(svc):
    return service(Case.__new__(Case), svc)["spec"]["clusterIP"] if False else "10.96.%d.%d" % (int(H("ip", svc)[:2], 16) % 200 + 10, int(H("ip2", svc)[:2], 16) % 250 + 2)


def T(s):
    return datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


# ================================================================ the cases


# ================================================================ sre-set4 additions
def zipkin_traces(c, spans):
    """Zipkin v2 span records, one JSON object per line (as a Kafka/file collector dumps them)."""
    out = []
    for s in spans:
        ra = res_attrs(c, s["svc"], s["start"])
        d = {"traceId": s["trace"], "id": s["span"], "name": s["name"].lower() if s["kind"] == "client" else s["name"],
             "timestamp": ns_of(s["start"]) // 1000, "duration": max(1, int(s["dur"] * 1000)),
             "localEndpoint": {"serviceName": ra["service.name"], "ipv4": "10.244.%d.%d" % (NODES.index(ra["k8s.node.name"]) if ra["k8s.node.name"] in NODES else 0,
                                                                                             int(H(ra["k8s.pod.name"])[:2], 16) % 250 + 2)},
             "tags": {k: str(v) for k, v in s["attrs"].items()}}
        if s["kind"] != "internal":
            d["kind"] = s["kind"].upper()
        if s["parent"]:
            d["parentId"] = s["parent"]
        if s["kind"] in ("client", "producer") and s["attrs"].get("server.address"):
            d["remoteEndpoint"] = {"serviceName": s["attrs"]["server.address"], "port": s["attrs"].get("server.port", 0)}
        d["tags"]["k8s.pod.name"] = ra["k8s.pod.name"]
        d["tags"]["k8s.namespace.name"] = NS
        if s["status"] == "error":
            d["tags"]["error"] = s["msg"] or "true"
            d["tags"]["otel.status_code"] = "ERROR"
        out.append(json.dumps(d, separators=(",", ":")))
    return "\n".join(out) + "\n"


def ecs_logs(c, recs):
    """Filebeat/Elastic Common Schema documents, one per line (log.level nested, message, @timestamp)."""
    lines = []
    for (t, s, lvl, txt, tr, sp) in sorted(recs, key=lambda r: (r[0], r[1], r[3])):
        p = c.pod_at(s, t) if s in SVC else ["%s-0" % s, "worker-1"]
        d = {"@timestamp": t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000), "log": {"level": lvl.lower(), "logger": s},
             "message": txt, "service": {"name": s, "environment": "prod"}, "ecs": {"version": "8.11.0"},
             "kubernetes": {"namespace": NS, "pod": {"name": p[0]}, "container": {"name": s}, "node": {"name": p[1] or ""},
                            "labels": {"app_kubernetes_io/name": s}},
             "data_stream": {"type": "logs", "dataset": "kubernetes.container_logs", "namespace": "default"}}
        if tr:
            d["trace"] = {"id": tr}
            d["span"] = {"id": sp}
        lines.append(json.dumps(d, separators=(",", ":")))
    return "\n".join(lines) + "\n"


def cont(d):
    return d["spec"]["template"]["spec"]["containers"][0]


def dep(objs, svc):
    return find(objs, "Deployment", svc)


def pods_of(objs, svc):
    return [o for o in objs if o["kind"] == "Pod" and o["metadata"]["labels"].get("opentelemetry.io/name") == svc]


def image_bump(c, objs, svc, t, tr, new, manager="helm"):
    """a rollout at tr that changed svc's image to `new` (the pods of the latest hash run it)"""
    if t < tr:
        return
    d = dep(objs, svc)
    cont(d)["image"] = new
    d["metadata"]["annotations"]["meta.helm.sh/release-name"] = "opentelemetry-demo"
    mf_add(d, manager, tr, {"f:spec": {"f:template": {"f:spec": {"f:containers": {'k:{"name":"%s"}' % svc: {"f:image": {}}}}}}})
    for p in pods_of(objs, svc):
        if p["metadata"]["labels"]["pod-template-hash"] == c.hashes[svc][-1]:
            p["spec"]["containers"][0]["image"] = new
            p["status"]["containerStatuses"][0]["image"] = new


def rollout_events(c, svc, tr, old, new):
    nh, oh = new[4], old[4]
    return [ev(c, tr, "Deployment", svc, "ScalingReplicaSet", "Scaled up replica set %s-%s from 0 to 1" % (svc, nh), comp="deployment-controller"),
            ev(c, tr, "ReplicaSet", "%s-%s" % (svc, nh), "SuccessfulCreate", "Created pod: %s" % new[0], comp="replicaset-controller")] + \
        pod_start_events(c, svc, new) + \
        [ev(c, tr + timedelta(seconds=9), "Deployment", svc, "ScalingReplicaSet", "Scaled down replica set %s-%s from 1 to 0" % (svc, oh), comp="deployment-controller"),
         ev(c, tr + timedelta(seconds=9), "ReplicaSet", "%s-%s" % (svc, oh), "SuccessfulDelete", "Deleted pod: %s" % old[0], comp="replicaset-controller"),
         ev(c, tr + timedelta(seconds=9), "Pod", old[0], "Killing", "Stopping container %s" % svc, host=old[1])]


def flag_logs(c, flag, t):
    ts = round((t - datetime(1970, 1, 1, tzinfo=UTC)).total_seconds(), 4)
    return [(t, "flagd", "INFO", json.dumps({"level": "info", "ts": ts, "logger": "file-sync", "msg": "data sync for /etc/flagd/demo.flagd.json triggered by event WRITE"}), "", ""),
            (t + timedelta(milliseconds=2), "flagd", "INFO", json.dumps({"level": "info", "ts": ts + .002, "logger": "flag-sync",
                                                                           "msg": "configuration change (write) for flagKey %s (file:/etc/flagd/demo.flagd.json)" % flag}), "", "")]


def rng_at(*p):
    return random.Random(int(H("r", *p)[:12], 16))


class ChaosCase(Case):
    """a Chaos Mesh Schedule in namespace chaos-mesh spawning one experiment every `every` seconds from F"""
    sched, ckind, ckey, cspec, every, dur_s, target = "", "", "", {}, 60, 55, ""
    def spawn_of(self, t):
        k = int((t - self.F).total_seconds() // self.every)
        return k, self.F + timedelta(seconds=k * self.every)
    def child(self, k):
        return "%s-%s" % (self.sched, "".join(SAFE[int(H(self.sched, k)[i:i + 2], 16) % len(SAFE)] for i in (0, 2, 4, 6, 8)))
    def active(self, t, lag=3):
        if t < self.F + timedelta(seconds=lag):
            return False
        k, sp = self.spawn_of(t)
        return (t - sp).total_seconds() >= lag and (t - sp).total_seconds() < (self.dur_s if self.dur_s else self.every)
    def objects_at(self, t, objs):
        self.chaos_objs(t, objs)
    def chaos_objs(self, t, objs):
        if t < self.F:
            return
        k, sp = self.spawn_of(t)
        spec = dict(self.cspec)
        if self.dur_s:
            spec["duration"] = "%ds" % self.dur_s
        objs.append({"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "Schedule",
                     "metadata": {"name": self.sched, "namespace": "chaos-mesh", "uid": uid(self.n, "sched"), "generation": 1, "resourceVersion": str(640000 + self.n),
                                  "creationTimestamp": iso(self.F),
                                  "managedFields": [{"manager": "kubectl-client-side-apply", "operation": "Update", "apiVersion": "chaos-mesh.org/v1alpha1",
                                                     "time": iso(self.F), "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {}}}]},
                     "spec": {"schedule": "@every %ds" % self.every if self.every % 60 else "*/%d * * * *" % (self.every // 60), "concurrencyPolicy": "Forbid",
                              "historyLimit": 1, "type": self.ckind, self.ckey: spec},
                     "status": {"active": [{"kind": self.ckind, "namespace": "chaos-mesh", "name": self.child(k), "apiVersion": "chaos-mesh.org/v1alpha1",
                                            "uid": uid(self.n, self.child(k))}], "time": iso(sp)}})
        if t >= sp + timedelta(seconds=2):
            running = (t - sp).total_seconds() < (self.dur_s or 1e9)
            objs.append({"apiVersion": "chaos-mesh.org/v1alpha1", "kind": self.ckind,
                         "metadata": {"name": self.child(k), "namespace": "chaos-mesh", "uid": uid(self.n, self.child(k)), "generation": 2,
                                      "creationTimestamp": iso(sp), "labels": {"managed-by": self.sched}, "finalizers": ["chaos-mesh/records"],
                                      "ownerReferences": [{"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "Schedule", "name": self.sched,
                                                           "uid": uid(self.n, "sched"), "controller": True, "blockOwnerDeletion": True}]},
                         "spec": spec,
                         "status": {"conditions": [{"type": "Selected", "status": "True"}, {"type": "AllInjected", "status": "True" if running else "False"},
                                                   {"type": "AllRecovered", "status": "False" if running else "True"}, {"type": "Paused", "status": "False"}],
                                    "experiment": {"desiredPhase": "Run" if running else "Stop",
                                                   "containerRecords": [{"id": "%s/%s" % (NS, self.pod_at(self.target, t)[0]),
                                                                         "phase": "Injected" if running else "Recovered", "selectorKey": ".",
                                                                         "injectedCount": 1, "recoveredCount": 0 if running else 1}]}}})
    def chaos_events(self, skip=()):
        out, k = [], 0
        while self.F + timedelta(seconds=k * self.every) < self.E:
            sp = self.F + timedelta(seconds=k * self.every)
            nm, api = self.child(k), "chaos-mesh.org/v1alpha1"
            out.append(ev(self, sp, "Schedule", self.sched, "Spawned", "Create new object: %s" % nm, comp="schedule-cron", ns="chaos-mesh", api=api))
            out.append(ev(self, sp + timedelta(seconds=1), self.ckind, nm, "FinalizerInited", "Finalizer has been inited", comp="initFinalizers", ns="chaos-mesh", api=api))
            out.append(ev(self, sp + timedelta(seconds=1), self.ckind, nm, "Updated", "Successfully update desiredPhase of resource", comp="desiredphase", ns="chaos-mesh", api=api))
            tgt = "%s/%s" % (NS, self.pod_at(self.target, sp + timedelta(seconds=2))[0])
            if k in skip:
                out.append(ev(self, sp + timedelta(seconds=2), self.ckind, nm, "Failed", "Failed to apply chaos: container is not running", typ="Warning",
                              comp="records", ns="chaos-mesh", api=api))
            else:
                out.append(ev(self, sp + timedelta(seconds=2), self.ckind, nm, "Applied", "Successfully apply chaos for %s" % tgt, comp="records", ns="chaos-mesh", api=api))
                if self.dur_s:
                    out.append(ev(self, sp + timedelta(seconds=self.dur_s), self.ckind, nm, "Recovered", "Successfully recover chaos for %s" % tgt, comp="records",
                                  ns="chaos-mesh", api=api))
            if k > 0:
                out.append(ev(self, sp, "Schedule", self.sched, "Deleted", "Delete object: %s" % self.child(k - 1), comp="schedule-gc", ns="chaos-mesh", api=api))
            k += 1
        return out
    def chaos_gt(self, kind_lower):
        gid = "%s-schedule-1" % self.sched
        cid = "%s-%s-1" % (self.sched, kind_lower)
        return ([grp(gid, "Schedule", self.sched, ns="chaos-mesh", root=True),
                 grp(cid, self.ckind, self.sched, ns="chaos-mesh", filt="^%s(-[a-z0-9]+)?$" % self.sched)], [gid, cid], gid)


def mem_series(c, pod_name, fn, limit):
    return [("container_memory_working_set_bytes", {"namespace": NS, "pod": pod_name, "container": c.target if hasattr(c, "target") else ""}, fn),
            ("container_spec_memory_limit_bytes", {"namespace": NS, "pod": pod_name}, lambda t: limit)]


# ================================================================ the cases
class C1(Case):
    n, seed, start = 1, "s4-flag-adfailure", T("2026-11-25T02:10:00Z")
    title = "flag adFailure switched on in flagd-config (1 GetAds in 10 fails UNAVAILABLE); decoy: email image bump 3 min before"
    enc = dict(traces="zipkin", logs="ecs", events="watch", objects="list", alerts="amgroups")
    load = 3.0
    def setup(self):
        self.tr = self.F - timedelta(minutes=3)
        self.old = self.pods["email"][0]
        self.newp = self.new_pod("email", self.tr)
    def server(self, svc, op, t):
        if svc == "ad" and t >= self.F + timedelta(seconds=40) and rng_at("adf", t.isoformat()).random() < .1:
            return 0, "UNAVAILABLE"
        return 0, None
    def wrap(self, svc, op, child, err):
        return err
    def objects_at(self, t, objs):
        image_bump(self, objs, "email", t, self.tr, "ghcr.io/open-telemetry/demo:2.0.3-email")
        if t >= self.F:
            for i, o in enumerate(objs):
                if o["kind"] == "ConfigMap":
                    objs[i] = flagd_cm(self, on={"adFailure": "on"}, changed=self.F)
    def events(self):
        return rollout_events(self, "email", self.tr, self.old, self.newp)
    def logs(self):
        out = flag_logs(self, "adFailure", self.F + timedelta(seconds=38))
        out.append((self.tr + timedelta(seconds=3), "email", "INFO", "Puma starting in single mode...\n* Puma version: 6.4.3 (ruby 3.3.6-p108) (\"The Eagle of Durango\")\n*  Min threads: 0\n*  Max threads: 5", "", ""))
        for s in self.spans:
            if s["svc"] == "ad" and s["kind"] == "server" and s["status"] == "error":
                t = s["start"] + timedelta(milliseconds=s["dur"])
                out.append((t, "ad", "ERROR", "GetAds Failed with status Status{code=UNAVAILABLE, description=null, cause=null}", s["trace"], s["span"]))
            if s["svc"] == "frontend" and s["kind"] == "server" and s["status"] == "error" and s["name"] == "GET /api/data":
                out.append((s["start"] + timedelta(milliseconds=s["dur"]), "frontend", "ERROR", "Error: 14 UNAVAILABLE: \n    at callErrorFromStatus (/app/node_modules/@grpc/grpc-js/build/src/call.js:31:19)", s["trace"], s["span"]))
        return out
    def alerts(self, t):
        return [alert("HighRequestErrorRate", {"service_name": "ad", "namespace": NS}, self.F + timedelta(seconds=100), t, 2, "ad error rate above 5%", 0.1)]
    def gt(self):
        g = [grp("flagd-config-configmap-1", "ConfigMap", "flagd-config", root=True)] + app("ad") + app("frontend")
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("flagd-config-configmap-1", "ad-service-1", "adFailure served on", "GetAds fails UNAVAILABLE for 1 request in 10"),
                                  ("ad-service-1", "frontend-service-1", "GetAds fails", "GET /api/data returns 500")],
                    fault=[dict(category="Change", condition="feature flag enabled", entity=dict(group_id="flagd-config-configmap-1", kind="ConfigMap", name="flagd-config"),
                                fault_mechanism="custom")],
                    alerts=[("ad-service-1", "HighRequestErrorRate")])


class C2(Case):
    n, seed, start = 2, "s4-flag-reccache", T("2026-11-25T06:40:00Z")
    title = "flag recommendationCacheFailure on: recommendation's cache leaks, latency and memory grow, one OOMKilled restart; decoy: product-catalog image bump 4 min before"
    enc = dict(traces="otlpl", logs="fluentbit", events="eventsv1", objects="tsv", alerts="prom")
    def setup(self):
        self.tr = self.F - timedelta(minutes=4)
        self.old = self.pods["product-catalog"][0]
        self.newp = self.new_pod("product-catalog", self.tr)
        self.on = self.F + timedelta(seconds=30)
        self.oom = self.F + timedelta(minutes=11, seconds=7)
        self.back = self.oom + timedelta(seconds=14)
    def leak_min(self, t):
        if t < self.on:
            return None
        if t < self.oom:
            return (t - self.on).total_seconds() / 60
        if t < self.back:
            return -1
        return (t - self.back).total_seconds() / 60
    def server(self, svc, op, t):
        if svc == "recommendation":
            m = self.leak_min(t)
            if m is not None and m >= 0:
                return 12 * 1.55 ** m + rng_at("rc", t.isoformat()).uniform(0, 30), None
        return 0, None
    def edge(self, caller, callee, op, t):
        if callee == "recommendation" and self.leak_min(t) == -1:
            return dict(fail="14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED %s:8080" % ip_of("recommendation"), dur=2.5, code=14)
    def objects_at(self, t, objs):
        image_bump(self, objs, "product-catalog", t, self.tr, "ghcr.io/open-telemetry/demo:2.0.3-product-catalog")
        if t >= self.F:
            for i, o in enumerate(objs):
                if o["kind"] == "ConfigMap":
                    objs[i] = flagd_cm(self, on={"recommendationCacheFailure": "on"}, changed=self.F)
        if t >= self.oom:
            p = pods_of(objs, "recommendation")[0]
            cs = p["status"]["containerStatuses"][0]
            cs["restartCount"] = 1
            cs["lastState"] = {"terminated": {"exitCode": 137, "reason": "OOMKilled", "startedAt": cs["state"]["running"]["startedAt"],
                                              "finishedAt": iso(self.oom), "containerID": cs["containerID"]}}
            if t < self.back:
                cs["state"] = {"waiting": {"reason": "ContainerCreating"}}
                cs["ready"] = False
            else:
                cs["state"] = {"running": {"startedAt": iso(self.back)}}
    def events(self):
        p = self.pods["recommendation"][0]
        img = "ghcr.io/open-telemetry/demo:%s-recommendation" % VER
        return rollout_events(self, "product-catalog", self.tr, self.old, self.newp) + [
            ev(self, self.back - timedelta(seconds=2), "Pod", p[0], "Pulled", 'Container image "%s" already present on machine' % img, host=p[1], count=2, first=p[2]),
            ev(self, self.back - timedelta(seconds=2), "Pod", p[0], "Created", "Created container: recommendation", host=p[1], count=2, first=p[2]),
            ev(self, self.back - timedelta(seconds=1), "Pod", p[0], "Started", "Started container recommendation", host=p[1], count=2, first=p[2])]
    def logs(self):
        out = flag_logs(self, "recommendationCacheFailure", self.F + timedelta(seconds=29))
        out.append((self.tr + timedelta(seconds=4), "product-catalog", "INFO", "time=%s level=INFO msg=\"Loaded 10 products\"" % iso(self.tr + timedelta(seconds=4), True), "", ""))
        out.append((self.tr + timedelta(seconds=4), "product-catalog", "INFO", "time=%s level=INFO msg=\"Product Catalog gRPC server started on port: 8080\"" % iso(self.tr + timedelta(seconds=4), True), "", ""))
        out.append((self.back + timedelta(seconds=2), "recommendation", "INFO", "INFO:root:Recommendation service started, listening on port 8080", "", ""))
        for s in self.spans:
            if s["svc"] == "recommendation" and s["kind"] == "server" and s["start"] >= self.on and rng_at("cl", s["span"]).random() < .15:
                out.append((s["start"] + timedelta(milliseconds=2), "recommendation", "INFO", "INFO:root:cache miss: growing cached_ids, cache size now %d" %
                            int(40 * 1.9 ** max(0, self.leak_min(s["start"]) or 0)), s["trace"], s["span"]))
        return out
    def metrics(self, spans):
        p = self.pods["recommendation"][0][0]
        def ws(t):
            m = self.leak_min(t)
            base = 96e6 + rng_at("ws", t.isoformat()).uniform(-3e6, 3e6)
            if m is None:
                return base
            if m < 0:
                return None
            return min(base + 4.0e6 * 1.55 ** m, 520e6)
        files = {"pod_%s.tsv" % p: gauge_file(self, [("container_memory_working_set_bytes", {"namespace": NS, "pod": p, "container": "recommendation"}, ws),
                                                      ("container_spec_memory_limit_bytes", {"namespace": NS, "pod": p, "container": "recommendation"}, lambda t: 524288000),
                                                      ("kube_pod_container_status_restarts_total", {"namespace": NS, "pod": p, "container": "recommendation"},
                                                       lambda t: 1 if t >= self.oom else 0)])}
        return files
    def alerts(self, t):
        return [alert("HighRequestLatency", {"service_name": "recommendation", "namespace": NS}, self.F + timedelta(minutes=6), t, 2, "recommendation p95 latency above 500ms", 0.9),
                alert("HighRequestLatency", {"service_name": "frontend", "namespace": NS}, self.F + timedelta(minutes=8), t, 2, "frontend p95 latency above 500ms", 0.7)]
    def gt(self):
        g = [grp("flagd-config-configmap-1", "ConfigMap", "flagd-config", root=True)] + app("recommendation") + [grp("recommendation-deployment-1", "Deployment", "recommendation")] + app("frontend")
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("flagd-config-configmap-1", "recommendation-service-1", "recommendationCacheFailure served on", "cache list grows on every request: latency and memory grow"),
                                  ("recommendation-service-1", "recommendation-pod-1", "memory grows to the 500Mi limit", "container OOMKilled and restarted"),
                                  ("recommendation-service-1", "frontend-service-1", "ListRecommendations slow, briefly refused", "GET /api/recommendations slow")],
                    fault=[dict(category="Change", condition="feature flag enabled", entity=dict(group_id="flagd-config-configmap-1", kind="ConfigMap", name="flagd-config"),
                                fault_mechanism="custom")],
                    alerts=[("recommendation-service-1", "HighRequestLatency"), ("frontend-service-1", "HighRequestLatency")])


class C3(Case):
    n, seed, start = 3, "s4-flag-imageslow", T("2026-11-25T11:05:00Z")
    title = "flag imageSlowLoad set to 5sec: frontend-proxy's Envoy fault filter delays every image request 5 s (response flag DI); decoy: image-provider restarted 2 min before"
    enc = dict(traces="jaeger", logs="text", events="tsv", objects="watch", alerts="webhook")
    def setup(self):
        self.tr = self.F - timedelta(minutes=2)
        self.old = self.pods["image-provider"][0]
        self.newp = self.new_pod("image-provider", self.tr)
        self.on = self.F + timedelta(seconds=20)
    def delay(self, caller, callee, op, t):
        if caller == "frontend-proxy" and callee == "image-provider" and t >= self.on:
            return 5000 + rng_at("d", t.isoformat()).uniform(0, 4), 0
        return 0, 0
    def objects_at(self, t, objs):
        if t >= self.tr:
            d = dep(objs, "image-provider")
            d["spec"]["template"]["metadata"]["annotations"] = {"kubectl.kubernetes.io/restartedAt": iso(self.tr)}
            mf_add(d, "kubectl-rollout", self.tr, {"f:spec": {"f:template": {"f:metadata": {"f:annotations": {".": {}, "f:kubectl.kubernetes.io/restartedAt": {}}}}}})
        if t >= self.F:
            for i, o in enumerate(objs):
                if o["kind"] == "ConfigMap":
                    objs[i] = flagd_cm(self, on={"imageSlowLoad": "5sec"}, changed=self.F)
    def events(self):
        return rollout_events(self, "image-provider", self.tr, self.old, self.newp)
    def logs(self):
        out = flag_logs(self, "imageSlowLoad", self.F + timedelta(seconds=18))
        out.append((self.tr + timedelta(seconds=3), "image-provider", "INFO", "2026/11/25 11:18:03 [notice] 1#1: start worker processes", "", ""))
        rng = rng_at("acc", self.seed)
        for s in self.spans:
            if s["svc"] == "frontend-proxy" and s["kind"] == "server" and s["attrs"].get("upstream_cluster") == "image-provider" and rng.random() < .5:
                t = s["start"]
                flags = "DI" if s["dur"] > 4000 else "-"
                out.append((t + timedelta(milliseconds=s["dur"]), "frontend-proxy", "INFO",
                            '[%s] "GET /images/%s HTTP/1.1" 200 %s 0 %d %d %d "10.244.2.%d" "python-requests/2.32.3" "%s" "frontend-proxy:8080" "%s:8081"' %
                            (s["start"].strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (s["start"].microsecond // 1000), rng.choice(["RoofBinoculars.jpg", "SolarSystemColorImager.jpg", "NationalParkFoundationExplorascope.jpg"]),
                             flags, rng.randint(40000, 120000), int(s["dur"]), int(s["dur"]) - (5000 if flags == "DI" else 0), rng.randint(2, 250), H("rid", s["trace"])[:32],
                             ip_of("image-provider")), s["trace"], s["span"]))
        return out
    def alerts(self, t):
        return [alert("HighRequestLatency", {"service_name": "frontend-proxy", "namespace": NS}, self.F + timedelta(seconds=110), t, 2, "frontend-proxy p95 latency above 1s", 5.0)]
    def gt(self):
        g = [grp("flagd-config-configmap-1", "ConfigMap", "flagd-config", root=True)] + app("frontend-proxy")
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("flagd-config-configmap-1", "frontend-proxy-service-1", "imageSlowLoad served as 5sec", "Envoy fault filter delays /images requests 5 s")],
                    fault=[dict(category="Change", condition="feature flag enabled", entity=dict(group_id="flagd-config-configmap-1", kind="ConfigMap", name="flagd-config"),
                                fault_mechanism="custom")],
                    alerts=[("frontend-proxy-service-1", "HighRequestLatency")])


class C4(Case):
    n, seed, start = 4, "s4-missing-secret", T("2026-11-25T14:20:00Z")
    fault_min = 12
    title = "rollout of payment adds an env var from Secret payment-gateway-credentials, which does not exist (a Secret payment-gateway-creds does): new pod CreateContainerConfigError, old pod keeps serving"
    enc = dict(traces="otlp", logs="tsv", events="watch", objects="tsvgz", alerts="amv2")
    def setup(self):
        self.nh = "".join(self.rng.choice(SAFE) for _ in range(10))
        self.stuck = [self.podname("payment", self.nh), SVC["payment"][2], self.F, None, self.nh]
    def objects_at(self, t, objs):
        objs.append({"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
                     "metadata": {"name": "payment-gateway-creds", "namespace": NS, "uid": uid(4, "sec"), "resourceVersion": "88213",
                                  "creationTimestamp": iso(self.start - timedelta(days=6, hours=4)),
                                  "managedFields": [{"manager": "kubectl-create", "operation": "Update", "apiVersion": "v1", "time": iso(self.start - timedelta(days=6, hours=4)),
                                                     "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {".": {}, "f:api-key": {}}, "f:type": {}}}]},
                     "data": {"api-key": "c2tfdGVzdF81MUh4UzJhS2ZQbE1xM3pWdw=="}})
        if t < self.F:
            return
        d = dep(objs, "payment")
        c = cont(d)
        c["env"].append({"name": "PAYMENT_GATEWAY_API_KEY", "valueFrom": {"secretKeyRef": {"name": "payment-gateway-credentials", "key": "api-key"}}})
        d["metadata"]["generation"] += 1
        d["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = str(int(d["metadata"]["annotations"]["deployment.kubernetes.io/revision"]) + 1)
        d["spec"]["strategy"]["rollingUpdate"] = {"maxSurge": 1, "maxUnavailable": 0}
        mf_add(d, "kubectl-edit", self.F, {"f:spec": {"f:template": {"f:spec": {"f:containers": {'k:{"name":"payment"}': {"f:env": {'k:{"name":"PAYMENT_GATEWAY_API_KEY"}': {}}}}}}}})
        d["status"].update({"observedGeneration": d["metadata"]["generation"], "replicas": 2, "updatedReplicas": 1, "readyReplicas": 1, "availableReplicas": 1, "unavailableReplicas": 1})
        d["status"]["conditions"][1].update({"reason": "ReplicaSetUpdated", "message": 'ReplicaSet "payment-%s" is progressing.' % self.nh, "lastUpdateTime": iso(self.F)})
        if t >= self.F + timedelta(seconds=600):
            d["status"]["conditions"][1].update({"status": "False", "reason": "ProgressDeadlineExceeded",
                                                 "message": 'ReplicaSet "payment-%s" has timed out progressing.' % self.nh, "lastUpdateTime": iso(self.F + timedelta(seconds=600))})
        p = pod(self, "payment", self.stuck, t, phase="Pending", ready=False,
                cstate={"waiting": {"reason": "CreateContainerConfigError", "message": 'secret "payment-gateway-credentials" not found'}})
        p["spec"]["containers"][0]["env"] = json.loads(json.dumps(c["env"]))
        p["status"]["containerStatuses"][0]["started"] = False
        p["status"]["containerStatuses"][0].pop("containerID")
        objs.append(p)
    def events(self):
        p, h = self.stuck, self.nh
        img = "ghcr.io/open-telemetry/demo:%s-payment" % VER
        n = int((self.E - self.F).total_seconds() // 60)
        return [ev(self, self.F, "Deployment", "payment", "ScalingReplicaSet", "Scaled up replica set payment-%s from 0 to 1" % h, comp="deployment-controller"),
                ev(self, self.F, "ReplicaSet", "payment-%s" % h, "SuccessfulCreate", "Created pod: %s" % p[0], comp="replicaset-controller"),
                ev(self, self.F, "Pod", p[0], "Scheduled", "Successfully assigned %s/%s to %s" % (NS, p[0], p[1]), comp="default-scheduler"),
                ev(self, self.E - timedelta(seconds=20), "Pod", p[0], "Pulled", 'Container image "%s" already present on machine' % img, host=p[1], count=n * 4, first=self.F + timedelta(seconds=1)),
                ev(self, self.E - timedelta(seconds=20), "Pod", p[0], "Failed", 'Error: secret "payment-gateway-credentials" not found', typ="Warning", host=p[1], count=n * 4,
                   first=self.F + timedelta(seconds=1))]
    def logs(self):
        return []
    def alerts(self, t):
        return [alert("KubePodNotReady", {"namespace": NS, "pod": self.stuck[0], "job": "kube-state-metrics"}, self.F + timedelta(seconds=45), t, 15,
                      "Pod %s/%s has been in a non-ready state for longer than 15 minutes." % (NS, self.stuck[0]), 1),
                alert("KubeDeploymentRolloutStuck", {"namespace": NS, "deployment": "payment", "job": "kube-state-metrics"}, self.F + timedelta(seconds=600), t, 15,
                      "Deployment rollout is not progressing.", 1)]
    def gt(self):
        g = [grp("payment-deployment-1", "Deployment", "payment", root=True), grp("payment-pod-1", "Pod", "payment")]
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("payment-deployment-1", "payment-pod-1", "env var from missing Secret payment-gateway-credentials", "new pod CreateContainerConfigError, rollout stuck")],
                    fault=[dict(category="Change", condition="missing Secret reference", entity=dict(group_id="payment-deployment-1", kind="Deployment", name="payment"),
                                fault_mechanism="custom")],
                    alerts=[("payment-pod-1", "KubePodNotReady")])


class C5(ChaosCase):
    n, seed, start = 5, "s4-netdelay-pc", T("2026-11-25T17:45:00Z")
    title = "Chaos Mesh Schedule product-catalog-latency: NetworkChaos delay 1500 ms on product-catalog's traffic each minute (55 s); server spans stay fast; decoy: recommendation env rollout 1 min after"
    enc = dict(traces="jaeger", logs="otlp", events="list", objects="tsv", alerts="amgroups")
    sched, ckind, ckey, target = "product-catalog-latency", "NetworkChaos", "networkChaos", "product-catalog"
    cspec = {"action": "delay", "mode": "all", "direction": "to", "delay": {"latency": "1500ms", "jitter": "200ms", "correlation": "25"},
             "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/component": "product-catalog"}}}
    def setup(self):
        self.tr = self.F + timedelta(minutes=1)
        self.old = self.pods["recommendation"][0]
        self.newp = self.new_pod("recommendation", self.tr)
    def delay(self, caller, callee, op, t):
        if callee == "product-catalog" and self.active(t):
            return 0, 1500 + rng_at("nd", t.isoformat()).uniform(-200, 200)
        return 0, 0
    def objects_at(self, t, objs):
        self.chaos_objs(t, objs)
        if t >= self.tr:
            d = dep(objs, "recommendation")
            cont(d)["env"].append({"name": "OTEL_PYTHON_LOG_CORRELATION", "value": "true"})
            mf_add(d, "argocd-controller", self.tr, {"f:spec": {"f:template": {"f:spec": {"f:containers": {'k:{"name":"recommendation"}': {"f:env": {}}}}}}})
    def events(self):
        return self.chaos_events() + rollout_events(self, "recommendation", self.tr, self.old, self.newp)
    def logs(self):
        out = [(self.tr + timedelta(seconds=3), "recommendation", "INFO", "Recommendation service started, listening on port 8080", "", "")]
        for s in self.spans:
            if s["svc"] == "frontend" and s["kind"] == "server" and s["dur"] > 1200 and rng_at("fl", s["span"]).random() < .3:
                out.append((s["start"] + timedelta(milliseconds=s["dur"]), "frontend", "WARN", "request %s took %d ms" % (s["name"], s["dur"]), s["trace"], s["span"]))
        return out
    def alerts(self, t):
        return [alert("HighRequestLatency", {"service_name": "frontend", "namespace": NS}, self.F + timedelta(seconds=100), t, 2, "frontend p95 latency above 1s", 1.6),
                alert("HighRequestLatency", {"service_name": "recommendation", "namespace": NS}, self.F + timedelta(seconds=120), t, 2, "recommendation p95 latency above 1s", 1.55),
                alert("HighRequestLatency", {"service_name": "checkout", "namespace": NS}, self.F + timedelta(seconds=130), t, 2, "checkout p95 latency above 1s", 3.1)]
    def gt(self):
        cg, al, root = self.chaos_gt("networkchaos")
        g = cg + app("product-catalog") + app("frontend") + app("recommendation") + app("checkout")
        return dict(groups=g, aliases=aliases_of(g) + [al],
                    propagations=[(root, "product-catalog-service-1", "NetworkChaos delay 1500 ms on product-catalog's packets", "every product-catalog call +1.5 s (server spans fast)"),
                                  ("product-catalog-service-1", "recommendation-service-1", "ListProducts slow", "ListRecommendations slow"),
                                  ("product-catalog-service-1", "checkout-service-1", "GetProduct slow", "PlaceOrder slow"),
                                  ("recommendation-service-1", "frontend-service-1", "slow", "frontend latency")],
                    fault=[dict(category="Chaos", condition="network delay injected", entity=dict(group_id=root, kind="Schedule", name=self.sched), fault_mechanism="chaos-mesh")],
                    alerts=[("frontend-service-1", "HighRequestLatency"), ("recommendation-service-1", "HighRequestLatency"), ("checkout-service-1", "HighRequestLatency")])


class C6(ChaosCase):
    n, seed, start = 6, "s4-partition-quote", T("2026-11-25T21:30:00Z")
    title = "Chaos Mesh Schedule shipping-quote-network-partition (direction to, target quote): shipping's quote calls time out; decoy: quote image bump 6 min before"
    enc = dict(traces="otlp", logs="fluentbit", events="eventsv1", objects="list", alerts="prom")
    sched, ckind, ckey, target = "shipping-quote-network-partition", "NetworkChaos", "networkChaos", "shipping"
    cspec = {"action": "partition", "mode": "all", "direction": "to",
             "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/component": "shipping"}},
             "target": {"mode": "all", "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/component": "quote"}}}}
    def setup(self):
        self.tr = self.F - timedelta(minutes=6)
        self.old = self.pods["quote"][0]
        self.newp = self.new_pod("quote", self.tr)
    def edge(self, caller, callee, op, t):
        if caller == "shipping" and callee == "quote" and self.active(t):
            return dict(fail="error sending request for url (http://quote:8080/getquote): operation timed out", dur=3000)
    def wrap(self, svc, op, child, err):
        if svc == "shipping":
            return "failed to get quote: " + err
        if svc == "checkout" and child == "shipping":
            return "shipping quote failure: failed to get shipping quote: rpc error: code = Internal desc = " + err
        return err
    def objects_at(self, t, objs):
        self.chaos_objs(t, objs)
        image_bump(self, objs, "quote", t, self.tr, "ghcr.io/open-telemetry/demo:2.0.3-quote")
    def events(self):
        return self.chaos_events() + rollout_events(self, "quote", self.tr, self.old, self.newp)
    def logs(self):
        out = []
        for s in self.spans:
            if s["svc"] == "shipping" and s["kind"] == "server" and s["status"] == "error":
                t = s["start"] + timedelta(milliseconds=s["dur"])
                out.append((t, "shipping", "ERROR", json.dumps({"timestamp": iso(t, True), "level": "ERROR", "fields": {"message": "failed to get quote",
                            "error": "error sending request for url (http://quote:8080/getquote): operation timed out"}, "target": "shipping::quote"}), s["trace"], s["span"]))
        return out
    def alerts(self, t):
        return [alert("HighRequestErrorRate", {"service_name": "shipping", "namespace": NS}, self.F + timedelta(seconds=90), t, 2, "shipping error rate above 5%", 0.9),
                alert("HighRequestErrorRate", {"service_name": "checkout", "namespace": NS}, self.F + timedelta(seconds=110), t, 2, "checkout error rate above 5%", 0.9)]
    def gt(self):
        cg, al, root = self.chaos_gt("networkchaos")
        g = cg + app("shipping") + app("checkout") + app("frontend")
        return dict(groups=g, aliases=aliases_of(g) + [al],
                    propagations=[(root, "shipping-service-1", "NetworkChaos partition shipping -> quote", "GetQuote fails: quote request timed out"),
                                  ("shipping-service-1", "checkout-service-1", "GetQuote fails", "PlaceOrder fails"),
                                  ("shipping-service-1", "frontend-service-1", "GetQuote fails", "GET /api/shipping 500")],
                    fault=[dict(category="Chaos", condition="network partition injected", entity=dict(group_id=root, kind="Schedule", name=self.sched), fault_mechanism="chaos-mesh")],
                    alerts=[("shipping-service-1", "HighRequestErrorRate"), ("checkout-service-1", "HighRequestErrorRate")])


class C7(ChaosCase):
    n, seed, start = 7, "s4-stress-valkey", T("2026-11-26T01:15:00Z")
    title = "Chaos Mesh Schedule valkey-cart-memory-stress: StressChaos memory in valkey-cart's container each minute; the container is OOMKilled and crash-loops; cart fails"
    enc = dict(traces="tsvraw", logs="otlp", events="watch", objects="watch", alerts="amgroups")
    sched, ckind, ckey, target = "valkey-cart-memory-stress", "StressChaos", "stressChaos", "valkey-cart"
    cspec = {"mode": "all", "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/component": "valkey-cart"}},
             "stressors": {"memory": {"workers": 1, "size": "256MB"}}}
    def setup(self):
        self.down, self.skip = [], []
        backoff, t_up, k = 10, self.F, 0
        while self.F + timedelta(seconds=60 * k) < self.E:
            sp = self.F + timedelta(seconds=60 * k)
            if sp >= t_up:
                kill = sp + timedelta(seconds=8)
                self.down.append((kill, kill + timedelta(seconds=backoff)))
                t_up = kill + timedelta(seconds=backoff)
                backoff = min(backoff * 2, 300)
            else:
                self.skip.append(k)
            k += 1
    def is_down(self, t):
        return any(a <= t < b for a, b in self.down)
    def edge(self, caller, callee, op, t):
        if callee == "valkey-cart" and self.is_down(t):
            return dict(fail="It was not possible to connect to the redis server(s). ConnectTimeout", dur=5000)
    def wrap(self, svc, op, child, err):
        if svc == "cart":
            return "Can't access cart storage. StackExchange.Redis.RedisConnectionException: " + err
        return err
    def objects_at(self, t, objs):
        self.chaos_objs(t, objs)
        past = [d for d in self.down if d[0] <= t]
        if not past:
            return
        p = pods_of(objs, "valkey-cart")[0]
        cs = p["status"]["containerStatuses"][0]
        cs["restartCount"] = len(past) - (1 if self.is_down(t) else 0)
        last = past[-1]
        cs["lastState"] = {"terminated": {"exitCode": 137, "reason": "OOMKilled", "startedAt": iso(past[-2][1] if len(past) > 1 else p["status"]["startTime"] and self.pods["valkey-cart"][0][2]),
                                          "finishedAt": iso(last[0]), "containerID": cs["containerID"]}}
        if self.is_down(t):
            cs["state"] = {"waiting": {"reason": "CrashLoopBackOff", "message": "back-off %ds restarting failed container=valkey-cart pod=%s_%s(%s)" %
                                       (int((last[1] - last[0]).total_seconds()), p["metadata"]["name"], NS, p["metadata"]["uid"])}}
            cs["ready"], cs["started"] = False, False
            for cnd in p["status"]["conditions"]:
                if cnd["type"] in ("Ready", "ContainersReady"):
                    cnd["status"], cnd["reason"] = "False", "ContainersNotReady"
        else:
            cs["state"] = {"running": {"startedAt": iso(last[1])}}
    def events(self):
        p = self.pods["valkey-cart"][0]
        out = self.chaos_events(skip=self.skip)
        for i, (a, b) in enumerate(self.down):
            if i > 0:
                out.append(ev(self, a + timedelta(seconds=1), "Pod", p[0], "BackOff", "Back-off restarting failed container valkey-cart in pod %s_%s(%s)" % (p[0], NS, uid(self.n, "pod", p[0])),
                              typ="Warning", host=p[1], count=i, first=self.down[1][0] + timedelta(seconds=1)))
            out.append(ev(self, b, "Pod", p[0], "Pulled", 'Container image "valkey/valkey:8.1.3-alpine" already present on machine', host=p[1], count=i + 2, first=p[2]))
            out.append(ev(self, b, "Pod", p[0], "Created", "Created container: valkey-cart", host=p[1], count=i + 2, first=p[2]))
            out.append(ev(self, b + timedelta(seconds=1), "Pod", p[0], "Started", "Started container valkey-cart", host=p[1], count=i + 2, first=p[2]))
        return out
    def logs(self):
        out = []
        for a, b in self.down:
            out.append((b + timedelta(seconds=1), "valkey-cart", "INFO", "1:C %s * oO0OoO0OoO0Oo Valkey is starting oO0OoO0OoO0Oo" % b.strftime("%d %b %Y %H:%M:%S.000"), "", ""))
            out.append((b + timedelta(seconds=1), "valkey-cart", "INFO", "1:M %s * Server initialized" % b.strftime("%d %b %Y %H:%M:%S.000"), "", ""))
            out.append((b + timedelta(seconds=1), "valkey-cart", "INFO", "1:M %s * Ready to accept connections tcp" % b.strftime("%d %b %Y %H:%M:%S.000"), "", ""))
        for s in self.spans:
            if s["svc"] == "cart" and s["kind"] == "server" and s["status"] == "error":
                out.append((s["start"] + timedelta(milliseconds=s["dur"]), "cart", "ERROR", s["msg"], s["trace"], s["span"]))
        return out
    def metrics(self, spans):
        p = self.pods["valkey-cart"][0][0]
        def ws(t):
            if self.is_down(t):
                return None
            if self.active(t, lag=2) and any(a - timedelta(seconds=8) <= t < a for a, b in self.down):
                return 20.9e6
            return 6.1e6 + rng_at("vw", t.isoformat()).uniform(0, 4e5)
        return {"pod_%s.tsv" % p: gauge_file(self, [("container_memory_working_set_bytes", {"namespace": NS, "pod": p, "container": "valkey-cart"}, ws),
                                                     ("container_spec_memory_limit_bytes", {"namespace": NS, "pod": p, "container": "valkey-cart"}, lambda t: 20971520),
                                                     ("kube_pod_container_status_restarts_total", {"namespace": NS, "pod": p, "container": "valkey-cart"},
                                                      lambda t: len([d for d in self.down if d[1] <= t]))], quote="raw")}
    def alerts(self, t):
        p = self.pods["valkey-cart"][0][0]
        return [alert("KubePodCrashLooping", {"namespace": NS, "pod": p, "container": "valkey-cart", "job": "kube-state-metrics"}, self.F + timedelta(minutes=3), t, 15,
                      "Pod %s/%s (valkey-cart) is in waiting state (reason: \"CrashLoopBackOff\")." % (NS, p), 1),
                alert("HighRequestErrorRate", {"service_name": "cart", "namespace": NS}, self.F + timedelta(minutes=4), t, 2, "cart error rate above 5%", 0.7),
                alert("HighRequestErrorRate", {"service_name": "frontend", "namespace": NS}, self.F + timedelta(minutes=4, seconds=30), t, 2, "frontend error rate above 5%", 0.25)]
    def gt(self):
        cg, al, root = self.chaos_gt("stresschaos")
        g = cg + app("valkey-cart") + app("cart") + app("frontend")
        return dict(groups=g, aliases=aliases_of(g) + [al],
                    propagations=[(root, "valkey-cart-pod-1", "StressChaos allocates 256MB in a 20Mi container", "valkey-cart OOMKilled, CrashLoopBackOff"),
                                  ("valkey-cart-pod-1", "valkey-cart-service-1", "no ready endpoint", "connections time out"),
                                  ("valkey-cart-service-1", "cart-service-1", "cannot reach valkey", "GetCart/AddItem fail"),
                                  ("cart-service-1", "frontend-service-1", "cart calls fail", "cart pages 500")],
                    fault=[dict(category="Chaos", condition="memory stress injected", entity=dict(group_id=root, kind="Schedule", name=self.sched), fault_mechanism="chaos-mesh")],
                    alerts=[("cart-service-1", "HighRequestErrorRate"), ("frontend-service-1", "HighRequestErrorRate")])


class C8(ChaosCase):
    n, seed, start = 8, "s4-httpabort-quote", T("2026-11-26T04:50:00Z")
    title = "Chaos Mesh Schedule quote-http-abort: HTTPChaos aborts POSTs to quote:8080 55 s of every minute; no quote server span for them; decoys: quote's steady PHP deprecation warnings"
    enc = dict(traces="zipkin", logs="text", events="tsv", objects="tsv", alerts="amv2")
    sched, ckind, ckey, target = "quote-http-abort", "HTTPChaos", "httpChaos", "quote"
    cspec = {"mode": "all", "target": "Request", "port": 8080, "method": "POST", "path": "*", "abort": True,
             "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/component": "quote"}}}
    def edge(self, caller, callee, op, t):
        if callee == "quote" and self.active(t):
            return dict(fail="error sending request for url (http://quote:8080/getquote): connection closed before message completed", dur=1.8)
    def wrap(self, svc, op, child, err):
        if svc == "shipping":
            return "failed to get quote: " + err
        if svc == "checkout" and child == "shipping":
            return "shipping quote failure: failed to get shipping quote: rpc error: code = Internal desc = " + err
        return err
    def events(self):
        return self.chaos_events()
    def logs(self):
        out = []
        rng = rng_at("php", self.seed)
        t = self.start + timedelta(seconds=20)
        while t < self.E:
            out.append((t, "quote", "WARN", "PHP Deprecated:  Creation of dynamic property Slim\\Psr7\\Request::$attributes is deprecated in /var/www/vendor/slim/psr7/src/Request.php on line 84", "", ""))
            t += timedelta(seconds=rng.uniform(20, 50))
        for s in self.spans:
            if s["svc"] == "shipping" and s["kind"] == "server" and s["status"] == "error":
                out.append((s["start"] + timedelta(milliseconds=s["dur"]), "shipping", "ERROR", "failed to get quote: " + s["msg"].split("failed to get quote: ")[-1], s["trace"], s["span"]))
        return out
    def alerts(self, t):
        return [alert("HighRequestErrorRate", {"service_name": "shipping", "namespace": NS}, self.F + timedelta(seconds=95), t, 2, "shipping error rate above 5%", 0.9),
                alert("HighRequestErrorRate", {"service_name": "checkout", "namespace": NS}, self.F + timedelta(seconds=120), t, 2, "checkout error rate above 5%", 0.9)]
    def gt(self):
        cg, al, root = self.chaos_gt("httpchaos")
        g = cg + app("quote") + app("shipping") + app("checkout") + app("frontend")
        return dict(groups=g, aliases=aliases_of(g) + [al],
                    propagations=[(root, "quote-service-1", "HTTPChaos abort on POST :8080", "requests to quote closed before a response"),
                                  ("quote-service-1", "shipping-service-1", "quote unreachable", "GetQuote fails"),
                                  ("shipping-service-1", "checkout-service-1", "GetQuote fails", "PlaceOrder fails"),
                                  ("shipping-service-1", "frontend-service-1", "GetQuote fails", "GET /api/shipping 500")],
                    fault=[dict(category="Chaos", condition="HTTP abort injected", entity=dict(group_id=root, kind="Schedule", name=self.sched), fault_mechanism="chaos-mesh")],
                    alerts=[("shipping-service-1", "HighRequestErrorRate"), ("checkout-service-1", "HighRequestErrorRate")])


class C9(ChaosCase):
    n, seed, start = 9, "s4-podkill-payment", T("2026-11-26T09:25:00Z")
    title = "Chaos Mesh Schedule payment-pod-kill (PodChaos pod-kill every 2 min): each kill leaves payment without a ready pod ~7 s; checkout charges fail in bursts; payment's steady card errors are the decoy"
    enc = dict(traces="otlpl", logs="ecs", events="watch", objects="tsv", alerts="prom")
    sched, ckind, ckey, target, every, dur_s = "payment-pod-kill", "PodChaos", "podChaos", "payment", 120, 0
    cspec = {"action": "pod-kill", "mode": "one", "gracePeriod": 0, "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/component": "payment"}}}
    def setup(self):
        self.kills = []
        k = 0
        while self.F + timedelta(seconds=120 * k + 2) < self.E:
            kt = self.F + timedelta(seconds=120 * k + 2)
            old = self.pod_at("payment", kt)
            newp = self.new_pod("payment", kt, new_hash=False)
            self.kills.append((kt, old, newp))
            k += 1
    def down(self, t):
        return any(kt <= t < kt + timedelta(seconds=7) for kt, _, _ in self.kills)
    def edge(self, caller, callee, op, t):
        if callee == "payment" and self.down(t):
            return dict(fail='connection error: desc = "transport: Error while dialing: dial tcp %s:8080: connect: connection refused"' % ip_of("payment"), dur=1.1, code=14)
    def wrap(self, svc, op, child, err):
        if svc == "checkout" and child == "payment":
            return "failed to charge card: could not charge the card: rpc error: code = Unavailable desc = " + err
        return err
    def objects_at(self, t, objs):
        self.chaos_objs(t, objs)
        for o in objs:
            if o["kind"] == "Pod" and o["metadata"]["labels"].get("opentelemetry.io/name") == "payment":
                for kt, _, newp in self.kills:
                    if newp[0] == o["metadata"]["name"] and t < kt + timedelta(seconds=7):
                        o["status"]["containerStatuses"][0]["ready"] = False
    def events(self):
        out = self.chaos_events()
        img = "ghcr.io/open-telemetry/demo:%s-payment" % VER
        for kt, old, newp in self.kills:
            h = newp[4]
            out += [ev(self, kt, "Pod", old[0], "Killing", "Stopping container payment", host=old[1]),
                    ev(self, kt, "ReplicaSet", "payment-%s" % h, "SuccessfulCreate", "Created pod: %s" % newp[0], comp="replicaset-controller")] + pod_start_events(self, "payment", newp)
        return out
    def logs(self):
        out = []
        for kt, old, newp in self.kills:
            out.append((kt + timedelta(seconds=5), "payment", "INFO", json.dumps({"level": 30, "time": ns_of(kt) // 1000000 + 5000, "pid": 1, "hostname": newp[0],
                                                                                   "msg": "payment gRPC server started on port 8080"}), "", ""))
        for s in self.spans:
            if s["svc"] == "checkout" and s["kind"] == "server" and s["status"] == "error" and "charge" in s["msg"]:
                out.append((s["start"] + timedelta(milliseconds=s["dur"]), "checkout", "ERROR", 'time=%s level=ERROR msg="failed to charge card" err="%s"' %
                            (iso(s["start"], True), s["msg"].replace('"', "'")), s["trace"], s["span"]))
        return out
    def alerts(self, t):
        return [alert("HighRequestErrorRate", {"service_name": "checkout", "namespace": NS}, self.F + timedelta(minutes=3), t, 2, "checkout error rate above 5%", 0.09)]
    def gt(self):
        cg, al, root = self.chaos_gt("podchaos")
        g = cg + app("payment") + app("checkout") + app("frontend")
        return dict(groups=g, aliases=aliases_of(g) + [al],
                    propagations=[(root, "payment-pod-1", "PodChaos pod-kill every 2 minutes", "payment pod killed and recreated"),
                                  ("payment-pod-1", "payment-service-1", "no ready endpoint for ~7 s", "connection refused"),
                                  ("payment-service-1", "checkout-service-1", "Charge refused", "PlaceOrder fails"),
                                  ("checkout-service-1", "frontend-service-1", "PlaceOrder fails", "POST /api/checkout 500")],
                    fault=[dict(category="Chaos", condition="pod killed", entity=dict(group_id=root, kind="Schedule", name=self.sched), fault_mechanism="chaos-mesh")],
                    alerts=[("checkout-service-1", "HighRequestErrorRate")])


class C10(Case):
    n, seed, start = 10, "s4-quota-ad", T("2026-11-26T12:00:00Z")
    title = "ResourceQuota compute-quota (limits.memory 3Gi) created, then ad's pod deleted: the replacement is forbidden (exceeded quota), ad has no pod, frontend's ad calls refused"
    enc = dict(traces="otlpl", logs="fluentbit", events="eventsv1", objects="watch", alerts="webhook")
    def setup(self):
        self.q = self.F - timedelta(seconds=70)
        self.pods["ad"][0][3] = self.F
        self.used = 2848
    def edge(self, caller, callee, op, t):
        if callee == "ad" and t >= self.F + timedelta(seconds=2):
            return dict(fail="14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED %s:8080 (%s)" % (ip_of("ad"), iso(t)), dur=3.0, code=14)
    def objects_at(self, t, objs):
        objs.append({"apiVersion": "v1", "kind": "LimitRange",
                     "metadata": {"name": "default-limits", "namespace": NS, "uid": uid(10, "lr"), "resourceVersion": "1201",
                                  "creationTimestamp": iso(self.start - timedelta(days=30))},
                     "spec": {"limits": [{"type": "Container", "default": {"memory": "256Mi"}, "defaultRequest": {"memory": "64Mi"}}]}})
        if t >= self.q:
            objs.append({"apiVersion": "v1", "kind": "ResourceQuota",
                         "metadata": {"name": "compute-quota", "namespace": NS, "uid": uid(10, "rq"), "resourceVersion": "652101",
                                      "creationTimestamp": iso(self.q),
                                      "annotations": {"kubectl.kubernetes.io/last-applied-configuration": json.dumps({"apiVersion": "v1", "kind": "ResourceQuota",
                                          "metadata": {"name": "compute-quota", "namespace": NS}, "spec": {"hard": {"limits.memory": "3Gi", "pods": "30"}}})},
                                      "managedFields": [{"manager": "kubectl-client-side-apply", "operation": "Update", "apiVersion": "v1", "time": iso(self.q),
                                                         "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:hard": {}}}},
                                                        {"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "v1", "time": iso(self.q + timedelta(seconds=1)),
                                                         "fieldsType": "FieldsV1", "fieldsV1": {"f:status": {}}, "subresource": "status"}]},
                         "spec": {"hard": {"limits.memory": "3Gi", "pods": "30"}},
                         "status": {"hard": {"limits.memory": "3Gi", "pods": "30"},
                                    "used": {"limits.memory": "%dMi" % (self.used + (300 if t < self.F else 0)), "pods": "%d" % (19 if t < self.F else 18)}}})
        if t >= self.F:
            d = dep(objs, "ad")
            d["status"] = {"observedGeneration": d["metadata"]["generation"], "replicas": 0, "unavailableReplicas": 1,
                           "conditions": [{"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable", "message": "Deployment does not have minimum availability.",
                                           "lastUpdateTime": iso(self.F), "lastTransitionTime": iso(self.F)},
                                          {"type": "ReplicaFailure", "status": "True", "reason": "FailedCreate",
                                           "message": 'pods "%s-%s-%s" is forbidden: exceeded quota: compute-quota, requested: limits.memory=300Mi, used: limits.memory=%dMi, limited: limits.memory=3Gi'
                                                      % ("ad", self.hashes["ad"][0], "x7k2q", self.used), "lastUpdateTime": iso(self.F), "lastTransitionTime": iso(self.F)},
                                          {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable", "message": 'ReplicaSet "ad-%s" has successfully progressed.' % self.hashes["ad"][0],
                                           "lastUpdateTime": iso(self.start - timedelta(days=2)), "lastTransitionTime": iso(self.start - timedelta(days=2))}]}
            objs[:] = [o for o in objs if not (o["kind"] == "Pod" and o["metadata"]["name"].startswith("ad-"))]
    def events(self):
        p = self.pods["ad"][0]
        rs = "ad-%s" % p[4]
        out = [ev(self, self.F, "Pod", p[0], "Killing", "Stopping container ad", host=p[1])]
        rng = rng_at("fc", self.seed)
        n = 0
        t = self.F + timedelta(seconds=1)
        while t < self.E:
            n += 1
            sfx = "".join(rng.choice(SAFE) for _ in range(5))
            out.append(ev(self, t, "ReplicaSet", rs, "FailedCreate",
                          'Error creating: pods "%s-%s" is forbidden: exceeded quota: compute-quota, requested: limits.memory=300Mi, used: limits.memory=%dMi, limited: limits.memory=3Gi'
                          % (rs, sfx, self.used), typ="Warning", comp="replicaset-controller", count=1))
            t += timedelta(seconds=min(2 ** n, 330))
        return out
    def logs(self):
        out = []
        for s in self.spans:
            if s["svc"] == "frontend" and s["kind"] == "server" and s["status"] == "error" and rng_at("fe", s["span"]).random() < .6:
                out.append((s["start"] + timedelta(milliseconds=s["dur"]), "frontend", "ERROR", "Error: 14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED %s:8080" % ip_of("ad"), s["trace"], s["span"]))
        return out
    def alerts(self, t):
        return [alert("HighRequestErrorRate", {"service_name": "frontend", "namespace": NS}, self.F + timedelta(seconds=100), t, 2, "frontend error rate above 5%", 0.1),
                alert("KubeDeploymentReplicasMismatch", {"namespace": NS, "deployment": "ad", "job": "kube-state-metrics"}, self.F + timedelta(seconds=30), t, 15,
                      "Deployment otel-demo/ad has not matched the expected number of replicas for longer than 15 minutes.", 1),
                alert("KubeQuotaAlmostFull", {"namespace": NS, "resource": "limits.memory", "resourcequota": "compute-quota", "job": "kube-state-metrics"}, self.q + timedelta(seconds=30),
                      t, 15, "Namespace otel-demo is using 93% of its limits.memory quota.", 0.93, severity="info")]
    def gt(self):
        g = [grp("compute-quota-resourcequota-1", "ResourceQuota", "compute-quota", root=True), grp("ad-deployment-1", "Deployment", "ad", root=True)] + app("ad") + app("frontend")
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("compute-quota-resourcequota-1", "ad-deployment-1", "limits.memory 3Gi nearly used", "ReplicaSet cannot create ad's pod (FailedCreate)"),
                                  ("ad-deployment-1", "ad-service-1", "no pod", "no endpoints, connection refused"),
                                  ("ad-service-1", "frontend-service-1", "GetAds refused", "GET /api/data 500")],
                    fault=[dict(category="Change", condition="insufficient resource quota", entity=dict(group_id="compute-quota-resourcequota-1", kind="ResourceQuota", name="compute-quota"),
                                fault_mechanism="custom")],
                    alerts=[("frontend-service-1", "HighRequestErrorRate")])


class C11(Case):
    n, seed, start = 11, "s4-arch-checkout", T("2026-11-26T15:10:00Z")
    fault_min = 12
    title = "checkout's image pinned to an arm64-only digest on amd64 nodes: new pod exits 'exec format error', CrashLoopBackOff; the old pod keeps serving (maxUnavailable 0); decoy: a currency rollout 2 min later"
    enc = dict(traces="otlp", logs="fluentbit", events="eventsv1", objects="list", alerts="amv2")
    IMG = "ghcr.io/open-telemetry/demo@sha256:8d1c7f0f3b2e4a96c5e0d7f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5"
    def setup(self):
        self.nh = "".join(self.rng.choice(SAFE) for _ in range(10))
        self.stuck = [self.podname("checkout", self.nh), SVC["checkout"][2], self.F, None, self.nh]
        self.tr = self.F + timedelta(minutes=2)
        self.old = self.pods["currency"][0]
        self.newp = self.new_pod("currency", self.tr)
        self.fails = []
        t, b = self.F + timedelta(seconds=2), 10
        while t < self.E:
            self.fails.append(t)
            t += timedelta(seconds=b + 1)
            b = min(b * 2, 300)
    def objects_at(self, t, objs):
        image_bump(self, objs, "currency", t, self.tr, "ghcr.io/open-telemetry/demo:2.0.3-currency")
        if t < self.F:
            return
        d = dep(objs, "checkout")
        cont(d)["image"] = self.IMG
        d["metadata"]["generation"] += 1
        d["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = str(int(d["metadata"]["annotations"]["deployment.kubernetes.io/revision"]) + 1)
        mf_add(d, "kubectl-set", self.F, {"f:spec": {"f:template": {"f:spec": {"f:containers": {'k:{"name":"checkout"}': {"f:image": {}}}}}}})
        d["status"].update({"observedGeneration": d["metadata"]["generation"], "replicas": 2, "updatedReplicas": 1, "readyReplicas": 1, "availableReplicas": 1, "unavailableReplicas": 1})
        d["status"]["conditions"][1].update({"reason": "ReplicaSetUpdated", "message": 'ReplicaSet "checkout-%s" is progressing.' % self.nh, "lastUpdateTime": iso(self.F)})
        n = len([f for f in self.fails if f <= t])
        p = pod(self, "checkout", self.stuck, t, ready=False,
                cstate={"waiting": {"reason": "CrashLoopBackOff", "message": "back-off %ds restarting failed container=checkout pod=%s_%s(%s)" %
                                    (min(10 * 2 ** max(n - 1, 0), 300), self.stuck[0], NS, uid(self.n, "pod", self.stuck[0]))}})
        p["spec"]["containers"][0]["image"] = self.IMG
        cs = p["status"]["containerStatuses"][0]
        cs.update({"image": self.IMG, "imageID": self.IMG, "restartCount": max(n - 1, 0), "started": False,
                   "lastState": {"terminated": {"exitCode": 255, "reason": "Error", "startedAt": iso(self.fails[max(n - 1, 0)]), "finishedAt": iso(self.fails[max(n - 1, 0)]),
                                                "containerID": cs["containerID"]}}})
        objs.append(p)
    def events(self):
        p, h = self.stuck, self.nh
        n = len(self.fails)
        return rollout_events(self, "currency", self.tr, self.old, self.newp) + [
            ev(self, self.F, "Deployment", "checkout", "ScalingReplicaSet", "Scaled up replica set checkout-%s from 0 to 1" % h, comp="deployment-controller"),
            ev(self, self.F, "ReplicaSet", "checkout-%s" % h, "SuccessfulCreate", "Created pod: %s" % p[0], comp="replicaset-controller"),
            ev(self, self.F, "Pod", p[0], "Scheduled", "Successfully assigned %s/%s to %s" % (NS, p[0], p[1]), comp="default-scheduler"),
            ev(self, self.F + timedelta(seconds=1), "Pod", p[0], "Pulling", 'Pulling image "%s"' % self.IMG, host=p[1]),
            ev(self, self.F + timedelta(seconds=2), "Pod", p[0], "Pulled", 'Successfully pulled image "%s" in 1.21s (1.21s including waiting). Image size: 18731402 bytes.' % self.IMG, host=p[1]),
            ev(self, self.fails[-1], "Pod", p[0], "Created", "Created container: checkout", host=p[1], count=n, first=self.F + timedelta(seconds=2)),
            ev(self, self.fails[-1], "Pod", p[0], "Started", "Started container checkout", host=p[1], count=n, first=self.F + timedelta(seconds=2)),
            ev(self, self.E - timedelta(seconds=25), "Pod", p[0], "BackOff", "Back-off restarting failed container checkout in pod %s_%s(%s)" % (p[0], NS, uid(self.n, "pod", p[0])),
               typ="Warning", host=p[1], count=3 * n, first=self.fails[1] + timedelta(seconds=1))]
    def logs(self):
        out = []
        for f in self.fails:
            out.append((f + timedelta(milliseconds=40), "checkout", "ERROR", "exec /usr/src/app/checkout: exec format error", "", ""))
        return out
    def fmt_pod(self):
        return self.stuck[0]
    def alerts(self, t):
        return [alert("KubePodCrashLooping", {"namespace": NS, "pod": self.stuck[0], "container": "checkout", "job": "kube-state-metrics"}, self.F + timedelta(seconds=40), t, 15,
                      "Pod %s/%s (checkout) is in waiting state (reason: \"CrashLoopBackOff\")." % (NS, self.stuck[0]), 1)]
    def gt(self):
        g = [grp("checkout-deployment-1", "Deployment", "checkout", root=True), grp("checkout-pod-1", "Pod", "checkout")]
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("checkout-deployment-1", "checkout-pod-1", "image is arm64 only, nodes are amd64", "exec format error, CrashLoopBackOff, rollout stuck")],
                    fault=[dict(category="Change", condition="unsupported architecture image", entity=dict(group_id="checkout-deployment-1", kind="Deployment", name="checkout"),
                                fault_mechanism="custom")],
                    alerts=[("checkout-pod-1", "KubePodCrashLooping")])


class C12(Case):
    n, seed, start = 12, "s4-valkey-maxmemory", T("2026-11-26T19:35:00Z")
    title = "valkey-cart rolled out with --maxmemory 4mb --maxmemory-policy noeviction: after ~3.5 min writes fail 'OOM command not allowed'; reads work; decoy: a frontend image bump 2 min after the valkey change"
    enc = dict(traces="tsvcsv", logs="ecs", events="list", objects="tsv", alerts="prom")
    def setup(self):
        self.old = self.pods["valkey-cart"][0]
        self.newp = self.new_pod("valkey-cart", self.F)
        self.full = self.F + timedelta(seconds=212)
        self.tr = self.F + timedelta(minutes=2)
        self.fold = self.pods["frontend"][0]
        self.fnew = self.new_pod("frontend", self.tr)
    def server(self, svc, op, t):
        if svc == "valkey-cart" and op == "HMSET" and t >= self.full:
            return 0, "OOM command not allowed when used memory > 'maxmemory'."
        return 0, None
    def edge(self, caller, callee, op, t):
        if callee == "valkey-cart" and self.F <= t < self.F + timedelta(seconds=6):
            return dict(fail="No connection is active/available to service this operation: %s cart" % op, dur=4.0)
    def wrap(self, svc, op, child, err):
        if svc == "cart":
            return "Can't access cart storage. StackExchange.Redis.RedisServerException: " + err
        return err
    def objects_at(self, t, objs):
        image_bump(self, objs, "frontend", t, self.tr, "ghcr.io/open-telemetry/demo:2.0.3-frontend")
        if t >= self.F:
            d = dep(objs, "valkey-cart")
            cont(d)["args"] = ["--maxmemory", "4mb", "--maxmemory-policy", "noeviction"]
            mf_add(d, "kubectl-patch", self.F, {"f:spec": {"f:template": {"f:spec": {"f:containers": {'k:{"name":"valkey-cart"}': {"f:args": {}}}}}}})
            for p in pods_of(objs, "valkey-cart"):
                p["spec"]["containers"][0]["args"] = ["--maxmemory", "4mb", "--maxmemory-policy", "noeviction"]
    def events(self):
        return rollout_events(self, "valkey-cart", self.F, self.old, self.newp) + rollout_events(self, "frontend", self.tr, self.fold, self.fnew)
    def logs(self):
        b = self.F + timedelta(seconds=2)
        out = [(b, "valkey-cart", "INFO", "1:M %s * Server initialized" % b.strftime("%d %b %Y %H:%M:%S.000"), "", ""),
               (b, "valkey-cart", "INFO", "1:M %s * Ready to accept connections tcp" % b.strftime("%d %b %Y %H:%M:%S.000"), "", ""),
               (self.tr + timedelta(seconds=4), "frontend", "INFO", "  \u25b2 Next.js 15.1.4\n   - Local:        http://localhost:8080\n \u2713 Ready in 412ms", "", "")]
        for s in self.spans:
            if s["svc"] == "cart" and s["kind"] == "server" and s["status"] == "error":
                out.append((s["start"] + timedelta(milliseconds=s["dur"]), "cart", "ERROR", s["msg"], s["trace"], s["span"]))
            if s["svc"] == "frontend" and s["kind"] == "server" and s["status"] == "error" and rng_at("fe", s["span"]).random() < .5:
                out.append((s["start"] + timedelta(milliseconds=s["dur"]), "frontend", "ERROR", "Error: 9 FAILED_PRECONDITION: Can't access cart storage.", s["trace"], s["span"]))
        return out
    def metrics(self, spans):
        p = self.newp[0]
        def used(t):
            if t < self.F:
                return None
            x = (t - self.F).total_seconds()
            return float(min(980000 + 15200 * x, 4194304 - 1200))
        return {"pod_%s.tsv" % p: gauge_file(self, [("redis_memory_used_bytes", {"namespace": NS, "pod": p, "service": "valkey-cart"}, used),
                                                     ("redis_memory_max_bytes", {"namespace": NS, "pod": p, "service": "valkey-cart"}, lambda t: 4194304 if t >= self.F else None),
                                                     ("redis_rejected_connections_total", {"namespace": NS, "pod": p, "service": "valkey-cart"}, lambda t: 0 if t >= self.F else None)])}
    def alerts(self, t):
        return [alert("HighRequestErrorRate", {"service_name": "cart", "namespace": NS}, self.full + timedelta(seconds=60), t, 2, "cart error rate above 5%", 0.45),
                alert("HighRequestErrorRate", {"service_name": "frontend", "namespace": NS}, self.full + timedelta(seconds=80), t, 2, "frontend error rate above 5%", 0.12),
                alert("HighRequestErrorRate", {"service_name": "checkout", "namespace": NS}, self.full + timedelta(seconds=90), t, 2, "checkout error rate above 5%", 1.0)]
    def gt(self):
        g = [grp("valkey-cart-deployment-1", "Deployment", "valkey-cart", root=True)] + app("valkey-cart") + app("cart") + app("checkout") + app("frontend")
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("valkey-cart-deployment-1", "valkey-cart-pod-1", "--maxmemory 4mb noeviction", "memory fills, writes rejected with OOM"),
                                  ("valkey-cart-pod-1", "cart-service-1", "HMSET rejected", "AddItem/EmptyCart fail"),
                                  ("cart-service-1", "checkout-service-1", "EmptyCart fails", "PlaceOrder fails"),
                                  ("cart-service-1", "frontend-service-1", "AddItem fails", "POST /api/cart 500")],
                    fault=[dict(category="Change", condition="valkey maxmemory too small", entity=dict(group_id="valkey-cart-deployment-1", kind="Deployment", name="valkey-cart"),
                                fault_mechanism="custom")],
                    alerts=[("cart-service-1", "HighRequestErrorRate"), ("frontend-service-1", "HighRequestErrorRate"), ("checkout-service-1", "HighRequestErrorRate")])


CASES = [C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12]
def write_case(out, cls):
    c = cls()
    d = os.path.join(out, "Scenario-%d" % c.n)
    os.makedirs(os.path.join(d, "alerts"), exist_ok=True)
    spans = gen_traces(c)
    c.spans = spans
    enc = c.enc
    def put(name, text, gz=False):
        path = os.path.join(d, name)
        if gz:
            with open(path, "wb") as f:
                f.write(gzip.compress(text.encode(), mtime=0))
        else:
            with open(path, "w") as f:
                f.write(text)
    # traces
    if enc["traces"] == "otlp":
        put("traces.otlp.json", otlp_traces(c, spans, False))
    elif enc["traces"] == "otlpl":
        put("otlp_traces.jsonl", otlp_traces(c, spans, True))
    elif enc["traces"] == "zipkin":
        put("zipkin_traces.jsonl", zipkin_traces(c, spans))
    elif enc["traces"] == "jaeger":
        put("jaeger_traces.json", jaeger_traces(c, spans))
    else:
        put("otel_traces_raw.tsv", tsv_traces(c, spans, "raw" if enc["traces"] == "tsvraw" else "csv"))
    # logs
    recs = background_logs(c, spans) + c.logs()
    if enc["logs"] == "ecs":
        put("filebeat_ecs_logs.ndjson", ecs_logs(c, recs))
    else:
        name = {"otlp": "logs.otlp.json", "fluentbit": "fluentbit_logs.jsonl", "text": "app_logs.txt", "tsv": "otel_logs_raw.tsv"}[enc["logs"]]
        put(name, fmt_logs(c, recs, enc["logs"]))
    # events
    evs = background_events(c) + c.events()
    name = {"tsv": "k8s_events_raw.tsv", "watch": "k8s_events.jsonl", "list": "k8s_events.json", "eventsv1": "k8s_events.json"}[enc["events"]]
    put(name, fmt_events(c, evs, enc["events"]))
    # objects
    name = {"tsv": "k8s_objects_raw.tsv", "tsvgz": "k8s_objects_raw.tsv.gz", "watch": "k8s_objects_watch.jsonl", "list": "k8s_objects.json"}[enc["objects"]]
    put(name, fmt_objects(c, "tsv" if enc["objects"] == "tsvgz" else enc["objects"]), gz=enc["objects"] == "tsvgz")
    # alerts: three observations
    for k, mins in enumerate((6, 10, 14) if c.fault_min == 15 else (6, 12, 17)):
        t = c.F + timedelta(minutes=mins)
        al = bg_alerts(c, t) + c.alerts(t)
        put("alerts/alerts_at_%s.json" % t.strftime("%Y-%m-%dT%H-%M-%S.%f"), json.dumps(fmt_alerts(c, t, al, enc["alerts"]), indent=1))
    # metrics
    files = c.metrics(spans)
    if files:
        os.makedirs(os.path.join(d, "metrics"), exist_ok=True)
        for fn, txt in files.items():
            put(os.path.join("metrics", fn), txt)
    gt = c.gt()
    gt["id"] = str(c.n)
    put("ground_truth.yaml", to_yaml(gt))
    roots = ["%s/%s/%s" % (g.get("namespace", ""), g["kind"], g["name"]) if g.get("namespace") else "%s/%s" % (g["kind"], g["name"])
             for g in gt["groups"] if g.get("root_cause")]
    return {"scenario": "Scenario-%d" % c.n, "title": c.title, "root_cause": roots, "encodings": enc, "spans": len(spans),
            "fault_time": iso(c.F), "files": sorted(os.path.relpath(os.path.join(r, f), d) for r, _, fs in os.walk(d) for f in fs)}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    summary = [write_case(out, cls) for cls in CASES]
    key = os.path.join(os.path.dirname(os.path.abspath(out)), os.path.basename(os.path.abspath(out)) + "-answer_key.json")
    with open(key, "w") as f:  # beside OUTDIR, not inside it: nothing under OUTDIR but the scenarios
        json.dump(summary, f, indent=1)
    for s in summary:
        print(s["scenario"], s["spans"], "spans", s["root_cause"])


if __name__ == "__main__":
    main()
