#!/usr/bin/env python3
"""ciso-set14: held-out CISO scenarios for itbench (stdlib only, deterministic).

Usage: python gen.py OUT     -- writes OUT/<scenario>/{scenario.yaml, violating/, compliant/}
"""
from __future__ import annotations

import json
import os
import re
import shutil
import sys

# --------------------------------------------------------------------------------------------
# a tiny deterministic YAML emitter (block style)
# --------------------------------------------------------------------------------------------
_PLAIN = re.compile(r"[A-Za-z/][A-Za-z0-9_./@=-]*")
_STYLE = {"indent_seq": False}
_RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}


def _scalar(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    s = str(v)
    if _PLAIN.fullmatch(s) and s.lower() not in _RESERVED:
        return s
    return json.dumps(s)


def _key(k):
    return _scalar(k)


def _emit(obj, indent):
    pad = " " * indent
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(v, dict) and v:
                out.append(f"{pad}{_key(k)}:")
                out.extend(_emit(v, indent + 2))
            elif isinstance(v, list) and v:
                out.append(f"{pad}{_key(k)}:")
                out.extend(_emit(v, indent + 2 if _STYLE["indent_seq"] else indent))
            elif isinstance(v, dict):
                out.append(f"{pad}{_key(k)}: {{}}")
            elif isinstance(v, list):
                out.append(f"{pad}{_key(k)}: []")
            else:
                out.append(f"{pad}{_key(k)}: {_scalar(v)}")
    elif isinstance(obj, list):
        for item in obj:
            if isinstance(item, dict) and item:
                sub = _emit(item, indent + 2)
                sub[0] = f"{pad}- " + sub[0][indent + 2:]
                out.extend(sub)
            elif isinstance(item, list) and item:
                sub = _emit(item, indent + 2)
                sub[0] = f"{pad}- " + sub[0][indent + 2:]
                out.extend(sub)
            else:
                out.append(f"{pad}- {_scalar(item) if not isinstance(item, (dict, list)) else ('{}' if isinstance(item, dict) else '[]')}")
    else:
        out.append(pad + _scalar(obj))
    return out


def dump(obj):
    return "\n".join(_emit(obj, 0)) + "\n"


def dump_all(docs, indent_seq=False, lead=""):
    _STYLE["indent_seq"] = indent_seq
    try:
        return lead + "---\n".join(dump(d) for d in docs)
    finally:
        _STYLE["indent_seq"] = False


def exported(doc, seq=1):
    """Make a manifest look like `kubectl get -o yaml` output (server-set metadata, status)."""
    import hashlib
    d = json.loads(json.dumps(doc))
    m = d["metadata"]
    key = f"{d['kind']}/{m.get('namespace', '')}/{m['name']}"
    h = hashlib.sha256(key.encode()).hexdigest()
    m["creationTimestamp"] = f"2026-0{1 + int(h[0], 16) % 9}-{10 + int(h[1], 16) % 18}T{int(h[2:4], 16) % 24:02d}:{int(h[4:6], 16) % 60:02d}:{int(h[6:8], 16) % 60:02d}Z"
    m["resourceVersion"] = str(100000 + int(h[8:14], 16) % 900000)
    m["uid"] = f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"
    if d["kind"] in ("Deployment", "StatefulSet", "DaemonSet", "CronJob", "Job"):
        m["generation"] = 1 + int(h[32:34], 16) % 7
    if d["kind"] == "Deployment":
        r = d["spec"].get("replicas", 1)
        d["status"] = {"availableReplicas": r, "observedGeneration": m["generation"], "readyReplicas": r,
                       "replicas": r, "updatedReplicas": r}
    elif d["kind"] == "StatefulSet":
        r = d["spec"].get("replicas", 1)
        d["status"] = {"availableReplicas": r, "currentReplicas": r, "readyReplicas": r, "replicas": r,
                       "observedGeneration": m["generation"]}
    elif d["kind"] == "DaemonSet":
        d["status"] = {"currentNumberScheduled": 6, "desiredNumberScheduled": 6, "numberAvailable": 6,
                       "numberMisscheduled": 0, "numberReady": 6, "observedGeneration": m["generation"],
                       "updatedNumberScheduled": 6}
    return d


# --------------------------------------------------------------------------------------------
# Kubernetes object helpers
# --------------------------------------------------------------------------------------------
def meta(name, ns=None, labels=None, annotations=None):
    m = {"name": name}
    if ns:
        m["namespace"] = ns
    if labels:
        m["labels"] = dict(labels)
    if annotations:
        m["annotations"] = dict(annotations)
    return m


def namespace(name, labels=None):
    lab = {"kubernetes.io/metadata.name": name}
    lab.update(labels or {})
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": lab}}


def ctr(name, image, **kw):
    c = {"name": name, "image": image}
    c.update(kw)
    return c


RES_S = {"requests": {"cpu": "100m", "memory": "128Mi"}, "limits": {"memory": "256Mi"}}
RES_M = {"requests": {"cpu": "250m", "memory": "512Mi"}, "limits": {"memory": "1Gi"}}


def podspec(containers, init=None, **extra):
    s = {}
    s.update({k: v for k, v in extra.items() if k.startswith("_pre_")})
    if init:
        s["initContainers"] = init
    s["containers"] = containers
    for k, v in extra.items():
        if not k.startswith("_pre_"):
            s[k] = v
    return s


def deployment(name, ns, app, spec, labels=None, annotations=None, replicas=2, tpl_labels=None,
               tpl_annotations=None, strategy=None):
    lab = {"app.kubernetes.io/name": app}
    lab.update(labels or {})
    tl = {"app.kubernetes.io/name": app}
    tl.update(tpl_labels or {})
    tmeta = {"labels": tl}
    if tpl_annotations:
        tmeta["annotations"] = dict(tpl_annotations)
    d = {"apiVersion": "apps/v1", "kind": "Deployment",
         "metadata": meta(name, ns, lab, annotations),
         "spec": {"replicas": replicas,
                  "selector": {"matchLabels": {"app.kubernetes.io/name": app}}}}
    if strategy is not None:
        d["spec"]["strategy"] = strategy
    d["spec"]["template"] = {"metadata": tmeta, "spec": spec}
    return d


def statefulset(name, ns, app, spec, labels=None, replicas=3, tpl_labels=None, claims=True):
    lab = {"app.kubernetes.io/name": app}
    lab.update(labels or {})
    tl = {"app.kubernetes.io/name": app}
    tl.update(tpl_labels or {})
    s = {"apiVersion": "apps/v1", "kind": "StatefulSet",
         "metadata": meta(name, ns, lab),
         "spec": {"serviceName": name, "replicas": replicas,
                  "selector": {"matchLabels": {"app.kubernetes.io/name": app}},
                  "template": {"metadata": {"labels": tl}, "spec": spec}}}
    if claims:
        s["spec"]["volumeClaimTemplates"] = [{
            "metadata": {"name": "data"},
            "spec": {"accessModes": ["ReadWriteOnce"],
                     "resources": {"requests": {"storage": "20Gi"}}}}]
    return s


def daemonset(name, ns, app, spec, labels=None, tpl_labels=None):
    lab = {"app.kubernetes.io/name": app}
    lab.update(labels or {})
    tl = {"app.kubernetes.io/name": app}
    tl.update(tpl_labels or {})
    return {"apiVersion": "apps/v1", "kind": "DaemonSet",
            "metadata": meta(name, ns, lab),
            "spec": {"selector": {"matchLabels": {"app.kubernetes.io/name": app}},
                     "updateStrategy": {"type": "RollingUpdate"},
                     "template": {"metadata": {"labels": tl}, "spec": spec}}}


def cronjob(name, ns, schedule, spec, labels=None, tpl_annotations=None):
    tmeta = {"labels": {"app.kubernetes.io/name": name}}
    if tpl_annotations:
        tmeta["annotations"] = dict(tpl_annotations)
    spec = dict(spec)
    spec.setdefault("restartPolicy", "OnFailure")
    return {"apiVersion": "batch/v1", "kind": "CronJob",
            "metadata": meta(name, ns, labels),
            "spec": {"schedule": schedule,
                     "jobTemplate": {"spec": {"backoffLimit": 2,
                                              "template": {"metadata": tmeta, "spec": spec}}}}}


def job(name, ns, spec):
    spec = dict(spec)
    spec.setdefault("restartPolicy", "Never")
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": meta(name, ns),
            "spec": {"backoffLimit": 1, "template": {"metadata": {"labels": {"job": name}}, "spec": spec}}}


def pod(name, ns, spec, labels=None):
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta(name, ns, labels), "spec": spec}


def service(name, ns, ports, type_=None, selector=None, annotations=None, labels=None):
    s = {"apiVersion": "v1", "kind": "Service", "metadata": meta(name, ns, labels, annotations),
         "spec": {}}
    if type_:
        s["spec"]["type"] = type_
    s["spec"]["selector"] = selector or {"app.kubernetes.io/name": name}
    s["spec"]["ports"] = ports
    return s


def ingress(name, ns, rules, cls="nginx", tls=None, annotations=None):
    i = {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
         "metadata": meta(name, ns, None, annotations),
         "spec": {"ingressClassName": cls}}
    if tls:
        i["spec"]["tls"] = tls
    i["spec"]["rules"] = rules
    return i


def irule(host, paths):
    r = {}
    if host is not None:
        r["host"] = host
    r["http"] = {"paths": [{"path": p, "pathType": pt,
                            "backend": {"service": {"name": svc, "port": {"number": port}}}}
                           for (p, pt, svc, port) in paths]}
    return r


# --------------------------------------------------------------------------------------------
# scenario writer
# --------------------------------------------------------------------------------------------
SCENARIOS = []


def scenario(**kw):
    SCENARIOS.append(kw)


def k8s_files(files, style="plain"):
    """files: {filename: [docs] or str}; style: plain | helm (indented sequences, source comments)
    | export (kubectl get -o yaml look: server metadata and status)."""
    out = {}
    for fn, docs in files.items():
        if isinstance(docs, str):
            out[fn] = docs
        elif style == "helm":
            out[fn] = "".join("---\n# Source: " + fn.replace(".yaml", "") + "/templates/" + d["kind"].lower()
                              + ".yaml\n" + dump_all([d], indent_seq=True) for d in docs)
        elif style == "export":
            out[fn] = dump_all([exported(d) for d in docs])
        else:
            out[fn] = dump_all(docs)
    return out


