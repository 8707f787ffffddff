"""What the baseline reads from a snapshot, through the same tools an agent has (``sre.tools``):
spec changes, Warning events, alert groups and the trace error tree. Only the workspace is read;
ground truth is never among an agent's inputs."""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from itbench.errors import ItbenchError
from sre.snapshot import SourceKind, open_source
from sre.snapshot.layout import SnapshotLayout
from sre.tools import call, run_tool
from sre.tools._common import parse_time
from sre.tools.get_trace_error_tree import ARROW
from sre.tools.k8s_spec_change_analysis import METADATA_CHANGES

#: Alerts that say nothing about an application: the always-on heartbeat and collector throttling.
HOUSEKEEPING_ALERTS = frozenset({"Watchdog", "CPUThrottlingHigh", "InfoInhibitor"})
#: Namespaces whose objects are the platform, not the application under diagnosis.
#: what the API server answers when its priority levels are saturated (API Priority and
#: Fairness): a component's request refused, a pod not bound; the pod's own spec is not at fault
API_THROTTLED = "429 Too Many Requests"
INFRA_NAMESPACES = frozenset(
    {
        "kube-system",
        "prometheus",
        "opentelemetry-collectors",
        "opentelemetry-operator",
        "clickhouse",
        "clickhouse-operator",
        "data-recorders",
        "metrics-server",
        "opensearch",
    }
)
#: the objects whose Warning events speak for an application's pods: a pod, or the ReplicaSet
#: that cannot create one (``app_of`` names the application of either)
POD_EVENT_KINDS = frozenset({"Pod", "ReplicaSet"})
# a pod name is its workload's name plus a ReplicaSet hash and a pod suffix
_POD_SUFFIX = re.compile(r"-[a-z0-9]{6,10}-[a-z0-9]{5}$")
_RS_SUFFIX = re.compile(r"-[a-z0-9]{6,10}$")


def app_of(kind: str, name: str) -> str:
    """The application a workload object belongs to, by the names Kubernetes derives."""
    if kind == "Pod":
        return _POD_SUFFIX.sub("", name)
    if kind == "ReplicaSet":
        return _RS_SUFFIX.sub("", name)
    return name


@dataclass(frozen=True)
class Change:
    """One observed change of one object (``created``, ``modified``, ``deleted``)."""

    namespace: str
    kind: str
    name: str
    time: datetime
    change: str
    paths: tuple[str, ...]
    #: the object's latest spec (selectors, node names) to tell which applications it touches
    spec: Mapping[str, Any]
    #: (path, old value, new value) of each changed field, as the change analysis reports them
    values: tuple[tuple[str, Any, Any], ...] = ()
    #: for a change known only to lie between two observations (an object gone from a periodic
    #: export): the observation before; the change was made after it and up to ``time``
    since: datetime | None = None

    @property
    def entity(self) -> str:
        # a cluster-scoped object (Node) has no namespace to name
        if not self.namespace:
            return f"{self.kind}/{self.name}"
        return f"{self.namespace}/{self.kind}/{self.name}"


@dataclass(frozen=True)
class WarningEvent:
    namespace: str
    kind: str
    name: str
    reason: str
    count: int
    #: the message of one of its events (what the component said: "Binding rejected: 429 ...")
    message: str = ""
    #: when the events file first holds it (its earliest row): a failure already reported
    #: before the incident's first alert is not this incident's (``background``)
    first: datetime | None = None


@dataclass(frozen=True)
class AlertGroup:
    alertname: str
    entity: str
    namespace: str | None
    first_seen: datetime | None
    state: str | None
    #: when the alert says it began firing (its ``activeAt`` / ``startsAt``), which may be long
    #: before the first dump that holds it: an alert already on before the incident is not its
    active_since: datetime | None = None


@dataclass(frozen=True)
class CallPath:
    """A call path whose errors or latency changed at the pivot, with the deepest service the
    trace tool holds responsible."""

    services: tuple[str, ...]
    severity: str
    suspect: str | None
    reason: str
    sample_errors: tuple[str, ...]


