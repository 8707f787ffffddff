"""The evaluation sandbox shows one output folder: the environment it evaluates (issue 26, gap 3).

A kubectl-opa agent's fetcher lists ``/`` and reads what earlier runs left on the host: another
run's ``evaluation.json`` under ``/var/tmp`` (shared scratch), one in a top-level folder that is
not the operating system's (a data volume), and a sibling of its own trial in the run directory.
Through the real CLI; the fetcher exits 1 so that what it saw is recorded as the failure output.
"""

from __future__ import annotations

import json
import shutil
import uuid
from pathlib import Path

import pytest

from tests._support.ciso import needs_sandbox
from tests._support.cli import run_cli

pytestmark = [pytest.mark.slow, needs_sandbox]

KUBECTL_OPA = "cis-k8s-5.1.1-cluster-admin.kubectl-opa"


def _agent(targets: list[Path]) -> str:
    reads = "\n".join(
        f'cat "{t}" 2>/dev/null && echo "READ {t}" || echo "CANNOT {t}"' for t in targets
    )
    fetcher = f"#!/bin/sh\necho \"ROOT $(ls / | tr '\\n' ' ')\"\n{reads}\nexit 1\n"
    return (
        f"cat > fetcher.sh <<'EOF'\n{fetcher}EOF\n"
        "printf 'package check\\nresult := false\\n' > policy.rego\n"
    )


@pytest.fixture
def planted():
    """Earlier runs' evaluations, in shared scratch and in an unknown top-level folder."""
    tag = uuid.uuid4().hex[:10]
    scratch = Path("/var/tmp") / f"itbench-test-other-{tag}"
    volume = Path("/") / f"itbench-test-volume-{tag}"
    made = []
    for folder in (scratch, volume):
        (folder / "trial").mkdir(parents=True)
        (folder / "trial" / "evaluation.json").write_text('{"secret": "EARLIER-RUN"}\n')
        made.append(folder)
    run_dir = Path("/var/tmp") / f"itbench-test-run-{tag}"
    made.append(run_dir)
    yield scratch / "trial" / "evaluation.json", volume, run_dir
    for folder in made:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_fetcher_sees_no_other_run_output(planted):
    shared, volume, out = planted
    sibling = out / "other-scenario" / "1" / "evaluation.json"
    sibling.parent.mkdir(parents=True)
    sibling.write_text('{"secret": "SIBLING-TRIAL"}\n')
    agent = _agent([shared, volume / "trial" / "evaluation.json", sibling])
    proc = run_cli(
        ["ciso", "run", "--select", KUBECTL_OPA, "--agent-cmd", agent, "--output", str(out),
         "--format", "json", "--no-progress"],
        timeout=600,
    )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stderr
    evaluation = json.loads((out / KUBECTL_OPA / "1" / "evaluation.json").read_text())
    seen = json.dumps(evaluation["details"])
    assert "ROOT " in seen, seen  # the fetcher ran and reported
    for target in (shared, volume / "trial" / "evaluation.json", sibling):
        assert f"CANNOT {target}" in seen, (target, seen)
        assert f"READ {target}" not in seen, (target, seen)
    assert "EARLIER-RUN" not in seen and "SIBLING-TRIAL" not in seen, seen
