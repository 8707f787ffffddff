#!/usr/bin/env python3
"""sre-set19: held-out SRE incident snapshots (ITBench-Lite v0.2 layout).

Usage: python gen.py OUT      (stdlib only, deterministic, no network)

Writes OUT/Scenario-<N>/ with alerts/, metrics/, k8s_events_raw.tsv,
k8s_objects_raw.tsv, otel_logs_raw.tsv, otel_traces_raw.tsv and ground_truth.yaml.
"""
from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
import os
import random
import shutil
import sys

NS = "otel-demo"
UTC = dt.timezone.utc

# --------------------------------------------------------------------------------------
# small helpers
# --------------------------------------------------------------------------------------

ALNUM = "bcdfghjklmnpqrstvwxz2456789"


def h(s: str, n: int) -> str:
    d = hashlib.sha256(s.encode()).digest()
    out = []
    for i in range(n):
        out.append(ALNUM[d[i] % len(ALNUM)])
    return "".join(out)


def hexid(s: str, n: int) -> str:
    return hashlib.sha256(s.encode()).hexdigest()[:n]


def uid(s: str) -> str:
    x = hashlib.md5(s.encode()).hexdigest()
    return f"{x[:8]}-{x[8:12]}-{x[12:16]}-{x[16:20]}-{x[20:32]}"


def ts(t: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(t, UTC)


def iso_z(t: float) -> str:
    return ts(t).strftime("%Y-%m-%dT%H:%M:%SZ")


def iso_ms(t: float) -> str:
    d = ts(t)
    return d.strftime("%Y-%m-%dT%H:%M:%S.") + f"{d.microsecond // 1000:03d}Z"


def iso_us(t: float) -> str:
    d = ts(t)
    return d.strftime("%Y-%m-%dT%H:%M:%S.%f") + "Z"


def iso_ns(t: float) -> str:
    d = ts(t)
    ns = int(round((t - int(t)) * 1e9)) % 1_000_000_000
    return d.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ns:09d}Z"


def iso_off(t: float) -> str:
    d = ts(t)
    return d.strftime("%Y-%m-%dT%H:%M:%S.") + f"{d.microsecond // 1000:03d}+00:00"


def ch_ts(t: float) -> str:
    """ClickHouse DateTime64(9) text."""
    d = ts(t)
    ns = int(round((t - int(t)) * 1e9)) % 1_000_000_000
    return d.strftime("%Y-%m-%d %H:%M:%S.") + f"{ns:09d}"


def epoch_ns(t: float) -> int:
    return int(round(t * 1e9))


def jdump(o) -> str:
    return json.dumps(o, separators=(",", ":"), sort_keys=False)


# --------------------------------------------------------------------------------------
# the application (OpenTelemetry demo 2.0.x as deployed by its Helm chart)
# --------------------------------------------------------------------------------------

APPS = {
    # deployment: (port, image suffix, otel service name, cpu req, mem limit)
    "accounting": (None, "accounting", "accounting", "50m", "120Mi"),
    "ad": (8080, "ad", "ad", "100m", "300Mi"),
    "cart": (8080, "cart", "cart", "50m", "160Mi"),
    "checkout": (8080, "checkout", "checkout", "50m", "20Mi"),
    "currency": (8080, "currency", "currency", "50m", "20Mi"),
    "email": (8080, "email", "email", "50m", "100Mi"),
    "flagd": (8013, None, "flagd", "50m", "75Mi"),
    "flagd-ui": (4000, "flagd-ui", "flagd-ui", "20m", "250Mi"),
    "fraud-detection": (None, "fraud-detection", "fraud-detection", "100m", "300Mi"),
    "frontend": (8080, "frontend", "frontend", "100m", "250Mi"),
    "frontend-proxy": (8080, "frontend-proxy", "frontend-proxy", "50m", "65Mi"),
    "image-provider": (8081, "image-provider", "image-provider", "20m", "50Mi"),
    "kafka": (9092, "kafka", "kafka", "200m", "600Mi"),
    "load-generator": (8089, "load-generator", "load-generator", "100m", "1500Mi"),
    "payment": (8080, "payment", "payment", "50m", "120Mi"),
    "product-catalog": (8080, "product-catalog", "product-catalog", "50m", "20Mi"),
    "product-reviews": (8080, "product-reviews", "product-reviews", "50m", "100Mi"),
    "quote": (8080, "quote", "quote", "20m", "40Mi"),
    "recommendation": (8080, "recommendation", "recommendation", "50m", "500Mi"),
    "shipping": (8080, "shipping", "shipping", "20m", "20Mi"),
    "valkey-cart": (6379, None, "valkey-cart", "50m", "20Mi"),
    "postgresql": (5432, None, "postgresql", "100m", "256Mi"),
}
DEMO_TAG = "2.0.2"
NODES = ["ip-10-0-21-37.ec2.internal", "ip-10-0-22-114.ec2.internal", "ip-10-0-23-9.ec2.internal"]
ZONES = {NODES[0]: "us-east-1a", NODES[1]: "us-east-1b", NODES[2]: "us-east-1c"}


def image_of(dep: str, tag: str | None = None) -> str:
    suf = APPS[dep][1]
    if dep == "flagd":
        return "ghcr.io/open-feature/flagd:v0.12.1"
    if dep == "valkey-cart":
        return "valkey/valkey:8.1.1-alpine"
    if dep == "postgresql":
        return "postgres:17.4"
    return f"ghcr.io/open-telemetry/demo:{tag or DEMO_TAG}-{suf}"


# --------------------------------------------------------------------------------------
# ground truth
# --------------------------------------------------------------------------------------


def grp(gid, kind, ns, filt=None, name=None, rc=False):
    g = {"id": gid, "kind": kind, "namespace": ns}
    if filt is not None:
        g["filter"] = filt if isinstance(filt, list) else [filt]
    if name is not None:
        g["name"] = name
    if rc:
        g["root_cause"] = True
    return g


def svc_groups(app, ns=NS, with_dep=True):
    """service / pod / deployment groups of one app, ids <app>-service-1 etc."""
    gs = [grp(f"{app}-service-1", "Service", ns, rf"{app}\b"),
          grp(f"{app}-pod-1", "Pod", ns, f"^{app}-[a-z0-9]{{8,10}}-[a-z0-9]{{5}}$")]
    if with_dep:
        gs.append(grp(f"{app}-deployment-1", "Deployment", ns, rf"{app}\b"))
    return gs


def yaml_dump(o, ind=0) -> str:
    sp = "  " * ind
    out = []
    if isinstance(o, dict):
        for k, v in o.items():
            if isinstance(v, (dict, list)) and v:
                out.append(f"{sp}{k}:")
                out.append(yaml_dump(v, ind + 1))
            else:
                out.append(f"{sp}{k}: {yaml_scalar(v)}")
    elif isinstance(o, list):
        for v in o:
            if isinstance(v, dict) and v:
                sub = yaml_dump(v, ind + 1).split("\n")
                first = sub[0].lstrip()
                out.append(f"{sp}- {first}")
                out.extend(sub[1:])
            elif isinstance(v, list) and v:
                sub = yaml_dump(v, ind + 1).split("\n")
                out.append(f"{sp}- {sub[0].lstrip()}")
                out.extend(sub[1:])
            else:
                out.append(f"{sp}- {yaml_scalar(v)}")
    return "\n".join(out)


def yaml_scalar(v) -> str:
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, dict):
        return "{}"
    if isinstance(v, list):
        return "[]"
    return json.dumps(v)


def write_gt(path, sid, gt, wrapped):
    if wrapped:
        doc = {"apiVersion": "itbench.io/v1", "kind": "GroundTruth",
               "metadata": {"name": f"scenario-{sid}"}, "spec": gt}
        txt = "---\n" + yaml_dump(doc) + "\n"
    else:
        txt = yaml_dump(gt) + "\n"
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(txt)


# --------------------------------------------------------------------------------------
# the world of one incident
# --------------------------------------------------------------------------------------

EVENT_COLS = ["Timestamp", "TimestampTime", "TraceId", "SpanId", "TraceFlags", "SeverityText",
              "SeverityNumber", "ServiceName", "Body", "ResourceSchemaUrl", "ResourceAttributes",
              "ScopeSchemaUrl", "ScopeName", "ScopeVersion", "ScopeAttributes", "LogAttributes"]
LOG_COLS = ["Timestamp", "TraceId", "SpanId", "SeverityText", "SeverityNumber", "ServiceName",
            "Body", "ResourceAttributes", "LogAttributes"]
TRACE_COLS = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind",
              "ServiceName", "ResourceAttributes", "SpanAttributes", "Duration", "StatusCode",
              "StatusMessage"]


