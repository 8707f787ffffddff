#!/usr/bin/env python3
"""ciso-set13: 20 held-out CISO scenarios (15 Kubernetes, 5 RHEL 9).

Usage: python gen.py OUT      (stdlib only, deterministic)

Every scenario is written as OUT/<id>/{scenario.yaml, violating/, compliant/}.
Kubernetes environments are multi-document YAML manifests; RHEL 9 environments
are host trees (violating/host/..., compliant/host/...) plus host-attributes.yaml.
"""
import json
import os
import re
import shutil
import sys

# --------------------------------------------------------------------------
# a tiny YAML emitter (block style, JSON-quoted scalars where needed)
# --------------------------------------------------------------------------
_SAFE = re.compile(r"^[A-Za-z_/][A-Za-z0-9_./-]*$")
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
    if _SAFE.match(s) and s.lower() not in _RESERVED:
        return s
    return json.dumps(s)


def _emit(v, ind, out):
    pad = "  " * ind
    if isinstance(v, dict):
        if not v:
            out.append(pad + "{}")
            return
        for k, x in v.items():
            key = _scalar(k)
            if isinstance(x, dict) and x:
                out.append(f"{pad}{key}:")
                _emit(x, ind + 1, out)
            elif isinstance(x, list) and x:
                out.append(f"{pad}{key}:")
                _emit(x, ind, out)
            elif isinstance(x, (dict, list)):
                out.append(f"{pad}{key}: {'{}' if isinstance(x, dict) else '[]'}")
            else:
                out.append(f"{pad}{key}: {_scalar(x)}")
    elif isinstance(v, list):
        for x in v:
            if isinstance(x, (dict, list)) and x:
                sub = []
                _emit(x, ind + 1, sub)
                first = sub[0].lstrip()
                out.append(f"{pad}- {first}")
                out.extend(sub[1:])
            elif isinstance(x, (dict, list)):
                out.append(f"{pad}- {'{}' if isinstance(x, dict) else '[]'}")
            else:
                out.append(f"{pad}- {_scalar(x)}")
    else:
        out.append(pad + _scalar(v))


def dump(v):
    out = []
    _emit(v, 0, out)
    return "\n".join(out) + "\n"


def dump_all(docs):
    return "---\n".join(dump(d) for d in docs)


# --------------------------------------------------------------------------
# Kubernetes object helpers
# --------------------------------------------------------------------------
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
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": meta(name, labels=lab)}


def ctr(name, image, **kw):
    c = {"name": name, "image": image}
    c.update(kw)
    return c


def podspec(containers, init=None, **kw):
    s = {}
    if init:
        s["initContainers"] = init
    s["containers"] = containers
    s.update(kw)
    return s


def deployment(ns, name, spec, labels=None, replicas=2, extra=None, tlabels=None):
    lab = {"app": name}
    lab.update(labels or {})
    tl = {"app": name}
    tl.update(tlabels or {})
    d = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": meta(name, ns, lab),
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "template": {"metadata": {"labels": tl}, "spec": spec},
        },
    }
    if extra:
        d["spec"].update(extra)
    return d


def statefulset(ns, name, spec, vct=None, labels=None, extra=None, tlabels=None):
    lab = {"app": name}
    lab.update(labels or {})
    tl = {"app": name}
    tl.update(tlabels or {})
    s = {
        "apiVersion": "apps/v1",
        "kind": "StatefulSet",
        "metadata": meta(name, ns, lab),
        "spec": {
            "serviceName": name,
            "replicas": 3,
            "selector": {"matchLabels": {"app": name}},
            "template": {"metadata": {"labels": tl}, "spec": spec},
        },
    }
    if extra:
        s["spec"].update(extra)
    if vct:
        s["spec"]["volumeClaimTemplates"] = vct
    return s


def daemonset(ns, name, spec, labels=None):
    lab = {"app": name}
    lab.update(labels or {})
    return {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": meta(name, ns, lab),
        "spec": {
            "selector": {"matchLabels": {"app": name}},
            "template": {"metadata": {"labels": {"app": name}}, "spec": spec},
        },
    }


def cronjob(ns, name, schedule, spec, labels=None, tlabels=None):
    spec = dict(spec)
    spec.setdefault("restartPolicy", "OnFailure")
    tmpl = {"spec": spec}
    if tlabels:
        tmpl = {"metadata": {"labels": dict(tlabels)}, "spec": spec}
    return {
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": meta(name, ns, labels),
        "spec": {"schedule": schedule, "jobTemplate": {"spec": {"template": tmpl}}},
    }


def job(ns, name, spec, labels=None, tlabels=None):
    spec = dict(spec)
    spec.setdefault("restartPolicy", "Never")
    tmpl = {"spec": spec}
    if tlabels:
        tmpl = {"metadata": {"labels": dict(tlabels)}, "spec": spec}
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": meta(name, ns, labels),
        "spec": {"backoffLimit": 2, "template": tmpl},
    }


def pod(ns, name, spec, labels=None, annotations=None):
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta(name, ns, labels, annotations), "spec": spec}


def service(ns, name, ports, stype=None, labels=None, annotations=None, **kw):
    spec = {}
    if stype:
        spec["type"] = stype
    spec["selector"] = {"app": name}
    spec["ports"] = ports
    spec.update(kw)
    return {"apiVersion": "v1", "kind": "Service", "metadata": meta(name, ns, labels, annotations), "spec": spec}


def port(p, name=None, target=None, proto=None):
    d = {}
    if name is not None:
        d["name"] = name
    d["port"] = p
    if target is not None:
        d["targetPort"] = target
    if proto:
        d["protocol"] = proto
    return d


def configmap(ns, name, data):
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta(name, ns), "data": data}


def sa(ns, name, automount="unset", labels=None, annotations=None):
    d = {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": meta(name, ns, labels, annotations)}
    if automount != "unset":
        d["automountServiceAccountToken"] = automount
    return d


def role(ns, name, rules):
    return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": meta(name, ns), "rules": rules}


def clusterrole(name, rules, labels=None):
    return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
            "metadata": meta(name, labels=labels), "rules": rules}


def subj(kind, name, ns=None):
    d = {"kind": kind, "name": name}
    if kind in ("User", "Group"):
        d["apiGroup"] = "rbac.authorization.k8s.io"
    if ns:
        d["namespace"] = ns
    return d


def rolebinding(ns, name, subjects, ref_kind, ref_name, annotations=None):
    return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
            "metadata": meta(name, ns, annotations=annotations),
            "subjects": subjects,
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": ref_kind, "name": ref_name}}


def crb(name, subjects, ref_name, labels=None, annotations=None):
    return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
            "metadata": meta(name, labels=labels, annotations=annotations),
            "subjects": subjects,
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": ref_name}}


def pvc(ns, name, size, mode=None, sc="gp3", access="ReadWriteOnce"):
    spec = {"accessModes": [access], "storageClassName": sc, "resources": {"requests": {"storage": size}}}
    if mode:
        spec["volumeMode"] = mode
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": meta(name, ns), "spec": spec}


