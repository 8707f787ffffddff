#!/usr/bin/env python3
"""gatekeeper2 -- held-out OPA Gatekeeper cases (blind-c). stdlib only, deterministic.

usage: python3 gen.py OUTDIR   -> OUTDIR/<case>/{template.yaml, resources.yaml, expected.json}
Labels (expected verdicts) are written by hand below, next to each object, and were fixed
before anything was run.
"""
import json
import os
import re
import sys

# ---------------------------------------------------------------- tiny YAML emitter
_PLAIN_KEY = re.compile(r"^[A-Za-z0-9_.\-/]+$")


def _key(k):
    return k if _PLAIN_KEY.match(k) and k not in ("true", "false", "null", "yes", "no", "on", "off") \
        and not re.match(r"^[0-9.\-]+$", k) else json.dumps(k)


def _scalar(v):
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if isinstance(v, (int, float)):
        return str(v)
    return json.dumps(v)


def _emit(v, ind, out):
    pad = "  " * ind
    if isinstance(v, dict):
        if not v:
            out.append(pad + "{}")
        for k, x in v.items():
            if isinstance(x, str) and "\n" in x:
                out.append(f"{pad}{_key(k)}: |")
                for line in x.rstrip("\n").split("\n"):
                    out.append(("  " * (ind + 1) + line) if line else "")
            elif isinstance(x, dict) and x:
                out.append(f"{pad}{_key(k)}:")
                _emit(x, ind + 1, out)
            elif isinstance(x, list) and x:
                out.append(f"{pad}{_key(k)}:")
                _emit(x, ind, out)
            elif isinstance(x, (dict, list)):
                out.append(f"{pad}{_key(k)}: {'{}' if isinstance(x, dict) else '[]'}")
            else:
                out.append(f"{pad}{_key(k)}: {_scalar(x)}")
    elif isinstance(v, list):
        for x in v:
            if isinstance(x, (dict, list)) and x:
                sub = []
                _emit(x, ind + 1, sub)
                first = sub[0]
                sub[0] = pad + "- " + first[len(pad) + 2:]
                out.extend(sub)
            else:
                out.append(f"{pad}- {_scalar(x) if not isinstance(x, (dict, list)) else ('{}' if isinstance(x, dict) else '[]')}")
    else:
        out.append(pad + _scalar(v))


def dump_all(docs):
    parts = []
    for d in docs:
        out = []
        _emit(d, 0, out)
        parts.append("\n".join(out) + "\n")
    return "---\n".join(parts)


# ---------------------------------------------------------------- object helpers
def ns(name, **labels):
    lab = {"kubernetes.io/metadata.name": name}
    lab.update(labels)
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": lab}}


def meta(name, namespace=None, labels=None, annotations=None):
    m = {"name": name}
    if namespace:
        m["namespace"] = namespace
    if labels:
        m["labels"] = labels
    if annotations:
        m["annotations"] = annotations
    return m


def ctr(name, image="registry.acme.example/app/" + "svc:1.4.2", **extra):
    c = {"name": name, "image": image}
    c.update(extra)
    return c


def pod(name, namespace, spec=None, labels=None, annotations=None):
    spec = spec or {"containers": [ctr(name)]}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta(name, namespace, labels, annotations), "spec": spec}


def deploy(name, namespace, podspec=None, labels=None, annotations=None, replicas=2, kind="Deployment",
           api="apps/v1"):
    podspec = podspec or {"containers": [ctr(name, imagePullPolicy="IfNotPresent")]}
    sel = {"app.kubernetes.io/name": name}
    return {"apiVersion": api, "kind": kind, "metadata": meta(name, namespace, labels, annotations),
            "spec": {"replicas": replicas, "selector": {"matchLabels": sel},
                     "template": {"metadata": {"labels": dict(sel)}, "spec": podspec}}}


def template(name, kind, rego, props=None, libs=None):
    t = {"apiVersion": "templates.gatekeeper.sh/v1", "kind": "ConstraintTemplate",
         "metadata": {"name": name},
         "spec": {"crd": {"spec": {"names": {"kind": kind}}}, "targets": []}}
    if props:
        t["spec"]["crd"]["spec"]["validation"] = {"openAPIV3Schema": {"type": "object", "properties": props}}
    tgt = {"target": "admission.k8s.gatekeeper.sh", "rego": rego}
    if libs:
        tgt["libs"] = libs
    t["spec"]["targets"].append(tgt)
    return t


def constraint(kind, name, match=None, parameters=None, **spec_extra):
    spec = {}
    spec.update(spec_extra)
    if match is not None:
        spec["match"] = match
    if parameters is not None:
        spec["parameters"] = parameters
    return {"apiVersion": "constraints.gatekeeper.sh/v1beta1", "kind": kind, "metadata": {"name": name},
            "spec": spec}


def kinds(group, *ks):
    return {"apiGroups": [group], "kinds": list(ks)}


STR = {"type": "string"}
STRS = {"type": "array", "items": {"type": "string"}}

CASES = []


def case(cid, templates, resources):
    """resources: list of (object, label) with label 'fail' or 'pass'."""
    CASES.append((cid, templates, resources))


