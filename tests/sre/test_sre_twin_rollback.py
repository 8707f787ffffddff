"""``kubectl rollout undo`` on the twin, for every fault type whose remedies list the rollback:
through real kubectl, the Deployment controller's behaviour — the restored revision's ReplicaSet
is found again (kubectl sends its template back with a null ``creationTimestamp`` and without the
``pod-template-hash`` label, which the controller ignores), it becomes the newest revision, no
ReplicaSet is made for it, and the repair passes."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from sre.generator.faults import FAULT_TYPES
from sre.generator.faults._common import ROLLBACK
from sre.twin.scenario import build_case, serve_case
from sre.twin.verdict import judge
from tests._support.sre_twin import SEED, kubectl_in

KUBECTL = shutil.which("kubectl")
pytestmark = pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed here")

ROLLBACK_FAULTS = sorted(name for name, f in FAULT_TYPES.items() if ROLLBACK in f.remedies)


def test_the_rollback_faults_are_the_expected_ones():
    # the parametrised test below covers each of them; an empty list would test nothing
    assert {"init-container", "oom-killed", "nonexistent-image"} <= set(ROLLBACK_FAULTS)


def _replicasets(kubectl, deployment: str) -> dict[str, tuple[int, int]]:
    """ReplicaSet name -> (revision, replicas) of the ReplicaSets the Deployment owns."""
    items = json.loads(kubectl("get", "rs", "-o", "json"))["items"]
    return {
        rs["metadata"]["name"]: (
            int(rs["metadata"]["annotations"]["deployment.kubernetes.io/revision"]),
            int(rs["spec"]["replicas"]),
        )
        for rs in items
        if any(o.get("name") == deployment for o in rs["metadata"].get("ownerReferences", ()))
    }


@pytest.mark.parametrize("fault", ROLLBACK_FAULTS)
def test_rollout_undo_restores_the_previous_replicaset(fault, tmp_path: Path):
    case = build_case(fault, SEED)
    cluster, twin = serve_case(case)
    kubectl = kubectl_in(cluster, case.namespace, tmp_path)

    try:
        started = time.monotonic()
        before = _replicasets(kubectl, case.target)
        assert len(before) >= 2, f"{fault}: no earlier revision to undo to: {before}"
        top = max(rev for rev, _ in before.values())
        (faulty,) = [name for name, (rev, _) in before.items() if rev == top]
        (previous,) = [name for name, (rev, _) in before.items() if rev == top - 1]
        kubectl("rollout", "undo", f"deployment/{case.target}")
        after = _replicasets(kubectl, case.target)
        # no ReplicaSet made: the one of the restored revision is the newest, scaled up
        assert set(after) == set(before), (before, after)
        assert after[previous][0] == top + 1 and after[previous][1] >= 1, after
        assert after[faulty][1] == 0, after
        history = kubectl("rollout", "history", f"deployment/{case.target}")
        revisions = [line.split()[0] for line in history.splitlines()[2:] if line.strip()]
        assert str(top - 1) not in revisions and revisions[-1] == str(top + 1), history
        verdict = judge(twin, case.root, case.target, case.start, started, cluster.state.clock.now)
    finally:
        cluster.stop()
    assert verdict.mitigation_pass, verdict
    assert verdict.strict_mitigation_pass, verdict
