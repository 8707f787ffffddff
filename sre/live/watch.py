"""The live recovery check: what ITBench's recovery watcher does on a real cluster, read from the
cluster and from Prometheus.

Every ``interval`` seconds, for up to ``timeout`` seconds after the agent has stopped, one check
reads Prometheus' alerts and the namespace's workloads. A check passes when none of the alerts the
fault raised is firing or pending and the faulty service still runs (deleting it, or its
namespace, silences its alerts without repairing anything); ``mitigation_pass`` needs two
consecutive passing checks. ``strict_mitigation_pass`` also needs, at the last check, the faulty
object healthy (read from the cluster) and no alert that was not firing before the injection.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from sre.live.injection import Injection, resource_name
from sre.live.kube import LiveKubectl
from sre.live.prometheus import Prometheus

#: the namespace's kinds whose changes count in the blast radius (besides its pods)
BLAST_KINDS = ("deployments", "statefulsets", "daemonsets", "services", "configmaps",
               "networkpolicies", "resourcequotas")  # fmt: skip
PAUSE_ANNOTATION = "experiment.chaos-mesh.org/pause"


@dataclass(frozen=True)
class Check:
    #: wall seconds since the agent was called in
    at_s: float
    fault_alerts_active: tuple[str, ...]
    new_alerts: tuple[str, ...]
    target_serving: bool
    root_problem: str
    unready: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.fault_alerts_active and self.target_serving


def pointer_value(obj: Any, path: str) -> Any:
    """The value at RFC 6901 ``path`` in ``obj`` (KeyError or IndexError when absent)."""
    for raw in path.split("/")[1:]:
        key = raw.replace("~1", "/").replace("~0", "~")
        obj = obj[int(key)] if isinstance(obj, list) else obj[key]
    return obj


def deployment_ready(dep: dict[str, Any]) -> tuple[int, int]:
    """(ready, wanted) replicas of a Deployment as its status reports them."""
    want = (dep.get("spec") or {}).get("replicas", 1)
    ready = (dep.get("status") or {}).get("readyReplicas", 0) or 0
    return int(ready), int(want)


def _spec(obj: dict[str, Any]) -> Any:
    """What a change to an object is judged on: not its status or the server's bookkeeping."""
    body = {k: v for k, v in obj.items() if k not in ("status", "metadata")}
    meta = obj.get("metadata") or {}
    annotations = {k: v for k, v in (meta.get("annotations") or {}).items()
                   if k != "deployment.kubernetes.io/revision"}  # fmt: skip
    return copy.deepcopy({**body, "labels": meta.get("labels"), "annotations": annotations})


def _holds(live: Any, injected: Any) -> bool:
    """Whether ``live`` still holds every field of ``injected`` (the API server and admission
    webhooks add defaults to what was created, so equality would call an untouched object
    changed)."""
    if isinstance(injected, dict):
        return isinstance(live, dict) and all(
            k in live and _holds(live[k], v) for k, v in injected.items()
        )
    return live == injected


def root_problem(kubectl: LiveKubectl, injection: Injection, deployments: dict[str, dict]) -> str:
    """What is still wrong with the faulty object ('' when nothing is), read from the cluster."""
    root = injection.root
    resource = resource_name(root.kind)
    if root.kind == "Deployment":
        live = deployments.get(root.name)
    else:
        live = kubectl.get(resource, root.name, root.namespace or None)
    created = injection.created(root)
    if created is not None:
        # an object the fault brought: gone, paused or relaxed is repaired
        if live is None:
            return ""
        if ((live.get("metadata") or {}).get("annotations") or {}).get(PAUSE_ANNOTATION) == "true":
            return ""
        if _holds(live.get("spec"), created.body.get("spec")):
            return f"{root.kind} {root.namespace}/{root.name} is still in place"
        return ""
    if live is None:
        return f"{root.kind} {root.name} is gone"
    injected = injection.injected_values(root)
    kept = []
    for path, value in injected.items():
        try:
            if pointer_value(live, path) == value:
                kept.append(path)
        except (KeyError, IndexError, ValueError, TypeError):
            pass
    if injected and len(kept) == len(injected):
        return f"{root.kind} {root.name} still holds the fault's change ({', '.join(kept)})"
    if root.kind == "Deployment":
        ready, want = deployment_ready(live)
        if want == 0 or ready < want:
            return f"Deployment {root.name}: {ready}/{want} replicas ready"
    return ""


