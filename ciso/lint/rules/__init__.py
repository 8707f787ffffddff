"""Every lint rule, listed explicitly (no registration by import side effect)."""

from __future__ import annotations

from ciso.lint.rules import (
    ansible_lint,
    ansible_syntax,
    file_unreadable,
    itbench_contract,
    kyverno_anchors,
    kyverno_cel,
    kyverno_jmespath,
    kyverno_never_matches,
    kyverno_operators,
    kyverno_structure,
    kyverno_tests,
    kyverno_unsupported,
    rego_errors,
    rego_tests,
    rego_v1,
)

ALL_RULES = (
    file_unreadable,
    rego_errors,
    rego_tests,
    rego_v1,
    itbench_contract,
    kyverno_structure,
    kyverno_anchors,
    kyverno_operators,
    kyverno_jmespath,
    kyverno_never_matches,
    kyverno_unsupported,
    kyverno_cel,
    kyverno_tests,
    ansible_syntax,
    ansible_lint,
)


def infos():
    out = []
    for module in ALL_RULES:
        out += list(getattr(module, "INFOS", (module.INFO,)))
    return out
