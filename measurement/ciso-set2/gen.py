#!/usr/bin/env python3
"""Blind CISO set 2: held-out CISO scenarios in itbench's user scenario format (scenario.yaml,
violating/, compliant/), Kubernetes controls (classes kyverno, kubectl-opa, opa-static) and a few
RHEL 9 ones (rhel9-ansible-opa). Requirements are phrased as an operator, an auditor or a CIS
paragraph would; compliant environments hold near misses. Deterministic, stdlib only.
Usage: python3 gen.py OUTDIR"""
import json, os, re, sys

K8S_CLASSES = ["kyverno", "kubectl-opa", "opa-static"]

# ------------------------------------------------------------------ a small block-YAML writer
PLAIN = re.compile(r"^[A-Za-z_/][A-Za-z0-9_./@-]*$")
RESERVED = {"true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"}


def scalar(v):
    if v is True: return "true"
    if v is False: return "false"
    if v is None: return "null"
    if isinstance(v, (int, float)): return str(v)
    s = str(v)
    if PLAIN.match(s) and s.lower() not in RESERVED:
        return s
    return json.dumps(s)


def dump(v, ind=0):
    pad = " " * ind
    out = []
    if isinstance(v, dict):
        if not v:
            return pad + "{}\n"
        for k, x in v.items():
            if isinstance(x, (dict, list)) and x:
                out.append(f"{pad}{scalar(k)}:\n{dump(x, ind + 2)}")
            else:
                out.append(f"{pad}{scalar(k)}: {inline(x)}\n")
    elif isinstance(v, list):
        if not v:
            return pad + "[]\n"
        for x in v:
            if isinstance(x, dict) and x:
                body = dump(x, ind + 2)
                out.append(pad + "- " + body[ind + 2:])
            elif isinstance(x, list) and x:
                out.append(f"{pad}-\n{dump(x, ind + 2)}")
            else:
                out.append(f"{pad}- {inline(x)}\n")
    else:
        out.append(pad + scalar(v) + "\n")
    return "".join(out)


def inline(x):
    if isinstance(x, dict) and not x: return "{}"
    if isinstance(x, list) and not x: return "[]"
    return scalar(x)


def docs(objs):
    return "".join("---\n" + dump(o) for o in objs)


# ------------------------------------------------------------------ k8s builders
def ns(name, labels=None):
    o = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}
    if labels: o["metadata"]["labels"] = labels
    return o


def ctr(name, image, **kw):
    c = {"name": name, "image": image}
    c.update(kw)
    return c


def podspec(containers, init=None, **kw):
    s = {}
    s.update({k: v for k, v in kw.items() if k not in ("ephemeral",)})
    if init: s["initContainers"] = init
    s["containers"] = containers
    if kw.get("ephemeral"): s["ephemeralContainers"] = kw["ephemeral"]
    return s


def meta(name, namespace, labels=None):
    m = {"name": name}
    if namespace: m["namespace"] = namespace
    m["labels"] = labels or {"app.kubernetes.io/name": name}
    return m


def tmpl(name, spec):
    return {"metadata": {"labels": {"app.kubernetes.io/name": name}}, "spec": spec}


def deploy(namespace, name, spec, replicas=2):
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta(name, namespace),
            "spec": {"replicas": replicas, "selector": {"matchLabels": {"app.kubernetes.io/name": name}},
                     "template": tmpl(name, spec)}}


def sts(namespace, name, spec):
    return {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": meta(name, namespace),
            "spec": {"serviceName": name, "replicas": 1,
                     "selector": {"matchLabels": {"app.kubernetes.io/name": name}}, "template": tmpl(name, spec)}}


def ds(namespace, name, spec):
    return {"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": meta(name, namespace),
            "spec": {"selector": {"matchLabels": {"app.kubernetes.io/name": name}}, "template": tmpl(name, spec)}}


def job(namespace, name, spec):
    spec = dict(spec); spec.setdefault("restartPolicy", "Never")
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": meta(name, namespace),
            "spec": {"backoffLimit": 2, "template": tmpl(name, spec)}}


def cron(namespace, name, spec, schedule="17 3 * * *"):
    spec = dict(spec); spec.setdefault("restartPolicy", "OnFailure")
    return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": meta(name, namespace),
            "spec": {"schedule": schedule, "jobTemplate": {"spec": {"template": tmpl(name, spec)}}}}


def pod(namespace, name, spec):
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta(name, namespace), "spec": spec}


def svc(namespace, name, port=80, typ=None):
    o = {"apiVersion": "v1", "kind": "Service", "metadata": meta(name, namespace),
         "spec": {"selector": {"app.kubernetes.io/name": name}, "ports": [{"port": port, "targetPort": port}]}}
    if typ: o["spec"]["type"] = typ
    return o


def cm(namespace, name, data):
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta(name, namespace), "data": data}


def secret(namespace, name, data):
    return {"apiVersion": "v1", "kind": "Secret", "metadata": meta(name, namespace), "type": "Opaque", "stringData": data}


def sa(namespace, name, automount=None):
    o = {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": name, "namespace": namespace}}
    if automount is not None: o["automountServiceAccountToken"] = automount
    return o


def role(namespace, name, rules, cluster=False):
    o = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole" if cluster else "Role",
         "metadata": {"name": name} if cluster else {"name": name, "namespace": namespace}, "rules": rules}
    return o


def binding(namespace, name, role_kind, role_name, subjects, cluster=False):
    return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding" if cluster else "RoleBinding",
            "metadata": {"name": name} if cluster else {"name": name, "namespace": namespace},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": role_kind, "name": role_name},
            "subjects": subjects}


def user(n): return {"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": n}
def group(n): return {"apiGroup": "rbac.authorization.k8s.io", "kind": "Group", "name": n}
def sasub(ns_, n): return {"kind": "ServiceAccount", "name": n, "namespace": ns_}


def netpol(namespace, name, selector=None, ingress=None, types=("Ingress",), ns_selector=None):
    spec = {"podSelector": selector or {}, "policyTypes": list(types)}
    if ingress is not None: spec["ingress"] = ingress
    return {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
            "metadata": {"name": name, "namespace": namespace}, "spec": spec}


def rid(o):
    m = o["metadata"]
    return f"{o['kind']}/{m.get('namespace', '')}/{m['name']}"


# hardened container security context (clean w.r.t. every pod-security control used here)
HARD = {"allowPrivilegeEscalation": False, "runAsNonRoot": True, "readOnlyRootFilesystem": True,
        "capabilities": {"drop": ["ALL"]}, "seccompProfile": {"type": "RuntimeDefault"}}


def hard(**over):
    h = json.loads(json.dumps(HARD))
    for k, v in over.items():
        if v is None: h.pop(k, None)
        else: h[k] = v
    return h


IMG = {"web": "registry.acme.internal/web/storefront:4.12.1", "api": "registry.acme.internal/api/orders:2.3.0",
       "proxy": "docker.io/envoyproxy/envoy:v1.31.2", "log": "cr.fluentbit.io/fluent/fluent-bit:3.1.9",
       "busy": "docker.io/library/busybox:1.36.1", "pg": "docker.io/library/postgres:16.4",
       "redis": "docker.io/library/redis:7.4.1", "node": "quay.io/prometheus/node-exporter:v1.8.2",
       "job": "registry.acme.internal/batch/reconcile:0.9.4", "dbg": "docker.io/nicolaka/netshoot:v0.13"}


# ------------------------------------------------------------------ scenarios
SCEN = []


def scenario(fn):
    SCEN.append(fn)
    return fn


def S(id_, cis, voice, req, violating, compliant, bad, notes, label_why, title=None, platform="kubernetes",
      classes=None, debatable=False):
    return dict(id=id_, cis=cis, voice=voice, requirement=req, violating=violating, compliant=compliant,
                bad=bad, notes=notes, why=label_why, title=title, platform=platform,
                classes=classes or K8S_CLASSES, debatable=debatable)


