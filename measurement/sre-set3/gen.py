#!/usr/bin/env python3
"""sre-set3: 12 blind SRE incident snapshots of the OpenTelemetry demo, each written in the shapes
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
            s = srv(callee, cl_name if proto == "grpc" else op, cl["span"], st + timedelta(milliseconds=rng.uniform(.1, .6)))
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
            cl["dur"] = s["dur"] + rng.uniform(.3, 1.5)
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
class C1(Case):
    n, seed, start = 1, "egress-policy-checkout", T("2026-11-18T07:40:00Z")
    title = "egress NetworkPolicy on checkout leaves out payment: only checkout's client spans to payment fail"
    enc = dict(traces="otlp", logs="otlp", events="tsv", objects="tsv", alerts="amgroups")
    NP = "checkout-egress-lockdown"
    def edge(self, caller, callee, op, t):
        if caller == "checkout" and callee == "payment" and t >= self.F + timedelta(seconds=4):
            return dict(fail='connection error: desc = "transport: Error while dialing: dial tcp %s:8080: i/o timeout"' % ip_of("payment"),
                        dur=10000, code=14)
    def wrap(self, svc, op, child, err):
        if svc == "checkout" and child == "payment":
            return "failed to charge card: could not charge the card: rpc error: code = Unavailable desc = " + err
        return err
    def objects_at(self, t, objs):
        if t < self.F:
            return
        ports = lambda *ps: [{"protocol": "TCP", "port": p} for p in ps]
        to = lambda name: {"podSelector": {"matchLabels": {"app.kubernetes.io/name": name}}}
        o = {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
             "metadata": {"name": self.NP, "namespace": NS, "uid": uid(1, "np"), "resourceVersion": "612233", "generation": 1,
                          "creationTimestamp": iso(self.F - timedelta(seconds=3)),
                          "labels": {"team": "platform-security", "policy-tier": "egress-baseline"},
                          "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{...}",
                                          "change-ticket": "SEC-2291 restrict checkout egress to declared dependencies"},
                          "managedFields": [{"manager": "kubectl-client-side-apply", "operation": "Update", "apiVersion": "networking.k8s.io/v1",
                                             "time": iso(self.F - timedelta(seconds=3)), "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {}}}]},
             "spec": {"podSelector": {"matchLabels": {"app.kubernetes.io/name": "checkout"}}, "policyTypes": ["Egress"],
                      "egress": [{"to": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "kube-system"}},
                                          "podSelector": {"matchLabels": {"k8s-app": "kube-dns"}}}],
                                  "ports": [{"protocol": "UDP", "port": 53}, {"protocol": "TCP", "port": 53}]},
                                 {"to": [to("cart"), to("currency"), to("product-catalog"), to("shipping"), to("email")], "ports": ports(8080)},
                                 {"to": [to("kafka")], "ports": ports(9092)},
                                 {"to": [to("flagd")], "ports": ports(8013)},
                                 {"to": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "otel-demo"}},
                                          "podSelector": {"matchLabels": {"app.kubernetes.io/name": "otel-collector"}}}], "ports": ports(4317, 4318)}]}}
        objs.append(o)
    def logs(self):
        out = []
        rng = random.Random(11)
        for s in self.spans:
            if s["svc"] == "checkout" and s["kind"] == "server" and s["status"] == "error":
                t = s["start"] + timedelta(milliseconds=s["dur"] - 1)
                out.append((t, "checkout", "ERROR", 'time=%s level=ERROR msg="failed to charge card" error="%s" order_currency=USD' %
                            (iso(t, True), s["msg"].replace('"', '\\"')), s["trace"], s["span"]))
            if s["svc"] == "frontend" and s["kind"] == "server" and s["status"] == "error":
                t = s["start"] + timedelta(milliseconds=s["dur"])
                out.append((t, "frontend", "ERROR", "Error: 13 INTERNAL: failed to charge card: could not charge the card: rpc error: code = Unavailable desc = connection error\n"
                            "    at callErrorFromStatus (/app/node_modules/@grpc/grpc-js/build/src/call.js:31:19)\n"
                            "    at Object.onReceiveStatus (/app/node_modules/@grpc/grpc-js/build/src/client.js:193:76)", s["trace"], s["span"]))
        return out
    def alerts(self, t):
        return [alert("HighRequestErrorRate", {"service_name": "checkout", "namespace": NS}, self.F + timedelta(seconds=70), t, 2,
                      "checkout error rate above 5%", 0.31),
                alert("HighRequestLatency", {"service_name": "checkout", "namespace": NS}, self.F + timedelta(seconds=90), t, 2,
                      "checkout p95 latency above 1s", 10.2),
                alert("HighRequestErrorRate", {"service_name": "frontend", "namespace": NS}, self.F + timedelta(seconds=100), t, 2,
                      "frontend error rate above 5%", 0.07)]
    def gt(self):
        g = [grp("checkout-egress-lockdown-networkpolicy-1", "NetworkPolicy", self.NP, root=True)] + app("checkout") + app("frontend") + app("frontend-proxy", False)
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("checkout-egress-lockdown-networkpolicy-1", "checkout-service-1", "egress from checkout admitted only to listed services; payment is not listed",
                                   "checkout's connections to payment time out"),
                                  ("checkout-service-1", "frontend-service-1", "PlaceOrder fails after a 10 s dial time-out", "checkout requests fail"),
                                  ("frontend-service-1", "frontend-proxy-service-1", "POST /api/checkout returns 500", "user-facing errors")],
                    fault=[dict(category="Change", condition="egress NetworkPolicy omits a dependency",
                                entity=dict(group_id="checkout-egress-lockdown-networkpolicy-1", kind="NetworkPolicy", name=self.NP), fault_mechanism="custom")],
                    alerts=[("checkout-service-1", "HighRequestErrorRate"), ("checkout-service-1", "HighRequestLatency"), ("frontend-service-1", "HighRequestErrorRate")])


class C2(Case):
    n, seed, start = 2, "rec-env-old-port", T("2026-11-19T13:05:00Z")
    title = "recommendation rolled out with PRODUCT_CATALOG_ADDR on the demo's old port 3550: no crash, its calls are refused"
    enc = dict(traces="jaeger", logs="fluentbit", events="watch", objects="watch", alerts="prom")
    BAD = "product-catalog.otel-demo.svc.cluster.local:3550"
    def setup(self):
        self.np = self.new_pod("recommendation", self.F + timedelta(seconds=2))
    def edge(self, caller, callee, op, t):
        if caller == "recommendation" and callee == "product-catalog" and t >= self.F + timedelta(seconds=12):
            return dict(fail="failed to connect to all addresses; last error: UNKNOWN: ipv4:%s:3550: Failed to connect to remote host: Connection refused" % ip_of("product-catalog"),
                        dur=2.5, code=14, attrs={"server.address": "product-catalog.otel-demo.svc.cluster.local", "server.port": 3550})
    def wrap(self, svc, op, child, err):
        if svc == "recommendation":
            return "Exception calling application: <_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.UNAVAILABLE\n\tdetails = \"%s\"" % err
        return err
    def objects_at(self, t, objs):
        if t < self.F:
            return
        for o in objs:
            if o["kind"] in ("Deployment", "Pod") and o["metadata"]["name"].startswith("recommendation"):
                spec = o["spec"]["template"]["spec"] if o["kind"] == "Deployment" else o["spec"]
                for e in spec["containers"][0]["env"]:
                    if e["name"] == "PRODUCT_CATALOG_ADDR":
                        e["value"] = self.BAD
                if o["kind"] == "Deployment":
                    mf_add(o, "kubectl-set", self.F, {"f:spec": {"f:template": {"f:spec": {"f:containers": {}}}}})
    def events(self):
        old = self.pods["recommendation"][0]
        h = self.np[4]
        return [ev(self, self.F, "Deployment", "recommendation", "ScalingReplicaSet", "Scaled up replica set recommendation-%s to 1" % h, comp="deployment-controller"),
                ev(self, self.F + timedelta(seconds=9), "Deployment", "recommendation", "ScalingReplicaSet",
                   "Scaled down replica set recommendation-%s to 0 from 1" % old[4], comp="deployment-controller"),
                ev(self, self.F + timedelta(seconds=9), "Pod", old[0], "Killing", "Stopping container recommendation", host=old[1])] + pod_start_events(self, "recommendation", self.np)
    def logs(self):
        out = []
        for s in self.spans:
            if s["svc"] == "recommendation" and s["kind"] == "server" and s["status"] == "error":
                t = s["start"] + timedelta(milliseconds=s["dur"])
                out.append((t, "recommendation", "ERROR", "ERROR:grpc._server:Exception calling application: <_InactiveRpcError of RPC that terminated with:\n"
                            "\tstatus = StatusCode.UNAVAILABLE\n\tdetails = \"failed to connect to all addresses; last error: UNKNOWN: ipv4:%s:3550: Failed to connect to remote host: Connection refused\"\n"
                            "Traceback (most recent call last):\n  File \"/app/recommendation_server.py\", line 70, in ListRecommendations\n"
                            "    prod_list = get_product_list(request.product_ids)" % ip_of("product-catalog"), s["trace"], s["span"]))
            if s["svc"] == "frontend" and s["kind"] == "server" and s["status"] == "error":
                t = s["start"] + timedelta(milliseconds=s["dur"])
                out.append((t, "frontend", "ERROR", "Error: 2 UNKNOWN: Exception calling application: <_InactiveRpcError of RPC that terminated with:", s["trace"], s["span"]))
        out.append((self.F + timedelta(seconds=5), "recommendation", "INFO", "INFO:root:Recommendation service started on port 8080", "", ""))
        return out
    def alerts(self, t):
        return [alert("HighRequestErrorRate", {"service_name": "recommendation", "namespace": NS}, self.F + timedelta(seconds=60), t, 2,
                      "recommendation error rate above 5%", 1.0),
                alert("HighRequestErrorRate", {"service_name": "frontend", "namespace": NS}, self.F + timedelta(seconds=95), t, 2,
                      "frontend error rate above 5%", 0.12)]
    def gt(self):
        g = [grp("recommendation-deployment-1", "Deployment", "recommendation", root=True)] + app("recommendation") + app("frontend") + app("frontend-proxy", False)
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("recommendation-deployment-1", "recommendation-pod-1", "rollout sets PRODUCT_CATALOG_ADDR to port 3550", "new pod dials a closed port"),
                                  ("recommendation-pod-1", "recommendation-service-1", "ListProducts calls refused", "ListRecommendations fails"),
                                  ("recommendation-service-1", "frontend-service-1", "recommendations fail", "GET /api/recommendations returns 500"),
                                  ("frontend-service-1", "frontend-proxy-service-1", "frontend errors", "user-facing errors")],
                    fault=[dict(category="Change", condition="wrong dependency address in an environment variable",
                                entity=dict(group_id="recommendation-deployment-1", kind="Deployment", name="recommendation"), fault_mechanism="custom")],
                    alerts=[("recommendation-service-1", "HighRequestErrorRate"), ("frontend-service-1", "HighRequestErrorRate")])


class C3(Case):
    n, seed, start = 3, "email-smtp-secret", T("2026-11-20T21:30:00Z")
    title = "Secret email-smtp-credentials overwritten with random values; email (reads it from a mounted file) fails SMTP auth; no pod change"
    enc = dict(traces="tsvraw", logs="text", events="list", objects="tsvgz", alerts="webhook")
    def server(self, svc, op, t):
        if svc == "smtp" and t >= self.F + timedelta(seconds=74):
            return 180.0, "535 5.7.8 Error: authentication failed: authentication failure"
        return 0, None
    def wrap(self, svc, op, child, err):
        if svc == "email":
            return "Net::SMTPAuthenticationError: " + err
        return err
    def objects_at(self, t, objs):
        import base64
        vals = {"SMTP_USERNAME": "orders@astronomy-shop.example", "SMTP_PASSWORD": "Zq7v-Lm2r-Kp9w-Tx4e"}
        if t >= self.F:
            r = random.Random(33)
            vals = {k: "".join(r.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(24)) for k in vals}
        o = {"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
             "metadata": {"name": "email-smtp-credentials", "namespace": NS, "uid": uid(3, "sec"),
                          "resourceVersion": "288411" if t < self.F else "613077", "creationTimestamp": iso(self.start - timedelta(days=31)),
                          "labels": {"app.kubernetes.io/name": "email", "app.kubernetes.io/part-of": "opentelemetry-demo"},
                          "managedFields": [{"manager": "kubectl-create", "operation": "Update", "apiVersion": "v1",
                                             "time": iso(self.start - timedelta(days=31)), "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {}}}]},
             "data": {k: base64.b64encode(v.encode()).decode() for k, v in vals.items()}}
        if t >= self.F:
            mf_add(o, "kubectl-patch", self.F, {"f:data": {"f:SMTP_PASSWORD": {}, "f:SMTP_USERNAME": {}}})
        objs.append(o)
        for x in objs:
            if x["kind"] in ("Deployment", "Pod") and x["metadata"]["name"].startswith("email"):
                spec = x["spec"]["template"]["spec"] if x["kind"] == "Deployment" else x["spec"]
                spec["volumes"] = [{"name": "smtp-credentials", "secret": {"secretName": "email-smtp-credentials", "defaultMode": 420}}]
                spec["containers"][0]["volumeMounts"] = [{"name": "smtp-credentials", "mountPath": "/etc/email/smtp", "readOnly": True}]
                spec["containers"][0]["env"] += [{"name": "SMTP_HOST", "value": "smtp-relay.mail.example.net"}, {"name": "SMTP_PORT", "value": "587"},
                                                 {"name": "SMTP_CREDENTIALS_DIR", "value": "/etc/email/smtp"}]
    def logs(self):
        out = []
        for s in self.spans:
            if s["svc"] == "email" and s["kind"] == "server" and s["status"] == "error":
                t = s["start"] + timedelta(milliseconds=s["dur"])
                out.append((t, "email", "ERROR", "Net::SMTPAuthenticationError (535 5.7.8 Error: authentication failed: authentication failure\n):\n"
                            "  /usr/local/bundle/gems/net-smtp-0.5.0/lib/net/smtp.rb:1093:in `check_auth_response'\n"
                            "  /usr/local/bundle/gems/net-smtp-0.5.0/lib/net/smtp/auth_plain.rb:14:in `auth'\n"
                            "  /email_server.rb:58:in `send_email'", s["trace"], s["span"]))
            if s["svc"] == "checkout" and s["kind"] == "client" and "send_order_confirmation" in s["name"] and s["status"] == "error":
                t = s["start"] + timedelta(milliseconds=s["dur"])
                out.append((t, "checkout", "WARN", 'level=WARN msg="failed to send order confirmation" email=%s@example.com error="failed POST to email service: expected 200, got 500"'
                            % H("mail", s["span"])[:8], s["trace"], s["span"]))
        out.append((self.F + timedelta(seconds=61), "email", "INFO", "Reloaded SMTP credentials from /etc/email/smtp (mtime changed)", "", ""))
        return out
    def alerts(self, t):
        return [alert("HighRequestErrorRate", {"service_name": "email", "namespace": NS}, self.F + timedelta(seconds=140), t, 2,
                      "email error rate above 5%", 1.0)]
    def gt(self):
        g = [grp("email-smtp-credentials-secret-1", "Secret", "email-smtp-credentials", root=True)] + app("email") + app("checkout")
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("email-smtp-credentials-secret-1", "email-service-1", "mounted SMTP credentials replaced by random values",
                                   "SMTP authentication fails (535)"),
                                  ("email-service-1", "checkout-service-1", "send_order_confirmation returns 500", "order confirmations not sent (checkout logs a warning)")],
                    fault=[dict(category="Change", condition="Secret holds invalid credentials",
                                entity=dict(group_id="email-smtp-credentials-secret-1", kind="Secret", name="email-smtp-credentials"),
                                fault_mechanism="custom")],
                    alerts=[("email-service-1", "HighRequestErrorRate")])


class C4(Case):
    n, seed, start = 4, "quote-service-deleted", T("2026-11-21T02:12:00Z")
    title = "Service quote deleted; shipping's lookups of quote get NXDOMAIN; quote pod healthy and idle"
    enc = dict(traces="otlpl", logs="tsv", events="eventsv1", objects="tsv", alerts="amv2")
    def edge(self, caller, callee, op, t):
        if caller == "shipping" and callee == "quote" and t >= self.F:
            return dict(fail="error sending request for url (http://quote:8080/getquote): error trying to connect: dns error: failed to lookup address information: Name or service not known",
                        dur=6.0)
    def wrap(self, svc, op, child, err):
        if svc == "shipping":
            return "failed to get quote: " + err
        if svc == "checkout" and child == "shipping":
            return "shipping quote failure: failed to get shipping quote: rpc error: code = Unknown desc = " + err
        return err
    def objects_at(self, t, objs):
        if t >= self.F:
            objs[:] = [o for o in objs if not (o["kind"] == "Service" and o["metadata"]["name"] == "quote")]
    def logs(self):
        out = []
        r = random.Random(44)
        for s in self.spans:
            if s["svc"] == "shipping" and s["kind"] == "client" and s["status"] == "error":
                t = s["start"] + timedelta(milliseconds=s["dur"])
                out.append((t, "shipping", "ERROR", json.dumps({"timestamp": iso(t, True), "level": "ERROR", "fields": {"message": "failed to get quote", "error": s["msg"]},
                                                                 "target": "shipping::shipping_service::quote"}), s["trace"], s["span"]))
                if r.random() < .5:
                    out.append((t - timedelta(milliseconds=3), "coredns", "INFO", '[INFO] 10.244.3.%d:%d - %d "A IN quote.otel-demo.svc.cluster.local. udp 62 false 1232" NXDOMAIN qr,aa,rd 155 0.000142s'
                                % (r.randint(2, 250), r.randint(30000, 60000), r.randint(1, 65000)), "", ""))
        return out
    def alerts(self, t):
        return [alert("HighRequestErrorRate", {"service_name": "shipping", "namespace": NS}, self.F + timedelta(seconds=65), t, 2, "shipping error rate above 5%", 0.5),
                alert("HighRequestErrorRate", {"service_name": "checkout", "namespace": NS}, self.F + timedelta(seconds=80), t, 2, "checkout error rate above 5%", 1.0),
                alert("HighRequestErrorRate", {"service_name": "frontend", "namespace": NS}, self.F + timedelta(seconds=110), t, 2, "frontend error rate above 5%", 0.09)]
    def gt(self):
        g = [grp("quote-service-1", "Service", "quote", root=True)] + app("shipping") + app("checkout") + app("frontend")
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("quote-service-1", "shipping-service-1", "Service quote deleted: the name no longer resolves", "GetQuote fails (dns error)"),
                                  ("shipping-service-1", "checkout-service-1", "GetQuote fails", "PlaceOrder fails"),
                                  ("shipping-service-1", "frontend-service-1", "GetQuote fails", "GET /api/shipping returns 500"),
                                  ("checkout-service-1", "frontend-service-1", "PlaceOrder fails", "POST /api/checkout returns 500")],
                    fault=[dict(category="Change", condition="Service deleted", entity=dict(group_id="quote-service-1", kind="Service", name="quote"),
                                fault_mechanism="custom")],
                    alerts=[("shipping-service-1", "HighRequestErrorRate"), ("checkout-service-1", "HighRequestErrorRate"), ("frontend-service-1", "HighRequestErrorRate")])


class C5(Case):
    n, seed, start = 5, "frontend-hpa-max", T("2026-11-22T18:20:00Z")
    fault_min = 12
    title = "HPA frontend edited maxReplicas 8 -> 2 at peak load (4 replicas needed): frontend scaled down to 2, CPU-saturated, slow"
    enc = dict(traces="otlpl", logs="otlp", events="watch", objects="list", alerts="prom")
    load = 1.6
    def setup(self):
        h = self.hashes["frontend"][0]
        for i, node in enumerate(["worker-2", "worker-3", "worker-1"]):
            self.pods["frontend"].insert(0, [self.podname("frontend", h), node, self.start - timedelta(hours=2, minutes=7 * i), None, h])
        self.killed = [self.pods["frontend"][0], self.pods["frontend"][1]]
        for p in self.killed:
            p[3] = self.F + timedelta(seconds=16)
    def server(self, svc, op, t):
        if svc == "frontend" and t >= self.F + timedelta(seconds=20):
            r = random.Random(H(op, t.isoformat()))
            return r.lognormvariate(math.log(1400), .45), None
        return 0, None
    def objects_at(self, t, objs):
        after = t >= self.F
        d = find(objs, "Deployment", "frontend")
        n = 2 if t >= self.F + timedelta(seconds=16) else 4
        d["spec"]["replicas"] = n
        d["status"].update(replicas=n, readyReplicas=n, availableReplicas=n, updatedReplicas=n)
        if after:
            mf_add(d, "kube-controller-manager", self.F + timedelta(seconds=15), {"f:spec": {"f:replicas": {}}}, sub="scale")
        hpa = {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
               "metadata": {"name": "frontend", "namespace": NS, "uid": uid(5, "hpa"), "resourceVersion": "615530" if after else "598021",
                            "creationTimestamp": iso(self.start - timedelta(days=9)),
                            "labels": {"app.kubernetes.io/name": "frontend", "app.kubernetes.io/part-of": "opentelemetry-demo"},
                            "managedFields": [{"manager": "helm", "operation": "Update", "apiVersion": "autoscaling/v2", "time": iso(self.start - timedelta(days=9)),
                                               "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {}}},
                                              {"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "autoscaling/v2",
                                               "time": iso(self.F + timedelta(seconds=15) if after else self.start - timedelta(minutes=40)),
                                               "fieldsType": "FieldsV1", "fieldsV1": {"f:status": {}}, "subresource": "status"}]},
               "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "frontend"}, "minReplicas": 2,
                        "maxReplicas": 2 if after else 8,
                        "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}}]},
               "status": {"currentReplicas": n, "desiredReplicas": 2 if after else 4,
                          "lastScaleTime": iso(self.F + timedelta(seconds=15) if after else self.start - timedelta(minutes=40)),
                          "currentMetrics": [{"type": "Resource", "resource": {"name": "cpu", "current": {"averageUtilization": 188 if after else 64,
                                                                                                        "averageValue": "941m" if after else "322m"}}}],
                          "conditions": [{"type": "AbleToScale", "status": "True", "reason": "ReadyForNewScale",
                                          "message": "recommended size matches current size", "lastTransitionTime": iso(self.start - timedelta(days=2))},
                                         {"type": "ScalingActive", "status": "True", "reason": "ValidMetricFound",
                                          "message": "the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)",
                                          "lastTransitionTime": iso(self.start - timedelta(days=2))},
                                         {"type": "ScalingLimited", "status": "True" if after else "False",
                                          "reason": "TooManyReplicas" if after else "DesiredWithinRange",
                                          "message": "the desired replica count is more than the maximum replica count" if after else "the desired count is within the acceptable range",
                                          "lastTransitionTime": iso(self.F + timedelta(seconds=15) if after else self.start - timedelta(hours=3))}]}}
        if after:
            hpa["metadata"]["managedFields"].append({"manager": "kubectl-edit", "operation": "Update", "apiVersion": "autoscaling/v2", "time": iso(self.F),
                                                     "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:maxReplicas": {}}}})
        for c in d["spec"]["template"]["spec"]["containers"]:
            c["resources"]["requests"] = {"cpu": "500m", "memory": "180Mi"}
        objs.append(hpa)
    def events(self):
        out = [ev(self, self.F + timedelta(seconds=15), "HorizontalPodAutoscaler", "frontend", "SuccessfulRescale",
                  "New size: 2; reason: Current number of replicas above Spec.MaxReplicas", comp="horizontal-pod-autoscaler"),
               ev(self, self.F + timedelta(seconds=15), "Deployment", "frontend", "ScalingReplicaSet",
                  "Scaled down replica set frontend-%s from 4 to 2" % self.hashes["frontend"][0], comp="deployment-controller")]
        for p in self.killed:
            out.append(ev(self, self.F + timedelta(seconds=16), "Pod", p[0], "Killing", "Stopping container frontend", host=p[1]))
        return out
    def metrics(self, spans):
        files = span_metrics(self, spans, ["frontend", "frontend-proxy"], ts="ms")
        def cpu(p):
            def f(t):
                if p[2] > t or (p[3] and p[3] <= t):
                    return None
                r = random.Random(H(p[0], t.isoformat()))
                return (0.32 if t < self.F + timedelta(seconds=20) else 0.96) + r.uniform(-.04, .04)
            return f
        live = [p for p in self.pods["frontend"]]
        for p in live:
            tags = {"namespace": NS, "pod": p[0], "container": "frontend", "node": p[1]}
            files["pod_%s.tsv" % p[0]] = gauge_file(self, [
                ("container_cpu_usage_rate_cores", tags, cpu(p)),
                ("kube_pod_container_resource_limits_cpu_cores", tags, lambda t, p=p: 1.0 if p[2] <= t and not (p[3] and p[3] <= t) else None),
                ("container_cpu_cfs_throttled_ratio", tags, lambda t, p=p: None if (p[3] and p[3] <= t) else (0.02 if t < self.F + timedelta(seconds=20) else 0.41))])
        files["hpa_frontend.tsv"] = gauge_file(self, [
            ("kube_horizontalpodautoscaler_spec_max_replicas", {"namespace": NS, "horizontalpodautoscaler": "frontend"}, lambda t: 8 if t < self.F else 2),
            ("kube_horizontalpodautoscaler_status_current_replicas", {"namespace": NS, "horizontalpodautoscaler": "frontend"},
             lambda t: 4 if t < self.F + timedelta(seconds=15) else 2),
            ("kube_horizontalpodautoscaler_status_desired_replicas", {"namespace": NS, "horizontalpodautoscaler": "frontend"},
             lambda t: 4 if t < self.F + timedelta(seconds=15) else 2)])
        return files
    def alerts(self, t):
        return [alert("KubeHpaMaxedOut", {"horizontalpodautoscaler": "frontend", "namespace": NS}, self.F + timedelta(seconds=30), t, 15,
                      "HPA otel-demo/frontend has been running at max replicas for longer than 15 minutes.", 2),
                alert("HighRequestLatency", {"service_name": "frontend", "namespace": NS}, self.F + timedelta(seconds=80), t, 5,
                      "frontend p95 latency above 1s", 2.9),
                alert("CPUThrottlingHigh", {"namespace": NS, "pod": self.pods["frontend"][2][0], "container": "frontend"}, self.F + timedelta(minutes=2), t, 15,
                      "41% throttling of CPU in namespace otel-demo for container frontend", 0.41, severity="info")]
    def gt(self):
        g = [grp("frontend-hpa-1", "HorizontalPodAutoscaler", "frontend", root=True), grp("frontend-deployment-1", "Deployment", "frontend")] + app("frontend") + app("frontend-proxy", False)
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("frontend-hpa-1", "frontend-deployment-1", "maxReplicas lowered to 2 below the 4 replicas the load needs", "deployment scaled down to 2"),
                                  ("frontend-deployment-1", "frontend-pod-1", "2 pods carry the load of 4", "CPU saturated and throttled"),
                                  ("frontend-pod-1", "frontend-service-1", "CPU saturation", "requests slow (p95 ~3 s)"),
                                  ("frontend-service-1", "frontend-proxy-service-1", "frontend slow", "user-facing latency")],
                    fault=[dict(category="Change", condition="autoscaler maximum below the needed replica count",
                                entity=dict(group_id="frontend-hpa-1", kind="HorizontalPodAutoscaler", name="frontend"), fault_mechanism="custom")],
                    alerts=[("frontend-hpa-1", "KubeHpaMaxedOut"), ("frontend-service-1", "HighRequestLatency")])


class C6(Case):
    n, seed, start = 6, "ad-preempted", T("2026-11-23T10:47:00Z")
    title = "ad given a low PriorityClass and pinned to worker-3; a new high-priority critical-data-collector preempts it; replacement Pending"
    enc = dict(traces="jaeger", logs="fluentbit", events="eventsv1", objects="tsv", alerts="amv2")
    def setup(self):
        self.pin = self.new_pod("ad", self.start + timedelta(minutes=5), node="worker-3")
        self.victim_at = self.F + timedelta(seconds=7)
        self.pin[3] = self.victim_at
        self.pend = [self.podname("ad", self.pin[4]), None, self.victim_at + timedelta(seconds=1), None, self.pin[4]]
        self.pods["ad"].append(self.pend)
        self.cdc = ["critical-data-collector-%s-%s" % ("7c9f4b6d5" + "b", s) for s in ("x2k9q", "m4t7z")]
    def edge(self, caller, callee, op, t):
        if callee == "ad" and t >= self.victim_at:
            return dict(fail="14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED %s:8080" % ip_of("ad"), dur=1.8, code=14)
    def objects_at(self, t, objs):
        pc = lambda name, val, desc: {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
                                      "metadata": {"name": name, "uid": uid(6, name), "resourceVersion": "5993%02d" % (val % 100),
                                                   "creationTimestamp": iso(self.start + timedelta(minutes=4, seconds=50)),
                                                   "labels": {"app.kubernetes.io/component": "workload", "app.kubernetes.io/managed-by": "ITBench"}},
                                      "value": val, "globalDefault": False, "description": desc, "preemptionPolicy": "PreemptLowerPriority"}
        if t >= self.start + timedelta(minutes=5):
            objs.append(pc("application-critical", 10000, "High priority class for application workloads"))
            objs.append(pc("application-non-critical", 1, "Lower priority class for application workloads"))
            for o in objs:
                if o["kind"] in ("Deployment", "Pod") and o["metadata"]["name"].startswith("ad") and o["metadata"]["name"] != "ad-" + self.pods["ad"][0][4]:
                    if o["kind"] == "Pod" and o["metadata"]["labels"]["pod-template-hash"] != self.pin[4]:
                        continue
                    spec = o["spec"]["template"]["spec"] if o["kind"] == "Deployment" else o["spec"]
                    spec["nodeSelector"] = {"kubernetes.io/hostname": "worker-3"}
                    spec["priorityClassName"] = "application-non-critical"
                    if o["kind"] == "Pod":
                        spec["priority"] = 1
                    else:
                        mf_add(o, "OpenAPI-Generator", self.start + timedelta(minutes=5), {"f:spec": {"f:template": {"f:spec": {"f:nodeSelector": {}, "f:priorityClassName": {}}}}})
        if t >= self.victim_at:
            d = find(objs, "Deployment", "ad")
            d["status"].update(readyReplicas=0, availableReplicas=0, unavailableReplicas=1)
            d["status"].pop("readyReplicas")
            d["status"]["conditions"][0].update(status="False", reason="MinimumReplicasUnavailable", message="Deployment does not have minimum availability.",
                                                lastTransitionTime=iso(self.victim_at))
            p = find(objs, "Pod", self.pend[0])
            if p:
                p["status"]["conditions"][0]["message"] = ("0/4 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, "
                                                           "2 node(s) didn't match Pod's node affinity/selector. preemption: 0/4 nodes are available: "
                                                           "1 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.")
        if t >= self.F:
            dep = {"apiVersion": "apps/v1", "kind": "Deployment",
                   "metadata": {"name": "critical-data-collector", "namespace": NS, "uid": uid(6, "cdc"), "generation": 1, "resourceVersion": "613900",
                                "creationTimestamp": iso(self.F), "labels": {"app.kubernetes.io/name": "critical-data-collector"},
                                "managedFields": [{"manager": "OpenAPI-Generator", "operation": "Update", "apiVersion": "apps/v1", "time": iso(self.F),
                                                   "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {}}}]},
                   "spec": {"replicas": 2, "selector": {"matchLabels": {"app.kubernetes.io/name": "critical-data-collector"}},
                            "template": {"metadata": {"labels": {"app.kubernetes.io/name": "critical-data-collector"}},
                                         "spec": {"priorityClassName": "application-critical", "nodeSelector": {"kubernetes.io/hostname": "worker-3"},
                                                  "containers": [{"name": "collector", "image": "registry.k8s.io/pause:3.10",
                                                                  "resources": {"requests": {"cpu": "250m", "memory": "5Gi"}, "limits": {"memory": "5Gi"}}}]}}},
                   "status": {"replicas": 2, "readyReplicas": 2, "availableReplicas": 2}}
            objs.append(dep)
            for nm in self.cdc:
                objs.append({"apiVersion": "v1", "kind": "Pod",
                             "metadata": {"name": nm, "namespace": NS, "uid": uid(6, nm), "creationTimestamp": iso(self.F + timedelta(seconds=1)),
                                          "labels": {"app.kubernetes.io/name": "critical-data-collector", "pod-template-hash": "7c9f4b6d5b"}},
                             "spec": {"nodeName": "worker-3", "priorityClassName": "application-critical", "priority": 10000,
                                      "nodeSelector": {"kubernetes.io/hostname": "worker-3"},
                                      "containers": [{"name": "collector", "image": "registry.k8s.io/pause:3.10",
                                                      "resources": {"requests": {"cpu": "250m", "memory": "5Gi"}, "limits": {"memory": "5Gi"}}}]},
                             "status": {"phase": "Running", "nominatedNodeName": "worker-3" if nm == self.cdc[1] else None,
                                        "conditions": [{"type": "Ready", "status": "True"}],
                                        "containerStatuses": [{"name": "collector", "ready": True, "restartCount": 0, "state": {"running": {"startedAt": iso(self.F + timedelta(seconds=9))}}}]}})
    def events(self):
        uidp = uid(6, self.cdc[1])
        out = pod_start_events(self, "ad", self.pin)
        out += [ev(self, self.start + timedelta(minutes=5), "Deployment", "ad", "ScalingReplicaSet", "Scaled up replica set ad-%s to 1" % self.pin[4], comp="deployment-controller"),
                ev(self, self.start + timedelta(minutes=5, seconds=20), "Deployment", "ad", "ScalingReplicaSet", "Scaled down replica set ad-%s to 0 from 1" % self.pods["ad"][0][4],
                   comp="deployment-controller"),
                ev(self, self.F, "Deployment", "critical-data-collector", "ScalingReplicaSet", "Scaled up replica set critical-data-collector-7c9f4b6d5b to 2", comp="deployment-controller"),
                ev(self, self.F + timedelta(seconds=1), "Pod", self.cdc[0], "Scheduled", "Successfully assigned otel-demo/%s to worker-3" % self.cdc[0], comp="default-scheduler"),
                ev(self, self.victim_at, "Pod", self.pin[0], "Preempted", "Preempted by pod %s on node worker-3" % uidp, comp="default-scheduler"),
                ev(self, self.victim_at, "Pod", self.pin[0], "Killing", "Stopping container ad", host="worker-3"),
                ev(self, self.victim_at + timedelta(seconds=1), "Pod", self.cdc[1], "Scheduled", "Successfully assigned otel-demo/%s to worker-3" % self.cdc[1], comp="default-scheduler"),
                ev(self, self.E - timedelta(seconds=40), "Pod", self.pend[0], "FailedScheduling",
                   "0/4 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 node(s) didn't match Pod's node affinity/selector. "
                   "preemption: 0/4 nodes are available: 1 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.",
                   typ="Warning", comp="default-scheduler", count=9, first=self.victim_at + timedelta(seconds=1))]
        return out
    def logs(self):
        out = []
        for s in self.spans:
            if s["svc"] == "frontend" and s["kind"] == "server" and s["status"] == "error":
                t = s["start"] + timedelta(milliseconds=s["dur"])
                out.append((t, "frontend", "ERROR", "Error: 14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED %s:8080" % ip_of("ad"), s["trace"], s["span"]))
        return out
    def alerts(self, t):
        return [alert("KubePodNotReady", {"namespace": NS, "pod": self.pend[0]}, self.victim_at + timedelta(seconds=30), t, 15,
                      "Pod otel-demo/%s has been in a non-ready state for longer than 15 minutes." % self.pend[0], 1),
                alert("HighRequestErrorRate", {"service_name": "frontend", "namespace": NS}, self.F + timedelta(seconds=80), t, 2, "frontend error rate above 5%", 0.11),
                alert("KubeDeploymentReplicasMismatch", {"namespace": NS, "deployment": "ad"}, self.victim_at + timedelta(seconds=30), t, 15,
                      "Deployment otel-demo/ad has not matched the expected number of replicas for longer than 15 minutes.", 1)]
    def gt(self):
        g = [grp("ad-deployment-1", "Deployment", "ad", root=True), grp("critical-data-collector-deployment-1", "Deployment", "critical-data-collector")] + app("ad") + app("frontend")
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("ad-deployment-1", "ad-pod-1", "ad runs at priority 1, pinned to worker-3", "preemptible, no other node allowed"),
                                  ("critical-data-collector-deployment-1", "ad-pod-1", "priority-10000 pods need worker-3's memory", "ad pod preempted; replacement Pending"),
                                  ("ad-pod-1", "ad-service-1", "no ready pod", "no endpoints; connections refused"),
                                  ("ad-service-1", "frontend-service-1", "GetAds refused", "GET /api/data returns 500")],
                    fault=[dict(category="Change", condition="workload priority lowered below another workload's; pod preempted",
                                entity=dict(group_id="ad-deployment-1", kind="Deployment", name="ad"), fault_mechanism="custom")],
                    alerts=[("frontend-service-1", "HighRequestErrorRate")])


class C7(Case):
    n, seed, start = 7, "flag-payment-unreachable", T("2026-11-24T05:55:00Z")
    title = "flagd flag paymentUnreachable flipped on in flagd-config (ConfigMap only, no pod change): checkout dials badAddress:50051"
    enc = dict(traces="otlp", logs="text", events="tsv", objects="watch", alerts="prom")
    def edge(self, caller, callee, op, t):
        if caller == "checkout" and callee == "payment" and t >= self.F + timedelta(seconds=48):
            return dict(fail="name resolver error: produced zero addresses", dur=1.2, code=14,
                        attrs={"server.address": "badAddress", "server.port": 50051})
    def wrap(self, svc, op, child, err):
        if svc == "checkout" and child == "payment":
            return "failed to charge card: could not charge the card: rpc error: code = Unavailable desc = " + err
        return err
    def objects_at(self, t, objs):
        if t >= self.F:
            for i, o in enumerate(objs):
                if o["kind"] == "ConfigMap":
                    objs[i] = flagd_cm(self, on={"paymentUnreachable": "on"}, changed=self.F)
    def logs(self):
        out = [(self.F + timedelta(seconds=47), "flagd", "INFO",
                json.dumps({"level": "info", "ts": round((self.F + timedelta(seconds=47) - datetime(1970, 1, 1, tzinfo=UTC)).total_seconds(), 4),
                            "logger": "file-sync", "msg": "data sync for /etc/flagd/demo.flagd.json triggered by event REMOVE"}), "", ""),
               (self.F + timedelta(seconds=47, milliseconds=3), "flagd", "INFO",
                json.dumps({"level": "info", "ts": round((self.F + timedelta(seconds=47) - datetime(1970, 1, 1, tzinfo=UTC)).total_seconds(), 4) + 0.003,
                            "logger": "flag-sync", "msg": "configuration change (write) for flagKey paymentUnreachable (file:/etc/flagd/demo.flagd.json)"}), "", "")]
        for s in self.spans:
            if s["svc"] == "checkout" and s["kind"] == "server" and s["status"] == "error":
                t = s["start"] + timedelta(milliseconds=s["dur"])
                out.append((t, "checkout", "ERROR", 'msg="failed to charge card" err="%s"' % s["msg"].replace('"', "'"), s["trace"], s["span"]))
        return out
    def alerts(self, t):
        return [alert("HighRequestErrorRate", {"service_name": "checkout", "namespace": NS}, self.F + timedelta(seconds=105), t, 2, "checkout error rate above 5%", 1.0),
                alert("HighRequestErrorRate", {"service_name": "frontend", "namespace": NS}, self.F + timedelta(seconds=130), t, 2, "frontend error rate above 5%", 0.06)]
    def gt(self):
        g = [grp("flagd-config-configmap-1", "ConfigMap", "flagd-config", root=True)] + app("checkout") + app("frontend")
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("flagd-config-configmap-1", "checkout-service-1", "paymentUnreachable served on", "checkout dials payment at badAddress:50051"),
                                  ("checkout-service-1", "frontend-service-1", "PlaceOrder fails", "POST /api/checkout returns 500")],
                    fault=[dict(category="Change", condition="feature flag enabled", entity=dict(group_id="flagd-config-configmap-1", kind="ConfigMap", name="flagd-config"),
                                fault_mechanism="custom")],
                    alerts=[("checkout-service-1", "HighRequestErrorRate"), ("frontend-service-1", "HighRequestErrorRate")])


class C8(Case):
    n, seed, start = 8, "accounting-hanging-init", T("2026-11-24T23:02:00Z")
    title = "accounting rolled out with an init container waiting for accounting-db (no such Service): pod stuck Init:0/1, orders unconsumed, lag grows"
    enc = dict(traces="tsv", logs="fluentbit", events="list", objects="tsv", alerts="amgroups")
    def setup(self):
        self.np = self.new_pod("accounting", self.F + timedelta(seconds=1))
    def server(self, svc, op, t):
        if svc == "accounting" and op == "orders process" and t >= self.F:
            return None, None
        return 0, None
    def objects_at(self, t, objs):
        d = find(objs, "Deployment", "accounting")
        d["spec"]["strategy"] = {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 1}}
        if t < self.F:
            return
        init = {"name": "wait-for-db", "image": "busybox:1.36", "command": ["sh", "-c", "until nc -z -w 2 accounting-db 5432; do echo waiting for accounting-db; sleep 2; done"],
                "resources": {}, "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File", "imagePullPolicy": "IfNotPresent"}
        d["spec"]["template"]["spec"]["initContainers"] = [init]
        mf_add(d, "kubectl-patch", self.F, {"f:spec": {"f:template": {"f:spec": {"f:initContainers": {}}}}})
        d["status"].update(readyReplicas=0, availableReplicas=0, unavailableReplicas=1)
        d["status"].pop("readyReplicas")
        d["status"]["conditions"][0].update(status="False", reason="MinimumReplicasUnavailable", message="Deployment does not have minimum availability.")
        d["status"]["conditions"][1].update(reason="ReplicaSetUpdated", message='ReplicaSet "accounting-%s" is progressing.' % self.np[4])
        for i, o in enumerate(objs):
            if o["kind"] == "Pod" and o["metadata"]["name"] == self.np[0]:
                objs[i] = pod(self, "accounting", self.np, t, phase="Pending", ready=False,
                              cstate={"waiting": {"reason": "PodInitializing"}},
                              init=[{"name": "wait-for-db", "ready": False, "restartCount": 0, "started": True, "image": "docker.io/library/busybox:1.36",
                                     "state": {"running": {"startedAt": iso(self.F + timedelta(seconds=3))}}, "lastState": {}}])
                objs[i]["spec"]["initContainers"] = [init]
    def events(self):
        old = self.pods["accounting"][0]
        p = self.np
        return [ev(self, self.F, "Deployment", "accounting", "ScalingReplicaSet", "Scaled down replica set accounting-%s to 0 from 1" % old[4], comp="deployment-controller"),
                ev(self, self.F, "Pod", old[0], "Killing", "Stopping container accounting", host=old[1]),
                ev(self, self.F + timedelta(seconds=1), "Deployment", "accounting", "ScalingReplicaSet", "Scaled up replica set accounting-%s to 1" % p[4], comp="deployment-controller"),
                ev(self, self.F + timedelta(seconds=1), "Pod", p[0], "Scheduled", "Successfully assigned otel-demo/%s to %s" % (p[0], p[1]), comp="default-scheduler"),
                ev(self, self.F + timedelta(seconds=2), "Pod", p[0], "Pulled", 'Container image "busybox:1.36" already present on machine', host=p[1]),
                ev(self, self.F + timedelta(seconds=2), "Pod", p[0], "Created", "Created container wait-for-db", host=p[1]),
                ev(self, self.F + timedelta(seconds=3), "Pod", p[0], "Started", "Started container wait-for-db", host=p[1])]
    def logs(self):
        out = []
        t = self.F + timedelta(seconds=3)
        while t < self.E:
            out.append((t, "accounting", "INFO", "nc: bad address 'accounting-db'", "", ""))
            out.append((t + timedelta(milliseconds=2), "accounting", "INFO", "waiting for accounting-db", "", ""))
            t += timedelta(seconds=4)
        return out
    def metrics(self, spans):
        def lag(group):
            def f(t):
                r = random.Random(H(group, t.isoformat()))
                if group == "accounting" and t >= self.F:
                    return int((t - self.F).total_seconds() * 0.22) + r.randint(0, 2)
                return r.randint(0, 2)
            return f
        return {"kafka_consumergroups.tsv": gauge_file(self, [
            ("kafka_consumergroup_lag_sum", {"consumergroup": g, "topic": "orders", "namespace": NS, "service": "kafka"}, lag(g)) for g in ("accounting", "fraud-detection")]),
            **span_metrics(self, spans, ["checkout", "fraud-detection", "accounting"])}
    def alerts(self, t):
        p = self.np[0]
        return [alert("KafkaConsumerGroupLagHigh", {"consumergroup": "accounting", "topic": "orders", "namespace": NS}, self.F + timedelta(minutes=4), t, 2,
                      "Consumer group accounting lags on topic orders", 60),
                alert("KubePodNotReady", {"namespace": NS, "pod": p}, self.F + timedelta(seconds=30), t, 15, "Pod %s/%s not ready for 15 minutes" % (NS, p), 1),
                alert("KubeContainerWaiting", {"namespace": NS, "pod": p, "container": "accounting"}, self.F + timedelta(seconds=30), t, 60,
                      "pod/%s in namespace otel-demo on container accounting has been in waiting state for longer than 1 hour." % p, 1)]
    def gt(self):
        g = [grp("accounting-deployment-1", "Deployment", "accounting", root=True), grp("accounting-pod-1", "Pod", "accounting"), grp("kafka-service-1", "Service", "kafka")]
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("accounting-deployment-1", "accounting-pod-1", "init container waits for accounting-db, which does not exist", "pod stuck Init:0/1, never starts"),
                                  ("accounting-pod-1", "kafka-service-1", "no consumer in group accounting", "orders topic lag grows")],
                    fault=[dict(category="Change", condition="init container never completes",
                                entity=dict(group_id="accounting-deployment-1", kind="Deployment", name="accounting"), fault_mechanism="custom")],
                    alerts=[("accounting-pod-1", "KafkaConsumerGroupLagHigh")])


class C9(Case):
    n, seed, start = 9, "valkey-requirepass", T("2026-11-25T16:31:00Z")
    title = "valkey-cart restarted with --requirepass from a new Secret; cart sends no password: NOAUTH on every command"
    enc = dict(traces="jaeger", logs="otlp", events="watch", objects="watch", alerts="webhook")
    def setup(self):
        self.np = self.new_pod("valkey-cart", self.F + timedelta(seconds=1))
    def server(self, svc, op, t):
        if svc == "valkey-cart" and t >= self.F + timedelta(seconds=6):
            return 0.2, "NOAUTH Authentication required."
        return 0, None
    def wrap(self, svc, op, child, err):
        if svc == "cart" and child == "valkey-cart":
            return "Can't access cart storage. StackExchange.Redis.RedisServerException: " + err
        if svc == "checkout" and child == "cart":
            return "failed to prepare order: cart failure: failed to get user cart during checkout: rpc error: code = FailedPrecondition desc = " + err
        return err
    def objects_at(self, t, objs):
        if t < self.F:
            return
        objs.append({"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
                     "metadata": {"name": "valkey-credentials", "namespace": NS, "uid": uid(9, "sec"), "resourceVersion": "620011",
                                  "creationTimestamp": iso(self.F - timedelta(seconds=4)),
                                  "managedFields": [{"manager": "OpenAPI-Generator", "operation": "Update", "apiVersion": "v1", "time": iso(self.F - timedelta(seconds=4)),
                                                     "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {}}}]},
                     "data": {"valkey-password": "aW52YWxpZF9wYXNzd29yZA=="}})
        for o in objs:
            if o["kind"] in ("Deployment", "Pod") and o["metadata"]["name"].startswith("valkey-cart"):
                if o["kind"] == "Pod" and o["metadata"]["labels"]["pod-template-hash"] != self.np[4]:
                    continue
                spec = o["spec"]["template"]["spec"] if o["kind"] == "Deployment" else o["spec"]
                c = spec["containers"][0]
                c["command"] = ["valkey-server"]
                c["args"] = ["--requirepass", "$(VALKEY_PASSWORD)"]
                c["env"] = [{"name": "VALKEY_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "valkey-credentials", "key": "valkey-password"}}}]
                if o["kind"] == "Deployment":
                    mf_add(o, "OpenAPI-Generator", self.F, {"f:spec": {"f:template": {"f:spec": {"f:containers": {}}}}})
    def events(self):
        old = self.pods["valkey-cart"][0]
        return pod_start_events(self, "valkey-cart", self.np) + [
            ev(self, self.F, "Deployment", "valkey-cart", "ScalingReplicaSet", "Scaled up replica set valkey-cart-%s to 1" % self.np[4], comp="deployment-controller"),
            ev(self, self.F + timedelta(seconds=5), "Deployment", "valkey-cart", "ScalingReplicaSet", "Scaled down replica set valkey-cart-%s to 0 from 1" % old[4],
               comp="deployment-controller"),
            ev(self, self.F + timedelta(seconds=5), "Pod", old[0], "Killing", "Stopping container valkey-cart", host=old[1])]
    def logs(self):
        t = self.F + timedelta(seconds=3)
        out = [(t, "valkey-cart", "INFO", "1:M %s * Server initialized" % t.strftime("%d %b %Y %H:%M:%S.%f")[:-3], "", ""),
               (t + timedelta(milliseconds=2), "valkey-cart", "INFO", "1:M %s * Ready to accept connections tcp" % t.strftime("%d %b %Y %H:%M:%S.%f")[:-3], "", "")]
        for s in self.spans:
            if s["svc"] == "cart" and s["kind"] == "server" and s["status"] == "error":
                tt = s["start"] + timedelta(milliseconds=s["dur"])
                out.append((tt, "cart", "ERROR", "Can't access cart storage. StackExchange.Redis.RedisServerException: NOAUTH Authentication required.", s["trace"], s["span"]))
        return out
    def alerts(self, t):
        return [alert("HighRequestErrorRate", {"service_name": "cart", "namespace": NS}, self.F + timedelta(seconds=60), t, 2, "cart error rate above 5%", 1.0),
                alert("HighRequestErrorRate", {"service_name": "frontend", "namespace": NS}, self.F + timedelta(seconds=90), t, 2, "frontend error rate above 5%", 0.17),
                alert("HighRequestErrorRate", {"service_name": "checkout", "namespace": NS}, self.F + timedelta(seconds=120), t, 2, "checkout error rate above 5%", 1.0)]
    def gt(self):
        g = [grp("valkey-cart-deployment-1", "Deployment", "valkey-cart", root=True)] + app("valkey-cart") + app("cart") + app("checkout") + app("frontend")
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("valkey-cart-deployment-1", "valkey-cart-service-1", "valkey-server started with --requirepass", "commands without AUTH refused (NOAUTH)"),
                                  ("valkey-cart-service-1", "cart-service-1", "NOAUTH", "GetCart/AddItem/EmptyCart fail"),
                                  ("cart-service-1", "checkout-service-1", "GetCart fails", "PlaceOrder fails"),
                                  ("cart-service-1", "frontend-service-1", "cart calls fail", "/api/cart returns 500"),
                                  ("checkout-service-1", "frontend-service-1", "PlaceOrder fails", "POST /api/checkout returns 500")],
                    fault=[dict(category="Change", condition="datastore password its client does not know",
                                entity=dict(group_id="valkey-cart-deployment-1", kind="Deployment", name="valkey-cart"), fault_mechanism="custom")],
                    alerts=[("cart-service-1", "HighRequestErrorRate"), ("frontend-service-1", "HighRequestErrorRate"), ("checkout-service-1", "HighRequestErrorRate")])


class C10(Case):
    n, seed, start = 10, "ad-jvmchaos-latency", T("2026-11-26T08:14:00Z")
    title = "Chaos Mesh Schedule ad-jvm-latency spawns a JVMChaos (latency 3000 ms in AdService.getAds) every minute: ad and frontend slow, no errors"
    enc = dict(traces="otlpl", logs="tsv", events="tsv", objects="tsv", alerts="amv2")
    def server(self, svc, op, t):
        if svc == "ad" and t >= self.F + timedelta(seconds=35):
            return 3000 + random.Random(H(t.isoformat())).uniform(0, 60), None
        return 0, None
    def chaos_name(self, t):
        k = int((t - self.F).total_seconds() // 60)
        return "ad-jvm-latency-%d" % (29395080 + k * 7 + 3)
    def objects_at(self, t, objs):
        if t < self.F:
            return
        jv = {"action": "latency", "latency": 3000, "class": "oteldemo.AdService", "method": "getAds", "port": 9277, "mode": "all",
              "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/name": "ad"}}}
        objs.append({"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "Schedule",
                     "metadata": {"name": "ad-jvm-latency", "namespace": "chaos-mesh", "uid": uid(10, "sched"), "generation": 1, "resourceVersion": "630114",
                                  "creationTimestamp": iso(self.F),
                                  "managedFields": [{"manager": "OpenAPI-Generator", "operation": "Update", "apiVersion": "chaos-mesh.org/v1alpha1",
                                                     "time": iso(self.F), "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {}}}]},
                     "spec": {"schedule": "* * * * *", "concurrencyPolicy": "Forbid", "historyLimit": 1, "startingDeadlineSeconds": None, "type": "JVMChaos",
                              "jvmChaos": jv},
                     "status": {"active": [{"kind": "JVMChaos", "namespace": "chaos-mesh", "name": self.chaos_name(t), "apiVersion": "chaos-mesh.org/v1alpha1",
                                            "uid": uid(10, self.chaos_name(t))}], "time": iso(t - timedelta(seconds=(t - self.F).total_seconds() % 60))}})
        if t >= self.F + timedelta(seconds=30):
            objs.append({"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "JVMChaos",
                         "metadata": {"name": self.chaos_name(t), "namespace": "chaos-mesh", "uid": uid(10, self.chaos_name(t)), "generation": 3,
                                      "creationTimestamp": iso(t - timedelta(seconds=(t - self.F).total_seconds() % 60)),
                                      "labels": {"managed-by": "ad-jvm-latency"}, "finalizers": ["chaos-mesh/records"],
                                      "ownerReferences": [{"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "Schedule", "name": "ad-jvm-latency",
                                                           "uid": uid(10, "sched"), "controller": True, "blockOwnerDeletion": True}]},
                         "spec": jv,
                         "status": {"conditions": [{"type": "Selected", "status": "True"}, {"type": "AllInjected", "status": "True"},
                                                   {"type": "AllRecovered", "status": "False"}, {"type": "Paused", "status": "False"}],
                                    "experiment": {"desiredPhase": "Run",
                                                   "containerRecords": [{"id": "%s/%s/ad" % (NS, self.pod_at("ad", t)[0]), "phase": "Injected",
                                                                         "selectorKey": ".", "injectedCount": 1, "recoveredCount": 0}]}}})
    def events(self):
        out = []
        t = self.F
        while t < self.E:
            nm = self.chaos_name(t + timedelta(seconds=1))
            out.append(ev(self, t, "Schedule", "ad-jvm-latency", "Spawned", "Create new object: %s" % nm, comp="schedule-cron", ns="chaos-mesh", api="chaos-mesh.org/v1alpha1"))
            out.append(ev(self, t + timedelta(seconds=1), "JVMChaos", nm, "FinalizerInited", "Finalizer has been inited", comp="initFinalizers", ns="chaos-mesh", api="chaos-mesh.org/v1alpha1"))
            out.append(ev(self, t + timedelta(seconds=1), "JVMChaos", nm, "Updated", "Successfully update desiredPhase of resource", comp="desiredphase", ns="chaos-mesh",
                          api="chaos-mesh.org/v1alpha1"))
            out.append(ev(self, t + timedelta(seconds=2), "JVMChaos", nm, "Applied", "Successfully apply chaos for %s/%s/ad" % (NS, self.pod_at("ad", t)[0]), comp="records",
                          ns="chaos-mesh", api="chaos-mesh.org/v1alpha1"))
            if t > self.F:
                prev = self.chaos_name(t - timedelta(seconds=59))
                out.append(ev(self, t, "Schedule", "ad-jvm-latency", "Deleted", "Delete object: %s" % prev, comp="schedule-gc", ns="chaos-mesh", api="chaos-mesh.org/v1alpha1"))
            t += timedelta(seconds=60)
        return out
    def logs(self):
        out = [(self.F + timedelta(seconds=33), "ad", "INFO", "Byteman agent: Loaded rules from chaos-mesh: RULE ad-jvm-latency latency 3000ms CLASS oteldemo.AdService METHOD getAds", "", "")]
        for s in self.spans:
            if s["svc"] == "frontend" and s["kind"] == "server" and s["dur"] > 2500 and s["name"] == "GET /api/data":
                out.append((s["start"] + timedelta(milliseconds=s["dur"]), "frontend", "WARN", "slow upstream: ad GetAds took %d ms" % s["dur"], s["trace"], s["span"]))
        return out
    def alerts(self, t):
        return [alert("HighRequestLatency", {"service_name": "ad", "namespace": NS}, self.F + timedelta(seconds=95), t, 2, "ad p95 latency above 1s", 3.05),
                alert("HighRequestLatency", {"service_name": "frontend", "namespace": NS}, self.F + timedelta(seconds=130), t, 2, "frontend p95 latency above 1s", 3.1)]
    def gt(self):
        g = [grp("ad-jvm-latency-schedule-1", "Schedule", "ad-jvm-latency", ns="chaos-mesh", root=True),
             grp("ad-jvm-latency-jvmchaos-1", "JVMChaos", "ad-jvm-latency", ns="chaos-mesh", filt="^ad-jvm-latency(-[0-9]+)?$")] + app("ad") + app("frontend") + app("frontend-proxy", False)
        al = aliases_of(g) + [["ad-jvm-latency-schedule-1", "ad-jvm-latency-jvmchaos-1"]]
        return dict(groups=g, aliases=al,
                    propagations=[("ad-jvm-latency-schedule-1", "ad-service-1", "JVMChaos latency 3000 ms injected into AdService.getAds", "GetAds takes ~3 s"),
                                  ("ad-service-1", "frontend-service-1", "GetAds slow", "GET /api/data slow"),
                                  ("frontend-service-1", "frontend-proxy-service-1", "frontend slow", "user-facing latency")],
                    fault=[dict(category="Chaos", condition="JVM method latency injected",
                                entity=dict(group_id="ad-jvm-latency-schedule-1", kind="Schedule", name="ad-jvm-latency"), fault_mechanism="chaos-mesh")],
                    alerts=[("ad-service-1", "HighRequestLatency"), ("frontend-service-1", "HighRequestLatency")])


class C11(Case):
    n, seed, start = 11, "worker1-cordon-payment-pinned", T("2026-11-26T19:40:00Z")
    title = "worker-1 cordoned and drained; payment, pinned to worker-1 by a nodeSelector, cannot be rescheduled; the other evicted pods move"
    enc = dict(traces="tsvraw", logs="text", events="tsv", objects="list", alerts="prom")
    MOVED = ["cart", "currency", "flagd", "frontend", "quote", "valkey-cart"]
    def setup(self):
        self.drain = self.F + timedelta(seconds=5)
        self.moved = {}
        for i, s in enumerate(self.MOVED):
            self.moved[s] = self.new_pod(s, self.drain + timedelta(seconds=2 + i), node=["worker-2", "worker-3"][i % 2], new_hash=False)
        self.pend = self.new_pod("payment", self.drain + timedelta(seconds=1), node=None, new_hash=False)
        self.pend[1] = None
    def edge(self, caller, callee, op, t):
        if callee == "payment" and t >= self.drain:
            return dict(fail='connection error: desc = "transport: Error while dialing: dial tcp %s:8080: connect: connection refused"' % ip_of("payment"), dur=1.1, code=14)
        if callee in self.MOVED and self.drain <= t < self.drain + timedelta(seconds=9):
            return dict(fail="connection refused", dur=1.0, code=14)
    def wrap(self, svc, op, child, err):
        if svc == "checkout" and child == "payment":
            return "failed to charge card: could not charge the card: rpc error: code = Unavailable desc = " + err
        return err
    def objects_at(self, t, objs):
        for o in objs:
            if o["kind"] in ("Deployment", "Pod") and o["metadata"]["name"].startswith("payment"):
                spec = o["spec"]["template"]["spec"] if o["kind"] == "Deployment" else o["spec"]
                spec["nodeSelector"] = {"kubernetes.io/hostname": "worker-1"}
                if o["kind"] == "Deployment":
                    mf_add(o, "kubectl-patch", self.start - timedelta(days=6, hours=4), {"f:spec": {"f:template": {"f:spec": {"f:nodeSelector": {}}}}})
        if t >= self.F:
            for i, o in enumerate(objs):
                if o["kind"] == "Node" and o["metadata"]["name"] == "worker-1":
                    objs[i] = node_obj(self, "worker-1", unschedulable=True, since=self.F)
            d = find(objs, "Deployment", "payment")
            d["status"].update(availableReplicas=0, unavailableReplicas=1)
            d["status"].pop("readyReplicas")
            d["status"]["conditions"][0].update(status="False", reason="MinimumReplicasUnavailable", message="Deployment does not have minimum availability.")
            p = find(objs, "Pod", self.pend[0])
            if p:
                p["status"]["conditions"][0]["message"] = ("0/4 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, "
                                                           "1 node(s) were unschedulable, 2 node(s) didn't match Pod's node affinity/selector. "
                                                           "preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.")
    def events(self):
        out = [ev(self, self.F, "Node", "worker-1", "NodeNotSchedulable", "Node worker-1 status is now: NodeNotSchedulable", host="worker-1", ns="")]
        for s in self.MOVED + ["payment"]:
            old = self.pods[s][-2]
            out.append(ev(self, self.drain, "Pod", old[0], "Killing", "Stopping container %s" % s, host="worker-1"))
        for s, p in self.moved.items():
            out += pod_start_events(self, s, p)
        out.append(ev(self, self.E - timedelta(seconds=25), "Pod", self.pend[0], "FailedScheduling",
                      "0/4 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 node(s) were unschedulable, "
                      "2 node(s) didn't match Pod's node affinity/selector. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
                      typ="Warning", comp="default-scheduler", count=11, first=self.drain + timedelta(seconds=1)))
        return out
    def logs(self):
        out = []
        for s in self.spans:
            if s["svc"] == "checkout" and s["kind"] == "server" and s["status"] == "error":
                t = s["start"] + timedelta(milliseconds=s["dur"])
                out.append((t, "checkout", "ERROR", 'msg="failed to charge card" err="%s"' % s["msg"].replace('"', "'"), s["trace"], s["span"]))
            if s["svc"] == "frontend" and s["kind"] == "server" and s["status"] == "error" and s["start"] < self.drain + timedelta(seconds=9):
                t = s["start"] + timedelta(milliseconds=s["dur"])
                out.append((t, "frontend", "ERROR", "Error: 14 UNAVAILABLE: Connection dropped", s["trace"], s["span"]))
        return out
    def alerts(self, t):
        return [alert("KubePodNotReady", {"namespace": NS, "pod": self.pend[0]}, self.drain + timedelta(seconds=30), t, 15,
                      "Pod %s/%s has been in a non-ready state for longer than 15 minutes." % (NS, self.pend[0]), 1),
                alert("HighRequestErrorRate", {"service_name": "checkout", "namespace": NS}, self.F + timedelta(seconds=70), t, 2, "checkout error rate above 5%", 1.0),
                alert("HighRequestErrorRate", {"service_name": "frontend", "namespace": NS}, self.F + timedelta(seconds=100), t, 2, "frontend error rate above 5%", 0.08)]
    def gt(self):
        g = [grp("payment-deployment-1", "Deployment", "payment", root=True), grp("worker-1-node-1", "Node", "worker-1", ns=None)] + app("payment") + app("checkout") + app("frontend")
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("worker-1-node-1", "payment-pod-1", "worker-1 cordoned and drained", "payment pod evicted"),
                                  ("payment-deployment-1", "payment-pod-1", "nodeSelector pins payment to worker-1", "replacement Pending: no schedulable node matches"),
                                  ("payment-pod-1", "payment-service-1", "no ready pod", "connections refused"),
                                  ("payment-service-1", "checkout-service-1", "Charge fails", "PlaceOrder fails"),
                                  ("checkout-service-1", "frontend-service-1", "PlaceOrder fails", "POST /api/checkout returns 500")],
                    fault=[dict(category="Change", condition="workload pinned to a cordoned node",
                                entity=dict(group_id="payment-deployment-1", kind="Deployment", name="payment"), fault_mechanism="custom")],
                    alerts=[("payment-pod-1", "KubePodNotReady"), ("checkout-service-1", "HighRequestErrorRate"), ("frontend-service-1", "HighRequestErrorRate")])


class C12(Case):
    n, seed, start = 12, "valkey-iochaos-red-herring", T("2026-11-16T11:25:00Z")
    title = ("Chaos Mesh Schedule valkey-cart-io-fault (IOChaos EIO on /data) makes valkey-cart's RDB saves fail, so it refuses writes (MISCONF); "
             "a routine cart image bump 4 min earlier is a red herring")
    enc = dict(traces="otlpl", logs="fluentbit", events="watch", objects="tsvgz", alerts="amgroups")
    SCHED = "valkey-cart-io-fault"
    MISCONF = ("MISCONF Valkey is configured to save RDB snapshots, but it's currently unable to persist to disk. Commands that may modify the data set are "
               "disabled, because this instance is configured to report errors during writes if RDB snapshotting fails (stop-writes-on-bgsave-error option). "
               "Please check the Valkey logs for details about the RDB error.")
    def setup(self):
        self.bump = self.F - timedelta(minutes=4)
        self.np = self.new_pod("cart", self.bump + timedelta(seconds=1))
        self.fail_from = self.F + timedelta(seconds=48)
    def server(self, svc, op, t):
        if svc == "valkey-cart" and op in ("HMSET", "EXPIRE") and t >= self.fail_from:
            return 0.2, self.MISCONF
        return 0, None
    def wrap(self, svc, op, child, err):
        if svc == "cart" and child == "valkey-cart":
            return "Can't access cart storage. StackExchange.Redis.RedisServerException: " + err
        if svc == "checkout" and child == "cart":
            return "failed to empty user cart during checkout: rpc error: code = FailedPrecondition desc = " + err
        return err
    def chaos_name(self, t):
        return "%s-%d" % (self.SCHED, 29388201 + int((t - self.F).total_seconds() // 60) * 3)
    def objects_at(self, t, objs):
        for o in objs:
            if o["kind"] in ("Deployment", "Pod") and o["metadata"]["name"].startswith("valkey-cart"):
                spec = o["spec"]["template"]["spec"] if o["kind"] == "Deployment" else o["spec"]
                spec["volumes"] = [{"name": "valkey-data", "emptyDir": {}}]
                spec["containers"][0]["volumeMounts"] = [{"name": "valkey-data", "mountPath": "/data"}]
            if t >= self.bump and o["metadata"]["name"].startswith("cart"):
                if o["kind"] == "Pod" and o["metadata"]["labels"]["pod-template-hash"] != self.np[4]:
                    continue
                if o["kind"] in ("Deployment", "Pod"):
                    spec = o["spec"]["template"]["spec"] if o["kind"] == "Deployment" else o["spec"]
                    spec["containers"][0]["image"] = "ghcr.io/open-telemetry/demo:2.0.3-cart"
                    if o["kind"] == "Deployment":
                        o["metadata"]["labels"]["app.kubernetes.io/version"] = "2.0.3"
                        mf_add(o, "argocd-controller", self.bump, {"f:spec": {"f:template": {"f:spec": {"f:containers": {}}}}})
        if t < self.F:
            return
        io = {"action": "fault", "errno": 5, "percent": 100, "path": "/data/**", "volumePath": "/data", "containerNames": ["valkey-cart"],
              "mode": "all", "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/name": "valkey-cart"}}}
        objs.append({"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "Schedule",
                     "metadata": {"name": self.SCHED, "namespace": "chaos-mesh", "uid": uid(12, "sched"), "generation": 1, "resourceVersion": "640017",
                                  "creationTimestamp": iso(self.F),
                                  "managedFields": [{"manager": "OpenAPI-Generator", "operation": "Update", "apiVersion": "chaos-mesh.org/v1alpha1",
                                                     "time": iso(self.F), "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {}}}]},
                     "spec": {"schedule": "* * * * *", "concurrencyPolicy": "Forbid", "historyLimit": 1, "type": "IOChaos", "ioChaos": io},
                     "status": {"active": [{"kind": "IOChaos", "namespace": "chaos-mesh", "name": self.chaos_name(t), "apiVersion": "chaos-mesh.org/v1alpha1"}]}})
        objs.append({"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "IOChaos",
                     "metadata": {"name": self.chaos_name(t), "namespace": "chaos-mesh", "uid": uid(12, self.chaos_name(t)), "generation": 2,
                                  "creationTimestamp": iso(t - timedelta(seconds=(t - self.F).total_seconds() % 60)),
                                  "labels": {"managed-by": self.SCHED}, "finalizers": ["chaos-mesh/records"],
                                  "ownerReferences": [{"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "Schedule", "name": self.SCHED,
                                                       "uid": uid(12, "sched"), "controller": True, "blockOwnerDeletion": True}]},
                     "spec": io,
                     "status": {"conditions": [{"type": "Selected", "status": "True"}, {"type": "AllInjected", "status": "True"},
                                               {"type": "AllRecovered", "status": "False"}, {"type": "Paused", "status": "False"}],
                                "experiment": {"desiredPhase": "Run",
                                               "containerRecords": [{"id": "%s/%s/valkey-cart" % (NS, self.pod_at("valkey-cart", t)[0]), "phase": "Injected",
                                                                     "selectorKey": ".", "injectedCount": 1, "recoveredCount": 0}]}}})
    def events(self):
        old = self.pods["cart"][0]
        out = pod_start_events(self, "cart", self.np) + [
            ev(self, self.bump, "Deployment", "cart", "ScalingReplicaSet", "Scaled up replica set cart-%s to 1" % self.np[4], comp="deployment-controller"),
            ev(self, self.bump + timedelta(seconds=7), "Deployment", "cart", "ScalingReplicaSet", "Scaled down replica set cart-%s to 0 from 1" % old[4],
               comp="deployment-controller"),
            ev(self, self.bump + timedelta(seconds=7), "Pod", old[0], "Killing", "Stopping container cart", host=old[1])]
        for i in range(int((self.E - self.F).total_seconds() // 60) + 1):
            t = self.F + timedelta(minutes=i)
            nm = self.chaos_name(t + timedelta(seconds=1))
            cm = dict(ns="chaos-mesh", api="chaos-mesh.org/v1alpha1")
            out.append(ev(self, t, "Schedule", self.SCHED, "Spawned", "Create new object: %s" % nm, comp="schedule-cron", **cm))
            out.append(ev(self, t + timedelta(seconds=1), "IOChaos", nm, "FinalizerInited", "Finalizer has been inited", comp="initFinalizers", **cm))
            out.append(ev(self, t + timedelta(seconds=2), "IOChaos", nm, "Applied",
                          "Successfully apply chaos for %s/%s/valkey-cart" % (NS, self.pod_at("valkey-cart", t)[0]), comp="records", **cm))
        return out
    def logs(self):
        out = []
        t = self.start + timedelta(minutes=2, seconds=11)
        k = 0
        while t < self.E:
            pid = 200 + k
            out.append((t, "valkey-cart", "INFO", "1:M %s * 10 changes in 60 seconds. Saving..." % t.strftime("%d %b %Y %H:%M:%S.000"), "", ""))
            out.append((t, "valkey-cart", "INFO", "1:M %s * Background saving started by pid %d" % (t.strftime("%d %b %Y %H:%M:%S.001"), pid), "", ""))
            if t >= self.F + timedelta(seconds=40):
                out.append((t + timedelta(milliseconds=4), "valkey-cart", "ERROR", "%d:C %s # Failed opening the temp RDB file temp-%d.rdb (in server root dir /data) for saving: Input/output error"
                            % (pid, (t + timedelta(milliseconds=4)).strftime("%d %b %Y %H:%M:%S.004"), pid), "", ""))
                out.append((t + timedelta(milliseconds=110), "valkey-cart", "ERROR", "1:M %s # Background saving error" % (t + timedelta(milliseconds=110)).strftime("%d %b %Y %H:%M:%S.110"), "", ""))
            else:
                out.append((t + timedelta(milliseconds=30), "valkey-cart", "INFO", "%d:C %s * DB saved on disk" % (pid, (t + timedelta(milliseconds=30)).strftime("%d %b %Y %H:%M:%S.030")), "", ""))
                out.append((t + timedelta(milliseconds=110), "valkey-cart", "INFO", "1:M %s * Background saving terminated with success" % (t + timedelta(milliseconds=110)).strftime("%d %b %Y %H:%M:%S.110"), "", ""))
            t += timedelta(seconds=60 if t < self.F + timedelta(seconds=40) else 6)
            if t >= self.F + timedelta(seconds=40) and t - timedelta(seconds=6) < self.F + timedelta(seconds=40):
                t = self.F + timedelta(seconds=40)
            k += 1
        for s in self.spans:
            if s["svc"] == "cart" and s["kind"] == "server" and s["status"] == "error":
                tt = s["start"] + timedelta(milliseconds=s["dur"])
                out.append((tt, "cart", "ERROR", "Can't access cart storage. StackExchange.Redis.RedisServerException: MISCONF Valkey is configured to save RDB snapshots, but it's currently unable to persist to disk.",
                            s["trace"], s["span"]))
        out.append((self.bump + timedelta(seconds=5), "cart", "INFO", "Now listening on: http://[::]:8080", "", ""))
        return out
    def alerts(self, t):
        return [alert("HighRequestErrorRate", {"service_name": "cart", "namespace": NS}, self.fail_from + timedelta(seconds=60), t, 2, "cart error rate above 5%", 0.38),
                alert("HighRequestErrorRate", {"service_name": "frontend", "namespace": NS}, self.fail_from + timedelta(seconds=90), t, 2, "frontend error rate above 5%", 0.1),
                alert("HighRequestErrorRate", {"service_name": "checkout", "namespace": NS}, self.fail_from + timedelta(seconds=110), t, 2, "checkout error rate above 5%", 1.0)]
    def gt(self):
        g = [grp("valkey-cart-io-fault-schedule-1", "Schedule", self.SCHED, ns="chaos-mesh", root=True),
             grp("valkey-cart-io-fault-iochaos-1", "IOChaos", self.SCHED, ns="chaos-mesh", filt="^valkey-cart-io-fault(-[0-9]+)?$")] + \
            app("valkey-cart") + app("cart") + app("checkout") + app("frontend")
        al = aliases_of(g) + [["valkey-cart-io-fault-schedule-1", "valkey-cart-io-fault-iochaos-1"]]
        return dict(groups=g, aliases=al,
                    propagations=[("valkey-cart-io-fault-schedule-1", "valkey-cart-service-1", "IOChaos returns EIO for every file under /data",
                                   "RDB background saves fail; stop-writes-on-bgsave-error refuses writes (MISCONF)"),
                                  ("valkey-cart-service-1", "cart-service-1", "HMSET/EXPIRE refused", "AddItem and EmptyCart fail (GetCart works)"),
                                  ("cart-service-1", "frontend-service-1", "AddItem fails", "POST /api/cart returns 500"),
                                  ("cart-service-1", "checkout-service-1", "EmptyCart fails", "PlaceOrder fails"),
                                  ("checkout-service-1", "frontend-service-1", "PlaceOrder fails", "POST /api/checkout returns 500")],
                    fault=[dict(category="Chaos", condition="I/O errors on the datastore's volume",
                                entity=dict(group_id="valkey-cart-io-fault-schedule-1", kind="Schedule", name=self.SCHED), fault_mechanism="chaos-mesh")],
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
    elif enc["traces"] == "jaeger":
        put("jaeger_traces.json", jaeger_traces(c, spans))
    else:
        put("otel_traces_raw.tsv", tsv_traces(c, spans, "raw" if enc["traces"] == "tsvraw" else "csv"))
    # logs
    recs = background_logs(c, spans) + c.logs()
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
