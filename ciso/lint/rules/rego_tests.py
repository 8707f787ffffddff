"""REGO002 (with --run-tests): `opa test` failures of *_test.rego files."""

from __future__ import annotations

import re

from ciso.engines.rego.model import RegoError
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
    "REGO002",
    Severity.ERROR,
    "A Rego test fails",
    "Make the policy satisfy the test, or fix the test; `itbench rego test DIR -v` shows every case.",
)
KINDS = frozenset({TargetKind.REGO})


def check(target: LintTarget, options: Options, ctx: RuleContext) -> list[Finding]:
    if not options.run_tests or not target.path.name.endswith("_test.rego"):
        return []
    modules = {
        str(p): p.read_text(encoding="utf-8", errors="replace")
        for p in sorted(target.path.parent.glob("*.rego"))
    }
    try:
        run = ctx.rego_test(modules)
    except RegoError as exc:
        # as `opa test`, modules that do not compile together run no test: say so on the test
        # file (REGO001 reports the compile error itself on the file it is in)
        first = exc.diagnostics[0] if exc.diagnostics else None
        return [
            Finding(
                INFO,
                str(target.path),
                f"tests not run: the folder's modules do not compile: {first or exc}",
                None,
            )
        ]
    findings = []
    for case in run.cases:
        if case.status in ("fail", "error") and case.location == str(target.path):
            match = re.search(rf"^{re.escape(case.name)}\b", target.text, re.MULTILINE)
            line = target.text[: match.start()].count("\n") + 1 if match else None
            findings.append(
                Finding(
                    INFO,
                    str(target.path),
                    f"data.{case.package}.{case.name}: {case.status.upper()} {case.message}".strip(),
                    line,
                )
            )
    return findings
