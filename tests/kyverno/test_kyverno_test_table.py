"""``itbench kyverno test``'s table says why (issue 27): each failure's reason is in the table, a
fully passing run prints a summary line instead of an empty header, and a typo in ``kinds``
(the rule then matches nothing: ``excluded``) fails under ``--strict``, as CI runs it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests._support.cli import run_cli
from tests.kyverno.kyverno_test_file import TEST_HEADER, dump

POLICY = {
    "apiVersion": "kyverno.io/v1",
    "kind": "ClusterPolicy",
    "metadata": {"name": "no-host-network"},
    "spec": {
        "validationFailureAction": "Audit",
        "background": True,
        "rules": [
            {
                "name": "host-network",
                "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
                "validate": {
                    "message": "hostNetwork must not be true",
                    "pattern": {"spec": {"=(hostNetwork)": False}},
                },
            }
        ],
    },
}


def _pod(name: str, host_network: bool) -> dict:
    spec: dict = {"containers": [{"name": "c", "image": "nginx"}]}
    if host_network:
        spec["hostNetwork"] = True
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name}, "spec": spec}


def _folder(tmp_path: Path, bad_expected: str, kinds: tuple[str, ...] = ("Pod",)) -> Path:
    policy = {**POLICY, "spec": {**POLICY["spec"], "rules": [dict(POLICY["spec"]["rules"][0])]}}
    policy["spec"]["rules"][0]["match"] = {"any": [{"resources": {"kinds": list(kinds)}}]}
    (tmp_path / "policy.yaml").write_text(dump(policy))
    (tmp_path / "resources.yaml").write_text(dump(_pod("bad", True), _pod("good", False)))
    results = [
        {"policy": "no-host-network", "rule": "host-network", "resources": ["bad"],
         "kind": "Pod", "result": bad_expected},
        {"policy": "no-host-network", "rule": "host-network", "resources": ["good"],
         "kind": "Pod", "result": "pass"},
    ]  # fmt: skip
    test = {**TEST_HEADER, "policies": ["policy.yaml"], "resources": ["resources.yaml"]}
    (tmp_path / "kyverno-test.yaml").write_text(dump({**test, "results": results}))
    return tmp_path


def test_a_failure_shows_its_reason_in_the_table(tmp_path: Path) -> None:
    proc = run_cli(["kyverno", "test", str(_folder(tmp_path, "pass"))])
    assert proc.returncode == 1
    header, row = proc.stdout.splitlines()[:2]
    assert header.split()[-1] == "REASON"
    assert row.split()[:7] == [
        "kyverno-test.yaml", "no-host-network", "host-network", "Pod/bad", "pass", "fail",
        "failed",
    ]  # fmt: skip
    assert row.endswith(
        "validation error: hostNetwork must not be true. rule host-network failed at path "
        "/spec/hostNetwork/"
    )


def test_a_fully_passing_run_says_so(tmp_path: Path) -> None:
    proc = run_cli(["kyverno", "test", str(_folder(tmp_path, "fail"))])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == [
        "all 2 expectation(s) passed, in 1 test file(s)",
        "2 passed, 0 failed, 0 excluded, 0 skipped, 0 errors (agreement 100.0%)",
    ]


@pytest.mark.parametrize(("flags", "code"), [([], 0), (["--strict"], 1)])
def test_a_typo_in_kinds_is_excluded_with_its_reason_and_fails_strict(
    tmp_path: Path, flags: list[str], code: int
) -> None:
    proc = run_cli(["kyverno", "test", str(_folder(tmp_path, "fail", ("Pdo",))), *flags])
    assert proc.returncode == code, proc.stdout + proc.stderr
    rows = [line for line in proc.stdout.splitlines() if line.startswith("kyverno-test.yaml")]
    assert len(rows) == 2
    for row in rows:
        assert " excluded " in row and row.endswith("no rule response for this resource")
