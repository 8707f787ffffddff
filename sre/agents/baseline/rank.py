"""Ranking the observed changes as root causes: a change is a suspect when it came just before
the incident's first alert and when it touches an application the other signals blame (the
deepest failing service of the trace error tree, pods with Warning events, workload alerts)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

from sre.agents.baseline.evidence import (
    HOUSEKEEPING_ALERTS,
    INFRA_NAMESPACES,
    CallPath,
    Change,
    Evidence,
    app_of,
)

#: The fault comes before its first alert (rules fire after a one-minute ``for``, scraped each
#: minute); a change this long before it or later is not what set it off.
BEFORE_ONSET = timedelta(minutes=3)
AFTER_ONSET = timedelta(seconds=30)
#: Objects a routine rollout never touches, so any change of them is suspicious by itself.
RARELY_CHANGED = frozenset(
    {"ConfigMap", "Secret", "NetworkPolicy", "ResourceQuota", "LimitRange", "Node", "Service"}
)
#: Warning reasons that name the pods a namespace- or node-wide object kept from running.
PLACEMENT_REASONS = frozenset({"FailedCreate", "Evicted", "FailedScheduling", "Preempted"})

_RISE = re.compile(r"\(\+(\d+)%\)")

WEIGHT_TIME = 2.0
WEIGHT_BLAMED = 3.0
WEIGHT_UNUSUAL = 1.0


@dataclass(frozen=True)
class Candidate:
    change: Change
    apps: frozenset[str]
    score: float
    reasons: tuple[str, ...]


def _label_values(selector: object) -> set[str]:
    if not isinstance(selector, dict):
        return set()
    out = set()
    for key in ("labelSelectors", "matchLabels"):
        labels = selector.get(key)
        if isinstance(labels, dict):
            out |= {str(v) for k, v in labels.items() if k.endswith(("name", "app"))}
    pods = selector.get("pods")
    if isinstance(pods, dict):  # chaos: {namespace: [pod names]}
        out |= {app_of("Pod", p) for names in pods.values() for p in names or ()}
    return out


def touched_apps(change: Change, evidence: Evidence) -> frozenset[str]:
    """The applications a changed object acts on."""
    spec = change.spec
    if change.kind in ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet"):
        return frozenset({app_of(change.kind, change.name)})
    if change.kind == "Service":
        chosen = _label_values({"matchLabels": spec.get("selector")})
        return frozenset(chosen or {change.name})
    if change.kind == "NetworkPolicy":
        return frozenset(_label_values(spec.get("podSelector")))
    if "selector" in spec:  # chaos experiments select their victims by label or pod name
        return frozenset(_label_values(spec.get("selector")))
    if change.kind in ("ResourceQuota", "LimitRange", "Node"):
        # no selector: the pods it kept from running say whom it hit
        return frozenset(
            app_of(w.kind, w.name)
            for w in evidence.warnings
            if w.reason in PLACEMENT_REASONS
            and w.kind in ("Pod", "ReplicaSet")
            and (change.kind == "Node" or w.namespace == change.namespace)
        )
    return frozenset()


def blamed_apps(evidence: Evidence) -> dict[str, str]:
    """app -> why the other signals point at it."""
    blamed: dict[str, str] = {}
    for path in evidence.paths:
        if path.suspect and (path.severity in ("CRITICAL", "DISAPPEARED") or _large_rise(path)):
            blamed.setdefault(
                path.suspect, f"trace error tree: {path.reason} on {' -> '.join(path.services)}"
            )
            # an unreachable service has no spans: its caller's client span fails, so the last
            # service of a failing path is blamed along with the suspect
            if path.severity == "CRITICAL":
                blamed.setdefault(
                    path.services[-1], f"last hop of failing path {' -> '.join(path.services)}"
                )
    for w in evidence.warnings:
        if w.namespace not in INFRA_NAMESPACES and w.kind in ("Pod", "ReplicaSet", "Deployment"):
            blamed.setdefault(
                app_of(w.kind, w.name), f"Warning {w.reason} x{w.count} on {w.kind}/{w.name}"
            )
    for a in evidence.alerts:
        if a.alertname.startswith("Kube") and a.namespace not in INFRA_NAMESPACES and a.namespace:
            blamed.setdefault(a.entity, f"alert {a.alertname} on {a.entity}")
    return blamed


def _large_rise(path: CallPath) -> bool:
    """A latency warning counts when the path at least doubled: a few per cent is the jitter
    every busy path shows from one five-minute window to the next."""
    match = _RISE.search(path.reason)
    return path.severity == "WARNING" and match is not None and int(match.group(1)) >= 100


def rank(evidence: Evidence) -> list[Candidate]:
    blamed = blamed_apps(evidence)
    out = []
    for change in evidence.changes:
        if change.namespace in INFRA_NAMESPACES:
            continue
        apps = touched_apps(change, evidence)
        score, reasons = 0.0, []
        if evidence.onset is not None and (
            evidence.onset - BEFORE_ONSET <= change.time <= evidence.onset + AFTER_ONSET
        ):
            score += WEIGHT_TIME
            reasons.append(
                f"{change.change} at {change.time:%H:%M:%S}, just before the first alert at "
                f"{evidence.onset:%H:%M:%S}"
            )
        hit = sorted(apps & blamed.keys())
        if hit:
            score += WEIGHT_BLAMED
            reasons.append(f"acts on {', '.join(hit)}: {blamed[hit[0]]}")
        if _unusual(change):
            score += WEIGHT_UNUSUAL
            what = ", ".join(change.paths[:3]) or change.change
            reasons.append(f"not a routine rollout ({change.kind} {what})")
        out.append(Candidate(change, apps, score, tuple(reasons)))
    out.sort(key=lambda c: (-c.score, -c.change.time.timestamp(), c.change.entity))
    return out


def _unusual(change: Change) -> bool:
    if change.kind in RARELY_CHANGED or change.kind.endswith("Chaos"):
        return True
    if change.change != "modified":
        return change.change == "created" and change.kind not in ("Job", "Pod", "ReplicaSet")
    # a rollout changes the image (and the pod template's annotations); anything else is not one
    return any(not p.endswith(".image") and "annotations" not in p for p in change.paths)


__all__ = ["Candidate", "HOUSEKEEPING_ALERTS", "blamed_apps", "rank", "touched_apps"]
