"""Kubernetes' regex library: ``find`` and ``findAll`` (``matches`` is CEL's own, in the Rust
evaluator's linear-time engine); and cel-go's regex extension that Kyverno's compiler adds:
``regex.replace(target, pattern, replacement[, count])`` (``\\1`` refers to a group),
``regex.extract`` (an optional: the first match, or its one group) and ``regex.extractAll``. Patterns are RE2; a pattern Python's engine cannot read, or one
with backreferences RE2 forbids, is an error rather than a slow match."""

from __future__ import annotations

import functools
import re
from typing import Any

import cel

from ciso.engines.kyverno.cel.syntax import namespaced

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


_GROUP_REFERENCE = re.compile(r"\\(\d)")


def _replace(target: str, pattern: str, replacement: str, count: int = -1) -> str:
    """cel-go's regex.replace: ``\\N`` in the replacement is group N; count < 0 replaces all."""
    python = _GROUP_REFERENCE.sub(
        lambda m: f"\\g<{m.group(1)}>", replacement.replace("\\\\", "\x00")
    )
    python = python.replace("\x00", "\\\\")
    if count == 0:
        return target
    return _compile(pattern).sub(python, target, count=max(count, 0))


def _group_or_match(m: re.Match[str], pattern: str) -> str:
    groups = m.re.groups
    if groups > 1:
        raise ValueError(f"regex.extract: pattern {pattern!r} has more than one capture group")
    return m.group(1) if groups == 1 else m.group(0)


def _extract(target: str, pattern: str) -> Any:
    m = _compile(pattern).search(target)
    return cel.OptionalValue.of(_group_or_match(m, pattern)) if m else cel.OptionalValue.none()


def _extract_all(target: str, pattern: str) -> list[str]:
    return [_group_or_match(m, pattern) for m in _compile(pattern).finditer(target)]


FUNCTIONS = {
    "find": _find,
    "findAll": _find_all,
    namespaced("regex", "replace"): _replace,
    namespaced("regex", "extract"): _extract,
    namespaced("regex", "extractAll"): _extract_all,
}
