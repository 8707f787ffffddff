#!/usr/bin/env python3
"""Held-out Gatekeeper material (set gatekeeper1), stdlib only, deterministic.

    python3 gen.py OUTDIR

writes OUTDIR/<case>/{template.yaml,resources.yaml,expected.json} for every case.
Labels (expected.json) are written by hand below, case by case, and were fixed before anything
was run; see README.md for the reasons.
"""
import json
import os
import re
import sys

# --------------------------------------------------------------------------- tiny YAML emitter

_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_./:@-]*")
_RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}


def _scalar(v):
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if isinstance(v, int):
        return str(v)
    s = str(v)
    if _PLAIN.fullmatch(s) and s.lower() not in _RESERVED and not s.endswith(":"):
        return s
    return json.dumps(s)


def _key(k):
    if re.fullmatch(r"[A-Za-z0-9_./-]+", k) and k.lower() not in _RESERVED:
        return k
    return json.dumps(k)


def _emit(v, ind):
    pad = " " * ind
    out = []
    if isinstance(v, dict):
        for k, x in v.items():
            if isinstance(x, str) and "\n" in x:
                out.append(f"{pad}{_key(k)}: |")
                for line in x.rstrip("\n").split("\n"):
                    out.append((pad + "  " + line) if line else "")
            elif isinstance(x, dict) and x:
                out.append(f"{pad}{_key(k)}:")
                out.extend(_emit(x, ind + 2))
            elif isinstance(x, list) and x:
                out.append(f"{pad}{_key(k)}:")
                out.extend(_emit(x, ind))
            elif isinstance(x, dict):
                out.append(f"{pad}{_key(k)}: {{}}")
            elif isinstance(x, list):
                out.append(f"{pad}{_key(k)}: []")
            else:
                out.append(f"{pad}{_key(k)}: {_scalar(x)}")
    elif isinstance(v, list):
        for x in v:
            if isinstance(x, dict) and x:
                sub = _emit(x, ind + 2)
                sub[0] = pad + "- " + sub[0][ind + 2:]
                out.extend(sub)
            elif isinstance(x, list) and x:
                sub = _emit(x, ind + 2)
                sub[0] = pad + "- " + sub[0][ind + 2:]
                out.extend(sub)
            elif isinstance(x, str) and "\n" in x:
                out.append(f"{pad}- |")
                for line in x.rstrip("\n").split("\n"):
                    out.append((pad + "  " + line) if line else "")
            else:
                out.append(f"{pad}- {_scalar(x)}")
    else:
        out.append(pad + _scalar(v))
    return out


def yaml_docs(objs):
    return "---\n".join("\n".join(_emit(o, 0)) + "\n" for o in objs)


# --------------------------------------------------------------------------- object helpers


def meta(name, ns=None, labels=None, ann=None):
    m = {"name": name}
    if ns:
        m["namespace"] = ns
    if labels:
        m["labels"] = dict(labels)
    if ann:
        m["annotations"] = dict(ann)
    return m


def NS(name, labels=None, ann=None):
    lab = {"kubernetes.io/metadata.name": name}
    lab.update(labels or {})
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": meta(name, labels=lab, ann=ann)}


def C(name, image, **kw):
    c = {"name": name, "image": image}
    c.update(kw)
    return c


def POD(ns, name, containers, labels=None, ann=None, init=None, **spec):
    s = {}
    s.update(spec)
    if init:
        s["initContainers"] = init
    s["containers"] = containers
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta(name, ns, labels, ann), "spec": s}


def WL(kind, ns, name, containers, replicas=None, labels=None, ann=None, tmpl_labels=None,
       tmpl_ann=None, init=None, api="apps/v1", **podspec):
    tl = {"app": name}
    tl.update(tmpl_labels or {})
    ps = {}
    ps.update(podspec)
    if init:
        ps["initContainers"] = init
    ps["containers"] = containers
    tm = {"labels": tl}
    if tmpl_ann:
        tm["annotations"] = dict(tmpl_ann)
    spec = {}
    if replicas is not None:
        spec["replicas"] = replicas
    if kind == "StatefulSet":
        spec["serviceName"] = name
    if kind != "Pod":
        spec["selector"] = {"matchLabels": {"app": name}}
    spec["template"] = {"metadata": tm, "spec": ps}
    return {"apiVersion": api, "kind": kind, "metadata": meta(name, ns, labels, ann), "spec": spec}


def SVC(ns, name, typ=None, labels=None, ann=None, **extra):
    spec = {}
    if typ:
        spec["type"] = typ
    spec["selector"] = {"app": name}
    spec["ports"] = [{"name": "http", "port": 80, "targetPort": 8080}]
    spec.update(extra)
    if typ == "ExternalName":
        spec = {"type": "ExternalName", "externalName": extra.get("externalName", "db.example.net")}
    return {"apiVersion": "v1", "kind": "Service", "metadata": meta(name, ns, labels, ann), "spec": spec}


def CM(ns, name, labels=None, ann=None):
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta(name, ns, labels, ann),
            "data": {"LOG_LEVEL": "info"}}


def CLUSTERROLE(name, labels=None, ann=None):
    return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
            "metadata": meta(name, labels=labels, ann=ann),
            "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "list"]}]}


def TPL(kind, rego, props, libs=None):
    target = {"target": "admission.k8s.gatekeeper.sh", "rego": rego}
    if libs:
        target["libs"] = libs
    return {
        "apiVersion": "templates.gatekeeper.sh/v1",
        "kind": "ConstraintTemplate",
        "metadata": {"name": kind.lower()},
        "spec": {
            "crd": {"spec": {"names": {"kind": kind},
                             "validation": {"openAPIV3Schema": {"type": "object", "properties": props}}}},
            "targets": [target],
        },
    }


def CON(kind, name, match=None, params=None, **extra):
    spec = {}
    spec.update(extra)
    if match is not None:
        spec["match"] = match
    if params is not None:
        spec["parameters"] = params
    return {"apiVersion": "constraints.gatekeeper.sh/v1beta1", "kind": kind,
            "metadata": {"name": name}, "spec": spec}


STR_LIST = {"type": "array", "items": {"type": "string"}}
POD_KIND = [{"apiGroups": [""], "kinds": ["Pod"]}]

# a Rego library of required label keys, reused (copied) in several cases
REQ_LABEL_KEYS = """package acmerequiredlabelkeys

violation[{"msg": msg}] {
  key := input.parameters.labels[_]
  not has_label(key)
  msg := sprintf("%v %v has no label %v", [input.review.object.kind, input.review.object.metadata.name, key])
}

has_label(key) {
  _ = input.review.object.metadata.labels[key]
}
"""

CASES = []


def case(cid, templates, resources, expected):
    CASES.append((cid, templates, resources, expected))