@scenario
def privesc():
    good = hard()
    v = [ns("checkout"), ns("ops"),
         deploy("checkout", "cart", podspec([ctr("cart", IMG["api"], securityContext=hard()),
                                             ctr("envoy", IMG["proxy"], securityContext=hard(allowPrivilegeEscalation=True))])),
         cron("ops", "cert-rotate", podspec([ctr("rotate", IMG["job"], securityContext=hard())],
                                            init=[ctr("fetch-ca", IMG["busy"], command=["sh", "-c", "cp /ca/* /work/"],
                                                      securityContext=hard(allowPrivilegeEscalation=True))])),
         deploy("checkout", "pricing", podspec([ctr("pricing", IMG["api"], securityContext=good)]))]
    c = [ns("checkout"), ns("ops"),
         deploy("checkout", "cart", podspec([ctr("cart", IMG["api"], securityContext=hard()),
                                             ctr("envoy", IMG["proxy"], securityContext=hard())])),
         cron("ops", "cert-rotate", podspec([ctr("rotate", IMG["job"], securityContext=hard())],
                                            init=[ctr("fetch-ca", IMG["busy"], securityContext=hard())])),
         deploy("checkout", "pricing", podspec([ctr("pricing", IMG["api"], securityContext=good,
                                                    env=[{"name": "ALLOW_PRIVILEGE_ESCALATION", "value": "true"}])])),
         cm("ops", "psp-notes", {"legacy.yaml": "allowPrivilegeEscalation: true  # old PSP, removed\n"})]
    return S("set2-no-setuid-gain", "5.2.6", "effect",
             "No process in any of our containers may be able to gain more privileges than the process that "
             "started it (for instance through a setuid binary): every container, init containers included, "
             "must explicitly switch that ability off.",
             v, c, [rid(v[2]), rid(v[3])],
             "allowPrivilegeEscalation: true on a sidecar (second container) and on a CronJob's init container. "
             "Near misses: an env variable and a ConfigMap text naming the field.",
             "both set allowPrivilegeEscalation: true; every compliant container sets it false")


@scenario
def hostpid():
    v = [ns("monitoring"), ns("kube-system"), ns("search"),
         ds("monitoring", "proc-agent", podspec([ctr("agent", IMG["node"], securityContext=hard())], hostPID=True)),
         sts("search", "indexer", podspec([ctr("indexer", IMG["api"], securityContext=hard())], hostPID=True)),
         deploy("search", "query", podspec([ctr("query", IMG["api"], securityContext=hard())]))]
    c = [ns("monitoring"), ns("kube-system"), ns("search"),
         ds("monitoring", "proc-agent", podspec([ctr("agent", IMG["node"], securityContext=hard())], hostPID=False)),
         sts("search", "indexer", podspec([ctr("indexer", IMG["api"], securityContext=hard()),
                                           ctr("reaper", IMG["busy"], securityContext=hard())], shareProcessNamespace=True)),
         deploy("search", "query", podspec([ctr("query", IMG["api"], securityContext=hard())])),
         ds("kube-system", "node-problem-detector", podspec([ctr("npd", "registry.k8s.io/node-problem-detector/node-problem-detector:v0.8.19",
                                                                  securityContext=hard())], hostPID=True))]
    return S("set2-node-process-visibility", "5.2.3", "auditor",
             "Audit finding: some workloads can see and signal every process running on their node because they "
             "share the node's process ID namespace. Remediate so that no workload outside kube-system does this "
             "(kube-system is exempt).",
             v, c, [rid(v[3]), rid(v[4])],
             "hostPID: true on a DaemonSet and a StatefulSet. Near misses: shareProcessNamespace: true (process "
             "sharing between the pod's own containers, not the node's) and hostPID in kube-system (exempt).",
             "hostPID true outside kube-system")