# ================================================================= g01 name globs
REGO_ANN = """package acmerequiredannotations

violation[{"msg": msg}] {
  key := input.parameters.annotations[_]
  not has_annotation(key)
  msg := sprintf("%v must carry a non-empty annotation %v", [input.review.object.metadata.name, key])
}

has_annotation(key) {
  v := input.review.object.metadata.annotations[key]
  v != ""
}
"""
case("g01-name-globs-prefix-and-suffix", [
    template("acmerequiredannotations", "AcmeRequiredAnnotations", REGO_ANN, {"annotations": STRS}),
    constraint("AcmeRequiredAnnotations", "canary-deployments-have-owner",
               {"kinds": [kinds("apps", "Deployment")], "name": "canary-*"},
               {"annotations": ["rollout.acme.io/owner"]}),
    constraint("AcmeRequiredAnnotations", "debug-workloads-expire",
               {"kinds": [kinds("apps", "Deployment"), kinds("", "Pod")], "name": "*-debug"},
               {"annotations": ["acme.io/expires"]}),
], [
    (ns("web"), "pass"),
    (ns("tools"), "pass"),
    (deploy("canary-checkout", "web"), "fail"),
    (deploy("canary-search", "web", annotations={"rollout.acme.io/owner": "team-search"}), "pass"),
    (deploy("canary-cart", "web", annotations={"rollout.acme.io/owner": ""}), "fail"),
    (deploy("canarycart", "web"), "pass"),
    (deploy("cart-canary", "web"), "pass"),
    (pod("canary-probe", "web"), "pass"),
    ({"apiVersion": "v1", "kind": "Service", "metadata": meta("canary-checkout", "web"),
      "spec": {"selector": {"app.kubernetes.io/name": "canary-checkout"}, "ports": [{"port": 80}]}}, "pass"),
    (pod("net-debug", "web"), "fail"),
    (pod("net-debug-2", "web"), "pass"),
    (deploy("db-debug", "web", annotations={"acme.io/expires": "2026-12-01"}), "pass"),
    (deploy("log-debug", "tools", annotations={"acme.io/expire": "2026-12-01"}), "fail"),
    (pod("debugger", "tools"), "pass"),
])

# ================================================================= g02 contains glob, inner star
REGO_AUTOMOUNT = """package acmenoautomount

violation[{"msg": msg}] {
  not input.review.object.spec.automountServiceAccountToken == false
  msg := sprintf("pod %v must set automountServiceAccountToken: false", [input.review.object.metadata.name])
}
"""
case("g02-namespace-contains-glob-and-inner-star", [
    template("acmenoautomount", "AcmeNoAutomount", REGO_AUTOMOUNT),
    constraint("AcmeNoAutomount", "pci-pods-no-token", {"kinds": [kinds("", "Pod")], "namespaces": ["*pci*"]}),
    constraint("AcmeNoAutomount", "team-prod-pods-no-token",
               {"kinds": [kinds("", "Pod")], "namespaces": ["team-*-prod"]}),
], [
    (ns("pci"), "pass"),
    (ns("card-pci"), "pass"),
    (ns("pci-vault"), "pass"),
    (ns("payments"), "pass"),
    (ns("team-a-prod"), "pass"),
    (pod("api", "pci"), "fail"),
    (pod("tokenizer", "card-pci", {"automountServiceAccountToken": False, "containers": [ctr("tokenizer")]}), "pass"),
    (pod("batch", "card-pci", {"automountServiceAccountToken": True, "containers": [ctr("batch")]}), "fail"),
    (pod("agent", "pci-vault", {"automountServiceAccountToken": False, "containers": [ctr("agent")]}), "pass"),
    (pod("unsealer", "pci-vault"), "fail"),
    (pod("ledger", "payments"), "pass"),
    (pod("web", "team-a-prod", {"automountServiceAccountToken": True, "containers": [ctr("web")]}), "pass"),
    (deploy("api-deploy", "pci"), "pass"),
])

# ================================================================= g03 enforcement actions
REGO_PULL = """package acmepullalways

violation[{"msg": msg}] {
  c := input.review.object.spec.template.spec.containers[_]
  not c.imagePullPolicy == "Always"
  msg := sprintf("container %v must use imagePullPolicy Always, has %v", [c.name, object.get(c, "imagePullPolicy", "unset")])
}
"""
PK = [kinds("apps", "Deployment")]


def dpull(name, n, policy):
    return deploy(name, n, {"containers": [ctr(name, imagePullPolicy=policy)]})


case("g03-enforcement-actions-scoped-variants", [
    template("acmepullalways", "AcmePullAlways", REGO_PULL),
    constraint("AcmePullAlways", "pull-always-prod", {"kinds": PK, "namespaces": ["prod"]},
               enforcementAction="scoped",
               scopedEnforcementActions=[
                   {"action": "warn", "enforcementPoints": [{"name": "validation.gatekeeper.sh"}]},
                   {"action": "deny", "enforcementPoints": [{"name": "audit.gatekeeper.sh"}]}]),
    constraint("AcmePullAlways", "pull-always-staging", {"kinds": PK, "namespaces": ["staging"]},
               enforcementAction="scoped",
               scopedEnforcementActions=[{"action": "warn", "enforcementPoints": [{"name": "*"}]}]),
    constraint("AcmePullAlways", "pull-always-dev", {"kinds": PK, "namespaces": ["dev"]},
               enforcementAction="scoped",
               scopedEnforcementActions=[{"action": "deny", "enforcementPoints": [
                   {"name": "gator.gatekeeper.sh"}, {"name": "validation.gatekeeper.sh"}]}]),
    constraint("AcmePullAlways", "pull-always-qa", {"kinds": PK, "namespaces": ["qa"]},
               enforcementAction="warn"),
    constraint("AcmePullAlways", "pull-always-perf", {"kinds": PK, "namespaces": ["perf"]},
               enforcementAction="dryrun"),
    constraint("AcmePullAlways", "pull-always-ops", {"kinds": PK, "namespaces": ["ops"]},
               enforcementAction="deny",
               scopedEnforcementActions=[{"action": "deny", "enforcementPoints": [{"name": "gator.gatekeeper.sh"}]}]),
], [
    (ns("prod"), "pass"), (ns("staging"), "pass"), (ns("dev"), "pass"), (ns("qa"), "pass"),
    (ns("perf"), "pass"), (ns("ops"), "pass"),
    (dpull("api", "prod", "IfNotPresent"), "fail"),
    (dpull("web", "prod", "Always"), "pass"),
    (dpull("api", "staging", "IfNotPresent"), "fail"),
    (dpull("api", "dev", "IfNotPresent"), "pass"),
    (dpull("api", "qa", "Never"), "fail"),
    (dpull("api", "perf", "IfNotPresent"), "fail"),
    (dpull("api", "ops", "IfNotPresent"), "fail"),
    (dpull("worker", "ops", "Always"), "pass"),
])

