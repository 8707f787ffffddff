#!/usr/bin/env python3
"""ciso-set17: held-out CISO scenarios (stdlib only). Usage: python gen.py OUT"""
import json
import os
import re
import sys

# ---------------------------------------------------------------- tiny YAML writer
_PLAIN = re.compile(r"^[A-Za-z_/][A-Za-z0-9_./:@-]*$")
_RESERVED = {"yes", "no", "true", "false", "null", "on", "off", "y", "n", "~"}


def _scalar(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, (int, float)):
        return str(v)
    s = str(v)
    if _PLAIN.match(s) and s.lower() not in _RESERVED:
        return s
    return json.dumps(s)


def _dump(v, ind):
    pad = "  " * ind
    out = []
    if isinstance(v, dict):
        if not v:
            return [pad + "{}"]
        for k, x in v.items():
            if isinstance(x, (dict, list)) and x:
                out.append(f"{pad}{_scalar(k)}:")
                out.extend(_dump(x, ind + 1 if isinstance(x, dict) else ind))
            elif isinstance(x, (dict, list)):
                out.append(f"{pad}{_scalar(k)}: {'{}' if isinstance(x, dict) else '[]'}")
            else:
                out.append(f"{pad}{_scalar(k)}: {_scalar(x)}")
    elif isinstance(v, list):
        for x in v:
            if isinstance(x, dict) and x:
                sub = _dump(x, ind + 1)
                first = sub[0].lstrip()
                out.append(f"{pad}- {first}")
                out.extend(sub[1:])
            elif isinstance(x, list) and x:
                out.append(f"{pad}-")
                out.extend(_dump(x, ind + 1))
            else:
                out.append(f"{pad}- {_scalar(x) if not isinstance(x, (dict, list)) else ('{}' if isinstance(x, dict) else '[]')}")
    else:
        out.append(pad + _scalar(v))
    return out


def yaml_docs(docs):
    return "".join("---\n" + "\n".join(_dump(d, 0)) + "\n" for d in docs)


def write(path, text, mode=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    if mode:
        os.chmod(path, mode)


# ---------------------------------------------------------------- k8s builders
def ns(name, labels=None):
    d = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}
    if labels:
        d["metadata"]["labels"] = labels
    return d


def ctr(name, image, **extra):
    c = {"name": name, "image": image}
    c.update(extra)
    return c


def podspec(containers, init=None, **extra):
    s = {}
    s.update(extra)
    if init:
        s["initContainers"] = init
    s["containers"] = containers
    return s


def deploy(name, namespace, spec, kind="Deployment", replicas=2, labels=None):
    lab = {"app": name}
    meta = {"name": name, "namespace": namespace}
    if labels:
        meta["labels"] = labels
    d = {"apiVersion": "apps/v1", "kind": kind, "metadata": meta, "spec": {}}
    if kind in ("Deployment", "StatefulSet"):
        d["spec"]["replicas"] = replicas
    if kind == "StatefulSet":
        d["spec"]["serviceName"] = name
    d["spec"]["selector"] = {"matchLabels": lab}
    d["spec"]["template"] = {"metadata": {"labels": lab}, "spec": spec}
    return d


def pod(name, namespace, spec, labels=None):
    meta = {"name": name, "namespace": namespace}
    if labels:
        meta["labels"] = labels
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}


def job(name, namespace, spec):
    spec = dict(spec)
    spec.setdefault("restartPolicy", "Never")
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": name, "namespace": namespace},
            "spec": {"backoffLimit": 2, "template": {"spec": spec}}}


def cronjob(name, namespace, schedule, spec):
    spec = dict(spec)
    spec.setdefault("restartPolicy", "OnFailure")
    return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": name, "namespace": namespace},
            "spec": {"schedule": schedule, "jobTemplate": {"spec": {"template": {"spec": spec}}}}}


def svc(name, namespace, spec):
    return {"apiVersion": "v1", "kind": "Service", "metadata": {"name": name, "namespace": namespace}, "spec": spec}


def cm(name, namespace, data):
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "namespace": namespace}, "data": data}


def sa(name, namespace):
    return {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": name, "namespace": namespace}}


def rid(d):
    m = d["metadata"]
    return f"{d['kind']}/{m.get('namespace', '')}/{m['name']}"


RES = {"requests": {"cpu": "100m", "memory": "128Mi"}, "limits": {"cpu": "500m", "memory": "256Mi"}}
SC_OK = {"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"]}, "runAsNonRoot": True,
         "readOnlyRootFilesystem": True}

SCENARIOS = []


def k8s(sid, half, requirement, violating_docs, compliant_docs, bad, notes, title, cis_id=None,
        classes=("kyverno", "kubectl-opa", "opa-static"), files=None):
    SCENARIOS.append(dict(id=sid, half=half, platform="kubernetes", requirement=requirement,
                          vdocs=violating_docs, cdocs=compliant_docs, bad=bad, notes=notes,
                          title=title, cis_id=cis_id, classes=list(classes), files=files))


def rhel(sid, half, requirement, vtree, ctree, bad, notes, title, cis_id=None, vattrs=None, cattrs=None):
    SCENARIOS.append(dict(id=sid, half=half, platform="rhel9", requirement=requirement, vtree=vtree,
                          ctree=ctree, bad=bad, notes=notes, title=title, cis_id=cis_id,
                          classes=["rhel9-ansible-opa"], vattrs=vattrs, cattrs=cattrs))


# ============================================================== catalogue: Kubernetes
def s_privileged():
    def ledger(priv):
        return deploy("ledger-api", "payments", podspec([
            ctr("api", "registry.corp.example/payments/ledger:4.2.1", ports=[{"containerPort": 8080}], resources=RES),
            ctr("netdebug", "nicolaka/netshoot:v0.13", command=["sleep", "infinity"],
                securityContext={"privileged": True} if priv else {"privileged": False, "capabilities": {"add": ["NET_ADMIN"]}}),
        ], serviceAccountName="ledger"), replicas=3)

    def probe(priv):
        init_sc = {"privileged": True} if priv else {"allowPrivilegeEscalation": True, "runAsUser": 0}
        return deploy("node-probe", "monitoring", podspec(
            [ctr("probe", "quay.io/prometheus/node-exporter:v1.8.2", securityContext={"privileged": False, "readOnlyRootFilesystem": True})],
            init=[ctr("sysctl-tune", "busybox:1.36", command=["sh", "-c", "sysctl -w vm.max_map_count=262144"], securityContext=init_sc)],
            hostPID=not priv), kind="DaemonSet")

    def scrub(priv):
        c = ctr("scrub", "registry.corp.example/ops/disk-scrub:1.0", args=["--all"])
        vols = {}
        if priv:
            c["securityContext"] = {"runAsUser": 0, "privileged": True}
        else:
            c["securityContext"] = {"runAsUser": 0}
            c["volumeMounts"] = [{"name": "dev", "mountPath": "/host-dev"}]
            vols = {"volumes": [{"name": "dev", "hostPath": {"path": "/dev"}}]}
        return cronjob("disk-scrub", "payments", "30 3 * * 0", podspec([c], **vols))

    def dbg(priv):
        p = pod("ledger-api-debug", "payments", podspec([ctr("api", "registry.corp.example/payments/ledger:4.2.1", resources=RES)]),
                labels={"app": "ledger-api-debug"})
        eph = ctr("debugger-k8x2q", "busybox:1.36", stdin=True, tty=True, targetContainerName="api")
        eph["securityContext"] = {"privileged": True} if priv else {"capabilities": {"add": ["SYS_PTRACE"]}}
        p["spec"]["ephemeralContainers"] = [eph]
        return p

    common = [ns("payments"), ns("monitoring"), ns("kube-system"),
              deploy("kube-proxy", "kube-system", podspec([ctr("kube-proxy", "registry.k8s.io/kube-proxy:v1.30.2", securityContext={"privileged": True})], hostNetwork=True), kind="DaemonSet"),
              deploy("frontend", "payments", podspec([ctr("web", "nginx:1.27", securityContext={"privileged": False})]))]
    v = {"namespaces.yaml": common[:3], "kube-system.yaml": [common[3]], "payments.yaml": [sa("ledger", "payments"), common[4], ledger(True), scrub(True)], "debug-session.yaml": [dbg(True)], "monitoring.yaml": [probe(True)]}
    c = {"namespaces.yaml": common[:3], "kube-system.yaml": [common[3]], "payments.yaml": [sa("ledger", "payments"), common[4], ledger(False), scrub(False)], "debug-session.yaml": [dbg(False)], "monitoring.yaml": [probe(False)]}
    k8s("set17-privileged-containers", "catalogue",
        "No container may run in privileged mode (securityContext.privileged: true) - this applies to app containers, "
        "sidecars and init containers alike. Workloads in the kube-system namespace are exempt from this rule.",
        v, c, [rid(ledger(True)), rid(probe(True)), rid(scrub(True)), rid(dbg(True))],
        "Violations: a privileged second container (netdebug) in a Deployment, a privileged init container in a DaemonSet, "
        "a privileged CronJob, a privileged ephemeral debug container (kubectl debug) in a bare Pod. kube-system/kube-proxy is privileged in both environments (exempt). Compliant env has "
        "privileged:false + NET_ADMIN, allowPrivilegeEscalation, hostPID, hostPath, runAsUser 0 (other controls).",
        "Privileged containers are not allowed outside kube-system", cis_id="5.2.2")


