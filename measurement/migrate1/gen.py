#!/usr/bin/env python3
"""Generate the migrate1 held-out Kyverno cases. stdlib only, deterministic.
Usage: python3 gen.py OUTDIR   (writes OUTDIR/cases/<case>/{policy.yaml,resources.yaml,expected.json})"""
import json, os, re, sys

# ---------------------------------------------------------------- tiny YAML emitter
_PLAIN = re.compile(r'^[A-Za-z_][A-Za-z0-9_./-]*$')
_RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}

def _scalar(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    s = str(v)
    if _PLAIN.match(s) and s.lower() not in _RESERVED:
        return s
    return json.dumps(s)

def _key(k):
    return _scalar(k)

def _emit(v, ind, out):
    pad = "  " * ind
    if isinstance(v, dict):
        if not v:
            out.append(pad + "{}")
            return
        for k, x in v.items():
            if isinstance(x, dict) and x:
                out.append(f"{pad}{_key(k)}:")
                _emit(x, ind + 1, out)
            elif isinstance(x, list) and x:
                out.append(f"{pad}{_key(k)}:")
                _emit(x, ind, out)
            else:
                out.append(f"{pad}{_key(k)}: {_inline(x)}")
    elif isinstance(v, list):
        for x in v:
            if isinstance(x, (dict, list)) and x:
                sub = []
                _emit(x, ind + 1, sub)
                first = sub[0].lstrip()
                out.append(f"{pad}- {first}")
                out.extend(sub[1:])
            else:
                out.append(f"{pad}- {_inline(x)}")
    else:
        out.append(pad + _scalar(v))

def _inline(x):
    if isinstance(x, dict):
        return "{}"
    if isinstance(x, list):
        return "[]"
    return _scalar(x)

def dump_all(docs):
    parts = []
    for d in docs:
        out = []
        _emit(d, 0, out)
        parts.append("\n".join(out) + "\n")
    return "---\n".join(parts)

# ---------------------------------------------------------------- object helpers
def meta(name, ns=None, labels=None, ann=None):
    m = {"name": name}
    if ns:
        m["namespace"] = ns
    if labels:
        m["labels"] = dict(labels)
    if ann:
        m["annotations"] = dict(ann)
    return m

def Namespace(name, labels=None):
    l = {"kubernetes.io/metadata.name": name}
    l.update(labels or {})
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": meta(name, labels=l)}

def C(name, image, sc=None, res=None, **extra):
    c = {"name": name, "image": image}
    if res is not None:
        c["resources"] = res
    if sc is not None:
        c["securityContext"] = sc
    c.update(extra)
    return c

def podspec(containers, init=None, eph=None, **extra):
    s = {}
    if init:
        s["initContainers"] = init
    s["containers"] = containers
    if eph:
        s["ephemeralContainers"] = eph
    s.update(extra)
    return s

def Pod(ns, name, spec, labels=None, ann=None):
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta(name, ns, labels, ann), "spec": spec}

def _tmpl(spec, tlabels):
    return {"metadata": {"labels": dict(tlabels)}, "spec": spec}

def Deployment(ns, name, spec, labels=None, tlabels=None, replicas=None, ann=None, kind="Deployment"):
    tl = tlabels or {"app": name}
    s = {}
    if replicas is not None:
        s["replicas"] = replicas
    s["selector"] = {"matchLabels": dict(tl)}
    if kind == "StatefulSet":
        s["serviceName"] = name
    s["template"] = _tmpl(spec, tl)
    return {"apiVersion": "apps/v1", "kind": kind, "metadata": meta(name, ns, labels, ann), "spec": s}

def StatefulSet(ns, name, spec, **kw):
    return Deployment(ns, name, spec, kind="StatefulSet", **kw)

def DaemonSet(ns, name, spec, labels=None, tlabels=None):
    tl = tlabels or {"app": name}
    return {"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": meta(name, ns, labels),
            "spec": {"selector": {"matchLabels": dict(tl)}, "template": _tmpl(spec, tl)}}

def Job(ns, name, spec, labels=None):
    spec = dict(spec); spec.setdefault("restartPolicy", "Never")
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": meta(name, ns, labels),
            "spec": {"template": {"spec": spec}}}

def CronJob(ns, name, spec, labels=None, schedule="0 3 * * *"):
    spec = dict(spec); spec.setdefault("restartPolicy", "OnFailure")
    return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": meta(name, ns, labels),
            "spec": {"schedule": schedule, "jobTemplate": {"spec": {"template": {"spec": spec}}}}}

def Service(ns, name, type_=None, ann=None, labels=None, ports=((80, 8080),), extra=None):
    s = {}
    if type_:
        s["type"] = type_
    if type_ != "ExternalName":
        s["selector"] = {"app": name}
        s["ports"] = [{"port": p, "targetPort": t, "protocol": "TCP"} for p, t in ports]
    if extra:
        s.update(extra)
    return {"apiVersion": "v1", "kind": "Service", "metadata": meta(name, ns, labels, ann), "spec": s}

def ConfigMap(ns, name, data=None, labels=None, ann=None):
    o = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta(name, ns, labels, ann)}
    if data is not None:
        o["data"] = dict(data)
    return o

def key(o):
    return f"{o['kind']}/{o['metadata'].get('namespace', '')}/{o['metadata']['name']}"

CASES = []

def case(name, policy, objs_labels):
    """objs_labels: list of (object, 'fail'|'pass')"""
    CASES.append((name, policy, objs_labels))

P, F = "pass", "fail"

def cp(name, rules, action="Audit", background=True, ann=None, kind="ClusterPolicy", ns=None):
    md = {"name": name}
    if ns:
        md["namespace"] = ns
    if ann:
        md["annotations"] = dict(ann)
    return {"apiVersion": "kyverno.io/v1", "kind": kind, "metadata": md,
            "spec": {"validationFailureAction": action, "background": background, "rules": rules}}

def kinds(*k, **extra):
    r = {"kinds": list(k)}
    r.update(extra)
    return {"any": [{"resources": r}]}

