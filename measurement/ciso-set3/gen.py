#!/usr/bin/env python3
"""ciso-set3 (blind-c): held-out CISO scenarios in the project's user format (docs/ciso/index.md):
16 Kubernetes scenarios (kyverno, kubectl-opa, opa-static) and 6 RHEL 9 ones (rhel9-ansible-opa).
Labels are fixed by construction below; every run self-checks each Kubernetes scenario with my own
predicate (PRED): it must flag exactly violating_resources in violating/ and nothing in compliant/.
stdlib only, deterministic.   Usage: python3 gen.py OUTDIR"""
import copy
import hashlib
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


# k01 host network -----------------------------------------------------------------------------
@scenario
def hostnet():
    def objs(bad):
        return [ns("ops"), ns("edge"),
                wl("CronJob", "ops", "net-probe", podspec([ctr("probe")], hostNetwork=bad)),
                wl("StatefulSet", "edge", "dns-cache", podspec([ctr("dns")], hostNetwork=bad,
                                                               dnsPolicy="ClusterFirstWithHostNet" if bad else "ClusterFirst")),
                wl("Deployment", "edge", "gateway", podspec([ctr("gateway")], dnsPolicy="ClusterFirstWithHostNet")),
                svc("edge", "host-network"),
                wl("Deployment", "ops", "netmon", podspec([ctr("netmon", env=[{"name": "HOST_NETWORK", "value": "true"}])],
                                                          hostNetwork=False))]
    v, c = objs(True), objs(False)
    PRED["set3-node-network-stack"] = lambda O: {rid(o) for o, sp, pm in workloads(O) if sp.get("hostNetwork") is True}
    return S("set3-node-network-stack", "5.2.5", "effect",
             "A workload must never share the network stack of the node it runs on: it must not be able to see the "
             "node's interfaces or listen on the node's addresses. This applies to everything we run, scheduled jobs "
             "included.",
             v, c, ["CronJob/ops/net-probe", "StatefulSet/edge/dns-cache"],
             "hostNetwork: true in a CronJob's job template and a StatefulSet. Near misses (compliant): "
             "dnsPolicy ClusterFirstWithHostNet without hostNetwork, a Service named host-network, an env var "
             "HOST_NETWORK=true, hostNetwork: false.",
             "hostNetwork true in the pod template")


# k02 read-only root filesystem -------------------------------------------------------------------
@scenario
def readonly_root():
    def objs(bad):
        init = ctr("fetch-config", secctx=sc(readOnlyRootFilesystem=None) if bad else sc())
        eph = {"name": "debugger-9xk2", "image": img("tools/netshoot", "0.13"), "targetContainerName": "api",
               "securityContext": sc(readOnlyRootFilesystem=False) if bad else sc()}
        return [ns("orders"),
                wl("Deployment", "orders", "checkout", podspec([ctr("checkout")], init=[init],
                                                               volumes=[{"name": "tmp", "emptyDir": {}}])),
                wl("Pod", "orders", "api-7c9f6", podspec([ctr("api")], ephemeralContainers=[eph])),
                wl("Deployment", "orders", "cache", podspec([ctr("cache", volumeMounts=[{"name": "data", "mountPath": "/data"}])],
                                                            volumes=[{"name": "data", "emptyDir": {"medium": "Memory"}}])),
                cm("orders", "runbook", {"notes.md": "readOnlyRootFilesystem: false is allowed for debugging only\n"})]
    PRED["set3-immutable-container-fs"] = lambda O: ctr_bad(O, lambda s, c, sp, pm: s.get("readOnlyRootFilesystem") is not True)
    return S("set3-immutable-container-fs", None, "operator",
             "Nothing running in our containers may write to the container image's own filesystem; anything that "
             "needs scratch space gets a volume. That holds for every container of a pod: init containers and "
             "debug containers attached later included. A container that does not say so explicitly is not compliant.",
             objs(True), objs(False), ["Deployment/orders/checkout", "Pod/orders/api-7c9f6"],
             "readOnlyRootFilesystem unset on an init container; false on an ephemeral debug container. Near misses: "
             "an in-memory emptyDir volume (a volume, allowed), a ConfigMap text naming the field.",
             "a container (init / ephemeral) without readOnlyRootFilesystem: true")


