#!/usr/bin/env python3
"""ciso-set4 (blind-ciso4): held-out CISO scenarios in the project's user format (docs/ciso/index.md):
13 Kubernetes scenarios (kyverno, kubectl-opa, opa-static) and 7 RHEL 9 ones (rhel9-ansible-opa).
Labels are fixed by construction below; every run self-checks every scenario with my own predicate
(PRED for Kubernetes, RPRED for RHEL 9): it must flag exactly violating_resources in violating/ and
nothing in compliant/. The YAML emitter and object helpers are copied from measurement/ciso-set3/gen.py.
stdlib only, deterministic.   Usage: python3 gen.py OUTDIR"""
import copy
import hashlib
import json
import os
import re
import sys

K8S = ["kyverno", "kubectl-opa", "opa-static"]

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


# k01 external exposure through Services --------------------------------------------------------
@scenario
def exposure():
    def objs(bad):
        return [ns("shop"), ns("billing"), ns("ops"), ns("ingress-nginx"),
                svcx("ingress-nginx", "ingress-nginx-controller", "LoadBalancer",
                     [{"name": "https", "port": 443, "targetPort": "https"}], externalTrafficPolicy="Local"),
                svcx("shop", "web", "LoadBalancer" if bad else "ClusterIP"),
                svcx("billing", "invoice-api", None, **({"externalIPs": ["203.0.113.10"]} if bad else {})),
                svcx("ops", "grafana", "NodePort" if bad else None,
                     [dict({"name": "web", "port": 3000, "targetPort": 3000}, **({"nodePort": 30300} if bad else {}))]),
                svcx("shop", "catalog-headless", None, clusterIP="None"),
                {"apiVersion": "v1", "kind": "Service", "metadata": meta("payments-psp", "billing"),
                 "spec": {"type": "ExternalName", "externalName": "api.psp.example.com"}},
                svcx("ops", "node-exporter-proxy", "ClusterIP", [{"name": "nodeport-metrics", "port": 9100, "targetPort": 9100}]),
                wl("Deployment", "shop", "web", podspec([ctr("web")]))]

    def bad(O):
        return {rid(o) for o in O if o["kind"] == "Service" and o["metadata"]["namespace"] != "ingress-nginx"
                and (o["spec"].get("type") in ("NodePort", "LoadBalancer") or o["spec"].get("externalIPs"))}
    PRED["set4-only-ingress-exposed"] = bad
    return S("set4-only-ingress-exposed", None, "operator",
             "Apart from the ingress controller in the ingress-nginx namespace, nothing in our clusters may be "
             "reachable from outside the cluster through a Service: no ports opened on the nodes, no cloud load "
             "balancers, and no outside addresses attached to a Service.",
             objs(True), objs(False), ["Service/shop/web", "Service/billing/invoice-api", "Service/ops/grafana"],
             "Violating: type LoadBalancer; a ClusterIP Service with externalIPs (reachable from outside on that "
             "address, no type change); type NodePort. Near misses (both): the exempt controller's LoadBalancer, a "
             "headless Service, an ExternalName Service (outbound name, nothing exposed), a ClusterIP Service "
             "whose port is named nodeport-metrics.",
             "NodePort / LoadBalancer type or externalIPs outside ingress-nginx")


# k02 CSR approval (5.1.11) -----------------------------------------------------------------------
@scenario
def csr():
    C = "certificates.k8s.io"

    def objs(bad):
        bot = [rule([C], ["certificatesigningrequests"], ["get", "list", "watch", "create"])]
        if bad: bot.append(rule([C], ["certificatesigningrequests/approval"], ["update"]))
        pki = rule([C], ["*"], ["get", "list", "patch"]) if bad else rule([C], ["certificatesigningrequests"], ["get", "list", "watch"])
        return [role("cert-bot", bot),
                role("pki-admin", [rule([""], ["secrets"], ["get"]), pki]),
                role("csr-janitor", [rule([C], ["certificatesigningrequests"], ["get", "list", "delete", "update"])]),
                role("csr-signer-status", [rule([C], ["certificatesigningrequests/status"], ["get"])]),
                role("system:controller:certificate-controller",
                     [rule([C], ["certificatesigningrequests/approval"], ["update"]),
                      rule([C], ["signers"], ["approve"], names=["kubernetes.io/kube-apiserver-client-kubelet"])]),
                binding("cert-bot", "ClusterRole", "cert-bot", [sasub("cert-bot", "pki")])]

    def bad(O):
        out = set()
        for o, rules in rules_of(O):
            for r in rules:
                if grants(r, [C], ["certificatesigningrequests/approval"], ["update", "patch"]) or \
                        (set(r["resources"]) & {"*", "*/approval"} and set(r["apiGroups"]) & {C, "*"}
                         and set(r["verbs"]) & {"update", "patch", "*"}):
                    out.add(rid(o))
        return out
    PRED["set4-csr-approvers"] = bad
    return S("set4-csr-approvers", "5.1.11", "CIS",
             "CIS 5.1.11 (Minimize access to the approve subresource of certificatesigningrequests objects): "
             "whoever can approve a certificate signing request can have the cluster issue a client certificate "
             "for an identity of their choosing. No Role or ClusterRole other than Kubernetes' own (names starting "
             "with system:) may allow changing the approval of a CSR.",
             objs(True), objs(False), ["ClusterRole//cert-bot", "ClusterRole//pki-admin"],
             "Violating: update on certificatesigningrequests/approval in cert-bot's second rule; patch on resources "
             "`*` of certificates.k8s.io in pki-admin's second rule (covers every subresource). Near misses (both): "
             "update/delete on the CSR object itself (csr-janitor: the approval subresource is authorised "
             "separately), get on certificatesigningrequests/status, the exempt system:controller role.",
             "a write verb on certificatesigningrequests/approval (directly or via *) in a non-system role")


# k03 anonymous / unauthenticated grants --------------------------------------------------------------
@scenario
def anonymous():
    def objs(bad):
        return [ns("docs"), sa("docs", "anonymous"),
                binding("status-page-public", "ClusterRole", "status-reader",
                        [group("system:unauthenticated" if bad else "system:authenticated")]),
                binding("docs-readers", "ClusterRole", "view",
                        [group("docs-team")] + ([user("system:anonymous")] if bad else []), namespace="docs"),
                binding("anonymous-bot", "ClusterRole", "view", [sasub("anonymous", "docs")], namespace="docs"),
                binding("system:public-info-viewer", "ClusterRole", "system:public-info-viewer",
                        [group("system:authenticated"), group("system:unauthenticated")]),
                binding("oncall-anyone-authenticated", "ClusterRole", "view", [group("system:authenticated")]),
                role("status-reader", [{"nonResourceURLs": ["/healthz", "/statusz"], "verbs": ["get"]}])]

    def bad(O):
        return {rid(o) for o in O if o["kind"] in ("RoleBinding", "ClusterRoleBinding")
                and not o["metadata"]["name"].startswith("system:")
                and any((s["kind"], s["name"]) in (("User", "system:anonymous"), ("Group", "system:unauthenticated"))
                        for s in o["subjects"])}
    PRED["set4-no-anonymous-grants"] = bad
    return S("set4-no-anonymous-grants", None, "auditor",
             "Requests that reach the API server without any credentials must not be granted anything by a binding "
             "we created. Bindings that Kubernetes creates itself (names starting with system:) are out of scope.",
             objs(True), objs(False), ["ClusterRoleBinding//status-page-public", "RoleBinding/docs/docs-readers"],
             "Violating: a ClusterRoleBinding to Group system:unauthenticated; a RoleBinding whose second subject is "
             "User system:anonymous. Near misses (both): Group system:authenticated, a ServiceAccount named "
             "anonymous, the built-in system:public-info-viewer binding (exempt).",
             "a binding subject system:anonymous or system:unauthenticated")


