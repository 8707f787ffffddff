#!/usr/bin/env python3
"""sre-set18: held-out SRE incident snapshots (ITBench-Lite layout), stdlib only, deterministic.

usage: python gen.py OUT      -> OUT/Scenario-<N>/{alerts/,metrics/,k8s_events_raw.tsv,
                                  k8s_objects_raw.tsv,otel_logs_raw.tsv,otel_traces_raw.tsv,
                                  ground_truth.yaml}
"""
import csv
import hashlib
import io
import json
import os
import random
import sys
from datetime import datetime, timedelta, timezone

UTC = timezone.utc


# ----------------------------------------------------------------------------- helpers
def h(*parts, n=10, alphabet="bcdfghjklmnpqrstvwxz2456789"):
    d = hashlib.sha256("|".join(str(p) for p in parts).encode()).digest()
    return "".join(alphabet[b % len(alphabet)] for b in d[:n])


def hexid(*parts, n=32):
    return hashlib.sha256("|".join(str(p) for p in parts).encode()).hexdigest()[:n]


def uid(*parts):
    x = hexid("uid", *parts)
    return f"{x[:8]}-{x[8:12]}-{x[12:16]}-{x[16:20]}-{x[20:32]}"


def ch_ts(dt):  # ClickHouse DateTime64(9)
    return dt.strftime("%Y-%m-%d %H:%M:%S.") + f"{dt.microsecond:06d}000"


def iso(dt, frac=False):
    if frac:
        return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond:06d}Z"
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def iso_ns(dt):
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond:06d}000Z"


def epoch(dt):
    return dt.timestamp()


def jd(o):
    return json.dumps(o, separators=(",", ":"), sort_keys=False)


def yaml_dump(o, ind=0):
    """minimal YAML emitter (block style; strings JSON-quoted, which YAML accepts)."""
    sp = "  " * ind
    out = []
    if isinstance(o, dict):
        for k, v in o.items():
            if isinstance(v, (dict, list)) and v:
                out.append(f"{sp}{k}:")
                out.append(yaml_dump(v, ind + 1))
            else:
                out.append(f"{sp}{k}: {scalar(v)}")
    elif isinstance(o, list):
        for v in o:
            if isinstance(v, dict) and v:
                first = True
                sub = yaml_dump(v, ind + 1).split("\n")
                for line in sub:
                    if first:
                        out.append(f"{sp}- {line.strip()}" if not line.strip().endswith(":") or True else line)
                        first = False
                    else:
                        out.append(line)
            elif isinstance(v, list) and v:
                sub = yaml_dump(v, ind + 1).split("\n")
                out.append(f"{sp}- {sub[0].strip()}")
                out.extend(sub[1:])
            else:
                out.append(f"{sp}- {scalar(v)}")
    return "\n".join(out)


def scalar(v):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, dict):
        return "{}"
    if isinstance(v, list):
        return "[]"
    return json.dumps(v)


# ----------------------------------------------------------------------------- app model
DEPS = ["accounting", "ad", "cart", "checkout", "currency", "email", "flagd", "fraud-detection",
        "frontend", "frontend-proxy", "image-provider", "kafka", "load-generator", "payment",
        "postgresql", "product-catalog", "product-reviews", "quote", "recommendation", "shipping",
        "valkey-cart"]
IMG = {
    "kafka": "ghcr.io/open-telemetry/demo:2.0.2-kafka",
    "valkey-cart": "valkey/valkey:8.1-alpine",
    "postgresql": "postgres:17.4",
    "flagd": "ghcr.io/open-feature/flagd:v0.12.1",
}
PORTS = {"accounting": None, "ad": 8080, "cart": 8080, "checkout": 8080, "currency": 8080, "email": 8080,
         "flagd": 8013, "fraud-detection": None, "frontend": 8080, "frontend-proxy": 8080,
         "image-provider": 8081, "kafka": 9092, "load-generator": 8089, "payment": 8080,
         "postgresql": 5432, "product-catalog": 8080, "product-reviews": 3551, "quote": 8080,
         "recommendation": 8080, "shipping": 8080, "valkey-cart": 6379}
NODES = ["ip-10-0-1-23.ec2.internal", "ip-10-0-2-117.ec2.internal", "ip-10-0-3-64.ec2.internal"]


class Snap:
    def __init__(self, sid, ns, t0, minutes, fault_min, seed, style):
        self.sid, self.ns, self.t0 = sid, ns, t0
        self.end = t0 + timedelta(minutes=minutes)
        self.tf = t0 + timedelta(minutes=fault_min)
        self.minutes = minutes
        self.rng = random.Random(seed)
        self.style = style  # dict of format choices
        self.events, self.objects, self.logs, self.spans = [], [], [], []
        self.metrics = {}
        self.alert_files = []
        self.pods = {d: [self.podname(d, 0)] for d in DEPS}
        self.node_of = {}
        for i, d in enumerate(DEPS):
            self.node_of[self.pods[d][0]] = NODES[(i * 7 + seed) % 3]
        self.effects = {}  # service -> function(t) -> None | ("error", msg) | ("lat", factor) | ("down", msg)
        self.soft = {"ad", "recommendation", "product-reviews", "image-provider"}
        self.rv = 88100000 + seed * 1000
        self.img = dict(IMG)

    def podname(self, dep, gen):
        if dep in ("kafka", "valkey-cart", "postgresql") and self.style.get("sts"):
            return f"{dep}-{gen}"
        return f"{dep}-{h(self.sid, dep, 'rs', gen, n=10)}-{h(self.sid, dep, 'pod', gen, n=5)}"

    def rsname(self, dep, gen):
        return f"{dep}-{h(self.sid, dep, 'rs', gen, n=10)}"

    def next_rv(self):
        self.rv += self.rng.randint(3, 400)
        return str(self.rv)

    # ---- events
    def event(self, t, kind, name, reason, msg, etype="Normal", ns=None, count=1, comp="kubelet",
              host=None, api=None, watch="ADDED", first=None):
        ns = self.ns if ns is None else ns
        api = api or self.style.get("events", "v1")
        first = first or t
        ename = f"{name}.{hexid(self.sid, kind, name, reason, t.isoformat(), n=16)}"
        if api == "v1":
            obj = {"apiVersion": "v1", "kind": "Event",
                   "metadata": {"name": ename, "namespace": ns, "uid": uid(ename),
                                "resourceVersion": self.next_rv(), "creationTimestamp": iso(first)},
                   "involvedObject": {"apiVersion": "apps/v1" if kind in ("Deployment", "ReplicaSet", "StatefulSet") else "v1",
                                      "kind": kind, "name": name, "namespace": ns,
                                      "uid": uid(ns, kind, name)},
                   "reason": reason, "message": msg, "source": {"component": comp, **({"host": host} if host else {})},
                   "firstTimestamp": iso(first), "lastTimestamp": iso(t), "count": count, "type": etype,
                   "eventTime": None, "reportingComponent": comp if comp != "kubelet" else "", "reportingInstance": host or ""}
        else:
            obj = {"apiVersion": "events.k8s.io/v1", "kind": "Event",
                   "metadata": {"name": ename, "namespace": ns, "uid": uid(ename),
                                "resourceVersion": self.next_rv(), "creationTimestamp": iso(first)},
                   "eventTime": iso_ns(first)[:-4] + "Z" if comp != "kubelet" else None,
                   "reportingController": comp if "/" in comp else f"kubernetes.io/{comp}" if comp in ("kubelet",) else comp,
                   "reportingInstance": host or f"{comp}-{h(self.sid, comp, n=5)}",
                   "action": {"Pulling": "Pulling", "Failed": "Pulling", "BackOff": "Pulling"}.get(reason, "Binding" if reason == "FailedScheduling" else reason),
                   "reason": reason, "note": msg, "type": etype,
                   "regarding": {"apiVersion": "apps/v1" if kind in ("Deployment", "ReplicaSet", "StatefulSet") else "v1",
                                 "kind": kind, "name": name, "namespace": ns, "uid": uid(ns, kind, name)},
                   "deprecatedSource": {"component": comp, **({"host": host} if host else {})},
                   "deprecatedFirstTimestamp": iso(first), "deprecatedLastTimestamp": iso(t), "deprecatedCount": count}
            if count > 1:
                obj["series"] = {"count": count, "lastObservedTime": iso_ns(t)[:-4] + "Z"}
        self.events.append((t, {"object": obj, "type": watch}))

    # ---- objects
    def obj(self, t, body, watch="ADDED"):
        self.objects.append((t, body, watch))

    def meta(self, kind, name, ns, labels=None, ann=None, created=None, mf_manager="helm", gen=1):
        m = {"name": name, "uid": uid(ns, kind, name), "resourceVersion": self.next_rv(),
             "creationTimestamp": iso(created or (self.t0 - timedelta(days=6, hours=3)))}
        if ns:
            m["namespace"] = ns
        if gen:
            m["generation"] = gen
        m["labels"] = labels or {"app.kubernetes.io/name": name, "app.kubernetes.io/part-of": "opentelemetry-demo",
                                 "app.kubernetes.io/managed-by": "Helm", "helm.sh/chart": "opentelemetry-demo-0.37.1"}
        if ann:
            m["annotations"] = ann
        if self.style.get("managedFields"):
            m["managedFields"] = [{"manager": mf_manager, "operation": "Update", "apiVersion": "apps/v1" if kind in ("Deployment",) else "v1",
                                   "time": m["creationTimestamp"], "fieldsType": "FieldsV1",
                                   "fieldsV1": {"f:metadata": {"f:labels": {".": {}}}}}]
        return m

    def deployment(self, dep, gen=1, replicas=1, t=None, extra_container=None, extra_pod=None, strategy=None,
                   ann=None, env=None, mf=None, ready=None, avail=None, updated=None):
        c = {"name": dep, "image": self.img.get(dep, f"ghcr.io/open-telemetry/demo:2.0.2-{dep}"),
             "imagePullPolicy": "IfNotPresent",
             "resources": {"limits": {"memory": "300Mi" if dep not in ("kafka", "ad", "fraud-detection", "postgresql") else "900Mi"}},
             "env": [{"name": "OTEL_SERVICE_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels['app.kubernetes.io/component']"}}},
                     {"name": "OTEL_COLLECTOR_NAME", "value": "otel-collector"},
                     {"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://$(OTEL_COLLECTOR_NAME):4317"}] + (env or []),
             "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}
        if PORTS.get(dep):
            c["ports"] = [{"containerPort": PORTS[dep], "name": "service" if dep not in ("postgresql", "kafka", "valkey-cart") else dep.split("-")[0], "protocol": "TCP"}]
        if extra_container:
            c.update(extra_container)
        pod = {"serviceAccountName": "opentelemetry-demo", "containers": [c], "restartPolicy": "Always",
               "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst", "schedulerName": "default-scheduler",
               "securityContext": {}}
        if extra_pod:
            pod.update(extra_pod)
        labels = {"app.kubernetes.io/component": dep, "app.kubernetes.io/name": dep, "opentelemetry.io/name": dep}
        a = {"deployment.kubernetes.io/revision": str(gen), "meta.helm.sh/release-name": "otel-demo",
             "meta.helm.sh/release-namespace": self.ns}
        if ann:
            a.update(ann)
        body = {"apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": self.meta("Deployment", dep, self.ns, ann=a, gen=gen, mf_manager=mf or "helm"),
                "spec": {"replicas": replicas, "revisionHistoryLimit": 10, "progressDeadlineSeconds": 600,
                         "selector": {"matchLabels": {"opentelemetry.io/name": dep}},
                         "strategy": strategy or {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
                         "template": {"metadata": {"labels": labels}, "spec": pod}},
                "status": {"observedGeneration": gen, "replicas": replicas,
                           "readyReplicas": replicas if ready is None else ready,
                           "availableReplicas": replicas if avail is None else avail,
                           "updatedReplicas": replicas if updated is None else updated}}
        if body["status"]["readyReplicas"] == 0:
            del body["status"]["readyReplicas"]
        return body

    def pod_obj(self, dep, podname, phase="Running", ready=True, restarts=0, node=None, extra_status=None,
                gen=0, spec_extra=None, created=None, waiting=None, terminated=None):
        node = node or self.node_of.get(podname) or NODES[int(hexid(podname, n=2), 16) % 3]
        cs = {"name": dep, "ready": ready, "restartCount": restarts, "image": self.img.get(dep, f"ghcr.io/open-telemetry/demo:2.0.2-{dep}"),
              "started": ready, "state": {"running": {"startedAt": iso(created or self.t0 - timedelta(days=2))}}}
        if waiting:
            cs["state"] = {"waiting": waiting}
        if terminated:
            cs["lastState"] = {"terminated": terminated}
        st = {"phase": phase, "qosClass": "Burstable",
              "conditions": [{"type": "Ready", "status": "True" if ready else "False"},
                             {"type": "PodScheduled", "status": "True" if node else "False"}]}
        if node:
            st["hostIP"] = "10.0.%d.%d" % (NODES.index(node) + 1 if node in NODES else 9, 10 + NODES.index(node) if node in NODES else 9)
            st["podIP"] = "10.244.%d.%d" % (int(hexid(podname, n=2), 16) % 4, int(hexid(podname, 'ip', n=2), 16) % 250 + 2)
            st["containerStatuses"] = [cs]
        if extra_status:
            st.update(extra_status)
        spec = {"containers": [{"name": dep, "image": cs["image"]}], "serviceAccountName": "opentelemetry-demo"}
        if node:
            spec["nodeName"] = node
        if spec_extra:
            spec.update(spec_extra)
        m = self.meta("Pod", podname, self.ns, labels={"app.kubernetes.io/component": dep, "opentelemetry.io/name": dep,
                                                      "pod-template-hash": podname.split("-")[-2] if podname.count("-") >= 2 else "0"},
                      created=created or self.t0 - timedelta(days=2), gen=0, mf_manager="kube-controller-manager")
        m["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "-".join(podname.split("-")[:-1]),
                                 "uid": uid(self.ns, "ReplicaSet", "-".join(podname.split("-")[:-1])), "controller": True,
                                 "blockOwnerDeletion": True}]
        return {"apiVersion": "v1", "kind": "Pod", "metadata": m, "spec": spec, "status": st}

    def baseline_objects(self, skip=(), replicas=None, skip_svc=()):
        replicas = replicas or {}
        for d in DEPS:
            if d in skip:
                continue
            self.obj(self.t0 + timedelta(seconds=5), self.deployment(d, replicas=replicas.get(d, 1)))
            for p in self.pods[d]:
                self.obj(self.t0 + timedelta(seconds=6), self.pod_obj(d, p))
            if PORTS.get(d) and d not in skip_svc:
                self.obj(self.t0 + timedelta(seconds=4), self.service_obj(d))

    def cluster_ip(self, dep):
        return "10.96.%d.%d" % (int(hexid(self.sid, dep, "cip", n=2), 16) % 200 + 20, int(hexid(self.sid, dep, "cip2", n=2), 16) % 250 + 2)

    def service_obj(self, dep, cip=None):
        port = PORTS[dep]
        return {"apiVersion": "v1", "kind": "Service",
                "metadata": self.meta("Service", dep, self.ns, gen=0),
                "spec": {"type": "ClusterIP", "clusterIP": cip or self.cluster_ip(dep), "clusterIPs": [cip or self.cluster_ip(dep)],
                         "internalTrafficPolicy": "Cluster", "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack",
                         "ports": [{"name": "tcp-service" if dep not in ("kafka", "postgresql", "valkey-cart") else dep.split("-")[0], "port": port, "protocol": "TCP", "targetPort": port}],
                         "selector": {"opentelemetry.io/name": dep}, "sessionAffinity": "None"},
                "status": {"loadBalancer": {}}}

    # ---- logs
    def log(self, t, svc, sev, body, trace="", span="", pod=None, attrs=None):
        pod = pod or self.pods.get(svc, [svc])[0]
        ra = {"k8s.namespace.name": self.ns, "k8s.pod.name": pod, ("k8s.job.name" if svc.endswith("-migrate") else "k8s.deployment.name"): svc,
              "k8s.node.name": self.node_of.get(pod, NODES[0]), "service.name": svc,
              "service.namespace": "opentelemetry-demo"}
        num = {"TRACE": 1, "DEBUG": 5, "INFO": 9, "WARN": 13, "WARNING": 13, "ERROR": 17, "FATAL": 21}[sev.upper()]
        self.logs.append((t, trace, span, sev, num, svc, body, ra, attrs or {}))

    # ---- traces
    def add_trace(self, t, tree, tid=None):
        tid = tid or hexid(self.sid, "trace", t.isoformat(), tree[1], len(self.spans))
        self._span(t, tree, tid, "", None)

    def _span(self, t, node, tid, parent, caller):
        svc, name, kind, children = node
        sid = hexid(tid, svc, name, len(self.spans), n=16)
        base = {"frontend-proxy": 4, "frontend": 9, "checkout": 20, "cart": 3, "valkey-cart": 0.6, "product-catalog": 2,
                "currency": 0.4, "shipping": 4, "quote": 6, "payment": 8, "email": 12, "ad": 3, "recommendation": 5,
                "product-reviews": 6, "postgresql": 1.5, "kafka": 2, "accounting": 5, "fraud-detection": 4,
                "image-provider": 1.2}.get(svc, 3)
        dur = base * (0.7 + self.rng.random() * 0.8)
        status, msg = "Unset", ""
        eff = self.effects.get(svc)
        e = eff(t, caller) if eff else None
        idx = len(self.spans)
        self.spans.append(None)
        cur = t + timedelta(microseconds=300)
        child_err = None
        client = kind in ("Client", "Producer") and caller is not None
        if e and e[0] == "down" and not client:
            # the callee does not answer: no span from it; the caller's span errs
            self.spans.pop()
            return ("Error", e[1], 0)
        if e and e[0] == "down":
            e = ("error", e[1], 1000.0 if "timeout" in e[1] else 2.0)
        for ch in children:
            if client and e and e[0] == "error":
                break  # the request never reached the server side
            st, m, d = self._span(cur, ch, tid, sid, svc)
            dur += d / 1e6
            cur += timedelta(milliseconds=d / 1e6)
            if st == "Error" and ch[0] not in self.soft and child_err is None:
                child_err = m
        if e and e[0] == "lat":
            dur *= e[1]
        if e and e[0] == "error":
            status, msg = "Error", e[1]
            if len(e) > 2:
                dur += e[2]
        elif child_err:
            status, msg = "Error", child_err if self.style.get("propagate_msg", True) else "rpc error"
        dns = int(dur * 1e6)
        p = "" if (self.style.get("orphan") and svc in self.style["orphan"]) else parent
        ttid = tid if p or not parent else hexid(tid, svc, "orphan")
        attrs = {"rpc.system": "grpc"} if kind == "Server" and svc not in ("frontend-proxy", "frontend", "quote", "image-provider") else {"http.method": name.split(" ")[0] if " " in name else "GET"}
        if status == "Error" and "http.method" in attrs:
            attrs["http.status_code"] = "503" if "503" in msg or "upstream" in msg else "500"
        emit = svc
        if client:
            emit = caller
            attrs = {"peer.service": svc, "server.address": svc, "server.port": PORTS.get(svc) or 0}
            if svc in ("postgresql",):
                attrs.update({"db.system": "postgresql", "db.name": "otel"})
            elif svc == "kafka":
                attrs.update({"messaging.system": "kafka", "messaging.destination.name": "orders"})
            elif svc == "valkey-cart":
                attrs.update({"db.system": "redis"})
            else:
                attrs.update({"http.request.method": name, "url.full": f"http://{svc}:{PORTS.get(svc)}/send_order_confirmation"})
                if status == "Error":
                    attrs["http.response.status_code"] = 403 if "RBAC" in msg else 503
        ra = {"service.name": emit, "k8s.namespace.name": self.ns, "k8s.pod.name": self.pods.get(emit, [emit])[0]}
        self.spans[idx] = (t, ttid, sid, p, name, kind, emit, ra, attrs, dns, status, msg)
        return status, msg, dns

    def traffic(self, every_s=20):
        t = self.t0
        i = 0
        while t < self.end:
            j = timedelta(milliseconds=self.rng.randint(0, 9000))
            for tree in PATHS:
                self.add_trace(t + j, tree)
                j += timedelta(milliseconds=self.rng.randint(200, 2500))
            i += 1
            t += timedelta(seconds=every_s)

    # ---- metrics
    def mrow(self, fname, metric, t, value, tags):
        ts = t
        self.metrics.setdefault(fname, []).append((metric, ts, value, tags))

    def span_metrics(self):
        agg = {}
        for s in self.spans:
            t, _, _, _, name, kind, svc, _, _, dns, status, _ = s
            if kind not in ("Server", "Consumer"):
                continue
            mb = t.replace(second=0, microsecond=0)
            a = agg.setdefault((svc, mb), [0, 0, []])
            a[0] += 1
            a[1] += status == "Error"
            a[2].append(dns / 1e6)
        for (svc, mb), (n, e, ds) in sorted(agg.items()):
            ds.sort()
            tags = {"service_name": svc, "namespace": self.ns, "span_kind": "SPAN_KIND_SERVER"}
            self.mrow(f"service_{svc}", "traces_span_metrics_calls_total:rate1m", mb, round(n / 60.0, 4), tags)
            self.mrow(f"service_{svc}", "traces_span_metrics_errors_total:rate1m", mb, round(e / 60.0, 4), {**tags, "status_code": "STATUS_CODE_ERROR"})
            self.mrow(f"service_{svc}", "traces_span_metrics_duration_milliseconds:p95", mb, round(ds[int(0.95 * (len(ds) - 1))], 3), tags)

    def pod_metrics(self, overrides=None):
        overrides = overrides or {}
        for d in DEPS:
            for p in self.pods[d]:
                base_mem = {"kafka": 610e6, "ad": 280e6, "fraud-detection": 300e6, "postgresql": 120e6}.get(d, 60e6)
                base_cpu = {"frontend": 0.12, "kafka": 0.09, "checkout": 0.03, "product-catalog": 0.05}.get(d, 0.02)
                t = self.t0
                while t < self.end:
                    o = overrides.get(p)
                    cpu, mem, rst = base_cpu * (0.8 + 0.4 * self.rng.random()), base_mem * (0.97 + 0.06 * self.rng.random()), 0
                    if o:
                        r = o(t)
                        if r is None:
                            t += timedelta(minutes=1)
                            continue
                        cpu, mem, rst = r.get("cpu", cpu), r.get("mem", mem), r.get("restarts", 0)
                    tags = {"pod": p, "namespace": self.ns, "container": d}
                    self.mrow(f"pod_{p}", "container_cpu_usage_seconds_total:rate5m", t, round(cpu, 5), tags)
                    self.mrow(f"pod_{p}", "container_memory_working_set_bytes", t, int(mem), tags)
                    self.mrow(f"pod_{p}", "kube_pod_container_status_restarts_total", t, rst, {**tags, "job": "kube-state-metrics"})
                    t += timedelta(minutes=1)

    # ---- alerts
    def alerts_at(self, t, alerts):
        self.alert_files.append((t, alerts))

    # ---- writing
    def write(self, root, gt):
        d = os.path.join(root, self.sid)
        os.makedirs(os.path.join(d, "alerts"), exist_ok=True)
        os.makedirs(os.path.join(d, "metrics"), exist_ok=True)
        quoting = self.style.get("quoting", "csv")
        tsfmt = self.style.get("ts", "ch")

        def T(dt):
            return ch_ts(dt) if tsfmt == "ch" else iso_ns(dt)

        def writer(path, header, rows):
            buf = io.StringIO()
            if quoting == "csv":
                w = csv.writer(buf, delimiter="\t", lineterminator="\n")
                w.writerow(header)
                for r in rows:
                    w.writerow(r)
            else:  # raw: no quoting at all (fields never contain tab/newline)
                buf.write("\t".join(header) + "\n")
                for r in rows:
                    buf.write("\t".join(str(x) for x in r) + "\n")
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(buf.getvalue())

        # events
        rows = []
        for t, body in sorted(self.events, key=lambda x: (x[0], jd(x[1]))):
            rows.append([T(t), "", "", "", "", 0, "", jd(body),
                         jd({"k8s.namespace.name": body["object"]["metadata"]["namespace"], "service.name": "k8s-events"}),
                         jd({"k8s.event.name": body["object"]["metadata"]["name"], "event.domain": "k8s"})])
        writer(os.path.join(d, "k8s_events_raw.tsv"),
               ["Timestamp", "TraceId", "SpanId", "TraceFlags", "SeverityText", "SeverityNumber", "ServiceName", "Body",
                "ResourceAttributes", "LogAttributes"], rows)
        # objects
        rows = []
        omode = self.style.get("objects", "plain")
        for t, body, watch in sorted(self.objects, key=lambda x: (x[0], x[1]["kind"], x[1]["metadata"]["name"])):
            if omode == "watch":
                b = jd({"type": watch, "object": body})
            elif omode == "double":
                b = json.dumps(jd(body))
            else:
                b = jd(body)
            rows.append([T(t), "", "", "", "", 0, "", b,
                         jd({"k8s.object.kind": body["kind"], "k8s.namespace.name": body["metadata"].get("namespace", "")}),
                         jd({"k8s.resource.name": body["kind"].lower() + "s", "event.name": body["metadata"]["name"]})])
        writer(os.path.join(d, "k8s_objects_raw.tsv"),
               ["Timestamp", "TraceId", "SpanId", "TraceFlags", "SeverityText", "SeverityNumber", "ServiceName", "Body",
                "ResourceAttributes", "LogAttributes"], rows)
        # logs
        rows = []
        for (t, tr, sp, sev, num, svc, body, ra, la) in sorted(self.logs, key=lambda x: (x[0], x[5], x[6])):
            rows.append([T(t), tr, sp, sev, num, svc, body, jd(ra), jd(la)])
        writer(os.path.join(d, "otel_logs_raw.tsv"),
               ["Timestamp", "TraceId", "SpanId", "SeverityText", "SeverityNumber", "ServiceName", "Body",
                "ResourceAttributes", "LogAttributes"], rows)
        # traces
        rows = []
        for s in sorted(self.spans, key=lambda x: (x[0], x[1], x[2])):
            t, tid, sid, par, name, kind, svc, ra, attrs, dns, st, msg = s
            rows.append([T(t), tid, sid, par, name, kind, svc, jd(ra), jd(attrs), dns, st, msg])
        writer(os.path.join(d, "otel_traces_raw.tsv"),
               ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
                "ResourceAttributes", "SpanAttributes", "Duration", "StatusCode", "StatusMessage"], rows)
        # metrics
        mts = self.style.get("mts", "epoch")
        for fname, rs in sorted(self.metrics.items()):
            out = []
            for metric, t, v, tags in sorted(rs, key=lambda r: (r[0], r[1])):
                tt = f"{epoch(t):.3f}" if mts == "epoch" else (iso(t) if mts == "iso" else int(epoch(t) * 1000))
                tg = jd(tags) if self.style.get("tags", "json") == "json" else repr(tags)
                out.append([metric, tt, v, tg])
            writer(os.path.join(d, "metrics", fname + ".tsv"), ["metric_name", "timestamp", "value", "tags"], out)
        # alerts
        ashape = self.style.get("alerts", "prom")
        for t, alerts in self.alert_files:
            fn = os.path.join(d, "alerts", "alerts_at_" + t.strftime("%Y-%m-%dT%H-%M-%S.") + f"{t.microsecond:06d}" + ".json")
            payload = shape_alerts(ashape, alerts, t, self.sid)
            with open(fn, "w", encoding="utf-8") as f:
                f.write(json.dumps(payload, indent=2) + "\n")
        with open(os.path.join(d, "ground_truth.yaml"), "w", encoding="utf-8") as f:
            f.write(gt)


