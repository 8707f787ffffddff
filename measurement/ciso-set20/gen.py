#!/usr/bin/env python3
"""ciso-set20: 14 held-out CISO scenarios (11 Kubernetes x 3 classes, 3 RHEL 9).

Usage: python3 gen.py OUT   -- writes OUT/<scenario>/{scenario.yaml, violating/, compliant/, solution/}
Stdlib only, deterministic. Ground truth (violating_resources) is fixed below, by construction.
"""
import json
import os
import re
import sys

K3 = ["kyverno", "kubectl-opa", "opa-static"]
RH = ["rhel9-ansible-opa"]
SCENARIOS = []

# ---------------------------------------------------------------------------
# a tiny block-style YAML emitter (stdlib only)
# ---------------------------------------------------------------------------
_PLAIN = re.compile(r"^[A-Za-z_/][A-Za-z0-9_./:@-]*$")
_RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}


def scalar(v):
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if isinstance(v, int):
        return str(v)
    s = str(v)
    if _PLAIN.match(s) and s.lower() not in _RESERVED and not s.endswith(":"):
        return s
    return json.dumps(s)


def emit(v, ind=0):
    pad = " " * ind
    out = []
    if isinstance(v, dict):
        if not v:
            return pad + "{}\n"
        for k, x in v.items():
            if isinstance(x, dict) and x:
                out.append(f"{pad}{k}:\n" + emit(x, ind + 2))
            elif isinstance(x, list) and x:
                out.append(f"{pad}{k}:\n" + emit(x, ind + 2))
            elif isinstance(x, dict):
                out.append(f"{pad}{k}: {{}}\n")
            elif isinstance(x, list):
                out.append(f"{pad}{k}: []\n")
            else:
                out.append(f"{pad}{k}: {scalar(x)}\n")
        return "".join(out)
    if isinstance(v, list):
        for x in v:
            if isinstance(x, (dict, list)) and x:
                body = emit(x, ind + 2)
                out.append(pad + "- " + body[ind + 2:])
            elif isinstance(x, dict):
                out.append(pad + "- {}\n")
            elif isinstance(x, list):
                out.append(pad + "- []\n")
            else:
                out.append(f"{pad}- {scalar(x)}\n")
        return "".join(out)
    return pad + scalar(v) + "\n"


def docs(*objs):
    return "---\n".join(emit(o) for o in objs)


# ---------------------------------------------------------------------------
# object helpers
# ---------------------------------------------------------------------------
def ns(name, labels=None):
    md = {"name": name}
    if labels:
        md["labels"] = dict(labels)
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": md}


def c(name, image, **kw):
    d = {"name": name, "image": image}
    d.update(kw)
    return d


def pod_spec(containers, init=None, eph=None, **kw):
    s = {}
    for k in ("serviceAccountName", "securityContext", "hostPID", "hostIPC", "hostNetwork",
              "shareProcessNamespace", "restartPolicy"):
        if k in kw:
            s[k] = kw.pop(k)
    if init:
        s["initContainers"] = init
    s["containers"] = containers
    if eph:
        s["ephemeralContainers"] = eph
    s.update(kw)
    return s


