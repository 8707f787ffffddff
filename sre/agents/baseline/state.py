"""Failing states the last snapshot of the objects shows, and CPU throttling the metrics show.

A fault does not always leave a change in the snapshot: the object may have been edited before
the export began (one observation only), or the evidence is a state, not an edit: a pod waiting
in ``ImagePullBackOff``, a container whose last termination was ``OOMKilled``, a Deployment at
zero replicas, a Service whose ``targetPort`` no selected container listens on, a NetworkPolicy
that admits no ingress, containers the metrics show throttled. Each such state names the object
the fault lives in (the workload's Deployment when there is one: its spec holds the image, the
limits and the replica count) and the application it keeps from answering. The rules are one
module each in ``states/``; this module runs them over a snapshot."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from sre.agents.baseline import (
    batch_load,
    dependency_clients,
    fault_clients,
    preemption,
    symptoms,
)
from sre.agents.baseline.evidence import (
    INFRA_NAMESPACES,
    Change,
    Evidence,
    FailingState,
    PodLabels,
    Preemption,
    app_of,
)
from sre.agents.baseline.states import (
    OBJECT_RULES,
    config_users,
    event_failures,
    exhausted_heaps,
    expired_certificates,
    full_volumes,
    limit_users,
    network_policies,
    node_pressure,
    rbac_users,
)
from sre.agents.baseline.states.objects import ObjectView, latest_objects, meta, pod_app
from sre.agents.baseline.states.throttling import autoscaler_changed, throttled_pods
from sre.agents.baseline.targets import chaos_picks, chaos_selectors
from sre.agents.baseline.vanished import dropped_by_export, removed, rewritten, vanished
from sre.snapshot.layout import SnapshotLayout


def failing_states(objects_file: Path) -> list[FailingState]:
    """Every failing state the latest object snapshots show, application namespaces only."""
    view = ObjectView.of(latest_objects(objects_file))
    return [state for rule in OBJECT_RULES for state in rule(view)]


def _deletions(objects_file: Path) -> list[Change]:
    """The removals the export reports, and the objects gone from a periodic export that it did
    not report removed (one change per object)."""
    reported = removed(objects_file)
    seen = {c.entity for c in reported}
    return reported + [c for c in vanished(objects_file) if c.entity not in seen]


def _config_users(objects_file: Path) -> dict[str, frozenset[str]]:
    return config_users.users(ObjectView.of(latest_objects(objects_file)))


def observe(snapshot: Path, evidence: Evidence) -> Evidence:
    """``evidence`` with the failing states of the snapshot and the objects that disappeared
    from it added (an unreadable source is a note, as in ``gather``)."""
    from itbench.errors import ItbenchError

    layout = SnapshotLayout(snapshot)
    notes = list(evidence.notes)
    states: list[FailingState] = []
    workloads: dict[tuple[str, str], str] = {}
    deleted: list[Change] = []
    users: dict[str, frozenset[str]] = {}
    pods: list[PodLabels] = []
    depends_on: dict[str, frozenset[str]] = {}
    autoscalers: dict[tuple[str, str], tuple[int, int]] = {}
    services: frozenset[str] = frozenset()
    uids: dict[str, tuple[str, str]] = {}
    try:
        # a Service the export stopped showing with most of its namespace's was not deleted
        dropped = dropped_by_export(layout.objects)
        states += [
            s
            for s in failing_states(layout.objects)
            if not (s.healthy_until and (s.namespace, s.kind, s.name) in dropped)
        ]
        workloads = _workload_names(layout.objects)
        deleted = _deletions(layout.objects) + rewritten(layout.objects)
        users = _config_users(layout.objects)
        view = ObjectView.of(latest_objects(layout.objects))
        # a role's rights reach the workloads running as the accounts it is bound to; a
        # LimitRange's defaults, the workloads that declare no resources of their own
        users = {**users, **rbac_users.users(view), **limit_users.users(view)}
        pods = pod_labels(view)
        depends_on = fault_clients.dependencies(view, {p.app for p in pods})
        autoscalers = _autoscalers(view)
        services = frozenset(meta(o)[1] for _, o in view.kind("Service"))
        uids = preemption.pod_uids(view.work)
    except ItbenchError as exc:
        notes.append(f"object states: {exc}")
    put_out: tuple[Preemption, ...] = ()
    if layout.events.is_file():
        try:
            put_out = preemption.preemptions(layout.events, uids, notes)
        except ItbenchError as exc:
            notes.append(f"preemptions: {exc}")
    began = symptoms.find(layout.traces, layout.logs, notes)
    unlinked = False
    if layout.traces.is_file():
        try:
            unlinked = symptoms.unlinked(layout.traces)
            reached = network_policies.answered(
                states, evidence.changes, symptoms.served(layout.traces)
            )
            states = [s for s in states if s not in reached]
        except ItbenchError as exc:
            notes.append(f"served requests: {exc}")
    named_by = dependency_clients.find(layout.logs, evidence.changes, notes, services)
    job_runs = _job_runs(layout, evidence.changes, notes)
    faulted = _fault_clients(layout, evidence.changes, pods, depends_on, notes)
    if not layout.metrics.is_dir():
        notes.append(f"metrics: {layout.metrics} is missing; CPU throttling cannot be seen")
    try:
        throttled = throttled_pods(layout.metrics) if layout.metrics.is_dir() else []
        full = full_volumes.full_pods(layout.metrics) if layout.metrics.is_dir() else []
    except ItbenchError as exc:
        notes.append(f"metrics: {exc}")
        throttled, full = [], []
    states += event_failures.find(evidence, workloads, users)
    states += node_pressure.from_events(evidence, states)
    states += throttling_states(throttled, workloads, evidence)
    states += full_volumes.find(full, evidence.alerts, _claims_of(users))
    states += _from_logs(
        layout.logs,
        "certificates",
        lambda logs: expired_certificates.find(expired_certificates.reporting(logs), users),
        notes,
    )
    states += _from_logs(
        layout.logs,
        "heaps",
        lambda logs: exhausted_heaps.find(exhausted_heaps.full_heaps(logs), workloads),
        notes,
    )
    return replace(
        evidence,
        changes=evidence.changes + tuple(deleted),
        states=tuple(states),
        notes=tuple(notes),
        config_users=users,
        symptoms=tuple(began),
        pods=tuple(pods),
        named_by=named_by,
        fault_clients=faulted,
        autoscalers=autoscalers,
        job_runs=job_runs,
        preemptions=put_out,
        unlinked_spans=unlinked,
    )


def _job_runs(
    layout: SnapshotLayout, changes: tuple[Change, ...], notes: list[str]
) -> dict[str, tuple[datetime, datetime]]:
    """When the jobs of each CronJob changed to run more ran (unreadable sources: a note)."""
    from itbench.errors import ItbenchError

    try:
        return batch_load.runs(layout.logs, layout.objects, changes)
    except ItbenchError as exc:
        notes.append(f"CronJob runs: {exc}")
        return {}


def _from_logs(
    logs: Path, what: str, read: Callable[[Path], list[FailingState]], notes: list[str]
) -> list[FailingState]:
    """``read`` over the snapshot's logs; none: nothing; unreadable: a note naming ``what``."""
    from itbench.errors import ItbenchError

    if not logs.is_file():
        return []
    try:
        return read(logs)
    except ItbenchError as exc:
        notes.append(f"{what} from logs: {exc}")
        return []


