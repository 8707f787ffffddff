#!/usr/bin/env python3
"""sre-set20: 8 held-out SRE incidents as ITBench-Lite offline snapshots.

Usage: python gen.py OUT   -> OUT/Scenario-<N>/{alerts/,metrics/,k8s_events_raw.tsv,
k8s_objects_raw.tsv,otel_logs_raw.tsv,otel_traces_raw.tsv,ground_truth.yaml}
Stdlib only, deterministic.
"""
import csv
import hashlib
import io
import json
import os
import random
import sys
from datetime import datetime, timedelta, timezone

NS = "otel-demo"
UTC = timezone.utc

# ----------------------------------------------------------------- helpers

def h(s, n=10):
    return hashlib.sha256(s.encode()).hexdigest()[:n]


def podname(dep, salt):
    a = "bcdfghjklmnpqrstvwxz2456789"
    x = int(h(dep + salt, 16), 16)
    rs = "".join(a[(x >> (5 * i)) % len(a)] for i in range(9))
    x2 = int(h(dep + salt + "p", 16), 16)
    p = "".join(a[(x2 >> (5 * i)) % len(a)] for i in range(5))
    return f"{dep}-{rs}-{p}", f"{dep}-{rs}"


def iso(t, frac=True):
    if frac:
        return t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def chts(t):  # ClickHouse DateTime64(9)
    return t.strftime("%Y-%m-%d %H:%M:%S.%f") + "000"


def uid(s):
    x = h(s, 32)
    return f"{x[:8]}-{x[8:12]}-{x[12:16]}-{x[16:20]}-{x[20:32]}"


def write_tsv(path, header, rows, quoted):
    buf = io.StringIO()
    if quoted:
        w = csv.writer(buf, delimiter="\t", quoting=csv.QUOTE_MINIMAL, lineterminator="\n")
        w.writerow(header)
        for r in rows:
            w.writerow(r)
    else:
        buf.write("\t".join(header) + "\n")
        for r in rows:
            buf.write("\t".join(str(c) for c in r) + "\n")
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(buf.getvalue())