# ================================================================ k01
case("k01-required-labels-wildcard-key",
     cp("require-ownership-labels", [{
         "name": "workload-labels",
         "match": kinds("Deployment", "StatefulSet"),
         "exclude": {"any": [{"resources": {"namespaces": ["kube-system", "dev-*"]}}]},
         "validate": {
             "message": "{{ request.object.kind }} {{ request.object.metadata.name }} needs app.kubernetes.io/name and a team.acme.io/* label",
             "pattern": {"metadata": {"labels": {"app.kubernetes.io/name": "?*", "team.acme.io/*": "?*"}}}}}]),
     [(Namespace("shop"), P), (Namespace("dev-alice"), P), (Namespace("developer"), P), (Namespace("kube-system"), P),
      (Deployment("shop", "cart", podspec([C("cart", "registry.acme.io/shop/cart:3.1")]),
                  labels={"app.kubernetes.io/name": "cart", "team.acme.io/owner": "payments"}), P),
      (Deployment("shop", "search", podspec([C("search", "registry.acme.io/shop/search:1.0")]),
                  labels={"app.kubernetes.io/name": "search", "app.kubernetes.io/part-of": "shop"}), F),
      (Deployment("shop", "ledger", podspec([C("ledger", "registry.acme.io/shop/ledger:2")]),
                  labels={"app.kubernetes.io/name": "", "team.acme.io/owner": "finance"}), F),
      (StatefulSet("shop", "orders-db", podspec([C("pg", "postgres:16.2")]),
                   tlabels={"app.kubernetes.io/name": "orders-db", "team.acme.io/owner": "dba"}), F),
      (Deployment("shop", "legacy", podspec([C("legacy", "registry.acme.io/shop/legacy:0.9")]),
                  labels={"app.kubernetes.io/name": "legacy", "team.acme.io": "core"}), F),
      (Deployment("shop", "reviews", podspec([C("reviews", "registry.acme.io/shop/reviews:4")]),
                  labels={"app.kubernetes.io/name": "reviews", "team.acme.io/cost-owner": "growth"}), P),
      (DaemonSet("shop", "node-agent", podspec([C("agent", "registry.acme.io/ops/agent:1")])), P),
      (Deployment("dev-alice", "toy", podspec([C("toy", "busybox:1.36")])), P),
      (Deployment("developer", "portal", podspec([C("portal", "registry.acme.io/dev/portal:1")]),
                  labels={"app.kubernetes.io/name": "portal"}), F),
      (Deployment("kube-system", "coredns", podspec([C("coredns", "registry.k8s.io/coredns/coredns:v1.11.1")]),
                  labels={"k8s-app": "kube-dns"}), P),
      ])

# ================================================================ k02
IMGLIST = "request.object.spec.[ephemeralContainers, initContainers, containers][]"
case("k02-foreach-latest-tag-all-container-lists",
     cp("disallow-latest-tag", [{
         "name": "no-latest-or-untagged",
         "match": kinds("Pod"),
         "exclude": {"any": [{"resources": {"namespaces": ["kube-system"]}}]},
         "validate": {
             "message": "Image {{ element.image }} in {{ request.object.metadata.name }} must carry an explicit tag other than latest",
             "foreach": [{"list": IMGLIST, "deny": {"conditions": {"any": [
                 {"key": "{{ element.image }}", "operator": "AnyIn", "value": ["*:latest"]},
                 {"key": "{{ contains(element.image, ':') }}", "operator": "Equals", "value": False}]}}}]}}],
        action="Enforce"),
     [(Namespace("web"), P), (Namespace("kube-system"), P),
      (Pod("web", "api", podspec([C("api", "nginx:1.25.4")])), P),
      (Pod("web", "debug-session", podspec([C("app", "registry.acme.io/web/app:2.3.1")],
            eph=[{"name": "debugger-x7k2", "image": "busybox:latest", "targetContainerName": "app"}])), F),
      (Pod("web", "seeded", podspec([C("app", "registry.acme.io/web/app:2.3.1")], init=[C("seed", "alpine")])), F),
      (Pod("web", "port-registry", podspec([C("app", "registry.local:5000/web/app")])), P),
      (Pod("web", "latest-ish", podspec([C("app", "acme/app:latest-2024")])), P),
      (Pod("web", "pinned", podspec([C("app", "nginx@sha256:4c0fdaa8b6341bfdeca5f18f7837462c80cff90527ee35ef185571e1c327beac")])), P),
      (Deployment("web", "frontend", podspec([C("frontend", "nginx:latest")])), F),
      (CronJob("web", "report", podspec([C("report", "registry.acme.io/web/report:1.0")], init=[C("fetch", "python:latest")])), F),
      (Job("web", "migrate", podspec([C("flyway", "flyway/flyway:10.8")])), P),
      (StatefulSet("web", "cache", podspec([C("redis", "redis")])), F),
      (Pod("kube-system", "kube-proxy-x2", podspec([C("kube-proxy", "registry.k8s.io/kube-proxy:latest")])), P),
      (ConfigMap("web", "images", {"default": "nginx:latest"}), P),
      ])

# ================================================================ k03
case("k03-negation-anchor-hostpath",
     cp("disallow-host-path", [{
         "name": "no-hostpath-volumes",
         "match": kinds("Pod"),
         "validate": {
             "message": "hostPath volumes are forbidden ({{ request.object.metadata.namespace }}/{{ request.object.metadata.name }})",
             "pattern": {"spec": {"=(volumes)": [{"X(hostPath)": "null"}]}}}}]),
     [(Namespace("ops"), P), (Namespace("kube-system"), P),
      (Pod("ops", "node-debug", podspec([C("sh", "registry.acme.io/ops/toolbox:5")],
            volumes=[{"name": "root", "hostPath": {"path": "/", "type": "Directory"}}])), F),
      (Pod("ops", "cache", podspec([C("c", "registry.acme.io/ops/cache:1")], volumes=[{"name": "tmp", "emptyDir": {}}])), P),
      (Pod("ops", "novolumes", podspec([C("c", "registry.acme.io/ops/cache:1")])), P),
      (Pod("ops", "mixed", podspec([C("c", "registry.acme.io/ops/cache:1")], volumes=[
            {"name": "cfg", "configMap": {"name": "cache-cfg"}},
            {"name": "sock", "hostPath": {"path": "/var/run/containerd/containerd.sock", "type": "Socket"}}])), F),
      (DaemonSet("ops", "log-shipper", podspec([C("fluent-bit", "fluent/fluent-bit:3.0.4")],
            volumes=[{"name": "varlog", "hostPath": {"path": "/var/log"}}])), F),
      (StatefulSet("ops", "vault", podspec([C("vault", "hashicorp/vault:1.16")],
            volumes=[{"name": "cfg", "configMap": {"name": "vault"}}, {"name": "data", "persistentVolumeClaim": {"claimName": "vault-data"}}])), P),
      (CronJob("ops", "log-rotate", podspec([C("rotate", "registry.acme.io/ops/rotate:2")],
            volumes=[{"name": "logs", "hostPath": {"path": "/var/log/apps"}}])), F),
      (DaemonSet("kube-system", "kube-proxy", podspec([C("kube-proxy", "registry.k8s.io/kube-proxy:v1.30.2")],
            volumes=[{"name": "lib-modules", "hostPath": {"path": "/lib/modules"}}])), P),
      ])

