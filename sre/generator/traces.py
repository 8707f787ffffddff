"""Traces and application logs: user requests walk the demo's call graph; after the fault's onset
calls into (or out of) the faulty service fail or slow down, and the failure climbs the call chain
to the proxy the way gRPC/HTTP errors do. Every server span also feeds the per-minute service
statistics the metrics and alerts are computed from, so all signals tell the same story."""

from __future__ import annotations

import datetime as dt
import random
from collections import defaultdict
from dataclasses import dataclass, field

from sre.generator.incident import Incident
from sre.generator.topology import Flow, Service
from sre.generator.tsv import TsvWriter, json_field

#: histogram bucket bounds (ms) of the span-metrics duration histogram
BUCKETS_MS = (5.0, 10.0, 25.0, 50.0, 100.0, 250.0, 500.0, 1000.0, 2500.0, 5000.0, 10000.0)
#: typical self time (ms) per service
BASE_MS = {
    "frontend-proxy": 2.0,
    "frontend": 12.0,
    "checkout": 8.0,
    "product-catalog": 3.0,
    "recommendation": 6.0,
    "currency": 1.0,
    "ad": 4.0,
    "cart": 3.0,
    "shipping": 3.0,
    "quote": 5.0,
    "payment": 6.0,
    "email": 9.0,
    "product-reviews": 7.0,
    "image-provider": 2.0,
    "accounting": 4.0,
    "fraud-detection": 5.0,
}
TIMEOUT_MS = 5000.0


@dataclass
class MinuteStats:
    calls: int = 0
    errors: int = 0
    duration_ms: float = 0.0
    buckets: list[int] = field(default_factory=lambda: [0] * (len(BUCKETS_MS) + 1))

    def add(self, ms: float, error: bool) -> None:
        self.calls += 1
        self.errors += error
        self.duration_ms += ms
        for i, bound in enumerate(BUCKETS_MS):
            if ms <= bound:
                self.buckets[i] += 1
                break
        else:
            self.buckets[-1] += 1

    def quantile(self, q: float) -> float:
        """Upper bound of the bucket holding the q-quantile, as histogram_quantile would."""
        if not self.calls:
            return 0.0
        need = q * self.calls
        seen = 0
        for i, n in enumerate(self.buckets):
            seen += n
            if seen >= need:
                return BUCKETS_MS[i] if i < len(BUCKETS_MS) else TIMEOUT_MS * 2
        return TIMEOUT_MS * 2


#: (service, minute index) -> stats of its server spans
Stats = dict[tuple[str, int], MinuteStats]


class _Fields:
    """Pre-rendered TSV fields: the JSON attributes of a span depend only on who calls whom."""

    def __init__(self, incident: Incident) -> None:
        self.incident = incident
        self.resource: dict[tuple[str, str | None], str] = {}
        self.client: dict[tuple[str, str, bool], tuple[str, str]] = {}
        self.server: dict[tuple[str, bool], str] = {}

    def resource_attrs(self, svc: str, pod: str | None) -> str:
        key = (svc, pod)
        if key not in self.resource:
            phase_node = self.incident.pods[svc][0].node if svc in self.incident.pods else ""
            attrs = {
                "service.name": svc,
                "k8s.namespace.name": self.incident.namespace,
                "k8s.deployment.name": svc,
                "k8s.pod.name": pod or "",
                "k8s.node.name": phase_node,
            }
            self.resource[key] = json_field(attrs)
        return self.resource[key]

    def client_attrs(self, caller: Service, callee: Service, error: bool) -> tuple[str, str]:
        key = (caller.name, callee.name, error)
        if key not in self.client:
            if callee.protocol == "gRPC":
                name = callee.operation
                service, _, method = callee.operation.rpartition("/")
                attrs = {
                    "rpc.system": "grpc",
                    "rpc.service": service,
                    "rpc.method": method,
                    "rpc.grpc.status_code": 14 if error else 0,
                }
            elif callee.protocol == "HTTP":
                name = callee.operation.split(" ")[0] if " " in callee.operation else "GET"
                attrs = {
                    "http.request.method": name,
                    "url.full": f"http://{callee.name}:{callee.port}/",
                    "http.response.status_code": 503 if error else 200,
                }
            else:
                name = callee.operation
                attrs = {"db.system" if callee.name != "kafka" else "messaging.system": callee.name}
            attrs.update(
                {
                    "peer.service": callee.name,
                    "server.address": callee.name,
                    "server.port": callee.port,
                }
            )
            self.client[key] = (name, json_field(attrs))
        return self.client[key]

    def server_attrs(self, svc: Service, error: bool) -> str:
        key = (svc.name, error)
        if key not in self.server:
            if svc.protocol == "gRPC":
                attrs: dict[str, object] = {
                    "rpc.system": "grpc",
                    "rpc.grpc.status_code": 2 if error else 0,
                }
            else:
                attrs = {"http.response.status_code": 500 if error else 200}
            self.server[key] = json_field(attrs)
        return self.server[key]


