"""KYV003: condition operators in preconditions and deny conditions that a cluster rejects:
names Kyverno does not know, and known names spelled another way (``equals``), which Kyverno's
engine evaluates (its handlers ignore case) but the CRD schema and Kyverno's policy validation
reject at ``kubectl apply``."""

from __future__ import annotations

import difflib

from ciso.engines.kyverno.schema import (
    ACCEPTED_OPERATORS,
    CANONICAL_OPERATORS,
    canonical_operator,
    is_exact_operator,
    typed_conditions_at,
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
from ciso.lint.rules._kyverno import policies, rules, walk_keys
from ciso.lint.yaml_lines import line_of

INFO = RuleInfo(
    "KYV003",
    Severity.ERROR,
    "Unknown or non-canonical condition operator",
    "Use Equals, NotEquals, AnyIn, AllIn, AnyNotIn, AllNotIn, GreaterThan, GreaterThanOrEquals, "
    "LessThan, LessThanOrEquals or a Duration* operator, spelled exactly so.",
)
KINDS = frozenset({TargetKind.KYVERNO_POLICY})


def problem(operator: str, *, typed: bool = False) -> str | None:
    """What is wrong with an operator name, or None when a cluster accepts it; ``typed``: the
    condition block is one the CRD types, whose enum has only the canonical names."""
    if is_exact_operator(operator, typed=typed):
        return None
    canonical = canonical_operator(operator)
    if canonical is not None and operator in ACCEPTED_OPERATORS:
        return (
            f"operator {operator!r} is a deprecated alias the CRD schema does not accept in this "
            f"block (did you mean {canonical!r}?): a cluster rejects the policy at apply"
        )
    if canonical is not None:
        return (
            f"operator {operator!r} is not the canonical spelling (did you mean {canonical!r}?): "
            "Kyverno's engine and CLI evaluate it case-insensitively, but a cluster's CRD schema "
            "and Kyverno's policy validation reject the policy at apply"
        )
    close = difflib.get_close_matches(operator, CANONICAL_OPERATORS, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"unknown operator {operator!r}{hint}"


def check(target: LintTarget, options: Options, ctx: RuleContext) -> list[Finding]:
    findings = []
    for index, policy in policies(target):
        for r, rule in rules(policy):
            for path, key, value in walk_keys(rule, ("spec", "rules", r)):
                names = [p for p in path if isinstance(p, str)]
                in_conditions = any(p in ("conditions", "preconditions") for p in names)
                in_selector = any(
                    p in ("selector", "namespaceSelector", "matchExpressions") for p in names
                )
                if (
                    key == "operator"
                    and isinstance(value, str)
                    and in_conditions
                    and not in_selector
                    and (
                        message := problem(
                            value,
                            typed=typed_conditions_at(str(policy.get("apiVersion", "")), names),
                        )
                    )
                    is not None
                ):
                    findings.append(
                        Finding(
                            INFO,
                            str(target.path),
                            f"{rule.get('name')}: {message}",
                            line_of(target.text, index, path),
                        )
                    )
    return findings