def shape_alerts(shape, alerts, t, sid):
    """alerts: list of dicts {name, sev, labels, summary, desc, since(datetime), value, state}"""
    out = []
    for a in alerts:
        labels = {"alertname": a["name"], "severity": a["sev"], **a["labels"]}
        ann = {"summary": a["summary"]}
        if a.get("desc"):
            ann["description"] = a["desc"]
        state = a.get("state", "firing")
        if shape == "prom":
            out.append({"labels": labels, "annotations": ann, "state": state,
                        "activeAt": iso_ns(a["since"])[:-4] + "Z", "value": "%.6e" % a.get("value", 1)})
        elif shape == "am2":
            out.append({"labels": labels, "annotations": ann, "startsAt": iso(a["since"], True),
                        "endsAt": iso(t + timedelta(minutes=4), True), "updatedAt": iso(t, True),
                        "fingerprint": hexid(sid, jd(labels), n=16), "receivers": [{"name": "sre-pager"}],
                        "status": {"state": "active" if state == "firing" else "suppressed", "silencedBy": [], "inhibitedBy": []},
                        "generatorURL": "http://prometheus-server.monitoring:9090/graph?g0.expr=" + a["name"],
                        "state": state})
        else:  # webhook v4
            out.append({"status": "firing" if state == "firing" else "resolved", "labels": labels, "annotations": ann,
                        "startsAt": iso(a["since"], True), "endsAt": "0001-01-01T00:00:00Z",
                        "generatorURL": "http://prometheus:9090/graph", "fingerprint": hexid(sid, jd(labels), n=16),
                        "state": state})
    if shape == "prom":
        return {"status": "success", "data": {"alerts": out}}
    if shape == "am2":
        return out
    return {"version": "4", "groupKey": "{}:{namespace=\"%s\"}" % (alerts[0]["labels"].get("namespace", "") if alerts else ""),
            "status": "firing", "receiver": "sre-pager", "groupLabels": {}, "commonLabels": {}, "externalURL": "http://alertmanager:9093",
            "alerts": out, "truncatedAlerts": 0}


def S(svc, name, kind="Server", ch=()):
    return (svc, name, kind, list(ch))


PATHS = [
    S("frontend-proxy", "ingress", "Server", [S("frontend", "GET /", "Server", [
        S("product-catalog", "oteldemo.ProductCatalogService/ListProducts"),
        S("currency", "CurrencyService/GetSupportedCurrencies"),
        S("ad", "oteldemo.AdService/GetAds"),
        S("recommendation", "/oteldemo.RecommendationService/ListRecommendations", "Server",
          [S("product-catalog", "oteldemo.ProductCatalogService/ListProducts")])])]),
    S("frontend-proxy", "ingress", "Server", [S("frontend", "GET /api/products/[productId]", "Server", [
        S("product-catalog", "oteldemo.ProductCatalogService/GetProduct"),
        S("product-reviews", "oteldemo.ProductReviewService/GetProductReviews", "Server",
          [S("postgresql", "SELECT otel.productreviews", "Client")])])]),
    S("frontend-proxy", "ingress", "Server", [S("image-provider", "GET /images/products/*", "Server")]),
    S("frontend-proxy", "ingress", "Server", [S("frontend", "POST /api/cart", "Server", [
        S("cart", "POST /oteldemo.CartService/AddItem", "Server", [S("valkey-cart", "HMSET", "Client")])])]),
    S("frontend-proxy", "ingress", "Server", [S("frontend", "POST /api/checkout", "Server", [
        S("checkout", "oteldemo.CheckoutService/PlaceOrder", "Server", [
            S("cart", "POST /oteldemo.CartService/GetCart", "Server", [S("valkey-cart", "HGET", "Client")]),
            S("product-catalog", "oteldemo.ProductCatalogService/GetProduct"),
            S("currency", "CurrencyService/Convert"),
            S("shipping", "oteldemo.ShippingService/GetQuote", "Server", [S("quote", "POST /getquote", "Server")]),
            S("payment", "oteldemo.PaymentService/Charge"),
            S("shipping", "oteldemo.ShippingService/ShipOrder"),
            S("email", "POST", "Client", [S("email", "POST /send_order_confirmation", "Server")]),
            S("kafka", "orders publish", "Producer")])])]),
    S("accounting", "orders receive", "Consumer", [S("postgresql", "INSERT otel.order", "Client")]),
    S("fraud-detection", "orders receive", "Consumer"),
]


def noise_common(s, variant):
    """Background noise every cluster has; variant picks which."""
    r = s.rng
    t = s.t0
    # periodic info logs
    while t < s.end:
        s.log(t + timedelta(seconds=r.randint(0, 50)), "load-generator", "INFO",
              "GET /api/products/%s 200" % r.choice(["OLJCESPC7Z", "66VCHSJNUP", "1YMWWN1N4O", "L9ECAV7KIM"]))
        s.log(t + timedelta(seconds=r.randint(0, 50)), "frontend", "INFO",
              jd({"level": "info", "msg": "request completed", "path": "/api/cart", "status": 200}) if variant % 2 else "request completed path=/api/cart status=200")
        s.log(t + timedelta(seconds=r.randint(0, 50)), "currency", "INFO", "Currency conversion request successful")
        s.log(t + timedelta(seconds=r.randint(0, 50)), "ad", "INFO", "Targeted ad request received for [travel]")
        if variant % 3 == 0:
            s.log(t + timedelta(seconds=r.randint(0, 50)), "flagd", "WARN",
                  jd({"level": "warn", "ts": epoch(t), "msg": "flag not found", "flag": "loadGeneratorFloodHomepage_v2", "component": "service"}))
        t += timedelta(minutes=2)
    # unrelated warnings
    if variant % 2 == 0:
        s.event(s.t0 + timedelta(minutes=3), "Pod", s.pods["flagd"][0], "Unhealthy",
                "Readiness probe failed: Get \"http://10.244.1.31:8016/readyz\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
                "Warning", count=2, host=s.node_of[s.pods["flagd"][0]])
    else:
        s.event(s.t0 + timedelta(minutes=2), "Pod", s.pods["load-generator"][0], "Unhealthy",
                "Liveness probe failed: HTTP probe failed with statuscode: 500", "Warning", count=1,
                host=s.node_of[s.pods["load-generator"][0]])
    # second namespace with its own trouble
    other = ["payments-sandbox", "batch-jobs", "team-search", "staging"][variant % 4]
    if variant % 4 == 0:
        s.event(s.t0 + timedelta(minutes=1), "Pod", "stripe-mock-6d5f7c9b8-qk2lw", "BackOff",
                "Back-off restarting failed container stripe-mock in pod stripe-mock-6d5f7c9b8-qk2lw_payments-sandbox(%s)" % uid("sm"),
                "Warning", ns=other, count=37, host=NODES[1], first=s.t0 - timedelta(hours=5))
    elif variant % 4 == 1:
        s.event(s.t0 + timedelta(minutes=11), "Job", "nightly-export-29401920", "BackoffLimitExceeded",
                "Job has reached the specified backoff limit", "Warning", ns=other, comp="job-controller")
        s.event(s.t0 + timedelta(minutes=9), "Pod", "nightly-export-29401920-7xkqp", "Failed",
                "Error: failed to create containerd task: failed to create shim task: OCI runtime create failed", "Warning", ns=other, host=NODES[2])
    elif variant % 4 == 2:
        s.event(s.t0 + timedelta(minutes=6), "PersistentVolumeClaim", "data-opensearch-1", "ExternalExpanding",
                "waiting for an external controller to expand this PVC", "Normal", ns=other, comp="volume_expand")
        s.event(s.t0 + timedelta(minutes=7), "Pod", "opensearch-1", "Unhealthy",
                "Readiness probe failed: cluster health status is yellow", "Warning", ns=other, count=9, host=NODES[0])
    else:
        s.event(s.t0 + timedelta(minutes=4), "Pod", "web-7b9c6d5f4-z2m8h", "Failed",
                "Failed to pull image \"registry.internal.example/web:pr-1142\": not found", "Warning", ns=other, host=NODES[2])
        s.event(s.t0 + timedelta(minutes=4, seconds=30), "Pod", "web-7b9c6d5f4-z2m8h", "BackOff",
                "Back-off pulling image \"registry.internal.example/web:pr-1142\"", "Normal", ns=other, count=14, host=NODES[2])
    # routine normal events
    for i, n in enumerate(NODES):
        if (i + variant) % 3 == 0:
            s.event(s.t0 + timedelta(minutes=5 + i), "Node", n, "ImageGCFailed" if variant % 5 == 0 else "NodeHasSufficientMemory",
                    "wanted to free 1288490188 bytes, but freed 0 bytes space with errors in image deletion" if variant % 5 == 0 else f"Node {n} status is now: NodeHasSufficientMemory",
                    "Warning" if variant % 5 == 0 else "Normal", ns="default", host=n)


