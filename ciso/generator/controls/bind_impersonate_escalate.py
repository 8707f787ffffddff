"""CIS 5.1.8: no role may bind, escalate or impersonate."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._rbac_match import grants
from ciso.generator.controls._rbac_text import EXEMPT_AUDITOR, EXEMPT_CIS, EXEMPT_OPERATOR
from ciso.generator.rbac import RbacControl, Rule

_VERBS = ("bind", "escalate", "impersonate")
_TARGETS = ("roles", "clusterroles", "users", "groups", "serviceaccounts", "uids")


def violates(rule: Mapping[str, Any]) -> bool:
    # the resource names are unambiguous: the API group is not in question
    return grants(rule, _VERBS, None, _TARGETS)


def bad_rule(rng: Random) -> Rule:
    rbac = "rbac.authorization.k8s.io"
    return rng.choice(
        (
            {"apiGroups": [rbac], "resources": ["clusterroles"], "verbs": ["bind", "escalate"]},
            {"apiGroups": [""], "resources": ["serviceaccounts"], "verbs": ["impersonate"]},
            {"apiGroups": [rbac], "resources": ["roles"], "verbs": ["*"]},
            {"apiGroups": [""], "resources": ["users", "groups"], "verbs": ["impersonate"]},
            {"apiGroups": [rbac], "resources": ["*"], "verbs": ["escalate"]},
        )
    )


def read_roles(rng: Random) -> Rule:
    rbac = "rbac.authorization.k8s.io"
    return {"apiGroups": [rbac], "resources": ["roles", "clusterroles"], "verbs": ["get", "list"]}


def create_bindings(rng: Random) -> Rule:
    rbac = "rbac.authorization.k8s.io"
    return {"apiGroups": [rbac], "resources": ["rolebindings"], "verbs": ["create", "delete"]}


def scheduler_binding(rng: Random) -> Rule:
    return {"apiGroups": [""], "resources": ["pods/binding"], "verbs": ["create"]}


CONTROL = RbacControl(
    cis_id="5.1.8",
    builtin_id="cis-k8s-5.1.8-bind-impersonate-escalate",
    violates=violates,
    bad_rule=bad_rule,
    near_misses=(read_roles, create_bindings, scheduler_binding),
    phrasings=(
        "Privilege-granting verbs stay with the cluster admins: any rule granting bind, escalate "
        "or impersonate (or the * verb) on roles, clusterroles, users, groups, serviceaccounts or "
        'uids (or on the "*" resource) is a finding, whatever its API group. Creating '
        "rolebindings and the pods/binding subresource are fine. " + EXEMPT_OPERATOR,
        "Finding criteria: a Role or ClusterRole fails when one rule grants bind, escalate, "
        'impersonate or * on roles, clusterroles, users, groups, serviceaccounts, uids or "*" '
        "(API groups are not considered). Read verbs and create on rolebindings pass. "
        + EXEMPT_AUDITOR,
        "bind, escalate and impersonate let a subject grant itself permissions it does not hold "
        "or act as someone else. Flag every Role and ClusterRole with a rule granting one of "
        'these verbs (the "*" verb included) on roles, clusterroles, users, groups, '
        'serviceaccounts or uids, a "*" resource included. ' + EXEMPT_CIS,
    ),
)
