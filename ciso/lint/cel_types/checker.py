"""The checker: walks a parsed expression, infers each node's type over ``types`` and reports
what CEL's type checker would refuse — unknown names, functions and fields, wrong argument
counts, operators applied to types they have no overload for. Whatever is ``dyn`` passes: a
finding is only ever raised on types the expression itself or a declaration makes known."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass

from ciso.lint.cel_types import functions
from ciso.lint.cel_types.declarations import Declarations
from ciso.lint.cel_types.parser import (
    Call,
    Construction,
    Ident,
    Index,
    ListLiteral,
    Literal,
    MapLiteral,
    Node,
    Operator,
    Select,
)
from ciso.lint.cel_types.types import (
    BOOL,
    DURATION,
    DYN,
    INT,
    NUMBERS,
    ORDERED,
    SCALARS,
    STRING,
    TIMESTAMP,
    TYPE,
    CelType,
    compatible,
    element,
    join,
    list_of,
    map_of,
    optional_of,
)

#: type names usable as values (``type(x) == string``)
TYPE_NAMES = frozenset(
    ("int", "uint", "double", "string", "bool", "bytes", "list", "map", "null_type", "type")
)
#: namespaces of functions (``optional.of``): a call on one is a qualified function name
FUNCTION_NAMESPACES = frozenset(("optional", "math", "strings", "base64", "lists", "sets", "cel"))


@dataclass(frozen=True, slots=True)
class Problem:
    offset: int
    message: str


@dataclass(frozen=True, slots=True)
class Checked:
    type: CelType
    problems: tuple[Problem, ...]


def _suggest(name: str, candidates: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.7)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _plural(n: float | str, word: str) -> str:
    return f"{n} {word}" if n in (1, "1") else f"{n} {word}s"


class _Checker:
    def __init__(self, declarations: Declarations) -> None:
        self.declarations = declarations
        self.scopes: list[dict[str, CelType]] = []
        self.problems: list[Problem] = []

    def report(self, node: Node | int, message: str) -> CelType:
        offset = node if isinstance(node, int) else node.offset
        self.problems.append(Problem(offset, message))
        return DYN

    def local(self, name: str) -> CelType | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def is_declared(self, name: str) -> bool:
        return (
            self.local(name) is not None
            or name in self.declarations.identifiers
            or name == "variables"
        )

    # -- nodes
    def visit(self, node: Node) -> CelType:
        method = getattr(self, f"visit_{type(node).__name__}")
        return method(node)

    def visit_Literal(self, node: Literal) -> CelType:  # noqa: N802 - dispatched by node type
        return node.type

    def visit_Ident(self, node: Ident) -> CelType:
        found = self.local(node.name)
        if found is not None:
            return found
        if node.name in self.declarations.identifiers:
            return self.declarations.identifiers[node.name]
        if node.name == "variables":
            return DYN
        if node.name in TYPE_NAMES:
            return TYPE
        names = [*self.declarations.identifiers, "variables"]
        names += [n for scope in self.scopes for n in scope]
        return self.report(
            node, f"undeclared reference to '{node.name}'{_suggest(node.name, names)}"
        )

    def visit_Select(self, node: Select) -> CelType:
        operand = node.operand
        if isinstance(operand, Ident) and operand.name == "variables" and not self._shadowed():
            declared = self.declarations.variables
            if node.field in declared:
                found = declared[node.field]
            else:
                suggestion = _suggest(node.field, declared)
                where = "" if declared else " (the policy declares no variables)"
                found = self.report(
                    node, f"unknown variable 'variables.{node.field}'{suggestion}{where}"
                )
            return optional_of(found) if node.optional else found
        target = self.visit(operand)
        found = self.field_of(node, target)
        return optional_of(found) if node.optional else found

    def _shadowed(self) -> bool:
        return self.local("variables") is not None or "variables" in self.declarations.identifiers

    def field_of(self, node: Select, target: CelType) -> CelType:
        if target.kind == "optional":
            return DYN
        if target.kind == "map":
            return target.params[1]
        if target.kind == "object":
            found = target.field(node.field)
            if found is None:
                names = [name for name, _ in target.fields]
                return self.report(
                    node,
                    f"{target} has no field '{node.field}'{_suggest(node.field, names)}",
                )
            return found
        if target.kind in SCALARS or target.kind in ("list", "timestamp", "duration"):
            return self.report(node, f"cannot select field '{node.field}' of a {target}")
        return DYN

    def visit_Index(self, node: Index) -> CelType:
        target = self.visit(node.operand)
        index = self.visit(node.index)
        found = DYN
        if target.kind == "list":
            if not (index.is_dyn or index.kind in ("int", "uint")):
                self.report(node.index, f"a list index must be an int, not {index}")
            found = target.params[0]
        elif target.kind == "map":
            if not compatible(index, target.params[0]):
                self.report(
                    node.index, f"a key of {target} must be {target.params[0]}, not {index}"
                )
            found = target.params[1]
        elif target.kind == "object":
            found = target.field(index_value(node.index)) or DYN
        elif not target.is_dyn and target.kind != "optional":
            self.report(node, f"cannot index a {target}")
        return optional_of(found) if node.optional else found

    def visit_ListLiteral(self, node: ListLiteral) -> CelType:
        types = [self.visit(e) for e in node.elements]
        return list_of(_join_all(types))

    def visit_MapLiteral(self, node: MapLiteral) -> CelType:
        keys = [self.visit(k) for k, _ in node.entries]
        values = [self.visit(v) for _, v in node.entries]
        return map_of(_join_all(keys), _join_all(values))

    def visit_Construction(self, node: Construction) -> CelType:
        for _, value in node.fields:
            self.visit(value)
        return DYN

    # -- operators
    def visit_Operator(self, node: Operator) -> CelType:
        types = [self.visit(o) for o in node.operands]
        op = node.op
        if op == "?:":
            cond, then, other = types
            self.need_bool(node.operands[0], cond, "the condition of '? :'")
            if _distinct(then, other):
                self.report(node, f"the branches of '? :' have different types: {then} and {other}")
                return DYN
            return join(then, other)
        if op == "!":
            self.need_bool(node.operands[0], types[0], "'!'")
            return BOOL
        if len(types) == 1:  # unary minus
            (operand,) = types
            if operand.is_dyn or operand.kind in ("int", "double", "duration"):
                return operand
            return self.report(node, f"no '-' for a {operand}")
        left, right = types
        if op in ("&&", "||"):
            self.need_bool(node.operands[0], left, f"'{op}'")
            self.need_bool(node.operands[1], right, f"'{op}'")
            return BOOL
        if op in ("==", "!="):
            if _distinct(left, right) and not {left.kind, right.kind} <= NUMBERS:
                self.report(node, f"'{op}' compares values of one type, not {left} and {right}")
            return BOOL
        if op in ("<", "<=", ">", ">="):
            if not (left.is_dyn or right.is_dyn) and not (
                {left.kind, right.kind} <= NUMBERS
                or (left.kind == right.kind and left.kind in ORDERED)
            ):
                self.report(node, f"no '{op}' between {left} and {right}")
            return BOOL
        if op == "in":
            return self.membership(node, left, right)
        return self.arithmetic(node, op, left, right)

    def need_bool(self, node: Node, found: CelType, what: str) -> None:
        if not (found.is_dyn or found.kind == "bool"):
            self.report(node, f"{what} needs a bool, not {found}")

    def membership(self, node: Operator, left: CelType, right: CelType) -> CelType:
        if right.kind in ("list", "map"):
            if not compatible(left, right.params[0]) and left.kind != "null":
                noun = "elements" if right.kind == "list" else "keys"
                self.report(node, f"'in' a {right}: its {noun} are {right.params[0]}, not {left}")
        elif not right.is_dyn:
            self.report(node, f"'in' needs a list or map on its right, not {right}")
        return BOOL

    def arithmetic(self, node: Operator, op: str, left: CelType, right: CelType) -> CelType:
        if left.is_dyn or right.is_dyn:
            return DYN
        pair = (left.kind, right.kind)
        same = left.kind == right.kind
        if op == "+":
            if same and left.kind in (*NUMBERS, "string", "bytes", "list", "duration"):
                return join(left, right) if left.kind == "list" else left
            if pair in (("timestamp", "duration"), ("duration", "timestamp")):
                return TIMESTAMP
        elif op == "-":
            if same and left.kind in (*NUMBERS, "duration"):
                return left
            if pair == ("timestamp", "timestamp"):
                return DURATION
            if pair == ("timestamp", "duration"):
                return TIMESTAMP
        elif op in ("*", "/"):
            if same and left.kind in NUMBERS:
                return left
        elif op == "%" and same and left.kind in ("int", "uint"):
            return left
        return self.report(node, f"no '{op}' between {left} and {right}")

    # -- calls
    def visit_Call(self, node: Call) -> CelType:
        if node.target is None and node.function == "has":
            return self.has(node)
        if (
            node.target is not None
            and node.function in functions.MACROS
            and len(node.args) >= 2
            and all(isinstance(a, Ident) for a in node.args[: _variable_count(node)])
        ):
            return self.comprehension(node)
        target = node.target
        if isinstance(target, Ident) and self.local(target.name) is None:
            qualified = f"{target.name}.{node.function}"
            if qualified == "cel.bind":
                return self.bind(node)
            if qualified in functions.library():
                return self.call(node, qualified, list(node.args), method=False)
            if target.name in FUNCTION_NAMESPACES or any(
                name.startswith(f"{target.name}.") for name in functions.library()
            ):
                for arg in node.args:
                    self.visit(arg)
                known = [n for n in functions.library() if n.startswith(f"{target.name}.")]
                return self.report(
                    node, f"unknown function '{qualified}'{_suggest(qualified, known)}"
                )
        args = list(node.args)
        if target is not None:
            args.insert(0, target)
        return self.call(node, node.function, args, method=target is not None)

    def call(self, node: Call, name: str, args: list[Node], *, method: bool) -> CelType:
        types = [self.visit(a) for a in args]
        fn = functions.library().get(name)
        if fn is None:
            known = [*functions.library(), *functions.MACROS, "has"]
            return self.report(node, f"unknown function '{name}'{_suggest(name, known)}")
        if method and not fn.method_style:
            return self.report(node, f"'{name}' is a function, not a method: call {name}(x)")
        if not method and not fn.global_style:
            return self.report(node, f"'{name}' is a method: call x.{name}(...)")
        given = len(types)
        if not fn.least <= given <= fn.most:
            shift = 1 if method else 0
            expected = functions.Function(name, fn.least - shift, fn.most - shift).arity_text()
            return self.report(
                node,
                f"{name}() takes {_plural(expected, 'argument')}"
                f"{' besides its receiver' if method else ''}, not {given - shift}",
            )
        if name in ("optional.of", "optional.ofNonZeroValue"):
            return optional_of(types[0])
        if name in ("value", "orValue") and types and types[0].kind == "optional":
            inner = types[0].params[0]
            if name == "value" or compatible(inner, types[-1]):
                return inner if name == "value" else join(inner, types[-1])
            return DYN
        if not fn.overloads:
            return DYN
        matching = [
            o
            for o in fn.overloads
            if len(o.params) == given
            and all(compatible(t, p) for t, p in zip(types, o.params, strict=True))
        ]
        if not matching:
            shown = ", ".join(str(t) for t in types)
            return self.report(node, f"no overload of {name}() takes ({shown})")
        results = {o.result for o in matching}
        return results.pop() if len(results) == 1 else DYN

    def has(self, node: Call) -> CelType:
        if len(node.args) != 1 or not isinstance(node.args[0], Select):
            return self.report(node, "has() takes one field selection, e.g. has(object.spec)")
        self.visit(node.args[0])
        return BOOL

    def bind(self, node: Call) -> CelType:
        if len(node.args) != 3 or not isinstance(node.args[0], Ident):
            return self.report(node, "cel.bind() takes a name, a value and an expression")
        value = self.visit(node.args[1])
        self.scopes.append({node.args[0].name: value})
        try:
            return self.visit(node.args[2])
        finally:
            self.scopes.pop()

    def comprehension(self, node: Call) -> CelType:
        name, args = node.function, node.args
        assert node.target is not None
        container = self.visit(node.target)
        if len(args) not in functions.MACROS[name]:
            counts = " or ".join(str(n) for n in sorted(functions.MACROS[name]))
            return self.report(node, f"{name}() takes {counts} arguments, not {len(args)}")
        if not (container.is_dyn or container.kind in ("list", "map")):
            self.report(node, f"{name}() ranges over a list or map, not {container}")
        two_variables = _variable_count(node) == 2
        names = [a.name for a in args[: _variable_count(node)] if isinstance(a, Ident)]
        if two_variables:
            first = INT if container.kind == "list" else element(container)
            second = container.params[-1] if container.kind in ("list", "map") else DYN
            bound = dict(zip(names, (first, second), strict=True))
        else:
            bound = {names[0]: element(container)}
        self.scopes.append(bound)
        try:
            body = [self.visit(a) for a in args[len(names) :]]
        finally:
            self.scopes.pop()
        if name in ("all", "exists", "exists_one", "filter") or (name == "map" and len(body) == 2):
            self.need_bool(args[len(names)], body[0], f"the predicate of {name}()")
        if name == "map":
            return list_of(body[-1])
        if name in ("filter", "sortBy"):  # sortBy: cel-go's lists macro, the same elements
            return list_of(element(container))
        return BOOL


def _variable_count(node: Call) -> int:
    """How many iteration variables a macro call binds: two in ``all(i, v, p)`` and
    ``exists(i, v, p)``, else one (``map(x, p, t)`` binds one)."""
    return 2 if node.function in ("all", "exists") and len(node.args) == 3 else 1


def index_value(node: Node) -> str:
    """The key a literal string index names (``request['kind']``); '' for anything else."""
    if isinstance(node, Literal) and node.type == STRING and isinstance(node.value, str):
        return node.value[1:-1]
    return ""


def _join_all(types: list[CelType]) -> CelType:
    if not types:
        return DYN
    result = types[0]
    for t in types[1:]:
        result = join(result, t)
    return result


def _distinct(a: CelType, b: CelType) -> bool:
    """Whether two known types can never be one type (null and dyn mix with anything)."""
    if a.is_dyn or b.is_dyn or "null" in (a.kind, b.kind):
        return False
    return not compatible(a, b)


def check(node: Node, declarations: Declarations) -> Checked:
    checker = _Checker(declarations)
    found = checker.visit(node)
    return Checked(found, tuple(checker.problems))
