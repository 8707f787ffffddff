"""Kubernetes' regex library: ``find`` and ``findAll`` (``matches`` is CEL's own, in the Rust
evaluator's linear-time engine). Patterns are RE2; a pattern Python's engine cannot read, or one
with backreferences RE2 forbids, is an error rather than a slow match."""

from __future__ import annotations

import functools
import re

_BACKREFERENCE = re.compile(r"\\[1-9]|\(\?P=")


@functools.lru_cache(maxsize=512)
def _compile(pattern: str) -> re.Pattern[str]:
    if _BACKREFERENCE.search(pattern):
        raise ValueError(f"invalid RE2 pattern {pattern!r}: backreferences are not supported")
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"invalid regex {pattern!r}: {exc}") from None


def _find(text: str, pattern: str) -> str:
    m = _compile(pattern).search(text)
    return m.group(0) if m else ""


def _find_all(text: str, pattern: str, limit: int = -1) -> list[str]:
    found = [m.group(0) for m in _compile(pattern).finditer(text)]
    return found if limit < 0 else found[:limit]


FUNCTIONS = {"find": _find, "findAll": _find_all}
