"""Rego to one CEL expression: "the object violates", by evaluating the Rego symbolically.

The policy's violation rules (Gatekeeper's ``violation``, the kubectl-opa convention's
``result := false``) are evaluated over a symbolic object on the AST regorus parses
(``Engine.get_ast_as_json``). A body is a chain of steps: a condition (CEL, true when the
statement holds) or an iteration (``coll.exists(x, …)`` for ``some x in coll`` or ``coll[_]``
over a collection only known at run time). A rule with several bodies, a function with several
definitions or an ``else`` is a choice between alternatives, each with its own steps; user
functions and rules are inlined where they are used, so the CEL never needs them. Rego's
undefinedness is kept: reading a field adds the condition that it is present, so a statement over
a missing field fails as in Rego and ``not`` of it holds.

What has no faithful CEL here (``every``, index variables, arithmetic, ``with``, unknown
builtins, ``input`` fields other than the object, the request's name, namespace and kind, and
the parameters) raises NotTranslatable with the construct's name and line.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ciso.agents.baseline.migrate import cel_text
from ciso.agents.baseline.migrate.jmespath_cel import NotTranslatable

#: A step of a body: ("cond", cel) or ("iter", variable, collection cel).
Step = tuple[str, ...]
Steps = tuple[Step, ...]

_MISSING = object()
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: the longest CEL expression written before giving up (a policy is read by people too)
MAX_CEL = 60_000


@dataclass(frozen=True)
class Val:
    """A symbolic Rego value: exactly one of the fields below is set."""

    cel: str | None = None  # a CEL expression, valid when its steps hold
    const: Any = _MISSING  # a value known when translating (JSON)
    items: tuple[Val, ...] | None = None  # a literal array or set of symbolic values
    fields: tuple[tuple[str, Val], ...] | None = None  # a literal object
    #: the request fields other than these cannot be read (``input.review.operation``, …)
    closed: str = ""
    parts: tuple[Val, ...] | None = None  # array.concat of collections
    #: a collection computed by a body (a comprehension, a partial set rule): its elements
    gen: Callable[[], list[tuple[Steps, Val]]] | None = field(default=None, compare=False)
    boolean: bool = False  # the CEL is a bool (a comparison, a test)


Alt = tuple[Steps, Val]
Env = Mapping[str, Val]


class _Message:
    """The text ``sprintf`` builds. Its value is not known when translating, and the translation
    keeps it only where it cannot change a verdict: a message (a rule's value or set element,
    or a variable holding it). Any other use stops the translation (``_plain``)."""

    def __repr__(self) -> str:
        return "sprintf(...)"


_MESSAGE = _Message()


def _plain(val: Val, use: str) -> Val:
    """``val``, unless it is sprintf's text: NotTranslatable naming ``use``."""
    if val.const is _MESSAGE:
        raise NotTranslatable(
            f"the text sprintf builds, {use} (its value is not known when translating: only a "
            "message may come from sprintf)"
        )
    return val


def cel_of(val: Val) -> str:
    if val.cel is not None:
        return val.cel
    if val.const is not _MISSING:
        return cel_text.literal(_plain(val, "used as a value").const)
    if val.items is not None:
        return "[" + ", ".join(cel_of(v) for v in val.items) + "]"
    if val.fields is not None and not val.closed:
        return "{" + ", ".join(f"{cel_text.string(k)}: {cel_of(v)}" for k, v in val.fields) + "}"
    if val.parts is not None:
        return "(" + " + ".join(cel_of(p) for p in val.parts) + ")"
    raise NotTranslatable("a comprehension or the request used as a whole value")


def compile_paths(paths: Sequence[Steps]) -> str:
    """CEL true when one of the paths holds: paths sharing their first steps share their CEL
    (a prefix tree), a condition already met earlier on a path is dropped, and a path that
    requires one value to equal two different constants (or to be of two types) is dropped."""
    simplified = [p for p in (_simplify(p) for p in paths) if p is not None]
    text = _compile_tree(simplified)
    if len(text) > MAX_CEL:
        raise NotTranslatable(f"the translation grows past {MAX_CEL} characters of CEL")
    return text


_LITERAL = r'(?:"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null)'
_EQUALS = re.compile(rf"^([\w.\[\]\"]+) == ({_LITERAL})$")
_NOT_FALSE = re.compile(r"^!\(([\w.\[\]\"]+) == false\)$")
_TYPE = re.compile(r"^type\(([\w.\[\]\"]+)\) == (\w+)$")


def _simplify(steps: Steps) -> Steps | None:
    seen: set[str] = set()
    equal: dict[str, str] = {}
    types: dict[str, str] = {}
    out: list[Step] = []
    for step in steps:
        if step[0] == "cond":
            cond = step[1]
            if cond == "true" or cond in seen:
                continue
            if cond == "false":
                return None
            found = _EQUALS.match(cond)
            if found and equal.setdefault(found[1], found[2]) != found[2]:
                return None
            found = _TYPE.match(cond)
            if found and types.setdefault(found[1], found[2]) != found[2]:
                return None
            found = _NOT_FALSE.match(cond)
            if found and equal.get(found[1], "false") != "false":
                continue  # equal to a constant other than false: not false
            seen.add(cond)
        out.append(step)
    return tuple(out)


