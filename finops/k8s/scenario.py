"""Kubernetes cost scenarios in families, generated from a seed, with their ground truth derived.

Every scenario has a week of history under a sound configuration (days 0-6) and an incident day
(day 7) on which the namespace's spend alert fires. The agent is called in at the end of day 7;
the evaluator replays days 7-8 on the configuration the agent leaves. The cause is named as
(workload, kind, field); the optimal configuration is found by a search over the cause's knobs
(the cheapest that keeps the SLO), so the proximities have a 1.0 to aim at.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from finops.k8s.cost import NodeType, SpendAlert
from finops.k8s.hpa import HPASpec
from finops.k8s.simulate import Config, Replay, WorkloadConfig, replay
from finops.k8s.workload import DAY_S, LoadProfile, LoadSeries, Resources, Service, Step

__all__ = ["FAMILIES", "Cause", "K8sScenario", "generate", "optimise"]

HISTORY_DAYS = 7
INCIDENT_DAY = 7
EVAL_DAYS = 2  # the incident day and the next
#: steps out of the SLO a fix may cause: ten simulated minutes over two days, a scale-up's lag
SLO_TOLERANCE_STEPS = 2

NODES = (
    NodeType("m5.xlarge", 4, 16, 0.0400, 0.0050),
    NodeType("c5.2xlarge", 8, 16, 0.0350, 0.0060),
    NodeType("r5.xlarge", 4, 32, 0.0450, 0.0040),
)

ALERT_KIND = "ConfigMap"  # the alert's rule lives in the ``cost-alert`` ConfigMap
ALERT_OBJECT = "cost-alert"


@dataclass(frozen=True)
class Cause:
    workload: str  # the workload whose change or rise drives the spend
    kind: str  # the object to change: HorizontalPodAutoscaler, Deployment or ConfigMap
    name: str  # that object's name
    field: str  # the field at fault, as a JSON path in the object


@dataclass(frozen=True)
class K8sScenario:
    id: str
    family: str
    seed: int
    namespace: str
    node: NodeType
    services: tuple[Service, ...]
    before: Config  # the configuration during the history week
    incident: Config  # the configuration the agent finds
    cause: Cause
    #: the remedy's direction: "alert" (raise the alert, leave the workload), or "workload"
    remedy: str
    optimal: Config
    #: the history week's daily spends (the alert's reference)
    history: tuple[float, ...]
    #: the history week's daily spend per workload
    history_by_workload: tuple[tuple[tuple[str, float], ...], ...]
    #: the replicas at the end of the history week (where the HPAs take over from)
    history_replicas: tuple[tuple[str, int], ...]
    #: other diagnoses accepted besides ``cause`` (a scenario folder's ``alsoAccepted``)
    accepted: tuple[Cause, ...] = ()
    #: the words a diagnosis's field may use, per accepted cause's field (a scenario folder's
    #: ``fieldWords``; the generator's fields have theirs in ``verdict``)
    field_words: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: the incident's objects as a scenario folder wrote them (JSON), served as written; empty
    #: for a generated scenario, whose objects ``objects.manifests`` writes
    manifests_json: str = ""

    @property
    def service_map(self) -> dict[str, Service]:
        return {s.name: s for s in self.services}

    def evaluate_replay(self, config: Config, days: int = EVAL_DAYS) -> Replay:
        """Days 7-8 (or ``days`` from 7) on ``config`` after the history week, replicas as the
        agent found them."""
        shifted = {s.name: _shift(s, INCIDENT_DAY) for s in self.services}
        found = dict(self.history_replicas)
        start = {n: found[n] for n, w in config.workloads if w.hpa is not None and n in found}
        return replay(shifted, config, self.node, days, start, list(self.history))


def _shift(svc: Service, days: int) -> Service:
    """The service with its load's day 0 moved to ``days``."""
    return replace(svc, load=svc.load.shifted(days))


