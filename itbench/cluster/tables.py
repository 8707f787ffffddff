"""``Table`` responses for plain ``kubectl get``: the columns a real API server prints per kind.

Core declares the columns of the built-in kinds; a ``ClusterExtension`` declares its own kinds'.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Column:
    """One column of a ``Table`` response, as a CRD's ``additionalPrinterColumns`` declares it."""

    name: str
    #: OpenAPI type of the cells: ``string``, ``integer``, ``number``, ``boolean`` or ``date``.
    type: str
    cell: Callable[[dict[str, Any]], Any]
    #: 0: shown by plain ``kubectl get``; 1 and above: only with ``-o wide``.
    priority: int = 0


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


def _terminated_reason(term: dict[str, Any]) -> str:
    if term.get("reason"):
        return str(term["reason"])
    if term.get("signal"):
        return f"Signal:{term['signal']}"
    return f"ExitCode:{term.get('exitCode', 0)}"


def _pod_status(obj: dict[str, Any]) -> str:
    """The STATUS kubectl shows for a Pod (its printer's rules): an init container not done
    gives ``Init:<reason>`` or ``Init:i/n``; otherwise the last container waiting or terminated
    with a reason gives it (``CrashLoopBackOff``, ``ImagePullBackOff``, ``OOMKilled``), else the
    phase; ``Terminating`` once deletion began."""
    status = _status(obj)
    reason = str(status.get("reason") or status.get("phase") or "Unknown")
    inits = status.get("initContainerStatuses") or []
    total = len(_spec(obj).get("initContainers") or []) or len(inits)
    initializing = False
    for i, ctr in enumerate(inits):
        state = ctr.get("state") or {}
        term, wait = state.get("terminated"), state.get("waiting")
        if term is not None and term.get("exitCode", 0) == 0:
            continue
        initializing = True
        if term is not None:
            reason = "Init:" + _terminated_reason(term)
        elif wait and wait.get("reason") and wait.get("reason") != "PodInitializing":
            reason = f"Init:{wait['reason']}"
        else:
            reason = f"Init:{i}/{total}"
        break
    if not initializing:
        for ctr in reversed(status.get("containerStatuses") or []):
            state = ctr.get("state") or {}
            wait, term = state.get("waiting"), state.get("terminated")
            if wait and wait.get("reason"):
                reason = str(wait["reason"])
            elif term is not None:
                reason = _terminated_reason(term)
    if (obj.get("metadata") or {}).get("deletionTimestamp"):
        reason = "Terminating"
    return reason


def _pod_restarts(obj: dict[str, Any]) -> int:
    """RESTARTS as kubectl counts them: the containers', and the init containers' too."""
    status = _status(obj)
    return sum(
        int(s.get("restartCount", 0) or 0)
        for s in [*(status.get("initContainerStatuses") or []),
                  *(status.get("containerStatuses") or [])]
    )  # fmt: skip


def _ready_of(obj: dict[str, Any]) -> str:
    want = (obj.get("spec") or {}).get("replicas", 1)
    return f"{_status(obj).get('readyReplicas', 0)}/{want}"


def _spec(obj: dict[str, Any]) -> dict[str, Any]:
    return obj.get("spec") or {}


def _template_containers(obj: dict[str, Any]) -> list[dict[str, Any]]:
    containers: list[dict[str, Any]] = (
        (_spec(obj).get("template") or {}).get("spec", {}).get("containers", [])
    )
    return containers


def _node_info(obj: dict[str, Any]) -> dict[str, Any]:
    return _status(obj).get("nodeInfo") or {}


def _node_status(obj: dict[str, Any]) -> str:
    ready = [c for c in _status(obj).get("conditions") or [] if c.get("type") == "Ready"]
    return "Ready" if ready and ready[0].get("status") == "True" else "NotReady"


def _node_roles(obj: dict[str, Any]) -> str:
    prefix = "node-role.kubernetes.io/"
    labels = (obj.get("metadata") or {}).get("labels") or {}
    roles = sorted(k[len(prefix) :] for k in labels if k.startswith(prefix))
    return ",".join(roles) or "<none>"


def _node_ip(obj: dict[str, Any]) -> str:
    for address in _status(obj).get("addresses") or []:
        if address.get("type") == "InternalIP":
            return str(address.get("address", ""))
    return "<none>"


def _hpa_reference(obj: dict[str, Any]) -> str:
    ref = _spec(obj).get("scaleTargetRef") or {}
    return f"{ref.get('kind', '')}/{ref.get('name', '')}"