def yscalar(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    return json.dumps(v)


def yaml_dump(obj, ind=0):
    sp = "  " * ind
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(v, (dict, list)) and v:
                out.append(f"{sp}{k}:")
                out.append(yaml_dump(v, ind + 1))
            elif isinstance(v, (dict, list)):
                out.append(f"{sp}{k}: {'{}' if isinstance(v, dict) else '[]'}")
            else:
                out.append(f"{sp}{k}: {yscalar(v)}")
    elif isinstance(obj, list):
        for v in obj:
            if isinstance(v, (dict, list)) and v:
                inner = yaml_dump(v, ind + 1).split("\n")
                first = inner[0].lstrip()
                out.append(f"{sp}- {first}")
                out.extend(inner[1:])
            else:
                out.append(f"{sp}- {yscalar(v)}")
    return "\n".join(out)


# ----------------------------------------------------------------- app model

SERVICES = ["frontend-proxy", "frontend", "ad", "cart", "checkout", "currency", "email",
            "payment", "product-catalog", "quote", "recommendation", "shipping",
            "accounting", "fraud-detection", "kafka", "valkey-cart", "flagd",
            "image-provider", "load-generator"]
LANG = {"frontend": "nodejs", "ad": "java", "cart": "dotnet", "checkout": "go",
        "currency": "cpp", "email": "ruby", "payment": "nodejs", "product-catalog": "go",
        "quote": "php", "recommendation": "python", "shipping": "rust",
        "accounting": "dotnet", "fraud-detection": "java", "frontend-proxy": "cpp",
        "load-generator": "python", "flagd": "go", "image-provider": "cpp"}
PORTS = {"frontend": 8080, "frontend-proxy": 8080, "ad": 8080, "cart": 8080, "checkout": 8080,
         "currency": 8080, "email": 8080, "payment": 8080, "product-catalog": 8080,
         "quote": 8080, "recommendation": 8080, "shipping": 8080, "kafka": 9092,
         "valkey-cart": 6379, "flagd": 8013, "image-provider": 8081}

FLOWS = {
    "home": ("frontend-proxy", "ingress GET /", [
        ("frontend", "GET /", [
            ("product-catalog", "oteldemo.ProductCatalogService/ListProducts", []),
            ("currency", "oteldemo.CurrencyService/GetSupportedCurrencies", []),
            ("ad", "oteldemo.AdService/GetAds", []),
        ])]),
    "product": ("frontend-proxy", "ingress GET /api/products/{id}", [
        ("frontend", "GET /api/products/[productId]", [
            ("product-catalog", "oteldemo.ProductCatalogService/GetProduct", []),
            ("recommendation", "oteldemo.RecommendationService/ListRecommendations", [
                ("product-catalog", "oteldemo.ProductCatalogService/ListProducts", [])]),
            ("currency", "oteldemo.CurrencyService/Convert", []),
        ])]),
    "cart": ("frontend-proxy", "ingress POST /api/cart", [
        ("frontend", "POST /api/cart", [
            ("cart", "oteldemo.CartService/AddItem", [
                ("valkey-cart", "HSET", [])]),
        ])]),
    "checkout": ("frontend-proxy", "ingress POST /api/checkout", [
        ("frontend", "POST /api/checkout", [
            ("checkout", "oteldemo.CheckoutService/PlaceOrder", [
                ("cart", "oteldemo.CartService/GetCart", [("valkey-cart", "HGET", [])]),
                ("product-catalog", "oteldemo.ProductCatalogService/GetProduct", []),
                ("currency", "oteldemo.CurrencyService/Convert", []),
                ("shipping", "oteldemo.ShippingService/GetQuote", [("quote", "POST /getquote", [])]),
                ("payment", "oteldemo.PaymentService/Charge", []),
                ("shipping", "oteldemo.ShippingService/ShipOrder", []),
                ("email", "POST /send_order_confirmation", []),
                ("kafka", "orders publish", []),
            ])])]),
}
BASE_MS = {"frontend-proxy": 4, "frontend": 12, "product-catalog": 3, "currency": 1,
           "ad": 6, "recommendation": 9, "cart": 4, "valkey-cart": 1, "checkout": 30,
           "shipping": 5, "quote": 3, "payment": 4, "email": 8, "kafka": 2}


class Incident:
    def __init__(self, n, t0, seed, quoted, fmt):
        self.n = n
        self.t0 = t0
        self.start = t0 - timedelta(minutes=20)
        self.end = t0 + timedelta(minutes=14)
        self.rnd = random.Random(seed)
        self.quoted = quoted
        self.fmt = fmt  # dict of format choices
        self.events = []   # (t, body)
        self.objects = []  # (t, body)
        self.logs = []     # rows
        self.spans = []
        self.metrics = {}  # file -> rows
        self.alert_files = []  # (t, payload)
        self.pods = {s: podname(s, f"{n}-{seed}") for s in SERVICES}
        self.effects = {}  # svc -> dict(err, lat, after)

    # ---- events
    def event(self, t, kind, name, reason, msg, typ="Normal", count=1, comp="kubelet",
              ns=NS, watch="ADDED", first=None, host=None):
        evname = f"{name}.{h(name + reason + str(t), 16)}"
        if self.fmt.get("events") == "events.k8s.io/v1":
            obj = {"apiVersion": "events.k8s.io/v1", "kind": "Event",
                   "metadata": {"name": evname, "namespace": ns, "uid": uid(evname),
                                "resourceVersion": str(100000 + len(self.events)),
                                "creationTimestamp": iso(first or t, False)},
                   "eventTime": iso(t), "reportingController": comp if "/" in comp else "kubernetes.io/" + comp,
                   "reportingInstance": host or comp, "action": reason, "reason": reason,
                   "regarding": {"kind": kind, "namespace": ns, "name": name,
                                 "apiVersion": "v1" if kind in ("Pod", "Service", "Node") else "apps/v1"},
                   "note": msg, "type": typ}
            if count > 1:
                obj["series"] = {"count": count, "lastObservedTime": iso(t)}
            if kind != "Node" and ns is None:
                obj["regarding"].pop("namespace")
        else:
            obj = {"apiVersion": "v1", "kind": "Event",
                   "metadata": {"name": evname, "namespace": ns, "uid": uid(evname),
                                "resourceVersion": str(100000 + len(self.events)),
                                "creationTimestamp": iso(first or t, False)},
                   "involvedObject": {"kind": kind, "namespace": ns, "name": name,
                                      "apiVersion": "v1" if kind in ("Pod", "Service", "Node") else "apps/v1"},
                   "reason": reason, "message": msg, "type": typ, "count": count,
                   "firstTimestamp": iso(first or t, False), "lastTimestamp": iso(t, False),
                   "source": {"component": comp, **({"host": host} if host else {})}}
        if kind == "Node":
            (obj.get("involvedObject") or obj.get("regarding")).pop("namespace", None)
        self.events.append((t, {"object": obj, "type": watch}))

    # ---- objects
    def obj(self, t, body, watch=None):
        b = json.loads(json.dumps(body))
        if not self.fmt.get("managedFields"):
            b.get("metadata", {}).pop("managedFields", None)
        if watch:
            self.objects.append((t, {"type": watch, "object": b}))
        else:
            self.objects.append((t, b))

    def meta(self, kind, name, rv, labels=None, ann=None, mf_time=None, manager="kubectl-client-side-apply", ns=NS):
        m = {"name": name, "namespace": ns, "uid": uid(kind + name + str(self.n)),
             "resourceVersion": str(rv), "generation": 1,
             "creationTimestamp": "2026-09-02T08:14:51Z",
             "labels": labels or {"app.kubernetes.io/name": name, "app.kubernetes.io/part-of": "opentelemetry-demo"}}
        if ann:
            m["annotations"] = ann
        m["managedFields"] = [{"manager": manager, "operation": "Update", "apiVersion": "v1",
                               "time": iso(mf_time or self.start, False), "fieldsType": "FieldsV1",
                               "fieldsV1": {"f:metadata": {}}}]
        return m

    def deployment(self, svc, replicas=1, image=None, extra_env=None, rv=1000, res=None, gen=1,
                   ann=None, strategy=None, avail=None):
        env = [{"name": "OTEL_SERVICE_NAME", "value": svc},
               {"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://otel-collector:4317"}]
        if svc in PORTS:
            env.append({"name": f"{svc.upper().replace('-', '_')}_PORT", "value": str(PORTS[svc])})
        env += extra_env or []
        m = self.meta("Deployment", svc, rv)
        m["generation"] = gen
        m["annotations"] = {"deployment.kubernetes.io/revision": str(gen)}
        tmpl_ann = dict(ann or {})
        d = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": m,
             "spec": {"replicas": replicas,
                      "selector": {"matchLabels": {"app.kubernetes.io/name": svc}},
                      "strategy": strategy or {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
                      "template": {"metadata": {"labels": {"app.kubernetes.io/name": svc,
                                                           "app.kubernetes.io/component": svc},
                                                **({"annotations": tmpl_ann} if tmpl_ann else {})},
                                   "spec": {"serviceAccountName": "otel-demo",
                                            "containers": [{"name": svc,
                                                            "image": image or f"ghcr.io/open-telemetry/demo:2.0.2-{svc}",
                                                            "ports": [{"containerPort": PORTS.get(svc, 8080), "name": "service"}],
                                                            "env": env,
                                                            "resources": res or {"limits": {"memory": "256Mi"}, "requests": {"cpu": "50m", "memory": "128Mi"}}}]}}},
             "status": {"replicas": replicas, "readyReplicas": replicas if avail is None else avail,
                        "availableReplicas": replicas if avail is None else avail,
                        "observedGeneration": gen}}
        return d

    def service(self, svc, rv=900, selector=None, port=None):
        m = self.meta("Service", svc, rv)
        return {"apiVersion": "v1", "kind": "Service", "metadata": m,
                "spec": {"type": "ClusterIP", "clusterIP": "10.96.%d.%d" % (len(svc) * 7 % 250, len(svc) * 13 % 250),
                         "selector": selector or {"app.kubernetes.io/name": svc},
                         "ports": [{"name": "tcp-service", "port": port or PORTS.get(svc, 8080),
                                    "targetPort": port or PORTS.get(svc, 8080), "protocol": "TCP"}]}}

    def pod(self, svc, phase="Running", rv=1200, name=None, ready=True, node=None, waiting=None, restarts=0):
        pname, rs = self.pods[svc]
        name = name or pname
        m = self.meta("Pod", name, rv, labels={"app.kubernetes.io/name": svc, "pod-template-hash": rs.split("-")[-1]})
        m["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": rs, "uid": uid(rs), "controller": True}]
        cs = {"name": svc, "ready": ready, "restartCount": restarts, "image": f"ghcr.io/open-telemetry/demo:2.0.2-{svc}"}
        cs["state"] = {"waiting": waiting} if waiting else {"running": {"startedAt": "2026-09-02T08:15:30Z"}}
        return {"apiVersion": "v1", "kind": "Pod", "metadata": m,
                "spec": {"nodeName": node or ("worker-%d" % (int(h(name), 16) % 3 + 1)),
                         "containers": [{"name": svc, "image": f"ghcr.io/open-telemetry/demo:2.0.2-{svc}"}]},
                "status": {"phase": phase, "containerStatuses": [cs],
                           "conditions": [{"type": "Ready", "status": "True" if ready else "False"}]}}

    def baseline_objects(self, svcs, t=None):
        t = t or self.start + timedelta(seconds=7)
        for s in svcs:
            self.obj(t, self.deployment(s), watch="ADDED" if self.fmt.get("watch") else None)
            if s in PORTS:
                self.obj(t + timedelta(milliseconds=50), self.service(s), watch="ADDED" if self.fmt.get("watch") else None)
            self.obj(t + timedelta(milliseconds=90), self.pod(s), watch="ADDED" if self.fmt.get("watch") else None)

    # ---- logs
    def log(self, t, svc, sev, body, trace="", span="", attrs=None, pod=None):
        sevnum = {"DEBUG": 5, "INFO": 9, "WARN": 13, "WARNING": 13, "ERROR": 17, "FATAL": 21}[sev]
        ra = {"service.name": svc, "k8s.namespace.name": NS,
              "k8s.pod.name": pod or self.pods.get(svc, (svc + "-0", svc))[0],
              "k8s.deployment.name": svc, "telemetry.sdk.language": LANG.get(svc, "go")}
        self.logs.append([chts(t), trace, span, 1 if trace else 0, sev, sevnum, svc, body,
                          json.dumps(ra, sort_keys=True), json.dumps(attrs or {}, sort_keys=True)])

    # ---- traces
    def traffic(self, flows, per_min=6):
        t = self.start
        i = 0
        while t < self.end:
            for f in flows:
                for k in range(per_min):
                    ts = t + timedelta(seconds=(60.0 / per_min) * k + self.rnd.random() * 3)
                    self._trace(ts, FLOWS[f], f"{self.n}-{i}-{f}-{k}")
            t += timedelta(minutes=1)
            i += 1

    def _trace(self, ts, flow, key):
        tid = h("t" + key, 32)
        self._span(ts, flow, tid, "", key, 0)

    def _span(self, ts, node, tid, parent, key, depth, caller=None):
        svc, name, children = node
        sid = h("s" + key + svc + name + str(depth), 16)
        eff = self.effects.get(svc)
        active = eff and ts >= eff.get("after", self.t0) and ts < eff.get("until", self.end + timedelta(hours=1))
        dur = BASE_MS.get(svc, 5) * (0.7 + self.rnd.random() * 0.6)
        err = False
        msg = ""
        if active:
            dur *= eff.get("lat", 1.0)
            dur += eff.get("add_ms", 0)
            if self.rnd.random() < eff.get("err", 0.0):
                err = True
                msg = eff.get("msg", "")
        down = bool(active and eff.get("down"))
        if down:
            children = []
            dur = eff.get("down_ms", 2.0) * (0.8 + 0.4 * self.rnd.random())
        ct = ts + timedelta(milliseconds=1)
        child_err = False
        for c in children:
            d, e = self._span(ct, c, tid, sid, key, depth + 1, caller=svc)
            ct += timedelta(milliseconds=d)
            dur += d
            if e and c[0] not in ("email", "kafka"):
                child_err = True
        if child_err and not err:
            err = self.rnd.random() < 0.95
            msg = msg or "downstream call failed"
        emit_svc = svc
        extra = {}
        if svc in ("valkey-cart", "kafka") or down:
            kind = "Client"
            emit_svc = caller or svc
            extra["peer.service"] = svc
            if svc == "valkey-cart":
                extra.update({"db.system": "redis", "net.peer.name": "valkey-cart", "net.peer.port": 6379})
            elif svc == "kafka":
                extra.update({"messaging.system": "kafka", "messaging.destination.name": "orders"})
        else:
            kind = "Server"
        pid = parent
        if self.fmt.get("no_parents") and depth > 0 and int(sid, 16) % 3 == 0:
            pid = ""
        ra = {"service.name": emit_svc, "k8s.namespace.name": NS,
              "k8s.pod.name": self.pods.get(emit_svc, (emit_svc, emit_svc))[0]}
        sa = {"rpc.system": "grpc"} if "/" in name and "." in name.split("/")[0] else {"http.method": name.split()[0] if " " in name else "POST"}
        sa.update(extra)
        if err:
            sa["error"] = True
        tsv = chts(ts) if not self.fmt.get("iso_traces") else iso(ts)
        self.spans.append([tsv, tid, sid, pid, name, "SPAN_KIND_" + kind.upper() if self.fmt.get("otlp_kind") else kind,
                           emit_svc, json.dumps(ra, sort_keys=True), json.dumps(sa, sort_keys=True),
                           int(dur * 1e6), "Error" if err else ("Ok" if self.fmt.get("ok_status") else "Unset"),
                           msg if err else ""])
        return dur, err

    # ---- metrics
    def metric(self, fname, name, fn, tags, step=30):
        rows = self.metrics.setdefault(fname, [])
        t = self.start
        while t <= self.end:
            v = fn(t)
            if v is not None:
                ts = str(int(t.timestamp())) if self.fmt.get("epoch_metrics") else iso(t, False)
                rows.append([name, ts, round(v, 4), json.dumps(tags, sort_keys=True) if self.fmt.get("json_tags", True) else repr(tags)])
            t += timedelta(seconds=step)

    def std_metrics(self, svcs, special=None):
        special = special or {}
        for s in svcs:
            pname = self.pods[s][0]
            tags = {"namespace": NS, "pod": pname, "container": s}
            sp = special.get(s, {})
            self.metric(f"pod_{pname}.tsv", "container_cpu_usage_seconds_total:rate5m",
                        sp.get("cpu", lambda t, s=s: 0.02 + 0.01 * self.rnd.random() + 0.001 * len(s)), tags)
            self.metric(f"pod_{pname}.tsv", "container_memory_working_set_bytes",
                        sp.get("mem", lambda t, s=s: 9e7 + 5e6 * self.rnd.random()), tags)
            stags = {"service_name": s, "namespace": NS}
            self.metric(f"service_{s}.tsv", "traces_span_metrics_calls_total:rate1m",
                        sp.get("rps", lambda t: 4 + self.rnd.random()), dict(stags, status_code="STATUS_CODE_UNSET"))
            self.metric(f"service_{s}.tsv", "traces_span_metrics_calls_total:rate1m",
                        sp.get("erps", lambda t: 0.0), dict(stags, status_code="STATUS_CODE_ERROR"))
            self.metric(f"service_{s}.tsv", "traces_span_metrics_duration_milliseconds:p95",
                        sp.get("p95", lambda t, s=s: BASE_MS.get(s, 5) * (1.2 + 0.3 * self.rnd.random())), stags)

    # ---- alerts
    def alert(self, name, svc, sev, summary, active_at, extra=None):
        labels = {"alertname": name, "severity": sev, "namespace": NS}
        if svc:
            labels["service_name"] = svc
        labels.update(extra or {})
        return {"labels": labels, "annotations": {"summary": summary}, "active_at": active_at}

    def alerts_over_time(self, alerts, every=60, style="prom"):
        t = self.t0 - timedelta(minutes=2)
        while t <= self.end:
            live = [a for a in alerts if a["active_at"] <= t]
            out = []
            for a in live:
                firing = (t - a["active_at"]) >= timedelta(minutes=1)
                if style == "prom":
                    out.append({"labels": a["labels"], "annotations": a["annotations"],
                                "state": "firing" if firing else "pending",
                                "activeAt": iso(a["active_at"]), "value": "%.3e" % (1 + len(a["labels"]["alertname"]) / 10)})
                else:  # alertmanager v2
                    fp = h(json.dumps(a["labels"], sort_keys=True), 16)
                    out.append({"labels": a["labels"], "annotations": a["annotations"],
                                "startsAt": iso(a["active_at"]), "endsAt": iso(t + timedelta(minutes=4)),
                                "updatedAt": iso(t), "fingerprint": fp,
                                "generatorURL": "http://prometheus:9090/graph?g0.expr=...",
                                "receivers": [{"name": "default"}],
                                "status": {"state": "active", "silencedBy": [], "inhibitedBy": []}})
            if style == "prom":
                payload = {"status": "success", "data": {"alerts": out}}
            elif style == "am_list":
                payload = out
            else:
                payload = {"alerts": out}
            self.alert_files.append((t, payload))
            t += timedelta(seconds=every)

    # ---- write
    def write(self, root, gt):
        d = os.path.join(root, f"Scenario-{self.n}")
        os.makedirs(os.path.join(d, "alerts"), exist_ok=True)
        os.makedirs(os.path.join(d, "metrics"), exist_ok=True)
        for t, p in self.alert_files:
            with open(os.path.join(d, "alerts", "alerts_at_" + t.strftime("%Y-%m-%dT%H-%M-%S.%f") + ".json"), "w") as f:
                json.dump(p, f, indent=1, sort_keys=True)
        for fn, rows in sorted(self.metrics.items()):
            write_tsv(os.path.join(d, "metrics", fn), ["metric_name", "timestamp", "value", "tags"], rows, False)
        lh = ["Timestamp", "TraceId", "SpanId", "TraceFlags", "SeverityText", "SeverityNumber",
              "ServiceName", "Body", "ResourceAttributes", "LogAttributes"]
        ev_rows = []
        for t, b in sorted(self.events, key=lambda x: x[0]):
            ev_rows.append([chts(t), "", "", 0, "", 0, "", json.dumps(b, sort_keys=True),
                            json.dumps({"k8s.cluster.name": "itb-lab"}), json.dumps({"event.domain": "k8s", "event.name": b["object"]["metadata"]["name"]})])
        write_tsv(os.path.join(d, "k8s_events_raw.tsv"), lh, ev_rows, self.quoted)
        ob_rows = []
        for t, b in sorted(self.objects, key=lambda x: x[0]):
            ob_rows.append([chts(t), "", "", 0, "", 0, "", json.dumps(b, sort_keys=True),
                            json.dumps({"k8s.cluster.name": "itb-lab"}), json.dumps({"k8s.resource.name": (b.get("object", b)["kind"].lower() + "s")})])
        write_tsv(os.path.join(d, "k8s_objects_raw.tsv"), lh, ob_rows, self.quoted)
        write_tsv(os.path.join(d, "otel_logs_raw.tsv"), lh, sorted(self.logs, key=lambda r: r[0]), self.quoted)
        th = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
              "ResourceAttributes", "SpanAttributes", "Duration", "StatusCode", "StatusMessage"]
        write_tsv(os.path.join(d, "otel_traces_raw.tsv"), th, sorted(self.spans, key=lambda r: (r[0], r[2])), self.quoted)
        with open(os.path.join(d, "ground_truth.yaml"), "w") as f:
            if gt.pop("_wrapped", False):
                f.write(yaml_dump({"apiVersion": "itbench.io/v1", "kind": "GroundTruth",
                                   "metadata": {"name": f"scenario-{self.n}"}, "spec": gt}) + "\n")
            else:
                f.write(yaml_dump(gt) + "\n")


