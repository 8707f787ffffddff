"""``alerts/alerts_at_<time>.json``: what Prometheus' alert API returned each minute. Request
alerts are evaluated from the per-minute span statistics (error ratio, p95 latency) with a
one-minute ``for``; workload alerts follow the faulty pods; unrelated alerts fire throughout."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path

from sre.generator.incident import Incident
from sre.generator.traces import Stats

ERROR_RATIO = 0.05
LATENCY_P95_MS = 500.0


@dataclass(frozen=True)
class FiredAlert:
    """An alert that reached ``firing`` during the incident."""

    alertname: str
    labels: tuple[tuple[str, str], ...]
    active_at: dt.datetime

    @property
    def label_map(self) -> dict[str, str]:
        return dict(self.labels)


def _rfc(t: dt.datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _conditions(inc: Incident, stats: Stats, minute: int) -> list[tuple[str, dict[str, str], str]]:
    """(alertname, labels, description) true during ``minute``."""
    now = inc.start + dt.timedelta(minutes=minute)
    out: list[tuple[str, dict[str, str], str]] = [
        ("Watchdog", {"severity": "none", "namespace": "prometheus"}, "Alerting pipeline is up"),
    ]
    for svc in inc.topology.services:
        s = stats.get((svc.name, minute))
        if not s or not s.calls:
            continue
        labels = {"service_name": svc.name, "namespace": inc.namespace}
        if s.errors / s.calls > ERROR_RATIO:
            out.append(
                (
                    "RequestErrorRate",
                    {**labels, "severity": "critical"},
                    f"Error rate of {svc.name} is {100 * s.errors / s.calls:.0f}%",
                )
            )
        if s.quantile(0.95) > LATENCY_P95_MS:
            out.append(
                (
                    "RequestLatency",
                    {**labels, "severity": "warning"},
                    f"p95 latency of {svc.name} is above {LATENCY_P95_MS:.0f} ms",
                )
            )
    plan = inc.plan
    if plan.pod_alert and now >= inc.onset + dt.timedelta(minutes=1):
        phase = inc.pods[plan.target.name][-1]
        labels = {"namespace": inc.namespace, "severity": "warning"}
        if plan.pod_alert == "KubeNodeDiskPressure":
            labels = {"node": plan.node or "", "severity": "warning"}
        elif plan.pod_alert == "KubeDeploymentReplicasMismatch":
            labels["deployment"] = plan.target.name
            labels["service_name"] = plan.target.name
        else:
            labels["pod"] = phase.name or plan.target.name
            labels["service_name"] = plan.target.name
        out.append((plan.pod_alert, labels, plan.pod_effect))
    if minute >= 3:
        out.append(
            (
                "CPUThrottlingHigh",
                {
                    "namespace": "opentelemetry-collectors",
                    "pod": "otel-collector-agent-7xk2p",
                    "severity": "info",
                },
                "27% throttling of CPU in the collector agent",
            )
        )
    return out


def write_alerts(folder: Path, inc: Incident, stats: Stats) -> list[FiredAlert]:
    folder.mkdir(parents=True, exist_ok=True)
    minutes = int((inc.end - inc.start).total_seconds() // 60)
    since: dict[tuple[str, tuple], dt.datetime] = {}
    fired: dict[tuple[str, tuple], FiredAlert] = {}
    # both envelope shapes occur in the wild; the seed picks one so readers see each
    wrapped = inc.seed % 2 == 0
    for m in range(minutes):
        at = inc.start + dt.timedelta(minutes=m + 1)
        current = _conditions(inc, stats, m)
        alerts = []
        live = set()
        for name, labels, desc in current:
            key = (name, tuple(sorted(labels.items())))
            live.add(key)
            first = since.setdefault(key, at)
            state = (
                "firing"
                if at - first >= dt.timedelta(minutes=1) or name == "Watchdog"
                else "pending"
            )
            if state == "firing" and key not in fired:
                fired[key] = FiredAlert(name, key[1], first)
            alerts.append(
                {
                    "labels": {"alertname": name, **labels},
                    "annotations": {"description": desc, "summary": desc},
                    "state": state,
                    "activeAt": _rfc(first),
                    "value": "1e+00",
                }
            )
        for key in list(since):
            if key not in live:
                del since[key]
        doc: object = (
            {"status": "success", "data": {"alerts": alerts}} if wrapped else {"alerts": alerts}
        )
        name = f"alerts_at_{at:%Y-%m-%dT%H-%M-%S.%f}.json"
        (folder / name).write_text(json.dumps(doc, indent=1))
    return list(fired.values())
