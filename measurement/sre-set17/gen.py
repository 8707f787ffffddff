#!/usr/bin/env python3
"""sre-set17: held-out SRE incident snapshots (ITBench-Lite v0.2 layout).

Usage: python gen.py OUT   -> writes OUT/Scenario-<N>/... for every incident.
Stdlib only, deterministic (no clock, no network, seeded RNG per scenario).
"""
import csv
import datetime as _dt
import hashlib
import io
import json
import os
import random
import sys

NS = "otel-demo"


# ----------------------------------------------------------------------------- time helpers
def utc(epoch):
    return _dt.datetime.fromtimestamp(epoch, tz=_dt.timezone.utc)


def ts_ch(epoch):
    """ClickHouse DateTime64(9) text: 2026-03-11 14:02:03.123456789"""
    d = utc(int(epoch))
    ns = int(round((epoch - int(epoch)) * 1e9))
    return d.strftime("%Y-%m-%d %H:%M:%S") + ".%09d" % ns


def iso(epoch, frac=False):
    d = utc(int(epoch))
    if frac:
        us = int(round((epoch - int(epoch)) * 1e6))
        return d.strftime("%Y-%m-%dT%H:%M:%S") + ".%06dZ" % us
    return d.strftime("%Y-%m-%dT%H:%M:%SZ")


def iso_ns(epoch):
    d = utc(int(epoch))
    ns = int(round((epoch - int(epoch)) * 1e9))
    return d.strftime("%Y-%m-%dT%H:%M:%S") + ".%09dZ" % ns


def fname_ts(epoch):
    d = utc(int(epoch))
    us = int(round((epoch - int(epoch)) * 1e6))
    return d.strftime("%Y-%m-%dT%H-%M-%S") + ".%06d" % us


def hx(seed, n):
    return hashlib.sha256(seed.encode()).hexdigest()[:n]


def uid(seed):
    h = hashlib.md5(seed.encode()).hexdigest()
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:32])


ALNUM = "bcdfghjklmnpqrstvwxz2456789"


def kname(seed, n):
    h = int(hashlib.sha1(seed.encode()).hexdigest(), 16)
    s = ""
    for _ in range(n):
        s += ALNUM[h % len(ALNUM)]
        h //= len(ALNUM)
    return s


# ----------------------------------------------------------------------------- object builders
def meta(name, ns, t, rv, labels=None, annotations=None, kind_seed="", managed=None, gen=None):
    m = {
        "name": name,
        "uid": uid(kind_seed + "/" + (ns or "") + "/" + name),
        "resourceVersion": str(rv),
        "creationTimestamp": iso(t),
    }
    if ns is not None:
        m["namespace"] = ns
    if gen is not None:
        m["generation"] = gen
    if labels:
        m["labels"] = labels
    if annotations:
        m["annotations"] = annotations
    if managed:
        m["managedFields"] = managed
    return m


def mf(manager, op, t, sub=None):
    e = {"manager": manager, "operation": op, "apiVersion": "apps/v1", "time": iso(t),
         "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {"f:labels": {}}, "f:spec": {}}}
    if sub:
        e["subresource"] = sub
    return e


def app_labels(app):
    return {"app.kubernetes.io/name": app, "app.kubernetes.io/component": app,
            "app.kubernetes.io/part-of": "opentelemetry-demo", "app.kubernetes.io/instance": "otel-demo",
            "opentelemetry.io/name": app}


def container(app, image_tag="2.0.2", port=8080, env=None, extra=None, mem="128Mi"):
    c = {
        "name": app,
        "image": "ghcr.io/open-telemetry/demo:%s-%s" % (image_tag, app),
        "imagePullPolicy": "IfNotPresent",
        "ports": [{"containerPort": port, "name": "service", "protocol": "TCP"}],
        "env": [{"name": "OTEL_SERVICE_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels['app.kubernetes.io/component']"}}},
                {"name": "OTEL_COLLECTOR_NAME", "value": "otel-collector"},
                {"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://$(OTEL_COLLECTOR_NAME):4317"}] + (env or []),
        "resources": {"limits": {"memory": mem}},
        "terminationMessagePath": "/dev/termination-log",
        "terminationMessagePolicy": "File",
    }
    if extra:
        c.update(extra)
    return c


def deployment(app, t, rv, replicas=1, ns=NS, image_tag="2.0.2", port=8080, env=None, pod_extra=None,
               c_extra=None, tmpl_ann=None, gen=1, managed=False, status=None, mem="128Mi", dep_ann=None,
               strategy=None):
    spec_t = {
        "metadata": {"labels": {"opentelemetry.io/name": app, "app.kubernetes.io/name": app,
                                "app.kubernetes.io/component": app}},
        "spec": {"containers": [container(app, image_tag, port, env, c_extra, mem)],
                 "serviceAccountName": "otel-demo", "restartPolicy": "Always",
                 "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
                 "schedulerName": "default-scheduler", "securityContext": {}},
    }
    if tmpl_ann:
        spec_t["metadata"]["annotations"] = tmpl_ann
    if pod_extra:
        spec_t["spec"].update(pod_extra)
    ann = {"deployment.kubernetes.io/revision": str(gen), "meta.helm.sh/release-name": "otel-demo",
           "meta.helm.sh/release-namespace": ns}
    if dep_ann:
        ann.update(dep_ann)
    d = {
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": meta(app, ns, t - 86400 * 6, rv, app_labels(app), ann, "Deployment",
                         [mf("helm", "Update", t - 86400 * 6), mf("kube-controller-manager", "Update", t - 3600, "status")] if managed else None,
                         gen),
        "spec": {"replicas": replicas, "revisionHistoryLimit": 10,
                 "selector": {"matchLabels": {"opentelemetry.io/name": app}},
                 "strategy": strategy or {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
                 "template": spec_t},
        "status": status or {"replicas": replicas, "readyReplicas": replicas, "availableReplicas": replicas,
                             "updatedReplicas": replicas, "observedGeneration": gen},
    }
    return d


def service(app, t, rv, port=8080, ns=NS, extra=None, name=None):
    s = {
        "apiVersion": "v1", "kind": "Service",
        "metadata": meta(name or app, ns, t - 86400 * 6, rv, app_labels(app),
                         {"meta.helm.sh/release-name": "otel-demo"}, "Service"),
        "spec": {"type": "ClusterIP", "clusterIP": "10.96.%d.%d" % (len(app) * 7 % 250, sum(map(ord, app)) % 250),
                 "ports": [{"name": "tcp-service", "port": port, "protocol": "TCP", "targetPort": port}],
                 "selector": {"opentelemetry.io/name": app}, "sessionAffinity": "None",
                 "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack", "internalTrafficPolicy": "Cluster"},
        "status": {"loadBalancer": {}},
    }
    if extra:
        s["spec"].update(extra)
    return s


def podname(app, seed, rs_seed=None):
    return "%s-%s-%s" % (app, kname(app + "rs" + (rs_seed if rs_seed is not None else seed), 10), kname(app + "pod" + seed, 5))


def pod(app, name, t, rv, node, ip, phase="Running", ready=True, restarts=0, ns=NS, image_tag="2.0.2",
        waiting=None, last_term=None, port=8080, pod_extra=None, c_extra=None, rs=None, ann=None):
    cs = {"name": app, "image": "ghcr.io/open-telemetry/demo:%s-%s" % (image_tag, app), "ready": ready,
          "restartCount": restarts, "started": ready,
          "containerID": "containerd://" + hx(name + str(rv), 64),
          "imageID": "ghcr.io/open-telemetry/demo@sha256:" + hx(app + image_tag, 64)}
    if waiting:
        cs["state"] = {"waiting": waiting}
    else:
        cs["state"] = {"running": {"startedAt": iso(t)}}
    if last_term:
        cs["lastState"] = {"terminated": last_term}
    else:
        cs["lastState"] = {}
    spec = {"containers": [container(app, image_tag, port, None, c_extra)], "nodeName": node,
            "serviceAccountName": "otel-demo", "restartPolicy": "Always", "terminationGracePeriodSeconds": 30}
    if pod_extra:
        spec.update(pod_extra)
    labels = {"opentelemetry.io/name": app, "app.kubernetes.io/name": app, "app.kubernetes.io/component": app,
              "pod-template-hash": name.split("-")[-2] if rs is None else rs}
    p = {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": meta(name, ns, t, rv, labels, ann, "Pod"),
        "spec": spec,
        "status": {"phase": phase, "podIP": ip, "hostIP": "10.0.%d.%d" % (1 + sum(map(ord, node)) % 3, 10 + len(node)),
                   "startTime": iso(t), "qosClass": "Burstable",
                   "conditions": [{"type": "Ready", "status": "True" if ready else "False", "lastTransitionTime": iso(t)}],
                   "containerStatuses": [cs]},
    }
    return p


