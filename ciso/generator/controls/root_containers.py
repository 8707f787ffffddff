"""CIS 5.2.7: no container runs as root (runAsNonRoot inherited from the pod unless the container
says otherwise; runAsUser 0 nowhere)."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._text import CONTAINERS, SCOPE_AUDITOR, SCOPE_CIS, SCOPE_OPERATOR
from ciso.generator.model import Control, PodSpec, containers, security_context


def _non_root(spec: Mapping[str, Any], container: Mapping[str, Any]) -> bool:
    # the container's own setting wins; the pod's applies only where the container has none
    own = security_context(container).get("runAsNonRoot")
    if own is not None:
        return own is True
    return (spec.get("securityContext") or {}).get("runAsNonRoot") is True


def violates(spec: Mapping[str, Any]) -> bool:
    if (spec.get("securityContext") or {}).get("runAsUser") == 0:
        return True
    return any(
        not _non_root(spec, c) or security_context(c).get("runAsUser") == 0
        for c in containers(spec)
    )


def break_container(container: dict[str, Any], rng: Random) -> None:
    sc = container.setdefault("securityContext", {})
    how = rng.choice(("unset", "false", "uid-zero"))
    if how == "unset":
        sc.pop("runAsNonRoot", None)  # the generated pods set nothing at pod level to inherit
    elif how == "false":
        sc["runAsNonRoot"] = False
    else:
        sc["runAsUser"] = 0  # runAsNonRoot: true stays; the uid is root all the same


def inherited_from_pod(spec: PodSpec, rng: Random) -> None:
    spec["securityContext"] = {"runAsNonRoot": True}
    for container in containers(spec):
        container["securityContext"].pop("runAsNonRoot", None)


def root_group_only(spec: PodSpec, rng: Random) -> None:
    spec["securityContext"] = {"runAsGroup": 0, "fsGroup": 0}
    spec["containers"][0]["securityContext"]["runAsUser"] = rng.choice((1000, 10001, 65532))


def container_overrides_pod_false(spec: PodSpec, rng: Random) -> None:
    spec["securityContext"] = {"runAsNonRoot": False}  # every container says true for itself


CONTROL = Control(
    cis_id="5.2.7",
    builtin_id="cis-k8s-5.2.7-root-containers",
    violates=violates,
    break_container=break_container,
    break_pod=None,
    near_misses=(inherited_from_pod, root_group_only, container_overrides_pod_false),
    phrasings=(
        f"Nothing we run may run as root. Each container ({CONTAINERS}) needs runAsNonRoot: true, "
        "either in its own securityContext or inherited from the pod's securityContext (a "
        "container's own value overrides the pod's), and runAsUser: 0 is a finding wherever it "
        "appears, pod or container. runAsGroup and fsGroup are not in question. "
        f"{SCOPE_OPERATOR}",
        "Finding criteria: a workload fails when any container, init container or ephemeral "
        "container does not run with runAsNonRoot: true (its own securityContext value, or the "
        "pod-level value when the container sets none), or when the pod securityContext or any "
        f"container securityContext sets runAsUser: 0. Group ids are out of scope. {SCOPE_AUDITOR}",
        "Containers running as root widen what an escape can do. Flag every workload in which a "
        "container, init container or ephemeral container is not governed by runAsNonRoot: true "
        "(the container-level setting takes precedence over the pod-level one, which applies "
        "when the container has none), or in which the pod or a container sets runAsUser: 0. "
        f"A group id of 0 (runAsGroup, fsGroup) is not a root user. {SCOPE_CIS}",
    ),
)