# ================================================================ k04
case("k04-conditional-anchor-nginx-nonroot",
     cp("nginx-must-run-as-non-root", [{
         "name": "nginx-containers-nonroot",
         "match": kinds("Pod"),
         "exclude": {"any": [{"resources": {"namespaces": ["kube-system"]}}]},
         "validate": {
             "message": "nginx containers must set securityContext.runAsNonRoot=true",
             "pattern": {"spec": {"containers": [{"(image)": "*/nginx*", "securityContext": {"runAsNonRoot": True}}]}}}}]),
     [(Namespace("web"), P), (Namespace("kube-system"), P),
      (Pod("web", "proxy", podspec([C("proxy", "docker.io/library/nginx:1.25")])), F),
      (Pod("web", "proxy-ok", podspec([C("proxy", "docker.io/library/nginx:1.25", sc={"runAsNonRoot": True, "runAsUser": 101})])), P),
      (Pod("web", "bare-nginx", podspec([C("proxy", "nginx:1.25")])), P),
      (Pod("web", "api", podspec([C("api", "acme/api:2.0")])), P),
      (Pod("web", "two", podspec([C("api", "acme/api:2.0"), C("ingress", "quay.io/nginx/nginx-ingress:3.5")])), F),
      (Pod("web", "pod-level-only", podspec([C("proxy", "docker.io/library/nginx:1.25")], securityContext={"runAsNonRoot": True})), F),
      (Pod("web", "init-nginx", podspec([C("api", "acme/api:2.0")], init=[C("render", "docker.io/library/nginx:1.25")])), P),
      (Deployment("web", "edge", podspec([C("edge", "ghcr.io/acme/nginx-edge:7", sc={"runAsNonRoot": False})])), F),
      (Deployment("web", "edge-ok", podspec([C("edge", "ghcr.io/acme/nginx-edge:7", sc={"runAsNonRoot": True})])), P),
      (Pod("kube-system", "nginx-lb", podspec([C("lb", "docker.io/library/nginx:1.25")])), P),
      ])

# ================================================================ k05
case("k05-existence-anchor-namespace-selector",
     cp("require-one-internal-image", [{
         "name": "at-least-one-acme-container",
         "match": {"any": [{"resources": {"kinds": ["Pod"],
                    "namespaceSelector": {"matchExpressions": [{"key": "tier", "operator": "In", "values": ["prod", "production"]}]}}}]},
         "validate": {
             "message": "At least one container of {{ request.object.metadata.name }} must run an image from registry.acme.io",
             "pattern": {"spec": {"^(containers)": [{"image": "registry.acme.io/*"}]}}}}]),
     [(Namespace("payments", {"tier": "prod"}), P), (Namespace("search", {"tier": "production"}), P),
      (Namespace("lab", {"tier": "dev"}), P), (Namespace("scratch"), P),
      (Pod("payments", "api", podspec([C("api", "registry.acme.io/pay/api:5.2")])), P),
      (Pod("payments", "api-with-proxy", podspec([C("envoy", "envoyproxy/envoy:v1.30.1"), C("api", "registry.acme.io/pay/api:5.2")])), P),
      (Pod("payments", "vendor", podspec([C("vendor", "docker.io/vendor/gateway:9")])), F),
      (Pod("payments", "init-only", podspec([C("main", "docker.io/vendor/gateway:9")], init=[C("migrate", "registry.acme.io/pay/migrate:5.2")])), F),
      (Pod("payments", "lookalike", podspec([C("api", "registry.acme.io.mirror.example.net/pay/api:5.2")])), F),
      (Deployment("search", "indexer", podspec([C("indexer", "opensearchproject/opensearch:2.13.0")])), F),
      (Deployment("search", "query", podspec([C("query", "registry.acme.io/search/query:8")])), P),
      (Job("search", "reindex", podspec([C("reindex", "curlimages/curl:8.7.1")])), F),
      (Pod("lab", "vendor", podspec([C("vendor", "docker.io/vendor/gateway:9")])), P),
      (Pod("scratch", "vendor", podspec([C("vendor", "docker.io/vendor/gateway:9")])), P),
      ])

# ================================================================ k06
case("k06-global-anchor-pull-secret",
     cp("corp-registry-needs-pull-secret", [{
         "name": "pull-secret-for-corp-images",
         "match": kinds("Pod"),
         "exclude": {"any": [{"resources": {"namespaces": ["kube-system", "kube-public"]}}]},
         "validate": {
             "message": "Pods pulling from registry.corp.io must reference a corp-* imagePullSecret",
             "pattern": {"spec": {"containers": [{"<(image)": "registry.corp.io/*"}],
                                  "imagePullSecrets": [{"name": "corp-*"}]}}}}]),
     [(Namespace("billing"), P), (Namespace("kube-system"), P),
      (Pod("billing", "invoicer", podspec([C("inv", "registry.corp.io/billing/invoicer:4.0")])), F),
      (Pod("billing", "invoicer-ok", podspec([C("inv", "registry.corp.io/billing/invoicer:4.0")], imagePullSecrets=[{"name": "corp-pull"}])), P),
      (Pod("billing", "wrong-secret", podspec([C("inv", "registry.corp.io/billing/invoicer:4.0")], imagePullSecrets=[{"name": "dockerhub-pull"}])), F),
      (Pod("billing", "public-only", podspec([C("redis", "redis:7.2.4")])), P),
      (Pod("billing", "public-with-secret", podspec([C("redis", "redis:7.2.4")], imagePullSecrets=[{"name": "dockerhub-pull"}])), P),
      (Pod("billing", "sidecar-corp", podspec([C("redis", "redis:7.2.4"), C("exporter", "registry.corp.io/obs/redis-exporter:1.58")])), F),
      (Deployment("billing", "api", podspec([C("api", "registry.corp.io/billing/api:2.2")])), F),
      (Deployment("billing", "api-ok", podspec([C("api", "registry.corp.io/billing/api:2.2")], imagePullSecrets=[{"name": "corp-ro"}])), P),
      (Pod("billing", "lookalike", podspec([C("x", "registry.corp.io.example.com/billing/x:1")])), P),
      (Pod("kube-system", "corp-agent", podspec([C("agent", "registry.corp.io/infra/agent:1")])), P),
      ])

# ================================================================ k07
case("k07-anypattern-service-exposure",
     cp("restrict-service-exposure", [{
         "name": "clusterip-or-internal-lb",
         "match": kinds("Service"),
         "exclude": {"any": [{"resources": {"namespaces": ["kube-system", "ingress-nginx"]}}]},
         "validate": {
             "message": "Service {{ request.object.metadata.name }} must be ClusterIP/ExternalName or an internal LoadBalancer",
             "anyPattern": [
                 {"spec": {"=(type)": "ClusterIP | ExternalName"}},
                 {"metadata": {"annotations": {"networking.gke.io/load-balancer-type": "Internal"}},
                  "spec": {"type": "LoadBalancer"}}]}}], action="Enforce"),
     [(Namespace("shop"), P), (Namespace("kube-system"), P), (Namespace("ingress-nginx"), P), (Namespace("ingress-public"), P),
      (Service("shop", "cart"), P),
      (Service("shop", "catalog", "ClusterIP"), P),
      (Service("shop", "db-external", "ExternalName", extra={"externalName": "db.acme.internal"}), P),
      (Service("shop", "debug", "NodePort"), F),
      (Service("shop", "internal-lb", "LoadBalancer", ann={"networking.gke.io/load-balancer-type": "Internal"}), P),
      (Service("shop", "internal-lb-lower", "LoadBalancer", ann={"networking.gke.io/load-balancer-type": "internal"}), F),
      (Service("shop", "public-lb", "LoadBalancer"), F),
      (Service("shop", "nodeport-annotated", "NodePort", ann={"networking.gke.io/load-balancer-type": "Internal"}), F),
      (Service("kube-system", "metrics-lb", "LoadBalancer"), P),
      (Service("ingress-nginx", "ingress-nginx-controller", "LoadBalancer", ports=((80, 80), (443, 443))), P),
      (Service("ingress-public", "edge", "LoadBalancer"), F),
      (Pod("shop", "cart-0", podspec([C("cart", "registry.acme.io/shop/cart:3")])), P),
      ])

