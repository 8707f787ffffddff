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


#: An object together with the file it came from (relative to its environment's folder), so a
#: built environment keeps the layout a fetcher of ``static-resources/`` expects.
Sourced = tuple[Path, Manifest]


def _namespace_ref(name: str) -> ResourceRef:
    return ResourceRef("Namespace", "", name)


def _taken_from_violating(
    violating: Sequence[Sourced], compliant_refs: set[ResourceRef], keep: ResourceRef
) -> set[ResourceRef]:
    """What a leave-one-in environment built on the compliant one takes from the violating one:
    the kept resource, its Namespace when the compliant environment lacks it and, for a kept
    Namespace, everything inside it as the agent saw it (a namespace violates by what it lacks,
    a NetworkPolicy or a quota, which the compliant side holds as separate objects)."""
    taken = {keep}
    if keep.namespace and _namespace_ref(keep.namespace) not in compliant_refs:
        taken.add(_namespace_ref(keep.namespace))
    if keep.kind == "Namespace" and not keep.namespace:
        taken |= {identity(obj) for _, obj in violating if identity(obj).namespace == keep.name}
    return taken


def leave_one_in_sourced(
    violating: Sequence[Sourced],
    compliant: Sequence[Sourced] | None,
    refs: Iterable[ResourceRef],
    keep: ResourceRef,
) -> list[Sourced]:
    """The leave-one-in environment of ``keep``, each object with its file.

    With a compliant environment it is built on that one, with ``keep`` put in as the agent saw it
    (replacing the compliant object of the same kind, namespace and name, in that object's file;
    otherwise in a file of the compliant environment; see :func:`_taken_from_violating`). Nothing else of the
    violating environment comes along, so a policy that recognises the environment it was shown
    (a context lookup or a fetcher that looks for a harmless object only that environment holds,
    then flags the violating objects by name) does not recognise this one. Without a compliant
    environment: the violating one with every other listed violating resource removed (and what
    lived in a removed namespace, see :func:`leave_one_in_removals`)."""
    if compliant is None:
        drop = leave_one_in_removals([obj for _, obj in violating], refs, keep)
        return [(path, obj) for path, obj in violating if identity(obj) not in drop]
    compliant_refs = {identity(obj) for _, obj in compliant}
    taken = _taken_from_violating(violating, compliant_refs, keep)
    seen = {identity(obj): (path, obj) for path, obj in violating if identity(obj) in taken}
    built: list[Sourced] = []
    for path, obj in compliant:
        ref = identity(obj)
        if ref not in taken:
            # a kept Namespace's compliant contents give way to what the agent saw there
            if not (keep.kind == "Namespace" and not keep.namespace and ref.namespace == keep.name):
                built.append((path, obj))
        elif ref in seen:
            built.append((path, seen.pop(ref)[1]))
    # what the compliant side lacks goes into a file it has (its own file name where the compliant
    # side has that file too): a file only the violating environment holds would tell a fetch
    # of static-resources/ which environment it reads
    files = [path for path, _ in compliant]
    for path, obj in seen.values():
        built.append((path if path in files or not files else files[0], obj))
    return built


def leave_one_in(
    violating: Sequence[Manifest],
    compliant: Sequence[Manifest] | None,
    refs: Iterable[ResourceRef],
    keep: ResourceRef,
) -> list[Manifest]:
    """The objects of the leave-one-in environment of ``keep`` (see :func:`leave_one_in_sourced`)."""
    here = Path()
    return [
        obj
        for _, obj in leave_one_in_sourced(
            [(here, o) for o in violating],
            None if compliant is None else [(here, o) for o in compliant],
            refs,
            keep,
        )
    ]


def leave_one_in_copy(
    violating: Path,
    compliant: Path | None,
    refs: Iterable[ResourceRef],
    keep: ResourceRef,
    target: Path,
) -> Path:
    """The leave-one-in environment of ``keep`` as a manifest folder, in the file layout of the
    environment it is built on (what a fetcher of ``static-resources/`` reads)."""

    def sourced(source: Path) -> list[Sourced]:
        base = source if source.is_dir() else source.parent
        return [(path.relative_to(base), obj) for path, obj in load_manifests_by_file(source)]

    objects = leave_one_in_sourced(
        sourced(violating), None if compliant is None else sourced(compliant), refs, keep
    )
    target.mkdir(parents=True, exist_ok=True)
    for relative, obj in objects:
        out = target / relative
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("a", encoding="utf-8") as handle:
            handle.write("---\n" + yaml.safe_dump(obj, sort_keys=False))
    return target


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