# k04 ingress from anywhere -----------------------------------------------------------------------
@scenario
def world_ingress():
    def objs(bad):
        web_rules = [{"from": [{"podSelector": {"matchLabels": {"app.kubernetes.io/name": "frontend"}}}],
                      "ports": [{"protocol": "TCP", "port": 8080}]},
                     {"ports": [{"protocol": "TCP", "port": 9090}]} if bad else
                     {"from": [{"namespaceSelector": {}}], "ports": [{"protocol": "TCP", "port": 9090}]}]
        api_from = [{"ipBlock": {"cidr": "0.0.0.0/0", "except": ["10.0.0.0/8", "169.254.169.254/32"]}}] if bad else \
            [{"ipBlock": {"cidr": "198.51.100.0/24"}}]
        scr_from = [{"ipBlock": {"cidr": "::/0"}}] if bad else [{"ipBlock": {"cidr": "fd00:10::/64"}}]
        return [ns("shop"), ns("api"), ns("metrics"),
                netpol("shop", "default-deny", types=["Ingress"]),
                netpol("shop", "allow-web", web_rules, selector={"matchLabels": {"app.kubernetes.io/name": "web"}},
                       types=["Ingress"]),
                netpol("api", "partner-api", [{"from": api_from, "ports": [{"protocol": "TCP", "port": 443}]}],
                       types=["Ingress"]),
                netpol("metrics", "scrape-v6", [{"from": scr_from, "ports": [{"protocol": "TCP", "port": 9100}]}],
                       types=["Ingress"]),
                netpol("api", "egress-anywhere", egress=[{"to": [{"ipBlock": {"cidr": "0.0.0.0/0"}}]}], types=["Egress"]),
                netpol("metrics", "same-ns", [{"from": [{"podSelector": {}}]}], types=["Ingress"])]

    def bad(O):
        out = set()
        for o in O:
            if o["kind"] != "NetworkPolicy": continue
            for r in o["spec"].get("ingress") or []:
                if not r.get("from") or any((p.get("ipBlock") or {}).get("cidr") in ("0.0.0.0/0", "::/0") for p in r["from"]):
                    out.add(rid(o))
        return out
    PRED["set4-no-world-ingress"] = bad
    return S("set4-no-world-ingress", None, "effect",
             "A network policy may let traffic in only from sources it names. No NetworkPolicy may admit incoming "
             "traffic from any address at all, whether IPv4 or IPv6; admitting every pod of the cluster (all "
             "namespaces) is fine, and what pods send out is not in scope.",
             objs(True), objs(False), ["NetworkPolicy/shop/allow-web", "NetworkPolicy/api/partner-api",
                                       "NetworkPolicy/metrics/scrape-v6"],
             "Violating: a second ingress rule with ports but no `from` (every source); ipBlock 0.0.0.0/0 with an "
             "except list (still the whole internet); ipBlock ::/0. Near misses (both): namespaceSelector {} (all "
             "cluster pods), podSelector {} (own namespace), a default-deny policy with no rules, egress to "
             "0.0.0.0/0, a partner /24 and a ULA /64.",
             "an ingress rule without from, or with ipBlock 0.0.0.0/0 or ::/0")


# k05 secret file modes -----------------------------------------------------------------------
@scenario
def secret_modes():
    def objs(bad):
        sso_vol = {"name": "tls", "secret": {"secretName": "sso-tls", "defaultMode": 256, "items": [
            {"key": "tls.crt", "path": "tls.crt"}, {"key": "tls.key", "path": "tls.key", "mode": 420 if bad else 256}]}}
        proj = {"sources": [{"secret": {"name": "signing-key"}},
                            {"configMap": {"name": "rotate-config"}}]}
        if not bad: proj["defaultMode"] = 256
        kr_vol = {"name": "keys", "projected": proj}
        portal_vols = [{"name": "config", "configMap": {"name": "portal-config", "defaultMode": 420}},
                       {"name": "creds", "secret": {"secretName": "portal-creds", "defaultMode": 384}}]
        dbg_vols = [{"name": "creds", "secret": {"secretName": "portal-creds", "defaultMode": 420,
                                                  "items": [{"key": "password", "path": "password", "mode": 256}]}},
                    {"name": "token", "projected": {"sources": [{"serviceAccountToken": {"path": "token",
                                                                                        "expirationSeconds": 3600}}]}}]
        mnt = lambda *n: [{"name": x, "mountPath": "/etc/" + x, "readOnly": True} for x in n]
        return [ns("auth"),
                wl("Deployment", "auth", "sso", podspec([ctr("sso", volumeMounts=mnt("tls"))], volumes=[sso_vol],
                                                        securityContext=psc())),
                wl("CronJob", "auth", "key-rotate", podspec([ctr("rotate", volumeMounts=mnt("keys"))], volumes=[kr_vol],
                                                            securityContext=psc())),
                wl("Deployment", "auth", "portal", podspec([ctr("portal", volumeMounts=mnt("config", "creds"))],
                                                           volumes=portal_vols, securityContext=psc())),
                wl("Pod", "auth", "portal-check", podspec([ctr("check", volumeMounts=mnt("creds", "token"))],
                                                          volumes=dbg_vols, securityContext=psc()))]

    def bad(O):
        out = set()
        for o, sp, pm in workloads(O):
            for v in sp.get("volumes", []):
                modes = []
                if "secret" in v:
                    d = v["secret"].get("defaultMode", 420)
                    modes = [i.get("mode", d) for i in v["secret"]["items"]] if v["secret"].get("items") else [d]
                elif "projected" in v:
                    d = v["projected"].get("defaultMode", 420)
                    for s in v["projected"]["sources"]:
                        if "secret" in s:
                            it = s["secret"].get("items")
                            modes += [i.get("mode", d) for i in it] if it else [d]
                if any(m & 0o077 for m in modes):
                    out.add(rid(o))
        return out
    PRED["set4-secret-file-modes"] = bad
    return S("set4-secret-file-modes", None, "operator",
             "When a Secret is mounted into a pod as files, those files must be readable and writable by their "
             "owner only: no permission bit for group or others. Kubernetes writes such files with mode 0644 unless "
             "the volume or the individual key says otherwise, so a Secret mount that says nothing is not compliant. "
             "Secrets projected into a volume together with other sources count too; ConfigMaps do not.",
             objs(True), objs(False), ["Deployment/auth/sso", "CronJob/auth/key-rotate"],
             "Modes are written in decimal as the API returns them (256 = 0400, 384 = 0600, 420 = 0644). Violating: "
             "defaultMode 0400 but the tls.key item overridden to 0644; a projected volume (Secret + ConfigMap) in a "
             "CronJob with no defaultMode (0644). Near misses (both): a ConfigMap volume at 0644, a Secret at 0600, "
             "a Secret volume with defaultMode 0644 whose only listed item is 0400 (only listed keys are written), "
             "a projected serviceAccountToken. No pod sets fsGroup (which would add group bits).",
             "a Secret file mode with group/other bits (item override, projected default)")


