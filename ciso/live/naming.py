"""Names of one trial's objects on a live cluster, and the way back to the scenario's names.

Namespaces become ``<ns>-itb-<suffix>`` and cluster-scoped objects ``<name>-itb-<suffix>``, so
trials running side by side on one cluster never touch each other's objects. Exceptions keep the
scenario's meaning: the system namespaces (``default``, ``kube-system``, ...) keep their names
(policies exempt them, or flag them, by name), and a cluster-scoped object the cluster already has
under its scenario name (the built-in ClusterRole ``cluster-admin``) is used as it is, never created
nor deleted. References follow the renaming (a binding's ``roleRef`` and ``subjects``, namespace
selectors on ``kubernetes.io/metadata.name``).
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ciso.scenarios.model import ResourceRef
from ciso.scenarios.objects import identity

Manifest = dict[str, Any]

#: Every object a trial creates carries this label with the trial's suffix (cleanup finds
#: leftovers of an interrupted run by it).
TRIAL_LABEL = "itbench.io/live-trial"
#: Namespaces that exist on every cluster and whose names policies test: never renamed, never
#: created, never deleted.
SYSTEM_NAMESPACES = frozenset({"default", "kube-system", "kube-public", "kube-node-lease"})
_NAME_LABEL = "kubernetes.io/metadata.name"
_MAX_NAME = 63
#: Server-written fields a manifest may carry that a create must not send.
_SERVER_FIELDS = ("uid", "resourceVersion", "creationTimestamp", "managedFields", "generation")


def trial_suffix(scenario_id: str, trial_dir: Path) -> str:
    """Six hex digits naming one trial: the same for the agent's environment and the evaluation
    of that trial directory, different for every other trial."""
    digest = hashlib.sha256(f"{scenario_id}\0{trial_dir.resolve()}".encode()).hexdigest()
    return digest[:6]


def suffixed(name: str, suffix: str) -> str:
    tag = f"-itb-{suffix}"
    return name[: _MAX_NAME - len(tag)] + tag


@dataclass(frozen=True)
class DeployPlan:
    """What to create, in order, and how to read the cluster's names back."""

    suffix: str
    #: Live objects in creation order (namespaces first).
    objects: tuple[Manifest, ...]
    #: Original namespace -> live namespace (system namespaces map to themselves).
    namespaces: dict[str, str] = field(default_factory=dict)
    #: Live ref -> scenario ref, for every object of the environment.
    to_scenario: dict[ResourceRef, ResourceRef] = field(default_factory=dict)

    def live_namespaces(self) -> list[str]:
        return sorted(set(self.namespaces.values()))

    def scenario_ref(self, live: ResourceRef) -> ResourceRef:
        """The scenario's name of a live object; an object the cluster derived (a Pod of a
        Deployment) keeps its own name in the scenario's namespace."""
        if live in self.to_scenario:
            return self.to_scenario[live]
        back = {v: k for k, v in self.namespaces.items()}
        return ResourceRef(live.kind, back.get(live.namespace, live.namespace), live.name)


