#!/usr/bin/env python3
"""gatekeeper3 -- held-out OPA Gatekeeper cases for a Gatekeeper->Kyverno translator (blind-gk3).
stdlib only, deterministic.

usage: python3 gen.py OUTDIR   -> OUTDIR/<case>/{template.yaml, resources.yaml, expected.json}
Labels are written by hand next to each object and were fixed before anything was run.
(YAML emitter and object helpers copied from measurement/gatekeeper2/gen.py.)
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
    d = {"apiVersion": api, "kind": kind, "metadata": meta(name, namespace, labels, annotations),
         "spec": {"replicas": replicas, "selector": {"matchLabels": sel},
                  "template": {"metadata": {"labels": dict(sel)}, "spec": podspec}}}
    if kind == "DaemonSet":
        del d["spec"]["replicas"]
    if kind == "StatefulSet":
        d["spec"]["serviceName"] = name
    return d


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


INT = {"type": "integer"}
IMG = "registry.acme.example/app/svc:1.4.2"
DIGEST = "sha256:" + "3f1c9a7b2e" * 6 + "0d4e"  # 64 hex chars


def sc(**kw):
    return {"securityContext": kw}


def caps(add=None, drop=None):
    c = {}
    if add is not None:
        c["add"] = add
    if drop is not None:
        c["drop"] = drop
    return {"securityContext": {"capabilities": c}}


# ================================================================= h01 forbidden capabilities
REGO_CAPS = """package acmecapabilities

input_containers[c] {
  c := input.review.object.spec.containers[_]
}

input_containers[c] {
  c := input.review.object.spec.initContainers[_]
}

input_containers[c] {
  c := input.review.object.spec.ephemeralContainers[_]
}

drops_all(c) {
  upper(c.securityContext.capabilities.drop[_]) == "ALL"
}

violation[{"msg": msg}] {
  c := input_containers[_]
  added := c.securityContext.capabilities.add[_]
  forbidden := {x | x := input.parameters.forbiddenCapabilities[_]}
  forbidden[added]
  msg := sprintf("container %v adds forbidden capability %v", [c.name, added])
}

violation[{"msg": msg}] {
  c := input_containers[_]
  not drops_all(c)
  msg := sprintf("container %v must drop ALL capabilities", [c.name])
}
"""
DROP = caps(drop=["ALL"])
case("h01-capabilities-helper-over-three-container-lists", [
    template("acmecapabilities", "AcmeCapabilities", REGO_CAPS, {"forbiddenCapabilities": STRS}),
    constraint("AcmeCapabilities", "pods-drop-all-no-dangerous-adds",
               {"kinds": [kinds("", "Pod")], "excludedNamespaces": ["kube-system"]},
               {"forbiddenCapabilities": ["SYS_ADMIN", "NET_ADMIN", "NET_RAW", "SYS_PTRACE", "ALL"]}),
], [
    (ns("apps"), "pass"), (ns("kube-system"), "pass"),
    # drops ALL, adds nothing
    (pod("web", "apps", {"containers": [ctr("web", **DROP)]}), "pass"),
    # adds NET_RAW
    (pod("netshoot", "apps", {"containers": [ctr("netshoot", **caps(["NET_RAW"], ["ALL"]))]}), "fail"),
    # init container drops nothing
    (pod("init-sysctl", "apps", {"initContainers": [ctr("sysctl")],
                                 "containers": [ctr("app", **DROP)]}), "fail"),
    # ephemeral debug container adds SYS_PTRACE (and drops ALL)
    (pod("debugged", "apps", {"containers": [ctr("app", **DROP)],
                              "ephemeralContainers": [ctr("debugger-7x2k", image="busybox:1.36",
                                                          targetContainerName="app",
                                                          **caps(["SYS_PTRACE"], ["ALL"]))]}), "fail"),
    # lower-case "all" is upper()-ed by the Rego
    (pod("lowercase-drop", "apps", {"containers": [ctr("app", **caps(drop=["all"]))]}), "pass"),
    # "CAP_SYS_ADMIN" is not literally in the list (debatable in spirit; the Rego compares exactly)
    (pod("cap-prefix", "apps", {"containers": [ctr("app", **caps(["CAP_SYS_ADMIN"], ["ALL"]))]}), "pass"),
    # harmless adds
    (pod("bind-low", "apps", {"containers": [ctr("app", **caps(["NET_BIND_SERVICE", "CHOWN"], ["ALL"]))]}), "pass"),
    # two containers, the second drops only NET_RAW
    (pod("sidecar", "apps", {"containers": [ctr("app", **DROP), ctr("proxy", **caps(drop=["NET_RAW"]))]}), "fail"),
    # excluded namespace
    (pod("kube-proxy-9sd2f", "kube-system", {"containers": [ctr("kube-proxy", **caps(["NET_ADMIN"]))]}), "pass"),
    # a Deployment is not a Pod
    (deploy("tooling", "apps", {"containers": [ctr("tool", **caps(["SYS_ADMIN"]))]}), "pass"),
])


# ================================================================= h02 allowed host paths + readOnly
REGO_HOSTPATH = """package acmehostpaths

input_containers[c] {
  c := input.review.object.spec.containers[_]
}

input_containers[c] {
  c := input.review.object.spec.initContainers[_]
}

path_allowed(p) {
  a := input.parameters.allowedHostPaths[_]
  startswith(p, a.pathPrefix)
}

needs_read_only(p) {
  a := input.parameters.allowedHostPaths[_]
  startswith(p, a.pathPrefix)
  a.readOnly == true
}

violation[{"msg": msg}] {
  vol := input.review.object.spec.volumes[_]
  p := vol.hostPath.path
  not path_allowed(p)
  msg := sprintf("hostPath %v (volume %v) is not allowed", [p, vol.name])
}