# k06 root group --------------------------------------------------------------------------------
@scenario
def root_group():
    def objs(bad):
        init = ctr("schema", secctx=sc(runAsGroup=0) if bad else sc(runAsGroup=10001))
        eph = {"name": "debugger-q8w", "image": img("tools/netshoot", "0.13"), "targetContainerName": "loader",
               "securityContext": sc(runAsGroup=0) if bad else sc()}
        return [ns("etl"),
                wl("CronJob", "etl", "nightly-load", podspec([ctr("load")], securityContext=psc(
                    supplementalGroups=[1000, 0] if bad else [1000, 2000]))),
                wl("Deployment", "etl", "loader", podspec([ctr("loader")], init=[init], securityContext=psc())),
                wl("StatefulSet", "etl", "warehouse", podspec([ctr("db")], securityContext=psc(fsGroup=0 if bad else 2000))),
                wl("Pod", "etl", "loader-5c8d9", podspec([ctr("loader")], ephemeralContainers=[eph], securityContext=psc())),
                wl("Deployment", "etl", "reporter", podspec([ctr("reporter", secctx=sc(runAsUser=20000, runAsGroup=20000),
                                                                 env=[{"name": "GID", "value": "0"}])],
                                                            securityContext=psc(fsGroup=10001, fsGroupChangePolicy="OnRootMismatch")))]

    def bad(O):
        out = set()
        for o, sp, pm in workloads(O):
            p = sp.get("securityContext") or {}
            if p.get("runAsGroup") == 0 or p.get("fsGroup") == 0 or 0 in (p.get("supplementalGroups") or []):
                out.add(rid(o))
            if any((c.get("securityContext") or {}).get("runAsGroup") == 0 for c in all_ctrs(sp)):
                out.add(rid(o))
        return out
    PRED["set4-no-root-group"] = bad
    return S("set4-no-root-group", None, "auditor",
             "Finding to close: processes of our workloads must not run with the root group (GID 0), neither as "
             "their primary group nor as an additional group, and no pod may have its volumes handed to group 0. "
             "This covers every container of a pod, including init containers and debug containers attached later, "
             "and the pods of scheduled jobs. Our pods set their user and group explicitly at pod level.",
             objs(True), objs(False), ["CronJob/etl/nightly-load", "Deployment/etl/loader", "StatefulSet/etl/warehouse",
                                       "Pod/etl/loader-5c8d9"],
             "Violating: supplementalGroups [1000, 0] in a CronJob template; runAsGroup 0 on an init container "
             "(overriding the pod's 10001); fsGroup 0; runAsGroup 0 on an ephemeral debug container. Near misses "
             "(both): container-level runAsGroup 20000, fsGroupChangePolicy, an env var GID=0.",
             "GID 0 as runAsGroup (pod or any container), in supplementalGroups, or as fsGroup")


# k07 safe sysctls ----------------------------------------------------------------------------------
SAFE = ["kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range", "net.ipv4.ip_unprivileged_port_start",
        "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range", "net.ipv4.ip_local_reserved_ports",
        "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_keepalive_intvl",
        "net.ipv4.tcp_keepalive_probes"]


@scenario
def sysctls():
    def s(*kv): return [{"name": k, "value": v} for k, v in kv]

    def objs(bad):
        return [ns("edge"), ns("batch"),
                wl("Deployment", "edge", "haproxy", podspec([ctr("haproxy")], securityContext=psc(sysctls=s(
                    ("net.ipv4.tcp_syncookies", "1"), ("net.core.somaxconn" if bad else "net.ipv4.tcp_fin_timeout", "4096" if bad else "30"))))),
                wl("CronJob", "batch", "ipc-bench", podspec([ctr("bench")], securityContext=psc(sysctls=s(
                    ("kernel.msgmax" if bad else "kernel.shm_rmid_forced", "65536" if bad else "1"))))),
                wl("Pod", "edge", "tuner", podspec([ctr("tuner")], securityContext=psc(sysctls=s(
                    ("net.ipv4.ip_local_port_range", "1024 65000"), ("net.ipv4.tcp_keepalive_time", "600"),
                    ("net.ipv4.ip_unprivileged_port_start", "80"))))),
                wl("Deployment", "edge", "envoy", podspec([ctr("envoy", env=[{"name": "SYSCTL_NET_CORE_SOMAXCONN", "value": "4096"}])])),
                cm("edge", "node-tuning", {"99-edge.conf": "net.core.somaxconn = 4096\nvm.max_map_count = 262144\n"})]

    def bad(O):
        return {rid(o) for o, sp, pm in workloads(O)
                if any(x["name"] not in SAFE for x in (sp.get("securityContext") or {}).get("sysctls", []))}
    PRED["set4-safe-sysctls"] = bad
    return S("set4-safe-sysctls", None, "operator",
             "Pods may tune only the kernel parameters that Kubernetes treats as safe to set per pod: "
             + ", ".join(SAFE[:-1]) + " and " + SAFE[-1] + ". A pod that sets any other kernel parameter is not "
             "allowed, whatever workload creates it.",
             objs(True), objs(False), ["Deployment/edge/haproxy", "CronJob/batch/ipc-bench"],
             "Violating: net.core.somaxconn as the second sysctl of a Deployment; kernel.msgmax in a CronJob's job "
             "template. Near misses (both): a pod with three allowed sysctls, an env var and a ConfigMap naming "
             "net.core.somaxconn (node tuning, not a pod sysctl).",
             "a pod sysctl outside the safe list")


# k08 long-lived service-account tokens ------------------------------------------------------------
@scenario
def legacy_tokens():
    def objs(bad):
        o = [ns("ci"), ns("monitoring"), sa("ci", "deployer"), sa("monitoring", "prometheus"),
             secret("ci", "registry-pull", "kubernetes.io/dockerconfigjson",
                    {".dockerconfigjson": b64('{"auths":{"harbor.acme.internal":{"auth":"Y2k6dG9rZW4="}}}')}),
             secret("monitoring", "remote-write-token", "Opaque", {"token": b64("rw-2f9c1e")}),
             wl("Deployment", "monitoring", "prometheus", podspec([ctr("prometheus", volumeMounts=[
                 {"name": "sa-token", "mountPath": "/var/run/secrets/tokens", "readOnly": True}])],
                 serviceAccountName="prometheus", volumes=[{"name": "sa-token", "projected": {"sources": [
                     {"serviceAccountToken": {"path": "token", "expirationSeconds": 3600, "audience": "thanos"}}]}}]))]
        if bad:
            o += [secret("ci", "deployer-token", "kubernetes.io/service-account-token",
                         annotations={"kubernetes.io/service-account.name": "deployer"}),
                  secret("monitoring", "federation-credentials", "kubernetes.io/service-account-token",
                         annotations={"kubernetes.io/service-account.name": "prometheus"})]
        return o

    PRED["set4-no-legacy-sa-tokens"] = lambda O: {rid(o) for o in O if o["kind"] == "Secret"
                                                  and o["type"] == "kubernetes.io/service-account-token"}
    return S("set4-no-legacy-sa-tokens", None, "effect",
             "No service account may hold an API credential that never expires. Workloads get short-lived tokens "
             "from the kubelet; nobody may create a stored token for a service account.",
             objs(True), objs(False), ["Secret/ci/deployer-token", "Secret/monitoring/federation-credentials"],
             "Violating: two Secrets of type kubernetes.io/service-account-token (the second one's name does not say "
             "token). Near misses (both): a dockerconfigjson pull secret, an Opaque Secret with a key `token` "
             "(a remote-write credential for another system, not a service-account token), a projected "
             "serviceAccountToken with expirationSeconds.",
             "a Secret of type kubernetes.io/service-account-token")