def configmap(name, t, rv, data, ns=NS, labels=None, ann=None):
    return {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": meta(name, ns, t - 86400 * 6, rv, labels, ann, "ConfigMap"), "data": data}


# ----------------------------------------------------------------------------- yaml writer (GT)
def _ys(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, (int, float)):
        return str(v)
    return json.dumps(str(v))


def yaml_dump(v, ind=0):
    pad = "  " * ind
    out = []
    if isinstance(v, dict):
        for k, x in v.items():
            if isinstance(x, (dict, list)) and x:
                out.append("%s%s:" % (pad, k))
                out.append(yaml_dump(x, ind + 1))
            elif isinstance(x, dict):
                out.append("%s%s: {}" % (pad, k))
            elif isinstance(x, list):
                out.append("%s%s: []" % (pad, k))
            else:
                out.append("%s%s: %s" % (pad, k, _ys(x)))
    elif isinstance(v, list):
        for x in v:
            if isinstance(x, (dict, list)) and x:
                sub = yaml_dump(x, ind + 1)
                first = sub.lstrip(" ")
                out.append("%s- %s" % (pad, first))
            else:
                out.append("%s- %s" % (pad, _ys(x) if not isinstance(x, (dict, list)) else ("{}" if isinstance(x, dict) else "[]")))
    return "\n".join(out)


# ----------------------------------------------------------------------------- GT helpers
def comp_groups(app, ns=NS, kinds=("Service", "Pod", "Deployment"), root=None, sfx="1"):
    """groups for one app; root: kind that is root cause (gets root_cause true)."""
    gs = []
    for k in kinds:
        gid = "%s-%s-%s" % (app, k.lower(), sfx)
        g = {"id": gid, "kind": k, "namespace": ns}
        if k == "Pod":
            g["filter"] = ["^%s-[a-z0-9]+-[a-z0-9]+$" % app]
        else:
            g["name"] = app
            g["filter"] = ["^%s$" % app]
        if root == k:
            g["root_cause"] = True
        gs.append(g)
    return gs


def gid(app, kind, sfx="1"):
    return "%s-%s-%s" % (app, kind.lower(), sfx)


# ----------------------------------------------------------------------------- snapshot accumulator
SERVICES = ["frontend-proxy", "frontend", "ad", "cart", "checkout", "currency", "email", "payment",
            "product-catalog", "recommendation", "shipping", "quote", "accounting", "fraud-detection",
            "image-provider", "load-generator", "flagd"]
LANG = {"frontend": "nodejs", "frontend-proxy": "cpp", "ad": "java", "cart": "dotnet", "checkout": "go",
        "currency": "cpp", "email": "ruby", "payment": "nodejs", "product-catalog": "go",
        "recommendation": "python", "shipping": "rust", "quote": "php", "accounting": "dotnet",
        "fraud-detection": "java", "image-provider": "cpp", "load-generator": "python", "flagd": "go",
        "otel-collector": "go", "kafka": "java", "valkey-cart": "unknown", "postgresql": "unknown"}


class Snap:
    def __init__(self, sid, t0, seed):
        self.sid = sid
        self.t0 = t0
        self.rng = random.Random(seed)
        self.objects = []   # (t, obj)
        self.events = []    # dicts
        self.alert_snaps = []  # (t, payload)
        self.metrics = {}   # filename -> rows
        self.metric_cols = {}
        self.logs = []
        self.spans = []
        self.gt = None
        self.obj_style = "raw"
        self.ev_style = "core"
        self.pods = {}      # app -> [(podname, node, ip)]

    # -- pods registry
    def pods_of(self, app, n=1, seed="a"):
        if app not in self.pods:
            lst = []
            for i in range(n):
                nm = podname(app, self.sid + seed + str(i), self.sid + seed)
                node = ["ip-10-0-1-23.ec2.internal", "ip-10-0-2-87.ec2.internal", "ip-10-0-3-141.ec2.internal"][(len(app) + i) % 3]
                ip = "10.244.%d.%d" % ((len(app) + i) % 3 + 1, 10 + (sum(map(ord, nm)) % 230))
                lst.append((nm, node, ip))
            self.pods[app] = lst
        return self.pods[app]

    def res_attrs(self, svc, podn=None, ns=NS, t=None):
        p = podn
        if p is None and t is not None and getattr(self, "pod_pick", None):
            p = self.pod_pick(svc, t)
        if p is None:
            lst = self.pods_of(svc)
            p = lst[int((t or 0) * 1000) % len(lst)][0]
        return {"service.name": svc, "service.namespace": "opentelemetry-demo", "k8s.namespace.name": ns,
                "k8s.pod.name": p, "k8s.deployment.name": svc, "k8s.node.name": self.pods_of(svc)[0][1] if svc in self.pods else "ip-10-0-1-23.ec2.internal",
                "telemetry.sdk.language": LANG.get(svc, "go")}

    # -- objects: periodic snapshots
    def obj(self, t, o):
        self.objects.append((t, json.loads(json.dumps(o))))

    def obj_periodic(self, o, times):
        for t in times:
            self.obj(t, o)

    # -- events
    def ev(self, t, kind, name, reason, msg, typ="Normal", ns=NS, count=1, comp="kubelet", host=None,
           watch="ADDED", first=None, api=None):
        self.events.append(dict(t=t, kind=kind, name=name, reason=reason, msg=msg, typ=typ, ns=ns, count=count,
                                comp=comp, host=host, watch=watch, first=first if first is not None else t, api=api))

    # -- alerts
    def alerts_at(self, t, alerts, style="prom"):
        self.alert_snaps.append((t, alerts, style))

    # -- metrics
    def series(self, fname, metric, tags, points, extra_cols=None):
        rows = self.metrics.setdefault(fname, [])
        for (t, v) in points:
            r = {"metric_name": metric, "timestamp": t, "value": v, "tags": tags}
            if extra_cols:
                r.update(extra_cols)
            rows.append(r)

    # -- logs
    def log(self, t, svc, sev, body, trace="", span="", attrs=None, podn=None, ns=NS):
        body = body.replace("\n", "\\n")
        sn = {"TRACE": 1, "DEBUG": 5, "INFO": 9, "WARN": 13, "WARNING": 13, "ERROR": 17, "FATAL": 21}[sev.upper()]
        self.logs.append((t, trace, span, sev, sn, svc, body, self.res_attrs(svc, podn, ns, t), attrs or {}))

    # -- spans
    def span(self, t, trace, sid, parent, name, kind, svc, dur_ns, status="Unset", smsg="", attrs=None):
        self.spans.append((t, trace, sid, parent, name, kind, svc, self.res_attrs(svc, t=t), attrs or {}, int(dur_ns), status, smsg))


# ----------------------------------------------------------------------------- trace generator
def gen_trace(S, t, tree, outcome, tid_seed, drop_root=False):
    """tree: (svc, name, kind, base_ms, [children]); outcome(t, path) -> None or dict(err, msg, ms, stop)."""
    trace = hx(tid_seed, 32)
    counter = [0]

    def walk(node, parent, start, path):
        svc, name, kind, base, kids = node
        counter[0] += 1
        sid = hx(tid_seed + "/" + str(counter[0]), 16)
        path = path + [(svc, name)]
        oc = outcome(t, path) or {}
        if oc.get("gone"):
            return oc.get("ms", 0), True, oc.get("msg", "")
        own = base * (0.7 + 0.6 * S.rng.random()) + oc.get("ms", 0)
        cur = start + own * 0.2 / 1000.0
        err = oc.get("err", False)
        msg = oc.get("msg", "")
        child_err = None
        if not oc.get("stop"):
            for k in kids:
                cdur, cerr, cmsg = walk(k, sid, cur, path)
                cur += cdur / 1000.0
                if cerr and child_err is None:
                    child_err = cmsg
                if cerr and not oc.get("soft"):
                    break  # the caller gives up at the first failed call
        total = own + (cur - start) * 1000.0 - own * 0.2
        if child_err and not err:
            soft = oc.get("soft", False)
            if not soft:
                err = True
                msg = child_err if kind != "Server" or svc != "frontend-proxy" else ""
        status = "Error" if err else "Unset"
        attrs = dict(oc.get("attrs", {}))
        if kind == "Server" and name.startswith(("GET", "POST")):
            attrs.setdefault("http.response.status_code", 500 if err else 200)
        if not (drop_root and parent is None):
            S.span(start, trace, sid, parent or "", name, kind, svc, total * 1e6, status, msg if err else "", attrs)
        return total, err, msg

    walk(tree, None, t, [])
    return trace


def T(svc, name, kind="Server", ms=5, kids=None):
    return (svc, name, kind, ms, kids or [])


FLOWS = {
    "browse": lambda: T("frontend-proxy", "ingress", "Server", 2, [
        T("frontend", "GET /api/products", "Server", 12, [
            T("product-catalog", "oteldemo.ProductCatalogService/ListProducts", "Server", 3)])]),
    "product": lambda: T("frontend-proxy", "ingress", "Server", 2, [
        T("frontend", "GET /api/products/{productId}", "Server", 10, [
            T("product-catalog", "oteldemo.ProductCatalogService/GetProduct", "Server", 2),
            T("currency", "oteldemo.CurrencyService/Convert", "Server", 1)])]),
    "reco": lambda: T("frontend-proxy", "ingress", "Server", 2, [
        T("frontend", "GET /api/recommendations", "Server", 9, [
            T("recommendation", "/oteldemo.RecommendationService/ListRecommendations", "Server", 8, [
                T("product-catalog", "oteldemo.ProductCatalogService/ListProducts", "Server", 3)])])]),
    "ads": lambda: T("frontend-proxy", "ingress", "Server", 2, [
        T("frontend", "GET /api/data", "Server", 6, [T("ad", "oteldemo.AdService/GetAds", "Server", 4)])]),
    "cart": lambda: T("frontend-proxy", "ingress", "Server", 2, [
        T("frontend", "POST /api/cart", "Server", 8, [
            T("cart", "POST /oteldemo.CartService/AddItem", "Server", 3, [
                T("cart", "HGET", "Client", 1), T("cart", "HMSET", "Client", 1), T("cart", "EXPIRE", "Client", 1)])])]),
    "checkout": lambda: T("frontend-proxy", "ingress", "Server", 2, [
        T("frontend", "POST /api/checkout", "Server", 15, [
            T("checkout", "oteldemo.CheckoutService/PlaceOrder", "Server", 6, [
                T("cart", "POST /oteldemo.CartService/GetCart", "Server", 2, [T("cart", "HGET", "Client", 1)]),
                T("product-catalog", "oteldemo.ProductCatalogService/GetProduct", "Server", 2),
                T("currency", "oteldemo.CurrencyService/Convert", "Server", 1),
                T("shipping", "oteldemo.ShippingService/GetQuote", "Server", 3, [
                    T("quote", "POST /getquote", "Server", 40)]),
                T("payment", "oteldemo.PaymentService/Charge", "Server", 6),
                T("shipping", "oteldemo.ShippingService/ShipOrder", "Server", 2),
                T("cart", "POST /oteldemo.CartService/EmptyCart", "Server", 2, [T("cart", "DEL", "Client", 1)]),
                T("email", "POST /send_order_confirmation", "Server", 20),
                T("checkout", "orders publish", "Producer", 2)])])]),
    "consume": lambda: T("accounting", "orders process", "Consumer", 4, [
        T("accounting", "INSERT otel.order", "Client", 3)]),
    "fraud": lambda: T("fraud-detection", "orders process", "Consumer", 6),
}


def traffic(S, start, end, mix, outcome, per_min=6, drop_root_frac=0.0):
    names = sorted(mix)
    weights = [mix[n] for n in names]
    t = start
    i = 0
    while t < end:
        for _ in range(per_min):
            fl = S.rng.choices(names, weights)[0]
            tt = t + S.rng.random() * 60
            gen_trace(S, tt, FLOWS[fl](), outcome, "%s-%d" % (S.sid, i),
                      drop_root=(S.rng.random() < drop_root_frac))
            i += 1
        t += 60


def ramp(S, start, end, step, base, jitter, after=None, fault_t=None, shape=None):
    pts = []
    t = start
    while t <= end:
        v = base + S.rng.uniform(-jitter, jitter)
        if fault_t is not None and t >= fault_t:
            v = shape(t - fault_t, v) if shape else after + S.rng.uniform(-jitter, jitter)
        pts.append((t, round(max(v, 0), 4)))
        t += step
    return pts


# ----------------------------------------------------------------------------- writers
LOG_COLS = ["Timestamp", "TraceId", "SpanId", "TraceFlags", "SeverityText", "SeverityNumber", "ServiceName",
            "Body", "ResourceSchemaUrl", "ResourceAttributes", "ScopeSchemaUrl", "ScopeName", "ScopeVersion",
            "ScopeAttributes", "LogAttributes"]


def write_tsv(path, header, rows, quoting):
    buf = io.StringIO()
    if quoting == "csv":
        w = csv.writer(buf, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
        w.writerow(header)
        for r in rows:
            w.writerow(r)
    else:
        buf.write("\t".join(header) + "\n")
        for r in rows:
            buf.write("\t".join(str(x) for x in r) + "\n")
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(buf.getvalue())


def jd(o):
    return json.dumps(o, separators=(",", ":"), sort_keys=False)


def event_body(S, e, style):
    if style == "events.k8s.io/v1" or (style == "mixed" and (int(e["t"]) // 7) % 2 == 0):
        o = {"apiVersion": "events.k8s.io/v1", "kind": "Event",
             "metadata": {"name": "%s.%s" % (e["name"], hx(e["name"] + e["reason"] + str(e["first"]), 16)),
                          "namespace": e["ns"], "uid": uid("ev" + e["name"] + e["reason"] + str(e["first"])),
                          "resourceVersion": str(100000 + int(e["t"]) % 900000),
                          "creationTimestamp": iso(e["first"])},
             "eventTime": iso(e["first"], True),
             "series": {"count": e["count"], "lastObservedTime": iso(e["t"], True)} if e["count"] > 1 else None,
             "reportingController": e["comp"] if "/" in e["comp"] else "kubernetes.io/" + e["comp"],
             "reportingInstance": e["host"] or e["comp"],
             "action": {"Scheduled": "Binding", "FailedScheduling": "Scheduling"}.get(e["reason"], e["reason"]),
             "reason": e["reason"],
             "regarding": {"kind": e["kind"], "namespace": e["ns"], "name": e["name"],
                           "apiVersion": e["api"] or ("v1" if e["kind"] in ("Pod", "Service", "Namespace", "ConfigMap") else "apps/v1"),
                           "uid": uid(e["kind"] + "/" + e["ns"] + "/" + e["name"])},
             "note": e["msg"], "type": e["typ"],
             "deprecatedSource": {"component": e["comp"], "host": e["host"]} if e["host"] else {},
             "deprecatedFirstTimestamp": iso(e["first"]) if e["count"] > 1 else None,
             "deprecatedLastTimestamp": iso(e["t"]) if e["count"] > 1 else None,
             "deprecatedCount": e["count"] if e["count"] > 1 else None}
        o = {k: v for k, v in o.items() if v is not None}
    else:
        o = {"apiVersion": "v1", "kind": "Event",
             "metadata": {"name": "%s.%s" % (e["name"], hx(e["name"] + e["reason"] + str(e["first"]), 16)),
                          "namespace": e["ns"], "uid": uid("ev" + e["name"] + e["reason"] + str(e["first"])),
                          "resourceVersion": str(100000 + int(e["t"]) % 900000),
                          "creationTimestamp": iso(e["first"])},
             "involvedObject": {"kind": e["kind"], "namespace": e["ns"], "name": e["name"],
                                "apiVersion": e["api"] or ("v1" if e["kind"] in ("Pod", "Service", "Namespace", "ConfigMap") else "apps/v1"),
                                "uid": uid(e["kind"] + "/" + e["ns"] + "/" + e["name"])},
             "reason": e["reason"], "message": e["msg"],
             "source": {"component": e["comp"]} if not e["host"] else {"component": e["comp"], "host": e["host"]},
             "firstTimestamp": iso(e["first"]), "lastTimestamp": iso(e["t"]), "count": e["count"],
             "type": e["typ"], "eventTime": None, "reportingComponent": e["comp"], "reportingInstance": e["host"] or ""}
    return {"object": o, "type": e["watch"]}


def write_snapshot(S, out):
    d = os.path.join(out, S.sid)
    os.makedirs(os.path.join(d, "alerts"), exist_ok=True)
    os.makedirs(os.path.join(d, "metrics"), exist_ok=True)
    # alerts
    for (t, alerts, style) in S.alert_snaps:
        if style == "prom":  # Prometheus /api/v1/alerts
            lst = [{"labels": a["labels"], "annotations": a["ann"], "state": a.get("state", "firing"),
                    "activeAt": iso(a["at"], True), "value": "%g" % a.get("value", 1)} for a in alerts]
            payload = {"status": "success", "data": {"alerts": lst}}
        elif style == "am2":  # Alertmanager v2 /api/v2/alerts (bare list)
            payload = [{"labels": a["labels"], "annotations": a["ann"], "startsAt": iso(a["at"], True),
                        "endsAt": iso(t + 240, True), "updatedAt": iso(t - 13, True),
                        "fingerprint": hx(jd(a["labels"]), 16), "receivers": [{"name": "sre-oncall"}],
                        "status": {"state": "active", "silencedBy": [], "inhibitedBy": []},
                        "generatorURL": "http://prometheus-server.prometheus:9090/graph?g0.expr=" + a["labels"]["alertname"]}
                       for a in alerts]
        elif style == "webhook":  # Alertmanager webhook v4
            payload = {"version": "4", "groupKey": "{}:{alertname=\"%s\"}" % alerts[0]["labels"]["alertname"] if alerts else "{}",
                       "status": "firing", "receiver": "sre-oncall", "groupLabels": {},
                       "commonLabels": {}, "commonAnnotations": {},
                       "externalURL": "http://alertmanager.prometheus:9093", "truncatedAlerts": 0,
                       "alerts": [{"status": "firing", "labels": a["labels"], "annotations": a["ann"],
                                   "startsAt": iso(a["at"], True), "endsAt": "0001-01-01T00:00:00Z",
                                   "generatorURL": "http://prometheus-server.prometheus:9090/graph",
                                   "fingerprint": hx(jd(a["labels"]), 16)} for a in alerts]}
        else:  # prom-flat: {"alerts": [...]} (Prometheus rule-eval dump, no envelope)
            payload = {"alerts": [{"labels": a["labels"], "annotations": a["ann"], "state": a.get("state", "firing"),
                                   "activeAt": iso(a["at"]), "value": str(a.get("value", 1))} for a in alerts]}
        with open(os.path.join(d, "alerts", "alerts_at_%s.json" % fname_ts(t)), "w") as f:
            json.dump(payload, f, indent=2)
            f.write("\n")
    # metrics
    for fn in sorted(S.metrics):
        rows = S.metrics[fn]
        cols = ["metric_name", "timestamp", "value", "tags"]
        extra = []
        for r in rows:
            for k in r:
                if k not in cols and k not in extra:
                    extra.append(k)
        cols += extra
        out_rows = []
        for r in sorted(rows, key=lambda r: (r["metric_name"], jd(r["tags"]), r["timestamp"])):
            tsv = r["timestamp"]
            if S.metric_ts == "epoch":
                tsv = "%d" % tsv
            elif S.metric_ts == "epoch_ms":
                tsv = "%d" % (tsv * 1000)
            else:
                tsv = iso(tsv)
            tg = r["tags"]
            tg = jd(tg) if S.tag_style == "json" else repr(tg)
            out_rows.append([r["metric_name"], tsv, r["value"], tg] + [r.get(k, "") for k in extra])
        write_tsv(os.path.join(d, "metrics", fn), cols, out_rows, "raw")
    # events
    rows = []
    for e in sorted(S.events, key=lambda e: (e["t"], e["name"], e["reason"])):
        b = event_body(S, e, S.ev_style)
        rows.append([ts_ch(e["t"]), "", "", "0", "", "0", "", jd(b), "",
                     jd({"k8s.cluster.name": "sre-lab-eks"}), "", "", "", "{}",
                     jd({"k8s.resource.name": "events", "event.domain": "k8s", "event.name": b["object"]["metadata"]["name"]})])
    write_tsv(os.path.join(d, "k8s_events_raw.tsv"), LOG_COLS, rows, S.ev_quote)
    # objects
    rows = []
    for (t, o) in sorted(S.objects, key=lambda x: (x[0], x[1]["kind"], x[1]["metadata"]["name"])):
        body = jd(o)
        if S.obj_style == "double":
            body = json.dumps(body)
        res = o["kind"].lower() + ("es" if o["kind"].endswith("ss") else "s")
        rows.append([ts_ch(t), "", "", "0", "", "0", "", body, "",
                     jd({"k8s.cluster.name": "sre-lab-eks"}), "", "", "", "{}",
                     jd({"k8s.resource.name": res, "event.domain": "k8s", "event.name": o["metadata"]["name"]})])
    # a double-encoded Body starts with a quote: only a quoted (csv) field keeps it intact for TSV readers
    write_tsv(os.path.join(d, "k8s_objects_raw.tsv"), LOG_COLS, rows, "csv" if S.obj_style == "double" else S.obj_quote)
    # logs
    rows = []
    for (t, tr, sp, sev, sn, svc, body, ra, la) in sorted(S.logs, key=lambda x: (x[0], x[5])):
        rows.append([ts_ch(t), tr, sp, "1" if tr else "0", sev, str(sn), svc, body, "", jd(ra), "", svc, "", "{}", jd(la)])
    write_tsv(os.path.join(d, "otel_logs_raw.tsv"), LOG_COLS, rows, "csv")
    # traces
    rows = []
    for (t, tr, sp, par, name, kind, svc, ra, sa, dur, st, sm) in sorted(S.spans, key=lambda x: (x[0], x[1], x[2])):
        rows.append([ts_ch(t), tr, sp, par, name, kind, svc, jd(ra), jd(sa), str(dur), st, sm])
    write_tsv(os.path.join(d, "otel_traces_raw.tsv"),
              ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
               "ResourceAttributes", "SpanAttributes", "Duration", "StatusCode", "StatusMessage"], rows, "csv")
    # ground truth
    g = S.gt
    if S.gt_wrapped:
        doc = {"apiVersion": "itbench.io/v1", "kind": "GroundTruth", "metadata": {"name": S.sid.lower()}, "spec": g}
    else:
        doc = dict(g)
        doc["id"] = S.sid
    with open(os.path.join(d, "ground_truth.yaml"), "w") as f:
        f.write("---\n" + yaml_dump(doc) + "\n")


# ----------------------------------------------------------------------------- common noise
def base_objects(S, apps, times, extra_objs=()):
    """Periodic snapshots of steady objects (deployments, services, pods)."""
    for a in apps:
        port = {"frontend": 8080, "frontend-proxy": 8080, "quote": 8080, "email": 8080}.get(a, 8080)
        S.obj_periodic(deployment(a, S.t0, 4100 + len(a) * 13, managed=S.managed), times)
        S.obj_periodic(service(a, S.t0, 3100 + len(a) * 17, port), times[:1])
        for (pn, node, ip) in S.pods_of(a):
            gone = getattr(S, "pod_gone", {}).get(a)
            S.obj_periodic(pod(a, pn, S.t0 - 86400 * 2, 5200 + len(pn), node, ip), [t for t in times[::2] if gone is None or t < gone])
    for o in extra_objs:
        S.obj_periodic(o, times)


def std_logs(S, start, end, apps, every=45):
    t = start
    k = 0
    quiet = getattr(S, "quiet", {})
    while t < end:
        for a in apps:
            if (k + len(a)) % 3:
                continue
            if a in quiet and t >= quiet[a]:
                continue
            if a == "frontend":
                S.log(t + 1.3, a, "INFO", jd({"level": "info", "msg": "request completed", "route": "/api/products", "status": 200, "durationMs": 14}))
            elif a == "checkout":
                S.log(t + 2.1, a, "INFO", jd({"level": "info", "msg": "payment went through", "transaction_id": uid(S.sid + str(t))}))
            elif a == "cart":
                S.log(t + 0.7, a, "INFO", "GetCartAsync called with userId=%s" % uid(S.sid + "u" + str(k)))
            elif a == "product-catalog":
                S.log(t + 0.4, a, "INFO", jd({"level": "info", "msg": "Loaded 10 products"}) if k % 7 == 0 else "Product Found: OLJCESPC7Z")
            elif a == "recommendation":
                S.log(t + 0.9, a, "INFO", "Receive ListRecommendations for product ids:['66VCHSJNUP', '2ZYFJ3GM2N']")
            elif a == "ad":
                S.log(t + 1.1, a, "INFO", "Targeted ad request received for [telescopes]")
            elif a == "email":
                S.log(t + 3.1, a, "INFO", "Order confirmation email sent to: user@example.com")
            elif a == "payment":
                S.log(t + 2.4, a, "INFO", jd({"level": 30, "msg": "Transaction complete.", "transactionId": uid(S.sid + "p" + str(t)), "cardType": "visa"}))
            elif a == "shipping":
                S.log(t + 1.9, a, "INFO", "Sending Quote")
            elif a == "quote":
                S.log(t + 2.0, a, "INFO", "Calculated quote")
            elif a == "accounting":
                S.log(t + 4.0, a, "INFO", "Order details: {\"orderId\":\"%s\"}" % uid(S.sid + "o" + str(t)))
            elif a == "fraud-detection":
                S.log(t + 4.5, a, "INFO", "Consumed record with orderId: %s, and updated total count to: %d" % (uid(S.sid + "o" + str(t)), 1200 + k))
            elif a == "currency":
                S.log(t + 0.5, a, "INFO", "Conversion request successful")
        t += every
        k += 1


def alert(name, svc, at, sev="warning", ns=NS, summary="", value=1, extra=None, state="firing"):
    lab = {"alertname": name, "severity": sev, "namespace": ns, "service_name": svc}
    if extra:
        lab.update(extra)
    return {"labels": lab, "ann": {"summary": summary or "%s on %s" % (name, svc),
                                   "description": summary or "%s for service %s" % (name, svc)},
            "at": at, "value": value, "state": state}


def svc_metrics(S, svc, start, end, fault_t, rate, err_after=0.0, p95=30.0, p95_after=None, step=60,
                rate_after=None, fname=None):
    tags = {"service_name": svc, "namespace": NS, "span_kind": "SPAN_KIND_SERVER"}
    fn = fname or "service_%s.tsv" % svc
    S.series(fn, "traces_span_metrics_calls_total_rate", tags,
             ramp(S, start, end, step, rate, rate * 0.08, rate_after if rate_after is not None else rate, fault_t))
    et = dict(tags, status_code="STATUS_CODE_ERROR")
    S.series(fn, "traces_span_metrics_calls_total_rate", et,
             ramp(S, start, end, step, 0.0, 0.0, rate * err_after, fault_t), {"status_code": "STATUS_CODE_ERROR"})
    S.series(fn, "traces_span_metrics_duration_milliseconds_p95", tags,
             ramp(S, start, end, step, p95, p95 * 0.1, p95_after if p95_after is not None else p95, fault_t))


def noise_second_ns(S, t):
    """A second namespace with its own small trouble (unrelated)."""
    ns = S.noise_ns
    # the watch stream also reports the TTL expiry of an old event of that namespace
    S.ev(t - 120, "Job", "%s-housekeeping-29004060" % ns, "Completed", "Job completed", "Normal", ns, 1, "job-controller", watch="DELETED", first=t - 3720, api="batch/v1")
    if ns == "batch-jobs":
        S.ev(t, "Pod", "nightly-export-29004120-x7k2d", "BackOff", "Back-off restarting failed container exporter in pod nightly-export-29004120-x7k2d_batch-jobs(%s)" % uid("nx"), "Warning", ns, 7)
        S.ev(t - 500, "Job", "nightly-export-29004120", "BackoffLimitExceeded", "Job has reached the specified backoff limit", "Warning", ns, 1, "job-controller", api="batch/v1")
    elif ns == "staging":
        S.ev(t, "Pod", "web-7d9c6b5f8-qv2mn", "Failed", "Failed to pull image \"registry.internal/web:pr-1182\": rpc error: code = NotFound", "Warning", ns, 4)
    elif ns == "monitoring":
        S.ev(t, "Pod", "grafana-6d8f9c7b4-hh2lz", "Unhealthy", "Readiness probe failed: Get \"http://10.244.2.77:3000/api/health\": context deadline exceeded", "Warning", ns, 3)
    elif ns == "data-tools":
        S.ev(t, "PersistentVolumeClaim", "minio-data-minio-0", "ExternalExpanding", "waiting for an external controller to expand this PVC", "Normal", ns, 1, "volume_expand")


FLOWS["images"] = lambda: T("frontend-proxy", "ingress", "Server", 1, [
    T("image-provider", "GET /images/products/{file}", "Server", 3)])


# ----------------------------------------------------------------------------- scenario scaffolding
def new_snap(n, day, hour, seed, **kw):
    t0 = int(_dt.datetime(2026, 2, day, hour, kw.pop("minute", 0), 0, tzinfo=_dt.timezone.utc).timestamp())
    S = Snap("Scenario-%d" % n, t0, seed)
    S.start, S.end = t0, t0 + 40 * 60
    S.fault = t0 + kw.pop("fault_min", 20) * 60 + kw.pop("fault_sec", 17)
    S.times = list(range(t0 + 30, S.end, 300))
    S.managed = kw.pop("managed", False)
    S.obj_style = kw.pop("obj_style", "raw")
    S.obj_quote = kw.pop("obj_quote", "raw")
    S.ev_style = kw.pop("ev_style", "core")
    S.ev_quote = kw.pop("ev_quote", "raw")
    S.metric_ts = kw.pop("metric_ts", "iso")
    S.tag_style = kw.pop("tag_style", "json")
    S.gt_wrapped = kw.pop("gt_wrapped", False)
    S.noise_ns = kw.pop("noise_ns", "batch-jobs")
    S.state = {}
    S.drop_root = kw.pop("drop_root", 0.0)
    assert not kw, kw
    return S


def before_after(S, o_before, o_after, change_t=None):
    ct = change_t or S.fault
    for t in S.times:
        S.obj(t, o_before if t < ct else o_after)
    # the object exporter also catches the change itself
    S.obj(ct + 2, o_after)


def common(S, apps, mix, outcome, per_min=6, drop_root_frac=None, log_apps=None):
    if drop_root_frac is None:
        drop_root_frac = S.drop_root
    base_objects(S, apps, S.times)
    std_logs(S, S.start, S.end, log_apps or apps)
    traffic(S, S.start, S.end, mix, outcome, per_min, drop_root_frac)
    noise_second_ns(S, S.start + 900 + S.rng.randint(0, 600))
    for a in apps:
        for (pn, node, ip) in S.pods_of(a):
            S.ev(S.start + 7, "Pod", pn, "Pulled", "Container image \"ghcr.io/open-telemetry/demo:2.0.2-%s\" already present on machine" % a,
                 host=node) if (len(pn) % 5 == 0) else None


def gt_doc(groups, aliases, props, fault, alerts, actions):
    return {"alerts": alerts, "aliases": aliases, "fault": [fault], "groups": groups, "propagations": props,
            "recommended_actions": [{"solution": {"actions": actions, "id": actions[0].lower().replace(" ", "_")[:60]}}]}


def prop(src, tgt, cond, eff):
    return {"source": src, "target": tgt, "condition": cond, "effect": eff}


def fault_rec(cat, cond, kind, name, group_id, mech):
    return {"category": cat, "condition": cond, "entity": {"group_id": group_id, "kind": kind, "name": name},
            "fault_mechanism": mech}


APPS_ALL = ["frontend-proxy", "frontend", "ad", "cart", "checkout", "currency", "email", "payment",
            "product-catalog", "recommendation", "shipping", "quote", "accounting", "fraud-detection"]
MIX = {"browse": 5, "product": 4, "reco": 2, "ads": 2, "cart": 3, "checkout": 2, "consume": 2, "fraud": 2}


def after(S, t):
    return t >= S.fault


def in_path(path, svc):
    return any(p[0] == svc for p in path)


BG = {"frontend": (8.0, 40), "cart": (3.2, 6), "product-catalog": (9.0, 4), "currency": (6.0, 2), "ad": (2.0, 9),
      "recommendation": (1.6, 18), "shipping": (1.1, 160), "payment": (0.5, 12), "email": (0.5, 30), "quote": (0.5, 150),
      "checkout": (0.5, 140), "frontend-proxy": (10.0, 30)}


def bg_metrics(S, apps):
    """Unaffected services: steady span metrics, written only where the scenario made no file."""
    for a in apps:
        if "service_%s.tsv" % a in S.metrics:
            continue
        r, p95 = BG[a]
        svc_metrics(S, a, S.start, S.end, None, r, 0.0, p95)


# ============================================================================= Scenario 1: hand-made EndpointSlice
def sc1():
    S = new_snap(1, 3, 9, 101, ev_style="core", metric_ts="iso", tag_style="json", gt_wrapped=False,
                 noise_ns="batch-jobs", managed=True)
    cart_pod = S.pods_of("cart")[0]
    stale_ip = "10.244.3.77"

    def oc(t, path):
        svc, name = path[-1]
        if after(S, t) and svc == "cart" and "CartService" in name:
            key = (t, name)
            if S.rng.random() < 0.5:
                caller = path[-2][0]
                if caller == "checkout":
                    msg = 'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 10.96.28.176:8080: i/o timeout"'
                else:
                    msg = "14 UNAVAILABLE: No connection established. Last error: connect ETIMEDOUT 10.96.28.176:8080"
                return {"gone": True, "ms": 20000 if caller == "checkout" else 10000, "msg": msg}
        return None

    common(S, APPS_ALL, MIX, oc)
    managed_slice = {"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
                     "metadata": meta("cart-6rvxm", NS, S.t0 - 86400 * 2, 771203,
                                      {"kubernetes.io/service-name": "cart", "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io",
                                       "app.kubernetes.io/name": "cart"}, None, "EndpointSlice"),
                     "addressType": "IPv4",
                     "endpoints": [{"addresses": [cart_pod[2]], "conditions": {"ready": True, "serving": True, "terminating": False},
                                    "nodeName": cart_pod[1], "targetRef": {"kind": "Pod", "name": cart_pod[0], "namespace": NS}}],
                     "ports": [{"name": "tcp-service", "port": 8080, "protocol": "TCP"}]}
    managed_slice["metadata"]["ownerReferences"] = [{"apiVersion": "v1", "kind": "Service", "name": "cart", "controller": True, "blockOwnerDeletion": True, "uid": uid("Service/otel-demo/cart")}]
    S.obj_periodic(managed_slice, S.times)
    hand = {"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
            "metadata": meta("cart-failover", NS, S.fault, 803311,
                             {"kubernetes.io/service-name": "cart", "endpointslice.kubernetes.io/managed-by": "platform-oncall"},
                             {"kubectl.kubernetes.io/last-applied-configuration": jd({"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice", "metadata": {"name": "cart-failover", "namespace": NS, "labels": {"kubernetes.io/service-name": "cart", "endpointslice.kubernetes.io/managed-by": "platform-oncall"}}, "addressType": "IPv4", "endpoints": [{"addresses": [stale_ip]}], "ports": [{"name": "tcp-service", "port": 8080, "protocol": "TCP"}]}) + "\n"},
                             "EndpointSlice",
                             [{"manager": "kubectl-client-side-apply", "operation": "Update", "apiVersion": "discovery.k8s.io/v1", "time": iso(S.fault), "fieldsType": "FieldsV1", "fieldsV1": {"f:addressType": {}, "f:endpoints": {}, "f:ports": {}}}]),
            "addressType": "IPv4",
            "endpoints": [{"addresses": [stale_ip], "conditions": {"ready": True}}],
            "ports": [{"name": "tcp-service", "port": 8080, "protocol": "TCP"}]}
    for t in S.times:
        if t >= S.fault:
            S.obj(t, hand)
    S.obj(S.fault + 1, hand)
    # harmless change near fault time: ad deployment gets a new annotation (no template change)
    ad2 = deployment("ad", S.t0, 4800, managed=True, dep_ann={"sre.example.com/owner": "ads-team", "sre.example.com/runbook": "https://runbooks.example.com/ad"})
    S.obj(S.fault - 95, ad2)
    # unrelated restart: load-generator locust worker exited
    lg = S.pods_of("load-generator")[0]
    S.obj_periodic(pod("load-generator", lg[0], S.t0 - 86400, 6100, lg[1], lg[2], restarts=3,
                       last_term={"exitCode": 1, "reason": "Error", "startedAt": iso(S.start + 300), "finishedAt": iso(S.start + 611)}), S.times)
    S.ev(S.start + 611, "Pod", lg[0], "BackOff", "Back-off restarting failed container load-generator in pod %s_otel-demo(%s)" % (lg[0], uid(lg[0])), "Warning", host=lg[1])
    S.ev(S.start + 640, "Pod", lg[0], "Started", "Started container load-generator", host=lg[1])
    S.log(S.start + 610, "load-generator", "ERROR", "greenlet.GreenletExit: worker 3 lost heartbeat from master, quitting")
    # metrics
    svc_metrics(S, "frontend", S.start, S.end, S.fault, 4.0, 0.22, 45, 2900)
    svc_metrics(S, "checkout", S.start, S.end, S.fault, 0.5, 0.48, 60, 9800)
    svc_metrics(S, "cart", S.start, S.end, S.fault, 3.2, 0.0, 6, 6, rate_after=1.6)
    svc_metrics(S, "product-catalog", S.start, S.end, S.fault, 7.0, 0.0, 4)
    S.series("pod_%s.tsv" % cart_pod[0], "container_cpu_usage_seconds_total_rate",
             {"pod": cart_pod[0], "namespace": NS, "container": "cart"}, ramp(S, S.start, S.end, 60, 0.09, 0.01, 0.045, S.fault))
    S.series("pod_%s.tsv" % cart_pod[0], "container_memory_working_set_bytes",
             {"pod": cart_pod[0], "namespace": NS, "container": "cart"}, ramp(S, S.start, S.end, 60, 96e6, 2e6))
    # logs on the victim side
    for i in range(30):
        t = S.fault + 40 + i * 37
        S.log(t, "frontend", "ERROR", jd({"level": "error", "msg": "failed to add item to cart", "err": "14 UNAVAILABLE: No connection established. Last error: connect ETIMEDOUT 10.96.28.176:8080"}))
        if i % 3 == 0:
            S.log(t + 4, "checkout", "ERROR", 'failed to prepare order: failed to get user cart during checkout: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 10.96.28.176:8080: i/o timeout"')
    A = [alert("RequestErrorRate", "frontend", S.fault + 180, "warning", summary="frontend error rate above 5%"),
         alert("RequestLatency", "checkout", S.fault + 240, "warning", summary="checkout p95 latency above 2s"),
         alert("RequestErrorRate", "checkout", S.fault + 300, "critical", summary="checkout error rate above 20%")]
    S.alerts_at(S.fault + 330, A[:2], "prom")
    S.alerts_at(S.fault + 630, A, "prom")
    S.alerts_at(S.fault + 930, A, "prom")
    groups = [{"id": "cart-endpointslice-1", "kind": "EndpointSlice", "namespace": NS, "name": "cart-failover",
               "filter": ["^cart-failover$"], "root_cause": True}] + \
        comp_groups("cart") + comp_groups("checkout") + comp_groups("frontend")
    props = [prop("cart-endpointslice-1", "cart-service-1", "hand-created EndpointSlice labelled kubernetes.io/service-name=cart lists 10.244.3.77, an address of no running pod",
                  "about half of the connections to the cart ClusterIP are sent to a dead address and time out"),
             prop("cart-service-1", "checkout-service-1", "GetCart/EmptyCart calls time out", "PlaceOrder fails with Unavailable, latency 20s"),
             prop("checkout-service-1", "frontend-service-1", "PlaceOrder errors", "checkout requests fail"),
             prop("cart-service-1", "frontend-service-1", "AddItem/GetCart calls time out", "frontend error rate above threshold")]
    bg_metrics(S, ['ad', 'currency', 'recommendation', 'shipping', 'payment', 'email', 'quote'])
    S.gt = gt_doc(groups, [["cart-service-1", "cart-pod-1", "cart-deployment-1"], ["checkout-service-1", "checkout-pod-1", "checkout-deployment-1"],
                           ["frontend-service-1", "frontend-pod-1", "frontend-deployment-1"]], props,
                  fault_rec("Configuration", "A hand-applied EndpointSlice (managed-by platform-oncall) adds a stale pod IP to Service cart", "EndpointSlice", "cart-failover", "cart-endpointslice-1", "manual-endpointslice"),
                  [{"group_id": "frontend-service-1", "id": "RequestErrorRate"}, {"group_id": "checkout-service-1", "id": "RequestLatency"},
                   {"group_id": "checkout-service-1", "id": "RequestErrorRate"}],
                  ["Delete the EndpointSlice cart-failover", "Let the endpointslice controller manage cart endpoints"])
    return S


# ============================================================================= Scenario 2: HTTPRoute weight 0 on the healthy backend
def sc2():
    S = new_snap(2, 5, 14, 202, ev_style="events.k8s.io/v1", metric_ts="epoch", tag_style="dict", gt_wrapped=True,
                 noise_ns="staging", obj_quote="csv", drop_root=0.05)
    common(S, APPS_ALL, MIX, lambda t, p: None)
    gw_pod = ("shop-gw-istio-5c6f7d9b8-t2wqk", "ip-10-0-2-87.ec2.internal", "10.244.2.131")
    gw = {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
          "metadata": meta("shop-gw", NS, S.t0 - 86400 * 30, 11842, {"app.kubernetes.io/part-of": "opentelemetry-demo"}, None, "Gateway", gen=1),
          "spec": {"gatewayClassName": "istio", "listeners": [{"name": "https", "hostname": "shop.example.com", "port": 443, "protocol": "HTTPS",
                                                                "tls": {"mode": "Terminate", "certificateRefs": [{"kind": "Secret", "name": "shop-example-tls"}]},
                                                                "allowedRoutes": {"namespaces": {"from": "Same"}}}]},
          "status": {"conditions": [{"type": "Programmed", "status": "True", "reason": "Programmed", "lastTransitionTime": iso(S.t0 - 86400 * 30)}]}}
    S.obj_periodic(gw, S.times)

    def route(w_main, w_next, rv, gen, t_upd):
        r = {"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
             "metadata": meta("storefront", NS, S.t0 - 86400 * 30, rv, {"app.kubernetes.io/part-of": "opentelemetry-demo", "rollout.example.com/strategy": "canary"},
                              None, "HTTPRoute", gen=gen),
             "spec": {"parentRefs": [{"group": "gateway.networking.k8s.io", "kind": "Gateway", "name": "shop-gw"}],
                      "hostnames": ["shop.example.com"],
                      "rules": [{"matches": [{"path": {"type": "PathPrefix", "value": "/"}}],
                                 "backendRefs": [{"group": "", "kind": "Service", "name": "frontend-proxy", "port": 8080, "weight": w_main},
                                                 {"group": "", "kind": "Service", "name": "frontend-proxy-next", "port": 8080, "weight": w_next}]}]},
             "status": {"parents": [{"parentRef": {"name": "shop-gw"}, "controllerName": "istio.io/gateway-controller",
                                     "conditions": [{"type": "Accepted", "status": "True", "reason": "Accepted", "lastTransitionTime": iso(t_upd)},
                                                    {"type": "ResolvedRefs", "status": "True", "reason": "ResolvedRefs", "lastTransitionTime": iso(t_upd)}]}]}}
        return r
    before_after(S, route(100, 0, 88120, 14, S.t0 - 86400 * 3), route(0, 100, 90377, 15, S.fault))
    nxt = service("frontend-proxy", S.t0, 9921, 8080, name="frontend-proxy-next")
    nxt["spec"]["selector"] = {"opentelemetry.io/name": "frontend-proxy", "track": "next"}
    nxt["metadata"]["labels"]["track"] = "next"
    S.obj_periodic(nxt, S.times)
    nd = deployment("frontend-proxy-next", S.t0, 9930, replicas=0, c_extra={"image": "ghcr.io/open-telemetry/demo:2.0.2-frontend-proxy", "name": "frontend-proxy"},
                    status={"observedGeneration": 4, "replicas": 0})
    nd["spec"]["selector"]["matchLabels"] = {"opentelemetry.io/name": "frontend-proxy", "track": "next"}
    nd["spec"]["template"]["metadata"]["labels"] = {"opentelemetry.io/name": "frontend-proxy", "track": "next"}
    S.obj_periodic(nd, S.times)
    # harmless change: HPA minReplicas for frontend bumped 1 -> 2 a few minutes earlier
    def hpa(minr, rv):
        return {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
                "metadata": meta("frontend", NS, S.t0 - 86400 * 20, rv, None, None, "HorizontalPodAutoscaler"),
                "spec": {"minReplicas": minr, "maxReplicas": 6, "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "frontend"},
                         "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}}]},
                "status": {"currentReplicas": minr, "desiredReplicas": minr}}
    before_after(S, hpa(1, 70011), hpa(2, 89902), S.fault - 420)
    S.ev(S.fault - 410, "HorizontalPodAutoscaler", "frontend", "SuccessfulRescale", "New size: 2; reason: Current number of replicas below Spec.MinReplicas",
         comp="horizontal-pod-autoscaler", api="autoscaling/v2")
    S.ev(S.fault - 409, "Deployment", "frontend", "ScalingReplicaSet", "Scaled up replica set frontend-w2hjm2tpmj to 2 from 1", comp="deployment-controller")
    # gateway access logs (envoy text format)
    t = S.start + 3
    k = 0
    paths = ["/", "/api/products", "/api/cart", "/images/products/Telescope.jpg", "/api/recommendations?productIds=", "/api/data?contextKeys=telescopes", "/api/checkout"]
    while t < S.end:
        pth = paths[k % len(paths)]
        if t < S.fault:
            code, flag, up = 200, "-", "10.244.3.58:8080"
            dur = 12 + (k * 7) % 40
        else:
            code, flag, up = 503, "UH", "-"
            dur = 0
        body = '[%s] "%s %s HTTP/2" %d %s no_healthy_upstream %d 0 %d - "203.0.113.%d" "Mozilla/5.0 (X11; Linux x86_64)" "%s" "shop.example.com" "%s" outbound|8080||%s.otel-demo.svc.cluster.local' % (
            iso(t, True), "POST" if "checkout" in pth or pth == "/api/cart" else "GET", pth, code, flag, 0, dur, 10 + k % 200, uid("rq%d" % k),
            up, "frontend-proxy" if t < S.fault else "frontend-proxy-next")
        if t < S.fault:
            body = body.replace(" no_healthy_upstream", " via_upstream")
        S.log(t, "shop-gw-istio", "INFO", body, podn=gw_pod[0])
        t += 9 + (k % 5)
        k += 1
    S.logs[:] = [x for x in S.logs]
    for (i, m) in enumerate(["warning envoy config external/envoy/source/common/upstream/cluster_manager_impl.cc:1460 no healthy host for HTTP connection pool outbound|8080||frontend-proxy-next.otel-demo.svc.cluster.local"]):
        S.log(S.fault + 5, "shop-gw-istio", "WARN", m, podn=gw_pod[0])
    # metrics: gateway 5xx, probe; internal services fine
    gtags = {"service_name": "shop-gw-istio", "namespace": NS, "response_code_class": "5xx", "destination_service": "frontend-proxy-next.otel-demo.svc.cluster.local"}
    S.series("service_shop-gw-istio.tsv", "istio_requests_total_rate", gtags, ramp(S, S.start, S.end, 60, 0.0, 0.0, 6.1, S.fault))
    S.series("service_shop-gw-istio.tsv", "istio_requests_total_rate",
             dict(gtags, response_code_class="2xx", destination_service="frontend-proxy.otel-demo.svc.cluster.local"),
             ramp(S, S.start, S.end, 60, 6.0, 0.6, 0.0, S.fault))
    S.series("service_shop-gw-istio.tsv", "probe_success", {"service_name": "shop-gw-istio", "instance": "https://shop.example.com/", "job": "blackbox"},
             ramp(S, S.start, S.end, 30, 1, 0, 0, S.fault))
    svc_metrics(S, "frontend-proxy", S.start, S.end, S.fault, 9.0, 0.0, 25, rate_after=5.4)
    svc_metrics(S, "frontend", S.start, S.end, S.fault, 8.0, 0.0, 40, rate_after=4.8)
    A = [alert("BlackboxProbeFailed", "shop-gw-istio", S.fault + 90, "critical", summary="https://shop.example.com/ probe failing", extra={"instance": "https://shop.example.com/"}),
         alert("GatewayHigh5xxRate", "shop-gw-istio", S.fault + 120, "critical", summary="more than 50% of requests through shop-gw return 5xx"),
         alert("RequestRateDrop", "frontend", S.fault + 360, "warning", summary="frontend request rate dropped by 40%")]
    S.alerts_at(S.fault + 200, A[:2], "am2")
    S.alerts_at(S.fault + 500, A, "am2")
    groups = [{"id": "storefront-httproute-1", "kind": "HTTPRoute", "namespace": NS, "name": "storefront", "filter": ["^storefront$"], "root_cause": True},
              {"id": "shop-gw-gateway-1", "kind": "Gateway", "namespace": NS, "name": "shop-gw", "filter": ["^shop-gw$"]},
              {"id": "shop-gw-pod-1", "kind": "Pod", "namespace": NS, "filter": ["^shop-gw-istio-.*"]},
              {"id": "frontend-proxy-next-service-1", "kind": "Service", "namespace": NS, "name": "frontend-proxy-next", "filter": ["^frontend-proxy-next$"]}] + \
        comp_groups("frontend-proxy") + comp_groups("frontend")
    props = [prop("storefront-httproute-1", "frontend-proxy-next-service-1", "HTTPRoute storefront weights changed to frontend-proxy 0 / frontend-proxy-next 100",
                  "all external traffic goes to frontend-proxy-next, which has no endpoints"),
             prop("frontend-proxy-next-service-1", "shop-gw-pod-1", "no healthy upstream", "gateway answers 503 UH to every request"),
             prop("shop-gw-pod-1", "frontend-proxy-service-1", "external requests never reach frontend-proxy", "frontend-proxy and frontend request rate drop")]
    S.gt = gt_doc(groups, [["shop-gw-gateway-1", "shop-gw-pod-1"], ["frontend-proxy-service-1", "frontend-proxy-pod-1", "frontend-proxy-deployment-1"],
                           ["frontend-service-1", "frontend-pod-1", "frontend-deployment-1"]], props,
                  fault_rec("Configuration", "HTTPRoute storefront sends 100% weight to a backend without endpoints", "HTTPRoute", "storefront", "storefront-httproute-1", "httproute-weight"),
                  [{"group_id": "shop-gw-pod-1", "id": "BlackboxProbeFailed"}, {"group_id": "shop-gw-pod-1", "id": "GatewayHigh5xxRate"},
                   {"group_id": "frontend-service-1", "id": "RequestRateDrop"}],
                  ["Restore weight 100 on backendRef frontend-proxy in HTTPRoute storefront"])
    return S


# ============================================================================= Scenario 3: VirtualService timeout too low on quote
def sc3():
    S = new_snap(3, 9, 2, 303, ev_style="core", metric_ts="iso", tag_style="json", gt_wrapped=False, noise_ns="monitoring",
                 obj_style="double", fault_min=18)
    TO = 0.15

    def oc(t, path):
        svc, name = path[-1]
        if svc == "shipping" and name.endswith("GetQuote"):
            q = 60 + S.rng.lognormvariate(4.6, 0.45)
            S.state["q"] = q
            if after(S, t) and q > TO * 1000:
                S.state["to"] = True
                return {"err": True, "msg": "upstream request timeout", "ms": 0, "attrs": {"rpc.grpc.status_code": 2}}
            S.state["to"] = False
            return None
        if svc == "quote":
            return {"ms": S.state.get("q", 100) - 40}
        if svc == "checkout" and name.endswith("PlaceOrder"):
            return None
        return None

    S.pod_gone = {"email": S.fault - 95}
    e_new0 = podname("email", "new3")
    S.pod_pick = lambda svc, t: e_new0 if (svc == "email" and t >= S.fault - 95) else None
    common(S, APPS_ALL, MIX, oc, per_min=7)
    vs_before = {"apiVersion": "networking.istio.io/v1", "kind": "VirtualService",
                 "metadata": meta("quote", NS, S.t0 - 86400 * 12, 55120, {"app.kubernetes.io/managed-by": "argocd"},
                                  {"argocd.argoproj.io/tracking-id": "otel-demo:networking.istio.io/VirtualService:otel-demo/quote"}, "VirtualService", gen=3),
                 "spec": {"hosts": ["quote"], "http": [{"route": [{"destination": {"host": "quote", "port": {"number": 8080}}}],
                                                        "timeout": "2s", "retries": {"attempts": 2, "perTryTimeout": "1s", "retryOn": "connect-failure,refused-stream"}}]}}
    vs_after = json.loads(json.dumps(vs_before))
    vs_after["metadata"]["resourceVersion"] = "61877"
    vs_after["metadata"]["generation"] = 4
    vs_after["spec"]["http"][0]["timeout"] = "150ms"
    vs_after["spec"]["http"][0]["retries"] = {"attempts": 0}
    before_after(S, vs_before, vs_after)
    for nm in ["product-catalog", "cart", "currency"]:
        S.obj_periodic({"apiVersion": "networking.istio.io/v1", "kind": "VirtualService",
                        "metadata": meta(nm, NS, S.t0 - 86400 * 12, 55000 + len(nm), {"app.kubernetes.io/managed-by": "argocd"}, None, "VirtualService", gen=1),
                        "spec": {"hosts": [nm], "http": [{"route": [{"destination": {"host": nm}}], "timeout": "5s"}]}}, S.times[::2])
    # harmless change nearby: email deployment LOG_LEVEL -> debug, rolls the email pod
    e_old = S.pods_of("email")[0]
    e_new = (podname("email", "new3"), e_old[1], "10.244.1.201")
    em2 = deployment("email", S.t0, 61020, env=[{"name": "LOG_LEVEL", "value": "debug"}], gen=2)
    S.obj(S.fault - 140, em2)
    S.obj(S.fault - 100, pod("email", e_new[0], S.fault - 130, 61044, e_new[1], e_new[2]))
    S.ev(S.fault - 139, "Deployment", "email", "ScalingReplicaSet", "Scaled up replica set email-%s to 1" % kname("emailrsnew", 10), comp="deployment-controller")
    S.ev(S.fault - 128, "Pod", e_new[0], "Scheduled", "Successfully assigned otel-demo/%s to %s" % (e_new[0], e_new[1]), comp="default-scheduler")
    S.ev(S.fault - 120, "Pod", e_new[0], "Started", "Started container email", host=e_new[1])
    S.ev(S.fault - 95, "Pod", e_old[0], "Killing", "Stopping container email", host=e_old[1])
    S.log(S.fault - 110, "email", "DEBUG", "Puma starting in single mode... * Puma version: 6.4.2 * Min threads: 0 * Max threads: 5")
    # sidecar logs on shipping
    for i in range(40):
        t = S.fault + 20 + i * 29
        S.log(t, "shipping", "WARN", '[%s] "POST /getquote HTTP/1.1" 504 UT response_timeout - "-" 0 24 150 - "-" "reqwest/0.11" "%s" "quote:8080" "10.244.2.66:8080" outbound|8080||quote.otel-demo.svc.cluster.local' % (iso(t, True), uid("sq%d" % i)))
        if i % 2 == 0:
            S.log(t + 0.2, "shipping", "ERROR", "failed to get quote: quote service returned status 504 Gateway Timeout")
            S.log(t + 0.3, "checkout", "ERROR", jd({"message": "failed to prepare order", "error": "shipping quote failure: rpc error: code = Unknown desc = upstream request timeout", "severity": "error"}))
    for i in range(12):
        S.log(S.fault + 40 + i * 95, "quote", "INFO", "Calculated quote")
    svc_metrics(S, "checkout", S.start, S.end, S.fault, 0.6, 0.55, 180, 230)
    svc_metrics(S, "shipping", S.start, S.end, S.fault, 1.2, 0.5, 190, 150)
    svc_metrics(S, "quote", S.start, S.end, S.fault, 0.6, 0.0, 210, 212)
    svc_metrics(S, "frontend", S.start, S.end, S.fault, 6.0, 0.06, 60, 70)
    A = [alert("RequestErrorRate", "checkout", S.fault + 150, "critical", summary="checkout error rate 55%"),
         alert("RequestErrorRate", "frontend", S.fault + 210, "warning", summary="frontend error rate 6%"),
         alert("RequestErrorRate", "shipping", S.fault + 180, "warning"),
         alert("KubePodNotReady", "grafana", S.fault - 300, "warning", ns="monitoring", extra={"pod": "grafana-6d8f9c7b4-hh2lz"})]
    S.alerts_at(S.fault + 240, A, "prom-flat")
    S.alerts_at(S.fault + 540, A, "prom-flat")
    S.alerts_at(S.fault + 840, A[:3], "prom-flat")
    groups = [{"id": "quote-virtualservice-1", "kind": "VirtualService", "namespace": NS, "name": "quote", "filter": ["^quote$"], "root_cause": True}] + \
        comp_groups("quote") + comp_groups("shipping") + comp_groups("checkout") + comp_groups("frontend")
    props = [prop("quote-virtualservice-1", "shipping-service-1", "route timeout for host quote lowered from 2s to 150ms, retries disabled",
                  "shipping's sidecar aborts every quote call slower than 150ms with 504 UT"),
             prop("shipping-service-1", "checkout-service-1", "GetQuote returns upstream request timeout", "PlaceOrder fails"),
             prop("checkout-service-1", "frontend-service-1", "PlaceOrder fails", "frontend checkout requests fail")]
    bg_metrics(S, ['cart', 'product-catalog', 'currency', 'ad', 'recommendation'])
    S.gt = gt_doc(groups, [["shipping-service-1", "shipping-pod-1", "shipping-deployment-1"], ["checkout-service-1", "checkout-pod-1", "checkout-deployment-1"],
                           ["frontend-service-1", "frontend-pod-1", "frontend-deployment-1"], ["quote-service-1", "quote-pod-1", "quote-deployment-1"]], props,
                  fault_rec("Configuration", "VirtualService quote timeout 150ms, below quote's normal latency", "VirtualService", "quote", "quote-virtualservice-1", "virtualservice-timeout"),
                  [{"group_id": "checkout-service-1", "id": "RequestErrorRate"}, {"group_id": "frontend-service-1", "id": "RequestErrorRate"},
                   {"group_id": "shipping-service-1", "id": "RequestErrorRate"}],
                  ["Restore the 2s timeout in VirtualService quote"])
    return S


# ============================================================================= Scenario 4: holdApplicationUntilProxyStarts removed (accounting)
def sc4():
    S = new_snap(4, 11, 16, 404, ev_style="mixed", metric_ts="epoch_ms", tag_style="json", gt_wrapped=True, noise_ns="data-tools",
                 managed=True)
    apps = [a for a in APPS_ALL if a != "accounting"]

    def oc(t, path):
        if path[0][0] == "accounting" and t >= S.fault + 3:
            return {"gone": True, "ms": 0, "msg": ""}
        return None
    common(S, apps, MIX, oc, log_apps=[a for a in apps])
    hold = {"proxy.istio.io/config": '{ "holdApplicationUntilProxyStarts": true }', "sidecar.istio.io/inject": "true"}
    d_old = deployment("accounting", S.t0, 30411, tmpl_ann=hold, gen=5, managed=True, port=8080, strategy={"type": "Recreate"})
    d_new = deployment("accounting", S.t0, 33987, tmpl_ann={"sidecar.istio.io/inject": "true"}, gen=6, managed=True, strategy={"type": "Recreate"},
                       status={"replicas": 1, "updatedReplicas": 1, "readyReplicas": 0, "availableReplicas": 0, "unavailableReplicas": 1, "observedGeneration": 6})
    d_new["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = "6"
    d_new["metadata"]["labels"]["helm.sh/chart"] = "opentelemetry-demo-0.38.1"
    d_old["metadata"]["labels"]["helm.sh/chart"] = "opentelemetry-demo-0.37.4"
    before_after(S, d_old, d_new)
    old = S.pods_of("accounting")[0]
    new = (podname("accounting", "v6"), "ip-10-0-3-141.ec2.internal", "10.244.3.201")
    for t in S.times:
        if t < S.fault:
            S.obj(t, pod("accounting", old[0], S.t0 - 86400 * 3, 22001, old[1], old[2], ann=hold))
    restarts = 0
    for t in S.times:
        if t >= S.fault:
            restarts = min(6, 1 + (t - S.fault) // 180)
            S.obj(t, pod("accounting", new[0], S.fault + 3, 34000 + restarts, new[1], new[2], ready=False, restarts=restarts,
                         waiting={"reason": "CrashLoopBackOff", "message": "back-off 2m40s restarting failed container=accounting pod=%s_otel-demo(%s)" % (new[0], uid(new[0]))},
                         last_term={"exitCode": 134, "reason": "Error", "startedAt": iso(t - 40), "finishedAt": iso(t - 38)},
                         ann={"sidecar.istio.io/status": '{"initContainers":["istio-init"],"containers":["istio-proxy"],"volumes":["istio-envoy","istio-data"],"revision":"default"}'}))
    S.ev(S.fault + 1, "Deployment", "accounting", "ScalingReplicaSet", "Scaled up replica set accounting-%s to 1" % kname("accrs6", 10), comp="deployment-controller")
    S.ev(S.fault + 4, "Pod", new[0], "Scheduled", "Successfully assigned otel-demo/%s to %s" % (new[0], new[1]), comp="default-scheduler")
    S.ev(S.fault + 9, "Pod", new[0], "Started", "Started container istio-init", host=new[1])
    S.ev(S.fault + 12, "Pod", new[0], "Started", "Started container accounting", host=new[1])
    S.ev(S.fault + 12, "Pod", new[0], "Started", "Started container istio-proxy", host=new[1])
    S.ev(S.fault + 14, "Pod", new[0], "Unhealthy", "Readiness probe failed: Get \"http://10.244.3.201:15021/healthz/ready\": dial tcp 10.244.3.201:15021: connect: connection refused", "Warning", host=new[1])
    for i in range(1, 7):
        t = S.fault + 20 + i * 150
        if t < S.end:
            S.ev(t, "Pod", new[0], "BackOff", "Back-off restarting failed container accounting in pod %s_otel-demo(%s)" % (new[0], uid(new[0])), "Warning", count=i, host=new[1],
                 watch="ADDED" if i == 1 else "MODIFIED", first=S.fault + 170)
            S.log(t - 100, "accounting", "FATAL", "Unhandled exception. Confluent.Kafka.KafkaException: Local: All broker connections are down\n   at Confluent.Kafka.Consumer`2.Subscribe(IEnumerable`1 topics)\n   at Accounting.Consumer..ctor(ILogger`1 logger)", podn=new[0])
            S.log(t - 101, "accounting", "ERROR", "%%3|%d.412|FAIL|rdkafka#consumer-1| [thrd:kafka:9092/bootstrap]: kafka:9092/bootstrap: Connect to ipv4#10.96.142.17:9092 failed: Connection refused (after 0ms in state CONNECT)" % (t - 101), podn=new[0])
    S.ev(S.fault + 1, "Pod", old[0], "Killing", "Stopping container accounting", host=old[1])
    S.ev(S.fault + 2, "ReplicaSet", "accounting-%s" % kname("accrs5", 10), "SuccessfulDelete", "Deleted pod: %s" % old[0], comp="replicaset-controller")
    # harmless change: istio sidecar version bump for ad (rolled, healthy)
    S.ev(S.fault - 300, "Deployment", "ad", "ScalingReplicaSet", "Scaled up replica set ad-%s to 1" % kname("adrs2", 10), comp="deployment-controller")
    S.obj(S.fault - 290, deployment("ad", S.t0, 31877, tmpl_ann={"sidecar.istio.io/proxyImage": "docker.io/istio/proxyv2:1.22.6"}, gen=3, managed=True))
    # before the fault accounting logs normally
    t = S.start
    while t < S.fault:
        S.log(t + 3, "accounting", "INFO", "Order details: {\"orderId\":\"%s\",\"shippingCost\":{\"currencyCode\":\"USD\",\"units\":\"12\"}}" % uid("acc%d" % t), podn=old[0])
        t += 40
    S.log(S.fault + 1, "accounting", "INFO", "Application is shutting down...", podn=old[0])
    S.log(S.fault + 13, "accounting", "INFO", "Accounting service started, consuming topic orders", podn=new[0])
    # metrics
    kt = {"service_name": "kafka", "namespace": NS, "consumergroup": "accounting", "topic": "orders"}
    S.series("service_kafka.tsv", "kafka_consumergroup_lag", kt,
             ramp(S, S.start, S.end, 60, 3, 2, fault_t=S.fault, shape=lambda d, v: 3 + d * 0.42))
    S.series("service_kafka.tsv", "kafka_consumergroup_lag", dict(kt, consumergroup="fraud-detection"), ramp(S, S.start, S.end, 60, 5, 3))
    S.series("service_accounting.tsv", "db_client_operation_duration_seconds_count_rate", {"service_name": "accounting", "db_system": "postgresql", "namespace": NS},
             ramp(S, S.start, S.end, 60, 0.42, 0.05, 0.0, S.fault))
    S.series("pod_%s.tsv" % new[0], "kube_pod_container_status_restarts_total", {"pod": new[0], "namespace": NS, "container": "accounting"},
             [(t, max(0, (t - S.fault) // 150)) for t in range(S.fault, S.end, 60)])
    svc_metrics(S, "checkout", S.start, S.end, S.fault, 0.5, 0.0, 120)
    A = [alert("KafkaConsumerLagHigh", "kafka", S.fault + 480, "warning", extra={"consumergroup": "accounting", "topic": "orders"}, summary="consumer group accounting lag > 100"),
         alert("NoDatabaseOperations", "accounting", S.fault + 600, "warning", summary="accounting performed no postgres writes for 5m"),
         alert("KubePodCrashLooping", "accounting", S.fault + 420, "warning", extra={"pod": new[0], "container": "accounting"}),
         alert("KubePersistentVolumeFillingUp", "minio", S.start + 200, "warning", ns="data-tools", extra={"persistentvolumeclaim": "minio-data-minio-0"})]
    S.alerts_at(S.fault + 450, [A[2], A[3]], "webhook")
    S.alerts_at(S.fault + 750, A, "webhook")
    S.alerts_at(S.fault + 1050, A, "webhook")
    groups = comp_groups("accounting", kinds=("Deployment", "Pod"), root="Deployment") + comp_groups("kafka", kinds=("Service",)) + \
        [{"id": "postgresql-service-1", "kind": "Service", "namespace": NS, "name": "postgresql", "filter": ["^postgresql$"]}]
    props = [prop("accounting-deployment-1", "accounting-pod-1", "pod template lost proxy.istio.io/config holdApplicationUntilProxyStarts",
                  "new accounting container starts before istio-proxy and its Kafka bootstrap connection is refused; the .NET consumer crashes (CrashLoopBackOff)"),
             prop("accounting-pod-1", "kafka-service-1", "no accounting consumer", "consumer group accounting lag grows"),
             prop("accounting-pod-1", "postgresql-service-1", "orders not consumed", "no database operations")]
    bg_metrics(S, ['frontend', 'cart', 'product-catalog', 'currency', 'ad', 'recommendation', 'shipping', 'payment', 'email'])
    S.gt = gt_doc(groups, [["accounting-deployment-1", "accounting-pod-1"]], props,
                  fault_rec("Configuration", "holdApplicationUntilProxyStarts removed from accounting pod template (Helm chart upgrade)", "Deployment", "accounting", "accounting-deployment-1", "sidecar-startup-order"),
                  [{"group_id": "kafka-service-1", "id": "KafkaConsumerLagHigh"}, {"group_id": "accounting-deployment-1", "id": "NoDatabaseOperations"},
                   {"group_id": "accounting-pod-1", "id": "KubePodCrashLooping"}],
                  ["Restore proxy.istio.io/config holdApplicationUntilProxyStarts: true on the accounting pod template"])
    return S


# ============================================================================= Scenario 5: projected ConfigMap optional:true mounted empty
def sc5():
    S = new_snap(5, 14, 10, 505, ev_style="core", metric_ts="iso", tag_style="dict", gt_wrapped=False, noise_ns="staging",
                 obj_quote="csv", fault_min=15, drop_root=0.08)
    pc_old = S.pods_of("product-catalog")[0]
    pc_new = (podname("product-catalog", "r9"), "ip-10-0-2-87.ec2.internal", "10.244.2.59")
    ready_t = S.fault + 35

    def oc(t, path):
        svc, name = path[-1]
        if path[0][0] in ("accounting", "fraud-detection") and t >= ready_t + 20:
            return {"gone": True}  # no orders are placed any more
        if svc == "product-catalog" and t >= ready_t:
            if name.endswith("GetProduct"):
                return {"err": True, "msg": "Product Not Found: %s" % ["OLJCESPC7Z", "66VCHSJNUP", "2ZYFJ3GM2N", "9SIQT8TOJO"][int(t) % 4],
                        "attrs": {"rpc.grpc.status_code": 5}}
            if name.endswith("ListProducts"):
                return {"attrs": {"app.products.count": 0}}
        if svc == "recommendation" and t >= ready_t:
            return {"attrs": {"app.recommendation.count": 0}}
        if svc == "frontend" and "recommendations" in name and t >= ready_t:
            return {"soft": True}
        return None
    S.pod_gone = {"product-catalog": S.fault + 37}
    S.quiet = {a: ready_t for a in ("product-catalog", "checkout", "payment", "email", "accounting", "fraud-detection")}
    S.pod_pick = lambda svc, t: pc_new[0] if (svc == "product-catalog" and t >= S.fault + 35) else None
    common(S, APPS_ALL, MIX, oc, per_min=7)

    def dep(cm, gen, rv, st=None):
        d = deployment("product-catalog", S.t0, rv, gen=gen, port=8080, env=[{"name": "PRODUCT_CATALOG_RELOAD_INTERVAL", "value": "10"}],
                       c_extra={"volumeMounts": [{"name": "product-catalog-products", "mountPath": "/usr/src/app/products", "readOnly": True}]},
                       pod_extra={"volumes": [{"name": "product-catalog-products", "projected": {"defaultMode": 420, "sources": [
                           {"configMap": {"name": cm, "optional": True}}]}}]}, status=st)
        return d
    before_after(S, dep("product-catalog-products", 3, 40112), dep("product-catalog-products-v2", 4, 47730))
    pdata = {"products.json": jd({"products": [
        {"id": "OLJCESPC7Z", "name": "National Park Foundation Explorascope", "priceUsd": {"currencyCode": "USD", "units": 101, "nanos": 960000000}, "categories": ["telescopes"]},
        {"id": "66VCHSJNUP", "name": "Starsense Explorer Refractor Telescope", "priceUsd": {"currencyCode": "USD", "units": 349, "nanos": 950000000}, "categories": ["telescopes"]},
        {"id": "2ZYFJ3GM2N", "name": "Roof Binoculars", "priceUsd": {"currencyCode": "USD", "units": 209, "nanos": 950000000}, "categories": ["binoculars"]}]})}
    S.obj_periodic(configmap("product-catalog-products", S.t0, 1210, pdata, labels={"app.kubernetes.io/part-of": "opentelemetry-demo"}),
                   [t for t in S.times if t < S.fault - 6])
    S.obj_periodic(configmap("product-catalog-products", S.t0, 47721, pdata,
                             labels={"app.kubernetes.io/part-of": "opentelemetry-demo", "argocd.argoproj.io/instance": "otel-demo"}),
                   [S.fault - 6] + [t for t in S.times if t >= S.fault - 6])
    # harmless change: the data ConfigMap was re-labelled at the same Argo sync
    for t in S.times:
        if t >= S.fault:
            S.obj(t, pod("product-catalog", pc_new[0], S.fault + 5, 47760, pc_new[1], pc_new[2],
                         c_extra={"volumeMounts": [{"name": "product-catalog-products", "mountPath": "/usr/src/app/products", "readOnly": True}]},
                         pod_extra={"volumes": [{"name": "product-catalog-products", "projected": {"defaultMode": 420, "sources": [
                             {"configMap": {"name": "product-catalog-products-v2", "optional": True}}]}}]}))
    S.ev(S.fault + 1, "Deployment", "product-catalog", "ScalingReplicaSet", "Scaled up replica set product-catalog-%s to 1" % kname("pcr9", 10), comp="deployment-controller")
    S.ev(S.fault + 6, "Pod", pc_new[0], "Scheduled", "Successfully assigned otel-demo/%s to %s" % (pc_new[0], pc_new[1]), comp="default-scheduler")
    S.ev(S.fault + 14, "Pod", pc_new[0], "Started", "Started container product-catalog", host=pc_new[1])
    S.ev(S.fault + 36, "Deployment", "product-catalog", "ScalingReplicaSet", "Scaled down replica set product-catalog-%s to 0 from 1" % kname("pcr8", 10), comp="deployment-controller")
    S.ev(S.fault + 37, "Pod", pc_old[0], "Killing", "Stopping container product-catalog", host=pc_old[1])
    S.log(S.fault + 15, "product-catalog", "INFO", jd({"level": "info", "msg": "Loaded 0 products"}), podn=pc_new[0])
    S.log(S.fault + 15.2, "product-catalog", "INFO", jd({"level": "info", "msg": "product catalog reload job started", "interval": "10s"}), podn=pc_new[0])
    for i in range(60):
        t = ready_t + i * 20
        S.log(t, "product-catalog", "INFO", jd({"level": "info", "msg": "Loaded 0 products"}), podn=pc_new[0])
        if i % 2:
            S.log(t + 3, "frontend", "ERROR", jd({"level": "error", "msg": "Error: 5 NOT_FOUND: Product Not Found: OLJCESPC7Z", "route": "/api/products/[productId]"}))
        if i % 5 == 0:
            S.log(t + 5, "checkout", "ERROR", jd({"message": "failed to prepare order", "error": "failed to prepare order: failed to get product #\"66VCHSJNUP\"", "severity": "error"}))
    # unrelated restart: flagd pod restart by liveness after OOM-free config reload
    fl = S.pods_of("flagd")[0]
    S.ev(S.start + 420, "Pod", fl[0], "Killing", "Container flagd failed liveness probe, will be restarted", "Normal", host=fl[1])
    S.ev(S.start + 421, "Pod", fl[0], "Unhealthy", "Liveness probe failed: Get \"http://%s:8013/healthz\": context deadline exceeded" % fl[2], "Warning", count=3, host=fl[1])
    svc_metrics(S, "product-catalog", S.start, S.end, ready_t, 9.0, 0.35, 4, 2)
    svc_metrics(S, "frontend", S.start, S.end, ready_t, 8.0, 0.3, 40, 35)
    svc_metrics(S, "checkout", S.start, S.end, ready_t, 0.5, 1.0, 150, 40)
    svc_metrics(S, "recommendation", S.start, S.end, ready_t, 1.5, 0.0, 20, 8)
    A = [alert("RequestErrorRate", "frontend", ready_t + 120, "critical"),
         alert("RequestErrorRate", "checkout", ready_t + 120, "critical"),
         alert("RequestErrorRate", "product-catalog", ready_t + 180, "warning"),
         alert("NoRequestsReceived", "payment", ready_t + 300, "warning"),
         alert("NoRequestsReceived", "email", ready_t + 300, "warning")]
    S.alerts_at(ready_t + 200, A[:3], "prom")
    S.alerts_at(ready_t + 500, A, "prom")
    S.alerts_at(ready_t + 800, A, "prom")
    groups = comp_groups("product-catalog", root="Deployment") + \
        [{"id": "product-catalog-products-configmap-1", "kind": "ConfigMap", "namespace": NS, "name": "product-catalog-products", "filter": ["^product-catalog-products"]}] + \
        comp_groups("frontend") + comp_groups("checkout") + comp_groups("recommendation") + comp_groups("payment", kinds=("Service",)) + comp_groups("email", kinds=("Service",))
    props = [prop("product-catalog-deployment-1", "product-catalog-pod-1", "projected volume now references ConfigMap product-catalog-products-v2, which does not exist, with optional: true",
                  "new pod starts with an empty /usr/src/app/products and loads 0 products"),
             prop("product-catalog-pod-1", "product-catalog-service-1", "empty catalog", "GetProduct returns NOT_FOUND"),
             prop("product-catalog-service-1", "checkout-service-1", "GetProduct NOT_FOUND", "PlaceOrder fails"),
             prop("product-catalog-service-1", "frontend-service-1", "product pages fail", "frontend error rate up"),
             prop("checkout-service-1", "payment-service-1", "orders never reach payment", "payment receives no requests"),
             prop("checkout-service-1", "email-service-1", "orders never complete", "email receives no requests")]
    bg_metrics(S, ['ad'])
    S.gt = gt_doc(groups, [["product-catalog-deployment-1", "product-catalog-pod-1", "product-catalog-service-1"],
                           ["frontend-service-1", "frontend-pod-1", "frontend-deployment-1"], ["checkout-service-1", "checkout-pod-1", "checkout-deployment-1"],
                           ["recommendation-service-1", "recommendation-pod-1", "recommendation-deployment-1"]], props,
                  fault_rec("Configuration", "Deployment product-catalog mounts a non-existent ConfigMap through a projected volume with optional: true", "Deployment", "product-catalog", "product-catalog-deployment-1", "optional-configmap-missing"),
                  [{"group_id": "frontend-service-1", "id": "RequestErrorRate"}, {"group_id": "checkout-service-1", "id": "RequestErrorRate"},
                   {"group_id": "product-catalog-service-1", "id": "RequestErrorRate"}, {"group_id": "payment-service-1", "id": "NoRequestsReceived"},
                   {"group_id": "email-service-1", "id": "NoRequestsReceived"}],
                  ["Point the projected volume back at ConfigMap product-catalog-products"])
    return S


# ============================================================================= Scenario 6: PodSecurity enforce label tightened on the namespace
def sc6():
    S = new_snap(6, 17, 21, 606, ev_style="events.k8s.io/v1", metric_ts="epoch", tag_style="json", gt_wrapped=True, noise_ns="batch-jobs",
                 fault_min=22)
    label_t = S.fault - 14 * 60  # label applied 14 minutes before the pod is lost
    cart = S.pods_of("cart")[0]
    evict_t = S.fault

    S.quiet = {a: evict_t for a in ("cart", "checkout", "payment", "email", "accounting", "fraud-detection")}

    def oc(t, path):
        svc, name = path[-1]
        if path[0][0] in ("accounting", "fraud-detection") and t >= evict_t + 20:
            return {"gone": True}  # checkout fails at GetCart: no orders
        if t >= evict_t and svc == "cart" and "CartService" in name:
            caller = path[-2][0]
            if caller == "checkout":
                return {"gone": True, "ms": 3, "msg": 'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 10.96.28.176:8080: connect: connection refused"'}
            return {"gone": True, "ms": 2, "msg": "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 10.96.28.176:8080"}
        return None
    apps = [a for a in APPS_ALL if a != "cart"]
    common(S, apps, MIX, oc)
    S.obj_periodic(deployment("cart", S.t0, 5120, gen=2, status={"replicas": 0, "readyReplicas": 0, "availableReplicas": 0, "unavailableReplicas": 1, "observedGeneration": 2,
                                                               "conditions": [{"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable", "message": "Deployment does not have minimum availability."},
                                                                              {"type": "ReplicaFailure", "status": "True", "reason": "FailedCreate",
                                                                               "message": "pods \"%s\" is forbidden: violates PodSecurity \"restricted:latest\"" % podname("cart", "x")[:-6]}]}),
                   [t for t in S.times if t >= evict_t])
    S.obj_periodic(deployment("cart", S.t0, 5011, gen=2), [t for t in S.times if t < evict_t])
    S.obj_periodic(service("cart", S.t0, 3170, 8080), S.times[:1])
    for t in S.times:
        if t < evict_t:
            S.obj(t, pod("cart", cart[0], S.t0 - 86400 * 4, 5300, cart[1], cart[2]))

    def nsobj(extra, rv):
        lab = {"kubernetes.io/metadata.name": NS, "name": NS, "istio-injection": "disabled",
               "pod-security.kubernetes.io/warn": "baseline", "pod-security.kubernetes.io/audit": "restricted"}
        lab.update(extra)
        return {"apiVersion": "v1", "kind": "Namespace",
                "metadata": {"name": NS, "uid": uid("ns" + NS), "resourceVersion": str(rv), "creationTimestamp": iso(S.t0 - 86400 * 40), "labels": lab},
                "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}}
    before_after(S, nsobj({}, 1044), nsobj({"pod-security.kubernetes.io/enforce": "restricted", "pod-security.kubernetes.io/enforce-version": "latest"}, 812236), label_t)
    # harmless change to another object near the label change: the batch-jobs namespace gets a team label
    S.obj(label_t + 30, {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "batch-jobs", "uid": uid("nsbatch"), "resourceVersion": "812240",
                                                                               "labels": {"kubernetes.io/metadata.name": "batch-jobs", "team": "data-eng"}},
                         "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}})
    # node memory pressure evicts the cart pod (unrelated trigger)
    S.ev(evict_t - 40, "Node", cart[1], "EvictionThresholdMet", "Attempting to reclaim memory", "Warning", ns="default", host=cart[1], api="v1")
    S.ev(evict_t, "Pod", cart[0], "Evicted", "The node was low on resource: memory. Threshold quantity: 100Mi, available: 93412Ki. Container cart was using 301120Ki, request is 0, has larger consumption of memory.",
         "Warning", host=cart[1])
    S.ev(evict_t + 1, "Pod", cart[0], "Killing", "Stopping container cart", host=cart[1])
    rsname = "cart-" + cart[0].split("-")[1]
    msg = ('pods "%s-%s" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "cart" must set securityContext.allowPrivilegeEscalation=false), '
           'unrestricted capabilities (container "cart" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "cart" must set securityContext.runAsNonRoot=true), '
           'seccompProfile (pod or container "cart" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")')
    for i in range(9):
        t = evict_t + 2 + (2 ** i if i < 6 else 64 + (i - 5) * 300)
        if t < S.end:
            S.ev(t, "ReplicaSet", rsname, "FailedCreate", "Error creating: " + msg % (rsname, kname("cartp%d" % i, 5)), "Warning", count=i + 1, comp="replicaset-controller",
                 watch="ADDED" if i == 0 else "MODIFIED", first=evict_t + 3)
    # unrelated: other pods fine; one warning about probe on image-provider
    ip = S.pods_of("image-provider")[0]
    S.ev(S.start + 333, "Pod", ip[0], "Unhealthy", "Readiness probe failed: HTTP probe failed with statuscode: 503", "Warning", count=2, host=ip[1])
    for i in range(30):
        t = evict_t + 30 + i * 40
        S.log(t, "frontend", "ERROR", jd({"level": "error", "msg": "Error: 14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 10.96.28.176:8080", "route": "/api/cart"}))
        if i % 4 == 0:
            S.log(t + 2, "checkout", "ERROR", jd({"message": "failed to prepare order: failed to get user cart during checkout", "severity": "error"}))
    svc_metrics(S, "frontend", S.start, S.end, evict_t, 8.0, 0.27, 35, 30)
    svc_metrics(S, "checkout", S.start, S.end, evict_t, 0.5, 1.0, 140, 20)
    S.series("service_cart.tsv", "traces_span_metrics_calls_total_rate", {"service_name": "cart", "namespace": NS, "span_kind": "SPAN_KIND_SERVER"},
             ramp(S, S.start, S.end, 60, 3.0, 0.3, 0.0, evict_t))
    S.series("service_cart.tsv", "kube_deployment_status_replicas_available", {"service_name": "cart", "deployment": "cart", "namespace": NS},
             ramp(S, S.start, S.end, 60, 1, 0, 0, evict_t))
    A = [alert("RequestErrorRate", "frontend", evict_t + 120, "critical"),
         alert("RequestErrorRate", "checkout", evict_t + 120, "critical"),
         alert("KubeDeploymentReplicasMismatch", "cart", evict_t + 600, "warning", extra={"deployment": "cart"}),
         alert("KubeJobFailed", "nightly-export", S.start + 300, "warning", ns="batch-jobs", extra={"job_name": "nightly-export-29004120"})]
    S.alerts_at(evict_t + 300, [A[0], A[1], A[3]], "prom")
    S.alerts_at(evict_t + 700, A, "prom")
    S.alerts_at(evict_t + 1000, A, "prom")
    groups = [{"id": "otel-demo-namespace-1", "kind": "Namespace", "namespace": NS, "name": NS, "root_cause": True},
              {"id": "cart-replicaset-1", "kind": "ReplicaSet", "namespace": NS, "filter": ["^cart-[a-z0-9]+$"]}] + \
        comp_groups("cart") + comp_groups("checkout") + comp_groups("frontend")
    props = [prop("otel-demo-namespace-1", "cart-replicaset-1", "namespace labelled pod-security.kubernetes.io/enforce=restricted; cart pod template is not restricted-compliant",
                  "replacement cart pod refused by PodSecurity admission (FailedCreate)"),
             prop("cart-replicaset-1", "cart-service-1", "no cart pod after the eviction", "cart has no endpoints"),
             prop("cart-service-1", "checkout-service-1", "connection refused", "PlaceOrder fails"),
             prop("cart-service-1", "frontend-service-1", "connection refused", "cart requests fail")]
    bg_metrics(S, ['ad', 'recommendation'])
    S.gt = gt_doc(groups, [["cart-service-1", "cart-pod-1", "cart-deployment-1", "cart-replicaset-1"], ["checkout-service-1", "checkout-pod-1", "checkout-deployment-1"],
                           ["frontend-service-1", "frontend-pod-1", "frontend-deployment-1"]], props,
                  fault_rec("Configuration", "PodSecurity enforce level raised to restricted on namespace otel-demo", "Namespace", NS, "otel-demo-namespace-1", "pod-security-admission"),
                  [{"group_id": "frontend-service-1", "id": "RequestErrorRate"}, {"group_id": "checkout-service-1", "id": "RequestErrorRate"},
                   {"group_id": "cart-deployment-1", "id": "KubeDeploymentReplicasMismatch"}],
                  ["Set pod-security.kubernetes.io/enforce back to baseline on namespace otel-demo (or make cart restricted-compliant)"])
    return S


# ============================================================================= Scenario 7: terminationGracePeriodSeconds 0 on checkout + HPA churn
def sc7():
    S = new_snap(7, 19, 13, 707, ev_style="core", metric_ts="iso", tag_style="json", gt_wrapped=False, noise_ns="monitoring",
                 managed=True, fault_min=12)
    kills = [S.fault + 95, S.fault + 95 + 420, S.fault + 95 + 900, S.fault + 95 + 1260, S.fault + 95 + 1560]

    def oc(t, path):
        svc, name = path[-1]
        if svc == "checkout" and name.endswith("PlaceOrder"):
            for k in kills:
                if k - 4 <= t <= k + 1:
                    return {"err": True, "stop": True, "ms": 2, "msg": "", "gone": True}
            if any(k - 25 <= t < k - 4 for k in kills) and S.rng.random() < 0.4:
                return {"gone": True, "ms": 1800, "msg": ""}
        if svc == "frontend" and "checkout" in name:
            for k in kills:
                if k - 25 <= t <= k + 1:
                    pass
        return None

    def oc2(t, path):
        r = oc(t, path)
        if r and r.get("gone"):
            r["msg"] = "13 INTERNAL: Received RST_STREAM with code 2 triggered by internal client error: Protocol error" if S.rng.random() < 0.5 else "14 UNAVAILABLE: Connection dropped"
        return r
    mix = dict(MIX, checkout=5)
    S.pod_pick = lambda svc, t: (podname("checkout", "g9-%d" % (int(t * 1000) % 3), "g9") if t < S.fault - 200 else None) if svc == "checkout" else None
    S.pods["checkout"] = [(podname("checkout", "g10-%d" % i, "g10"), ["ip-10-0-1-23.ec2.internal", "ip-10-0-2-87.ec2.internal", "ip-10-0-3-141.ec2.internal"][i % 3], "10.244.%d.%d" % (i % 3 + 1, 140 + i)) for i in range(3)]
    common(S, [a for a in APPS_ALL if a != "checkout"], mix, oc2, per_min=8)
    gp = {"terminationGracePeriodSeconds": 0}
    d_old = deployment("checkout", S.t0, 72100, replicas=3, gen=9, managed=True)
    d_new = deployment("checkout", S.t0, 73390, replicas=3, gen=10, managed=True, pod_extra=gp,
                       dep_ann={"kubernetes.io/change-cause": "speed up rollouts (PLAT-2231)"})
    before_after(S, d_old, d_new, S.fault - 240)
    pods = [(podname("checkout", "g10-%d" % i, "g10"), ["ip-10-0-1-23.ec2.internal", "ip-10-0-2-87.ec2.internal", "ip-10-0-3-141.ec2.internal"][i % 3], "10.244.%d.%d" % (i % 3 + 1, 140 + i)) for i in range(8)]
    old_pods = [(podname("checkout", "g9-%d" % i, "g9"), ["ip-10-0-2-87.ec2.internal", "ip-10-0-3-141.ec2.internal", "ip-10-0-1-23.ec2.internal"][i], "10.244.%d.%d" % (i % 3 + 1, 90 + i)) for i in range(3)]
    for t in S.times:
        if t < S.fault - 200:
            for (pn, nd, ip) in old_pods:
                S.obj(t, pod("checkout", pn, S.t0 - 86400 * 3, 70400 + len(pn), nd, ip))
            continue
        cur = list(pods[:3])
        for i, k in enumerate(kills):
            if k - 300 <= t < k:
                cur.append(pods[3 + (i % 5)])
        for (pn, nd, ip) in cur:
            S.obj(t, pod("checkout", pn, S.fault - 200, 73400 + len(pn), nd, ip, pod_extra=gp))
    S.obj_periodic(service("checkout", S.t0, 3190, 8080), S.times[:1])
    # rollout itself (grace 0 -> old pods killed instantly)
    S.ev(S.fault - 238, "Deployment", "checkout", "ScalingReplicaSet", "Scaled up replica set checkout-%s to 1" % kname("ckrs10", 10), comp="deployment-controller")
    S.ev(S.fault - 200, "Deployment", "checkout", "ScalingReplicaSet", "Scaled down replica set checkout-%s to 2 from 3" % kname("ckrs9", 10), comp="deployment-controller")
    hpa = {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
           "metadata": meta("checkout", NS, S.t0 - 86400 * 50, 73001, None, None, "HorizontalPodAutoscaler"),
           "spec": {"minReplicas": 3, "maxReplicas": 8, "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "checkout"},
                    "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 60}}}],
                    "behavior": {"scaleDown": {"stabilizationWindowSeconds": 60}}},
           "status": {"currentReplicas": 3, "desiredReplicas": 3}}
    S.obj_periodic(hpa, S.times)
    for i, k in enumerate(kills):
        S.ev(k - 300, "HorizontalPodAutoscaler", "checkout", "SuccessfulRescale", "New size: 4; reason: cpu resource utilization (percentage of request) above target",
             comp="horizontal-pod-autoscaler", api="autoscaling/v2", count=i + 1, watch="MODIFIED" if i else "ADDED", first=kills[0] - 300)
        S.ev(k - 2, "HorizontalPodAutoscaler", "checkout", "SuccessfulRescale", "New size: 3; reason: All metrics below target",
             comp="horizontal-pod-autoscaler", api="autoscaling/v2", count=i + 1, watch="MODIFIED" if i else "ADDED", first=kills[0] - 2)
        victim = pods[3 + (i % 5)][0]
        S.ev(k, "Pod", victim, "Killing", "Stopping container checkout", host=pods[3 + (i % 5)][1])
        S.log(k - 0.5, "frontend", "ERROR", jd({"level": "error", "msg": "Error: 14 UNAVAILABLE: Connection dropped", "route": "/api/checkout"}))
        S.log(k - 0.4, "frontend", "ERROR", jd({"level": "error", "msg": "Error: 13 INTERNAL: Received RST_STREAM with code 2 triggered by internal client error: Protocol error", "route": "/api/checkout"}))
        S.log(k - 0.3, "payment", "WARN", jd({"level": 40, "msg": "client cancelled request before response was sent", "transactionId": uid("pt%d" % i)}))
        S.log(k - 0.6, "frontend-proxy", "WARN", '[%s] "POST /api/checkout HTTP/1.1" 500 - via_upstream - "-" 214 69 1812 1811 "-" "python-requests/2.32.3" "%s" "frontend-proxy:8080" "10.244.1.44:8080" frontend 10.244.1.44:8080' % (iso(k, True), uid("fp%d" % i)))
    # unrelated: recommendation pod restarted once due to a transient node-level image GC warning
    S.ev(S.start + 250, "Node", "ip-10-0-2-87.ec2.internal", "ImageGCFailed", "failed to garbage collect required amount of images. Attempted to free 2147483648 bytes, but only found 0 bytes eligible to free.",
         "Warning", ns="default", host="ip-10-0-2-87.ec2.internal", api="v1")
    svc_metrics(S, "frontend", S.start, S.end, S.fault, 8.0, 0.0, 40)
    for k in kills:
        S.series("service_frontend.tsv", "traces_span_metrics_calls_total_rate", {"service_name": "frontend", "namespace": NS, "span_kind": "SPAN_KIND_SERVER", "status_code": "STATUS_CODE_ERROR"},
                 [(k - k % 60 + 60, 0.9)], {"status_code": "STATUS_CODE_ERROR"})
    S.series("service_checkout.tsv", "kube_deployment_spec_replicas", {"service_name": "checkout", "deployment": "checkout", "namespace": NS},
             [(t, 4 if any(k - 300 <= t < k for k in kills) else 3) for t in range(S.start, S.end, 60)])
    A = [alert("RequestErrorRate", "frontend", kills[1] + 20, "warning", summary="frontend 5xx above 2% (checkout route)"),
         alert("CheckoutFailuresSpike", "checkout", kills[2] + 10, "warning", summary="orders failing in bursts"),
         alert("KubeHpaReplicasMismatch", "checkout", kills[1] - 200, "info", extra={"horizontalpodautoscaler": "checkout"}, state="pending")]
    S.alerts_at(kills[1] + 60, [A[0], A[2]], "prom")
    S.alerts_at(kills[2] + 60, A, "prom")
    S.alerts_at(kills[3] + 60, A[:2], "prom")
    groups = comp_groups("checkout", root="Deployment") + comp_groups("frontend") + \
        [{"id": "checkout-hpa-1", "kind": "HorizontalPodAutoscaler", "namespace": NS, "name": "checkout"}]
    props = [prop("checkout-deployment-1", "checkout-pod-1", "terminationGracePeriodSeconds set to 0", "every pod removed by a rollout or HPA scale-down is SIGKILLed with requests in flight"),
             prop("checkout-pod-1", "frontend-service-1", "in-flight PlaceOrder streams reset", "bursts of 500s on /api/checkout")]
    bg_metrics(S, ['cart', 'product-catalog', 'currency', 'ad', 'recommendation', 'shipping'])
    S.gt = gt_doc(groups, [["checkout-deployment-1", "checkout-pod-1", "checkout-service-1"], ["frontend-service-1", "frontend-pod-1", "frontend-deployment-1"]], props,
                  fault_rec("Configuration", "checkout pod template terminationGracePeriodSeconds: 0", "Deployment", "checkout", "checkout-deployment-1", "termination-grace-zero"),
                  [{"group_id": "frontend-service-1", "id": "RequestErrorRate"}, {"group_id": "checkout-service-1", "id": "CheckoutFailuresSpike"},
                   {"group_id": "checkout-hpa-1", "id": "KubeHpaReplicasMismatch"}],
                  ["Restore terminationGracePeriodSeconds to 30 on Deployment checkout"])
    return S


# ============================================================================= Scenario 8: Ingress pathType Prefix -> Exact
def sc8():
    S = new_snap(8, 21, 7, 808, ev_style="mixed", metric_ts="epoch", tag_style="dict", gt_wrapped=False, noise_ns="data-tools",
                 obj_style="double", obj_quote="raw")
    common(S, APPS_ALL, dict(MIX, images=3), lambda t, p: None)

    def ing(pt, rv, gen):
        return {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
                "metadata": meta("astronomy-shop", NS, S.t0 - 86400 * 60, rv, {"app.kubernetes.io/part-of": "opentelemetry-demo"},
                                 {"cert-manager.io/cluster-issuer": "letsencrypt-prod", "nginx.ingress.kubernetes.io/proxy-body-size": "8m"}, "Ingress", gen=gen),
                "spec": {"ingressClassName": "nginx", "tls": [{"hosts": ["shop.example.com"], "secretName": "shop-example-tls"}],
                         "rules": [{"host": "shop.example.com", "http": {"paths": [
                             {"path": "/", "pathType": pt, "backend": {"service": {"name": "frontend-proxy", "port": {"number": 8080}}}},
                             {"path": "/otlp-http", "pathType": "Prefix", "backend": {"service": {"name": "frontend-proxy", "port": {"number": 8080}}}}]}}]},
                "status": {"loadBalancer": {"ingress": [{"hostname": "a1b2c3d4e5f6-1234567890.eu-west-1.elb.amazonaws.com"}]}}}
    before_after(S, ing("Prefix", 660120, 7), ing("Exact", 671504, 8))
    S.ev(S.fault + 3, "Ingress", "astronomy-shop", "Sync", "Scheduled for sync", comp="nginx-ingress-controller", ns=NS, api="networking.k8s.io/v1",
         host="ingress-nginx-controller-7b9d8c6f5-k4lqz")
    # harmless change nearby: cert-manager renews the TLS secret (same hosts)
    for rv, t in ((650001, S.times[0]), (671490, S.fault - 200)):
        S.obj(t, {"apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/tls",
                  "metadata": meta("shop-example-tls", NS, S.t0 - 86400 * 60, rv, {"controller.cert-manager.io/fao": "true"},
                                   {"cert-manager.io/certificate-name": "shop-example-tls", "cert-manager.io/issuer-name": "letsencrypt-prod"}, "Secret"),
                  "data": {"tls.crt": "LS0tLS1CRUdJTi...redacted", "tls.key": "LS0tLS1CRUdJTi...redacted"}})
    S.ev(S.fault - 201, "Certificate", "shop-example-tls", "Issuing", "The certificate has been successfully issued", comp="cert-manager-certificates-issuing",
         api="cert-manager.io/v1")
    # ingress-nginx access logs (namespace ingress-nginx)
    ctl = "ingress-nginx-controller-7b9d8c6f5-k4lqz"
    paths = ["/", "/api/products", "/api/cart?sessionId=%s&currencyCode=USD", "/images/products/RoofBinoculars.jpg", "/api/recommendations?productIds=",
             "/_next/static/chunks/main-3f1d8c.js", "/api/data?contextKeys=binoculars", "/product/66VCHSJNUP"]
    t = S.start + 2
    k = 0
    while t < S.end:
        p = paths[k % len(paths)]
        if "%s" in p:
            p = p % uid("sess%d" % (k // 20))
        ok = t < S.fault or p == "/"
        up = "[otel-demo-frontend-proxy-8080] [] 10.244.3.58:8080 %d %.3f 200" % (900 + k % 600, 0.01 + (k % 9) / 100) if ok else "[upstream-default-backend] [] 127.0.0.1:8181 146 0.000 404"
        body = '198.51.100.%d - - [%s] "GET %s HTTP/2.0" %d %d "https://shop.example.com/" "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5)" 38 %.3f %s %s' % (
            k % 250, utc(int(t)).strftime("%d/%b/%Y:%H:%M:%S +0000"), p, 200 if ok else 404, 900 if ok else 146,
            0.012 if ok else 0.0, up, hx("req%d" % k, 32))
        S.log(t, "ingress-nginx", "INFO", body, podn=ctl, ns="ingress-nginx")
        t += 6 + k % 4
        k += 1
    S.log(S.fault + 2, "ingress-nginx", "INFO", 'I0221 %s       7 controller.go:193] "Configuration changes detected, backend reload required"' % utc(S.fault + 2).strftime("%H:%M:%S.000000"), podn=ctl, ns="ingress-nginx")
    S.log(S.fault + 3, "ingress-nginx", "INFO", 'I0221 %s       7 controller.go:213] "Backend successfully reloaded"' % utc(S.fault + 3).strftime("%H:%M:%S.000000"), podn=ctl, ns="ingress-nginx")
    # metrics
    itags = {"service_name": "ingress-nginx-controller", "namespace": "ingress-nginx", "ingress": "astronomy-shop", "exported_namespace": NS, "status": "404"}
    S.series("service_ingress-nginx-controller.tsv", "nginx_ingress_controller_requests_rate", itags, ramp(S, S.start, S.end, 60, 0.02, 0.02, 7.2, S.fault))
    S.series("service_ingress-nginx-controller.tsv", "nginx_ingress_controller_requests_rate", dict(itags, status="200"), ramp(S, S.start, S.end, 60, 8.0, 0.6, 0.9, S.fault))
    S.series("service_ingress-nginx-controller.tsv", "probe_success", {"service_name": "ingress-nginx-controller", "instance": "https://shop.example.com/api/products", "job": "blackbox"},
             ramp(S, S.start, S.end, 30, 1, 0, 0, S.fault))
    svc_metrics(S, "frontend-proxy", S.start, S.end, S.fault, 14.0, 0.0, 25, rate_after=6.5)
    svc_metrics(S, "frontend", S.start, S.end, S.fault, 9.0, 0.0, 40, rate_after=4.1)
    A = [alert("BlackboxProbeFailed", "ingress-nginx-controller", S.fault + 60, "critical", ns="ingress-nginx", extra={"instance": "https://shop.example.com/api/products"}),
         alert("NginxHigh4xxRate", "ingress-nginx-controller", S.fault + 120, "warning", ns="ingress-nginx", extra={"ingress": "astronomy-shop", "exported_namespace": NS}),
         alert("RequestRateDrop", "frontend", S.fault + 420, "info")]
    S.alerts_at(S.fault + 240, A[:2], "am2")
    S.alerts_at(S.fault + 600, A, "am2")
    groups = [{"id": "astronomy-shop-ingress-1", "kind": "Ingress", "namespace": NS, "name": "astronomy-shop", "filter": ["^astronomy-shop$"], "root_cause": True},
              {"id": "ingress-nginx-controller-1", "kind": "Service", "namespace": "ingress-nginx", "name": "ingress-nginx-controller"},
              {"id": "ingress-nginx-pod-1", "kind": "Pod", "namespace": "ingress-nginx", "filter": ["^ingress-nginx-controller-.*"]}] + \
        comp_groups("frontend-proxy") + comp_groups("frontend")
    props = [prop("astronomy-shop-ingress-1", "ingress-nginx-pod-1", "rule / changed from pathType Prefix to Exact", "every path other than / falls to the default backend"),
             prop("ingress-nginx-pod-1", "ingress-nginx-controller-1", "404 from default backend", "external probes fail, 4xx rate high"),
             prop("ingress-nginx-controller-1", "frontend-proxy-service-1", "external API and image requests never forwarded", "frontend-proxy/frontend request rate drops")]
    S.gt = gt_doc(groups, [["ingress-nginx-controller-1", "ingress-nginx-pod-1"], ["frontend-proxy-service-1", "frontend-proxy-pod-1", "frontend-proxy-deployment-1"],
                           ["frontend-service-1", "frontend-pod-1", "frontend-deployment-1"]], props,
                  fault_rec("Configuration", "Ingress astronomy-shop path / pathType Exact", "Ingress", "astronomy-shop", "astronomy-shop-ingress-1", "ingress-pathtype"),
                  [{"group_id": "ingress-nginx-controller-1", "id": "BlackboxProbeFailed"}, {"group_id": "ingress-nginx-controller-1", "id": "NginxHigh4xxRate"},
                   {"group_id": "frontend-service-1", "id": "RequestRateDrop"}],
                  ["Set pathType Prefix on path / of Ingress astronomy-shop"])
    return S


# ============================================================================= Scenario 9: postgresql runAsUser change vs volume ownership
def sc9():
    S = new_snap(9, 24, 18, 909, ev_style="core", metric_ts="epoch_ms", tag_style="json", gt_wrapped=True, noise_ns="staging", managed=True,
                 obj_quote="csv", drop_root=0.12)
    pg_old = ("postgresql-6f4b8d9c7d-wq5tn", "ip-10-0-1-23.ec2.internal", "10.244.1.90")
    pg_new = ("postgresql-78d5c9fb64-zm2lr", "ip-10-0-1-23.ec2.internal", "10.244.1.117")
    down = S.fault + 8

    def oc(t, path):
        svc, name = path[-1]
        if t >= down and svc == "accounting" and name.startswith("INSERT"):
            return {"err": True, "ms": 2, "msg": "Failed to connect to 10.96.74.12:5432", "attrs": {"db.system": "postgresql", "server.address": "postgresql"}}
        return None
    common(S, APPS_ALL, MIX, oc)

    def pg(uidn, rv, gen, st=None):
        d = deployment("postgresql", S.t0, rv, gen=gen, port=5432, managed=True, mem="512Mi",
                       strategy={"type": "Recreate"},
                       env=[{"name": "POSTGRES_USER", "value": "root"}, {"name": "POSTGRES_DB", "value": "otel"},
                            {"name": "PGDATA", "value": "/var/lib/postgresql/data/pgdata"},
                            {"name": "POSTGRES_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "postgresql-auth", "key": "password"}}}],
                       c_extra={"image": "postgres:17.2", "volumeMounts": [{"name": "data", "mountPath": "/var/lib/postgresql/data"}],
                                "securityContext": {"runAsUser": uidn, "runAsGroup": 999, "allowPrivilegeEscalation": False}},
                       pod_extra={"securityContext": {"fsGroup": 999, "fsGroupChangePolicy": "OnRootMismatch"},
                                  "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "postgresql-data"}}]}, status=st)
        return d
    before_after(S, pg(999, 91820, 4), pg(1001, 92455, 5, {"replicas": 1, "updatedReplicas": 1, "readyReplicas": 0, "availableReplicas": 0, "unavailableReplicas": 1, "observedGeneration": 5}))
    S.obj_periodic(service("postgresql", S.t0, 3301, 5432), S.times[:1])
    S.obj_periodic({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                    "metadata": meta("postgresql-data", NS, S.t0 - 86400 * 60, 4410, None, {"pv.kubernetes.io/bind-completed": "yes"}, "PersistentVolumeClaim"),
                    "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "8Gi"}}, "storageClassName": "gp3", "volumeName": "pvc-" + uid("pgpv")},
                    "status": {"phase": "Bound", "capacity": {"storage": "8Gi"}}}, S.times[::3])
    for t in S.times:
        if t < S.fault:
            S.obj(t, pod("postgresql", pg_old[0], S.t0 - 86400 * 9, 91900, pg_old[1], pg_old[2], port=5432,
                         c_extra={"image": "postgres:17.2", "securityContext": {"runAsUser": 999, "runAsGroup": 999, "allowPrivilegeEscalation": False}},
                         pod_extra={"securityContext": {"fsGroup": 999, "fsGroupChangePolicy": "OnRootMismatch"},
                                    "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "postgresql-data"}}]}))
        else:
            r = min(7, 1 + (t - down) // 150)
            S.obj(t, pod("postgresql", pg_new[0], down, 92500 + r, pg_new[1], pg_new[2], ready=False, restarts=r, port=5432,
                         c_extra={"image": "postgres:17.2", "securityContext": {"runAsUser": 1001, "runAsGroup": 999, "allowPrivilegeEscalation": False}},
                         pod_extra={"securityContext": {"fsGroup": 999, "fsGroupChangePolicy": "OnRootMismatch"},
                                    "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "postgresql-data"}}]},
                         waiting={"reason": "CrashLoopBackOff", "message": "back-off 1m20s restarting failed container=postgresql pod=%s_otel-demo(%s)" % (pg_new[0], uid(pg_new[0]))},
                         last_term={"exitCode": 1, "reason": "Error", "startedAt": iso(t - 30), "finishedAt": iso(t - 29)}))
    S.ev(S.fault + 1, "Deployment", "postgresql", "ScalingReplicaSet", "Scaled down replica set postgresql-6f4b8d9c7d to 0 from 1", comp="deployment-controller")
    S.ev(S.fault + 2, "Pod", pg_old[0], "Killing", "Stopping container postgresql", host=pg_old[1])
    S.ev(down - 2, "Deployment", "postgresql", "ScalingReplicaSet", "Scaled up replica set postgresql-78d5c9fb64 to 1", comp="deployment-controller")
    S.ev(down, "Pod", pg_new[0], "Scheduled", "Successfully assigned otel-demo/%s to %s" % (pg_new[0], pg_new[1]), comp="default-scheduler")
    S.ev(down + 3, "Pod", pg_new[0], "Pulled", 'Container image "postgres:17.2" already present on machine', host=pg_new[1])
    for i in range(7):
        t = down + 30 + i * 150
        if t < S.end:
            S.ev(t, "Pod", pg_new[0], "BackOff", "Back-off restarting failed container postgresql in pod %s_otel-demo(%s)" % (pg_new[0], uid(pg_new[0])), "Warning", count=i + 1,
                 host=pg_new[1], watch="ADDED" if i == 0 else "MODIFIED", first=down + 30)
            S.log(t - 25, "postgresql", "FATAL", '%s UTC [1] FATAL:  data directory "/var/lib/postgresql/data/pgdata" has wrong ownership' % utc(int(t - 25)).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3], podn=pg_new[0])
            S.log(t - 25, "postgresql", "INFO", '%s UTC [1] HINT:  The server must be started by the user that owns the data directory.' % utc(int(t - 25)).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3], podn=pg_new[0])
    for i in range(25):
        t = down + 15 + i * 50
        S.log(t, "accounting", "ERROR", "Npgsql.NpgsqlException (0x80004005): Failed to connect to 10.96.74.12:5432\n ---> System.Net.Sockets.SocketException (111): Connection refused")
    # unrelated noise: fraud-detection warns about a slow consumer rebalance; a checkout image bump is NOT present
    S.log(S.start + 600, "fraud-detection", "WARN", "[Consumer clientId=consumer-fraud-detection-1, groupId=fraud-detection] Offset commit failed on partition orders-0 at offset 18833: The coordinator is loading and hence can't process requests.")
    S.ev(S.start + 780, "Pod", "web-7d9c6b5f8-qv2mn", "BackOff", "Back-off pulling image \"registry.internal/web:pr-1182\"", "Normal", ns="staging", count=9)
    S.series("service_accounting.tsv", "db_client_connections_create_failures_rate", {"service_name": "accounting", "namespace": NS, "db_system": "postgresql"},
             ramp(S, S.start, S.end, 60, 0, 0, 0.8, down))
    S.series("service_postgresql.tsv", "pg_up", {"service_name": "postgresql", "namespace": NS, "instance": "postgresql:5432"}, ramp(S, S.start, S.end, 30, 1, 0, 0, S.fault))
    S.series("pod_%s.tsv" % pg_new[0], "kube_pod_container_status_restarts_total", {"pod": pg_new[0], "namespace": NS, "container": "postgresql"},
             [(t, max(0, (t - down) // 150)) for t in range(down, S.end, 60)])
    A = [alert("PostgresqlDown", "postgresql", S.fault + 60, "critical"),
         alert("KubePodCrashLooping", "postgresql", S.fault + 600, "warning", extra={"pod": pg_new[0]}),
         alert("NoDatabaseOperations", "accounting", S.fault + 300, "warning")]
    S.alerts_at(S.fault + 200, A[:1], "webhook")
    S.alerts_at(S.fault + 650, A, "webhook")
    groups = comp_groups("postgresql", root="Deployment") + comp_groups("accounting", kinds=("Deployment", "Pod")) + \
        [{"id": "postgresql-data-pvc-1", "kind": "PersistentVolumeClaim", "namespace": NS, "name": "postgresql-data"}]
    props = [prop("postgresql-deployment-1", "postgresql-pod-1", "container securityContext.runAsUser changed 999 -> 1001; PGDATA on the volume is owned by 999 (fsGroupChangePolicy OnRootMismatch leaves it)",
                  "postgres refuses to start: data directory has wrong ownership; CrashLoopBackOff"),
             prop("postgresql-pod-1", "postgresql-service-1", "no ready pod", "connection refused on 5432"),
             prop("postgresql-service-1", "accounting-deployment-1", "connection refused", "accounting cannot write orders")]
    bg_metrics(S, ['frontend', 'cart', 'product-catalog', 'currency', 'checkout', 'payment'])
    S.gt = gt_doc(groups, [["postgresql-deployment-1", "postgresql-pod-1", "postgresql-service-1"], ["accounting-deployment-1", "accounting-pod-1"]], props,
                  fault_rec("Configuration", "postgresql runAsUser 1001 does not own the data directory", "Deployment", "postgresql", "postgresql-deployment-1", "run-as-user-volume-permissions"),
                  [{"group_id": "postgresql-service-1", "id": "PostgresqlDown"}, {"group_id": "postgresql-pod-1", "id": "KubePodCrashLooping"},
                   {"group_id": "accounting-deployment-1", "id": "NoDatabaseOperations"}],
                  ["Restore runAsUser 999 on the postgresql container"])
    return S


# ============================================================================= Scenario 10: Kafka topic retention set to minutes (Strimzi KafkaTopic)
def sc10():
    S = new_snap(10, 26, 11, 1010, ev_style="events.k8s.io/v1", metric_ts="iso", tag_style="dict", gt_wrapped=False, noise_ns="monitoring",
                 fault_min=10)
    lost_from = S.fault + 300

    def oc(t, path):
        if path[0][0] == "fraud-detection" and t >= lost_from and S.rng.random() < 0.7:
            return {"gone": True}
        return None
    S.pods["kafka"] = [("kafka-kafka-0", "ip-10-0-2-87.ec2.internal", "10.244.2.19")]
    common(S, APPS_ALL, dict(MIX, checkout=3, fraud=3), oc)

    def topic(ret, seg, rv, gen):
        return {"apiVersion": "kafka.strimzi.io/v1beta2", "kind": "KafkaTopic",
                "metadata": meta("orders", NS, S.t0 - 86400 * 90, rv, {"strimzi.io/cluster": "kafka"}, None, "KafkaTopic", gen=gen),
                "spec": {"partitions": 1, "replicas": 1, "config": {"retention.ms": ret, "segment.ms": seg, "cleanup.policy": "delete"}},
                "status": {"conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": iso(S.fault + 4)}], "observedGeneration": gen, "topicName": "orders",
                           "topicId": "q3Hn0b8cT0-1UyqP8x2Xkw"}}
    before_after(S, topic(604800000, 3600000, 120031, 3), topic(180000, 60000, 131877, 4))
    S.obj_periodic({"apiVersion": "kafka.strimzi.io/v1beta2", "kind": "KafkaTopic",
                    "metadata": meta("order-audit", NS, S.t0 - 86400 * 20, 119870, {"strimzi.io/cluster": "kafka"}, None, "KafkaTopic", gen=1),
                    "spec": {"partitions": 1, "replicas": 1, "config": {"retention.ms": 300000}}}, S.times)
    kpod = ("kafka-kafka-0", "ip-10-0-2-87.ec2.internal", "10.244.2.19")
    # unrelated distractor: Strimzi rolls the broker 6 minutes before the topic change (CA renewal)
    S.ev(S.fault - 360, "Pod", kpod[0], "Killing", "Stopping container kafka", host=kpod[1], api="v1")
    S.ev(S.fault - 359, "Kafka", "kafka", "PodRestart", "Rolling pod kafka-kafka-0 due to [Cluster CA certificate changed]", comp="strimzi-cluster-operator", api="kafka.strimzi.io/v1beta2")
    S.ev(S.fault - 320, "Pod", kpod[0], "Started", "Started container kafka", host=kpod[1], api="v1")
    for t in S.times:
        S.obj(t, pod("kafka", kpod[0], S.fault - 330 if t > S.fault - 330 else S.t0 - 86400 * 5, 130000, kpod[1], kpod[2], port=9092,
                     restarts=0, rs="x"))
    S.log(S.fault - 340, "kafka", "WARN", "[Consumer clientId=consumer-fraud-detection-1, groupId=fraud-detection] Disconnecting from node 0 due to request timeout.")
    S.log(S.fault + 5, "kafka", "INFO", "[Admin Manager on Broker 0]: Updating topic orders with new configuration : retention.ms -> 180000,segment.ms -> 60000 (kafka.server.ZkAdminManager)")
    for i in range(12):
        t = S.fault + 70 + i * 60
        S.log(t, "kafka", "INFO", "[UnifiedLog partition=orders-0, dir=/var/lib/kafka/data-0/kafka-log0] Deleting segment LogSegment(baseOffset=%d, size=%d, lastModifiedTime=%d, largestRecordTimestamp=Some(%d)) due to retention time 180000ms breach based on the largest record timestamp in the segment"
              % (18000 + i * 170, 48211 + i * 13, int(t - 200) * 1000, int(t - 190) * 1000))
    for i in range(18):
        t = lost_from + i * 55
        S.log(t, "fraud-detection", "INFO", "[Consumer clientId=consumer-fraud-detection-1, groupId=fraud-detection] Fetch position FetchPosition{offset=%d, offsetEpoch=Optional[3], currentLeader=LeaderAndEpoch{leader=Optional[kafka-kafka-0.kafka-kafka-brokers.otel-demo.svc:9092 (id: 0 rack: null)], epoch=3}} is out of range for partition orders-0, resetting offset" % (18100 + i * 160))
        S.log(t + 0.1, "fraud-detection", "INFO", "[Consumer clientId=consumer-fraud-detection-1, groupId=fraud-detection] Resetting offset for partition orders-0 to position FetchPosition{offset=%d, offsetEpoch=Optional.empty}." % (18240 + i * 160))
    ft = {"service_name": "fraud-detection", "namespace": NS, "consumergroup": "fraud-detection", "topic": "orders"}
    S.series("service_fraud-detection.tsv", "kafka_consumergroup_lag", ft, ramp(S, S.start, S.end, 60, 240, 40, 15, lost_from))
    S.series("service_fraud-detection.tsv", "app_frauddetection_orders_checked_rate", ft, ramp(S, S.start, S.end, 60, 0.55, 0.05, 0.17, lost_from))
    S.series("service_accounting.tsv", "app_accounting_orders_processed_rate", {"service_name": "accounting", "namespace": NS}, ramp(S, S.start, S.end, 60, 0.56, 0.05))
    S.series("service_kafka.tsv", "kafka_log_log_size", {"service_name": "kafka", "namespace": NS, "topic": "orders", "partition": "0"},
             ramp(S, S.start, S.end, 60, 5.1e7, 2e5, 3.1e5, S.fault + 70))
    svc_metrics(S, "checkout", S.start, S.end, S.fault, 0.55, 0.0, 140)
    A = [alert("OrdersFraudCheckGap", "fraud-detection", lost_from + 300, "warning", summary="orders checked by fraud-detection < 50% of orders placed"),
         alert("KafkaTopicSizeDrop", "kafka", S.fault + 400, "info", extra={"topic": "orders"}),
         alert("KubePodNotReady", "grafana", S.start + 100, "warning", ns="monitoring", extra={"pod": "grafana-6d8f9c7b4-hh2lz"})]
    S.alerts_at(lost_from + 360, A, "prom")
    S.alerts_at(lost_from + 900, A[:2], "prom")
    groups = [{"id": "orders-kafkatopic-1", "kind": "KafkaTopic", "namespace": NS, "name": "orders", "filter": ["^orders$"], "root_cause": True},
              {"id": "kafka-pod-1", "kind": "Pod", "namespace": NS, "filter": ["^kafka-.*"]},
              {"id": "kafka-service-1", "kind": "Service", "namespace": NS, "filter": ["^kafka.*"]}] + comp_groups("fraud-detection", kinds=("Deployment", "Pod"))
    props = [prop("orders-kafkatopic-1", "kafka-pod-1", "retention.ms 604800000 -> 180000, segment.ms 60000", "broker deletes orders segments older than 3 minutes"),
             prop("kafka-pod-1", "fraud-detection-deployment-1", "fraud-detection's committed offsets fall below the log start offset",
                  "offset out of range -> reset to latest, orders skipped without fraud checks")]
    bg_metrics(S, ['frontend', 'cart', 'product-catalog', 'currency', 'ad', 'payment', 'email'])
    S.gt = gt_doc(groups, [["kafka-pod-1", "kafka-service-1"], ["fraud-detection-deployment-1", "fraud-detection-pod-1"]], props,
                  fault_rec("Configuration", "orders topic retention lowered to 3 minutes", "KafkaTopic", "orders", "orders-kafkatopic-1", "kafka-topic-retention"),
                  [{"group_id": "fraud-detection-deployment-1", "id": "OrdersFraudCheckGap"}, {"group_id": "kafka-service-1", "id": "KafkaTopicSizeDrop"}],
                  ["Restore retention.ms 604800000 and segment.ms 3600000 on KafkaTopic orders"])
    return S


# ============================================================================= Scenario 11: valkey rename-command EXPIRE
def sc11():
    S = new_snap(11, 27, 4, 1111, ev_style="core", metric_ts="epoch", tag_style="json", gt_wrapped=True, noise_ns="batch-jobs",
                 obj_style="double", fault_min=16)
    up = S.fault + 20

    def oc(t, path):
        svc, name = path[-1]
        if t >= up and svc == "cart" and name == "EXPIRE":
            return {"err": True, "msg": "ERR unknown command 'EXPIRE', with args beginning with: 'b2f1...' ", "attrs": {"db.system": "redis", "db.statement": "EXPIRE"}}
        return None
    common(S, APPS_ALL, dict(MIX, cart=5), oc, per_min=7)
    conf_old = "maxmemory-policy allkeys-lru\nappendonly no\nprotected-mode no\nrename-command FLUSHALL \"\"\nrename-command FLUSHDB \"\"\n"
    conf_new = conf_old + "# CIS-style hardening (SEC-412)\nrename-command KEYS \"\"\nrename-command CONFIG \"CONFIG_b71e\"\nrename-command EXPIRE \"\"\nrename-command DEBUG \"\"\n"
    before_after(S, configmap("valkey-cart-conf", S.t0, 20114, {"valkey.conf": conf_old}, labels={"app.kubernetes.io/name": "valkey-cart"}),
                 configmap("valkey-cart-conf", S.t0, 28650, {"valkey.conf": conf_new}, labels={"app.kubernetes.io/name": "valkey-cart"}))
    vk_old = S.pods_of("valkey-cart")[0]
    vk_new = (podname("valkey-cart", "h2"), vk_old[1], "10.244.3.214")

    def vdep(sha, rv, gen):
        return deployment("valkey-cart", S.t0, rv, gen=gen, port=6379, tmpl_ann={"checksum/config": sha},
                          c_extra={"image": "valkey/valkey:8.1.1-alpine", "args": ["/etc/valkey/valkey.conf"],
                                   "volumeMounts": [{"name": "conf", "mountPath": "/etc/valkey"}]},
                          pod_extra={"volumes": [{"name": "conf", "configMap": {"name": "valkey-cart-conf"}}]})
    before_after(S, vdep(hx(conf_old, 64), 20200, 2), vdep(hx(conf_new, 64), 28671, 3), S.fault + 8)
    for t in S.times:
        if t < up:
            S.obj(t, pod("valkey-cart", vk_old[0], S.t0 - 86400 * 8, 20300, vk_old[1], vk_old[2], port=6379))
        else:
            S.obj(t, pod("valkey-cart", vk_new[0], S.fault + 10, 28700, vk_new[1], vk_new[2], port=6379))
    S.ev(S.fault + 9, "Deployment", "valkey-cart", "ScalingReplicaSet", "Scaled up replica set valkey-cart-%s to 1" % kname("vkh2", 10), comp="deployment-controller")
    S.ev(S.fault + 18, "Pod", vk_new[0], "Started", "Started container valkey-cart", host=vk_new[1])
    S.ev(S.fault + 21, "Pod", vk_old[0], "Killing", "Stopping container valkey-cart", host=vk_old[1])
    S.log(S.fault + 18, "valkey-cart", "INFO", "1:M %s * Server initialized" % utc(S.fault + 18).strftime("%d %b %Y %H:%M:%S.000"), podn=vk_new[0])
    S.log(S.fault + 18.1, "valkey-cart", "INFO", "1:M %s * Ready to accept connections tcp" % utc(S.fault + 18).strftime("%d %b %Y %H:%M:%S.001"), podn=vk_new[0])
    for i in range(40):
        t = up + 12 + i * 31
        S.log(t, "cart", "ERROR", "StackExchange.Redis.RedisServerException: ERR unknown command 'EXPIRE', with args beginning with: '%s' '3600'\n   at cart.cartstore.ValkeyCartStore.AddItemAsync(String userId, String productId, Int32 quantity)" % uid("u%d" % i),
              attrs={"exception.type": "StackExchange.Redis.RedisServerException"})
        if i % 2 == 0:
            S.log(t + 0.2, "frontend", "ERROR", jd({"level": "error", "msg": "Error: 2 UNKNOWN: Can't access cart storage. StackExchange.Redis.RedisServerException: ERR unknown command 'EXPIRE'", "route": "/api/cart"}))
    # unrelated: cart pod restarted two hours ago (old restart count), and an ad deployment label change
    S.obj(S.fault - 60, deployment("ad", S.t0, 28600, gen=4, dep_ann={"sre.example.com/slo": "99.5"}))
    svc_metrics(S, "cart", S.start, S.end, up, 3.5, 0.45, 6, 6)
    svc_metrics(S, "frontend", S.start, S.end, up, 8.5, 0.19, 40, 45)
    S.series("service_valkey-cart.tsv", "redis_commands_total_rate", {"service_name": "valkey-cart", "namespace": NS, "cmd": "expire"}, ramp(S, S.start, S.end, 60, 1.6, 0.2, 0, up))
    S.series("service_valkey-cart.tsv", "redis_commands_total_rate", {"service_name": "valkey-cart", "namespace": NS, "cmd": "hget"}, ramp(S, S.start, S.end, 60, 2.4, 0.3))
    S.series("service_valkey-cart.tsv", "redis_rejected_calls_total_rate", {"service_name": "valkey-cart", "namespace": NS}, ramp(S, S.start, S.end, 60, 0, 0, 1.6, up))
    A = [alert("RequestErrorRate", "cart", up + 120, "critical"),
         alert("RequestErrorRate", "frontend", up + 160, "warning"),
         alert("KubeJobFailed", "nightly-export", S.start + 60, "warning", ns="batch-jobs", extra={"job_name": "nightly-export-29004120"})]
    S.alerts_at(up + 200, A, "am2")
    S.alerts_at(up + 800, A, "am2")
    groups = [{"id": "valkey-cart-conf-configmap-1", "kind": "ConfigMap", "namespace": NS, "name": "valkey-cart-conf", "filter": ["^valkey-cart-conf$"], "root_cause": True}] + \
        comp_groups("valkey-cart") + comp_groups("cart") + comp_groups("frontend") + comp_groups("checkout")
    props = [prop("valkey-cart-conf-configmap-1", "valkey-cart-pod-1", "valkey.conf adds rename-command EXPIRE \"\" (disables EXPIRE)", "valkey-cart restarted with EXPIRE unavailable"),
             prop("valkey-cart-pod-1", "cart-service-1", "EXPIRE rejected: ERR unknown command", "AddItem fails"),
             prop("cart-service-1", "frontend-service-1", "AddItem fails", "frontend cart errors")]
    bg_metrics(S, ['product-catalog', 'currency', 'ad', 'recommendation', 'checkout', 'payment'])
    S.gt = gt_doc(groups, [["valkey-cart-service-1", "valkey-cart-pod-1", "valkey-cart-deployment-1"], ["cart-service-1", "cart-pod-1", "cart-deployment-1"],
                           ["frontend-service-1", "frontend-pod-1", "frontend-deployment-1"]], props,
                  fault_rec("Configuration", "valkey rename-command disables EXPIRE used by cart", "ConfigMap", "valkey-cart-conf", "valkey-cart-conf-configmap-1", "valkey-rename-command"),
                  [{"group_id": "cart-service-1", "id": "RequestErrorRate"}, {"group_id": "frontend-service-1", "id": "RequestErrorRate"}],
                  ["Remove rename-command EXPIRE from valkey-cart-conf and restart valkey-cart"])
    return S


# ============================================================================= Scenario 12: otel-collector exporter endpoint wrong (telemetry gap)
def sc12():
    S = new_snap(12, 28, 15, 1212, ev_style="mixed", metric_ts="iso", tag_style="json", gt_wrapped=False, noise_ns="staging",
                 obj_quote="csv", fault_min=14, drop_root=0.1)
    common(S, APPS_ALL, MIX, lambda t, p: None)
    base_cfg = ("receivers:\n  otlp:\n    protocols:\n      grpc:\n        endpoint: ${env:MY_POD_IP}:4317\n      http:\n        endpoint: ${env:MY_POD_IP}:4318\n"
                "processors:\n  batch: {}\n  memory_limiter:\n    check_interval: 5s\n    limit_percentage: 80\n  resource:\n    attributes:\n    - key: service.instance.id\n      from_attribute: k8s.pod.uid\n      action: insert\n"
                "connectors:\n  spanmetrics: {}\n"
                "exporters:\n  clickhouse:\n    endpoint: tcp://clickhouse.clickhouse.svc:9000\n    database: default\n  otlphttp/prometheus:\n    endpoint: %s\n    tls:\n      insecure: true\n  debug: {}\n"
                "service:\n  pipelines:\n    traces:\n      receivers: [otlp]\n      processors: [memory_limiter, resource, batch]\n      exporters: [clickhouse, spanmetrics]\n"
                "    metrics:\n      receivers: [otlp, spanmetrics]\n      processors: [memory_limiter, resource, batch]\n      exporters: [otlphttp/prometheus, debug]\n"
                "    logs:\n      receivers: [otlp]\n      processors: [memory_limiter, resource, batch]\n      exporters: [clickhouse]\n")
    good = base_cfg % "http://prometheus.otel-demo.svc:9090/api/v1/otlp"
    bad = base_cfg % "http://prometheus.otel-demo.svc:9091/api/v1/otlp"
    before_after(S, configmap("otel-collector", S.t0, 33120, {"relay": good}, labels={"app.kubernetes.io/name": "otel-collector", "app.kubernetes.io/part-of": "opentelemetry-demo"}),
                 configmap("otel-collector", S.t0, 40177, {"relay": bad}, labels={"app.kubernetes.io/name": "otel-collector", "app.kubernetes.io/part-of": "opentelemetry-demo"}))
    col_old = ("otel-collector-5b6d8f7c9b-8lq4w", "ip-10-0-1-23.ec2.internal", "10.244.1.33")
    col_new = ("otel-collector-7c9f5d6b8d-rx9zp", "ip-10-0-2-87.ec2.internal", "10.244.2.48")

    def cdep(sha, rv, gen):
        return deployment("otel-collector", S.t0, rv, gen=gen, port=4317, tmpl_ann={"checksum/config": sha},
                          c_extra={"image": "otel/opentelemetry-collector-contrib:0.120.0", "args": ["--config=/conf/relay.yaml"]})
    before_after(S, cdep(hx(good, 64), 33200, 6), cdep(hx(bad, 64), 40190, 7), S.fault + 5)
    for t in S.times:
        if t < S.fault + 40:
            S.obj(t, pod("otel-collector", col_old[0], S.t0 - 86400 * 2, 33300, col_old[1], col_old[2], port=4317))
        else:
            S.obj(t, pod("otel-collector", col_new[0], S.fault + 6, 40200, col_new[1], col_new[2], port=4317))
    S.ev(S.fault + 6, "Deployment", "otel-collector", "ScalingReplicaSet", "Scaled up replica set otel-collector-7c9f5d6b8d to 1", comp="deployment-controller")
    S.ev(S.fault + 30, "Pod", col_new[0], "Started", "Started container opentelemetry-collector", host=col_new[1])
    S.ev(S.fault + 41, "Pod", col_old[0], "Killing", "Stopping container opentelemetry-collector", host=col_old[1])
    for i in range(35):
        t = S.fault + 45 + i * 30
        S.log(t, "otel-collector", "ERROR", jd({"level": "error", "ts": iso(t, True), "caller": "internal/queue_sender.go:134",
                                                "msg": "Exporting failed. Dropping data.", "kind": "exporter", "data_type": "metrics", "name": "otlphttp/prometheus",
                                                "error": "not retryable error: Permanent error: rpc error: code = Unavailable desc = error exporting items, request to http://prometheus.otel-demo.svc:9091/api/v1/otlp/v1/metrics responded with HTTP Status Code 0: Post \"http://prometheus.otel-demo.svc:9091/api/v1/otlp/v1/metrics\": dial tcp 10.96.140.7:9091: connect: connection refused",
                                                "dropped_items": 1400 + i * 3}), podn=col_new[0])
    S.log(S.fault + 32, "otel-collector", "INFO", jd({"level": "info", "msg": "Everything is ready. Begin running and processing data."}), podn=col_new[0])
    # unrelated restart: load-generator restarted by its own liveness probe 9 minutes earlier
    lg = S.pods_of("load-generator")[0]
    S.ev(S.fault - 540, "Pod", lg[0], "Unhealthy", "Liveness probe failed: Get \"http://%s:8089/\": context deadline exceeded" % lg[2], "Warning", count=3, host=lg[1])
    S.ev(S.fault - 530, "Pod", lg[0], "Killing", "Container load-generator failed liveness probe, will be restarted", host=lg[1])
    # spanmetrics disappear from prometheus after the new collector starts
    gap = S.fault + 40
    for svc, r, p in (("frontend", 8.0, 40), ("checkout", 0.5, 140), ("cart", 3.2, 6), ("product-catalog", 9.0, 4), ("payment", 0.5, 12), ("email", 0.5, 30)):
        tags = {"service_name": svc, "namespace": NS, "span_kind": "SPAN_KIND_SERVER"}
        pts = [(t, v) for (t, v) in ramp(S, S.start, S.end, 60, r, r * 0.08) if t < gap]
        pts += [(t, 0.0) for t in range(gap - gap % 60 + 60, S.end, 60)]
        S.series("service_%s.tsv" % svc, "traces_span_metrics_calls_total_rate", tags, pts)
        S.series("service_%s.tsv" % svc, "traces_span_metrics_duration_milliseconds_p95", tags,
                 [(t, v) for (t, v) in ramp(S, S.start, S.end, 60, p, p * 0.1) if t < gap])
    S.series("service_otel-collector.tsv", "otelcol_exporter_send_failed_metric_points_rate", {"service_name": "otel-collector", "namespace": NS, "exporter": "otlphttp/prometheus"},
             ramp(S, S.start, S.end, 60, 0, 0, 46.0, gap))
    S.series("service_otel-collector.tsv", "otelcol_exporter_sent_spans_rate", {"service_name": "otel-collector", "namespace": NS, "exporter": "clickhouse"},
             ramp(S, S.start, S.end, 60, 52, 4))
    A = [alert("NoRequestsReceived", s, gap + 300, "warning", summary="%s received no requests in the last 5 minutes" % s)
         for s in ("frontend", "checkout", "cart", "product-catalog", "payment", "email")]
    S.alerts_at(gap + 320, A[:3], "prom")
    S.alerts_at(gap + 620, A, "prom")
    S.alerts_at(gap + 920, A, "prom")
    groups = [{"id": "otel-collector-configmap-1", "kind": "ConfigMap", "namespace": NS, "name": "otel-collector", "filter": ["^otel-collector$"], "root_cause": True}] + \
        comp_groups("otel-collector", kinds=("Deployment", "Pod")) + sum((comp_groups(s, kinds=("Service",)) for s in ("frontend", "checkout", "cart", "product-catalog", "payment", "email")), [])
    props = [prop("otel-collector-configmap-1", "otel-collector-pod-1", "otlphttp/prometheus exporter endpoint changed to port 9091", "collector drops every metrics batch (connection refused)")] + \
        [prop("otel-collector-pod-1", "%s-service-1" % s, "span metrics no longer reach Prometheus", "NoRequestsReceived fires although the service is healthy")
         for s in ("frontend", "checkout", "cart", "product-catalog", "payment", "email")]
    S.gt = gt_doc(groups, [["otel-collector-deployment-1", "otel-collector-pod-1"]], props,
                  fault_rec("Configuration", "collector metrics exporter points at a wrong port; telemetry gap, no user impact", "ConfigMap", "otel-collector", "otel-collector-configmap-1", "collector-exporter-endpoint"),
                  [{"group_id": "%s-service-1" % s, "id": "NoRequestsReceived"} for s in ("frontend", "checkout", "cart", "product-catalog", "payment", "email")],
                  ["Restore the otlphttp/prometheus endpoint port 9090 in ConfigMap otel-collector"])
    return S


# ============================================================================= Scenario 13: sessionAffinity ClientIP on image-provider
def sc13():
    S = new_snap(13, 12, 20, 1313, ev_style="events.k8s.io/v1", metric_ts="epoch", tag_style="dict", gt_wrapped=True, noise_ns="data-tools",
                 fault_min=17)
    ips = [(podname("image-provider", "ip%d" % i, "ip"), ["ip-10-0-1-23.ec2.internal", "ip-10-0-2-87.ec2.internal", "ip-10-0-3-141.ec2.internal"][i], "10.244.%d.%d" % (i + 1, 61 + i)) for i in range(3)]
    hot = ips[1]
    S.pods["image-provider"] = ips
    S.pod_pick = lambda svc, t: hot[0] if (svc == "image-provider" and t >= eff) else None
    eff = S.fault + 60

    def oc(t, path):
        svc, name = path[-1]
        if svc == "image-provider" and t >= eff:
            if S.rng.random() < 0.3:
                return {"err": True, "ms": 1000 + S.rng.random() * 2000, "msg": "", "attrs": {"http.response.status_code": 503, "k8s.pod.name": hot[0]}}
            return {"ms": 350 + S.rng.random() * 900, "attrs": {"k8s.pod.name": hot[0]}}
        return None
    common(S, [a for a in APPS_ALL if a != "image-provider"], dict(MIX, images=6), oc, per_min=8)

    def svc(aff, rv):
        s = service("image-provider", S.t0, rv, 8081)
        s["spec"]["sessionAffinity"] = aff
        if aff == "ClientIP":
            s["spec"]["sessionAffinityConfig"] = {"clientIP": {"timeoutSeconds": 10800}}
        return s
    before_after(S, svc("None", 51000), svc("ClientIP", 58812))
    d = deployment("image-provider", S.t0, 51100, replicas=3, port=8081, c_extra={"resources": {"limits": {"cpu": "100m", "memory": "50Mi"}, "requests": {"cpu": "50m"}}})
    S.obj_periodic(d, S.times)
    for t in S.times:
        for (pn, nd, ip) in ips:
            S.obj(t, pod("image-provider", pn, S.t0 - 86400, 51200, nd, ip, port=8081))
    # harmless change nearby: frontend-proxy deployment resources raised
    S.obj(S.fault + 150, deployment("frontend-proxy", S.t0, 58900, gen=5, mem="96Mi"))
    S.ev(S.fault + 151, "Deployment", "frontend-proxy", "ScalingReplicaSet", "Scaled up replica set frontend-proxy-%s to 1" % kname("fpg5", 10), comp="deployment-controller")
    S.ev(S.fault + 420, "Pod", hot[0], "Unhealthy", "Readiness probe failed: Get \"http://%s:8081/status\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)" % hot[2],
         "Warning", count=4, host=hot[1])
    for i in range(30):
        t = eff + 10 + i * 40
        S.log(t, "image-provider", "WARN", "%s [alert] 8#8: 1024 worker_connections are not enough" % utc(int(t)).strftime("%Y/%m/%d %H:%M:%S"), podn=hot[0])
        S.log(t + 1, "frontend-proxy", "WARN", '[%s] "GET /images/products/SolarFilter.jpg HTTP/1.1" 503 UF upstream_reset_before_response_started{overflow} - "-" 0 91 2012 - "-" "Mozilla/5.0" "%s" "frontend-proxy:8080" "10.96.51.10:8081" image-provider' % (iso(t + 1, True), uid("im%d" % i)))
    for (pn, nd, ip) in ips:
        cpu_after = 0.1 if pn == hot[0] else 0.002
        S.series("pod_%s.tsv" % pn, "container_cpu_usage_seconds_total_rate", {"pod": pn, "namespace": NS, "container": "image-provider"},
                 ramp(S, S.start, S.end, 60, 0.03, 0.005, cpu_after, eff))
        S.series("pod_%s.tsv" % pn, "container_cpu_cfs_throttled_periods_ratio", {"pod": pn, "namespace": NS, "container": "image-provider"},
                 ramp(S, S.start, S.end, 60, 0.0, 0.0, 0.8 if pn == hot[0] else 0.0, eff))
        S.series("pod_%s.tsv" % pn, "nginx_connections_active", {"pod": pn, "namespace": NS}, ramp(S, S.start, S.end, 60, 40, 6, 1020 if pn == hot[0] else 1, eff))
    svc_metrics(S, "frontend-proxy", S.start, S.end, eff, 12.0, 0.09, 25, 1900)
    svc_metrics(S, "image-provider", S.start, S.end, eff, 6.0, 0.3, 8, 2600)
    A = [alert("RequestLatency", "frontend-proxy", eff + 120, "warning", summary="frontend-proxy p95 > 1s"),
         alert("CPUThrottlingHigh", "image-provider", eff + 200, "info", extra={"pod": hot[0], "container": "image-provider"}),
         alert("RequestErrorRate", "image-provider", eff + 180, "warning")]
    S.alerts_at(eff + 240, A, "prom-flat")
    S.alerts_at(eff + 700, A, "prom-flat")
    groups = [{"id": "image-provider-service-1", "kind": "Service", "namespace": NS, "name": "image-provider", "filter": ["^image-provider$"], "root_cause": True},
              {"id": "image-provider-pod-1", "kind": "Pod", "namespace": NS, "filter": ["^image-provider-[a-z0-9]+-[a-z0-9]+$"]},
              {"id": "image-provider-deployment-1", "kind": "Deployment", "namespace": NS, "name": "image-provider"}] + comp_groups("frontend-proxy")
    props = [prop("image-provider-service-1", "image-provider-pod-1", "Service sessionAffinity ClientIP: all connections from the single frontend-proxy pod pinned to one endpoint",
                  "one image-provider pod receives all traffic, saturates (worker_connections, CPU throttling) while two are idle"),
             prop("image-provider-pod-1", "frontend-proxy-service-1", "503 and multi-second image responses", "frontend-proxy latency and errors")]
    bg_metrics(S, ['frontend', 'cart', 'product-catalog', 'currency', 'ad', 'checkout'])
    S.gt = gt_doc(groups, [["image-provider-service-1", "image-provider-pod-1", "image-provider-deployment-1"], ["frontend-proxy-service-1", "frontend-proxy-pod-1", "frontend-proxy-deployment-1"]], props,
                  fault_rec("Configuration", "Service image-provider sessionAffinity set to ClientIP", "Service", "image-provider", "image-provider-service-1", "service-session-affinity"),
                  [{"group_id": "frontend-proxy-service-1", "id": "RequestLatency"}, {"group_id": "image-provider-pod-1", "id": "CPUThrottlingHigh"},
                   {"group_id": "image-provider-service-1", "id": "RequestErrorRate"}],
                  ["Set sessionAffinity: None on Service image-provider"])
    return S


# ============================================================================= Scenario 14: VirtualService retry storm on currency
def sc14():
    S = new_snap(14, 7, 23, 1414, ev_style="core", metric_ts="epoch_ms", tag_style="json", gt_wrapped=False, noise_ns="batch-jobs",
                 managed=True, fault_min=19, drop_root=0.04)
    sat = S.fault + 150

    def oc(t, path):
        svc, name = path[-1]
        if svc == "currency" and t >= S.fault:
            load = 1.0 if t < sat else 1.0 + min(1.0, (t - sat) / 600.0)
            tries = 1 + sum(1 for _ in range(4) if S.rng.random() < 0.55 * load)
            ms = 8 * tries + (S.rng.random() * 120 * load if t >= sat else 0)
            if tries == 5 and t >= sat:
                return {"err": True, "ms": ms, "msg": "upstream request timeout", "attrs": {"rpc.grpc.status_code": 4, "app.retry.attempts": tries}}
            return {"ms": ms, "attrs": {"app.retry.attempts": tries}}
        return None
    common(S, APPS_ALL, dict(MIX, product=6, checkout=3), oc, per_min=7)
    vs0 = {"apiVersion": "networking.istio.io/v1beta1", "kind": "VirtualService",
           "metadata": meta("currency", NS, S.t0 - 86400 * 40, 210220, {"app.kubernetes.io/managed-by": "Helm"}, {"meta.helm.sh/release-name": "mesh-policies"}, "VirtualService", gen=2),
           "spec": {"hosts": ["currency.otel-demo.svc.cluster.local"],
                    "http": [{"route": [{"destination": {"host": "currency.otel-demo.svc.cluster.local", "port": {"number": 8080}}}],
                              "retries": {"attempts": 2, "perTryTimeout": "500ms", "retryOn": "connect-failure,refused-stream,unavailable"}}]}}
    vs1 = json.loads(json.dumps(vs0))
    vs1["metadata"]["generation"] = 3
    vs1["metadata"]["resourceVersion"] = "218845"
    vs1["spec"]["http"][0]["retries"] = {"attempts": 5, "perTryTimeout": "10ms", "retryOn": "5xx,reset,connect-failure,refused-stream,unavailable,cancelled,deadline-exceeded,retriable-status-codes"}
    vs1["spec"]["http"][0]["timeout"] = "3s"
    before_after(S, vs0, vs1)
    # harmless changes close by: payment VirtualService got a header-match for canary testing (no canary traffic)
    pay = {"apiVersion": "networking.istio.io/v1beta1", "kind": "VirtualService",
           "metadata": meta("payment", NS, S.t0 - 86400 * 40, 218850, {"app.kubernetes.io/managed-by": "Helm"}, None, "VirtualService", gen=4),
           "spec": {"hosts": ["payment"], "http": [{"match": [{"headers": {"x-canary": {"exact": "true"}}}], "route": [{"destination": {"host": "payment", "subset": "v2"}}]},
                                                    {"route": [{"destination": {"host": "payment"}}]}]}}
    pay0 = json.loads(json.dumps(pay))
    pay0["spec"]["http"] = pay0["spec"]["http"][1:]
    pay0["metadata"]["generation"] = 3
    before_after(S, pay0, pay, S.fault + 40)
    cur = S.pods_of("currency")[0]
    for i in range(45):
        t = S.fault + 20 + i * 27
        flag = "URX" if i % 3 == 0 else "UT"
        code = 0 if flag == "UT" else 200
        S.log(t, "frontend", "WARN", '[%s] "POST /oteldemo.CurrencyService/Convert HTTP/2" %d %s response_timeout - "-" 31 0 %d - "-" "grpc-node-js/1.12.2" "%s" "currency:8080" "%s:8080" outbound|8080||currency.otel-demo.svc.cluster.local' % (iso(t, True), code, flag, 10 if flag == "UT" else 52, uid("cx%d" % i), cur[2]))
        if t >= sat and i % 2 == 0:
            S.log(t + 0.3, "frontend", "ERROR", jd({"level": "error", "msg": "Error: 4 DEADLINE_EXCEEDED: upstream request timeout", "route": "/api/products/[productId]"}))
    for i in range(10):
        t = sat + 30 + i * 90
        S.log(t, "currency", "WARN", "Conversion request queue depth %d exceeds worker pool (4 threads)" % (30 + i * 11), podn=cur[0])
    S.series("pod_%s.tsv" % cur[0], "container_cpu_usage_seconds_total_rate", {"pod": cur[0], "namespace": NS, "container": "currency"},
             ramp(S, S.start, S.end, 60, 0.06, 0.01, fault_t=S.fault, shape=lambda d, v: min(0.5, v * (1 + 4 * min(1, d / 300.0)))))
    S.series("pod_%s.tsv" % cur[0], "container_cpu_cfs_throttled_periods_ratio", {"pod": cur[0], "namespace": NS, "container": "currency"},
             ramp(S, S.start, S.end, 60, 0.0, 0.0, 0.65, sat))
    cs = {"service_name": "currency", "namespace": NS, "source_workload": "frontend", "response_flags": "-"}
    S.series("service_currency.tsv", "istio_requests_total_rate", cs, ramp(S, S.start, S.end, 60, 6.0, 0.4, 21.0, S.fault))
    S.series("service_currency.tsv", "istio_requests_total_rate", dict(cs, response_flags="URX"), ramp(S, S.start, S.end, 60, 0.0, 0.0, 2.2, sat))
    S.series("service_currency.tsv", "envoy_cluster_upstream_rq_retry_rate", {"service_name": "currency", "namespace": NS, "cluster_name": "outbound|8080||currency.otel-demo.svc.cluster.local"},
             ramp(S, S.start, S.end, 60, 0.01, 0.01, 15.5, S.fault))
    svc_metrics(S, "currency", S.start, S.end, sat, 21.0, 0.0, 3, 140)
    svc_metrics(S, "frontend", S.start, S.end, sat, 9.0, 0.08, 45, 900)
    svc_metrics(S, "checkout", S.start, S.end, sat, 0.6, 0.1, 150, 1400)
    A = [alert("RequestLatency", "frontend", sat + 200, "warning"),
         alert("CPUThrottlingHigh", "currency", sat + 240, "info", extra={"pod": cur[0], "container": "currency"}),
         alert("RequestErrorRate", "frontend", sat + 420, "warning"),
         alert("RequestLatency", "checkout", sat + 300, "warning")]
    S.alerts_at(sat + 330, [A[0], A[1], A[3]], "am2")
    S.alerts_at(sat + 630, A, "am2")
    S.alerts_at(sat + 930, A, "am2")
    groups = [{"id": "currency-virtualservice-1", "kind": "VirtualService", "namespace": NS, "name": "currency", "filter": ["^currency$"], "root_cause": True}] + \
        comp_groups("currency") + comp_groups("frontend") + comp_groups("checkout")
    props = [prop("currency-virtualservice-1", "currency-service-1", "retries attempts 5, perTryTimeout 10ms, retryOn includes 5xx/deadline-exceeded",
                  "most calls retried; currency receives 3-4x its normal request rate"),
             prop("currency-service-1", "currency-pod-1", "amplified load", "CPU throttling, queueing, latency rises so even more tries time out"),
             prop("currency-pod-1", "frontend-service-1", "Convert slow or timed out", "frontend latency and errors"),
             prop("currency-pod-1", "checkout-service-1", "Convert slow", "checkout latency")]
    bg_metrics(S, ['cart', 'ad', 'recommendation', 'product-catalog'])
    S.gt = gt_doc(groups, [["currency-service-1", "currency-pod-1", "currency-deployment-1"], ["frontend-service-1", "frontend-pod-1", "frontend-deployment-1"],
                           ["checkout-service-1", "checkout-pod-1", "checkout-deployment-1"]], props,
                  fault_rec("Configuration", "VirtualService currency retry policy causes a retry storm", "VirtualService", "currency", "currency-virtualservice-1", "virtualservice-retry-storm"),
                  [{"group_id": "frontend-service-1", "id": "RequestLatency"}, {"group_id": "currency-pod-1", "id": "CPUThrottlingHigh"},
                   {"group_id": "frontend-service-1", "id": "RequestErrorRate"}, {"group_id": "checkout-service-1", "id": "RequestLatency"}],
                  ["Restore retries attempts 2, perTryTimeout 500ms, retryOn connect-failure,refused-stream,unavailable on VirtualService currency"])
    return S


# ----------------------------------------------------------------------------- main
SCENARIOS = [sc1, sc2, sc3, sc4, sc5, sc6, sc7, sc8, sc9, sc10, sc11, sc12, sc13, sc14]


def main():
    if len(sys.argv) != 2:
        print("usage: python gen.py OUT", file=sys.stderr)
        sys.exit(2)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for fn in SCENARIOS:
        S = fn()
        write_snapshot(S, out)
    print("wrote %d scenarios to %s" % (len(SCENARIOS), out))


if __name__ == "__main__":
    main()