# k03 registry allow-list -------------------------------------------------------------------------
@scenario
def registry():
    def objs(bad):
        init_img = "docker.io/library/busybox:1.36.1" if bad else img("library/busybox", "1.36.1")
        cj_img = "harbor.acme.internal.mirror.example.net/batch/export:3.1" if bad else img("batch/export", "3.1")
        eph_img = "docker.io/nicolaka/netshoot:v0.13" if bad else img("tools/netshoot", "v0.13")
        return [ns("shop"), ns("batch"),
                wl("Deployment", "shop", "catalog", podspec([ctr("catalog")], init=[ctr("wait-db", image=init_img)])),
                wl("CronJob", "batch", "export", podspec([ctr("export", image=cj_img)])),
                wl("Pod", "shop", "search-5d7f", podspec([ctr("search")], ephemeralContainers=[
                    {"name": "debugger-7k1q", "image": eph_img, "targetContainerName": "search", "securityContext": sc()}])),
                wl("Deployment", "shop", "frontend", podspec([ctr("frontend", image="harbor.acme.internal/shop/frontend@"
                                                                  + digest("fe"),
                                                                  env=[{"name": "UPSTREAM_IMAGE", "value": "docker.io/library/nginx:1.27"}])])),
                cm("shop", "mirror-notes", {"mirrors": "docker.io -> harbor.acme.internal/dockerhub\n"})]

    def bad(O):
        return {rid(o) for o, sp, pm in workloads(O)
                if any(not c["image"].startswith("harbor.acme.internal/") for c in all_ctrs(sp))}
    PRED["set3-single-registry"] = bad
    return S("set3-single-registry", None, "operator",
             "Every image our clusters run, whatever kind of container it is in, must be pulled from our own registry "
             "harbor.acme.internal (any project in it). Images straight from Docker Hub or any other registry are "
             "not allowed, even for short-lived debugging.",
             objs(True), objs(False), ["Deployment/shop/catalog", "CronJob/batch/export", "Pod/shop/search-5d7f"],
             "an init container from docker.io, a CronJob image from harbor.acme.internal.mirror.example.net "
             "(a look-alike host), an ephemeral debug container from docker.io. Near misses: a digest-only harbor "
             "image, an env var and a ConfigMap naming docker.io.",
             "an image whose registry host is not harbor.acme.internal")


# k04 digest pinning ------------------------------------------------------------------------------
@scenario
def digests():
    def objs(bad):
        return [ns("payments"), ns("ml"),
                wl("CronJob", "payments", "settle", podspec([ctr("settle", image=img("payments/settle", "4.2.0", pin=not bad))])),
                wl("StatefulSet", "payments", "ledger", podspec([ctr("ledger")],
                                                                 init=[ctr("migrate", image=img("payments/migrate", "4.2.0", pin=not bad))])),
                wl("Deployment", "ml", "trainer", podspec([ctr("trainer", image="harbor.acme.internal/ml/trainer@" + digest("t"))])),
                wl("Deployment", "ml", "serving", podspec([ctr("serving", image=img("ml/serving", "latest"))]))]
    PRED["set3-immutable-image-refs"] = lambda O: {rid(o) for o, sp, pm in workloads(O)
                                                   if any("@sha256:" not in c["image"] for c in all_ctrs(sp))}
    return S("set3-immutable-image-refs", None, "auditor",
             "Audit finding to close: deployed images must be immutable references. Each container image, in every "
             "workload type and in init containers, must be referenced by its content digest (sha256); a tag alone, "
             "even a version tag, does not meet this. A tag written beside the digest is acceptable.",
             objs(True), objs(False), ["CronJob/payments/settle", "StatefulSet/payments/ledger"],
             "version tag without digest in a CronJob and in a StatefulSet's init container. Near misses: "
             "`:latest@sha256:...` (tag beside digest: pinned), a digest-only reference.",
             "an image reference without @sha256:")


# k05 memory limits -------------------------------------------------------------------------------
@scenario
def memlimits():
    def objs(bad):
        return [ns("reports"),
                wl("Deployment", "reports", "renderer", podspec([ctr("renderer")],
                                                                init=[ctr("fonts", resources={"requests": {"memory": "64Mi"}} if bad else LIM)])),
                wl("Job", "reports", "backfill", podspec([ctr("backfill", resources={"limits": {"cpu": "2"}} if bad else
                                                               {"limits": {"cpu": "2", "memory": "4Gi"}})])),
                wl("Deployment", "reports", "api", podspec([ctr("api", resources={"limits": {"memory": "1Gi"}})])),
                wl("DaemonSet", "reports", "agent", podspec([ctr("agent", resources={"requests": {"cpu": "50m", "memory": "64Mi"},
                                                                                     "limits": {"memory": "64Mi", "ephemeral-storage": "1Gi"}})])),
                {"apiVersion": "v1", "kind": "LimitRange", "metadata": meta("defaults", "reports"),
                 "spec": {"limits": [{"type": "Container", "default": {"memory": "512Mi"}}]}}]
    PRED["set3-memory-ceiling"] = lambda O: {rid(o) for o, sp, pm in workloads(O)
                                             if any("memory" not in ((c.get("resources") or {}).get("limits") or {})
                                                    for c in all_ctrs(sp))}
    return S("set3-memory-ceiling", None, "operator",
             "Every container we declare, init containers included, must state in its own spec the most memory it may "
             "use, so that one runaway process cannot starve its neighbours. A memory request or a CPU limit is not "
             "a ceiling, and namespace defaults do not count.",
             objs(True), objs(False), ["Deployment/reports/renderer", "Job/reports/backfill"],
             "an init container with only a memory request; a Job with only a CPU limit. Near misses: a memory limit "
             "without any request, a LimitRange default (not counted, said in the requirement; the compliant "
             "workloads all declare their own).",
             "a container without resources.limits.memory")