# ================================================================ k08
case("k08-deny-greaterthan-numbers-and-strings",
     cp("replica-and-cost-limits", [
         {"name": "dev-replica-cap",
          "match": {"any": [{"resources": {"kinds": ["Deployment", "StatefulSet"],
                     "namespaceSelector": {"matchLabels": {"env": "dev"}}}}]},
          "validate": {"message": "{{ request.object.kind }}/{{ request.object.metadata.name }} asks for {{ request.object.spec.replicas || `1` }} replicas; dev namespaces allow at most 5",
                       "deny": {"conditions": {"any": [
                           {"key": "{{ request.object.spec.replicas || `1` }}", "operator": "GreaterThan", "value": 5}]}}}},
         {"name": "cost-weight-cap",
          "match": kinds("Deployment"),
          "exclude": {"any": [{"resources": {"namespaces": ["kube-system"]}}]},
          "validate": {"message": "acme.io/cost-weight must not exceed 10",
                       "deny": {"conditions": {"all": [
                           {"key": "{{ request.object.metadata.annotations.\"acme.io/cost-weight\" || '0' }}", "operator": "GreaterThan", "value": 10}]}}}},
     ]),
     [(Namespace("dev", {"env": "dev"}), P), (Namespace("prod", {"env": "prod"}), P), (Namespace("kube-system"), P),
      (Deployment("dev", "burst", podspec([C("b", "registry.acme.io/dev/burst:1")]), replicas=8), F),
      (Deployment("dev", "five", podspec([C("f", "registry.acme.io/dev/five:1")]), replicas=5), P),
      (Deployment("dev", "default-replicas", podspec([C("d", "registry.acme.io/dev/d:1")])), P),
      (StatefulSet("dev", "kafka", podspec([C("kafka", "bitnami/kafka:3.7")]), replicas=6), F),
      (Deployment("prod", "big", podspec([C("big", "registry.acme.io/prod/big:4")]), replicas=20), P),
      (Deployment("prod", "heavy", podspec([C("h", "registry.acme.io/prod/h:1")]), replicas=2, ann={"acme.io/cost-weight": "12"}), F),
      (Deployment("prod", "light", podspec([C("l", "registry.acme.io/prod/l:1")]), replicas=2, ann={"acme.io/cost-weight": "9"}), P),
      (Deployment("prod", "edge-weight", podspec([C("e", "registry.acme.io/prod/e:1")]), replicas=2, ann={"acme.io/cost-weight": "10"}), P),
      (Deployment("prod", "template-weight", podspec([C("t", "registry.acme.io/prod/t:1")]), replicas=2), P),
      (StatefulSet("prod", "weighted-sts", podspec([C("w", "registry.acme.io/prod/w:1")]), replicas=2, ann={"acme.io/cost-weight": "40"}), P),
      (Deployment("kube-system", "metrics-server", podspec([C("ms", "registry.k8s.io/metrics-server/metrics-server:v0.7.1")]), replicas=2, ann={"acme.io/cost-weight": "99"}), P),
      ])
# template-weight carries the annotation only on its pod template:
def find(case_objs, k):
    for o, _ in case_objs:
        if key(o) == k:
            return o
    raise KeyError(k)
find(CASES[-1][2], "Deployment/prod/template-weight")["spec"]["template"]["metadata"]["annotations"] = {"acme.io/cost-weight": "50"}

# ================================================================ k09
FE = "request.object.spec.[ephemeralContainers, initContainers, containers][]"
case("k09-capabilities-anynotin-anyin-foreach",
     cp("restrict-capabilities", [
         {"name": "drop-all",
          "match": kinds("Pod"),
          "exclude": {"any": [{"resources": {"namespaces": ["kube-system"]}}]},
          "validate": {"message": "Container {{ element.name }} must drop ALL capabilities",
                       "foreach": [{"list": FE, "deny": {"conditions": {"any": [
                           {"key": "ALL", "operator": "AnyNotIn", "value": "{{ element.securityContext.capabilities.drop || `[]` }}"}]}}}]}},
         {"name": "no-dangerous-adds",
          "match": kinds("Pod"),
          "exclude": {"any": [{"resources": {"namespaces": ["kube-system"]}}]},
          "validate": {"message": "Container {{ element.name }} adds a forbidden capability",
                       "foreach": [{"list": FE, "deny": {"conditions": {"any": [
                           {"key": "{{ element.securityContext.capabilities.add || `[]` }}", "operator": "AnyIn", "value": ["SYS_*", "NET_ADMIN", "BPF"]}]}}}]}},
     ], action="Enforce"),
     [(Namespace("sec"), P), (Namespace("kube-system"), P),
      (Pod("sec", "good", podspec([C("app", "registry.acme.io/sec/app:1", sc={"capabilities": {"drop": ["ALL"]}})])), P),
      (Pod("sec", "nosc", podspec([C("app", "registry.acme.io/sec/app:1")])), F),
      (Pod("sec", "drop-netraw", podspec([C("app", "registry.acme.io/sec/app:1", sc={"capabilities": {"drop": ["NET_RAW"]}})])), F),
      (Pod("sec", "drop-lowercase", podspec([C("app", "registry.acme.io/sec/app:1", sc={"capabilities": {"drop": ["all"]}})])), F),
      (Pod("sec", "init-forgot", podspec([C("app", "registry.acme.io/sec/app:1", sc={"capabilities": {"drop": ["ALL"]}})],
            init=[C("wait", "busybox:1.36")])), F),
      (Pod("sec", "ptrace", podspec([C("app", "registry.acme.io/sec/app:1", sc={"capabilities": {"drop": ["ALL"], "add": ["SYS_PTRACE"]}})])), F),
      (Pod("sec", "netbind", podspec([C("app", "registry.acme.io/sec/app:1", sc={"capabilities": {"drop": ["ALL"], "add": ["NET_BIND_SERVICE"]}})])), P),
      (Pod("sec", "debugged", podspec([C("app", "registry.acme.io/sec/app:1", sc={"capabilities": {"drop": ["ALL"]}})],
            eph=[{"name": "debugger-9q", "image": "nicolaka/netshoot:v0.12", "targetContainerName": "app",
                  "securityContext": {"capabilities": {"add": ["NET_ADMIN"], "drop": ["ALL"]}}}])), F),
      (Deployment("sec", "api", podspec([C("api", "registry.acme.io/sec/api:3", sc={"capabilities": {"drop": ["ALL"]}})])), P),
      (CronJob("sec", "backup", podspec([C("backup", "registry.acme.io/sec/backup:2")])), F),
      (DaemonSet("sec", "ebpf-probe", podspec([C("probe", "registry.acme.io/sec/probe:1", sc={"capabilities": {"drop": ["ALL"], "add": ["BPF", "PERFMON"]}})])), F),
      (Pod("kube-system", "cilium-x", podspec([C("cilium", "quay.io/cilium/cilium:v1.15.5", sc={"capabilities": {"add": ["NET_ADMIN", "SYS_MODULE"]}})])), P),
      ])