# =========================================================================== gk01
# Required labels, one template, two constraints: Deployments in team-* need `owner`;
# Namespaces (except kube-* and default) need cost-center matching ^cc-[0-9]{4}$.
REGO01 = """package acmerequiredlabels

violation[{"msg": msg}] {
  req := input.parameters.labels[_]
  not has_label(req.key)
  msg := sprintf("missing required label %v", [req.key])
}

violation[{"msg": msg}] {
  req := input.parameters.labels[_]
  value := input.review.object.metadata.labels[req.key]
  req.allowedRegex != ""
  not regex.match(req.allowedRegex, value)
  msg := sprintf("label %v=%v does not match %v", [req.key, value, req.allowedRegex])
}

has_label(key) {
  _ = input.review.object.metadata.labels[key]
}
"""
case(
    "gk01-required-labels-two-constraints",
    [
        TPL("AcmeRequiredLabels", REGO01, {"labels": {"type": "array", "items": {
            "type": "object", "properties": {"key": {"type": "string"}, "allowedRegex": {"type": "string"}}}}}),
        CON("AcmeRequiredLabels", "team-deployments-need-owner",
            {"kinds": [{"apiGroups": ["apps"], "kinds": ["Deployment"]}], "namespaces": ["team-*"]},
            {"labels": [{"key": "owner"}]}),
        CON("AcmeRequiredLabels", "namespaces-need-cost-center",
            {"kinds": [{"apiGroups": [""], "kinds": ["Namespace"]}], "excludedNamespaces": ["kube-*", "default"]},
            {"labels": [{"key": "cost-center", "allowedRegex": "^cc-[0-9]{4}$"}]}),
    ],
    [
        NS("team-a", {"cost-center": "cc-1234"}),
        NS("team-b", {"cost-center": "1234"}),
        NS("team-c", {"costcenter": "cc-2000"}),
        NS("teams-shared", {"cost-center": "cc-7777"}),
        NS("tools", {"cost-center": "cc-0042"}),
        NS("default"),
        NS("kube-system"),
        NS("kube-node-lease"),
        WL("Deployment", "team-a", "web", [C("web", "nginx:1.25")], 2, labels={"owner": "alice", "app": "web"}),
        WL("Deployment", "team-a", "worker", [C("worker", "acme/worker:3")], 1, labels={"app": "worker"},
           tmpl_labels={"owner": "alice"}),
        WL("Deployment", "team-b", "api", [C("api", "acme/api:7")], 2),
        WL("Deployment", "team-c", "cron", [C("cron", "acme/cron:1")], 1, labels={"Owner": "bob"}),
        WL("Deployment", "teams-shared", "sync", [C("sync", "acme/sync:2")], 1),
        WL("Deployment", "tools", "runner", [C("runner", "acme/runner:9")], 1),
        SVC("team-a", "web"),
    ],
    {
        "Namespace//team-a": "pass",
        "Namespace//team-b": "fail",
        "Namespace//team-c": "fail",
        "Namespace//teams-shared": "pass",
        "Namespace//tools": "pass",
        "Namespace//default": "pass",
        "Namespace//kube-system": "pass",
        "Namespace//kube-node-lease": "pass",
        "Deployment/team-a/web": "pass",
        "Deployment/team-a/worker": "fail",
        "Deployment/team-b/api": "fail",
        "Deployment/team-c/cron": "fail",
        "Deployment/teams-shared/sync": "pass",
        "Deployment/tools/runner": "pass",
        "Service/team-a/web": "pass",
    },
)

# =========================================================================== gk02
REGO02 = """package acmeallowedrepos

images[pair] {
  c := input.review.object.spec.containers[_]
  pair := [c.name, c.image]
}

images[pair] {
  c := input.review.object.spec.initContainers[_]
  pair := [c.name, c.image]
}

images[pair] {
  c := input.review.object.spec.ephemeralContainers[_]
  pair := [c.name, c.image]
}

violation[{"msg": msg}] {
  pair := images[_]
  not allowed(pair[1])
  msg := sprintf("container %v uses image %v from a registry outside %v", [pair[0], pair[1], input.parameters.repos])
}

allowed(image) {
  startswith(image, input.parameters.repos[_])
}
"""
case(
    "gk02-allowed-repos-near-miss-prefixes",
    [
        TPL("AcmeAllowedRepos", REGO02, {"repos": STR_LIST}),
        CON("AcmeAllowedRepos", "prod-images-from-corp",
            {"kinds": POD_KIND, "namespaceSelector": {"matchLabels": {"env": "prod"}}},
            {"repos": ["registry.corp.example/", "ghcr.io/acme/"]}),
        CON("AcmeAllowedRepos", "staging-images",
            {"kinds": POD_KIND,
             "namespaceSelector": {"matchExpressions": [{"key": "env", "operator": "In", "values": ["staging"]}]}},
            {"repos": ["registry.corp.example/", "ghcr.io/acme/", "docker.io/library/"]}),
    ],
    [
        NS("shop", {"env": "prod"}),
        NS("shop-staging", {"env": "staging"}),
        NS("sandbox"),
        POD("shop", "frontend", [C("frontend", "registry.corp.example/shop/frontend:2.1")]),
        POD("shop", "cart", [C("cart", "registry.corp.example.evil.io/shop/cart:1.0")]),
        POD("shop", "checkout", [C("checkout", "ghcr.io/acme-labs/checkout:3")]),
        POD("shop", "catalog", [C("catalog", "ghcr.io/acme/catalog:5")]),
        POD("shop", "payments", [C("payments", "registry.corp.example/shop/payments:4")],
            init=[C("wait-db", "docker.io/library/busybox:1.36")]),
        POD("shop-staging", "payments", [C("payments", "registry.corp.example/shop/payments:4")],
            init=[C("wait-db", "docker.io/library/busybox:1.36")]),
        POD("shop-staging", "redis", [C("redis", "redis:7")]),
        POD("sandbox", "toy", [C("toy", "docker.io/nginx")]),
        WL("Deployment", "shop", "legacy", [C("legacy", "quay.io/oldvendor/legacy:0.9")], 1),
    ],
    {
        "Namespace//shop": "pass",
        "Namespace//shop-staging": "pass",
        "Namespace//sandbox": "pass",
        "Pod/shop/frontend": "pass",
        "Pod/shop/cart": "fail",
        "Pod/shop/checkout": "fail",
        "Pod/shop/catalog": "pass",
        "Pod/shop/payments": "fail",
        "Pod/shop-staging/payments": "pass",
        "Pod/shop-staging/redis": "fail",
        "Pod/sandbox/toy": "pass",
        "Deployment/shop/legacy": "pass",
    },
)

