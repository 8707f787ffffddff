"""Objects a real cluster's controllers would show: ReplicaSets and Pods of workloads, namespaces.

Names follow Kubernetes' patterns (``<deployment>-<template hash>-<5 chars>``, ``<sts>-0``) but are
derived from a hash of the owner, so the same manifests give the same names on every start.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Iterable, Iterator
from typing import Any

_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"  # Kubernetes' safe-name alphabet


def _suffix(seed: str, length: int) -> str:
    digest = hashlib.sha256(seed.encode()).digest()
    return "".join(_ALPHABET[b % len(_ALPHABET)] for b in digest[:length])


def _owner(obj: dict[str, Any], controller: bool = True) -> dict[str, Any]:
    return {
        "apiVersion": obj["apiVersion"],
        "kind": obj["kind"],
        "name": obj["metadata"]["name"],
        "uid": obj["metadata"].get("uid", ""),
        "controller": controller,
        "blockOwnerDeletion": True,
    }


#: The one node the emulated controllers schedule Pods on.
NODE_NAME = "itbench-offline-node"
KUBELET_VERSION = "v1.32.0"


def node(name: str, created: str, index: int = 0) -> dict[str, Any]:
    """A Ready worker node, as ``kubectl get nodes`` shows one a scheduler placed Pods on."""
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": name,
            "creationTimestamp": created,
            "labels": {
                "kubernetes.io/hostname": name,
                "kubernetes.io/os": "linux",
                "kubernetes.io/arch": "amd64",
            },
        },
        "spec": {},
        "status": {
            "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady"}],
            "addresses": [
                {"type": "InternalIP", "address": f"10.0.0.{10 + index % 240}"},
                {"type": "Hostname", "address": name},
            ],
            "nodeInfo": {
                "kubeletVersion": KUBELET_VERSION,
                "osImage": "itbench offline",
                "kernelVersion": "offline",
                "containerRuntimeVersion": "offline://0",
                "operatingSystem": "linux",
                "architecture": "amd64",
            },
        },
    }


def nodes_used(objects: Iterable[dict[str, Any]]) -> set[str]:
    """The nodes Pods are scheduled on (``spec.nodeName``)."""
    return {
        str(o["spec"]["nodeName"])
        for o in objects
        if o.get("kind") == "Pod" and isinstance(o.get("spec"), dict) and o["spec"].get("nodeName")
    }


def _pod(
    owner: dict[str, Any],
    name: str,
    template: dict[str, Any],
    extra_labels: dict[str, str],
    phase: str,
    index: int,
) -> dict[str, Any]:
    meta = template.get("metadata") or {}
    spec = copy.deepcopy(template.get("spec") or {})
    spec.setdefault("nodeName", NODE_NAME)
    spec.setdefault("serviceAccountName", spec.get("serviceAccount", "default"))
    containers = spec.get("containers") or []
    labels = {**(meta.get("labels") or {}), **extra_labels}
    ready = phase == "Running"
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": name,
            "namespace": owner["metadata"].get("namespace", "default"),
            "labels": labels,
            "annotations": dict(meta.get("annotations") or {}),
            "ownerReferences": [_owner(owner)],
            "creationTimestamp": owner["metadata"].get("creationTimestamp"),
        },
        "spec": spec,
        "status": {
            "phase": phase,
            "podIP": f"10.244.{index // 250 % 250}.{index % 250 + 2}",
            "hostIP": "10.0.0.10",
            "conditions": [{"type": "Ready", "status": "True" if ready else "False"}],
            "containerStatuses": [_container_status(c, i, ready) for i, c in enumerate(containers)],
        },
    }


def _container_status(container: dict[str, Any], index: int, ready: bool) -> dict[str, Any]:
    image = str(container.get("image", ""))
    return {
        "name": container.get("name", f"c{index}"),
        "image": image,
        "imageID": f"{image}@sha256:{hashlib.sha256(image.encode()).hexdigest()}",
        "containerID": f"containerd://{_suffix(image + str(index), 32)}",
        "ready": ready,
        "restartCount": 0,
        "started": ready,
        "state": {"running": {"startedAt": "2026-01-01T00:00:00Z"}}
        if ready
        else {"terminated": {"exitCode": 0, "reason": "Completed"}},
    }


def _template_hash(template: dict[str, Any]) -> str:
    return _suffix(json.dumps(template, sort_keys=True), 10)


def _replicas(obj: dict[str, Any]) -> int:
    value = (obj.get("spec") or {}).get("replicas", 1)
    return value if isinstance(value, int) and value >= 0 else 1


def pod_count(obj: dict[str, Any]) -> int:
    """How many Pods :func:`derive` makes for ``obj``, without making them."""
    kind = obj.get("kind")
    if kind in ("Deployment", "StatefulSet", "ReplicaSet", "ReplicationController"):
        return _replicas(obj)
    return 1 if kind in ("DaemonSet", "Job") else 0


def derive(obj: dict[str, Any], counter: Iterator[int]) -> list[dict[str, Any]]:
    """Objects that ``obj``'s controller would create (empty for kinds without one)."""
    kind, spec = obj.get("kind"), obj.get("spec") or {}
    name = obj["metadata"]["name"]
    if kind == "Deployment":
        template = spec.get("template") or {}
        pth = _template_hash(template)
        rs_name = f"{name}-{pth}"
        rs_template = copy.deepcopy(template)
        rs_template.setdefault("metadata", {}).setdefault("labels", {})["pod-template-hash"] = pth
        replicas = _replicas(obj)
        rs = {
            "apiVersion": "apps/v1",
            "kind": "ReplicaSet",
            "metadata": {
                "name": rs_name,
                "namespace": obj["metadata"].get("namespace", "default"),
                "labels": dict(rs_template["metadata"]["labels"]),
                "ownerReferences": [_owner(obj)],
                "creationTimestamp": obj["metadata"].get("creationTimestamp"),
                "uid": _suffix("uid" + rs_name, 12),
            },
            "spec": {
                "replicas": replicas,
                "selector": spec.get("selector", {}),
                "template": rs_template,
            },
            "status": {
                "replicas": replicas,
                "readyReplicas": replicas,
                "availableReplicas": replicas,
            },
        }
        pods = [
            _pod(
                rs,
                f"{rs_name}-{_suffix(rs_name + str(i), 5)}",
                rs_template,
                {"pod-template-hash": pth},
                "Running",
                next(counter),
            )
            for i in range(replicas)
        ]
        return [rs, *pods]
    if kind == "StatefulSet":
        template = spec.get("template") or {}
        return [
            _pod(
                obj,
                f"{name}-{i}",
                template,
                {"statefulset.kubernetes.io/pod-name": f"{name}-{i}"},
                "Running",
                next(counter),
            )
            for i in range(_replicas(obj))
        ]
    if kind == "DaemonSet":
        template = spec.get("template") or {}
        return [_pod(obj, f"{name}-{_suffix(name, 5)}", template, {}, "Running", next(counter))]
    if kind in ("ReplicaSet", "ReplicationController"):
        template = spec.get("template") or {}
        return [
            _pod(obj, f"{name}-{_suffix(name + str(i), 5)}", template, {}, "Running", next(counter))
            for i in range(_replicas(obj))
        ]
    if kind == "Job":
        template = spec.get("template") or {}
        return [
            _pod(
                obj,
                f"{name}-{_suffix(name, 5)}",
                template,
                {"job-name": name, "batch.kubernetes.io/job-name": name},
                "Succeeded",
                next(counter),
            )
        ]
    return []


