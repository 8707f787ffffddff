"""The diagnosis snapshot of a live trial, read from the cluster and Prometheus instead of
generated: the agent's workspace holds what the cluster shows, in the layout the SRE tools read
(``../shared/reference/itbench-formats.md`` §3).

Two observations, one before the injection and one once the fault's alerts fire: each writes
the namespaces' objects (``kubectl get -o json`` of the kinds the tools read) as rows of
``k8s_objects_raw.tsv`` (so a spec-change analysis sees the fault's change between them), the
Kubernetes events as rows of ``k8s_events_raw.tsv``, and Prometheus' alerts as
``alerts/alerts_at_<time>.json``. Metrics, traces and logs are not collected (they live in the
cluster's telemetry stores, which live mode is not given): their files are absent, and
``live_snapshot.json`` says so, with every kind that could not be read.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from itbench.fsutil import atomic_write_json
from sre.generator.tsv import LOG_COLUMNS, clickhouse_time, json_field
from sre.live.kube import LiveKubectl
from sre.live.prometheus import Prometheus
from sre.snapshot.layout import ALERTS, EVENTS, LOGS, METRICS, OBJECTS, TRACES

METADATA_FILE = "live_snapshot.json"
#: namespaced kinds the tools read (objects, spec changes, topology), as kubectl names them
NAMESPACED = ("pods", "deployments", "replicasets", "statefulsets", "daemonsets", "services",
              "endpoints", "configmaps", "networkpolicies.networking.k8s.io", "resourcequotas",
              "horizontalpodautoscalers")  # fmt: skip
CLUSTER_WIDE = ("nodes",)
#: the generator's observations a live trial replaces (the workspace's copy of the scenario)
_GENERATED = (ALERTS, METRICS, EVENTS, OBJECTS, LOGS, TRACES)
NOT_COLLECTED = {
    "metrics": "live mode reads no metrics store (Prometheus is asked for its alerts only)",
    "traces": "live mode is given no trace store (the demo's Jaeger/ClickHouse)",
    "logs": "live mode is given no log store (the demo's OpenSearch/ClickHouse)",
}


def _row(at: dt.datetime, body: dict[str, Any], namespace: str, resource: str) -> str:
    """One OTel ClickHouse log row, as the exporter writes it (Body: the object's JSON)."""
    attributes = {"k8s.resource.name": resource}
    if resource == "events":
        attributes["event.domain"] = "k8s"
    resource_attributes = {"k8s.namespace.name": namespace}
    return "\t".join((clickhouse_time(at), "", "", "", "0", "", json_field(body),
                      json_field(resource_attributes), json_field(attributes)))  # fmt: skip


@dataclass
class LiveSnapshot:
    """Observations of one trial's namespaces, written into its workspace as they are made."""

    kubectl: LiveKubectl
    prometheus: Prometheus | None
    namespaces: tuple[str, ...]
    workspace: Path
    #: chaos experiments and other kinds the fault creates (read where they live)
    extra_kinds: tuple[str, ...] = ()
    observed_at: list[str] = field(default_factory=list)
    unreadable: dict[str, str] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    _seen_events: set[str] = field(default_factory=set)

    def clear(self) -> None:
        """Remove the generator's observations from the workspace: none of it is the cluster's."""
        for name in _GENERATED:
            path = self.workspace / name
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            elif path.exists() or path.is_symlink():
                path.unlink()
        (self.workspace / ALERTS).mkdir()
        for name in (OBJECTS, EVENTS):
            (self.workspace / name).write_text("\t".join(LOG_COLUMNS) + "\n", encoding="utf-8")

    def observe(self) -> None:
        at = dt.datetime.now(dt.UTC)
        self.observed_at.append(at.isoformat())
        objects: list[str] = []
        events: list[str] = []
        kinds = [(k, ns) for ns in self.namespaces for k in (*NAMESPACED, *self.extra_kinds)]
        kinds += [(k, "") for k in CLUSTER_WIDE]
        for kind, namespace in kinds:
            for obj in self._list(kind, namespace):
                ns = str((obj.get("metadata") or {}).get("namespace") or namespace)
                objects.append(_row(at, obj, ns, kind.split(".")[0]))
                self.counts[kind] = self.counts.get(kind, 0) + 1
        for namespace in self.namespaces:
            for event in self._list("events", namespace):
                meta = event.get("metadata") or {}
                # an event seen again is the same event, counted on (MODIFIED)
                key = f"{meta.get('uid')}:{event.get('count')}"
                if key in self._seen_events:
                    continue
                change = "MODIFIED" if str(meta.get("uid")) in {
                    k.split(":")[0] for k in self._seen_events
                } else "ADDED"  # fmt: skip
                self._seen_events.add(key)
                when = _event_time(event) or at
                events.append(_row(when, {"object": event, "type": change}, namespace, "events"))
                self.counts["events"] = self.counts.get("events", 0) + 1
        _append(self.workspace / OBJECTS, objects)
        _append(self.workspace / EVENTS, events)
        if self.prometheus is not None:
            alerts = self.prometheus.alert_list()
            doc = {"status": "success", "data": {"alerts": alerts}}
            name = f"alerts_at_{at:%Y-%m-%dT%H-%M-%S.%f}.json"
            (self.workspace / ALERTS / name).write_text(json.dumps(doc, indent=1), "utf-8")
            self.counts["alerts"] = self.counts.get("alerts", 0) + len(alerts)

    def _list(self, kind: str, namespace: str) -> list[dict[str, Any]]:
        args = ["get", kind, "-o", "json"] + (["-n", namespace] if namespace else [])
        done = self.kubectl(*args)
        if done.code != 0:
            # a kind the cluster does not serve (no Chaos Mesh, no autoscaling API): noted
            self.unreadable[f"{kind} {namespace}".strip()] = done.stderr.splitlines()[-1:][0] \
                if done.stderr else f"exit {done.code}"  # fmt: skip
            return []
        try:
            items = json.loads(done.stdout).get("items") or []
        except (ValueError, AttributeError):
            self.unreadable[f"{kind} {namespace}".strip()] = "unreadable answer"
            return []
        return [i for i in items if isinstance(i, dict)]

    def metadata(self) -> dict[str, Any]:
        return {
            "source": "live cluster",
            "namespaces": list(self.namespaces),
            "observed_at": list(self.observed_at),
            "collected": dict(sorted(self.counts.items())),
            "alerts": "Prometheus /api/v1/alerts"
            if self.prometheus
            else "not collected (no --prometheus)",
            "not_collected": dict(NOT_COLLECTED),
            "unreadable": dict(sorted(self.unreadable.items())),
        }

    def finish(self) -> dict[str, Any]:
        doc = self.metadata()
        atomic_write_json(self.workspace / METADATA_FILE, doc)
        return doc


def _event_time(event: dict[str, Any]) -> dt.datetime | None:
    for key in ("lastTimestamp", "eventTime", "firstTimestamp"):
        value = event.get(key)
        if isinstance(value, str) and value:
            try:
                return dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
            except ValueError:
                continue
    return None


def _append(path: Path, rows: Iterable[str]) -> None:
    lines = list(rows)
    if lines:
        with path.open("a", encoding="utf-8", newline="") as handle:
            handle.write("\n".join(lines) + "\n")
