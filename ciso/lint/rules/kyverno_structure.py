"""KYV001: unknown keys (with a did-you-mean) and wrong types in Kyverno ClusterPolicy/Policy."""

from __future__ import annotations

import difflib
from typing import Any

from ciso.lint.model import Finding, RuleInfo
from ciso.lint.rules._kyverno import policies, rules
from ciso.lint.yaml_lines import line_of

INFO = RuleInfo(
    "KYV001",
    "error",
    "Kyverno policy structure: unknown key or wrong type",
    "Use the field names of kyverno.io/v1 (the message suggests the closest one) and the right types.",
)
KINDS = ("kyverno-policy",)

SPEC = {
    "rules",
    "validationFailureAction",
    "validationFailureActionOverrides",
    "background",
    "failurePolicy",
    "webhookTimeoutSeconds",
    "schemaValidation",
    "mutateExistingOnPolicyUpdate",
    "generateExisting",
    "generateExistingOnPolicyUpdate",
    "useServerSideApply",
    "admission",
    "applyRules",
    "emitWarning",
    "webhookConfiguration",
}
RULE = {
    "name",
    "match",
    "exclude",
    "context",
    "preconditions",
    "validate",
    "mutate",
    "generate",
    "verifyImages",
    "celPreconditions",
    "skipBackgroundRequests",
    "imageExtractors",
    "reportProperties",
}
VALIDATE = {
    "message",
    "pattern",
    "anyPattern",
    "deny",
    "foreach",
    "podSecurity",
    "cel",
    "manifests",
    "failureAction",
    "failureActionOverrides",
    "allowExistingViolations",
    "assert",
}
MATCH = {"any", "all", "resources", "subjects", "roles", "clusterRoles"}
FILTER = {"resources", "subjects", "roles", "clusterRoles"}
RESOURCES = {
    "kinds",
    "names",
    "name",
    "namespaces",
    "selector",
    "namespaceSelector",
    "annotations",
    "operations",
}
FOREACH = {
    "list",
    "context",
    "preconditions",
    "pattern",
    "anyPattern",
    "deny",
    "foreach",
    "elementScope",
}
CONDITION = {"key", "operator", "value", "message"}
TYPES: dict[str, type | tuple[type, ...]] = {
    "rules": list,
    "background": bool,
    "name": str,
    "kinds": list,
    "names": list,
    "namespaces": list,
    "message": str,
    "anyPattern": list,
    "foreach": list,
    "context": list,
    "operations": list,
}


def _unknown(mapping: Any, allowed: set[str], where: tuple, out: list) -> None:
    if not isinstance(mapping, dict):
        return
    for key, value in mapping.items():
        if key not in allowed:
            close = difflib.get_close_matches(str(key), sorted(allowed), n=1)
            out.append(
                (
                    where + (key,),
                    f"unknown key {key!r}"
                    + (
                        f" (did you mean {close[0]!r}?)"
                        if close
                        else f"; allowed: {', '.join(sorted(allowed))}"
                    ),
                )
            )
        elif key in TYPES and not isinstance(value, TYPES[key]):
            expected = (
                TYPES[key].__name__
                if isinstance(TYPES[key], type)
                else "/".join(t.__name__ for t in TYPES[key])
            )  # type: ignore[union-attr]
            out.append(
                (where + (key,), f"{key!r} must be a {expected}, not {type(value).__name__}")
            )


def _match(block: Any, where: tuple, out: list) -> None:
    _unknown(block, MATCH, where, out)
    if not isinstance(block, dict):
        return
    entries = [(block, where)] if "resources" in block else []
    for clause in ("any", "all"):
        for i, entry in enumerate(block.get(clause) or []):
            _unknown(entry, FILTER, (*where, clause, i), out)
            entries.append((entry, (*where, clause, i)))
    for entry, at in entries:
        if isinstance(entry, dict) and "resources" in entry:
            _unknown(entry["resources"], RESOURCES, (*at, "resources"), out)


def _conditions(block: Any, where: tuple, out: list) -> None:
    groups = (
        [(block, where)]
        if isinstance(block, list)
        else [(block.get(c) or [], (*where, c)) for c in ("any", "all")]
        if isinstance(block, dict)
        else []
    )
    for conditions, at in groups:
        for i, condition in enumerate(conditions if isinstance(conditions, list) else []):
            _unknown(condition, CONDITION, (*at, i), out)


def check(target, options, ctx):  # noqa: ANN001
    findings = []
    for index, policy in policies(target):
        problems: list = []
        _unknown(policy.get("spec"), SPEC, ("spec",), problems)
        if not isinstance((policy.get("metadata") or {}).get("name"), str):
            problems.append((("metadata",), "metadata.name is required"))
        for r, rule in rules(policy):
            at = ("spec", "rules", r)
            _unknown(rule, RULE, at, problems)
            if not isinstance(rule.get("name"), str):
                problems.append((at, "every rule needs a 'name'"))
            for clause in ("match", "exclude"):
                if clause in rule:
                    _match(rule[clause], (*at, clause), problems)
            if "preconditions" in rule:
                _conditions(rule["preconditions"], (*at, "preconditions"), problems)
            validate = rule.get("validate")
            if isinstance(validate, dict):
                _unknown(validate, VALIDATE, (*at, "validate"), problems)
                if not any(
                    k in validate
                    for k in (
                        "pattern",
                        "anyPattern",
                        "deny",
                        "foreach",
                        "podSecurity",
                        "cel",
                        "manifests",
                        "assert",
                    )
                ):
                    problems.append(
                        (
                            (*at, "validate"),
                            "a validate rule needs pattern, anyPattern, deny, foreach, podSecurity or cel",
                        )
                    )
                if isinstance(validate.get("deny"), dict):
                    _conditions(
                        validate["deny"].get("conditions"),
                        (*at, "validate", "deny", "conditions"),
                        problems,
                    )
                for f, entry in enumerate(
                    validate.get("foreach") or []
                    if isinstance(validate.get("foreach"), list)
                    else []
                ):
                    _unknown(entry, FOREACH, (*at, "validate", "foreach", f), problems)
        for path, message in problems:
            where = ".".join(str(p) for p in path)
            findings.append(
                Finding(
                    INFO,
                    str(target.path),
                    f"{policy.get('metadata', {}).get('name', '?')}: {where}: {message}",
                    line_of(target.text, index, path),
                )
            )
    return findings
