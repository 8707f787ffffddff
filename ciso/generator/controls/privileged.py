"""CIS 5.2.2: no privileged container."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._text import CONTAINERS, SCOPE_AUDITOR, SCOPE_CIS, SCOPE_OPERATOR
from ciso.generator.model import Control, PodSpec, containers, security_context


def violates(spec: Mapping[str, Any]) -> bool:
    return any(security_context(c).get("privileged") is True for c in containers(spec))


def break_container(container: dict[str, Any], rng: Random) -> None:
    sc = container.setdefault("securityContext", {})
    sc["privileged"] = True
    sc.pop("allowPrivilegeEscalation", None)  # an API server refuses privileged with it false


def explicit_false(spec: PodSpec, rng: Random) -> None:
    spec["containers"][-1]["securityContext"]["privileged"] = False


def ptrace_debugger(spec: PodSpec, rng: Random) -> None:
    spec.setdefault("initContainers", []).append(
        {
            "name": "debug-tools",
            "image": "busybox:1.36",
            "securityContext": {
                "allowPrivilegeEscalation": False,
                "capabilities": {"add": ["SYS_PTRACE"], "drop": ["ALL"]},
            },
        }
    )


CONTROL = Control(
    cis_id="5.2.2",
    builtin_id="cis-k8s-5.2.2-privileged",
    violates=violates,
    break_container=break_container,
    break_pod=None,
    near_misses=(explicit_false, ptrace_debugger),
    phrasings=(
        f"Nothing we run may be privileged. Find every workload where any container ({CONTAINERS}) "
        f"sets securityContext.privileged to true. {SCOPE_OPERATOR}",
        "Finding criteria: a workload fails when one or more of its containers, init containers "
        f"or ephemeral containers has securityContext.privileged: true. {SCOPE_AUDITOR}",
        "Privileged containers have access to all Linux kernel capabilities and devices. Flag "
        "every workload in which a container, init container or ephemeral container sets "
        f"securityContext.privileged: true. {SCOPE_CIS}",
    ),
)