# ================================================================= g04 cert-manager CRD
REGO_CERT = """package acmecertkeys

algorithm = a {
  a := input.review.object.spec.privateKey.algorithm
}

algorithm = "RSA" {
  not input.review.object.spec.privateKey.algorithm
}

size = s {
  s := input.review.object.spec.privateKey.size
}

size = 2048 {
  not input.review.object.spec.privateKey.size
}

known_algorithm {
  algorithm == {"RSA", "ECDSA", "Ed25519"}[_]
}

violation[{"msg": msg}] {
  algorithm == "RSA"
  size < input.parameters.minRSASize
  msg := sprintf("certificate %v uses an RSA key of %v bits (minimum %v); cert-manager defaults to RSA 2048", [input.review.object.metadata.name, size, input.parameters.minRSASize])
}

violation[{"msg": msg}] {
  not known_algorithm
  msg := sprintf("certificate %v uses an unknown key algorithm %v", [input.review.object.metadata.name, algorithm])
}
"""


def cert(name, n, pk=None, api="cert-manager.io/v1", kind="Certificate"):
    spec = {"secretName": name, "dnsNames": [f"{name}.acme.example"],
            "issuerRef": {"name": "corp-ca", "kind": "ClusterIssuer"}}
    if pk is not None:
        spec["privateKey"] = pk
    return {"apiVersion": api, "kind": kind, "metadata": meta(name, n), "spec": spec}


case("g04-crd-cert-manager-key-size", [
    template("acmecertkeys", "AcmeCertKeys", REGO_CERT, {"minRSASize": {"type": "integer"}}),
    constraint("AcmeCertKeys", "certificates-strong-keys",
               {"kinds": [kinds("cert-manager.io", "Certificate")], "excludedNamespaces": ["cert-manager"]},
               {"minRSASize": 3072}),
], [
    (ns("shop"), "pass"), (ns("cert-manager"), "pass"),
    (cert("shop-tls", "shop", {"algorithm": "RSA", "size": 2048}), "fail"),
    (cert("api-tls", "shop", {"algorithm": "ECDSA", "size": 384}), "pass"),
    (cert("legacy-tls", "shop"), "fail"),
    (cert("big-tls", "shop", {"algorithm": "RSA", "size": 4096, "rotationPolicy": "Always"}), "pass"),
    (cert("rsa-only", "shop", {"algorithm": "RSA", "rotationPolicy": "Always"}), "fail"),
    (cert("edge-tls", "shop", {"algorithm": "Ed25519"}), "pass"),
    (cert("webhook-ca", "cert-manager", {"algorithm": "RSA", "size": 2048}), "pass"),
    (cert("internal-cert", "shop", {"algorithm": "RSA", "size": 1024}, api="certs.acme.io/v1alpha1"), "pass"),
    ({"apiVersion": "cert-manager.io/v1", "kind": "CertificateRequest", "metadata": meta("shop-tls-1", "shop"),
      "spec": {"request": "LS0tLS1CRUdJTi...", "issuerRef": {"name": "corp-ca", "kind": "ClusterIssuer"}}}, "pass"),
    ({"apiVersion": "v1", "kind": "Secret", "metadata": meta("shop-tls", "shop"), "type": "kubernetes.io/tls",
      "data": {"tls.crt": "LS0t", "tls.key": "LS0t"}}, "pass"),
])

# ================================================================= g05 Gateway API
REGO_PARENTS = """package acmerouteparents

parent_namespace(ref) = n {
  n := ref.namespace
}

parent_namespace(ref) = n {
  not ref.namespace
  n := input.review.object.metadata.namespace
}

violation[{"msg": msg}] {
  ref := input.review.object.spec.parentRefs[_]
  n := parent_namespace(ref)
  not allowed_namespace(n)
  msg := sprintf("%v %v attaches to gateway %v/%v outside %v", [input.review.object.kind, input.review.object.metadata.name, n, ref.name, input.parameters.gatewayNamespaces])
}

allowed_namespace(n) {
  n == input.parameters.gatewayNamespaces[_]
}
"""
REGO_GWFROM = """package acmegatewayroutesfrom

violation[{"msg": msg}] {
  l := input.review.object.spec.listeners[_]
  l.allowedRoutes.namespaces.from == "All"
  msg := sprintf("listener %v of gateway %v accepts routes from every namespace", [l.name, input.review.object.metadata.name])
}
"""
GW = "gateway.networking.k8s.io"


def gateway(name, n, listeners):
    return {"apiVersion": f"{GW}/v1", "kind": "Gateway", "metadata": meta(name, n),
            "spec": {"gatewayClassName": "acme-lb", "listeners": listeners}}


