#!/usr/bin/env python3
"""ciso-set11: held-out CISO scenarios. Usage: python gen.py OUT (stdlib only, deterministic)."""
import json, os, re, sys

# ---------------------------------------------------------------- tiny YAML emitter
_PLAIN = re.compile(r'^[A-Za-z_/][A-Za-z0-9_./-]*$')
_RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}

def _scalar(v):
    if v is True: return "true"
    if v is False: return "false"
    if v is None: return "null"
    if isinstance(v, int): return str(v)
    s = str(v)
    if _PLAIN.match(s) and s.lower() not in _RESERVED: return s
    return json.dumps(s)

def ydump(obj, ind=0):
    sp = "  " * ind
    out = []
    if isinstance(obj, dict):
        if not obj: return sp + "{}\n"
        for k, v in obj.items():
            k = _scalar(k)
            if isinstance(v, dict) and v:
                out.append(f"{sp}{k}:\n" + ydump(v, ind + 1))
            elif isinstance(v, list) and v:
                out.append(f"{sp}{k}:\n" + ydump(v, ind))
            elif isinstance(v, (dict, list)):
                out.append(f"{sp}{k}: {'{}' if isinstance(v, dict) else '[]'}\n")
            else:
                out.append(f"{sp}{k}: {_scalar(v)}\n")
    elif isinstance(obj, list):
        for it in obj:
            if isinstance(it, (dict, list)) and it:
                sub = ydump(it, ind + 1)
                first = sub[len(sp) + 2:]
                out.append(f"{sp}- {first}")
            else:
                out.append(f"{sp}- {_scalar(it) if not isinstance(it,(dict,list)) else ('{}' if isinstance(it, dict) else '[]')}\n")
    else:
        out.append(sp + _scalar(obj) + "\n")
    return "".join(out)

def docs(*objs):
    return "".join("---\n" + ydump(o) for o in objs)

# ---------------------------------------------------------------- k8s builders
def meta(name, ns=None, labels=None, ann=None):
    m = {"name": name}
    if ns: m["namespace"] = ns
    if labels: m["labels"] = labels
    if ann: m["annotations"] = ann
    return m

def ctr(name, image, **kw):
    c = {"name": name, "image": image}
    c.update(kw)
    return c

def podspec(containers, **kw):
    s = dict(kw)
    s["containers"] = containers
    return s

def deploy(name, ns, spec, replicas=2, kind="Deployment", labels=None):
    app = {"app": name}
    o = {"apiVersion": "apps/v1", "kind": kind, "metadata": meta(name, ns, labels or app),
         "spec": {"replicas": replicas, "selector": {"matchLabels": app},
                  "template": {"metadata": {"labels": app}, "spec": spec}}}
    if kind == "DaemonSet": del o["spec"]["replicas"]
    if kind == "StatefulSet": o["spec"]["serviceName"] = name
    return o

def cronjob(name, ns, spec, schedule="15 3 * * *"):
    spec = dict(spec); spec.setdefault("restartPolicy", "OnFailure")
    return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": meta(name, ns),
            "spec": {"schedule": schedule, "jobTemplate": {"spec": {"template": {"spec": spec}}}}}

def job(name, ns, spec):
    spec = dict(spec); spec.setdefault("restartPolicy", "Never")
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": meta(name, ns),
            "spec": {"template": {"spec": spec}}}

def pod(name, ns, spec, labels=None):
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta(name, ns, labels), "spec": spec}

def ns(name, labels=None):
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": meta(name, labels=labels)}

def svc(name, nsn, ports, type_=None, **kw):
    s = {"selector": {"app": name}, "ports": ports}
    if type_: s["type"] = type_
    s.update(kw)
    return {"apiVersion": "v1", "kind": "Service", "metadata": meta(name, nsn), "spec": s}

# ---------------------------------------------------------------- scenarios
SCEN = []

def k8s(id_, requirement, classes, viol, violating_files, compliant_files, notes, title=None):
    SCEN.append(dict(id=id_, platform="kubernetes", requirement=requirement, classes=classes,
                     violating_resources=viol, violating=violating_files, compliant=compliant_files,
                     notes=notes, title=title))

def rhel(id_, requirement, viol, vhost, chost, notes, vattrs=None, cattrs=None):
    SCEN.append(dict(id=id_, platform="rhel9", requirement=requirement, classes=["rhel9-ansible-opa"],
                     violating_resources=viol, vhost=vhost, chost=chost, vattrs=vattrs, cattrs=cattrs,
                     notes=notes))

ALL3 = ["kyverno", "kubectl-opa", "opa-static"]

# 1 shareProcessNamespace (named field)
k8s("k8s-share-process-namespace",
    "Pod templates must not set `spec.template.spec.shareProcessNamespace` to true (for CronJobs "
    "`spec.jobTemplate.spec.template.spec.shareProcessNamespace`; for bare Pods `spec.shareProcessNamespace`).",
    ALL3,
    ["Deployment/billing/invoice-api", "CronJob/billing/ledger-compaction"],
    {"workloads.yaml": docs(
        ns("billing"),
        deploy("invoice-api", "billing", podspec([ctr("api", "registry.example.com/billing/invoice-api:4.2.1"),
                                                   ctr("debug-sidecar", "registry.example.com/tools/busybox:1.36",
                                                       command=["sleep", "infinity"])],
                                                  shareProcessNamespace=True)),
        deploy("invoice-worker", "billing", podspec([ctr("worker", "registry.example.com/billing/invoice-worker:4.2.1")],
                                                     shareProcessNamespace=False), replicas=3)),
     "jobs.yaml": docs(
        cronjob("ledger-compaction", "billing", podspec([ctr("compact", "registry.example.com/billing/ledger-tools:1.9")],
                                                          shareProcessNamespace=True)))},
    {"workloads.yaml": docs(
        ns("billing"),
        deploy("invoice-api", "billing", podspec([ctr("api", "registry.example.com/billing/invoice-api:4.2.1"),
                                                   ctr("debug-sidecar", "registry.example.com/tools/busybox:1.36",
                                                       command=["sleep", "infinity"])],
                                                  shareProcessNamespace=False)),
        deploy("invoice-worker", "billing", podspec([ctr("worker", "registry.example.com/billing/invoice-worker:4.2.1")]), replicas=3)),
     "jobs.yaml": docs(
        cronjob("ledger-compaction", "billing", podspec([ctr("compact", "registry.example.com/billing/ledger-tools:1.9")])))},
    "Violation in the Deployment (with a debug sidecar) and in a CronJob jobTemplate. Compliant: explicit false and unset.")

