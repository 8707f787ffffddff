"""Another team's trouble that was already there: a workload failing (a crash loop, its Warning
events reported, its alert firing) since before this incident's first alert, in a namespace
none of the incident's alerts are in, that nothing of the incident reaches (no trace path, no
log step blames it, only its own Warning events and alert). A cluster always has some; it is
not what started this incident, however strong its own failure looks, so it must not outrank
the change the incident followed."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from sre.agents.baseline.evidence import (
    HOUSEKEEPING_ALERTS,
    INFRA_NAMESPACES,
    AlertGroup,
    Evidence,
    app_of,
)

#: the signals a failing workload gives of itself (``rank.blame``): they say it fails, not
#: that the incident's applications feel it
OWN_SIGNALS = frozenset({"warning", "alert"})
#: how much earlier than the alert history's first dump an alert's own start time must be to
#: count as already firing before the incident
ALREADY_ON = timedelta(minutes=10)
#: the kinds whose Warning events blame their workload (as ``rank.blame`` reads them)
BLAMED_KINDS = ("Pod", "ReplicaSet", "Deployment")


def _relevant(alert: AlertGroup) -> bool:
    return (
        alert.alertname not in HOUSEKEEPING_ALERTS
        and alert.namespace not in INFRA_NAMESPACES
        and bool(alert.namespace)
    )


def _began(alert: AlertGroup, history: datetime | None) -> datetime | None:
    """When the alert began: the first dump holding it, or its own ``activeAt`` when that is
    more than ``ALREADY_ON`` before the alert history's first dump (``history``): an export that
    begins after the fault holds another team's alert that had been firing for an hour, while an
    alert's ``for`` and the dump interval delay the incident's own by a few minutes only."""
    since = alert.active_since
    if since is not None and history is not None and since < history - ALREADY_ON:
        return since
    return alert.first_seen


def background(
    evidence: Evidence, signals: Mapping[str, Mapping[str, str]]
) -> frozenset[tuple[str, str]]:
    """``(namespace, application)`` of the workloads failing on their own since before the
    incident's first alert (``evidence.onset``); ``signals``: ``rank.blame``'s answer."""
    onset = evidence.onset
    if onset is None:
        return frozenset()
    alerts = [a for a in evidence.alerts if _relevant(a)]
    # the namespaces this incident's own alerts (those from its onset on, and not already
    # firing well before it) are in
    history = min((a.first_seen for a in alerts if a.first_seen is not None), default=None)
    incident = {a.namespace for a in alerts if (at := _began(a, history)) is None or at >= onset}
    # when each workload's own reports (its alerts, its Warning events) began
    began: dict[tuple[str, str], list[datetime | None]] = {}
    for a in alerts:
        began.setdefault((str(a.namespace), app_of("Pod", a.entity)), []).append(_began(a, history))
    for w in evidence.warnings:
        if w.namespace not in INFRA_NAMESPACES and w.kind in BLAMED_KINDS:
            began.setdefault((w.namespace, app_of(w.kind, w.name)), []).append(w.first)
    return frozenset(
        (namespace, app)
        for (namespace, app), times in began.items()
        if all(t is not None and t < onset for t in times)
        and namespace not in incident
        and not set(signals.get(app, {})) - OWN_SIGNALS
    )
