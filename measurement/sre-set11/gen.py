#!/usr/bin/env python3
"""sre-set10 (library part copied unchanged from measurement/sre-set9/gen.py, itself from sets 4-8; the 13 cases after
"the cases (sre-set11)" are new): held-out SRE incident snapshots of the OpenTelemetry demo with ITBench-style ground truth.

Usage: python3 gen.py OUTDIR      (stdlib only, deterministic)
Writes OUTDIR/Scenario-<N>/... and OUTDIR-answer_key.json beside OUTDIR (hide it and every ground_truth.yaml from agents)."""
import gzip, hashlib, json, math, os, random, sys
from datetime import datetime, timedelta, timezone

from datetime import datetime, timedelta, timezone

NS = "otel-demo"
SAFE = "bcdfghjklmnpqrstvwxz2456789"
UTC = timezone.utc
VER = "2.1.3"

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
    "product-reviews": (8080, "python", "worker-3", "150Mi", {"PRODUCT_REVIEWS_PORT": "8080", "LLM_BASE_URL": "http://llm:8000/v1", "LLM_MODEL": "astronomy-llm",
                                                                "OPENAI_API_KEY": "dummy", "DB_CONNECTION_STRING": "host=postgresql user=otelu dbname=otel",
                                                                "FLAGD_HOST": "flagd", "FLAGD_PORT": "8013"}),
    "llm":             (8000, "python", "worker-1", "120Mi", {"LLM_PORT": "8000", "FLAGD_HOST": "flagd", "FLAGD_PORT": "8013"}),
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
            return "The credit card (ending %s) expired on %d/2024." % (rng.choice(["0154", "4242", "7777"]), rng.randint(1, 12))
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
    "failedReadinessProbe": ("Readiness probe failure for cart service", {"on": True, "off": False}),
    "llmInaccurateResponse": ("LLM returns an inaccurate product summary for product ID L9ECAV7KIM", {"on": True, "off": False}),
    "llmRateLimitError": ("LLM intermittently returns a RateLimitError with HTTP status code 429", {"on": True, "off": False}),
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
    ("product-reviews", "GetProductReviews"): (6.0, "grpc", "oteldemo.ProductReviewService"),
    ("product-reviews", "AskProductAIAssistant"): (40.0, "grpc", "oteldemo.ProductReviewService"),
    ("llm", "POST /v1/chat/completions"): (650.0, "http", None),
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
    (1.0, "GET /api/product-reviews/[productId]", [("product-reviews", "GetProductReviews", [])]),
    (0.4, "POST /api/product-ask-ai-assistant/[productId]", [("product-reviews", "AskProductAIAssistant", [("llm", "POST /v1/chat/completions", [])])]),
]
OPTIONAL = {("checkout", "email"), ("checkout", "kafka")}   # failures the caller tolerates (logs only)
PRODUCTS = ["OLJCESPC7Z", "66VCHSJNUP", "1YMWWN1N4O", "L9ECAV7KIM", "2ZYFJ3GM2N", "0PUK6V6EV0", "LS4PSXUNUM", "9SIQT8TOJO", "6E92ZMYYFZ", "HQTGWGPNH4"]


class Span(dict):
    pass


def gen_traces(c):
    rng = random.Random(int(H("traces", c.seed)[:12], 16))
    spans = []
    t = c.start + timedelta(seconds=rng.uniform(0, 3))
    flows = getattr(c, "flows", FLOWS)
    tot = sum(w for w, _, _ in flows)
    while t < c.E:
        w = rng.uniform(0, tot)
        for fw, route, kids in flows:
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
            o["metadata"]["resourceVersion"] = str(700000 + c.n * 13 + int((t_on - c.start).total_seconds()))
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



# ================================================================ sre-set7 helpers
def refused(caller, callee, t):
    ip = ip_of(callee)
    port = SVC[callee][0]
    if SVC[caller][1] == "go":
        return 'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp %s:%d: connect: connection refused"' % (ip, port)
    if SVC[caller][1] == "python":
        return ('<_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.UNAVAILABLE\n\tdetails = "failed to connect to all addresses; '
                'last error: UNKNOWN: ipv4:%s:%d: Failed to connect to remote host: Connection refused"\n>' % (ip, port))
    return "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED %s:%d (%s)" % (ip, port, iso(t))


def timed_out(caller, callee, t, port=None):
    ip = ip_of(callee)
    port = port or SVC[callee][0]
    if SVC[caller][1] == "go":
        return 'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp %s:%d: i/o timeout"' % (ip, port)
    if SVC[caller][1] == "python":
        return ('<_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.UNAVAILABLE\n\tdetails = "failed to connect to all addresses; '
                'last error: UNKNOWN: ipv4:%s:%d: Failed to connect to remote host: Connection timed out"\n>' % (ip, port))
    return "14 UNAVAILABLE: No connection established. Last error: connect ETIMEDOUT %s:%d (%s)" % (ip, port, iso(t))


