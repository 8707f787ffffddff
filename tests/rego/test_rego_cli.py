"""`itbench rego eval|test|check` shapes and exit codes, and the shipped policies' own tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ciso.engines.rego.backends.opa_golib import available as golib_available
from tests._support.cli import REPO, run_cli

POLICIES = sorted((REPO / "policies" / "rego").iterdir())
ENGINES = ["regorus", *(["opa-golib"] if golib_available() else [])]


@pytest.fixture
def policy(tmp_path) -> Path:
    path = tmp_path / "policy.rego"
    path.write_text(
        "package check\nimport rego.v1\ndefault result := true\nresult := false if input.hostNetwork\n"
    )
    return path


@pytest.mark.parametrize("engine", ENGINES)
def test_eval_json_raw_and_undefined(policy, tmp_path, engine):
    data = tmp_path / "input.json"
    data.write_text('{"hostNetwork": true}')
    query = ["rego", "eval", "-d", str(policy), "-i", str(data), "data.check.result"]
    proc = run_cli([*query, "--rego-engine", engine])
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["result"][0]["expressions"][0]["value"] is False
    assert doc["result"][0]["expressions"][0]["text"] == "data.check.result"
    assert f"engine: {engine}" in proc.stderr
    raw = run_cli([*query, "--format", "raw", "--rego-engine", engine])
    assert raw.stdout == "false\n"
    undefined = run_cli(
        ["rego", "eval", "-d", str(policy), "data.check.nothing", "--rego-engine", engine]
    )
    assert undefined.returncode == 0 and json.loads(undefined.stdout) == {}
    assert (
        run_cli(
            [
                "rego",
                "eval",
                "-d",
                str(policy),
                "data.check.nothing",
                "--format",
                "raw",
                "--rego-engine",
                engine,
            ]
        ).stdout
        == ""
    )


def test_policy_error_exits_3_with_location(tmp_path):
    broken = tmp_path / "broken.rego"
    broken.write_text("package check\nresult := \n")
    proc = run_cli(["rego", "eval", "-d", str(broken), "data.check.result"])
    # OPA places an unexpected end of file on the line after the last one
    assert (
        proc.returncode == 3
        and "broken.rego:3" in proc.stderr
        and "rego_parse_error" in proc.stderr
    )
    assert proc.stdout == ""


def test_usage_errors():
    assert run_cli(["rego", "eval", "data.x", "--rego-engine", "nope"]).returncode == 2
    proc = run_cli(["rego", "eval", "-d", "/nonexistent.rego", "data.x"])
    assert proc.returncode == 2


@pytest.mark.parametrize("folder", POLICIES, ids=lambda p: p.name)
@pytest.mark.parametrize("engine", ENGINES)
def test_shipped_policies_pass_their_tests(folder, engine):
    proc = run_cli(["rego", "test", str(folder), "--format", "json", "--rego-engine", engine])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = json.loads(proc.stdout)
    assert (
        doc["summary"]["fail"] == 0 and doc["summary"]["error"] == 0 and doc["summary"]["pass"] >= 2
    )


def test_failing_test_exits_1_and_todo_is_skipped(tmp_path):
    (tmp_path / "p_test.rego").write_text(
        "package t\nimport rego.v1\ntest_ok if true\ntest_bad if false\ntodo_test_later if false\n"
    )
    proc = run_cli(["rego", "test", str(tmp_path), "-v"])
    assert proc.returncode == 1
    assert "data.t.test_ok: PASS" in proc.stdout and "data.t.test_bad: FAIL" in proc.stdout
    assert "PASS: 1/2" in proc.stdout and "SKIPPED: 1" in proc.stdout


def test_check_reports_type_errors(tmp_path):
    (tmp_path / "t.rego").write_text('package y\nimport rego.v1\np := x if { x := 1 + "a" }\n')
    proc = run_cli(["rego", "check", str(tmp_path), "--format", "json"])
    if not golib_available():
        pytest.skip("type checking needs embedded OPA")
    assert proc.returncode == 1
    (error,) = json.loads(proc.stdout)["errors"]
    assert error["line"] == 3 and error["code"] == "rego_type_error"


def test_coverage_lists_rows_no_test_reaches(tmp_path):
    if not golib_available():
        pytest.skip("coverage needs embedded OPA (opa-golib-python-bindings)")
    (tmp_path / "p.rego").write_text(
        "package check\n\nimport rego.v1\n\ndefault result := true\n\nresult := false if {\n\tinput.bad\n}\n\nunused if {\n\tinput.never\n}\n"
    )
    (tmp_path / "p_test.rego").write_text(
        'package check_test\n\nimport rego.v1\n\ntest_bad if {\n\tnot data.check.result with input as {"bad": true}\n}\n'
    )
    proc = run_cli(["rego", "test", str(tmp_path), "--coverage", "--format", "json"])
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)["coverage"]["files"][str(tmp_path / "p.rego")]
    assert 12 in report["not_covered"] and 8 in report["covered"]
    assert report["coverage"] < 100


# -- error polish (issue 15) -------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_eval_errors_carry_the_column(tmp_path, engine):
    # the unsafe variable is the only thing on row 4 and starts at column 5
    (tmp_path / "p.rego").write_text("package c\nimport rego.v1\nr if {\n    y\n}\n")
    proc = run_cli(
        ["rego", "eval", "-d", str(tmp_path / "p.rego"), "data.c.r", "--rego-engine", engine]
    )
    assert proc.returncode == 3, proc.stderr
    assert f"{tmp_path / 'p.rego'}:4:5: rego_unsafe_var_error" in proc.stderr


@pytest.mark.skipif(not golib_available(), reason="type checking needs embedded OPA")
def test_check_errors_carry_the_column_in_text_and_json(tmp_path):
    policy = tmp_path / "t.rego"
    policy.write_text('package y\nimport rego.v1\np := x if {\n\tx := 1 + "a"\n}\n')
    text = run_cli(["rego", "check", str(policy)])
    assert text.returncode == 1
    # OPA places a type error of a call at the call's first operand: "1" in column 7 (tab = 1)
    assert text.stdout.startswith(f"{policy}:4:7: rego_type_error: plus: invalid argument(s)")
    (error,) = json.loads(run_cli(["rego", "check", str(policy), "--format", "json"]).stdout)[
        "errors"
    ]
    assert (error["line"], error["column"]) == (4, 7)


@pytest.mark.skipif(not golib_available(), reason="the v0 rewrite runs on embedded OPA")
def test_v0_columns_point_into_the_v0_source(tmp_path):
    """The rewrite inserts ` contains ` and `if `; the column still points at the user's file."""
    policy = tmp_path / "v0.rego"
    policy.write_text('package y\np[x] { x := 1 + "a" }\n')
    proc = run_cli(["rego", "check", "--v0-compatible", str(policy), "--format", "json"])
    (error,) = json.loads(proc.stdout)["errors"]
    assert (error["line"], error["column"]) == (2, 'p[x] { x := 1 + "a" }'.index("1") + 1)