def unrelated_restart(s, dep, at, reason_text):
    """A pod of another service restarts for its own reason (e.g. a completed run / config reload)."""
    p = s.pods[dep][0]
    s.event(at, "Pod", p, "Killing", f"Container {dep} definition changed, will be restarted" if "changed" in reason_text else f"Stopping container {dep}",
            "Normal", host=s.node_of[p])
    s.event(at + timedelta(seconds=8), "Pod", p, "Pulled", f"Container image \"{s.img.get(dep, 'ghcr.io/open-telemetry/demo:2.0.2-' + dep)}\" already present on machine",
            "Normal", host=s.node_of[p])
    s.event(at + timedelta(seconds=9), "Pod", p, "Started", f"Started container {dep}", "Normal", host=s.node_of[p])
    s.log(at - timedelta(seconds=1), dep, "INFO", reason_text)


def alert(name, sev, svc, ns, since, summary, desc=None, value=1.0, extra=None, state="firing"):
    labels = {"service_name": svc, "namespace": ns} if svc else {"namespace": ns}
    if extra:
        labels.update(extra)
    return {"name": name, "sev": sev, "labels": labels, "summary": summary, "desc": desc, "since": since,
            "value": value, "state": state}


# ----------------------------------------------------------------------------- ground truth
def grp(gid, kind, ns, flt=None, name=None, rc=False):
    g = {"id": gid, "kind": kind, "namespace": ns}
    if name:
        g["name"] = name
    if flt:
        g["filter"] = flt if isinstance(flt, list) else [flt]
    if rc:
        g["root_cause"] = True
    return g


def svc_groups(app, ns):
    return [grp(f"{app}-service-1", "Service", ns, [f"{app}\\b"]), grp(f"{app}-pod-1", "Pod", ns, [f"{app}-.*"])]


def gt_doc(sid, groups, aliases, props, fault, alerts, wrapped, actions):
    body = {"alerts": alerts, "groups": groups, "aliases": aliases, "propagations": props, "fault": fault}
    if wrapped:
        body["recommendedActions"] = [{"solution": {"id": a[0], "actions": a[1]}} for a in actions]
        doc = {"apiVersion": "itbench.io/v1", "kind": "GroundTruth", "metadata": {"name": sid.lower()}, "spec": body}
    else:
        body["recommended_actions"] = [{"solution": {"id": a[0], "actions": a[1]}} for a in actions]
        doc = body
    return "---\n" + yaml_dump(doc) + "\n"


def prop(src, tgt, cond, eff):
    return {"source": src, "target": tgt, "condition": cond, "effect": eff}


def galert(gid, aid, desc):
    return {"group_id": gid, "id": aid, "metadata": {"description": desc}}


# ----------------------------------------------------------------------------- shared bits
def dt(y, mo, d, hh, mm):
    return datetime(y, mo, d, hh, mm, 0, tzinfo=UTC)


def after(s, since, fn):
    """effect active after `since`"""
    def f(t, caller):
        return fn(t, caller) if t >= since else None
    return f


def pod_events_start(s, dep, pod, at, node, image=None):
    image = image or s.img.get(dep, f"ghcr.io/open-telemetry/demo:2.0.2-{dep}")
    s.event(at, "Pod", pod, "Scheduled", f"Successfully assigned {s.ns}/{pod} to {node}", comp="default-scheduler")
    s.event(at + timedelta(seconds=2), "Pod", pod, "Pulled", f"Container image \"{image}\" already present on machine", host=node)
    s.event(at + timedelta(seconds=2), "Pod", pod, "Created", f"Created container: {dep}", host=node)
    s.event(at + timedelta(seconds=3), "Pod", pod, "Started", f"Started container {dep}", host=node)


def rollout_events(s, dep, old_rs, new_rs, at, scale_down_first=False):
    if scale_down_first:
        s.event(at, "Deployment", dep, "ScalingReplicaSet", f"Scaled down replica set {old_rs} from 1 to 0", comp="deployment-controller")
        s.event(at + timedelta(seconds=1), "Deployment", dep, "ScalingReplicaSet", f"Scaled up replica set {new_rs} from 0 to 1", comp="deployment-controller")
    else:
        s.event(at, "Deployment", dep, "ScalingReplicaSet", f"Scaled up replica set {new_rs} from 0 to 1", comp="deployment-controller")


def k8s_obj(s, api, kind, name, ns, spec_key, spec, t, watch="ADDED", ann=None, labels=None, created=None, gen=1, extra=None):
    b = {"apiVersion": api, "kind": kind,
         "metadata": s.meta(kind, name, ns, labels=labels or {"app.kubernetes.io/managed-by": "Helm"}, ann=ann, created=created, gen=gen)}
    if spec_key:
        b[spec_key] = spec
    if extra:
        b.update(extra)
    s.obj(t, b, watch)
    return b


def std_alert_props(app_chain):
    return [prop(a, b, c, e) for a, b, c, e in app_chain]


def OD(style, **kw):
    d = dict(style)
    d.update(kw)
    return d


SCEN = []


def scenario(fn):
    SCEN.append(fn)
    return fn


# ============================================================================ 1 CoreDNS rewrite
COREFILE = """.:53 {
    errors
    health {
       lameduck 5s
    }
    ready
    kubernetes cluster.local in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30
    loop
    reload
    loadbalance
}
"""
COREFILE_NEW = """.:53 {
    errors
    health {
       lameduck 5s
    }
    ready
    rewrite stop {
       name exact quote.otel-demo.svc.cluster.local quote.pricing.svc.cluster.local
       answer name quote.pricing.svc.cluster.local quote.otel-demo.svc.cluster.local
    }
    kubernetes cluster.local in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30
    loop
    reload
    loadbalance
}
corp.example.com:53 {
    errors
    cache 30
    forward . 10.20.0.2 10.20.0.3
}
"""


@scenario
def sc_coredns():
    st = {"events": "v1", "objects": "plain", "quoting": "csv", "ts": "ch", "mts": "epoch", "alerts": "prom",
          "managedFields": True, "orphan": {"product-reviews"}}
    s = Snap("Scenario-1", "otel-demo", dt(2026, 11, 24, 14, 0), 45, 18, 101, st)
    tf = s.tf
    msg = "error sending request for url (http://quote:8080/getquote): client error (Connect): dns error: failed to lookup address information: Name or service not known"
    s.effects["quote"] = after(s, tf + timedelta(seconds=35), lambda t, c: ("down", msg))
    s.baseline_objects()
    noise_common(s, 0)
    # kube-system objects
    cm_old = {"Corefile": COREFILE}
    cm_new = {"Corefile": COREFILE_NEW}
    k8s_obj(s, "v1", "ConfigMap", "coredns", "kube-system", "data", cm_old, s.t0 + timedelta(seconds=5),
            labels={"eks.amazonaws.com/component": "coredns", "k8s-app": "kube-dns"}, gen=0)
    k8s_obj(s, "v1", "ConfigMap", "coredns", "kube-system", "data", cm_new, tf, watch="MODIFIED",
            labels={"eks.amazonaws.com/component": "coredns", "k8s-app": "kube-dns"}, gen=0,
            ann={"kubectl.kubernetes.io/last-applied-configuration": jd({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "coredns", "namespace": "kube-system"}, "data": cm_new})})
    k8s_obj(s, "v1", "ConfigMap", "coredns", "kube-system", "data", cm_new, s.t0 + timedelta(minutes=35), watch="MODIFIED",
            labels={"eks.amazonaws.com/component": "coredns", "k8s-app": "kube-dns"}, gen=0)
    for i in range(2):
        pod = f"coredns-5b9d8f6c7d-{['x8q2k', 'mn4tz'][i]}"
        k8s_obj(s, "v1", "Pod", pod, "kube-system", "spec", {"containers": [{"name": "coredns", "image": "602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/coredns:v1.11.4-eksbuild.2"}], "nodeName": NODES[i], "priorityClassName": "system-cluster-critical"},
                s.t0 + timedelta(seconds=7), extra={"status": {"phase": "Running"}})
        for j, line in enumerate(["[INFO] Reloading", "[INFO] plugin/reload: Running configuration SHA512 = %s" % hexid("corefile2", n=128), "[INFO] Reloading complete"]):
            s.log(tf + timedelta(seconds=31 + i * 4 + j), "coredns", "INFO", line, pod=pod)
        s.log(s.t0 + timedelta(minutes=9, seconds=i), "coredns", "INFO", "[INFO] 10.244.%d.7:41207 - 3311 \"AAAA IN api.segment.io.otel-demo.svc.cluster.local. udp 74 false 1232\" NXDOMAIN qr,aa,rd 167 0.000118s" % i, pod=pod)
    # harmless change nearby: load-generator users bumped
    d = s.deployment("load-generator", gen=3, env=[{"name": "LOCUST_USERS", "value": "12"}, {"name": "LOCUST_SPAWN_RATE", "value": "1"}])
    s.obj(tf - timedelta(minutes=6), d, "MODIFIED")
    unrelated_restart(s, "load-generator", tf - timedelta(minutes=6) + timedelta(seconds=3), "Received SIGTERM, stopping Locust runners (definition changed)")
    # victim logs
    t = tf + timedelta(seconds=40)
    while t < s.end:
        s.log(t, "shipping", "ERROR", jd({"timestamp": iso(t, True), "level": "ERROR", "fields": {"message": "failed to get quote: " + msg}, "target": "shipping::shipping_service::quote"}))
        s.log(t + timedelta(seconds=1), "checkout", "ERROR", "failed to get shipping quote: rpc error: code = Internal desc = failed to get quote")
        t += timedelta(seconds=45)
    s.traffic(20)
    s.span_metrics()
    s.pod_metrics()
    ns = s.ns
    a1 = [alert("RequestErrorRate", "warning", "shipping", ns, tf + timedelta(minutes=2), "Error rate above threshold for shipping", value=0.46)]
    s.alerts_at(tf + timedelta(minutes=4), a1 + [alert("RequestErrorRate", "warning", "checkout", ns, tf + timedelta(minutes=2, seconds=30), "Error rate above threshold for checkout", value=0.21)])
    s.alerts_at(tf + timedelta(minutes=12), a1 + [alert("RequestErrorRate", "warning", "checkout", ns, tf + timedelta(minutes=2, seconds=30), "Error rate above threshold for checkout", value=0.22),
                                              alert("RequestErrorRate", "critical", "frontend-proxy", ns, tf + timedelta(minutes=5), "Error rate above threshold for frontend-proxy", value=0.09),
                                              alert("RequestRateLow", "info", "quote", ns, tf + timedelta(minutes=4), "quote receives almost no requests", value=0.0)])
    G = [grp("coredns-config-1", "ConfigMap", "kube-system", ["^coredns$"], name="coredns", rc=True),
         grp("coredns-pod-1", "Pod", "kube-system", ["coredns-.*"])] + svc_groups("shipping", ns) + svc_groups("checkout", ns) + \
        svc_groups("frontend-proxy", ns) + svc_groups("quote", ns)
    A = [["shipping-service-1", "shipping-pod-1"], ["checkout-service-1", "checkout-pod-1"], ["frontend-proxy-service-1", "frontend-proxy-pod-1"], ["quote-service-1", "quote-pod-1"]]
    P = [prop("coredns-config-1", "coredns-pod-1", "Corefile gets a rewrite stanza mapping quote.otel-demo.svc.cluster.local to quote.pricing.svc.cluster.local (namespace does not exist)", "CoreDNS reloads and answers NXDOMAIN for the quote Service name"),
         prop("coredns-pod-1", "shipping-pod-1", "shipping resolves quote through cluster DNS", "shipping cannot resolve quote; GetQuote fails with dns error"),
         prop("shipping-pod-1", "checkout-service-1", "checkout calls shipping GetQuote", "PlaceOrder fails, checkout error rate rises"),
         prop("checkout-service-1", "frontend-proxy-service-1", "frontend checkout calls go through frontend-proxy", "frontend-proxy error rate rises"),
         prop("shipping-pod-1", "quote-service-1", "no request reaches quote", "quote request rate drops to zero")]
    F = [{"category": "Change", "condition": "CoreDNS Corefile edited with a rewrite for quote to a non-existent namespace", "entity": {"group_id": "coredns-config-1", "kind": "ConfigMap", "name": "coredns"}, "fault_mechanism": "coredns-corefile-rewrite"}]
    AL = [galert("shipping-service-1", "RequestErrorRate", "shipping errors: quote lookups fail"), galert("checkout-service-1", "RequestErrorRate", "checkout fails PlaceOrder on shipping quote"),
          galert("frontend-proxy-service-1", "RequestErrorRate", "checkout failures seen at the edge"), galert("quote-service-1", "RequestRateLow", "quote gets no traffic")]
    return s, gt_doc(s.sid, G, A, P, F, AL, True, [("revert-corefile", ["kubectl -n kube-system edit configmap coredns and remove the rewrite stanza", "wait for the reload plugin (or restart coredns)"])])


# ============================================================================ 2 SA imagePullSecrets removed
@scenario
def sc_sa_pullsecret():
    st = {"events": "events.k8s.io", "objects": "watch", "quoting": "raw", "ts": "iso", "mts": "iso", "alerts": "am2"}
    s = Snap("Scenario-2", "otel-demo", dt(2026, 11, 18, 3, 10), 50, 22, 202, st)
    tf = s.tf
    s.soft = {"ad", "product-reviews", "image-provider"}
    priv = "registry.corp.example/otel/recommendation:2.0.2-r3"
    s.img["recommendation"] = priv
    old = s.pods["recommendation"][0]
    node = NODES[2]
    s.node_of[old] = node
    s.pods["recommendation"] = [old]
    s.effects["recommendation"] = after(s, tf + timedelta(seconds=20), lambda t, c: ("down", "rpc error: code = Unavailable desc = no healthy upstream"))
    s.baseline_objects()
    noise_common(s, 1)
    sa = lambda ips, t, w, rvgen: k8s_obj(s, "v1", "ServiceAccount", "opentelemetry-demo", s.ns, None, None, t, watch=w,
                                          labels={"app.kubernetes.io/managed-by": "Helm", "app.kubernetes.io/instance": "otel-demo"},
                                          extra=({"imagePullSecrets": ips} if ips is not None else {}), gen=0)
    sa([{"name": "corp-registry"}], s.t0 + timedelta(seconds=5), "ADDED", 0)
    # helm upgrade of the observability add-on re-renders the shared SA without imagePullSecrets
    sa(None, tf - timedelta(minutes=14), "MODIFIED", 1)
    k8s_obj(s, "v1", "Secret", "corp-registry", s.ns, None, None, s.t0 + timedelta(seconds=5),
            extra={"type": "kubernetes.io/dockerconfigjson", "data": {".dockerconfigjson": "<redacted>"}}, gen=0)
    k8s_obj(s, "v1", "ConfigMap", "otel-demo-grafana-dashboards", s.ns, "data", {"demo-dashboard.json": "{\"title\":\"Demo\",\"version\":14}"},
            tf - timedelta(minutes=14), watch="MODIFIED", gen=0)
    # karpenter consolidates node 3: pods evicted and rescheduled
    s.event(tf - timedelta(seconds=40), "Node", node, "DisruptionBlocked" if False else "DisruptionTerminating", "Disrupting Node: Underutilized/Delete",
            "Normal", ns="default", comp="karpenter")
    moved = [d for d in DEPS if s.node_of[s.pods[d][0]] == node]
    for i, d in enumerate(moved):
        op = s.pods[d][0]
        np_ = s.podname(d, 1)
        nn = NODES[i % 2]
        s.event(tf + timedelta(seconds=i), "Pod", op, "Evicted" if False else "Killing", f"Stopping container {d}", "Normal", host=node)
        s.obj(tf + timedelta(seconds=i), s.pod_obj(d, op, phase="Running", ready=False, node=node), "DELETED")
        s.node_of[np_] = nn
        if d == "recommendation":
            s.event(tf + timedelta(seconds=3), "Pod", np_, "Scheduled", f"Successfully assigned {s.ns}/{np_} to {nn}", comp="default-scheduler")
            s.event(tf + timedelta(seconds=4), "Pod", np_, "Pulling", f"Pulling image \"{priv}\"", host=nn)
            s.event(tf + timedelta(seconds=5), "Pod", np_, "Failed",
                    f"Failed to pull image \"{priv}\": failed to pull and unpack image \"{priv}\": failed to resolve reference \"{priv}\": pull access denied, repository does not exist or may require authorization: authorization failed: no basic auth credentials",
                    "Warning", host=nn, count=7, first=tf + timedelta(seconds=5))
            s.event(tf + timedelta(seconds=5), "Pod", np_, "Failed", "Error: ErrImagePull", "Warning", host=nn, count=7)
            s.event(s.end - timedelta(minutes=1), "Pod", np_, "BackOff", f"Back-off pulling image \"{priv}\"", "Normal", host=nn, count=112, first=tf + timedelta(seconds=20))
            s.event(s.end - timedelta(minutes=1), "Pod", np_, "Failed", "Error: ImagePullBackOff", "Warning", host=nn, count=112, first=tf + timedelta(seconds=20))
            po = s.pod_obj(d, np_, phase="Pending", ready=False, node=nn, waiting={"reason": "ImagePullBackOff", "message": f"Back-off pulling image \"{priv}\""},
                           created=tf + timedelta(seconds=2))
            s.obj(tf + timedelta(seconds=6), po, "ADDED")
            s.obj(tf + timedelta(minutes=15), po, "MODIFIED")
        else:
            pod_events_start(s, d, np_, tf + timedelta(seconds=2 + i), nn)
            s.obj(tf + timedelta(seconds=8 + i), s.pod_obj(d, np_, node=nn, created=tf + timedelta(seconds=2 + i)), "ADDED")
        s.pods[d] = [np_]
    for d in moved:
        if d != "recommendation":
            s.log(tf + timedelta(seconds=30), d, "INFO", f"{d} service started")
    s.obj(tf + timedelta(minutes=3), s.deployment("recommendation", ready=0, avail=0), "MODIFIED")
    t = tf + timedelta(seconds=25)
    while t < s.end:
        s.log(t, "frontend", "ERROR", jd({"level": "error", "msg": "failed to get recommendations", "err": "14 UNAVAILABLE: no healthy upstream", "path": "/api/recommendations"}))
        t += timedelta(seconds=50)
    s.traffic(20)
    s.span_metrics()
    rec_new = s.pods["recommendation"][0]
    s.pods["recommendation"] = [old, rec_new]
    s.pod_metrics({old: lambda t: None if t >= tf else {}, rec_new: lambda t: None})
    ns = s.ns
    base = [alert("KubePodNotReady", "warning", "recommendation", ns, tf + timedelta(minutes=5), f"Pod {ns}/{rec_new} has been in a non-ready state for longer than 5 minutes.", extra={"pod": rec_new}),
            alert("RequestErrorRate", "warning", "frontend", ns, tf + timedelta(minutes=1, seconds=30), "Error rate above threshold for frontend", value=0.19)]
    s.alerts_at(tf + timedelta(minutes=7), base)
    s.alerts_at(tf + timedelta(minutes=20), base + [alert("KubeDeploymentReplicasMismatch", "warning", "recommendation", ns, tf + timedelta(minutes=15), "Deployment otel-demo/recommendation has not matched the expected number of replicas for longer than 15 minutes.", extra={"deployment": "recommendation"}),
                                                   alert("RequestErrorRate", "critical", "frontend-proxy", ns, tf + timedelta(minutes=3), "Error rate above threshold for frontend-proxy", value=0.12)])
    G = [grp("sa-1", "ServiceAccount", ns, ["^opentelemetry-demo$"], name="opentelemetry-demo", rc=True),
         grp("recommendation-deployment-1", "Deployment", ns, ["recommendation\\b"])] + svc_groups("recommendation", ns) + svc_groups("frontend", ns) + svc_groups("frontend-proxy", ns)
    A = [["recommendation-service-1", "recommendation-pod-1", "recommendation-deployment-1"], ["frontend-service-1", "frontend-pod-1"], ["frontend-proxy-service-1", "frontend-proxy-pod-1"]]
    P = [prop("sa-1", "recommendation-pod-1", "ServiceAccount opentelemetry-demo lost its imagePullSecrets entry (corp-registry) in a helm re-render", "the rescheduled recommendation pod cannot pull its private image (ErrImagePull / ImagePullBackOff)"),
         prop("recommendation-pod-1", "recommendation-service-1", "no ready recommendation pod", "recommendation Service has no endpoints"),
         prop("recommendation-service-1", "frontend-service-1", "frontend calls ListRecommendations", "frontend returns errors"),
         prop("frontend-service-1", "frontend-proxy-service-1", "user traffic enters through frontend-proxy", "edge error rate rises")]
    F = [{"category": "Change", "condition": "imagePullSecrets removed from the shared ServiceAccount", "entity": {"group_id": "sa-1", "kind": "ServiceAccount", "name": "opentelemetry-demo"}, "fault_mechanism": "serviceaccount-imagepullsecrets-removed"}]
    AL = [galert("recommendation-pod-1", "KubePodNotReady", "new recommendation pod stuck pulling"), galert("frontend-service-1", "RequestErrorRate", "recommendations fail"),
          galert("recommendation-deployment-1", "KubeDeploymentReplicasMismatch", "0 of 1 available"), galert("frontend-proxy-service-1", "RequestErrorRate", "edge errors")]
    return s, gt_doc(s.sid, G, A, P, F, AL, False, [("restore-pull-secret-ref", ["kubectl -n otel-demo patch serviceaccount opentelemetry-demo -p '{\"imagePullSecrets\":[{\"name\":\"corp-registry\"}]}'", "delete the stuck recommendation pod"])])