# k06 drop all capabilities ---------------------------------------------------------------------
@scenario
def dropall():
    def objs(bad):
        return [ns("net"), ns("web"),
                wl("Deployment", "net", "vpn-gw", podspec([ctr("vpn")], init=[ctr("iptables-setup",
                    secctx=sc(capabilities={"drop": ["NET_RAW"]}) if bad else sc())])),
                wl("DaemonSet", "net", "flow-exporter", podspec([ctr("exporter", secctx=sc(capabilities=None) if bad else sc())])),
                wl("Deployment", "web", "site", podspec([ctr("site", secctx=sc(capabilities={"drop": ["ALL", "NET_RAW"]}))])),
                wl("Pod", "web", "site-debug", podspec([ctr("site")], ephemeralContainers=[
                    {"name": "debugger-x1", "image": img("tools/netshoot", "0.13"), "targetContainerName": "site",
                     "securityContext": sc(capabilities={"drop": ["ALL"]})}]))]
    PRED["set3-no-capabilities"] = lambda O: ctr_bad(O, lambda s, c, sp, pm: "ALL" not in (s.get("capabilities") or {}).get("drop", [])
                                                     or bool((s.get("capabilities") or {}).get("add")))
    return S("set3-no-capabilities", "5.2.10", "CIS",
             "CIS 5.2.10 (Minimize the admission of containers with capabilities assigned): containers otherwise run "
             "with the container runtime's default set of Linux capabilities, pieces of root's power that most "
             "applications never need. Our reading: every container (init and ephemeral "
             "included) must drop ALL capabilities and add none back.",
             objs(True), objs(False), ["Deployment/net/vpn-gw", "DaemonSet/net/flow-exporter"],
             "an init container that drops only NET_RAW; a DaemonSet container with no capabilities section. "
             "Near misses: drop [ALL, NET_RAW] (redundant but compliant), an ephemeral container that drops ALL.",
             "a container whose capabilities.drop lacks ALL")


# k07 namespace pod security admission -------------------------------------------------------------
@scenario
def psa():
    E = "pod-security.kubernetes.io/enforce"

    def objs(bad):
        return [ns("kube-system", {}),
                ns("storefront", {E: "restricted", "pod-security.kubernetes.io/enforce-version": "v1.30"}),
                ns("legacy", {"pod-security.kubernetes.io/warn": "restricted", "pod-security.kubernetes.io/audit": "baseline"}
                   if bad else {E: "baseline", "pod-security.kubernetes.io/warn": "restricted"}),
                ns("batch", {E: "privileged" if bad else "baseline"}),
                ns("analytics", {E: "baseline", "pod-security.kubernetes.io/audit": "privileged"}),
                wl("Deployment", "storefront", "web", podspec([ctr("web")]))]

    def bad(O):
        out = set()
        for o in O:
            if o["kind"] == "Namespace" and o["metadata"]["name"] not in ("kube-system", "kube-public", "kube-node-lease"):
                if o["metadata"].get("labels", {}).get(E) not in ("baseline", "restricted"):
                    out.add(f"Namespace//{o['metadata']['name']}")
        return out
    PRED["set3-namespaces-enforce-pss"] = bad
    return S("set3-namespaces-enforce-pss", "5.2.1", "effect",
             "Every namespace except kube-system, kube-public and kube-node-lease must have the cluster's built-in "
             "pod admission checks actually rejecting pods that break at least the Baseline Pod Security Standard "
             "(Restricted is fine too). Warning or auditing alone does not count.",
             objs(True), objs(False), ["Namespace//legacy", "Namespace//batch"],
             "legacy has only warn/audit labels; batch enforces privileged. Near misses: an enforce-version pin, "
             "audit=privileged beside enforce=baseline, kube-system without labels (exempt).",
             "pod-security.kubernetes.io/enforce missing or privileged")


# k08 AppArmor ------------------------------------------------------------------------------------
@scenario
def apparmor():
    A = "container.apparmor.security.beta.kubernetes.io/"

    def objs(bad):
        return [ns("crm"),
                wl("CronJob", "crm", "contact-sync", podspec([ctr("sync")]),
                   tmpl_annotations={A + "sync": "unconfined" if bad else "runtime/default"}),
                wl("Deployment", "crm", "portal", podspec([ctr("portal"), ctr("log-tailer", secctx=sc(
                    appArmorProfile={"type": "Unconfined"}) if bad else sc(appArmorProfile={"type": "RuntimeDefault"}))])),
                wl("Deployment", "crm", "mailer", podspec([ctr("mailer", secctx=sc(appArmorProfile={
                    "type": "Localhost", "localhostProfile": "acme-mailer"}))])),
                wl("Deployment", "crm", "search", podspec([ctr("search")], securityContext={"appArmorProfile": {"type": "RuntimeDefault"}}),
                   tmpl_annotations={"acme.io/apparmor-review": "unconfined-ok-until-2026-01"})]

    def bad(O):
        out = set()
        for o, sp, pm in workloads(O):
            ann = pm.get("annotations", {})
            if any(k.startswith(A) and v == "unconfined" for k, v in ann.items()):
                out.add(rid(o))
            if (sp.get("securityContext") or {}).get("appArmorProfile", {}).get("type") == "Unconfined":
                out.add(rid(o))
            for c in all_ctrs(sp):
                if (c.get("securityContext") or {}).get("appArmorProfile", {}).get("type") == "Unconfined":
                    out.add(rid(o))
        return out
    PRED["set3-apparmor-stays-on"] = bad
    return S("set3-apparmor-stays-on", None, "auditor",
             "No container may run with its AppArmor confinement switched off, whichever way the workload says so "
             "(the securityContext field or the older per-container annotation on the pod). The runtime's default "
             "profile or a profile loaded on the node are both acceptable.",
             objs(True), objs(False), ["CronJob/crm/contact-sync", "Deployment/crm/portal"],
             "the beta annotation `unconfined` on a CronJob's pod template; appArmorProfile Unconfined on a sidecar. "
             "Near misses: Localhost profile, a pod-level RuntimeDefault, an unrelated annotation whose value says "
             "'unconfined-ok-until-2026-01'.",
             "AppArmor Unconfined on some container")


