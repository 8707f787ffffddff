"""Kubernetes controls on cluster-wide objects (knowledge/k8s_cluster_scope.py): the ranges a
NetworkPolicy opens in one direction, the built-in roles a ClusterRole aggregates into, and when
a StorageClass binds its volumes (stated only by the effect). Each requirement and object is
written for this test; every rendered class (Kyverno, kubectl-opa Rego, opa-static Rego) is
judged by the real engines and must flag exactly the violating objects, not the near misses."""

from __future__ import annotations

from typing import Any

import pytest

from tests._support.ciso_baseline import CLASSES, api_object, flagged, intent_of, role


def _policy(name: str, **spec: Any) -> dict[str, Any]:
    return api_object("networking.k8s.io/v1", "NetworkPolicy", name, "edge",
                      spec={"podSelector": {}, **spec})  # fmt: skip


def _peers(*cidrs: str) -> list[dict[str, Any]]:
    return [{"ipBlock": {"cidr": c}} for c in cidrs]


OPEN_EGRESS = (
    "Outbound traffic stays inside known networks: a network policy must never allow egress to "
    "any address (0.0.0.0/0, or ::/0 for IPv6). What ingress rules admit is not judged here.",
    [
        _policy("v6-open", egress=[{"to": _peers("10.1.0.0/16")}, {"to": _peers("::/0")}]),
        _policy("v4-open", egress=[{"to": _peers("192.168.0.0/24", "0.0.0.0/0")}]),
    ],
    [
        _policy("narrow", egress=[{"to": _peers("10.1.0.0/16", "fd00::/8")}]),
        _policy("open-inbound", ingress=[{"from": _peers("0.0.0.0/0")}]),
    ],
)


def _cluster_role(name: str, **labels: str) -> dict[str, Any]:
    obj = role("ClusterRole", name, [{"apiGroups": [""], "verbs": ["get"], "resources": ["pods"]}])
    obj["metadata"]["labels"] = labels
    return obj


_TO = "rbac.authorization.k8s.io/aggregate-to-"
NO_AGGREGATION = (
    "A ClusterRole of ours may not fold its rules into the built-in edit or admin roles through "
    "aggregation; feeding the view role is fine.",
    [
        _cluster_role("into-admin", **{_TO + "admin": "true"}),
        _cluster_role("into-edit", **{_TO + "view": "true", _TO + "edit": "true"}),
    ],
    [
        _cluster_role("edit-off", **{_TO + "edit": "false"}),
        _cluster_role("viewer", **{_TO + "view": "true"}),
        _cluster_role("plain"),
    ],
)


def _storage_class(name: str, **fields: Any) -> dict[str, Any]:
    obj = api_object("storage.k8s.io/v1", "StorageClass", name, "", provisioner="csi.example")
    obj.update(fields)
    return obj


BINDING_DELAYED = (
    "A storage class has to postpone creating and binding a volume until a pod that uses the "
    "claim has been placed on a node, so that the volume lands in that node's zone.",
    [
        _storage_class("eager", volumeBindingMode="Immediate"),
        _storage_class("unset"),
    ],
    [_storage_class("lazy", volumeBindingMode="WaitForFirstConsumer")],
)

FAMILIES = {
    "open-egress": OPEN_EGRESS,
    "no-aggregation": NO_AGGREGATION,
    "binding-delayed": BINDING_DELAYED,
}


@pytest.mark.parametrize("ciso_class", CLASSES)
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_class_flags_the_violations_and_spares_the_near_misses(
    family: str, ciso_class: str
) -> None:
    text, objects, near_misses = FAMILIES[family]
    violating = {o["metadata"]["name"] for o in objects}
    assert flagged(intent_of(text), [*objects, *near_misses], ciso_class) == violating