# --------------------------------------------------------------------------------------------
# platform noise: what a real cluster also runs (compliant with every control of this set
# it is added to; the self-check verifies that)
# --------------------------------------------------------------------------------------------
def platform_noise(which=("coredns", "ingress", "certmgr")):
    docs = []
    if "coredns" in which:
        docs.append(deployment("coredns", "kube-system", "coredns", podspec(
            [ctr("coredns", "registry.k8s.io/coredns/coredns:v1.11.1", args=["-conf", "/etc/coredns/Corefile"],
                 ports=[{"containerPort": 53, "name": "dns", "protocol": "UDP"},
                        {"containerPort": 53, "name": "dns-tcp", "protocol": "TCP"},
                        {"containerPort": 9153, "name": "metrics", "protocol": "TCP"}],
                 livenessProbe={"httpGet": {"path": "/health", "port": 8080, "scheme": "HTTP"},
                                "initialDelaySeconds": 60, "timeoutSeconds": 5, "failureThreshold": 5},
                 readinessProbe={"httpGet": {"path": "/ready", "port": 8181, "scheme": "HTTP"}},
                 resources={"requests": {"cpu": "100m", "memory": "70Mi"}, "limits": {"memory": "170Mi"}},
                 volumeMounts=[{"name": "config-volume", "mountPath": "/etc/coredns", "readOnly": True}])],
            affinity={"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 100, "podAffinityTerm": {"labelSelector": {"matchExpressions": [
                    {"key": "k8s-app", "operator": "In", "values": ["kube-dns"]}]},
                    "topologyKey": "kubernetes.io/hostname"}}]}},
            tolerations=[{"key": "CriticalAddonsOnly", "operator": "Exists"},
                         {"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}],
            priorityClassName="system-cluster-critical", serviceAccountName="coredns",
            volumes=[{"name": "config-volume", "configMap": {"name": "coredns",
                                                             "items": [{"key": "Corefile", "path": "Corefile"}]}}]),
            labels={"k8s-app": "kube-dns"}, tpl_labels={"k8s-app": "kube-dns"}))
    if "ingress" in which:
        docs.append(deployment("ingress-nginx-controller", "ingress-nginx", "ingress-nginx", podspec(
            [ctr("controller", "registry.k8s.io/ingress-nginx/controller:v1.10.1",
                 args=["/nginx-ingress-controller", "--publish-service=$(POD_NAMESPACE)/ingress-nginx-controller",
                       "--election-id=ingress-nginx-leader", "--controller-class=k8s.io/ingress-nginx",
                       "--ingress-class=nginx", "--configmap=$(POD_NAMESPACE)/ingress-nginx-controller",
                       "--validating-webhook=:8443"],
                 env=[{"name": "POD_NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
                      {"name": "POD_NAMESPACE", "valueFrom": {"fieldRef": {"fieldPath": "metadata.namespace"}}},
                      {"name": "LD_PRELOAD", "value": "/usr/local/lib/libmimalloc.so"}],
                 livenessProbe={"httpGet": {"path": "/healthz", "port": 10254, "scheme": "HTTP"},
                                "initialDelaySeconds": 10, "periodSeconds": 10},
                 readinessProbe={"httpGet": {"path": "/healthz", "port": 10254, "scheme": "HTTP"}},
                 ports=[{"containerPort": 80, "name": "http"}, {"containerPort": 443, "name": "https"},
                        {"containerPort": 8443, "name": "webhook"}],
                 resources={"requests": {"cpu": "100m", "memory": "90Mi"}})],
            serviceAccountName="ingress-nginx", nodeSelector={"kubernetes.io/os": "linux"}),
            labels={"app.kubernetes.io/component": "controller", "app.kubernetes.io/instance": "ingress-nginx"},
            replicas=2, strategy={"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1}}))
    if "certmgr" in which:
        docs.append(deployment("cert-manager", "cert-manager", "cert-manager", podspec(
            [ctr("cert-manager-controller", "quay.io/jetstack/cert-manager-controller:v1.15.1",
                 args=["--v=2", "--cluster-resource-namespace=$(POD_NAMESPACE)",
                       "--leader-election-namespace=kube-system",
                       "--acme-http01-solver-image=quay.io/jetstack/cert-manager-acmesolver:v1.15.1",
                       "--max-concurrent-challenges=60"],
                 env=[{"name": "POD_NAMESPACE", "valueFrom": {"fieldRef": {"fieldPath": "metadata.namespace"}}}],
                 ports=[{"containerPort": 9402, "name": "http-metrics", "protocol": "TCP"},
                        {"containerPort": 9403, "name": "http-healthz", "protocol": "TCP"}],
                 livenessProbe={"httpGet": {"path": "/livez", "port": "http-healthz"}, "periodSeconds": 10})],
            serviceAccountName="cert-manager", enableServiceLinks=False),
            labels={"app.kubernetes.io/component": "controller", "app.kubernetes.io/instance": "cert-manager"},
            replicas=1))
    return docs


# ============================================================================================
# 1. container workingDir under /app or /srv
# ============================================================================================
def s_workingdir():
    ns = [namespace("shop", {"team": "storefront"}), namespace("batch", {"team": "data"})]

    def cart(side_wd):
        return deployment("cart", "shop", "cart", podspec([
            ctr("cart", "registry.corp.example/shop/cart:3.2.0", workingDir="/app/cart",
                ports=[{"containerPort": 8080, "name": "http"}], resources=RES_S),
            ctr("log-shipper", "registry.corp.example/infra/vector:0.39.0", workingDir=side_wd,
                args=["--config", "/etc/vector/vector.yaml"], resources=RES_S)]))

    def export(wd):
        return cronjob("nightly-export", "batch", "30 1 * * *", podspec([
            ctr("export", "registry.corp.example/data/exporter:1.8.4", workingDir=wd,
                command=["/usr/local/bin/export"], args=["--target", "s3://exports/nightly"],
                resources=RES_M)]))

    def search(init_wd):
        return statefulset("search", "shop", "search", podspec(
            [ctr("opensearch", "registry.corp.example/shop/opensearch:2.13.0",
                 ports=[{"containerPort": 9200, "name": "http"}], resources=RES_M,
                 volumeMounts=[{"name": "data", "mountPath": "/usr/share/opensearch/data"}])],
            init=[ctr("index-warmup", "registry.corp.example/shop/index-tools:0.9.1",
                      workingDir=init_wd, command=["./warmup"], resources=RES_S)]))

    frontend = deployment("frontend", "shop", "frontend", podspec([
        ctr("web", "registry.corp.example/shop/frontend:5.0.2", workingDir="/srv/www",
            ports=[{"containerPort": 3000, "name": "http"}], resources=RES_S)]), replicas=3)
    migrate = job("schema-migrate", "batch", podspec([
        ctr("migrate", "registry.corp.example/data/migrate:2.1.0", args=["up"], resources=RES_S)]))
    frontend_other = deployment("frontend", "shop", "frontend", podspec([
        ctr("web", "registry.corp.example/shop/frontend:5.0.2", workingDir="/srv",
            args=["--debug"], ports=[{"containerPort": 3000, "name": "http"}],
            resources=RES_S)]), replicas=3)
    toolbox = pod("toolbox", "batch", podspec([
        ctr("shell", "registry.corp.example/infra/toolbox:1.0.0", command=["sh", "-c", "sleep infinity"],
            workingDir="/app/", resources=RES_S)]))
    scenario(
        id="k8s-workingdir-approved-roots",
        platform="kubernetes",
        title="Container working directories only under /app or /srv",
        requirement=("Containers (init containers included) that set a working directory "
                     "(`workingDir`) must use /app or /srv, or a directory below one of them. "
                     "Leaving workingDir unset is fine."),
        classes=["kyverno", "kubectl-opa", "opa-static"],
        violating_resources=["Deployment/shop/cart", "CronJob/batch/nightly-export",
                             "StatefulSet/shop/search"],
        notes=("cart: second container log-shipper workingDir '/'. nightly-export: CronJob template "
               "workingDir /tmp/export. search: init container workingDir '/application' (shares the "
               "prefix '/app' but is not below /app). Compliant: /app/logs, /srv/export, '/app' "
               "exactly, '/srv', '/app/' (trailing slash), no workingDir; other-control noise: "
               "--debug arg, sh -c command."),
        violating=k8s_files({"platform.yaml": platform_noise(), "namespaces.yaml": ns,
                             "shop.yaml": [cart("/"), search("/application"), frontend],
                             "batch.yaml": [export("/tmp/export"), migrate]}),
        compliant=k8s_files({"platform.yaml": platform_noise(), "namespaces.yaml": ns,
                             "shop.yaml": [cart("/app/logs"), search("/app"), frontend_other],
                             "batch.yaml": [export("/srv/export"), migrate, toolbox]}),
    )


# ============================================================================================
# 2. no --debug switch in prod namespaces
# ============================================================================================
def s_debug_args():
    ns = [namespace("payments", {"env": "prod", "team": "payments"}),
          namespace("payments-staging", {"env": "staging", "team": "payments"}),
          namespace("ledger", {"env": "prod", "team": "finance-core"})]

    def api(args):
        return deployment("api", "payments", "payments-api", podspec([
            ctr("api", "registry.corp.example/payments/api:4.12.1", args=args,
                ports=[{"containerPort": 8443, "name": "https"}], resources=RES_M)]), replicas=4)

    def reconcile(cmd):
        return cronjob("reconcile", "ledger", "*/15 * * * *", podspec([
            ctr("reconcile", "registry.corp.example/ledger/reconcile:2.3.0", command=cmd,
                resources=RES_S)]))

    def gateway(init_args):
        return deployment("gateway", "ledger", "ledger-gateway", podspec(
            [ctr("gateway", "registry.corp.example/ledger/gateway:1.19.0",
                 args=["serve", "--listen=:8080"], resources=RES_M)],
            init=[ctr("schema-check", "registry.corp.example/ledger/schema-check:1.19.0",
                      args=init_args, resources=RES_S)]))

    worker = deployment("worker", "payments", "payments-worker", podspec([
        ctr("worker", "registry.corp.example/payments/worker:4.12.1",
            args=["--queue=settlements", "--debug=false"], resources=RES_M)]))
    staging_api = deployment("api", "payments-staging", "payments-api", podspec([
        ctr("api", "registry.corp.example/payments/api:4.13.0-rc.2", args=["--port=8443", "--debug"],
            resources=RES_S)]), replicas=1)
    metrics = deployment("ledger-exporter", "ledger", "ledger-exporter", podspec([
        ctr("exporter", "registry.corp.example/ledger/exporter:0.6.0",
            args=["--log-level=info", "--debug-addr=127.0.0.1:6060"], resources=RES_S)]), replicas=1)
    scenario(
        id="k8s-prod-no-debug-switch",
        platform="kubernetes",
        title="No --debug switch on production containers",
        requirement=("In namespaces labelled env=prod, no container (init containers included) may "
                     "be launched with debug mode switched on: neither its command nor its args may "
                     "contain the argument `--debug` or `--debug=true`."),
        classes=["kyverno", "kubectl-opa", "opa-static"],
        violating_resources=["Deployment/payments/api", "CronJob/ledger/reconcile",
                             "Deployment/ledger/gateway"],
        notes=("api: args '--debug'. reconcile: CronJob, in command (not args) '--debug=true'. gateway: "
               "init container args. Near misses: '--debug=false', '--debug-addr=...' (a different "
               "flag), '--debug' in the env=staging namespace payments-staging."),
        violating=k8s_files(style="helm", files={"platform.yaml": platform_noise(("ingress", "certmgr")), "00-namespaces.yaml": ns,
                             "payments.yaml": [api(["--port=8443", "--debug"]), worker, staging_api],
                             "ledger.yaml": [reconcile(["/usr/local/bin/reconcile", "--debug=true"]),
                                             gateway(["--debug", "--migrations=/migrations"]),
                                             metrics]}),
        compliant=k8s_files(style="helm", files={"platform.yaml": platform_noise(("ingress", "certmgr")), "00-namespaces.yaml": ns,
                             "payments.yaml": [api(["--port=8443"]), worker, staging_api],
                             "ledger.yaml": [reconcile(["/usr/local/bin/reconcile", "--dry-run=false"]),
                                             gateway(["--migrations=/migrations"]), metrics]}),
    )


# ============================================================================================
# 3. exec probes must not go through a shell (data-platform team)
# ============================================================================================
def s_probe_shell():
    ns = [namespace("dp-ingest", {"team": "data-platform"}),
          namespace("dp-warehouse", {"team": "data-platform"}),
          namespace("storefront", {"team": "retail"})]

    def stock(probe_cmd):
        return deployment("kafka-connect", "dp-ingest", "kafka-connect", podspec([
            ctr("connect", "registry.corp.example/dp/kafka-connect:3.7.0",
                readinessProbe={"httpGet": {"path": "/connectors", "port": 8083}, "periodSeconds": 10},
                resources=RES_M),
            ctr("offset-cache", "registry.corp.example/dp/redis:7.2.5",
                readinessProbe={"exec": {"command": probe_cmd}, "periodSeconds": 5},
                resources=RES_S)]))

    def pg(cmd):
        return statefulset("warehouse-pg", "dp-warehouse", "warehouse-pg", podspec([
            ctr("postgres", "registry.corp.example/dp/postgres:16.3",
                livenessProbe={"exec": {"command": cmd}, "initialDelaySeconds": 30},
                readinessProbe={"tcpSocket": {"port": 5432}}, resources=RES_M,
                volumeMounts=[{"name": "data", "mountPath": "/var/lib/postgresql/data"}])]))

    def agent(cmd):
        return daemonset("spool-agent", "dp-ingest", "spool-agent", podspec([
            ctr("agent", "registry.corp.example/dp/spool-agent:1.4.0",
                livenessProbe={"exec": {"command": cmd}, "periodSeconds": 20},
                resources=RES_S)]))

    loader = deployment("loader", "dp-warehouse", "loader", podspec([
        ctr("loader", "registry.corp.example/dp/loader:2.2.0",
            command=["/bin/sh", "-c", "exec /opt/loader/bin/loader --config /etc/loader.yaml"],
            startupProbe={"exec": {"command": ["sh", "-c", "test -f /tmp/ready"]},
                          "failureThreshold": 30},
            livenessProbe={"exec": {"command": ["/opt/loader/bin/healthcheck", "--live"]}},
            resources=RES_M)]))
    shop = deployment("checkout", "storefront", "checkout", podspec([
        ctr("checkout", "registry.corp.example/retail/checkout:8.1.0",
            livenessProbe={"exec": {"command": ["/bin/sh", "-c", "curl -fs localhost:8080/healthz"]}},
            resources=RES_S)]))
    scenario(
        id="k8s-dataplatform-probes-no-shell",
        platform="kubernetes",
        title="Data-platform health checks must not spawn a shell",
        requirement=("For workloads of the data-platform team (namespaces labelled "
                     "team=data-platform): liveness and readiness probes that run a command must run "
                     "the health-check program directly, not through a shell. The probe command's "
                     "first element must not be sh, bash or ash, by name or by path (/bin/sh, "
                     "/usr/bin/bash, ...)."),
        classes=["kyverno", "kubectl-opa", "opa-static"],
        violating_resources=["Deployment/dp-ingest/kafka-connect", "StatefulSet/dp-warehouse/warehouse-pg",
                             "DaemonSet/dp-ingest/spool-agent"],
        notes=("kafka-connect: second container's readinessProbe ['/bin/sh','-c',...]. warehouse-pg: "
               "livenessProbe ['bash','-c',...]. spool-agent: DaemonSet liveness ['/usr/bin/bash','-ec',...]. "
               "Near misses: startupProbe with sh (not liveness/readiness), container command sh -c "
               "(not a probe), shell probe in team=retail namespace."),
        violating=k8s_files(style="export", files={"platform.yaml": platform_noise(("coredns",)), 
            "namespaces.yaml": ns,
            "ingest.yaml": [stock(["/bin/sh", "-c", "redis-cli -p 6379 ping | grep -q PONG"]),
                            agent(["/usr/bin/bash", "-ec", "test $(find /spool -mmin -5 | wc -l) -gt 0"])],
            "warehouse.yaml": [pg(["bash", "-c", "pg_isready -U postgres -h 127.0.0.1"]), loader],
            "storefront.yaml": [shop]}),
        compliant=k8s_files(style="export", files={"platform.yaml": platform_noise(("coredns",)), 
            "namespaces.yaml": ns,
            "ingest.yaml": [stock(["redis-cli", "-p", "6379", "ping"]),
                            agent(["/usr/local/bin/spool-agent", "healthcheck"])],
            "warehouse.yaml": [pg(["pg_isready", "-U", "postgres", "-h", "127.0.0.1"]), loader],
            "storefront.yaml": [shop]}),
    )


# ============================================================================================
# 4. Ingress hosts under apps.corp.example
# ============================================================================================
def s_ingress_domain():
    def storefront(h2):
        return ingress("storefront", "web", [
            irule("shop.apps.corp.example", [("/", "Prefix", "storefront", 80)]),
            irule(h2, [("/", "Prefix", "storefront", 80)])],
            tls=[{"hosts": ["shop.apps.corp.example"], "secretName": "storefront-tls"}])

    def blog(h):
        return ingress("public", "blog", [irule(h, [("/", "Prefix", "ghost", 2368)])])

    def legacy(h):
        return ingress("legacy", "web", [irule(h, [("/legacy", "Prefix", "legacy-app", 8080)])],
                       annotations={"nginx.ingress.kubernetes.io/proxy-body-size": "8m"})

    api = ingress("api", "web", [irule("api.eu.apps.corp.example", [("/v1", "Prefix", "api", 8080),
                                                                    ("/healthz", "Exact", "api", 8080)])])
    admin = ingress("admin", "blog", [irule("apps.corp.example", [("/ghost", "Prefix", "ghost", 2368)])],
                    cls="nginx-internal")
    admin_bad_path = ingress("admin", "blog", [irule("apps.corp.example",
                                                     [("/ghost(/|$)(.*)", "ImplementationSpecific", "ghost", 2368)])],
                             cls="nginx-internal",
                             annotations={"nginx.ingress.kubernetes.io/use-regex": "true"})
    scenario(
        id="k8s-ingress-hosts-corp-domain",
        platform="kubernetes",
        title="Ingress hosts only under apps.corp.example",
        requirement=("Ingresses may only publish names in our application domain: every rule must "
                     "name a host, and that host must be apps.corp.example itself or a subdomain of "
                     "it (x.apps.corp.example, x.y.apps.corp.example)."),
        classes=["kyverno", "kubectl-opa", "opa-static"],
        violating_resources=["Ingress/web/storefront", "Ingress/blog/public", "Ingress/web/legacy"],
        notes=("storefront: second rule host shop.corp-example.net. public: host blogapps.corp.example "
               "(ends with the text 'apps.corp.example' but is not a subdomain). legacy: a rule without "
               "host (catch-all). Compliant has a deep subdomain, the apex, and an ImplementationSpecific "
               "path (another control)."),
        violating=k8s_files({"ingresses.yaml": [storefront("shop.corp-example.net"),
                                                blog("blogapps.corp.example"),
                                                legacy(None), api, admin]}),
        compliant=k8s_files({"ingresses.yaml": [storefront("www.shop.apps.corp.example"),
                                                blog("blog.apps.corp.example"),
                                                legacy("legacy.apps.corp.example"), api,
                                                admin_bad_path]}),
    )


# ============================================================================================
# 5. Service nodePort range 30500-30599
# ============================================================================================
def s_nodeport():
    def gw(p2):
        return service("gateway", "edge", [
            {"name": "http", "port": 80, "targetPort": 8080, "nodePort": 30580, "protocol": "TCP"},
            {"name": "https", "port": 443, "targetPort": 8443, "nodePort": p2, "protocol": "TCP"}],
            type_="NodePort")

    def mqtt(p):
        return service("mqtt", "edge", [{"name": "mqtt", "port": 1883, "targetPort": 1883, "nodePort": p}],
                       type_="LoadBalancer")

    def grafana(p):
        return service("grafana", "tools", [{"name": "web", "port": 3000, "targetPort": 3000, "nodePort": p}],
                       type_="NodePort")

    internal = service("internal-api", "edge", [{"name": "http", "port": 31000, "targetPort": 32000}])
    prom = service("prometheus", "tools", [{"name": "web", "port": 9090, "targetPort": 9090,
                                            "nodePort": 30500}], type_="NodePort")
    auto = service("syslog", "tools", [{"name": "syslog", "port": 514, "targetPort": 5140,
                                        "protocol": "UDP"}], type_="NodePort")
    scenario(
        id="k8s-nodeport-edge-block",
        platform="kubernetes",
        title="Pinned node ports only from 30500-30599",
        requirement=("A Service port that pins a node port (`spec.ports[].nodePort`), whatever the "
                     "Service type, must use a port from the edge team's block 30500 to 30599 "
                     "inclusive. Ports without an explicit nodePort are fine."),
        classes=["kyverno", "kubectl-opa", "opa-static"],
        violating_resources=["Service/edge/gateway", "Service/edge/mqtt", "Service/tools/grafana"],
        notes=("gateway: second port nodePort 31443. mqtt: type LoadBalancer with nodePort 30080. "
               "grafana: 30600 (one past the block). Near misses: 30500 and 30599 (bounds), ClusterIP "
               "Service with port 31000/targetPort 32000, NodePort without nodePort."),
        violating=k8s_files(style="helm", files={"edge.yaml": [gw(31443), mqtt(30080), internal],
                             "tools.yaml": [grafana(30600), prom, auto]}),
        compliant=k8s_files(style="helm", files={"edge.yaml": [gw(30581), mqtt(30520), internal],
                             "tools.yaml": [grafana(30599), prom, auto]}),
    )


# ============================================================================================
# 6. pod anti-affinity topologyKey well-known labels
# ============================================================================================
def s_topology_key():
    def anti_required(app, keys):
        return {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
            {"labelSelector": {"matchLabels": {"app.kubernetes.io/name": app}}, "topologyKey": k}
            for k in keys]}}

    def anti_preferred(app, key, w=100):
        return {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": w, "podAffinityTerm": {
                "labelSelector": {"matchExpressions": [
                    {"key": "app.kubernetes.io/name", "operator": "In", "values": [app]}]},
                "topologyKey": key}}]}}

    def es_client(key):
        return deployment("es-client", "search", "es-client", podspec(
            [ctr("es", "registry.corp.example/search/elasticsearch:8.14.1", resources=RES_M)],
            affinity=anti_required("es-client", [key])), replicas=3)

    def es_data(key):
        return statefulset("es-data", "search", "es-data", podspec(
            [ctr("es", "registry.corp.example/search/elasticsearch:8.14.1", resources=RES_M,
                 volumeMounts=[{"name": "data", "mountPath": "/usr/share/elasticsearch/data"}])],
            affinity=anti_preferred("es-data", key)))

    def memcached(k2):
        return deployment("memcached", "cache", "memcached", podspec(
            [ctr("memcached", "registry.corp.example/cache/memcached:1.6.29", resources=RES_S)],
            affinity=anti_required("memcached", ["kubernetes.io/hostname", k2])), replicas=3)

    proxy = deployment("twemproxy", "cache", "twemproxy", podspec(
        [ctr("proxy", "registry.corp.example/cache/twemproxy:0.5.0", resources=RES_S)],
        affinity=anti_preferred("twemproxy", "topology.kubernetes.io/zone", 50)))
    kibana = deployment("kibana", "search", "kibana", podspec(
        [ctr("kibana", "registry.corp.example/search/kibana:8.14.1", resources=RES_S)],
        affinity={"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 80, "podAffinityTerm": {
                "labelSelector": {"matchLabels": {"app.kubernetes.io/name": "es-client"}},
                "topologyKey": "corp.example/rack"}}]},
            "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchExpressions": [{"key": "corp.example/rack", "operator": "Exists"}]}]}}}), replicas=1)
    scenario(
        id="k8s-antiaffinity-topology-keys",
        platform="kubernetes",
        title="Pod anti-affinity only over well-known topology labels",
        requirement=("Pod anti-affinity terms, required or preferred, may only spread pods over the "
                     "well-known topology labels kubernetes.io/hostname, topology.kubernetes.io/zone "
                     "or topology.kubernetes.io/region. Deprecated (failure-domain.beta...) and "
                     "custom keys are not allowed in anti-affinity."),
        classes=["kyverno", "kubectl-opa", "opa-static"],
        violating_resources=["Deployment/search/es-client", "StatefulSet/search/es-data",
                             "Deployment/cache/memcached"],
        notes=("es-client: required term with failure-domain.beta.kubernetes.io/zone. es-data: "
               "preferred (weighted) term with custom key corp.example/rack. memcached: second of two "
               "required terms 'kubernetes.io/zone' (wrong prefix). Near misses: podAffinity and "
               "nodeAffinity on the custom rack label (not anti-affinity), preferred zone term."),
        violating=k8s_files(style="export", files={"platform.yaml": platform_noise(("coredns", "ingress")), "search.yaml": [es_client("failure-domain.beta.kubernetes.io/zone"),
                                             es_data("corp.example/rack"), kibana],
                             "cache.yaml": [memcached("kubernetes.io/zone"), proxy]}),
        compliant=k8s_files(style="export", files={"platform.yaml": platform_noise(("coredns", "ingress")), "search.yaml": [es_client("topology.kubernetes.io/zone"),
                                             es_data("kubernetes.io/hostname"), kibana],
                             "cache.yaml": [memcached("topology.kubernetes.io/region"), proxy]}),
    )