APPS = {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet"}


def wl(kind, namespace, name, spec, labels=None, replicas=None, extra=None, annotations=None):
    md = {"name": name, "namespace": namespace}
    lab = {"app": name}
    if labels:
        lab.update(labels)
    md["labels"] = lab
    if annotations:
        md["annotations"] = annotations
    spec = dict(spec)
    if kind == "Pod":
        return {"apiVersion": "v1", "kind": "Pod", "metadata": md, "spec": spec}
    tmpl = {"metadata": {"labels": {"app": name}}, "spec": spec}
    if kind in APPS:
        s = {}
        if kind != "DaemonSet":
            s["replicas"] = 2 if replicas is None else replicas
        if kind == "StatefulSet":
            s["serviceName"] = name
        s["selector"] = {"matchLabels": {"app": name}}
        s["template"] = tmpl
        if extra:
            s.update(extra)
        return {"apiVersion": "apps/v1", "kind": kind, "metadata": md, "spec": s}
    spec.setdefault("restartPolicy", "Never" if kind == "Job" else "OnFailure")
    tmpl = {"spec": spec}
    if kind == "Job":
        s = {"backoffLimit": 2, "template": tmpl}
        if extra:
            s.update(extra)
        return {"apiVersion": "batch/v1", "kind": "Job", "metadata": md, "spec": s}
    if kind == "CronJob":
        s = {"schedule": "15 2 * * *"}
        if extra:
            s.update(extra)
        s["jobTemplate"] = {"spec": {"template": tmpl}}
        return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": md, "spec": s}
    raise ValueError(kind)


def svc(namespace, name, port=80, target=8080, **extra):
    s = {"selector": {"app": name}, "ports": [{"port": port, "targetPort": target}]}
    s.update(extra)
    return {"apiVersion": "v1", "kind": "Service", "metadata": {"name": name, "namespace": namespace},
            "spec": s}


R = "registry.corp.example"


def scen(sid, half, requirement, classes, violating, notes, vfiles, cfiles, solution,
         cis_id=None, title=None, platform="kubernetes", vattrs=None, cattrs=None):
    SCENARIOS.append(dict(id=sid, half=half, requirement=requirement, classes=classes,
                          violating=violating, notes=notes, vfiles=vfiles, cfiles=cfiles,
                          solution=solution, cis_id=cis_id, title=title, platform=platform,
                          vattrs=vattrs, cattrs=cattrs))


# ---------------------------------------------------------------------------
# reference answers: shared pieces
# ---------------------------------------------------------------------------
REGO_LIB = r'''
items := object.get(input, "items", [])

controllers := {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "ReplicationController"}

pod_spec(o) := o.spec if o.kind == "Pod"

pod_spec(o) := o.spec.template.spec if o.kind in controllers

pod_spec(o) := o.spec.jobTemplate.spec.template.spec if o.kind == "CronJob"

all_containers(ps) := array.concat(
	array.concat(object.get(ps, "containers", []), object.get(ps, "initContainers", [])),
	object.get(ps, "ephemeralContainers", []),
)

ns_of(o) := object.get(o.metadata, "namespace", "")

ns_labels(name) := object.get(n.metadata, "labels", {}) if {
	some n in items
	n.kind == "Namespace"
	n.metadata.name == name
}

ns_labels(name) := {} if {
	not any_ns(name)
}

any_ns(name) if {
	some n in items
	n.kind == "Namespace"
	n.metadata.name == name
}
'''


def rego(body):
    return "package check\n\nimport rego.v1\n\ndefault result := true\n\nresult := false if {\n\tcount(violations) > 0\n}\n" + REGO_LIB + "\n" + body.strip() + "\n"


POD_KINDS = "pods,deployments,statefulsets,daemonsets,replicasets,jobs,cronjobs"


def fetcher(kinds):
    return ("#!/bin/bash\nset -euo pipefail\n"
            f"kubectl get namespaces,{kinds} -A -o json > collected_data.json\n")


FETCH_STATIC = r'''#!/bin/bash
set -euo pipefail
python3 - <<'PY'
import glob, json, os, yaml
items = []
for path in sorted(glob.glob("static-resources/**/*", recursive=True)):
    if not path.endswith((".yaml", ".yml", ".json")) or not os.path.isfile(path):
        continue
    with open(path) as fh:
        for doc in yaml.safe_load_all(fh):
            if not isinstance(doc, dict):
                continue
            if doc.get("kind", "").endswith("List") and isinstance(doc.get("items"), list):
                items.extend(d for d in doc["items"] if isinstance(d, dict))
            else:
                items.append(doc)
with open("collected_data.json", "w") as fh:
    json.dump({"apiVersion": "v1", "kind": "List", "items": items}, fh)
PY
'''

SHAPES = [
    ("pod", ["Pod"], "request.object.spec"),
    ("controllers", ["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job"],
     "request.object.spec.template.spec"),
    ("cronjob", ["CronJob"], "request.object.spec.jobTemplate.spec.template.spec"),
]
CLISTS = ["containers", "initContainers", "ephemeralContainers"]


def count_containers(S, flt):
    """JMESPath: number of containers (all three lists) matching filter flt."""
    parts = [f"length({S}.{L}[?{flt}] || `[]`)" for L in CLISTS]
    return "sum([" + ", ".join(parts) + "])"


def kyv_policy(name, rules, annotations=None):
    md = {"name": name}
    if annotations:
        md["annotations"] = annotations
    return emit({"apiVersion": "kyverno.io/v1", "kind": "ClusterPolicy", "metadata": md,
                 "spec": {"validationFailureAction": "Audit", "background": True, "rules": rules}})


def kyv_rule(name, kinds, message, conditions, exclude_ns=None, match_extra=None, exclude=None,
             cond_mode="any"):
    res = {"kinds": list(kinds)}
    if match_extra:
        res.update(match_extra)
    r = {"name": name, "match": {"any": [{"resources": res}]}}
    ex = []
    if exclude_ns:
        ex.append({"resources": {"namespaces": list(exclude_ns)}})
    if exclude:
        ex.extend(exclude)
    if ex:
        r["exclude"] = {"any": ex}
    r["validate"] = {"message": message, "deny": {"conditions": {cond_mode: conditions}}}
    return r


def gt0(key):
    return {"key": "{{ " + key + " }}", "operator": "GreaterThan", "value": 0}


def pod_rules(prefix, message, cond_fn, exclude_ns=None):
    rules = []
    for shape, kinds, S in SHAPES:
        rules.append(kyv_rule(f"{prefix}-{shape}", kinds, message, cond_fn(S), exclude_ns=exclude_ns))
    return rules


def k8s_solution(kyverno, rego_body, kinds=POD_KINDS):
    return {"kyverno-policy.yaml": kyverno, "policy.rego": rego(rego_body),
            "fetcher.sh": fetcher(kinds), "fetch.sh": FETCH_STATIC}


# ===========================================================================
# C1 catalogue: host PID / IPC namespaces (CIS 5.2.3, 5.2.4; PSS baseline)
# ===========================================================================
def c1():
    nss = docs(ns("observability"), ns("ops"), ns("support"), ns("shop"))
    v = {
        "00-namespaces.yaml": nss,
        "observability.yaml": docs(
            wl("DaemonSet", "observability", "node-profiler", pod_spec(
                [c("profiler", f"{R}/obs/parca-agent:0.31.1", args=["--node=$(NODE_NAME)"]),
                 c("shipper", f"{R}/obs/vector:0.39.0")], hostPID=True)),
            wl("Deployment", "observability", "grafana", pod_spec(
                [c("grafana", f"{R}/obs/grafana:11.1.0", ports=[{"containerPort": 3000}])]))),
        "ops.yaml": docs(
            wl("CronJob", "ops", "shm-janitor", pod_spec(
                [c("janitor", f"{R}/ops/ipcs-cleaner:1.4", command=["/bin/ipc-clean", "--older-than=6h"])],
                hostIPC=True), extra={"schedule": "*/30 * * * *"}),
            wl("Job", "ops", "db-vacuum-0611", pod_spec(
                [c("vacuum", f"{R}/ops/pg-tools:16.3")]))),
        "support.yaml": docs(
            wl("Pod", "support", "node-shell-7xq2p", pod_spec(
                [c("shell", f"{R}/tools/netshoot:0.13", command=["sleep", "3600"])],
                hostPID=True, hostIPC=True))),
        "shop.yaml": docs(
            wl("StatefulSet", "shop", "redis", pod_spec(
                [c("redis", f"{R}/shop/redis:7.2.5")], shareProcessNamespace=True)),
            svc("shop", "redis", 6379, 6379)),
    }
    cmp_ = {
        "00-namespaces.yaml": nss,
        "observability.yaml": docs(
            wl("DaemonSet", "observability", "node-profiler", pod_spec(
                [c("profiler", f"{R}/obs/parca-agent:0.31.1", args=["--node=$(NODE_NAME)"],
                   env=[{"name": "HOST_PID", "value": "true"}]),
                 c("shipper", f"{R}/obs/vector:0.39.0")], hostPID=False, hostNetwork=True)),
            wl("Deployment", "observability", "grafana", pod_spec(
                [c("grafana", f"{R}/obs/grafana:11.1.0", ports=[{"containerPort": 3000}],
                   securityContext={"privileged": True})]))),
        "ops.yaml": docs(
            wl("CronJob", "ops", "shm-janitor", pod_spec(
                [c("janitor", f"{R}/ops/ipcs-cleaner:1.4", command=["/bin/ipc-clean", "--older-than=6h"])],
                hostIPC=False, shareProcessNamespace=True), extra={"schedule": "*/30 * * * *"}),
            wl("Job", "ops", "db-vacuum-0611", pod_spec(
                [c("vacuum", f"{R}/ops/pg-tools:16.3")]))),
        "support.yaml": docs(
            wl("Pod", "support", "node-shell-7xq2p", pod_spec(
                [c("shell", f"{R}/tools/netshoot:0.13", command=["sleep", "3600"],
                   securityContext={"capabilities": {"add": ["SYS_PTRACE"]}})],
                hostPID=False))),
        "shop.yaml": v["shop.yaml"],
    }
    kyv = kyv_policy("disallow-host-pid-ipc", pod_rules(
        "host-pid-ipc", "Pods must not share the host's PID or IPC namespace.",
        lambda S: [{"key": "{{ " + S + ".hostPID || `false` }}", "operator": "Equals", "value": True},
                   {"key": "{{ " + S + ".hostIPC || `false` }}", "operator": "Equals", "value": True}]))
    body = '''
violations contains o.metadata.name if {
	some o in items
	ps := pod_spec(o)
	some f in ["hostPID", "hostIPC"]
	object.get(ps, f, false) == true
}
'''
    scen("set20-k-host-pid-ipc", "catalogue",
         "Minimize the admission of containers wishing to share the host process ID namespace or the "
         "host IPC namespace. No workload in this cluster may see the node's processes or its "
         "System V / POSIX shared memory; this applies to bare pods and to everything created from "
         "a controller or a schedule.",
         K3, ["DaemonSet/observability/node-profiler", "CronJob/ops/shm-janitor", "Pod/support/node-shell-7xq2p"],
         "catalogue (CIS 5.2.3 + 5.2.4). Violations: DaemonSet hostPID, CronJob hostIPC (jobTemplate), "
         "bare Pod with both. Distractors: StatefulSet with shareProcessNamespace (pod-internal, not host). "
         "Compliant: hostPID/hostIPC false written out, env HOST_PID=true, shareProcessNamespace, and other "
         "controls' violations (hostNetwork, privileged, SYS_PTRACE).",
         v, cmp_, k8s_solution(kyv, body), cis_id="5.2.3", title="No host PID or IPC namespace sharing")


# ===========================================================================
# C2 catalogue: added capabilities (PSS baseline/restricted, CIS 5.2.8/5.2.9)
# ===========================================================================
def c2():
    nss = docs(ns("payments"), ns("data"), ns("edge"))
    fraud = lambda add: wl("Deployment", "payments", "fraud-scorer", pod_spec(
        [c("scorer", f"{R}/payments/fraud-scorer:3.8.0",
           securityContext={"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"]}}),
         c("profiler", f"{R}/tools/async-profiler:3.0",
           securityContext={"capabilities": {"add": add}})]), replicas=3)
    etl = lambda add: wl("Job", "data", "etl-import-20240611", pod_spec(
        [c("import", f"{R}/data/etl:2.2.1")],
        init=[c("net-setup", f"{R}/tools/iptables:1.8.10", command=["/setup-routes.sh"],
                securityContext={"capabilities": {"add": add}})]))
    dbg = lambda add: wl("Pod", "payments", "checkout-7d9f8b6c5-qk2mz", pod_spec(
        [c("checkout", f"{R}/payments/checkout:5.1.2")],
        eph=[c("debugger-x8k2f", f"{R}/tools/netshoot:0.13", stdin=True, tty=True,
               targetContainerName="checkout", securityContext={"capabilities": {"add": add}})]))
    ingress = lambda extra: wl("Deployment", "edge", "envoy", pod_spec(
        [c("envoy", f"{R}/edge/envoy:1.30.2", ports=[{"containerPort": 443}],
           securityContext=dict({"capabilities": {"drop": ["ALL"], "add": ["NET_BIND_SERVICE"]}}, **extra))]))
    v = {
        "00-namespaces.yaml": nss,
        "payments.yaml": docs(fraud(["SYS_PTRACE"]), dbg(["SYS_ADMIN"])),
        "data.yaml": docs(etl(["NET_BIND_SERVICE", "NET_ADMIN"]),
                          wl("CronJob", "data", "compaction", pod_spec(
                              [c("compact", f"{R}/data/compactor:1.0.4",
                                 securityContext={"capabilities": {"drop": ["NET_RAW"]}})]))),
        "edge.yaml": docs(ingress({})),
    }
    cmp_ = {
        "00-namespaces.yaml": nss,
        "payments.yaml": docs(fraud([]), dbg(["NET_BIND_SERVICE"])),
        "data.yaml": docs(wl("Job", "data", "etl-import-20240611", pod_spec(
            [c("import", f"{R}/data/etl:2.2.1")],
            init=[c("net-setup", f"{R}/tools/iptables:1.8.10", command=["/setup-routes.sh"],
                    securityContext={"runAsUser": 0, "capabilities": {"drop": ["ALL"]}})],
            hostNetwork=True)),
            wl("CronJob", "data", "compaction", pod_spec(
                [c("compact", f"{R}/data/compactor:1.0.4",
                   env=[{"name": "CAP_ADD", "value": "SYS_ADMIN"}],
                   securityContext={"capabilities": {"drop": ["NET_RAW"]}})]))),
        "edge.yaml": docs(ingress({"allowPrivilegeEscalation": True})),
    }
    F = "length(securityContext.capabilities.add[?@ != 'NET_BIND_SERVICE'] || `[]`) > `0`"
    kyv = kyv_policy("restrict-added-capabilities", pod_rules(
        "added-caps", "Containers may add no Linux capability other than NET_BIND_SERVICE.",
        lambda S: [gt0(count_containers(S, F))]))
    body = '''
violations contains o.metadata.name if {
	some o in items
	ps := pod_spec(o)
	some ctr in all_containers(ps)
	some cap in object.get(ctr, ["securityContext", "capabilities", "add"], [])
	cap != "NET_BIND_SERVICE"
}
'''
    scen("set20-k-added-capabilities", "catalogue",
         "Audit finding PCI-2024-117: several workloads grant their containers extra Linux "
         "capabilities. Remediation standard: no container -- regular, init or ephemeral debug "
         "container -- may add any capability to the runtime's default set, with one permitted "
         "exception: the capability to bind ports below 1024. Dropping capabilities is always fine.",
         K3, ["Deployment/payments/fraud-scorer", "Job/data/etl-import-20240611",
              "Pod/payments/checkout-7d9f8b6c5-qk2mz"],
         "catalogue (PSS baseline 'Capabilities' / restricted). Violations: sidecar adds SYS_PTRACE (2nd "
         "container), init container adds NET_BIND_SERVICE + NET_ADMIN (the allowed one first), ephemeral "
         "debug container adds SYS_ADMIN. Compliant: add: [], add NET_BIND_SERVICE only (with drop ALL, and "
         "on the ephemeral container), drop lists, env CAP_ADD=SYS_ADMIN; other controls: hostNetwork, "
         "runAsUser 0, allowPrivilegeEscalation true.",
         v, cmp_, k8s_solution(kyv, body), cis_id="5.2.9", title="No added capabilities beyond NET_BIND_SERVICE")


