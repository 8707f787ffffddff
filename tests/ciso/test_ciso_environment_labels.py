"""An agent's collector cannot tell which environment it is collecting (issue 26): before, runs were
``run-0`` (violating), ``run-1`` (compliant), ``run-2``… (leave-one-in), so a fetcher, fetch.sh or
playbook that answered by its working directory's name, with ``result := input.verdict``, scored
strict 1 without looking at a single resource. Folders are now named at random (and the batch's
order shuffled, the other environments' manifests removed before any fetcher runs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._support.ciso import kubectl_missing, needs_sandbox
from tests._support.cli import run_cli

pytestmark = [
    pytest.mark.slow,
    needs_sandbox,
    pytest.mark.skipif(kubectl_missing() is not None, reason=str(kubectl_missing())),
]

SCENARIOS = (
    "cis-k8s-5.2.2-privileged.kubectl-opa",
    "cis-k8s-5.7.4-default-namespace.opa-static",
    "cis-rhel9-5.2.16-max-auth-tries.rhel9-ansible-opa",
)
CHEAT = """#!/bin/sh
case "$(basename "$PWD")" in run-1) v=true ;; *) v=false ;; esac
ls -A .. >&2
echo "{\\"verdict\\": $v}" > collected_data.json
"""
PLAYBOOK = """- hosts: rhel9_servers
  gather_facts: false
  tasks:
    - delegate_to: localhost
      ansible.builtin.copy:
        dest: "{{ playbook_dir }}/collected_data.json"
        content: '{"verdict": {{ (playbook_dir | basename == "run-1") | to_json }}}'
"""


def test_a_collector_answering_by_its_folder_name_does_not_pass(tmp_path: Path):
    agent = (
        f"cat > fetcher.sh <<'EOF'\n{CHEAT}EOF\n"
        "cp fetcher.sh fetch.sh\n"
        f"cat > playbook.yml <<'EOF'\n{PLAYBOOK}EOF\n"
        "printf 'package check\\nresult := input.verdict\\n' > policy.rego\n"
    )
    out = tmp_path / "run"
    proc = run_cli(
        ["ciso", "run", "--scenarios", ",".join(SCENARIOS), "--agent-cmd", agent,
         "--output", str(out), "--format", "json", "--no-progress"],
        timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    for scenario in SCENARIOS:
        evaluation = json.loads((out / scenario / "1" / "evaluation.json").read_text())
        environments = evaluation["details"]["environments"]
        # the cheat ran and reached the policy on the violating environment...
        assert environments["violating"]["collected"] is True, (scenario, evaluation)
        # ...but could not tell the compliant one apart
        assert evaluation["scores"]["strict_pass"] == 0, (scenario, evaluation)
        assert environments["compliant"]["result"] == "false", (scenario, environments)
