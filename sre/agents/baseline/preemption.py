"""A workload whose pods' priority an edit changed, and the pods the scheduler then put out.

A pod's priority decides nothing about the pod itself while the cluster has room; it decides
whom the scheduler evicts when it has not. Raising a workload's priority (its pod template's
``priorityClassName`` or ``priority``) lets its pending pods preempt lower-priority pods of any
namespace, and the victims' replacements then wait (``Preempted``, ``FailedScheduling``): the
failing application is not the one edited, and nothing it references changed. So such an edit
acts on the applications whose pods the scheduler preempted or could not place.

Only an edit says the priority changed: a workload created with a high priority is a new
arrival, and ITBench names the workload it displaced (``tests/sre/shapes2``, priority
preemption), which then keeps its own unschedulable state. A scale-up of a workload whose pods
already carry a priority class is an edit too: its new pods preempt the same way, so it acts on
the applications whose pods were put out after it (the Warning event's first row), not on those
already waiting before.
"""

from __future__ import annotations

from sre.agents.baseline.evidence import POD_EVENT_KINDS, Change, Evidence, app_of
from sre.agents.baseline.states.event_failures import EVENT_UNSCHEDULED

#: pod-template fields that set a pod's scheduling priority
PRIORITY_FIELDS = ("spec.template.spec.priorityClassName", "spec.template.spec.priority")


def changes_priority(change: Change) -> bool:
    """An edit of a workload's pod priority."""
    return change.change == "modified" and any(
        p == f or p.startswith(f"{f}.") for p in change.paths for f in PRIORITY_FIELDS
    )


def scales_prioritized(change: Change) -> bool:
    """A change of the replica count of a workload whose pods carry a priority class: the new
    pods preempt lower-priority ones wherever the cluster has no room for them."""
    template = ((change.spec.get("template") or {}).get("spec") or {}) if change.spec else {}
    return (
        change.change == "modified"
        and "spec.replicas" in change.paths
        and bool(template.get("priorityClassName") or template.get("priority"))
    )


def displaced(change: Change, evidence: Evidence) -> frozenset[str]:
    """For an edit of a workload's pod priority: the other applications whose pods the scheduler
    preempted or could not place, in any namespace (priority is cluster-wide). For a scale-up
    of a prioritized workload, those put out after it (its earliest possible time): the ones
    already waiting before were not its doing."""
    if changes_priority(change):
        after = None
    elif scales_prioritized(change):
        after = change.since or change.time
    else:
        return frozenset()
    own = app_of(change.kind, change.name)
    return frozenset(
        app_of(w.kind, w.name)
        for w in evidence.warnings
        if w.reason in EVENT_UNSCHEDULED
        and w.kind in POD_EVENT_KINDS
        and (after is None or (w.first is not None and w.first >= after))
    ) - {own}