@scenario
def hostipc():
    v = [ns("media"),
         job("media", "transcode-batch", podspec([ctr("ffmpeg", IMG["job"], securityContext=hard())], hostIPC=True)),
         deploy("media", "thumbnailer", podspec([ctr("thumb", IMG["api"], securityContext=hard())], hostIPC=True)),
         deploy("media", "uploader", podspec([ctr("up", IMG["api"], securityContext=hard())]))]
    shm = {"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "1Gi"}}
    c = [ns("media"),
         job("media", "transcode-batch", podspec([ctr("ffmpeg", IMG["job"], securityContext=hard(),
                                                      volumeMounts=[{"name": "dshm", "mountPath": "/dev/shm"}])],
                                                 volumes=[shm], hostIPC=False)),
         deploy("media", "thumbnailer", podspec([ctr("thumb", IMG["api"], securityContext=hard())])),
         deploy("media", "uploader", podspec([ctr("up", IMG["api"], securityContext=hard())]))]
    return S("set2-cis-host-ipc", "5.2.4", "CIS",
             "5.2.4 Minimize the admission of containers wishing to share the host IPC namespace. A container "
             "running in the host's IPC namespace can use IPC to interact with processes outside of the container. "
             "Do not generally permit containers to be run with the hostIPC flag set to true.",
             v, c, [rid(v[1]), rid(v[2])],
             "hostIPC: true on a Job and a Deployment. Near miss: a memory-backed emptyDir at /dev/shm (the usual "
             "way to get shared memory without the host's IPC namespace), hostIPC: false written out.",
             "hostIPC true")


@scenario
def netraw():
    v = [ns("edge"), ns("diag"),
         deploy("edge", "gateway", podspec([ctr("gw", IMG["proxy"], securityContext=hard(capabilities={"drop": ["ALL"]})),
                                            ctr("health", IMG["busy"], securityContext=hard(capabilities={"drop": ["NET_ADMIN"]}))])),
         pod("diag", "pinger", podspec([ctr("ping", IMG["dbg"], securityContext=hard(capabilities={"drop": ["ALL"], "add": ["NET_RAW"]}))])),
         deploy("edge", "ratelimit", podspec([ctr("rl", IMG["api"], securityContext=hard(capabilities={"drop": ["NET_RAW", "SYS_CHROOT"]}))]))]
    c = [ns("edge"), ns("diag"),
         deploy("edge", "gateway", podspec([ctr("gw", IMG["proxy"], securityContext=hard(capabilities={"drop": ["ALL"], "add": ["NET_BIND_SERVICE"]})),
                                            ctr("health", IMG["busy"], securityContext=hard(capabilities={"drop": ["NET_ADMIN", "NET_RAW"]}))])),
         pod("diag", "pinger", podspec([ctr("ping", IMG["dbg"], securityContext=hard(capabilities={"drop": ["ALL"]}))])),
         deploy("edge", "ratelimit", podspec([ctr("rl", IMG["api"], securityContext=hard(capabilities={"drop": ["NET_RAW", "SYS_CHROOT"]}))]))]
    return S("set2-raw-sockets", "5.2.8", "operator",
             "Containers must not be able to open raw sockets (no crafting packets, no ping from inside a pod): each "
             "container has to drop the NET_RAW capability, either by name or by dropping ALL, and none may add it back.",
             v, c, [rid(v[2]), rid(v[3])],
             "gateway's second container drops only NET_ADMIN (keeps NET_RAW); the bare Pod drops ALL but adds "
             "NET_RAW back. Near misses: drop ALL + add NET_BIND_SERVICE; drop [NET_ADMIN, NET_RAW]; ratelimit "
             "drops NET_RAW by name (also in the violating environment, compliant).",
             "NET_RAW kept or added back")


@scenario
def addcaps():
    v = [ns("storage"), ns("net"),
         sts("storage", "ceph-mon", podspec([ctr("mon", "quay.io/ceph/ceph:v18.2.4", securityContext=hard())],
                                            init=[ctr("prep", IMG["busy"], securityContext=hard(capabilities={"drop": ["ALL"], "add": ["SYS_ADMIN"]}))])),
         deploy("net", "vpn", podspec([ctr("wg", "lscr.io/linuxserver/wireguard:1.0.20210914",
                                           securityContext=hard(capabilities={"add": ["NET_ADMIN"]}))])),
         deploy("net", "dns", podspec([ctr("coredns", "registry.k8s.io/coredns/coredns:v1.11.3", securityContext=hard())]))]
    c = [ns("storage"), ns("net"),
         sts("storage", "ceph-mon", podspec([ctr("mon", "quay.io/ceph/ceph:v18.2.4", securityContext=hard())],
                                            init=[ctr("prep", IMG["busy"], securityContext=hard(capabilities={"drop": ["ALL"], "add": []}))])),
         deploy("net", "vpn", podspec([ctr("wg", "lscr.io/linuxserver/wireguard:1.0.20210914",
                                           securityContext=hard(capabilities={"drop": ["ALL", "NET_ADMIN"]}))])),
         deploy("net", "dns", podspec([ctr("coredns", "registry.k8s.io/coredns/coredns:v1.11.3", securityContext=hard())]))]
    return S("set2-no-extra-capabilities", "5.2.9", "operator",
             "Nobody gets extra kernel capabilities: no container or init container may request any Linux capability "
             "on top of the runtime's default set (its capabilities.add must be absent or empty). Dropping "
             "capabilities is always fine.",
             v, c, [rid(v[2]), rid(v[3])],
             "SYS_ADMIN added by a StatefulSet's init container, NET_ADMIN by a Deployment. Near misses: `add: []`, "
             "NET_ADMIN listed under drop.",
             "a non-empty capabilities.add")


@scenario
def hostpath():
    v = [ns("logging"), ns("ci"),
         ds("logging", "shipper", podspec([ctr("fluent-bit", IMG["log"], securityContext=hard(),
                                                volumeMounts=[{"name": "varlog", "mountPath": "/var/log", "readOnly": True}])],
                                          volumes=[{"name": "varlog", "hostPath": {"path": "/var/log", "type": "Directory"}}])),
         cron("ci", "image-prune", podspec([ctr("prune", "docker.io/library/docker:27.3-cli", securityContext=hard(),
                                                volumeMounts=[{"name": "sock", "mountPath": "/var/run/docker.sock"}])],
                                           volumes=[{"name": "sock", "hostPath": {"path": "/var/run/docker.sock", "type": "Socket"}}]),
              schedule="0 4 * * 0"),
         deploy("ci", "runner", podspec([ctr("runner", IMG["job"], securityContext=hard(),
                                             volumeMounts=[{"name": "work", "mountPath": "/work"}])],
                                        volumes=[{"name": "work", "emptyDir": {}}]))]
    c = [ns("logging"), ns("ci"),
         ds("logging", "shipper", podspec([ctr("fluent-bit", IMG["log"], securityContext=hard(),
                                                volumeMounts=[{"name": "host-logs", "mountPath": "/var/log"}])],
                                          volumes=[{"name": "host-logs", "persistentVolumeClaim": {"claimName": "shipper-buffer"}}])),
         {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "shipper-buffer", "namespace": "logging"},
          "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "5Gi"}}}},
         cron("ci", "image-prune", podspec([ctr("prune", IMG["job"], securityContext=hard(),
                                                volumeMounts=[{"name": "cfg", "mountPath": "/etc/prune"},
                                                              {"name": "podinfo", "mountPath": "/etc/podinfo"}])],
                                           volumes=[{"name": "cfg", "configMap": {"name": "prune-cfg"}},
                                                    {"name": "podinfo", "downwardAPI": {"items": [{"path": "labels", "fieldRef": {"fieldPath": "metadata.labels"}}]}}]),
              schedule="0 4 * * 0"),
         cm("ci", "prune-cfg", {"hostPath": "/var/run/docker.sock", "mode": "dry-run"}),
         deploy("ci", "runner", podspec([ctr("runner", IMG["job"], securityContext=hard(),
                                             volumeMounts=[{"name": "work", "mountPath": "/work"}])],
                                        volumes=[{"name": "work", "emptyDir": {}}]))]
    return S("set2-node-filesystem", "5.2.12", "operator",
             "Don't let any pod mount a directory or file of the node's own filesystem into its containers (no "
             "hostPath volumes, not even read-only); ephemeral, ConfigMap, Secret, downward-API and claim-backed "
             "volumes are all fine.",
             v, c, [rid(v[2]), rid(v[3])],
             "hostPath /var/log on a DaemonSet and the Docker socket on a CronJob. Near misses: a volume named "
             "host-logs that is a PVC, a ConfigMap whose data key is `hostPath`, downwardAPI and emptyDir volumes.",
             "a hostPath volume in the pod spec")


@scenario
def hostports():
    v = [ns("ingress"), ns("metrics"),
         deploy("ingress", "edge-proxy", podspec([ctr("envoy", IMG["proxy"], securityContext=hard(),
                                                      ports=[{"containerPort": 8443, "hostPort": 443, "protocol": "TCP"}])])),
         ds("metrics", "node-stats", podspec([ctr("exporter", IMG["node"], securityContext=hard(), ports=[{"containerPort": 9100}]),
                                              ctr("kube-rbac-proxy", "quay.io/brancz/kube-rbac-proxy:v0.18.1", securityContext=hard(),
                                                  ports=[{"containerPort": 9443, "hostPort": 9443}])]))]
    c = [ns("ingress"), ns("metrics"),
         deploy("ingress", "edge-proxy", podspec([ctr("envoy", IMG["proxy"], securityContext=hard(),
                                                      ports=[{"containerPort": 8443, "name": "https", "protocol": "TCP"}])])),
         svc("ingress", "edge-proxy", 8443, typ="NodePort"),
         ds("metrics", "node-stats", podspec([ctr("exporter", IMG["node"], securityContext=hard(), ports=[{"containerPort": 9100}]),
                                              ctr("kube-rbac-proxy", "quay.io/brancz/kube-rbac-proxy:v0.18.1", securityContext=hard(),
                                                  ports=[{"containerPort": 9443, "name": "host-port"}])]))]
    return S("set2-auditor-host-ports", "5.2.13", "auditor",
             "Finding: some containers bind ports directly on the node's network interfaces, bypassing Services and "
             "network policy. Requirement: no container in any namespace may declare a hostPort.",
             v, c, [rid(v[2]), rid(v[3])],
             "hostPort 443 on a Deployment, hostPort 9443 on a DaemonSet's second container. Near misses: a "
             "NodePort Service (not a hostPort), a port named `host-port` without a hostPort.",
             "a hostPort on a container port")


@scenario
def rootctr():
    v = [ns("payments"),
         pod("payments", "migrate-once", podspec([ctr("migrate", IMG["job"], securityContext=hard(runAsNonRoot=None, runAsUser=0))])),
         deploy("payments", "ledger", podspec([ctr("ledger", IMG["api"], securityContext={"allowPrivilegeEscalation": False})])),
         sts("payments", "vault-agent", podspec([ctr("agent", IMG["api"], securityContext=hard(runAsNonRoot=None)),
                                                 ctr("unsealer", IMG["busy"], securityContext=hard(runAsNonRoot=None, runAsUser=0))],
                                                securityContext={"runAsNonRoot": True, "runAsUser": 10001})),
         deploy("payments", "fx-rates", podspec([ctr("fx", IMG["api"], securityContext=hard(runAsNonRoot=None))],
                                                securityContext={"runAsUser": 2000}))]
    c = [ns("payments"),
         pod("payments", "migrate-once", podspec([ctr("migrate", IMG["job"], securityContext=hard(runAsNonRoot=None, runAsUser=1001))])),
         deploy("payments", "ledger", podspec([ctr("ledger", IMG["api"], securityContext={"allowPrivilegeEscalation": False})],
                                              securityContext={"runAsNonRoot": True})),
         sts("payments", "vault-agent", podspec([ctr("agent", IMG["api"], securityContext=hard(runAsNonRoot=None)),
                                                 ctr("unsealer", IMG["busy"], securityContext=hard(runAsNonRoot=None, runAsGroup=0))],
                                                securityContext={"runAsNonRoot": True, "runAsUser": 10001})),
         deploy("payments", "fx-rates", podspec([ctr("fx", IMG["api"], securityContext=hard(runAsNonRoot=None))],
                                                securityContext={"runAsUser": 2000}))]
    return S("set2-cis-root-containers", "5.2.7", "CIS",
             "5.2.7 Minimize the admission of root containers. Containers may run as any Linux user, and containers "
             "which run as the root user, whilst constrained by Container Runtime security features, still have an "
             "escalated likelihood of container breakout. No pod or container may set runAsUser to 0, and every "
             "container must be guaranteed a non-root user: runAsNonRoot: true or a runAsUser other than 0, set on "
             "the container or inherited from the pod's securityContext.",
             v, c, [rid(v[1]), rid(v[2]), rid(v[3])],
             "runAsUser 0 on a bare Pod; a Deployment with no user setting at all; a StatefulSet whose pod says "
             "non-root but whose second container overrides runAsUser 0. Near misses: pod-level runAsNonRoot "
             "inherited, runAsUser 2000 at pod level only (also in the violating env), runAsGroup: 0 (group, not user).",
             "runAsUser 0 or no non-root guarantee")


@scenario
def seccomp():
    v = [ns("analytics"),
         deploy("analytics", "spark-driver", podspec([ctr("driver", IMG["job"], securityContext=hard(seccompProfile=None))])),
         pod("analytics", "notebook", podspec([ctr("jupyter", "quay.io/jupyter/base-notebook:2024-10-07",
                                                   securityContext=hard(seccompProfile={"type": "Unconfined"}))],
                                              securityContext={"seccompProfile": {"type": "RuntimeDefault"}})),
         job("analytics", "compact", podspec([ctr("compact", IMG["job"], securityContext=hard(seccompProfile=None))],
                                             securityContext={"seccompProfile": {"type": "RuntimeDefault"}}))]
    c = [ns("analytics"),
         deploy("analytics", "spark-driver", podspec([ctr("driver", IMG["job"], securityContext=hard(seccompProfile=None))],
                                                     securityContext={"seccompProfile": {"type": "RuntimeDefault"}})),
         pod("analytics", "notebook", podspec([ctr("jupyter", "quay.io/jupyter/base-notebook:2024-10-07",
                                                   securityContext=hard(seccompProfile={"type": "Localhost", "localhostProfile": "profiles/jupyter.json"}))],
                                              securityContext={"seccompProfile": {"type": "RuntimeDefault"}})),
         job("analytics", "compact", podspec([ctr("compact", IMG["job"], securityContext=hard(seccompProfile=None))],
                                             securityContext={"seccompProfile": {"type": "RuntimeDefault"}}))]
    return S("set2-syscall-filter", "5.7.2", "operator",
             "Every container must run under a seccomp syscall filter: the runtime's default profile or a "
             "node-local one (type RuntimeDefault or Localhost), set on the container or inherited from its pod. "
             "Unconfined, or no profile at all, is not acceptable.",
             v, c, [rid(v[1]), rid(v[2])],
             "no profile anywhere on a Deployment; a Pod whose container overrides the pod's RuntimeDefault with "
             "Unconfined. Near misses: pod-level RuntimeDefault inherited (the Job, also in the violating env), "
             "a Localhost profile.",
             "no effective RuntimeDefault/Localhost profile")


@scenario
def defaultns():
    v = [deploy("default", "quick-test", podspec([ctr("t", IMG["web"], securityContext=hard())]), replicas=1),
         svc("default", "quick-test", 8080),
         cm("default", "quick-test-config", {"MODE": "demo"}),
         svc("default", "kubernetes", 443),
         sa("default", "default"),
         ns("shop"), deploy("shop", "storefront", podspec([ctr("web", IMG["web"], securityContext=hard())]))]
    v[3]["metadata"] = {"name": "kubernetes", "namespace": "default", "labels": {"component": "apiserver", "provider": "kubernetes"}}
    v[3]["spec"] = {"ports": [{"name": "https", "port": 443, "protocol": "TCP", "targetPort": 6443}]}
    root_ca = cm("default", "kube-root-ca.crt", {"ca.crt": "-----BEGIN CERTIFICATE-----\nMIIB...snip...\n-----END CERTIFICATE-----\n"})
    root_ca["metadata"].pop("labels")
    v.append(root_ca)
    c = [v[3], v[4], root_ca, ns("shop"), ns("sandbox"),
         deploy("shop", "storefront", podspec([ctr("web", IMG["web"], securityContext=hard())])),
         deploy("sandbox", "quick-test", podspec([ctr("t", IMG["web"], securityContext=hard())]), replicas=1),
         svc("sandbox", "quick-test", 8080),
         cm("shop", "defaults", {"namespace": "default"})]
    return S("set2-auditor-default-namespace", "5.7.4", "auditor",
             "Audit point: resources must be segregated into their own namespaces. Nothing we deploy may be placed in "
             "the `default` namespace; the objects Kubernetes itself keeps there (the `kubernetes` Service, the "
             "`default` ServiceAccount, the `kube-root-ca.crt` ConfigMap) are not findings.",
             v, c, [rid(v[0]), rid(v[1]), rid(v[2])],
             "a Deployment, its Service and a ConfigMap in `default`. Near misses: the built-in objects of "
             "`default` (in both environments), the same app in namespace `sandbox`, a ConfigMap whose data says "
             "`default`.",
             "user objects in namespace default", debatable=False)


@scenario
def netpols():
    v = [ns("orders"), ns("reports"), ns("batch"), ns("kube-system"),
         netpol("orders", "default-deny", types=("Ingress", "Egress")),
         netpol("orders", "allow-batch-to-orders", selector={"matchLabels": {"app.kubernetes.io/name": "orders-api"}},
                ingress=[{"from": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "batch"}}}]}]),
         deploy("orders", "orders-api", podspec([ctr("api", IMG["api"], securityContext=hard())])),
         deploy("reports", "renderer", podspec([ctr("r", IMG["api"], securityContext=hard())])),
         cron("batch", "nightly", podspec([ctr("n", IMG["job"], securityContext=hard())]))]
    c = [ns("orders"), ns("reports"), ns("batch"), ns("kube-system"),
         netpol("orders", "default-deny", types=("Ingress", "Egress")),
         netpol("orders", "allow-batch-to-orders", selector={"matchLabels": {"app.kubernetes.io/name": "orders-api"}},
                ingress=[{"from": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "batch"}}}]}]),
         netpol("reports", "renderer-only-from-orders", selector={"matchLabels": {"app.kubernetes.io/name": "renderer"}},
                ingress=[{"from": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "orders"}}}]}]),
         netpol("batch", "deny-ingress"),
         deploy("orders", "orders-api", podspec([ctr("api", IMG["api"], securityContext=hard())])),
         deploy("reports", "renderer", podspec([ctr("r", IMG["api"], securityContext=hard())])),
         cron("batch", "nightly", podspec([ctr("n", IMG["job"], securityContext=hard())]))]
    return S("set2-namespace-isolation", "5.3.2", "effect",
             "Each application namespace must be isolated at the network level: it must contain at least one "
             "NetworkPolicy object of its own. Namespaces kube-system, kube-public, kube-node-lease and default are "
             "out of scope.",
             v, c, ["Namespace//reports", "Namespace//batch"],
             "`reports` has no NetworkPolicy; `batch` has none either, it is only *named* by a policy living in "
             "`orders` (near miss the other way round). Compliant: every application namespace holds one, one of "
             "them selecting a single app; kube-system has none (out of scope).",
             "an application namespace without its own NetworkPolicy")


