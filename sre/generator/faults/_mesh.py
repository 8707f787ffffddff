"""What the Istio scenarios install before their fault: the application namespace enrolled in
the ambient mesh and a Gateway (class ``istio``) the users come in through (``sre/twin/mesh.py``
holds what the twin makes of them)."""

from __future__ import annotations

from typing import Any

from sre.generator import objects as k8s
from sre.generator.topology import Service

MODE_LABEL = "istio.io/dataplane-mode"
GATEWAY = "otel-demo-gateway"


def namespace(name: str, mode: str = "ambient") -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {
            "name": name,
            "uid": k8s.uid("Namespace", "", name),
            "labels": {"kubernetes.io/metadata.name": name, MODE_LABEL: mode},
        },
    }


def gateway(ns: str) -> dict[str, Any]:
    return {
        "apiVersion": "gateway.networking.k8s.io/v1",
        "kind": "Gateway",
        "metadata": {"name": GATEWAY, "namespace": ns, "uid": k8s.uid("Gateway", ns, GATEWAY)},
        "spec": {
            "gatewayClassName": "istio",
            "listeners": [{"name": "http", "port": 80, "protocol": "HTTP"}],
        },
    }


def mesh_setup(ns: str, target: Service) -> tuple[dict[str, Any], ...]:
    return (namespace(ns), gateway(ns))
