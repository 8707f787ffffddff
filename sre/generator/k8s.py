"""``k8s_objects_raw.tsv`` and ``k8s_events_raw.tsv``: what the OTel collector's k8sobjects
receiver records — periodic full snapshots of every object, an extra observation whenever an
object changes (the fault, the noise rollouts), and the event stream, Warning events included."""

from __future__ import annotations

import copy
import datetime as dt
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sre.generator import objects as k8s
from sre.generator.incident import Incident, PodPhase, Rollout
from sre.generator.model import ObjectRef
from sre.generator.tsv import TsvWriter, clickhouse_time, json_field, rfc3339

_RESOURCE = {
    "Deployment": "deployments",
    "Service": "services",
    "Pod": "pods",
    "Node": "nodes",
    "ConfigMap": "configmaps",
    "NetworkPolicy": "networkpolicies",
    "ResourceQuota": "resourcequotas",
    "NetworkChaos": "networkchaos",
    "StressChaos": "stresschaos",
    "DNSChaos": "dnschaos",
    "CronJob": "cronjobs",
    "ReplicaSet": "replicasets",
}


class ClusterState:
    """The objects as they are at any moment of the incident."""

    def __init__(self, incident: Incident, deployments: dict[str, dict], services: dict[str, dict]):
        self.inc = incident
        self.deployments = deployments
        self.services = services
        plan = incident.plan
        self.changes = {(c.ref.kind, c.ref.namespace, c.ref.name): c for c in plan.changes}
        #: per service, its Deployment after each noise rollout, in time order
        self.rolled: dict[str, list[tuple[dt.datetime, dict[str, Any]]]] = {}
        for rollout in incident.noise.rollouts:
            history = self.rolled.setdefault(rollout.service, [])
            dep = rollout.apply(history[-1][1] if history else deployments[rollout.service])
            revision = len(history) + 2
            dep["metadata"]["generation"] = revision
            dep["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = str(revision)
            history.append((rollout.time, dep))

    def deployment(self, name: str, t: dt.datetime) -> dict[str, Any]:
        dep = self.deployments[name]
        for since, rolled in self.rolled.get(name, ()):
            if t >= since:
                dep = rolled
        change = self.changes.get(("Deployment", self.inc.namespace, name))
        if change is not None and change.after is not None and t >= self.inc.fault_time:
            dep = change.after
        dep = copy.deepcopy(dep)
        phase = self.inc.phase(name, t)
        ready = 1 if phase.name and phase.state == "Running" else 0
        dep["status"] = {
            "replicas": 1 if phase.name else 0,
            "readyReplicas": ready,
            "availableReplicas": ready,
            "unavailableReplicas": (1 if phase.name else 0) - ready,
        }
        return dep

    def objects(self, t: dt.datetime) -> Iterator[dict[str, Any]]:
        inc = self.inc
        ns = inc.namespace
        for svc in inc.topology.services:
            yield self.deployment(svc.name, t)
            change = self.changes.get(("Service", ns, svc.name))
            service = change.after if change and t >= inc.fault_time else self.services[svc.name]
            if service is not None:  # None: the fault deleted it
                yield service
            yield from self.pods(svc.name, t)
        cm = self.changes.get(("ConfigMap", ns, k8s.FLAGD_CONFIGMAP))
        if cm is None:
            yield k8s.flagd_configmap(ns)
        else:  # the fault's own before: a flag fault ships the demo's full flag file
            yield _kept(cm.after) if t >= inc.fault_time else (cm.before or k8s.flagd_configmap(ns))
        for name in k8s.NODES:
            change = self.changes.get(("Node", "", name))
            yield _kept(change.after) if change and t >= inc.fault_time else k8s.node(name)
        yield cronjob(inc)
        for obj in inc.installed:
            meta = obj["metadata"]
            change = self.changes.get((obj["kind"], meta.get("namespace", ""), meta["name"]))
            if change is None or t < inc.fault_time:
                yield obj
            elif change.after is not None:
                yield change.after
        for change in inc.plan.changes:
            if change.before is None and t >= inc.fault_time:
                yield _kept(change.after)  # created by the fault

    def pods(self, service: str, t: dt.datetime) -> Iterator[dict[str, Any]]:
        phase = self.inc.phase(service, t)
        svc = self.inc.topology.service(service)
        if self.inc.plan.pod_state == "Evicted" and service == self.inc.plan.target.name:
            first = self.inc.pods[service][-2]
            if t >= self.inc.fault_time and first.name:
                # evicted pods stay listed (phase Failed) until someone deletes them
                yield k8s.pod(
                    self.deployment(service, t), svc, first.name, first.node, "Evicted", 0
                )
        if phase.name is None:
            return
        restarts = int(phase.restarts_per_min * max(0.0, (t - phase.since).total_seconds()) / 60)
        # pods of the initial phase have been running since before the window
        since = (
            phase.since if phase.since > self.inc.start else self.inc.start - dt.timedelta(days=3)
        )
        yield k8s.pod(
            self.deployment(service, t),
            svc,
            phase.name,
            phase.node,
            phase.state,
            restarts,
            started=rfc3339(since),
        )


def cronjob(inc: Incident) -> dict[str, Any]:
    return {
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": {"name": inc.noise.cronjob, "namespace": inc.namespace},
        "spec": {
            "schedule": f"*/{inc.noise.cron_every_min} * * * *",
            "jobTemplate": {
                "spec": {
                    "template": {
                        "spec": {
                            "containers": [
                                {"name": "compact", "image": "valkey/valkey:8.1-alpine"}
                            ],
                            "restartPolicy": "OnFailure",
                        }
                    }
                }
            },
        },
    }


def _with_meta(obj: dict[str, Any], t: dt.datetime, version: int, created: dt.datetime) -> dict:
    obj = dict(obj)
    meta = dict(obj["metadata"])
    meta["resourceVersion"] = str(version)
    meta.setdefault("creationTimestamp", rfc3339(created))
    meta.setdefault("uid", k8s.uid(obj["kind"], meta.get("namespace", ""), meta["name"]))
    obj["metadata"] = meta
    return obj


def write_objects(path, state: ClusterState) -> int:
    """Periodic snapshots plus the change observations; returns the row count."""
    inc = state.inc
    times: list[tuple[dt.datetime, str]] = []
    t = inc.start
    while t <= inc.end:
        times.append((t, "all"))
        t += dt.timedelta(seconds=inc.profile.object_every_s)
    times.append((inc.fault_time, "fault"))
    times.append((inc.onset, "fault"))
    times += [(r.time, "rollout:" + r.service) for r in inc.noise.rollouts]
    times.sort()
    version = 100_000
    created = inc.start - dt.timedelta(days=3)
    # what the fault creates is born at the fault, in the window (an exporter that sees an object
    # once reads its creationTimestamp to tell a new object from an old one); the rest of the
    # cluster was installed days before
    born_at_fault = {
        (c.ref.kind, c.ref.namespace, c.ref.name) for c in inc.plan.changes if c.before is None
    }
    fault_refs = {(c.ref.kind, c.ref.name) for c in inc.plan.changes}
    fault_refs.add(("Deployment", inc.plan.target.name))
    with TsvWriter(path, _LOG_COLUMNS) as out:
        for when, what in times:
            if what == "all":
                objs = list(state.objects(when))
            elif what == "fault":
                objs = [
                    o
                    for o in state.objects(when)
                    if (o["kind"], o["metadata"]["name"]) in fault_refs
                    or (
                        o["kind"] == "Pod"
                        and o["metadata"]["name"].startswith(inc.plan.target.name + "-")
                    )
                ]
            else:
                name = what.removeprefix("rollout:")
                objs = [state.deployment(name, when), *state.pods(name, when)]
            for obj in objs:
                version += 1
                meta = obj["metadata"]
                key = (obj["kind"], meta.get("namespace", ""), meta["name"])
                born = inc.fault_time if key in born_at_fault else created
                body = _with_meta(obj, when, version, born)
                out.row(
                    clickhouse_time(when),
                    "",
                    "",
                    "",
                    "0",
                    "",
                    json_field(body),
                    json_field({"k8s.namespace.name": obj["metadata"].get("namespace", "")}),
                    json_field(
                        {"k8s.resource.name": _RESOURCE.get(obj["kind"], obj["kind"].lower())}
                    ),
                )
        return out.rows


_LOG_COLUMNS = (
    "Timestamp",
    "TraceId",
    "SpanId",
    "SeverityText",
    "SeverityNumber",
    "ServiceName",
    "Body",
    "ResourceAttributes",
    "LogAttributes",
)


@dataclass(frozen=True)
class Event:
    at: dt.datetime
    first: dt.datetime
    involved: ObjectRef
    type: str
    reason: str
    message: str
    component: str
    count: int


def _repeat(ref, kind, reason, message, component, start, end, every_s) -> list[Event]:
    out = []
    t, n = start, 1
    while t < end:
        out.append(Event(t, start, ref, kind, reason, message, component, n))
        t += dt.timedelta(seconds=every_s)
        n += 1
    return out


def fault_events(inc: Incident) -> list[Event]:
    plan = inc.plan
    ns = inc.namespace
    events: list[Event] = []
    before: PodPhase = inc.pods[plan.target.name][-2]
    after: PodPhase = inc.pods[plan.target.name][-1]
    dep = ObjectRef("Deployment", plan.target.name, ns)
    ft = inc.fault_time
    if plan.root.api_version.startswith("chaos-mesh"):
        events.append(
            Event(
                ft,
                ft,
                plan.root,
                "Normal",
                "Applied",
                f"Successfully apply chaos for {ns}/{before.name}",
                "chaos-controller-manager",
                1,
            )
        )
    if plan.new_pods or (plan.replicas_after == 0 and plan.root.kind == "Deployment"):
        old_rs = f"{plan.target.name}-{before.name.split('-')[-2]}" if before.name else ""
        events.append(
            Event(
                ft,
                ft,
                dep,
                "Normal",
                "ScalingReplicaSet",
                f"Scaled down replica set {old_rs} to 0 from 1",
                "deployment-controller",
                1,
            )
        )
    if (plan.new_pods or plan.replicas_after == 0) and before.name:
        events.append(
            Event(
                ft,
                ft,
                ObjectRef("Pod", before.name, ns),
                "Normal",
                "Killing",
                f"Stopping container {plan.target.name}",
                "kubelet",
                1,
            )
        )
    if after.name and after.name != before.name:
        new_rs = f"{plan.target.name}-{after.name.split('-')[-2]}"
        if plan.new_pods:
            events.append(
                Event(
                    ft,
                    ft,
                    dep,
                    "Normal",
                    "ScalingReplicaSet",
                    f"Scaled up replica set {new_rs} to 1",
                    "deployment-controller",
                    1,
                )
            )
        if after.state != "Pending":
            events.append(
                Event(
                    ft,
                    ft,
                    ObjectRef("Pod", after.name, ns),
                    "Normal",
                    "Scheduled",
                    f"Successfully assigned {ns}/{after.name} to {after.node}",
                    "default-scheduler",
                    1,
                )
            )
    for w in plan.warnings:
        events.extend(
            _repeat(
                w.involved,
                "Warning",
                w.reason,
                w.message,
                w.component,
                inc.onset,
                inc.end,
                w.every_s,
            )
        )
    return events


def noise_events(inc: Incident) -> list[Event]:
    ns = inc.namespace
    noise = inc.noise
    events: list[Event] = []
    for rollout in noise.rollouts:
        events += _rollout_events(inc, rollout)
    sec = dt.timedelta(seconds=1)
    # the periodic job: a Job and its pod every few minutes, completing normally
    tick = inc.start.replace(second=0, microsecond=0)
    while tick < inc.end:
        if tick >= inc.start and tick.minute % noise.cron_every_min == 0:
            stamp = int(tick.timestamp() // 60)
            job = f"{noise.cronjob}-{stamp}"
            pod = f"{job}-{hashlib.sha256(job.encode()).hexdigest()[:5]}"
            events += [
                Event(
                    tick,
                    tick,
                    ObjectRef("CronJob", noise.cronjob, ns),
                    "Normal",
                    "SuccessfulCreate",
                    f"Created job {job}",
                    "cronjob-controller",
                    1,
                ),
                Event(
                    tick + sec,
                    tick,
                    ObjectRef("Job", job, ns),
                    "Normal",
                    "SuccessfulCreate",
                    f"Created pod: {pod}",
                    "job-controller",
                    1,
                ),
                Event(
                    tick + 2 * sec,
                    tick,
                    ObjectRef("Pod", pod, ns),
                    "Normal",
                    "Started",
                    "Started container compact",
                    "kubelet",
                    1,
                ),
                Event(
                    tick + 20 * sec,
                    tick,
                    ObjectRef("Job", job, ns),
                    "Normal",
                    "Completed",
                    "Job completed",
                    "job-controller",
                    1,
                ),
            ]
        tick += dt.timedelta(minutes=1)
    # an unrelated flaky probe on the telemetry collector
    collector = ObjectRef("Pod", "otel-collector-agent-7xk2p", "opentelemetry-collectors")
    flaky = inc.start + dt.timedelta(minutes=2)
    events += _repeat(
        collector,
        "Warning",
        "Unhealthy",
        "Readiness probe failed: HTTP probe failed with statuscode: 503",
        "kubelet",
        flaky,
        flaky + dt.timedelta(minutes=3),
        30,
    )
    return events


def write_events(path, events: list[Event]) -> int:
    events = sorted(events, key=lambda e: (e.at, e.involved.name, e.reason))
    with TsvWriter(path, _LOG_COLUMNS) as out:
        for e in events:
            name = f"{e.involved.name}.{hashlib.sha256((e.reason + e.message).encode()).hexdigest()[:16]}"
            body = {
                "object": {
                    "apiVersion": "v1",
                    "kind": "Event",
                    "metadata": {"name": name, "namespace": e.involved.namespace or "default"},
                    "involvedObject": {
                        "apiVersion": e.involved.api_version,
                        "kind": e.involved.kind,
                        "name": e.involved.name,
                        "namespace": e.involved.namespace,
                    },
                    "reason": e.reason,
                    "message": e.message,
                    "type": e.type,
                    "count": e.count,
                    "firstTimestamp": rfc3339(e.first),
                    "lastTimestamp": rfc3339(e.at),
                    "source": {"component": e.component},
                },
                "type": "ADDED" if e.count == 1 else "MODIFIED",
            }
            out.row(
                clickhouse_time(e.at),
                "",
                "",
                "",
                "0",
                "",
                json_field(body),
                json_field({"k8s.namespace.name": e.involved.namespace}),
                json_field({"k8s.resource.name": "events", "event.domain": "k8s"}),
            )
        return out.rows


def _rollout_events(inc: Incident, rollout: Rollout) -> list[Event]:
    """A Deployment rolling out a new template: new ReplicaSet, new pod started, old pod stopped."""
    ns = inc.namespace
    phases = inc.pods[rollout.service]
    at = next(i for i, p in enumerate(phases) if p.since == rollout.time)
    old, new = phases[at - 1], phases[at]
    assert old.name is not None and new.name is not None
    t = rollout.time
    dep = ObjectRef("Deployment", rollout.service, ns)
    new_rs = f"{rollout.service}-{new.name.split('-')[-2]}"
    image = rollout.image or inc.topology.service(rollout.service).image
    sec = dt.timedelta(seconds=1)
    return [
        Event(
            t,
            t,
            dep,
            "Normal",
            "ScalingReplicaSet",
            f"Scaled up replica set {new_rs} to 1",
            "deployment-controller",
            1,
        ),
        Event(
            t + sec,
            t,
            ObjectRef("Pod", new.name, ns),
            "Normal",
            "Scheduled",
            f"Successfully assigned {ns}/{new.name} to {new.node}",
            "default-scheduler",
            1,
        ),
        Event(
            t + 2 * sec,
            t,
            ObjectRef("Pod", new.name, ns),
            "Normal",
            "Pulled",
            f'Container image "{image}" already present on machine',
            "kubelet",
            1,
        ),
        Event(
            t + 3 * sec,
            t,
            ObjectRef("Pod", new.name, ns),
            "Normal",
            "Started",
            f"Started container {rollout.service}",
            "kubelet",
            1,
        ),
        Event(
            t + 4 * sec,
            t,
            ObjectRef("Pod", old.name, ns),
            "Normal",
            "Killing",
            f"Stopping container {rollout.service}",
            "kubelet",
            1,
        ),
    ]


def _kept(obj: dict[str, Any] | None) -> dict[str, Any]:
    """A changed object that is still there (flag files, nodes and created objects are changed,
    never deleted: only a plan's deletions have no after)."""
    assert obj is not None, "a change without an after is a deletion"
    return obj