@scenario
def secretenv():
    v = [ns("crm"),
         secret("crm", "db-creds", {"username": "crm", "password": "s3cr3t-example"}),
         cm("crm", "crm-settings", {"LOG_LEVEL": "info"}),
         deploy("crm", "contacts", podspec([ctr("contacts", IMG["api"], securityContext=hard(),
                                                env=[{"name": "LOG_LEVEL", "valueFrom": {"configMapKeyRef": {"name": "crm-settings", "key": "LOG_LEVEL"}}},
                                                     {"name": "DB_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "db-creds", "key": "password"}}}])])),
         cron("crm", "sync", podspec([ctr("sync", IMG["job"], securityContext=hard(), envFrom=[{"secretRef": {"name": "db-creds"}}])])),
         deploy("crm", "web", podspec([ctr("web", IMG["web"], securityContext=hard(), envFrom=[{"configMapRef": {"name": "crm-settings"}}])]))]
    mount = [{"name": "creds", "mountPath": "/var/run/secrets/crm", "readOnly": True}]
    vol = [{"name": "creds", "secret": {"secretName": "db-creds", "defaultMode": 0o400}}]
    c = [ns("crm"), v[1], v[2],
         deploy("crm", "contacts", podspec([ctr("contacts", IMG["api"], securityContext=hard(), volumeMounts=mount,
                                                env=[{"name": "LOG_LEVEL", "valueFrom": {"configMapKeyRef": {"name": "crm-settings", "key": "LOG_LEVEL"}}},
                                                     {"name": "DB_PASSWORD_FILE", "value": "/var/run/secrets/crm/password"}])], volumes=vol)),
         cron("crm", "sync", podspec([ctr("sync", IMG["job"], securityContext=hard(), volumeMounts=mount)], volumes=vol)),
         deploy("crm", "web", podspec([ctr("web", IMG["web"], securityContext=hard(), envFrom=[{"configMapRef": {"name": "crm-settings"}}])]))]
    return S("set2-secrets-in-files", "5.4.1", "operator",
             "Applications must read their secrets from mounted files, never from environment variables: no container "
             "may take an environment variable from a Secret, one key at a time or the whole Secret at once.",
             v, c, [rid(v[3]), rid(v[4])],
             "secretKeyRef env on a Deployment, envFrom secretRef on a CronJob. Near misses: configMapKeyRef and "
             "envFrom configMapRef, an env variable DB_PASSWORD_FILE holding a path, Secret volumes.",
             "env sourced from a Secret")


@scenario
def clusteradmin():
    v = [ns("ci"),
         sa("ci", "deployer"),
         binding(None, "ci-deployer-admin", "ClusterRole", "cluster-admin", [sasub("ci", "deployer")], cluster=True),
         binding("ci", "contractor-full", "ClusterRole", "cluster-admin", [user("jane@contractor.example")]),
         binding(None, "platform-admins", "ClusterRole", "cluster-admin", [group("platform-admins")], cluster=True),
         binding(None, "cluster-admin", "ClusterRole", "cluster-admin", [group("system:masters")], cluster=True)]
    c = [ns("ci"), sa("ci", "deployer"),
         binding(None, "ci-deployer-admin", "ClusterRole", "admin", [sasub("ci", "deployer")], cluster=True),
         binding("ci", "contractor-full", "ClusterRole", "edit", [user("jane@contractor.example")]),
         role(None, "cluster-admin-view", [{"apiGroups": [""], "resources": ["nodes", "namespaces"], "verbs": ["get", "list"]}], cluster=True),
         binding(None, "sre-cluster-admin-view", "ClusterRole", "cluster-admin-view", [group("sre")], cluster=True),
         v[4], v[5]]
    return S("set2-auditor-cluster-admin", "5.1.1", "auditor",
             "Auditor's finding: the cluster-admin role is granted more widely than needed. Only the group "
             "`platform-admins` and the bootstrap group `system:masters` may be bound to the ClusterRole "
             "cluster-admin, through a ClusterRoleBinding or a RoleBinding; any other binding to it is a finding.",
             v, c, ["ClusterRoleBinding//ci-deployer-admin", "RoleBinding/ci/contractor-full"],
             "cluster-admin bound to a ServiceAccount (cluster-wide) and to a user through a namespaced RoleBinding. "
             "Near misses: the allowed bindings (in both environments), bindings to `admin` and `edit`, a "
             "ClusterRole named cluster-admin-view.",
             "binding to cluster-admin with a subject other than the two groups")


@scenario
def wildcards():
    v = [ns("apps"),
         role(None, "release-manager", [{"apiGroups": [""], "resources": ["configmaps"], "verbs": ["get", "list"]},
                                        {"apiGroups": ["apps"], "resources": ["deployments"], "verbs": ["*"]}], cluster=True),
         role("apps", "app-operator", [{"apiGroups": ["apps"], "resources": ["*"], "verbs": ["get", "list", "watch"]}]),
         role(None, "debug-everything", [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["get"]}], cluster=True),
         role(None, "system:controller:demo-reconciler", [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]}], cluster=True)]
    c = [ns("apps"),
         role(None, "release-manager", [{"apiGroups": [""], "resources": ["configmaps"], "verbs": ["get", "list"]},
                                        {"apiGroups": ["apps"], "resources": ["deployments"], "verbs": ["get", "list", "watch", "update", "patch"]}], cluster=True),
         role("apps", "app-operator", [{"apiGroups": ["apps"], "resources": ["deployments", "statefulsets", "replicasets"],
                                        "verbs": ["get", "list", "watch"], "resourceNames": []}]),
         {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "monitoring-aggregate"},
          "aggregationRule": {"clusterRoleSelectors": [{"matchLabels": {"rbac.acme.io/aggregate-to-monitoring": "true"}}]}, "rules": []},
         v[4]]
    return S("set2-cis-rbac-wildcards", "5.1.3", "CIS",
             "5.1.3 Minimize wildcard use in Roles and ClusterRoles. Kubernetes Roles and ClusterRoles provide access "
             "to resources based on sets of objects and actions that can be taken on those objects. It is possible to "
             "set either of these to be the wildcard \"*\" which matches all items. Use of wildcards is not optimal "
             "from a security perspective as it may allow for inadvertent access to be granted when new resources "
             "are added to the Kubernetes API either as CRDs or in later versions of the product. Roles and "
             "ClusterRoles whose names begin with `system:` are maintained by Kubernetes and out of scope.",
             v, c, ["ClusterRole//release-manager", "Role/apps/app-operator", "ClusterRole//debug-everything"],
             "`*` verbs in a second rule, `*` resources in a Role, `*` everywhere in a ClusterRole. Near misses: an "
             "aggregated ClusterRole with no rules, an empty resourceNames list, a `system:` role full of wildcards "
             "(exempt, in both environments).",
             "`*` in verbs or resources of a non-system role")


@scenario
def createpods():
    v = [ns("team-a"),
         role("team-a", "dev", [{"apiGroups": [""], "resources": ["pods", "pods/log"], "verbs": ["get", "list", "watch"]},
                                {"apiGroups": [""], "resources": ["pods"], "verbs": ["create", "delete"]}]),
         role(None, "pod-janitor", [{"apiGroups": [""], "resources": ["pods"], "verbs": ["*"]}], cluster=True),
         role("team-a", "ops", [{"apiGroups": [""], "resources": ["*"], "verbs": ["create"]}]),
         role(None, "system:controller:replicaset-controller", [{"apiGroups": [""], "resources": ["pods"], "verbs": ["create", "delete", "list", "watch", "patch"]}], cluster=True)]
    c = [ns("team-a"),
         role("team-a", "dev", [{"apiGroups": [""], "resources": ["pods", "pods/log"], "verbs": ["get", "list", "watch"]},
                                {"apiGroups": ["apps"], "resources": ["deployments"], "verbs": ["create", "update"]}]),
         role(None, "pod-janitor", [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "list", "delete", "deletecollection"]}], cluster=True),
         role("team-a", "ops", [{"apiGroups": [""], "resources": ["configmaps", "podtemplates"], "verbs": ["create"]}]),
         v[4]]
    return S("set2-who-can-start-pods", "5.1.4", "operator",
             "Nobody except the cluster's own controllers should be able to start pods directly. No Role or ClusterRole "
             "may grant the create verb on the core `pods` resource (a `*` verb or a `*` resource counts as granting "
             "it); roles whose names start with `system:` are exempt. Creating Deployments and other controllers is "
             "out of scope here.",
             v, c, ["Role/team-a/dev", "ClusterRole//pod-janitor", "Role/team-a/ops"],
             "create on pods in a second rule, `*` verbs on pods, create on `*` core resources. Near misses: create "
             "on deployments and on podtemplates, delete on pods, the exempt replicaset controller role.",
             "create (or *) on pods (or *) in a non-system role")


