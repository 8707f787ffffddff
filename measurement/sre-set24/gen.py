#!/usr/bin/env python3
"""sre-set24: 8 held-out SRE incident snapshots (ITBench-Lite layout), varied export shapes.
stdlib only, deterministic.  usage: python3 gen.py OUT"""
import csv, hashlib, io, json, os, random, sys
from datetime import datetime, timedelta, timezone

NS = "otel-demo"
CLUSTER = "shop-prod-us2"


def h(s, n=10):
    return hashlib.sha256(s.encode()).hexdigest()[:n]


ALPH = "bcdfghjklmnpqrstvwxz2456789"


def podname(svc, salt):
    a = hashlib.sha256((svc + salt).encode()).digest()
    rs = "".join(ALPH[b % len(ALPH)] for b in a[:9])[:random.Random(svc).choice([9, 10])]
    p = "".join(ALPH[b % len(ALPH)] for b in a[10:15])
    return f"{svc}-{rs}-{p}"


def iso(t, frac=True):
    return t.strftime("%Y-%m-%dT%H:%M:%S.%fZ") if frac else t.strftime("%Y-%m-%dT%H:%M:%SZ")


# ---------------- timestamp styles
def ts_ch(t):
    return t.strftime("%Y-%m-%d %H:%M:%S.%f") + "000"


