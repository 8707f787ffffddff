"""The mitigation verdict of one trial, read from the twin after the agent has stopped.

- ``mitigation_pass`` (ITBench's rule): every alert the fault caused (firing when the agent was
  called in) has cleared at two consecutive checks ``FOR_S`` apart and at every moment between,
  the first check ``SETTLE_S`` after the agent's last write; and the faulty service answers
  again (ITBench's expected-state check on the workload: deleting it, or its namespace, silences
  its alerts without repairing anything).
- ``strict_mitigation_pass``: also the faulty object is healthy, every service of the demo is
  healthy, and no alert fires that was not firing before.
- MTTR: simulated seconds from the call-in to the moment the fault's alerts cleared for good,
  the wall seconds to the write that did it, and how many writes that took.
- blast radius: objects changed or deleted besides the faulty one, services that were healthy
  and became unhealthy at any moment, pods restarted for nothing.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from sre.generator.model import ObjectRef
from sre.twin import apiserver, autoscaler, mesh
from sre.twin.alerts import FOR_S, AlertKey
from sre.twin.model import (
    Cluster,
    active_chaos,
    auth_refused,
    container,
    dialled_port,
    flagd_configured,
    flags_on,
    node_pressure,
    policy_allows,
)
from sre.twin.twin import IncidentTwin

#: seconds after the agent's last write before the first check (Prometheus evaluates, pods start)
SETTLE_S = 60.0


@dataclass(frozen=True)
class BlastRadius:
    objects_changed: tuple[str, ...]
    services_made_unhealthy: tuple[str, ...]
    pods_restarted_for_nothing: tuple[str, ...]
    #: what the repair destroyed: objects deleted that the remedy did not need (a namespace,
    #: the faulty ConfigMap/Deployment/Service/Node instead of its repair) and health checks
    #: removed; any of it fails the strict verdict
    destructive: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return (
            len(set(self.objects_changed) | set(self.destructive))
            + len(self.services_made_unhealthy)
            + len(self.pods_restarted_for_nothing)
        )


@dataclass(frozen=True)
class MitigationVerdict:
    mitigation_pass: bool
    strict_mitigation_pass: bool
    fault_alerts: tuple[str, ...]
    still_firing: tuple[str, ...]
    new_alerts: tuple[str, ...]
    unhealthy_services: tuple[str, ...]
    root_healthy: bool
    root_problem: str
    target_serving: bool
    mttr_sim_s: float | None
    mttr_wall_s: float | None
    mttr_writes: int | None
    writes: int
    checks_at: tuple[float, float]
    blast: BlastRadius

    def scores(self) -> dict[str, float]:
        """The trial's scores; MTTR only for a mitigated trial (ITBench counts it infinite
        otherwise), so means over a run are over the repairs."""
        scores = {
            "mitigation_pass": float(self.mitigation_pass),
            "strict_mitigation_pass": float(self.strict_mitigation_pass),
            "agent_writes": float(self.writes),
            "blast_objects_changed": float(len(self.blast.objects_changed)),
            "blast_services_made_unhealthy": float(len(self.blast.services_made_unhealthy)),
            "blast_pods_restarted": float(len(self.blast.pods_restarted_for_nothing)),
        }
        if self.mttr_sim_s is not None:
            scores["mttr_sim_s"] = round(self.mttr_sim_s, 3)
            scores["mttr_wall_s"] = round(self.mttr_wall_s or 0.0, 3)
            scores["mttr_writes"] = float(self.mttr_writes or 0)
        return scores

    def details(self) -> dict[str, Any]:
        return json.loads(json.dumps(asdict(self)))


def _root_key(root: ObjectRef) -> tuple[str, str, str]:
    return (root.kind, root.namespace, root.name)


def root_problem(twin: IncidentTwin, root: ObjectRef, target: str, t: float) -> str:
    """What is still wrong with the faulty object at ``t`` ('' when nothing is)."""
    frame = twin.frame_at(t)
    cluster = frame.cluster
    if root.kind == "Deployment" and root.name not in {s.name for s in twin.topology.services}:
        # a workload the fault added (an API client): healthy when it no longer floods the API
        rate = apiserver.request_rate(p for p in frame.pods if p.deployment == root.name)
        if apiserver.saturated(frame.pods):
            return f"the API server is saturated; {root.name} sends {rate:.0f} requests/s"
        return ""
    if root.kind == "Deployment":
        if root.name not in cluster.deployments:
            return f"Deployment {root.name} is gone"
        pods = [p for p in frame.pods if p.deployment == root.name]
        want = frame.desired.get(root.name, 0)
        ready = [p for p in pods if p.ready(t)]
        if want == 0 or len(ready) < want:
            return f"Deployment {root.name}: {len(ready)}/{want} pods ready"
        if mesh.installed(cluster.gateways) and not all(
            mesh.enrolled(cluster.namespace_labels, p.labels) for p in pods
        ):
            return f"Deployment {root.name}: its pods are outside the mesh"
        return ""
    if root.kind == "Namespace":
        if root.name != cluster.namespace or not cluster.namespace_labels:
            return f"Namespace {root.name} is gone"
        mode = cluster.namespace_labels.get(mesh.MODE_LABEL)
        return "" if mode == "ambient" else f"Namespace {root.name} is out of the mesh ({mode})"
    if root.kind == "AuthorizationPolicy":
        policy = [
            p for p in cluster.mesh_policies
            if p.get("kind") == root.kind and (p.get("metadata") or {}).get("name") == root.name
        ]  # fmt: skip
        return mesh.gateway_denial(policy, cluster.gateways)
    if root.kind == "Service":
        if root.name not in cluster.services:
            return f"Service {root.name} is gone"
        port = twin.topology.service(root.name).port
        if dialled_port(cluster.services[root.name].get("spec") or {}, port) is None:
            return f"Service {root.name} exposes no port {port}, the one its callers dial"
        health = twin.health(t)[root.name]
        if health.serving == 0:
            return f"Service {root.name} has no endpoint"
        if health.endpoints > health.serving:
            return (
                f"Service {root.name}: {health.endpoints - health.serving} of its "
                f"{health.endpoints} endpoints cannot answer its callers"
            )
        return ""
    if root.kind == "ConfigMap":
        if not flagd_configured(cluster.configmaps):
            return f"ConfigMap {root.name} is gone"
        on = flags_on(cluster.configmaps)
        return f"flags still on: {', '.join(sorted(on))}" if on else ""
    if root.kind == "Node":
        node = cluster.nodes.get(root.name)
        if node is None:
            return f"Node {root.name} is gone"
        if (node.get("spec") or {}).get("unschedulable"):
            return f"Node {root.name} is cordoned"
        return f"Node {root.name} is under disk pressure" if node_pressure(node) else ""
    if root.kind == "Secret":
        if root.name not in cluster.secrets:
            return f"Secret {root.name} is gone"
        for call in twin.topology.calls:
            if auth_refused(
                cluster.deployments.get(call.source),
                cluster.deployments.get(call.target),
                cluster.secrets,
            ):
                return f"{call.target} refuses {call.source}'s password"
        return ""
    if root.kind == "HorizontalPodAutoscaler":
        hpa = cluster.autoscalers.get(root.name)
        if hpa is None:
            return f"HorizontalPodAutoscaler {root.name} is gone"
        dep_name = autoscaler.target_of(hpa) or ""
        low, high = autoscaler.limits(hpa)
        if frame.desired.get(dep_name) == high and high > low:
            return f"HorizontalPodAutoscaler {root.name} holds {dep_name} at its maximum ({high})"
        return ""
    if root.kind == "ResourceQuota":
        return "; ".join(frame.refused.values())
    if root.kind == "NetworkPolicy":
        policy = [p for p in cluster.policies if (p.get("metadata") or {}).get("name") == root.name]
        for call in twin.topology.calls:
            callee = twin.topology.service(call.target)
            if not policy_allows(
                policy,
                root.namespace,
                {"app.kubernetes.io/name": call.target},
                {"app.kubernetes.io/name": call.source},
                callee.port,
            ):
                return f"NetworkPolicy {root.name} blocks {call.source} -> {call.target}"
        return ""
    # a Chaos Mesh experiment
    for experiment in cluster.chaos:
        meta = experiment.get("metadata") or {}
        if (
            experiment.get("kind") == root.kind
            and meta.get("name") == root.name
            and active_chaos(experiment)
        ):
            return f"{root.kind} {root.name} is still active"
    return ""


def judge(twin: IncidentTwin, root: ObjectRef, target: str, start: float, start_wall: float,
          end: float) -> MitigationVerdict:  # fmt: skip
    """The verdict, ``start`` the call-in, ``end`` the clock when the agent stopped."""
    writes = [f for f in twin.frames if f.write is not None]
    first_check = (writes[-1].at if writes else start) + SETTLE_S
    first_check = max(first_check, end)
    second_check = first_check + FOR_S
    initial = twin.alerts(start)
    fault = sorted(k for k, a in initial.items() if a.state == "firing")
    moments = [m for m in twin.moments(second_check) if m >= first_check]
    window = [first_check, *moments, second_check]
    seen_in_window: set[AlertKey] = set()
    for moment in window:
        seen_in_window |= set(twin.alert_conditions(moment))
    still = sorted(k for k in fault if k in seen_in_window)
    health = twin.health(second_check)
    target_serving = target in health and health[target].serving > 0
    cleared = not still and target_serving
    final_alerts = twin.alerts(second_check)
    new = sorted(k for k in final_alerts if k not in initial)
    unhealthy = sorted(name for name, h in health.items() if not h.healthy)
    problem = root_problem(twin, root, target, second_check)
    blast = blast_radius(twin, root, start, second_check)
    strict = cleared and not problem and not unhealthy and not new and not blast.destructive
    # MTTR: the first moment after which the fault's alerts never held again
    mttr_sim = mttr_wall = None
    mttr_writes = None
    if cleared:
        points = [start, *[m for m in twin.moments(second_check) if m > start]]
        cleared_at: float | None = start
        for moment in points:
            if any(k in twin.alert_conditions(moment) for k in fault):
                cleared_at = None
            elif cleared_at is None:
                cleared_at = moment
        cleared_at = cleared_at if cleared_at is not None else first_check
        mttr_sim = cleared_at - start
        done = [i for i, f in enumerate(writes) if f.at <= cleared_at]
        mttr_writes = len(done)
        mttr_wall = twin.write_walls[done[-1]] - start_wall if done and twin.write_walls else 0.0
    return MitigationVerdict(
        mitigation_pass=cleared,
        strict_mitigation_pass=strict,
        fault_alerts=tuple(map(str, fault)),
        still_firing=tuple(map(str, still)),
        new_alerts=tuple(map(str, new)),
        unhealthy_services=tuple(unhealthy),
        root_healthy=not problem,
        root_problem=problem,
        target_serving=target_serving,
        mttr_sim_s=mttr_sim,
        mttr_wall_s=mttr_wall,
        mttr_writes=mttr_writes,
        writes=len(writes),
        checks_at=(first_check - start, second_check - start),
        blast=blast,
    )


def blast_radius(twin: IncidentTwin, root: ObjectRef, start: float, until: float) -> BlastRadius:
    root_id = _root_key(root)
    changed: dict[str, None] = {}
    for frame in twin.frames:
        write = frame.write
        if write is None or write.derived:
            continue
        obj = write.after or write.before or {}
        kind = obj.get("kind", write.key[1])
        ident = (kind, write.key[2], write.key[3])
        if ident != root_id:
            verb = "deleted" if write.after is None else "changed"
            changed[f"{kind} {write.key[2] + '/' if write.key[2] else ''}{write.key[3]} {verb}"] = (
                None
            )
    for frame in twin.frames:
        write = frame.write
        if write is not None and write.derived and write.key[1] == "namespaces":
            changed[f"Namespace {write.key[3]} deleted"] = None
    first, last = twin.frames[0].cluster, twin.frames[-1].cluster
    for kind, old, new in (
        ("Deployment", first.deployments, last.deployments),
        ("Service", first.services, last.services),
        ("Node", first.nodes, last.nodes),
    ):
        for name in sorted(set(old) - set(new)):
            ident = (kind, "" if kind == "Node" else first.namespace, name)
            if ident != root_id:
                where = f"{ident[1]}/" if ident[1] else ""
                changed[f"{kind} {where}{name} deleted"] = None
    before = twin.health(start)
    unhealthy: dict[str, None] = {}
    for moment in [m for m in twin.moments(until) if m >= start] + [until]:
        for name, h in twin.health(moment).items():
            if before.get(name) is not None and before[name].healthy and not h.healthy:
                unhealthy[name] = None
    destructive = [c for c in changed if c.endswith(" deleted")]
    destructive += _root_deleted(root, last, frozenset(s.name for s in twin.topology.services))
    destructive += _health_checks_removed(first, last)
    destructive += _mtls_relaxed(first, last)
    restarted = [f"{d.pod} (deleted)" for d in twin.deletions]
    needed = root.name if root.kind == "Deployment" else None
    for name, count in twin.replacements:
        if name != needed:
            restarted.append(f"{name}: {count} pod(s) replaced by a rollout")
    return BlastRadius(
        tuple(changed),
        tuple(sorted(unhealthy)),
        tuple(restarted),
        tuple(dict.fromkeys(destructive)),
    )


#: faulty objects a repair changes, never deletes (the application needs them); a Chaos Mesh
#: experiment, an injected NetworkPolicy or ResourceQuota is repaired by deleting it
_REPAIRED_NOT_DELETED = (
    "ConfigMap", "Deployment", "Service", "Node", "Secret", "HorizontalPodAutoscaler"
)  # fmt: skip
_PROBES = ("readinessProbe", "livenessProbe", "startupProbe")


def _root_deleted(root: ObjectRef, last: Cluster, app: frozenset[str]) -> list[str]:
    if root.kind not in _REPAIRED_NOT_DELETED:
        return []
    if root.kind == "Deployment" and root.name not in app:
        return []  # a workload the fault added: deleting it is stopping it
    present_by_kind: dict[str, set[Any]] = {
        "ConfigMap": {(c.get("metadata") or {}).get("name") for c in last.configmaps},
        "Deployment": set(last.deployments),
        "Service": set(last.services),
        "Node": set(last.nodes),
        "Secret": set(last.secrets),
        "HorizontalPodAutoscaler": set(last.autoscalers),
    }
    present = present_by_kind[root.kind]
    if root.name in present:
        return []
    where = f"{root.namespace}/" if root.namespace else ""
    return [f"{root.kind} {where}{root.name} deleted (the fault needed a repair, not a deletion)"]


def _health_checks_removed(first: Cluster, last: Cluster) -> list[str]:
    """Probes the agent took away: the pods turn Ready, and nothing checks their health any
    more (a repair points the probe at the right port; removing it hides the next failure)."""
    out = []
    for name, dep in sorted(first.deployments.items()):
        after = last.deployments.get(name)
        if after is None:
            continue
        before_ctr = container((dep.get("spec") or {}).get("template") or {})
        after_ctr = container((after.get("spec") or {}).get("template") or {})
        for probe in _PROBES:
            if probe in before_ctr and probe not in after_ctr:
                out.append(f"Deployment {first.namespace}/{name}: {probe} removed")
    return out


def _mtls_relaxed(first: Cluster, last: Cluster) -> list[str]:
    """STRICT mutual TLS the agent took away (a PeerAuthentication deleted or set to PERMISSIVE
    or DISABLE): plaintext gets in again, the calls succeed, and the mesh no longer authenticates
    its peers — a security control removed, not a repair."""
    after = mesh.strict_policies(last.mesh_policies)
    return [
        f"PeerAuthentication {name}: STRICT mTLS relaxed"
        for name in sorted(mesh.strict_policies(first.mesh_policies))
        if name not in after
    ]