# 2 imagePullPolicy (named field)
k8s("k8s-image-pull-policy-always",
    "Every container, including init containers, must set `imagePullPolicy: Always` explicitly "
    "(`spec.template.spec.containers[*].imagePullPolicy` and `spec.template.spec.initContainers[*].imagePullPolicy`).",
    ALL3,
    ["Deployment/catalog/search-frontend", "StatefulSet/catalog/search-index"],
    {"catalog.yaml": docs(
        ns("catalog"),
        deploy("search-frontend", "catalog", podspec(
            [ctr("frontend", "quay.io/acme/search-frontend:2.8.0", imagePullPolicy="Always"),
             ctr("envoy", "docker.io/envoyproxy/envoy:v1.30.2")])),
        deploy("search-index", "catalog", podspec(
            [ctr("opensearch", "docker.io/opensearchproject/opensearch:2.13.0", imagePullPolicy="Always")],
            initContainers=[ctr("fix-perms", "docker.io/library/busybox:1.36", imagePullPolicy="IfNotPresent",
                                command=["sh", "-c", "chown -R 1000:1000 /usr/share/opensearch/data"])]),
            replicas=3, kind="StatefulSet"),
        deploy("catalog-sync", "catalog", podspec(
            [ctr("sync", "quay.io/acme/catalog-sync:0.9.4", imagePullPolicy="Always")]), replicas=1))},
    {"catalog.yaml": docs(
        ns("catalog"),
        deploy("search-frontend", "catalog", podspec(
            [ctr("frontend", "quay.io/acme/search-frontend:2.8.0", imagePullPolicy="Always"),
             ctr("envoy", "docker.io/envoyproxy/envoy:v1.30.2", imagePullPolicy="Always")])),
        deploy("search-index", "catalog", podspec(
            [ctr("opensearch", "docker.io/opensearchproject/opensearch:2.13.0", imagePullPolicy="Always")],
            initContainers=[ctr("fix-perms", "docker.io/library/busybox:1.36", imagePullPolicy="Always",
                                command=["sh", "-c", "chown -R 1000:1000 /usr/share/opensearch/data"])]),
            replicas=3, kind="StatefulSet"),
        deploy("catalog-sync", "catalog", podspec(
            [ctr("sync", "quay.io/acme/catalog-sync:0.9.4", imagePullPolicy="Always")]), replicas=1))},
    "Second container with the field omitted (API default for a non-latest tag is IfNotPresent) and an init container with IfNotPresent.")


# 3 procMount (named field)
k8s("k8s-proc-mount-default",
    "`securityContext.procMount` of every container and init container "
    "(`spec.template.spec.containers[*].securityContext.procMount`, `spec.template.spec.initContainers[*].securityContext.procMount`) "
    "must be unset or `Default`; `Unmasked` is not allowed.",
    ALL3,
    ["StatefulSet/build/buildkitd", "Pod/build/image-builder-7f2c"],
    {"build.yaml": docs(
        ns("build"),
        deploy("buildkitd", "build", podspec(
            [ctr("buildkitd", "docker.io/moby/buildkit:v0.13.2-rootless", securityContext={"procMount": "Default"})],
            initContainers=[ctr("prepare", "docker.io/moby/buildkit:v0.13.2-rootless",
                                securityContext={"procMount": "Unmasked", "runAsUser": 1000})],
            hostUsers=False), replicas=1, kind="StatefulSet"),
        pod("image-builder-7f2c", "build", podspec(
            [ctr("kaniko", "gcr.io/kaniko-project/executor:v1.23.0"),
             ctr("builder", "docker.io/moby/buildkit:v0.13.2-rootless",
                 securityContext={"procMount": "Unmasked", "seccompProfile": {"type": "Unconfined"}})],
            restartPolicy="Never", hostUsers=False)),
        deploy("cache-proxy", "build", podspec([ctr("proxy", "docker.io/library/registry:2.8.3")]), replicas=1))},
    {"build.yaml": docs(
        ns("build"),
        deploy("buildkitd", "build", podspec(
            [ctr("buildkitd", "docker.io/moby/buildkit:v0.13.2-rootless", securityContext={"procMount": "Default"})],
            initContainers=[ctr("prepare", "docker.io/moby/buildkit:v0.13.2-rootless",
                                securityContext={"procMount": "Default", "runAsUser": 1000})],
            hostUsers=False), replicas=1, kind="StatefulSet"),
        pod("image-builder-7f2c", "build", podspec(
            [ctr("kaniko", "gcr.io/kaniko-project/executor:v1.23.0"),
             ctr("builder", "docker.io/moby/buildkit:v0.13.2-rootless",
                 securityContext={"seccompProfile": {"type": "Unconfined"}})],
            restartPolicy="Never", hostUsers=False)),
        deploy("cache-proxy", "build", podspec([ctr("proxy", "docker.io/library/registry:2.8.3")]), replicas=1))},
    "Unmasked in an init container of a StatefulSet and in the second container of a bare Pod. Compliant keeps Default and unset.")

# 4 sysctls (named field)
SAFE_SYSCTLS = "kernel.shm_rmid_forced, net.ipv4.ip_local_port_range, net.ipv4.ip_unprivileged_port_start, " \
    "net.ipv4.tcp_syncookies, net.ipv4.ping_group_range, net.ipv4.ip_local_reserved_ports, " \
    "net.ipv4.tcp_keepalive_time, net.ipv4.tcp_fin_timeout, net.ipv4.tcp_keepalive_intvl, net.ipv4.tcp_keepalive_probes"
k8s("k8s-pod-sysctls-safe-set",
    "Pod-level sysctls (`spec.template.spec.securityContext.sysctls[*].name`, for CronJobs under "
    "`spec.jobTemplate.spec.template.spec.securityContext.sysctls`) may only use the safe set: " + SAFE_SYSCTLS + ".",
    ALL3,
    ["Deployment/edge/haproxy", "Job/edge/redis-bench"],
    {"edge.yaml": docs(
        ns("edge"),
        deploy("haproxy", "edge", podspec([ctr("haproxy", "docker.io/library/haproxy:2.9.7")],
            securityContext={"sysctls": [{"name": "net.ipv4.ip_local_port_range", "value": "1024 65000"},
                                         {"name": "net.core.somaxconn", "value": "4096"}]}), replicas=3),
        deploy("envoy-edge", "edge", podspec([ctr("envoy", "docker.io/envoyproxy/envoy:v1.30.2")],
            securityContext={"runAsNonRoot": True, "sysctls": [{"name": "net.ipv4.tcp_keepalive_time", "value": "300"}]}))),
     "bench.yaml": docs(
        job("redis-bench", "edge", podspec([ctr("bench", "docker.io/library/redis:7.2.4", command=["redis-benchmark", "-q"])],
            securityContext={"sysctls": [{"name": "vm.overcommit_memory", "value": "1"}]})))},
    {"edge.yaml": docs(
        ns("edge"),
        deploy("haproxy", "edge", podspec([ctr("haproxy", "docker.io/library/haproxy:2.9.7")],
            securityContext={"sysctls": [{"name": "net.ipv4.ip_local_port_range", "value": "1024 65000"},
                                         {"name": "net.ipv4.tcp_fin_timeout", "value": "15"}]}), replicas=3),
        deploy("envoy-edge", "edge", podspec([ctr("envoy", "docker.io/envoyproxy/envoy:v1.30.2")],
            securityContext={"runAsNonRoot": True, "sysctls": [{"name": "net.ipv4.tcp_keepalive_time", "value": "300"}]}))),
     "bench.yaml": docs(
        job("redis-bench", "edge", podspec([ctr("bench", "docker.io/library/redis:7.2.4", command=["redis-benchmark", "-q"])],
            securityContext={"sysctls": [{"name": "net.ipv4.ip_unprivileged_port_start", "value": "0"}]})))},
    "net.core.somaxconn as second entry next to a safe one; vm.overcommit_memory in a Job. Compliant uses only safe names.")

