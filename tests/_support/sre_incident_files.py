"""A small incident snapshot written to disk for the baseline's end-to-end tests: objects and
events as v0.2 TSV rows (a body per row, watch events or plain objects), alerts as one
Prometheus ``/api/v1/alerts`` answer. Only what a test states is written; the baseline reads it
through the same tools as any snapshot. Also the pieces the baseline's tests state incidents
with, on disk or not: the incident's clock (``clock``), a labelled ``deployment``."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

HEADER = "Timestamp\tSeverityText\tBody\tResourceAttributes\n"


def clock(start: datetime) -> Callable[[float], datetime]:
    """The incident's clock: a time given as minutes from ``start`` (negative ones before it), so
    that a test states when each thing happened as a number of minutes."""

    def at(minutes: float) -> datetime:
        return start + timedelta(minutes=minutes)

    return at


def stamp(at: datetime) -> str:
    return at.strftime("%Y-%m-%dT%H:%M:%SZ")


def write_rows(path: Path, rows: list[tuple[datetime, dict[str, Any]]]) -> Path:
    """One TSV row per (time, body), in the order given."""
    lines = [f"{stamp(at)}\t\t{json.dumps(body)}\t{{}}\n" for at, body in rows]
    path.write_text(HEADER + "".join(lines))
    return path


def watch(kind: str, obj: dict[str, Any]) -> dict[str, Any]:
    """A watch event (``ADDED``, ``MODIFIED``, ``DELETED``) carrying ``obj``."""
    return {"type": kind, "object": obj}


def warning(at: datetime, namespace: str, kind: str, name: str, reason: str, message: str,
            count: int = 1) -> tuple[datetime, dict[str, Any]]:  # fmt: skip
    """A Warning event on an object, as the events file holds it."""
    event = {
        "kind": "Event", "apiVersion": "v1", "type": "Warning", "reason": reason,
        "message": message, "count": count, "lastTimestamp": stamp(at),
        "metadata": {"name": f"{name}.{reason.lower()}", "namespace": namespace},
        "involvedObject": {"kind": kind, "name": name, "namespace": namespace},
    }  # fmt: skip
    return at, event


def deployment(namespace: str, name: str, pod_spec: dict[str, Any], replicas: int = 1,
               label: str = "app.kubernetes.io/name", **metadata: Any) -> dict[str, Any]:  # fmt: skip
    """A Deployment labelled ``label: name``, its selector and its pods' template carrying the
    same label (each a dict of its own, so a test may edit one); ``metadata`` adds fields such as
    ``resourceVersion`` or ``managedFields`` between the namespace and the labels."""
    return {
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": name, "namespace": namespace, **metadata, "labels": {label: name}},
        "spec": {"replicas": replicas, "selector": {"matchLabels": {label: name}},
                 "template": {"metadata": {"labels": {label: name}}, "spec": pod_spec}},
    }  # fmt: skip


def firing(namespace: str, since: datetime, alertname: str, **labels: str) -> dict[str, Any]:
    return {
        "labels": {"alertname": alertname, "namespace": namespace, **labels},
        "annotations": {}, "state": "firing", "activeAt": stamp(since),
    }  # fmt: skip


def write_incident(
    root: Path,
    objects: list[tuple[datetime, dict[str, Any]]],
    events: list[tuple[datetime, dict[str, Any]]],
    alerts: list[dict[str, Any]],
    alerts_at: datetime,
) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    write_rows(root / "k8s_objects_raw.tsv", objects)
    write_rows(root / "k8s_events_raw.tsv", events)
    (root / "alerts").mkdir(exist_ok=True)
    answer = {"status": "success", "data": {"alerts": alerts}}
    (root / "alerts" / f"alerts_at_{alerts_at:%Y-%m-%dT%H-%M-%S}.json").write_text(
        json.dumps(answer)
    )
    return root