# k09 namespace deletion -----------------------------------------------------------------------------
@scenario
def ns_delete():
    def objs(bad):
        return [ns("sandbox"),
                role("platform-admins", [rule([""], ["namespaces"], ["*"]), rule(["*"], ["*"], ["get", "list"])]),
                role("team-onboarding", [rule([""], ["namespaces"], ["create", "get", "list"]),
                                         rule([""], ["resourcequotas", "limitranges"], ["create", "update"]),
                                         rule([""], ["namespaces"], ["delete"] if bad else ["patch"])]),
                role("cleanup-bot", [rule([""], ["pods", "configmaps"], ["delete", "deletecollection"]),
                                     rule(["*"] if bad else ["networking.k8s.io"], ["namespaces", "networkpolicies"] if bad else
                                          ["networkpolicies"], ["*"] if bad else ["delete"])]),
                role("sandbox-owner", [rule(["", "apps"], ["*"] if bad else ["deployments", "services", "pods"], ["*"])],
                     namespace="sandbox"),
                role("ns-viewer", [rule([""], ["namespaces"], ["get", "list", "watch"])]),
                role("system:controller:namespace-controller", [rule(["*"], ["*"], ["delete", "deletecollection", "get", "list"])])]

    def bad(O):
        return {rid(o) for o, rules in rules_of(O, exempt=lambda o: o["metadata"]["name"].startswith("system:")
                                                 or o["metadata"]["name"] == "platform-admins")
                if any(grants(r, [""], ["namespaces"], ["delete"]) for r in rules)}
    PRED["set4-namespace-deletion"] = bad
    return S("set4-namespace-deletion", None, "operator",
             "Deleting a namespace destroys everything in it at once, so only our platform-admins ClusterRole may "
             "allow it. No other Role or ClusterRole we wrote may let anyone delete a namespace; Kubernetes' own "
             "roles (names starting with system:) are out of scope.",
             objs(True), objs(False), ["ClusterRole//team-onboarding", "ClusterRole//cleanup-bot", "Role/sandbox/sandbox-owner"],
             "Violating: delete on namespaces in team-onboarding's third rule; `*` verbs on namespaces under "
             "apiGroups `*` in cleanup-bot's second rule; a namespaced Role with `*` verbs on resources `*` of the "
             "core group (a Role can grant delete on its own Namespace object). Near misses (both): patch on "
             "namespaces, delete/deletecollection on pods, delete on networkpolicies, read-only access, the exempt "
             "platform-admins and system:controller roles.",
             "delete (or *) on namespaces (or *) of the core group in a role other than platform-admins / system:",
             debatable="sandbox-owner: a Role grants verbs on the Namespace object named like its own namespace; "
                       "the requirement forbids any Role that allows deleting a namespace")


# k10 credentials in ConfigMaps --------------------------------------------------------------------
KEY = ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
       "QyNTUxOQAAACBvc2V0NC1ub3QtYS1yZWFsLWtleS0wMDAwMDAwMDAwMDAwMAAAAJhzZXQ0\n-----END OPENSSH PRIVATE KEY-----\n")
CERT = ("-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUY2lzby1zZXQ0LW5vdC1hLXJlYWwtY2VydDAKBggqhkjOPQQD\n"
        "-----END CERTIFICATE-----\n")


@scenario
def cm_creds():
    def objs(bad):
        return [ns("crm"), ns("git"),
                cm("crm", "db-settings", {"DB_HOST": "postgres.crm.svc", "DB_USER": "crm_app",
                                          "DB_Password" if bad else "DB_PASSWORD_FILE":
                                              "Winter2026!crm" if bad else "/var/run/secrets/db/password",
                                          "PASSWORD_MIN_LENGTH": "14"}),
                cm("git", "mirror-config", {"known_hosts": "github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n",
                                            "ca.crt": CERT, **({"id_ed25519": KEY} if bad else {"id_ed25519.pub":
                                                                "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGNpc28tc2V0NC1wdWJsaWMta2V5 mirror@acme\n"})}),
                cm("crm", "sso", {"TOKEN_URL": "https://sso.acme.internal/oauth2/token", "CLIENT_ID": "crm-web",
                                  "CLIENT_SECRET_REF": "secret/crm/sso#client_secret"}),
                secret("crm", "db", "Opaque", {"password": b64("Winter2026!crm")})]
    LEAK = ("Winter2026!crm", "PRIVATE KEY-----")
    PRED["set4-configmaps-no-credentials"] = lambda O: {rid(o) for o in O if o["kind"] == "ConfigMap"
                                                        and any(x in v for v in o["data"].values() for x in LEAK)}
    return S("set4-configmaps-no-credentials", None, "auditor",
             "ConfigMaps are readable by far more people than Secrets, so no ConfigMap may contain a credential: "
             "no password, API key, access token, client secret or private key as a value. References to where a "
             "credential is kept, public keys and certificates are fine.",
             objs(True), objs(False), ["ConfigMap/crm/db-settings", "ConfigMap/git/mirror-config"],
             "Violating: a key DB_Password (mixed case) holding a password; an OpenSSH private key under key "
             "id_ed25519 beside known_hosts and a CA certificate. Near misses (both): DB_PASSWORD_FILE (a path), "
             "PASSWORD_MIN_LENGTH (a policy number), TOKEN_URL, CLIENT_SECRET_REF (a reference), a CA certificate, "
             "a public key, known_hosts, and the password in a Secret.",
             "a ConfigMap value that is a password or a private key")