def _hpa_targets(obj: dict[str, Any]) -> str:
    """``cpu: 35%/70%`` per resource metric, as kubectl prints an autoscaling/v2 HPA."""
    current: dict[Any, Any] = {}
    for m in _status(obj).get("currentMetrics") or []:
        res = (m or {}).get("resource") or {}
        current[res.get("name")] = (res.get("current") or {}).get("averageUtilization")
    cells = []
    for m in _spec(obj).get("metrics") or []:
        res = (m or {}).get("resource") or {}
        target = (res.get("target") or {}).get("averageUtilization")
        if target is None:
            continue
        now = current.get(res.get("name"))
        shown = "<unknown>" if now is None else f"{now}%"
        cells.append(f"{res.get('name')}: {shown}/{target}%")
    return ", ".join(cells) or "<none>"


NAME = Column("Name", "string", lambda o: o["metadata"]["name"])
AGE = Column("Age", "string", _age)

#: Core's own kinds; a domain's kinds bring their columns in a ``ClusterExtension``.
BUILTIN_COLUMNS: Mapping[str, tuple[Column, ...]] = {
    "Pod": (
        NAME,
        Column("Ready", "string", _pod_ready),
        Column("Status", "string", _pod_status),
        Column("Restarts", "integer", _pod_restarts),
        AGE,
        Column("IP", "string", lambda o: _status(o).get("podIP", "<none>"), priority=1),
        Column("Node", "string", lambda o: _spec(o).get("nodeName", "<none>"), priority=1),
    ),
    "Deployment": (
        NAME,
        Column("Ready", "string", _ready_of),
        Column("Up-to-date", "integer", lambda o: _status(o).get("updatedReplicas", 0)),
        Column("Available", "integer", lambda o: _status(o).get("availableReplicas", 0)),
        AGE,
        Column(
            "Containers",
            "string",
            lambda o: ",".join(c.get("name", "") for c in _template_containers(o)),
            priority=1,
        ),
        Column(
            "Images",
            "string",
            lambda o: ",".join(c.get("image", "") for c in _template_containers(o)),
            priority=1,
        ),
    ),
    "ReplicaSet": (
        NAME,
        Column("Desired", "integer", lambda o: _spec(o).get("replicas", 1)),
        Column("Current", "integer", lambda o: _status(o).get("replicas", 0)),
        Column("Ready", "integer", lambda o: _status(o).get("readyReplicas", 0)),
        AGE,
    ),
    "StatefulSet": (NAME, Column("Ready", "string", _ready_of), AGE),
    "HorizontalPodAutoscaler": (
        NAME,
        Column("Reference", "string", _hpa_reference),
        Column("Targets", "string", _hpa_targets),
        Column("MinPods", "integer", lambda o: _spec(o).get("minReplicas", 1)),
        Column("MaxPods", "integer", lambda o: _spec(o).get("maxReplicas", 0)),
        Column("Replicas", "integer", lambda o: _status(o).get("currentReplicas", 0)),
        AGE,
    ),
    "Node": (
        NAME,
        Column("Status", "string", _node_status),
        Column("Roles", "string", _node_roles),
        AGE,
        Column("Version", "string", lambda o: _node_info(o).get("kubeletVersion", "")),
        Column("Internal-IP", "string", _node_ip, priority=1),
        Column("OS-Image", "string", lambda o: _node_info(o).get("osImage", ""), priority=1),
    ),
    "Namespace": (
        NAME,
        Column("Status", "string", lambda o: _status(o).get("phase", "Active")),
        AGE,
    ),
    "Service": (
        NAME,
        Column("Type", "string", lambda o: _spec(o).get("type", "ClusterIP")),
        Column("Cluster-IP", "string", lambda o: _spec(o).get("clusterIP", "<none>")),
        AGE,
    ),
}
#: A kind nobody declared columns for prints what ``kubectl get`` prints for any CRD.
DEFAULT_COLUMNS: tuple[Column, ...] = (NAME, AGE)


def _cell(column: Column, obj: dict[str, Any]) -> Any:
    # A domain's cell function meeting a malformed object must not fail the whole listing: the API
    # server leaves a cell it cannot compute empty, which kubectl prints as <none>.
    try:
        return column.cell(obj)
    except Exception:
        return None


def table(
    columns: Sequence[Column],
    objects: Sequence[dict[str, Any]],
    resource_version: str,
    include_object: str,
) -> dict[str, Any]:
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
        rows.append({"cells": [_cell(c, obj) for c in columns], "object": embedded})
    return {
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": {"resourceVersion": resource_version},
        "columnDefinitions": [
            {
                "name": c.name,
                "type": c.type,
                "format": "name" if c.name == "Name" else "",
                "description": c.name,
                "priority": c.priority,
            }
            for c in columns
        ],
        "rows": rows,
    }
