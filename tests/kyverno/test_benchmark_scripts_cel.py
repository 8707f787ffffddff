"""The CEL benchmark scripts: benchmarks/kyverno_cel_throughput.py (the pod-security controls as
classic rules, validate.cel and ValidatingPolicy on the same resources) and
benchmarks/kyverno_cli_tests.py (``itbench kyverno test`` per test folder of a Kyverno-style
test tree), each run as a user runs it and judged on the JSON document it prints."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests._support.cli import SHARED

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
POD_SECURITY = SHARED / "corpora" / "kyverno-policies" / "pod-security"
FORMS = ("classic", "cel", "vpol")


def _run(script: str, *args: str, timeout: float = 300) -> tuple[int, dict[str, Any], str]:
    proc = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    document = json.loads(proc.stdout) if proc.stdout.strip() else {}
    return proc.returncode, document, proc.stderr


@pytest.fixture(scope="module")
def throughput() -> dict[str, Any]:
    if not POD_SECURITY.is_dir():
        pytest.skip(f"../shared is absent: {POD_SECURITY} not found")
    code, document, stderr = _run(
        "kyverno_cel_throughput.py", "--resources", "20", "--repeats", "1"
    )
    assert code == 0, stderr
    return document


def test_throughput_reports_every_form_with_its_figures(throughput: dict[str, Any]) -> None:
    assert throughput["benchmark"] == "kyverno_cel_throughput"
    assert throughput["resources"] == 20
    assert throughput["resource_kinds"] == {"Pod": 10, "Deployment": 10}
    assert set(throughput["forms"]) == set(FORMS)
    for name, form in throughput["forms"].items():
        assert form["policies"] > 0, name
        # every policy of every form matches Pods and, through autogen, Deployments
        assert form["evaluations"] >= form["policies"] * 20, name
        assert sum(form["statuses"].values()) == form["evaluations"], name
        assert set(form["statuses"]) <= {"pass", "fail"}, (name, form["statuses"])
        assert form["statuses"].get("fail", 0) > 0, name  # the planted violations are caught
        assert form["cpu_s"] > 0 and form["evaluations_per_cpu_s"] > 0, name
        assert form["us_per_evaluation"] == pytest.approx(
            form["cpu_s"] / form["evaluations"] * 1e6, rel=0.01
        ), name
    assert throughput["forms"]["classic"]["cost_vs_classic"] == 1.0


def test_the_three_forms_agree_on_every_control_written_alike(
    throughput: dict[str, Any],
) -> None:
    agreement = throughput["agreement"]
    controls = agreement["controls"]
    paired = {c: e for c, e in controls.items() if e["agree"] is not None}
    assert agreement["paired_controls"] == len(paired) >= 16
    # the only controls without a twin: apparmor (classic only)
    assert agreement["unpaired_controls"] == ["restrict-apparmor-profiles"]
    assert controls["restrict-apparmor-profiles"]["forms"] == ["classic"]
    for control, entry in paired.items():
        assert entry["resources"] == 20, control
        if "policy_text_differs" in entry:
            continue
        assert entry["agree"], (control, entry["examples"])
        assert entry["agreeing"] == 20 and entry["disagreements"] == 0, control
        # a planted violation makes every such control fail somewhere and pass elsewhere
        assert entry["agreed_outcomes"].get("fail", 0) >= 1, (control, entry)
        assert entry["agreed_outcomes"].get("pass", 0) >= 1, (control, entry)
        assert all(count == 20 for count in entry["pairwise"].values()), (control, entry)
    assert controls["disallow-privileged-containers"]["forms"] == list(FORMS)
    assert controls["disallow-host-ports-range"]["forms"] == ["classic", "cel"]


def test_a_control_written_differently_is_reported_not_hidden(throughput: dict[str, Any]) -> None:
    entry = throughput["agreement"]["controls"]["restrict-seccomp-strict"]
    assert "seccompProfile" in entry["policy_text_differs"]
    # the two CEL forms carry the same expression: they agree with each other everywhere
    assert entry["pairwise"]["cel~vpol"] == 20
    assert entry["disagreements"] == 20 - entry["pairwise"]["classic~cel"] > 0
    assert entry["agree"] is False
    assert "restrict-seccomp-strict" in throughput["agreement"]["disagreeing_controls"]
    for example in entry["examples"]:
        assert example["cel"] == example["vpol"] != example["classic"], example


def test_throughput_rejects_a_size_below_one() -> None:
    code, document, stderr = _run("kyverno_cel_throughput.py", "--resources", "0")
    assert code == 2 and document == {}
    assert "--resources" in stderr


# -- kyverno_cli_tests.py on a small tree of our own, shaped like Kyverno's test/cli ------------

POLICY = """\
apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: require-team
spec:
  rules:
    - name: team-label
      match:
        any:
          - resources:
              kinds: [Pod]
      validate:
        message: a team label is required
        pattern:
          metadata:
            labels:
              team: "?*"
