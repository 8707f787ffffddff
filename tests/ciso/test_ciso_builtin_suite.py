"""The built-in CISO suite itself: its size and coverage as the issue pins them, every reference
answer passing its own scenario strictly through the real CLI, lint clean on both reference
folders, and every reference Rego test passing."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
import yaml

from tests._support.ciso import kubectl_missing, needs_sandbox
from tests._support.cli import REPO, run_cli

SUITE = REPO / "ciso" / "suite"
POLICIES = REPO / "policies"
PLAYBOOKS = REPO / "playbooks"


def _scenario_files(platform: str) -> list[Path]:
    return sorted((SUITE / platform).glob("*/scenario.yaml"))


def test_suite_covers_the_controls_the_issue_asks_for() -> None:
    k8s = [yaml.safe_load(p.read_text()) for p in _scenario_files("kubernetes")]
    rhel = [yaml.safe_load(p.read_text()) for p in _scenario_files("rhel9")]
    updates = sorted((SUITE / "kyverno-update").glob("*/eval_config.yaml"))
    assert len(k8s) + len(rhel) + len(updates) >= 50
    assert len({s["cis_id"] for s in k8s}) >= 25
    assert len({s["cis_id"] for s in rhel}) >= 15
    assert len(updates) >= 5
    migrations = {p.name for p in (REPO / "policies" / "kyverno-cel").iterdir() if p.is_dir()}
    assert len(migrations) == 9
    for scenario in k8s:
        classes = ["kyverno", "kubectl-opa", "opa-static"]
        if scenario["id"] in migrations:  # a ValidatingPolicy answer exists: the migration too
            classes.append("kyverno-migrate")
        assert scenario["classes"] == classes, scenario["id"]
        assert scenario["cis_id"].startswith("5."), scenario["id"]
    sections = Counter(s["cis_id"].rsplit(".", 1)[0] for s in k8s)
    # 5.1 RBAC and service accounts, 5.2 pod security, 5.3 network policies, 5.4 secrets, 5.7 general
    assert set(sections) >= {"5.1", "5.2", "5.3", "5.4", "5.7"}, sections


@pytest.mark.parametrize("platform", ["kubernetes", "rhel9"])
def test_every_scenario_has_a_tricky_violation_and_a_compliant_side(platform: str) -> None:
    for path in _scenario_files(platform):
        scenario = yaml.safe_load(path.read_text())
        assert scenario["violating_resources"], path
        assert scenario.get("notes"), f"{path}: notes should explain the tricky cases"
        assert any((path.parent / "compliant").rglob("*")), path


def test_reference_folders_are_lint_clean() -> None:
    proc = run_cli(
        ["lint", "--profile", "itbench", "--format", "json", str(POLICIES), str(PLAYBOOKS)],
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]


def _rego_folders() -> list[Path]:
    folders = {p.parent for p in POLICIES.rglob("*_test.rego")}
    folders |= {p.parent for p in PLAYBOOKS.rglob("*_test.rego")}
    return sorted(folders)


@pytest.mark.parametrize("folder", _rego_folders(), ids=lambda p: p.name)
def test_every_reference_rego_test_passes(folder: Path) -> None:
    # name the .rego files: a playbook beside them is YAML that `opa test DIR` would read as data
    files = [str(p) for p in sorted(folder.glob("*.rego"))]
    proc = run_cli(["rego", "test", *files], timeout=120)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "FAIL" not in proc.stdout.replace("FAIL: 0", "")


@pytest.mark.slow
@needs_sandbox
@pytest.mark.skipif(kubectl_missing() is not None, reason=str(kubectl_missing()))
def test_oracle_passes_every_builtin_scenario_strictly(tmp_path: Path) -> None:
    out = tmp_path / "oracle"
    proc = run_cli(
        ["ciso", "run", "--agent", "oracle", "-j", "2", "--output", str(out), "--no-progress"],
        timeout=1200,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    document = json.loads((out / "results.json").read_text())
    listed = run_cli(["ciso", "scenarios", "--format", "json"])
    expected = {s["id"] for s in json.loads(listed.stdout)["scenarios"]}
    by_id = {r["incident_id"]: r for r in document["raw_results"]}
    assert set(by_id) == expected
    for scenario_id, entry in sorted(by_id.items()):
        assert "error" not in entry, (scenario_id, entry.get("error"))
        assert entry["scores"]["itbench_pass"] == 1, scenario_id
        assert entry["scores"]["strict_pass"] == 1, scenario_id
        for metric in ("resource_recall", "resource_precision"):
            if metric in entry["scores"]:
                assert entry["scores"][metric] == 1, (scenario_id, metric)