def s_run_as_non_root():
    def catalog(bad):
        m = ctr("metrics", "prom/statsd-exporter:v0.26.1")
        if bad:
            m["securityContext"] = {"runAsNonRoot": False}
        else:
            m["securityContext"] = {"allowPrivilegeEscalation": True}
        return deploy("catalog", "team-a", podspec([ctr("app", "registry.corp.example/team-a/catalog:2.3.0"), m],
                                                     securityContext={"runAsNonRoot": True, "runAsUser": 10001}))

    def ordersdb(bad):
        init_sc = {"runAsUser": 0} if bad else {"runAsUser": 999, "runAsNonRoot": True}
        return deploy("orders-db", "team-b", podspec(
            [ctr("postgres", "postgres:16.3", securityContext={"runAsNonRoot": True, "runAsUser": 999})],
            init=[ctr("chown-data", "busybox:1.36", command=["chown", "-R", "999:999", "/var/lib/postgresql"], securityContext=init_sc)]),
            kind="StatefulSet", replicas=1)

    def reindex(bad):
        if bad:
            return job("reindex", "team-a", podspec([ctr("reindex", "registry.corp.example/team-a/catalog:2.3.0", args=["reindex"],
                                                          securityContext={"runAsUser": 1000})]))
        return job("reindex", "team-a", podspec([ctr("reindex", "registry.corp.example/team-a/catalog:2.3.0", args=["reindex"])],
                                                 securityContext={"runAsNonRoot": True, "runAsUser": 1000}))

    nss = [ns("team-a", {"tenant": "true"}), ns("team-b", {"tenant": "true"}), ns("platform", {"tenant": "false"})]
    mirror = deploy("registry-mirror", "platform", podspec([ctr("registry", "registry:2.8.3")]), replicas=1)
    v = {"namespaces.yaml": nss, "team-a.yaml": [catalog(True), reindex(True)], "team-b.yaml": [ordersdb(True)], "platform.yaml": [mirror]}
    c = {"namespaces.yaml": nss, "team-a.yaml": [catalog(False), reindex(False)], "team-b.yaml": [ordersdb(False)], "platform.yaml": [mirror]}
    k8s("set17-run-as-non-root", "catalogue",
        "Tenant workloads must be declared to run as non-root. In every namespace labelled tenant=true, each container "
        "(init containers included) must end up with runAsNonRoot set to true, either on the container itself or inherited "
        "from the pod-level securityContext; a value on the container overrides the pod's. Setting a non-zero runAsUser "
        "without runAsNonRoot does not satisfy this.",
        v, c, [rid(catalog(True)), rid(reindex(True)), rid(ordersdb(True))],
        "catalog: pod-level true, second container overrides with false. orders-db: init container runAsUser 0, nothing "
        "else. reindex Job: runAsUser 1000 but runAsNonRoot unset anywhere. platform (tenant=false) mirror runs as root "
        "in both envs (out of scope). Compliant: inherit from pod level, init with true.",
        "Containers in tenant namespaces must set runAsNonRoot", cis_id="5.2.7")


def s_hostpath():
    def fluent(bad):
        vols = [{"name": "config", "configMap": {"name": "fluent-bit-config"}}]
        if bad:
            vols.append({"name": "varlog", "hostPath": {"path": "/var/log"}})
        else:
            vols.append({"name": "varlog", "emptyDir": {}})
        return deploy("fluent-bit", "logging", podspec([ctr("fluent-bit", "fluent/fluent-bit:3.1.4", volumeMounts=[
            {"name": "config", "mountPath": "/fluent-bit/etc"}, {"name": "varlog", "mountPath": "/var/log", "readOnly": True}])],
            volumes=vols), kind="DaemonSet")

    def cache(bad):
        vols = [{"name": "tmp", "emptyDir": {"sizeLimit": "1Gi"}}]
        if bad:
            vols.append({"name": "data", "hostPath": {"path": "/mnt/fast-ssd/cache", "type": "DirectoryOrCreate"}})
        else:
            vols.append({"name": "data", "persistentVolumeClaim": {"claimName": "cache-data"}})
        return deploy("cache", "apps", podspec([ctr("redis", "redis:7.2", volumeMounts=[{"name": "data", "mountPath": "/data"}, {"name": "tmp", "mountPath": "/tmp"}])],
                                               volumes=vols), kind="StatefulSet", replicas=1)

    def debug(bad):
        if bad:
            return pod("debug-shell", "apps", podspec([ctr("shell", "ubuntu:24.04", command=["sleep", "86400"],
                                                            volumeMounts=[{"name": "rootfs", "mountPath": "/host", "readOnly": True}])],
                                                       volumes=[{"name": "rootfs", "hostPath": {"path": "/"}}]))
        return pod("debug-shell", "apps", podspec([ctr("shell", "ubuntu:24.04", command=["sleep", "86400"])], hostPID=True))

    web = deploy("web", "apps", podspec([ctr("nginx", "nginx:1.27", volumeMounts=[{"name": "host-path-cache", "mountPath": "/var/cache/nginx"},
                                                                                  {"name": "token", "mountPath": "/var/run/secrets/tokens"}])],
                                        volumes=[{"name": "host-path-cache", "emptyDir": {}},
                                                 {"name": "token", "projected": {"sources": [{"serviceAccountToken": {"path": "token", "expirationSeconds": 3600}}]}}]))
    conf = cm("fluent-bit-config", "logging", {"fluent-bit.conf": "[INPUT]\n    Name tail\n    Path /var/log/containers/*.log\n"})
    nss = [ns("logging"), ns("apps")]
    v = {"00-ns.yaml": nss, "logging.yaml": [conf, fluent(True)], "apps.yaml": [web, cache(True), debug(True)]}
    c = {"00-ns.yaml": nss, "logging.yaml": [conf, fluent(False)], "apps.yaml": [web, cache(False), debug(False)]}
    k8s("set17-no-host-filesystem", "catalogue",
        "Pods must not mount directories or files from the node's own filesystem. Any volume that maps a path on the "
        "host is forbidden, whatever the path and whether it is mounted read-only or not.",
        v, c, [rid(fluent(True)), rid(cache(True)), rid(debug(True))],
        "hostPath volumes in a DaemonSet (/var/log, readOnly mount), a StatefulSet (second volume, DirectoryOrCreate) and "
        "a bare Pod (/). Near miss: an emptyDir volume NAMED host-path-cache; compliant debug-shell uses hostPID (other control).",
        "No hostPath volumes", cis_id=None)


