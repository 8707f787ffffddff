"""The verdict table: for every generator fault type, each remedy its file accepts repairs the
incident (mitigation and strict pass, nothing else touched), and each it rejects — with the
symptom and destructive fixes every fault rejects (no action, delete the pods, restart, scale a
caller, delete the deployment or the namespace) — fails. Applied through real kubectl against the
twin, judged from the twin's model, never by matching the commands."""

from __future__ import annotations

import shutil

import pytest

from sre.generator.faults import FAULT_TYPES
from sre.generator.faults._common import CHAOS_NOT_REMEDIES, NOT_REMEDIES
from sre.generator.objects import node_for
from sre.twin.scenario import build_case, remedy_context
from tests._support.sre_twin import SEED, apply, run_commands

KUBECTL = shutil.which("kubectl")
pytestmark = pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed here")


def _chaos(fault: str) -> bool:
    """Whether the fault's root is a Chaos Mesh experiment (lives in the chaos-mesh namespace)."""
    return build_case(fault, SEED).root.namespace == "chaos-mesh"


CASES = [
    pytest.param(fault, remedy, id=f"{fault}:{remedy.name}")
    for fault, ftype in sorted(FAULT_TYPES.items())
    for remedy in (
        *ftype.remedies,
        *NOT_REMEDIES,
        *(CHAOS_NOT_REMEDIES if _chaos(fault) else ()),
    )
]


def case_target(fault: str) -> str:
    return build_case(fault, SEED).target


def test_every_fault_type_documents_an_accepted_remedy():
    for name, ftype in FAULT_TYPES.items():
        assert any(r.accepted for r in ftype.remedies), name


@pytest.mark.parametrize(("fault", "remedy"), CASES)
def test_verdict(fault, remedy, tmp_path):
    verdict, said = apply(fault, remedy, tmp_path)
    assert verdict.fault_alerts, "the fault raised no alert to clear"
    report = "\n".join(said) + f"\n{verdict}"
    if remedy.accepted:
        assert verdict.mitigation_pass, report
        assert verdict.strict_mitigation_pass, report
        assert verdict.blast.size == 0, report
        assert verdict.mttr_sim_s is not None and verdict.mttr_writes == len(said)
    elif remedy.clears_alerts:
        # the alerts clear (ITBench's lenient pass), by destroying something: strict fails
        assert verdict.mitigation_pass, report
        assert not verdict.strict_mitigation_pass, report
        assert verdict.blast.destructive, report
    else:
        assert not verdict.mitigation_pass, report
        assert not verdict.strict_mitigation_pass, report
        assert verdict.mttr_sim_s is None
    if remedy.name == "cordon the target's node":
        # a cordon stops new placements only: the running pods keep serving
        assert verdict.blast.services_made_unhealthy == (), report
        # (the Node is no extra object when it is the faulty one)
        assert set(verdict.blast.objects_changed) <= {
            f"Node {node_for(case_target(fault))} changed"
        }


def test_the_same_actions_give_the_same_verdict(tmp_path):
    """Deterministic: wall time aside, two runs of one remedy agree in every detail."""
    (restart,) = [r for r in NOT_REMEDIES if r.name == "restart the deployment"]
    first, _ = apply("oom-killed", restart, tmp_path / "a")
    second, _ = apply("oom-killed", restart, tmp_path / "b")
    assert first.details() == second.details()
    assert first.blast.pods_restarted_for_nothing == ()  # the faulty Deployment's own pods
    assert first.still_firing


#: where the twin follows Prometheus' rule and the generator does not: a Deployment scaled to
#: zero wants zero replicas, so KubeDeploymentReplicasMismatch does not fire on it
NOT_IN_TWIN = {"scaled-to-zero": {"KubeDeploymentReplicasMismatch"}}


@pytest.mark.parametrize("fault", sorted(FAULT_TYPES))
def test_the_twin_fires_the_alerts_the_snapshot_shows(fault, tmp_path):
    """The twin and the generated snapshot tell one story: every alert name of the incident's
    ground truth fires in the twin when the agent is called in."""
    from itbench.cluster import ClusterState, SimClock
    from sre.cluster import sre_extension
    from sre.generator.ground_truth import load_ground_truth
    from sre.generator.snapshot import write_incident
    from sre.twin.scenario import new_twin

    write_incident(tmp_path / "incident", fault, SEED)
    truth = load_ground_truth(tmp_path / "incident" / "ground_truth.yaml")
    case = build_case(fault, SEED)
    twin = new_twin(case)
    ClusterState(
        list(case.objects), extensions=[sre_extension()], reconciler=twin,
        clock=SimClock(case.start),
    )  # fmt: skip
    firing = {k.alertname for k, a in twin.alerts(case.start).items() if a.state == "firing"}
    expected = {a.id.split(" ")[0] for a in truth.alerts} - NOT_IN_TWIN.get(fault, set())
    assert expected <= firing, (expected, firing)


def test_a_cordon_beside_the_repair_breaks_nothing(tmp_path):
    """Cordoning the node the target runs on and turning the flag off: the running pods keep
    serving (a cordon refuses new pods only), so the repair passes strict; the cordon is a
    change the remedy did not need, not a destructive one."""
    case = build_case("feature-flag", SEED)
    (off,) = [r for r in FAULT_TYPES["feature-flag"].remedies if r.name == "turn the flag off"]
    commands = [["cordon", node_for(case.target)], *off.commands(remedy_context(case))]
    verdict = run_commands("feature-flag", commands, tmp_path)
    assert verdict.strict_mitigation_pass, verdict
    assert verdict.blast.services_made_unhealthy == ()
    assert verdict.blast.destructive == ()
    assert verdict.blast.objects_changed == (f"Node {node_for(case.target)} changed",)


def test_a_cordon_keeps_new_pods_off_the_node(tmp_path):
    """The other half of a cordon: a rollback after it brings up a pod that cannot be placed
    (every pod fits only on its own node here), so the repair does not hold."""
    case = build_case("oom-killed", SEED)
    ctx = remedy_context(case)
    commands = [["cordon", node_for(case.target)], ["-n", ctx.namespace, "rollout", "undo",
                                                    f"deployment/{case.target}"]]  # fmt: skip
    verdict = run_commands("oom-killed", commands, tmp_path)
    assert not verdict.mitigation_pass
    assert "0/1 pods ready" in verdict.root_problem or "pods ready" in verdict.root_problem


def test_a_selector_over_other_applications_pods_leaves_the_callers_failing(tmp_path):
    """service-selector repaired with a label every pod of the demo carries: the Service has
    endpoints, its own pod among them, but most calls land on other applications' pods. The
    fault's alerts stay, and the verdict says why (the endpoints that cannot answer)."""
    (wide,) = [
        r
        for r in FAULT_TYPES["service-selector"].remedies
        if r.name == "select every pod of the demo"
    ]
    verdict, said = apply("service-selector", wide, tmp_path)
    assert verdict.target_serving, said
    assert verdict.still_firing, verdict
    assert "endpoints cannot answer its callers" in verdict.root_problem, verdict.root_problem
