"""Two incidents whose loudest candidate is not their cause.

A prioritized workload of another namespace scaled up puts a lower-priority application's pods
out (``Preempted``), and their replacements wait (``FailedScheduling``): the scale-up is the
cause, not the victim's unchanged workload, whatever the pending pods' own state says.

Another team's workload crash-looping since long before the incident keeps its alert firing;
the alert dumps begin after the fault, so the dump that first holds it is no older than the
incident's own alerts. The alert's own start time (``activeAt``) says it was already on: the
workload is background and does not outrank the change the incident followed."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from sre.agents.baseline.evidence import (
    AlertGroup,
    Change,
    Evidence,
    FailingState,
    Symptom,
    WarningEvent,
    _alerts,
)
from sre.agents.baseline.rank import rank
from sre.snapshot.layout import SnapshotLayout

T0 = datetime(2026, 7, 11, 6, 0)


def _at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def _scale_up(priority_class: str | None) -> Change:
    template = {"spec": {"priorityClassName": priority_class}} if priority_class else {"spec": {}}
    return Change(namespace="reports", kind="Deployment", name="nightly-rollup", time=_at(2),
                  change="modified", paths=("spec.replicas",),
                  spec={"replicas": 5, "template": template},
                  values=(("spec.replicas", 1, 5),))  # fmt: skip


def _preemption_case(scaler: Change) -> list[str]:
    waiting = "ledger-6f7d8c9b5-k2m4n"
    evidence = Evidence(
        changes=(scaler,),
        warnings=(WarningEvent("bank", "Pod", waiting, "FailedScheduling", 6,
                               "0/2 nodes are available: 2 Insufficient memory.", _at(2.5)),),
        alerts=(AlertGroup("KubePodNotReady", waiting, "bank", _at(9), "firing"),
                AlertGroup("PaymentsFailing", "teller", "bank", _at(9), "firing")),
        # the victims' alerts fire long after the scale-up: it is not "just before" them
        onset=_at(9), paths=(),
        states=(FailingState("bank", "Deployment", "ledger", "ledger",
                             f"pod {waiting} cannot be scheduled: Insufficient memory", 2.5,
                             unplaced=True),),
        symptoms=(Symptom("teller", _at(3), "errors of server spans of it 0% -> 60%"),),
    )  # fmt: skip
    return [c.change.entity for c in rank(evidence)]


def test_a_prioritized_scale_up_elsewhere_outranks_the_workload_it_preempted():
    ranked = _preemption_case(_scale_up("overnight-critical"))
    assert ranked[0] == "reports/Deployment/nightly-rollup", ranked


def test_a_scale_up_without_priority_leaves_the_waiting_workload_first():
    # pods without a priority preempt nothing: their pending replacements are not its doing
    ranked = _preemption_case(_scale_up(None))
    assert ranked[0] == "bank/Deployment/ledger", ranked


def _old_alert_case(active_since: datetime | None) -> list[str]:
    crashing = "indexer-0"
    evidence = Evidence(
        changes=(
            Change(namespace="shop", kind="CronJob", name="cache-trim", time=_at(1),
                   change="modified", paths=("spec.schedule",), spec={},
                   values=(("spec.schedule", "0 4 * * 6", "*/15 * * * *"),)),
        ),
        warnings=(WarningEvent("catalog-search", "Pod", crashing, "BackOff", 8, "",
                               _at(-30)),),
        # every alert is first held by the first dump, taken after the fault
        alerts=(AlertGroup("HighErrorRate", "basket", "shop", _at(14), "firing", _at(12)),
                AlertGroup("KubeStatefulSetReplicasMismatch", "catalog-search",
                           "catalog-search", _at(14), "firing", active_since)),
        onset=_at(14), paths=(),
        states=(FailingState("catalog-search", "StatefulSet", "indexer", crashing,
                             f"pod {crashing} container indexer: CrashLoopBackOff", 3.0),),
        symptoms=(Symptom("basket", _at(11), "ERROR log lines 0% -> 70%", logs=True),),
        job_runs={"shop/CronJob/cache-trim": (_at(10), _at(25))},
    )  # fmt: skip
    return [c.change.entity for c in rank(evidence)]


def test_an_alert_firing_for_hours_before_the_dumps_marks_its_workload_as_background():
    ranked = _old_alert_case(active_since=_at(-90))
    assert ranked[0] == "shop/CronJob/cache-trim", ranked


def test_an_alert_that_began_with_the_incident_keeps_its_namespace_in_it():
    # its own start a few minutes before the first dump is the alert's ``for``, not old news:
    # the crash loop stays a candidate of its own and is not set aside as background
    for near_start in (_at(11), None):  # or no start time at all
        ranked = _old_alert_case(active_since=near_start)
        assert ranked[0] == "catalog-search/StatefulSet/indexer", (near_start, ranked)


def test_the_alerts_carry_their_own_start_beside_the_first_dump_holding_them(tmp_path):
    folder = tmp_path / "alerts"
    folder.mkdir()
    for stamp in ("2026-07-11T06-14-00.000000", "2026-07-11T06-20-00.000000"):
        alerts = [
            {"labels": {"alertname": "IndexerDown", "namespace": "catalog-search",
                        "service_name": "indexer"},
             "state": "firing", "activeAt": "2026-07-11T04:30:00Z"},
            {"labels": {"alertname": "HighErrorRate", "namespace": "shop",
                        "service_name": "basket"},
             "state": "firing", "activeAt": "2026-07-11T06:12:00Z"},
        ]  # fmt: skip
        body = {"status": "success", "data": {"alerts": alerts}}
        (folder / f"alerts_at_{stamp}.json").write_text(json.dumps(body))
    found = {a.entity: a for a in _alerts(SnapshotLayout(tmp_path), [])}
    assert found["indexer"].first_seen == _at(14)
    assert found["indexer"].active_since == datetime(2026, 7, 11, 4, 30)
    assert found["basket"].active_since == _at(12)
