"""The real OPA Go library (v1.x) embedded in-process through ``opa-golib-python-bindings``.

Parse errors surface when a module is added, compile and type errors on first evaluation; both
carry file:line. It has no Rego v0 parser (v0 modules are rewritten first, see v0.py).
"""

from __future__ import annotations

import importlib.metadata
import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from ciso.engines.rego.backends import TERM_QUERY
from ciso.engines.rego.model import (
    UNDEFINED,
    Diagnostic,
    EvalResult,
    RegoError,
    in_source_order,
    parse_opa_errors,
)

_VALUE = "__itbench_value__"
_HELD = "__itbench_held__"
# OPA's text form of an error names the file and row but not the column; for a module with an
# empty name it gives "row:col" (parse and compile errors) or the failing expression's text (eval
# errors) instead. Columns are found by running the failing step once more with that module unnamed.
_ROW_COL = re.compile(r"(?:^|\s)(?P<row>\d+):(?P<col>\d+): (?P<code>(?:rego|eval)_[a-z_]+): ")
_TEXT = re.compile(r"^(?:.*?error occurred: )?(?P<text>.+?): (?P<code>eval_[a-z_]+): ")


def _columns(
    modules: Mapping[str, str],
    diagnostics: list[Diagnostic],
    rerun: Callable[[dict[str, str]], str | None],
) -> list[Diagnostic]:
    """``diagnostics`` with their columns, where the rerun with the module unnamed tells them."""
    found: dict[tuple[str, int | None, str], int] = {}
    for file in {d.file for d in diagnostics if d.column is None and d.line and d.file in modules}:
        unnamed = {("" if path == file else path): source for path, source in modules.items()}
        message = rerun(unnamed)
        if not message:
            continue
        rows = modules[file].splitlines()
        for line in message.splitlines():
            if m := _ROW_COL.search(line):
                found.setdefault((file, int(m["row"]), m["code"]), int(m["col"]))
            elif m := _TEXT.match(line.strip()):
                text = m["text"].splitlines()[0]
                for d in diagnostics:
                    if d.file == file and d.code == m["code"] and d.line and d.line <= len(rows):
                        at = rows[d.line - 1].find(text)
                        if at >= 0:
                            found.setdefault((file, d.line, d.code), at + 1)
    placed = [
        replace(d, column=found[(d.file, d.line, d.code)])
        if d.column is None and (d.file, d.line, d.code) in found
        else d
        for d in diagnostics
    ]
    return in_source_order(placed, modules)


def available() -> bool:
    """Installed? Checked without importing: importing starts the Go runtime, which reserves
    gigabytes of address space — a worker that only needs regorus should not pay for it."""
    import importlib.util

    return importlib.util.find_spec("opa_bindings") is not None


