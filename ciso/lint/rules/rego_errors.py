"""REGO001: Rego parse, compile and type errors, each with file:line:column."""

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
    "REGO001",
    Severity.ERROR,
    "Rego does not parse or compile",
    "Fix the syntax or type error at the given line (OPA 1.x Rego v1 syntax: `if` before rule bodies, `contains` for partial sets).",
)
KINDS = frozenset({TargetKind.REGO})


def check(target: LintTarget, options: Options, ctx: RuleContext) -> list[Finding]:
    diagnostics = ctx.rego_check({str(target.path): target.text})
    return [
        Finding(INFO, str(target.path), f"{d.code}: {d.message}", d.line, d.column)
        for d in diagnostics
        if d.file in ("", str(target.path)) or d.file.endswith(target.path.name)
    ]
