"""KYV009: a kind in a rule's match or exclude that names no Kubernetes kind (`Pdo`, `pod`).

Kyverno matches kinds by exact name, so a misspelt kind makes the rule silently match nothing.
Known kinds are the Kubernetes API's (``_kubernetes_kinds``), the offline cluster's types and the
CustomResourceDefinitions found anywhere in the linted tree. A near miss is an error with a
did-you-mean (the rule would be ``excluded`` everywhere and a run would still pass); a kind with
no near miss may be a CRD installed elsewhere, so it is only an info.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any

from ciso.lint.model import (
    Finding,
    LintTarget,
    Options,
    RuleContext,
    RuleInfo,
    Severity,
    TargetKind,
)
from ciso.lint.rules._kubernetes_kinds import KUBERNETES_KINDS
from ciso.lint.rules._kyverno import policies, rules
from ciso.lint.yaml_lines import line_of

INFO = RuleInfo(
    "KYV009",
    Severity.ERROR,
    "Kind names no Kubernetes kind",
    "Spell the kind as the API does (CamelCase, `Pod`, `apps/v1/Deployment`), or lint the "
    "CustomResourceDefinition that declares it along with the policy.",
)
#: Policies are checked; every other YAML file is read for the CRDs it declares.
KINDS = frozenset({TargetKind.KYVERNO_POLICY, TargetKind.UNKNOWN})
_WILDCARDS = ("*", "?")


@cache
def builtin_kinds() -> frozenset[str]:
    from itbench.cluster.resources import BUILTIN_TYPES

    listed = {kind for kinds in KUBERNETES_KINDS.values() for kind in kinds}
    return frozenset(listed | {t.kind for t in BUILTIN_TYPES})


def check(target: LintTarget, options: Options, ctx: RuleContext) -> list[Finding]:
    return []  # the batch sees the whole tree, CRDs included


def check_batch(targets: Sequence[LintTarget], options: Options, ctx: RuleContext) -> list[Finding]:
    known = builtin_kinds() | {kind for t in targets for kind in _crd_kinds(t)}
    by_folded: dict[str, str] = {}
    for known_kind in sorted(known):
        by_folded.setdefault(known_kind.lower(), known_kind)
    findings = []
    for target in targets:
        if target.kind != TargetKind.KYVERNO_POLICY:
            continue
        for index, policy in policies(target):
            for r, rule in rules(policy):
                for path, written in _kinds(rule, ("spec", "rules", r)):
                    kind = _kind_part(written)
                    if kind is None or kind in known:
                        continue
                    message, severity = _problem(rule.get("name"), written, kind, by_folded)
                    findings.append(
                        Finding(
                            INFO,
                            str(target.path),
                            message,
                            line_of(target.text, index, path),
                            severity=severity,
                        )
                    )
    return findings


def _problem(
    rule_name: object, written: str, kind: str, by_folded: dict[str, str]
) -> tuple[str, Severity]:
    same_but_case = by_folded.get(kind.lower())
    close = same_but_case or next(
        iter(difflib.get_close_matches(kind.lower(), list(by_folded), n=1, cutoff=0.6)), None
    )
    head = f"{rule_name}: kind {written!r} is not a Kubernetes kind"
    if close is not None:
        suggestion = by_folded.get(close, close)
        return f"{head} (did you mean {suggestion!r}?)", Severity.ERROR
    return f"{head} nor a CRD in the linted files (a CRD installed elsewhere?)", Severity.INFO


def _kind_part(written: str) -> str | None:
    """The kind in Kyverno's forms `Kind`, `Kind/subresource`, `version/Kind`,
    `group/version/Kind`; None for wildcards, which match by pattern."""
    parts = written.split("/")
    # the kind is the CamelCase part (a subresource after it is lowercase); with none, the last
    # part is meant as the kind, lowercase and all. A wildcard version (`batch/*/Job`) is fine.
    kind = next((p for p in parts if p[:1].isupper()), parts[-1])
    return None if not kind or any(w in kind for w in _WILDCARDS) else kind


def _kinds(rule: dict[str, Any], where: tuple) -> Iterator[tuple[tuple, str]]:
    """Each kind string of the rule's match and exclude blocks, with its path in the document."""
    for block_name in ("match", "exclude"):
        block = rule.get(block_name)
        if not isinstance(block, dict):
            continue
        filters: list[tuple[tuple, Any]] = [((*where, block_name), block)]
        for combinator in ("any", "all"):
            entries = block.get(combinator)
            if isinstance(entries, list):
                filters += [((*where, block_name, combinator, i), f) for i, f in enumerate(entries)]
        for path, entry in filters:
            resources = entry.get("resources") if isinstance(entry, dict) else None
            kinds = resources.get("kinds") if isinstance(resources, dict) else None
            if isinstance(kinds, list):
                for k, kind in enumerate(kinds):
                    if isinstance(kind, str):
                        yield (*path, "resources", "kinds", k), kind


def _crd_kinds(target: LintTarget) -> Iterator[str]:
    for document in target.documents:
        if isinstance(document, dict) and document.get("kind") == "CustomResourceDefinition":
            names = (document.get("spec") or {}).get("names") or {}
            if isinstance(names, dict) and isinstance(names.get("kind"), str):
                yield names["kind"]
