"""Pods the Warning events say cannot start (image pulls, back-offs, OOM kills) or cannot be
placed (the scheduler finds no node, a higher priority preempted them): the same finding as a
waiting container or an unschedulable pod, for snapshots whose objects hold no pods."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

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
#: the kubelet's generic back-off: seen once, it is one restart waited out, not a pod that keeps
#: failing (a crash loop repeats it, and its count grows)
ONE_OFF = frozenset({"BackOff"})
#: reasons the scheduler gives a pod it cannot place or took off its node for a higher priority
EVENT_UNSCHEDULED = frozenset({"FailedScheduling", "Preempted"})


#: objects a workload uses whose own Warning events (a claim no volume can be provisioned or
#: bound for) say why its pods cannot start: the fault is the object's, not the workload's
USED_OBJECTS = frozenset({"PersistentVolumeClaim"})
#: stronger than the waiting pods' own state: the used object says why they wait
USED_STRENGTH = 3.0


def find(
    evidence: Evidence,
    workloads: dict[tuple[str, str], str],
    users: Mapping[str, frozenset[str]] | None = None,
) -> list[FailingState]:
    """``users``: namespace/Kind/name of a used object -> the workloads that use it."""
    out: dict[str, FailingState] = {}
    for w in evidence.warnings:
        if w.kind in USED_OBJECTS and w.namespace not in INFRA_NAMESPACES:
            used = FailingState(w.namespace, w.kind, w.name, "", "", USED_STRENGTH)
            by = sorted((users or {}).get(used.entity, ()))
            out.setdefault(used.entity, replace(
                used, app=by[0] if by else w.name,
                what=f"Warning {w.reason} x{w.count} on {w.kind}/{w.name}: {w.message}"[:300],
            ))  # fmt: skip
            continue
        if w.kind != "Pod" or w.namespace in INFRA_NAMESPACES:
            continue
        if w.reason not in EVENT_FAILURES and w.reason not in EVENT_UNSCHEDULED:
            continue
        if w.reason in ONE_OFF and w.count <= 1:
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