# k09 SELinux types -----------------------------------------------------------------------------
@scenario
def selinux():
    OK = ("container_t", "container_init_t", "container_kvm_t")

    def objs(bad):
        return [ns("storage"), ns("media"),
                wl("DaemonSet", "storage", "csi-node", podspec([ctr("csi")], securityContext={
                    "seLinuxOptions": {"type": "spc_t" if bad else "container_t"}})),
                wl("Job", "media", "transcode-once", podspec([ctr("transcode")], init=[ctr("prep", secctx=sc(
                    seLinuxOptions={"type": "unconfined_t" if bad else "container_init_t"}))])),
                wl("Deployment", "media", "thumbs", podspec([ctr("thumbs", secctx=sc(seLinuxOptions={"level": "s0:c123,c456"}))])),
                wl("Deployment", "media", "uploader", podspec([ctr("uploader", secctx=sc(seLinuxOptions={"user": "system_u", "role": "system_r", "type": "container_t"}))]))]

    def bad(O):
        out = set()
        for o, sp, pm in workloads(O):
            ts = [(sp.get("securityContext") or {}).get("seLinuxOptions", {}).get("type")]
            ts += [(c.get("securityContext") or {}).get("seLinuxOptions", {}).get("type") for c in all_ctrs(sp)]
            if any(t is not None and t not in OK for t in ts):
                out.add(rid(o))
        return out
    PRED["set3-selinux-container-types"] = bad
    return S("set3-selinux-container-types", None, "operator",
             "Pods and containers may only run under the standard container SELinux types (container_t, "
             "container_init_t, container_kvm_t) or leave the type to the runtime; none may pick another type such "
             "as spc_t, which switches SELinux separation off. Setting only an MCS level is fine.",
             objs(True), objs(False), ["DaemonSet/storage/csi-node", "Job/media/transcode-once"],
             "pod-level spc_t on a DaemonSet; unconfined_t on a Job's init container. Near misses: only an MCS "
             "level, explicit user/role with container_t.",
             "an SELinux type outside the allowed three")


# k10 /proc mount ---------------------------------------------------------------------------------
@scenario
def procmount():
    def objs(bad):
        return [ns("sandbox"),
                wl("Pod", "sandbox", "builder", podspec([ctr("builder", secctx=sc(procMount="Default"))],
                                                        init=[ctr("unpack", secctx=sc(procMount="Unmasked" if bad else "Default"))],
                                                        hostUsers=False)),
                wl("CronJob", "sandbox", "image-scan", podspec([ctr("scan", secctx=sc(procMount="Unmasked") if bad else sc())],
                                                               hostUsers=False)),
                wl("Deployment", "sandbox", "runner", podspec([ctr("runner")], hostUsers=False))]
    PRED["set3-proc-masked"] = lambda O: ctr_bad(O, lambda s, c, sp, pm: s.get("procMount", "Default") != "Default")
    return S("set3-proc-masked", None, "effect",
             "Containers must keep the runtime's masking of sensitive /proc paths: none of them, init containers and "
             "scheduled jobs included, may ask for an unmasked /proc, even in a user namespace.",
             objs(True), objs(False), ["Pod/sandbox/builder", "CronJob/sandbox/image-scan"],
             "procMount Unmasked on an init container and in a CronJob (both with hostUsers: false). Near misses: "
             "procMount Default written out, hostUsers: false alone.",
             "securityContext.procMount Unmasked")