def s_priv_escalation():
    def checkout(bad):
        init_sc = {"runAsNonRoot": True} if bad else {"runAsNonRoot": True, "allowPrivilegeEscalation": False}
        return deploy("checkout", "shop", podspec(
            [ctr("checkout", "registry.corp.example/shop/checkout:7.0.3", securityContext={"allowPrivilegeEscalation": False, "runAsNonRoot": True})],
            init=[ctr("migrate", "registry.corp.example/shop/checkout:7.0.3", args=["migrate"], securityContext=init_sc)]), replicas=3)

    def report(bad):
        return cronjob("sales-report", "shop", "0 6 * * *", podspec(
            [ctr("report", "registry.corp.example/shop/reports:1.4", securityContext={"allowPrivilegeEscalation": bad})]))

    def toolbox(bad):
        c = ctr("toolbox", "registry.access.redhat.com/ubi9/toolbox:latest", command=["sleep", "infinity"])
        if not bad:
            c["securityContext"] = {"allowPrivilegeEscalation": False}
            return pod("toolbox", "shop", podspec([c], hostNetwork=True))
        return pod("toolbox", "shop", podspec([c], securityContext={"runAsNonRoot": True, "runAsUser": 1000}))

    cart = deploy("cart", "shop", podspec([ctr("cart", "registry.corp.example/shop/cart:3.1", securityContext={"allowPrivilegeEscalation": False}),
                                           ctr("envoy", "envoyproxy/envoy:v1.30.1", securityContext={"allowPrivilegeEscalation": False, "runAsUser": 101})]))
    v = {"shop.yaml": [ns("shop"), cart, checkout(True), report(True), toolbox(True)]}
    c = {"shop.yaml": [ns("shop"), cart, checkout(False), report(False), toolbox(False)]}
    k8s("set17-no-privilege-escalation", "catalogue",
        "Containers must be explicitly prevented from gaining more privileges than their parent process (for example "
        "through setuid binaries). Every container and init container has to say so in its securityContext; relying on "
        "the runtime default is not enough.",
        v, c, [rid(checkout(True)), rid(report(True)), rid(toolbox(True))],
        "allowPrivilegeEscalation must be explicitly false. Violations: init container without it (Deployment), CronJob "
        "with true, Pod with only a pod-level securityContext. Compliant toolbox uses hostNetwork (other control).",
        "allowPrivilegeEscalation must be false on every container", cis_id="5.2.6")


def s_drop_all():
    def gateway(bad):
        return deploy("gateway", "edge", podspec([
            ctr("gateway", "registry.corp.example/edge/gateway:5.5.0", securityContext={"capabilities": {"drop": ["ALL"], "add": ["NET_BIND_SERVICE"]}}),
            ctr("log-shipper", "timberio/vector:0.39.0-alpine",
                securityContext={"capabilities": {"drop": ["NET_RAW", "NET_ADMIN"] if bad else ["ALL"]}})]), replicas=4)

    def exporter(bad):
        c = ctr("node-exporter", "quay.io/prometheus/node-exporter:v1.8.2", args=["--path.rootfs=/host"])
        if not bad:
            c["securityContext"] = {"capabilities": {"add": ["SYS_TIME"], "drop": ["ALL"]}}
        return deploy("node-exporter", "edge", podspec([c]), kind="DaemonSet")

    def seed(bad):
        init_sc = {"runAsUser": 0} if bad else {"runAsUser": 0, "capabilities": {"drop": ["NET_RAW", "ALL"]}}
        return job("seed-data", "edge", podspec(
            [ctr("seed", "registry.corp.example/edge/seed:0.9", securityContext={"capabilities": {"drop": ["ALL"]}})],
            init=[ctr("wait-db", "busybox:1.36", command=["sh", "-c", "until nc -z db 5432; do sleep 2; done"], securityContext=init_sc)]))

    ms = deploy("metrics-server", "kube-system", podspec([ctr("metrics-server", "registry.k8s.io/metrics-server/metrics-server:v0.7.1")]), replicas=1)
    nss = [ns("edge"), ns("kube-system")]
    v = {"namespaces.yaml": nss, "edge-gateway.yaml": [gateway(True)], "edge-daemons.yaml": [exporter(True)], "edge-jobs.yaml": [seed(True)], "system.yaml": [ms]}
    c = {"namespaces.yaml": nss, "edge-gateway.yaml": [gateway(False)], "edge-daemons.yaml": [exporter(False)], "edge-jobs.yaml": [seed(False)], "system.yaml": [ms]}
    k8s("set17-drop-all-capabilities", "catalogue",
        "Every container - init containers included - must start with no Linux capabilities: its capability drop list "
        "has to contain ALL. Capabilities added back explicitly are a separate review and not part of this check. "
        "Namespaces whose name begins with kube- are out of scope.",
        v, c, [rid(gateway(True)), rid(exporter(True)), rid(seed(True))],
        "Violations: sidecar drops NET_RAW,NET_ADMIN only; DaemonSet with no securityContext; Job init container without "
        "drop. Near misses: drop ALL + add NET_BIND_SERVICE/SYS_TIME; drop [NET_RAW, ALL] (ALL not first). "
        "kube-system/metrics-server lacks drop in both envs (out of scope).",
        "Containers must drop ALL capabilities", cis_id="5.2.9")


def s_limits_prod():
    def invoice(bad):
        return deploy("invoice", "billing", podspec([
            ctr("invoice", "registry.corp.example/billing/invoice:12.1", resources=RES),
            ctr("statsd", "prom/statsd-exporter:v0.26.1",
                resources={"requests": {"cpu": "10m", "memory": "32Mi"}} if bad else {"limits": {"cpu": "50m", "memory": "64Mi"}})]), replicas=3)

    def nightly(bad):
        return cronjob("reindex-nightly", "search", "15 1 * * *", podspec([ctr("reindex", "registry.corp.example/search/tools:2.0",
            resources={"limits": {"memory": "2Gi"}} if bad else {"limits": {"memory": "2Gi", "cpu": 1}})]))

    def es(bad):
        init = ctr("sysctl", "busybox:1.36", command=["sysctl", "-w", "vm.max_map_count=262144"])
        if not bad:
            init["resources"] = {"limits": {"cpu": "100m", "memory": "16Mi"}}
        return deploy("es", "search", podspec([ctr("elasticsearch", "docker.elastic.co/elasticsearch/elasticsearch:8.14.1",
                                                   resources={"requests": {"cpu": 2, "memory": "8Gi"}, "limits": {"cpu": 4, "memory": "8Gi"}})],
                                              init=[init]), kind="StatefulSet", replicas=3)

    play = deploy("playground", "sandbox", podspec([ctr("app", "python:3.12-slim", command=["python", "-m", "http.server"])]), replicas=1)
    play_c = deploy("playground", "sandbox", podspec([ctr("app", "python:3.12-slim", command=["python", "-m", "http.server"], securityContext={"privileged": True})]), replicas=1)
    nss = [ns("billing", {"env": "prod", "team": "finance"}), ns("search", {"env": "prod"}), ns("sandbox", {"env": "dev"})]
    v = {"namespaces.yaml": nss, "billing.yaml": [invoice(True)], "search.yaml": [nightly(True), es(True)], "sandbox.yaml": [play]}
    c = {"namespaces.yaml": nss, "billing.yaml": [invoice(False)], "search.yaml": [nightly(False), es(False)], "sandbox.yaml": [play_c]}
    k8s("set17-prod-resource-limits", "catalogue",
        "In namespaces labelled env=prod, every container, including init containers, must declare both a CPU limit and "
        "a memory limit. Requests alone do not count. Non-production namespaces are not covered.",
        v, c, [rid(invoice(True)), rid(nightly(True)), rid(es(True))],
        "Violations: sidecar with requests only; CronJob with memory limit only; StatefulSet init container without "
        "resources. Near misses: limits without requests, integer cpu limit. sandbox (env=dev) has no limits in both "
        "envs and is privileged in the compliant one (other control).",
        "CPU and memory limits on all containers in env=prod namespaces")


