"""``opa test`` behaviour on any backend: ``test_*`` rules pass when true, fail when false or
undefined; ``todo_*`` rules are skipped; errors are reported per test."""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from typing import Any

from ciso.engines.rego.backends import Backend
from ciso.engines.rego.model import RegoError, TestCase, TestRun

_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)", re.MULTILINE)
_RULE = re.compile(r"^(test_\w+|todo_test_\w+|todo_\w+)\b", re.MULTILINE)


def discover(modules: Mapping[str, str]) -> list[tuple[str, str, str]]:
    """(package, rule, file) for every test rule, in file order, each name once per package."""
    found: list[tuple[str, str, str]] = []
    for path, source in modules.items():
        package = _PACKAGE.search(source)
        if package is None:
            continue
        for match in _RULE.finditer(source):
            entry = (package.group(1), match.group(1), path)
            if not any(e[0] == entry[0] and e[1] == entry[1] for e in found):
                found.append(entry)
    return found


def run_tests(
    backend: Backend,
    modules: Mapping[str, str],
    data: Mapping[str, Any] | None = None,
    run: str | None = None,
) -> TestRun:
    native = getattr(backend, "test", None)
    if native is not None:  # the opa CLI runs `opa test` itself
        return native(modules, data, run)
    # As `opa test`: modules that do not compile together (a parse error, two files defining
    # the same default rule) fail the run once, naming the files, instead of failing every test
    # with the same error (which also recompiled everything per test: quadratic in the folder)
    problems = backend.check(modules)
    if problems:
        raise RegoError(problems, backend.name)
    cases = []
    pattern = re.compile(run) if run else None
    for package, rule, path in discover(modules):
        if pattern and not pattern.search(f"data.{package}.{rule}"):
            continue
        if rule.startswith("todo_"):
            cases.append(TestCase(package, rule, "skip", location=path))
            continue
        started = time.perf_counter()
        try:
            result = backend.evaluate(modules, f"data.{package}.{rule}", None, data)
        except RegoError as exc:
            cases.append(
                TestCase(
                    package, rule, "error", (time.perf_counter() - started) * 1000, str(exc), path
                )
            )
            continue
        ok = result.value is True
        message = "" if ok else ("undefined" if not result.defined else f"got {result.value!r}")
        cases.append(
            TestCase(
                package,
                rule,
                "pass" if ok else "fail",
                (time.perf_counter() - started) * 1000,
                message,
                path,
            )
        )
    return TestRun(backend.name, cases)
