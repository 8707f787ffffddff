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

A workload created with a priority class is a new arrival, but when the scheduler's own
``Preempted`` events show other applications' pods put out just after it came, it is what put
them out: the event names the preempting pod (``ns/name``, or, since Kubernetes 1.27, only its
uid, which the objects may hold), and when it names none the objects cannot show, the arrival of
prioritized pods minutes before is what did. It acts on those applications only: others whose
pods wait for room after it came, with no such event, keep their own case. Without such events (pods that merely wait for
room), or when the victim's own priority or placement was edited before it came (lowered,
pinned to a full node: ITBench's injection), ITBench's reading stands.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path

from sre.agents.baseline.evidence import (
    POD_EVENT_KINDS,
    Change,
    Evidence,
    Preemption,
    app_of,
    call_tool,
    naive_utc,
    read_time,
)
from sre.agents.baseline.states.event_failures import EVENT_UNSCHEDULED
from sre.agents.baseline.states.objects import Workloads, meta

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


#: pod-template fields that decide where a workload's pods may run and whom they yield to
SCHEDULING_FIELDS = (
    *PRIORITY_FIELDS,
    "spec.template.spec.nodeSelector",
    "spec.template.spec.affinity",
    "spec.template.spec.tolerations",
)


def _exposed(arrival: Change, evidence: Evidence) -> frozenset[str]:
    """The applications whose own workload had its priority or placement edited before
    ``arrival``: lowered below others or pinned to a full node, they were set up to be put out,
    and ITBench names that edit (``tests/sre/shapes2``), not what then took the room."""
    return frozenset(
        app_of(c.kind, c.name)
        for c in evidence.changes
        if c.change == "modified"
        and c.time <= arrival.time
        and any(p == f or p.startswith(f"{f}.") for p in c.paths for f in SCHEDULING_FIELDS)
    )


#: the scheduler's words for the preemptor: ``Preempted by pod <uid> on node <node>`` (1.27 and
#: later) or ``Preempted by <namespace>/<pod> on node <node>``
_BY_POD = re.compile(r"preempted by (?:pod )?(?:(?P<ns>[a-z0-9-]+)/(?P<name>[a-z0-9.-]+)|"
                     r"(?P<uid>[0-9a-f]{8}-[0-9a-f-]{27,}))", re.IGNORECASE)  # fmt: skip
#: how soon after prioritized pods arrive the preemptions they cause are reported
PREEMPTS_WITHIN = timedelta(minutes=5)
#: a preemption reported this long before the change's earliest time was not its doing
EARLY = timedelta(seconds=20)


def preemptions(
    events: Path, pods: Mapping[str, tuple[str, str]], notes: list[str]
) -> tuple[Preemption, ...]:
    """The ``Preempted`` events of the events file (of any type), each with its preemptor when
    the message names it or names a pod uid of ``pods`` (uid -> (namespace, application)); the
    tool's warnings go to ``notes``."""
    answer = call_tool(
        "event_analysis",
        {"events_file": str(events), "filters": {"reason": "Preempted"},
         "group_by": ["namespace", "object_kind", "object_name", "message"], "agg": "first",
         "limit": 1000},
        notes,
    )  # fmt: skip
    out = []
    for row in answer["data"]:
        if (row.get("object_kind") or "") not in POD_EVENT_KINDS:
            continue
        namespace = str(row.get("namespace") or "")
        out.append(
            Preemption(
                namespace=namespace,
                app=app_of(str(row.get("object_kind")), str(row.get("object_name") or "")),
                time=naive_utc(read_time(row.get("event_time"))),
                by=_preemptor(str(row.get("message") or ""), pods),
            )
        )
    return tuple(out)


def pod_uids(work: Workloads) -> dict[str, tuple[str, str]]:
    """uid -> (namespace, application) of every pod of ``work``: the application its owning
    workload's name gives, else its own name's (``app_of("Pod", name)``), the key a change
    (``put_out_by``) and a preemptor named ``ns/name`` are read by; a pod's ``app`` label may
    say another name."""
    out = {}
    for _, pod in work.pods:
        uid = (pod.get("metadata") or {}).get("uid")
        if isinstance(uid, str) and uid:
            namespace = meta(pod)[0]
            out[uid.lower()] = (namespace, app_of(*work.owner(namespace, pod)))
    return out


def _preemptor(message: str, pods: Mapping[str, tuple[str, str]]) -> tuple[str, str] | None:
    found = _BY_POD.search(message)
    if found is None:
        return None
    if found.group("uid"):
        return pods.get(found.group("uid").lower())
    return (found.group("ns"), app_of("Pod", found.group("name")))


def brings_prioritized_pods(change: Change) -> bool:
    """A change that gives the scheduler new pods carrying a priority: a workload created with
    a priority class, scaled up while it has one, or whose priority was raised."""
    template = ((change.spec.get("template") or {}).get("spec") or {}) if change.spec else {}
    prioritized = bool(template.get("priorityClassName") or template.get("priority"))
    return changes_priority(change) or (
        prioritized and (change.change == "created" or scales_prioritized(change))
    )


def put_out_by(change: Change, evidence: Evidence) -> frozenset[str]:
    """The applications whose pods the scheduler put out for this workload's: the
    ``Preempted`` events naming one of its pods, and those naming no pod the snapshot holds that
    came within :data:`PREEMPTS_WITHIN` after it brought prioritized pods."""
    own = (change.namespace, app_of(change.kind, change.name))
    found = {p.app for p in evidence.preemptions if p.by == own}
    if brings_prioritized_pods(change):
        earliest = (change.since or change.time).replace(tzinfo=None)
        found |= {
            p.app
            for p in evidence.preemptions
            if p.by is None
            and p.time is not None
            and earliest - EARLY <= p.time <= change.time.replace(tzinfo=None) + PREEMPTS_WITHIN
        }
    return frozenset(found) - {own[1]} - _exposed(change, evidence)


def displaced(change: Change, evidence: Evidence) -> frozenset[str]:
    """The other applications a workload's prioritized pods put out. For an edit of its pod
    priority: those whose pods the scheduler preempted or could not place, in any namespace
    (priority is cluster-wide). For a scale-up of a prioritized workload, those put out after
    it (its earliest possible time): the ones already waiting before were not its doing. For a
    new arrival, only those :func:`put_out_by` finds (its ``Preempted`` events): pods merely
    waiting for room after it came keep their own case, as ITBench reads them."""
    put_out = put_out_by(change, evidence)
    if changes_priority(change):
        after = None
    elif scales_prioritized(change):
        after = change.since or change.time
    else:
        return put_out
    own = app_of(change.kind, change.name)
    return (
        frozenset(
            app_of(w.kind, w.name)
            for w in evidence.warnings
            if w.reason in EVENT_UNSCHEDULED
            and w.kind in POD_EVENT_KINDS
            and (after is None or (w.first is not None and w.first >= after))
        )
        - {own}
        | put_out
    )
