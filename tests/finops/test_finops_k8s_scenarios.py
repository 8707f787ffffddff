"""Generated Kubernetes cost scenarios: each family's ground truth and the verdict's judgement of
the optimum, doing nothing, muting the alert and halving everything, per family and seed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from finops.k8s.cost import SpendAlert
from finops.k8s.scenario import FAMILIES, generate
from finops.k8s.simulate import Config
from finops.k8s.verdict import diagnosis_matches, judge
from finops.k8s.workload import Resources

CASES = [(f, seed) for f in FAMILIES for seed in (1, 2)]


def halve(cfg: Config) -> Config:
    out = cfg
    for n, w in cfg.workloads:
        r = w.resources
        half = Resources(
            r.cpu_request / 2,
            r.memory_request / 2,
            r.cpu_limit and r.cpu_limit / 2,
            r.memory_limit and r.memory_limit / 2,
        )
        w2 = replace(w, replicas=w.replicas // 2, resources=half)
        if w.hpa:
            lo, hi = max(1, w.hpa.min_replicas // 2), max(1, w.hpa.max_replicas // 2)
            w2 = replace(w2, hpa=replace(w.hpa, min_replicas=lo, max_replicas=hi))
        out = out.with_workload(n, w2)
    return out


@pytest.fixture(scope="module", params=CASES, ids=[f"{f}-{s}" for f, s in CASES])
def scenario(request):
    return generate(*request.param)


def test_generation_is_seeded():
    assert generate("hpa-target-low", 3) == generate("hpa-target-low", 3)
    assert generate("hpa-target-low", 3) != generate("hpa-target-low", 4)


def test_alert_fires_on_the_incident_day(scenario):
    assert 0 in scenario.evaluate_replay(scenario.incident).alert_days


def test_optimum_passes_with_proximity_one(scenario):
    v = judge(scenario, scenario.optimal)
    assert v.mitigation_pass, v
    assert v.proximity_cpu_cost == v.proximity_memory_cost == 1.0
    assert v.slo_violations == 0


def test_doing_nothing_fails(scenario):
    assert not judge(scenario, scenario.incident).mitigation_pass


def test_muting_the_alert_fails(scenario):
    assert not judge(
        scenario, Config(scenario.incident.workloads, SpendAlert(1000))
    ).mitigation_pass


def test_halving_everything_fails(scenario):
    v = judge(scenario, halve(scenario.incident))
    assert not v.mitigation_pass, v
    assert v.blast_radius


def test_workload_families_optimum_cheaper_than_incident(scenario):
    inc = scenario.evaluate_replay(scenario.incident).window(0).spend
    opt = scenario.evaluate_replay(scenario.optimal).window(0).spend
    if scenario.remedy == "workload":
        assert opt < 0.8 * inc
    else:
        assert opt == pytest.approx(inc)  # a genuine rise: the workload stays as it is


def test_diagnosis_names_workload_kind_and_field(scenario):
    c = scenario.cause
    assert diagnosis_matches(scenario, c.workload, c.kind, c.field)
    assert not diagnosis_matches(scenario, "nobody", c.kind, c.field)
    assert not diagnosis_matches(scenario, c.workload, "PodDisruptionBudget", c.field)