def grp(gid, kind, filt, ns=NS, rc=False, name=None):
    g = {"id": gid, "kind": kind, "namespace": ns, "filter": filt}
    if name:
        g["name"] = name
    if rc:
        g["root_cause"] = True
    return g


def prop(s, t, c, e):
    return {"source": s, "target": t, "condition": c, "effect": e}


def noise_common(inc, rnd_restart=None):
    """Unrelated background: load-generator restarts, a routine warning."""
    inc.log(inc.start + timedelta(minutes=2), "frontend-proxy", "INFO",
            '[2026-10-01T00:00:00.000Z] "GET /images/products/NationalParkFoundationExplorascope.jpg HTTP/1.1" 200 - 0 88331 5 4 "-" "python-requests/2.32.3"')
    for k in range(0, 34, 3):
        t = inc.start + timedelta(minutes=k, seconds=11)
        inc.log(t, "accounting", "INFO", f"Order details: orderId={uid('o' + str(k) + str(inc.n))[:36]} items=2 total=USD {30 + k}.50")
        inc.log(t + timedelta(seconds=4), "fraud-detection", "INFO", f"Consumed record with orderId: {uid('o' + str(k) + str(inc.n))}, and updated total count to: {1400 + k}")
    # routine background events (image GC, cluster autoscaler status, kube-proxy sync)
    lg = inc.pods["load-generator"][0]
    for k in range(0, 34, 7):
        t = inc.start + timedelta(minutes=k, seconds=(inc.n * 7) % 50)
        if k % 2 == 0:
            inc.event(t, "Node", "worker-%d" % (k % 3 + 1), "FreeDiskSpaceFailed" if k == 14 else "ImageGCSucceeded" if False else "NodeHasSufficientMemory",
                      "Node worker-%d status is now: NodeHasSufficientMemory" % (k % 3 + 1) if k != 14 else "Failed to garbage collect required amount of images. Attempted to free 312475648 bytes, but only found 0 bytes eligible to free.",
                      typ="Warning" if k == 14 else "Normal", ns="default", comp="kubelet", host="worker-%d" % (k % 3 + 1))
        else:
            inc.event(t, "ConfigMap", "cluster-autoscaler-status", "ScaleDownEmpty", "Scale-down: empty node ip-10-0-7-%d removed" % (20 + k), ns="kube-system", comp="cluster-autoscaler")
    inc.event(inc.start + timedelta(minutes=1, seconds=3), "Pod", lg, "Pulled", "Container image \"ghcr.io/open-telemetry/demo:2.0.2-load-generator\" already present on machine", comp="kubelet")
    if rnd_restart:
        svc, when, reason = rnd_restart
        pname = inc.pods[svc][0]
        inc.event(when, "Pod", pname, "Killing", f"Container {svc} failed liveness probe, will be restarted", "Normal", comp="kubelet")
        inc.event(when - timedelta(seconds=30), "Pod", pname, "Unhealthy", reason, "Warning", count=3, comp="kubelet")
        inc.event(when + timedelta(seconds=2), "Pod", pname, "Started", f"Started container {svc}", comp="kubelet")


# ----------------------------------------------------------------- incidents
# Each returns (Incident, ground truth dict)

def inc1():
    """catalogue: NetworkChaos delay on product-catalog (via chaos-mesh)."""
    t0 = datetime(2026, 10, 3, 14, 22, 10, tzinfo=UTC)
    inc = Incident(1, t0, 101, quoted=True, fmt={"events": "v1", "managedFields": True, "otlp_kind": True})
    svcs = ["frontend-proxy", "frontend", "product-catalog", "recommendation", "currency", "ad", "checkout", "cart", "valkey-cart"]
    inc.baseline_objects(svcs)
    nc = {"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "NetworkChaos",
          "metadata": {"name": "catalog-egress-latency", "namespace": "chaos-mesh", "uid": uid("nc1"),
                       "resourceVersion": "88812", "generation": 1, "creationTimestamp": iso(t0, False),
                       "annotations": {"experiment.chaos-mesh.org/pause": "false"}},
          "spec": {"action": "delay", "mode": "all",
                   "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/name": "product-catalog"}},
                   "delay": {"latency": "1800ms", "jitter": "200ms", "correlation": "25"},
                   "direction": "to", "duration": "30m"},
          "status": {"experiment": {"desiredPhase": "Run", "containerRecords": [
              {"id": f"{NS}/{inc.pods['product-catalog'][0]}", "phase": "Injected", "injectedCount": 1}]}}}
    inc.obj(t0, nc)
    inc.event(t0 + timedelta(seconds=1), "NetworkChaos", "catalog-egress-latency", "FinalizerInited", "Finalizer has been inited", comp="initFinalizers", ns="chaos-mesh")
    inc.event(t0 + timedelta(seconds=2), "NetworkChaos", "catalog-egress-latency", "Applied",
              f"Successfully apply chaos for {NS}/{inc.pods['product-catalog'][0]}", comp="records", ns="chaos-mesh")
    # harmless nearby change: ad deployment gets a new annotation (no rollout)
    d = inc.deployment("ad", rv=1400)
    d["metadata"]["annotations"]["owner.team/slack"] = "#team-ads"
    inc.obj(t0 - timedelta(minutes=3), d)
    inc.effects = {"product-catalog": {"add_ms": 1800, "lat": 1.0}}
    inc.effects["frontend"] = {"err": 0.25, "msg": "14 UNAVAILABLE: upstream request timeout", "after": t0 + timedelta(minutes=1)}
    inc.traffic(["home", "product", "checkout"], per_min=3)
    inc.std_metrics(svcs, {
        "product-catalog": {"p95": lambda t: 1900 + inc.rnd.random() * 300 if t >= t0 else 4.0},
        "frontend": {"p95": lambda t: 5400 + inc.rnd.random() * 900 if t >= t0 else 18.0,
                     "erps": lambda t: 1.1 if t >= t0 + timedelta(minutes=1) else 0.0},
        "recommendation": {"p95": lambda t: 2100.0 if t >= t0 else 12.0}})
    for k in range(1, 13):
        t = t0 + timedelta(minutes=k, seconds=3)
        inc.log(t, "frontend", "ERROR", json.dumps({"level": "error", "msg": "Error: 14 UNAVAILABLE: upstream request timeout", "path": "/api/products", "durationMs": 5001}))
        inc.log(t + timedelta(seconds=8), "recommendation", "WARN", "Receive ListRecommendations for product ids:['OLJCESPC7Z', '66VCHSJNUP'] took 3.62s (deadline 5s)")
        inc.log(t + timedelta(seconds=20), "product-catalog", "INFO", json.dumps({"level": "info", "msg": "Product Found", "product.id": "OLJCESPC7Z"}))
    noise_common(inc, ("cart", t0 - timedelta(minutes=9), "Liveness probe failed: HTTP probe failed with statuscode: 503"))
    al = [inc.alert("RequestLatency", "frontend", "warning", "frontend p95 latency above 1500ms", t0 + timedelta(seconds=40)),
          inc.alert("RequestLatency", "recommendation", "warning", "recommendation p95 latency above 1000ms", t0 + timedelta(seconds=55)),
          inc.alert("RequestErrorRate", "frontend", "critical", "frontend error rate above 5%", t0 + timedelta(minutes=2)),
          inc.alert("RequestLatency", "frontend-proxy", "warning", "frontend-proxy p95 latency above 1500ms", t0 + timedelta(minutes=1))]
    inc.alerts_over_time(al, style="prom")
    gt = {"groups": [grp("catalog-egress-latency", "NetworkChaos", ["catalog-egress-latency"], ns="chaos-mesh", rc=True, name="catalog-egress-latency"),
                     grp("product-catalog-pod-1", "Pod", ["product-catalog-.*"]),
                     grp("product-catalog-service-1", "Service", ["product-catalog\\b"]),
                     grp("recommendation-service-1", "Service", ["recommendation\\b"]),
                     grp("frontend-service-1", "Service", ["frontend\\b"]),
                     grp("frontend-proxy-service-1", "Service", ["frontend-proxy\\b"])],
          "aliases": [["product-catalog-pod-1", "product-catalog-service-1"]],
          "propagations": [prop("catalog-egress-latency", "product-catalog-pod-1", "NetworkChaos delay 1800ms on product-catalog", "product-catalog responses delayed"),
                           prop("product-catalog-service-1", "recommendation-service-1", "product-catalog slow", "recommendation latency"),
                           prop("product-catalog-service-1", "frontend-service-1", "product-catalog slow", "frontend latency and timeouts (error)"),
                           prop("frontend-service-1", "frontend-proxy-service-1", "frontend slow", "frontend-proxy latency")],
          "fault": [{"category": "Network", "condition": "network delay injected", "fault_mechanism": "network_delay",
                     "entity": {"kind": "NetworkChaos", "name": "catalog-egress-latency", "group_id": "catalog-egress-latency"}}],
          "alerts": [{"group_id": "frontend-service-1", "id": "RequestLatency"},
                     {"group_id": "recommendation-service-1", "id": "RequestLatency"},
                     {"group_id": "frontend-service-1", "id": "RequestErrorRate"},
                     {"group_id": "frontend-proxy-service-1", "id": "RequestLatency"}]}
    return inc, gt


def std_groups(svcs):
    g = []
    for s in svcs:
        g.append(grp(f"{s}-service-1", "Service", [s + "\\b"]))
        g.append(grp(f"{s}-pod-1", "Pod", [s + "-[a-z0-9]+-[a-z0-9]+$"]))
    return g