# k11 create persistent volumes (CIS 5.1.9) ----------------------------------------------------------
@scenario
def pv_create():
    def objs(bad):
        return [ns("storage-team"),
                role("storage-admin", [rule([""], ["persistentvolumeclaims"], ["get", "list", "create", "delete"]),
                                       rule([""], ["persistentvolumes"], ["get", "list", "create"] if bad else ["get", "list"])]),
                role("provisioner-helper", [rule([""], ["persistentvolumes"] if bad else ["persistentvolumes/status"],
                                                 ["*"] if bad else ["get"])]),
                role("system:controller:persistent-volume-binder", [rule([""], ["persistentvolumes"], ["create", "delete", "get", "list", "update", "watch"])]),
                role("pvc-maker", [rule([""], ["persistentvolumeclaims"], ["create"])], namespace="storage-team"),
                role("sc-reader", [rule(["storage.k8s.io"], ["storageclasses", "volumeattachments"], ["get", "list", "watch"])])]

    def bad(O):
        return {rid(o) for o, rules in rules_of(O) if any(grants(r, [""], ["persistentvolumes"], ["create"]) for r in rules)}
    PRED["set3-cis-pv-create"] = bad
    return S("set3-cis-pv-create", "5.1.9", "CIS",
             "CIS 5.1.9 (Minimize access to create persistent volumes): whoever can create a PersistentVolume can "
             "define a hostPath volume and so reach files of the node, and Pod Security Admission does not look at "
             "PersistentVolumes; access to create them must be kept to the minimum. For us: no Role or ClusterRole other than the "
             "Kubernetes system: roles may allow creating PersistentVolumes.",
             objs(True), objs(False), ["ClusterRole//storage-admin", "ClusterRole//provisioner-helper"],
             "create on persistentvolumes in storage-admin's second rule; verbs * on persistentvolumes. Near "
             "misses: create on persistentvolumeclaims (claims, not volumes), get on persistentvolumes/status, the "
             "system:controller role (exempt), storage.k8s.io reads.",
             "create (or *) on persistentvolumes in a non-system role")


# k12 nodes/proxy (CIS 5.1.10) ----------------------------------------------------------------------
@scenario
def nodes_proxy():
    def objs(bad):
        return [role("metrics-scraper", [rule([""], ["nodes", "nodes/metrics", "nodes/proxy" if bad else "nodes/stats"], ["get", "list", "watch"])]),
                role("read-everything", [rule(["", "apps"], ["*"] if bad else ["pods", "services", "deployments"], ["get", "list", "watch"])]),
                role("system:kubelet-api-admin", [rule([""], ["nodes/proxy", "nodes/log", "nodes/stats", "nodes/metrics"], ["*"])]),
                role("node-labeler", [rule([""], ["nodes"], ["get", "patch"])]),
                role("proxy-viewer", [rule([""], ["services/proxy"], ["get"])])]

    def bad(O):
        return {rid(o) for o, rules in rules_of(O) if any(grants(r, [""], ["nodes/proxy"], ["get", "create", "list", "watch", "update", "patch", "delete"]) for r in rules)}
    PRED["set3-kubelet-via-proxy"] = bad
    return S("set3-kubelet-via-proxy", "5.1.10", "auditor",
             "Auditor's check: apart from the Kubernetes system: roles, no Role or ClusterRole may give any access to "
             "the proxy subresource of nodes, the path by which a caller reaches a node's kubelet API (and with it "
             "command execution in any pod on that node) through the API server.",
             objs(True), objs(False), ["ClusterRole//metrics-scraper", "ClusterRole//read-everything"],
             "get on nodes/proxy beside nodes/metrics; resources * in the core group (covers every subresource). "
             "Near misses: nodes/stats and nodes/metrics, services/proxy, system:kubelet-api-admin (exempt), "
             "patch on nodes.",
             "any verb on nodes/proxy (directly or via *) in a non-system role")


# k13 webhook configurations (CIS 5.1.12) -----------------------------------------------------------
@scenario
def webhooks():
    AR = "admissionregistration.k8s.io"
    W = ["validatingwebhookconfigurations", "mutatingwebhookconfigurations"]

    def objs(bad):
        return [role("cert-injector", [rule([""], ["secrets"], ["get"], names=["ca-bundle"]),
                                       rule([AR], ["mutatingwebhookconfigurations"], ["get", "list", "watch", "patch"] if bad else ["get", "list", "watch"])]),
                role("policy-operator", [rule([AR] if bad else [AR], ["*"] if bad else ["validatingadmissionpolicies"], ["*"] if bad else ["get", "list"])]),
                role("platform-automation", [rule([AR], W, ["*"])]),
                role("webhook-viewer", [rule([AR], W, ["get", "list", "watch"])]),
                role("system:controller:generic-garbage-collector", [rule(["*"], ["*"], ["get", "list", "watch", "patch", "update", "delete"])])]

    def bad(O):
        return {rid(o) for o, rules in rules_of(O, exempt=lambda o: o["metadata"]["name"].startswith("system:")
                                                  or o["metadata"]["name"] == "platform-automation")
                if any(grants(r, [AR], W, ["create", "update", "patch", "delete", "deletecollection"]) for r in rules)}
    PRED["set3-webhook-config-writers"] = bad
    return S("set3-webhook-config-writers", "5.1.12", "operator",
             "Only our platform automation (the ClusterRole platform-automation) and the Kubernetes system: roles may "
             "change which admission webhooks the API server calls: no other Role or ClusterRole may create, modify "
             "or delete validating or mutating webhook configurations. Reading them is fine.",
             objs(True), objs(False), ["ClusterRole//cert-injector", "ClusterRole//policy-operator"],
             "patch on mutatingwebhookconfigurations in cert-injector's second rule; resources * with verbs * in "
             "admissionregistration.k8s.io. Near misses: read-only access, platform-automation (named exemption), "
             "a system: controller with patch on * (exempt), get/list on validatingadmissionpolicies.",
             "a write verb (or *) on webhook configurations in a non-exempt role")


