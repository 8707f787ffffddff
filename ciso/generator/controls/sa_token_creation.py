"""CIS 5.1.13: no role may mint service account tokens."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._rbac_match import grants
from ciso.generator.controls._rbac_text import EXEMPT_AUDITOR, EXEMPT_CIS, EXEMPT_OPERATOR
from ciso.generator.rbac import RbacControl, Rule


def violates(rule: Mapping[str, Any]) -> bool:
    return grants(rule, ("create",), ("",), ("serviceaccounts/token",))


def bad_rule(rng: Random) -> Rule:
    return rng.choice(
        (
            {"apiGroups": [""], "resources": ["serviceaccounts/token"], "verbs": ["create"]},
            {"apiGroups": [""], "resources": ["serviceaccounts/token"], "verbs": ["*"]},
            {"apiGroups": [""], "resources": ["*/token"], "verbs": ["create"]},
            {"apiGroups": [""], "resources": ["*"], "verbs": ["create"]},
        )
    )


def create_accounts(rng: Random) -> Rule:
    return {"apiGroups": [""], "resources": ["serviceaccounts"], "verbs": ["create", "get"]}


def read_token(rng: Random) -> Rule:
    return {"apiGroups": [""], "resources": ["serviceaccounts/token"], "verbs": ["get"]}


def token_in_another_group(rng: Random) -> Rule:
    return {"apiGroups": ["tokens.example.com"], "resources": ["*/token"], "verbs": ["create"]}


CONTROL = RbacControl(
    cis_id="5.1.13",
    builtin_id="cis-k8s-5.1.13-sa-token-creation",
    violates=violates,
    bad_rule=bad_rule,
    near_misses=(create_accounts, read_token, token_in_another_group),
    phrasings=(
        "Minting service account tokens must be rare: any rule granting create (or the * verb) "
        'on serviceaccounts/token in the core API group, named or reached through "*/token" or a '
        '"*" resource or group, is a finding. Creating service accounts themselves is fine. '
        + EXEMPT_OPERATOR,
        "Finding criteria: a Role or ClusterRole fails when one rule grants create or * on "
        'serviceaccounts/token, "*/token" or "*", in the core ("") or "*" API group. get on the '
        "token subresource and create on serviceaccounts pass. " + EXEMPT_AUDITOR,
        "The TokenRequest API issues credentials for any service account its caller can name. "
        "Flag every Role and ClusterRole with a rule granting create (or *) on the "
        "serviceaccounts/token subresource of the core API group, whether named, through "
        '"*/token" or through a "*" resource or group. ' + EXEMPT_CIS,
    ),
)