# ===========================================================================
# C3 catalogue: host ports (PSS baseline)
# ===========================================================================
def c3():
    nss = docs(ns("monitoring"), ns("legacy"), ns("web"))
    nodeexp = lambda hp: wl("DaemonSet", "monitoring", "node-exporter", pod_spec(
        [c("kube-rbac-proxy", f"{R}/monitoring/kube-rbac-proxy:0.18.0",
           ports=[{"name": "https", "containerPort": 8443}]),
         c("node-exporter", f"{R}/monitoring/node-exporter:1.8.1",
           ports=[dict({"name": "metrics", "containerPort": 9100, "protocol": "TCP"}, **hp)])]))
    edge = lambda hp: wl("ReplicaSet", "legacy", "edge-proxy-5c8d7", pod_spec(
        [c("haproxy", f"{R}/legacy/haproxy:2.8.9",
           ports=[{"containerPort": 8080}, dict({"containerPort": 8443}, **hp)])]), replicas=1)
    sync = lambda hp: wl("CronJob", "legacy", "ftp-sync", pod_spec(
        [c("lftp", f"{R}/legacy/lftp:4.9.2", ports=[dict({"containerPort": 2121}, **hp)])]))
    web = wl("Deployment", "web", "storefront", pod_spec(
        [c("web", f"{R}/web/storefront:9.4.0", ports=[{"containerPort": 8080, "name": "http"}])]))
    v = {
        "00-namespaces.yaml": nss,
        "monitoring.yaml": docs(nodeexp({"hostPort": 9100})),
        "legacy.yaml": docs(edge({"hostPort": 443}), sync({"hostPort": 2121, "hostIP": "10.0.0.15"})),
        "web.yaml": docs(web, svc("web", "storefront", 80, 8080, type="NodePort")),
    }
    web_c = wl("Deployment", "web", "storefront", pod_spec(
        [c("web", f"{R}/web/storefront:9.4.0", ports=[{"containerPort": 8080, "name": "http"}],
           securityContext={"privileged": True})]))
    cmp_ = {
        "00-namespaces.yaml": nss,
        "monitoring.yaml": docs(nodeexp({"hostPort": 0})),
        "legacy.yaml": docs(edge({}), sync({"name": "host-port-ftp"})),
        "web.yaml": docs(web_c, {"apiVersion": "v1", "kind": "Service",
                                 "metadata": {"name": "storefront", "namespace": "web"},
                                 "spec": {"type": "NodePort", "selector": {"app": "storefront"},
                                          "ports": [{"port": 80, "targetPort": 8080, "nodePort": 30080}]}}),
    }
    F = "length(ports[?hostPort > `0`] || `[]`) > `0`"
    kyv = kyv_policy("disallow-host-ports", pod_rules(
        "host-ports", "Containers must not bind ports on the node (hostPort).",
        lambda S: [gt0(count_containers(S, F))]))
    body = '''
violations contains o.metadata.name if {
	some o in items
	ps := pod_spec(o)
	some ctr in all_containers(ps)
	some p in object.get(ctr, "ports", [])
	object.get(p, "hostPort", 0) != 0
}
'''
    scen("set20-k-host-ports", "catalogue",
         "hey, can we get a guardrail for this: nothing should be publishing container ports "
         "directly on the node's own IP (the host port mapping thing). Services/NodePort are fine, "
         "we only care about pods grabbing a port on the host. Applies to every container of every "
         "workload, jobs included.",
         K3, ["DaemonSet/monitoring/node-exporter", "ReplicaSet/legacy/edge-proxy-5c8d7", "CronJob/legacy/ftp-sync"],
         "catalogue (PSS baseline 'Host Ports'). Violations: DaemonSet's 2nd container hostPort 9100, "
         "ReplicaSet 2nd port entry hostPort 443, CronJob hostPort with hostIP. Distractors: NodePort "
         "Service. Compliant: hostPort: 0 written out, a port named host-port-ftp, NodePort 30080, and "
         "a privileged container (other control).",
         v, cmp_, k8s_solution(kyv, body, POD_KINDS + ",services"), title="No hostPort")


# ===========================================================================
# C4 catalogue: seccomp profile (PSS restricted, CIS 5.7.2)
# ===========================================================================
def c4():
    nss = docs(ns("web"), ns("db"), ns("batch"))
    RD = {"seccompProfile": {"type": "RuntimeDefault"}}
    UC = {"seccompProfile": {"type": "Unconfined"}}
    LH = {"seccompProfile": {"type": "Localhost", "localhostProfile": "profiles/pg-audit.json"}}
    v = {
        "00-namespaces.yaml": nss,
        "web.yaml": docs(
            wl("Deployment", "web", "frontend", pod_spec(
                [c("nginx", f"{R}/web/frontend:2.14.0", securityContext={"runAsNonRoot": True})],
                securityContext={"runAsUser": 101})),
            wl("Deployment", "web", "api", pod_spec(
                [c("api", f"{R}/web/api:7.0.3")], securityContext=RD))),
        "db.yaml": docs(
            wl("StatefulSet", "db", "postgres", pod_spec(
                [c("postgres", f"{R}/db/postgres:16.3"),
                 c("pgbouncer", f"{R}/db/pgbouncer:1.22.1", securityContext=UC)],
                securityContext=RD), replicas=3)),
        "batch.yaml": docs(
            wl("CronJob", "batch", "usage-report", pod_spec(
                [c("report", f"{R}/batch/usage-report:1.3.0", securityContext=RD)],
                init=[c("fetch-config", f"{R}/tools/curl:8.8.0")]))),
    }
    cmp_ = {
        "00-namespaces.yaml": nss,
        "web.yaml": docs(
            wl("Deployment", "web", "frontend", pod_spec(
                [c("nginx", f"{R}/web/frontend:2.14.0", securityContext={"runAsNonRoot": True})],
                securityContext={"runAsUser": 101, **RD})),
            wl("Deployment", "web", "api", pod_spec(
                [c("api", f"{R}/web/api:7.0.3", securityContext={"privileged": True})], securityContext=RD))),
        "db.yaml": docs(
            wl("StatefulSet", "db", "postgres", pod_spec(
                [c("postgres", f"{R}/db/postgres:16.3", securityContext=LH),
                 c("pgbouncer", f"{R}/db/pgbouncer:1.22.1", securityContext=RD)]), replicas=3)),
        "batch.yaml": docs(
            wl("CronJob", "batch", "usage-report", pod_spec(
                [c("report", f"{R}/batch/usage-report:1.3.0", securityContext=RD)],
                init=[c("fetch-config", f"{R}/tools/curl:8.8.0", securityContext=RD)]),
                annotations={"security.corp.example/seccomp-note": "Unconfined was removed in SEC-2291"})),
    }
    OK = "(securityContext.seccompProfile.type == 'RuntimeDefault' || securityContext.seccompProfile.type == 'Localhost')"
    BAD = "securityContext.seccompProfile.type && !" + OK
    rules = []
    for shape, kinds, S in SHAPES:
        rules.append(kyv_rule(f"explicit-type-{shape}", kinds,
                              "seccomp profile must be RuntimeDefault or Localhost; Unconfined is not allowed.",
                              [{"key": "{{ " + S + ".securityContext.seccompProfile.type || 'unset' }}",
                                "operator": "AnyNotIn", "value": ["RuntimeDefault", "Localhost", "unset"]},
                               gt0(count_containers(S, BAD))]))
        rules.append(kyv_rule(f"effective-type-{shape}", kinds,
                              "Every container needs a RuntimeDefault or Localhost seccomp profile (pod level or its own).",
                              [{"key": "{{ " + S + ".securityContext.seccompProfile.type || 'unset' }}",
                                "operator": "AnyNotIn", "value": ["RuntimeDefault", "Localhost"]},
                               gt0(count_containers(S, "!" + OK))], cond_mode="all"))
    kyv = kyv_policy("require-seccomp-profile", rules)
    body = '''
allowed := {"RuntimeDefault", "Localhost"}

violations contains o.metadata.name if {
	some o in items
	ps := pod_spec(o)
	t := object.get(ps, ["securityContext", "seccompProfile", "type"], "")
	t != ""
	not t in allowed
}

violations contains o.metadata.name if {
	some o in items
	ps := pod_spec(o)
	pt := object.get(ps, ["securityContext", "seccompProfile", "type"], "")
	some ctr in all_containers(ps)
	ct := object.get(ctr, ["securityContext", "seccompProfile", "type"], "")
	eff := effective(pt, ct)
	not eff in allowed
}

effective(pt, ct) := ct if ct != ""

effective(pt, ct) := pt if ct == ""
'''
    scen("set20-k-seccomp-profile", "catalogue",
         "Ensure that the seccomp profile is set to RuntimeDefault (or a node-local profile) in your pod "
         "definitions. Every container of a pod, init containers included, must end up confined by "
         "either the container runtime's default profile or a Localhost profile, whether that is set "
         "once for the whole pod or on each container. A pod spec that leaves a container with no "
         "profile, or that asks for Unconfined at any level, does not meet this control.",
         K3, ["Deployment/web/frontend", "StatefulSet/db/postgres", "CronJob/batch/usage-report"],
         "catalogue (CIS 5.7.2, PSS restricted 'Seccomp'). Violations: Deployment with no profile at all "
         "(has runAsUser etc.), StatefulSet pod-level RuntimeDefault overridden by Unconfined on the 2nd "
         "container, CronJob whose main container is RuntimeDefault but the init container has none. "
         "Distractor: Deployment/web/api pod-level RuntimeDefault. Compliant: pod-level only, container-level "
         "only (Localhost + RuntimeDefault, no pod level), an annotation mentioning Unconfined; other "
         "control: privileged.",
         v, cmp_, k8s_solution(kyv, body), cis_id="5.7.2", title="Seccomp RuntimeDefault or Localhost")


