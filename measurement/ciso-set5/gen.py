#!/usr/bin/env python3
"""ciso-set5 (blind-ciso5): held-out CISO scenarios in the project's user format (docs/ciso/index.md):
14 Kubernetes scenarios (kyverno, kubectl-opa, opa-static) and 6 RHEL 9 ones (rhel9-ansible-opa), on controls
that none of ciso-set2, ciso-set3, ciso-set4 has. Labels are fixed by construction below; every run self-checks
every scenario with my own predicate (PRED for Kubernetes, RPRED for RHEL 9): it must flag exactly
violating_resources in violating/ and nothing in compliant/. The YAML emitter, object helpers and the RHEL 9
sysctl/modprobe readers and file templates are copied from measurement/ciso-set4/gen.py.
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


# k01 image pull policy Always ---------------------------------------------------------------------
def effective_pull(c):
    p = c.get("imagePullPolicy")
    if p: return p
    image = c["image"].split("@")[0]
    last = image.rsplit("/", 1)[-1]
    tag = last.split(":", 1)[1] if ":" in last else "latest"
    if "@" in c["image"] and ":" not in last: tag = ""
    return "Always" if tag == "latest" else "IfNotPresent"


@scenario
def pull_always():
    def objs(bad):
        web_init = ctr("migrate", tagged("web/migrate", "2.1"), **({} if bad else {"imagePullPolicy": "Always"}))
        rep = ctr("report", tagged("batch/report", "5.0.3"), imagePullPolicy="IfNotPresent" if bad else "Always")
        cache2 = ctr("exporter", tagged("data/redis-exporter", "1.58"), imagePullPolicy="Never" if bad else "Always")
        dbg = eph("debugger", tagged("tools/busybox", "1.36"), **({} if bad else {"imagePullPolicy": "Always"}))
        return [ns("web"), ns("batch"), ns("data"),
                wl("Deployment", "web", "frontend", podspec([ctr("frontend", tagged("web/frontend", "3.4.0"), imagePullPolicy="Always")],
                                                            init=[web_init])),
                wl("CronJob", "batch", "report", podspec([rep])),
                wl("StatefulSet", "data", "cache", podspec([ctr("redis", tagged("data/redis", "7.2.4"), imagePullPolicy="Always"), cache2])),
                wl("Pod", "web", "frontend-7d9c4", podspec([ctr("app", tagged("web/frontend", "3.4.0"), imagePullPolicy="Always")],
                                                           ephemeralContainers=[dbg])),
                # near misses: no tag -> Always; :latest -> Always; registry port looks like a tag
                wl("Deployment", "web", "static", podspec([ctr("nginx", tagged("web/static")),
                                                           ctr("sync", tagged("web/sync", "latest"))])),
                wl("Job", "batch", "cleanup", podspec([ctr("tool", "harbor.acme.internal:5000/ops/cleanup")])),
                cm("web", "frontend-build", {"notes": "build pushes with imagePullPolicy: IfNotPresent in dev only"})]

    def bad(O):
        return {rid(o) for o, sp, pm in workloads(O) if any(effective_pull(c) != "Always" for c in all_ctrs(sp))}
    PRED["set5-always-pull"] = bad
    return S("set5-always-pull", None, "operator",
             "A node must never start a container from an image copy it already has cached: the kubelet has to check "
             "with the registry every time any container of any pod starts, init and debug containers included, so "
             "that a pod can only use an image its credentials can still pull. Keep in mind what the kubelet does when "
             "the pull policy is left out: it pulls every time only for images tagged latest or with no tag at all, "
             "otherwise it uses the cached copy.",
             objs(True), objs(False),
             ["Deployment/web/frontend", "CronJob/batch/report", "StatefulSet/data/cache", "Pod/web/frontend-7d9c4"],
             "Violating: an init container with tag 2.1 and no pull policy (defaults to IfNotPresent); IfNotPresent in a "
             "CronJob template; Never on the second container of a StatefulSet; an ephemeral (debug) container with tag "
             "1.36 and no policy. Near misses (both): an image with no tag and one tagged latest, both without policy "
             "(default Always); `harbor.acme.internal:5000/ops/cleanup` (the colon is the registry port, no tag: Always); "
             "a ConfigMap whose text mentions IfNotPresent.",
             "a container whose effective pull policy is not Always (explicit or defaulted from the tag)")


# k02 ephemeral-storage limit ------------------------------------------------------------------------
def lim(eph_lim=True, eph_req=False, req=True):
    r = copy.deepcopy(LIM)
    if eph_lim: r["limits"]["ephemeral-storage"] = "2Gi"
    if eph_req: r["requests"]["ephemeral-storage"] = "1Gi"
    if not req: r.pop("requests")
    return r


@scenario
def eph_storage():
    def objs(bad):
        return [ns("logs"), ns("ml"),
                wl("Deployment", "logs", "collector", podspec([ctr("collector", resources=lim())],
                                                              init=[ctr("setup", resources=lim(eph_lim=not bad))])),
                wl("StatefulSet", "ml", "trainer", podspec([ctr("trainer", resources=lim(eph_lim=not bad, eph_req=True))])),
                wl("Job", "ml", "prep", podspec([ctr("prep", resources=lim()), ctr("uploader", resources=lim(eph_lim=not bad))])),
                # near misses: limit without request (request defaults to the limit); emptyDir with sizeLimit;
                # an ephemeral container (the API gives them no resources)
                wl("Deployment", "logs", "indexer", podspec([ctr("indexer", resources=lim(req=False))],
                                                            volumes=[{"name": "scratch", "emptyDir": {"sizeLimit": "1Gi"}}])),
                wl("Pod", "ml", "notebook-0", podspec([ctr("app", resources=lim())],
                                                      ephemeralContainers=[eph("debug", tagged("tools/busybox", "1.36"))]))]

    def bad(O):
        return {rid(o) for o, sp, pm in workloads(O)
                if any("ephemeral-storage" not in ((c.get("resources") or {}).get("limits") or {})
                       for c in sp.get("containers", []) + sp.get("initContainers", []))}
    PRED["set5-disk-cap"] = bad
    return S("set5-disk-cap", None, "effect",
             "No container may be able to fill a node's local disk with its logs, writable layer or scratch space: "
             "each one must run under a hard cap on the node-local storage it may use, so that the kubelet evicts it "
             "before the node runs out. A request alone is only a scheduling hint and does not cap anything. This "
             "applies to regular and init containers of every workload; ephemeral debug containers cannot be given "
             "resource settings at all and are out of scope.",
             objs(True), objs(False), ["Deployment/logs/collector", "StatefulSet/ml/trainer", "Job/ml/prep"],
             "The cap is resources.limits.ephemeral-storage. Violating: an init container without it; a container "
             "with only requests.ephemeral-storage; the second container of a Job. Near misses (both): a container "
             "with the limit but no requests at all, an emptyDir with sizeLimit (the container still has its limit), "
             "an ephemeral container without resources.",
             "a regular or init container without limits.ephemeral-storage")


# k03 LoadBalancer source ranges ---------------------------------------------------------------------
CORP = [ipaddress.ip_network("10.0.0.0/8"), ipaddress.ip_network("172.16.0.0/12")]
LBANN = "service.beta.kubernetes.io/load-balancer-source-ranges"


def lb(namespace, name, ranges=None, ann=None, typ="LoadBalancer"):
    s = svcx(namespace, name, typ, [{"name": "https", "port": 443, "targetPort": 8443}])
    if ranges is not None: s["spec"]["loadBalancerSourceRanges"] = ranges
    if ann is not None: s["metadata"]["annotations"] = {LBANN: ann}
    return s


@scenario
def lb_ranges():
    def objs(bad):
        return [ns("shop"), ns("api"), ns("ops"), ns("data"),
                lb("shop", "storefront-lb", None if bad else ["10.20.0.0/16"]),
                lb("api", "partner-gw", ["10.0.0.0/8", "0.0.0.0/0"] if bad else ["10.0.0.0/8"]),
                lb("ops", "vpn", ann="10.0.0.0/8,192.0.2.0/24" if bad else "10.8.0.0/16, 172.20.0.0/16"),
                lb("data", "kafka-external", ["172.32.0.0/16"] if bad else ["172.31.0.0/16"]),
                # near misses: the field wins over the annotation; other Service types are out of scope
                lb("data", "kafka-bootstrap", ["10.1.0.0/16", "172.16.4.0/24"], ann="0.0.0.0/0"),
                lb("ops", "grafana", typ="NodePort"),
                lb("shop", "catalog", typ="ClusterIP")]

    def bad(O):
        out = set()
        for o in O:
            if o["kind"] != "Service" or o["spec"].get("type") != "LoadBalancer": continue
            r = o["spec"].get("loadBalancerSourceRanges") or [
                x.strip() for x in ((o["metadata"].get("annotations") or {}).get(LBANN) or "").split(",") if x.strip()]
            if not r or any(not any(ipaddress.ip_network(x).subnet_of(c) for c in CORP) for x in r):
                out.add(rid(o))
        return out
    PRED["set5-lb-corporate-sources"] = bad
    return S("set5-lb-corporate-sources", None, "auditor",
             "Every Service that asks the cloud for an external load balancer must accept clients only from our "
             "corporate address space, 10.0.0.0/8 and 172.16.0.0/12: each allowed source range it lists must lie "
             "inside one of these. The allowed ranges may be given in the Service's loadBalancerSourceRanges field or, "
             "in older manifests, in the service.beta.kubernetes.io/load-balancer-source-ranges annotation (comma-"
             "separated); when the field is set the annotation is ignored, and with neither the load balancer accepts "
             "everyone. Services of any other type are not in scope of this finding.",
             objs(True), objs(False),
             ["Service/shop/storefront-lb", "Service/api/partner-gw", "Service/ops/vpn", "Service/data/kafka-external"],
             "Violating: a LoadBalancer with no ranges at all; 0.0.0.0/0 beside 10.0.0.0/8; an annotation-only list "
             "with 192.0.2.0/24; 172.32.0.0/16 (just outside 172.16.0.0/12, which ends at 172.31.255.255). Compliant: "
             "the same Services restricted; near misses: 172.31.0.0/16, an annotation with a space after the comma, "
             "kafka-bootstrap whose field (corporate) overrides an annotation 0.0.0.0/0, a NodePort and a ClusterIP "
             "Service without ranges.",
             "a LoadBalancer Service whose effective source ranges are missing or leave the corporate space")


# k04 PodDisruptionBudgets that block drains ------------------------------------------------------------
def pdb(namespace, name, **kw):
    s = {"selector": {"matchLabels": {"app.kubernetes.io/name": name}}}
    s.update(kw)
    return {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": meta(name, namespace), "spec": s}


@scenario
def pdb_drain():
    def objs(bad):
        O = [ns("payments"), ns("search"), ns("auth")]
        for n, name in (("payments", "ledger"), ("search", "es"), ("auth", "keycloak"), ("payments", "api"), ("search", "ui")):
            O.append(dict(wl("Deployment", n, name, podspec([ctr(name)])), **{}))
            O[-1]["spec"]["replicas"] = 3
        O += [pdb("payments", "ledger", maxUnavailable=0 if bad else 1),
              pdb("search", "es", maxUnavailable="0%" if bad else "34%"),
              pdb("auth", "keycloak", minAvailable="100%" if bad else "60%"),
              pdb("payments", "api", minAvailable=2),
              pdb("search", "ui", maxUnavailable="10%", unhealthyPodEvictionPolicy="AlwaysAllow")]
        return O

    def zero(v):
        return v == 0 or (isinstance(v, str) and v.strip().rstrip("%").strip() in ("0",))

    def bad(O):
        return {rid(o) for o in O if o["kind"] == "PodDisruptionBudget"
                and (zero(o["spec"].get("maxUnavailable", 1)) or str(o["spec"].get("minAvailable", "")).strip() == "100%")}
    PRED["set5-drainable-budgets"] = bad
    return S("set5-drainable-budgets", None, "operator",
             "Node upgrades must never hang on a disruption budget that can never be satisfied. No "
             "PodDisruptionBudget may, by its own settings, allow zero evictions: it must not allow zero unavailable "
             "pods (whether written as a number or as a percentage) and must not require all of its pods (100%) to "
             "stay available. Budgets that keep a fixed number or a smaller share of pods available are fine.",
             objs(True), objs(False),
             ["PodDisruptionBudget/payments/ledger", "PodDisruptionBudget/search/es", "PodDisruptionBudget/auth/keycloak"],
             "Violating: maxUnavailable 0 (integer); maxUnavailable \"0%\"; minAvailable \"100%\". Deployments have "
             "3 replicas. Near misses (both): minAvailable 2 of 3, maxUnavailable \"10%\" (rounds up to 1 pod) with "
             "unhealthyPodEvictionPolicy AlwaysAllow; compliant values 1, \"34%\", \"60%\".",
             "a PodDisruptionBudget with maxUnavailable 0 / 0% or minAvailable 100%")


# k05 namespace ownership labels ------------------------------------------------------------------------
def nsl(name, labels, annotations=None):
    o = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": dict({"kubernetes.io/metadata.name": name}, **labels)}}
    if annotations: o["metadata"]["annotations"] = annotations
    return o


@scenario
def ns_labels():
    def objs(bad):
        return [nsl("payments", {"owner": "team-payments", ("Environment" if bad else "environment"): "prod"}),
                nsl("analytics", {"owner": "team-data", "environment": "Production" if bad else "prod"}),
                nsl("sandbox", {"owner": "" if bad else "team-devex", "environment": "dev"}),
                nsl("ml", {"environment": "staging", **({} if bad else {"owner": "team-ml"})}, annotations={"owner": "team-ml"}),
                nsl("web", {"owner": "team-web", "environment": "staging", "app.kubernetes.io/part-of": "shop"},
                    annotations={"environment": "Staging (shared)"}),
                nsl("kube-system", {}), nsl("default", {}), nsl("kube-public", {}), nsl("kube-node-lease", {}),
                cm("web", "owner", {"owner": "", "environment": "PROD"})]

    def bad(O):
        out = set()
        for o in O:
            if o["kind"] != "Namespace" or o["metadata"]["name"] in ("default", "kube-system", "kube-public", "kube-node-lease"):
                continue
            lab = o["metadata"].get("labels") or {}
            if not lab.get("owner") or lab.get("environment") not in ("prod", "staging", "dev"):
                out.add(rid(o))
        return out
    PRED["set5-namespace-ownership"] = bad
    return S("set5-namespace-ownership", None, "auditor",
             "Finding to close: namespaces without a recorded owner and purpose. Every namespace we created must carry "
             "a label owner whose value names the owning team (it may not be empty), and a label environment whose "
             "value is exactly prod, staging or dev, in lower case. Label keys are case-sensitive; annotations do not "
             "count. The namespaces Kubernetes creates itself (default, kube-system, kube-public, kube-node-lease) are "
             "exempt.",
             objs(True), objs(False),
             ["Namespace//payments", "Namespace//analytics", "Namespace//sandbox", "Namespace//ml"],
             "Violating: key `Environment` (capital E); value `Production`; owner present but empty; owner only as an "
             "annotation. Near misses (both): `web` with the right labels and an annotation environment: `Staging "
             "(shared)`; the four system namespaces without labels; a ConfigMap named owner with such keys.",
             "a namespace without a non-empty owner label or with environment not in prod/staging/dev")


# k06 seccomp never Unconfined (PSS baseline text) -------------------------------------------------------
@scenario
def seccomp_unconfined():
    U = {"type": "Unconfined"}
    RD = {"type": "RuntimeDefault"}

    def objs(bad):
        return [ns("analytics"), ns("ops"), ns("monitoring"),
                wl("Deployment", "analytics", "jupyter",
                   podspec([ctr("notebook"), ctr("sidecar", secctx=sc(seccompProfile=None))],
                           securityContext=psc(seccompProfile=U if bad else RD))),
                wl("CronJob", "ops", "strace-job",
                   podspec([ctr("job")], init=[ctr("trace-setup", secctx=sc(seccompProfile=U if bad else None))])),
                wl("DaemonSet", "monitoring", "ebpf-agent",
                   podspec([ctr("agent"), ctr("loader")], securityContext=psc(seccompProfile=U) if bad else psc())),
                wl("Pod", "analytics", "jupyter-0",
                   podspec([ctr("app")], ephemeralContainers=[eph("debug", tagged("tools/busybox", "1.36"),
                                                                  securityContext={"seccompProfile": U if bad else RD})])),
                # near misses: unset everywhere (allowed), Localhost profile named unconfined, AppArmor annotation
                wl("Deployment", "ops", "legacy", podspec([ctr("legacy", secctx=sc(seccompProfile=None))],
                                                         securityContext={"runAsNonRoot": True})),
                wl("Deployment", "monitoring", "tracer",
                   podspec([ctr("tracer", secctx=sc(seccompProfile={"type": "Localhost", "localhostProfile": "profiles/unconfined-audit.json"}))]),
                   tmpl_annotations={"container.apparmor.security.beta.kubernetes.io/tracer": "unconfined"})]

    def bad(O):
        out = set()
        for o, sp, pm in workloads(O):
            prof = [((sp.get("securityContext") or {}).get("seccompProfile") or {}).get("type")]
            prof += [((c.get("securityContext") or {}).get("seccompProfile") or {}).get("type") for c in all_ctrs(sp)]
            if "Unconfined" in prof: out.add(rid(o))
        return out
    PRED["set5-pss-seccomp"] = bad
    return S("set5-pss-seccomp", None, "CIS",
             "Pod Security Standards, Baseline profile, control \"Seccomp\": Seccomp profile must not be explicitly "
             "set to Unconfined. Restricted fields: the pod's seccomp profile type and the seccomp profile type of "
             "every container, init container and ephemeral container. Allowed values: undefined, RuntimeDefault, "
             "Localhost. (This is the Baseline profile: leaving the profile unset is allowed.)",
             objs(True), objs(False),
             ["Deployment/analytics/jupyter", "CronJob/ops/strace-job", "DaemonSet/monitoring/ebpf-agent", "Pod/analytics/jupyter-0"],
             "Violating: pod-level Unconfined (the sidecar inherits it); Unconfined on an init container of a CronJob; "
             "pod-level Unconfined in a DaemonSet whose containers all override it with RuntimeDefault (the field "
             "itself is restricted, so it still violates); an ephemeral container with Unconfined. Near misses "
             "(both): profiles left unset at both levels, a Localhost profile whose file is named "
             "unconfined-audit.json, an AppArmor unconfined annotation (another control).",
             "seccompProfile.type Unconfined at pod level or on any container", debatable=True)


# k07 capabilities beyond the runtime defaults -------------------------------------------------------------
ALLOWED_CAPS = {"AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "KILL", "MKNOD", "NET_BIND_SERVICE",
                "SETFCAP", "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT"}


def caps(add, drop=("ALL",)):
    return sc(capabilities={"add": list(add), "drop": list(drop)} if add else {"drop": list(drop)})


@scenario
def caps_allow():
    def objs(bad):
        return [ns("net"), ns("db"), ns("sec"),
                wl("Deployment", "net", "lb-agent", podspec([ctr("agent", secctx=caps(["NET_BIND_SERVICE"]))],
                                                            init=[ctr("iptables-init", secctx=caps(["NET_ADMIN"] if bad else ["NET_BIND_SERVICE"]))])),
                wl("StatefulSet", "db", "pg", podspec([ctr("postgres", secctx=caps(["CHOWN", "SETUID", "SETGID", "FOWNER"])),
                                                       ctr("tuner", secctx=caps(["CAP_SYS_NICE"] if bad else []))])),
                wl("DaemonSet", "sec", "runtime-monitor", podspec([ctr("monitor", secctx=caps(["sys_ptrace"] if bad else ["kill"]))])),
                # near misses: prefixed and lower-case spellings of allowed capabilities, SYS_ADMIN dropped
                wl("Deployment", "net", "dns", podspec([ctr("coredns", secctx=caps(["CAP_NET_BIND_SERVICE"], drop=["ALL", "SYS_ADMIN"]))])),
                wl("CronJob", "db", "backup", podspec([ctr("dump", secctx=caps(["dac_override", "Cap_Chown"]))]))]

    def norm(c):
        c = c.upper()
        return c[4:] if c.startswith("CAP_") else c

    def bad(O):
        return {rid(o) for o, sp, pm in workloads(O) if any(
            norm(x) not in ALLOWED_CAPS for c in all_ctrs(sp)
            for x in (((c.get("securityContext") or {}).get("capabilities") or {}).get("add") or []))}
    PRED["set5-runtime-default-caps"] = bad
    return S("set5-runtime-default-caps", None, "operator",
             "Containers may add back only capabilities that the container runtime would grant anyway: AUDIT_WRITE, "
             "CHOWN, DAC_OVERRIDE, FOWNER, FSETID, KILL, MKNOD, NET_BIND_SERVICE, SETFCAP, SETGID, SETPCAP, SETUID "
             "and SYS_CHROOT. Adding any other capability, in any container of any workload, is forbidden; dropping "
             "capabilities is always fine. A capability may be written with or without the CAP_ prefix and in any "
             "letter case: it is the capability that counts, not the spelling.",
             objs(True), objs(False), ["Deployment/net/lb-agent", "StatefulSet/db/pg", "DaemonSet/sec/runtime-monitor"],
             "Violating: NET_ADMIN added by an init container; CAP_SYS_NICE on the second container; sys_ptrace (lower "
             "case) in a DaemonSet. Near misses (both): CAP_NET_BIND_SERVICE, dac_override, Cap_Chown (allowed ones, "
             "other spellings), SYS_ADMIN in a drop list, several allowed capabilities on one container.",
             "a capability outside the runtime-default list in capabilities.add (any spelling)")


# k08 host ports only in a range ----------------------------------------------------------------------------
def port(p, host=None, name=None):
    d = {"containerPort": p, "protocol": "TCP"}
    if name: d["name"] = name
    if host is not None: d["hostPort"] = host
    return d


@scenario
def hostport_range():
    def objs(bad):
        return [ns("monitoring"), ns("edge"), ns("ops"),
                wl("DaemonSet", "monitoring", "node-exporter", podspec([ctr("exporter", ports=[port(9100, 9100, "metrics")])])),
                wl("DaemonSet", "monitoring", "blackbox", podspec([ctr("blackbox", ports=[port(9115, 9115 if bad else 9110, "http")])])),
                wl("Deployment", "edge", "proxy", podspec([ctr("envoy", ports=[port(8443, name="https")]),
                                                           ctr("admin", ports=[port(9901, name="admin"), port(443, 443 if bad else None)])])),
                wl("CronJob", "ops", "net-probe", podspec([ctr("probe", ports=[port(9105, 9105), port(8080, 8080 if bad else 9106)])])),
                # near misses: hostPort 0 (none), containerPort outside the range without hostPort
                wl("Deployment", "edge", "status", podspec([ctr("status", ports=[port(8080, 0, "http"), port(9200)])]))]

    def bad(O):
        return {rid(o) for o, sp, pm in workloads(O) if any(
            p.get("hostPort") and not 9100 <= p["hostPort"] <= 9110 for c in all_ctrs(sp) for p in c.get("ports") or [])}
    PRED["set5-hostport-window"] = bad
    return S("set5-hostport-window", None, "operator",
             "Ports on the nodes themselves are reserved for our node-level monitoring agents: a container may bind a "
             "port on the node it runs on only if that port number is between 9100 and 9110, both included. Any other "
             "node port taken by any container of any workload is a violation; ports that only exist inside the pod "
             "are not concerned.",
             objs(True), objs(False), ["DaemonSet/monitoring/blackbox", "Deployment/edge/proxy", "CronJob/ops/net-probe"],
             "Violating: hostPort 9115 (just above the window); hostPort 443 on the second port of the second "
             "container; hostPort 8080 as the second port of a CronJob container whose first port (9105) is fine. "
             "Near misses (both): 9100 and 9110 (bounds), hostPort 0 (means no host port), containerPort 9200 "
             "without a hostPort.",
             "a hostPort outside 9100-9110")


# k09 who may attach debug containers ---------------------------------------------------------------------
def sub_match(resources, target):
    base, sub = target.split("/")
    return bool(set(resources) & {"*", target, base + "/*", "*/" + sub})


@scenario
def debug_rbac():
    def objs(bad):
        return [ns("shop"),
                role("sre-oncall", [rule([""], ["pods/ephemeralcontainers", "pods/exec"], ["get", "create", "update", "patch"])]),
                role("dev-tools", [rule([""], ["pods", "pods/log"], ["get", "list", "watch"]),
                                   rule([""], ["pods/ephemeralcontainers"], ["get", "patch"] if bad else ["get"]),
                                   rule([""], ["pods/exec"], ["create"])]),
                role("shop-admin", [rule(["", "apps"], ["pods/*"] if bad else ["pods"], ["*"]),
                                    rule([""], ["services", "configmaps"], ["*"])], namespace="shop"),
                role("support", [rule(["apps"], ["*"], ["get", "list"]),
                                 rule([""] if bad else ["batch"], ["*"], ["update"])]),
                role("pod-restarter", [rule([""], ["pods"], ["delete", "update", "patch"]),
                                       rule([""], ["pods/status", "pods/eviction"], ["create", "update"])]),
                role("system:controller:ephemeral-debugger", [rule([""], ["pods/ephemeralcontainers"], ["update", "patch"])])]

    def bad(O):
        return {rid(o) for o, rules in rules_of(O, exempt=lambda o: o["metadata"]["name"].startswith("system:")
                                                 or o["metadata"]["name"] == "sre-oncall")
                if any(set(r["apiGroups"]) & {"", "*"} and sub_match(r["resources"], "pods/ephemeralcontainers")
                       and set(r["verbs"]) & {"update", "patch", "create", "*"} for r in rules)}
    PRED["set5-debug-containers"] = bad
    return S("set5-debug-containers", None, "effect",
             "Nobody except the on-call SREs may slip a debugging container into a pod that is already running (what "
             "kubectl debug does against a running pod), nor otherwise change a running pod's debug containers. The "
             "sre-oncall ClusterRole and Kubernetes' own roles (names starting with system:) may; every other Role or "
             "ClusterRole must not allow it. Looking at a pod's debug containers is fine.",
             objs(True), objs(False), ["ClusterRole//dev-tools", "Role/shop/shop-admin", "ClusterRole//support"],
             "The permission is a write (update/patch) on the pods/ephemeralcontainers subresource of the core group. "
             "Violating: patch in dev-tools' second rule; `pods/*` with verbs * in a namespaced Role; update on "
             "resources * of the core group in support's second rule. Near misses (both): get on "
             "pods/ephemeralcontainers, * on pods (no subresource), update/patch on pods, pods/status and pods/eviction, "
             "create on pods/exec (another control), update on * of the batch group, the exempt roles.",
             "update/patch (or *) on pods/ephemeralcontainers (directly, pods/* or *) in a non-exempt role")


# k10 who may rewrite RBAC --------------------------------------------------------------------------------
@scenario
def rbac_writers():
    W = {"create", "update", "patch", "delete", "deletecollection", "*"}
    RB = ["roles", "clusterroles", "rolebindings", "clusterrolebindings"]

    def objs(bad):
        return [ns("team-x"),
                role("platform-admins", [rule(["*"], ["*"], ["*"])]),
                role("ci-bootstrap", [rule([""], ["namespaces", "serviceaccounts"], ["create", "get"]),
                                      rule([RBAC], ["rolebindings"], ["create"] if bad else ["get", "list"]),
                                      rule([RBAC], ["clusterroles"], ["bind"], names=["edit"])]),
                role("tenant-manager", [rule([RBAC], ["*"], ["update"] if bad else ["get", "list", "watch"]),
                                        rule(["authorization.k8s.io"], ["subjectaccessreviews", "localsubjectaccessreviews"], ["create"])]),
                role("team-lead", [rule(["apps"], ["deployments"], ["*"]),
                                   rule(["*"] if bad else ["apps"], ["roles"] if bad else ["replicasets"], ["*"])], namespace="team-x"),
                role("rbac-viewer", [rule([RBAC], RB, ["get", "list", "watch"])]),
                role("system:controller:clusterrole-aggregation-controller", [rule([RBAC], ["clusterroles"], ["escalate", "get", "list", "patch", "update", "watch"])])]

    def bad(O):
        return {rid(o) for o, rules in rules_of(O, exempt=lambda o: o["metadata"]["name"].startswith("system:")
                                                 or o["metadata"]["name"] == "platform-admins")
                if any(set(r["apiGroups"]) & {RBAC, "*"} and set(r["resources"]) & set(RB + ["*"]) and set(r["verbs"]) & W
                       for r in rules)}
    PRED["set5-rbac-object-writers"] = bad
    return S("set5-rbac-object-writers", None, "auditor",
             "Control objective: changes to authorisation are made by the platform team only. No Role or ClusterRole "
             "other than platform-admins may create, modify or delete Roles, ClusterRoles, RoleBindings or "
             "ClusterRoleBindings; reading them is allowed. Kubernetes' own roles (names beginning with system:) are "
             "outside this control, and so are the separate bind and escalate permissions, which another control "
             "covers.",
             objs(True), objs(False), ["ClusterRole//ci-bootstrap", "ClusterRole//tenant-manager", "Role/team-x/team-lead"],
             "Violating: create on rolebindings in ci-bootstrap's second rule; update on resources * of "
             "rbac.authorization.k8s.io; verbs * on roles under apiGroups * in a namespaced Role. Near misses "
             "(both): bind on clusterroles (another control), create on subjectaccessreviews (another group), read-only "
             "rbac-viewer, * on deployments/replicasets, the exempt platform-admins and system: roles.",
             "a write verb on Roles/ClusterRoles/(Cluster)RoleBindings (directly or via *) in a non-exempt role")


# k11 who may modify Node objects ----------------------------------------------------------------------------
@scenario
def node_writers():
    W = {"create", "update", "patch", "delete", "deletecollection", "*"}

    def objs(bad):
        return [role("node-lifecycle", [rule([""], ["nodes", "nodes/status"], ["*"])]),
                role("autoscaler-helper", [rule([""], ["nodes"], ["get", "list", "watch", "patch"] if bad else ["get", "list", "watch"]),
                                           rule([""], ["pods/eviction"], ["create"])]),
                role("gpu-operator", [rule([""], ["nodes"], ["get", "list"]),
                                      rule(["apps"], ["daemonsets"], ["*"]),
                                      rule([""], ["nodes/status"], ["get", "update"] if bad else ["get"])]),
                role("ops-wildcard", [rule([""], ["*"] if bad else ["pods", "services"], ["get", "list", "delete"])]),
                role("kubelet-metrics", [rule([""], ["nodes/proxy", "nodes/metrics", "nodes/stats"], ["get"]),
                                         rule(["metrics.k8s.io"], ["nodes"], ["get", "list"]),
                                         rule(["storage.k8s.io"], ["csinodes"], ["get", "update", "patch"])]),
                role("system:node", [rule([""], ["nodes", "nodes/status"], ["create", "get", "list", "watch", "update", "patch", "delete"])])]

    def bad(O):
        return {rid(o) for o, rules in rules_of(O, exempt=lambda o: o["metadata"]["name"].startswith("system:")
                                                 or o["metadata"]["name"] == "node-lifecycle")
                if any(set(r["apiGroups"]) & {"", "*"} and set(r["resources"]) & {"nodes", "nodes/status", "nodes/*", "*"}
                       and set(r["verbs"]) & W for r in rules)}
    PRED["set5-node-object-writers"] = bad
    return S("set5-node-object-writers", None, "operator",
             "Only our node-lifecycle ClusterRole may cordon, label, taint, change the status of, or delete Node "
             "objects; every other Role or ClusterRole may at most read them. Kubernetes' own roles (system:...) are "
             "not in scope. Access to the kubelet through a node (proxy, metrics, stats) is a separate matter and not "
             "part of this rule.",
             objs(True), objs(False), ["ClusterRole//autoscaler-helper", "ClusterRole//gpu-operator", "ClusterRole//ops-wildcard"],
             "Violating: patch on nodes as a fourth verb; update on nodes/status in a third rule; delete on resources * "
             "of the core group. Near misses (both): get on nodes/proxy, nodes/metrics and nodes/stats (another "
             "control), nodes of metrics.k8s.io (read), update/patch on csinodes (storage.k8s.io), create on "
             "pods/eviction (draining uses it, the Node is not modified), delete on pods and services, the exempt "
             "roles.",
             "a write verb on nodes or nodes/status (directly or via *) in a non-exempt role")


# k12 Ingress answering for any host -------------------------------------------------------------------------
def ingr(namespace, name, hosts, default_backend=False, tls_hosts=None, annotations=None):
    spec = {"ingressClassName": "nginx"}
    if default_backend:
        spec["defaultBackend"] = {"service": {"name": name, "port": {"number": 80}}}
    spec["rules"] = []
    for h in hosts:
        r = {}
        if h is not None: r["host"] = h
        r["http"] = {"paths": [{"path": "/", "pathType": "Prefix", "backend": {"service": {"name": name, "port": {"number": 80}}}}]}
        spec["rules"].append(r)
    spec["tls"] = [{"hosts": tls_hosts or [h for h in hosts if h], "secretName": name + "-tls"}]
    return {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": meta(name, namespace, annotations=annotations), "spec": spec}


@scenario
def ingress_catchall():
    def objs(bad):
        return [ns("shop"), ns("docs"), ns("legacy"),
                ingr("shop", "promo", ["*.promo.example.com"] if bad else ["summer.promo.example.com"]),
                ingr("docs", "site", ["docs.example.com", None if bad else "www.docs.example.com"]),
                ingr("legacy", "app", ["app.example.com"], default_backend=bad),
                # near misses: wildcard only in the TLS certificate hosts, a host literally named wildcard
                ingr("shop", "storefront", ["shop.example.com", "www.shop.example.com"], tls_hosts=["*.shop.example.com", "shop.example.com"]),
                ingr("docs", "wildcard-demo", ["wildcard.example.com"])]

    def bad(O):
        return {rid(o) for o in O if o["kind"] == "Ingress" and (
            o["spec"].get("defaultBackend") or any("host" not in r or "*" in r["host"] for r in o["spec"].get("rules", [])))}
    PRED["set5-ingress-named-hosts"] = bad
    return S("set5-ingress-named-hosts", None, "effect",
             "Each Ingress must answer only for host names we spelled out in full. None of its routing rules may "
             "apply to every host name or to a whole family of subdomains, and no Ingress may have a fallback that "
             "takes requests addressed to names it does not list. What the TLS certificate covers is a separate "
             "matter.",
             objs(True), objs(False), ["Ingress/shop/promo", "Ingress/docs/site", "Ingress/legacy/app"],
             "Violating: a rule for `*.promo.example.com`; a second rule with no host (matches all hosts); a "
             "spec.defaultBackend. Near misses (both): `*.shop.example.com` only among the TLS hosts, a host named "
             "wildcard.example.com in an Ingress named wildcard-demo.",
             "an Ingress rule without host or with a wildcard host, or a defaultBackend")


# k13 proxy configuration snippets on Ingresses -----------------------------------------------------------------
def is_snippet(k):
    k = k.lower()
    pre, _, name = k.partition("/")
    return pre in ("nginx.ingress.kubernetes.io", "nginx.org", "nginx.com") and (name.endswith("snippet") or name.endswith("snippets"))


@scenario
def ingress_snippets():
    NI = "nginx.ingress.kubernetes.io/"

    def objs(bad):
        store = {NI + "rewrite-target": "/$2", NI + "proxy-body-size": "8m"}
        if bad: store[NI + "configuration-snippet"] = "more_set_headers \"X-Frame-Options: DENY\";\n"
        gw = {NI + "proxy-read-timeout": "120", NI + "ssl-redirect": "true", NI + "auth-url": "https://auth.example.com/check"}
        if bad: gw[NI + "server-snippet"] = "location /internal { return 403; }\n"
        sso = {"nginx.org/redirect-to-https": "true"}
        if bad: sso["nginx.org/location-snippets"] = "proxy_set_header X-Debug $http_x_debug;\n"
        return [ns("shop"), ns("api"), ns("auth"), ns("ingress-nginx"),
                ingr("shop", "store", ["store.example.com"], annotations=store),
                ingr("api", "gateway", ["api.example.com"], annotations=gw),
                ingr("auth", "sso", ["sso.example.com"], annotations=sso),
                ingr("api", "docs", ["api-docs.example.com"], annotations={"snippet-owner": "team-api",
                                                                           NI + "custom-http-errors": "404,503"}),
                cm("ingress-nginx", "ingress-nginx-controller", {"allow-snippet-annotations": "false",
                                                                  "annotations-risk-level": "Critical"})]

    def bad(O):
        return {rid(o) for o in O if o["kind"] == "Ingress" and any(is_snippet(k) for k in (o["metadata"].get("annotations") or {}))}
    PRED["set5-no-proxy-snippets"] = bad
    return S("set5-no-proxy-snippets", None, "operator",
             "Nobody may smuggle raw proxy configuration in through an Ingress. No Ingress may carry a configuration "
             "snippet annotation of the ingress controller, whichever block it targets (location, server, "
             "authentication, stream), for the community ingress-nginx controller as well as for NGINX Inc's "
             "controller. Ordinary annotations (rewrites, timeouts, body size, redirects, external authentication "
             "URLs) are fine.",
             objs(True), objs(False), ["Ingress/shop/store", "Ingress/api/gateway", "Ingress/auth/sso"],
             "Violating: nginx.ingress.kubernetes.io/configuration-snippet; nginx.ingress.kubernetes.io/server-snippet "
             "among other annotations; nginx.org/location-snippets (NGINX Inc controller). Near misses (both): "
             "auth-url, custom-http-errors, an annotation key snippet-owner (no controller prefix), the controller "
             "ConfigMap's allow-snippet-annotations: \"false\" (a ConfigMap, not an Ingress).",
             "an Ingress annotation that is an nginx configuration snippet")


# k14 shared process namespace -------------------------------------------------------------------------------
@scenario
def share_pid():
    def objs(bad):
        x = {"shareProcessNamespace": True} if bad else {}
        return [ns("web"), ns("ops"),
                wl("Deployment", "web", "app-with-proxy", podspec([ctr("app"), ctr("envoy")], **x)),
                wl("CronJob", "ops", "heap-dump", podspec([ctr("jvm"), ctr("dumper")], **x)),
                wl("Pod", "web", "profiler", podspec([ctr("app"), ctr("perf")], shareProcessNamespace=bool(bad))),
                # near misses: explicit false, hostPID false, a root sidecar (another control)
                wl("StatefulSet", "web", "session-store", podspec([ctr("redis"), ctr("exporter")], shareProcessNamespace=False,
                                                                  hostPID=False)),
                wl("Deployment", "ops", "reloader", podspec([ctr("reloader", secctx=sc(runAsNonRoot=False, runAsUser=0))])),
                cm("ops", "heap-dump-howto", {"README": "set shareProcessNamespace: true temporarily to attach jcmd"})]

    def bad(O):
        return {rid(o) for o, sp, pm in workloads(O) if sp.get("shareProcessNamespace") is True or sp.get("hostPID") is True}
    PRED["set5-private-process-views"] = bad
    return S("set5-private-process-views", None, "effect",
             "The containers of a pod must not be able to see or signal one another's processes, nor read one "
             "another's environment and files through /proc: every container keeps its own process view. This holds "
             "for every workload, including scheduled jobs and bare pods.",
             objs(True), objs(False), ["Deployment/web/app-with-proxy", "CronJob/ops/heap-dump", "Pod/web/profiler"],
             "The setting is spec.shareProcessNamespace. Violating: true in a Deployment template, in a CronJob "
             "template, and on a bare Pod. No workload uses hostPID (which would also break the effect). Near "
             "misses (both): shareProcessNamespace false and hostPID false written out, a sidecar running as root "
             "(another control), a ConfigMap describing the setting.",
             "shareProcessNamespace true")
# ================================================================== RHEL 9
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
@scenario
def r_aslr():
    base = {"etc/sysctl.conf": SYSCTL_CONF, "etc/sysctl.d/99-sysctl.conf": SYSCTL_CONF,
            "usr/lib/sysctl.d/50-default.conf": SYSTEMD_50, "usr/lib/sysctl.d/50-pid-max.conf": SYSTEMD_50_PID,
            "usr/lib/sysctl.d/60-benchmark-tuning.conf":
                "# Installed by the perf-benchmark-tuning package: reproducible address layouts for benchmarks\n"
                "kernel.sched_autogroup_enabled = 0\nkernel.randomize_va_space = 0\nvm.swappiness = 10\n",
            "etc/sysctl.d/10-aslr.conf": "# CIS: address space layout randomisation\nkernel.randomize_va_space = 2\n",
            "etc/sysctl.d/40-misc.conf": "; kernel.randomize_va_space = 0   (benchmarks only, never here)\n"
                                         "kernel.dmesg_restrict = 1\n"}
    v = dict(base)
    v["etc/sysctl.d/99-zz-aslr.conf.bak"] = "kernel.randomize_va_space = 2\n"
    c = dict(base)
    c["etc/sysctl.d/60-benchmark-tuning.conf"] = ("# local copy of the vendor file without the ASLR switch (CHG-5310)\n"
                                                  "kernel.sched_autogroup_enabled = 0\nvm.swappiness = 10\n"
                                                  "kernel.randomize_va_space = 2\n")

    def bad(t):
        return set() if sysctl_effective(t).get("kernel.randomize_va_space", "2") == "2" else {"sysctl//kernel.randomize_va_space"}
    RPRED["set5-rhel-full-aslr"] = bad
    return S("set5-rhel-full-aslr", None, "effect",
             "Every process on these hosts must get a fully randomised memory layout: the positions of its stack, its "
             "memory mappings and shared libraries, and its heap must all change from one start to the next. This "
             "must hold as the machine comes up after a reboot, whatever packages have installed.", v, c,
             ["sysctl//kernel.randomize_va_space"],
             "The setting is kernel.randomize_va_space = 2 (1 leaves the heap, 0 turns it off; 2 is the kernel "
             "default), as systemd-sysctl applies sysctl.d at boot (files ordered by name across /etc, /run, "
             "/usr/local/lib, /usr/lib; a file in /etc hides a same-named one in /usr/lib; later wins). Violating: "
             "/etc/sysctl.d/10-aslr.conf sets 2 but the vendor /usr/lib/sysctl.d/60-benchmark-tuning.conf (later name) "
             "sets 0; a 99-zz-aslr.conf.bak file is not read. Compliant: /etc/sysctl.d/60-benchmark-tuning.conf "
             "(same name) hides the vendor file and sets 2. Near misses (both): a `;`-commented 0 line, "
             "kernel.dmesg_restrict and other kernel.* keys.",
             "effective kernel.randomize_va_space 0 (vendor drop-in after the CIS file)", platform="rhel9", classes=RHEL)


# r02 faillock -----------------------------------------------------------------------------------------------
FAILLOCK_CONF = """# Configuration for locking the user after multiple failed
# authentication attempts.
#
# The directory where the user files with the failure records are kept.
# The default is /var/run/faillock.
# dir = /var/run/faillock
#
# Will log the user name into the system log if the user is not found.
# Enabled if option is present.
# audit
#
# Don't print informative messages.
# Enabled if option is present.
# silent
#
# Deny access if the number of consecutive authentication failures
# for this user during the recent interval exceeds n tries.
# The default is 3.
# deny = 3
#
# The length of the interval during which the consecutive
# authentication failures must happen for the user account
# lock out is <replaceable>n</replaceable> seconds.
# The default is 900 (15 minutes).
# fail_interval = 900
#
# The access will be re-enabled after n seconds after the lock out.
# The value 0 has the same meaning as value `never` - the access
# will not be re-enabled without resetting the faillock
# entries by the `faillock` command.
# The default is 600 (10 minutes).
# unlock_time = 600
#
# Root account can become locked as well as regular accounts.
# Enabled if option is present.
# even_deny_root
#
# The access will be re-enabled after n seconds after the lock out.
# The default is 60 (1 minute).
# root_unlock_time = 900
"""


def faillock_eff(t):
    conf = {"deny": "3", "unlock_time": "600"}
    for line in t["etc/security/faillock.conf"].splitlines():
        line = line.split("#")[0].strip()
        if "=" in line:
            k, v = (x.strip() for x in line.split("=", 1))
            conf[k] = v
    out = {}
    for f in ("etc/pam.d/system-auth", "etc/pam.d/password-auth"):
        for line in t[f].splitlines():
            w = line.split()
            if len(w) >= 3 and not w[0].startswith("#") and w[2] == "pam_faillock.so":
                eff = dict(conf)
                for a in w[3:]:
                    if "=" in a:
                        k, v = a.split("=", 1)
                        eff[k] = v
                out[(f, " ".join(w[3:]))] = eff
    return out


def faillock_bad(t):
    bad = set()
    for eff in faillock_eff(t).values():
        if int(eff["deny"]) > 5 or int(eff["deny"]) == 0: bad.add("faillock//deny")
        u = eff["unlock_time"]
        u = 0 if u == "never" else int(u)
        if u != 0 and u < 900: bad.add("faillock//unlock_time")
    return bad


@scenario
def r_faillock():
    def pam(args):
        s = SYSTEM_AUTH.replace("{pwq}", "local_users_only")
        return s.replace("pam_faillock.so preauth silent", ("pam_faillock.so preauth silent " + args).rstrip()) \
                .replace("pam_faillock.so authfail", ("pam_faillock.so authfail " + args).rstrip())
    v = {"etc/security/faillock.conf": FAILLOCK_CONF + "\n# CIS 5.4.x\ndeny = 4\nunlock_time = 600\neven_deny_root\n",
         "etc/pam.d/system-auth": pam(""), "etc/pam.d/password-auth": pam("deny=8")}
    c = {"etc/security/faillock.conf": FAILLOCK_CONF + "\n# CIS 5.4.x\ndeny = 5\nunlock_time = never\nfail_interval = 900\n",
         "etc/pam.d/system-auth": pam("audit"), "etc/pam.d/password-auth": pam("unlock_time=1800"),
         "etc/security/faillock.conf.rpmnew": FAILLOCK_CONF + "deny = 10\nunlock_time = 60\n"}
    RPRED["set5-rhel-lockout"] = faillock_bad
    return S("set5-rhel-lockout", None, "CIS",
             "CIS RHEL 9, Configure pam_faillock: ensure password failed attempts lockout is configured and ensure "
             "password unlock time is configured. An account must be locked after at most 5 consecutive failed "
             "authentication attempts, and once locked it must stay locked for at least 900 seconds; an unlock time "
             "of 0 (or never), meaning only an administrator can unlock it, also satisfies this. pam_faillock reads "
             "/etc/security/faillock.conf, and options written as arguments on a pam_faillock line of the PAM stacks "
             "(system-auth and password-auth) take precedence over that file for that line.", v, c,
             ["faillock//deny", "faillock//unlock_time"],
             "Defaults: deny 3, unlock_time 600. Violating: faillock.conf sets deny = 4 (fine) but unlock_time = 600 "
             "(10 minutes), and password-auth (used by sshd) passes deny=8 on both pam_faillock lines. Compliant: "
             "deny = 5 (the bound), unlock_time = never, password-auth passes unlock_time=1800; near misses: the "
             "commented defaults in faillock.conf, a faillock.conf.rpmnew with deny = 10 (not read), `audit` on a "
             "PAM line, fail_interval 900.",
             "unlock_time 600 in faillock.conf; deny=8 on the password-auth pam_faillock lines", platform="rhel9", classes=RHEL)


# r03 uncommon network protocols -------------------------------------------------------------------------------
PROTOS = ("dccp", "sctp", "rds", "tipc")


@scenario
def r_protocols():
    v = dict(MODPROBE_BASE)
    v["etc/modprobe.d/cis-net.conf"] = ("# CIS 3.2 uncommon network protocols\ninstall dccp /bin/false\nblacklist dccp\n"
                                        "install sctp /bin/true\nblacklist sctp\nblacklist rds\n# install rds /bin/false\n")
    v["usr/lib/modprobe.d/tipc.conf"] = "# shipped by the hardening package\ninstall tipc /bin/false\nblacklist tipc\n"
    v["etc/modprobe.d/tipc.conf"] = "# local: tipc needed for the cluster heartbeat test, CHG-5120\nblacklist tipc\n"
    c = dict(MODPROBE_BASE)
    c["etc/modprobe.d/cis-net.conf"] = ("# CIS 3.2 uncommon network protocols\ninstall dccp /bin/false\nblacklist dccp\n"
                                        "install sctp /bin/true\nblacklist sctp\nblacklist sctp_diag\n"
                                        "install rds /usr/bin/false\nblacklist rds\n")
    c["usr/lib/modprobe.d/tipc.conf"] = "# shipped by the hardening package\ninstall tipc /bin/false\nblacklist tipc\n"
    c["etc/modprobe.d/rds-rdma.conf"] = "options rds_rdma fmr_pool_size=1024\n"

    def bad(t):
        return {"modprobe//" + m for m in PROTOS
                if modprobe_install(t, m) not in ("/bin/false", "/usr/bin/false", "/bin/true", "/usr/bin/true")}
    RPRED["set5-rhel-rare-protocols"] = bad
    return S("set5-rhel-rare-protocols", None, "auditor",
             "Audit item: the kernel modules for the uncommon network protocols DCCP, SCTP, RDS and TIPC must not be "
             "loadable on these servers, neither automatically nor on explicit request by name. A blacklist entry "
             "alone does not meet this; each module must be overridden so that loading it runs a command that does "
             "nothing (/bin/false or /bin/true). Only the configuration modprobe actually reads counts.", v, c,
             ["modprobe//rds", "modprobe//tipc"],
             "modprobe reads *.conf in /etc/modprobe.d, /run/modprobe.d, /usr/local/lib/modprobe.d, "
             "/usr/lib/modprobe.d and /lib/modprobe.d; a file in /etc hides a same-named one in /usr/lib. Violating: "
             "dccp (/bin/false) and sctp (/bin/true) are fine; rds is only blacklisted (its install line is commented "
             "out); tipc's install line in /usr/lib/modprobe.d/tipc.conf is hidden by /etc/modprobe.d/tipc.conf, "
             "which only blacklists it. Compliant: rds -> /usr/bin/false; tipc only in /usr/lib/modprobe.d/tipc.conf "
             "(no /etc override, so it is in force). Near misses: blacklist sctp_diag, options rds_rdma, the vendor "
             "usb-storage options and firewalld install lines.",
             "rds only blacklisted; tipc's install line hidden by a same-named /etc file", platform="rhel9", classes=RHEL)


# r04 chrony sources --------------------------------------------------------------------------------------------
CHRONY_CONF = """# Use public servers from the pool.ntp.org project.
# Please consider joining the pool (https://www.pool.ntp.org/join.html).
#pool 2.rhel.pool.ntp.org iburst
server ntp1.corp.example.com iburst

