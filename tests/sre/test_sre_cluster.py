"""The offline cluster serving a snapshot's latest objects, queried with the real kubectl."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from itbench.cluster import start_cluster
from itbench.cluster.extensions import domain_extensions
from sre.cluster import latest_objects, snapshot_extension
from tests._support.sre import SRE_INCIDENT as INCIDENT

KUBECTL = shutil.which("kubectl")
needs_kubectl = pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed here")


def test_latest_objects_are_the_last_observation_of_each(private_cache: Path):
    objects, warnings = latest_objects(INCIDENT)
    ids = sorted(f"{o['kind']}/{o['metadata']['name']}" for o in objects)
    assert ids == [
        "Deployment/checkout", "Deployment/frontend", "NetworkPolicy/deny-payment",
        "Pod/checkout-6f7b9c-x2k4q", "Pod/frontend-5c6d-abcde", "ReplicaSet/checkout-6f7b9c",
        "ReplicaSet/frontend-5c6d", "Service/checkout", "Service/frontend",
    ]  # fmt: skip
    assert "k8s_objects_raw.tsv:13" in warnings[1]


def test_unknown_kinds_get_types_and_chaos_mesh_is_the_domains(private_cache: Path):
    objs = [
        {
            "apiVersion": "example.io/v1",
            "kind": "Widget",
            "metadata": {"name": "w", "namespace": "a"},
        },
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "a"}},
    ]
    ext = snapshot_extension(objs, {("", "Pod")})
    assert [(t.group, t.version, t.kind, t.plural, t.namespaced) for t in ext.types] == [
        ("example.io", "v1", "Widget", "widgets", True)
    ]
    sre = next(e for e in domain_extensions() if e.name == "sre")
    assert ("chaos-mesh.org", "networkchaos") in {(t.group, t.plural) for t in sre.types}


@needs_kubectl
def test_kubectl_sees_the_faulty_deployment(private_cache: Path):
    objects, _ = latest_objects(INCIDENT)
    objects.append(
        {"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "NetworkChaos",
         "metadata": {"name": "delay-cart", "namespace": "otel-demo"}, "spec": {"action": "delay"}}
    )  # fmt: skip
    running = start_cluster(objects)
    try:

        def kubectl(*args: str) -> str:
            p = subprocess.run(
                [KUBECTL, "--kubeconfig", str(running.kubeconfig_path), *args],
                capture_output=True, text=True, timeout=60,
            )  # fmt: skip
            assert p.returncode == 0, p.stderr
            return p.stdout

        dep = json.loads(kubectl("get", "deployment", "checkout", "-n", "otel-demo", "-o", "json"))
        assert (
            dep["spec"]["template"]["spec"]["containers"][0]["image"]
            == "ghcr.io/otel/demo:checkout-2.0.0-missing"
        )
        assert "deny-payment" in kubectl("get", "networkpolicies", "-n", "otel-demo")
        assert "delay-cart" in kubectl("get", "networkchaos", "-n", "otel-demo")
    finally:
        running.stop()


@needs_kubectl
def test_sre_cluster_command_serves_until_terminated(private_cache: Path, tmp_path: Path):
    import os
    import signal
    import time

    from tests._support.cli import itbench_executable

    kubeconfig = tmp_path / "kubeconfig"
    proc = subprocess.Popen(
        [itbench_executable(), "sre", "cluster", "--snapshot", str(INCIDENT), "--kubeconfig", str(kubeconfig)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "ITBENCH_CACHE_DIR": str(private_cache)},
    )  # fmt: skip
    try:
        line = proc.stdout.readline()
        assert line.strip() == f"KUBECONFIG={kubeconfig}"
        deadline = time.monotonic() + 30
        out = ""
        while time.monotonic() < deadline:
            p = subprocess.run(
                [KUBECTL, "--kubeconfig", str(kubeconfig), "get", "pods", "-n", "otel-demo", "-o", "name"],
                capture_output=True, text=True, timeout=30,
            )  # fmt: skip
            out = p.stdout
            if p.returncode == 0:
                break
            time.sleep(0.2)
        assert sorted(out.split()) == ["pod/checkout-6f7b9c-x2k4q", "pod/frontend-5c6d-abcde"]
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
