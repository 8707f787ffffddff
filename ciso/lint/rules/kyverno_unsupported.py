"""KYV006 (info): features itbench's Kyverno engine does not evaluate offline (verifyImages,
validate.manifests/assert; apiCall, imageRegistry and globalReference context without what a
Test gives in their place — values, apiCallResponses, clusterResources, globalContextEntries): they
give `error` results there, never a silent pass."""

from __future__ import annotations

from ciso.engines.kyverno.schema import UNSUPPORTED_VALIDATE
from ciso.lint.model import (
    Finding,
    LintTarget,
    Options,
    RuleContext,
    RuleInfo,
    Severity,
    TargetKind,
)
from ciso.lint.rules._kyverno import policies, rules
from ciso.lint.yaml_lines import line_of

INFO = RuleInfo(
    "KYV006",
    Severity.INFO,
    "Feature not evaluated by itbench's Kyverno engine",
    "Real Kyverno evaluates it; itbench reports such rules as `error: unsupported: …`.",
)
KINDS = frozenset({TargetKind.KYVERNO_POLICY})
#: what a Kyverno CLI Test may give offline in place of the cluster or registry a context reads
_OFFLINE_SOURCES = {
    "context.apiCall": "needs the test's values, apiCallResponses or clusterResources offline",
    "context.imageRegistry": "needs the test's values offline",
    "context.globalReference": "needs the test's values or globalContextEntries offline",
}


def check(target: LintTarget, options: Options, ctx: RuleContext) -> list[Finding]:
    findings = []
    for index, policy in policies(target):
        for r, rule in rules(policy):
            features = [k for k in ("verifyImages",) if k in rule]
            features += [
                f"validate.{k}" for k in UNSUPPORTED_VALIDATE if k in (rule.get("validate") or {})
            ]
            features += [
                f"context.{k}"
                for entry in rule.get("context") or []
                if isinstance(entry, dict)
                for k in ("apiCall", "imageRegistry", "globalReference")
                if k in entry
            ]
            for feature in features:
                # context data from a cluster or registry only exists offline as what a test gives
                why = _OFFLINE_SOURCES.get(feature, "is not evaluated offline")
                findings.append(
                    Finding(
                        INFO,
                        str(target.path),
                        f"{rule.get('name')}: {feature} {why}",
                        line_of(target.text, index, ("spec", "rules", r)),
                    )
                )
    return findings
