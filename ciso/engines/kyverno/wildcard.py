"""Kyverno's wildcard (its ext/wildcard package): ``*`` matches any run of characters and ``?``
one character; nothing else is special (unlike fnmatch, ``[`` is literal). Used for names,
namespaces, rule names, condition values, pattern leaves, images and pattern_match()."""

from __future__ import annotations

import functools
from typing import Any

from itbench import goregexp


def regex_body(pattern: str) -> str:
    """``pattern`` as the body of an RE2 expression (``*`` -> ``.*``, ``?`` -> ``.``, every other
    character literal), unanchored: the engine matches it whole, CEL's ``matches()`` needs
    ``^`` and ``$`` around it (``anchored``)."""
    return "".join(
        ".*" if c == "*" else "." if c == "?" else goregexp.quote_meta(c) for c in pattern
    )


def anchored(pattern: str) -> str:
    """``pattern`` as an RE2 expression matching whole strings, as CEL's ``matches()`` takes it."""
    return "^" + regex_body(pattern) + "$"


@functools.lru_cache(maxsize=4096)  # the same policy patterns are matched over and over
def _regex(pattern: str) -> goregexp.Regexp:
    """``pattern`` as RE2 (linear time: ``*a*a*a*a*b`` would backtrack polynomially in ``re``)."""
    return goregexp.compile("(?s)" + regex_body(pattern))


def match(pattern: Any, text: Any) -> bool:
    """Whether ``text`` matches ``pattern`` (non-strings compare by their text)."""
    pattern, text = str(pattern), str(text)
    if "*" not in pattern and "?" not in pattern:
        return pattern == text
    return _regex(pattern).fullmatch(text)


def any_match(patterns: Any, text: Any) -> bool:
    return any(match(p, text) for p in patterns or ())
