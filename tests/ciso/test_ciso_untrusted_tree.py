"""The evaluator never trusts the agent's tree (issue 26): an answer file that is a symbolic link
(to the shipped reference answer, to /etc/shadow) is refused with the reason, and links or
folders planted where the runner writes its own files (transcript.jsonl, .itbench,
evaluation.json) are replaced, never followed; one hostile trial never costs the others."""

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

KYVERNO = "cis-k8s-5.2.2-privileged.kyverno"
KUBECTL_OPA = "cis-k8s-5.2.2-privileged.kubectl-opa"
OPA_STATIC = "cis-k8s-5.7.4-default-namespace.opa-static"
RHEL9 = "cis-rhel9-5.2.16-max-auth-tries.rhel9-ansible-opa"
HONEST = "cis-k8s-5.1.1-cluster-admin.kyverno"


def _hostile_script(victim: Path) -> str:
    rego = REPO / "policies" / "rego"
    kyverno = REPO / "policies" / "kyverno" / "cis-k8s-5.2.2-privileged" / "policy.yaml"
    static = rego / "cis-k8s-5.7.4-default-namespace"
    playbook = REPO / "playbooks" / "cis-rhel9-5.2.16-max-auth-tries"
    # links made in the sandbox dangle there (the checkout is hidden) but resolve on the host
    return f"""
case "$PWD" in
  *{KYVERNO}*) ln -s {kyverno} policy.yaml ;;
  *{KUBECTL_OPA}*) ln -s /etc/shadow fetcher.sh
                   ln -s {rego}/cis-k8s-5.2.2-privileged/policy.rego policy.rego ;;
  *{OPA_STATIC}*) ln -s {static}/fetch.sh fetch.sh; ln -s {static}/policy.rego policy.rego ;;
  *{RHEL9}*) ln -s {playbook}/playbook.yml playbook.yml
             ln -s {playbook}/policy.rego policy.rego ;;
  *) mkfifo agent_output.yaml; exit 0 ;;
esac
rm -f transcript.jsonl; ln -s {victim}/transcript-target transcript.jsonl
rm -rf .itbench; ln -s {victim}/itbench-target .itbench
mkdir -p evaluation.json/inside
"""


def _score(entry: dict, metric: str) -> float:
    value = entry["scores"].get(metric, 0)
    return value["calculation"] if isinstance(value, dict) else value


def test_links_and_planted_runner_files_are_refused_and_every_trial_is_scored(tmp_path: Path):
    victim = tmp_path / "victim"
    (victim / "itbench-target").mkdir(parents=True)
    (victim / "transcript-target").write_text("precious\n")
    out = tmp_path / "run"
    scenarios = [KYVERNO, KUBECTL_OPA, OPA_STATIC, RHEL9, HONEST]
    proc = run_cli(
        [
            "ciso", "run", "--scenarios", ",".join(scenarios),
            "--agent-cmd", _hostile_script(victim),
            "--output", str(out), "--format", "json", "--no-progress",
        ],
        timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    entries = {e["incident_id"]: e for e in json.loads(proc.stdout)["raw_results"]}
    assert sorted(entries) == sorted(scenarios)
    results = json.loads((out / "results.json").read_text())
    assert len(results["raw_results"]) == len(scenarios)
    for scenario in scenarios:
        trial = out / scenario / "1"
        evaluation_file = trial / "evaluation.json"
        assert evaluation_file.is_file() and not evaluation_file.is_symlink(), scenario
        evaluation = evaluation_file.read_text()
        assert "precious" not in evaluation
        # nothing the reference answers hold was scored
        assert _score(entries[scenario], "itbench_pass") == 0.0, (scenario, evaluation)
        assert _score(entries[scenario], "strict_pass") == 0.0, (scenario, evaluation)
        transcript = trial / "transcript.jsonl"
        assert transcript.is_file() and not transcript.is_symlink(), scenario
        assert '"event": "evaluation"' in transcript.read_text()
    # the runner wrote nothing through the links: the victim's files are as they were
    assert (victim / "transcript-target").read_text() == "precious\n"
    assert list((victim / "itbench-target").iterdir()) == []

    reasons = {s: (out / s / "1" / "evaluation.json").read_text() for s in scenarios}
    assert "policy.yaml is a symbolic link: not read" in reasons[KYVERNO]
    assert "fetcher.sh is a symbolic link: not read" in reasons[KUBECTL_OPA]
    assert "root:" not in reasons[KUBECTL_OPA]  # no line of /etc/shadow
    assert "fetch.sh is a symbolic link: not read" in reasons[OPA_STATIC]
    assert "playbook.yml is a symbolic link: not read" in reasons[RHEL9]
    assert "agent_output.yaml is a named pipe: not read" in reasons[HONEST]
    for scenario in (KYVERNO, KUBECTL_OPA, OPA_STATIC, RHEL9):
        refused = json.loads(reasons[scenario])["details"]["refused"]
        assert any(r.startswith("evaluation.json:") for r in refused), refused
        assert "transcript.jsonl was a symbolic link: replaced" not in refused  # runner's own
