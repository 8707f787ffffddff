"""Kyverno's wildcard, the one used for names, rule names, values, images and pattern_match."""

from __future__ import annotations

import pytest

from ciso.engines.kyverno.wildcard import any_match, match


@pytest.mark.parametrize(
    ("pattern", "text", "matches"),
    [
        ("nginx:*", "nginx:1.25", True),
        ("web-?", "web-1", True),
        ("web-?", "web-10", False),
        ("*", "", True),
        ("?*", "", False),
        ("[ab]", "a", False),  # brackets are literal, unlike fnmatch
        ("[ab]", "[ab]", True),
        ("a.b", "axb", False),  # regex metacharacters are literal
        (5, "5", True),  # non-strings compare by their text
    ],
)
def test_match(pattern, text, matches):
    assert match(pattern, text) is matches


def test_any_match():
    assert any_match(["db-*", "web-*"], "web-1") is True
    assert any_match(["db-*"], "web-1") is False
    assert any_match(None, "web-1") is False
