"""The ciso domain's cluster extension as every caller gets it by default: policy and report
kinds with their columns, and the Kyverno engine's background scan as the report producer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from itbench.cluster import start_cluster
from tests.cluster.kubectl_run import KUBECTL, kubectl_on

FIXTURES = Path(__file__).parent / "fixtures"
pytestmark = pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed on this machine")


def test_loaded_domains_serve_policies_and_the_engine_writes_their_reports(tmp_path):
    # no extensions= and no report_producer=: everything comes from the installed ciso domain
    with start_cluster(FIXTURES / "workloads.yaml", kubeconfig=tmp_path / "kc") as cluster:
        applied = kubectl_on(cluster, tmp_path, "apply", "-f", str(FIXTURES / "clusterpolicy.yaml"))
        assert applied.returncode == 0, applied.stderr
        header, row = kubectl_on(cluster, tmp_path, "get", "cpol").stdout.splitlines()
        assert header.split()[:4] == ["NAME", "BACKGROUND", "VALIDATION", "FAILURE"]
        assert row.split()[:3] == ["disallow-host-network", "true", "Audit"]
        reports = json.loads(
            kubectl_on(cluster, tmp_path, "get", "polr", "-A", "-o", "json").stdout
        )["items"]
        by_scope = {(r["scope"]["kind"], r["scope"]["name"]): r["summary"] for r in reports}
        # the real engine, autogen included: the Deployment fails through its Pod template
        assert by_scope[("Deployment", "nginx-deployment")]["fail"] == 1
        assert by_scope[("StatefulSet", "db")]["pass"] == 1
        assert by_scope[("Pod", "db-0")] == {"pass": 1, "fail": 0, "warn": 0, "error": 0, "skip": 0}
        table = kubectl_on(cluster, tmp_path, "get", "polr", "-n", "data").stdout.splitlines()
        assert table[0].split() == ["NAME", "KIND", "PASS", "FAIL", "WARN", "ERROR", "SKIP", "AGE"]
        assert sorted(line.split()[1] for line in table[1:]) == ["Pod", "Pod", "StatefulSet"]
        assert cluster.state.report_errors == []


def test_policy_schema_errors_are_refused_when_the_domain_validates_them(tmp_path):
    try:
        import ciso.engines.kyverno.schema  # noqa: F401 - imported for its side effect: it registers the Kyverno kinds
    except ImportError:
        pytest.skip("ciso.engines.kyverno.schema (validate_crd) is not in this checkout")
    from ciso.engines.kyverno.cluster_types import cluster_extension

    extension = cluster_extension()
    assert set(extension.validators) == {("kyverno.io", "ClusterPolicy"), ("kyverno.io", "Policy")}
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        (FIXTURES / "clusterpolicy.yaml")
        .read_text()
        .replace("validationFailureAction: Audit", "validationFailureAction: [Audit]")
    )
    with start_cluster([], kubeconfig=tmp_path / "kc", extensions=[extension]) as cluster:
        proc = kubectl_on(cluster, tmp_path, "apply", "-f", str(bad))
        assert proc.returncode != 0
        assert 'The ClusterPolicy "disallow-host-network" is invalid' in proc.stderr
        assert "validationFailureAction" in proc.stderr
        assert cluster.overlay()["applied"] == []