# k14 service account token creation (CIS 5.1.13) ----------------------------------------------------
@scenario
def sa_tokens():
    def objs(bad):
        return [ns("ci"), ns("vault"),
                role("token-minter", [rule([""], ["serviceaccounts/token" if bad else "serviceaccounts"], ["create"])], namespace="ci"),
                role("vault-auth", [rule(["authentication.k8s.io"], ["tokenreviews"], ["create"]),
                                    rule([""], ["serviceaccounts", "serviceaccounts/token"] if bad else ["serviceaccounts"], ["get", "create"] if bad else ["get"])]),
                role("sa-manager", [rule([""], ["serviceaccounts"], ["create", "delete", "get", "list"])], namespace="ci"),
                role("system:kube-controller-manager", [rule([""], ["serviceaccounts/token"], ["create"])])]

    def bad(O):
        return {rid(o) for o, rules in rules_of(O) if any(grants(r, [""], ["serviceaccounts/token"], ["create"]) for r in rules)}
    PRED["set3-no-token-minting"] = bad
    return S("set3-no-token-minting", "5.1.13", "effect",
             "Apart from the Kubernetes system: roles, no Role or ClusterRole may let anyone mint new tokens for "
             "existing ServiceAccounts through the API (a minted token acts as that ServiceAccount). Managing "
             "ServiceAccount objects themselves, or reviewing tokens, is not minting.",
             objs(True), objs(False), ["Role/ci/token-minter", "ClusterRole//vault-auth"],
             "create on serviceaccounts/token in a Role and in vault-auth's second rule. Near misses: create on "
             "serviceaccounts and on tokenreviews, the system:kube-controller-manager role (exempt).",
             "create (or *) on serviceaccounts/token in a non-system role")


# k15 exec into pods -------------------------------------------------------------------------------
@scenario
def exec_pods():
    def objs(bad):
        return [ns("payments"),
                role("sre-break-glass", [rule([""], ["pods/exec", "pods/attach", "pods/portforward"], ["create", "get"])]),
                role("dev-debug", [rule([""], ["pods", "pods/log"], ["get", "list"]),
                                   rule([""], ["pods/exec"] if bad else ["pods/ephemeralcontainers"], ["create", "get"] if bad else ["get"])]),
                role("oncall", [rule([""], ["pods", "pods/exec", "pods/log"] if bad else ["pods", "pods/log"], ["*"] if bad else ["get", "list", "delete"])],
                     namespace="payments"),
                role("log-reader", [rule([""], ["pods/log"], ["get"])], namespace="payments"),
                binding("sre-break-glass", "ClusterRole", "sre-break-glass", [group("sre")])]

    def bad(O):
        return {rid(o) for o, rules in rules_of(O, exempt=lambda o: o["metadata"]["name"] == "sre-break-glass")
                if any(grants(r, [""], ["pods/exec"], ["create", "get"]) for r in rules)}
    PRED["set3-shell-only-break-glass"] = bad
    return S("set3-shell-only-break-glass", None, "operator",
             "Opening a shell or running a command inside a running container must only be possible through our "
             "break-glass ClusterRole sre-break-glass; no other Role or ClusterRole in the cluster may grant it. "
             "Reading logs and deleting pods are fine.",
             objs(True), objs(False), ["ClusterRole//dev-debug", "Role/payments/oncall"],
             "create/get on pods/exec in dev-debug's second rule; verbs * on pods/exec in a namespaced Role. Near "
             "misses: pods/log, delete on pods, get on pods/ephemeralcontainers, the break-glass role itself. "
             "No system: roles are in the manifests.",
             "create/get (or *) on pods/exec in a role other than sre-break-glass")


