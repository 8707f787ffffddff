"""GEN001: a file that should be linted cannot be read (binary, too large, invalid YAML)."""

from __future__ import annotations

from ciso.lint.model import RuleInfo

INFO = RuleInfo(
    "GEN001",
    "error",
    "File cannot be read as a policy or playbook",
    "Fix the file: it must be UTF-8 text under 2 MiB, and YAML must parse (aliases are not accepted).",
)
KINDS: tuple[str, ...] = ()


def check(target, options, ctx):  # noqa: ANN001 - discovery reports these itself
    return []