# ============================================================================================
# 7. blanket tolerations
# ============================================================================================
def s_tolerations():
    def fluent(tols):
        return daemonset("fluent-bit", "logging", "fluent-bit", podspec(
            [ctr("fluent-bit", "registry.corp.example/logging/fluent-bit:3.0.7", resources=RES_S)],
            tolerations=tols))

    def cleanup(tols):
        return cronjob("node-cleanup", "ops", "0 3 * * 0", podspec(
            [ctr("cleanup", "registry.corp.example/ops/cleanup:1.1.0", resources=RES_S)],
            tolerations=tols))

    def runner(tols):
        return deployment("batch-runner", "apps", "batch-runner", podspec(
            [ctr("runner", "registry.corp.example/apps/batch-runner:2.0.4", resources=RES_M)],
            tolerations=tols))

    exporter = daemonset("node-exporter", "monitoring", "node-exporter", podspec(
        [ctr("node-exporter", "registry.corp.example/monitoring/node-exporter:1.8.1", resources=RES_S)],
        tolerations=[{"operator": "Exists"}]))
    kproxy = daemonset("kube-proxy", "kube-system", "kube-proxy", podspec(
        [ctr("kube-proxy", "registry.k8s.io/kube-proxy:v1.30.2", resources=RES_S)],
        tolerations=[{"operator": "Exists"}], priorityClassName="system-node-critical"))
    web = deployment("web", "apps", "web", podspec(
        [ctr("web", "registry.corp.example/apps/web:7.3.0", resources=RES_S)],
        tolerations=[{"key": "node.kubernetes.io/unreachable", "operator": "Exists",
                      "effect": "NoExecute", "tolerationSeconds": 300},
                     {"key": "node.kubernetes.io/not-ready", "operator": "Exists",
                      "effect": "NoExecute", "tolerationSeconds": 300}]))
    batch_ok = [{"key": "dedicated", "operator": "Equal", "value": "batch", "effect": "NoSchedule"}]
    scenario(
        id="k8s-no-tolerate-everything",
        platform="kubernetes",
        title="No tolerate-all tolerations outside kube-system and monitoring",
        requirement=("Except in the kube-system and monitoring namespaces, no pod or pod template may "
                     "carry a blanket toleration: every toleration with operator Exists must name a "
                     "taint key, whether or not it also names an effect."),
        classes=["kyverno", "kubectl-opa", "opa-static"],
        violating_resources=["DaemonSet/logging/fluent-bit", "CronJob/ops/node-cleanup",
                             "Deployment/apps/batch-runner"],
        notes=("fluent-bit: [{operator: Exists}]. node-cleanup: CronJob, second toleration "
               "{operator: Exists, effect: NoSchedule} without key. batch-runner: key: '' (empty) with "
               "Exists. Near misses: node-exporter / kube-proxy in exempt namespaces, Exists with a key."),
        violating=k8s_files({"platform.yaml": platform_noise(), 
            "daemonsets.yaml": [fluent([{"operator": "Exists"}]), exporter, kproxy],
            "workloads.yaml": [cleanup(batch_ok + [{"operator": "Exists", "effect": "NoSchedule"}]),
                               runner([{"key": "", "operator": "Exists"}]), web]}),
        compliant=k8s_files({"platform.yaml": platform_noise(), 
            "daemonsets.yaml": [fluent([{"key": "node-role.kubernetes.io/control-plane",
                                         "operator": "Exists", "effect": "NoSchedule"}]), exporter, kproxy],
            "workloads.yaml": [cleanup(batch_ok), runner(batch_ok), web]}),
    )


