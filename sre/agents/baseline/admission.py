"""What a namespace admits. A ResourceQuota, a LimitRange and the Namespace's own pod-security
labels are read by the API server when a pod is created, never by a running pod, and none of
them names the pods it will refuse. An edit of one waits for the next pods its namespace creates
(a node drained, a rollout, a restart) and then refuses them (the ReplicaSet's ``FailedCreate``:
``exceeded quota``, ``maximum memory usage per Container is``) or admits them with limits they
cannot run under (a LimitRange's default memory: OOMKilled). The drain, rollout or restart only
made the pods be created again; ``rank`` hands its case to the admission edit made before it."""

from __future__ import annotations

import re

from sre.agents.baseline.evidence import POD_EVENT_KINDS, WORKLOADS, Change, Evidence, app_of

#: objects deciding which pods a namespace admits: an edit of one refuses the next pods created
ADMISSION = frozenset({"Namespace", "ResourceQuota", "LimitRange"})

#: what the API server says when it refuses a pod on an object of each kind (the quota plugin,
#: the LimitRanger plugin, pod security admission); a default limit below the container's own
#: request fails validation ("must be less than or equal to memory limit")
REFUSALS = {
    "ResourceQuota": ("exceeded quota", "failed quota"),
    "LimitRange": (
        "usage per container is",
        "usage per pod is",
        "limit to request ratio per",
        "must be less than or equal to",
        "must be greater than or equal to",
    ),
    "Namespace": ("podsecurity", "pod security"),
}
#: a quota refusal names the quota it exceeded: ``exceeded quota: compute, requested: ...``
_QUOTA_NAMED = re.compile(r"(?:exceeded|failed) quota: ([a-z0-9][-a-z0-9.]*)")

#: the states of pods that run under limits too small for them
LIMITED = ("OOMKilled", "CrashLoopBackOff")


def _fits(change: Change, message: str) -> bool:
    """Whether a refusal's message can be this object's doing: one that says which kind of
    object refused it must say this one's kind (and a quota's, this quota's name); one that says
    nothing of the kind (a webhook, an empty message) may be any admission object's."""
    said = message.lower()
    kinds = [kind for kind, words in REFUSALS.items() if any(w in said for w in words)]
    if not kinds:
        return True
    if change.kind not in kinds:
        return False
    named = _QUOTA_NAMED.findall(said)
    return change.kind != "ResourceQuota" or not named or change.name.lower() in named


def refused(change: Change, evidence: Evidence) -> frozenset[str]:
    """The applications of the object's namespace whose controllers were refused new pods
    (``FailedCreate``) for what this object says, first reported after its earliest possible
    time (a refusal reported before the edit is not its doing)."""
    namespace = change.name if change.kind == "Namespace" else change.namespace
    earliest = change.since or change.time
    return frozenset(
        app_of(w.kind, w.name)
        for w in evidence.warnings
        if w.reason == "FailedCreate"
        and w.kind in POD_EVENT_KINDS
        and w.namespace == namespace
        and (w.first is None or w.first >= earliest)
        and _fits(change, w.message)
    )


def limited(change: Change, evidence: Evidence) -> frozenset[str]:
    """For a LimitRange: the applications taking its defaults (``limit_users``) whose workloads'
    pods are killed for memory or crash-loop: admitted with its limits, they cannot run."""
    if change.kind != "LimitRange":
        return frozenset()
    users = evidence.config_users.get(change.entity, frozenset())
    return frozenset(
        s.app
        for s in evidence.states
        if s.kind in WORKLOADS
        and s.namespace == change.namespace
        and s.app in users
        and any(reason in s.what for reason in LIMITED)
    )


def victims(change: Change, evidence: Evidence) -> frozenset[str]:
    """The applications an admission edit (made or changed in the window) left without running
    pods: refused by it, or admitted under its limits and failing."""
    if change.kind not in ADMISSION or change.change not in ("created", "modified"):
        return frozenset()
    return refused(change, evidence) | limited(change, evidence)


__all__ = ["ADMISSION", "limited", "refused", "victims"]
