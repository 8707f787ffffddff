"""A platform component taken out of service: a workload of the cluster's own namespaces
(``kube-system``, ...) scaled to zero. Its routine edits say nothing about the application, but
with no replica left, whatever every pod relies on it for (name resolution, admission, metrics)
stops for all of them at once: it acts on every application whose symptoms began after it."""

from __future__ import annotations

from sre.agents.baseline.evidence import WORKLOADS, Change, Evidence


def out_of_service(change: Change) -> bool:
    """A workload edit that took its replica count from some to none."""
    if change.kind not in WORKLOADS or change.change != "modified":
        return False
    return any(
        path.rsplit(".", 1)[-1] == "replicas" and new == 0 and isinstance(old, int) and old > 0
        for path, old, new in change.values
    )


def served(evidence: Evidence) -> frozenset[str]:
    """The applications a component every pod relies on serves: all that show symptoms (the
    ranking keeps only those whose symptoms began after the change)."""
    return frozenset(s.app for s in evidence.symptoms)
