"""The ``scale`` subresource of the workloads that have one (Deployments, ReplicaSets,
StatefulSets, ReplicationControllers), as the API server serves it: an ``autoscaling/v1`` Scale
(``spec.replicas``, ``status.replicas`` and the label ``selector``) read and written in place of
the object, which is how ``kubectl scale`` works."""

from __future__ import annotations

import copy
from typing import Any

from itbench.cluster import patch as patches
from itbench.cluster.state import ClusterError

#: (group, plural) of the kinds with a scale subresource
SCALABLE = frozenset(
    {
        ("apps", "deployments"),
        ("apps", "replicasets"),
        ("apps", "statefulsets"),
        ("", "replicationcontrollers"),
    }
)


def _selector(obj: dict[str, Any]) -> str:
    selector = (obj.get("spec") or {}).get("selector") or {}
    labels = selector.get("matchLabels", selector) if isinstance(selector, dict) else {}
    return ",".join(f"{k}={v}" for k, v in sorted(labels.items()) if isinstance(v, str))


def scale_of(obj: dict[str, Any]) -> dict[str, Any]:
    meta = obj.get("metadata") or {}
    replicas = (obj.get("spec") or {}).get("replicas", 1)
    return {
        "apiVersion": "autoscaling/v1",
        "kind": "Scale",
        "metadata": {
            k: meta[k]
            for k in ("name", "namespace", "uid", "resourceVersion", "creationTimestamp")
            if k in meta
        },
        "spec": {"replicas": replicas},
        "status": {
            "replicas": (obj.get("status") or {}).get("replicas", replicas),
            "selector": _selector(obj),
        },
    }


def scaled(obj: dict[str, Any], body: Any, content_type: str) -> dict[str, Any]:
    """``obj`` with the replicas a PUT of a Scale or a patch of it asks for."""
    current = scale_of(obj)
    if content_type == patches.JSON_PATCH:
        wanted = patches.json_patch(current, body)
    elif content_type in (patches.MERGE, patches.STRATEGIC, patches.APPLY):
        wanted = patches.merge_patch(current, body, strategic=False)
    else:  # a PUT of a whole Scale
        wanted = body
    replicas = (
        ((wanted or {}).get("spec") or {}).get("replicas") if isinstance(wanted, dict) else None
    )
    if isinstance(replicas, bool) or not isinstance(replicas, int) or replicas < 0:
        raise ClusterError(
            422,
            "Invalid",
            f"Scale.autoscaling {current['metadata'].get('name', '')!r} is "
            f"invalid: spec.replicas: Invalid value: {replicas!r}: must be a non-negative integer",
        )
    updated = copy.deepcopy(obj)
    before = (updated.get("spec") or {}).get("replicas", 1)
    updated.setdefault("spec", {})["replicas"] = replicas
    # the emulated controllers are healthy: counts that matched the old size follow the new one
    # (a status that showed a problem, as an incident snapshot's may, is left as it was)
    status = updated.get("status")
    if isinstance(status, dict):
        for key in ("replicas", "readyReplicas", "availableReplicas", "updatedReplicas"):
            if status.get(key) == before:
                status[key] = replicas
    return updated
