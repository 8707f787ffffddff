"""KYV010 and the `kyverno test` runner on a kyverno-test.yaml the Kyverno CLI refuses to load
(its loader is strict): each problem at its line, with a did-you-mean; the runner fails the file."""

from __future__ import annotations

import json
from pathlib import Path

from tests._support.cli import REPO, SHARED, run_cli

FIXTURE = REPO / "tests" / "lint" / "fixtures" / "kyverno-test-fail-shape.yaml"


def test_each_problem_is_a_finding_at_its_line():
    proc = run_cli(["lint", "--format", "json", str(FIXTURE)])
    assert proc.returncode == 1
    found = {(f["line"], f["message"]) for f in json.loads(proc.stdout)["findings"]}
    assert found == {
        (7, "policies: expected list, got 'kyverno-pass.yaml'"),
        (8, "resource: unknown field 'resource' (did you mean 'resources'?)"),
        (15, "results[0].reslt: unknown field 'reslt' (did you mean 'result'?)"),
    }


def test_the_runner_fails_the_whole_file_naming_each_problem(tmp_path):
    test = tmp_path / "kyverno-test.yaml"
    test.write_text(FIXTURE.read_text())
    proc = run_cli(["kyverno", "test", str(tmp_path), "--format", "json"])
    assert proc.returncode == 1
    doc = json.loads(proc.stdout)
    (error,) = [f["error"] for f in doc["tests"] if f.get("error")]
    assert error.startswith(f"{test}: ")
    assert "resource: unknown field 'resource' (did you mean 'resources'?)" in error
    assert "results[0].reslt: unknown field 'reslt'" in error


def test_field_names_match_ignoring_case_as_the_cli_does(tmp_path):
    # Go's JSON decoder matches `isMUtatingPolicy` to isMutatingPolicy; the shared corpus has it
    test = tmp_path / "kyverno-test.yaml"
    test.write_text(
        FIXTURE.read_text()
        .replace("policies: kyverno-pass.yaml", "policies: [kyverno-pass.yaml]")
        .replace("resource:", "Resources:")
        .replace("reslt: fail", "Result: fail\n    isMUtatingPolicy: false")
    )
    proc = run_cli(["lint", "--format", "json", str(test)])
    assert json.loads(proc.stdout)["findings"] == [], proc.stdout


def test_values_context_and_userinfo_files_are_not_tests(tmp_path):
    # they share the cli.kyverno.io group but have fields of their own
    values = tmp_path / "values.yaml"
    values.write_text(
        "apiVersion: cli.kyverno.io/v1alpha1\nkind: Values\nmetadata: {name: v}\n"
        "namespaces: []\nglobalValues: {}\npolicies: []\n"
    )
    proc = run_cli(["lint", "--format", "json", str(values)])
    assert json.loads(proc.stdout)["findings"] == [], proc.stdout


def test_no_corpus_test_file_is_refused():
    corpus = SHARED / "corpora" / "kyverno-policies"
    if not corpus.is_dir():
        import pytest

        pytest.skip(f"{corpus} not found: ../shared is needed")
    # every file of the test folders: Values, Context and UserInfo files included
    files = sorted(str(p) for p in Path(corpus).rglob(".kyverno-test/*.yaml"))
    files += sorted(str(p) for p in Path(corpus).rglob("kyverno-test.yaml"))
    assert len(files) > 400
    proc = run_cli(["lint", "--enable", "KYV010", "-q", "--format", "json", *files], timeout=300)
    assert proc.returncode == 0, proc.stdout[:2000]
    assert json.loads(proc.stdout)["findings"] == []
