"""CIS 5.3.2: every namespace has a NetworkPolicy of its own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ciso.generator.model import EXEMPT_NAMESPACES
from ciso.generator.network import NamespaceControl


def uncovered(objects: Sequence[Mapping[str, Any]]) -> list[str]:
    """Namespaces outside the system ones without a NetworkPolicy living in them (a policy
    protects the namespace it lives in, whatever its name or selectors say)."""
    protected = {
        (o.get("metadata") or {}).get("namespace", "default")
        for o in objects
        if o.get("kind") == "NetworkPolicy"
    }
    return [
        o["metadata"]["name"]
        for o in objects
        if o.get("kind") == "Namespace"
        and o["metadata"]["name"] not in EXEMPT_NAMESPACES
        and o["metadata"]["name"] not in protected
    ]


_EXEMPT = "kube-system, kube-public and kube-node-lease"

CONTROL = NamespaceControl(
    cis_id="5.3.2",
    builtin_id="cis-k8s-5.3.2-namespace-network-policies",
    uncovered=uncovered,
    phrasings=(
        "Every namespace we run must have at least one NetworkPolicy living in it; flag each "
        "Namespace without one. A policy in another namespace does not count for this one, "
        "even if it is named after it or selects it; any policy in the namespace does, even one "
        f"that allows everything. Leave {_EXEMPT} alone.",
        "Finding criteria: a Namespace fails when no NetworkPolicy has metadata.namespace equal "
        "to its name. Policy names, selectors, namespace labels and ConfigMaps are irrelevant. "
        f"Out of scope: the system namespaces {_EXEMPT}.",
        "Network policies restrict traffic to the pods of the namespace they are defined in. "
        "Flag every Namespace in which no NetworkPolicy object is defined, whatever policies in "
        f"other namespaces select. The system namespaces {_EXEMPT} are exempt.",
    ),
)