def caller_error_logs(c, spans, callee, svcs=("frontend", "checkout", "recommendation")):
    out = []
    for s in spans:
        if s["kind"] != "client" or s["status"] != "error" or s["svc"] not in svcs:
            continue
        if s["attrs"].get("server.address") != callee:
            continue
        t = s["start"] + timedelta(milliseconds=s["dur"] + 1)
        if s["svc"] == "checkout":
            txt = 'time=%s level=ERROR msg="failed to prepare order" err="%s"' % (iso(t, True), s["msg"].replace('"', "'"))
        elif s["svc"] == "recommendation":
            txt = "ERROR:grpc._server:Exception calling application: %s" % s["msg"].split("\n")[0]
        else:
            txt = json.dumps({"level": "error", "time": ns_of(t) // 1000000, "msg": "Error: " + s["msg"], "pid": 18})
        out.append((t, s["svc"], "ERROR", txt, s["trace"], s["span"]))
    return out


def set_pod_ready(p, ready, since):
    cs = p["status"]["containerStatuses"][0]
    cs["ready"] = ready
    for cd in p["status"]["conditions"]:
        if cd["type"] in ("Ready", "ContainersReady"):
            cd["status"] = "True" if ready else "False"
            cd["lastTransitionTime"] = iso(since)
            if not ready:
                cd["reason"] = "ContainersNotReady"
                cd["message"] = "containers with unready status: [%s]" % cs["name"]


def set_dep_unavailable(d, t):
    st = d["status"]
    st["readyReplicas"] = 0
    st["availableReplicas"] = 0
    st["unavailableReplicas"] = 1
    st["conditions"][0] = {"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable",
                           "message": "Deployment does not have minimum availability.", "lastUpdateTime": iso(t), "lastTransitionTime": iso(t)}


OLD_FLAGS = {  # the demo's 1.x flag names (chart 0.32-0.33 era ConfigMap opentelemetry-demo-flagd-config)
    "adServiceFailure": ("Fail ad service", {"on": True, "off": False}),
    "adServiceManualGc": ("Triggers full manual garbage collections in the ad service", {"on": True, "off": False}),
    "adServiceHighCpu": ("Triggers high cpu load in the ad service", {"on": True, "off": False}),
    "cartServiceFailure": ("Fail cart service", {"on": True, "off": False}),
    "productCatalogFailure": ("Fail product catalog service on a specific product", {"on": True, "off": False}),
    "recommendationServiceCacheFailure": ("Fail recommendation service cache", {"on": True, "off": False}),
    "paymentServiceFailure": ("Fail payment service charge requests", {"on": True, "off": False}),
    "paymentServiceUnreachable": ("Payment service is unavailable", {"on": True, "off": False}),
    "loadgeneratorFloodHomepage": ("Flood the frontend with a large amount of requests.", {"on": 100, "off": 0}),
    "kafkaQueueProblems": ("Overloads Kafka queue while simultaneously introducing a consumer side delay leading to a lag spike", {"on": 100, "off": 0}),
    "imageSlowLoad": ("slow loading images in the frontend", {"10sec": 10000, "5sec": 5000, "off": 0}),
}


def old_flag_cm(c, t, t_on):
    flags = {}
    for k, (desc, var) in OLD_FLAGS.items():
        flags[k] = {"description": desc, "state": "ENABLED", "variants": var, "defaultVariant": "off"}
    # pre-staged weeks ago: the high-CPU flag set to "on" but kept DISABLED (flagd treats a disabled flag as absent)
    flags["adServiceHighCpu"]["defaultVariant"] = "on"
    flags["adServiceHighCpu"]["state"] = "ENABLED" if t >= t_on else "DISABLED"
    created = c.start - timedelta(days=41, hours=2)
    mf = [{"manager": "helm", "operation": "Update", "apiVersion": "v1", "time": iso(created), "fieldsType": "FieldsV1",
           "fieldsV1": {"f:data": {".": {}, "f:demo.flagd.json": {}}, "f:metadata": {"f:labels": {}}}},
          {"manager": "kubectl-edit", "operation": "Update", "apiVersion": "v1", "time": iso(c.start - timedelta(days=17, hours=5)), "fieldsType": "FieldsV1",
           "fieldsV1": {"f:data": {"f:demo.flagd.json": {}}}}]
    if t >= t_on:
        mf.append({"manager": "kubectl-patch", "operation": "Update", "apiVersion": "v1", "time": iso(t_on), "fieldsType": "FieldsV1",
                   "fieldsV1": {"f:data": {"f:demo.flagd.json": {}}}})
        mf = [m for m in mf if m["manager"] != "kubectl-edit"]  # the later patch took over the same field
    return {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "opentelemetry-demo-flagd-config", "namespace": NS, "uid": uid(c.n, "oldcm"),
                         "resourceVersion": str(55012 if t < t_on else 731577), "creationTimestamp": iso(created),
                         "labels": {"app.kubernetes.io/instance": "opentelemetry-demo", "app.kubernetes.io/managed-by": "Helm",
                                    "app.kubernetes.io/name": "opentelemetry-demo", "helm.sh/chart": "opentelemetry-demo-0.32.8"},
                         "annotations": {"meta.helm.sh/release-name": "opentelemetry-demo", "meta.helm.sh/release-namespace": NS},
                         "managedFields": mf},
            "data": {"demo.flagd.json": json.dumps({"flags": flags}, indent=2)}}


def drop_cm(objs, name="flagd-config"):
    for i, o in enumerate(objs):
        if o["kind"] == "ConfigMap" and o["metadata"]["name"] == name:
            del objs[i]
            return


def mount_cm(d, cm):
    sp = d["spec"]["template"]["spec"]
    sp["volumes"] = [{"name": "config-ro", "configMap": {"name": cm, "defaultMode": 420}}, {"name": "config-rw", "emptyDir": {}}]
    cont(d)["volumeMounts"] = [{"name": "config-rw", "mountPath": "/etc/flagd"}]
    sp["initContainers"] = [{"name": "init-config", "image": "busybox", "command": ["sh", "-c", "cp /config-ro/demo.flagd.json /config-rw/demo.flagd.json && cat /config-rw/demo.flagd.json"],
                             "volumeMounts": [{"name": "config-ro", "mountPath": "/config-ro"}, {"name": "config-rw", "mountPath": "/config-rw"}]}]


def chaos_ev(c, t0, kind, nm, target_pod, extra=()):
    api = "chaos-mesh.org/v1alpha1"
    tgt = "%s/%s" % (NS, target_pod)
    return [ev(c, t0 + timedelta(seconds=1), kind, nm, "FinalizerInited", "Finalizer has been inited", comp="initFinalizers", ns="chaos-mesh", api=api),
            ev(c, t0 + timedelta(seconds=1), kind, nm, "Updated", "Successfully update finalizer of resource", comp="initFinalizers", ns="chaos-mesh", api=api),
            ev(c, t0 + timedelta(seconds=1), kind, nm, "Started", "Experiment has started", comp="desiredphase", ns="chaos-mesh", api=api),
            ev(c, t0 + timedelta(seconds=1), kind, nm, "Updated", "Successfully update desiredPhase of resource", comp="desiredphase", ns="chaos-mesh", api=api),
            ev(c, t0 + timedelta(seconds=2), kind, nm, "Applied", "Successfully apply chaos for %s" % tgt, comp="records", ns="chaos-mesh", api=api),
            ev(c, t0 + timedelta(seconds=2), kind, nm, "Updated", "Successfully update records of resource", comp="records", ns="chaos-mesh", api=api)] + list(extra)


def repeat_ev(c, t0, t1, every, kind, name, reason, msg, typ="Warning", comp="kubelet", host=None, per=10):
    """one Event object updated as it recurs every `per` s (count grows); an entry per update every `every` s"""
    out, t = [], t0
    while t < t1:
        out.append(ev(c, t, kind, name, reason, msg, typ=typ, comp=comp, host=host, count=1 + int((t - t0).total_seconds() // per), first=t0))
        t += timedelta(seconds=every)
    return out




# ================================================================ sre-set8 helper
def pino(t, host, level, msg, shift=None, **kw):
    tt = t + shift if shift else t
    d = {"level": level, "time": ns_of(tt) // 1000000, "pid": 1, "hostname": host}
    d.update(kw)
    d["msg"] = msg
    return json.dumps(d)


def cm_desc_edit(c, objs, t, t_on, flag, text, manager="kubectl-edit"):
    def f(flags):
        flags[flag]["description"] = text
    flag_cm(c, objs, t, t_on, f, manager=manager)


# ================================================================ the cases (sre-set9, all new)
W3 = [s for s, v in SVC.items() if v[2] == "worker-3"]   # ad, email, frontend-proxy, kafka, product-catalog, shipping, product-reviews


def by_trace(spans):
    out = {}
    for s in spans:
        out.setdefault(s["trace"], []).append(s)
    return out


def new_spans_tree_ids(spans):
    return {s["span"]: s for s in spans}


def extra_server_span(parent, svc, name, start, dur, attrs, err=""):
    return Span(trace=parent["trace"], span=H("xspan", parent["span"], name)[:16], parent=parent["span"], name=name, kind="server", svc=svc,
                start=start, dur=dur, status="error" if err else "unset", msg=err, attrs=attrs)


def envoy_line(t, method, path, code, flags, dur, upstream, rid):
    return ('[%s] "%s %s HTTP/1.1" %d %s 0 %d %d %s "10.244.2.%d" "python-requests/2.32.3" "%s" "frontend-proxy:8080" "%s"'
            % (t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000), method, path, code, flags, 19 if code >= 500 else 1432,
               int(dur), "-" if code >= 500 else int(dur), 17, rid, upstream))


def sfx(*p):
    return "".join(SAFE[int(H("sfx", *p)[i:i + 2], 16) % len(SAFE)] for i in (0, 2, 4, 6, 8))


# ================================================================ the cases (sre-set10, all new)
NOTR = lambda s: s["svc"] not in ("load-generator", "frontend-proxy")


def gone_pods(c, svc, times, gap, node=None):
    """the pod of svc replaced (same ReplicaSet) at each time in `times`; returns [(old, new, t)]"""
    out = []
    for t in times:
        old = c.pod_at(svc, t - timedelta(seconds=1))
        new = c.new_pod(svc, t + timedelta(seconds=gap), new_hash=False)
        out.append((old, new, t))
    return out


def wait_state(reason, msg=""):
    return {"waiting": {"reason": reason, "message": msg}} if msg else {"waiting": {"reason": reason}}


def oom_pod(p, restarts, crashed_at, waiting):
    cs = p["status"]["containerStatuses"][0]
    cs["restartCount"] = restarts
    cs["lastState"] = {"terminated": {"exitCode": 137, "reason": "OOMKilled", "startedAt": iso(crashed_at - timedelta(seconds=45)),
                                      "finishedAt": iso(crashed_at), "containerID": cs["containerID"]}}
    if waiting:
        cs["state"] = wait_state("CrashLoopBackOff", "back-off 40s restarting failed container=%s pod=%s" % (cs["name"], p["metadata"]["name"]))
        cs["ready"] = cs["started"] = False


def crash_cycle(start, backs=(10, 20, 40, 80, 160, 300, 300), up=45):
    """(crash time, back-off s) for a container that dies `up` s after each start"""
    out, cur = [], start
    for b in backs:
        out.append((cur, b))
        cur += timedelta(seconds=b + 3 + up)
    return out


def down_in(t, cycle):
    return any(ct <= t < ct + timedelta(seconds=b + 3) for ct, b in cycle)


# ---------------------------------------------------------------- flags
# ================================================================ the cases (sre-set11, all new)
def _fail_after(c, t, d=4):
    return t >= c.F + timedelta(seconds=d)


class N1(Case):
    n, seed, start = 1, "s11-paymentunreachable-k9s", T("2026-11-27T02:10:00Z")
    must = ["paymentUnreachable"]; must_not = ["configuration change (write) for flagKey"]
    title = "flag paymentUnreachable on by a ConfigMap edit in k9s: checkout cannot reach payment (badAddress); decoy: email image bump 2 min before"
    enc = dict(traces="otlp", logs="ecs", events="list", objects="list", alerts="amgroups")
    def setup(self):
        self.tr = self.F - timedelta(minutes=2); self.old = self.pods["email"][0]; self.newp = self.new_pod("email", self.tr)
    def edge(self, caller, callee, op, t):
        if caller == "checkout" and callee == "payment" and _fail_after(self, t):
            return dict(fail="rpc error: code = Unavailable desc = name resolver error: produced zero addresses (badAddress:50051)", dur=3)
        return None
    def objects_at(self, t, objs):
        image_bump(self, objs, "email", t, self.tr, "ghcr.io/open-telemetry/demo:2.1.4-email")
        flag_cm(self, objs, t, self.F, set_on("paymentUnreachable"), manager="k9s")
    def events(self): return rollout_events(self, "email", self.tr, self.old, self.newp)
    def logs(self): return caller_error_logs(self, self.spans, "payment", svcs=("checkout",))
    def alerts(self, t): return [err_alert(self, "checkout", self.F + timedelta(seconds=80), t, 1.0)]
    def gt(self):
        g = [grp("flagd-config-configmap-1", "ConfigMap", "flagd-config", root=True)] + app("checkout") + app("frontend")
        return dict(groups=g, aliases=aliases_of(g), propagations=[("flagd-config-configmap-1", "checkout-service-1", "paymentUnreachable on", "Charge goes to badAddress"),
                    ("checkout-service-1", "frontend-service-1", "PlaceOrder fails", "checkout page 500")],
                    fault=flag_gt(None), alerts=[("checkout-service-1", "HighRequestErrorRate")])


class N2(Case):
    n, seed, start = 2, "s11-catalogfailure-one-id", T("2026-11-27T03:40:00Z")
    must = ["productCatalogFailure", "Error: Product Catalog Fail Feature Flag Enabled"]; must_not = []
    title = "flag productCatalogFailure on (kubectl-edit): GetProduct fails only for product OLJCESPC7Z; decoy: cart rollout restart 3 min before"
    enc = dict(traces="jaeger", logs="fluentbit", events="watch", objects="tsvgz", alerts="prom")
    def setup(self):
        self.tr = self.F - timedelta(minutes=3); self.old = self.pods["cart"][0]; self.newp = self.new_pod("cart", self.tr)
    def server(self, svc, op, t):
        if svc == "product-catalog" and op == "GetProduct" and _fail_after(self, t) and rng_at("pc", t.isoformat()).random() < .12:
            return 1, "Error: Product Catalog Fail Feature Flag Enabled"
        return 0, None
    def objects_at(self, t, objs):
        restart_deploy(self, objs, "cart", t, self.tr)
        flag_cm(self, objs, t, self.F, set_on("productCatalogFailure"))
    def events(self): return rollout_events(self, "cart", self.tr, self.old, self.newp)
    def logs(self):
        return [(s["start"], "product-catalog", "ERROR", s["msg"] + " productId=OLJCESPC7Z", s["trace"], s["span"]) for s in self.spans
                if s["svc"] == "product-catalog" and s["kind"] == "server" and s["status"] == "error" and s["start"] >= self.F]
    def alerts(self, t): return [err_alert(self, "product-catalog", self.F + timedelta(seconds=90), t, 0.11)]
    def gt(self):
        g = [grp("flagd-config-configmap-1", "ConfigMap", "flagd-config", root=True)] + app("product-catalog") + app("frontend")
        return dict(groups=g, aliases=aliases_of(g), propagations=[("flagd-config-configmap-1", "product-catalog-service-1", "productCatalogFailure on", "GetProduct OLJCESPC7Z fails"),
                    ("product-catalog-service-1", "frontend-service-1", "GetProduct fails", "product page 500")],
                    fault=flag_gt(None), alerts=[("product-catalog-service-1", "HighRequestErrorRate")])


class N3(Case):
    n, seed, start = 3, "s11-adfailure-frontend-only", T("2026-11-27T05:05:00Z")
    must = ["adFailure"]; must_not = []
    title = "flag adFailure on (helm): ad exports no spans, so the failure is seen only as frontend errors on GetAds; decoy: quote image bump"
    enc = dict(traces="tsvraw", logs="text", events="eventsv1", objects="tsv", alerts="webhook")
    def setup(self):
        self.tr = self.F - timedelta(minutes=4); self.old = self.pods["quote"][0]; self.newp = self.new_pod("quote", self.tr)
    def edge(self, caller, callee, op, t):
        if caller == "frontend" and callee == "ad" and _fail_after(self, t) and rng_at("ad", t.isoformat()).random() < .1:
            return dict(fail="13 INTERNAL: Received RST_STREAM with code 2 triggered by internal client error: Protocol error", dur=2)
        return None
    def post_spans(self, spans): return [s for s in spans if s["svc"] != "ad"]
    def objects_at(self, t, objs):
        image_bump(self, objs, "quote", t, self.tr, "ghcr.io/open-telemetry/demo:2.1.4-quote")
        flag_cm(self, objs, t, self.F, set_on("adFailure"), manager="helm")
    def events(self): return rollout_events(self, "quote", self.tr, self.old, self.newp)
    def logs(self): return caller_error_logs(self, self.spans, "ad", svcs=("frontend",))
    def alerts(self, t): return [err_alert(self, "frontend", self.F + timedelta(seconds=100), t, 0.06)]
    def gt(self):
        g = [grp("flagd-config-configmap-1", "ConfigMap", "flagd-config", root=True)] + app("ad") + app("frontend")
        return dict(groups=g, aliases=aliases_of(g), propagations=[("flagd-config-configmap-1", "ad-service-1", "adFailure on", "GetAds fails 1 in 10"),
                    ("ad-service-1", "frontend-service-1", "GetAds fails", "frontend errors")],
                    fault=flag_gt(None), alerts=[("frontend-service-1", "HighRequestErrorRate")])


class N4(Case):
    n, seed, start = 4, "s11-adhighcpu-ssa", T("2026-11-27T06:30:00Z")
    must = ["adHighCpu"]; must_not = []
    title = "flag adHighCpu on by server-side apply (manager kubectl, minified JSON): ad latency up, frontend slow; decoy: recommendation restart"
    enc = dict(traces="zipkin", logs="otlp", events="tsv", objects="watch", alerts="amv2")
    def setup(self):
        self.tr = self.F - timedelta(minutes=2); self.old = self.pods["recommendation"][0]; self.newp = self.new_pod("recommendation", self.tr)
    def server(self, svc, op, t):
        if svc == "ad" and _fail_after(self, t, 20):
            return rng_at("hc", t.isoformat()).uniform(400, 1400), None
        return 0, None
    def objects_at(self, t, objs):
        restart_deploy(self, objs, "recommendation", t, self.tr)
        flag_cm(self, objs, t, self.F, set_on("adHighCpu"), style="min", manager="kubectl", operation="Apply")
    def events(self): return rollout_events(self, "recommendation", self.tr, self.old, self.newp)
    def alerts(self, t): return [lat_alert(self, "ad", self.F + timedelta(seconds=120), t, 1.1)]
    def gt(self):
        g = [grp("flagd-config-configmap-1", "ConfigMap", "flagd-config", root=True)] + app("ad") + app("frontend")
        return dict(groups=g, aliases=aliases_of(g), propagations=[("flagd-config-configmap-1", "ad-service-1", "adHighCpu on", "ad CPU bound, slow"),
                    ("ad-service-1", "frontend-service-1", "GetAds slow", "pages slow")],
                    fault=flag_gt(None), alerts=[("ad-service-1", "HighRequestLatency")])


class N5(Case):
    n, seed, start = 5, "s11-flood-homepage", T("2026-11-27T07:50:00Z")
    must = ["loadGeneratorFloodHomepage"]; must_not = []
    title = "flag loadGeneratorFloodHomepage on (kubectl-patch, 4-space JSON): traffic x4, frontend latency up; decoy: shipping image bump"
    enc = dict(traces="otlp", logs="tsv", events="list", objects="tsv", alerts="amgroups")
    def setup(self):
        self.tr = self.F - timedelta(minutes=5); self.old = self.pods["shipping"][0]; self.newp = self.new_pod("shipping", self.tr)
    def load_at(self, t): return 3.0 if t >= self.F else 1.0
    def server(self, svc, op, t):
        if svc == "frontend" and t >= self.F:
            return rng_at("fl", t.isoformat()).uniform(200, 900), None
        return 0, None
    def objects_at(self, t, objs):
        image_bump(self, objs, "shipping", t, self.tr, "ghcr.io/open-telemetry/demo:2.1.4-shipping")
        flag_cm(self, objs, t, self.F, set_on("loadGeneratorFloodHomepage", variant="on"), style="pretty4", manager="kubectl-patch")
    def events(self): return rollout_events(self, "shipping", self.tr, self.old, self.newp)
    def alerts(self, t): return [lat_alert(self, "frontend", self.F + timedelta(seconds=90), t, 0.9)]
    def gt(self):
        g = [grp("flagd-config-configmap-1", "ConfigMap", "flagd-config", root=True)] + app("load-generator") + app("frontend")
        return dict(groups=g, aliases=aliases_of(g), propagations=[("flagd-config-configmap-1", "load-generator-service-1", "flood on", "homepage flood"),
                    ("load-generator-service-1", "frontend-service-1", "flood", "frontend slow")],
                    fault=flag_gt(None), alerts=[("frontend-service-1", "HighRequestLatency")])


def _chaos_gt(c, kind, name, tgt, down, alert, cond):
    gid = name + "-" + kind.lower() + "-1"
    g = [grp(gid, kind, name, ns="chaos-mesh", root=True)] + app(tgt) + app(down)
    return dict(groups=g, aliases=aliases_of(g), propagations=[(gid, tgt + "-service-1", cond, "fault injected"), (tgt + "-service-1", down + "-service-1", "errors/latency", "caller affected")],
                fault=[dict(category="Change", condition=cond, entity=dict(group_id=gid, kind=kind, name=name), fault_mechanism="chaos")],
                alerts=[(down + "-service-1", alert)])


class N6(Case):
    n, seed, start = 6, "s11-httpchaos-abort-quote", T("2026-11-27T09:10:00Z")
    must = ["quote-getquote-abort", '"abort": true', "/getquote"]; must_not = []
    title = "HTTPChaos abort on quote path /getquote (target Request): shipping's GetQuote fails; decoy: frontend image bump"
    enc = dict(traces="jaeger", logs="ecs", events="watch", objects="list", alerts="webhook")
    SPEC = {"mode": "all", "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/name": "quote"}}, "target": "Request",
            "port": 8080, "method": "POST", "path": "/getquote", "abort": True, "duration": "10m"}
    def setup(self):
        self.tr = self.F - timedelta(minutes=3); self.old = self.pods["frontend"][0]; self.newp = self.new_pod("frontend", self.tr)
    def edge(self, caller, callee, op, t):
        if caller == "shipping" and callee == "quote" and _fail_after(self, t, 2):
            return dict(fail="error sending request for url (http://quote:8080/getquote): connection closed before message completed", dur=2)
        return None
    def objects_at(self, t, objs):
        image_bump(self, objs, "frontend", t, self.tr, "ghcr.io/open-telemetry/demo:2.1.4-frontend")
        if t >= self.F: objs.append(plain_chaos(self, t, "HTTPChaos", "quote-getquote-abort", self.SPEC, self.F, "quote"))
    def events(self): return rollout_events(self, "frontend", self.tr, self.old, self.newp)
    def logs(self): return caller_error_logs(self, self.spans, "quote", svcs=("shipping",))
    def alerts(self, t): return [err_alert(self, "shipping", self.F + timedelta(seconds=70), t, 1.0)]
    def gt(self): return _chaos_gt(self, "HTTPChaos", "quote-getquote-abort", "quote", "shipping", "HighRequestErrorRate", "HTTP abort on /getquote")


class N7(Case):
    n, seed, start = 7, "s11-dnschaos-error-one-domain", T("2026-11-27T10:25:00Z")
    must = ["currency-dns-error", '"action": "error"']; must_not = []
    title = "DNSChaos error for one domain pattern (currency.*) on frontend and checkout: currency lookups fail; decoy: ad rollout restart"
    enc = dict(traces="tsvraw", logs="fluentbit", events="eventsv1", objects="tsvgz", alerts="prom")
    SPEC = {"action": "error", "mode": "all", "patterns": ["currency.*"], "selector": {"namespaces": [NS], "expressionSelectors": [
            {"key": "app.kubernetes.io/name", "operator": "In", "values": ["frontend", "checkout"]}]}, "duration": "10m"}
    def setup(self):
        self.tr = self.F - timedelta(minutes=2); self.old = self.pods["ad"][0]; self.newp = self.new_pod("ad", self.tr)
    def edge(self, caller, callee, op, t):
        if callee == "currency" and caller in ("frontend", "checkout") and _fail_after(self, t, 3):
            return dict(fail="14 UNAVAILABLE: Name resolution failed for target dns:currency:8080", dur=1)
        return None
    def objects_at(self, t, objs):
        restart_deploy(self, objs, "ad", t, self.tr)
        if t >= self.F: objs.append(plain_chaos(self, t, "DNSChaos", "currency-dns-error", self.SPEC, self.F, "frontend"))
    def events(self): return rollout_events(self, "ad", self.tr, self.old, self.newp)
    def logs(self): return caller_error_logs(self, self.spans, "currency", svcs=("frontend", "checkout"))
    def alerts(self, t): return [err_alert(self, "frontend", self.F + timedelta(seconds=60), t, 0.8)]
    def gt(self): return _chaos_gt(self, "DNSChaos", "currency-dns-error", "currency", "frontend", "HighRequestErrorRate", "DNS error for currency.*")


class N8(Case):
    n, seed, start = 8, "s11-iochaos-valkey", T("2026-11-27T11:45:00Z")
    must = ["valkey-io-fault", '"action": "fault"']; must_not = []
    title = "IOChaos fault (errno 5) on valkey-cart's /data: AOF writes fail, Valkey refuses writes (MISCONF), cart AddItem fails; decoy: checkout image bump"
    enc = dict(traces="zipkin", logs="text", events="tsv", objects="watch", alerts="amv2")
    SPEC = {"action": "fault", "mode": "one", "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/name": "valkey-cart"}},
            "volumePath": "/data", "path": "/data/**/*", "errno": 5, "percent": 100, "duration": "10m"}
    def setup(self):
        self.tr = self.F - timedelta(minutes=3); self.old = self.pods["checkout"][0]; self.newp = self.new_pod("checkout", self.tr)
    def server(self, svc, op, t):
        if svc == "cart" and op == "AddItem" and _fail_after(self, t, 10):
            return 2, "Can't access cart storage. StackExchange.Redis.RedisServerException: MISCONF Errors writing to the AOF file: Input/output error"
        return 0, None
    def objects_at(self, t, objs):
        image_bump(self, objs, "checkout", t, self.tr, "ghcr.io/open-telemetry/demo:2.1.4-checkout")
        if t >= self.F: objs.append(plain_chaos(self, t, "IOChaos", "valkey-io-fault", self.SPEC, self.F, "valkey-cart"))
    def events(self): return rollout_events(self, "checkout", self.tr, self.old, self.newp)
    def logs(self): return [(self.F + timedelta(seconds=9), "valkey-cart", "WARN", "1:M # Error writing to the AOF file: Input/output error", "", "")]
    def alerts(self, t): return [err_alert(self, "cart", self.F + timedelta(seconds=75), t, 0.3)]
    def gt(self): return _chaos_gt(self, "IOChaos", "valkey-io-fault", "valkey-cart", "cart", "HighRequestErrorRate", "IO fault on /data")