# k11 ingress class ----------------------------------------------------------------------------------
@scenario
def ingress_class():
    def objs(bad):
        return [ns("shop"), ns("docs"), ns("hr"), ns("api"),
                {"apiVersion": "networking.k8s.io/v1", "kind": "IngressClass",
                 "metadata": meta("public-nginx", annotations={"ingressclass.kubernetes.io/is-default-class": "true"}),
                 "spec": {"controller": "k8s.io/ingress-nginx"}},
                {"apiVersion": "networking.k8s.io/v1", "kind": "IngressClass", "metadata": meta("internal-nginx"),
                 "spec": {"controller": "k8s.io/internal-ingress-nginx"}},
                ing("shop", "storefront", "shop.acme.internal", None if bad else "internal-nginx"),
                ing("docs", "wiki", "wiki.acme.internal", None,
                    {"kubernetes.io/ingress.class": "public-nginx" if bad else "internal-nginx"}),
                ing("hr", "portal", "hr.acme.internal", "internal-nginx-canary" if bad else "internal-nginx",
                    {"nginx.ingress.kubernetes.io/rewrite-target": "/"}),
                ing("api", "gateway", "api.acme.internal", "internal-nginx",
                    {"nginx.ingress.kubernetes.io/backend-protocol": "HTTPS", "external-dns.alpha.kubernetes.io/hostname": "api.acme.example.com"})]

    def bad(O):
        return {rid(o) for o in O if o["kind"] == "Ingress" and
                (o["spec"].get("ingressClassName") or (o["metadata"].get("annotations") or {}).get("kubernetes.io/ingress.class"))
                != "internal-nginx"}
    PRED["set4-internal-ingress-class"] = bad
    return S("set4-internal-ingress-class", None, "operator",
             "Every Ingress must be served by our internal controller, whose IngressClass is internal-nginx. An "
             "Ingress that names any other class, whether in its spec or through the older "
             "kubernetes.io/ingress.class annotation, or that names no class at all (it then falls to the cluster's "
             "default class, public-nginx), is not allowed.",
             objs(True), objs(False), ["Ingress/shop/storefront", "Ingress/docs/wiki", "Ingress/hr/portal"],
             "Violating: no class (default public-nginx); the legacy annotation naming public-nginx; "
             "ingressClassName internal-nginx-canary (another class with the allowed name as prefix). Near misses "
             "(both): the legacy annotation naming internal-nginx (compliant), other nginx annotations, an "
             "external-dns annotation with a public host name, the IngressClass objects themselves.",
             "an Ingress whose class (field or legacy annotation, default if none) is not internal-nginx")


# k12 container runtime socket -------------------------------------------------------------------
@scenario
def runtime_socket():
    def hp(name, path, typ=None):
        h = {"path": path}
        if typ: h["type"] = typ
        return {"name": name, "hostPath": h}

    def objs(bad):
        fb_vols = [hp("varlog", "/var/log", "Directory"),
                   hp("runtime", "/var/run/" if bad else "/var/lib/docker/containers", "Directory")]
        gc_vols = [hp("cri", "/run/containerd/containerd.sock", "Socket")] if bad else [{"name": "cri", "emptyDir": {}}]
        bld_vols = [hp("crio", "/var/run/crio/crio.sock")] if bad else [{"name": "crio", "emptyDir": {"sizeLimit": "1Gi"}}]
        m = lambda n, p: [{"name": n, "mountPath": p}]
        return [ns("logging"), ns("ci"),
                wl("DaemonSet", "logging", "fluent-bit", podspec([ctr("fluent-bit", volumeMounts=m("varlog", "/var/log")
                                                                      + m("runtime", "/host/runtime"))], volumes=fb_vols)),
                wl("CronJob", "ci", "image-gc", podspec([ctr("gc", volumeMounts=m("cri", "/run/containerd/containerd.sock"))],
                                                        volumes=gc_vols)),
                wl("Deployment", "ci", "builder", podspec([ctr("kaniko")], init=[ctr("warm-cache", volumeMounts=m("crio", "/var/run/crio"))],
                                                          volumes=bld_vols)),
                wl("Deployment", "ci", "dind-client", podspec([ctr("client", env=[{"name": "DOCKER_HOST", "value": "tcp://docker-dind.ci.svc:2376"}],
                                                                   volumeMounts=m("docker-sock", "/var/run/docker.sock"))],
                                                              volumes=[{"name": "docker-sock", "emptyDir": {}}])),
                wl("DaemonSet", "logging", "journal-reader", podspec([ctr("reader", volumeMounts=m("journal", "/run/log/journal"))],
                                                                     volumes=[hp("journal", "/run/log/journal", "Directory")]))]
    SOCKS = ["/var/run/docker.sock", "/run/docker.sock", "/run/containerd/containerd.sock",
             "/var/run/containerd/containerd.sock", "/var/run/crio/crio.sock", "/run/crio/crio.sock"]

    def bad(O):
        out = set()
        for o, sp, pm in workloads(O):
            for v in sp.get("volumes", []):
                p = (v.get("hostPath") or {}).get("path")
                if p is None: continue
                p = p.rstrip("/") or "/"
                if any(s == p or s.startswith(p + "/") or p == "/" for s in SOCKS):
                    out.add(rid(o))
        return out
    PRED["set4-no-runtime-socket"] = bad
    return S("set4-no-runtime-socket", None, "effect",
             "No workload may be able to talk to the node's container runtime (Docker, containerd or CRI-O) through "
             "its socket: whoever reaches that socket can start privileged containers on the node. Mounting a node "
             "directory that contains the socket counts as reaching it. Other node directories are not covered by "
             "this rule.",
             objs(True), objs(False), ["DaemonSet/logging/fluent-bit", "CronJob/ci/image-gc", "Deployment/ci/builder"],
             "Violating: hostPath /var/run/ (the directory holding docker.sock / containerd); hostPath "
             "/run/containerd/containerd.sock (type Socket) in a CronJob template; hostPath /var/run/crio/crio.sock "
             "mounted only by an init container. Near misses (both): hostPath /var/log, /var/lib/docker/containers "
             "(container logs, no socket) and /run/log/journal, an emptyDir mounted at /var/run/docker.sock with "
             "DOCKER_HOST pointing to a separate dind Service.",
             "a hostPath that is a runtime socket or a directory containing one")


# k13 NetworkPolicy writers -------------------------------------------------------------------------
@scenario
def netpol_writers():
    N = "networking.k8s.io"

    def objs(bad):
        return [ns("payments"),
                role("netsec-admin", [rule([N], ["networkpolicies"], ["*"])]),
                role("app-deployer", [rule(["apps"], ["deployments", "statefulsets"], ["get", "list", "create", "update", "patch"]),
                                      rule([N], ["ingresses"], ["create", "update", "patch", "delete"]),
                                      rule([N], ["networkpolicies"], ["get", "list", "patch"] if bad else ["get", "list", "watch"])]),
                role("mesh-operator", [rule([""], ["services", "endpoints"], ["get", "list", "watch"]),
                                       rule([N] if bad else ["policy"], ["*"] if bad else ["poddisruptionbudgets"],
                                            ["create", "delete"] if bad else ["get", "list"])]),
                role("payments-dev", [rule([""], ["pods", "services", "configmaps"], ["*"]),
                                      rule(["*"] if bad else [N], ["networkpolicies"], ["create"] if bad else ["get"])],
                     namespace="payments"),
                role("netpol-auditor", [rule([N], ["networkpolicies"], ["get", "list", "watch"]),
                                        rule([N], ["networkpolicies/status"], ["get"])]),
                role("system:controller:generic-garbage-collector", [rule(["*"], ["*"], ["get", "list", "watch", "patch", "update", "delete"])])]

    def bad(O):
        return {rid(o) for o, rules in rules_of(O, exempt=lambda o: o["metadata"]["name"].startswith("system:")
                                                 or o["metadata"]["name"] == "netsec-admin")
                if any(grants(r, [N], ["networkpolicies"], ["create", "update", "patch", "delete", "deletecollection"])
                       for r in rules)}
    PRED["set4-netpol-writers"] = bad
    return S("set4-netpol-writers", None, "operator",
             "Our network policies are owned by the network-security team: only their netsec-admin ClusterRole may "
             "create, change or remove NetworkPolicy objects. Every other Role or ClusterRole we wrote may at most "
             "read them; Kubernetes' own roles (names starting with system:) are out of scope.",
             objs(True), objs(False), ["ClusterRole//app-deployer", "ClusterRole//mesh-operator", "Role/payments/payments-dev"],
             "Violating: patch on networkpolicies in app-deployer's third rule; create/delete on resources `*` of "
             "networking.k8s.io in mesh-operator's second rule; create on networkpolicies under apiGroups `*` in "
             "a namespaced Role. Near misses (both): write access to ingresses (same API group), read-only access "
             "to networkpolicies and networkpolicies/status, the exempt netsec-admin and system: roles.",
             "a write verb on networkpolicies (directly or via *) in a non-exempt role")


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