violation[{"msg": msg}] {
  volumes := input.review.object.spec.volumes
  some i
  p := volumes[i].hostPath.path
  needs_read_only(p)
  c := input_containers[_]
  m := c.volumeMounts[_]
  m.name == volumes[i].name
  not m.readOnly
  msg := sprintf("container %v must mount hostPath %v read-only", [c.name, p])
}
"""


def hp(name, path):
    return {"name": name, "hostPath": {"path": path, "type": "Directory"}}


def mnt(name, path, ro=None):
    m = {"name": name, "mountPath": path}
    if ro is not None:
        m["readOnly"] = ro
    return m


HPSEL = "acme.io/hostpath-policy"
case("h02-allowed-host-paths-readonly-array-index", [
    template("acmehostpaths", "AcmeHostPaths", REGO_HOSTPATH, {"allowedHostPaths": {"type": "array", "items": {"type": "object", "properties": {"pathPrefix": STR, "readOnly": {"type": "boolean"}}}}}),
    constraint("AcmeHostPaths", "hostpaths-allowlist",
               {"kinds": [kinds("", "Pod")],
                "namespaceSelector": {"matchExpressions": [{"key": HPSEL, "operator": "In", "values": ["enforce"]}]}},
               {"allowedHostPaths": [{"pathPrefix": "/var/log", "readOnly": True},
                                     {"pathPrefix": "/data/cache", "readOnly": False}]}),
], [
    (ns("logging", **{HPSEL: "enforce"}), "pass"), (ns("data", **{HPSEL: "enforce"}), "pass"),
    (ns("dev"), "pass"),
    (pod("fluentbit", "logging", {"volumes": [hp("varlog", "/var/log")],
                                  "containers": [ctr("fluentbit", volumeMounts=[mnt("varlog", "/var/log", True)])]}), "pass"),
    # allowed prefix but mounted read-write (readOnly unset)
    (pod("collector", "logging", {"volumes": [hp("pods", "/var/log/pods")],
                                  "containers": [ctr("collector", volumeMounts=[mnt("pods", "/var/log/pods")])]}), "fail"),
    # startswith is a string prefix: /var/logs-archive starts with /var/log (intent debatable, verdict not)
    (pod("archiver", "logging", {"volumes": [hp("arch", "/var/logs-archive")],
                                 "containers": [ctr("archiver", volumeMounts=[mnt("arch", "/arch", True)])]}), "pass"),
    # /data/cache allows read-write
    (pod("cache", "data", {"volumes": [hp("cache", "/data/cache/node-a")],
                           "containers": [ctr("cache", volumeMounts=[mnt("cache", "/cache", False)])]}), "pass"),
    # /var is a parent of an allowed prefix, not under one
    (pod("rootfs", "data", {"volumes": [hp("var", "/var")],
                            "containers": [ctr("scan", volumeMounts=[mnt("var", "/host/var", True)])]}), "fail"),
    # init container mounts the /var/log volume read-write; main container read-only
    (pod("init-rw", "data", {"volumes": [hp("logs", "/var/log/app")],
                             "initContainers": [ctr("chown", volumeMounts=[mnt("logs", "/logs", False)])],
                             "containers": [ctr("app", volumeMounts=[mnt("logs", "/logs", True)])]}), "fail"),
    # a volume named like a host path, but emptyDir
    (pod("scratch", "data", {"volumes": [{"name": "var-log", "emptyDir": {}}],
                             "containers": [ctr("app", volumeMounts=[mnt("var-log", "/var/log")])]}), "pass"),
    # allowed read-only host path declared but never mounted
    (pod("unmounted", "data", {"volumes": [hp("logs", "/var/log")], "containers": [ctr("app")]}), "pass"),
    # second volume is a forbidden path
    (pod("agent", "data", {"volumes": [hp("logs", "/var/log"), hp("sock", "/run/containerd")],
                           "containers": [ctr("agent", volumeMounts=[mnt("logs", "/l", True), mnt("sock", "/s", True)])]}), "fail"),
    # namespace not selected
    (pod("anything", "dev", {"volumes": [hp("root", "/")],
                             "containers": [ctr("app", volumeMounts=[mnt("root", "/host")])]}), "pass"),
])


# ================================================================= h03 digest pinning, one rule per list
REGO_DIGEST = """package acmeimagedigests

exempt(img) {
  exempt_images := {i | i := input.parameters.exemptImages[_]}
  exempt_images[img]
}

violation[{"msg": msg}] {
  c := input.review.object.spec.template.spec.containers[_]
  not contains(c.image, "@sha256:")
  not exempt(c.image)
  msg := sprintf("container %v image %v is not pinned by digest", [c.name, c.image])
}

