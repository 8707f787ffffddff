"""The Kubernetes API schema as the baseline reads it: every field name of every served kind and
the places it occurs, from ``itbench/cluster/proto_schema.json`` (every kind's message, every
message's fields with their JSON names and types, generated from k8s.io/api).

General knowledge, not per control, as :mod:`ciso.agents.baseline.k8s_api` is for resources and
verbs: the schema field reader (``knowledge/k8s_schema_fields``) finds a field a text names here.
A pod spec's and a container's fields are indexed once at their own level, not under every kind
that carries them; :data:`POD_SPEC_PATHS` and :data:`CONTAINER_LISTS` say where those are.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from ciso.agents.baseline.intent import FieldLevel
from itbench.cluster.protobuf import SCHEMA_PATH

_POD_SPEC = "k8s.io.api.core.v1.PodSpec"
#: the messages of a container (an ephemeral container spells its fields in an inline message)
_CONTAINERS = (
    "k8s.io.api.core.v1.Container",
    "k8s.io.api.core.v1.EphemeralContainer",
    "k8s.io.api.core.v1.EphemeralContainerCommon",
)
QUANTITY = "k8s.io.apimachinery.pkg.api.resource.Quantity"
INT_OR_STRING = "k8s.io.apimachinery.pkg.util.intstr.IntOrString"
INTEGERS = ("int32", "int64")
#: below these the schema describes itself or the cluster's bookkeeping, never a setting
_SKIPPED = ("metadata", "status")
#: where each pod-carrying kind keeps its pod spec (the quantity check names full paths)
POD_SPEC_PATHS: dict[str, tuple[str, ...]] = {
    "Pod": ("spec",),
    "Deployment": ("spec", "template", "spec"),
    "StatefulSet": ("spec", "template", "spec"),
    "DaemonSet": ("spec", "template", "spec"),
    "ReplicaSet": ("spec", "template", "spec"),
    "Job": ("spec", "template", "spec"),
    "CronJob": ("spec", "jobTemplate", "spec", "template", "spec"),
}
CONTAINER_LISTS = ("containers", "initContainers", "ephemeralContainers")


#: The values of the enumerated string fields of list items, as the API documents them (the
#: schema gives their type, string, not their values): a text names a value ("a NoExecute
#: taint", "UDP ports") to say which items it judges.
ITEM_ENUMS: dict[str, dict[str, tuple[str, ...]]] = {
    "k8s.io.api.core.v1.Toleration": {
        "effect": ("NoSchedule", "PreferNoSchedule", "NoExecute"),
        "operator": ("Exists", "Equal"),
    },
    "k8s.io.api.core.v1.ContainerPort": {"protocol": ("TCP", "UDP", "SCTP")},
    "k8s.io.api.core.v1.ServicePort": {"protocol": ("TCP", "UDP", "SCTP")},
    "k8s.io.api.core.v1.Taint": {"effect": ("NoSchedule", "PreferNoSchedule", "NoExecute")},
}


#: The values of enumerated string fields, as the API documents them (the schema types them as
#: string): a text may name the value in words ("parallel pod management is not allowed")
#: rather than spell it.
FIELD_ENUMS: dict[str, tuple[str, ...]] = {
    "podManagementPolicy": ("OrderedReady", "Parallel"),
    "concurrencyPolicy": ("Allow", "Forbid", "Replace"),
    "imagePullPolicy": ("Always", "IfNotPresent", "Never"),
    "restartPolicy": ("Always", "OnFailure", "Never"),
    "externalTrafficPolicy": ("Cluster", "Local"),
    "internalTrafficPolicy": ("Cluster", "Local"),
    "volumeMode": ("Filesystem", "Block"),
    "persistentVolumeReclaimPolicy": ("Retain", "Delete", "Recycle"),
    "volumeBindingMode": ("Immediate", "WaitForFirstConsumer"),
    "terminationMessagePolicy": ("File", "FallbackToLogsOnError"),
    "preemptionPolicy": ("PreemptLowerPriority", "Never"),
    "pathType": ("Exact", "Prefix", "ImplementationSpecific"),
}


#: The values of enumerated fields whose name alone is ambiguous (``type`` is everywhere),
#: keyed by the path's last two steps, with the API's default when the field is left out, and
#: the word a text names the parent by ("the Recreate rollout strategy").
PATH_ENUMS: dict[tuple[str, str], tuple[tuple[str, ...], str, str]] = {
    ("strategy", "type"): (("Recreate", "RollingUpdate"), "RollingUpdate", "strategy"),
    ("updateStrategy", "type"): (("RollingUpdate", "OnDelete"), "RollingUpdate", "strategy"),
}


#: The value the API gives a list field a manifest leaves out, as documented (the schema does
#: not carry defaults): a NetworkPolicy without ``policyTypes`` governs Ingress (and Egress only
#: when it has egress rules, which the API server then writes into the object).
LIST_DEFAULTS: dict[str, tuple[str, ...]] = {"policyTypes": ("Ingress",)}


@dataclass(frozen=True)
class Place:
    """One place a field occurs: below an object of ``kind`` (level ``object``), below every
    pod spec (``pod``) or below every container (``container``); ``*`` steps into list items."""

    level: FieldLevel
    kind: str
    path: tuple[str, ...]
    type: str
    #: the type of a map's values (``Quantity`` for a ResourceList): a key the text names under
    #: the map (``resources.limits.ephemeral-storage``) holds one
    values: str = ""

    @property
    def name(self) -> str:
        """The field's own name (a list field's, not the ``*`` of its items)."""
        return self.path[-2] if self.path[-1] == "*" else self.path[-1]

    @property
    def parent(self) -> tuple[str, ...]:
        """The path of the place it sits in: its own without its name (and the ``*``)."""
        return self.path[:-2] if self.path[-1] == "*" else self.path[:-1]


@dataclass(frozen=True)
class SchemaIndex:
    """Every field name of the schema and the places it occurs, and the kinds it holds."""

    places: dict[str, tuple[Place, ...]]
    kinds: tuple[str, ...]


def _walk(
    messages: dict[str, Any], message: str, level: FieldLevel, kind: str,
    path: tuple[str, ...], seen: tuple[str, ...], out: dict[str, list[Place]],
) -> None:  # fmt: skip
    """Record every field below ``message``; a pod spec and a container start their own level
    (indexed once, not under every kind that carries them)."""
    for spec in messages.get(message, {}).get("fields", {}).values():
        typ = spec.get("type") or "map"
        if spec.get("inline"):
            _walk(messages, typ, level, kind, path, seen, out)
            continue
        name = spec["json"]
        if not path and name in _SKIPPED and level == "object":
            continue
        step = (name, "*") if spec.get("repeated") else (name,)
        if level != "container" and typ in _CONTAINERS:
            continue  # the container level holds them
        if level == "object" and typ == _POD_SPEC:
            continue  # the pod level holds them
        values = spec["map"][1] if "map" in spec else ""
        out.setdefault(name, []).append(Place(level, kind, (*path, *step), typ, values))
        if typ in messages and typ not in seen and len(path) < 10:
            _walk(messages, typ, level, kind, (*path, *step), (*seen, typ), out)


@cache
def schema_index() -> SchemaIndex:
    """The schema's fields, read once."""
    schema = json.loads(SCHEMA_PATH.read_text())
    messages = schema["messages"]
    out: dict[str, list[Place]] = {}
    kinds: list[str] = []
    for key, message in schema["kinds"].items():
        kind = key.rsplit("/", 1)[-1]
        if key.startswith("*/") or kind.startswith("Self"):
            continue
        kinds.append(kind)
        _walk(messages, message, "object", kind, (), (message,), out)
    _walk(messages, _POD_SPEC, "pod", "", (), (_POD_SPEC,), out)
    _walk(messages, _CONTAINERS[0], "container", "", (), (_CONTAINERS[0],), out)
    return SchemaIndex({k: tuple(v) for k, v in out.items()}, tuple(kinds))


@cache
def _by_parent() -> dict[tuple[str, str, tuple[str, ...]], tuple[Place, ...]]:
    """Every place under the place it sits in (its path without its last field, and without
    the ``*`` of a list field)."""
    out: dict[tuple[str, str, tuple[str, ...]], list[Place]] = {}
    for places in schema_index().places.values():
        for place in places:
            out.setdefault((place.level, place.kind, place.parent), []).append(place)
    return {key: tuple(found) for key, found in out.items()}


def children_at(level: str, kind: str, path: tuple[str, ...]) -> tuple[Place, ...]:
    """The fields right below ``path`` (of ``kind`` at ``level``)."""
    return _by_parent().get((level, kind, path), ())


def children(place: Place) -> tuple[Place, ...]:
    """The fields right below ``place`` (a ``LifecycleHandler``'s ``exec``, ``httpGet``, ...;
    the ``optional`` of a ``configMapKeyRef``), so that a text naming one of them after the
    field narrows the check to it."""
    return _by_parent().get((place.level, place.kind, place.path), ())
