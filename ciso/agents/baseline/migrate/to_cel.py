"""A Kyverno ``ClusterPolicy``/``Policy`` translated rule by rule into ``ValidatingPolicy``s
(``NamespacedValidatingPolicy`` for a ``Policy``): one per validate rule, since rules match
differently.

- ``match``: the kinds become ``matchConstraints.resourceRules`` (a Pod-only rule keeps Kyverno's
  autogen for the pod controllers, as the ClusterPolicy's did; its annotation
  ``pod-policies.kyverno.io/autogen-controllers`` becomes ``spec.autogen``), ``namespaces`` a
  match condition on ``request.namespace``, ``namespaceSelector`` and ``selector`` the
  constraints' selectors;
- ``exclude``: namespaces and names become negated match conditions, a namespace or object
  selector of one requirement its negation in the constraints' selector;
- ``validate``: ``pattern``/``anyPattern`` (:mod:`pattern_cel`), ``deny`` conditions,
  ``foreach`` lists (:mod:`jmespath_cel`) with their ``pattern``/``deny``, and ``cel``
  expressions carried as they are; ``preconditions`` guard the expression;
- ``validationFailureAction`` (or the rule's ``failureAction``) becomes ``validationActions``,
  ``background`` ``evaluation.background``.

What it cannot translate faithfully raises :class:`NotTranslatable`.
"""

from __future__ import annotations

import re
from typing import Any

from ciso.agents.baseline.migrate.conditions_cel import conditions
from ciso.agents.baseline.migrate.jmespath_cel import NotTranslatable, cel_literal, translate
from ciso.agents.baseline.migrate.kinds import api_resource, resource_rules
from ciso.agents.baseline.migrate.pattern_cel import translate_element_pattern, translate_pattern
from ciso.engines.kyverno import wildcard

AUTOGEN_ANNOTATION = "pod-policies.kyverno.io/autogen-controllers"
_FILTER_FIELDS = {"kinds", "namespaces", "namespaceSelector", "selector", "names", "name",
                  "operations"}  # fmt: skip
_OPERATIONS = ["CREATE", "UPDATE"]
_VARIABLE = re.compile(r"\{\{.*?\}\}", re.S)


def _filters(block: Any, where: str) -> tuple[str, list[dict[str, Any]]]:
    """(``any``|``all``, the resource filters) of a match or exclude block."""
    if not block:
        return "any", []
    if not isinstance(block, dict):
        raise NotTranslatable(f"{where}: not a mapping")
    if block.get("any") and block.get("all"):
        raise NotTranslatable(f"{where}: both any and all")
    mode = "all" if block.get("all") else "any"
    entries = block.get(mode) or [block]
    filters = []
    for entry in entries:
        extra = set(entry) - {"resources"}
        if extra:
            raise NotTranslatable(f"{where}: {', '.join(sorted(extra))} (users and roles)")
        resources = entry.get("resources") or {}
        unknown = set(resources) - _FILTER_FIELDS
        if unknown:
            raise NotTranslatable(f"{where}: resources.{', '.join(sorted(unknown))}")
        filters.append(resources)
    return mode, filters


def _names_condition(field: str, names: list[str]) -> str:
    plain = [n for n in names if "*" not in n and "?" not in n]
    patterns = [n for n in names if n not in plain]
    parts = [f"{field} in {cel_literal(plain)}"] if plain else []
    for pattern in patterns:
        parts.append(f"{field}.matches({cel_literal(wildcard.anchored(pattern))})")
    return " || ".join(parts)


def _negate_selector(selector: dict[str, Any], where: str) -> list[dict[str, Any]]:
    """An exclusion by one label requirement as the requirement that keeps everything else."""
    labels = selector.get("matchLabels") or {}
    expressions = selector.get("matchExpressions") or []
    if len(labels) + len(expressions) != 1:
        raise NotTranslatable(f"{where}: an excluding selector of several requirements")
    if labels:
        ((key, value),) = labels.items()
        return [{"key": key, "operator": "NotIn", "values": [value]}]
    (expression,) = expressions
    inverse = {"In": "NotIn", "NotIn": "In", "Exists": "DoesNotExist", "DoesNotExist": "Exists"}
    operator = expression.get("operator")
    if operator not in inverse:
        raise NotTranslatable(f"{where}: the selector operator {operator}")
    negated = {"key": expression["key"], "operator": inverse[operator]}
    if expression.get("values"):
        # "In V" excluded keeps "NotIn V" (an absent label too); "NotIn V" excluded keeps "In V"
        negated["values"] = list(expression["values"])
    return [negated]


