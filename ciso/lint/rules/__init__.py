"""Every lint rule, registered here by name (no registration by import side effect, no probing
of modules for optional attributes): each entry says what the rule reports, which kinds of file
it reads, and its check."""

from __future__ import annotations

from ciso.lint.model import ModuleRule, Rule, RuleInfo
from ciso.lint.rules import (
    ansible_lint,
    ansible_syntax,
    file_unreadable,
    itbench_contract,
    kyverno_anchors,
    kyverno_cel,
    kyverno_jmespath,
    kyverno_kinds,
    kyverno_never_matches,
    kyverno_operators,
    kyverno_structure,
    kyverno_test_shape,
    kyverno_tests,
    kyverno_unsupported,
    rego_errors,
    rego_tests,
    rego_v1,
)

ALL_RULES: tuple[Rule, ...] = (
    ModuleRule((file_unreadable.INFO,), file_unreadable.KINDS, file_unreadable.check),
    ModuleRule((rego_errors.INFO,), rego_errors.KINDS, rego_errors.check),
    ModuleRule((rego_tests.INFO,), rego_tests.KINDS, rego_tests.check),
    ModuleRule((rego_v1.INFO,), rego_v1.KINDS, rego_v1.check),
    ModuleRule(itbench_contract.INFOS, itbench_contract.KINDS, itbench_contract.check),
    ModuleRule((kyverno_structure.INFO,), kyverno_structure.KINDS, kyverno_structure.check),
    ModuleRule((kyverno_anchors.INFO,), kyverno_anchors.KINDS, kyverno_anchors.check),
    ModuleRule((kyverno_operators.INFO,), kyverno_operators.KINDS, kyverno_operators.check),
    ModuleRule((kyverno_jmespath.INFO,), kyverno_jmespath.KINDS, kyverno_jmespath.check),
    ModuleRule(
        (kyverno_never_matches.INFO,), kyverno_never_matches.KINDS, kyverno_never_matches.check
    ),
    ModuleRule((kyverno_unsupported.INFO,), kyverno_unsupported.KINDS, kyverno_unsupported.check),
    ModuleRule(
        (kyverno_kinds.INFO,), kyverno_kinds.KINDS, kyverno_kinds.check, kyverno_kinds.check_batch
    ),
    ModuleRule((kyverno_cel.INFO,), kyverno_cel.KINDS, kyverno_cel.check),
    ModuleRule((kyverno_test_shape.INFO,), kyverno_test_shape.KINDS, kyverno_test_shape.check),
    ModuleRule((kyverno_tests.INFO,), kyverno_tests.KINDS, kyverno_tests.check),
    ModuleRule((ansible_syntax.INFO,), ansible_syntax.KINDS, ansible_syntax.check),
    ModuleRule(
        (ansible_lint.INFO,), ansible_lint.KINDS, ansible_lint.check, ansible_lint.check_batch
    ),
)


def infos() -> list[RuleInfo]:
    """Every rule id the linter can report, in registration order (``--list-rules``, SARIF)."""
    return [info for rule in ALL_RULES for info in rule.infos]