"""
RESOURCES = """\
apiVersion: v1
kind: Pod
metadata:
  name: labelled
  labels:
    team: a
spec:
  containers: [{name: c, image: nginx}]
---
apiVersion: v1
kind: Pod
metadata:
  name: unlabelled
spec:
  containers: [{name: c, image: nginx}]
"""


#: validate.manifests checks signatures on the manifest: never offline
UNSUPPORTED_POLICY = (
    POLICY.partition("      validate:")[0]
    + """\
      validate:
        manifests:
          attestors:
            - entries:
                - keys:
                    publicKeys: "-----BEGIN PUBLIC KEY-----\\n-----END PUBLIC KEY-----"
"""
)


def _test_file(expectations: list[tuple[str, str]], policy: str = "require-team") -> str:
    results = "".join(
        f"  - policy: {policy}\n    rule: team-label\n    kind: Pod\n"
        f"    resources: [{resource}]\n    result: {result}\n"
        for resource, result in expectations
    )
    return (
        "apiVersion: cli.kyverno.io/v1alpha1\nkind: Test\nmetadata:\n  name: t\n"
        f"policies: [policy.yaml]\nresources: [resources.yaml]\nresults:\n{results}"
    )


def _folder(root: Path, name: str, test: str, policy: str = POLICY) -> None:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "policy.yaml").write_text(policy)
    (folder / "resources.yaml").write_text(RESOURCES)
    (folder / "kyverno-test.yaml").write_text(test)


def test_cli_tests_counts_each_folder_and_groups_the_reasons(tmp_path: Path) -> None:
    root = tmp_path / "cli"
    _folder(root, "test/agrees", _test_file([("labelled", "pass"), ("unlabelled", "fail")]))
    _folder(root, "test/disagrees", _test_file([("labelled", "fail"), ("unlabelled", "fail")]))
    _folder(root, "test/unsupported", _test_file([("labelled", "pass")]), UNSUPPORTED_POLICY)
    _folder(root, "test/empty", _test_file([]).replace("results:\n", "results: []\n"))
    # Kyverno's CI expects this one to fail: a policy the test does not load
    _folder(root, "test-fail/missing-policy", _test_file([("labelled", "pass")], "no-such"))
    code, document, stderr = _run("kyverno_cli_tests.py", str(root), "--timeout", "120")
    assert code == 0, stderr
    folders = {row["folder"]: row for row in document["folders"]}
    assert set(folders) == {
        "test/agrees",
        "test/disagrees",
        "test/unsupported",
        "test/empty",
        "test-fail/missing-policy",
    }
    assert (folders["test/agrees"]["passed"], folders["test/agrees"]["failed"]) == (2, 0)
    assert folders["test/agrees"]["exit_code"] == 0
    assert (folders["test/disagrees"]["passed"], folders["test/disagrees"]["failed"]) == (1, 1)
    assert folders["test/disagrees"]["exit_code"] == 1
    missing = folders["test-fail/missing-policy"]
    assert missing["kyverno_expects"] == "fail" and missing["agrees"] is True
    # totals leave out the folder Kyverno expects to fail
    totals = document["totals"]
    assert folders["test/unsupported"]["errors"] == 1
    assert not any(folders["test/empty"][name] for name in ("passed", "failed", "errors"))
    assert totals["folders_without_expectations"] == 1
    assert (totals["folders"], totals["passed"], totals["failed"], totals["errors"]) == (4, 3, 1, 1)
    assert totals["evaluated"] == 5 and totals["agreement"] == 0.6
    # the unsupported feature leaves the second figure's denominator
    assert totals["errors_unsupported"] == 1 and totals["agreement_on_supported"] == 0.75
    [unsupported] = document["reasons"]["errors"]
    assert unsupported["reason"].startswith("unsupported: validate.manifests"), unsupported
    assert unsupported["examples"][0]["folder"] == "test/unsupported"
    assert document["expected_to_fail"] == {"folders": 1, "failed_as_kyverno_does": 1}
    [group] = document["reasons"]["failed"]
    assert group["reason"] == "Want fail, got pass" and group["count"] == 1
    [example] = group["examples"]
    assert example["folder"] == "test/disagrees"
    assert (example["resource"], example["expected"], example["actual"]) == (
        "labelled",
        "fail",
        "pass",
    )
    assert str(root) not in json.dumps(document["reasons"])  # paths are shown relative


def test_cli_tests_names_a_folder_without_tests(tmp_path: Path) -> None:
    code, document, stderr = _run("kyverno_cli_tests.py", str(tmp_path))
    assert code == 2 and document == {}
    assert str(tmp_path) in stderr and "kyverno-test.yaml" in stderr
    code, _, stderr = _run("kyverno_cli_tests.py", str(tmp_path / "absent"))
    assert code == 2 and "not a folder" in stderr
