"""Step 2: ``itbench lint --profile itbench`` findings on the answer files, cached per file
content so a reflection round re-lints only what the model changed.

Parse/compile errors (REGO001) and ``--syntax-check`` (ANS001) are left to the compile step,
which runs them once; ansible-lint (ANS002) is style advice that costs seconds per run and is
not part of what the benchmark scores, so the validator does not feed it back.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from pathlib import Path

from ciso.lint.model import Options, Severity
from ciso.validation.diagnostics import Diagnostic, Level, Step
from ciso.validation.files import AnswerFiles

PROFILE = "itbench"
LEFT_TO_COMPILE_STEP = ("REGO001", "ANS001", "ANS002", "REGO002", "KYV008")
_LEVELS = {Severity.ERROR: Level.ERROR, Severity.WARNING: Level.WARNING, Severity.INFO: Level.INFO}


@dataclass(frozen=True)
class CachedFinding:
    rule: str
    level: Level
    message: str
    line: int | None


_CACHE: dict[tuple[str, str], tuple[CachedFinding, ...]] = {}
_LOCK = threading.Lock()
#: How many files were linted and how many answered from the cache (benchmark figures).
STATS = {"linted": 0, "cached": 0}


def _key(path: Path) -> tuple[str, str]:
    # the name matters too: rules skip *_test.rego and classify YAML by content
    return path.name, hashlib.sha256(path.read_bytes()).hexdigest()


def _lint_one(path: Path) -> tuple[CachedFinding, ...]:
    from ciso.lint.runner import lint_paths

    run = lint_paths([path], Options(profile=PROFILE), disable=LEFT_TO_COMPILE_STEP, progress=False)
    found = [CachedFinding(f.rule.id, _LEVELS[f.level], f.message, f.line) for f in run.findings]
    found += [CachedFinding("lint", Level.WARNING, e, None) for e in run.tool_errors]
    return tuple(found)


def lint_answer(files: AnswerFiles) -> list[Diagnostic]:
    diagnostics: list[Diagnostic] = []
    for path in files.present():
        if path.suffix not in (".rego", ".yaml", ".yml"):
            continue  # shell collectors have no linter here; the dry run exercises them
        key = _key(path)
        with _LOCK:
            cached = _CACHE.get(key)
        if cached is None:
            cached = _lint_one(path)
            with _LOCK:
                _CACHE[key] = cached
                STATS["linted"] += 1
        else:
            with _LOCK:
                STATS["cached"] += 1
        rel = files.relative(path)
        diagnostics += [
            Diagnostic(Step.LINT, f.level, f.message, rel, f.line, f.rule) for f in cached
        ]
    return diagnostics
