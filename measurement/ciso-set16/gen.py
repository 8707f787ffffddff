#!/usr/bin/env python3
"""ciso-set16: held-out CISO scenarios (15 Kubernetes, 5 RHEL 9).

Usage: python gen.py OUT      (stdlib only, deterministic)
"""
import json
import os
import re
import shutil
import sys

# ---------------------------------------------------------------- YAML emitter
_PLAIN = re.compile(r"^[A-Za-z_/][A-Za-z0-9_./-]*$")
_RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}


def _scalar(v):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return str(v)
    if _PLAIN.match(v) and v.lower() not in _RESERVED:
        return v
    return json.dumps(v)


def _emit(v, ind):
    pad = "  " * ind
    out = []
    if isinstance(v, dict):
        for k, val in v.items():
            if isinstance(val, dict) and val:
                out.append(f"{pad}{k}:")
                out += _emit(val, ind + 1)
            elif isinstance(val, list) and val:
                out.append(f"{pad}{k}:")
                out += _emit(val, ind)
            elif isinstance(val, dict):
                out.append(f"{pad}{k}: {{}}")
            elif isinstance(val, list):
                out.append(f"{pad}{k}: []")
            else:
                out.append(f"{pad}{k}: {_scalar(val)}")
    elif isinstance(v, list):
        for item in v:
            if isinstance(item, dict) and item:
                sub = _emit(item, ind + 1)
                sub[0] = pad + "- " + sub[0][len(pad) + 2:]
                out += sub
            elif isinstance(item, (dict, list)):
                out.append(f"{pad}- {json.dumps(item)}")
            else:
                out.append(f"{pad}- {_scalar(item)}")
    return out


def yaml_docs(docs):
    parts = []
    for d in docs:
        parts.append("\n".join(_emit(d, 0)) + "\n")
    return "---\n".join(parts)


# ---------------------------------------------------------------- k8s helpers
def md(name, ns=None, labels=None, ann=None):
    m = {"name": name}
    if ns:
        m["namespace"] = ns
    if labels:
        m["labels"] = dict(labels)
    if ann:
        m["annotations"] = dict(ann)
    return m


def namespace(name, labels=None):
    lab = {"kubernetes.io/metadata.name": name}
    lab.update(labels or {})
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": lab}}


def ctr(name, image, **kw):
    c = {"name": name, "image": image}
    c.update(kw)
    return c


def pspec(containers, init=None, **kw):
    s = {}
    s.update(kw)
    if init:
        s["initContainers"] = init
    s["containers"] = containers
    return s


def workload(kind, name, ns, spec, labels=None, replicas=1, tlabels=None, wl_extra=None):
    app = {"app": name}
    lab = dict(app)
    lab.update(labels or {})
    tlab = dict(app)
    tlab.update(tlabels if tlabels is not None else (labels or {}))
    template = {"metadata": {"labels": tlab}, "spec": spec}
    if kind == "Pod":
        return {"apiVersion": "v1", "kind": "Pod", "metadata": md(name, ns, lab), "spec": spec}
    if kind == "Deployment":
        body = {"replicas": replicas, "selector": {"matchLabels": app}, "template": template}
        api = "apps/v1"
    elif kind == "StatefulSet":
        body = {"serviceName": name, "replicas": replicas, "selector": {"matchLabels": app},
                "template": template}
        api = "apps/v1"
    elif kind == "DaemonSet":
        body = {"selector": {"matchLabels": app}, "template": template}
        api = "apps/v1"
    elif kind == "Job":
        sp = dict(spec)
        sp.setdefault("restartPolicy", "Never")
        template["spec"] = sp
        body = {"backoffLimit": 2, "template": template}
        api = "batch/v1"
    elif kind == "CronJob":
        sp = dict(spec)
        sp.setdefault("restartPolicy", "OnFailure")
        template["spec"] = sp
        body = {"schedule": "15 2 * * *", "concurrencyPolicy": "Forbid",
                "jobTemplate": {"spec": {"template": template}}}
        api = "batch/v1"
    else:
        raise ValueError(kind)
    if wl_extra:
        body.update(wl_extra)
    return {"apiVersion": api, "kind": kind, "metadata": md(name, ns, lab), "spec": body}


def ref(obj):
    m = obj["metadata"]
    return f"{obj['kind']}/{m.get('namespace', '')}/{m['name']}"


# ---------------------------------------------------------------- shared answers
FETCH_SH = """#!/usr/bin/env bash
# Collect every manifest under static-resources/ into one List (like kubectl get -A -o json).
set -euo pipefail
python3 - <<'PY'
import json, os
import yaml
items = []
for root, dirs, files in os.walk("static-resources"):
    dirs.sort()
    for f in sorted(files):
        if not f.endswith((".yaml", ".yml", ".json")):
            continue
        with open(os.path.join(root, f)) as fh:
            for doc in yaml.safe_load_all(fh):
                if not isinstance(doc, dict):
                    continue
                if doc.get("kind", "").endswith("List") and isinstance(doc.get("items"), list):
                    items.extend(doc["items"])
                else:
                    items.append(doc)
with open("collected_data.json", "w") as out:
    json.dump({"apiVersion": "v1", "kind": "List", "items": items}, out)
PY
"""


def fetcher_sh(kinds):
    return f"""#!/usr/bin/env bash
set -euo pipefail
kubectl get {",".join(kinds)} -A -o json > collected_data.json
"""


POD_KINDS = ["namespaces", "pods", "deployments", "statefulsets", "daemonsets", "replicasets",
             "jobs", "cronjobs"]

REGO_HEAD = """package check

import rego.v1

default result := true

result := false if count(violations) > 0
"""

REGO_PODS = """
pod_specs contains [obj, spec] if {
	some obj in input.items
	obj.kind == "Pod"
	spec := obj.spec
}

pod_specs contains [obj, spec] if {
	some obj in input.items
	obj.kind in {"Deployment", "StatefulSet", "DaemonSet", "Job", "ReplicaSet", "ReplicationController"}
	spec := obj.spec.template.spec
}

pod_specs contains [obj, spec] if {
	some obj in input.items
	obj.kind == "CronJob"
	spec := obj.spec.jobTemplate.spec.template.spec
}

all_containers(spec) := array.concat(
	array.concat(object.get(spec, "containers", []), object.get(spec, "initContainers", [])),
	object.get(spec, "ephemeralContainers", []),
)

ns_labels(ns) := labels if {
	some o in input.items
	o.kind == "Namespace"
	o.metadata.name == ns
	labels := object.get(o.metadata, "labels", {})
} else := {}

obj_ns(obj) := object.get(obj.metadata, "namespace", "default")
"""


def kyv(name, rules_yaml, annotations=""):
    return f"""apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: {name}
spec:
  validationFailureAction: Audit
  background: true
  rules:
{rules_yaml}"""


SCENARIOS = []


def add(**kw):
    SCENARIOS.append(kw)


def k8s(sid, half, requirement, common, bad, fixed, kyverno, rego, kinds, cis_id=None,
        title=None, notes="", layout="ns", style="plain"):
    assert len(bad) == len(fixed)
    add(sid=sid, half=half, platform="kubernetes", requirement=requirement, common=common,
        bad=bad, fixed=fixed, kyverno=kyverno, rego=rego, kinds=kinds, cis_id=cis_id,
        title=title, notes=notes, layout=layout, style=style)


def sec(**kw):
    return {"securityContext": kw}


RES = {"resources": {"requests": {"cpu": "100m", "memory": "128Mi"},
                     "limits": {"cpu": "500m", "memory": "256Mi"}}}

# ============================================================ K1 privileged (catalogue)
k8s(
    "k8s-no-privileged-outside-kube-system", "catalogue",
    "No container - regular, init or ephemeral - may run with securityContext.privileged set to "
    "true. The only exception is the kube-system namespace.",
    common=[
        namespace("shop"), namespace("data"), namespace("kube-system"),
        workload("DaemonSet", "node-agent", "kube-system", pspec([
            ctr("agent", "registry.k8s.io/node-problem-detector/node-problem-detector:v0.8.19",
                **sec(privileged=True))])),
        workload("Deployment", "cart", "shop", pspec([
            ctr("cart", "ghcr.io/acme/cart:3.2.0",
                **sec(privileged=False, allowPrivilegeEscalation=True))]), replicas=2),
        workload("Pod", "debug-shell", "shop", pspec([
            ctr("shell", "docker.io/library/busybox:1.36", command=["sleep", "3600"])],
            hostPID=True)),
    ],
    bad=[
        workload("StatefulSet", "pg", "data", pspec(
            [ctr("postgres", "docker.io/library/postgres:16.4", **sec(runAsUser=999))],
            init=[ctr("fix-perms", "docker.io/library/busybox:1.36",
                      command=["sh", "-c", "chown -R 999:999 /var/lib/postgresql"],
                      **sec(privileged=True))])),
        workload("Deployment", "web", "shop", pspec([
            ctr("nginx", "docker.io/library/nginx:1.27.2", **sec(privileged=False)),
            ctr("log-shipper", "docker.io/fluent/fluent-bit:3.1.9", **sec(privileged=True))]),
            replicas=3),
        workload("Pod", "checkout-7d9f8", "shop", pspec(
            [ctr("checkout", "ghcr.io/acme/checkout:6.3.0")],
            ephemeralContainers=[ctr("debugger-x2k4q", "docker.io/nicolaka/netshoot:v0.13",
                                     targetContainerName="checkout", stdin=True, tty=True,
                                     **sec(privileged=True))])),
    ],
    fixed=[
        workload("StatefulSet", "pg", "data", pspec(
            [ctr("postgres", "docker.io/library/postgres:16.4", **sec(runAsUser=999))],
            init=[ctr("fix-perms", "docker.io/library/busybox:1.36",
                      command=["sh", "-c", "chown -R 999:999 /var/lib/postgresql"],
                      **sec(privileged=False, capabilities={"add": ["CHOWN"]}))])),
        workload("Deployment", "web", "shop", pspec([
            ctr("nginx", "docker.io/library/nginx:1.27.2", **sec(privileged=False)),
            ctr("log-shipper", "docker.io/fluent/fluent-bit:3.1.9")]), replicas=3),
        workload("Pod", "checkout-7d9f8", "shop", pspec(
            [ctr("checkout", "ghcr.io/acme/checkout:6.3.0")],
            ephemeralContainers=[ctr("debugger-x2k4q", "docker.io/nicolaka/netshoot:v0.13",
                                     targetContainerName="checkout", stdin=True, tty=True,
                                     **sec(capabilities={"add": ["SYS_PTRACE"]}))])),
    ],
    kyverno=kyv("disallow-privileged-containers", """  - name: no-privileged
    match:
      any:
      - resources:
          kinds: [Pod]
    exclude:
      any:
      - resources:
          namespaces: [kube-system]
    validate:
      message: Privileged containers are not allowed.
      pattern:
        spec:
          =(ephemeralContainers):
          - =(securityContext):
              =(privileged): "false"
          =(initContainers):
          - =(securityContext):
              =(privileged): "false"
          containers:
          - =(securityContext):
              =(privileged): "false"
"""),
    rego=REGO_HEAD + REGO_PODS + """
violations contains obj.metadata.name if {
	some [obj, spec] in pod_specs
	obj_ns(obj) != "kube-system"
	some c in all_containers(spec)
	c.securityContext.privileged == true
}
""",
    kinds=POD_KINDS, cis_id="5.2.1",
    title="Privileged containers only in kube-system",
    notes="pg: privileged init container; web: privileged second container; checkout-7d9f8: "
          "a privileged ephemeral debug container (kubectl debug). Near misses: "
          "kube-system DaemonSet (exempt), allowPrivilegeEscalation (other control), hostPID pod.",
)

