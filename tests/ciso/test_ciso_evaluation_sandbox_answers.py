"""The evaluation sandbox holds the engines and nothing that is an answer (issue 26): an agent's
fetch script there finds the reference policies, playbooks, the built-in suite and the baseline
agent absent (the engines it needs present), and an Ansible ``lookup('file', ...)`` of a reference
answer finds nothing (and of ``/etc/shadow`` is refused). Through the real CLI: the agent's script reports what it saw in the failure
output the evaluation records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._support.ciso import needs_sandbox
from tests._support.cli import REPO, run_cli

pytestmark = [pytest.mark.slow, needs_sandbox]

OPA_STATIC = "cis-k8s-5.7.4-default-namespace.opa-static"
RHEL9 = "cis-rhel9-5.2.16-max-auth-tries.rhel9-ansible-opa"
ANSWERS = ("policies", "playbooks", "ciso/suite", "ciso/agents")
REFERENCE_PLAYBOOK = REPO / "playbooks" / "cis-rhel9-5.2.16-max-auth-tries" / "playbook.yml"


def _agent() -> str:
    probes = " ".join(str(REPO / p) for p in (*ANSWERS, "ciso/engines"))
    fetch = f"""#!/bin/sh
for p in {probes}; do
  if [ -n "$(ls -A "$p" 2>/dev/null)" ]; then echo "SEES $p"; else echo "NOTHING-AT $p"; fi
done
exit 1
"""
    playbook = f"""- hosts: rhel9_servers
  gather_facts: false
  tasks:
    - ansible.builtin.debug:
        msg: "LOOKED-UP {{{{ lookup('file', '{REFERENCE_PLAYBOOK}') }}}}"
      ignore_errors: true
    - ansible.builtin.debug:
        msg: "SHADOW[{{{{ lookup('file', '/etc/shadow') }}}}]"
    - ansible.builtin.fail:
        msg: "the end"
"""
    return (
        f"cat > fetch.sh <<'EOF'\n{fetch}EOF\n"
        f"cat > playbook.yml <<'EOF'\n{playbook}EOF\n"
        "printf 'package check\\nresult := false\\n' > policy.rego\n"
    )


def test_no_answer_is_visible_to_the_agents_scripts_at_evaluation(tmp_path: Path):
    out = tmp_path / "run"
    proc = run_cli(
        ["ciso", "run", "--scenarios", f"{OPA_STATIC},{RHEL9}", "--agent-cmd", _agent(),
         "--output", str(out), "--format", "json", "--no-progress"],
        timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    static = json.loads((out / OPA_STATIC / "1" / "evaluation.json").read_text())
    seen = static["details"]["failure"]["output"]
    for answer in ANSWERS:
        assert f"NOTHING-AT {REPO / answer}\n" in seen, (answer, seen)
    # the engines the evaluation runs are there: the probe itself is not blind
    assert f"SEES {REPO / 'ciso/engines'}" in seen, seen

    rhel9 = (out / RHEL9 / "1" / "evaluation.json").read_text()
    # the lookup failed: the reference playbook's text (its first task's name) never came back
    assert "Collect the SSH daemon configuration" not in rhel9, rhel9
    assert "The lookup plugin 'file' failed" in rhel9 and "File not found" in rhel9, rhel9
    # the host's private files are covered (root without capabilities would still read them):
    # the lookup is refused, no line of /etc/shadow comes back
    assert "Permission denied: '/etc/shadow'" in rhel9, rhel9
    assert "root:" not in rhel9 and "SHADOW[" not in rhel9.replace("SHADOW[{{", ""), rhel9
    assert json.loads(rhel9)["scores"]["itbench_pass"] == 0
