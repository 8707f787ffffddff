"""A generated fault as what a real cluster is given: the objects it creates (Chaos Mesh
experiments, a NetworkPolicy, a ResourceQuota) and JSON patches of the objects it changes,
computed from the generator's own before/after pair, so the live run injects exactly the change
the offline twin simulates.

Patches touch only the fields the fault changed (an image, a port, a flag), so a real
installation's other fields (its own image tags, env, resources) stay as they were; the clean-up
restores each patched object as the cluster held it before the injection, not the generator's
idea of it.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from itbench.errors import UsageError
from itbench.fsutil import atomic_write_text
from sre.generator.model import ObjectRef

#: why a node fault that changes what the kubelet reports (its conditions) is not injected: no
#: API write reproduces it
KUBELET_REPORTS = (
    "node faults that change a node's conditions are not injected live: a node's DiskPressure "
    "or MemoryPressure condition is reported by its kubelet (no API write reproduces it; fill "
    "the node's disk or memory instead)"
)
#: the taint the node lifecycle controller adds to a cordoned node itself (never injected)
UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable"
#: fields the API server manages: never part of a patch
_SERVER_FIELDS = ("status",)
_SERVER_METADATA = ("uid", "resourceVersion", "generation", "creationTimestamp", "managedFields",
                    "selfLink")  # fmt: skip
_SERVER_ANNOTATIONS = ("deployment.kubernetes.io/revision",
                       "kubectl.kubernetes.io/last-applied-configuration")  # fmt: skip


@dataclass(frozen=True)
class PatchStep:
    """One object the fault changes: the JSON patch that makes the change, and the value each
    patched path holds once injected (how the clean-up and the health check recognise it)."""

    ref: ObjectRef
    resource: str
    ops: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class CreateStep:
    ref: ObjectRef
    resource: str
    body: dict[str, Any]


@dataclass(frozen=True)
class DeleteStep:
    """One object the fault deletes; the clean-up creates it again as the cluster held it."""

    ref: ObjectRef
    resource: str


@dataclass(frozen=True)
class NodeFault:
    """A fault on the node the target runs on, made through the API alone: the cordon
    (``spec.unschedulable``), taints added, and the drain (the target's pods on the node
    evicted, as ``kubectl drain`` evicts them). The generator's nodes are its own, so the node
    is the one the target's pod runs on in the cluster (:meth:`Injection.on_node`)."""

    unschedulable: bool
    taints: tuple[dict[str, Any], ...]
    drain: bool

    def ops(self, live: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        """The JSON patch making the fault on ``live`` (the node as the cluster holds it)."""
        ops: list[dict[str, Any]] = []
        if self.unschedulable:
            ops.append({"op": "add", "path": "/spec/unschedulable", "value": True})
        if self.taints:
            held = list((live.get("spec") or {}).get("taints") or [])
            ops.append({"op": "add", "path": "/spec/taints", "value": held + list(self.taints)})
        return tuple(ops)


@dataclass(frozen=True)
class Injection:
    fault_type: str
    seed: int
    target: str
    namespace: str
    root: ObjectRef
    creates: tuple[CreateStep, ...]
    patches: tuple[PatchStep, ...]
    #: the demo's objects before the fault (what the injection assumes the cluster runs)
    baseline: tuple[dict[str, Any], ...]
    #: objects the fault deletes
    deletes: tuple[DeleteStep, ...] = ()
    #: the scenario's own installation, made before the fault and undone at the clean-up:
    #: objects the demo does not hold (created) and changes to ones it does (patched)
    setup_creates: tuple[CreateStep, ...] = ()
    setup_patches: tuple[PatchStep, ...] = ()
    #: the fault on the target's node (None: the fault touches no node)
    node_fault: NodeFault | None = None

    def on_node(self, live: dict[str, Any]) -> Injection:
        """The node fault made concrete on ``live``, the cluster's node the target runs on: the
        root is that node, the patch its cordon and taints."""
        if self.node_fault is None:
            return self
        name = live["metadata"]["name"]
        ref = ObjectRef("Node", name, "")
        patch = PatchStep(ref, "node", self.node_fault.ops(live))
        return dataclasses.replace(self, root=ref, patches=(*self.patches, patch))

    def set_up(self, ref: ObjectRef) -> bool:
        """Whether the scenario's installation creates ``ref`` (it exists only once set up)."""
        return any(c.ref == ref for c in self.setup_creates)

    def injected_values(self, ref: ObjectRef) -> dict[str, Any]:
        """path -> value the fault sets on ``ref`` (empty for an object it does not patch)."""
        for step in self.patches:
            if step.ref == ref:
                return {op["path"]: op.get("value") for op in step.ops if op["op"] != "remove"}
        return {}

    def created(self, ref: ObjectRef) -> CreateStep | None:
        return next((c for c in self.creates if c.ref == ref), None)


def resource_name(kind: str) -> str:
    """kubectl's resource argument for ``kind`` (full group for Chaos Mesh, to avoid clashes)."""
    from sre.cluster import CHAOS_KINDS

    if kind in CHAOS_KINDS:
        return f"{kind.lower()}.chaos-mesh.org"
    return {"NetworkPolicy": "networkpolicies.networking.k8s.io"}.get(kind, kind.lower())


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _spec_part(obj: dict[str, Any]) -> dict[str, Any]:
    """The object without what the API server writes (status, bookkeeping metadata)."""
    part = {k: copy.deepcopy(v) for k, v in obj.items() if k not in _SERVER_FIELDS}
    meta = part.get("metadata") or {}
    for key in _SERVER_METADATA:
        meta.pop(key, None)
    annotations = meta.get("annotations")
    if isinstance(annotations, dict):
        for key in _SERVER_ANNOTATIONS:
            annotations.pop(key, None)
        if not annotations:
            meta.pop("annotations")
    return part


def restorable(obj: dict[str, Any]) -> dict[str, Any]:
    """The object as read from the cluster, fit to be written back (``kubectl replace`` or
    ``create``): without status and the server's bookkeeping, with every annotation kept (a
    ``last-applied-configuration`` dropped would change the next ``kubectl apply``)."""
    body = {k: copy.deepcopy(v) for k, v in obj.items() if k not in _SERVER_FIELDS}
    meta = body.get("metadata") or {}
    for key in _SERVER_METADATA:
        meta.pop(key, None)
    return body


def json_patch_ops(
    before: Any, after: Any, path: str = "", *, append: bool = False
) -> list[dict[str, Any]]:
    """RFC 6902 operations turning ``before`` into ``after`` at the finest level both share (a
    list of the same length is walked item by item, so one container's image is one op). With
    ``append``, a list that only grew at its end gets its new items appended (``/-``), so the
    items a real installation holds beyond the generator's stay."""
    if isinstance(before, dict) and isinstance(after, dict):
        ops: list[dict[str, Any]] = []
        for key in before:
            if key not in after:
                ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
        for key, value in after.items():
            sub = f"{path}/{_escape(key)}"
            if key not in before:
                ops.append({"op": "add", "path": sub, "value": value})
            else:
                ops += json_patch_ops(before[key], value, sub, append=append)
        return ops
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        return [op for i, (b, a) in enumerate(zip(before, after, strict=True)) for op in
                json_patch_ops(b, a, f"{path}/{i}", append=append)]  # fmt: skip
    if (append and isinstance(before, list) and isinstance(after, list)
            and len(after) > len(before) and after[: len(before)] == before):  # fmt: skip
        return [{"op": "add", "path": f"{path}/-", "value": v} for v in after[len(before) :]]
    if before == after:
        return []
    return [{"op": "replace", "path": path, "value": after}]


def render_injection(fault_type: str, seed: int, target: str | None = None) -> Injection:
    """The injection of the incident the generator writes for (fault type, seed, target); a clear
    error for a fault no write through the API can reproduce."""
    from sre.generator import objects as k8s
    from sre.generator.snapshot import build_incident
    from sre.generator.topology import OTEL_DEMO

    incident, deployments, services = build_incident(fault_type, seed, "SMALL", target=target)
    plan = incident.plan
    ns = incident.namespace
    creates: list[CreateStep] = []
    patches: list[PatchStep] = []
    from sre.generator.faults import FAULT_TYPES

    deletes: list[DeleteStep] = []
    node_fault: NodeFault | None = None
    for change in plan.changes:
        kind = change.ref.kind
        if kind == "Node":
            node_fault = _node_fault(fault_type, change.before, change.after, plan.pod_state)
            continue
        if change.after is None:
            deletes.append(DeleteStep(change.ref, resource_name(kind)))
        elif change.before is None:
            creates.append(CreateStep(change.ref, resource_name(kind), _spec_part(change.after)))
        else:
            ops = json_patch_ops(_spec_part(change.before), _spec_part(change.after))
            patches.append(PatchStep(change.ref, resource_name(kind), tuple(ops)))
    namespaces = sorted({ns} | {c.ref.namespace for c in creates if c.ref.namespace})
    baseline: list[dict[str, Any]] = [
        # the label the API server gives every namespace (a setup's label is added beside it)
        {"apiVersion": "v1", "kind": "Namespace",
         "metadata": {"name": n, "labels": {"kubernetes.io/metadata.name": n}}}
        for n in namespaces
    ]  # fmt: skip
    setup = FAULT_TYPES[fault_type].setup
    installed = setup(ns, plan.target) if setup is not None else ()
    replaced = {(o["kind"], o["metadata"]["name"]) for o in installed}
    for svc in OTEL_DEMO.services:
        # the demo as released: a Deployment the scenario's installation changes is its own
        dep = (
            k8s.deployment(svc, ns)
            if ("Deployment", svc.name) in replaced
            else deployments[svc.name]
        )
        srv = k8s.service(svc, ns) if ("Service", svc.name) in replaced else services[svc.name]
        baseline += [_spec_part(dep), _spec_part(srv)]
    baseline.append(k8s.flagd_configmap(ns))
    setup_creates, setup_patches = _installation(installed, baseline)
    return Injection(
        fault_type=fault_type,
        seed=seed,
        target=plan.target.name,
        namespace=ns,
        root=plan.root,
        creates=tuple(creates),
        patches=tuple(patches),
        baseline=tuple(baseline),
        deletes=tuple(deletes),
        setup_creates=setup_creates,
        setup_patches=setup_patches,
        node_fault=node_fault,
    )


def _node_fault(
    fault_type: str, before: dict[str, Any] | None, after: dict[str, Any] | None, pod_state: str
) -> NodeFault:
    """The generator's change of a node as what the API can make of it: a cordon, taints, a
    drain; a clear error for a change of what the kubelet reports."""
    if before is None or after is None:
        raise UsageError(
            f"fault type {fault_type}: a node is created or deleted, not injected live"
        )
    if (before.get("status") or {}) != (after.get("status") or {}):
        raise UsageError(f"fault type {fault_type}: cannot be injected on a live cluster: "
                         f"{KUBELET_REPORTS}")  # fmt: skip
    spec_before, spec_after = before.get("spec") or {}, after.get("spec") or {}
    held = spec_before.get("taints") or []
    added = tuple(
        t for t in spec_after.get("taints") or []
        if t not in held and t.get("key") != UNSCHEDULABLE_TAINT
    )  # fmt: skip
    unschedulable = bool(spec_after.get("unschedulable")) and not spec_before.get("unschedulable")
    if not (unschedulable or added):
        raise UsageError(f"fault type {fault_type}: its node change is neither a cordon nor a "
                         "taint, which is all live mode makes of a node")  # fmt: skip
    # the generator's pod of the target evicted from the node: the drain
    return NodeFault(unschedulable, added, drain=pod_state == "Evicted")


def _key(obj: dict[str, Any]) -> tuple[str, str, str]:
    meta = obj.get("metadata") or {}
    return (obj["kind"], str(meta.get("namespace") or ""), meta["name"])


def _installation(
    installed: tuple[dict[str, Any], ...], baseline: list[dict[str, Any]]
) -> tuple[tuple[CreateStep, ...], tuple[PatchStep, ...]]:
    """The scenario's installation as steps: an object the demo holds is patched (only the
    fields the installation changes), any other is created."""
    demo = {_key(o): o for o in baseline}
    creates: list[CreateStep] = []
    patches: list[PatchStep] = []
    for obj in installed:
        key = _key(obj)
        ref = ObjectRef(key[0], key[2], key[1])
        if key in demo:
            ops = json_patch_ops(_spec_part(demo[key]), _spec_part(obj), append=True)
            if ops:
                patches.append(PatchStep(ref, resource_name(key[0]), tuple(ops)))
        else:
            creates.append(CreateStep(ref, resource_name(key[0]), _spec_part(obj)))
    return tuple(creates), tuple(patches)


def _where(ref: ObjectRef) -> str:
    return f"{ref.kind.lower()}-{ref.name}"


def write_manifests(injection: Injection, folder: Path) -> list[Path]:
    """The injection as files a person (or a CI job) can apply by hand:

    - ``baseline.yaml``: the demo's objects the fault assumes (``itbench cluster serve`` it to
      rehearse),
    - ``inject.yaml``: the objects the fault creates (``kubectl create -f``),
    - ``patch-<kind>-<name>.json``: each change (``kubectl patch --type=json --patch-file``),
    - ``injection.json``: all of it, with the fault's root object, machine-readable.
    """
    folder.mkdir(parents=True, exist_ok=True)
    written = []

    def put(name: str, text: str) -> None:
        atomic_write_text(folder / name, text)
        written.append(folder / name)

    put("baseline.yaml", yaml.safe_dump_all(injection.baseline, sort_keys=False))
    if injection.creates:
        put("inject.yaml", yaml.safe_dump_all([c.body for c in injection.creates], sort_keys=False))
    for step in injection.patches:
        put(f"patch-{_where(step.ref)}.json", json.dumps(list(step.ops), indent=2) + "\n")
    doc = {
        "fault_type": injection.fault_type,
        "seed": injection.seed,
        "target": injection.target,
        "namespace": injection.namespace,
        "root": _ref_doc(injection.root),
        "create": [
            {"ref": _ref_doc(c.ref), "resource": c.resource, "body": c.body}
            for c in injection.creates
        ],  # fmt: skip
        "patch": [
            {"ref": _ref_doc(p.ref), "resource": p.resource, "ops": list(p.ops)}
            for p in injection.patches
        ],  # fmt: skip
    }
    if injection.node_fault is not None:
        fault = injection.node_fault
        # no file to apply: the node is the one the target's pod runs on in your cluster
        doc["node"] = {"on": f"the node {injection.target}'s pod runs on",
                       "unschedulable": fault.unschedulable, "taints": list(fault.taints),
                       "drain": fault.drain}  # fmt: skip
    put("injection.json", json.dumps(doc, indent=2) + "\n")
    return written


def _ref_doc(ref: ObjectRef) -> dict[str, str]:
    return {"kind": ref.kind, "name": ref.name, "namespace": ref.namespace}