class World:
    def __init__(self, sid: int, t0: float, style: dict, seed: int):
        self.sid = sid
        self.t0 = t0  # fault time
        self.start = t0 - style.get("before", 30) * 60
        self.end = t0 + style.get("after", 20) * 60
        self.style = style
        self.rnd = random.Random(seed)
        self.events: list[tuple[float, dict, str, str]] = []  # (t, body, severity, ns)
        self.objects: list[tuple[float, dict]] = []
        self.logs: list[tuple] = []
        self.spans: list[tuple] = []
        self.alerts: list[dict] = []
        self.metrics: dict[str, list] = {}
        self.state: dict[tuple, dict] = {}  # current objects (kind, ns, name) -> obj
        self.changes: list[tuple[float, str, tuple, dict | None]] = []
        self.rev = {}
        self.pods: dict[str, list[str]] = {}  # deployment -> pod names alive (latest)
        self.pod_node: dict[str, str] = {}
        self.hooks = []  # trace perturbation functions
        self.pod_metric_hooks = []
        self.extra_pods: dict[str, dict] = {}
        self.rv = 184_000_000 + sid * 7919
        self.removed: dict[str, tuple[str, float]] = {}
        self.born: dict[str, float] = {}

    # ---------------- objects ----------------
    def next_rv(self) -> str:
        self.rv += self.rnd.randint(3, 400)
        return str(self.rv)

    def meta(self, kind, name, ns, created, labels=None, ann=None, owner=None, mf_op="Update",
             manager="kube-controller-manager"):
        m = {"name": name, "uid": uid(f"{self.sid}/{kind}/{ns}/{name}"),
             "resourceVersion": "0", "creationTimestamp": iso_z(created)}
        if ns:
            m["namespace"] = ns
        if labels:
            m["labels"] = dict(labels)
        if ann:
            m["annotations"] = dict(ann)
        if owner:
            m["ownerReferences"] = [owner]
        if self.style.get("managed_fields"):
            m["managedFields"] = [{"manager": manager, "operation": mf_op, "apiVersion": "v1",
                                   "time": iso_z(created), "fieldsType": "FieldsV1",
                                   "fieldsV1": {"f:metadata": {"f:labels": {}}}}]
        return m

    def put(self, t, obj):
        """record an object change (emitted as a row right away and in every later dump)."""
        m = obj["metadata"]
        key = (obj["kind"], m.get("namespace", ""), m["name"])
        obj = json.loads(json.dumps(obj))
        obj["metadata"]["resourceVersion"] = self.next_rv()
        self.state[key] = obj
        self.changes.append((t, "put", key, obj))

    def delete(self, t, kind, ns, name):
        key = (kind, ns, name)
        self.changes.append((t, "del", key, None))

    def get(self, kind, ns, name):
        return json.loads(json.dumps(self.state[(kind, ns, name)]))

    # ---------------- baseline app objects ----------------
    def deployment_obj(self, dep, created, replicas=1, tag=None, extra_env=None, mem_limit=None,
                       gen=1, restarted_at=None, containers_extra=None, res=None):
        port, _, svc, cpu, mem = APPS[dep]
        labels = {"app.kubernetes.io/name": dep, "app.kubernetes.io/instance": "otel-demo",
                  "app.kubernetes.io/component": dep, "app.kubernetes.io/part-of": "opentelemetry-demo",
                  "app.kubernetes.io/managed-by": "Helm", "helm.sh/chart": "opentelemetry-demo-0.37.2"}
        env = [{"name": "OTEL_SERVICE_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1",
                "fieldPath": "metadata.labels['app.kubernetes.io/component']"}}},
               {"name": "OTEL_COLLECTOR_NAME", "value": "otel-collector"},
               {"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://$(OTEL_COLLECTOR_NAME):4317"}]
        if port:
            env.insert(1, {"name": (dep.upper().replace("-", "_") + "_PORT"), "value": str(port)})
        for e in (extra_env or []):
            env.append(e)
        resources = res or {"limits": {"memory": mem_limit or mem}}
        c = {"name": dep, "image": image_of(dep, tag), "imagePullPolicy": "IfNotPresent",
             "env": env, "resources": resources, "terminationMessagePath": "/dev/termination-log",
             "terminationMessagePolicy": "File"}
        if port:
            c["ports"] = [{"containerPort": port, "name": "service", "protocol": "TCP"}]
        tmpl_ann = {}
        if restarted_at:
            tmpl_ann["kubectl.kubernetes.io/restartedAt"] = restarted_at
        spec_t = {"metadata": {"labels": {"app.kubernetes.io/name": dep,
                                          "app.kubernetes.io/instance": "otel-demo",
                                          "app.kubernetes.io/component": dep,
                                          "opentelemetry.io/name": dep}},
                  "spec": {"containers": [c] + list(containers_extra or []),
                           "serviceAccountName": "otel-demo", "restartPolicy": "Always",
                           "dnsPolicy": "ClusterFirst", "schedulerName": "default-scheduler",
                           "terminationGracePeriodSeconds": 30}}
        if tmpl_ann:
            spec_t["metadata"]["annotations"] = tmpl_ann
        obj = {"apiVersion": "apps/v1", "kind": "Deployment",
               "metadata": self.meta("Deployment", dep, NS, created, labels,
                                     {"deployment.kubernetes.io/revision": str(gen),
                                      "meta.helm.sh/release-name": "otel-demo",
                                      "meta.helm.sh/release-namespace": NS}),
               "spec": {"replicas": replicas, "revisionHistoryLimit": 10,
                        "selector": {"matchLabels": {"opentelemetry.io/name": dep}},
                        "strategy": {"type": "RollingUpdate",
                                     "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
                        "template": spec_t},
               "status": {"observedGeneration": gen, "replicas": replicas, "readyReplicas": replicas,
                          "availableReplicas": replicas, "updatedReplicas": replicas,
                          "conditions": [{"type": "Available", "status": "True",
                                          "reason": "MinimumReplicasAvailable",
                                          "lastTransitionTime": iso_z(created + 60)}]}}
        obj["metadata"]["generation"] = gen
        return obj

    def service_obj(self, dep, created, selector=None, target_port=None, name=None):
        port = APPS[dep][0]
        name = name or dep
        obj = {"apiVersion": "v1", "kind": "Service",
               "metadata": self.meta("Service", name, NS, created,
                                     {"app.kubernetes.io/name": dep,
                                      "app.kubernetes.io/component": dep,
                                      "app.kubernetes.io/managed-by": "Helm"}),
               "spec": {"type": "ClusterIP",
                        "clusterIP": f"172.20.{(len(dep) * 13) % 250}.{(sum(map(ord, dep))) % 250}",
                        "ports": [{"name": "tcp-service", "port": port, "protocol": "TCP",
                                   "targetPort": target_port or port}],
                        "selector": selector or {"opentelemetry.io/name": dep},
                        "sessionAffinity": "None"},
               "status": {"loadBalancer": {}}}
        return obj

    def pod_name(self, dep, rs_rev, i=0):
        return f"{dep}-{h(f'{self.sid}{dep}rs{rs_rev}', 9 if len(dep) < 9 else 10)}-{h(f'{self.sid}{dep}{rs_rev}p{i}', 5)}"

    def pod_obj(self, dep, name, created, node, phase="Running", ready=True, restarts=0,
                waiting=None, terminated_last=None, image=None, mem_limit=None, rs_rev=1,
                ns=NS, labels=None, res=None, extra_status=None):
        port = APPS.get(dep, (None,))[0]
        rsname = name.rsplit("-", 1)[0]
        cstat = {"name": dep, "image": image or (image_of(dep) if dep in APPS else "busybox"),
                 "imageID": "", "ready": ready, "restartCount": restarts, "started": ready,
                 "containerID": f"containerd://{hexid(name + str(restarts), 64)}"}
        if waiting:
            cstat["state"] = {"waiting": waiting}
            cstat["started"] = False
        elif phase == "Running":
            cstat["state"] = {"running": {"startedAt": iso_z(created + 8)}}
        else:
            cstat["state"] = {"waiting": {"reason": "ContainerCreating"}}
        if terminated_last:
            cstat["lastState"] = {"terminated": terminated_last}
        else:
            cstat["lastState"] = {}
        conds = [{"type": "PodScheduled", "status": "True" if node else "False",
                  "lastTransitionTime": iso_z(created)}]
        if node:
            conds += [{"type": "Initialized", "status": "True", "lastTransitionTime": iso_z(created + 1)},
                      {"type": "ContainersReady", "status": "True" if ready else "False",
                       "lastTransitionTime": iso_z(created + 9)},
                      {"type": "Ready", "status": "True" if ready else "False",
                       "lastTransitionTime": iso_z(created + 9)}]
        c = {"name": dep, "image": image or (image_of(dep) if dep in APPS else "busybox"),
             "resources": res or {"limits": {"memory": mem_limit or (APPS[dep][4] if dep in APPS else "64Mi")}}}
        if port:
            c["ports"] = [{"containerPort": port, "name": "service", "protocol": "TCP"}]
        spec = {"containers": [c], "nodeName": node, "serviceAccountName": "otel-demo",
                "restartPolicy": "Always", "schedulerName": "default-scheduler"}
        if not node:
            spec.pop("nodeName")
        status = {"phase": phase, "conditions": conds, "qosClass": "Burstable"}
        if node:
            status["hostIP"] = f"10.0.{21 + NODES.index(node) if node in NODES else 30}.{(len(name) * 7) % 250}"
            status["podIP"] = f"10.0.{40 + (sum(map(ord, name)) % 40)}.{(sum(map(ord, name)) * 3) % 250}"
            status["startTime"] = iso_z(created)
            status["containerStatuses"] = [cstat]
        if extra_status:
            status.update(extra_status)
        obj = {"apiVersion": "v1", "kind": "Pod",
               "metadata": self.meta("Pod", name, ns, created,
                                     labels or {"opentelemetry.io/name": dep,
                                                "app.kubernetes.io/name": dep,
                                                "app.kubernetes.io/component": dep,
                                                "pod-template-hash": rsname.rsplit("-", 1)[-1]},
                                     owner={"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": rsname,
                                            "uid": uid(rsname), "controller": True,
                                            "blockOwnerDeletion": True},
                                     manager="kubelet"),
               "spec": spec, "status": status}
        return obj

    def baseline_objects(self, skip=(), replicas=None):
        created = self.start - 6 * 86400 - 3 * 3600
        replicas = replicas or {}
        for i, dep in enumerate(sorted(APPS)):
            if dep in skip:
                continue
            self.put(self.start - 1, self.deployment_obj(dep, created, replicas.get(dep, 1)))
            if APPS[dep][0]:
                self.put(self.start - 1, self.service_obj(dep, created))
            pods = []
            for r in range(replicas.get(dep, 1)):
                pn = self.pod_name(dep, 1, r)
                node = NODES[(i + r) % 3]
                self.pod_node[pn] = node
                self.put(self.start - 1, self.pod_obj(dep, pn, created + 30, node))
                pods.append(pn)
            self.pods[dep] = pods

    def pod_of(self, dep, i=0):
        return self.pods[dep][i]

    def pod_at(self, dep, t, key=None):
        """the pod of `dep` alive at time t (by creation / removal times); replicas by key."""
        cands = list(self.pods.get(dep) or [])
        cands += [p for p, (d, _) in self.removed.items() if d == dep and p not in cands]
        best = None
        alive = []
        for p in cands:
            b = self.born.get(p, -1e18)
            r = self.removed[p][1] if p in self.removed else 1e18
            if b <= t < r:
                alive.append(p)
            if best is None or b > self.born.get(best, -1e18):
                best = p
        if alive:
            if key and len(alive) > 1:
                return alive[int(hashlib.md5(key.encode()).hexdigest()[:6], 16) % len(alive)]
            return alive[0]
        return best or f"{dep}-0"

    # ---------------- events ----------------
    def event(self, t, kind, name, reason, msg, etype="Normal", ns=NS, count=1, source="kubelet",
              host=None, watch="ADDED", first=None, api=None, uid_=None, last=None):
        api = api or self.style.get("events_api", "v1")
        ename = f"{name}.{hexid(f'{self.sid}{name}{reason}{first or t}', 16)}"
        inv = {"kind": kind, "name": name, "namespace": ns,
               "apiVersion": "apps/v1" if kind in ("Deployment", "ReplicaSet") else "v1",
               "uid": uid(f"{self.sid}/{kind}/{ns}/{name}")}
        if kind in ("Node",):
            inv.pop("namespace")
        if api == "v1":
            o = {"apiVersion": "v1", "kind": "Event",
                 "metadata": {"name": ename, "namespace": ns or "default",
                              "uid": uid(ename), "resourceVersion": self.next_rv(),
                              "creationTimestamp": iso_z(first or t)},
                 "involvedObject": inv, "reason": reason, "message": msg,
                 "source": {"component": source} | ({"host": host} if host else {}),
                 "firstTimestamp": iso_z(first or t), "lastTimestamp": iso_z(last or t),
                 "count": count, "type": etype, "eventTime": None,
                 "reportingComponent": source, "reportingInstance": host or ""}
        else:
            o = {"apiVersion": "events.k8s.io/v1", "kind": "Event",
                 "metadata": {"name": ename, "namespace": ns or "default",
                              "uid": uid(ename), "resourceVersion": self.next_rv(),
                              "creationTimestamp": iso_z(first or t)},
                 "regarding": inv, "reason": reason, "note": msg, "type": etype,
                 "eventTime": iso_us(first or t),
                 "reportingController": source if "/" in source else f"{source}",
                 "reportingInstance": host or f"{source}-{h(source, 5)}",
                 "action": {"Warning": "Failed", "Normal": "Update"}.get(etype, "Update"),
                 "deprecatedSource": {"component": source} | ({"host": host} if host else {}),
                 "deprecatedFirstTimestamp": iso_z(first or t),
                 "deprecatedLastTimestamp": iso_z(last or t), "deprecatedCount": count}
            if count > 1:
                o["series"] = {"count": count, "lastObservedTime": iso_us(last or t)}
        self.events.append((t, {"object": o, "type": watch}, "INFO" if etype == "Normal" else "WARN", ns))

    def repeating_event(self, t1, t2, every, kind, name, reason, msg, etype="Warning", **kw):
        """a deduplicated event: ADDED once, then MODIFIED with count increments."""
        t = t1
        n = 1
        while t <= min(t2, self.end):
            self.event(t, kind, name, reason, msg, etype, count=n, first=t1,
                       watch="ADDED" if n == 1 else "MODIFIED", **kw)
            n += 1
            t += every

    # ---------------- logs ----------------
    def log(self, t, svc, sev, body, trace_id="", span_id="", pod=None, attrs=None, ns=NS):
        pod = pod or self.pod_at(svc, t)
        ra = {"service.name": svc, "k8s.namespace.name": ns, "k8s.pod.name": pod,
              "k8s.deployment.name": svc, "k8s.node.name": self.pod_node.get(pod, NODES[0]),
              "service.namespace": "opentelemetry-demo", "telemetry.sdk.language": "go"}
        sevnum = {"TRACE": 1, "DEBUG": 5, "INFO": 9, "WARN": 13, "WARNING": 13, "ERROR": 17,
                  "FATAL": 21, "Information": 9, "Warning": 13, "Error": 17}.get(sev, 9)
        self.logs.append((t, trace_id, span_id, sev, sevnum, svc, body, ra, attrs or {}))

    # ---------------- traces ----------------
    def span(self, t, trace, sid, parent, name, kind, svc, dur_ms, err=None, attrs=None, pod=None):
        pod = pod or self.pod_at(svc, t, key=trace + svc)
        ra = {"service.name": svc, "k8s.namespace.name": NS, "k8s.pod.name": pod,
              "k8s.deployment.name": svc, "service.version": DEMO_TAG}
        self.spans.append((t, trace, sid, parent, name, kind, svc, ra, attrs or {},
                           int(dur_ms * 1e6), "Error" if err else "Unset", err or ""))

    # ---------------- alerts ----------------
    def alert(self, name, t_active, labels, summary, desc=None, severity="warning", value="1",
              t_resolved=None, pending_for=60):
        lab = {"alertname": name, "severity": severity}
        lab.update(labels)
        self.alerts.append({"labels": lab, "annotations": {"summary": summary,
                                                          "description": desc or summary},
                            "t": t_active, "until": t_resolved, "pending": pending_for,
                            "value": value})

    # ---------------- metrics ----------------
    def metric(self, fname, name, t, value, tags, extra=None):
        self.metrics.setdefault(fname, []).append((name, t, value, tags, extra or {}))


# --------------------------------------------------------------------------------------
# traffic model: call trees over the demo
# --------------------------------------------------------------------------------------

# (caller span name, callee service, callee server span name, rpc/http, children)
def C(svc, name, children=(), proto="grpc"):
    return (svc, name, list(children), proto)


FLOWS = {
    "products": ("GET /api/products", [C("product-catalog", "oteldemo.ProductCatalogService/ListProducts")]),
    "product": ("GET /api/products/{productId}", [
        C("product-catalog", "oteldemo.ProductCatalogService/GetProduct"),
        C("product-reviews", "oteldemo.ProductReviewService/GetProductReviews")]),
    "reco": ("GET /api/recommendations", [
        C("recommendation", "/oteldemo.RecommendationService/ListRecommendations",
          [C("product-catalog", "oteldemo.ProductCatalogService/ListProducts")])]),
    "ads": ("GET /api/data", [C("ad", "oteldemo.AdService/GetAds")]),
    "cart": ("POST /api/cart", [C("cart", "POST /oteldemo.CartService/AddItem",
                                  [C("valkey-cart", "HSET", proto="redis")])]),
    "currency": ("GET /api/currency", [C("currency", "Currency/GetSupportedCurrencies")]),
    "shipping": ("GET /api/shipping", [C("shipping", "oteldemo.ShippingService/GetQuote",
                                         [C("quote", "POST /getquote", proto="http")])]),
    "checkout": ("POST /api/checkout", [
        C("checkout", "oteldemo.CheckoutService/PlaceOrder", [
            C("cart", "POST /oteldemo.CartService/GetCart", [C("valkey-cart", "HGET", proto="redis")]),
            C("product-catalog", "oteldemo.ProductCatalogService/GetProduct"),
            C("currency", "Currency/Convert"),
            C("shipping", "oteldemo.ShippingService/GetQuote", [C("quote", "POST /getquote", proto="http")]),
            C("payment", "oteldemo.PaymentService/Charge"),
            C("shipping", "oteldemo.ShippingService/ShipOrder"),
            C("email", "POST /send_order_confirmation", proto="http"),
            C("cart", "POST /oteldemo.CartService/EmptyCart", [C("valkey-cart", "DEL", proto="redis")]),
            C("kafka", "orders publish", [C("accounting", "orders process", proto="kafka"),
                                          C("fraud-detection", "orders process", proto="kafka")],
              proto="kafka"),
        ])]),
}
FLOW_WEIGHTS = [("products", 5), ("product", 6), ("reco", 4), ("ads", 4), ("cart", 3),
                ("currency", 2), ("shipping", 2), ("checkout", 2)]
BASE_MS = {"product-catalog": 3, "product-reviews": 12, "recommendation": 9, "ad": 4, "cart": 2,
           "valkey-cart": 0.4, "currency": 0.6, "shipping": 2, "quote": 6, "checkout": 20,
           "payment": 5, "email": 14, "kafka": 3, "accounting": 4, "fraud-detection": 6}


def gen_traffic(w: World, per_min=6, flows=None):
    """Generate traces every minute; each fault hook may delay / fail / cut a call.

    hook(w, t, caller, callee, span_name, trace_no) -> None or dict(delay=ms, error=str,
        refused=str (client side only, no server span), flow_skip=True)
    """
    rnd = w.rnd
    names = []
    for n, k in (flows or FLOW_WEIGHTS):
        names += [n] * k
    tno = 0
    no_parent = w.style.get("orphan_spans", False)
    t = w.start
    while t < w.end:
        n_this = per_min(t) if callable(per_min) else per_min
        for k in range(n_this):
            tno += 1
            flow = rnd.choice(names)
            st = t + k * (60.0 / n_this) + rnd.random() * 5
            trace = hexid(f"{w.sid}t{tno}", 32)
            skip = False
            for hk in w.hooks:
                r = hk(w, st, "load-generator", "frontend", flow, tno)
                if r and r.get("flow_skip"):
                    skip = True
            if skip:
                continue
            _emit_flow(w, st, trace, flow, tno, no_parent)
        t += 60


def _call(w, st, trace, parent_id, caller, node, tno, depth, ctr):
    svc, name, children, proto = node
    res = {}
    for hk in w.hooks:
        r = hk(w, st, caller, svc, name, tno)
        if r:
            res.update(r)
    ctr[0] += 1
    cid = hexid(f"{trace}c{ctr[0]}", 16)
    ctr[0] += 1
    sid_ = hexid(f"{trace}s{ctr[0]}", 16)
    base = BASE_MS.get(svc, 3) * (0.7 + w.rnd.random() * 0.8)
    if res.get("skip"):
        return 0.0, None
    if res.get("refused"):
        dur = res.get("client_ms", 1.5 + w.rnd.random())
        w.span(st, trace, cid, parent_id, name if proto != "http" else f"POST", "Client", caller, dur,
               err=res["refused"], attrs={"rpc.system": proto, "peer.service": svc,
                                         "server.address": svc})
        return dur, res["refused"]
    delay = res.get("delay", 0.0)
    child_t = st + (0.5 + delay) / 1000.0
    total_child = 0.0
    child_err = None
    for ch in children:
        d, e = _call(w, child_t + total_child / 1000.0, trace, sid_, svc, ch, tno, depth + 1, ctr)
        total_child += d
        if e and not child_err and ch[3] != "kafka":
            child_err = e
    dur = base + delay + total_child
    err = res.get("error")
    if not err and child_err and svc not in ("kafka",):
        err = res.get("wrap", f"{svc}: upstream call failed: {child_err[:80]}")
    if svc == "kafka":
        # producer span in caller only, consumers linked
        w.span(st, trace, cid, parent_id, name, "Producer", caller, base, attrs={
            "messaging.system": "kafka", "messaging.destination.name": "orders"})
        return base, res.get("error")
    kind_s = "Consumer" if proto == "kafka" else "Server"
    w.span(st + 0.0002, trace, sid_, cid if proto != "kafka" else parent_id, name, kind_s, svc,
           dur, err=err, attrs={"rpc.system": proto} if proto == "grpc" else {"proto": proto})
    if proto != "kafka":
        w.span(st, trace, cid, parent_id, name, "Client", caller, dur + 0.4, err=err,
               attrs={"rpc.system": proto, "peer.service": svc})
    return dur + 0.4, err


def _emit_flow(w, st, trace, flow, tno, no_parent):
    root_name, calls = FLOWS[flow]
    ctr = [0]
    proxy_id = hexid(f"{trace}proxy", 16)
    fe_id = hexid(f"{trace}fe", 16)
    total = 0.0
    err = None
    for c in calls:
        d, e = _call(w, st + 0.001 + total / 1000, trace, fe_id, "frontend", c, tno, 1, ctr)
        total += d
        err = err or e
    fe_res = {}
    for hk in w.hooks:
        r = hk(w, st, "frontend-proxy", "frontend", root_name, tno)
        if r:
            fe_res.update(r)
    fe_dur = total + 4 + w.rnd.random() * 3 + fe_res.get("delay", 0)
    fe_err = fe_res.get("error") or (f"Error: 13 INTERNAL: {err[:90]}" if err else None)
    if fe_res.get("refused"):
        w.span(st, trace, proxy_id, "", "ingress", "Server", "frontend-proxy", 2.0,
               err=fe_res["refused"], attrs={"http.method": root_name.split()[0],
                                             "http.url": root_name.split()[1], "http.status_code": fe_res.get("code", 503)})
        return
    w.span(st + 0.0005, trace, fe_id, "" if no_parent and tno % 3 == 0 else proxy_id, root_name,
           "Server", "frontend", fe_dur, err=fe_err,
           attrs={"http.method": root_name.split()[0], "http.route": root_name.split()[1],
                  "http.status_code": 500 if fe_err else 200})
    if not (no_parent and tno % 3 == 0):
        w.span(st, trace, proxy_id, "", "ingress", "Server", "frontend-proxy", fe_dur + 1.2,
               err=("upstream 500" if fe_err else None),
               attrs={"http.method": root_name.split()[0], "upstream_cluster": "frontend",
                      "http.status_code": 500 if fe_err else 200})


# --------------------------------------------------------------------------------------
# metrics derived from traces plus pod resource series
# --------------------------------------------------------------------------------------

def span_logs(w: World):
    """ordinary request logs the demo services write, tied to their spans (every other one)."""
    k = 0
    for (t, trace, sid_, parent, name, kind, svc, ra, at, dur_ns, status, msg) in list(w.spans):
        if kind != "Server" or status == "Error":
            continue
        k += 1
        if k % 2:
            continue
        pod = ra["k8s.pod.name"]
        te = t + dur_ns / 1e9
        if svc == "checkout" and name.endswith("PlaceOrder"):
            w.log(te, svc, "INFO", jdump({"level": "info", "msg": "order placed", "app.order.id": uid(trace)[:18],
                                          "app.shipping.tracking.id": uid(trace + "s")}), trace, sid_, pod=pod)
        elif svc == "payment":
            w.log(te, svc, "info", jdump({"level": 30, "time": int(te * 1000), "pid": 1, "hostname": pod,
                                          "msg": "Transaction complete.", "transactionId": uid(trace + "p"),
                                          "cardType": "visa", "lastFourDigits": "5678"}), trace, sid_, pod=pod)
        elif svc == "email":
            w.log(te, svc, "INFO", f"Order confirmation email sent to: {h(trace, 6)}@example.com", trace, sid_, pod=pod)
        elif svc == "shipping" and name.endswith("GetQuote"):
            w.log(te, svc, "INFO", f"Sending Quote: {(int(trace[:4], 16) % 9000) / 100:.2f}", trace, sid_, pod=pod)
        elif svc == "recommendation":
            w.log(te, svc, "INFO", f"Receive ListRecommendations for product ids:['{h(trace, 10).upper()}']", trace, sid_, pod=pod)
        elif svc == "currency" and k % 6 == 0:
            w.log(te, svc, "INFO", "Convert conversion successful", trace, sid_, pod=pod)
        elif svc == "quote":
            w.log(te, svc, "INFO", f"Received request with number of items: {1 + int(trace[:2], 16) % 5}", trace, sid_, pod=pod)


def derive_service_metrics(w: World, scale=25):
    span_logs(w)
    per = {}
    for (t, trace, sid_, parent, name, kind, svc, ra, at, dur_ns, status, msg) in w.spans:
        if kind not in ("Server", "Consumer"):
            continue
        m = int((t - w.start) // 60)
        d = per.setdefault(svc, {}).setdefault(m, [0, 0, []])
        d[0] += 1
        if status == "Error":
            d[1] += 1
        d[2].append(dur_ns / 1e6)
    epoch = w.style.get("metric_epoch", False)
    buckets = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000]
    for svc, mins in sorted(per.items()):
        tot_ok = 0
        tot_err = 0
        cum_b = [0] * (len(buckets) + 1)
        nmin = int((w.end - w.start) // 60)
        for m in range(nmin):
            ok, er, lat = 0, 0, []
            if m in mins:
                ok = (mins[m][0] - mins[m][1]) * scale
                er = mins[m][1] * scale
                lat = mins[m][2]
            tot_ok += ok
            tot_err += er
            t = w.start + (m + 1) * 60
            tv = int(t) if epoch else iso_z(t)
            tags_ok = {"service_name": svc, "namespace": NS, "status_code": "STATUS_CODE_UNSET",
                       "span_kind": "SPAN_KIND_SERVER"}
            w.metric(f"service_{svc}.tsv", "traces_span_metrics_calls_total", tv, tot_ok, tags_ok,
                     {"service_name": svc, "namespace": NS, "status_code": "STATUS_CODE_UNSET"})
            if tot_err:
                tags_e = dict(tags_ok, status_code="STATUS_CODE_ERROR")
                w.metric(f"service_{svc}.tsv", "traces_span_metrics_calls_total", tv, tot_err, tags_e,
                         {"service_name": svc, "namespace": NS, "status_code": "STATUS_CODE_ERROR"})
            for x in lat:
                for bi, b in enumerate(buckets):
                    if x <= b:
                        cum_b[bi] += scale
                cum_b[-1] += scale
            if w.style.get("buckets", True) and m % 2 == 1:
                for bi, b in enumerate(buckets + ["+Inf"]):
                    tb = {"service_name": svc, "namespace": NS, "le": str(b)}
                    w.metric(f"service_{svc}.tsv", "traces_span_metrics_duration_milliseconds_bucket",
                             tv, cum_b[bi], tb, {"service_name": svc, "namespace": NS, "bucket_le": str(b)})


def pod_series(w: World, dep, pod, t_from=None, t_to=None, cpu=0.02, mem_mb=60.0, restarts_at=(),
               cpu_fn=None, mem_fn=None, ready_fn=None, ns=NS):
    epoch = w.style.get("metric_epoch", False)
    t = w.start if t_from is None else t_from
    stop = w.end if t_to is None else t_to
    cpu_total = 1000.0 + (sum(map(ord, pod)) % 500)
    fname = f"pod_{pod}.tsv"
    while t <= stop:
        c = cpu_fn(t) if cpu_fn else cpu * (0.8 + w.rnd.random() * 0.4)
        cpu_total += c * 30
        mm = mem_fn(t) if mem_fn else mem_mb * (0.97 + w.rnd.random() * 0.06)
        r = sum(1 for x in restarts_at if x <= t)
        tv = int(t) if epoch else iso_z(t)
        base = {"namespace": ns, "pod": pod, "container": dep}
        w.metric(fname, "container_cpu_usage_seconds_total", tv, round(cpu_total, 3), base,
                 {"pod_name": pod, "namespace": ns})
        w.metric(fname, "container_memory_working_set_bytes", tv, int(mm * 1048576), base,
                 {"pod_name": pod, "namespace": ns})
        w.metric(fname, "kube_pod_container_status_restarts_total", tv, r,
                 {"namespace": ns, "pod": pod, "container": dep, "job": "kube-state-metrics"},
                 {"pod_name": pod, "namespace": ns})
        rd = ready_fn(t) if ready_fn else 1
        w.metric(fname, "kube_pod_status_ready", tv, rd,
                 {"namespace": ns, "pod": pod, "condition": "true", "job": "kube-state-metrics"},
                 {"pod_name": pod, "namespace": ns})
        t += 30


# --------------------------------------------------------------------------------------
# writers
# --------------------------------------------------------------------------------------

def write_tsv(path, cols, rows, mode):
    """mode: csv (quoted, doubled quotes, as pandas/csv export), native (ClickHouse TSV)."""
    with open(path, "w", encoding="utf-8", newline="") as f:
        if mode == "csv":
            wr = csv.writer(f, delimiter="\t", lineterminator="\n")
            wr.writerow(cols)
            for r in rows:
                wr.writerow(r)
        else:
            f.write("\t".join(cols) + "\n")
            for r in rows:
                cells = []
                for c in r:
                    s = str(c)
                    if "\\" in s:
                        raise ValueError(f"backslash in native TSV cell of {path}")
                    if "\t" in s or "\n" in s:
                        s = s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
                    cells.append(s)
                f.write("\t".join(cells) + "\n")


def finish(w: World, out_root: str, gt: dict, wrapped: bool):
    d = os.path.join(out_root, f"Scenario-{w.sid}")
    os.makedirs(os.path.join(d, "alerts"), exist_ok=True)
    os.makedirs(os.path.join(d, "metrics"), exist_ok=True)
    st = w.style
    tsvmode = st.get("tsv", "csv")

    # events
    rows = []
    for (t, body, sev, ns) in sorted(w.events, key=lambda x: (x[0], jdump(x[1]))):
        o = body["object"]
        inv = o.get("involvedObject") or o.get("regarding")
        ra = {"k8s.cluster.name": st.get("cluster", "itbench-otel-demo")}
        la = {"event.domain": "k8s", "event.name": o["metadata"]["name"],
              "k8s.namespace.name": ns or "", "k8s.resource.name": "events"}
        b = jdump(body)
        if st.get("double_events"):
            b = json.dumps(b)
        rows.append([ch_ts(t), iso_z(t).replace("T", " ").rstrip("Z"), "", "", 0, sev,
                     {"INFO": 9, "WARN": 13}[sev], "", b, "", jdump(ra), "", "", "", "{}", jdump(la)])
    write_tsv(os.path.join(d, "k8s_events_raw.tsv"), EVENT_COLS, rows, tsvmode)

    # objects: change rows + periodic dumps
    rows = []
    period = st.get("dump_every", 600)
    cur = {}
    ch = sorted(w.changes, key=lambda x: x[0])
    ci = 0
    t = w.start
    ticks = []
    while t <= w.end:
        ticks.append(t)
        t += period
    emitted = []
    for tick in ticks:
        while ci < len(ch) and ch[ci][0] <= tick:
            tt, op, key, obj = ch[ci]
            if op == "put":
                cur[key] = obj
                if tt >= w.start:
                    emitted.append((tt, obj))
            else:
                cur.pop(key, None)
            ci += 1
        for key in sorted(cur):
            emitted.append((tick, cur[key]))
    while ci < len(ch):
        tt, op, key, obj = ch[ci]
        if op == "put" and tt <= w.end:
            emitted.append((tt, obj))
        ci += 1
    for (t, obj) in sorted(emitted, key=lambda x: (x[0], x[1]["kind"], x[1]["metadata"]["name"])):
        m = obj["metadata"]
        la = {"k8s.resource.name": obj["kind"].lower() + "s", "event.domain": "k8s",
              "k8s.namespace.name": m.get("namespace", "")}
        b = jdump(obj)
        if st.get("double_objects"):
            b = json.dumps(b)
        rows.append([ch_ts(t), iso_z(t).replace("T", " ").rstrip("Z"), "", "", 0, "", 0, "", b, "",
                     jdump({"k8s.cluster.name": st.get("cluster", "itbench-otel-demo")}), "", "", "",
                     "{}", jdump(la)])
    write_tsv(os.path.join(d, "k8s_objects_raw.tsv"), EVENT_COLS, rows, tsvmode)

    # logs
    rows = []
    for (t, tr, sp, sev, sn, svc, body, ra, la) in sorted(w.logs, key=lambda x: (x[0], x[5], str(x[6]))):
        rows.append([ch_ts(t), tr, sp, sev, sn, svc, body if isinstance(body, str) else jdump(body),
                     jdump(ra), jdump(la)])
    write_tsv(os.path.join(d, "otel_logs_raw.tsv"), LOG_COLS, rows, tsvmode)

    # traces
    rows = []
    kind_map = st.get("span_kind_style", "plain")
    for s in sorted(w.spans, key=lambda x: (x[0], x[1], x[2])):
        (t, tr, sp, par, name, kind, svc, ra, at, dur, status, msg) = s
        k = kind if kind_map == "plain" else "SPAN_KIND_" + kind.upper()
        stc = status if kind_map == "plain" else "STATUS_CODE_" + status.upper()
        rows.append([ch_ts(t), tr, sp, par, name, k, svc, jdump(ra), jdump(at), dur,
                     stc if kind_map != "plain" else status, msg])
    write_tsv(os.path.join(d, "otel_traces_raw.tsv"), TRACE_COLS, rows, tsvmode)

    # metrics
    for fname, mrows in sorted(w.metrics.items()):
        extra_cols = st.get("metric_extra_cols", True)
        cols = ["metric_name", "timestamp", "value", "tags"]
        if extra_cols:
            cols += ["pod_name", "namespace", "service_name", "bucket_le", "status_code"]
        out = []
        for (name, t, v, tags, extra) in mrows:
            tg = jdump(tags) if st.get("tags_json", True) else repr(tags)
            r = [name, t, v, tg]
            if extra_cols:
                r += [extra.get("pod_name", ""), extra.get("namespace", ""), extra.get("service_name", ""),
                      extra.get("bucket_le", ""), extra.get("status_code", "")]
            out.append(r)
        write_tsv(os.path.join(d, "metrics", fname), cols, out, "csv" if tsvmode == "csv" else "native")

    # alerts: one dump every `alert_every` seconds from the first alert on
    write_alerts(w, os.path.join(d, "alerts"))
    write_gt(os.path.join(d, "ground_truth.yaml"), w.sid, gt, wrapped)


def write_alerts(w: World, adir):
    st = w.style
    env = st.get("alert_env", "prom")
    every = st.get("alert_every", 300)
    first = min([a["t"] for a in w.alerts] + [w.t0])
    t = max(w.start, first - every) + every
    k = 0
    while t <= w.end + 1:
        act = []
        for a in w.alerts:
            if a["t"] <= t and (a["until"] is None or a["until"] > t):
                state = "firing" if t - a["t"] >= a["pending"] else "pending"
                act.append((a, state))
        act.sort(key=lambda x: (x[0]["t"], x[0]["labels"]["alertname"], jdump(x[0]["labels"])))
        fn = f"alerts_at_{ts(t).strftime('%Y-%m-%dT%H-%M-%S.%f')}.json"
        if env == "prom":
            al = [{"labels": a["labels"], "annotations": a["annotations"], "state": s,
                   "activeAt": iso_ns(a["t"]), "value": a["value"]} for a, s in act]
            doc = {"status": "success", "data": {"alerts": al}}
        elif env == "prom_list":
            doc = [{"labels": a["labels"], "annotations": a["annotations"], "state": s,
                    "activeAt": iso_us(a["t"]), "value": a["value"]} for a, s in act]
        elif env == "am_webhook":
            al = []
            for a, s in act:
                if s != "firing":
                    continue
                al.append({"status": "firing", "labels": a["labels"], "annotations": a["annotations"],
                           "startsAt": iso_off(a["t"]), "endsAt": "0001-01-01T00:00:00Z",
                           "generatorURL": f"http://prometheus-server.prometheus:9090/graph?g0.expr={a['labels']['alertname']}",
                           "fingerprint": hexid(jdump(a["labels"]), 16)})
            doc = {"receiver": "itbench-webhook", "status": "firing" if al else "resolved", "alerts": al,
                   "groupLabels": {"namespace": NS}, "commonLabels": {"namespace": NS},
                   "commonAnnotations": {}, "externalURL": "http://alertmanager.prometheus:9093",
                   "version": "4", "groupKey": "{}:{namespace=\"otel-demo\"}", "truncatedAlerts": 0}
        elif env == "am_v2":
            doc = {"alerts": [{"labels": a["labels"], "annotations": a["annotations"],
                               "startsAt": iso_ms(a["t"]), "endsAt": iso_ms(t + 240),
                               "updatedAt": iso_ms(t), "state": "active" if s == "firing" else "pending",
                               "status": {"state": "active", "silencedBy": [], "inhibitedBy": []},
                               "receivers": [{"name": "default"}],
                               "fingerprint": hexid(jdump(a["labels"]), 16)} for a, s in act]}
        else:
            raise ValueError(env)
        with open(os.path.join(adir, fn), "w", encoding="utf-8", newline="\n") as f:
            f.write(json.dumps(doc, indent=st.get("alert_indent", 2)))
            f.write("\n")
        k += 1
        t += every


# --------------------------------------------------------------------------------------
# shared noise
# --------------------------------------------------------------------------------------

def noise_common(w: World, kinds=("hpa", "probe", "lg")):
    """harmless background every real cluster has."""
    t = w.start + 120
    # events from an earlier deploy of the load generator expire (1 h TTL) inside the window
    lg = w.pod_of("load-generator")
    for k, (reason, msg) in enumerate((("Pulled", "Container image 'ghcr.io/open-telemetry/demo:2.0.2-load-generator' already present on machine"),
                                       ("Created", "Created container load-generator"),
                                       ("Started", "Started container load-generator"))):
        first = w.start - 3300 + k
        w.event(w.start - 3300 + k + 3600, "Pod", lg, reason, msg, host=w.pod_node.get(lg), first=first, last=first,
                watch="DELETED")
    if "probe" in kinds:
        pod = w.pod_of("image-provider")
        w.event(w.start + 410, "Pod", pod, "Unhealthy",
                "Readiness probe failed: Get \"http://10.0.44.17:8081/status\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)".replace('"', "'"),
                "Warning", host=w.pod_node[pod])
    if "lg" in kinds:
        for i in range(0, int((w.end - w.start) // 600)):
            w.log(w.start + 90 + i * 600, "load-generator", "INFO",
                  f"Aggregated | reqs {4200 + i * 37} | fails 0(0.00%) | avg 41 | min 2 | max 912 | rps 11.{i % 10}")
    if "hpa" in kinds:
        w.event(w.start + 300, "HorizontalPodAutoscaler", "otel-collector", "FailedGetResourceMetric",
                "failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API",
                "Warning", ns="opentelemetry-collectors", source="horizontal-pod-autoscaler")
    # info logs of a few services
    for i in range(int((w.end - w.start) // 240)):
        tt = w.start + 30 + i * 240
        w.log(tt, "cart", "Information", f"GetCartAsync called with userId={uid(str(i))}")
        w.log(tt + 7, "frontend", "INFO", jdump({"level": 30, "time": int(tt * 1000), "msg": "request completed", "route": "/api/products", "statusCode": 200}))
        w.log(tt + 11, "product-catalog", "INFO", f"Loaded 10 products")
        w.log(tt + 13, "ad", "INFO", "Targeted ad request received for [telescopes]")
        w.log(tt + 17, "quote", "INFO", "Calculated quote")


SCENARIOS = []


def scenario(f):
    SCENARIOS.append(f)
    return f


# --------------------------------------------------------------------------------------
# helpers for scenarios
# --------------------------------------------------------------------------------------

def T(s: str) -> float:
    return dt.datetime.strptime(s, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC).timestamp()


def mk_gt(groups, aliases, props, fault, alerts, actions):
    return {"alerts": [{"group_id": g, "id": a, "metadata": {"description": d}} for g, a, d in alerts],
            "aliases": aliases,
            "fault": fault,
            "groups": groups,
            "propagations": [{"condition": c, "effect": e, "source": s, "target": t} for s, t, c, e in props],
            "recommendedActions": [{"solution": {"actions": acts, "id": i}} for i, acts in actions]}


def all_pod_metrics(w: World, over=None, skip=()):
    over = over or {}
    todo = []
    for dep in sorted(w.pods):
        for pod in w.pods[dep]:
            todo.append((dep, pod))
    for pod, (dep, tr) in sorted(w.removed.items()):
        todo.append((dep, pod))
    for dep, pod in todo:
        if pod in skip:
            continue
        kw = dict(cpu=0.01 + (len(dep) % 5) * 0.01, mem_mb=float(int(APPS.get(dep, (0, 0, 0, 0, "64Mi"))[4][:-2]) * 0.55))
        if pod in w.removed:
            kw["t_to"] = w.removed[pod][1]
        if pod in w.born:
            kw["t_from"] = w.born[pod]
        kw.update(over.get(pod, {}))
        pod_series(w, dep, pod, **kw)


def chaos_obj(w, kind, name, created, spec, ns="chaos-mesh", extra_meta=None, status=None):
    o = {"apiVersion": "chaos-mesh.org/v1alpha1", "kind": kind,
         "metadata": w.meta(kind, name, ns, created, ann={"kubectl.kubernetes.io/last-applied-configuration": ""},
                            manager="kubectl-client-side-apply", mf_op="Update"),
         "spec": spec}
    o["metadata"]["annotations"].pop("kubectl.kubernetes.io/last-applied-configuration")
    if not o["metadata"]["annotations"]:
        o["metadata"].pop("annotations")
    o["metadata"]["finalizers"] = ["chaos-mesh/records"]
    if extra_meta:
        o["metadata"].update(extra_meta)
    if status:
        o["status"] = status
    return o


def second_ns_trouble(w: World, ns, t, app="nightly-report", reason="BackOff"):
    """a small unrelated problem in another namespace."""
    pod = f"{app}-{h(ns + app + str(w.sid), 8)}-{h(app + str(w.sid), 5)}"
    w.pod_node[pod] = NODES[2]
    o = w.pod_obj(app, pod, t - 1800, NODES[2], ready=False, restarts=6, ns=ns,
                  waiting={"reason": "CrashLoopBackOff",
                           "message": f"back-off 5m0s restarting failed container={app} pod={pod}_{ns}"},
                  terminated_last={"exitCode": 1, "reason": "Error", "startedAt": iso_z(t - 400),
                                   "finishedAt": iso_z(t - 396)},
                  image=f"registry.internal.example.com/{ns}/{app}:1.14.2",
                  labels={"app": app, "pod-template-hash": h(ns + app + str(w.sid), 8)})
    w.put(t - 1700, o)
    w.repeating_event(t - 1500, w.end, 300, "Pod", pod, reason,
                      f"Back-off restarting failed container {app} in pod {pod}_{ns}({uid(pod)})",
                      ns=ns, host=NODES[2])
    w.log(t - 396, app, "ERROR",
          f"psycopg2.OperationalError: connection to server at 'reports-db.{ns}.svc' (10.0.61.4), port 5432 failed: FATAL:  password authentication failed for user 'report'",
          pod=pod, ns=ns)
    return pod


FE_PROXY_ERR = "upstream connect error or disconnect/reset before headers. reset reason: connection termination"


# ======================================================================================
# 1  catalogue: Chaos Mesh NetworkChaos delay on product-catalog
# ======================================================================================
@scenario
def s1(out):
    t0 = T("2026-11-03 14:12:00")
    w = World(1, t0, {"alert_env": "prom", "events_api": "v1", "tsv": "csv", "managed_fields": True}, 101)
    w.baseline_objects()
    noise_common(w)
    name = "otel-demo-product-catalog-delay"
    spec = {"action": "delay", "mode": "all",
            "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/component": "product-catalog"}},
            "delay": {"latency": "850ms", "jitter": "120ms", "correlation": "25"},
            "direction": "to", "duration": "45m"}
    pc = w.pod_of("product-catalog")
    w.put(t0, chaos_obj(w, "NetworkChaos", name, t0, spec))
    w.put(t0 + 2, chaos_obj(w, "NetworkChaos", name, t0, spec, status={
        "conditions": [{"type": "AllInjected", "status": "True"}, {"type": "Selected", "status": "True"}],
        "experiment": {"desiredPhase": "Run", "containerRecords": [
            {"id": f"{NS}/{pc}", "phase": "Injected", "selectorKey": ".", "injectedCount": 1}]}}))
    for r, m in (("FinalizerInited", "Finalizer has been inited"), ("Updated", "Successfully update finalizer of resource"),
                 ("Started", "Experiment has started"), ("Applied", f"Successfully apply chaos for {NS}/{pc}")):
        w.event(t0 + 1, "NetworkChaos", name, r, m, ns="chaos-mesh", source="chaos-controller-manager")

    def hook(w, t, caller, callee, span, tno):
        if callee == "product-catalog" and t >= t0 + 3:
            d = 850 + w.rnd.uniform(-120, 120)
            return {"delay": d}
        return None
    w.hooks.append(hook)
    gen_traffic(w)
    # unrelated: flagd-ui restarted (OOMKilled) 11 minutes before
    fp = w.pod_of("flagd-ui")
    w.put(t0 - 660, w.pod_obj("flagd-ui", fp, w.start - 6 * 86400, w.pod_node[fp], restarts=1,
                              terminated_last={"exitCode": 137, "reason": "OOMKilled", "startedAt": iso_z(w.start - 6 * 86400),
                                               "finishedAt": iso_z(t0 - 662)}))
    w.event(t0 - 661, "Pod", fp, "Pulled", "Container image 'ghcr.io/open-telemetry/demo:2.0.2-flagd-ui' already present on machine", host=w.pod_node[fp])
    w.event(t0 - 660, "Pod", fp, "Started", "Started container flagd-ui", host=w.pod_node[fp])
    w.log(t0 - 664, "flagd-ui", "ERROR", "** (EXIT) an exception was raised: ** (ErlangError) Erlang error: :enomem", pod=fp)
    # harmless change near the fault: collector config bumped
    cm = {"apiVersion": "v1", "kind": "ConfigMap",
          "metadata": w.meta("ConfigMap", "otel-collector", "opentelemetry-collectors", t0 - 9 * 86400),
          "data": {"relay": "exporters:\n  clickhouse:\n    endpoint: tcp://clickhouse.clickhouse:9000\n    timeout: 10s\n"}}
    w.put(w.start - 1, cm)
    cm2 = json.loads(json.dumps(cm))
    cm2["data"]["relay"] = cm2["data"]["relay"].replace("timeout: 10s", "timeout: 15s")
    w.put(t0 - 150, cm2)
    second_ns_trouble(w, "team-reports", t0)
    for i in range(40):
        tt = t0 + 20 + i * 29
        w.log(tt, "frontend", "WARN", jdump({"level": 40, "time": int(tt * 1000), "msg": "slow upstream", "upstream": "product-catalog:8080", "elapsedMs": 870 + (i * 37) % 200}))
        if i % 3 == 0:
            w.log(tt + 3, "recommendation", "WARNING", f"get_product_list: ListProducts took {0.86 + (i % 7) * 0.02:.2f}s")
    w.alert("HighRequestLatency", t0 + 180, {"service_name": "frontend", "namespace": NS},
            "frontend p95 latency above 500ms", "Latency p95 of frontend is 1.21s over the last 5m", value="1.213")
    w.alert("HighRequestLatency", t0 + 240, {"service_name": "recommendation", "namespace": NS},
            "recommendation p95 latency above 500ms", value="0.97")
    w.alert("HighRequestLatency", t0 + 300, {"service_name": "frontend-proxy", "namespace": NS},
            "frontend-proxy p95 latency above 500ms", value="1.25")
    w.alert("KubePodCrashLooping", t0 - 9000, {"namespace": "team-reports", "pod": "nightly-report", "container": "nightly-report"},
            "Pod team-reports/nightly-report is crash looping", severity="warning", value="6")
    w.alert("Watchdog", w.start - 86400, {"namespace": "prometheus"}, "An alert that should always be firing", severity="none")
    derive_service_metrics(w)
    all_pod_metrics(w, {fp: {"restarts_at": [t0 - 662]}})
    groups = [grp("network-chaos-1", "NetworkChaos", "chaos-mesh", name, name=name, rc=True)]
    groups += svc_groups("product-catalog", with_dep=False)
    groups += [grp("frontend-service-1", "Service", NS, r"frontend\b"),
               grp("recommendation-service-1", "Service", NS, r"recommendation\b"),
               grp("checkout-service-1", "Service", NS, r"checkout\b"),
               grp("frontend-proxy-service-1", "Service", NS, r"frontend-proxy\b")]
    gt = mk_gt(groups, [["product-catalog-service-1", "product-catalog-pod-1"]],
               [("network-chaos-1", "product-catalog-pod-1", "NetworkChaos adds 850ms egress delay to product-catalog pods", "product-catalog responses slowed by ~850ms"),
                ("product-catalog-pod-1", "product-catalog-service-1", "product-catalog pod slow", "product-catalog service latency high"),
                ("product-catalog-service-1", "frontend-service-1", "frontend waits on ListProducts/GetProduct", "frontend latency above threshold"),
                ("product-catalog-service-1", "recommendation-service-1", "recommendation waits on ListProducts", "recommendation latency above threshold"),
                ("product-catalog-service-1", "checkout-service-1", "checkout waits on GetProduct", "checkout latency increases"),
                ("frontend-service-1", "frontend-proxy-service-1", "frontend slow", "frontend-proxy latency above threshold")],
               [{"category": "Chaos", "condition": "NetworkChaos delay 850ms on product-catalog",
                 "entity": {"group_id": "network-chaos-1", "kind": "NetworkChaos", "name": name},
                 "fault_mechanism": "network_delay"}],
               [("frontend-service-1", "HighRequestLatency", "frontend latency from slow product-catalog"),
                ("recommendation-service-1", "HighRequestLatency", "recommendation latency from slow product-catalog"),
                ("frontend-proxy-service-1", "HighRequestLatency", "edge latency from slow product-catalog")],
               [("delete-chaos", ["kubectl -n chaos-mesh delete networkchaos " + name])])
    finish(w, out, gt, wrapped=True)


# ======================================================================================
# 2  catalogue: bad image tag on payment (Recreate strategy -> outage)
# ======================================================================================
@scenario
def s2(out):
    t0 = T("2026-11-07 09:41:30")
    w = World(2, t0, {"alert_env": "am_v2", "events_api": "events.k8s.io/v1", "tsv": "csv", "managed_fields": False,
                      "metric_epoch": True}, 202)
    w.baseline_objects()
    noise_common(w, kinds=("probe", "lg"))
    created = w.start - 6 * 86400
    dep = w.deployment_obj("payment", created)
    dep["spec"]["strategy"] = {"type": "Recreate"}
    w.put(w.start - 1, dep)
    bad = "ghcr.io/open-telemetry/demo:2.0.3-payment"
    dep2 = w.deployment_obj("payment", created, tag="2.0.3", gen=2)
    dep2["spec"]["strategy"] = {"type": "Recreate"}
    dep2["metadata"]["annotations"]["kubernetes.io/change-cause"] = "ci: bump payment to 2.0.3 (renovate #4412)"
    dep2["status"].update({"readyReplicas": 0, "availableReplicas": 0, "unavailableReplicas": 1,
                           "conditions": [{"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable",
                                           "lastTransitionTime": iso_z(t0 + 5)},
                                          {"type": "Progressing", "status": "True", "reason": "ReplicaSetUpdated",
                                           "lastTransitionTime": iso_z(t0 + 2)}]})
    w.put(t0, dep2)
    old = w.pod_of("payment")
    w.delete(t0 + 4, "Pod", NS, old)
    w.removed[old] = ("payment", t0 + 4)
    newp = w.pod_name("payment", 2)
    w.pod_node[newp] = NODES[0]
    w.put(t0 + 6, w.pod_obj("payment", newp, t0 + 6, NODES[0], ready=False, image=bad, phase="Pending",
                            waiting={"reason": "ImagePullBackOff",
                                     "message": f"Back-off pulling image '{bad}'"}))
    w.pods["payment"] = [newp]
    rs_new = newp.rsplit("-", 1)[0]
    w.event(t0 + 1, "Deployment", "payment", "ScalingReplicaSet", f"Scaled down replica set {old.rsplit('-', 1)[0]} from 1 to 0",
            source="deployment-controller")
    w.event(t0 + 5, "Deployment", "payment", "ScalingReplicaSet", f"Scaled up replica set {rs_new} from 0 to 1",
            source="deployment-controller")
    w.event(t0 + 4, "Pod", old, "Killing", "Stopping container payment", host=NODES[0])
    w.event(t0 + 6, "ReplicaSet", rs_new, "SuccessfulCreate", f"Created pod: {newp}", source="replicaset-controller")
    w.event(t0 + 6, "Pod", newp, "Scheduled", f"Successfully assigned {NS}/{newp} to {NODES[0]}", source="default-scheduler")
    w.repeating_event(t0 + 8, w.end, 95, "Pod", newp, "Pulling", f"Pulling image '{bad}'", "Normal", host=NODES[0])
    w.repeating_event(t0 + 9, w.end, 95, "Pod", newp, "Failed",
                      f"Failed to pull image '{bad}': rpc error: code = NotFound desc = failed to pull and unpack image '{bad}': failed to resolve reference '{bad}': {bad}: not found",
                      host=NODES[0])
    w.repeating_event(t0 + 10, w.end, 60, "Pod", newp, "BackOff", f"Back-off pulling image '{bad}'", host=NODES[0])

    def hook(w, t, caller, callee, span, tno):
        if callee == "payment" and t >= t0 + 4:
            return {"refused": "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 172.20.7.223:8080"}
        return None
    w.hooks.append(hook)
    gen_traffic(w)
    # harmless change: product-catalog HPA minReplicas annotation / a dashboards ConfigMap
    cm = {"apiVersion": "v1", "kind": "ConfigMap",
          "metadata": w.meta("ConfigMap", "grafana-dashboards", NS, created, {"grafana_dashboard": "1"}),
          "data": {"demo-dashboard.json": "{'title': 'Demo Dashboard', 'version': 11}"}}
    w.put(w.start - 1, cm)
    cm2 = json.loads(json.dumps(cm))
    cm2["data"]["demo-dashboard.json"] = "{'title': 'Demo Dashboard', 'version': 12}"
    w.put(t0 - 70, cm2)
    for i in range(25):
        tt = t0 + 40 + i * 43
        w.log(tt, "checkout", "ERROR", jdump({"level": "error", "ts": tt, "caller": "checkout/main.go:312",
                                                "msg": "failed to charge card: could not charge the card: rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial tcp 172.20.7.223:8080: connect: connection refused\"".replace('"', "'")}))
    second_ns_trouble(w, "ml-batch", t0, app="feature-export")
    w.alert("KubeContainerWaiting", t0 + 300, {"namespace": NS, "pod": newp, "container": "payment"},
            f"Pod container waiting longer than 1 hour", f"pod/{newp} in namespace {NS} on container payment has been in waiting state for longer than 1 hour.")
    w.alert("KubeDeploymentReplicasMismatch", t0 + 240, {"namespace": NS, "deployment": "payment"},
            "Deployment has not matched the expected number of replicas.")
    w.alert("HighRequestErrorRate", t0 + 120, {"service_name": "checkout", "namespace": NS},
            "checkout error rate above 5%", value="0.97", severity="critical")
    w.alert("HighRequestErrorRate", t0 + 150, {"service_name": "frontend", "namespace": NS},
            "frontend error rate above 5%", value="0.11", severity="critical")
    w.alert("KubeJobFailed", t0 - 3000, {"namespace": "ml-batch", "job_name": "feature-export-29381220"},
            "Job failed to complete.")
    derive_service_metrics(w)
    all_pod_metrics(w, {old: {"t_to": t0}, newp: {"t_from": t0 + 6, "cpu": 0.0, "mem_mb": 0.0, "ready_fn": lambda t: 0}})
    groups = [grp("payment-deployment-1", "Deployment", NS, "^payment$", name="payment", rc=True),
              grp("payment-pod-1", "Pod", NS, r"^payment-[a-z0-9]+-[a-z0-9]+$"),
              grp("payment-service-1", "Service", NS, r"payment\b"),
              grp("checkout-service-1", "Service", NS, r"checkout\b"),
              grp("frontend-service-1", "Service", NS, r"frontend\b")]
    gt = mk_gt(groups, [["payment-deployment-1", "payment-pod-1", "payment-service-1"]],
               [("payment-deployment-1", "payment-pod-1", "payment image set to non-existent tag 2.0.3-payment with Recreate strategy", "payment pod in ImagePullBackOff, no ready replica"),
                ("payment-pod-1", "payment-service-1", "no ready endpoints", "payment connections refused"),
                ("payment-service-1", "checkout-service-1", "Charge fails", "checkout PlaceOrder error rate above threshold"),
                ("checkout-service-1", "frontend-service-1", "PlaceOrder fails", "frontend checkout error rate above threshold")],
               [{"category": "Change", "condition": "payment Deployment image set to a tag that does not exist",
                 "entity": {"group_id": "payment-deployment-1", "kind": "Deployment", "name": "payment"},
                 "fault_mechanism": "modify-kubernetes-workload-container-image"}],
               [("payment-pod-1", "KubeContainerWaiting", "image cannot be pulled"),
                ("payment-deployment-1", "KubeDeploymentReplicasMismatch", "no available replica"),
                ("checkout-service-1", "HighRequestErrorRate", "payment unreachable"),
                ("frontend-service-1", "HighRequestErrorRate", "checkout fails")],
               [("rollback", ["kubectl -n otel-demo rollout undo deployment/payment"])])
    finish(w, out, gt, wrapped=False)



def replace_pod(w: World, dep, t, rev, node=None, idx=0, same_rs=False, **kw):
    """the ReplicaSet of revision `rev` replaces pod idx of `dep` at t (old pod deleted)."""
    old = w.pods[dep][idx]
    w.delete(t, "Pod", NS, old)
    w.removed[old] = (dep, t)
    newp = w.pod_name(dep, rev, idx)
    if same_rs:
        newp = old.rsplit("-", 1)[0] + "-" + h(old + str(t), 5)
    w.born[newp] = t + 2
    node = node or w.pod_node.get(old, NODES[0])
    w.pod_node[newp] = node
    w.put(t + 2, w.pod_obj(dep, newp, t + 2, node, **kw))
    w.pods[dep] = list(w.pods[dep])
    w.pods[dep][idx] = newp
    return old, newp


# ======================================================================================
# 3  catalogue: Chaos Mesh Schedule spawning a StressChaos (CPU) on currency
# ======================================================================================
@scenario
def s3(out):
    t0 = T("2026-11-10 21:05:00")
    w = World(3, t0, {"alert_env": "prom_list", "events_api": "v1", "tsv": "native", "managed_fields": False,
                      "alert_every": 120}, 303)
    w.baseline_objects()
    noise_common(w, kinds=("hpa", "lg"))
    sname = "currency-cpu-burn"
    sched_spec = {"schedule": "@every 2h", "type": "StressChaos", "historyLimit": 2,
                  "concurrencyPolicy": "Forbid", "startingDeadlineSeconds": None,
                  "stressChaos": {"mode": "one",
                                  "selector": {"namespaces": [NS],
                                               "labelSelectors": {"app.kubernetes.io/component": "currency"}},
                                  "stressors": {"cpu": {"workers": 4, "load": 95}},
                                  "duration": "30m"}}
    created = t0 - 2 * 86400 - 7200
    w.put(w.start - 1, chaos_obj(w, "Schedule", sname, created, sched_spec,
                                 status={"lastScheduleTime": iso_z(t0 - 7200),
                                         "active": [{"kind": "StressChaos", "namespace": "chaos-mesh",
                                                     "name": f"{sname}-{h('prev3', 5)}", "apiVersion": "chaos-mesh.org/v1alpha1"}]}))
    prev = f"{sname}-{h('prev3', 5)}"
    child = f"{sname}-{h('cur3', 5)}"
    cur_pod = w.pod_of("currency")
    own = {"ownerReferences": [{"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "Schedule", "name": sname,
                                "uid": uid(f"3/Schedule/chaos-mesh/{sname}"), "controller": True,
                                "blockOwnerDeletion": True}],
           "labels": {"managed-by": sname}}
    cspec = dict(sched_spec["stressChaos"])
    w.put(w.start - 1, chaos_obj(w, "StressChaos", prev, t0 - 7200, cspec, extra_meta=own,
                                 status={"conditions": [{"type": "AllRecovered", "status": "True"}],
                                         "experiment": {"desiredPhase": "Stop", "containerRecords": [
                                             {"id": f"{NS}/{cur_pod}/currency", "phase": "Not Injected", "injectedCount": 1,
                                              "recoveredCount": 1}]}}))
    w.put(t0, chaos_obj(w, "StressChaos", child, t0, cspec, extra_meta=own))
    w.put(t0 + 3, chaos_obj(w, "StressChaos", child, t0, cspec, extra_meta=own,
                            status={"conditions": [{"type": "AllInjected", "status": "True"}],
                                    "instances": {f"{NS}/{cur_pod}": {"uid": hexid(cur_pod, 12)}},
                                    "experiment": {"desiredPhase": "Run", "containerRecords": [
                                        {"id": f"{NS}/{cur_pod}/currency", "phase": "Injected", "injectedCount": 1}]}}))
    sch2 = chaos_obj(w, "Schedule", sname, created, sched_spec,
                     status={"lastScheduleTime": iso_z(t0),
                             "active": [{"kind": "StressChaos", "namespace": "chaos-mesh", "name": child,
                                         "apiVersion": "chaos-mesh.org/v1alpha1"}]})
    w.put(t0 + 1, sch2)
    w.event(t0, "Schedule", sname, "Spawned", f"Create new object: {child}", ns="chaos-mesh",
            source="schedule-controller")
    for r, m in (("FinalizerInited", "Finalizer has been inited"), ("Started", "Experiment has started"),
                 ("Applied", f"Successfully apply chaos for {NS}/{cur_pod}/currency")):
        w.event(t0 + 2, "StressChaos", child, r, m, ns="chaos-mesh", source="chaos-controller-manager")

    def hook(w, t, caller, callee, span, tno):
        if callee == "currency" and t >= t0 + 5:
            return {"delay": 220 + w.rnd.random() * 380}
        return None
    w.hooks.append(hook)
    gen_traffic(w, per_min=6, flows=FLOW_WEIGHTS[:-3] + [("currency", 4), ("shipping", 2), ("checkout", 3)])
    # unrelated: ad was rolled (restartedAt) 6 min before -> restart of the ad service
    created_d = w.start - 6 * 86400 - 3 * 3600
    w.put(t0 - 360, w.deployment_obj("ad", created_d, restarted_at=iso_z(t0 - 361), gen=2))
    old, newp = replace_pod(w, "ad", t0 - 345, 2)
    w.event(t0 - 358, "Deployment", "ad", "ScalingReplicaSet", f"Scaled up replica set {newp.rsplit('-', 1)[0]} from 0 to 1",
            source="deployment-controller")
    w.event(t0 - 330, "Deployment", "ad", "ScalingReplicaSet", f"Scaled down replica set {old.rsplit('-', 1)[0]} from 1 to 0",
            source="deployment-controller")
    w.event(t0 - 331, "Pod", old, "Killing", "Stopping container ad", host=w.pod_node[old])
    w.log(t0 - 320, "ad", "INFO", "Ad service started, listening on 8080", pod=newp)
    w.log(t0 - 318, "ad", "WARN", "Feature flag provider not ready yet, defaulting adFailure=false", pod=newp)
    for i in range(18):
        tt = t0 + 60 + i * 55
        w.log(tt, "checkout", "WARN", f"slow dependency: currency Convert took {310 + (i * 53) % 420}ms", )
        w.log(tt + 5, "frontend", "WARN", f"GET /api/currency took {400 + (i * 71) % 500}ms")
    w.alert("HighRequestLatency", t0 + 240, {"service_name": "checkout", "namespace": NS},
            "checkout p95 latency above 1s", value="1.48")
    w.alert("HighRequestLatency", t0 + 300, {"service_name": "frontend", "namespace": NS},
            "frontend p95 latency above 500ms", value="0.74")
    w.alert("ContainerHighCpuUsage", t0 + 120, {"namespace": NS, "pod": cur_pod, "container": "currency"},
            "Container CPU usage above 90% of node share", value="3.81", severity="info")
    w.alert("KubeHpaMaxedOut", w.start - 3600, {"namespace": "opentelemetry-collectors",
                                                "horizontalpodautoscaler": "otel-collector"},
            "HPA is running at max replicas", severity="info")
    derive_service_metrics(w)
    all_pod_metrics(w, {cur_pod: {"cpu_fn": lambda t: 3.8 + w.rnd.random() * 0.15 if t >= t0 + 3 else 0.03},
                        old: {"t_to": t0 - 330}, newp: {"t_from": t0 - 343}})
    groups = [grp("schedule-1", "Schedule", "chaos-mesh", rf"^{sname}$", name=sname, rc=True),
              grp("stresschaos-1", "StressChaos", "chaos-mesh", rf"^{sname}-[a-z0-9]{{5}}$")]
    groups += svc_groups("currency")
    groups += [grp("checkout-service-1", "Service", NS, r"checkout\b"),
               grp("frontend-service-1", "Service", NS, r"frontend\b")]
    gt = mk_gt(groups, [["schedule-1", "stresschaos-1"], ["currency-service-1", "currency-pod-1", "currency-deployment-1"]],
               [("schedule-1", "stresschaos-1", "Schedule @every 2h spawns a StressChaos", "StressChaos burns 4 CPU workers in the currency container"),
                ("stresschaos-1", "currency-pod-1", "CPU stress in currency pod", "currency CPU saturated, Convert slow"),
                ("currency-pod-1", "currency-service-1", "currency slow", "currency latency high"),
                ("currency-service-1", "checkout-service-1", "PlaceOrder converts every item", "checkout latency above threshold"),
                ("currency-service-1", "frontend-service-1", "currency calls from frontend slow", "frontend latency above threshold")],
               [{"category": "Chaos", "condition": "scheduled CPU stress on currency",
                 "entity": {"group_id": "schedule-1", "kind": "Schedule", "name": sname},
                 "fault_mechanism": "cpu_stress"}],
               [("checkout-service-1", "HighRequestLatency", "slow currency"),
                ("frontend-service-1", "HighRequestLatency", "slow currency"),
                ("currency-pod-1", "ContainerHighCpuUsage", "stressed container")],
               [("delete-schedule", ["kubectl -n chaos-mesh delete schedule " + sname])])
    finish(w, out, gt, wrapped=False)


FLAGD_BASE = {
    "$schema": "https://flagd.dev/schema/v0/flags.json",
    "flags": {
        "productCatalogFailure": {"description": "Fail product catalog service on a specific product", "state": "ENABLED",
                                  "variants": {"on": True, "off": False}, "defaultVariant": "off"},
        "recommendationCacheFailure": {"description": "Fail recommendation service cache", "state": "ENABLED",
                                       "variants": {"on": True, "off": False}, "defaultVariant": "off"},
        "adManualGc": {"description": "Triggers full manual garbage collections in the ad service", "state": "ENABLED",
                       "variants": {"on": True, "off": False}, "defaultVariant": "off"},
        "adHighCpu": {"description": "Triggers high cpu load in the ad service", "state": "ENABLED",
                      "variants": {"on": True, "off": False}, "defaultVariant": "off"},
        "adFailure": {"description": "Fail ad service", "state": "ENABLED",
                      "variants": {"on": True, "off": False}, "defaultVariant": "off"},
        "kafkaQueueProblems": {"description": "Overloads Kafka queue while simultaneously introducing a consumer side delay leading to a lag spike",
                               "state": "ENABLED", "variants": {"on": 100, "off": 0}, "defaultVariant": "off"},
        "cartFailure": {"description": "Fail cart service", "state": "ENABLED",
                        "variants": {"on": True, "off": False}, "defaultVariant": "off"},
        "paymentFailure": {"description": "Fail payment service charge requests n%", "state": "ENABLED",
                           "variants": {"100%": 1, "90%": 0.95, "75%": 0.75, "50%": 0.5, "25%": 0.25, "10%": 0.1, "off": 0},
                           "defaultVariant": "off"},
        "paymentUnreachable": {"description": "Payment service is unavailable", "state": "ENABLED",
                               "variants": {"on": True, "off": False}, "defaultVariant": "off"},
        "loadGeneratorFloodHomepage": {"description": "Flood the frontend with a large amount of requests.",
                                       "state": "ENABLED", "variants": {"on": 100, "off": 0}, "defaultVariant": "off"},
        "imageSlowLoad": {"description": "slow loading images in the frontend", "state": "ENABLED",
                          "variants": {"10sec": 10000, "5sec": 5000, "off": 0}, "defaultVariant": "off"},
    }}


# ======================================================================================
# 4  catalogue: feature flag paymentFailure switched to 50% in flagd-config
# ======================================================================================
@scenario
def s4(out):
    t0 = T("2026-11-12 16:20:10")
    w = World(4, t0, {"alert_env": "prom", "events_api": "v1", "tsv": "csv", "managed_fields": True,
                      "double_objects": True, "tags_json": False}, 404)
    w.baseline_objects()
    noise_common(w)
    created = w.start - 6 * 86400 - 3 * 3600
    cm = {"apiVersion": "v1", "kind": "ConfigMap",
          "metadata": w.meta("ConfigMap", "flagd-config", NS, created, {"app.kubernetes.io/managed-by": "Helm"}),
          "data": {"demo.flagd.json": json.dumps(FLAGD_BASE, indent=2)}}
    w.put(w.start - 1, cm)
    f2 = json.loads(json.dumps(FLAGD_BASE))
    f2["flags"]["paymentFailure"]["defaultVariant"] = "50%"
    cm2 = json.loads(json.dumps(cm))
    cm2["data"]["demo.flagd.json"] = json.dumps(f2, indent=2)
    w.put(t0, cm2)
    # harmless neighbour: product catalogue ConfigMap gets a new product 4 minutes earlier
    pc = {"apiVersion": "v1", "kind": "ConfigMap",
          "metadata": w.meta("ConfigMap", "product-catalog-products", NS, created),
          "data": {"products.json": jdump({"products": [{"id": "OLJCESPC7Z", "name": "National Park Foundation Explorascope"},
                                                        {"id": "66VCHSJNUP", "name": "Starsense Explorer Refractor Telescope"}]})}}
    w.put(w.start - 1, pc)
    pc2 = json.loads(json.dumps(pc))
    pc2["data"]["products.json"] = jdump({"products": [{"id": "OLJCESPC7Z", "name": "National Park Foundation Explorascope"},
                                                       {"id": "66VCHSJNUP", "name": "Starsense Explorer Refractor Telescope"},
                                                       {"id": "HQTGWGPNH4", "name": "The Comet Book"}]})
    w.put(t0 - 240, pc2)
    w.log(t0 + 48, "flagd", "info", jdump({"level": "info", "ts": t0 + 48, "source": "flagd", "component": "sync",
                                           "sync": "filepath", "msg": "data sync update received for /etc/flagd/demo.flagd.json"}))
    w.log(t0 + 48.2, "flagd", "info", jdump({"level": "info", "ts": t0 + 48.2, "source": "flagd", "component": "evaluator",
                                             "msg": "configuration change (UPDATE) for flagSource file:/etc/flagd/demo.flagd.json"}))

    def hook(w, t, caller, callee, span, tno):
        if callee == "payment" and t >= t0 + 50 and (tno * 7919) % 100 < 50:
            return {"error": "Payment request failed. Invalid token. app.loyalty.level=gold",
                    "wrap": None}
        if callee == "checkout" and t >= t0 + 50:
            return {"wrap": "failed to charge card: could not charge the card: rpc error: code = Unknown desc = Payment request failed. Invalid token. app.loyalty.level=gold"}
        return None
    w.hooks.append(hook)
    gen_traffic(w, flows=FLOW_WEIGHTS[:-1] + [("checkout", 5)])
    for (t, tr, sp, par, name, kind, svc, ra, at, dur, status, msg) in list(w.spans):
        if svc == "payment" and kind == "Server" and status == "Error":
            w.log(t + dur / 1e9, "payment", "error", jdump({"level": 50, "time": int(t * 1000), "pid": 1,
                                                            "hostname": w.pod_of("payment"),
                                                            "msg": "Payment request failed. Invalid token. app.loyalty.level=gold",
                                                            "err": {"type": "Error", "message": "Payment request failed. Invalid token. app.loyalty.level=gold"}}),
                  trace_id=tr, span_id=sp)
        if svc == "checkout" and kind == "Server" and status == "Error":
            w.log(t + dur / 1e9, "checkout", "ERROR", "failed to charge card: could not charge the card: rpc error: code = Unknown desc = Payment request failed. Invalid token. app.loyalty.level=gold",
                  trace_id=tr, span_id=sp)
    second_ns_trouble(w, "analytics", t0, app="clickstream-sink")
    w.alert("HighRequestErrorRate", t0 + 200, {"service_name": "checkout", "namespace": NS},
            "checkout error rate above 5%", value="0.46", severity="critical")
    w.alert("HighRequestErrorRate", t0 + 230, {"service_name": "frontend", "namespace": NS},
            "frontend error rate above 5%", value="0.08", severity="critical")
    w.alert("RequestErrorRate", t0 + 170, {"service_name": "payment", "namespace": NS},
            "payment error rate above threshold", value="0.49")
    w.alert("KubePodCrashLooping", t0 - 5000, {"namespace": "analytics", "pod": "clickstream-sink", "container": "clickstream-sink"},
            "Pod is crash looping.")
    derive_service_metrics(w)
    all_pod_metrics(w)
    groups = [grp("flagd-config-1", "ConfigMap", NS, r"^flagd-config$", name="flagd-config", rc=True)]
    groups += svc_groups("payment")
    groups += [grp("checkout-service-1", "Service", NS, r"checkout\b"),
               grp("frontend-service-1", "Service", NS, r"frontend\b"),
               grp("flagd-pod-1", "Pod", NS, r"^flagd-[a-z0-9]+-[a-z0-9]+$")]
    gt = mk_gt(groups, [["payment-service-1", "payment-pod-1", "payment-deployment-1"]],
               [("flagd-config-1", "flagd-pod-1", "paymentFailure defaultVariant set to 50%", "flagd serves paymentFailure=0.5"),
                ("flagd-pod-1", "payment-pod-1", "payment evaluates paymentFailure", "half of Charge calls fail with Invalid token"),
                ("payment-pod-1", "payment-service-1", "Charge errors", "payment error rate above threshold"),
                ("payment-service-1", "checkout-service-1", "Charge fails", "checkout error rate above threshold"),
                ("checkout-service-1", "frontend-service-1", "PlaceOrder fails", "frontend error rate above threshold")],
               [{"category": "Change", "condition": "paymentFailure flag enabled at 50%",
                 "entity": {"group_id": "flagd-config-1", "kind": "ConfigMap", "name": "flagd-config"},
                 "fault_mechanism": "custom(flagd)"}],
               [("checkout-service-1", "HighRequestErrorRate", "payment failures"),
                ("frontend-service-1", "HighRequestErrorRate", "checkout failures"),
                ("payment-service-1", "RequestErrorRate", "flagd paymentFailure")],
               [("disable-flag", ["kubectl -n otel-demo edit configmap flagd-config (paymentFailure defaultVariant: off)"])])
    finish(w, out, gt, wrapped=True)


# ======================================================================================
# 5  catalogue: NetworkPolicy on currency that forgets the frontend
# ======================================================================================
@scenario
def s5(out):
    t0 = T("2026-11-14 11:02:45")
    w = World(5, t0, {"alert_env": "am_webhook", "events_api": "events.k8s.io/v1", "tsv": "native",
                      "managed_fields": True, "alert_every": 180, "alert_indent": None}, 505)
    w.baseline_objects()
    noise_common(w, kinds=("probe", "hpa"))
    npname = "currency-ingress-allowlist"
    np_ = {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
           "metadata": w.meta("NetworkPolicy", npname, NS, t0, {"team": "payments-platform"},
                              {"security.example.com/ticket": "SEC-2291"}, manager="argocd-controller", mf_op="Apply"),
           "spec": {"podSelector": {"matchLabels": {"app.kubernetes.io/component": "currency"}},
                    "policyTypes": ["Ingress"],
                    "ingress": [{"from": [{"podSelector": {"matchLabels": {"app.kubernetes.io/component": "checkout"}}}],
                                 "ports": [{"protocol": "TCP", "port": 8080}]}]}}
    w.put(t0, np_)
    scrape = {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
              "metadata": w.meta("NetworkPolicy", "allow-prometheus-scrape", NS, t0 - 30 * 86400),
              "spec": {"podSelector": {}, "policyTypes": ["Ingress"],
                       "ingress": [{"from": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "prometheus"}}}],
                                    "ports": [{"protocol": "TCP", "port": 9464}]}]}}
    w.put(w.start - 1, scrape)
    sc2 = json.loads(json.dumps(scrape))
    sc2["spec"]["ingress"][0]["ports"].append({"protocol": "TCP", "port": 8888})
    w.put(t0 - 140, sc2)

    def hook(w, t, caller, callee, span, tno):
        if callee == "currency" and caller == "frontend" and t >= t0 + 2:
            return {"refused": "4 DEADLINE_EXCEEDED: Deadline exceeded after 4.998s", "client_ms": 5000 + w.rnd.random() * 3}
        return None
    w.hooks.append(hook)
    gen_traffic(w, per_min=7, flows=[("products", 4), ("product", 4), ("reco", 3), ("ads", 3), ("cart", 2),
                                     ("currency", 8), ("shipping", 2), ("checkout", 2)])
    for (t, tr, sp, par, name, kind, svc, ra, at, dur, status, msg) in list(w.spans):
        if svc == "frontend" and kind == "Client" and status == "Error":
            w.log(t + 5, "frontend", "ERROR", jdump({"level": 50, "time": int(t * 1000 + 5000),
                                                     "msg": "Error: 4 DEADLINE_EXCEEDED: Deadline exceeded after 4.998s",
                                                     "route": "/api/currency", "code": 4}), trace_id=tr, span_id=sp)
    # an unrelated restart: kafka broker liveness flap 14 minutes before
    kp = w.pod_of("kafka")
    w.event(t0 - 860, "Pod", kp, "Unhealthy", "Liveness probe failed: dial tcp 10.0.58.12:9092: i/o timeout", "Warning", host=w.pod_node[kp])
    w.event(t0 - 830, "Pod", kp, "Killing", "Container kafka failed liveness probe, will be restarted", "Normal", host=w.pod_node[kp])
    w.event(t0 - 800, "Pod", kp, "Started", "Started container kafka", host=w.pod_node[kp])
    w.log(t0 - 790, "accounting", "Warning", "Kafka consumer group rebalancing: partitions revoked [orders-0]")
    w.log(t0 - 760, "accounting", "Information", "Kafka consumer group rebalanced: partitions assigned [orders-0]")
    w.alert("HighRequestErrorRate", t0 + 180, {"service_name": "frontend", "namespace": NS},
            "frontend error rate above 5%", value="0.27", severity="critical")
    w.alert("HighRequestLatency", t0 + 180, {"service_name": "frontend-proxy", "namespace": NS},
            "frontend-proxy p95 latency above 1s", value="5.02")
    w.alert("HighRequestLatency", t0 + 240, {"service_name": "frontend", "namespace": NS},
            "frontend p95 latency above 1s", value="5.0")
    w.alert("KafkaBrokerRestarted", t0 - 780, {"namespace": NS, "service_name": "kafka"},
            "kafka broker restarted", severity="info", t_resolved=t0 - 180)
    derive_service_metrics(w)
    all_pod_metrics(w, {kp: {"restarts_at": [t0 - 830]}})
    groups = [grp("networkpolicy-1", "NetworkPolicy", NS, rf"^{npname}$", name=npname, rc=True)]
    groups += svc_groups("currency")
    groups += [grp("frontend-service-1", "Service", NS, r"frontend\b"),
               grp("frontend-pod-1", "Pod", NS, r"^frontend-[a-z0-9]{8,10}-[a-z0-9]{5}$"),
               grp("frontend-proxy-service-1", "Service", NS, r"frontend-proxy\b")]
    gt = mk_gt(groups, [["currency-service-1", "currency-pod-1", "currency-deployment-1"], ["frontend-service-1", "frontend-pod-1"]],
               [("networkpolicy-1", "currency-pod-1", "NetworkPolicy admits only checkout pods to currency:8080", "connections from frontend pods dropped"),
                ("currency-pod-1", "frontend-service-1", "frontend currency calls time out", "frontend errors and 5s latency"),
                ("frontend-service-1", "frontend-proxy-service-1", "frontend slow/failing", "frontend-proxy latency above threshold")],
               [{"category": "Change", "condition": "NetworkPolicy created without frontend in the allow list",
                 "entity": {"group_id": "networkpolicy-1", "kind": "NetworkPolicy", "name": npname},
                 "fault_mechanism": "misconfigured-network-policy"}],
               [("frontend-service-1", "HighRequestErrorRate", "currency unreachable"),
                ("frontend-proxy-service-1", "HighRequestLatency", "5s timeouts"),
                ("frontend-service-1", "HighRequestLatency", "5s timeouts")],
               [("fix-policy", [f"add frontend podSelector to {npname} ingress.from"])])
    finish(w, out, gt, wrapped=False)