@scenario
def r_forward():
    base = {"etc/sysctl.conf": SYSCTL_CONF, "usr/lib/sysctl.d/50-default.conf": SYSTEMD_50,
            "usr/lib/sysctl.d/50-pid-max.conf": SYSTEMD_50_PID,
            "usr/lib/sysctl.d/70-container-networking.conf":
                "# Installed by the container-networking package: pods need routed traffic\n"
                "net.ipv4.ip_forward=1\nnet.ipv4.conf.all.forwarding=1\nnet.bridge.bridge-nf-call-iptables=1\n",
            "etc/sysctl.d/60-cis-network.conf":
                "# CIS 3.3 network parameters (host only)\nnet.ipv4.ip_forward = 0\nnet.ipv4.conf.all.forwarding = 0\n"
                "net.ipv6.conf.all.forwarding = 0\nnet.ipv4.conf.all.send_redirects = 0\n"
                "net.ipv4.conf.default.send_redirects = 0\nnet.ipv4.ip_forward_use_pmtu = 1\n"}
    v = dict(base)
    v["etc/sysctl.d/99-sysctl.conf"] = v["etc/sysctl.conf"] = SYSCTL_CONF + (
        "\n# re-asserted after the container package, see CHG-4471\n#net.ipv4.ip_forward = 0\n"
        "#net.ipv4.conf.all.forwarding = 0\n")
    c = dict(base)
    c["etc/sysctl.d/99-sysctl.conf"] = c["etc/sysctl.conf"] = SYSCTL_CONF + (
        "\n# re-asserted after the container package, see CHG-4471\nnet.ipv4.ip_forward = 0\n"
        "net.ipv4.conf.all.forwarding = 0\n")

    def bad(t):
        e = sysctl_effective(t)
        return {"sysctl//" + k for k in ("net.ipv4.ip_forward", "net.ipv6.conf.all.forwarding") if e.get(k, "0") != "0"}
    RPRED["set4-rhel-not-a-router"] = bad
    return S("set4-rhel-not-a-router", "3.3.1", "effect",
             "These servers are hosts, not routers: the kernel must not pass IPv4 or IPv6 packets from one network "
             "interface to another, and that must still hold after a reboot.", v, c,
             ["sysctl//net.ipv4.ip_forward"],
             "Persistent configuration as systemd-sysctl applies it at boot: all sysctl.d files ordered by file name "
             "across /etc, /run, /usr/local/lib and /usr/lib, later assignments win. Violating: /etc/sysctl.d/"
             "60-cis-network.conf sets ip_forward 0, but the vendor file /usr/lib/sysctl.d/70-container-networking.conf "
             "(later name) sets 1, and the re-assertion in /etc/sysctl.conf (= /etc/sysctl.d/99-sysctl.conf, a "
             "symlink on RHEL 9, written here as a copy) is commented out. Compliant: the same vendor file, but "
             "99-sysctl.conf sets 0 again, last. Near misses: net.ipv4.ip_forward_use_pmtu = 1 (another parameter), "
             "IPv6 forwarding 0 in both. net.ipv4.conf.all.forwarding (the same switch) follows ip_forward: 1 on the violating host, 0 on the compliant one.",
             "effective net.ipv4.ip_forward 1 (vendor drop-in read after the CIS file)", platform="rhel9", classes=RHEL)


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


@scenario
def r_usb():
    v = dict(MODPROBE_BASE)
    v["etc/modprobe.d/usb-storage.conf"] = "# CIS 1.1.x removable media\nblacklist usb-storage\n"
    v["etc/modprobe.d/usb-storage.conf.rpmsave"] = "install usb-storage /bin/false\nblacklist usb-storage\n"
    c = dict(MODPROBE_BASE)
    c["etc/modprobe.d/usb-storage.conf"] = "# CIS 1.1.x removable media\ninstall usb_storage /bin/false\nblacklist usb_storage\n"
    c["etc/modprobe.d/usbcore.conf"] = "options usbcore autosuspend=-1\n"

    def bad(t):
        cmd = modprobe_install(t, "usb-storage")
        return set() if cmd in ("/bin/false", "/usr/bin/false", "/bin/true", "/usr/bin/true") else {"modprobe//usb-storage"}
    RPRED["set4-rhel-no-usb-storage"] = bad
    return S("set4-rhel-no-usb-storage", None, "operator",
             "The kernel driver for USB mass storage (usb-storage) must not be loadable on these servers: not "
             "automatically when someone plugs in a USB disk, and not when someone asks modprobe for it by name. "
             "Blacklisting the driver alone is not enough, since it only stops the automatic load; loading it must "
             "run a command that does nothing instead (/bin/false or /bin/true).", v, c,
             ["modprobe//usb-storage"],
             "Violating: /etc/modprobe.d/usb-storage.conf only blacklists it; the install line sits in "
             "usb-storage.conf.rpmsave, which modprobe never reads (only *.conf). Compliant: `install usb_storage "
             "/bin/false` (modprobe treats - and _ in module names as the same). Near misses: a vendor `options "
             "usb-storage quirks=` line, `options usbcore`, the firewalld install line for nf_conntrack.",
             "no install override for usb-storage in any file modprobe reads", platform="rhel9", classes=RHEL)


LOGIN_DEFS = """#
# Please note that the parameters in this configuration file control the
# behavior of the tools from the shadow-utils component. None of these
# tools uses the PAM mechanism, and the utilities that use PAM (such as the
# passwd command) should therefore be configured elsewhere. Refer to
# /etc/pam.d/system-auth for more information.
#

# Directory where mailboxes reside, _or_ name of file, relative to the
# home directory. If you _do_ define both, MAIL_DIR takes precedence.
#
MAIL_DIR\t/var/spool/mail
#MAIL_FILE\t.mail

# Password aging controls:
#
#\tPASS_MAX_DAYS\tMaximum number of days a password may be used.
#\tPASS_MIN_DAYS\tMinimum number of days allowed between password changes.
#\tPASS_MIN_LEN\tMinimum acceptable password length.
#\tPASS_WARN_AGE\tNumber of days warning given before a password expires.
#
PASS_MAX_DAYS\t{max}
PASS_MIN_DAYS\t1
PASS_WARN_AGE\t7

#
# Min/max values for automatic uid selection in useradd
#
UID_MIN                  1000
UID_MAX                 60000
# System accounts
SYS_UID_MIN               201
SYS_UID_MAX               999

#
# Min/max values for automatic gid selection in groupadd
#
GID_MIN                  1000
GID_MAX                 60000
# System accounts
SYS_GID_MIN               201
SYS_GID_MAX               999

#
# If useradd should create home directories for users by default
# On RH systems, we do. This option is overridden with the -m flag on
# useradd command line.
#
CREATE_HOME\tyes

# The permission mask is initialized to this value. If not specified,
# the permission mask will be initialized to 022.
UMASK           077

# This enables userdel to remove user groups if no members exist.
#
USERGROUPS_ENAB yes

# Use SHA512 to encrypt password.
ENCRYPT_METHOD SHA512
{tail}"""