# ============================================================ K2 allowPrivilegeEscalation in prod (catalogue)
APE_F = {"allowPrivilegeEscalation": False}
k8s(
    "k8s-prod-privilege-escalation-off", "catalogue",
    "Workloads in namespaces carrying the label env=prod must have privilege escalation switched "
    "off explicitly in every one of their containers, init containers included; leaving the "
    "setting unset does not count as switched off. Namespaces with any other env label are out "
    "of scope.",
    common=[
        namespace("payments", {"env": "prod", "team": "payments"}),
        namespace("ledger", {"env": "prod", "team": "finance"}),
        namespace("sandbox", {"env": "dev"}),
        namespace("preprod", {"env": "preprod"}),
        workload("Deployment", "playground", "sandbox", pspec([
            ctr("app", "ghcr.io/acme/playground:0.4.1")])),
        workload("Deployment", "api", "preprod", pspec([
            ctr("api", "ghcr.io/acme/payments-api:5.0.0-rc2")])),
        workload("Deployment", "fraud-model", "payments", pspec([
            ctr("model", "ghcr.io/acme/fraud-model:2.7.0",
                securityContext={"allowPrivilegeEscalation": False, "runAsUser": 0})],
            init=[ctr("fetch-weights", "ghcr.io/acme/weights-fetcher:1.1.0",
                      securityContext=dict(APE_F))])),
    ],
    bad=[
        workload("CronJob", "settle-nightly", "payments", pspec([
            ctr("settle", "ghcr.io/acme/settlement:4.2.1",
                securityContext={"runAsNonRoot": True, "readOnlyRootFilesystem": True})])),
        workload("Deployment", "ledger-api", "ledger", pspec(
            [ctr("api", "ghcr.io/acme/ledger-api:1.19.0", securityContext=dict(APE_F))],
            init=[ctr("migrate", "ghcr.io/acme/ledger-migrations:1.19.0",
                      securityContext={"allowPrivilegeEscalation": True})]), replicas=2),
        workload("Deployment", "gateway", "payments", pspec([
            ctr("gateway", "ghcr.io/acme/pay-gateway:7.0.3", securityContext=dict(APE_F)),
            ctr("istio-proxy", "docker.io/istio/proxyv2:1.23.2",
                securityContext={"runAsUser": 1337, "runAsGroup": 1337})]), replicas=3),
    ],
    fixed=[
        workload("CronJob", "settle-nightly", "payments", pspec([
            ctr("settle", "ghcr.io/acme/settlement:4.2.1",
                securityContext={"runAsNonRoot": True, "readOnlyRootFilesystem": True,
                                 "allowPrivilegeEscalation": False})])),
        workload("Deployment", "ledger-api", "ledger", pspec(
            [ctr("api", "ghcr.io/acme/ledger-api:1.19.0", securityContext=dict(APE_F))],
            init=[ctr("migrate", "ghcr.io/acme/ledger-migrations:1.19.0",
                      securityContext=dict(APE_F))]), replicas=2),
        workload("Deployment", "gateway", "payments", pspec([
            ctr("gateway", "ghcr.io/acme/pay-gateway:7.0.3", securityContext=dict(APE_F)),
            ctr("istio-proxy", "docker.io/istio/proxyv2:1.23.2",
                securityContext={"runAsUser": 1337, "runAsGroup": 1337,
                                 "allowPrivilegeEscalation": False})]), replicas=3),
    ],
    kyverno=kyv("prod-disallow-privilege-escalation", """  - name: ape-false
    match:
      any:
      - resources:
          kinds: [Pod]
          namespaceSelector:
            matchLabels:
              env: prod
    validate:
      message: allowPrivilegeEscalation must be false in env=prod namespaces.
      pattern:
        spec:
          =(ephemeralContainers):
          - securityContext:
              allowPrivilegeEscalation: "false"
          =(initContainers):
          - securityContext:
              allowPrivilegeEscalation: "false"
          containers:
          - securityContext:
              allowPrivilegeEscalation: "false"
"""),
    rego=REGO_HEAD + REGO_PODS + """
violations contains obj.metadata.name if {
	some [obj, spec] in pod_specs
	ns_labels(obj_ns(obj)).env == "prod"
	some c in all_containers(spec)
	object.get(c, ["securityContext", "allowPrivilegeEscalation"], null) != false
}
""",
    kinds=POD_KINDS, cis_id="5.2.6",
    title="No privilege escalation in env=prod namespaces",
    notes="settle-nightly: CronJob container without the field; ledger-api: init container true; "
          "gateway: sidecar without the field. Out of scope: env=dev, env=preprod. fraud-model "
          "runs as UID 0 (other control) but sets the field false everywhere.",
)

# ============================================================ K3 non-root (catalogue)
k8s(
    "k8s-containers-must-not-run-as-root", "catalogue",
    "Nothing may run as root inside a container in the application namespaces (every namespace "
    "except kube-system and monitoring). Each container must be forced to a non-root user: "
    "runAsNonRoot true on the pod or on the container itself (a container-level value overrides "
    "the pod's), and no pod or container may ask for user ID 0.",
    common=[
        namespace("web"), namespace("batch"), namespace("monitoring"), namespace("kube-system"),
        workload("Deployment", "api", "web", pspec(
            [ctr("api", "ghcr.io/acme/web-api:8.1.0")],
            init=[ctr("wait-db", "docker.io/library/busybox:1.36",
                      command=["sh", "-c", "until nc -z pg 5432; do sleep 2; done"])],
            securityContext={"runAsNonRoot": True, "runAsUser": 10001, "fsGroup": 10001}),
            replicas=2),
        workload("Deployment", "admin", "web", pspec([
            ctr("admin", "ghcr.io/acme/admin-ui:2.0.4",
                securityContext={"runAsNonRoot": True, "runAsUser": 2000}),
            ctr("oauth-proxy", "quay.io/oauth2-proxy/oauth2-proxy:v7.6.0",
                securityContext={"runAsNonRoot": True})], hostNetwork=True)),
        workload("DaemonSet", "node-exporter", "monitoring", pspec([
            ctr("node-exporter", "quay.io/prometheus/node-exporter:v1.8.2",
                securityContext={"runAsUser": 0})], hostPID=True)),
    ],
    bad=[
        workload("Job", "reindex", "batch", pspec(
            [ctr("reindex", "ghcr.io/acme/search-reindex:1.3.0", securityContext={"runAsUser": 0})],
            securityContext={"runAsNonRoot": True})),
        workload("Deployment", "frontend", "web", pspec([
            ctr("frontend", "ghcr.io/acme/frontend:8.1.0", ports=[{"containerPort": 8080}])]),
            replicas=3),
        workload("StatefulSet", "cache", "web", pspec(
            [ctr("redis", "docker.io/library/redis:7.4.1",
                 securityContext={"runAsNonRoot": False})],
            securityContext={"runAsNonRoot": True, "runAsUser": 999})),
    ],
    fixed=[
        workload("Job", "reindex", "batch", pspec(
            [ctr("reindex", "ghcr.io/acme/search-reindex:1.3.0",
                 securityContext={"runAsUser": 1001})],
            securityContext={"runAsNonRoot": True})),
        workload("Deployment", "frontend", "web", pspec([
            ctr("frontend", "ghcr.io/acme/frontend:8.1.0", ports=[{"containerPort": 8080}])],
            securityContext={"runAsNonRoot": True, "runAsUser": 101}), replicas=3),
        workload("StatefulSet", "cache", "web", pspec(
            [ctr("redis", "docker.io/library/redis:7.4.1",
                 securityContext={"runAsNonRoot": True})],
            securityContext={"runAsNonRoot": True, "runAsUser": 999})),
    ],
    kyverno=kyv("require-non-root", """  - name: run-as-non-root
    match:
      any:
      - resources:
          kinds: [Pod]
    exclude:
      any:
      - resources:
          namespaces: [kube-system, monitoring]
    validate:
      message: Containers must run as non-root.
      anyPattern:
      - spec:
          securityContext:
            runAsNonRoot: true
          =(ephemeralContainers):
          - =(securityContext):
              =(runAsNonRoot): true
          =(initContainers):
          - =(securityContext):
              =(runAsNonRoot): true
          containers:
          - =(securityContext):
              =(runAsNonRoot): true
      - spec:
          =(ephemeralContainers):
          - securityContext:
              runAsNonRoot: true
          =(initContainers):
          - securityContext:
              runAsNonRoot: true
          containers:
          - securityContext:
              runAsNonRoot: true
  - name: no-uid-zero
    match:
      any:
      - resources:
          kinds: [Pod]
    exclude:
      any:
      - resources:
          namespaces: [kube-system, monitoring]
    validate:
      message: runAsUser 0 is not allowed.
      pattern:
        spec:
          =(securityContext):
            =(runAsUser): ">0"
          =(ephemeralContainers):
          - =(securityContext):
              =(runAsUser): ">0"
          =(initContainers):
          - =(securityContext):
              =(runAsUser): ">0"
          containers:
          - =(securityContext):
              =(runAsUser): ">0"
"""),
    rego=REGO_HEAD + REGO_PODS + """
exempt := {"kube-system", "monitoring"}

violations contains obj.metadata.name if {
	some [obj, spec] in pod_specs
	not exempt[obj_ns(obj)]
	some c in all_containers(spec)
	not effective_non_root(spec, c)
}

violations contains obj.metadata.name if {
	some [obj, spec] in pod_specs
	not exempt[obj_ns(obj)]
	object.get(spec, ["securityContext", "runAsUser"], 1) == 0
}

violations contains obj.metadata.name if {
	some [obj, spec] in pod_specs
	not exempt[obj_ns(obj)]
	some c in all_containers(spec)
	object.get(c, ["securityContext", "runAsUser"], 1) == 0
}

effective_non_root(spec, c) if {
	c.securityContext.runAsNonRoot == true
}

effective_non_root(spec, c) if {
	object.get(c, ["securityContext", "runAsNonRoot"], null) == null
	spec.securityContext.runAsNonRoot == true
}
""",
    kinds=POD_KINDS, cis_id="5.2.7",
    title="Containers run as non-root outside kube-system and monitoring",
    notes="reindex: pod runAsNonRoot true but container runAsUser 0; frontend: nothing set; "
          "cache: container runAsNonRoot false overrides the pod's true. Near misses: api "
          "(pod-level only, init container inherits), admin (container-level only, hostNetwork "
          "is another control), monitoring DaemonSet runs as root (exempt).",
    style="export",
)

