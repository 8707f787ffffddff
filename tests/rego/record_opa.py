"""Make ``opa_recordings.json``, the answers ``fake_opa.py`` replays in place of the opa CLI.

Run: ``.venv/bin/python tests/rego/record_opa.py`` (needs opa-golib-python-bindings).

No opa binary can be installed where this project is developed, so the answers are derived from
the real OPA Go library (v1.20.2, embedded through opa-golib-python-bindings) evaluating the same
files, and written in the opa CLI's own output formats and exit codes, as its source defines them
(cmd/eval.go, cmd/check.go, cmd/test.go, internal/presentation, tester.Result, cover.Report):

- ``eval --format json``: ``{"result": [...]}`` or ``{}`` when undefined, exit 0; errors as
  ``{"errors": [{"message", "code", "location": {"file", "row", "col"}}]}`` on stdout, exit 2.
- ``check --format json``: nothing, exit 0; or the same errors document on stderr, exit 1.
- ``test --format json``: one object per test (``location``, ``package``, ``name``, ``fail`` /
  ``skip`` / ``error``, ``duration`` in ns), exit 2 if any test does not pass (a skipped one too).
- ``test --coverage``: the coverage report (``files`` → ``covered`` / ``not_covered`` row ranges,
  ``covered_lines``, ``not_covered_lines``, ``coverage``) instead of the results.
- ``--v0-compatible``: the v0 modules evaluated through the project's v0 rewriter on the same
  library (the recordings are therefore only as good as the rewriter, which its own property test
  checks).

The invocations recorded are exactly those ``OpaCli`` makes for the calls in ``CALLS``: the
recorder runs ``OpaCli`` with itself as the executable (``--as-opa``), answering and recording.
"""

from __future__ import annotations

import contextlib
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
import fake_opa  # noqa: E402 - the key must be computed exactly as the fake computes it

OPA_VERSION = "1.20.2"  # the OPA Go library inside opa-golib-python-bindings 0.4.4

POLICY = (
    "package check\n\nimport rego.v1\n\ndefault result := true\n\n"
    "result := false if {\n\tinput.hostNetwork\n}\n\n"
    "names contains name if {\n\tsome c in input.containers\n\tname := c.name\n}\n"
)
V0_POLICY = (
    "package legacy\n\nviolation[msg] {\n  c := input.containers[_]\n  c.privileged\n"
    '  msg := sprintf("%v is privileged", [c.name])\n}\n\nallow = false {\n  count(violation) > 0\n'
    "} else = true\n"
)
BROKEN = 'package broken\n\nimport rego.v1\n\nresult := x if {\n\tx := 1 + "a"\n}\n'
TESTS = (
    "package check_test\n\nimport rego.v1\n\n"
    'test_host_network_fails if {\n\tnot data.check.result with input as {"hostNetwork": true}\n}\n\n'
    "test_plain_pod_passes if {\n\tdata.check.result with input as {}\n}\n\n"
    'test_wrong_expectation if {\n\tdata.check.names == {"x"} with input as {"containers": []}\n}\n\n'
    "todo_test_later if {\n\tfalse\n}\n"
)
INPUTS = {
    "host": {"hostNetwork": True, "containers": [{"name": "a"}]},
    "plain": {"containers": [{"name": "a"}, {"name": "b"}]},
    "privileged": {"containers": [{"name": "a", "privileged": True}, {"name": "b"}]},
}


