"""Failing states the last snapshot of the objects shows, and CPU throttling the metrics show.

A fault does not always leave a change in the snapshot: the object may have been edited before
the export began (one observation only), or the evidence is a state, not an edit: a pod waiting
in ``ImagePullBackOff``, a container whose last termination was ``OOMKilled``, a Deployment at
zero replicas, a Service whose ``targetPort`` no selected container listens on, a NetworkPolicy
that admits no ingress, containers the metrics show throttled. Each such state names the object
the fault lives in (the workload's Deployment when there is one: its spec holds the image, the
limits and the replica count) and the application it keeps from answering."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from sre.agents.baseline.config_content import structured, words
from sre.agents.baseline.evidence import INFRA_NAMESPACES, Evidence, FailingState, app_of
from sre.snapshot import SourceKind, open_source
from sre.snapshot.layout import SnapshotLayout, require_file

#: container waiting reasons that mean the container cannot start at all
WAITING_FAILURES = frozenset(
    {
        "ImagePullBackOff", "ErrImagePull", "InvalidImageName", "ErrImageNeverPull",
        "CrashLoopBackOff", "CreateContainerConfigError", "CreateContainerError", "RunContainerError",
    }
)  # fmt: skip
#: termination reasons that say the container was killed for what its spec allows
TERMINATION_FAILURES = frozenset({"OOMKilled", "Error", "ContainerCannotRun"})
#: a container throttled in this share of its CPU periods (or seconds) is starved
THROTTLED = 0.25
APP_LABELS = ("app.kubernetes.io/name", "app.kubernetes.io/component", "app", "name")


def _latest_objects(objects_file: Path) -> list[tuple[datetime, dict[str, Any]]]:
    src = open_source(require_file(objects_file, "the objects file"), SourceKind.OBJECTS)
    rows = src.con.cursor().execute(
        """SELECT arg_max(ts, ts), arg_max(body, ts) FROM data
           WHERE kind IN ('Pod', 'Deployment', 'StatefulSet', 'Service', 'NetworkPolicy',
                          'ConfigMap')
           GROUP BY kind, namespace, name"""
    )
    out = []
    for ts, body in rows.fetchall():
        try:
            obj = json.loads(body)
        except (TypeError, ValueError):
            continue
        if isinstance(obj, dict):
            out.append((ts, obj))
    return out


def _meta(obj: dict[str, Any]) -> tuple[str, str, dict[str, str]]:
    meta = obj.get("metadata") or {}
    found = meta.get("labels")
    labels = found if isinstance(found, dict) else {}
    return meta.get("namespace") or "", meta.get("name") or "", labels


def _app_of_labels(labels: dict[str, str], fallback: str) -> str:
    for key in APP_LABELS:
        if labels.get(key):
            return str(labels[key])
    return fallback


def _selects(selector: Any, labels: dict[str, str]) -> bool:
    """A label selector (``{k: v}`` or ``{matchLabels: {...}}``) matching ``labels``; an empty
    selector selects every pod (as NetworkPolicy's ``podSelector: {}`` does)."""
    if not isinstance(selector, dict):
        return False
    wanted = selector.get("matchLabels", selector if "matchExpressions" not in selector else {})
    if not isinstance(wanted, dict):
        return False
    return all(labels.get(k) == v for k, v in wanted.items())


@dataclass(frozen=True)
class _Workloads:
    pods: list[tuple[datetime, dict[str, Any]]]
    #: (namespace, name) of every Deployment or StatefulSet
    workloads: dict[tuple[str, str], str]

    def owner(self, namespace: str, pod: dict[str, Any]) -> tuple[str, str]:
        """(kind, name) of the workload a pod belongs to, else the pod itself."""
        _, name, labels = _meta(pod)
        for ref in (pod.get("metadata") or {}).get("ownerReferences") or []:
            owner = ref.get("name") or ""
            if ref.get("kind") == "ReplicaSet":
                owner = app_of("ReplicaSet", owner)
            kind = self.workloads.get((namespace, owner))
            if kind:
                return kind, owner
        guess = app_of("Pod", name)
        for candidate in (guess, _app_of_labels(labels, guess)):
            kind = self.workloads.get((namespace, candidate))
            if kind:
                return kind, candidate
        return "Pod", name


def failing_states(objects_file: Path) -> list[FailingState]:
    """Every failing state the latest object snapshots show, application namespaces only."""
    latest = _latest_objects(objects_file)
    by_kind: dict[str, list[tuple[datetime, dict[str, Any]]]] = {}
    for ts, obj in latest:
        if _meta(obj)[0] not in INFRA_NAMESPACES:
            by_kind.setdefault(str(obj.get("kind")), []).append((ts, obj))
    work = _Workloads(
        by_kind.get("Pod", []),
        {
            (_meta(o)[0], _meta(o)[1]): str(o.get("kind"))
            for k in ("Deployment", "StatefulSet")
            for _, o in by_kind.get(k, [])
        },
    )
    found: list[FailingState] = []
    found += _pod_failures(work)
    found += _scaled_to_zero(by_kind.get("Deployment", []) + by_kind.get("StatefulSet", []))
    found += _unmatched_target_ports(by_kind.get("Service", []), work)
    found += _closed_policies(by_kind.get("NetworkPolicy", []), work)
    apps = {n for (_, n) in work.workloads} | {
        _app_of_labels(_meta(p)[2], app_of("Pod", _meta(p)[1])) for _, p in work.pods
    }
    found += _flags_on(by_kind.get("ConfigMap", []), apps)
    return found


def _flags_on(
    config_maps: list[tuple[datetime, dict[str, Any]]], apps: set[str]
) -> Iterable[FailingState]:
    """Feature flags (flagd's ``{"flags": {name: {variants, defaultVariant}}}``) switched on
    whose name names an application (``basketFailure``): seen once, the flip has no change to
    show, but the flag still says which application it breaks."""
    for ts, cm in config_maps:
        namespace, name, _ = _meta(cm)
        for key, value in ((cm.get("data") or {}) | (cm.get("binaryData") or {})).items():
            flags = structured(value)
            if not isinstance(flags, dict) or not isinstance(flags.get("flags"), dict):
                continue
            for flag, spec in flags["flags"].items():
                if not isinstance(spec, dict) or not isinstance(spec.get("variants"), dict):
                    continue
                chosen = spec["variants"].get(spec.get("defaultVariant"))
                if spec.get("state", "ENABLED") != "ENABLED" or chosen in _OFF:
                    continue
                for app in sorted(a for a in apps if (w := words(a)) and w <= words(flag)):
                    yield FailingState(
                        namespace, "ConfigMap", name, app,
                        f"ConfigMap {name} {key}: flag {flag} is on ({spec.get('defaultVariant')})",
                        0.5, ts, needs_blame=True,
                    )  # fmt: skip


#: flag values that leave a feature off
_OFF = (None, False, 0, 0.0, "", "off", "false", "0", "disabled")


def _pod_failures(work: _Workloads) -> Iterable[FailingState]:
    seen: set[tuple[str, str]] = set()
    for ts, pod in work.pods:
        namespace, name, labels = _meta(pod)
        status = pod.get("status") or {}
        statuses = (status.get("containerStatuses") or []) + (
            status.get("initContainerStatuses") or []
        )
        for c in statuses:
            waiting = ((c.get("state") or {}).get("waiting") or {}).get("reason")
            last = ((c.get("lastState") or {}).get("terminated") or {}).get("reason")
            now = ((c.get("state") or {}).get("terminated") or {}).get("reason")
            reason = (
                waiting
                if waiting in WAITING_FAILURES
                else next((r for r in (now, last) if r in TERMINATION_FAILURES), None)
            )
            if reason is None:
                continue
            kind, owner = work.owner(namespace, pod)
            if (kind, owner) in seen:
                break
            seen.add((kind, owner))
            app = owner if kind != "Pod" else _app_of_labels(labels, app_of("Pod", name))
            yield FailingState(
                namespace, kind, owner, app,
                f"pod {name} container {c.get('name')}: {reason}"
                + (f" ({c.get('restartCount')} restarts)" if c.get("restartCount") else ""),
                3.0 if reason in WAITING_FAILURES or reason == "OOMKilled" else 1.5,
                ts,
            )  # fmt: skip
            break


def _scaled_to_zero(workloads: list[tuple[datetime, dict[str, Any]]]) -> Iterable[FailingState]:
    for ts, obj in workloads:
        namespace, name, _ = _meta(obj)
        if (obj.get("spec") or {}).get("replicas") == 0:
            yield FailingState(
                namespace, str(obj.get("kind")), name, name, f"{obj.get('kind')} {name} has "
                "spec.replicas 0: no pod serves it", 1.5, ts,
            )  # fmt: skip


def _container_ports(pod: dict[str, Any]) -> tuple[set[int], set[str]]:
    numbers, names = set(), set()
    for c in (pod.get("spec") or {}).get("containers") or []:
        for p in c.get("ports") or []:
            if isinstance(p.get("containerPort"), int):
                numbers.add(p["containerPort"])
            if p.get("name"):
                names.add(str(p["name"]))
    return numbers, names


def _unmatched_target_ports(
    services: list[tuple[datetime, dict[str, Any]]], work: _Workloads
) -> Iterable[FailingState]:
    """A Service whose target port no container of its pods declares: connections are refused
    while the pods stay Ready (their probes go to the right port)."""
    for ts, svc in services:
        namespace, name, _ = _meta(svc)
        spec = svc.get("spec") or {}
        selector = spec.get("selector")
        if not isinstance(selector, dict) or not selector:
            continue
        pods = [
            p for _, p in work.pods if _meta(p)[0] == namespace and _selects(selector, _meta(p)[2])
        ]
        declared = [_container_ports(p) for p in pods]
        if not pods or not any(n or m for n, m in declared):
            continue  # no pod, or pods that declare no port: nothing to compare against
        numbers = set().union(*(n for n, _ in declared))
        names = set().union(*(m for _, m in declared))
        for port in spec.get("ports") or []:
            target = port.get("targetPort", port.get("port"))
            missing = (
                (isinstance(target, int) and target not in numbers)
                or (isinstance(target, str) and not target.isdigit() and target not in names)
                or (isinstance(target, str) and target.isdigit() and int(target) not in numbers)
            )
            if missing:
                app = _app_of_labels(selector, name)
                ports = ", ".join(str(n) for n in sorted(numbers)) or "none"
                yield FailingState(
                    namespace, "Service", name, app,
                    f"Service {name} targets port {target}, its pods listen on {ports}",
                    2.5, ts,
                )  # fmt: skip
                break


def _closed_policies(
    policies: list[tuple[datetime, dict[str, Any]]], work: _Workloads
) -> Iterable[FailingState]:
    """A NetworkPolicy that selects an application's pods and admits no ingress (or no egress)
    at all: the pods stay healthy, only their callers' (or their own) connections fail."""
    for ts, policy in policies:
        namespace, name, _ = _meta(policy)
        spec = policy.get("spec") or {}
        types = spec.get("policyTypes") or ["Ingress"]
        closed = [t for t in types if t in ("Ingress", "Egress") and not spec.get(t.lower())]
        if not closed:
            continue
        selector = spec.get("podSelector")
        pods = [
            p for _, p in work.pods if _meta(p)[0] == namespace and _selects(selector, _meta(p)[2])
        ]
        apps = sorted({_app_of_labels(_meta(p)[2], app_of("Pod", _meta(p)[1])) for p in pods})
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


def throttled_pods(metrics_dir: Path) -> list[tuple[str, str, float, float]]:
    """(pod, namespace, throttled share before, after) for containers whose CPU is throttled
    in at least :data:`THROTTLED` of the second half of the metrics, twice the first half."""
    src = open_source(metrics_dir, SourceKind.METRICS)
    rows = (
        src.con.cursor()
        .execute(
            """WITH s AS (
             SELECT coalesce(pod_name, attr(tags, 'pod'),
                             CASE WHEN object_kind = 'pod' THEN object_name END) AS pod,
                    coalesce(namespace, attr(tags, 'namespace')) AS ns,
                    metric_name, ts, value FROM data
             WHERE metric_name LIKE '%cpu%' AND (metric_name LIKE '%throttled%'
                   OR metric_name LIKE '%cfs_periods%')),
           bounds AS (SELECT min(ts) AS lo, max(ts) AS hi FROM s),
           half AS (SELECT s.*, s.ts >= lo + (hi - lo) / 2 AS late FROM s, bounds)
           SELECT pod, any_value(ns), metric_name, late, max(value) - min(value), avg(value),
                  epoch(max(ts)) - epoch(min(ts))
           FROM half WHERE pod IS NOT NULL GROUP BY pod, metric_name, late"""
        )
        .fetchall()
    )
    series: dict[tuple[str, str], dict[str, dict[bool, tuple[float, float, float]]]] = {}
    for pod, ns, metric, late, rise, mean, seconds in rows:
        series.setdefault((pod, ns or ""), {}).setdefault(metric, {})[bool(late)] = (
            rise or 0.0, mean or 0.0, seconds or 0.0,
        )  # fmt: skip
    out = []
    for (pod, ns), metrics in series.items():
        share = {late: _share(metrics, late) for late in (False, True)}
        before, after = share[False], share[True]
        if after is not None and after >= THROTTLED and (before is None or after >= 2 * before):
            out.append((pod, ns, before or 0.0, after))
    return out


def _share(metrics: dict[str, dict[bool, tuple[float, float, float]]], late: bool) -> float | None:
    """The throttled share of one half: throttled periods over periods (counters), throttled
    seconds per second (a counter without periods), or a gauge's mean (a ready-made ratio)."""

    def rise(name_part: str, exclude: str | None = None) -> float | None:
        for metric, halves in metrics.items():
            if (
                name_part in metric
                and (exclude is None or exclude not in metric)
                and late in halves
            ):
                return halves[late][0]
        return None

    throttled = rise("throttled_periods")
    periods = rise("cfs_periods", exclude="throttled")
    if throttled is not None and periods:
        return throttled / periods
    for metric, halves in metrics.items():
        if "throttled_seconds" in metric and late in halves:
            r, _, seconds = halves[late]
            return r / seconds if seconds else None
        if "throttled" in metric and not metric.endswith(("_total", "_count")) and late in halves:
            mean = halves[late][1]
            return mean / 100 if mean > 1 else mean
    return None


def observe(snapshot: Path, evidence: Evidence) -> Evidence:
    """``evidence`` with the failing states of the snapshot added (an unreadable source is a
    note, as in ``gather``)."""
    from itbench.errors import ItbenchError

    layout = SnapshotLayout(snapshot)
    notes = list(evidence.notes)
    states: list[FailingState] = []
    workloads: dict[tuple[str, str], str] = {}
    try:
        states += failing_states(layout.objects)
        workloads = _workload_names(layout.objects)
    except ItbenchError as exc:
        notes.append(f"object states: {exc}")
    if not layout.metrics.is_dir():
        notes.append(f"metrics: {layout.metrics} is missing; CPU throttling cannot be seen")
    try:
        throttled = throttled_pods(layout.metrics) if layout.metrics.is_dir() else []
    except ItbenchError as exc:
        notes.append(f"metrics: {exc}")
        throttled = []
    states += _event_failures(evidence, workloads)
    for pod, namespace, before, after in throttled:
        if namespace in INFRA_NAMESPACES:
            continue
        app = app_of("Pod", pod)
        kind = (
            workloads.get((namespace, app))
            if namespace
            else next((k for (_, n), k in workloads.items() if n == app), None)
        )
        states.append(
            FailingState(
                namespace or _namespace_of(evidence),
                kind or "Pod",
                app if kind else pod,
                app,
                f"pod {pod} CPU throttled in {after:.0%} of periods (before: {before:.0%})",
                2.0,
            )  # fmt: skip
        )
    return replace(evidence, states=tuple(states), notes=tuple(notes))


#: Warning reasons the kubelet gives a pod that cannot start or keeps dying
EVENT_FAILURES = frozenset(
    {"ErrImagePull", "ImagePullBackOff", "InvalidImageName", "CrashLoopBackOff", "OOMKilling",
     "BackOff", "Failed"}
)  # fmt: skip


def _event_failures(
    evidence: Evidence, workloads: dict[tuple[str, str], str]
) -> list[FailingState]:
    """Pods the Warning events say cannot start (image pulls, back-offs, OOM kills): the same
    finding as a waiting container, for snapshots whose objects hold no pods."""
    out: dict[str, FailingState] = {}
    for w in evidence.warnings:
        if w.kind != "Pod" or w.namespace in INFRA_NAMESPACES or w.reason not in EVENT_FAILURES:
            continue
        app = app_of("Pod", w.name)
        kind = workloads.get((w.namespace, app))
        state = FailingState(
            w.namespace, kind or "Pod", app if kind else w.name, app,
            f"Warning {w.reason} x{w.count} on pod {w.name}", 2.0,
        )  # fmt: skip
        out.setdefault(state.entity, state)
    return list(out.values())


def _workload_names(objects_file: Path) -> dict[tuple[str, str], str]:
    return {
        (_meta(o)[0], _meta(o)[1]): str(o.get("kind"))
        for _, o in _latest_objects(objects_file)
        if o.get("kind") in ("Deployment", "StatefulSet")
    }


def _namespace_of(evidence: Evidence) -> str:
    seen = [a.namespace for a in evidence.alerts if a.namespace]
    seen += [w.namespace for w in evidence.warnings if w.namespace]
    return max(set(seen), key=seen.count) if seen else "default"