# =========================================================================== gk03
REGO03 = """package acmenoprivileged

input_containers[c] {
  c := input.review.object.spec.containers[_]
}

input_containers[c] {
  c := input.review.object.spec.initContainers[_]
}

violation[{"msg": msg}] {
  c := input_containers[_]
  c.securityContext.privileged == true
  msg := sprintf("privileged container %v is not allowed", [c.name])
}
"""
PRIV = {"privileged": True}
case(
    "gk03-privileged-label-selector-exclusion",
    [
        TPL("AcmeNoPrivileged", REGO03, {}),
        CON("AcmeNoPrivileged", "no-privileged-pods",
            {"kinds": POD_KIND, "excludedNamespaces": ["kube-*"],
             "labelSelector": {"matchExpressions": [{"key": "security.acme.io/exempt", "operator": "DoesNotExist"}]}}),
    ],
    [
        NS("app"),
        NS("kube-system"),
        NS("kubeflow"),
        POD("app", "nettool", [C("nettool", "acme/nettool:1", securityContext=PRIV)]),
        POD("app", "csi-node", [C("csi", "acme/csi:2", securityContext=PRIV)],
            labels={"security.acme.io/exempt": "true"}),
        POD("app", "tcpdump", [C("tcpdump", "acme/tcpdump:1", securityContext=PRIV)],
            labels={"security.acme.io/exempt": "false"}),
        POD("app", "web", [C("web", "nginx:1.25", securityContext={"privileged": False})]),
        POD("app", "setup", [C("app", "acme/app:1")],
            init=[C("sysctl", "busybox:1.36", securityContext=PRIV)]),
        POD("app", "capable", [C("capable", "acme/capable:1",
                                 securityContext={"capabilities": {"add": ["SYS_ADMIN", "NET_ADMIN"]}})]),
        POD("kube-system", "kube-proxy-x7k2p", [C("kube-proxy", "registry.k8s.io/kube-proxy:v1.30.2",
                                                  securityContext=PRIV)]),
        POD("kubeflow", "notebook", [C("notebook", "acme/notebook:1", securityContext=PRIV)]),
        WL("DaemonSet", "app", "node-agent", [C("agent", "acme/agent:1", securityContext=PRIV)]),
    ],
    {
        "Namespace//app": "pass",
        "Namespace//kube-system": "pass",
        "Namespace//kubeflow": "pass",
        "Pod/app/nettool": "fail",
        "Pod/app/csi-node": "pass",
        "Pod/app/tcpdump": "pass",
        "Pod/app/web": "pass",
        "Pod/app/setup": "fail",
        "Pod/app/capable": "pass",
        "Pod/kube-system/kube-proxy-x7k2p": "pass",
        "Pod/kubeflow/notebook": "fail",
        "DaemonSet/app/node-agent": "pass",
    },
)

# =========================================================================== gk04
REGO04 = """package acmecontainerresources

all_containers[c] {
  c := input.review.object.spec.containers[_]
}

all_containers[c] {
  c := input.review.object.spec.initContainers[_]
}

violation[{"msg": msg}] {
  c := all_containers[_]
  r := input.parameters.limits[_]
  not c.resources.limits[r]
  msg := sprintf("container %v has no %v limit", [c.name, r])
}

violation[{"msg": msg}] {
  c := all_containers[_]
  r := input.parameters.requests[_]
  not c.resources.requests[r]
  msg := sprintf("container %v has no %v request", [c.name, r])
}
"""


def RES(limits=None, requests=None):
    r = {}
    if limits:
        r["limits"] = limits
    if requests:
        r["requests"] = requests
    return r


case(
    "gk04-resources-two-constraints",
    [
        TPL("AcmeContainerResources", REGO04, {"limits": STR_LIST, "requests": STR_LIST}),
        CON("AcmeContainerResources", "memory-limits-everywhere",
            {"kinds": POD_KIND, "excludedNamespaces": ["kube-*"]}, {"limits": ["memory"]}),
        CON("AcmeContainerResources", "critical-needs-requests",
            {"kinds": POD_KIND, "namespaceSelector": {"matchLabels": {"tier": "critical"}}},
            {"requests": ["cpu", "memory"]}),
    ],
    [
        NS("billing", {"tier": "critical"}),
        NS("web", {"tier": "standard"}),
        NS("kube-system"),
        POD("billing", "ledger", [C("ledger", "acme/ledger:1", resources=RES(
            {"memory": "512Mi"}, {"cpu": "250m", "memory": "256Mi"}))]),
        POD("billing", "reporter", [C("reporter", "acme/reporter:1", resources=RES({"memory": "256Mi"}))]),
        POD("billing", "exporter", [C("exporter", "acme/exporter:1", resources=RES(
            {"cpu": "500m"}, {"cpu": "100m", "memory": "64Mi"}))]),
        POD("web", "frontend", [C("frontend", "acme/frontend:1", resources=RES({"memory": "128Mi"}))]),
        POD("web", "cache", [C("cache", "acme/cache:1", resources=RES({"cpu": "1"}, {"memory": "1Gi"}))]),
        POD("web", "migrator", [C("app", "acme/app:1", resources=RES({"memory": "128Mi"}))],
            init=[C("migrate", "acme/migrate:1")]),
        POD("web", "typo", [C("typo", "acme/typo:1", resources={"limit": {"memory": "128Mi"}})]),
        POD("web", "sidecars", [C("app", "acme/app:1", resources=RES({"memory": "128Mi"})),
                                C("proxy", "envoyproxy/envoy:v1.30.1", resources=RES(None, {"memory": "64Mi"}))]),
        POD("kube-system", "coredns-5d78c9869d-abcde", [C("coredns", "registry.k8s.io/coredns/coredns:v1.11.1")]),
    ],
    {
        "Namespace//billing": "pass",
        "Namespace//web": "pass",
        "Namespace//kube-system": "pass",
        "Pod/billing/ledger": "pass",
        "Pod/billing/reporter": "fail",
        "Pod/billing/exporter": "fail",
        "Pod/web/frontend": "pass",
        "Pod/web/cache": "fail",
        "Pod/web/migrator": "fail",
        "Pod/web/typo": "fail",
        "Pod/web/sidecars": "fail",
        "Pod/kube-system/coredns-5d78c9869d-abcde": "pass",
    },
)

