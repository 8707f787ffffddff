"""`itbench kyverno test|apply`, bad input, and the engine as the offline cluster's report producer."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests._support.cli import SHARED, run_cli

POLICY = """apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: no-host-network}
spec:
  background: true
  rules:
    - name: host-network
      match: {any: [{resources: {kinds: [Pod]}}]}
      validate:
        message: "hostNetwork is not allowed"
        pattern: {spec: {"=(hostNetwork)": "false"}}
"""
RESOURCES = """apiVersion: v1
kind: Pod
metadata: {name: bad}
spec: {hostNetwork: true, containers: [{name: c, image: nginx}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: good}
spec: {template: {spec: {containers: [{name: c, image: nginx}]}}}
"""


def _suite(tmp_path: Path, expected_bad: str = "fail") -> Path:
    folder = tmp_path / "suite" / ".kyverno-test"
    folder.mkdir(parents=True)
    (tmp_path / "suite" / "policy.yaml").write_text(POLICY)
    (folder / "resources.yaml").write_text(RESOURCES)
    (folder / "kyverno-test.yaml").write_text(
        "apiVersion: cli.kyverno.io/v1alpha1\nkind: Test\nmetadata: {name: t}\npolicies: [../policy.yaml]\nresources: [resources.yaml]\nresults:\n"
        f"  - {{policy: no-host-network, rule: host-network, kind: Pod, resources: [bad], result: {expected_bad}}}\n"
        "  - {policy: no-host-network, rule: host-network, kind: Deployment, resources: [good], result: pass}\n"
    )
    return tmp_path / "suite"


def test_test_command_passes_and_fails(tmp_path):
    proc = run_cli(["kyverno", "test", str(_suite(tmp_path)), "--format", "json"])
    assert proc.returncode == 0, proc.stdout
    doc = json.loads(proc.stdout)
    assert doc["summary"] == {"passed": 2, "failed": 0, "excluded": 0, "skipped": 0, "errors": 0}
    results = {
        (r["kind"], r["resource"]): (r["expected"], r["actual"]) for r in doc["tests"][0]["results"]
    }
    assert results == {("Pod", "bad"): ("fail", "fail"), ("Deployment", "good"): ("pass", "pass")}
    wrong = run_cli(["kyverno", "test", str(_suite(tmp_path / "w", "pass"))])
    assert wrong.returncode == 1 and "1 failed" in wrong.stdout


def test_malformed_test_file_is_reported_not_a_traceback(tmp_path):
    suite = _suite(tmp_path)
    (suite / ".kyverno-test" / "resources.yaml").write_text("kind: [unclosed\n")
    proc = run_cli(["kyverno", "test", str(suite), "--format", "json"])
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    (entry,) = json.loads(proc.stdout)["tests"]
    assert "resources.yaml: not valid YAML" in entry["error"]


def test_apply_prints_results_and_reports(tmp_path):
    (tmp_path / "p.yaml").write_text(POLICY)
    (tmp_path / "r.yaml").write_text(RESOURCES)
    apply = ["kyverno", "apply", str(tmp_path / "p.yaml"), "--resource", str(tmp_path / "r.yaml")]
    proc = run_cli([*apply, "--format", "json"])
    assert proc.returncode == 1
    statuses = {(r["rule"], r["name"]): r["status"] for r in json.loads(proc.stdout)}
    assert statuses == {("host-network", "bad"): "fail", ("autogen-host-network", "good"): "pass"}
    reports = json.loads(run_cli([*apply, "--policy-report", "--format", "json"]).stdout)
    assert sorted((r["scope"]["name"], r["summary"]["fail"]) for r in reports) == [
        ("bad", 1),
        ("good", 0),
    ]


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")
def test_engine_as_the_clusters_report_producer(tmp_path):
    """The ITBench kyverno class end to end: deploy the policy with kubectl, read the PolicyReport."""
    from ciso.engines.kyverno.reports import policy_reports
    from itbench.cluster import start_cluster

    manifests = SHARED / "corpora" / "itbench" / "ciso" / "1.gen-cis-b-k8s-kyverno" / "manifests"
    example = (
        SHARED
        / "corpora"
        / "itbench"
        / "ciso"
        / "1.gen-cis-b-k8s-kyverno"
        / "examples"
        / "example_policy.yaml"
    )
    if not manifests.exists():
        pytest.skip("../shared is absent")
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "KUBECACHEDIR": str(tmp_path / "cache"),
    }
    with start_cluster(manifests, report_producer=policy_reports) as cluster:
        kc = ["kubectl", "--kubeconfig", str(cluster.kubeconfig_path)]
        subprocess.run([*kc, "apply", "-f", str(example)], check=True, capture_output=True, env=env)
        reports = json.loads(
            subprocess.run(
                [*kc, "get", "polr", "-A", "-o", "json"],
                check=True,
                capture_output=True,
                text=True,
                env=env,
            ).stdout
        )["items"]
    deployment = [r for r in reports if r["scope"]["kind"] == "Deployment"]
    assert len(deployment) == 1 and deployment[0]["summary"]["fail"] > 0
    assert deployment[0]["results"][0]["policy"] == "disallow-host-namespaces"


MUTATING_POLICY = """apiVersion: policies.kyverno.io/v1alpha1
kind: MutatingPolicy
metadata: {name: cel-add-label}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
  mutations:
    - patchType: ApplyConfiguration
      applyConfiguration:
        expression: "Object{metadata: Object.metadata{labels: {'a': 'b'}}}"
"""


def _test_file(folder: Path, policy: str, results: str, resources: str = RESOURCES) -> Path:
    """A kyverno-test.yaml beside its policy and resources; ``results`` is the YAML list body."""
    folder.mkdir(parents=True)
    (folder / "policy.yaml").write_text(policy)
    (folder / "resources.yaml").write_text(resources)
    test = folder / "kyverno-test.yaml"
    test.write_text(
        "apiVersion: cli.kyverno.io/v1alpha1\nkind: Test\nmetadata: {name: t}\n"
        "policies: [policy.yaml]\nresources: [resources.yaml]\nresults:\n" + results
    )
    return test


def _cel_only(tmp_path: Path) -> Path:
    """A folder whose one expectation is skipped: every policy kind is evaluated now, so the
    skip is the CLI's other one, a patched manifest that lacks the resource."""
    test = _test_file(
        tmp_path / "cel",
        MUTATING_POLICY,
        "  - {isMutatingPolicy: true, policy: cel-add-label, kind: Pod, resources: [bad],"
        " patchedResources: patched.yaml, result: pass}\n",
    )
    (test.parent / "patched.yaml").write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: other, labels: {a: b}}\n"
    )
    return test.parent