def route(kind, name, n, parents, api=f"{GW}/v1"):
    spec = {"parentRefs": parents}
    if kind == "HTTPRoute":
        spec["hostnames"] = [f"{name}.acme.example"]
        spec["rules"] = [{"backendRefs": [{"name": name, "port": 8080}]}]
    else:
        spec["rules"] = [{"backendRefs": [{"name": name, "port": 9090}]}]
    return {"apiVersion": api, "kind": kind, "metadata": meta(name, n), "spec": spec}


case("g05-gateway-api-routes-and-listeners", [
    template("acmerouteparents", "AcmeRouteParents", REGO_PARENTS, {"gatewayNamespaces": STRS}),
    template("acmegatewayroutesfrom", "AcmeGatewayRoutesFrom", REGO_GWFROM),
    constraint("AcmeRouteParents", "routes-attach-to-shared-gateways",
               {"kinds": [kinds(GW, "HTTPRoute", "GRPCRoute")]}, {"gatewayNamespaces": ["infra-gw"]}),
    constraint("AcmeGatewayRoutesFrom", "gateways-no-open-listeners", {"kinds": [kinds(GW, "Gateway")]}),
], [
    (ns("infra-gw"), "pass"), (ns("shop"), "pass"), (ns("labs"), "pass"),
    (gateway("public", "infra-gw", [
        {"name": "http", "port": 80, "protocol": "HTTP",
         "allowedRoutes": {"namespaces": {"from": "Selector", "selector": {"matchLabels": {"gw-access": "public"}}}}},
        {"name": "https", "port": 443, "protocol": "HTTPS", "allowedRoutes": {"namespaces": {"from": "Same"}}}]), "pass"),
    (gateway("shared", "infra-gw", [
        {"name": "http", "port": 80, "protocol": "HTTP", "allowedRoutes": {"namespaces": {"from": "Same"}}},
        {"name": "any", "port": 8080, "protocol": "HTTP", "allowedRoutes": {"namespaces": {"from": "All"}}}]), "fail"),
    (gateway("own-gw", "shop", [{"name": "http", "port": 80, "protocol": "HTTP"}]), "pass"),
    (route("HTTPRoute", "storefront", "shop", [{"name": "public", "namespace": "infra-gw"}]), "pass"),
    (route("HTTPRoute", "admin", "shop", [{"name": "public", "namespace": "infra-gw"}, {"name": "own-gw"}]), "fail"),
    (route("HTTPRoute", "redirect", "infra-gw", [{"name": "public"}]), "pass"),
    (route("GRPCRoute", "inventory", "shop", [{"name": "own-gw", "namespace": "shop"}]), "fail"),
    (route("TCPRoute", "db", "shop", [{"name": "own-gw"}], api=f"{GW}/v1alpha2"), "pass"),
    (route("HTTPRoute", "demo", "labs", [{"name": "shared", "namespace": "infra-gw", "sectionName": "any"}]), "pass"),
    ({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": meta("legacy", "shop"),
      "spec": {"rules": [{"host": "legacy.acme.example", "http": {"paths": [{"path": "/", "pathType": "Prefix",
               "backend": {"service": {"name": "legacy", "port": {"number": 80}}}}]}}]}}, "pass"),
])

# ================================================================= g06 libs, label/namespace selectors
LIB_OWNER = """package lib.acme_owner

owner(obj) = o {
  o := obj.metadata.labels["acme.io/owner"]
}

owner(obj) = o {
  not obj.metadata.labels["acme.io/owner"]
  o := obj.metadata.annotations["acme.io/owner"]
}
"""
REGO_OWNER = """package acmeowner

import data.lib.acme_owner

violation[{"msg": msg}] {
  not acme_owner.owner(input.review.object)
  msg := sprintf("%v has no acme.io/owner label or annotation", [input.review.object.metadata.name])
}

violation[{"msg": msg}] {
  o := acme_owner.owner(input.review.object)
  not regex.match(input.parameters.pattern, o)
  msg := sprintf("owner %v of %v does not match %v", [o, input.review.object.metadata.name, input.parameters.pattern])
}
"""


def cron(name, n, labels=None, annotations=None, tmpl_labels=None):
    return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": meta(name, n, labels, annotations),
            "spec": {"schedule": "0 2 * * *", "jobTemplate": {
                "metadata": {"labels": tmpl_labels or {}},
                "spec": {"template": {"spec": {"restartPolicy": "OnFailure", "containers": [ctr(name)]}}}}}}


