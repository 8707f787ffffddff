#!/usr/bin/env python3
"""ciso-set6 (blind-ciso6): held-out CISO scenarios in the project's user format (docs/ciso/index.md):
14 Kubernetes scenarios (kyverno, kubectl-opa, opa-static) and 6 RHEL 9 ones (rhel9-ansible-opa), on controls
that none of ciso-set2..5 has. Labels are fixed by construction below; every run self-checks
every scenario with my own predicate (PRED for Kubernetes, RPRED for RHEL 9): it must flag exactly
violating_resources in violating/ and nothing in compliant/. The YAML emitter, object helpers and the RHEL 9
sysctl/modprobe readers and file templates are copied from measurement/ciso-set5/gen.py (itself from ciso-set4).
stdlib only, deterministic.   Usage: python3 gen.py OUTDIR"""
import copy
import hashlib
import ipaddress
import json
import os
import re
import sys

K8S = ["kyverno", "kubectl-opa", "opa-static"]


# ------------------------------------------------------------------ YAML emitter (block style)
def scalar(v):
    if v is True: return "true"
    if v is False: return "false"
    if v is None: return "null"
    if isinstance(v, (int, float)): return str(v)
    s = str(v)
    if s == "" or re.search(r"[:#\[\]{},&*!|>'\"%@`]|^[-?\s]|\s$", s) or s.lower() in (
            "true", "false", "yes", "no", "on", "off", "null", "~") or re.match(r"^[0-9.+-eE]+$", s):
        return json.dumps(s)
    return s


def emit(v, ind, out):
    pad = "  " * ind
    if isinstance(v, dict):
        for k, x in v.items():
            kk = scalar(k)
            if isinstance(x, str) and "\n" in x:
                out.append(f"{pad}{kk}: |")
                out.extend(("  " * (ind + 1) + l) if l else "" for l in x.rstrip("\n").split("\n"))
            elif isinstance(x, dict) and x:
                out.append(f"{pad}{kk}:")
                emit(x, ind + 1, out)
            elif isinstance(x, list) and x:
                out.append(f"{pad}{kk}:")
                emit(x, ind + 1, out)
            elif isinstance(x, (dict, list)):
                out.append(f"{pad}{kk}: {'{}' if isinstance(x, dict) else '[]'}")
            else:
                out.append(f"{pad}{kk}: {scalar(x)}")
    else:
        for x in v:
            if isinstance(x, (dict, list)) and x:
                sub = []
                emit(x, ind + 1, sub)
                sub[0] = pad + "- " + sub[0][len(pad) + 2:]
                out.extend(sub)
            elif isinstance(x, (dict, list)):
                out.append(f"{pad}- {'{}' if isinstance(x, dict) else '[]'}")
            else:
                out.append(f"{pad}- {scalar(x)}")


def dump(v):
    out = []
    emit(v, 0, out)
    return "\n".join(out) + "\n"


def docs(objs):
    return "---\n".join(dump(o) for o in objs)


# ------------------------------------------------------------------ objects
def digest(s):
    return "sha256:" + hashlib.sha256(s.encode()).hexdigest()


def img(path, tag, pin=True):
    ref = f"harbor.acme.internal/{path}:{tag}"
    return ref + "@" + digest(ref) if pin else ref


HARD = {"allowPrivilegeEscalation": False, "runAsNonRoot": True, "readOnlyRootFilesystem": True,
        "capabilities": {"drop": ["ALL"]}, "seccompProfile": {"type": "RuntimeDefault"}}
LIM = {"requests": {"cpu": "100m", "memory": "128Mi"}, "limits": {"memory": "256Mi"}}


def sc(**over):
    h = copy.deepcopy(HARD)
    for k, v in over.items():
        if v is None: h.pop(k, None)
        else: h[k] = v
    return h


def ctr(name, image=None, secctx="hard", resources="lim", **kw):
    c = {"name": name, "image": image or img(f"apps/{name}", "1.8.2")}
    if secctx == "hard": c["securityContext"] = sc()
    elif secctx is not None: c["securityContext"] = secctx
    if resources == "lim": c["resources"] = copy.deepcopy(LIM)
    elif resources is not None: c["resources"] = resources
    c.update(kw)
    return c


def podspec(containers, init=None, **kw):
    s = {}
    if init: s["initContainers"] = init
    s["containers"] = containers
    s.update(kw)
    return s


def ns(name, labels=None):
    lab = {"kubernetes.io/metadata.name": name, "pod-security.kubernetes.io/warn": "restricted",
           "pod-security.kubernetes.io/audit": "restricted"}
    if labels is not None:
        lab = {"kubernetes.io/metadata.name": name}
        lab.update(labels)
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": lab}}


def meta(name, namespace=None, labels=None, annotations=None):
    m = {"name": name}
    if namespace: m["namespace"] = namespace
    if labels: m["labels"] = labels
    if annotations: m["annotations"] = annotations
    return m


def wl(kind, namespace, name, spec, tmpl_annotations=None):
    sel = {"app.kubernetes.io/name": name}
    tm = {"labels": dict(sel)}
    if tmpl_annotations: tm["annotations"] = tmpl_annotations
    if kind == "Pod":
        return {"apiVersion": "v1", "kind": "Pod", "metadata": meta(name, namespace, dict(sel), tmpl_annotations), "spec": spec}
    if kind == "CronJob":
        spec = dict(spec, restartPolicy="OnFailure")
        return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": meta(name, namespace),
                "spec": {"schedule": "23 4 * * *", "jobTemplate": {"spec": {"template": {"metadata": tm, "spec": spec}}}}}
    if kind == "Job":
        spec = dict(spec, restartPolicy="Never")
        return {"apiVersion": "batch/v1", "kind": "Job", "metadata": meta(name, namespace),
                "spec": {"backoffLimit": 2, "template": {"metadata": tm, "spec": spec}}}
    body = {"selector": {"matchLabels": sel}, "template": {"metadata": tm, "spec": spec}}
    if kind in ("Deployment", "StatefulSet"): body = dict({"replicas": 2}, **body)
    if kind == "StatefulSet": body["serviceName"] = name
    return {"apiVersion": "apps/v1", "kind": kind, "metadata": meta(name, namespace), "spec": body}


def cm(namespace, name, data):
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta(name, namespace), "data": data}


def svc(namespace, name, typ=None, port=80):
    s = {"selector": {"app.kubernetes.io/name": name}, "ports": [{"name": "http", "port": port, "targetPort": 8080}]}
    if typ: s["type"] = typ
    return {"apiVersion": "v1", "kind": "Service", "metadata": meta(name, namespace), "spec": s}


RBAC = "rbac.authorization.k8s.io"


def role(name, rules, namespace=None, labels=None):
    return {"apiVersion": f"{RBAC}/v1", "kind": "Role" if namespace else "ClusterRole",
            "metadata": meta(name, namespace, labels), "rules": rules}


def rule(groups, resources, verbs, names=None):
    r = {"apiGroups": groups, "resources": resources, "verbs": verbs}
    if names: r["resourceNames"] = names
    return r


def binding(name, role_kind, role_name, subjects, namespace=None):
    return {"apiVersion": f"{RBAC}/v1", "kind": "RoleBinding" if namespace else "ClusterRoleBinding",
            "metadata": meta(name, namespace), "roleRef": {"apiGroup": RBAC, "kind": role_kind, "name": role_name},
            "subjects": subjects}


def group(n): return {"apiGroup": RBAC, "kind": "Group", "name": n}


def rid(o):
    return f"{o['kind']}/{o['metadata'].get('namespace', '')}/{o['metadata']['name']}"


# ------------------------------------------------------------------ predicate helpers (self-check)
def pspec(o):
    k = o["kind"]
    if k == "Pod": return o["spec"], o["metadata"]
    if k == "CronJob":
        t = o["spec"]["jobTemplate"]["spec"]["template"]
        return t["spec"], t.get("metadata", {})
    if k in ("Deployment", "StatefulSet", "DaemonSet", "Job", "ReplicaSet"):
        t = o["spec"]["template"]
        return t["spec"], t.get("metadata", {})
    return None, None


def all_ctrs(sp):
    return sp.get("containers", []) + sp.get("initContainers", []) + sp.get("ephemeralContainers", [])


def workloads(objs):
    for o in objs:
        sp, pm = pspec(o)
        if sp is not None:
            yield o, sp, pm


def ctr_bad(objs, f, skip_ns=()):
    return {rid(o) for o, sp, pm in workloads(objs) if o["metadata"].get("namespace") not in skip_ns
            and any(f(c.get("securityContext") or {}, c, sp, pm) for c in all_ctrs(sp))}


def rules_of(objs, exempt=lambda o: o["metadata"]["name"].startswith("system:")):
    for o in objs:
        if o["kind"] in ("Role", "ClusterRole") and not exempt(o):
            yield o, o.get("rules") or []


def grants(r, groups, resources, verbs):
    return bool(set(r.get("apiGroups", [])) & (set(groups) | {"*"})) and \
        bool(set(r.get("resources", [])) & (set(resources) | {"*"})) and \
        bool(set(r.get("verbs", [])) & (set(verbs) | {"*"}))


# ------------------------------------------------------------------ scenarios
SCEN = []


def scenario(fn):
    SCEN.append(fn)
    return fn


def S(id_, cis, voice, req, v, c, bad, notes, why, platform="kubernetes", classes=None, debatable=None):
    return dict(id=id_, cis=cis, voice=voice, requirement=req, violating=v, compliant=c, bad=bad, notes=notes,
                why=why, platform=platform, classes=classes or K8S, debatable=debatable)


PRED = {}


def svcx(namespace, name, typ=None, ports=None, **extra):
    s = {"selector": {"app.kubernetes.io/name": name},
         "ports": ports or [{"name": "http", "port": 80, "targetPort": 8080}]}
    if typ: s["type"] = typ
    s.update(extra)
    return {"apiVersion": "v1", "kind": "Service", "metadata": meta(name, namespace), "spec": s}