def ts_isoz(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def ts_iso_off(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.%f") + "+00:00"


def ts_iso_nano(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.%f") + "%03dZ" % (t.microsecond % 7 * 100 + 17)


def ts_ch_ms(t):
    return t.strftime("%Y-%m-%d %H:%M:%S.") + "%03d" % (t.microsecond // 1000)


TS = {"ch": ts_ch, "isoz": ts_isoz, "isooff": ts_iso_off, "nano": ts_iso_nano, "chms": ts_ch_ms}

# call graph of the demo (caller -> [(callee, rpc, protocol)])
CALLS = {
    "home": [("frontend", "GET /", [("product-catalog", "oteldemo.ProductCatalogService/ListProducts"),
                                      ("currency", "oteldemo.CurrencyService/GetSupportedCurrencies"),
                                      ("ad", "oteldemo.AdService/GetAds")])],
    "product": [("frontend", "GET /api/products/{productId}", [
        ("product-catalog", "oteldemo.ProductCatalogService/GetProduct"),
        ("currency", "oteldemo.CurrencyService/Convert"),
        ("recommendation", "oteldemo.RecommendationService/ListRecommendations",
         [("product-catalog", "oteldemo.ProductCatalogService/ListProducts")]),
        ("ad", "oteldemo.AdService/GetAds")])],
    "cart": [("frontend", "POST /api/cart", [("cart", "oteldemo.CartService/AddItem",
                                               [("valkey-cart", "HSET")])])],
    "viewcart": [("frontend", "GET /api/cart", [("cart", "oteldemo.CartService/GetCart", [("valkey-cart", "HGET")]),
                                                 ("shipping", "POST /get-quote", [("quote", "POST /getquote")]),
                                                 ("currency", "oteldemo.CurrencyService/Convert")])],
    "checkout": [("frontend", "POST /api/checkout", [("checkout", "oteldemo.CheckoutService/PlaceOrder", [
        ("cart", "oteldemo.CartService/GetCart", [("valkey-cart", "HGET")]),
        ("product-catalog", "oteldemo.ProductCatalogService/GetProduct"),
        ("currency", "oteldemo.CurrencyService/Convert"),
        ("shipping", "POST /get-quote", [("quote", "POST /getquote")]),
        ("payment", "oteldemo.PaymentService/Charge"),
        ("shipping", "POST /ship-order"),
        ("cart", "oteldemo.CartService/EmptyCart", [("valkey-cart", "DEL")]),
        ("email", "POST /send_order_confirmation"),
        ("kafka", "orders publish")])])],
}
MIX = ["home"] * 3 + ["product"] * 5 + ["cart"] * 2 + ["viewcart"] * 2 + ["checkout"] * 2
BASE_MS = {"frontend": 18, "product-catalog": 3, "currency": 1.2, "ad": 6, "recommendation": 22, "cart": 4,
           "valkey-cart": 0.4, "shipping": 5, "quote": 9, "checkout": 30, "payment": 8, "email": 35,
           "kafka": 2, "frontend-proxy": 2, "accounting": 3, "fraud-detection": 5}


class Snap:
    def __init__(self, n, t0, style):
        self.sid = f"Scenario-{n}"
        self.n, self.t0, self.st = n, t0, style
        self.r = random.Random(2400 + n)
        self.events, self.objs, self.logs, self.spans = [], [], [], []
        self.metrics, self.alert_files = {}, []
        self.rv = 7100000 + n * 13117
        self.podmap = {}
        self.fault = lambda m, caller, callee, op, pod: None
        self.extra_logs = lambda m, tid, svc, op, res: None

    def T(self, m):
        return self.t0 + timedelta(seconds=round(m * 60, 3))

    def podat(self, svc, m):
        v = self.podmap.get(svc)
        if callable(v):
            v = v(m)
        if isinstance(v, list):
            v = self.r.choice(v)
        return v or self.pod(svc)

    def pod(self, svc, gen="a"):
        return podname(svc, self.sid + gen)

    def nrv(self):
        self.rv += self.r.randint(5, 90)
        return str(self.rv)

    # ---- events (both APIs)
    def event(self, m, kind, name, reason, msg, etype="Normal", ns=NS, count=1, comp="kubelet", host=None, watch="ADDED",
              api=None):
        t = self.T(m)
        api = api or self.st.get("ev", "v1")
        if api == "mixed":
            api = "events.k8s.io" if int(h(name + reason), 16) % 2 else "v1"
        evname = f"{name}.{h(name + reason + str(m), 16)}"
        av = {"Pod": "v1", "Service": "v1", "Node": "v1", "ConfigMap": "v1", "Deployment": "apps/v1",
              "ReplicaSet": "apps/v1", "HorizontalPodAutoscaler": "autoscaling/v2",
              "StressChaos": "chaos-mesh.org/v1alpha1"}.get(kind, "v1")
        if api == "events.k8s.io":
            o = {"kind": "Event", "apiVersion": "events.k8s.io/v1",
                 "metadata": {"name": evname, "namespace": ns, "uid": h(evname, 32), "resourceVersion": self.nrv(),
                              "creationTimestamp": iso(t, False)},
                 "eventTime": iso(t), "reportingController": comp if "/" in comp else f"k8s.io/{comp}",
                 "reportingInstance": host or f"{comp}-leader", "action": reason, "reason": reason,
                 "regarding": {"kind": kind, "namespace": ns, "name": name, "uid": h(kind + name, 32),
                               "apiVersion": av},
                 "note": msg, "type": etype}
            if count > 1:
                o["series"] = {"count": count, "lastObservedTime": iso(t)}
                o["deprecatedCount"] = count
                o["deprecatedFirstTimestamp"] = iso(t - timedelta(minutes=min(count, 6)), False)
                o["deprecatedLastTimestamp"] = iso(t, False)
        else:
            o = {"metadata": {"name": evname, "namespace": ns, "uid": h(evname, 32), "resourceVersion": self.nrv(),
                              "creationTimestamp": iso(t, False)},
                 "involvedObject": {"kind": kind, "namespace": ns, "name": name, "uid": h(kind + name, 32),
                                    "apiVersion": av},
                 "reason": reason, "message": msg, "source": {"component": comp, **({"host": host} if host else {})},
                 "firstTimestamp": iso(t - timedelta(minutes=min(count, 6) - 1) if count > 1 else t, False),
                 "lastTimestamp": iso(t, False), "count": count, "type": etype, "eventTime": None,
                 "reportingComponent": comp, "reportingInstance": host or ""}
            if self.st.get("ev_kindfirst"):
                o = {"kind": "Event", "apiVersion": "v1", **o}
        self.events.append((t, {"type": watch, "object": o}))

    # ---- objects
    def obj(self, m, o):
        t = self.T(m)
        o = json.loads(json.dumps(o))
        md = o.setdefault("metadata", {})
        md["resourceVersion"] = self.nrv()
        md.setdefault("uid", h(o["kind"] + md.get("namespace", "") + md["name"], 32))
        md.setdefault("creationTimestamp", iso(self.t0 - timedelta(days=11, hours=5), False))
        if self.st.get("mf"):
            md["managedFields"] = [{"manager": "helm", "operation": "Update", "apiVersion": o.get("apiVersion", "v1"),
                                    "time": iso(self.t0 - timedelta(days=11), False), "fieldsType": "FieldsV1",
                                    "fieldsV1": {"f:metadata": {"f:labels": {".": {}}}}}]
        self.objs.append((t, o))

    # ---- logs
    def log(self, m, svc, sev, body, pod=None, tid="", sid="", ns=NS, attrs=None):
        num = {"DEBUG": 5, "INFO": 9, "Information": 9, "WARN": 13, "Warning": 13, "WARNING": 13, "ERROR": 17,
               "Error": 17, "error": 17, "FATAL": 21}.get(sev, 9)
        ra = {"k8s.namespace.name": ns, "k8s.pod.name": pod or self.podat(svc, m),
              "service.name": svc, "k8s.deployment.name": svc, "k8s.cluster.name": CLUSTER}
        self.logs.append((self.T(m), tid, sid, sev, num, svc, body, ra, attrs or {}))

    # ---- traffic
    def traffic(self, minutes=30, per_min=11):
        for mi in range(minutes):
            for k in range(per_min):
                m = mi + (k + self.r.random()) / per_min
                self.request(m, self.r.choice(MIX))

    def request(self, m, kind):
        tid = h(f"{self.sid}{m}{kind}{self.r.random()}", 32)
        root = CALLS[kind][0]
        sid0 = h(tid + "proxy", 16)
        # frontend-proxy ingress span
        res = self._call(m, tid, sid0, "frontend-proxy", root[0], root[1], root[2] if len(root) > 2 else [])
        st = "Error" if res["err"] else "Unset"
        self._span(m, tid, sid0, "", "ingress", "Server", "frontend-proxy", res["dur"] + 1.5, st,
                   "" , {"http.method": root[1].split()[0], "http.status_code": 500 if res["err"] else 200,
                         "upstream_cluster": "frontend"})

    def _call(self, m, tid, parent, caller, callee, op, children):
        pod = self.podat(callee, m)
        if callee == "frontend":
            self.cur_fe = pod
        f = self.fault(m, caller, callee, op, pod) or {}
        csid = h(tid + caller + callee + op + "c" + str(parent), 16)
        ssid = h(tid + caller + callee + op + "s" + str(parent), 16)
        base = BASE_MS.get(callee, 5) * (0.6 + 0.8 * self.r.random())
        if f.get("unreachable"):
            dur = f.get("dur", 1.0 + self.r.random() * 3)
            kind = "Producer" if callee == "kafka" else "Client"
            self._span(m, tid, csid, parent, op if callee != "frontend" else op, kind, caller, dur, "Error",
                       f["unreachable"], self._attrs(callee, op, err=True))
            return {"err": True, "dur": dur, "msg": f["unreachable"]}
        dur = base + f.get("slow", 0)
        err = bool(f.get("error"))
        off = 0.0
        for ch in children:
            r = self._call(m + off / 60000, tid, ssid, callee, ch[0], ch[1], ch[2] if len(ch) > 2 else [])
            dur += r["dur"]
            off += r["dur"]
            if r["err"] and not f.get("swallow") and ch[0] not in ("kafka",) and not (ch[0] == "ad"):
                err = True
            if r["err"] and ch[0] == "kafka":
                self.extra_logs(m, tid, callee, "kafka", r)
        if callee == "kafka":
            kind_s, kind_c = "Consumer", "Producer"
        elif callee == "valkey-cart":
            # redis client span only, emitted by cart
            st = "Error" if f.get("error") else "Unset"
            self._span(m, tid, csid, parent, op, "Client", caller, dur, st, f.get("error", ""),
                       {"db.system": "redis", "net.peer.name": "valkey-cart", "net.peer.port": 6379,
                        "db.statement": op + " ?"})
            return {"err": bool(f.get("error")), "dur": dur, "msg": f.get("error", "")}
        else:
            kind_s, kind_c = "Server", "Client"
        emsg = f.get("error", "") if isinstance(f.get("error"), str) else ""
        if callee == "kafka":
            for cons in ("accounting", "fraud-detection"):
                if not f.get("noconsume"):
                    self._span(m + 0.002, tid, h(ssid + cons, 16), csid, "orders process", "Consumer", cons,
                               BASE_MS[cons] * (0.7 + self.r.random() * 0.6), "Unset", "",
                               {"messaging.system": "kafka", "messaging.destination.name": "orders"})
        else:
            self._span(m, tid, ssid, csid, op, kind_s, callee, dur, "Error" if err else "Unset", emsg,
                       self._attrs(callee, op, err, server=True), pod=pod)
        self._span(m, tid, csid, parent, op, kind_c, caller, dur + 0.4, "Error" if err else "Unset", emsg,
                   self._attrs(callee, op, err))
        if f.get("log"):
            self.log(m, callee, f.get("logsev", "ERROR"), f["log"], pod=pod, tid=tid, sid=ssid)
        return {"err": err, "dur": dur, "msg": emsg}

    def _attrs(self, callee, op, err=False, server=False):
        if op.startswith("oteldemo."):
            svc, meth = op.split("/")
            a = {"rpc.system": "grpc", "rpc.service": svc, "rpc.method": meth,
                 "rpc.grpc.status_code": 14 if err else 0}
        elif callee == "kafka":
            a = {"messaging.system": "kafka", "messaging.destination.name": "orders", "messaging.operation": "publish"}
        else:
            meth, route = op.split(" ", 1)
            a = {"http.request.method": meth, "http.route": route, "http.response.status_code": 500 if err else 200}
        if not server:
            a["server.address"] = callee
        return a

    def _span(self, m, tid, sid, parent, name, kind, svc, dur_ms, status, smsg, attrs, pod=None):
        ra = {"service.name": svc, "k8s.namespace.name": NS,
              "k8s.pod.name": pod or self.podat(svc, m), "service.namespace": "opentelemetry-demo"}
        self.spans.append((self.T(m), tid, sid, parent, name, kind, svc, ra, attrs, int(dur_ms * 1e6), status, smsg))

    # ---- metrics
    def metric(self, fname, name, m, value, tags):
        self.metrics.setdefault(fname, []).append((name, self.T(m), value, tags))

    def service_metrics(self, svcs):
        buckets = {}
        for t, tid, sid, par, name, kind, svc, ra, at, dur, stc, sm in self.spans:
            if svc in svcs and kind in ("Server", "Consumer"):
                mi = int((t - self.t0).total_seconds() // 60)
                b = buckets.setdefault((svc, mi), [0, 0, []])
                b[0] += 1
                b[1] += stc == "Error"
                b[2].append(dur / 1e6)
        for svc in svcs:
            for mi in range(30):
                tot, err, durs = buckets.get((svc, mi), [0, 0, []])
                tags = {"service_name": svc, "namespace": NS, "job": "opentelemetry-collector"}
                self.metric(f"service_{svc}", "traces_span_metrics_calls_total:rate1m", mi + 1, round((tot - err) / 60, 4),
                            dict(tags, status_code="STATUS_CODE_UNSET"))
                self.metric(f"service_{svc}", "traces_span_metrics_calls_total:rate1m", mi + 1, round(err / 60, 4),
                            dict(tags, status_code="STATUS_CODE_ERROR"))
                p95 = sorted(durs)[int(len(durs) * 0.95)] if durs else 0
                self.metric(f"service_{svc}", "traces_span_metrics_duration_milliseconds:p95", mi + 1,
                            round(p95, 3), tags)

    def pod_metrics(self, pod, svc, cpu, mem, restarts=None, ns=NS):
        for mi in range(30):
            tags = {"pod": pod, "namespace": ns, "container": svc, "node": "ip-10-0-%d-%d.ec2.internal" % (
                int(h(pod, 2), 16) % 3 + 1, int(h(pod, 4), 16) % 200 + 10)}
            c = cpu(mi) if callable(cpu) else cpu * (0.85 + 0.3 * self.r.random())
            mm = mem(mi) if callable(mem) else mem * (0.97 + 0.06 * self.r.random())
            if c is not None:
                self.metric(f"pod_{pod}", "container_cpu_usage_seconds_total:rate5m", mi, round(c, 5), tags)
            if mm is not None:
                self.metric(f"pod_{pod}", "container_memory_working_set_bytes", mi, int(mm), tags)
            if restarts:
                self.metric(f"pod_{pod}", "kube_pod_container_status_restarts_total", mi, restarts(mi), tags)

    # ---- alerts
    def alerts_at(self, m, alerts):
        self.alert_files.append((self.T(m), alerts))

    # ---------------- writers
    def write(self, out, gt):
        d = os.path.join(out, self.sid)
        os.makedirs(os.path.join(d, "alerts"), exist_ok=True)
        os.makedirs(os.path.join(d, "metrics"), exist_ok=True)
        st = self.st
        ts = TS[st.get("ts", "ch")]
        enc = lambda o: json.dumps(o, separators=(",", ":"))
        ra_enc = (lambda o: repr(o)) if st.get("pyattrs") else (lambda o: json.dumps(o))

        def table(name, header, rows):
            self.write_table(os.path.join(d, name), header, rows)

        # events
        ev = sorted(self.events, key=lambda x: x[0])
        rows = []
        for i, (t, b) in enumerate(ev):
            body = enc(b)
            rows.append({"Timestamp": ts(t), "TraceId": "", "SpanId": "", "SeverityText": "", "SeverityNumber": 0,
                         "ServiceName": "", "Body": body,
                         "ResourceAttributes": ra_enc({"k8s.cluster.name": CLUSTER}),
                         "LogAttributes": ra_enc({"k8s.resource.name": "events", "event.domain": "k8s",
                                                  "event.name": b["object"]["metadata"]["name"]}),
                         "ScopeName": "", "TraceFlags": 0, "EventName": ""})
        table("k8s_events_raw.tsv", self.cols("log"), rows)
        rows = []
        for t, o in sorted(self.objs, key=lambda x: x[0]):
            body = enc(o)
            if st.get("dbl"):
                body = json.dumps(body)
            rows.append({"Timestamp": ts(t), "TraceId": "", "SpanId": "", "SeverityText": "", "SeverityNumber": 0,
                         "ServiceName": "", "Body": body,
                         "ResourceAttributes": ra_enc({"k8s.cluster.name": CLUSTER}),
                         "LogAttributes": ra_enc({"k8s.resource.name": o["kind"].lower() + "s",
                                                  "k8s.namespace.name": o["metadata"].get("namespace", "")}),
                         "ScopeName": "", "TraceFlags": 0, "EventName": ""})
        table("k8s_objects_raw.tsv", self.cols("log"), rows)
        rows = []
        for t, tid, sid, sev, num, svc, body, ra, la in sorted(self.logs, key=lambda x: x[0]):
            rows.append({"Timestamp": ts(t), "TraceId": tid, "SpanId": sid, "SeverityText": sev,
                         "SeverityNumber": num, "ServiceName": svc, "Body": body, "ResourceAttributes": ra_enc(ra),
                         "LogAttributes": ra_enc(la), "ScopeName": "" if not tid else "otel", "TraceFlags": 1 if tid else 0,
                         "EventName": ""})
        table("otel_logs_raw.tsv", self.cols("log"), rows)
        rows = []
        for t, tid, sid, par, name, kind, svc, ra, at, dur, stc, sm in sorted(self.spans, key=lambda x: x[0]):
            k = ("SPAN_KIND_" + kind.upper()) if st.get("kindenum") else kind
            s = stc
            rows.append({"Timestamp": ts(t), "TraceId": tid, "SpanId": sid, "ParentSpanId": par, "SpanName": name,
                         "SpanKind": k, "ServiceName": svc, "ResourceAttributes": ra_enc(ra),
                         "SpanAttributes": ra_enc(at), "Duration": dur, "StatusCode": s, "StatusMessage": sm,
                         "TraceState": "", "ScopeName": "opentelemetry", "Events.Timestamp": "[]"})
        table("otel_traces_raw.tsv", self.cols("trace"), rows)
        # metrics
        mts = st.get("mts", "iso")
        for fname, pts in sorted(self.metrics.items()):
            rows = []
            for name, t, v, tags in pts:
                tv = {"iso": iso(t, False), "epoch": "%d" % t.timestamp(), "epochf": "%.3f" % t.timestamp(),
                      "ch": ts_ch_ms(t)}[mts]
                tg = repr(tags) if st.get("pytags") else json.dumps(tags)
                rows.append({"metric_name": name, "timestamp": tv, "value": v, "tags": tg,
                             "pod_name": tags.get("pod", ""), "namespace": tags.get("namespace", ""),
                             "service_name": tags.get("service_name", ""), "bucket_le": "",
                             "status_code": tags.get("status_code", "")})
            hdr = st.get("mcols", ["metric_name", "timestamp", "value", "tags"])
            table(os.path.join("metrics", fname + ".tsv"), hdr, rows)
        # alerts
        for i, (t, alerts) in enumerate(self.alert_files):
            env = st["aenv"][i % len(st["aenv"])]
            fn = "alerts_at_" + t.strftime("%Y-%m-%dT%H-%M-%S.%f") + ".json"
            with open(os.path.join(d, "alerts", fn), "w", encoding="utf-8") as f:
                json.dump(self.alert_envelope(env, t, alerts), f, indent=st.get("aindent"))
        with open(os.path.join(d, "ground_truth.yaml"), "w", encoding="utf-8") as f:
            f.write(to_yaml(gt))

    def cols(self, which):
        st = self.st
        if which == "log":
            c = ["Timestamp", "TraceId", "SpanId", "SeverityText", "SeverityNumber", "ServiceName", "Body",
                 "ResourceAttributes", "LogAttributes"]
            if st.get("extra"):
                c = c[:1] + ["TraceFlags"] + c[1:] + ["ScopeName", "EventName"]
            if st.get("reorder"):
                c = ["Timestamp", "ServiceName", "SeverityText", "SeverityNumber", "Body", "TraceId", "SpanId"] + \
                    [x for x in c if x not in ("Timestamp", "ServiceName", "SeverityText", "SeverityNumber", "Body",
                                               "TraceId", "SpanId")]
            return c
        c = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
             "ResourceAttributes", "SpanAttributes", "Duration", "StatusCode", "StatusMessage"]
        if st.get("extra"):
            c = c[:4] + ["TraceState"] + c[4:6] + ["ScopeName"] + c[6:] + ["Events.Timestamp"]
        if st.get("reorder"):
            c = ["Timestamp", "ServiceName", "SpanName", "SpanKind", "Duration", "StatusCode", "StatusMessage",
                 "TraceId", "SpanId", "ParentSpanId"] + [x for x in c if x not in (
                     "Timestamp", "ServiceName", "SpanName", "SpanKind", "Duration", "StatusCode", "StatusMessage",
                     "TraceId", "SpanId", "ParentSpanId")]
        return c

    def write_table(self, path, header, rows):
        st = self.st
        w = st["writer"]
        nl = "\r\n" if st.get("crlf") else "\n"
        buf = io.StringIO(newline="")
        if w == "clickhouse":  # FORMAT TabSeparatedWithNames: no quoting, \\ \t \n escaped
            def esc(v):
                return str(v).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
            assert not any("\\" in str(v) for r in rows for v in r.values()), path
            buf.write("\t".join(header) + nl)
            for r in rows:
                buf.write("\t".join(esc(r.get(c, "")) for c in header) + nl)
        else:
            q = csv.QUOTE_ALL if w == "quoteall" else csv.QUOTE_MINIMAL
            cw = csv.writer(buf, delimiter="\t", lineterminator=nl, quoting=q)
            if w == "pandas_index":
                cw.writerow([""] + header)
                for i, r in enumerate(rows):
                    cw.writerow([i] + [r.get(c, "") for c in header])
            else:
                cw.writerow(header)
                for r in rows:
                    cw.writerow([r.get(c, "") for c in header])
        data = buf.getvalue()
        with open(path, "w", encoding="utf-8-sig" if st.get("bom") else "utf-8", newline="") as f:
            f.write(data)

    def alert_envelope(self, env, t, alerts):
        out = []
        for a in alerts:
            if env.startswith("am"):
                out.append({"labels": a["labels"], "annotations": a["annotations"], "startsAt": iso(a["since"]),
                            "endsAt": iso(t + timedelta(minutes=4)), "generatorURL":
                                "http://prometheus-kube-prometheus-prometheus.prometheus:9090/graph?g0.expr=" +
                                a["labels"]["alertname"], "fingerprint": h(json.dumps(a["labels"], sort_keys=True), 16),
                            "receivers": [{"name": "sre-pager"}], "updatedAt": iso(t),
                            "status": {"state": "active", "silencedBy": [], "inhibitedBy": []}})
            else:
                out.append({"labels": a["labels"], "annotations": a["annotations"],
                            "state": "firing" if (t - a["since"]) >= timedelta(minutes=a.get("for", 1)) else "pending",
                            "activeAt": iso(a["since"]), "value": "%.6e" % a.get("value", 1.0)})
        if env == "prom":
            return {"status": "success", "data": {"alerts": out}}
        if env == "data":
            return {"data": {"alerts": out}}
        if env in ("alerts", "am_alerts"):
            return {"alerts": out}
        if env in ("list", "am_list"):
            return out
        if env == "single":
            return out[0] if len(out) == 1 else out
        raise ValueError(env)


def to_yaml(o, ind=0):
    sp = "  " * ind
    if isinstance(o, dict):
        s = ""
        for k, v in o.items():
            if isinstance(v, (dict, list)) and v:
                s += f"{sp}{k}:\n" + to_yaml(v, ind + 1)
            else:
                s += f"{sp}{k}: {scalar(v)}\n"
        return s
    s = ""
    for v in o:
        if isinstance(v, (dict, list)) and v:
            inner = to_yaml(v, ind + 1)
            s += f"{sp}- " + inner.lstrip(" ")
        else:
            s += f"{sp}- {scalar(v)}\n"
    return s


def scalar(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    if v == [] or v == {}:
        return json.dumps(v)
    return json.dumps(str(v))


# ---------------- common scaffolding
DEPLOYS = ["accounting", "ad", "cart", "checkout", "currency", "email", "flagd", "fraud-detection", "frontend",
           "frontend-proxy", "image-provider", "kafka", "load-generator", "payment", "product-catalog", "quote",
           "recommendation", "shipping", "valkey-cart"]
PORTS = {"ad": 8080, "cart": 8080, "checkout": 8080, "currency": 8080, "email": 8080, "flagd": 8013,
         "frontend": 8080, "frontend-proxy": 8080, "image-provider": 8081, "kafka": 9092, "load-generator": 8089,
         "payment": 8080, "product-catalog": 8080, "quote": 8080, "recommendation": 8080, "shipping": 8080,
         "valkey-cart": 6379, "accounting": 8080, "fraud-detection": 8080}
MEM = {"ad": "300Mi", "cart": "160Mi", "checkout": "20Mi", "currency": "20Mi", "email": "100Mi", "flagd": "75Mi",
       "frontend": "250Mi", "frontend-proxy": "65Mi", "image-provider": "50Mi", "kafka": "600Mi",
       "load-generator": "1500Mi", "payment": "120Mi", "product-catalog": "20Mi", "quote": "40Mi",
       "recommendation": "500Mi", "shipping": "20Mi", "valkey-cart": "20Mi", "accounting": "120Mi",
       "fraud-detection": "300Mi"}


def labels(svc):
    return {"app.kubernetes.io/component": svc, "app.kubernetes.io/name": svc, "app.kubernetes.io/part-of":
            "opentelemetry-demo", "app.kubernetes.io/version": "2.0.2", "opentelemetry.io/name": svc,
            "app.kubernetes.io/managed-by": "Helm", "helm.sh/chart": "opentelemetry-demo-0.37.1"}


def deployment(svc, image=None, mem=None, env=None, extra_spec=None, replicas=1, args=None, gen=1, envfrom=None):
    c = {"name": svc, "image": image or f"ghcr.io/open-telemetry/demo:2.0.2-{svc}", "imagePullPolicy": "IfNotPresent",
         "ports": [{"containerPort": PORTS[svc], "name": "service", "protocol": "TCP"}],
         "env": env or [{"name": "OTEL_SERVICE_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1",
                                                                                  "fieldPath": "metadata.labels['app.kubernetes.io/component']"}}},
                        {"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://otel-collector:4317"}],
         "resources": {"limits": {"memory": mem or MEM[svc]}}}
    if args:
        c["args"] = args
    if envfrom:
        c["envFrom"] = envfrom
    sel = {"opentelemetry.io/name": svc}
    spec = {"replicas": replicas, "revisionHistoryLimit": 10, "selector": {"matchLabels": sel},
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
            "template": {"metadata": {"labels": dict(labels(svc), **sel)},
                         "spec": {"containers": [c], "serviceAccountName": "otel-demo", "restartPolicy": "Always",
                                  "terminationGracePeriodSeconds": 30}}}
    if extra_spec:
        spec.update(extra_spec)
    return {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": svc, "namespace": NS, "labels": labels(svc), "generation": gen,
                         "annotations": {"deployment.kubernetes.io/revision": str(gen), "meta.helm.sh/release-name":
                                         "otel-demo", "meta.helm.sh/release-namespace": NS}},
            "spec": spec, "status": {"replicas": replicas, "readyReplicas": replicas, "availableReplicas": replicas,
                                     "updatedReplicas": replicas, "observedGeneration": gen}}


def service(svc, target=None):
    port = PORTS[svc]
    return {"apiVersion": "v1", "kind": "Service",
            "metadata": {"name": svc, "namespace": NS, "labels": labels(svc),
                         "annotations": {"meta.helm.sh/release-name": "otel-demo"}},
            "spec": {"type": "ClusterIP", "clusterIP": "10.96.%d.%d" % (int(h(svc, 2), 16) % 250, int(h(svc + "x", 2), 16) % 250),
                     "ports": [{"name": "tcp-service", "port": port, "protocol": "TCP",
                                "targetPort": target if target is not None else port}],
                     "selector": {"opentelemetry.io/name": svc}, "sessionAffinity": "None"},
            "status": {"loadBalancer": {}}}


def podobj(s, svc, name, phase="Running", ready=True, restarts=0, state=None, node=None, mem=None, last=None,
           envfrom=None, args=None, image=None):
    cs = {"name": svc, "ready": ready, "restartCount": restarts, "image": image or f"ghcr.io/open-telemetry/demo:2.0.2-{svc}",
          "state": state or {"running": {"startedAt": iso(s.t0 - timedelta(days=2), False)}}}
    if last:
        cs["lastState"] = last
    c = {"name": svc, "image": cs["image"], "resources": {"limits": {"memory": mem or MEM[svc]}}}
    if envfrom:
        c["envFrom"] = envfrom
    if args:
        c["args"] = args
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": NS, "labels": {"opentelemetry.io/name": svc,
                                                                    "app.kubernetes.io/name": svc,
                                                                    "pod-template-hash": name.split("-")[-2]},
                         "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "controller": True,
                                              "name": "-".join(name.split("-")[:-1])}]},
            "spec": {"containers": [c], "nodeName": node or "ip-10-0-1-37.ec2.internal"},
            "status": {"phase": phase, "containerStatuses": [cs],
                       "conditions": [{"type": "Ready", "status": "True" if ready else "False"}]}}