@pytest.mark.parametrize("engine", ENGINES)
def test_v0_syntax_on_eval_suggests_v0_compatible(tmp_path, engine):
    policy = tmp_path / "v0.rego"
    policy.write_text("package x\n\nallow { input.a }\n")
    args = ["rego", "eval", "-d", str(policy), "data.x.allow", "--rego-engine", engine]
    plain = run_cli(args)
    assert plain.returncode == 3 and plain.stdout == ""
    assert f"{policy}:3:" in plain.stderr and "--v0-compatible" in plain.stderr
    fixed = run_cli([*args, "--v0-compatible", "-i", str(_write(tmp_path, {"a": True}))])
    assert (
        fixed.returncode == 0
        and json.loads(fixed.stdout)["result"][0]["expressions"][0]["value"] is True
    )


def test_other_parse_errors_get_no_v0_hint(tmp_path):
    policy = tmp_path / "broken.rego"
    policy.write_text("package x\nimport rego.v1\nallow if {\n")
    proc = run_cli(["rego", "eval", "-d", str(policy), "data.x.allow"])
    assert proc.returncode == 3 and "rego_parse_error" in proc.stderr
    assert "--v0-compatible" not in proc.stderr


def test_conflicting_data_files_are_both_named(tmp_path):
    (tmp_path / "t_test.rego").write_text(
        "package t\nimport rego.v1\ntest_limit if data.limits.cpu == 1\n"
    )
    first, second = tmp_path / "a.json", tmp_path / "b.yaml"
    first.write_text('{"limits": {"cpu": 1, "memory": 2}}')
    second.write_text("limits:\n  cpu: 4\n")
    proc = run_cli(["rego", "test", str(tmp_path)])
    assert proc.returncode == 3 and proc.stdout == ""
    assert f"{second}: data.limits.cpu conflicts with {first}" in proc.stderr
    assert "Traceback" not in proc.stderr
    # the same key with the same value is no conflict
    second.write_text("limits:\n  cpu: 1\n")
    assert run_cli(["rego", "test", str(tmp_path)]).returncode == 0