class N9(Case):
    n, seed, start = 9, "s11-container-kill", T("2026-11-27T13:05:00Z")
    must = ["payment-container-kill", '"action": "container-kill"']; must_not = []
    title = "PodChaos container-kill of container payment only (pod has an envoy sidecar too): payment restarts, Charge unavailable ~25 s; decoy: email restart"
    enc = dict(traces="otlp", logs="otlp", events="watch", objects="tsv", alerts="amgroups")
    SPEC = {"action": "container-kill", "mode": "one", "containerNames": ["payment"], "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/name": "payment"}}}
    def setup(self):
        self.tr = self.F - timedelta(minutes=4); self.old = self.pods["email"][0]; self.newp = self.new_pod("email", self.tr)
    def edge(self, caller, callee, op, t):
        if caller == "checkout" and callee == "payment" and self.F <= t < self.F + timedelta(seconds=25):
            return dict(fail="rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial tcp 10.0.0.1:8080: connect: connection refused\"", dur=1)
        return None
    def objects_at(self, t, objs):
        restart_deploy(self, objs, "email", t, self.tr)
        if t >= self.F: objs.append(plain_chaos(self, t, "PodChaos", "payment-container-kill", self.SPEC, self.F, "payment"))
    def events(self):
        return rollout_events(self, "email", self.tr, self.old, self.newp) + [ev(self, self.F + timedelta(seconds=2), "Pod", self.pods["payment"][0][0], "Killing", "Stopping container payment")]
    def alerts(self, t): return [err_alert(self, "checkout", self.F + timedelta(seconds=30), t, 0.5)]
    def gt(self): return _chaos_gt(self, "PodChaos", "payment-container-kill", "payment", "checkout", "HighRequestErrorRate", "container payment killed")