def sa(namespace, name):
    return {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": meta(name, namespace)}


def user(n): return {"apiGroup": RBAC, "kind": "User", "name": n}


def sasub(n, namespace): return {"kind": "ServiceAccount", "name": n, "namespace": namespace}


def secret(namespace, name, typ="Opaque", data=None, annotations=None):
    return {"apiVersion": "v1", "kind": "Secret", "metadata": meta(name, namespace, annotations=annotations),
            "type": typ, "data": data or {}}


def b64(s):
    import base64
    return base64.b64encode(s.encode()).decode()


def netpol(namespace, name, ingress=None, egress=None, selector=None, types=None):
    spec = {"podSelector": selector if selector is not None else {}}
    if types: spec["policyTypes"] = types
    if ingress is not None: spec["ingress"] = ingress
    if egress is not None: spec["egress"] = egress
    return {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": meta(name, namespace), "spec": spec}


def ing(namespace, name, host, cls=None, annotations=None):
    spec = {}
    if cls: spec["ingressClassName"] = cls
    spec["rules"] = [{"host": host, "http": {"paths": [{"path": "/", "pathType": "Prefix", "backend": {
        "service": {"name": name, "port": {"number": 80}}}}]}}]
    spec["tls"] = [{"hosts": [host], "secretName": name + "-tls"}]
    return {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": meta(name, namespace, annotations=annotations),
            "spec": spec}


NONROOT = {"runAsNonRoot": True, "runAsUser": 10001, "runAsGroup": 10001, "seccompProfile": {"type": "RuntimeDefault"}}


def psc(**over):
    p = copy.deepcopy(NONROOT)
    p.update(over)
    return p


# ================================================================== Kubernetes (ciso-set5)


def eph(name, image, **kw):
    e = {"name": name, "image": image, "targetContainerName": kw.pop("target", None) or "app"}
    e.update(kw)
    return e


def tagged(path, tag=None, host="harbor.acme.internal"):
    return f"{host}/{path}" + (f":{tag}" if tag else "")


# ================================================================== Kubernetes (ciso-set6)
def res(cpu_req="100m", mem_req="128Mi", mem_lim="256Mi", cpu_lim=None):
    r = {"requests": {}, "limits": {}}
    if cpu_req is not None: r["requests"]["cpu"] = cpu_req
    if mem_req is not None: r["requests"]["memory"] = mem_req
    if mem_lim is not None: r["limits"]["memory"] = mem_lim
    if cpu_lim is not None: r["limits"]["cpu"] = cpu_lim
    return {k: v for k, v in r.items() if v}


def cpu_zero(q):
    q = str(q).strip()
    if q.endswith("m"): q = q[:-1]
    try:
        return float(q) == 0
    except ValueError:
        return True


# k01 CPU requests --------------------------------------------------------------------------------------
@scenario
def cpu_requests():
    def objs(bad):
        init = ctr("schema", tagged("billing/schema", "4.1"),
                   resources=res(cpu_req=None) if bad else res(cpu_req="50m"))
        rep = ctr("render", tagged("reports/render", "2.0"), resources=res(cpu_req=None, mem_lim="1Gi") if bad else res(cpu_req="250m", mem_lim="1Gi"))
        agent2 = ctr("forwarder", tagged("obs/forwarder", "0.9"), resources=res(cpu_req="0") if bad else res(cpu_req="20m"))
        return [ns("billing"), ns("reports"), ns("obs"),
                wl("Deployment", "billing", "invoicer", podspec([ctr("invoicer", tagged("billing/invoicer", "3.3"))], init=[init])),
                wl("CronJob", "reports", "monthly", podspec([rep])),
                wl("DaemonSet", "obs", "node-agent", podspec([ctr("agent", tagged("obs/agent", "1.2")), agent2])),
                # near misses: a CPU limit without a request (request defaults to the limit); "0.5" cores; a debug container
                wl("StatefulSet", "billing", "ledger", podspec([ctr("ledger", tagged("billing/ledger", "5.0"),
                                                                   resources={"limits": {"cpu": "500m", "memory": "512Mi"}}),
                                                               ctr("backup", tagged("billing/backup", "1.0"), resources=res(cpu_req="0.5"))])),
                wl("Pod", "obs", "agent-debug-x2", podspec([ctr("agent", tagged("obs/agent", "1.2"))],
                                                          ephemeralContainers=[eph("shell", tagged("tools/busybox", "1.36"), target="agent")]))]

    def bad(O):
        def cbad(c):
            r = c.get("resources") or {}
            q = (r.get("requests") or {}).get("cpu")
            if q is None: q = (r.get("limits") or {}).get("cpu")
            return q is None or cpu_zero(q)
        return {rid(o) for o, sp, pm in workloads(O)
                if any(cbad(c) for c in sp.get("containers", []) + sp.get("initContainers", []))}
    PRED["set6-cpu-share"] = bad
    return S("set6-cpu-share", None, "effect",
             "No container may run without a guaranteed share of CPU: the scheduler must reserve a non-zero amount of "
             "CPU for every regular and init container of every pod before placing it. Debug (ephemeral) containers "
             "cannot declare resources and are out of scope. When a container declares a CPU limit but no CPU "
             "request, Kubernetes uses the limit as the request, and that counts as a reservation.",
             objs(True), objs(False), ["Deployment/billing/invoicer", "CronJob/reports/monthly", "DaemonSet/obs/node-agent"],
             "Violating: an init container with only a memory request; a CronJob container with memory request and limit "
             "but no CPU; the second container of a DaemonSet requesting cpu \"0\". Near misses (both): a container with a "
             "CPU limit and no request (the request defaults to the limit), a request of \"0.5\" cores, a bare Pod whose "
             "ephemeral container has no resources (cannot have any).",
             "a regular or init container with no (or a zero) CPU request after defaulting from the limit")


# k02 namespace quotas ----------------------------------------------------------------------------------
def quota(namespace, name, hard):
    return {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": meta(name, namespace), "spec": {"hard": hard}}


@scenario
def ns_quota():
    EX = ("kube-system", "kube-public", "kube-node-lease", "default")

    def objs(bad):
        o = [ns("shop"), ns("search"), ns("ml"), ns("sandbox"), ns("kube-system", {}), ns("default", {})]
        o.append(quota("shop", "compute", {"requests.cpu": "20", "limits.memory": "64Gi", "pods": "200"}))
        o.append(quota("search", "compute", {"requests.cpu": "40", "requests.memory": "96Gi"} if bad else
                       {"requests.cpu": "40", "requests.memory": "96Gi", "limits.memory": "128Gi"}))
        o.append(quota("ml", "compute", {"cpu": "64", "memory": "256Gi"} if bad else {"cpu": "64", "memory": "256Gi", "limits.memory": "300Gi"}))
        # sandbox: its quota lives in the wrong namespace in the violating cluster
        o.append(quota("shop" if bad else "sandbox", "sandbox-compute", {"limits.memory": "8Gi"}))
        # near misses: two quotas in search (one counts objects only); kube-system and default have none
        o.append(quota("search", "objects", {"pods": "100", "services": "20"}))
        o.append({"apiVersion": "v1", "kind": "LimitRange", "metadata": meta("defaults", "ml"),
                  "spec": {"limits": [{"type": "Container", "default": {"memory": "1Gi"}, "defaultRequest": {"memory": "512Mi"}}]}})
        return o

    def bad(O):
        capped = {q["metadata"]["namespace"] for q in O if q["kind"] == "ResourceQuota" and "limits.memory" in q["spec"]["hard"]}
        return {rid(n) for n in O if n["kind"] == "Namespace" and n["metadata"]["name"] not in EX
                and n["metadata"]["name"] not in capped}
    PRED["set6-namespace-memory-quota"] = bad
    return S("set6-namespace-memory-quota", None, "auditor",
             "Audit finding to close: every namespace must carry a resource quota of its own that caps the sum of the "
             "memory limits of all pods in it. A quota that caps only memory requests does not satisfy this (in a "
             "quota, a plain `memory` entry means memory requests), nor does a default set by a limit range. The "
             "namespaces kube-system, kube-public, kube-node-lease and default are out of scope. Report the "
             "namespaces that fall short.",
             objs(True), objs(False), ["Namespace//search", "Namespace//ml", "Namespace//sandbox"],
             "Violating: search's quota caps requests.memory only; ml's quota has cpu/memory (= requests) only; "
             "sandbox's quota object sits in namespace shop. Near misses (both): a second quota in search counting "
             "objects only, a LimitRange with a default memory limit in ml (not a cap), kube-system and default with no "
             "quota (exempt).",
             "a non-exempt namespace without a ResourceQuota whose hard list has limits.memory")


# k03 service links -------------------------------------------------------------------------------------
@scenario
def service_links():
    def objs(bad):
        off = {} if bad else {"enableServiceLinks": False}
        return [ns("crm"), ns("batch"),
                wl("Deployment", "crm", "portal", podspec([ctr("portal", tagged("crm/portal", "8.1"))], **({} if bad else off))),
                wl("CronJob", "batch", "sync", podspec([ctr("sync", tagged("batch/sync", "1.4"))], **({} if bad else off))),
                wl("Pod", "crm", "console-0", podspec([ctr("console", tagged("crm/console", "8.1"))],
                                                      enableServiceLinks=True if bad else False)),
                wl("StatefulSet", "crm", "db", podspec([ctr("db", tagged("crm/postgres", "16.2"),
                                                            env=[{"name": "ENABLE_SERVICE_LINKS", "value": "false"}])],
                                                       enableServiceLinks=False)),
                wl("Job", "batch", "seed", podspec([ctr("seed", tagged("batch/seed", "1.0"))], enableServiceLinks=False,
                                                   automountServiceAccountToken=True))]

    def bad(O):
        return {rid(o) for o, sp, pm in workloads(O) if sp.get("enableServiceLinks", True) is not False}
    PRED["set6-no-service-env"] = bad
    return S("set6-no-service-env", None, "effect",
             "Pods must not learn the addresses of the other services in their namespace from their environment: no "
             "container may start with the variables Kubernetes derives from the namespace's Services (the "
             "Docker-links style *_SERVICE_HOST / *_PORT variables). Kubernetes injects them into every pod unless "
             "the pod turns this off.",
             objs(True), objs(False), ["Deployment/crm/portal", "CronJob/batch/sync", "Pod/crm/console-0"],
             "The pod field enableServiceLinks defaults to true. Violating: unset on a Deployment and on a CronJob "
             "template, explicit true on a bare Pod. Near misses (both): a container env var named ENABLE_SERVICE_LINKS, "
             "a Job mounting its token (another control).",
             "enableServiceLinks not false (default true)")


# k04 system priority classes ---------------------------------------------------------------------------
@scenario
def system_priority():
    SYS = ("system-node-critical", "system-cluster-critical")

    def objs(bad):
        return [ns("monitoring"), ns("ingress"), ns("ops"), ns("kube-system", {}),
                {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "platform-critical"},
                 "value": 1000000, "globalDefault": False, "description": "platform add-ons"},
                wl("DaemonSet", "monitoring", "node-exporter", podspec([ctr("exporter", tagged("monitoring/node-exporter", "1.8"))],
                                                                       priorityClassName="system-node-critical" if bad else "platform-critical")),
                wl("Deployment", "ingress", "controller", podspec([ctr("controller", tagged("ingress/nginx", "1.10"))],
                                                                  priorityClassName="system-cluster-critical" if bad else "platform-critical")),
                wl("CronJob", "ops", "etcd-defrag", podspec([ctr("defrag", tagged("ops/etcdctl", "3.5"))],
                                                            priorityClassName="system-cluster-critical" if bad else "platform-critical")),
                # near misses: kube-system may use them; a label mentioning the class
                wl("DaemonSet", "kube-system", "kube-proxy", podspec([ctr("kube-proxy", tagged("k8s/kube-proxy", "1.30"))],
                                                                     priorityClassName="system-node-critical")),
                cm("ops", "priority-notes", {"policy": "system-node-critical is for kube-system only"})]

    def bad(O):
        return {rid(o) for o, sp, pm in workloads(O) if o["metadata"].get("namespace") != "kube-system"
                and sp.get("priorityClassName") in SYS}
    PRED["set6-system-priority-reserved"] = bad
    return S("set6-system-priority-reserved", None, "operator",
             "The two built-in priority classes system-node-critical and system-cluster-critical can evict anything "
             "else on a node. Only pods in kube-system may use them; find every workload elsewhere that runs with "
             "one of them. Our own platform-critical class is fine anywhere.",
             objs(True), objs(False),
             ["DaemonSet/monitoring/node-exporter", "Deployment/ingress/controller", "CronJob/ops/etcd-defrag"],
             "Violating: system-node-critical on a DaemonSet in monitoring, system-cluster-critical on a Deployment and "
             "a CronJob template. Near misses (both): kube-proxy in kube-system with system-node-critical, the custom "
             "PriorityClass platform-critical, a ConfigMap naming the class.",
             "priorityClassName system-* outside kube-system")


# k05 mount propagation ---------------------------------------------------------------------------------
def vm(name, path, prop=None):
    m = {"name": name, "mountPath": path}
    if prop: m["mountPropagation"] = prop
    return m


# the API server accepts Bidirectional only on privileged containers: both environments keep them privileged
PRIV = {"privileged": True, "capabilities": {"add": ["SYS_ADMIN"]}, "seccompProfile": {"type": "RuntimeDefault"}}


@scenario
def mount_prop():
    def objs(bad):
        csi = podspec([ctr("driver", tagged("storage/csi-driver", "2.3"), volumeMounts=[vm("plugins", "/var/lib/kubelet/plugins", "HostToContainer")]),
                       ctr("mounter", tagged("storage/mounter", "2.3"), secctx=PRIV,
                           volumeMounts=[vm("pods", "/var/lib/kubelet/pods", "Bidirectional" if bad else "HostToContainer")])],
                      volumes=[{"name": "plugins", "emptyDir": {}}, {"name": "pods", "emptyDir": {}}])
        st = podspec([ctr("db", tagged("data/db", "9.1"), volumeMounts=[vm("data", "/data")])],
                     init=[ctr("prep", tagged("data/prep", "1.0"), secctx=PRIV, volumeMounts=[vm("data", "/data", "Bidirectional" if bad else "None")])],
                     volumes=[{"name": "data", "emptyDir": {}}])
        return [ns("storage"), ns("data"),
                wl("DaemonSet", "storage", "csi-node", csi),
                wl("StatefulSet", "data", "warehouse", st),
                wl("Deployment", "data", "api", podspec([ctr("api", tagged("data/api", "2.0"),
                                                             volumeMounts=[vm("cache", "/cache", "None")])],
                                                        volumes=[{"name": "cache", "emptyDir": {}}]),
                   tmpl_annotations={"notes.acme.io/mounts": "mountPropagation: Bidirectional was removed in CHG-881"})]

    def bad(O):
        return {rid(o) for o, sp, pm in workloads(O) if any(m.get("mountPropagation") == "Bidirectional"
                                                           for c in all_ctrs(sp) for m in c.get("volumeMounts") or [])}
    PRED["set6-no-mount-leak-back"] = bad
    return S("set6-no-mount-leak-back", None, "effect",
             "A container must never be able to make a mount it creates appear on the node or in other pods: mounts "
             "may at most flow from the host into the container, never back out. This covers every container of "
             "every pod, init containers included.",
             objs(True), objs(False), ["DaemonSet/storage/csi-node", "StatefulSet/data/warehouse"],
             "The field is volumeMounts[].mountPropagation; Bidirectional propagates container mounts to the host. "
             "Violating: the second container of a CSI DaemonSet, an init container of a StatefulSet. Near misses "
             "(both): HostToContainer and None, a pod-template annotation whose text says Bidirectional; the two "
             "containers are privileged in both environments (the API server requires it for Bidirectional; a "
             "violation of another control, not of this one).",
             "a volumeMount with mountPropagation Bidirectional")


# k06 volume types (PSS Restricted) ---------------------------------------------------------------------
ALLOWED_VOL = {"configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim", "projected", "secret"}


@scenario
def volume_types():
    def objs(bad):
        good_extra = [{"name": "meta", "downwardAPI": {"items": [{"path": "labels", "fieldRef": {"fieldPath": "metadata.labels"}}]}}]
        return [ns("docs"), ns("media"), ns("legacy"),
                {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "media-archive"},
                 "spec": {"capacity": {"storage": "1Ti"}, "accessModes": ["ReadWriteMany"],
                          "nfs": {"server": "filer.acme.internal", "path": "/archive"}}},
                wl("Deployment", "docs", "site", podspec([ctr("site", tagged("docs/site", "1.1"))], volumes=good_extra + [
                    {"name": "content", "gitRepo": {"repository": "https://git.acme.internal/docs.git", "revision": "main"}} if bad else
                    {"name": "content", "emptyDir": {}}])),
                wl("CronJob", "media", "archive", podspec([ctr("archiver", tagged("media/archiver", "0.4"))], volumes=[
                    {"name": "archive", "nfs": {"server": "filer.acme.internal", "path": "/archive"}} if bad else
                    {"name": "archive", "persistentVolumeClaim": {"claimName": "media-archive"}}])),
                wl("StatefulSet", "legacy", "oracle", podspec([ctr("db", tagged("legacy/oracle", "19"))], volumes=[
                    {"name": "cfg", "configMap": {"name": "oracle-cfg"}},
                    {"name": "lun", "iscsi": {"targetPortal": "10.2.0.5:3260", "iqn": "iqn.2001-04.com.acme:lun1", "lun": 0}} if bad else
                    {"name": "lun", "ephemeral": {"volumeClaimTemplate": {"spec": {"accessModes": ["ReadWriteOnce"],
                                                                                 "resources": {"requests": {"storage": "10Gi"}}}}}}])),
                # near misses: inline csi, projected token, secret
                wl("Deployment", "media", "thumbs", podspec([ctr("thumbs", tagged("media/thumbs", "2.2"))], volumes=[
                    {"name": "s3", "csi": {"driver": "s3.csi.acme.io", "volumeAttributes": {"bucket": "thumbs"}}},
                    {"name": "tok", "projected": {"sources": [{"serviceAccountToken": {"path": "token", "audience": "s3", "expirationSeconds": 3600}}]}},
                    {"name": "creds", "secret": {"secretName": "s3-creds"}}]))]

    def bad(O):
        def vbad(v):
            return any(k not in ALLOWED_VOL for k in v if k != "name")
        return {rid(o) for o, sp, pm in workloads(O) if any(vbad(v) for v in sp.get("volumes") or [])}
    PRED["set6-restricted-volume-types"] = bad
    return S("set6-restricted-volume-types", None, "CIS",
             "Pod Security Standards, Restricted profile, \"Volume Types\": in addition to restricting HostPath "
             "volumes, the restricted policy limits usage of non-core volume types to those defined through "
             "PersistentVolumes. Allowed values for a pod's volumes: configMap, csi, downwardAPI, emptyDir, ephemeral, "
             "persistentVolumeClaim, projected, secret. Report every workload whose pods declare any other kind of "
             "volume.",
             objs(True), objs(False), ["Deployment/docs/site", "CronJob/media/archive", "StatefulSet/legacy/oracle"],
             "Violating: a gitRepo volume (Deployment), an inline nfs volume (CronJob template), an iscsi volume as the "
             "second volume of a StatefulSet. Near misses (both): an NFS PersistentVolume consumed through a PVC "
             "(allowed: defined through PersistentVolumes), inline csi, generic ephemeral, projected, downwardAPI.",
             "a pod volume whose type is outside the Restricted allow-list")


# k07 metadata egress -----------------------------------------------------------------------------------
META = ipaddress.ip_address("169.254.169.254")


@scenario
def metadata_egress():
    def objs(bad):
        o = [ns("shop"), ns("etl"), ns("ci"), ns("api")]
        o.append(netpol("shop", "egress-out", egress=[{"to": [{"namespaceSelector": {}}]},
                        {"to": [{"ipBlock": {"cidr": "0.0.0.0/0", "except": ["10.0.0.0/8"] if bad else ["10.0.0.0/8", "169.254.0.0/16"]}}]}],
                        types=["Egress"]))
        o.append(netpol("etl", "dns-and-anything", egress=[{"ports": [{"port": 53, "protocol": "UDP"}]}] if bad else
                        [{"to": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "kube-system"}}}],
                          "ports": [{"port": 53, "protocol": "UDP"}]}], types=["Egress"]))
        o.append(netpol("ci", "cloud-apis", egress=[{"to": [{"ipBlock": {"cidr": "169.254.0.0/16" if bad else "100.64.0.0/10"}}]}],
                        types=["Egress"]))
        # near misses: ingress from anywhere (other control); egress to 169.254.169.0/25 except the metadata address's /25? no: 169.254.170.0/24
        o.append(netpol("api", "ingress-open", ingress=[{}], types=["Ingress"]))
        o.append(netpol("api", "link-local-dns", egress=[{"to": [{"ipBlock": {"cidr": "169.254.170.0/24"}}]},
                                                         {"to": [{"ipBlock": {"cidr": "169.254.0.0/16", "except": ["169.254.169.254/32"]}}]}],
                        types=["Egress"]))
        o.append(netpol("api", "default-deny", egress=[], types=["Egress"]))
        return o

    def allows(peer_list):
        if not peer_list: return True
        for p in peer_list:
            b = p.get("ipBlock")
            if b and META in ipaddress.ip_network(b["cidr"]) and not any(META in ipaddress.ip_network(e) for e in b.get("except", [])):
                return True
        return False

    def bad(O):
        return {rid(o) for o in O if o["kind"] == "NetworkPolicy" and any(allows(r.get("to")) for r in o["spec"].get("egress") or [])}
    PRED["set6-no-metadata-egress"] = bad
    return S("set6-no-metadata-egress", None, "effect",
             "No network policy may open a path from pods to the cloud instance-metadata address 169.254.169.254, on "
             "any port: wherever a policy allows outbound traffic, that address must not be among the destinations "
             "it allows. An outbound rule that names no destination allows every destination. Traffic to other "
             "link-local addresses is not our concern here, nor is inbound traffic.",
             objs(True), objs(False), ["NetworkPolicy/shop/egress-out", "NetworkPolicy/etl/dns-and-anything", "NetworkPolicy/ci/cloud-apis"],
             "Violating: the second egress rule allows 0.0.0.0/0 except only 10.0.0.0/8; an egress rule with ports 53 "
             "and no `to` (all destinations, port 53 included); ipBlock 169.254.0.0/16. Near misses (both): 0.0.0.0/0 "
             "except 169.254.0.0/16; 169.254.0.0/16 except 169.254.169.254/32; 169.254.170.0/24; an open ingress rule "
             "(other control); an empty egress list (deny all).",
             "an egress rule whose destinations include 169.254.169.254 (no `to`, or an ipBlock containing it not excepted)")


