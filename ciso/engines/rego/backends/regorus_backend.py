"""regorus, a Rust Rego interpreter: portable, fast, with a Rego v0 mode.

It lacks a few builtins (net.cidr_merge, crypto.sha256, io.jwt.decode, rego.parse_module,
crypto.x509.*, strings.render_template). RUST_BACKTRACE is forced off so errors stay one message.

Its ``check`` parses, then runs regorus's analysis (unsafe variables in rule bodies, a variable
assigned twice, functions of conflicting arity: found before any evaluation, for every module);
it has no type checker, so OPA's type errors, undefined functions, recursion, deprecated built-ins
and unsafe variables elsewhere (rule heads, ``else``, negations) are ``not_checked`` (measured
against the embedded OPA on the same broken policies: tests/rego/test_rego_engine_coverage.py). It stops at the first error, where OPA lists them all.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
from collections.abc import Mapping
from typing import Any

from ciso.engines.rego.backends import (
    DEPRECATED_BUILTINS,
    RECURSION,
    TERM_QUERY,
    TYPE_ERRORS,
    UNDEFINED_FUNCTIONS,
    UNSAFE_HEADS,
)
from ciso.engines.rego.model import UNDEFINED, Diagnostic, EvalResult, RegoError

MISSING_BUILTINS = (
    "net.cidr_merge",
    "crypto.sha256",
    "io.jwt.decode",
    "rego.parse_module",
    "crypto.x509.",
    "strings.render_template",
)
_WHERE = re.compile(r"-->\s*(?P<file>.+?):(?P<line>\d+):(?P<col>\d+)")
_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)", re.MULTILINE)
_DEFAULT = re.compile(r"^[ \t]*default[ \t]+([\w.]+)", re.MULTILINE)
_ERROR = re.compile(r"error:\s*(?P<msg>.+)")


def available() -> bool:
    try:
        import regorus  # noqa: F401 - imported only to learn whether the bindings are installed
    except ImportError:
        return False
    return True


#: regorus has no error codes: OPA's code for what its message says (first match wins); anything
#: else keeps the code of the phase (parse when adding a policy, eval when evaluating).
_CODES = (
    ("is unsafe", "rego_unsafe_var_error"),
    ("used before definition", "rego_compile_error"),
    ("previously defined with", "rego_type_error"),
    ("recursion detected", "rego_recursion_error"),
    ("conflicts with rule", "eval_conflict_error"),
    ("multiple outputs", "eval_conflict_error"),
    ("must be unique", "eval_conflict_error"),
    ("expects ", "eval_type_error"),
)


def _diagnostics(text: str, code: str) -> list[Diagnostic]:
    where = _WHERE.search(text)
    message = _ERROR.search(text)
    msg = (
        message.group("msg").strip()
        if message
        else (text.strip().splitlines() or ["regorus error"])[-1]
    )
    code = next((c for needle, c in _CODES if needle in msg), code)
    if where:
        return [
            Diagnostic(
                where.group("file"), int(where.group("line")), int(where.group("col")), code, msg
            )
        ]
    return [Diagnostic("", None, None, code, msg)]


def _multiple_defaults(modules: Mapping[str, str]) -> list[Diagnostic]:
    """OPA's compile check that regorus lacks: one rule may have only one ``default``, across
    every module of its package (two policy folders of the same package tested together).
    Without it regorus keeps one of them silently."""
    seen: dict[str, list[tuple[str, int]]] = {}
    for path, source in modules.items():
        package = _PACKAGE.search(source)
        if package is None:
            continue
        for match in _DEFAULT.finditer(source):
            rule = f"data.{package.group(1)}.{match.group(1)}"
            seen.setdefault(rule, []).append((path, source.count("\n", 0, match.start()) + 1))
    return [
        Diagnostic(
            where[0][0],
            where[0][1],
            1,
            "rego_type_error",
            f"multiple default rules {rule} found at "
            + ", ".join(f"{path}:{line}" for path, line in where),
        )
        for rule, where in seen.items()
        if len(where) > 1
    ]


#: A query that needs no rule: evaluating it makes regorus analyse every module it holds.
_ANALYSE = "true"


class Regorus:
    name = "regorus"
    not_checked: tuple[str, ...] = (
        UNSAFE_HEADS,
        TYPE_ERRORS,
        UNDEFINED_FUNCTIONS,
        RECURSION,
        DEPRECATED_BUILTINS,
    )

    def __init__(self, v0: bool = False) -> None:
        os.environ["RUST_BACKTRACE"] = "0"
        import regorus

        self._module = regorus
        self.v0 = v0
        self.version = importlib.metadata.version("gordon-to-regorus")

    def _load(self, modules: Mapping[str, str], data: Mapping[str, Any] | None):
        engine = self._module.Engine()
        if self.v0:
            engine.set_rego_v0(True)
        for path, source in modules.items():
            try:
                engine.add_policy(path, source)
            except RuntimeError as exc:
                raise RegoError(_diagnostics(str(exc), "rego_parse_error"), self.name) from exc
        if data:
            engine.add_data(dict(data))
        return engine

    def ast(self, modules: Mapping[str, str]) -> list[dict[str, Any]]:
        """The modules as regorus parses them (its JSON AST, one entry per module); RegoError
        with the parse diagnostics when one does not parse."""
        engine = self._load(modules, None)
        try:
            parsed: list[dict[str, Any]] = json.loads(engine.get_ast_as_json())
        except (RuntimeError, ValueError) as exc:
            raise RegoError(_diagnostics(str(exc), "rego_parse_error"), self.name) from exc
        return parsed

    def check(self, modules: Mapping[str, str]) -> list[Diagnostic]:
        try:
            engine = self._load(modules, None)
        except RegoError as exc:
            return exc.diagnostics
        try:
            # adding a policy only parses it; the analysis runs before the first evaluation
            engine.eval_query_as_json(_ANALYSE)
        except RuntimeError as exc:
            return _diagnostics(str(exc), "rego_compile_error")
        return _multiple_defaults(modules)

    def evaluate(
        self,
        modules: Mapping[str, str],
        query: str,
        input: Any = None,
        data: Mapping[str, Any] | None = None,
    ) -> EvalResult:
        engine = self._load(modules, data)
        if input is not None:
            engine.set_input(input)
        try:
            # the JSON form, as OPA prints results: a set is a sorted array (the Python form holds
            # sets, and a set of sets or a set-valued object key cannot be a Python value)
            output = json.loads(engine.eval_query_as_json(query))
        except RuntimeError as exc:
            raise RegoError(_diagnostics(str(exc), "rego_eval_error"), self.name) from exc
        results = output.get("result", [])
        if TERM_QUERY.match(query) is None:
            # OPA keeps a term's value even when false (`data.check.result`), but a comparison or
            # call that is false fails the query: `1 == 2` is undefined, where regorus says false.
            results = [
                r
                for r in results
                if not any(e.get("value") is False for e in r.get("expressions", []))
            ]
        for result in results:
            if not result.get("bindings"):
                result.pop("bindings", None)
        value = (
            results[0]["expressions"][0]["value"]
            if results and results[0].get("expressions")
            else UNDEFINED
        )
        return EvalResult(value, results, self.name + (" (v0)" if self.v0 else ""), self.version)