def _claims_of(users: Mapping[str, frozenset[str]]) -> dict[tuple[str, str], str]:
    """(namespace, workload) -> a PersistentVolumeClaim it mounts."""
    out: dict[tuple[str, str], str] = {}
    for entity, workloads in sorted(users.items()):
        namespace, kind, name = entity.split("/", 2) if entity.count("/") >= 2 else ("", "", "")
        if kind == "PersistentVolumeClaim":
            for workload in workloads:
                out.setdefault((namespace, workload), name)
    return out


def throttling_states(
    throttled: list[tuple[str, str, float, float]],
    workloads: dict[tuple[str, str], str],
    evidence: Evidence,
) -> list[FailingState]:
    """A state per throttled pod, on its workload, or on the autoscaler of that workload when
    the autoscaler changed (:func:`autoscaler_changed`)."""
    out = []
    for pod, namespace, before, after in throttled:
        if namespace in INFRA_NAMESPACES:
            continue
        app = app_of("Pod", pod)
        kind = (
            workloads.get((namespace, app))
            if namespace
            else next((k for (_, n), k in workloads.items() if n == app), None)
        )
        what = f"pod {pod} CPU throttled in {after:.0%} of periods (before: {before:.0%})"
        edited = autoscaler_changed(evidence.changes, namespace, app)
        if edited is not None:
            kind, owner = edited.kind, edited.name
            what += f"; its autoscaler {edited.name} was {edited.change} at {edited.time:%H:%M:%S}"
        else:
            owner = app if kind else pod
        out.append(
            FailingState(namespace or _namespace_of(evidence), kind or "Pod", owner, app, what, 2.0)
        )
    return out