# ================================================================ k10
case("k10-preconditions-autogen-metadata",
     cp("payments-memory-limits", [{
         "name": "payments-need-memory-limits",
         "match": kinds("Pod"),
         "preconditions": {"all": [
             {"key": "{{ request.object.metadata.labels.\"app.kubernetes.io/part-of\" || '' }}", "operator": "Equals", "value": "payments"}]},
         "validate": {"message": "payments workloads need memory limits on every container",
                      "pattern": {"spec": {"containers": [{"resources": {"limits": {"memory": "?*"}}}]}}}}]),
     [(Namespace("pay"), P),
      (Pod("pay", "ledger", podspec([C("ledger", "registry.acme.io/pay/ledger:7")]), labels={"app.kubernetes.io/part-of": "payments"}), F),
      (Pod("pay", "ledger-ok", podspec([C("ledger", "registry.acme.io/pay/ledger:7", res={"limits": {"memory": "512Mi"}})]),
           labels={"app.kubernetes.io/part-of": "payments"}), P),
      (Pod("pay", "cpu-only", podspec([C("ledger", "registry.acme.io/pay/ledger:7", res={"limits": {"cpu": "500m"}, "requests": {"memory": "256Mi"}})]),
           labels={"app.kubernetes.io/part-of": "payments"}), F),
      (Pod("pay", "unrelated", podspec([C("tool", "registry.acme.io/pay/tool:1")]), labels={"app.kubernetes.io/part-of": "reporting"}), P),
      (Pod("pay", "unlabelled", podspec([C("tool", "registry.acme.io/pay/tool:1")])), P),
      (Deployment("pay", "gateway", podspec([C("gw", "registry.acme.io/pay/gw:2")]),
                  tlabels={"app": "gateway", "app.kubernetes.io/part-of": "payments"}), F),
      (Deployment("pay", "outer-label-only", podspec([C("gw", "registry.acme.io/pay/gw:2")]),
                  labels={"app.kubernetes.io/part-of": "payments"}, tlabels={"app": "outer-label-only"}), P),
      (Deployment("pay", "gateway-ok", podspec([C("gw", "registry.acme.io/pay/gw:2", res={"limits": {"memory": "1Gi", "cpu": "1"}})]),
                  tlabels={"app": "gateway-ok", "app.kubernetes.io/part-of": "payments"}), P),
      (Pod("pay", "second-container", podspec([C("app", "registry.acme.io/pay/app:1", res={"limits": {"memory": "256Mi"}}),
                                               C("sidecar", "registry.acme.io/pay/sidecar:1")]),
           labels={"app.kubernetes.io/part-of": "payments"}), F),
      ])

# ================================================================ k11
case("k11-namespaced-policy-configmaps",
     cp("team-a-config-hygiene", [
         {"name": "log-level-values",
          "match": kinds("ConfigMap"),
          "validate": {"message": "ConfigMap {{ request.object.metadata.name }}: log-level must be info, warn or error",
                       "pattern": {"=(data)": {"=(log-level)": "info | warn | error"}}}},
         {"name": "no-passwords-in-creds-configmaps",
          "match": {"any": [{"resources": {"kinds": ["ConfigMap"], "names": ["*-creds", "*-credentials"]}}]},
          "validate": {"message": "ConfigMap {{ request.object.metadata.name }} holds password-like keys; use a Secret",
                       "deny": {"conditions": {"any": [
                           {"key": "{{ keys(request.object.data || `{}`) }}", "operator": "AnyIn", "value": ["*password*", "*passwd*"]}]}}}},
     ], kind="Policy", ns="team-a", action="Enforce"),
     [(Namespace("team-a"), P), (Namespace("team-b"), P),
      (ConfigMap("team-a", "app", {"log-level": "debug", "port": "8080"}), F),
      (ConfigMap("team-a", "app-ok", {"log-level": "warn"}), P),
      (ConfigMap("team-a", "app-upper", {"log-level": "INFO"}), F),
      (ConfigMap("team-a", "no-level", {"port": "8080"}), P),
      (ConfigMap("team-a", "empty"), P),
      (ConfigMap("team-a", "db-creds", {"db_password": "hunter2", "user": "app"}), F),
      (ConfigMap("team-a", "db-creds-ok", {"user": "app", "host": "db.team-a"}), P),
      (ConfigMap("team-a", "smtp-settings", {"smtp_password": "s3cret", "log-level": "info"}), P),
      (ConfigMap("team-a", "ldap-credentials", {"bind_passwd": "x", "log-level": "error"}), F),
      (ConfigMap("team-b", "app", {"log-level": "debug"}), P),
      (ConfigMap("team-b", "db-creds", {"db_password": "hunter2"}), P),
      (Pod("team-a", "web", podspec([C("web", "registry.acme.io/a/web:1")])), P),
      ])