def _add_requirements(target: dict[str, Any], extra: list[dict[str, Any]]) -> None:
    target.setdefault("matchExpressions", []).extend(extra)


def _message(rule: dict[str, Any]) -> dict[str, str]:
    """The rule's message; its ``{{ }}`` variables become a ``messageExpression`` (the static
    message keeps the text around them)."""
    text = str((rule.get("validate") or {}).get("message") or f"rule {rule.get('name')} failed")
    text = " ".join(text.split())
    out = {"message": " ".join(_VARIABLE.sub("", text).split())}
    if not _VARIABLE.search(text):
        return out
    parts: list[str] = []
    position = 0
    try:
        for found in _VARIABLE.finditer(text):
            if found.start() > position:
                parts.append(cel_literal(text[position : found.start()]))
            inner = translate(found.group(0)[2:-2])
            parts.append(f"string({inner.value()})")
            position = found.end()
    except NotTranslatable:
        return out
    if position < len(text):
        parts.append(cel_literal(text[position:]))
    out["messageExpression"] = " + ".join(parts)
    return out


def _foreach(entries: Any, where: str) -> str:
    if not isinstance(entries, list) or not entries:
        raise NotTranslatable(f"{where}: foreach is not a list")
    parts = []
    for index, entry in enumerate(entries):
        if entry.get("foreach") or entry.get("context"):
            raise NotTranslatable(f"{where}: a nested foreach or a context in foreach")
        listed = translate(str(entry.get("list", "")).strip().removeprefix("{{").removesuffix("}}"))
        element = f"element{index}"
        if "pattern" in entry:
            check = translate_element_pattern(entry["pattern"], element)
        elif "anyPattern" in entry:
            check = " || ".join(translate_element_pattern(p, element) for p in entry["anyPattern"])
        elif "deny" in entry:
            check = f"!({conditions((entry['deny'] or {}).get('conditions'), element)})"
        else:
            raise NotTranslatable(f"{where}: a foreach entry with no pattern or deny")
        if entry.get("preconditions"):
            check = f"!({conditions(entry['preconditions'], element)}) || {check}"
        parts.append(f"{listed.as_list()}.all({element}, {check})")
    return " && ".join(parts)


def _expressions(rule: dict[str, Any], where: str) -> list[dict[str, str]]:
    validate = rule.get("validate") or {}
    message = _message(rule)
    if "cel" in validate:
        cel = validate["cel"] or {}
        if cel.get("variables") or cel.get("paramKind") or cel.get("auditAnnotations"):
            raise NotTranslatable(f"{where}: validate.cel variables or parameters")
        out = [
            {"expression": e["expression"], "message": e.get("message") or message["message"]}
            for e in cel.get("expressions") or []
        ]
        if not out:
            raise NotTranslatable(f"{where}: validate.cel has no expressions")
        return out
    if "pattern" in validate:
        expression = translate_pattern(validate["pattern"])
    elif "anyPattern" in validate:
        expression = " || ".join(translate_pattern(p) for p in validate["anyPattern"])
    elif "deny" in validate:
        expression = f"!({conditions((validate['deny'] or {}).get('conditions'))})"
    elif "foreach" in validate:
        expression = _foreach(validate["foreach"], where)
    else:
        method = ", ".join(sorted(validate)) or "nothing"
        raise NotTranslatable(f"{where}: validate.{method}")
    if rule.get("preconditions"):
        expression = f"!({conditions(rule['preconditions'])}) || {expression}"
    return [{"expression": expression, **message}]


def _controllers(annotations: dict[str, Any]) -> dict[str, Any] | None:
    value = annotations.get(AUTOGEN_ANNOTATION)
    if value is None:
        return None
    if str(value).strip().lower() == "none":
        return {"podControllers": {"controllers": []}}
    names = [api_resource(k.strip()).resource for k in str(value).split(",") if k.strip()]
    return {"podControllers": {"controllers": names}}


