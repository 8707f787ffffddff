"""KYV002: malformed anchors in validate patterns (an unbalanced `(`, an unknown modifier, the
add anchor `+()`, which only means something in mutation) and anchors on the wrong node type: an
existence anchor `^(key)` takes a list of element patterns; on a map or a scalar it fails every
resource that has the field, compliant ones included, with a message about lists."""

from __future__ import annotations

import re

from ciso.engines.kyverno.pattern import anchors
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
    "KYV002",
    Severity.ERROR,
    "Invalid anchor in a validate pattern",
    "Anchors are =(key), (key), X(key), <(key) and ^(key); +(key) is for mutate patterns only; "
    "^(key) takes a list of element patterns (`^(containers): [{name: x}]`).",
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
                for path, key, value in walk_keys(validate[field], base):
                    anchor = anchors.parse(key)
                    problem = None
                    if anchor is not None and anchor.kind == anchors.ADD:
                        problem = f"the add anchor {key!r} is only valid in mutate patterns"
                    elif anchor is not None and anchor.kind == anchors.EXISTENCE:
                        problem = _existence_problem(key, value)
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


def _existence_problem(key: str, value: object) -> str | None:
    """An existence anchor must hold a list: "at least one element matches each of these"."""
    if isinstance(value, list):
        return None
    found = "a map" if isinstance(value, dict) else f"a {type(value).__name__}"
    return (
        f"the existence anchor {key!r} takes a list of element patterns, found {found}: it would "
        f"fail every resource that has the field; for a map use the equality anchor "
        f"'={key[1:]}' or the plain key"
    )