def base(s, changes, skip=(), pulls=(0, 10, 20, 29.5), pods=True):
    """periodic full pulls of Deployments and Services; `changes` maps minute-> list of objects
    overriding the default from that minute on."""
    cur = {}
    for svc in DEPLOYS:
        cur[("Deployment", svc)] = deployment(svc)
        cur[("Service", svc)] = service(svc)
    for k in skip:
        cur.pop(k, None)
    for m0 in sorted(set(pulls) | set(changes)):
        for o in changes.get(m0, []):
            cur[(o["kind"], o["metadata"]["name"])] = o
            if m0 not in pulls:
                s.obj(m0, o)
        if m0 in pulls:
            for k in sorted(cur):
                s.obj(m0 + 0.01, cur[k])


def palert(name, sev, since, labels_, summary, desc=None, for_=1, value=1.0):
    lab = {"alertname": name, "severity": sev, "namespace": NS}
    lab.update(labels_)
    return {"labels": lab, "annotations": {"summary": summary, "description": desc or summary},
            "since": since, "for": for_, "value": value}


def alert_series(s, spec):
    """spec: list of (from_min, to_min, alert-dict-factory)"""
    if not any(mk()["labels"]["alertname"] == "Watchdog" for a, b, mk in spec):
        spec = spec + [(0, 30, lambda: palert("Watchdog", "none", s.t0 - timedelta(hours=52), {"namespace": "monitoring"},
                                              "An alert that should always be firing to certify that Alertmanager is working properly."))]
    for mi in range(0, 31):
        cur = []
        for a, b, mk in spec:
            if a <= mi <= b:
                cur.append(mk())
        if cur:
            s.alerts_at(mi, cur)