def _compile_tree(paths: Sequence[Steps]) -> str:
    if not paths:
        return "false"
    if any(not p for p in paths):
        return "true"
    groups: dict[Step, list[Steps]] = {}
    for path in paths:
        groups.setdefault(path[0], []).append(path[1:])
    parts = []
    for step, rests in groups.items():
        inner = _compile_tree(rests)
        if step[0] == "cond":
            if inner == "true":
                parts.append(step[1])
            elif inner != "false":
                parts.append(f"{_paren(step[1])} && {_paren_or(inner)}")
        elif inner != "false":
            _, var, coll = step
            parts.append(f"{_paren(coll)}.exists({var}, {inner})")
    if not parts:
        return "false"
    return parts[0] if len(parts) == 1 else " || ".join(_paren_or(p) for p in parts)


def _paren_or(text: str) -> str:
    return f"({text})" if " || " in text or "?" in text else text


def _paren(text: str) -> str:
    simple = _IDENT.match(text) or re.match(r"^[\w.]+$", text) or re.fullmatch(_LITERAL, text)
    return text if simple else f"({text})"


def _select(base: str, name: str) -> tuple[str, str]:
    """(presence test, value) of ``base.name``."""
    return cel_text.has(_paren(base), name), cel_text.field(_paren(base), name)


def _span(node: Mapping[str, Any]) -> str:
    for value in node.values():
        if isinstance(value, Mapping) and isinstance(value.get("span"), Mapping):
            return f"line {value['span'].get('line')}"
    return "?"