@scenario
def escalate():
    v = [ns("tenants"),
         role(None, "support-impersonator", [{"apiGroups": [""], "resources": ["users", "groups", "serviceaccounts"], "verbs": ["impersonate"]}], cluster=True),
         role("tenants", "tenant-admin", [{"apiGroups": ["rbac.authorization.k8s.io"], "resources": ["rolebindings"], "verbs": ["get", "list", "create"]},
                                          {"apiGroups": ["rbac.authorization.k8s.io"], "resources": ["roles", "clusterroles"], "verbs": ["bind"]}]),
         role(None, "rbac-editor", [{"apiGroups": ["rbac.authorization.k8s.io"], "resources": ["clusterroles"], "verbs": ["get", "update", "escalate"]}], cluster=True)]
    c = [ns("tenants"),
         role(None, "support-impersonator", [{"apiGroups": ["authorization.k8s.io"], "resources": ["subjectaccessreviews"], "verbs": ["create"]}], cluster=True),
         role("tenants", "tenant-admin", [{"apiGroups": ["rbac.authorization.k8s.io"], "resources": ["rolebindings"], "verbs": ["get", "list", "create", "update"]}]),
         role(None, "rbac-editor", [{"apiGroups": ["rbac.authorization.k8s.io"], "resources": ["clusterroles"], "verbs": ["get", "list", "watch"]}], cluster=True),
         role(None, "system:aggregate-to-edit-extra", [{"apiGroups": [""], "resources": ["serviceaccounts"], "verbs": ["impersonate"]}], cluster=True)]
    return S("set2-auditor-rbac-escalation", "5.1.8", "auditor",
             "Finding 5.1.8 (limit use of the Bind, Impersonate and Escalate permissions): no Role or ClusterRole may "
             "grant the verbs `bind`, `impersonate` or `escalate`. Roles whose names begin with `system:` are "
             "maintained by Kubernetes and are not findings.",
             v, c, ["ClusterRole//support-impersonator", "Role/tenants/tenant-admin", "ClusterRole//rbac-editor"],
             "impersonate, bind (second rule) and escalate (third verb). Near misses: creating rolebindings and "
             "SubjectAccessReviews, a `system:` role with impersonate (exempt).",
             "bind/impersonate/escalate in a non-system role")


