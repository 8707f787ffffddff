"""A node short of memory, disk or process ids: the kubelet reports the condition
(``MemoryPressure``, ``DiskPressure``, ``PIDPressure``), taints the node and evicts pods
(``Evicted``, "The node was low on resource: memory"). The evicted applications fail, but the
fault is the node's: it is named (``Node/<name>``, cluster-scoped), with the applications it
evicted. Read from the Node objects and the evicted pods when the objects hold them, else from
the Warning events (``EvictionThresholdMet`` on the node, ``Evicted`` on the pods)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from sre.agents.baseline.evidence import INFRA_NAMESPACES, Evidence, FailingState, app_of
from sre.agents.baseline.states.objects import ObjectView, meta, pod_app

PRESSURE_CONDITIONS = ("MemoryPressure", "DiskPressure", "PIDPressure")
PRESSURE_TAINTS = {
    "node.kubernetes.io/memory-pressure": "MemoryPressure",
    "node.kubernetes.io/disk-pressure": "DiskPressure",
    "node.kubernetes.io/pid-pressure": "PIDPressure",
}
#: Warning (or Normal) reasons the kubelet and node-problem-detector record on a node under
#: pressure
NODE_REASONS = frozenset(
    {"EvictionThresholdMet", "NodeHasInsufficientMemory", "NodeHasDiskPressure",
     "NodeHasInsufficientPID", "SystemOOM", "OOMKilling", "FreeDiskSpaceFailed"}
)  # fmt: skip


#: the kubelet's messages for a pod evicted for exceeding its own limits (ephemeral storage of a
#: container, of the pod, of an emptyDir volume): the pod's spec is at fault, not its node
_OWN_LIMIT = re.compile(
    r"exceeds the total limit of containers|exceeded its local ephemeral storage limit"
    r"|Usage of EmptyDir volume .* exceeds the limit",
    re.IGNORECASE,
)


def evicted(pod: dict[str, Any]) -> bool:
    status = pod.get("status") or {}
    return status.get("reason") == "Evicted"


def over_own_limit(message: str) -> bool:
    """Whether an eviction's message says the pod went over its own limits."""
    return bool(_OWN_LIMIT.search(message or ""))


def _evicted_for_node(pod: dict[str, Any]) -> bool:
    return evicted(pod) and not over_own_limit(str((pod.get("status") or {}).get("message") or ""))


def find(view: ObjectView) -> Iterable[FailingState]:
    pressured: dict[str, tuple[Any, list[str]]] = {}
    for ts, node in view.kind("Node"):
        _, name, _ = meta(node)
        found = [
            str(c.get("type"))
            for c in (node.get("status") or {}).get("conditions") or []
            if isinstance(c, dict) and c.get("type") in PRESSURE_CONDITIONS
            and str(c.get("status")) == "True"
        ]  # fmt: skip
        found += [
            PRESSURE_TAINTS[t["key"]]
            for t in (node.get("spec") or {}).get("taints") or []
            if isinstance(t, dict) and t.get("key") in PRESSURE_TAINTS
        ]
        if found:
            pressured[name] = (ts, sorted(set(found)))
    hit: dict[str, dict[str, str]] = {}
    for ts, pod in view.work.pods:
        on = str((pod.get("spec") or {}).get("nodeName") or "")
        if evicted(pod) and not _evicted_for_node(pod):
            continue  # over its own limits (``pod_failures``)
        if not on or not (evicted(pod) or on in pressured):
            continue
        if not evicted(pod) and _ready(pod):
            continue
        status = pod.get("status") or {}
        why = status.get("message") or status.get("reason") or "not ready"
        hit.setdefault(on, {}).setdefault(pod_app(pod), f"pod {meta(pod)[1]}: {why}")
        if on not in pressured and evicted(pod):
            pressured[on] = (ts, [])
    for on, (ts, conditions) in sorted(pressured.items()):
        apps = hit.get(on) or {}
        said = f"node {on}" + (f" reports {', '.join(conditions)}" if conditions else "")
        for app, what in sorted(apps.items()) or [("", "")]:
            yield FailingState(
                "", "Node", on, app, said + (f"; {what}" if what else ""),
                3.0 if conditions else 2.5, ts, needs_blame=True,
            )  # fmt: skip


def _ready(pod: dict[str, Any]) -> bool:
    status = pod.get("status") or {}
    if status.get("phase") not in (None, "Running"):
        return False
    return all(c.get("ready", True) for c in status.get("containerStatuses") or [])


def from_events(evidence: Evidence, states: Iterable[FailingState] = ()) -> list[FailingState]:
    """Node states from the events: a node with pressure events (or a pressure condition the
    objects show, with no evicted pod among them) and pods evicted in the application's
    namespaces. Nodes already named with an application from the objects are left out."""
    nodes = [s for s in states if s.kind == "Node"]
    known = {s.name for s in nodes if s.app}
    pressured = sorted(
        (
            {w.name for w in evidence.warnings if w.kind == "Node" and w.reason in NODE_REASONS}
            | {s.name for s in nodes if not s.app}
        )
        - known
    )
    apps = sorted(
        {
            app_of("Pod", w.name)
            for w in evidence.warnings
            if w.kind == "Pod"
            and w.reason == "Evicted"
            and w.namespace not in INFRA_NAMESPACES
            and not over_own_limit(w.message)
        }
    )
    out = []
    for node in pressured:
        reasons = sorted({w.reason for w in evidence.warnings if w.name == node})
        for app in apps or [""]:
            out.append(
                FailingState(
                    "",
                    "Node",
                    node,
                    app,
                    f"node {node}: {', '.join(reasons)}"
                    + (f"; pods of {app} evicted" if app else ""),
                    2.5,
                    needs_blame=True,
                )  # fmt: skip
            )
    return out