def noise(s, rollout_svc, rollout_m, extra_ns="batch-jobs", quotes=True):
    """bystander rollout + an unrelated failing Job in another namespace + collector warning."""
    old, new = s.pod(rollout_svc), s.pod(rollout_svc, "r")
    rs_new = "-".join(new.split("-")[:-1])
    s.event(rollout_m, "Deployment", rollout_svc, "ScalingReplicaSet", f"Scaled up replica set {rs_new} from 0 to 1",
            comp="deployment-controller")
    s.event(rollout_m + 0.05, "Pod", new, "Scheduled", f"Successfully assigned {NS}/{new} to ip-10-0-2-88.ec2.internal",
            comp="default-scheduler")
    if quotes:
        s.event(rollout_m + 0.2, "Pod", new, "Pulled", f"Container image \"ghcr.io/open-telemetry/demo:2.0.2-{rollout_svc}\" already present on machine")
    s.event(rollout_m + 0.25, "Pod", new, "Started", f"Started container {rollout_svc}")
    s.event(rollout_m + 0.5, "Pod", old, "Killing", f"Stopping container {rollout_svc}")
    s.event(rollout_m + 0.5, "Deployment", rollout_svc, "ScalingReplicaSet",
            f"Scaled down replica set {'-'.join(old.split('-')[:-1])} from 1 to 0", comp="deployment-controller")
    job = f"report-export-{h(s.sid, 6)}"
    jp = f"{job}-{h(s.sid + 'j', 5)}"
    s.event(4.2, "Pod", jp, "BackOff", "Back-off restarting failed container exporter in pod " + jp, "Warning",
            ns=extra_ns, count=4)
    s.event(6.8, "Job", job, "BackoffLimitExceeded", "Job has reached the specified backoff limit", "Warning",
            ns=extra_ns, comp="job-controller")
    s.log(7.5, "otel-collector", "WARN", 'Exporting failed. Will retry the request after interval. {"kind": "exporter", '
          '"data_type": "metrics", "name": "otlphttp/prometheus", "error": "context deadline exceeded", "interval": "4.1s"}',
          ns="opentelemetry-collectors", pod="otel-collector-agent-" + h(s.sid, 5))
    for m in range(0, 30, 3):
        s.log(m + 0.3, "load-generator", "INFO", "GET /api/products/OLJCESPC7Z 200", pod=s.pod("load-generator"))


def chain_gt(root, groups, aliases, props, fault, alerts, wrapped, name):
    body = {"alerts": alerts, "aliases": aliases, "fault": fault, "groups": groups, "propagations": props,
            "recommended_actions": [{"solution": {"id": "fix", "actions": [root]}}]}
    if wrapped:
        return {"apiVersion": "itbench.io/v1", "kind": "GroundTruth", "metadata": {"name": name},
                "spec": dict((("recommendedActions" if k == "recommended_actions" else k), v) for k, v in body.items())}
    return body


def g(gid, kind, name=None, regex=None, root=False, ns=NS):
    d = {"id": gid, "kind": kind, "namespace": ns}
    if name:
        d["name"] = name
        d["filter"] = ["^" + name.replace(".", "\\.") + "$"]
    if regex:
        d["filter"] = [regex]  # pods: name = the app, filter = anchored pod-name regex
    if root:
        d["root_cause"] = True
    return d


def podre(svc):
    return "^" + svc + "-[a-z0-9]+-[a-z0-9]+$"


def fe_alerts(s, since, kind="error", value=0.21):
    if kind == "error":
        return lambda: palert("RequestErrorRate", "warning", s.T(since), {"service_name": "frontend"},
                              "frontend error ratio above 5%", "Error ratio of frontend is 21% over the last 2m",
                              value=value)
    return lambda: palert("RequestLatency", "warning", s.T(since), {"service_name": "frontend"},
                          "frontend p95 latency above 800ms", value=value)


# =============== Scenario 1 (catalogue): currency memory limit cut -> OOMKilled under load
def sc1():
    s = Snap(1, datetime(2026, 10, 14, 9, 20, 0, tzinfo=timezone.utc),
             {"writer": "pandas_index", "ts": "ch", "aenv": ["prom"], "ev": "v1", "mts": "iso"})
    F = 14.0
    old, new = s.pod("currency"), s.pod("currency", "n")
    s.podmap["currency"] = lambda m: old if m < F + 0.3 else new
    rs_new = "-".join(new.split("-")[:-1])
    dep_new = deployment("currency", mem="24Mi", gen=4)
    dep_new["metadata"]["annotations"]["kubernetes.io/change-cause"] = "rightsizing batch 2026-10 (PR #1182)"
    base(s, {F: [dep_new]})
    s.event(F + 0.02, "Deployment", "currency", "ScalingReplicaSet", f"Scaled up replica set {rs_new} from 0 to 1",
            comp="deployment-controller")
    s.event(F + 0.05, "Pod", new, "Scheduled", f"Successfully assigned {NS}/{new} to ip-10-0-3-112.ec2.internal",
            comp="default-scheduler")
    s.event(F + 0.1, "Pod", new, "Pulled", 'Container image "ghcr.io/open-telemetry/demo:2.0.2-currency" already present on machine')
    s.event(F + 0.12, "Pod", new, "Created", "Created container currency")
    s.event(F + 0.13, "Pod", new, "Started", "Started container currency")
    s.event(F + 0.3, "Pod", old, "Killing", "Stopping container currency")
    s.event(F + 0.31, "Deployment", "currency", "ScalingReplicaSet",
            f"Scaled down replica set {'-'.join(old.split('-')[:-1])} from 1 to 0", comp="deployment-controller")
    crashes = [F + 1.1, F + 2.0, F + 3.2, F + 5.1, F + 8.3, F + 13.5]
    for i, c in enumerate(crashes):
        if c > 30:
            break
        s.event(c + 0.3, "Pod", new, "BackOff", f"Back-off restarting failed container currency in pod {new}_{NS}({h(new, 8)}-...)",
                "Warning", count=i + 1)
        s.obj(c, podobj(s, "currency", new, ready=False, restarts=i + 1, mem="24Mi",
                        state={"waiting": {"reason": "CrashLoopBackOff", "message": f"back-off {10 * 2 ** i}s restarting failed container=currency pod={new}_{NS}"}},
                        last={"terminated": {"exitCode": 137, "reason": "OOMKilled", "startedAt": iso(s.T(c - 0.6), False),
                                             "finishedAt": iso(s.T(c), False)}}))

    def down(m):  # pod is up for ~35 s after each restart
        if m < F + 0.3:
            return False
        for c in [F + 0.3] + crashes:
            pass
        up_windows = [(F + 0.3, crashes[0])] + [(crashes[i] + 0.35 * (i + 1) ** 0.5, crashes[i + 1]) for i in range(len(crashes) - 1)]
        return not any(a <= m < b for a, b in up_windows)

    def fault(m, caller, callee, op, pod):
        if callee == "currency" and m >= F + 0.3:
            if down(m):
                return {"unreachable": "14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 10.96.41.203:8080"
                        if caller == "frontend" else "rpc error: code = Unavailable desc = connection refused", "dur": 2}
            return {"slow": 3}
        return None
    s.fault = fault
    s.traffic()
    for m in [x / 2 for x in range(int(F * 2) + 3, 60)]:
        if down(m):
            s.log(m, "frontend", "error", "Error: 14 UNAVAILABLE: No connection established (currency) while rendering /api/products")
    for c in crashes:
        s.log(c - 0.05, "currency", "INFO", "Currency conversion request successful", pod=new)
    s.pod_metrics(old, "currency", 0.012, 14e6, lambda m: 0)
    s.pod_metrics(new, "currency", lambda m: 0.02 if m >= F else None,
                  lambda m: (23.6e6 if m >= F else None), lambda m: sum(1 for c in crashes if c <= m))
    s.pod_metrics(s.pod("frontend"), "frontend", 0.09, 180e6)
    s.service_metrics(["frontend", "currency", "checkout"])
    noise(s, "accounting", F - 0.7)
    s.event(3.0, "Pod", s.pod("load-generator"), "Unhealthy", "Liveness probe failed: Get \"http://10.244.2.19:8089/\": context deadline exceeded",
            "Warning")
    alert_series(s, [
        (F + 2, 30, lambda: palert("KubePodCrashLooping", "warning", s.T(F + 2), {"pod": new, "container": "currency",
                                                                                  "job": "kube-state-metrics"},
                                   "Pod is crash looping.", f"Pod {NS}/{new} (currency) is in waiting state (reason: \"CrashLoopBackOff\").", for_=15)),
        (F + 2, 30, fe_alerts(s, F + 1.5)),
        (F + 3, 30, lambda: palert("RequestErrorRate", "warning", s.T(F + 3), {"service_name": "checkout"},
                                   "checkout error ratio above 5%")),
        (0, 30, lambda: palert("Watchdog", "none", s.t0 - timedelta(days=3), {"namespace": "prometheus"},
                               "An alert that should always be firing to certify that Alertmanager is working properly."))])
    groups = [g("currency-deploy", "Deployment", "currency", root=True), g("currency-pod", "Pod", "currency", regex=podre("currency")),
              g("currency-svc", "Service", "currency"), g("frontend-svc", "Service", "frontend"),
              g("checkout-svc", "Service", "checkout"), g("frontend-proxy-svc", "Service", "frontend-proxy")]
    gt = chain_gt("Restore currency memory limit (e.g. 20Mi→ previous value) and roll out", groups,
                  [["currency-deploy", "currency-pod", "currency-svc"], ["frontend-svc"], ["checkout-svc"], ["frontend-proxy-svc"]],
                  [{"source": "currency-deploy", "target": "currency-pod", "condition": "memory limit lowered to 24Mi",
                    "effect": "currency container OOMKilled, CrashLoopBackOff"},
                   {"source": "currency-pod", "target": "currency-svc", "condition": "no ready endpoint most of the time",
                    "effect": "currency unavailable"},
                   {"source": "currency-svc", "target": "frontend-svc", "condition": "Convert/GetSupportedCurrencies fail",
                    "effect": "frontend error rate above threshold"},
                   {"source": "frontend-svc", "target": "frontend-proxy-svc", "condition": "frontend 5xx",
                    "effect": "frontend-proxy errors"},
                   {"source": "currency-svc", "target": "checkout-svc", "condition": "Convert fails during PlaceOrder",
                    "effect": "checkout error rate above threshold"}],
                  [{"category": "Resource Saturation", "condition": "memory limit too low",
                    "entity": {"kind": "Deployment", "name": "currency", "group_id": "currency-deploy"},
                    "fault_mechanism": "custom(k8s-memory-limit)"}],
                  [{"group_id": "currency-pod", "id": "KubePodCrashLooping"}, {"group_id": "frontend-svc", "id": "RequestErrorRate"},
                   {"group_id": "checkout-svc", "id": "RequestErrorRate"}], True, "set24-1")
    return s, gt


