"""KYV007: CEL in Kyverno policies. Every CEL expression (``validate.cel`` and
``celPreconditions`` in a ClusterPolicy/Policy; ``expression``, ``messageExpression`` and
``valueExpression`` anywhere in a policies.kyverno.io policy) must compile: an error names the
file, line and problem. policies.kyverno.io kinds also get an info note: their structure and CEL
are checked, but the engine does not evaluate them yet."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ciso.engines.kyverno.cel import dpol as cel_dpol
from ciso.engines.kyverno.cel import ivpol as cel_ivpol
from ciso.engines.kyverno.cel.program import CelError, compile_expression
from ciso.lint.model import Finding, LintTarget, Options, RuleContext, RuleInfo, TargetKind
from ciso.lint.yaml_lines import line_of

INFO = RuleInfo(
    "KYV007",
    "info",
    "CEL in a Kyverno policy: compile errors; CEL policy kinds not evaluated",
    "Every CEL expression must compile; policies.kyverno.io kinds are checked, not evaluated.",
)
KINDS = frozenset({TargetKind.KYVERNO_POLICY})
REQUIRED = {
    "ValidatingPolicy": ("validations",),
    "MutatingPolicy": ("mutations",),
    "GeneratingPolicy": ("generate",),
    # as their CRDs require (a DeletingPolicy without conditions deletes all it matches)
    "DeletingPolicy": ("schedule",),
    "NamespacedDeletingPolicy": ("schedule",),
    "ImageValidatingPolicy": ("attestors", "validations"),
    "NamespacedImageValidatingPolicy": ("attestors", "validations"),
}
#: the kinds whose evaluator also names structural problems of present fields
STRUCTURE = {kind: module for module in (cel_dpol, cel_ivpol) for kind in module.KINDS}
EXPRESSION_KEYS = ("expression", "messageExpression", "valueExpression")


def _expressions(node: Any, path: tuple[str | int, ...]) -> Iterator[tuple[tuple, str]]:
    """(path, source) of every CEL expression under ``node``."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in EXPRESSION_KEYS and isinstance(value, str):
                yield (*path, key), value
            else:
                yield from _expressions(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _expressions(value, (*path, index))


def _cel_parts(doc: dict[str, Any]) -> Iterator[tuple[tuple, Any]]:
    spec = doc.get("spec")
    if not isinstance(spec, dict):
        return
    if str(doc.get("apiVersion", "")).startswith("policies.kyverno.io"):
        yield ("spec",), spec
        return
    for index, rule in enumerate(spec.get("rules") or []):
        if not isinstance(rule, dict):
            continue
        path = ("spec", "rules", index)
        if rule.get("celPreconditions"):
            yield (*path, "celPreconditions"), rule["celPreconditions"]
        validate = rule.get("validate")
        if isinstance(validate, dict) and validate.get("cel"):
            yield (*path, "validate", "cel"), validate["cel"]


def _where(path: tuple) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def check(target: LintTarget, options: Options, ctx: RuleContext) -> list[Finding]:
    findings = []
    for index, doc in enumerate(target.documents):
        if not isinstance(doc, dict):
            continue
        kind = doc.get("kind", "?")
        name = (doc.get("metadata") or {}).get("name", "?")
        for base, part in _cel_parts(doc):
            for path, source in _expressions(part, base):
                try:
                    compile_expression(source)
                except CelError as exc:
                    findings.append(
                        Finding(
                            INFO,
                            str(target.path),
                            f"{kind} {name}: {_where(path)}: CEL {exc}",
                            line_of(target.text, index, path),
                            severity="error",
                        )
                    )
        if not str(doc.get("apiVersion", "")).startswith("policies.kyverno.io"):
            continue
        findings.append(
            Finding(
                INFO,
                str(target.path),
                f"{kind} {name}: CEL policy kind, checked but not evaluated",
                line_of(target.text, index, ()),
            )
        )
        spec = doc.get("spec")
        if not isinstance(spec, dict):
            continue  # a partial document (e.g. a test assertion on the policy's status)
        module = STRUCTURE.get(kind)
        for problem in module.check_structure(doc) if module else ():
            field, _, _ = problem.partition(":")
            if field.removeprefix("spec.") in REQUIRED.get(kind, ()):
                continue  # reported below as missing
            findings.append(
                Finding(
                    INFO,
                    str(target.path),
                    f"{kind} {name}: {problem}",
                    line_of(target.text, index, ("spec",)),
                    severity="error",
                )
            )
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
