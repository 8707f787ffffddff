"""The last observed snapshot of each object, and what the state rules ask of it: names and
labels, label selectors, and the workload each pod belongs to."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from itbench.errors import UsageError
from sre.agents.baseline.evidence import INFRA_NAMESPACES, app_of
from sre.snapshot import SourceKind, open_source
from sre.snapshot.layout import require_file
from sre.tools._common import parse_time

APP_LABELS = ("app.kubernetes.io/name", "app.kubernetes.io/component", "app", "name")
#: the kinds a state rule reads
KINDS = (
    "Pod",
    "Deployment",
    "StatefulSet",
    "Service",
    "NetworkPolicy",
    "ConfigMap",
    "Node",
    "Namespace",
    "HorizontalPodAutoscaler",  # the replica range an autoscaler may set (rank)
    "RoleBinding",  # the accounts a role's rights reach (rbac_users)
    "ClusterRoleBinding",
    "LimitRange",  # the defaults a workload's containers take (limit_users)
)

Observed = tuple[datetime, dict[str, Any]]


def latest_objects(objects_file: Path) -> list[Observed]:
    src = open_source(require_file(objects_file, "the objects file"), SourceKind.OBJECTS)
    kinds = ", ".join(f"'{k}'" for k in KINDS)
    rows = src.con.cursor().execute(
        f"""SELECT arg_max(ts, ts), arg_max(body, (ts, version)) FROM data WHERE kind IN ({kinds})
            GROUP BY kind, namespace, name"""
    )
    out = []
    for ts, body in rows.fetchall():
        try:
            obj = json.loads(body)
        except (TypeError, ValueError):
            continue
        if isinstance(obj, dict):
            out.append((ts, obj))
    return out


def meta(obj: dict[str, Any]) -> tuple[str, str, dict[str, str]]:
    """(namespace, name, labels) of an object."""
    m = obj.get("metadata") or {}
    labels = m.get("labels")
    return (
        str(m.get("namespace") or ""),
        str(m.get("name") or ""),
        (labels if isinstance(labels, dict) else {}),
    )


def last_write(obj: dict[str, Any]) -> datetime | None:
    """The latest time the object's record says it was written (its ``managedFields`` times,
    else its ``creationTimestamp``), naive UTC as the index's times; None when it says none."""
    m = obj.get("metadata") or {}
    stamps = [f.get("time") for f in m.get("managedFields") or [] if isinstance(f, dict)]
    stamps = [t for t in stamps if isinstance(t, str)] or [m.get("creationTimestamp")]
    times = []
    for text in stamps:
        try:
            at = parse_time(str(text)) if text else None
        except UsageError:  # a stamp that is no time says nothing of when the object was written
            continue
        if at is not None:
            times.append(at)
    return max(times) if times else None


def app_of_labels(labels: dict[str, str], fallback: str) -> str:
    for key in APP_LABELS:
        if labels.get(key):
            return str(labels[key])
    return fallback


def pod_app(pod: dict[str, Any]) -> str:
    _, name, labels = meta(pod)
    return app_of_labels(labels, app_of("Pod", name))


def selects(selector: Any, labels: dict[str, str]) -> bool:
    """A label selector (``{k: v}``, or ``{matchLabels, matchExpressions}`` with the operators
    ``In``, ``NotIn``, ``Exists``, ``DoesNotExist``) matching ``labels``; an empty selector
    selects every pod (as NetworkPolicy's ``podSelector: {}`` does)."""
    if not isinstance(selector, dict):
        return False
    structured = "matchLabels" in selector or "matchExpressions" in selector
    wanted = selector.get("matchLabels") or {} if structured else selector
    if not isinstance(wanted, dict) or not all(labels.get(k) == v for k, v in wanted.items()):
        return False
    for term in (selector.get("matchExpressions") or []) if structured else []:
        if not isinstance(term, dict):
            return False
        key, op, values = str(term.get("key")), term.get("operator"), term.get("values") or []
        if op == "In" and labels.get(key) not in values:
            return False
        if op == "NotIn" and key in labels and labels[key] in values:
            return False
        if op == "Exists" and key not in labels:
            return False
        if op == "DoesNotExist" and key in labels:
            return False
    return True


@dataclass(frozen=True)
class Workloads:
    pods: list[Observed]
    #: (namespace, name) of every Deployment or StatefulSet
    workloads: dict[tuple[str, str], str]

    def owner(self, namespace: str, pod: dict[str, Any]) -> tuple[str, str]:
        """(kind, name) of the workload a pod belongs to, else the pod itself."""
        _, name, labels = meta(pod)
        for ref in (pod.get("metadata") or {}).get("ownerReferences") or []:
            owner = ref.get("name") or ""
            if ref.get("kind") == "ReplicaSet":
                owner = app_of("ReplicaSet", owner)
            kind = self.workloads.get((namespace, owner))
            if kind:
                return kind, owner
        guess = app_of("Pod", name)
        for candidate in (guess, app_of_labels(labels, guess)):
            kind = self.workloads.get((namespace, candidate))
            if kind:
                return kind, candidate
        return "Pod", name


@dataclass(frozen=True)
class ObjectView:
    """The latest objects of the application namespaces, by kind (cluster-scoped objects, such
    as Nodes, are kept: they have no namespace to be infrastructure by)."""

    by_kind: dict[str, list[Observed]]
    work: Workloads

    @classmethod
    def of(cls, latest: list[Observed]) -> ObjectView:
        by_kind: dict[str, list[Observed]] = {}
        for ts, obj in latest:
            if meta(obj)[0] not in INFRA_NAMESPACES:
                by_kind.setdefault(str(obj.get("kind")), []).append((ts, obj))
        work = Workloads(
            by_kind.get("Pod", []),
            {
                (meta(o)[0], meta(o)[1]): str(o.get("kind"))
                for k in ("Deployment", "StatefulSet")
                for _, o in by_kind.get(k, [])
            },
        )
        return cls(by_kind, work)

    def kind(self, *kinds: str) -> list[Observed]:
        return [o for k in kinds for o in self.by_kind.get(k, [])]

    def apps(self) -> set[str]:
        """Every application the objects show: workload names and pod application labels."""
        return {n for (_, n) in self.work.workloads} | {pod_app(p) for _, p in self.work.pods}
