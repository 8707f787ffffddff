"""The CISO suite through ``--executor ray`` gives the local executor's results, trial by trial:
one scenario of every class (the RHEL one runs Ansible in the bubblewrap sandbox inside a Ray
worker; the Kubernetes ones start an offline cluster per trial there), in both file modes."""

from __future__ import annotations

import importlib.util
import json
import os

import pytest

from tests._support.ciso import needs_sandbox
from tests._support.ray_cluster import by_trial, ray_args, run_suite

pytestmark = [
    pytest.mark.ray,
    pytest.mark.skipif(
        importlib.util.find_spec("ray") is None,
        reason="Ray is not installed: pip install 'itbench[ray]' (scripts/setup-venv.sh does)",
    ),
    needs_sandbox,
]

#: one built-in scenario per class; the suite's own test covers every scenario locally
ONE_PER_CLASS = (
    "cis-k8s-5.1.1-cluster-admin.kyverno",
    "cis-k8s-5.2.5-host-network.kubectl-opa",
    "cis-k8s-5.7.4-default-namespace.opa-static",
    "update-host-ports.kyverno-update",
    "cis-rhel9-3.2.1-ip-forward.rhel9-ansible-opa",
)
SCENARIOS = ",".join(ONE_PER_CLASS)


@pytest.mark.parametrize("files", ["shared", "transfer"])
def test_the_ciso_classes_through_ray_score_as_locally(ray_cluster, tmp_path, files):
    local = run_suite("ciso", SCENARIOS, tmp_path / "local", [])
    env = dict(os.environ, ITBENCH_RAY_FILES=files)
    remote = run_suite("ciso", SCENARIOS, tmp_path / "ray", ray_args(ray_cluster), env)
    assert set(by_trial(local)) == {(s, t) for s in ONE_PER_CLASS for t in ("1", "2")}
    for trial, outcome in by_trial(local).items():
        assert by_trial(remote)[trial] == outcome, trial
        scores, error = outcome
        # the baseline agent passes every built-in scenario: a Ray worker that could not run
        # the sandbox or the cluster would show here as an error, not as equal zeros
        assert error is None and scores["strict_pass"] == 1, trial
    assert remote["statistics"] == local["statistics"]
    assert remote["config"] == local["config"]
    for scenario in ONE_PER_CLASS:
        evaluation = json.loads((tmp_path / "ray" / scenario / "1" / "evaluation.json").read_text())
        assert evaluation["scenario_id"] == scenario
