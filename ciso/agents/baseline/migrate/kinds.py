"""Kinds a Kyverno rule matches, and the API resources a ValidatingPolicy names for them."""

from __future__ import annotations

from dataclasses import dataclass

from ciso.agents.baseline.migrate.jmespath_cel import NotTranslatable


@dataclass(frozen=True)
class ApiResource:
    group: str
    version: str
    resource: str
    kind: str


_KNOWN = (
    ApiResource("", "v1", "pods", "Pod"),
    ApiResource("", "v1", "namespaces", "Namespace"),
    ApiResource("", "v1", "services", "Service"),
    ApiResource("", "v1", "configmaps", "ConfigMap"),
    ApiResource("", "v1", "secrets", "Secret"),
    ApiResource("", "v1", "serviceaccounts", "ServiceAccount"),
    ApiResource("", "v1", "persistentvolumeclaims", "PersistentVolumeClaim"),
    ApiResource("", "v1", "replicationcontrollers", "ReplicationController"),
    ApiResource("apps", "v1", "deployments", "Deployment"),
    ApiResource("apps", "v1", "statefulsets", "StatefulSet"),
    ApiResource("apps", "v1", "daemonsets", "DaemonSet"),
    ApiResource("apps", "v1", "replicasets", "ReplicaSet"),
    ApiResource("batch", "v1", "jobs", "Job"),
    ApiResource("batch", "v1", "cronjobs", "CronJob"),
    ApiResource("networking.k8s.io", "v1", "networkpolicies", "NetworkPolicy"),
    ApiResource("networking.k8s.io", "v1", "ingresses", "Ingress"),
    ApiResource("rbac.authorization.k8s.io", "v1", "roles", "Role"),
    ApiResource("rbac.authorization.k8s.io", "v1", "clusterroles", "ClusterRole"),
    ApiResource("rbac.authorization.k8s.io", "v1", "rolebindings", "RoleBinding"),
    ApiResource("rbac.authorization.k8s.io", "v1", "clusterrolebindings", "ClusterRoleBinding"),
)
BY_KIND = {r.kind: r for r in _KNOWN}
BY_RESOURCE = {(r.group, r.resource): r for r in _KNOWN}


def api_resource(kind: str) -> ApiResource:
    """``Pod``, ``v1/Pod`` or ``apps/v1/Deployment`` as its API resource."""
    name = kind.split("/")[-1]
    if name not in BY_KIND:
        raise NotTranslatable(f"the kind {kind!r} (no API resource known for it)")
    return BY_KIND[name]


def resource_rules(kinds: list[str], operations: list[str]) -> list[dict[str, object]]:
    """``matchConstraints.resourceRules`` for ``kinds``, one rule per group and version."""
    grouped: dict[tuple[str, str], list[str]] = {}
    for kind in kinds:
        found = api_resource(kind)
        names = grouped.setdefault((found.group, found.version), [])
        if found.resource not in names:
            names.append(found.resource)
    return [
        {
            "apiGroups": [group],
            "apiVersions": [version],
            "operations": list(operations),
            "resources": names,
        }
        for (group, version), names in grouped.items()
    ]


def kind_of(group: str, resource: str) -> str:
    found = BY_RESOURCE.get((group, resource))
    if found is None:
        raise NotTranslatable(f"the resource {group or 'core'}/{resource} (no kind known for it)")
    return found.kind