@scenario
def automount():
    v = [ns("web"),
         sa("web", "default"),
         sa("web", "frontend", automount=False),
         sa("web", "api-client"),
         deploy("web", "landing", podspec([ctr("web", IMG["web"], securityContext=hard())])),
         deploy("web", "catalog", podspec([ctr("web", IMG["web"], securityContext=hard())], serviceAccountName="frontend",
                                          automountServiceAccountToken=True)),
         deploy("web", "checkout", podspec([ctr("web", IMG["web"], securityContext=hard())], serviceAccountName="frontend")),
         deploy("web", "search-ui", podspec([ctr("web", IMG["web"], securityContext=hard())], serviceAccountName="api-client",
                                            automountServiceAccountToken=False))]
    c = [ns("web"), sa("web", "default", automount=False), v[2], v[3],
         deploy("web", "landing", podspec([ctr("web", IMG["web"], securityContext=hard())])),
         deploy("web", "catalog", podspec([ctr("web", IMG["web"], securityContext=hard())], serviceAccountName="frontend")),
         v[6], v[7]]
    return S("set2-token-only-where-needed", "5.1.6", "operator",
             "None of the pods in namespace `web` talks to the Kubernetes API, so none of them may get a "
             "service-account token mounted. The token is mounted unless automountServiceAccountToken is false on "
             "the pod spec, or the pod spec leaves it unset and the pod's ServiceAccount sets it to false (the pod's "
             "own setting wins over the ServiceAccount's).",
             v, c, [rid(v[4]), rid(v[5])],
             "landing uses ServiceAccount `default` (no opt-out) with nothing on the pod; catalog's pod sets true, "
             "overriding its ServiceAccount's false. Near misses: checkout inherits false from `frontend`; "
             "search-ui opts out on the pod although its ServiceAccount does not; in the compliant environment the "
             "`default` ServiceAccount opts out. Needs a lookup of the ServiceAccount (hard by design).",
             "token mounted by the documented precedence")


@scenario
def privileged():
    v = [ns("hw"),
         ds("hw", "gpu-init", podspec([ctr("plugin", "nvcr.io/nvidia/k8s-device-plugin:v0.16.2", securityContext=hard())],
                                      init=[ctr("modprobe", IMG["busy"], securityContext=hard(runAsNonRoot=None, privileged=True, allowPrivilegeEscalation=True))])),
         pod("hw", "debug-node", podspec([ctr("app", IMG["api"], securityContext=hard())],
                                         ephemeral=[ctr("debugger", IMG["dbg"], securityContext={"privileged": True})])),
         deploy("hw", "clock-sync", podspec([ctr("chrony", IMG["busy"], securityContext=hard(capabilities={"drop": ["ALL"], "add": ["SYS_TIME"]}))]))]
    c = [ns("hw"),
         ds("hw", "gpu-init", podspec([ctr("plugin", "nvcr.io/nvidia/k8s-device-plugin:v0.16.2", securityContext=hard())],
                                      init=[ctr("modprobe", IMG["busy"], securityContext=hard(privileged=False))])),
         pod("hw", "debug-node", podspec([ctr("app", IMG["api"], securityContext=hard())],
                                         ephemeral=[ctr("debugger", IMG["dbg"], securityContext={"privileged": False})])),
         v[3]]
    return S("set2-no-privileged-mode", "5.2.2", "operator",
             "No container of any kind (regular, init or ephemeral debug container) may run in privileged mode, "
             "i.e. with full access to the host's devices. Granting individual capabilities is a separate control "
             "and not in scope here.",
             v, c, [rid(v[1]), rid(v[2])],
             "privileged init container of a DaemonSet; privileged ephemeral debug container of a Pod. Near "
             "misses: privileged: false written out, a container adding SYS_TIME (in both environments).",
             "privileged: true on any container")


@scenario
def secretsread():
    v = [ns("finance"),
         role(None, "audit-reader", [{"apiGroups": [""], "resources": ["configmaps", "secrets"], "verbs": ["get", "list"]}], cluster=True),
         role("finance", "finance-dev", [{"apiGroups": ["apps"], "resources": ["deployments"], "verbs": ["get", "list"]},
                                         {"apiGroups": [""], "resources": ["secrets"], "verbs": ["*"]}]),
         role("finance", "finance-debug", [{"apiGroups": [""], "resources": ["*"], "verbs": ["get"]}]),
         role(None, "system:controller:token-cleaner", [{"apiGroups": [""], "resources": ["secrets"], "verbs": ["delete", "get", "list", "watch"]}], cluster=True)]
    c = [ns("finance"),
         role(None, "audit-reader", [{"apiGroups": [""], "resources": ["configmaps", "events"], "verbs": ["get", "list"]}], cluster=True),
         role("finance", "finance-dev", [{"apiGroups": ["apps"], "resources": ["deployments"], "verbs": ["get", "list"]},
                                         {"apiGroups": [""], "resources": ["secrets"], "verbs": ["create", "update"]}]),
         role("finance", "finance-debug", [{"apiGroups": ["external-secrets.io"], "resources": ["externalsecrets", "secretstores"], "verbs": ["get", "list", "watch"]}]),
         v[4]]
    return S("set2-cis-secret-readers", "5.1.2", "CIS",
             "5.1.2 Minimize access to secrets. The Kubernetes API stores secrets, which may be service account "
             "tokens for the Kubernetes API or credentials used by workloads in the cluster. Access to these secrets "
             "should be restricted to the smallest possible group of users to reduce the risk of privilege "
             "escalation. No Role or ClusterRole may grant get, list or watch on the core `secrets` resource (a `*` "
             "verb or resource counts); the built-in roles named `system:...` are out of scope.",
             v, c, ["ClusterRole//audit-reader", "Role/finance/finance-dev", "Role/finance/finance-debug"],
             "list/get on secrets beside configmaps, `*` verbs on secrets in a second rule, get on `*` core "
             "resources. Near misses: write-only access to secrets (create/update), read access to "
             "external-secrets.io's ExternalSecrets/SecretStores, the exempt token-cleaner role.",
             "read verbs (or *) on secrets (or *) in a non-system role")


@scenario
def defaultsa():
    v = [ns("shop"), sa("shop", "default"), sa("shop", "default-reader"), sa("shop", "builder"),
         deploy("shop", "basket", podspec([ctr("basket", IMG["api"], securityContext=hard())])),
         job("shop", "reindex", podspec([ctr("reindex", IMG["job"], securityContext=hard())], serviceAccountName="default")),
         deploy("shop", "images", podspec([ctr("images", IMG["api"], securityContext=hard())], serviceAccountName="default-reader")),
         binding("shop", "default-can-view", "ClusterRole", "view", [sasub("shop", "default")]),
         binding("shop", "builder-edit", "ClusterRole", "edit", [sasub("shop", "builder"), user("default")])]
    c = [ns("shop"), sa("shop", "default", automount=False), sa("shop", "default-reader"), sa("shop", "builder"),
         deploy("shop", "basket", podspec([ctr("basket", IMG["api"], securityContext=hard())], serviceAccountName="builder")),
         job("shop", "reindex", podspec([ctr("reindex", IMG["job"], securityContext=hard())], serviceAccountName="builder")),
         v[6], v[8]]
    return S("set2-auditor-default-sa-unused", "5.1.5", "auditor",
             "Audit point: the `default` ServiceAccount of a namespace must not be actively used. No workload may "
             "run as it (naming it, or leaving serviceAccountName unset so that it is used implicitly), and no "
             "RoleBinding or ClusterRoleBinding may grant it anything.",
             v, c, [rid(v[4]), rid(v[5]), rid(v[7])],
             "a Deployment without serviceAccountName, a Job naming `default`, a RoleBinding granting view to "
             "the `default` ServiceAccount. Near misses: a ServiceAccount called default-reader, a binding whose "
             "subject is a *User* named `default` (both in both environments).",
             "workload running as, or binding granting to, ServiceAccount default")


