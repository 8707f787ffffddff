"""A NetworkPolicy that selects an application's pods and admits no ingress (or no egress) at
all: the pods stay healthy, only their callers' (or their own) connections fail."""

from __future__ import annotations

from collections.abc import Iterable

from sre.agents.baseline.evidence import FailingState
from sre.agents.baseline.states.objects import APP_LABELS, ObjectView, meta, pod_app, selects


def find(view: ObjectView) -> Iterable[FailingState]:
    for ts, policy in view.kind("NetworkPolicy"):
        namespace, name, _ = meta(policy)
        spec = policy.get("spec") or {}
        types = spec.get("policyTypes") or ["Ingress"]
        closed = [t for t in types if t in ("Ingress", "Egress") and not spec.get(t.lower())]
        if not closed:
            continue
        selector = spec.get("podSelector")
        pods = [
            p
            for _, p in view.work.pods
            if meta(p)[0] == namespace and selects(selector, meta(p)[2])
        ]
        apps = sorted({pod_app(p) for p in pods})
        if not apps and isinstance(selector, dict):
            wanted = selector.get("matchLabels") or {}
            apps = sorted({str(v) for k, v in wanted.items() if k in APP_LABELS})
        for app in apps or [""]:
            yield FailingState(
                namespace, "NetworkPolicy", name, app,
                f"NetworkPolicy {name} admits no {' and no '.join(t.lower() for t in closed)} "
                f"to {app or 'the pods it selects'}",
                1.0, ts, needs_blame=True,
            )  # fmt: skip