# ============================================================ K4 capabilities (catalogue)
k8s(
    "k8s-drop-all-capabilities", "catalogue",
    "Every container outside kube-system, init containers too, has to drop ALL Linux "
    "capabilities. The one capability a container may add back is NET_BIND_SERVICE.",
    common=[
        namespace("shop"), namespace("observability"), namespace("kube-system"),
        workload("Deployment", "edge-proxy", "shop", pspec([
            ctr("envoy", "docker.io/envoyproxy/envoy:v1.31.2",
                securityContext={"capabilities": {"drop": ["ALL"], "add": ["NET_BIND_SERVICE"]}})]),
            replicas=2),
        workload("Deployment", "catalog", "shop", pspec([
            ctr("catalog", "ghcr.io/acme/catalog:4.0.1",
                securityContext={"privileged": False,
                                 "capabilities": {"drop": ["NET_RAW", "ALL"]}})])),
        workload("DaemonSet", "kube-proxy", "kube-system", pspec([
            ctr("kube-proxy", "registry.k8s.io/kube-proxy:v1.31.2",
                securityContext={"capabilities": {"add": ["NET_ADMIN", "SYS_MODULE"]}})],
            hostNetwork=True)),
        workload("Deployment", "search", "shop", pspec([
            ctr("search", "ghcr.io/acme/search:2.2.0",
                securityContext={"capabilities": {"drop": ["ALL"]}, "runAsUser": 0})])),
    ],
    bad=[
        workload("DaemonSet", "net-probe", "observability", pspec([
            ctr("probe", "ghcr.io/acme/net-probe:0.9.3",
                securityContext={"capabilities": {"drop": ["ALL"], "add": ["NET_RAW", "NET_ADMIN"]}})])),
        workload("Deployment", "checkout", "shop", pspec(
            [ctr("checkout", "ghcr.io/acme/checkout:6.3.0",
                 securityContext={"capabilities": {"drop": ["ALL"]}})],
            init=[ctr("iptables-init", "ghcr.io/acme/mesh-init:1.4.0",
                      securityContext={"capabilities": {"drop": ["NET_RAW"]}})]), replicas=2),
        workload("Pod", "toolbox", "shop", pspec([
            ctr("toolbox", "docker.io/library/alpine:3.20", command=["sleep", "infinity"])])),
    ],
    fixed=[
        workload("DaemonSet", "net-probe", "observability", pspec([
            ctr("probe", "ghcr.io/acme/net-probe:0.9.3",
                securityContext={"capabilities": {"drop": ["ALL"]}})])),
        workload("Deployment", "checkout", "shop", pspec(
            [ctr("checkout", "ghcr.io/acme/checkout:6.3.0",
                 securityContext={"capabilities": {"drop": ["ALL"]}})],
            init=[ctr("iptables-init", "ghcr.io/acme/mesh-init:1.4.0",
                      securityContext={"capabilities": {"drop": ["ALL"]}})]), replicas=2),
        workload("Pod", "toolbox", "shop", pspec([
            ctr("toolbox", "docker.io/library/alpine:3.20", command=["sleep", "infinity"],
                securityContext={"capabilities": {"drop": ["ALL"]}})])),
    ],
    kyverno=kyv("require-drop-all-capabilities", """  - name: drop-all
    match:
      any:
      - resources:
          kinds: [Pod]
    exclude:
      any:
      - resources:
          namespaces: [kube-system]
    validate:
      message: Containers must drop ALL capabilities and add at most NET_BIND_SERVICE.
      foreach:
      - list: request.object.spec.[ephemeralContainers, initContainers, containers][]
        deny:
          conditions:
            any:
            - key: ALL
              operator: AnyNotIn
              value: "{{ element.securityContext.capabilities.drop[] || `[]` }}"
            - key: "{{ element.securityContext.capabilities.add[] || `[]` }}"
              operator: AnyNotIn
              value: [NET_BIND_SERVICE]
"""),
    rego=REGO_HEAD + REGO_PODS + """
violations contains obj.metadata.name if {
	some [obj, spec] in pod_specs
	obj_ns(obj) != "kube-system"
	some c in all_containers(spec)
	not "ALL" in object.get(c, ["securityContext", "capabilities", "drop"], [])
}

violations contains obj.metadata.name if {
	some [obj, spec] in pod_specs
	obj_ns(obj) != "kube-system"
	some c in all_containers(spec)
	some cap in object.get(c, ["securityContext", "capabilities", "add"], [])
	cap != "NET_BIND_SERVICE"
}
""",
    kinds=POD_KINDS, cis_id="5.2.9",
    title="Drop ALL capabilities; add back NET_BIND_SERVICE only",
    notes="net-probe: adds NET_RAW/NET_ADMIN; checkout: init container drops only NET_RAW; "
          "toolbox: bare Pod with no capabilities block. Near misses: edge-proxy adds "
          "NET_BIND_SERVICE; catalog drops [NET_RAW, ALL]; kube-proxy exempt; search runs as "
          "UID 0 (other control).",
)

# ============================================================ K5 hostPath (catalogue)
k8s(
    "k8s-no-node-filesystem-mounts", "catalogue",
    "Pods outside kube-system must not mount directories or files from the node's own "
    "filesystem.",
    common=[
        namespace("ops"), namespace("data"), namespace("kube-system"),
        workload("DaemonSet", "fluent-bit", "kube-system", pspec(
            [ctr("fluent-bit", "docker.io/fluent/fluent-bit:3.1.9",
                 volumeMounts=[{"name": "varlog", "mountPath": "/var/log", "readOnly": True}])],
            volumes=[{"name": "varlog", "hostPath": {"path": "/var/log"}}])),
        workload("Deployment", "api", "data", pspec(
            [ctr("api", "ghcr.io/acme/data-api:3.3.0",
                 volumeMounts=[{"name": "tmp", "mountPath": "/tmp"},
                               {"name": "cfg", "mountPath": "/etc/data-api"},
                               {"name": "token", "mountPath": "/var/run/secrets/tokens"}])],
            volumes=[{"name": "tmp", "emptyDir": {}},
                     {"name": "cfg", "configMap": {"name": "data-api"}},
                     {"name": "token", "projected": {"sources": [{"serviceAccountToken": {
                         "path": "token", "expirationSeconds": 3600, "audience": "vault"}}]}}])),
        workload("Deployment", "socat", "ops", pspec(
            [ctr("socat", "docker.io/alpine/socat:1.8.0.0")], hostNetwork=True)),
        workload("StatefulSet", "minio", "data", pspec(
            [ctr("minio", "quay.io/minio/minio:RELEASE.2024-10-13T13-34-11Z",
                 volumeMounts=[{"name": "export", "mountPath": "/export"}])],
            volumes=[{"name": "export", "persistentVolumeClaim": {"claimName": "minio-export"}}])),
    ],
    bad=[
        workload("CronJob", "log-rotate", "ops", pspec(
            [ctr("logrotate", "ghcr.io/acme/logrotate:1.0.2",
                 volumeMounts=[{"name": "logs", "mountPath": "/logs"}])],
            volumes=[{"name": "logs", "hostPath": {"path": "/var/log/containers",
                                                   "type": "Directory"}}])),
        workload("StatefulSet", "es", "data", pspec(
            [ctr("elasticsearch", "docker.elastic.co/elasticsearch/elasticsearch:8.15.3",
                 volumeMounts=[{"name": "config", "mountPath": "/usr/share/elasticsearch/config/x"},
                               {"name": "data", "mountPath": "/usr/share/elasticsearch/data"}])],
            volumes=[{"name": "config", "configMap": {"name": "es-config"}},
                     {"name": "data", "hostPath": {"path": "/mnt/disks/ssd0",
                                                   "type": "DirectoryOrCreate"}}]), replicas=3),
        workload("Pod", "node-debugger", "ops", pspec(
            [ctr("debugger", "docker.io/library/busybox:1.36", command=["sleep", "3600"],
                 volumeMounts=[{"name": "host-root", "mountPath": "/host"}])],
            volumes=[{"name": "host-root", "hostPath": {"path": "/"}}])),
    ],
    fixed=[
        workload("CronJob", "log-rotate", "ops", pspec(
            [ctr("logrotate", "ghcr.io/acme/logrotate:1.0.2",
                 volumeMounts=[{"name": "logs", "mountPath": "/logs"}])],
            volumes=[{"name": "logs", "persistentVolumeClaim": {"claimName": "shared-logs"}}])),
        workload("StatefulSet", "es", "data", pspec(
            [ctr("elasticsearch", "docker.elastic.co/elasticsearch/elasticsearch:8.15.3",
                 volumeMounts=[{"name": "config", "mountPath": "/usr/share/elasticsearch/config/x"},
                               {"name": "data", "mountPath": "/usr/share/elasticsearch/data"}])],
            volumes=[{"name": "config", "configMap": {"name": "es-config"}},
                     {"name": "data", "emptyDir": {}}]), replicas=3),
        workload("Pod", "node-debugger", "ops", pspec(
            [ctr("debugger", "docker.io/library/busybox:1.36", command=["sleep", "3600"])])),
    ],
    kyverno=kyv("disallow-host-path", """  - name: host-path
    match:
      any:
      - resources:
          kinds: [Pod]
    exclude:
      any:
      - resources:
          namespaces: [kube-system]
    validate:
      message: hostPath volumes are forbidden.
      pattern:
        spec:
          =(volumes):
          - X(hostPath): "null"
"""),
    rego=REGO_HEAD + REGO_PODS + """
violations contains obj.metadata.name if {
	some [obj, spec] in pod_specs
	obj_ns(obj) != "kube-system"
	some v in object.get(spec, "volumes", [])
	v.hostPath
}
""",
    kinds=POD_KINDS, cis_id="5.2.12",
    title="No hostPath volumes outside kube-system",
    notes="log-rotate: CronJob hostPath; es: second volume hostPath; node-debugger: bare Pod "
          "mounting /. Near misses: emptyDir, configMap, projected token, PVC; kube-system "
          "DaemonSet exempt; socat uses hostNetwork (other control).",
)

# ============================================================ K6 pinned images (catalogue)
DIG = "sha256:" + "4f1c0a7e9b2d3c5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6"
k8s(
    "k8s-images-pinned-to-a-version", "catalogue",
    "Container images have to be pinned to a specific version. An image reference without any "
    "tag, or tagged latest, is not acceptable; a digest reference is fine. This holds for every "
    "container of every workload, including init containers.",
    common=[
        namespace("web"), namespace("ops"),
        workload("Deployment", "api", "web", pspec([
            ctr("api", "ghcr.io/acme/api@" + DIG)]), replicas=2),
        workload("Deployment", "worker", "web", pspec([
            ctr("worker", "registry.internal.example:5000/acme/worker:2024.11.3")])),
        workload("Deployment", "exporter", "web", pspec([
            ctr("exporter", "quay.io/acme/latest-exporter:v0.9.1")])),
        workload("StatefulSet", "queue", "ops", pspec([
            ctr("rabbitmq", "docker.io/library/rabbitmq:3.13.7-management",
                securityContext={"runAsUser": 0})])),
    ],
    bad=[
        workload("Deployment", "storefront", "web", pspec([
            ctr("storefront", "ghcr.io/acme/storefront:9.4.0"),
            ctr("nginx", "nginx:latest")]), replicas=3),
        workload("Job", "db-backup", "ops", pspec([
            ctr("backup", "registry.internal.example:5000/tools/pg-backup")])),
        workload("CronJob", "cleanup", "ops", pspec(
            [ctr("cleanup", "ghcr.io/acme/cleanup:1.0.0")],
            init=[ctr("wait", "busybox", command=["sh", "-c", "sleep 5"])])),
    ],
    fixed=[
        workload("Deployment", "storefront", "web", pspec([
            ctr("storefront", "ghcr.io/acme/storefront:9.4.0"),
            ctr("nginx", "nginx:1.27.2")]), replicas=3),
        workload("Job", "db-backup", "ops", pspec([
            ctr("backup", "registry.internal.example:5000/tools/pg-backup:16.4-1")])),
        workload("CronJob", "cleanup", "ops", pspec(
            [ctr("cleanup", "ghcr.io/acme/cleanup:1.0.0")],
            init=[ctr("wait", "busybox:1.36", command=["sh", "-c", "sleep 5"])])),
    ],
    kyverno=kyv("require-pinned-images", """  - name: pinned
    match:
      any:
      - resources:
          kinds: [Pod]
    validate:
      message: Images must carry a version tag other than latest, or a digest.
      foreach:
      - list: request.object.spec.[ephemeralContainers, initContainers, containers][]
        deny:
          conditions:
            any:
            - key: "{{ regex_match('^([^@]*/)?[^/:@]+(:latest)?$', element.image) }}"
              operator: Equals
              value: true
"""),
    rego=REGO_HEAD + REGO_PODS + """
violations contains [obj.metadata.name, c.image] if {
	some [obj, spec] in pod_specs
	some c in all_containers(spec)
	not pinned(c.image)
}

pinned(image) if contains(image, "@sha256:")

pinned(image) if {
	not contains(image, "@")
	parts := split(image, "/")
	last := parts[count(parts) - 1]
	contains(last, ":")
	tag := split(last, ":")[1]
	tag != "latest"
}
""",
    kinds=POD_KINDS,
    title="Images pinned: no missing tag, no latest",
    notes="storefront: sidecar nginx:latest; db-backup: registry with a port but no tag; "
          "cleanup: CronJob init container 'busybox' untagged. Near misses: digest without tag, "
          "registry:port/...:tag, an image whose NAME contains 'latest', rabbitmq:3.13-management; "
          "queue runs as UID 0 (other control).",
)

