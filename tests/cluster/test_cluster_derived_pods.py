"""The Pods the emulated controllers make for a workload's replicas are made in the runner's
process: a create or a scale that would take one cluster past MAX_DERIVED_PODS is refused 403 as
an exceeded quota, in the API server's words, and the server keeps serving (`cluster serve`,
the real kubectl). One Deployment with ``replicas: 400000`` took the runner to 1.3 GB, and
``kubectl scale --replicas=1500000`` ended in a MemoryError."""

from __future__ import annotations

import re
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from itbench.cluster.state import MAX_DERIVED_PODS
from tests._support.cli import itbench_executable
from tests.cluster.kubectl_run import kubectl, needs_kubectl

pytestmark = needs_kubectl

KILN = """apiVersion: apps/v1
kind: Deployment
metadata: {{name: kiln, namespace: pottery}}
spec:
  replicas: {replicas}
  selector: {{matchLabels: {{app: kiln}}}}
  template:
    metadata: {{labels: {{app: kiln}}}}
    spec: {{containers: [{{name: fire, image: registry.example/kiln:2}}]}}
"""


class Served:
    def __init__(self, proc: subprocess.Popen[bytes], kubeconfig: Path) -> None:
        self.proc, self.kubeconfig = proc, kubeconfig

    def rss_kb(self) -> int:
        found = re.search(r"VmRSS:\s+(\d+)", Path(f"/proc/{self.proc.pid}/status").read_text())
        assert found is not None
        return int(found.group(1))


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    manifests = tmp_path / "manifests"
    manifests.mkdir()
    (manifests / "ns.yaml").write_text(
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: pottery}\n"
    )
    kubeconfig = tmp_path / "kubeconfig"
    args = [
        itbench_executable(),
        "cluster",
        "serve",
        str(manifests),
        "--kubeconfig",
        str(kubeconfig),
    ]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip()
        yield Served(proc, kubeconfig)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


def _kubectl(served: Served, tmp_path: Path, *args: str, stdin: str | None = None):
    return kubectl(served.kubeconfig, tmp_path, *args, stdin=stdin)


def test_a_deployment_of_400000_replicas_is_refused_as_an_exceeded_quota(served, tmp_path):
    made = _kubectl(served, tmp_path, "apply", "-f", "-", stdin=KILN.format(replicas=400_000))
    assert made.returncode == 1
    assert (
        'deployments.apps "kiln" is forbidden: exceeded quota: itbench-derived-pods, '
        f"requested: pods=400000, used: pods=0, limited: pods={MAX_DERIVED_PODS}"
    ) in made.stderr
    assert served.rss_kb() < 512 * 1024
    listed = _kubectl(served, tmp_path, "get", "deployments", "-n", "pottery", "-o", "name")
    assert listed.returncode == 0 and listed.stdout == "", listed


def test_scaling_past_the_cap_is_refused_and_the_workload_keeps_its_pods(served, tmp_path):
    made = _kubectl(served, tmp_path, "apply", "-f", "-", stdin=KILN.format(replicas=3))
    assert made.returncode == 0, made.stderr
    scaled = _kubectl(
        served, tmp_path, "scale", "deployment/kiln", "-n", "pottery", "--replicas=1500000"
    )
    assert scaled.returncode == 1
    assert (
        'deployments.apps "kiln" is forbidden: exceeded quota: itbench-derived-pods, '
        f"requested: pods=1500000, used: pods=0, limited: pods={MAX_DERIVED_PODS}"
    ) in scaled.stderr
    pods = _kubectl(served, tmp_path, "get", "pods", "-n", "pottery", "-o", "name")
    assert pods.returncode == 0, pods.stderr
    assert len(pods.stdout.split()) == 3
    # within the cap, scaling works as before
    within = _kubectl(served, tmp_path, "scale", "deployment/kiln", "-n", "pottery", "--replicas=5")
    assert within.returncode == 0, within.stderr
    pods = _kubectl(served, tmp_path, "get", "pods", "-n", "pottery", "-o", "name")
    assert len(pods.stdout.split()) == 5


def test_many_workloads_count_together_toward_the_cap(served, tmp_path):
    """Two StatefulSets each within the cap, together past it: the second is refused."""
    half = MAX_DERIVED_PODS // 2 + 1
    for name in ("ledger", "archive"):
        sts = (
            "apiVersion: apps/v1\nkind: StatefulSet\n"
            f"metadata: {{name: {name}, namespace: pottery}}\n"
            f"spec:\n  replicas: {half}\n  serviceName: {name}\n"
            f"  selector: {{matchLabels: {{app: {name}}}}}\n"
            f"  template:\n    metadata: {{labels: {{app: {name}}}}}\n"
            "    spec: {containers: [{name: c, image: registry.example/c:1}]}\n"
        )
        made = _kubectl(served, tmp_path, "create", "-f", "-", stdin=sts)
        if name == "ledger":
            assert made.returncode == 0, made.stderr
        else:
            assert made.returncode == 1
            assert (
                f'statefulsets.apps "archive" is forbidden: exceeded quota: itbench-derived-pods, '
                f"requested: pods={half}, used: pods={half}, limited: pods={MAX_DERIVED_PODS}"
            ) in made.stderr
