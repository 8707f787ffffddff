"""A HorizontalPodAutoscaler older than the window scales a slowed service out: the replica-only
changes it makes follow the incident's load and must not be blamed as its cause (they came
just before the first alert, and a replica edit otherwise reads as unusual). A count outside
the autoscaler's range (zero, past its maximum) is someone's edit and stays a candidate."""

from __future__ import annotations

from datetime import datetime, timedelta

from sre.agents.baseline.evidence import Change, Evidence, Symptom
from sre.agents.baseline.rank import rank
from sre.agents.baseline.state import _autoscalers
from sre.agents.baseline.states.objects import ObjectView

START = datetime(2026, 7, 1, 8, 0)
SLOW = START + timedelta(minutes=15)


def _scaled(old: int, new: int, minute: int) -> Change:
    return Change(namespace="shop", kind="Deployment", name="pricing",
                  time=START + timedelta(minutes=minute), change="modified",
                  paths=("spec.replicas",), spec={}, values=(("spec.replicas", old, new),))  # fmt: skip


def _candidates(changes: tuple[Change, ...], autoscalers: dict) -> list[str]:
    evidence = Evidence(
        changes=changes, warnings=(), alerts=(), onset=SLOW + timedelta(minutes=8), paths=(),
        symptoms=(Symptom("pricing", SLOW, "latency of server spans of it 20 ms -> 900 ms"),),
        autoscalers=autoscalers,
    )  # fmt: skip
    return [c.change.entity for c in rank(evidence)]


def test_an_autoscalers_scale_out_is_no_candidate():
    scale_out = (_scaled(1, 2, 18), _scaled(2, 4, 21))
    assert _candidates(scale_out, {("shop", "pricing"): (1, 4)}) == []
    # no autoscaler scales it: the replica edit is a candidate
    assert _candidates(scale_out, {}) == ["shop/Deployment/pricing"]
    # an autoscaler of another workload says nothing of this one
    assert _candidates(scale_out, {("shop", "checkout"): (1, 4)}) == ["shop/Deployment/pricing"]


def test_a_count_outside_the_autoscalers_range_stays_a_candidate():
    for old, new in ((2, 0), (2, 9)):
        assert _candidates((_scaled(old, new, 18),), {("shop", "pricing"): (1, 4)}) == [
            "shop/Deployment/pricing"
        ], new


def test_an_autoscaler_whose_bounds_are_no_counts_is_skipped_not_a_crash():
    """An exported HPA with a bound that is not an integer gives no range (and no traceback)."""

    def hpa(name: str, spec: dict) -> tuple[datetime, dict]:
        return START, {"kind": "HorizontalPodAutoscaler",
                       "metadata": {"namespace": "shop", "name": name},
                       "spec": {"scaleTargetRef": {"kind": "Deployment", "name": name}, **spec}}  # fmt: skip

    view = ObjectView.of([hpa("pricing", {"minReplicas": "two", "maxReplicas": 4}),
                          hpa("cart", {"maxReplicas": 5}), hpa("ads", {"minReplicas": 2})])  # fmt: skip
    assert _autoscalers(view) == {("shop", "cart"): (1, 5), ("shop", "ads"): (2, 2)}