def inc2():
    """catalogue: bad image tag on Deployment payment (maxSurge 0)."""
    t0 = datetime(2026, 10, 7, 9, 41, 33, tzinfo=UTC)
    inc = Incident(2, t0, 202, quoted=False, fmt={"events": "events.k8s.io/v1", "managedFields": False,
                                                 "watch": True, "no_parents": True, "epoch_metrics": True})
    svcs = ["frontend-proxy", "frontend", "checkout", "payment", "cart", "currency", "shipping", "quote", "email", "product-catalog", "kafka"]
    inc.baseline_objects(svcs)
    strat = {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 1}}
    inc.obj(inc.start + timedelta(seconds=8), inc.deployment("payment", rv=50990, strategy=strat), watch="MODIFIED")
    bad = "ghcr.io/open-telemetry/demo:2.0.3-payment"
    d = inc.deployment("payment", image=bad, rv=51234, gen=2, strategy=strat, avail=0)
    d["metadata"]["annotations"]["kubernetes.io/change-cause"] = "ci: bump payment to 2.0.3 (release-bot #4471)"
    inc.obj(t0 - timedelta(seconds=20), d, watch="MODIFIED")
    oldpod, oldrs = inc.pods["payment"]
    newpod, newrs = podname("payment", "new2")
    inc.event(t0 - timedelta(seconds=19), "Deployment", "payment", "ScalingReplicaSet", f"Scaled down replica set {oldrs} to 0 from 1", comp="deployment-controller")
    inc.event(t0 - timedelta(seconds=19), "Deployment", "payment", "ScalingReplicaSet", f"Scaled up replica set {newrs} to 1 from 0", comp="deployment-controller")
    inc.event(t0 - timedelta(seconds=18), "Pod", oldpod, "Killing", "Stopping container payment", comp="kubelet")
    p = inc.pod("payment", name=oldpod)
    inc.obj(t0 - timedelta(seconds=10), p, watch="DELETED")
    np_ = inc.pod("payment", name=newpod, phase="Pending", ready=False,
                  waiting={"reason": "ImagePullBackOff", "message": f'Back-off pulling image "{bad}"'})
    np_["spec"]["containers"][0]["image"] = bad
    inc.obj(t0 + timedelta(minutes=2), np_, watch="ADDED")
    inc.event(t0 - timedelta(seconds=17), "Pod", newpod, "Scheduled", f"Successfully assigned otel-demo/{newpod} to worker-2", comp="default-scheduler")
    for k in range(6):
        t = t0 + timedelta(seconds=5 + 75 * k)
        inc.event(t, "Pod", newpod, "Pulling", f'Pulling image "{bad}"', count=k + 1, first=t0)
        inc.event(t + timedelta(seconds=1), "Pod", newpod, "Failed", f'Failed to pull image "{bad}": rpc error: code = NotFound desc = failed to pull and unpack image "{bad}": failed to resolve reference "{bad}": {bad}: not found', typ="Warning", count=k + 1, first=t0)
        inc.event(t + timedelta(seconds=2), "Pod", newpod, "Failed", "Error: ErrImagePull", typ="Warning", count=k + 1, first=t0)
        inc.event(t + timedelta(seconds=30), "Pod", newpod, "BackOff", f'Back-off pulling image "{bad}"', typ="Normal", count=2 * k + 1, first=t0)
    # harmless: otel-collector configmap label change; unrelated email restart earlier
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": inc.meta("ConfigMap", "otel-collector", 50911),
          "data": {"relay": "receivers:\n  otlp:\n    protocols:\n      grpc: {}\n      http: {}\nexporters:\n  debug: {}\n"}}
    cm["metadata"]["labels"]["team"] = "observability"
    inc.obj(t0 - timedelta(minutes=4), cm, watch="MODIFIED")
    inc.effects = {"payment": {"err": 1.0, "down": True, "msg": "rpc error: code = Unavailable desc = connection error: dial tcp 10.96.49.91:8080: connect: connection refused", "after": t0 - timedelta(seconds=15)}}
    inc.traffic(["checkout", "cart", "home"], per_min=3)
    inc.std_metrics(svcs, {
        "checkout": {"erps": lambda t: 0.9 + 0.1 * inc.rnd.random() if t >= t0 else 0.0},
        "frontend": {"erps": lambda t: 0.9 if t >= t0 else 0.0},
        "payment": {"rps": lambda t: None if t >= t0 else 1.0, "cpu": lambda t: None if t >= t0 else 0.01}})
    for k in range(12):
        t = t0 + timedelta(seconds=40 + 60 * k)
        inc.log(t, "checkout", "ERROR", f"failed to charge card: could not charge the card: rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing: dial tcp 10.96.49.91:8080: connect: connection refused\"")
        inc.log(t + timedelta(seconds=2), "frontend", "ERROR", json.dumps({"level": 50, "msg": "PlaceOrder failed", "err": "13 INTERNAL: failed to charge card"}))
    noise_common(inc, ("email", t0 - timedelta(minutes=13), "Readiness probe failed: Get \"http://10.42.1.17:8080/_healthz\": context deadline exceeded"))
    # second namespace trouble: a batch job in team-reports failing
    for k in range(3):
        inc.event(inc.start + timedelta(minutes=5 + 9 * k), "Pod", f"nightly-export-2910{k}-x7k2p", "BackOff", "Back-off restarting failed container export in pod", typ="Warning", count=4 + k, ns="team-reports")
    inc.event(inc.start + timedelta(minutes=30), "Job", "nightly-export-29102", "BackoffLimitExceeded", "Job has reached the specified backoff limit", typ="Warning", ns="team-reports", comp="job-controller")
    al = [inc.alert("RequestErrorRate", "checkout", "critical", "checkout error ratio > 10%", t0 + timedelta(minutes=1)),
          inc.alert("RequestErrorRate", "frontend", "warning", "frontend error ratio > 5%", t0 + timedelta(minutes=1, seconds=30)),
          inc.alert("KubeDeploymentReplicasMismatch", None, "warning", "Deployment otel-demo/payment has not matched the expected number of replicas for longer than 5 minutes.", t0 + timedelta(minutes=5), {"deployment": "payment"}),
          inc.alert("KubeJobFailed", None, "warning", "Job team-reports/nightly-export-29102 failed to complete.", inc.start + timedelta(minutes=31), {"namespace": "team-reports", "job_name": "nightly-export-29102"})]
    inc.alerts_over_time(al, style="am_list")
    gt = {"groups": [grp("payment-deployment-1", "Deployment", ["payment\\b"], rc=True, name="payment"),
                     grp("payment-pod-1", "Pod", ["payment-.*"]),
                     grp("payment-service-1", "Service", ["payment\\b"]),
                     grp("checkout-service-1", "Service", ["checkout\\b"]),
                     grp("frontend-service-1", "Service", ["frontend\\b"])],
          "aliases": [["payment-deployment-1", "payment-pod-1", "payment-service-1"]],
          "propagations": [prop("payment-deployment-1", "payment-pod-1", "image tag 2.0.3-payment does not exist; maxSurge 0", "old pod removed, new pod ImagePullBackOff (unavailable)"),
                           prop("payment-service-1", "checkout-service-1", "payment has no endpoints", "checkout PlaceOrder errors"),
                           prop("checkout-service-1", "frontend-service-1", "checkout errors", "frontend checkout errors")],
          "fault": [{"category": "Configuration Setting", "condition": "non-existent image tag", "fault_mechanism": "bad_image",
                     "entity": {"kind": "Deployment", "name": "payment", "group_id": "payment-deployment-1"}}],
          "alerts": [{"group_id": "checkout-service-1", "id": "RequestErrorRate"},
                     {"group_id": "frontend-service-1", "id": "RequestErrorRate"},
                     {"group_id": "payment-deployment-1", "id": "KubeDeploymentReplicasMismatch"}],
          "_wrapped": True}
    return inc, gt


def inc3():
    """catalogue: StressChaos CPU burn on currency, via a chaos-mesh Schedule? no: plain StressChaos."""
    t0 = datetime(2026, 10, 11, 22, 5, 0, tzinfo=UTC)
    inc = Incident(3, t0, 303, quoted=True, fmt={"events": "v1", "managedFields": True, "iso_traces": True,
                                                 "ok_status": True, "json_tags": False})
    svcs = ["frontend-proxy", "frontend", "currency", "checkout", "product-catalog", "recommendation", "ad", "cart", "valkey-cart", "shipping", "quote"]
    inc.baseline_objects(svcs)
    sc = {"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "StressChaos",
          "metadata": {"name": "currency-cpu-burn", "namespace": "chaos-mesh", "uid": uid("sc3"),
                       "resourceVersion": "77120", "creationTimestamp": iso(t0, False)},
          "spec": {"mode": "one", "selector": {"namespaces": [NS], "labelSelectors": {"app.kubernetes.io/component": "currency"}},
                   "stressors": {"cpu": {"workers": 4, "load": 100}}, "duration": "25m", "containerNames": ["currency"]}}
    inc.obj(t0, sc)
    sc2 = json.loads(json.dumps(sc))
    sc2["metadata"]["resourceVersion"] = "77131"
    sc2["status"] = {"conditions": [{"type": "AllInjected", "status": "True"}, {"type": "Selected", "status": "True"}],
                     "experiment": {"desiredPhase": "Run", "containerRecords": [{"id": f"{NS}/{inc.pods['currency'][0]}/currency", "phase": "Injected"}]}}
    inc.obj(t0 + timedelta(seconds=3), sc2)
    inc.event(t0 + timedelta(seconds=3), "StressChaos", "currency-cpu-burn", "Applied", f"Successfully apply chaos for {NS}/{inc.pods['currency'][0]}/currency", ns="chaos-mesh", comp="records")
    inc.event(t0 + timedelta(seconds=3), "StressChaos", "currency-cpu-burn", "Updated", "Successfully update records of resource", ns="chaos-mesh", comp="records")
    inc.effects = {"currency": {"lat": 60.0, "add_ms": 250, "err": 0.08, "msg": "4 DEADLINE_EXCEEDED: Deadline exceeded"}}
    inc.traffic(["home", "product", "checkout"], per_min=3)
    cur = inc.pods["currency"][0]
    inc.std_metrics(svcs, {
        "currency": {"cpu": lambda t: 0.99 + 0.01 * inc.rnd.random() if t >= t0 else 0.03,
                     "p95": lambda t: 410 + 80 * inc.rnd.random() if t >= t0 else 1.4,
                     "erps": lambda t: 0.4 if t >= t0 else 0.0},
        "frontend": {"p95": lambda t: 1650 + 200 * inc.rnd.random() if t >= t0 else 17.0},
        "checkout": {"p95": lambda t: 900 + 100 * inc.rnd.random() if t >= t0 else 38.0}})
    inc.metric(f"pod_{cur}.tsv", "container_cpu_cfs_throttled_periods_total:rate5m", lambda t: 9.5 if t >= t0 else 0.0, {"namespace": NS, "pod": cur, "container": "currency"})
    for k in range(14):
        t = t0 + timedelta(seconds=20 + 55 * k)
        inc.log(t, "frontend", "WARN", json.dumps({"level": 40, "msg": "slow request", "route": "/api/products", "durationMs": 1700 + 13 * k}))
        inc.log(t + timedelta(seconds=3), "checkout", "WARN", "currency conversion took 912ms for order, retrying once: rpc error: code = DeadlineExceeded desc = context deadline exceeded")
        inc.log(t + timedelta(seconds=5), "currency", "INFO", "Conversion request successful")
    # unrelated: ad service restart (JVM GC) and a second namespace issue
    noise_common(inc, ("ad", t0 - timedelta(minutes=6), "Liveness probe failed: Get \"http://10.42.2.9:8080/\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)"))
    inc.event(inc.start + timedelta(minutes=3), "Pod", "grafana-6c9d7b5f4-mz2lq", "Unhealthy", "Readiness probe failed: Get \"http://10.42.0.33:3000/api/health\": dial tcp 10.42.0.33:3000: connect: connection refused", typ="Warning", ns="monitoring", count=6)
    inc.event(inc.start + timedelta(minutes=18), "PersistentVolumeClaim", "storage-grafana-0", "VolumeResizeFailed", "resize volume \"pvc-1f2e\" by resizer \"ebs.csi.aws.com\" failed: rpc error: code = Internal", typ="Warning", ns="monitoring", comp="external-resizer ebs.csi.aws.com")
    al = [inc.alert("RequestLatency", "frontend", "warning", "p95 latency high on frontend", t0 + timedelta(seconds=50)),
          inc.alert("RequestLatency", "checkout", "warning", "p95 latency high on checkout", t0 + timedelta(minutes=1, seconds=10)),
          inc.alert("RequestLatency", "currency", "warning", "p95 latency high on currency", t0 + timedelta(minutes=2)),
          inc.alert("CPUThrottlingHigh", None, "info", "83% throttling of CPU in namespace otel-demo for container currency", t0 + timedelta(minutes=4), {"pod": cur, "container": "currency"}),
          inc.alert("GrafanaDown", None, "warning", "Grafana is not ready", inc.start + timedelta(minutes=4), {"namespace": "monitoring", "job": "grafana"})]
    inc.alerts_over_time(al, style="wrapped", every=90)
    gt = {"groups": [grp("currency-cpu-burn", "StressChaos", ["currency-cpu-burn"], ns="chaos-mesh", rc=True, name="currency-cpu-burn"),
                     grp("currency-pod-1", "Pod", ["currency-.*"]),
                     grp("currency-service-1", "Service", ["currency\\b"]),
                     grp("checkout-service-1", "Service", ["checkout\\b"]),
                     grp("frontend-service-1", "Service", ["frontend\\b"])],
          "aliases": [["currency-pod-1", "currency-service-1"]],
          "propagations": [prop("currency-cpu-burn", "currency-pod-1", "StressChaos 4 CPU workers at 100% in currency container", "currency CPU saturation and throttling"),
                           prop("currency-service-1", "checkout-service-1", "currency slow", "checkout latency"),
                           prop("currency-service-1", "frontend-service-1", "currency slow", "frontend latency")],
          "fault": [{"category": "Resource Saturation", "condition": "CPU stress", "fault_mechanism": "cpu_stress",
                     "entity": {"kind": "StressChaos", "name": "currency-cpu-burn", "group_id": "currency-cpu-burn"}}],
          "alerts": [{"group_id": "frontend-service-1", "id": "RequestLatency"},
                     {"group_id": "checkout-service-1", "id": "RequestLatency"},
                     {"group_id": "currency-service-1", "id": "RequestLatency"}]}
    return inc, gt


