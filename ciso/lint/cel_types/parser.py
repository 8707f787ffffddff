"""A parser for CEL's published grammar, producing the tree the checker walks.

The evaluator (the ``cel`` package) parses but exposes no tree, so the checker parses again
here. It accepts what Kubernetes' CEL accepts beyond the core grammar: optional selection and
indexing (``x.?f``, ``x[?k]``), optional entries (``{?k: v}``, ``[?x]``) and backquoted field
names. Every node keeps the offset of its first character, for the finding's line and column."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from ciso.engines.kyverno.cel.syntax import CelSyntaxError
from ciso.lint.cel_types.types import BOOL, BYTES, DOUBLE, INT, NULL, STRING, UINT, CelType


class CelParseError(CelSyntaxError):
    """The source does not follow CEL's grammar (the engine's tokeniser error, with its offset)."""


@dataclass(frozen=True, slots=True)
class Literal:
    offset: int
    type: CelType
    value: object = None


@dataclass(frozen=True, slots=True)
class Ident:
    offset: int
    name: str


@dataclass(frozen=True, slots=True)
class Select:
    offset: int
    operand: Node
    field: str
    optional: bool = False


@dataclass(frozen=True, slots=True)
class Index:
    offset: int
    operand: Node
    index: Node
    optional: bool = False


@dataclass(frozen=True, slots=True)
class Call:
    """``function(args)``, or ``target.function(args)`` when ``target`` is set."""

    offset: int
    function: str
    args: tuple[Node, ...]
    target: Node | None = None


@dataclass(frozen=True, slots=True)
class Operator:
    """A unary or binary operator, or the conditional (``?`` with three operands)."""

    offset: int
    op: str
    operands: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class ListLiteral:
    offset: int
    elements: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class MapLiteral:
    offset: int
    entries: tuple[tuple[Node, Node], ...]


@dataclass(frozen=True, slots=True)
class Construction:
    """``Type.name{field: value}``: an object of a declared type."""

    offset: int
    type_name: str
    fields: tuple[tuple[str, Node], ...]


Node = Union[  # noqa: UP007 - a runtime alias, referenced by the dataclasses above
    Literal, Ident, Select, Index, Call, Operator, ListLiteral, MapLiteral, Construction
]


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # int, uint, double, string, bytes, ident, quoted (`field`), op, eof
    text: str
    offset: int


_TOKEN = re.compile(
    r"""
    (?P<space>\s+|//[^\n]*)
  | (?P<string>(?:[rR][bB]?|[bB][rR]?)?(?:'''(?:\\.|[^\\])*?'''|\"\"\"(?:\\.|[^\\])*?\"\"\"
        |'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"))
  | (?P<double>(?:\d+\.\d+|\.\d+)(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)
  | (?P<uint>(?:0[xX][0-9a-fA-F]+|\d+)[uU])
  | (?P<int>0[xX][0-9a-fA-F]+|\d+)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<quoted>`[^`\n]+`)
  | (?P<op>==|!=|<=|>=|&&|\|\||[<>!+\-*/%?:.,\[\](){}])
    """,
    re.VERBOSE | re.DOTALL,
)


def tokenize(source: str) -> list[Token]:
    out: list[Token] = []
    pos = 0
    while pos < len(source):
        m = _TOKEN.match(source, pos)
        if m is None:
            raise CelParseError(f"unexpected character {source[pos]!r}", pos)
        kind = m.lastgroup or "op"
        if kind != "space":
            text = m.group(0)
            if kind == "string" and text[:2].lower() in ("b'", 'b"', "br", "rb"):
                kind = "bytes"
            out.append(Token(kind, text, pos))
        pos = m.end()
    out.append(Token("eof", "", len(source)))
    return out


_LITERAL_TYPES = {"int": INT, "uint": UINT, "double": DOUBLE, "string": STRING, "bytes": BYTES}
_KEYWORDS = {"true": BOOL, "false": BOOL, "null": NULL}
_RELATIONS = ("<", "<=", ">=", ">", "==", "!=", "in")


class _Parser:
    def __init__(self, source: str) -> None:
        self.toks = tokenize(source)
        self.i = 0

    # -- token helpers
    @property
    def tok(self) -> Token:
        return self.toks[self.i]

    def at(self, *texts: str) -> bool:
        return self.tok.kind in ("op", "ident") and self.tok.text in texts

    def take(self) -> Token:
        tok = self.tok
        self.i += 1
        return tok

    def expect(self, text: str) -> Token:
        if not self.at(text):
            found = self.tok.text or "end of expression"
            raise CelParseError(f"expected {text!r}, found {found!r}", self.tok.offset)
        return self.take()

    # -- grammar, lowest precedence first
    def expr(self) -> Node:
        cond = self.binary(0)
        if self.at("?"):
            start = self.take().offset
            then = self.binary(0)
            self.expect(":")
            other = self.expr()
            return Operator(start, "?:", (cond, then, other))
        return cond

    _LEVELS = (("||",), ("&&",), _RELATIONS, ("+", "-"), ("*", "/", "%"))

    def binary(self, level: int) -> Node:
        if level == len(self._LEVELS):
            return self.unary()
        left = self.binary(level + 1)
        while self.at(*self._LEVELS[level]):
            op = self.take()
            right = self.binary(level + 1)
            left = Operator(op.offset, op.text, (left, right))
        return left

    def unary(self) -> Node:
        if self.at("!", "-"):
            op = self.take()
            operand = self.unary()
            if op.text == "-" and isinstance(operand, Literal) and operand.type in (INT, DOUBLE):
                return Literal(op.offset, operand.type)
            return Operator(op.offset, op.text, (operand,))
        return self.member()

    def member(self) -> Node:
        node = self.primary()
        while True:
            if self.at("."):
                dot = self.take()
                optional = self.at("?")
                if optional:
                    self.take()
                name_offset = self.tok.offset
                name = self.field_name()
                if self.at("(") and not optional:
                    args = self.call_args()
                    node = Call(name_offset, name, args, node)
                elif self.at("{") and not optional and _qualified(node):
                    node = self.construction(f"{_qualified(node)}.{name}", _start(node))
                else:
                    node = Select(dot.offset, node, name, optional)
            elif self.at("["):
                bracket = self.take()
                optional = self.at("?")
                if optional:
                    self.take()
                index = self.expr()
                self.expect("]")
                node = Index(bracket.offset, node, index, optional)
            else:
                return node

    def field_name(self) -> str:
        tok = self.take()
        if tok.kind == "ident":
            return tok.text
        if tok.kind == "quoted":
            return tok.text[1:-1]
        raise CelParseError(f"expected a field name, found {tok.text!r}", tok.offset)

    def call_args(self) -> tuple[Node, ...]:
        self.expect("(")
        args: list[Node] = []
        while not self.at(")"):
            args.append(self.expr())
            if not self.at(")"):
                self.expect(",")
        self.take()
        return tuple(args)

    def primary(self) -> Node:
        tok = self.tok
        if tok.kind in _LITERAL_TYPES:
            self.take()
            return Literal(tok.offset, _LITERAL_TYPES[tok.kind], tok.text)
        if tok.kind == "ident" and tok.text in _KEYWORDS:
            self.take()
            return Literal(tok.offset, _KEYWORDS[tok.text], tok.text)
        if tok.kind == "ident" or self.at("."):
            if self.at("."):  # a leading dot: the name from the root scope
                self.take()
            name = self.take()
            if name.kind != "ident":
                raise CelParseError(f"expected a name, found {name.text!r}", name.offset)
            if self.at("("):
                return Call(name.offset, name.text, self.call_args())
            if self.at("{"):
                return self.construction(name.text, name.offset)
            return Ident(name.offset, name.text)
        if self.at("("):
            self.take()
            inner = self.expr()
            self.expect(")")
            return inner
        if self.at("["):
            start = self.take().offset
            elements: list[Node] = []
            while not self.at("]"):
                if self.at("?"):
                    self.take()
                elements.append(self.expr())
                if not self.at("]"):
                    self.expect(",")
            self.take()
            return ListLiteral(start, tuple(elements))
        if self.at("{"):
            start = self.take().offset
            entries: list[tuple[Node, Node]] = []
            while not self.at("}"):
                if self.at("?"):
                    self.take()
                key = self.expr()
                self.expect(":")
                entries.append((key, self.expr()))
                if not self.at("}"):
                    self.expect(",")
            self.take()
            return MapLiteral(start, tuple(entries))
        found = tok.text or "end of expression"
        raise CelParseError(f"unexpected {found!r}", tok.offset)

    def construction(self, type_name: str, offset: int) -> Node:
        self.expect("{")
        fields: list[tuple[str, Node]] = []
        while not self.at("}"):
            if self.at("?"):
                self.take()
            name = self.field_name()
            self.expect(":")
            fields.append((name, self.expr()))
            if not self.at("}"):
                self.expect(",")
        self.take()
        return Construction(offset, type_name, tuple(fields))


def _qualified(node: Node) -> str | None:
    """``a.b.c`` for a chain of plain selections on a name (a type name's prefix), else None."""
    if isinstance(node, Ident):
        return node.name
    if isinstance(node, Select) and not node.optional:
        prefix = _qualified(node.operand)
        return f"{prefix}.{node.field}" if prefix else None
    return None


def _start(node: Node) -> int:
    while isinstance(node, Select):
        node = node.operand
    return node.offset


def parse(source: str) -> Node:
    """The tree of ``source``; CelParseError at the offending offset."""
    parser = _Parser(source)
    node = parser.expr()
    if parser.tok.kind != "eof":
        raise CelParseError(f"unexpected {parser.tok.text!r}", parser.tok.offset)
    return node
