"""KYV002: malformed anchors in validate patterns (an unbalanced `(`, an unknown modifier, or the
add anchor `+()`, which only means something in mutation)."""

from __future__ import annotations

import re

from ciso.engines.kyverno.pattern import anchors
from ciso.lint.model import Finding, LintTarget, Options, RuleContext, RuleInfo, TargetKind
from ciso.lint.rules._kyverno import policies, rules, walk_keys
from ciso.lint.yaml_lines import line_of

INFO = RuleInfo(
    "KYV002",
    "error",
    "Invalid anchor in a validate pattern",
    "Anchors are =(key), (key), X(key), <(key) and ^(key); +(key) is for mutate patterns only.",
)
KINDS = frozenset({TargetKind.KYVERNO_POLICY})
_LOOKS_ANCHORED = re.compile(r"^[^()\s]?\(|\)$")


def check(target: LintTarget, options: Options, ctx: RuleContext) -> list[Finding]:
    findings = []
    for index, policy in policies(target):
        for r, rule in rules(policy):
            validate = rule.get("validate") or {}
            for field in ("pattern", "anyPattern"):
                if field not in validate:
                    continue
                base = ("spec", "rules", r, "validate", field)
                for path, key, _ in walk_keys(validate[field], base):
                    anchor = anchors.parse(key)
                    problem = None
                    if anchor is not None and anchor.kind == anchors.ADD:
                        problem = f"the add anchor {key!r} is only valid in mutate patterns"
                    elif (
                        anchor is None
                        and _LOOKS_ANCHORED.search(key)
                        and not re.fullmatch(r"[\w./*?-]+", key)
                    ):
                        problem = f"{key!r} looks like an anchor but is not one (=(k), (k), X(k), <(k), ^(k))"
                    if problem:
                        findings.append(
                            Finding(
                                INFO,
                                str(target.path),
                                f"{rule.get('name')}: {problem}",
                                line_of(target.text, index, path),
                            )
                        )
    return findings