def logindefs(t, key):
    val = None
    for line in t["etc/login.defs"].splitlines():
        w = line.split()
        if len(w) >= 2 and w[0] == key:
            val = w[1].strip('"')
    return val


@scenario
def r_maxdays():
    v = {"etc/login.defs": LOGIN_DEFS.replace("{max}", "365").replace("{tail}", "\n# appended by provisioning (legacy image)\n"
                                                                       "PASS_MAX_DAYS   99999\n")}
    c = {"etc/login.defs": LOGIN_DEFS.replace("{max}", "99999").replace("{tail}", "\n# CIS 5.6.1.1 - appended by the hardening role\n"
                                                                         "#PASS_MAX_DAYS 99999\npass_max_days 9999\n"
                                                                         "PASS_MAX_DAYS\t365\n")}
    RPRED["set4-rhel-password-expiry"] = lambda t: set() if int(logindefs(t, "PASS_MAX_DAYS") or 99999) <= 365 \
        else {"login.defs//PASS_MAX_DAYS"}
    return S("set4-rhel-password-expiry", "5.6.1.1", "auditor",
             "Audit finding: passwords on these hosts never expire. Accounts created from now on must receive "
             "passwords that have to be changed at least once a year (365 days at the most).", v, c,
             ["login.defs//PASS_MAX_DAYS"],
             "login.defs is read top to bottom and a later line for the same item replaces an earlier one. Violating: "
             "365 at the usual place, but a line appended at the end sets 99999. Compliant: 99999 at the usual "
             "place, overridden at the end by 365 (exactly a year, in range); near misses: a commented "
             "`#PASS_MAX_DAYS 99999` and a lowercase `pass_max_days 9999` (item names are case-sensitive; "
             "unknown item, ignored).",
             "the last PASS_MAX_DAYS line in force is 99999", platform="rhel9", classes=RHEL)


PWQ_CONF = """# Configuration for systemwide password quality limits
# Defaults:
#
# Number of characters in the new password that must not be present in the
# old password.
# difok = 1
#
# Minimum acceptable size for the new password (plus one if
# credits are not disabled which is the default). (See pam_cracklib manual.)
# Cannot be set to lower value than 6.
# minlen = 8
#
# The maximum credit for having digits in the new password. If less than 0
# it is the minimum number of digits in the new password.
# dcredit = 0
#
# Whether to check it it contains the user name in some form.
# Enforced for the root user as well, if enforce_for_root is set.
# usercheck = 1
#
# Prompt user at most N times before returning with error. The default is 1.
# retry = 3
#
# Enforces pwquality checks on the root user password.
# Enabled if the option is present.
# enforce_for_root
"""
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


def pwq_minlen(t):
    vals = []
    for f in ("etc/pam.d/system-auth", "etc/pam.d/password-auth"):
        conf = None
        for p in ["etc/security/pwquality.conf"] + sorted(k for k in t if k.startswith("etc/security/pwquality.conf.d/")
                                                           and k.endswith(".conf")):
            for line in t[p].splitlines():
                w = line.split("#")[0].replace("=", " = ").split()
                if len(w) == 3 and w[0] == "minlen": conf = int(w[2])
        for line in t[f].splitlines():
            w = line.split()
            if len(w) >= 3 and w[0] == "password" and w[2] == "pam_pwquality.so":
                for a in w[3:]:
                    if a.startswith("minlen="): conf = int(a[7:])
        vals.append(conf if conf is not None else 8)
    return min(vals)


@scenario
def r_pwquality():
    base = {"etc/security/pwquality.conf": PWQ_CONF,
            "etc/security/pwquality.conf.d/50-cis.conf": "# CIS 5.4.1\nminlen = 14\nminclass = 4\nenforce_for_root\n",
            "etc/pam.d/password-auth": SYSTEM_AUTH.replace("{pwq}", "local_users_only")}
    v = dict(base)
    v["etc/pam.d/system-auth"] = SYSTEM_AUTH.replace("{pwq}", "try_first_pass local_users_only retry=3 minlen=8")
    c = dict(base)
    c["etc/pam.d/system-auth"] = SYSTEM_AUTH.replace("{pwq}", "try_first_pass local_users_only retry=3")
    c["etc/security/pwquality.conf.d/60-old.conf.rpmnew"] = "minlen = 8\n"
    RPRED["set4-rhel-password-length"] = lambda t: set() if pwq_minlen(t) >= 14 else {"pwquality//minlen"}
    return S("set4-rhel-password-length", None, "CIS",
             "CIS RHEL 9 (Ensure password length is configured): a new password shorter than 14 characters must be "
             "refused. The length check is pam_pwquality's, configured in /etc/security/pwquality.conf and the "
             "*.conf files of /etc/security/pwquality.conf.d; options written on a pam_pwquality line of the PAM "
             "stack count as well.", v, c, ["pwquality//minlen"],
             "Violating: pwquality.conf.d/50-cis.conf sets minlen 14, but system-auth (used by passwd) passes "
             "`minlen=8` on the pam_pwquality line, which overrides the files. Compliant: no override; near misses: "
             "the commented `# minlen = 8` default in pwquality.conf, `minlen = 8` in a .conf.rpmnew file (not "
             "read), retry=3 on the PAM line.",
             "pam_pwquality module argument minlen=8 in system-auth", platform="rhel9", classes=RHEL)


CRYPTO_CONFIG = """# This file should contain a single keyword, the crypto policy to
# be applied by default to applications. The available policies are
# restricted to the following profiles.
#
# * LEGACY: Ensures maximum compatibility with legacy systems (64-bit
#   security)
#
# * DEFAULT: A reasonable default for today's standards (112-bit security).
#
# * FUTURE: A level that will provide security on a conservative level that is
#   believed to withstand any near-term future attacks (128-bit security).
#
# * FIPS: Policy that enables only FIPS 140-2 approved or allowed algorithms.
#
# After modifying this file, you need to run update-crypto-policies
# for the changes to propagate.
#
{policy}
"""


def crypto_policy(t):
    for line in t["etc/crypto-policies/config"].splitlines():
        line = line.split("#")[0].strip()
        if line: return line.split(":")
    return ["DEFAULT"]


