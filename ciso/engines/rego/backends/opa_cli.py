"""The ``opa`` command-line tool, when it is on PATH (what most users have)."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ciso.engines.rego.model import UNDEFINED, Diagnostic, EvalResult, RegoError, parse_opa_errors


def executable() -> str | None:
    return shutil.which("opa")


def available() -> bool:
    return executable() is not None


class OpaCli:
    name = "opa"

    def __init__(self, v0: bool = False, path: str | None = None) -> None:
        self.path = path or executable() or "opa"
        self.v0 = v0
        proc = subprocess.run([self.path, "version"], capture_output=True, text=True, timeout=30)
        first = (proc.stdout.splitlines() or ["Version: unknown"])[0]
        self.version = first.split(":", 1)[-1].strip()

    def _write(
        self, tmp: Path, modules: Mapping[str, str], data: Mapping[str, Any] | None
    ) -> list[str]:
        args = []
        for i, (name, source) in enumerate(modules.items()):
            path = tmp / f"{i}-{Path(name).name}"
            path.write_text(source)
            args += ["-d", str(path)]
        if data:
            (tmp / "data.json").write_text(json.dumps(dict(data)))
            args += ["-d", str(tmp / "data.json")]
        return args

    def _flags(self) -> list[str]:
        return ["--v0-compatible"] if self.v0 else []

    def check(self, modules: Mapping[str, str]) -> list[Diagnostic]:
        with tempfile.TemporaryDirectory() as tmp:
            files = [a for a in self._write(Path(tmp), modules, None) if a != "-d"]
            proc = subprocess.run(
                [self.path, "check", *self._flags(), *files],
                capture_output=True,
                text=True,
                timeout=120,
            )
        return (
            []
            if proc.returncode == 0
            else parse_opa_errors(proc.stderr or proc.stdout, "rego_compile_error")
        )

    def evaluate(
        self,
        modules: Mapping[str, str],
        query: str,
        input: Any = None,
        data: Mapping[str, Any] | None = None,
    ) -> EvalResult:
        with tempfile.TemporaryDirectory() as tmp:
            args = self._write(Path(tmp), modules, data)
            if input is not None:
                (Path(tmp) / "input.json").write_text(json.dumps(input))
                args += ["-i", str(Path(tmp) / "input.json")]
            proc = subprocess.run(
                [self.path, "eval", *self._flags(), *args, "--format", "json", query],
                capture_output=True,
                text=True,
                timeout=300,
            )
        if proc.returncode != 0:
            raise RegoError(
                parse_opa_errors(proc.stderr or proc.stdout, "rego_eval_error"), self.name
            )
        results = json.loads(proc.stdout or "{}").get("result", [])
        value = results[0]["expressions"][0]["value"] if results else UNDEFINED
        return EvalResult(value, results, self.name, self.version)
