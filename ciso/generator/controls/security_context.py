"""CIS 5.7.3: a restrictive security context on every container: runAsNonRoot in effect (its own or
the pod's), allowPrivilegeEscalation: false and readOnlyRootFilesystem: true in its own."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._text import CONTAINERS, SCOPE_AUDITOR, SCOPE_CIS, SCOPE_OPERATOR
from ciso.generator.model import Control, PodSpec, containers, security_context


def _restricted(spec: Mapping[str, Any], container: Mapping[str, Any]) -> bool:
    sc = security_context(container)
    non_root = sc.get("runAsNonRoot")
    if non_root is None:  # the pod's setting applies only where the container has none
        non_root = (spec.get("securityContext") or {}).get("runAsNonRoot")
    return (
        non_root is True
        and sc.get("allowPrivilegeEscalation") is False
        and sc.get("readOnlyRootFilesystem") is True
    )


def violates(spec: Mapping[str, Any]) -> bool:
    return not all(_restricted(spec, c) for c in containers(spec))


def break_container(container: dict[str, Any], rng: Random) -> None:
    how = rng.choice(("writable-root", "escalation-unset", "not-non-root", "uid-only", "none"))
    if how == "none":
        container.pop("securityContext", None)
        return
    sc = container.setdefault("securityContext", {})
    if how == "writable-root":
        if rng.random() < 0.5:
            sc["readOnlyRootFilesystem"] = False
        else:
            sc.pop("readOnlyRootFilesystem", None)
    elif how == "escalation-unset":
        sc.pop("allowPrivilegeEscalation", None)
    elif how == "not-non-root":
        sc["runAsNonRoot"] = False
    else:
        sc.pop("runAsNonRoot", None)  # a non-zero uid is not the field the requirement asks for
        sc["runAsUser"] = 65534


def non_root_at_pod_level(spec: PodSpec, rng: Random) -> None:
    spec["securityContext"] = {"runAsNonRoot": True}
    for container in containers(spec):
        container["securityContext"].pop("runAsNonRoot", None)


def container_overrides_pod_false(spec: PodSpec, rng: Random) -> None:
    spec["securityContext"] = {"runAsNonRoot": False}  # every container says true for itself


def writable_tmp_volume(spec: PodSpec, rng: Random) -> None:
    spec.setdefault("volumes", []).append({"name": "tmp", "emptyDir": {}})
    spec["containers"][0]["volumeMounts"] = [{"name": "tmp", "mountPath": "/tmp"}]


CONTROL = Control(
    cis_id="5.7.3",
    builtin_id="cis-k8s-5.7.3-security-context",
    violates=violates,
    break_container=break_container,
    break_pod=None,
    near_misses=(non_root_at_pod_level, container_overrides_pod_false, writable_tmp_volume),
    phrasings=(
        f"Every container we run ({CONTAINERS}) needs a locked-down security context: "
        "runAsNonRoot: true in effect (its own securityContext, or the pod's when the container "
        "sets none; the container's value wins), plus allowPrivilegeEscalation: false and "
        "readOnlyRootFilesystem: true in the container's own securityContext. A non-zero "
        f"runAsUser does not replace runAsNonRoot. {SCOPE_OPERATOR}",
        "Finding criteria: a workload fails when any container, init container or ephemeral "
        "container lacks an effective runAsNonRoot: true (container value, else pod value), or "
        "does not set both allowPrivilegeEscalation: false and readOnlyRootFilesystem: true in "
        f"its own securityContext. runAsUser alone does not satisfy runAsNonRoot. {SCOPE_AUDITOR}",
        "Apply a security context to pods and containers. Flag every workload in which a "
        "container, init container or ephemeral container is not governed by runAsNonRoot: true "
        "(the container-level value takes precedence over the pod-level one), or does not set "
        "allowPrivilegeEscalation: false and readOnlyRootFilesystem: true itself (neither field "
        f"exists at pod level); a runAsUser value is not runAsNonRoot. {SCOPE_CIS}",
    ),
)
