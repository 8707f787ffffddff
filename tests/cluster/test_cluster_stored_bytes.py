"""A cluster keeps a bounded number of bytes of writes (``ITBENCH_CLUSTER_MAX_STORED_BYTES``,
256 MiB by default): the API server runs in the runner's process, where an agent's memory cap
does not reach, and the writes are written back to the trial's folder. A write past the budget
is refused 403 Forbidden as an exceeded quota; a deletion frees room. Before, only the object
count and each body's size were bounded: 80 ConfigMaps of 8 MiB grew the runner to 2 GB and a
671 MB applied-state file."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from itbench.cluster import RunningCluster, start_cluster
from tests.cluster.kubectl_run import kubectl_on, needs_kubectl

pytestmark = needs_kubectl

BUDGET = 40_000
#: one ConfigMap of a 12,000-byte value: three fit in the budget, a fourth does not
PAYLOAD = "q" * 12_000


@pytest.fixture
def small(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("ITBENCH_CLUSTER_MAX_STORED_BYTES", str(BUDGET))
    namespace = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "silo"}}
    with start_cluster([namespace], kubeconfig=tmp_path / "kubeconfig") as running:
        yield running


def _kubectl(
    cluster: RunningCluster, tmp_path: Path, *args: str
) -> subprocess.CompletedProcess[str]:
    return kubectl_on(cluster, tmp_path, "-n", "silo", *args)


def _fill(cluster, tmp_path: Path, name: str) -> subprocess.CompletedProcess[str]:
    return _kubectl(cluster, tmp_path, "create", "configmap", name, f"--from-literal=v={PAYLOAD}")


def test_a_write_past_the_budget_is_forbidden_and_names_it(small, tmp_path):
    for name in ("grain-1", "grain-2", "grain-3"):
        assert _fill(small, tmp_path, name).returncode == 0
    refused = _fill(small, tmp_path, "grain-4")
    assert refused.returncode == 1
    assert (
        'configmaps "grain-4" is forbidden: exceeded quota: itbench-stored-bytes' in refused.stderr
    ), refused.stderr
    assert f"limited: {BUDGET} bytes" in refused.stderr
    assert "ITBENCH_CLUSTER_MAX_STORED_BYTES" in refused.stderr
    listed = _kubectl(small, tmp_path, "get", "configmaps", "-o", "name").stdout.split()
    assert "configmap/grain-4" not in listed and "configmap/grain-3" in listed


def test_a_deletion_frees_room_and_a_shrinking_write_passes(small, tmp_path):
    for name in ("grain-1", "grain-2", "grain-3"):
        assert _fill(small, tmp_path, name).returncode == 0
    assert _fill(small, tmp_path, "grain-4").returncode == 1
    assert _kubectl(small, tmp_path, "delete", "configmap", "grain-1").returncode == 0
    assert _fill(small, tmp_path, "grain-4").returncode == 0, "the deletion freed its bytes"
    # full again: a write that makes an object smaller still passes
    shrunk = _kubectl(small, tmp_path, "patch", "configmap", "grain-2", "--type=merge",
                      "-p", json.dumps({"data": {"v": "small"}}))  # fmt: skip
    assert shrunk.returncode == 0, shrunk.stderr


def test_the_applied_state_stays_within_the_budget(small, tmp_path):
    created = 0
    for index in range(8):
        created += _fill(small, tmp_path, f"grain-{index}").returncode == 0
    assert created == 3
    text = small.overlay_text()
    # the frame ({"applied":[...],"deleted":[]}) is all the file adds to the stored bytes
    assert len(text.encode()) <= BUDGET + 64
    assert len(json.loads(text)["applied"]) == 3


def test_an_unreadable_budget_is_a_usage_error(monkeypatch):
    from itbench.errors import UsageError

    monkeypatch.setenv("ITBENCH_CLUSTER_MAX_STORED_BYTES", "lots")
    with pytest.raises(UsageError, match="ITBENCH_CLUSTER_MAX_STORED_BYTES='lots'"):
        start_cluster([])