# =========================================================================== gk05
REGO05 = """package acmehostnamespaces

violation[{"msg": msg}] {
  field := ["hostNetwork", "hostPID", "hostIPC"][_]
  input.review.object.spec[field] == true
  not allowed(field)
  msg := sprintf("%v is not allowed for %v", [field, input.review.object.metadata.name])
}

allowed(field) {
  input.parameters.allowed[_] == field
}
"""
case(
    "gk05-host-namespaces-per-namespace-allowance",
    [
        TPL("AcmeHostNamespaces", REGO05, {"allowed": STR_LIST}),
        CON("AcmeHostNamespaces", "no-host-namespaces",
            {"kinds": POD_KIND, "excludedNamespaces": ["kube-*", "monitoring"]}, {"allowed": []}),
        CON("AcmeHostNamespaces", "monitoring-host-net-pid",
            {"kinds": POD_KIND, "namespaces": ["monitoring"]}, {"allowed": ["hostNetwork", "hostPID"]}),
    ],
    [
        NS("monitoring"),
        NS("monitoring-lab"),
        NS("app"),
        NS("kube-system"),
        POD("monitoring", "node-exporter-4xz9q", [C("node-exporter", "quay.io/prometheus/node-exporter:v1.8.1")],
            hostNetwork=True, hostPID=True),
        POD("monitoring", "ipc-debug", [C("debug", "acme/debug:1")], hostIPC=True),
        POD("monitoring-lab", "node-exporter-test", [C("node-exporter", "quay.io/prometheus/node-exporter:v1.8.1")],
            hostNetwork=True),
        POD("app", "web", [C("web", "nginx:1.25")], hostNetwork=False),
        POD("app", "sniffer", [C("sniffer", "acme/sniffer:1")], hostNetwork=True),
        POD("app", "pidshare", [C("app", "acme/app:1"), C("debug", "acme/debug:1")], shareProcessNamespace=True),
        POD("kube-system", "cilium-8hd2k", [C("cilium-agent", "quay.io/cilium/cilium:v1.15.6")],
            hostNetwork=True, hostPID=True),
        WL("DaemonSet", "app", "log-agent", [C("agent", "fluent/fluent-bit:3.0")], hostNetwork=True),
    ],
    {
        "Namespace//monitoring": "pass",
        "Namespace//monitoring-lab": "pass",
        "Namespace//app": "pass",
        "Namespace//kube-system": "pass",
        "Pod/monitoring/node-exporter-4xz9q": "pass",
        "Pod/monitoring/ipc-debug": "fail",
        "Pod/monitoring-lab/node-exporter-test": "fail",
        "Pod/app/web": "pass",
        "Pod/app/sniffer": "fail",
        "Pod/app/pidshare": "pass",
        "Pod/kube-system/cilium-8hd2k": "pass",
        "DaemonSet/app/log-agent": "pass",
    },
)

# =========================================================================== gk06
REGO06 = """package acmereplicabounds

replicas = r {
  r := object.get(input.review.object.spec, "replicas", 1)
}

violation[{"msg": msg}] {
  replicas < input.parameters.min
  msg := sprintf("%v replicas is below the minimum %v", [replicas, input.parameters.min])
}

violation[{"msg": msg}] {
  replicas > input.parameters.max
  msg := sprintf("%v replicas is above the maximum %v", [replicas, input.parameters.max])
}
"""
APPS_DS = [{"apiGroups": ["apps"], "kinds": ["Deployment", "StatefulSet"]}]
case(
    "gk06-replica-bounds-in-notin",
    [
        TPL("AcmeReplicaBounds", REGO06, {"min": {"type": "integer"}, "max": {"type": "integer"}}),
        CON("AcmeReplicaBounds", "prod-replicas",
            {"kinds": APPS_DS, "namespaceSelector": {"matchExpressions": [
                {"key": "env", "operator": "In", "values": ["prod", "production"]}]}},
            {"min": 2, "max": 20}),
        CON("AcmeReplicaBounds", "nonprod-replicas",
            {"kinds": APPS_DS, "namespaceSelector": {"matchExpressions": [
                {"key": "env", "operator": "NotIn", "values": ["prod", "production"]}]}},
            {"min": 0, "max": 3}),
    ],
    [
        NS("orders", {"env": "production"}),
        NS("search", {"env": "prod"}),
        NS("qa", {"env": "qa"}),
        NS("scratch"),
        WL("Deployment", "orders", "api", [C("api", "acme/orders-api:4")], 3),
        WL("Deployment", "orders", "worker", [C("worker", "acme/orders-worker:4")]),
        WL("Deployment", "orders", "paused", [C("paused", "acme/orders-paused:1")], 0),
        WL("StatefulSet", "search", "es", [C("es", "docker.elastic.co/elasticsearch/elasticsearch:8.14.1")], 1),
        WL("Deployment", "search", "indexer", [C("indexer", "acme/indexer:2")], 25),
        WL("Deployment", "qa", "api", [C("api", "acme/orders-api:5-rc1")], 3),
        WL("Deployment", "qa", "loadgen", [C("loadgen", "acme/loadgen:1")], 4),
        WL("Deployment", "scratch", "experiment", [C("exp", "acme/exp:0.1")], 5),
        WL("ReplicaSet", "qa", "manual-rs", [C("rs", "acme/rs:1")], 10),
        {"apiVersion": "ops.acme.io/v1", "kind": "Deployment",
         "metadata": meta("rollout-tracker", "orders"),
         "spec": {"replicas": 0, "target": "orders/api", "strategy": "canary"}},
    ],
    {
        "Namespace//orders": "pass",
        "Namespace//search": "pass",
        "Namespace//qa": "pass",
        "Namespace//scratch": "pass",
        "Deployment/orders/api": "pass",
        "Deployment/orders/worker": "fail",
        "Deployment/orders/paused": "fail",
        "StatefulSet/search/es": "fail",
        "Deployment/search/indexer": "fail",
        "Deployment/qa/api": "pass",
        "Deployment/qa/loadgen": "fail",
        "Deployment/scratch/experiment": "fail",
        "ReplicaSet/qa/manual-rs": "pass",
        "Deployment/orders/rollout-tracker": "pass",
    },
)