# ============================================================================================
# 8. Recreate strategy for database-tier Deployments
# ============================================================================================
def s_recreate():
    def mysql(strategy):
        return deployment("mysql", "crm", "mysql", podspec(
            [ctr("mysql", "registry.corp.example/crm/mysql:8.0.37", resources=RES_M,
                 volumeMounts=[{"name": "data", "mountPath": "/var/lib/mysql"}])],
            volumes=[{"name": "data", "persistentVolumeClaim": {"claimName": "mysql-data"}}]),
            labels={"tier": "database"}, tpl_labels={"tier": "database"}, replicas=1, strategy=strategy)

    def redis(strategy):
        return deployment("redis-primary", "crm", "redis-primary", podspec(
            [ctr("redis", "registry.corp.example/crm/redis:7.2.5", resources=RES_S,
                 volumeMounts=[{"name": "data", "mountPath": "/data"}])],
            volumes=[{"name": "data", "persistentVolumeClaim": {"claimName": "redis-data"}}]),
            labels={"tier": "database", "team": "crm"}, tpl_labels={"tier": "database"}, replicas=1,
            strategy=strategy)

    def clickhouse(strategy):
        return deployment("clickhouse", "analytics", "clickhouse", podspec(
            [ctr("clickhouse", "registry.corp.example/analytics/clickhouse:24.3.5", resources=RES_M)]),
            labels={"tier": "database"}, replicas=1, strategy=strategy)

    web = deployment("crm-web", "crm", "crm-web", podspec(
        [ctr("web", "registry.corp.example/crm/web:12.0.1", resources=RES_S)]),
        labels={"tier": "frontend"}, replicas=3,
        strategy={"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 0}})
    pgsts = statefulset("postgres", "crm", "postgres", podspec(
        [ctr("postgres", "registry.corp.example/crm/postgres:16.3", resources=RES_M,
             volumeMounts=[{"name": "data", "mountPath": "/var/lib/postgresql/data"}])]),
        labels={"tier": "database"}, replicas=1)
    etl = deployment("etl", "analytics", "etl", podspec(
        [ctr("etl", "registry.corp.example/analytics/etl:3.4.0", resources=RES_S)]),
        labels={"tier": "batch"}, replicas=2)
    recreate = {"type": "Recreate"}
    scenario(
        id="k8s-database-deployments-recreate",
        platform="kubernetes",
        title="Database-tier Deployments roll out with Recreate",
        requirement=("Deployments labelled tier=database must use the Recreate rollout strategy, so "
                     "that an old and a new copy of a database never run at the same time."),
        classes=["kyverno", "kubectl-opa", "opa-static"],
        violating_resources=["Deployment/crm/mysql", "Deployment/crm/redis-primary",
                             "Deployment/analytics/clickhouse"],
        notes=("mysql: no strategy at all (the API default is RollingUpdate). redis-primary: "
               "RollingUpdate with maxSurge 0 / maxUnavailable 100% (behaves much like Recreate but is "
               "not). clickhouse: explicit RollingUpdate. Near misses: StatefulSet labelled "
               "tier=database (not a Deployment), RollingUpdate on other tiers."),
        violating=k8s_files(style="helm", files={"platform.yaml": platform_noise(("ingress", "certmgr")), "crm.yaml": [mysql(None), redis({"type": "RollingUpdate", "rollingUpdate": {
                                 "maxSurge": 0, "maxUnavailable": "100%"}}), web, pgsts],
                             "analytics.yaml": [clickhouse({"type": "RollingUpdate"}), etl]}),
        compliant=k8s_files(style="helm", files={"platform.yaml": platform_noise(("ingress", "certmgr")), "crm.yaml": [mysql(recreate), redis(recreate), web, pgsts],
                             "analytics.yaml": [clickhouse(recreate), etl]}),
    )


# ============================================================================================
# 9. app.kubernetes.io/version semver label
# ============================================================================================
def s_semver():
    V = "app.kubernetes.io/version"

    def api(v):
        return deployment("catalog-api", "catalog", "catalog-api", podspec(
            [ctr("api", "registry.corp.example/catalog/api:1.4.0", resources=RES_S)]),
            labels={V: v}, tpl_labels={V: v})

    def db(obj_label):
        return statefulset("catalog-db", "catalog", "catalog-db", podspec(
            [ctr("db", "registry.corp.example/catalog/mariadb:11.4.2", resources=RES_M,
                 volumeMounts=[{"name": "data", "mountPath": "/var/lib/mysql"}])]),
            labels=({V: obj_label} if obj_label else {"app.kubernetes.io/part-of": "catalog"}),
            tpl_labels={V: "11.4.2"}, replicas=1)

    def agent(v):
        return daemonset("node-agent", "infra", "node-agent", podspec(
            [ctr("agent", "registry.corp.example/infra/node-agent:2.3.1", resources=RES_S)]),
            labels={V: v})

    def worker(v):
        return deployment("catalog-worker", "catalog", "catalog-worker", podspec(
            [ctr("worker", "registry.corp.example/catalog/worker:latest", resources=RES_S)]),
            labels={V: v, "app.kubernetes.io/component": "worker"})

    web = deployment("catalog-web", "catalog", "catalog-web", podspec(
        [ctr("web", "registry.corp.example/catalog/web:2.10.0-rc.1", resources=RES_S)]),
        labels={V: "2.10.0-rc.1"})
    proxy = deployment("egress-proxy", "infra", "egress-proxy", podspec(
        [ctr("proxy", "registry.corp.example/infra/squid:6.10", resources=RES_S)]),
        labels={V: "0.0.1"})
    bare = pod("debug-catalog", "catalog", podspec(
        [ctr("debug", "registry.corp.example/infra/toolbox:1.0.0", command=["sleep", "3600"],
             resources=RES_S)]))
    job_ = cronjob("catalog-reindex", "catalog", "0 */6 * * *", podspec(
        [ctr("reindex", "registry.corp.example/catalog/reindex:1.0.2", resources=RES_S)]))
    scenario(
        id="k8s-version-label-semver",
        platform="kubernetes",
        title="Deployments, StatefulSets and DaemonSets carry a semver version label",
        requirement=("Every Deployment, StatefulSet and DaemonSet must itself carry the label "
                     "app.kubernetes.io/version holding a semantic version: three dot-separated "
                     "numbers, optionally followed by a hyphen and a pre-release tag (1.4.2, "
                     "2.10.0-rc.1); no leading 'v'. A label only on the pod template does not count."),
        classes=["kyverno", "kubectl-opa", "opa-static"],
        violating_resources=["Deployment/catalog/catalog-api", "StatefulSet/catalog/catalog-db",
                             "DaemonSet/infra/node-agent", "Deployment/catalog/catalog-worker"],
        notes=("catalog-api: '1.4' (two parts, on object and template). catalog-db: label only on the "
               "pod template. node-agent: 'v2.3.1'. catalog-worker: 'latest'. Near misses: "
               "'2.10.0-rc.1', '0.0.1', a bare Pod and a CronJob without the label (kinds not in scope), "
               "an image tagged latest (not the label)."),
        violating=k8s_files(style="export", files={"catalog.yaml": [api("1.4"), db(None), worker("latest"), web, bare, job_],
                             "infra.yaml": [agent("v2.3.1"), proxy]}),
        compliant=k8s_files(style="export", files={"catalog.yaml": [api("1.4.0"), db("11.4.2"), worker("3.0.0-beta.2"), web,
                                              bare, job_],
                             "infra.yaml": [agent("2.3.1"), proxy]}),
    )


# ============================================================================================
# 10. URL annotations must be https
# ============================================================================================
def s_https_annotations():
    RB = "runbook.corp.example/url"

    def invoice(url):
        return deployment("invoice", "billing", "invoice", podspec(
            [ctr("invoice", "registry.corp.example/billing/invoice:5.2.0", resources=RES_S)]),
            annotations={RB: url, "owner.corp.example/team": "billing"})

    def dunning(url):
        return cronjob("dunning", "billing", "0 8 * * 1-5", podspec(
            [ctr("dunning", "registry.corp.example/billing/dunning:1.7.3", resources=RES_S)]),
            tpl_annotations={"docs.corp.example/link": url})

    def svc(url):
        return service("invoice", "billing", [{"name": "http", "port": 80, "targetPort": 8080}],
                       annotations={"link.argocd.argoproj.io/external-link": url})

    api = deployment("billing-api", "billing", "billing-api", podspec(
        [ctr("api", "registry.corp.example/billing/api:9.0.1", ports=[{"containerPort": 9102, "name": "metrics"}],
             resources=RES_S)]),
        annotations={RB: "https://wiki.corp.example/runbooks/billing-api"},
        tpl_annotations={"prometheus.io/scrape": "true", "prometheus.io/scheme": "http",
                         "prometheus.io/port": "9102"})
    scenario(
        id="k8s-annotation-links-https",
        platform="kubernetes",
        title="Links in annotations use https",
        requirement=("Annotations that hold a link must point at https: on Deployments, StatefulSets, "
                     "CronJobs and Services, and on the pod templates inside them, no annotation value "
                     "may be a plain http:// URL."),
        classes=["kyverno", "kubectl-opa", "opa-static"],
        violating_resources=["Deployment/billing/invoice", "CronJob/billing/dunning", "Service/billing/invoice"],
        notes=("invoice Deployment: runbook annotation http://. dunning: CronJob pod-template annotation "
               "'HTTP://docs...' (upper-case scheme). invoice Service: argocd external-link http://. Near "
               "misses: https URLs, prometheus.io/scheme: http (not a URL)."),
        violating=k8s_files(style="helm", files={"billing.yaml": [invoice("http://wiki.corp.example/runbooks/invoice"),
                                              dunning("HTTP://docs.corp.example/billing/dunning"),
                                              svc("http://invoice.billing.corp.example"), api]}),
        compliant=k8s_files(style="helm", files={"billing.yaml": [invoice("https://wiki.corp.example/runbooks/invoice"),
                                              dunning("https://docs.corp.example/billing/dunning"),
                                              svc("https://invoice.billing.corp.example"), api]}),
    )


# ============================================================================================
# 11. Roles granting pods/exec
# ============================================================================================
def s_pods_exec():
    def cr(name, rules, labels=None):
        return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
                "metadata": meta(name, None, labels), "rules": rules}

    def role(name, ns, rules):
        return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
                "metadata": meta(name, ns), "rules": rules}

    def rb(name, ns, role_name, subj):
        return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
                "metadata": meta(name, ns),
                "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": role_name},
                "subjects": [{"kind": "Group", "name": subj, "apiGroup": "rbac.authorization.k8s.io"}]}

    read_pods = {"apiGroups": [""], "resources": ["pods", "pods/log"], "verbs": ["get", "list", "watch"]}
    support_v = cr("support-debug", [read_pods,
                                     {"apiGroups": [""], "resources": ["pods/exec"], "verbs": ["create"]}],
                   {"rbac.corp.example/owner": "support"})
    support_c = cr("support-debug", [read_pods], {"rbac.corp.example/owner": "support"})
    dev_v = role("dev-tools", "dev", [{"apiGroups": [""], "resources": ["pods/exec", "pods/portforward"],
                                       "verbs": ["get", "create"]}])
    dev_c = role("dev-tools", "dev", [{"apiGroups": [""], "resources": ["pods/portforward"],
                                       "verbs": ["get", "create"]}])
    qa_v = role("qa-runner", "qa", [{"apiGroups": ["", "apps"], "resources": ["pods", "deployments"],
                                     "verbs": ["get", "list"]},
                                    {"apiGroups": [""], "resources": ["pods/exec"], "verbs": ["*"]}])
    qa_c = role("qa-runner", "qa", [{"apiGroups": ["", "apps"], "resources": ["pods", "deployments"],
                                     "verbs": ["get", "list", "create", "delete"]}])
    logs = role("log-reader", "dev", [{"apiGroups": [""], "resources": ["pods/log"], "verbs": ["get"]}])
    ksys = role("node-debugger", "kube-system", [{"apiGroups": [""], "resources": ["pods/exec", "pods/attach"],
                                                  "verbs": ["create"]}])
    view = cr("view-workloads", [{"apiGroups": ["apps"], "resources": ["deployments", "statefulsets"],
                                  "verbs": ["get", "list", "watch"]}])
    bindings = [rb("dev-tools", "dev", "dev-tools", "dev-team"), rb("qa-runner", "qa", "qa-runner", "qa-team")]
    scenario(
        id="k8s-rbac-no-pod-exec",
        platform="kubernetes",
        title="No Role or ClusterRole grants exec into pods (kube-system Roles exempt)",
        requirement=("No Role or ClusterRole may allow exec into pods, that is grant the verb create "
                     "(or *) on the pods/exec subresource. Roles in the kube-system namespace are "
                     "exempt."),
        classes=["kyverno", "opa-static"],
        violating_resources=["ClusterRole//support-debug", "Role/dev/dev-tools", "Role/qa/qa-runner"],
        notes=("support-debug: second rule pods/exec create. dev-tools: pods/exec among two resources. "
               "qa-runner: verbs ['*'] on pods/exec. Near misses: pods/log and pods/portforward grants, "
               "create on pods, a kube-system Role with pods/exec (exempt)."),
        violating=k8s_files({"clusterroles.yaml": [support_v, view],
                             "roles.yaml": [dev_v, qa_v, logs, ksys] + bindings}),
        compliant=k8s_files({"clusterroles.yaml": [support_c, view],
                             "roles.yaml": [dev_c, qa_c, logs, ksys] + bindings}),
    )