def test_a_cel_only_folder_says_nothing_was_evaluated(tmp_path):
    folder = _cel_only(tmp_path)
    proc = run_cli(["kyverno", "test", str(folder)])
    assert proc.returncode == 1, proc.stdout
    assert "nothing evaluated (agreement n/a)" in proc.stdout
    assert "100.0%" not in proc.stdout
    assert "nothing evaluated: 1 expectation(s) skipped" in proc.stderr
    doc = json.loads(run_cli(["kyverno", "test", str(folder), "--format", "json"]).stdout)
    assert doc["agreement"] is None and doc["evaluated"] == 0
    assert doc["summary"]["skipped"] == 1 and doc["verdict"]["ok"] is False
    assert run_cli(["kyverno", "test", str(folder), "--allow-empty"]).returncode == 0


def test_a_folder_without_tests_says_so_and_fails_unless_allowed(tmp_path):
    (tmp_path / "empty").mkdir()
    proc = run_cli(["kyverno", "test", str(tmp_path / "empty")])
    assert proc.returncode == 1 and "no kyverno-test.yaml found" in proc.stderr
    assert run_cli(["kyverno", "test", str(tmp_path / "empty"), "--allow-empty"]).returncode == 0


def _excluded(tmp_path: Path) -> Path:
    # the policy matches Pods only, so a Service gets no rule response where fail is expected
    service = "apiVersion: v1\nkind: Service\nmetadata: {name: svc}\nspec: {ports: [{port: 80}]}\n"
    return _test_file(
        tmp_path / "excluded",
        POLICY,
        "  - {policy: no-host-network, rule: host-network, kind: Service, resources: [svc], result: fail}\n"
        "  - {policy: no-host-network, rule: host-network, kind: Pod, resources: [bad], result: fail}\n",
        RESOURCES + "---\n" + service,
    )


def test_excluded_expectations_warn_and_fail_only_with_strict(tmp_path):
    test = _excluded(tmp_path)
    proc = run_cli(["kyverno", "test", str(test)])
    assert proc.returncode == 0, proc.stdout
    assert "1 passed, 0 failed, 1 excluded" in proc.stdout
    assert "warning: 1 excluded expectation(s)" in proc.stderr
    strict = run_cli(["kyverno", "test", str(test), "--strict"])
    assert strict.returncode == 1 and "(--strict)" in strict.stderr


def _not_found(tmp_path: Path) -> Path:
    return _test_file(
        tmp_path / "ghost",
        POLICY,
        "  - {policy: no-host-network, rule: host-network, kind: Pod, resources: [bad], result: fail}\n"
        "  - {policy: no-host-network, rule: host-network, kind: Pod, resources: [ghost], result: pass}\n",
    )


def test_a_result_naming_an_undeclared_resource_is_a_failure(tmp_path):
    proc = run_cli(["kyverno", "test", str(_not_found(tmp_path)), "--format", "json"])
    assert proc.returncode == 1
    outcomes = {
        r["resource"]: (r["outcome"], r["reason"])
        for r in json.loads(proc.stdout)["tests"][0]["results"]
    }
    assert outcomes == {
        "bad": ("passed", "Ok"),
        "ghost": ("failed", "resource not found"),
    }


def _passing(tmp_path: Path) -> Path:
    return _suite(tmp_path / "passing") / ".kyverno-test" / "kyverno-test.yaml"


def _failing(tmp_path: Path) -> Path:
    return _suite(tmp_path / "failing", "pass") / ".kyverno-test" / "kyverno-test.yaml"


@pytest.mark.parametrize(
    "make, fails",
    [
        (_passing, False),
        (_failing, True),
        (_excluded, False),
        (_not_found, True),
        (lambda tmp: _cel_only(tmp) / "kyverno-test.yaml", True),
    ],
    ids=["passing", "failing", "excluded", "resource-not-found", "cel-only"],
)
def test_lint_run_tests_and_kyverno_test_give_one_verdict(tmp_path, make, fails):
    test = make(tmp_path)
    kyverno = run_cli(["kyverno", "test", str(test)])
    lint = run_cli(["lint", "-q", "--format", "json", "--run-tests", str(test)])
    findings = [f for f in json.loads(lint.stdout)["findings"] if f["rule"] == "KYV008"]
    assert (kyverno.returncode == 1) is fails, kyverno.stdout + kyverno.stderr
    assert bool(findings) is fails, findings
    assert lint.returncode == kyverno.returncode, (lint.stdout, kyverno.stdout)