# ===========================================================================
# C5 catalogue: no explicit UID 0 (PSS restricted 'Running as Non-root user')
# ===========================================================================
def c5():
    nss = docs(ns("cms"), ns("ml"), ns("support"))
    cms = lambda psc: wl("Deployment", "cms", "wordpress", pod_spec(
        [c("php-fpm", f"{R}/cms/wordpress:6.5.4-fpm"),
         c("nginx", f"{R}/cms/nginx:1.27.0", securityContext={"runAsUser": 101})],
        securityContext=psc))
    train = lambda isc: wl("Job", "ml", "train-bert-run42", pod_spec(
        [c("train", f"{R}/ml/trainer:2.3.1")],
        init=[c("chown-data", f"{R}/tools/busybox:1.36", command=["chown", "-R", "1000:1000", "/data"],
                securityContext=isc)],
        securityContext={"runAsUser": 1000, "runAsGroup": 1000, "fsGroup": 1000}))
    dbg = lambda esc: wl("Pod", "support", "ticket-8812-debug", pod_spec(
        [c("app", f"{R}/support/desk:4.0.0", securityContext={"runAsUser": 1001})],
        eph=[c("debugger-r2d2", f"{R}/tools/netshoot:0.13", targetContainerName="app",
               securityContext=esc)]))
    sched = wl("CronJob", "ml", "feature-refresh", pod_spec(
        [c("refresh", f"{R}/ml/features:0.9.2", securityContext={"runAsUser": 10001, "runAsGroup": 0})]))
    v = {
        "00-namespaces.yaml": nss,
        "cms.yaml": docs(cms({"runAsUser": 0, "fsGroup": 33})),
        "ml.yaml": docs(train({"runAsUser": 0}), sched),
        "support.yaml": docs(dbg({"runAsUser": 0})),
    }
    cmp_ = {
        "00-namespaces.yaml": nss,
        "cms.yaml": docs(cms({"runAsUser": 33, "runAsGroup": 0, "fsGroup": 0})),
        "ml.yaml": docs(train({"runAsNonRoot": False, "capabilities": {"add": ["CHOWN"]}}), sched),
        "support.yaml": docs(dbg({"runAsUser": 65534, "supplementalGroups": [0], "privileged": True})),
    }
    F = "securityContext.runAsUser == `0`"
    kyv = kyv_policy("disallow-uid-zero", pod_rules(
        "uid-zero", "Pods and containers must not request user ID 0.",
        lambda S: [{"key": "{{ " + S + ".securityContext.runAsUser || `-1` }}", "operator": "Equals", "value": 0},
                   gt0(count_containers(S, F))]))
    body = '''
violations contains o.metadata.name if {
	some o in items
	ps := pod_spec(o)
	object.get(ps, ["securityContext", "runAsUser"], -1) == 0
}

violations contains o.metadata.name if {
	some o in items
	ps := pod_spec(o)
	some ctr in all_containers(ps)
	object.get(ctr, ["securityContext", "runAsUser"], -1) == 0
}
'''
    scen("set20-k-no-uid-zero", "catalogue",
         "Containers must not be told to run as the root user. Nothing in a pod specification -- the "
         "pod-wide security settings or the settings of any individual container, including init and "
         "ephemeral containers -- may request user ID 0. A container that does not state a user at all "
         "is outside this rule (image defaults are covered by a separate control), and group IDs are "
         "not in scope.",
         K3, ["Deployment/cms/wordpress", "Job/ml/train-bert-run42", "Pod/support/ticket-8812-debug"],
         "catalogue (PSS restricted 'Running as Non-root user' / runAsUser != 0). Violations: pod-level "
         "runAsUser 0 (one container overrides to 101, the other inherits 0); Job init container 0 under "
         "pod-level 1000; ephemeral debug container 0. Distractor: CronJob with runAsGroup 0. Compliant: "
         "runAsGroup 0, fsGroup 0, supplementalGroups [0], unset UID; other controls: runAsNonRoot false, "
         "CHOWN capability, privileged.",
         v, cmp_, k8s_solution(kyv, body), title="No runAsUser 0")


# ===========================================================================
# C6 catalogue: restricted volume types (PSS restricted 'Volume Types')
# ===========================================================================
ALLOWED_VOL = ["configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim",
               "projected", "secret"]


