#!/usr/bin/env python3
"""sre-set6 (library part copied from measurement/sre-set5/gen.py, itself from sre-set4; one flag added to its FLAGS
table, emailMemoryLeak, and a few helpers): 13 blind SRE incident snapshots of the OpenTelemetry demo weighted like
ITBench's suite (5 flagd flags, 4 Chaos Mesh experiments, 4 misconfigurations), each written in the shapes other
exporters produce, with ITBench-style ground truth.

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
    "postgresql":      (5432, None,     "worker-2", "1Gi",   {"POSTGRES_USER": "root", "POSTGRES_DB": "otel"}),
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
    def load_at(self, t): return self.load
    def post_spans(self, spans): return spans


# ---------------------------------------------------------------- objects
def deployment(c, svc, t, **over):
    port, lang, node, mem, env = SVC[svc]
    h = c.pod_at(svc, t)[4]
    rev = c.hashes[svc].index(h) + 1 + 3
    envl = [{"name": "OTEL_SERVICE_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels['app.kubernetes.io/component']"}}},
            {"name": "OTEL_COLLECTOR_NAME", "value": "otel-collector"},
            {"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://$(OTEL_COLLECTOR_NAME):4317"}]
    envl += [{"name": k, "value": v} for k, v in env.items()]
    image = "valkey/valkey:8.1.3-alpine" if svc == "valkey-cart" else "postgres:17.2" if svc == "postgresql" else "ghcr.io/open-telemetry/demo:%s-%s" % (VER, svc)
    if svc == "kafka":
        image = "ghcr.io/open-telemetry/demo:%s-kafka" % VER
    cont = {"name": svc, "image": image, "imagePullPolicy": "IfNotPresent", "env": envl,
            "resources": {"limits": {"memory": mem}},
            "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}
    if port:
        cont["ports"] = [{"containerPort": port, "name": "service" if svc != "valkey-cart" else "valkey-cart", "protocol": "TCP"}]
    if svc == "valkey-cart":
        cont.pop("env")
    if svc == "postgresql":
        cont["ports"][0]["name"] = "postgresql"
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
          "image": deployment(c, svc, created + timedelta(seconds=1))["spec"]["template"]["spec"]["containers"][0]["image"], "imageID": "ghcr.io/open-telemetry/demo@sha256:" + H("img", svc)[:64],
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
    "emailMemoryLeak": ("Memory leak in the email service.", {"off": 0, "1x": 1, "10x": 10, "100x": 100, "1000x": 1000, "10000x": 10000}),
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
            if f and f.get("after"):
                f = dict(f)
            if f and f.get("attrs"):
                cl["attrs"].update(f["attrs"])
            spans.append(cl)
            if f and not f.get("server", False) and not f.get("after"):
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
            if f and f.get("after") and ok:   # the server answered, its response was replaced on the way back
                ok, err = False, f["fail"]
                cl["status"], cl["msg"] = "error", err
                if proto == "http":
                    cl["attrs"]["http.response.status_code"] = f.get("http", 503)
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
        t += timedelta(seconds=rng.expovariate(1 / (4.0 / c.load_at(t))))
    spans.extend(c.extra_spans)
    spans = c.post_spans(spans)
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




# ================================================================ sre-set5 helpers
def restart_cm(c, objs, on, t_on):
    if t_on is None:
        return
    for i, o in enumerate(objs):
        if o["kind"] == "ConfigMap" and o["metadata"]["name"] == "flagd-config":
            objs[i] = flagd_cm(c, on=on, changed=t_on)


def set_cpu(d, limit, request=None):
    r = cont(d)["resources"]
    r.setdefault("limits", {})["cpu"] = limit
    if request:
        r.setdefault("requests", {})["cpu"] = request


def counter(c, rate):
    """a cumulative counter sampled every 30 s whose per-second rate is rate(t) (None before the series exists)"""
    def fn(t):
        if rate(t) is None:
            return None
        b = int((t - c.start).total_seconds() // 30)
        tot = 0.0
        for i in range(b):
            r = rate(c.start + timedelta(seconds=30 * i))
            tot += (r or 0.0) * 30
        return round(tot, 3)
    return fn


def cpu_series(c, pod_name, container, usage, limit, throttled_frac):
    """cAdvisor counters: usage seconds, CFS periods (100 ms) and throttled periods (limit set: periods run)"""
    tags = {"namespace": NS, "pod": pod_name, "container": container, "job": "kubelet", "metrics_path": "/metrics/cadvisor"}
    s = [("container_cpu_usage_seconds_total", tags, counter(c, usage))]
    if limit:
        s.append(("container_cpu_cfs_periods_total", tags, counter(c, lambda t: 10.0 if usage(t) is not None else None)))
        s.append(("container_cpu_cfs_throttled_periods_total", tags, counter(c, lambda t: (10.0 * throttled_frac(t)) if usage(t) is not None else None)))
        s.append(("container_cpu_cfs_throttled_seconds_total", tags, counter(c, lambda t: (limit * 0 + 10.0 * throttled_frac(t) * 0.08) if usage(t) is not None else None)))
        s.append(("kube_pod_container_resource_limits", dict(tags, resource="cpu", unit="core", job="kube-state-metrics"), lambda t: limit if usage(t) is not None else None))
    return s


def lat_alert(c, svc, since, t, v):
    return alert("HighRequestLatency", {"service_name": svc, "namespace": NS}, since, t, 2, "%s p95 latency above 1s" % svc, v)


def err_alert(c, svc, since, t, v):
    return alert("HighRequestErrorRate", {"service_name": svc, "namespace": NS}, since, t, 2, "%s error rate above 5%%" % svc, v)


def flag_gt(flag_effects):
    """flag_effects: list of (source id, target id, condition, effect); returns groups/aliases built by the caller"""
    return [dict(category="Change", condition="feature flag enabled",
                 entity=dict(group_id="flagd-config-configmap-1", kind="ConfigMap", name="flagd-config"), fault_mechanism="custom")]


OLD_WARN_SVC = "frontend-proxy"



# ================================================================ sre-set6 helpers
def flag_cm(c, objs, t, t_on, mutate, style="pretty2", manager="kubectl-edit", operation="Update", extra_keys=None):
    """rebuild flagd-config when t >= t_on: every flag off, then mutate(flags); serialised in `style`"""
    if t < t_on:
        return
    flags = {}
    for k, (desc, var) in FLAGS.items():
        flags[k] = {"description": desc, "state": "ENABLED", "variants": var, "defaultVariant": "off"}
    mutate(flags)
    doc = {"$schema": "https://flagd.dev/schema/v0/flags.json", "flags": flags}
    if style == "min":
        txt = json.dumps(doc, separators=(",", ":"))
    elif style == "pretty4":
        txt = json.dumps(doc, indent=4)
    else:
        txt = json.dumps(doc, indent=2)
    for i, o in enumerate(objs):
        if o["kind"] == "ConfigMap" and o["metadata"]["name"] == "flagd-config":
            o["data"] = {"demo.flagd.json": txt}
            if extra_keys:
                o["data"].update(extra_keys)
            o["metadata"]["resourceVersion"] = str(700000 + c.n * 13)
            m = {"manager": manager, "operation": operation, "apiVersion": "v1", "time": iso(t_on), "fieldsType": "FieldsV1",
                 "fieldsV1": {"f:data": {"f:demo.flagd.json": {}}}}
            o["metadata"]["managedFields"].append(m)


def set_on(name, variant="on", targeting=None):
    def f(flags):
        flags[name]["defaultVariant"] = variant
        if targeting is not None:
            flags[name]["targeting"] = targeting
    return f


def restart_deploy(c, objs, svc, t, tr, manager="kubectl-rollout"):
    """kubectl rollout restart: the pod template gets a restartedAt annotation"""
    if t < tr:
        return
    d = dep(objs, svc)
    d["spec"]["template"]["metadata"].setdefault("annotations", {})["kubectl.kubernetes.io/restartedAt"] = iso(tr)
    mf_add(d, manager, tr, {"f:spec": {"f:template": {"f:metadata": {"f:annotations": {".": {}, "f:kubectl.kubernetes.io/restartedAt": {}}}}}})


def plain_chaos(c, t, kind, name, spec, created, target, running_until=None):
    running = running_until is None or t < running_until
    return {"apiVersion": "chaos-mesh.org/v1alpha1", "kind": kind,
            "metadata": {"name": name, "namespace": "chaos-mesh", "uid": uid(c.n, "chaos", name), "generation": 1,
                         "resourceVersion": str(655000 + c.n), "creationTimestamp": iso(created), "finalizers": ["chaos-mesh/records"],
                         "annotations": {"kubectl.kubernetes.io/last-applied-configuration": json.dumps({"apiVersion": "chaos-mesh.org/v1alpha1", "kind": kind,
                                                                                                         "metadata": {"name": name, "namespace": "chaos-mesh"}, "spec": spec})},
                         "managedFields": [{"manager": "kubectl-client-side-apply", "operation": "Update", "apiVersion": "chaos-mesh.org/v1alpha1",
                                            "time": iso(created), "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {}}}]},
            "spec": spec,
            "status": {"conditions": [{"type": "Selected", "status": "True"}, {"type": "AllInjected", "status": "True" if running else "False"},
                                      {"type": "AllRecovered", "status": "False" if running else "True"}, {"type": "Paused", "status": "False"}],
                       "experiment": {"desiredPhase": "Run" if running else "Stop",
                                      "containerRecords": [{"id": "%s/%s" % (NS, c.pod_at(target, t)[0]), "phase": "Injected" if running else "Recovered",
                                                            "selectorKey": ".", "injectedCount": 1, "recoveredCount": 0 if running else 1}]}}}


def in_any(t, intervals):
    return any(a <= t < b for a, b in intervals)


def custom_alert(name, labels, since, t, for_min, summary, value=None, severity="warning"):
    lab = {"namespace": NS}
    lab.update(labels)
    return alert(name, lab, since, t, for_min, summary, value, severity)


# ================================================================ the cases (sre-set6)
class S1(Case):
    n, seed, start = 1, "s6-flag-emailleak", T("2026-11-21T02:10:00Z")
    load = 2.0
    title = "flag emailMemoryLeak = 100x in flagd-config (4-space JSON, no restart): email's memory climbs to its 100Mi limit, OOMKilled twice (lastState), checkout's confirmation calls refused during restarts (tolerated, WARN); decoy: shipping image bump 3 min before"
    enc = dict(traces="otlp", logs="fluentbit", events="watch", objects="tsv", alerts="prom")
    def setup(self):
        self.on = self.F + timedelta(seconds=20)
        self.tr = self.F - timedelta(minutes=3)
        self.old = self.pods["shipping"][0]
        self.newp = self.new_pod("shipping", self.tr)
        self.kills = [self.F + timedelta(minutes=5, seconds=40), self.F + timedelta(minutes=11, seconds=5)]
        self.down = [(k, k + timedelta(seconds=25)) for k in self.kills]
    def mem(self, t):
        if t < self.on:
            return 61e6 + 2e6 * math.sin(t.minute)
        last = max([self.on] + [k for k in self.kills if k <= t])
        base = 41e6 if last != self.on else 61e6
        return min(104857600, base + (t - last).total_seconds() * 130000)
    def server(self, svc, op, t):
        if svc == "email" and t >= self.on:
            return 20 + (self.mem(t) - 60e6) / 1e6 * 9 * rng_at("em", t.isoformat()).uniform(.6, 1.2), None
        return 0, None
    def edge(self, caller, callee, op, t):
        if callee == "email" and in_any(t, self.down):
            return dict(fail='Post "http://email:8080/send_order_confirmation": dial tcp %s:8080: connect: connection refused' % ip_of("email"), dur=1.2, http=None)
    def objects_at(self, t, objs):
        image_bump(self, objs, "shipping", t, self.tr, "ghcr.io/open-telemetry/demo:2.0.3-shipping")
        flag_cm(self, objs, t, self.F, set_on("emailMemoryLeak", "100x"), style="pretty4")
        k = [x for x in self.kills if x <= t]
        if k:
            p = pods_of(objs, "email")[0]
            cs = p["status"]["containerStatuses"][0]
            cs["restartCount"] = len(k)
            cs["lastState"] = {"terminated": {"exitCode": 137, "reason": "OOMKilled", "startedAt": iso(max([self.pods["email"][0][2]] + k[:-1])),
                                              "finishedAt": iso(k[-1]), "containerID": "containerd://" + H("oldc", len(k))[:64]}}
            cs["state"] = {"running": {"startedAt": iso(k[-1] + timedelta(seconds=25))}}
    def events(self):
        out = rollout_events(self, "shipping", self.tr, self.old, self.newp)
        p = self.pods["email"][0]
        for i, k in enumerate(self.kills):
            out.append(ev(self, k + timedelta(seconds=2), "Pod", p[0], "Pulled", 'Container image "ghcr.io/open-telemetry/demo:%s-email" already present on machine' % VER,
                          host=p[1], count=i + 2, first=p[2]))
            out.append(ev(self, k + timedelta(seconds=2), "Pod", p[0], "Created", "Created container email", host=p[1], count=i + 2, first=p[2]))
            out.append(ev(self, k + timedelta(seconds=3), "Pod", p[0], "Started", "Started container email", host=p[1], count=i + 2, first=p[2]))
        return out
    def logs(self):
        out = flag_logs(self, "emailMemoryLeak", self.F + timedelta(seconds=2))
        out.append((self.tr + timedelta(seconds=4), "shipping", "INFO", json.dumps({"timestamp": iso(self.tr, True), "level": "INFO",
                    "fields": {"message": "listening on 0.0.0.0:8080"}, "target": "shipping"}), "", ""))
        for k in self.kills:
            out.append((k + timedelta(seconds=24), "email", "INFO", "Puma starting in single mode...\n* Puma version: 6.4.3 (ruby 3.3.6-p108) (\"The Eagle of Durango\")\n* Listening on http://0.0.0.0:8080", "", ""))
        for s in self.spans:
            if s["svc"] == "checkout" and s["kind"] == "client" and s["status"] == "error" and "send_order" in s["name"]:
                out.append((s["start"] + timedelta(milliseconds=s["dur"] + 1), "checkout", "WARN",
                            'time=%s level=WARN msg="failed to send order confirmation" email=%s@example.com err="%s"' % (iso(s["start"], True), H("m", s["trace"])[:8], s["msg"].replace('"', "'")),
                            s["trace"], s["parent"]))
        return out
    def metrics(self, spans):
        p = self.pods["email"][0][0]
        return {"pod_%s.tsv" % p: gauge_file(self, [("container_memory_working_set_bytes", {"namespace": NS, "pod": p, "container": "email"}, self.mem),
                                                   ("container_spec_memory_limit_bytes", {"namespace": NS, "pod": p, "container": "email"}, lambda t: 104857600),
                                                   ("kube_pod_container_status_restarts_total", {"namespace": NS, "pod": p, "container": "email", "job": "kube-state-metrics"},
                                                    lambda t: len([k for k in self.kills if k + timedelta(seconds=25) <= t]))])}
    def alerts(self, t):
        return [lat_alert(self, "email", self.on + timedelta(seconds=200), t, 1.4),
                custom_alert("KubeContainerOOMKilled", {"pod": self.pods["email"][0][0], "container": "email"}, self.kills[0] + timedelta(seconds=30), t, 0,
                             "Container email in pod %s was OOMKilled." % self.pods["email"][0][0], 1)]
    def gt(self):
        g = [grp("flagd-config-configmap-1", "ConfigMap", "flagd-config", root=True), grp("email-deployment-1", "Deployment", "email")] + app("email") + app("checkout")
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("flagd-config-configmap-1", "email-pod-1", "emailMemoryLeak served as 100x", "memory grows to the limit, OOMKilled"),
                                  ("email-pod-1", "email-service-1", "OOMKilled, restarting", "slow, then connection refused"),
                                  ("email-service-1", "checkout-service-1", "send_order_confirmation refused", "confirmation mails not sent (WARN)")],
                    fault=flag_gt(None), alerts=[("email-service-1", "HighRequestLatency"), ("email-pod-1", "KubeContainerOOMKilled")])


class S2(Case):
    n, seed, start = 2, "s6-flag-payunreach-fractional", T("2026-11-21T06:45:00Z")
    load = 2.0
    title = "flag paymentUnreachable switched on for 40% of evaluations by a fractional targeting rule (defaultVariant stays off; minified JSON applied by Argo CD): 40% of checkouts dial badAddress:50051; decoy: payment image bump 2 min before"
    enc = dict(traces="jaeger", logs="tsv", events="eventsv1", objects="list", alerts="amv2")
    def setup(self):
        self.on = self.F + timedelta(seconds=15)
        self.tr = self.F - timedelta(minutes=2)
        self.old = self.pods["payment"][0]
        self.newp = self.new_pod("payment", self.tr)
    def edge(self, caller, callee, op, t):
        if caller == "checkout" and callee == "payment" and t >= self.on and rng_at("fr", t.isoformat()).random() < .4:
            return dict(fail="rpc error: code = Unavailable desc = name resolver error: produced zero addresses", dur=2.0, code=14,
                        attrs={"server.address": "badAddress", "server.port": 50051})
    def wrap(self, svc, op, child, err):
        if svc == "checkout" and child == "payment":
            return "failed to charge card: could not charge the card: " + err
        return err
    def objects_at(self, t, objs):
        image_bump(self, objs, "payment", t, self.tr, "ghcr.io/open-telemetry/demo:2.0.3-payment", manager="argocd-controller")
        flag_cm(self, objs, t, self.F, set_on("paymentUnreachable", "off", {"fractional": [["on", 40], ["off", 60]]}), style="min",
                manager="argocd-controller", operation="Apply")
    def events(self):
        return rollout_events(self, "payment", self.tr, self.old, self.newp)
    def logs(self):
        out = flag_logs(self, "paymentUnreachable", self.F + timedelta(seconds=3))
        out.append((self.tr + timedelta(seconds=4), "payment", "INFO", json.dumps({"level": 30, "time": ns_of(self.tr) // 1000000 + 4000, "pid": 1,
                    "hostname": self.newp[0], "msg": "payment gRPC server started on port 8080"}), "", ""))
        for s in self.spans:
            if s["svc"] == "checkout" and s["kind"] == "server" and s["status"] == "error":
                out.append((s["start"] + timedelta(milliseconds=s["dur"]), "checkout", "ERROR",
                            'time=%s level=ERROR msg="failed to place order" err="%s"' % (iso(s["start"], True), s["msg"]), s["trace"], s["span"]))
        return out
    def alerts(self, t):
        return [err_alert(self, "checkout", self.on + timedelta(seconds=80), t, 0.41), err_alert(self, "frontend", self.on + timedelta(seconds=110), t, 0.06)]
    def gt(self):
        g = [grp("flagd-config-configmap-1", "ConfigMap", "flagd-config", root=True)] + app("checkout") + app("frontend")
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("flagd-config-configmap-1", "checkout-service-1", "paymentUnreachable on for 40% (fractional)", "checkout dials badAddress, Charge fails"),
                                  ("checkout-service-1", "frontend-service-1", "PlaceOrder fails", "POST /api/checkout 500")],
                    fault=flag_gt(None), alerts=[("checkout-service-1", "HighRequestErrorRate"), ("frontend-service-1", "HighRequestErrorRate")])


class S3(Case):
    n, seed, start = 3, "s6-flag-pcfail-ssa", T("2026-11-21T11:20:00Z")
    load = 2.5
    title = "flag productCatalogFailure on (server-side apply by a CI job, manager 'ci-flags'): GetProduct fails for product OLJCESPC7Z only (~10% of GetProduct) beside product-catalog's steady rare NotFound errors; decoy: recommendation image bump 1 min after"
    enc = dict(traces="zipkin", logs="otlp", events="tsv", objects="watch", alerts="webhook")
    def setup(self):
        self.on = self.F + timedelta(seconds=25)
        self.tr = self.F + timedelta(minutes=1)
        self.old = self.pods["recommendation"][0]
        self.newp = self.new_pod("recommendation", self.tr)
    def server(self, svc, op, t):
        if svc == "product-catalog" and op == "GetProduct" and t >= self.on and rng_at("pc", t.isoformat()).random() < .1:
            return 0, "Error: Product Catalog Fail Feature Flag Enabled"
        return 0, None
    def objects_at(self, t, objs):
        image_bump(self, objs, "recommendation", t, self.tr, "ghcr.io/open-telemetry/demo:2.0.3-recommendation")
        flag_cm(self, objs, t, self.F, set_on("productCatalogFailure"), style="pretty2", manager="ci-flags", operation="Apply")
    def events(self):
        return rollout_events(self, "recommendation", self.tr, self.old, self.newp)
    def logs(self):
        out = flag_logs(self, "productCatalogFailure", self.F + timedelta(seconds=2))
        out.append((self.tr + timedelta(seconds=4), "recommendation", "INFO", "INFO:root:Recommendation service started on port 8080", "", ""))
        for s in self.spans:
            if s["svc"] == "frontend" and s["kind"] == "server" and s["status"] == "error":
                out.append((s["start"] + timedelta(milliseconds=s["dur"]), "frontend", "ERROR",
                            "Error: 13 INTERNAL: %s\n    at callErrorFromStatus (/app/node_modules/@grpc/grpc-js/build/src/call.js:31:19)" % "Error: Product Catalog Fail Feature Flag Enabled",
                            s["trace"], s["span"]))
        return out
    def alerts(self, t):
        return [err_alert(self, "product-catalog", self.on + timedelta(seconds=90), t, 0.09), err_alert(self, "frontend", self.on + timedelta(seconds=120), t, 0.07)]
    def gt(self):
        g = [grp("flagd-config-configmap-1", "ConfigMap", "flagd-config", root=True)] + app("product-catalog") + app("frontend") + app("checkout")
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("flagd-config-configmap-1", "product-catalog-service-1", "productCatalogFailure on", "GetProduct OLJCESPC7Z fails"),
                                  ("product-catalog-service-1", "frontend-service-1", "GetProduct fails", "product page 500"),
                                  ("product-catalog-service-1", "checkout-service-1", "GetProduct fails", "PlaceOrder fails")],
                    fault=flag_gt(None), alerts=[("product-catalog-service-1", "HighRequestErrorRate"), ("frontend-service-1", "HighRequestErrorRate")])


class S4(Case):
    n, seed, start = 4, "s6-flag-kafkaq", T("2026-11-21T15:05:00Z")
    load = 1.5
    title = "flag kafkaQueueProblems on (kubectl patch): checkout floods the orders topic, consumers sleep; accounting and fraud-detection consume minutes late (consumer spans late; WARN logs); no error, no metrics; decoy: fraud-detection image bump 3 min before"
    enc = dict(traces="tsvcsv", logs="text", events="list", objects="tsvgz", alerts="amgroups")
    def setup(self):
        self.on = self.F + timedelta(seconds=20)
        self.tr = self.F - timedelta(minutes=3)
        self.old = self.pods["fraud-detection"][0]
        self.newp = self.new_pod("fraud-detection", self.tr)
    def lag_ms(self, t):
        return 0 if t < self.on else min(600000, (t - self.on).total_seconds() * 650)
    def server(self, svc, op, t):
        if op == "orders process" and t >= self.on:
            return self.lag_ms(t) * (1.0 if svc == "fraud-detection" else .7), None
        return 0, None
    def objects_at(self, t, objs):
        image_bump(self, objs, "fraud-detection", t, self.tr, "ghcr.io/open-telemetry/demo:2.0.3-fraud-detection")
        flag_cm(self, objs, t, self.F, set_on("kafkaQueueProblems"), style="pretty2", manager="kubectl-patch")
    def events(self):
        return rollout_events(self, "fraud-detection", self.tr, self.old, self.newp)
    def logs(self):
        out = flag_logs(self, "kafkaQueueProblems", self.F + timedelta(seconds=2))
        out.append((self.tr + timedelta(seconds=9), "fraud-detection", "INFO", "Started FraudDetectionKt in 8.4 seconds (JVM running for 9.1)", "", ""))
        for s in self.spans:
            if s["svc"] == "checkout" and s["kind"] == "server" and s["name"].endswith("PlaceOrder") and s["start"] >= self.on:
                out.append((s["start"] + timedelta(milliseconds=s["dur"]), "checkout", "WARN",
                            "time=%s level=WARN msg=\"Warning: FeatureFlag 'kafkaQueueProblems' is activated, overloading queue now.\"" % iso(s["start"], True), s["trace"], s["span"]))
            if s["svc"] == "fraud-detection" and s["kind"] == "consumer" and s["start"] >= self.on + timedelta(minutes=1):
                out.append((s["start"], "fraud-detection", "WARN", "FeatureFlag 'kafkaQueueProblems' is enabled, sleeping 1 second", s["trace"], s["span"]))
        return out
    def alerts(self, t):
        return [custom_alert("KafkaConsumerLagHigh", {"consumergroup": "fraud-detection", "topic": "orders", "service_name": "kafka"}, self.on + timedelta(minutes=3), t, 2,
                             "Consumer group fraud-detection lag on topic orders above 1000", 4200),
                custom_alert("KafkaConsumerLagHigh", {"consumergroup": "accounting", "topic": "orders", "service_name": "kafka"}, self.on + timedelta(minutes=4), t, 2,
                             "Consumer group accounting lag on topic orders above 1000", 2900)]
    def gt(self):
        g = [grp("flagd-config-configmap-1", "ConfigMap", "flagd-config", root=True)] + app("checkout") + app("kafka") + \
            [grp("fraud-detection-pod-1", "Pod", "fraud-detection"), grp("accounting-pod-1", "Pod", "accounting")]
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("flagd-config-configmap-1", "checkout-service-1", "kafkaQueueProblems on", "checkout floods the orders topic"),
                                  ("checkout-service-1", "kafka-service-1", "flood", "orders topic backlog"),
                                  ("kafka-service-1", "fraud-detection-pod-1", "backlog", "consumer lag"),
                                  ("kafka-service-1", "accounting-pod-1", "backlog", "consumer lag")],
                    fault=flag_gt(None), alerts=[("kafka-service-1", "KafkaConsumerLagHigh")])


class S5(Case):
    n, seed, start = 5, "s6-flag-adfailure-restart", T("2026-11-21T19:30:00Z")
    load = 4.5
    title = "flag adFailure on, injected as ITBench does it: flagd-config edited, then flagd and ad restarted (kubectl rollout restart); 1 GetAds in 10 fails UNAVAILABLE from ad's new pod; the ad Deployment's restart sits right before the errors"
    enc = dict(traces="otlpl", logs="ecs", events="watch", objects="watch", alerts="prom")
    def setup(self):
        self.t_f = self.F + timedelta(seconds=40)
        self.t_a = self.F + timedelta(seconds=50)
        self.fold = self.pods["flagd"][0]
        self.fnew = self.new_pod("flagd", self.t_f)
        self.aold = self.pods["ad"][0]
        self.anew = self.new_pod("ad", self.t_a)
        self.on = self.t_a + timedelta(seconds=12)
    def server(self, svc, op, t):
        if svc == "ad" and t >= self.on and rng_at("ad", t.isoformat()).random() < .1:
            return 0, "io.grpc.StatusRuntimeException: UNAVAILABLE"
        return 0, None
    def objects_at(self, t, objs):
        flag_cm(self, objs, t, self.F, set_on("adFailure"), style="pretty2", manager="kubectl-edit")
        restart_deploy(self, objs, "flagd", t, self.t_f)
        restart_deploy(self, objs, "ad", t, self.t_a)
    def events(self):
        return rollout_events(self, "flagd", self.t_f, self.fold, self.fnew) + rollout_events(self, "ad", self.t_a, self.aold, self.anew)
    def logs(self):
        out = [(self.t_f + timedelta(seconds=3), "flagd", "INFO", json.dumps({"level": "info", "ts": ns_of(self.t_f) / 1e9 + 3, "logger": "flagd",
                 "msg": "Flag IResolver listening at [::]:8013"}), "", ""),
               (self.t_a + timedelta(seconds=9), "ad", "INFO", "Ad service started, listening on 8080", "", "")]
        for s in self.spans:
            if s["svc"] == "ad" and s["kind"] == "server" and s["status"] == "error":
                out.append((s["start"] + timedelta(milliseconds=s["dur"]), "ad", "ERROR",
                            "GetAds Failed with status Status{code=UNAVAILABLE, description=null, cause=null}", s["trace"], s["span"]))
        return out
    def alerts(self, t):
        return [err_alert(self, "ad", self.on + timedelta(seconds=90), t, 0.1), err_alert(self, "frontend", self.on + timedelta(seconds=120), t, 0.06)]
    def gt(self):
        g = [grp("flagd-config-configmap-1", "ConfigMap", "flagd-config", root=True)] + app("ad") + app("frontend")
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("flagd-config-configmap-1", "ad-service-1", "adFailure served on", "1 GetAds in 10 UNAVAILABLE"),
                                  ("ad-service-1", "frontend-service-1", "GetAds fails", "GET /api/data 500")],
                    fault=flag_gt(None), alerts=[("ad-service-1", "HighRequestErrorRate"), ("frontend-service-1", "HighRequestErrorRate")])


class S6(ChaosCase):
    n, seed, start = 6, "s6-bandwidth-pc", T("2026-11-22T00:15:00Z")
    title = "Chaos Mesh Schedule product-catalog-bandwidth (NetworkChaos bandwidth 64kbps on product-catalog's egress, 4 min of every 5): ListProducts responses +1-2 s, GetProduct +60-120 ms, no errors; decoy: checkout image bump 2 min after"
    enc = dict(traces="jaeger", logs="fluentbit", events="eventsv1", objects="tsv", alerts="amgroups")
    sched, ckind, ckey, target, every, dur_s = "product-catalog-bandwidth", "NetworkChaos", "networkChaos", "product-catalog", 300, 240
    cspec = {"action": "bandwidth", "mode": "all", "direction": "to",
             "bandwidth": {"rate": "64kbps", "limit": 20971520, "buffer": 10000},
             "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/component": "product-catalog"}}}
    def setup(self):
        self.tr = self.F + timedelta(minutes=2)
        self.old = self.pods["checkout"][0]
        self.newp = self.new_pod("checkout", self.tr)
    def delay(self, caller, callee, op, t):
        if callee == "product-catalog" and self.active(t):
            r = rng_at("bw", caller, op, t.isoformat())
            return 0, (r.uniform(1000, 2100) if op == "ListProducts" else r.uniform(60, 120))
        return 0, 0
    def objects_at(self, t, objs):
        self.chaos_objs(t, objs)
        image_bump(self, objs, "checkout", t, self.tr, "ghcr.io/open-telemetry/demo:2.0.3-checkout")
    def events(self):
        return self.chaos_events() + rollout_events(self, "checkout", self.tr, self.old, self.newp)
    def logs(self):
        return [(self.tr + timedelta(seconds=3), "checkout", "INFO", 'time=%s level=INFO msg="service config" port=8080' % iso(self.tr, True), "", "")]
    def alerts(self, t):
        return [lat_alert(self, "frontend", self.F + timedelta(seconds=100), t, 1.6), lat_alert(self, "recommendation", self.F + timedelta(seconds=130), t, 1.9)]
    def gt(self):
        cg, al, root = self.chaos_gt("networkchaos")
        g = cg + app("product-catalog") + app("recommendation") + app("frontend") + app("checkout")
        return dict(groups=g, aliases=aliases_of(g) + [al],
                    propagations=[(root, "product-catalog-service-1", "bandwidth 64kbps on product-catalog's egress", "responses slow (ListProducts)"),
                                  ("product-catalog-service-1", "recommendation-service-1", "ListProducts slow", "ListRecommendations slow"),
                                  ("product-catalog-service-1", "frontend-service-1", "ListProducts slow", "product list slow"),
                                  ("product-catalog-service-1", "checkout-service-1", "GetProduct slow", "PlaceOrder slow")],
                    fault=[dict(category="Chaos", condition="bandwidth limited", entity=dict(group_id=root, kind="Schedule", name=self.sched), fault_mechanism="chaos-mesh")],
                    alerts=[("frontend-service-1", "HighRequestLatency"), ("recommendation-service-1", "HighRequestLatency")])


class S7(Case):
    n, seed, start = 7, "s6-httpdelay-imgprov", T("2026-11-22T04:40:00Z")
    title = "a plain HTTPChaos image-provider-http-delay (no Schedule; target Request, GET /images/*, port 8081, delay 3s, duration 30m): every image request waits 3 s before reaching image-provider, whose own spans stay fast; decoy: frontend-proxy image bump 1 min after"
    enc = dict(traces="otlp", logs="text", events="watch", objects="list", alerts="amv2")
    spec = {"mode": "all", "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/name": "image-provider"}},
            "target": "Request", "port": 8081, "method": "GET", "path": "/images/*", "delay": "3s", "duration": "30m"}
    def setup(self):
        self.tr = self.F + timedelta(minutes=1)
        self.old = self.pods["frontend-proxy"][0]
        self.newp = self.new_pod("frontend-proxy", self.tr)
    def delay(self, caller, callee, op, t):
        if callee == "image-provider" and t >= self.F + timedelta(seconds=3):
            return 3000 + rng_at("hd", t.isoformat()).uniform(0, 15), 0
        return 0, 0
    def objects_at(self, t, objs):
        image_bump(self, objs, "frontend-proxy", t, self.tr, "ghcr.io/open-telemetry/demo:2.0.3-frontend-proxy")
        if t >= self.F:
            objs.append(plain_chaos(self, t, "HTTPChaos", "image-provider-http-delay", self.spec, self.F, "image-provider"))
    def events(self):
        api, nm = "chaos-mesh.org/v1alpha1", "image-provider-http-delay"
        tgt = "%s/%s" % (NS, self.pod_at("image-provider", self.F)[0])
        return rollout_events(self, "frontend-proxy", self.tr, self.old, self.newp) + [
            ev(self, self.F + timedelta(seconds=1), "HTTPChaos", nm, "FinalizerInited", "Finalizer has been inited", comp="initFinalizers", ns="chaos-mesh", api=api),
            ev(self, self.F + timedelta(seconds=1), "HTTPChaos", nm, "Updated", "Successfully update desiredPhase of resource", comp="desiredphase", ns="chaos-mesh", api=api),
            ev(self, self.F + timedelta(seconds=2), "HTTPChaos", nm, "Updated", "Successfully update records of resource", comp="records", ns="chaos-mesh", api=api),
            ev(self, self.F + timedelta(seconds=3), "HTTPChaos", nm, "Applied", "Successfully apply chaos for %s" % tgt, comp="records", ns="chaos-mesh", api=api)]
    def logs(self):
        out = [(self.tr + timedelta(seconds=3), "frontend-proxy", "INFO", "[%s][1][info][main] [source/server/server.cc:958] starting main dispatch loop" % self.tr.strftime("%Y-%m-%d %H:%M:%S.000"), "", "")]
        for s in self.spans:
            if s["svc"] == "frontend-proxy" and s["kind"] == "server" and s["attrs"].get("upstream_cluster") == "image-provider" and rng_at("al", s["span"]).random() < .5:
                out.append((s["start"] + timedelta(milliseconds=s["dur"]), "frontend-proxy", "INFO",
                            '[%s] "GET /images/RoofBinoculars.jpg HTTP/1.1" 200 - 0 88113 %d %d "-" "python-requests/2.32.3" "%s" "localhost:8080" "%s:8081"' %
                            (iso(s["start"], True), int(s["dur"]), int(s["dur"]) - 1, H("rid", s["trace"])[:32], ip_of("image-provider")), s["trace"], s["span"]))
        return out
    def alerts(self, t):
        return [lat_alert(self, "frontend-proxy", self.F + timedelta(seconds=90), t, 3.1)]
    def gt(self):
        g = [grp("image-provider-http-delay-httpchaos-1", "HTTPChaos", "image-provider-http-delay", ns="chaos-mesh", root=True)] + app("image-provider") + app("frontend-proxy")
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("image-provider-http-delay-httpchaos-1", "image-provider-service-1", "HTTP requests delayed 3 s", "GET /images slow"),
                                  ("image-provider-service-1", "frontend-proxy-service-1", "GET /images slow", "image responses slow")],
                    fault=[dict(category="Chaos", condition="HTTP delay injected", entity=dict(group_id="image-provider-http-delay-httpchaos-1", kind="HTTPChaos",
                                                                                              name="image-provider-http-delay"), fault_mechanism="chaos-mesh")],
                    alerts=[("frontend-proxy-service-1", "HighRequestLatency")])


class S8(ChaosCase):
    n, seed, start = 8, "s6-jvm-exception-ad", T("2026-11-22T09:05:00Z")
    load = 2.0
    title = "Chaos Mesh Schedule ad-jvm-exception (JVMChaos exception java.io.IOException(\"BOOM\") in oteldemo.AdService$AdServiceImpl.getAds, 90 s of every 2 min): GetAds fails UNKNOWN in bursts; decoy: frontend image bump 4 min before"
    enc = dict(traces="tsvraw", logs="otlp", events="list", objects="watch", alerts="webhook")
    sched, ckind, ckey, target, every, dur_s = "ad-jvm-exception", "JVMChaos", "jvmChaos", "ad", 120, 90
    cspec = {"action": "exception", "mode": "one", "class": "oteldemo.AdService$AdServiceImpl", "method": "getAds",
             "exception": "java.io.IOException(\"BOOM\")", "port": 9277,
             "selector": {"namespaces": [NS], "labelSelectors": {"opentelemetry.io/name": "ad"}}}
    def setup(self):
        self.tr = self.F - timedelta(minutes=4)
        self.old = self.pods["frontend"][0]
        self.newp = self.new_pod("frontend", self.tr)
    def server(self, svc, op, t):
        if svc == "ad" and self.active(t, lag=4):
            return 0, "java.io.IOException: BOOM"
        return 0, None
    def wrap(self, svc, op, child, err):
        if svc == "frontend" and child == "ad":
            return "2 UNKNOWN: " + err
        return err
    def objects_at(self, t, objs):
        self.chaos_objs(t, objs)
        image_bump(self, objs, "frontend", t, self.tr, "ghcr.io/open-telemetry/demo:2.0.3-frontend")
    def events(self):
        return self.chaos_events() + rollout_events(self, "frontend", self.tr, self.old, self.newp)
    def logs(self):
        out = [(self.tr + timedelta(seconds=5), "frontend", "INFO", '{"level":30,"msg":"Ready on http://0.0.0.0:8080"}', "", "")]
        k = 0
        while self.F + timedelta(seconds=k * self.every) < self.E:
            sp = self.F + timedelta(seconds=k * self.every + 3)
            out.append((sp, "ad", "INFO", "Byteman agent: rule ad-jvm-exception-%d installed for oteldemo.AdService$AdServiceImpl.getAds" % k, "", ""))
            k += 1
        for s in self.spans:
            if s["svc"] == "ad" and s["kind"] == "server" and s["status"] == "error":
                out.append((s["start"] + timedelta(milliseconds=s["dur"]), "ad", "WARN",
                            "Exception while executing runnable io.grpc.internal.ServerImpl$JumpToApplicationThreadServerStreamListener$1HalfClosed@%s\njava.io.IOException: BOOM\n\tat oteldemo.AdService$AdServiceImpl.getAds(AdService.java:171)\n\tat oteldemo.AdServiceGrpc$MethodHandlers.invoke(AdServiceGrpc.java:212)" % H("o", s["span"])[:7],
                            s["trace"], s["span"]))
        return out
    def alerts(self, t):
        return [err_alert(self, "ad", self.F + timedelta(seconds=75), t, 0.74), err_alert(self, "frontend", self.F + timedelta(seconds=100), t, 0.12)]
    def gt(self):
        cg, al, root = self.chaos_gt("jvmchaos")
        g = cg + app("ad") + app("frontend")
        return dict(groups=g, aliases=aliases_of(g) + [al],
                    propagations=[(root, "ad-service-1", "JVMChaos throws IOException in getAds", "GetAds fails UNKNOWN"),
                                  ("ad-service-1", "frontend-service-1", "GetAds fails", "GET /api/data 500")],
                    fault=[dict(category="Chaos", condition="JVM exception injected", entity=dict(group_id=root, kind="Schedule", name=self.sched), fault_mechanism="chaos-mesh")],
                    alerts=[("ad-service-1", "HighRequestErrorRate"), ("frontend-service-1", "HighRequestErrorRate")])


class S9(ChaosCase):
    n, seed, start = 9, "s6-container-kill-cart", T("2026-11-22T13:50:00Z")
    load = 1.5
    title = "Chaos Mesh Schedule cart-container-kill (PodChaos container-kill, every 2 min): cart's container restarts with growing back-off until it sits in CrashLoopBackOff; frontend/checkout cart calls refused in longer and longer gaps"
    enc = dict(traces="zipkin", logs="tsv", events="tsv", objects="tsvgz", alerts="prom")
    sched, ckind, ckey, target, every, dur_s = "cart-container-kill", "PodChaos", "podChaos", "cart", 120, 0
    cspec = {"action": "container-kill", "mode": "one", "containerNames": ["cart"],
             "selector": {"namespaces": [NS], "labelSelectors": {"opentelemetry.io/name": "cart"}}}
    def setup(self):
        self.kills, self.skip, self.down = [], [], []
        up, r, k = self.F, 0, 0
        while self.F + timedelta(seconds=k * self.every) < self.E:
            sp = self.F + timedelta(seconds=k * self.every + 2)
            if sp >= up:
                r += 1
                d = 2 if r == 1 else min(10 * 2 ** (r - 2), 300) + 2
                self.kills.append((sp, r, d))
                self.down.append((sp, sp + timedelta(seconds=d)))
                up = sp + timedelta(seconds=d)
            else:
                self.skip.append(k)
            k += 1
    def edge(self, caller, callee, op, t):
        if callee == "cart" and in_any(t, self.down):
            if caller == "frontend":
                return dict(fail="14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED %s:8080" % ip_of("cart"), dur=1.5, code=14)
            return dict(fail='rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp %s:8080: connect: connection refused"' % ip_of("cart"),
                        dur=1.1, code=14)
    def wrap(self, svc, op, child, err):
        if svc == "checkout" and child == "cart":
            return "failed to get user cart during checkout: " + err
        return err
    def objects_at(self, t, objs):
        self.chaos_objs(t, objs)
        ks = [x for x in self.kills if x[0] <= t]
        if ks:
            p = pods_of(objs, "cart")[0]
            cs = p["status"]["containerStatuses"][0]
            sp, r, d = ks[-1]
            cs["restartCount"] = r if t >= sp + timedelta(seconds=d) else r - 1
            cs["lastState"] = {"terminated": {"exitCode": 137, "reason": "Error", "startedAt": iso(ks[-2][0] + timedelta(seconds=ks[-2][2]) if len(ks) > 1 else self.pods["cart"][0][2]),
                                              "finishedAt": iso(sp), "containerID": "containerd://" + H("cc", r)[:64]}}
            if t < sp + timedelta(seconds=d) and r > 1:
                cs["state"] = {"waiting": {"reason": "CrashLoopBackOff", "message": "back-off %ds restarting failed container=cart pod=%s_%s(%s)" % (d - 2, p["metadata"]["name"], NS, p["metadata"]["uid"])}}
                cs["ready"] = False
                cs["started"] = False
                for cd in p["status"]["conditions"]:
                    if cd["type"] in ("Ready", "ContainersReady"):
                        cd["status"] = "False"
            else:
                cs["state"] = {"running": {"startedAt": iso(sp + timedelta(seconds=d))}}
    def events(self):
        out = self.chaos_events(skip=self.skip)
        p = self.pods["cart"][0]
        for sp, r, d in self.kills:
            if r > 1:
                out.append(ev(self, sp + timedelta(seconds=1), "Pod", p[0], "BackOff", "Back-off restarting failed container cart in pod %s_%s(%s)" % (p[0], NS, uid(self.n, "pod", p[0])),
                              typ="Warning", host=p[1], count=r - 1, first=self.kills[1][0] + timedelta(seconds=1)))
            up = sp + timedelta(seconds=d)
            out.append(ev(self, up - timedelta(seconds=1), "Pod", p[0], "Pulled", 'Container image "ghcr.io/open-telemetry/demo:%s-cart" already present on machine' % VER,
                          host=p[1], count=r + 1, first=p[2]))
            out.append(ev(self, up - timedelta(seconds=1), "Pod", p[0], "Created", "Created container cart", host=p[1], count=r + 1, first=p[2]))
            out.append(ev(self, up, "Pod", p[0], "Started", "Started container cart", host=p[1], count=r + 1, first=p[2]))
        return out
    def logs(self):
        out = []
        for sp, r, d in self.kills:
            out.append((sp + timedelta(seconds=d, milliseconds=900), "cart", "INFO", "Now listening on: http://[::]:8080", "", ""))
            out.append((sp + timedelta(seconds=d, milliseconds=950), "cart", "INFO", "Application started. Press Ctrl+C to shut down.", "", ""))
        for s in self.spans:
            if s["svc"] == "frontend" and s["kind"] == "server" and s["status"] == "error":
                out.append((s["start"] + timedelta(milliseconds=s["dur"]), "frontend", "ERROR", "Error: " + s["msg"] if s["msg"] else "Error: 14 UNAVAILABLE", s["trace"], s["span"]))
        return out
    def alerts(self, t):
        p = self.pods["cart"][0][0]
        return [err_alert(self, "frontend", self.F + timedelta(seconds=280), t, 0.08),
                alert("KubePodCrashLooping", {"namespace": NS, "pod": p, "container": "cart", "job": "kube-state-metrics"}, self.kills[2][0] + timedelta(seconds=2), t, 15,
                      'Pod %s/%s (cart) is in waiting state (reason: "CrashLoopBackOff").' % (NS, p), 1)]
    def gt(self):
        cg, al, root = self.chaos_gt("podchaos")
        g = cg + [grp("cart-deployment-1", "Deployment", "cart")] + app("cart") + app("frontend") + app("checkout")
        return dict(groups=g, aliases=aliases_of(g) + [al],
                    propagations=[(root, "cart-pod-1", "container-kill every 2 min", "restarts, CrashLoopBackOff"),
                                  ("cart-pod-1", "cart-service-1", "container down", "connection refused"),
                                  ("cart-service-1", "frontend-service-1", "cart unreachable", "cart pages 500"),
                                  ("cart-service-1", "checkout-service-1", "cart unreachable", "PlaceOrder fails")],
                    fault=[dict(category="Chaos", condition="container killed", entity=dict(group_id=root, kind="Schedule", name=self.sched), fault_mechanism="chaos-mesh")],
                    alerts=[("frontend-service-1", "HighRequestErrorRate"), ("cart-pod-1", "KubePodCrashLooping")])


class S10(Case):
    n, seed, start = 10, "s6-selector-rec", T("2026-11-22T18:25:00Z")
    title = "Service recommendation's selector gains app.kubernetes.io/version: 2.0.3 (kubectl edit), a label its pods do not carry: no endpoints, pods Ready; frontend's ListRecommendations refused; decoy: recommendation rolled out to 2.0.3 3 min before"
    enc = dict(traces="otlpl", logs="ecs", events="list", objects="watch", alerts="amgroups")
    def setup(self):
        self.tr = self.F - timedelta(minutes=3)
        self.old = self.pods["recommendation"][0]
        self.newp = self.new_pod("recommendation", self.tr)
    def edge(self, caller, callee, op, t):
        if callee == "recommendation" and t >= self.F + timedelta(seconds=2):
            return dict(fail="14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED %s:8080 (%s)" % (ip_of("recommendation"), iso(t)), dur=1.8, code=14)
    def objects_at(self, t, objs):
        image_bump(self, objs, "recommendation", t, self.tr, "ghcr.io/open-telemetry/demo:2.0.3-recommendation")
        if t >= self.tr:
            d = dep(objs, "recommendation")
            d["metadata"]["labels"]["app.kubernetes.io/version"] = "2.0.3"
        if t >= self.F:
            s = find(objs, "Service", "recommendation")
            s["spec"]["selector"] = {"opentelemetry.io/name": "recommendation", "app.kubernetes.io/version": "2.0.3"}
            s["metadata"]["labels"]["app.kubernetes.io/version"] = "2.0.3"
            s["metadata"]["resourceVersion"] = "829944"
            s["metadata"]["managedFields"] = [{"manager": "helm", "operation": "Update", "apiVersion": "v1", "time": s["metadata"]["creationTimestamp"],
                                               "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:ports": {}, "f:selector": {}}}},
                                              {"manager": "kubectl-edit", "operation": "Update", "apiVersion": "v1", "time": iso(self.F), "fieldsType": "FieldsV1",
                                               "fieldsV1": {"f:metadata": {"f:labels": {"f:app.kubernetes.io/version": {}}},
                                                            "f:spec": {"f:selector": {"f:app.kubernetes.io/version": {}}}}}]
    def events(self):
        return rollout_events(self, "recommendation", self.tr, self.old, self.newp)
    def logs(self):
        out = [(self.tr + timedelta(seconds=4), "recommendation", "INFO", "Recommendation service started on port 8080", "", "")]
        for s in self.spans:
            if s["svc"] == "frontend" and s["kind"] == "server" and s["status"] == "error":
                out.append((s["start"] + timedelta(milliseconds=s["dur"]), "frontend", "ERROR", "Error: " + s["msg"], s["trace"], s["span"]))
        return out
    def alerts(self, t):
        return [err_alert(self, "frontend", self.F + timedelta(seconds=80), t, 0.16),
                custom_alert("NoRequestsReceived", {"service_name": "recommendation"}, self.F + timedelta(seconds=120), t, 2,
                             "recommendation has received no requests for 2 minutes", 0)]
    def gt(self):
        g = [grp("recommendation-service-1", "Service", "recommendation", root=True)] + app("frontend")
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("recommendation-service-1", "frontend-service-1", "selector matches no pod: no endpoints", "ListRecommendations refused, 500")],
                    fault=[dict(category="Change", condition="Service selector changed", entity=dict(group_id="recommendation-service-1", kind="Service", name="recommendation"),
                                fault_mechanism="custom")],
                    alerts=[("frontend-service-1", "HighRequestErrorRate"), ("recommendation-service-1", "NoRequestsReceived")])


class S11(Case):
    n, seed, start = 11, "s6-ephemeral-quote", T("2026-11-22T22:55:00Z")
    load = 2.5
    title = "quote rolled out (kubectl edit) with limits.ephemeral-storage 4Mi: PHP's session/cache files exceed it ~45 s after each start, the kubelet evicts the pod (no node pressure), the ReplicaSet replaces it, again and again; shipping->quote refused in the gaps"
    enc = dict(traces="tsvcsv", logs="fluentbit", events="watch", objects="tsv", alerts="webhook")
    def setup(self):
        self.old = self.pods["quote"][0]
        p = self.new_pod("quote", self.F)
        self.evicted, self.gaps = [], []
        t = self.F
        while True:
            te = t + timedelta(seconds=44 + rng_at("ev", t.isoformat()).uniform(0, 8))
            if te >= self.E:
                break
            np = self.new_pod("quote", te + timedelta(seconds=1), new_hash=False)
            self.evicted.append((p, te))
            self.gaps.append((te, te + timedelta(seconds=9)))
            p, t = np, te + timedelta(seconds=1)
        self.first_gap = (self.F + timedelta(seconds=1), self.F + timedelta(seconds=3))
    def edge(self, caller, callee, op, t):
        if callee == "quote" and in_any(t, self.gaps):
            return dict(fail="error sending request for url (http://quote:8080/getquote): error trying to connect: tcp connect error: Connection refused (os error 111)", dur=1.4)
    def wrap(self, svc, op, child, err):
        if svc == "checkout" and child == "shipping":
            return "shipping quote failure: failed POST to shipping service: " + err
        return err
    def objects_at(self, t, objs):
        d = dep(objs, "quote")
        if t >= self.F:
            cont(d)["resources"] = {"limits": {"memory": "40Mi", "ephemeral-storage": "4Mi"}, "requests": {"ephemeral-storage": "2Mi"}}
            mf_add(d, "kubectl-edit", self.F, {"f:spec": {"f:template": {"f:spec": {"f:containers": {'k:{"name":"quote"}': {"f:resources": {"f:limits": {"f:ephemeral-storage": {}},
                                                                                                                                   "f:requests": {".": {}, "f:ephemeral-storage": {}}}}}}}}})
            for p in pods_of(objs, "quote"):
                if p["metadata"]["labels"]["pod-template-hash"] == self.hashes["quote"][-1]:
                    p["spec"]["containers"][0]["resources"] = dict(cont(d)["resources"])
        for p, te in self.evicted:
            if te <= t and t - te < timedelta(minutes=30):
                o = pod(self, "quote", p, t)
                o["spec"]["containers"][0]["resources"] = dict(cont(d)["resources"])
                o["status"] = {"phase": "Failed", "reason": "Evicted",
                               "message": "Pod ephemeral local storage usage exceeds the total limit of containers 4Mi. ",
                               "startTime": iso(p[2]), "qosClass": "Burstable", "hostIP": o["status"]["hostIP"],
                               "conditions": [{"type": "DisruptionTarget", "status": "True", "reason": "TerminationByKubelet",
                                               "message": "Pod ephemeral local storage usage exceeds the total limit of containers 4Mi. ", "lastTransitionTime": iso(te)},
                                              {"type": "Ready", "status": "False", "reason": "PodFailed", "lastTransitionTime": iso(te)}],
                               "containerStatuses": [{"name": "quote", "ready": False, "restartCount": 0, "started": False, "image": cont(d)["image"],
                                                      "imageID": "", "state": {"terminated": {"exitCode": 137, "reason": "ContainerStatusUnknown",
                                                                                              "message": "The container could not be located when the pod was terminated",
                                                                                              "startedAt": iso(p[2] + timedelta(seconds=3)), "finishedAt": iso(te)}}}]}
                objs.append(o)
    def events(self):
        new = self.evicted[0][0] if self.evicted else self.pods["quote"][-1]
        out = [ev(self, self.F, "Deployment", "quote", "ScalingReplicaSet", "Scaled up replica set quote-%s from 0 to 1" % self.hashes["quote"][-1], comp="deployment-controller"),
               ev(self, self.F, "ReplicaSet", "quote-%s" % self.hashes["quote"][-1], "SuccessfulCreate", "Created pod: %s" % new[0], comp="replicaset-controller"),
               ev(self, self.F + timedelta(seconds=6), "Deployment", "quote", "ScalingReplicaSet", "Scaled down replica set quote-%s from 1 to 0" % self.hashes["quote"][0], comp="deployment-controller"),
               ev(self, self.F + timedelta(seconds=6), "Pod", self.old[0], "Killing", "Stopping container quote", host=self.old[1])]
        out += pod_start_events(self, "quote", new)
        for i, (p, te) in enumerate(self.evicted):
            out.append(ev(self, te, "Pod", p[0], "Evicted", "Pod ephemeral local storage usage exceeds the total limit of containers 4Mi. ", typ="Warning", host=p[1]))
            out.append(ev(self, te, "Pod", p[0], "Killing", "Stopping container quote", host=p[1]))
            if i + 1 < len(self.evicted):
                nxt = self.evicted[i + 1][0]
            else:
                nxt = self.pods["quote"][-1]
            out.append(ev(self, te + timedelta(seconds=1), "ReplicaSet", "quote-%s" % self.hashes["quote"][-1], "SuccessfulCreate", "Created pod: %s" % nxt[0], comp="replicaset-controller"))
            out += pod_start_events(self, "quote", nxt)
        return out
    def logs(self):
        out = []
        for p, te in self.evicted:
            out.append((p[2] + timedelta(seconds=3), "quote", "INFO", "[%s] Slim Application started, listening on 0.0.0.0:8080" % iso(p[2]), "", ""))
            out.append((te - timedelta(seconds=2), "quote", "WARN", "PHP Warning:  session_write_close(): Failed to write session data (files). Please verify that the current setting of session.save_path is correct (/tmp) in /var/www/app/routes.php on line 41", "", ""))
        for s in self.spans:
            if s["svc"] == "shipping" and s["kind"] == "server" and s["status"] == "error":
                out.append((s["start"] + timedelta(milliseconds=s["dur"]), "shipping", "ERROR", json.dumps({"timestamp": iso(s["start"], True), "level": "ERROR",
                            "fields": {"message": "Failed to get quote: %s" % s["msg"]}, "target": "shipping::quote"}), s["trace"], s["span"]))
        return out
    def alerts(self, t):
        return [err_alert(self, "shipping", self.F + timedelta(seconds=130), t, 0.13), err_alert(self, "checkout", self.F + timedelta(seconds=160), t, 0.12)]
    def gt(self):
        g = [grp("quote-deployment-1", "Deployment", "quote", root=True)] + app("quote") + app("shipping") + app("checkout") + app("frontend")
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("quote-deployment-1", "quote-pod-1", "ephemeral-storage limit 4Mi", "pods evicted every ~45 s"),
                                  ("quote-pod-1", "quote-service-1", "no ready pod in the gaps", "connection refused"),
                                  ("quote-service-1", "shipping-service-1", "getquote refused", "GetQuote fails"),
                                  ("shipping-service-1", "checkout-service-1", "GetQuote fails", "PlaceOrder fails"),
                                  ("shipping-service-1", "frontend-service-1", "GetQuote fails", "GET /api/shipping 500")],
                    fault=[dict(category="Change", condition="ephemeral-storage limit too low", entity=dict(group_id="quote-deployment-1", kind="Deployment", name="quote"),
                                fault_mechanism="custom")],
                    alerts=[("shipping-service-1", "HighRequestErrorRate"), ("checkout-service-1", "HighRequestErrorRate")])


class S12(Case):
    n, seed, start = 12, "s6-liveness-payment", T("2026-11-23T03:30:00Z")
    load = 2.0
    title = "payment rolled out by helm with a livenessProbe tcpSocket on 50051 (the demo's old port; it listens on 8080): each container is killed ~45 s after it starts, restarts with growing back-off (CrashLoopBackOff); charges refused in the gaps; decoys: a description-only edit of flagd-config 2 min before, payment's steady card errors"
    enc = dict(traces="otlp", logs="ecs", events="eventsv1", objects="watch", alerts="prom")
    def setup(self):
        self.cm_t = self.F - timedelta(minutes=2)
        self.old = self.pods["payment"][0]
        self.newp = self.new_pod("payment", self.F)
        self.cycles, self.down = [], []
        up, r = self.F + timedelta(seconds=5), 0
        while up < self.E:
            kill = up + timedelta(seconds=45)
            r += 1
            d = 2 if r == 1 else min(10 * 2 ** (r - 2), 300) + 2
            self.cycles.append((up, kill, r, d))
            self.down.append((kill, kill + timedelta(seconds=d)))
            up = kill + timedelta(seconds=d)
    def edge(self, caller, callee, op, t):
        if callee == "payment" and (in_any(t, self.down) or self.F <= t < self.F + timedelta(seconds=0)):
            return dict(fail='connection error: desc = "transport: Error while dialing: dial tcp %s:8080: connect: connection refused"' % ip_of("payment"), dur=1.2, code=14)
    def wrap(self, svc, op, child, err):
        if svc == "checkout" and child == "payment":
            return "failed to charge card: could not charge the card: rpc error: code = Unavailable desc = " + err
        return err
    def probe(self):
        return {"tcpSocket": {"port": 50051}, "initialDelaySeconds": 15, "periodSeconds": 10, "timeoutSeconds": 1, "failureThreshold": 3, "successThreshold": 1}
    def objects_at(self, t, objs):
        flag_cm(self, objs, t, self.cm_t, lambda f: f["imageSlowLoad"].__setitem__("description", "slow loading images in the frontend (owner: web-team)"),
                style="pretty2", manager="kubectl-edit")
        if t >= self.F:
            d = dep(objs, "payment")
            cont(d)["livenessProbe"] = self.probe()
            mf_add(d, "helm", self.F, {"f:spec": {"f:template": {"f:spec": {"f:containers": {'k:{"name":"payment"}': {"f:livenessProbe": {}}}}}}})
            for p in pods_of(objs, "payment"):
                if p["metadata"]["name"] == self.newp[0]:
                    p["spec"]["containers"][0]["livenessProbe"] = self.probe()
                    cs = p["status"]["containerStatuses"][0]
                    done = [c for c in self.cycles if c[1] <= t]
                    if done:
                        up, kill, r, d = done[-1]
                        cs["restartCount"] = r if t >= kill + timedelta(seconds=d) else r - 1
                        cs["lastState"] = {"terminated": {"exitCode": 143, "reason": "Error", "startedAt": iso(up), "finishedAt": iso(kill),
                                                          "containerID": "containerd://" + H("pc", r)[:64]}}
                        if t < kill + timedelta(seconds=d) and r > 1:
                            cs["state"] = {"waiting": {"reason": "CrashLoopBackOff",
                                                       "message": "back-off %ds restarting failed container=payment pod=%s_%s(%s)" % (d - 2, p["metadata"]["name"], NS, p["metadata"]["uid"])}}
                            cs["ready"] = cs["started"] = False
                            for cd in p["status"]["conditions"]:
                                if cd["type"] in ("Ready", "ContainersReady"):
                                    cd["status"] = "False"
                        else:
                            cs["state"] = {"running": {"startedAt": iso(kill + timedelta(seconds=d))}}
    def events(self):
        out = rollout_events(self, "payment", self.F, self.old, self.newp)
        p = self.newp
        ip = "10.244.%d.%d" % (NODES.index(p[1]), int(H(p[0])[:2], 16) % 250 + 2)
        n_unh = 0
        for i, (up, kill, r, d) in enumerate(self.cycles):
            for j in range(3):
                n_unh += 1
                out.append(ev(self, kill - timedelta(seconds=20 - 10 * j), "Pod", p[0], "Unhealthy", "Liveness probe failed: dial tcp %s:50051: connect: connection refused" % ip,
                              typ="Warning", host=p[1], count=n_unh, first=self.cycles[0][1] - timedelta(seconds=20)))
            out.append(ev(self, kill, "Pod", p[0], "Killing", "Container payment failed liveness probe, will be restarted", host=p[1], count=r, first=self.cycles[0][1]))
            if r > 1:
                out.append(ev(self, kill + timedelta(seconds=1), "Pod", p[0], "BackOff", "Back-off restarting failed container payment in pod %s_%s(%s)" % (p[0], NS, uid(self.n, "pod", p[0])),
                              typ="Warning", host=p[1], count=r - 1, first=self.cycles[1][1] + timedelta(seconds=1)))
            if kill + timedelta(seconds=d) < self.E:
                out.append(ev(self, kill + timedelta(seconds=d - 1), "Pod", p[0], "Pulled", 'Container image "ghcr.io/open-telemetry/demo:%s-payment" already present on machine' % VER,
                              host=p[1], count=r + 1, first=p[2]))
                out.append(ev(self, kill + timedelta(seconds=d), "Pod", p[0], "Started", "Started container payment", host=p[1], count=r + 1, first=p[2]))
        return out
    def logs(self):
        out = flag_logs(self, "imageSlowLoad", self.cm_t + timedelta(seconds=2))
        for (up, kill, r, d) in self.cycles:
            out.append((up, "payment", "INFO", json.dumps({"level": 30, "time": ns_of(up) // 1000000, "pid": 1, "hostname": self.newp[0], "msg": "payment gRPC server started on port 8080"}), "", ""))
            out.append((kill, "payment", "INFO", json.dumps({"level": 30, "time": ns_of(kill) // 1000000, "pid": 1, "hostname": self.newp[0], "msg": "SIGTERM received, shutting down"}), "", ""))
        return out
    def alerts(self, t):
        return [err_alert(self, "checkout", self.F + timedelta(seconds=150), t, 0.22),
                alert("KubePodCrashLooping", {"namespace": NS, "pod": self.newp[0], "container": "payment", "job": "kube-state-metrics"}, self.cycles[1][1] + timedelta(seconds=2), t, 15,
                      'Pod %s/%s (payment) is in waiting state (reason: "CrashLoopBackOff").' % (NS, self.newp[0]), 1)]
    def gt(self):
        g = [grp("payment-deployment-1", "Deployment", "payment", root=True)] + app("payment") + app("checkout") + app("frontend")
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("payment-deployment-1", "payment-pod-1", "livenessProbe on port 50051", "container killed every ~45 s, CrashLoopBackOff"),
                                  ("payment-pod-1", "payment-service-1", "container down", "connection refused"),
                                  ("payment-service-1", "checkout-service-1", "Charge refused", "PlaceOrder fails"),
                                  ("checkout-service-1", "frontend-service-1", "PlaceOrder fails", "POST /api/checkout 500")],
                    fault=[dict(category="Change", condition="liveness probe on a wrong port", entity=dict(group_id="payment-deployment-1", kind="Deployment", name="payment"),
                                fault_mechanism="custom")],
                    alerts=[("checkout-service-1", "HighRequestErrorRate"), ("payment-pod-1", "KubePodCrashLooping")])


class S13(Case):
    n, seed, start = 13, "s6-kafka-maxbytes", T("2026-11-23T08:05:00Z")
    load = 2.0
    title = "kafka rolled out (kubectl set env) with KAFKA_MESSAGE_MAX_BYTES=256: after the broker restarts every order publish is rejected (MESSAGE_TOO_LARGE); checkout tolerates it (ERROR logs, failing producer spans), accounting and fraud-detection receive nothing; decoy: checkout image bump 3 min before"
    enc = dict(traces="jaeger", logs="text", events="tsv", objects="list", alerts="amv2")
    def setup(self):
        self.tr = self.F - timedelta(minutes=3)
        self.cold = self.pods["checkout"][0]
        self.cnew = self.new_pod("checkout", self.tr)
        self.kold = self.pods["kafka"][0]
        self.knew = self.new_pod("kafka", self.F)
        self.up = self.F + timedelta(seconds=34)
    def server(self, svc, op, t):
        if svc == "kafka" and self.F + timedelta(seconds=3) <= t < self.up:
            return 0, "kafka: client has run out of available brokers to talk to: dial tcp %s:9092: connect: connection refused" % ip_of("kafka")
        if svc == "kafka" and t >= self.up:
            return 0, "kafka server: Message was too large, server rejected it to avoid allocation error"
        return 0, None
    def objects_at(self, t, objs):
        image_bump(self, objs, "checkout", t, self.tr, "ghcr.io/open-telemetry/demo:2.0.3-checkout")
        if t >= self.F:
            d = dep(objs, "kafka")
            cont(d)["env"].append({"name": "KAFKA_MESSAGE_MAX_BYTES", "value": "256"})
            mf_add(d, "kubectl-set", self.F, {"f:spec": {"f:template": {"f:spec": {"f:containers": {'k:{"name":"kafka"}': {"f:env": {'k:{"name":"KAFKA_MESSAGE_MAX_BYTES"}': {".": {}, "f:name": {}, "f:value": {}}}}}}}}})
            for p in pods_of(objs, "kafka"):
                if p["metadata"]["name"] == self.knew[0]:
                    p["spec"]["containers"][0]["env"].append({"name": "KAFKA_MESSAGE_MAX_BYTES", "value": "256"})
    def events(self):
        return rollout_events(self, "checkout", self.tr, self.cold, self.cnew) + rollout_events(self, "kafka", self.F, self.kold, self.knew)
    def logs(self):
        out = [(self.tr + timedelta(seconds=3), "checkout", "INFO", 'time=%s level=INFO msg="service config" port=8080' % iso(self.tr, True), "", ""),
               (self.F + timedelta(seconds=30), "kafka", "INFO", "[%s] INFO [KafkaRaftServer nodeId=1] Kafka Server started (kafka.server.KafkaRaftServer)" % (self.F + timedelta(seconds=30)).strftime("%Y-%m-%d %H:%M:%S,%f")[:-3], "", ""),
               (self.F + timedelta(seconds=28), "kafka", "INFO", "[%s] INFO KafkaConfig values: \n\tmessage.max.bytes = 256\n\tnode.id = 1\n\tprocess.roles = [broker, controller]" % (self.F + timedelta(seconds=28)).strftime("%Y-%m-%d %H:%M:%S,%f")[:-3], "", "")]
        for s in self.spans:
            if s["svc"] == "checkout" and s["kind"] == "producer" and s["status"] == "error":
                out.append((s["start"] + timedelta(milliseconds=s["dur"] + 2), "checkout", "ERROR",
                            'time=%s level=ERROR msg="Failed to write message to topic orders" error="%s"' % (iso(s["start"], True), s["msg"]), s["trace"], s["parent"]))
        return out
    def alerts(self, t):
        return [custom_alert("NoRequestsReceived", {"service_name": "accounting"}, self.F + timedelta(seconds=150), t, 2, "accounting has received no requests for 2 minutes", 0),
                custom_alert("NoRequestsReceived", {"service_name": "fraud-detection"}, self.F + timedelta(seconds=160), t, 2, "fraud-detection has received no requests for 2 minutes", 0)]
    def gt(self):
        g = [grp("kafka-deployment-1", "Deployment", "kafka", root=True)] + app("kafka") + app("checkout") + \
            [grp("accounting-deployment-1", "Deployment", "accounting"), grp("fraud-detection-deployment-1", "Deployment", "fraud-detection")]
        return dict(groups=g, aliases=aliases_of(g),
                    propagations=[("kafka-deployment-1", "kafka-pod-1", "message.max.bytes 256", "broker rejects every order message"),
                                  ("kafka-pod-1", "kafka-service-1", "rejects", "publish fails MESSAGE_TOO_LARGE"),
                                  ("kafka-service-1", "checkout-service-1", "publish fails", "orders not published (ERROR logs)"),
                                  ("kafka-service-1", "accounting-deployment-1", "no messages", "no orders consumed"),
                                  ("kafka-service-1", "fraud-detection-deployment-1", "no messages", "no orders consumed")],
                    fault=[dict(category="Change", condition="broker message.max.bytes too small", entity=dict(group_id="kafka-deployment-1", kind="Deployment", name="kafka"),
                                fault_mechanism="custom")],
                    alerts=[("accounting-deployment-1", "NoRequestsReceived"), ("fraud-detection-deployment-1", "NoRequestsReceived")])


CASES = [S1, S2, S3, S4, S5, S6, S7, S8, S9, S10, S11, S12, S13]


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
