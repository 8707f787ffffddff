"""Go's ``regexp`` for patterns a user or an agent supplies: RE2 (google-re2), never Python's
``re``.

Python's backtracking engine takes exponential time on patterns such as ``^(a+)+$`` against
``"aaaa…!"``, so a hostile pattern could hang a run. RE2 is what Go's ``regexp`` implements:
linear in the text, and the same syntax. Differences from Python's ``re`` that follow (each is
what Go does, so a pattern behaves here as it does in the tool being reimplemented):

- backreferences (``\\1``, ``(?P=name)``), lookaround (``(?=``, ``(?!``, ``(?<=``), possessive
  quantifiers and ``\\Z`` are refused: "error parsing regexp: invalid escape sequence: `\\1`";
- ``\\d``, ``\\w``, ``\\s`` and ``\\b`` are ASCII only; ``$`` matches only at the end of the text
  (not before a final newline) unless ``(?m)``;
- successive matches (``find_all``, the replacements) skip an empty match that abuts the previous
  match, as Go's ``FindAll``/``ReplaceAll`` do (Python yields it: ``a*`` over ``baaac`` is
  ``xbxcx`` in Go and here, ``xbxxcx`` in Python);
- replacement templates are Go's ``Expand``: ``$1``, ``${1}``, ``$name``, ``${name}``, ``$$``;
  a group that does not exist or did not take part expands to nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

import re2

# RE2 logs every parse error to stderr through absl; the error is raised to the caller instead
_OPTIONS = re2.Options()
_OPTIONS.log_errors = False


class RegexError(ValueError):
    """A pattern RE2 (so Go) cannot compile; the message is Go's."""


#: RE2's words for a parse error -> Go's (regexp/syntax ErrorCode)
_GO_CODES = {
    "missing ]": "missing closing ]",
    "missing )": "missing closing )",
    "trailing \\": "trailing backslash at end of expression",
    "no argument for repetition operator": "missing argument to repetition operator",
    "invalid repetition size": "invalid repeat count",
    "bad repetition operator": "invalid nested repetition operator",
    "invalid perl operator": "invalid or unsupported Perl syntax",
    "invalid named capture group": "invalid named capture",
}


def _go_message(raw: Any) -> str:
    text = raw.decode(errors="replace") if isinstance(raw, bytes) else str(raw)
    code, sep, arg = text.partition(": ")
    code = _GO_CODES.get(code, code)
    # Go: error parsing regexp: invalid escape sequence: `\1`
    return f"error parsing regexp: {code}: `{arg}`"


class Regexp:
    """One compiled pattern (through ``compile``, which caches)."""

    __slots__ = ("pattern", "_re")

    def __init__(self, pattern: str, compiled: Any) -> None:
        self.pattern = pattern
        self._re = compiled

    @property
    def groups(self) -> int:
        return int(self._re.groups)

    def search(self, text: str) -> Any:
        """The leftmost match (a match object: group/start/end), or None (Go's FindString...)."""
        return self._re.search(text)

    def matches(self, text: str) -> bool:
        """Go's MatchString: whether the pattern matches anywhere in ``text``."""
        return self._re.search(text) is not None

    def fullmatch(self, text: str) -> bool:
        return self._re.fullmatch(text) is not None

    def iter_matches(self, text: str, limit: int = -1) -> Iterator[Any]:
        """Successive non-overlapping matches as Go's FindAll gives them (``limit`` < 0: all)."""
        previous_end = -1
        found = 0
        for m in self._re.finditer(text):
            if limit >= 0 and found >= limit:
                return
            if m.start() == m.end() == previous_end:
                continue  # Go ignores an empty match abutting the preceding match
            previous_end = m.end()
            found += 1
            yield m

    def find_all(self, text: str, limit: int = -1) -> list[str]:
        return [m.group(0) for m in self.iter_matches(text, limit)]

    def replace(
        self,
        text: str,
        replacement: Callable[[Any], str],
        *,
        count: int = -1,
        max_length: int | None = None,
    ) -> str:
        """``text`` with each match (the first ``count``; < 0: all) replaced by
        ``replacement(match)``; GrowthError once the result would pass ``max_length``."""
        out: list[str] = []
        length = 0
        last = 0
        for m in self.iter_matches(text, count):
            piece = text[last : m.start()] + replacement(m)
            length += len(piece)
            if max_length is not None and length > max_length:
                raise GrowthError(length, max_length)
            out.append(piece)
            last = m.end()
        out.append(text[last:])
        length += len(text) - last
        if max_length is not None and length > max_length:
            raise GrowthError(length, max_length)
        return "".join(out)

    def replace_all(self, text: str, template: str, *, max_length: int | None = None) -> str:
        """Go's ReplaceAllString: ``template`` expanded (``$1``, ``${name}``) per match."""
        pieces = parse_template(template)
        return self.replace(text, lambda m: expand(pieces, m, self), max_length=max_length)

    def replace_all_literal(self, text: str, literal: str, *, max_length: int | None = None) -> str:
        """Go's ReplaceAllLiteralString."""
        return self.replace(text, lambda _m: literal, max_length=max_length)

    def group_value(self, m: Any, ref: int | str) -> str:
        """Group ``ref`` (index or name) of ``m``; empty when absent or unmatched, as Go's Expand."""
        if isinstance(ref, str):
            named: int | None = self._re.groupindex.get(ref)
            if named is None:
                return ""
            index = named
        else:
            index = ref
        if index > self.groups:
            return ""
        value = m.group(index)
        return value if value is not None else ""