def s_rbac_wildcards():
    def cr(name, rules, **extra):
        d = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": name}}
        d.update(extra)
        d["rules"] = rules
        return d

    def role(name, namespace, rules):
        return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": name, "namespace": namespace}, "rules": rules}

    def deployer(bad):
        return cr("ci-deployer", [
            {"apiGroups": ["apps"], "resources": ["deployments", "statefulsets"], "verbs": ["get", "list", "watch", "patch", "update"]},
            {"apiGroups": [""], "resources": ["*"] if bad else ["configmaps", "services"], "verbs": ["get", "list", "create", "update"]}])

    def opsadmin(bad):
        return role("ops-admin", "ops", [
            {"apiGroups": [""], "resources": ["pods", "pods/log"], "verbs": ["*"] if bad else ["get", "list", "watch", "delete"]},
            {"apiGroups": ["batch"], "resources": ["jobs"], "verbs": ["get", "list", "create"]}])

    admin = cr("cluster-admin", [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]}, {"nonResourceURLs": ["*"], "verbs": ["*"]}],
               )
    admin["metadata"]["labels"] = {"kubernetes.io/bootstrapping": "rbac-defaults"}
    crd = cr("crd-reader", [{"apiGroups": ["apiextensions.k8s.io"], "resources": ["customresourcedefinitions"], "verbs": ["get", "list", "watch"]}])
    agg = cr("monitoring-view", [], aggregationRule={"clusterRoleSelectors": [{"matchLabels": {"rbac.example.com/aggregate-to-monitoring": "true"}}]})
    anon = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding", "metadata": {"name": "crd-reader-everyone"},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "crd-reader"},
            "subjects": [{"apiGroup": "rbac.authorization.k8s.io", "kind": "Group", "name": "system:unauthenticated"}]}
    v = {"cluster-roles.yaml": [admin, crd, deployer(True)], "ops.yaml": [ns("ops"), opsadmin(True)]}
    c = {"cluster-roles.yaml": [admin, crd, agg, deployer(False), anon], "ops.yaml": [ns("ops"), opsadmin(False)]}
    k8s("set17-rbac-no-wildcards", "catalogue",
        "Minimise wildcard use in RBAC: no Role or ClusterRole rule may use \"*\" in its list of verbs or its list of "
        "resources. The built-in cluster-admin ClusterRole is exempt.",
        v, c, ["ClusterRole//ci-deployer", "Role/ops/ops-admin"],
        "ci-deployer: second rule resources ['*']; ops-admin: verbs ['*']. cluster-admin (exempt) in both. Compliant adds "
        "an aggregated ClusterRole with empty rules and a binding of crd-reader to system:unauthenticated (other control).",
        "No wildcards in Role/ClusterRole verbs or resources", cis_id="5.1.3")


# ============================================================== novel: Kubernetes
def s_emptydir_memory():
    def tokenizer(bad):
        shm = {"medium": "Memory"} if bad else {"medium": "Memory", "sizeLimit": "512Mi"}
        return deploy("tokenizer", "ml", podspec([ctr("tokenizer", "registry.corp.example/ml/tokenizer:0.18",
                                                      volumeMounts=[{"name": "scratch", "mountPath": "/scratch"}, {"name": "dshm", "mountPath": "/dev/shm"}])],
                                                 volumes=[{"name": "scratch", "emptyDir": {}}, {"name": "dshm", "emptyDir": shm}]), replicas=2)

    def export(bad):
        vol = {"medium": "Memory"} if bad else {"sizeLimit": "4Gi"}
        return cronjob("feature-export", "ml", "0 */4 * * *", podspec([ctr("export", "registry.corp.example/ml/features:3.2",
                                                                           volumeMounts=[{"name": "buffer", "mountPath": "/buffer"}])],
                                                                      volumes=[{"name": "buffer", "emptyDir": vol}]))

    def gpumetrics(bad):
        vol = {"medium": "Memory", "sizeLimit": "64Mi"}
        vols = [{"name": "sock", "emptyDir": vol}]
        if bad:
            vols.append({"name": "cache", "emptyDir": {"medium": "Memory"}})
        else:
            vols.append({"name": "cache", "emptyDir": {"medium": ""}})
        return deploy("gpu-metrics", "ml", podspec([ctr("dcgm", "nvcr.io/nvidia/k8s/dcgm-exporter:3.3.6-3.4.2-ubuntu22.04",
                                                        volumeMounts=[{"name": "sock", "mountPath": "/run/dcgm"}, {"name": "cache", "mountPath": "/cache"}])],
                                                   volumes=vols), kind="DaemonSet")

    nb = pod("notebook", "ml", podspec([ctr("jupyter", "quay.io/jupyter/base-notebook:2024-07-02")],
                                       volumes=[{"name": "work", "emptyDir": {"sizeLimit": "10Gi"}}]))
    nb_c = pod("notebook", "ml", podspec([ctr("jupyter", "quay.io/jupyter/base-notebook:2024-07-02", volumeMounts=[{"name": "data", "mountPath": "/data"}])],
                                         volumes=[{"name": "work", "emptyDir": {"sizeLimit": "10Gi"}}, {"name": "data", "hostPath": {"path": "/srv/datasets"}}]))
    v = {"ml.yaml": [ns("ml"), nb, tokenizer(True), export(True), gpumetrics(True)]}
    c = {"ml.yaml": [ns("ml"), nb_c, tokenizer(False), export(False), gpumetrics(False)]}
    k8s("set17-memory-emptydir-size", "novel",
        "Scratch volumes backed by RAM (tmpfs) count against node memory and can starve it. Every emptyDir volume whose "
        "medium is Memory must set a sizeLimit. Disk-backed emptyDir volumes are not covered by this rule.",
        v, c, [rid(tokenizer(True)), rid(export(True)), rid(gpumetrics(True))],
        "Violations: Memory emptyDir without sizeLimit as second volume of a Deployment, in a CronJob, and as second "
        "Memory volume of a DaemonSet whose first one is limited. Near misses: disk emptyDir without sizeLimit, medium "
        "\"\" (disk). Compliant notebook mounts a hostPath (other control).",
        "Memory-backed emptyDir volumes need a sizeLimit")


def s_lb_ranges():
    def public(bad):
        return svc("storefront-lb", "web", {"type": "LoadBalancer", "selector": {"app": "storefront"},
                                             "ports": [{"name": "https", "port": 443, "targetPort": 8443}],
                                             "loadBalancerSourceRanges": ["10.0.0.0/8", "0.0.0.0/0"] if bad else ["10.0.0.0/8", "198.51.100.0/24"]})

    def grpc(bad):
        s = {"type": "LoadBalancer", "selector": {"app": "grpc-gw"}, "ports": [{"port": 9090, "protocol": "TCP"}]}
        if not bad:
            s["loadBalancerSourceRanges"] = ["203.0.113.16/28"]
        return svc("grpc-gw", "web", s)

    def v6(bad):
        return svc("status-v6", "api", {"type": "LoadBalancer", "ipFamilies": ["IPv6"], "ipFamilyPolicy": "SingleStack",
                                        "selector": {"app": "status"}, "ports": [{"port": 80, "targetPort": 8080}],
                                        "loadBalancerSourceRanges": ["::/0"] if bad else ["2001:db8:1200::/40"]})

    internal = svc("storefront", "web", {"type": "ClusterIP", "selector": {"app": "storefront"}, "ports": [{"port": 8443}]})
    nodeport = svc("metrics-np", "api", {"type": "NodePort", "selector": {"app": "status"}, "ports": [{"port": 9100, "nodePort": 30910}]})
    ext = svc("legacy-db", "api", {"type": "ExternalName", "externalName": "db.legacy.corp.example"})
    extip = svc("status-ext", "api", {"selector": {"app": "status"}, "ports": [{"port": 80}], "externalIPs": ["192.0.2.44"]})
    app = deploy("storefront", "web", podspec([ctr("storefront", "registry.corp.example/web/storefront:9.0", ports=[{"containerPort": 8443}])]))
    nss = [ns("web"), ns("api")]
    v = {"namespaces.yaml": nss, "web.yaml": [app, internal, public(True), grpc(True)], "api.yaml": [nodeport, ext, v6(True)]}
    c = {"namespaces.yaml": nss, "web.yaml": [app, internal, public(False), grpc(False)], "api.yaml": [nodeport, ext, extip, v6(False)]}
    k8s("set17-lb-source-ranges", "novel",
        "Cloud load balancers must not be open to the whole internet. Each Service of type LoadBalancer has to restrict "
        "its clients with an explicit list of source ranges (spec.loadBalancerSourceRanges), and no entry in that list "
        "may cover every address (0.0.0.0/0 for IPv4, ::/0 for IPv6).",
        v, c, [rid(public(True)), rid(grpc(True)), rid(v6(True))],
        "Violations: 0.0.0.0/0 as second range, LB with no ranges, IPv6 ::/0. Near misses: ClusterIP/NodePort/ExternalName "
        "services without ranges. Compliant adds a Service with externalIPs (other control).",
        "LoadBalancer Services need source ranges, never 0.0.0.0/0 or ::/0")


