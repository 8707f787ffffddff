"""Deleting what the twin's controllers make through real ``kubectl delete`` (which waits until
the deleted object is gone): the ReplicaSet, its Pod, the Service's Endpoints. Each is made again
under the same name, as Kubernetes does, as a new object (a new uid), so the delete returns;
with the uid reused kubectl waited until the trial's time limit (timeout here: 30 s a call)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sre.twin.scenario import build_case, serve_case

KUBECTL = shutil.which("kubectl")
pytestmark = pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed here")


def _kubectl(cfg: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "KUBECACHEDIR": str(home / "c")}
    return subprocess.run(
        [KUBECTL or "kubectl", "--kubeconfig", str(cfg), "-n", "otel-demo", *args],
        capture_output=True, text=True, env=env, timeout=30,
    )  # fmt: skip


def _uid(cfg: Path, home: Path, kind: str, name: str) -> str:
    got = _kubectl(cfg, home, "get", kind, name, "-o", "jsonpath={.metadata.uid}")
    assert got.returncode == 0, got.stderr
    return got.stdout


@pytest.mark.parametrize("flags", [(), ("--wait",), ("--cascade=foreground",)])
def test_deleting_derived_objects_returns_and_they_come_back(tmp_path, flags):
    case = build_case("service-selector", 3)  # a Service whose Endpoints the twin derives
    cluster, _twin = serve_case(case)
    cfg = cluster.kubeconfig_path
    try:
        for kind in ("endpoints", "replicaset", "pod"):
            names = _kubectl(cfg, tmp_path, "get", kind, "-o", "name").stdout.split()
            name = next(n.split("/")[1] for n in names if n.split("/")[1].startswith(case.target))
            before = _uid(cfg, tmp_path, kind, name)
            done = _kubectl(cfg, tmp_path, "delete", kind, name, *flags)
            assert done.returncode == 0, (kind, done.stderr)
            assert "deleted" in done.stdout, (kind, done.stdout)
            if kind != "pod":  # made again under its name (a pod comes back under another)
                assert _uid(cfg, tmp_path, kind, name) not in ("", before), kind
        # the Service's Endpoints still follow its (broken) selector: no address
        eps = _kubectl(cfg, tmp_path, "get", "endpoints", case.target, "-o", "json")
        assert '"subsets": []' in eps.stdout, eps.stdout
    finally:
        cluster.stop()
