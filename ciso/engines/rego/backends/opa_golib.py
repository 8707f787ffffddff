"""The real OPA Go library (v1.x) embedded in-process through ``opa-golib-python-bindings``.

Parse errors surface when a module is added, compile and type errors on first evaluation; both
carry file:line. It has no Rego v0 parser (v0 modules are rewritten first, see v0.py).
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Mapping
from typing import Any

from ciso.engines.rego.backends import TERM_QUERY
from ciso.engines.rego.model import UNDEFINED, Diagnostic, EvalResult, RegoError, parse_opa_errors

_VALUE = "__itbench_value__"


def available() -> bool:
    """Installed? Checked without importing: importing starts the Go runtime, which reserves
    gigabytes of address space — a worker that only needs regorus should not pay for it."""
    import importlib.util

    return importlib.util.find_spec("opa_bindings") is not None


class OpaGolib:
    name = "opa-golib"

    def __init__(self) -> None:
        from opa_bindings import OpaEngine, OpaError

        self._engine_type, self._error = OpaEngine, OpaError
        self.version = (
            f"{importlib.metadata.version('opa-golib-python-bindings')} (OPA Go library v1)"
        )

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
            raise RegoError(diagnostics, self.name)
        if data:
            engine.add_data(dict(data))
        return engine

    def check(self, modules: Mapping[str, str]) -> list[Diagnostic]:
        try:
            engine = self._load(modules, None)
        except RegoError as exc:
            return exc.diagnostics
        try:
            engine.eval_query("true")  # compiling happens on first evaluation
        except self._error as exc:
            return parse_opa_errors(exc.message, "rego_compile_error")
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
        try:
            if TERM_QUERY.match(query):
                bindings = engine.eval_query(f"{_VALUE} := {query.strip()}", input)
                results = [
                    {
                        "expressions": [
                            {"value": b[_VALUE], "text": query, "location": {"row": 1, "col": 1}}
                        ]
                    }
                    for b in bindings
                ]
            else:
                bindings = engine.eval_query(query, input)
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
            raise RegoError(parse_opa_errors(exc.message, "rego_eval_error"), self.name) from exc
        finally:
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