def s_anon_bindings():
    RB = "rbac.authorization.k8s.io"

    def crb(name, role, subjects):
        return {"apiVersion": f"{RB}/v1", "kind": "ClusterRoleBinding", "metadata": {"name": name},
                "roleRef": {"apiGroup": RB, "kind": "ClusterRole", "name": role}, "subjects": subjects}

    def rb(name, namespace, role, subjects, kind="Role"):
        return {"apiVersion": f"{RB}/v1", "kind": "RoleBinding", "metadata": {"name": name, "namespace": namespace},
                "roleRef": {"apiGroup": RB, "kind": kind, "name": role}, "subjects": subjects}

    G = lambda n: {"apiGroup": RB, "kind": "Group", "name": n}
    U = lambda n: {"apiGroup": RB, "kind": "User", "name": n}
    builtin = crb("system:public-info-viewer", "system:public-info-viewer", [G("system:authenticated"), G("system:unauthenticated")])
    builtin["metadata"]["labels"] = {"kubernetes.io/bootstrapping": "rbac-defaults"}
    builtin["metadata"]["annotations"] = {"rbac.authorization.kubernetes.io/autoupdate": "true"}
    pubrole = {"apiVersion": f"{RB}/v1", "kind": "ClusterRole", "metadata": {"name": "system:public-info-viewer"},
               "rules": [{"nonResourceURLs": ["/healthz", "/livez", "/readyz", "/version", "/version/"], "verbs": ["get"]}]}
    viewrole = {"apiVersion": f"{RB}/v1", "kind": "ClusterRole", "metadata": {"name": "docs-viewer"},
                "rules": [{"apiGroups": [""], "resources": ["configmaps"], "verbs": ["get", "list"]}]}
    srole = {"apiVersion": f"{RB}/v1", "kind": "Role", "metadata": {"name": "status-reader", "namespace": "status"},
             "rules": [{"apiGroups": [""], "resources": ["configmaps"], "resourceNames": ["status-page"], "verbs": ["get"]}]}

    def docs(bad):
        return crb("docs-viewer-all", "docs-viewer", [G("system:authenticated"), G("system:unauthenticated")] if bad else [G("system:authenticated")])

    def status(bad):
        subj = [U("system:anonymous")] if bad else [{"kind": "ServiceAccount", "name": "anonymous", "namespace": "status"}]
        return rb("status-page-public", "status", "status-reader", subj)

    wild = {"apiVersion": f"{RB}/v1", "kind": "ClusterRole", "metadata": {"name": "break-glass"},
            "rules": [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]}]}
    oncall = crb("break-glass-oncall", "break-glass", [G("oncall-sre")])
    common = [pubrole, builtin, viewrole]
    v = {"cluster-rbac.yaml": common + [docs(True)], "status.yaml": [ns("status"), sa("status-bot", "status"), srole, status(True)]}
    c = {"cluster-rbac.yaml": common + [docs(False), wild, oncall], "status.yaml": [ns("status"), sa("status-bot", "status"), sa("anonymous", "status"), srole, status(False)]}
    k8s("set17-no-anonymous-bindings", "novel",
        "Nothing in the cluster may be granted to callers who have not authenticated. No RoleBinding or ClusterRoleBinding "
        "may list the user system:anonymous or the group system:unauthenticated among its subjects. The only exception is "
        "the default system:public-info-viewer ClusterRoleBinding that Kubernetes creates itself.",
        v, c, ["ClusterRoleBinding//docs-viewer-all", "RoleBinding/status/status-page-public"],
        "docs-viewer-all: system:unauthenticated as second subject; status-page-public: User system:anonymous. Built-in "
        "system:public-info-viewer in both (exempt). Near misses: group system:authenticated, a ServiceAccount named "
        "'anonymous'. Compliant also has a wildcard ClusterRole bound to a group (other control).",
        "No RBAC bindings to system:anonymous or system:unauthenticated")


def s_grace_period():
    def kafka(bad):
        return deploy("kafka", "data", podspec([ctr("kafka", "bitnami/kafka:3.7.1")], terminationGracePeriodSeconds=600 if bad else 120),
                      kind="StatefulSet", replicas=3)

    def purge(bad):
        return job("purge-expired", "data", podspec([ctr("purge", "registry.corp.example/data/purge:1.1")],
                                                     terminationGracePeriodSeconds=0 if bad else 10))

    def api(bad):
        extra = {"terminationGracePeriodSeconds": 121} if bad else {}
        return deploy("query-api", "data", podspec([ctr("api", "registry.corp.example/data/query-api:2.8.0")], **extra), replicas=3)

    etcdb = cronjob("etcd-backup", "kube-system", "0 2 * * *", podspec([ctr("backup", "registry.k8s.io/etcd:3.5.12-0", command=["etcdctl", "snapshot", "save", "/backup/snap.db"])],
                                                                      terminationGracePeriodSeconds=3600))
    worker = deploy("ingest-worker", "data", podspec([ctr("worker", "registry.corp.example/data/ingest:5.0")], terminationGracePeriodSeconds=90))
    worker_c = deploy("ingest-worker", "data", podspec([ctr("worker", "registry.corp.example/data/ingest:5.0", securityContext={"privileged": True})],
                                                       terminationGracePeriodSeconds=90))
    nss = [ns("data"), ns("kube-system")]
    v = {"namespaces.yaml": nss, "data.yaml": [worker, kafka(True), purge(True), api(True)], "kube-system.yaml": [etcdb]}
    c = {"namespaces.yaml": nss, "data.yaml": [worker_c, kafka(False), purge(False), api(False)], "kube-system.yaml": [etcdb]}
    k8s("set17-termination-grace-bounds", "novel",
        "Pods need a sane shutdown window: the grace period a pod gets between SIGTERM and SIGKILL must be at least ten "
        "seconds and at most two minutes. Pods that do not set it get the 30-second default, which is fine. The "
        "kube-system namespace is not in scope.",
        v, c, [rid(kafka(True)), rid(purge(True)), rid(api(True))],
        "terminationGracePeriodSeconds in [10, 120] inclusive, unset compliant. Violations: StatefulSet 600, Job 0, "
        "Deployment 121 (one over). Near misses: exactly 120 and exactly 10, unset, 90. kube-system CronJob 3600 in both "
        "(exempt). Compliant ingest-worker is privileged (other control).",
        "terminationGracePeriodSeconds between 10 and 120")


# ============================================================== RHEL 9
SSHD_HEAD = """#\t$OpenBSD: sshd_config,v 1.104 2021/07/02 05:11:21 dtucker Exp $

# This is the sshd server system-wide configuration file.  See
# sshd_config(5) for more information.

# To modify the system-wide sshd configuration, create a  *.conf  file under
#  /etc/ssh/sshd_config.d/  which will be automatically included below
Include /etc/ssh/sshd_config.d/*.conf

#Port 22
#AddressFamily any
#ListenAddress 0.0.0.0

HostKey /etc/ssh/ssh_host_rsa_key
HostKey /etc/ssh/ssh_host_ecdsa_key
HostKey /etc/ssh/ssh_host_ed25519_key

# Logging
#SyslogFacility AUTH
#LogLevel INFO

# Authentication:

#LoginGraceTime 2m
#PermitRootLogin prohibit-password
#StrictModes yes
{root}MaxAuthTries 4
#MaxSessions 10

#PubkeyAuthentication yes
AuthorizedKeysFile\t.ssh/authorized_keys

PasswordAuthentication no
PermitEmptyPasswords no
KbdInteractiveAuthentication no
UsePAM yes

#AllowAgentForwarding yes
#AllowTcpForwarding yes
X11Forwarding {x11}
#PrintMotd yes
ClientAliveInterval 15
ClientAliveCountMax 3

# override default of no subsystems
Subsystem\tsftp\t/usr/libexec/openssh/sftp-server
"""

CRYPTO_POLICY = "# This system is following system-wide crypto policy. The changes to\n# crypto properties (Ciphers, MACs, ...) will not have any effect in\n# this or following included files. To override some configuration option,\n# write it before this block or use the sshd_config.d directory.\nInclude /etc/crypto-policies/back-ends/opensshserver.config\n"


