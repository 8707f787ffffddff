"""KYV004: `{{ }}` variables whose JMESPath does not compile."""

from __future__ import annotations

import re

from jmespath.exceptions import IncompleteExpressionError, JMESPathError

from ciso.engines.kyverno.functions import compile_check
from ciso.lint.model import (
    Finding,
    LintTarget,
    Options,
    RuleContext,
    RuleInfo,
    Severity,
    TargetKind,
)
from ciso.lint.rules._kyverno import policies, rules, walk_strings
from ciso.lint.yaml_lines import line_of

INFO = RuleInfo(
    "KYV004",
    Severity.ERROR,
    "Invalid JMESPath in a variable",
    "Fix the expression inside {{ }}; JMESPath quotes literals with backticks or single quotes.",
)
KINDS = frozenset({TargetKind.KYVERNO_POLICY})
_INNERMOST = re.compile(r"\{\{-?\s*((?:(?!\{\{).)*?)\s*-?\}\}", re.DOTALL)


def _expressions(text: str) -> list[str]:
    found = []
    for _ in range(16):
        match = _INNERMOST.search(text)
        if match is None:
            break
        found.append(match.group(1))
        # an inner variable becomes a plain name: valid JMESPath whether or not it was quoted
        text = text[: match.start()] + "itbench_var" + text[match.end() :]
    return found


def _one_line(exc: JMESPathError) -> str:
    """The whole parser message on one line: where it stopped and on what (the library's own
    text ends in a line break before the position, and a caret drawn under the expression)."""
    position = getattr(exc, "lex_position", None)
    if isinstance(exc, IncompleteExpressionError):
        return "the expression ends too early" + (
            f" (at column {position + 1})" if position is not None else ""
        )
    token = getattr(exc, "token_value", None)
    message = getattr(exc, "msg", None)  # the parser's errors carry one, other JMESPathErrors not
    if position is not None and message:
        found = f" {token!r}" if token is not None else ""
        return f"{message}{found} at column {position + 1}"
    return " ".join(line.strip() for line in str(exc).splitlines() if line.strip())


def check(target: LintTarget, options: Options, ctx: RuleContext) -> list[Finding]:
    findings = []
    for index, policy in policies(target):
        for r, rule in rules(policy):
            for path, text in walk_strings(rule, ("spec", "rules", r)):
                if "{{" not in text or "\\{{" in text:
                    continue
                for expression in _expressions(text):
                    if expression == "@" or not expression:
                        continue
                    try:
                        compile_check(expression)
                    except JMESPathError as exc:
                        message = _one_line(exc)
                        findings.append(
                            Finding(
                                INFO,
                                str(target.path),
                                f"{rule.get('name')}: invalid JMESPath {expression!r}: {message}",
                                line_of(target.text, index, path),
                            )
                        )
    return findings
