"""The repository's kubectl-opa Rego policies read per resource agree with the Kyverno reference
policies on every resource of generated instances of the nine migration controls."""

from __future__ import annotations

import pytest
import yaml

from ciso.evaluation import rego_source
from ciso.evaluation.kyverno_engines import select_scanner
from ciso.evaluation.kyverno_migrate import generated_environments
from ciso.evaluation.report_reading import failed
from tests._support.ciso import MIGRATION_CONTROLS
from tests._support.cli import REPO

CONTROLS = MIGRATION_CONTROLS


@pytest.mark.parametrize("control", CONTROLS)
def test_rego_and_kyverno_references_agree_per_resource(control: str) -> None:
    policy = (REPO / "policies" / "rego" / control / "policy.rego").read_text()
    reference = list(
        yaml.safe_load_all((REPO / "policies" / "kyverno" / control / "policy.yaml").read_text())
    )
    scanner = select_scanner()
    cis_id = control.split("-")[2]
    envs = generated_environments(cis_id, f"test-rego-source/{control}", count=1)
    assert envs, control
    for name, objects in envs:
        want = failed(scanner.reports(reference, objects))
        got = rego_source.violations(policy, objects)
        assert sorted(map(str, got ^ want)) == [], name
        assert bool(got) == name.endswith("violating"), name
