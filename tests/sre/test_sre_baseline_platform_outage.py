"""A platform component scaled to zero.

The cluster's own namespaces hold what every pod relies on (name resolution, ...): their routine
edits are not the application's faults, but a workload there left with no replica fails every
application at once. Scaled to zero just before the symptoms began, it outranks a louder but
unrelated application warning; scaled down but not to zero, it stays out of the ranking."""

from __future__ import annotations

from datetime import datetime

from sre.agents.baseline.evidence import (
    AlertGroup,
    CallPath,
    Change,
    Evidence,
    Symptom,
    WarningEvent,
)
from sre.agents.baseline.rank import rank
from tests._support.sre_incident_files import clock

T0 = datetime(2026, 8, 14, 3, 0)
_at = clock(T0)


def _scaled(to: int) -> Change:
    # a periodic export saw it at two replicas at minute 5 and at ``to`` at minute 10
    return Change(namespace="kube-system", kind="Deployment", name="name-resolver", time=_at(10),
                  change="modified", paths=("spec.replicas",), spec={},
                  values=(("spec.replicas", 2, to),), since=_at(5))  # fmt: skip


def _ranked(change: Change) -> list[str]:
    evidence = Evidence(
        changes=(change,),
        warnings=(WarningEvent("shop", "Pod", "pricer-5c9d7b8f6-k2m4p", "BackOff", 2),),
        alerts=(AlertGroup("ErrorRateHigh", "basket", "shop", _at(11), "firing"),),
        onset=_at(11),
        paths=(CallPath(("web", "basket"), "CRITICAL", "basket", "error rate 0% -> 90%", ()),),
        symptoms=(Symptom("basket", _at(7), "errors of calls to it 0% -> 90%"),
                  Symptom("courier", _at(7.5), "errors of server spans of it 0% -> 100%")),
    )  # fmt: skip
    return [c.change.entity for c in rank(evidence)]


def test_a_platform_workload_scaled_to_zero_is_the_cause():
    ranked = _ranked(_scaled(0))
    assert ranked[0] == "kube-system/Deployment/name-resolver", ranked


def test_a_platform_workload_scaled_down_but_serving_is_not_a_candidate():
    ranked = _ranked(_scaled(1))
    assert "kube-system/Deployment/name-resolver" not in ranked, ranked


def _deployment(replicas: int) -> dict:
    return {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "name-resolver", "namespace": "kube-system",
                         "creationTimestamp": "2026-08-01T00:00:00Z"},
            "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": "resolver"}}}}  # fmt: skip


def test_a_scale_is_dated_between_the_observations_that_bound_it(tmp_path):
    import json

    from sre.agents.baseline.evidence import gather

    header = "Timestamp\tBody\n"
    rows = [(f"2026-08-14 03:{m:02d}:00.000000000", _deployment(n)) for m, n in ((0, 2), (5, 2), (10, 0))]  # fmt: skip
    (tmp_path / "k8s_objects_raw.tsv").write_text(
        header + "".join(f"{ts}\t{json.dumps(body)}\n" for ts, body in rows)
    )
    changes = [c for c in gather(tmp_path).changes if c.name == "name-resolver"]
    assert len(changes) == 1, changes
    # a scale makes no ReplicaSet: it was made after the observation at 03:05 and up to 03:10
    assert changes[0].since == _at(5) and changes[0].time == _at(10), changes[0]