@dataclass
class Observer:
    """One reading of the cluster and Prometheus per call."""

    kubectl: LiveKubectl
    prometheus: Prometheus | None
    injection: Injection
    #: alerts active before the injection (never the fault's, never new)
    before: frozenset[str]
    fault_alerts: tuple[str, ...]
    called_in: float
    #: Deployments ready at the call-in: one missing later was made unhealthy too
    healthy_at_call_in: frozenset[str] = frozenset()

    def deployments(self) -> dict[str, dict]:
        listed = self.kubectl.get("deployments", namespace=self.injection.namespace) or {}
        return {d["metadata"]["name"]: d for d in listed.get("items", [])}

    def check(self) -> Check:
        alerts = self.prometheus.alerts() if self.prometheus else {}
        active = {k for k, state in alerts.items() if state in ("firing", "pending")}
        deployments = self.deployments()
        target = deployments.get(self.injection.target)
        serving = target is not None and deployment_ready(target)[0] >= 1
        unready = {n for n, d in deployments.items()
                   if deployment_ready(d)[0] < max(deployment_ready(d)[1], 1)}  # fmt: skip
        unready |= self.healthy_at_call_in - set(deployments)
        firing_now = {k for k, state in alerts.items() if state == "firing"}
        return Check(
            at_s=round(time.monotonic() - self.called_in, 3),
            fault_alerts_active=tuple(sorted(k for k in self.fault_alerts if k in active)),
            new_alerts=tuple(sorted(firing_now - self.before - set(self.fault_alerts))),
            target_serving=serving,
            root_problem=root_problem(self.kubectl, self.injection, deployments),
            unready=tuple(sorted(unready)),
        )


