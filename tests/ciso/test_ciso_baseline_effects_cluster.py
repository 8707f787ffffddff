"""Kubernetes controls on one scalar field of a pod spec, a container or a Service, stated by
the field or only by its effect (knowledge/k8s_cluster_objects.py). Each requirement and object
is written for this test; every rendered class (Kyverno, kubectl-opa Rego, opa-static Rego) is
judged by the real engines and must flag exactly the violating objects, not the near misses."""

from __future__ import annotations

from typing import Any

import pytest

from tests._support.ciso_baseline import CLASSES, flagged, intent_of, pod_carrier


def _workload(kind: str, name: str, namespace: str, spec: dict[str, Any]) -> dict[str, Any]:
    return pod_carrier(kind, name, spec, namespace)


def _container(name: str = "main", **fields: Any) -> dict[str, Any]:
    return {"name": name, "image": "registry.example/tool:1.4", **fields}


def _service(name: str, namespace: str, spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Service", "metadata": {"name": name,
            "namespace": namespace}, "spec": spec}  # fmt: skip


SERVICE_ALIAS = (
    "Inside the cluster a Service name has to resolve to our own endpoints: no Service may hand "
    "out a DNS alias that points lookups at some other host name.",
    [
        _service("to-partner", "web", {"type": "ExternalName", "externalName": "api.partner.test"}),
    ],
    [
        _service("frontend", "web", {"type": "ClusterIP", "ports": [{"port": 80}]}),
        _service("edge", "web", {"type": "LoadBalancer", "ports": [{"port": 443}]}),
        _service("peers", "web", {"clusterIP": "None", "ports": [{"port": 7000}]}),
    ],
)

MOUNT_BACK = (
    "Volumes shared with the node are read one way only: whatever a container mounts inside a "
    "volume must never propagate back to the host. Init containers count as well.",
    [
        _workload(
            "DaemonSet",
            "plugin",
            "infra",
            {
                "containers": [
                    _container(
                        volumeMounts=[
                            {
                                "name": "pods",
                                "mountPath": "/var/lib/kubelet/pods",
                                "mountPropagation": "Bidirectional",
                            }
                        ]
                    )
                ]
            },
        ),  # fmt: skip
        _workload(
            "Deployment",
            "prep",
            "infra",
            {
                "initContainers": [
                    _container(
                        "setup",
                        volumeMounts=[
                            {
                                "name": "data",
                                "mountPath": "/data",
                                "mountPropagation": "Bidirectional",
                            }
                        ],
                    )
                ],
                "containers": [_container()],
            },
        ),  # fmt: skip
    ],
    [
        _workload(
            "DaemonSet",
            "reader",
            "infra",
            {
                "containers": [
                    _container(
                        volumeMounts=[
                            {
                                "name": "pods",
                                "mountPath": "/var/lib/kubelet/pods",
                                "mountPropagation": "HostToContainer",
                            }
                        ]
                    )
                ]
            },
        ),  # fmt: skip
        _workload(
            "Deployment",
            "plain",
            "infra",
            {"containers": [_container(volumeMounts=[{"name": "data", "mountPath": "/data"}])]},
        ),  # fmt: skip
    ],
)

SERVICE_ENV = (
    "Workloads get service addresses from DNS only: a pod must not come up with environment "
    "variables describing every other Service of its namespace, which Kubernetes adds by default.",
    [
        _workload("Deployment", "shop", "retail", {"containers": [_container()]}),
        _workload(
            "CronJob",
            "nightly",
            "retail",
            {"enableServiceLinks": True, "containers": [_container()]},
        ),  # fmt: skip
    ],
    [
        _workload(
            "Pod", "quiet", "retail", {"enableServiceLinks": False, "containers": [_container()]}
        ),  # fmt: skip
        _workload(
            "StatefulSet",
            "ledger",
            "retail",
            {"enableServiceLinks": False, "containers": [_container()]},
        ),  # fmt: skip
    ],
)

SYSTEM_PRIORITY = (
    "Workloads may not borrow the built-in priority class system-cluster-critical or "
    "system-node-critical; those are reserved for kube-system.",
    [
        _workload(
            "Deployment",
            "greedy",
            "apps",
            {"priorityClassName": "system-node-critical", "containers": [_container()]},
        ),  # fmt: skip
        _workload(
            "CronJob",
            "cleanup",
            "ops",
            {"priorityClassName": "system-cluster-critical", "containers": [_container()]},
        ),  # fmt: skip
    ],
    [
        _workload(
            "DaemonSet",
            "proxy",
            "kube-system",
            {"priorityClassName": "system-node-critical", "containers": [_container()]},
        ),  # fmt: skip
        _workload(
            "Deployment",
            "important",
            "apps",
            {"priorityClassName": "business-critical", "containers": [_container()]},
        ),  # fmt: skip
    ],
)

RESOLVER = (
    "All name lookups of a pod must go to the cluster DNS: report pods that pick a different "
    "DNS policy than ClusterFirst (or ClusterFirstWithHostNet) or add a nameserver of their own.",
    [
        _workload(
            "Deployment", "node-dns", "net", {"dnsPolicy": "Default", "containers": [_container()]}
        ),  # fmt: skip
        _workload(
            "StatefulSet",
            "own-dns",
            "net",
            {
                "dnsPolicy": "None",
                "dnsConfig": {"nameservers": ["9.9.9.9"]},
                "containers": [_container()],
            },
        ),  # fmt: skip
        _workload(
            "Pod",
            "extra-ns",
            "net",
            {"dnsConfig": {"nameservers": ["10.0.0.53"]}, "containers": [_container()]},
        ),  # fmt: skip
    ],
    [
        _workload("Deployment", "plain", "net", {"containers": [_container()]}),
        _workload(
            "DaemonSet",
            "hostnet",
            "net",
            {
                "hostNetwork": True,
                "dnsPolicy": "ClusterFirstWithHostNet",
                "dnsConfig": {
                    "searches": ["corp.test"],
                    "options": [{"name": "ndots", "value": "2"}],
                },
                "containers": [_container()],
            },
        ),  # fmt: skip
    ],
)