PO = "app.kubernetes.io/part-of"
case("g06-lib-owner-label-or-annotation", [
    template("acmeowner", "AcmeOwner", REGO_OWNER, {"pattern": STR}, libs=[LIB_OWNER]),
    constraint("AcmeOwner", "workloads-have-owner",
               {"kinds": [kinds("apps", "Deployment", "StatefulSet")],
                "labelSelector": {"matchExpressions": [{"key": PO, "operator": "Exists"}]}},
               {"pattern": "^team-[a-z]+$"}),
    constraint("AcmeOwner", "cronjobs-have-owner",
               {"kinds": [kinds("batch", "CronJob")], "namespaceSelector": {"matchLabels": {"owner-policy": "enforced"}}},
               {"pattern": "^team-[a-z]+$"}),
], [
    (ns("billing", **{"owner-policy": "enforced"}), "pass"),
    (ns("lab"), "pass"),
    (deploy("invoicer", "billing", labels={PO: "billing", "acme.io/owner": "team-billing"}), "pass"),
    (deploy("pdf-render", "billing", labels={PO: "billing"}, annotations={"acme.io/owner": "team-docs"}), "pass"),
    (deploy("mailer", "billing", labels={PO: "billing", "acme.io/owner": "billing-team"}), "fail"),
    (deploy("ledger-db", "billing", labels={PO: "billing"}, kind="StatefulSet"), "fail"),
    (deploy("sidecar-inject", "billing"), "pass"),
    (deploy("scratch", "lab", labels={PO: "lab"}, annotations={"acme.io/owner": "Team-Lab"}), "fail"),
    (deploy("cache", "billing", labels={PO: "billing", "acme.io/owner": "team-cache"},
            annotations={"acme.io/owner": "cache team"}, kind="StatefulSet"), "pass"),
    (cron("nightly-export", "billing", tmpl_labels={"acme.io/owner": "team-billing"}), "fail"),
    (cron("cleanup", "lab"), "pass"),
    (cron("rollup", "billing", annotations={"acme.io/owner": "team-billing"}), "pass"),
    ({"apiVersion": "batch/v1", "kind": "Job", "metadata": meta("one-off", "billing"),
      "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [ctr("one-off")]}}}}, "pass"),
])

# ================================================================= g07 PDBs with NotIn namespaceSelector
REGO_PDB = """package acmepdbdrain

blocks_drain(v) {
  v == 0
}

blocks_drain(v) {
  v == "0%"
}

violation[{"msg": msg}] {
  blocks_drain(input.review.object.spec.maxUnavailable)
  msg := sprintf("PDB %v allows no disruption (maxUnavailable %v)", [input.review.object.metadata.name, input.review.object.spec.maxUnavailable])
}

violation[{"msg": msg}] {
  input.review.object.spec.minAvailable == "100%"
  msg := sprintf("PDB %v allows no disruption (minAvailable 100%%)", [input.review.object.metadata.name])
}
"""


def pdb(name, n, **spec):
    s = {"selector": {"matchLabels": {"app.kubernetes.io/name": name.replace("-pdb", "")}}}
    s.update(spec)
    return {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": meta(name, n), "spec": s}


case("g07-pdb-drain-blockers-notin-namespace-selector", [
    template("acmepdbdrain", "AcmePdbDrain", REGO_PDB),
    constraint("AcmePdbDrain", "pdbs-allow-node-drain",
               {"kinds": [kinds("policy", "PodDisruptionBudget")],
                "namespaceSelector": {"matchExpressions": [{"key": "tier", "operator": "NotIn", "values": ["sandbox"]}]}}),
], [
    (ns("orders", tier="prod"), "pass"), (ns("sandbox-a", tier="sandbox"), "pass"), (ns("misc"), "pass"),
    (pdb("api-pdb", "orders", maxUnavailable=0), "fail"),
    (pdb("worker-pdb", "orders", maxUnavailable="0%"), "fail"),
    (pdb("db-pdb", "orders", minAvailable="100%"), "fail"),
    (pdb("web-pdb", "orders", minAvailable=1), "pass"),
    (pdb("cache-pdb", "orders", maxUnavailable="10%"), "pass"),
    (pdb("queue-pdb", "orders", minAvailable=3), "pass"),
    (pdb("api-pdb", "sandbox-a", maxUnavailable=0), "pass"),
    (pdb("api-pdb", "misc", maxUnavailable=0), "fail"),
])

# ================================================================= g08 Namespace objects vs excludedNamespaces globs
REGO_NSLABEL = """package acmenslabelvalue

violation[{"msg": msg}] {
  not input.review.object.metadata.labels[input.parameters.key]
  msg := sprintf("%v lacks label %v", [input.review.object.metadata.name, input.parameters.key])
}

violation[{"msg": msg}] {
  v := input.review.object.metadata.labels[input.parameters.key]
  not allowed(v)
  msg := sprintf("%v has %v=%v, allowed %v", [input.review.object.metadata.name, input.parameters.key, v, input.parameters.allowed])
}

allowed(v) {
  v == input.parameters.allowed[_]
}
"""
PSA = "pod-security.kubernetes.io/enforce"
case("g08-namespace-psa-label-excluded-by-own-name", [
    template("acmenslabelvalue", "AcmeNsLabelValue", REGO_NSLABEL, {"key": STR, "allowed": STRS}),
    constraint("AcmeNsLabelValue", "namespaces-enforce-pss",
               {"kinds": [kinds("", "Namespace")], "excludedNamespaces": ["kube-*", "*-system", "default"]},
               {"key": PSA, "allowed": ["baseline", "restricted"]}),
], [
    (ns("kube-system"), "pass"),
    (ns("kube-node-lease"), "pass"),
    (ns("gatekeeper-system", **{"admission.gatekeeper.sh/ignore": "no-self-managing"}), "pass"),
    (ns("default"), "pass"),
    (ns("system-tools"), "fail"),
    (ns("kube"), "fail"),
    (ns("monitoring-system-backup"), "fail"),
    (ns("team-x", **{PSA: "privileged"}), "fail"),
    (ns("team-y", **{PSA: "restricted", "pod-security.kubernetes.io/enforce-version": "latest"}), "pass"),
    (ns("team-z", **{"pod-security.kubernetes.io/warn": "restricted",
                     "pod-security.kubernetes.io/audit": "restricted"}), "fail"),
    (ns("team-w", **{PSA: "baseline"}), "pass"),
    (pod("app", "team-x"), "pass"),
])

# ================================================================= g09 RBAC broad groups
REGO_BROAD = """package acmenobroadsubjects

violation[{"msg": msg}] {
  s := input.review.object.subjects[_]
  s.kind == "Group"
  s.name == input.parameters.forbiddenGroups[_]
  not exempt
  msg := sprintf("%v %v grants to the group %v", [input.review.object.kind, input.review.object.metadata.name, s.name])
}

exempt {
  startswith(input.review.object.metadata.name, input.parameters.exemptNamePrefixes[_])
}
"""
RBAC = "rbac.authorization.k8s.io"


def binding(kind, name, n, role_kind, role, subjects):
    return {"apiVersion": f"{RBAC}/v1", "kind": kind, "metadata": meta(name, n),
            "roleRef": {"apiGroup": RBAC, "kind": role_kind, "name": role}, "subjects": subjects}


def grp(name):
    return {"kind": "Group", "apiGroup": RBAC, "name": name}


case("g09-rbac-broad-groups-cluster-scoped-not-excluded", [
    template("acmenobroadsubjects", "AcmeNoBroadSubjects", REGO_BROAD,
             {"forbiddenGroups": STRS, "exemptNamePrefixes": STRS}),
    constraint("AcmeNoBroadSubjects", "no-bindings-to-everyone",
               {"kinds": [kinds(RBAC, "ClusterRoleBinding", "RoleBinding")], "excludedNamespaces": ["kube-public"]},
               {"forbiddenGroups": ["system:authenticated", "system:unauthenticated", "system:serviceaccounts"],
                "exemptNamePrefixes": ["system:"]}),
], [
    (ns("apps"), "pass"), (ns("kube-public"), "pass"),
    (binding("ClusterRoleBinding", "system:public-info-viewer", None, "ClusterRole", "system:public-info-viewer",
             [grp("system:authenticated"), grp("system:unauthenticated")]), "pass"),
    (binding("ClusterRoleBinding", "public-dashboard-view", None, "ClusterRole", "view",
             [grp("system:authenticated")]), "fail"),
    (binding("ClusterRoleBinding", "ci-all-sa", None, "ClusterRole", "edit",
             [grp("system:serviceaccounts")]), "fail"),
    (binding("ClusterRoleBinding", "ci-team-sa", None, "ClusterRole", "edit",
             [grp("system:serviceaccounts:ci")]), "pass"),
    (binding("ClusterRoleBinding", "systemd-exporter", None, "ClusterRole", "node-metrics-reader",
             [{"kind": "ServiceAccount", "name": "exporter", "namespace": "apps"}, grp("system:authenticated")]), "fail"),
    (binding("RoleBinding", "cluster-info-reader", "kube-public", "Role", "cluster-info-reader",
             [grp("system:unauthenticated")]), "pass"),
    (binding("RoleBinding", "everyone-view", "apps", "ClusterRole", "view",
             [{"kind": "User", "apiGroup": RBAC, "name": "system:authenticated"}]), "pass"),
    (binding("RoleBinding", "anon-read", "apps", "Role", "status-reader", [grp("system:unauthenticated")]), "fail"),
    (binding("RoleBinding", "devs-edit", "apps", "ClusterRole", "edit", [grp("acme:developers")]), "pass"),
    ({"apiVersion": f"{RBAC}/v1", "kind": "ClusterRole", "metadata": meta("view-all"),
      "rules": [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["get", "list", "watch"]}]}, "pass"),
])

# ================================================================= g10 hostPath on Pods and PVs
REGO_HOSTPATH = """package acmenohostpath

violation[{"msg": msg}] {
  input.review.object.kind == "PersistentVolume"
  input.review.object.spec.hostPath
  msg := sprintf("PersistentVolume %v is a hostPath volume", [input.review.object.metadata.name])
}

violation[{"msg": msg}] {
  input.review.object.kind == "Pod"
  v := input.review.object.spec.volumes[_]
  v.hostPath
  msg := sprintf("pod %v mounts the node path %v", [input.review.object.metadata.name, v.hostPath.path])
}
"""


def pv(name, source):
    spec = {"capacity": {"storage": "50Gi"}, "accessModes": ["ReadWriteOnce"],
            "persistentVolumeReclaimPolicy": "Retain"}
    spec.update(source)
    return {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": meta(name), "spec": spec}


def hp_pod(name, n, vols):
    return pod(name, n, {"containers": [ctr(name, volumeMounts=[{"name": v["name"], "mountPath": "/data/" + v["name"]}
                                                                for v in vols])], "volumes": vols})


case("g10-hostpath-pods-and-cluster-scoped-pvs", [
    template("acmenohostpath", "AcmeNoHostPath", REGO_HOSTPATH),
    constraint("AcmeNoHostPath", "no-node-paths",
               {"kinds": [kinds("", "Pod", "PersistentVolume")], "excludedNamespaces": ["storage-*"],
                "namespaceSelector": {"matchExpressions": [{"key": "hostpath.acme.io/allowed", "operator": "DoesNotExist"}]}}),
], [
    (ns("storage-csi"), "pass"), (ns("storage"), "pass"),
    (ns("logging", **{"hostpath.acme.io/allowed": "true"}), "pass"), (ns("apps"), "pass"),
    (pv("pv-node-logs", {"hostPath": {"path": "/var/log", "type": "Directory"}}), "fail"),
    (pv("pv-nfs-01", {"nfs": {"server": "nfs.acme.example", "path": "/exports/a"}}), "pass"),
    (pv("pv-local-ssd", {"local": {"path": "/mnt/disks/ssd0"}, "nodeAffinity": {"required": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "kubernetes.io/hostname", "operator": "In", "values": ["node-3"]}]}]}}}), "pass"),
    (hp_pod("csi-node", "storage-csi", [{"name": "plugin-dir", "hostPath": {"path": "/var/lib/kubelet/plugins"}}]), "pass"),
    (hp_pod("backup", "storage", [{"name": "snapshots", "hostPath": {"path": "/srv/snapshots"}}]), "fail"),
    (hp_pod("fluentd", "logging", [{"name": "varlog", "hostPath": {"path": "/var/log"}}]), "pass"),
    (hp_pod("web", "apps", [{"name": "host-cache", "emptyDir": {}}]), "pass"),
    (hp_pod("agent", "apps", [{"name": "cfg", "configMap": {"name": "agent"}},
                              {"name": "docker-sock", "hostPath": {"path": "/var/run/docker.sock", "type": "Socket"}}]), "fail"),
    ({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": meta("data", "apps"),
      "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "10Gi"}},
               "volumeName": "pv-node-logs"}}, "pass"),
])