# k08 port-forward / attach -----------------------------------------------------------------------------
@scenario
def portforward_attach():
    EXEMPT = ("sre-oncall",)

    def objs(bad):
        return [ns("ml"), ns("shop"),
                role("dev-tunnel", [rule([""], ["pods"], ["get", "list"]),
                                    rule([""], ["pods/portforward"], ["create"] if bad else ["list"])]),
                role("notebook-user", [rule([""], ["pods/*"] if bad else ["pods/log"], ["get"])], namespace="ml"),
                role("ops-all", [rule(["", "apps"], ["*"] if bad else ["deployments", "services"], ["create", "get"])]),
                # near misses
                role("sre-oncall", [rule([""], ["pods/portforward", "pods/attach"], ["create", "get"])]),
                role("shop-debug", [rule([""], ["pods/exec"], ["create"]), rule(["apps"], ["pods/attach"], ["create"]),
                                    rule([""], ["pods/eviction"], ["create"])], namespace="shop"),
                role("system:kube-ops-view", [rule([""], ["pods/portforward"], ["create"])])]

    def bad(O):
        out = set()
        for o, rules in rules_of(O, exempt=lambda o: o["metadata"]["name"].startswith("system:") or o["metadata"]["name"] in EXEMPT):
            for r in rules:
                if set(r.get("apiGroups", [])) & {"", "*"} and set(r.get("verbs", [])) & {"create", "get", "*"} and \
                        set(r.get("resources", [])) & {"pods/portforward", "pods/attach", "pods/*", "*"}:
                    out.add(rid(o))
        return out
    PRED["set6-no-tunnels-into-pods"] = bad
    return S("set6-no-tunnels-into-pods", None, "operator",
             "Apart from the sre-oncall role and the built-in system: roles, no Role or ClusterRole may let someone "
             "forward a local port into a pod or attach to a running container's console. Those go through the "
             "pods/portforward and pods/attach subresources of the core API group, with the verbs create or get; a "
             "wildcard subresource (pods/*) or resource (*) counts. Exec into pods is handled by another control.",
             objs(True), objs(False), ["ClusterRole//dev-tunnel", "Role/ml/notebook-user", "ClusterRole//ops-all"],
             "Violating: create on pods/portforward (second rule); get on pods/* (namespaced Role); create/get on * in "
             "groups '' and apps. Near misses (both): sre-oncall and a system: role (exempt), create on pods/exec "
             "(other control), pods/attach under apiGroup apps (grants nothing), pods/eviction, pods/log, list on "
             "pods/portforward (not create/get).",
             "create/get (or *) on pods/portforward, pods/attach, pods/* or * in the core group, non-exempt role")