# ============================================================================================
# 12. Secret type allow list
# ============================================================================================
def s_secret_types():
    def sec(name, ns, type_, data, annotations=None):
        s = {"apiVersion": "v1", "kind": "Secret", "metadata": meta(name, ns, None, annotations)}
        if type_:
            s["type"] = type_
        s["data"] = data
        return s

    B = "c2VjcmV0LXZhbHVlLWZvci10ZXN0cw=="
    sa = {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": meta("app", "apps")}
    v = [sec("legacy-token", "apps", "kubernetes.io/service-account-token", {},
             {"kubernetes.io/service-account.name": "app"}),
         sec("git-creds", "apps", "kubernetes.io/basic-auth", {"username": "Y2lib3Q=", "password": B}),
         sec("registry-old", "ci", "kubernetes.io/dockercfg", {".dockercfg": "e30="}),
         sec("deploy-key", "ci", "kubernetes.io/ssh-auth", {"ssh-privatekey": B})]
    c = [sec("legacy-token", "apps", "Opaque", {"token": B}),
         sec("git-creds", "apps", "Opaque", {"username": "Y2lib3Q=", "password": B}),
         sec("registry-old", "ci", "kubernetes.io/dockerconfigjson", {".dockerconfigjson": "eyJhdXRocyI6e319"}),
         sec("deploy-key", "ci", None, {"id_ed25519": B})]
    common = [sec("db", "apps", None, {"DATABASE_URL": B}),
              sec("tls-cert", "apps", "kubernetes.io/tls", {"tls.crt": B, "tls.key": B}),
              sec("registry", "ci", "kubernetes.io/dockerconfigjson", {".dockerconfigjson": "eyJhdXRocyI6e319"})]
    scenario(
        id="k8s-secret-type-allowlist",
        platform="kubernetes",
        title="Only Opaque, TLS and dockerconfigjson Secrets",
        requirement=("Secrets may only be of type Opaque, kubernetes.io/tls or "
                     "kubernetes.io/dockerconfigjson; every other Secret type is forbidden."),
        classes=["kyverno", "kubectl-opa"],
        violating_resources=["Secret/apps/legacy-token", "Secret/apps/git-creds", "Secret/ci/registry-old",
                             "Secret/ci/deploy-key"],
        notes=("service-account-token, basic-auth, legacy dockercfg, ssh-auth. Near misses: Secrets "
               "without a type field (Opaque by default), tls, dockerconfigjson."),
        violating=k8s_files(style="export", files={"apps.yaml": [sa, v[0], v[1], common[0], common[1]],
                             "ci.yaml": [v[2], v[3], common[2]]}),
        compliant=k8s_files(style="export", files={"apps.yaml": [sa, c[0], c[1], common[0], common[1]],
                             "ci.yaml": [c[2], c[3], common[2]]}),
    )


# ============================================================================================
# 13. ConfigMap key count <= ten
# ============================================================================================
def s_configmap_keys():
    def cm(name, ns, n_data, n_bin=0, prefix="key"):
        d = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta(name, ns)}
        d["data"] = {f"{prefix}-{i:02d}.conf": f"# {prefix} {i}\nsetting_{i} = {i * 7}\n" for i in range(1, n_data + 1)}
        if n_bin:
            d["binaryData"] = {f"asset-{i}.bin": "AAECAwQFBgcICQ==" for i in range(1, n_bin + 1)}
        return d

    root = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta("kube-root-ca.crt", "web"),
            "data": {"ca.crt": "-----BEGIN CERTIFICATE-----\nMIIBdummy\n-----END CERTIFICATE-----\n"}}
    scenario(
        id="k8s-configmap-max-ten-keys",
        platform="kubernetes",
        title="ConfigMaps hold at most ten keys",
        requirement=("No ConfigMap may hold more than ten keys, counting data and binaryData "
                     "together; larger configuration must be split."),
        classes=["kubectl-opa", "opa-static"],
        violating_resources=["ConfigMap/web/nginx-conf", "ConfigMap/web/assets", "ConfigMap/jobs/etl-sql"],
        notes=("nginx-conf: 12 data keys. assets: 7 data + 4 binaryData = 11 (each part under ten). "
               "etl-sql: 11 keys. Near misses: exactly 10 keys (data only; 6 data + 4 binaryData)."),
        violating=k8s_files({"web.yaml": [cm("nginx-conf", "web", 12, prefix="site"),
                                          cm("assets", "web", 7, 4, prefix="page"),
                                          cm("app-settings", "web", 10, prefix="feature"), root],
                             "jobs.yaml": [cm("etl-sql", "jobs", 11, prefix="query")]}),
        compliant=k8s_files({"web.yaml": [cm("nginx-conf", "web", 10, prefix="site"),
                                          cm("assets", "web", 6, 4, prefix="page"),
                                          cm("app-settings", "web", 10, prefix="feature"), root],
                             "jobs.yaml": [cm("etl-sql", "jobs", 9, 1, prefix="query")]}),
    )


