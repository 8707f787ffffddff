"""An agent that applies a hostile policy to its trial cluster cannot freeze the run: the write
the policy would take half an hour to admit is answered at the admission deadline (10 s, as a
webhook's default timeoutSeconds), the agent goes on and finishes, and its answer is scored.
Before, the write never came back and the trial ended as a timeout."""

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

SCENARIO = "cis-k8s-5.2.2-privileged.kyverno"
SLOW_POLICY = """apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: slow}
spec:
  validationFailureAction: Enforce
  background: false
  rules:
    - name: slow
      match: {any: [{resources: {kinds: [ConfigMap]}}]}
      validate:
        message: m
        foreach:
          - list: "split(request.object.data.x, '')"
            foreach:
              - list: "split(request.object.data.x, '')"
                foreach:
                  - list: "split(request.object.data.x, '')"
                    deny: {conditions: {any: [{key: "{{ element }}", operator: Equals, value: z}]}}
"""
CONFIG_MAP = (
    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: slow}\ndata: {x: " + "a" * 400 + "}\n"
)


def _script() -> str:
    answer = (
        REPO / "tests" / "ciso" / "fixtures" / "agents" / "command" / "kyverno.sh"
    ).read_text()
    return (
        "#!/usr/bin/env bash\nset -uo pipefail\n"
        f"cat >slow.yaml <<'EOF_SLOW'\n{SLOW_POLICY}EOF_SLOW\n"
        f"cat >cm.yaml <<'EOF_CM'\n{CONFIG_MAP}EOF_CM\n"
        "kubectl apply -f slow.yaml >applied.txt 2>&1\n"
        "kubectl create -f cm.yaml >created.txt 2>&1\n"
        "kubectl delete clusterpolicy slow >>applied.txt 2>&1\n" + answer.split("\n", 1)[1]
        # then the real answer, as the scripted kyverno agent writes it
    )


def test_a_hostile_policy_on_the_trial_cluster_does_not_time_the_trial_out(tmp_path: Path):
    out = tmp_path / "run"
    args = ["ciso", "run", "--scenarios", SCENARIO, "--agent-cmd", _script()]
    proc = run_cli(
        [*args, "--output", str(out), "--timeout", "90", "--format", "json", "--no-progress"],
        timeout=400,
    )
    assert proc.returncode == 0, proc.stderr
    (entry,) = json.loads(proc.stdout)["raw_results"]
    trial = out / SCENARIO / "1"
    created = (trial / "created.txt").read_text()
    assert "failed calling webhook" in created and "context deadline exceeded" in created
    assert "clusterpolicy.kyverno.io/slow created" in (trial / "applied.txt").read_text()
    assert "timeout" not in json.dumps(entry.get("error") or "")
    score = entry["scores"]["itbench_pass"]
    assert (score["calculation"] if isinstance(score, dict) else score) == 1.0
