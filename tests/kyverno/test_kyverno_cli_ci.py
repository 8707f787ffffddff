"""`itbench kyverno` in CI: empty applies are loud, test results as JUnit and SARIF, readable paths."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from ciso.engines.kyverno.engine import EVALUATED_POLICY_KINDS
from tests._support.cli import run_cli

POLICY = """apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: no-host-network}
spec:
  rules:
    - name: host-network
      match: {any: [{resources: {kinds: [Pod]}}]}
      validate:
        message: "hostNetwork is not allowed"
        pattern: {spec: {"=(hostNetwork)": "false"}}
"""
POD = """apiVersion: v1
kind: Pod
metadata: {name: bad}
spec: {hostNetwork: true, containers: [{name: c, image: nginx}]}
"""
GOOD_POD = """apiVersion: v1
kind: Pod
metadata: {name: good}
spec: {containers: [{name: c, image: nginx}]}
"""
CONFIGMAP = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata: {a: b}\n"


def _files(tmp_path: Path, **contents: str) -> dict[str, Path]:
    paths = {}
    for name, text in contents.items():
        paths[name] = tmp_path / f"{name}.yaml"
        paths[name].write_text(text)
    return paths


@pytest.mark.parametrize(
    ("policy", "resource", "warning"),
    [
        ("", POD, "no Kyverno policy ({kinds}) in {policy}"),
        (CONFIGMAP, POD, "no Kyverno policy ({kinds}) in {policy}"),
        (POLICY, "", "no resource in {resource}"),
        (POLICY, CONFIGMAP, "no rule of 1 policy(ies) matched any of 1 resource(s)"),
    ],
    ids=["empty-policy-file", "no-policy-kind", "empty-resource-file", "nothing-matched"],
)
def test_apply_that_checks_nothing_warns_and_fails_on_request(tmp_path, policy, resource, warning):
    files = _files(tmp_path, policy=policy, resource=resource)
    args = ["kyverno", "apply", str(files["policy"]), "--resource", str(files["resource"])]
    kinds = ", ".join(EVALUATED_POLICY_KINDS)
    expected = "warning: " + warning.format(kinds=kinds, **{k: str(v) for k, v in files.items()})
    plain = run_cli(args)
    assert plain.returncode == 0, plain.stderr
    assert any(line.startswith(expected) for line in plain.stderr.splitlines()), plain.stderr
    strict = run_cli([*args, "--fail-on-empty"])
    assert strict.returncode == 1, strict.stderr
    assert any(line.startswith(expected) for line in strict.stderr.splitlines())


def test_a_cel_policy_alone_is_a_policy_for_the_warning(tmp_path):
    # before: a ValidatingPolicy file was evaluated and still warned "no Kyverno policy"
    fixture = Path(__file__).parent / "fixtures" / "cel-libraries"
    proc = run_cli(
        ["kyverno", "apply", str(fixture / "policy.yaml"), "--resource"]
        + [str(fixture / "resources.yaml"), "--fail-on-empty"]
    )
    assert "warning" not in proc.stderr, proc.stderr
    assert "ValidatingPolicy" in EVALUATED_POLICY_KINDS
    assert proc.returncode == 1  # four of the five Services fail the policy


def test_apply_that_matched_something_does_not_warn(tmp_path):
    files = _files(tmp_path, policy=POLICY, resource=GOOD_POD)
    proc = run_cli(
        [
            "kyverno",
            "apply",
            str(files["policy"]),
            "--resource",
            str(files["resource"]),
            "--fail-on-empty",
        ]
    )
    assert proc.returncode == 0, proc.stderr
    assert "warning" not in proc.stderr
    assert "PASS" in proc.stdout


def _suite(root: Path, name: str, expected_bad: str) -> Path:
    """root/<name>/policy.yaml with root/<name>/.kyverno-test/kyverno-test.yaml."""
    folder = root / name / ".kyverno-test"
    folder.mkdir(parents=True)
    (root / name / "policy.yaml").write_text(POLICY)
    (folder / "resources.yaml").write_text(POD + "---\n" + GOOD_POD)
    (folder / "kyverno-test.yaml").write_text(
        "apiVersion: cli.kyverno.io/v1alpha1\nkind: Test\nmetadata: {name: t}\n"
        "policies: [../policy.yaml]\nresources: [resources.yaml]\nresults:\n"
        f"  - {{policy: no-host-network, rule: host-network, kind: Pod, resources: [bad],"
        f" result: {expected_bad}}}\n"
        "  - {policy: no-host-network, rule: host-network, kind: Pod, resources: [good],"
        " result: pass}\n"
    )
    return folder / "kyverno-test.yaml"


def test_table_file_column_is_relative_to_the_argument(tmp_path):
    _suite(tmp_path / "tree", "right", "fail")
    _suite(tmp_path / "tree", "wrong", "pass")
    proc = run_cli(["kyverno", "test", str(tmp_path / "tree"), "--detailed"])
    assert proc.returncode == 1
    rows = [line.split() for line in proc.stdout.splitlines()[1:] if line.strip()][:4]
    files = {row[0] for row in rows}
    assert files == {
        "right/.kyverno-test/kyverno-test.yaml",
        "wrong/.kyverno-test/kyverno-test.yaml",
    }
    # a test file given directly is shown as given
    single = _suite(tmp_path / "one", "x", "fail")
    proc = run_cli(["kyverno", "test", str(single), "--detailed"])
    assert proc.stdout.splitlines()[1].split()[0] == str(single)


def test_junit_has_one_suite_per_file_and_a_failure_per_wrong_expectation(tmp_path):
    _suite(tmp_path, "right", "fail")
    _suite(tmp_path, "wrong", "pass")
    proc = run_cli(["kyverno", "test", str(tmp_path), "--format", "junit"])
    assert proc.returncode == 1
    root = ET.fromstring(proc.stdout)
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("4", "1", "0")
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert set(suites) == {
        "right/.kyverno-test/kyverno-test.yaml",
        "wrong/.kyverno-test/kyverno-test.yaml",
    }
    assert suites["right/.kyverno-test/kyverno-test.yaml"].get("failures") == "0"
    (failure,) = suites["wrong/.kyverno-test/kyverno-test.yaml"].iter("failure")
    assert failure.get("message").startswith("expected pass, got fail")
    failed_case = next(c for c in root.iter("testcase") if c.find("failure") is not None)
    assert failed_case.get("name") == "no-host-network/host-network Pod/bad"


def test_sarif_lists_only_what_did_not_hold_at_its_test_file(tmp_path):
    _suite(tmp_path, "right", "fail")
    _suite(tmp_path, "wrong", "pass")
    proc = run_cli(["kyverno", "test", str(tmp_path), "--format", "sarif"])
    assert proc.returncode == 1
    run = json.loads(proc.stdout)["runs"][0]
    (result,) = run["results"]
    assert result["ruleId"] == "no-host-network/host-network"
    assert result["level"] == "error"
    assert result["message"]["text"].startswith("Pod/bad: failed")
    uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "wrong/.kyverno-test/kyverno-test.yaml"
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
    passing = run_cli(["kyverno", "test", str(tmp_path / "right"), "--format", "sarif"])
    assert passing.returncode == 0 and json.loads(passing.stdout)["runs"][0]["results"] == []


def test_a_test_file_with_no_expectation_is_named(tmp_path):
    empty = tmp_path / "kyverno-test.yaml"
    empty.write_text("apiVersion: cli.kyverno.io/v1alpha1\nkind: Test\nmetadata: {name: t}\n")
    proc = run_cli(["kyverno", "test", str(empty)])
    assert proc.returncode == 1
    assert f"warning: {empty}: no expectation to check" in proc.stderr