violation[{"msg": msg}] {
  c := input.review.object.spec.template.spec.initContainers[_]
  not contains(c.image, "@sha256:")
  not exempt(c.image)
  msg := sprintf("init container %v image %v is not pinned by digest", [c.name, c.image])
}
"""
R = "registry.acme.example/"


def dwith(name, n, containers, init=None, kind="Deployment"):
    ps = {"containers": containers}
    if init:
        ps["initContainers"] = init
    return deploy(name, n, ps, kind=kind)


case("h03-image-digest-pinning-exact-exemptions", [
    template("acmeimagedigests", "AcmeImageDigests", REGO_DIGEST, {"exemptImages": STRS}),
    constraint("AcmeImageDigests", "prod-workloads-pinned",
               {"kinds": [kinds("apps", "Deployment", "StatefulSet")], "namespaces": ["prod", "payments"]},
               {"exemptImages": ["docker.io/library/busybox:1.36"]}),
], [
    (ns("prod"), "pass"), (ns("payments"), "pass"), (ns("dev"), "pass"),
    (dwith("api", "prod", [ctr("api", R + "api@" + DIGEST)]), "pass"),
    (dwith("web", "prod", [ctr("web", R + "web:1.2.3")]), "fail"),
    # tag plus digest is pinned
    (dwith("tagged-digest", "prod", [ctr("x", R + "x:1.2@" + DIGEST)]), "pass"),
    # init container only by tag
    (dwith("migrator", "prod", [ctr("app", R + "app@" + DIGEST)], [ctr("migrate", R + "migrate:2024.1")]), "fail"),
    # exempt image matches exactly
    (dwith("ledger", "payments", [ctr("ledger", R + "ledger@" + DIGEST)],
           [ctr("wait", "docker.io/library/busybox:1.36")], kind="StatefulSet"), "pass"),
    # short form of the same image is not the exempt string
    (dwith("vault", "payments", [ctr("vault", R + "vault@" + DIGEST)],
           [ctr("wait", "busybox:1.36")], kind="StatefulSet"), "fail"),
    # sha512 digest is not "@sha256:"
    (dwith("sha512", "payments", [ctr("x", R + "x@sha512:" + "ab" * 64)]), "fail"),
    # second container unpinned
    (dwith("two", "payments", [ctr("a", R + "a@" + DIGEST), ctr("b", R + "b:latest")]), "fail"),
    # namespace not listed
    (dwith("api", "dev", [ctr("api", R + "api:dev")]), "pass"),
    # kinds not matched
    (dwith("agent", "prod", [ctr("agent", R + "agent:3.0")], kind="DaemonSet"), "pass"),
    (pod("standalone", "prod", {"containers": [ctr("x", R + "x:1.0")]}), "pass"),
])


# ================================================================= h04 replicas bounds via object.get + labelSelector
REGO_REPLICAS = """package acmereplicabounds

replicas := object.get(input.review.object, ["spec", "replicas"], 1)

violation[{"msg": msg}] {
  replicas < input.parameters.min
  msg := sprintf("%v has %v replicas, fewer than %v", [input.review.object.metadata.name, replicas, input.parameters.min])
}

violation[{"msg": msg}] {
  replicas > input.parameters.max
  msg := sprintf("%v has %v replicas, more than %v", [input.review.object.metadata.name, replicas, input.parameters.max])
}
"""
TIER = "acme.io/tier"


def rdep(name, reps, tier=None, kind="Deployment"):
    d = deploy(name, "shop", labels={TIER: tier} if tier else None, kind=kind)
    if reps is None:
        del d["spec"]["replicas"]
    else:
        d["spec"]["replicas"] = reps
    return d


case("h04-replica-bounds-object-get-label-selectors", [
    template("acmereplicabounds", "AcmeReplicaBounds", REGO_REPLICAS, {"min": INT, "max": INT}),
    constraint("AcmeReplicaBounds", "critical-ha",
               {"kinds": [kinds("apps", "Deployment", "StatefulSet")], "labelSelector": {"matchLabels": {TIER: "critical"}}},
               {"min": 3, "max": 10}),
    constraint("AcmeReplicaBounds", "batch-small",
               {"kinds": [kinds("apps", "Deployment")],
                "labelSelector": {"matchExpressions": [{"key": TIER, "operator": "In", "values": ["batch"]}]}},
               {"min": 0, "max": 2}),
], [
    (ns("shop"), "pass"),
    (rdep("checkout", 3, "critical"), "pass"),
    (rdep("payments", 2, "critical"), "fail"),
    # no replicas field: object.get default 1 (also the API server default)
    (rdep("search", None, "critical"), "fail"),
    (rdep("db", 12, "critical", kind="StatefulSet"), "fail"),
    (rdep("cart", 10, "critical"), "pass"),
    (rdep("scaled-to-zero", 0, "critical"), "fail"),
    (rdep("report", 3, "batch"), "fail"),
    (rdep("cron-helper", 0, "batch"), "pass"),
    # batch constraint covers Deployments only
    (rdep("queue", 5, "batch", kind="StatefulSet"), "pass"),
    # label values are case-sensitive
    (rdep("frontend", 1, "Critical"), "pass"),
    (rdep("legacy", 1, "critical", kind="ReplicaSet"), "pass"),
    (rdep("unlabelled", 1), "pass"),
])


# ================================================================= h05 ports: hostPort, low ports, count
REGO_PORTS = """package acmecontainerports

input_containers[c] {
  c := input.review.object.spec.containers[_]
}

input_containers[c] {
  c := input.review.object.spec.initContainers[_]
}

allowed_low_port(port) {
  input.parameters.allowedLowPorts[_] == port
}

violation[{"msg": msg}] {
  c := input_containers[_]
  p := c.ports[_]
  p.hostPort > 0
  msg := sprintf("container %v uses hostPort %v", [c.name, p.hostPort])
}

violation[{"msg": msg}] {
  c := input_containers[_]
  p := c.ports[_]
  p.containerPort < 1024
  not allowed_low_port(p.containerPort)
  msg := sprintf("container %v listens on privileged port %v", [c.name, p.containerPort])
}

