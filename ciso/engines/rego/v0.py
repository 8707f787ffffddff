"""Rewrite Rego v0 modules into v1 syntax, so real OPA 1.x evaluates them with OPA's semantics.

v0 (the Gatekeeper library, one ITBench example) differs from v1 in syntax only where it matters
here: rule bodies need ``if``, partial sets are written ``p[x] { … }`` (v1: ``p contains x if``),
and a rule may have several bodies ``p { a } { b }`` meaning "or" (v1: one rule per body). This is a
token-level rewrite at the top level of the module: strings, comments and nested brackets are
skipped, nothing inside bodies changes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(
    r'(?P<comment>\#[^\n]*)|(?P<string>"(?:\\.|[^"\\])*")|(?P<raw>`[^`]*`)|(?P<nl>\n)|(?P<space>[ \t\r]+)'
    r"|(?P<word>[A-Za-z_][A-Za-z0-9_]*)|(?P<open>[\[({])|(?P<close>[\])}])|(?P<other>:=|==|!=|<=|>=|.)"
)


@dataclass
class _Tok:
    kind: str
    text: str


def _tokens(source: str) -> list[_Tok]:
    return [_Tok(m.lastgroup or "other", m.group()) for m in _TOKEN.finditer(source)]


def _significant(tokens: list[_Tok]) -> list[_Tok]:
    return [t for t in tokens if t.kind not in ("space", "comment", "nl")]


def _rewrite_head(head: list[_Tok], has_body: bool) -> str:
    """A v0 rule head (tokens before its body) in v1 form."""
    words = _significant(head)
    text = "".join(t.text for t in head).rstrip()
    if not words or words[0].text in ("package", "import", "default"):
        return text
    if any(t.text in ("if", "contains") for t in words):
        return text + (" " if has_body else "")
    # name[term] with no value: a partial set
    if (
        len(words) >= 3
        and words[0].kind == "word"
        and words[1].text == "["
        and words[-1].text == "]"
    ):
        depth, closing = 0, None
        for i, t in enumerate(words[1:], start=1):
            depth += t.text in "[({" and t.kind == "open"
            depth -= t.text in "])}" and t.kind == "close"
            if depth == 0:
                closing = i
                break
        if closing == len(words) - 1:
            inner = text[text.index("[") + 1 : text.rindex("]")]
            head_text = f"{words[0].text} contains {inner.strip()}"
            return head_text + (" if " if has_body else "")
    return text + (" if " if has_body else "")


def rewrite_v0(source: str) -> str:
    tokens = _tokens(source)
    out: list[str] = []
    i = 0
    at_line_start = True
    last_head: str | None = None
    while i < len(tokens):
        tok = tokens[i]
        if tok.kind in ("nl",):
            out.append(tok.text)
            at_line_start = True
            i += 1
            continue
        if tok.kind in ("space", "comment"):
            out.append(tok.text)
            i += 1
            continue
        if tok.kind == "open" and tok.text == "{" and last_head is not None:
            # another body of the rule just closed: "p { a } { b }" means "p if { a }  p if { b }"
            out.append(f"\n{last_head}{{")
            i, _ = _copy_block(tokens, i, out, skip_open=True)
            at_line_start = False
            continue
        if tok.kind == "word" and tok.text == "else":
            # "} else = v {" -> "} else = v if {"
            j = i
            head: list[_Tok] = []
            while (
                j < len(tokens)
                and not (tokens[j].kind == "open" and tokens[j].text == "{")
                and tokens[j].kind != "nl"
            ):
                head.append(tokens[j])
                j += 1
            has_body = j < len(tokens) and tokens[j].text == "{"
            text = "".join(t.text for t in head).rstrip()
            out.append(text + (" if " if has_body and "if" not in [t.text for t in head] else " "))
            i = j
            if has_body:
                i, _ = _copy_block(tokens, i, out)
            continue
        if at_line_start and tok.kind == "word":
            head, j, has_body = _collect_head(tokens, i)
            if head and _significant(head)[0].text in ("package", "import"):
                out.append("".join(t.text for t in head))
                i = j
                last_head = None
                at_line_start = False
                continue
            rewritten = _rewrite_head(head, has_body)
            out.append(rewritten)
            i = j
            if has_body:
                i, _ = _copy_block(tokens, i, out)
                last_head = (
                    rewritten
                    if rewritten.rstrip().endswith("if") or rewritten.endswith("if ")
                    else None
                )
                if last_head is not None and not last_head.endswith(" "):
                    last_head += " "
            else:
                last_head = None
            at_line_start = False
            continue
        out.append(tok.text)
        i += 1
    return "".join(out)


def _collect_head(tokens: list[_Tok], i: int) -> tuple[list[_Tok], int, bool]:
    """Tokens of a rule head up to its body's '{' (at bracket depth 0) or the end of the line."""
    head: list[_Tok] = []
    depth = 0
    while i < len(tokens):
        t = tokens[i]
        if depth == 0 and t.kind == "open" and t.text == "{":
            # "{" right after an operator starts a value (a set or object), not a body
            prev = _significant(head)[-1].text if _significant(head) else ""
            if prev not in ("=", ":=", ",", "(", "["):
                return head, i, True
        if depth == 0 and t.kind == "nl":
            # a head continues over a newline only inside brackets or after an operator
            prev = _significant(head)[-1].text if _significant(head) else ""
            if prev not in ("=", ":=", ",", "|"):
                return head, i, False
        if t.kind == "open":
            depth += 1
        elif t.kind == "close":
            depth -= 1
        head.append(t)
        i += 1
    return head, i, False


def _copy_block(
    tokens: list[_Tok], i: int, out: list[str], skip_open: bool = False
) -> tuple[int, None]:
    """Copy a balanced { ... } block verbatim; returns the index after it."""
    depth = 0
    first = True
    while i < len(tokens):
        t = tokens[i]
        if t.kind == "open":
            depth += 1
        elif t.kind == "close":
            depth -= 1
        if not (first and skip_open):
            out.append(t.text)
        first = False
        i += 1
        if depth == 0:
            break
    return i, None
