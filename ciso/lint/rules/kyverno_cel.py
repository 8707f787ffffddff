"""KYV007 (info): CEL-based policies (policies.kyverno.io) get structural checks only."""

from __future__ import annotations

from ciso.lint.model import Finding, LintTarget, Options, RuleContext, RuleInfo, TargetKind
from ciso.lint.yaml_lines import line_of

INFO = RuleInfo(
    "KYV007",
    "info",
    "CEL-based policy: structural checks only",
    "itbench checks its structure; its CEL expressions are not evaluated.",
)
KINDS = frozenset({TargetKind.KYVERNO_POLICY})
REQUIRED = {
    "ValidatingPolicy": ("validations",),
    "MutatingPolicy": ("mutations",),
    "GeneratingPolicy": ("generate",),
    "DeletingPolicy": ("conditions",),
    "ImageValidatingPolicy": ("validations",),
}


def check(target: LintTarget, options: Options, ctx: RuleContext) -> list[Finding]:
    findings = []
    for index, doc in enumerate(target.documents):
        if not isinstance(doc, dict) or not str(doc.get("apiVersion", "")).startswith(
            "policies.kyverno.io"
        ):
            continue
        kind = doc.get("kind", "?")
        name = (doc.get("metadata") or {}).get("name", "?")
        findings.append(
            Finding(
                INFO,
                str(target.path),
                f"{kind} {name}: CEL policy, structural checks only",
                line_of(target.text, index, ()),
            )
        )
        spec = doc.get("spec")
        if not isinstance(spec, dict):
            continue  # a partial document (e.g. a test assertion on the policy's status)
        for field in REQUIRED.get(kind, ()):
            if field not in spec:
                findings.append(
                    Finding(
                        INFO,
                        str(target.path),
                        f"{kind} {name}: spec.{field} is missing",
                        line_of(target.text, index, ("spec",)),
                        severity="error",
                    )
                )
    return findings
