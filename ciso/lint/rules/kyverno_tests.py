"""KYV008 (with --run-tests): failing kyverno-test.yaml expectations (the engine's test runner)."""

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
    "KYV008",
    Severity.ERROR,
    "A kyverno-test.yaml expectation fails",
    "Run `itbench kyverno test DIR` for the details of each expectation.",
)
KINDS = frozenset({TargetKind.KYVERNO_TEST})


def check(target: LintTarget, options: Options, ctx: RuleContext) -> list[Finding]:
    if not options.run_tests:
        return []
    from ciso.engines.kyverno.testrunner import TestReport, run_test_file

    result = run_test_file(target.path)
    if result.error:
        return [Finding(INFO, str(target.path), result.error)]
    # the verdict `itbench kyverno test FILE` exits with: findings exactly when it fails
    verdict = TestReport([result]).verdict()
    if verdict.ok:
        return []
    findings = [
        Finding(
            INFO,
            str(target.path),
            f"{e.policy}/{e.rule} on {e.kind}/{e.resource}: expected {e.expected}, {e.outcome}: {e.reason}",
        )
        for e in result.expectations
        if e.outcome in ("failed", "errors")
    ]
    return findings or [Finding(INFO, str(target.path), "; ".join(verdict.problems))]