# ================================================================ k12
case("k12-label-selector-disables-autogen",
     cp("helm-managed-requests", [{
         "name": "requests-on-helm-pods",
         "match": {"any": [{"resources": {"kinds": ["Pod"],
                    "selector": {"matchLabels": {"app.kubernetes.io/managed-by": "Helm"}}}}]},
         "exclude": {"any": [{"resources": {"namespaces": ["kube-system"]}}]},
         "validate": {"message": "Helm-managed Pod {{ request.object.metadata.name }} must request cpu and memory",
                      "pattern": {"spec": {"containers": [{"resources": {"requests": {"cpu": "?*", "memory": "?*"}}}]}}}}]),
     [(Namespace("apps"), P), (Namespace("kube-system"), P),
      (Pod("apps", "chart-pod", podspec([C("app", "registry.acme.io/apps/app:1")]), labels={"app.kubernetes.io/managed-by": "Helm"}), F),
      (Pod("apps", "chart-pod-ok", podspec([C("app", "registry.acme.io/apps/app:1", res={"requests": {"cpu": "100m", "memory": "128Mi"}})]),
           labels={"app.kubernetes.io/managed-by": "Helm"}), P),
      (Pod("apps", "cpu-only", podspec([C("app", "registry.acme.io/apps/app:1", res={"requests": {"cpu": "100m"}})]),
           labels={"app.kubernetes.io/managed-by": "Helm"}), F),
      (Pod("apps", "lowercase-helm", podspec([C("app", "registry.acme.io/apps/app:1")]), labels={"app.kubernetes.io/managed-by": "helm"}), P),
      (Pod("apps", "kustomize", podspec([C("app", "registry.acme.io/apps/app:1")]), labels={"app.kubernetes.io/managed-by": "kustomize"}), P),
      (Pod("apps", "init-no-requests", podspec([C("app", "registry.acme.io/apps/app:1", res={"requests": {"cpu": "50m", "memory": "64Mi"}})],
            init=[C("init", "busybox:1.36")]), labels={"app.kubernetes.io/managed-by": "Helm"}), P),
      (Deployment("apps", "chart-deploy", podspec([C("app", "registry.acme.io/apps/app:1")]),
                  labels={"app.kubernetes.io/managed-by": "Helm"}, tlabels={"app": "chart-deploy", "app.kubernetes.io/managed-by": "Helm"}), P),
      (Pod("kube-system", "helm-thing", podspec([C("x", "registry.acme.io/x:1")]), labels={"app.kubernetes.io/managed-by": "Helm"}), P),
      ])

# ================================================================ k13
case("k13-background-false",
     cp("require-team-label-admission-only", [{
         "name": "team-label",
         "match": kinds("Pod", "Deployment"),
         "validate": {"message": "{{ request.object.metadata.name }} needs a team label",
                      "pattern": {"metadata": {"labels": {"team": "?*"}}}}}],
        action="Enforce", background=False),
     [(Namespace("misc"), P),
      (Pod("misc", "orphan", podspec([C("x", "registry.acme.io/misc/x:1")])), P),
      (Deployment("misc", "untagged", podspec([C("x", "registry.acme.io/misc/x:1")])), P),
      (Deployment("misc", "tagged", podspec([C("x", "registry.acme.io/misc/x:1")]), labels={"team": "misc"}), P),
      ])

# ================================================================ k14
PRIV = {"spec": {"=(ephemeralContainers)": [{"=(securityContext)": {"=(privileged)": False}}],
                 "=(initContainers)": [{"=(securityContext)": {"=(privileged)": False}}],
                 "containers": [{"=(securityContext)": {"=(privileged)": False}}]}}
case("k14-autogen-annotation-subset-equality-anchors",
     cp("disallow-privileged", [{
         "name": "privileged-containers",
         "match": kinds("Pod"),
         "exclude": {"any": [{"resources": {"namespaces": ["kube-system", "monitoring"]}}]},
         "validate": {"message": "Privileged mode is not allowed ({{ request.object.metadata.name }})", "pattern": PRIV}}],
        ann={"pod-policies.kyverno.io/autogen-controllers": "Deployment,CronJob"}),
     [(Namespace("apps"), P), (Namespace("monitoring"), P), (Namespace("kube-system"), P),
      (Pod("apps", "priv", podspec([C("x", "registry.acme.io/apps/x:1", sc={"privileged": True})])), F),
      (Pod("apps", "explicit-false", podspec([C("x", "registry.acme.io/apps/x:1", sc={"privileged": False, "runAsNonRoot": True})])), P),
      (Pod("apps", "no-sc", podspec([C("x", "registry.acme.io/apps/x:1")])), P),
      (Pod("apps", "priv-debug", podspec([C("x", "registry.acme.io/apps/x:1")],
            eph=[{"name": "debugger-h4", "image": "busybox:1.36", "targetContainerName": "x", "securityContext": {"privileged": True}}])), F),
      (Pod("apps", "priv-init", podspec([C("x", "registry.acme.io/apps/x:1")], init=[C("sysctl", "busybox:1.36", sc={"privileged": True})])), F),
      (Deployment("apps", "priv-deploy", podspec([C("x", "registry.acme.io/apps/x:1", sc={"privileged": True})])), F),
      (StatefulSet("apps", "priv-sts", podspec([C("x", "registry.acme.io/apps/x:1", sc={"privileged": True})])), P),
      (DaemonSet("apps", "priv-ds", podspec([C("x", "registry.acme.io/apps/x:1", sc={"privileged": True})])), P),
      (Job("apps", "priv-job", podspec([C("x", "registry.acme.io/apps/x:1", sc={"privileged": True})])), P),
      (CronJob("apps", "priv-cron", podspec([C("x", "registry.acme.io/apps/x:1")], init=[C("prep", "busybox:1.36", sc={"privileged": True})])), F),
      (Pod("monitoring", "node-exporter-debug", podspec([C("ne", "quay.io/prometheus/node-exporter:v1.8.1", sc={"privileged": True})])), P),
      (Pod("kube-system", "csi-node", podspec([C("csi", "registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.10.1", sc={"privileged": True})])), P),
      ])

# ================================================================ k15
case("k15-namespace-labels-single-char-wildcard-allnotin",
     cp("namespace-governance", [
         {"name": "cost-center-format",
          "match": kinds("Namespace"),
          "exclude": {"any": [{"resources": {"names": ["kube-*", "default"]}}]},
          "validate": {"message": "Namespace {{ request.object.metadata.name }} needs cost-center=cc-NNNN",
                       "pattern": {"metadata": {"labels": {"cost-center": "cc-????"}}}}},
         {"name": "pod-security-level",
          "match": kinds("Namespace"),
          "exclude": {"any": [{"resources": {"names": ["kube-*"]}}]},
          "validate": {"message": "Namespace {{ request.object.metadata.name }} must enforce baseline or restricted Pod Security",
                       "deny": {"conditions": {"all": [
                           {"key": "{{ request.object.metadata.labels.\"pod-security.kubernetes.io/enforce\" || '' }}",
                            "operator": "AllNotIn", "value": ["baseline", "restricted"]}]}}}},
     ]),
     [(Namespace("team-a", {"cost-center": "cc-1234", "pod-security.kubernetes.io/enforce": "restricted"}), P),
      (Namespace("team-b", {"cost-center": "1234", "pod-security.kubernetes.io/enforce": "baseline"}), F),
      (Namespace("team-c", {"cost-center": "cc-12345", "pod-security.kubernetes.io/enforce": "baseline"}), F),
      (Namespace("team-d", {"cost-center": "cc-0042", "pod-security.kubernetes.io/enforce": "privileged"}), F),
      (Namespace("team-e", {"cost-center": "cc-0042", "pod-security.kubernetes.io/warn": "restricted"}), F),
      (Namespace("team-f", {"cost-center": "cc-ab12", "pod-security.kubernetes.io/enforce": "restricted"}), P),
      (Namespace("sandbox"), F),
      (Namespace("default"), F),
      (Namespace("kube-system"), P),
      (Namespace("kube-node-lease"), P),
      (Namespace("kubeflow", {"cost-center": "cc-7000", "pod-security.kubernetes.io/enforce": "baseline"}), P),
      (ConfigMap("team-b", "settings", {"a": "b"}), P),
      ])