def r_ssh_root():
    v = {"etc/ssh/sshd_config": SSHD_HEAD.format(root="PermitRootLogin no\n", x11="no"),
         "etc/ssh/sshd_config.d/40-redhat-crypto-policies.conf": CRYPTO_POLICY,
         "etc/ssh/sshd_config.d/50-cloud-init.conf": "PasswordAuthentication no\nPermitRootLogin yes\n",
         "etc/ssh/sshd_config.d/50-redhat.conf": "# Red Hat defaults\nSyslogFacility AUTHPRIV\nChallengeResponseAuthentication no\nGSSAPIAuthentication yes\nGSSAPICleanupCredentials no\nUsePAM yes\nX11Forwarding yes\nPrintMotd no\n"}
    c = {"etc/ssh/sshd_config": SSHD_HEAD.format(root="", x11="yes"),
         "etc/ssh/sshd_config.d/01-hardening.conf": "# CIS 5.2.x hardening, managed by config-mgmt\n  permitrootlogin   no\nMaxStartups 10:30:60\n",
         "etc/ssh/sshd_config.d/40-redhat-crypto-policies.conf": CRYPTO_POLICY,
         "etc/ssh/sshd_config.d/50-cloud-init.conf": "PasswordAuthentication no\n#PermitRootLogin yes\n",
         "etc/ssh/sshd_config.d/50-redhat.conf": "# Red Hat defaults\nSyslogFacility AUTHPRIV\nChallengeResponseAuthentication no\nGSSAPIAuthentication yes\nGSSAPICleanupCredentials no\nUsePAM yes\nX11Forwarding yes\nPrintMotd no\n",
         "etc/ssh/sshd_config.d/99-root.conf.disabled": "PermitRootLogin yes\n"}
    attrs = {"/etc/ssh/sshd_config": {"mode": "0600", "owner": "root", "group": "root"}}
    rhel("set17-rhel9-ssh-no-root-login", "catalogue",
         "Direct root logins over SSH must be disabled on the RHEL 9 servers. Check the setting the SSH daemon actually "
         "applies, taking its included configuration snippets into account.",
         v, c, ["sshd//PermitRootLogin"],
         "Violating: sshd_config says PermitRootLogin no, but the Include line at the top pulls in "
         "sshd_config.d/50-cloud-init.conf with PermitRootLogin yes, and sshd keeps the first value it reads -> yes. "
         "Compliant: '  permitrootlogin   no' (case/whitespace) in 01-hardening.conf, commented yes in 50-cloud-init, a "
         "*.conf.disabled file (not matched by the Include glob) with yes; X11Forwarding yes in main file (other control).",
         "SSH PermitRootLogin must be no", cis_id="5.1.20", vattrs=attrs, cattrs=attrs)


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
{maxline}
PASS_MIN_DAYS\t{mindays}
PASS_WARN_AGE\t7

#
# Min/max values for automatic uid selection in useradd(8)
#
UID_MIN                  1000
UID_MAX                 60000
SYS_UID_MIN               201
SYS_UID_MAX               999

GID_MIN                  1000
GID_MAX                 60000

CREATE_HOME\tyes
UMASK\t\t077
USERGROUPS_ENAB yes
ENCRYPT_METHOD SHA512
"""


def r_pass_max_days():
    v = {"etc/login.defs": LOGIN_DEFS.format(maxline="#PASS_MAX_DAYS\t90\t# CIS - pending CHG-20417\nPASS_MAX_DAYS\t99999", mindays="1")}
    c = {"etc/login.defs": LOGIN_DEFS.format(maxline="PASS_MAX_DAYS   365", mindays="0")}
    rhel("set17-rhel9-password-max-age", "catalogue",
         "Passwords of newly created local accounts must expire after one year at the most: the default maximum password "
         "age configured for shadow-utils must be 365 days or less.",
         v, c, ["login.defs//PASS_MAX_DAYS"],
         "Violating: a commented '#PASS_MAX_DAYS 90' line, then the active PASS_MAX_DAYS 99999. Compliant: exactly 365 "
         "(bound); PASS_MIN_DAYS 0 (violates another CIS control).",
         "PASS_MAX_DAYS in /etc/login.defs <= 365", cis_id="5.4.1.1")


SUDOERS = """## Sudoers allows particular users to run various commands as
## the root user, without needing the root password.
##
## This file must be edited with the 'visudo' command.

Defaults   !visiblepw
Defaults    always_set_home
Defaults    match_group_by_gid
Defaults    always_query_group_plugin
Defaults    env_reset
Defaults    env_keep =  "COLORS DISPLAY HOSTNAME HISTSIZE KDEDIR LS_COLORS"
Defaults    env_keep += "MAIL QTDIR USERNAME LANG LC_ADDRESS LC_CTYPE"
Defaults    secure_path = /sbin:/bin:/usr/sbin:/usr/bin
{extra}
## Allow root to run any commands anywhere
root\tALL=(ALL) \tALL

## Allows people in group wheel to run all commands
%wheel\tALL=(ALL)\tALL

## Same thing without a password
# %wheel\tALL=(ALL)\tNOPASSWD: ALL

## Read drop-in files from /etc/sudoers.d (the # here does not mean a comment)
#includedir /etc/sudoers.d
"""


def r_sudo_auth():
    v = {"etc/sudoers": SUDOERS.format(extra="Defaults    use_pty\n"),
         "etc/sudoers.d/10-ops": "# ops team\n%ops ALL=(root) /usr/bin/systemctl status *, /usr/bin/journalctl\n",
         "etc/sudoers.d/90-deploy": "# app deployment account (ticket DEP-882)\nDefaults:deploy   !authenticate\ndeploy ALL=(root) /usr/bin/systemctl restart app.service\n"}
    c = {"etc/sudoers": SUDOERS.format(extra="Defaults    timestamp_timeout=0\n"),
         "etc/sudoers.d/10-ops": "# ops team\n%ops ALL=(root) /usr/bin/systemctl status *, /usr/bin/journalctl\n",
         "etc/sudoers.d/90-deploy": "# app deployment account (ticket DEP-882)\n# was: deploy ALL=(root) NOPASSWD: /usr/bin/systemctl restart app.service\n#Defaults:deploy !authenticate\ndeploy ALL=(root) PASSWD: /usr/bin/systemctl restart app.service\n"}
    attrs = {"/etc/sudoers": {"mode": "0440", "owner": "root", "group": "root"},
             "/etc/sudoers.d/10-ops": {"mode": "0440", "owner": "root", "group": "root"},
             "/etc/sudoers.d/90-deploy": {"mode": "0440", "owner": "root", "group": "root"}}
    rhel("set17-rhel9-sudo-reauthentication", "novel",
         "Users must always re-enter their password when they use sudo. No sudoers rule or Defaults entry - in /etc/sudoers "
         "or in the drop-in files it includes from /etc/sudoers.d - may switch authentication off, neither with a NOPASSWD "
         "tag nor with !authenticate.",
         v, c, ["sudoers//authenticate"],
         "Violating: /etc/sudoers.d/90-deploy has 'Defaults:deploy !authenticate' (included via '#includedir', which is a "
         "directive, not a comment); main file has only a commented NOPASSWD example. Compliant: NOPASSWD and !authenticate "
         "only in comments, an explicit PASSWD: tag; no use_pty (another STIG control).",
         "sudo must never skip authentication (no NOPASSWD, no !authenticate)", vattrs=attrs, cattrs=attrs)


# ============================================================== reference answers
FETCH_SH = """#!/bin/sh
# collect every manifest under static-resources/ into one List
set -e
python3 - <<'PY'
import glob, json
try:
    import yaml
except ImportError:
    yaml = None
items = []
for f in sorted(glob.glob("static-resources/**/*", recursive=True)):
    if not f.endswith((".yaml", ".yml", ".json")):
        continue
    text = open(f, encoding="utf-8").read()
    if f.endswith(".json"):
        docs = [json.loads(text)]
    else:
        docs = list(yaml.safe_load_all(text))
    for d in docs:
        if not d:
            continue
        if d.get("kind") == "List":
            items.extend(d.get("items") or [])
        else:
            items.append(d)
json.dump({"apiVersion": "v1", "kind": "List", "items": items}, open("collected_data.json", "w"))
PY
"""

WORKLOADS = "namespaces,pods,deployments,statefulsets,daemonsets,replicasets,jobs,cronjobs"


def fetcher(kinds):
    return "#!/bin/bash\nset -e\nkubectl get " + kinds + " -A -o json > collected_data.json\n"


REGO_HEAD = """package check

import rego.v1

default result := true

result := false if {
\tcount(violations) > 0
}

pod_spec(obj) := obj.spec if obj.kind == "Pod"

pod_spec(obj) := obj.spec.template.spec if obj.kind in {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "ReplicationController"}

pod_spec(obj) := obj.spec.jobTemplate.spec.template.spec if obj.kind == "CronJob"

