"""Kubernetes environments of a CISO scenario: the declared objects, what the offline cluster
derives from them, and the leave-one-in variants the strict score needs. The objects themselves
(what a scenario declares, their identities) are in :mod:`ciso.scenarios.objects`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import yaml

from ciso.scenarios.model import ResourceRef
from ciso.scenarios.objects import (
    Manifest,
    identity,
    is_policy,
    state_of,
    without_ephemeral_containers,
)
from itbench.cluster.manifests import load_manifests_by_file


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


def invalid_names(source: Path) -> list[str]:
    """``FILE: Kind "name": metadata.name: Invalid value: ...`` for each object under ``source``
    whose name the API server refuses (the rule of its kind: an RFC 1123 subdomain, label, ...)."""
    from itbench.cluster import names

    found = []
    for path, obj in load_manifests_by_file(source):
        raw_meta = obj.get("metadata")
        meta = raw_meta if isinstance(raw_meta, dict) else {}
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