violation[{"msg": msg}] {
  c := input_containers[_]
  count(c.ports) > input.parameters.maxPortsPerContainer
  msg := sprintf("container %v exposes %v ports", [c.name, count(c.ports)])
}
"""


def ports(*specs):
    out = []
    for s in specs:
        if isinstance(s, int):
            out.append({"containerPort": s, "protocol": "TCP"})
        else:
            out.append(s)
    return out


case("h05-container-ports-numeric-and-count", [
    template("acmecontainerports", "AcmeContainerPorts", REGO_PORTS,
             {"allowedLowPorts": {"type": "array", "items": INT}, "maxPortsPerContainer": INT}),
    constraint("AcmeContainerPorts", "pod-ports",
               {"kinds": [kinds("", "Pod")], "excludedNamespaces": ["kube-system", "ingress-nginx"]},
               {"allowedLowPorts": [80, 443], "maxPortsPerContainer": 3}),
], [
    (ns("web"), "pass"), (ns("ingress-nginx"), "pass"),
    (pod("nginx", "web", {"containers": [ctr("nginx", ports=ports(80, 443))]}), "pass"),
    (pod("ssh", "web", {"containers": [ctr("sshd", ports=ports(22))]}), "fail"),
    (pod("hostport", "web", {"containers": [ctr("app", ports=ports({"containerPort": 8080, "hostPort": 8080, "protocol": "TCP"}))]}), "fail"),
    (pod("many", "web", {"containers": [ctr("app", ports=ports(8080, 8081, 8082, 8083))]}), "fail"),
    (pod("three", "web", {"containers": [ctr("app", ports=ports(8080, 8443, 9090))]}), "pass"),
    # three ports in each of two containers: the count is per container
    (pod("split", "web", {"containers": [ctr("a", ports=ports(8080, 8081, 8082)), ctr("b", ports=ports(9090, 9091, 9092))]}), "pass"),
    (pod("init-dns", "web", {"initContainers": [ctr("probe", ports=ports({"containerPort": 53, "protocol": "UDP"}))],
                             "containers": [ctr("app", ports=ports(8080))]}), "fail"),
    (pod("dns-high", "web", {"containers": [ctr("dns", ports=ports({"containerPort": 1053, "protocol": "UDP"}))]}), "pass"),
    # 1023 < 1024
    (pod("edge", "web", {"containers": [ctr("app", ports=ports(1023))]}), "fail"),
    (pod("noports", "web", {"containers": [ctr("app")]}), "pass"),
    (pod("controller-x7", "ingress-nginx", {"containers": [ctr("controller", ports=ports(
        {"containerPort": 80, "hostPort": 80, "protocol": "TCP"}, {"containerPort": 443, "hostPort": 443, "protocol": "TCP"}))]}), "pass"),
    ({"apiVersion": "v1", "kind": "Service", "metadata": meta("http", "web"),
      "spec": {"selector": {"app": "nginx"}, "ports": [{"port": 22, "targetPort": 8080}]}}, "pass"),
])


# ================================================================= h06 ingress annotations map: keys and values
REGO_SNIPPETS = """package acmeingresssnippets

violation[{"msg": msg}] {
  some key
  input.review.object.metadata.annotations[key]
  startswith(key, "nginx.ingress.kubernetes.io/")
  endswith(key, "-snippet")
  msg := sprintf("ingress %v uses snippet annotation %v", [input.review.object.metadata.name, key])
}

violation[{"msg": msg}] {
  value := input.review.object.metadata.annotations[key]
  bad := input.parameters.forbiddenValueSubstrings[_]
  contains(lower(value), bad)
  msg := sprintf("annotation %v contains %v", [key, bad])
}
"""
NG = "nginx.ingress.kubernetes.io/"


def ing(name, n, ann=None):
    return {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": meta(name, n, annotations=ann),
            "spec": {"ingressClassName": "nginx", "rules": [{"host": name + ".shop.example", "http": {"paths": [
                {"path": "/", "pathType": "Prefix", "backend": {"service": {"name": name, "port": {"number": 80}}}}]}}]}}


case("h06-ingress-annotations-map-keys-and-values", [
    template("acmeingresssnippets", "AcmeIngressSnippets", REGO_SNIPPETS, {"forbiddenValueSubstrings": STRS}),
    constraint("AcmeIngressSnippets", "no-nginx-snippets",
               {"kinds": [kinds("networking.k8s.io", "Ingress")], "excludedNamespaces": ["ingress-*"]},
               {"forbiddenValueSubstrings": ["_by_lua", "load_module"]}),
], [
    (ns("shop"), "pass"), (ns("ingress-nginx"), "pass"),
    (ing("api", "shop", {NG + "rewrite-target": "/"}), "pass"),
    (ing("legacy", "shop", {NG + "configuration-snippet": "more_set_headers \"X-Frame-Options: DENY\";"}), "fail"),
    (ing("server", "shop", {NG + "server-snippet": "location /metrics { deny all; }"}), "fail"),
    # other controller's prefix
    (ing("haproxy", "shop", {"haproxy.org/backend-config-snippet": "http-request deny"}), "pass"),
    # key does not end in -snippet
    (ing("snippet-flag", "shop", {NG + "allow-snippet-annotations": "true"}), "pass"),
    # forbidden text in the value of an unrelated key
    (ing("lua", "shop", {"acme.io/notes": "uses rewrite_by_lua_block for auth"}), "fail"),
    # case folded by lower()
    (ing("upper", "shop", {"acme.io/notes": "ACCESS_BY_LUA enabled"}), "fail"),
    # forbidden text only in a key, not in a value
    (ing("keyonly", "shop", {"acme.io/header_by_lua": "no"}), "pass"),
    (ing("plain", "shop"), "pass"),
    # excluded by glob
    (ing("default-backend", "ingress-nginx", {NG + "server-snippet": "return 404;"}), "pass"),
    # not an Ingress
    ({"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta("nginx-conf", "shop", annotations={NG + "configuration-snippet": "x"}),
      "data": {"a": "b"}}, "pass"),
])


# ================================================================= h07 labels map: set difference, value regex, key prefix
REGO_LABELS = """package acmelabelhygiene

