"""``match`` / ``exclude``: any/all of resource filters (kinds, names, namespaces, selectors,
annotations, operations). Admission-only filters (subjects, roles) cannot hold offline."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ciso.engines.kyverno import wildcard


@dataclass(frozen=True)
class Facts:
    """What the filters look at besides the resource itself."""

    namespace_labels: dict[str, dict[str, str]] = field(default_factory=dict)
    operation: str = "CREATE"
    #: the requesting user (a test's userinfo file); offline there is none unless given
    user: UserInfo = field(default_factory=lambda: UserInfo())
    #: objects that stand for subresource requests (a test's values ``subresources``):
    #: (apiVersion, kind) -> (the parent's apiVersion, its kind, the subresource)
    subresources: Mapping[tuple[str, str], tuple[str, str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class UserInfo:
    username: str = ""
    groups: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    cluster_roles: tuple[str, ...] = ()


def subjects_match(subjects: list[Any], user: UserInfo) -> bool:
    """Any subject names the user: a User by name, a Group among the user's groups, a
    ServiceAccount by its system:serviceaccount user name (wildcards allowed)."""
    for subject in subjects:
        if not isinstance(subject, dict):
            continue
        kind, name = subject.get("kind"), str(subject.get("name", ""))
        if kind == "ServiceAccount":
            name = f"system:serviceaccount:{subject.get('namespace', '')}:{name}"
        names = user.groups if kind == "Group" else (user.username,)
        if kind in ("ServiceAccount", "Group", "User") and any(_wild(name, n) for n in names):
            return True
    return False


def user_matches(flt: dict[str, Any], user: UserInfo) -> bool:
    """The filter's roles, clusterRoles and subjects (those present) all hold for the user."""
    if flt.get("roles") and not any(r in user.roles for r in flt["roles"]):
        return False
    if flt.get("clusterRoles") and not any(r in user.cluster_roles for r in flt["clusterRoles"]):
        return False
    return not (flt.get("subjects") and not subjects_match(flt["subjects"], user))


def _wild(pattern: Any, value: Any) -> bool:
    # a policy may hold a non-string (null, a number) where a name belongs: compare its text
    return wildcard.match(pattern, value)


def kind_matches(spec: Any, resource: dict[str, Any]) -> bool:
    return _kind_matches(
        str(spec), str(resource.get("apiVersion", "")), str(resource.get("kind", ""))
    )


@functools.lru_cache(maxsize=8192)
def _kind_matches(spec: str, api_version: str, kind: str) -> bool:
    group, _, version = api_version.rpartition("/")
    if spec == "*":
        return True
    parts = spec.split("/")
    sub = None
    if len(parts) >= 2 and parts[-1] in (
        "status",
        "scale",
        "ephemeralcontainers",
        "exec",
        "log",
        "binding",
        "eviction",
    ):
        sub = parts[-1]
        parts = parts[:-1]
    if sub is not None:
        return False  # subresources are admission requests, never a stored object
    if len(parts) == 1:
        return _wild(parts[0], kind)
    if len(parts) == 2:  # version/Kind
        return _wild(parts[0], version) and _wild(parts[1], kind)
    spec_group, spec_version, spec_kind = parts[0], parts[1], "/".join(parts[2:])
    return _wild(spec_group, group) and _wild(spec_version, version) and _wild(spec_kind, kind)


def _kinds_match(kinds: list[Any], resource: dict[str, Any], facts: Facts) -> bool:
    """Any of a filter's kinds names the resource, or (for an object standing for a subresource
    request) its parent and subresource: ``Pod/exec``, ``apps/v1/Deployment/scale``."""
    sub = (
        facts.subresources.get((str(resource.get("apiVersion", "")), str(resource.get("kind", ""))))
        if facts.subresources
        else None
    )
    if sub is None:
        return any(kind_matches(k, resource) for k in kinds)
    parent_api_version, parent_kind, name = sub
    for spec in map(str, kinds):
        if spec == "*":
            return True
        parent_spec, _, sub_spec = spec.rpartition("/")
        if (
            parent_spec
            and _wild(sub_spec, name)
            and _kind_matches(parent_spec, parent_api_version, parent_kind)
        ):
            return True
    return False


