"""CIS 5.1.10: no role may reach nodes/proxy, with any verb."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._rbac_match import grants
from ciso.generator.controls._rbac_text import EXEMPT_AUDITOR, EXEMPT_CIS, EXEMPT_OPERATOR
from ciso.generator.rbac import RbacControl, Rule


def violates(rule: Mapping[str, Any]) -> bool:
    return grants(rule, None, ("",), ("nodes/proxy",))


def bad_rule(rng: Random) -> Rule:
    return rng.choice(
        (
            {"apiGroups": [""], "resources": ["nodes/proxy"], "verbs": ["get"]},
            {"apiGroups": [""], "resources": ["*/proxy"], "verbs": ["get", "create"]},
            {"apiGroups": [""], "resources": ["*"], "verbs": ["get"]},
            {"apiGroups": ["*"], "resources": ["nodes", "nodes/proxy"], "verbs": ["list"]},
        )
    )


def node_metrics(rng: Random) -> Rule:
    return {
        "apiGroups": [""],
        "resources": ["nodes", "nodes/metrics", "nodes/stats"],
        "verbs": ["get", "list"],
    }


def other_proxies(rng: Random) -> Rule:
    return {"apiGroups": [""], "resources": ["services/proxy", "pods/proxy"], "verbs": ["get"]}


def other_group_wildcard(rng: Random) -> Rule:
    return {"apiGroups": ["metrics.k8s.io"], "resources": ["*"], "verbs": ["get", "list"]}


CONTROL = RbacControl(
    cis_id="5.1.10",
    builtin_id="cis-k8s-5.1.10-node-proxy",
    violates=violates,
    bad_rule=bad_rule,
    near_misses=(node_metrics, other_proxies, other_group_wildcard),
    phrasings=(
        "Nobody gets the kubelet API through a role: any rule granting any verb, read verbs "
        'included, on nodes/proxy in the core API group (named, through "*/proxy", or through a '
        '"*" resource or group) is a finding. Other proxy subresources and node metrics are '
        "fine. " + EXEMPT_OPERATOR,
        "Finding criteria: a Role or ClusterRole fails when one rule grants at least one verb on "
        'nodes/proxy, "*/proxy" or "*" in the core ("") or "*" API group. services/proxy, '
        "pods/proxy, nodes/metrics and nodes/stats pass. " + EXEMPT_AUDITOR,
        "The nodes/proxy subresource gives direct access to every kubelet's API. Flag every Role "
        "and ClusterRole with a rule granting any verb on nodes/proxy in the core API group, "
        'whether named or reached through "*/proxy" or a "*" resource or group. ' + EXEMPT_CIS,
    ),
)
