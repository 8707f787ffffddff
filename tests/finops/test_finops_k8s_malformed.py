"""What an agent applies on a Kubernetes cost trial, through the real kubectl: malformed objects
get the API server's 422 and change nothing; objects that are valid but odd (no requests, no
metrics, a deleted workload, an alert with nonsense values) are modelled, never a crash of the
cost model (an InternalError from the reconciler)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from finops.k8s.scenario import generate
from finops.k8s.serve import serve_scenario
from finops.k8s.verdict import judge

pytestmark = pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
TARGET = "/spec/metrics/0/resource/target/averageUtilization"


def _strategic(resources: dict) -> list[str]:
    body = {
        "spec": {"template": {"spec": {"containers": [{"name": "api", "resources": resources}]}}}
    }
    return ["patch", "deployment", "api", "--type=strategic", "-p", json.dumps(body)]


def _merge(kind: str, body: dict) -> list[str]:
    return ["patch", kind, "api", "--type=merge", "-p", json.dumps(body)]


MALFORMED = {
    "hpa min above max": (
        _merge("hpa", {"spec": {"minReplicas": 500}}),
        "spec.maxReplicas: Invalid value: 40: must be greater than or equal to `minReplicas`",
    ),
    "hpa min zero": (
        _merge("hpa", {"spec": {"minReplicas": 0}}),
        "spec.minReplicas: Invalid value: 0: must be greater than or equal to 1",
    ),
    "hpa target negative": (
        ["patch", "hpa", "api", "--type=json", "-p",
         json.dumps([{"op": "replace", "path": TARGET, "value": -5}])],
        "spec.metrics[0].resource.target.averageUtilization: Invalid value: -5: must be greater than 0",
    ),
    "negative cpu request": (
        _strategic({"requests": {"cpu": "-100m"}}),
        'resources.requests[cpu]: Invalid value: "-100m": must be greater than or equal to 0',
    ),
    "negative memory request": (
        ["set", "resources", "deployment", "api", "--requests=memory=-1Gi"],
        'resources.requests[memory]: Invalid value: "-1Gi": must be greater than or equal to 0',
    ),
    "request above limit": (
        _strategic({"requests": {"cpu": "2"}, "limits": {"cpu": "1"}}),
        'resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
    ),
    "negative replicas": (
        _merge("deployment", {"spec": {"replicas": -2}}),
        "spec.replicas: Invalid value: -2: must be greater than or equal to 0",
    ),
}  # fmt: skip

ODD = {
    "requests removed": ["patch", "deployment", "api", "--type=json", "-p",
                         json.dumps([{"op": "remove", "path": "/spec/template/spec/containers/0/resources"}])],
    "zero requests and limits": ["set", "resources", "deployment", "api",
                                 "--requests=cpu=0,memory=0", "--limits=cpu=0,memory=0"],
    "metrics removed": ["patch", "hpa", "api", "--type=json", "-p",
                        json.dumps([{"op": "remove", "path": "/spec/metrics"}])],
    "hpa deleted": ["delete", "hpa", "api"],
    "deployment deleted": ["delete", "deployment", "api"],
    "alert nonsense": _merge("configmap", {"data": {"budgetPerDay": "-5", "variancePct": "abc"}}),
}  # fmt: skip


@pytest.fixture
def trial(tmp_path: Path):
    s = generate("hpa-target-low", 7)
    cluster, twin = serve_scenario(s, tmp_path / "kubeconfig")
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path),
           "KUBECONFIG": str(tmp_path / "kubeconfig")}  # fmt: skip

    def kubectl(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["kubectl", "-n", "shop", *args], capture_output=True, text=True, env=env, timeout=60
        )

    try:
        yield s, twin, kubectl
    finally:
        cluster.stop()


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_object_gets_the_api_servers_422(trial, case: str) -> None:
    s, twin, kubectl = trial
    args, message = MALFORMED[case]
    before = {k: kubectl("get", k, "api", "-o", "json").stdout for k in ("hpa", "deployment")}
    done = kubectl(*args)
    assert done.returncode == 1
    assert "is invalid" in done.stderr and message in done.stderr, done.stderr
    assert "InternalError" not in done.stderr
    assert twin.writes == 0
    for kind, text in before.items():
        assert json.loads(kubectl("get", kind, "api", "-o", "json").stdout) == json.loads(text)


@pytest.mark.parametrize("case", sorted(ODD))
def test_a_valid_but_odd_change_is_modelled_not_a_crash(trial, case: str) -> None:
    s, twin, kubectl = trial
    alert = ["patch", "configmap", "cost-alert"] if case == "alert nonsense" else None
    args = alert + ODD[case][3:] if alert else ODD[case]
    done = kubectl(*args)
    assert done.returncode == 0, done.stderr
    allocation = kubectl("get", "configmap", "opencost-allocation", "-o", "json")
    assert allocation.returncode == 0, allocation.stderr
    doc = json.loads(json.loads(allocation.stdout)["data"]["allocation.json"])
    assert doc["today"]["total"] >= 0
    scores = judge(s, twin.config, ("", "", "")).scores()
    assert set(scores) >= {"mitigation_pass", "slo_violations", "blast_radius"}
