"""ANS002: ansible-lint findings, when ansible-lint is installed (one sandboxed run per lint)."""

from __future__ import annotations

from collections.abc import Sequence

from ciso.lint.model import (
    Finding,
    LintTarget,
    Options,
    RuleContext,
    RuleInfo,
    Severity,
    TargetKind,
)

INFO = RuleInfo(
    "ANS002",
    Severity.WARNING,
    "ansible-lint finding",
    "See the ansible-lint rule named in the message.",
)
KINDS = frozenset({TargetKind.ANSIBLE})


def check(target: LintTarget, options: Options, ctx: RuleContext) -> list[Finding]:
    """Nothing per file: every finding comes from check_batch."""
    return []


def check_batch(targets: Sequence[LintTarget], options: Options, ctx: RuleContext) -> list[Finding]:
    """ansible-lint starts slowly: one run for every playbook of the lint."""
    from ciso.engines.ansible import lint_many

    found = lint_many([t.path for t in targets])
    if found is None:
        ctx.note("ansible-lint is not installed: ANS002 skipped")
        return []
    return [
        Finding(INFO, str(d.path), f"[{d.rule}] {d.message}", d.line, severity=Severity(d.severity))
        for diagnostics in found.values()
        for d in diagnostics
        # ansible-lint repeats syntax errors as syntax-check[...]: ANS001 already reports them
        if not d.rule.startswith("syntax-check")
    ]
