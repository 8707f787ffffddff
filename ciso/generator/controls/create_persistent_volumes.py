"""CIS 5.1.9: no role may create PersistentVolumes (claims are fine)."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.controls._rbac_match import grants
from ciso.generator.controls._rbac_text import EXEMPT_AUDITOR, EXEMPT_CIS, EXEMPT_OPERATOR
from ciso.generator.rbac import RbacControl, Rule


def violates(rule: Mapping[str, Any]) -> bool:
    return grants(rule, ("create",), ("",), ("persistentvolumes",))


def bad_rule(rng: Random) -> Rule:
    return rng.choice(
        (
            {"apiGroups": [""], "resources": ["persistentvolumes"], "verbs": ["create"]},
            {"apiGroups": [""], "resources": ["persistentvolumes"], "verbs": ["*"]},
            {"apiGroups": [""], "resources": ["*"], "verbs": ["create", "get"]},
            {"apiGroups": ["*"], "resources": ["persistentvolumes"], "verbs": ["create"]},
        )
    )


def claims(rng: Random) -> Rule:
    return {"apiGroups": [""], "resources": ["persistentvolumeclaims"], "verbs": ["create"]}


def read_volumes(rng: Random) -> Rule:
    return {"apiGroups": [""], "resources": ["persistentvolumes"], "verbs": ["get", "list"]}


def storage_classes(rng: Random) -> Rule:
    return {"apiGroups": ["storage.k8s.io"], "resources": ["storageclasses"], "verbs": ["create"]}


def other_group_wildcard(rng: Random) -> Rule:
    return {"apiGroups": ["apps"], "resources": ["*"], "verbs": ["get"]}


CONTROL = RbacControl(
    cis_id="5.1.9",
    builtin_id="cis-k8s-5.1.9-create-persistent-volumes",
    violates=violates,
    bad_rule=bad_rule,
    near_misses=(claims, read_volumes, storage_classes, other_group_wildcard),
    phrasings=(
        "Creating PersistentVolumes stays with the storage provisioners: any rule granting create "
        '(or the * verb) on persistentvolumes in the core API group, "*" resources of the core '
        'group and the "*" group included, is a finding. Claims (persistentvolumeclaims) and '
        "reading volumes are fine. " + EXEMPT_OPERATOR,
        "Finding criteria: a Role or ClusterRole fails when one rule grants create or * on "
        'persistentvolumes or on "*" resources, in the core ("") or "*" API group. '
        "persistentvolumeclaims and read verbs pass. " + EXEMPT_AUDITOR,
        "A PersistentVolume can point at a path on the node, so creating one amounts to host "
        "access. Flag every Role and ClusterRole with a rule granting create (or *) on "
        'persistentvolumes in the core API group, including through "*" resources or groups; '
        "claims do not count. " + EXEMPT_CIS,
    ),
)