FLAGS = {
    "productCatalogFailure": {"description": "Fail product catalog service on a specific product", "state": "ENABLED", "variants": {"on": True, "off": False}, "defaultVariant": "off"},
    "recommendationCacheFailure": {"description": "Fail recommendation service cache", "state": "ENABLED", "variants": {"on": True, "off": False}, "defaultVariant": "off"},
    "adHighCpu": {"description": "Triggers high cpu load in the ad service", "state": "ENABLED", "variants": {"on": True, "off": False}, "defaultVariant": "off"},
    "cartFailure": {"description": "Fail cart service", "state": "ENABLED", "variants": {"on": True, "off": False}, "defaultVariant": "off"},
    "paymentFailure": {"description": "Fail payment service charge requests n%", "state": "ENABLED", "variants": {"100%": 1, "50%": 0.5, "off": 0}, "defaultVariant": "off"},
    "imageSlowLoad": {"description": "slow loading images in the frontend", "state": "ENABLED", "variants": {"10sec": 10000, "5sec": 5000, "off": 0}, "defaultVariant": "off"},
}


def inc4():
    """catalogue: feature flag productCatalogFailure flipped in flagd-config."""
    t0 = datetime(2026, 10, 14, 6, 17, 45, tzinfo=UTC)
    inc = Incident(4, t0, 404, quoted=False, fmt={"events": "v1", "managedFields": True, "watch": True})
    svcs = ["frontend-proxy", "frontend", "product-catalog", "recommendation", "checkout", "currency", "flagd", "cart", "valkey-cart", "image-provider"]
    inc.baseline_objects(svcs)
    def cm(flags, rv, t):
        c = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": inc.meta("ConfigMap", "flagd-config", rv, mf_time=t, manager="kubectl-edit"),
             "data": {"demo.flagd.json": json.dumps({"$schema": "https://flagd.dev/schema/v0/flags.json", "flags": flags}, indent=2)}}
        return c
    inc.obj(inc.start + timedelta(seconds=8), cm(FLAGS, 31001, inc.start), watch="ADDED")
    f2 = json.loads(json.dumps(FLAGS))
    f2["productCatalogFailure"]["defaultVariant"] = "on"
    inc.obj(t0, cm(f2, 31877, t0), watch="MODIFIED")
    # harmless near-time change: image-provider scaled 1 -> 2 by someone
    inc.obj(t0 - timedelta(minutes=2), inc.deployment("image-provider", replicas=2, rv=31850, avail=1), watch="MODIFIED")
    ip2, ip2rs = podname("image-provider", "scale4")
    inc.event(t0 - timedelta(minutes=2), "Deployment", "image-provider", "ScalingReplicaSet", f"Scaled up replica set {inc.pods['image-provider'][1]} to 2 from 1", comp="deployment-controller")
    inc.event(t0 - timedelta(minutes=2) + timedelta(seconds=1), "Pod", inc.pods['image-provider'][1] + "-q8r4t", "Scheduled", "Successfully assigned otel-demo/%s-q8r4t to worker-1" % inc.pods['image-provider'][1], comp="default-scheduler")
    inc.effects = {"product-catalog": {"err": 0.3, "msg": "Error: Product Catalog Fail Feature Flag Enabled", "after": t0 + timedelta(seconds=5)}}
    inc.traffic(["product", "checkout", "home"], per_min=3)
    inc.std_metrics(svcs, {
        "product-catalog": {"erps": lambda t: 1.3 if t >= t0 else 0.0},
        "frontend": {"erps": lambda t: 1.1 if t >= t0 else 0.0},
        "checkout": {"erps": lambda t: 0.3 if t >= t0 else 0.0}})
    inc.log(t0 + timedelta(seconds=1), "flagd", "INFO", json.dumps({"level": "info", "ts": t0.timestamp(), "logger": "file-sync", "msg": "data sync received", "source": "/etc/flagd/demo.flagd.json"}))
    inc.log(t0 + timedelta(seconds=1), "flagd", "INFO", json.dumps({"level": "info", "ts": t0.timestamp(), "msg": "configuration change (write) for flagKey productCatalogFailure (demo.flagd.json)"}))
    for k in range(13):
        t = t0 + timedelta(seconds=15 + 57 * k)
        inc.log(t, "product-catalog", "ERROR", json.dumps({"level": "error", "msg": "Product Catalog Fail Feature Flag Enabled", "product.id": "OLJCESPC7Z"}))
        inc.log(t + timedelta(seconds=1), "frontend", "ERROR", json.dumps({"level": 50, "msg": "GetProduct failed", "err": "13 INTERNAL: Error: Product Catalog Fail Feature Flag Enabled"}))
        inc.log(t + timedelta(seconds=6), "checkout", "ERROR", "failed to prepare order: failed to get product #\"OLJCESPC7Z\": rpc error: code = Internal desc = Error: Product Catalog Fail Feature Flag Enabled")
    noise_common(inc, ("recommendation", t0 - timedelta(minutes=11), "Liveness probe failed: timeout: failed to connect service \":8080\" within 1s"))
    al = [inc.alert("RequestErrorRate", "frontend", "critical", "frontend 5xx ratio above 5%", t0 + timedelta(seconds=45)),
          inc.alert("RequestErrorRate", "checkout", "warning", "checkout error ratio above 5%", t0 + timedelta(minutes=1, seconds=20)),
          inc.alert("RequestErrorRate", "product-catalog", "warning", "product-catalog error ratio above 5%", t0 + timedelta(minutes=2)),
          inc.alert("RequestErrorRate", "frontend-proxy", "warning", "frontend-proxy 5xx ratio above 5%", t0 + timedelta(minutes=1))]
    inc.alerts_over_time(al, style="prom", every=60)
    gt = {"groups": [grp("flagd-config-1", "ConfigMap", ["flagd-config\\b"], rc=True, name="flagd-config"),
                     grp("flagd-service-1", "Service", ["flagd\\b"]),
                     grp("flagd-pod-1", "Pod", ["flagd-.*"]),
                     grp("product-catalog-service-1", "Service", ["product-catalog\\b"]),
                     grp("product-catalog-pod-1", "Pod", ["product-catalog-.*"]),
                     grp("frontend-service-1", "Service", ["frontend\\b"]),
                     grp("checkout-service-1", "Service", ["checkout\\b"]),
                     grp("frontend-proxy-service-1", "Service", ["frontend-proxy\\b"])],
          "aliases": [["flagd-service-1", "flagd-pod-1"], ["product-catalog-service-1", "product-catalog-pod-1"]],
          "propagations": [prop("flagd-config-1", "flagd-service-1", "productCatalogFailure defaultVariant set to on", "flagd serves flag on"),
                           prop("flagd-service-1", "product-catalog-service-1", "flag on", "product-catalog GetProduct errors for OLJCESPC7Z"),
                           prop("product-catalog-service-1", "frontend-service-1", "GetProduct errors", "frontend error rate"),
                           prop("product-catalog-service-1", "checkout-service-1", "GetProduct errors", "checkout error rate"),
                           prop("frontend-service-1", "frontend-proxy-service-1", "frontend errors", "frontend-proxy 5xx")],
          "fault": [{"category": "Configuration Setting", "condition": "productCatalogFailure feature flag on", "fault_mechanism": "custom(flagd)",
                     "entity": {"kind": "ConfigMap", "name": "flagd-config", "group_id": "flagd-config-1"}}],
          "alerts": [{"group_id": "frontend-service-1", "id": "RequestErrorRate"},
                     {"group_id": "checkout-service-1", "id": "RequestErrorRate"},
                     {"group_id": "product-catalog-service-1", "id": "RequestErrorRate"},
                     {"group_id": "frontend-proxy-service-1", "id": "RequestErrorRate"}]}
    return inc, gt


