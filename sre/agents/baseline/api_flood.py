"""The API-server flood rule: a workload created inside the window with an API identity of its own
(a service account no other workload uses) while the API server refuses requests with 429 is the
likeliest client flooding it; the applications whose pods were refused are its doing."""

from __future__ import annotations

from sre.agents.baseline.evidence import API_THROTTLED, Change, Evidence, app_of

#: the kinds that run pods with a service account of their own
WORKLOAD_KINDS = ("Deployment", "StatefulSet", "DaemonSet", "Job")


def service_account(change: Change) -> str:
    pod = (change.spec.get("template") or {}).get("spec") or {}
    return str(pod.get("serviceAccountName") or pod.get("serviceAccount") or "")


def starved_by(change: Change, evidence: Evidence) -> frozenset[str]:
    """The applications whose pods the API server refused (429) when ``change`` created a
    workload with an API identity of its own (a service account no other workload the
    snapshot shows uses): a new client of the API server, the likeliest flood."""
    account = service_account(change)
    if (
        change.change != "created"
        or change.kind not in WORKLOAD_KINDS
        or account in ("", "default")
    ):
        return frozenset()
    shared = any(
        service_account(c) == account
        for c in evidence.changes
        if c.kind in WORKLOAD_KINDS and (c.namespace, c.name) != (change.namespace, change.name)
    )
    if shared:
        return frozenset()
    return frozenset(
        app_of(w.kind, w.name)
        for w in evidence.warnings
        if API_THROTTLED in w.message and w.namespace == change.namespace
    )
