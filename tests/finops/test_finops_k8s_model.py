"""The FinOps Kubernetes model: HPA against the Kubernetes docs' worked examples, allocation,
the spend alert and the replay."""

from __future__ import annotations

import pytest

from finops.k8s.cost import NodeType, SpendAlert, allocate
from finops.k8s.hpa import (
    DEFAULT_SCALE_DOWN,
    HPAController,
    HPASpec,
    Policy,
    ScalingRules,
    raw_recommendation,
)
from finops.k8s.simulate import Config, WorkloadConfig, replay
from finops.k8s.workload import LoadProfile, Resources, Service

NO_LIMIT_UP = ScalingRules(0, (Policy("Percent", 1000, 15),), "Max")
NO_LIMIT_DOWN = ScalingRules(0, (Policy("Percent", 100, 15),), "Max")


def spec(lo=1, hi=100, target=100, up=NO_LIMIT_UP, down=NO_LIMIT_DOWN):
    return HPASpec(lo, hi, (("cpu", target),), up, down)


# Docs: "if the current metric value is 200m, and the desired value is 100m, the number of
# replicas will be doubled ... If the current value is instead 50m, you'll halve".
@pytest.mark.parametrize(
    ("current", "metric", "target", "want"),
    [
        (4, 200, 100, 8),
        (4, 50, 100, 2),
        (3, 105, 100, 3),  # within the 0.1 tolerance: no change
        (3, 111, 100, 4),  # outside it: ceil(3 × 1.11) = 4
        (10, 91, 100, 10),
        (10, 89, 100, 9),
    ],
)
def test_raw_recommendation_docs_examples(current, metric, target, want):
    assert raw_recommendation(current, metric, target) == want


def test_min_and_max_clamp():
    assert HPAController(spec(lo=5)).sync(0, 6, {"cpu": 10}) == 5
    assert HPAController(spec(hi=7)).sync(0, 4, {"cpu": 400}) == 7


def test_highest_metric_wins():
    s = HPASpec(1, 100, (("cpu", 50), ("memory", 50)), NO_LIMIT_UP, NO_LIMIT_DOWN)
    assert HPAController(s).sync(0, 4, {"cpu": 25, "memory": 150}) == 12


def test_scale_down_stabilisation_takes_window_maximum():
    # Default behaviour: 300 s window. A dip after a high recommendation does not scale down
    # until the high one leaves the window.
    ctl = HPAController(spec(down=DEFAULT_SCALE_DOWN))
    assert ctl.sync(0, 10, {"cpu": 100}) == 10
    assert ctl.sync(60, 10, {"cpu": 30}) == 10
    assert ctl.sync(299, 10, {"cpu": 30}) == 10
    assert ctl.sync(301, 10, {"cpu": 30}) == 3


# Docs (scaling policies): Pods 4 / 60 s and Percent 10 / 60 s, selectPolicy Max by default:
# "when the number of replicas is more than 40, the second policy is applied".
def test_scale_down_policies_select_max_change():
    down = ScalingRules(0, (Policy("Pods", 4, 60), Policy("Percent", 10, 60)), "Max")
    assert HPAController(spec(down=down)).sync(0, 80, {"cpu": 1}) == 72  # 10% of 80 = 8 > 4
    assert HPAController(spec(down=down)).sync(0, 20, {"cpu": 1}) == 16  # 4 > 10% of 20
    down_min = ScalingRules(0, down.policies, "Min")
    assert HPAController(spec(down=down_min)).sync(0, 80, {"cpu": 1}) == 76


def test_policy_period_counts_earlier_changes():
    down = ScalingRules(0, (Policy("Pods", 4, 60),), "Max")
    ctl = HPAController(spec(down=down))
    assert ctl.sync(0, 20, {"cpu": 1}) == 16
    assert ctl.sync(30, 16, {"cpu": 1}) == 16  # 4 already removed within the 60 s period
    assert ctl.sync(61, 16, {"cpu": 1}) == 12


def test_disabled_direction_never_moves():
    ctl = HPAController(spec(down=ScalingRules(0, (), "Disabled")))
    assert ctl.sync(0, 10, {"cpu": 1}) == 10


def test_default_scale_up_doubles_or_adds_four():
    ctl = HPAController(HPASpec(1, 100, (("cpu", 50),)))
    assert ctl.sync(0, 2, {"cpu": 500}) == 6  # max(2×2, 2+4)
    ctl = HPAController(HPASpec(1, 100, (("cpu", 50),)))
    assert ctl.sync(0, 10, {"cpu": 500}) == 20


NODE = NodeType("m5.xlarge", 4, 16, 0.04, 0.005)


def test_allocation_takes_max_of_usage_and_request():
    a = allocate(NODE, 2, cpu_used=0.2, mem_used=3.0, cpu_request=1.0, mem_request=1.0, hours=1)
    assert a.cpu_alloc_h == pytest.approx(2.0)  # request wins
    assert a.memory_alloc_h == pytest.approx(6.0)  # usage wins
    assert a.cost == pytest.approx(2 * 0.04 + 6 * 0.005)


def test_spend_alert_last_week_average_and_budget():
    alert = SpendAlert(20)
    assert not alert.fires(119, [100] * 7)
    assert alert.fires(121, [100] * 7)
    assert alert.fires(121, [50] * 3 + [100] * 7)  # only the last seven days count
    assert not SpendAlert(20, budget_per_day=200).fires(121, [100] * 7)


SVC = Service("api", LoadProfile(100, diurnal=0.5), 0.05, 0.01, 0.2, 0.002, 40)


def test_replay_hpa_follows_load_and_low_target_costs_more():
    res = Resources(0.5, 0.5)
    good = Config((("api", WorkloadConfig(res, 3, HPASpec(2, 30, (("cpu", 70),)))),), SpendAlert())
    low = Config((("api", WorkloadConfig(res, 3, HPASpec(2, 30, (("cpu", 20),)))),), SpendAlert())
    a, b = replay({"api": SVC}, good, NODE, 2), replay({"api": SVC}, low, NODE, 2)
    assert a.window(1).slo_violations == 0
    assert b.window(1).spend > 2 * a.window(1).spend
    cpu_eff = a.window(1).cpu_used_h / a.window(1).cpu_alloc_h
    assert 0.4 < cpu_eff < 0.8  # around the 70 % target, under the tolerance and the daily wave


def test_replay_too_few_pods_break_the_slo():
    cfg = Config((("api", WorkloadConfig(Resources(2, 1), 1)),), SpendAlert())
    assert replay({"api": SVC}, cfg, NODE, 1).days[0].slo_violations > 0