def _misc_gt(c, kind, name, svc, down, alert, cond):
    gid = "%s-%s-1" % (name, kind.lower())
    g = [grp(gid, kind, name, root=True)] + app(svc) + app(down)
    return dict(groups=g, aliases=aliases_of(g), propagations=[(gid, svc + "-service-1", cond, "service broken"), (svc + "-service-1", down + "-service-1", "calls fail", "caller errors")],
                fault=[dict(category="Change", condition=cond, entity=dict(group_id=gid, kind=kind, name=name), fault_mechanism="custom")],
                alerts=[(down + "-service-1", alert)])


class N10(Case):
    n, seed, start = 10, "s11-readiness-wrong-port", T("2026-11-27T14:30:00Z")
    must = ['"port": 8081']; must_not = []
    title = "helm rollout of cart sets readinessProbe tcpSocket port 8081 (cart listens on 8080): new pods never Ready, old pod kept (maxUnavailable 0) so little breaks until the old pod is evicted at +3 min; decoy: quote restart"
    enc = dict(traces="jaeger", logs="tsv", events="list", objects="list", alerts="webhook")
    def setup(self):
        self.tr = self.F - timedelta(minutes=6); self.old = self.pods["quote"][0]; self.newp = self.new_pod("quote", self.tr)
    def edge(self, caller, callee, op, t):
        if callee == "cart" and t >= self.F:
            return dict(fail="14 UNAVAILABLE: no healthy upstream", dur=1)
        return None
    def objects_at(self, t, objs):
        restart_deploy(self, objs, "quote", t, self.tr)
        if t >= self.F - timedelta(minutes=3):
            d = dep(objs, "cart"); cont(d)["readinessProbe"] = {"tcpSocket": {"port": 8081}, "periodSeconds": 5}
            mf_add(d, "helm", self.F - timedelta(minutes=3), {"f:spec": {"f:template": {"f:spec": {"f:containers": {'k:{"name":"cart"}': {"f:readinessProbe": {}}}}}}})
    def events(self):
        return rollout_events(self, "quote", self.tr, self.old, self.newp) + [ev(self, self.F - timedelta(minutes=2), "Pod", "cart-7f9d8c6b5d-x2k4q", "Unhealthy",
                "Readiness probe failed: dial tcp 10.42.1.77:8081: connect: connection refused", typ="Warning", count=40)]
    def logs(self): return caller_error_logs(self, self.spans, "cart", svcs=("frontend", "checkout"))
    def alerts(self, t): return [err_alert(self, "frontend", self.F + timedelta(seconds=60), t, 0.6)]
    def gt(self): return _misc_gt(self, "Deployment", "cart", "cart", "frontend", "HighRequestErrorRate", "readinessProbe on wrong port")