def inc5():
    """catalogue: NetworkPolicy on valkey-cart admits the wrong label, cart cut off."""
    t0 = datetime(2026, 10, 19, 16, 2, 12, tzinfo=UTC)
    inc = Incident(5, t0, 505, quoted=True, fmt={"events": "events.k8s.io/v1", "managedFields": True, "otlp_kind": True, "epoch_metrics": True})
    svcs = ["frontend-proxy", "frontend", "cart", "valkey-cart", "checkout", "product-catalog", "currency", "load-generator"]
    inc.baseline_objects(svcs)
    def np_(name, sel, ingress, t, rv, types=("Ingress",)):
        m = inc.meta("NetworkPolicy", name, rv, labels={"app.kubernetes.io/part-of": "opentelemetry-demo", "policy-tier": "baseline"}, mf_time=t,
                     manager="argocd-controller")
        m["annotations"] = {"argocd.argoproj.io/tracking-id": f"otel-demo:networking.k8s.io/NetworkPolicy:otel-demo/{name}"}
        return {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": m,
                "spec": {"podSelector": {"matchLabels": sel}, "policyTypes": list(types), "ingress": ingress}}
    # harmless: load-generator policy allowing all ingress (created 4 min before)
    inc.obj(t0 - timedelta(minutes=4), np_("load-generator-ui", {"app.kubernetes.io/name": "load-generator"},
                                         [{"ports": [{"port": 8089, "protocol": "TCP"}]}], t0 - timedelta(minutes=4), 61020))
    inc.obj(t0, np_("valkey-cart-ingress", {"app.kubernetes.io/name": "valkey-cart"},
                    [{"from": [{"podSelector": {"matchLabels": {"app": "cart"}}}], "ports": [{"port": 6379, "protocol": "TCP"}]}], t0, 61077))
    inc.effects = {"valkey-cart": {"down": True, "down_ms": 5000, "err": 1.0, "msg": "It was not possible to connect to the redis server(s). UnableToConnect on valkey-cart:6379", "after": t0 + timedelta(seconds=10)}}
    inc.traffic(["cart", "checkout", "home"], per_min=3)
    inc.std_metrics(svcs, {
        "cart": {"erps": lambda t: 1.8 if t >= t0 else 0.0, "p95": lambda t: 5020.0 if t >= t0 else 6.0},
        "valkey-cart": {"rps": lambda t: 0.0 if t >= t0 + timedelta(seconds=10) else 7.5},
        "frontend": {"erps": lambda t: 1.5 if t >= t0 else 0.0}})
    cartpod = inc.pods["cart"][0]
    for k in range(14):
        t = t0 + timedelta(seconds=12 + 51 * k)
        inc.log(t, "cart", "ERROR", "StackExchange.Redis.RedisConnectionException: It was not possible to connect to the redis server(s). UnableToConnect on valkey-cart:6379/Interactive, Initializing/NotStarted, last: NONE, origin: BeginConnectAsync, outstanding: 0, last-read: 5s ago, last-write: 5s ago, keep-alive: 60s, state: Connecting, mgr: 10 of 10 available, last-heartbeat: never, global: 5s ago, v: 2.8.16.12844")
        inc.log(t + timedelta(seconds=1), "cart", "ERROR", json.dumps({"@t": iso(t), "@l": "Error", "@mt": "Can't access cart storage. {Exception}", "SourceContext": "cart.cartstore.ValkeyCartStore"}))
        inc.log(t + timedelta(seconds=2), "frontend", "ERROR", json.dumps({"level": 50, "msg": "AddItem failed", "err": "9 FAILED_PRECONDITION: Can't access cart storage."}))
        inc.log(t + timedelta(seconds=30), "valkey-cart", "INFO", f"1:M {t.strftime('%d %b %Y %H:%M:%S')}.118 * 1 changes in 3600 seconds. Saving...")
    # cart liveness fails (it checks redis) -> restarts: victim restarting
    inc.event(t0 + timedelta(minutes=3), "Pod", cartpod, "Unhealthy", "Liveness probe failed: HTTP probe failed with statuscode: 503", typ="Warning", count=3, comp="kubelet")
    inc.event(t0 + timedelta(minutes=3, seconds=2), "Pod", cartpod, "Killing", "Container cart failed liveness probe, will be restarted", comp="kubelet")
    inc.event(t0 + timedelta(minutes=8), "Pod", cartpod, "BackOff", "Back-off restarting failed container cart in pod " + cartpod, typ="Warning", count=4, comp="kubelet")
    noise_common(inc, None)
    inc.event(inc.start + timedelta(minutes=6), "Node", "worker-3", "ContainerGCFailed", "rpc error: code = DeadlineExceeded desc = context deadline exceeded", typ="Warning", ns="default", comp="kubelet")
    for k in range(4):
        inc.event(inc.start + timedelta(minutes=2 + 8 * k), "Pod", "argocd-repo-server-5d8f9c7b6d-wm4zt", "Unhealthy", "Readiness probe failed: Get \"http://10.42.3.4:8084/healthz\": context deadline exceeded", typ="Warning", count=2 + k, ns="argocd")
    al = [inc.alert("RequestErrorRate", "frontend", "critical", "frontend error ratio", t0 + timedelta(seconds=50)),
          inc.alert("RequestErrorRate", "cart", "critical", "cart error ratio", t0 + timedelta(seconds=40)),
          inc.alert("RequestLatency", "cart", "warning", "cart p95 latency", t0 + timedelta(minutes=1)),
          inc.alert("KubePodCrashLooping", None, "warning", f"Pod otel-demo/{cartpod} (cart) is in waiting state (reason: CrashLoopBackOff).", t0 + timedelta(minutes=9), {"pod": cartpod, "container": "cart"})]
    inc.alerts_over_time(al, style="am_list", every=60)
    gt = {"groups": [grp("valkey-cart-ingress", "NetworkPolicy", ["valkey-cart-ingress"], rc=True, name="valkey-cart-ingress"),
                     grp("valkey-cart-service-1", "Service", ["valkey-cart\\b"]),
                     grp("valkey-cart-pod-1", "Pod", ["valkey-cart-.*"]),
                     grp("cart-service-1", "Service", ["cart\\b"]),
                     grp("cart-pod-1", "Pod", ["^cart-.*"]),
                     grp("frontend-service-1", "Service", ["frontend\\b"])],
          "aliases": [["valkey-cart-service-1", "valkey-cart-pod-1"], ["cart-service-1", "cart-pod-1"]],
          "propagations": [prop("valkey-cart-ingress", "valkey-cart-pod-1", "ingress allowed only from pods labelled app=cart (cart pods carry app.kubernetes.io/name=cart)", "valkey-cart unreachable from cart"),
                           prop("valkey-cart-service-1", "cart-service-1", "connection timeouts to valkey-cart:6379", "cart errors, liveness failures, restarts"),
                           prop("cart-service-1", "frontend-service-1", "cart errors", "frontend error rate")],
          "fault": [{"category": "Network", "condition": "NetworkPolicy blocks cart -> valkey-cart", "fault_mechanism": "network_policy",
                     "entity": {"kind": "NetworkPolicy", "name": "valkey-cart-ingress", "group_id": "valkey-cart-ingress"}}],
          "alerts": [{"group_id": "frontend-service-1", "id": "RequestErrorRate"},
                     {"group_id": "cart-service-1", "id": "RequestErrorRate"},
                     {"group_id": "cart-service-1", "id": "RequestLatency"},
                     {"group_id": "cart-pod-1", "id": "KubePodCrashLooping"}]}
    return inc, gt



