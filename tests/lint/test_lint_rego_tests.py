"""REGO002 when the folder's modules do not compile: the tests did not run, and lint says so on
the test file instead of failing with a traceback (the Rego test runner refuses such a folder as
a whole, as `opa test` does)."""

from __future__ import annotations

import json

from tests._support.cli import run_cli


def test_tests_that_cannot_run_are_a_finding_on_the_test_file(tmp_path):
    policy, tests = tmp_path / "policy.rego", tmp_path / "policy_test.rego"
    policy.write_text("package x\nimport rego.v1\nallow if {\n")
    tests.write_text("package x_test\nimport rego.v1\ntest_a if true\n")
    proc = run_cli(["lint", "--run-tests", "--format", "json", str(tmp_path)])
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    findings = json.loads(proc.stdout)["findings"]
    by_rule = {(f["rule"], f["file"]): f for f in findings}
    assert by_rule[("REGO001", str(policy))]["line"] == 4
    not_run = by_rule[("REGO002", str(tests))]["message"]
    assert not_run.startswith("tests not run") and f"{policy}:4" in not_run
