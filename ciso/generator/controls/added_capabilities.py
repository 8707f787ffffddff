"""CIS 5.2.9: no container adds a Linux capability."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._text import CONTAINERS, SCOPE_AUDITOR, SCOPE_CIS, SCOPE_OPERATOR
from ciso.generator.model import Control, PodSpec, containers, security_context

_CAPS = ("NET_ADMIN", "SYS_TIME", "SYS_PTRACE", "NET_BIND_SERVICE", "CHOWN", "SYS_ADMIN")


def violates(spec: Mapping[str, Any]) -> bool:
    return any((security_context(c).get("capabilities") or {}).get("add") for c in containers(spec))


def break_container(container: dict[str, Any], rng: Random) -> None:
    caps = container.setdefault("securityContext", {}).setdefault("capabilities", {})
    caps["add"] = [rng.choice(_CAPS)]


def empty_add(spec: PodSpec, rng: Random) -> None:
    spec["containers"][0]["securityContext"]["capabilities"] = {"add": [], "drop": ["ALL"]}


def drop_more(spec: PodSpec, rng: Random) -> None:
    spec["containers"][-1]["securityContext"]["capabilities"] = {"drop": ["NET_RAW", "SYS_ADMIN"]}


CONTROL = Control(
    cis_id="5.2.9",
    builtin_id="cis-k8s-5.2.9-added-capabilities",
    violates=violates,
    break_container=break_container,
    break_pod=None,
    near_misses=(empty_add, drop_more),
    phrasings=(
        f"No container ({CONTAINERS}) gets extra Linux capabilities: anything listed under "
        "securityContext.capabilities.add is a finding, dropping capabilities is fine. "
        f"{SCOPE_OPERATOR}",
        "Finding criteria: a workload fails when any container, init container or ephemeral "
        "container lists at least one capability under securityContext.capabilities.add (the "
        f"allowed list is empty; capabilities.drop is not in question). {SCOPE_AUDITOR}",
        "Containers run with a default set of capabilities; adding more widens what a "
        "compromised container can do. Flag every workload in which a container, init container "
        "or ephemeral container lists any capability under securityContext.capabilities.add. "
        f"{SCOPE_CIS}",
    ),
)
