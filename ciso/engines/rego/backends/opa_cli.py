"""The ``opa`` command-line tool, when it is on PATH (what most users have).

Policies are written to a temporary directory as ``<n>-<name>`` (so two modules with one base name
stay apart) and every file name in OPA's answers is mapped back to the caller's name. Output is
read in OPA's JSON formats: ``eval --format json`` prints ``{"result": …}`` or, exiting 2,
``{"errors": [{"code", "message", "location": {"file", "row", "col"}}]}`` on stdout; ``check
--format json`` prints the same errors on stderr (exit 1); ``test --format json`` prints one
result per test (exit 2 when one does not pass), and ``test --coverage`` the coverage report.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ciso.engines.rego.model import (
    UNDEFINED,
    Diagnostic,
    EvalResult,
    RegoError,
    TestCase,
    TestRun,
    in_source_order,
    parse_opa_errors,
)


def executable() -> str | None:
    return shutil.which("opa")


def available() -> bool:
    return executable() is not None


class _Workspace:
    """The temporary files one opa invocation reads, and the way back to the caller's names."""

    def __init__(
        self, tmp: Path, modules: Mapping[str, str], data: Mapping[str, Any] | None
    ) -> None:
        self.names: dict[str, str] = {}
        self.modules = modules
        self.files: list[str] = []
        for i, (name, source) in enumerate(modules.items()):
            path = tmp / f"{i}-{Path(name).name}"
            path.write_text(source)
            self.files.append(str(path))
            self.names[str(path)] = name
        if data:
            (tmp / "data.json").write_text(json.dumps(dict(data)))
            self.files.append(str(tmp / "data.json"))

    def name(self, file: str) -> str:
        return self.names.get(file, file)

    def diagnostics(self, text: str, default_code: str) -> list[Diagnostic]:
        """OPA's errors, JSON (``{"errors": [...]}``) or text, with the caller's file names."""
        try:
            errors = json.loads(text).get("errors")
        except (json.JSONDecodeError, AttributeError):
            errors = None
        if not isinstance(errors, list):
            found = parse_opa_errors(text, default_code)
            return in_source_order(
                [Diagnostic(self.name(d.file), d.line, d.column, d.code, d.message) for d in found],
                self.modules,
            )
        out = []
        for error in errors:
            location = error.get("location") or {}
            out.append(
                Diagnostic(
                    self.name(location.get("file", "")),
                    location.get("row"),
                    location.get("col"),
                    error.get("code", default_code),
                    error.get("message", ""),
                )
            )
        return in_source_order(out, self.modules)


class OpaCli:
    name = "opa"
    not_checked: tuple[str, ...] = ()  # `opa check` is OPA's own compiler

    def __init__(self, v0: bool = False, path: str | None = None) -> None:
        self.path = path or executable() or "opa"
        self.v0 = v0
        proc = subprocess.run([self.path, "version"], capture_output=True, text=True, timeout=30)
        first = (proc.stdout.splitlines() or ["Version: unknown"])[0]
        self.version = first.split(":", 1)[-1].strip()

    def _flags(self) -> list[str]:
        return ["--v0-compatible"] if self.v0 else []

    def _run(self, args: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
        return subprocess.run([self.path, *args], capture_output=True, text=True, timeout=timeout)

    def check(self, modules: Mapping[str, str]) -> list[Diagnostic]:
        with tempfile.TemporaryDirectory() as tmp:
            ws = _Workspace(Path(tmp), modules, None)
            proc = self._run(["check", *self._flags(), "--format", "json", *ws.files], 120)
        if proc.returncode == 0:
            return []
        return ws.diagnostics(proc.stderr or proc.stdout, "rego_compile_error")

    def evaluate(
        self,
        modules: Mapping[str, str],
        query: str,
        input: Any = None,
        data: Mapping[str, Any] | None = None,
    ) -> EvalResult:
        with tempfile.TemporaryDirectory() as tmp:
            ws = _Workspace(Path(tmp), modules, data)
            args = [a for f in ws.files for a in ("-d", f)]
            if input is not None:
                (Path(tmp) / "input.json").write_text(json.dumps(input))
                args += ["-i", str(Path(tmp) / "input.json")]
            proc = self._run(["eval", *self._flags(), *args, "--format", "json", query], 300)
        if proc.returncode != 0:
            raise RegoError(
                ws.diagnostics(proc.stdout or proc.stderr, "rego_eval_error"), self.name
            )
        results = json.loads(proc.stdout or "{}").get("result", [])
        value = results[0]["expressions"][0]["value"] if results else UNDEFINED
        return EvalResult(value, results, self.name, self.version)

    def test(
        self,
        modules: Mapping[str, str],
        data: Mapping[str, Any] | None = None,
        run: str | None = None,
        coverage: bool = False,
    ) -> TestRun:
        """``opa test`` itself: its results, and with ``coverage`` a second run for the report
        (OPA prints either the results or the coverage, never both)."""
        with tempfile.TemporaryDirectory() as tmp:
            ws = _Workspace(Path(tmp), modules, data)
            select = ["-r", run] if run else []
            base = ["test", *self._flags(), "--format", "json", *select]
            proc = self._run([*base, *ws.files], 300)
            if proc.returncode not in (0, 2):  # 1: the policies do not compile
                raise RegoError(ws.diagnostics(proc.stderr, "rego_compile_error"), self.name)
            cases = [_case(r, ws) for r in json.loads(proc.stdout or "[]")]
            report = None
            if coverage:
                covered = self._run([*base, "--coverage", *ws.files], 300)
                report = _coverage(json.loads(covered.stdout or "{}"), ws)
        return TestRun(self.name, cases, report)


def _case(result: dict[str, Any], ws: _Workspace) -> TestCase:
    package = result.get("package", "").removeprefix("data.")
    location = result.get("location") or {}
    error = result.get("error")
    if result.get("skip"):
        status, message = "skip", ""
    elif error:
        status = "error"
        where = error.get("location") or {}
        message = str(
            Diagnostic(
                ws.name(where.get("file", "")),
                where.get("row"),
                where.get("col"),
                error.get("code", "rego_eval_error"),
                error.get("message", ""),
            )
        )
    elif result.get("fail"):
        status, message = "fail", ""
    else:
        status, message = "pass", ""
    return TestCase(
        package,
        result.get("name", ""),
        status,
        round(result.get("duration", 0) / 1e6, 3),  # OPA reports nanoseconds
        message,
        ws.name(location.get("file", "")),
    )


def _coverage(report: dict[str, Any], ws: _Workspace) -> dict[str, Any]:
    """OPA's coverage report (row ranges per file) in TestRun's shape (rows per file)."""

    def rows(ranges: list[dict[str, Any]]) -> list[int]:
        return sorted(
            {row for r in ranges for row in range(r["start"]["row"], r["end"]["row"] + 1)}
        )

    files = {}
    for file, entry in sorted(report.get("files", {}).items()):
        files[ws.name(file)] = {
            "covered": rows(entry.get("covered", [])),
            "not_covered": rows(entry.get("not_covered", [])),
            "coverage": entry.get("coverage", 0),
        }
    return {"files": files, "coverage": report.get("coverage", 0)}