def watch(
    check: Callable[[], Check],
    interval_s: float,
    timeout_s: float,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> list[Check]:
    """Checks every ``interval_s`` until two consecutive ones pass or ``timeout_s`` is over (at
    least two checks are always made)."""
    deadline = clock() + timeout_s
    checks: list[Check] = []
    while True:
        checks.append(check())
        if len(checks) >= 2 and checks[-1].passed and checks[-2].passed:
            return checks
        if len(checks) >= 2 and clock() + interval_s > deadline:
            return checks
        sleep(interval_s)


def namespace_objects(kubectl: LiveKubectl, namespace: str) -> dict[str, dict]:
    """'Kind name' -> object of every blast-radius kind and pod in ``namespace``."""
    listed = kubectl.get(",".join([*BLAST_KINDS, "pods"]), namespace=namespace) or {}
    return {f"{o['kind']} {o['metadata']['name']}": o for o in listed.get("items", [])}


@dataclass(frozen=True)
class LiveBlastRadius:
    objects_changed: tuple[str, ...]
    services_made_unhealthy: tuple[str, ...]
    pods_restarted_for_nothing: tuple[str, ...]

    @property
    def size(self) -> int:
        return (len(self.objects_changed) + len(self.services_made_unhealthy)
                + len(self.pods_restarted_for_nothing))  # fmt: skip


def blast_radius(
    injection: Injection,
    before: dict[str, dict],
    after: dict[str, dict],
    namespace_gone: bool,
    healthy_at_call_in: set[str],
    checks: list[Check],
) -> LiveBlastRadius:
    """The namespace at the call-in against the namespace after the watch: objects changed or
    deleted besides the faulty one, workloads healthy at the call-in that were not ready at a
    check, pods gone that did not belong to the faulty Deployment."""
    root = injection.root
    root_id = f"{root.kind} {root.name}" if root.namespace == injection.namespace else None
    ns = injection.namespace
    changed: list[str] = [f"Namespace {ns} deleted"] if namespace_gone else []
    restarted: list[str] = []
    for ident, obj in sorted(before.items()):
        kind, name = ident.split(" ", 1)
        if ident == root_id:
            continue
        if kind == "Pod":
            owner = name.rsplit("-", 2)[0]
            if ident not in after and not (root.kind == "Deployment" and owner == root.name):
                restarted.append(f"{name} (gone)")
            continue
        if ident not in after:
            changed.append(f"{kind} {ns}/{name} deleted")
        elif _spec(after[ident]) != _spec(obj):
            changed.append(f"{kind} {ns}/{name} changed")
    for ident in sorted(set(after) - set(before)):
        kind, name = ident.split(" ", 1)
        if kind != "Pod" and ident != root_id:
            changed.append(f"{kind} {ns}/{name} created")
    hurt = sorted({n for c in checks for n in c.unready if n in healthy_at_call_in}
                  - {injection.target})  # fmt: skip
    return LiveBlastRadius(tuple(changed), tuple(hurt), tuple(restarted))


@dataclass(frozen=True)
class LiveVerdict:
    mitigation_pass: bool
    strict_mitigation_pass: bool
    fault_alerts: tuple[str, ...]
    still_firing: tuple[str, ...]
    new_alerts: tuple[str, ...]
    root_healthy: bool
    root_problem: str
    target_serving: bool
    mttr_wall_s: float | None
    checks: tuple[Check, ...]
    blast: LiveBlastRadius
    #: the agent's write requests (through the proxy), all and up to the repair; None when they
    #: could not be counted (credentials from an auth-provider)
    writes: int | None = None
    mttr_writes: int | None = None

    def scores(self) -> dict[str, float]:
        scores = {
            "mitigation_pass": float(self.mitigation_pass),
            "strict_mitigation_pass": float(self.strict_mitigation_pass),
            "blast_objects_changed": float(len(self.blast.objects_changed)),
            "blast_services_made_unhealthy": float(len(self.blast.services_made_unhealthy)),
            "blast_pods_restarted": float(len(self.blast.pods_restarted_for_nothing)),
        }
        if self.writes is not None:
            scores["agent_writes"] = float(self.writes)
        if self.mttr_wall_s is not None:
            scores["mttr_wall_s"] = round(self.mttr_wall_s, 3)
            if self.mttr_writes is not None:
                scores["mttr_writes"] = float(self.mttr_writes)
        return scores

    def details(self) -> dict[str, Any]:
        doc = asdict(self)
        doc["checks"] = [{**asdict(c), "passed": c.passed} for c in self.checks]
        return doc


def verdict(fault_alerts: tuple[str, ...], checks: list[Check], blast: LiveBlastRadius,
            writes: list[float] | None = None) -> LiveVerdict:  # fmt: skip
    """``writes``: when each of the agent's write requests was made, seconds from its start."""
    last = checks[-1]
    cleared = len(checks) >= 2 and checks[-1].passed and checks[-2].passed
    repaired_at = checks[-2].at_s if cleared else None
    strict = cleared and not last.root_problem and not last.new_alerts
    return LiveVerdict(
        mitigation_pass=cleared,
        strict_mitigation_pass=strict,
        fault_alerts=fault_alerts,
        still_firing=last.fault_alerts_active,
        new_alerts=last.new_alerts,
        root_healthy=not last.root_problem,
        root_problem=last.root_problem,
        target_serving=last.target_serving,
        # the first check of the passing pair: from then on the fault's alerts stayed clear
        mttr_wall_s=repaired_at,
        checks=tuple(checks),
        blast=blast,
        writes=None if writes is None else len(writes),
        # the writes made before the first check of the passing pair: what the repair took
        mttr_writes=None
        if writes is None or repaired_at is None
        else sum(1 for w in writes if w <= repaired_at),
    )


__all__ = ["Check", "LiveVerdict", "Observer", "verdict", "watch"]
