"""CIS 5.1.3: no wildcard in a rule's apiGroups, resources or verbs."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._rbac_text import EXEMPT_AUDITOR, EXEMPT_CIS, EXEMPT_OPERATOR
from ciso.generator.rbac import RbacControl, Rule


def violates(rule: Mapping[str, Any]) -> bool:
    return (
        "*" in (rule.get("apiGroups") or ())
        or "*" in (rule.get("verbs") or ())
        or any(r == "*" or str(r).startswith("*/") for r in rule.get("resources") or ())
    )


def bad_rule(rng: Random) -> Rule:
    return rng.choice(
        (
            {"apiGroups": ["apps"], "resources": ["deployments"], "verbs": ["*"]},
            {"apiGroups": ["*"], "resources": ["ingresses"], "verbs": ["get", "list"]},
            {"apiGroups": [""], "resources": ["*"], "verbs": ["get"]},
            {"apiGroups": [""], "resources": ["*/status"], "verbs": ["get"]},
        )
    )


def every_verb_listed(rng: Random) -> Rule:
    verbs = ["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"]
    return {"apiGroups": ["apps"], "resources": ["statefulsets"], "verbs": verbs}


def subresources_named(rng: Random) -> Rule:
    return {
        "apiGroups": ["apps"],
        "resources": ["deployments/scale", "deployments/status"],
        "verbs": ["get", "patch"],
    }


CONTROL = RbacControl(
    cis_id="5.1.3",
    builtin_id="cis-k8s-5.1.3-rbac-wildcards",
    violates=violates,
    bad_rule=bad_rule,
    near_misses=(every_verb_listed, subresources_named),
    phrasings=(
        'Every Role and ClusterRole has to spell out what it grants: a "*" in any rule\'s '
        'apiGroups, resources or verbs (or a resource like "*/status") is a finding. '
        + EXEMPT_OPERATOR,
        "Finding criteria: a Role or ClusterRole fails when any of its rules uses the wildcard "
        '"*" in apiGroups, resources or verbs, or a resource of the form "*/<subresource>". '
        + EXEMPT_AUDITOR,
        "Wildcards grant access to objects and verbs that may not exist yet. Flag every Role "
        'and ClusterRole with a rule using "*" in its apiGroups, resources or verbs (including '
        '"*/<subresource>" resources). ' + EXEMPT_CIS,
    ),
)
