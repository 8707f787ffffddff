"""CIS 5.2.11: no Windows HostProcess container."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._text import CONTAINERS, SCOPE_AUDITOR, SCOPE_CIS, SCOPE_OPERATOR
from ciso.generator.model import Control, PodSpec, containers, security_context


def _host_process(context: Mapping[str, Any]) -> bool:
    return (context.get("windowsOptions") or {}).get("hostProcess") is True


def violates(spec: Mapping[str, Any]) -> bool:
    # the pod-level value applies to every container that sets none
    return _host_process(spec.get("securityContext") or {}) or any(
        _host_process(security_context(c)) for c in containers(spec)
    )


def break_container(container: dict[str, Any], rng: Random) -> None:
    options = container.setdefault("securityContext", {}).setdefault("windowsOptions", {})
    options["hostProcess"] = True
    if rng.random() < 0.5:
        options["runAsUserName"] = rng.choice(
            ("NT AUTHORITY\\SYSTEM", "NT AUTHORITY\\Local service")
        )


def explicit_false(spec: PodSpec, rng: Random) -> None:
    spec["securityContext"] = {"windowsOptions": {"hostProcess": False}}
    spec["containers"][-1]["securityContext"]["windowsOptions"] = {
        "hostProcess": False,
        "runAsUserName": "ContainerUser",
    }


def gmsa_credential_spec(spec: PodSpec, rng: Random) -> None:
    spec["containers"][0]["securityContext"]["windowsOptions"] = {
        "gmsaCredentialSpecName": rng.choice(("webapp-gmsa", "sql-gmsa")),
        "runAsUserName": "ContainerAdministrator",
    }


def env_mentions_it(spec: PodSpec, rng: Random) -> None:
    spec["containers"][0].setdefault("env", []).append({"name": "HOST_PROCESS", "value": "true"})
    spec["nodeSelector"] = {"kubernetes.io/os": "windows"}


CONTROL = Control(
    cis_id="5.2.11",
    builtin_id="cis-k8s-5.2.11-windows-host-process",
    violates=violates,
    break_container=break_container,
    break_pod=None,
    near_misses=(explicit_false, gmsa_credential_spec, env_mentions_it),
    phrasings=(
        "No Windows workload of ours may run as a HostProcess container. Find every workload "
        "that sets securityContext.windowsOptions.hostProcess to true, in its pod-level "
        f"securityContext or in any container ({CONTAINERS}). {SCOPE_OPERATOR}",
        "Finding criteria: a workload fails when windowsOptions.hostProcess is true in its pod "
        "securityContext or in the securityContext of one of its containers, init containers or "
        f"ephemeral containers (false, or other windowsOptions fields, pass). {SCOPE_AUDITOR}",
        "Windows HostProcess containers run directly on the host with the node's privileges. "
        "Flag every workload whose pod or container, init container or ephemeral container "
        f"securityContext sets windowsOptions.hostProcess: true. {SCOPE_CIS}",
    ),
)