class N11(Case):
    n, seed, start = 11, "s11-service-selector-typo", T("2026-11-27T15:50:00Z")
    must = ["currencyy"]; must_not = []
    title = "Service currency edited (kubectl-edit) with selector app.kubernetes.io/name: currencyy: no endpoints, frontend and checkout conversions fail; decoy: ad image bump"
    enc = dict(traces="tsvraw", logs="ecs", events="eventsv1", objects="tsvgz", alerts="amv2")
    def setup(self):
        self.tr = self.F - timedelta(minutes=3); self.old = self.pods["ad"][0]; self.newp = self.new_pod("ad", self.tr)
    def edge(self, caller, callee, op, t):
        if callee == "currency" and _fail_after(self, t, 2):
            return dict(fail="14 UNAVAILABLE: failed to connect to all addresses; last error: UNKNOWN: ipv4:10.96.14.21:8080: Failed to connect to remote host: Connection refused", dur=1)
        return None
    def objects_at(self, t, objs):
        image_bump(self, objs, "ad", t, self.tr, "ghcr.io/open-telemetry/demo:2.1.4-ad")
        if t >= self.F:
            s = find(objs, "Service", "currency"); s["spec"]["selector"]["app.kubernetes.io/name"] = "currencyy"
            mf_add(s, "kubectl-edit", self.F, {"f:spec": {"f:selector": {"f:app.kubernetes.io/name": {}}}})
    def events(self): return rollout_events(self, "ad", self.tr, self.old, self.newp)
    def logs(self): return caller_error_logs(self, self.spans, "currency", svcs=("frontend", "checkout"))
    def alerts(self, t): return [err_alert(self, "frontend", self.F + timedelta(seconds=60), t, 0.9)]
    def gt(self): return _misc_gt(self, "Service", "currency", "currency", "frontend", "HighRequestErrorRate", "Service selector typo")