# =============== Scenario 2 (catalogue): Chaos Mesh StressChaos CPU on recommendation
def sc2():
    s = Snap(2, datetime(2026, 10, 21, 15, 2, 30, tzinfo=timezone.utc),
             {"writer": "quoteall", "crlf": True, "ts": "isoz", "aenv": ["am_list"], "ev": "events.k8s.io",
              "mts": "epoch", "pytags": True, "aindent": 2})
    F = 16.5
    rpod = s.pod("recommendation")
    s.podmap["recommendation"] = rpod
    chaos = {"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "StressChaos",
             "metadata": {"name": "recommendation-cpu-burn", "namespace": "chaos-mesh",
                          "annotations": {"experiment.chaos-mesh.org/pause": "false"},
                          "finalizers": ["chaos-mesh/records"]},
             "spec": {"mode": "all", "selector": {"namespaces": [NS], "labelSelectors": {"opentelemetry.io/name": "recommendation"}},
                      "stressors": {"cpu": {"workers": 4, "load": 100}}, "duration": "30m", "containerNames": ["recommendation"]},
             "status": {"experiment": {"desiredPhase": "Run", "containerRecords": [
                 {"id": f"{NS}/{rpod}/recommendation", "phase": "Injected", "injectedCount": 1, "recoveredCount": 0,
                  "selectorKey": "."}]}}}
    pc_new = deployment("product-catalog", gen=3)
    pc_new["spec"]["template"]["metadata"]["annotations"] = {"kubectl.kubernetes.io/restartedAt": iso(s.T(F + 0.8), False)}
    base(s, {F: [chaos], F + 0.8: [pc_new]})
    for dm, r, msg in [(0, "FinalizerInited", "Finalizer has been inited"),
                       (0.01, "Updated", "Successfully update finalizer of resource"),
                       (0.05, "Started", "Experiment has started"),
                       (0.09, "Applied", f"Successfully apply chaos for {NS}/{rpod}/recommendation"),
                       (0.1, "Updated", "Successfully update records of resource")]:
        s.event(F + dm, "StressChaos", "recommendation-cpu-burn", r, msg, ns="chaos-mesh",
                comp="chaos-controller-manager/records")
    # product-catalog restart (bystander)
    old_pc, new_pc = s.pod("product-catalog"), s.pod("product-catalog", "r")
    s.podmap["product-catalog"] = lambda m: old_pc if m < F + 1.0 else new_pc
    s.event(F + 0.8, "Deployment", "product-catalog", "ScalingReplicaSet",
            f"Scaled up replica set {'-'.join(new_pc.split('-')[:-1])} from 0 to 1", comp="deployment-controller")
    s.event(F + 0.85, "Pod", new_pc, "Started", "Started container product-catalog")
    s.event(F + 1.0, "Pod", old_pc, "Killing", "Stopping container product-catalog")

    def fault(m, caller, callee, op, pod):
        if callee == "recommendation" and m >= F + 0.1:
            x = s.r.random()
            if x < 0.05:
                return {"slow": 2000, "error": "Deadline Exceeded"}
            return {"slow": 650 + 500 * s.r.random()}
        return None
    s.fault = fault
    s.traffic()
    for m in [F + 0.6 + i * 0.9 for i in range(14)]:
        s.log(m, "recommendation", "INFO", "Receive ListRecommendations for product ids:['OLJCESPC7Z', '66VCHSJNUP', '1YMWWN1N4O', 'L9ECAV7KIM', '2ZYFJ3GM2N']",
              pod=rpod)
    s.log(F + 4.2, "frontend", "warn", "slow upstream: GET /api/recommendations took 1843ms")
    s.pod_metrics(rpod, "recommendation", lambda m: 0.05 if m < F else 3.9, 210e6)
    for mi in range(30):
        s.metric(f"pod_{rpod}", "container_cpu_cfs_throttled_periods_total:rate5m", mi, 0.0 if mi < F else 9.6,
                 {"pod": rpod, "namespace": NS, "container": "recommendation"})
    s.pod_metrics(s.pod("product-catalog"), "product-catalog", 0.02, 16e6)
    s.service_metrics(["frontend", "recommendation", "product-catalog"])
    noise(s, "ad", F - 1.2, extra_ns="staging")
    alert_series(s, [
        (int(F) + 2, 30, lambda: palert("CPUThrottlingHigh", "info", s.T(F + 1.7), {"pod": rpod, "container": "recommendation"},
                                        "Processes experience elevated CPU throttling.",
                                        f"87.3% throttling of CPU in namespace {NS} for container recommendation in pod {rpod}.")),
        (int(F) + 2, 30, fe_alerts(s, F + 1.9, "latency", 1.62)),
        (int(F) + 3, 30, lambda: palert("RequestLatency", "warning", s.T(F + 2.6), {"service_name": "frontend-proxy"},
                                        "frontend-proxy p95 latency above 800ms")),
        (2, 30, lambda: palert("KubeJobFailed", "warning", s.T(7.0), {"namespace": "staging", "job_name": f"report-export-{h(s.sid, 6)}"},
                               "Job failed to complete."))])
    groups = [g("chaos", "StressChaos", "recommendation-cpu-burn", root=True, ns="chaos-mesh"),
              g("reco-pod", "Pod", "recommendation", regex=podre("recommendation")), g("reco-svc", "Service", "recommendation"),
              g("frontend-svc", "Service", "frontend"), g("frontend-proxy-svc", "Service", "frontend-proxy")]
    gt = chain_gt("Delete StressChaos chaos-mesh/recommendation-cpu-burn", groups,
                  [["chaos"], ["reco-pod", "reco-svc"], ["frontend-svc"], ["frontend-proxy-svc"]],
                  [{"source": "chaos", "target": "reco-pod", "condition": "4 CPU stress workers at 100%",
                    "effect": "recommendation CPU saturated and throttled"},
                   {"source": "reco-pod", "target": "reco-svc", "condition": "CPU starvation",
                    "effect": "ListRecommendations latency ~1 s"},
                   {"source": "reco-svc", "target": "frontend-svc", "condition": "slow recommendations",
                    "effect": "frontend p95 latency above threshold"},
                   {"source": "frontend-svc", "target": "frontend-proxy-svc", "condition": "slow frontend",
                    "effect": "frontend-proxy latency alert"}],
                  [{"category": "Resource Saturation", "condition": "CPU stress",
                    "entity": {"kind": "StressChaos", "name": "recommendation-cpu-burn", "group_id": "chaos"},
                    "fault_mechanism": "chaos-mesh(StressChaos)"}],
                  [{"group_id": "reco-pod", "id": "CPUThrottlingHigh"}, {"group_id": "frontend-svc", "id": "RequestLatency"},
                   {"group_id": "frontend-proxy-svc", "id": "RequestLatency"}], False, "set24-2")
    return s, gt


# =============== Scenario 3 (catalogue): Service shipping targetPort typo in a Helm upgrade
def sc3():
    s = Snap(3, datetime(2026, 11, 2, 3, 41, 0, tzinfo=timezone.utc),
             {"writer": "clickhouse", "ts": "ch", "aenv": ["alerts"], "ev": "v1", "ev_kindfirst": True, "mts": "ch",
              "mcols": ["metric_name", "timestamp", "value", "tags", "pod_name", "namespace", "service_name",
                        "bucket_le", "status_code"]})
    F = 12.2
    svc_new = service("shipping", target=8000)
    svc_new["metadata"]["annotations"]["meta.helm.sh/release-revision"] = "23"
    q_new = deployment("quote", mem="60Mi", gen=6)
    base(s, {F: [svc_new], F + 0.02: [q_new]})
    oq, nq = s.pod("quote"), s.pod("quote", "h")
    s.podmap["quote"] = lambda m: oq if m < F + 0.4 else nq
    s.event(F + 0.03, "Deployment", "quote", "ScalingReplicaSet",
            f"Scaled up replica set {'-'.join(nq.split('-')[:-1])} from 0 to 1", comp="deployment-controller")
    s.event(F + 0.1, "Pod", nq, "Created", "Created container quote")
    s.event(F + 0.12, "Pod", nq, "Started", "Started container quote")
    s.event(F + 0.4, "Pod", oq, "Killing", "Stopping container quote")

    def fault(m, caller, callee, op, pod):
        if callee == "shipping" and m >= F + 0.05:
            return {"unreachable": f'Post "http://shipping:8080{op.split()[1]}": dial tcp 10.96.{int(h("shipping", 2), 16) % 250}.'
                                   f'{int(h("shippingx", 2), 16) % 250}:8080: connect: connection refused'}
        return None
    s.fault = fault
    s.traffic(per_min=12)
    k = 0
    for t, tid, sid, par, name, kind, svc, ra, at, dur, stc, sm in list(s.spans):
        if svc in ("checkout", "frontend") and stc == "Error" and "shipping" in sm or (svc == "checkout" and stc == "Error" and kind == "Server"):
            k += 1
            if k % 2:
                body = ("failed to get shipping quote: " + sm) if svc == "checkout" else ("Error: failed to get shipping quote " + sm)
                s.log((t - s.t0).total_seconds() / 60, svc, "ERROR" if svc == "checkout" else "error", body, tid=tid, sid=sid)
    s.pod_metrics(s.pod("shipping"), "shipping", lambda m: 0.004 if m < F else 0.0007, 6.1e6)
    s.pod_metrics(nq, "quote", lambda m: None if m < F else 0.003, lambda m: None if m < F else 21e6)
    s.service_metrics(["shipping", "checkout", "frontend", "quote"])
    noise(s, "fraud-detection", F + 6.5, quotes=False)
    alert_series(s, [
        (int(F) + 2, 30, lambda: palert("RequestErrorRate", "critical", s.T(F + 1.3), {"service_name": "checkout"},
                                        "checkout error ratio above 5%", "PlaceOrder failing for 100% of requests")),
        (int(F) + 2, 30, fe_alerts(s, F + 1.6, value=0.27)),
        (0, 30, lambda: palert("KubeDeploymentReplicasMismatch", "warning", s.t0 - timedelta(minutes=41),
                               {"namespace": "monitoring-x", "deployment": "kube-state-metrics-shard-2"},
                               "Deployment has not matched the expected number of replicas."))])
    groups = [g("shipping-svc", "Service", "shipping", root=True), g("checkout-svc", "Service", "checkout"),
              g("frontend-svc", "Service", "frontend"), g("frontend-proxy-svc", "Service", "frontend-proxy")]
    gt = chain_gt("Set Service shipping targetPort back to 8080", groups,
                  [["shipping-svc"], ["checkout-svc"], ["frontend-svc"], ["frontend-proxy-svc"]],
                  [{"source": "shipping-svc", "target": "checkout-svc", "condition": "Service targetPort 8000, container listens on 8080",
                    "effect": "connection refused on get-quote/ship-order; PlaceOrder fails"},
                   {"source": "checkout-svc", "target": "frontend-svc", "condition": "checkout errors",
                    "effect": "frontend error ratio above threshold"},
                   {"source": "frontend-svc", "target": "frontend-proxy-svc", "condition": "frontend 5xx",
                    "effect": "frontend-proxy errors"}],
                  [{"category": "Configuration Setting", "condition": "wrong Service targetPort",
                    "entity": {"kind": "Service", "name": "shipping", "group_id": "shipping-svc"},
                    "fault_mechanism": "custom(k8s-service-targetport)"}],
                  [{"group_id": "checkout-svc", "id": "RequestErrorRate"}, {"group_id": "frontend-svc", "id": "RequestErrorRate"}],
                  True, "set24-3")
    return s, gt


FLAGS = {"productCatalogFailure": ("Fail product catalog service on a specific product", {"on": True, "off": False}),
         "recommendationCacheFailure": ("Fail recommendation service cache", {"on": True, "off": False}),
         "adManualGc": ("Triggers full manual garbage collections in the ad service", {"on": True, "off": False}),
         "adHighCpu": ("Triggers high cpu load in the ad service", {"on": True, "off": False}),
         "adFailure": ("Fail ad service", {"on": True, "off": False}),
         "kafkaQueueProblems": ("Overloads Kafka queue while simultaneously introducing a consumer side delay leading to a lag spike", {"on": 100, "off": 0}),
         "cartFailure": ("Fail cart service", {"on": True, "off": False}),
         "paymentFailure": ("Fail payment service charge requests n%", {"100%": 1, "90%": 0.95, "75%": 0.75, "50%": 0.5, "25%": 0.25, "10%": 0.1, "off": 0}),
         "paymentUnreachable": ("Payment service is unavailable", {"on": True, "off": False}),
         "loadGeneratorFloodHomepage": ("Flood the frontend with a large amount of requests.", {"on": 100, "off": 0}),
         "imageSlowLoad": ("slow loading images in the frontend", {"10sec": 10000, "5sec": 5000, "off": 0})}


def flagd_cm(over):
    flags = {k: {"description": d, "state": "ENABLED", "variants": v, "defaultVariant": over.get(k, "off")}
             for k, (d, v) in FLAGS.items()}
    txt = json.dumps({"$schema": "https://flagd.dev/schema/v0/flags.json", "flags": flags}, indent=2) + "\n"
    return {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "flagd-config", "namespace": NS, "labels": labels("flagd")},
            "data": {"demo.flagd.json": txt}}


