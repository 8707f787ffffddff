"""Replay a namespace's services over simulated days: HPA syncs, usage, allocation, SLO, alert.

A step is five simulated minutes; the HPA syncs once a step (its stabilisation window still spans
steps). Latency follows an M/M/1 queue on each pod's share of the load: the SLO is broken in a
step where a pod runs at or above 90% of what it can serve (CPU throttled by its limit serves
less), its working set exceeds its memory limit (OOM kills drop requests) or its memory request
(the first pods the kubelet evicts under memory pressure: a service one node's pressure away from
losing pods is out of its SLO).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from finops.k8s.cost import Allocation, NodeType, SpendAlert, allocate
from finops.k8s.hpa import HPAController, HPASpec
from finops.k8s.workload import DAY_S, Resources, Service

__all__ = ["Config", "Day", "Replay", "WorkloadConfig", "replay"]

STEP_S = 300.0
SATURATED = 0.9


@dataclass(frozen=True)
class WorkloadConfig:
    """What an agent can change: the Deployment's replicas and resources, its HPA."""

    resources: Resources
    replicas: int
    hpa: HPASpec | None = None
    #: a load generator: each replica sends this many requests/s to ``drives``
    drives: str | None = None
    rps_per_replica: float = 0.0


@dataclass(frozen=True)
class Config:
    workloads: tuple[tuple[str, WorkloadConfig], ...]
    alert: SpendAlert

    def workload(self, name: str) -> WorkloadConfig:
        return dict(self.workloads)[name]

    def with_workload(self, name: str, cfg: WorkloadConfig) -> Config:
        return Config(tuple((n, cfg if n == name else c) for n, c in self.workloads), self.alert)


@dataclass
class Day:
    spend: float = 0.0
    cpu_cost: float = 0.0
    memory_cost: float = 0.0
    cpu_used_h: float = 0.0
    memory_used_h: float = 0.0
    cpu_alloc_h: float = 0.0
    memory_alloc_h: float = 0.0
    slo_violations: int = 0  # steps with a service out of its SLO
    by_workload: dict[str, float] = field(default_factory=dict)

    def add(self, name: str, a: Allocation) -> None:
        self.spend += a.cost
        self.cpu_cost += a.cpu_cost
        self.memory_cost += a.memory_cost
        self.cpu_used_h += a.cpu_used_h
        self.memory_used_h += a.memory_used_h
        self.cpu_alloc_h += a.cpu_alloc_h
        self.memory_alloc_h += a.memory_alloc_h
        self.by_workload[name] = self.by_workload.get(name, 0.0) + a.cost


@dataclass(frozen=True)
class Replay:
    days: tuple[Day, ...]
    final_replicas: tuple[tuple[str, int], ...]
    last_usage: tuple[tuple[str, float, float], ...]  # (workload, cores/pod, GiB/pod)
    peak_usage: tuple[tuple[str, float, float], ...]  # the highest per pod over the replay
    alert_days: tuple[int, ...]

    def window(self, first: int) -> Day:
        """The days from ``first`` on, summed."""
        total = Day()
        for d in self.days[first:]:
            total.spend += d.spend
            total.cpu_cost += d.cpu_cost
            total.memory_cost += d.memory_cost
            total.cpu_used_h += d.cpu_used_h
            total.memory_used_h += d.memory_used_h
            total.cpu_alloc_h += d.cpu_alloc_h
            total.memory_alloc_h += d.memory_alloc_h
            total.slo_violations += d.slo_violations
            for k, v in d.by_workload.items():
                total.by_workload[k] = total.by_workload.get(k, 0.0) + v
        return total


def replay(
    services: dict[str, Service],
    config: Config,
    node: NodeType,
    days: int,
    start_replicas: dict[str, int] | None = None,
    history: list[float] | None = None,
) -> Replay:
    """Simulate ``days`` days from t=0. ``history``: daily spend before day 0 (the alert's
    reference week)."""
    wl = dict(config.workloads)
    replicas = {n: (start_replicas or {}).get(n, c.replicas) for n, c in wl.items()}
    controllers = {n: HPAController(c.hpa) for n, c in wl.items() if c.hpa is not None}
    for n, c in wl.items():
        if c.hpa is not None:
            replicas[n] = max(c.hpa.min_replicas, min(c.hpa.max_replicas, replicas[n]))
    out: list[Day] = []
    spends = list(history or [])
    alerts: list[int] = []
    hours = STEP_S / 3600.0
    steps = int(DAY_S / STEP_S)
    usage: dict[str, tuple[float, float]] = {}
    peak: dict[str, tuple[float, float]] = {}
    for d in range(days):
        day = Day()
        for s in range(steps):
            t = d * DAY_S + s * STEP_S
            extra: dict[str, float] = {}
            for n, c in wl.items():
                if c.drives:
                    extra[c.drives] = extra.get(c.drives, 0.0) + replicas[n] * c.rps_per_replica
            broken = False
            for n, c in wl.items():
                svc = services[n]
                rps = svc.load.rps(t) + extra.get(n, 0.0)
                cpu, mem = svc.pod_usage(rps, replicas[n])
                r = c.resources
                cpu_served = min(cpu, r.cpu_limit) if r.cpu_limit is not None else cpu
                usage[n] = (cpu_served, mem)
                if replicas[n] > 0:
                    p = peak.get(n, (0.0, 0.0))
                    peak[n] = (max(p[0], cpu_served), max(p[1], mem))
                if replicas[n] > 0 and rps > 0:
                    share = rps / replicas[n] / svc.capacity_rps
                    throttle = cpu / cpu_served if cpu_served > 0 else 1.0
                    oom = r.memory_limit is not None and mem > r.memory_limit
                    # above its memory request a pod is the kubelet's first eviction candidate
                    evictable = mem > r.memory_request
                    if share * throttle >= SATURATED or oom or evictable:
                        broken = True
                elif rps > 0:
                    broken = True
                day.add(
                    n,
                    allocate(
                        node, replicas[n], cpu_served, mem, r.cpu_request, r.memory_request, hours
                    ),
                )
            if broken:
                day.slo_violations += 1
            for n, ctl in controllers.items():
                r = wl[n].resources
                cpu, mem = usage[n]
                # a pod without a request for a resource has no utilisation of it: the HPA
                # controller reports "missing request for cpu" and that metric does not act
                # (an agent may remove the requests; the model must not divide by zero)
                util = {
                    name: 100.0 * used / request
                    for name, used, request in (
                        ("cpu", cpu, r.cpu_request),
                        ("memory", mem, r.memory_request),
                    )
                    if request > 0
                }
                replicas[n] = ctl.sync(t, replicas[n], util)
        if config.alert.fires(day.spend, spends):
            alerts.append(d)
        spends.append(day.spend)
        out.append(day)
    return Replay(
        days=tuple(out),
        final_replicas=tuple(sorted(replicas.items())),
        last_usage=tuple(sorted((n, u[0], u[1]) for n, u in usage.items())),
        peak_usage=tuple(sorted((n, *peak.get(n, (0.0, 0.0))) for n in wl)),
        alert_days=tuple(alerts),
    )