def selector_matches(selector: dict[str, Any] | None, labels: dict[str, str]) -> bool:
    if not selector:
        return True
    for key, value in (selector.get("matchLabels") or {}).items():
        if key not in labels or not _wild(str(value), str(labels[key])):
            return False
    for expression in selector.get("matchExpressions") or []:
        key, op, values = (
            expression.get("key"),
            expression.get("operator"),
            expression.get("values") or [],
        )
        present = key in labels
        if op == "In" and not (present and labels[key] in values):
            return False
        if op == "NotIn" and present and labels[key] in values:
            return False
        if op == "Exists" and not present:
            return False
        if op == "DoesNotExist" and present:
            return False
    return True


def _namespace_of(resource: dict[str, Any]) -> str:
    if resource.get("kind") == "Namespace":
        return resource.get("metadata", {}).get("name", "")
    return resource.get("metadata", {}).get("namespace", "") or ""


def resource_filter_matches(
    description: dict[str, Any], resource: dict[str, Any], facts: Facts
) -> bool:
    """One ``resources`` block: every field present must hold."""
    meta = resource.get("metadata") or {}
    name = meta.get("name", "") or meta.get("generateName", "")
    if description.get("kinds") and not _kinds_match(description["kinds"], resource, facts):
        return False
    if description.get("name") and not _wild(description["name"], name):
        return False
    if description.get("names") and not any(_wild(n, name) for n in description["names"]):
        return False
    if description.get("namespaces") and not any(
        _wild(n, _namespace_of(resource)) for n in description["namespaces"]
    ):
        return False
    if description.get("annotations"):
        annotations = meta.get("annotations") or {}
        for key, value in description["annotations"].items():
            if not any(_wild(key, k) and _wild(str(value), str(v)) for k, v in annotations.items()):
                return False
    if "selector" in description and not selector_matches(
        description["selector"], meta.get("labels") or {}
    ):
        return False
    if "namespaceSelector" in description:
        # as Kyverno's matcher: a namespace selector never applies to a Namespace (a filter
        # with one matches none); any other object is selected on its namespace's labels, a
        # cluster-scoped one on none
        if resource.get("kind") == "Namespace":
            return False
        namespace = (resource.get("metadata") or {}).get("namespace") or ""
        labels = facts.namespace_labels.get(namespace, {}) if namespace else {}
        if not selector_matches(description["namespaceSelector"], labels):
            return False
    return not (description.get("operations") and facts.operation not in description["operations"])


_NO_USER = UserInfo()


def _filter_matches(
    flt: dict[str, Any], resource: dict[str, Any], facts: Facts, excluding: bool
) -> bool:
    resources = flt.get("resources")
    if resources is not None and not resource_filter_matches(resources, resource, facts):
        return False
    # As Kyverno's matcher: with no requesting user at all (offline without a test's userinfo)
    # a match filter's roles, clusterRoles and subjects are not checked — a filter left with no
    # resource description then matches nothing ("match cannot be empty"); an exclude filter's
    # are checked (an unknown user matches none of them, so excludes nothing by them)
    if not excluding and facts.user == _NO_USER:
        return bool(resources)
    return user_matches(flt, facts.user)


def block_matches(
    block: dict[str, Any] | None, resource: dict[str, Any], facts: Facts, excluding: bool = False
) -> bool:
    """A whole ``match`` (or, ``excluding``, ``exclude``) block."""
    if not block:
        return False
    if block.get("any"):
        return any(_filter_matches(f, resource, facts, excluding) for f in block["any"])
    if block.get("all"):
        return all(_filter_matches(f, resource, facts, excluding) for f in block["all"])
    return _filter_matches(block, resource, facts, excluding)


def rule_applies(rule: dict[str, Any], resource: dict[str, Any], facts: Facts) -> bool:
    if not block_matches(rule.get("match"), resource, facts):
        return False
    exclude = rule.get("exclude")
    has_filters = isinstance(exclude, dict) and any(
        exclude.get(k) for k in ("any", "all", "resources", "subjects", "roles", "clusterRoles")
    )
    return not (has_filters and block_matches(exclude, resource, facts, excluding=True))
