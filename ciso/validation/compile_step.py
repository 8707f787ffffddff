"""Step 3: does the answer load at all? Rego parse/compile/type errors, Kyverno structural
errors (what admission would refuse), ``ansible-playbook --syntax-check``."""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

from ciso.validation.diagnostics import Diagnostic, Level, Step
from ciso.validation.files import AnswerFiles

_SYNTAX_CACHE: dict[str, tuple[tuple[int | None, str], ...]] = {}
_LOCK = threading.Lock()


def rego_errors(policy: Path, rel: str) -> list[Diagnostic]:
    from ciso.engines.rego.model import RegoError
    from ciso.evaluation.rego import _pool

    try:
        found = _pool().check({policy.name: policy.read_text(encoding="utf-8")})
    except RegoError as exc:  # a worker failure is reported like a compile error
        found = exc.diagnostics
    except UnicodeDecodeError as exc:
        return [Diagnostic(Step.COMPILE, Level.ERROR, f"not UTF-8 text: {exc.reason}", rel)]
    return [Diagnostic(Step.COMPILE, Level.ERROR, d.message, rel, d.line, d.code) for d in found]


def kyverno_errors(files: AnswerFiles) -> list[Diagnostic]:
    from ciso.engines.kyverno.structure import PolicyError, check_policy
    from ciso.evaluation.policies import agent_policies

    found = agent_policies(files.workspace)
    out = []
    for policy, origin in zip(found.policies, found.origins, strict=True):
        name = str((policy.get("metadata") or {}).get("name", ""))
        try:
            check_policy(policy, name)
        except PolicyError as exc:
            out.append(
                Diagnostic(
                    Step.COMPILE,
                    Level.ERROR,
                    str(exc),
                    None if origin == "cluster" else origin,
                    rule="kyverno-structure",
                )
            )
    return out


def playbook_errors(playbook: Path, rel: str) -> list[Diagnostic]:
    """``--syntax-check`` runs sandboxed (seconds): cached per playbook content."""
    from ciso.engines.ansible import syntax_check

    key = hashlib.sha256(playbook.read_bytes()).hexdigest()
    with _LOCK:
        cached = _SYNTAX_CACHE.get(key)
    if cached is None:
        cached = tuple((d.line, d.message) for d in syntax_check(playbook))
        with _LOCK:
            _SYNTAX_CACHE[key] = cached
    return [
        Diagnostic(Step.COMPILE, Level.ERROR, message, rel, line, "syntax-check")
        for line, message in cached
    ]


def compile_answer(files: AnswerFiles) -> list[Diagnostic]:
    diagnostics: list[Diagnostic] = []
    if files.policy_rego is not None:
        diagnostics += rego_errors(files.policy_rego, files.relative(files.policy_rego))
    if files.kyverno:
        diagnostics += kyverno_errors(files)
    if files.playbook is not None:
        diagnostics += playbook_errors(files.playbook, files.relative(files.playbook))
    return diagnostics
