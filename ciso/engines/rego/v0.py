"""Rewrite Rego v0 modules into v1 syntax, so real OPA 1.x evaluates them with OPA's semantics.

v0 (the Gatekeeper library, one ITBench example) differs from v1 in syntax only where it matters
here: rule bodies need ``if``, partial sets are written ``p[x] { … }`` (v1: ``p contains x if``),
a rule may have several bodies ``p { a } { b }`` meaning "or" (v1: one rule per body), and two
deprecated builtins are gone (``re_match``, ``net.cidr_overlap``).

The rewrite works on tokens, never on lines: a tokenizer (strings, raw strings, comments, brackets,
operators, newlines) feeds a small parser of the module's top level that knows the shape of a rule
— head, value, bodies, ``else`` chains — and skips balanced groups, so a value or a body may span any
number of lines and braces inside strings or comments change nothing. Text inside bodies is copied
unchanged. Insertions never add a newline, so a row in the rewrite is the same row in the source;
``Rewrite.source_column`` maps a column back, so OPA's diagnostics point into the file the user wrote.

Not handled (OPA's own v0 mode or regorus are the way for these): v0 modules that use ``if``,
``in``, ``contains`` or ``every`` as plain identifiers, and the other deprecated builtins (``any``,
``all``, ``set_diff``, ``cast_*``), which have no one-token replacement.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

_TOKEN = re.compile(
    r"(?P<comment>\#[^\n]*)"
    r'|(?P<string>"(?:\\.|[^"\\\n])*")'
    r"|(?P<raw>`[^`]*`)"
    r"|(?P<nl>\n)"
    r"|(?P<space>[ \t\r\f]+)"
    r"|(?P<number>\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)"
    r"|(?P<word>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<open>[\[({])"
    r"|(?P<close>[\])}])"
    r"|(?P<op>:=|==|!=|<=|>=|[=<>+\-*/%&|,;:.!])"
    r"|(?P<other>.)"
)
_TRIVIA = frozenset(("space", "comment", "nl"))
_CLOSING = {"(": ")", "[": "]", "{": "}"}
#: Infix operators that continue a head value over whitespace and newlines (OPA's scanner does).
_INFIX = frozenset(("+", "-", "*", "/", "%", "&", "|", "==", "!=", "<", ">", "<=", ">="))
#: Deprecated v0 builtins removed in v1 that have an exact v1 equivalent with the same arguments.
_RENAMED_BUILTINS = {"re_match": "regex.match", "net.cidr_overlap": "net.cidr_contains"}


class Token(NamedTuple):
    """One lexical token (a tuple: there are tens of thousands in a large module)."""

    kind: str  # comment, string, raw, nl, space, number, word, open, close, op, other
    text: str
    line: int  # 1-based
    column: int  # 1-based, in characters


def tokenize(source: str) -> list[Token]:
    """Every character of ``source`` in exactly one token (joining the texts gives it back)."""
    tokens: list[Token] = []
    line, line_start = 1, 0
    for match in _TOKEN.finditer(source):
        kind = match.lastgroup or "other"
        text = match.group()
        start = match.start()
        tokens.append(Token(kind, text, line, start - line_start + 1))
        # only a newline or a raw string holds a line break (quoted strings cannot)
        if kind == "nl":
            line, line_start = line + 1, start + 1
        elif kind == "raw" and "\n" in text:
            line += text.count("\n")
            line_start = start + text.rindex("\n") + 1
    return tokens


@dataclass(frozen=True)
class Rewrite:
    """A rewritten module and where its insertions went, to map diagnostics back to the source."""

    text: str
    #: Per output line: (output column where inserted text starts, its length minus what it replaced).
    shifts: dict[int, list[tuple[int, int]]] = field(default_factory=dict)

    def source_column(self, line: int, column: int) -> int:
        """The source column of output ``line``:``column`` (both 1-based)."""
        shift = 0
        for start, delta in self.shifts.get(line, []):
            if start < column:
                shift += delta
        return max(1, column - shift)


class _Parser:
    """The top level of one v0 module, rule by rule; edits are collected, then applied."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.n = len(tokens)
        self.before: dict[int, str] = {}  # token index -> text inserted before it
        self.replace: dict[int, str] = {}  # token index -> its new text

    # -- token walking -------------------------------------------------------------------------

    def skip_trivia(self, i: int) -> int:
        while i < self.n and self.tokens[i].kind in _TRIVIA:
            i += 1
        return i

    def skip_space(self, i: int) -> int:
        """Skip blanks and comments but not newlines (a newline may end a statement)."""
        while i < self.n and self.tokens[i].kind in ("space", "comment"):
            i += 1
        return i

    def is_text(self, i: int, *texts: str) -> bool:
        return i < self.n and self.tokens[i].kind not in _TRIVIA and self.tokens[i].text in texts

    def group_end(self, i: int) -> int:
        """Index after the bracket group opening at ``i``; strings and comments are tokens, so a
        brace inside them is never counted. An unbalanced group runs to the end of the module."""
        stack = [_CLOSING[self.tokens[i].text]]
        i += 1
        while i < self.n and stack:
            tok = self.tokens[i]
            if tok.kind == "open":
                stack.append(_CLOSING[tok.text])
            elif tok.kind == "close" and tok.text == stack[-1]:
                stack.pop()
            i += 1
        return i

    def line_end(self, i: int) -> int:
        """Index of the newline ending the statement that continues at ``i`` (groups may span
        lines), or the end of the module."""
        while i < self.n and self.tokens[i].kind != "nl":
            i = self.group_end(i) if self.tokens[i].kind == "open" else i + 1
        return i

    def operand_end(self, i: int) -> int:
        """Index after one operand: a literal, a group, or a reference/call with its suffixes."""
        i = self.skip_trivia(i)
        while self.is_text(i, "-", "!"):  # unary minus (and a stray "!" stays the parser's problem)
            i = self.skip_trivia(i + 1)
        if i >= self.n:
            return i
        tok = self.tokens[i]
        i = self.group_end(i) if tok.kind == "open" else i + 1
        # suffixes bind only when adjacent: x.y, x[y], f(x)
        while i < self.n:
            tok = self.tokens[i]
            if tok.kind == "open" and tok.text in "[(":
                i = self.group_end(i)
            elif tok.kind == "op" and tok.text == "." and i + 1 < self.n:
                i += 2
            else:
                break
        return i

    def value_end(self, i: int) -> int:
        """Index after a head value: operands joined by infix operators, possibly over lines."""
        end = self.operand_end(i)
        while True:
            nxt = self.skip_trivia(end)
            if nxt < self.n and self.tokens[nxt].kind == "op" and self.tokens[nxt].text in _INFIX:
                end = self.operand_end(nxt + 1)
            else:
                return end

    # -- the module ----------------------------------------------------------------------------

    def module(self) -> None:
        i = 0
        while i < self.n:
            tok = self.tokens[i]
            if tok.kind in _TRIVIA:
                i += 1
            elif tok.kind == "word" and tok.text in ("package", "import"):
                i = self.line_end(i)
            elif tok.kind == "word":
                i = self.rule(i)
            else:  # not a statement v0 has; leave it for OPA to report where it is
                i = self.line_end(i) if tok.kind != "open" else self.group_end(i)
        for i, tok in enumerate(self.tokens):
            if tok.kind == "word" and i not in self.replace:
                self.rename_builtin(i)

    def rename_builtin(self, i: int) -> None:
        tok = self.tokens[i]
        if i > 0 and self.tokens[i - 1].text == ".":
            return
        if tok.text == "re_match" and self.is_text(i + 1, "("):
            self.replace[i] = _RENAMED_BUILTINS["re_match"]
        elif (
            tok.text == "net"
            and self.is_text(i + 1, ".")
            and self.is_text(i + 2, "cidr_overlap")
            and self.is_text(i + 3, "(")
        ):
            self.replace[i + 2] = "cidr_contains"

    def rule(self, i: int) -> int:
        """Rewrite the rule starting at ``i``; returns the index after it."""
        if self.tokens[i].text == "default":
            # `default p = v` / `default p := v` is the same in v1
            head_end = self.head_end(self.skip_trivia(i + 1))
            return self.value_after_assign(head_end)
        start = i
        head_end = self.head_end(i)
        has_args = self.tokens[head_end - 1].text == ")" if head_end > start else False
        j = self.skip_space(head_end)
        contains = self.is_text(j, "contains")
        j = self.value_end(j + 1) if contains else self.value_after_assign(head_end)
        # a partial set `p[x]` (no value, no arguments) becomes `p contains x`
        last = self.last_group(start, head_end)
        value_given = self.skip_trivia(head_end) < j and not contains
        if not contains and not value_given and not has_args and last is not None:
            open_i, close_i = last
            self.replace[open_i] = " contains "
            self.replace[close_i] = ""
        head_text = self.head_text(start, j)
        return self.bodies(j, head_text)

    def head_end(self, i: int) -> int:
        """Index after a rule's name: a reference (``p``, ``p.q``, ``p[x]``) and its arguments."""
        i += 1
        while i < self.n:
            tok = self.tokens[i]
            if tok.kind == "open" and tok.text in "[(":
                i = self.group_end(i)
            elif tok.kind == "op" and tok.text == "." and i + 1 < self.n:
                i += 2
            else:
                break
        return i

    def last_group(self, start: int, end: int) -> tuple[int, int] | None:
        """The (open, close) indices of a trailing ``[key]`` on a head, if it ends with one."""
        if end - 1 <= start or self.tokens[end - 1].text != "]":
            return None
        depth = 0
        for k in range(end - 1, start, -1):
            tok = self.tokens[k]
            if tok.kind == "close":
                depth += 1
            elif tok.kind == "open":
                depth -= 1
                if depth == 0:
                    return (k, end - 1) if tok.text == "[" else None
        return None

    def value_after_assign(self, i: int) -> int:
        """Index after ``= value`` / ``:= value`` if one follows ``i``; else ``i``."""
        j = self.skip_space(i)
        if self.is_text(j, "=", ":="):
            return self.value_end(j + 1)
        return i

    def head_text(self, start: int, end: int) -> str:
        """The rewritten head on one line, to repeat before another body of the same rule.

        A newline between two expressions of a comprehension separates them, so on one line it
        becomes "; "; anywhere else (inside an array, after an operator) it is only a blank."""
        parts = []
        groups: list[list[bool]] = []  # per open bracket: [seen "|" at its own depth]
        previous: Token | None = None
        for k in range(start, end):
            tok = self.tokens[k]
            if tok.kind == "comment":
                continue
            if tok.kind == "nl":
                nxt = self.skip_trivia(k)
                separates = (
                    groups
                    and groups[-1][0]
                    and previous is not None
                    and _ends_term(previous)
                    and nxt < end
                    and _starts_term(self.tokens[nxt])
                )
                parts.append("; " if separates else " ")
                continue
            if tok.kind == "open":
                groups.append([False])
            elif tok.kind == "close" and groups:
                groups.pop()
            elif tok.text == "|" and groups:
                groups[-1][0] = True
            if tok.kind == "space":
                parts.append(" ")  # blanks between tokens only: a string keeps its own
                continue
            previous = tok
            parts.append(self.replace.get(k, tok.text))
        return "".join(parts).strip()

    def bodies(self, i: int, head_text: str) -> int:
        """The bodies and ``else`` clauses after a head ending at ``i``."""
        first = True
        while True:
            j = self.skip_trivia(i)
            if self.is_text(j, "if"):
                i = self.if_body(j)
            elif self.is_text(j, "{"):
                if first:
                    self.before[j] = "if "
                elif not head_text:  # a brace after an else chain is not part of this rule
                    return i
                else:
                    # another body of the same rule: "or", which v1 writes as another rule
                    self.before[j] = f"{head_text} if "
                i = self.group_end(j)
            elif self.is_text(j, "else") and not first:
                k = self.value_after_assign(j + 1)
                after = self.skip_trivia(k)
                if self.is_text(after, "if"):
                    i = self.if_body(after)
                elif self.is_text(after, "{"):
                    self.before[after] = "if "
                    i = self.group_end(after)
                else:
                    i = k
                first = False
                # "else" continues a chain; a bare "{" after it would be a new body of the chain
                head_text = ""
                continue
            else:
                return i
            first = False

    def if_body(self, i: int) -> int:
        """After an ``if`` already written (future.keywords): a braced body or one expression."""
        j = self.skip_trivia(i + 1)
        if self.is_text(j, "{"):
            return self.group_end(j)
        return self.line_end(j)

    def apply(self) -> Rewrite:
        out = [tok.text for tok in self.tokens]
        shifts: dict[int, list[tuple[int, int]]] = {}
        # edits never hold a newline, so an edit's output row is its token's row, and its output
        # column is the token's column moved by the edits before it on that row
        for k in sorted(set(self.before) | set(self.replace)):
            tok = self.tokens[k]
            inserted = self.before.get(k, "")
            text = self.replace.get(k, tok.text)
            out[k] = inserted + text
            delta = len(inserted) + len(text) - len(tok.text)
            if delta:
                row = shifts.setdefault(tok.line, [])
                row.append((tok.column + sum(d for _, d in row), delta))
        return Rewrite("".join(out), shifts)


def _ends_term(tok: Token) -> bool:
    return tok.kind in ("word", "number", "string", "raw", "close")


def _starts_term(tok: Token) -> bool:
    return tok.kind in ("word", "number", "string", "raw", "open") or tok.text in ("-", "!")


def rewrite_v0_mapped(source: str) -> Rewrite:
    """``source`` (Rego v0) in v1 syntax, with the column shifts of each line."""
    parser = _Parser(tokenize(source))
    parser.module()
    return parser.apply()


def rewrite_v0(source: str) -> str:
    """``source`` (Rego v0) in v1 syntax; rows are unchanged."""
    return rewrite_v0_mapped(source).text
