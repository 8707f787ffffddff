"""PolicyReports carry the results of CEL policy kinds (before, they kept only ClusterPolicy and
Policy results and a ValidatingPolicy reported nothing): the source Kyverno gives each kind, and
a ValidatingPolicy that opts out of background scans reports nothing."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from tests._support.cli import run_cli

FIXTURE = Path(__file__).parent / "fixtures" / "cel-libraries"


def _reports(policy: Path) -> dict[str, dict]:
    args = ["kyverno", "apply", str(policy), "--resource", str(FIXTURE / "resources.yaml")]
    proc = run_cli([*args, "--policy-report", "--format", "json"])
    return {r["scope"]["name"]: r for r in json.loads(proc.stdout)}


def test_validating_policy_results_reach_policy_reports():
    names = {
        d["metadata"]["name"] for d in yaml.safe_load_all((FIXTURE / "resources.yaml").read_text())
    }
    reports = _reports(FIXTURE / "policy.yaml")
    assert set(reports) == names
    (entry,) = reports["outside-range"]["results"]
    assert entry["source"] == "KyvernoValidatingPolicy" and entry["result"] == "fail"
    assert entry["policy"] == "service-addresses"
    assert reports["good"]["summary"]["pass"] == 1


def test_a_policy_that_opts_out_of_background_scans_reports_nothing(tmp_path):
    opted_out = (
        (FIXTURE / "policy.yaml")
        .read_text()
        .replace(
            "  validationActions: [Audit]",
            "  validationActions: [Audit]\n  evaluation:\n    background:\n      enabled: false",
        )
    )
    assert opted_out != (FIXTURE / "policy.yaml").read_text()
    (tmp_path / "policy.yaml").write_text(opted_out)
    assert _reports(tmp_path / "policy.yaml") == {}