def _rule_policy(policy: dict[str, Any], rule: dict[str, Any], name: str) -> dict[str, Any]:
    where = f"rule {rule.get('name')!r}"
    spec = policy.get("spec") or {}
    mode, matched = _filters(rule.get("match"), f"{where}: match")
    if not matched:
        raise NotTranslatable(f"{where}: no match block")
    kinds = [k for f in matched for k in (f.get("kinds") or [])]
    if not kinds or "*" in kinds:
        raise NotTranslatable(f"{where}: match without kinds, or every kind")
    rest = [{k: v for k, v in f.items() if k != "kinds"} for f in matched]
    if len(matched) > 1 and any(rest):
        raise NotTranslatable(f"{where}: several match filters with more than kinds")
    if mode == "all" and len(matched) > 1:
        raise NotTranslatable(f"{where}: match.all of several filters")
    criteria = rest[0] if rest else {}
    operations = list(criteria.get("operations") or _OPERATIONS)
    constraints: dict[str, Any] = {"resourceRules": resource_rules(kinds, operations)}
    match_conditions: list[dict[str, str]] = []
    if criteria.get("namespaces"):
        match_conditions.append(
            {"name": "in-namespaces",
             "expression": _names_condition("request.namespace", criteria["namespaces"])}
        )  # fmt: skip
    names = list(criteria.get("names") or []) + ([criteria["name"]] if criteria.get("name") else [])
    if names:
        match_conditions.append(
            {"name": "named", "expression": _names_condition("object.metadata.name", names)}
        )
    if criteria.get("namespaceSelector"):
        constraints["namespaceSelector"] = dict(criteria["namespaceSelector"])
    if criteria.get("selector"):
        constraints["objectSelector"] = dict(criteria["selector"])

    exclude_mode, excluded = _filters(rule.get("exclude"), f"{where}: exclude")
    if exclude_mode == "all" and len(excluded) > 1:
        raise NotTranslatable(f"{where}: exclude.all of several filters")
    for index, flt in enumerate(excluded):
        fields = {k for k, v in flt.items() if v}
        kinds_here = flt.get("kinds") or []
        # an exclusion naming kinds narrows only those kinds; the Pod-only rule's own kind is all
        if kinds_here and {api_resource(k).kind for k in kinds_here} != {
            api_resource(k).kind for k in kinds
        }:
            raise NotTranslatable(f"{where}: an exclusion of some of the matched kinds")
        fields -= {"kinds"}
        if len(fields) != 1:
            raise NotTranslatable(f"{where}: an exclusion by {', '.join(sorted(fields)) or 'kind'}")
        (field,) = fields
        if field == "namespaces":
            condition = _names_condition("request.namespace", flt["namespaces"])
            match_conditions.append(
                {"name": f"not-excluded-namespace-{index + 1}" if index else
                 "not-an-excluded-namespace", "expression": f"!({condition})"}
            )  # fmt: skip
        elif field in ("names", "name"):
            listed = list(flt.get("names") or []) + ([flt["name"]] if flt.get("name") else [])
            condition = _names_condition("object.metadata.name", listed)
            match_conditions.append(
                {"name": f"not-an-excluded-name-{index + 1}", "expression": f"!({condition})"}
            )
        elif field in ("namespaceSelector", "selector"):
            target = "namespaceSelector" if field == "namespaceSelector" else "objectSelector"
            negated = _negate_selector(flt[field], f"{where}: exclude")
            _add_requirements(constraints.setdefault(target, {}), negated)
        else:
            raise NotTranslatable(f"{where}: an exclusion by {field}")

    action = rule.get("failureAction") or spec.get("validationFailureAction") or "Audit"
    out_spec: dict[str, Any] = {
        "validationActions": ["Deny" if str(action).lower() == "enforce" else "Audit"],
        "evaluation": {"background": {"enabled": bool(spec.get("background", True))}},
        "matchConstraints": constraints,
    }
    if match_conditions:
        out_spec["matchConditions"] = match_conditions
    out_spec["validations"] = _expressions(rule, where)
    metadata = policy.get("metadata") or {}
    autogen = _controllers(metadata.get("annotations") or {})
    if autogen is not None:
        out_spec["autogen"] = autogen
    kind = "NamespacedValidatingPolicy" if policy.get("kind") == "Policy" else "ValidatingPolicy"
    new_metadata: dict[str, Any] = {"name": name}
    if kind == "NamespacedValidatingPolicy" and metadata.get("namespace"):
        new_metadata["namespace"] = metadata["namespace"]
    return {
        "apiVersion": "policies.kyverno.io/v1",
        "kind": kind,
        "metadata": new_metadata,
        "spec": out_spec,
    }


def to_validating_policies(policy: dict[str, Any]) -> list[dict[str, Any]]:
    """The ValidatingPolicies checking what ``policy``'s validate rules check."""
    name = str((policy.get("metadata") or {}).get("name") or "migrated")
    rules = [r for r in (policy.get("spec") or {}).get("rules") or [] if "validate" in r]
    if not rules:
        raise NotTranslatable(f"{policy.get('kind')}/{name}: no validate rule")
    out = []
    for rule in rules:
        rule_name = name if len(rules) == 1 else f"{name}-{rule.get('name')}"
        out.append(_rule_policy(policy, rule, re.sub(r"[^a-z0-9.-]", "-", rule_name.lower())[:63]))
    return out