# 5 Service type (named field)
k8s("k8s-service-type-clusterip",
    "Services must not be exposed outside the cluster network: `spec.type` must be `ClusterIP` (or unset); "
    "`NodePort` and `LoadBalancer` are not allowed.",
    ["kyverno", "kubectl-opa", "opa-static"],
    ["Service/monitoring/grafana", "Service/shop/checkout-public"],
    {"services.yaml": docs(
        ns("monitoring"), ns("shop"),
        svc("grafana", "monitoring", [{"name": "http", "port": 3000, "targetPort": 3000, "nodePort": 30300}], "NodePort"),
        svc("prometheus", "monitoring", [{"name": "web", "port": 9090}]),
        svc("checkout", "shop", [{"name": "http", "port": 80, "targetPort": 8080}], "ClusterIP"),
        svc("checkout-public", "shop", [{"name": "https", "port": 443, "targetPort": 8443}], "LoadBalancer",
            loadBalancerSourceRanges=["10.0.0.0/8"]),
        svc("checkout-headless", "shop", [{"name": "http", "port": 8080}], "ClusterIP", clusterIP="None"))},
    {"services.yaml": docs(
        ns("monitoring"), ns("shop"),
        svc("grafana", "monitoring", [{"name": "http", "port": 3000, "targetPort": 3000}], "ClusterIP"),
        svc("prometheus", "monitoring", [{"name": "web", "port": 9090}]),
        svc("checkout", "shop", [{"name": "http", "port": 80, "targetPort": 8080}], "ClusterIP"),
        svc("checkout-public", "shop", [{"name": "https", "port": 443, "targetPort": 8443}], "ClusterIP"),
        svc("checkout-headless", "shop", [{"name": "http", "port": 8080}], "ClusterIP", clusterIP="None"))},
    "Requirement text names the field only as spec.type. One NodePort, one internal-restricted LoadBalancer (still forbidden). Compliant has headless and unset-type Services.")