# Use NTP servers from DHCP.
# (disabled: our DHCP hands out the ISP's servers)
#sourcedir /run/chrony-dhcp

# Site additions
confdir /etc/chrony.d

# Record the rate at which the system clock gains/losses time.
driftfile /var/lib/chrony/drift

# Allow the system clock to be stepped in the first three updates
# if its offset is larger than 1 second.
makestep 1.0 3

# Enable kernel synchronization of the real-time clock (RTC).
rtcsync

# Allow NTP client access from local network.
#allow 192.168.0.0/16

# Specify file containing keys for NTP authentication.
keyfile /etc/chrony.keys

# Get TAI-UTC offset and leap seconds from the system tz database.
leapsectz right/UTC

# Specify directory for log files.
logdir /var/log/chrony
"""
CORP_NTP = {"ntp1.corp.example.com", "ntp2.corp.example.com"}


def chrony_sources(t):
    import fnmatch
    srcs = []

    def read(path):
        for line in t.get(path, "").splitlines():
            w = line.split("#")[0].split("!")[0].split()
            if not w: continue
            if w[0] in ("server", "pool", "peer") and len(w) > 1: srcs.append(w[1])
            elif w[0] in ("confdir", "include", "sourcedir") and len(w) > 1:
                if w[0] == "include":
                    pat = w[1].lstrip("/")
                    for p in sorted(k for k in t if fnmatch.fnmatch(k, pat)): read(p)
                else:
                    d = w[1].strip("/")
                    ext = ".conf" if w[0] == "confdir" else ".sources"
                    for p in sorted(k for k in t if k.startswith(d + "/") and k.endswith(ext) and "/" not in k[len(d) + 1:]):
                        read(p)
    read("etc/chrony.conf")
    return srcs


@scenario
def r_chrony():
    base = {"etc/chrony.conf": CHRONY_CONF, "etc/sysconfig/chronyd": "# Command-line options for chronyd\nOPTIONS=\"-F 2\"\n",
            "etc/chrony.d/10-corp.conf": "# second corporate server\nserver ntp2.corp.example.com iburst\n"
                                         "# server time.google.com iburst   (rejected in review)\n",
            "etc/chrony.keys": "#1 MD5 HEX:...\n"}
    v = dict(base)
    v["etc/chrony.d/20-cloud.conf"] = "# cloud-init: instance metadata time service\nserver 169.254.169.123 prefer iburst minpoll 4 maxpoll 4\n"
    c = dict(base)
    c["etc/chrony.d/20-cloud.conf.disabled"] = v["etc/chrony.d/20-cloud.conf"]
    c["etc/chrony.d/30-serve.conf"] = "# serve time to the rack\nallow 10.40.0.0/16\nlocal stratum 10\n"

    def bad(t):
        s = chrony_sources(t)
        return set() if s and all(x in CORP_NTP for x in s) else {"chrony//sources"}
    RPRED["set5-rhel-corporate-time"] = bad
    return S("set5-rhel-corporate-time", None, "operator",
             "Our hosts must take their time only from our own time servers, ntp1.corp.example.com and "
             "ntp2.corp.example.com. chronyd must not be given any other server, pool or peer as a time source, "
             "whether in /etc/chrony.conf or in any file it pulls in from there, and at least one of the two must be "
             "configured.", v, c, ["chrony//sources"],
             "chrony.conf has `confdir /etc/chrony.d` (chronyd reads *.conf there). Violating: "
             "/etc/chrony.d/20-cloud.conf adds `server 169.254.169.123` (the cloud metadata time service). "
             "Compliant: the same line only in 20-cloud.conf.disabled (not read). Near misses (both): the commented "
             "pool line and `#sourcedir /run/chrony-dhcp`, a commented `server time.google.com`; compliant only: "
             "`allow 10.40.0.0/16` and `local stratum 10` (serving time, not a source).",
             "a time source other than the two corporate servers (cloud metadata server in a chrony.d drop-in)",
             platform="rhel9", classes=RHEL)


# r05 journald persistent + compressed ---------------------------------------------------------------------------
JOURNALD_CONF = """#  This file is part of systemd.
#
#  systemd is free software; you can redistribute it and/or modify it under the
#  terms of the GNU Lesser General Public License as published by the Free
#  Software Foundation; either version 2.1 of the License, or (at your option)
#  any later version.
#
# Entries in this file show the compile time defaults. Local configuration
# should be created by either modifying this file, or by creating "drop-ins" in
# the journald.conf.d/ subdirectory. The latter is generally recommended.
# Defaults can be restored by simply deleting this file and all drop-ins.
#
# Use 'systemd-analyze cat-config systemd/journald.conf' to display the full config.
#
# See journald.conf(5) for details.