# ================================================================= g11 Argo Rollout CRD + Deployment
REGO_SPREAD = """package acmezonespread

podspec = s {
  s := input.review.object.spec.template.spec
}

violation[{"msg": msg}] {
  s := podspec
  not zone_spread(s)
  msg := sprintf("%v %v does not spread its pods across zones", [input.review.object.kind, input.review.object.metadata.name])
}

zone_spread(s) {
  c := s.topologySpreadConstraints[_]
  c.topologyKey == "topology.kubernetes.io/zone"
}
"""


def spread(key):
    return [{"maxSkew": 1, "topologyKey": key, "whenUnsatisfiable": "ScheduleAnyway",
             "labelSelector": {"matchLabels": {"app.kubernetes.io/name": "x"}}}]


def rollout(name, n, podspec=None, workload_ref=None):
    o = deploy(name, n, podspec, kind="Rollout", api="argoproj.io/v1alpha1", replicas=4)
    o["spec"]["strategy"] = {"canary": {"steps": [{"setWeight": 20}, {"pause": {"duration": "10m"}}]}}
    if workload_ref:
        del o["spec"]["template"]
        o["spec"]["workloadRef"] = workload_ref
    return o


ZONE = "topology.kubernetes.io/zone"
case("g11-argo-rollout-crd-zone-spread", [
    template("acmezonespread", "AcmeZoneSpread", REGO_SPREAD),
    constraint("AcmeZoneSpread", "ha-workloads-spread-zones",
               {"kinds": [kinds("apps", "Deployment"), kinds("argoproj.io", "Rollout")],
                "namespaceSelector": {"matchLabels": {"ha": "required"}}}),
], [
    (ns("checkout", ha="required"), "pass"), (ns("tools"), "pass"),
    (rollout("cart", "checkout"), "fail"),
    (rollout("payments", "checkout", {"containers": [ctr("payments")], "topologySpreadConstraints": spread(ZONE)}), "pass"),
    (rollout("api-ref", "checkout", workload_ref={"apiVersion": "apps/v1", "kind": "Deployment", "name": "api-base"}), "pass"),
    (deploy("api-base", "checkout", {"containers": [ctr("api")], "topologySpreadConstraints": spread(ZONE)}, replicas=0), "pass"),
    (deploy("web", "checkout", {"containers": [ctr("web")], "topologySpreadConstraints": spread("kubernetes.io/hostname")}), "fail"),
    (deploy("worker", "checkout", {"containers": [ctr("worker")],
                                   "topologySpreadConstraints": spread("kubernetes.io/hostname") + spread(ZONE)}), "pass"),
    (deploy("db", "checkout", kind="StatefulSet"), "pass"),
    (rollout("canary-demo", "tools"), "pass"),
    (deploy("web", "tools"), "pass"),
    ({"apiVersion": "argoproj.io/v1alpha1", "kind": "AnalysisTemplate", "metadata": meta("success-rate", "checkout"),
      "spec": {"metrics": [{"name": "success-rate", "provider": {"prometheus": {"query": "sum(rate(x[5m]))"}}}]}}, "pass"),
])