violation[{"msg": msg, "details": {"missing": missing}}] {
  provided := {k | input.review.object.metadata.labels[k]}
  required := {l | l := input.parameters.required[_]}
  missing := required - provided
  count(missing) > 0
  msg := sprintf("missing labels %v", [missing])
}

violation[{"msg": msg}] {
  value := input.review.object.metadata.labels[key]
  rule := input.parameters.valuePatterns[_]
  rule.key == key
  not regex.match(rule.pattern, value)
  msg := sprintf("label %v=%v does not match %v", [key, value, rule.pattern])
}

violation[{"msg": msg}] {
  input.review.object.metadata.labels[key]
  startswith(key, "tmp.")
  msg := sprintf("temporary label %v must be removed", [key])
}
"""
AN, TEAM, ENV = "app.kubernetes.io/name", "acme.io/team", "acme.io/env"


def svc(name, n, labels=None):
    return {"apiVersion": "v1", "kind": "Service", "metadata": meta(name, n, labels),
            "spec": {"selector": {AN: name}, "ports": [{"port": 80, "targetPort": 8080}]}}


case("h07-label-hygiene-set-difference-and-map-iteration", [
    template("acmelabelhygiene", "AcmeLabelHygiene", REGO_LABELS, {"required": STRS, "valuePatterns": {"type": "array", "items": {"type": "object", "properties": {"key": STR, "pattern": STR}}}}),
    constraint("AcmeLabelHygiene", "managed-namespaces",
               {"kinds": [kinds("apps", "Deployment"), kinds("", "Service")],
                "namespaceSelector": {"matchLabels": {"acme.io/managed": "true"}}},
               {"required": [AN, TEAM],
                "valuePatterns": [{"key": TEAM, "pattern": "^[a-z][a-z0-9-]{1,30}$"},
                                  {"key": ENV, "pattern": "^(dev|staging|prod)$"}]}),
], [
    (ns("orders", **{"acme.io/managed": "true"}), "pass"), (ns("sandbox", **{"acme.io/managed": "false"}), "pass"),
    (deploy("api", "orders", labels={AN: "api", TEAM: "orders"}), "pass"),
    (deploy("worker", "orders", labels={AN: "worker"}), "fail"),
    (svc("api", "orders", {AN: "api", TEAM: "Orders"}), "fail"),
    (svc("db", "orders", {AN: "db", TEAM: "orders", ENV: "production"}), "fail"),
    (deploy("cache", "orders", labels={AN: "cache", TEAM: "orders", ENV: "prod", "tmp.acme.io/debug": "1"}), "fail"),
    # "tmp." inside the key, not at its start
    (deploy("batch", "orders", labels={AN: "batch", TEAM: "orders", "acme.io/tmp.flag": "1"}), "pass"),
    # present but empty team: present for the set, fails the pattern
    (svc("empty-team", "orders", {AN: "empty-team", TEAM: ""}), "fail"),
    (svc("staging-svc", "orders", {AN: "staging-svc", TEAM: "orders-2", ENV: "staging"}), "pass"),
    ({"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta("settings", "orders"), "data": {"a": "b"}}, "pass"),
    (deploy("toy", "sandbox"), "pass"),
])


# ================================================================= h08 readOnlyRootFilesystem, helper without ephemeral
REGO_RO = """package acmereadonlyroot

input_containers[c] {
  c := input.review.object.spec.containers[_]
}

input_containers[c] {
  c := input.review.object.spec.initContainers[_]
}

read_only(c) {
  c.securityContext.readOnlyRootFilesystem == true
}

exempt(c) {
  input.parameters.exemptContainerNames[_] == c.name
}

violation[{"msg": msg}] {
  c := input_containers[_]
  not read_only(c)
  not exempt(c)
  msg := sprintf("container %v must set readOnlyRootFilesystem: true", [c.name])
}
"""
RO = sc(readOnlyRootFilesystem=True)
RW = sc(readOnlyRootFilesystem=False)
case("h08-readonly-root-not-helper-ephemeral-left-out", [
    template("acmereadonlyroot", "AcmeReadOnlyRoot", REGO_RO, {"exemptContainerNames": STRS}),
    constraint("AcmeReadOnlyRoot", "prod-readonly-root",
               {"kinds": [kinds("", "Pod")], "namespaces": ["prod", "prod-eu"]},
               {"exemptContainerNames": ["nginx-legacy"]}),
], [
    (ns("prod"), "pass"), (ns("prod-eu"), "pass"), (ns("prod-us"), "pass"),
    (pod("api", "prod", {"containers": [ctr("api", **RO)]}), "pass"),
    (pod("worker", "prod", {"containers": [ctr("worker", **RW)]}), "fail"),
    (pod("unset", "prod", {"containers": [ctr("app")]}), "fail"),
    # the template's helper does not list ephemeralContainers
    (pod("debugged", "prod", {"containers": [ctr("api", **RO)],
                              "ephemeralContainers": [ctr("debugger-q8", image="busybox:1.36", targetContainerName="api")]}), "pass"),
    (pod("init-rw", "prod", {"initContainers": [ctr("setup")], "containers": [ctr("app", **RO)]}), "fail"),
    # exempt by container name
    (pod("legacy", "prod", {"containers": [ctr("nginx-legacy", **RW), ctr("exporter", **RO)]}), "pass"),
    # container name near miss
    (pod("legacy-2", "prod", {"containers": [ctr("nginx-legacy-2")]}), "fail"),
    (pod("api", "prod-eu", {"containers": [ctr("api")]}), "fail"),
    # namespaces are exact names here
    (pod("api", "prod-us", {"containers": [ctr("api")]}), "pass"),
    (deploy("api-deploy", "prod", {"containers": [ctr("api")]}), "pass"),
])


# ================================================================= h09 services: externalIPs set difference, LB source ranges
REGO_SVC = """package acmeserviceexposure

