"""Which workloads use each ConfigMap, Secret and PersistentVolumeClaim: the ones whose pod
template reads it through an environment variable (``valueFrom``, ``envFrom``), mounts it
(``volumes``, ``projected``, a ``persistentVolumeClaim`` volume) or pulls its images with it
(``imagePullSecrets``), and which run as each ServiceAccount (``serviceAccountName``, else the
namespace's ``default``): an account's own ``imagePullSecrets`` and token settings reach every pod
that runs as it. A workload whose annotations name a ConfigMap or Secret (a reloader's
``configmap.reloader.stakater.com/reload: valkey-config``) is restarted on its every edit to
read it, whatever its pod template shows of how. A changed or failing object acts on the applications that use it, whatever its
name or values say."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sre.agents.baseline.states.objects import ObjectView, meta

#: a pod that names no account runs as its namespace's ``default`` one
DEFAULT_ACCOUNT = "default"


def _named(template: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(kind, name) of every ConfigMap, Secret, PersistentVolumeClaim and ServiceAccount a pod
    spec uses."""
    spec = template.get("spec") or {}
    account = spec.get("serviceAccountName") or spec.get("serviceAccount") or DEFAULT_ACCOUNT
    yield "ServiceAccount", str(account)
    for pull in spec.get("imagePullSecrets") or []:
        if isinstance(pull, dict) and pull.get("name"):
            yield "Secret", str(pull["name"])
    for c in (spec.get("containers") or []) + (spec.get("initContainers") or []):
        for env in c.get("env") or []:
            source = (env or {}).get("valueFrom") or {}
            if (source.get("secretKeyRef") or {}).get("name"):
                yield "Secret", str(source["secretKeyRef"]["name"])
            if (source.get("configMapKeyRef") or {}).get("name"):
                yield "ConfigMap", str(source["configMapKeyRef"]["name"])
        for env in c.get("envFrom") or []:
            if ((env or {}).get("secretRef") or {}).get("name"):
                yield "Secret", str(env["secretRef"]["name"])
            if ((env or {}).get("configMapRef") or {}).get("name"):
                yield "ConfigMap", str(env["configMapRef"]["name"])
    volumes = list(spec.get("volumes") or [])
    for v in list(volumes):
        volumes += [s for s in ((v or {}).get("projected") or {}).get("sources") or []]
    for v in volumes:
        v = v or {}
        if (v.get("secret") or {}).get("secretName") or (v.get("secret") or {}).get("name"):
            yield "Secret", str(v["secret"].get("secretName") or v["secret"]["name"])
        if (v.get("configMap") or {}).get("name"):
            yield "ConfigMap", str(v["configMap"]["name"])
        if (v.get("persistentVolumeClaim") or {}).get("claimName"):
            yield "PersistentVolumeClaim", str(v["persistentVolumeClaim"]["claimName"])


#: what an annotation's key says it lists, by the words in it
ANNOTATED_KINDS = (("configmap", "ConfigMap"), ("secret", "Secret"))


def _annotated(workload: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(kind, name) of every ConfigMap and Secret the workload's annotations (its own or its pod
    template's) list under a key naming that kind (comma-separated names)."""
    template = ((workload.get("spec") or {}).get("template") or {}).get("metadata") or {}
    for notes in (
        (workload.get("metadata") or {}).get("annotations"),
        template.get("annotations"),
    ):
        if not isinstance(notes, dict):
            continue
        for key, value in notes.items():
            kinds = [kind for word, kind in ANNOTATED_KINDS if word in str(key).lower()]
            if len(kinds) != 1 or not isinstance(value, str):
                continue
            for name in value.split(","):
                if name.strip() and not name.strip().startswith(("{", "[")):
                    yield kinds[0], name.strip()


def users(view: ObjectView) -> dict[str, frozenset[str]]:
    """namespace/Kind/name of each ConfigMap, Secret, claim or ServiceAccount -> the workloads
    that use it."""
    found: dict[str, set[str]] = {}
    for _, workload in view.kind("Deployment", "StatefulSet"):
        namespace, name, _ = meta(workload)
        template = (workload.get("spec") or {}).get("template") or {}
        for kind, used in (*_named(template), *_annotated(workload)):
            found.setdefault(f"{namespace}/{kind}/{used}", set()).add(name)
    return {k: frozenset(v) for k, v in found.items()}
