"""Two changes that read as innocent next to a louder one.

A ``kubectl rollout restart`` (pod-template annotations only) changes nothing its new pods read:
when they then fail on what they read at start (``CreateContainerConfigError``, or a crash loop
on a rotated password), the Secret or
ConfigMap the workload reads that was edited before the restart is the cause, not the restart
that came closer to the first symptom.

A Node cordoned or given a new blocking taint takes capacity away: the pods that ran on it and
now wait (``FailedScheduling``) wait because of it, so it outranks their unchanged workload,
even when the Pending alert fires long after."""

from __future__ import annotations

from datetime import datetime

from sre.agents.baseline.evidence import (
    AlertGroup,
    Change,
    Evidence,
    FailingState,
    PodLabels,
    Symptom,
    WarningEvent,
)
from sre.agents.baseline.rank import rank
from tests._support.sre_incident_files import clock

T0 = datetime(2026, 9, 3, 14, 0)
LABELS = {"app.kubernetes.io/name": "ledger"}
_at = clock(T0)


def _secret_edit(minute: float) -> Change:
    return Change(namespace="bank", kind="Secret", name="ledger-db", time=_at(minute),
                  change="modified", paths=("data.DB_HOST", "data.DATABASE_HOST"), spec={},
                  values=(("data.DB_HOST", "xx", None), ("data.DATABASE_HOST", None, "xx")))  # fmt: skip


def _rollout(minute: float, paths: tuple[str, ...]) -> Change:
    return Change(namespace="bank", kind="Deployment", name="ledger", time=_at(minute),
                  change="modified", paths=paths, spec={})  # fmt: skip


RESTART = ("spec.template.metadata.annotations",)


def _restart_case(changes: tuple[Change, ...], waiting: str) -> list[str]:
    pod = "ledger-5d8f7c9b4-x2k7q"
    evidence = Evidence(
        changes=changes,
        warnings=(WarningEvent("bank", "Pod", pod, "Failed", 3),),
        alerts=(AlertGroup("KubeDeploymentReplicasMismatch", "ledger", "bank", _at(8), "firing"),),
        onset=_at(8), paths=(),
        states=(FailingState("bank", "Deployment", "ledger", "ledger",
                             f"pod {pod} container ledger: {waiting}", 3.0, _at(5)),),
        config_users={"bank/Secret/ledger-db": frozenset({"ledger"})},
        symptoms=(Symptom("teller", _at(5.5), "errors of server spans of it 0% -> 70%"),),
    )  # fmt: skip
    return [c.change.entity for c in rank(evidence)]


def test_a_restart_that_took_up_a_broken_secret_hands_it_the_blame():
    edited_then_restarted = (_secret_edit(1), _rollout(4, RESTART))
    ranked = _restart_case(edited_then_restarted, "CreateContainerConfigError")
    assert ranked[0] == "bank/Secret/ledger-db", ranked
    # a restart that also changed the image may have broken the pods itself
    ranked = _restart_case(
        (_secret_edit(1), _rollout(4, (*RESTART, "spec.template.spec.containers.0.image"))),
        "CreateContainerConfigError",
    )
    assert ranked[0] == "bank/Deployment/ledger", ranked


def test_the_restart_keeps_the_blame_when_its_pods_fail_otherwise():
    # an image the registry refuses is not what the pods read at start: the restart's own case
    ranked = _restart_case((_secret_edit(1), _rollout(4, RESTART)), "ImagePullBackOff")
    assert ranked[0] == "bank/Deployment/ledger", ranked
    # with the configuration error, the Secret edited before the restart is blamed
    ranked = _restart_case((_secret_edit(3), _rollout(4, RESTART)), "CreateContainerConfigError")
    assert ranked[0] == "bank/Secret/ledger-db", ranked


def test_a_crash_loop_after_a_restart_is_the_rotated_secret_it_took_up():
    # the process exits on the value it read at start (a rotated password): the restart only
    # made new pods read the Secret edited long before it
    ranked = _restart_case((_secret_edit(1), _rollout(9, RESTART)), "CrashLoopBackOff")
    assert ranked[0] == "bank/Secret/ledger-db", ranked


