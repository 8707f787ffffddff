"""The API group of every resource the baseline's RBAC checks name (Roles and ClusterRoles match
rules by group and resource). Its own module: the policy renderer and the Kyverno rule builder
both read it."""

from __future__ import annotations

from ciso.agents.baseline.k8s_api import API_GROUPS

#: API group of each resource an RBAC check names
RESOURCE_GROUPS = {
    **API_GROUPS,
    "pods": "",
    # a rule naming "pods/*" is flagged beside the subresource it means (Kubernetes' own matcher
    # knows only "*" and "*/<sub>", but a reviewer reads "pods/*" as every pod subresource)
    "pods/*": "",
    "deployments/scale": "apps",
    "statefulsets/scale": "apps",
    "replicasets/scale": "apps",
    "secrets": "",
    "nodes/proxy": "",
    "serviceaccounts": "",
    "serviceaccounts/token": "",
    "persistentvolumes": "",
    "replicationcontrollers": "",
    "users": "",
    "groups": "",
    "uids": "",
    "deployments": "apps",
    "replicasets": "apps",
    "statefulsets": "apps",
    "daemonsets": "apps",
    "jobs": "batch",
    "cronjobs": "batch",
    "certificatesigningrequests/approval": "certificates.k8s.io",
    "validatingwebhookconfigurations": "admissionregistration.k8s.io",
    "mutatingwebhookconfigurations": "admissionregistration.k8s.io",
    "tokenreviews": "authentication.k8s.io",
    "roles": "rbac.authorization.k8s.io",
    "clusterroles": "rbac.authorization.k8s.io",
}

#: resources the API serves under a second group as well: a rule granting them through either
#: group grants the same objects (events are core/v1 and events.k8s.io/v1)
ALSO_SERVED_BY: dict[str, tuple[str, ...]] = {
    "events": ("events.k8s.io",),
}


def groups_of(resource: str) -> tuple[str, ...]:
    """Every API group that serves ``resource``."""
    return (RESOURCE_GROUPS.get(resource, ""), *ALSO_SERVED_BY.get(resource, ()))
