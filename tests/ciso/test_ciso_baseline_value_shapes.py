"""Values a requirement states in words rather than as one literal (issue 32 item 6, issue 28):
a numeric range on a field the text spells beside a word that names a neighbouring setting, a
set of directory roots a path may be at or below, values by their shape (a domain and its
subdomains, a version pattern, a URL scheme, a program by name or by path) and allow-lists of
values. The requirements and objects are written for this test; every rendered class (Kyverno,
kubectl-opa Rego, opa-static Rego) is judged by the real engines and must flag exactly the
violating objects."""

from __future__ import annotations

from typing import Any

import pytest

from tests._support.ciso_baseline import CLASSES, api_object, flagged, intent_of, pod_carrier


def _names(objects: list[dict[str, Any]]) -> set[str]:
    return {o["metadata"]["name"] for o in objects}


def _container(**fields: Any) -> dict[str, Any]:
    return {"name": "app", "image": "registry.test/app:3", **fields}


# ---- a range on the field the text spells, not on the setting its words suggest ---------------

HEALTH_PORT_WINDOW = (
    "A Service port that fixes a node port (`spec.ports[*].nodePort`) must use a port from the "
    "platform block 31200 to 31249 inclusive. Ports that leave it to the cluster are fine."
)


def _service(name: str, *node_ports: int | None, **spec: Any) -> dict[str, Any]:
    ports = [
        {"port": 80 + i, **({"nodePort": p} if p is not None else {})}
        for i, p in enumerate(node_ports)
    ]
    return api_object("v1", "Service", name, spec={"ports": ports, **spec})


HEALTH_VIOLATING = [
    _service("second-port", 31200, 31250, type="NodePort"),
    _service("balancer", 30100, type="LoadBalancer"),
    _service("one-below", 31199, type="NodePort"),
]
HEALTH_COMPLIANT = [
    _service("bounds", 31200, 31249, type="NodePort"),
    _service("unpinned", None, type="NodePort"),
    _service("cluster-ip", None, type="ClusterIP"),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_a_range_on_the_field_spelled_beside_a_generic_word(ciso_class: str) -> None:
    objects = [*HEALTH_VIOLATING, *HEALTH_COMPLIANT]
    assert flagged(intent_of(HEALTH_PORT_WINDOW), objects, ciso_class) == _names(HEALTH_VIOLATING)


# ---- a path field at one of the roots a text lists, or below one of them ----------------------

WORKDIR_ROOTS = (
    "Any container that chooses its working directory (`workingDir`) must use /opt/svc or "
    "/var/lib/svc, or a directory below one of them; leaving it unset is fine."
)


def _workdir(kind: str, name: str, *dirs: str | None) -> dict[str, Any]:
    containers = [
        _container(name=f"c{i}", **({"workingDir": d} if d is not None else {}))
        for i, d in enumerate(dirs)
    ]
    return pod_carrier(kind, name, {"initContainers": containers[:1], "containers": containers[1:]})


WORKDIR_VIOLATING = [
    _workdir("Deployment", "root-dir", None, "/opt/svc", "/"),
    _workdir("CronJob", "elsewhere", None, "/tmp/svc"),
    # shares the text of /opt/svc but is not below it
    _workdir("StatefulSet", "same-prefix", "/opt/svcs", "/opt/svc"),
]
WORKDIR_COMPLIANT = [
    _workdir("Deployment", "roots", "/opt/svc", "/var/lib/svc"),
    _workdir("DaemonSet", "below", "/opt/svc/bin", "/var/lib/svc/"),
    _workdir("Job", "unset", None, None),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_a_path_at_or_below_one_of_the_roots_listed(ciso_class: str) -> None:
    objects = [*WORKDIR_VIOLATING, *WORKDIR_COMPLIANT]
    assert flagged(intent_of(WORKDIR_ROOTS), objects, ciso_class) == _names(WORKDIR_VIOLATING)