class GrowthError(ValueError):
    """A replacement whose result would pass the caller's length bound."""

    def __init__(self, length: int, limit: int) -> None:
        super().__init__(f"result of at least {length} characters exceeds the limit of {limit}")
        self.length = length
        self.limit = limit


def parse_template(template: str) -> tuple[str | int, ...]:
    """Go's Expand template as pieces: literal text is a ``str``, a reference an ``int`` (group
    index) or a one-element tuple holding the group's name."""
    pieces: list[Any] = []
    literal: list[str] = []
    i = 0
    while i < len(template):
        char = template[i]
        if char != "$" or i + 1 >= len(template):
            literal.append(char)
            i += 1
            continue
        nxt = template[i + 1]
        if nxt == "$":
            literal.append("$")
            i += 2
            continue
        name, end = _reference(template, i + 1)
        if name is None:
            literal.append("$")  # Go keeps a malformed ``$`` as text
            i += 1
            continue
        if literal:
            pieces.append("".join(literal))
            literal = []
        pieces.append(int(name) if name.isdigit() else (name,))
        i = end
    if literal:
        pieces.append("".join(literal))
    return tuple(pieces)


def _is_name_char(char: str) -> bool:
    return char == "_" or ("0" <= char <= "9") or ("a" <= char.lower() <= "z")


def _reference(template: str, i: int) -> tuple[str | None, int]:
    """The group name after a ``$`` at ``template[i-1]``: ``{name}`` or the longest run of
    letters, digits and underscores; (None, i) when there is none."""
    if template[i] == "{":
        close = template.find("}", i + 1)
        name = template[i + 1 : close] if close > 0 else ""
        if close < 0 or not name or not all(_is_name_char(c) for c in name):
            return None, i
        return name, close + 1
    end = i
    while end < len(template) and _is_name_char(template[end]):
        end += 1
    return (template[i:end], end) if end > i else (None, i)


def expand(pieces: tuple[Any, ...], m: Any, regexp: Regexp) -> str:
    out = []
    for piece in pieces:
        if isinstance(piece, str):
            out.append(piece)
        elif isinstance(piece, int):
            out.append(regexp.group_value(m, piece))
        else:
            out.append(regexp.group_value(m, piece[0]))
    return "".join(out)


@functools.lru_cache(maxsize=4096)  # policies match the same patterns over and over
def compile(pattern: str) -> Regexp:  # noqa: A001 - the module is used as goregexp.compile
    """``pattern`` compiled as Go would; RegexError (Go's message) when Go would refuse it."""
    if not isinstance(pattern, str):
        raise RegexError(f"regular expression must be a string, got {type(pattern).__name__}")
    try:
        return Regexp(pattern, re2.compile(pattern, _OPTIONS))
    except re2.error as exc:
        raise RegexError(_go_message(exc.args[0] if exc.args else exc)) from None


def quote_meta(text: str) -> str:
    """Go's regexp.QuoteMeta: ``text`` as a pattern matching it literally."""
    return "".join("\\" + c if c in r"\.+*?()|[]{}^$" else c for c in text)
