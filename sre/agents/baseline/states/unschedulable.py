"""A pod the scheduler cannot place (``PodScheduled`` false, reason ``Unschedulable``): its
workload has no running replica. The fault is named where the workload lives, its Deployment,
whatever keeps the pod off the nodes (a cordoned node, a higher priority that preempted it, an
anti-affinity rule, a node that does not exist); a changed node, quota or policy that explains it
takes the state as its own reason instead (``rank``)."""

from __future__ import annotations

from collections.abc import Iterable

from sre.agents.baseline.evidence import API_THROTTLED, FailingState
from sre.agents.baseline.states.objects import ObjectView, meta, pod_app

STRENGTH = 2.5


def find(view: ObjectView) -> Iterable[FailingState]:
    work = view.work
    seen: set[tuple[str, str]] = set()
    for ts, pod in work.pods:
        namespace, name, _ = meta(pod)
        status = pod.get("status") or {}
        if status.get("phase") not in (None, "Pending"):
            continue
        refused = next(
            (
                c
                for c in status.get("conditions") or []
                if isinstance(c, dict)
                and c.get("type") == "PodScheduled"
                and c.get("status") == "False"
                and c.get("reason") == "Unschedulable"
            ),
            None,
        )
        if refused is None or API_THROTTLED in str(refused.get("message") or ""):
            # (a binding the API server refused says nothing about where the pod may run)
            continue
        kind, owner = work.owner(namespace, pod)
        if (kind, owner) in seen:
            continue
        seen.add((kind, owner))
        why = str(refused.get("message") or "no node fits")
        yield FailingState(
            namespace, kind, owner, owner if kind != "Pod" else pod_app(pod),
            f"pod {name} cannot be scheduled: {why}", STRENGTH, ts, unplaced=True,
        )  # fmt: skip
