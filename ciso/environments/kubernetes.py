"""Kubernetes environments of a CISO scenario: the declared objects, what the offline cluster
derives from them, and the leave-one-in variants the strict score needs."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import yaml

from ciso.scenarios.model import CisoScenario, ResourceRef, ScenarioClass
from itbench.cluster import ClusterExtension, ClusterState, load_manifests
from itbench.cluster.manifests import load_manifests_by_file
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


def leave_one_in_removals(
    objects: Sequence[Manifest], violating: Iterable[ResourceRef], keep: ResourceRef
) -> set[ResourceRef]:
    """What the leave-one-in environment of ``keep`` leaves out: every other listed violating
    resource and, for a removed Namespace, every object inside it. A cluster cannot hold an
    object without its namespace (the offline cluster, like a real one, would bring the namespace
    back), so a removed namespace takes its contents along; the files an ``opa-static`` fetcher
    reads then hold the same objects the cluster serves. A namespace that holds ``keep`` itself
    is not removed (the kept violation needs it)."""
    drop = {ref for ref in violating if ref != keep}
    drop -= {ResourceRef("Namespace", "", keep.namespace)} if keep.namespace else set()
    gone = {ref.name for ref in drop if ref.kind == "Namespace" and not ref.namespace}
    return drop | {identity(obj) for obj in objects if identity(obj).namespace in gone}


def leave_one_in(
    objects: Sequence[Manifest], violating: Iterable[ResourceRef], keep: ResourceRef
) -> list[Manifest]:
    """The environment with every listed violating resource except ``keep`` removed (and what
    lived in a removed namespace, see :func:`leave_one_in_removals`); everything else (the
    ServiceAccount or namespace a violation needs) stays."""
    drop = leave_one_in_removals(objects, violating, keep)
    return [obj for obj in objects if identity(obj) not in drop]


def cluster_view(objects: Sequence[Manifest]) -> list[Manifest]:
    """Everything the offline cluster would serve for these objects: the declared ones plus the
    ReplicaSets, Pods and namespaces it derives (reports excluded)."""
    state = state_of([o for o in objects if not is_policy(o)])
    return [
        obj
        for obj in state.objects().values()
        if not str(obj.get("apiVersion", "")).startswith("wgpolicyk8s.io/")
    ]


def owner_chain_root(obj: Manifest, by_uid: dict[str, Manifest]) -> Manifest:
    """The top of an object's ownerReferences chain (a Pod -> its ReplicaSet -> Deployment)."""
    seen: set[str] = set()
    current = obj
    while True:
        refs = (current.get("metadata") or {}).get("ownerReferences") or []
        parent = next((by_uid[r["uid"]] for r in refs if r.get("uid") in by_uid), None)
        uid = (current.get("metadata") or {}).get("uid", "")
        if parent is None or uid in seen:
            return current
        seen.add(uid)
        current = parent


def filtered_copy(source: Path, target: Path, drop: Iterable[ResourceRef] = ()) -> Path:
    """A copy of a manifest directory (or file) with the objects in ``drop`` left out, file by
    file, so a fetcher sees the same file layout it would see in the full environment."""
    drop = set(drop)
    target.mkdir(parents=True, exist_ok=True)
    base = source if source.is_dir() else source.parent
    for path, obj in load_manifests_by_file(source):
        if identity(obj) in drop:
            continue
        out = target / path.relative_to(base)
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("a", encoding="utf-8") as handle:
            handle.write("---\n" + yaml.safe_dump(obj, sort_keys=False))
    return target


def without_ephemeral_containers(obj: Manifest) -> tuple[Manifest, list[Manifest]]:
    """(the object to create, the ephemeral containers to add afterwards): a real API server
    refuses a Pod that declares ephemeral containers on create (``spec.ephemeralContainers:
    Forbidden: cannot be set on create``); they go through the ``ephemeralcontainers``
    subresource of the created Pod, as ``kubectl debug`` adds them."""
    spec = obj.get("spec") if isinstance(obj.get("spec"), dict) else {}
    if (
        obj.get("apiVersion") != "v1"
        or obj.get("kind") != "Pod"
        or not spec.get("ephemeralContainers")
    ):
        return obj, []
    plain = {**obj, "spec": {k: v for k, v in spec.items() if k != "ephemeralContainers"}}
    return plain, list(spec["ephemeralContainers"])


def invalid_names(source: Path) -> list[str]:
    """``FILE: Kind "name": metadata.name: Invalid value: ...`` for each object under ``source``
    whose name the API server refuses (the rule of its kind: an RFC 1123 subdomain, label, ...)."""
    from itbench.cluster import names

    found = []
    for path, obj in load_manifests_by_file(source):
        meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
        api_version = str(obj.get("apiVersion", ""))
        group = api_version.split("/")[0] if "/" in api_version else ""
        kind = str(obj.get("kind", ""))
        for error in names.field_errors(group, kind, meta):
            found.append(f'{path}: {kind} "{meta.get("name", "")}": {error}')
    return found


def real_cluster_refusals(objects: Sequence[Manifest]) -> list[str]:
    """Objects a real API server would refuse even when deployed as live mode deploys them (a
    Pod created plain, its ephemeral containers added through the subresource), one line each
    naming the object and the API server's field errors."""
    from itbench.cluster.apiserver_rules import create_errors, ephemeral_update_errors

    found = []
    for obj in objects:
        if not isinstance(obj, dict) or is_policy(obj):
            continue
        plain, ephemeral = without_ephemeral_containers(obj)
        api_version = str(obj.get("apiVersion", ""))
        group = api_version.split("/")[0] if "/" in api_version else ""
        errors = create_errors(group, str(obj.get("kind", "")), plain)
        if ephemeral:
            errors += ephemeral_update_errors(plain, obj)
        if errors:
            found.append(f"{identity(obj)}: a real cluster refuses it: {'; '.join(errors)}")
    return found


def write_manifests(objects: Sequence[Manifest], directory: Path) -> Path:
    """Objects as one multi-document manifest file in ``directory`` (what the sandboxed cluster
    loads)."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "resources.yaml").write_text(
        yaml.safe_dump_all(list(objects), sort_keys=False), encoding="utf-8"
    )
    return directory
