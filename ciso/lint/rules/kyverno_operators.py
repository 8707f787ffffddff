"""KYV003: unknown operators in preconditions and deny conditions."""

from __future__ import annotations

import difflib

from ciso.lint.model import Finding, RuleInfo
from ciso.lint.rules._kyverno import policies, rules, walk_keys
from ciso.lint.yaml_lines import line_of

INFO = RuleInfo(
    "KYV003",
    "error",
    "Unknown condition operator",
    "Use Equals, NotEquals, AnyIn, AllIn, AnyNotIn, AllNotIn, GreaterThan, GreaterThanOrEquals, LessThan, LessThanOrEquals or a Duration* operator.",
)
KINDS = ("kyverno-policy",)
OPERATORS = (
    "Equals",
    "Equal",
    "NotEquals",
    "NotEqual",
    "In",
    "AnyIn",
    "AllIn",
    "NotIn",
    "AnyNotIn",
    "AllNotIn",
    "GreaterThan",
    "GreaterThanOrEquals",
    "LessThan",
    "LessThanOrEquals",
    "DurationGreaterThan",
    "DurationGreaterThanOrEquals",
    "DurationLessThan",
    "DurationLessThanOrEquals",
)


def check(target, options, ctx):  # noqa: ANN001
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
                    and value not in OPERATORS
                    and in_conditions
                    and not in_selector
                ):
                    close = difflib.get_close_matches(value, OPERATORS, n=1)
                    hint = f" (did you mean {close[0]!r}?)" if close else ""
                    findings.append(
                        Finding(
                            INFO,
                            str(target.path),
                            f"{rule.get('name')}: unknown operator {value!r}{hint}",
                            line_of(target.text, index, path),
                        )
                    )
    return findings
