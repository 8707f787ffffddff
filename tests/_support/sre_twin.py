"""A remedy applied to a served twin through real kubectl, and the twin's verdict (the verdict
table's tests and the tests of each newer mechanism share it)."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from sre.twin.scenario import build_case, remedy_context, serve_case
from sre.twin.verdict import MitigationVerdict, judge

KUBECTL = shutil.which("kubectl")
SEED = 3


def kubectl_env(tmp_path: Path) -> dict[str, str]:
    """kubectl's environment in a test: its cache and config under the test's own folder."""
    return {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "KUBECACHEDIR": str(tmp_path / "c")}


def kubectl_in(cluster, namespace: str, tmp_path: Path) -> Callable[..., str]:
    """Real kubectl against a served twin's cluster in ``namespace``: a command's stdout, and a
    failed command fails the test with kubectl's message."""
    env = kubectl_env(tmp_path)

    def kubectl(*args: str) -> str:
        run = subprocess.run(
            [KUBECTL or "kubectl", "--kubeconfig", str(cluster.kubeconfig_path), "-n", namespace,
             *args], capture_output=True, text=True, env=env, timeout=60,
        )  # fmt: skip
        assert run.returncode == 0, f"kubectl {' '.join(args)}: {run.stderr}"
        return run.stdout

    return kubectl


def apply(fault: str, remedy, tmp_path: Path) -> tuple[MitigationVerdict, list[str]]:
    case = build_case(fault, SEED)
    cluster, twin = serve_case(case)
    context = remedy_context(case)
    env = kubectl_env(tmp_path)
    said = []
    try:
        started = time.monotonic()
        for args in remedy.commands(context):
            run = subprocess.run(
                [KUBECTL or "kubectl", "--kubeconfig", str(cluster.kubeconfig_path), *args],
                capture_output=True, text=True, env=env, timeout=60,
            )  # fmt: skip
            said.append(f"$ kubectl {' '.join(args)} -> {run.returncode}: {run.stdout}{run.stderr}")
        verdict = judge(twin, case.root, case.target, case.start, started, cluster.state.clock.now)
    finally:
        cluster.stop()
    return verdict, said


def run_commands(fault: str, commands: list[list[str]], tmp_path: Path) -> MitigationVerdict:
    from sre.generator.model import Remedy

    verdict, _ = apply(fault, Remedy("combined", "", lambda r: commands), tmp_path)
    return verdict
