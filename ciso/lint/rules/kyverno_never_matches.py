"""KYV005: a rule that can never match (no kinds, or an exclude identical to its match)."""

from __future__ import annotations

from ciso.lint.model import (
    Finding,
    LintTarget,
    Options,
    RuleContext,
    RuleInfo,
    Severity,
    TargetKind,
)
from ciso.lint.rules._kyverno import policies, rules
from ciso.lint.yaml_lines import line_of

INFO = RuleInfo(
    "KYV005",
    Severity.WARNING,
    "Rule can never match",
    "Give the match block resources with kinds, and make exclude narrower than match.",
)
KINDS = frozenset({TargetKind.KYVERNO_POLICY})


def _filters(block: object) -> list[dict]:
    if not isinstance(block, dict):
        return []
    if block.get("any") or block.get("all"):
        return [f for f in (block.get("any") or block.get("all") or []) if isinstance(f, dict)]
    return [block]


def check(target: LintTarget, options: Options, ctx: RuleContext) -> list[Finding]:
    findings = []
    for index, policy in policies(target):
        for r, rule in rules(policy):
            match = rule.get("match")
            problem = None
            filters = _filters(match)
            if not filters:
                problem = "the rule has no match block"
            elif all(
                not (f.get("resources") or {}).get("kinds")
                and not any(f.get(k) for k in ("subjects", "roles", "clusterRoles"))
                for f in filters
            ):
                problem = "no match filter names any kinds"
            elif rule.get("exclude") and rule.get("exclude") == match:
                problem = "exclude is identical to match"
            if problem:
                findings.append(
                    Finding(
                        INFO,
                        str(target.path),
                        f"{rule.get('name')}: {problem}",
                        line_of(target.text, index, ("spec", "rules", r)),
                    )
                )
    return findings
