"""``matchConstraints`` of a ValidatingPolicy (and a ValidatingAdmissionPolicy), as the API
server's admission matcher reads them: ``resourceRules`` (groups, versions, resources, operations,
resourceNames, scope), ``excludeResourceRules``, ``namespaceSelector`` and ``objectSelector``.

Offline there is no discovery, so a resource's plural name comes from the built-in kinds of the
offline cluster, else from its kind (lower-case, English plural), as the Kyverno CLI guesses for
kinds its REST mapper does not know."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ciso.engines.kyverno.scope import is_cluster_scoped
from itbench.cluster.resources import plural_of
from itbench.cluster.selectors import selects


@dataclass(frozen=True, slots=True)
class Admission:
    """What the matcher looks at: the object (the old one on DELETE), its group, version and
    plural resource name, the operation, and its namespace's labels (None: no namespace)."""

    resource: dict[str, Any]
    group: str
    version: str
    plural: str
    operation: str
    namespace_labels: Mapping[str, str] | None
    #: for an object standing for a subresource request (``PodExecOptions``, ``Binding``): the
    #: subresource of ``plural`` (``exec``, ``binding``)
    subresource: str = ""


def admission_of(
    resource: dict[str, Any],
    operation: str,
    namespace_labels: Mapping[str, str] | None,
    subresources: Mapping[tuple[str, str], tuple[str, str, str]] | None = None,
) -> Admission:
    """The admission request for ``resource``; an object a test's values declare as standing
    for a subresource request is a request on its parent's resource with that subresource."""
    api_version, kind = str(resource.get("apiVersion", "")), str(resource.get("kind", ""))
    sub = subresources.get((api_version, kind)) if subresources else None
    if sub is not None:
        parent_api_version, parent_kind, name = sub
        group, _, version = parent_api_version.rpartition("/")
        plural = plural_of(parent_kind)
        return Admission(resource, group, version, plural, operation, namespace_labels, name)
    group, _, version = api_version.rpartition("/")
    return Admission(resource, group, version, plural_of(kind), operation, namespace_labels)


def _listed(values: Any, value: str) -> bool:
    return isinstance(values, list) and ("*" in values or value in values)


def _resource_listed(resources: Any, plural: str, subresource: str = "") -> bool:
    """``*`` and ``*/*`` match every resource, ``pods`` and ``pods/*`` the resource itself; a
    subresource (``pods/status``) never matches a stored object. A subresource request is
    matched by ``pods/exec``, ``pods/*``, ``*/exec`` and ``*/*`` only, as the API server does."""
    if not isinstance(resources, list):
        return False
    if subresource:
        wanted = ("*/*", f"{plural}/{subresource}", f"{plural}/*", f"*/{subresource}")
        return any(r in wanted for r in resources)
    return any(r in ("*", "*/*", plural, f"{plural}/*") for r in resources)


def rule_matches(rule: Any, request: Admission) -> bool:
    if not isinstance(rule, dict):
        return False
    if not (
        _listed(rule.get("apiGroups"), request.group)
        and _listed(rule.get("apiVersions"), request.version)
        and _resource_listed(rule.get("resources"), request.plural, request.subresource)
    ):
        return False
    operations = rule.get("operations")
    # an exclude rule may leave operations out; a match rule without them matches nothing
    if operations is not None and not _listed(operations, request.operation):
        return False
    names = rule.get("resourceNames") or []
    if names and (request.resource.get("metadata") or {}).get("name") not in names:
        return False
    scope = rule.get("scope") or "*"
    cluster = is_cluster_scoped(request.resource)
    return scope == "*" or (scope == "Cluster") == cluster


def label_selector_matches(selector: Any, labels: Mapping[str, str]) -> bool:
    """A Kubernetes label selector (exact values, no wildcards); an empty one matches all."""
    return selects(selector, labels)


def _namespace_selected(selector: Any, request: Admission) -> bool:
    """Cluster-scoped objects other than Namespaces are never filtered by a namespace selector;
    a Namespace is matched on its own labels."""
    if not selector:
        return True
    if request.resource.get("kind") == "Namespace" and not request.group:
        own = (request.resource.get("metadata") or {}).get("labels") or {}
        return label_selector_matches(selector, own)
    if is_cluster_scoped(request.resource):
        return True
    return label_selector_matches(selector, request.namespace_labels or {})


def matches(constraints: Any, request: Admission) -> bool:
    """Whether ``constraints`` select the request; no constraints match nothing (as Kyverno)."""
    if not isinstance(constraints, dict):
        return False
    if not any(rule_matches(rule, request) for rule in constraints.get("resourceRules") or []):
        return False
    if any(rule_matches(rule, request) for rule in constraints.get("excludeResourceRules") or []):
        return False
    if not _namespace_selected(constraints.get("namespaceSelector"), request):
        return False
    labels = (request.resource.get("metadata") or {}).get("labels") or {}
    return label_selector_matches(constraints.get("objectSelector"), labels)


def in_policy_scope(policy: Mapping[str, Any], resource: Mapping[str, Any]) -> bool:
    """A Namespaced* policy (NamespacedValidatingPolicy, …) sees only resources of its own
    namespace; the cluster-wide kinds see everything."""
    if not str(policy.get("kind", "")).startswith("Namespaced"):
        return True
    own = (policy.get("metadata") or {}).get("namespace") or "default"
    return (resource.get("metadata") or {}).get("namespace") == own
