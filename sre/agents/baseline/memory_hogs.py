"""What filled a node that ran short of memory: the workload on it whose memory limit a change
lifted.

The kubelet of a node under ``MemoryPressure`` evicts the pods it ranks first (those furthest
over their requests), which are seldom the pods that filled it: a workload whose memory limit
(and heap cap) was removed grows until the node runs out, and its neighbours are evicted. The
node's state, its taint and its evictions are then that change's doing. This module says which
changed workloads lifted a memory limit and which applications run on a node short of memory;
the ranking (``rank``) gives such a change the node's case."""

from __future__ import annotations

from typing import Any

from itbench.cluster.quantity import parse_quantity
from sre.agents.baseline.evidence import WORKLOADS, Change, Evidence


def _memory_limit(path: str, value: Any) -> Any:
    """The memory limit a changed field held, whichever level of ``resources`` it names."""
    if path.endswith(".limits.memory"):
        return value
    if path.endswith(".limits"):
        return value.get("memory") if isinstance(value, dict) else None
    if path.endswith(".resources"):
        limits = value.get("limits") if isinstance(value, dict) else None
        return limits.get("memory") if isinstance(limits, dict) else None
    return None


def lifts_memory_limit(change: Change) -> bool:
    """A workload edit that removed a container's memory limit or raised it."""
    if change.kind not in WORKLOADS or change.change != "modified":
        return False
    for path, old, new in change.values:
        before, after = _memory_limit(path, old), _memory_limit(path, new)
        if before is None:
            continue
        if after is None:
            return True
        was, now = parse_quantity(before), parse_quantity(after)
        if was is not None and now is not None and now > was:
            return True
    return False


def short_of_memory(node: str, evidence: Evidence) -> bool:
    """The node reports memory pressure or evicted pods for memory (its failing states)."""
    return any(
        s.kind == "Node" and s.name == node and "memory" in s.what.lower() for s in evidence.states
    )


def apps_on(node: str, evidence: Evidence) -> frozenset[str]:
    """The applications with a pod on ``node`` in the latest objects."""
    return frozenset(p.app for p in evidence.pods if p.node == node)