# k09 CRD writers ---------------------------------------------------------------------------------------
@scenario
def crd_writers():
    WR = {"create", "update", "patch", "delete", "deletecollection", "*"}
    AX = "apiextensions.k8s.io"

    def objs(bad):
        return [role("operator-installer", [rule([AX], ["customresourcedefinitions"], ["get", "list", "create", "patch"] if bad else ["get", "list", "watch"])]),
                role("ci-deployer", [rule(["apps", AX], ["deployments", "customresourcedefinitions"], ["*"] if bad else ["get"]),
                                     rule(["apps"], ["deployments"], ["*"])]),
                role("argo-sync", [rule(["*"] if bad else ["argoproj.io"], ["*"], ["update"])]),
                # near misses
                role("platform-admins", [rule([AX], ["customresourcedefinitions"], ["*"])]),
                role("crd-viewer", [rule([""], ["customresourcedefinitions"], ["create", "delete"]),
                                    rule([AX], ["customresourcedefinitions/status"], ["get"])]),
                role("system:controller:crd-cleaner", [rule([AX], ["customresourcedefinitions"], ["delete"])])]

    def bad(O):
        out = set()
        for o, rules in rules_of(O, exempt=lambda o: o["metadata"]["name"].startswith("system:") or o["metadata"]["name"] == "platform-admins"):
            for r in rules:
                if grants(r, [AX], ["customresourcedefinitions"], WR):
                    out.add(rid(o))
        return out
    PRED["set6-crd-writers"] = bad
    return S("set6-crd-writers", None, "auditor",
             "Control AC-CRD-1: only the platform-admins ClusterRole and built-in system: roles may create, change or "
             "delete CustomResourceDefinitions (resource customresourcedefinitions of the apiextensions.k8s.io API "
             "group; wildcards for the group, the resource or the verb count). Reading them is allowed. List every "
             "other Role or ClusterRole that grants such a write.",
             objs(True), objs(False), ["ClusterRole//operator-installer", "ClusterRole//ci-deployer", "ClusterRole//argo-sync"],
             "Violating: create/patch on CRDs; verb * on a rule listing apps and apiextensions groups; update on every "
             "resource of every group. Near misses (both): platform-admins and a system: role (exempt), CRDs under the "
             "core group '' (no such resource: grants nothing), get on customresourcedefinitions/status, read-only "
             "verbs, update on every resource of argoproj.io.",
             "a write verb on customresourcedefinitions (via wildcards too) in a non-exempt role")


# k10 events immutable ----------------------------------------------------------------------------------
@scenario
def events_tamper():
    WR = {"update", "patch", "delete", "deletecollection", "*"}

    def objs(bad):
        return [ns("obs"),
                role("event-exporter", [rule(["events.k8s.io"], ["events"], ["get", "list", "watch", "update"] if bad else ["get", "list", "watch"])]),
                role("housekeeping", [rule([""], ["configmaps", "events"], ["deletecollection"] if bad else ["list"]),
                                      rule([""], ["configmaps"], ["delete"])], namespace="obs"),
                role("log-admin", [rule(["*"] if bad else ["logging.acme.io"], ["events", "flows"], ["delete", "get"])]),
                # near misses: apps create events; system: role
                role("app-events", [rule(["", "events.k8s.io"], ["events"], ["create", "get", "list", "watch"])]),
                role("system:event-ttl-controller", [rule([""], ["events"], ["delete"])])]

    def bad(O):
        out = set()
        for o, rules in rules_of(O):
            for r in rules:
                if grants(r, ["", "events.k8s.io"], ["events"], WR):
                    out.add(rid(o))
        return out
    PRED["set6-events-tamperproof"] = bad
    return S("set6-events-tamperproof", None, "effect",
             "The record of what happened in the cluster must not be rewritable by users or applications: nobody "
             "outside the control plane (the built-in system: roles) may change or remove Kubernetes events, whichever "
             "of the two API groups that serve events (the core group and events.k8s.io) is used. Applications may "
             "still emit new events and read them.",
             objs(True), objs(False), ["ClusterRole//event-exporter", "Role/obs/housekeeping", "ClusterRole//log-admin"],
             "Violating: update on events.k8s.io events; deletecollection on core events (rule shared with configmaps); "
             "delete on events in apiGroup *. Near misses (both): create/get/list/watch on events in both groups, a "
             "system: role deleting events, delete on configmaps, delete on events of a CRD group logging.acme.io.",
             "update/patch/delete/deletecollection (or *) on events of '' or events.k8s.io, non-system role")


# k11 cluster DNS ---------------------------------------------------------------------------------------
@scenario
def cluster_dns():
    def objs(bad):
        return [ns("edge"), ns("batch"), ns("data"),
                wl("Deployment", "edge", "resolver-test", podspec([ctr("app", tagged("edge/app", "1.0"))],
                                                                  **({"dnsPolicy": "Default"} if bad else {}))),
                wl("CronJob", "batch", "crawler", podspec([ctr("crawler", tagged("batch/crawler", "3.0"))],
                                                         **({"dnsPolicy": "None", "dnsConfig": {"nameservers": ["8.8.8.8"], "searches": ["svc.cluster.local"]}}
                                                            if bad else {"dnsPolicy": "ClusterFirst"}))),
                wl("StatefulSet", "data", "kafka", podspec([ctr("kafka", tagged("data/kafka", "3.7"))], dnsPolicy="ClusterFirst",
                                                          dnsConfig={"nameservers": ["10.0.0.2"], "options": [{"name": "ndots", "value": "2"}]}
                                                          if bad else {"options": [{"name": "ndots", "value": "2"}]})),
                # near misses: hostNetwork pod with ClusterFirstWithHostNet; ndots only; searches only
                wl("DaemonSet", "edge", "node-probe", podspec([ctr("probe", tagged("edge/probe", "0.3"))], hostNetwork=True,
                                                              dnsPolicy="ClusterFirstWithHostNet",
                                                              dnsConfig={"searches": ["edge.svc.cluster.local"]}))]

    def bad(O):
        return {rid(o) for o, sp, pm in workloads(O)
                if sp.get("dnsPolicy", "ClusterFirst") not in ("ClusterFirst", "ClusterFirstWithHostNet")
                or (sp.get("dnsConfig") or {}).get("nameservers")}
    PRED["set6-cluster-dns-only"] = bad
    return S("set6-cluster-dns-only", None, "operator",
             "Every pod has to resolve names through the cluster DNS service, so that our DNS logging and filtering see "
             "every lookup. Flag any workload whose pods use the node's resolver or a resolver of their own choosing: a "
             "DNS policy other than ClusterFirst (the default when none is set) or ClusterFirstWithHostNet, or any extra "
             "nameserver in the pod's DNS config. Search domains and resolver options are fine. Host networking is "
             "another team's control.",
             objs(True), objs(False), ["Deployment/edge/resolver-test", "CronJob/batch/crawler", "StatefulSet/data/kafka"],
             "Violating: dnsPolicy Default (the node's resolv.conf, not the cluster DNS, despite its name); dnsPolicy "
             "None with nameserver 8.8.8.8 in a CronJob template; ClusterFirst plus an extra nameserver. Near misses "
             "(both): no dnsPolicy (ClusterFirst), ClusterFirstWithHostNet on a hostNetwork DaemonSet, ndots options "
             "and search domains only.",
             "dnsPolicy Default/None or dnsConfig.nameservers")


