"""ANS001: `ansible-playbook --syntax-check` errors (run in the sandbox)."""

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

INFO = RuleInfo(
    "ANS001",
    Severity.ERROR,
    "Ansible playbook syntax error",
    "Fix the playbook so `ansible-playbook --syntax-check` accepts it.",
)
KINDS = frozenset({TargetKind.ANSIBLE})


def check(target: LintTarget, options: Options, ctx: RuleContext) -> list[Finding]:
    from ciso.engines.ansible import syntax_check

    return [Finding(INFO, str(target.path), d.message, d.line) for d in syntax_check(target.path)]
