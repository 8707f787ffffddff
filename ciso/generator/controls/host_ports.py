"""CIS 5.2.13: no container binds a port on the node."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._text import SCOPE_AUDITOR, SCOPE_CIS, SCOPE_OPERATOR
from ciso.generator.model import Control, PodSpec, containers


def violates(spec: Mapping[str, Any]) -> bool:
    return any(
        (port or {}).get("hostPort") not in (None, 0)
        for c in containers(spec)
        for port in c.get("ports") or ()
    )


def break_container(container: dict[str, Any], rng: Random) -> None:
    port = rng.choice((8080, 9100, 5432, 6379))
    # the hostPort is on the second port: a check of ports[0] misses it
    container["ports"] = [{"containerPort": 80}, {"containerPort": port, "hostPort": port}]


def container_port_only(spec: PodSpec, rng: Random) -> None:
    spec["containers"][0]["ports"] = [{"containerPort": 8443, "name": "host-port"}]


def zero_host_port(spec: PodSpec, rng: Random) -> None:
    spec["containers"][-1]["ports"] = [{"containerPort": 9090, "hostPort": 0}]


CONTROL = Control(
    cis_id="5.2.13",
    builtin_id="cis-k8s-5.2.13-host-ports",
    violates=violates,
    break_container=break_container,
    break_pod=None,
    near_misses=(container_port_only, zero_host_port),
    phrasings=(
        "Nothing we run may bind a port on the node: any container or init container with a "
        f"port whose hostPort is set to something other than 0 is a finding. {SCOPE_OPERATOR}",
        "Finding criteria: a workload fails when a container or init container declares a port "
        f"with a non-zero hostPort (hostPort 0 or absent passes). {SCOPE_AUDITOR}",
        "A hostPort ties the container to a port of the node and bypasses network policy. Flag "
        "every workload in which a container or init container declares a port with a non-zero "
        f"hostPort. {SCOPE_CIS}",
    ),
    # ephemeral containers may not declare ports (the API server refuses them)
    ephemeral=False,
)
