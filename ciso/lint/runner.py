"""Run every enabled rule over the discovered files; collect findings and tool errors."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from ciso.lint.config import inline_ignores
from ciso.lint.discovery import Exclude, UnreadableFile, classify, iter_files
from ciso.lint.model import (
    Finding,
    LintRun,
    LintTarget,
    Options,
    Rule,
    RuleContext,
    TargetKind,
)
from ciso.lint.rules import ALL_RULES, file_unreadable

__all__ = ["RuleContext", "lint_paths", "selected_rules"]


def selected_rules(enable: Iterable[str], disable: Iterable[str]) -> list[Rule]:
    """The rules to run: with ``enable``, those reporting one of its ids; minus those whose every
    id is disabled (a rule with several ids runs while one of them is wanted)."""
    enable, disable = set(enable), set(disable)
    out = []
    for rule in ALL_RULES:
        ids = {info.id for info in rule.infos}
        if enable and not (ids & enable):
            continue
        if ids <= disable:
            continue
        out.append(rule)
    return out


def lint_paths(
    paths: list[Path],
    options: Options,
    enable: Iterable[str] = (),
    disable: Iterable[str] = (),
    progress: bool = True,
    exclude: Iterable[Exclude] = (),
) -> LintRun:
    run = LintRun()
    rules = selected_rules(enable, disable)
    disabled = set(disable)
    ctx = RuleContext(options)
    batches: dict[str, tuple[Rule, list[tuple[LintTarget, dict[int, set[str]]]]]] = {}
    try:
        for path in iter_files(paths, exclude):
            try:
                target = classify(path)
            except UnreadableFile as exc:
                run.files.append(str(path))
                if file_unreadable.INFO.id not in disabled:
                    run.findings.append(
                        Finding(file_unreadable.INFO, str(path), exc.reason, exc.line)
                    )
                continue
            except OSError as exc:
                run.files.append(str(path))
                run.tool_errors.append(f"{path}: cannot read ({exc.strerror or exc})")
                continue
            if target.kind is TargetKind.UNKNOWN:
                # no policy: not linted, but still read by the rules that want context from it
                # (KYV009: the CRDs declared in the tree)
                run.skipped.append(str(path))
                if progress:
                    print(f"skip: {path} (no policy in it)", file=sys.stderr)
            else:
                run.files.append(str(path))
                if progress:
                    print(f"lint: {path}", file=sys.stderr)
            ignores = inline_ignores(target.text)
            for rule in rules:
                if target.kind not in rule.kinds:
                    continue
                if rule.check_batch is not None:
                    batches.setdefault(rule.id, (rule, []))[1].append((target, ignores))
                try:
                    found = rule.check(target, options, ctx)
                except Exception as exc:  # one rule's failure is a tool error; the others still run
                    run.tool_errors.append(f"{rule.id} on {path}: {type(exc).__name__}: {exc}")
                    continue
                for finding in found:
                    if finding.rule.id in disabled:
                        continue
                    if finding.line is not None and finding.rule.id in ignores.get(
                        finding.line, set()
                    ):
                        continue
                    run.findings.append(finding)
        for rule, entries in batches.values():
            assert rule.check_batch is not None  # only batch rules were collected
            try:
                found = rule.check_batch([t for t, _ in entries], options, ctx)
            except Exception as exc:  # a batch rule's failure is a tool error too
                run.tool_errors.append(f"{rule.id}: {type(exc).__name__}: {exc}")
                continue
            ignores_by_file = {str(t.path): i for t, i in entries}
            for finding in found:
                ignored = ignores_by_file.get(finding.file, {}).get(finding.line or -1, set())
                if finding.rule.id not in disabled and finding.rule.id not in ignored:
                    run.findings.append(finding)
    finally:
        ctx.close()
    run.notes += ctx.notes
    run.engines = ctx.engines()
    # batch rules report after every file: one order for every format, by file, line and column
    run.findings.sort(key=_position)
    return run


def _position(finding: Finding) -> tuple[str, int, int, str]:
    return (finding.file, finding.line or 0, finding.column or 0, finding.rule.id)