def with_workload_status(obj: dict[str, Any]) -> dict[str, Any]:
    """Give a workload the status a healthy controller would report (kept if the manifest has one)."""
    if obj.get("kind") == "Pod" and not obj.get("status"):
        containers = (obj.get("spec") or {}).get("containers") or []
        obj = {
            **obj,
            "status": {
                "phase": "Running",
                "conditions": [{"type": "Ready", "status": "True"}],
                "containerStatuses": [
                    _container_status(c, i, True) for i, c in enumerate(containers)
                ],
            },
        }
    elif obj.get("kind") in ("Deployment", "StatefulSet", "ReplicaSet") and not obj.get("status"):
        n = _replicas(obj)
        obj = {
            **obj,
            "status": {
                "replicas": n,
                "readyReplicas": n,
                "availableReplicas": n,
                "updatedReplicas": n,
            },
        }
    elif obj.get("kind") == "DaemonSet" and not obj.get("status"):
        obj = {
            **obj,
            "status": {
                "desiredNumberScheduled": 1,
                "currentNumberScheduled": 1,
                "numberReady": 1,
                "numberAvailable": 1,
                "updatedNumberScheduled": 1,
            },
        }
    return obj


def namespaces_used(objects: Iterable[dict[str, Any]]) -> set[str]:
    return {o["metadata"]["namespace"] for o in objects if o["metadata"].get("namespace")}