class OpaGolib:
    name = "opa-golib"
    not_checked: tuple[str, ...] = ()  # OPA's own compiler, in-process

    def __init__(self) -> None:
        from opa_bindings import OpaEngine, OpaError

        self._engine_type, self._error = OpaEngine, OpaError
        self.version = (
            f"{importlib.metadata.version('opa-golib-python-bindings')} (OPA Go library v1)"
        )

    def _parse_errors(self, modules: Mapping[str, str]) -> str | None:
        """The parse errors of ``modules``, each module parsed alone (as OPA reports them)."""
        messages = []
        for path, source in modules.items():
            engine = self._engine_type()
            try:
                engine.add_policy(path, source)
            except self._error as exc:
                messages.append(exc.message)
            finally:
                engine.close()
        return "\n".join(messages) or None

    def _load(self, modules: Mapping[str, str], data: Mapping[str, Any] | None):
        engine = self._engine_type()
        diagnostics: list[Diagnostic] = []
        for path, source in modules.items():
            try:
                engine.add_policy(path, source)
            except self._error as exc:
                diagnostics += parse_opa_errors(exc.message, "rego_parse_error")
        if diagnostics:
            engine.close()
            raise RegoError(_columns(modules, diagnostics, self._parse_errors), self.name)
        if data:
            try:
                engine.add_data(dict(data))
            except self._error as exc:
                engine.close()
                raise RegoError(
                    [Diagnostic("", None, None, "rego_data_error", exc.message)], self.name
                ) from exc
        return engine

    def _run(
        self, modules: Mapping[str, str], query: str, input: Any, data: Mapping[str, Any] | None
    ) -> str | None:
        """The error message of evaluating ``query`` (None when it succeeds)."""
        try:
            engine = self._load(modules, data)
        except RegoError:
            return None
        try:
            engine.eval_query(query, input)
        except self._error as exc:
            return exc.message
        finally:
            engine.close()
        return None

    def check(self, modules: Mapping[str, str]) -> list[Diagnostic]:
        try:
            engine = self._load(modules, None)
        except RegoError as exc:
            return exc.diagnostics
        try:
            engine.eval_query("true")  # compiling happens on first evaluation
        except self._error as exc:
            diagnostics = parse_opa_errors(exc.message, "rego_compile_error")
            return _columns(modules, diagnostics, lambda m: self._run(m, "true", None, None))
        finally:
            engine.close()
        return []

    def evaluate(
        self,
        modules: Mapping[str, str],
        query: str,
        input: Any = None,
        data: Mapping[str, Any] | None = None,
    ) -> EvalResult:
        engine = self._load(modules, data)
        term = TERM_QUERY.match(query) is not None
        # The bindings library returns one empty binding for a query that holds AND for one that
        # does not (`1 == 2` gave [{}]), so a sentinel assigned after the query tells them apart:
        # it is bound only when every expression before it succeeded. A newline, not `;`, so a
        # trailing comment in the query cannot swallow it.
        actual = f"{_VALUE} := {query.strip()}" if term else f"{query}\n{_HELD} := true"
        try:
            if term:
                bindings = engine.eval_query(actual, input)
                results = [
                    {
                        "expressions": [
                            {"value": b[_VALUE], "text": query, "location": {"row": 1, "col": 1}}
                        ]
                    }
                    for b in bindings
                ]
            else:
                bindings = [
                    {k: v for k, v in b.items() if k != _HELD}
                    for b in engine.eval_query(actual, input)
                    if b.get(_HELD) is True
                ]
                results = [
                    {
                        "expressions": [
                            {"value": True, "text": query, "location": {"row": 1, "col": 1}}
                        ],
                        "bindings": b,
                    }
                    if b
                    else {
                        "expressions": [
                            {"value": True, "text": query, "location": {"row": 1, "col": 1}}
                        ]
                    }
                    for b in bindings
                ]
        except self._error as exc:
            engine.close()
            diagnostics = _columns(
                modules,
                parse_opa_errors(exc.message, "rego_eval_error"),
                lambda m: self._run(m, actual, input, data),
            )
            raise RegoError(diagnostics, self.name) from exc
        except BaseException:
            engine.close()
            raise
        engine.close()
        value = results[0]["expressions"][0]["value"] if results else UNDEFINED
        return EvalResult(value, results, self.name, self.version)


def _rows(ranges: list[dict]) -> set[int]:
    return {row for r in ranges for row in range(r["start"]["row"], r["end"]["row"] + 1)}


def coverage(
    modules: Mapping[str, str], queries: list[str], data: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Line coverage of ``modules`` over the evaluation of ``queries`` (e.g. every test rule), as
    `opa test --coverage` reports it: covered and not covered rows per file, and the percentage."""
    from opa_bindings import OpaEngine, OpaError

    engine = OpaEngine()
    covered: dict[str, set[int]] = {}
    not_covered: dict[str, set[int]] = {}
    try:
        for path, source in modules.items():
            engine.add_policy(path, source)
        if data:
            engine.add_data(dict(data))
        for query in queries:
            try:
                engine.eval_query(query, None, coverage=True)
            except OpaError:
                continue
            for file, report in (engine.last_coverage or {}).get("files", {}).items():
                covered.setdefault(file, set()).update(_rows(report.get("covered", [])))
                not_covered.setdefault(file, set()).update(_rows(report.get("not_covered", [])))
    finally:
        engine.close()
    files = {}
    total_covered = total = 0
    for file in sorted(set(covered) | set(not_covered)):
        hit = covered.get(file, set())
        miss = not_covered.get(file, set()) - hit
        files[file] = {
            "covered": sorted(hit),
            "not_covered": sorted(miss),
            "coverage": round(100 * len(hit) / max(1, len(hit) + len(miss)), 2),
        }
        total_covered += len(hit)
        total += len(hit) + len(miss)
    return {"files": files, "coverage": round(100 * total_covered / max(1, total), 2)}
