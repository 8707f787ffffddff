"""CIS 5.1.7: no binding grants anything to the system:masters group."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.bindings import BindingControl, RoleRef, Subject
from ciso.generator.controls._rbac_text import BINDINGS_AUDITOR, BINDINGS_CIS, BINDINGS_OPERATOR

_GROUP = "system:masters"
_RBAC = "rbac.authorization.k8s.io"


def violates(binding: Mapping[str, Any]) -> bool:
    return any(
        s.get("kind") == "Group" and s.get("name") == _GROUP for s in binding.get("subjects") or ()
    )


def bad_subject(rng: Random) -> Subject:
    return {"kind": "Group", "apiGroup": _RBAC, "name": _GROUP}


def bad_ref(rng: Random) -> RoleRef:
    # whatever role is bound: the group is the finding (used where a roleRef is needed alone)
    return {"kind": "ClusterRole", "name": rng.choice(("view", "edit", "admin"))}


def user_named_like_the_group(rng: Random) -> list[Subject]:
    return [{"kind": "User", "apiGroup": _RBAC, "name": _GROUP}]


def similar_group_names(rng: Random) -> list[Subject]:
    names = ["system:masters-readonly", "masters", "system:master", "System:Masters"]
    return [{"kind": "Group", "apiGroup": _RBAC, "name": n} for n in rng.sample(names, 2)]


def service_account_named_masters(rng: Random) -> list[Subject]:
    return [{"kind": "ServiceAccount", "name": "masters", "namespace": "kube-system"}]


CONTROL = BindingControl(
    cis_id="5.1.7",
    builtin_id="cis-k8s-5.1.7-system-masters",
    violates=violates,
    bad_ref=bad_ref,
    near_misses=(),
    phrasings=(
        "Nobody gets anything through the system:masters group (its members bypass RBAC and "
        "cannot be revoked): every ClusterRoleBinding or RoleBinding with a subject of kind "
        "Group named system:masters is a finding, whatever role it binds and wherever the "
        "subject sits in the list. A User or ServiceAccount with a similar name is not the "
        "group. " + BINDINGS_OPERATOR,
        "Finding criteria: a ClusterRoleBinding or RoleBinding fails when one of its subjects "
        "has kind Group and name system:masters (exactly). The role referenced does not matter. "
        + BINDINGS_AUDITOR,
        "Members of system:masters hold unrestricted access that RBAC cannot remove. Flag every "
        "ClusterRoleBinding and RoleBinding listing the Group system:masters among its subjects. "
        + BINDINGS_CIS,
    ),
    bad_subject=bad_subject,
    subject_near_misses=(
        user_named_like_the_group,
        similar_group_names,
        service_account_named_masters,
    ),
)
