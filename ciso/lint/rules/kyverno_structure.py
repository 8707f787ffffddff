"""KYV001: unknown keys (with a did-you-mean) and wrong types in Kyverno ClusterPolicy/Policy."""

from __future__ import annotations

import difflib
from typing import Any

from ciso.engines.kyverno.schema import (
    CONDITION_KEYS,
    FILTER_KEYS,
    MATCH_KEYS,
    RESOURCE_KEYS,
    RULE_KEYS,
    SPEC_KEYS,
    VALIDATE_FOREACH_KEYS,
    VALIDATE_KEYS,
    VALIDATION_METHODS,
)
from ciso.lint.model import (
    Finding,
    LintTarget,
    Options,
    RuleContext,
    RuleInfo,
    Severity,
    TargetKind,
)
from ciso.lint.rules._kubernetes_kinds import KUBERNETES_KINDS
from ciso.lint.rules._kyverno import policies, rules
from ciso.lint.yaml_lines import line_of

INFO = RuleInfo(
    "KYV001",
    Severity.ERROR,
    "Kyverno policy structure: unknown key or wrong type",
    "Use the field names of kyverno.io/v1 (the message suggests the closest one) and the right types.",
)
KINDS = frozenset({TargetKind.KYVERNO_POLICY})

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


def _unknown(mapping: Any, allowed: frozenset[str], where: tuple, out: list) -> None:
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
            wanted = TYPES[key]
            expected = (
                wanted.__name__
                if isinstance(wanted, type)
                else "/".join(t.__name__ for t in wanted)
            )
            out.append(
                (where + (key,), f"{key!r} must be a {expected}, not {type(value).__name__}")
            )


def _match(block: Any, where: tuple, out: list) -> None:
    _unknown(block, MATCH_KEYS, where, out)
    if not isinstance(block, dict):
        return
    entries = [(block, where)] if "resources" in block else []
    for clause in ("any", "all"):
        for i, entry in enumerate(block.get(clause) or []):
            _unknown(entry, FILTER_KEYS, (*where, clause, i), out)
            entries.append((entry, (*where, clause, i)))
    for entry, at in entries:
        if isinstance(entry, dict) and "resources" in entry:
            _unknown(entry["resources"], RESOURCE_KEYS, (*at, "resources"), out)


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
            _unknown(condition, CONDITION_KEYS, (*at, i), out)


def _unknown_kinds(target: LintTarget) -> list[Finding]:
    """A document of a Kyverno API group whose kind that group does not have (``ClusterPolcy``):
    every other rule skips it as "not a policy", so without this the typo lints clean."""
    findings = []
    for index, doc in enumerate(target.documents):
        if not isinstance(doc, dict):
            continue
        group = str(doc.get("apiVersion", "")).split("/")[0]
        known = KUBERNETES_KINDS.get(group) if group.endswith("kyverno.io") else None
        if known is None or doc.get("kind") in known:
            continue
        kind = doc.get("kind")
        close = difflib.get_close_matches(str(kind), known, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else f"; {group} has {', '.join(known)}"
        findings.append(
            Finding(
                INFO,
                str(target.path),
                f"{(doc.get('metadata') or {}).get('name', '?')}: kind: {group} has no kind "
                f"{kind!r}{hint}",
                line_of(target.text, index, ("kind",)),
            )
        )
    return findings


def check(target: LintTarget, options: Options, ctx: RuleContext) -> list[Finding]:
    findings = _unknown_kinds(target)
    for index, policy in policies(target):
        problems: list = []
        _unknown(policy.get("spec"), SPEC_KEYS, ("spec",), problems)
        if not isinstance((policy.get("metadata") or {}).get("name"), str):
            problems.append((("metadata",), "metadata.name is required"))
        for r, rule in rules(policy):
            at = ("spec", "rules", r)
            _unknown(rule, RULE_KEYS, at, problems)
            if not isinstance(rule.get("name"), str):
                problems.append((at, "every rule needs a 'name'"))
            for clause in ("match", "exclude"):
                if clause in rule:
                    _match(rule[clause], (*at, clause), problems)
            if "preconditions" in rule:
                _conditions(rule["preconditions"], (*at, "preconditions"), problems)
            validate = rule.get("validate")
            if isinstance(validate, dict):
                _unknown(validate, VALIDATE_KEYS, (*at, "validate"), problems)
                if not any(k in validate for k in (*VALIDATION_METHODS, "assert")):
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
                    _unknown(
                        entry, VALIDATE_FOREACH_KEYS, (*at, "validate", "foreach", f), problems
                    )
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