# ======================================================================================
# 6  catalogue: Service selector renamed to the architecture-doc name
# ======================================================================================
@scenario
def s6(out):
    t0 = T("2026-11-16 08:33:20")
    w = World(6, t0, {"alert_env": "prom", "events_api": "v1", "tsv": "csv", "managed_fields": True,
                      "tags_json": False, "metric_extra_cols": False}, 606)
    w.baseline_objects()
    noise_common(w)
    created = w.start - 6 * 86400 - 3 * 3600
    svc2 = w.service_obj("recommendation", created, selector={"opentelemetry.io/name": "recommendation-service"})
    svc2["metadata"]["labels"]["app.kubernetes.io/name"] = "recommendation-service"
    w.put(t0, svc2)
    ep_ok = {"apiVersion": "v1", "kind": "Endpoints",
             "metadata": w.meta("Endpoints", "recommendation", NS, created),
             "subsets": [{"addresses": [{"ip": "10.0.47.201", "nodeName": w.pod_node[w.pod_of("recommendation")],
                                         "targetRef": {"kind": "Pod", "name": w.pod_of("recommendation"), "namespace": NS}}],
                          "ports": [{"name": "tcp-service", "port": 8080, "protocol": "TCP"}]}]}
    w.put(w.start - 1, ep_ok)
    ep_bad = {"apiVersion": "v1", "kind": "Endpoints", "metadata": w.meta("Endpoints", "recommendation", NS, created)}
    w.put(t0 + 1, ep_bad)
    # harmless: recommendation itself was rolled 25 minutes earlier (new cache size env)
    w.put(t0 - 1500, w.deployment_obj("recommendation", created, gen=2,
                                      extra_env=[{"name": "RECOMMENDATION_CACHE_SIZE", "value": "256"}]))
    old, newp = replace_pod(w, "recommendation", t0 - 1490, 2)
    w.event(t0 - 1489, "Pod", newp, "Pulled", "Container image 'ghcr.io/open-telemetry/demo:2.0.2-recommendation' already present on machine", host=w.pod_node[newp])
    w.event(t0 - 1488, "Pod", newp, "Started", "Started container recommendation", host=w.pod_node[newp])
    w.event(t0 - 1470, "Pod", old, "Killing", "Stopping container recommendation", host=w.pod_node[old])
    ep_ok2 = json.loads(json.dumps(ep_ok))
    ep_ok2["subsets"][0]["addresses"][0]["targetRef"]["name"] = newp
    ep_ok2["subsets"][0]["addresses"][0]["ip"] = "10.0.49.18"
    w.put(t0 - 1480, ep_ok2)

    def hook(w, t, caller, callee, span, tno):
        if callee == "recommendation" and t >= t0 + 1:
            return {"refused": "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 172.20.196.14:8080 (2026-11-16T08:33:21.9Z)"}
        return None
    w.hooks.append(hook)
    gen_traffic(w)
    for i in range(30):
        tt = t0 + 15 + i * 37
        w.log(tt, "frontend", "ERROR", "Error: 14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 172.20.196.14:8080")
    w.log(t0 - 1480, "recommendation", "INFO", "Recommendation service started on port 8080, cache size 256", pod=newp)
    second_ns_trouble(w, "team-reports", t0, app="weekly-digest")
    w.alert("HighRequestErrorRate", t0 + 120, {"service_name": "frontend", "namespace": NS},
            "frontend error rate above 5%", value="0.16", severity="critical")
    w.alert("NoRequestsReceived", t0 + 300, {"service_name": "recommendation", "namespace": NS},
            "recommendation receives no requests", value="0")
    w.alert("KubePodCrashLooping", t0 - 4000, {"namespace": "team-reports", "pod": "weekly-digest", "container": "weekly-digest"},
            "Pod is crash looping.")
    derive_service_metrics(w)
    all_pod_metrics(w, {old: {"t_to": t0 - 1470}, newp: {"t_from": t0 - 1488,
                                                        "cpu_fn": lambda t: 0.002 if t > t0 else 0.05}})
    groups = [grp("recommendation-service-1", "Service", NS, r"^recommendation$", name="recommendation", rc=True),
              grp("recommendation-pod-1", "Pod", NS, r"^recommendation-[a-z0-9]+-[a-z0-9]+$"),
              grp("recommendation-deployment-1", "Deployment", NS, r"^recommendation$"),
              grp("frontend-service-1", "Service", NS, r"frontend\b"),
              grp("frontend-proxy-service-1", "Service", NS, r"frontend-proxy\b")]
    gt = mk_gt(groups, [["recommendation-pod-1", "recommendation-deployment-1"]],
               [("recommendation-service-1", "frontend-service-1", "Service selector matches no pod; no endpoints", "frontend recommendation calls refused, error rate above threshold"),
                ("recommendation-service-1", "recommendation-pod-1", "no traffic routed to pod", "recommendation receives no requests"),
                ("frontend-service-1", "frontend-proxy-service-1", "frontend errors", "frontend-proxy errors")],
               [{"category": "Change", "condition": "Service selector changed to opentelemetry.io/name=recommendation-service",
                 "entity": {"group_id": "recommendation-service-1", "kind": "Service", "name": "recommendation"},
                 "fault_mechanism": "misconfigured-service-selector"}],
               [("frontend-service-1", "HighRequestErrorRate", "no endpoints"),
                ("recommendation-service-1", "NoRequestsReceived", "no endpoints")],
               [("fix-selector", ["kubectl -n otel-demo patch service recommendation (selector opentelemetry.io/name=recommendation)"])])
    finish(w, out, gt, wrapped=True)


