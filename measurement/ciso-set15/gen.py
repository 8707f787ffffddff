#!/usr/bin/env python3
"""ciso-set15: held-out CISO scenarios (15 Kubernetes, 5 RHEL 9).

Usage: python gen.py OUT      (stdlib only, deterministic, no network)

Writes one folder per scenario in the `scenario.yaml` layout that
`itbench ciso run --scenarios OUT` reads.
"""
import json
import os
import re
import shutil
import sys

# ---------------------------------------------------------------- tiny YAML emitter
_SAFE = re.compile(r"^[A-Za-z_/][A-Za-z0-9_./@-]*$")
_RESERVED = {"true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"}


def _scalar(v):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return str(v)
    s = str(v)
    if _SAFE.match(s) and s.lower() not in _RESERVED:
        return s
    return json.dumps(s)


def _emit(v, ind, out):
    pad = "  " * ind
    if isinstance(v, dict):
        if not v:
            out.append(pad + "{}")
            return
        for k, x in v.items():
            key = _scalar(k)
            if isinstance(x, dict) and x:
                out.append(f"{pad}{key}:")
                _emit(x, ind + 1, out)
            elif isinstance(x, list) and x:
                out.append(f"{pad}{key}:")
                _emit(x, ind, out)
            elif isinstance(x, dict):
                out.append(f"{pad}{key}: {{}}")
            elif isinstance(x, list):
                out.append(f"{pad}{key}: []")
            elif isinstance(x, str) and "\n" in x:
                out.append(f"{pad}{key}: |")
                for line in x.rstrip("\n").split("\n"):
                    out.append(f"{pad}  {line}" if line else "")
            else:
                out.append(f"{pad}{key}: {_scalar(x)}")
    elif isinstance(v, list):
        for x in v:
            if isinstance(x, (dict, list)) and x:
                sub = []
                _emit(x, ind + 1, sub)
                first = sub[0][len("  " * (ind + 1)):]
                out.append(f"{pad}- {first}")
                out.extend(sub[1:])
            elif isinstance(x, dict):
                out.append(f"{pad}- {{}}")
            elif isinstance(x, list):
                out.append(f"{pad}- []")
            else:
                out.append(f"{pad}- {_scalar(x)}")
    else:
        out.append(pad + _scalar(v))


def dump(doc):
    out = []
    _emit(doc, 0, out)
    return "\n".join(out) + "\n"


def dump_all(docs, header=None):
    parts = []
    for d in docs:
        parts.append(dump(d))
    text = "---\n".join(parts)
    if header:
        text = header + text
    return text


# ---------------------------------------------------------------- k8s builders
def ns(name, labels=None):
    md = {"name": name}
    if labels:
        md["labels"] = dict(labels)
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": md}


def c(name, image, **kw):
    d = {"name": name, "image": image}
    d.update(kw)
    return d


def podspec(containers, **kw):
    d = {}
    inits = kw.pop("initContainers", None)
    d.update(kw)
    if inits:
        d["initContainers"] = inits
    d["containers"] = containers
    return d


def _tmpl(app, spec, extra_labels=None):
    labels = {"app": app}
    if extra_labels:
        labels.update(extra_labels)
    return {"metadata": {"labels": labels}, "spec": spec}


def _md(namespace, name, labels=None, annotations=None):
    md = {"name": name, "namespace": namespace}
    if labels:
        md["labels"] = dict(labels)
    if annotations:
        md["annotations"] = dict(annotations)
    return md


