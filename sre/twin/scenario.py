"""A mitigation scenario: the incident's objects at the moment the agent is called in, built from
the same generator run as the snapshot (fault type, seed), and the offline cluster serving them
with the twin reacting to every write."""

from __future__ import annotations

import copy
import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from itbench.cluster import RunningCluster, SimClock, start_cluster
from itbench.errors import InputError
from sre.generator import objects as k8s
from sre.generator.model import ObjectRef, RemedyContext
from sre.generator.topology import OTEL_DEMO, Topology
from sre.twin.twin import IncidentTwin, Key

#: seconds of simulated time each write takes (an operator's action)
WRITE_STEP_S = 5.0


@dataclass(frozen=True)
class MitigationCase:
    """What the twin of one generated incident starts from (no ground truth: the fault's root is
    named so the evaluator can judge it, never shown to the agent)."""

    fault_type: str
    seed: int
    target: str
    namespace: str
    root: ObjectRef
    objects: tuple[dict[str, Any], ...]
    #: per Deployment, its earlier pod templates (oldest first): the faulty rollout's history
    history: dict[str, list[dict[str, Any]]]
    fault_time: float
    #: when the agent is called in (the end of the snapshot's window)
    start: float
    created: dict[Key, float]
    pods_since: dict[str, float]


def _epoch(t: dt.datetime) -> float:
    return t.timestamp()


def _key(obj: dict[str, Any]) -> Key:
    group = obj["apiVersion"].rpartition("/")[0] if "/" in obj["apiVersion"] else ""
    from sre.cluster import _plural

    plural = _plural(obj["kind"])
    meta = obj["metadata"]
    return (group, plural, meta.get("namespace", ""), meta["name"])


def build_case(
    fault_type: str, seed: int, target: str | None = None, topology: Topology = OTEL_DEMO
) -> MitigationCase:
    """The twin's starting point for the incident the generator writes for (fault type, seed,
    target)."""
    from sre.generator.k8s import ClusterState as SnapshotState
    from sre.generator.snapshot import build_incident

    incident, deployments, services = build_incident(
        fault_type, seed, "SMALL", target=target, topology=topology
    )
    plan = incident.plan
    ns = incident.namespace
    fault_time = _epoch(incident.fault_time)
    changed = {(c.ref.kind, c.ref.namespace, c.ref.name): c for c in plan.changes}
    objects: list[dict[str, Any]] = []
    history: dict[str, list[dict[str, Any]]] = {}
    pods_since: dict[str, float] = {}
    # the objects as the snapshot last saw them: the routine rollouts of other services stay,
    # so the live state continues the snapshot instead of reverting them
    observed = SnapshotState(incident, deployments, services)
    for svc in topology.services:
        change = changed.get(("Deployment", ns, svc.name))
        if (
            change is not None
            and change.after is not None
            and change.before is not None
            and change.after["spec"]["template"] != change.before["spec"]["template"]
        ):
            history[svc.name] = [copy.deepcopy(change.before["spec"]["template"])]
            pods_since[svc.name] = fault_time
        dep = copy.deepcopy(observed.deployment(svc.name, incident.end))
        dep.pop("status", None)
        objects.append(dep)
        svc_change = changed.get(("Service", ns, svc.name))
        service = svc_change.after if svc_change else services[svc.name]
        if service is not None:  # None: the fault deleted it
            objects.append(copy.deepcopy(service))
    cm = changed.get(("ConfigMap", ns, k8s.FLAGD_CONFIGMAP))
    # a fault changes the flag file and nodes, never deletes them (an after of None)
    objects.append(copy.deepcopy((cm.after if cm else None) or k8s.flagd_configmap(ns)))
    for name in k8s.NODES:
        node = changed.get(("Node", "", name))
        objects.append(copy.deepcopy((node.after if node else None) or k8s.node(name)))
    for obj in incident.installed:
        meta = obj["metadata"]
        change = changed.get((obj["kind"], meta.get("namespace", ""), meta["name"]))
        if change is None:
            objects.append(copy.deepcopy(obj))
        elif change.after is not None:
            objects.append(copy.deepcopy(change.after))
    created: dict[Key, float] = {}
    for change in plan.changes:
        if change.before is None and change.after is not None:
            objects.append(copy.deepcopy(change.after))
            created[_key(change.after)] = fault_time
    if plan.pod_state in ("Pending", "Evicted") or plan.replicas_after == 0:
        # the faulty workload's pod was replaced after the fault (evicted, or refused by a quota)
        pods_since.setdefault(plan.target.name, fault_time + 1)
    for obj in objects:
        meta = obj["metadata"]
        created.setdefault(_key(obj), fault_time - 3 * 86400)
        meta.setdefault(
            "creationTimestamp",
            dt.datetime.fromtimestamp(created[_key(obj)], dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        )
    return MitigationCase(
        fault_type=fault_type,
        seed=seed,
        target=plan.target.name,
        namespace=ns,
        root=plan.root,
        objects=tuple(objects),
        history=history,
        fault_time=fault_time,
        start=_epoch(incident.end),
        created=created,
        pods_since=pods_since,
    )


def remedy_context(case: MitigationCase, topology: Topology = OTEL_DEMO) -> RemedyContext:
    svc = topology.service(case.target)
    callers = [c for c in topology.callers(case.target) if c != "load-generator"]
    return RemedyContext(
        namespace=case.namespace,
        target=case.target,
        root=case.root,
        image=svc.image,
        port=svc.port,
        port_variable=f"{svc.name.upper().replace('-', '_')}_PORT",
        caller=(callers or list(topology.callers(case.target)))[0],
    )


def new_twin(case: MitigationCase, topology: Topology = OTEL_DEMO) -> IncidentTwin:
    return IncidentTwin(
        topology,
        case.namespace,
        since=case.fault_time,
        history=case.history,
        created=case.created,
        pods_since=case.pods_since,
    )


def serve_case(
    case: MitigationCase, kubeconfig: Path | None = None
) -> tuple[RunningCluster, IncidentTwin]:
    """The offline cluster of ``case`` with its twin, the clock at the agent's start."""
    from sre.cluster import sre_extension

    twin = new_twin(case)
    try:
        cluster = start_cluster(
            [copy.deepcopy(o) for o in case.objects],
            kubeconfig=kubeconfig,
            extensions=[sre_extension()],
            reconciler=twin,
            clock=SimClock(case.start, WRITE_STEP_S),
        )
    except OSError as exc:
        raise InputError(f"cannot start the incident's cluster: {exc}") from exc
    return cluster, twin
