"""CIS 5.1.2: no role lets its holders read Secrets."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._rbac_text import EXEMPT_AUDITOR, EXEMPT_CIS, EXEMPT_OPERATOR
from ciso.generator.rbac import RbacControl, Rule

_READ = {"get", "list", "watch", "*"}


def violates(rule: Mapping[str, Any]) -> bool:
    if not _READ & set(rule.get("verbs") or ()):
        return False
    resources = set(rule.get("resources") or ())
    core = bool({"", "*"} & set(rule.get("apiGroups") or ()))
    return core and bool({"secrets", "*"} & resources)


def bad_rule(rng: Random) -> Rule:
    return rng.choice(
        (
            {"apiGroups": [""], "resources": ["secrets"], "verbs": ["get"]},
            {"apiGroups": [""], "resources": ["configmaps", "secrets"], "verbs": ["list", "watch"]},
            {"apiGroups": [""], "resources": ["secrets"], "verbs": ["*"]},
            {"apiGroups": [""], "resources": ["*"], "verbs": ["list"]},
        )
    )


def write_only(rng: Random) -> Rule:
    return {"apiGroups": [""], "resources": ["secrets"], "verbs": ["create", "update"]}


def lookalike_resource(rng: Random) -> Rule:
    group = "secrets-store.csi.x-k8s.io"
    return {"apiGroups": [group], "resources": ["secretproviderclasses"], "verbs": ["get", "list"]}


CONTROL = RbacControl(
    cis_id="5.1.2",
    builtin_id="cis-k8s-5.1.2-secrets-access",
    violates=violates,
    bad_rule=bad_rule,
    near_misses=(write_only, lookalike_resource),
    phrasings=(
        "Nobody should be able to read Secrets through a role: any rule granting get, list or "
        "watch (or the * verb) on secrets, or on * resources in the core or * API group, is a "
        "finding. " + EXEMPT_OPERATOR,
        "Finding criteria: a Role or ClusterRole fails when a rule grants get, list, watch or * "
        'on the secrets resource, or on the "*" resource in the core ("") or "*" API group. '
        + EXEMPT_AUDITOR,
        "Reading Secrets discloses credentials. Flag every Role and ClusterRole with a rule that "
        "grants get, list or watch (or the * verb) on secrets, including through a * resource "
        "in the core or * API group. " + EXEMPT_CIS,
    ),
)
