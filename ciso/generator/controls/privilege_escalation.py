"""CIS 5.2.6: every container forbids privilege escalation explicitly."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._text import CONTAINERS, SCOPE_AUDITOR, SCOPE_CIS, SCOPE_OPERATOR
from ciso.generator.model import Control, PodSpec, containers, security_context


def violates(spec: Mapping[str, Any]) -> bool:
    return any(
        security_context(c).get("allowPrivilegeEscalation") is not False for c in containers(spec)
    )


def break_container(container: dict[str, Any], rng: Random) -> None:
    sc = container.setdefault("securityContext", {})
    if rng.random() < 0.5:
        sc["allowPrivilegeEscalation"] = True
    else:
        sc.pop("allowPrivilegeEscalation", None)  # unset: Kubernetes allows escalation


def commented_false(spec: PodSpec, rng: Random) -> None:
    spec["containers"][0]["securityContext"]["allowPrivilegeEscalation"] = False
    spec["containers"][0].setdefault("env", []).append(
        {"name": "ALLOW_PRIVILEGE_ESCALATION", "value": "true"}
    )


def init_explicit(spec: PodSpec, rng: Random) -> None:
    spec.setdefault("initContainers", []).append(
        {
            "name": "migrate",
            "image": "busybox:1.36",
            "securityContext": {"allowPrivilegeEscalation": False, "runAsNonRoot": True},
        }
    )


CONTROL = Control(
    cis_id="5.2.6",
    builtin_id="cis-k8s-5.2.6-allow-privilege-escalation",
    violates=violates,
    break_container=break_container,
    break_pod=None,
    near_misses=(commented_false, init_explicit),
    phrasings=(
        f"Every container we run ({CONTAINERS}) has to say securityContext."
        "allowPrivilegeEscalation: false outright; leaving it out means escalation is allowed, "
        f"so that is a finding too. {SCOPE_OPERATOR}",
        "Finding criteria: a workload fails when any container, init container or ephemeral "
        "container does not set securityContext.allowPrivilegeEscalation to false (true, or the "
        f"field absent, both fail). {SCOPE_AUDITOR}",
        "allowPrivilegeEscalation controls whether a process can gain more privileges than its "
        "parent; Kubernetes allows it when unset. Flag every workload in which a container, init "
        "container or ephemeral container does not set securityContext.allowPrivilegeEscalation: "
        f"false. {SCOPE_CIS}",
    ),
)