@scenario
def hostprocess():
    hp = {"windowsOptions": {"hostProcess": True, "runAsUserName": "NT AUTHORITY\\SYSTEM"}}
    win = {"kubernetes.io/os": "windows"}
    v = [ns("win-ops"),
         ds("win-ops", "win-exporter", podspec([ctr("exporter", "ghcr.io/prometheus-community/windows-exporter:0.29.2")],
                                                securityContext=hp, hostNetwork=True, nodeSelector=win)),
         ds("win-ops", "csi-proxy", podspec([ctr("csi-proxy", "ghcr.io/kubernetes-sigs/sig-windows/csi-proxy:v1.1.3",
                                                 securityContext={"windowsOptions": {"hostProcess": True, "runAsUserName": "NT AUTHORITY\\SYSTEM"}})],
                                            hostNetwork=True, nodeSelector=win)),
         deploy("win-ops", "iis", podspec([ctr("iis", "mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022",
                                               securityContext={"windowsOptions": {"runAsUserName": "ContainerUser"}})], nodeSelector=win))]
    c = [ns("win-ops"),
         ds("win-ops", "win-exporter", podspec([ctr("exporter", "ghcr.io/prometheus-community/windows-exporter:0.29.2")],
                                                securityContext={"windowsOptions": {"hostProcess": False, "runAsUserName": "ContainerAdministrator"}},
                                                nodeSelector=win)),
         ds("win-ops", "csi-proxy", podspec([ctr("csi-proxy", "ghcr.io/kubernetes-sigs/sig-windows/csi-proxy:v1.1.3",
                                                 securityContext={"windowsOptions": {"gmsaCredentialSpecName": "csi-gmsa"}})],
                                            nodeSelector=win)),
         v[3]]
    return S("set2-windows-host-process", "5.2.11", "operator",
             "Windows workloads must stay inside their container: no pod or container may be a Windows HostProcess "
             "container (windowsOptions.hostProcess set to true at pod or container level).",
             v, c, [rid(v[1]), rid(v[2])],
             "hostProcess true at pod level (DaemonSet) and at container level (DaemonSet). Near misses: "
             "hostProcess: false written out, runAsUserName ContainerAdministrator, a gMSA credential spec.",
             "windowsOptions.hostProcess true")


# ------------------------------------------------------------------ RHEL 9
def rhel(id_, cis, voice, req, files_bad, files_good, bad, notes, why):
    return S(id_, cis, voice, req, files_bad, files_good, bad, notes, why, platform="rhel9",
             classes=["rhel9-ansible-opa"])


SSHD_BASE = """#\t$OpenBSD: sshd_config,v 1.104 2021/07/02 05:11:21 dtucker Exp $
# To modify the system-wide sshd configuration, create a  *.conf  file under
#  /etc/ssh/sshd_config.d/  which will be automatically included below
Include /etc/ssh/sshd_config.d/*.conf
#Port 22
#AddressFamily any
HostKey /etc/ssh/ssh_host_rsa_key
HostKey /etc/ssh/ssh_host_ecdsa_key
HostKey /etc/ssh/ssh_host_ed25519_key
SyslogFacility AUTHPRIV
PermitRootLogin no
#MaxAuthTries 6
{extra}AuthorizedKeysFile\t.ssh/authorized_keys
PasswordAuthentication no
ChallengeResponseAuthentication no
UsePAM yes
X11Forwarding no
PrintMotd no
Subsystem\tsftp\t/usr/libexec/openssh/sftp-server
"""


@scenario
def maxsessions():
    bad = {"etc/ssh/sshd_config": SSHD_BASE.format(extra="#MaxSessions 10\n"),
           "etc/ssh/sshd_config.d/40-bastion.conf": "# bastion: many multiplexed sessions per connection\nMaxSessions 32\n"}
    good = {"etc/ssh/sshd_config": SSHD_BASE.format(extra="#MaxSessions 50\n"),
            "etc/ssh/sshd_config.d/40-bastion.conf": "MaxSessions 8\n",
            "etc/ssh/sshd_config.d/90-late.conf": "MaxSessions 64\n"}
    return rhel("set2-rhel-ssh-sessions", "5.2.18", "operator",
                "The SSH daemon must not allow more than ten open sessions per network connection.",
                bad, good, ["sshd//MaxSessions"],
                "MaxSessions 32 set in an included drop-in (the main file only has it commented out). Compliant: "
                "MaxSessions 8 in the first drop-in; a later drop-in says 64 but sshd keeps the first value it "
                "reads, and a commented `#MaxSessions 50` (near misses). Unset would comply (default 10).",
                "the effective MaxSessions (first value sshd reads) above 10")


@scenario
def redirects():
    bad = {"etc/sysctl.d/60-router.conf": "# left over from the router image\nnet.ipv4.conf.all.accept_redirects = 1\n"
                                         "net.ipv4.conf.default.accept_redirects = 0\n",
           "usr/lib/sysctl.d/50-default.conf": "kernel.sysrq = 16\nnet.ipv4.conf.default.rp_filter = 2\n",
           "etc/sysctl.conf": "# System default settings live in /usr/lib/sysctl.d/00-system.conf.\n"}
    good = {"etc/sysctl.d/60-router.conf": "# hardened\nnet.ipv4.conf.all.accept_redirects = 0\n"
                                          "net.ipv4.conf.default.accept_redirects = 0\n",
            "usr/lib/sysctl.d/50-default.conf": "kernel.sysrq = 16\nnet.ipv4.conf.default.rp_filter = 2\n",
            "usr/lib/sysctl.d/60-router.conf": "# vendor default of the router package (hidden by /etc/sysctl.d/60-router.conf)\n"
                                              "net.ipv4.conf.all.accept_redirects = 1\nnet.ipv4.conf.default.accept_redirects = 1\n",
            "etc/sysctl.conf": "# System default settings live in /usr/lib/sysctl.d/00-system.conf.\n"
                               "# net.ipv4.conf.all.accept_redirects = 1\n"}
    return rhel("set2-rhel-icmp-redirects", "3.3.2", "auditor",
                "Audit check: the host must be configured to ignore ICMP redirect messages for IPv4 — "
                "net.ipv4.conf.all.accept_redirects and net.ipv4.conf.default.accept_redirects must both be set to 0 "
                "in the persistent sysctl configuration (the kernel's own default accepts them).",
                bad, good, ["sysctl//net.ipv4.conf.all.accept_redirects"],
                "all.accept_redirects = 1 in /etc/sysctl.d/60-router.conf. Compliant: both 0 there; the vendor's "
                "/usr/lib/sysctl.d/60-router.conf says 1 but a same-named file in /etc/sysctl.d replaces it entirely "
                "(systemd-sysctl precedence), and a commented line in /etc/sysctl.conf (near misses).",
                "effective persistent value 1")


@scenario
def passmin():
    head = ("# *REQUIRED*\n#   Directory where mailboxes reside, _or_ name of file, relative to the\n"
            "MAIL_DIR\t/var/spool/mail\n#\n# Password aging controls:\n#\n"
            "#\tPASS_MAX_DAYS\tMaximum number of days a password may be used.\n"
            "#\tPASS_MIN_DAYS\tMinimum number of days allowed between password changes.\n")
    bad = {"etc/login.defs": head + "PASS_MAX_DAYS\t365\nPASS_MIN_DAYS\t0\nPASS_WARN_AGE\t7\nUID_MIN\t\t\t 1000\n"}
    good = {"etc/login.defs": head + "PASS_MAX_DAYS\t365\n#PASS_MIN_DAYS\t0\nPASS_MIN_DAYS\t1\nPASS_WARN_AGE\t7\nUID_MIN\t\t\t 1000\n"}
    return rhel("set2-rhel-password-min-age", "5.6.1.2", "effect",
                "After changing their password, users must have to wait at least one full day before they can "
                "change it again (new accounts' minimum password age in /etc/login.defs).",
                bad, good, ["login.defs//PASS_MIN_DAYS"],
                "PASS_MIN_DAYS 0. Compliant: PASS_MIN_DAYS 1 after a commented `#PASS_MIN_DAYS 0` and the "
                "explanatory comment naming the key (near misses).",
                "PASS_MIN_DAYS below 1")


# ------------------------------------------------------------------ self-check predicates
# Each is my reading of the requirement text, applied to the objects; --check (and every run)
# asserts that it flags exactly violating_resources in violating/ and nothing in compliant/.
def pspec(o):
    k = o["kind"]
    if k == "Pod": return o["spec"]
    if k in ("Deployment", "StatefulSet", "DaemonSet", "Job", "ReplicaSet"): return o["spec"]["template"]["spec"]
    if k == "CronJob": return o["spec"]["jobTemplate"]["spec"]["template"]["spec"]
    return None


def ctrs(sp):
    return sp.get("initContainers", []) + sp.get("containers", []) + sp.get("ephemeralContainers", [])


def workloads(objs, skip_ns=()):
    for o in objs:
        sp = pspec(o)
        if sp is not None and o["metadata"].get("namespace") not in skip_ns:
            yield o, sp


def any_ctr(objs, f, skip_ns=()):
    return {rid(o) for o, sp in workloads(objs, skip_ns) if any(f(c.get("securityContext", {}), c, sp) for c in ctrs(sp))}