# k12 projected token audience/expiry -------------------------------------------------------------------
def tokvol(name, audience=None, exp=None, extra=()):
    t = {"path": "token"}
    if audience is not None: t["audience"] = audience
    if exp is not None: t["expirationSeconds"] = exp
    return {"name": name, "projected": {"sources": list(extra) + [{"serviceAccountToken": t}]}}


@scenario
def token_projection():
    CA = {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}}

    def objs(bad):
        return [ns("vault"), ns("ci"), ns("storage"),
                wl("Deployment", "vault", "agent", podspec([ctr("agent", tagged("vault/agent", "1.16"))],
                                                           volumes=[tokvol("vault-token", "vault", 86400 if bad else 3600)])),
                wl("CronJob", "ci", "publisher", podspec([ctr("pub", tagged("ci/publisher", "2.0"))],
                                                        volumes=[tokvol("oidc", None if bad else "sts.acme.internal", 600, extra=[CA])])),
                wl("StatefulSet", "storage", "minio", podspec([ctr("minio", tagged("storage/minio", "2024.5"))],
                                                              volumes=[{"name": "data", "emptyDir": {}},
                                                                       tokvol("s3-token", "minio", 1800),
                                                                       tokvol("peer-token", "minio-peer", 7200 if bad else 1200)])),
                # near misses: expiry left out (default 3600), 3600 exactly, a token file in a Secret volume
                wl("Deployment", "ci", "runner", podspec([ctr("runner", tagged("ci/runner", "16.1"))],
                                                         volumes=[tokvol("cache-token", "cache.acme.internal"),
                                                                  {"name": "legacy", "secret": {"secretName": "runner-token"}}]))]

    def bad(O):
        def tbad(t):
            return not t.get("audience") or t.get("expirationSeconds", 3600) > 3600
        return {rid(o) for o, sp, pm in workloads(O)
                if any(tbad(s["serviceAccountToken"]) for v in sp.get("volumes") or [] for s in (v.get("projected") or {}).get("sources", [])
                       if "serviceAccountToken" in s)}
    PRED["set6-short-lived-audience-tokens"] = bad
    return S("set6-short-lived-audience-tokens", None, "auditor",
             "Finding SA-7: service account tokens that workloads request for themselves through projected volumes "
             "must be valid for at most one hour and must name an explicit audience (a token with no audience is "
             "accepted by the Kubernetes API server itself). When a projected token does not state its lifetime, "
             "Kubernetes issues it for one hour, which is acceptable. The automatically mounted API token is a "
             "separate matter. Which workloads do not comply?",
             objs(True), objs(False), ["Deployment/vault/agent", "CronJob/ci/publisher", "StatefulSet/storage/minio"],
             "Violating: expirationSeconds 86400; no audience on a CronJob token beside a CA configMap source; the "
             "second token volume of a StatefulSet valid 7200 s. Near misses (both): expiration left out (3600 by "
             "default), 1800 and 600, a Secret volume named runner-token.",
             "a projected serviceAccountToken with no audience or expirationSeconds > 3600")


# k13 sandboxed tenants ---------------------------------------------------------------------------------
@scenario
def sandboxed_tenants():
    def objs(bad):
        return [ns("tenant-a", {"tenancy": "external"}), ns("tenant-b", {"tenancy": "external"}),
                ns("partners", {"tenancy": "external-partner"}), ns("internal", {}),
                {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "vendor-x", "labels": {"kubernetes.io/metadata.name": "vendor-x"},
                                                                       "annotations": {"tenancy": "external"}}},
                {"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass", "metadata": {"name": "gvisor"}, "handler": "runsc"},
                wl("Deployment", "tenant-a", "web", podspec([ctr("web", tagged("tenants/web", "1.0"))],
                                                          **({} if bad else {"runtimeClassName": "gvisor"}))),
                wl("CronJob", "tenant-b", "report", podspec([ctr("report", tagged("tenants/report", "1.0"))],
                                                           runtimeClassName="runc" if bad else "gvisor")),
                wl("Pod", "tenant-a", "shell-1", podspec([ctr("shell", tagged("tenants/shell", "1.0"))],
                                                        runtimeClassName="gvisor-debug" if bad else "gvisor")),
                # near misses: namespaces not labelled exactly tenancy=external
                wl("Deployment", "partners", "api", podspec([ctr("api", tagged("partners/api", "2.0"))])),
                wl("Deployment", "internal", "tools", podspec([ctr("tools", tagged("internal/tools", "2.0"))], runtimeClassName="kata")),
                wl("StatefulSet", "vendor-x", "db", podspec([ctr("db", tagged("vendor/db", "1.0"))])),
                wl("DaemonSet", "tenant-b", "log-agent", podspec([ctr("agent", tagged("tenants/log-agent", "1.0"))], runtimeClassName="gvisor"))]

    def bad(O):
        ext = {n["metadata"]["name"] for n in O if n["kind"] == "Namespace" and (n["metadata"].get("labels") or {}).get("tenancy") == "external"}
        return {rid(o) for o, sp, pm in workloads(O) if o["metadata"].get("namespace") in ext and sp.get("runtimeClassName") != "gvisor"}
    PRED["set6-tenant-sandbox"] = bad
    return S("set6-tenant-sandbox", None, "operator",
             "Customer code runs in namespaces labelled tenancy: external (that exact label and value). Every pod "
             "in those namespaces must run under the gVisor sandbox, i.e. request the RuntimeClass named gvisor; no "
             "runtime class means the node's default runc. Other namespaces may use any runtime. Tell me which "
             "workloads in the tenant namespaces are not sandboxed.",
             objs(True), objs(False), ["Deployment/tenant-a/web", "CronJob/tenant-b/report", "Pod/tenant-a/shell-1"],
             "Violating: no runtimeClassName; runc in a CronJob template; gvisor-debug (another class) on a bare Pod. "
             "Near misses (both): a namespace labelled tenancy=external-partner, one with tenancy=external only as an "
             "annotation, an internal namespace using kata, a DaemonSet in tenant-b on gvisor.",
             "a workload in a tenancy=external namespace whose runtimeClassName is not gvisor")


# k14 ExternalName ------------------------------------------------------------------------------------
@scenario
def no_externalname():
    def objs(bad):
        def en(namespace, name, target):
            return {"apiVersion": "v1", "kind": "Service", "metadata": meta(name, namespace),
                    "spec": {"type": "ExternalName", "externalName": target}}
        o = [ns("shop"), ns("legacy"), ns("ops")]
        o.append(en("shop", "payments", "api.payment-provider.example") if bad else svcx("shop", "payments"))
        o.append(en("legacy", "db", "10.40.2.15") if bad else svcx("legacy", "db", ports=[{"name": "pg", "port": 5432}]))
        o.append(en("ops", "metrics", "kube-prometheus.monitoring.svc.cluster.local") if bad else
                 svcx("ops", "metrics", clusterIP="None"))
        # near misses
        o.append(svcx("shop", "storefront", "LoadBalancer",
                      loadBalancerSourceRanges=["10.0.0.0/8"]))
        o[-1]["metadata"]["annotations"] = {"external-dns.alpha.kubernetes.io/hostname": "shop.example.com"}
        o.append(svcx("ops", "grafana", clusterIP="None", ports=[{"name": "http", "port": 3000}]))
        o.append(cm("shop", "payments-endpoint", {"externalName": "api.payment-provider.example"}))
        return o

    def bad(O):
        return {rid(o) for o in O if o["kind"] == "Service" and o["spec"].get("type") == "ExternalName"}
    PRED["set6-no-dns-aliases"] = bad
    return S("set6-no-dns-aliases", None, "effect",
             "No in-cluster service name may silently point somewhere else by DNS: a Service must never answer cluster "
             "DNS lookups with an alias (CNAME) to another host name, inside or outside the cluster. Services that "
             "load-balance to pods, headless Services and load balancers are fine.",
             objs(True), objs(False), ["Service/shop/payments", "Service/legacy/db", "Service/ops/metrics"],
             "These are Services of type ExternalName. Violating: one aliasing an outside API, one with an IP literal "
             "as externalName (still an ExternalName Service), one aliasing another in-cluster Service. Near misses "
             "(both): a LoadBalancer with an external-dns hostname annotation, headless Services, a ConfigMap with an "
             "externalName key. In compliant/ the three ids exist as ordinary Services.",
             "a Service of type ExternalName")
RHEL = ["rhel9-ansible-opa"]
RPRED = {}

SYSCTL_CONF = """# sysctl settings are defined through files in
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
SYSTEMD_50 = """# This file is part of systemd.
#
# See sysctl.d(5) and core(5) for documentation.

# To override settings in this file, create a local file in /etc
# (e.g. /etc/sysctl.d/90-override.conf), and put any assignments
# there.

# System Request functionality of the kernel (SYNC)
kernel.sysrq = 16

# Append the PID to the core filename
kernel.core_uses_pid = 1

# Source route verification
net.ipv4.conf.default.rp_filter = 2
net.ipv4.conf.*.rp_filter = 2
-net.ipv4.conf.all.rp_filter

# Do not accept source routing
net.ipv4.conf.default.accept_source_route = 0
net.ipv4.conf.*.accept_source_route = 0
-net.ipv4.conf.all.accept_source_route