class N12(Case):
    n, seed, start = 12, "s11-requests-pending", T("2026-11-27T17:10:00Z")
    must = ["Insufficient memory", '"memory": "24Gi"']; must_not = []
    title = "kubectl-set of product-catalog resources.requests.memory 24Gi (Recreate): new pod Pending (FailedScheduling Insufficient memory), catalog down; decoy: payment restart"
    enc = dict(traces="zipkin", logs="fluentbit", events="tsv", objects="watch", alerts="prom")
    def setup(self):
        self.tr = self.F - timedelta(minutes=4); self.old = self.pods["payment"][0]; self.newp = self.new_pod("payment", self.tr)
    def edge(self, caller, callee, op, t):
        if callee == "product-catalog" and _fail_after(self, t, 5):
            return dict(fail="rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial tcp: lookup product-catalog: no such host\"", dur=1)
        return None
    def objects_at(self, t, objs):
        restart_deploy(self, objs, "payment", t, self.tr)
        if t >= self.F:
            d = dep(objs, "product-catalog"); cont(d).setdefault("resources", {}).setdefault("requests", {})["memory"] = "24Gi"
            mf_add(d, "kubectl-set", self.F, {"f:spec": {"f:template": {"f:spec": {"f:containers": {'k:{"name":"product-catalog"}': {"f:resources": {"f:requests": {"f:memory": {}}}}}}}}})
    def events(self):
        return rollout_events(self, "payment", self.tr, self.old, self.newp) + [ev(self, self.F + timedelta(seconds=3), "Pod", "product-catalog-5c6d7f8b9-qq7rt", "FailedScheduling",
                "0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.", typ="Warning", comp="default-scheduler", count=12)]
    def logs(self): return caller_error_logs(self, self.spans, "product-catalog", svcs=("frontend", "checkout", "recommendation"))
    def alerts(self, t): return [err_alert(self, "frontend", self.F + timedelta(seconds=60), t, 0.95)]
    def gt(self): return _misc_gt(self, "Deployment", "product-catalog", "product-catalog", "frontend", "HighRequestErrorRate", "requests too high, pod Pending")


