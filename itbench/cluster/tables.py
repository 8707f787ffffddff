"""``Table`` responses for plain ``kubectl get``: the columns a real API server prints per kind."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import Any

Column = tuple[str, str, int, Callable[[dict[str, Any]], Any]]  # name, type, priority, cell


def _age(obj: dict[str, Any]) -> str:
    stamp = obj.get("metadata", {}).get("creationTimestamp")
    if not stamp:
        return "<unknown>"
    try:
        created = dt.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.UTC)
    except ValueError:
        return "<unknown>"
    seconds = max(0, int((dt.datetime.now(dt.UTC) - created).total_seconds()))
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def _status(obj: dict[str, Any]) -> dict[str, Any]:
    return obj.get("status") or {}


def _pod_ready(obj: dict[str, Any]) -> str:
    statuses = _status(obj).get("containerStatuses") or []
    total = len((obj.get("spec") or {}).get("containers") or []) or len(statuses)
    return f"{sum(1 for s in statuses if s.get('ready'))}/{total}"


def _ready_of(obj: dict[str, Any]) -> str:
    want = (obj.get("spec") or {}).get("replicas", 1)
    return f"{_status(obj).get('readyReplicas', 0)}/{want}"


NAME: Column = ("Name", "string", 0, lambda o: o["metadata"]["name"])
AGE: Column = ("Age", "string", 0, _age)

COLUMNS: dict[str, Sequence[Column]] = {
    "Pod": (
        NAME,
        ("Ready", "string", 0, _pod_ready),
        ("Status", "string", 0, lambda o: _status(o).get("phase", "Unknown")),
        (
            "Restarts",
            "integer",
            0,
            lambda o: sum(
                s.get("restartCount", 0) for s in _status(o).get("containerStatuses") or []
            ),
        ),
        AGE,
        ("IP", "string", 1, lambda o: _status(o).get("podIP", "<none>")),
        ("Node", "string", 1, lambda o: (o.get("spec") or {}).get("nodeName", "<none>")),
    ),
    "Deployment": (
        NAME,
        ("Ready", "string", 0, _ready_of),
        ("Up-to-date", "integer", 0, lambda o: _status(o).get("updatedReplicas", 0)),
        ("Available", "integer", 0, lambda o: _status(o).get("availableReplicas", 0)),
        AGE,
        (
            "Containers",
            "string",
            1,
            lambda o: ",".join(
                c.get("name", "")
                for c in ((o.get("spec") or {}).get("template") or {})
                .get("spec", {})
                .get("containers", [])
            ),
        ),
        (
            "Images",
            "string",
            1,
            lambda o: ",".join(
                c.get("image", "")
                for c in ((o.get("spec") or {}).get("template") or {})
                .get("spec", {})
                .get("containers", [])
            ),
        ),
    ),
    "ReplicaSet": (
        NAME,
        ("Desired", "integer", 0, lambda o: (o.get("spec") or {}).get("replicas", 1)),
        ("Current", "integer", 0, lambda o: _status(o).get("replicas", 0)),
        ("Ready", "integer", 0, lambda o: _status(o).get("readyReplicas", 0)),
        AGE,
    ),
    "StatefulSet": (NAME, ("Ready", "string", 0, _ready_of), AGE),
    "Namespace": (NAME, ("Status", "string", 0, lambda o: _status(o).get("phase", "Active")), AGE),
    "Service": (
        NAME,
        ("Type", "string", 0, lambda o: (o.get("spec") or {}).get("type", "ClusterIP")),
        ("Cluster-IP", "string", 0, lambda o: (o.get("spec") or {}).get("clusterIP", "<none>")),
        AGE,
    ),
    "ClusterPolicy": (
        NAME,
        ("Background", "boolean", 0, lambda o: (o.get("spec") or {}).get("background", True)),
        (
            "Validation Failure Action",
            "string",
            0,
            lambda o: (o.get("spec") or {}).get("validationFailureAction", "Audit"),
        ),
        AGE,
    ),
    "PolicyReport": (
        NAME,
        ("Kind", "string", 0, lambda o: (o.get("scope") or {}).get("kind", "")),
        ("Pass", "integer", 0, lambda o: (o.get("summary") or {}).get("pass", 0)),
        ("Fail", "integer", 0, lambda o: (o.get("summary") or {}).get("fail", 0)),
        ("Warn", "integer", 0, lambda o: (o.get("summary") or {}).get("warn", 0)),
        ("Error", "integer", 0, lambda o: (o.get("summary") or {}).get("error", 0)),
        ("Skip", "integer", 0, lambda o: (o.get("summary") or {}).get("skip", 0)),
        AGE,
    ),
}
COLUMNS["Policy"] = COLUMNS["ClusterPolicy"]
COLUMNS["ClusterPolicyReport"] = COLUMNS["PolicyReport"]


def table(
    kind: str, objects: Sequence[dict[str, Any]], resource_version: str, include_object: str
) -> dict[str, Any]:
    columns = COLUMNS.get(kind, (NAME, AGE))
    rows = []
    for obj in objects:
        if include_object == "None":
            embedded = None
        elif include_object == "Object":
            embedded = obj
        else:
            embedded = {
                "kind": "PartialObjectMetadata",
                "apiVersion": "meta.k8s.io/v1",
                "metadata": obj["metadata"],
            }
        rows.append({"cells": [cell(obj) for _, _, _, cell in columns], "object": embedded})
    return {
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": {"resourceVersion": resource_version},
        "columnDefinitions": [
            {
                "name": name,
                "type": kind_,
                "format": "name" if name == "Name" else "",
                "description": name,
                "priority": priority,
            }
            for name, kind_, priority, _ in columns
        ],
        "rows": rows,
    }