# Promote secondary addresses when the primary address is removed
net.ipv4.conf.default.promote_secondaries = 1
net.ipv4.conf.*.promote_secondaries = 1
-net.ipv4.conf.all.promote_secondaries

# ping(8) without CAP_NET_ADMIN and CAP_NET_RAW
-net.ipv4.ping_group_range = 0 2147483647

# Fair Queue CoDel packet scheduler to fight bufferbloat
-net.core.default_qdisc = fq_codel

# Enable hard and soft link protection
fs.protected_hardlinks = 1
fs.protected_symlinks = 1

# Enable regular file and FIFO protection
fs.protected_regular = 1
fs.protected_fifos = 1
"""
SYSTEMD_50_PID = "# Bump the numeric PID range\nkernel.pid_max = 4194304\n"


def sysctl_effective(t):
    dirs = ["etc/sysctl.d", "run/sysctl.d", "usr/local/lib/sysctl.d", "usr/lib/sysctl.d"]
    seen = {}
    for d in dirs:
        for p in sorted(t):
            if p.startswith(d + "/") and p.endswith(".conf") and "/" not in p[len(d) + 1:]:
                seen.setdefault(p[len(d) + 1:], p)
    val = {}
    for name in sorted(seen):
        for line in t[seen[name]].splitlines():
            line = line.strip()
            if not line or line[0] in "#;" or "=" not in line: continue
            k, v = line.split("=", 1)
            k = k.strip().lstrip("-").replace("/", ".")
            val[k] = v.strip()
    return val


def modprobe_install(t, mod):
    dirs = ["etc/modprobe.d", "run/modprobe.d", "usr/local/lib/modprobe.d", "usr/lib/modprobe.d", "lib/modprobe.d"]
    seen = {}
    for d in dirs:
        for p in sorted(t):
            n = p[len(d) + 1:]
            if p.startswith(d + "/") and n.endswith(".conf") and "/" not in n and not n.startswith("."):
                seen.setdefault(n, p)
    for name in sorted(seen):
        for line in t[seen[name]].splitlines():
            w = line.split()
            if len(w) >= 3 and w[0] == "install" and w[1].replace("-", "_") == mod.replace("-", "_"):
                return " ".join(w[2:])
    return None


MODPROBE_BASE = {
    "etc/modprobe.d/firewalld-sysctls.conf": "install nf_conntrack /usr/sbin/modprobe --ignore-install nf_conntrack $CMDLINE_OPTS && /usr/sbin/sysctl --quiet --pattern 'net[.]netfilter[.]nf_conntrack.*' --system\n",
    "etc/modprobe.d/lockd.conf": "# Set the NFS lock manager grace period. n is measured in seconds.\n#options lockd nlm_grace_period=90\n",
    "usr/lib/modprobe.d/dist-blacklist.conf": "#\n# Listing a module here prevents modprobe from loading it via modalias (only\n# from hotplug, not modprobe using the module name).\n#\n\n# watchdog drivers\nblacklist i8xx_tco\n\n# framebuffer drivers\nblacklist aty128fb\nblacklist atyfb\nblacklist radeonfb\n",
    "usr/lib/modprobe.d/usb-storage-quirks.conf": "# vendor quirk table for USB mass storage enclosures\noptions usb-storage quirks=0x174c:0x55aa:u\n",
}


SYSTEM_AUTH = """# Generated by authselect on Thu Oct  8 09:14:22 2026
# Do not modify this file manually, use authselect instead. Any user changes will be overwritten.
# You can stop authselect from managing your configuration by calling 'authselect opt-out'.
# See authselect(8) for more details.

auth        required                                     pam_env.so
auth        required                                     pam_faillock.so preauth silent
auth        sufficient                                   pam_unix.so {{if not "without-nullok":nullok}}
auth        [default=die]                                pam_faillock.so authfail
auth        required                                     pam_deny.so

account     required                                     pam_faillock.so
account     required                                     pam_unix.so

password    requisite                                    pam_pwquality.so {pwq}
password    sufficient                                   pam_unix.so sha512 shadow use_authtok
password    required                                     pam_deny.so

session     optional                                     pam_keyinit.so revoke
session     required                                     pam_limits.so
-session    optional                                     pam_systemd.so
session     [success=1 default=ignore]                   pam_succeed_if.so service in crond quiet use_uid
session     required                                     pam_unix.so
""".replace('{{if not "without-nullok":nullok}}', "nullok")




# r01 ASLR ---------------------------------------------------------------------------------------------------


def sysbase():
    return {"etc/sysctl.conf": SYSCTL_CONF, "etc/sysctl.d/99-sysctl.conf": SYSCTL_CONF,
            "usr/lib/sysctl.d/50-default.conf": SYSTEMD_50, "usr/lib/sysctl.d/50-pid-max.conf": SYSTEMD_50_PID,
            "usr/lib/sysctl.d/10-default-yama-scope.conf":
                "# When yama is enabled in the kernel it might be used to filter any user\n"
                "# space access which requires PTRACE_MODE_ATTACH like ptrace attach, access\n"
                "# to /proc/PID/{mem,personality,stack,syscall}, and the syscalls\n"
                "# process_vm_readv and process_vm_writev which are used for interprocess\n"
                "# services, communication and introspection (like synchronisation, signaling,\n"
                "# debugging, tracing and profiling) of processes.\n#\n"
                "# Usage of ptrace attach is restricted by normal user permissions. Normal\n"
                "# unprivileged processes cannot interact through ptrace with processes\n"
                "# that they cannot send signals to or processes that are running set-uid or\n# set-gid.\n"
                "kernel.yama.ptrace_scope = 0\n"}


# r01 kernel pointers / dmesg -----------------------------------------------------------------------------
@scenario
def r_kernel_leaks():
    v = sysbase()
    v["etc/sysctl.d/10-cis-kernel.conf"] = "# CIS 1.5 kernel information\nkernel.dmesg_restrict = 1\nkernel.kptr_restrict = 1\n"
    v["usr/lib/sysctl.d/70-perf-tools.conf"] = ("# installed by perf-tools-config: symbol resolution for perf and bpftrace\n"
                                                "kernel/kptr_restrict = 0\nkernel.perf_event_paranoid = 1\n")
    legacy = SYSCTL_CONF + "\n# legacy syslog agent reads the kernel ring buffer as an unprivileged user\nkernel.dmesg_restrict=0\n"
    v["etc/sysctl.conf"] = legacy
    v["etc/sysctl.d/99-sysctl.conf"] = legacy
    c = sysbase()
    c["etc/sysctl.d/10-cis-kernel.conf"] = "# CIS 1.5 kernel information\nkernel.dmesg_restrict = 1\nkernel.kptr_restrict = 2\n"
    c["etc/sysctl.d/70-perf-tools.conf"] = ("# local override of the vendor perf-tools file (CHG-6120)\n"
                                            "kernel.perf_event_paranoid = 2\n")
    c["usr/lib/sysctl.d/70-perf-tools.conf"] = v["usr/lib/sysctl.d/70-perf-tools.conf"]
    cl = SYSCTL_CONF + "\n# legacy syslog agent retired (CHG-6121)\n#kernel.dmesg_restrict=0\n"
    c["etc/sysctl.conf"] = cl
    c["etc/sysctl.d/99-sysctl.conf"] = cl

    def bad(t):
        e = sysctl_effective(t)
        out = set()
        if e.get("kernel.dmesg_restrict", "0") != "1": out.add("sysctl//kernel.dmesg_restrict")
        if e.get("kernel.kptr_restrict", "0") not in ("1", "2"): out.add("sysctl//kernel.kptr_restrict")
        return out
    RPRED["set6-rhel-kernel-info-leaks"] = bad
    return S("set6-rhel-kernel-info-leaks", None, "effect",
             "Unprivileged users on these hosts must not be able to read the kernel's message buffer, and kernel "
             "addresses must never be shown to them (in /proc/kallsyms, /proc/modules and the like they must appear "
             "hidden or zeroed). The kernel allows both unless told otherwise. What counts is the state the host comes "
             "up in after a reboot, from the persistent kernel-parameter configuration.", v, c,
             ["sysctl//kernel.dmesg_restrict", "sysctl//kernel.kptr_restrict"],
             "Settings: kernel.dmesg_restrict = 1, kernel.kptr_restrict = 1 or 2 (kernel defaults 0). systemd-sysctl "
             "order: files by name across /etc, /run, /usr/local/lib, /usr/lib sysctl.d, a same-named /etc file hides "
             "the vendor one, later wins; keys may use / as separator; /etc/sysctl.d/99-sysctl.conf is the "
             "/etc/sysctl.conf link. Violating: 10-cis-kernel.conf sets both, but the vendor 70-perf-tools.conf "
             "sets `kernel/kptr_restrict = 0` (slash form, later name) and /etc/sysctl.conf (read last as 99-sysctl) "
             "sets dmesg_restrict=0 (no spaces). Compliant: an /etc/sysctl.d/70-perf-tools.conf hides the vendor file; "
             "`#kernel.dmesg_restrict=0` is a comment; kptr_restrict 2; perf_event_paranoid is not in scope.",
             "kptr_restrict 0 from a later vendor file (slash key); dmesg_restrict 0 from sysctl.conf read last",
             platform="rhel9", classes=RHEL)


# r02 ptrace scope + hard links ------------------------------------------------------------------------------
@scenario
def r_ptrace_links():
    v = sysbase()
    v["etc/sysctl.d/10-cis-yama.conf"] = "# CIS 1.5.x restrict ptrace\nkernel.yama.ptrace_scope = 1\n"
    v["etc/sysctl.d/50-default.conf"] = ("# local copy of the systemd defaults without the rp_filter lines (CHG-6015)\n" +
                                         SYSTEMD_50.split("# Source route verification")[0] +
                                         "# Enable hard and soft link protection\nfs.protected_symlinks = 1\n\n"
                                         "# Enable regular file and FIFO protection\nfs.protected_regular = 1\nfs.protected_fifos = 1\n")
    c = sysbase()
    c["etc/sysctl.d/60-cis-yama.conf"] = "# CIS 1.5.x restrict ptrace\nkernel.yama.ptrace_scope = 2\n"
    c["etc/sysctl.d/90-debugging.conf.disabled"] = "kernel.yama.ptrace_scope = 0\nfs.protected_hardlinks = 0\n"
    c["etc/sysctl.d/50-default.conf"] = ("# local copy of the systemd defaults without the rp_filter lines (CHG-6015)\n" +
                                         SYSTEMD_50.split("# Source route verification")[0] +
                                         "# Enable hard and soft link protection\nfs.protected_hardlinks = 1\nfs.protected_symlinks = 1\n\n"
                                         "# Enable regular file and FIFO protection\nfs.protected_regular = 1\nfs.protected_fifos = 1\n")

    def bad(t):
        e = sysctl_effective(t)
        out = set()
        if int(e.get("kernel.yama.ptrace_scope", "1")) < 1: out.add("sysctl//kernel.yama.ptrace_scope")
        if e.get("fs.protected_hardlinks", "0") != "1": out.add("sysctl//fs.protected_hardlinks")
        return out
    RPRED["set6-rhel-ptrace-hardlinks"] = bad
    return S("set6-rhel-ptrace-hardlinks", None, "CIS",
             "CIS RHEL 9 benchmark, process hardening: \"Ensure ptrace_scope is restricted\" - "
             "kernel.yama.ptrace_scope must be set to 1 or higher (the kernel's own default is 1, but any persistent "
             "setting replaces it); and \"Ensure hard link protection is enabled\" - fs.protected_hardlinks must be "
             "1 (the kernel's own default is 0). Assess both as they take effect at boot from the sysctl "
             "configuration on the host.", v, c,
             ["sysctl//kernel.yama.ptrace_scope", "sysctl//fs.protected_hardlinks"],
             "systemd-sysctl order as in the other sysctl scenario. Violating: /etc/sysctl.d/10-cis-yama.conf sets 1 "
             "but the vendor /usr/lib/sysctl.d/10-default-yama-scope.conf (elfutils, name sorts later: 'd' > 'c') sets "
             "0; an /etc/sysctl.d/50-default.conf copy hides systemd's 50-default.conf and drops the protected_hardlinks "
             "line (kernel default 0; protected_symlinks is kept). Compliant: 60-cis-yama.conf (2) after the vendor "
             "file; the /etc copy keeps protected_hardlinks; a .conf.disabled file with 0s is not read.",
             "vendor yama file sorted after the CIS file; /etc copy of 50-default.conf lacking protected_hardlinks",
             platform="rhel9", classes=RHEL)


# r03 filesystem modules ------------------------------------------------------------------------------------------
FSMODS = ("cramfs", "squashfs", "udf")


@scenario
def r_fs_modules():
    v = dict(MODPROBE_BASE)
    v["etc/modprobe.d/cis-filesystems.conf"] = ("# CIS 1.1.1 unused filesystems\ninstall cramfs /bin/false\nblacklist cramfs\n"
                                                "blacklist squashfs\ninstall UDF /bin/false\nblacklist udf\n")
    v["etc/modprobe.d/cis-filesystems.conf.rpmsave"] = "install squashfs /bin/false\n"
    c = dict(MODPROBE_BASE)
    c["etc/modprobe.d/cis-filesystems.conf"] = ("# CIS 1.1.1 unused filesystems\ninstall cramfs /bin/false\nblacklist cramfs\n"
                                                "install squashfs /bin/true\nblacklist squashfs\n#install udf /sbin/modprobe --ignore-install udf\n")
    c["usr/lib/modprobe.d/udf.conf"] = "install udf /bin/false\n"
    c["etc/modprobe.d/udf-options.conf"] = "options udf utf8=1\n"

    def bad(t):
        return {"modprobe//" + m for m in FSMODS
                if modprobe_install(t, m) not in ("/bin/false", "/usr/bin/false", "/bin/true", "/usr/bin/true")}
    RPRED["set6-rhel-unused-filesystems"] = bad
    return S("set6-rhel-unused-filesystems", None, "effect",
             "The kernel on these hosts must be unable to mount cramfs, squashfs or UDF file systems: none of the three "
             "modules may be loaded, whether automatically or on explicit request by name. Each must be configured so "
             "that loading it runs a harmless command that loads nothing (/bin/false or /bin/true); a blacklist entry "
             "alone does not stop an explicit request. Only files modprobe actually reads count; module names are "
             "matched exactly as written (a dash and an underscore are the same).", v, c,
             ["modprobe//squashfs", "modprobe//udf"],
             "modprobe reads *.conf in /etc/modprobe.d, /run, /usr/local/lib, /usr/lib and /lib modprobe.d (an /etc "
             "file hides a same-named /usr/lib one). Violating: cramfs fine; squashfs only blacklisted (the install "
             "line is in a .conf.rpmsave file, never read); `install UDF /bin/false` does not match module udf. "
             "Compliant: squashfs -> /bin/true, udf from the vendor /usr/lib/modprobe.d/udf.conf (in force); near "
             "misses: a commented install line, `options udf`, the vendor usb-storage options.",
             "squashfs only blacklisted (install line in .rpmsave); upper-case UDF install line",
             platform="rhel9", classes=RHEL)


# r04 sshd MaxAuthTries / X11Forwarding ----------------------------------------------------------------------
SSHD_MAIN = """#	$OpenBSD: sshd_config,v 1.104 2021/07/02 05:11:21 dtucker Exp $