# ======================================================================================
# 7  catalogue: memory limit right-sized too low on email -> OOMKilled, CrashLoopBackOff
# ======================================================================================
@scenario
def s7(out):
    t0 = T("2026-11-18 13:47:00")
    w = World(7, t0, {"alert_env": "prom", "events_api": "events.k8s.io/v1", "tsv": "csv", "managed_fields": False,
                      "metric_epoch": True, "orphan_spans": True, "after": 30}, 707)
    w.baseline_objects()
    noise_common(w, kinds=("lg", "hpa"))
    created = w.start - 6 * 86400 - 3 * 3600
    d2 = w.deployment_obj("email", created, mem_limit="60Mi", gen=2)
    d2["metadata"]["annotations"]["kubernetes.io/change-cause"] = "right-size memory per VPA recommendation (FINOPS-118)"
    w.put(t0, d2)
    q2 = w.deployment_obj("quote", created, mem_limit="32Mi", gen=2)
    q2["metadata"]["annotations"]["kubernetes.io/change-cause"] = "right-size memory per VPA recommendation (FINOPS-118)"
    w.put(t0 + 4, q2)
    oldq, newq = replace_pod(w, "quote", t0 + 20, 2, mem_limit="32Mi")
    old, newp = replace_pod(w, "email", t0 + 25, 2, mem_limit="60Mi")
    w.event(t0 + 1, "Deployment", "email", "ScalingReplicaSet", f"Scaled up replica set {newp.rsplit('-', 1)[0]} from 0 to 1", source="deployment-controller")
    w.event(t0 + 26, "Deployment", "email", "ScalingReplicaSet", f"Scaled down replica set {old.rsplit('-', 1)[0]} from 1 to 0", source="deployment-controller")
    w.event(t0 + 5, "Deployment", "quote", "ScalingReplicaSet", f"Scaled up replica set {newq.rsplit('-', 1)[0]} from 0 to 1", source="deployment-controller")
    ooms = [t0 + 560, t0 + 890, t0 + 1150, t0 + 1420, t0 + 1700]
    node = w.pod_node[newp]
    for k, to in enumerate(ooms):
        last = {"exitCode": 137, "reason": "OOMKilled", "startedAt": iso_z((ooms[k - 1] + 20) if k else t0 + 27),
                "finishedAt": iso_z(to)}
        w.put(to + 1, w.pod_obj("email", newp, t0 + 25, node, ready=False, restarts=k + 1, mem_limit="60Mi",
                                waiting={"reason": "CrashLoopBackOff", "message": f"back-off {min(10 * 2 ** k, 300)}s restarting failed container=email pod={newp}_{NS}({uid(newp)})"},
                                terminated_last=last))
        w.put(to + 15 + min(10 * 2 ** k, 300) * 0 + 10, w.pod_obj("email", newp, t0 + 25, node, ready=True, restarts=k + 1, mem_limit="60Mi",
                                                                    terminated_last=last))
        w.log(to - 2, "email", "ERROR", "[2026-11-18 ..] ERROR -- : Errno::ENOMEM: Cannot allocate memory - fork(2) while rendering confirmation.erb".replace("[2026-11-18 ..] ", ""), pod=newp)
    w.repeating_event(ooms[1] + 2, w.end, 150, "Pod", newp, "BackOff", f"Back-off restarting failed container email in pod {newp}_{NS}({uid(newp)})", host=node)
    for to in ooms:
        w.event(to + 12, "Pod", newp, "Pulled", "Container image 'ghcr.io/open-telemetry/demo:2.0.2-email' already present on machine", host=node)
        w.event(to + 13, "Pod", newp, "Started", "Started container email", host=node)

    def down(t):
        return any(to <= t < to + 25 for to in ooms)

    def hook(w, t, caller, callee, span, tno):
        if callee == "email" and t >= t0 + 25 and down(t):
            return {"refused": "Failed to open TCP connection to email:8080 (Connection refused - connect(2) for 172.20.64.95:8080)"}
        if callee == "email" and t >= t0 + 25 and any(to - 60 <= t < to for to in ooms):
            return {"delay": 900 + w.rnd.random() * 1500, "error": "Net::ReadTimeout with #<TCPSocket:(closed)>"}
        return None
    w.hooks.append(hook)
    gen_traffic(w, per_min=8, flows=FLOW_WEIGHTS[:-1] + [("checkout", 6)])
    for (t, tr, sp, par, name, kind, svc, ra, at, dur, status, msg) in list(w.spans):
        if svc == "checkout" and kind == "Client" and name.startswith("POST /send") and status == "Error":
            w.log(t + dur / 1e9, "checkout", "WARN", f"failed to send order confirmation to email: {msg}", trace_id=tr, span_id=sp)
    # unrelated: accounting liveness restart
    ap = w.pod_of("accounting")
    w.event(t0 - 700, "Pod", ap, "Unhealthy", "Liveness probe failed: command timed out", "Warning", host=w.pod_node[ap])
    w.event(t0 - 680, "Pod", ap, "Killing", "Container accounting failed liveness probe, will be restarted", host=w.pod_node[ap])
    w.alert("KubePodCrashLooping", ooms[1] + 300, {"namespace": NS, "pod": newp, "container": "email"},
            f"Pod {NS}/{newp} (email) is in waiting state (reason: CrashLoopBackOff).", value="3")
    w.alert("HighRequestErrorRate", ooms[1] + 60, {"service_name": "checkout", "namespace": NS},
            "checkout error rate above 5%", value="0.09", severity="critical")
    w.alert("KubeContainerOOMKilled", ooms[0] + 30, {"namespace": NS, "pod": newp, "container": "email"},
            "Container email in pod was OOMKilled", severity="warning")
    w.alert("KubeMemoryOvercommit", w.start - 7200, {"namespace": "kube-system"}, "Cluster has overcommitted memory resource requests.",
            severity="warning")

    def mem_email(t):
        k = sum(1 for to in ooms if to <= t)
        start = (ooms[k - 1] + 15) if k else t0 + 27
        return min(59.5, 38 + (t - start) / 18.0)
    derive_service_metrics(w)
    all_pod_metrics(w, {old: {"t_to": t0 + 26}, oldq: {"t_to": t0 + 21}, newq: {"t_from": t0 + 22},
                        newp: {"t_from": t0 + 27, "mem_fn": mem_email, "restarts_at": ooms},
                        ap: {"restarts_at": [t0 - 680]}})
    groups = [grp("email-deployment-1", "Deployment", NS, r"^email$", name="email", rc=True)]
    groups += [grp("email-pod-1", "Pod", NS, r"^email-[a-z0-9]+-[a-z0-9]+$"),
               grp("email-service-1", "Service", NS, r"email\b"),
               grp("checkout-service-1", "Service", NS, r"checkout\b"),
               grp("frontend-service-1", "Service", NS, r"frontend\b")]
    gt = mk_gt(groups, [["email-deployment-1", "email-pod-1", "email-service-1"]],
               [("email-deployment-1", "email-pod-1", "memory limit lowered from 100Mi to 60Mi", "email container OOMKilled under load, CrashLoopBackOff"),
                ("email-pod-1", "email-service-1", "container restarting", "email connections refused / timed out"),
                ("email-service-1", "checkout-service-1", "order confirmation fails", "checkout error rate above threshold"),
                ("checkout-service-1", "frontend-service-1", "PlaceOrder errors", "frontend checkout errors")],
               [{"category": "Change", "condition": "email memory limit lowered to 60Mi",
                 "entity": {"group_id": "email-deployment-1", "kind": "Deployment", "name": "email"},
                 "fault_mechanism": "insufficient-memory-limit"}],
               [("email-pod-1", "KubePodCrashLooping", "OOMKilled restarts"),
                ("email-pod-1", "KubeContainerOOMKilled", "OOMKilled"),
                ("checkout-service-1", "HighRequestErrorRate", "email failures")],
               [("raise-limit", ["kubectl -n otel-demo set resources deployment/email --limits=memory=100Mi"])])
    finish(w, out, gt, wrapped=False)