def _kind(node: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    ((kind, body),) = node.items()
    return kind, body


@dataclass
class Module:
    package: str
    aliases: dict[str, str]


@dataclass
class Program:
    """The modules of one policy, their rules by (package, name), and how ``input`` reads."""

    input_val: Val
    rules: dict[tuple[str, str], list[Mapping[str, Any]]] = field(default_factory=dict)
    defaults: dict[tuple[str, str], Mapping[str, Any]] = field(default_factory=dict)
    modules: dict[str, Module] = field(default_factory=dict)  # package -> its imports
    counter: itertools.count = field(default_factory=itertools.count)
    depth: int = 0

    @classmethod
    def from_ast(cls, ast: Sequence[Mapping[str, Any]], input_val: Val) -> Program:
        program = cls(input_val)
        for entry in ast:
            tree = entry["ast"]
            package_names = _ref_names(tree["package"]["refr"])
            package = ".".join(package_names[1:] if package_names[0] == "data" else package_names)
            aliases: dict[str, str] = {}
            for imp in tree.get("imports") or []:
                names = _ref_names(imp["refr"])
                if names[0] == "data":
                    alias = imp.get("as") or names[-1]
                    aliases[str(alias)] = ".".join(names[1:])
                elif names[0] == "input":
                    raise NotTranslatable("an import of input")
            module = program.modules.setdefault(package, Module(package, {}))
            module.aliases.update(aliases)
            for rule in tree.get("rules") or []:
                kind, body = _kind(rule)
                if kind == "Default":
                    program.defaults[(package, _ref_names(body["refr"])[0])] = body
                    continue
                head_kind, head = _kind(body["head"])
                name = ".".join(_ref_names(head["refr"]))
                program.rules.setdefault((package, name), []).append(body)
        return program

    def fresh(self) -> str:
        return f"x{next(self.counter)}"

    # -- rules ----------------------------------------------------------------------------------

    def rule_alts(self, package: str, name: str) -> list[Alt]:
        """The values of the rule ``name`` (no arguments), each under its steps."""
        specs = self.rules[(package, name)]
        kinds = {_kind(s["head"])[0] for s in specs}
        if kinds == {"Set"}:
            return [((), Val(gen=lambda: self._set_elements(package, specs)))]
        if kinds != {"Compr"}:
            raise NotTranslatable(f"the rule {name} ({', '.join(sorted(kinds))})")
        alts: list[Alt] = []
        for spec in specs:
            head = _kind(spec["head"])[1]
            if head.get("assign") is None:  # `p { … }`: true when a body holds
                value: Mapping[str, Any] | None = {"Bool": {"value": True}}
            else:
                value = head["assign"]["value"]
            alts += self._definition(package, spec, {}, value)
        default = self.defaults.get((package, name))
        if default is not None:
            held = compile_paths([steps for steps, _ in alts])
            for _, val in self.expr(package, default["value"], {}):
                alts.append(((("cond", f"!({held})"),), val))
        return alts

    def _set_elements(self, package: str, specs: list[Mapping[str, Any]]) -> list[Alt]:
        out: list[Alt] = []
        for spec in specs:
            key = _kind(spec["head"])[1]["key"]
            out += self._definition(package, spec, {}, key)
        return out

    def _definition(
        self,
        package: str,
        spec: Mapping[str, Any],
        env: Env,
        value: Mapping[str, Any] | None,
    ) -> list[Alt]:
        """A rule definition's values: its first body, then each ``else`` when those before it
        do not hold."""
        bodies = spec.get("bodies") or []
        if not bodies:
            return self.expr(package, value, env) if value is not None else []
        alts: list[Alt] = []
        before: list[Steps] = []
        for body in bodies:
            term = value
            if body.get("is_else"):
                assign = body.get("assign")
                term = assign["value"] if assign else {"Bool": {"value": True}}
            guard: Steps = ()
            if before:
                guard = (("cond", f"!({compile_paths(before)})"),)
            paths = self.query(package, body["query"]["stmts"], env, guard)
            for steps, final_env in paths:
                assert term is not None
                alts += [(steps + s, v) for s, v in self.expr(package, term, final_env)]
            before += [steps[len(guard) :] for steps, _ in paths]
        return alts

    def call(self, package: str, name: Sequence[str], args: list[Val], where: str) -> list[Alt]:
        target = self._resolve_rule(package, name)
        if target is None:
            raise NotTranslatable(f"the call of {'.'.join(name)} ({where})")
        rule_package, rule_name = target
        self.depth += 1
        if self.depth > 40:
            raise NotTranslatable(f"recursion through {rule_name}")
        try:
            alts: list[Alt] = []
            for spec in self.rules[(rule_package, rule_name)]:
                head_kind, head = _kind(spec["head"])
                if head_kind != "Func":
                    raise NotTranslatable(f"{rule_name} called with arguments ({where})")
                params = head.get("args") or []
                if len(params) != len(args):
                    continue
                env: dict[str, Val] = {}
                guard: list[Step] = []
                for param, arg in zip(params, args, strict=True):
                    kind, body = _kind(param)
                    if kind == "Var":
                        env[body["value"]] = arg
                    else:  # a constant argument pattern: the call's argument must equal it
                        for steps, val in self.expr(rule_package, param, {}):
                            guard += list(steps)
                            guard.append(("cond", _equal(arg, val)))
                value = head["assign"]["value"] if head.get("assign") else {"Bool": {"value": True}}
                alts += [
                    (tuple(guard) + steps, val)
                    for steps, val in self._definition(rule_package, spec, env, value)
                ]
            return alts
        finally:
            self.depth -= 1

    def _resolve_rule(self, package: str, name: Sequence[str]) -> tuple[str, str] | None:
        names = list(name)
        if names[0] == "data":
            for cut in range(len(names) - 1, 1, -1):
                pkg = ".".join(names[1:cut])
                rule = ".".join(names[cut:])
                if (pkg, rule) in self.rules:
                    return pkg, rule
            return None
        module = self.modules.get(package)
        if module and names[0] in module.aliases and len(names) > 1:
            pkg, rule = module.aliases[names[0]], ".".join(names[1:])
            return (pkg, rule) if (pkg, rule) in self.rules else None
        joined = ".".join(names)
        return (package, joined) if (package, joined) in self.rules else None

    # -- statements -----------------------------------------------------------------------------

    def query(
        self, package: str, stmts: Sequence[Mapping[str, Any]], env: Env, steps: Steps = ()
    ) -> list[tuple[Steps, Env]]:
        states: list[tuple[Steps, Env]] = [(steps, env)]
        for stmt in stmts:
            if stmt.get("with_mods"):
                raise NotTranslatable(f"`with` ({_span(stmt['literal'])})")
            states = [
                out for s, e in states for out in self.statement(package, stmt["literal"], e, s)
            ]
        return states

    def statement(
        self, package: str, literal: Mapping[str, Any], env: Env, steps: Steps
    ) -> list[tuple[Steps, Env]]:
        kind, body = _kind(literal)
        where = _span(literal)
        if kind == "SomeIn" and body.get("key") is not None:
            return self._some_key_value(package, body, env, steps, where)
        if kind == "SomeIn":
            out: list[tuple[Steps, Env]] = []
            for s, coll in self.expr(package, body["collection"], env):
                for es, element in self.elements(coll):
                    for bs, bound in _bind(body["value"], element, env, where):
                        out.append((steps + s + es + bs, bound))
            return out
        if kind == "SomeVars":
            return [(steps, env)]
        if kind == "NotExpr":
            inner = self.statement(package, {"Expr": {"expr": body["expr"]}}, env, ())
            held = compile_paths([s for s, _ in inner])
            return [(steps + (("cond", f"!({held})"),), env)]
        if kind != "Expr":
            raise NotTranslatable(f"the statement {kind} ({where})")
        expr = body["expr"]
        expr_kind, expr_body = _kind(expr)
        keyed = self._key_iteration(package, expr, env, steps)
        if keyed is not None:
            return keyed
        if expr_kind == "AssignExpr":
            lhs_kind, lhs = _kind(expr_body["lhs"])
            if lhs_kind == "Var" and (expr_body["op"] == "ColEq" or lhs["value"] not in env):
                name = lhs["value"]
                return [
                    (steps + s, env if name == "_" else {**env, name: v})
                    for s, v in self.expr(package, expr_body["rhs"], env)
                ]
            # `=` between two bound terms: unification is equality
            expr = {"BoolExpr": {"op": "Eq", "lhs": expr_body["lhs"], "rhs": expr_body["rhs"]}}
        out = []
        for s, val in self.expr(package, expr, env):
            truth = _truth(val)
            if truth != "false":
                out.append((steps + s + (("cond", truth),), env))
        return out

    def _some_key_value(
        self, package: str, body: Mapping[str, Any], env: Env, steps: Steps, where: str
    ) -> list[tuple[Steps, Env]]:
        """``some k, v in coll``: over an object's keys and values; over an array's elements
        when ``k`` is ``_`` (an array's indexes are not ranged over: that path does not hold)."""
        names = []
        for node in (body["key"], body["value"]):
            kind, var = _kind(node)
            if kind != "Var":
                raise NotTranslatable(f"`some … in` binding a pattern ({where})")
            names.append(var["value"])
        key_name, value_name = names
        out: list[tuple[Steps, Env]] = []
        for s, coll in self.expr(package, body["collection"], env):
            pairs: list[tuple[Steps, Val, Val]] = []
            if coll.const is not _MISSING and isinstance(coll.const, Mapping):
                pairs = [((), Val(const=k), Val(const=v)) for k, v in coll.const.items()]
            elif coll.const is not _MISSING and isinstance(coll.const, list):
                pairs = [((), Val(const=i), Val(const=v)) for i, v in enumerate(coll.const)]
            elif coll.fields is not None and not coll.closed:
                pairs = [((), Val(const=k), v) for k, v in coll.fields]
            elif coll.cel is not None:
                loop = self.fresh()
                base = _paren(coll.cel)
                map_steps: Steps = (("cond", f"type({base}) == map"), ("iter", loop, base))
                pairs = [(map_steps, Val(cel=loop), Val(cel=f"{base}[{loop}]"))]
                if key_name == "_":
                    list_steps: Steps = (("cond", f"type({base}) == list"), ("iter", loop, base))
                    pairs.append((list_steps, Val(cel=loop), Val(cel=loop)))
            else:
                raise NotTranslatable(f"`some k, v in` over a computed collection ({where})")
            for ps, key, value in pairs:
                bound = dict(env)
                for name, val in ((key_name, key), (value_name, value)):
                    if name != "_":
                        bound[name] = val
                out.append((steps + s + ps, bound))
        return out

    def _key_iteration(
        self, package: str, expr: Mapping[str, Any], env: Env, steps: Steps
    ) -> list[tuple[Steps, Env]] | None:
        """``obj[k]``, ``obj[k] = v`` or ``obj[k] = _`` with ``k`` unbound: ``k`` ranges over the
        keys of an object (a CEL map's ``exists`` binds its keys). None for other statements.
        The indexes of an array are not ranged over: that path does not hold on arrays."""
        kind, body = _kind(expr)
        value_node: Mapping[str, Any] | None = None
        if kind == "AssignExpr" and body["op"] == "Eq":
            ref, value_node = body["lhs"], body["rhs"]
        elif kind == "RefBrack":
            ref = expr
        else:
            return None
        ref_kind, ref_body = _kind(ref)
        if ref_kind != "RefBrack":
            return None
        index_kind, index = _kind(ref_body["index"])
        key_name = index.get("value") if index_kind == "Var" else None
        if key_name in (None, "_") or key_name in env:
            return None
        if self._resolve_rule(package, [key_name]) is not None:
            return None
        out: list[tuple[Steps, Env]] = []
        for s, coll in self.expr(package, ref_body["refr"], env):
            pairs: list[tuple[Steps, Val, Val]] = []
            if coll.const is not _MISSING and isinstance(coll.const, Mapping):
                pairs = [((), Val(const=k), Val(const=v)) for k, v in coll.const.items()]
            elif coll.fields is not None and not coll.closed:
                pairs = [((), Val(const=k), v) for k, v in coll.fields]
            elif coll.cel is not None:
                var = self.fresh()
                base = _paren(coll.cel)
                iteration = (("cond", f"type({base}) == map"), ("iter", var, base))
                pairs = [(iteration, Val(cel=var), Val(cel=f"{base}[{var}]"))]
            for ps, key, value in pairs:
                bound = {**env, key_name: key}
                here = steps + s + ps
                if value_node is None:
                    out.append((here + (("cond", _truth(value)),), bound))
                    continue
                value_kind, value_body = _kind(value_node)
                if value_kind == "Var" and value_body["value"] == "_":
                    out.append((here, bound))
                elif value_kind == "Var" and value_body["value"] not in bound:
                    out.append((here, {**bound, value_body["value"]: value}))
                else:
                    for vs, other in self.expr(package, value_node, bound):
                        out.append((here + vs + (("cond", _equal(value, other)),), bound))
        return out

    # -- expressions ----------------------------------------------------------------------------

    def elements(self, coll: Val) -> list[Alt]:
        if coll.gen is not None:
            return coll.gen()
        if coll.items is not None:
            return [((), v) for v in coll.items]
        if coll.parts is not None:
            return [alt for part in coll.parts for alt in self.elements(part)]
        if coll.const is not _MISSING:
            value = coll.const
            values = value.values() if isinstance(value, Mapping) else value
            if not isinstance(values, (list, tuple, set, frozenset, type({}.values()))):
                return []
            return [((), Val(const=v)) for v in values]
        if coll.fields is not None:
            return [((), v) for _, v in coll.fields]
        var = self.fresh()
        return [((("iter", var, cel_of(coll)),), Val(cel=var))]

    def expr(self, package: str, node: Mapping[str, Any] | None, env: Env) -> list[Alt]:
        if node is None:
            return [((), Val(const=True))]
        kind, body = _kind(node)
        where = _span(node)
        if kind in ("String", "Number", "Bool", "Null", "RawString"):
            return [((), Val(const=body.get("value")))]
        if kind == "Var":
            return self._var(package, body["value"], env, where)
        if kind in ("Array", "Set"):
            return [
                (steps, Val(items=tuple(vals)))
                for steps, vals in self._product(package, body["items"], env)
            ]
        if kind == "Object":
            keys, values = [], []
            for pair in body["fields"]:
                key_node, value_node = pair[1], pair[2]
                key_alts = self.expr(package, key_node, env)
                if len(key_alts) != 1 or key_alts[0][1].const is _MISSING:
                    raise NotTranslatable(f"an object key computed at run time ({where})")
                keys.append(str(key_alts[0][1].const))
                values.append(value_node)
            return [
                (steps, Val(fields=tuple(zip(keys, vals, strict=True))))
                for steps, vals in self._product(package, values, env)
            ]
        if kind == "RefDot":
            names = _static_ref(node)
            if (
                names is not None
                and names[0] not in env
                and (
                    names[0] in ("data",)
                    or self._resolve_rule(package, names[:2]) is not None
                    or self._resolve_rule(package, names[:1]) is not None
                )
            ):
                return self._rule_ref(package, names, where)
            return [
                (steps + s, v)
                for steps, base in self.expr(package, body["refr"], env)
                for s, v in self.field(base, str(body["field"][1]))
            ]
        if kind == "RefBrack":
            return self._index(package, body, env, where)
        if kind == "BoolExpr":
            return self._compare(package, body, env)
        if kind == "Membership":
            if body.get("key") is not None:
                raise NotTranslatable(f"`key, value in` ({where})")
            return self._member(package, body["value"], body["collection"], env)
        if kind == "Call":
            return self._call(package, body, env, where)
        if kind in ("ArrayCompr", "SetCompr"):
            term, stmts = body["term"], body["query"]["stmts"]

            def generate(env: Env = env) -> list[Alt]:
                return [
                    (steps + s, v)
                    for steps, final_env in self.query(package, stmts, env)
                    for s, v in self.expr(package, term, final_env)
                ]

            return [((), Val(gen=generate))]
        raise NotTranslatable(f"the expression {kind} ({where})")

    def _product(
        self, package: str, nodes: Sequence[Mapping[str, Any]], env: Env
    ) -> list[tuple[Steps, list[Val]]]:
        out: list[tuple[Steps, list[Val]]] = [((), [])]
        for node in nodes:
            out = [
                (s + s2, vals + [v]) for s, vals in out for s2, v in self.expr(package, node, env)
            ]
        return out

    def _var(self, package: str, name: str, env: Env, where: str) -> list[Alt]:
        if name in env:
            return [((), env[name])]
        if name == "input":
            return [((), self.input_val)]
        if name == "_":
            raise NotTranslatable(f"`_` as a value ({where})")
        if self._resolve_rule(package, [name]) is not None:
            return self.rule_alts(package, name)
        raise NotTranslatable(f"the name {name} ({where})")

    def _rule_ref(self, package: str, names: list[str], where: str) -> list[Alt]:
        for cut in range(len(names), 0, -1):
            target = self._resolve_rule(package, names[:cut])
            if target is not None:
                alts = self.rule_alts(*target)
                for name in names[cut:]:
                    alts = [(s + s2, v) for s, base in alts for s2, v in self.field(base, name)]
                return alts
        raise NotTranslatable(f"the reference {'.'.join(names)} ({where})")

    def field(self, base: Val, name: str) -> list[Alt]:
        if base.fields is not None:
            for key, value in base.fields:
                if key == name:
                    return [((), value)]
            if base.closed:
                raise NotTranslatable(f"{base.closed}.{name}")
            return []
        if base.const is not _MISSING:
            if isinstance(base.const, Mapping) and name in base.const:
                return [((), Val(const=base.const[name]))]
            return []
        if base.cel is None:
            return []  # a field of an array, a set, …: undefined
        present, selected = _select(base.cel, name)
        return [((("cond", present),), Val(cel=selected))]

    def _index(self, package: str, body: Mapping[str, Any], env: Env, where: str) -> list[Alt]:
        index = body["index"]
        index_kind, index_body = _kind(index)
        out: list[Alt] = []
        if index_kind == "Var" and index_body["value"] == "_":
            for steps, coll in self.expr(package, body["refr"], env):
                out += [(steps + s, v) for s, v in self.elements(coll)]
            return out
        if (
            index_kind == "Var"
            and index_body["value"] not in env
            and self._resolve_rule(package, [index_body["value"]]) is None
        ):
            raise NotTranslatable(f"an index variable ({where})")
        for steps, coll in self.expr(package, body["refr"], env):
            for s, key in self.expr(package, index, env):
                if (
                    coll.items is not None
                    or coll.gen is not None
                    or (
                        coll.const is not _MISSING
                        and isinstance(coll.const, (list, set, frozenset))
                        and not isinstance(key.const, int)
                    )
                ):
                    # a set indexed by a value: the value when it is a member
                    for ms, _ in self._member_alts(key, coll):
                        out.append((steps + s + ms, key))
                elif key.const is not _MISSING and isinstance(key.const, str):
                    out += [(steps + s + fs, v) for fs, v in self.field(coll, key.const)]
                elif key.const is not _MISSING and isinstance(key.const, int) and coll.cel:
                    cond = f"size({_paren(coll.cel)}) > {key.const}"
                    out.append(
                        (steps + s + (("cond", cond),), Val(cel=f"{_paren(coll.cel)}[{key.const}]"))
                    )
                else:
                    raise NotTranslatable(f"an index computed at run time ({where})")
        return out

    def _compare(self, package: str, body: Mapping[str, Any], env: Env) -> list[Alt]:
        op = {"Eq": "==", "Ne": "!=", "Lt": "<", "Le": "<=", "Gt": ">", "Ge": ">="}.get(body["op"])
        if op is None:
            raise NotTranslatable(f"the operator {body['op']}")
        out: list[Alt] = []
        for s1, left in self.expr(package, body["lhs"], env):
            _plain(left, f"compared ({op})")
            for s2, right in self.expr(package, body["rhs"], env):
                _plain(right, f"compared ({op})")
                if left.const is not _MISSING and right.const is not _MISSING:
                    value = _python_compare(op, left.const, right.const)
                    out.append((s1 + s2, Val(const=value)))
                elif op == "==":
                    out.append((s1 + s2, Val(cel=_equal(left, right), boolean=True)))
                elif op == "!=":
                    out.append((s1 + s2, Val(cel=f"!({_equal(left, right)})", boolean=True)))
                else:
                    text = f"{_paren(cel_of(left))} {op} {_paren(cel_of(right))}"
                    out.append((s1 + s2, Val(cel=text, boolean=True)))
        return out

    def _member(
        self, package: str, value: Mapping[str, Any], coll: Mapping[str, Any], env: Env
    ) -> list[Alt]:
        out: list[Alt] = []
        for s1, v in self.expr(package, value, env):
            for s2, c in self.expr(package, coll, env):
                held = compile_paths([s for s, _ in self._member_alts(v, c)])
                out.append((s1 + s2, Val(cel=held, boolean=True)))
        return out

    def _member_alts(self, value: Val, coll: Val) -> list[Alt]:
        """Paths on which ``value`` is an element of ``coll``."""
        if coll.cel is not None:
            return [((("cond", f"{_paren(cel_of(value))} in {_paren(coll.cel)}"),), value)]
        return [(s + (("cond", _equal(value, e)),), value) for s, e in self.elements(coll)]

    def _call(self, package: str, body: Mapping[str, Any], env: Env, where: str) -> list[Alt]:
        names = _static_ref(body["fcn"])
        if names is None:
            raise NotTranslatable(f"a call of a computed function ({where})")
        name = ".".join(names)
        out: list[Alt] = []
        for steps, args in self._product(package, body.get("params") or [], env):
            if name not in _BUILTINS or self._resolve_rule(package, names) is not None:
                out += [(steps + s, v) for s, v in self.call(package, names, args, where)]
            else:
                if name != "sprintf":
                    for arg in args:
                        _plain(arg, f"passed to {name}")
                out += [(steps + s, v) for s, v in _BUILTINS[name](self, args)]
        return out


def _bind(pattern: Mapping[str, Any], value: Val, env: Env, where: str) -> list[tuple[Steps, Env]]:
    """``some <pattern> in``: a variable, or an array of variables (``[_, spec]``) taken apart."""
    kind, body = _kind(pattern)
    if kind == "Var":
        return [((), env if body["value"] == "_" else {**env, body["value"]: value})]
    if kind != "Array" or not all(_kind(i)[0] == "Var" for i in body["items"]):
        raise NotTranslatable(f"`some … in` binding a pattern ({where})")
    names = [_kind(i)[1]["value"] for i in body["items"]]
    if value.items is not None:
        if len(value.items) != len(names):
            return []
        parts = list(value.items)
        steps: Steps = ()
    elif value.cel is not None:
        base = _paren(value.cel)
        parts = [Val(cel=f"{base}[{i}]") for i in range(len(names))]
        steps = (("cond", f"type({base}) == list && size({base}) == {len(names)}"),)
    else:
        return []
    bound = dict(env)
    for name, part in zip(names, parts, strict=True):
        if name != "_":
            bound[name] = part
    return [(steps, bound)]


def _truth(val: Val) -> str:
    """CEL true when a statement whose value is ``val`` holds (defined and not false)."""
    if val.const is not _MISSING:
        return "false" if val.const is False else "true"
    if val.cel is None:
        return "true"  # a collection or object literal
    if val.boolean:
        return val.cel
    return f"!({val.cel} == false)"


def _equal(left: Val, right: Val) -> str:
    _plain(left, "compared")
    _plain(right, "compared")
    if left.const is not _MISSING and right.const is not _MISSING:
        return "true" if left.const == right.const else "false"
    return f"{_paren(cel_of(left))} == {_paren(cel_of(right))}"


def _python_compare(op: str, left: Any, right: Any) -> bool:
    if op == "==":
        return bool(left == right)
    if op == "!=":
        return bool(left != right)
    try:
        return bool(
            {"<": left < right, "<=": left <= right, ">": left > right, ">=": left >= right}[op]
        )
    except TypeError:
        raise NotTranslatable(f"a comparison of {left!r} and {right!r}") from None


def _static_ref(node: Mapping[str, Any]) -> list[str] | None:
    kind, body = _kind(node)
    if kind == "Var":
        return [body["value"]]
    if kind == "RefDot":
        base = _static_ref(body["refr"])
        return None if base is None else [*base, str(body["field"][1])]
    if kind == "RefBrack":
        index_kind, index = _kind(body["index"])
        base = _static_ref(body["refr"])
        if base is None or index_kind != "String":
            return None
        return [*base, index["value"]]
    return None


def _ref_names(node: Mapping[str, Any]) -> list[str]:
    names = _static_ref(node)
    if names is None:
        raise NotTranslatable("a computed reference in a package, import or rule head")
    return names


# -- builtins -----------------------------------------------------------------------------------


def constant(val: Val) -> Any:
    """The value of ``val`` when it is known while translating, else _MISSING."""
    if val.const is not _MISSING:
        return val.const
    if val.items is not None:
        values = [constant(v) for v in val.items]
        return _MISSING if any(v is _MISSING for v in values) else values
    if val.fields is not None and not val.closed:
        pairs = {k: constant(v) for k, v in val.fields}
        return _MISSING if any(v is _MISSING for v in pairs.values()) else pairs
    return _MISSING


def _object_get(program: Program, args: list[Val]) -> list[Alt]:
    obj, key, default = args
    known = constant(key)
    path = known if isinstance(known, list) else [known]
    if known is _MISSING or any(not isinstance(p, str) for p in path):
        raise NotTranslatable("object.get with a key computed at run time")
    alts: list[Alt] = [((), obj)]
    for name in path:
        alts = [(s + s2, v) for s, base in alts for s2, v in program.field(base, name)]
    if obj.cel is None:  # a literal object: the value, or the default where it is absent
        return alts or [((), default)]
    # one CEL value: the field's when every part of the path is present, else the default
    conds = [step[1] for steps, _ in alts for step in steps]
    value = cel_of(alts[0][1])
    text = f"({' && '.join(conds)}) ? {value} : {_paren(cel_of(default))}"
    return [((), Val(cel=text))]


def _concat(program: Program, args: list[Val]) -> list[Alt]:
    return [((), Val(parts=(args[0], args[1])))]


def _string_test(method: str) -> Callable[[Program, list[Val]], list[Alt]]:
    def test(program: Program, args: list[Val]) -> list[Alt]:
        s, sub = args
        if s.const is not _MISSING and sub.const is not _MISSING:
            value = getattr(
                str(s.const),
                {"startsWith": "startswith", "endsWith": "endswith"}.get(method, "__contains__"),
            )(str(sub.const))
            return [((), Val(const=bool(value)))]
        guard = f"type({_paren(cel_of(s))}) == string"
        return [
            (
                (("cond", guard),),
                Val(cel=f"{_paren(cel_of(s))}.{method}({cel_of(sub)})", boolean=True),
            )
        ]

    return test


def _case(method: str) -> Callable[[Program, list[Val]], list[Alt]]:
    def change(program: Program, args: list[Val]) -> list[Alt]:
        (s,) = args
        if s.const is not _MISSING:
            text = str(s.const)
            return [((), Val(const=text.upper() if method == "upperAscii" else text.lower()))]
        guard = f"type({_paren(cel_of(s))}) == string"
        return [((("cond", guard),), Val(cel=f"{_paren(cel_of(s))}.{method}()"))]

    return change


def _type_test(cel_type: str) -> Callable[[Program, list[Val]], list[Alt]]:
    python: dict[str, tuple[type, ...]] = {
        "list": (list, tuple),
        "string": (str,),
        "map": (dict,),
        "bool": (bool,),
        "number": (int, float),
        "null_type": (type(None),),
    }

    def test(program: Program, args: list[Val]) -> list[Alt]:
        (v,) = args
        if v.const is not _MISSING:
            is_bool = isinstance(v.const, bool)
            held = isinstance(v.const, python[cel_type]) and (cel_type == "bool" or not is_bool)
            return [((), Val(const=held))]
        if cel_type == "number":
            text = f"type({v.cel}) == int || type({v.cel}) == uint || type({v.cel}) == double"
            return [((), Val(cel=text, boolean=True))]
        if v.items is not None or v.parts is not None or v.gen is not None:
            return [((), Val(const=cel_type == "list"))]
        if v.fields is not None:
            return [((), Val(const=cel_type == "map"))]
        return [((), Val(cel=f"type({v.cel}) == {cel_type}", boolean=True))]

    return test


def _count(program: Program, args: list[Val]) -> list[Alt]:
    (v,) = args
    if v.gen is not None:
        raise NotTranslatable("count of a comprehension")
    return [((), Val(cel=f"size({cel_of(v)})"))]


def _object_keys(program: Program, args: list[Val]) -> list[Alt]:
    """An object's keys: a CEL map stands for them (``exists`` and ``in`` read a map's keys)."""
    (obj,) = args
    if obj.const is not _MISSING:
        return [((), Val(const=list(obj.const)))] if isinstance(obj.const, Mapping) else []
    if obj.fields is not None and not obj.closed:
        return [((), Val(const=[k for k, _ in obj.fields]))]
    if obj.cel is None:
        return []
    return [((("cond", f"type({_paren(obj.cel)}) == map"),), Val(cel=obj.cel))]


def _substring(program: Program, args: list[Val]) -> list[Alt]:
    """Rego's ``substring(s, offset, length)`` (a negative length: to the end; past the end:
    clipped), with a constant offset and length."""
    text, offset, length = args
    if not isinstance(offset.const, int) or not isinstance(length.const, int) or offset.const < 0:
        raise NotTranslatable("substring with an offset or length computed at run time")
    if text.const is not _MISSING:
        value = str(text.const)[offset.const :]
        return [((), Val(const=value if length.const < 0 else value[: length.const]))]
    base = _paren(cel_of(text))
    start = offset.const
    rest = f"{base}.substring({start})"
    if length.const >= 0:
        end = start + length.const
        rest = f"(size({base}) <= {end} ? {base}.substring({start}) : {base}.substring({start}, {end}))"
    value = f'(size({base}) <= {start} ? "" : {rest})'
    return [((("cond", f"type({base}) == string"),), Val(cel=value))]


def _sprintf(program: Program, args: list[Val]) -> list[Alt]:
    return [((), Val(const=_MESSAGE))]


_BUILTINS: dict[str, Callable[[Program, list[Val]], list[Alt]]] = {
    "object.get": _object_get,
    "array.concat": _concat,
    "startswith": _string_test("startsWith"),
    "endswith": _string_test("endsWith"),
    "contains": _string_test("contains"),
    "upper": _case("upperAscii"),
    "lower": _case("lowerAscii"),
    "is_array": _type_test("list"),
    "is_string": _type_test("string"),
    "is_object": _type_test("map"),
    "is_boolean": _type_test("bool"),
    "is_number": _type_test("number"),
    "is_null": _type_test("null_type"),
    "count": _count,
    "object.keys": _object_keys,
    "substring": _substring,
    "sprintf": _sprintf,
}


def violation_cel(program: Program, package: str, rule: str, value: Any = _MISSING) -> str:
    """CEL true when the rule ``rule`` of ``package`` has a definition that holds (with the value
    ``value`` when given: ``result := false``)."""
    specs = program.rules.get((package, rule))
    if not specs:
        raise NotTranslatable(f"no rule {rule} in package {package}")
    paths: list[Steps] = []
    for spec in specs:
        head_kind, head = _kind(spec["head"])
        term = (head.get("assign") or {}).get("value") if head_kind == "Compr" else head.get("key")
        for steps, val in program._definition(package, spec, {}, term):
            if value is _MISSING:
                paths.append(steps)
            elif val.const is not _MISSING:
                if val.const == value:
                    paths.append(steps)
            else:
                paths.append(steps + (("cond", _equal(val, Val(const=value))),))
    default = program.defaults.get((package, rule))
    if default is not None and value is not _MISSING:
        # the default holds when no definition does
        for steps, val in program.expr(package, default["value"], {}):
            if val.const is _MISSING or val.const == value:
                anything = {"Bool": {"value": True}}
                others = [
                    s for spec in specs for s, _ in program._definition(package, spec, {}, anything)
                ]
                guard = ("cond", f"!({compile_paths(others)})")
                paths.append((guard, *steps, ("cond", _equal(val, Val(const=value)))))
    return compile_paths(paths)
