"""GEN001: a file that should be linted cannot be read (binary, too large, invalid YAML)."""

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
    "GEN001",
    Severity.ERROR,
    "File cannot be read as a policy or playbook",
    "Fix the file: it must be UTF-8 text under 2 MiB, and YAML must parse (aliases are not accepted).",
)
KINDS: frozenset[TargetKind] = frozenset()


def check(target: LintTarget, options: Options, ctx: RuleContext) -> list[Finding]:
    """Never called (no kinds): discovery reports unreadable files itself."""
    return []