# =========================================================================== gk07
REGO07 = """package acmerequiredannotations

violation[{"msg": msg}] {
  key := input.parameters.annotations[_]
  not has_annotation(key)
  msg := sprintf("annotation %v is required", [key])
}

has_annotation(key) {
  _ = input.review.object.metadata.annotations[key]
}
"""
case(
    "gk07-namespace-selector-on-namespaces-and-cluster-objects",
    [
        TPL("AcmeRequiredAnnotations", REGO07, {"annotations": STR_LIST}),
        TPL("AcmeRequiredLabelKeys", REQ_LABEL_KEYS, {"labels": STR_LIST}),
        CON("AcmeRequiredAnnotations", "managed-namespaces-owner-email",
            {"kinds": [{"apiGroups": [""], "kinds": ["Namespace"]}],
             "namespaceSelector": {"matchLabels": {"acme.io/managed": "true"}}},
            {"annotations": ["acme.io/owner-email"]}),
        CON("AcmeRequiredLabelKeys", "pci-data-classification",
            {"namespaceSelector": {"matchExpressions": [{"key": "compliance.acme.io/pci", "operator": "Exists"}]}},
            {"labels": ["data-classification"]}),
    ],
    [
        NS("payments", {"acme.io/managed": "true", "compliance.acme.io/pci": "in-scope"},
           {"acme.io/owner-email": "payments@acme.example"}),
        NS("cards", {"acme.io/managed": "true", "compliance.acme.io/pci": "", "data-classification": "restricted"}),
        NS("catalog", {"acme.io/managed": "true"}, {"acme.io/owner-email": "catalog@acme.example"}),
        NS("blog", {"acme.io/managed": "false"}),
        NS("legacy"),
        CM("payments", "settings"),
        {"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
         "metadata": meta("db", "payments", {"data-classification": "secret"}),
         "data": {"password": "cGFzc3dvcmQ="}},
        SVC("cards", "api", labels={"data-classification": "internal"}),
        POD("catalog", "web", [C("web", "acme/catalog:1")]),
        CLUSTERROLE("pci-auditor"),
        CLUSTERROLE("view-all", labels={"data-classification": "public"}),
    ],
    {
        "Namespace//payments": "fail",
        "Namespace//cards": "fail",
        "Namespace//catalog": "pass",
        "Namespace//blog": "pass",
        "Namespace//legacy": "pass",
        "ConfigMap/payments/settings": "fail",
        "Secret/payments/db": "pass",
        "Service/cards/api": "pass",
        "Pod/catalog/web": "pass",
        "ClusterRole//pci-auditor": "fail",
        "ClusterRole//view-all": "pass",
    },
)

# =========================================================================== gk08
case(
    "gk08-scope-namespaced-vs-cluster",
    [
        TPL("AcmeRequiredLabelKeys", REQ_LABEL_KEYS, {"labels": STR_LIST}),
        CON("AcmeRequiredLabelKeys", "namespaced-need-part-of",
            {"kinds": [{"apiGroups": ["*"], "kinds": ["*"]}], "scope": "Namespaced",
             "excludedNamespaces": ["kube-*"]},
            {"labels": ["app.kubernetes.io/part-of"]}),
        CON("AcmeRequiredLabelKeys", "cluster-rbac-need-owner",
            {"kinds": [{"apiGroups": ["rbac.authorization.k8s.io"], "kinds": ["ClusterRole", "ClusterRoleBinding"]}],
             "scope": "Cluster"},
            {"labels": ["rbac.acme.io/owner"]}),
    ],
    [
        NS("shop"),
        NS("kube-system"),
        CM("shop", "cfg"),
        SVC("shop", "api", labels={"app.kubernetes.io/part-of": "shop"}),
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": meta("reader", "shop"),
         "rules": [{"apiGroups": [""], "resources": ["configmaps"], "verbs": ["get"]}]},
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
         "metadata": meta("reader-binding", "shop", {"app.kubernetes.io/part-of": "shop"}),
         "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "reader"},
         "subjects": [{"kind": "ServiceAccount", "name": "default", "namespace": "shop"}]},
        CLUSTERROLE("shop-reader"),
        CLUSTERROLE("metrics-reader", labels={"rbac.acme.io/owner": "sre"}),
        {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": meta("pv-data-01"),
         "spec": {"capacity": {"storage": "10Gi"}, "accessModes": ["ReadWriteOnce"],
                  "hostPath": {"path": "/data/pv01"}}},
        {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": meta("fast-ssd"),
         "provisioner": "pd.csi.storage.gke.io", "parameters": {"type": "pd-ssd"}},
        POD("kube-system", "etcd-cp-1", [C("etcd", "registry.k8s.io/etcd:3.5.12-0")]),
    ],
    {
        "Namespace//shop": "pass",
        "Namespace//kube-system": "pass",
        "ConfigMap/shop/cfg": "fail",
        "Service/shop/api": "pass",
        "Role/shop/reader": "fail",
        "RoleBinding/shop/reader-binding": "pass",
        "ClusterRole//shop-reader": "fail",
        "ClusterRole//metrics-reader": "pass",
        "PersistentVolume//pv-data-01": "pass",
        "StorageClass//fast-ssd": "pass",
        "Pod/kube-system/etcd-cp-1": "pass",
    },
)

# =========================================================================== gk09
REGO09 = """package acmeservicetypes

violation[{"msg": msg}] {
  t := input.review.object.spec.type
  input.parameters.disallowedTypes[_] == t
  msg := sprintf("Service type %v is not allowed here", [t])
}
"""
case(
    "gk09-service-types-suffix-glob",
    [
        TPL("AcmeServiceTypes", REGO09, {"disallowedTypes": STR_LIST}),
        CON("AcmeServiceTypes", "no-external-services",
            {"kinds": [{"apiGroups": [""], "kinds": ["Service"]}], "excludedNamespaces": ["*-system", "ingress-*"]},
            {"disallowedTypes": ["LoadBalancer", "NodePort"]}),
    ],
    [
        NS("istio-system"),
        NS("ingress-nginx"),
        NS("system-tools"),
        NS("payments"),
        NS("kube-system"),
        SVC("istio-system", "istio-ingressgateway", "LoadBalancer"),
        SVC("ingress-nginx", "ingress-nginx-controller", "LoadBalancer"),
        SVC("system-tools", "grafana", "NodePort"),
        SVC("payments", "api", "NodePort"),
        SVC("payments", "internal", "ClusterIP"),
        SVC("payments", "db"),
        SVC("payments", "ledger-ext", "ExternalName", externalName="ledger.partner.example"),
        SVC("payments", "lb", "LoadBalancer", loadBalancerSourceRanges=["10.0.0.0/8"]),
        SVC("kube-system", "metrics-lb", "LoadBalancer"),
    ],
    {
        "Namespace//istio-system": "pass",
        "Namespace//ingress-nginx": "pass",
        "Namespace//system-tools": "pass",
        "Namespace//payments": "pass",
        "Namespace//kube-system": "pass",
        "Service/istio-system/istio-ingressgateway": "pass",
        "Service/ingress-nginx/ingress-nginx-controller": "pass",
        "Service/system-tools/grafana": "fail",
        "Service/payments/api": "fail",
        "Service/payments/internal": "pass",
        "Service/payments/db": "pass",
        "Service/payments/ledger-ext": "pass",
        "Service/payments/lb": "fail",
        "Service/kube-system/metrics-lb": "pass",
    },
)

