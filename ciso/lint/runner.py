"""Run every enabled rule over the discovered files; collect findings and tool errors."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ciso.lint import rules as rule_modules
from ciso.lint.config import inline_ignores
from ciso.lint.discovery import UnreadableFile, classify, iter_files
from ciso.lint.model import Finding, LintRun, Options
from ciso.lint.rules import file_unreadable


class RuleContext:
    """Shared, lazily started resources: one killable Rego worker pool for all Rego rules."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self._pool = None
        self.notes: list[str] = []

    def _rego(self):  # noqa: ANN202
        if self._pool is None:
            from ciso.engines.rego.pool import RegoPool

            self._pool = RegoPool(size=1, timeout_s=self.options.timeout_s)
        return self._pool

    def rego_check(self, modules: Mapping[str, str]):  # noqa: ANN201
        return self._rego().check(modules, engine=self.options.rego_engine)

    def rego_eval(self, modules: Mapping[str, str], query: str, input: Any):  # noqa: ANN201, A002
        return self._rego().evaluate(modules, query, input, engine=self.options.rego_engine)

    def rego_test(self, modules: Mapping[str, str]):  # noqa: ANN201
        return self._rego().test(modules, engine=self.options.rego_engine)

    def note(self, message: str) -> None:
        if message not in self.notes:
            self.notes.append(message)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()


def selected_rules(enable: Iterable[str], disable: Iterable[str]):  # noqa: ANN201
    enable, disable = set(enable), set(disable)
    out = []
    for module in rule_modules.ALL_RULES:
        ids = {i.id for i in getattr(module, "INFOS", (module.INFO,))}
        if enable and not (ids & enable):
            continue
        if ids <= disable:
            continue
        out.append(module)
    return out


def lint_paths(
    paths: list[Path],
    options: Options,
    enable: Iterable[str] = (),
    disable: Iterable[str] = (),
    progress: bool = True,
) -> LintRun:
    run = LintRun()
    modules = selected_rules(enable, disable)
    disabled = set(disable)
    ctx = RuleContext(options)
    batches: dict[object, list] = {}
    try:
        for path in iter_files(paths):
            run.files.append(str(path))
            if progress:
                print(f"lint: {path}", file=sys.stderr)
            try:
                target = classify(path)
            except UnreadableFile as exc:
                if file_unreadable.INFO.id not in disabled:
                    run.findings.append(
                        Finding(file_unreadable.INFO, str(path), exc.reason, exc.line)
                    )
                continue
            except OSError as exc:
                run.tool_errors.append(f"{path}: cannot read ({exc.strerror or exc})")
                continue
            ignores = inline_ignores(target.text)
            for module in modules:
                if target.kind not in module.KINDS:
                    continue
                if hasattr(module, "check_batch"):
                    batches.setdefault(module, []).append((target, ignores))
                try:
                    found = module.check(target, options, ctx)
                except Exception as exc:  # one rule's failure is a tool error, the others still run
                    run.tool_errors.append(
                        f"{module.INFO.id} on {path}: {type(exc).__name__}: {exc}"
                    )
                    continue
                for finding in found:
                    if finding.rule.id in disabled:
                        continue
                    if finding.line is not None and finding.rule.id in ignores.get(
                        finding.line, set()
                    ):
                        continue
                    run.findings.append(finding)
        for module, entries in batches.items():
            try:
                found = module.check_batch([t for t, _ in entries], options, ctx)
            except Exception as exc:  # a batch rule's failure is a tool error too
                run.tool_errors.append(f"{module.INFO.id}: {type(exc).__name__}: {exc}")
                continue
            ignores_by_file = {str(t.path): i for t, i in entries}
            for finding in found:
                ignored = ignores_by_file.get(finding.file, {}).get(finding.line or -1, set())
                if finding.rule.id not in disabled and finding.rule.id not in ignored:
                    run.findings.append(finding)
    finally:
        ctx.close()
    run.notes += ctx.notes
    return run