violation[{"msg": msg}] {
  ips := {ip | ip := input.review.object.spec.externalIPs[_]}
  allowed := {ip | ip := input.parameters.allowedExternalIPs[_]}
  forbidden := ips - allowed
  count(forbidden) > 0
  msg := sprintf("externalIPs %v are not allowed", [forbidden])
}

violation[{"msg": msg}] {
  input.review.object.spec.type == "LoadBalancer"
  input.review.object.spec.loadBalancerSourceRanges[_] == "0.0.0.0/0"
  msg := "load balancer open to 0.0.0.0/0"
}

violation[{"msg": msg}] {
  input.review.object.spec.type == "LoadBalancer"
  not input.review.object.spec.loadBalancerSourceRanges
  msg := "load balancer without loadBalancerSourceRanges"
}
"""


def svc2(name, n, **spec):
    s = {"selector": {AN: name}, "ports": [{"port": 443, "targetPort": 8443}]}
    s.update(spec)
    return {"apiVersion": "v1", "kind": "Service", "metadata": meta(name, n), "spec": s}


case("h09-service-exposure-sets-and-not-of-missing-field", [
    template("acmeserviceexposure", "AcmeServiceExposure", REGO_SVC, {"allowedExternalIPs": STRS}),
    constraint("AcmeServiceExposure", "service-exposure",
               {"kinds": [kinds("", "Service")]},
               {"allowedExternalIPs": ["203.0.113.10", "203.0.113.11"]}),
], [
    (ns("edge"), "pass"), (ns("internal"), "pass"), (ns("kube-system"), "pass"),
    (svc2("web", "edge", type="ClusterIP", externalIPs=["203.0.113.10"]), "pass"),
    (svc2("both", "edge", type="ClusterIP", externalIPs=["203.0.113.11", "203.0.113.10"]), "pass"),
    (svc2("rogue", "edge", type="ClusterIP", externalIPs=["203.0.113.10", "198.51.100.7"]), "fail"),
    (svc2("lb", "edge", type="LoadBalancer", loadBalancerSourceRanges=["10.0.0.0/8"]), "pass"),
    (svc2("lb-open", "edge", type="LoadBalancer", loadBalancerSourceRanges=["10.0.0.0/8", "0.0.0.0/0"]), "fail"),
    (svc2("lb-norange", "edge", type="LoadBalancer"), "fail"),
    # "::/0" is not the string the Rego compares (debatable in intent; verdict per the Rego)
    (svc2("lb-v6", "edge", type="LoadBalancer", loadBalancerSourceRanges=["::/0"]), "pass"),
    (svc2("nodeport", "edge", type="NodePort"), "pass"),
    (svc2("ipv6", "internal", type="ClusterIP", externalIPs=["2001:db8::1"]), "fail"),
    (svc2("dns", "kube-system", type="ClusterIP"), "pass"),
    # no namespace exclusion at all
    (svc2("ext", "kube-system", type="ClusterIP", externalIPs=["192.0.2.1"]), "fail"),
])


# ================================================================= h10 env vars: array indexed by variables
REGO_ENV = """package acmeenvvars

secret_like(name) {
  suffix := input.parameters.secretSuffixes[_]
  endswith(upper(name), suffix)
}

violation[{"msg": msg}] {
  c := input.review.object.spec.containers[_]
  first := c.env[i]
  second := c.env[j]
  i < j
  first.name == second.name
  msg := sprintf("container %v sets env %v twice (entries %v and %v)", [c.name, first.name, i, j])
}

violation[{"msg": msg}] {
  c := input.review.object.spec.containers[_]
  e := c.env[_]
  secret_like(e.name)
  object.get(e, "value", "") != ""
  msg := sprintf("container %v sets secret-like env %v as a literal value", [c.name, e.name])
}
"""


def env(name, value=None, secret=None):
    e = {"name": name}
    if value is not None:
        e["value"] = value
    if secret:
        e["valueFrom"] = {"secretKeyRef": {"name": secret, "key": name.lower()}}
    return e


MB = "app.kubernetes.io/managed-by"
case("h10-env-vars-indexed-by-variables", [
    template("acmeenvvars", "AcmeEnvVars", REGO_ENV, {"secretSuffixes": STRS}),
    constraint("AcmeEnvVars", "env-hygiene",
               {"kinds": [kinds("", "Pod")],
                "labelSelector": {"matchExpressions": [{"key": MB, "operator": "NotIn", "values": ["Helm"]}]}},
               {"secretSuffixes": ["PASSWORD", "TOKEN", "_KEY", "SECRET"]}),
], [
    (ns("app"), "pass"),
    (pod("ok", "app", {"containers": [ctr("app", env=[env("MODE", "prod"), env("DB_PASSWORD", secret="db")])]}), "pass"),
    (pod("dup", "app", {"containers": [ctr("app", env=[env("LOG_LEVEL", "info"), env("MODE", "x"), env("LOG_LEVEL", "debug")])]}), "fail"),
    (pod("plain", "app", {"containers": [ctr("app", env=[env("DB_PASSWORD", "hunter2")])]}), "fail"),
    # lower-case name is upper()-ed
    (pod("lower", "app", {"containers": [ctr("app", env=[env("api_token", "abc123")])]}), "fail"),
    # near misses of the suffixes
    (pod("keyspace", "app", {"containers": [ctr("app", env=[env("PRIMARY_KEYSPACE", "main"), env("TOKENIZER_MODEL", "bpe")])]}), "pass"),
    (pod("secretref", "app", {"containers": [ctr("app", env=[env("CLIENT_SECRET", secret="oauth")])]}), "pass"),
    # excluded by labelSelector NotIn
    (pod("helm", "app", {"containers": [ctr("app", env=[env("DB_PASSWORD", "x")])]}, labels={MB: "Helm"}), "pass"),
    # different label value: still selected
    (pod("kustomize", "app", {"containers": [ctr("app", env=[env("AWS_SECRET", "x")])]}, labels={MB: "kustomize"}), "fail"),
    # the rules read only spec.containers
    (pod("initdup", "app", {"initContainers": [ctr("init", env=[env("A", "1"), env("A", "2"), env("ROOT_PASSWORD", "x")])],
                            "containers": [ctr("app")]}), "pass"),
    # same name in two containers is not a duplicate
    (pod("two", "app", {"containers": [ctr("a", env=[env("LOG_LEVEL", "info")]), ctr("b", env=[env("LOG_LEVEL", "warn")])]}), "pass"),
    (pod("envfrom", "app", {"containers": [ctr("app", envFrom=[{"secretRef": {"name": "app-secrets"}}])]}), "pass"),
])


# ================================================================= h11 libs: pod spec of any workload, service account
LIB_PODSPEC = """package lib.acme_podspec