@scenario
def r_crypto():
    def h(pol, extra=""):
        return {"etc/crypto-policies/config": CRYPTO_CONFIG.replace("{policy}", extra + pol),
                "etc/crypto-policies/state/current": pol + "\n",
                "etc/crypto-policies/state/CURRENT.pol": "# Policy " + pol + " dumped from policy modules\n"}
    v = h("DEFAULT:NO-CAMELLIA:SHA1", "# SHA1 re-enabled for the old AD domain controllers, see CHG-3150\n")
    c = h("DEFAULT:NO-CAMELLIA", "# was LEGACY until the AD migration (CHG-3150); SHA1 sub-policy dropped 2026-09\n#DEFAULT:SHA1\n")

    def bad(t):
        p = crypto_policy(t)
        return {"crypto-policies//config"} if p[0] == "LEGACY" or "SHA1" in p[1:] else set()
    RPRED["set4-rhel-crypto-no-sha1"] = bad
    return S("set4-rhel-crypto-no-sha1", None, "auditor",
             "The system-wide cryptographic policy of these hosts must not be weakened for old peers: neither the "
             "LEGACY policy nor any sub-policy that re-enables SHA-1 signatures may be in effect.", v, c,
             ["crypto-policies//config"],
             "Violating: /etc/crypto-policies/config selects DEFAULT:NO-CAMELLIA:SHA1 (the SHA1 module third, after a "
             "harmless one); state/current agrees. Compliant: DEFAULT:NO-CAMELLIA; near misses: the file's own "
             "comment block listing LEGACY, a comment saying it was LEGACY, and a commented-out `#DEFAULT:SHA1` line.",
             "the SHA1 sub-policy is part of the configured policy", platform="rhel9", classes=RHEL)


AUDIT_BASE = """## First rule - delete all
-D

## Increase the buffers to survive stress events.
## Make this bigger for busy systems
-b 8192

## This determine how long to wait in burst of events
--backlog_wait_time 60000

## Set failure mode to syslog
-f 1
"""


def audit_ok(rules_text, path):
    for line in rules_text.splitlines():
        w = line.split("#")[0].split()
        if not w: continue
        if w[0] == "-w" and len(w) > 1 and w[1].rstrip("/") == path and "-p" in w:
            p = w[w.index("-p") + 1]
            if "w" in p and "a" in p: return True
        if w[0] == "-a" and any(x in (f"path={path}", f"dir={path}", f"dir={path}/") for x in w):
            perms = [x[5:] for x in w if x.startswith("perm=")]
            if perms and "w" in perms[0] and "a" in perms[0]: return True
    return False


def audit_host(scope):
    t = {"etc/audit/rules.d/10-base-config.rules": AUDIT_BASE,
         "etc/audit/rules.d/50-scope.rules": scope,
         "etc/audit/rules.d/99-finalize.rules": "## make the configuration immutable\n-e 2\n",
         "etc/audit/auditd.conf": "log_file = /var/log/audit/audit.log\nlog_format = ENRICHED\nmax_log_file = 32\n"
                                  "max_log_file_action = keep_logs\nspace_left_action = email\nadmin_space_left_action = single\n"}
    t["etc/audit/audit.rules"] = "## This file is automatically generated from /etc/audit/rules.d\n" + "".join(
        t[k] for k in sorted(t) if k.startswith("etc/audit/rules.d/") and k.endswith(".rules"))
    return t


@scenario
def r_audit():
    v = audit_host("## 4.1.3.1 scope: changes to sudo configuration\n-w /etc/sudoers -p wa -k scope\n"
                   "#-w /etc/sudoers.d/ -p wa -k scope\n-w /etc/sudoers.d/ -p r -k sudoers-read\n")
    c = audit_host("## 4.1.3.1 scope: changes to sudo configuration\n"
                   "-a always,exit -F arch=b64 -F path=/etc/sudoers -F perm=wa -k scope\n"
                   "-a always,exit -F arch=b32 -F path=/etc/sudoers -F perm=wa -k scope\n"
                   "-w /etc/sudoers.d/ -p aw -k scope\n")
    v["etc/audit/rules.d/50-scope.rules.disabled"] = "-w /etc/sudoers.d/ -p wa -k scope\n"

    def bad(t):
        r = "".join(t[k] for k in sorted(t) if k.startswith("etc/audit/rules.d/") and k.endswith(".rules"))
        return {"audit.rules//" + p for p in ("/etc/sudoers", "/etc/sudoers.d") if not audit_ok(r, p)}
    RPRED["set4-rhel-audit-sudoers"] = bad
    return S("set4-rhel-audit-sudoers", "4.1.3.1", "operator",
             "Any change to who may use sudo, whether in /etc/sudoers or in a file under /etc/sudoers.d, must leave "
             "a record in the audit log: writes to those files and changes to their attributes, and the rules "
             "must be the persistent ones loaded at boot.", v, c, ["audit.rules///etc/sudoers.d"],
             "Persistent rules are /etc/audit/rules.d/*.rules (augenrules builds /etc/audit/audit.rules from them; "
             "both are consistent here). Violating: /etc/sudoers is watched for wa, but the wa watch on "
             "/etc/sudoers.d is commented out and only a read watch (-p r) remains; the right rule sits in "
             "50-scope.rules.disabled, which augenrules ignores. Compliant: syscall-rule form with path= and "
             "perm=wa for /etc/sudoers (b64 and b32), and `-w /etc/sudoers.d/ -p aw` (letters reversed, trailing "
             "slash).",
             "no write/attribute watch on /etc/sudoers.d", platform="rhel9", classes=RHEL)


FAKEKEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAA{n}\n-----END OPENSSH PRIVATE KEY-----\n"


@scenario
def r_hostkeys():
    files = {}
    for k in ("rsa", "ecdsa", "ed25519"):
        files[f"etc/ssh/ssh_host_{k}_key"] = FAKEKEY.replace("{n}", k.upper() + "c2V0NC1mYWtl")
        files[f"etc/ssh/ssh_host_{k}_key.pub"] = f"ssh-{k} AAAAC3NzaC1set4fake{k} root@rhel9\n"

    def attrs(ed_mode):
        a = {"/etc/ssh/ssh_host_rsa_key": {"mode": "0600", "owner": "root", "group": "root"},
             "/etc/ssh/ssh_host_ecdsa_key": {"mode": "0640", "owner": "root", "group": "ssh_keys"},
             "/etc/ssh/ssh_host_ed25519_key": {"mode": ed_mode, "owner": "root", "group": "ssh_keys"}}
        for k in ("rsa", "ecdsa", "ed25519"):
            a[f"/etc/ssh/ssh_host_{k}_key.pub"] = {"mode": "0644", "owner": "root", "group": "root"}
        return a
    v = dict(files, **{"host-attributes.yaml": attrs("0644")})
    c = dict(files, **{"host-attributes.yaml": attrs("0640")})

    def bad(t):
        out = set()
        for p, a in t["host-attributes.yaml"].items():
            if p.endswith("_key"):
                m = int(a["mode"], 8)
                if m & 0o037 or (m & 0o040 and a["group"] != "ssh_keys"):
                    out.add("file//" + p)
        return out
    RPRED["set4-rhel-host-keys-private"] = bad
    return S("set4-rhel-host-keys-private", "5.2.2", "effect",
             "Only root may read the SSH server's private host keys, apart from the ssh_keys group that RHEL's "
             "sshd uses for them; nobody but root may change them. The public halves may stay world-readable.",
             v, c, ["file///etc/ssh/ssh_host_ed25519_key"],
             "Modes in host-attributes.yaml (at the environment's root, beside host/). Violating: the ed25519 private "
             "key is 0644 (world-readable); the rsa key 0600 root:root and the ecdsa key 0640 root:ssh_keys are "
             "fine. Compliant: ed25519 0640 root:ssh_keys. Near misses (both): the .pub files at 0644.",
             "a private host key readable by others", platform="rhel9", classes=RHEL)


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