# =============== Scenario 4 (catalogue): flagd paymentFailure 50%
def sc4():
    s = Snap(4, datetime(2026, 11, 9, 18, 7, 12, tzinfo=timezone.utc),
             {"writer": "pandas", "bom": True, "extra": True, "reorder": True, "ts": "isooff", "dbl": True,
              "aenv": ["single", "list", "data"], "ev": "mixed", "mts": "epochf", "kindenum": True})
    F = 15.3
    co_new = deployment("checkout", image="ghcr.io/open-telemetry/demo:2.0.3-checkout", gen=9)
    base(s, {0: [flagd_cm({})], F: [flagd_cm({"paymentFailure": "50%"})], F - 2.1: [co_new]})
    oc, nc = s.pod("checkout"), s.pod("checkout", "v")
    s.podmap["checkout"] = lambda m: oc if m < F - 1.8 else nc
    rs = "-".join(nc.split("-")[:-1])
    s.event(F - 2.1, "Deployment", "checkout", "ScalingReplicaSet", f"Scaled up replica set {rs} from 0 to 1",
            comp="deployment-controller", api="v1")
    s.event(F - 2.05, "Pod", nc, "Pulling", 'Pulling image "ghcr.io/open-telemetry/demo:2.0.3-checkout"', api="events.k8s.io")
    s.event(F - 1.95, "Pod", nc, "Pulled", 'Successfully pulled image "ghcr.io/open-telemetry/demo:2.0.3-checkout" in 5.8s (5.8s including waiting). Image size: 18220931 bytes.',
            api="events.k8s.io")
    s.event(F - 1.9, "Pod", nc, "Started", "Started container checkout", api="v1")
    s.event(F - 1.8, "Pod", oc, "Killing", "Stopping container checkout", api="events.k8s.io")
    s.log(F + 0.05, "flagd", "INFO", '{"level":"info","ts":"%s","logger":"flagd","source":"file:/etc/flagd/demo.flagd.json","msg":"configuration change (WRITE) for flagSource file:/etc/flagd/demo.flagd.json"}' % iso(s.T(F + 0.05)))

    def fault(m, caller, callee, op, pod):
        if callee == "payment" and m >= F + 0.1 and s.r.random() < 0.5:
            return {"error": "Payment request failed. Invalid token. app.loyalty.level=gold",
                    "log": "Payment request failed. Invalid token. app.loyalty.level=gold", "logsev": "error"}
        return None
    s.fault = fault
    s.traffic(per_min=13)
    for t, tid, sid, par, name, kind, svc, ra, at, dur, stc, sm in list(s.spans):
        if svc == "checkout" and kind == "Server" and stc == "Error":
            s.log((t - s.t0).total_seconds() / 60, "checkout", "ERROR",
                  "failed to charge card: could not charge the card: rpc error: code = Unknown desc = Payment request failed. Invalid token. app.loyalty.level=gold",
                  tid=tid, sid=sid)
    for m in range(0, 30, 2):
        s.log(m + 0.5, "payment", "info", "Transaction complete.", attrs={"transactionId": h(str(m), 8), "cardType": "visa"})
    s.pod_metrics(s.pod("payment"), "payment", 0.015, 70e6)
    s.pod_metrics(nc, "checkout", lambda m: None if m < F - 2 else 0.01, lambda m: None if m < F - 2 else 12e6)
    s.service_metrics(["payment", "checkout", "frontend"])
    noise(s, "email", F + 3.5)
    wd = lambda: palert("Watchdog", "none", s.t0 - timedelta(days=1), {"namespace": "prometheus"},
                        "An alert that should always be firing to certify that Alertmanager is working properly.")
    alert_series(s, [
        (0, 30, wd),
        (int(F) + 2, 30, lambda: palert("RequestErrorRate", "warning", s.T(F + 1.2), {"service_name": "checkout"},
                                        "checkout error ratio above 5%", value=0.48)),
        (int(F) + 2, 30, lambda: palert("RequestErrorRate", "warning", s.T(F + 1.4), {"service_name": "payment"},
                                        "payment error ratio above 5%", value=0.51)),
        (int(F) + 3, 30, fe_alerts(s, F + 2.1, value=0.07))])
    groups = [g("flagd-config", "ConfigMap", "flagd-config", root=True), g("payment-svc", "Service", "payment"),
              g("payment-pod", "Pod", "payment", regex=podre("payment")), g("checkout-svc", "Service", "checkout"),
              g("checkout-pod", "Pod", "checkout", regex=podre("checkout")),
              g("frontend-svc", "Service", "frontend"), g("frontend-proxy-svc", "Service", "frontend-proxy")]
    gt = chain_gt("Set paymentFailure defaultVariant back to off in flagd-config", groups,
                  [["flagd-config"], ["payment-svc", "payment-pod"], ["checkout-svc", "checkout-pod"], ["frontend-svc"], ["frontend-proxy-svc"]],
                  [{"source": "flagd-config", "target": "payment-svc", "condition": "paymentFailure defaultVariant 50%",
                    "effect": "half of Charge calls fail"},
                   {"source": "payment-svc", "target": "checkout-svc", "condition": "Charge fails",
                    "effect": "PlaceOrder error rate ~50%"},
                   {"source": "checkout-svc", "target": "frontend-svc", "condition": "checkout errors",
                    "effect": "frontend errors on /api/checkout"},
                   {"source": "frontend-svc", "target": "frontend-proxy-svc", "condition": "frontend 5xx",
                    "effect": "frontend-proxy errors"}],
                  [{"category": "Configuration Setting", "condition": "paymentFailure feature flag set to 50%",
                    "entity": {"kind": "ConfigMap", "name": "flagd-config", "group_id": "flagd-config",
                               "changed": {"element": "data.demo\\.flagd\\.json", "from": "paymentFailure: off", "to": "paymentFailure: 50%"}},
                    "fault_mechanism": "custom(flagd)"}],
                  [{"group_id": "checkout-svc", "id": "RequestErrorRate"}, {"group_id": "payment-svc", "id": "RequestErrorRate"},
                   {"group_id": "frontend-svc", "id": "RequestErrorRate"}], False, "set24-4")
    return s, gt


# =============== Scenario 5 (novel): broker message size limit lowered -> orders never reach Kafka
def sc5():
    s = Snap(5, datetime(2026, 11, 12, 22, 50, 5, tzinfo=timezone.utc),
             {"writer": "pandas_index", "crlf": True, "ts": "nano", "aenv": ["data"], "ev": "events.k8s.io",
              "mts": "iso", "mf": True})
    F = 13.4
    kenv = [{"name": "KAFKA_ADVERTISED_LISTENERS", "value": "PLAINTEXT://kafka:9092"},
            {"name": "KAFKA_HEAP_OPTS", "value": "-Xmx400M -Xms400M"},
            {"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": "http://otel-collector:4318"}]
    k_old = deployment("kafka", env=kenv, gen=2)
    k_new = deployment("kafka", env=kenv + [{"name": "KAFKA_MESSAGE_MAX_BYTES", "value": "512"}], gen=3)
    k_new["metadata"]["annotations"]["kubernetes.io/change-cause"] = "broker hardening: cap message size (SEC-2231)"
    fd_new = deployment("fraud-detection", image="ghcr.io/open-telemetry/demo:2.0.2-fraud-detection-r1", gen=5)
    base(s, {0: [k_old], F: [k_new], F + 1.6: [fd_new]})
    ok, nk = s.pod("kafka"), s.pod("kafka", "m")
    s.podmap["kafka"] = lambda m: ok if m < F + 0.5 else nk
    s.event(F, "Deployment", "kafka", "ScalingReplicaSet", f"Scaled up replica set {'-'.join(nk.split('-')[:-1])} from 0 to 1",
            comp="deployment-controller")
    s.event(F + 0.05, "Pod", nk, "Scheduled", f"Successfully assigned {NS}/{nk} to ip-10-0-1-201.ec2.internal", comp="default-scheduler")
    s.event(F + 0.1, "Pod", nk, "Started", "Started container kafka")
    s.event(F + 0.3, "Pod", ok, "Killing", "Stopping container kafka")
    s.event(F + 0.3, "Deployment", "kafka", "ScalingReplicaSet", f"Scaled down replica set {'-'.join(ok.split('-')[:-1])} from 1 to 0",
            comp="deployment-controller")
    s.obj(F + 0.6, podobj(s, "kafka", nk, node="ip-10-0-1-201.ec2.internal"))
    for c in ("accounting", "fraud-detection"):
        s.log(F + 0.45, c, "INFO" if c == "fraud-detection" else "Information",
              "[Consumer clientId=consumer-fraud-detection-1, groupId=fraud-detection] Revoke previously assigned partitions orders-0"
              if c == "fraud-detection" else "Partitions revoked: [orders [[0]]]")
        s.log(F + 0.62, c, "INFO" if c == "fraud-detection" else "Information",
              "[Consumer clientId=consumer-fraud-detection-1, groupId=fraud-detection] Adding newly assigned partitions: orders-0"
              if c == "fraud-detection" else "Partitions assigned: [orders [[0]]]")
    s.log(F + 0.4, "kafka", "WARN", "[NetworkClient] Connection to node 1 (kafka/10.244.1.77:9093) could not be established. Broker may not be available.", pod=nk)

    def fault(m, caller, callee, op, pod):
        if callee == "kafka" and F + 0.3 <= m < F + 0.5:
            return {"unreachable": "kafka: client has run out of available brokers to talk to: dial tcp 10.96.77.12:9092: connect: connection refused"}
        if callee == "kafka" and m >= F + 0.5:
            return {"unreachable": "kafka server: Message was too large, server rejected it to avoid allocation error", "dur": 2.4}
        return None

    def xl(m, tid, svc, what, r):
        s.log(m, "checkout", "ERROR", "Failed to write message to Kafka: " + r["msg"], tid=tid if s.r.random() < 0.5 else "")
        if "too large" in r["msg"]:
            s.log(m, "kafka", "ERROR", "[ReplicaManager broker=1] Error processing append operation on partition orders-0 "
                  "(kafka.server.ReplicaManager) org.apache.kafka.common.errors.RecordTooLargeException: Message batch size is "
                  "%d bytes in append to partition orders-0 which exceeds the maximum configured size of 512." % s.r.randint(980, 1420),
                  pod=nk)
    s.fault, s.extra_logs = fault, xl
    s.traffic(per_min=12)
    for m in range(0, 30):
        if m < F:
            s.log(m + 0.7, "accounting", "Information", "Order received: " + h(str(m) + "o", 8) + "-" + h(str(m) + "p", 4), tid="")
    s.pod_metrics(nk, "kafka", lambda m: None if m < F else 0.08, lambda m: None if m < F else 520e6)
    s.pod_metrics(ok, "kafka", lambda m: 0.09 if m <= F else None, lambda m: 530e6 if m <= F else None)
    for mi in range(30):
        for grp in ("accounting", "fraud-detection"):
            s.metric(f"service_{grp}", "kafka_consumer_records_consumed_rate", mi, 0.0 if mi > F + 0.5 else round(0.05 + 0.02 * s.r.random(), 4),
                     {"service_name": grp, "namespace": NS, "topic": "orders", "client_id": f"consumer-{grp}-1"})
    s.service_metrics(["checkout", "accounting", "fraud-detection"])
    noise(s, "image-provider", 4.5)
    alert_series(s, [
        (int(F) + 2, 30, lambda: palert("RequestErrorRate", "warning", s.T(F + 1.4), {"service_name": "checkout"},
                                        "checkout error ratio above 5%", "span error ratio of checkout is 9%", value=0.09)),
        (int(F) + 6, 30, lambda: palert("KafkaConsumerNoRecords", "warning", s.T(F + 5.5), {"service_name": "accounting", "topic": "orders"},
                                        "accounting has consumed no records from orders for 5m")),
        (int(F) + 6, 30, lambda: palert("KafkaConsumerNoRecords", "warning", s.T(F + 5.5), {"service_name": "fraud-detection", "topic": "orders"},
                                        "fraud-detection has consumed no records from orders for 5m"))])
    groups = [g("kafka-deploy", "Deployment", "kafka", root=True), g("kafka-pod", "Pod", "kafka", regex=podre("kafka")),
              g("kafka-svc", "Service", "kafka"), g("checkout-svc", "Service", "checkout"),
              g("accounting-svc", "Service", "accounting"), g("fraud-svc", "Service", "fraud-detection")]
    gt = chain_gt("Remove KAFKA_MESSAGE_MAX_BYTES=512 from the kafka Deployment", groups,
                  [["kafka-deploy", "kafka-pod", "kafka-svc"], ["checkout-svc"], ["accounting-svc"], ["fraud-svc"]],
                  [{"source": "kafka-deploy", "target": "kafka-svc", "condition": "broker message.max.bytes 512",
                    "effect": "broker rejects order messages (RecordTooLarge)"},
                   {"source": "kafka-svc", "target": "checkout-svc", "condition": "produce rejected",
                    "effect": "checkout producer spans fail; orders not published"},
                   {"source": "kafka-svc", "target": "accounting-svc", "condition": "no messages on orders",
                    "effect": "accounting consumes nothing"},
                   {"source": "kafka-svc", "target": "fraud-svc", "condition": "no messages on orders",
                    "effect": "fraud-detection consumes nothing"}],
                  [{"category": "Configuration Setting", "condition": "broker message size limit below order size",
                    "entity": {"kind": "Deployment", "name": "kafka", "group_id": "kafka-deploy"},
                    "fault_mechanism": "custom(kafka-config)"}],
                  [{"group_id": "checkout-svc", "id": "RequestErrorRate"}, {"group_id": "accounting-svc", "id": "KafkaConsumerNoRecords"},
                   {"group_id": "fraud-svc", "id": "KafkaConsumerNoRecords"}], True, "set24-5")
    return s, gt