class N13(Case):
    n, seed, start = 13, "s11-hpa-max1", T("2026-11-27T18:40:00Z")
    must = ['"maxReplicas": 1', "recommendation-hpa"]; must_not = []
    title = "HPA recommendation-hpa maxReplicas 4 -> 1 (kubectl-patch) under 2.5x load: scaled in to 1 pod, recommendation latency up; decoy: shipping image bump"
    enc = dict(traces="otlp", logs="text", events="watch", objects="tsv", alerts="amgroups")
    load = 2.5
    def setup(self):
        self.tr = self.F - timedelta(minutes=2); self.old = self.pods["shipping"][0]; self.newp = self.new_pod("shipping", self.tr)
    def server(self, svc, op, t):
        if svc == "recommendation" and t >= self.F + timedelta(seconds=30):
            return rng_at("hp", t.isoformat()).uniform(600, 2000), None
        return 0, None
    def objects_at(self, t, objs):
        image_bump(self, objs, "shipping", t, self.tr, "ghcr.io/open-telemetry/demo:2.1.4-shipping")
        hpa = {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "recommendation-hpa", "namespace": NS, "uid": uid(self.n, "hpa"),
               "creationTimestamp": iso(self.start - timedelta(days=9)), "managedFields": [{"manager": "helm", "operation": "Update", "apiVersion": "autoscaling/v2",
               "time": iso(self.start - timedelta(days=9)), "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {}}}]},
               "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "recommendation"}, "minReplicas": 1, "maxReplicas": 4,
                        "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 60}}}]}}
        if t >= self.F:
            hpa["spec"]["maxReplicas"] = 1
            mf_add(hpa, "kubectl-patch", self.F, {"f:spec": {"f:maxReplicas": {}}})
        objs.append(hpa)
    def events(self):
        return rollout_events(self, "shipping", self.tr, self.old, self.newp) + [ev(self, self.F + timedelta(seconds=15), "HorizontalPodAutoscaler", "recommendation-hpa",
                "SuccessfulRescale", "New size: 1; reason: All metrics below target", comp="horizontal-pod-autoscaler")]
    def alerts(self, t): return [lat_alert(self, "recommendation", self.F + timedelta(seconds=120), t, 1.3)]
    def gt(self):
        g = _misc_gt(self, "HorizontalPodAutoscaler", "recommendation-hpa", "recommendation", "frontend", "HighRequestLatency", "maxReplicas cut to 1 under load")
        g["alerts"] = [("recommendation-service-1", "HighRequestLatency")]
        return g


CASES = [N1, N2, N3, N4, N5, N6, N7, N8, N9, N10, N11, N12, N13]


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
    self_check(d, c, gt)
    roots = ["%s/%s/%s" % (g.get("namespace", ""), g["kind"], g["name"]) if g.get("namespace") else "%s/%s" % (g["kind"], g["name"])
             for g in gt["groups"] if g.get("root_cause")]
    return {"scenario": "Scenario-%d" % c.n, "title": c.title, "root_cause": roots, "encodings": enc, "spans": len(spans),
            "fault_time": iso(c.F), "files": sorted(os.path.relpath(os.path.join(r, f), d) for r, _, fs in os.walk(d) for f in fs)}

# ================================================================ self-check (sre-set9): the labels match what the material contains
import csv, io, re


def _objects(d):
    for fn in sorted(os.listdir(d)):
        path = os.path.join(d, fn)
        if not fn.startswith("k8s_objects"):
            continue
        raw = gzip.open(path, "rt").read() if fn.endswith(".gz") else open(path).read()
        if fn.endswith((".tsv", ".tsv.gz")):
            csv.field_size_limit(1 << 30)
            rows = list(csv.reader(io.StringIO(raw), delimiter="\t"))
            return [json.loads(r[7]) for r in rows[1:]]
        if fn.endswith(".jsonl"):
            return [json.loads(l) for l in raw.splitlines() if l.strip()]
        return json.loads(raw)["items"]
    raise AssertionError("no objects file in " + d)


def _alerts(d):
    out = []
    for fn in sorted(os.listdir(os.path.join(d, "alerts"))):
        doc = json.load(open(os.path.join(d, "alerts", fn)))
        if isinstance(doc, dict) and "data" in doc:
            out += doc["data"]["alerts"]
        elif isinstance(doc, dict):
            out += doc["alerts"]
        else:
            for a in doc:
                out += a["alerts"] if "alerts" in a and "receiver" in a else [a]
    return out


def self_check(d, c, gt):
    """every root cause is an object of the snapshot changed or created in the window; every labelled alert is in an alerts file;
    the propagation and alias ids are groups; the case's own evidence strings are in its files."""
    objs = _objects(d)
    ids = {g["id"]: g for g in gt["groups"]}
    roots = [g for g in gt["groups"] if g.get("root_cause")]
    assert roots, "no root cause"
    for g in roots:
        hits = [o for o in objs if o.get("kind") == g["kind"] and any(re.search(f, o["metadata"]["name"]) for f in g["filter"])
                and o["metadata"].get("namespace") == g.get("namespace")]
        assert hits, "root %s/%s not in the objects of %s" % (g["kind"], g["name"], d)
        lo, hi = iso(c.start), iso(c.E)
        changed = any(lo <= o["metadata"].get("creationTimestamp", "") <= hi or
                      any(lo <= m.get("time", "") <= hi and m.get("subresource") != "status" for m in o["metadata"].get("managedFields", [])) for o in hits)
        assert changed, "root %s/%s neither created nor changed in the window" % (g["kind"], g["name"])
    for a in gt["aliases"]:
        assert all(x in ids for x in a), a
    for (src, dst, _, _) in gt["propagations"]:
        assert src in ids and dst in ids, (src, dst)
    als = _alerts(d)
    for gid, name in gt["alerts"]:
        g = ids[gid]
        ok = [a for a in als if a["labels"]["alertname"] == name and
              any(re.search(f, str(v)) for f in g["filter"] for k, v in a["labels"].items() if k in ("service_name", "deployment", "instance", "pod"))]
        assert ok, "alert %s on %s missing in %s" % (name, gid, d)
    blob = ""
    for r, _, fs in os.walk(d):
        for f in fs:
            path = os.path.join(r, f)
            blob += gzip.open(path, "rt").read() if f.endswith(".gz") else open(path).read()
    for m in getattr(c, "must", ()):
        norm = blob.replace('""', '"')   # TSV cells double their quotes
        assert m in blob or json.dumps(m)[1:-1] in blob or m.replace('": ', '":') in norm, "evidence %r missing in %s" % (m, d)
    for m in getattr(c, "must_not", ()):
        assert m not in blob, "%r should not be in %s" % (m, d)



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
