"""A workload whose environment gives a wrong address for a service it calls: a port the
Service does not expose (``QUOTE_ADDR=quote:0000``), a port no TCP service can have, a host
one letter away from a Service of the namespace (``stroe:80``), a Service of its own namespace
named in another namespace that has no such Service (``cart.shop-staging.svc:8080``), or an
address variable left empty. The pods may crash or run on, logging connection errors; either way the fault is the
workload's spec, not the service it fails to reach, and the traces that blame that service
(its callers' client spans fail) blame the workload's environment too (``reaches``)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from sre.agents.baseline.evidence import INFRA_NAMESPACES, FailingState
from sre.agents.baseline.states.objects import ObjectView, meta

#: names of variables that hold an address (``QUOTE_ADDR``, ``CART_SERVICE_URL``, ``DB_HOST``)
ADDRESS_NAME = re.compile(
    r"(^|_)(ADDR|ADDRESS|HOST|HOSTNAME|URL|URI|ENDPOINT|SERVER|SERVICE_ADDR)$", re.I
)
_CLUSTER_SUFFIX = re.compile(r"\.svc(\.cluster\.local)?\.?$")
_IP = re.compile(r"^\d{1,3}(\.\d{1,3}){3}$")


def find(view: ObjectView) -> Iterable[FailingState]:
    services = _services(view)
    for ts, workload in view.kind("Deployment", "StatefulSet", "DaemonSet"):
        namespace, name, _ = meta(workload)
        template = ((workload.get("spec") or {}).get("template") or {}).get("spec") or {}
        for container in (template.get("containers") or []) + (
            template.get("initContainers") or []
        ):
            for env in container.get("env") or []:
                if not isinstance(env, dict) or "valueFrom" in env:
                    continue
                found = _wrong(env, namespace, services)
                if found is None:
                    continue
                what, target = found
                yield FailingState(
                    namespace, str(workload.get("kind")), name, name,
                    f"{workload.get('kind')} {name} container {container.get('name')}: "
                    f"{env.get('name')}={env.get('value', '')!r} {what}",
                    2.5, ts, needs_blame=True, reaches=target,
                )  # fmt: skip
                break


def _services(view: ObjectView) -> dict[tuple[str, str], set[int]]:
    """(namespace, Service name) -> the ports it exposes."""
    out: dict[tuple[str, str], set[int]] = {}
    for _, svc in view.kind("Service"):
        namespace, name, _ = meta(svc)
        ports = {
            int(p["port"])
            for p in (svc.get("spec") or {}).get("ports") or []
            if isinstance(p, dict) and str(p.get("port", "")).isdigit()
        }
        out[(namespace, name)] = ports
    return out


def _wrong(
    env: dict[str, Any], namespace: str, services: dict[tuple[str, str], set[int]]
) -> tuple[str, str] | None:
    """(what is wrong, the service it was meant to reach) for a wrong address, else None."""
    name, value = str(env.get("name") or ""), env.get("value")
    value = "" if value is None else str(value).strip()
    if not value:
        if ADDRESS_NAME.search(name):
            return "is empty: the service it names cannot be reached", ""
        return None
    host, port = _address(value)
    if host is None:
        return None
    if port is not None and not 0 < port < 65536:
        return f"has port {port}, which no service listens on", _short(host)
    target_ns, target = _in_cluster(host, namespace)
    if target is None or target_ns in INFRA_NAMESPACES:
        return None
    ports = services.get((target_ns, target))
    if ports is not None:
        if port is not None and ports and port not in ports:
            listed = ", ".join(str(p) for p in sorted(ports))
            return f"points at port {port}; Service {target} exposes {listed}", target
        return None
    if target_ns != namespace and (namespace, target) in services:
        # the service it calls runs beside it; the name points at a namespace without it (a
        # staging or copied value): the lookup fails or reaches another installation
        return (
            f"names Service {target} in namespace {target_ns}, which has none; {target} runs in {namespace}",
            target,
        )
    near = [
        s for (ns, s) in services if ns == target_ns and s != target and _one_edit_apart(s, target)
    ]
    if near and (ADDRESS_NAME.search(name) or port is not None):
        return f"names host {target}, no Service; {near[0]} is one", near[0]
    return None


def _address(value: str) -> tuple[str | None, int | None]:
    """(host, port) of ``host:port``, ``scheme://host[:port]/...`` or a bare host name."""
    text = value if "://" in value else f"tcp://{value}"
    try:
        parts = urlsplit(text)
        host, port = parts.hostname, parts.port
    except ValueError:
        match = re.fullmatch(r"(?:\w+://)?([A-Za-z0-9.-]+):(\d+)(/.*)?", value)
        if not match:
            return None, None
        host, port = match.group(1), int(match.group(2))
    if not host or " " in value or "," in value:
        return None, None
    return host.lower(), port


def _in_cluster(host: str, namespace: str) -> tuple[str, str | None]:
    """(namespace, Service name) a cluster DNS name resolves to; no name for IPs, localhost
    and names outside the cluster."""
    if _IP.match(host) or host in ("localhost", "0.0.0.0"):
        return namespace, None
    bare = _CLUSTER_SUFFIX.sub("", host)
    parts = bare.split(".")
    if len(parts) == 1:
        return namespace, parts[0]
    if len(parts) == 2 and (bare != host or "." not in parts[1]):
        return parts[1], parts[0]
    return namespace, None


def _short(host: str) -> str:
    return _CLUSTER_SUFFIX.sub("", host).split(".")[0]


def _one_edit_apart(a: str, b: str) -> bool:
    """One substitution, insertion, deletion or swap of neighbours turns ``a`` into ``b``."""
    if a == b or abs(len(a) - len(b)) > 1 or min(len(a), len(b)) < 3:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (
            len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )  # fmt: skip
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))
