"""CIS 5.1.4: no role may create pods, directly or through a workload kind that creates them."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._rbac_match import grants
from ciso.generator.controls._rbac_text import EXEMPT_AUDITOR, EXEMPT_CIS, EXEMPT_OPERATOR
from ciso.generator.rbac import RbacControl, Rule

_GROUPS = ("", "apps", "batch", "extensions")
_POD_MAKERS = (
    "pods",
    "deployments",
    "replicasets",
    "statefulsets",
    "daemonsets",
    "jobs",
    "cronjobs",
    "replicationcontrollers",
)


def violates(rule: Mapping[str, Any]) -> bool:
    return grants(rule, ("create",), _GROUPS, _POD_MAKERS)


def bad_rule(rng: Random) -> Rule:
    return rng.choice(
        (
            {"apiGroups": [""], "resources": ["pods"], "verbs": ["create", "get"]},
            {"apiGroups": ["batch"], "resources": ["cronjobs"], "verbs": ["create"]},
            {"apiGroups": ["apps"], "resources": ["deployments"], "verbs": ["*"]},
            {"apiGroups": ["apps"], "resources": ["*"], "verbs": ["create"]},
            {"apiGroups": ["*"], "resources": ["jobs"], "verbs": ["create", "delete"]},
        )
    )


def pod_subresources(rng: Random) -> Rule:
    return {"apiGroups": [""], "resources": ["pods/exec", "pods/eviction"], "verbs": ["create"]}


def update_only(rng: Random) -> Rule:
    return {"apiGroups": ["apps"], "resources": ["deployments"], "verbs": ["update", "patch"]}


def other_group_wildcard(rng: Random) -> Rule:
    return {"apiGroups": ["networking.k8s.io"], "resources": ["*"], "verbs": ["create"]}


CONTROL = RbacControl(
    cis_id="5.1.4",
    builtin_id="cis-k8s-5.1.4-create-pods",
    violates=violates,
    bad_rule=bad_rule,
    near_misses=(pod_subresources, update_only, other_group_wildcard),
    phrasings=(
        "Only built-in roles may start pods: any rule granting create (or the * verb) on pods, or "
        "on a kind that creates pods (deployments, replicasets, statefulsets, daemonsets, jobs, "
        'cronjobs, replicationcontrollers), in the core, apps, batch, extensions or "*" API '
        'group, is a finding, "*" resources included. Subresources such as pods/exec are not '
        "pod creation. " + EXEMPT_OPERATOR,
        "Finding criteria: a Role or ClusterRole fails when one rule grants create or * on pods, "
        "deployments, replicasets, statefulsets, daemonsets, jobs, cronjobs or "
        'replicationcontrollers (or on the "*" resource) in the "", apps, batch, extensions or '
        '"*" API group; verbs other than create, and subresources, pass. ' + EXEMPT_AUDITOR,
        "The ability to create pods (directly or through a workload controller) lets a holder run "
        "arbitrary code with any service account of the namespace. Flag every Role and "
        "ClusterRole with a rule granting create (or *) on pods or on a pod-creating kind "
        "(deployments, replicasets, statefulsets, daemonsets, jobs, cronjobs, "
        'replicationcontrollers), including through "*" resources or groups. ' + EXEMPT_CIS,
    ),
)
