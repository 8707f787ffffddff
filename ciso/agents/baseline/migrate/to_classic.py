"""A ``ValidatingPolicy`` (or ``NamespacedValidatingPolicy``) translated into a ``ClusterPolicy``
(``Policy``) whose one rule keeps the CEL: ``validate.cel.expressions`` are the validations,
``celPreconditions`` the match conditions, the rule's ``match`` the kinds of the resource rules
with the namespace and object selectors. Kyverno runs ``validate.cel`` in a ClusterPolicy, and its
autogen rewrites ``object.spec`` to the pod template's as the ValidatingPolicy's does."""

from __future__ import annotations

from typing import Any

from ciso.agents.baseline.migrate.jmespath_cel import NotTranslatable
from ciso.agents.baseline.migrate.kinds import kind_of
from ciso.agents.baseline.migrate.to_cel import AUTOGEN_ANNOTATION


def _kinds(constraints: dict[str, Any]) -> tuple[list[str], list[str]]:
    kinds: list[str] = []
    operations: list[str] = []
    for rule in constraints.get("resourceRules") or []:
        if rule.get("resourceNames"):
            raise NotTranslatable("matchConstraints.resourceRules[].resourceNames")
        for group in rule.get("apiGroups") or [""]:
            for resource in rule.get("resources") or []:
                if "/" in resource or "*" in (group, resource):
                    raise NotTranslatable(f"the resource rule {group}/{resource}")
                kinds.append(kind_of(group, resource))
        operations += [o for o in rule.get("operations") or [] if o not in operations]
    if not kinds:
        raise NotTranslatable("matchConstraints names no resources")
    return kinds, operations


def to_cluster_policy(policy: dict[str, Any]) -> dict[str, Any]:
    metadata = policy.get("metadata") or {}
    name = str(metadata.get("name") or "migrated")
    spec = policy.get("spec") or {}
    unsupported = {"variables", "paramKind", "auditAnnotations", "matchImageReferences"} & set(spec)
    if unsupported:
        raise NotTranslatable(f"{policy.get('kind')}/{name}: spec.{', '.join(sorted(unsupported))}")
    constraints = spec.get("matchConstraints") or {}
    if constraints.get("excludeResourceRules"):
        raise NotTranslatable(f"{policy.get('kind')}/{name}: excludeResourceRules")
    kinds, operations = _kinds(constraints)
    resources: dict[str, Any] = {"kinds": kinds}
    if operations and sorted(operations) != ["CREATE", "UPDATE"]:
        resources["operations"] = operations
    if constraints.get("namespaceSelector"):
        resources["namespaceSelector"] = constraints["namespaceSelector"]
    if constraints.get("objectSelector"):
        resources["selector"] = constraints["objectSelector"]
    validations = spec.get("validations") or []
    if not validations:
        raise NotTranslatable(f"{policy.get('kind')}/{name}: no validations")
    rule: dict[str, Any] = {
        "name": name[:63],
        "match": {"any": [{"resources": resources}]},
        "validate": {
            "cel": {
                "expressions": [
                    {k: v for k, v in v.items() if k in ("expression", "message")}
                    for v in validations
                ]
            }
        },
    }
    if spec.get("matchConditions"):
        rule["celPreconditions"] = [
            {"name": c.get("name") or f"condition-{i + 1}", "expression": c["expression"]}
            for i, c in enumerate(spec["matchConditions"])
        ]
    actions = [str(a).lower() for a in spec.get("validationActions") or ["Audit"]]
    background = ((spec.get("evaluation") or {}).get("background") or {}).get("enabled", True)
    new_metadata: dict[str, Any] = {"name": name}
    controllers = ((spec.get("autogen") or {}).get("podControllers") or {}).get("controllers")
    if controllers is not None:
        kinds_named = [kind_of(g, r) for r in controllers for g in ("apps", "batch")
                       if _known(g, r)]  # fmt: skip
        new_metadata["annotations"] = {AUTOGEN_ANNOTATION: ",".join(kinds_named) or "none"}
    kind = "Policy" if policy.get("kind") == "NamespacedValidatingPolicy" else "ClusterPolicy"
    if kind == "Policy" and metadata.get("namespace"):
        new_metadata["namespace"] = metadata["namespace"]
    return {
        "apiVersion": "kyverno.io/v1",
        "kind": kind,
        "metadata": new_metadata,
        "spec": {
            "validationFailureAction": "Enforce" if "deny" in actions else "Audit",
            "background": bool(background),
            "rules": [rule],
        },
    }


def _known(group: str, resource: str) -> bool:
    try:
        kind_of(group, resource)
    except NotTranslatable:
        return False
    return True