workload_kinds := {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job"}

pod_spec(obj) = spec {
  obj.kind == "Pod"
  spec := obj.spec
}

pod_spec(obj) = spec {
  workload_kinds[obj.kind]
  spec := obj.spec.template.spec
}

pod_spec(obj) = spec {
  obj.kind == "CronJob"
  spec := obj.spec.jobTemplate.spec.template.spec
}
"""
REGO_SA = """package acmeserviceaccount

import data.lib.acme_podspec

violation[{"msg": msg}] {
  spec := acme_podspec.pod_spec(input.review.object)
  sa := object.get(spec, "serviceAccountName", "default")
  sa == "default"
  msg := sprintf("%v %v runs as the default service account", [input.review.object.kind, input.review.object.metadata.name])
}
"""


def saps(sa=None):
    ps = {"containers": [ctr("app")]}
    if sa:
        ps["serviceAccountName"] = sa
    return ps


def job(name, n, ps):
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": meta(name, n),
            "spec": {"backoffLimit": 2, "template": {"spec": dict(ps, restartPolicy="Never")}}}


def cronjob(name, n, ps):
    return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": meta(name, n),
            "spec": {"schedule": "0 3 * * *", "jobTemplate": {"spec": {"template": {"spec": dict(ps, restartPolicy="OnFailure")}}}}}


case("h11-lib-pod-spec-service-account", [
    template("acmeserviceaccount", "AcmeServiceAccount", REGO_SA, libs=[LIB_PODSPEC]),
    constraint("AcmeServiceAccount", "no-default-sa",
               {"kinds": [kinds("", "Pod"), kinds("apps", "Deployment", "StatefulSet", "DaemonSet"), kinds("batch", "Job", "CronJob")],
                "excludedNamespaces": ["kube-system"]}),
], [
    (ns("shop"), "pass"), (ns("kube-system"), "pass"),
    (deploy("api", "shop", saps("api")), "pass"),
    (deploy("web", "shop", saps()), "fail"),
    (deploy("db", "shop", saps("default"), kind="StatefulSet"), "fail"),
    (deploy("agent", "shop", saps("node-agent"), kind="DaemonSet"), "pass"),
    (cronjob("report", "shop", saps("reporter")), "pass"),
    (cronjob("cleanup", "shop", saps()), "fail"),
    (job("migrate", "shop", saps()), "fail"),
    (pod("debug", "shop", saps("default")), "fail"),
    (pod("runner", "shop", saps("ci-runner")), "pass"),
    # the lib knows ReplicaSets but the constraint does not match them
    (deploy("orphan", "shop", saps(), kind="ReplicaSet"), "pass"),
    # a service account whose name merely contains "default"
    (deploy("defaults-api", "shop", saps("default-reader")), "pass"),
    (deploy("coredns", "kube-system", saps()), "pass"),
])


# ================================================================= h12 batch: numeric limits with Kubernetes defaults
REGO_BATCH = """package acmebatchlimits

job_spec(obj) = spec {
  obj.kind == "Job"
  spec := obj.spec
}

job_spec(obj) = spec {
  obj.kind == "CronJob"
  spec := obj.spec.jobTemplate.spec
}

has_deadline(spec) {
  spec.activeDeadlineSeconds > 0
}

violation[{"msg": msg}] {
  spec := job_spec(input.review.object)
  limit := object.get(spec, "backoffLimit", 6)
  limit > input.parameters.maxBackoffLimit
  msg := sprintf("backoffLimit %v exceeds %v", [limit, input.parameters.maxBackoffLimit])
}

violation[{"msg": msg}] {
  spec := job_spec(input.review.object)
  not has_deadline(spec)
  msg := "job has no activeDeadlineSeconds"
}

violation[{"msg": msg}] {
  input.review.object.kind == "CronJob"
  object.get(input.review.object.spec, "concurrencyPolicy", "Allow") == "Allow"
  msg := "CronJob must set concurrencyPolicy Forbid or Replace"
}
"""


def bjob(name, n, backoff=None, deadline=None):
    s = {"template": {"spec": {"restartPolicy": "Never", "containers": [ctr("run")]}}}
    if backoff is not None:
        s["backoffLimit"] = backoff
    if deadline is not None:
        s["activeDeadlineSeconds"] = deadline
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": meta(name, n), "spec": s}


def bcron(name, n, backoff=None, deadline=None, policy=None, **extra):
    js = bjob(name, n, backoff, deadline)["spec"]
    s = {"schedule": "*/30 * * * *", "jobTemplate": {"spec": js}}
    if policy:
        s["concurrencyPolicy"] = policy
    s.update(extra)
    return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": meta(name, n), "spec": s}


BP = "acme.io/batch-policy"
case("h12-batch-limits-defaults-and-numeric-bounds", [
    template("acmebatchlimits", "AcmeBatchLimits", REGO_BATCH, {"maxBackoffLimit": INT}),
    constraint("AcmeBatchLimits", "batch-limits",
               {"kinds": [kinds("batch", "Job", "CronJob")],
                "namespaceSelector": {"matchExpressions": [{"key": BP, "operator": "Exists"}]}},
               {"maxBackoffLimit": 3}),
], [
    (ns("etl", **{BP: "strict"}), "pass"), (ns("scratch"), "pass"),
    (bjob("load", "etl", 2, 3600), "pass"),
    # backoffLimit unset = 6 (the Kubernetes default, and the Rego's)
    (bjob("extract", "etl", None, 600), "fail"),
    # 3 is not > 3, but no deadline
    (bjob("transform", "etl", 3, None), "fail"),
    (bjob("boundary", "etl", 3, 60), "pass"),
    (bcron("nightly", "etl", 1, 1800, "Forbid"), "pass"),
    # concurrencyPolicy unset = Allow
    (bcron("hourly", "etl", 1, 900), "fail"),
    (bcron("explicit-allow", "etl", 0, 900, "Allow"), "fail"),
    (bcron("replace", "etl", 4, 900, "Replace"), "fail"),
    # startingDeadlineSeconds is the CronJob's, not the Job's activeDeadlineSeconds
    (bcron("late-start", "etl", 0, None, "Forbid", startingDeadlineSeconds=300), "fail"),
    (bcron("replace-ok", "etl", 2, 120, "Replace"), "pass"),
    (bjob("adhoc", "scratch", 10), "pass"),
    (pod("runner", "etl"), "pass"),
])

# ================================================================= h13 scheduling: tolerations list, nodeSelector map
REGO_SCHED = """package acmescheduling

pod_spec := input.review.object.spec.template.spec

control_plane_keys := {"node-role.kubernetes.io/control-plane", "node-role.kubernetes.io/master"}

violation[{"msg": msg}] {
  t := pod_spec.tolerations[_]
  control_plane_keys[t.key]
  msg := sprintf("%v tolerates the control-plane taint %v", [input.review.object.metadata.name, t.key])
}

violation[{"msg": msg}] {
  t := pod_spec.tolerations[_]
  object.get(t, "key", "") == ""
  t.operator == "Exists"
  msg := sprintf("%v tolerates every taint", [input.review.object.metadata.name])
}

violation[{"msg": msg}] {
  some k
  pod_spec.nodeSelector[k]
  k == "kubernetes.io/hostname"
  msg := sprintf("%v is pinned to a single node", [input.review.object.metadata.name])
}
"""
CP = "node-role.kubernetes.io/control-plane"
SCHED = "acme.io/scheduling"


def sdep(name, n, tolerations=None, node_selector=None, kind="Deployment", labels=None):
    ps = {"containers": [ctr(name)]}
    if tolerations:
        ps["tolerations"] = tolerations
    if node_selector:
        ps["nodeSelector"] = node_selector
    return deploy(name, n, ps, labels=labels, kind=kind)


def tol(key=None, op="Exists", effect="NoSchedule"):
    t = {"operator": op}
    if key:
        t["key"] = key
    if effect:
        t["effect"] = effect
    return t


case("h13-scheduling-tolerations-and-node-selector-both-selectors", [
    template("acmescheduling", "AcmeScheduling", REGO_SCHED),
    constraint("AcmeScheduling", "app-scheduling",
               {"kinds": [kinds("apps", "Deployment", "DaemonSet")],
                "namespaceSelector": {"matchExpressions": [{"key": "acme.io/team-type", "operator": "NotIn", "values": ["platform"]}]},
                "labelSelector": {"matchExpressions": [{"key": SCHED, "operator": "DoesNotExist"}]}}),
], [
    (ns("apps", **{"acme.io/team-type": "app"}), "pass"), (ns("platform", **{"acme.io/team-type": "platform"}), "pass"),
    (ns("misc"), "pass"),
    (sdep("web", "apps"), "pass"),
    (sdep("cp", "apps", [tol(CP)]), "fail"),
    (sdep("master-tol", "apps", [tol("node-role.kubernetes.io/master")]), "fail"),
    # no key + Exists tolerates everything
    (sdep("node-exporter", "apps", [tol(None, effect=None)], kind="DaemonSet"), "fail"),
    (sdep("gpu", "apps", [tol("nvidia.com/gpu")], kind="DaemonSet"), "pass"),
    # key typo is not a control-plane key
    (sdep("cp-typo", "apps", [tol("node-role.kubernetes.io/controlplane")]), "pass"),
    (sdep("pinned", "apps", node_selector={"kubernetes.io/hostname": "node-3"}), "fail"),
    (sdep("zonal", "apps", node_selector={"topology.kubernetes.io/zone": "eu-west-1a"}), "pass"),
    # hostname as a value, not as the key
    (sdep("by-value", "apps", node_selector={"acme.io/pool": "kubernetes.io/hostname"}), "pass"),
    # labelSelector DoesNotExist keeps it out
    (sdep("exempt", "apps", [tol(CP)], labels={SCHED: "exempt"}), "pass"),
    # namespace NotIn [platform] keeps platform out, but matches the unlabelled misc
    (sdep("fluentbit", "platform", [tol(None, effect=None)], kind="DaemonSet"), "pass"),
    (sdep("cp", "misc", [tol(CP)]), "fail"),
    # a Pod is not a matched kind
    (pod("cp-pod", "apps", {"containers": [ctr("x")], "tolerations": [tol(CP)]}), "pass"),
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
