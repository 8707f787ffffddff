"""A Kubernetes cost scenario on the offline cluster, through the real kubectl: what an agent
reads agrees (HPA status, Deployments, pods, OpenCost's allocation), a change is reconciled at
once, malformed objects get the API server's 422, and the agents are judged per family."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from finops.k8s.agents import AGENTS, Kubectl
from finops.k8s.scenario import FAMILIES, generate
from finops.k8s.serve import serve_scenario
from finops.k8s.verdict import judge

pytestmark = pytest.mark.skipif(
    shutil.which("kubectl") is None, reason="kubectl is not installed here"
)


@pytest.fixture
def served(tmp_path):
    s = generate("hpa-target-low", 5)
    cluster, twin = serve_scenario(s, tmp_path / "kc")
    try:
        yield s, cluster, twin
    finally:
        cluster.stop()


def kubectl(cluster, tmp_path, *args):
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "KUBECONFIG": str(cluster.kubeconfig_path),
    }
    return subprocess.run(
        ["kubectl", "-n", "shop", *args], capture_output=True, text=True, env=env, timeout=60
    )


def allocation(cluster, tmp_path):
    cm = json.loads(
        kubectl(cluster, tmp_path, "get", "cm", "opencost-allocation", "-o", "json").stdout
    )
    return json.loads(cm["data"]["allocation.json"])


def test_reads_agree_and_a_fix_is_reconciled(served, tmp_path):
    s, cluster, twin = served
    doc = allocation(cluster, tmp_path)
    assert doc["alert"]["firing"] is True
    api = doc["workloads"]["api"]
    table = kubectl(cluster, tmp_path, "get", "hpa", "api").stdout.split("\n")
    assert table[0].split() == [
        "NAME",
        "REFERENCE",
        "TARGETS",
        "MINPODS",
        "MAXPODS",
        "REPLICAS",
        "AGE",
    ]
    row = table[1].split()
    assert row[-2] == str(api["replicas"])  # the HPA's replicas are the allocation's
    target = s.incident.workload("api").hpa.targets[0][1]
    assert f"/{target}%" in table[1]
    pods = kubectl(cluster, tmp_path, "get", "pods", "-l", "app=api", "-o", "name").stdout.split()
    assert len(pods) == api["replicas"]
    dep = json.loads(kubectl(cluster, tmp_path, "get", "deploy", "api", "-o", "json").stdout)
    assert dep["status"]["readyReplicas"] == api["replicas"]

    patch = (
        '[{"op":"replace","path":"/spec/metrics/0/resource/target/averageUtilization","value":75}]'
    )
    assert (
        kubectl(cluster, tmp_path, "patch", "hpa", "api", "--type=json", "-p", patch).returncode
        == 0
    )
    after = allocation(cluster, tmp_path)
    assert after["workloads"]["api"]["replicas"] < api["replicas"]
    assert after["alert"]["firing"] is False
    assert judge(s, twin.config).mitigation_pass


def test_malformed_objects_get_422_and_the_model_carries_on(served, tmp_path):
    s, cluster, twin = served
    bad = kubectl(
        cluster,
        tmp_path,
        "patch",
        "hpa",
        "api",
        "--type=merge",
        "-p",
        '{"spec":{"minReplicas":99}}',
    )
    assert bad.returncode == 1 and "must be greater than or equal to `minReplicas`" in bad.stderr
    neg = kubectl(cluster, tmp_path, "set", "resources", "deploy", "api", "--requests=cpu=-100m")
    assert neg.returncode == 1 and "must be greater than or equal to 0" in neg.stderr
    assert twin.config == s.incident  # nothing refused reached the model
    assert allocation(cluster, tmp_path)["alert"]["firing"] is True


def test_deleting_the_alert_silences_nothing(served, tmp_path):
    s, cluster, twin = served
    assert kubectl(cluster, tmp_path, "delete", "cm", "cost-alert").returncode == 0
    v = judge(s, twin.config)
    assert not v.mitigation_pass and v.alert_days  # judged against the scenario's own alert


@pytest.mark.parametrize("family", list(FAMILIES))
def test_agents_per_family(family, tmp_path):
    s = generate(family, 21)
    verdicts = {}
    for name, agent in AGENTS.items():
        cluster, twin = serve_scenario(s, tmp_path / name / "kc")
        try:
            diagnosis = agent(Kubectl(cluster.kubeconfig_path, tmp_path / name))
        finally:
            cluster.stop()
        verdicts[name] = judge(s, twin.config, diagnosis)
    assert verdicts["baseline"].diagnosis_pass
    assert verdicts["baseline"].mitigation_pass
    assert verdicts["baseline"].blast_radius == ()
    assert not verdicts["naive"].mitigation_pass
    assert not verdicts["nothing"].mitigation_pass


def test_baseline_finds_a_high_min_when_utilisation_is_above_half_the_target(tmp_path):
    # seed 77002: 23 pods at 37% of a 70% target at the call-in; the HPA formula asks for 13
    s = generate("hpa-min-replicas-high", 77002)
    cluster, twin = serve_scenario(s, tmp_path / "kc")
    try:
        diagnosis = AGENTS["baseline"](Kubectl(cluster.kubeconfig_path, tmp_path))
    finally:
        cluster.stop()
    v = judge(s, twin.config, diagnosis)
    assert v.diagnosis_pass and v.mitigation_pass, v
