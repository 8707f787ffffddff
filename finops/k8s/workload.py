"""Services under load: a load profile over simulated days and per-pod usage as a function of load.

Time is seconds since the start of the simulation; day 0 starts at midnight. A pod's CPU is a
fixed floor plus a cost per request/s; its memory a floor plus a working set per request/s, so
spreading the load over more pods lowers each pod's usage but not the floors.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

__all__ = ["LoadProfile", "LoadSeries", "Resources", "Service", "Spike", "Step"]

DAY_S = 86400.0


@dataclass(frozen=True)
class Step:
    """From ``day`` on, the load is multiplied by ``factor`` (a launch, a new customer)."""

    day: float
    factor: float


@dataclass(frozen=True)
class Spike:
    """Between ``start_h`` and ``start_h + hours`` (hours since the start) the load is
    multiplied by ``factor`` (a load test, a batch)."""

    start_h: float
    hours: float
    factor: float


@dataclass(frozen=True)
class LoadProfile:
    base_rps: float
    diurnal: float = 0.5  # amplitude as a fraction of the base, peak at ``peak_hour``
    peak_hour: float = 14.0
    steps: tuple[Step, ...] = ()
    spikes: tuple[Spike, ...] = ()

    def rps(self, t: float) -> float:
        hour = (t % DAY_S) / 3600.0
        wave = 1.0 + self.diurnal * math.cos(2 * math.pi * (hour - self.peak_hour) / 24.0)
        load = self.base_rps * wave
        day = t / DAY_S
        for s in self.steps:
            if day >= s.day:
                load *= s.factor
        h = t / 3600.0
        for sp in self.spikes:
            if sp.start_h <= h < sp.start_h + sp.hours:
                load *= sp.factor
        return max(load, 0.0)

    def shifted(self, days: int) -> LoadProfile:
        """The profile with its day 0 moved to ``days`` (spikes and steps keep their dates)."""
        steps = tuple(Step(s.day - days, s.factor) for s in self.steps)
        spikes = tuple(replace(s, start_h=s.start_h - 24 * days) for s in self.spikes)
        return replace(self, steps=steps, spikes=spikes)


@dataclass(frozen=True)
class LoadSeries:
    """A load given step by step (a user's scenario replaying recorded traffic): ``values[i]``
    requests/s from ``(offset + i) × step_s`` seconds on; none before the first or after the
    last (a scenario folder's loader checks that the series covers every simulated day)."""

    step_s: float
    values: tuple[float, ...]
    offset: int = 0  # steps of the series already behind t = 0

    def rps(self, t: float) -> float:
        i = int(t // self.step_s) + self.offset
        return self.values[i] if 0 <= i < len(self.values) else 0.0

    def shifted(self, days: int) -> LoadSeries:
        return replace(self, offset=self.offset + round(days * DAY_S / self.step_s))


@dataclass(frozen=True)
class Resources:
    """A container's requests and limits: CPU in cores, memory in GiB (None: no limit)."""

    cpu_request: float
    memory_request: float
    cpu_limit: float | None = None
    memory_limit: float | None = None


@dataclass(frozen=True)
class Service:
    name: str
    load: LoadProfile | LoadSeries
    cpu_floor: float  # cores per pod at no load
    cpu_per_rps: float  # cores per request/s
    memory_floor: float  # GiB per pod at no load
    memory_per_rps: float  # GiB per request/s held by one pod
    capacity_rps: float  # requests/s one pod serves before queueing (latency model)

    def pod_usage(self, rps: float, replicas: int) -> tuple[float, float]:
        """(cores, GiB) one pod uses when ``rps`` is spread over ``replicas`` pods."""
        per_pod = rps / max(replicas, 1)
        return (
            self.cpu_floor + self.cpu_per_rps * per_pod,
            self.memory_floor + self.memory_per_rps * per_pod,
        )
