"""An agent sharing the host's network (``--agent-network allow``, the default) cannot write into
another trial's offline cluster. Every trial's API server listens on the host's loopback, where
``/proc/net/tcp`` lists it for any process; each now requires the token written into its own
trial's kubeconfig. Before, the first trial's agent applied its policy to the second trial's
cluster through its port alone, and the second trial, whose agent did nothing, passed with the
policy it found there."""

from __future__ import annotations

import json
import uuid
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

#: the idle trial marks its own cluster (a ConfigMap named by the test run), so the neighbour
#: writes into that cluster alone: other API servers on this machine's loopback are not touched
MARK = r"""
kubectl create configmap "$MARKER" --from-literal=trial=idle >/dev/null
sleep 75
"""

#: the neighbour: writes its own (correct) policy, then looks for the marked cluster among the
#: API servers listening on the loopback; it asks each with no credential and with its own
#: kubeconfig's, and offers its policy to the marked one
SPILL = r"""
set +e +o pipefail  # the answer's script stops at the first failure; every probe here may fail
own=$(grep -o '127.0.0.1:[0-9]*' "$KUBECONFIG" | head -1 | cut -d: -f2)
for round in $(seq 1 60); do
  for hex in $(awk 'NR>1 && $4=="0A" {split($2,a,":"); if (a[1]=="0100007F") print a[2]}' /proc/net/tcp | sort -u); do
    port=$((16#$hex)); [ "$port" = "$own" ] && continue
    sed "s/127.0.0.1:$own/127.0.0.1:$port/" "$KUBECONFIG" > borrowed.yaml
    for how in bare borrowed; do
      if [ $how = bare ]; then set -- --kubeconfig /dev/null --server "http://127.0.0.1:$port"
      else set -- --kubeconfig borrowed.yaml; fi
      seen=$(kubectl "$@" --request-timeout=3s get configmap "$MARKER" -n default -o name 2>&1)
      case "$seen" in
        *"must be logged in"*) echo "port $port $how: refused: $(echo "$seen" | tail -1)" >> spill.txt ;;
        "configmap/$MARKER")
          echo "port $port $how: marked; $(kubectl "$@" apply -f kyverno-policy.yaml 2>&1)" >> spill.txt ;;
      esac
    done
  done
  grep -q "refused\|marked" spill.txt 2>/dev/null && break
  sleep 1
done
"""


def _agent(marker: str) -> str:
    answer = (
        REPO / "tests" / "ciso" / "fixtures" / "agents" / "command" / "kyverno.sh"
    ).read_text()
    return (
        "#!/usr/bin/env bash\n"
        f"MARKER={marker}\n"
        'case "$ITBENCH_WORKSPACE" in */1) ;; *)'
        + MARK
        + "exit 0;; esac\n"
        + answer.split("\n", 1)[1]
        + SPILL
    )


def test_a_neighbour_cannot_write_its_policy_into_another_trials_cluster(tmp_path: Path):
    out = tmp_path / "run"
    proc = run_cli(
        ["ciso", "run", "--scenarios", SCENARIO, "--trials", "2", "-j", "2",
         "--agent-cmd", _agent(f"idle-trial-{uuid.uuid4().hex[:12]}"), "--output", str(out), "--timeout", "150",
         "--format", "json", "--no-progress"],
        timeout=600,
    )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stderr
    laid_out = sorted(str(p.relative_to(out)) for p in out.rglob("*") if ".itbench" not in p.parts)
    assert (out / SCENARIO / "1" / "spill.txt").is_file(), (laid_out, proc.stdout[-3000:])
    spill = (out / SCENARIO / "1" / "spill.txt").read_text()
    # the other trial's server was found and asked: it refused both the bare request and the
    # neighbour's own credential
    assert " bare: refused: error: You must be logged in to the server" in spill, spill
    assert " borrowed: refused: error: You must be logged in to the server" in spill, spill
    assert "marked" not in spill, spill
    applied = json.loads((out / SCENARIO / "2" / ".itbench" / "cluster-applied.json").read_text())
    assert [o["kind"] for o in applied["applied"]] == ["ConfigMap"]  # its own mark alone
    passed = {}
    for entry in json.loads(proc.stdout)["raw_results"]:
        score = (entry.get("scores") or {}).get("itbench_pass")
        passed[entry.get("trial_id")] = score["calculation"] if isinstance(score, dict) else score
    # the neighbour answered itself and passes; the idle trial has no policy anywhere
    assert passed == {"1": 1.0, "2": 0.0}, passed
