"""Clean workloads of every kind that carries a pod template, with fresh names."""

from __future__ import annotations

import copy
from random import Random
from typing import Any

from ciso.generator.model import PodSpec

#: Every workload kind whose pod spec a pod-security control reads.
KINDS = ("Pod", "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob")

_APPS = (
    "ledger",
    "billing",
    "catalog",
    "search",
    "thumbnailer",
    "auth",
    "gateway",
    "metrics",
    "inventory",
    "mailer",
    "reports",
    "uploader",
    "scheduler",
    "quotes",
    "audit-log",
)
_ROLES = ("api", "worker", "sync", "cache", "proxy", "indexer", "exporter", "cron", "agent")
_TEAMS = ("payments", "retail", "platform", "data", "growth", "media", "identity", "ops-tools")
_IMAGES = ("registry.example.com/{app}:{v}", "ghcr.io/acme/{app}:{v}", "quay.io/acme/{app}:{v}")


def fresh_name(rng: Random, taken: set[str]) -> str:
    while True:
        name = f"{rng.choice(_APPS)}-{rng.choice(_ROLES)}-{rng.randrange(10, 99)}"
        if name not in taken:
            taken.add(name)
            return name


def fresh_namespace(rng: Random, taken: set[str]) -> str:
    while True:
        name = f"{rng.choice(_TEAMS)}-{rng.choice(('prod', 'stage', 'dev', 'qa'))}-{rng.randrange(2, 9)}"
        if name not in taken:
            taken.add(name)
            return name


def clean_container(rng: Random, name: str) -> dict[str, Any]:
    """A container no pod-security control of the generator objects to."""
    app = rng.choice(_APPS)
    image = rng.choice(_IMAGES).format(app=app, v=f"{rng.randrange(1, 9)}.{rng.randrange(0, 20)}")
    return {
        "name": name,
        "image": image,
        "securityContext": {
            "allowPrivilegeEscalation": False,
            "runAsNonRoot": True,
            "readOnlyRootFilesystem": True,
            "capabilities": {"drop": ["ALL"]},
            # per container, so an added container without it has nothing to inherit
            "seccompProfile": {"type": "RuntimeDefault"},
        },
    }


def clean_pod_spec(rng: Random) -> PodSpec:
    # no service account token: the generated applications never call the API server
    spec: PodSpec = {
        "automountServiceAccountToken": False,
        "containers": [clean_container(rng, "app")],
    }
    if rng.random() < 0.5:
        spec["containers"].append(clean_container(rng, rng.choice(("sidecar", "log-shipper"))))
    if rng.random() < 0.4:
        spec["initContainers"] = [clean_container(rng, "init-config")]
    return spec


def wrap(kind: str, name: str, namespace: str, spec: PodSpec, comment: str = "") -> dict[str, Any]:
    """The manifest of ``kind`` whose pod spec is ``spec``."""
    spec = copy.deepcopy(spec)
    meta: dict[str, Any] = {"name": name, "namespace": namespace}
    if comment:
        meta["annotations"] = {"example.com/note": comment}
    labels = {"app": name}
    if kind == "Pod":
        return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}
    template = {"metadata": {"labels": labels}, "spec": spec}
    if kind in ("Job", "CronJob"):
        spec.setdefault("restartPolicy", "Never")
        job = {"template": template}
        if kind == "Job":
            return {"apiVersion": "batch/v1", "kind": "Job", "metadata": meta, "spec": job}
        cron = {"schedule": f"{sum(map(ord, name)) % 60} 3 * * *", "jobTemplate": {"spec": job}}
        return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": meta, "spec": cron}
    body: dict[str, Any] = {"selector": {"matchLabels": labels}, "template": template}
    if kind == "StatefulSet":
        body["serviceName"] = name
    return {"apiVersion": "apps/v1", "kind": kind, "metadata": meta, "spec": body}


def pod_spec_of(obj: dict[str, Any]) -> PodSpec | None:
    """The pod spec a workload carries; None for objects without one."""
    kind, spec = obj.get("kind"), obj.get("spec") or {}
    if kind == "Pod":
        return spec
    if kind == "CronJob":
        spec = (spec.get("jobTemplate") or {}).get("spec") or {}
    elif kind not in KINDS:
        return None
    return (spec.get("template") or {}).get("spec")