[Journal]
{storage}
#Compress=yes
#Seal=yes
#SplitMode=uid
#SyncIntervalSec=5m
#RateLimitIntervalSec=30s
#RateLimitBurst=10000
#SystemMaxUse=
#SystemKeepFree=
#SystemMaxFileSize=
#RuntimeMaxUse=
#ForwardToSyslog=no
#MaxLevelStore=debug
"""


def journald_eff(t):
    seen = {}
    for d in ("etc/systemd/journald.conf.d", "run/systemd/journald.conf.d", "usr/lib/systemd/journald.conf.d"):
        for p in sorted(t):
            n = p[len(d) + 1:]
            if p.startswith(d + "/") and n.endswith(".conf") and "/" not in n:
                seen.setdefault(n, p)
    val = {}
    for p in ["etc/systemd/journald.conf"] + [seen[n] for n in sorted(seen)]:
        sect = None
        for line in t[p].splitlines():
            line = line.strip()
            if not line or line[0] in "#;": continue
            if line.startswith("["): sect = line; continue
            if sect == "[Journal]" and "=" in line:
                k, x = line.split("=", 1)
                val[k.strip()] = x.strip()
    return val


def journald_bad(t):
    e = journald_eff(t)
    out = set()
    if e.get("Storage", "auto") != "persistent": out.add("journald//Storage")
    cz = e.get("Compress", "yes").lower()
    if cz in ("0", "no", "n", "false", "f", "off"): out.add("journald//Compress")
    return out


@scenario
def r_journald():
    base = {"etc/systemd/journald.conf": JOURNALD_CONF.replace("{storage}", "Storage=persistent"),
            "usr/lib/systemd/journald.conf.d/60-vendor-appliance.conf":
                "# appliance image: save CPU on slow disks\n[Journal]\nCompress=No\nSystemMaxUse=2G\n"}
    v = dict(base)
    v["etc/systemd/journald.conf.d/50-small-disk.conf"] = "[Journal]\n# keep logs in RAM on the small root disk (CHG-4711)\nStorage=volatile\nRuntimeMaxUse=64M\n"
    c = dict(base)
    c["etc/systemd/journald.conf"] = JOURNALD_CONF.replace("{storage}", "#Storage=auto")
    c["etc/systemd/journald.conf.d/10-small-disk.conf"] = "[Journal]\n# keep logs in RAM on the small root disk (CHG-4711)\nStorage=volatile\nRuntimeMaxUse=64M\n"
    c["etc/systemd/journald.conf.d/50-cis.conf"] = "[Journal]\n# CIS 4.2.x: superseded the small-disk setting\nStorage=persistent\n#Storage=volatile\n"
    c["etc/systemd/journald.conf.d/60-vendor-appliance.conf"] = "[Journal]\n# local override of the appliance file\nCompress=yes\nSystemMaxUse=2G\n"
    RPRED["set5-rhel-journal-kept"] = journald_bad
    return S("set5-rhel-journal-kept", None, "auditor",
             "Finding: system logs collected by journald must survive a reboot and must be compressed when written "
             "to disk. Judge the configuration journald actually uses: /etc/systemd/journald.conf plus its drop-ins "
             "(*.conf in journald.conf.d under /etc/systemd, /run/systemd and /usr/lib/systemd; a drop-in in /etc "
             "hides a same-named one in the other directories), drop-ins applied after the main file in file-name "
             "order, the later assignment winning. Storage left unset means 'auto', which is not accepted here; "
             "compression left unset is on.", v, c, ["journald//Storage", "journald//Compress"],
             "Violating: the main file sets Storage=persistent, but the drop-in 50-small-disk.conf sets "
             "Storage=volatile afterwards; the vendor drop-in /usr/lib/systemd/journald.conf.d/60-vendor-appliance.conf "
             "sets Compress=No (booleans are case-insensitive). Compliant: main file leaves Storage unset, "
             "10-small-disk.conf sets volatile but 50-cis.conf (later) sets persistent; an /etc drop-in of the same "
             "name hides the vendor file and sets Compress=yes. Near misses: `#Storage=volatile`, `#Compress=yes` "
             "comments, SystemMaxUse.",
             "Storage=volatile from a drop-in after the main file; Compress=No from a vendor drop-in",
             platform="rhel9", classes=RHEL)


# r06 sudo: pty and log file ----------------------------------------------------------------------------------------
SUDOERS = """## Sudoers allows particular users to run various commands as
## the root user, without needing the root password.
##
## This file must be edited with the 'visudo' command.