all_containers(spec) := array.concat(array.concat(object.get(spec, "initContainers", []), object.get(spec, "containers", [])), object.get(spec, "ephemeralContainers", []))

ns_labels(name) := object.get(ns.metadata, "labels", {}) if {
\tsome ns in input.items
\tns.kind == "Namespace"
\tns.metadata.name == name
}

"""


def kyv(name, rules_yaml, title):
    return ("apiVersion: kyverno.io/v1\nkind: ClusterPolicy\nmetadata:\n  name: " + name + "\n  annotations:\n"
            "    policies.kyverno.io/title: " + json.dumps(title) + "\nspec:\n  validationFailureAction: Audit\n"
            "  background: true\n  rules:\n" + rules_yaml)


def k8s_solution(name, title, kinds, rego_body, kyv_rules):
    rego = REGO_HEAD + rego_body
    return {"kyverno-policy.yaml": kyv(name, kyv_rules, title), "policy.rego": rego,
            "fetcher.sh": fetcher(kinds), "fetch.sh": FETCH_SH}


SOLUTIONS = {}

SOLUTIONS["set17-privileged-containers"] = k8s_solution("no-privileged", "No privileged containers", WORKLOADS, """
violations contains obj.metadata.name if {
\tsome obj in input.items
\tobj.metadata.namespace != "kube-system"
\tsome c in all_containers(pod_spec(obj))
\tc.securityContext.privileged == true
}
""", """  - name: no-privileged
    match:
      any:
      - resources:
          kinds: [Pod]
    exclude:
      any:
      - resources:
          namespaces: [kube-system]
    validate:
      message: privileged containers are not allowed
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
""")


SOLUTIONS["set17-run-as-non-root"] = k8s_solution("tenant-run-as-non-root", "runAsNonRoot in tenant namespaces", WORKLOADS, """
violations contains obj.metadata.name if {
\tsome obj in input.items
\tns_labels(obj.metadata.namespace).tenant == "true"
\tspec := pod_spec(obj)
\tsome c in all_containers(spec)
\tobject.get(c, ["securityContext", "runAsNonRoot"], object.get(spec, ["securityContext", "runAsNonRoot"], false)) != true
}
""", """  - name: run-as-non-root
    match:
      any:
      - resources:
          kinds: [Pod]
          namespaceSelector:
            matchLabels:
              tenant: "true"
    validate:
      message: containers in tenant namespaces must run with runAsNonRoot true
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
""")

SOLUTIONS["set17-no-host-filesystem"] = k8s_solution("no-host-path", "No hostPath volumes", WORKLOADS, """
violations contains obj.metadata.name if {
\tsome obj in input.items
\tsome v in object.get(pod_spec(obj), "volumes", [])
\tv.hostPath
}
""", """  - name: no-host-path
    match:
      any:
      - resources:
          kinds: [Pod]
    validate:
      message: hostPath volumes are forbidden
      pattern:
        spec:
          =(volumes):
          - X(hostPath): "null"
""")

SOLUTIONS["set17-no-privilege-escalation"] = k8s_solution("no-privilege-escalation", "allowPrivilegeEscalation false", WORKLOADS, """
violations contains obj.metadata.name if {
\tsome obj in input.items
\tsome c in all_containers(pod_spec(obj))
\tobject.get(c, ["securityContext", "allowPrivilegeEscalation"], null) != false
}
""", """  - name: no-privilege-escalation
    match:
      any:
      - resources:
          kinds: [Pod]
    validate:
      message: allowPrivilegeEscalation must be set to false
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
""")

SOLUTIONS["set17-drop-all-capabilities"] = k8s_solution("drop-all-capabilities", "Drop ALL capabilities", WORKLOADS, """
violations contains obj.metadata.name if {
\tsome obj in input.items
\tnot startswith(object.get(obj.metadata, "namespace", ""), "kube-")
\tsome c in all_containers(pod_spec(obj))
\tnot "ALL" in object.get(c, ["securityContext", "capabilities", "drop"], [])
}
""", """  - name: drop-all
    match:
      any:
      - resources:
          kinds: [Pod]
    exclude:
      any:
      - resources:
          namespaces: ["kube-*"]
    validate:
      message: containers must drop ALL capabilities
      foreach:
      - list: "request.object.spec.[ephemeralContainers, initContainers, containers][]"
        deny:
          conditions:
            all:
            - key: ALL
              operator: AnyNotIn
              value: "{{ element.securityContext.capabilities.drop[] || `[]` }}"
""")

SOLUTIONS["set17-prod-resource-limits"] = k8s_solution("prod-limits", "CPU and memory limits in prod", WORKLOADS, """
violations contains obj.metadata.name if {
\tsome obj in input.items
\tns_labels(obj.metadata.namespace).env == "prod"
\tsome c in all_containers(pod_spec(obj))
\tsome r in ["cpu", "memory"]
\tobject.get(c, ["resources", "limits", r], null) == null
}
""", """  - name: cpu-memory-limits
    match:
      any:
      - resources:
          kinds: [Pod]
          namespaceSelector:
            matchLabels:
              env: prod
    validate:
      message: CPU and memory limits are required
      pattern:
        spec:
          =(initContainers):
          - resources:
              limits:
                memory: "?*"
                cpu: "?*"
          containers:
          - resources:
              limits:
                memory: "?*"
                cpu: "?*"
""")

SOLUTIONS["set17-rbac-no-wildcards"] = k8s_solution("rbac-no-wildcards", "No RBAC wildcards", "roles,clusterroles", """
violations contains obj.metadata.name if {
\tsome obj in input.items
\tobj.kind in {"Role", "ClusterRole"}
\tobj.metadata.name != "cluster-admin"
\tsome r in object.get(obj, "rules", [])
\tsome field in ["verbs", "resources"]
\t"*" in object.get(r, field, [])
}
""", """  - name: no-wildcards
    match:
      any:
      - resources:
          kinds: [Role, ClusterRole]
    exclude:
      any:
      - resources:
          kinds: [ClusterRole]
          names: [cluster-admin]
    validate:
      message: no wildcard verbs or resources
      deny:
        conditions:
          any:
          - key: "{{ contains(request.object.rules[].verbs[] || `[]`, '*') }}"
            operator: Equals
            value: true
          - key: "{{ contains(request.object.rules[].resources[] || `[]`, '*') }}"
            operator: Equals
            value: true
""")

SOLUTIONS["set17-memory-emptydir-size"] = k8s_solution("memory-emptydir-size", "sizeLimit on Memory emptyDir", WORKLOADS, """
violations contains obj.metadata.name if {
\tsome obj in input.items
\tsome v in object.get(pod_spec(obj), "volumes", [])
\tv.emptyDir.medium == "Memory"
\tnot v.emptyDir.sizeLimit
}
""", """  - name: memory-emptydir-size
    match:
      any:
      - resources:
          kinds: [Pod]
    validate:
      message: Memory emptyDir volumes need a sizeLimit
      foreach:
      - list: "request.object.spec.volumes[]"
        preconditions:
          all:
          - key: "{{ element.emptyDir.medium || '' }}"
            operator: Equals
            value: Memory
        deny:
          conditions:
            any:
            - key: "{{ element.emptyDir.sizeLimit || '' }}"
              operator: Equals
              value: ""
""")

SOLUTIONS["set17-lb-source-ranges"] = k8s_solution("lb-source-ranges", "LoadBalancer source ranges", "services", """
violations contains obj.metadata.name if {
\tsome obj in input.items
\tobj.kind == "Service"
\tobj.spec.type == "LoadBalancer"
\tbad_ranges(object.get(obj.spec, "loadBalancerSourceRanges", []))
}

bad_ranges(r) if count(r) == 0

bad_ranges(r) if {
\tsome x in r
\ttrim_space(x) in {"0.0.0.0/0", "::/0"}
}
""", """  - name: lb-source-ranges
    match:
      any:
      - resources:
          kinds: [Service]
    preconditions:
      all:
      - key: "{{ request.object.spec.type || '' }}"
        operator: Equals
        value: LoadBalancer
    validate:
      message: LoadBalancer Services need restricted source ranges
      deny:
        conditions:
          any:
          - key: "{{ length(request.object.spec.loadBalancerSourceRanges || `[]`) }}"
            operator: Equals
            value: 0
          - key: "{{ request.object.spec.loadBalancerSourceRanges || `[]` }}"
            operator: AnyIn
            value: ["0.0.0.0/0", "::/0"]
