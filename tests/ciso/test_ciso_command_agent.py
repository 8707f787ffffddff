"""``itbench ciso run --agent-cmd``: an external agent (a bash script in fixtures/agents/command)
runs sandboxed in its workspace with TASK.md, KUBECONFIG for the trial's offline cluster (or the
inventory on RHEL), and whatever it leaves there is scored by the real evaluator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._support.ciso import kubectl_missing, needs_sandbox
from tests._support.cli import REPO, run_cli

pytestmark = [
    pytest.mark.slow,
    needs_sandbox,
    pytest.mark.skipif(kubectl_missing() is not None, reason=str(kubectl_missing())),
]

SCRIPTS = REPO / "tests" / "ciso" / "fixtures" / "agents" / "command"


def _run(tmp_path: Path, scenario: str, script: str) -> tuple[dict, Path]:
    out = tmp_path / script
    proc = run_cli(
        [
            "ciso",
            "run",
            "--scenarios",
            scenario,
            # the checkout is hidden inside the sandbox: the script travels as the command text
            "--agent-cmd",
            (SCRIPTS / script).read_text(),
            "--output",
            str(out),
            "--format",
            "json",
            "--no-progress",
        ],
        timeout=400,
    )
    assert proc.returncode == 0, proc.stderr
    (entry,) = json.loads(proc.stdout)["raw_results"]
    return entry, out / scenario / "1"


def _score(entry: dict, metric: str) -> float:
    value = entry["scores"][metric]
    return value["calculation"] if isinstance(value, dict) else value


@pytest.mark.parametrize(
    ("scenario", "script", "seen"),
    [
        ("cis-k8s-5.2.2-privileged.kyverno", "kyverno.sh", "seen-cluster.json"),
        ("cis-k8s-5.2.2-privileged.kubectl-opa", "kubectl-opa.sh", "seen-deployments.txt"),
        ("cis-rhel9-5.2.16-max-auth-tries.rhel9-ansible-opa", "rhel9.sh", None),
    ],
)
def test_script_answer_is_scored(tmp_path: Path, scenario: str, script: str, seen: str | None):
    entry, trial = _run(tmp_path, scenario, script)
    assert _score(entry, "itbench_pass") == 1.0, (trial / "evaluation.json").read_text()
    assert _score(entry, "strict_pass") == 1.0
    assert (trial / "TASK.md").is_file()
    if seen is not None:  # it read the live trial cluster through KUBECONFIG
        assert (trial / seen).stat().st_size > 0


def test_script_that_writes_nothing_fails_with_the_reason(tmp_path: Path) -> None:
    scenario = "cis-k8s-5.2.2-privileged.kubectl-opa"
    entry, trial = _run(tmp_path, scenario, "nothing.sh")
    assert _score(entry, "itbench_pass") == 0.0 and _score(entry, "strict_pass") == 0.0
    evaluation = json.loads((trial / "evaluation.json").read_text())
    reason = json.dumps(evaluation)
    assert "missing fetcher.sh (or script.sh) and policy.rego" in reason
