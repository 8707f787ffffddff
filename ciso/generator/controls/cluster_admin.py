"""CIS 5.1.1: nobody outside the built-in administrators is bound to the cluster-admin
ClusterRole."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ciso.generator.bindings import BindingControl, RoleRef
from ciso.generator.controls._rbac_text import BINDINGS_AUDITOR, BINDINGS_CIS, BINDINGS_OPERATOR


def violates(binding: Mapping[str, Any]) -> bool:
    ref = binding.get("roleRef") or {}
    return ref.get("kind") == "ClusterRole" and ref.get("name") == "cluster-admin"


def bad_ref(rng: Random) -> RoleRef:
    return {"kind": "ClusterRole", "name": "cluster-admin"}


def namespaced_role_named_cluster_admin(rng: Random) -> tuple[str, RoleRef]:
    return "RoleBinding", {"kind": "Role", "name": "cluster-admin"}


def admin_role(rng: Random) -> tuple[str, RoleRef]:
    return rng.choice(("RoleBinding", "ClusterRoleBinding")), {
        "kind": "ClusterRole",
        "name": "admin",
    }


def lookalike_name(rng: Random) -> tuple[str, RoleRef]:
    return "ClusterRoleBinding", {"kind": "ClusterRole", "name": "cluster-admin-readonly"}


CONTROL = BindingControl(
    cis_id="5.1.1",
    builtin_id="cis-k8s-5.1.1-cluster-admin",
    violates=violates,
    bad_ref=bad_ref,
    near_misses=(namespaced_role_named_cluster_admin, admin_role, lookalike_name),
    phrasings=(
        "Nobody outside the built-in administrators holds cluster-admin: every ClusterRoleBinding "
        "or RoleBinding whose roleRef is the ClusterRole cluster-admin is a finding (a RoleBinding "
        "to it counts too; a namespaced Role that happens to be called cluster-admin does not). "
        + BINDINGS_OPERATOR,
        "Finding criteria: a ClusterRoleBinding or RoleBinding fails when its roleRef has kind "
        "ClusterRole and name cluster-admin. Bindings to other roles, and to a Role named "
        "cluster-admin, pass. " + BINDINGS_AUDITOR,
        "The cluster-admin ClusterRole grants unrestricted access. Flag every ClusterRoleBinding "
        "and RoleBinding that references the ClusterRole cluster-admin in its roleRef. "
        + BINDINGS_CIS,
    ),
)