def _autoscalers(view: ObjectView) -> dict[tuple[str, str], tuple[int, int]]:
    """(namespace, workload) -> the replica range of the HorizontalPodAutoscaler scaling it."""
    out = {}
    for _, hpa in view.kind("HorizontalPodAutoscaler"):
        namespace, _, _ = meta(hpa)
        spec = hpa.get("spec") or {}
        target = spec.get("scaleTargetRef") or {}
        low, high = spec.get("minReplicas") or 1, spec.get("maxReplicas")
        high = low if high is None else high
        # a bound that is no count (an exporter's string, a bool) says nothing of the range
        counts = all(isinstance(n, int) and not isinstance(n, bool) for n in (low, high))
        if isinstance(target, dict) and target.get("name") and counts:
            out[(namespace, str(target["name"]))] = (low, high)
    return out


def _fault_clients(
    layout: SnapshotLayout,
    changes: tuple[Change, ...],
    pods: list[PodLabels],
    depends_on: dict[str, frozenset[str]],
    notes: list[str],
) -> dict[str, frozenset[str]]:
    """:func:`fault_clients.clients_of_faults` over the snapshot's error lines, an experiment
    picking the applications of the pods its selectors pick."""
    from itbench.errors import ItbenchError

    if not layout.logs.is_file():
        return {}

    def picks(change: Change) -> frozenset[str]:
        return frozenset(
            app
            for chosen in chaos_selectors(change.kind, change.spec)
            for app in chaos_picks(chosen, change.namespace, pods)
        )

    try:
        lines = dependency_clients.error_lines(layout.logs)
    except ItbenchError as exc:
        notes.append(f"fault clients from logs: {exc}")
        return {}
    return fault_clients.clients_of_faults(changes, picks, depends_on, lines)


def pod_labels(view: ObjectView) -> list[PodLabels]:
    """Every pod's labels; a workload without pods (scaled to zero, an export without pods)
    by its pod template's."""
    out = []
    for _, pod in view.work.pods:
        namespace, name, labels = meta(pod)
        node = str((pod.get("spec") or {}).get("nodeName") or "")
        out.append(PodLabels(namespace, name, pod_app(pod), dict(labels), node))
    with_pods = {(p.namespace, p.app) for p in out}
    for _, workload in view.kind("Deployment", "StatefulSet"):
        namespace, name, _ = meta(workload)
        template = ((workload.get("spec") or {}).get("template") or {}).get("metadata") or {}
        declared = template.get("labels")
        if (namespace, name) not in with_pods and isinstance(declared, dict):
            out.append(
                PodLabels(namespace, "", name, {str(k): str(v) for k, v in declared.items()})
            )
    return out


def _workload_names(objects_file: Path) -> dict[tuple[str, str], str]:
    return {
        (meta(o)[0], meta(o)[1]): str(o.get("kind"))
        for _, o in latest_objects(objects_file)
        if o.get("kind") in ("Deployment", "StatefulSet")
    }


def _namespace_of(evidence: Evidence) -> str:
    seen = [a.namespace for a in evidence.alerts if a.namespace]
    seen += [w.namespace for w in evidence.warnings if w.namespace]
    return max(set(seen), key=seen.count) if seen else "default"
