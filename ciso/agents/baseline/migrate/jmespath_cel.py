"""The JMESPath that Kyverno rules write in ``{{ }}`` (foreach lists, deny conditions), translated
to CEL over the same object.

Only a subset is read, the one policies use to walk a pod spec: field paths from
``request.object`` or the foreach ``element``, ``||`` defaults, flattening ``[]``, filters
``[?...]``, multi-select lists ``.[a, b]``, comparisons, ``&&``/``||``/``!``, JSON and raw string
literals, and the functions ``length``, ``to_upper``, ``to_lower``, ``contains``, ``starts_with``,
``ends_with``. Anything else raises :class:`NotTranslatable` naming what it met: the migration
fails closed rather than guess.

A JMESPath path to a missing field is ``null``; its CEL form is an optional (``x.?a.?b``), so
``a || `[]``` becomes ``x.?a.orValue([])``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ciso.agents.baseline.migrate import cel_text
from ciso.agents.baseline.migrate.cel_text import NotTranslatable

#: what a translated expression is: an optional (a path that may be missing), a list, a boolean
#: or some other value
Shape = Literal["optional", "list", "bool", "value"]


@dataclass(frozen=True)
class Cel:
    text: str
    shape: Shape

    def value(self) -> str:
        """The expression as a plain value (a missing path reads as ``null``)."""
        return f"{self.text}.orValue(null)" if self.shape == "optional" else self.text

    def as_list(self) -> str:
        return f"{self.text}.orValue([])" if self.shape == "optional" else self.text


_TOKEN = re.compile(
    r"\s*(?:(?P<literal>`(?:\\`|[^`])*`)|(?P<raw>'(?:\\'|[^'])*')|(?P<number>-?\d+)"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<op>\|\||&&|==|!=|<=|>=|\[\?|\[\]|[.\[\](),@!<>|]))"
)

_FUNCTIONS = {"to_upper": "upperAscii", "to_lower": "lowerAscii"}
_STRING_METHODS = {"starts_with": "startsWith", "ends_with": "endsWith"}


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    position = 0
    text = text.strip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            raise NotTranslatable(f"JMESPath {text!r}: cannot read {text[position:]!r}")
        kind = match.lastgroup or ""
        out.append((kind, match.group(kind)))
        position = match.end()
    return out


class _Parser:
    """Recursive descent over the subset; ``roots`` maps JMESPath roots to CEL variables."""

    def __init__(self, text: str, roots: dict[str, str], current: str | None) -> None:
        self.text = text
        self.tokens = _tokens(text)
        self.at = 0
        self.roots = roots
        self.current = current
        self.depth = 0

    # -- tokens
    def peek(self, offset: int = 0) -> tuple[str, str]:
        index = self.at + offset
        return self.tokens[index] if index < len(self.tokens) else ("end", "")

    def take(self, value: str | None = None) -> tuple[str, str]:
        token = self.peek()
        if value is not None and token[1] != value:
            raise NotTranslatable(f"JMESPath {self.text!r}: expected {value!r}, got {token[1]!r}")
        self.at += 1
        return token

    def fail(self, what: str) -> NotTranslatable:
        return NotTranslatable(f"JMESPath {self.text!r}: {what} is not translated")

    # -- grammar
    def parse(self) -> Cel:
        result = self.disjunction()
        if self.peek()[0] != "end":
            raise self.fail(f"{self.peek()[1]!r}")
        return result

    def disjunction(self) -> Cel:
        left = self.conjunction()
        while self.peek()[1] == "||":
            self.take()
            right = self.conjunction()
            if left.shape == "bool" and right.shape == "bool":
                left = Cel(f"({left.text} || {right.text})", "bool")
            elif left.shape == "optional":
                # a path or its default: JMESPath's `a || b` for a missing a
                shape: Shape = "list" if right.shape == "list" or right.text == "[]" else "value"
                left = Cel(f"{left.text}.orValue({right.value()})", shape)
            else:
                raise self.fail("`||` between values that are not a path and its default")
        return left

    def conjunction(self) -> Cel:
        left = self.negation()
        while self.peek()[1] == "&&":
            self.take()
            right = self.negation()
            left = Cel(f"({self.truth(left)} && {self.truth(right)})", "bool")
        return left

    def truth(self, cel: Cel) -> str:
        if cel.shape == "bool":
            return cel.text
        raise self.fail("a non-boolean operand of `&&` or `!`")

    def negation(self) -> Cel:
        if self.peek()[1] == "!":
            self.take()
            return Cel(f"!{self.truth(self.negation())}", "bool")
        return self.comparison()

    def comparison(self) -> Cel:
        left = self.postfix()
        if self.peek()[1] in ("==", "!=", "<", ">", "<=", ">="):
            op = self.take()[1]
            right = self.postfix()
            return Cel(f"{left.value()} {op} {right.value()}", "bool")
        return left

    def postfix(self) -> Cel:
        base = self.primary()
        projected = False  # after [] or [?...], the rest applies to each element
        while True:
            kind, value = self.peek()
            if value == ".":
                self.take()
                if self.peek()[1] == "[":
                    base = self.multiselect(base)
                    continue
                if projected:
                    base = self.project(base)
                    continue
                name = self.take()[1]
                if self.peek()[1] == "(":
                    base = self.call(name, base)
                elif base.text == "object" and name in ("spec", "metadata"):
                    # always present, and written plainly: autogen rewrites `object.spec` to
                    # the pod template's by its text
                    base = Cel(f"object.{name}", "value")
                else:
                    base = Cel(cel_text.optional_field(base.text, name), "optional")
            elif value == "[]":
                self.take()
                base = Cel(base.as_list(), "list")
                projected = True
            elif value == "[?":
                self.take()
                var = self.variable()
                condition = self.nested(var, self.disjunction)
                self.take("]")
                base = Cel(f"{base.as_list()}.filter({var}, {self.truth(condition)})", "list")
                projected = True
            elif value == "[" and self.peek(1)[0] == "number":
                self.take()
                index = int(self.take()[1])
                self.take("]")
                base = Cel(f"{base.as_list()}[?{index}]", "optional")
                projected = False
            else:
                return base

    def multiselect(self, base: Cel) -> Cel:
        """``x.[a, b][]``: the lists a and b of x one after the other (missing ones empty)."""
        self.take("[")
        parts = []
        while True:
            name = self.take()[1]
            if not re.fullmatch(r"[A-Za-z_]\w*", name):
                raise self.fail("a multi-select of anything but field names")
            parts.append(f"{cel_text.optional_field(base.text, name)}.orValue([])")
            if self.take()[1] == "]":
                break
        if self.peek()[1] != "[]":
            raise self.fail("a multi-select list that is not flattened")
        self.take()
        return Cel("(" + " + ".join(parts) + ")", "list")

    def project(self, base: Cel) -> Cel:
        """``list[].f`` or ``list[].fn(@)``: f (or fn) of each element, missing ones dropped."""
        var = self.variable()
        name = self.take()[1]
        if self.peek()[1] == "(":
            inner = self.nested(var, lambda: self.call(name, None))
            return Cel(f"{base.text}.map({var}, {inner.value()})", "list")
        present, value = cel_text.has(var, name), cel_text.field(var, name)
        return Cel(f"{base.text}.filter({var}, {present}).map({var}, {value})", "list")

    def nested(self, var: str, parse: Callable[[], Cel]) -> Cel:
        """``parse`` with ``@`` bound to ``var`` (inside a filter or projection)."""
        saved = self.current
        self.current = var
        try:
            return parse()
        finally:
            self.current = saved

    def variable(self) -> str:
        self.depth += 1
        return f"x{self.depth}"

    def call(self, name: str, receiver: Cel | None) -> Cel:
        self.take("(")
        args: list[Cel] = []
        while self.peek()[1] != ")":
            args.append(self.disjunction())
            if self.peek()[1] == ",":
                self.take()
        self.take(")")
        if receiver is not None:
            raise self.fail(f"the method-style call {name}()")
        if name == "length" and len(args) == 1:
            return Cel(f"size({args[0].value()})", "value")
        if name in _FUNCTIONS and len(args) == 1:
            return Cel(f"string({args[0].value()}).{_FUNCTIONS[name]}()", "value")
        if name in _STRING_METHODS and len(args) == 2:
            return Cel(
                f"string({args[0].value()}).{_STRING_METHODS[name]}({args[1].value()})", "bool"
            )
        if name == "contains" and len(args) == 2:
            subject = args[0]
            if subject.shape == "list":
                return Cel(f"({args[1].value()} in {subject.text})", "bool")
            if subject.shape == "optional" or subject.shape == "value":
                # JMESPath's contains() takes a list or a string; which one is known when run
                value = subject.value()
                return Cel(
                    f"(type({value}) == string ? {value}.contains({args[1].value()}) : "
                    f"{args[1].value()} in {value})",
                    "bool",
                )
            return Cel(f"string({subject.value()}).contains({args[1].value()})", "bool")
        raise self.fail(f"the function {name}()")

    def primary(self) -> Cel:
        kind, value = self.take()
        if kind == "literal":
            return Cel(cel_literal(json.loads(value[1:-1].replace("\\`", "`"))), "value")
        if kind == "raw":
            return Cel(cel_literal(value[1:-1].replace("\\'", "'")), "value")
        if value == "@":
            if self.current is None:
                raise self.fail("`@` outside a filter or projection")
            return Cel(self.current, "value")
        if value == "(":
            inner = self.disjunction()
            self.take(")")
            return inner
        if kind == "name":
            if self.peek()[1] == "(":
                return self.call(value, None)
            for root, variable in self.roots.items():
                head, *rest = root.split(".")
                ahead = [self.peek(i)[1] for i in range(2 * len(rest))]
                if value == head and ahead == [t for part in rest for t in (".", part)]:
                    self.at += len(ahead)  # request.object: the whole root read
                    return Cel(variable, "value")
            if self.current is not None:
                return Cel(cel_text.optional_field(self.current, value), "optional")
            raise self.fail(f"the variable {value!r}")
        raise self.fail(f"{value!r}")


def cel_literal(value: object) -> str:
    """A YAML/JSON value as a CEL literal."""
    return cel_text.literal(value)


def translate(text: str, element: str | None = None) -> Cel:
    """One JMESPath expression (the inside of ``{{ }}``) as CEL: ``request.object`` is the CEL
    ``object``, ``element`` the foreach variable (when inside a foreach)."""
    roots = {"request.object": "object", "request.namespace": "request.namespace"}
    if element is not None:
        roots["element"] = element
    return _Parser(text, roots, None).parse()
