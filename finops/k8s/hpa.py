"""Kubernetes' HorizontalPodAutoscaler (autoscaling/v2) as its controller computes a replica count.

Semantics from the Kubernetes documentation ("Horizontal Pod Autoscaling", algorithm details and
configurable scaling behaviour):

- the raw recommendation per metric is ``ceil(currentReplicas × currentMetric / target)``, skipped
  (current kept) when the ratio is within the tolerance (0.1) of 1.0; with several metrics the
  highest recommendation wins;
- scale-down is stabilised: the controller takes the highest recommendation of the window
  (default 300 s), scale-up likewise the lowest (default window 0);
- behaviour policies bound the change per period: ``Pods`` adds/removes at most N pods, ``Percent``
  at most N % of the replicas at the start of the period; ``selectPolicy: Max`` (default) takes
  the policy allowing the largest change, ``Min`` the smallest, ``Disabled`` forbids the direction;
- the result is clamped to [minReplicas, maxReplicas].
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = [
    "DEFAULT_SCALE_DOWN",
    "DEFAULT_SCALE_UP",
    "TOLERANCE",
    "HPAController",
    "HPASpec",
    "Policy",
    "ScalingRules",
    "raw_recommendation",
]

TOLERANCE = 0.1


@dataclass(frozen=True)
class Policy:
    kind: str  # "Pods" or "Percent"
    value: int
    period_s: int


@dataclass(frozen=True)
class ScalingRules:
    stabilization_s: int
    policies: tuple[Policy, ...]
    select: str = "Max"  # Max, Min or Disabled


# The documented defaults of autoscaling/v2 when spec.behavior is absent.
DEFAULT_SCALE_UP = ScalingRules(0, (Policy("Percent", 100, 15), Policy("Pods", 4, 15)), "Max")
DEFAULT_SCALE_DOWN = ScalingRules(300, (Policy("Percent", 100, 15),), "Max")


@dataclass(frozen=True)
class HPASpec:
    min_replicas: int
    max_replicas: int
    #: target average utilisation (percent of the request) per resource: {"cpu": 70, "memory": 80}
    targets: tuple[tuple[str, int], ...]
    scale_up: ScalingRules = DEFAULT_SCALE_UP
    scale_down: ScalingRules = DEFAULT_SCALE_DOWN

    def target(self, resource: str) -> int | None:
        return dict(self.targets).get(resource)


def raw_recommendation(current: int, utilisation: float, target: float) -> int:
    """One metric's recommendation: within tolerance of the target the count stays."""
    if current <= 0:
        return current
    ratio = utilisation / target
    if abs(1.0 - ratio) <= TOLERANCE:
        return current
    return math.ceil(current * ratio - 1e-9)


@dataclass
class HPAController:
    """One HPA's memory between syncs: past recommendations (stabilisation) and past scale
    events (policies)."""

    spec: HPASpec
    recommendations: list[tuple[float, int]] = field(default_factory=list)
    events: list[tuple[float, int]] = field(default_factory=list)  # (time, replica change)

    def sync(self, now: float, current: int, utilisation: dict[str, float]) -> int:
        """The replica count the controller sets at ``now``; ``utilisation`` is the average
        utilisation (percent of request) per resource the HPA targets."""
        raw = [
            raw_recommendation(current, utilisation[r], t)
            for r, t in self.spec.targets
            if r in utilisation
        ]
        desired = max(raw) if raw else current
        desired = self._stabilise(now, current, desired)
        desired = self._limit(now, current, desired)
        desired = max(self.spec.min_replicas, min(self.spec.max_replicas, desired))
        if desired != current:
            self.events.append((now, desired - current))
        return desired

    def _stabilise(self, now: float, current: int, desired: int) -> int:
        self.recommendations.append((now, desired))
        up_w, down_w = self.spec.scale_up.stabilization_s, self.spec.scale_down.stabilization_s
        keep = max(up_w, down_w)
        self.recommendations = [(t, r) for t, r in self.recommendations if now - t <= keep]
        up_floor = min(r for t, r in self.recommendations if now - t <= up_w)
        down_ceiling = max(r for t, r in self.recommendations if now - t <= down_w)
        # Scale up no further than the lowest recommendation of the up window, scale down no
        # further than the highest of the down window.
        if desired > current:
            return max(current, min(desired, up_floor))
        if desired < current:
            return min(current, max(desired, down_ceiling))
        return desired

    def _limit(self, now: float, current: int, desired: int) -> int:
        if desired > current:
            return min(desired, self._bound(now, current, self.spec.scale_up, up=True))
        if desired < current:
            return max(desired, self._bound(now, current, self.spec.scale_down, up=False))
        return desired

    def _bound(self, now: float, current: int, rules: ScalingRules, up: bool) -> int:
        if rules.select == "Disabled":
            return current
        bounds = []
        for p in rules.policies:
            changed = sum(
                d for t, d in self.events if now - t < p.period_s and (d > 0) == up and d != 0
            )
            start = current - changed
            if p.kind == "Pods":
                bounds.append(start + p.value if up else start - p.value)
            elif up:
                bounds.append(math.ceil(start * (1 + p.value / 100)))
            else:
                bounds.append(math.ceil(start * (1 - p.value / 100)))
        if not bounds:
            return current
        # Max = the policy allowing the largest change.
        largest = rules.select != "Min"
        if up:
            return max(bounds) if largest else min(bounds)
        return min(bounds) if largest else max(bounds)


def replicas_for(spec: HPASpec, utilisations: Sequence[tuple[int, dict[str, float]]]) -> int:
    """Convenience for tests: the count after one sync per (current, utilisation) pair."""
    ctl = HPAController(spec)
    out = 0
    for i, (current, util) in enumerate(utilisations):
        out = ctl.sync(i * 15.0, current, util)
    return out