def hpa(name, mn, mx, cur):
    return {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
            "metadata": {"name": name, "namespace": NS, "labels": labels(name)},
            "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": name},
                     "minReplicas": mn, "maxReplicas": mx,
                     "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}}]},
            "status": {"currentReplicas": cur, "desiredReplicas": cur}}


# =============== Scenario 6 (novel): HPA maxReplicas 1 squeezes frontend onto one pod
def sc6():
    s = Snap(6, datetime(2026, 11, 18, 12, 14, 40, tzinfo=timezone.utc),
             {"writer": "quoteall", "ts": "chms", "aenv": ["list"], "ev": "v1", "mts": "epochf", "pytags": True})
    F = 14.8
    fps = [s.pod("frontend", x) for x in "abc"]
    s.podmap["frontend"] = lambda m: fps if m < F + 0.4 else fps[:1]
    d_old = deployment("frontend", replicas=3, gen=7)
    d_new = deployment("frontend", replicas=1, gen=8)
    base(s, {0: [d_old, hpa("frontend", 3, 6, 3)], F: [hpa("frontend", 1, 1, 3)], F + 0.25: [d_new, hpa("frontend", 1, 1, 1)]})
    s.event(F + 0.25, "HorizontalPodAutoscaler", "frontend", "SuccessfulRescale",
            "New size: 1; reason: Current number of replicas above Spec.MaxReplicas", comp="horizontal-pod-autoscaler")
    s.event(F + 0.26, "Deployment", "frontend", "ScalingReplicaSet",
            f"Scaled down replica set {'-'.join(fps[0].split('-')[:-1])} from 3 to 1", comp="deployment-controller")
    for p_ in fps[1:]:
        s.event(F + 0.3, "Pod", p_, "Killing", "Stopping container frontend")
    for i, p_ in enumerate(fps):
        s.obj(0.02 + i * 0.001, podobj(s, "frontend", p_))
    s.obj(F + 2, podobj(s, "frontend", fps[0]))
    s.event(F + 4.0, "Pod", fps[0], "Unhealthy", "Readiness probe failed: Get \"http://10.244.2.51:8080/api/health\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
            "Warning", count=3)

    def fault(m, caller, callee, op, pod):
        if callee == "frontend" and m >= F + 0.4:
            x = s.r.random()
            if x < 0.05:
                return {"unreachable": "upstream request timeout", "dur": 15000}
            return {"slow": 300 + 1400 * s.r.random() ** 2}
        return None
    s.fault = fault
    s.traffic(per_min=12)
    s.log(F + 0.2, "frontend", "info", "SIGTERM received, shutting down gracefully", pod=fps[1])
    s.log(F + 0.2, "frontend", "info", "SIGTERM received, shutting down gracefully", pod=fps[2])
    for m in [F + 1 + i * 1.3 for i in range(10)]:
        s.log(m, "frontend-proxy", "WARN", '[%s] "GET /api/products/%s HTTP/1.1" 504 UT 0 24 15001 - "-" "python-requests/2.32.3" "%s" "frontend:8080" "10.244.2.51:8080"'
              % (iso(s.T(m)), "L9ECAV7KIM", h(str(m), 8) + "-" + h(str(m), 4)))
    for i, p_ in enumerate(fps):
        s.pod_metrics(p_, "frontend", (lambda m, i=i: (0.34 if m < F else (0.99 if i == 0 else None))),
                      (lambda m, i=i: (190e6 if (m < F or i == 0) else None)))
    for mi in range(30):
        s.metric(f"pod_{fps[0]}", "container_cpu_cfs_throttled_periods_total:rate5m", mi, 0.1 if mi < F else 8.7,
                 {"pod": fps[0], "namespace": NS, "container": "frontend"})
    s.service_metrics(["frontend", "frontend-proxy", "product-catalog"])
    noise(s, "quote", F + 0.7, extra_ns="tenant-b")
    alert_series(s, [
        (int(F) + 1, 30, lambda: palert("KubeHpaMaxedOut", "warning", s.T(F + 0.5), {"horizontalpodautoscaler": "frontend", "job": "kube-state-metrics"},
                                        "HPA is running at max replicas", f"HPA {NS}/frontend has been running at max replicas for longer than 15 minutes.", for_=15)),
        (int(F) + 2, 30, lambda: palert("CPUThrottlingHigh", "info", s.T(F + 1.5), {"pod": fps[0], "container": "frontend"},
                                        "Processes experience elevated CPU throttling.")),
        (int(F) + 2, 30, fe_alerts(s, F + 1.8, "latency", 1.41)),
        (int(F) + 3, 30, lambda: palert("RequestErrorRate", "warning", s.T(F + 2.4), {"service_name": "frontend-proxy"},
                                        "frontend-proxy error ratio above 5%", value=0.055))])
    groups = [g("hpa", "HorizontalPodAutoscaler", "frontend", root=True), g("frontend-deploy", "Deployment", "frontend"),
              g("frontend-pod", "Pod", "frontend", regex=podre("frontend")), g("frontend-svc", "Service", "frontend"),
              g("frontend-proxy-svc", "Service", "frontend-proxy")]
    gt = chain_gt("Restore HPA frontend minReplicas 3 / maxReplicas 6", groups,
                  [["hpa"], ["frontend-deploy", "frontend-pod", "frontend-svc"], ["frontend-proxy-svc"]],
                  [{"source": "hpa", "target": "frontend-deploy", "condition": "maxReplicas set to 1",
                    "effect": "frontend scaled 3 -> 1"},
                   {"source": "frontend-deploy", "target": "frontend-pod", "condition": "all traffic on one pod",
                    "effect": "CPU saturated and throttled"},
                   {"source": "frontend-pod", "target": "frontend-svc", "condition": "CPU starvation",
                    "effect": "frontend p95 latency above threshold"},
                   {"source": "frontend-svc", "target": "frontend-proxy-svc", "condition": "slow upstream",
                    "effect": "frontend-proxy 504 upstream timeouts"}],
                  [{"category": "Configuration Setting", "condition": "autoscaler capped at one replica",
                    "entity": {"kind": "HorizontalPodAutoscaler", "name": "frontend", "group_id": "hpa"},
                    "fault_mechanism": "custom(k8s-hpa)"}],
                  [{"group_id": "hpa", "id": "KubeHpaMaxedOut"}, {"group_id": "frontend-pod", "id": "CPUThrottlingHigh"},
                   {"group_id": "frontend-svc", "id": "RequestLatency"}, {"group_id": "frontend-proxy-svc", "id": "RequestErrorRate"}],
                  False, "set24-6")
    return s, gt