# ================================================================= g12 storage classes, overlapping constraints
REGO_SC = """package acmestorageclass

violation[{"msg": msg}] {
  sc := input.review.object.spec.storageClassName
  not allowed(sc)
  msg := sprintf("PVC %v uses storage class %v, allowed %v", [input.review.object.metadata.name, sc, input.parameters.allowed])
}

violation[{"msg": msg}] {
  input.parameters.requireExplicit == true
  not input.review.object.spec.storageClassName
  msg := sprintf("PVC %v must name its storage class", [input.review.object.metadata.name])
}

allowed(sc) {
  sc == input.parameters.allowed[_]
}
"""


def pvc(name, n, sc="__unset__"):
    spec = {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "20Gi"}}}
    if sc != "__unset__":
        spec["storageClassName"] = sc
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": meta(name, n), "spec": spec}


PVCK = [kinds("", "PersistentVolumeClaim")]
case("g12-storage-classes-three-overlapping-constraints", [
    template("acmestorageclass", "AcmeStorageClass", REGO_SC, {"allowed": STRS, "requireExplicit": {"type": "boolean"}}),
    constraint("AcmeStorageClass", "all-pvcs", {"kinds": PVCK},
               {"allowed": ["standard", "fast-ssd", "fast-ssd-retain"]}),
    constraint("AcmeStorageClass", "db-pvcs", {"kinds": PVCK, "namespaces": ["db-*"]},
               {"allowed": ["fast-ssd-retain"], "requireExplicit": True}),
    constraint("AcmeStorageClass", "scratch-pvcs", {"kinds": PVCK, "name": "scratch-*"},
               {"allowed": ["standard", "local-path"]}),
], [
    (ns("web"), "pass"), (ns("db-main"), "pass"), (ns("ci"), "pass"),
    (pvc("uploads", "web", "standard"), "pass"),
    (pvc("cache", "web", "local-path"), "fail"),
    (pvc("no-class", "web"), "pass"),
    (pvc("static-bind", "web", ""), "fail"),
    (pvc("pg-data", "db-main", "fast-ssd"), "fail"),
    (pvc("pg-wal", "db-main", "fast-ssd-retain"), "pass"),
    (pvc("pg-backup", "db-main"), "fail"),
    (pvc("scratch-build", "ci", "local-path"), "fail"),
    (pvc("scratch-tmp", "ci", "standard"), "pass"),
    (pvc("scratch-fast", "ci", "fast-ssd"), "fail"),
    (pvc("workspace", "ci", "fast-ssd"), "pass"),
    ({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": meta("local-path"),
      "provisioner": "rancher.io/local-path", "volumeBindingMode": "WaitForFirstConsumer"}, "pass"),
])