# ============================================================================================
# 14. NetworkPolicy policyTypes must include Egress
# ============================================================================================
def s_netpol_egress():
    def np(name, ns, types, ingress_rules=None, egress_rules=None, selector=None):
        spec = {"podSelector": selector if selector is not None else {}}
        if types is not None:
            spec["policyTypes"] = types
        if ingress_rules is not None:
            spec["ingress"] = ingress_rules
        if egress_rules is not None:
            spec["egress"] = egress_rules
        return {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
                "metadata": meta(name, ns), "spec": spec}

    from_fe = [{"from": [{"podSelector": {"matchLabels": {"app.kubernetes.io/name": "frontend"}}}],
                "ports": [{"protocol": "TCP", "port": 8080}]}]
    from_api = [{"from": [{"podSelector": {"matchLabels": {"app.kubernetes.io/name": "api"}}}],
                 "ports": [{"protocol": "TCP", "port": 5432}]}]
    dns = [{"to": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "kube-system"}},
                    "podSelector": {"matchLabels": {"k8s-app": "kube-dns"}}}],
            "ports": [{"protocol": "UDP", "port": 53}, {"protocol": "TCP", "port": 53}]}]
    to_db = [{"to": [{"podSelector": {"matchLabels": {"app.kubernetes.io/name": "postgres"}}}],
              "ports": [{"protocol": "TCP", "port": 5432}]}]
    api_sel = {"matchLabels": {"app.kubernetes.io/name": "api"}}
    db_sel = {"matchLabels": {"app.kubernetes.io/name": "postgres"}}
    common = [np("default-deny", "shop", ["Ingress", "Egress"]),
              np("egress-dns", "payments", ["Egress"], egress_rules=dns)]
    scenario(
        id="k8s-netpol-must-cover-egress",
        platform="kubernetes",
        title="Every NetworkPolicy also governs egress",
        requirement=("Every NetworkPolicy must govern outbound traffic as well: its policyTypes must "
                     "include Egress."),
        classes=["kyverno", "kubectl-opa", "opa-static"],
        violating_resources=["NetworkPolicy/shop/allow-frontend", "NetworkPolicy/shop/db-ingress"],
        notes=("allow-frontend: policyTypes [Ingress]. db-ingress: no policyTypes and no egress section "
               "(the API defaults it to [Ingress]). Near misses: [Ingress, Egress] with no rules (deny all), [Egress] only, "
               "[Egress, Ingress] in the other order."),
        violating=k8s_files({"netpol.yaml": [np("allow-frontend", "shop", ["Ingress"], from_fe, selector=api_sel),
                                             np("db-ingress", "shop", None, from_api, selector=db_sel),
                                             np("api-ingress", "payments", ["Ingress", "Egress"], from_fe, dns,
                                                selector=api_sel)]
                             + common}),
        compliant=k8s_files({"netpol.yaml": [np("allow-frontend", "shop", ["Ingress", "Egress"], from_fe, to_db,
                                                selector=api_sel),
                                             np("db-ingress", "shop", ["Egress", "Ingress"], from_api, [],
                                                selector=db_sel),
                                             np("api-ingress", "payments", ["Ingress", "Egress"], from_fe, dns,
                                                selector=api_sel)]
                             + common}),
    )


# ============================================================================================
# 15. Ingress pathType Exact or Prefix
# ============================================================================================
def s_ingress_pathtype():
    def storefront(pt):
        return ingress("storefront", "shop", [irule("shop.apps.corp.example", [
            ("/", "Prefix", "storefront", 80),
            ("/api/v[0-9]+/" if pt == "ImplementationSpecific" else "/api/", pt, "api", 8080)])],
            annotations=({"nginx.ingress.kubernetes.io/use-regex": "true"} if pt == "ImplementationSpecific" else None))

    def static(pt):
        return ingress("static", "shop", [
            irule("static.apps.corp.example", [("/", "Prefix", "cdn-origin", 80)]),
            irule("img.apps.corp.example", [("/img", pt, "cdn-origin", 80)])])

    def grafana(pt):
        return ingress("grafana", "tools", [irule("grafana.apps.corp.example", [("/", pt, "grafana", 3000)])],
                       cls="nginx-internal")

    kibana = ingress("kibana", "tools", [irule("kibana.apps.corp.example", [("/app/kibana", "Exact", "kibana", 5601),
                                                                          ("/", "Prefix", "kibana", 5601)])],
                     cls="nginx-internal")
    admin = ingress("admin", "shop", [irule("admin.shop.corp-example.net", [("/", "Prefix", "admin", 8080)])])
    admin_ok = ingress("admin", "shop", [irule("admin.apps.corp.example", [("/", "Prefix", "admin", 8080)])])
    scenario(
        id="k8s-ingress-pathtype-exact-prefix",
        platform="kubernetes",
        title="Ingress paths are Exact or Prefix",
        requirement=("Ingress paths must be matched as Exact or Prefix; ImplementationSpecific path "
                     "matching (controller-specific, e.g. regular expressions on ingress-nginx) is not "
                     "allowed."),
        classes=["kyverno", "kubectl-opa", "opa-static"],
        violating_resources=["Ingress/shop/storefront", "Ingress/shop/static", "Ingress/tools/grafana"],
        notes=("storefront: second path of the rule. static: the second rule's path. grafana: its only "
               "path. Compliant: Exact/Prefix everywhere, plus an Ingress whose host is outside the "
               "corp domain (another control)."),
        violating=k8s_files(style="helm", files={"shop.yaml": [storefront("ImplementationSpecific"), static("ImplementationSpecific"),
                                           admin_ok],
                             "tools.yaml": [grafana("ImplementationSpecific"), kibana]}),
        compliant=k8s_files(style="helm", files={"shop.yaml": [storefront("Prefix"), static("Exact"), admin],
                             "tools.yaml": [grafana("Prefix"), kibana]}),
    )