def pv(name, size, source, sc="local-storage", labels=None, node=None, mode=None):
    spec = {"capacity": {"storage": size}, "accessModes": ["ReadWriteOnce"],
            "persistentVolumeReclaimPolicy": "Retain", "storageClassName": sc}
    if mode:
        spec["volumeMode"] = mode
    spec.update(source)
    if node:
        spec["nodeAffinity"] = {"required": {"nodeSelectorTerms": [{"matchExpressions": [
            {"key": "kubernetes.io/hostname", "operator": "In", "values": [node]}]}]}}
    return {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": meta(name, labels=labels), "spec": spec}


def limitrange(ns, name, default_cpu="500m", default_mem="512Mi"):
    return {"apiVersion": "v1", "kind": "LimitRange", "metadata": meta(name, ns),
            "spec": {"limits": [{"type": "Container",
                                 "default": {"cpu": default_cpu, "memory": default_mem},
                                 "defaultRequest": {"cpu": "100m", "memory": "128Mi"}}]}}


def quota(ns, name, hard):
    return {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": meta(name, ns), "spec": {"hard": hard}}


def res(req_cpu=None, lim_cpu=None, req_mem=None, lim_mem=None):
    r = {}
    req = {}
    lim = {}
    if req_cpu is not None:
        req["cpu"] = req_cpu
    if req_mem is not None:
        req["memory"] = req_mem
    if lim_cpu is not None:
        lim["cpu"] = lim_cpu
    if lim_mem is not None:
        lim["memory"] = lim_mem
    if lim:
        r["limits"] = lim
    if req:
        r["requests"] = req
    return r


def ref(o):
    k = o["kind"]
    m = o["metadata"]
    return f"{k}/{m.get('namespace', '')}/{m['name']}"


# Distractors: violations of OTHER controls, dropped into compliant environments.
def other_violations(ns, tag):
    return [
        deployment(ns, f"legacy-agent-{tag}", podspec(
            [ctr("agent", "docker.io/library/busybox:latest", command=["sh", "-c", "sleep 3600"],
                 securityContext={"privileged": True, "allowPrivilegeEscalation": True})],
            hostNetwork=True, hostPID=True)),
    ]


# --------------------------------------------------------------------------
# Kubernetes scenarios. Each function returns (meta, violating, compliant, bad)
# --------------------------------------------------------------------------
K8S = []


def k8s(fn):
    K8S.append(fn)
    return fn


@k8s
def mesh_port_names():
    req = ("In every namespace labelled istio-injection=enabled, each port of a Service must be named "
           "for its protocol so the mesh can route it: the port name must be one of http, http2, https, "
           "grpc, grpc-web, tcp, tls, udp, mongo, mysql, redis, or one of these followed by a dash and a "
           "suffix (for example http-api). Unnamed ports are not acceptable.")

    def env(bad):
        objs = [namespace("checkout", {"istio-injection": "enabled", "team": "payments"}),
                namespace("search", {"istio-injection": "enabled"}),
                namespace("legacy-batch", {"istio-injection": "disabled"}),
                namespace("observability")]
        objs.append(service("checkout", "cart-api",
                            [port(8080, "http-api", 8080), port(9090, "http-metrics" if not bad else "metrics", 9090)]))
        objs.append(service("checkout", "payments-grpc", [port(50051, "grpc", 50051)]))
        objs.append(service("search", "indexer",
                            [port(9200, "httpapi" if bad else "http-api", 9200), port(9300, "tcp-transport", 9300)]))
        objs.append(service("search", "query-cache", [port(6379, None if bad else "redis", 6379)]))
        objs.append(service("search", "ui", [port(443, "https", 8443), port(80, "http2-web", 8080)]))
        # near misses: outside the mesh, names are free
        objs.append(service("legacy-batch", "reporter", [port(8080, "web", 8080)]))
        objs.append(service("observability", "grafana", [port(3000, None, 3000)]))
        for n in ("cart-api", "payments-grpc"):
            objs.append(deployment("checkout", n, podspec([ctr(n, f"ghcr.io/acme/{n}:2.4.1",
                                                               ports=[{"containerPort": 8080, "name": "http"}])])))
        if not bad:
            objs += other_violations("legacy-batch", "mesh")
        return objs

    bad = ["Service/checkout/cart-api", "Service/search/indexer", "Service/search/query-cache"]
    return dict(id="mesh-service-port-protocol-names", title="Service ports in mesh namespaces carry a protocol name",
                requirement=req, classes=["kyverno", "kubectl-opa", "opa-static"],
                notes="cart-api: second port named 'metrics'; indexer: 'httpapi' has no dash (prefix trick); "
                      "query-cache: single unnamed port. Near misses: http2-web, grpc, https; non-mesh namespaces "
                      "with 'web' and unnamed ports (istio-injection=disabled, or no label)."), env, bad


@k8s
def cpu_limit_ratio():
    req = ("For production namespaces (label env=prod) a container that declares both a CPU request and a CPU "
           "limit must not have a limit greater than four times its request. This applies to init containers too.")

    def env(bad):
        objs = [namespace("orders", {"env": "prod"}), namespace("orders-staging", {"env": "staging"}),
                namespace("ledger", {"env": "prod"})]
        objs.append(deployment("orders", "orders-api", podspec([
            ctr("api", "ghcr.io/acme/orders-api:5.2.0", resources=res("500m", "2", "256Mi", "512Mi")),
            ctr("envoy", "envoyproxy/envoy:v1.30.1",
                resources=res("100m", "1" if bad else "400m", "64Mi", "128Mi")),
        ])))
        objs.append(statefulset("ledger", "ledger-db", podspec(
            [ctr("postgres", "postgres:16.3", resources=res("1", "2", "2Gi", "4Gi"))],
            init=[ctr("restore", "ghcr.io/acme/pg-restore:1.1",
                      resources=res("0.25", "2" if bad else "1", "128Mi", "1Gi"))])))
        objs.append(cronjob("ledger", "nightly-reconcile", "15 2 * * *", podspec([
            ctr("reconcile", "ghcr.io/acme/reconcile:0.9",
                resources=res("250m", "1500m" if bad else "1000m"))])))
        # near misses
        objs.append(deployment("ledger", "ledger-ui", podspec([
            ctr("ui", "nginx:1.27", resources=res("0.5", "2000m"))])))  # exactly 4x
        objs.append(deployment("ledger", "ledger-events", podspec([
            ctr("worker", "ghcr.io/acme/ledger-events:3.0", resources=res(None, "4", "128Mi", "256Mi"))])))  # no request
        objs.append(deployment("orders-staging", "orders-api", podspec([
            ctr("api", "ghcr.io/acme/orders-api:5.3.0-rc1", resources=res("50m", "2"))])))  # staging: free
        if not bad:
            objs += other_violations("orders-staging", "ratio")
        return objs

    bad = ["Deployment/orders/orders-api", "StatefulSet/ledger/ledger-db", "CronJob/ledger/nightly-reconcile"]
    return dict(id="prod-cpu-limit-request-ratio", title="CPU limit at most four times the request in prod",
                requirement=req, classes=["kyverno", "kubectl-opa", "opa-static"],
                notes="Violations: envoy sidecar 100m->1 (10x); init container restore 0.25->2 (8x); CronJob 250m->1500m "
                      "(6x). Near misses: 0.5 -> 2000m (exactly 4x, allowed), a limit without request, staging "
                      "namespace 50m->2."), env, bad


@k8s
def no_subpathexpr():
    req = ("Outside kube-system, volume mounts must not build their sub-path from environment variables "
           "(subPathExpr); a fixed subPath is fine.")

    def env(bad):
        objs = [namespace("logging"), namespace("media")]
        shipper_mounts = [{"name": "varlog", "mountPath": "/var/log/app"}]
        objs.append(daemonset("logging", "log-shipper", podspec(
            [ctr("fluent-bit", "fluent/fluent-bit:3.0.7", volumeMounts=shipper_mounts)],
            volumes=[{"name": "varlog", "emptyDir": {}}])))
        # exempt: the node log agent in kube-system writes one directory per pod
        objs.append(daemonset("kube-system", "node-log-agent", podspec(
            [ctr("agent", "registry.k8s.io/fluentd-elasticsearch:1.20",
                 env=[{"name": "POD_NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
                 volumeMounts=[{"name": "buf", "mountPath": "/var/log/buffer", "subPathExpr": "$(POD_NAME)"}])],
            volumes=[{"name": "buf", "hostPath": {"path": "/var/log/agent-buffer", "type": "DirectoryOrCreate"}}])))
        m = {"name": "scratch", "mountPath": "/work"}
        if bad:
            m["subPathExpr"] = "$(POD_NAME)"
        else:
            m["subPath"] = "transcode"
        objs.append(statefulset("media", "transcoder", podspec(
            [ctr("ffmpeg", "jrottenberg/ffmpeg:6.1-ubuntu", volumeMounts=[{"name": "scratch", "mountPath": "/work"}])],
            init=[ctr("prepare", "busybox:1.36", command=["sh", "-c", "mkdir -p /work/in"],
                      env=[{"name": "POD_NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
                      volumeMounts=[m])],
            volumes=[{"name": "scratch", "emptyDir": {}}])))
        cm = {"name": "reports", "mountPath": "/out"}
        if bad:
            cm["subPathExpr"] = "reports/$(RUN_DATE)"
        else:
            cm["subPath"] = "reports/daily"
        objs.append(cronjob("media", "usage-report", "0 6 * * *", podspec(
            [ctr("report", "ghcr.io/acme/usage-report:2.0",
                 env=[{"name": "RUN_DATE", "value": "today"}], volumeMounts=[cm])],
            volumes=[{"name": "reports", "persistentVolumeClaim": {"claimName": "reports"}}])))
        objs.append(pvc("media", "reports", "20Gi"))
        # near misses: fixed subPath with env var set in the container
        objs.append(deployment("media", "thumbnailer", podspec(
            [ctr("thumb", "ghcr.io/acme/thumbnailer:1.8",
                 env=[{"name": "NODE", "valueFrom": {"fieldRef": {"fieldPath": "spec.nodeName"}}}],
                 volumeMounts=[{"name": "cfg", "mountPath": "/etc/thumb/config.yaml", "subPath": "config.yaml"}])],
            volumes=[{"name": "cfg", "configMap": {"name": "thumb-config"}}])))
        objs.append(configmap("media", "thumb-config", {"config.yaml": "size: 256\n"}))
        if not bad:
            objs += other_violations("logging", "subpath")
        return objs

    bad = ["StatefulSet/media/transcoder", "CronJob/media/usage-report"]
    return dict(id="no-env-expanded-subpaths", title="No subPathExpr in volume mounts", requirement=req,
                classes=["kyverno", "kubectl-opa", "opa-static"],
                notes="Violations hidden in a StatefulSet init container and a CronJob template. Near misses: "
                      "fixed subPath values (one containing a slash) next to env vars; a kube-system DaemonSet "
                      "with subPathExpr (exempt by scope)."), env, bad


@k8s
def no_downward_annotations():
    req = ("Pod annotations often carry tokens injected by tooling. Workloads must not expose pod annotations to "
           "their containers through the downward API - neither all annotations (metadata.annotations) nor a "
           "single one (metadata.annotations['key']), whether as a downwardAPI volume, a projected volume, or "
           "an environment variable.")

    def env(bad):
        objs = [namespace("identity"), namespace("web")]
        podinfo_items = [{"path": "labels", "fieldRef": {"fieldPath": "metadata.labels"}}]
        if bad:
            podinfo_items.append({"path": "annotations", "fieldRef": {"fieldPath": "metadata.annotations"}})
        objs.append(deployment("identity", "keycloak", podspec(
            [ctr("keycloak", "quay.io/keycloak/keycloak:24.0.5",
                 volumeMounts=[{"name": "podinfo", "mountPath": "/etc/podinfo"}])],
            volumes=[{"name": "podinfo", "downwardAPI": {"items": podinfo_items}}])))
        proj_src = [{"serviceAccountToken": {"path": "token", "expirationSeconds": 3600}},
                    {"downwardAPI": {"items": [
                        {"path": "namespace", "fieldRef": {"fieldPath": "metadata.namespace"}}]}}]
        if bad:
            proj_src[1]["downwardAPI"]["items"].append(
                {"path": "vault-role",
                 "fieldRef": {"fieldPath": "metadata.annotations['vault.hashicorp.com/role']"}})
        objs.append(statefulset("identity", "session-store", podspec(
            [ctr("redis", "redis:7.2.5", volumeMounts=[{"name": "bundle", "mountPath": "/var/run/bundle"}])],
            volumes=[{"name": "bundle", "projected": {"sources": proj_src}}])))
        env_vars = [{"name": "POD_IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}}]
        if bad:
            env_vars.append({"name": "BUILD_COMMIT",
                             "valueFrom": {"fieldRef": {"fieldPath": "metadata.annotations['ci.acme.io/commit']"}}})
        objs.append(job("web", "db-migrate", podspec(
            [ctr("migrate", "ghcr.io/acme/migrate:7.1", env=env_vars)])))
        # near misses: labels, name, resources through the downward API
        objs.append(deployment("web", "storefront", podspec(
            [ctr("app", "ghcr.io/acme/storefront:11.0",
                 env=[{"name": "POD_NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
                      {"name": "MEM_LIMIT", "valueFrom": {"resourceFieldRef": {"resource": "limits.memory"}}}],
                 volumeMounts=[{"name": "meta", "mountPath": "/etc/meta"}])],
            volumes=[{"name": "meta", "downwardAPI": {"items": [
                {"path": "labels", "fieldRef": {"fieldPath": "metadata.labels"}},
                {"path": "uid", "fieldRef": {"fieldPath": "metadata.uid"}}]}}]),
            extra=None))
        objs[-1]["spec"]["template"]["metadata"]["annotations"] = {"prometheus.io/scrape": "true"}
        if not bad:
            objs += other_violations("web", "dapi")
        return objs

    bad = ["Deployment/identity/keycloak", "StatefulSet/identity/session-store", "Job/web/db-migrate"]
    return dict(id="no-downward-api-annotations", title="Pod annotations not exposed via the downward API",
                requirement=req, classes=["kyverno", "kubectl-opa", "opa-static"],
                notes="Three forms: downwardAPI volume item metadata.annotations; projected volume item with a single "
                      "annotation key; env fieldRef to one annotation in a Job. Near misses: metadata.labels, "
                      "metadata.name, metadata.uid, resourceFieldRef, annotations on the template itself."), env, bad


@k8s
def no_poststart_exec():
    req = "Containers must not use postStart lifecycle hooks that execute a command inside the container."

    def env(bad):
        objs = [namespace("platform"), namespace("analytics")]
        sidecar = ctr("cert-sync", "ghcr.io/acme/cert-sync:0.4.2")
        if bad:
            sidecar["lifecycle"] = {"postStart": {"exec": {"command": ["/bin/sh", "-c", "cp /certs/* /shared/"]}}}
        objs.append(deployment("platform", "api-gateway", podspec([
            ctr("gateway", "kong:3.7.1", lifecycle={"preStop": {"exec": {"command": ["kong", "quit"]}}}),
            sidecar])))
        c = ctr("spark", "apache/spark:3.5.1")
        if bad:
            c["lifecycle"] = {"postStart": {"exec": {"command": ["bash", "-c", "echo started >> /tmp/marker"]}}}
        objs.append(cronjob("analytics", "hourly-rollup", "0 * * * *", podspec([c])))
        # near misses: postStart httpGet, preStop exec
        objs.append(deployment("analytics", "notebook", podspec([
            ctr("jupyter", "jupyter/base-notebook:2024-05-27",
                lifecycle={"postStart": {"httpGet": {"path": "/api/warmup", "port": 8888}},
                           "preStop": {"exec": {"command": ["jupyter", "notebook", "stop"]}}})])))
        if not bad:
            objs += other_violations("analytics", "hook")
        return objs

    bad = ["Deployment/platform/api-gateway", "CronJob/analytics/hourly-rollup"]
    return dict(id="no-poststart-exec-hooks", title="No exec postStart hooks", requirement=req,
                classes=["kyverno", "kubectl-opa", "opa-static"],
                notes="Violation in a sidecar (second container) and in a CronJob template. Near misses: postStart "
                      "httpGet, preStop exec."), env, bad


@k8s
def sa_automount_prod():
    req = ("ServiceAccount objects in namespaces labelled env=prod must explicitly set "
           "automountServiceAccountToken: false on the ServiceAccount itself.")

    def env(bad):
        objs = [namespace("billing", {"env": "prod"}), namespace("crm", {"env": "prod", "team": "sales"}),
                namespace("sandbox", {"env": "dev"})]
        for n in ("billing", "crm", "sandbox"):
            objs.append(sa(n, "default", False))
        objs.append(sa("billing", "invoicer", "unset" if bad else False, labels={"app": "invoicer"}))
        objs.append(sa("crm", "sync-worker", True if bad else False,
                       annotations={"eks.amazonaws.com/role-arn": "arn:aws:iam::111122223333:role/crm-sync"}))
        objs.append(sa("crm", "reporting", False))
        # near misses: dev namespace without the field; pod-level opt-out in prod does not replace the SA setting
        objs.append(sa("sandbox", "experiments"))
        objs.append(sa("sandbox", "notebook", True))
        objs.append(deployment("billing", "invoicer", podspec(
            [ctr("invoicer", "ghcr.io/acme/invoicer:4.0")], serviceAccountName="invoicer",
            automountServiceAccountToken=False)))
        if not bad:
            objs += other_violations("sandbox", "sa")
        return objs

    bad = ["ServiceAccount/billing/invoicer", "ServiceAccount/crm/sync-worker"]
    return dict(id="prod-serviceaccount-automount-off", title="ServiceAccounts in prod disable token automount",
                requirement=req, classes=["kyverno", "kubectl-opa", "opa-static"],
                notes="invoicer: field absent (the pod spec opts out, which does not satisfy the SA-level rule); "
                      "sync-worker: true. Near misses: dev namespace SAs without the field or with true. Every "
                      "namespace's default SA is declared with false."), env, bad


@k8s
def no_authenticated_group_bindings():
    req = ("Do not grant roles to every signed-in user. No ClusterRoleBinding or RoleBinding may have the group "
           "system:authenticated as a subject, except the three bindings Kubernetes creates itself "
           "(ClusterRoleBindings named system:basic-user, system:discovery and system:public-info-viewer).")

    def env(bad):
        objs = [namespace("docs"), namespace("ci")]
        objs.append(crb("system:discovery", [subj("Group", "system:authenticated")], "system:discovery",
                        labels={"kubernetes.io/bootstrapping": "rbac-defaults"},
                        annotations={"rbac.authorization.kubernetes.io/autoupdate": "true"}))
        objs.append(crb("system:public-info-viewer", [subj("Group", "system:authenticated"),
                                                      subj("Group", "system:unauthenticated")],
                        "system:public-info-viewer", labels={"kubernetes.io/bootstrapping": "rbac-defaults"}))
        objs.append(crb("all-users-view", [subj("Group", "system:authenticated" if bad else "acme:sre")], "view"))
        objs.append(clusterrole("metrics-discovery", [{"nonResourceURLs": ["/metrics", "/metrics/*"],
                                                       "verbs": ["get"]}]))
        objs.append(crb("system:discovery-metrics",
                        [subj("Group", "system:authenticated" if bad else "system:monitoring")],
                        "metrics-discovery"))
        rb_subjects = [subj("User", "alice@acme.io")]
        if bad:
            rb_subjects.append(subj("Group", "system:authenticated"))
        objs.append(rolebinding("docs", "docs-editors", rb_subjects, "ClusterRole", "edit"))
        # near misses
        objs.append(rolebinding("ci", "ci-runners", [subj("Group", "system:serviceaccounts:ci")], "Role", "runner"))
        objs.append(role("ci", "runner", [{"apiGroups": [""], "resources": ["pods", "pods/log"],
                                           "verbs": ["get", "list", "watch", "create", "delete"]}]))
        objs.append(crb("oidc-platform-admins", [subj("Group", "oidc:platform-admins")], "admin"))
        if not bad:
            objs += other_violations("ci", "authn")
        return objs

    bad = ["ClusterRoleBinding//all-users-view", "ClusterRoleBinding//system:discovery-metrics",
           "RoleBinding/docs/docs-editors"]
    return dict(id="no-bindings-to-all-authenticated", title="No bindings to system:authenticated",
                requirement=req, classes=["kyverno", "kubectl-opa", "opa-static"],
                notes="A ClusterRoleBinding to view; a custom ClusterRoleBinding named system:discovery-metrics "
                      "(looks built-in, is not one of the three exempt names); a RoleBinding whose second subject "
                      "is the group. The "
                      "built-in system:discovery and system:public-info-viewer bindings are present in both "
                      "environments and are exempt by name. Near miss: group system:serviceaccounts:ci."), env, bad


@k8s
def rolebinding_same_namespace_sa():
    req = ("A RoleBinding may grant access only to ServiceAccounts that live in the RoleBinding's own namespace; "
           "a RoleBinding naming a ServiceAccount from another namespace is a violation.")

    def env(bad):
        objs = [namespace("payments"), namespace("deploy-tools"), namespace("monitoring")]
        objs.append(sa("deploy-tools", "argo-deployer"))
        objs.append(sa("payments", "payments-api"))
        objs.append(sa("monitoring", "prometheus"))
        objs.append(role("payments", "deployer", [{"apiGroups": ["apps"], "resources": ["deployments"],
                                                   "verbs": ["get", "list", "patch", "update"]}]))
        objs.append(rolebinding("payments", "ci-deploy",
                                [subj("ServiceAccount", "argo-deployer", "deploy-tools" if bad else "payments")],
                                "Role", "deployer"))
        subs = [subj("ServiceAccount", "payments-api", "payments")]
        if bad:
            subs.append(subj("ServiceAccount", "prometheus", "monitoring"))
        objs.append(rolebinding("payments", "read-config", subs, "ClusterRole", "view"))
        if not bad:
            objs.append(sa("payments", "argo-deployer"))
        # near misses: ClusterRoleBinding to a SA (not a RoleBinding); RoleBinding to a User and a Group
        objs.append(crb("prometheus-cluster-read", [subj("ServiceAccount", "prometheus", "monitoring")], "view"))
        objs.append(rolebinding("monitoring", "oncall-edit",
                                [subj("User", "oncall@acme.io"), subj("Group", "sre")], "ClusterRole", "edit"))
        objs.append(rolebinding("monitoring", "self-read",
                                [subj("ServiceAccount", "prometheus", "monitoring")], "ClusterRole", "view"))
        if not bad:
            objs += other_violations("monitoring", "rbns")
        return objs

    bad = ["RoleBinding/payments/ci-deploy", "RoleBinding/payments/read-config"]
    return dict(id="rolebinding-foreign-serviceaccounts", title="RoleBindings only to same-namespace ServiceAccounts",
                requirement=req, classes=["kyverno", "kubectl-opa", "opa-static"],
                notes="ci-deploy grants to deploy-tools/argo-deployer; read-config's second subject is "
                      "monitoring/prometheus. Near misses: a ClusterRoleBinding to a SA, RoleBindings to a User "
                      "and a Group, a same-namespace SA subject."), env, bad


@k8s
def batch_nodeselector():
    req = ("Pods labelled tier=batch - including the pod templates of Deployments, Jobs and CronJobs - must be "
           "pinned to the batch node pool with a nodeSelector of node-pool: batch.")

    def env(bad):
        objs = [namespace("etl"), namespace("frontend")]
        objs.append(cronjob("etl", "export-warehouse", "30 1 * * *", podspec(
            [ctr("export", "ghcr.io/acme/warehouse-export:2.2")],
            **({} if bad else {"nodeSelector": {"node-pool": "batch"}})),
            tlabels={"tier": "batch", "app": "export-warehouse"}))
        objs.append(job("etl", "backfill-2024q2", podspec(
            [ctr("backfill", "ghcr.io/acme/backfill:2.2")],
            nodeSelector={"node-pool": "general" if bad else "batch", "kubernetes.io/arch": "amd64"}),
            tlabels={"tier": "batch"}))
        objs.append(deployment("etl", "queue-consumer", podspec(
            [ctr("consumer", "ghcr.io/acme/consumer:1.0")],
            nodeSelector={"node-pool": "Batch" if bad else "batch"}), tlabels={"tier": "batch"}))
        # near misses
        objs.append(deployment("frontend", "web", podspec([ctr("web", "nginx:1.27")]), tlabels={"tier": "web"}))
        objs.append(deployment("etl", "scheduler", podspec([ctr("airflow", "apache/airflow:2.9.2")]),
                               labels={"tier": "batch"}, tlabels={"tier": "control"}))
        objs.append(job("etl", "compact", podspec(
            [ctr("compact", "ghcr.io/acme/compact:0.3")],
            nodeSelector={"node-pool": "batch", "topology.kubernetes.io/zone": "eu-west-1a"}),
            tlabels={"tier": "batch"}))
        if not bad:
            objs += other_violations("frontend", "nodesel")
        return objs

    bad = ["CronJob/etl/export-warehouse", "Job/etl/backfill-2024q2", "Deployment/etl/queue-consumer"]
    return dict(id="batch-tier-node-pool", title="tier=batch pods pinned to the batch node pool", requirement=req,
                classes=["kyverno", "kubectl-opa", "opa-static"],
                notes="CronJob without nodeSelector; Job pinned to general; Deployment with 'Batch' (case). Near "
                      "misses: tier=web; a Deployment whose own label is tier=batch but whose pods are "
                      "tier=control; extra nodeSelector keys."), env, bad


@k8s
def pv_local_paths():
    req = ("Node-local PersistentVolumes (hostPath or local volume sources) may only point at directories under "
           "/mnt/disks/ on the node.")

    def env(bad):
        objs = []
        objs.append(pv("pv-ssd-node1", "100Gi", {"local": {"path": "/mnt/disks/ssd0"}}, node="node-1"))
        objs.append(pv("pv-pg-data", "200Gi", {"local": {"path": "/var/lib/postgresql" if bad else "/mnt/disks/pg"}},
                       node="node-2"))
        objs.append(pv("pv-legacy-scratch", "50Gi",
                       {"hostPath": {"path": "/mnt/disks-legacy/scratch" if bad else "/mnt/disks/legacy-scratch",
                                     "type": "DirectoryOrCreate"}}, sc="manual"))
        # near misses
        objs.append(pv("pv-efs-shared", "1Ti", {"csi": {"driver": "efs.csi.aws.com", "volumeHandle": "fs-0a1b2c3d"}},
                       sc="efs"))
        objs.append(pv("pv-nfs-archive", "500Gi", {"nfs": {"server": "10.0.4.20", "path": "/exports/archive"}},
                       sc="nfs"))
        objs.append(pv("pv-block-node3", "400Gi", {"local": {"path": "/mnt/disks/nvme1"}}, node="node-3", mode="Block"))
        if not bad:
            objs.append(namespace("tools"))
            objs += other_violations("tools", "pv")
        return objs

    bad = ["PersistentVolume//pv-pg-data", "PersistentVolume//pv-legacy-scratch"]
    return dict(id="local-pv-approved-paths", title="Local/hostPath PersistentVolumes only under /mnt/disks/",
                requirement=req, classes=["kyverno", "kubectl-opa", "opa-static"],
                notes="pv-pg-data: local /var/lib/postgresql; pv-legacy-scratch: /mnt/disks-legacy/scratch (a naive "
                      "startswith('/mnt/disks') passes it). Near misses: csi, nfs, /mnt/disks/nvme1 block."), env, bad


def publish_not_ready():  # not in the set (kept for reference)
    req = ("Only headless Services (clusterIP: None) may publish endpoints of pods that are not ready; every other "
           "Service must leave spec.publishNotReadyAddresses unset or false.")

    def env(bad):
        objs = [namespace("db"), namespace("shop")]
        objs.append(service("db", "cassandra", [port(9042, "cql")], clusterIP="None", publishNotReadyAddresses=True))
        objs.append(service("db", "cassandra-client", [port(9042, "cql")], publishNotReadyAddresses=bad))
        s = service("shop", "checkout", [port(80, "http", 8080)], stype="NodePort")
        if bad:
            s["spec"]["publishNotReadyAddresses"] = True
        objs.append(s)
        objs.append(service("shop", "catalog", [port(80, "http", 8080)], stype="ClusterIP",
                            publishNotReadyAddresses=False))
        objs.append(service("db", "etcd-peers", [port(2380, "peer")], clusterIP="None",
                            publishNotReadyAddresses=True))
        if not bad:
            objs += other_violations("shop", "pnr")
        return objs

    bad = ["Service/db/cassandra-client", "Service/shop/checkout"]
    return dict(id="publish-not-ready-headless-only", title="publishNotReadyAddresses only on headless Services",
                requirement=req, classes=["kubectl-opa", "opa-static"],
                notes="ClusterIP and NodePort services with publishNotReadyAddresses true. Near misses: two headless "
                      "services with true, an explicit false."), env, bad


@k8s
def lb_source_ranges():
    req = ("Every Service of type LoadBalancer must restrict who can reach it with spec.loadBalancerSourceRanges. "
           "The legacy service.beta.kubernetes.io/load-balancer-source-ranges annotation does not count, and a "
           "range list that contains 0.0.0.0/0 or ::/0 is treated as unrestricted.")

    def env(bad):
        objs = [namespace("edge"), namespace("internal-tools")]
        objs.append(service("edge", "public-api", [port(443, "https", 8443)], stype="LoadBalancer",
                            loadBalancerSourceRanges=["203.0.113.0/24", "198.51.100.0/24"]))
        s = service("edge", "partner-sftp", [port(22, "sftp", 2222)], stype="LoadBalancer",
                    annotations={"service.beta.kubernetes.io/load-balancer-source-ranges": "192.0.2.0/24"})
        if not bad:
            s["spec"]["loadBalancerSourceRanges"] = ["192.0.2.0/24"]
        objs.append(s)
        objs.append(service("edge", "webhooks", [port(443, "https", 8443)], stype="LoadBalancer",
                            loadBalancerSourceRanges=["10.0.0.0/8", "0.0.0.0/0"] if bad else ["10.0.0.0/8"]))
        s2 = service("internal-tools", "grafana-lb", [port(80, "http", 3000)], stype="LoadBalancer",
                     annotations={"service.beta.kubernetes.io/aws-load-balancer-internal": "true"})
        s2["spec"]["loadBalancerSourceRanges"] = ["10.20.0.0/16"] if not bad else []
        if bad:
            del s2["spec"]["loadBalancerSourceRanges"]
        objs.append(s2)
        objs.append(service("edge", "grpc-public", [port(443, "grpc", 50051)], stype="LoadBalancer",
                            ipFamilyPolicy="PreferDualStack",
                            loadBalancerSourceRanges=["198.51.100.0/24", "2001:db8::/32", "::/0"] if bad
                            else ["198.51.100.0/24", "2001:db8::/32"]))
        # near misses: NodePort and ClusterIP services have no ranges
        objs.append(service("internal-tools", "jenkins", [port(8080, "http")], stype="NodePort"))
        objs.append(service("edge", "ingress-admin", [port(10254, "metrics")]))
        if not bad:
            objs += other_violations("internal-tools", "lbsr")
        return objs

    bad = ["Service/edge/partner-sftp", "Service/edge/webhooks", "Service/internal-tools/grafana-lb",
           "Service/edge/grpc-public"]
    return dict(id="loadbalancer-source-ranges", title="LoadBalancer Services restrict source ranges",
                requirement=req, classes=["kyverno", "kubectl-opa", "opa-static"],
                notes="partner-sftp: only the legacy annotation; webhooks: ranges include 0.0.0.0/0; grafana-lb: an "
                      "internal LB with no ranges; grpc-public: dual-stack with ::/0 among its ranges. Near misses: NodePort and ClusterIP services without ranges."), env, bad


@k8s
def limitrange_prod_namespaces():
    req = ("Each namespace labelled env=prod must contain at least one LimitRange object so that containers get "
           "default resource bounds.")

    def env(bad):
        objs = [namespace("prod-orders", {"env": "prod"}), namespace("prod-web", {"env": "prod", "team": "web"}),
                namespace("prod-search", {"env": "prod"}), namespace("qa", {"env": "qa"}),
                namespace("tools")]
        objs.append(limitrange("prod-orders", "container-defaults"))
        objs.append(quota("prod-web", "compute", {"requests.cpu": "20", "limits.memory": "64Gi"}))
        if not bad:
            objs.append(limitrange("prod-web", "defaults", "1", "1Gi"))
            objs.append(limitrange("prod-search", "container-defaults"))
        else:
            # a LimitRange that names prod-search but lives in tools
            objs.append(limitrange("tools", "prod-search-defaults"))
        objs.append(deployment("prod-web", "frontend", podspec([ctr("web", "nginx:1.27")])))
        objs.append(deployment("prod-search", "opensearch", podspec([ctr("os", "opensearchproject/opensearch:2.14.0")])))
        # near miss: qa has no LimitRange and is not prod
        objs.append(deployment("qa", "frontend", podspec([ctr("web", "nginx:1.27")])))
        if not bad:
            objs += other_violations("qa", "lr")
        return objs

    bad = ["Namespace//prod-web", "Namespace//prod-search"]
    return dict(id="prod-namespaces-have-limitrange", title="A LimitRange in every prod namespace",
                requirement=req, classes=["kyverno", "kubectl-opa", "opa-static"],
                notes="prod-web has only a ResourceQuota; prod-search has none (a LimitRange named "
                      "prod-search-defaults sits in namespace tools). Near miss: qa namespace without LimitRange."),\
        env, bad


@k8s
def no_block_volume_mode():
    req = ("Raw block volumes are reserved for the storage team: outside the namespace storage-system, no "
           "PersistentVolumeClaim - including StatefulSet volume claim templates - may request volumeMode Block.")

    def env(bad):
        objs = [namespace("storage-system"), namespace("analytics"), namespace("kafka"),
                namespace("storage-system-e2e", {"purpose": "ci"})]
        objs.append(pvc("storage-system", "ceph-osd-0", "1Ti", "Block", sc="local-nvme"))
        objs.append(pvc("storage-system-e2e", "osd-smoke", "10Gi", "Block" if bad else "Filesystem",
                        sc="local-nvme"))
        objs.append(pvc("analytics", "duckdb-scratch", "200Gi", "Block" if bad else "Filesystem"))
        objs.append(pvc("analytics", "notebooks", "50Gi"))
        vct = [{"metadata": {"name": "data"},
                "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "gp3",
                         "volumeMode": "Block" if bad else "Filesystem",
                         "resources": {"requests": {"storage": "500Gi"}}}}]
        objs.append(statefulset("kafka", "broker", podspec(
            [ctr("kafka", "bitnami/kafka:3.7.0",
                 volumeMounts=[] if bad else [{"name": "data", "mountPath": "/bitnami/kafka"}],
                 **({"volumeDevices": [{"name": "data", "devicePath": "/dev/xvdk"}]} if bad else {}))]), vct=vct))
        if not bad:
            objs += other_violations("analytics", "blk")
        return objs

    bad = ["PersistentVolumeClaim/analytics/duckdb-scratch", "StatefulSet/kafka/broker",
           "PersistentVolumeClaim/storage-system-e2e/osd-smoke"]
    return dict(id="no-raw-block-claims", title="No Block volumeMode claims outside storage-system",
                requirement=req, classes=["kyverno", "kubectl-opa", "opa-static"],
                notes="A PVC with volumeMode Block, a StatefulSet volumeClaimTemplate with Block, and a Block PVC in "
                      "namespace storage-system-e2e (a prefix of the exempt name, not exempt). Near misses: "
                      "Block in storage-system, explicit Filesystem, mode unset."), env, bad


@k8s
def configmap_env_not_optional():
    req = ("Environment variables populated from ConfigMaps must not be optional: neither env[].valueFrom."
           "configMapKeyRef nor envFrom[].configMapRef may set optional: true, in any container or init "
           "container. (Secrets and ConfigMap volumes are out of scope.)")

    def env(bad):
        objs = [namespace("catalog"), namespace("jobs")]
        objs.append(configmap("catalog", "catalog-settings", {"LOG_LEVEL": "info", "CACHE_TTL": "300"}))
        objs.append(deployment("catalog", "catalog-api", podspec([
            ctr("api", "ghcr.io/acme/catalog-api:8.1",
                envFrom=[{"configMapRef": {"name": "catalog-settings"}}]),
            ctr("cache-warmer", "ghcr.io/acme/cache-warmer:1.2",
                envFrom=[{"configMapRef": {"name": "catalog-settings", "optional": bad}}
                         if bad else {"configMapRef": {"name": "catalog-settings"}},
                         {"secretRef": {"name": "warmer-creds", "optional": True}}]),
        ])))
        objs.append(job("jobs", "reindex", podspec(
            [ctr("reindex", "ghcr.io/acme/reindex:3.3")],
            init=[ctr("wait-config", "busybox:1.36", command=["sh", "-c", "test -n \"$TARGET\""],
                      env=[{"name": "TARGET", "valueFrom": {"configMapKeyRef": {
                          "name": "reindex-target", "key": "target", "optional": True if bad else False}}}])])))
        objs.append(configmap("jobs", "reindex-target", {"target": "catalog-v2"}))
        # near misses: optional secretKeyRef, optional configMap volume
        objs.append(deployment("jobs", "runner", podspec(
            [ctr("runner", "ghcr.io/acme/runner:2.0",
                 env=[{"name": "API_TOKEN", "valueFrom": {"secretKeyRef": {"name": "runner", "key": "token",
                                                                            "optional": True}}}],
                 volumeMounts=[{"name": "overrides", "mountPath": "/etc/runner"}])],
            volumes=[{"name": "overrides", "configMap": {"name": "runner-overrides", "optional": True}}])))
        if not bad:
            objs += other_violations("jobs", "cmopt")
        return objs

    bad = ["Deployment/catalog/catalog-api", "Job/jobs/reindex"]
    return dict(id="configmap-env-not-optional", title="ConfigMap-sourced env vars are not optional",
                requirement=req, classes=["kyverno", "kubectl-opa", "opa-static"],
                notes="Second container envFrom configMapRef optional true; init container configMapKeyRef optional "
                      "true. Near misses: optional false, optional secretRef/secretKeyRef, optional configMap "
                      "volume."), env, bad


@k8s
def statefulset_ordered_ready():
    req = ("StatefulSets of the data tier (namespaces carrying the label tier=data) must start and stop their "
           "pods one at a time, in order; parallel pod management is not allowed there.")

    def env(bad):
        objs = [namespace("mongo", {"tier": "data"}), namespace("zookeeper", {"tier": "data"}),
                namespace("cache", {"tier": "app"})]
        objs.append(statefulset("mongo", "mongo-rs0", podspec([ctr("mongod", "mongo:7.0.11")]),
                                extra={"podManagementPolicy": "Parallel" if bad else "OrderedReady"}))
        if not bad:
            old = json.loads(json.dumps(objs[-1]))
            old["spec"]["podManagementPolicy"] = "Parallel"
            objs[-1]["metadata"]["annotations"] = {
                "kubectl.kubernetes.io/last-applied-configuration":
                    json.dumps(old, sort_keys=True, separators=(",", ":")) + "\n"}
        objs.append(statefulset("zookeeper", "zk", podspec([ctr("zk", "zookeeper:3.9.2")]),
                                extra={"podManagementPolicy": "Parallel"} if bad else None))
        # near misses: parallel in a non-data namespace, the default (unset) in a data namespace
        objs.append(statefulset("cache", "memcached", podspec([ctr("memcached", "memcached:1.6.28")]),
                                extra={"podManagementPolicy": "Parallel"}))
        objs.append(statefulset("mongo", "mongo-arbiter", podspec([ctr("mongod", "mongo:7.0.11")])))
        objs.append(deployment("mongo", "mongo-express", podspec([ctr("ui", "mongo-express:1.0.2")])))
        if not bad:
            objs += other_violations("cache", "pmp")
        return objs

    bad = ["StatefulSet/mongo/mongo-rs0", "StatefulSet/zookeeper/zk"]
    return dict(id="data-tier-ordered-statefulsets", title="Data-tier StatefulSets use OrderedReady",
                requirement=req, classes=["kyverno", "opa-static"],
                notes="Requirement is stated by effect (podManagementPolicy not named). Near misses: Parallel in "
                      "namespace cache (tier=app), unset policy (defaults to OrderedReady) in a data namespace; the "
                      "fixed mongo-rs0 in the compliant environment still carries a stale "
                      "last-applied-configuration annotation that says Parallel."),\
        env, bad


# --------------------------------------------------------------------------
# RHEL 9 scenarios: env(bad) -> (files {path: text}, attributes {path: {mode,...}})
# --------------------------------------------------------------------------
RHEL = []


def rhel(fn):
    RHEL.append(fn)
    return fn


BASE_FILES = {
    "etc/os-release": 'NAME="Red Hat Enterprise Linux"\nVERSION="9.4 (Plow)"\nID="rhel"\nVERSION_ID="9.4"\n'
                      'PLATFORM_ID="platform:el9"\nPRETTY_NAME="Red Hat Enterprise Linux 9.4 (Plow)"\n',
    "etc/redhat-release": "Red Hat Enterprise Linux release 9.4 (Plow)\n",
    "etc/hostname": "app01.corp.example\n",
    # other controls, left as found (some non-compliant on purpose)
    "etc/ssh/sshd_config": ("Include /etc/ssh/sshd_config.d/*.conf\nPermitRootLogin yes\nX11Forwarding yes\n"
                            "Subsystem\tsftp\t/usr/libexec/openssh/sftp-server\n"),
    "etc/sysctl.d/99-forwarding.conf": "net.ipv4.ip_forward = 1\n",
    "etc/crypto-policies/config": "DEFAULT:SHA1\n",
    "etc/issue.net": "Red Hat Enterprise Linux 9.4 (Plow)\nKernel \\r on an \\m\n",
}


FSTAB_HEAD = """
#
# /etc/fstab
# Created by anaconda on Tue Feb 13 09:12:44 2024
#
# Accessible filesystems, by reference, are maintained under '/dev/disk/'.
# See man pages fstab(5), findfs(8), mount(8) and/or blkid(8) for more info.
#
# After editing this file, run 'systemctl daemon-reload' to update systemd
# units generated from this file.
#
/dev/mapper/rhel-root   /                       xfs     defaults        0 0
UUID=7b1f3c2e-5d2a-4f0e-9a7c-3e1d2b4c5a6f /boot                   xfs     defaults        0 0
/dev/mapper/rhel-home   /home                   xfs     defaults,nodev  0 0
/dev/mapper/rhel-var    /var                    xfs     defaults,nodev  0 0
/dev/mapper/rhel-swap   none                    swap    defaults        0 0
"""


@rhel
def dev_shm_options():
    req = ("The shared memory filesystem /dev/shm must be mounted with the nodev, nosuid and noexec options, as "
           "configured in /etc/fstab.")

    def env(bad):
        f = dict(BASE_FILES)
        if bad:
            f["etc/fstab"] = FSTAB_HEAD.lstrip("\n") + (
                "# hardening ticket SEC-2291\n"
                "#tmpfs   /dev/shm   tmpfs   defaults,nodev,nosuid,noexec   0 0\n"
                "tmpfs\t/dev/shm\ttmpfs\tdefaults,nodev,nosuid,size=2g\t0 0\n"
                "tmpfs   /tmp       tmpfs   defaults,rw,nosuid,nodev,noexec,relatime   0 0\n")
        else:
            f["etc/fstab"] = FSTAB_HEAD.lstrip("\n") + (
                "#tmpfs   /dev/shm   tmpfs   defaults   0 0\n"
                "tmpfs\t/dev/shm\ttmpfs\tdefaults,size=2g,noexec,nosuid,nodev\t0 0\n"
                "tmpfs   /tmp       tmpfs   defaults,rw,nosuid,nodev   0 0\n")
        return f, {}

    return dict(id="rhel9-dev-shm-noexec", title="/dev/shm mounted nodev,nosuid,noexec", requirement=req,
                violating_resources=["fstab//dev/shm"], cis_id="1.1.2.2.4",
                notes="Violating: the active /dev/shm line lacks noexec; a commented line above has all three. "
                      "Compliant: options in another order with size=, tabs as separators; /tmp there lacks noexec "
                      "(another control)."), env


@rhel
def rsyslog_file_create_mode():
    req = ("rsyslog must create its log files with mode 0640 or more restrictive ($FileCreateMode), and no "
           "configuration file may loosen it.")
    main = """# rsyslog configuration file
# For more information see /usr/share/doc/rsyslog-*/rsyslog_conf.html

#### GLOBAL DIRECTIVES ####
global(workDirectory="/var/lib/rsyslog")
module(load="builtin:omfile" Template="RSYSLOG_TraditionalFileFormat")
include(file="/etc/rsyslog.d/*.conf" mode="optional")

#### MODULES ####
module(load="imuxsock" SysSock.Use="off")
module(load="imjournal" UsePid="system" FileCreateMode="0644" StateFile="imjournal.state")

$FileCreateMode 0640

#### RULES ####
*.info;mail.none;authpriv.none;cron.none                /var/log/messages
authpriv.*                                              /var/log/secure
mail.*                                                  -/var/log/maillog
cron.*                                                  /var/log/cron
*.emerg                                                 :omusrmsg:*
uucp,news.crit                                          /var/log/spooler
local7.*                                                /var/log/boot.log
"""

    def env(bad):
        f = dict(BASE_FILES)
        f["etc/rsyslog.conf"] = main
        if bad:
            f["etc/rsyslog.d/20-haproxy.conf"] = ("# haproxy logs, readable by the log shipper\n"
                                                  "$FileCreateMode   0644\n"
                                                  "local2.*    /var/log/haproxy.log\n")
        else:
            f["etc/rsyslog.d/20-haproxy.conf"] = ("# haproxy logs\n"
                                                  "#$FileCreateMode 0644\n"
                                                  "$FileCreateMode 0600\n"
                                                  "local2.*    /var/log/haproxy.log\n")
        f["etc/rsyslog.d/listen.conf"] = "$SystemLogSocketName /run/systemd/journal/syslog\n"
        return f, {}

    return dict(id="rhel9-rsyslog-file-create-mode", title="rsyslog creates log files 0640 or stricter",
                requirement=req, violating_resources=["rsyslog//$FileCreateMode"], cis_id="6.2.3.4",
                notes="Main file sets 0640 but a drop-in in /etc/rsyslog.d sets 0644 (with extra spaces). The "
                      "imjournal module's FileCreateMode=\"0644\" is the state file's mode, present in both "
                      "environments - not the log files (a near miss). Compliant drop-in has 0600 and a commented "
                      "0644."), env


@rhel
def audit_sudoers_scope():
    req = ("Changes to system administration scope must be audited: auditd rules must watch both /etc/sudoers and "
           "the /etc/sudoers.d directory for writes and attribute changes (-p wa).")

    def env(bad):
        f = dict(BASE_FILES)
        f["etc/audit/auditd.conf"] = ("log_file = /var/log/audit/audit.log\nlog_format = ENRICHED\n"
                                      "max_log_file = 32\nmax_log_file_action = keep_logs\n")
        f["etc/audit/rules.d/audit.rules"] = ("## First rule - delete all\n-D\n\n## Increase the buffers\n-b 8192\n\n"
                                               "## Set failure mode to syslog\n-f 1\n")
        f["etc/audit/rules.d/50-identity.rules"] = ("-w /etc/group -p wa -k identity\n"
                                                     "-w /etc/passwd -p wa -k identity\n"
                                                     "-w /etc/shadow -p wa -k identity\n")
        if bad:
            f["etc/audit/rules.d/50-scope.rules"] = ("-w /etc/sudoers -p wa -k scope\n"
                                                      "#-w /etc/sudoers.d -p wa -k scope\n"
                                                      "-w /etc/sudoers.d -p r -k scope\n")
        else:
            f["etc/audit/rules.d/50-scope.rules"] = "-w  /etc/sudoers   -p wa  -k scope\n"
            f["etc/audit/rules.d/51-scope-dir.rules"] = ("## CIS 6.3.3.1 (second half)\n"
                                                          "-w /etc/sudoers.d\t-p wa -k scope\n"
                                                          "-a always,exit -F arch=b64 -S sethostname,setdomainname "
                                                          "-k system-locale\n")
        f["etc/sudoers"] = "Defaults   !visiblepw\nroot\tALL=(ALL) \tALL\n%wheel\tALL=(ALL)\tALL\n#includedir /etc/sudoers.d\n"
        f["etc/sudoers.d/ops"] = "%ops ALL=(ALL) /usr/bin/systemctl restart httpd\n"
        return f, {"/etc/sudoers": {"mode": "0440"}, "/etc/sudoers.d/ops": {"mode": "0440"}}

    return dict(id="rhel9-audit-sudoers-scope", title="auditd watches /etc/sudoers and /etc/sudoers.d",
                requirement=req, violating_resources=["audit-rules//-w /etc/sudoers.d -p wa"], cis_id="6.3.3.1",
                notes="Violating: /etc/sudoers is watched, /etc/sudoers.d only for reads (-p r), the wa line "
                      "commented. Compliant: the two watches split across two files, with extra spaces and a tab, "
                      "next to an unrelated syscall rule."), env


@rhel
def postfix_loopback():
    req = ("The mail transfer agent must accept mail only from the local host: in /etc/postfix/main.cf, "
           "inet_interfaces must be loopback-only.")
    head = """# Global Postfix configuration file. This file lists only a subset
# of all parameters. For the syntax, and for a complete parameter
# list, see the postconf(5) manual page (command: "man 5 postconf").
compatibility_level = 2
queue_directory = /var/spool/postfix
command_directory = /usr/sbin
daemon_directory = /usr/libexec/postfix
data_directory = /var/lib/postfix
mail_owner = postfix
myhostname = app01.corp.example
mydomain = corp.example
myorigin = $myhostname
"""
    tail = """inet_protocols = all
mydestination = $myhostname, localhost.$mydomain, localhost
unknown_local_recipient_reject_code = 550
alias_maps = hash:/etc/aliases
alias_database = hash:/etc/aliases
smtpd_tls_cert_file = /etc/pki/tls/certs/postfix.pem
smtpd_tls_key_file = /etc/pki/tls/private/postfix.key
smtpd_tls_security_level = may
"""

    def env(bad):
        f = dict(BASE_FILES)
        if bad:
            body = ("#inet_interfaces = all\n#inet_interfaces = $myhostname\n"
                    "inet_interfaces = loopback-only\n" + tail +
                    "\n# relay for the app servers (CHG-4471)\ninet_interfaces = all\n")
        else:
            body = ("#inet_interfaces = all\n#inet_interfaces = $myhostname\n"
                    "inet_interfaces=loopback-only\n" + tail +
                    "\n# relay for the app servers (CHG-4471) - reverted\n#inet_interfaces = all\n")
        f["etc/postfix/main.cf"] = head + body
        f["etc/postfix/master.cf"] = ("smtp      inet  n       -       n       -       -       smtpd\n"
                                      "pickup    unix  n       -       n       60      1       pickup\n")
        return f, {}

    return dict(id="rhel9-postfix-loopback-only", title="postfix listens on loopback only", requirement=req,
                violating_resources=["postfix//inet_interfaces"], cis_id="2.1.21",
                notes="Violating: loopback-only set early, then overridden by a later 'inet_interfaces = all' "
                      "(postfix takes the last). Compliant: 'inet_interfaces=loopback-only' without spaces, the "
                      "later override commented."), env


@rhel
def shadow_permissions():
    req = ("/etc/shadow must not be readable or writable by anyone through its permission bits: mode 0000, "
           "owned by root:root.")

    def env(bad):
        f = dict(BASE_FILES)
        f["etc/shadow"] = ("root:$6$Qm3xL0$abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH:19800:0:99999:7:::\n"
                           "bin:*:19466:0:99999:7:::\n"
                           "daemon:*:19466:0:99999:7:::\n"
                           "ops:$6$h7Yz2$ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210zyxwvu:19810:1:90:7:30::\n")
        f["etc/shadow-"] = f["etc/shadow"]
        f["etc/gshadow"] = "root:::\nbin:::\nwheel:::ops\n"
        f["etc/passwd"] = ("root:x:0:0:root:/root:/bin/bash\nbin:x:1:1:bin:/bin:/sbin/nologin\n"
                           "daemon:x:2:2:daemon:/sbin:/sbin/nologin\nops:x:1000:1000:Ops:/home/ops:/bin/bash\n")
        attrs = {"/etc/passwd": {"mode": "0644"},
                 "/etc/shadow": {"mode": "0640" if bad else "0000"},
                 "/etc/shadow-": {"mode": "0000" if bad else "0644"},
                 "/etc/gshadow": {"mode": "0000"}}
        return f, attrs

    return dict(id="rhel9-shadow-mode", title="/etc/shadow mode 0000", requirement=req,
                violating_resources=["shadow//mode"], cis_id="7.1.5",
                notes="Violating: /etc/shadow is 0640 (the backup /etc/shadow- is 0000). Compliant: /etc/shadow 0000 "
                      "while /etc/shadow- is 0644 (a different control, a near miss by name). Owner/group are "
                      "root:root by intent but may not be settable offline, so only the mode differs."), env


# --------------------------------------------------------------------------
# reference answers (solution/): one Rego per Kubernetes control, used for both
# kubectl-opa (fetcher.sh) and opa-static (fetch.sh); both yield a List.
# --------------------------------------------------------------------------
REGO_PRELUDE = """package check

import rego.v1

default result := true

result := false if count(violations) > 0

ns_labels(n) := l if {
	some o in input.items
	o.kind == "Namespace"
	o.metadata.name == n
	l := object.get(o.metadata, "labels", {})
}

ns_labels(n) := {} if {
	not ns_exists(n)
}

ns_exists(n) if {
	some o in input.items
	o.kind == "Namespace"
	o.metadata.name == n
}

# [object, pod template metadata, pod spec]
pod_templates contains [o, object.get(o, "metadata", {}), o.spec] if {
	some o in input.items
	o.kind == "Pod"
}

pod_templates contains [o, object.get(o.spec.template, "metadata", {}), o.spec.template.spec] if {
	some o in input.items
	o.kind in {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "ReplicationController"}
}

pod_templates contains [o, object.get(o.spec.jobTemplate.spec.template, "metadata", {}), o.spec.jobTemplate.spec.template.spec] if {
	some o in input.items
	o.kind == "CronJob"
}

all_containers(spec) := array.concat(
	array.concat(object.get(spec, "initContainers", []), object.get(spec, "containers", [])),
	object.get(spec, "ephemeralContainers", []),
)

rid(o) := sprintf("%s/%s/%s", [o.kind, object.get(o.metadata, "namespace", ""), o.metadata.name])
"""

FETCH_SH = """#!/bin/sh
# collect every manifest under static-resources/ into one List
set -e
if python3 -c 'import yaml' 2>/dev/null; then
python3 - <<'PY'
import glob, json, os, yaml
items = []
for p in sorted(glob.glob("static-resources/**/*.y*ml", recursive=True)):
    with open(p) as fh:
        for d in yaml.safe_load_all(fh):
            if isinstance(d, dict):
                items.extend(d.get("items", [])) if d.get("kind") == "List" else items.append(d)
json.dump({"apiVersion": "v1", "kind": "List", "items": items}, open("collected_data.json", "w"))
PY
else
yq -s -c '{apiVersion:"v1",kind:"List",items:[.[]|select(.!=null)]}' $(find static-resources -name '*.y*ml' | sort) > collected_data.json
fi
"""


def fetcher(kinds):
    return "#!/bin/bash\nset -e\nkubectl get " + ",".join(kinds) + " -A -o json > collected_data.json\n"


WORKLOADS = ["pods", "deployments", "statefulsets", "daemonsets", "replicasets", "jobs", "cronjobs"]

K8S_SOLUTIONS = {
    "mesh-service-port-protocol-names": (["namespaces", "services"], """
prefixes := {"http", "http2", "https", "grpc", "grpc-web", "tcp", "tls", "udp", "mongo", "mysql", "redis"}

good(n) if prefixes[n]

good(n) if {
	some p in prefixes
	startswith(n, concat("", [p, "-"]))
	count(n) > count(p) + 1
}

violations contains rid(o) if {
	some o in input.items
	o.kind == "Service"
	ns_labels(o.metadata.namespace)["istio-injection"] == "enabled"
	some p in o.spec.ports
	not good(object.get(p, "name", ""))
}
"""),
    "prod-cpu-limit-request-ratio": (["namespaces"] + WORKLOADS, """
violations contains rid(t[0]) if {
	some t in pod_templates
	ns_labels(t[0].metadata.namespace).env == "prod"
	some c in all_containers(t[2])
	req := units.parse(sprintf("%v", [c.resources.requests.cpu]))
	lim := units.parse(sprintf("%v", [c.resources.limits.cpu]))
	lim > 4 * req
}
"""),
    "no-env-expanded-subpaths": (WORKLOADS, """
violations contains rid(t[0]) if {
	some t in pod_templates
	t[0].metadata.namespace != "kube-system"
	some c in all_containers(t[2])
	some m in object.get(c, "volumeMounts", [])
	object.get(m, "subPathExpr", "") != ""
}
"""),
    "no-downward-api-annotations": (WORKLOADS, """
ann(p) if startswith(p, "metadata.annotations")

violations contains rid(t[0]) if {
	some t in pod_templates
	some v in object.get(t[2], "volumes", [])
	some i in v.downwardAPI.items
	ann(i.fieldRef.fieldPath)
}

violations contains rid(t[0]) if {
	some t in pod_templates
	some v in object.get(t[2], "volumes", [])
	some s in v.projected.sources
	some i in s.downwardAPI.items
	ann(i.fieldRef.fieldPath)
}

violations contains rid(t[0]) if {
	some t in pod_templates
	some c in all_containers(t[2])
	some e in object.get(c, "env", [])
	ann(e.valueFrom.fieldRef.fieldPath)
}
"""),
    "no-poststart-exec-hooks": (WORKLOADS, """
violations contains rid(t[0]) if {
	some t in pod_templates
	some c in all_containers(t[2])
	c.lifecycle.postStart.exec
}
"""),
    "prod-serviceaccount-automount-off": (["namespaces", "serviceaccounts"], """
violations contains rid(o) if {
	some o in input.items
	o.kind == "ServiceAccount"
	ns_labels(o.metadata.namespace).env == "prod"
	object.get(o, "automountServiceAccountToken", null) != false
}
"""),
    "no-bindings-to-all-authenticated": (["rolebindings", "clusterrolebindings"], """
exempt := {"system:basic-user", "system:discovery", "system:public-info-viewer"}

violations contains rid(o) if {
	some o in input.items
	o.kind in {"RoleBinding", "ClusterRoleBinding"}
	some s in object.get(o, "subjects", [])
	s.kind == "Group"
	s.name == "system:authenticated"
	not exempted(o)
}

exempted(o) if {
	o.kind == "ClusterRoleBinding"
	exempt[o.metadata.name]
}
"""),
    "rolebinding-foreign-serviceaccounts": (["rolebindings"], """
violations contains rid(o) if {
	some o in input.items
	o.kind == "RoleBinding"
	some s in object.get(o, "subjects", [])
	s.kind == "ServiceAccount"
	object.get(s, "namespace", o.metadata.namespace) != o.metadata.namespace
}
"""),
    "batch-tier-node-pool": (WORKLOADS, """
violations contains rid(t[0]) if {
	some t in pod_templates
	object.get(object.get(t[1], "labels", {}), "tier", "") == "batch"
	object.get(object.get(t[2], "nodeSelector", {}), "node-pool", "") != "batch"
}
"""),
    "local-pv-approved-paths": (["persistentvolumes"], """
pv_path(o) := o.spec["local"].path

pv_path(o) := o.spec.hostPath.path

violations contains rid(o) if {
	some o in input.items
	o.kind == "PersistentVolume"
	p := pv_path(o)
	not startswith(p, "/mnt/disks/")
}
"""),
    "loadbalancer-source-ranges": (["services"], """
open_ranges := {"0.0.0.0/0", "::/0"}

violations contains rid(o) if {
	some o in input.items
	o.kind == "Service"
	o.spec.type == "LoadBalancer"
	count(object.get(o.spec, "loadBalancerSourceRanges", [])) == 0
}

violations contains rid(o) if {
	some o in input.items
	o.kind == "Service"
	o.spec.type == "LoadBalancer"
	some r in o.spec.loadBalancerSourceRanges
	open_ranges[trim_space(r)]
}
"""),
    "prod-namespaces-have-limitrange": (["namespaces", "limitranges"], """
violations contains rid(o) if {
	some o in input.items
	o.kind == "Namespace"
	object.get(object.get(o.metadata, "labels", {}), "env", "") == "prod"
	not has_lr(o.metadata.name)
}

has_lr(n) if {
	some l in input.items
	l.kind == "LimitRange"
	l.metadata.namespace == n
}
"""),
    "no-raw-block-claims": (["persistentvolumeclaims", "statefulsets"], """
violations contains rid(o) if {
	some o in input.items
	o.kind == "PersistentVolumeClaim"
	o.metadata.namespace != "storage-system"
	o.spec.volumeMode == "Block"
}

violations contains rid(o) if {
	some o in input.items
	o.kind == "StatefulSet"
	o.metadata.namespace != "storage-system"
	some v in o.spec.volumeClaimTemplates
	v.spec.volumeMode == "Block"
}
"""),
    "configmap-env-not-optional": (WORKLOADS, """
violations contains rid(t[0]) if {
	some t in pod_templates
	some c in all_containers(t[2])
	some e in object.get(c, "env", [])
	e.valueFrom.configMapKeyRef.optional == true
}

violations contains rid(t[0]) if {
	some t in pod_templates
	some c in all_containers(t[2])
	some e in object.get(c, "envFrom", [])
	e.configMapRef.optional == true
}
"""),
    "data-tier-ordered-statefulsets": (["namespaces", "statefulsets"], """
violations contains rid(o) if {
	some o in input.items
	o.kind == "StatefulSet"
	ns_labels(o.metadata.namespace).tier == "data"
	o.spec.podManagementPolicy == "Parallel"
}
"""),
}


# Kyverno reference policies
TEMPLATES = [  # (kinds, pod spec path, pod template metadata path)
    (["Pod"], "request.object.spec", "request.object.metadata"),
    (["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job"], "request.object.spec.template.spec",
     "request.object.spec.template.metadata"),
    (["CronJob"], "request.object.spec.jobTemplate.spec.template.spec",
     "request.object.spec.jobTemplate.spec.template.metadata"),
]
CONTAINERS = "{S}.[initContainers, containers][]"


def cpolicy(name, rules, message):
    for r in rules:
        r.setdefault("validate", {})
        r["validate"] = dict({"message": message}, **r["validate"])
    return {"apiVersion": "kyverno.io/v1", "kind": "ClusterPolicy",
            "metadata": {"name": name, "annotations": {"pod-policies.kyverno.io/autogen-controllers": "none"}},
            "spec": {"validationFailureAction": "Audit", "background": True, "rules": rules}}


def match(kinds, ns_labels=None, names=None):
    r = {"kinds": list(kinds)}
    if ns_labels:
        r["namespaceSelector"] = {"matchLabels": dict(ns_labels)}
    if names:
        r["names"] = list(names)
    return {"any": [{"resources": r}]}


def workload_rules(prefix, fn, ns_labels=None):
    """fn(spec_path, meta_path) -> rule body (validate / preconditions)."""
    rules = []
    for i, (kinds, spath, mpath) in enumerate(TEMPLATES):
        body = fn(spath, mpath)
        rule = {"name": f"{prefix}-{['pods', 'controllers', 'cronjobs'][i]}", "match": match(kinds, ns_labels)}
        rule.update(body)
        rules.append(rule)
    return rules


def deny_any(*conds):
    return {"validate": {"deny": {"conditions": {"any": list(conds)}}}}


def gt0(expr):
    return {"key": "{{ length(" + expr + " || `[]`) }}", "operator": "GreaterThan", "value": 0}


def ann_gt0(expr):
    return {"key": "{{ (" + expr + " || `[]`) | [?starts_with(@, 'metadata.annotations')] | length(@) }}",
            "operator": "GreaterThan", "value": 0}


KYVERNO_SOLUTIONS = {
    "mesh-service-port-protocol-names": cpolicy("mesh-port-names", [{
        "name": "port-protocol-prefix", "match": match(["Service"], {"istio-injection": "enabled"}),
        "validate": {"foreach": [{"list": "request.object.spec.ports", "deny": {"conditions": {"any": [{
            "key": "{{ regex_match('^(http|http2|https|grpc|grpc-web|tcp|tls|udp|mongo|mysql|redis)(-.+)?$', "
                   "element.name || '') }}",
            "operator": "Equals", "value": False}]}}}]}}],
        "Service ports in mesh namespaces must be named <protocol>[-suffix]."),
    "prod-cpu-limit-request-ratio": cpolicy("cpu-limit-ratio", workload_rules(
        "ratio", lambda S, M: {"validate": {"foreach": [{
            "list": CONTAINERS.format(S=S),
            "preconditions": {"all": [
                {"key": "{{ element.resources.requests.cpu || '' }}", "operator": "NotEquals", "value": ""},
                {"key": "{{ element.resources.limits.cpu || '' }}", "operator": "NotEquals", "value": ""}]},
            "deny": {"conditions": {"any": [{
                "key": "{{ divide(element.resources.limits.cpu, element.resources.requests.cpu) }}",
                "operator": "GreaterThan", "value": 4}]}}}]}}, {"env": "prod"}),
        "CPU limit must be at most 4x the CPU request."),
    "no-env-expanded-subpaths": cpolicy("no-subpathexpr", workload_rules(
        "subpathexpr", lambda S, M: {
            "exclude": {"any": [{"resources": {"namespaces": ["kube-system"]}}]},
            **deny_any(gt0(CONTAINERS.format(S=S) + ".volumeMounts[].subPathExpr"))}),
        "subPathExpr is not allowed."),
    "no-downward-api-annotations": cpolicy("no-downward-annotations", workload_rules(
        "annotations", lambda S, M: deny_any(
            ann_gt0(S + ".volumes[].downwardAPI.items[].fieldRef.fieldPath"),
            ann_gt0(S + ".volumes[].projected.sources[].downwardAPI.items[].fieldRef.fieldPath"),
            ann_gt0(CONTAINERS.format(S=S) + ".env[].valueFrom.fieldRef.fieldPath"))),
        "Pod annotations must not be exposed through the downward API."),
    "no-poststart-exec-hooks": cpolicy("no-poststart-exec", workload_rules(
        "poststart", lambda S, M: deny_any(gt0(CONTAINERS.format(S=S) + ".lifecycle.postStart.exec"))),
        "postStart exec hooks are not allowed."),
    "prod-serviceaccount-automount-off": cpolicy("prod-sa-automount", [{
        "name": "sa-automount-false", "match": match(["ServiceAccount"], {"env": "prod"}),
        "validate": {"pattern": {"automountServiceAccountToken": False}}}],
        "ServiceAccounts in prod must set automountServiceAccountToken: false."),
    "no-bindings-to-all-authenticated": cpolicy("no-authenticated-group", [
        {"name": "clusterrolebindings", "match": match(["ClusterRoleBinding"]),
         "exclude": {"any": [{"resources": {"names": ["system:basic-user", "system:discovery",
                                                       "system:public-info-viewer"]}}]},
         **deny_any(gt0("request.object.subjects[?kind=='Group' && name=='system:authenticated']"))},
        {"name": "rolebindings", "match": match(["RoleBinding"]),
         **deny_any(gt0("request.object.subjects[?kind=='Group' && name=='system:authenticated']"))}],
        "Do not bind roles to system:authenticated."),
    "rolebinding-foreign-serviceaccounts": cpolicy("rolebinding-local-sa", [{
        "name": "same-namespace-sa", "match": match(["RoleBinding"]),
        "validate": {"foreach": [{
            "list": "request.object.subjects[?kind=='ServiceAccount']",
            "deny": {"conditions": {"any": [{
                "key": "{{ element.namespace || request.object.metadata.namespace }}",
                "operator": "NotEquals", "value": "{{ request.object.metadata.namespace }}"}]}}}]}}],
        "RoleBindings may only name ServiceAccounts of their own namespace."),
    "batch-tier-node-pool": cpolicy("batch-node-pool", workload_rules(
        "batch", lambda S, M: {
            "preconditions": {"all": [{"key": "{{ " + M + ".labels.tier || '' }}", "operator": "Equals",
                                       "value": "batch"}]},
            **deny_any({"key": "{{ " + S + ".nodeSelector.\"node-pool\" || '' }}", "operator": "NotEquals",
                        "value": "batch"})}),
        "tier=batch pods need nodeSelector node-pool: batch."),
    "local-pv-approved-paths": cpolicy("local-pv-paths", [{
        "name": "local-hostpath-under-mnt-disks", "match": match(["PersistentVolume"]),
        "validate": {"deny": {"conditions": {"all": [
            {"key": "{{ request.object.spec.local.path || request.object.spec.hostPath.path || '' }}",
             "operator": "NotEquals", "value": ""},
            {"key": "{{ starts_with(request.object.spec.local.path || request.object.spec.hostPath.path || '', "
                    "'/mnt/disks/') }}", "operator": "Equals", "value": False}]}}}}],
        "Local and hostPath PVs must be under /mnt/disks/."),
    "loadbalancer-source-ranges": cpolicy("lb-source-ranges", [{
        "name": "ranges-set", "match": match(["Service"]),
        "preconditions": {"all": [{"key": "{{ request.object.spec.type || '' }}", "operator": "Equals",
                                   "value": "LoadBalancer"}]},
        **deny_any(
            {"key": "{{ length(request.object.spec.loadBalancerSourceRanges || `[]`) }}", "operator": "Equals",
             "value": 0},
            {"key": "{{ request.object.spec.loadBalancerSourceRanges || `[]` }}", "operator": "AnyIn",
             "value": ["0.0.0.0/0", "::/0"]})}],
        "LoadBalancer Services must set restrictive loadBalancerSourceRanges."),
    "prod-namespaces-have-limitrange": cpolicy("prod-limitrange", [{
        "name": "limitrange-present", "match": match(["Namespace"]),
        "preconditions": {"all": [{"key": "{{ request.object.metadata.labels.env || '' }}", "operator": "Equals",
                                   "value": "prod"}]},
        "context": [{"name": "lrcount", "apiCall": {
            "urlPath": "/api/v1/namespaces/{{ request.object.metadata.name }}/limitranges",
            "jmesPath": "items | length(@)"}}],
        **deny_any({"key": "{{ lrcount }}", "operator": "Equals", "value": 0})}],
        "prod namespaces need a LimitRange."),
    "no-raw-block-claims": cpolicy("no-block-claims", [
        {"name": "pvc", "match": match(["PersistentVolumeClaim"]),
         "exclude": {"any": [{"resources": {"namespaces": ["storage-system"]}}]},
         **deny_any({"key": "{{ request.object.spec.volumeMode || 'Filesystem' }}", "operator": "Equals",
                     "value": "Block"})},
        {"name": "statefulset-templates", "match": match(["StatefulSet"]),
         "exclude": {"any": [{"resources": {"namespaces": ["storage-system"]}}]},
         **deny_any(gt0("request.object.spec.volumeClaimTemplates[?spec.volumeMode=='Block']"))}],
        "Block volumeMode only in storage-system."),
    "configmap-env-not-optional": cpolicy("configmap-env-required", workload_rules(
        "cm-optional", lambda S, M: deny_any(
            gt0(CONTAINERS.format(S=S) + ".env[?valueFrom.configMapKeyRef.optional == `true`][]"),
            gt0(CONTAINERS.format(S=S) + ".envFrom[?configMapRef.optional == `true`][]"))),
        "ConfigMap-sourced env must not be optional."),
    "data-tier-ordered-statefulsets": cpolicy("data-tier-ordered", [{
        "name": "ordered-ready", "match": match(["StatefulSet"], {"tier": "data"}),
        **deny_any({"key": "{{ request.object.spec.podManagementPolicy || 'OrderedReady' }}", "operator": "Equals",
                    "value": "Parallel"})}],
        "Data-tier StatefulSets must use OrderedReady."),
}


# RHEL 9 reference answers: one generic collecting playbook, a Rego per control
PLAYBOOK = """- name: Collect configuration for the compliance check
  hosts: rhel9_servers
  gather_facts: false
  vars:
    exact_files: {exact}
    search_dirs: {dirs}
    search_patterns: {patterns}
    stat_files: {stats}
  tasks:
    - name: Find drop-in files
      ansible.builtin.find:
        paths: "{{{{ search_dirs }}}}"
        patterns: "{{{{ search_patterns }}}}"
      register: found
      when: search_dirs | length > 0

    - name: Read files
      ansible.builtin.slurp:
        src: "{{{{ item }}}}"
      loop: "{{{{ (exact_files + ((found.files | default([])) | map(attribute='path') | list)) | unique }}}}"
      register: contents
      failed_when: false

    - name: Stat files
      ansible.builtin.stat:
        path: "{{{{ item }}}}"
      loop: "{{{{ stat_files }}}}"
      register: stats

    - name: Save collected_data.json
      ansible.builtin.copy:
        dest: "{{{{ lookup('env', 'PWD') }}}}/collected_data.json"
        content: "{{{{ {{'files': files_dict, 'modes': modes_dict}} | to_json }}}}"
      delegate_to: localhost
      vars:
        ok_reads: "{{{{ contents.results | selectattr('content', 'defined') | list }}}}"
        files_dict: "{{{{ dict(ok_reads | map(attribute='item') | zip(ok_reads | map(attribute='content') | map('b64decode'))) }}}}"
        modes_dict: "{{{{ dict(stats.results | map(attribute='item') | zip(stats.results | map(attribute='stat.mode', default='missing'))) }}}}"
"""

RHEL_REGO_PRELUDE = """package check

import rego.v1

active_lines(text) := [t |
	some l in split(text, "\\n")
	t := trim_space(l)
	t != ""
	not startswith(t, "#")
]

"""

RHEL_SOLUTIONS = {
    "rhel9-dev-shm-noexec": (["/etc/fstab"], [], [], [], """
shm_opts contains opts if {
	some t in active_lines(input.files["/etc/fstab"])
	f := regex.split(`\\s+`, t)
	f[1] == "/dev/shm"
	opts := split(f[3], ",")
}

default result := false

result if {
	count(shm_opts) > 0
	every o in shm_opts {
		"nodev" in o
		"nosuid" in o
		"noexec" in o
	}
}
"""),
    "rhel9-rsyslog-file-create-mode": (["/etc/rsyslog.conf"], ["/etc/rsyslog.d"], ["*.conf"], [], """
modes contains m if {
	some path, text in input.files
	some t in active_lines(text)
	f := regex.split(`\\s+`, t)
	f[0] == "$FileCreateMode"
	m := f[1]
}

digit(m, i) := to_number(substring(m, count(m) - i, 1))

too_open(m) if bits.and(digit(m, 3), 1) != 0

too_open(m) if bits.and(digit(m, 2), 3) != 0

too_open(m) if digit(m, 1) != 0

default result := false

result if {
	count(modes) > 0
	every m in modes {
		not too_open(m)
	}
}
"""),
    "rhel9-audit-sudoers-scope": ([], ["/etc/audit/rules.d"], ["*.rules"], [], """
rules contains f if {
	some path, text in input.files
	some t in active_lines(text)
	f := regex.split(`\\s+`, t)
}

wa(p) if {
	contains(p, "w")
	contains(p, "a")
}

watched(target) if {
	some f in rules
	f[0] == "-w"
	trim_right(f[1], "/") == target
	some i
	f[i] == "-p"
	wa(f[i + 1])
}

watched(target) if {
	some f in rules
	f[0] == "-a"
	some i, j
	f[i] in {concat("", ["path=", target]), concat("", ["dir=", target])}
	startswith(f[j], "perm=")
	wa(f[j])
}

default result := false

result if {
	watched("/etc/sudoers")
	watched("/etc/sudoers.d")
}
"""),
    "rhel9-postfix-loopback-only": (["/etc/postfix/main.cf"], [], [], [], """
settings := [v |
	some l in split(input.files["/etc/postfix/main.cf"], "\\n")
	m := regex.find_all_string_submatch_n(`^inet_interfaces\\s*=\\s*(.*?)\\s*$`, l, 1)
	count(m) == 1
	v := m[0][1]
]

default result := false

result if {
	count(settings) > 0
	settings[count(settings) - 1] == "loopback-only"
}
"""),
    "rhel9-shadow-mode": ([], [], [], ["/etc/shadow"], """
default result := false

result if input.modes["/etc/shadow"] == "0000"
"""),
}


# --------------------------------------------------------------------------
# writers
# --------------------------------------------------------------------------
def scenario_yaml(d):
    lines = [f"id: {d['id']}"]
    if d.get("cis_id"):
        lines.append(f"cis_id: {json.dumps(d['cis_id'])}")
    lines.append(f"platform: {d['platform']}")
    lines.append(f"title: {json.dumps(d['title'])}")
    lines.append(f"requirement: {json.dumps(d['requirement'])}")
    lines.append("classes: [" + ", ".join(d["classes"]) + "]")
    lines.append("violating_resources:")
    for r in d["violating_resources"]:
        lines.append(f"  - {json.dumps(r)}")
    lines.append(f"notes: {json.dumps(d['notes'])}")
    return "\n".join(lines) + "\n"


def write(path, text, mode=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)


def group_docs(objs):
    """Split objects into files the way an exporter would: one file per kind group."""
    files = {}
    for o in objs:
        k = o["kind"]
        if k in ("Namespace",):
            fn = "00-namespaces.yaml"
        elif k in ("ServiceAccount", "Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding"):
            fn = "10-rbac.yaml"
        elif k in ("PersistentVolume", "PersistentVolumeClaim"):
            fn = "20-storage.yaml"
        elif k in ("Service",):
            fn = "30-services.yaml"
        elif k in ("ConfigMap", "LimitRange", "ResourceQuota"):
            fn = "15-config.yaml"
        else:
            fn = "40-workloads.yaml"
        files.setdefault(fn, []).append(o)
    return files


import hashlib

LAYOUTS = ["by-kind", "export", "single", "per-object", "by-kind", "export", "json", "single", "per-object",
           "export", "by-kind", "single", "export", "per-object", "json"]


def exported(o, salt):
    """What `kubectl get -o yaml` adds: uid, resourceVersion, creationTimestamp, last-applied, status."""
    o = json.loads(json.dumps(o))
    h = hashlib.sha256((salt + ref(o)).encode()).hexdigest()
    m = o["metadata"]
    applied = json.dumps(o, sort_keys=True, separators=(",", ":"))
    ann = dict(m.get("annotations", {}))
    ann.setdefault("kubectl.kubernetes.io/last-applied-configuration", applied + "\n")
    m["annotations"] = ann
    m["creationTimestamp"] = "2026-0%d-%02dT%02d:%02d:%02dZ" % (1 + int(h[0], 16) % 9, 1 + int(h[1:3], 16) % 28,
                                                               int(h[3:5], 16) % 24, int(h[5:7], 16) % 60,
                                                               int(h[7:9], 16) % 60)
    m["resourceVersion"] = str(int(h[9:15], 16))
    m["uid"] = f"{h[16:24]}-{h[24:28]}-4{h[29:32]}-a{h[33:36]}-{h[36:48]}"
    if o["kind"] in ("Deployment", "StatefulSet"):
        o["status"] = {"observedGeneration": 1, "replicas": o["spec"].get("replicas", 1),
                       "readyReplicas": o["spec"].get("replicas", 1)}
    elif o["kind"] == "Namespace":
        o["status"] = {"phase": "Active"}
    elif o["kind"] == "Service" and o["spec"].get("type") == "LoadBalancer":
        o["status"] = {"loadBalancer": {"ingress": [{"hostname": f"a{h[:20]}.elb.eu-west-1.amazonaws.com"}]}}
    return o


def write_env(dirpath, objs, layout, salt):
    if layout == "export":
        objs = [exported(o, salt) for o in objs]
        layout = "by-kind"
    if layout == "by-kind":
        for name, docs in sorted(group_docs(objs).items()):
            write(os.path.join(dirpath, name), dump_all(docs))
    elif layout == "single":
        write(os.path.join(dirpath, "manifests.yaml"), "# exported for the audit\n" + dump_all(objs))
    elif layout == "json":
        write(os.path.join(dirpath, "cluster-dump.yaml"),
              "---\n".join(json.dumps(o, indent=2) + "\n" for o in objs))
    elif layout == "per-object":
        for o in objs:
            m = o["metadata"]
            fn = "-".join(x for x in (o["kind"].lower(), m.get("namespace", ""), m["name"]) if x)
            fn = re.sub(r"[^a-z0-9.-]", "-", fn.lower()) + ".yaml"
            write(os.path.join(dirpath, fn), dump(o))
    else:
        raise ValueError(layout)


def main(out):
    stamp = os.path.join(out, ".ciso-set13-generated")
    if os.path.exists(out) and os.listdir(out):
        if not os.path.exists(stamp):
            sys.exit(f"refusing to overwrite {out}: not empty and not written by this script")
        shutil.rmtree(out)
    os.makedirs(out, exist_ok=True)
    write(stamp, "written by ciso-set13/gen.py\n")
    summary = []
    for fn in K8S:
        d, env, bad = fn()
        d["platform"] = "kubernetes"
        d["violating_resources"] = bad
        vio = env(True)
        com = env(False)
        refs = {ref(o) for o in vio}
        for b in bad:
            assert b in refs, (d["id"], b)
        assert len(refs) == len(vio), (d["id"], "duplicate object")
        assert len({ref(o) for o in com}) == len(com), (d["id"], "duplicate object in compliant")
        base = os.path.join(out, d["id"])
        write(os.path.join(base, "scenario.yaml"), scenario_yaml(d))
        layout = LAYOUTS[len(summary) % len(LAYOUTS)]
        d["layout"] = layout
        for sub, objs in (("violating", vio), ("compliant", com)):
            write_env(os.path.join(base, sub), objs, layout, d["id"])
        kinds, body = K8S_SOLUTIONS[d["id"]]
        write(os.path.join(base, "solution", "policy.rego"), REGO_PRELUDE + body)
        write(os.path.join(base, "solution", "fetcher.sh"), fetcher(kinds))
        write(os.path.join(base, "solution", "kyverno-policy.yaml"), dump(KYVERNO_SOLUTIONS[d["id"]]))
        write(os.path.join(base, "solution", "fetch.sh"), FETCH_SH)
        for sh in ("fetcher.sh", "fetch.sh"):
            os.chmod(os.path.join(base, "solution", sh), 0o755)
        summary.append((d["id"], d["classes"], bad))
    for fn in RHEL:
        d, env = fn()
        d["platform"] = "rhel9"
        d["classes"] = ["rhel9-ansible-opa"]
        base = os.path.join(out, d["id"])
        write(os.path.join(base, "scenario.yaml"), scenario_yaml(d))
        for sub, bad in (("violating", True), ("compliant", False)):
            files, attrs = env(bad)
            for p, text in sorted(files.items()):
                write(os.path.join(base, sub, "host", p), text)
            if attrs:
                write(os.path.join(base, sub, "host-attributes.yaml"), dump(attrs))
        exact, dirs, pats, stats, rego = RHEL_SOLUTIONS[d["id"]]
        write(os.path.join(base, "solution", "playbook.yml"),
              PLAYBOOK.format(exact=json.dumps(exact), dirs=json.dumps(dirs), patterns=json.dumps(pats),
                              stats=json.dumps(stats)))
        write(os.path.join(base, "solution", "policy.rego"), RHEL_REGO_PRELUDE + rego.lstrip("\n"))
        summary.append((d["id"], d["classes"], d["violating_resources"]))
    return summary


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: python gen.py OUT", file=sys.stderr)
        sys.exit(2)
    s = main(sys.argv[1])
    n = sum(len(c) for _, c, _ in s)
    print(f"{len(s)} scenarios, {n} scenario-classes written to {sys.argv[1]}", file=sys.stderr)