@dataclass(frozen=True)
class FailingState:
    """One object whose last observed state is a fault, and the application it hits."""

    namespace: str
    kind: str
    name: str
    app: str
    what: str
    #: how strongly the state alone says "this is the fault" (the container's own failure is
    #: stronger than a policy or a metric, which may be routine)
    strength: float
    time: datetime | None = None
    #: a state that is routine unless other signals blame its application (a deny-all policy,
    #: a flag switched on)
    needs_blame: bool = False
    #: the other end of the connection the state breaks: the application this one cannot reach
    #: (a wrong address in its environment), or the client a server refuses (an expired
    #: certificate); the signals that blame that application blame the state too
    reaches: str = ""
    #: ``time`` is the last moment the object was seen healthy (an object gone since): the fault
    #: came after it, so symptoms that began after it count for the state as for a change
    healthy_until: bool = False
    #: the scheduler cannot place the workload's pods: a node change that took capacity away
    #: after the workload's own edit (a cordon, a blocking taint) explains it (``rank``)
    unplaced: bool = False

    @property
    def entity(self) -> str:
        if not self.namespace:  # a cluster-scoped object (Node), as a Change names it
            return f"{self.kind}/{self.name}"
        return f"{self.namespace}/{self.kind}/{self.name}"


@dataclass(frozen=True)
class Symptom:
    """When an application's errors, latency or ERROR log lines stepped up (``symptoms``)."""

    app: str
    start: datetime
    what: str
    #: read off the logs (the traces may not show it: a datastore, a service without spans)
    logs: bool = False
    #: the step may have begun as late as this (sparse lines leave the onset in a gap); None:
    #: at ``start``
    latest: datetime | None = None

    @property
    def latest_start(self) -> datetime:
        return self.latest or self.start


@dataclass(frozen=True)
class PodLabels:
    """The labels of one pod (or, for a workload without pods, of its pod template) and the
    application it belongs to: what a selector picks and whom that hits."""

    namespace: str
    name: str
    app: str
    labels: Mapping[str, str]
    #: the node the pod runs on ("" for a pod template or an unscheduled pod)
    node: str = ""


@dataclass(frozen=True)
class Preemption:
    """One application's pod put out by the scheduler for a pod of higher priority."""

    namespace: str
    #: the application of the pod put out
    app: str
    time: datetime | None
    #: (namespace, application) of the preempting pod, when the event names it (``ns/name``)
    #: or names a pod uid the objects hold; None when neither tells
    by: tuple[str, str] | None = None


