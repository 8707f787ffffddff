"""A restart (``kubectl rollout restart``: only the pod template's annotations change) gives a
workload new pods and nothing else: when those pods fail on their configuration, what they read
changed earlier and the restart only made them take it up. ``rank`` hands the restart's case to
that ConfigMap or Secret edit."""

from __future__ import annotations

from sre.agents.baseline.evidence import WORKLOADS, Change, Evidence

#: waiting reasons that say the pod's configuration is wrong (a missing ConfigMap key or Secret
#: reference), not its image or its code
CONFIG_ERRORS = ("CreateContainerConfigError",)
#: the pod-template field ``kubectl rollout restart`` writes: new pods, nothing else changed
RESTART_FIELD = "spec.template.metadata.annotations"


def restart_only(change: Change) -> bool:
    """A workload edit that changed nothing but its pod template's annotations."""
    return (
        change.kind in WORKLOADS
        and change.change == "modified"
        and bool(change.paths)
        and all(p.startswith(RESTART_FIELD) for p in change.paths)
    )


def failing_on_configuration(evidence: Evidence) -> frozenset[tuple[str, str]]:
    """The (namespace, application) of workloads whose pods wait on a configuration error."""
    return frozenset(
        (s.namespace, s.app)
        for s in evidence.states
        if s.kind in WORKLOADS and any(e in s.what for e in CONFIG_ERRORS)
    )
