"""Every scenario's source folder is hidden from the agent whatever its class (issue 26): with
``--scenarios`` at a folder the agent sandbox would otherwise show (under /var/tmp), a kyverno and
a kubectl-opa agent (classes with no inputs copied in), and an opa-static one, find their own ``scenario.yaml``,
``compliant/`` and ``violating/`` absent."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests._support.ciso import kubectl_missing, needs_sandbox
from tests._support.cli import REPO, run_cli

pytestmark = [
    pytest.mark.slow,
    needs_sandbox,
    pytest.mark.skipif(kubectl_missing() is not None, reason=str(kubectl_missing())),
]

BASE = "cis-k8s-5.2.2-privileged"


@pytest.fixture
def visible_copy() -> Iterator[Path]:
    """A copy of one built-in scenario where the agent sandbox shows the host (/var is bound
    read-only; /tmp is private to the sandbox, so a copy there would prove nothing)."""
    root = Path(tempfile.mkdtemp(prefix="itbench-sources-", dir="/var/tmp"))
    try:
        shutil.copytree(REPO / "ciso" / "suite" / "kubernetes" / BASE, root / BASE)
        yield root
    finally:
        shutil.rmtree(root)


def test_the_agent_cannot_read_its_scenarios_source(tmp_path: Path, visible_copy: Path):
    source = visible_copy / BASE
    probe = (
        f"cat {source}/scenario.yaml {source}/compliant/workloads.yaml > leaked.txt 2>&1; "
        f"ls -A {visible_copy} {source} > listing.txt 2>&1; "
        # the probe can see /var/tmp at all (so an empty listing means hidden, not unreachable)
        f"ls -d {visible_copy.parent} > parent.txt 2>&1; true"
    )
    out = tmp_path / "run"
    proc = run_cli(
        ["ciso", "run", "--scenarios", str(visible_copy), "--agent-cmd", probe,
         "--output", str(out), "--format", "json", "--no-progress"],
        timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    ran = {r["incident_id"] for r in json.loads(proc.stdout)["raw_results"]}
    classes = ("kyverno", "kubectl-opa", "opa-static", "kyverno-migrate")
    assert ran == {f"{BASE}.{c}" for c in classes}, ran
    violating = (source / "violating" / "workloads.yaml").read_text()
    for scenario in ran:
        workspace = out / scenario / "1"
        leaked = (workspace / "leaked.txt").read_text()
        assert "No such file" in leaked, (scenario, leaked)
        assert "securityContext" not in leaked and violating not in leaked, (scenario, leaked)
        listing = (workspace / "listing.txt").read_text()
        assert "scenario.yaml" not in listing and "compliant" not in listing, (scenario, listing)
        assert (workspace / "parent.txt").read_text().strip() == str(visible_copy.parent)
