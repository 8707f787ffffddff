"""A Node change that takes capacity away (cordoned: ``spec.unschedulable``; a new ``NoSchedule``
or ``NoExecute`` taint): the pods that ran on it and now wait to be placed elsewhere
(``FailedScheduling``) wait because of it. Their workload did not change; the node did, so the
node is the cause however late the first alert came (a Pending pod alerts minutes after)."""

from __future__ import annotations

from sre.agents.baseline.evidence import POD_EVENT_KINDS, Change, Evidence, app_of

#: taint effects that keep pods off a node (``PreferNoSchedule`` only discourages)
BLOCKING_EFFECTS = frozenset({"NoSchedule", "NoExecute"})


def removes_capacity(change: Change) -> bool:
    """A Node edit that made it unschedulable or added a blocking taint."""
    if change.kind != "Node" or change.change != "modified":
        return False
    for path, old, new in change.values:
        if path == "spec.unschedulable" and new is True and old is not True:
            return True
        if path == "spec.taints" and _blocking(new) - _blocking(old):
            return True
    return False


def displaced(change: Change, evidence: Evidence) -> frozenset[str]:
    """The applications that had a pod on the node and now have a pod the scheduler refuses."""
    ran_there = {(p.namespace, p.app) for p in evidence.pods if p.node == change.name}
    return frozenset(
        app_of(w.kind, w.name)
        for w in evidence.warnings
        if w.reason == "FailedScheduling"
        and w.kind in POD_EVENT_KINDS
        and (w.namespace, app_of(w.kind, w.name)) in ran_there
    )


def _blocking(taints: object) -> set[tuple[str, str]]:
    if not isinstance(taints, list):
        return set()
    return {
        (str(t.get("key")), str(t.get("effect")))
        for t in taints
        if isinstance(t, dict) and t.get("effect") in BLOCKING_EFFECTS
    }
