"""itbench.goregexp behaves as Go's regexp: linear time, Go's syntax and errors, Go's successive
matches and replacement templates (each expectation is what Go prints for the same call)."""

from __future__ import annotations

import time

import pytest

from itbench import goregexp


def test_catastrophic_pattern_is_linear() -> None:
    started = time.monotonic()
    assert not goregexp.compile("^(a+)+$").matches("a" * 100_000 + "!")
    assert time.monotonic() - started < 1


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        (r"(a)\1", "error parsing regexp: invalid escape sequence: `\\1`"),
        ("a(?=b)", "error parsing regexp: invalid or unsupported Perl syntax: `(?=`"),
        (r"a\Z", "error parsing regexp: invalid escape sequence: `\\Z`"),
        ("(", "error parsing regexp: missing closing ): `(`"),
        ("[a", "error parsing regexp: missing closing ]: `[a`"),
        ("*", "error parsing regexp: missing argument to repetition operator: `*`"),
        ("a**", "error parsing regexp: invalid nested repetition operator: `**`"),
        ("a{2000}", "error parsing regexp: invalid repeat count: `{2000}`"),
    ],
)
def test_what_go_refuses_is_an_error_in_gos_words(pattern: str, message: str) -> None:
    with pytest.raises(goregexp.RegexError) as info:
        goregexp.compile(pattern)
    assert str(info.value) == message


def test_empty_matches_abutting_a_match_are_skipped_as_in_go() -> None:
    regex = goregexp.compile("a*")
    assert regex.find_all("baaac") == ["", "aaa", ""]  # Python's re: ['', 'aaa', '', '']
    assert regex.replace_all("baaac", "x") == "xbxcx"  # Python's re.sub: 'xbxxcx'
    assert goregexp.compile("x*").find_all("abc", 2) == ["", ""]


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("$2:$1", "1:a 2:b"),
        ("${k}=${2}", "a=1 b=2"),
        ("$1x", " "),  # the group named "1x" does not exist: empty, as Go
        ("$$1", "$1 $1"),
        ("$3|$", "|$ |$"),  # no group 3: empty; a final "$" stays text
    ],
)
def test_replacement_templates_expand_as_gos(template: str, expected: str) -> None:
    assert goregexp.compile(r"(?P<k>\w)=(\w)").replace_all("a=1 b=2", template) == expected


def test_ascii_classes_and_end_of_text() -> None:
    assert not goregexp.compile(r"^\d$").matches("٣")  # Arabic-Indic three: Python's \d matches
    assert not goregexp.compile("a$").matches("a\n")  # Python's $ matches before a final newline
    assert goregexp.compile("(?m)a$").matches("a\n")


def test_replacement_stops_at_the_length_bound() -> None:
    with pytest.raises(goregexp.GrowthError):
        goregexp.compile("a").replace_all_literal("a" * 1000, "b" * 1000, max_length=10_000)
