"""Kyverno's wildcard (its ext/wildcard package): ``*`` matches any run of characters and ``?``
one character; nothing else is special (unlike fnmatch, ``[`` is literal). Used for names,
namespaces, rule names, condition values, pattern leaves, images and pattern_match()."""

from __future__ import annotations

import functools
from typing import Any

from itbench import goregexp


@functools.lru_cache(maxsize=4096)  # the same policy patterns are matched over and over
def _regex(pattern: str) -> goregexp.Regexp:
    """``pattern`` as RE2 (linear time: ``*a*a*a*a*b`` would backtrack polynomially in ``re``)."""
    body = "".join(
        ".*" if c == "*" else "." if c == "?" else goregexp.quote_meta(c) for c in pattern
    )
    return goregexp.compile("(?s)" + body)


def match(pattern: Any, text: Any) -> bool:
    """Whether ``text`` matches ``pattern`` (non-strings compare by their text)."""
    pattern, text = str(pattern), str(text)
    if "*" not in pattern and "?" not in pattern:
        return pattern == text
    return _regex(pattern).fullmatch(text)


def any_match(patterns: Any, text: Any) -> bool:
    return any(match(p, text) for p in patterns or ())
