"""``metrics/pod_<pod>.tsv`` and ``metrics/service_<svc>.tsv``: container resource series per pod,
and request rate, error ratio and latency per service computed from the generated spans (the
span-metrics connector's view), so metrics agree with the traces."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from sre.generator.incident import Incident
from sre.generator.traces import BUCKETS_MS, Stats
from sre.generator.tsv import METRIC_COLUMNS, TsvWriter, field

_MEMORY_MB = 180.0


def _tags(**labels: object) -> str:
    return field(json.dumps(labels, sort_keys=True, separators=(",", ":")))


def _stamp(t: dt.datetime) -> str:
    return t.strftime("%Y-%m-%d %H:%M:%S")


def write_pod_metrics(folder: Path, inc: Incident, rng_jitter) -> int:
    """One file per pod that ever ran; returns the number of files."""
    plan = inc.plan
    files = 0
    step = dt.timedelta(seconds=inc.profile.metric_every_s)
    for svc, phases in inc.pods.items():
        for i, phase in enumerate(phases):
            if phase.name is None or phase.state == "Pending":
                continue  # no container, no cAdvisor series
            until = phases[i + 1].since if i + 1 < len(phases) else inc.end
            faulty = (
                svc == plan.target.name and i == len(phases) - 1 and phase.since >= inc.fault_time
            )
            stressed = svc == plan.target.name and (plan.cpu_factor != 1.0 or plan.memory_mb)
            tags = _tags(namespace=inc.namespace, pod=phase.name, container=svc)
            cpu_total = 0.0
            with TsvWriter(folder / f"pod_{phase.name}.tsv", METRIC_COLUMNS) as out:
                t = phase.since
                while t < until:
                    after = t >= inc.onset
                    cpu_rate = 0.05 * (0.7 + 0.6 * rng_jitter())
                    mem = _MEMORY_MB * (0.9 + 0.2 * rng_jitter())
                    if stressed and after and (faulty or not plan.new_pods):
                        cpu_rate *= plan.cpu_factor
                        if plan.memory_mb:
                            mem = plan.memory_mb * (0.9 + 0.15 * rng_jitter())
                    cpu_total += cpu_rate * step.total_seconds()
                    restarts = int(phase.restarts_per_min * (t - phase.since).total_seconds() / 60)
                    ready = 1 if phase.state == "Running" else 0
                    ts = _stamp(t)
                    for name, value in (
                        ("container_cpu_usage_seconds_total", f"{cpu_total:.4f}"),
                        ("container_memory_working_set_bytes", f"{mem * 1048576:.0f}"),
                        ("kube_pod_container_status_restarts_total", str(restarts)),
                        ("kube_pod_status_ready", str(ready)),
                    ):
                        out.row(name, ts, value, tags)
                    t += step
            files += 1
    return files


def write_service_metrics(folder: Path, inc: Incident, stats: Stats) -> int:
    minutes = int((inc.end - inc.start).total_seconds() // 60)
    files = 0
    for svc in inc.topology.services:
        if svc.backing or svc.name == "load-generator":
            continue
        calls_ok = calls_err = 0
        cumulative = [0] * (len(BUCKETS_MS) + 1)
        with TsvWriter(folder / f"service_{svc.name}.tsv", METRIC_COLUMNS) as out:
            for m in range(minutes):
                s = stats.get((svc.name, m))
                ts = _stamp(inc.start + dt.timedelta(minutes=m + 1))
                calls = s.calls if s else 0
                errors = s.errors if s else 0
                calls_ok += calls - errors
                calls_err += errors
                base = {"namespace": inc.namespace, "service_name": svc.name}
                out.row(
                    "traces_span_metrics_calls_total",
                    ts,
                    str(calls_ok),
                    _tags(**base, status_code="STATUS_CODE_UNSET"),
                )
                out.row(
                    "traces_span_metrics_calls_total",
                    ts,
                    str(calls_err),
                    _tags(**base, status_code="STATUS_CODE_ERROR"),
                )
                out.row("service:request_rate:rate1m", ts, f"{calls / 60:.4f}", _tags(**base))
                ratio = errors / calls if calls else 0.0
                out.row("service:error_ratio:rate1m", ts, f"{ratio:.4f}", _tags(**base))
                p95 = s.quantile(0.95) if s else 0.0
                out.row("service:latency_p95_ms:1m", ts, f"{p95:.1f}", _tags(**base))
                if s:
                    running = 0
                    for i, n in enumerate(s.buckets):
                        cumulative[i] += n
                    for i, bound in enumerate((*BUCKETS_MS, float("inf"))):
                        running += cumulative[i]
                        le = "+Inf" if bound == float("inf") else f"{bound:g}"
                        out.row(
                            "traces_span_metrics_duration_milliseconds_bucket",
                            ts,
                            str(running),
                            _tags(**base, le=le),
                        )
        files += 1
    return files
