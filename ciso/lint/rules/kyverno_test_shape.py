"""KYV010: a kyverno-test.yaml the Kyverno CLI refuses to load: a field the Test type does not
declare (`resource:` for `resources:`, `reslt:`), or a value of the wrong type. Reported without
--run-tests, at the field's line: the CLI fails the whole file, so every expectation in it is
lost, not just one."""

from __future__ import annotations

from ciso.engines.kyverno.testfile import describe, shape_problems
from ciso.lint.model import (
    Finding,
    LintTarget,
    Options,
    RuleContext,
    RuleInfo,
    Severity,
    TargetKind,
)
from ciso.lint.yaml_lines import line_of

INFO = RuleInfo(
    "KYV010",
    Severity.ERROR,
    "kyverno-test.yaml field unknown or of the wrong type",
    "Use the Test fields of cli.kyverno.io/v1alpha1 (the message suggests the closest one).",
)
KINDS = frozenset({TargetKind.KYVERNO_TEST})


def check(target: LintTarget, options: Options, ctx: RuleContext) -> list[Finding]:
    findings = []
    for index, doc in enumerate(target.documents):
        # only Test documents: the group's Values, Context and UserInfo files have shapes of
        # their own
        if (
            not isinstance(doc, dict)
            or not str(doc.get("apiVersion", "")).startswith("cli.kyverno.io")
            or doc.get("kind", "Test") != "Test"
        ):
            continue
        for path, message in shape_problems(doc):
            findings.append(
                Finding(
                    INFO,
                    str(target.path),
                    describe(path, message),
                    line_of(target.text, index, path),
                )
            )
    return findings