# This is the sshd server system-wide configuration file.  See
# sshd_config(5) for more information.

# The strategy used for options in the default sshd_config shipped with
# OpenSSH is to specify options with their default value where
# possible, but leave them commented.  Uncommented options override the
# default value.

# To modify the system-wide sshd configuration, create a  *.conf  file under
#  /etc/ssh/sshd_config.d/  which will be automatically included below
Include /etc/ssh/sshd_config.d/*.conf

#Port 22
#AddressFamily any
#ListenAddress 0.0.0.0

#HostKey /etc/ssh/ssh_host_rsa_key
#HostKey /etc/ssh/ssh_host_ecdsa_key
#HostKey /etc/ssh/ssh_host_ed25519_key

# Logging
#SyslogFacility AUTH
#LogLevel INFO

# Authentication:

#LoginGraceTime 2m
PermitRootLogin no
#StrictModes yes
{auth}#MaxSessions 10

#PubkeyAuthentication yes
AuthorizedKeysFile	.ssh/authorized_keys

#AllowAgentForwarding yes
#AllowTcpForwarding yes
#GatewayPorts no
{x11}#X11DisplayOffset 10
#X11UseLocalhost yes
#PermitTTY yes
#PrintMotd yes

# override default of no subsystems
Subsystem	sftp	/usr/libexec/openssh/sftp-server

# Example of overriding settings on a per-user basis
#Match User anoncvs
#	X11Forwarding no
#	AllowTcpForwarding no
#	PermitTTY no
#	ForceCommand cvs server
"""
REDHAT_50 = """# This system is following system-wide crypto policy. The changes to
# crypto properties (Ciphers, MACs, ...) will not have any effect in
# this or following included files. To override some configuration option,
# write it before this block or in the include file with lower number.
Include /etc/crypto-policies/back-ends/opensshserver.config

SyslogFacility AUTHPRIV

ChallengeResponseAuthentication no

GSSAPIAuthentication yes
GSSAPICleanupCredentials no

UsePAM yes

X11Forwarding yes

# It is recommended to use pam_motd in /etc/pam.d/sshd instead of PrintMotd,
# as it is more configurable and versatile than the built-in version.
PrintMotd no
"""


def sshd_effective(t):
    import fnmatch
    val = {}

    def read(path, depth=0):
        for line in t.get(path, "").splitlines():
            w = line.strip().split(None, 1)
            if not w or w[0].startswith("#"): continue
            k = w[0].lower()
            if k == "match": return False
            if k == "include":
                for pat in w[1].split():
                    pat = pat.lstrip("/")
                    for p in sorted(x for x in t if fnmatch.fnmatch(x, pat)):
                        if read(p, depth + 1) is False: return False
                continue
            val.setdefault(k, w[1].strip() if len(w) > 1 else "")
        return True
    read("etc/ssh/sshd_config")
    return val


@scenario
def r_sshd_auth():
    v = {"etc/ssh/sshd_config": SSHD_MAIN.replace("{auth}", "MaxAuthTries 4\n").replace("{x11}", "X11Forwarding no\n"),
         "etc/ssh/sshd_config.d/50-redhat.conf": REDHAT_50,
         "etc/ssh/sshd_config.d/40-jump.conf": "# jump host users come through the bastion with several keys loaded\nmaxauthtries 6\nAllowTcpForwarding yes\n"}
    c = {"etc/ssh/sshd_config": SSHD_MAIN.replace("{auth}", "#MaxAuthTries 6\n").replace("{x11}", "#X11Forwarding no\n"),
         "etc/ssh/sshd_config.d/50-redhat.conf": REDHAT_50,
         "etc/ssh/sshd_config.d/01-cis.conf": "# CIS 5.2 settings, read before the vendor file\nMaxAuthTries 3\nX11Forwarding no\n",
         "etc/ssh/sshd_config.d/40-jump.conf": "# jump host tuning\nAllowTcpForwarding yes\nMaxStartups 10:30:60\n",
         "etc/ssh/sshd_config.d/40-jump.conf.disabled": "MaxAuthTries 10\nX11Forwarding yes\n"}

    def bad(t):
        e = sshd_effective(t)
        out = set()
        if int(e.get("maxauthtries", "6")) > 4: out.add("sshd//MaxAuthTries")
        if e.get("x11forwarding", "no").lower() != "no": out.add("sshd//X11Forwarding")
        return out
    RPRED["set6-rhel-ssh-tries-x11"] = bad
    return S("set6-rhel-ssh-tries-x11", None, "auditor",
             "Audit items for the SSH daemon on these hosts, as the daemon will actually run with its configuration: "
             "at most 4 authentication attempts per connection (the daemon allows 6 when nothing is configured), and "
             "no X11 forwarding (off when nothing is configured). Report each of the two settings that does not meet "
             "this.", v, c, ["sshd//MaxAuthTries", "sshd//X11Forwarding"],
             "sshd keeps the first value it reads; the main file's first line is `Include /etc/ssh/sshd_config.d/*.conf` "
             "(files in name order), so drop-ins beat the main file; keywords are case-insensitive. Violating: the main "
             "file says MaxAuthTries 4 and X11Forwarding no, but 40-jump.conf (`maxauthtries 6`, lower case) and "
             "RHEL's own 50-redhat.conf (`X11Forwarding yes`) are read first. Compliant: 01-cis.conf is read before "
             "both (3, no); near misses: 50-redhat.conf's yes (read later, ignored), `#MaxAuthTries 6`, a "
             ".conf.disabled file (not matched by *.conf), AllowTcpForwarding/MaxStartups (other controls).",
             "drop-ins read before the main file: maxauthtries 6 and the vendor X11Forwarding yes",
             platform="rhel9", classes=RHEL)


# r05 password hashing ---------------------------------------------------------------------------------------------
LOGIN_DEFS = """#
# Please note that the parameters in this configuration file control the
# behavior of the tools from the shadow-utils component. None of these
# tools uses the PAM mechanism, and the utilities that use PAM (such as the
# passwd command) should therefore be configured elsewhere. Refer to
# /etc/pam.d/system-auth for more information.
#

MAIL_DIR	/var/spool/mail

PASS_MAX_DAYS	365
PASS_MIN_DAYS	1
PASS_WARN_AGE	7

UID_MIN                  1000
UID_MAX                 60000
GID_MIN                  1000
GID_MAX                 60000

CREATE_HOME	yes
UMASK		077
USERGROUPS_ENAB yes

# This variable is used by useradd, newusers and chpasswd to hash passwords
{enc}
"""


def loginDefs(t, key):
    val = None
    for line in t.get("etc/login.defs", "").splitlines():
        w = line.split()
        if len(w) >= 2 and w[0] == key: val = w[1]
    return val


HASHES = ("md5", "bigcrypt", "sha256", "sha512", "blowfish", "gost_yescrypt", "yescrypt")


def r_hash_bad(t):
    out = set()
    ld = loginDefs(t, "ENCRYPT_METHOD") or "DES"
    if ld not in ("SHA512", "YESCRYPT"): out.add("login.defs//ENCRYPT_METHOD")
    for f in ("system-auth", "password-auth"):
        for line in t.get("etc/pam.d/" + f, "").splitlines():
            w = line.split()
            if len(w) >= 3 and w[0].lstrip("-") == "password" and "pam_unix.so" in w:
                args = w[w.index("pam_unix.so") + 1:]
                h = [a for a in args if a in HASHES]
                eff = h[-1] if h else ld.lower()
                if eff not in ("sha512", "yescrypt"): out.add("pam_unix//" + f)
    return out


@scenario
def r_hashing():
    sa_ = SYSTEM_AUTH.replace("{pwq}", "local_users_only")
    v = {"etc/login.defs": LOGIN_DEFS.replace("{enc}", "ENCRYPT_METHOD SHA512\n\n# legacy NIS migration (do not change, see INC-4410)\n"
                                                      "ENCRYPT_METHOD MD5\n"),
         "etc/pam.d/system-auth": sa_,
         "etc/pam.d/password-auth": sa_.replace("pam_unix.so sha512 shadow", "pam_unix.so md5 shadow")}
    c = {"etc/login.defs": LOGIN_DEFS.replace("{enc}", "#ENCRYPT_METHOD MD5\nENCRYPT_METHOD YESCRYPT\n"),
         "etc/pam.d/system-auth": sa_,
         "etc/pam.d/password-auth": sa_.replace("pam_unix.so sha512 shadow", "pam_unix.so shadow")
                                       .replace("auth        sufficient                                   pam_unix.so nullok",
                                                "auth        sufficient                                   pam_unix.so nullok md5")}
    RPRED["set6-rhel-strong-password-hashes"] = r_hash_bad
    return S("set6-rhel-strong-password-hashes", None, "effect",
             "Every password stored on these hosts from now on must be hashed with SHA-512 or yescrypt, whichever tool "
             "sets it: the shadow-utils tools (useradd, chpasswd, ...) and passwd through PAM (the password stacks of "
             "system-auth and password-auth). When pam_unix is given no hash method on a password line it uses the "
             "method of /etc/login.defs; when login.defs names none, the tools fall back to DES.", v, c,
             ["login.defs//ENCRYPT_METHOD", "pam_unix//password-auth"],
             "login.defs: the last ENCRYPT_METHOD line is the one in force. Violating: SHA512 then, further down, "
             "`ENCRYPT_METHOD MD5` (a legacy block); password-auth's pam_unix password line says md5 (system-auth "
             "sha512 is fine). Compliant: YESCRYPT after a commented MD5 line; password-auth's pam_unix password line "
             "names no method (inherits YESCRYPT); near miss: `md5` on an auth line of pam_unix (hash options only "
             "matter on password lines).",
             "last ENCRYPT_METHOD line is MD5; pam_unix md5 on password-auth's password line",
             platform="rhel9", classes=RHEL)


# r06 cron / at access -------------------------------------------------------------------------------------------
CRONTAB = "SHELL=/bin/bash\nPATH=/sbin:/bin:/usr/sbin:/usr/bin\nMAILTO=root\n\n# For details see man 4 crontabs\n"


@scenario
def r_cron_at():
    v = {"etc/crontab": CRONTAB, "etc/cron.allow": "root\nbackup\n", "etc/at.deny": "",
         "etc/at.allow.rpmnew": "root\n", "etc/cron.d/0hourly": "01 * * * * root run-parts /etc/cron.hourly\n"}
    c = {"etc/crontab": CRONTAB, "etc/cron.allow": "root\nbackup\n", "etc/cron.deny": "", "etc/at.allow": "root\n",
         "etc/cron.d/0hourly": "01 * * * * root run-parts /etc/cron.hourly\n"}
    va = {"/" + k: {"mode": "0644", "owner": "root", "group": "root"} for k in v}
    va["/etc/cron.allow"] = {"mode": "0640", "owner": "root", "group": "wheel"}
    va["/etc/at.deny"] = {"mode": "0600", "owner": "root", "group": "root"}
    ca = {"/" + k: {"mode": "0644", "owner": "root", "group": "root"} for k in c}
    ca["/etc/cron.allow"] = {"mode": "0600", "owner": "root", "group": "root"}
    ca["/etc/cron.deny"] = {"mode": "0600", "owner": "root", "group": "root"}
    ca["/etc/at.allow"] = {"mode": "0640", "owner": "root", "group": "root"}
    v["host-attributes.yaml"] = dict(sorted(va.items()))
    c["host-attributes.yaml"] = dict(sorted(ca.items()))

    def bad(t):
        attrs = t.get("host-attributes.yaml", {})
        out = set()
        for f in ("etc/cron.allow", "etc/at.allow"):
            a = attrs.get("/" + f, {})
            if f not in t or int(a.get("mode", "0777"), 8) & 0o137 or a.get("owner") != "root" or a.get("group") != "root":
                out.add("file///" + f)
        for f in ("etc/cron.deny", "etc/at.deny"):
            a = attrs.get("/" + f, {})
            if f in t and (int(a.get("mode", "0777"), 8) & 0o137 or a.get("owner") != "root" or a.get("group") != "root"):
                out.add("file///" + f)
        return out
    RPRED["set6-rhel-job-scheduling-access"] = bad
    return S("set6-rhel-job-scheduling-access", None, "effect",
             "Only users the administrators have named may schedule jobs with cron or at: each of the two tools must "
             "be governed by an allow list (/etc/cron.allow and /etc/at.allow; without one the tools fall back to "
             "their deny list and let everyone else in), and no one but root may change those lists or read them "
             "through group or world access: owner root, group root, mode 0640 or stricter. Any deny list that "
             "remains must meet the same ownership and mode.", v, c,
             ["file///etc/cron.allow", "file///etc/at.allow"],
             "Modes and owners come from host-attributes.yaml. Violating: /etc/cron.allow is 0640 but group wheel; "
             "there is no /etc/at.allow (only at.allow.rpmnew, which at ignores; at.deny is fine as a file but gives "
             "no allow list). Compliant: cron.allow 0600, at.allow 0640 (the bound), an empty cron.deny 0600; the "
             "0644 /etc/crontab and cron.d files are another control.",
             "cron.allow group wheel; at.allow missing (only an .rpmnew)",
             platform="rhel9", classes=RHEL)
# ------------------------------------------------------------------ output
def write(out):
    os.makedirs(out, exist_ok=True)
    table = []
    for fn in SCEN:
        s = fn()
        d = os.path.join(out, s["id"])
        os.makedirs(d, exist_ok=True)
        m = {"id": s["id"]}
        if s["cis"]:
            m["cis_id"] = s["cis"]
        m.update({"platform": s["platform"], "requirement": s["requirement"], "classes": s["classes"],
                  "violating_resources": s["bad"], "notes": s["notes"]})
        with open(os.path.join(d, "scenario.yaml"), "w") as f:
            f.write(dump(m))
        for env, content in (("violating", s["violating"]), ("compliant", s["compliant"])):
            e = os.path.join(d, env)
            os.makedirs(e, exist_ok=True)
            if s["platform"] == "kubernetes":
                with open(os.path.join(e, "manifests.yaml"), "w") as f:
                    f.write(docs(content))
            else:
                for path, text in sorted(content.items()):
                    if path == "host-attributes.yaml":
                        with open(os.path.join(e, path), "w") as f:
                            f.write(dump(text))
                        continue
                    p = os.path.join(e, "host", path)
                    os.makedirs(os.path.dirname(p), exist_ok=True)
                    with open(p, "w") as f:
                        f.write(text)
        if s["platform"] == "kubernetes":
            ids = {rid(o) for o in s["violating"]}
            assert not [b for b in s["bad"] if b not in ids], s["id"]
            assert not [b for b in s["bad"] if b not in {rid(o) for o in s["compliant"]}], s["id"]
            got_v, got_c = PRED[s["id"]](s["violating"]), PRED[s["id"]](s["compliant"])
            # leave-one-in cleanliness: an object not listed as violating must be compliant in both environments
        else:
            got_v, got_c = RPRED[s["id"]](s["violating"]), RPRED[s["id"]](s["compliant"])
        assert got_v == set(s["bad"]), (s["id"], sorted(got_v), s["bad"])
        assert not got_c, (s["id"], sorted(got_c))
        table.append({"id": s["id"], "cis": s["cis"], "voice": s["voice"], "platform": s["platform"],
                      "classes": s["classes"], "violating": s["bad"], "why": s["why"], "notes": s["notes"],
                      "debatable": s["debatable"]})
    with open(os.path.join(out, "labels.json"), "w") as f:
        json.dump(table, f, indent=1)
        f.write("\n")
    for t in table:
        print(f"| `{t['id']}` | {t['cis'] or '—'} | {t['voice']} | {', '.join(t['classes'])} | "
              f"{'<br>'.join('`' + v + '`' for v in t['violating'])} | {t['why']}{' (debatable)' if t['debatable'] else ''} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py OUTDIR")
    write(sys.argv[1])