def c6():
    nss = docs(ns("media"), ns("ops"), ns("finance"))
    cfg = {"name": "config", "configMap": {"name": "app-config"}}
    archive = lambda vol: wl("StatefulSet", "media", "archive", pod_spec(
        [c("archiver", f"{R}/media/archiver:1.12.0",
           volumeMounts=[{"name": "config", "mountPath": "/etc/archiver"},
                         {"name": "originals", "mountPath": "/srv/originals"}])],
        volumes=[cfg, vol]), replicas=1)
    scrape = lambda vol: wl("CronJob", "ops", "node-log-scrape", pod_spec(
        [c("scrape", f"{R}/ops/log-scrape:0.4.2",
           volumeMounts=[{"name": "tmp", "mountPath": "/tmp"}, {"name": "varlog", "mountPath": "/var/log/host"}])],
        volumes=[{"name": "tmp", "emptyDir": {}}, vol]))
    ledger = lambda vol: wl("Pod", "finance", "ledger-export", pod_spec(
        [c("export", f"{R}/finance/ledger-export:2.0.0",
           volumeMounts=[{"name": "token", "mountPath": "/var/run/secrets/tokens"},
                         {"name": "share", "mountPath": "/mnt/share"}])],
        volumes=[{"name": "token", "projected": {"sources": [{"serviceAccountToken": {"path": "token",
                                                                                      "expirationSeconds": 3600}}]}},
                 vol]))
    ok_dep = wl("Deployment", "media", "thumbnailer", pod_spec(
        [c("thumb", f"{R}/media/thumbnailer:4.1.0",
           volumeMounts=[{"name": "scratch", "mountPath": "/scratch"}, {"name": "podinfo", "mountPath": "/podinfo"}])],
        volumes=[{"name": "scratch", "ephemeral": {"volumeClaimTemplate": {"spec": {
            "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "5Gi"}}}}}},
            {"name": "podinfo", "downwardAPI": {"items": [{"path": "labels", "fieldRef": {"fieldPath": "metadata.labels"}}]}}]))
    v = {
        "00-namespaces.yaml": nss,
        "media.yaml": docs(archive({"name": "originals", "nfs": {"server": "nas01.corp.example", "path": "/exports/media"}}), ok_dep),
        "ops.yaml": docs(scrape({"name": "varlog", "hostPath": {"path": "/var/log", "type": "Directory"}})),
        "finance.yaml": docs(ledger({"name": "share", "azureFile": {"secretName": "azure-share", "shareName": "ledger"}})),
    }
    cmp_ = {
        "00-namespaces.yaml": nss,
        "media.yaml": docs(archive({"name": "originals", "persistentVolumeClaim": {"claimName": "nfs-originals"}}), ok_dep),
        "ops.yaml": docs(wl("CronJob", "ops", "node-log-scrape", pod_spec(
            [c("scrape", f"{R}/ops/log-scrape:0.4.2", securityContext={"privileged": True},
               volumeMounts=[{"name": "tmp", "mountPath": "/tmp"}, {"name": "hostpath-logs", "mountPath": "/var/log/host"}])],
            volumes=[{"name": "tmp", "emptyDir": {"medium": "Memory", "sizeLimit": "64Mi"}},
                     {"name": "hostpath-logs", "csi": {"driver": "secrets-store.csi.k8s.io", "readOnly": True,
                                                       "volumeAttributes": {"secretProviderClass": "log-creds"}}}]))),
        "finance.yaml": docs(ledger({"name": "share", "secret": {"secretName": "azure-share"}})),
    }
    allowed_json = json.dumps(ALLOWED_VOL + ["name"])
    F = f"length(keys(@)[?!contains(`{allowed_json}`, @)]) > `0`"
    kyv = kyv_policy("restrict-volume-types", pod_rules(
        "volume-types", "Only configMap, csi, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected and secret volumes are allowed.",
        lambda S: [gt0(f"length({S}.volumes[?{F}] || `[]`)")]))
    body = '''
allowed := {"name", "configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim", "projected", "secret"}

violations contains o.metadata.name if {
	some o in items
	ps := pod_spec(o)
	some vol in object.get(ps, "volumes", [])
	some k, _ in vol
	not k in allowed
}
'''
    scen("set20-k-volume-types", "catalogue",
         "Pod Security Standard (restricted), volume types: pods may only use the volume types that "
         "carry no node or network-storage access of their own -- ConfigMap, CSI (inline), downward "
         "API, emptyDir, generic ephemeral volumes, PersistentVolumeClaims, projected volumes and "
         "Secrets. Any other in-tree volume source (host paths, NFS, cloud disks and file shares, "
         "iSCSI, and so on) must not appear in any workload's pod template.",
         K3, ["StatefulSet/media/archive", "CronJob/ops/node-log-scrape", "Pod/finance/ledger-export"],
         "catalogue (PSS restricted 'Volume Types'). Violations: nfs (2nd volume of a StatefulSet), hostPath "
         "(2nd volume of a CronJob), azureFile (2nd volume of a bare Pod beside a projected token). Distractor: "
         "Deployment with generic ephemeral + downwardAPI volumes. Compliant: PVC claim named nfs-originals, "
         "a csi volume named hostpath-logs, emptyDir medium Memory, secret named azure-share; other control: privileged.",
         v, cmp_, k8s_solution(kyv, body), title="Restricted volume types")


# ===========================================================================
# N1 novel: Ingress TLS for every host, only in namespaces labelled exposure=internet
# ===========================================================================
def ing(namespace, name, hosts, tls_hosts, cls="nginx"):
    spec = {"ingressClassName": cls}
    if tls_hosts is not None:
        spec["tls"] = [{"hosts": th, "secretName": f"{name}-tls-{i}"} for i, th in enumerate(tls_hosts)]
    spec["rules"] = [{"host": h, "http": {"paths": [{"path": "/", "pathType": "Prefix", "backend": {
        "service": {"name": name, "port": {"number": 80}}}}]}} for h in hosts]
    return {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
            "metadata": {"name": name, "namespace": namespace}, "spec": spec}


def n1():
    nss = docs(ns("shop-public", {"exposure": "internet", "team": "shop"}),
               ns("docs-public", {"exposure": "internet"}),
               ns("grafana", {"exposure": "internal"}),
               ns("partner-api", {"exposure": "internet", "team": "integrations"}))
    v = {
        "00-namespaces.yaml": nss,
        "shop.yaml": docs(ing("shop-public", "storefront", ["shop.corp.example"], None),
                          svc("shop-public", "storefront")),
        "docs.yaml": docs(ing("docs-public", "docs", ["docs.corp.example", "api-docs.corp.example"],
                              [["docs.corp.example"]]), svc("docs-public", "docs")),
        "grafana.yaml": docs(ing("grafana", "grafana", ["grafana.int.corp.example"], None), svc("grafana", "grafana")),
        "partner.yaml": docs(ing("partner-api", "gateway", ["partners.corp.example"], [["partners.corp.example"]]),
                             ing("partner-api", "webhooks", ["hooks.corp.example"], []),
                             svc("partner-api", "gateway")),
    }
    cmp_ = {
        "00-namespaces.yaml": nss,
        "shop.yaml": docs(ing("shop-public", "storefront", ["shop.corp.example"], [["shop.corp.example"]]),
                          svc("shop-public", "storefront", type="LoadBalancer")),
        "docs.yaml": docs(ing("docs-public", "docs", ["docs.corp.example", "api-docs.corp.example"],
                              [["docs.corp.example"], ["api-docs.corp.example"]]), svc("docs-public", "docs")),
        "grafana.yaml": v["grafana.yaml"],
        "partner.yaml": docs(ing("partner-api", "gateway", ["partners.corp.example"], [["partners.corp.example"]]),
                             ing("partner-api", "webhooks", ["hooks.corp.example"], [["hooks.corp.example", "hooks-v2.corp.example"]]),
                             svc("partner-api", "gateway"),
                             wl("Deployment", "partner-api", "gateway", pod_spec(
                                 [c("gw", "docker.io/library/nginx:latest", securityContext={"privileged": True})]))),
    }
    kyv = kyv_policy("internet-ingress-tls", [kyv_rule(
        "tls-for-every-host", ["Ingress"],
        "Ingresses in exposure=internet namespaces must terminate TLS for every host they route.",
        [{"key": "{{ request.object.spec.rules[].host || `[]` }}", "operator": "AnyNotIn",
          "value": "{{ request.object.spec.tls[].hosts[] || `[]` }}"}],
        match_extra={"namespaceSelector": {"matchLabels": {"exposure": "internet"}}})])
    body = '''
violations contains [ns_of(o), o.metadata.name, h] if {
	some o in items
	o.kind == "Ingress"
	ns_labels(ns_of(o)).exposure == "internet"
	some r in object.get(o.spec, "rules", [])
	h := object.get(r, "host", "")
	tls_hosts := {x | some t in object.get(o.spec, "tls", []); some x in object.get(t, "hosts", [])}
	not h in tls_hosts
}
'''
    scen("set20-k-ingress-tls-internet", "novel",
         "Ticket NET-4471 (security review): anything we publish to the internet must be served over "
         "HTTPS. Namespaces that face the internet are the ones labelled exposure=internet. In those "
         "namespaces every Ingress has to terminate TLS for each hostname it routes -- an Ingress "
         "with no TLS section, or whose TLS section leaves one of its hostnames out, fails the "
         "review. Ingresses in other namespaces (internal tooling) are not part of this ticket.",
         K3, ["Ingress/shop-public/storefront", "Ingress/docs-public/docs", "Ingress/partner-api/webhooks"],
         "novel (scope by namespace label; per-host coverage). Violations: Ingress with no tls, Ingress "
         "with two hosts but TLS for only the first, Ingress with tls: [] (empty list). Distractors: "
         "grafana Ingress without TLS in an exposure=internal namespace (both envs, out of scope); "
         "partner gateway fully covered. Compliant: two tls entries covering two hosts, a tls entry "
         "listing an extra host; other controls: LoadBalancer Service, privileged :latest nginx.",
         v, cmp_, k8s_solution(kyv, body, "ingresses,services,deployments"),
         title="TLS on internet-facing Ingresses")


# ===========================================================================
# N2 novel: registry allow-list, sandbox-* namespaces exempt
# ===========================================================================
def n2():
    nss = docs(ns("checkout"), ns("analytics"), ns("team-sandbox"), ns("sandbox-jdoe", {"owner": "jdoe"}))
    MIR = "quay.corp.example/mirror"
    v = {
        "00-namespaces.yaml": nss,
        "checkout.yaml": docs(
            wl("Deployment", "checkout", "cart", pod_spec(
                [c("cart", f"{R}/checkout/cart:3.2.0"), c("envoy", f"{MIR}/envoyproxy/envoy:v1.30.2")],
                init=[c("wait-for-db", "docker.io/library/busybox:1.36", command=["sh", "-c", "until nc -z db 5432; do sleep 1; done"])])),
            wl("Pod", "checkout", "cart-debug", pod_spec(
                [c("cart", f"{R}/checkout/cart:3.2.0")],
                eph=[c("debugger-9k1", "nicolaka/netshoot:v0.13", targetContainerName="cart")]))),
        "analytics.yaml": docs(
            wl("CronJob", "analytics", "clickstream-rollup", pod_spec(
                [c("rollup", "quay.corp.example/analytics/rollup:5.0.1")])),
            wl("StatefulSet", "analytics", "clickhouse", pod_spec(
                [c("clickhouse", f"{MIR}/clickhouse/clickhouse-server:24.3"),
                 c("backup", f"{R}/analytics/ch-backup@sha256:" + "3f" * 32)]), replicas=3)),
        "team-sandbox.yaml": docs(
            wl("Deployment", "team-sandbox", "playground", pod_spec(
                [c("app", "ghcr.io/acme/playground:0.1.0")]))),
        "sandbox-jdoe.yaml": docs(
            wl("Deployment", "sandbox-jdoe", "scratch", pod_spec(
                [c("app", "docker.io/library/python:3.12-slim", command=["sleep", "infinity"])]))),
    }
    cmp_ = {
        "00-namespaces.yaml": nss,
        "checkout.yaml": docs(
            wl("Deployment", "checkout", "cart", pod_spec(
                [c("cart", f"{R}/checkout/cart:3.2.0"), c("envoy", f"{MIR}/envoyproxy/envoy:v1.30.2")],
                init=[c("wait-for-db", f"{MIR}/library/busybox:1.36",
                        env=[{"name": "UPSTREAM_IMAGE", "value": "docker.io/library/busybox:1.36"}],
                        command=["sh", "-c", "until nc -z db 5432; do sleep 1; done"])])),
            wl("Pod", "checkout", "cart-debug", pod_spec(
                [c("cart", f"{R}/checkout/cart:3.2.0")],
                eph=[c("debugger-9k1", f"{MIR}/nicolaka/netshoot:v0.13", targetContainerName="cart",
                       securityContext={"capabilities": {"add": ["NET_ADMIN"]}})]))),
        "analytics.yaml": docs(
            wl("CronJob", "analytics", "clickstream-rollup", pod_spec(
                [c("rollup", f"{R}/analytics/rollup:latest")], hostNetwork=True)),
            wl("StatefulSet", "analytics", "clickhouse", pod_spec(
                [c("clickhouse", f"{MIR}/clickhouse/clickhouse-server:24.3"),
                 c("backup", f"{R}/analytics/ch-backup@sha256:" + "3f" * 32)]), replicas=3)),
        "team-sandbox.yaml": docs(
            wl("Deployment", "team-sandbox", "playground", pod_spec(
                [c("app", f"{R}/team-sandbox/playground:0.1.0")]))),
        "sandbox-jdoe.yaml": v["sandbox-jdoe.yaml"],
    }
    F = "!starts_with(image, 'registry.corp.example/') && !starts_with(image, 'quay.corp.example/mirror/')"
    kyv = kyv_policy("allowed-registries", pod_rules(
        "registries", "Images must come from registry.corp.example/ or quay.corp.example/mirror/.",
        lambda S: [gt0(count_containers(S, F))], exclude_ns=["sandbox-*"]))
    body = '''
allowed_prefixes := ["registry.corp.example/", "quay.corp.example/mirror/"]

violations contains [ns_of(o), o.metadata.name, ctr.image] if {
	some o in items
	not startswith(ns_of(o), "sandbox-")
	ps := pod_spec(o)
	some ctr in all_containers(ps)
	not allowed_image(ctr.image)
}

allowed_image(img) if {
	some p in allowed_prefixes
	startswith(img, p)
}
'''
    scen("set20-k-approved-registries", "novel",
         "Supply-chain rule, effective now: every container image that runs in the cluster -- app "
         "containers, init containers and containers attached later for debugging -- must be pulled "
         "from our own registry (registry.corp.example) or from the pull-through mirror under "
         "quay.corp.example/mirror/. Nothing else on quay.corp.example counts, and an image written "
         "without a registry comes from Docker Hub, which is not allowed. Personal playground "
         "namespaces, whose names begin with \"sandbox-\", are exempt.",
         K3, ["Deployment/checkout/cart", "Pod/checkout/cart-debug", "CronJob/analytics/clickstream-rollup",
              "Deployment/team-sandbox/playground"],
         "novel (allow-list with a name-pattern exemption). Violations: init container from docker.io; "
         "ephemeral container with a registry-less image (Docker Hub); CronJob from quay.corp.example "
         "outside /mirror/; team-sandbox (name contains but does not begin with sandbox-) using ghcr.io. "
         "Distractors: digest image from our registry, mirror images. sandbox-jdoe uses docker.io in both "
         "envs (exempt). Compliant: env var holding a docker.io image name; other controls: :latest tag, "
         "hostNetwork, NET_ADMIN.",
         v, cmp_, k8s_solution(kyv, body), title="Images only from approved registries")


# ===========================================================================
# N3 novel: PodDisruptionBudgets must not block voluntary evictions outright
# ===========================================================================
def pdb(namespace, name, **spec):
    s = dict(spec)
    s["selector"] = {"matchLabels": {"app": name}}
    return {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
            "metadata": {"name": f"{name}-pdb", "namespace": namespace}, "spec": s}


def n3():
    nss = docs(ns("payments"), ns("search"), ns("identity"))
    dep = lambda namespace, name, n, **kw: wl("Deployment", namespace, name, pod_spec(
        [c(name, f"{R}/{namespace}/{name}:1.0.0", **kw)]), replicas=n)
    sts = lambda namespace, name, n: wl("StatefulSet", namespace, name, pod_spec(
        [c(name, f"{R}/{namespace}/{name}:8.14.1")]), replicas=n)
    v = {
        "00-namespaces.yaml": nss,
        "payments.yaml": docs(dep("payments", "ledger", 3), pdb("payments", "ledger", maxUnavailable=0),
                              dep("payments", "card-auth", 4), pdb("payments", "card-auth", minAvailable="75%")),
        "search.yaml": docs(sts("search", "elasticsearch", 3), pdb("search", "elasticsearch", minAvailable="100%")),
        "identity.yaml": docs(dep("identity", "keycloak", 2), pdb("identity", "keycloak", maxUnavailable="0%"),
                              dep("identity", "ldap-proxy", 3), pdb("identity", "ldap-proxy", maxUnavailable=1)),
    }
    cmp_ = {
        "00-namespaces.yaml": nss,
        "payments.yaml": docs(dep("payments", "ledger", 3), pdb("payments", "ledger", maxUnavailable=1),
                              dep("payments", "card-auth", 4), pdb("payments", "card-auth", minAvailable="75%")),
        "search.yaml": docs(sts("search", "elasticsearch", 3), pdb("search", "elasticsearch", minAvailable=2)),
        "identity.yaml": docs(dep("identity", "keycloak", 2, securityContext={"privileged": True}),
                              pdb("identity", "keycloak", maxUnavailable="50%"),
                              dep("identity", "ldap-proxy", 1), pdb("identity", "ldap-proxy", maxUnavailable=1)),
    }
    kyv = kyv_policy("pdb-must-allow-eviction", [kyv_rule(
        "no-zero-disruption", ["PodDisruptionBudget"],
        "A PodDisruptionBudget must allow at least one pod to be evicted.",
        [{"key": "{{ to_string(request.object.spec.maxUnavailable || 'unset') }}", "operator": "AnyIn", "value": ["0", "0%"]},
         {"key": "{{ to_string(request.object.spec.minAvailable || 'unset') }}", "operator": "AnyIn", "value": ["100%"]}])])
    body = '''
blocks(s) if s.maxUnavailable == 0

blocks(s) if s.maxUnavailable == "0%"

blocks(s) if s.maxUnavailable == "0"

blocks(s) if s.minAvailable == "100%"

violations contains [ns_of(o), o.metadata.name] if {
	some o in items
	o.kind == "PodDisruptionBudget"
	blocks(o.spec)
}
'''
    scen("set20-k-pdb-allows-eviction", "novel",
         "Platform on-call, after last weekend's stuck node upgrade: a disruption budget that by its "
         "own numbers never permits a single voluntary eviction blocks every node drain. Flag any "
         "PodDisruptionBudget written so that no pod may ever be unavailable or all of its pods must "
         "always stay available (absolute or percentage, however it is spelled). Budgets that "
         "leave room for at least one eviction are fine.",
         K3, ["PodDisruptionBudget/payments/ledger-pdb", "PodDisruptionBudget/search/elasticsearch-pdb",
              "PodDisruptionBudget/identity/keycloak-pdb"],
         "novel (stated by effect: the PDB forbids all voluntary disruption). Violations: maxUnavailable 0 "
         "(integer), minAvailable \"100%\", maxUnavailable \"0%\". Distractors: minAvailable 75% of 4, "
         "maxUnavailable 1. Compliant: maxUnavailable 1, minAvailable 2 of 3 replicas, maxUnavailable 50%; "
         "ldap-proxy with 1 replica and maxUnavailable 1; other control: privileged.",
         v, cmp_, k8s_solution(kyv, body, "poddisruptionbudgets,deployments,statefulsets"),
         title="PDBs must allow at least one eviction")


# ===========================================================================
# N4 novel: readiness check on every app container of long-running controllers
# ===========================================================================
def n4():
    nss = docs(ns("checkout"), ns("queue"), ns("net"), ns("batch"))
    HTTP = {"httpGet": {"path": "/healthz", "port": 8080}, "periodSeconds": 10}
    TCP = {"tcpSocket": {"port": 5672}, "initialDelaySeconds": 15}
    EXEC = {"exec": {"command": ["rabbitmq-diagnostics", "-q", "check_port_connectivity"]}}
    GRPC = {"grpc": {"port": 9090}}
    v = {
        "00-namespaces.yaml": nss,
        "checkout.yaml": docs(wl("Deployment", "checkout", "cart", pod_spec(
            [c("cart", f"{R}/checkout/cart:3.2.0", readinessProbe=HTTP, livenessProbe=HTTP),
             c("otel-sidecar", f"{R}/obs/otel-collector:0.103.0", livenessProbe={"httpGet": {"path": "/", "port": 13133}})],
            init=[c("migrate", f"{R}/checkout/cart-migrate:3.2.0")]))),
        "queue.yaml": docs(wl("StatefulSet", "queue", "rabbitmq", pod_spec(
            [c("rabbitmq", f"{R}/queue/rabbitmq:3.13.3-management", ports=[{"containerPort": 5672}])]), replicas=3)),
        "net.yaml": docs(wl("DaemonSet", "net", "dns-cache", pod_spec(
            [c("node-cache", f"{R}/net/k8s-dns-node-cache:1.23.1", startupProbe={"tcpSocket": {"port": 53}})])),
            wl("Deployment", "net", "coredns-custom", pod_spec(
                [c("coredns", f"{R}/net/coredns:1.11.1", readinessProbe=GRPC)]))),
        "batch.yaml": docs(wl("Job", "batch", "reindex-0611", pod_spec([c("reindex", f"{R}/batch/reindex:2.0")])),
                           wl("CronJob", "batch", "cleanup", pod_spec([c("cleanup", f"{R}/batch/cleanup:1.1")]))),
    }
    cmp_ = {
        "00-namespaces.yaml": nss,
        "checkout.yaml": docs(wl("Deployment", "checkout", "cart", pod_spec(
            [c("cart", f"{R}/checkout/cart:3.2.0", readinessProbe=HTTP, livenessProbe=HTTP),
             c("otel-sidecar", f"{R}/obs/otel-collector:0.103.0", readinessProbe={"httpGet": {"path": "/", "port": 13133}})],
            init=[c("migrate", f"{R}/checkout/cart-migrate:3.2.0")]))),
        "queue.yaml": docs(wl("StatefulSet", "queue", "rabbitmq", pod_spec(
            [c("rabbitmq", f"{R}/queue/rabbitmq:3.13.3-management", ports=[{"containerPort": 5672}],
               readinessProbe=EXEC, livenessProbe=TCP)]), replicas=3)),
        "net.yaml": docs(wl("DaemonSet", "net", "dns-cache", pod_spec(
            [c("node-cache", f"{R}/net/k8s-dns-node-cache:1.23.1", readinessProbe=TCP, startupProbe={"tcpSocket": {"port": 53}},
               securityContext={"capabilities": {"add": ["NET_ADMIN"]}})], hostNetwork=True)),
            wl("Deployment", "net", "coredns-custom", pod_spec(
                [c("coredns", f"{R}/net/coredns:1.11.1", readinessProbe=GRPC)]))),
        "batch.yaml": docs(wl("Job", "batch", "reindex-0611", pod_spec([c("reindex", f"{R}/batch/reindex:2.0")])),
                           wl("CronJob", "batch", "cleanup", pod_spec([c("cleanup", f"{R}/batch/cleanup:1.1")])),
                           wl("Pod", "batch", "adhoc-psql", pod_spec([c("psql", f"{R}/db/postgres:16.3", command=["sleep", "7200"])]))),
    }
    S = "request.object.spec.template.spec"
    kyv = kyv_policy("require-readiness", [kyv_rule(
        "readiness-on-app-containers", ["Deployment", "StatefulSet", "DaemonSet"],
        "Every container of a Deployment, StatefulSet or DaemonSet needs a readiness probe.",
        [gt0(f"length({S}.containers[?!readinessProbe] || `[]`)")])])
    body = '''
long_running := {"Deployment", "StatefulSet", "DaemonSet"}

violations contains [o.kind, ns_of(o), o.metadata.name] if {
	some o in items
	o.kind in long_running
	some ctr in o.spec.template.spec.containers
	not ctr.readinessProbe
}
'''
    scen("set20-k-readiness-checks", "novel",
         "SRE standard REL-07: services that run continuously (anything managed by a Deployment, "
         "StatefulSet or DaemonSet) must tell Kubernetes when they are ready to receive traffic. "
         "Each of their main containers, sidecars included, needs a readiness check of some kind -- "
         "HTTP, TCP, gRPC or command-based are all acceptable. A liveness or startup check does not "
         "count as a readiness check. Init containers, Jobs, CronJobs and stand-alone pods are out "
         "of scope.",
         K3, ["Deployment/checkout/cart", "StatefulSet/queue/rabbitmq", "DaemonSet/net/dns-cache"],
         "novel (several ways to comply: httpGet/tcpSocket/exec/grpc; scope by workload kind). Violations: "
         "sidecar with liveness only (2nd container), StatefulSet with none, DaemonSet with a startupProbe "
         "only. Distractors: grpc readiness Deployment, Job/CronJob without probes (both envs), init "
         "container without probe. Compliant adds a bare Pod without probe (out of scope); other "
         "controls: hostNetwork, NET_ADMIN.",
         v, cmp_, k8s_solution(kyv, body, "deployments,statefulsets,daemonsets"),
         title="Readiness checks on long-running workloads")


# ===========================================================================
# N5 novel: CronJobs must not overlap runs, label exemption
# ===========================================================================
def n5():
    nss = docs(ns("billing"), ns("reports"), ns("ops"))
    EX = "batch.corp.example/parallel-ok"
    cj = lambda namespace, name, pol=None, labels=None, **kw: wl("CronJob", namespace, name, pod_spec(
        [c(name, f"{R}/{namespace}/{name}:1.4.2", **kw)]),
        labels=labels, extra=({"concurrencyPolicy": pol} if pol else None))
    v = {
        "00-namespaces.yaml": nss,
        "billing.yaml": docs(cj("billing", "invoice-run"), cj("billing", "dunning", "Forbid")),
        "reports.yaml": docs(cj("reports", "warehouse-sync", "Allow"),
                             cj("reports", "kpi-snapshot", "Replace"),
                             cj("reports", "pdf-render", "Allow", {EX: "true"})),
        "ops.yaml": docs(cj("ops", "cert-expiry-check", "Allow", {EX: "false"}),
                         wl("Job", "ops", "one-off-backfill", pod_spec([c("backfill", f"{R}/ops/backfill:0.2")]),
                            extra={"parallelism": 4})),
    }
    cmp_ = {
        "00-namespaces.yaml": nss,
        "billing.yaml": docs(cj("billing", "invoice-run", "Forbid"), cj("billing", "dunning", "Forbid")),
        "reports.yaml": docs(cj("reports", "warehouse-sync", "Replace", env=[{"name": "CONCURRENCY", "value": "Allow"}]),
                             cj("reports", "kpi-snapshot", "Replace"),
                             cj("reports", "pdf-render", "Allow", {EX: "true"})),
        "ops.yaml": docs(cj("ops", "cert-expiry-check", "Forbid", {EX: "false"}, securityContext={"privileged": True}),
                         wl("Job", "ops", "one-off-backfill", pod_spec([c("backfill", f"{R}/ops/backfill:0.2")]),
                            extra={"parallelism": 4})),
    }
    kyv = kyv_policy("cronjob-no-overlap", [kyv_rule(
        "forbid-or-replace", ["CronJob"],
        "CronJobs must not start a run while the previous one is still running (Forbid or Replace).",
        [{"key": "{{ request.object.spec.concurrencyPolicy || 'Allow' }}", "operator": "Equals", "value": "Allow"}],
        exclude=[{"resources": {"selector": {"matchLabels": {EX: "true"}}}}])])
    body = '''
violations contains [ns_of(o), o.metadata.name] if {
	some o in items
	o.kind == "CronJob"
	object.get(o.metadata, ["labels", "batch.corp.example/parallel-ok"], "") != "true"
	object.get(o.spec, "concurrencyPolicy", "Allow") == "Allow"
}
'''
    scen("set20-k-cronjob-no-overlap", "novel",
         "Scheduled jobs keep piling up on top of each other when a run is slow (two invoice runs "
         "at once double-billed customers in March). Requirement: no CronJob may ever have two of "
         "its runs active at the same time -- either skip the new run or cancel the old one, "
         "whichever suits the job. The only exception is a CronJob explicitly labelled "
         "batch.corp.example/parallel-ok=true by its owners.",
         K3, ["CronJob/billing/invoice-run", "CronJob/reports/warehouse-sync", "CronJob/ops/cert-expiry-check"],
         "novel (two ways to comply: Forbid or Replace; label exemption; the default is Allow). "
         "Violations: concurrencyPolicy unset (defaults to Allow), explicit Allow, Allow with the exemption "
         "label set to \"false\". Distractors: Forbid, Replace, exempt pdf-render (Allow + label true, both "
         "envs), a Job with parallelism 4 (not a CronJob). Compliant: env CONCURRENCY=Allow; other control: privileged.",
         v, cmp_, k8s_solution(kyv, body, "cronjobs,jobs"), title="CronJobs must not overlap")


# ===========================================================================
# RHEL 9
# ===========================================================================
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
#ListenAddress ::

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
{MAXAUTH}#MaxSessions 10

#PubkeyAuthentication yes

# The default is to check both .ssh/authorized_keys and .ssh/authorized_keys2
# but this is overridden so installations will only check .ssh/authorized_keys
AuthorizedKeysFile	.ssh/authorized_keys

#PasswordAuthentication yes
#PermitEmptyPasswords no

#AllowAgentForwarding yes
#AllowTcpForwarding yes
#GatewayPorts no
#X11Forwarding no
#PrintMotd yes
#PrintLastLog yes
#TCPKeepAlive yes
#UseDNS no

# no default banner path
#Banner none

# override default of no subsystems
Subsystem	sftp	/usr/libexec/openssh/sftp-server
{TAIL}"""

REDHAT_50 = """# This system is following system-wide crypto policy. The changes to
# crypto properties (Ciphers, MACs, ...) will not have any effect in
# this or following included files. To override some configuration option,
# write it before this block or in the sshd_config file.
#
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

SSHD_PLAYBOOK = """---
- name: Collect the sshd configuration as sshd reads it
  hosts: rhel9_servers
  gather_facts: false
  tasks:
    - name: Read /etc/ssh/sshd_config
      ansible.builtin.slurp:
        src: /etc/ssh/sshd_config
      register: main_cfg

    - name: Find sshd drop-in files
      ansible.builtin.find:
        paths: /etc/ssh/sshd_config.d
        patterns: "*.conf"
      register: dropin_files

    - name: Read the drop-in files
      ansible.builtin.slurp:
        src: "{{ item.path }}"
      loop: "{{ dropin_files.files | sort(attribute='path') }}"
      register: dropin_content

    - name: Assemble the drop-ins
      ansible.builtin.set_fact:
        dropins: "{{ dropins | default([]) + [{'path': item.item.path, 'content': item.content | b64decode}] }}"
      loop: "{{ dropin_content.results }}"

    - name: Save collected_data.json
      ansible.builtin.copy:
        content: "{{ {'sshd_config': main_cfg.content | b64decode, 'dropins': dropins | default([])} | to_json }}"
        dest: "{{ playbook_dir }}/collected_data.json"
        mode: "0644"
      delegate_to: localhost
"""

SSHD_REGO = r'''package check

import rego.v1

default result := true

result := false if {
	effective > 4
}

lines_of(text) := [trim_space(l) | some l in split(text, "\n")]

directive(l) if {
	l != ""
	not startswith(l, "#")
}

kw(l) := lower(regex.split(`[\s=]+`, l)[0])

val(l) := regex.split(`[\s=]+`, l)[1]

match_positions(ls) := [i | some i, l in ls; directive(l); kw(l) == "match"]

until_match(ls) := [l | some i, l in ls; i < match_positions(ls)[0]] if count(match_positions(ls)) > 0

until_match(ls) := ls if count(match_positions(ls)) == 0

main := lines_of(input.sshd_config)

include_positions := [i | some i, l in main; directive(l); kw(l) == "include"]

paths := sort([d.path | some d in input.dropins])

dropin_lines := [l |
	some p in paths
	some d in input.dropins
	d.path == p
	some l in until_match(lines_of(d.content))
]

ordered := array.concat(
	array.concat(array.slice(main, 0, include_positions[0]), dropin_lines),
	until_match(array.slice(main, include_positions[0] + 1, count(main))),
) if count(include_positions) > 0

ordered := until_match(main) if count(include_positions) == 0

hits := [to_number(val(l)) | some l in ordered; directive(l); kw(l) == "maxauthtries"]

effective := hits[0] if count(hits) > 0

effective := 6 if count(hits) == 0
'''


def r1():
    v = {
        "host/etc/ssh/sshd_config": SSHD_MAIN.replace("{MAXAUTH}", "#MaxAuthTries 6\n").replace(
            "{TAIL}", "\n# SFTP-only partner accounts get fewer attempts\nMatch Group sftp-partners\n"
                      "\tMaxAuthTries 3\n\tForceCommand internal-sftp\n\tChrootDirectory /srv/sftp/%u\n"),
        "host/etc/ssh/sshd_config.d/50-redhat.conf": REDHAT_50,
        "host/etc/ssh/sshd_config.d/10-hardening.conf":
            "# CIS hardening baseline (SEC-1180)\nPermitEmptyPasswords no\nClientAliveInterval 300\n"
            "ClientAliveCountMax 3\n# MaxAuthTries 4    <- pending change window CHG-7731\nLoginGraceTime 60\n",
    }
    cmp_ = {
        "host/etc/ssh/sshd_config": SSHD_MAIN.replace("{MAXAUTH}", "#MaxAuthTries 6\nMaxAuthTries 10\n").replace(
            "{TAIL}", ""),
        "host/etc/ssh/sshd_config.d/50-redhat.conf": REDHAT_50,
        "host/etc/ssh/sshd_config.d/10-hardening.conf":
            "# CIS hardening baseline (SEC-1180)\nPermitEmptyPasswords no\nClientAliveInterval 300\n"
            "ClientAliveCountMax 3\nLoginGraceTime 60\n",
        "host/etc/ssh/sshd_config.d/40-auth-limits.conf": "# CHG-7731\nmaxauthtries=4\n",
    }
    scen("set20-r-ssh-max-auth-tries", "catalogue",
         "Ensure SSH MaxAuthTries is set to 4 or less. The limit that the SSH daemon actually "
         "applies to ordinary logins (taking its drop-in directory and its defaults into account) "
         "must not allow more than four authentication attempts per connection.",
         RH, ["sshd//MaxAuthTries"],
         "catalogue (CIS RHEL 9 5.2.18). Violating: no unconditional MaxAuthTries anywhere (commented lines "
         "only), so the OpenSSH default 6 applies; a Match Group block at the end sets 3 for one group only. "
         "Compliant: drop-in 40-auth-limits.conf 'maxauthtries=4' (boundary, lowercase, '=' form) read via the "
         "Include before the main file's later 'MaxAuthTries 10' (first value wins); stock 50-redhat.conf "
         "has X11Forwarding yes (other control).",
         v, cmp_, {"playbook.yml": SSHD_PLAYBOOK, "policy.rego": SSHD_REGO},
         cis_id="5.2.18", title="SSH MaxAuthTries 4 or less", platform="rhel9")


CRON_PLAYBOOK = """---
- name: Collect permissions of the cron configuration files
  hosts: rhel9_servers
  gather_facts: false
  tasks:
    - name: Stat /etc/crontab
      ansible.builtin.stat:
        path: /etc/crontab
      register: crontab

    - name: Files in /etc/cron.d
      ansible.builtin.find:
        paths: /etc/cron.d
        file_type: file
        hidden: true
      register: crond

    - name: Save collected_data.json
      ansible.builtin.copy:
        content: >-
          {{ {'files': ([{'path': '/etc/crontab', 'exists': crontab.stat.exists,
                          'mode': crontab.stat.mode | default('')}]
                        + (crond.files | map('dict2items') | map('selectattr', 'key', 'in', ['path', 'mode'])
                           | map('items2dict') | list))} | to_json }}
        dest: "{{ playbook_dir }}/collected_data.json"
        mode: "0644"
      delegate_to: localhost
"""

CRON_REGO = r'''package check

import rego.v1

default result := true

result := false if {
	some f in input.files
	object.get(f, "exists", true)
	bad_mode(f.mode)
}

# the last two octal digits are the group and other permissions
bad_mode(m) if {
	n := count(m)
	substring(m, n - 2, 2) != "00"
}
'''

CRONTAB = """SHELL=/bin/bash
PATH=/sbin:/bin:/usr/sbin:/usr/bin
MAILTO=root

# For details see man 4 crontabs

# Example of job definition:
# .---------------- minute (0 - 59)
# |  .------------- hour (0 - 23)
# |  |  .---------- day of month (1 - 31)
# |  |  |  .------- month (1 - 12) OR jan,feb,mar,apr ...
# |  |  |  |  .---- day of week (0 - 6) (Sunday=0 or 7) OR sun,mon,tue,wed,thu,fri,sat
# |  |  |  |  |
# *  *  *  *  * user-name  command to be executed
"""


def r2():
    files = {
        "host/etc/crontab": CRONTAB,
        "host/etc/cron.d/0hourly": "# Run the hourly jobs\nSHELL=/bin/bash\nPATH=/sbin:/bin:/usr/sbin:/usr/bin\nMAILTO=root\n01 * * * * root run-parts /etc/cron.hourly\n",
        "host/etc/cron.d/backup-db": "# nightly dump, owner: dba team\n30 1 * * * postgres /usr/local/bin/pg-dump-all --gzip /backup\n",
        "host/etc/cron.d/raid-check": "# Run system wide raid-check once a week on Sunday at 1am by default\n0 1 * * Sun root /usr/sbin/raid-check\n",
        "host/etc/ssh/sshd_config": SSHD_MAIN.replace("{MAXAUTH}", "#MaxAuthTries 6\n").replace("{TAIL}", ""),
    }
    A = lambda m: {"mode": m, "owner": "root", "group": "root"}
    vattrs = {"/etc/crontab": A("0600"), "/etc/cron.d/0hourly": A("0600"),
              "/etc/cron.d/backup-db": A("0644"), "/etc/cron.d/raid-check": A("0640"),
              "/etc/ssh/sshd_config": A("0600")}
    cattrs = {"/etc/crontab": A("0400"), "/etc/cron.d/0hourly": A("0600"),
              "/etc/cron.d/backup-db": A("0600"), "/etc/cron.d/raid-check": A("0600"),
              "/etc/ssh/sshd_config": A("0644")}
    scen("set20-r-cron-file-permissions", "catalogue",
         "Ensure permissions on /etc/crontab and on the files in /etc/cron.d are configured: the "
         "system crontab and every file in the cron.d directory must be neither readable nor "
         "writable (nor executable) by the group or by other users -- only their owner may use them.",
         RH, ["cron//etc/cron.d/backup-db", "cron//etc/cron.d/raid-check"],
         "catalogue (CIS RHEL 9 5.1.2 / 5.1.7, applied to the files of cron.d). Violating: /etc/crontab 0600 "
         "(fine), cron.d/backup-db 0644 and cron.d/raid-check 0640 (group read only). Compliant: crontab 0400 "
         "(stricter), every cron.d file 0600; other control: /etc/ssh/sshd_config 0644.",
         files, dict(files), {"playbook.yml": CRON_PLAYBOOK, "policy.rego": CRON_REGO},
         cis_id="5.1.2", title="cron files: owner-only permissions", platform="rhel9",
         vattrs=vattrs, cattrs=cattrs)


CHRONY_HEAD = """# Use public servers from the pool.ntp.org project.
# Please consider joining the pool (https://www.pool.ntp.org/join.html).
{POOL}
# Corporate time servers (NET-3120)
server time1.corp.example iburst
{SERVER2}
# Use NTP servers from DHCP.
{SOURCEDIR}
# Record the rate at which the system clock gains/losses time.
driftfile /var/lib/chrony/drift

# Allow the system clock to be stepped in the first three updates
# if its offset is larger than 1 second.
makestep 1.0 3

# Enable kernel synchronization of the real-time clock (RTC).
rtcsync

# Enable hardware timestamping on all interfaces that support it.
#hwtimestamp *

# Increase the minimum number of selectable sources required to adjust
# the system clock.
#minsources 2

# Allow NTP client access from local network.
{ALLOW}
# Serve time even if not synchronized to a time source.
#local stratum 10

# Require authentication (nts or key option) for all NTP sources.
#authselectmode require

# Specify file containing keys for NTP authentication.
keyfile /etc/chrony.keys

# Save NTS keys and cookies.
ntsdumpdir /var/lib/chrony

# Insert/delete leap seconds by slewing instead of stepping.
#leapsecmode slew

# Get TAI-UTC offset and leap seconds from the system tz database.
leapsectz right/UTC

# Specify directory for log files.
logdir /var/log/chrony

# Select which information is logged.
#log measurements statistics tracking
"""

CHRONY_PLAYBOOK = """---
- name: Collect the chrony configuration
  hosts: rhel9_servers
  gather_facts: false
  tasks:
    - name: Read /etc/chrony.conf
      ansible.builtin.slurp:
        src: /etc/chrony.conf
      register: chrony

    - name: Save collected_data.json
      ansible.builtin.copy:
        content: "{{ {'chrony_conf': chrony.content | b64decode} | to_json }}"
        dest: "{{ playbook_dir }}/collected_data.json"
        mode: "0644"
      delegate_to: localhost
"""

CHRONY_REGO = r'''package check

import rego.v1

default result := true

approved := {"time1.corp.example", "time2.corp.example"}

source_directives := {"server", "pool", "peer", "sourcedir", "refclock"}

directives := [fields |
	some raw in split(input.chrony_conf, "\n")
	l := trim_space(raw)
	l != ""
	not startswith(l, "#")
	not startswith(l, "!")
	not startswith(l, ";")
	fields := regex.split(`\s+`, l)
]

sources := [f | some f in directives; lower(f[0]) in source_directives]

result := false if {
	some f in sources
	not approved_source(f)
}

result := false if {
	count([f | some f in sources; approved_source(f)]) == 0
}

approved_source(f) if {
	lower(f[0]) == "server"
	lower(f[1]) in approved
}
'''


def r3():
    v = {"host/etc/chrony.conf": CHRONY_HEAD.replace("{POOL}", "pool 2.rhel.pool.ntp.org iburst\n")
         .replace("{SERVER2}", "").replace("{SOURCEDIR}", "sourcedir /run/chrony-dhcp\n")
         .replace("{ALLOW}", "#allow 192.168.0.0/16\n")}
    cmp_ = {"host/etc/chrony.conf": CHRONY_HEAD.replace("{POOL}", "#pool 2.rhel.pool.ntp.org iburst\n")
            .replace("{SERVER2}", "server\ttime2.corp.example  iburst prefer\n# server 0.europe.pool.ntp.org iburst\n")
            .replace("{SOURCEDIR}", "#sourcedir /run/chrony-dhcp\n")
            .replace("{ALLOW}", "allow 10.20.0.0/16\n")}
    scen("set20-r-chrony-internal-time", "novel",
         "Per the network team (NET-3120): RHEL servers must take their time only from our own NTP "
         "servers, time1.corp.example and time2.corp.example, configured in /etc/chrony.conf. At "
         "least one of the two must be configured, and chronyd must have no other time source at "
         "all -- no public pools, no other servers or peers, no reference clocks and no servers "
         "learned from DHCP.",
         RH, ["chrony//pool", "chrony//sourcedir"],
         "novel (allow-list of time sources; stated by effect: 'learned from DHCP' = sourcedir "
         "/run/chrony-dhcp). Violating: stock RHEL 9 'pool 2.rhel.pool.ntp.org iburst' still active beside "
         "'server time1.corp.example', and the stock sourcedir line. Compliant: pool and sourcedir commented, "
         "second server written with a tab and extra options, a commented public server; other control: "
         "'allow 10.20.0.0/16' (chronyd serving clients).",
         v, cmp_, {"playbook.yml": CHRONY_PLAYBOOK, "policy.rego": CHRONY_REGO},
         title="Time only from corporate NTP servers", platform="rhel9")


# ===========================================================================
# writer
# ===========================================================================
def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write(text)
    if path.endswith(".sh"):
        os.chmod(path, 0o755)


def scenario_yaml(s):
    d = {"id": s["id"]}
    if s["cis_id"]:
        d["cis_id"] = str(s["cis_id"])
    d["platform"] = s["platform"]
    if s["title"]:
        d["title"] = s["title"]
    d["requirement"] = s["requirement"]
    d["classes"] = s["classes"]
    d["violating_resources"] = s["violating"]
    d["notes"] = s["notes"]
    lines = []
    for k, v in d.items():
        if isinstance(v, list):
            lines.append(f"{k}:")
            lines.extend(f"  - {json.dumps(x)}" for x in v)
        else:
            lines.append(f"{k}: {json.dumps(v)}")
    return "\n".join(lines) + "\n"


def attrs_yaml(a):
    out = []
    for p, d in a.items():
        out.append(f"{p}:")
        for k, v in d.items():
            out.append(f"  {k}: {json.dumps(v)}")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python3 gen.py OUT")
    out = sys.argv[1]
    for f in (c1, c2, c3, c4, c5, c6, n1, n2, n3, n4, n5, r1, r2, r3):
        f()
    ids = [s["id"] for s in SCENARIOS]
    assert len(set(ids)) == len(ids)
    for s in SCENARIOS:
        d = os.path.join(out, s["id"])
        write(os.path.join(d, "scenario.yaml"), scenario_yaml(s))
        for env, files, attrs in (("violating", s["vfiles"], s["vattrs"]), ("compliant", s["cfiles"], s["cattrs"])):
            for name, text in sorted(files.items()):
                write(os.path.join(d, env, name), text)
            if attrs:
                write(os.path.join(d, env, "host-attributes.yaml"), attrs_yaml(attrs))
        for name, text in sorted(s["solution"].items()):
            write(os.path.join(d, "solution", name), text)
    print(f"{len(SCENARIOS)} scenarios written to {out}")


if __name__ == "__main__":
    main()