# ============================================================================================
# RHEL 9 hosts
# ============================================================================================
OS_RELEASE = ('NAME="Red Hat Enterprise Linux"\nVERSION="9.4 (Plow)"\nID="rhel"\nID_LIKE="fedora"\n'
              'VERSION_ID="9.4"\nPLATFORM_ID="platform:el9"\nPRETTY_NAME="Red Hat Enterprise Linux 9.4 (Plow)"\n'
              'ANSI_COLOR="0;31"\nCPE_NAME="cpe:/o:redhat:enterprise_linux:9::baseos"\n')
REDHAT_RELEASE = "Red Hat Enterprise Linux release 9.4 (Plow)\n"


def base_host():
    return {"etc/os-release": OS_RELEASE, "etc/redhat-release": REDHAT_RELEASE,
            "etc/hostname": "rhel9-app01.corp.example\n"}


PASSWD = """root:x:0:0:root:/root:/bin/bash
bin:x:1:1:bin:/bin:/sbin/nologin
daemon:x:2:2:daemon:/sbin:/sbin/nologin
adm:x:3:4:adm:/var/adm:/sbin/nologin
lp:x:4:7:lp:/var/spool/lpd:/sbin/nologin
sync:x:5:0:sync:/sbin:/bin/sync
shutdown:x:6:0:shutdown:/sbin:/sbin/shutdown
halt:x:7:0:halt:/sbin:/sbin/halt
mail:x:8:12:mail:/var/spool/mail:/sbin/nologin
operator:x:11:0:operator:/root:/sbin/nologin
nobody:x:65534:65534:Kernel Overflow User:/:/sbin/nologin
systemd-coredump:x:999:997:systemd Core Dumper:/:/sbin/nologin
dbus:x:81:81:System message bus:/:/sbin/nologin
polkitd:x:998:996:User for polkitd:/:/sbin/nologin
sshd:x:74:74:Privilege-separated SSH:/usr/share/empty.sshd:/sbin/nologin
chrony:x:997:995:chrony system user:/var/lib/chrony:/sbin/nologin
alice:x:1000:1000:Alice Martin:/home/alice:/bin/bash
deploy:x:1001:1001:Deployment user:/home/deploy:/bin/bash
jenkins:x:1002:1002:Jenkins agent:/srv/jenkins:/bin/bash
"""


def s_rhel_pwhistory():
    conf_stock = """# Configuration for the pam_pwhistory module.
#
# The options in this file can be overridden by the module arguments
# on the pam_pwhistory line in the PAM configuration.
#
# Turn on debugging via syslog.
# debug
#
# Enforce pam_pwhistory for the root user as well.
# enforce_for_root
#
# The number of old passwords to remember for each user.
# The default is 10.
# remember = 10
#
# The number of retries before the module returns an error.
# retry = 1
#
# The directory where the password history is stored.
# file = /etc/security/opasswd
"""

    def pam(kind, hist_args, extra_comment=""):
        return f"""#%PAM-1.0
# Generated by authselect
# Do not modify this file manually, use authselect instead. Any user changes will be overwritten.
# You can stop authselect from managing your configuration by calling 'authselect opt-out'.
# See authselect(8) for more details.

auth        required                                     pam_env.so
auth        required                                     pam_faildelay.so delay=2000000
auth        sufficient                                   pam_unix.so nullok
auth        required                                     pam_deny.so

account     required                                     pam_unix.so

{extra_comment}password    requisite                                    pam_pwquality.so local_users_only
password    requisite                                    pam_pwhistory.so {hist_args}
password    sufficient                                   pam_unix.so sha512 shadow nullok use_authtok
password    required                                     pam_deny.so

session     optional                                     pam_keyinit.so revoke
session     required                                     pam_limits.so
-session    optional                                     pam_systemd.so
session     [success=1 default=ignore]                   pam_succeed_if.so service in crond quiet use_uid
session     required                                     pam_unix.so
"""

    v = base_host()
    v["etc/security/pwhistory.conf"] = conf_stock + "\nenforce_for_root\nremember = 24\n"
    v["etc/pam.d/system-auth"] = pam("system", "use_authtok")
    v["etc/pam.d/password-auth"] = pam("password", "use_authtok remember=5")
    c = base_host()
    c["etc/security/pwhistory.conf"] = conf_stock + "\nenforce_for_root\n#remember = 5\nremember=24\n"
    c["etc/pam.d/system-auth"] = pam("system", "use_authtok",
                                     "#password    requisite                                    pam_pwhistory.so remember=5 use_authtok\n")
    c["etc/pam.d/password-auth"] = pam("password", "use_authtok enforce_for_root")
    # another control's violation on the compliant host: a weak pwquality minlen (not this control)
    c["etc/security/pwquality.conf"] = "# Configuration for systemwide password quality limits\nminlen = 8\n"
    attrs = {"/etc/security/pwhistory.conf": {"mode": "0644", "owner": "root", "group": "root"}}
    scenario(
        id="rhel9-password-history-24",
        platform="rhel9",
        title="Password history remembers at least 24 passwords",
        requirement=("Users must not be able to reuse any of their last 24 passwords: the "
                     "pam_pwhistory `remember` value in effect (set in /etc/security/pwhistory.conf "
                     "or as an argument on the pam_pwhistory line of /etc/pam.d/system-auth or "
                     "/etc/pam.d/password-auth, where the argument wins) must be 24 or more."),
        classes=["rhel9-ansible-opa"],
        violating_resources=["password-auth//remember"],
        notes=("Violating: pwhistory.conf says remember = 24, but /etc/pam.d/password-auth passes "
               "remember=5 on the pam_pwhistory line (module arguments override the file). Compliant: "
               "remember=24 (no spaces) after a commented '#remember = 5', a commented PAM line with "
               "remember=5, and a weak pwquality minlen (another control)."),
        violating={"host": v, "attrs": attrs},
        compliant={"host": c, "attrs": attrs},
    )


def s_rhel_cron_at_allow():
    crontab = """SHELL=/bin/bash
PATH=/sbin:/bin:/usr/sbin:/usr/bin
MAILTO=root

# For details see man 4 crontabs
"""
    v = base_host()
    v["etc/crontab"] = crontab
    v["etc/cron.allow"] = "root\n"
    v["etc/at.deny"] = ""
    v["etc/cron.d/0hourly"] = "# Run the hourly jobs\nSHELL=/bin/bash\nPATH=/sbin:/bin:/usr/sbin:/usr/bin\nMAILTO=root\n01 * * * * root run-parts /etc/cron.hourly\n"
    c = base_host()
    c["etc/crontab"] = crontab
    c["etc/cron.allow"] = "root\nbackup\n"
    c["etc/at.allow"] = "root\n"
    c["etc/cron.d/0hourly"] = v["etc/cron.d/0hourly"]
    c["root/at.deny.orig"] = ""
    c["etc/cron.deny.rpmsave"] = "# saved by rpm\n"
    attrs_v = {"/etc/cron.allow": {"mode": "0640", "owner": "root", "group": "root"},
               "/etc/at.deny": {"mode": "0644", "owner": "root", "group": "root"}}
    attrs_c = {"/etc/cron.allow": {"mode": "0640", "owner": "root", "group": "root"},
               "/etc/at.allow": {"mode": "0640", "owner": "root", "group": "root"},
               # another control's finding (crontab mode too open) on the compliant host
               "/etc/crontab": {"mode": "0644", "owner": "root", "group": "root"}}
    scenario(
        id="rhel9-cron-at-allow-lists",
        platform="rhel9",
        title="cron and at restricted to allow-listed users",
        requirement=("Only allow-listed users may schedule jobs: /etc/cron.allow and /etc/at.allow "
                     "must exist, and /etc/cron.deny and /etc/at.deny must not exist."),
        classes=["rhel9-ansible-opa"],
        violating_resources=["at//at.allow", "at//at.deny"],
        notes=("Violating: cron is set up right (cron.allow, no cron.deny) but at.allow is missing and "
               "the stock empty /etc/at.deny is still there. Compliant: both allow files, no deny "
               "files; near misses /etc/cron.deny.rpmsave and /root/at.deny.orig (other names); "
               "/etc/crontab mode 0644 (another control)."),
        violating={"host": v, "attrs": attrs_v},
        compliant={"host": c, "attrs": attrs_c},
    )


