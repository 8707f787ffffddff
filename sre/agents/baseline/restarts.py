"""A restart (``kubectl rollout restart``: only the pod template's annotations change) gives a
workload new pods and nothing else: when those pods fail on their configuration, or behave
otherwise than before without failing at all (a ``checksum/config`` roll that makes them read an
edited exporter endpoint), what they read changed earlier and the restart only made them take it
up. ``rank`` hands the restart's case to that ConfigMap or Secret edit."""

from __future__ import annotations

from sre.agents.baseline.evidence import WORKLOADS, Change, Evidence

#: waiting reasons of new pods failing on what they read at start: a missing ConfigMap key or
#: Secret reference, or a process exiting on a value it read (a rotated password, a renamed
#: file); a restart changed none of it, so what they read did
CONFIG_ERRORS = ("CreateContainerConfigError", "CrashLoopBackOff")
#: the pod-template field ``kubectl rollout restart`` writes: new pods, nothing else changed
RESTART_FIELD = "spec.template.metadata.annotations"
#: how the workload replaces its pods (``Recreate`` beside a restart): nothing a pod reads
ROLLOUT_FIELDS = ("spec.strategy", "spec.minReadySeconds", "spec.progressDeadlineSeconds")


def restart_only(change: Change) -> bool:
    """A workload edit that changed its pod template's annotations and nothing its new pods
    read (the way it rolls them out may change with it)."""
    return (
        change.kind in WORKLOADS
        and change.change == "modified"
        and any(p.startswith(RESTART_FIELD) for p in change.paths)
        and all(p.startswith((RESTART_FIELD, *ROLLOUT_FIELDS)) for p in change.paths)
    )


def failing_otherwise(evidence: Evidence) -> frozenset[tuple[str, str]]:
    """The (namespace, application) of workloads whose pods are in a failing state that is no
    configuration error (``ImagePullBackOff``, OOMKilled): a restart does not explain those, and
    neither does what the pods read, so the restart keeps its own case."""
    return frozenset(
        (s.namespace, s.app)
        for s in evidence.states
        if s.kind in WORKLOADS and not any(e in s.what for e in CONFIG_ERRORS)
    )


def failing_on_configuration(evidence: Evidence) -> frozenset[tuple[str, str]]:
    """The (namespace, application) of workloads whose pods wait on a configuration error."""
    return frozenset(
        (s.namespace, s.app)
        for s in evidence.states
        if s.kind in WORKLOADS and any(e in s.what for e in CONFIG_ERRORS)
    )
