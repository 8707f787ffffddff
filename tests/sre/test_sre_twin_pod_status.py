"""What ``kubectl get pods`` shows of a faulty pod on the twin, through real kubectl: the STATUS
kubectl's printer derives from the pod's statuses (``Init:CrashLoopBackOff`` for an init
container that cannot complete, with the app container never started), as an agent reading the
cluster sees it on a real one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sre.twin.scenario import build_case, serve_case
from tests._support.sre_twin import SEED, kubectl_in

KUBECTL = shutil.which("kubectl")
pytestmark = pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed here")

EXPECTED = {
    "init-container": ("Init:CrashLoopBackOff", "Pending"),
    "bad-command": ("CrashLoopBackOff", "Running"),
    "nonexistent-image": ("ImagePullBackOff", "Pending"),
    "missing-secret": ("CreateContainerConfigError", "Pending"),
}


@pytest.mark.parametrize("fault", sorted(EXPECTED))
def test_kubectl_shows_the_faulty_pods_status(fault, tmp_path: Path):
    case = build_case(fault, SEED)
    cluster, _ = serve_case(case)
    kubectl = kubectl_in(cluster, case.namespace, tmp_path)

    try:
        selector = f"app.kubernetes.io/name={case.target}"
        table = kubectl("get", "pods", "-l", selector, "--no-headers")
        pods = json.loads(kubectl("get", "pods", "-l", selector, "-o", "json"))["items"]
    finally:
        cluster.stop()
    status, phase = EXPECTED[fault]
    (row,) = table.splitlines()
    assert row.split()[2] == status, table
    (pod,) = pods
    assert pod["status"]["phase"] == phase
    if fault == "init-container":
        (init,) = pod["status"]["initContainerStatuses"]
        assert init["state"]["waiting"]["reason"] == "CrashLoopBackOff"
        assert init["restartCount"] > 0 and int(row.split()[3]) == init["restartCount"]
        (app,) = pod["status"]["containerStatuses"]
        assert app["state"] == {"waiting": {"reason": "PodInitializing"}}
        assert app["restartCount"] == 0 and not app["started"]
        initialized = [c for c in pod["status"]["conditions"] if c["type"] == "Initialized"]
        assert initialized[0]["status"] == "False"
