"""CIS 5.2.12: no hostPath volume."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._text import SCOPE_AUDITOR, SCOPE_CIS, SCOPE_OPERATOR
from ciso.generator.model import Control, PodSpec

_PATHS = ("/var/log", "/etc/ssl/certs", "/var/run/docker.sock", "/proc", "/data")


def violates(spec: Mapping[str, Any]) -> bool:
    return any("hostPath" in (v or {}) for v in spec.get("volumes") or ())


def break_pod(spec: PodSpec, rng: Random) -> None:
    volumes = spec.setdefault("volumes", [])
    volumes.append({"name": "cache", "emptyDir": {}})  # the hostPath one is not the first
    volumes.append({"name": "node-files", "hostPath": {"path": rng.choice(_PATHS)}})


def lookalike_volumes(spec: PodSpec, rng: Random) -> None:
    spec.setdefault("volumes", []).extend(
        [
            {"name": "host-path-cache", "emptyDir": {}},
            {"name": "config", "configMap": {"name": "hostpath-settings"}},
        ]
    )


def projected(spec: PodSpec, rng: Random) -> None:
    spec.setdefault("volumes", []).append(
        {"name": "token", "projected": {"sources": [{"serviceAccountToken": {"path": "token"}}]}}
    )


CONTROL = Control(
    cis_id="5.2.12",
    builtin_id="cis-k8s-5.2.12-host-path",
    violates=violates,
    break_container=None,
    break_pod=break_pod,
    near_misses=(lookalike_volumes, projected),
    phrasings=(
        "No workload may mount directories of the node: any hostPath volume in a pod spec is a "
        f"finding, whatever its path or type. {SCOPE_OPERATOR}",
        "Finding criteria: a workload fails when its pod spec declares at least one volume of "
        f"type hostPath (any path, any type). {SCOPE_AUDITOR}",
        "hostPath volumes expose the node's file system to the container. Flag every workload "
        f"whose pod spec declares a hostPath volume, whatever its path or type. {SCOPE_CIS}",
    ),
)