@dataclass(frozen=True)
class Evidence:
    changes: tuple[Change, ...]
    warnings: tuple[WarningEvent, ...]
    alerts: tuple[AlertGroup, ...]
    #: when the application's own alerts started (None: no new alert in the window)
    onset: datetime | None
    paths: tuple[CallPath, ...]
    notes: tuple[str, ...] = ()
    #: failing states of the last object snapshots and throttled pods (``state``), which a fault
    #: leaves even when the snapshot shows no change
    states: tuple[FailingState, ...] = ()
    #: namespace/Kind/name of each ConfigMap and Secret -> the workloads that read it (``state``)
    config_users: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: when each application's symptoms began (``symptoms``)
    symptoms: tuple[Symptom, ...] = ()
    #: the latest pods' labels, to resolve the selectors of changed objects (``state``)
    pods: tuple[PodLabels, ...] = ()
    #: namespace/Kind/name of a workload whose settings changed -> the applications whose
    #: error lines after the change name it or a setting it changed (``dependency_clients``)
    named_by: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: namespace/Kind/name of a fault-injection experiment -> the clients of the applications
    #: it picks, when those began to fail under it (``fault_clients``)
    fault_clients: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: (namespace, workload) -> (minReplicas, maxReplicas) of the HorizontalPodAutoscaler the
    #: latest objects show scaling it, changed in the window or not (``state``)
    autoscalers: Mapping[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    #: namespace/CronJob/name of a CronJob changed to run more -> the first and last time its
    #: jobs were seen running after the change (``batch_load``)
    job_runs: Mapping[str, tuple[datetime, datetime]] = field(default_factory=dict)
    #: the pods the scheduler put out for higher-priority ones (``Preempted`` events of any
    #: type: the scheduler reports them as Normal), with the preemptor when it can be told
    preemptions: tuple[Preemption, ...] = ()
    #: the traces link no span to a parent (``symptoms.unlinked``): the error tree is blind
    unlinked_spans: bool = False


def read_time(value: str | None) -> datetime | None:
    """A time a tool's answer gives (None when it gives none)."""
    return parse_time(value) if value else None


def _stamp(value: Any) -> datetime | None:
    """The time an object's record gives (``creationTimestamp``, a container's ``startedAt``, a
    ``managedFields`` write); None when it gives none, or a text that is not a time (which
    dates nothing)."""
    try:
        return read_time(value) if isinstance(value, str) else None
    except ItbenchError:
        return None


#: kinds whose changes follow others': a new pod its owner's rollout; a Service's Endpoints (and
#: the controller's EndpointSlices, ``_controller_slice``) the readiness of the pods it selects (a pod turning NotReady moves its address
#: to ``notReadyAddresses``). The change analysis compares their addresses too, which the
#: endpoints controller rewrites on its own
CONSEQUENCES = frozenset({"Pod", "Endpoints"})
#: who wrote an EndpointSlice: the controller's own slices mirror a Service's pods; a slice someone
#: applied by hand (another manager) lists the addresses it was given, and is a change of its own
SLICE_MANAGER = "endpointslice.kubernetes.io/managed-by"
SLICE_CONTROLLER = "endpointslice-controller.k8s.io"


def _controller_slice(obj: Mapping[str, Any]) -> bool:
    labels = (obj.get("metadata") or {}).get("labels") or {}
    return obj.get("kind") == "EndpointSlice" and labels.get(SLICE_MANAGER) == SLICE_CONTROLLER


def _changes(layout: SnapshotLayout, notes: list[str]) -> list[Change]:
    objects = str(layout.objects)
    answer = call_tool("k8s_spec_change_analysis", {"k8s_objects_file": objects}, notes)
    seen = _observations(layout)
    changed: list[tuple[dict[str, Any], Mapping[str, Any]]] = []
    for entity in answer["entities_with_changes"]:
        # a resourceVersion bump is any write (a status update too) and a deletionTimestamp an
        # object going away: neither is a change of what the object asks for
        writes = [c for c in entity.get("changes", []) if c.get("change") not in METADATA_CHANGES]
        if (entity.get("kind") or "") in CONSEQUENCES or not writes:
            continue  # a new pod follows its owner's change: a consequence, not a cause
        entity = {**entity, "changes": writes}
        got = call("get_k8_spec", {"k8s_objects_file": objects, "k8_object_name": entity["entity"]})
        if _controller_slice(got.get("spec") or {}):
            continue  # the endpoints controller's own slice follows the pods' readiness
        changed.append((entity, got.get("spec") or {}))
    rollouts = _replica_sets_made(changed)
    starts = _pod_starts(layout)
    first_seen = min((t for times in seen.values() for t in times), default=None)
    start = _window_start(layout) or first_seen
    listed = _first_list(seen)
    out = []
    for entity, obj in changed:
        kind = entity.get("kind") or ""
        if kind == "ReplicaSet" and _owned_by(obj, "Deployment"):
            # its Deployment's rollout made it (or scaled it down): that change is the one
            continue
        namespace, name = entity.get("namespace") or "", entity.get("name") or ""
        for change in entity.get("changes", []):
            items = [i for i in change.get("changes", []) if "path" in i]
            observed = parse_time(change["timestamp"])
            # the observation before the one that showed it (the tool's ``from_timestamp`` is
            # the version before, which a periodic export may have shown many times since)
            before = _last_before(seen.get((namespace, kind, name), ()), observed) or read_time(
                change.get("from_timestamp")
            )
            what = change.get("change", "modified")
            if what == "created" and _existed_before(obj, kind, start):
                # first seen, not made: an export that stamps each object with its own time (or
                # one list at the end) shows every object "created"; a write inside the window
                # changed it, else it was there all along unless the export watched it appear
                if write_time(obj, "modified", start, observed) is not None:
                    what, before = "modified", start
                elif _first_round(observed, start, first_seen) or _in_round(observed, listed):
                    continue
            written = write_time(obj, what, before, observed)
            if written is None and kind == "Deployment":
                # a rollout is dated by the ReplicaSet it made, whose creation time is its own
                made = [
                    t for t in rollouts.get((namespace, name), ()) if _inside(t, before, observed)
                ]
                written = max(made) if made else None
            if written is None and kind == "Deployment" and not _scaled_only(items):
                # an export without ReplicaSets: the first pod of the application started
                # since the observation before is the rollout's (its containers' start, when
                # its creation time is not one the rollout set)
                began = [
                    t for t in starts.get((namespace, name), ()) if _inside(t, before, observed)
                ]
                written = min(began) if began else None
            # a Chaos Mesh Schedule creates a new experiment each period, named after it and
            # the moment: the Schedule is the fault's object, its experiments are its doing
            schedule = schedule_of(obj) if kind.endswith("Chaos") else None
            out.append(
                Change(
                    namespace=namespace,
                    kind="Schedule" if schedule else kind,
                    name=schedule or name,
                    time=written or observed,  # type: ignore[arg-type]  # parse_time gives None only for text that is not a timestamp; Change declares the parsed time
                    change=what,
                    paths=tuple(i["path"] for i in items),
                    spec=obj.get("spec") or {},
                    values=tuple((i["path"], i.get("old"), i.get("new")) for i in items),
                    # nothing in the object dates the edit of a configuration object: it was
                    # made after the observation before and up to the one that showed it (a
                    # workload's edit keeps its observation time, or its ReplicaSet's or new
                    # pods'; a scale makes no ReplicaSet: its observations alone bound it too)
                    since=before
                    if written is None
                    and what == "modified"
                    and (kind not in WORKLOADS or _scaled_only(items))
                    else None,
                )
            )
    return out


def _scaled_only(items: list[dict[str, Any]]) -> bool:
    """A change of nothing but a replica count (``kubectl scale``)."""
    return bool(items) and all(str(i["path"]).rsplit(".", 1)[-1] == "replicas" for i in items)


def _window_start(layout: SnapshotLayout) -> datetime | None:
    """When the snapshot's telemetry begins (its first span or log line): the incident's window,
    before which an object merely existed. None without telemetry (the caller then takes the
    first object observation)."""
    for path, kind in ((layout.traces, SourceKind.TRACES), (layout.logs, SourceKind.LOGS)):
        if not path.exists():
            continue
        try:
            first = open_source(path, kind).query("SELECT min(ts) FROM data")[0][0]
        except ItbenchError:  # an unreadable source dates nothing; the next may
            continue
        if first is not None:
            return first
    return None


#: the objects of one round of a periodic export are stamped apart by the time it takes to
#: write them: within this of the first, an object was in the export's first round
ROUND = timedelta(seconds=60)


def _first_round(
    observed: datetime | None, start: datetime | None, first_seen: datetime | None
) -> bool:
    """Whether an object first seen at ``observed`` was there when the export began: seen before
    the window (a list's record dated by an old write) or in the export's first round. An object
    that only a later round shows appeared while the export watched."""
    if observed is None or start is None:
        return True
    at = observed.replace(tzinfo=None)
    if at < start.replace(tzinfo=None):
        return True
    return first_seen is not None and at <= first_seen.replace(tzinfo=None) + ROUND


#: a round that first shows at least this share of the snapshot's objects is the export's first
#: full list (a few objects watched or listed before it do not make it a later round)
LISTED_SHARE = 0.5


def _first_list(seen: Mapping[tuple[str, str, str], list[datetime]]) -> datetime | None:
    """When the export first listed most of the snapshot's objects: the earliest first sighting
    from which, within :data:`ROUND`, at least :data:`LISTED_SHARE` of all objects are first
    seen. An exporter may watch or list a few objects minutes before its first full pull; an
    object made before the window that this pull shows for the first time was there all along,
    however late the pull came. A creation the export watched shows few objects at once."""
    firsts = sorted(times[0].replace(tzinfo=None) for times in seen.values() if times)
    need = LISTED_SHARE * len(firsts)
    for i, at in enumerate(firsts):
        if bisect_right(firsts, at + ROUND) - i >= need:
            return at
    return None


def _in_round(observed: datetime | None, listed: datetime | None) -> bool:
    if observed is None or listed is None:
        return False
    at = observed.replace(tzinfo=None)
    return listed <= at <= listed + ROUND


def _existed_before(obj: Mapping[str, Any], kind: str, start: datetime | None) -> bool:
    """Whether an object reported "created" was made before the window began (by its own
    ``creationTimestamp``). A fault-injection experiment or Schedule made before the window
    still acts in it, every period: it stays a creation."""
    if start is None or kind == "Schedule" or kind.endswith("Chaos"):
        return False
    try:
        made = read_time((obj.get("metadata") or {}).get("creationTimestamp"))
    except ItbenchError:  # a creation time that is not one proves nothing
        return False
    return made is not None and made.replace(tzinfo=None) < start.replace(tzinfo=None)


#: kinds whose edits a rollout dates (their ReplicaSets, their pods), not the observations
WORKLOADS = frozenset({"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet"})


def _observations(layout: SnapshotLayout) -> dict[tuple[str, str, str], list[datetime]]:
    """(namespace, kind, name) -> every time the export observed the object."""
    src = open_source(layout.objects, SourceKind.OBJECTS)
    rows = src.con.cursor().execute(
        "SELECT coalesce(namespace, ''), kind, name, list(DISTINCT ts) FROM data GROUP BY ALL"
    )
    return {(ns, kind, name): sorted(times) for ns, kind, name, times in rows.fetchall()}


def _pod_starts(layout: SnapshotLayout) -> dict[tuple[str, str], list[datetime]]:
    """(namespace, application) -> when each of its pods the export shows was created or had a
    container start (a container's ``startedAt`` dates a pod whose ``creationTimestamp`` an
    exporter rewrote)."""
    src = open_source(layout.objects, SourceKind.OBJECTS)
    rows = src.con.cursor().execute(
        "SELECT DISTINCT coalesce(namespace, ''), name, body FROM data WHERE kind = 'Pod'"
    )
    out: dict[tuple[str, str], set[datetime]] = {}
    for namespace, name, body in rows.fetchall():
        try:
            pod = json.loads(body)
        except (TypeError, ValueError):
            continue
        if not isinstance(pod, dict):
            continue
        stamps = [(pod.get("metadata") or {}).get("creationTimestamp")]
        for status in (pod.get("status") or {}).get("containerStatuses") or []:
            running = ((status or {}).get("state") or {}).get("running") or {}
            stamps.append(running.get("startedAt"))
        for stamp in stamps:
            at = _stamp(stamp)
            if at is not None:
                out.setdefault((namespace, app_of("Pod", name)), set()).add(at)
    return {key: sorted(times) for key, times in out.items()}


def _last_before(times: Iterable[datetime], observed: datetime | None) -> datetime | None:
    if observed is None:
        return None
    cut = observed.replace(tzinfo=None)
    earlier = [t for t in times if t.replace(tzinfo=None) < cut]
    return max(earlier) if earlier else None


def _inside(at: datetime, before: datetime | None, observed: datetime | None) -> bool:
    at = at.replace(tzinfo=None)
    low = before.replace(tzinfo=None) if before else datetime.min
    return observed is not None and low < at <= observed.replace(tzinfo=None)


def _replica_sets_made(
    changed: list[tuple[dict[str, Any], Mapping[str, Any]]],
) -> dict[tuple[str, str], list[datetime]]:
    """(namespace, Deployment) -> when each ReplicaSet it owns and the export saw created was
    made (its ``creationTimestamp``)."""
    out: dict[tuple[str, str], list[datetime]] = {}
    for entity, obj in changed:
        if entity.get("kind") != "ReplicaSet":
            continue
        if not any(c.get("change") == "created" for c in entity.get("changes", [])):
            continue
        meta = obj.get("metadata") or {}
        refs = [r for r in meta.get("ownerReferences") or [] if isinstance(r, dict)]
        owner = next((r.get("name") for r in refs if r.get("kind") == "Deployment"), None)
        try:
            made = read_time(meta.get("creationTimestamp"))
        except ItbenchError:  # a creation time that is not one dates nothing
            made = None
        if owner and made is not None:
            out.setdefault((entity.get("namespace") or "", str(owner)), []).append(made)
    return out


def _owned_by(obj: Mapping[str, Any], kind: str) -> bool:
    refs = (obj.get("metadata") or {}).get("ownerReferences") or []
    return any(isinstance(r, dict) and r.get("kind") == kind for r in refs)


def schedule_of(obj: Mapping[str, Any]) -> str | None:
    """The Chaos Mesh Schedule that created an experiment (its controller owner), if any."""
    for ref in (obj.get("metadata") or {}).get("ownerReferences") or []:
        if isinstance(ref, dict) and ref.get("kind") == "Schedule" and ref.get("name"):
            return str(ref["name"])
    return None


def write_time(
    obj: Mapping[str, Any], change: str, before: datetime | None, observed: datetime | None
) -> datetime | None:
    """When a change seen at ``observed`` was written, from the object's own record: its
    ``creationTimestamp`` for a creation, else the latest ``managedFields`` write after the
    observation before (``before``) and up to ``observed``. None when nothing pins it."""
    if observed is None:
        return None
    meta = obj.get("metadata") or {}
    after = before or datetime.min

    def inside(value: Any) -> datetime | None:
        at = _stamp(value)
        return at if at is not None and after < at <= observed else None

    if change == "created" and inside(meta.get("creationTimestamp")):
        return inside(meta.get("creationTimestamp"))
    writes = [inside(m.get("time")) for m in meta.get("managedFields") or [] if isinstance(m, dict)]
    pinned = [w for w in writes if w is not None]
    if not pinned:
        return None
    return min(pinned) if change == "created" else max(pinned)


def call_tool(name: str, arguments: dict[str, Any], notes: list[str]) -> Any:
    """A tool's answer (the original's shape), its warnings added to the notes."""
    answer = run_tool(name, arguments)
    notes += answer.warnings
    return answer.body


def _warnings(layout: SnapshotLayout, notes: list[str]) -> list[WarningEvent]:
    answer = call_tool(
        "event_analysis",
        {
            "events_file": str(layout.events),
            "filters": {"event_kind": "Warning"},
            "group_by": ["namespace", "object_kind", "object_name", "reason"],
            "limit": 1000,
        },
        notes,
    )
    # one message per group, asked apart so that the groups (and their counts) stay one per
    # object and reason
    said = call_tool(
        "event_analysis",
        {
            "events_file": str(layout.events),
            "filters": {"event_kind": "Warning"},
            "group_by": ["namespace", "object_kind", "object_name", "reason", "message"],
            "limit": 1000,
        },
        notes,
    )
    messages: dict[tuple[str, str, str, str], str] = {}
    for r in said["data"]:
        key = (r.get("namespace") or "", r.get("object_kind") or "", r.get("object_name") or "",
               r.get("reason") or "")  # fmt: skip
        messages.setdefault(key, str(r.get("message") or ""))
    # the earliest row of each group: when the snapshot first reports the failure
    earliest = call_tool(
        "event_analysis",
        {
            "events_file": str(layout.events),
            "filters": {"event_kind": "Warning"},
            "group_by": ["namespace", "object_kind", "object_name", "reason"],
            "agg": "first",
            "limit": 1000,
        },
        notes,
    )
    firsts: dict[tuple[str, str, str, str], datetime | None] = {
        (r.get("namespace") or "", r.get("object_kind") or "", r.get("object_name") or "",
         r.get("reason") or ""): read_time(r.get("event_time"))
        for r in earliest["data"]
    }  # fmt: skip
    out = []
    for r in answer["data"]:
        key = (r.get("namespace") or "", r.get("object_kind") or "", r.get("object_name") or "",
               r.get("reason") or "")  # fmt: skip
        out.append(
            WarningEvent(
                namespace=key[0],
                kind=key[1],
                name=key[2],
                reason=key[3],
                count=int(r.get("count") or 0),
                message=messages.get(key, ""),
                first=naive_utc(firsts.get(key)),
            )  # fmt: skip
        )
    return out


def naive_utc(at: datetime | None) -> datetime | None:
    """``at`` in UTC without its zone, as the alerts' times are compared."""
    if at is None or at.tzinfo is None:
        return at
    return at.astimezone(UTC).replace(tzinfo=None)


def _alerts(layout: SnapshotLayout, notes: list[str]) -> list[AlertGroup]:
    answer = call_tool("alert_summary", {"base_dir": str(layout.alerts), "limit": 500}, notes)
    # the same rows dated by the alerts' own activeAt (its warnings repeat the first call's)
    active = {
        (a["alertname"], a["entity"], a.get("severity")): read_time(a.get("first_seen"))
        for a in run_tool(
            "alert_summary",
            {"base_dir": str(layout.alerts), "limit": 500, "time_basis": "activeAt"},
        ).body
    }
    return [
        AlertGroup(
            alertname=a["alertname"],
            entity=a["entity"],
            namespace=a.get("namespace"),
            first_seen=read_time(a.get("first_seen")),
            state=a.get("state"),
            active_since=active.get((a["alertname"], a["entity"], a.get("severity"))),
        )
        for a in answer
    ]


def alert_onset(alerts: list[AlertGroup]) -> datetime | None:
    """The first alert of the application that was not already firing when the alert history
    began: alerts present from the first minutes are the background, not this incident."""
    relevant = [
        a
        for a in alerts
        if a.first_seen is not None
        and a.alertname not in HOUSEKEEPING_ALERTS
        and a.namespace not in INFRA_NAMESPACES
    ]
    if not relevant:
        return None
    start = min(a.first_seen for a in relevant)  # type: ignore[type-var]  # relevant alerts all have first_seen set (filtered above)
    later = [a.first_seen for a in relevant if (a.first_seen - start).total_seconds() > 180]  # type: ignore[operator]  # relevant alerts all have first_seen set (filtered above)
    return min(later) if later else start  # type: ignore[type-var]  # relevant alerts all have first_seen set (filtered above)


def _paths(layout: SnapshotLayout, pivot: datetime | None, notes: list[str]) -> list[CallPath]:
    arguments: dict[str, Any] = {"trace_file": str(layout.traces)}
    if pivot is not None:
        # the alert fires a minute after the fault (its ``for``): compare around the fault itself
        arguments["pivot_time"] = (pivot.replace(second=0, microsecond=0)).isoformat()
    answer = call("get_trace_error_tree", arguments)
    # the span paths (every span's own path) find a failing service called beside a deeper
    # chain, which the original's grouping of whole traces (critical_paths) leaves out
    if pivot is not None and not any(
        c.get("root_cause_suspect") for c in answer["span_critical_paths"]
    ):
        # the alerts' history may start with the incident already on: the first error span is
        # then the better pivot (the tool's own default)
        answer = call("get_trace_error_tree", {"trace_file": str(layout.traces)})
    return [
        CallPath(
            services=tuple(c["path"].split(ARROW)),
            severity=c["severity"],
            suspect=(c.get("root_cause_suspect") or {}).get("service"),
            reason=c.get("reason", ""),
            sample_errors=tuple(c.get("sample_errors") or ()),
        )
        for c in answer["span_critical_paths"]
    ]


def gather(snapshot: Path) -> Evidence:
    """Every signal the baseline ranks on; a missing file leaves its signal empty, with a note."""
    layout = SnapshotLayout(snapshot)
    notes: list[str] = []
    changes = _guarded(lambda: _changes(layout, notes), notes, "spec changes", [])
    warnings = _guarded(lambda: _warnings(layout, notes), notes, "events", [])
    alerts = _guarded(lambda: _alerts(layout, notes), notes, "alerts", [])
    onset = alert_onset(alerts)
    paths = _guarded(lambda: _paths(layout, onset, notes), notes, "traces", [])
    return Evidence(
        tuple(changes), tuple(warnings), tuple(alerts), onset, tuple(paths), tuple(notes)
    )


def _guarded(read, notes: list[str], what: str, empty):
    from itbench.errors import ItbenchError

    try:
        return read()
    except ItbenchError as exc:  # one unreadable signal must not cost the others
        notes.append(f"{what}: {exc}")
        return empty
