"""REGO003: the module is Rego v0 syntax, which OPA 1.x rejects; the v1 rewrite is offered."""

from __future__ import annotations

from ciso.engines.rego.v0 import rewrite_v0
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
    "REGO003",
    Severity.WARNING,
    "Rego v0 syntax (OPA 1.x rejects it)",
    "Write Rego v1: `if` before bodies, `contains` for partial sets; the message shows the rewritten first rule.",
)
KINDS = frozenset({TargetKind.REGO})


def check(target: LintTarget, options: Options, ctx: RuleContext) -> list[Finding]:
    rewritten = rewrite_v0(target.text)
    if rewritten == target.text:
        return []
    v1_ok = not ctx.rego_check({str(target.path): rewritten})
    v1_now = not ctx.rego_check({str(target.path): target.text})
    if v1_now or not v1_ok:
        return []
    first = next(
        (
            i
            for i, (a, b) in enumerate(
                zip(target.text.splitlines(), rewritten.splitlines(), strict=False)
            )
            if a != b
        ),
        0,
    )
    suggestion = rewritten.splitlines()[first].strip() if rewritten.splitlines() else ""
    return [
        Finding(
            INFO,
            str(target.path),
            f"Rego v0 syntax; in v1: `{suggestion}` (itbench rego eval --v0-compatible still evaluates it)",
            first + 1,
        )
    ]