# ============================================================ K7 limits for team payments (catalogue)
LIM = {"requests": {"cpu": "250m", "memory": "256Mi"}, "limits": {"cpu": "1", "memory": "512Mi"}}
PAY = {"team": "payments"}
k8s(
    "k8s-payments-cpu-memory-limits", "catalogue",
    "For workloads owned by the payments team (label team=payments), every container - init "
    "containers included - must declare both a CPU limit and a memory limit. Requests alone are "
    "not enough.",
    common=[
        namespace("pay"), namespace("batch"),
        workload("Deployment", "pay-web", "pay", pspec([
            ctr("web", "ghcr.io/acme/pay-web:3.0.1", resources=dict(LIM)),
            ctr("metrics", "ghcr.io/acme/statsd-exporter:0.27.1",
                resources={"limits": {"cpu": "100m", "memory": "64Mi"}})]), labels=PAY, replicas=2),
        workload("Deployment", "search-indexer", "batch", pspec([
            ctr("indexer", "ghcr.io/acme/search-indexer:5.5.0")]), labels={"team": "search"}),
        workload("Deployment", "pay-frontend", "pay", pspec([
            ctr("frontend", "ghcr.io/acme/pay-frontend:3.0.1",
                resources={"limits": {"cpu": "2", "memory": "1Gi"}})]), labels=PAY),
        workload("Deployment", "pay-docs", "pay", pspec([
            ctr("docs", "ghcr.io/acme/pay-docs:1.0.0",
                securityContext={"privileged": True})]), labels={"team": "platform"}),
    ],
    bad=[
        workload("Deployment", "pay-api", "pay", pspec([
            ctr("api", "ghcr.io/acme/pay-api:12.0.0", resources=dict(LIM)),
            ctr("vault-agent", "docker.io/hashicorp/vault:1.17.6",
                resources={"requests": {"cpu": "50m", "memory": "64Mi"}, "limits": {"cpu": "100m"}})]),
            labels=PAY, replicas=3),
        workload("StatefulSet", "pay-ledger-db", "pay", pspec(
            [ctr("postgres", "docker.io/library/postgres:16.4", resources=dict(LIM))],
            init=[ctr("init-schema", "ghcr.io/acme/pay-schema:12.0.0")]), labels=PAY),
        workload("CronJob", "pay-reconcile", "batch", pspec([
            ctr("reconcile", "ghcr.io/acme/pay-reconcile:2.1.0",
                resources={"requests": {"cpu": "500m", "memory": "1Gi"}})]), labels=PAY),
    ],
    fixed=[
        workload("Deployment", "pay-api", "pay", pspec([
            ctr("api", "ghcr.io/acme/pay-api:12.0.0", resources=dict(LIM)),
            ctr("vault-agent", "docker.io/hashicorp/vault:1.17.6",
                resources={"requests": {"cpu": "50m", "memory": "64Mi"},
                           "limits": {"cpu": "100m", "memory": "128Mi"}})]),
            labels=PAY, replicas=3),
        workload("StatefulSet", "pay-ledger-db", "pay", pspec(
            [ctr("postgres", "docker.io/library/postgres:16.4", resources=dict(LIM))],
            init=[ctr("init-schema", "ghcr.io/acme/pay-schema:12.0.0",
                      resources={"limits": {"cpu": "200m", "memory": "128Mi"}})]), labels=PAY),
        workload("CronJob", "pay-reconcile", "batch", pspec([
            ctr("reconcile", "ghcr.io/acme/pay-reconcile:2.1.0",
                resources={"requests": {"cpu": "500m", "memory": "1Gi"},
                           "limits": {"cpu": "1", "memory": "2Gi"}})]), labels=PAY),
    ],
    kyverno=kyv("payments-require-limits", """  - name: cpu-memory-limits
    match:
      any:
      - resources:
          kinds: [Pod]
          selector:
            matchLabels:
              team: payments
    validate:
      message: CPU and memory limits are required for team=payments.
      pattern:
        spec:
          =(initContainers):
          - resources:
              limits:
                cpu: "?*"
                memory: "?*"
          containers:
          - resources:
              limits:
                cpu: "?*"
                memory: "?*"
  - name: cpu-memory-limits-cronjob
    match:
      any:
      - resources:
          kinds: [CronJob]
          selector:
            matchLabels:
              team: payments
    validate:
      message: CPU and memory limits are required for team=payments.
      pattern:
        spec:
          jobTemplate:
            spec:
              template:
                spec:
                  =(initContainers):
                  - resources:
                      limits:
                        cpu: "?*"
                        memory: "?*"
                  containers:
                  - resources:
                      limits:
                        cpu: "?*"
                        memory: "?*"
"""),
    rego=REGO_HEAD + REGO_PODS + """
team_of(obj) := t if {
	t := obj.metadata.labels.team
} else := t if {
	t := obj.spec.template.metadata.labels.team
} else := t if {
	t := obj.spec.jobTemplate.spec.template.metadata.labels.team
} else := ""

violations contains [obj.metadata.name, c.name, r] if {
	some [obj, spec] in pod_specs
	team_of(obj) == "payments"
	some c in all_containers(spec)
	some r in ["cpu", "memory"]
	object.get(c, ["resources", "limits", r], "") == ""
}
""",
    kinds=POD_KINDS,
    title="team=payments workloads declare CPU and memory limits",
    notes="pay-api: sidecar with a CPU limit only; pay-ledger-db: init container without "
          "resources; pay-reconcile: CronJob (in namespace batch) with requests only. Near "
          "misses: pay-frontend (limits without requests), team=search without limits, "
          "team=platform in namespace pay (privileged: other control).",
    style="export",
)

# ============================================================ K8 cluster-admin bindings (catalogue)
def crb(name, role, subjects, kind="ClusterRoleBinding", ns=None, role_kind="ClusterRole"):
    return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": kind, "metadata": md(name, ns),
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": role_kind, "name": role},
            "subjects": subjects}


def subj(kind, name, ns=None):
    s = {"kind": kind, "name": name}
    if kind == "ServiceAccount":
        s["namespace"] = ns
    else:
        s["apiGroup"] = "rbac.authorization.k8s.io"
    return s


k8s(
    "k8s-cluster-admin-only-for-system-masters", "catalogue",
    "The cluster-admin role may be granted only to the system:masters group. No other user, "
    "group or service account may hold it, whether through a cluster-wide binding or a binding "
    "inside one namespace.",
    common=[
        namespace("ci"), namespace("dev"),
        {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": md("deployer", "ci")},
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
         "metadata": md("cluster-admin-lite"),
         "rules": [{"apiGroups": [""], "resources": ["pods", "pods/log"], "verbs": ["get", "list"]}]},
        crb("cluster-admin", "cluster-admin", [subj("Group", "system:masters")]),
        crb("support-lite", "cluster-admin-lite", [subj("User", "bob@acme.example")]),
        crb("view-all-authenticated", "view", [subj("Group", "system:authenticated")]),
        crb("dev-admins", "admin", [subj("Group", "dev-leads")], kind="RoleBinding", ns="dev"),
    ],
    bad=[
        crb("ci-deployer-admin", "cluster-admin", [subj("ServiceAccount", "deployer", "ci")]),
        crb("oncall-admin", "cluster-admin", [subj("Group", "sre-oncall")], kind="RoleBinding",
            ns="dev"),
        crb("break-glass", "cluster-admin",
            [subj("Group", "system:masters"), subj("User", "alice@acme.example")]),
    ],
    fixed=[
        crb("ci-deployer-admin", "edit", [subj("ServiceAccount", "deployer", "ci")]),
        crb("oncall-admin", "admin", [subj("Group", "sre-oncall")], kind="RoleBinding", ns="dev"),
        crb("break-glass", "cluster-admin", [subj("Group", "system:masters")]),
    ],
    kyverno=kyv("restrict-cluster-admin-binding", """  - name: only-system-masters
    match:
      any:
      - resources:
          kinds: [ClusterRoleBinding, RoleBinding]
    preconditions:
      all:
      - key: "{{ request.object.roleRef.kind }}"
        operator: Equals
        value: ClusterRole
      - key: "{{ request.object.roleRef.name }}"
        operator: Equals
        value: cluster-admin
    validate:
      message: cluster-admin may only be bound to system:masters.
      deny:
        conditions:
          any:
          - key: "{{ request.object.subjects[?!(kind == 'Group' && name == 'system:masters')] || `[]` | length(@) }}"
            operator: GreaterThan
            value: 0
"""),
    rego=REGO_HEAD + """
violations contains b.metadata.name if {
	some b in input.items
	b.kind in {"ClusterRoleBinding", "RoleBinding"}
	b.roleRef.kind == "ClusterRole"
	b.roleRef.name == "cluster-admin"
	some s in object.get(b, "subjects", [])
	not system_masters(s)
}

system_masters(s) if {
	s.kind == "Group"
	s.name == "system:masters"
}
""",
    kinds=["clusterrolebindings", "rolebindings"], cis_id="5.1.1",
    title="cluster-admin bound only to system:masters",
    notes="ci-deployer-admin: ServiceAccount; oncall-admin: a RoleBinding to the ClusterRole "
          "cluster-admin in one namespace; break-glass: system:masters plus a user. Near misses: "
          "cluster-admin-lite (similar name), admin/view bindings (view to system:authenticated "
          "is another control).",
    layout="kind",
)

# ============================================================ K9 shareProcessNamespace (novel)
k8s(
    "k8s-no-shared-process-namespace", "novel",
    "Containers that run together in one pod must not be able to see or signal each other's "
    "processes. Only workloads in the troubleshooting namespace are exempt.",
    common=[
        namespace("app"), namespace("troubleshooting"),
        workload("Deployment", "netshoot", "troubleshooting", pspec([
            ctr("netshoot", "docker.io/nicolaka/netshoot:v0.13"),
            ctr("target", "ghcr.io/acme/api:8.1.0")], shareProcessNamespace=True)),
        workload("Deployment", "api", "app", pspec([
            ctr("api", "ghcr.io/acme/api:8.1.0"),
            ctr("envoy", "docker.io/envoyproxy/envoy:v1.31.2")], shareProcessNamespace=False),
            replicas=2),
        workload("Deployment", "worker", "app", pspec([
            ctr("worker", "ghcr.io/acme/worker:8.1.0", securityContext={"privileged": True})])),
        workload("Pod", "one-shot", "app", pspec([
            ctr("task", "ghcr.io/acme/task:0.1.0")], restartPolicy="Never")),
    ],
    bad=[
        workload("Deployment", "payments-sidecar", "app", pspec([
            ctr("app", "ghcr.io/acme/payments:4.0.0"),
            ctr("reloader", "ghcr.io/acme/config-reloader:0.3.0")], shareProcessNamespace=True),
            replicas=2),
        workload("CronJob", "heap-dumper", "app", pspec([
            ctr("dumper", "ghcr.io/acme/jvm-tools:17.0.12"),
            ctr("uploader", "ghcr.io/acme/s3-uploader:1.2.0")], shareProcessNamespace=True)),
    ],
    fixed=[
        workload("Deployment", "payments-sidecar", "app", pspec([
            ctr("app", "ghcr.io/acme/payments:4.0.0"),
            ctr("reloader", "ghcr.io/acme/config-reloader:0.3.0")]), replicas=2),
        workload("CronJob", "heap-dumper", "app", pspec([
            ctr("dumper", "ghcr.io/acme/jvm-tools:17.0.12"),
            ctr("uploader", "ghcr.io/acme/s3-uploader:1.2.0")], shareProcessNamespace=False)),
    ],
    kyverno=kyv("disallow-share-process-namespace", """  - name: no-share-pid
    match:
      any:
      - resources:
          kinds: [Pod]
    exclude:
      any:
      - resources:
          namespaces: [troubleshooting]
    validate:
      message: shareProcessNamespace must not be true.
      pattern:
        spec:
          =(shareProcessNamespace): "false"
"""),
    rego=REGO_HEAD + REGO_PODS + """
violations contains obj.metadata.name if {
	some [obj, spec] in pod_specs
	obj_ns(obj) != "troubleshooting"
	spec.shareProcessNamespace == true
}
""",
    kinds=POD_KINDS,
    title="No shared process namespace outside troubleshooting",
    notes="Stated by effect (shareProcessNamespace). payments-sidecar: Deployment; heap-dumper: "
          "CronJob template. Near misses: explicit false, field absent, troubleshooting "
          "namespace exempt; worker is privileged (other control).",
)