# k16 ingress TLS ---------------------------------------------------------------------------------
@scenario
def ingress_tls():
    def ing(namespace, name, hosts, tls_hosts):
        spec = {"ingressClassName": "nginx", "rules": [
            {"host": h, "http": {"paths": [{"path": "/", "pathType": "Prefix",
                                            "backend": {"service": {"name": name, "port": {"number": 80}}}}]}} for h in hosts]}
        if tls_hosts is not None:
            spec["tls"] = [{"hosts": tls_hosts, "secretName": f"{name}-tls"}]
        return {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": meta(name, namespace), "spec": spec}

    def objs(bad):
        return [ns("shop"), ns("docs"),
                ing("shop", "storefront", ["shop.acme.example", "www.shop.acme.example"],
                    ["shop.acme.example"] if bad else ["shop.acme.example", "www.shop.acme.example"]),
                ing("docs", "handbook", ["handbook.acme.example"], None if bad else ["handbook.acme.example"]),
                ing("shop", "eu", ["eu.shop.acme.example"], ["*.shop.acme.example"]),
                ing("shop", "api", ["api.acme.example"], ["api.acme.example", "legacy-api.acme.example"])]

    def covered(h, tls):
        return h in tls or any(t.startswith("*.") and h.split(".", 1)[-1] == t[2:] and "." in h for t in tls)

    def bad(O):
        out = set()
        for o in O:
            if o["kind"] == "Ingress":
                tls = [h for t in o["spec"].get("tls", []) for h in t.get("hosts", [])]
                if any(not covered(r["host"], tls) for r in o["spec"]["rules"] if r.get("host")):
                    out.add(rid(o))
        return out
    PRED["set3-ingress-tls-every-host"] = bad
    return S("set3-ingress-tls-every-host", None, "auditor",
             "Every host name that an Ingress routes must also be listed in that Ingress's TLS section, so that no "
             "host we publish is served over plain HTTP. A wildcard TLS entry covers the names directly below it.",
             objs(True), objs(False), ["Ingress/shop/storefront", "Ingress/docs/handbook"],
             "storefront lists one of its two hosts in tls; handbook has no tls section. Near misses: "
             "eu.shop.acme.example covered by *.shop.acme.example, an extra tls host that no rule uses.",
             "an Ingress rule host not covered by the Ingress's tls hosts")


# ------------------------------------------------------------------ RHEL 9 (sshd)
MAIN = """#\t$OpenBSD: sshd_config,v 1.104 2021/07/02 05:11:21 dtucker Exp $

# To modify the system-wide sshd configuration, create a  *.conf  file under
#  /etc/ssh/sshd_config.d/  which will be automatically included below
Include /etc/ssh/sshd_config.d/*.conf

#Port 22
#AddressFamily any
#ListenAddress 0.0.0.0
{extra}
#HostKey /etc/ssh/ssh_host_rsa_key
#HostKey /etc/ssh/ssh_host_ecdsa_key
#HostKey /etc/ssh/ssh_host_ed25519_key

# Authentication:
#LoginGraceTime 2m
#PermitRootLogin prohibit-password
#StrictModes yes
#MaxAuthTries 6
#MaxSessions 10

#PubkeyAuthentication yes
AuthorizedKeysFile\t.ssh/authorized_keys

#PermitEmptyPasswords no
#ClientAliveInterval 0
#ClientAliveCountMax 3

# no default banner path
#Banner none

# override default of no subsystems
Subsystem\tsftp\t/usr/libexec/openssh/sftp-server
"""
REDHAT50 = """# This system is following system-wide crypto policy. The changes to
# crypto properties (Ciphers, MACs, ...) will not have any effect in
# this or following included files. To override some configuration option,
# write it before this block or include it before this file.
# Please, see manual pages for update-crypto-policies(8) and sshd_config(5).
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
CRYPTO = ("Ciphers aes256-gcm@openssh.com,chacha20-poly1305@openssh.com,aes256-ctr,aes128-gcm@openssh.com,aes128-ctr\n"
          "MACs hmac-sha2-256-etm@openssh.com,hmac-sha1-etm@openssh.com,umac-128-etm@openssh.com,hmac-sha2-512-etm@openssh.com,"
          "hmac-sha2-256,hmac-sha1,umac-128@openssh.com,hmac-sha2-512\n"
          "KexAlgorithms curve25519-sha256,curve25519-sha256@libssh.org,ecdh-sha2-nistp256,ecdh-sha2-nistp384\n")


def host(dropins, extra="", files=None):
    t = {"etc/ssh/sshd_config": MAIN.replace("{extra}", extra),
         "etc/ssh/sshd_config.d/50-redhat.conf": REDHAT50,
         "etc/crypto-policies/back-ends/opensshserver.config": CRYPTO}
    for name, text in dropins.items():
        t["etc/ssh/sshd_config.d/" + name] = text
    t.update(files or {})
    return t


RHEL = ["rhel9-ansible-opa"]


@scenario
def r_rootlogin():
    v = host({"10-acme.conf": "# fleet baseline\nPermitRootLogin prohibit-password\nMaxAuthTries 4\n"})
    c = host({"10-acme.conf": "# fleet baseline\nPermitRootLogin no\nMaxAuthTries 4\n",
              "60-legacy.conf": "# kept for the old backup job; ignored: 10-acme.conf sets it first\nPermitRootLogin yes\n"})
    return S("set3-rhel-no-root-ssh", "5.2.7", "operator", "Nobody may log in to our RHEL servers over SSH as root, "
             "not even with a key; administrators log in as themselves and escalate.", v, c,
             ["sshd//PermitRootLogin"],
             "Violating: PermitRootLogin prohibit-password (keys still allowed) in a drop-in; the main file's line is "
             "commented. Compliant: `no` in 10-acme.conf; 60-legacy.conf says yes but sshd keeps the first value it "
             "reads (drop-ins in lexical order, included at the top of sshd_config) — what `sshd -T` reports. "
             "Unset would violate (the default is prohibit-password).",
             "effective PermitRootLogin is not `no`", platform="rhel9", classes=RHEL)


@scenario
def r_idle():
    v = host({"20-timeouts.conf": "ClientAliveInterval 0\nClientAliveCountMax 3\n"})
    c = host({"20-timeouts.conf": "ClientAliveInterval 300\nClientAliveCountMax 3\n"})
    return S("set3-rhel-ssh-idle-drop", "5.2.20", "auditor", "Idle SSH sessions must be disconnected by the server "
             "after no more than 15 minutes without a response from the client.", v, c,
             ["sshd//ClientAliveInterval"],
             "Violating: ClientAliveInterval 0 (keep-alive probing off, so idle sessions are never dropped). "
             "Compliant: 300 s x 3 probes = 15 minutes (exactly the limit).",
             "ClientAliveInterval 0 disables the idle cut-off", platform="rhel9", classes=RHEL)


@scenario
def r_grace():
    v = host({"10-acme.conf": "LoginGraceTime 2m\n"})
    c = host({"10-acme.conf": "LoginGraceTime 1m\n"})
    return S("set3-rhel-ssh-login-grace", "5.2.19", "CIS", "CIS 5.2.19 (Ensure SSH LoginGraceTime is set to one minute "
             "or less): the time the SSH server allows a client to complete authentication must be between 1 and 60 "
             "seconds, so that unauthenticated connections do not pile up.", v, c, ["sshd//LoginGraceTime"],
             "Violating: `2m` (120 s, a time-format value). Compliant: `1m` (60 s, in range); the main file's "
             "commented `#LoginGraceTime 2m` is a near miss in both.",
             "LoginGraceTime 2m = 120 s > 60 s", platform="rhel9", classes=RHEL)


@scenario
def r_ciphers():
    v = host({"40-ciphers.conf": "# ordered before 50-redhat.conf on purpose, so it wins over the crypto policy\n"
                                 "Ciphers aes256-gcm@openssh.com,aes256-ctr,aes256-cbc,aes128-ctr\n"})
    c = host({"40-ciphers.conf": "# ordered before 50-redhat.conf on purpose, so it wins over the crypto policy\n"
                                 "Ciphers aes256-gcm@openssh.com,aes256-ctr,aes128-ctr\n",
              "90-old.conf": "# superseded (sshd keeps the first Ciphers it reads)\nCiphers aes256-cbc,3des-cbc\n"})
    return S("set3-rhel-ssh-no-cbc", None, "operator", "Our SSH servers must not offer any CBC-mode cipher to "
             "clients.", v, c, ["sshd//Ciphers"],
             "Violating: aes256-cbc in the explicit Ciphers list of a drop-in read before the crypto-policy include. "
             "Compliant: ctr/gcm only (ctr is the near miss); a later 90-old.conf with CBC ciphers is ignored "
             "(first value wins); the crypto-policy back-end offers no CBC.",
             "the effective Ciphers list contains aes256-cbc", platform="rhel9", classes=RHEL)


@scenario
def r_empty_pw():
    v = host({"30-kiosk.conf": "# kiosk accounts\nPermitEmptyPasswords yes\n"}, extra="")
    c = host({"30-kiosk.conf": "# kiosk accounts (disabled)\n#PermitEmptyPasswords yes\nPermitEmptyPasswords no\n"})
    return S("set3-rhel-ssh-empty-passwords", "5.2.9", "effect", "An account whose password is empty must not be "
             "able to log in over SSH.", v, c, ["sshd//PermitEmptyPasswords"],
             "Violating: PermitEmptyPasswords yes in a drop-in (the main file only has the commented default). "
             "Compliant: the drop-in sets `no`, with the old `yes` commented out.",
             "PermitEmptyPasswords yes", platform="rhel9", classes=RHEL)


@scenario
def r_banner():
    issue = "Authorized uses only. All activity may be monitored and reported.\n"
    v = host({"10-acme.conf": "Banner none\n"}, files={"etc/issue.net": issue})
    c = host({"10-acme.conf": "Banner /etc/issue.net\n"}, files={"etc/issue.net": issue})
    return S("set3-rhel-ssh-warning-banner", "5.2.15", "auditor", "Before anyone authenticates over SSH, the server "
             "must show them our legal warning text, the one kept in /etc/issue.net.", v, c, ["sshd//Banner"],
             "Violating: `Banner none` in a drop-in although /etc/issue.net holds the text. Compliant: "
             "`Banner /etc/issue.net`. Unset would violate (no banner by default).",
             "Banner is none", platform="rhel9", classes=RHEL)


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
                    p = os.path.join(e, "host", path)
                    os.makedirs(os.path.dirname(p), exist_ok=True)
                    with open(p, "w") as f:
                        f.write(text)
        if s["platform"] == "kubernetes":
            ids = {rid(o) for o in s["violating"]} | {f"Namespace//{o['metadata']['name']}" for o in s["violating"]
                                                        if o["kind"] == "Namespace"}
            assert not [b for b in s["bad"] if b not in ids], s["id"]
            got_v, got_c = PRED[s["id"]](s["violating"]), PRED[s["id"]](s["compliant"])
            assert got_v == set(s["bad"]), (s["id"], sorted(got_v), s["bad"])
            assert not got_c, (s["id"], sorted(got_c))
            # leave-one-in cleanliness: objects not listed are identical in both environments or compliant
        table.append({"id": s["id"], "cis": s["cis"], "voice": s["voice"], "platform": s["platform"],
                      "classes": s["classes"], "violating": s["bad"], "why": s["why"], "notes": s["notes"]})
    with open(os.path.join(out, "labels.json"), "w") as f:
        json.dump(table, f, indent=1)
        f.write("\n")
    for t in table:
        print(f"| `{t['id']}` | {t['cis'] or '—'} | {t['voice']} | {', '.join(t['classes'])} | "
              f"{'<br>'.join('`' + v + '`' for v in t['violating'])} | {t['why']} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py OUTDIR")
    write(sys.argv[1])