# ================================================================ ValidatingPolicy (CEL)
def vp(name, match, validations, actions=("Audit",), conditions=None, variables=None, autogen=None):
    spec = {"validationActions": list(actions),
            "evaluation": {"background": {"enabled": True}},
            "matchConstraints": match}
    if autogen is not None:
        spec["autogen"] = autogen
    if conditions:
        spec["matchConditions"] = conditions
    if variables:
        spec["variables"] = variables
    spec["validations"] = validations
    return {"apiVersion": "policies.kyverno.io/v1", "kind": "ValidatingPolicy", "metadata": {"name": name}, "spec": spec}

def rr(group, resource, names=None):
    r = {"apiGroups": [group], "apiVersions": ["v1"], "operations": ["CREATE", "UPDATE"], "resources": [resource]}
    if names:
        r["resourceNames"] = names
    return r

def probes(readiness=True, liveness=False):
    d = {}
    if readiness:
        d["readinessProbe"] = {"httpGet": {"path": "/ready", "port": 8080}}
    if liveness:
        d["livenessProbe"] = {"httpGet": {"path": "/live", "port": 8080}}
    return d

# ================================================================ v16
case("v16-vpol-prod-deployments-replicas-probes",
     vp("prod-deployment-resilience",
        {"resourceRules": [rr("apps", "deployments")],
         "namespaceSelector": {"matchLabels": {"env": "prod"}}},
        [{"expression": "variables.replicas >= 2",
          "messageExpression": "'Deployment ' + object.metadata.name + ' runs ' + string(variables.replicas) + ' replica(s); prod needs at least 2'"},
         {"expression": "object.spec.template.spec.containers.all(c, has(c.readinessProbe))",
          "message": "every container of a prod Deployment needs a readinessProbe"}],
        variables=[{"name": "replicas", "expression": "object.spec.?replicas.orValue(1)"}]),
     [(Namespace("prod", {"env": "prod"}), P), (Namespace("staging", {"env": "staging"}), P), (Namespace("kube-system"), P),
      (Deployment("prod", "web", podspec([C("web", "registry.acme.io/web:5", **probes())]), replicas=3), P),
      (Deployment("prod", "single", podspec([C("single", "registry.acme.io/single:1", **probes())])), F),
      (Deployment("prod", "scaled-to-zero", podspec([C("z", "registry.acme.io/z:1", **probes())]), replicas=0), F),
      (Deployment("prod", "liveness-only", podspec([C("l", "registry.acme.io/l:1", **probes(False, True))]), replicas=4), F),
      (Deployment("prod", "sidecar-noprobe", podspec([C("app", "registry.acme.io/app:1", **probes()),
                                                      C("envoy", "envoyproxy/envoy:v1.30.1")]), replicas=2), F),
      (Deployment("prod", "init-noprobe", podspec([C("app", "registry.acme.io/app:1", **probes())], init=[C("migrate", "registry.acme.io/migrate:1")]), replicas=2), P),
      (Deployment("staging", "web", podspec([C("web", "registry.acme.io/web:5")]), replicas=1), P),
      (StatefulSet("prod", "db", podspec([C("pg", "postgres:16.2")]), replicas=1), P),
      (Pod("prod", "adhoc", podspec([C("x", "registry.acme.io/x:1")])), P),
      (Deployment("kube-system", "coredns", podspec([C("coredns", "registry.k8s.io/coredns/coredns:v1.11.1")]), replicas=1), P),
      ])

LIM = {"limits": {"memory": "512Mi", "cpu": "500m"}, "requests": {"memory": "256Mi", "cpu": "100m"}}
REQ_ONLY = {"requests": {"memory": "256Mi", "cpu": "100m"}}
case("v17-vpol-pod-memory-limits-autogen",
     vp("memory-limits-everywhere",
        {"resourceRules": [rr("", "pods")],
         "namespaceSelector": {"matchExpressions": [{"key": "kubernetes.io/metadata.name", "operator": "NotIn", "values": ["kube-system", "monitoring"]}]}},
        [{"expression": "variables.allContainers.all(c, has(c.resources) && has(c.resources.limits) && 'memory' in c.resources.limits)",
          "message": "every container and init container needs a memory limit"}],
        variables=[{"name": "allContainers", "expression": "object.spec.containers + object.spec.?initContainers.orValue([])"}]),
     [(Namespace("apps"), P), (Namespace("monitoring"), P), (Namespace("kube-system"), P),
      (Pod("apps", "ok", podspec([C("app", "registry.acme.io/app:1", res=LIM)])), P),
      (Pod("apps", "requests-only", podspec([C("app", "registry.acme.io/app:1", res=REQ_ONLY)])), F),
      (Pod("apps", "init-unbounded", podspec([C("app", "registry.acme.io/app:1", res=LIM)], init=[C("init", "busybox:1.36")])), F),
      (Pod("apps", "debugged", podspec([C("app", "registry.acme.io/app:1", res=LIM)],
            eph=[{"name": "debugger-2m", "image": "busybox:1.36", "targetContainerName": "app"}])), P),
      (Deployment("apps", "api", podspec([C("api", "registry.acme.io/api:1")])), F),
      (Deployment("apps", "api-ok", podspec([C("api", "registry.acme.io/api:1", res=LIM)])), P),
      (StatefulSet("apps", "queue", podspec([C("q", "registry.acme.io/q:1", res=LIM), C("metrics", "registry.acme.io/q-metrics:1", res={"limits": {"cpu": "100m"}})])), F),
      (DaemonSet("apps", "agent", podspec([C("agent", "registry.acme.io/agent:1", res={"limits": {"memory": "64Mi"}})])), P),
      (Job("apps", "once", podspec([C("once", "registry.acme.io/once:1", res=LIM)])), P),
      (CronJob("apps", "nightly", podspec([C("n", "registry.acme.io/n:1", res=LIM)], init=[C("fetch", "curlimages/curl:8.7.1")])), F),
      (Pod("monitoring", "prom-debug", podspec([C("p", "quay.io/prometheus/prometheus:v2.52.0")])), P),
      (DaemonSet("kube-system", "kube-proxy", podspec([C("kube-proxy", "registry.k8s.io/kube-proxy:v1.30.2")])), P),
      ])