def calls() -> list[tuple[str, dict[str, Any]]]:
    """(method, keyword arguments) of every OpaCli call the tests make; each is recorded."""
    policy = {"policy.rego": POLICY}
    out: list[tuple[str, dict[str, Any]]] = []
    for query in ("data.check.result", "data.check.names", "data.check.missing"):
        for name in ("host", "plain"):
            out.append(("evaluate", {"modules": policy, "query": query, "input": INPUTS[name]}))
    out.append(("evaluate", {"modules": {"broken.rego": BROKEN}, "query": "data.broken.result"}))
    out.append(("evaluate", {"modules": {"v0.rego": V0_POLICY}, "query": "data.legacy.allow"}))
    for name in ("privileged", "plain"):
        for query in ("data.legacy.allow", "data.legacy.violation"):
            out.append(
                (
                    "evaluate_v0",
                    {"modules": {"v0.rego": V0_POLICY}, "query": query, "input": INPUTS[name]},
                )
            )
    out.append(("check", {"modules": policy}))
    out.append(("check", {"modules": {"broken.rego": BROKEN}}))
    out.append(("check", {"modules": {"v0.rego": V0_POLICY}}))
    out.append(("check_v0", {"modules": {"v0.rego": V0_POLICY}}))
    tests = {"policy.rego": POLICY, "policy_test.rego": TESTS}
    out.append(("test", {"modules": tests}))
    out.append(("test", {"modules": tests, "run": "plain"}))
    out.append(("test", {"modules": tests, "coverage": True}))
    return out


# -- answering as opa --------------------------------------------------------------------------


def _answer(argv: list[str]) -> tuple[str, str, int]:
    from ciso.engines.rego.backends.opa_golib import OpaGolib
    from ciso.engines.rego.select import V0Rewriting

    command = argv[0]
    if command == "version":
        return f"Version: {OPA_VERSION}\n", "", 0
    v0 = "--v0-compatible" in argv
    backend = V0Rewriting(OpaGolib()) if v0 else OpaGolib()
    files, input_path, query, run = _parse(argv[1:], command)
    modules = {str(f): f.read_text() for f in files if f.suffix == ".rego"}
    data: dict[str, Any] = {}
    for f in files:
        if f.suffix == ".json":
            data.update(json.loads(f.read_text()))
    if command == "eval":
        return _eval(backend, modules, query, input_path, data)
    if command == "check":
        errors = backend.check(modules)
        return ("", _errors_document(errors), 1) if errors else ("", "", 0)
    if command == "test":
        return _test(backend, modules, data, run, "--coverage" in argv)
    raise SystemExit(f"record_opa: cannot answer {argv}")


def _parse(rest: list[str], command: str) -> tuple[list[Path], Path | None, str, str | None]:
    files: list[Path] = []
    input_path, run, positional = None, None, []
    i = 0
    while i < len(rest):
        arg = rest[i]
        if arg in ("-d", "-i", "-r", "--format"):
            value = rest[i + 1]
            if arg == "-d":
                files.append(Path(value))
            elif arg == "-i":
                input_path = Path(value)
            elif arg == "-r":
                run = value
            i += 2
            continue
        if not arg.startswith("-"):
            positional.append(arg)
        i += 1
    query = positional.pop() if command == "eval" else ""
    return files + [Path(p) for p in positional], input_path, query, run


def _error_json(d) -> dict[str, Any]:  # noqa: ANN001 - a Diagnostic
    return {
        "message": d.message,
        "code": d.code,
        "location": {"file": d.file, "row": d.line, "col": d.column},
    }


def _errors_document(diagnostics) -> str:
    return json.dumps({"errors": [_error_json(d) for d in diagnostics]}, indent=2) + "\n"


def _eval(backend, modules, query, input_path, data) -> tuple[str, str, int]:
    from ciso.engines.rego.model import RegoError

    value = json.loads(input_path.read_text()) if input_path else None
    try:
        result = backend.evaluate(modules, query, value, data or None)
    except RegoError as exc:
        return _errors_document(exc.diagnostics), "", 2
    document = {"result": result.results} if result.results else {}
    return json.dumps(document, indent=2) + "\n", "", 0


