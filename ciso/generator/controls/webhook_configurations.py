"""CIS 5.1.12: no role may write admission webhook configurations."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._rbac_match import grants
from ciso.generator.controls._rbac_text import EXEMPT_AUDITOR, EXEMPT_CIS, EXEMPT_OPERATOR
from ciso.generator.rbac import RbacControl, Rule

_GROUP = "admissionregistration.k8s.io"
_WRITE = ("create", "update", "patch", "delete", "deletecollection")
_WEBHOOKS = ("validatingwebhookconfigurations", "mutatingwebhookconfigurations")


def violates(rule: Mapping[str, Any]) -> bool:
    return grants(rule, _WRITE, (_GROUP,), _WEBHOOKS)


def bad_rule(rng: Random) -> Rule:
    return rng.choice(
        (
            {"apiGroups": [_GROUP], "resources": [_WEBHOOKS[0]], "verbs": ["create"]},
            {"apiGroups": [_GROUP], "resources": [_WEBHOOKS[1]], "verbs": ["get", "patch"]},
            {"apiGroups": [_GROUP], "resources": ["*"], "verbs": ["delete"]},
            {"apiGroups": ["*"], "resources": list(_WEBHOOKS), "verbs": ["*"]},
        )
    )


def read_webhooks(rng: Random) -> Rule:
    return {"apiGroups": [_GROUP], "resources": list(_WEBHOOKS), "verbs": ["get", "list", "watch"]}


def admission_policies(rng: Random) -> Rule:
    resources = ["validatingadmissionpolicies", "validatingadmissionpolicybindings"]
    return {"apiGroups": [_GROUP], "resources": resources, "verbs": ["create", "update"]}


def lookalike_group(rng: Random) -> Rule:
    return {
        "apiGroups": ["hooks.example.com"],
        "resources": ["webhookconfigurations"],
        "verbs": ["*"],
    }


CONTROL = RbacControl(
    cis_id="5.1.12",
    builtin_id="cis-k8s-5.1.12-webhook-configurations",
    violates=violates,
    bad_rule=bad_rule,
    near_misses=(read_webhooks, admission_policies, lookalike_group),
    phrasings=(
        "Admission webhooks see and can rewrite every object, so nobody edits them through a "
        "role: any rule granting create, update, patch, delete, deletecollection or * on "
        "validatingwebhookconfigurations or mutatingwebhookconfigurations in "
        f'{_GROUP} (a "*" group or "*" resource counts) is a finding. Read-only access is fine. '
        + EXEMPT_OPERATOR,
        "Finding criteria: a Role or ClusterRole fails when one rule grants a write verb (create, "
        "update, patch, delete, deletecollection or *) on validatingwebhookconfigurations, "
        f'mutatingwebhookconfigurations or "*", in the {_GROUP} or "*" API group. get, list and '
        "watch pass. " + EXEMPT_AUDITOR,
        "Whoever can change admission webhook configurations can read or modify every object "
        "sent to the API server. Flag every Role and ClusterRole with a rule granting a write "
        "verb (create, update, patch, delete, deletecollection or *) on validating or mutating "
        f'webhook configurations in the {_GROUP} API group, "*" groups and resources included. '
        + EXEMPT_CIS,
    ),
)
