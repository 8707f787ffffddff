"""Instances of the RBAC controls: Roles and ClusterRoles whose violating rule is never the first.

A naive policy reads ``rules[0]``; every violation here sits in a later rule. The compliant side
holds clean roles, the control's near-misses, a violation of another RBAC control, and the
control's own violation in exempt places (a ``system:`` ClusterRole, a Role in kube-system).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from ciso.generator.instance import Instance, namespace_objects
from ciso.generator.model import EXEMPT_NAMESPACES
from ciso.generator.workloads import fresh_name, fresh_namespace

Rule = dict[str, Any]
Manifest = dict[str, Any]

_CLEAN_RULES: tuple[Rule, ...] = (
    {"apiGroups": [""], "resources": ["configmaps"], "verbs": ["get", "list"]},
    {"apiGroups": ["apps"], "resources": ["deployments"], "verbs": ["get", "list", "watch"]},
    {"apiGroups": [""], "resources": ["pods", "pods/log"], "verbs": ["get", "list"]},
    {"apiGroups": ["batch"], "resources": ["jobs", "cronjobs"], "verbs": ["get", "list"]},
    {"apiGroups": [""], "resources": ["services", "endpoints"], "verbs": ["get", "watch"]},
)


@dataclass(frozen=True)
class RbacControl:
    """One RBAC control: a predicate on one rule, its violating rules, its near-misses."""

    cis_id: str
    builtin_id: str
    #: The control's meaning: does this rule violate it?
    violates: Callable[[Mapping[str, Any]], bool]
    #: A violating rule, fresh for each call.
    bad_rule: Callable[[Random], Rule]
    #: Rules that look like violations and are not.
    near_misses: tuple[Callable[[Random], Rule], ...]
    phrasings: tuple[str, ...]


def exempt(obj: Mapping[str, Any]) -> bool:
    meta = obj.get("metadata") or {}
    labels = meta.get("labels") or {}
    return (
        str(meta.get("name", "")).startswith("system:")
        or labels.get("kubernetes.io/bootstrapping") == "rbac-defaults"
        or meta.get("namespace") in EXEMPT_NAMESPACES
    )


def flagged(control: RbacControl, objects: Sequence[Manifest]) -> list[str]:
    out = []
    for obj in objects:
        if obj.get("kind") not in ("Role", "ClusterRole") or exempt(obj):
            continue
        if any(control.violates(rule) for rule in obj.get("rules") or ()):
            meta = obj["metadata"]
            out.append(f"{obj['kind']}/{meta.get('namespace', '')}/{meta['name']}")
    return sorted(out)


def _role(kind: str, name: str, namespace: str, rules: list[Rule]) -> Manifest:
    meta = {"name": name} if kind == "ClusterRole" else {"name": name, "namespace": namespace}
    group = "rbac.authorization.k8s.io/v1"
    return {"apiVersion": group, "kind": kind, "metadata": meta, "rules": rules}


def _clean(rng: Random, n: int) -> list[Rule]:
    return [dict(r) for r in rng.sample(_CLEAN_RULES, n)]


def build_rbac_instance(
    control: RbacControl, others: Sequence[RbacControl], rng: Random
) -> Instance:
    from ciso.generator.instance import Instance

    names: set[str] = set()
    taken: set[str] = set()
    namespaces = [fresh_namespace(rng, taken) for _ in range(2)]
    violating: list[Manifest] = []
    hidden: list[str] = []
    for kind in ("Role", "ClusterRole", rng.choice(("Role", "ClusterRole"))):
        rules = _clean(rng, rng.randrange(1, 3))
        position = rng.randrange(1, len(rules) + 1)  # never the first rule
        rules.insert(position, control.bad_rule(rng))
        name = fresh_name(rng, names)
        violating.append(_role(kind, name, rng.choice(namespaces), rules))
        hidden.append(f"{kind} {name}: rule {position + 1}")
    violating.append(_role("Role", fresh_name(rng, names), namespaces[0], _clean(rng, 2)))
    compliant: list[Manifest] = []
    kept: list[str] = []
    for kind in ("Role", "ClusterRole"):
        compliant.append(
            _role(kind, fresh_name(rng, names), rng.choice(namespaces), _clean(rng, 2))
        )
    for near_miss in control.near_misses:
        kind, name = rng.choice(("Role", "ClusterRole")), fresh_name(rng, names)
        compliant.append(
            _role(kind, name, rng.choice(namespaces), [*_clean(rng, 1), near_miss(rng)])
        )
        kept.append(f"near-miss {kind} {name} ({near_miss.__name__})")
    for other in others:
        rule = other.bad_rule(rng)
        if control.violates(rule):
            continue
        name = fresh_name(rng, names)
        compliant.append(_role("ClusterRole", name, "", [*_clean(rng, 1), rule]))
        kept.append(f"ClusterRole {name} violates CIS {other.cis_id}, another control")
    system = f"system:{fresh_name(rng, names)}"
    compliant.append(_role("ClusterRole", system, "", [control.bad_rule(rng)]))
    name = fresh_name(rng, names)
    compliant.append(_role("Role", name, "kube-system", [control.bad_rule(rng)]))
    kept.append(f"ClusterRole {system} and Role kube-system/{name} violate (exempt)")
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