# ================================================================= g13 seccomp, dryrun, ephemeral containers
REGO_SECCOMP = """package acmeseccomp

ok_types := {"RuntimeDefault", "Localhost"}

pod_profile_ok {
  ok_types[input.review.object.spec.securityContext.seccompProfile.type]
}

containers[c] {
  c := input.review.object.spec.containers[_]
}

containers[c] {
  c := input.review.object.spec.initContainers[_]
}

containers[c] {
  c := input.review.object.spec.ephemeralContainers[_]
}

container_ok(c) {
  ok_types[c.securityContext.seccompProfile.type]
}

container_ok(c) {
  not c.securityContext.seccompProfile.type
  pod_profile_ok
}

violation[{"msg": msg}] {
  c := containers[_]
  not container_ok(c)
  msg := sprintf("container %v of pod %v runs without a RuntimeDefault or Localhost seccomp profile", [c.name, input.review.object.metadata.name])
}
"""
RD = {"seccompProfile": {"type": "RuntimeDefault"}}
COMP = "app.kubernetes.io/component"
case("g13-seccomp-dryrun-init-and-ephemeral", [
    template("acmeseccomp", "AcmeSeccomp", REGO_SECCOMP),
    constraint("AcmeSeccomp", "pods-seccomp-audit",
               {"kinds": [kinds("", "Pod")], "excludedNamespaces": ["kube-system"],
                "labelSelector": {"matchExpressions": [{"key": COMP, "operator": "NotIn", "values": ["debug"]}]}},
               enforcementAction="dryrun"),
], [
    (ns("apps"), "pass"), (ns("kube-system"), "pass"),
    (pod("web", "apps", {"securityContext": RD, "containers": [ctr("web")]}, labels={COMP: "frontend"}), "pass"),
    (pod("api", "apps", {"initContainers": [ctr("migrate")],
                         "containers": [ctr("api", securityContext=RD)]}, labels={COMP: "backend"}), "fail"),
    (pod("sidecar", "apps", {"securityContext": RD, "containers": [
        ctr("app"), ctr("tracer", securityContext={"seccompProfile": {"type": "Unconfined"}})]},
        labels={COMP: "backend"}), "fail"),
    (pod("toolbox", "apps", {"containers": [ctr("toolbox")]}, labels={COMP: "debug"}), "pass"),
    (pod("debugged", "apps", {"securityContext": RD, "containers": [ctr("app")],
                              "ephemeralContainers": [{"name": "debugger-x7k2p", "image": "busybox:1.36",
                                                       "targetContainerName": "app",
                                                       "securityContext": {"seccompProfile": {"type": "Unconfined"}}}]},
         labels={COMP: "backend"}), "fail"),
    (pod("local", "apps", {"securityContext": {"seccompProfile": {"type": "Localhost",
                                                                  "localhostProfile": "profiles/acme-audit.json"}},
                           "containers": [ctr("local")]}, labels={COMP: "backend"}), "pass"),
    (pod("nolabels", "apps", {"containers": [ctr("nolabels")]}), "fail"),
    (pod("kube-proxy-x8z2q", "kube-system", {"containers": [ctr("kube-proxy")]}), "pass"),
    (deploy("unprofiled", "apps", labels={COMP: "backend"}), "pass"),
])


# ---------------------------------------------------------------- write
def key(o):
    return f"{o['kind']}/{o['metadata'].get('namespace', '')}/{o['metadata']['name']}"


def main(outdir):
    total = {"fail": 0, "pass": 0}
    for cid, templates, resources in CASES:
        d = os.path.join(outdir, cid)
        os.makedirs(d, exist_ok=True)
        exp = {}
        nsnames = {o["metadata"]["name"] for o, _ in resources if o["kind"] == "Namespace"}
        for o, lab in resources:
            k = key(o)
            assert k not in exp, (cid, k)
            assert lab in ("fail", "pass")
            n = o["metadata"].get("namespace")
            assert n is None or n in nsnames, (cid, k)
            exp[k] = lab
            total[lab] += 1
        with open(os.path.join(d, "template.yaml"), "w") as f:
            f.write(dump_all(templates))
        with open(os.path.join(d, "resources.yaml"), "w") as f:
            f.write(dump_all([o for o, _ in resources]))
        with open(os.path.join(d, "expected.json"), "w") as f:
            json.dump(exp, f, indent=2)
            f.write("\n")
    print(f"{len(CASES)} cases, {sum(total.values())} objects: {total['fail']} fail, {total['pass']} pass")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py OUTDIR")
    main(sys.argv[1])