# ============================================================================ 3 startupProbe too strict (ad, Java)
@scenario
def sc_startup_probe():
    st = {"events": "v1", "objects": "double", "quoting": "csv", "ts": "ch", "mts": "ms", "alerts": "webhook"}
    s = Snap("Scenario-3", "otel-demo", dt(2026, 11, 20, 9, 30), 40, 15, 303, st)
    tf = s.tf
    old = s.pods["ad"][0]
    new = s.podname("ad", 1)
    node = NODES[1]
    s.node_of[new] = node
    s.effects["ad"] = after(s, tf + timedelta(seconds=5), lambda t, c: ("down", "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED"))
    s.baseline_objects()
    noise_common(s, 2)
    probe_old = {"grpc": {"port": 8080, "service": ""}, "periodSeconds": 10, "failureThreshold": 30, "timeoutSeconds": 1, "successThreshold": 1}
    probe_new = {"grpc": {"port": 8080, "service": ""}, "periodSeconds": 5, "failureThreshold": 3, "timeoutSeconds": 1, "successThreshold": 1}
    strat = {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 1}}
    s.obj(s.t0 + timedelta(seconds=5), s.deployment("ad", gen=5, extra_container={"startupProbe": probe_old, "resources": {"limits": {"memory": "600Mi"}, "requests": {"cpu": "100m"}}}, strategy=strat), "MODIFIED")
    dnew = s.deployment("ad", gen=6, extra_container={"startupProbe": probe_new, "readinessProbe": {"grpc": {"port": 8080}, "periodSeconds": 10},
                                                       "resources": {"limits": {"memory": "600Mi"}, "requests": {"cpu": "100m"}}},
                        strategy=strat, ann={"kubernetes.io/change-cause": "chore(ad): align probes with platform defaults (PLAT-2291)"}, ready=0, avail=0, updated=1)
    s.obj(tf, dnew, "MODIFIED")
    s.obj(tf + timedelta(minutes=10), dnew, "MODIFIED")
    rollout_events(s, "ad", s.rsname("ad", 0), s.rsname("ad", 1), tf, scale_down_first=True)
    s.event(tf, "Pod", old, "Killing", "Stopping container ad", host=s.node_of[old])
    s.obj(tf + timedelta(seconds=31), s.pod_obj("ad", old, ready=False), "DELETED")
    pod_events_start(s, "ad", new, tf + timedelta(seconds=1), node)
    restarts = 0
    t = tf + timedelta(seconds=4)
    while t < s.end:
        s.log(t, "ad", "INFO", "Ad service starting. Loading ad catalog (JIT warm-up, Flagd provider init)", pod=new)
        s.log(t + timedelta(seconds=9), "ad", "INFO", "Connecting to flagd at flagd:8013", pod=new)
        t_fail = t + timedelta(seconds=15)
        s.event(t_fail, "Pod", new, "Unhealthy", "Startup probe failed: timeout: failed to connect service \":8080\" within 1s: context deadline exceeded", "Warning", host=node, count=3 * (restarts + 1), first=tf + timedelta(seconds=9))
        s.event(t_fail + timedelta(seconds=1), "Pod", new, "Killing", "Container ad failed startup probe, will be restarted", host=node, count=restarts + 1, first=tf + timedelta(seconds=20))
        restarts += 1
        back = min(10 * 2 ** (restarts - 1), 300)
        if restarts >= 2:
            s.event(t_fail + timedelta(seconds=2), "Pod", new, "BackOff", f"Back-off restarting failed container ad in pod {new}_{s.ns}({uid(new)})", "Warning", host=node, count=restarts - 1, first=tf + timedelta(seconds=40))
        t = t_fail + timedelta(seconds=2 + back)
    po = s.pod_obj("ad", new, ready=False, restarts=restarts, node=node, created=tf + timedelta(seconds=1),
                   waiting={"reason": "CrashLoopBackOff", "message": f"back-off 5m0s restarting failed container=ad pod={new}"},
                   terminated={"exitCode": 143, "reason": "Error", "startedAt": iso(tf + timedelta(minutes=20)), "finishedAt": iso(tf + timedelta(minutes=20, seconds=16))},
                   spec_extra={"containers": [{"name": "ad", "image": s.img.get("ad", "ghcr.io/open-telemetry/demo:2.0.2-ad"), "startupProbe": probe_new}]})
    s.obj(tf + timedelta(seconds=2), po, "ADDED")
    s.obj(tf + timedelta(minutes=12), po, "MODIFIED")
    s.pods["ad"] = [old, new]
    # unrelated: fraud-detection (also JVM) restarts after a kafka rebalance timeout
    unrelated_restart(s, "fraud-detection", tf - timedelta(minutes=9), "Consumer group rebalance: member fraud-detection-1 left group (session timeout); restarting consumer")
    # harmless change nearby: frontend Service annotation
    sv = s.service_obj("frontend")
    sv["metadata"]["annotations"] = {"prometheus.io/scrape": "true", "prometheus.io/port": "9464"}
    s.obj(tf - timedelta(minutes=3), sv, "MODIFIED")
    t = tf + timedelta(seconds=10)
    while t < s.end:
        s.log(t, "frontend", "WARN", "GetAds failed, rendering page without ads: 14 UNAVAILABLE: No connection established")
        t += timedelta(seconds=40)
    s.pods["ad"] = [new]
    s.traffic(20)
    s.span_metrics()
    s.pods["ad"] = [old, new]
    rc = [0]

    def newm(t):
        if t < tf:
            return None
        return {"cpu": 0.9, "mem": 180e6 + 50e6 * ((t.minute % 2)), "restarts": int((t - tf).total_seconds() // 120)}
    s.pod_metrics({old: lambda t: None if t >= tf else {}, new: newm})
    ns = s.ns
    s.alerts_at(tf + timedelta(minutes=8), [alert("KubePodCrashLooping", "warning", "ad", ns, tf + timedelta(minutes=3), f"Pod {ns}/{new} (ad) is in waiting state (reason: \"CrashLoopBackOff\").", extra={"pod": new, "container": "ad"}),
                                            alert("RequestRateLow", "info", "ad", ns, tf + timedelta(minutes=2), "ad receives no successful requests", value=0)])
    s.alerts_at(tf + timedelta(minutes=22), [alert("KubePodCrashLooping", "warning", "ad", ns, tf + timedelta(minutes=3), f"Pod {ns}/{new} (ad) is in waiting state (reason: \"CrashLoopBackOff\").", extra={"pod": new, "container": "ad"}),
                                             alert("KubeDeploymentRolloutStuck", "warning", "ad", ns, tf + timedelta(minutes=15), "Deployment otel-demo/ad rollout is not progressing", extra={"deployment": "ad"}),
                                             alert("RequestRateLow", "info", "ad", ns, tf + timedelta(minutes=2), "ad receives no successful requests", value=0)])
    G = [grp("ad-deployment-1", "Deployment", ns, ["ad\\b"], name="ad", rc=True)] + svc_groups("ad", ns) + svc_groups("frontend", ns)
    A = [["ad-deployment-1", "ad-service-1", "ad-pod-1"]]
    P = [prop("ad-deployment-1", "ad-pod-1", "startupProbe changed to periodSeconds 5 / failureThreshold 3 (15 s) while the JVM needs ~25 s to listen", "the new ad pod is killed before it starts, CrashLoopBackOff"),
         prop("ad-pod-1", "ad-service-1", "maxSurge 0 / maxUnavailable 1 removed the old pod first", "ad has no ready endpoint"),
         prop("ad-service-1", "frontend-service-1", "frontend calls GetAds", "pages render without ads; GetAds errors")]
    F = [{"category": "Change", "condition": "startupProbe failureThreshold too low for the service's start time", "entity": {"group_id": "ad-deployment-1", "kind": "Deployment", "name": "ad"}, "fault_mechanism": "startup-probe-too-strict"}]
    AL = [galert("ad-pod-1", "KubePodCrashLooping", "killed by startup probe"), galert("ad-deployment-1", "KubeDeploymentRolloutStuck", "rollout never completes"), galert("ad-service-1", "RequestRateLow", "no ad served")]
    return s, gt_doc(s.sid, G, A, P, F, AL, True, [("relax-startup-probe", ["restore failureThreshold: 30 on the ad startupProbe", "kubectl -n otel-demo rollout undo deployment/ad"])])


# ============================================================================ 4 PeerAuthentication STRICT, edge proxy without sidecar
@scenario
def sc_peerauth():
    st = {"events": "events.k8s.io", "objects": "plain", "quoting": "csv", "ts": "iso", "mts": "epoch", "alerts": "prom", "propagate_msg": True}
    s = Snap("Scenario-4", "astronomy-shop", dt(2026, 11, 26, 16, 40), 45, 20, 404, st)
    tf = s.tf
    msg = "upstream connect error or disconnect/reset before headers. reset reason: connection termination"
    s.effects["frontend"] = after(s, tf + timedelta(seconds=3), lambda t, c: ("down", msg) if c == "frontend-proxy" else None)
    s.effects["image-provider"] = after(s, tf + timedelta(seconds=3), lambda t, c: ("down", msg) if c == "frontend-proxy" else None)
    s.soft = {"ad", "recommendation", "product-reviews"}
    s.baseline_objects()
    # frontend-proxy is the edge Envoy and runs without a sidecar
    d = s.deployment("frontend-proxy", gen=2)
    d["spec"]["template"]["metadata"]["annotations"] = {"sidecar.istio.io/inject": "false"}
    s.obj(s.t0 + timedelta(seconds=6), d, "MODIFIED")
    for dep in ("frontend", "cart", "checkout"):
        dd = s.deployment(dep)
        dd["spec"]["template"]["metadata"]["annotations"] = {"sidecar.istio.io/status": jd({"initContainers": ["istio-init"], "containers": ["istio-proxy"], "volumes": ["istio-envoy", "istio-data"]})}
        s.obj(s.t0 + timedelta(seconds=6), dd, "MODIFIED")
    noise_common(s, 3)
    k8s_obj(s, "security.istio.io/v1", "PeerAuthentication", "default", "istio-system", "spec", {"mtls": {"mode": "PERMISSIVE"}}, s.t0 + timedelta(seconds=5), gen=1)
    k8s_obj(s, "security.istio.io/v1", "PeerAuthentication", "default", s.ns, "spec", {"mtls": {"mode": "PERMISSIVE"}}, s.t0 + timedelta(seconds=5), gen=2,
            labels={"app.kubernetes.io/managed-by": "argocd", "argocd.argoproj.io/instance": "mesh-policies"})
    k8s_obj(s, "security.istio.io/v1", "PeerAuthentication", "default", s.ns, "spec", {"mtls": {"mode": "STRICT"}}, tf, watch="MODIFIED", gen=3,
            labels={"app.kubernetes.io/managed-by": "argocd", "argocd.argoproj.io/instance": "mesh-policies"},
            ann={"argocd.argoproj.io/tracking-id": "mesh-policies:security.istio.io/PeerAuthentication:astronomy-shop/default"})
    # harmless: DestinationRule for valkey connection pool tweak, shortly before
    k8s_obj(s, "networking.istio.io/v1", "DestinationRule", "valkey-cart", s.ns, "spec",
            {"host": "valkey-cart.astronomy-shop.svc.cluster.local", "trafficPolicy": {"connectionPool": {"tcp": {"maxConnections": 200}}}},
            tf - timedelta(minutes=4), watch="MODIFIED", gen=4)
    s.event(tf + timedelta(seconds=1), "Namespace", s.ns, "Synced" if False else "ResourceUpdated", "Updated sync status: Synced -> Synced (mesh-policies)", ns=s.ns, comp="argocd-application-controller")
    t = tf + timedelta(seconds=4)
    while t < s.end:
        p = s.rng.choice(["/", "/api/products/OLJCESPC7Z", "/images/products/NationalParkFoundationExplorascope.jpg", "/api/cart"])
        up = "image-provider" if p.startswith("/images") else "frontend"
        s.log(t, "frontend-proxy", "INFO",
              f"[{iso(t, True)}] \"GET {p} HTTP/1.1\" 503 UC upstream_reset_before_response_started{{connection_termination}} 0 95 1 - \"10.244.0.1\" \"python-requests/2.32.3\" \"{uid(t.isoformat())}\" \"{up}:8080\" \"{s.cluster_ip(up)}:8080\"")
        t += timedelta(seconds=15)
    t = tf + timedelta(seconds=10)
    while t < s.end:
        s.log(t, "load-generator", "ERROR", "GET / 503: upstream connect error or disconnect/reset before headers. reset reason: connection termination")
        t += timedelta(seconds=30)
    s.traffic(20)
    s.span_metrics()
    s.pod_metrics()
    ns = s.ns
    s.alerts_at(tf + timedelta(minutes=6), [alert("RequestErrorRate", "critical", "frontend-proxy", ns, tf + timedelta(minutes=1), "Error rate above threshold for frontend-proxy", value=0.94),
                                            alert("RequestRateLow", "warning", "frontend", ns, tf + timedelta(minutes=2), "frontend request rate dropped", value=0.02)])
    s.alerts_at(tf + timedelta(minutes=18), [alert("RequestErrorRate", "critical", "frontend-proxy", ns, tf + timedelta(minutes=1), "Error rate above threshold for frontend-proxy", value=0.97),
                                             alert("RequestRateLow", "warning", "frontend", ns, tf + timedelta(minutes=2), "frontend request rate dropped", value=0.0),
                                             alert("RequestRateLow", "warning", "image-provider", ns, tf + timedelta(minutes=3), "image-provider request rate dropped", value=0.0),
                                             alert("FrontendSLOBurnRate", "critical", "frontend", ns, tf + timedelta(minutes=5), "frontend availability SLO burning 14x")])
    G = [grp("peerauth-1", "PeerAuthentication", ns, ["^default$"], name="default", rc=True)] + svc_groups("frontend-proxy", ns) + svc_groups("frontend", ns) + svc_groups("image-provider", ns)
    A = [["frontend-proxy-service-1", "frontend-proxy-pod-1"], ["frontend-service-1", "frontend-pod-1"], ["image-provider-service-1", "image-provider-pod-1"]]
    P = [prop("peerauth-1", "frontend-service-1", "namespace PeerAuthentication switched from PERMISSIVE to STRICT", "frontend's sidecar rejects plaintext connections"),
         prop("peerauth-1", "image-provider-service-1", "same namespace policy", "image-provider's sidecar rejects plaintext connections"),
         prop("frontend-service-1", "frontend-proxy-service-1", "frontend-proxy has sidecar injection disabled and sends plaintext", "frontend-proxy returns 503 UC for every route")]
    F = [{"category": "Change", "condition": "mTLS STRICT enforced on a namespace whose edge client has no sidecar", "entity": {"group_id": "peerauth-1", "kind": "PeerAuthentication", "name": "default"}, "fault_mechanism": "istio-peerauthentication-strict"}]
    AL = [galert("frontend-proxy-service-1", "RequestErrorRate", "503 UC"), galert("frontend-service-1", "RequestRateLow", "no traffic reaches frontend"),
          galert("image-provider-service-1", "RequestRateLow", "no traffic reaches image-provider"), galert("frontend-service-1", "FrontendSLOBurnRate", "availability SLO")]
    return s, gt_doc(s.sid, G, A, P, F, AL, False, [("permissive-mtls", ["set spec.mtls.mode PERMISSIVE on PeerAuthentication astronomy-shop/default (or a portLevelMtls/selector exception)", "or inject a sidecar into frontend-proxy"])])


# ============================================================================ 5 required anti-affinity, too few nodes
@scenario
def sc_antiaffinity():
    st = {"events": "v1", "objects": "watch", "quoting": "raw", "ts": "ch", "mts": "iso", "alerts": "am2", "tags": "repr",
          "orphan": {"recommendation"}}
    s = Snap("Scenario-5", "otel-demo", dt(2026, 11, 27, 11, 50), 50, 20, 505, st)
    tf = s.tf
    # load ramps at tf (scheduled lunchtime peak of the load generator), HPA wants 5 replicas
    def rec_eff(t, c):
        if t < tf + timedelta(minutes=2):
            return None
        k = min((t - tf).total_seconds() / 300.0, 1.0)
        if s.rng.random() < 0.06 * k:
            return ("error", "DEADLINE_EXCEEDED: deadline exceeded after 0.999s", 999.0)
        return ("lat", 1 + 220 * k * (0.6 + 0.8 * s.rng.random()))
    s.effects["recommendation"] = rec_eff
    s.soft = {"ad", "product-reviews", "image-provider"}
    s.baseline_objects(skip=("recommendation",))
    noise_common(s, 4)
    aff = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"opentelemetry.io/name": "recommendation"}}, "topologyKey": "kubernetes.io/hostname"}]}}
    s.obj(s.t0 + timedelta(seconds=5), s.deployment("recommendation", gen=8, replicas=1,
                                                    extra_container={"resources": {"requests": {"cpu": "200m", "memory": "256Mi"}, "limits": {"memory": "500Mi"}}}), "ADDED")
    dnew = s.deployment("recommendation", gen=9, replicas=1, extra_pod={"affinity": aff},
                        extra_container={"resources": {"requests": {"cpu": "200m", "memory": "256Mi"}, "limits": {"memory": "500Mi"}}},
                        ann={"kubernetes.io/change-cause": "spread recommendation replicas across hosts (INC-4471 follow-up)"})
    s.obj(tf - timedelta(minutes=11), dnew, "MODIFIED")
    old = s.pods["recommendation"][0]
    newp = [s.podname("recommendation", i) for i in range(1, 6)]
    for i, p in enumerate(newp):
        s.node_of[p] = NODES[i % 3]
    rollout_events(s, "recommendation", s.rsname("recommendation", 0), s.rsname("recommendation", 1), tf - timedelta(minutes=11))
    pod_events_start(s, "recommendation", newp[0], tf - timedelta(minutes=11), NODES[0])
    s.event(tf - timedelta(minutes=10, seconds=30), "Deployment", "recommendation", "ScalingReplicaSet", f"Scaled down replica set {s.rsname('recommendation', 0)} from 1 to 0", comp="deployment-controller")
    s.obj(tf - timedelta(minutes=11), s.pod_obj("recommendation", newp[0], node=NODES[0], created=tf - timedelta(minutes=11)), "ADDED")
    s.obj(tf - timedelta(minutes=10, seconds=30), s.pod_obj("recommendation", old, ready=False), "DELETED")
    hpa = lambda cur, desired, t, w: k8s_obj(s, "autoscaling/v2", "HorizontalPodAutoscaler", "recommendation", s.ns, "spec",
                                                 {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "recommendation"}, "minReplicas": 1, "maxReplicas": 6,
                                                  "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}}]},
                                                 t, watch=w, gen=2, extra={"status": {"currentReplicas": cur, "desiredReplicas": desired}})
    hpa(1, 1, s.t0 + timedelta(seconds=5), "ADDED")
    sched = [(3, 3, tf + timedelta(minutes=3)), (3, 5, tf + timedelta(minutes=6))]
    s.event(tf + timedelta(minutes=3), "HorizontalPodAutoscaler", "recommendation", "SuccessfulRescale", "New size: 3; reason: cpu resource utilization (percentage of request) above target", comp="horizontal-pod-autoscaler")
    s.event(tf + timedelta(minutes=6), "HorizontalPodAutoscaler", "recommendation", "SuccessfulRescale", "New size: 5; reason: cpu resource utilization (percentage of request) above target", comp="horizontal-pod-autoscaler")
    for cur, des, t in sched:
        hpa(cur, des, t, "MODIFIED")
    for i in (1, 2):
        pod_events_start(s, "recommendation", newp[i], tf + timedelta(minutes=3, seconds=2), NODES[i])
        s.obj(tf + timedelta(minutes=3, seconds=5), s.pod_obj("recommendation", newp[i], node=NODES[i], created=tf + timedelta(minutes=3)), "ADDED")
    for i in (3, 4):
        p = newp[i]
        s.event(s.end - timedelta(minutes=1), "Pod", p, "FailedScheduling",
                "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
                "Warning", comp="default-scheduler", count=14, first=tf + timedelta(minutes=6, seconds=1))
        s.event(s.end - timedelta(minutes=2), "Pod", p, "NotTriggerScaleUp",
                "pod didn't trigger scale-up: 1 node(s) didn't match pod anti-affinity rules, 2 max node group size reached",
                "Normal", comp="cluster-autoscaler", count=9, first=tf + timedelta(minutes=6, seconds=30))
        po = s.pod_obj("recommendation", p, phase="Pending", ready=False, node="", created=tf + timedelta(minutes=6),
                       extra_status={"conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                                                     "message": "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules."}]})
        po["spec"].pop("nodeName", None)
        po["spec"]["affinity"] = aff
        s.obj(tf + timedelta(minutes=6, seconds=1), po, "ADDED")
    s.obj(tf + timedelta(minutes=7), s.deployment("recommendation", gen=9, replicas=5, extra_pod={"affinity": aff}, ready=3, avail=3, updated=5), "MODIFIED")
    # harmless nearby change: the load-generator schedule and a product-catalog label
    pc = s.deployment("product-catalog", gen=4)
    pc["metadata"]["labels"]["team"] = "catalog"
    s.obj(tf - timedelta(minutes=2), pc, "MODIFIED")
    t = tf + timedelta(minutes=2)
    while t < s.end:
        s.log(t, "recommendation", "WARN", f"Receive ListRecommendations for product ids:['0PUK6V6EV0', 'LS4PSXUNUM'] took {s.rng.randint(900, 2400)}ms (worker pool saturated, 10/10 busy)", pod=newp[0])
        s.log(t + timedelta(seconds=5), "frontend", "WARN", "recommendations slow: 4 DEADLINE_EXCEEDED")
        t += timedelta(seconds=35)
    s.pods["recommendation"] = newp[:1]
    s.traffic(15)
    s.span_metrics()
    s.pods["recommendation"] = [old] + newp[:3]

    def busy(t):
        return {"cpu": 0.19 + 0.01 * s.rng.random()} if t >= tf + timedelta(minutes=2) else {"cpu": 0.06}
    s.pod_metrics({old: lambda t: {} if t < tf - timedelta(minutes=10) else None, newp[0]: lambda t: None if t < tf - timedelta(minutes=11) else busy(t),
                   newp[1]: lambda t: None if t < tf + timedelta(minutes=3) else busy(t), newp[2]: lambda t: None if t < tf + timedelta(minutes=3) else busy(t)})
    ns = s.ns
    s.alerts_at(tf + timedelta(minutes=12), [alert("RequestLatencyHigh", "warning", "recommendation", ns, tf + timedelta(minutes=5), "p95 latency of recommendation above 500ms", value=1.8),
                                             alert("KubeHpaMaxedOut", "info", "recommendation", ns, tf + timedelta(minutes=8), "HPA recommendation cannot reach its desired replicas", state="pending", extra={"horizontalpodautoscaler": "recommendation"})])
    s.alerts_at(tf + timedelta(minutes=25), [alert("RequestLatencyHigh", "warning", "recommendation", ns, tf + timedelta(minutes=5), "p95 latency of recommendation above 500ms", value=2.3),
                                             alert("RequestLatencyHigh", "warning", "frontend", ns, tf + timedelta(minutes=9), "p95 latency of frontend above 800ms", value=2.6),
                                             alert("KubePodPending", "warning", "recommendation", ns, tf + timedelta(minutes=16), "2 recommendation pods Pending for more than 10 minutes", extra={"pod": newp[3]}),
                                             alert("KubeDeploymentReplicasMismatch", "warning", "recommendation", ns, tf + timedelta(minutes=17), "Deployment otel-demo/recommendation has 3/5 available")])
    G = [grp("recommendation-deployment-1", "Deployment", ns, ["recommendation\\b"], name="recommendation", rc=True)] + svc_groups("recommendation", ns) + svc_groups("frontend", ns) + \
        [grp("recommendation-hpa-1", "HorizontalPodAutoscaler", ns, ["recommendation\\b"])]
    A = [["recommendation-deployment-1", "recommendation-service-1", "recommendation-pod-1"], ["frontend-service-1", "frontend-pod-1"]]
    P = [prop("recommendation-deployment-1", "recommendation-pod-1", "required podAntiAffinity on kubernetes.io/hostname with 3 nodes and a node group at max size", "at most 3 replicas can run; scaled replicas 4 and 5 stay Pending"),
         prop("recommendation-hpa-1", "recommendation-pod-1", "HPA asks for 5 replicas at the lunchtime load peak", "capacity stays at 3 busy replicas, CPU saturated"),
         prop("recommendation-pod-1", "recommendation-service-1", "worker pools saturated", "ListRecommendations latency 5-10x, some deadline errors"),
         prop("recommendation-service-1", "frontend-service-1", "frontend waits on recommendations", "frontend latency rises")]
    F = [{"category": "Change", "condition": "required pod anti-affinity per host limits replicas to the node count", "entity": {"group_id": "recommendation-deployment-1", "kind": "Deployment", "name": "recommendation"}, "fault_mechanism": "required-anti-affinity-too-few-nodes"}]
    AL = [galert("recommendation-service-1", "RequestLatencyHigh", "saturated"), galert("frontend-service-1", "RequestLatencyHigh", "waits on recommendations"),
          galert("recommendation-pod-1", "KubePodPending", "anti-affinity"), galert("recommendation-deployment-1", "KubeDeploymentReplicasMismatch", "3/5")]
    return s, gt_doc(s.sid, G, A, P, F, AL, True, [("prefer-anti-affinity", ["change requiredDuringScheduling to preferredDuringScheduling (or topologySpreadConstraints with ScheduleAnyway)"])])


# ============================================================================ 6 priorityClassName that does not exist (Recreate strategy)
@scenario
def sc_priorityclass_missing():
    st = {"events": "events.k8s.io", "objects": "double", "quoting": "csv", "ts": "ch", "mts": "epoch", "alerts": "webhook", "managedFields": True}
    s = Snap("Scenario-6", "otel-demo", dt(2026, 11, 21, 22, 5), 40, 16, 606, st)
    tf = s.tf
    msg = "rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial tcp %s:8080: connect: connection refused\"" % s.cluster_ip("payment")
    s.effects["payment"] = after(s, tf + timedelta(seconds=2), lambda t, c: ("down", msg))
    s.baseline_objects()
    noise_common(s, 5)
    for name, val, t, w in [("tier-1-critical", 100000, s.t0 + timedelta(seconds=3), "ADDED"), ("tier-2-standard", 10000, s.t0 + timedelta(seconds=3), "ADDED"),
                            ("tier-3-batch", 1000, tf - timedelta(minutes=7), "ADDED")]:
        b = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": s.meta("PriorityClass", name, None, labels={"platform.example/owner": "sre"}, gen=0),
             "value": val, "globalDefault": False, "preemptionPolicy": "PreemptLowerPriority", "description": f"{name} workloads"}
        s.obj(t, b, w)
    strat = {"type": "Recreate"}
    s.obj(s.t0 + timedelta(seconds=5), s.deployment("payment", gen=3, strategy=strat), "MODIFIED")
    dnew = s.deployment("payment", gen=4, strategy=strat, extra_pod={"priorityClassName": "tier1-critical"}, ready=0, avail=0, updated=0,
                        ann={"kubernetes.io/change-cause": "payment: run as tier-1 (CHG-88123)"}, mf="kubectl-edit")
    dnew["status"]["conditions"] = [{"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable", "message": "Deployment does not have minimum availability."},
                                    {"type": "ReplicaFailure", "status": "True", "reason": "FailedCreate",
                                     "message": f"pods \"{s.rsname('payment', 1)}-\" is forbidden: no PriorityClass with name tier1-critical was found"}]
    s.obj(tf, dnew, "MODIFIED")
    s.obj(tf + timedelta(minutes=12), dnew, "MODIFIED")
    old = s.pods["payment"][0]
    s.event(tf, "Deployment", "payment", "ScalingReplicaSet", f"Scaled down replica set {s.rsname('payment', 0)} from 1 to 0", comp="deployment-controller")
    s.event(tf, "Pod", old, "Killing", "Stopping container payment", host=s.node_of[old])
    s.obj(tf + timedelta(seconds=2), s.pod_obj("payment", old, ready=False), "DELETED")
    s.event(tf + timedelta(seconds=3), "Deployment", "payment", "ScalingReplicaSet", f"Scaled up replica set {s.rsname('payment', 1)} from 0 to 1", comp="deployment-controller")
    s.event(s.end - timedelta(minutes=2), "ReplicaSet", s.rsname("payment", 1), "FailedCreate",
            f"Error creating: pods \"{s.rsname('payment', 1)}-\" is forbidden: no PriorityClass with name tier1-critical was found",
            "Warning", comp="replicaset-controller", count=17, first=tf + timedelta(seconds=3))
    # unrelated restart: currency (C++) restarted by its liveness after a log-rotation stall earlier
    unrelated_restart(s, "email", tf - timedelta(minutes=12), "Puma shutting down (definition changed: OTEL_RESOURCE_ATTRIBUTES)")
    t = tf + timedelta(seconds=5)
    while t < s.end:
        s.log(t, "checkout", "ERROR", jd({"level": "error", "msg": "failed to charge card", "error": "could not charge the card: " + msg, "service": "checkout"}))
        t += timedelta(seconds=30)
    s.traffic(20)
    s.span_metrics()
    s.pod_metrics({old: lambda t: None if t >= tf else {}})
    ns = s.ns
    s.alerts_at(tf + timedelta(minutes=5), [alert("RequestErrorRate", "critical", "checkout", ns, tf + timedelta(minutes=1), "Error rate above threshold for checkout", value=1.0)])
    s.alerts_at(tf + timedelta(minutes=20), [alert("RequestErrorRate", "critical", "checkout", ns, tf + timedelta(minutes=1), "Error rate above threshold for checkout", value=1.0),
                                             alert("RequestErrorRate", "warning", "frontend", ns, tf + timedelta(minutes=2), "Error rate above threshold for frontend", value=0.2),
                                             alert("KubeDeploymentReplicasMismatch", "warning", "payment", ns, tf + timedelta(minutes=15), "Deployment otel-demo/payment has 0/1 available", extra={"deployment": "payment"})])
    G = [grp("payment-deployment-1", "Deployment", ns, ["payment\\b"], name="payment", rc=True)] + svc_groups("payment", ns) + svc_groups("checkout", ns) + svc_groups("frontend", ns) + \
        [grp("payment-rs-1", "ReplicaSet", ns, ["payment-.*"])]
    A = [["payment-deployment-1", "payment-service-1", "payment-pod-1", "payment-rs-1"], ["checkout-service-1", "checkout-pod-1"], ["frontend-service-1", "frontend-pod-1"]]
    P = [prop("payment-deployment-1", "payment-rs-1", "pod template sets priorityClassName tier1-critical; the class is named tier-1-critical", "admission refuses every new pod (FailedCreate)"),
         prop("payment-rs-1", "payment-service-1", "Recreate strategy removed the old pod first", "payment has no endpoints; connection refused"),
         prop("payment-service-1", "checkout-service-1", "checkout charges the card in PlaceOrder", "every order fails"),
         prop("checkout-service-1", "frontend-service-1", "frontend calls PlaceOrder", "frontend checkout errors")]
    F = [{"category": "Change", "condition": "priorityClassName names a PriorityClass that does not exist", "entity": {"group_id": "payment-deployment-1", "kind": "Deployment", "name": "payment"}, "fault_mechanism": "missing-priorityclass"}]
    AL = [galert("checkout-service-1", "RequestErrorRate", "charge fails"), galert("frontend-service-1", "RequestErrorRate", "checkout fails"), galert("payment-deployment-1", "KubeDeploymentReplicasMismatch", "0/1")]
    return s, gt_doc(s.sid, G, A, P, F, AL, False, [("fix-priorityclass-name", ["set priorityClassName: tier-1-critical on deployment/payment (or roll back)"])])


# ============================================================================ 7 Istio AuthorizationPolicy ALLOW that omits the real caller
@scenario
def sc_authz():
    st = {"events": "v1", "objects": "plain", "quoting": "raw", "ts": "iso", "mts": "ms", "alerts": "prom", "managedFields": True}
    s = Snap("Scenario-7", "otel-demo", dt(2026, 11, 19, 7, 45), 45, 19, 707, st)
    tf = s.tf
    s.soft = {"ad", "recommendation", "product-reviews", "image-provider", "email", "kafka"}
    s.effects["email"] = after(s, tf + timedelta(seconds=2), lambda t, c: ("down", "RBAC: access denied") if c == "checkout" else None)
    s.baseline_objects()
    noise_common(s, 6)
    pol = {"selector": {"matchLabels": {"opentelemetry.io/name": "email"}}, "action": "ALLOW",
           "rules": [{"to": [{"operation": {"methods": ["GET"], "paths": ["/healthz", "/metrics"]}}]},
                     {"from": [{"source": {"namespaces": ["monitoring"]}}]}]}
    k8s_obj(s, "security.istio.io/v1", "AuthorizationPolicy", "email-allow-internal", s.ns, "spec", pol, tf, gen=1,
            labels={"app.kubernetes.io/managed-by": "kustomize", "security.example/baseline": "v3"})
    k8s_obj(s, "security.istio.io/v1", "AuthorizationPolicy", "deny-from-sandbox", s.ns, "spec",
            {"action": "DENY", "rules": [{"from": [{"source": {"namespaces": ["payments-sandbox"]}}]}]}, s.t0 + timedelta(seconds=5), gen=1)
    k8s_obj(s, "security.istio.io/v1", "PeerAuthentication", "default", s.ns, "spec", {"mtls": {"mode": "STRICT"}}, s.t0 + timedelta(seconds=5), gen=1)
    # harmless change: cart HPA min 1 -> 2 a few minutes before, new cart pod starts
    newcart = s.podname("cart", 1)
    s.node_of[newcart] = NODES[2]
    k8s_obj(s, "autoscaling/v2", "HorizontalPodAutoscaler", "cart", s.ns, "spec",
            {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "cart"}, "minReplicas": 2, "maxReplicas": 4,
             "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 75}}}]},
            tf - timedelta(minutes=5), watch="MODIFIED", gen=3)
    s.event(tf - timedelta(minutes=5) + timedelta(seconds=15), "HorizontalPodAutoscaler", "cart", "SuccessfulRescale", "New size: 2; reason: Current number of replicas below Spec.MinReplicas", comp="horizontal-pod-autoscaler")
    pod_events_start(s, "cart", newcart, tf - timedelta(minutes=5) + timedelta(seconds=16), NODES[2])
    s.log(tf - timedelta(minutes=4, seconds=30), "cart", "INFO", "Now listening on: http://[::]:8080", pod=newcart)
    t = tf + timedelta(seconds=3)
    while t < s.end:
        s.log(t, "checkout", "WARN", f"failed to send order confirmation to \"{s.rng.choice(['someone@example.com', 'reed@example.com', 'amy@example.com'])}\": rpc error: code = PermissionDenied desc = RBAC: access denied")
        t += timedelta(seconds=25)
    s.log(tf + timedelta(minutes=3), "email", "INFO", "GET /healthz 200 (0.3ms)")
    s.traffic(20)
    s.span_metrics()
    s.pods["cart"] = s.pods["cart"] + [newcart]
    s.pod_metrics({newcart: lambda t: None if t < tf - timedelta(minutes=5) else {}})
    ns = s.ns
    s.alerts_at(tf + timedelta(minutes=10), [alert("RequestRateLow", "warning", "email", ns, tf + timedelta(minutes=3), "email receives no order confirmations", value=0.0),
                                             alert("OrderConfirmationFailures", "warning", "checkout", ns, tf + timedelta(minutes=2), "checkout cannot send order confirmation emails", value=0.33)])
    s.alerts_at(tf + timedelta(minutes=24), [alert("RequestRateLow", "warning", "email", ns, tf + timedelta(minutes=3), "email receives no order confirmations", value=0.0),
                                             alert("OrderConfirmationFailures", "warning", "checkout", ns, tf + timedelta(minutes=2), "checkout cannot send order confirmation emails", value=0.33),
                                             alert("IstioRequestsDenied", "info", "email", ns, tf + timedelta(minutes=4), "403 responses from the email sidecar", extra={"response_code": "403", "destination_workload": "email"})])
    G = [grp("authz-1", "AuthorizationPolicy", ns, ["email-allow-internal"], name="email-allow-internal", rc=True)] + svc_groups("email", ns) + svc_groups("checkout", ns)
    A = [["email-service-1", "email-pod-1"], ["checkout-service-1", "checkout-pod-1"]]
    P = [prop("authz-1", "email-pod-1", "ALLOW policy on email admits only GET /healthz,/metrics and the monitoring namespace", "the email sidecar answers 403 RBAC: access denied to checkout's POST /send_order_confirmation"),
         prop("email-pod-1", "email-service-1", "no confirmation request is admitted", "email request rate drops to zero"),
         prop("email-service-1", "checkout-service-1", "checkout sends a confirmation per order", "orders complete but confirmations fail (PermissionDenied)")]
    F = [{"category": "Change", "condition": "AuthorizationPolicy ALLOW list omits the checkout caller", "entity": {"group_id": "authz-1", "kind": "AuthorizationPolicy", "name": "email-allow-internal"}, "fault_mechanism": "istio-authorizationpolicy-deny"}]
    AL = [galert("email-service-1", "RequestRateLow", "no traffic admitted"), galert("checkout-service-1", "OrderConfirmationFailures", "403 from email"), galert("email-service-1", "IstioRequestsDenied", "sidecar 403")]
    return s, gt_doc(s.sid, G, A, P, F, AL, True, [("allow-checkout", ["add a rule allowing principal cluster.local/ns/otel-demo/sa/opentelemetry-demo POST /send_order_confirmation, or delete the policy"])])


# ============================================================================ 8 pg_hba.conf narrowed in the postgres ConfigMap
PG_HBA_OLD = """# TYPE  DATABASE  USER  ADDRESS         METHOD
local   all       all                   trust
host    all       all   127.0.0.1/32    trust
host    all       all   10.244.0.0/16   scram-sha-256
"""
PG_HBA_NEW = """# TYPE  DATABASE  USER  ADDRESS         METHOD
local   all       all                   trust
host    all       all   127.0.0.1/32    trust
# SEC-1187: restrict to app subnet
host    all       all   10.244.0.0/24   scram-sha-256
host    replication replicator 10.244.0.0/24 scram-sha-256
"""


@scenario
def sc_pg_hba():
    st = {"events": "events.k8s.io", "objects": "watch", "quoting": "csv", "ts": "ch", "mts": "epoch", "alerts": "am2"}
    s = Snap("Scenario-8", "otel-demo", dt(2026, 11, 23, 1, 20), 50, 21, 808, st)
    tf = s.tf
    acc = s.pods["accounting"][0]
    rev = s.pods["product-reviews"][0]
    pg = s.pods["postgresql"][0]
    s.node_of[acc], s.node_of[rev], s.node_of[pg] = NODES[2], NODES[0], NODES[0]
    acc_ip, rev_ip = "10.244.2.41", "10.244.0.77"
    err = f"28000: no pg_hba.conf entry for host \"{acc_ip}\", user \"otelu\", database \"otel\", no encryption"
    s.effects["postgresql"] = after(s, tf + timedelta(seconds=40), lambda t, c: ("down", "Npgsql.PostgresException: " + err) if c == "accounting" else None)
    s.soft = {"ad", "recommendation", "image-provider", "kafka"}
    s.baseline_objects(skip=("accounting", "product-reviews"))
    for d, p, ip in (("accounting", acc, acc_ip), ("product-reviews", rev, rev_ip)):
        s.obj(s.t0 + timedelta(seconds=5), s.deployment(d), "ADDED")
        po = s.pod_obj(d, p)
        po["status"]["podIP"] = ip
        s.obj(s.t0 + timedelta(seconds=6), po, "ADDED")
    noise_common(s, 7)
    cm = lambda data, t, w, gen: k8s_obj(s, "v1", "ConfigMap", "postgresql-config", s.ns, "data", data, t, watch=w, gen=0,
                                         labels={"app.kubernetes.io/name": "postgresql", "app.kubernetes.io/part-of": "opentelemetry-demo"})
    cm({"pg_hba.conf": PG_HBA_OLD, "postgresql.conf": "listen_addresses = '*'\nmax_connections = 100\nshared_buffers = 128MB\n"}, s.t0 + timedelta(seconds=5), "ADDED", 0)
    cm({"pg_hba.conf": PG_HBA_NEW, "postgresql.conf": "listen_addresses = '*'\nmax_connections = 100\nshared_buffers = 128MB\n"}, tf, "MODIFIED", 1)
    # the config-reloader sidecar signals postgres
    s.log(tf + timedelta(seconds=38), "postgresql", "INFO", "config-reloader: /etc/postgresql/pg_hba.conf changed, sending SIGHUP to postmaster", pod=pg)
    s.log(tf + timedelta(seconds=38, milliseconds=200), "postgresql", "INFO", "2026-11-23 01:41:38.212 UTC [1] LOG:  received SIGHUP, reloading configuration files", pod=pg)
    t = tf + timedelta(seconds=45)
    while t < s.end:
        s.log(t, "postgresql", "FATAL", f"{t.strftime('%Y-%m-%d %H:%M:%S')}.{t.microsecond // 1000:03d} UTC [{s.rng.randint(3000, 9000)}] FATAL:  no pg_hba.conf entry for host \"{acc_ip}\", user \"otelu\", database \"otel\", no encryption", pod=pg)
        s.log(t + timedelta(milliseconds=30), "accounting", "ERROR", jd({"Timestamp": iso(t, True), "Level": "Error", "MessageTemplate": "Order processing failed for {OrderId}", "Exception": "Npgsql.PostgresException (0x80004005): " + err, "OrderId": uid(t.isoformat())}))
        t += timedelta(seconds=20)
    # unrelated: product-reviews restarted earlier by a rollout of a new model endpoint env
    unrelated_restart(s, "product-reviews", tf - timedelta(minutes=16), "Shutting down gRPC server (definition changed: LLM_BASE_URL)")
    # another namespace: a harmless postgres-exporter ConfigMap edit
    k8s_obj(s, "v1", "ConfigMap", "postgres-exporter-queries", "monitoring", "data", {"queries.yaml": "pg_stat_activity: {}\n"}, tf - timedelta(minutes=3), watch="MODIFIED", gen=0)
    s.traffic(20)
    s.span_metrics()
    s.pod_metrics()
    ns = s.ns
    s.alerts_at(tf + timedelta(minutes=9), [alert("KafkaConsumerLagHigh", "warning", "accounting", ns, tf + timedelta(minutes=5), "consumer group accounting lag above 200 on topic orders", extra={"consumergroup": "accounting", "topic": "orders"}, value=240)])
    s.alerts_at(tf + timedelta(minutes=25), [alert("KafkaConsumerLagHigh", "warning", "accounting", ns, tf + timedelta(minutes=5), "consumer group accounting lag above 200 on topic orders", extra={"consumergroup": "accounting", "topic": "orders"}, value=910),
                                             alert("NoDatabaseOperations", "critical", "accounting", ns, tf + timedelta(minutes=6), "accounting performs no database operations"),
                                             alert("PostgresAuthFailures", "warning", "postgresql", ns, tf + timedelta(minutes=8), "postgres rejects connections", extra={"instance": "postgresql:9187"})])
    G = [grp("pg-config-1", "ConfigMap", ns, ["postgresql-config"], name="postgresql-config", rc=True)] + svc_groups("postgresql", ns) + svc_groups("accounting", ns)
    A = [["postgresql-service-1", "postgresql-pod-1"], ["accounting-service-1", "accounting-pod-1"]]
    P = [prop("pg-config-1", "postgresql-pod-1", "pg_hba.conf narrowed from 10.244.0.0/16 to 10.244.0.0/24 and reloaded by SIGHUP", "postgres rejects clients outside node 1's pod CIDR"),
         prop("postgresql-pod-1", "accounting-pod-1", "accounting runs on another node (10.244.2.41)", "every accounting connection fails: no pg_hba.conf entry"),
         prop("accounting-pod-1", "accounting-service-1", "orders cannot be stored", "no database operations; kafka consumer lag grows")]
    F = [{"category": "Change", "condition": "pg_hba.conf host rule narrowed to one node's pod subnet", "entity": {"group_id": "pg-config-1", "kind": "ConfigMap", "name": "postgresql-config"}, "fault_mechanism": "pg-hba-narrowed"}]
    AL = [galert("accounting-service-1", "KafkaConsumerLagHigh", "cannot store orders"), galert("accounting-service-1", "NoDatabaseOperations", "auth rejected"), galert("postgresql-service-1", "PostgresAuthFailures", "rejections")]
    return s, gt_doc(s.sid, G, A, P, F, AL, False, [("restore-hba", ["restore host all all 10.244.0.0/16 scram-sha-256 in postgresql-config", "SELECT pg_reload_conf()"])])


# ============================================================================ 9 kafka broker message.max.bytes lowered
@scenario
def sc_kafka_msgmax():
    st = {"events": "v1", "objects": "double", "quoting": "csv", "ts": "iso", "mts": "iso", "alerts": "prom", "orphan": {"fraud-detection"}}
    s = Snap("Scenario-9", "otel-demo", dt(2026, 11, 25, 13, 5), 45, 17, 909, st)
    tf = s.tf
    s.soft = {"ad", "recommendation", "product-reviews", "image-provider", "kafka"}
    tr = tf + timedelta(seconds=70)  # kafka back up with the new setting
    emsg = "kafka: Failed to produce message to topic orders: kafka server: Message was too large, server rejected it to avoid allocation error"
    s.effects["kafka"] = after(s, tf, lambda t, c: ("error", "kafka: client has run out of available brokers to talk to: dial tcp: connect: connection refused", 3000.0) if t < tr else ("error", emsg, 4.0))
    s.effects["accounting"] = after(s, tf, lambda t, c: ("down", ""))
    s.effects["fraud-detection"] = after(s, tf, lambda t, c: ("down", ""))
    s.baseline_objects(skip=("kafka",))
    noise_common(s, 8)
    env_old = [{"name": "KAFKA_PROCESS_ROLES", "value": "broker,controller"}, {"name": "KAFKA_LISTENERS", "value": "PLAINTEXT://:9092,CONTROLLER://:9093"},
               {"name": "KAFKA_HEAP_OPTS", "value": "-Xmx400M -Xms400M"}]
    env_new = env_old + [{"name": "KAFKA_MESSAGE_MAX_BYTES", "value": "512"}, {"name": "KAFKA_LOG_RETENTION_BYTES", "value": "1073741824"}]
    s.obj(s.t0 + timedelta(seconds=5), s.deployment("kafka", gen=2, env=env_old, strategy={"type": "Recreate"}), "ADDED")
    s.obj(tf, s.deployment("kafka", gen=3, env=env_new, strategy={"type": "Recreate"}, ann={"kubernetes.io/change-cause": "kafka: cap log size on small cluster (COST-311)"}, ready=0, avail=0), "MODIFIED")
    s.obj(tf + timedelta(minutes=2), s.deployment("kafka", gen=3, env=env_new, strategy={"type": "Recreate"}), "MODIFIED")
    old = s.pods["kafka"][0]
    new = s.podname("kafka", 1)
    s.node_of[new] = s.node_of[old]
    s.event(tf, "Deployment", "kafka", "ScalingReplicaSet", f"Scaled down replica set {s.rsname('kafka', 0)} from 1 to 0", comp="deployment-controller")
    s.event(tf, "Pod", old, "Killing", "Stopping container kafka", host=s.node_of[old])
    s.event(tf + timedelta(seconds=20), "Deployment", "kafka", "ScalingReplicaSet", f"Scaled up replica set {s.rsname('kafka', 1)} from 0 to 1", comp="deployment-controller")
    pod_events_start(s, "kafka", new, tf + timedelta(seconds=21), s.node_of[new])
    s.obj(tf + timedelta(seconds=20), s.pod_obj("kafka", old, ready=False), "DELETED")
    s.obj(tf + timedelta(seconds=25), s.pod_obj("kafka", new, node=s.node_of[new], created=tf + timedelta(seconds=21)), "ADDED")
    s.log(tf + timedelta(seconds=40), "kafka", "INFO", "[2026-11-25 13:22:40,118] INFO KafkaConfig values: ... message.max.bytes = 512 ... (kafka.server.KafkaConfig)", pod=new)
    s.log(tf + timedelta(seconds=68), "kafka", "INFO", "[2026-11-25 13:23:08,002] INFO [KafkaRaftServer nodeId=1] Kafka Server started (kafka.server.KafkaRaftServer)", pod=new)
    t = tf + timedelta(seconds=5)
    while t < tr:
        s.log(t, "checkout", "ERROR", "Failed to send message to Kafka: kafka: client has run out of available brokers to talk to")
        s.log(t + timedelta(seconds=1), "accounting", "WARN", "Connection to node 1 (kafka/10.96.40.12:9092) could not be established. Node may not be available.")
        t += timedelta(seconds=10)
    while t < s.end:
        s.log(t, "checkout", "ERROR", jd({"level": "error", "msg": "Failed to send message to Kafka", "error": emsg, "topic": "orders", "size": s.rng.randint(560, 1900)}))
        s.log(t + timedelta(seconds=2), "kafka", "INFO", f"[{t.strftime('%Y-%m-%d %H:%M:%S')},{t.microsecond // 1000:03d}] INFO [ProduceRequest] Rejected record batch for orders-0: RecordBatchTooLargeException (size {s.rng.randint(600, 1900)} > 512)", pod=new)
        t += timedelta(seconds=20)
    # unrelated earlier restart: frontend (Next.js) rolled for a new build
    unrelated_restart(s, "frontend", tf - timedelta(minutes=13), "Next.js server received SIGTERM (definition changed: image tag 2.0.2)")
    s.traffic(20)
    s.span_metrics()
    s.pods["kafka"] = [old, new]
    s.pod_metrics({old: lambda t: None if t >= tf else {}, new: lambda t: None if t < tf + timedelta(seconds=21) else {}})
    ns = s.ns
    s.alerts_at(tf + timedelta(minutes=6), [alert("KafkaConsumerNoMessages", "warning", "accounting", ns, tf + timedelta(minutes=3), "accounting consumed no orders for 3 minutes"),
                                            alert("KafkaConsumerNoMessages", "warning", "fraud-detection", ns, tf + timedelta(minutes=3), "fraud-detection consumed no orders for 3 minutes")])
    s.alerts_at(tf + timedelta(minutes=20), [alert("KafkaConsumerNoMessages", "warning", "accounting", ns, tf + timedelta(minutes=3), "accounting consumed no orders for 3 minutes"),
                                             alert("KafkaConsumerNoMessages", "warning", "fraud-detection", ns, tf + timedelta(minutes=3), "fraud-detection consumed no orders for 3 minutes"),
                                             alert("NoDatabaseOperations", "warning", "accounting", ns, tf + timedelta(minutes=8), "accounting performs no database operations"),
                                             alert("KafkaProduceErrors", "warning", "checkout", ns, tf + timedelta(minutes=4), "checkout fails to publish to orders", value=1.0)])
    G = [grp("kafka-deployment-1", "Deployment", ns, ["kafka\\b"], name="kafka", rc=True)] + svc_groups("kafka", ns) + svc_groups("checkout", ns) + svc_groups("accounting", ns) + svc_groups("fraud-detection", ns)
    A = [["kafka-deployment-1", "kafka-service-1", "kafka-pod-1"], ["checkout-service-1", "checkout-pod-1"], ["accounting-service-1", "accounting-pod-1"], ["fraud-detection-service-1", "fraud-detection-pod-1"]]
    P = [prop("kafka-deployment-1", "kafka-pod-1", "env KAFKA_MESSAGE_MAX_BYTES=512 added (with a retention cap) and the broker recreated", "broker rejects every order record batch larger than 512 bytes"),
         prop("kafka-pod-1", "checkout-service-1", "checkout publishes each order to topic orders", "produce fails: Message was too large"),
         prop("kafka-service-1", "accounting-service-1", "no order reaches the topic", "accounting consumes nothing, no database operations"),
         prop("kafka-service-1", "fraud-detection-service-1", "no order reaches the topic", "fraud-detection consumes nothing")]
    F = [{"category": "Change", "condition": "broker message.max.bytes lowered below the size of an order", "entity": {"group_id": "kafka-deployment-1", "kind": "Deployment", "name": "kafka"}, "fault_mechanism": "kafka-message-max-bytes"}]
    AL = [galert("accounting-service-1", "KafkaConsumerNoMessages", "no orders"), galert("fraud-detection-service-1", "KafkaConsumerNoMessages", "no orders"),
          galert("accounting-service-1", "NoDatabaseOperations", "no orders"), galert("checkout-service-1", "KafkaProduceErrors", "record too large")]
    return s, gt_doc(s.sid, G, A, P, F, AL, True, [("restore-message-max", ["remove KAFKA_MESSAGE_MAX_BYTES from deployment/kafka (default 1048588)"])])


# ============================================================================ 10 image-provider: capabilities dropped, nginx cannot chown/setgid
@scenario
def sc_caps_drop():
    st = {"events": "events.k8s.io", "objects": "plain", "quoting": "raw", "ts": "ch", "mts": "ms", "alerts": "webhook"}
    s = Snap("Scenario-10", "otel-demo", dt(2026, 11, 22, 10, 0), 40, 14, 1010, st)
    tf = s.tf
    s.soft = {"ad", "recommendation", "product-reviews"}
    s.effects["image-provider"] = after(s, tf + timedelta(seconds=2), lambda t, c: ("down", "upstream connect error or disconnect/reset before headers. reset reason: connection failure, transport failure reason: delayed connect error: 111"))
    s.baseline_objects(skip=("image-provider",))
    noise_common(s, 9)
    sc_new = {"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"]}, "seccompProfile": {"type": "RuntimeDefault"}}
    s.obj(s.t0 + timedelta(seconds=5), s.deployment("image-provider", gen=2, strategy={"type": "Recreate"}), "ADDED")
    dnew = s.deployment("image-provider", gen=3, strategy={"type": "Recreate"}, extra_container={"securityContext": sc_new}, ready=0, avail=0,
                        ann={"kubernetes.io/change-cause": "harden: drop all capabilities (Kyverno restricted baseline, SEC-2040)"})
    s.obj(tf, dnew, "MODIFIED")
    s.obj(tf + timedelta(minutes=15), dnew, "MODIFIED")
    # the same hardening was applied to quote at the same time and is harmless there
    s.obj(tf - timedelta(seconds=40), s.deployment("quote", gen=4, extra_container={"securityContext": sc_new},
                                                    ann={"kubernetes.io/change-cause": "harden: drop all capabilities (Kyverno restricted baseline, SEC-2040)"}), "MODIFIED")
    qo, qn = s.pods["quote"][0], s.podname("quote", 1)
    s.node_of[qn] = s.node_of[qo]
    rollout_events(s, "quote", s.rsname("quote", 0), s.rsname("quote", 1), tf - timedelta(seconds=40))
    pod_events_start(s, "quote", qn, tf - timedelta(seconds=39), s.node_of[qn])
    s.event(tf - timedelta(seconds=25), "Pod", qo, "Killing", "Stopping container quote", host=s.node_of[qo])
    s.log(tf - timedelta(seconds=30), "quote", "INFO", "[Wed Nov 22 10:13:30 2026] PHP 8.3 Development Server (http://0.0.0.0:8080) started", pod=qn)
    old, new = s.pods["image-provider"][0], s.podname("image-provider", 1)
    node = s.node_of[old]
    s.node_of[new] = node
    s.event(tf, "Deployment", "image-provider", "ScalingReplicaSet", f"Scaled down replica set {s.rsname('image-provider', 0)} from 1 to 0", comp="deployment-controller")
    s.event(tf, "Pod", old, "Killing", "Stopping container image-provider", host=node)
    s.obj(tf + timedelta(seconds=1), s.pod_obj("image-provider", old, ready=False), "DELETED")
    s.event(tf + timedelta(seconds=2), "Deployment", "image-provider", "ScalingReplicaSet", f"Scaled up replica set {s.rsname('image-provider', 1)} from 0 to 1", comp="deployment-controller")
    pod_events_start(s, "image-provider", new, tf + timedelta(seconds=2), node)
    t, n = tf + timedelta(seconds=6), 0
    while t < s.end:
        s.log(t, "image-provider", "ERROR", "/docker-entrypoint.sh: Configuration complete; ready for start up", pod=new) if False else None
        s.log(t, "image-provider", "ERROR", "2026/11/22 %s [emerg] 1#1: chown(\"/var/cache/nginx/client_temp\", 101) failed (1: Operation not permitted)" % t.strftime("%H:%M:%S"), pod=new)
        s.log(t, "image-provider", "ERROR", "nginx: [emerg] chown(\"/var/cache/nginx/client_temp\", 101) failed (1: Operation not permitted)", pod=new)
        n += 1
        back = min(10 * 2 ** (n - 1), 300)
        t += timedelta(seconds=back + 1)
    s.event(s.end - timedelta(minutes=1), "Pod", new, "BackOff", f"Back-off restarting failed container image-provider in pod {new}_{s.ns}({uid(new)})", "Warning", host=node, count=n, first=tf + timedelta(seconds=20))
    po = s.pod_obj("image-provider", new, ready=False, restarts=n, node=node, created=tf + timedelta(seconds=2),
                   waiting={"reason": "CrashLoopBackOff", "message": f"back-off 5m0s restarting failed container=image-provider pod={new}"},
                   terminated={"exitCode": 1, "reason": "Error", "startedAt": iso(tf + timedelta(minutes=10)), "finishedAt": iso(tf + timedelta(minutes=10))})
    s.obj(tf + timedelta(seconds=3), po, "ADDED")
    s.obj(tf + timedelta(minutes=14), po, "MODIFIED")
    t = tf + timedelta(seconds=4)
    while t < s.end:
        s.log(t, "frontend-proxy", "WARN", f"[{iso(t, True)}] \"GET /images/products/{s.rng.choice(['SolarFilter.jpg', 'RoofBinoculars.jpg', 'LensCleaningKit.jpg'])} HTTP/1.1\" 503 UF,URX upstream_reset_before_response_started{{connection_failure}} - \"image-provider:8081\"")
        t += timedelta(seconds=20)
    s.traffic(20)
    s.span_metrics()
    s.pods["image-provider"] = [old, new]
    s.pods["quote"] = [qo, qn]
    s.pod_metrics({old: lambda t: None if t >= tf else {}, new: lambda t: None if t < tf else {"cpu": 0.0, "mem": 2e6, "restarts": int((t - tf).total_seconds() // 150)},
                   qo: lambda t: None if t >= tf - timedelta(seconds=25) else {}, qn: lambda t: None if t < tf - timedelta(seconds=39) else {}})
    ns = s.ns
    s.alerts_at(tf + timedelta(minutes=6), [alert("RequestErrorRate", "warning", "frontend-proxy", ns, tf + timedelta(minutes=1), "Error rate above threshold for frontend-proxy", value=0.16)])
    s.alerts_at(tf + timedelta(minutes=21), [alert("RequestErrorRate", "warning", "frontend-proxy", ns, tf + timedelta(minutes=1), "Error rate above threshold for frontend-proxy", value=0.17),
                                             alert("KubePodCrashLooping", "warning", "image-provider", ns, tf + timedelta(minutes=5), f"Pod {ns}/{new} (image-provider) is in waiting state (reason: \"CrashLoopBackOff\").", extra={"pod": new}),
                                             alert("KubeDeploymentReplicasMismatch", "warning", "image-provider", ns, tf + timedelta(minutes=15), "Deployment otel-demo/image-provider has 0/1 available")])
    G = [grp("image-provider-deployment-1", "Deployment", ns, ["image-provider\\b"], name="image-provider", rc=True)] + svc_groups("image-provider", ns) + svc_groups("frontend-proxy", ns)
    A = [["image-provider-deployment-1", "image-provider-service-1", "image-provider-pod-1"], ["frontend-proxy-service-1", "frontend-proxy-pod-1"]]
    P = [prop("image-provider-deployment-1", "image-provider-pod-1", "container securityContext drops ALL capabilities while nginx starts as root and chowns its cache dirs", "nginx exits at start (chown ... Operation not permitted), CrashLoopBackOff"),
         prop("image-provider-pod-1", "image-provider-service-1", "Recreate strategy removed the old pod", "no endpoint for image-provider"),
         prop("image-provider-service-1", "frontend-proxy-service-1", "frontend-proxy routes /images to image-provider", "503 UF on every product image")]
    F = [{"category": "Change", "condition": "securityContext capabilities drop ALL on an nginx image that needs CHOWN/SETUID/SETGID", "entity": {"group_id": "image-provider-deployment-1", "kind": "Deployment", "name": "image-provider"}, "fault_mechanism": "capabilities-dropped"}]
    AL = [galert("frontend-proxy-service-1", "RequestErrorRate", "images 503"), galert("image-provider-pod-1", "KubePodCrashLooping", "nginx emerg"), galert("image-provider-deployment-1", "KubeDeploymentReplicasMismatch", "0/1")]
    return s, gt_doc(s.sid, G, A, P, F, AL, False, [("add-caps", ["add capabilities CHOWN, SETUID, SETGID (or use nginx-unprivileged)", "kubectl rollout undo deployment/image-provider"])])


# ============================================================================ 11 checkout hostAliases pins payment to a stale IP
@scenario
def sc_hostaliases():
    st = {"events": "v1", "objects": "watch", "quoting": "csv", "ts": "iso", "mts": "epoch", "alerts": "am2", "managedFields": True}
    s = Snap("Scenario-11", "astronomy-shop", dt(2026, 11, 28, 18, 25), 45, 18, 1111, st)
    tf = s.tf
    stale = "10.96.201.44"
    msg = f"rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial tcp {stale}:8080: i/o timeout\""
    s.effects["payment"] = after(s, tf + timedelta(seconds=25), lambda t, c: ("error", msg, 20000.0) if False else ("down", msg) if c == "checkout" else None)
    s.effects["checkout"] = after(s, tf + timedelta(seconds=25), lambda t, c: ("lat", 700 + 300 * s.rng.random()))
    s.baseline_objects(skip=("checkout",))
    noise_common(s, 10)
    s.obj(s.t0 + timedelta(seconds=5), s.deployment("checkout", gen=6), "ADDED")
    ha = [{"ip": stale, "hostnames": ["payment", f"payment.{s.ns}.svc.cluster.local"]}]
    s.obj(tf, s.deployment("checkout", gen=7, extra_pod={"hostAliases": ha}, ann={"kubernetes.io/change-cause": "debug: route payment to canary pod (temporary)"}), "MODIFIED")
    old, new = s.pods["checkout"][0], s.podname("checkout", 1)
    s.node_of[new] = NODES[1]
    rollout_events(s, "checkout", s.rsname("checkout", 0), s.rsname("checkout", 1), tf)
    pod_events_start(s, "checkout", new, tf + timedelta(seconds=1), NODES[1])
    s.event(tf + timedelta(seconds=20), "Deployment", "checkout", "ScalingReplicaSet", f"Scaled down replica set {s.rsname('checkout', 0)} from 1 to 0", comp="deployment-controller")
    s.event(tf + timedelta(seconds=20), "Pod", old, "Killing", "Stopping container checkout", host=s.node_of[old])
    po = s.pod_obj("checkout", new, node=NODES[1], created=tf + timedelta(seconds=1), spec_extra={"hostAliases": ha})
    s.obj(tf + timedelta(seconds=5), po, "ADDED")
    s.obj(tf + timedelta(seconds=21), s.pod_obj("checkout", old, ready=False), "DELETED")
    s.log(tf + timedelta(seconds=12), "checkout", "INFO", "service config: {ProductCatalogAddr:product-catalog:8080 PaymentAddr:payment:8080 ShippingAddr:shipping:8080 EmailAddr:http://email:8080}", pod=new)
    # distractor: payment was canaried an hour earlier; the canary is already gone, payment itself is healthy
    s.event(s.t0 + timedelta(minutes=2), "Deployment", "payment-canary", "ScalingReplicaSet", "Scaled down replica set payment-canary-7f6d9c8b5 from 1 to 0", comp="deployment-controller")
    s.obj(s.t0 + timedelta(minutes=2), {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": s.meta("Deployment", "payment-canary", s.ns, gen=3),
                                        "spec": {"replicas": 0, "selector": {"matchLabels": {"app": "payment-canary"}}, "template": {"metadata": {"labels": {"app": "payment-canary"}}, "spec": {"containers": [{"name": "payment", "image": "ghcr.io/open-telemetry/demo:2.0.3-rc1-payment"}]}}},
                                        "status": {"replicas": 0}}, "MODIFIED")
    t = tf + timedelta(seconds=30)
    while t < s.end:
        s.log(t, "checkout", "ERROR", jd({"level": "error", "msg": "failed to charge card", "error": "could not charge the card: " + msg}), pod=new)
        s.log(t + timedelta(seconds=3), "payment", "INFO", "GET /health 200")
        t += timedelta(seconds=30)
    s.pods["checkout"] = [new] if True else None
    # before tf the old pod serves
    s.pods["checkout"] = [old]
    s.end, real_end = tf + timedelta(seconds=25), s.end
    s.traffic(20)
    s.pods["checkout"] = [new]
    s.t0, real_t0 = tf + timedelta(seconds=25), s.t0
    s.end = real_end
    s.traffic(20)
    s.t0 = real_t0
    s.span_metrics()
    s.pods["checkout"] = [old, new]
    s.pod_metrics({old: lambda t: None if t >= tf + timedelta(seconds=20) else {}, new: lambda t: None if t < tf else {}})
    ns = s.ns
    s.alerts_at(tf + timedelta(minutes=5), [alert("RequestErrorRate", "critical", "checkout", ns, tf + timedelta(minutes=1), "Error rate above threshold for checkout", value=1.0),
                                            alert("RequestRateLow", "warning", "payment", ns, tf + timedelta(minutes=2), "payment request rate dropped to zero", value=0.0)])
    s.alerts_at(tf + timedelta(minutes=22), [alert("RequestErrorRate", "critical", "checkout", ns, tf + timedelta(minutes=1), "Error rate above threshold for checkout", value=1.0),
                                             alert("RequestRateLow", "warning", "payment", ns, tf + timedelta(minutes=2), "payment request rate dropped to zero", value=0.0),
                                             alert("RequestLatencyHigh", "warning", "frontend", ns, tf + timedelta(minutes=3), "p95 latency of frontend checkout above 5s", value=20.1),
                                             alert("RequestErrorRate", "warning", "frontend-proxy", ns, tf + timedelta(minutes=4), "Error rate above threshold for frontend-proxy", value=0.14)])
    G = [grp("checkout-deployment-1", "Deployment", ns, ["checkout\\b"], name="checkout", rc=True)] + svc_groups("checkout", ns) + svc_groups("payment", ns) + svc_groups("frontend", ns) + svc_groups("frontend-proxy", ns)
    A = [["checkout-deployment-1", "checkout-service-1", "checkout-pod-1"], ["payment-service-1", "payment-pod-1"], ["frontend-service-1", "frontend-pod-1"], ["frontend-proxy-service-1", "frontend-proxy-pod-1"]]
    P = [prop("checkout-deployment-1", "checkout-pod-1", "hostAliases pins payment and payment.astronomy-shop.svc.cluster.local to 10.96.201.44 (a removed canary)", "the new checkout pod resolves payment from /etc/hosts to a dead address"),
         prop("checkout-pod-1", "payment-service-1", "Charge calls never reach payment", "payment request rate drops to zero"),
         prop("checkout-pod-1", "checkout-service-1", "dial i/o timeout on every Charge", "PlaceOrder fails"),
         prop("checkout-service-1", "frontend-service-1", "frontend calls PlaceOrder", "frontend checkout errors and latency"),
         prop("frontend-service-1", "frontend-proxy-service-1", "edge", "error rate at the edge")]
    F = [{"category": "Change", "condition": "pod template hostAliases override the payment Service name with a stale IP", "entity": {"group_id": "checkout-deployment-1", "kind": "Deployment", "name": "checkout"}, "fault_mechanism": "hostaliases-stale-ip"}]
    AL = [galert("checkout-service-1", "RequestErrorRate", "charge fails"), galert("payment-service-1", "RequestRateLow", "no traffic"), galert("frontend-service-1", "RequestLatencyHigh", "timeouts"), galert("frontend-proxy-service-1", "RequestErrorRate", "edge")]
    return s, gt_doc(s.sid, G, A, P, F, AL, True, [("remove-hostaliases", ["remove spec.template.spec.hostAliases from deployment/checkout (or rollout undo)"])])


# ============================================================================ 12 frontend-proxy: unsafe sysctl, new pods SysctlForbidden
@scenario
def sc_sysctl():
    st = {"events": "events.k8s.io", "objects": "double", "quoting": "csv", "ts": "ch", "mts": "iso", "alerts": "prom", "orphan": {"frontend"}}
    s = Snap("Scenario-12", "otel-demo", dt(2026, 11, 26, 19, 0), 45, 17, 1212, st)
    tf = s.tf
    a, b = s.podname("frontend-proxy", 0), s.podname("frontend-proxy", 9)
    s.pods["frontend-proxy"] = [a, b]
    s.node_of[a], s.node_of[b] = NODES[0], NODES[1]

    def fp(t, c):
        if t < tf + timedelta(seconds=5):
            return None
        if s.rng.random() < 0.07:
            return ("error", "upstream overflow: max pending requests exceeded (503 UO)", 1.0)
        return ("lat", 25 + 20 * s.rng.random())
    s.effects["frontend-proxy"] = fp
    s.baseline_objects(skip=("frontend-proxy",))
    noise_common(s, 11)
    strat = {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 1}}
    s.obj(s.t0 + timedelta(seconds=5), s.deployment("frontend-proxy", gen=4, replicas=2, strategy=strat), "ADDED")
    for p in (a, b):
        s.obj(s.t0 + timedelta(seconds=6), s.pod_obj("frontend-proxy", p, node=s.node_of[p]), "ADDED")
    sysc = {"securityContext": {"sysctls": [{"name": "net.core.somaxconn", "value": "4096"}, {"name": "net.ipv4.ip_local_port_range", "value": "1024 65000"}]}}
    dnew = s.deployment("frontend-proxy", gen=5, replicas=2, strategy=strat, extra_pod=sysc, ready=1, avail=1, updated=1,
                        ann={"kubernetes.io/change-cause": "envoy: raise listen backlog for Black Friday (PERF-77)"})
    s.obj(tf, dnew, "MODIFIED")
    s.obj(tf + timedelta(minutes=15), dnew, "MODIFIED")
    s.event(tf, "Deployment", "frontend-proxy", "ScalingReplicaSet", f"Scaled down replica set {s.rsname('frontend-proxy', 0)} from 2 to 1", comp="deployment-controller")
    s.event(tf, "Pod", b, "Killing", "Stopping container frontend-proxy", host=NODES[1])
    s.obj(tf + timedelta(seconds=3), s.pod_obj("frontend-proxy", b, ready=False, node=NODES[1]), "DELETED")
    s.event(tf + timedelta(seconds=1), "Deployment", "frontend-proxy", "ScalingReplicaSet", f"Scaled up replica set {s.rsname('frontend-proxy', 1)} from 0 to 1", comp="deployment-controller")
    t, i = tf + timedelta(seconds=2), 0
    rs = s.rsname("frontend-proxy", 1)
    while t < s.end:
        p = f"{rs}-{h(s.sid, 'fp-storm', i, n=5)}"
        n = NODES[(i + 1) % 3]
        s.event(t, "Pod", p, "Scheduled", f"Successfully assigned {s.ns}/{p} to {n}", comp="default-scheduler")
        s.event(t + timedelta(seconds=1), "Pod", p, "SysctlForbidden", "forbidden sysctl: \"net.core.somaxconn\" not allowlisted", "Warning", host=n)
        po = s.pod_obj("frontend-proxy", p, phase="Failed", ready=False, node=n, created=t, spec_extra=sysc,
                       extra_status={"reason": "SysctlForbidden", "message": "Pod forbidden sysctl: \"net.core.somaxconn\" not allowlisted"})
        po["status"].pop("containerStatuses", None)
        s.obj(t + timedelta(seconds=1), po, "ADDED")
        if i % 4 == 0:
            s.obj(t + timedelta(seconds=50), po, "DELETED")
        s.event(t, "ReplicaSet", rs, "SuccessfulCreate", f"Created pod: {p}", comp="replicaset-controller")
        i += 1
        t += timedelta(seconds=20 + (i % 3) * 5)
    # harmless: flagd-ui restarted for a new image the same hour
    unrelated_restart(s, "flagd", tf - timedelta(minutes=7), "flagd: shutting down (definition changed: sidecar flagd-ui 0.1.3)")
    t = tf + timedelta(seconds=10)
    while t < s.end:
        s.log(t, "frontend-proxy", "WARN", f"[{iso(t, True)}] \"GET / HTTP/1.1\" 503 UO upstream_reset_before_response_started{{overflow}} - \"frontend:8080\"", pod=a)
        s.log(t + timedelta(seconds=4), "load-generator", "WARN", "GET / took 4187 ms")
        t += timedelta(seconds=25)
    s.pods["frontend-proxy"] = [a]
    s.end, real_end = tf, s.end
    s.pods["frontend-proxy"] = [b]
    s.traffic(40)
    s.pods["frontend-proxy"] = [a]
    s.traffic(40)
    s.t0, real_t0 = tf, s.t0
    s.end = real_end
    s.traffic(20)
    s.t0 = real_t0
    s.span_metrics()
    s.pods["frontend-proxy"] = [a, b]
    s.pod_metrics({a: lambda t: {"cpu": 0.98} if t >= tf else {}, b: lambda t: None if t >= tf else {}})
    ns = s.ns
    s.alerts_at(tf + timedelta(minutes=7), [alert("RequestLatencyHigh", "warning", "frontend-proxy", ns, tf + timedelta(minutes=2), "p95 latency at the edge above 1s", value=1.6)])
    s.alerts_at(tf + timedelta(minutes=22), [alert("RequestLatencyHigh", "warning", "frontend-proxy", ns, tf + timedelta(minutes=2), "p95 latency at the edge above 1s", value=1.9),
                                             alert("RequestErrorRate", "warning", "frontend-proxy", ns, tf + timedelta(minutes=5), "Error rate above threshold for frontend-proxy", value=0.07),
                                             alert("KubeDeploymentReplicasMismatch", "warning", "frontend-proxy", ns, tf + timedelta(minutes=15), "Deployment otel-demo/frontend-proxy has 1/2 available"),
                                             alert("CPUThrottlingHigh", "info", "frontend-proxy", ns, tf + timedelta(minutes=6), f"{a} is throttled", extra={"pod": a})])
    G = [grp("frontend-proxy-deployment-1", "Deployment", ns, ["frontend-proxy\\b"], name="frontend-proxy", rc=True)] + svc_groups("frontend-proxy", ns) + [grp("frontend-proxy-rs-1", "ReplicaSet", ns, ["frontend-proxy-.*"])]
    A = [["frontend-proxy-deployment-1", "frontend-proxy-service-1", "frontend-proxy-pod-1", "frontend-proxy-rs-1"]]
    P = [prop("frontend-proxy-deployment-1", "frontend-proxy-rs-1", "pod template adds the unsafe sysctl net.core.somaxconn, not allowlisted on the kubelets", "every new pod is rejected by the kubelet (SysctlForbidden) and replaced in a loop"),
         prop("frontend-proxy-rs-1", "frontend-proxy-service-1", "maxUnavailable 1 removed one of two old pods first", "one pod carries all edge traffic"),
         prop("frontend-proxy-service-1", "frontend-proxy-service-1", "single pod saturated", "latency 3-5x and 503 UO overflow")]
    F = [{"category": "Change", "condition": "pod securityContext sets a sysctl the kubelet forbids", "entity": {"group_id": "frontend-proxy-deployment-1", "kind": "Deployment", "name": "frontend-proxy"}, "fault_mechanism": "forbidden-sysctl"}]
    AL = [galert("frontend-proxy-service-1", "RequestLatencyHigh", "half capacity"), galert("frontend-proxy-service-1", "RequestErrorRate", "overflow"),
          galert("frontend-proxy-deployment-1", "KubeDeploymentReplicasMismatch", "1/2"), galert("frontend-proxy-pod-1", "CPUThrottlingHigh", "single pod")]
    return s, gt_doc(s.sid, G, A, P, F, AL, False, [("drop-sysctl", ["remove net.core.somaxconn from the pod securityContext (or allow it with --allowed-unsafe-sysctls)", "kubectl rollout undo deployment/frontend-proxy"])])


# ============================================================================ 13 a schema-migration Job holds a table lock
@scenario
def sc_migration_lock():
    st = {"events": "v1", "objects": "plain", "quoting": "raw", "ts": "ch", "mts": "epoch", "alerts": "webhook", "managedFields": True}
    s = Snap("Scenario-13", "otel-demo", dt(2026, 11, 17, 15, 15), 50, 19, 1313, st)
    tf = s.tf
    job = "product-reviews-db-migrate-v212"
    jp = f"{job}-{h(s.sid, 'job', n=5)}"
    s.node_of[jp] = NODES[2]
    s.img["migrate"] = "ghcr.io/open-telemetry/demo:2.1.2-product-reviews"
    s.soft = {"ad", "recommendation", "image-provider"}

    def rev(t, c):
        if t < tf + timedelta(seconds=20):
            return None
        if s.rng.random() < 0.55:
            return ("error", "psycopg2.errors.QueryCanceled: canceling statement due to statement timeout", 5000.0)
        return ("lat", 300 + 200 * s.rng.random())
    s.effects["product-reviews"] = rev
    s.baseline_objects()
    noise_common(s, 12)
    jobspec = {"backoffLimit": 0, "activeDeadlineSeconds": 7200, "ttlSecondsAfterFinished": 3600,
               "template": {"metadata": {"labels": {"job-name": job}}, "spec": {"restartPolicy": "Never", "containers": [{"name": "migrate", "image": "ghcr.io/open-telemetry/demo:2.1.2-product-reviews",
                                                                                                                      "command": ["python", "manage.py", "migrate", "--noinput"],
                                                                                                                      "env": [{"name": "DB_CONNECTION_STRING", "valueFrom": {"secretKeyRef": {"name": "postgresql-credentials", "key": "dsn"}}}]}]}}}
    k8s_obj(s, "batch/v1", "Job", job, s.ns, "spec", jobspec, tf, gen=1,
            labels={"app.kubernetes.io/managed-by": "argocd", "app.kubernetes.io/name": "product-reviews"},
            ann={"argocd.argoproj.io/hook": "PreSync", "argocd.argoproj.io/hook-delete-policy": "BeforeHookCreation"},
            extra={"status": {"active": 1, "startTime": iso(tf), "ready": 1}})
    k8s_obj(s, "batch/v1", "Job", job, s.ns, "spec", jobspec, tf + timedelta(minutes=20), watch="MODIFIED", gen=1,
            labels={"app.kubernetes.io/managed-by": "argocd", "app.kubernetes.io/name": "product-reviews"},
            ann={"argocd.argoproj.io/hook": "PreSync"}, extra={"status": {"active": 1, "startTime": iso(tf), "ready": 1}})
    s.event(tf, "Job", job, "SuccessfulCreate", f"Created pod: {jp}", comp="job-controller")
    s.event(tf, "Pod", jp, "Scheduled", f"Successfully assigned {s.ns}/{jp} to {NODES[2]}", comp="default-scheduler")
    s.event(tf + timedelta(seconds=3), "Pod", jp, "Pulling", "Pulling image \"ghcr.io/open-telemetry/demo:2.1.2-product-reviews\"", host=NODES[2])
    s.event(tf + timedelta(seconds=9), "Pod", jp, "Pulled", "Successfully pulled image \"ghcr.io/open-telemetry/demo:2.1.2-product-reviews\" in 5.812s (5.812s including waiting). Image size: 98123456 bytes.", host=NODES[2])
    s.event(tf + timedelta(seconds=10), "Pod", jp, "Started", "Started container migrate", host=NODES[2])
    jpo = s.pod_obj("migrate", jp, node=NODES[2], created=tf)
    jpo["metadata"]["labels"] = {"job-name": job, "batch.kubernetes.io/job-name": job}
    jpo["metadata"]["ownerReferences"] = [{"apiVersion": "batch/v1", "kind": "Job", "name": job, "uid": uid(s.ns, "Job", job), "controller": True}]
    s.obj(tf + timedelta(seconds=10), jpo, "ADDED")
    s.log(tf + timedelta(seconds=14), "product-reviews-migrate", "INFO", "Operations to perform: Apply all migrations: reviews", pod=jp)
    s.log(tf + timedelta(seconds=15), "product-reviews-migrate", "INFO", "  Applying reviews.0007_review_sentiment_backfill...", pod=jp)
    s.log(tf + timedelta(seconds=15, milliseconds=400), "product-reviews-migrate", "INFO", "ALTER TABLE \"productreviews\" ADD COLUMN \"sentiment\" varchar(16) NOT NULL DEFAULT 'unknown'; UPDATE productreviews SET sentiment = classify(body) -- 1,204,331 rows", pod=jp)
    pg = s.pods["postgresql"][0]
    t = tf + timedelta(seconds=20)
    k = 0
    while t < s.end:
        pid = 4100 + k
        s.log(t, "postgresql", "INFO", f"{t.strftime('%Y-%m-%d %H:%M:%S')}.{t.microsecond // 1000:03d} UTC [{pid}] LOG:  process {pid} still waiting for AccessShareLock on relation 16437 of database 16384 after 1000.0{k % 10}4 ms", pod=pg)
        s.log(t, "postgresql", "INFO", f"{t.strftime('%Y-%m-%d %H:%M:%S')}.{t.microsecond // 1000:03d} UTC [{pid}] DETAIL:  Process holding the lock: 3987. Wait queue: {pid}, {pid + 1}.", pod=pg)
        s.log(t + timedelta(seconds=4), "postgresql", "ERROR", f"{t.strftime('%Y-%m-%d %H:%M:%S')}.{t.microsecond // 1000:03d} UTC [{pid}] ERROR:  canceling statement due to statement timeout", pod=pg)
        s.log(t + timedelta(seconds=4), "product-reviews", "ERROR", "Error getting product reviews: canceling statement due to statement timeout")
        k += 1
        t += timedelta(seconds=30)
    s.log(tf + timedelta(minutes=10), "product-reviews-migrate", "INFO", "backfill progress 312000/1204331", pod=jp)
    s.log(tf + timedelta(minutes=25), "product-reviews-migrate", "INFO", "backfill progress 788000/1204331", pod=jp)
    # unrelated: accounting restarted after a transient kafka rebalance, before the fault
    unrelated_restart(s, "accounting", tf - timedelta(minutes=10), "Application is shutting down... (Kafka consumer rebalance: member left group)")
    # harmless change: product-reviews Deployment annotation (argocd sync revision) at the same sync
    d = s.deployment("product-reviews", gen=5, ann={"argocd.argoproj.io/tracking-id": "otel-demo:apps/Deployment:otel-demo/product-reviews", "argocd.argoproj.io/sync-revision": "9c1e2f7"})
    s.obj(tf - timedelta(seconds=5), d, "MODIFIED")
    s.traffic(20)
    s.span_metrics()
    s.pods["migrate"] = [jp]
    pgp = pg

    def pgm(t):
        return {"cpu": 0.85 if t >= tf else 0.05}
    s.pod_metrics({pgp: pgm})
    for t in [s.t0 + timedelta(minutes=m) for m in range(s.minutes)]:
        s.mrow("service_postgresql", "pg_locks_count", t, 3 if t < tf else 140 + s.rng.randint(0, 40), {"datname": "otel", "mode": "accessexclusivelock" if t >= tf else "rowexclusivelock", "namespace": s.ns})
        s.mrow("service_postgresql", "pg_stat_activity_max_tx_duration", t, 0.2 if t < tf else (t - tf).total_seconds(), {"datname": "otel", "state": "active", "namespace": s.ns})
    ns = s.ns
    s.alerts_at(tf + timedelta(minutes=8), [alert("RequestLatencyHigh", "warning", "product-reviews", ns, tf + timedelta(minutes=2), "p95 latency of product-reviews above 500ms", value=5.0),
                                            alert("RequestErrorRate", "warning", "product-reviews", ns, tf + timedelta(minutes=3), "Error rate above threshold for product-reviews", value=0.55)])
    s.alerts_at(tf + timedelta(minutes=28), [alert("RequestLatencyHigh", "warning", "product-reviews", ns, tf + timedelta(minutes=2), "p95 latency of product-reviews above 500ms", value=5.0),
                                             alert("RequestErrorRate", "warning", "product-reviews", ns, tf + timedelta(minutes=3), "Error rate above threshold for product-reviews", value=0.57),
                                             alert("RequestLatencyHigh", "warning", "frontend", ns, tf + timedelta(minutes=4), "p95 latency of frontend product page above 2s", value=5.2),
                                             alert("PostgresLongRunningTransaction", "warning", "postgresql", ns, tf + timedelta(minutes=10), "a transaction has been running for more than 10 minutes", extra={"datname": "otel"}),
                                             alert("KubeJobNotCompleted", "info", "", ns, tf + timedelta(minutes=25), f"Job {ns}/{job} is taking more than 25m", extra={"job_name": job})])
    G = [grp("migrate-job-1", "Job", ns, [job], name=job, rc=True), grp("migrate-pod-1", "Pod", ns, [f"{job}-.*"]),
         grp("product-reviews-service-1", "Service", ns, ["product-reviews\\b"]), grp("product-reviews-pod-1", "Pod", ns, ["product-reviews-(?!db-migrate).*"])] + \
        svc_groups("postgresql", ns) + svc_groups("frontend", ns)
    A = [["migrate-job-1", "migrate-pod-1"], ["product-reviews-service-1", "product-reviews-pod-1"], ["postgresql-service-1", "postgresql-pod-1"], ["frontend-service-1", "frontend-pod-1"]]
    P = [prop("migrate-job-1", "postgresql-pod-1", "migration 0007 runs ALTER TABLE + a 1.2M-row backfill in one transaction", "ACCESS EXCLUSIVE lock on productreviews held for the whole run"),
         prop("postgresql-pod-1", "product-reviews-service-1", "review SELECTs queue behind the lock", "statement timeouts and 5 s latency"),
         prop("product-reviews-service-1", "frontend-service-1", "product page loads reviews", "frontend product page latency")]
    F = [{"category": "Change", "condition": "a schema-migration Job holds a table lock for a long backfill", "entity": {"group_id": "migrate-job-1", "kind": "Job", "name": job}, "fault_mechanism": "migration-job-table-lock"}]
    AL = [galert("product-reviews-service-1", "RequestLatencyHigh", "lock wait"), galert("product-reviews-service-1", "RequestErrorRate", "statement timeout"),
          galert("frontend-service-1", "RequestLatencyHigh", "reviews slow"), galert("postgresql-service-1", "PostgresLongRunningTransaction", "migration tx"), galert("migrate-job-1", "KubeJobNotCompleted", "long job")]
    return s, gt_doc(s.sid, G, A, P, F, AL, True, [("stop-migration", ["kubectl -n otel-demo delete job product-reviews-db-migrate-v212 (the transaction rolls back)", "re-run the backfill in batches outside the DDL transaction"])])


# ----------------------------------------------------------------------------- main
def main(argv):
    if len(argv) != 2:
        print("usage: python gen.py OUT", file=sys.stderr)
        return 2
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    for fn in SCEN:
        s, gt = fn()
        s.write(out, gt)
    print(f"wrote {len(SCEN)} scenarios to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
