"""ITB001-ITB003 (--profile itbench): the ITBench contract for OPA-class answers.

ITB001 error: the policy's package is `check`. ITB002 error: `data.check.result` is a boolean
(evaluated on an empty input). ITB003 warning: the usual form, `default result := true` with
`false` on violation (ITBench only requires that the violating input gives `false`)."""

from __future__ import annotations

import re

from ciso.engines.rego import RegoError
from ciso.lint.model import (
    Finding,
    LintTarget,
    Options,
    RuleContext,
    RuleInfo,
    Severity,
    TargetKind,
)

PACKAGE = RuleInfo(
    "ITB001",
    Severity.ERROR,
    "ITBench policies are `package check`",
    "Declare `package check`: ITBench evaluates `data.check.result`.",
)
BOOLEAN = RuleInfo(
    "ITB002",
    Severity.ERROR,
    "`data.check.result` must be a boolean",
    "Define `result` as true or false, e.g. `default result := true` and `result := false if { ...violation... }`.",
)
DEFAULT = RuleInfo(
    "ITB003",
    Severity.WARNING,
    "Prefer `default result := true` with `false` on violation",
    "Add `default result := true`; a missing default leaves `result` undefined on compliant input, which ITBench scores as a failure.",
)
INFOS = (PACKAGE, BOOLEAN, DEFAULT)
INFO = PACKAGE
KINDS = frozenset({TargetKind.REGO})
_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)", re.MULTILINE)


def check(target: LintTarget, options: Options, ctx: RuleContext) -> list[Finding]:
    if options.profile != "itbench" or target.path.name.endswith("_test.rego"):
        return []
    match = _PACKAGE.search(target.text)
    findings = []
    if not match or match.group(1) != "check":
        line = target.text[: match.start()].count("\n") + 1 if match else 1
        return [
            Finding(
                PACKAGE,
                str(target.path),
                f"package is {match.group(1) if match else 'missing'!r}, not 'check'",
                line,
            )
        ]
    try:
        result = ctx.rego_eval({str(target.path): target.text}, "data.check.result", {})
    except RegoError:
        return []  # REGO001 reports it
    if not result.defined or not isinstance(result.value, bool):
        shown = "undefined" if not result.defined else repr(result.value)
        rule_at = re.search(r"^\s*result\b", target.text, re.MULTILINE)
        findings.append(
            Finding(
                BOOLEAN,
                str(target.path),
                f"data.check.result on an empty input is {shown}, not a boolean",
                target.text[: rule_at.start()].count("\n") + 1 if rule_at else 1,
            )
        )
    if not re.search(r"^\s*default\s+result\s*(:=|=)\s*true\b", target.text, re.MULTILINE):
        findings.append(Finding(DEFAULT, str(target.path), "no `default result := true`", 1))
    return findings