def _test(backend, modules, data, run, coverage) -> tuple[str, str, int]:
    from ciso.engines.rego.backends import opa_golib
    from ciso.engines.rego.model import parse_opa_errors
    from ciso.engines.rego.testing import run_tests

    outcome = run_tests(backend, modules, data or None, run)
    code = 2 if any(c.status != "pass" for c in outcome.cases) else 0
    if coverage:
        queries = [f"data.{c.package}.{c.name}" for c in outcome.cases if c.status != "skip"]
        rewritten = getattr(backend, "_rewrite", None)
        sources = {p: r.text for p, r in rewritten(modules).items()} if rewritten else modules
        report = opa_golib.coverage(sources, queries, data or None)
        return json.dumps(_opa_coverage(report), indent=2) + "\n", "", code
    results = []
    for case in outcome.cases:
        row = _rule_row(modules[case.location], case.name)
        entry: dict[str, Any] = {
            "location": {"file": case.location, "row": row, "col": 1},
            "package": f"data.{case.package}",
            "name": case.name,
        }
        if case.status == "fail":
            entry["fail"] = True
        elif case.status == "skip":
            entry["skip"] = True
        elif case.status == "error":
            entry["error"] = _error_json(parse_opa_errors(case.message)[0])
        entry["duration"] = 0 if case.status == "skip" else int(case.duration_ms * 1e6)
        results.append(entry)
    return json.dumps(results, indent=2) + "\n", "", code


def _rule_row(source: str, name: str) -> int:
    match = re.search(rf"^{re.escape(name)}\b", source, re.MULTILINE)
    return source[: match.start()].count("\n") + 1 if match else 1


def _ranges(rows: list[int]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for row in rows:
        if out and out[-1]["end"]["row"] == row - 1:
            out[-1]["end"]["row"] = row
        else:
            out.append({"start": {"row": row}, "end": {"row": row}})
    return out


def _opa_coverage(report: dict[str, Any]) -> dict[str, Any]:
    files, covered_total, missed_total = {}, 0, 0
    for file, entry in report["files"].items():
        covered, missed = len(entry["covered"]), len(entry["not_covered"])
        files[file] = {
            "covered": _ranges(entry["covered"]),
            "not_covered": _ranges(entry["not_covered"]),
            "covered_lines": covered,
            "not_covered_lines": missed,
            "coverage": entry["coverage"],
        }
        covered_total += covered
        missed_total += missed
    return {
        "files": files,
        "covered_lines": covered_total,
        "not_covered_lines": missed_total,
        "coverage": report["coverage"],
    }


# -- recording ---------------------------------------------------------------------------------


def _as_opa(argv: list[str], store: Path) -> int:
    stdout, stderr, code = _answer(argv)
    key, where = fake_opa.key_for(argv)
    recordings = json.loads(store.read_text()) if store.exists() else {"recordings": {}}
    recordings["recordings"][fake_opa.key_id(key)] = {
        "key": key,
        "stdout": stdout.replace(where, "{dir}") if where else stdout,
        "stderr": stderr.replace(where, "{dir}") if where else stderr,
        "returncode": code,
    }
    store.write_text(json.dumps(recordings, indent=1, sort_keys=True) + "\n")
    sys.stdout.write(stdout)
    sys.stderr.write(stderr)
    return code


def record(target: Path = fake_opa.RECORDINGS) -> int:
    from ciso.engines.rego.backends.opa_cli import OpaCli
    from ciso.engines.rego.model import RegoError

    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "recordings.json"
        exe = Path(tmp) / "opa"
        exe.write_text(
            f'#!/bin/sh\nexec {sys.executable} {Path(__file__).resolve()} --as-opa {store} "$@"\n'
        )
        exe.chmod(0o755)
        plain, v0 = OpaCli(path=str(exe)), OpaCli(v0=True, path=str(exe))
        for method, kwargs in calls():
            backend = v0 if method.endswith("_v0") else plain
            with contextlib.suppress(RegoError):  # an error is an answer too; it is recorded
                getattr(backend, method.removesuffix("_v0"))(**kwargs)
        document = json.loads(store.read_text())
    document["derived_from"] = (
        f"OPA Go library v{OPA_VERSION} embedded through opa-golib-python-bindings, written in "
        "the opa CLI's output formats by tests/rego/record_opa.py (no opa binary was run)"
    )
    target.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")
    return len(document["recordings"])


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--as-opa":
        sys.exit(_as_opa(sys.argv[3:], Path(sys.argv[2])))
    print(f"recorded {record()} answers in {fake_opa.RECORDINGS}")
