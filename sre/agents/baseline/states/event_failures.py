"""Pods the Warning events say cannot start (image pulls, back-offs, OOM kills) or cannot be
placed (the scheduler finds no node, a higher priority preempted them): the same finding as a
waiting container or an unschedulable pod, for snapshots whose objects hold no pods."""

from __future__ import annotations

from sre.agents.baseline.evidence import (
    API_THROTTLED,
    INFRA_NAMESPACES,
    Evidence,
    FailingState,
    app_of,
)

#: Warning reasons the kubelet gives a pod that cannot start or keeps dying
EVENT_FAILURES = frozenset(
    {"ErrImagePull", "ImagePullBackOff", "InvalidImageName", "CrashLoopBackOff", "OOMKilling",
     "BackOff", "Failed"}
)  # fmt: skip
#: reasons the scheduler gives a pod it cannot place or took off its node for a higher priority
EVENT_UNSCHEDULED = frozenset({"FailedScheduling", "Preempted"})


def find(evidence: Evidence, workloads: dict[tuple[str, str], str]) -> list[FailingState]:
    out: dict[str, FailingState] = {}
    for w in evidence.warnings:
        if w.kind != "Pod" or w.namespace in INFRA_NAMESPACES:
            continue
        if w.reason not in EVENT_FAILURES and w.reason not in EVENT_UNSCHEDULED:
            continue
        if API_THROTTLED in w.message:
            # the API server refused the binding: a finding about it, not about the pod
            continue
        app = app_of("Pod", w.name)
        kind = workloads.get((w.namespace, app))
        state = FailingState(
            w.namespace, kind or "Pod", app if kind else w.name, app,
            f"Warning {w.reason} x{w.count} on pod {w.name}",
            2.5 if w.reason in EVENT_UNSCHEDULED else 2.0,
            unplaced=w.reason in EVENT_UNSCHEDULED,
        )  # fmt: skip
        out.setdefault(state.entity, state)
    return list(out.values())