# ============================================================ K10 terminationGracePeriodSeconds (novel)
def tg(n):
    return {"terminationGracePeriodSeconds": n}


k8s(
    "k8s-shutdown-grace-period-bounds", "novel",
    "Pods must be given at least ten seconds, and no more than two minutes, to shut down "
    "gracefully. Leaving the setting out is fine: Kubernetes then applies its default of thirty "
    "seconds.",
    common=[
        namespace("shop"), namespace("data"),
        workload("Deployment", "web", "shop", pspec([ctr("web", "ghcr.io/acme/web:5.0.0")], **tg(120)),
                 replicas=3),
        workload("Deployment", "api", "shop", pspec([ctr("api", "ghcr.io/acme/api:5.0.0")], **tg(10)),
                 replicas=2, wl_extra={"progressDeadlineSeconds": 600}),
        workload("Deployment", "search", "shop", pspec([ctr("search", "ghcr.io/acme/search:5.0.0")])),
        workload("Job", "import", "shop", pspec([ctr("import", "ghcr.io/acme/import:1.0.0")],
                                                  activeDeadlineSeconds=5, **tg(60))),
        workload("StatefulSet", "zookeeper", "data", pspec(
            [ctr("zk", "docker.io/library/zookeeper:3.9.2")], hostNetwork=True, **tg(90))),
    ],
    bad=[
        workload("Deployment", "cart", "shop", pspec([ctr("cart", "ghcr.io/acme/cart:5.0.0")], **tg(0)),
                 replicas=2),
        workload("StatefulSet", "kafka", "data", pspec([
            ctr("kafka", "docker.io/bitnami/kafka:3.8.0")], **tg(600)), replicas=3),
        workload("CronJob", "export", "shop", pspec([ctr("export", "ghcr.io/acme/export:2.0.0")],
                                                    **tg(5))),
    ],
    fixed=[
        workload("Deployment", "cart", "shop", pspec([ctr("cart", "ghcr.io/acme/cart:5.0.0")], **tg(30)),
                 replicas=2),
        workload("StatefulSet", "kafka", "data", pspec([
            ctr("kafka", "docker.io/bitnami/kafka:3.8.0")], **tg(120)), replicas=3),
        workload("CronJob", "export", "shop", pspec([ctr("export", "ghcr.io/acme/export:2.0.0")],
                                                    **tg(10))),
    ],
    kyverno=kyv("termination-grace-period-bounds", """  - name: grace-bounds
    match:
      any:
      - resources:
          kinds: [Pod]
    validate:
      message: terminationGracePeriodSeconds must be between 10 and 120.
      pattern:
        spec:
          =(terminationGracePeriodSeconds): "10-120"
"""),
    rego=REGO_HEAD + REGO_PODS + """
violations contains obj.metadata.name if {
	some [obj, spec] in pod_specs
	g := object.get(spec, "terminationGracePeriodSeconds", 30)
	not in_bounds(g)
}

in_bounds(g) if {
	g >= 10
	g <= 120
}
""",
    kinds=POD_KINDS,
    title="terminationGracePeriodSeconds between 10 and 120",
    notes="Numbers in words. cart: 0; kafka: 600; export: CronJob 5. Near misses: exactly 10 and "
          "120, omitted (default 30), a Job's activeDeadlineSeconds of 5 and a Deployment's "
          "progressDeadlineSeconds of 600 (other fields); zookeeper uses hostNetwork (other control).",
    style="export",
)

# ============================================================ K11 memory emptyDir sizeLimit (novel)
def vm(name, path):
    return {"name": name, "mountPath": path}


k8s(
    "k8s-ram-scratch-volumes-capped", "novel",
    "Scratch volumes that live in the node's RAM must always carry a size cap.",
    common=[
        namespace("ml"),
        workload("Deployment", "trainer", "ml", pspec(
            [ctr("trainer", "ghcr.io/acme/trainer:0.12.0", volumeMounts=[vm("scratch", "/scratch")])],
            volumes=[{"name": "scratch", "emptyDir": {}}])),
        workload("Deployment", "notebook", "ml", pspec(
            [ctr("jupyter", "quay.io/jupyter/base-notebook:2024-10-14",
                 volumeMounts=[vm("shm", "/dev/shm")])],
            volumes=[{"name": "shm", "emptyDir": {"medium": "Memory", "sizeLimit": "512Mi"}}])),
        workload("StatefulSet", "redis", "ml", pspec(
            [ctr("redis", "docker.io/library/redis:7.4.1", volumeMounts=[vm("data", "/data")])],
            volumes=[{"name": "data", "hostPath": {"path": "/srv/redis"}}])),
        workload("Job", "prep", "ml", pspec(
            [ctr("prep", "ghcr.io/acme/prep:0.12.0", volumeMounts=[vm("work", "/work")])],
            volumes=[{"name": "work", "emptyDir": {"medium": "", "sizeLimit": "20Gi"}}])),
    ],
    bad=[
        workload("Deployment", "inference", "ml", pspec(
            [ctr("server", "nvcr.io/nvidia/tritonserver:24.10-py3",
                 volumeMounts=[vm("models", "/models"), vm("shm", "/dev/shm")])],
            volumes=[{"name": "models", "persistentVolumeClaim": {"claimName": "models"}},
                     {"name": "shm", "emptyDir": {"medium": "Memory"}}]), replicas=2),
        workload("CronJob", "feature-build", "ml", pspec(
            [ctr("build", "ghcr.io/acme/feature-build:3.1.0", volumeMounts=[vm("tmp", "/tmp")])],
            init=[ctr("fetch", "ghcr.io/acme/fetcher:1.0.0", volumeMounts=[vm("tmp", "/tmp")])],
            volumes=[{"name": "tmp", "emptyDir": {"medium": "Memory"}}])),
    ],
    fixed=[
        workload("Deployment", "inference", "ml", pspec(
            [ctr("server", "nvcr.io/nvidia/tritonserver:24.10-py3",
                 volumeMounts=[vm("models", "/models"), vm("shm", "/dev/shm")])],
            volumes=[{"name": "models", "persistentVolumeClaim": {"claimName": "models"}},
                     {"name": "shm", "emptyDir": {"medium": "Memory", "sizeLimit": "1Gi"}}]),
            replicas=2),
        workload("CronJob", "feature-build", "ml", pspec(
            [ctr("build", "ghcr.io/acme/feature-build:3.1.0", volumeMounts=[vm("tmp", "/tmp")])],
            init=[ctr("fetch", "ghcr.io/acme/fetcher:1.0.0", volumeMounts=[vm("tmp", "/tmp")])],
            volumes=[{"name": "tmp", "emptyDir": {"medium": "Memory", "sizeLimit": "256Mi"}}])),
    ],
    kyverno=kyv("memory-emptydir-size-limit", """  - name: memory-size-limit
    match:
      any:
      - resources:
          kinds: [Pod]
    validate:
      message: emptyDir volumes with medium Memory need a sizeLimit.
      foreach:
      - list: request.object.spec.volumes[?emptyDir.medium == 'Memory']
        deny:
          conditions:
            any:
            - key: "{{ element.emptyDir.sizeLimit || '' }}"
              operator: Equals
              value: ""
"""),
    rego=REGO_HEAD + REGO_PODS + """
violations contains obj.metadata.name if {
	some [obj, spec] in pod_specs
	some v in object.get(spec, "volumes", [])
	v.emptyDir.medium == "Memory"
	object.get(v.emptyDir, "sizeLimit", "") == ""
}
""",
    kinds=POD_KINDS,
    title="emptyDir medium Memory needs sizeLimit",
    notes="Stated in words only. inference: second volume; feature-build: CronJob. Near misses: "
          "disk emptyDir without a cap, Memory with a cap, medium \"\" with a cap; redis uses "
          "hostPath (other control).",
)

# ============================================================ K12 Service externalIPs (novel)
def svc(name, ns, typ="ClusterIP", port=80, extra=None, status=None, labels=None):
    spec = {"type": typ, "selector": {"app": name},
            "ports": [{"name": "http", "port": port, "targetPort": port, "protocol": "TCP"}]}
    if typ == "ExternalName":
        spec = {"type": typ, "externalName": extra.pop("externalName")}
    spec.update(extra or {})
    o = {"apiVersion": "v1", "kind": "Service", "metadata": md(name, ns, labels), "spec": spec}
    if status:
        o["status"] = status
    return o


def stale_last_applied(o, old_spec):
    import copy
    old = copy.deepcopy(o)
    old.pop("status", None)
    old["spec"].update(old_spec)
    o["metadata"]["annotations"] = {
        "kubectl.kubernetes.io/last-applied-configuration": json.dumps(old, sort_keys=True) + "\n"}
    return o


k8s(
    "k8s-services-no-external-ips", "novel",
    "Services must not declare spec.externalIPs, except in the edge namespace, whose addresses "
    "the network team manages.",
    common=[
        namespace("shop"), namespace("data"), namespace("edge"), namespace("edge-legacy"),
        svc("ingress-vip", "edge", "LoadBalancer", 443, {"externalIPs": ["198.51.100.20"]}),
        svc("web", "shop", "LoadBalancer", 443,
            status={"loadBalancer": {"ingress": [{"ip": "203.0.113.44"}]}}),
        stale_last_applied(svc("api", "shop", "ClusterIP", 8080, {"externalIPs": []}),
                           {"externalIPs": ["203.0.113.9"]}),
        svc("partner", "shop", "ExternalName", extra={"externalName": "api.partner.example"}),
        svc("pg-admin", "data", "NodePort", 5432, {"externalTrafficPolicy": "Cluster"}),
    ],
    bad=[
        svc("legacy-gw", "shop", "ClusterIP", 8443, {"externalIPs": ["203.0.113.10"]}),
        svc("db-direct", "data", "LoadBalancer", 5432,
            {"externalIPs": ["10.20.0.15", "10.20.0.16"], "loadBalancerSourceRanges": ["10.0.0.0/8"]}),
        svc("old-vip", "edge-legacy", "ClusterIP", 443, {"externalIPs": ["198.51.100.7"]}),
    ],
    fixed=[
        svc("legacy-gw", "shop", "ClusterIP", 8443),
        svc("db-direct", "data", "LoadBalancer", 5432, {"loadBalancerSourceRanges": ["10.0.0.0/8"]}),
        svc("old-vip", "edge-legacy", "ClusterIP", 443),
    ],
    kyverno=kyv("restrict-external-ips", """  - name: no-external-ips
    match:
      any:
      - resources:
          kinds: [Service]
    exclude:
      any:
      - resources:
          namespaces: [edge]
    validate:
      message: externalIPs are not allowed.
      deny:
        conditions:
          any:
          - key: "{{ length(request.object.spec.externalIPs || `[]`) }}"
            operator: GreaterThan
            value: 0
"""),
    rego=REGO_HEAD + """
violations contains s.metadata.name if {
	some s in input.items
	s.kind == "Service"
	object.get(s.metadata, "namespace", "default") != "edge"
	count(object.get(s.spec, "externalIPs", [])) > 0
}
""",
    kinds=["namespaces", "services"],
    title="No Service externalIPs outside edge",
    notes="legacy-gw: ClusterIP with one external IP; db-direct: LoadBalancer with two; "
          "old-vip: namespace edge-legacy is not the exempt edge namespace. Near "
          "misses: an empty externalIPs list (its last-applied-configuration annotation still "
          "shows an old external IP: the object was patched since), a LoadBalancer's status "
          "ingress IP, ExternalName, "
          "the edge namespace (exempt); pg-admin is a NodePort (other control).",
)