class TraceGenerator:
    """Writes traces and logs for one incident, minute by minute, until the byte budget is met."""

    def __init__(self, incident: Incident, traces: TsvWriter, logs: TsvWriter, rng: random.Random):
        self.incident = incident
        self.traces = traces
        self.logs = logs
        self.rng = rng
        self.fields = _Fields(incident)
        self.stats: Stats = defaultdict(MinuteStats)
        self.topology = incident.topology
        self.services = {s.name: s for s in incident.topology.services}
        self._seconds: dict[int, str] = {}
        self.plan = incident.plan
        self.symptom = incident.plan.symptom
        self.onset_ns = _ns(incident.onset)
        self.degraded_ns = _ns(incident.noise.degraded_since)
        self._pod_cache: dict[tuple[str, int], str | None] = {}
        self._minute0 = _ns(incident.start) // 60_000_000_000

    # -- time and identity -------------------------------------------------------------------
    def _ts(self, ns: int) -> str:
        sec, frac = divmod(ns, 1_000_000_000)
        text = self._seconds.get(sec)
        if text is None:
            text = dt.datetime.fromtimestamp(sec, dt.UTC).strftime("%Y-%m-%d %H:%M:%S")
            if len(self._seconds) > 4096:
                self._seconds.clear()
            self._seconds[sec] = text
        return f"{text}.{frac:09d}"

    def _pod(self, svc: str, ns: int) -> str | None:
        minute = ns // 60_000_000_000
        key = (svc, minute)
        if key not in self._pod_cache:
            t = dt.datetime.fromtimestamp(ns / 1e9, dt.UTC)
            self._pod_cache[key] = (
                self.incident.phase(svc, t).name if svc in self.services else None
            )
        return self._pod_cache[key]

    def _span_id(self) -> str:
        return f"{self.rng.getrandbits(64):016x}"

    # -- generation ----------------------------------------------------------------------------
    def write_trace(self, flow: Flow, start_ns: int) -> None:
        trace_id = f"{self.rng.getrandbits(128):032x}"
        svc, children = flow.root
        self._server(trace_id, "", svc, children, start_ns, kind="Server", name=f"{flow.name}")

    def _server(
        self,
        trace_id: str,
        parent: str,
        svc_name: str,
        children: tuple,
        start_ns: int,
        kind: str,
        name: str | None = None,
        forced_error: str | None = None,
    ) -> tuple[int, str | None]:
        """One server (or consumer) span and its subtree; returns (duration ns, error message)."""
        rng = self.rng
        svc = self.services[svc_name]
        span_id = self._span_id()
        active = start_ns >= self.onset_ns
        self_ms = BASE_MS.get(svc_name, 3.0) * (0.5 + rng.random())
        error: str | None = forced_error
        sym = self.symptom
        if active and svc_name == sym.service and sym.origin == "server":
            if sym.effect == "latency":
                self_ms += sym.latency_ms * (0.8 + 0.4 * rng.random())
            elif sym.effect == "error":
                error = sym.message
        if svc_name == self.incident.noise.degraded_service and start_ns >= self.degraded_ns:
            self_ms += self.incident.noise.degraded_latency_ms * (0.7 + 0.6 * rng.random())
        cursor = start_ns + int(self_ms * 500_000)  # half the self time before the first call
        child_error: str | None = None
        if error is None:
            for child in children:
                dur, err = self._call(trace_id, span_id, svc, child, cursor, active)
                cursor += dur + rng.randint(50_000, 400_000)
                if err is not None and child[0] not in ("accounting", "fraud-detection"):
                    child_error = child_error or err
        duration = cursor - start_ns + int(self_ms * 500_000)
        if child_error is not None and error is None:
            error = (
                f"rpc error: code = Unavailable desc = {child_error}"
                if svc.protocol == "gRPC"
                else f"upstream error: {child_error}"
            )
        pod = self._pod(svc_name, start_ns)
        res = self.fields.resource_attrs(svc_name, pod)
        self.traces.row(
            self._ts(start_ns),
            trace_id,
            span_id,
            parent,
            name or svc.operation,
            kind,
            svc_name,
            res,
            self.fields.server_attrs(svc, error is not None),
            str(duration),
            "Error" if error else "Unset",
            error or "",
        )
        minute = start_ns // 60_000_000_000 - self._minute0
        self.stats[(svc_name, minute)].add(duration / 1e6, error is not None)
        if error is not None:
            self._log(start_ns + duration, trace_id, span_id, "ERROR", 17, svc_name, res, error)
        elif rng.random() < 0.3:
            self._log(
                start_ns + duration // 2,
                trace_id,
                span_id,
                "INFO",
                9,
                svc_name,
                res,
                f"{name or svc.operation} handled in {duration // 1_000_000} ms",
            )
        return duration, error

    def _call(
        self, trace_id: str, parent: str, caller: Service, child: tuple, start_ns: int, active: bool
    ) -> tuple[int, str | None]:
        """A client span of ``caller`` and, when the call gets through, the callee's subtree."""
        callee_name, grandchildren = child
        callee = self.services[callee_name]
        rng = self.rng
        span_id = self._span_id()
        sym = self.symptom
        error: str | None = None
        reached = True
        server_down = sym.origin == "server" and sym.effect == "unavailable"
        if active and server_down and callee_name == sym.service:
            error, reached = sym.message, False
        if active and sym.origin == "client" and caller.name == sym.service:
            error, reached = sym.message.format(callee=callee_name), False
        net_ns = rng.randint(200_000, 900_000)
        if not reached:
            assert error is not None
            timeout = "timeout" in error or "deadline" in error
            dur = int(TIMEOUT_MS * 1e6) if timeout else net_ns + rng.randint(100_000, 2_000_000)
        elif callee.backing:
            dur = net_ns + rng.randint(300_000, 3_000_000)
            if active and sym.effect == "error" and callee_name == sym.service:
                error = sym.message  # a datastore failing its operations answers with an error
            cursor = start_ns + dur
            for consumer in grandchildren:  # kafka consumers continue the trace asynchronously
                self._server(trace_id, span_id, consumer[0], consumer[1], cursor, kind="Consumer")
        else:
            sub, err = self._server(
                trace_id, span_id, callee_name, grandchildren, start_ns + net_ns // 2, "Server"
            )
            dur = sub + net_ns
            error = err
        kind = "Producer" if callee_name == "kafka" else "Client"
        name, attrs = self.fields.client_attrs(caller, callee, error is not None)
        self.traces.row(
            self._ts(start_ns),
            trace_id,
            span_id,
            parent,
            name,
            kind,
            caller.name,
            self.fields.resource_attrs(caller.name, self._pod(caller.name, start_ns)),
            attrs,
            str(dur),
            "Error" if error else "Unset",
            error or "",
        )
        return dur, error

    def _log(
        self,
        ns: int,
        trace_id: str,
        span_id: str,
        sev: str,
        num: int,
        svc: str,
        res: str,
        body: str,
    ) -> None:
        self.logs.row(
            self._ts(ns),
            trace_id,
            span_id,
            sev,
            str(num),
            svc,
            body.replace("\t", " ").replace("\n", " ").replace('"', "'"),
            res,
            "{}",
        )

    def write_startup_failures(self, message: str, every_s: int = 40) -> None:
        """Crash-looping containers log their last words on every restart."""
        inc = self.incident
        svc = inc.plan.target.name
        t = _ns(inc.onset)
        end = _ns(inc.end)
        while t < end:
            pod = self._pod(svc, t)
            res = self.fields.resource_attrs(svc, pod)
            self._log(t, "", "", "FATAL", 21, svc, res, message)
            t += every_s * 1_000_000_000

    def run(self, budget_bytes: int) -> None:
        """Spread traces over the window at the rate that fills ``budget_bytes``."""
        inc = self.incident
        flows = inc.topology.flows
        weights = [f.weight for f in flows]
        start, end = _ns(inc.start), _ns(inc.end)
        per_trace = self._calibrate(flows, weights)
        total = max(60, int(budget_bytes / per_trace))
        step = (end - start) / total
        rng = self.rng
        choices = rng.choices
        t = float(start)
        for _ in range(total):
            flow = choices(flows, weights)[0]
            self.write_trace(flow, int(t + rng.random() * step))
            t += step

    def _calibrate(self, flows: tuple[Flow, ...], weights: list[int]) -> float:
        """Average bytes per trace (traces + logs), measured on a throw-away sample."""
        sample_rng = random.Random(self.incident.seed ^ 0x5EED)
        probe = _CountingWriter()
        gen = TraceGenerator(self.incident, probe, probe, sample_rng)  # type: ignore[arg-type]  # the counting writer stands in for both TSV writers: it has the methods the generator calls
        mid = (_ns(self.incident.start) + _ns(self.incident.end)) // 2
        for i in range(200):
            gen.write_trace(sample_rng.choices(flows, weights)[0], mid + i * 1_000_000)
        return probe.bytes / 200


class _CountingWriter:
    def __init__(self) -> None:
        self.bytes = 0
        self.rows = 0

    def row(self, *fields: str) -> None:
        self.bytes += sum(len(f) for f in fields) + len(fields)
        self.rows += 1


def _ns(t: dt.datetime) -> int:
    return int(t.timestamp()) * 1_000_000_000 + t.microsecond * 1000