def inc6():
    """novel: ResourceQuota limits.memory lowered; a routine node drain then cannot recreate pods."""
    t0 = datetime(2026, 10, 23, 3, 30, 0, tzinfo=UTC)   # drain time
    tq = t0 - timedelta(minutes=9)                       # quota edit
    inc = Incident(6, t0, 606, quoted=False, fmt={"events": "v1", "managedFields": False, "watch": False, "no_parents": False})
    svcs = ["frontend-proxy", "frontend", "recommendation", "product-catalog", "quote", "shipping", "checkout", "currency", "ad", "cart", "valkey-cart"]
    inc.baseline_objects(svcs)
    def rq(hard_mem, rv, t, used="5376Mi"):
        m = inc.meta("ResourceQuota", "otel-demo-compute", rv, labels={"owner": "platform-team"}, mf_time=t, manager="kubectl-client-side-apply")
        m["annotations"] = {"kubectl.kubernetes.io/last-applied-configuration": json.dumps({"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "otel-demo-compute", "namespace": NS}, "spec": {"hard": {"limits.memory": hard_mem, "pods": "40"}}})}
        return {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": m,
                "spec": {"hard": {"limits.memory": hard_mem, "pods": "40", "requests.cpu": "8"}},
                "status": {"hard": {"limits.memory": hard_mem, "pods": "40", "requests.cpu": "8"},
                           "used": {"limits.memory": used, "pods": "21", "requests.cpu": "1150m"}}}
    inc.obj(inc.start + timedelta(seconds=9), rq("16Gi", 70011, inc.start))
    inc.obj(tq, rq("4Gi", 70398, tq))
    # node drain (routine kernel patching)
    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "worker-3", "uid": uid("node3"), "resourceVersion": "70502",
            "labels": {"kubernetes.io/hostname": "worker-3", "topology.kubernetes.io/zone": "eu-west-1c"},
            "annotations": {"patching.ops/ticket": "CHG-20931 kernel 6.8.0-47"}},
            "spec": {"unschedulable": True, "taints": [{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}]},
            "status": {"conditions": [{"type": "Ready", "status": "True"}]}}
    inc.obj(t0 - timedelta(seconds=30), node)
    inc.event(t0 - timedelta(seconds=30), "Node", "worker-3", "NodeNotSchedulable", "Node worker-3 status is now: NodeNotSchedulable", ns="default", comp="kubelet", host="worker-3")
    victims = ["recommendation", "quote"]
    for s in victims:
        pname, rs = inc.pods[s]
        inc.event(t0 + timedelta(seconds=2), "Pod", pname, "Killing", f"Stopping container {s}", comp="kubelet", host="worker-3")
        inc.event(t0 + timedelta(seconds=2), "Pod", pname, "Evicted", "Evicted by drain (kubectl drain worker-3 --ignore-daemonsets --delete-emptydir-data)", comp="eviction-api")
        for k in range(9):
            t = t0 + timedelta(seconds=3 + 70 * k)
            inc.event(t, "ReplicaSet", rs, "FailedCreate",
                      f'Error creating: pods "{rs}-{h(s + str(k), 5)}" is forbidden: exceeded quota: otel-demo-compute, requested: limits.memory=512Mi, used: limits.memory=5376Mi, limited: limits.memory=4Gi',
                      typ="Warning", count=k + 1, first=t0 + timedelta(seconds=3), comp="replicaset-controller")
        inc.obj(t0 + timedelta(seconds=90), inc.deployment(s, rv=70600 + len(s), avail=0,
                res={"limits": {"memory": "512Mi"}, "requests": {"cpu": "50m", "memory": "256Mi"}}))
    # unrelated: checkout deploy with a harmless env change 5 minutes before the drain (new pod came up before quota? it got created fine since it replaced 1:1? no - it is a label-only change)
    d = inc.deployment("checkout", rv=70450)
    d["metadata"]["labels"]["cost-center"] = "cc-4410"
    inc.obj(t0 - timedelta(minutes=5), d)
    inc.effects = {"recommendation": {"err": 1.0, "down": True, "msg": "14 UNAVAILABLE: No connection established", "after": t0 + timedelta(seconds=3)},
                   "quote": {"err": 1.0, "down": True, "msg": "error trying to connect: tcp connect error: Connection refused (os error 111)", "after": t0 + timedelta(seconds=3)}}
    inc.traffic(["product", "checkout", "home"], per_min=3)
    inc.std_metrics(svcs, {
        "recommendation": {"rps": lambda t: None if t >= t0 else 2.0},
        "quote": {"rps": lambda t: None if t >= t0 else 1.0},
        "frontend": {"erps": lambda t: 0.8 if t >= t0 else 0.0},
        "shipping": {"erps": lambda t: 0.5 if t >= t0 else 0.0},
        "checkout": {"erps": lambda t: 0.5 if t >= t0 else 0.0}})
    for k in range(12):
        t = t0 + timedelta(seconds=25 + 60 * k)
        inc.log(t, "frontend", "ERROR", json.dumps({"level": 50, "msg": "ListRecommendations failed", "err": "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 10.96.98.178:8080"}))
        inc.log(t + timedelta(seconds=4), "shipping", "ERROR", "failed to get quote: error sending request for url (http://quote:8080/getquote): error trying to connect: tcp connect error: Connection refused (os error 111)")
        inc.log(t + timedelta(seconds=6), "checkout", "ERROR", "failed to get shipping quote: rpc error: code = Internal desc = failed to get quote")
    noise_common(inc, ("ad", t0 - timedelta(minutes=15), "Liveness probe failed: Get \"http://10.42.1.40:8080/\": EOF"))
    # second namespace: cert-manager order failing
    inc.event(inc.start + timedelta(minutes=4), "Order", "shop-tls-1-339218", "Failed", "Failed to finalize Order: 429 urn:ietf:params:acme:error:rateLimited", typ="Warning", ns="cert-manager", comp="cert-manager-orders")
    al = [inc.alert("RequestErrorRate", "frontend", "critical", "frontend error ratio", t0 + timedelta(minutes=1)),
          inc.alert("RequestErrorRate", "shipping", "warning", "shipping error ratio", t0 + timedelta(minutes=1, seconds=15)),
          inc.alert("RequestErrorRate", "checkout", "warning", "checkout error ratio", t0 + timedelta(minutes=1, seconds=30)),
          inc.alert("KubeDeploymentReplicasMismatch", None, "warning", "Deployment otel-demo/recommendation has not matched the expected number of replicas", t0 + timedelta(minutes=5), {"deployment": "recommendation"}),
          inc.alert("KubeDeploymentReplicasMismatch", None, "warning", "Deployment otel-demo/quote has not matched the expected number of replicas", t0 + timedelta(minutes=5), {"deployment": "quote"}),
          inc.alert("KubeQuotaExceeded", None, "info", "Namespace otel-demo is using 131% of its limits.memory quota.", tq + timedelta(minutes=15), {"resourcequota": "otel-demo-compute", "resource": "limits.memory"}),
          inc.alert("KubeNodeUnschedulable", None, "info", "worker-3 is unschedulable", t0 + timedelta(minutes=1), {"node": "worker-3", "namespace": "default"})]
    inc.alerts_over_time(al, style="prom", every=60)
    gt = {"groups": [grp("otel-demo-compute-quota", "ResourceQuota", ["otel-demo-compute"], rc=True, name="otel-demo-compute"),
                     grp("recommendation-deployment-1", "Deployment", ["recommendation\\b"]),
                     grp("recommendation-replicaset-1", "ReplicaSet", ["recommendation-.*"]),
                     grp("recommendation-service-1", "Service", ["recommendation\\b"]),
                     grp("quote-deployment-1", "Deployment", ["quote\\b"]),
                     grp("quote-replicaset-1", "ReplicaSet", ["quote-.*"]),
                     grp("quote-service-1", "Service", ["quote\\b"]),
                     grp("shipping-service-1", "Service", ["shipping\\b"]),
                     grp("checkout-service-1", "Service", ["checkout\\b"]),
                     grp("frontend-service-1", "Service", ["frontend\\b"])],
          "aliases": [["recommendation-deployment-1", "recommendation-replicaset-1", "recommendation-service-1"],
                      ["quote-deployment-1", "quote-replicaset-1", "quote-service-1"]],
          "propagations": [prop("otel-demo-compute-quota", "recommendation-replicaset-1", "limits.memory hard lowered 16Gi -> 4Gi below current use (5376Mi); drain evicts pods", "replacement pods forbidden: exceeded quota"),
                           prop("otel-demo-compute-quota", "quote-replicaset-1", "same quota", "replacement pods forbidden"),
                           prop("recommendation-service-1", "frontend-service-1", "recommendation has no pods", "frontend errors"),
                           prop("quote-service-1", "shipping-service-1", "quote has no pods", "shipping errors"),
                           prop("shipping-service-1", "checkout-service-1", "shipping errors", "checkout errors")],
          "fault": [{"category": "Resource", "condition": "ResourceQuota exhausted after lowering", "fault_mechanism": "resource_quota",
                     "entity": {"kind": "ResourceQuota", "name": "otel-demo-compute", "group_id": "otel-demo-compute-quota"}}],
          "alerts": [{"group_id": "frontend-service-1", "id": "RequestErrorRate"},
                     {"group_id": "shipping-service-1", "id": "RequestErrorRate"},
                     {"group_id": "checkout-service-1", "id": "RequestErrorRate"},
                     {"group_id": "recommendation-deployment-1", "id": "KubeDeploymentReplicasMismatch"},
                     {"group_id": "quote-deployment-1", "id": "KubeDeploymentReplicasMismatch"},
                     {"group_id": "otel-demo-compute-quota", "id": "KubeQuotaExceeded"}]}
    return inc, gt


def inc7():
    """novel: HPA maxReplicas lowered (stale GitOps sync) during the daily traffic peak."""
    t0 = datetime(2026, 10, 27, 18, 4, 40, tzinfo=UTC)
    inc = Incident(7, t0, 707, quoted=True, fmt={"events": "events.k8s.io/v1", "managedFields": True, "watch": True, "iso_traces": True})
    svcs = ["frontend-proxy", "frontend", "product-catalog", "currency", "ad", "recommendation", "cart", "valkey-cart", "checkout", "load-generator"]
    inc.baseline_objects(svcs)
    def hpa(maxr, cur, desired, rv, t, limited=False):
        m = inc.meta("HorizontalPodAutoscaler", "frontend", rv, mf_time=t, manager="argocd-controller")
        m["annotations"] = {"argocd.argoproj.io/tracking-id": "otel-demo:autoscaling/HorizontalPodAutoscaler:otel-demo/frontend"}
        conds = [{"type": "AbleToScale", "status": "True", "reason": "ReadyForNewScale"},
                 {"type": "ScalingActive", "status": "True", "reason": "ValidMetricFound"},
                 {"type": "ScalingLimited", "status": "True" if limited else "False",
                  "reason": "TooManyReplicas" if limited else "DesiredWithinRange",
                  "message": "the desired replica count is more than the maximum replica count" if limited else "the desired count is within the acceptable range"}]
        return {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": m,
                "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "frontend"},
                         "minReplicas": 2, "maxReplicas": maxr,
                         "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}}]},
                "status": {"currentReplicas": cur, "desiredReplicas": desired, "conditions": conds,
                           "currentMetrics": [{"type": "Resource", "resource": {"name": "cpu", "current": {"averageUtilization": 65 if not limited else 188}}}]}}
    inc.obj(inc.start + timedelta(seconds=5), hpa(10, 6, 6, 90210, inc.start), watch="ADDED")
    inc.obj(inc.start + timedelta(seconds=8), inc.deployment("frontend", replicas=6, rv=90200), watch="MODIFIED")
    inc.obj(t0, hpa(2, 6, 2, 90577, t0), watch="MODIFIED")
    inc.obj(t0 + timedelta(minutes=3), hpa(2, 2, 2, 90601, t0, limited=True), watch="MODIFIED")
    inc.event(t0 + timedelta(seconds=15), "HorizontalPodAutoscaler", "frontend", "SuccessfulRescale", "New size: 2; reason: All metrics below target", comp="horizontal-pod-autoscaler")
    inc.event(t0 + timedelta(seconds=16), "Deployment", "frontend", "ScalingReplicaSet", f"Scaled down replica set {inc.pods['frontend'][1]} to 2 from 6", comp="deployment-controller")
    for i in range(4):
        pn = inc.pods['frontend'][1] + "-" + h("fp" + str(i), 5)
        inc.event(t0 + timedelta(seconds=17), "Pod", pn, "Killing", "Stopping container frontend", comp="kubelet")
    # argocd app sync events (harmless sibling change: a label on the ad deployment in the same sync)
    inc.event(t0 - timedelta(seconds=5), "Application", "otel-demo", "OperationStarted", "Initiated automated sync to 'a41c9e2'", ns="argocd", comp="argocd-application-controller")
    inc.event(t0 + timedelta(seconds=8), "Application", "otel-demo", "ResourceUpdated", "Updated sync status: OutOfSync -> Synced", ns="argocd", comp="argocd-application-controller")
    d = inc.deployment("ad", rv=90570)
    d["metadata"]["labels"]["app.kubernetes.io/version"] = "2.0.2"
    inc.obj(t0 - timedelta(seconds=2), d, watch="MODIFIED")
    fd = inc.deployment("frontend", replicas=2, rv=90590)
    inc.obj(t0 + timedelta(seconds=16), fd, watch="MODIFIED")
    inc.effects = {"frontend": {"lat": 25.0, "err": 0.12, "msg": "upstream overflow", "after": t0 + timedelta(seconds=40)},
                   "frontend-proxy": {"err": 0.10, "msg": "503 upstream connect error or disconnect/reset before headers. reset reason: overflow", "after": t0 + timedelta(seconds=50)}}
    inc.traffic(["home", "product", "cart"], per_min=4)
    fp = inc.pods["frontend"][0]
    inc.std_metrics(svcs, {
        "frontend": {"cpu": lambda t: 0.99 if t >= t0 + timedelta(seconds=20) else 0.33,
                     "p95": lambda t: 3100 + 400 * inc.rnd.random() if t >= t0 + timedelta(seconds=40) else 21.0,
                     "erps": lambda t: 2.2 if t >= t0 + timedelta(seconds=40) else 0.0,
                     "rps": lambda t: 38.0 + 2 * inc.rnd.random()},
        "frontend-proxy": {"erps": lambda t: 2.0 if t >= t0 + timedelta(seconds=50) else 0.0, "rps": lambda t: 41.0},
        "load-generator": {"rps": lambda t: 42.0}})
    inc.metric("service_frontend.tsv", "kube_deployment_status_replicas_available", lambda t: 2 if t >= t0 + timedelta(seconds=20) else 6, {"namespace": NS, "deployment": "frontend"})
    inc.metric("service_frontend.tsv", "kube_horizontalpodautoscaler_spec_max_replicas", lambda t: 2 if t >= t0 else 10, {"namespace": NS, "horizontalpodautoscaler": "frontend"})
    for k in range(13):
        t = t0 + timedelta(seconds=45 + 53 * k)
        inc.log(t, "frontend-proxy", "WARN", f'[{iso(t)}] "GET /api/products HTTP/1.1" 503 UO 0 81 0 - "-" "python-requests/2.32.3" "{uid("rq" + str(k))}" "frontend:8080" "-"')
        inc.log(t + timedelta(seconds=2), "frontend", "WARN", json.dumps({"level": 40, "msg": "event loop lag high", "lagMs": 740 + 11 * k}))
        inc.log(t + timedelta(seconds=5), "load-generator", "INFO", f"GET /api/products 503 users=300 spawn_rate=5")
    noise_common(inc, ("currency", t0 - timedelta(minutes=10), "Liveness probe failed: grpc health check timed out"))
    al = [inc.alert("RequestLatency", "frontend", "warning", "frontend p95 latency", t0 + timedelta(minutes=1)),
          inc.alert("RequestErrorRate", "frontend-proxy", "critical", "frontend-proxy 5xx ratio", t0 + timedelta(minutes=1, seconds=10)),
          inc.alert("CPUThrottlingHigh", None, "info", "throttling of CPU in namespace otel-demo for container frontend", t0 + timedelta(minutes=3), {"pod": fp, "container": "frontend"}),
          inc.alert("KubeHpaMaxedOut", None, "warning", "HPA otel-demo/frontend has been running at max replicas for longer than 15 minutes.", t0 + timedelta(minutes=12), {"horizontalpodautoscaler": "frontend"})]
    inc.alerts_over_time(al, style="wrapped", every=60)
    gt = {"groups": [grp("frontend-hpa-1", "HorizontalPodAutoscaler", ["frontend\\b"], rc=True, name="frontend"),
                     grp("frontend-deployment-1", "Deployment", ["frontend\\b"]),
                     grp("frontend-pod-1", "Pod", ["frontend-[a-z0-9]+-[a-z0-9]+$"]),
                     grp("frontend-service-1", "Service", ["frontend\\b"]),
                     grp("frontend-proxy-service-1", "Service", ["frontend-proxy\\b"])],
          "aliases": [["frontend-deployment-1", "frontend-pod-1", "frontend-service-1"]],
          "propagations": [prop("frontend-hpa-1", "frontend-deployment-1", "maxReplicas lowered 10 -> 2 by automated sync during peak load", "frontend scaled 6 -> 2"),
                           prop("frontend-deployment-1", "frontend-pod-1", "2 replicas at peak", "CPU saturation, latency"),
                           prop("frontend-service-1", "frontend-proxy-service-1", "frontend saturated", "frontend-proxy 503 overflow errors")],
          "fault": [{"category": "Configuration Setting", "condition": "HPA maxReplicas too low for load", "fault_mechanism": "hpa_max_replicas",
                     "entity": {"kind": "HorizontalPodAutoscaler", "name": "frontend", "group_id": "frontend-hpa-1"}}],
          "alerts": [{"group_id": "frontend-service-1", "id": "RequestLatency"},
                     {"group_id": "frontend-proxy-service-1", "id": "RequestErrorRate"},
                     {"group_id": "frontend-pod-1", "id": "CPUThrottlingHigh"},
                     {"group_id": "frontend-hpa-1", "id": "KubeHpaMaxedOut"}],
          "_wrapped": True}
    return inc, gt


def inc8():
    """novel: Ingress pathType Prefix -> Exact on '/' breaks every external route but the home page."""
    t0 = datetime(2026, 11, 2, 11, 12, 5, tzinfo=UTC)
    inc = Incident(8, t0, 808, quoted=False, fmt={"events": "v1", "managedFields": True, "otlp_kind": True, "epoch_metrics": True, "json_tags": False})
    svcs = ["frontend-proxy", "frontend", "product-catalog", "currency", "ad", "recommendation", "cart", "valkey-cart", "checkout", "image-provider"]
    inc.baseline_objects(svcs)
    def ing(ptype, rv, t):
        m = inc.meta("Ingress", "astronomy-shop", rv, mf_time=t, manager="helm")
        m["annotations"] = {"nginx.ingress.kubernetes.io/proxy-body-size": "8m", "meta.helm.sh/release-name": "otel-demo"}
        return {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": m,
                "spec": {"ingressClassName": "nginx", "tls": [{"hosts": ["shop.example.com"], "secretName": "shop-tls"}],
                         "rules": [{"host": "shop.example.com", "http": {"paths": [
                             {"path": "/", "pathType": ptype, "backend": {"service": {"name": "frontend-proxy", "port": {"number": 8080}}}},
                             {"path": "/feature", "pathType": "Prefix", "backend": {"service": {"name": "frontend-proxy", "port": {"number": 8080}}}}]}}]},
                "status": {"loadBalancer": {"ingress": [{"ip": "203.0.113.40"}]}}}
    inc.obj(inc.start + timedelta(seconds=6), ing("Prefix", 41002, inc.start))
    # decoy: frontend rollout (template annotation bump) 3 min before, healthy
    fd = inc.deployment("frontend", rv=41510, gen=4, ann={"kubectl.kubernetes.io/restartedAt": iso(t0 - timedelta(minutes=3), False)})
    inc.obj(t0 - timedelta(minutes=3), fd)
    newfp, newrs = podname("frontend", "roll8")
    inc.event(t0 - timedelta(minutes=3), "Deployment", "frontend", "ScalingReplicaSet", f"Scaled up replica set {newrs} to 1", comp="deployment-controller")
    inc.event(t0 - timedelta(minutes=3) + timedelta(seconds=1), "Pod", newfp, "Pulled", "Container image \"ghcr.io/open-telemetry/demo:2.0.2-frontend\" already present on machine", comp="kubelet")
    inc.event(t0 - timedelta(minutes=3) + timedelta(seconds=2), "Pod", newfp, "Started", "Started container frontend", comp="kubelet")
    inc.event(t0 - timedelta(minutes=2, seconds=40), "Deployment", "frontend", "ScalingReplicaSet", f"Scaled down replica set {inc.pods['frontend'][1]} to 0 from 1", comp="deployment-controller")
    inc.pods["frontend"] = (newfp, newrs)
    inc.obj(t0 - timedelta(minutes=2, seconds=30), inc.pod("frontend"))
    inc.obj(t0, ing("Exact", 41588, t0))
    inc.event(t0 + timedelta(seconds=1), "Ingress", "astronomy-shop", "Sync", "Scheduled for sync", comp="nginx-ingress-controller")
    # in-cluster traffic (load-generator -> frontend-proxy) stays healthy
    inc.traffic(["home", "product", "cart", "checkout"], per_min=2)
    inc.std_metrics(svcs)
    inc.metric("service_frontend-proxy.tsv", "nginx_ingress_controller_requests:rate1m",
               lambda t: 0.4 if t >= t0 else 6.2, {"ingress": "astronomy-shop", "namespace": NS, "service": "frontend-proxy", "status": "200"})
    inc.metric("service_frontend-proxy.tsv", "nginx_ingress_controller_requests:rate1m",
               lambda t: 5.9 if t >= t0 else 0.0, {"ingress": "astronomy-shop", "namespace": NS, "service": "frontend-proxy", "status": "404"})
    paths = ["/api/products", "/_next/static/chunks/pages/_app-1d2b7c3.js", "/api/cart", "/images/products/SolarSystemColorImager.jpg", "/api/recommendations", "/api/checkout"]
    for k in range(40):
        t = t0 + timedelta(seconds=7 + 19 * k)
        p = paths[k % len(paths)]
        ip = "198.51.100.%d" % (10 + k % 30)
        body = f'{ip} - - [{t.strftime("%d/%b/%Y:%H:%M:%S")} +0000] "GET {p} HTTP/2.0" 404 548 "https://shop.example.com/" "Mozilla/5.0" 61 0.000 [upstream-default-backend] [] - - - - {h("req" + str(k), 32)}'
        inc.logs.append([chts(t), "", "", 0, "INFO", 9, "ingress-nginx-controller", body,
                         json.dumps({"k8s.namespace.name": "ingress-nginx", "k8s.pod.name": "ingress-nginx-controller-7b9c6d5f8-4hxkq", "service.name": "ingress-nginx-controller"}, sort_keys=True), "{}"])
        if k % 5 == 0:
            body2 = f'{ip} - - [{t.strftime("%d/%b/%Y:%H:%M:%S")} +0000] "GET / HTTP/2.0" 200 18211 "-" "Mozilla/5.0" 54 0.021 [otel-demo-frontend-proxy-8080] [] 10.42.2.15:8080 18211 0.021 200 {h("ok" + str(k), 32)}'
            inc.logs.append([chts(t + timedelta(seconds=1)), "", "", 0, "INFO", 9, "ingress-nginx-controller", body2,
                             json.dumps({"k8s.namespace.name": "ingress-nginx", "k8s.pod.name": "ingress-nginx-controller-7b9c6d5f8-4hxkq", "service.name": "ingress-nginx-controller"}, sort_keys=True), "{}"])
    for k in range(10):
        t = inc.start + timedelta(minutes=1 + 2 * k)
        if t < t0:
            body = f'198.51.100.{k} - - [{t.strftime("%d/%b/%Y:%H:%M:%S")} +0000] "GET /api/products HTTP/2.0" 200 4120 "https://shop.example.com/" "Mozilla/5.0" 60 0.034 [otel-demo-frontend-proxy-8080] [] 10.42.2.15:8080 4120 0.034 200 {h("pre" + str(k), 32)}'
            inc.logs.append([chts(t), "", "", 0, "INFO", 9, "ingress-nginx-controller", body,
                             json.dumps({"k8s.namespace.name": "ingress-nginx", "k8s.pod.name": "ingress-nginx-controller-7b9c6d5f8-4hxkq", "service.name": "ingress-nginx-controller"}, sort_keys=True), "{}"])
    inc.logs.append([chts(t0 + timedelta(seconds=1)), "", "", 0, "INFO", 9, "ingress-nginx-controller",
                     'I1102 11:12:06.118254       7 event.go:377] Event(v1.ObjectReference{Kind:"Ingress", Namespace:"otel-demo", Name:"astronomy-shop", APIVersion:"networking.k8s.io/v1", ResourceVersion:"41588", FieldPath:""}): type: \'Normal\' reason: \'Sync\' Scheduled for sync',
                     json.dumps({"k8s.namespace.name": "ingress-nginx", "k8s.pod.name": "ingress-nginx-controller-7b9c6d5f8-4hxkq", "service.name": "ingress-nginx-controller"}, sort_keys=True), "{}"])
    noise_common(inc, ("image-provider", t0 - timedelta(minutes=14), "Liveness probe failed: Get \"http://10.42.0.21:8081/status\": dial tcp 10.42.0.21:8081: connect: connection refused"))
    al = [inc.alert("NginxHighHttp4xxErrorRate", None, "critical", "Too many HTTP requests with status 4xx (> 5%) on ingress astronomy-shop", t0 + timedelta(minutes=1),
                    {"ingress": "astronomy-shop", "exported_service": "frontend-proxy", "service": "ingress-nginx-controller-metrics"}),
          inc.alert("BlackboxProbeHttpFailure", None, "critical", "HTTP status code is not 200-399 for https://shop.example.com/api/products", t0 + timedelta(minutes=1, seconds=30),
                    {"instance": "https://shop.example.com/api/products", "job": "blackbox-shop", "namespace": "monitoring"}),
          inc.alert("KubePodNotReady", None, "warning", "Pod otel-demo/image-provider has been in a non-ready state", t0 - timedelta(minutes=13), {"pod": inc.pods['image-provider'][0]})]
    inc.alerts_over_time(al, style="prom", every=60)
    gt = {"groups": [grp("astronomy-shop-ingress", "Ingress", ["astronomy-shop"], rc=True, name="astronomy-shop"),
                     grp("frontend-proxy-service-1", "Service", ["frontend-proxy\\b"])],
          "aliases": [],
          "propagations": [prop("astronomy-shop-ingress", "frontend-proxy-service-1", "path '/' pathType changed Prefix -> Exact", "every external request except '/' gets 404 from the default backend (unavailable)")],
          "fault": [{"category": "Configuration Setting", "condition": "Ingress pathType Exact on '/'", "fault_mechanism": "ingress_path_type",
                     "entity": {"kind": "Ingress", "name": "astronomy-shop", "group_id": "astronomy-shop-ingress"}}],
          "alerts": [{"group_id": "astronomy-shop-ingress", "id": "NginxHighHttp4xxErrorRate"},
                     {"group_id": "astronomy-shop-ingress", "id": "BlackboxProbeHttpFailure"}]}
    return inc, gt


INCIDENTS = [inc1, inc2, inc3, inc4, inc5, inc6, inc7, inc8]


def main():
    if len(sys.argv) != 2:
        print("usage: gen.py OUT", file=sys.stderr)
        sys.exit(2)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for f in INCIDENTS:
        inc, gt = f()
        inc.write(out, gt)


if __name__ == "__main__":
    main()