## Refuse to run if unable to disable echo on the tty.
Defaults   !visiblepw

Defaults    always_set_home
Defaults    match_group_by_gid

Defaults    env_reset
Defaults    env_keep =  "COLORS DISPLAY HOSTNAME HISTSIZE KDEDIR LS_COLORS"
Defaults    secure_path = /sbin:/bin:/usr/sbin:/usr/bin
{extra}
## Allow root to run any commands anywhere
root    ALL=(ALL)       ALL

## Allows people in group wheel to run all commands
%wheel  ALL=(ALL)       ALL

## Read drop-in files from /etc/sudoers.d (the # here does not mean a comment)
#includedir /etc/sudoers.d
"""


def sudo_defaults(t):
    files = ["etc/sudoers"]
    if re.search(r"^[#@]includedir\s+/etc/sudoers\.d\s*$", t["etc/sudoers"], re.M):
        files += sorted(p for p in t if p.startswith("etc/sudoers.d/") and "." not in p[len("etc/sudoers.d/"):]
                        and not p.endswith("~"))
    glob, per = {}, []
    for f in files:
        for line in t[f].splitlines():
            line = line.strip()
            if not line.startswith("Defaults"): continue
            head, _, rest = line.partition(" ")
            for item in rest.split(","):
                item = item.strip()
                if not item: continue
                if "=" in item:
                    k, x = item.split("=", 1)
                    val = (k.strip(), x.strip().strip('"'))
                elif item.startswith("!"):
                    val = (item[1:].strip(), False)
                else:
                    val = (item, True)
                if head == "Defaults": glob[val[0]] = val[1]
                else: per.append((head, val[0], val[1]))
    return glob, per


def sudo_bad(t):
    g, per = sudo_defaults(t)
    out = set()
    if g.get("use_pty") is not True or any(k == "use_pty" and x is not True for h, k, x in per):
        out.add("sudoers//use_pty")
    if g.get("logfile") != "/var/log/sudo.log": out.add("sudoers//logfile")
    return out


@scenario
def r_sudo():
    v = {"etc/sudoers": SUDOERS.replace("{extra}", "Defaults    use_pty\n"),
         "etc/sudoers.d/10-logging.conf": "# CIS: sudo log file\nDefaults logfile=\"/var/log/sudo.log\"\n",
         "etc/sudoers.d/50-ansible": "# automation account\nDefaults:ansible !use_pty\nansible ALL=(ALL) NOPASSWD: ALL\n"}
    c = {"etc/sudoers": SUDOERS.replace("{extra}", "# Defaults   !use_pty\nDefaults    use_pty\n"),
         "etc/sudoers.d/10-logging": "# CIS: sudo log file\nDefaults logfile=\"/var/log/sudo.log\"\n",
         "etc/sudoers.d/50-ansible": "# automation account\nDefaults:ansible !requiretty\nansible ALL=(ALL) NOPASSWD: ALL\n",
         "etc/sudoers.d/50-ansible~": "Defaults:ansible !use_pty\n"}
    for h in (v, c):
        h["host-attributes.yaml"] = {"/" + k: {"mode": "0440", "owner": "root", "group": "root"} for k in sorted(h)}
    RPRED["set5-rhel-sudo-pty-log"] = sudo_bad
    return S("set5-rhel-sudo-pty-log", None, "effect",
             "Whatever anyone runs through sudo, for every user, must run attached to its own pseudo-terminal, so "
             "that a process it leaves behind cannot keep writing to or reading from the user's terminal; and sudo "
             "must keep its own record of the commands run in the file /var/log/sudo.log. On these hosts sudo does "
             "neither unless it is configured to.", v, c, ["sudoers//use_pty", "sudoers//logfile"],
             "sudo reads /etc/sudoers, then (because of `#includedir /etc/sudoers.d`, which is a directive, not a "
             "comment) the files of /etc/sudoers.d in lexical order, skipping names that contain a dot or end in ~. "
             "Violating: `Defaults use_pty` globally, but `Defaults:ansible !use_pty` in 50-ansible turns it off for "
             "that user; the logfile is set only in 10-logging.conf, which sudo skips (dot in the name). Compliant: "
             "the logfile in 10-logging; near misses: `# Defaults !use_pty` (a real comment), `Defaults:ansible "
             "!requiretty`, an editor backup 50-ansible~ with `!use_pty` (skipped).",
             "use_pty turned off for one user by a drop-in; logfile only in a drop-in sudo skips",
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