RECREATE = ("spec.strategy.type", "spec.strategy.rollingUpdate")


def test_a_restart_that_also_switched_to_recreate_still_only_restarted():
    # the rollout strategy says how the pods are replaced, nothing a pod reads
    ranked = _restart_case(
        (_secret_edit(1), _rollout(4, (*RESTART, *RECREATE))), "CrashLoopBackOff"
    )
    assert ranked[0] == "bank/Secret/ledger-db", ranked
    # a strategy change alone restarts nothing: no pod took up the Secret through it
    ranked = _restart_case((_secret_edit(1), _rollout(4, RECREATE)), "CrashLoopBackOff")
    assert ranked[0] != "bank/Secret/ledger-db" or len(ranked) == 1, ranked


def _node_edit(values: tuple[tuple[str, object, object], ...]) -> Change:
    return Change(namespace="", kind="Node", name="node-b", time=_at(0), change="modified",
                  paths=tuple(p for p, _, _ in values), spec={}, values=values)  # fmt: skip


CORDON = (
    ("spec.unschedulable", None, True),
    ("spec.taints", None, [{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}]),
)
TAINT = (("spec.taints", [], [{"key": "maintenance", "effect": "NoExecute"}]),)
SOFT_TAINT = (("spec.taints", [], [{"key": "maintenance", "effect": "PreferNoSchedule"}]),)


def _cordon_case(node_change: Change, ran_on: str) -> list[str]:
    waiting = "ledger-7c6b5d4f8-q9w2e"
    evidence = Evidence(
        changes=(node_change,),
        warnings=(WarningEvent("bank", "Pod", waiting, "FailedScheduling", 4,
                               "0/3 nodes are available: 1 node(s) were unschedulable"),),
        alerts=(AlertGroup("KubePodNotScheduled", "ledger", "bank", _at(9), "firing"),),
        # the Pending alert fires long after the cordon: the change is not "just before" it
        onset=_at(12), paths=(),
        states=(FailingState("bank", "Deployment", "ledger", "ledger",
                             f"pod {waiting} cannot be scheduled: Insufficient cpu", 2.5),),
        pods=(PodLabels("bank", "ledger-7c6b5d4f8-a1b2c", "ledger", LABELS, ran_on),
              PodLabels("bank", waiting, "ledger", LABELS, "")),
    )  # fmt: skip
    return [c.change.entity for c in rank(evidence)]


def test_a_cordoned_or_tainted_node_outranks_the_workload_whose_pods_wait():
    for values in (CORDON, TAINT):
        ranked = _cordon_case(_node_edit(values), ran_on="node-b")
        assert ranked[0] == "Node/node-b", (values, ranked)
    # a taint that only discourages placement takes no capacity away
    ranked = _cordon_case(_node_edit(SOFT_TAINT), ran_on="node-b")
    assert ranked[0] == "bank/Deployment/ledger", ranked


def test_a_cordoned_node_the_waiting_pods_never_ran_on_is_not_promoted():
    ranked = _cordon_case(_node_edit(CORDON), ran_on="node-a")
    assert ranked[0] == "bank/Deployment/ledger", ranked
    ranked = _cordon_case(_node_edit(CORDON), ran_on="node-b")
    assert ranked[0] == "Node/node-b", ranked


MOUNT = ("spec.template.spec.containers[0].volumeMounts",)


def test_a_configuration_edited_after_the_workload_takes_its_failing_state():
    # the workload's own edit ran fine for a quarter of an hour; the Secret it reads changed
    # later and the next pod to start crashed on it (an eviction, no change of the workload)
    ranked = _restart_case((_rollout(-25, MOUNT), _secret_edit(-12)), "CrashLoopBackOff")
    assert ranked[0] == "bank/Secret/ledger-db", ranked


def test_a_workload_edit_just_before_the_incident_keeps_its_failing_state():
    # edited just before the first alert, the workload's own spec is as likely as the Secret
    ranked = _restart_case((_secret_edit(-12), _rollout(6, MOUNT)), "CrashLoopBackOff")
    assert ranked[0] == "bank/Deployment/ledger", ranked
