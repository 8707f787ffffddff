"""Prices, OpenCost-style allocation and the spend-variance alert.

OpenCost spreads a node's price over the workloads on it by the higher of each container's usage
and request, per resource, at the node type's hourly rate per core and per GiB; what no container
is allocated is the cluster's idle cost (not modelled here: the namespace's spend is what its
workloads are allocated).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Allocation", "NodeType", "SpendAlert", "allocate"]


@dataclass(frozen=True)
class NodeType:
    name: str
    cpu: float  # allocatable cores
    memory: float  # allocatable GiB
    cpu_hourly: float  # price of one core for an hour
    memory_hourly: float  # price of one GiB for an hour


@dataclass(frozen=True)
class Allocation:
    """One workload over one interval, in money and in resource-hours."""

    cpu_cost: float
    memory_cost: float
    cpu_used_h: float  # core-hours used
    memory_used_h: float  # GiB-hours used
    cpu_alloc_h: float  # core-hours allocated (max of usage and request)
    memory_alloc_h: float

    @property
    def cost(self) -> float:
        return self.cpu_cost + self.memory_cost


def allocate(
    node: NodeType,
    replicas: int,
    cpu_used: float,
    mem_used: float,
    cpu_request: float,
    mem_request: float,
    hours: float,
) -> Allocation:
    """``replicas`` identical pods over ``hours``: each is allocated max(usage, request)."""
    cpu_h = replicas * max(cpu_used, cpu_request) * hours
    mem_h = replicas * max(mem_used, mem_request) * hours
    return Allocation(
        cpu_cost=cpu_h * node.cpu_hourly,
        memory_cost=mem_h * node.memory_hourly,
        cpu_used_h=replicas * cpu_used * hours,
        memory_used_h=replicas * mem_used * hours,
        cpu_alloc_h=cpu_h,
        memory_alloc_h=mem_h,
    )


@dataclass(frozen=True)
class SpendAlert:
    """Fires when a day's spend exceeds the reference by more than ``variance_pct`` percent.
    The reference is ``budget_per_day`` when set (a fixed budget), otherwise the average daily
    spend of the seven days before (OpenCost's "more than 20% above last week's average")."""

    variance_pct: float = 20.0
    budget_per_day: float | None = None

    def threshold(self, previous_days: list[float]) -> float | None:
        if self.budget_per_day is not None:
            reference = self.budget_per_day
        else:
            week = previous_days[-7:]
            if not week:
                return None
            reference = sum(week) / len(week)
        return reference * (1 + self.variance_pct / 100.0)

    def fires(self, day_spend: float, previous_days: list[float]) -> bool:
        limit = self.threshold(previous_days)
        return limit is not None and day_spend > limit
