"""CIS 5.7.2: every container runs under a RuntimeDefault or Localhost seccomp profile, its own or
the pod's (the container's own wins)."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._text import CONTAINERS, SCOPE_AUDITOR, SCOPE_CIS, SCOPE_OPERATOR
from ciso.generator.model import Control, PodSpec, containers, security_context

_CONFINING = ("RuntimeDefault", "Localhost")


def _profile(context: Mapping[str, Any]) -> str | None:
    return (context.get("seccompProfile") or {}).get("type")


def violates(spec: Mapping[str, Any]) -> bool:
    pod = _profile(spec.get("securityContext") or {})
    return any((_profile(security_context(c)) or pod) not in _CONFINING for c in containers(spec))


def break_container(container: dict[str, Any], rng: Random) -> None:
    sc = container.setdefault("securityContext", {})
    if rng.random() < 0.5:
        sc["seccompProfile"] = {"type": "Unconfined"}
    else:
        sc.pop("seccompProfile", None)  # the generated pods set no profile to inherit


def inherited_from_pod(spec: PodSpec, rng: Random) -> None:
    spec["securityContext"] = {"seccompProfile": {"type": "RuntimeDefault"}}
    for container in containers(spec):
        container["securityContext"].pop("seccompProfile", None)


def localhost_profile(spec: PodSpec, rng: Random) -> None:
    profile = {"type": "Localhost", "localhostProfile": "profiles/audit.json"}
    spec["containers"][-1]["securityContext"]["seccompProfile"] = profile


def container_overrides_pod_unconfined(spec: PodSpec, rng: Random) -> None:
    spec["securityContext"] = {"seccompProfile": {"type": "Unconfined"}}  # every container: its own


CONTROL = Control(
    cis_id="5.7.2",
    builtin_id="cis-k8s-5.7.2-seccomp-profile",
    violates=violates,
    break_container=break_container,
    break_pod=None,
    near_misses=(inherited_from_pod, localhost_profile, container_overrides_pod_unconfined),
    phrasings=(
        f"Every container we run ({CONTAINERS}) must be confined by seccomp: its effective "
        "securityContext.seccompProfile.type has to be RuntimeDefault or Localhost. A container's "
        "own profile overrides the pod's, the pod's applies to containers that set none; "
        "Unconfined or no profile is a finding, and the old seccomp annotations do not count. "
        f"{SCOPE_OPERATOR}",
        "Finding criteria: a workload fails when any container, init container or ephemeral "
        "container has an effective seccompProfile.type other than RuntimeDefault or Localhost "
        "(effective: the container's securityContext value, else the pod's; neither set fails; "
        f"seccomp annotations are disregarded). {SCOPE_AUDITOR}",
        "Without a seccomp profile a container may make any system call. Flag every workload in "
        "which a container, init container or ephemeral container does not run under a "
        "seccompProfile of type RuntimeDefault or Localhost, taking the container-level setting "
        "where present and the pod-level one otherwise; the deprecated seccomp annotations are "
        f"ignored. {SCOPE_CIS}",
    ),
)