# =========================================================================== gk10
LIB10 = """package lib.acme_exempt

is_exempt(container) {
  exempt := object.get(object.get(input, "parameters", {}), "exemptImages", [])
  pattern := exempt[_]
  image_matches(pattern, container.image)
}

image_matches(pattern, image) {
  endswith(pattern, "*")
  startswith(image, trim_suffix(pattern, "*"))
}

image_matches(pattern, image) {
  not endswith(pattern, "*")
  pattern == image
}
"""
REGO10 = """package acmenoescalation

import data.lib.acme_exempt.is_exempt

containers[c] {
  c := input.review.object.spec.containers[_]
}

containers[c] {
  c := input.review.object.spec.initContainers[_]
}

violation[{"msg": msg}] {
  c := containers[_]
  not is_exempt(c)
  not c.securityContext.allowPrivilegeEscalation == false
  msg := sprintf("container %v must set securityContext.allowPrivilegeEscalation to false", [c.name])
}
"""
APE_F = {"allowPrivilegeEscalation": False}
APE_T = {"allowPrivilegeEscalation": True}
case(
    "gk10-lib-exempt-images-notin-selector",
    [
        TPL("AcmeNoEscalation", REGO10, {"exemptImages": STR_LIST}, libs=[LIB10]),
        CON("AcmeNoEscalation", "no-privilege-escalation",
            {"kinds": POD_KIND,
             "labelSelector": {"matchExpressions": [{"key": "app", "operator": "NotIn", "values": ["legacy-batch"]}]}},
            {"exemptImages": ["registry.corp.example/debug/*", "docker.io/library/busybox:1.36"]}),
    ],
    [
        NS("jobs"),
        POD("jobs", "api", [C("api", "acme/api:1", securityContext=APE_F)], labels={"app": "api"}),
        POD("jobs", "worker", [C("worker", "acme/worker:1")], labels={"app": "worker"}),
        POD("jobs", "escalate", [C("esc", "acme/esc:1", securityContext=APE_T)], labels={"app": "esc"}),
        POD("jobs", "debug", [C("netshoot", "registry.corp.example/debug/netshoot:0.11", securityContext=APE_T)],
            labels={"app": "debug"}),
        POD("jobs", "debugger", [C("dbg", "registry.corp.example/debugger/dlv:1.22")], labels={"app": "debugger"}),
        POD("jobs", "init-busybox", [C("main", "acme/main:1", securityContext=APE_F)],
            labels={"app": "init-busybox"}, init=[C("wait", "docker.io/library/busybox:1.36")]),
        POD("jobs", "init-busybox-patch", [C("main", "acme/main:1", securityContext=APE_F)],
            labels={"app": "init-busybox-patch"}, init=[C("wait", "docker.io/library/busybox:1.36.1")]),
        POD("jobs", "nightly", [C("batch", "acme/batch:1")], labels={"app": "legacy-batch"}),
        POD("jobs", "unlabelled", [C("thing", "acme/thing:1")]),
        POD("jobs", "pod-level-only", [C("app", "acme/app:1")], labels={"app": "pod-level-only"},
            securityContext={"runAsNonRoot": True, "runAsUser": 1000}),
    ],
    {
        "Namespace//jobs": "pass",
        "Pod/jobs/api": "pass",
        "Pod/jobs/worker": "fail",
        "Pod/jobs/escalate": "fail",
        "Pod/jobs/debug": "pass",
        "Pod/jobs/debugger": "fail",
        "Pod/jobs/init-busybox": "pass",
        "Pod/jobs/init-busybox-patch": "fail",
        "Pod/jobs/nightly": "pass",
        "Pod/jobs/unlabelled": "fail",
        "Pod/jobs/pod-level-only": "fail",
    },
)

# =========================================================================== gk11
LIB11 = """package lib.acme_images

last_segment(image) = s {
  parts := split(image, "/")
  s := parts[count(parts) - 1]
}

has_digest(image) {
  contains(image, "@")
}

has_tag(image) {
  not has_digest(image)
  contains(last_segment(image), ":")
}

tag(image) = t {
  not has_digest(image)
  parts := split(last_segment(image), ":")
  count(parts) == 2
  t := parts[1]
}
"""
REGO11 = """package acmeimagetags

import data.lib.acme_images

pod_spec = s {
  input.review.object.kind == "Pod"
  s := input.review.object.spec
}

pod_spec = s {
  input.review.object.kind != "Pod"
  s := input.review.object.spec.template.spec
}

containers[c] {
  c := pod_spec.containers[_]
}

containers[c] {
  c := pod_spec.initContainers[_]
}

violation[{"msg": msg}] {
  c := containers[_]
  t := acme_images.tag(c.image)
  input.parameters.disallowedTags[_] == t
  msg := sprintf("container %v uses the disallowed tag %v", [c.name, t])
}

violation[{"msg": msg}] {
  c := containers[_]
  not acme_images.has_digest(c.image)
  not acme_images.has_tag(c.image)
  msg := sprintf("container %v image %v has neither a tag nor a digest", [c.name, c.image])
}
"""
DIGEST = "sha256:" + "4c0fdaa8b6341bfdeca5f18f7837462c80cff90527ee35ef185571e1c327beac"
case(
    "gk11-image-tags-lib-workloads",
    [
        TPL("AcmeImageTags", REGO11, {"disallowedTags": STR_LIST}, libs=[LIB11]),
        CON("AcmeImageTags", "no-latest-or-untagged",
            {"kinds": [{"apiGroups": [""], "kinds": ["Pod"]}, {"apiGroups": ["apps"], "kinds": ["Deployment", "DaemonSet"]}],
             "excludedNamespaces": ["kube-*"]},
            {"disallowedTags": ["latest"]}),
    ],
    [
        NS("web"),
        NS("kube-system"),
        WL("Deployment", "web", "nginx", [C("nginx", "nginx:latest")], 2),
        WL("Deployment", "web", "proxy", [C("envoy", "envoyproxy/envoy")], 2),
        WL("Deployment", "web", "pinned", [C("nginx", "nginx@" + DIGEST)], 2),
        WL("Deployment", "web", "local", [C("app", "registry.local:5000/web/app")], 1),
        WL("Deployment", "web", "local-tagged", [C("app", "registry.local:5000/web/app:1.4.2")], 1),
        WL("Deployment", "web", "tag-and-digest", [C("nginx", "nginx:1.25@" + DIGEST)], 1),
        WL("DaemonSet", "web", "fluent-bit", [C("fluent-bit", "fluent/fluent-bit:3.0.7")],
           init=[C("chown", "busybox:latest")]),
        WL("StatefulSet", "web", "redis", [C("redis", "redis:latest")], 1),
        {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": meta("report", "web"),
         "spec": {"schedule": "0 3 * * *", "jobTemplate": {"spec": {"template": {"spec": {
             "restartPolicy": "OnFailure", "containers": [C("report", "acme/report:latest")]}}}}}},
        POD("web", "debug", [C("debug", "busybox:latest")]),
        POD("web", "app", [C("app", "acme/app:latest-2024")]),
        POD("kube-system", "kube-apiserver-cp-1", [C("kube-apiserver", "registry.k8s.io/kube-apiserver")]),
    ],
    {
        "Namespace//web": "pass",
        "Namespace//kube-system": "pass",
        "Deployment/web/nginx": "fail",
        "Deployment/web/proxy": "fail",
        "Deployment/web/pinned": "pass",
        "Deployment/web/local": "fail",
        "Deployment/web/local-tagged": "pass",
        "Deployment/web/tag-and-digest": "pass",
        "DaemonSet/web/fluent-bit": "fail",
        "StatefulSet/web/redis": "pass",
        "CronJob/web/report": "pass",
        "Pod/web/debug": "fail",
        "Pod/web/app": "pass",
        "Pod/kube-system/kube-apiserver-cp-1": "pass",
    },
)