# ============================================================ K13 admission webhooks fail closed (novel)
def hook(name, svcname, ns, fp=None, path="/validate", rules=None, **kw):
    h = {"name": name,
         "clientConfig": {"service": {"name": svcname, "namespace": ns, "path": path, "port": 443},
                          "caBundle": "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJ"},
         "rules": rules or [{"apiGroups": [""], "apiVersions": ["v1"], "operations": ["CREATE", "UPDATE"],
                             "resources": ["pods"], "scope": "Namespaced"}],
         "admissionReviewVersions": ["v1"], "sideEffects": "None", "timeoutSeconds": 10}
    if fp:
        h["failurePolicy"] = fp
    h.update(kw)
    return h


def whc(kind, name, hooks):
    return {"apiVersion": "admissionregistration.k8s.io/v1", "kind": kind,
            "metadata": md(name), "webhooks": hooks}


V, M = "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"
k8s(
    "k8s-admission-webhooks-fail-closed", "novel",
    "When an admission webhook cannot be reached or times out, the API server must reject the "
    "request instead of letting it through. This applies to every validating and every mutating "
    "webhook configured in the cluster.",
    common=[
        whc(V, "cert-manager-webhook", [hook("webhook.cert-manager.io", "cert-manager-webhook",
                                              "cert-manager", "Fail", "/validate",
                                              [{"apiGroups": ["cert-manager.io"], "apiVersions": ["v1"],
                                                "operations": ["CREATE", "UPDATE"], "resources": ["*/*"]}])]),
        whc(V, "quota-check", [hook("quota.acme.example", "quota-check", "platform")]),
        whc(M, "defaulter", [hook("defaults.acme.example", "defaulter", "platform", "Fail", "/mutate",
                                  reinvocationPolicy="IfNeeded", timeoutSeconds=30)]),
        whc(V, "audit-labels", [hook("labels.acme.example", "audit-labels", "platform", "Fail",
                                     matchPolicy="Equivalent",
                                     namespaceSelector={"matchExpressions": [{
                                         "key": "policy.acme.example/ignore", "operator": "DoesNotExist"}]})]),
    ],
    bad=[
        whc(V, "policy-guard", [
            hook("images.policy-guard.acme.example", "policy-guard", "security", "Fail", "/images"),
            hook("ingress.policy-guard.acme.example", "policy-guard", "security", "Ignore", "/ingress",
                 [{"apiGroups": ["networking.k8s.io"], "apiVersions": ["v1"],
                   "operations": ["CREATE", "UPDATE"], "resources": ["ingresses"]}])]),
        whc(M, "sidecar-injector", [hook("sidecar-injector.mesh.acme.example", "sidecar-injector",
                                         "mesh-system", "Ignore", "/inject")]),
    ],
    fixed=[
        whc(V, "policy-guard", [
            hook("images.policy-guard.acme.example", "policy-guard", "security", "Fail", "/images"),
            hook("ingress.policy-guard.acme.example", "policy-guard", "security", "Fail", "/ingress",
                 [{"apiGroups": ["networking.k8s.io"], "apiVersions": ["v1"],
                   "operations": ["CREATE", "UPDATE"], "resources": ["ingresses"]}])]),
        whc(M, "sidecar-injector", [hook("sidecar-injector.mesh.acme.example", "sidecar-injector",
                                         "mesh-system", "Fail", "/inject")]),
    ],
    kyverno=kyv("webhooks-fail-closed", """  - name: failure-policy-fail
    match:
      any:
      - resources:
          kinds:
          - admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration
          - admissionregistration.k8s.io/v1/MutatingWebhookConfiguration
    validate:
      message: Admission webhooks must use failurePolicy Fail.
      pattern:
        webhooks:
        - =(failurePolicy): Fail
"""),
    rego=REGO_HEAD + """
violations contains [c.metadata.name, h.name] if {
	some c in input.items
	c.kind in {"ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"}
	some h in object.get(c, "webhooks", [])
	object.get(h, "failurePolicy", "Fail") != "Fail"
}
""",
    kinds=["validatingwebhookconfigurations", "mutatingwebhookconfigurations"],
    title="Admission webhooks use failurePolicy Fail",
    notes="Stated by effect. policy-guard: second webhook Ignore; sidecar-injector: mutating, "
          "Ignore. Near misses: failurePolicy omitted (admissionregistration.k8s.io/v1 defaults "
          "to Fail), explicit Fail with long timeouts, a namespaceSelector opt-out.",
    layout="kind",
)

# ============================================================ K14 hostAliases (novel)
HA = [{"ip": "10.40.1.17", "hostnames": ["billing.corp.example", "billing"]}]
k8s(
    "k8s-no-pod-hosts-file-entries", "novel",
    "No workload may add entries of its own to its containers' /etc/hosts file through the pod "
    "specification.",
    common=[
        namespace("infra"),
        workload("Deployment", "resolver-test", "infra", pspec(
            [ctr("dig", "docker.io/internetsystemsconsortium/bind9:9.20")],
            dnsPolicy="None",
            dnsConfig={"nameservers": ["10.96.0.10"], "searches": ["infra.svc.cluster.local"],
                       "options": [{"name": "ndots", "value": "2"}]})),
        workload("Deployment", "web", "infra", pspec([ctr("web", "ghcr.io/acme/infra-web:1.2.0")],
                                                    hostAliases=[]), replicas=2),
        workload("Deployment", "proxy", "infra", pspec(
            [ctr("squid", "docker.io/ubuntu/squid:6.6-24.04_beta")], hostNetwork=True,
            dnsPolicy="ClusterFirstWithHostNet")),
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": md("legacy-hosts", "infra"),
         "data": {"hosts": "10.40.1.17 billing.corp.example billing\n10.40.1.18 ldap.corp.example\n"}},
    ],
    bad=[
        workload("DaemonSet", "metrics-relay", "infra", pspec(
            [ctr("relay", "ghcr.io/acme/metrics-relay:2.0.0")],
            hostAliases=[{"ip": "10.40.2.5", "hostnames": ["metrics.corp.example"]}])),
        workload("Job", "migrate-once", "infra", pspec(
            [ctr("migrate", "ghcr.io/acme/migrate:4.4.0")], hostAliases=list(HA))),
        workload("Deployment", "billing-sync", "infra", pspec(
            [ctr("sync", "ghcr.io/acme/billing-sync:1.8.0")],
            init=[ctr("check", "docker.io/library/busybox:1.36",
                      command=["sh", "-c", "nslookup billing.corp.example"])],
            hostAliases=list(HA) + [{"ip": "10.40.1.18", "hostnames": ["ldap.corp.example"]}])),
    ],
    fixed=[
        workload("DaemonSet", "metrics-relay", "infra", pspec(
            [ctr("relay", "ghcr.io/acme/metrics-relay:2.0.0")])),
        workload("Job", "migrate-once", "infra", pspec([ctr("migrate", "ghcr.io/acme/migrate:4.4.0")])),
        workload("Deployment", "billing-sync", "infra", pspec(
            [ctr("sync", "ghcr.io/acme/billing-sync:1.8.0")],
            init=[ctr("check", "docker.io/library/busybox:1.36",
                      command=["sh", "-c", "nslookup billing.corp.example"])])),
    ],
    kyverno=kyv("disallow-host-aliases", """  - name: no-host-aliases
    match:
      any:
      - resources:
          kinds: [Pod]
    validate:
      message: hostAliases are not allowed.
      deny:
        conditions:
          any:
          - key: "{{ length(request.object.spec.hostAliases || `[]`) }}"
            operator: GreaterThan
            value: 0
"""),
    rego=REGO_HEAD + REGO_PODS + """
violations contains obj.metadata.name if {
	some [obj, spec] in pod_specs
	count(object.get(spec, "hostAliases", [])) > 0
}
""",
    kinds=POD_KINDS,
    title="No hostAliases",
    notes="Stated by effect. metrics-relay: DaemonSet; migrate-once: Job; billing-sync: two "
          "aliases. Near misses: dnsConfig/dnsPolicy None, an empty hostAliases list, a ConfigMap "
          "holding hosts lines that nothing mounts; proxy uses hostNetwork (other control).",
    style="export",
)

