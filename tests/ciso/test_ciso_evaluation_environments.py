"""The trial environments (a real offline cluster driven with real kubectl; RHEL inventories),
apiCall context answered from the environment, and the Kyverno CLI engine path (a recorded fake
`kyverno` on PATH, since none can be installed here)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from ciso.environments import APPLIED_FILE, trial_environment
from ciso.evaluation.kyverno_engines import _our_scan
from ciso.evaluation.report_reading import resource_results
from ciso.evaluation.trial import evaluate_trial
from ciso.scenarios.model import ScenarioClass
from tests._support.ciso import (
    AGENTS,
    FIXTURES,
    K8S,
    RHEL9,
    benchmark_scenario,
    ciso_scenario,
    kubectl_missing,
    trial_dir,
)

KYVERNO = benchmark_scenario(ciso_scenario(K8S, ScenarioClass.KYVERNO))


def kubectl(kubeconfig: str, *args: str, stdin: str | None = None) -> str:
    proc = subprocess.run(
        ["kubectl", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, KUBECONFIG=kubeconfig),
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.skipif(kubectl_missing() is not None, reason=str(kubectl_missing()))
def test_agent_deploys_a_policy_sees_reports_and_the_evaluator_reads_it_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ITBENCH_KYVERNO_ENGINE", "itbench")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    policy = (AGENTS / "kyverno" / "correct" / "policy.yaml").read_text()
    with trial_environment(KYVERNO, workspace) as env:
        assert env == {"KUBECONFIG": str(workspace / "kubeconfig.yaml")}
        names = kubectl(env["KUBECONFIG"], "get", "deploy", "-n", "paa", "-o", "name")
        assert names.split() == ["deployment.apps/web-hostnet", "deployment.apps/web-plain"]
        kubectl(env["KUBECONFIG"], "apply", "-f", "-", stdin=policy)
        reports = json.loads(kubectl(env["KUBECONFIG"], "get", "polr", "-A", "-o", "json"))
        failing = {
            (r["scope"]["kind"], r["scope"]["name"])
            for r in reports["items"]
            if r["summary"]["fail"]
        }
        assert ("Deployment", "web-hostnet") in failing
        assert ("CronJob", "backup-hostnet") in failing
        assert ("Deployment", "web-plain") not in failing
    applied = json.loads((workspace / APPLIED_FILE).read_text())
    assert [p["metadata"]["name"] for p in applied["applied"]] == ["disallow-host-network"]
    # the policy lives only in the cluster: the evaluator still finds and scores it
    result = evaluate_trial(KYVERNO, workspace)
    assert result.scores["strict_pass"] == 1
    assert result.details["environments"]["agent"]["policies"] == [
        "ClusterPolicy/disallow-host-network (cluster)"
    ]


def test_rhel9_environment_is_an_inventory_over_a_private_host_tree(tmp_path: Path) -> None:
    scenario = benchmark_scenario(ciso_scenario(RHEL9, ScenarioClass.RHEL9_ANSIBLE_OPA))
    with trial_environment(scenario, tmp_path) as env:
        inventory = Path(env["ITBENCH_INVENTORY"]).read_text()
        tree = Path(env["ITBENCH_HOST_TREE"])
    assert "[rhel9_servers]" in inventory and str(tree) in inventory
    config = tree / "etc" / "ssh" / "sshd_config"
    assert "X11Forwarding yes" in config.read_text()
    assert stat.S_IMODE(config.stat().st_mode) == 0o600


def test_opa_static_has_no_live_environment(tmp_path: Path) -> None:
    scenario = benchmark_scenario(ciso_scenario(K8S, ScenarioClass.OPA_STATIC))
    with trial_environment(scenario, tmp_path) as env:
        assert env == {}
    assert list(tmp_path.iterdir()) == []


SA_POLICY = {
    "apiVersion": "kyverno.io/v1",
    "kind": "ClusterPolicy",
    "metadata": {"name": "no-automount"},
    "spec": {
        "background": True,
        "rules": [
            {
                "name": "service-account-automount",
                "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
                "context": [
                    {
                        "name": "automount",
                        "apiCall": {
                            "urlPath": "/api/v1/namespaces/{{request.object.metadata.namespace}}"
                            "/serviceaccounts/{{request.object.spec.serviceAccountName}}",
                            "jmesPath": "automountServiceAccountToken",
                        },
                    }
                ],
                "validate": {
                    "message": "the Pod's ServiceAccount automounts its token",
                    "deny": {
                        "conditions": {
                            "any": [{"key": "{{ automount }}", "operator": "Equals", "value": True}]
                        }
                    },
                },
            }
        ],
    },
}


def _pod(name: str, account: str) -> dict:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": "paa"},
        "spec": {"serviceAccountName": account, "containers": [{"name": "c", "image": "nginx"}]},
    }


def test_api_calls_are_answered_from_the_environment() -> None:
    objects = [
        {
            "apiVersion": "v1",
            "kind": "ServiceAccount",
            "metadata": {"name": "automounting", "namespace": "paa"},
            "automountServiceAccountToken": True,
        },
        {
            "apiVersion": "v1",
            "kind": "ServiceAccount",
            "metadata": {"name": "opted-out", "namespace": "paa"},
            "automountServiceAccountToken": False,
        },
        _pod("uses-automounting", "automounting"),
        _pod("uses-opted-out", "opted-out"),
        _pod("uses-missing", "missing"),
    ]
    outcome = {
        r.resource.name: (r.result, r.message)
        for r in resource_results(_our_scan([SA_POLICY], objects))
    }
    assert outcome["uses-automounting"][0] == "fail"
    assert outcome["uses-opted-out"][0] == "pass"
    # no such ServiceAccount: the API answers 404 and the rule errors, as Kyverno's would
    assert outcome["uses-missing"][0] == "error"
    assert "404" in outcome["uses-missing"][1]


def test_list_api_calls_see_derived_objects() -> None:
    from ciso.environments.api_calls import answer
    from ciso.environments.kubernetes import state_of
    from itbench.cluster import load_manifests

    state = state_of(load_manifests(K8S / "violating"))
    code, body = answer(state, "/api/v1/namespaces/paa/pods?labelSelector=app%3Dweb-hostnet")
    assert code == 200 and body["kind"] == "PodList"
    assert [p["metadata"]["ownerReferences"][0]["kind"] for p in body["items"]] == ["ReplicaSet"]
    code, body = answer(state, "/apis/batch/v1/namespaces/paa/cronjobs/absent")
    assert code == 404 and body["reason"] == "NotFound"


# -- the Kyverno CLI engine -----------------------------------------------------------------------
@pytest.fixture
def fake_kyverno(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_dir = FIXTURES / "kyverno-cli"
    # the fake is a python3 script needing PyYAML: the virtual environment's python3 comes first
    path = os.pathsep.join([str(fake_dir), str(Path(sys.executable).parent), os.environ["PATH"]])
    monkeypatch.setenv("PATH", path)
    monkeypatch.setenv("ITBENCH_KYVERNO_ENGINE", "kyverno-cli")


@pytest.mark.parametrize(
    ("case", "scores"),
    [
        ("correct", {"itbench_pass": 1, "strict_pass": 1, "resource_recall": 1.0}),
        ("misses-tricky", {"itbench_pass": 1, "strict_pass": 0, "resource_recall": 0.5}),
    ],
)
def test_kyverno_cli_engine_decides_like_ours(
    tmp_path: Path, fake_kyverno: None, case: str, scores: dict
) -> None:
    result = evaluate_trial(KYVERNO, trial_dir(tmp_path, "kyverno", case))
    assert {k: result.scores[k] for k in scores} == scores
    assert result.details["engines"]["kyverno"] == "kyverno-cli Version: 1.13.4"


def test_every_kyverno_cli_recording_is_one_a_scan_asks_for(
    tmp_path: Path, fake_kyverno: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the recorded cases' scans, as the fake is asked for them: a recording nothing asks for
    # (record.py scanning an environment the evaluation never builds) is dead weight
    asked = tmp_path / "asked"
    monkeypatch.setenv("FAKE_KYVERNO_KEY_OUT", str(asked))
    for case in ("correct", "misses-tricky"):
        evaluate_trial(KYVERNO, trial_dir(tmp_path / case, "kyverno", case))
    recorded = {p.stem for p in (FIXTURES / "kyverno-cli" / "recordings").glob("*.json")}
    assert set(asked.read_text().split()) == recorded


def test_kyverno_cli_failure_is_the_reason(tmp_path: Path, fake_kyverno: None) -> None:
    result = evaluate_trial(KYVERNO, trial_dir(tmp_path, "kyverno", "too-broad"))  # no recording
    assert result.scores["itbench_pass"] == 0
    reason = result.details["failure"]["reason"]
    assert reason.startswith("kyverno apply exited 1 without a report: fake kyverno: no recording")


def test_kyverno_cli_requested_but_absent_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from ciso.evaluation.kyverno_engines import select_scanner
    from itbench.errors import UsageError

    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(UsageError, match="no kyverno executable is on PATH"):
        select_scanner("kyverno-cli")


def test_kyverno_cli_yaml_report_after_progress_lines_is_read() -> None:
    from ciso.evaluation.kyverno_engines import _report_documents

    printed = (
        "Applying 1 policy rule(s) to 2 resource(s)...\n"
        "apiVersion: wgpolicyk8s.io/v1alpha2\n"
        "kind: ClusterPolicyReport\n"
        "metadata: {name: merged}\n"
        "results:\n"
        "- {policy: p, rule: r, result: fail, resources: [{kind: Pod, name: a, namespace: n}]}\n"
    )
    (report,) = _report_documents(printed)
    assert [(r.resource.name, r.result) for r in resource_results([report])] == [("a", "fail")]
    assert _report_documents("pass: 0, fail: 0\n") is None
