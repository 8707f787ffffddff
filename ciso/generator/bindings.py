"""Instances of the binding controls: RoleBindings and ClusterRoleBindings judged by what they
bind (``roleRef``), not by the rules of a role.

A naive policy matches ClusterRoleBindings only; here a namespaced RoleBinding to a ClusterRole
is always among the violations, and a binding that looks built-in (a label
``kubernetes.io/bootstrapping`` with another value) too. The compliant side holds bindings to
other roles, a RoleBinding to a namespaced Role that shares the forbidden name, roles violating
other RBAC controls with their bindings, and the control's own violation in exempt places (a
``system:`` binding, an ``rbac-defaults`` one, a kube-system RoleBinding).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from ciso.generator.instance import Instance, namespace_objects
from ciso.generator.rbac import RbacControl, exempt
from ciso.generator.workloads import fresh_name, fresh_namespace

Manifest = dict[str, Any]
#: What a binding grants: ``{"kind": ..., "name": ...}`` (the apiGroup is added when written).
RoleRef = dict[str, str]
Subject = dict[str, str]
_RBAC = "rbac.authorization.k8s.io"


@dataclass(frozen=True)
class BindingControl:
    """One control on bindings: a predicate on a binding, its bad roleRefs, its near-misses."""

    cis_id: str
    builtin_id: str
    #: The control's meaning: does this binding (exemptions aside) violate it?
    violates: Callable[[Mapping[str, Any]], bool]
    #: A roleRef the control forbids.
    bad_ref: Callable[[Random], RoleRef]
    #: (binding kind, roleRef) pairs that look like violations and are not.
    near_misses: tuple[Callable[[Random], tuple[str, RoleRef]], ...]
    phrasings: tuple[str, ...]
    #: A subject the control forbids (whatever the role bound), for controls on who is bound;
    #: None: the control judges the roleRef alone.
    bad_subject: Callable[[Random], Subject] | None = None
    #: Subject lists that look like violations and are not (bound to a clean role).
    subject_near_misses: tuple[Callable[[Random], list[Subject]], ...] = ()


def _subjects(rng: Random, namespace: str) -> list[dict[str, str]]:
    pool = [
        {
            "kind": "ServiceAccount",
            "name": rng.choice(("deployer", "ci-bot", "argo")),
            "namespace": namespace,
        },
        {"kind": "User", "apiGroup": _RBAC, "name": rng.choice(("alice@example.com", "oncall"))},
        {"kind": "Group", "apiGroup": _RBAC, "name": rng.choice(("sre", "platform-admins"))},
    ]
    return rng.sample(pool, rng.randrange(1, 3))


def binding(
    kind: str,
    name: str,
    namespace: str,
    ref: RoleRef,
    rng: Random,
    labels: dict | None = None,
    subjects: list[Subject] | None = None,
) -> Manifest:
    meta: dict[str, Any] = {"name": name}
    if kind == "RoleBinding":
        meta["namespace"] = namespace
    if labels:
        meta["labels"] = labels
    return {
        "apiVersion": f"{_RBAC}/v1",
        "kind": kind,
        "metadata": meta,
        "subjects": subjects if subjects is not None else _subjects(rng, namespace or "default"),
        "roleRef": {"apiGroup": _RBAC, **ref},
    }


def violation(
    control: BindingControl,
    kind: str,
    name: str,
    namespace: str,
    rng: Random,
    labels: dict | None = None,
    first: bool = False,
) -> Manifest:
    """A binding the control flags (exemptions aside): to a forbidden role or, for a control on
    subjects, of the forbidden subject to a harmless role, after other subjects unless ``first``."""
    if control.bad_subject is None:
        return binding(kind, name, namespace, control.bad_ref(rng), rng, labels)
    ref = rng.choice(
        [r for r in _CLEAN_REFS if kind == "RoleBinding" or r["kind"] == "ClusterRole"]
    )
    others = [] if first else _subjects(rng, namespace or "default")
    return binding(
        kind, name, namespace, dict(ref), rng, labels, [*others, control.bad_subject(rng)]
    )


def flagged(control: BindingControl, objects: Sequence[Manifest]) -> list[str]:
    out = []
    for obj in objects:
        if obj.get("kind") not in ("RoleBinding", "ClusterRoleBinding") or exempt(obj):
            continue
        if control.violates(obj):
            meta = obj["metadata"]
            out.append(f"{obj['kind']}/{meta.get('namespace', '')}/{meta['name']}")
    return sorted(out)


_CLEAN_REFS = (
    {"kind": "ClusterRole", "name": "view"},
    {"kind": "ClusterRole", "name": "edit"},
    {"kind": "Role", "name": "config-reader"},
)


def build_binding_instance(
    control: BindingControl,
    others: Sequence[RbacControl],
    rng: Random,
    binding_others: Sequence[BindingControl] = (),
) -> Instance:
    names: set[str] = set()
    taken: set[str] = set()
    namespaces = [fresh_namespace(rng, taken) for _ in range(2)]
    violating: list[Manifest] = []
    hidden: list[str] = []
    # a RoleBinding to the ClusterRole always; a binding that looks built-in; a cluster-wide one
    for kind, looks_built_in in (
        ("RoleBinding", False),
        (rng.choice(("RoleBinding", "ClusterRoleBinding")), True),
        ("ClusterRoleBinding", False),
    ):
        name = fresh_name(rng, names)
        labels = None
        if looks_built_in:
            labels = {"kubernetes.io/bootstrapping": rng.choice(("custom", "rbac-default", "helm"))}
        violating.append(violation(control, kind, name, rng.choice(namespaces), rng, labels))
        hidden.append(f"{kind} {name}" + (f" (label {labels})" if labels else ""))
    for ref in rng.sample(_CLEAN_REFS, 2):
        kind = (
            "RoleBinding"
            if ref["kind"] == "Role"
            else rng.choice(("RoleBinding", "ClusterRoleBinding"))
        )
        violating.append(
            binding(kind, fresh_name(rng, names), rng.choice(namespaces), dict(ref), rng)
        )
    compliant: list[Manifest] = []
    kept: list[str] = []
    for ref in _CLEAN_REFS:
        kind = "RoleBinding" if ref["kind"] == "Role" else "ClusterRoleBinding"
        compliant.append(
            binding(kind, fresh_name(rng, names), rng.choice(namespaces), dict(ref), rng)
        )
    for near_miss in control.near_misses:
        kind, ref = near_miss(rng)
        name = fresh_name(rng, names)
        compliant.append(binding(kind, name, rng.choice(namespaces), ref, rng))
        kept.append(f"near-miss {kind} {name} ({near_miss.__name__})")
    for subject_near_miss in control.subject_near_misses:
        kind = rng.choice(("RoleBinding", "ClusterRoleBinding"))
        ref = rng.choice(
            [r for r in _CLEAN_REFS if kind == "RoleBinding" or r["kind"] == "ClusterRole"]
        )
        name = fresh_name(rng, names)
        subjects = subject_near_miss(rng)
        compliant.append(
            binding(kind, name, rng.choice(namespaces), dict(ref), rng, None, subjects)
        )
        kept.append(f"near-miss {kind} {name} ({subject_near_miss.__name__})")
    # bindings violating the other binding controls (this one's predicate must not flag them)
    for other_binding in binding_others:
        kind = rng.choice(("RoleBinding", "ClusterRoleBinding"))
        name = fresh_name(rng, names)
        made = violation(other_binding, kind, name, rng.choice(namespaces), rng)
        if control.violates(made):
            continue
        compliant.append(made)
        kept.append(f"{kind} {name} violates CIS {other_binding.cis_id}, another control")
    for other in rng.sample(list(others), min(2, len(others))):
        role = fresh_name(rng, names)
        rules = [
            {"apiGroups": [""], "resources": ["configmaps"], "verbs": ["get"]},
            other.bad_rule(rng),
        ]
        compliant.append(
            {
                "apiVersion": f"{_RBAC}/v1",
                "kind": "ClusterRole",
                "metadata": {"name": role},
                "rules": rules,
            }
        )
        name = fresh_name(rng, names)
        compliant.append(
            binding("ClusterRoleBinding", name, "", {"kind": "ClusterRole", "name": role}, rng)
        )
        kept.append(
            f"ClusterRole {role} (bound by {name}) violates CIS {other.cis_id}, another control"
        )
    system = f"system:{fresh_name(rng, names)}"
    compliant.append(violation(control, "ClusterRoleBinding", system, "", rng))
    defaults = fresh_name(rng, names)
    compliant.append(
        violation(
            control,
            "ClusterRoleBinding",
            defaults,
            "",
            rng,
            {"kubernetes.io/bootstrapping": "rbac-defaults"},
        )
    )
    name = fresh_name(rng, names)
    compliant.append(violation(control, "RoleBinding", name, "kube-system", rng))
    kept.append(f"{system}, {defaults} (rbac-defaults) and kube-system/{name} violate (exempt)")
    truth, wrongly = flagged(control, violating), flagged(control, compliant)
    if len(truth) != len(hidden) or wrongly:
        raise AssertionError(f"CIS {control.cis_id}: generated truth {truth}, compliant {wrongly}")
    return Instance(
        violating=tuple(namespace_objects(violating) + violating),
        compliant=tuple(namespace_objects(compliant) + compliant),
        violating_resources=tuple(truth),
        requirement=rng.choice(control.phrasings),
        notes="Violations: " + "; ".join(hidden) + ". Compliant side: " + "; ".join(kept) + ".",
    )
