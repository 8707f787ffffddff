"""Kubernetes' regex library: ``find`` and ``findAll`` (``matches`` is CEL's own, in the Rust
evaluator's linear-time engine); and cel-go's regex extension that Kyverno's compiler adds:
``regex.replace(target, pattern, replacement[, count])`` (``\\1`` refers to a group),
``regex.extract`` (an optional: the first match, or its one group) and ``regex.extractAll``.
Patterns are RE2 through ``itbench.goregexp`` (linear time): one Go refuses, backreferences or
lookaround among them, is an error in Go's words rather than a slow match."""

from __future__ import annotations

from typing import Any

import cel

from ciso.engines.kyverno import growth
from ciso.engines.kyverno.cel.syntax import namespaced
from itbench import goregexp


def _compile(pattern: str) -> goregexp.Regexp:
    try:
        return goregexp.compile(pattern)
    except goregexp.RegexError as exc:
        raise ValueError(str(exc)) from None


def _find(text: str, pattern: str) -> str:
    m = _compile(pattern).search(text)
    return m.group(0) if m else ""


def _find_all(text: str, pattern: str, limit: int = -1) -> list[str]:
    return _compile(pattern).find_all(text, limit)


def _expansion(regex: goregexp.Regexp, replacement: str) -> Any:
    """cel-go's regex.replace template: ``\\N`` is group N, ``\\\\`` a backslash."""
    pieces: list[str | int] = []
    i = 0
    while i < len(replacement):
        char = replacement[i]
        if char == "\\" and i + 1 < len(replacement):
            nxt = replacement[i + 1]
            if nxt.isdigit():
                pieces.append(int(nxt))
                i += 2
                continue
            if nxt == "\\":
                pieces.append("\\")
                i += 2
                continue
        pieces.append(char)
        i += 1
    return lambda m: "".join(p if isinstance(p, str) else regex.group_value(m, p) for p in pieces)


def _replace(target: str, pattern: str, replacement: str, count: int = -1) -> str:
    """cel-go's regex.replace: ``\\N`` in the replacement is group N; count < 0 replaces all."""
    if count == 0:
        return target
    regex = _compile(pattern)
    try:
        return regex.replace(
            target, _expansion(regex, replacement), count=count, max_length=growth.MAX_LENGTH
        )
    except goregexp.GrowthError as exc:
        raise growth.GrowthLimitExceeded("regex.replace", exc.length) from None


def _group_or_match(regex: goregexp.Regexp, m: Any, pattern: str) -> str:
    if regex.groups > 1:
        raise ValueError(f"regex.extract: pattern {pattern!r} has more than one capture group")
    return regex.group_value(m, 1) if regex.groups == 1 else m.group(0)


def _extract(target: str, pattern: str) -> Any:
    regex = _compile(pattern)
    m = regex.search(target)
    if not m:
        return cel.OptionalValue.none()
    return cel.OptionalValue.of(_group_or_match(regex, m, pattern))


def _extract_all(target: str, pattern: str) -> list[str]:
    regex = _compile(pattern)
    return [_group_or_match(regex, m, pattern) for m in regex.iter_matches(target)]


FUNCTIONS = {
    "find": _find,
    "findAll": _find_all,
    namespaced("regex", "replace"): _replace,
    namespaced("regex", "extract"): _extract,
    namespaced("regex", "extractAll"): _extract_all,
}