def _service(rng: random.Random, name: str, rps: float, steps: tuple[Step, ...] = ()) -> Service:
    return Service(
        name=name,
        load=LoadProfile(
            rps, diurnal=rng.uniform(0.3, 0.6), peak_hour=rng.uniform(11, 16), steps=steps
        ),
        cpu_floor=round(rng.uniform(0.03, 0.08), 3),
        cpu_per_rps=round(rng.uniform(0.006, 0.012), 4),
        memory_floor=round(rng.uniform(0.15, 0.3), 3),
        memory_per_rps=round(rng.uniform(0.001, 0.003), 4),
        capacity_rps=round(rng.uniform(50, 80), 1),
    )


def _hpa(lo: int = 2, hi: int = 40, target: int = 70, resource: str = "cpu") -> HPASpec:
    return HPASpec(lo, hi, ((resource, target),))


def _sound(svc: Service, hpa: bool = True) -> WorkloadConfig:
    """Requests near the peak usage of a pod at the HPA's target, limits at twice the request."""
    cpu = round(svc.cpu_floor + svc.cpu_per_rps * svc.capacity_rps * 0.6, 2)
    mem = round(svc.memory_floor + svc.memory_per_rps * svc.capacity_rps, 2) + 0.1
    res = Resources(cpu, mem, round(cpu * 2, 2), round(mem * 2, 2))
    if hpa:
        return WorkloadConfig(res, 3, _hpa())
    load = svc.load
    assert isinstance(load, LoadProfile), "the generator's services carry a load profile"
    peak = load.base_rps * (1 + load.diurnal)
    return WorkloadConfig(res, max(2, int(peak / (svc.capacity_rps * 0.6)) + 1))


def _history(services: tuple[Service, ...], before: Config, node: NodeType) -> Replay:
    return replay({s.name: s for s in services}, before, node, HISTORY_DAYS)


# Each family: (rng) -> (services, before, incident, cause, remedy, knobs to search)
Knobs = Callable[[Config], Iterator[Config]]


def _fam_budget_too_low(rng: random.Random):
    api = _service(rng, "api", rng.uniform(150, 300), (Step(INCIDENT_DAY, rng.uniform(1.5, 1.9)),))
    web = _service(rng, "web", rng.uniform(60, 120))
    before = Config((("api", _sound(api)), ("web", _sound(web))), SpendAlert(20, budget_per_day=0))
    return (
        (api, web),
        before,
        before,
        Cause("api", ALERT_KIND, ALERT_OBJECT, "data.budgetPerDay"),
        "alert",
    )


def _fam_noisy_neighbour(rng: random.Random):
    api = _service(rng, "api", rng.uniform(100, 200))
    reports = _service(
        rng, "reports", rng.uniform(100, 200), (Step(INCIDENT_DAY, rng.uniform(2.2, 3.0)),)
    )
    before = Config((("api", _sound(api)), ("reports", _sound(reports))), SpendAlert(20))
    return (
        (api, reports),
        before,
        before,
        Cause("reports", ALERT_KIND, ALERT_OBJECT, "data.budgetPerDay"),
        "alert",
    )


def _fam_hpa_target_low(rng: random.Random):
    api = _service(rng, "api", rng.uniform(150, 300))
    web = _service(rng, "web", rng.uniform(60, 120))
    before = Config((("api", _sound(api)), ("web", _sound(web))), SpendAlert(20))
    bad = replace(before.workload("api"), hpa=_hpa(target=rng.choice((10, 15, 20, 25))))
    cause = Cause(
        "api",
        "HorizontalPodAutoscaler",
        "api",
        "spec.metrics[0].resource.target.averageUtilization",
    )
    return (api, web), before, before.with_workload("api", bad), cause, "workload"


def _fam_hpa_min_high(rng: random.Random):
    api = _service(rng, "api", rng.uniform(100, 200))
    web = _service(rng, "web", rng.uniform(60, 120))
    before = Config((("api", _sound(api)), ("web", _sound(web))), SpendAlert(20))
    lo = rng.randint(18, 30)
    bad = replace(before.workload("api"), hpa=_hpa(lo=lo, hi=max(40, lo + 10)), replicas=lo)
    cause = Cause("api", "HorizontalPodAutoscaler", "api", "spec.minReplicas")
    return (api, web), before, before.with_workload("api", bad), cause, "workload"