# =========================================================================== gk12
REGO12 = """package acmereadonlyrootfs

violation[{"msg": msg}] {
  c := input.review.object.spec.containers[_]
  not c.securityContext.readOnlyRootFilesystem == true
  msg := sprintf("container %v must run with a read-only root filesystem", [c.name])
}
"""
RO = {"readOnlyRootFilesystem": True}
case(
    "gk12-enforcement-actions-dryrun-warn-scoped",
    [
        TPL("AcmeRequiredLabelKeys", REQ_LABEL_KEYS, {"labels": STR_LIST}),
        TPL("AcmeReadOnlyRootFs", REGO12, {}),
        CON("AcmeRequiredLabelKeys", "deployments-need-team",
            {"kinds": [{"apiGroups": ["apps"], "kinds": ["Deployment"]}]}, {"labels": ["team"]},
            enforcementAction="dryrun"),
        CON("AcmeRequiredLabelKeys", "deployments-need-cost-center",
            {"kinds": [{"apiGroups": ["apps"], "kinds": ["Deployment"]}]}, {"labels": ["cost-center"]},
            enforcementAction="scoped",
            scopedEnforcementActions=[{"action": "deny", "enforcementPoints": [{"name": "validation.gatekeeper.sh"}]}]),
        CON("AcmeReadOnlyRootFs", "pods-read-only-root",
            {"kinds": POD_KIND, "namespaces": ["ops"]}, None, enforcementAction="warn"),
    ],
    [
        NS("ops"),
        WL("Deployment", "ops", "alpha", [C("a", "acme/a:1", securityContext=RO)], 1, labels={"team": "sre"}),
        WL("Deployment", "ops", "bravo", [C("b", "acme/b:1", securityContext=RO)], 1),
        WL("Deployment", "ops", "charlie", [C("c", "acme/c:1", securityContext=RO)], 1,
           labels={"team": "sre", "cost-center": "cc-1000"}),
        POD("ops", "p1", [C("p1", "acme/p1:1")]),
        POD("ops", "p2", [C("p2", "acme/p2:1", securityContext=RO)]),
        POD("ops", "p3", [C("app", "acme/p3:1", securityContext=RO),
                          C("shell", "acme/shell:1", securityContext={"readOnlyRootFilesystem": False})]),
    ],
    {
        "Namespace//ops": "pass",
        "Deployment/ops/alpha": "pass",
        "Deployment/ops/bravo": "fail",
        "Deployment/ops/charlie": "pass",
        "Pod/ops/p1": "fail",
        "Pod/ops/p2": "pass",
        "Pod/ops/p3": "fail",
    },
)

# =========================================================================== gk13
REGO13 = """package acmerequiredprobes

violation[{"msg": msg}] {
  c := input.review.object.spec.containers[_]
  probe := input.parameters.probes[_]
  not c[probe]
  msg := sprintf("container %v has no %v", [c.name, probe])
}
"""
RP = {"httpGet": {"path": "/ready", "port": 8080}}
LP = {"httpGet": {"path": "/healthz", "port": 8080}}
FE = {"tier": "frontend"}
case(
    "gk13-all-matchers-anded",
    [
        TPL("AcmeRequiredProbes", REGO13, {"probes": STR_LIST}),
        CON("AcmeRequiredProbes", "shop-prod-frontends-probed",
            {"kinds": POD_KIND, "namespaces": ["shop-*"], "excludedNamespaces": ["shop-sandbox"],
             "namespaceSelector": {"matchExpressions": [{"key": "env", "operator": "In", "values": ["prod"]}]},
             "labelSelector": {"matchLabels": {"tier": "frontend"}}},
            {"probes": ["readinessProbe", "livenessProbe"]}),
    ],
    [
        NS("shop-eu", {"env": "prod"}),
        NS("shop-us", {"env": "prod"}),
        NS("shop-sandbox", {"env": "prod"}),
        NS("shop-qa", {"env": "qa"}),
        NS("web-prod", {"env": "prod"}),
        POD("shop-eu", "storefront", [C("web", "acme/storefront:3", readinessProbe=RP, livenessProbe=LP)], labels=FE),
        POD("shop-eu", "storefront-canary", [C("web", "acme/storefront:4", readinessProbe=RP)], labels=FE),
        POD("shop-eu", "with-init", [C("web", "acme/storefront:3", readinessProbe=RP, livenessProbe=LP)],
            labels=FE, init=[C("assets", "acme/assets:3")]),
        POD("shop-eu", "startup", [C("web", "acme/storefront:3", startupProbe=LP, readinessProbe=RP)], labels=FE),
        POD("shop-us", "checkout", [C("web", "acme/checkout:2")], labels=FE),
        POD("shop-us", "batch", [C("batch", "acme/batch:2")], labels={"tier": "backend"}),
        POD("shop-us", "two", [C("web", "acme/storefront:3", readinessProbe=RP, livenessProbe=LP),
                               C("proxy", "envoyproxy/envoy:v1.30.1")], labels={"tier": "frontend", "team": "edge"}),
        POD("shop-sandbox", "storefront", [C("web", "acme/storefront:5")], labels=FE),
        POD("shop-qa", "storefront", [C("web", "acme/storefront:5")], labels=FE),
        POD("web-prod", "storefront", [C("web", "acme/storefront:3")], labels=FE),
        WL("Deployment", "shop-eu", "storefront", [C("web", "acme/storefront:3")], 3, tmpl_labels=FE),
    ],
    {
        "Namespace//shop-eu": "pass",
        "Namespace//shop-us": "pass",
        "Namespace//shop-sandbox": "pass",
        "Namespace//shop-qa": "pass",
        "Namespace//web-prod": "pass",
        "Pod/shop-eu/storefront": "pass",
        "Pod/shop-eu/storefront-canary": "fail",
        "Pod/shop-eu/with-init": "pass",
        "Pod/shop-eu/startup": "fail",
        "Pod/shop-us/checkout": "fail",
        "Pod/shop-us/batch": "pass",
        "Pod/shop-us/two": "fail",
        "Pod/shop-sandbox/storefront": "pass",
        "Pod/shop-qa/storefront": "pass",
        "Pod/web-prod/storefront": "pass",
        "Deployment/shop-eu/storefront": "pass",
    },
)

