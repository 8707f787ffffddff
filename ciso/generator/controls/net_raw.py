"""CIS 5.2.8: every container drops NET_RAW (or ALL) and none adds it back."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._text import CONTAINERS, SCOPE_AUDITOR, SCOPE_CIS, SCOPE_OPERATOR
from ciso.generator.model import Control, PodSpec, containers, security_context


def _caps(container: Mapping[str, Any], key: str) -> set[str]:
    return {
        str(c).upper()
        for c in (security_context(container).get("capabilities") or {}).get(key) or ()
    }


def violates(spec: Mapping[str, Any]) -> bool:
    return any(
        not _caps(c, "drop") & {"NET_RAW", "ALL"} or "NET_RAW" in _caps(c, "add")
        for c in containers(spec)
    )


def break_container(container: dict[str, Any], rng: Random) -> None:
    caps = container.setdefault("securityContext", {}).setdefault("capabilities", {})
    how = rng.choice(("no-drop", "other-drop", "add-back"))
    if how == "no-drop":
        caps.pop("drop", None)
    elif how == "other-drop":
        caps["drop"] = ["CHOWN", "SYS_ADMIN"]
    else:
        caps["add"] = ["NET_RAW"]  # drop ALL stays: the add puts it back


def lower_case_drop(spec: PodSpec, rng: Random) -> None:
    spec["containers"][0]["securityContext"]["capabilities"] = {"drop": ["net_raw"]}


def drop_net_raw_by_name(spec: PodSpec, rng: Random) -> None:
    spec["containers"][-1]["securityContext"]["capabilities"] = {"drop": ["NET_RAW", "MKNOD"]}


CONTROL = Control(
    cis_id="5.2.8",
    builtin_id="cis-k8s-5.2.8-net-raw",
    violates=violates,
    break_container=break_container,
    break_pod=None,
    near_misses=(lower_case_drop, drop_net_raw_by_name),
    phrasings=(
        f"Raw sockets are off for everything we run: each container ({CONTAINERS}) must drop "
        "NET_RAW or ALL under securityContext.capabilities.drop, and must not add NET_RAW back "
        f"under capabilities.add. Capability names are case-insensitive. {SCOPE_OPERATOR}",
        "Finding criteria: a workload fails when any container, init container or ephemeral "
        "container neither lists NET_RAW nor ALL (any letter case) under securityContext."
        f"capabilities.drop, or lists NET_RAW under capabilities.add. {SCOPE_AUDITOR}",
        "Container runtimes grant NET_RAW by default, which allows packet spoofing. Every "
        "container, init container and ephemeral container must drop NET_RAW or ALL "
        "(capability names compared without regard to case) and must not add NET_RAW. "
        f"{SCOPE_CIS}",
    ),
)
