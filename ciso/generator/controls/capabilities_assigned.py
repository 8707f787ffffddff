"""CIS 5.2.10: every container drops ALL capabilities (what is added back is 5.2.9's business)."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._text import CONTAINERS, SCOPE_AUDITOR, SCOPE_CIS, SCOPE_OPERATOR
from ciso.generator.model import Control, PodSpec, containers, security_context


def _drops_all(container: Mapping[str, Any]) -> bool:
    drop = (security_context(container).get("capabilities") or {}).get("drop") or ()
    return any(str(c).upper() == "ALL" for c in drop)


def violates(spec: Mapping[str, Any]) -> bool:
    return not all(_drops_all(c) for c in containers(spec))


def break_container(container: dict[str, Any], rng: Random) -> None:
    how = rng.choice(("named-only", "no-security-context", "add-only", "no-capabilities"))
    if how == "no-security-context":
        container.pop("securityContext", None)
        return
    sc = container.setdefault("securityContext", {})
    if how == "named-only":
        sc["capabilities"] = {"drop": ["NET_RAW", "SYS_ADMIN"]}
    elif how == "add-only":
        sc["capabilities"] = {"add": [rng.choice(("CHOWN", "NET_BIND_SERVICE"))]}
    else:
        sc.pop("capabilities", None)


def all_second_lower_case(spec: PodSpec, rng: Random) -> None:
    spec["containers"][0]["securityContext"]["capabilities"] = {"drop": ["NET_RAW", "all"]}


def drop_all_add_back(spec: PodSpec, rng: Random) -> None:
    caps = {"drop": ["ALL"], "add": [rng.choice(("NET_BIND_SERVICE", "CHOWN"))]}
    spec["containers"][-1]["securityContext"]["capabilities"] = caps


CONTROL = Control(
    cis_id="5.2.10",
    builtin_id="cis-k8s-5.2.10-capabilities-assigned",
    violates=violates,
    break_container=break_container,
    break_pod=None,
    near_misses=(all_second_lower_case, drop_all_add_back),
    phrasings=(
        f"Nothing we run keeps the runtime's default capabilities: every container ({CONTAINERS}) "
        "must list ALL (any letter case, anywhere in the list) under securityContext."
        "capabilities.drop. Adding a capability back after dropping ALL is a separate control "
        f"and not a finding here. {SCOPE_OPERATOR}",
        "Finding criteria: a workload fails when any container, init container or ephemeral "
        "container does not list ALL (compared case-insensitively) under securityContext."
        "capabilities.drop; dropping only named capabilities, or having no securityContext, "
        f"fails. capabilities.add is out of scope. {SCOPE_AUDITOR}",
        "Container runtimes grant a default set of Linux capabilities. Flag every workload in "
        "which a container, init container or ephemeral container does not drop ALL "
        "capabilities under securityContext.capabilities.drop (capability names are "
        "case-insensitive); capabilities added back are judged by CIS 5.2.9, not here. "
        f"{SCOPE_CIS}",
    ),
)
