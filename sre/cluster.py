"""The offline cluster over a snapshot: the latest observation of every object, served by core's
API server, with the snapshot's custom kinds (Chaos Mesh experiments, operators' resources) served
as extension types so ``kubectl get`` works on them too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from itbench.cluster.extensions import ClusterExtension, ResourceType

CHAOS_GROUP = "chaos-mesh.org"
#: the Chaos Mesh experiments ITBench injects faults with; their objects appear in snapshots
CHAOS_KINDS = (
    "NetworkChaos", "StressChaos", "PodChaos", "IOChaos", "DNSChaos", "HTTPChaos", "TimeChaos",
    "KernelChaos", "Schedule", "Workflow", "JVMChaos",
)  # fmt: skip


def _plural(kind: str) -> str:
    lower = kind.lower()
    if lower.endswith("chaos"):
        return lower  # Chaos Mesh's own plurals: networkchaos, stresschaos, ...
    if lower.endswith(("s", "x", "ch", "sh")):
        return lower + "es"
    if lower.endswith("y") and lower[-2:-1] not in "aeiou":
        return lower[:-1] + "ies"
    return lower + "s"


#: the service mesh's kinds the mesh scenarios install or inject (Istio, Gateway API)
MESH_TYPES = (
    ResourceType("security.istio.io", "v1", "PeerAuthentication", "peerauthentications", True,
                 ("pa",), ("istio-io", "security-istio-io"), ("v1beta1",)),
    ResourceType("security.istio.io", "v1", "AuthorizationPolicy", "authorizationpolicies", True,
                 ("ap",), ("istio-io", "security-istio-io"), ("v1beta1",)),
    ResourceType("gateway.networking.k8s.io", "v1", "Gateway", "gateways", True, ("gtw",),
                 ("gateway-api",)),
)  # fmt: skip


def sre_extension() -> ClusterExtension:
    """The domain's types: Chaos Mesh experiments (namespaced, ``chaos-mesh.org/v1alpha1``) and
    the mesh's policies and Gateways."""
    return ClusterExtension(
        name="sre",
        types=tuple(
            ResourceType(
                CHAOS_GROUP, "v1alpha1", kind, _plural(kind), True, categories=("chaos-mesh",)
            )
            for kind in CHAOS_KINDS
        )
        + MESH_TYPES,
    )


def latest_objects(snapshot: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The last observation of each (namespace, kind, name) in the snapshot's objects file, and
    the warnings (skipped rows) that came with reading it."""
    # DuckDB only here: every cluster any domain starts asks this module for its types
    from sre.snapshot import SourceKind, open_source
    from sre.snapshot.layout import SnapshotLayout, require_file

    path = require_file(SnapshotLayout(snapshot).objects, "the objects file")
    src = open_source(path, SourceKind.OBJECTS)
    rows = (
        src.con.cursor()
        .execute(
            "SELECT arg_max(body, (ts, version)) FROM data GROUP BY namespace, kind, name ORDER BY 1"
        )
        .fetchall()
    )
    objects = []
    for (body,) in rows:
        obj = json.loads(body)
        if isinstance(obj.get("metadata"), dict) and obj.get("apiVersion"):
            # the API server assigns its own bookkeeping; stale values would only confuse it
            for key in ("resourceVersion", "managedFields"):
                obj["metadata"].pop(key, None)
            objects.append(obj)
    return objects, src.warnings()


def snapshot_extension(
    objects: list[dict[str, Any]], served: set[tuple[str, str]]
) -> ClusterExtension:
    """Types for the kinds in ``objects`` that no loaded extension or core serves, so no object
    of the snapshot is turned away."""
    seen: dict[tuple[str, str], ResourceType] = {}
    for obj in objects:
        group, _, version = obj["apiVersion"].rpartition("/")
        key = (group, obj.get("kind", ""))
        if not key[1] or key in served or key in seen:
            continue
        seen[key] = ResourceType(
            group, version, key[1], _plural(key[1]), bool(obj["metadata"].get("namespace"))
        )
    return ClusterExtension(name="sre-snapshot", types=tuple(seen.values()))