# ============================================================ K15 HPA minReplicas in prod (novel)
def hpa(name, ns, target, mn, mx, cpu=70, more=()):
    spec = {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": target}}
    if mn is not None:
        spec["minReplicas"] = mn
    spec["maxReplicas"] = mx
    spec["metrics"] = [{"type": "Resource", "resource": {"name": "cpu", "target": {
        "type": "Utilization", "averageUtilization": cpu}}}] + list(more)
    return {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
            "metadata": md(name, ns), "spec": spec}


k8s(
    "k8s-prod-autoscalers-keep-two-replicas", "novel",
    "In production namespaces (label env=prod) no HorizontalPodAutoscaler may allow its target "
    "to scale below two replicas, and none may wait until average CPU utilisation is above 80% "
    "of the requested CPU before it scales out.",
    common=[
        namespace("checkout", {"env": "prod"}), namespace("search", {"env": "prod"}),
        namespace("checkout-staging", {"env": "staging"}),
        workload("Deployment", "checkout", "checkout", pspec([ctr("checkout", "ghcr.io/acme/checkout:6.3.0")]),
                 replicas=1),
        workload("Deployment", "checkout", "checkout-staging",
                 pspec([ctr("checkout", "ghcr.io/acme/checkout:6.4.0-rc1")]), replicas=1),
        hpa("checkout", "checkout-staging", "checkout", 1, 3),
        hpa("indexer", "search", "indexer", 2, 2, cpu=80,
            more=[{"type": "Resource", "resource": {"name": "memory", "target": {
                "type": "Utilization", "averageUtilization": 90}}}]),
        hpa("reports", "checkout-staging", "reports", 2, 4, cpu=95),
        hpa("query", "search", "query", 4, 40, cpu=60),
    ],
    bad=[
        hpa("checkout", "checkout", "checkout", 1, 10),
        hpa("suggest", "search", "suggest", None, 6),
        hpa("recommend", "checkout", "recommend", 3, 12, cpu=95),
    ],
    fixed=[
        hpa("checkout", "checkout", "checkout", 2, 10),
        hpa("suggest", "search", "suggest", 3, 6),
        hpa("recommend", "checkout", "recommend", 3, 12, cpu=75),
    ],
    kyverno=kyv("prod-hpa-min-replicas", """  - name: min-two
    match:
      any:
      - resources:
          kinds: [HorizontalPodAutoscaler]
          namespaceSelector:
            matchLabels:
              env: prod
    validate:
      message: minReplicas must be at least 2 in env=prod namespaces.
      deny:
        conditions:
          any:
          - key: "{{ request.object.spec.minReplicas || `1` }}"
            operator: LessThan
            value: 2
          - key: "{{ max(request.object.spec.metrics[?type=='Resource' && resource.name=='cpu'].resource.target.averageUtilization || `[0]`) }}"
            operator: GreaterThan
            value: 80
"""),
    rego=REGO_HEAD + REGO_PODS + """
violations contains h.metadata.name if {
	some h in input.items
	h.kind == "HorizontalPodAutoscaler"
	ns_labels(obj_ns(h)).env == "prod"
	object.get(h.spec, "minReplicas", 1) < 2
}

violations contains h.metadata.name if {
	some h in input.items
	h.kind == "HorizontalPodAutoscaler"
	ns_labels(obj_ns(h)).env == "prod"
	some m in object.get(h.spec, "metrics", [])
	m.type == "Resource"
	m.resource.name == "cpu"
	m.resource.target.averageUtilization > 80
}
""",
    kinds=["namespaces", "horizontalpodautoscalers"],
    title="HPA minReplicas >= 2 in env=prod namespaces",
    notes="checkout/checkout: minReplicas 1; search/suggest: minReplicas omitted (defaults to 1); "
          "checkout/recommend: CPU target 95%. Near misses: staging HPAs with min 1 or CPU 95% "
          "(out of scope), min 2 = max 2 with CPU exactly 80% and a memory target of 90% (not "
          "CPU), a Deployment with replicas 1 (not an autoscaler).",
    style="export",
)


# ============================================================ RHEL 9
def rhel(sid, half, requirement, violating_resources, common, bad, fixed, playbook, rego,
         cis_id=None, title=None, notes="", attrs=None):
    add(sid=sid, half=half, platform="rhel9", requirement=requirement,
        violating_resources=violating_resources, common=common, bad=bad, fixed=fixed,
        playbook=playbook, rego=rego, cis_id=cis_id, title=title, notes=notes, attrs=attrs)


def playbook(name, tasks, facts):
    """tasks: list of (register, shell script); facts: json key -> register name."""
    out = [f"- name: {name}", "  hosts: rhel9_servers", "  gather_facts: false",
           "  become: false", "  tasks:"]
    for reg, script in tasks:
        out += [f"    - name: collect {reg}", "      ansible.builtin.shell: |"]
        out += ["        " + ln for ln in script.strip("\n").split("\n")]
        out += [f"      register: {reg}", "      changed_when: false"]
    content = ", ".join(f'"{k}": {{{{ {v}.stdout_lines | to_json }}}}' for k, v in facts.items())
    out += ["    - name: save collected data", "      ansible.builtin.copy:",
            "        content: '{" + content + "}'",
            '        dest: "{{ playbook_dir }}/collected_data.json"',
            "        mode: \"0644\"", "      delegate_to: localhost"]
    return "\n".join(out) + "\n"


SSHD_MAIN = """#	$OpenBSD: sshd_config,v 1.104 2021/07/02 05:11:21 dtucker Exp $

# This is the sshd server system-wide configuration file.  See
# sshd_config(5) for more information.

# To modify the system-wide sshd configuration, create a  *.conf  file under
#  /etc/ssh/sshd_config.d/  which will be automatically included below
Include /etc/ssh/sshd_config.d/*.conf

#Port 22
#AddressFamily any
#ListenAddress 0.0.0.0
#ListenAddress ::

#HostKey /etc/ssh/ssh_host_rsa_key
#HostKey /etc/ssh/ssh_host_ecdsa_key
#HostKey /etc/ssh/ssh_host_ed25519_key

# Logging
#SyslogFacility AUTH
#LogLevel INFO

# Authentication:

#LoginGraceTime 2m
{PRL}
#StrictModes yes
#MaxAuthTries 6
#MaxSessions 10

#PubkeyAuthentication yes

AuthorizedKeysFile	.ssh/authorized_keys

#PasswordAuthentication yes
#PermitEmptyPasswords no

# GSSAPI options
#GSSAPIAuthentication no
#GSSAPICleanupCredentials yes

#UsePAM no

#AllowAgentForwarding yes
#AllowTcpForwarding yes
#GatewayPorts no
#X11Forwarding no
#PrintMotd yes
#ClientAliveInterval 0
#ClientAliveCountMax 3
#UseDNS no

# override default of no subsystems
Subsystem	sftp	/usr/libexec/openssh/sftp-server
"""

REDHAT_CONF = """# This system is following system-wide crypto policy. The changes to
# crypto properties (Ciphers, MACs, ...) will not have any effect in
# this or following included files. To override some configuration option,
# write it before this block or in a file in this directory with a lower
# alphanumeric prefix.
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

# ---------------------------------------------------------------- R1 PermitRootLogin (catalogue)
rhel(
    "rhel9-ssh-root-login-disabled", "catalogue",
    "Ensure SSH root login is disabled: the SSH daemon's effective PermitRootLogin setting must "
    "be no.",
    ["sshd//PermitRootLogin"],
    common={"/etc/ssh/sshd_config.d/50-redhat.conf": REDHAT_CONF,
            "/etc/ssh/sshd_config.d/40-ciphers.conf": "# managed by ansible\nClientAliveInterval 300\nClientAliveCountMax 0\n"},
    bad={"/etc/ssh/sshd_config": SSHD_MAIN.replace("{PRL}", "PermitRootLogin no"),
         "/etc/ssh/sshd_config.d/01-permitrootlogin.conf":
             "# Added by cloud-init to allow the provisioning user in\n   permitrootlogin   Yes\n"},
    fixed={"/etc/ssh/sshd_config": SSHD_MAIN.replace("{PRL}", "#PermitRootLogin prohibit-password"),
           "/etc/ssh/sshd_config.d/01-permitrootlogin.conf":
               "# Added by cloud-init; hardened by the platform team\n#PermitRootLogin yes\nPermitRootLogin no\n"},
    playbook=playbook("Collect effective sshd PermitRootLogin", [
        ("prl", """for f in /etc/ssh/sshd_config.d/*.conf /etc/ssh/sshd_config; do
  [ -f "$f" ] && grep -iE '^[[:space:]]*permitrootlogin[[:space:]]' "$f" || true
done | head -n 1 | awk '{print tolower($2)}'""")], {"permitrootlogin": "prl"}),
    rego="""package check

import rego.v1

default result := false

result if {
	count(input.permitrootlogin) == 1
	input.permitrootlogin[0] == "no"
}
""",
    cis_id="5.1.20", title="SSH PermitRootLogin no",
    notes="Violating: the main file says 'PermitRootLogin no' further down, but the Include of "
          "sshd_config.d/*.conf comes first and 01-permitrootlogin.conf sets '   permitrootlogin   "
          "Yes' (indented, odd case): first value wins, so root login is allowed. Compliant: "
          "drop-in has a commented yes and an active no; 50-redhat.conf sets X11Forwarding yes "
          "(other control).",
)

# ---------------------------------------------------------------- R2 PASS_MAX_DAYS (catalogue)
LOGIN_DEFS = """#
# Please note that the parameters in this configuration file control the
# behavior of the tools from the shadow-utils component. None of these
# tools uses the PAM mechanism, and the utilities that use PAM (such as the
# passwd command) should therefore be configured elsewhere. Refer to
# /etc/pam.d/system-auth for more information.
#

MAIL_DIR	/var/spool/mail
#MAIL_FILE	.mail

# Password aging controls:
#
#	PASS_MAX_DAYS	Maximum number of days a password may be used.
#	PASS_MIN_DAYS	Minimum number of days allowed between password changes.
#	PASS_MIN_LEN	Minimum acceptable password length.
#	PASS_WARN_AGE	Number of days warning given before a password expires.
#
{MAX}
PASS_MIN_DAYS	{MIN}
PASS_WARN_AGE	7

UID_MIN                  1000
UID_MAX                 60000
SYS_UID_MIN               201
SYS_UID_MAX               999
GID_MIN                  1000
GID_MAX                 60000
SYS_GID_MIN               201
SYS_GID_MAX               999

CREATE_HOME	yes
UMASK		022
USERGROUPS_ENAB yes
ENCRYPT_METHOD SHA512
"""
rhel(
    "rhel9-password-max-age", "catalogue",
    "Ensure password expiration is 365 days or less for newly created accounts (the "
    "PASS_MAX_DAYS default in /etc/login.defs).",
    ["login.defs//PASS_MAX_DAYS"],
    common={"/etc/default/useradd": "GROUP=100\nHOME=/home\nINACTIVE=-1\nEXPIRE=\nSHELL=/bin/bash\nSKEL=/etc/skel\nCREATE_MAIL_SPOOL=yes\n"},
    bad={"/etc/login.defs": LOGIN_DEFS.replace("{MAX}", "#PASS_MAX_DAYS\t90\nPASS_MAX_DAYS\t99999").replace("{MIN}", "1")},
    fixed={"/etc/login.defs": LOGIN_DEFS.replace("{MAX}", "#PASS_MAX_DAYS\t99999\nPASS_MAX_DAYS   365").replace("{MIN}", "0")},
    playbook=playbook("Collect PASS_MAX_DAYS", [
        ("maxdays", """grep -E '^[[:space:]]*PASS_MAX_DAYS[[:space:]]' /etc/login.defs | tail -n 1 | awk '{print $2}'""")],
        {"pass_max_days": "maxdays"}),
    rego="""package check

import rego.v1

default result := false

result if {
	count(input.pass_max_days) == 1
	n := to_number(input.pass_max_days[0])
	n > 0
	n <= 365
}
""",
    cis_id="5.4.1.1", title="PASS_MAX_DAYS <= 365",
    notes="Violating: a commented '#PASS_MAX_DAYS 90' above the active 99999. Compliant: exactly "
          "365 (boundary) after a commented 99999; PASS_MIN_DAYS 0 violates another control.",
)

# ---------------------------------------------------------------- R3 ip_forward (catalogue)
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
{X}"""
rhel(
    "rhel9-ipv4-forwarding-disabled", "catalogue",
    "Ensure IP forwarding is disabled: the persistent kernel parameter configuration must not "
    "turn on IPv4 packet forwarding (net.ipv4.ip_forward) in any sysctl file.",
    ["sysctl//net.ipv4.ip_forward"],
    common={"/etc/sysctl.d/50-coredump.conf": "kernel.core_pattern=|/usr/lib/systemd/systemd-coredump %P %u %g %s %t %c %h\n",
            "/usr/lib/sysctl.d/50-default.conf": "kernel.sysrq = 16\nkernel.core_uses_pid = 1\nnet.ipv4.conf.default.rp_filter = 2\nnet.ipv4.conf.all.rp_filter = 2\nfs.protected_hardlinks = 1\nfs.protected_symlinks = 1\n"},
    bad={"/etc/sysctl.conf": SYSCTL_CONF.replace("{X}", "#net.ipv4.ip_forward = 1\nnet.ipv4.ip_forward = 0\n"),
         "/etc/sysctl.d/99-kubernetes-cri.conf": "net.bridge.bridge-nf-call-iptables  = 1\nnet.bridge.bridge-nf-call-ip6tables = 1\nnet.ipv4.ip_forward                 = 1\n",
         "/etc/sysctl.d/60-hardening.conf": "net.ipv4.conf.all.send_redirects = 0\nnet.ipv4.conf.default.send_redirects = 0\n"},
    fixed={"/etc/sysctl.conf": SYSCTL_CONF.replace("{X}", ""),
           "/etc/sysctl.d/99-kubernetes-cri.conf": "net.bridge.bridge-nf-call-iptables  = 1\nnet.bridge.bridge-nf-call-ip6tables = 1\n# net.ipv4.ip_forward = 1   (disabled by CIS 3.3.1)\nnet.ipv4.ip_forward=0\n",
           "/etc/sysctl.d/60-hardening.conf": "net.ipv4.conf.all.send_redirects = 1\nnet.ipv4.conf.default.send_redirects = 0\nnet.ipv6.conf.all.forwarding = 0\n"},
    playbook=playbook("Collect ip_forward settings", [
        ("fwd", """for f in /usr/lib/sysctl.d/*.conf /run/sysctl.d/*.conf /etc/sysctl.d/*.conf /etc/sysctl.conf; do
  [ -f "$f" ] && grep -hE '^[[:space:]]*net[./]ipv4[./]ip_forward[[:space:]]*=' "$f" | tr -d ' \\t' | cut -d= -f2 || true
done""")], {"ip_forward": "fwd"}),
    rego="""package check

import rego.v1

default result := true

result := false if {
	some v in input.ip_forward
	v != "0"
}
""",
    cis_id="3.3.1", title="net.ipv4.ip_forward not enabled in any sysctl file",
    notes="Violating: /etc/sysctl.conf sets 0 (with a commented 1) but "
          "/etc/sysctl.d/99-kubernetes-cri.conf turns it on with padded spacing. Compliant: the "
          "drop-in has a commented 1 and an active '=0' without spaces; send_redirects = 1 "
          "violates another control.",
)

# ---------------------------------------------------------------- R4 DefaultLimitCORE (novel)
SYSTEM_CONF = """#  This file is part of systemd.
#
#  systemd is free software; you can redistribute it and/or modify it under the
#  terms of the GNU Lesser General Public License as published by the Free
#  Software Foundation; either version 2.1 of the License, or (at your option)
#  any later version.
#
# Entries in this file show the compile time defaults. Local configuration
# should be created by either modifying this file, or by creating "drop-ins" in
# the system.conf.d/ subdirectory. The latter is generally recommended.
# Defaults can be restored by simply deleting this file and all drop-ins.
#
# See systemd-system.conf(5) for details.

[Manager]
#LogLevel=info
#LogTarget=journal-or-kmsg
#CrashChangeVT=no
#CrashShell=no
#CrashReboot=no
#DefaultTimeoutStartSec=90s
#DefaultTimeoutStopSec=90s
#DefaultLimitCPU=
#DefaultLimitFSIZE=
#DefaultLimitDATA=
#DefaultLimitSTACK=
DefaultLimitCORE=0
#DefaultLimitRSS=
#DefaultLimitNOFILE=1024:524288
#DefaultLimitAS=
#DefaultLimitNPROC=
#DefaultLimitMEMLOCK=8M
"""
rhel(
    "rhel9-systemd-services-no-core-dumps", "novel",
    "Services started by systemd must not be able to write core files: the manager's default "
    "core-file size limit for services has to be zero, taking drop-in configuration into "
    "account.",
    ["systemd//DefaultLimitCORE"],
    common={"/etc/systemd/system.conf": SYSTEM_CONF,
            "/etc/systemd/coredump.conf": "[Coredump]\n#Storage=external\n#ProcessSizeMax=2G\n"},
    bad={"/etc/systemd/system.conf.d/10-app-debug.conf":
             "# Temporary: enable core dumps for the JVM crash investigation (INC-4821)\n[Manager]\nDefaultLimitNOFILE=65536\n DefaultLimitCORE = infinity\n",
         "/etc/systemd/system.conf.d/05-base.conf": "[Manager]\nDefaultLimitCORE=0\n"},
    fixed={"/etc/systemd/system.conf.d/10-app-debug.conf":
               "# INC-4821 closed; core dumps disabled again\n[Manager]\nDefaultLimitNOFILE=65536\n#DefaultLimitCORE=infinity\n",
           "/etc/systemd/system.conf.d/05-base.conf": "[Manager]\nDefaultLimitCORE=0:0\n"},
    playbook=playbook("Collect systemd DefaultLimitCORE", [
        ("core", """for f in /etc/systemd/system.conf /usr/lib/systemd/system.conf.d/*.conf /etc/systemd/system.conf.d/*.conf; do
  [ -f "$f" ] && grep -hE '^[[:space:]]*DefaultLimitCORE[[:space:]]*=' "$f" | tr -d ' \\t' | cut -d= -f2 || true
done | tail -n 1""")], {"default_limit_core": "core"}),
    rego="""package check

import rego.v1

default result := false

result if {
	count(input.default_limit_core) == 1
	input.default_limit_core[0] in {"0", "0:0"}
}
""",
    title="systemd DefaultLimitCORE=0 after drop-ins",
    notes="Violating: system.conf and 05-base.conf set 0, but the later drop-in 10-app-debug.conf "
          "sets ' DefaultLimitCORE = infinity' (leading space, spaces around =); drop-ins are "
          "applied in lexical order after system.conf, so the last wins. Compliant: 0:0 in "
          "05-base.conf, the infinity line commented. Hard limit infinity in '0:infinity' would "
          "still be a zero soft limit, but no host here uses that form.",
)

# ---------------------------------------------------------------- R5 maxlogins (novel)
LIMITS_CONF = """# /etc/security/limits.conf
#
#This file sets the resource limits for the users logged in via PAM.
#It does not affect resource limits of the system services.
#
#Also note that configuration files in /etc/security/limits.d directory,
#which are read in alphabetical order, override the settings in this
#file in case the domain is the same or more specific.
#
#<domain>        <type>  <item>  <value>
#
#*               soft    core            0
#*               hard    rss             10000
#@student        hard    nproc           20
#@faculty        soft    nproc           20
#@faculty        hard    nproc           50
#ftp             hard    nproc           0
#@student        -       maxlogins       4
{X}
# End of file
"""
rhel(
    "rhel9-concurrent-session-limit", "novel",
    "Limit every account to at most ten concurrent login sessions: a hard maxlogins limit of 10 "
    "or fewer must apply to all users (domain *), and no limits file may raise it above ten.",
    ["limits//maxlogins"],
    common={"/etc/security/limits.d/20-nproc.conf": "# Default limit for number of user's processes to prevent\n# accidental fork bombs.\n# See rhbz #432903 for reasoning.\n\n*          soft    nproc     4096\nroot       soft    nproc     unlimited\n"},
    bad={"/etc/security/limits.conf": LIMITS_CONF.replace("{X}", "*               hard    maxlogins       10\n"),
         "/etc/security/limits.d/90-batch-users.conf": "# batch accounts open many parallel ssh sessions\n*\thard\tmaxlogins\t50\n@batch  hard  nofile  65536\n"},
    fixed={"/etc/security/limits.conf": LIMITS_CONF.replace("{X}", "*               hard    maxlogins       10\n"),
           "/etc/security/limits.d/90-batch-users.conf": "# batch accounts open many parallel ssh sessions\n#*\thard\tmaxlogins\t50\n@batch  hard  nofile  65536\n@batch  hard  maxlogins  8\n*   soft   core   unlimited\n"},
    playbook=playbook("Collect maxlogins", [
        ("ml", """for f in /etc/security/limits.conf /etc/security/limits.d/*.conf; do
  [ -f "$f" ] && awk '$1 !~ /^#/ && tolower($3) == "maxlogins" {print $1" "$2" "$4}' "$f" || true
done""")], {"maxlogins": "ml"}),
    rego="""package check

import rego.v1

entries := [e | some line in input.maxlogins; e := split(line, " ")]

star_hard contains to_number(e[2]) if {
	some e in entries
	e[0] == "*"
	e[1] in {"hard", "-"}
}

default result := false

result if {
	count(star_hard) > 0
	every n in star_hard { n <= 10 }
	every e in entries { to_number(e[2]) <= 10 }
}
""",
    cis_id=None, title="maxlogins hard <= 10 for *",
    notes="STIG-style (RHEL-09-412040). Violating: limits.conf sets '* hard maxlogins 10' but "
          "limits.d/90-batch-users.conf (tab-separated) raises it to 50. Compliant: that line "
          "commented, a group limit of 8 (stricter, fine); '* soft core unlimited' is another "
          "control.",
)


# ============================================================ writer
K8S_CLASSES = ["kyverno", "kubectl-opa", "opa-static"]
PLURAL = {"Namespace": "namespaces", "ServiceAccount": "serviceaccounts"}


def q(s):
    return json.dumps(s)


def write(path, text, mode=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="\n") as f:
        f.write(text)
    if mode:
        os.chmod(path, mode)


def exported(o):
    """Decorate an object the way `kubectl get -o yaml` returns it (metadata noise, status)."""
    import copy
    import hashlib
    o = copy.deepcopy(o)
    m = o["metadata"]
    key = f"{o['kind']}/{m.get('namespace', '')}/{m['name']}"
    h = hashlib.sha1(key.encode()).hexdigest()
    body = json.dumps(o, sort_keys=True)
    rv = str(100000 + int(hashlib.sha1(body.encode()).hexdigest()[:6], 16) % 900000)
    meta = {"creationTimestamp": f"2026-10-{1 + int(h[0:2], 16) % 28:02d}T0{int(h[2], 16) % 10}:1{int(h[3], 16) % 10}:0{int(h[4], 16) % 10}Z"}
    if o["kind"] not in ("Namespace",) and "generation" not in m:
        meta["generation"] = 1 + int(h[5], 16) % 7
    meta.update(m)
    if o["kind"] in ("Deployment", "StatefulSet", "DaemonSet", "CronJob", "Job"):
        lab = dict(meta.get("labels", {}))
        lab.setdefault("app.kubernetes.io/managed-by", "Helm")
        lab.setdefault("helm.sh/chart", meta["name"] + "-" + str(1 + int(h[6], 16) % 4) + ".0." + str(int(h[7], 16)))
        meta["labels"] = lab
        ann = dict(meta.get("annotations", {}))
        ann.setdefault("meta.helm.sh/release-name", meta["name"])
        ann.setdefault("meta.helm.sh/release-namespace", meta.get("namespace", "default"))
        if o["kind"] == "Deployment":
            ann.setdefault("deployment.kubernetes.io/revision", str(1 + int(h[8], 16) % 9))
        meta["annotations"] = ann
    meta["resourceVersion"] = rv
    meta["uid"] = f"{h[:8]}-{h[8:12]}-4{h[13:16]}-8{h[17:20]}-{h[20:32]}"
    o["metadata"] = meta
    r = o.get("spec", {}).get("replicas")
    if o["kind"] == "Deployment":
        o["status"] = {"availableReplicas": r, "observedGeneration": meta["generation"],
                       "readyReplicas": r, "replicas": r, "updatedReplicas": r}
    elif o["kind"] == "StatefulSet":
        o["status"] = {"availableReplicas": r, "currentReplicas": r, "readyReplicas": r,
                       "replicas": r, "observedGeneration": meta["generation"]}
    elif o["kind"] == "Namespace":
        o["spec"] = {"finalizers": ["kubernetes"]}
        o["status"] = {"phase": "Active"}
    return o


def k8s_files(objs, layout):
    files = {}
    for o in objs:
        ns = o["metadata"].get("namespace")
        if o["kind"] == "Namespace":
            fname = "namespaces.yaml"
        elif layout == "kind":
            fname = o["kind"].lower() + "s.yaml"
        elif ns:
            fname = ns + ".yaml"
        else:
            fname = "cluster.yaml"
        files.setdefault(fname, []).append(o)
    for docs in files.values():
        docs.sort(key=lambda o: (o["kind"], o["metadata"].get("namespace", ""), o["metadata"]["name"]))
    return files


def scenario_yaml(s, truth, classes):
    lines = [f"id: {s['sid']}"]
    if s.get("cis_id"):
        lines.append(f"cis_id: {q(s['cis_id'])}")
    lines.append(f"platform: {s['platform']}")
    if s.get("title"):
        lines.append(f"title: {q(s['title'])}")
    lines.append(f"requirement: {q(s['requirement'])}")
    lines.append("classes: [" + ", ".join(classes) + "]")
    lines.append("violating_resources:")
    lines += [f"  - {q(t)}" for t in truth]
    lines.append(f"notes: {q('[' + s['half'] + '] ' + s['notes'])}")
    return "\n".join(lines) + "\n"


def main(out):
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    for s in SCENARIOS:
        d = os.path.join(out, s["sid"])
        if s["platform"] == "kubernetes":
            truth = [ref(o) for o in s["bad"]]
            write(os.path.join(d, "scenario.yaml"), scenario_yaml(s, truth, K8S_CLASSES))
            for env, objs in (("violating", s["common"] + s["bad"]),
                              ("compliant", s["common"] + s["fixed"])):
                if s["style"] == "export":
                    objs = [exported(o) for o in objs]
                for fname, docs in sorted(k8s_files(objs, s["layout"]).items()):
                    write(os.path.join(d, env, fname), yaml_docs(docs))
            write(os.path.join(d, "solution", "kyverno-policy.yaml"), s["kyverno"])
            write(os.path.join(d, "solution", "policy.rego"), s["rego"])
            write(os.path.join(d, "solution", "fetcher.sh"), fetcher_sh(s["kinds"]), 0o755)
            write(os.path.join(d, "solution", "fetch.sh"), FETCH_SH, 0o755)
        else:
            truth = s["violating_resources"]
            write(os.path.join(d, "scenario.yaml"), scenario_yaml(s, truth, ["rhel9-ansible-opa"]))
            for env, files in (("violating", {**s["common"], **s["bad"]}),
                               ("compliant", {**s["common"], **s["fixed"]})):
                for p, text in sorted(files.items()):
                    write(os.path.join(d, env, "host", p.lstrip("/")), text)
                if s.get("attrs"):
                    write(os.path.join(d, env, "host-attributes.yaml"), s["attrs"][env])
            write(os.path.join(d, "solution", "playbook.yml"), s["playbook"])
            write(os.path.join(d, "solution", "policy.rego"), s["rego"])


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python gen.py OUT")
    main(sys.argv[1])