def _fam_requests_high(rng: random.Random):
    api = _service(rng, "api", rng.uniform(100, 200))
    worker = _service(rng, "worker", rng.uniform(100, 200))
    before = Config((("api", _sound(api)), ("worker", _sound(worker, hpa=False))), SpendAlert(20))
    w = before.workload("worker")
    f = rng.uniform(4, 6)
    res = Resources(round(w.resources.cpu_request * f, 2), round(w.resources.memory_request * f, 2))
    cause = Cause(
        "worker", "Deployment", "worker", "spec.template.spec.containers[0].resources.requests"
    )
    return (
        (api, worker),
        before,
        before.with_workload("worker", replace(w, resources=res)),
        cause,
        "workload",
    )


def _fam_memory_limit(rng: random.Random):
    api = _service(rng, "api", rng.uniform(150, 300))
    web = _service(rng, "web", rng.uniform(60, 120))
    sound = _sound(api)
    sound = replace(sound, hpa=HPASpec(2, 60, (("cpu", 70), ("memory", 80))))
    before = Config((("api", sound), ("web", _sound(web))), SpendAlert(20))
    # the limit (and the request, kept equal to it) cut to just above the idle working set:
    # the memory metric then asks for pods until each holds little traffic
    mem = round(api.memory_floor * rng.uniform(1.1, 1.2), 3)
    res = replace(sound.resources, memory_request=mem, memory_limit=mem)
    cause = Cause(
        "api", "Deployment", "api", "spec.template.spec.containers[0].resources.limits.memory"
    )
    return (
        (api, web),
        before,
        before.with_workload("api", replace(sound, resources=res)),
        cause,
        "workload",
    )


def _fam_load_test(rng: random.Random):
    api = _service(rng, "api", rng.uniform(100, 200))
    web = _service(rng, "web", rng.uniform(60, 120))
    gen = Service("loadtest", LoadProfile(0, 0), 0.4, 0, 0.25, 0, 1)
    n = rng.randint(3, 6)
    idle = WorkloadConfig(
        Resources(0.5, 0.3), 0, drives="api", rps_per_replica=rng.uniform(60, 100)
    )
    before = Config(
        (("api", _sound(api)), ("web", _sound(web)), ("loadtest", idle)), SpendAlert(20)
    )
    cause = Cause("loadtest", "Deployment", "loadtest", "spec.replicas")
    return (
        (api, web, gen),
        before,
        before.with_workload("loadtest", replace(idle, replicas=n)),
        cause,
        "workload",
    )


FAMILIES: dict[str, Callable] = {
    "budget-too-low": _fam_budget_too_low,
    "hpa-target-low": _fam_hpa_target_low,
    "hpa-min-replicas-high": _fam_hpa_min_high,
    "requests-over-usage": _fam_requests_high,
    "memory-limit-scale-out": _fam_memory_limit,
    "forgotten-load-test": _fam_load_test,
    "noisy-neighbour": _fam_noisy_neighbour,
}


def _candidates(s: K8sScenario) -> Iterator[Config]:
    """The knobs of the cause, over a grid within sound practice (a CPU target of at most 80%,
    requests covering the peak usage): the search space of the optimum."""
    cfg, c = s.incident, s.cause
    if s.remedy == "alert":
        yield cfg
        return
    w = cfg.workload(c.workload)
    svc = s.service_map[c.workload]
    if c.field == "spec.replicas":  # a load generator: none is the optimum
        yield cfg.with_workload(c.workload, replace(w, replicas=0))
    elif c.field.endswith("averageUtilization") and w.hpa is not None:
        for target in range(50, 81, 5):
            targets = tuple((r, target) for r, _ in w.hpa.targets)
            yield cfg.with_workload(c.workload, replace(w, hpa=replace(w.hpa, targets=targets)))
    elif c.field == "spec.minReplicas" and w.hpa is not None:
        for lo in (1, 2, 3):
            yield cfg.with_workload(c.workload, replace(w, hpa=replace(w.hpa, min_replicas=lo)))
    elif c.field.endswith("limits.memory"):
        for f in (1.5, 2, 2.5, 3, 4, 6):
            m = svc.memory_floor * f
            res = replace(w.resources, memory_request=m, memory_limit=m * 1.5)
            yield cfg.with_workload(c.workload, replace(w, resources=res))
    else:  # requests of a fixed-size Deployment
        peak_pod = _peak_rps(svc) / max(w.replicas, 1)
        for f in (1.0, 1.15, 1.3, 1.5):
            cpu = (svc.cpu_floor + svc.cpu_per_rps * peak_pod) * f
            mem = (svc.memory_floor + svc.memory_per_rps * peak_pod) * f
            yield cfg.with_workload(c.workload, replace(w, resources=Resources(cpu, mem)))