def deploy(namespace, name, spec, replicas=2, labels=None, app=None, **extra):
    app = app or name
    s = {"replicas": replicas, "selector": {"matchLabels": {"app": app}}}
    s.update(extra)
    s["template"] = _tmpl(app, spec)
    return {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": _md(namespace, name, labels), "spec": s}


def sts(namespace, name, spec, replicas=3, labels=None, app=None, **extra):
    app = app or name
    s = {"serviceName": name, "replicas": replicas,
         "selector": {"matchLabels": {"app": app}}}
    s.update(extra)
    s["template"] = _tmpl(app, spec)
    return {"apiVersion": "apps/v1", "kind": "StatefulSet",
            "metadata": _md(namespace, name, labels), "spec": s}


def ds(namespace, name, spec, labels=None, app=None):
    app = app or name
    return {"apiVersion": "apps/v1", "kind": "DaemonSet",
            "metadata": _md(namespace, name, labels),
            "spec": {"selector": {"matchLabels": {"app": app}},
                     "template": _tmpl(app, spec)}}


def job(namespace, name, spec, labels=None, **extra):
    spec = dict(spec)
    spec.setdefault("restartPolicy", "Never")
    s = {"backoffLimit": 2}
    s.update(extra)
    s["template"] = {"spec": spec}
    return {"apiVersion": "batch/v1", "kind": "Job",
            "metadata": _md(namespace, name, labels), "spec": s}


def cron(namespace, name, schedule, spec, labels=None, **extra):
    spec = dict(spec)
    spec.setdefault("restartPolicy", "OnFailure")
    s = {"schedule": schedule}
    s.update(extra)
    s["jobTemplate"] = {"spec": {"template": {"spec": spec}}}
    return {"apiVersion": "batch/v1", "kind": "CronJob",
            "metadata": _md(namespace, name, labels), "spec": s}


def pod(namespace, name, spec, labels=None):
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": _md(namespace, name, labels), "spec": spec}


def svc(namespace, name, ports, labels=None, **extra):
    s = {"selector": {"app": name}, "ports": ports}
    s.update(extra)
    return {"apiVersion": "v1", "kind": "Service",
            "metadata": _md(namespace, name, labels), "spec": s}


RES = {"requests": {"cpu": "100m", "memory": "128Mi"},
       "limits": {"cpu": "500m", "memory": "256Mi"}}


# ---------------------------------------------------------------- scenario writer
SCENARIOS = []


def scenario(**kw):
    SCENARIOS.append(kw)


def write(path, text, mode=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def write_scenario(out, s):
    d = os.path.join(out, s["id"])
    meta = {"id": s["id"]}
    if s.get("cis_id"):
        meta["cis_id"] = s["cis_id"]
    meta["platform"] = s["platform"]
    if s.get("title"):
        meta["title"] = s["title"]
    meta["requirement"] = s["requirement"]
    meta["classes"] = s["classes"]
    meta["violating_resources"] = s["violating"]
    meta["notes"] = s["notes"]
    write(os.path.join(d, "scenario.yaml"), dump(meta))
    for env, key in (("violating", "violating_env"), ("compliant", "compliant_env")):
        if s["platform"] == "kubernetes":
            for fname, docs in s[key]:
                write(os.path.join(d, env, fname), dump_all(docs))
        else:
            files, attrs = s[key]
            for p, text in sorted(files.items()):
                write(os.path.join(d, env, "host", p.lstrip("/")), text)
            if attrs:
                write(os.path.join(d, env, "host-attributes.yaml"), dump(attrs))


K3 = ["kyverno", "kubectl-opa", "opa-static"]

# ======================================================================
# K1  spec.os.name windows outside labelled namespaces
# ======================================================================
def k1():
    nss = [ns("win-apps", {"platform.example.com/os": "windows", "team": "legacy"}),
           ns("reporting", {"team": "bi"}),
           ns("etl", {"platform.example.com/os": "linux", "team": "data"})]
    win_iis = deploy("win-apps", "iis-frontend", podspec(
        [c("iis", "mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022",
           ports=[{"containerPort": 80}])],
        os={"name": "windows"},
        nodeSelector={"kubernetes.io/os": "windows"}))
    api = deploy("reporting", "report-api", podspec(
        [c("api", "registry.corp.example/bi/report-api:3.4.1", resources=RES)],
        os={"name": "linux"}, dnsPolicy="None",
        dnsConfig={"nameservers": ["192.168.10.53"], "searches": ["corp.example"]}))

    def ssrs(osname):
        return deploy("reporting", "ssrs-render", podspec(
            [c("render", "registry.corp.example/bi/ssrs-render:2019.6",
               ports=[{"containerPort": 8080, "name": "http"}])],
            os={"name": osname},
            tolerations=[{"key": "os", "operator": "Equal", "value": "windows",
                          "effect": "NoSchedule"}]), replicas=1)

    def nightly(osname):
        return cron("etl", "nightly-dotnet", "15 1 * * *", podspec(
            [c("export", "registry.corp.example/data/ledger-export:1.9.0",
               args=["--since", "24h"])],
            os={"name": osname}), concurrencyPolicy="Forbid")

    other = cron("etl", "compact", "0 3 * * 0", podspec(
        [c("compact", "registry.corp.example/data/compactor:0.8.2")]))
    win_job = job("win-apps", "msi-inventory", podspec(
        [c("inv", "registry.corp.example/legacy/msi-inventory:1.0.3")],
        os={"name": "windows"}))
    viol = [("namespaces.yaml", nss),
            ("reporting.yaml", [api, ssrs("windows")]),
            ("win-apps.yaml", [win_iis, win_job]),
            ("etl-cronjobs.yaml", [other, nightly("windows")])]
    comp = [("namespaces.yaml", nss),
            ("reporting.yaml", [api, ssrs("linux")]),
            ("win-apps.yaml", [win_iis, win_job]),
            ("etl-cronjobs.yaml", [other, nightly("linux")])]
    scenario(
        id="k8s-windows-pods-scope", platform="kubernetes", classes=K3,
        title="Windows pods only in Windows-labelled namespaces",
        requirement=("Pods may declare a Windows operating system (spec.os.name: windows) only in "
                     "namespaces labelled platform.example.com/os=windows. In every other namespace "
                     "workloads must not ask for Windows."),
        violating=["Deployment/reporting/ssrs-render", "CronJob/etl/nightly-dotnet"],
        notes=("ssrs-render sits in an unlabelled namespace; nightly-dotnet is a CronJob template in "
               "a namespace whose label has the same key but value linux. win-apps workloads are "
               "allowed. Compliant: the two set os.name linux."),
        violating_env=viol, compliant_env=comp)


# ======================================================================
# K2  schedulerName other than default-scheduler
# ======================================================================
def k2():
    nss = [ns("shop"), ns("data"), ns("kube-system")]
    desched = deploy("kube-system", "descheduler", podspec(
        [c("descheduler", "registry.k8s.io/descheduler/descheduler:v0.30.1",
           args=["--policy-config-file", "/policy/policy.yaml"])],
        schedulerName="system-critical-scheduler", priorityClassName="system-cluster-critical"),
        replicas=1)
    web = deploy("shop", "storefront", podspec(
        [c("web", "registry.corp.example/shop/storefront:5.2.0", resources=RES)],
        schedulerName="default-scheduler"))

    def cart(name):
        spec = podspec([c("cart", "registry.corp.example/shop/cart:2.11.4", resources=RES)])
        if name:
            spec["schedulerName"] = name
        return deploy("shop", "cart", spec, replicas=3)

    def kafka(name):
        spec = podspec([c("kafka", "docker.io/bitnami/kafka:3.7.0",
                          ports=[{"containerPort": 9092, "name": "broker"}])],
                       schedulerName=name,
                       securityContext={"fsGroup": 1001})
        return sts("data", "kafka", spec)

    loader = job("data", "bulk-loader", podspec(
        [c("load", "registry.corp.example/data/bulk-loader:1.2.0",
           envFrom=[{"secretRef": {"name": "warehouse-creds"}}])]))
    viol = [("00-namespaces.yaml", nss),
            ("shop.yaml", [web, cart("bin-packing-scheduler")]),
            ("data.yaml", [kafka("volcano"), loader]),
            ("kube-system.yaml", [desched])]
    comp = [("00-namespaces.yaml", nss),
            ("shop.yaml", [web, cart(None)]),
            ("data.yaml", [kafka("default-scheduler"), loader]),
            ("kube-system.yaml", [desched])]
    scenario(
        id="k8s-custom-scheduler", platform="kubernetes", classes=K3,
        requirement=("Every pod outside kube-system has to be placed by the stock Kubernetes scheduler; "
                     "a workload may not name any scheduler other than default-scheduler."),
        violating=["Deployment/shop/cart", "StatefulSet/data/kafka"],
        notes=("cart uses bin-packing-scheduler, kafka uses volcano. kube-system/descheduler names a "
               "custom scheduler and is exempt. storefront names default-scheduler explicitly."),
        violating_env=viol, compliant_env=comp)


# ======================================================================
# K3  dnsConfig nameservers outside the cluster DNS
# ======================================================================
def k3():
    nss = [ns("edge"), ns("monitoring"), ns("backup"), ns("apps")]

    def proxy(servers):
        spec = podspec([c("coredns-proxy", "registry.corp.example/edge/dns-proxy:1.4.2",
                          ports=[{"containerPort": 53, "protocol": "UDP"}])])
        if servers is None:
            spec["dnsPolicy"] = "ClusterFirst"
        else:
            spec["dnsPolicy"] = "None"
            spec["dnsConfig"] = {"nameservers": servers,
                                 "searches": ["edge.svc.cluster.local", "svc.cluster.local"]}
        return deploy("edge", "dns-proxy", spec)

    def blackbox(servers):
        return ds("monitoring", "blackbox-exporter", podspec(
            [c("blackbox", "quay.io/prometheus/blackbox-exporter:v0.25.0",
               ports=[{"containerPort": 9115}])],
            dnsConfig={"nameservers": servers,
                       "options": [{"name": "ndots", "value": "2"}]}))

    def s3sync(servers):
        spec = podspec([c("sync", "docker.io/amazon/aws-cli:2.15.30",
                          args=["s3", "sync", "/data", "s3://corp-backups/nightly"])],
                       dnsPolicy="ClusterFirst")
        spec["dnsConfig"] = {"options": [{"name": "ndots", "value": "1"}]}
        if servers:
            spec["dnsConfig"]["nameservers"] = servers
        return cron("backup", "s3-sync", "0 2 * * *", spec)

    api = deploy("apps", "catalog", podspec(
        [c("catalog", "registry.corp.example/apps/catalog:7.0.3",
           env=[{"name": "CATALOG_DB_PASSWORD", "value": "catalog123"}])],
        dnsConfig={"options": [{"name": "ndots", "value": "1"}, {"name": "single-request-reopen"}]}))
    viol = [("namespaces.yaml", nss),
            ("workloads.yaml", [api, proxy(["8.8.8.8", "8.8.4.4"]),
                                blackbox(["10.96.0.10", "1.1.1.1"])]),
            ("backup-cronjob.yaml", [s3sync(["169.254.169.253"])])]
    comp = [("namespaces.yaml", nss),
            ("workloads.yaml", [api, proxy(["10.96.0.10"]), blackbox(["10.96.0.10"])]),
            ("backup-cronjob.yaml", [s3sync(None)])]
    scenario(
        id="k8s-external-dns-resolvers", platform="kubernetes", classes=K3,
        requirement=("Pods must resolve names through the cluster DNS service only. A pod's dnsConfig "
                     "may list no nameserver other than the cluster DNS address 10.96.0.10."),
        violating=["Deployment/edge/dns-proxy", "DaemonSet/monitoring/blackbox-exporter",
                   "CronJob/backup/s3-sync"],
        notes=("dns-proxy: 8.8.8.8/8.8.4.4 with dnsPolicy None; blackbox-exporter: cluster DNS first, "
               "1.1.1.1 second; s3-sync: AWS link-local resolver in a CronJob template. Compliant "
               "keeps dnsConfig blocks with options only or nameserver 10.96.0.10."),
        violating_env=viol, compliant_env=comp)


# ======================================================================
# K4  container ports[].hostIP
# ======================================================================
def k4():
    nss = [ns("ingress"), ns("node-agents"), ns("web")]

    def haproxy(hostip):
        port = {"containerPort": 8404, "name": "stats", "hostPort": 8404}
        if hostip:
            port["hostIP"] = hostip
        return deploy("ingress", "haproxy", podspec([
            c("haproxy", "docker.io/library/haproxy:2.9.7",
              ports=[{"containerPort": 80, "name": "http"}, {"containerPort": 443, "name": "https"}]),
            c("stats-exporter", "quay.io/prometheus/haproxy-exporter:v0.15.0", ports=[port])]))

    def agent(hostip):
        port = {"containerPort": 4317, "name": "otlp-grpc", "hostPort": 4317, "protocol": "TCP"}
        if hostip:
            port["hostIP"] = hostip
        sidecar = c("otel-forwarder", "ghcr.io/open-telemetry/opentelemetry-collector-releases/"
                    "opentelemetry-collector-contrib:0.101.0", restartPolicy="Always", ports=[port])
        return ds("node-agents", "node-agent", podspec(
            [c("agent", "registry.corp.example/infra/node-agent:4.0.2",
               ports=[{"containerPort": 9100, "hostPort": 9100, "name": "metrics"}])],
            initContainers=[sidecar]))

    web = deploy("web", "frontend", podspec(
        [c("nginx", "docker.io/library/nginx:1.27.0",
           ports=[{"containerPort": 8080, "name": "http"}],
           env=[{"name": "HOST_IP", "valueFrom": {"fieldRef": {"fieldPath": "status.hostIP"}}}],
           volumeMounts=[{"name": "tls", "mountPath": "/etc/nginx/tls"}])],
        volumes=[{"name": "tls", "secret": {"secretName": "frontend-tls"}}]))
    viol = [("namespaces.yaml", nss),
            ("ingress.yaml", [haproxy("127.0.0.1")]),
            ("node-agents.yaml", [agent("0.0.0.0")]),
            ("web.yaml", [web])]
    comp = [("namespaces.yaml", nss),
            ("ingress.yaml", [haproxy(None)]),
            ("node-agents.yaml", [agent(None)]),
            ("web.yaml", [web])]
    scenario(
        id="k8s-port-host-ip", platform="kubernetes", classes=K3,
        requirement=("Container ports must not be pinned to a particular node address: the hostIP "
                     "field of every container port (including init and sidecar containers) has to be "
                     "left unset."),
        violating=["Deployment/ingress/haproxy", "DaemonSet/node-agents/node-agent"],
        notes=("haproxy: second container's port has hostIP 127.0.0.1; node-agent: a native sidecar "
               "(init container, restartPolicy Always) has hostIP 0.0.0.0. Compliant keeps the same "
               "hostPorts without hostIP and an env var HOST_IP from status.hostIP (near miss)."),
        violating_env=viol, compliant_env=comp)


# ======================================================================
# K5  credential-named env vars with literal values
# ======================================================================
def k5():
    nss = [ns("payments"), ns("ops"), ns("web")]

    def sref(secret, key):
        return {"secretKeyRef": {"name": secret, "key": key}}

    def checkout(bad):
        pw = ({"name": "DB_PASSWORD", "value": "Sup3rS3cret!"} if bad else
              {"name": "DB_PASSWORD", "valueFrom": sref("checkout-db", "password")})
        return deploy("payments", "checkout", podspec([
            c("checkout", "registry.corp.example/payments/checkout:8.1.0",
              env=[{"name": "LOG_LEVEL", "value": "info"},
                   {"name": "STRIPE_API_KEY", "valueFrom": sref("stripe", "api-key")}]),
            c("db-proxy", "gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.11.0",
              env=[{"name": "DB_USER", "value": "checkout"}, pw,
                   {"name": "DATABASE_URL", "value": "postgres://checkout@127.0.0.1:5432/orders"}])]))

    def rotate(bad):
        tok = ({"name": "vault_token", "value": "hvs.CAESIJ3xQ0aB7p"} if bad else
               {"name": "vault_token", "valueFrom": sref("vault-approle", "token")})
        return cron("ops", "rotate-certs", "0 4 * * 1", podspec(
            [c("rotate", "registry.corp.example/ops/cert-rotator:1.3.2",
               env=[{"name": "VAULT_ADDR", "value": "https://vault.corp.example:8200"}])],
            initContainers=[c("vault-login", "docker.io/hashicorp/vault:1.16.2",
                              command=["vault", "login", "-method=token"], env=[tok])]))

    def frontend(bad):
        sec = ({"name": "Session_Secret", "valueFrom": {"configMapKeyRef":
                                                        {"name": "frontend-config", "key": "session"}}}
               if bad else {"name": "Session_Secret", "valueFrom": sref("frontend", "session")})
        return deploy("web", "frontend", podspec(
            [c("next", "registry.corp.example/web/frontend:12.4.0",
               env=[{"name": "NODE_ENV", "value": "production"}, sec,
                    {"name": "AUTH_MODE", "value": "oidc"},
                    {"name": "POD_NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}])]))

    worker = deploy("payments", "ledger-worker", podspec(
        [c("worker", "registry.corp.example/payments/ledger-worker:2.0.1",
           env=[{"name": "QUEUE_URL", "value": "amqp://rabbitmq.payments:5672"},
                {"name": "PASSWD_FILE", "value": "/var/run/secrets/ledger/passwd"}],
           volumeMounts=[{"name": "creds", "mountPath": "/var/run/secrets/ledger", "readOnly": True}])],
        volumes=[{"name": "creds", "secret": {"secretName": "ledger-creds"}}],
        schedulerName="bin-packing-scheduler"))
    viol = [("namespaces.yaml", nss),
            ("payments.yaml", [worker, checkout(True)]),
            ("ops-cronjobs.yaml", [rotate(True)]),
            ("web.yaml", [frontend(True)])]
    comp = [("namespaces.yaml", nss),
            ("payments.yaml", [worker, checkout(False)]),
            ("ops-cronjobs.yaml", [rotate(False)]),
            ("web.yaml", [frontend(False)])]
    scenario(
        id="k8s-hardcoded-credential-env", platform="kubernetes", classes=K3,
        requirement=("Credentials must not be hard-coded in pod specs. Any container environment "
                     "variable whose name contains PASSWORD, SECRET or TOKEN (in any letter case) must "
                     "take its value from a Secret via valueFrom.secretKeyRef; a literal value or any "
                     "other source is not acceptable."),
        violating=["Deployment/payments/checkout", "CronJob/ops/rotate-certs", "Deployment/web/frontend"],
        notes=("checkout: DB_PASSWORD literal in the second container; rotate-certs: lowercase "
               "vault_token literal in an init container of a CronJob template; frontend: "
               "Session_Secret (mixed case) from a configMapKeyRef. Near misses in both envs: "
               "PASSWD_FILE, AUTH_MODE, DATABASE_URL literals (names do not contain the words), "
               "STRIPE_API_KEY from a secret."),
        violating_env=viol, compliant_env=comp)


# ======================================================================
# K6  envFrom without prefix
# ======================================================================
def k6():
    nss = [ns("api"), ns("migrations"), ns("tools")]

    def orders(bad):
        second = {"secretRef": {"name": "orders-db"}}
        if not bad:
            second["prefix"] = "DB_"
        return deploy("api", "orders", podspec([
            c("orders", "registry.corp.example/api/orders:4.7.2",
              envFrom=[{"configMapRef": {"name": "orders-config"}, "prefix": "ORD_"}]),
            c("outbox-relay", "registry.corp.example/api/outbox-relay:1.1.0",
              envFrom=[{"configMapRef": {"name": "relay-config"}, "prefix": "RELAY_"}, second])]))

    def schema(bad):
        src = {"secretRef": {"name": "migrator-creds", "optional": False}}
        if not bad:
            src = {"prefix": "MIGRATOR_", "secretRef": {"name": "migrator-creds", "optional": False}}
        return job("migrations", "schema-upgrade", podspec(
            [c("migrate", "registry.corp.example/api/orders-migrations:4.7.2",
               args=["up"], envFrom=[{"prefix": "FLYWAY_", "configMapRef": {"name": "flyway"}}])],
            initContainers=[c("wait-db", "registry.corp.example/tools/wait-for:1.0.0",
                              envFrom=[src])]))

    toolbox = deploy("tools", "toolbox", podspec(
        [c("toolbox", "registry.corp.example/tools/toolbox:2024.05",
           env=[{"name": "REDIS_HOST", "valueFrom": {"configMapKeyRef": {"name": "redis", "key": "host"}}},
                {"name": "REDIS_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "redis", "key": "password"}}}],
           ports=[{"containerPort": 8080, "hostPort": 18080, "hostIP": "127.0.0.1"}])]),
        replicas=1)
    viol = [("namespaces.yaml", nss),
            ("api-orders.yaml", [orders(True)]),
            ("schema-upgrade-job.yaml", [schema(True)]),
            ("toolbox.yaml", [toolbox])]
    comp = [("namespaces.yaml", nss),
            ("api-orders.yaml", [orders(False)]),
            ("schema-upgrade-job.yaml", [schema(False)]),
            ("toolbox.yaml", [toolbox])]
    scenario(
        id="k8s-envfrom-prefix", platform="kubernetes", classes=K3,
        requirement=("Importing an entire ConfigMap or Secret into a container's environment with "
                     "envFrom is allowed only when that envFrom entry sets a prefix, so imported keys "
                     "cannot silently override other variables."),
        violating=["Deployment/api/orders", "Job/migrations/schema-upgrade"],
        notes=("orders: second container's second envFrom source (secretRef) has no prefix while the "
               "first does; schema-upgrade: the init container's envFrom secretRef has no prefix. "
               "toolbox uses env/valueFrom only (no envFrom)."),
        violating_env=viol, compliant_env=comp)


# ======================================================================
# K7  nvidia.com/gpu outside labelled namespaces
# ======================================================================
def k7():
    nss = [ns("ml-train", {"accelerator": "nvidia", "team": "ml"}),
           ns("research", {"accelerator": "none", "team": "ml"}),
           ns("notebooks", {"team": "ds"})]
    gpu1 = {"limits": {"nvidia.com/gpu": 1, "memory": "16Gi"}, "requests": {"cpu": "4", "memory": "16Gi"}}
    trainer = job("ml-train", "resnet-train", podspec(
        [c("train", "nvcr.io/nvidia/pytorch:24.04-py3", resources={
            "limits": {"nvidia.com/gpu": 4}, "requests": {"nvidia.com/gpu": 4, "cpu": "16"}})],
        nodeSelector={"nvidia.com/gpu.present": "true"}))

    def jupyter(in_ns):
        return deploy(in_ns, "jupyter-gpu", podspec(
            [c("notebook", "quay.io/jupyter/pytorch-notebook:cuda12-2024-05-27", resources=gpu1)]),
            replicas=1)

    def finetune(in_ns):
        return job(in_ns, "finetune-llama", podspec([
            c("tokenizer", "registry.corp.example/ml/tokenizer:0.4.0", resources=RES),
            c("trainer", "registry.corp.example/ml/llm-finetune:0.9.1",
              resources={"limits": {"nvidia.com/gpu": "2"}})]))

    cpu_job = job("research", "feature-extract", podspec(
        [c("extract", "registry.corp.example/ml/features:1.0.0",
           resources={"limits": {"cpu": "8", "memory": "32Gi"}})],
        tolerations=[{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]))
    nb_cpu = deploy("notebooks", "jupyter-cpu", podspec(
        [c("notebook", "quay.io/jupyter/scipy-notebook:2024-05-27", resources=RES)],
        dnsConfig={"nameservers": ["1.1.1.1"]}), replicas=1)
    viol = [("namespaces.yaml", nss),
            ("ml-train.yaml", [trainer]),
            ("research.yaml", [cpu_job, finetune("research")]),
            ("notebooks.yaml", [nb_cpu, jupyter("notebooks")])]
    comp = [("namespaces.yaml", nss),
            ("ml-train.yaml", [trainer, finetune("ml-train"), jupyter("ml-train")]),
            ("research.yaml", [cpu_job]),
            ("notebooks.yaml", [nb_cpu])]
    scenario(
        id="k8s-gpu-namespace-scope", platform="kubernetes", classes=K3,
        requirement=("NVIDIA GPUs are reserved: a container may request or be limited to the "
                     "nvidia.com/gpu resource only in namespaces carrying the label "
                     "accelerator=nvidia."),
        violating=["Job/research/finetune-llama", "Deployment/notebooks/jupyter-gpu"],
        notes=("finetune-llama: second container, GPU limit as the string \"2\", namespace labelled "
               "accelerator=none; jupyter-gpu: unlabelled namespace. feature-extract only tolerates the "
               "GPU taint (near miss). Compliant moves both GPU workloads into ml-train."),
        violating_env=viol, compliant_env=comp)


# ======================================================================
# K8  secret volume mounts must be readOnly
# ======================================================================
def k8():
    nss = [ns("auth"), ns("db"), ns("batch")]

    def keycloak(ro):
        return deploy("auth", "keycloak", podspec(
            [c("keycloak", "quay.io/keycloak/keycloak:24.0.4", args=["start", "--optimized"],
               volumeMounts=[{"name": "tls", "mountPath": "/opt/keycloak/conf/tls", "readOnly": ro},
                             {"name": "themes", "mountPath": "/opt/keycloak/themes/corp"},
                             {"name": "tmp", "mountPath": "/tmp"}])],
            volumes=[{"name": "tls", "secret": {"secretName": "keycloak-tls", "defaultMode": 288}},
                     {"name": "themes", "configMap": {"name": "keycloak-theme"}},
                     {"name": "tmp", "emptyDir": {}}]))

    def postgres(bad):
        init_mount = {"name": "pg-secrets", "mountPath": "/secrets"}
        if not bad:
            init_mount["readOnly"] = True
        return sts("db", "postgres", podspec(
            [c("postgres", "docker.io/library/postgres:16.3",
               volumeMounts=[{"name": "pg-secrets", "mountPath": "/etc/postgresql/secrets",
                              "readOnly": True},
                             {"name": "data", "mountPath": "/var/lib/postgresql/data"}])],
            initContainers=[c("init-perms", "docker.io/library/busybox:1.36.1",
                              command=["sh", "-c", "cp /secrets/* /work/"],
                              volumeMounts=[init_mount, {"name": "work", "mountPath": "/work"}])],
            volumes=[{"name": "pg-secrets", "secret": {"secretName": "postgres-credentials"}},
                     {"name": "work", "emptyDir": {}}]),
            volumeClaimTemplates=[{"metadata": {"name": "data"},
                                   "spec": {"accessModes": ["ReadWriteOnce"],
                                            "resources": {"requests": {"storage": "20Gi"}}}}])

    report = cron("batch", "weekly-report", "0 6 * * 1", podspec(
        [c("report", "registry.corp.example/batch/report:1.5.0",
           env=[{"name": "SMTP_PASSWORD", "value": "changeme"}],
           volumeMounts=[{"name": "smtp", "mountPath": "/etc/smtp", "readOnly": True},
                         {"name": "out", "mountPath": "/out"}])],
        volumes=[{"name": "smtp", "secret": {"secretName": "smtp-relay"}},
                 {"name": "out", "persistentVolumeClaim": {"claimName": "reports"}}]))
    viol = [("namespaces.yaml", nss),
            ("keycloak.yaml", [keycloak(False)]),
            ("postgres.yaml", [postgres(True)]),
            ("batch.yaml", [report])]
    comp = [("namespaces.yaml", nss),
            ("keycloak.yaml", [keycloak(True)]),
            ("postgres.yaml", [postgres(False)]),
            ("batch.yaml", [report])]
    scenario(
        id="k8s-secret-mount-readonly", platform="kubernetes", classes=K3,
        requirement=("Containers must not be able to write into mounted Secrets: wherever a Secret is "
                     "mounted as a volume, every container that mounts it (init containers included) "
                     "has to mount it read-only."),
        violating=["Deployment/auth/keycloak", "StatefulSet/db/postgres"],
        notes=("keycloak: explicit readOnly false on the TLS secret mount; postgres: main container "
               "mounts read-only but the init container omits readOnly. Writable configMap, emptyDir "
               "and PVC mounts are near misses."),
        violating_env=viol, compliant_env=comp)


# ======================================================================
# K9  Service internalTrafficPolicy Local
# ======================================================================
def k9():
    nss = [ns("logging"), ns("monitoring"), ns("kube-system"), ns("shop")]
    dns = svc("kube-system", "node-local-dns", [{"name": "dns", "port": 53, "protocol": "UDP"}],
              internalTrafficPolicy="Local")
    shop_lb = svc("shop", "storefront", [{"name": "https", "port": 443, "targetPort": 8443}],
                  type="LoadBalancer", externalTrafficPolicy="Local", internalTrafficPolicy="Cluster")
    cart = svc("shop", "cart", [{"name": "http", "port": 80, "targetPort": 8080}])

    def fluentd(policy):
        return svc("logging", "fluentd-forward", [{"name": "forward", "port": 24224}],
                   labels={"app.kubernetes.io/name": "fluentd"}, internalTrafficPolicy=policy)

    def nodeexp(label):
        return svc("monitoring", "node-exporter", [{"name": "metrics", "port": 9100}],
                   labels={"routing.example.com/node-local": label, "app": "node-exporter"},
                   internalTrafficPolicy="Local", clusterIP="None")

    otel = svc("monitoring", "otel-agent", [{"name": "otlp", "port": 4317}],
               labels={"routing.example.com/node-local": "approved"}, internalTrafficPolicy="Local")
    viol = [("namespaces.yaml", nss),
            ("services.yaml", [dns, shop_lb, cart, fluentd("Local"), otel, nodeexp("pending")])]
    comp = [("namespaces.yaml", nss),
            ("services.yaml", [dns, shop_lb, cart, fluentd("Cluster"), otel, nodeexp("approved")])]
    scenario(
        id="k8s-internal-traffic-local", platform="kubernetes", classes=K3,
        requirement=("Services must route in-cluster traffic to endpoints on any node. Node-local "
                     "routing (internalTrafficPolicy set to Local) is tolerated only in kube-system and "
                     "on Services labelled routing.example.com/node-local=approved."),
        violating=["Service/logging/fluentd-forward", "Service/monitoring/node-exporter"],
        notes=("fluentd-forward: Local without label; node-exporter: Local with the label key but "
               "value pending. storefront uses externalTrafficPolicy Local (near miss, different "
               "field); otel-agent is approved; node-local-dns is in kube-system."),
        violating_env=viol, compliant_env=comp)


# ======================================================================
# K10 PDB unhealthyPodEvictionPolicy
# ======================================================================
def k10():
    nss = [ns("web"), ns("data"), ns("auth")]

    def pdb(namespace, name, app, policy, **spec):
        s = dict(spec)
        s["selector"] = {"matchLabels": {"app": app}}
        if policy:
            s["unhealthyPodEvictionPolicy"] = policy
        return {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
                "metadata": {"name": name, "namespace": namespace}, "spec": s}

    a = pdb("auth", "keycloak", "keycloak", "AlwaysAllow", maxUnavailable=1)
    viol = [("namespaces.yaml", nss),
            ("pdbs.yaml", [a, pdb("web", "frontend-pdb", "frontend", "IfHealthyBudget", minAvailable="50%"),
                           pdb("data", "redis", "redis", None, minAvailable=2)])]
    comp = [("namespaces.yaml", nss),
            ("pdbs.yaml", [a, pdb("web", "frontend-pdb", "frontend", "AlwaysAllow", minAvailable="50%"),
                           pdb("data", "redis", "redis", "AlwaysAllow", minAvailable=2)]),
            ("web.yaml", [deploy("web", "frontend", podspec(
                [c("web", "registry.corp.example/web/frontend:12.4.0")]), replicas=4)])]
    scenario(
        id="k8s-pdb-unhealthy-eviction", platform="kubernetes", classes=["kyverno", "kubectl-opa"],
        requirement=("Crash-looping pods must never block a node drain: every PodDisruptionBudget "
                     "has to state unhealthyPodEvictionPolicy: AlwaysAllow."),
        violating=["PodDisruptionBudget/web/frontend-pdb", "PodDisruptionBudget/data/redis"],
        notes=("frontend-pdb sets IfHealthyBudget; redis leaves the field unset (defaults to "
               "IfHealthyBudget)."),
        violating_env=viol, compliant_env=comp)


# ======================================================================
# K11 StatefulSet rollingUpdate.partition
# ======================================================================
def k11():
    nss = [ns("data"), ns("search")]

    def cassandra(partition):
        ru = {"type": "RollingUpdate", "rollingUpdate": {"partition": partition}}
        return sts("data", "cassandra", podspec(
            [c("cassandra", "docker.io/library/cassandra:4.1.5",
               ports=[{"containerPort": 9042, "name": "cql"}])]),
            updateStrategy=ru)

    def opensearch(partition):
        s = sts("search", "opensearch", podspec(
            [c("opensearch", "docker.io/opensearchproject/opensearch:2.14.0")]), replicas=5)
        s["spec"]["updateStrategy"] = {"rollingUpdate": {"partition": partition, "maxUnavailable": 1}}
        return s

    zk = sts("data", "zookeeper", podspec([c("zk", "docker.io/library/zookeeper:3.9.2")],
                                          schedulerName="volcano"),
             updateStrategy={"type": "RollingUpdate"})
    dash = deploy("search", "dashboards", podspec(
        [c("dash", "docker.io/opensearchproject/opensearch-dashboards:2.14.0")]),
        strategy={"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 0}})
    viol = [("namespaces.yaml", nss),
            ("data.yaml", [zk, cassandra(2)]),
            ("search.yaml", [dash, opensearch(4)])]
    comp = [("namespaces.yaml", nss),
            ("data.yaml", [zk, cassandra(0)]),
            ("search.yaml", [dash, opensearch(0)])]
    scenario(
        id="k8s-statefulset-partition", platform="kubernetes", classes=K3,
        requirement=("StatefulSet rollouts may not be left half-applied: a StatefulSet must not hold "
                     "back any of its pods from an update, so its rolling-update partition has to be "
                     "zero or unset."),
        violating=["StatefulSet/data/cassandra", "StatefulSet/search/opensearch"],
        notes=("cassandra partition 2; opensearch partition 4 with no explicit type. Compliant sets "
               "both to 0; zookeeper has no partition; dashboards is a Deployment."),
        violating_env=viol, compliant_env=comp)


# ======================================================================
# K12 CronJob schedule more often than every fifteen minutes
# ======================================================================
def k12():
    nss = [ns("ops"), ns("billing"), ns("reports"), ns("metrics")]
    sp = lambda img: podspec([c("run", img)])
    ok = [cron("ops", "cert-check", "*/15 * * * *", sp("registry.corp.example/ops/cert-check:1.0.0")),
          cron("ops", "logrotate", "@hourly", sp("registry.corp.example/ops/logrotate:2.1.0")),
          cron("metrics", "rollup", "15,45 * * * *", sp("registry.corp.example/metrics/rollup:0.3.0")),
          cron("metrics", "downsample", "*/20 * * * *", sp("registry.corp.example/metrics/downsample:0.3.0")),
          cron("reports", "nightly", "30 2 * * *", podspec([c(
              "run", "registry.corp.example/reports/nightly:3.2.0",
              resources={"limits": {"nvidia.com/gpu": 1}})]),
               timeZone="Europe/Berlin")]

    def heartbeat(s):
        return cron("ops", "heartbeat", s, sp("registry.corp.example/ops/heartbeat:1.0.4"))

    def bsync(s):
        return cron("billing", "usage-sync", s, sp("registry.corp.example/billing/usage-sync:5.0.0"),
                    concurrencyPolicy="Forbid")

    def intraday(s):
        return cron("reports", "intraday", s, sp("registry.corp.example/reports/intraday:3.2.0"))

    viol = [("namespaces.yaml", nss),
            ("cronjobs-ok.yaml", ok),
            ("ops.yaml", [heartbeat("*/5 * * * *")]),
            ("billing.yaml", [bsync("0,10,20,30,40,50 * * * *")]),
            ("reports.yaml", [intraday("*/10 8-18 * * 1-5")])]
    comp = [("namespaces.yaml", nss),
            ("cronjobs-ok.yaml", ok),
            ("ops.yaml", [heartbeat("*/15 * * * *")]),
            ("billing.yaml", [bsync("0,30 * * * *")]),
            ("reports.yaml", [intraday("0 8-18 * * 1-5")])]
    scenario(
        id="k8s-cronjob-min-interval", platform="kubernetes", classes=K3,
        requirement="No CronJob may be scheduled to run more often than once every fifteen minutes.",
        violating=["CronJob/ops/heartbeat", "CronJob/billing/usage-sync", "CronJob/reports/intraday"],
        notes=("*/5; an explicit minute list every 10 minutes; */10 restricted to business hours. "
               "Compliant: */15, @hourly, 15,45, */20, 0,30, hourly in business hours."),
        violating_env=viol, compliant_env=comp)


# ======================================================================
# K13 Opaque Secrets immutable in env=prod namespaces
# ======================================================================
def k13():
    nss = [ns("payments", {"env": "prod"}), ns("orders", {"env": "prod", "team": "orders"}),
           ns("orders-staging", {"env": "staging"}), ns("platform", {"env": "production"})]

    def secret(namespace, name, stype=None, immutable=None, data=None):
        d = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": name, "namespace": namespace}}
        if stype:
            d["type"] = stype
        if immutable is not None:
            d["immutable"] = immutable
        d["data"] = data or {"password": "cGFzc3dvcmQ="}
        return d

    tls = secret("payments", "api-tls", "kubernetes.io/tls",
                 data={"tls.crt": "LS0tLS1CRUdJTg==", "tls.key": "LS0tLS1CRUdJTg=="})
    stg = secret("orders-staging", "db-credentials", "Opaque")
    plat = secret("platform", "grafana-admin", "Opaque", immutable=False)
    frozen = secret("payments", "webhook-signing", "Opaque", immutable=True)
    cm = {"apiVersion": "v1", "kind": "ConfigMap",
          "metadata": {"name": "stripe-settings", "namespace": "payments"},
          "data": {"API_BASE": "https://api.stripe.com", "WEBHOOK_TOKEN": "whsec_test_51Hx"}}
    app = deploy("payments", "payment-gateway", podspec(
        [c("gateway", "registry.corp.example/payments/gateway:6.3.0",
           envFrom=[{"configMapRef": {"name": "stripe-settings"}}],
           env=[{"name": "API_TOKEN", "value": "tok_live_8d1f"}])]))
    viol = [("namespaces.yaml", nss),
            ("payments-app.yaml", [cm, app]),
            ("secrets.yaml", [tls, frozen, secret("payments", "stripe-keys", "Opaque"),
                              stg, plat, secret("orders", "db-credentials", None, immutable=False)])]
    comp = [("namespaces.yaml", nss),
            ("payments-app.yaml", [cm, app]),
            ("secrets.yaml", [tls, frozen, secret("payments", "stripe-keys", "Opaque", immutable=True),
                              stg, plat, secret("orders", "db-credentials", None, immutable=True)])]
    scenario(
        id="k8s-prod-secrets-immutable", platform="kubernetes", classes=K3,
        requirement=("In namespaces labelled env=prod, every Opaque Secret must be marked "
                     "immutable."),
        violating=["Secret/payments/stripe-keys", "Secret/orders/db-credentials"],
        notes=("stripe-keys: Opaque, immutable absent; orders/db-credentials: no type (defaults to "
               "Opaque), immutable false. api-tls is kubernetes.io/tls; orders-staging is env=staging; "
               "platform is env=production (not env=prod)."),
        violating_env=viol, compliant_env=comp)


# ======================================================================
# K14 StorageClass allowVolumeExpansion
# ======================================================================
def k14():
    def sc(name, prov, expansion, **extra):
        d = {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": name}}
        if name == "gp3":
            d["metadata"]["annotations"] = {"storageclass.kubernetes.io/is-default-class": "true"}
        d["provisioner"] = prov
        d.update(extra)
        if expansion is not None:
            d["allowVolumeExpansion"] = expansion
        return d

    base = [sc("gp3", "ebs.csi.aws.com", True, parameters={"type": "gp3", "encrypted": "true"},
               volumeBindingMode="WaitForFirstConsumer"),
            sc("local-nvme", "kubernetes.io/no-provisioner", None, volumeBindingMode="WaitForFirstConsumer")]
    viol = [("storageclasses.yaml", base + [
        sc("st1-throughput", "ebs.csi.aws.com", False, parameters={"type": "st1"}),
        sc("efs-shared", "efs.csi.aws.com", None, parameters={"provisioningMode": "efs-ap"})])]
    comp = [("storageclasses.yaml", base + [
        sc("st1-throughput", "ebs.csi.aws.com", True, parameters={"type": "st1"}),
        sc("efs-shared", "efs.csi.aws.com", True, parameters={"provisioningMode": "efs-ap"})])]
    scenario(
        id="k8s-storageclass-expansion", platform="kubernetes", classes=["kyverno", "kubectl-opa"],
        requirement=("Persistent volumes must be resizable in place: every storage class has to let "
                     "claims grow, except classes for statically provisioned local volumes "
                     "(provisioner kubernetes.io/no-provisioner)."),
        violating=["StorageClass//st1-throughput", "StorageClass//efs-shared"],
        notes="st1-throughput sets false; efs-shared omits the field (defaults to false). local-nvme exempt.",
        violating_env=viol, compliant_env=comp)


# ======================================================================
# K15 NetworkPolicy peers with an empty namespaceSelector
# ======================================================================
def k15():
    nss = [ns("shop"), ns("data"), ns("monitoring", {"kubernetes.io/metadata.name": "monitoring"})]

    def np(namespace, name, spec):
        return {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
                "metadata": {"name": name, "namespace": namespace}, "spec": spec}

    deny = np("shop", "default-deny", {"podSelector": {}, "policyTypes": ["Ingress", "Egress"]})
    same_ns = np("shop", "allow-same-namespace", {
        "podSelector": {}, "policyTypes": ["Ingress"], "ingress": [{"from": [{"podSelector": {}}]}]})
    scrape = np("data", "allow-prometheus", {
        "podSelector": {"matchLabels": {"app": "postgres"}}, "policyTypes": ["Ingress"],
        "ingress": [{"from": [{"namespaceSelector": {"matchLabels": {
            "kubernetes.io/metadata.name": "monitoring"}}}], "ports": [{"port": 9187}]}]})

    def frontend(bad):
        peer = ({"namespaceSelector": {}} if bad else
                {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "ingress-nginx"}}})
        return np("shop", "allow-frontend", {
            "podSelector": {"matchLabels": {"app": "frontend"}}, "policyTypes": ["Ingress"],
            "ingress": [{"from": [{"ipBlock": {"cidr": "10.0.0.0/8"}}, peer],
                         "ports": [{"port": 8080, "protocol": "TCP"}]}]})

    def egress(bad):
        ns_sel = ({} if bad else {"matchLabels": {"kubernetes.io/metadata.name": "kube-system"}})
        return np("data", "db-egress", {
            "podSelector": {"matchLabels": {"app": "postgres"}}, "policyTypes": ["Egress"],
            "egress": [{"to": [{"podSelector": {"matchLabels": {"app": "postgres"}}}]},
                       {"to": [{"namespaceSelector": ns_sel,
                                "podSelector": {"matchLabels": {"k8s-app": "kube-dns"}}}],
                        "ports": [{"port": 53, "protocol": "UDP"}]}]})

    pg = svc("data", "postgres-metrics", [{"name": "metrics", "port": 9187}],
             internalTrafficPolicy="Local")
    viol = [("namespaces.yaml", nss),
            ("data-services.yaml", [pg]),
            ("shop-netpol.yaml", [deny, same_ns, frontend(True)]),
            ("data-netpol.yaml", [scrape, egress(True)])]
    comp = [("namespaces.yaml", nss),
            ("data-services.yaml", [pg]),
            ("shop-netpol.yaml", [deny, same_ns, frontend(False)]),
            ("data-netpol.yaml", [scrape, egress(False)])]
    scenario(
        id="k8s-netpol-any-namespace-peer", platform="kubernetes", classes=K3,
        requirement=("NetworkPolicies must not match every namespace: an ingress 'from' or egress 'to' "
                     "peer whose namespaceSelector is empty ({}) is forbidden, even when the peer also "
                     "has a podSelector."),
        violating=["NetworkPolicy/shop/allow-frontend", "NetworkPolicy/data/db-egress"],
        notes=("allow-frontend: second ingress peer namespaceSelector {}; db-egress: second egress "
               "rule, namespaceSelector {} combined with a podSelector for kube-dns. Near misses: "
               "podSelector {} alone (same namespace), default-deny with podSelector {}."),
        violating_env=viol, compliant_env=comp)


# ======================================================================
# RHEL 9
# ======================================================================
PASSWD_BASE = """root:x:0:0:root:/root:/bin/bash
bin:x:1:1:bin:/bin:/sbin/nologin
daemon:x:2:2:daemon:/sbin:/sbin/nologin
adm:x:3:4:adm:/var/adm:/sbin/nologin
lp:x:4:7:lp:/var/spool/lpd:/sbin/nologin
sync:x:5:0:sync:/sbin:/bin/sync
shutdown:x:6:0:shutdown:/sbin:/sbin/shutdown
halt:x:7:0:halt:/sbin:/sbin/halt
mail:x:8:12:mail:/var/spool/mail:/sbin/nologin
operator:x:11:0:operator:/root:/sbin/nologin
games:x:12:100:games:/usr/games:/sbin/nologin
ftp:x:14:50:FTP User:/var/ftp:/sbin/nologin
nobody:x:65534:65534:Kernel Overflow User:/:/sbin/nologin
systemd-coredump:x:999:997:systemd Core Dumper:/:/sbin/nologin
dbus:x:81:81:System message bus:/:/sbin/nologin
polkitd:x:998:996:User for polkitd:/:/sbin/nologin
sssd:x:997:994:User for sssd:/:/sbin/nologin
chrony:x:996:993:chrony system user:/var/lib/chrony:/sbin/nologin
sshd:x:74:74:Privilege-separated SSH:/usr/share/empty.sshd:/sbin/nologin
tss:x:59:59:Account used for TPM access:/dev/null:/sbin/nologin
"""

LOGIN_DEFS = """# RHEL 9 login.defs (excerpt)
MAIL_DIR\t/var/spool/mail
PASS_MAX_DAYS\t365
PASS_MIN_DAYS\t1
PASS_WARN_AGE\t7
UID_MIN                  1000
UID_MAX                 60000
ENCRYPT_METHOD SHA512
"""


def r1():
    def useradd(inactive_lines):
        return ("# useradd defaults file\n"
                "GROUP=100\n"
                "HOME=/home\n" + inactive_lines +
                "EXPIRE=\n"
                "SHELL=/bin/bash\n"
                "SKEL=/etc/skel\n"
                "CREATE_MAIL_SPOOL=yes\n")
    viol = {"/etc/default/useradd": useradd("# CIS 5.6.1.4: lock accounts 30 days after expiry\n"
                                             "#INACTIVE=30\n"
                                             "INACTIVE=-1\n"),
            "/etc/login.defs": LOGIN_DEFS}
    comp = {"/etc/default/useradd": useradd("# was: INACTIVE=-1\n"
                                             "INACTIVE=30\n"),
            "/etc/login.defs": LOGIN_DEFS.replace("PASS_MAX_DAYS\t365", "PASS_MAX_DAYS\t99999")}
    scenario(
        id="rhel9-useradd-inactive", platform="rhel9", classes=["rhel9-ansible-opa"],
        cis_id="5.4.1.5",
        requirement=("Ensure inactive password lock is 30 days or less: the default INACTIVE value "
                     "for new accounts in /etc/default/useradd must be between 0 and 30."),
        violating=["useradd//INACTIVE"],
        notes=("Violating: a commented #INACTIVE=30 followed by the active INACTIVE=-1 (never lock). "
               "Compliant: INACTIVE=30 (boundary) with a comment mentioning -1, and an unrelated "
               "login.defs PASS_MAX_DAYS 99999 violation of another control."),
        violating_env=(viol, None), compliant_env=(comp, None))


def r2():
    viol_pw = PASSWD_BASE.replace(
        "tss:x:59:59", "toor:x:0:0:legacy break-glass:/root:/bin/bash\ntss:x:59:59") + \
        "alice:x:1000:1000:Alice Ops:/home/alice:/bin/bash\n" \
        "svc-backup:x:1001:0:backup agent:/var/lib/backup:/bin/bash\n"
    comp_pw = PASSWD_BASE + \
        "alice:x:1000:1000:Alice Ops:/home/alice:/bin/bash\n" \
        "svc-backup:x:1001:0:backup agent:/var/lib/backup:/bin/bash\n" \
        "toor:x:1002:1002:former uid 0 account, renumbered (CHG-4411):/home/toor:/sbin/nologin\n"
    scenario(
        id="rhel9-only-root-uid0", platform="rhel9", classes=["rhel9-ansible-opa"],
        cis_id="5.4.2.1",
        requirement="Ensure root is the only UID 0 account on the host.",
        violating=["passwd//toor"],
        notes=("Violating /etc/passwd has toor with UID 0 in the middle of the system accounts. Near "
               "misses in both: sync/shutdown/halt/operator/svc-backup have GID 0 (not UID 0); "
               "compliant keeps a toor account with UID 1002."),
        violating_env=({"/etc/passwd": viol_pw}, None),
        compliant_env=({"/etc/passwd": comp_pw}, None))


SYSTEM_CONF = """#  This file is part of systemd.
#
# Entries in this file show the compile time defaults. Local configuration
# should be created by either modifying this file (or a copy of it placed in
# /etc/ if the original file is shipped in /usr/), or by creating "drop-ins" in
# the /etc/systemd/system.conf.d/ directory. The latter is generally
# recommended. Defaults can be restored by simply deleting the main
# configuration file and all drop-ins located in /etc/.
#
# See systemd-system.conf(5) for details.

[Manager]
#LogLevel=info
#LogTarget=journal-or-kmsg
#LogColor=yes
#LogLocation=no
#DumpCore=yes
#ShowStatus=yes
#CrashChangeVT=no
#CrashShell=no
#CrashReboot=no
{burst}#CPUAffinity=
#NUMAPolicy=default
#RuntimeWatchdogSec=off
#RebootWatchdogSec=10min
#DefaultTimeoutStartSec=90s
#DefaultTimeoutStopSec=90s
#DefaultLimitNOFILE=1024:524288
"""


def r3():
    viol = {"/etc/systemd/system.conf": SYSTEM_CONF.format(burst="CtrlAltDelBurstAction=none\n"),
            "/etc/systemd/system.conf.d/60-vendor-appliance.conf":
                "# installed by appliance-tools\n[Manager]\nDefaultTimeoutStopSec=30s\n"
                "CtrlAltDelBurstAction = reboot-force\n"}
    comp = {"/etc/systemd/system.conf": SYSTEM_CONF.format(burst="#CtrlAltDelBurstAction=reboot-force\n"),
            "/etc/systemd/system.conf.d/50-cis-hardening.conf":
                "[Manager]\n# CIS: do not reboot on repeated Ctrl-Alt-Del\nCtrlAltDelBurstAction=none\n",
            "/etc/systemd/system.conf.d/60-vendor-appliance.conf":
                "# installed by appliance-tools\n[Manager]\nDefaultTimeoutStopSec=30s\n"
                "#CtrlAltDelBurstAction=reboot-force\n"}
    scenario(
        id="rhel9-ctrl-alt-del-burst", platform="rhel9", classes=["rhel9-ansible-opa"],
                requirement=("Ensure pressing Ctrl-Alt-Del repeatedly cannot reboot the system: systemd's "
                     "CtrlAltDelBurstAction must resolve to none."),
        violating=["system.conf//CtrlAltDelBurstAction"],
        notes=("Violating: system.conf sets none but a later drop-in in /etc/systemd/system.conf.d "
               "overrides it with 'CtrlAltDelBurstAction = reboot-force' (spaces around '='). "
               "Compliant: main file only has the commented default (which alone would mean "
               "reboot-force), a 50- drop-in sets none and the 60- drop-in has the setting commented."),
        violating_env=(viol, None), compliant_env=(comp, None))


GRUB_CFG = """#
# DO NOT EDIT THIS FILE
#
# It is automatically generated by grub2-mkconfig using templates
# from /etc/grub.d and settings from /etc/default/grub
#

### BEGIN /etc/grub.d/00_header ###
set pager=1

if [ -f ${config_directory}/grubenv ]; then
  load_env -f ${config_directory}/grubenv
elif [ -s $prefix/grubenv ]; then
  load_env
fi
set default="${saved_entry}"
terminal_output console
if [ x$feature_timeout_style = xy ] ; then
  set timeout_style=menu
  set timeout=5
fi
### END /etc/grub.d/00_header ###

### BEGIN /etc/grub.d/01_users ###
if [ -f ${prefix}/user.cfg ]; then
  source ${prefix}/user.cfg
  if [ -n "${GRUB2_PASSWORD}" ]; then
    set superusers="root"
    export superusers
    password_pbkdf2 root ${GRUB2_PASSWORD}
  fi
fi
### END /etc/grub.d/01_users ###

### BEGIN /etc/grub.d/10_linux ###
insmod part_gpt
insmod xfs
blscfg
### END /etc/grub.d/10_linux ###
"""

USER_CFG = "GRUB2_PASSWORD=grub.pbkdf2.sha512.10000.9A1F2C7E4B.5D3C8A0E71\n"


def r4():
    files = {"/boot/grub2/grub.cfg": GRUB_CFG, "/boot/grub2/user.cfg": USER_CFG,
             "/boot/grub2/grubenv": "# GRUB Environment Block\nsaved_entry=a1b2c3-5.14.0-427.13.1.el9_4.x86_64\n"}
    viol_attr = {"/boot/grub2/grub.cfg": {"mode": "0644", "owner": "root", "group": "root"},
                 "/boot/grub2/user.cfg": {"mode": "0600", "owner": "root", "group": "root"},
                 "/boot/grub2/grubenv": {"mode": "0600", "owner": "root", "group": "root"}}
    comp_attr = {"/boot/grub2/grub.cfg": {"mode": "0600", "owner": "root", "group": "root"},
                 "/boot/grub2/user.cfg": {"mode": "0600", "owner": "root", "group": "root"},
                 "/boot/grub2/grubenv": {"mode": "0644", "owner": "root", "group": "root"}}
    scenario(
        id="rhel9-grub-cfg-permissions", platform="rhel9", classes=["rhel9-ansible-opa"],
        cis_id="1.4.2",
        requirement=("Ensure permissions on the bootloader config are configured: "
                     "/boot/grub2/grub.cfg must be owned by root and accessible by root only "
                     "(mode 0600 or stricter)."),
        violating=["grub.cfg//mode"],
        notes=("Violating: grub.cfg 0644 while user.cfg and grubenv are 0600. Compliant: grub.cfg 0600; "
               "grubenv 0644 (grubenv is not named by the requirement)."),
        violating_env=(files, viol_attr), compliant_env=(files, comp_attr))


SHELLS = ["/bin/sh", "/bin/bash", "/usr/bin/sh", "/usr/bin/bash"]


def r5():
    viol = "\n".join(SHELLS[:2] + ["/usr/sbin/nologin"] + SHELLS[2:] + ["/usr/bin/tmux", "/bin/tmux"]) + "\n"
    comp = ("# /sbin/nologin removed, see CIS 5.4.3.1\n" +
            "\n".join(SHELLS + ["/usr/bin/tmux", "/bin/tmux", "/usr/bin/zsh"]) + "\n")
    scenario(
        id="rhel9-shells-nologin", platform="rhel9", classes=["rhel9-ansible-opa"],
        cis_id="5.4.3.1",
        requirement="Ensure nologin is not listed in /etc/shells as a valid login shell.",
        violating=["shells//nologin"],
        notes=("Violating lists /usr/sbin/nologin (not /sbin/nologin) in the middle of the file. "
               "Compliant mentions /sbin/nologin only inside a comment."),
        violating_env=({"/etc/shells": viol, "/etc/passwd": PASSWD_BASE}, None),
        compliant_env=({"/etc/shells": comp, "/etc/passwd": PASSWD_BASE}, None))


def build():
    for f in (k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11, k12, k13, k14, k15, r1, r2, r3, r4, r5):
        f()
    return SCENARIOS


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python gen.py OUT")
    out = sys.argv[1]
    if os.path.isdir(out):
        for name in sorted(os.listdir(out)):
            p = os.path.join(out, name)
            if os.path.isdir(p) and os.path.isfile(os.path.join(p, "scenario.yaml")):
                shutil.rmtree(p)
    os.makedirs(out, exist_ok=True)
    for s in build():
        write_scenario(out, s)
    print(f"{len(SCENARIOS)} scenarios written to {out}")


if __name__ == "__main__":
    main()