# ======================================================================================
# 8  novel: HPA maxReplicas lowered (GitOps) just before the daily peak
# ======================================================================================
@scenario
def s8(out):
    t0 = T("2026-11-19 17:30:00")
    w = World(8, t0, {"alert_env": "am_v2", "events_api": "v1", "tsv": "native", "managed_fields": True,
                      "alert_every": 240, "before": 35, "after": 25}, 808)
    w.baseline_objects(replicas={"frontend": 2})
    noise_common(w, kinds=("probe",))
    created = w.start - 6 * 86400 - 3 * 3600
    fres = {"limits": {"cpu": "500m", "memory": "250Mi"}, "requests": {"cpu": "250m", "memory": "200Mi"}}
    w.put(w.start - 1, w.deployment_obj("frontend", created, replicas=2, res=fres))

    def hpa(name, target, mx, cur, desired, util, limited=False, t=None, ann=None):
        o = {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
             "metadata": w.meta("HorizontalPodAutoscaler", name, NS, created,
                                {"app.kubernetes.io/instance": "otel-demo", "argocd.argoproj.io/instance": "otel-demo-prod"},
                                ann, manager="argocd-controller", mf_op="Apply"),
             "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": target},
                      "minReplicas": 2, "maxReplicas": mx,
                      "metrics": [{"type": "Resource", "resource": {"name": "cpu",
                                                                    "target": {"type": "Utilization", "averageUtilization": 70}}}],
                      "behavior": {"scaleDown": {"stabilizationWindowSeconds": 300}}},
             "status": {"currentReplicas": cur, "desiredReplicas": desired,
                        "currentMetrics": [{"type": "Resource", "resource": {"name": "cpu",
                                                                             "current": {"averageUtilization": util, "averageValue": f"{int(util * 2.5)}m"}}}],
                        "conditions": [{"type": "AbleToScale", "status": "True", "reason": "ReadyForNewScale",
                                        "message": "recommended size matches current size", "lastTransitionTime": iso_z(created)},
                                       {"type": "ScalingActive", "status": "True", "reason": "ValidMetricFound",
                                        "message": "the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)",
                                        "lastTransitionTime": iso_z(created)},
                                       {"type": "ScalingLimited", "status": "True" if limited else "False",
                                        "reason": "TooManyReplicas" if limited else "DesiredWithinRange",
                                        "message": "the desired replica count is more than the maximum replica count" if limited else "the desired count is within the acceptable range",
                                        "lastTransitionTime": iso_z(t or created)}]}}
        return o
    w.put(w.start - 1, hpa("frontend", "frontend", 8, 2, 2, 41))
    w.put(w.start - 1, hpa("product-catalog", "product-catalog", 4, 2, 2, 22))
    ann = {"argocd.argoproj.io/tracking-id": "otel-demo-prod:autoscaling/HorizontalPodAutoscaler:otel-demo/frontend",
           "git.example.com/commit": "a41c9e7 chore(capacity): cap frontend replicas to fit reserved node budget"}
    w.put(t0 - 660, hpa("frontend", "frontend", 2, 2, 2, 44, ann=ann))
    for k, (tt, util) in enumerate([(t0 + 180, 96), (t0 + 420, 148), (t0 + 660, 181), (t0 + 900, 203), (t0 + 1200, 214)]):
        w.put(tt, hpa("frontend", "frontend", 2, 2, 2, util, limited=util > 80, t=t0 + 180, ann=ann))
    w.put(t0 + 300, hpa("product-catalog", "product-catalog", 4, 2, 3, 78))
    w.put(t0 + 330, hpa("product-catalog", "product-catalog", 4, 3, 3, 55))
    w.event(t0 + 300, "HorizontalPodAutoscaler", "product-catalog", "SuccessfulRescale",
            "New size: 3; reason: cpu resource utilization (percentage of request) above target", source="horizontal-pod-autoscaler")
    w.put(t0 + 302, w.deployment_obj("product-catalog", created, replicas=3))
    pc3 = w.pod_name("product-catalog", 1, 2)
    w.pod_node[pc3] = NODES[2]
    w.put(t0 + 305, w.pod_obj("product-catalog", pc3, t0 + 303, NODES[2]))
    w.pods["product-catalog"].append(pc3)
    w.born[pc3] = t0 + 305
    for fp in w.pods["frontend"]:
        w.repeating_event(t0 + 700, w.end, 170, "Pod", fp, "Unhealthy",
                          "Readiness probe failed: Get 'http://10.0.44.21:8080/': context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
                          host=w.pod_node[fp])

    def rate(t):
        if t < t0:
            return 6
        return min(15, 6 + int((t - t0) / 120))

    def hook(w, t, caller, callee, span, tno):
        if callee == "frontend" and t >= t0 + 120:
            x = min(1.0, (t - t0 - 120) / 900.0)
            r = {"delay": 60 + x * 1600 * (0.6 + w.rnd.random() * 0.8)}
            if x > 0.6 and tno % 9 == 0:
                r["error"] = "upstream request timeout"
            return r
        return None
    w.hooks.append(hook)
    gen_traffic(w, per_min=rate)
    for i in range(int((w.end - w.start) // 120)):
        tt = w.start + 60 + i * 120
        users = 40 if tt < t0 else min(160, 40 + int((tt - t0) / 60) * 8)
        w.log(tt, "load-generator", "INFO", f"DailyPeakShape tick: target users {users}, spawn rate 4/s")
    for fp in w.pods["frontend"]:
        for i in range(10):
            w.log(t0 + 400 + i * 90, "frontend", "WARN", jdump({"level": 40, "msg": "event loop lag high", "lagMs": 380 + i * 41}), pod=fp)
    w.alert("CPUThrottlingHigh", t0 + 420, {"namespace": NS, "pod": w.pods["frontend"][0], "container": "frontend"},
            f"{int(71)}% throttling of CPU in namespace {NS} for container frontend in pod {w.pods['frontend'][0]}.", severity="info", value="0.71")
    w.alert("CPUThrottlingHigh", t0 + 450, {"namespace": NS, "pod": w.pods["frontend"][1], "container": "frontend"},
            "throttling of CPU for container frontend", severity="info", value="0.68")
    w.alert("HighRequestLatency", t0 + 540, {"service_name": "frontend-proxy", "namespace": NS},
            "frontend-proxy p95 latency above 1s", value="1.71")
    w.alert("HighRequestLatency", t0 + 600, {"service_name": "frontend", "namespace": NS},
            "frontend p95 latency above 1s", value="1.62")
    w.alert("HighRequestErrorRate", t0 + 1020, {"service_name": "frontend-proxy", "namespace": NS},
            "frontend-proxy error rate above 5%", value="0.09", severity="critical")
    w.alert("KubeHpaMaxedOut", t0 + 1080, {"namespace": NS, "horizontalpodautoscaler": "frontend", "job": "kube-state-metrics"},
            "HPA is running at max replicas", severity="warning")
    derive_service_metrics(w)

    def fe_cpu(t):
        if t < t0:
            return 0.1 + w.rnd.random() * 0.03
        return min(0.5, 0.1 + (t - t0) / 1800.0)
    all_pod_metrics(w, {fp: {"cpu_fn": fe_cpu} for fp in w.pods["frontend"]} | {pc3: {"t_from": t0 + 305}})
    groups = [grp("frontend-hpa-1", "HorizontalPodAutoscaler", NS, r"^frontend$", name="frontend", rc=True),
              grp("frontend-deployment-1", "Deployment", NS, r"^frontend$"),
              grp("frontend-pod-1", "Pod", NS, r"^frontend-[a-z0-9]{8,10}-[a-z0-9]{5}$"),
              grp("frontend-service-1", "Service", NS, r"^frontend$"),
              grp("frontend-proxy-service-1", "Service", NS, r"frontend-proxy\b")]
    gt = mk_gt(groups, [["frontend-deployment-1", "frontend-pod-1", "frontend-service-1"]],
               [("frontend-hpa-1", "frontend-deployment-1", "maxReplicas lowered from 8 to 2 shortly before the daily peak", "frontend cannot scale out (ScalingLimited TooManyReplicas)"),
                ("frontend-deployment-1", "frontend-pod-1", "two pods take peak traffic", "CPU throttled at the 500m limit"),
                ("frontend-pod-1", "frontend-service-1", "saturated frontend", "frontend latency above threshold"),
                ("frontend-service-1", "frontend-proxy-service-1", "slow frontend", "frontend-proxy latency and timeouts")],
               [{"category": "Change", "condition": "HPA maxReplicas lowered to minReplicas",
                 "entity": {"group_id": "frontend-hpa-1", "kind": "HorizontalPodAutoscaler", "name": "frontend"},
                 "fault_mechanism": "hpa-max-replicas-too-low"}],
               [("frontend-pod-1", "CPUThrottlingHigh", "saturated"),
                ("frontend-proxy-service-1", "HighRequestLatency", "slow frontend"),
                ("frontend-service-1", "HighRequestLatency", "saturated"),
                ("frontend-proxy-service-1", "HighRequestErrorRate", "timeouts"),
                ("frontend-hpa-1", "KubeHpaMaxedOut", "capped")],
               [("restore-max", ["kubectl -n otel-demo patch hpa frontend -p '{spec: {maxReplicas: 8}}' (and revert commit a41c9e7)"])])
    finish(w, out, gt, wrapped=True)


def mi(x: str) -> int:
    return int(x[:-2]) * (1024 if x.endswith("Gi") else 1)


# ======================================================================================
# 9  novel: ResourceQuota tightened below usage; a routine node drain makes it bite
# ======================================================================================
@scenario
def s9(out):
    t0 = T("2026-11-21 02:10:00")
    w = World(9, t0, {"alert_env": "prom", "events_api": "events.k8s.io/v1", "tsv": "csv", "managed_fields": False,
                      "metric_epoch": True, "before": 40, "after": 25}, 909)
    w.baseline_objects()
    noise_common(w, kinds=("lg", "hpa"))
    drained = NODES[1]
    evict = ["recommendation", "ad", "checkout", "product-reviews"]
    created = w.start - 6 * 86400 - 3 * 3600
    for dep in evict:
        p_ = w.pod_of(dep)
        w.pod_node[p_] = drained
        w.put(w.start - 1, w.pod_obj(dep, p_, created + 30, drained))
    used0 = sum(mi(APPS[d][4]) for d in w.pods for _ in w.pods[d])
    hard_old = "8Gi"
    hard_new = f"{used0 - 110}Mi"
    qname = "otel-demo-compute"

    def quota(hard, used, t_ann=None):
        o = {"apiVersion": "v1", "kind": "ResourceQuota",
             "metadata": w.meta("ResourceQuota", qname, NS, created - 40 * 86400, {"team": "shop"},
                                {"quota-rightsizer.example.com/last-run": iso_z(t_ann)} if t_ann else None),
             "spec": {"hard": {"limits.memory": hard, "pods": "40", "requests.cpu": "12"}},
             "status": {"hard": {"limits.memory": hard, "pods": "40", "requests.cpu": "12"},
                        "used": {"limits.memory": f"{used}Mi", "pods": str(len(w.pods)), "requests.cpu": "1150m"}}}
        return o
    w.put(w.start - 1, quota(hard_old, used0))
    tq = t0 - 1560
    w.put(tq, quota(hard_new, used0, tq))
    # node drain for kernel patching
    w.event(t0, "Node", drained, "NodeNotSchedulable", f"Node {drained} status is now: NodeNotSchedulable", ns="",
            source="kubelet", host=drained)
    used = used0
    for k, dep in enumerate(evict):
        old = w.pod_of(dep)
        te = t0 + 20 + k * 3
        w.event(te, "Pod", old, "Killing", f"Stopping container {dep}", host=drained)
        w.delete(te + 25, "Pod", NS, old)
        w.removed[old] = (dep, te + 25)
        used -= mi(APPS[dep][4])
    for k, dep in enumerate(evict[:2]):
        node = NODES[0] if k == 0 else NODES[2]
        w.removed.pop(w.pod_of(dep), None)
        old, newp = replace_pod(w, dep, t0 + 50 + k, 1, node=node, idx=0, same_rs=True)
        w.removed[old] = (dep, t0 + 45)
        w.pods[dep][0] = newp
        used += mi(APPS[dep][4])
        rsn = newp.rsplit("-", 1)[0]
        w.event(t0 + 51 + k, "ReplicaSet", rsn, "SuccessfulCreate", f"Created pod: {newp}", source="replicaset-controller")
        w.event(t0 + 52 + k, "Pod", newp, "Scheduled", f"Successfully assigned {NS}/{newp} to {node}", source="default-scheduler")
    fail_deps = evict[2:]
    for dep in fail_deps:
        rsn = w.pod_of(dep).rsplit("-", 1)[0]
        req = mi(APPS[dep][4])
        w.repeating_event(t0 + 48, w.end, 120, "ReplicaSet", rsn, "FailedCreate",
                          f"Error creating: pods \"{rsn}-{h(dep, 5)}\" is forbidden: exceeded quota: {qname}, requested: limits.memory={req}Mi, used: limits.memory={used}Mi, limited: limits.memory={hard_new}".replace('"', "'"),
                          source="replicaset-controller")
        d = w.deployment_obj(dep, created)
        d["status"].update({"readyReplicas": 0, "availableReplicas": 0, "unavailableReplicas": 1,
                            "conditions": [{"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable",
                                            "message": "Deployment does not have minimum availability.", "lastTransitionTime": iso_z(t0 + 45)},
                                           {"type": "ReplicaFailure", "status": "True", "reason": "FailedCreate",
                                            "message": f"pods \"{rsn}-{h(dep, 5)}\" is forbidden: exceeded quota: {qname}".replace('"', "'"),
                                            "lastTransitionTime": iso_z(t0 + 48)}]})
        w.put(t0 + 49, d)
    w.put(t0 + 60, quota(hard_new, used, tq))
    gone = {"checkout", "product-reviews"}
    for dep in gone:
        w.pods[dep] = []

    def hook(w, t, caller, callee, span, tno):
        if callee in gone and t >= t0 + 45:
            return {"refused": f"14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 172.20.{len(callee) * 13 % 250}.{sum(map(ord, callee)) % 250}:8080"}
        return None
    w.hooks.append(hook)
    gen_traffic(w)
    for i in range(20):
        tt = t0 + 70 + i * 61
        w.log(tt, "frontend", "ERROR", jdump({"level": 50, "msg": "Error: 14 UNAVAILABLE: No connection established", "route": "/api/checkout" if i % 2 else "/api/products/{productId}"}))
    w.log(tq + 2, "quota-rightsizer", "INFO", f"namespace {NS}: set limits.memory {hard_old} -> {hard_new} (p95 usage + 0% headroom)", pod="quota-rightsizer-28611450-x7k2p", ns="platform-tools")
    second_ns_trouble(w, "team-reports", t0, app="nightly-report")
    w.alert("KubeQuotaExceeded", tq + 900, {"namespace": NS, "resource": "limits.memory", "resourcequota": qname, "job": "kube-state-metrics"},
            f"Namespace {NS} is using 103% of its limits.memory quota.", severity="warning", value="1.03")
    w.alert("HighRequestErrorRate", t0 + 180, {"service_name": "frontend", "namespace": NS},
            "frontend error rate above 5%", value="0.19", severity="critical")
    w.alert("NoRequestsReceived", t0 + 420, {"service_name": "payment", "namespace": NS}, "payment receives no requests", value="0")
    w.alert("NoRequestsReceived", t0 + 420, {"service_name": "email", "namespace": NS}, "email receives no requests", value="0")
    w.alert("KubeDeploymentReplicasMismatch", t0 + 900, {"namespace": NS, "deployment": "checkout"},
            "Deployment has not matched the expected number of replicas.")
    w.alert("KubeDeploymentReplicasMismatch", t0 + 900, {"namespace": NS, "deployment": "product-reviews"},
            "Deployment has not matched the expected number of replicas.")
    w.alert("KubeNodeUnschedulable", t0 + 60, {"node": drained, "job": "kube-state-metrics"}, f"Node {drained} is unschedulable", severity="info")
    derive_service_metrics(w)
    all_pod_metrics(w)
    groups = [grp("resourcequota-1", "ResourceQuota", NS, rf"^{qname}$", name=qname, rc=True)]
    groups += svc_groups("checkout") + svc_groups("product-reviews")
    groups += [grp("frontend-service-1", "Service", NS, r"^frontend$"),
               grp("payment-service-1", "Service", NS, r"^payment$"),
               grp("email-service-1", "Service", NS, r"^email$")]
    gt = mk_gt(groups, [["checkout-service-1", "checkout-pod-1", "checkout-deployment-1"],
                        ["product-reviews-service-1", "product-reviews-pod-1", "product-reviews-deployment-1"]],
               [("resourcequota-1", "checkout-pod-1", f"limits.memory quota lowered to {hard_new}, below current usage; drained pods cannot be recreated", "checkout replacement pod forbidden (FailedCreate)"),
                ("resourcequota-1", "product-reviews-pod-1", "same quota", "product-reviews replacement pod forbidden"),
                ("checkout-pod-1", "checkout-service-1", "no pod", "checkout unavailable"),
                ("product-reviews-pod-1", "product-reviews-service-1", "no pod", "product-reviews unavailable"),
                ("checkout-service-1", "frontend-service-1", "PlaceOrder refused", "frontend error rate above threshold"),
                ("product-reviews-service-1", "frontend-service-1", "GetProductReviews refused", "frontend error rate above threshold"),
                ("checkout-service-1", "payment-service-1", "no orders", "payment receives no requests"),
                ("checkout-service-1", "email-service-1", "no orders", "email receives no requests")],
               [{"category": "Change", "condition": "ResourceQuota limits.memory lowered below usage",
                 "entity": {"group_id": "resourcequota-1", "kind": "ResourceQuota", "name": qname},
                 "fault_mechanism": "resource_quota_enforcement"}],
               [("resourcequota-1", "KubeQuotaExceeded", "quota below usage"),
                ("frontend-service-1", "HighRequestErrorRate", "checkout and reviews down"),
                ("payment-service-1", "NoRequestsReceived", "checkout down"),
                ("email-service-1", "NoRequestsReceived", "checkout down"),
                ("checkout-deployment-1", "KubeDeploymentReplicasMismatch", "FailedCreate"),
                ("product-reviews-deployment-1", "KubeDeploymentReplicasMismatch", "FailedCreate")],
               [("raise-quota", [f"kubectl -n {NS} patch resourcequota {qname} (limits.memory back to {hard_old})"])])
    finish(w, out, gt, wrapped=False)


# ======================================================================================
# 10 novel: ConfigMap key renamed; checkout silently stops publishing orders
# ======================================================================================
@scenario
def s10(out):
    t0 = T("2026-11-22 10:55:00")
    w = World(10, t0, {"alert_env": "prom", "events_api": "v1", "tsv": "csv", "managed_fields": True,
                       "orphan_spans": True, "after": 25}, 1010)
    w.baseline_objects()
    noise_common(w)
    created = w.start - 6 * 86400 - 3 * 3600
    cmname = "checkout-settings"
    data = {"CART_ADDR": "cart:8080", "CURRENCY_ADDR": "currency:8080", "EMAIL_ADDR": "http://email:8080",
            "PAYMENT_ADDR": "payment:8080", "PRODUCT_CATALOG_ADDR": "product-catalog:8080",
            "SHIPPING_ADDR": "shipping:8080", "KAFKA_ADDR": "kafka:9092", "GOMEMLIMIT": "16MiB"}
    cm = {"apiVersion": "v1", "kind": "ConfigMap",
          "metadata": w.meta("ConfigMap", cmname, NS, created, {"app.kubernetes.io/component": "checkout"},
                             {"reloader.stakater.com/match": "true"}),
          "data": dict(sorted(data.items()))}
    w.put(w.start - 1, cm)
    d2 = dict(data)
    d2.pop("KAFKA_ADDR")
    d2["KAFKA_BOOTSTRAP_SERVERS"] = "kafka:9092"
    cm2 = json.loads(json.dumps(cm))
    cm2["data"] = dict(sorted(d2.items()))
    cm2["metadata"]["annotations"]["config-sync.example.com/commit"] = "9f3c2e1 standardise kafka client settings across services"
    w.put(t0 - 45, cm2)
    dep = w.deployment_obj("checkout", created, gen=1)
    dep["spec"]["template"]["spec"]["containers"][0]["envFrom"] = [{"configMapRef": {"name": cmname}}]
    dep["metadata"]["annotations"]["reloader.stakater.com/auto"] = "true"
    w.put(w.start - 1, dep)
    dep2 = json.loads(json.dumps(dep))
    dep2["spec"]["template"]["metadata"]["annotations"] = {"reloader.stakater.com/last-reloaded-from": jdump({"type": "CONFIGMAP", "name": cmname, "namespace": NS, "hash": hexid("cm2", 40)})}
    dep2["metadata"]["generation"] = 2
    dep2["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = "2"
    w.put(t0, dep2)
    old, newp = replace_pod(w, "checkout", t0 + 3, 2)
    w.event(t0 + 1, "Deployment", "checkout", "ScalingReplicaSet", f"Scaled up replica set {newp.rsplit('-', 1)[0]} from 0 to 1", source="deployment-controller")
    w.event(t0 + 16, "Deployment", "checkout", "ScalingReplicaSet", f"Scaled down replica set {old.rsplit('-', 1)[0]} from 1 to 0", source="deployment-controller")
    w.event(t0 + 16, "Pod", old, "Killing", "Stopping container checkout", host=w.pod_node[old])
    w.event(t0 + 4, "Pod", newp, "Started", "Started container checkout", host=w.pod_node[newp])
    w.log(t0 + 6, "checkout", "INFO", jdump({"level": "info", "msg": "service config", "cart": "cart:8080", "currency": "currency:8080",
                                             "kafka": "", "payment": "payment:8080"}), pod=newp)
    w.log(t0 + 6.5, "checkout", "INFO", jdump({"level": "info", "msg": "checkout service started on port 8080"}), pod=newp)
    # unrelated kafka restart 18 min before, recovered
    kp = w.pod_of("kafka")
    w.event(t0 - 1100, "Pod", kp, "Unhealthy", "Liveness probe failed: dial tcp 10.0.58.12:9092: i/o timeout", "Warning", host=w.pod_node[kp])
    w.event(t0 - 1075, "Pod", kp, "Killing", "Container kafka failed liveness probe, will be restarted", host=w.pod_node[kp])
    w.event(t0 - 1050, "Pod", kp, "Started", "Started container kafka", host=w.pod_node[kp])
    w.log(t0 - 1040, "kafka", "INFO", "[KafkaServer id=1] started (kafka.server.KafkaServer)")
    w.log(t0 - 1030, "accounting", "Warning", "Kafka consumer group 'accounting': partitions revoked [orders-0]")
    w.log(t0 - 1010, "accounting", "Information", "Kafka consumer group 'accounting': partitions assigned [orders-0]")
    w.log(t0 - 1009, "fraud-detection", "INFO", "[Consumer clientId=consumer-fraud-detection-1, groupId=fraud-detection] Adding newly assigned partitions: orders-0")

    def hook(w, t, caller, callee, span, tno):
        if callee == "kafka" and caller == "checkout" and t >= t0 + 10:
            return {"skip": True}
        return None
    w.hooks.append(hook)
    gen_traffic(w, flows=FLOW_WEIGHTS[:-1] + [("checkout", 4)])
    for (t, tr, sp, par, name, kind, svc, ra, at, dur, status, msg) in list(w.spans):
        if svc == "accounting" and kind == "Consumer":
            w.log(t + 0.005, "accounting", "Information", f"Order details: order_id={uid(tr)[:18]} saved to database", trace_id=tr, span_id=sp)
        if svc == "fraud-detection" and kind == "Consumer":
            w.log(t + 0.004, "fraud-detection", "INFO", f"Consumed record with orderId: {uid(tr)[:18]}, and updated total count to: {int(t) % 9000}", trace_id=tr, span_id=sp)
    w.alert("NoDatabaseOperations", t0 + 600, {"service_name": "accounting", "namespace": NS},
            "accounting performs no database operations", value="0")
    w.alert("KafkaNoMessagesIn", t0 + 540, {"service_name": "kafka", "namespace": NS, "topic": "orders"},
            "No messages produced to topic orders for 8m", value="0")
    w.alert("NoRequestsReceived", t0 + 660, {"service_name": "fraud-detection", "namespace": NS},
            "fraud-detection receives no messages", value="0")
    w.alert("KafkaBrokerRestarted", t0 - 1040, {"service_name": "kafka", "namespace": NS}, "kafka broker restarted",
            severity="info", t_resolved=t0 - 440)
    derive_service_metrics(w)
    all_pod_metrics(w, {old: {"t_to": t0 + 16}, newp: {"t_from": t0 + 4}, kp: {"restarts_at": [t0 - 1075]}})
    groups = [grp("checkout-settings-1", "ConfigMap", NS, rf"^{cmname}$", name=cmname, rc=True)]
    groups += svc_groups("checkout")
    groups += [grp("kafka-service-1", "Service", NS, r"^kafka$"),
               grp("accounting-service-1", "Service", NS, r"^accounting$"),
               grp("fraud-detection-service-1", "Service", NS, r"^fraud-detection$")]
    gt = mk_gt(groups, [["checkout-service-1", "checkout-pod-1", "checkout-deployment-1"]],
               [("checkout-settings-1", "checkout-pod-1", "key KAFKA_ADDR renamed to KAFKA_BOOTSTRAP_SERVERS; reloader restarts checkout", "checkout starts with an empty Kafka address and skips publishing orders"),
                ("checkout-pod-1", "kafka-service-1", "no producer", "no messages on topic orders"),
                ("kafka-service-1", "accounting-service-1", "no order events", "accounting performs no database operations"),
                ("kafka-service-1", "fraud-detection-service-1", "no order events", "fraud-detection receives nothing")],
               [{"category": "Change", "condition": "ConfigMap key KAFKA_ADDR renamed",
                 "entity": {"group_id": "checkout-settings-1", "kind": "ConfigMap", "name": cmname},
                 "fault_mechanism": "config_key_renamed"}],
               [("accounting-service-1", "NoDatabaseOperations", "no orders published"),
                ("kafka-service-1", "KafkaNoMessagesIn", "checkout no longer produces"),
                ("fraud-detection-service-1", "NoRequestsReceived", "no orders published")],
               [("restore-key", [f"kubectl -n {NS} edit configmap {cmname} (restore KAFKA_ADDR)"])])
    finish(w, out, gt, wrapped=True)


# ======================================================================================
# 11 novel: a generated LimitRange gives the JVM fraud-detection a default 256Mi limit
# ======================================================================================
@scenario
def s11(out):
    t0 = T("2026-11-24 03:00:00")
    w = World(11, t0, {"alert_env": "prom_list", "events_api": "events.k8s.io/v1", "tsv": "native",
                       "managed_fields": False, "metric_epoch": False, "after": 30, "alert_every": 300}, 1111)
    w.baseline_objects()
    noise_common(w, kinds=("hpa", "lg"))
    created = w.start - 6 * 86400 - 3 * 3600
    fd = w.deployment_obj("fraud-detection", created, res={})
    w.put(w.start - 1, fd)
    fpod = w.pod_of("fraud-detection")
    w.put(w.start - 1, w.pod_obj("fraud-detection", fpod, created + 30, w.pod_node[fpod], res={}))
    lrname = "default-container-limits"
    lr = {"apiVersion": "v1", "kind": "LimitRange",
          "metadata": w.meta("LimitRange", lrname, NS, t0 - 960,
                             {"app.kubernetes.io/managed-by": "kyverno", "generate.kyverno.io/policy-name": "add-default-limits",
                              "generate.kyverno.io/rule-name": "default-limitrange"}),
          "spec": {"limits": [{"type": "Container", "default": {"cpu": "500m", "memory": "256Mi"},
                               "defaultRequest": {"cpu": "100m", "memory": "128Mi"}}]}}
    w.put(t0 - 960, lr)
    w.event(t0 - 958, "LimitRange", lrname, "PolicyApplied",
            f"ClusterPolicy add-default-limits/default-limitrange generated LimitRange {NS}/{lrname}", source="kyverno-background-controller")
    # routine nightly restart of consumers (CronJob runs kubectl rollout restart)
    fd2 = w.deployment_obj("fraud-detection", created, res={}, restarted_at=iso_z(t0), gen=2)
    w.put(t0, fd2)
    limited = {"limits": {"cpu": "500m", "memory": "256Mi"}, "requests": {"cpu": "100m", "memory": "128Mi"}}
    old, newp = replace_pod(w, "fraud-detection", t0 + 2, 2, res=limited)
    pod_ann = w.get("Pod", NS, newp)
    pod_ann["metadata"]["annotations"] = {"kubernetes.io/limit-ranger": "LimitRanger plugin set: cpu, memory request for container fraud-detection; cpu, memory limit for container fraud-detection"}
    w.put(t0 + 3, pod_ann)
    ac2 = w.deployment_obj("accounting", created, restarted_at=iso_z(t0), gen=2)
    w.put(t0 + 1, ac2)
    olda, newa = replace_pod(w, "accounting", t0 + 4, 2)
    node = w.pod_node[newp]
    w.event(t0 + 1, "Deployment", "fraud-detection", "ScalingReplicaSet", f"Scaled up replica set {newp.rsplit('-', 1)[0]} from 0 to 1", source="deployment-controller")
    w.event(t0 + 1, "Deployment", "accounting", "ScalingReplicaSet", f"Scaled up replica set {newa.rsplit('-', 1)[0]} from 0 to 1", source="deployment-controller")
    w.event(t0 + 20, "Pod", old, "Killing", "Stopping container fraud-detection", host=w.pod_node[old])
    ooms = [t0 + 95, t0 + 220, t0 + 390, t0 + 690, t0 + 1010, t0 + 1330, t0 + 1650]
    for k, to in enumerate(ooms):
        last = {"exitCode": 137, "reason": "OOMKilled", "startedAt": iso_z((ooms[k - 1] + 30) if k else t0 + 5), "finishedAt": iso_z(to)}
        po = w.pod_obj("fraud-detection", newp, t0 + 2, node, ready=False, restarts=k + 1, res=limited,
                       waiting={"reason": "CrashLoopBackOff", "message": f"back-off {min(10 * 2 ** k, 300)}s restarting failed container=fraud-detection pod={newp}_{NS}({uid(newp)})"},
                       terminated_last=last)
        po["metadata"]["annotations"] = pod_ann["metadata"]["annotations"]
        w.put(to + 1, po)
        w.log(to - 8, "fraud-detection", "WARN", "[GC (Allocation Failure) 238421K->236980K(253952K), 0.1847 secs] pause exceeded 150ms", pod=newp)
    w.repeating_event(ooms[1] + 3, w.end, 140, "Pod", newp, "BackOff", f"Back-off restarting failed container fraud-detection in pod {newp}_{NS}({uid(newp)})", host=node)

    def hook(w, t, caller, callee, span, tno):
        if callee == "fraud-detection" and t >= ooms[0]:
            return {"skip": True}
        return None
    w.hooks.append(hook)
    gen_traffic(w)
    for i in range(6):
        w.log(t0 + 30 + i * 10, "fraud-detection", "INFO", f"Consumed record with orderId: {uid('fd' + str(i))[:18]}, and updated total count to: {1200 + i}", pod=newp)
    w.alert("KubePodCrashLooping", ooms[2] + 200, {"namespace": NS, "pod": newp, "container": "fraud-detection"},
            f"Pod {NS}/{newp} (fraud-detection) is in waiting state (reason: CrashLoopBackOff).", value="3")
    w.alert("KafkaConsumerLagHigh", t0 + 720, {"namespace": NS, "service_name": "kafka", "consumergroup": "fraud-detection", "topic": "orders"},
            "consumer group fraud-detection lag above 500", value="612")
    w.alert("KubeContainerOOMKilled", ooms[0] + 20, {"namespace": NS, "pod": newp, "container": "fraud-detection"},
            "Container fraud-detection was OOMKilled", severity="warning")

    def fd_mem(t):
        k = sum(1 for x in ooms if x <= t)
        start = (ooms[k - 1] + 30) if k else t0 + 5
        return min(255.0, 140 + (t - start) * 1.4)
    derive_service_metrics(w)
    all_pod_metrics(w, {old: {"t_to": t0 + 20, "mem_mb": 410.0}, newp: {"t_from": t0 + 5, "mem_fn": fd_mem, "restarts_at": ooms},
                        olda: {"t_to": t0 + 20}, newa: {"t_from": t0 + 6}})
    groups = [grp("limitrange-1", "LimitRange", NS, rf"^{lrname}$", name=lrname, rc=True)]
    groups += svc_groups("fraud-detection")
    groups += [grp("kafka-service-1", "Service", NS, r"^kafka$")]
    gt = mk_gt(groups, [["fraud-detection-service-1", "fraud-detection-pod-1", "fraud-detection-deployment-1"]],
               [("limitrange-1", "fraud-detection-pod-1", "LimitRange default memory limit 256Mi applied to the restarted pod (its Deployment sets no resources)", "JVM OOMKilled, CrashLoopBackOff"),
                ("fraud-detection-pod-1", "fraud-detection-service-1", "consumer down", "no orders consumed"),
                ("fraud-detection-service-1", "kafka-service-1", "consumer group not consuming", "consumer lag on orders grows")],
               [{"category": "Create", "condition": "LimitRange with default container limits created in the namespace",
                 "entity": {"group_id": "limitrange-1", "kind": "LimitRange", "name": lrname},
                 "fault_mechanism": "limitrange-default-limit"}],
               [("fraud-detection-pod-1", "KubePodCrashLooping", "OOMKilled"),
                ("fraud-detection-pod-1", "KubeContainerOOMKilled", "default limit too low"),
                ("kafka-service-1", "KafkaConsumerLagHigh", "consumer down")],
               [("fix", [f"raise default in {lrname} or set explicit resources on fraud-detection"])])
    finish(w, out, gt, wrapped=False)


# ======================================================================================
# 12 novel: a high-priority batch Deployment in another namespace preempts shop pods
# ======================================================================================
@scenario
def s12(out):
    t0 = T("2026-11-25 19:40:00")
    w = World(12, t0, {"alert_env": "am_webhook", "events_api": "v1", "tsv": "csv", "managed_fields": True,
                       "alert_every": 120, "metric_epoch": True}, 1212)
    w.baseline_objects()
    noise_common(w)
    created = w.start - 6 * 86400 - 3 * 3600
    bns = "ml-batch"
    bname = "embedding-backfill"
    pc = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
          "metadata": w.meta("PriorityClass", "batch-critical", None, created - 20 * 86400),
          "value": 1000000, "globalDefault": False, "preemptionPolicy": "PreemptLowerPriority",
          "description": "ML pipelines that must finish before the nightly export"}
    pc["metadata"].pop("namespace", None)
    w.put(w.start - 1, pc)

    def bdep(rep, gen):
        o = {"apiVersion": "apps/v1", "kind": "Deployment",
             "metadata": w.meta("Deployment", bname, bns, created - 9 * 86400, {"app": bname, "team": "ml-platform"},
                                {"deployment.kubernetes.io/revision": str(gen)}),
             "spec": {"replicas": rep, "selector": {"matchLabels": {"app": bname}},
                      "template": {"metadata": {"labels": {"app": bname}},
                                   "spec": {"priorityClassName": "batch-critical",
                                            "containers": [{"name": "worker", "image": "registry.internal.example.com/ml/embedding-backfill:0.9.4",
                                                            "resources": {"requests": {"cpu": "1500m", "memory": "3Gi"},
                                                                          "limits": {"memory": "3Gi"}}}]}}},
             "status": {"replicas": rep, "readyReplicas": rep}}
        o["metadata"]["generation"] = gen
        return o
    w.put(w.start - 1, bdep(0, 3))
    w.put(t0, bdep(6, 4))
    w.event(t0 + 1, "Deployment", bname, "ScalingReplicaSet", f"Scaled up replica set {bname}-{h('rs12', 10)} from 0 to 6",
            ns=bns, source="deployment-controller")
    victims = {"cart": NODES[0], "shipping": NODES[1]}
    bpods = []
    for i in range(6):
        bp = f"{bname}-{h('rs12', 10)}-{h('bp' + str(i), 5)}"
        node = NODES[i % 3]
        w.pod_node[bp] = node
        bpods.append(bp)
        po = w.pod_obj("worker", bp, t0 + 2, node, ns=bns, labels={"app": bname},
                       image="registry.internal.example.com/ml/embedding-backfill:0.9.4",
                       res={"requests": {"cpu": "1500m", "memory": "3Gi"}, "limits": {"memory": "3Gi"}})
        po["spec"]["priorityClassName"] = "batch-critical"
        po["spec"]["priority"] = 1000000
        w.put(t0 + 8 + i, po)
        w.event(t0 + 7 + i, "Pod", bp, "Scheduled", f"Successfully assigned {bns}/{bp} to {node}", ns=bns, source="default-scheduler")
    for k, (dep, node) in enumerate(victims.items()):
        vic = w.pod_of(dep)
        w.pod_node[vic] = node
        w.put(w.start - 1, w.pod_obj(dep, vic, created + 30, node))
        preemptor = bpods[k]
        w.event(t0 + 4, "Pod", vic, "Preempted", f"Preempted by pod {uid(f'12/Pod/{bns}/{preemptor}')} on node {node}",
                source="default-scheduler")
        w.event(t0 + 5, "Pod", vic, "Killing", f"Stopping container {dep}", host=node)
        w.delete(t0 + 6, "Pod", NS, vic)
        w.removed[vic] = (dep, t0 + 6)
        newp = vic.rsplit("-", 1)[0] + "-" + h(vic + "new", 5)
        w.pods[dep] = [newp]
        w.born[newp] = t0 + 7
        w.put(t0 + 7, w.pod_obj(dep, newp, t0 + 7, None, phase="Pending", ready=False))
        w.repeating_event(t0 + 7, w.end, 60, "Pod", newp, "FailedScheduling",
                          "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
                          source="default-scheduler")
    gone = set(victims)

    def hook(w, t, caller, callee, span, tno):
        if callee in gone and t >= t0 + 5:
            if callee == "cart":
                return {"refused": "Status(StatusCode=Unavailable, Detail=Error connecting to subchannel.)" if caller == "checkout" else "14 UNAVAILABLE: No connection established"}
            return {"refused": "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED"}
        return None
    w.hooks.append(hook)
    gen_traffic(w)
    for i in range(15):
        tt = t0 + 40 + i * 71
        w.log(tt, "checkout", "ERROR", jdump({"level": "error", "msg": "failed to prepare order: failed to get user cart during checkout: rpc error: code = Unavailable desc = no healthy upstream"}))
    for i in range(8):
        w.log(t0 + 30 + i * 120, "worker", "INFO", f"backfill shard {i}/64: 120000 embeddings written", pod=bpods[i % 6], ns=bns)
    second_ns_trouble(w, "team-reports", t0, app="nightly-report")
    w.alert("KubePodNotReady", t0 + 900, {"namespace": NS, "pod": w.pod_of("cart")}, f"Pod {NS}/{w.pod_of('cart')} has been in a non-ready state for longer than 15 minutes.")
    w.alert("KubePodNotReady", t0 + 900, {"namespace": NS, "pod": w.pod_of("shipping")}, f"Pod {NS}/{w.pod_of('shipping')} has been in a non-ready state for longer than 15 minutes.")
    w.alert("HighRequestErrorRate", t0 + 120, {"service_name": "frontend", "namespace": NS}, "frontend error rate above 5%", value="0.31", severity="critical")
    w.alert("HighRequestErrorRate", t0 + 150, {"service_name": "checkout", "namespace": NS}, "checkout error rate above 5%", value="1.0", severity="critical")
    w.alert("KubePodCrashLooping", t0 - 2000, {"namespace": "team-reports", "pod": "nightly-report", "container": "nightly-report"}, "Pod is crash looping.")
    derive_service_metrics(w)
    all_pod_metrics(w, {w.pod_of(d): {"cpu": 0.0, "mem_mb": 0.0, "ready_fn": lambda t: 0} for d in victims})
    for bp in bpods:
        pod_series(w, "worker", bp, t_from=t0 + 10, cpu=1.45, mem_mb=2900.0, ns=bns)
    groups = [grp("backfill-deployment-1", "Deployment", bns, rf"^{bname}$", name=bname, rc=True),
              grp("backfill-pod-1", "Pod", bns, rf"^{bname}-[a-z0-9]+-[a-z0-9]+$")]
    groups += svc_groups("cart") + svc_groups("shipping")
    groups += [grp("frontend-service-1", "Service", NS, r"^frontend$"), grp("checkout-service-1", "Service", NS, r"^checkout$")]
    gt = mk_gt(groups, [["backfill-deployment-1", "backfill-pod-1"], ["cart-service-1", "cart-pod-1", "cart-deployment-1"],
                        ["shipping-service-1", "shipping-pod-1", "shipping-deployment-1"]],
               [("backfill-deployment-1", "backfill-pod-1", "scaled 0 -> 6 with priorityClass batch-critical, 1500m CPU each", "scheduler preempts lower-priority pods"),
                ("backfill-pod-1", "cart-pod-1", "preemption", "cart pod deleted, replacement Pending (Insufficient cpu)"),
                ("backfill-pod-1", "shipping-pod-1", "preemption", "shipping pod deleted, replacement Pending"),
                ("cart-pod-1", "cart-service-1", "no pod", "cart unavailable"),
                ("shipping-pod-1", "shipping-service-1", "no pod", "shipping unavailable"),
                ("cart-service-1", "checkout-service-1", "GetCart fails", "checkout error rate above threshold"),
                ("shipping-service-1", "checkout-service-1", "GetQuote fails", "checkout error rate above threshold"),
                ("checkout-service-1", "frontend-service-1", "PlaceOrder fails", "frontend error rate above threshold"),
                ("cart-service-1", "frontend-service-1", "AddItem fails", "frontend error rate above threshold")],
               [{"category": "Change", "condition": "batch Deployment scaled up with a preempting PriorityClass",
                 "entity": {"group_id": "backfill-deployment-1", "kind": "Deployment", "name": bname},
                 "fault_mechanism": "pod-priority-preemption"}],
               [("cart-pod-1", "KubePodNotReady", "preempted"), ("shipping-pod-1", "KubePodNotReady", "preempted"),
                ("frontend-service-1", "HighRequestErrorRate", "cart/shipping down"),
                ("checkout-service-1", "HighRequestErrorRate", "cart/shipping down")],
               [("scale-down", [f"kubectl -n {bns} scale deployment {bname} --replicas=0; lower its priorityClass"])])
    finish(w, out, gt, wrapped=True)


# ======================================================================================
# 13 novel: Ingress pathType Prefix -> Exact on /api
# ======================================================================================
@scenario
def s13(out):
    t0 = T("2026-11-26 10:15:00")
    w = World(13, t0, {"alert_env": "prom", "events_api": "events.k8s.io/v1", "tsv": "csv", "managed_fields": False,
                       "after": 20, "alert_every": 300}, 1313)
    w.baseline_objects()
    noise_common(w, kinds=("hpa", "probe"))
    created = w.start - 6 * 86400 - 3 * 3600
    iname = "storefront"

    def ing(api_type, gen):
        be = {"service": {"name": "frontend-proxy", "port": {"number": 8080}}}
        o = {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
             "metadata": w.meta("Ingress", iname, NS, created - 30 * 86400, {"app.kubernetes.io/part-of": "opentelemetry-demo"},
                                {"nginx.ingress.kubernetes.io/proxy-body-size": "8m",
                                 "argocd.argoproj.io/tracking-id": f"shop-edge:networking.k8s.io/Ingress:{NS}/{iname}"}),
             "spec": {"ingressClassName": "nginx",
                      "tls": [{"hosts": ["shop.astronomy.example.com"], "secretName": "storefront-tls"}],
                      "rules": [{"host": "shop.astronomy.example.com", "http": {"paths": [
                          {"path": "/", "pathType": "Exact", "backend": be},
                          {"path": "/api", "pathType": api_type, "backend": be},
                          {"path": "/images", "pathType": "Prefix", "backend": be},
                          {"path": "/_next", "pathType": "Prefix", "backend": be},
                          {"path": "/otlp-http", "pathType": "Prefix", "backend": be}]}}]},
             "status": {"loadBalancer": {"ingress": [{"hostname": "a1b2c3d4e5-1234567890.us-east-1.elb.amazonaws.com"}]}}}
        o["metadata"]["generation"] = gen
        return o
    w.put(w.start - 1, ing("Prefix", 6))
    w.put(t0, ing("Exact", 7))
    ictl = f"ingress-nginx-controller-{h('ic13', 10)}-{h('ic13p', 5)}"
    w.pod_node[ictl] = NODES[0]
    w.event(t0 + 1, "Ingress", iname, "Sync", "Scheduled for sync", source="nginx-ingress-controller", host=ictl)
    w.event(t0 + 2, "Pod", ictl, "RELOAD", "NGINX reload triggered due to a change in configuration", ns="ingress-nginx",
            source="nginx-ingress-controller", host=ictl)
    # harmless but well-timed: frontend-proxy rolled 3 minutes earlier (access-log format)
    env_cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": w.meta("ConfigMap", "frontend-proxy-envoy", NS, created),
              "data": {"ACCESS_LOG_FORMAT": "[%START_TIME%] %REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %RESPONSE_CODE% %DURATION%"}}
    w.put(w.start - 1, env_cm)
    env2 = json.loads(json.dumps(env_cm))
    env2["data"]["ACCESS_LOG_FORMAT"] += " %UPSTREAM_HOST% %REQ(X-REQUEST-ID)%"
    w.put(t0 - 200, env2)
    w.put(t0 - 190, w.deployment_obj("frontend-proxy", created, restarted_at=iso_z(t0 - 191), gen=2))
    old, newp = replace_pod(w, "frontend-proxy", t0 - 185, 2)
    w.event(t0 - 184, "Pod", newp, "Started", "Started container frontend-proxy", host=w.pod_node[newp])
    w.event(t0 - 170, "Pod", old, "Killing", "Stopping container frontend-proxy", host=w.pod_node[old])
    w.event(t0 - 181, "Pod", newp, "Unhealthy", "Readiness probe failed: dial tcp 10.0.51.9:8080: connect: connection refused", "Warning", host=w.pod_node[newp])

    def hook(w, t, caller, callee, span, tno):
        if caller == "load-generator" and t >= t0 + 3:
            return {"flow_skip": True}
        return None
    w.hooks.append(hook)
    gen_traffic(w)
    paths = {"products": "/api/products", "product": "/api/products/OLJCESPC7Z", "reco": "/api/recommendations?productIds=",
             "ads": "/api/data/", "cart": "/api/cart", "currency": "/api/currency", "shipping": "/api/shipping", "checkout": "/api/checkout"}
    rnd = random.Random(13)
    t = w.start
    n = 0
    while t < w.end:
        for k in range(4):
            n += 1
            key = rnd.choice(sorted(paths))
            pth = paths[key]
            meth = "POST" if key in ("cart", "checkout") else "GET"
            tt = t + k * 15 + rnd.random() * 3
            ts_ = ts(tt).strftime("%d/%b/%Y:%H:%M:%S +0000")
            rid = hexid('r' + str(n), 32)
            if tt < t0 + 3:
                line = f'10.0.12.{7 + n % 5} - - [{ts_}] "{meth} {pth} HTTP/1.1" 200 {900 + n % 700} "-" "python-requests/2.32.3" 311 0.0{10 + n % 80} [otel-demo-frontend-proxy-8080] [] 10.0.45.{3 + n % 2}:8080 {900 + n % 700} 0.0{10 + n % 80} 200 {rid}'
            else:
                line = f'10.0.12.{7 + n % 5} - - [{ts_}] "{meth} {pth} HTTP/1.1" 404 146 "-" "python-requests/2.32.3" 311 0.000 [upstream-default-backend] [] 127.0.0.1:8181 146 0.000 404 {rid}'
            w.log(tt, "ingress-nginx", "INFO", line, pod=ictl, ns="ingress-nginx")
            if tt >= t0 + 3 and n % 3 == 0:
                w.log(tt + 0.01, "load-generator", "ERROR",
                      f"{meth} {pth}: HTTPError('404 Client Error: Not Found for url: https://shop.astronomy.example.com{pth}')")
        t += 60
    for i in range(int((w.end - w.start) // 120)):
        tt = w.start + 60 + i * 120
        w.log(tt + 1, "frontend", "INFO", jdump({"level": 30, "msg": "GET / 200", "route": "/"}))
    w.alert("NoRequestsReceived", t0 + 360, {"service_name": "frontend", "namespace": NS}, "frontend receives no API requests", value="0")
    w.alert("NoRequestsReceived", t0 + 360, {"service_name": "product-catalog", "namespace": NS}, "product-catalog receives no requests", value="0")
    w.alert("NoRequestsReceived", t0 + 420, {"service_name": "cart", "namespace": NS}, "cart receives no requests", value="0")
    w.alert("NoRequestsReceived", t0 + 420, {"service_name": "checkout", "namespace": NS}, "checkout receives no requests", value="0")
    w.alert("NoDatabaseOperations", t0 + 600, {"service_name": "accounting", "namespace": NS}, "accounting performs no database operations", value="0")
    w.alert("NginxHigh4xxRate", t0 + 240, {"namespace": "ingress-nginx", "service": "ingress-nginx-controller"},
            "ingress-nginx 4xx ratio above 20%", value="0.97")
    derive_service_metrics(w)
    all_pod_metrics(w, {old: {"t_to": t0 - 170}, newp: {"t_from": t0 - 184}})
    groups = [grp("ingress-1", "Ingress", NS, rf"^{iname}$", name=iname, rc=True)]
    groups += [grp("frontend-proxy-service-1", "Service", NS, r"^frontend-proxy$"),
               grp("frontend-service-1", "Service", NS, r"^frontend$"),
               grp("product-catalog-service-1", "Service", NS, r"^product-catalog$"),
               grp("cart-service-1", "Service", NS, r"^cart$"),
               grp("checkout-service-1", "Service", NS, r"^checkout$"),
               grp("accounting-service-1", "Service", NS, r"^accounting$")]
    gt = mk_gt(groups, [],
               [("ingress-1", "frontend-proxy-service-1", "/api pathType changed Prefix -> Exact; '/' is Exact", "every /api/* request 404s at ingress-nginx, none reaches frontend-proxy"),
                ("frontend-proxy-service-1", "frontend-service-1", "no API traffic", "frontend receives no requests"),
                ("frontend-service-1", "product-catalog-service-1", "no API traffic", "product-catalog receives no requests"),
                ("frontend-service-1", "cart-service-1", "no API traffic", "cart receives no requests"),
                ("frontend-service-1", "checkout-service-1", "no API traffic", "checkout receives no requests"),
                ("checkout-service-1", "accounting-service-1", "no orders", "no database operations")],
               [{"category": "Change", "condition": "Ingress path /api pathType changed to Exact",
                 "entity": {"group_id": "ingress-1", "kind": "Ingress", "name": iname},
                 "fault_mechanism": "ingress-path-type-change"}],
               [("frontend-service-1", "NoRequestsReceived", "404 at ingress"),
                ("product-catalog-service-1", "NoRequestsReceived", "404 at ingress"),
                ("cart-service-1", "NoRequestsReceived", "404 at ingress"),
                ("checkout-service-1", "NoRequestsReceived", "404 at ingress"),
                ("accounting-service-1", "NoDatabaseOperations", "no orders")],
               [("revert", [f"kubectl -n {NS} patch ingress {iname} (/api pathType Prefix)"])])
    finish(w, out, gt, wrapped=False)



# ======================================================================================
# 14 novel: quote pinned by digest to a manifest the registry has garbage-collected;
#           a routine node consolidation forces a fresh pull
# ======================================================================================
@scenario
def s14(out):
    t0 = T("2026-11-27 06:20:00")
    w = World(14, t0, {"alert_env": "prom", "events_api": "v1", "tsv": "csv", "managed_fields": True,
                       "metric_epoch": False, "after": 25, "alert_every": 300}, 1414)
    w.baseline_objects()
    noise_common(w, kinds=("lg", "probe"))
    created = w.start - 9 * 86400
    digest = "sha256:" + hexid("quote-digest-14", 64)
    img = f"registry.internal.example.com/otel-demo/quote@{digest}"
    qd = w.deployment_obj("quote", created, gen=4)
    qd["spec"]["template"]["spec"]["containers"][0]["image"] = img
    qd["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = "4"
    qd["metadata"]["annotations"]["kubernetes.io/change-cause"] = "pin quote image by digest (supply-chain policy SC-12)"
    w.put(w.start - 1, qd)
    qp = w.pod_of("quote")
    old_node = NODES[2]
    w.pod_node[qp] = old_node
    w.put(w.start - 1, w.pod_obj("quote", qp, created + 60, old_node, image=img))
    movers = ["quote", "currency", "image-provider"]
    for dep in movers[1:]:
        p_ = w.pod_of(dep)
        w.pod_node[p_] = old_node
        w.put(w.start - 1, w.pod_obj(dep, p_, created + 60, old_node))
    new_node = "ip-10-0-24-201.ec2.internal"
    w.event(t0 - 60, "Node", old_node, "DisruptionTerminating", "Disrupting Node: Consolidation/Delete", ns="",
            source="karpenter")
    w.event(t0 - 90, "Node", new_node, "RegisteredNode", f"Node {new_node} event: Registered Node {new_node} in Controller", ns="",
            source="node-controller")
    w.event(t0 - 58, "Node", old_node, "NodeNotSchedulable", f"Node {old_node} status is now: NodeNotSchedulable", ns="",
            source="kubelet", host=old_node)
    for k, dep in enumerate(movers):
        old = w.pod_of(dep)
        w.event(t0 + k, "Pod", old, "Killing", f"Stopping container {dep}", host=old_node)
        kw = {"image": img} if dep == "quote" else {}
        if dep == "quote":
            kw.update(ready=False, phase="Pending",
                      waiting={"reason": "ImagePullBackOff", "message": f"Back-off pulling image \"{img}\"".replace('"', "'")})
        o, n = replace_pod(w, dep, t0 + k, 1, node=new_node, same_rs=True, **kw)
        w.event(t0 + k + 2, "Pod", n, "Scheduled", f"Successfully assigned {NS}/{n} to {new_node}", source="default-scheduler")
        if dep != "quote":
            w.event(t0 + k + 5, "Pod", n, "Pulling", f"Pulling image '{image_of(dep)}'", host=new_node)
            w.event(t0 + k + 9, "Pod", n, "Pulled", f"Successfully pulled image '{image_of(dep)}' in 3.912s (3.912s including waiting). Image size: 41028812 bytes.", host=new_node)
            w.event(t0 + k + 10, "Pod", n, "Started", f"Started container {dep}", host=new_node)
    nq = w.pod_of("quote")
    w.repeating_event(t0 + 5, w.end, 120, "Pod", nq, "Pulling", f"Pulling image '{img}'", "Normal", host=new_node)
    w.repeating_event(t0 + 6, w.end, 120, "Pod", nq, "Failed",
                      f"Failed to pull image '{img}': rpc error: code = NotFound desc = failed to pull and unpack image '{img}': failed to resolve reference '{img}': registry.internal.example.com/otel-demo/quote@{digest}: not found",
                      host=new_node)
    w.repeating_event(t0 + 7, w.end, 120, "Pod", nq, "Failed", "Error: ErrImagePull", host=new_node)
    w.repeating_event(t0 + 20, w.end, 60, "Pod", nq, "BackOff", f"Back-off pulling image '{img}'", host=new_node)

    def hook(w, t, caller, callee, span, tno):
        if callee == "quote" and t >= t0 + 1:
            return {"refused": "error sending request for url (http://quote:8080/getquote): error trying to connect: tcp connect error: Connection refused (os error 111)"}
        return None
    w.hooks.append(hook)
    gen_traffic(w, flows=FLOW_WEIGHTS[:-2] + [("shipping", 4), ("checkout", 3)])
    for (t, tr, sp, par, name, kind, svc, ra, at, dur, status, msg) in list(w.spans):
        if svc == "shipping" and kind == "Server" and status == "Error":
            w.log(t + dur / 1e9, "shipping", "ERROR", f"failed to get quote: {msg[:200]}".replace("shipping: upstream call failed: ", ""), tr, sp)
    w.alert("KubeContainerWaiting", t0 + 600, {"namespace": NS, "pod": nq, "container": "quote"},
            f"Pod container waiting longer than 10 minutes", f"pod/{nq} in namespace {NS} on container quote has been in waiting state for longer than 10 minutes.")
    w.alert("HighRequestErrorRate", t0 + 150, {"service_name": "shipping", "namespace": NS}, "shipping error rate above 5%", value="0.71", severity="critical")
    w.alert("HighRequestErrorRate", t0 + 180, {"service_name": "checkout", "namespace": NS}, "checkout error rate above 5%", value="0.93", severity="critical")
    w.alert("HighRequestErrorRate", t0 + 210, {"service_name": "frontend", "namespace": NS}, "frontend error rate above 5%", value="0.14", severity="critical")
    w.alert("KubeNodeUnschedulable", t0 - 50, {"node": old_node, "job": "kube-state-metrics"}, f"Node {old_node} is unschedulable",
            severity="info", t_resolved=t0 + 300)
    derive_service_metrics(w)
    all_pod_metrics(w, {nq: {"cpu": 0.0, "mem_mb": 0.0, "ready_fn": lambda t: 0}})
    groups = [grp("quote-deployment-1", "Deployment", NS, r"^quote$", name="quote", rc=True),
              grp("quote-pod-1", "Pod", NS, r"^quote-[a-z0-9]+-[a-z0-9]+$"),
              grp("quote-service-1", "Service", NS, r"^quote$"),
              grp("shipping-service-1", "Service", NS, r"^shipping$"),
              grp("checkout-service-1", "Service", NS, r"^checkout$"),
              grp("frontend-service-1", "Service", NS, r"^frontend$")]
    gt = mk_gt(groups, [["quote-deployment-1", "quote-pod-1", "quote-service-1"]],
               [("quote-deployment-1", "quote-pod-1", "image pinned to a digest the registry no longer serves; cached only on the consolidated node", "replacement pod ErrImagePull / ImagePullBackOff (not found)"),
                ("quote-pod-1", "quote-service-1", "no ready pod", "quote connections refused"),
                ("quote-service-1", "shipping-service-1", "GetQuote fails", "shipping error rate above threshold"),
                ("shipping-service-1", "checkout-service-1", "shipping quote fails", "checkout error rate above threshold"),
                ("checkout-service-1", "frontend-service-1", "PlaceOrder fails", "frontend error rate above threshold"),
                ("shipping-service-1", "frontend-service-1", "GET /api/shipping fails", "frontend error rate above threshold")],
               [{"category": "Configuration", "condition": "Deployment image pinned by digest to a manifest deleted from the registry",
                 "entity": {"group_id": "quote-deployment-1", "kind": "Deployment", "name": "quote"},
                 "fault_mechanism": "image-digest-not-found"}],
               [("quote-pod-1", "KubeContainerWaiting", "image not found"),
                ("shipping-service-1", "HighRequestErrorRate", "quote down"),
                ("checkout-service-1", "HighRequestErrorRate", "shipping fails"),
                ("frontend-service-1", "HighRequestErrorRate", "checkout / shipping fail")],
               [("repin", ["kubectl -n otel-demo set image deployment/quote quote=<existing tag or digest>"])])
    finish(w, out, gt, wrapped=True)


def main():
    if len(sys.argv) != 2:
        print("usage: gen.py OUT", file=sys.stderr)
        sys.exit(2)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for f in SCENARIOS:
        d = os.path.join(out, f"Scenario-{f.__name__[1:]}")
        if os.path.isdir(d):
            shutil.rmtree(d)
        f(out)


if __name__ == "__main__":
    main()
