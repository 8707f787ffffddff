"""A CISO scenario's Kubernetes objects as declared: what an environment is made of, each object's
identity as the cluster stores it, and the shapes a real API server needs. Shared by the offline
environments (:mod:`ciso.environments.kubernetes`) and live mode (:mod:`ciso.live`), so neither
reaches into the other's package."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from ciso.scenarios.model import CisoScenario, ResourceRef, ScenarioClass
from itbench.cluster import ClusterExtension, ClusterState, load_manifests
from itbench.cluster.resources import Registry

Manifest = dict[str, Any]

_EXTENSIONS: list[ClusterExtension] | None = None


def extensions() -> list[ClusterExtension]:
    """The ciso plugin's cluster types (Kyverno policies and reports), built once per process."""
    global _EXTENSIONS
    if _EXTENSIONS is None:
        from ciso.engines.kyverno.cluster_types import cluster_extension

        _EXTENSIONS = [cluster_extension()]
    return _EXTENSIONS


def state_of(objects: Sequence[Manifest]) -> ClusterState:
    """A cluster state over the objects, without a background scan (evaluation runs its own)."""
    return ClusterState(copy.deepcopy(list(objects)), extensions=extensions())


_REGISTRY: Registry | None = None


def registry() -> Registry:
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = state_of([]).registry
    return _REGISTRY


def declared_objects(scenario: CisoScenario, compliant: bool = False) -> list[Manifest]:
    """The objects an environment is made of, as loaded from the scenario's manifests; a
    ``kyverno-update`` environment also holds the policies already deployed."""
    source = scenario.compliant if compliant else scenario.violating
    objects = load_manifests(source) if source is not None else []
    if scenario.scenario_class is ScenarioClass.KYVERNO_UPDATE and scenario.update is not None:
        for path in scenario.update.existing_policies:
            objects.extend(load_manifests(path))
    # a bundle's manifests/ already holds existing-policy.yaml: each object once
    unique: dict[ResourceRef, Manifest] = {}
    for obj in objects:
        unique[identity(obj)] = obj
    return list(unique.values())


def is_policy(obj: Manifest) -> bool:
    return str(obj.get("apiVersion", "")).startswith("kyverno.io/") and obj.get("kind") in (
        "ClusterPolicy",
        "Policy",
    )


def identity(obj: Manifest) -> ResourceRef:
    """Kind/namespace/name of an object as the cluster stores it (namespaced kinds default to
    ``default``, cluster-scoped ones have no namespace)."""
    kind = str(obj.get("kind", ""))
    meta = obj.get("metadata") or {}
    rtype = registry().by_kind(kind)
    namespaced = rtype.namespaced if rtype is not None else bool(meta.get("namespace"))
    namespace = str(meta.get("namespace") or "default") if namespaced else ""
    return ResourceRef(kind, namespace, str(meta.get("name", "")))


def without_ephemeral_containers(obj: Manifest) -> tuple[Manifest, list[Manifest]]:
    """(the object to create, the ephemeral containers to add afterwards): a real API server
    refuses a Pod that declares ephemeral containers on create (``spec.ephemeralContainers:
    Forbidden: cannot be set on create``); they go through the ``ephemeralcontainers``
    subresource of the created Pod, as ``kubectl debug`` adds them."""
    raw_spec = obj.get("spec")
    spec = raw_spec if isinstance(raw_spec, dict) else {}
    if (
        obj.get("apiVersion") != "v1"
        or obj.get("kind") != "Pod"
        or not spec.get("ephemeralContainers")
    ):
        return obj, []
    plain = {**obj, "spec": {k: v for k, v in spec.items() if k != "ephemeralContainers"}}
    return plain, list(spec["ephemeralContainers"])
