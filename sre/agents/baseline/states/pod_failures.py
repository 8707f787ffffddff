"""A container that cannot start (waiting in ``ImagePullBackOff``, ``CrashLoopBackOff``, ...) or
was killed for what its spec allows (``OOMKilled``, in its current or last state, or evicted for
going over its own ephemeral-storage limits): the fault is in the pod's workload, whose spec
holds the image, the command and the limits."""

from __future__ import annotations

from collections.abc import Iterable

from sre.agents.baseline.evidence import FailingState
from sre.agents.baseline.states.node_pressure import over_own_limit
from sre.agents.baseline.states.objects import ObjectView, meta, pod_app

#: container waiting reasons that mean the container cannot start at all
WAITING_FAILURES = frozenset(
    {
        "ImagePullBackOff", "ErrImagePull", "InvalidImageName", "ErrImageNeverPull",
        "CrashLoopBackOff", "CreateContainerConfigError", "CreateContainerError", "RunContainerError",
    }
)  # fmt: skip
#: termination reasons that say the container was killed for what its spec allows
TERMINATION_FAILURES = frozenset({"OOMKilled", "Error", "ContainerCannotRun"})


def find(view: ObjectView) -> Iterable[FailingState]:
    work = view.work
    seen: set[tuple[str, str]] = set()
    for ts, pod in work.pods:
        namespace, name, _ = meta(pod)
        found = _failure(name, pod)
        if found is None:
            continue
        what, strength = found
        kind, owner = work.owner(namespace, pod)
        if (kind, owner) in seen:
            continue
        seen.add((kind, owner))
        app = owner if kind != "Pod" else pod_app(pod)
        yield FailingState(namespace, kind, owner, app, what, strength, ts)


def _failure(name: str, pod: dict) -> tuple[str, float] | None:
    """What failed in the pod and how strongly that alone says "this is the fault", if any."""
    status = pod.get("status") or {}
    if status.get("reason") == "Evicted":
        message = str(status.get("message") or "")
        if not over_own_limit(message):
            return None  # the kubelet evicted it for its node's want (``node_pressure``)
        # evicted for going over its own limits: like an OOM kill, the workload's spec
        return f"pod {name} evicted: {message.strip()}", 3.0
    statuses = (status.get("containerStatuses") or []) + (status.get("initContainerStatuses") or [])
    for c in statuses:
        waiting = ((c.get("state") or {}).get("waiting") or {}).get("reason")
        last = ((c.get("lastState") or {}).get("terminated") or {}).get("reason")
        now = ((c.get("state") or {}).get("terminated") or {}).get("reason")
        reason = (
            waiting
            if waiting in WAITING_FAILURES
            else next((r for r in (now, last) if r in TERMINATION_FAILURES), None)
        )
        if reason is None:
            continue
        restarts = f" ({c.get('restartCount')} restarts)" if c.get("restartCount") else ""
        strength = 3.0 if reason in WAITING_FAILURES or reason == "OOMKilled" else 1.5
        return f"pod {name} container {c.get('name')}: {reason}{restarts}", strength
    return None