""")

SOLUTIONS["set17-no-anonymous-bindings"] = k8s_solution("no-anonymous-bindings", "No bindings to anonymous", "rolebindings,clusterrolebindings", """
violations contains obj.metadata.name if {
\tsome obj in input.items
\tobj.kind in {"RoleBinding", "ClusterRoleBinding"}
\tnot exempt(obj)
\tsome s in object.get(obj, "subjects", [])
\ts.kind in {"User", "Group"}
\ts.name in {"system:anonymous", "system:unauthenticated"}
}

exempt(obj) if {
\tobj.kind == "ClusterRoleBinding"
\tobj.metadata.name == "system:public-info-viewer"
}
""", """  - name: no-anonymous-subjects
    match:
      any:
      - resources:
          kinds: [RoleBinding, ClusterRoleBinding]
    exclude:
      any:
      - resources:
          kinds: [ClusterRoleBinding]
          names: ["system:public-info-viewer"]
    validate:
      message: bindings must not grant anything to unauthenticated callers
      deny:
        conditions:
          any:
          - key: "{{ request.object.subjects[?kind=='User' || kind=='Group'].name || `[]` }}"
            operator: AnyIn
            value: ["system:anonymous", "system:unauthenticated"]
""")

SOLUTIONS["set17-termination-grace-bounds"] = k8s_solution("termination-grace-bounds", "Grace period 10-120 s", WORKLOADS, """
violations contains obj.metadata.name if {
\tsome obj in input.items
\tobject.get(obj.metadata, "namespace", "") != "kube-system"
\tg := pod_spec(obj).terminationGracePeriodSeconds
\tout_of_bounds(g)
}

out_of_bounds(g) if g < 10

out_of_bounds(g) if g > 120
""", """  - name: grace-bounds
    match:
      any:
      - resources:
          kinds: [Pod]
    exclude:
      any:
      - resources:
          namespaces: [kube-system]
    validate:
      message: terminationGracePeriodSeconds must be between 10 and 120
      deny:
        conditions:
          any:
          - key: "{{ request.object.spec.terminationGracePeriodSeconds || `30` }}"
            operator: LessThan
            value: 10
          - key: "{{ request.object.spec.terminationGracePeriodSeconds || `30` }}"
            operator: GreaterThan
            value: 120
""")


PLAY_SSH = """- name: Collect the effective sshd PermitRootLogin setting
  hosts: rhel9_servers
  gather_facts: false
  tasks:
    - name: Read the sshd configuration in the order sshd reads it (Include expanded in place)
      ansible.builtin.shell: |
        expand() {
          while IFS= read -r line || [ -n "$line" ]; do
            set -- $line
            kw=$(printf '%s' "${1:-}" | tr 'A-Z' 'a-z')
            if [ "$kw" = "include" ]; then
              shift
              for pat in "$@"; do
                case "$pat" in /*) ;; *) pat="/etc/ssh/$pat" ;; esac
                for f in $pat; do [ -f "$f" ] && expand < "$f"; done
              done
            else
              printf '%s\\n' "$line"
            fi
          done
        }
        expand < /etc/ssh/sshd_config | awk 'tolower($1)=="permitrootlogin" {print tolower($2); exit}'
      register: prl
      changed_when: false

    - name: Save the collected data
      ansible.builtin.copy:
        content: "{{ {'permit_root_login': (prl.stdout | trim) if (prl.stdout | trim) else 'default'} | to_json }}"
        dest: "{{ playbook_dir }}/collected_data.json"
      delegate_to: localhost
"""

REGO_SSH = """package check

import rego.v1

default result := false

result if input.permit_root_login == "no"
"""

PLAY_LOGIN = """- name: Collect PASS_MAX_DAYS from /etc/login.defs
  hosts: rhel9_servers
  gather_facts: false
  tasks:
    - name: Read the active PASS_MAX_DAYS line (the last one wins)
      ansible.builtin.shell: awk '$1 == "PASS_MAX_DAYS" {v=$2} END {print v}' /etc/login.defs
      register: maxdays
      changed_when: false

    - name: Save the collected data
      ansible.builtin.copy:
        content: "{{ {'pass_max_days': maxdays.stdout | trim} | to_json }}"
        dest: "{{ playbook_dir }}/collected_data.json"
      delegate_to: localhost
"""

REGO_LOGIN = """package check

import rego.v1

default result := false

result if {
\tinput.pass_max_days != ""
\tto_number(input.pass_max_days) <= 365
\tto_number(input.pass_max_days) >= 0
}
"""

PLAY_SUDO = """- name: Collect sudo rules that skip authentication
  hosts: rhel9_servers
  gather_facts: false
  become: false
  tasks:
    - name: Active (non-comment) NOPASSWD or !authenticate entries in sudoers and its drop-ins
      ansible.builtin.shell: |
        files=/etc/sudoers
        for f in /etc/sudoers.d/*; do
          case "$(basename "$f")" in *~|*.*) continue ;; esac
          [ -f "$f" ] && files="$files $f"
        done
        for f in $files; do
          grep -v -E '^[[:space:]]*#' "$f" | grep -E 'NOPASSWD|!authenticate' | sed "s|^|$f: |" || true
        done
      register: noauth
      changed_when: false

    - name: Save the collected data
      ansible.builtin.copy:
        content: "{{ {'no_auth_entries': noauth.stdout_lines} | to_json }}"
        dest: "{{ playbook_dir }}/collected_data.json"
      delegate_to: localhost
"""

REGO_SUDO = """package check

import rego.v1

default result := false

result if count(input.no_auth_entries) == 0
"""

SOLUTIONS["set17-rhel9-ssh-no-root-login"] = {"playbook.yml": PLAY_SSH, "policy.rego": REGO_SSH}
SOLUTIONS["set17-rhel9-password-max-age"] = {"playbook.yml": PLAY_LOGIN, "policy.rego": REGO_LOGIN}
SOLUTIONS["set17-rhel9-sudo-reauthentication"] = {"playbook.yml": PLAY_SUDO, "policy.rego": REGO_SUDO}

# ============================================================== output
BUILDERS = [s_privileged, s_run_as_non_root, s_hostpath, s_priv_escalation, s_drop_all, s_limits_prod, s_rbac_wildcards,
            s_emptydir_memory, s_lb_ranges, s_anon_bindings, s_grace_period, r_ssh_root, r_pass_max_days, r_sudo_auth]


def scenario_yaml(s):
    doc = {"id": s["id"]}
    if s.get("cis_id"):
        doc["cis_id"] = s["cis_id"]
    doc["platform"] = s["platform"]
    doc["title"] = s["title"]
    doc["requirement"] = s["requirement"]
    doc["classes"] = s["classes"]
    doc["violating_resources"] = s["bad"]
    doc["notes"] = f"[{s['half']}] " + s["notes"]
    return "\n".join(_dump(doc, 0)) + "\n"


def attrs_yaml(attrs):
    return "\n".join(_dump(attrs, 0)) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python gen.py OUT")
    out = sys.argv[1]
    for b in BUILDERS:
        b()
    ids = set()
    for s in SCENARIOS:
        assert s["id"] not in ids, s["id"]
        ids.add(s["id"])
        d = os.path.join(out, s["id"])
        write(os.path.join(d, "scenario.yaml"), scenario_yaml(s))
        if s["platform"] == "kubernetes":
            for env, files in (("violating", s["vdocs"]), ("compliant", s["cdocs"])):
                for fn, docs in files.items():
                    write(os.path.join(d, env, fn), yaml_docs(docs))
        else:
            for env, tree, attrs in (("violating", s["vtree"], s["vattrs"]), ("compliant", s["ctree"], s["cattrs"])):
                for rel, text in tree.items():
                    write(os.path.join(d, env, "host", rel), text)
                if attrs:
                    write(os.path.join(d, env, "host-attributes.yaml"), attrs_yaml(attrs))
        sol = SOLUTIONS.get(s["id"]) if "SOLUTIONS" in globals() else None
        if sol:
            for fn, text in sol.items():
                write(os.path.join(d, "solution", fn), text, 0o755 if fn.endswith(".sh") else None)
    print(f"wrote {len(SCENARIOS)} scenarios, {sum(len(s['classes']) for s in SCENARIOS)} trials to {out}")


if __name__ == "__main__":
    main()