# =========================================================================== gk14
REGO14 = """package acmeingresstls

violation[{"msg": msg}] {
  not input.review.object.spec.tls
  msg := "Ingress must terminate TLS"
}

violation[{"msg": msg}] {
  host := input.review.object.spec.rules[_].host
  input.review.object.spec.tls
  not tls_covers(host)
  msg := sprintf("host %v is not listed in spec.tls", [host])
}

tls_covers(host) {
  input.review.object.spec.tls[_].hosts[_] == host
}
"""


def ING(ns, name, hosts, tls_hosts=None):
    spec = {"ingressClassName": "nginx",
            "rules": [{"host": h, "http": {"paths": [{"path": "/", "pathType": "Prefix", "backend": {
                "service": {"name": name, "port": {"number": 80}}}}]}} for h in hosts]}
    if tls_hosts is not None:
        spec["tls"] = [{"hosts": tls_hosts, "secretName": name + "-tls"}]
    return {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": meta(name, ns), "spec": spec}


case(
    "gk14-ingress-tls-networking-group",
    [
        TPL("AcmeIngressTls", REGO14, {}),
        CON("AcmeIngressTls", "public-ingress-tls",
            {"kinds": [{"apiGroups": ["networking.k8s.io"], "kinds": ["Ingress"]}],
             "namespaceSelector": {"matchExpressions": [{"key": "exposure", "operator": "NotIn", "values": ["internal"]}]}}),
    ],
    [
        NS("storefront", {"exposure": "public"}),
        NS("intranet", {"exposure": "internal"}),
        NS("labs"),
        ING("storefront", "www", ["www.acme.example", "acme.example"], ["www.acme.example", "acme.example"]),
        ING("storefront", "api", ["api.acme.example", "api-v2.acme.example"], ["api.acme.example"]),
        ING("storefront", "promo", ["promo.acme.example"]),
        ING("storefront", "eu-shop", ["eu.shop.acme.example"], ["*.shop.acme.example"]),
        ING("intranet", "wiki", ["wiki.corp.acme.example"]),
        ING("labs", "demo", ["demo.labs.acme.example"]),
        {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": meta("shop", "storefront"),
         "spec": {"parentRefs": [{"name": "public-gw"}], "hostnames": ["shop.acme.example"],
                  "rules": [{"backendRefs": [{"name": "shop", "port": 80}]}]}},
        SVC("storefront", "www"),
    ],
    {
        "Namespace//storefront": "pass",
        "Namespace//intranet": "pass",
        "Namespace//labs": "pass",
        "Ingress/storefront/www": "pass",
        "Ingress/storefront/api": "fail",
        "Ingress/storefront/promo": "fail",
        "Ingress/storefront/eu-shop": "fail",
        "Ingress/intranet/wiki": "pass",
        "Ingress/labs/demo": "fail",
        "HTTPRoute/storefront/shop": "pass",
        "Service/storefront/www": "pass",
    },
)

# =========================================================================== gk15
REGO15 = """package acmeforbiddenannotations

violation[{"msg": msg}] {
  input.review.object.metadata.annotations[key]
  startswith(key, input.parameters.prefix)
  msg := sprintf("annotation %v uses the retired prefix %v", [key, input.parameters.prefix])
}
"""
case(
    "gk15-no-match-everything",
    [
        TPL("AcmeForbiddenAnnotations", REGO15, {"prefix": {"type": "string"}}),
        CON("AcmeForbiddenAnnotations", "retired-legacy-annotations", None, {"prefix": "legacy.acme.io/"}),
    ],
    [
        NS("old-billing", ann={"legacy.acme.io/cost-code": "4411"}),
        NS("kube-system"),
        CLUSTERROLE("legacy-admin", ann={"legacy.acme.io/ticket": "OPS-1182"}),
        CLUSTERROLE("modern-admin", ann={"acme.io/ticket": "OPS-2001"}),
        {"apiVersion": "v1", "kind": "ConfigMap",
         "metadata": meta("legacy-cm", "kube-system", ann={"legacy.acme.io/owner": "platform"}),
         "data": {"k": "v"}},
        POD("old-billing", "api-7c9f", [C("api", "acme/billing-api:2")],
            ann={"notlegacy.acme.io/x": "1", "legacy.acme.io.migrated/by": "ops"}),
        {"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
         "metadata": meta("creds", "old-billing", ann={"acme.io/legacy": "true"}),
         "data": {"token": "dG9rZW4="}},
        {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": meta("pv-legacy", ann={"legacy.acme.io/volume": "nfs-3"}),
         "spec": {"capacity": {"storage": "5Gi"}, "accessModes": ["ReadWriteMany"],
                  "nfs": {"server": "10.0.0.5", "path": "/exports/billing"}}},
        WL("Deployment", "old-billing", "api", [C("api", "acme/billing-api:2")], 1,
           tmpl_ann={"legacy.acme.io/scrape": "true"}),
    ],
    {
        "Namespace//old-billing": "fail",
        "Namespace//kube-system": "pass",
        "ClusterRole//legacy-admin": "fail",
        "ClusterRole//modern-admin": "pass",
        "ConfigMap/kube-system/legacy-cm": "fail",
        "Pod/old-billing/api-7c9f": "pass",
        "Secret/old-billing/creds": "pass",
        "PersistentVolume//pv-legacy": "fail",
        "Deployment/old-billing/api": "pass",
    },
)


# --------------------------------------------------------------------------- write


def key_of(o):
    return "%s/%s/%s" % (o["kind"], o["metadata"].get("namespace", ""), o["metadata"]["name"])


def main(out):
    for cid, templates, resources, expected in CASES:
        keys = [key_of(o) for o in resources]
        assert len(keys) == len(set(keys)), (cid, "duplicate object")
        assert set(keys) == set(expected), (cid, set(keys) ^ set(expected))
        d = os.path.join(out, cid)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "template.yaml"), "w") as f:
            f.write(yaml_docs(templates))
        with open(os.path.join(d, "resources.yaml"), "w") as f:
            f.write(yaml_docs(resources))
        with open(os.path.join(d, "expected.json"), "w") as f:
            json.dump({k: expected[k] for k in keys}, f, indent=2)
            f.write("\n")
    print("%d cases written to %s" % (len(CASES), out))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py OUTDIR")
    main(sys.argv[1])