SCHEME = "service.beta.kubernetes.io/aws-load-balancer-scheme"
case("v18-vpol-loadbalancer-match-conditions",
     vp("internal-load-balancers-only",
        {"resourceRules": [rr("", "services")],
         "namespaceSelector": {"matchExpressions": [{"key": "kubernetes.io/metadata.name", "operator": "NotIn", "values": ["kube-system"]}]}},
        [{"expression": "variables.scheme == 'internal'",
          "messageExpression": "'LoadBalancer ' + object.metadata.name + ' must be internal, scheme is \"' + variables.scheme + '\"'"},
         {"expression": "!object.spec.ports.exists(p, p.port == 22)", "message": "SSH must not be exposed through a LoadBalancer"}],
        actions=("Deny", "Audit"),
        conditions=[{"name": "only-load-balancers", "expression": "has(object.spec.type) && object.spec.type == 'LoadBalancer'"}],
        variables=[{"name": "scheme", "expression": "has(object.metadata.annotations) && '" + SCHEME + "' in object.metadata.annotations ? object.metadata.annotations['" + SCHEME + "'] : ''"}]),
     [(Namespace("edge"), P), (Namespace("kube-system"), P),
      (Service("edge", "internal-api", "LoadBalancer", ann={SCHEME: "internal"}), P),
      (Service("edge", "public-api", "LoadBalancer", ann={SCHEME: "internet-facing"}), F),
      (Service("edge", "unannotated-lb", "LoadBalancer"), F),
      (Service("edge", "wrong-key", "LoadBalancer", ann={"service.beta.kubernetes.io/aws-load-balancer-internal": "true"}), F),
      (Service("edge", "bastion", "LoadBalancer", ann={SCHEME: "internal"}, ports=((22, 22),)), F),
      (Service("edge", "ssh-nodeport", "NodePort", ports=((22, 22),)), P),
      (Service("edge", "cluster-ip"), P),
      (Service("kube-system", "dns-lb", "LoadBalancer", ports=((53, 53),)), P),
      (ConfigMap("edge", "lb-notes", {SCHEME: "internet-facing"}), P),
      ])

OWNER = "acme.io/owner"
case("v19-vpol-namespace-owner-regex-exclude-names",
     vp("namespace-owner-annotation",
        {"resourceRules": [rr("", "namespaces")],
         "excludeResourceRules": [rr("", "namespaces", names=["kube-system", "kube-public", "kube-node-lease", "default"])]},
        [{"expression": "variables.owner.matches('^[a-z0-9.-]+@acme\\\\.io$')",
          "messageExpression": "'namespace ' + object.metadata.name + ' needs an acme.io/owner annotation with an @acme.io address'"}],
        variables=[{"name": "owner", "expression": "has(object.metadata.annotations) && '" + OWNER + "' in object.metadata.annotations ? object.metadata.annotations['" + OWNER + "'] : ''"}]),
     [(dict(Namespace("payments"), metadata={**Namespace("payments")["metadata"], "annotations": {OWNER: "jane.doe@acme.io"}}), P),
      (dict(Namespace("search"), metadata={**Namespace("search")["metadata"], "annotations": {OWNER: "Search-Team@acme.io"}}), F),
      (dict(Namespace("ads"), metadata={**Namespace("ads")["metadata"], "annotations": {OWNER: "ads@acme.io.example.com"}}), F),
      (dict(Namespace("labs"), metadata={**Namespace("labs")["metadata"], "annotations": {OWNER: "lab-ops@acme-io.com"}}), F),
      (Namespace("growth", {OWNER: "growth"}), F),
      (Namespace("unowned"), F),
      (Namespace("kube-system"), P),
      (Namespace("default"), P),
      (Namespace("kube-flannel"), F),
      (ConfigMap("unowned", "settings", {"x": "y"}), P),
      ])


# ================================================================ k20
def Ingress(ns, name, hosts, tls=None, labels=None):
    spec = {"ingressClassName": "nginx",
            "rules": [{"host": h, "http": {"paths": [{"path": "/", "pathType": "Prefix",
                       "backend": {"service": {"name": name, "port": {"number": 80}}}}]}} for h in hosts]}
    if tls is not None:
        spec["tls"] = tls
    return {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": meta(name, ns, labels), "spec": spec}

case("k20-ingress-tls-exclude-selectors",
     cp("ingress-requires-tls", [{
         "name": "tls-secret-required",
         "match": kinds("Ingress"),
         "exclude": {"any": [
             {"resources": {"selector": {"matchLabels": {"acme.io/plain-http": "allowed"}}}},
             {"resources": {"namespaceSelector": {"matchExpressions": [{"key": "env", "operator": "In", "values": ["dev", "sandbox"]}]}}}]},
         "validate": {"message": "Ingress {{ request.object.metadata.namespace }}/{{ request.object.metadata.name }} must terminate TLS with a named secret",
                      "pattern": {"spec": {"tls": [{"secretName": "?*"}]}}}}], action="Enforce"),
     [(Namespace("store", {"env": "prod"}), P), (Namespace("playground", {"env": "sandbox"}), P), (Namespace("internal"), P),
      (Ingress("store", "shop", ["shop.acme.example"], tls=[{"hosts": ["shop.acme.example"], "secretName": "shop-tls"}]), P),
      (Ingress("store", "plain", ["plain.acme.example"]), F),
      (Ingress("store", "acme-challenge", ["shop.acme.example"], labels={"acme.io/plain-http": "allowed"}), P),
      (Ingress("store", "legacy-redirect", ["old.acme.example"], labels={"acme.io/plain-http": "true"}), F),
      (Ingress("store", "default-cert", ["api.acme.example"], tls=[{"hosts": ["api.acme.example"]}]), F),
      (Ingress("store", "two-tls", ["a.acme.example", "b.acme.example"],
               tls=[{"hosts": ["a.acme.example"], "secretName": "a-tls"}, {"hosts": ["b.acme.example"], "secretName": ""}]), F),
      (Ingress("playground", "demo", ["demo.acme.example"]), P),
      (Ingress("internal", "wiki", ["wiki.corp.acme.example"]), F),
      (Service("store", "shop"), P),
      ]) 

# ================================================================ writer
def main(argv):
    if len(argv) != 2:
        sys.exit("usage: gen.py OUTDIR")
    out = os.path.join(argv[1], "cases")
    os.makedirs(out, exist_ok=True)
    names = [c[0] for c in CASES]
    assert len(names) == len(set(names))
    total = {"fail": 0, "pass": 0}
    for name, policy, objs in CASES:
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        exp = {}
        for o, lab in objs:
            k = key(o)
            assert k not in exp, (name, k)
            assert lab in ("fail", "pass")
            exp[k] = lab
            total[lab] += 1
        with open(os.path.join(d, "policy.yaml"), "w") as f:
            f.write(dump_all([policy]))
        with open(os.path.join(d, "resources.yaml"), "w") as f:
            f.write(dump_all([o for o, _ in objs]))
        with open(os.path.join(d, "expected.json"), "w") as f:
            json.dump(exp, f, indent=2)
            f.write("\n")
        print(f"{name}: {sum(1 for v in exp.values() if v == 'fail')} fail / {len(exp)} objects")
    print(f"{len(CASES)} cases, {total['fail'] + total['pass']} objects: {total['fail']} fail, {total['pass']} pass")

if __name__ == "__main__":
    main(sys.argv)