# =============== Scenario 7 (novel): valkey-cart started with --requirepass; cart has no password
def sc7():
    s = Snap(7, datetime(2026, 11, 23, 7, 31, 50, tzinfo=timezone.utc),
             {"writer": "clickhouse", "ts": "ch", "aenv": ["am_alerts"], "ev": "v1", "mts": "iso", "mf": True})
    F = 15.9
    venv = [{"name": "VALKEY_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "valkey-cart-auth", "key": "password"}}}]
    v_new = deployment("valkey-cart", image="valkey/valkey:8.1.3-alpine", gen=3, env=venv,
                       args=["--requirepass", "$(VALKEY_PASSWORD)", "--maxmemory", "20mb"])
    v_new["metadata"]["annotations"]["kubernetes.io/change-cause"] = "enable AUTH on in-cluster redis (CIS-5.7 remediation)"
    v_old = deployment("valkey-cart", image="valkey/valkey:8.1.3-alpine", gen=2, args=["--maxmemory", "20mb"])
    c_new = deployment("cart", image="ghcr.io/open-telemetry/demo:2.0.3-cart", gen=11)
    base(s, {0: [v_old], F - 3.2: [c_new], F: [v_new]})
    oc, nc = s.pod("cart"), s.pod("cart", "u")
    ov, nv = s.pod("valkey-cart"), s.pod("valkey-cart", "u")
    s.podmap["cart"] = lambda m: oc if m < F - 2.9 else nc
    for (svc, o, n, m0) in (("cart", oc, nc, F - 3.2), ("valkey-cart", ov, nv, F)):
        s.event(m0, "Deployment", svc, "ScalingReplicaSet", f"Scaled up replica set {'-'.join(n.split('-')[:-1])} from 0 to 1",
                comp="deployment-controller")
        s.event(m0 + 0.05, "Pod", n, "Scheduled", f"Successfully assigned {NS}/{n} to ip-10-0-3-64.ec2.internal", comp="default-scheduler")
        s.event(m0 + 0.12, "Pod", n, "Started", f"Started container {svc}")
        s.event(m0 + 0.3, "Pod", o, "Killing", f"Stopping container {svc}")
        s.event(m0 + 0.31, "Pod", o, "Killing", f"Stopping container {svc}", watch="DELETED")
        s.event(m0 + 0.32, "Deployment", svc, "ScalingReplicaSet", f"Scaled down replica set {'-'.join(o.split('-')[:-1])} from 1 to 0",
                comp="deployment-controller")
    s.log(F + 0.15, "valkey-cart", "INFO", "1:M 23 Nov 2026 07:47:59.412 * Ready to accept connections tcp", pod=nv)
    s.log(F - 3.0, "cart", "Information", "Now listening on: http://[::]:8080", pod=nc)

    def fault(m, caller, callee, op, pod):
        if callee == "valkey-cart" and m >= F + 0.3:
            return {"error": "NOAUTH Authentication required."}
        if callee == "cart" and m >= F + 0.3:
            return {"log": "Can't access cart storage. StackExchange.Redis.RedisServerException: NOAUTH Authentication required.",
                    "logsev": "Error", "error": "Can't access cart storage. NOAUTH Authentication required."}
        return None
    s.fault = fault
    s.traffic(per_min=12)
    s.pod_metrics(nv, "valkey-cart", lambda m: None if m < F else 0.002, lambda m: None if m < F else 3.1e6)
    s.pod_metrics(nc, "cart", lambda m: None if m < F - 3 else 0.03, lambda m: None if m < F - 3 else 95e6)
    s.service_metrics(["cart", "frontend", "checkout"])
    noise(s, "ad", F + 5.3, quotes=False)
    alert_series(s, [
        (int(F) + 2, 30, lambda: palert("RequestErrorRate", "critical", s.T(F + 1.3), {"service_name": "cart"},
                                        "cart error ratio above 5%", value=1.0)),
        (int(F) + 2, 30, fe_alerts(s, F + 1.6, value=0.31)),
        (int(F) + 3, 30, lambda: palert("RequestErrorRate", "warning", s.T(F + 2.2), {"service_name": "checkout"},
                                        "checkout error ratio above 5%"))])
    groups = [g("valkey-deploy", "Deployment", "valkey-cart", root=True), g("valkey-pod", "Pod", "valkey-cart", regex=podre("valkey-cart")),
              g("valkey-svc", "Service", "valkey-cart"), g("cart-svc", "Service", "cart"), g("cart-pod", "Pod", "cart", regex=podre("cart")),
              g("frontend-svc", "Service", "frontend"), g("checkout-svc", "Service", "checkout"),
              g("frontend-proxy-svc", "Service", "frontend-proxy")]
    gt = chain_gt("Remove --requirepass from valkey-cart or give cart the password", groups,
                  [["valkey-deploy", "valkey-pod", "valkey-svc"], ["cart-svc", "cart-pod"], ["frontend-svc"], ["checkout-svc"],
                   ["frontend-proxy-svc"]],
                  [{"source": "valkey-deploy", "target": "valkey-svc", "condition": "server requires AUTH",
                    "effect": "unauthenticated clients get NOAUTH"},
                   {"source": "valkey-svc", "target": "cart-svc", "condition": "NOAUTH on every command",
                    "effect": "cart error rate 100%"},
                   {"source": "cart-svc", "target": "frontend-svc", "condition": "cart errors", "effect": "frontend errors"},
                   {"source": "frontend-svc", "target": "frontend-proxy-svc", "condition": "frontend 5xx",
                    "effect": "frontend-proxy errors"},
                   {"source": "cart-svc", "target": "checkout-svc", "condition": "GetCart fails", "effect": "PlaceOrder fails"}],
                  [{"category": "Configuration Setting", "condition": "authentication enabled on valkey without client credentials",
                    "entity": {"kind": "Deployment", "name": "valkey-cart", "group_id": "valkey-deploy"},
                    "fault_mechanism": "custom(valkey-auth)"}],
                  [{"group_id": "cart-svc", "id": "RequestErrorRate"}, {"group_id": "frontend-svc", "id": "RequestErrorRate"},
                   {"group_id": "checkout-svc", "id": "RequestErrorRate"}], True, "set24-7")
    return s, gt


# =============== Scenario 8 (novel): ConfigMap edit picked up only by a pod recreated by a node drain 7 min later
def sc8():
    s = Snap(8, datetime(2026, 11, 27, 1, 5, 20, tzinfo=timezone.utc),
             {"writer": "pandas", "bom": True, "crlf": True, "extra": True, "ts": "isoz", "aenv": ["data", "list"],
              "ev": "mixed", "mts": "epoch", "pytags": True})
    C, D = 9.0, 16.2
    fa, fb, fc = s.pod("frontend", "a"), s.pod("frontend", "b"), s.pod("frontend", "c")
    s.podmap["frontend"] = lambda m: [fa, fb] if m < D else ([fb] if m < D + 0.3 else [fb, fc])
    node = "ip-10-0-2-41.ec2.internal"
    ef = [{"configMapRef": {"name": "frontend-env"}}]
    cm = lambda addr: {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "frontend-env", "namespace": NS,
                                                                              "labels": labels("frontend")},
                       "data": {"PRODUCT_CATALOG_ADDR": addr, "CURRENCY_ADDR": "currency:8080", "CART_ADDR": "cart:8080",
                                "CHECKOUT_ADDR": "checkout:8080", "AD_ADDR": "ad:8080", "RECOMMENDATION_ADDR": "recommendation:8080",
                                "SHIPPING_ADDR": "shipping:8080", "WEB_OTEL_SERVICE_NAME": "frontend-web"}}
    nodeobj = lambda unsched: {"apiVersion": "v1", "kind": "Node",
                               "metadata": {"name": node, "labels": {"kubernetes.io/hostname": node, "topology.kubernetes.io/zone": "us-east-2b"},
                                            **({"annotations": {"kured.dev/kured-node-lock": '{"nodeID":"%s","created":"%s"}' % (node, iso(s.T(D), False))}} if unsched else {})},
                               "spec": {"providerID": "aws:///us-east-2b/i-0c1f3a9e77b2", **({"unschedulable": True, "taints": [
                                   {"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule", "timeAdded": iso(s.T(D), False)}]} if unsched else {})},
                               "status": {"nodeInfo": {"kubeletVersion": "v1.31.4-eks-aeac579"}}}
    base(s, {0: [deployment("frontend", replicas=2, envfrom=ef, gen=5), cm("product-catalog:8080"), nodeobj(False)],
             C: [cm("productcatalogservice:3550")], D: [nodeobj(True)]})
    s.obj(D + 0.35, podobj(s, "frontend", fc, node="ip-10-0-1-19.ec2.internal", envfrom=ef))
    s.event(D, "Node", node, "NodeNotSchedulable", f"Node {node} status is now: NodeNotSchedulable", ns="default",
            comp="kubelet", host=node)
    s.event(D + 0.02, "Node", node, "RebootScheduled", "kured: draining node for reboot (/var/run/reboot-required present)", ns="default",
            comp="kured")
    for svc, p_ in (("frontend", fa), ("quote", s.pod("quote")), ("email", s.pod("email"))):
        s.event(D + 0.1, "Pod", p_, "Killing", f"Stopping container {svc}", watch="ADDED")
    nq, ne = s.pod("quote", "d"), s.pod("email", "d")
    s.podmap["quote"] = lambda m: s.pod("quote") if m < D + 0.1 else nq
    s.podmap["email"] = lambda m: s.pod("email") if m < D + 0.1 else ne
    for svc, p_ in (("frontend", fc), ("quote", nq), ("email", ne)):
        s.event(D + 0.12, "Pod", p_, "Scheduled", f"Successfully assigned {NS}/{p_} to ip-10-0-1-19.ec2.internal", comp="default-scheduler")
        s.event(D + 0.25, "Pod", p_, "Started", f"Started container {svc}")
    s.event(D + 6.5, "Node", node, "Rebooted", f"Node {node} has been rebooted, boot id: 5a0e0b8e-{h(node, 4)}-4c1e-9d43-{h(node, 12)}",
            "Warning", ns="default", host=node)
    s.event(D + 7.2, "Node", node, "NodeSchedulable", f"Node {node} status is now: NodeSchedulable", ns="default", host=node)

    def fault(m, caller, callee, op, pod):
        if callee == "product-catalog" and caller == "frontend" and getattr(s, "cur_fe", None) == fc and m >= D + 0.3:
            return {"unreachable": "14 UNAVAILABLE: Name resolution failed for target dns:productcatalogservice:3550", "dur": 0.6}
        return None
    s.fault = fault
    s.traffic(per_min=12)
    for t, tid, sid, par, name, kind, svc, ra, at, dur, stc, sm in list(s.spans):
        if svc == "frontend" and stc == "Error" and kind == "Client" and "productcatalogservice" in sm and s.r.random() < 0.6:
            s.log((t - s.t0).total_seconds() / 60, "frontend", "error", "Error: " + sm + " (GetProduct)", pod=fc, tid=tid, sid=sid)
    s.log(D + 0.26, "frontend", "info", "▲ Next.js 14.2.5 - Local: http://localhost:8080 ✓ Ready in 412ms", pod=fc)
    for p_ in (fa, fb, fc):
        s.pod_metrics(p_, "frontend", lambda m, p_=p_: (0.22 if (p_ != fa or m < D) and (p_ != fc or m > D) else None), 170e6)
    s.service_metrics(["frontend", "product-catalog", "frontend-proxy"])
    noise(s, "accounting", C + 0.6, extra_ns="batch-jobs")
    alert_series(s, [
        (int(D) + 1, int(D) + 7, lambda: palert("KubeNodeUnschedulable", "warning", s.T(D + 0.1), {"node": node, "namespace": "default"},
                                                "Node is unschedulable.", f"{node} is unschedulable for more than 1 hour.", for_=0)),
        (int(D) + 2, 30, fe_alerts(s, D + 1.4, value=0.24)),
        (int(D) + 3, 30, lambda: palert("RequestErrorRate", "warning", s.T(D + 2.2), {"service_name": "frontend-proxy"},
                                        "frontend-proxy error ratio above 5%", value=0.16))])
    groups = [g("frontend-env", "ConfigMap", "frontend-env", root=True), g("frontend-pod", "Pod", "frontend", regex=podre("frontend")),
              g("frontend-deploy", "Deployment", "frontend"), g("frontend-svc", "Service", "frontend"),
              g("frontend-proxy-svc", "Service", "frontend-proxy")]
    gt = chain_gt("Restore PRODUCT_CATALOG_ADDR=product-catalog:8080 in ConfigMap frontend-env and restart frontend", groups,
                  [["frontend-env"], ["frontend-pod", "frontend-deploy", "frontend-svc"], ["frontend-proxy-svc"]],
                  [{"source": "frontend-env", "target": "frontend-pod", "condition": "PRODUCT_CATALOG_ADDR points at a non-existent name",
                    "effect": "pod created after the edit (drain) cannot resolve product catalog"},
                   {"source": "frontend-pod", "target": "frontend-svc", "condition": "one of two replicas fails product lookups",
                    "effect": "frontend error ratio above threshold"},
                   {"source": "frontend-svc", "target": "frontend-proxy-svc", "condition": "frontend 5xx",
                    "effect": "frontend-proxy errors"}],
                  [{"category": "Configuration Setting", "condition": "wrong service address in env ConfigMap",
                    "entity": {"kind": "ConfigMap", "name": "frontend-env", "group_id": "frontend-env"},
                    "fault_mechanism": "custom(k8s-configmap-env)"}],
                  [{"group_id": "frontend-svc", "id": "RequestErrorRate"}, {"group_id": "frontend-proxy-svc", "id": "RequestErrorRate"}],
                  False, "set24-8")
    return s, gt


SCEN = [sc1, sc2, sc3, sc4, sc5, sc6, sc7, sc8]


def main():
    out = sys.argv[1]
    for f in SCEN:
        s, gt = f()
        s.write(out, gt)
        print(s.sid, file=sys.stderr)


if __name__ == "__main__":
    main()
