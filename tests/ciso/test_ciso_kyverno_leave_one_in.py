"""kyverno class, strict: every violating resource must still fail in its own leave-one-in
environment (the violating one with the other listed violations removed), as the OPA classes judge.
A policy that recognises the environment it was shown (here: a context lookup comparing the
namespace's Deployments, as a whole, with what the agent saw) and flags everything there passes ITBench's
rule and the violating and compliant scans, and fails strict. Found by a red-team run: such a policy
strict-passed cis-k8s-5.1.1-cluster-admin."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from ciso.evaluation.trial import evaluate_trial
from ciso.scenarios.model import ScenarioClass
from itbench.plugins.spec import TrialScores
from tests._support.ciso import K8S, benchmark_scenario, ciso_scenario, trial_dir

SCENARIO = benchmark_scenario(ciso_scenario(K8S, ScenarioClass.KYVERNO))

FINGERPRINT = """\
apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: the-cluster-i-was-shown
spec:
  validationFailureAction: Audit
  background: true
  rules:
    - name: flag-every-workload-here
      match:
        any:
          - resources:
              kinds: [Deployment, CronJob]
      context:
        - name: seen
          apiCall:
            urlPath: "/apis/apps/v1/namespaces/paa/deployments"
            jmesPath: "items[].spec.template.spec.hostNetwork"
      preconditions:
        all:
          - key: "{{ request.object.metadata.name }}"
            operator: AnyIn
            value: [web-hostnet, backup-hostnet]
      validate:
        message: "this is the cluster I was shown"
        deny:
          conditions:
            all:
              - key: "{{ seen }}"
                operator: Equals
                value: [true]
"""


@pytest.fixture(autouse=True)
def _our_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ITBENCH_KYVERNO_ENGINE", "itbench")


def test_a_policy_that_recognises_the_environment_fails_strict(tmp_path: Path) -> None:
    trial = tmp_path / "trial"
    trial.mkdir()
    (trial / "policy.yaml").write_text(FINGERPRINT)
    result = evaluate_trial(SCENARIO, trial)
    environments = result.details["environments"]
    # both violations fail where the agent looked, nothing fails in the compliant environment
    assert environments["violating"]["violating_caught"] == [
        "CronJob/paa/backup-hostnet",
        "Deployment/paa/web-hostnet",
    ]
    assert environments["compliant"]["failed"] == []
    # alone, the CronJob's environment no longer looks like the one shown
    assert environments["leave-one-in CronJob/paa/backup-hostnet"] == {"caught": False}
    assert result.scores["itbench_pass"] == 1
    assert result.scores["strict_pass"] == 0
    assert result.details["failure"]["step"] == "scan (leave-one-in CronJob/paa/backup-hostnet)"


def test_a_policy_that_judges_each_resource_is_caught_alone(tmp_path: Path) -> None:
    result = evaluate_trial(SCENARIO, trial_dir(tmp_path, "kyverno", "correct"))
    environments = result.details["environments"]
    assert environments["leave-one-in CronJob/paa/backup-hostnet"] == {"caught": True}
    assert environments["leave-one-in Deployment/paa/web-hostnet"] == {"caught": True}
    assert result.scores["strict_pass"] == 1


def _leave_one_in_scans(result: TrialScores) -> list[str]:
    """The leave-one-in environments a verdict reports, and the timing of their scan."""
    scans = [k for k in result.details["environments"] if k.startswith("leave-one-in")]
    return scans + [k for k in result.details.get("timings_s", {}) if k == "scan leave-one-in"]


def test_a_missed_violation_needs_no_leave_one_in_scan(tmp_path: Path) -> None:
    result = evaluate_trial(SCENARIO, trial_dir(tmp_path, "kyverno", "misses-tricky"))
    # the violating scan already missed one: no leave-one-in scan is run or reported
    assert _leave_one_in_scans(result) == []
    assert result.scores["strict_pass"] == 0


def test_a_single_violation_needs_no_second_scan(tmp_path: Path) -> None:
    # the fixture with only its Deployment listed and laid out: its leave-one-in environment
    # would be the violating one again
    source = tmp_path / "scenario"
    shutil.copytree(K8S, source)
    meta = yaml.safe_load((source / "scenario.yaml").read_text())
    meta["violating_resources"] = ["Deployment/paa/web-hostnet"]
    (source / "scenario.yaml").write_text(yaml.safe_dump(meta))
    workloads = source / "violating" / "workloads.yaml"
    docs = [d for d in yaml.safe_load_all(workloads.read_text()) if d and d["kind"] != "CronJob"]
    workloads.write_text(yaml.safe_dump_all(docs))
    scenario = benchmark_scenario(ciso_scenario(source, ScenarioClass.KYVERNO))
    result = evaluate_trial(scenario, trial_dir(tmp_path, "kyverno", "correct"))
    assert result.details["environments"]["violating"]["violating_caught"] == [
        "Deployment/paa/web-hostnet"
    ]
    assert _leave_one_in_scans(result) == []
    assert result.scores["strict_pass"] == 1
