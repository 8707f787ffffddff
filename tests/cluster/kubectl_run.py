"""Real kubectl against an offline cluster, with a private HOME and cache per test."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from itbench.cluster import RunningCluster

KUBECTL = shutil.which("kubectl")
needs_kubectl = pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed here")


def kubectl(
    kubeconfig: Path, tmp_path: Path, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "KUBECACHEDIR": str(tmp_path / "c")}
    return subprocess.run(
        [KUBECTL or "kubectl", "--kubeconfig", str(kubeconfig), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def kubectl_on(
    cluster: RunningCluster, tmp_path: Path, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``kubectl`` against a running offline cluster, through the kubeconfig it wrote."""
    return kubectl(cluster.kubeconfig_path, tmp_path, *args, stdin=stdin)