def pod_field(objs, field, skip_ns=()):
    return {rid(o) for o, sp in workloads(objs, skip_ns) if sp.get(field) is True}


def caps(sc): return sc.get("capabilities", {})


def rbac_rules(objs):
    for o in objs:
        if o["kind"] in ("Role", "ClusterRole") and not o["metadata"]["name"].startswith("system:"):
            yield o, o.get("rules") or []


def eff_user(sc, sp):
    return sc.get("runAsUser", sp.get("securityContext", {}).get("runAsUser"))


def root_bad(sc, c, sp):
    psc = sp.get("securityContext", {})
    if sc.get("runAsUser") == 0 or psc.get("runAsUser") == 0: return True
    nonroot = sc.get("runAsNonRoot", psc.get("runAsNonRoot")) is True
    u = eff_user(sc, sp)
    return not (nonroot or (u is not None and u != 0))


def seccomp_bad(sc, c, sp):
    t = (sc.get("seccompProfile") or sp.get("securityContext", {}).get("seccompProfile") or {}).get("type")
    return t not in ("RuntimeDefault", "Localhost")


def automount_bad(objs):
    sas = {(o["metadata"]["namespace"], o["metadata"]["name"]): o.get("automountServiceAccountToken")
           for o in objs if o["kind"] == "ServiceAccount"}
    out = set()
    for o, sp in workloads(objs):
        if o["metadata"].get("namespace") != "web": continue
        v = sp.get("automountServiceAccountToken")
        if v is None: v = sas.get(("web", sp.get("serviceAccountName", "default")))
        if v is not False: out.add(rid(o))
    return out


BUILTIN_DEFAULT = {"Service/default/kubernetes", "ServiceAccount/default/default", "ConfigMap/default/kube-root-ca.crt"}
OUT_OF_SCOPE_NS = {"kube-system", "kube-public", "kube-node-lease", "default"}

PRED = {
    "set2-no-setuid-gain": lambda O: any_ctr(O, lambda sc, c, sp: sc.get("allowPrivilegeEscalation") is not False),
    "set2-node-process-visibility": lambda O: pod_field(O, "hostPID", skip_ns=("kube-system",)),
    "set2-cis-host-ipc": lambda O: pod_field(O, "hostIPC"),
    "set2-raw-sockets": lambda O: any_ctr(O, lambda sc, c, sp: "NET_RAW" in caps(sc).get("add", [])
                                          or not ({"ALL", "NET_RAW"} & set(caps(sc).get("drop", [])))),
    "set2-no-extra-capabilities": lambda O: any_ctr(O, lambda sc, c, sp: bool(caps(sc).get("add"))),
    "set2-node-filesystem": lambda O: {rid(o) for o, sp in workloads(O) if any("hostPath" in v for v in sp.get("volumes", []))},
    "set2-auditor-host-ports": lambda O: any_ctr(O, lambda sc, c, sp: any("hostPort" in p for p in c.get("ports", []))),
    "set2-cis-root-containers": lambda O: any_ctr(O, root_bad),
    "set2-syscall-filter": lambda O: any_ctr(O, seccomp_bad),
    "set2-auditor-default-namespace": lambda O: {rid(o) for o in O if o["metadata"].get("namespace") == "default"} - BUILTIN_DEFAULT,
    "set2-namespace-isolation": lambda O: {f"Namespace//{o['metadata']['name']}" for o in O if o["kind"] == "Namespace"
                                           and o["metadata"]["name"] not in OUT_OF_SCOPE_NS
                                           and not any(p["kind"] == "NetworkPolicy" and p["metadata"]["namespace"] == o["metadata"]["name"] for p in O)},
    "set2-secrets-in-files": lambda O: {rid(o) for o, sp in workloads(O) for c in ctrs(sp)
                                        if any("secretKeyRef" in (e.get("valueFrom") or {}) for e in c.get("env", []))
                                        or any("secretRef" in e for e in c.get("envFrom", []))},
    "set2-auditor-cluster-admin": lambda O: {rid(o) for o in O if o["kind"] in ("ClusterRoleBinding", "RoleBinding")
                                             and o["roleRef"]["kind"] == "ClusterRole" and o["roleRef"]["name"] == "cluster-admin"
                                             and any(not (s["kind"] == "Group" and s["name"] in ("platform-admins", "system:masters")) for s in o["subjects"])},
    "set2-cis-rbac-wildcards": lambda O: {rid(o) for o, rules in rbac_rules(O) if any("*" in r.get("verbs", []) or "*" in r.get("resources", []) for r in rules)},
    "set2-who-can-start-pods": lambda O: {rid(o) for o, rules in rbac_rules(O) if any(
        "" in r.get("apiGroups", []) and ({"pods", "*"} & set(r.get("resources", []))) and ({"create", "*"} & set(r.get("verbs", [])))
        for r in rules)},
    "set2-auditor-rbac-escalation": lambda O: {rid(o) for o, rules in rbac_rules(O) if any({"bind", "impersonate", "escalate", "*"} & set(r.get("verbs", [])) for r in rules)},
    "set2-token-only-where-needed": automount_bad,
    "set2-no-privileged-mode": lambda O: any_ctr(O, lambda sc, c, sp: sc.get("privileged") is True),
    "set2-cis-secret-readers": lambda O: {rid(o) for o, rules in rbac_rules(O) if any(
        ({"", "*"} & set(r.get("apiGroups", []))) and ({"secrets", "*"} & set(r.get("resources", [])))
        and ({"get", "list", "watch", "*"} & set(r.get("verbs", []))) for r in rules)},
    "set2-auditor-default-sa-unused": lambda O: {rid(o) for o, sp in workloads(O) if sp.get("serviceAccountName", "default") == "default"}
        | {rid(o) for o in O if o["kind"] in ("RoleBinding", "ClusterRoleBinding")
           and any(x["kind"] == "ServiceAccount" and x["name"] == "default" for x in o["subjects"])},
    "set2-windows-host-process": lambda O: {rid(o) for o, sp in workloads(O)
        if (sp.get("securityContext", {}).get("windowsOptions", {}).get("hostProcess") is True)
        or any(c.get("securityContext", {}).get("windowsOptions", {}).get("hostProcess") is True for c in ctrs(sp))},
}


# ------------------------------------------------------------------ output
def write(out):
    os.makedirs(out, exist_ok=True)
    table = []
    for fn in SCEN:
        s = fn()
        d = os.path.join(out, s["id"])
        os.makedirs(d, exist_ok=True)
        meta_ = {"id": s["id"], "cis_id": s["cis"], "platform": s["platform"], "requirement": s["requirement"],
                 "classes": s["classes"], "violating_resources": s["bad"], "notes": s["notes"]}
        with open(os.path.join(d, "scenario.yaml"), "w") as f:
            f.write(dump(meta_))
        for env, content in (("violating", s["violating"]), ("compliant", s["compliant"])):
            e = os.path.join(d, env)
            os.makedirs(e, exist_ok=True)
            if s["platform"] == "kubernetes":
                with open(os.path.join(e, "manifests.yaml"), "w") as f:
                    f.write(docs(content))
            else:
                for path, text in content.items():
                    p = os.path.join(e, "host", path)
                    os.makedirs(os.path.dirname(p), exist_ok=True)
                    with open(p, "w") as f:
                        f.write(text)
        if s["platform"] == "kubernetes":   # self-check: every listed violating resource exists in violating/
            ids = {rid(o) for o in s["violating"]}
            ids |= {f"Namespace//{o['metadata']['name']}" for o in s["violating"] if o["kind"] == "Namespace"}
            missing = [b for b in s["bad"] if b not in ids]
            assert not missing, (s["id"], missing)
            got_v, got_c = PRED[s["id"]](s["violating"]), PRED[s["id"]](s["compliant"])
            assert got_v == set(s["bad"]), (s["id"], sorted(got_v), s["bad"])
            assert not got_c, (s["id"], sorted(got_c))
        table.append({"id": s["id"], "cis": s["cis"], "voice": s["voice"], "platform": s["platform"],
                      "classes": s["classes"], "violating": s["bad"], "why": s["why"], "notes": s["notes"]})
    with open(os.path.join(out, "labels.json"), "w") as f:
        json.dump(table, f, indent=1)
        f.write("\n")
    for t in table:
        print(f"| `{t['id']}` | {t['cis']} | {t['voice']} | {', '.join(t['classes'])} | "
              f"{'<br>'.join('`' + v + '`' for v in t['violating'])} | {t['why']} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py OUTDIR")
    write(sys.argv[1])
