"""A remedy applied to a served twin through real kubectl, and the twin's verdict (the verdict
table's tests and the tests of each newer mechanism share it)."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

from sre.twin.scenario import build_case, remedy_context, serve_case
from sre.twin.verdict import MitigationVerdict, judge

KUBECTL = shutil.which("kubectl")
SEED = 3


def apply(fault: str, remedy, tmp_path: Path) -> tuple[MitigationVerdict, list[str]]:
    case = build_case(fault, SEED)
    cluster, twin = serve_case(case)
    context = remedy_context(case)
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "KUBECACHEDIR": str(tmp_path / "c")}
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