def _peak_rps(svc: Service) -> float:
    """The load a fixed-size Deployment's requests must cover: the diurnal peak of a profile, the
    highest step of a series from the incident day on."""
    load = svc.load
    if isinstance(load, LoadSeries):
        start = load.offset + round(INCIDENT_DAY * DAY_S / load.step_s)
        return max(load.values[start:], default=0.0)
    return load.base_rps * (1 + load.diurnal)


def milli(cores: float | None) -> float | None:
    return None if cores is None else round(cores * 1000) / 1000


def _mi(gib: float | None) -> float | None:
    return None if gib is None else math.ceil(round(gib * 1024, 6)) / 1024


def quantise(cfg: Config) -> Config:
    """Memory in whole MiB and CPU in whole millicores, as the cluster's objects hold them."""
    out = []
    for n, w in cfg.workloads:
        r = w.resources
        res = Resources(
            milli(r.cpu_request),  # type: ignore[arg-type]  # None only for None: requests are set
            _mi(r.memory_request),  # type: ignore[arg-type]  # None only for None: requests are set
            milli(r.cpu_limit),
            _mi(r.memory_limit),
        )
        out.append((n, replace(w, resources=res)))
    return Config(tuple(out), cfg.alert)


def optimise(s: K8sScenario) -> Config:
    """The cheapest candidate that keeps the SLO over the evaluated days."""
    best, best_cost = None, float("inf")
    for cand in map(quantise, _candidates(s)):
        r = s.evaluate_replay(cand).window(0)
        if r.slo_violations <= SLO_TOLERANCE_STEPS and r.spend < best_cost:
            best, best_cost = cand, r.spend
    if best is None:
        raise RuntimeError(f"{s.id}: no candidate keeps the SLO")
    if s.remedy == "alert":
        # the alert's budget set at the new level: the incident's days at the same variance
        days = s.evaluate_replay(best).days
        level = max(d.spend for d in days)
        best = Config(
            best.workloads, SpendAlert(best.alert.variance_pct, budget_per_day=round(level, 2))
        )
    return best


def generate(family: str, seed: int) -> K8sScenario:
    if family not in FAMILIES:
        raise KeyError(f"unknown family {family!r}; known: {', '.join(FAMILIES)}")
    rng = random.Random(f"finops-k8s/{family}/{seed}")
    services, before, incident, cause, remedy = FAMILIES[family](rng)
    before, incident = quantise(before), quantise(incident)
    node = rng.choice(NODES)
    week = _history(services, before, node)
    history = tuple(d.spend for d in week.days)
    if before.alert.budget_per_day == 0:  # the budget set from the history week's level
        alert = SpendAlert(before.alert.variance_pct, round(sum(history) / len(history), 2))
        before, incident = Config(before.workloads, alert), Config(incident.workloads, alert)
    s = K8sScenario(
        id=f"k8s-{family}-{seed}",
        family=family,
        seed=seed,
        namespace="shop",
        node=node,
        services=services,
        before=before,
        incident=incident,
        cause=cause,
        remedy=remedy,
        optimal=incident,
        history=history,
        history_by_workload=tuple(tuple(sorted(d.by_workload.items())) for d in week.days),
        history_replicas=week.final_replicas,
    )
    s = replace(s, optimal=optimise(s))
    return s