def _write(tmp_path: Path, value) -> Path:
    path = tmp_path / "input.json"
    path.write_text(json.dumps(value))
    return path


@pytest.mark.parametrize("engine", ["opa-golib", "regorus"])
@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("1 == 2", "{}"),  # a false comparison fails the query: undefined, as `opa eval` prints it
        ('input.user == "admin"', "{}"),
        ('input.user == "guest"', None),
        ("false", None),  # a term keeps its value even when false
    ],
)
def test_a_false_comparison_is_undefined_and_a_false_term_is_false(
    tmp_path, engine, query, expected
):
    from ciso.engines.rego.select import available_engines

    if engine not in available_engines():
        pytest.skip(f"{engine} is not installed here")
    data = tmp_path / "input.json"
    data.write_text('{"user": "guest"}')
    proc = run_cli(["rego", "eval", "--rego-engine", engine, "-i", str(data), query])
    assert proc.returncode == 0, proc.stderr
    if expected is not None:
        assert proc.stdout.strip() == expected
    else:
        value = json.loads(proc.stdout)["result"][0]["expressions"][0]["value"]
        assert value is (query != "false")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_module_that_does_not_parse_fails_the_test_run_naming_it(tmp_path, engine):
    # before: no test rule was discovered in the broken file, so "PASS: 0/0" and exit 0
    broken = tmp_path / "broken.rego"
    broken.write_text("package x\nimport rego.v1\nallow if {\n")
    proc = run_cli(["rego", "test", str(tmp_path), "--rego-engine", engine])
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert f"{broken}:" in proc.stderr and "rego_parse_error" in proc.stderr
    assert proc.stdout == ""


@pytest.mark.parametrize("engine", ENGINES)
def test_folders_that_conflict_fail_once_naming_both_files(tmp_path, engine):
    # before: every test errored with the same compile error, recompiling everything per test
    # (the 30 shipped policy folders together ran into the 30 s time limit)
    for name in ("one", "two"):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "policy.rego").write_text(
            "package check\nimport rego.v1\ndefault result := false\nresult if input.ok\n"
        )
        (folder / "policy_test.rego").write_text(
            f"package check_test\nimport rego.v1\ntest_{name} if not data.check.result\n"
        )
    proc = run_cli(
        ["rego", "test", str(tmp_path / "one"), str(tmp_path / "two"), "--rego-engine", engine]
    )
    # OPA's compile error on both engines (regorus alone would keep one default silently)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "multiple default rules data.check.result" in proc.stderr
    for name in ("one", "two"):
        assert str(tmp_path / name / "policy.rego") in proc.stderr
    # each folder on its own passes
    assert run_cli(["rego", "test", str(tmp_path / "one")]).returncode == 0


def test_no_test_run_warns_and_fail_on_empty_exits_1(tmp_path):
    (tmp_path / "p.rego").write_text("package y\nimport rego.v1\nallow if true\n")
    proc = run_cli(["rego", "test", str(tmp_path)])
    assert proc.returncode == 0 and "no tests were run" in proc.stderr
    proc = run_cli(["rego", "test", str(tmp_path), "--fail-on-empty"])
    assert proc.returncode == 1 and "no tests were run" in proc.stderr
    # a --run pattern matching nothing is the other way to run nothing
    (tmp_path / "p_test.rego").write_text("package y_test\nimport rego.v1\ntest_ok if true\n")
    assert run_cli(["rego", "test", str(tmp_path), "--fail-on-empty"]).returncode == 0
    proc = run_cli(["rego", "test", str(tmp_path), "-r", "test_typo", "--fail-on-empty"])
    assert proc.returncode == 1 and "no tests were run" in proc.stderr