def plan_deployment(
    objects: Sequence[Manifest],
    suffix: str,
    already_on_cluster: Callable[[ResourceRef, Manifest], bool],
) -> DeployPlan:
    """Rename ``objects`` for one trial. ``already_on_cluster(ref, obj)`` says whether a
    cluster-scoped object of that scenario name exists (then it is used, not created)."""
    namespaces: dict[str, str] = {}

    def live_ns(ns: str) -> str:
        if ns not in namespaces:
            namespaces[ns] = ns if ns in SYSTEM_NAMESPACES else suffixed(ns, suffix)
        return namespaces[ns]

    refs = [(identity(obj), obj) for obj in objects]
    for ref, _obj in refs:
        if ref.kind == "Namespace":
            live_ns(ref.name)
        elif ref.namespace:
            live_ns(ref.namespace)
    renamed: dict[tuple[str, str], str] = {}  # (kind, scenario name) -> live name, cluster scope
    kept: set[ResourceRef] = set()
    for ref, obj in refs:
        if ref.namespace or ref.kind == "Namespace":
            continue
        if already_on_cluster(ref, obj):
            kept.add(ref)
        else:
            renamed[(ref.kind, ref.name)] = suffixed(ref.name, suffix)

    created: list[Manifest] = []
    to_scenario: dict[ResourceRef, ResourceRef] = {}
    declared_namespaces = {ref.name for ref, _ in refs if ref.kind == "Namespace"}
    for ns in sorted(set(namespaces) - declared_namespaces - SYSTEM_NAMESPACES):
        created.append(
            {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespaces[ns]}}
        )
        to_scenario[ResourceRef("Namespace", "", namespaces[ns])] = ResourceRef("Namespace", "", ns)
    for ref, obj in refs:
        if ref in kept or (ref.kind == "Namespace" and ref.name in SYSTEM_NAMESPACES):
            to_scenario[ref] = ref
            continue
        live = _rename(obj, ref, namespaces, renamed)
        created.append(live)
        to_scenario[identity(live)] = ref
    for obj in created:
        obj.setdefault("metadata", {}).setdefault("labels", {})[TRIAL_LABEL] = suffix
    created.sort(key=lambda o: o.get("kind") != "Namespace")  # stable: namespaces first
    return DeployPlan(suffix, tuple(created), dict(namespaces), to_scenario)


def _rename(
    obj: Manifest,
    ref: ResourceRef,
    namespaces: dict[str, str],
    renamed: dict[tuple[str, str], str],
) -> Manifest:
    live = copy.deepcopy(obj)
    meta = live.setdefault("metadata", {})
    for key in _SERVER_FIELDS:
        meta.pop(key, None)
    # owner uids of the manifests do not exist on the live cluster: its GC would delete the object
    meta.pop("ownerReferences", None)
    live.pop("status", None)
    if ref.kind == "Namespace":
        meta["name"] = namespaces[ref.name]
    elif ref.namespace:
        meta["namespace"] = namespaces[ref.namespace]
    else:
        meta["name"] = renamed.get((ref.kind, ref.name), ref.name)
    role_ref = live.get("roleRef")
    if isinstance(role_ref, dict) and (str(role_ref.get("kind")), role_ref.get("name")) in {
        (k, n) for k, n in renamed
    }:
        role_ref["name"] = renamed[(str(role_ref["kind"]), str(role_ref["name"]))]
    for subject in live.get("subjects") or []:
        if isinstance(subject, dict) and subject.get("namespace") in namespaces:
            subject["namespace"] = namespaces[subject["namespace"]]
    _rewrite_namespace_labels(live, namespaces)
    return live


def _rewrite_namespace_labels(node: Any, namespaces: dict[str, str]) -> None:
    """``kubernetes.io/metadata.name: <ns>`` (a namespace's own label, or a selector on it) names
    the live namespace."""
    if isinstance(node, dict):
        value = node.get(_NAME_LABEL)
        if isinstance(value, str) and value in namespaces:
            node[_NAME_LABEL] = namespaces[value]
        for child in node.values():
            _rewrite_namespace_labels(child, namespaces)
    elif isinstance(node, list):
        for child in node:
            _rewrite_namespace_labels(child, namespaces)


def live_policy(policy: Manifest, plan: DeployPlan) -> Manifest:
    """An agent's Kyverno policy as deployed for one trial: a ClusterPolicy gets the trial's
    suffix (two trials' policies of one name must not replace each other), a namespaced Policy
    moves into the trial's namespace; both carry the trial label."""
    live = copy.deepcopy(policy)
    meta = live.setdefault("metadata", {})
    for key in _SERVER_FIELDS:
        meta.pop(key, None)
    live.pop("status", None)
    if live.get("kind") == "ClusterPolicy":
        meta["name"] = suffixed(str(meta.get("name", "policy")), plan.suffix)
    else:
        ns = str(meta.get("namespace") or "default")
        meta["namespace"] = plan.namespaces.get(ns, ns)
    meta.setdefault("labels", {})[TRIAL_LABEL] = plan.suffix
    return live