def s_rhel_ptrace():
    stock_sysctl = """# sysctl settings are defined through files in
# /usr/lib/sysctl.d/, /run/sysctl.d/, and /etc/sysctl.d/.
#
# Vendors settings live in /usr/lib/sysctl.d/.
# To override a whole file, create a new file with the same in
# /etc/sysctl.d/ and put new settings there. To override
# only specific settings, add a file with a lexically later
# name in /etc/sysctl.d/ and put new settings there.
#
# For more information, see sysctl.conf(5) and sysctl.d(5).
"""
    yama_stock = """# When yama is enabled in the kernel it might be used to filter any user
# space access which requires PTRACE_MODE_ATTACH like ptrace attach, access
# to /proc/PID/{mem,personality,stack,syscall}, and the syscalls
# process_vm_readv and process_vm_writev which are used for interprocess
# services, communication and introspection (like synchronisation, signaling,
# debugging, tracing and profiling) of processes.
#
# Usage of ptrace attach is restricted by normal user permissions. Normal
# unprivileged processes cannot interact through ptrace with processes
# that they cannot send signals or processes that are running set-uid or
# set-gid.
#
kernel.yama.ptrace_scope = 0
"""
    v = base_host()
    v["etc/sysctl.conf"] = stock_sysctl
    v["usr/lib/sysctl.d/10-default-yama-scope.conf"] = yama_stock
    v["etc/sysctl.d/60-kernel-hardening.conf"] = ("# CIS kernel hardening\nkernel.randomize_va_space = 2\n"
                                                 "kernel.yama.ptrace_scope = 1\nkernel.kptr_restrict = 1\n")
    v["etc/sysctl.d/99-zz-devtools.conf"] = ("# requested by the perf team (CHG0041872): allow gdb/strace attach\n"
                                            "kernel.yama.ptrace_scope=0\n")
    c = base_host()
    c["etc/sysctl.conf"] = stock_sysctl
    c["usr/lib/sysctl.d/10-default-yama-scope.conf"] = yama_stock
    c["etc/sysctl.d/10-default-yama-scope.conf"] = "# local override of the vendor file\nkernel.yama.ptrace_scope = 1\n"
    c["etc/sysctl.d/60-kernel-hardening.conf"] = "# CIS kernel hardening\nkernel.randomize_va_space = 2\nkernel.kptr_restrict = 1\n"
    c["etc/sysctl.d/99-zz-devtools.conf"] = ("# requested by the perf team (CHG0041872), reverted by SEC-2210\n"
                                            "# kernel.yama.ptrace_scope=0\n")
    # another control's violation on the compliant host
    c["etc/sysctl.d/50-router.conf"] = "net.ipv4.ip_forward = 1\nnet.ipv4.conf.all.send_redirects = 1\n"
    scenario(
        id="rhel9-yama-ptrace-restricted",
        platform="rhel9",
        title="ptrace restricted by Yama",
        requirement=("Restrict process tracing: the kernel.yama.ptrace_scope value that the sysctl "
                     "configuration applies at boot (files in /etc/sysctl.d, /run/sysctl.d, "
                     "/usr/lib/sysctl.d and /etc/sysctl.conf, in the order systemd-sysctl reads them) "
                     "must be 1 or higher."),
        classes=["rhel9-ansible-opa"],
        violating_resources=["sysctl//kernel.yama.ptrace_scope"],
        notes=("Violating: 60-kernel-hardening.conf sets 1 but the lexically later "
               "/etc/sysctl.d/99-zz-devtools.conf sets 0 (last assignment wins); the vendor file also "
               "says 0. Compliant: /etc/sysctl.d/10-default-yama-scope.conf = 1 masks the vendor file "
               "of the same name (which says 0); the 99 file's line is commented; ip_forward=1 is "
               "another control."),
        violating={"host": v},
        compliant={"host": c},
    )


def s_rhel_rhosts_netrc():
    bashrc = "# .bashrc\n\nif [ -f /etc/bashrc ]; then\n\t. /etc/bashrc\nfi\n"
    profile = "# .bash_profile\n\nif [ -f ~/.bashrc ]; then\n\t. ~/.bashrc\nfi\n"

    def homes():
        h = base_host()
        h["etc/passwd"] = PASSWD
        h["etc/hosts"] = ("127.0.0.1   localhost localhost.localdomain\n::1         localhost localhost.localdomain\n"
                          "10.20.0.11  rhel9-app01.corp.example rhel9-app01\n")
        for home in ("root", "home/alice", "home/deploy", "srv/jenkins"):
            h[f"{home}/.bashrc"] = bashrc
            h[f"{home}/.bash_profile"] = profile
        h["home/deploy/.ssh/authorized_keys"] = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDummyKeyForTests deploy@ci\n"
        h["srv/jenkins/workspace/README"] = "jenkins agent workspace\n"
        return h

    v = homes()
    v["home/deploy/.rhosts"] = "ci01.corp.example deploy\n+ deploy\n"
    v["srv/jenkins/.netrc"] = "machine artifacts.corp.example\n  login jenkins\n  password S3cr3t-artifacts\n"
    c = homes()
    c["home/alice/.netrc.example"] = "machine example.com login USER password CHANGEME\n"
    c["opt/backup/old-home/.rhosts"] = "legacy-host olduser\n"
    c["home/alice/.ssh/known_hosts"] = "ci01.corp.example ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDummyHostKey\n"
    attrs = {"/root": {"mode": "0550"}}
    scenario(
        id="rhel9-no-rhosts-netrc",
        platform="rhel9",
        title="No host-based trust files or .netrc credentials",
        requirement=("No host-based trust or stored plaintext credentials: /etc/hosts.equiv must not "
                     "exist, and no home directory of an account listed in /etc/passwd (including "
                     "/root) may contain a .rhosts, .shosts or .netrc file."),
        classes=["rhel9-ansible-opa"],
        violating_resources=["deploy-home//.rhosts", "jenkins-home//.netrc"],
        notes=("Violating: /home/deploy/.rhosts and /srv/jenkins/.netrc (jenkins' home is under /srv, "
               "not /home). Compliant: /etc/hosts (not hosts.equiv), /home/alice/.netrc.example, "
               "/opt/backup/old-home/.rhosts (not anybody's home directory)."),
        violating={"host": v, "attrs": attrs},
        compliant={"host": c, "attrs": attrs},
    )


def s_rhel_firewalld_zone():
    fw_conf = """# firewalld config file

# default zone
# The default zone used if an empty zone string is used.
# Default: public
{default}

# Clean up on exit
# If set to no or false the firewall configuration will not get cleaned up
# on exit or stop of firewalld.
# Default: yes
CleanupOnExit=yes

# Lockdown
# If set to enabled, firewall changes with the D-Bus interface will be limited
# to applications that are listed in the lockdown whitelist.
# Default: no
Lockdown=no

# IPv6_rpfilter
# Performs a reverse path filter test on a packet for IPv6.
# Default: yes
IPv6_rpfilter=yes

# FirewallBackend
# Selects the firewall backend implementation.
# Choices are:
#	- nftables (default)
#	- iptables (iptables, ip6tables, ebtables and ipset)
# Note: The iptables backend is deprecated. It will be removed in a future
# release.
FirewallBackend=nftables
"""

    def zone(short, desc, target=None, services=(), interfaces=()):
        t = f' target="{target}"' if target else ""
        body = "".join(f'  <interface name="{i}"/>\n' for i in interfaces)
        body += "".join(f'  <service name="{s}"/>\n' for s in services)
        return (f'<?xml version="1.0" encoding="utf-8"?>\n<zone{t}>\n  <short>{short}</short>\n'
                f"  <description>{desc}</description>\n{body}</zone>\n")

    def vendor():
        h = base_host()
        h["usr/lib/firewalld/zones/public.xml"] = zone(
            "Public", "For use in public areas. You do not trust the other computers on networks to not harm "
            "your computer. Only selected incoming connections are accepted.", None,
            ["ssh", "dhcpv6-client", "cockpit"])
        h["usr/lib/firewalld/zones/internal.xml"] = zone(
            "Internal", "For use on internal networks. You mostly trust the other computers on the networks "
            "to not harm your computer. Only selected incoming connections are accepted.", None,
            ["ssh", "mdns", "samba-client", "dhcpv6-client", "cockpit"])
        h["usr/lib/firewalld/zones/trusted.xml"] = zone(
            "Trusted", "All network connections are accepted.", "ACCEPT")
        h["usr/lib/firewalld/zones/drop.xml"] = zone(
            "Drop", "Unsolicited incoming network packets are dropped. Incoming packets that are related to "
            "outgoing network connections are accepted. Outgoing network connections are allowed.", "DROP")
        return h

    v = vendor()
    v["etc/firewalld/firewalld.conf"] = fw_conf.format(default="#DefaultZone=public\nDefaultZone=internal")
    v["etc/firewalld/zones/internal.xml"] = zone(
        "Internal", "Internal application network (changed for the migration window, INC-88213)", "ACCEPT",
        ["ssh", "https"], ["ens192"])
    c = vendor()
    c["etc/firewalld/firewalld.conf"] = fw_conf.format(default="#DefaultZone=trusted\nDefaultZone=public")
    c["etc/firewalld/zones/public.xml"] = zone(
        "Public", "Application servers: ssh and https only", None, ["ssh", "https"], ["ens192"])
    c["etc/firewalld/zones/internal.xml"] = zone(
        "Internal", "Backup network", "ACCEPT", ["ssh"], ["ens224"])
    scenario(
        id="rhel9-firewalld-default-zone-not-open",
        platform="rhel9",
        title="firewalld default zone does not accept everything",
        requirement=("The firewalld default zone must not accept all incoming traffic: it must not be "
                     "the trusted zone, and the zone it names must not have target ACCEPT (a zone file "
                     "in /etc/firewalld/zones overrides the one of the same name in "
                     "/usr/lib/firewalld/zones)."),
        classes=["rhel9-ansible-opa"],
        violating_resources=["firewalld//DefaultZone"],
        notes=("Violating: DefaultZone=internal (after a commented #DefaultZone=public) and "
               "/etc/firewalld/zones/internal.xml overrides the vendor zone with target=\"ACCEPT\". "
               "Compliant: DefaultZone=public (after a commented #DefaultZone=trusted), the non-default "
               "internal zone has target ACCEPT, and the vendor trusted.xml (target ACCEPT) exists."),
        violating={"host": v},
        compliant={"host": c},
    )


# ============================================================================================
ALL = [s_workingdir, s_debug_args, s_probe_shell, s_ingress_domain, s_nodeport, s_topology_key,
       s_tolerations, s_recreate, s_semver, s_https_annotations, s_pods_exec, s_secret_types,
       s_configmap_keys, s_netpol_egress, s_ingress_pathtype,
       s_rhel_pwhistory, s_rhel_cron_at_allow, s_rhel_ptrace, s_rhel_rhosts_netrc, s_rhel_firewalld_zone]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def write_env(d, env, platform):
    if platform == "kubernetes":
        for fn, text in sorted(env.items()):
            write(os.path.join(d, fn), text)
    else:
        for rel, text in sorted(env["host"].items()):
            write(os.path.join(d, "host", rel), text)
        if env.get("attrs"):
            write(os.path.join(d, "host-attributes.yaml"), dump(env["attrs"]))


def main(argv):
    if len(argv) != 2:
        print("usage: python gen.py OUT", file=sys.stderr)
        return 2
    out = argv[1]
    for f in ALL:
        f()
    ids = [s["id"] for s in SCENARIOS]
    assert len(ids) == len(set(ids)), "duplicate ids"
    os.makedirs(out, exist_ok=True)
    for s in SCENARIOS:
        d = os.path.join(out, s["id"])
        if os.path.isdir(d):
            shutil.rmtree(d)
        meta_doc = {"id": s["id"], "platform": s["platform"], "title": s["title"],
                    "requirement": s["requirement"], "classes": s["classes"],
                    "violating_resources": s["violating_resources"], "notes": s["notes"]}
        write(os.path.join(d, "scenario.yaml"), dump(meta_doc))
        write_env(os.path.join(d, "violating"), s["violating"], s["platform"])
        write_env(os.path.join(d, "compliant"), s["compliant"], s["platform"])
    n_trials = sum(len(s["classes"]) for s in SCENARIOS)
    print(f"wrote {len(SCENARIOS)} scenarios ({n_trials} trials) to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
