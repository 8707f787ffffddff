"""CIS 5.1.11: no role may approve certificate signing requests."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._rbac_match import grants
from ciso.generator.controls._rbac_text import EXEMPT_AUDITOR, EXEMPT_CIS, EXEMPT_OPERATOR
from ciso.generator.rbac import RbacControl, Rule

_GROUP = "certificates.k8s.io"


def violates(rule: Mapping[str, Any]) -> bool:
    return grants(rule, ("update",), (_GROUP,), ("certificatesigningrequests/approval",))


def bad_rule(rng: Random) -> Rule:
    return rng.choice(
        (
            {
                "apiGroups": [_GROUP],
                "resources": ["certificatesigningrequests/approval"],
                "verbs": ["update"],
            },
            {
                "apiGroups": ["*"],
                "resources": ["certificatesigningrequests/approval"],
                "verbs": ["*"],
            },
            {"apiGroups": [_GROUP], "resources": ["*/approval"], "verbs": ["update"]},
            {"apiGroups": [_GROUP], "resources": ["*"], "verbs": ["update", "get"]},
        )
    )


def read_requests(rng: Random) -> Rule:
    resources = ["certificatesigningrequests", "certificatesigningrequests/approval"]
    return {"apiGroups": [_GROUP], "resources": resources, "verbs": ["get", "list", "watch"]}


def update_status(rng: Random) -> Rule:
    resources = ["certificatesigningrequests/status"]
    return {"apiGroups": [_GROUP], "resources": resources, "verbs": ["update"]}


def approval_in_another_group(rng: Random) -> Rule:
    return {"apiGroups": ["example.com"], "resources": ["*/approval"], "verbs": ["update"]}


CONTROL = RbacControl(
    cis_id="5.1.11",
    builtin_id="cis-k8s-5.1.11-csr-approval",
    violates=violates,
    bad_rule=bad_rule,
    near_misses=(read_requests, update_status, approval_in_another_group),
    phrasings=(
        "Only the cluster's own signers approve CSRs: any rule granting update (or the * verb) "
        "on certificatesigningrequests/approval in certificates.k8s.io is a finding, counting a "
        '"*" API group, a "*" resource and "*/approval" as granting it. Reading CSRs or updating '
        "their status is fine. " + EXEMPT_OPERATOR,
        "Finding criteria: a Role or ClusterRole fails when one rule grants update or * on "
        'certificatesigningrequests/approval, "*/approval" or "*", in the certificates.k8s.io or '
        '"*" API group. Read verbs and certificatesigningrequests/status pass. ' + EXEMPT_AUDITOR,
        "Approving certificate signing requests lets a subject mint client certificates. Flag "
        "every Role and ClusterRole with a rule granting update (or *) on "
        "certificatesigningrequests/approval in the certificates.k8s.io API group, wildcard "
        'groups, "*" resources and "*/approval" included. ' + EXEMPT_CIS,
    ),
)