FAMILIES = {
    "service-alias": SERVICE_ALIAS,
    "mount-back": MOUNT_BACK,
    "service-env": SERVICE_ENV,
    "system-priority": SYSTEM_PRIORITY,
    "resolver": RESOLVER,
}


# ---- RBAC rights over a subresource or a resource served by two API groups ------------------


def _role(kind: str, name: str, rules: list[dict[str, Any]], namespace: str = "") -> dict:
    metadata = {"name": name, **({"namespace": namespace} if namespace else {})}
    return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": kind, "metadata": metadata,
            "rules": rules}  # fmt: skip


POD_TUNNELS = (
    "Besides the break-glass ClusterRole, no Role or ClusterRole may grant create on "
    "pods/portforward or pods/attach (port forwarding into a pod, attaching to a container).",
    [
        _role(
            "Role",
            "every-sub",
            [{"apiGroups": [""], "resources": ["pods/*"], "verbs": ["create"]}],
            "lab",
        ),  # fmt: skip
        _role(
            "ClusterRole",
            "forwarder",
            [{"apiGroups": [""], "resources": ["pods/portforward"], "verbs": ["create"]}],
        ),  # fmt: skip
    ],
    [
        _role(
            "ClusterRole",
            "break-glass",
            [{"apiGroups": [""], "resources": ["pods/*"], "verbs": ["create"]}],
        ),  # fmt: skip
        _role(
            "Role",
            "logs-only",
            [{"apiGroups": [""], "resources": ["pods/log", "pods"], "verbs": ["get"]}],
            "lab",
        ),  # fmt: skip
    ],
)

EVENT_WRITERS = (
    "Cluster events are evidence: nobody but the built-in system: roles may update, patch or "
    "delete events, in either API group that serves them. Creating and reading events is fine.",
    [
        _role(
            "ClusterRole",
            "new-api-editor",
            [{"apiGroups": ["events.k8s.io"], "resources": ["events"], "verbs": ["patch"]}],
        ),  # fmt: skip
        _role(
            "Role",
            "pruner",
            [{"apiGroups": [""], "resources": ["events"], "verbs": ["delete"]}],
            "ops",
        ),  # fmt: skip
    ],
    [
        _role(
            "ClusterRole",
            "system:event-gc",
            [{"apiGroups": [""], "resources": ["events"], "verbs": ["delete"]}],
        ),  # fmt: skip
        _role(
            "ClusterRole",
            "emitter",
            [
                {
                    "apiGroups": ["", "events.k8s.io"],
                    "resources": ["events"],
                    "verbs": ["create", "list"],
                }
            ],
        ),  # fmt: skip
        _role(
            "ClusterRole",
            "crm-events",
            [{"apiGroups": ["crm.example.io"], "resources": ["events"], "verbs": ["delete"]}],
        ),  # fmt: skip
    ],
)

CRD_WRITERS = (
    "Except for the crd-manager ClusterRole and the system: roles, no Role or ClusterRole may "
    "create, modify or remove CustomResourceDefinitions; a wildcard verb, group or resource "
    "counts. Listing and watching them is allowed.",
    [
        _role(
            "ClusterRole",
            "installer",
            [
                {
                    "apiGroups": ["apiextensions.k8s.io"],
                    "resources": ["customresourcedefinitions"],
                    "verbs": ["create", "get"],
                }
            ],
        ),  # fmt: skip
        _role(
            "ClusterRole", "anything", [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]}]
        ),  # fmt: skip
    ],
    [
        _role(
            "ClusterRole",
            "crd-manager",
            [
                {
                    "apiGroups": ["apiextensions.k8s.io"],
                    "resources": ["customresourcedefinitions"],
                    "verbs": ["*"],
                }
            ],
        ),  # fmt: skip
        _role(
            "ClusterRole",
            "crd-viewer",
            [
                {
                    "apiGroups": ["apiextensions.k8s.io"],
                    "resources": ["customresourcedefinitions"],
                    "verbs": ["get", "list", "watch"],
                }
            ],
        ),  # fmt: skip
        _role(
            "Role",
            "app-wildcard",
            [{"apiGroups": ["apps"], "resources": ["*"], "verbs": ["*"]}],
            "team",
        ),  # fmt: skip
    ],
)

RBAC_FAMILIES = {
    "pod-tunnels": POD_TUNNELS,
    "event-writers": EVENT_WRITERS,
    "crd-writers": CRD_WRITERS,
}


@pytest.mark.parametrize("ciso_class", CLASSES)
@pytest.mark.parametrize("family", sorted({**FAMILIES, **RBAC_FAMILIES}))
def test_every_class_flags_the_violations_and_spares_the_near_misses(
    family: str, ciso_class: str
) -> None:
    text, violating, near_misses = {**FAMILIES, **RBAC_FAMILIES}[family]
    intent = intent_of(text)
    found = flagged(intent, [*violating, *near_misses], ciso_class)
    assert found == {o["metadata"]["name"] for o in violating}