# 6 StatefulSet PVC retention (named field)
def sts_pvc(name, nsn, image, policy):
    o = deploy(name, nsn, podspec([ctr(name, image, volumeMounts=[{"name": "data", "mountPath": "/data"}])]),
               replicas=3, kind="StatefulSet")
    o["spec"]["volumeClaimTemplates"] = [{"metadata": {"name": "data"}, "spec": {
        "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "20Gi"}}}}]
    if policy is not None:
        o["spec"]["persistentVolumeClaimRetentionPolicy"] = policy
    return o
k8s("k8s-statefulset-pvc-retain-on-delete",
    "StatefulSets must keep their data when they are deleted: `spec.persistentVolumeClaimRetentionPolicy.whenDeleted` "
    "must not be `Delete` (unset means Retain and is fine).",
    ["kyverno", "kubectl-opa", "opa-static"],
    ["StatefulSet/data/kafka"],
    {"data.yaml": docs(
        ns("data"),
        sts_pvc("zookeeper", "data", "docker.io/library/zookeeper:3.9.2", None),
        sts_pvc("kafka", "data", "docker.io/bitnami/kafka:3.7.0", {"whenScaled": "Retain", "whenDeleted": "Delete"}),
        sts_pvc("postgres", "data", "docker.io/library/postgres:16.3", {"whenScaled": "Delete", "whenDeleted": "Retain"}))},
    {"data.yaml": docs(
        ns("data"),
        sts_pvc("zookeeper", "data", "docker.io/library/zookeeper:3.9.2", None),
        sts_pvc("kafka", "data", "docker.io/bitnami/kafka:3.7.0", {"whenScaled": "Retain", "whenDeleted": "Retain"}),
        sts_pvc("postgres", "data", "docker.io/library/postgres:16.3", {"whenScaled": "Delete", "whenDeleted": "Retain"}))},
    "Near miss in both envs: postgres has whenScaled: Delete but whenDeleted: Retain (compliant).")

# 7 RoleBinding subjects (named field)
def rb(kind, name, nsn, role_kind, role, subjects):
    o = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": kind, "metadata": meta(name, nsn),
         "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": role_kind, "name": role}, "subjects": subjects}
    return o
def subj(kind, name, nsn=None):
    s = {"kind": kind, "name": name}
    if kind == "ServiceAccount": s["namespace"] = nsn
    else: s["apiGroup"] = "rbac.authorization.k8s.io"
    return s
k8s("k8s-binding-anonymous-subjects",
    "No RoleBinding or ClusterRoleBinding may grant anything to unauthenticated callers: `subjects[*].name` must not be "
    "`system:anonymous` (kind User) or `system:unauthenticated` (kind Group).",
    ["kyverno", "kubectl-opa", "opa-static"],
    ["ClusterRoleBinding//healthz-public", "RoleBinding/docs/docs-readers"],
    {"rbac.yaml": docs(
        ns("docs"),
        rb("ClusterRoleBinding", "healthz-public", None, "ClusterRole", "system:public-info-viewer",
           [subj("Group", "system:authenticated"), subj("User", "system:anonymous")]),
        rb("RoleBinding", "docs-readers", "docs", "ClusterRole", "view",
           [subj("Group", "docs-team"), subj("ServiceAccount", "docs-sync", "docs"), subj("Group", "system:unauthenticated")]),
        rb("RoleBinding", "docs-editors", "docs", "ClusterRole", "edit", [subj("Group", "docs-team")]),
        rb("ClusterRoleBinding", "oidc-viewers", None, "ClusterRole", "view", [subj("Group", "system:authenticated")]))},
    {"rbac.yaml": docs(
        ns("docs"),
        rb("ClusterRoleBinding", "healthz-public", None, "ClusterRole", "system:public-info-viewer",
           [subj("Group", "system:authenticated")]),
        rb("RoleBinding", "docs-readers", "docs", "ClusterRole", "view",
           [subj("Group", "docs-team"), subj("ServiceAccount", "docs-sync", "docs")]),
        rb("RoleBinding", "docs-editors", "docs", "ClusterRole", "edit", [subj("Group", "docs-team")]),
        rb("ClusterRoleBinding", "oidc-viewers", None, "ClusterRole", "view", [subj("Group", "system:authenticated")]))},
    "Bad subject is the 2nd/3rd of a list. Near miss system:authenticated stays in both envs.")

# 8 IngressClass (named field)
def ing(name, nsn, cls, hosts, ann=None):
    spec = {}
    if cls: spec["ingressClassName"] = cls
    spec["rules"] = [{"host": h, "http": {"paths": [{"path": "/", "pathType": "Prefix",
        "backend": {"service": {"name": name, "port": {"number": 80}}}}]}} for h in hosts]
    return {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": meta(name, nsn, ann=ann), "spec": spec}
k8s("k8s-ingress-class-internal",
    "Every Ingress must set `spec.ingressClassName` to `internal-nginx`.",
    ["kyverno", "kubectl-opa", "opa-static"],
    ["Ingress/portal/portal", "Ingress/wiki/wiki"],
    {"ingress.yaml": docs(
        ns("portal"), ns("wiki"),
        ing("portal", "portal", "public-nginx", ["portal.corp.example"]),
        ing("portal-admin", "portal", "internal-nginx", ["admin.portal.corp.example"]),
        ing("wiki", "wiki", None, ["wiki.corp.example"], ann={"kubernetes.io/ingress.class": "internal-nginx"}))},
    {"ingress.yaml": docs(
        ns("portal"), ns("wiki"),
        ing("portal", "portal", "internal-nginx", ["portal.corp.example"]),
        ing("portal-admin", "portal", "internal-nginx", ["admin.portal.corp.example"]),
        ing("wiki", "wiki", "internal-nginx", ["wiki.corp.example"], ann={"kubernetes.io/ingress.class": "internal-nginx"}))},
    "wiki uses only the deprecated annotation (field absent) -> violating as the text names the field. Compliant wiki keeps the annotation and sets the field.")

# 9 Windows HostProcess (effect)
WIN = {"kubernetes.io/os": "windows"}
k8s("k8s-no-windows-host-process",
    "Windows workloads must not be able to run as host processes with direct access to the Windows node.",
    ["kyverno", "kubectl-opa", "opa-static"],
    ["DaemonSet/win-ops/log-forwarder", "Deployment/win-apps/perf-collector"],
    {"windows.yaml": docs(
        ns("win-ops"), ns("win-apps"),
        deploy("log-forwarder", "win-ops", podspec(
            [ctr("fluent-bit", "mcr.microsoft.com/oss/fluent/fluent-bit:3.0.4")],
            nodeSelector=WIN, hostNetwork=True,
            securityContext={"windowsOptions": {"hostProcess": True, "runAsUserName": "NT AUTHORITY\\SYSTEM"}}), kind="DaemonSet"),
        deploy("legacy-iis", "win-apps", podspec(
            [ctr("iis", "mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022")],
            nodeSelector=WIN,
            securityContext={"windowsOptions": {"gmsaCredentialSpecName": "iis-gmsa"}})),
        deploy("perf-collector", "win-apps", podspec(
            [ctr("perf-agent", "mcr.microsoft.com/windows/nanoserver:ltsc2022",
                 securityContext={"windowsOptions": {"hostProcess": True, "runAsUserName": "NT AUTHORITY\\Local service"}}),
             ctr("log-shipper", "mcr.microsoft.com/windows/nanoserver:ltsc2022",
                 securityContext={"windowsOptions": {"hostProcess": True, "runAsUserName": "NT AUTHORITY\\Local service"}})],
            nodeSelector=WIN, hostNetwork=True), replicas=1),
        deploy("payroll-web", "win-apps", podspec(
            [ctr("web", "registry.example.com/payroll/web:8.1.0")], nodeSelector=WIN,
            securityContext={"windowsOptions": {"runAsUserName": "ContainerUser", "hostProcess": False}})))},
    {"windows.yaml": docs(
        ns("win-ops"), ns("win-apps"),
        deploy("log-forwarder", "win-ops", podspec(
            [ctr("fluent-bit", "mcr.microsoft.com/oss/fluent/fluent-bit:3.0.4")],
            nodeSelector=WIN,
            securityContext={"windowsOptions": {"runAsUserName": "ContainerAdministrator"}}), kind="DaemonSet"),
        deploy("legacy-iis", "win-apps", podspec(
            [ctr("iis", "mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022")],
            nodeSelector=WIN,
            securityContext={"windowsOptions": {"gmsaCredentialSpecName": "iis-gmsa"}})),
        deploy("perf-collector", "win-apps", podspec(
            [ctr("perf-agent", "mcr.microsoft.com/windows/nanoserver:ltsc2022",
                 securityContext={"windowsOptions": {"hostProcess": False, "runAsUserName": "ContainerUser"}}),
             ctr("log-shipper", "mcr.microsoft.com/windows/nanoserver:ltsc2022",
                 securityContext={"windowsOptions": {"runAsUserName": "ContainerUser"}})],
            nodeSelector=WIN), replicas=1),
        deploy("payroll-web", "win-apps", podspec(
            [ctr("web", "registry.example.com/payroll/web:8.1.0")], nodeSelector=WIN,
            securityContext={"windowsOptions": {"runAsUserName": "ContainerUser", "hostProcess": False}})))},
    "Truth: securityContext.windowsOptions.hostProcess: true at pod level (DaemonSet) or only at container level (perf-collector). "
    "Near misses: hostProcess false, gmsa options.")

# 10 network file-server volumes (effect)
k8s("k8s-no-direct-network-storage-volumes",
    "Pods must not attach storage directly from NFS servers or iSCSI targets; network storage may only be used through PersistentVolumeClaims.",
    ["kyverno", "kubectl-opa", "opa-static"],
    ["CronJob/reports/nightly-export", "StatefulSet/legacy/oracle-xe"],
    {"reports.yaml": docs(
        ns("reports"),
        deploy("report-ui", "reports", podspec([ctr("ui", "registry.example.com/reports/ui:3.3.0",
            volumeMounts=[{"name": "exports", "mountPath": "/exports", "readOnly": True}])],
            volumes=[{"name": "exports", "persistentVolumeClaim": {"claimName": "exports-nfs", "readOnly": True}}])),
        cronjob("nightly-export", "reports", podspec([ctr("export", "registry.example.com/reports/exporter:3.3.0",
            volumeMounts=[{"name": "tmp", "mountPath": "/tmp"}, {"name": "share", "mountPath": "/mnt/share"}])],
            volumes=[{"name": "tmp", "emptyDir": {}},
                     {"name": "share", "nfs": {"server": "filer01.corp.example", "path": "/vol/reports"}}]))),
     "legacy.yaml": docs(
        ns("legacy"),
        deploy("oracle-xe", "legacy", podspec([ctr("db", "container-registry.oracle.com/database/express:21.3.0-xe",
            volumeMounts=[{"name": "oradata", "mountPath": "/opt/oracle/oradata"}])],
            volumes=[{"name": "oradata", "iscsi": {"targetPortal": "10.20.0.15:3260",
                "iqn": "iqn.2005-10.org.freenas.ctl:oradata", "lun": 0, "fsType": "xfs", "readOnly": False}}]),
            replicas=1, kind="StatefulSet"))},
    {"reports.yaml": docs(
        ns("reports"),
        deploy("report-ui", "reports", podspec([ctr("ui", "registry.example.com/reports/ui:3.3.0",
            volumeMounts=[{"name": "exports", "mountPath": "/exports", "readOnly": True}])],
            volumes=[{"name": "exports", "persistentVolumeClaim": {"claimName": "exports-nfs", "readOnly": True}}])),
        cronjob("nightly-export", "reports", podspec([ctr("export", "registry.example.com/reports/exporter:3.3.0",
            volumeMounts=[{"name": "tmp", "mountPath": "/tmp"}, {"name": "share", "mountPath": "/mnt/share"}])],
            volumes=[{"name": "tmp", "emptyDir": {}},
                     {"name": "share", "persistentVolumeClaim": {"claimName": "reports-share"}}]))),
     "legacy.yaml": docs(
        ns("legacy"),
        deploy("oracle-xe", "legacy", podspec([ctr("db", "container-registry.oracle.com/database/express:21.3.0-xe",
            volumeMounts=[{"name": "oradata", "mountPath": "/opt/oracle/oradata"}])],
            volumes=[{"name": "oradata", "ephemeral": {"volumeClaimTemplate": {"spec": {
                "accessModes": ["ReadWriteOnce"], "storageClassName": "iscsi-targetd",
                "resources": {"requests": {"storage": "50Gi"}}}}}}]),
            replicas=1, kind="StatefulSet"))},
    "Truth: volumes[*].nfs / volumes[*].iscsi inline. Near misses: PVC named exports-nfs, generic ephemeral volume with an iSCSI storage class.")

# 11 gitRepo volumes (effect)
k8s("k8s-no-gitrepo-volumes",
    "No workload may have the kubelet clone a Git repository onto the node to populate a volume (the deprecated in-tree mechanism behind CVE-2024-10220); use an init container or a git-sync sidecar instead.",
    ["kyverno", "kubectl-opa", "opa-static"],
    ["Deployment/docs/hugo-site", "Pod/ci/render-7x9k2"],
    {"site.yaml": docs(
        ns("docs"), ns("ci"),
        deploy("hugo-site", "docs", podspec(
            [ctr("nginx", "docker.io/library/nginx:1.27.0", volumeMounts=[{"name": "html", "mountPath": "/usr/share/nginx/html"}])],
            volumes=[{"name": "cache", "emptyDir": {"sizeLimit": "256Mi"}},
                     {"name": "html", "gitRepo": {"repository": "https://git.corp.example/web/docs-site.git",
                                                  "revision": "9f3c2a1", "directory": "."}}])),
        deploy("docs-sync", "docs", podspec(
            [ctr("git-sync", "registry.k8s.io/git-sync/git-sync:v4.2.3",
                 args=["--repo=https://git.corp.example/web/docs-site.git", "--root=/git"],
                 volumeMounts=[{"name": "git", "mountPath": "/git"}])],
            volumes=[{"name": "git", "emptyDir": {}}]), replicas=1),
        pod("render-7x9k2", "ci", podspec(
            [ctr("render", "docker.io/pandoc/core:3.2", volumeMounts=[{"name": "src", "mountPath": "/data"}])],
            restartPolicy="Never",
            volumes=[{"name": "src", "gitRepo": {"repository": "https://git.corp.example/tech-writing/handbook.git"}}])))},
    {"site.yaml": docs(
        ns("docs"), ns("ci"),
        deploy("hugo-site", "docs", podspec(
            [ctr("nginx", "docker.io/library/nginx:1.27.0", volumeMounts=[{"name": "html", "mountPath": "/usr/share/nginx/html"}])],
            initContainers=[ctr("clone", "docker.io/alpine/git:2.45.1",
                                args=["clone", "https://git.corp.example/web/docs-site.git", "/html"],
                                volumeMounts=[{"name": "html", "mountPath": "/html"}])],
            volumes=[{"name": "cache", "emptyDir": {"sizeLimit": "256Mi"}}, {"name": "html", "emptyDir": {}}])),
        deploy("docs-sync", "docs", podspec(
            [ctr("git-sync", "registry.k8s.io/git-sync/git-sync:v4.2.3",
                 args=["--repo=https://git.corp.example/web/docs-site.git", "--root=/git"],
                 volumeMounts=[{"name": "git", "mountPath": "/git"}])],
            volumes=[{"name": "git", "emptyDir": {}}]), replicas=1),
        pod("render-7x9k2", "ci", podspec(
            [ctr("render", "docker.io/pandoc/core:3.2", volumeMounts=[{"name": "src", "mountPath": "/data"}])],
            restartPolicy="Never",
            volumes=[{"name": "src", "emptyDir": {}}])))},
    "Truth: volumes[*].gitRepo. Near miss: git-sync sidecar and a git clone init container (names mention git).")

# 12 gVisor runtime in payments (effect)
def rtc(name, handler):
    return {"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass", "metadata": meta(name), "handler": handler}
k8s("k8s-payments-sandboxed-runtime",
    "Everything that runs in the `payments` namespace must be isolated from the node kernel by the gVisor sandbox (RuntimeClass `gvisor`).",
    ["kyverno", "kubectl-opa", "opa-static"],
    ["Deployment/payments/card-tokenizer", "CronJob/payments/settlement-batch"],
    {"runtime.yaml": docs(
        rtc("gvisor", "runsc"), rtc("kata", "kata-qemu"), ns("payments"), ns("marketing"),
        deploy("payment-gateway", "payments", podspec([ctr("gw", "registry.example.com/payments/gateway:5.0.2")],
                                                       runtimeClassName="gvisor"), replicas=3),
        deploy("card-tokenizer", "payments", podspec([ctr("tokenizer", "registry.example.com/payments/tokenizer:2.1.0")]), replicas=2),
        cronjob("settlement-batch", "payments", podspec([ctr("batch", "registry.example.com/payments/settlement:5.0.2")],
                                                         runtimeClassName="kata"), schedule="0 1 * * *"),
        deploy("landing", "marketing", podspec([ctr("web", "docker.io/library/nginx:1.27.0")])))},
    {"runtime.yaml": docs(
        rtc("gvisor", "runsc"), rtc("kata", "kata-qemu"), ns("payments"), ns("marketing"),
        deploy("payment-gateway", "payments", podspec([ctr("gw", "registry.example.com/payments/gateway:5.0.2")],
                                                       runtimeClassName="gvisor"), replicas=3),
        deploy("card-tokenizer", "payments", podspec([ctr("tokenizer", "registry.example.com/payments/tokenizer:2.1.0")],
                                                      runtimeClassName="gvisor"), replicas=2),
        cronjob("settlement-batch", "payments", podspec([ctr("batch", "registry.example.com/payments/settlement:5.0.2")],
                                                         runtimeClassName="gvisor"), schedule="0 1 * * *"),
        deploy("landing", "marketing", podspec([ctr("web", "docker.io/library/nginx:1.27.0")], runtimeClassName="kata")))},
    "Truth: runtimeClassName == gvisor for pod templates in payments. Violations: missing, and kata in a CronJob. Near miss: marketing without/with another class.")

# 13 validating webhooks fail closed (effect)
def wh(name, svcns, svcname, fp=None, rules_res=("pods",)):
    w = {"name": name, "admissionReviewVersions": ["v1"], "sideEffects": "None",
         "clientConfig": {"service": {"namespace": svcns, "name": svcname, "path": "/validate"}},
         "rules": [{"apiGroups": [""], "apiVersions": ["v1"], "operations": ["CREATE", "UPDATE"], "resources": list(rules_res)}]}
    if fp: w["failurePolicy"] = fp
    return w
def whc(kind, name, hooks):
    return {"apiVersion": "admissionregistration.k8s.io/v1", "kind": kind, "metadata": meta(name), "webhooks": hooks}
k8s("k8s-validating-webhooks-fail-closed",
    "Validating admission webhooks must not let requests through unchecked when the webhook backend is down or times out.",
    ["kyverno", "kubectl-opa", "opa-static"],
    ["ValidatingWebhookConfiguration//image-signature-check", "ValidatingWebhookConfiguration//tenant-guard"],
    {"webhooks.yaml": docs(
        whc("ValidatingWebhookConfiguration", "image-signature-check",
            [wh("verify.sigstore.corp.example", "sigstore", "policy-controller", "Ignore")]),
        whc("ValidatingWebhookConfiguration", "tenant-guard",
            [wh("namespaces.tenant-guard.corp.example", "tenant-guard", "webhook", "Fail", ("namespaces",)),
             wh("pods.tenant-guard.corp.example", "tenant-guard", "webhook", "Ignore")]),
        whc("ValidatingWebhookConfiguration", "cert-manager-webhook",
            [wh("webhook.cert-manager.io", "cert-manager", "cert-manager-webhook", None, ("certificates",))]),
        whc("MutatingWebhookConfiguration", "istio-sidecar-injector",
            [wh("sidecar-injector.istio.io", "istio-system", "istiod", "Ignore")]))},
    {"webhooks.yaml": docs(
        whc("ValidatingWebhookConfiguration", "image-signature-check",
            [wh("verify.sigstore.corp.example", "sigstore", "policy-controller", "Fail")]),
        whc("ValidatingWebhookConfiguration", "tenant-guard",
            [wh("namespaces.tenant-guard.corp.example", "tenant-guard", "webhook", "Fail", ("namespaces",)),
             wh("pods.tenant-guard.corp.example", "tenant-guard", "webhook", "Fail")]),
        whc("ValidatingWebhookConfiguration", "cert-manager-webhook",
            [wh("webhook.cert-manager.io", "cert-manager", "cert-manager-webhook", None, ("certificates",))]),
        whc("MutatingWebhookConfiguration", "istio-sidecar-injector",
            [wh("sidecar-injector.istio.io", "istio-system", "istiod", "Ignore")]))},
    "Truth: ValidatingWebhookConfiguration webhooks[*].failurePolicy == Ignore. Unset means Fail in admissionregistration/v1 (compliant). "
    "Near miss in both envs: a MutatingWebhookConfiguration with Ignore (requirement is about validating webhooks).")

# 14 tenant namespaces cap LoadBalancers (effect) -- namespace-level, OPA classes only
def quota(name, nsn, hard):
    return {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": meta(name, nsn), "spec": {"hard": hard}}
TEN = {"tenancy.corp.example/tenant": "true"}
k8s("k8s-tenant-namespaces-no-loadbalancers",
    "Tenant namespaces (label `tenancy.corp.example/tenant=true`) must not be able to create cloud load balancers: "
    "each needs a ResourceQuota that allows zero of them.",
    ["kubectl-opa", "opa-static"],
    ["Namespace//team-atlas", "Namespace//team-borealis"],
    {"tenants.yaml": docs(
        ns("team-atlas", {**TEN, "team": "atlas"}),
        quota("compute", "team-atlas", {"requests.storage": "500Gi", "persistentvolumeclaims": "20"}),
        ns("team-borealis", {**TEN, "team": "borealis"}),
        quota("tenant-defaults", "team-borealis", {"services.loadbalancers": "2", "services.nodeports": "0"}),
        ns("team-cygnus", {**TEN, "team": "cygnus"}),
        quota("tenant-defaults", "team-cygnus", {"services.loadbalancers": "0", "services.nodeports": "0"}),
        ns("ingress-system", {"team": "platform"}),
        quota("storage", "ingress-system", {"persistentvolumeclaims": "5"}))},
    {"tenants.yaml": docs(
        ns("team-atlas", {**TEN, "team": "atlas"}),
        quota("compute", "team-atlas", {"requests.storage": "500Gi", "persistentvolumeclaims": "20"}),
        quota("network", "team-atlas", {"services.loadbalancers": "0"}),
        ns("team-borealis", {**TEN, "team": "borealis"}),
        quota("tenant-defaults", "team-borealis", {"services.loadbalancers": "0", "services.nodeports": "0"}),
        ns("team-cygnus", {**TEN, "team": "cygnus"}),
        quota("tenant-defaults", "team-cygnus", {"services.loadbalancers": "0", "services.nodeports": "0"}),
        ns("ingress-system", {"team": "platform"}),
        quota("storage", "ingress-system", {"persistentvolumeclaims": "5"}))},
    "Namespace-level control (absence of a quota), so no kyverno class. team-atlas has a quota without the key; team-borealis allows 2. "
    "Compliant team-atlas gets a second quota object. ingress-system is not a tenant (no quota needed).")

# 15 user namespaces (effect)
k8s("k8s-pods-in-user-namespaces",
    "Workloads in namespace `sandbox` must not run with the node's own user and group IDs: every pod there must be isolated in its own user namespace.",
    ["kyverno", "kubectl-opa", "opa-static"],
    ["Deployment/sandbox/notebook", "CronJob/sandbox/dataset-refresh"],
    {"sandbox.yaml": docs(
        ns("sandbox"), ns("tools"),
        deploy("jupyter-hub", "sandbox", podspec([ctr("hub", "quay.io/jupyterhub/k8s-hub:3.3.7")], hostUsers=False), replicas=1),
        deploy("notebook", "sandbox", podspec([ctr("notebook", "quay.io/jupyter/scipy-notebook:2024-05-27")], hostUsers=True)),
        cronjob("dataset-refresh", "sandbox", podspec([ctr("refresh", "registry.example.com/ml/dataset-refresh:0.4.1")]),
                schedule="30 */6 * * *"),
        deploy("ci-runner", "tools", podspec([ctr("runner", "docker.io/gitlab/gitlab-runner:v17.0.0")])))},
    {"sandbox.yaml": docs(
        ns("sandbox"), ns("tools"),
        deploy("jupyter-hub", "sandbox", podspec([ctr("hub", "quay.io/jupyterhub/k8s-hub:3.3.7")], hostUsers=False), replicas=1),
        deploy("notebook", "sandbox", podspec([ctr("notebook", "quay.io/jupyter/scipy-notebook:2024-05-27")], hostUsers=False)),
        cronjob("dataset-refresh", "sandbox", podspec([ctr("refresh", "registry.example.com/ml/dataset-refresh:0.4.1")],
                                                       hostUsers=False), schedule="30 */6 * * *"),
        deploy("ci-runner", "tools", podspec([ctr("runner", "docker.io/gitlab/gitlab-runner:v17.0.0")])))},
    "Truth: pod spec hostUsers must be false (unset defaults to true = host user namespace). Violations: explicit true; unset in a CronJob. "
    "Near miss: tools namespace without the field.")

# 16 Service externalIPs (effect)
k8s("k8s-no-service-external-ips",
    "Services must not be able to claim arbitrary external IP addresses and intercept traffic to them (CVE-2020-8554).",
    ["kyverno", "kubectl-opa", "opa-static"],
    ["Service/legacy/smtp-relay", "Service/iot/mqtt"],
    {"svc.yaml": docs(
        ns("legacy"), ns("iot"),
        svc("smtp-relay", "legacy", [{"name": "smtp", "port": 25, "targetPort": 2525}], "ClusterIP",
            externalIPs=["192.0.2.25"]),
        svc("ldap", "legacy", [{"name": "ldap", "port": 389}], "ClusterIP"),
        svc("mqtt", "iot", [{"name": "mqtt", "port": 1883}, {"name": "mqtts", "port": 8883}], "LoadBalancer",
            externalIPs=["198.51.100.7", "198.51.100.8"], loadBalancerIP="198.51.100.7"),
        svc("telemetry", "iot", [{"name": "otlp", "port": 4317}], "LoadBalancer", loadBalancerSourceRanges=["203.0.113.0/24"]))},
    {"svc.yaml": docs(
        ns("legacy"), ns("iot"),
        svc("smtp-relay", "legacy", [{"name": "smtp", "port": 25, "targetPort": 2525}], "ClusterIP", externalIPs=[]),
        svc("ldap", "legacy", [{"name": "ldap", "port": 389}], "ClusterIP"),
        svc("mqtt", "iot", [{"name": "mqtt", "port": 1883}, {"name": "mqtts", "port": 8883}], "LoadBalancer",
            loadBalancerIP="198.51.100.7"),
        svc("telemetry", "iot", [{"name": "otlp", "port": 4317}], "LoadBalancer", loadBalancerSourceRanges=["203.0.113.0/24"]))},
    "Truth: non-empty spec.externalIPs. Near misses: externalIPs: [] (empty list), loadBalancerIP, loadBalancerSourceRanges.")

# ---------------------------------------------------------------- RHEL 9
JOURNALD_MAIN = """#  This file is part of systemd.
#
#  systemd is free software; you can redistribute it and/or modify it under the
#  terms of the GNU Lesser General Public License as published by the Free
#  Software Foundation; either version 2.1 of the License, or (at your option)
#  any later version.
#
# Entries in this file show the compile time defaults. Local configuration
# should be created by either modifying this file (or a copy of it placed in
# /etc/ if the original file is shipped in /usr/), or by creating "drop-ins" in
# the /etc/systemd/journald.conf.d/ directory. The latter is generally
# recommended. Defaults can be restored by simply deleting the main
# configuration file and all drop-ins located in /etc/.
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
#SystemMaxFiles=100
#RuntimeMaxUse=
#ForwardToSyslog=no
#ForwardToKMsg=no
#ForwardToConsole=no
#ForwardToWall=yes
#MaxLevelStore=debug
#MaxLevelSyslog=debug
#ReadKMsg=yes
#Audit=
"""
rhel("rhel9-journald-persistent-storage",
    "Ensure journald is configured to write log files to persistent disk (Storage=persistent), taking drop-in files under /etc/systemd/journald.conf.d/ into account.",
    ["journald//Storage"],
    {"/etc/systemd/journald.conf": JOURNALD_MAIN.format(storage="Storage=persistent"),
     "/etc/systemd/journald.conf.d/10-size.conf": "[Journal]\nSystemMaxUse=1G\nSystemKeepFree=2G\n",
     "/etc/systemd/journald.conf.d/60-container-host.conf":
        "# added by image-builder 2024-03-11 for the ephemeral build hosts\n[Journal]\nStorage=volatile\nRuntimeMaxUse=256M\n",
     "/etc/hostname": "app-rhel9-03.corp.example\n"},
    {"/etc/systemd/journald.conf": JOURNALD_MAIN.format(storage="#Storage=volatile"),
     "/etc/systemd/journald.conf.d/10-size.conf": "[Journal]\nSystemMaxUse=1G\nSystemKeepFree=2G\n",
     "/etc/systemd/journald.conf.d/60-cis.conf":
        "# CIS 6.2.1.x\n[Journal]\nStorage=persistent\nCompress=yes\n",
     "/etc/hostname": "app-rhel9-03.corp.example\n"},
    "Violating: main file says persistent but a later drop-in (60-) overrides with volatile. Compliant: main file has a commented "
    "'#Storage=volatile' and the drop-in sets persistent.")

DNF_CONF = """[main]
{gpg}
installonly_limit=3
clean_requirements_on_remove=True
best=True
skip_if_unavailable=False
"""
def repo(sections):
    out = []
    for name, kv in sections:
        out.append(f"[{name}]")
        out.extend(f"{k}={v}" for k, v in kv)
        out.append("")
    return "\n".join(out)
BASE_REPOS = repo([
    ("rhel-9-for-x86_64-baseos-rpms", [("name", "Red Hat Enterprise Linux 9 for x86_64 - BaseOS (RPMs)"),
        ("baseurl", "https://cdn.redhat.com/content/dist/rhel9/$releasever/x86_64/baseos/os"),
        ("enabled", "1"), ("gpgcheck", "1"), ("gpgkey", "file:///etc/pki/rpm-gpg/RPM-GPG-KEY-redhat-release"),
        ("sslverify", "1")]),
    ("rhel-9-for-x86_64-appstream-rpms", [("name", "Red Hat Enterprise Linux 9 for x86_64 - AppStream (RPMs)"),
        ("baseurl", "https://cdn.redhat.com/content/dist/rhel9/$releasever/x86_64/appstream/os"),
        ("enabled", "1"), ("gpgcheck", "1"), ("gpgkey", "file:///etc/pki/rpm-gpg/RPM-GPG-KEY-redhat-release")])])
rhel("rhel9-dnf-gpgcheck",
    "Ensure gpgcheck is globally activated: packages must have their signatures checked, in /etc/dnf/dnf.conf and in every repository defined under /etc/yum.repos.d/.",
    ["dnf//gpgcheck"],
    {"/etc/dnf/dnf.conf": DNF_CONF.format(gpg="gpgcheck=1"),
     "/etc/yum.repos.d/redhat.repo": BASE_REPOS,
     "/etc/yum.repos.d/internal-tools.repo": repo([
        ("corp-tools", [("name", "Corp tools"), ("baseurl", "https://repo.corp.example/tools/el9/"), ("enabled", "1"),
                        ("gpgcheck", "1"), ("gpgkey", "https://repo.corp.example/RPM-GPG-KEY-corp")]),
        ("corp-tools-testing", [("name", "Corp tools (testing)"), ("baseurl", "https://repo.corp.example/tools-testing/el9/"),
                                ("enabled", "1"), ("gpgcheck", "0")])])},
    {"/etc/dnf/dnf.conf": DNF_CONF.format(gpg="# gpgcheck=0  (disabled during migration, reverted CHG0041127)\ngpgcheck=1"),
     "/etc/yum.repos.d/redhat.repo": BASE_REPOS,
     "/etc/yum.repos.d/internal-tools.repo": repo([
        ("corp-tools", [("name", "Corp tools"), ("baseurl", "https://repo.corp.example/tools/el9/"), ("enabled", "1"),
                        ("gpgcheck", "1"), ("repo_gpgcheck", "0"), ("gpgkey", "https://repo.corp.example/RPM-GPG-KEY-corp")]),
        ("corp-tools-testing", [("name", "Corp tools (testing)"), ("baseurl", "https://repo.corp.example/tools-testing/el9/"),
                                ("enabled", "1"), ("gpgcheck", "1"), ("gpgkey", "https://repo.corp.example/RPM-GPG-KEY-corp")])])},
    "Violating: dnf.conf fine, but the second section of a third-party .repo has gpgcheck=0. Compliant: commented gpgcheck=0 in "
    "dnf.conf and repo_gpgcheck=0 (metadata signing, a different setting) remain.")

rhel("rhel9-cramfs-module-unavailable",
    "Ensure the cramfs kernel module is not available: it must be both blacklisted and prevented from loading (an `install cramfs /bin/false` or `/bin/true` line) in /etc/modprobe.d/.",
    ["modprobe//cramfs"],
    {"/etc/modprobe.d/cis-filesystems.conf":
        "# CIS 1.1.1.x unused filesystems\nblacklist cramfs\n#install cramfs /bin/false\ninstall freevxfs /bin/false\nblacklist freevxfs\n"
        "install hfs /bin/false\nblacklist hfs\ninstall hfsplus /bin/false\nblacklist hfsplus\n",
     "/etc/modprobe.d/firewalld-sysctls.conf": "install nf_conntrack /usr/sbin/modprobe --ignore-install nf_conntrack $CMDLINE_OPTS && /usr/sbin/sysctl --quiet --pattern 'net[.]netfilter[.]nf_conntrack.*' --system\n",
     "/etc/modprobe.d/lockd.conf": "# Set the NFS lock manager grace period.\n#options lockd nlm_timeout=10\n"},
    {"/etc/modprobe.d/cis-filesystems.conf":
        "# CIS 1.1.1.x unused filesystems\nblacklist cramfs\ninstall freevxfs /bin/false\nblacklist freevxfs\n"
        "install hfs /bin/false\nblacklist hfs\ninstall hfsplus /bin/false\nblacklist hfsplus\n",
     "/etc/modprobe.d/zz-cramfs.conf": "install cramfs /bin/true\n",
     "/etc/modprobe.d/firewalld-sysctls.conf": "install nf_conntrack /usr/sbin/modprobe --ignore-install nf_conntrack $CMDLINE_OPTS && /usr/sbin/sysctl --quiet --pattern 'net[.]netfilter[.]nf_conntrack.*' --system\n",
     "/etc/modprobe.d/lockd.conf": "# Set the NFS lock manager grace period.\n#options lockd nlm_timeout=10\n"},
    "Violating: blacklisted but the install line is commented out. Compliant: the install line lives in a second file (/bin/true). "
    "Host has no /lib/modules tree; the check is about /etc/modprobe.d only.")

CRONTAB = """SHELL=/bin/bash
PATH=/sbin:/bin:/usr/sbin:/usr/bin
MAILTO=root

# For details see man 4 crontabs

# Example of job definition:
# .---------------- minute (0 - 59)
# |  .------------- hour (0 - 23)
# |  |  .---------- day of month (1 - 31)
# |  |  |  .------- month (1 - 12) OR jan,feb,mar,apr,may,jun,jul,aug,sep,oct,nov,dec
# |  |  |  |  .---- day of week (0 - 6) (Sunday=0 or 7) OR sun,mon,tue,wed,thu,fri,sat
# |  |  |  |  |
# *  *  *  *  * user-name  command to be executed
"""
CRON_FILES = {"/etc/crontab": CRONTAB,
              "/etc/cron.d/0hourly": "# Run the hourly jobs\nSHELL=/bin/bash\nPATH=/sbin:/bin:/usr/sbin:/usr/bin\nMAILTO=root\n01 * * * * root run-parts /etc/cron.hourly\n",
              "/etc/cron.d/sysstat": "*/10 * * * * root /usr/lib64/sa/sa1 1 1\n53 23 * * * root /usr/lib64/sa/sa2 -A\n",
              "/etc/cron.daily/logrotate": "#!/bin/sh\n/usr/sbin/logrotate /etc/logrotate.conf\n"}
rhel("rhel9-crontab-permissions",
    "Ensure permissions on /etc/crontab are configured: owned by root:root and with no access for group or other (mode 0600 or stricter).",
    ["cron//crontab"],
    CRON_FILES, CRON_FILES,
    "Truth: /etc/crontab mode. Violating 0644 (RHEL default). Compliant 0600. Near misses in both envs: /etc/cron.d entries 0644 and "
    "/etc/cron.daily/logrotate 0755 (other CIS controls, not this one).",
    vattrs={"/etc/crontab": {"mode": "0644", "owner": "root", "group": "root"},
            "/etc/cron.d/sysstat": {"mode": "0644", "owner": "root", "group": "root"},
            "/etc/cron.daily/logrotate": {"mode": "0755", "owner": "root", "group": "root"}},
    cattrs={"/etc/crontab": {"mode": "0600", "owner": "root", "group": "root"},
            "/etc/cron.d/sysstat": {"mode": "0644", "owner": "root", "group": "root"},
            "/etc/cron.daily/logrotate": {"mode": "0755", "owner": "root", "group": "root"}})

# ---------------------------------------------------------------- writer
def scenario_yaml(s):
    d = {"id": s["id"], "platform": s["platform"]}
    if s.get("title"): d["title"] = s["title"]
    d["requirement"] = s["requirement"]
    d["classes"] = s["classes"]
    d["violating_resources"] = s["violating_resources"]
    d["notes"] = s["notes"]
    out = []
    for k, v in d.items():
        if isinstance(v, list):
            out.append(f"{k}:\n" + "".join(f"  - {json.dumps(x)}\n" for x in v))
        else:
            out.append(f"{k}: {json.dumps(v)}\n")
    return "".join(out)

def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)

def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python gen.py OUT")
    out = sys.argv[1]
    ids = set()
    for s in SCEN:
        assert s["id"] not in ids, s["id"]; ids.add(s["id"])
        base = os.path.join(out, s["id"])
        write(os.path.join(base, "scenario.yaml"), scenario_yaml(s))
        if s["platform"] == "kubernetes":
            for side in ("violating", "compliant"):
                for fn, text in sorted(s[side].items()):
                    write(os.path.join(base, side, fn), text)
        else:
            for side, hk, ak in (("violating", "vhost", "vattrs"), ("compliant", "chost", "cattrs")):
                for p, text in sorted(s[hk].items()):
                    write(os.path.join(base, side, "host", p.lstrip("/")), text)
                if s[ak]:
                    lines = "".join(f"{json.dumps(p)}: {json.dumps(a)}\n" for p, a in sorted(s[ak].items()))
                    write(os.path.join(base, side, "host-attributes.yaml"), lines)
    print(f"{len(SCEN)} scenarios, {sum(len(s['classes']) for s in SCEN)} trials -> {out}")

if __name__ == "__main__":
    main()
