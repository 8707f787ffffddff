"""One incident's timeline: when it starts, when the fault lands, which pod serves each service
at each moment, and the noise a real cluster adds (an unrelated rollout, routine rollouts of the
faulty service's neighbours around the fault, a periodic job, a second degraded service with a
spec change of its own and its own alerts, unrelated alerts). Derived from the seed only."""

from __future__ import annotations

import copy
import datetime as dt
import random
from dataclasses import dataclass

from sre.generator.faults._common import container
from sre.generator.model import FaultPlan, PodState
from sre.generator.objects import node_for, pod_name, template_hash
from sre.generator.topology import Service, Topology


@dataclass(frozen=True)
class SizeProfile:
    name: str
    window_min: int
    fault_at_min: int
    #: bytes for traces and logs together; the trace rate is calibrated to it
    budget_bytes: int
    object_every_s: int
    metric_every_s: int


SIZES = {
    "SMALL": SizeProfile("SMALL", 30, 15, 2_000_000, 300, 60),
    "1GB": SizeProfile("1GB", 60, 30, 1_000_000_000, 300, 30),
}


@dataclass(frozen=True)
class PodPhase:
    """A pod serving ``service`` from ``since`` (until the next phase), in ``state``."""

    since: dt.datetime
    name: str | None  # None: the service has no pod at all (scaled to zero, quota)
    node: str
    state: PodState
    restarts_per_min: float = 0.0


@dataclass(frozen=True)
class Rollout:
    """A Deployment template change that is not the fault: a new image (a routine release) or a
    lower CPU limit (what slows the degraded service down). Either brings up a new pod."""

    service: str
    time: dt.datetime
    image: str | None = None
    cpu_limit: str | None = None

    def apply(self, dep: dict) -> dict:
        out = copy.deepcopy(dep)
        if self.image is not None:
            container(out)["image"] = self.image
        if self.cpu_limit is not None:
            container(out).setdefault("resources", {}).setdefault("limits", {})["cpu"] = (
                self.cpu_limit
            )
        return out


@dataclass(frozen=True)
class Noise:
    #: every change that is not the fault, in time order; never on the faulty service
    rollouts: tuple[Rollout, ...]
    degraded_service: str
    degraded_since: dt.datetime
    degraded_latency_ms: float
    cronjob: str
    cron_every_min: int


@dataclass(frozen=True)
class Incident:
    id: str
    seed: int
    namespace: str
    topology: Topology
    profile: SizeProfile
    start: dt.datetime
    end: dt.datetime
    fault_time: dt.datetime
    #: when the application starts to show the symptom (a restart or probe period later)
    onset: dt.datetime
    plan: FaultPlan
    noise: Noise
    pods: dict[str, tuple[PodPhase, ...]]
    affected: tuple[str, ...]  # services on the propagation path, target first
    #: the scenario's own installed objects besides the demo's Deployments and Services
    #: (``FaultType.setup``), present from before the window
    installed: tuple[dict, ...] = ()

    def phase(self, service: str, t: dt.datetime) -> PodPhase:
        current = self.pods[service][0]
        for p in self.pods[service]:
            if p.since <= t:
                current = p
        return current


def plan_pods(
    topology: Topology,
    namespace: str,
    plan: FaultPlan,
    fault_time: dt.datetime,
    noise: Noise,
    start: dt.datetime,
    deployments: dict[str, dict],
) -> dict[str, tuple[PodPhase, ...]]:
    pods: dict[str, tuple[PodPhase, ...]] = {}
    for svc in topology.services:
        dep = deployments[svc.name]
        first = PodPhase(start, pod_name(svc, template_hash(dep)), node_for(svc.name), "Running")
        phases = [first]
        rolled = dep
        for rollout in noise.rollouts:
            if rollout.service != svc.name:
                continue
            rolled = rollout.apply(rolled)
            phases.append(
                PodPhase(
                    rollout.time,
                    pod_name(svc, template_hash(rolled)),
                    node_for(svc.name),
                    "Running",
                )
            )
        if svc.name == plan.target.name:
            phases.append(_faulty_phase(plan, svc, fault_time, phases[-1]))
        pods[svc.name] = tuple(phases)
    return pods


def _faulty_phase(
    plan: FaultPlan, svc: Service, fault_time: dt.datetime, before: PodPhase
) -> PodPhase:
    restarts = 1.5 if plan.restarts else 0.0
    if plan.replicas_after == 0:
        return PodPhase(fault_time, None, before.node, plan.pod_state)
    if plan.pod_state == "Evicted":
        # the evicted pod's replacement (same template, next suffix) cannot be scheduled
        assert before.name is not None
        dep_hash = before.name.split("-")[-2]
        return PodPhase(fault_time, pod_name(svc, dep_hash, 1), before.node, "Pending")
    if plan.new_pods:
        changed = next(c for c in plan.changes if c.ref.kind == "Deployment")
        assert changed.after is not None, "a plan with new pods changes its Deployment"
        name = pod_name(svc, template_hash(changed.after))
        return PodPhase(fault_time, name, before.node, plan.pod_state, restarts)
    return PodPhase(fault_time, before.name, before.node, plan.pod_state, restarts)


def choose_noise(
    rng: random.Random,
    topology: Topology,
    busy_order: tuple[str, ...],
    start: dt.datetime,
    fault: dt.datetime,
    window_min: int,
) -> Noise:
    quiet = [
        s.name
        for s in topology.services
        if not s.backing
        and s.name not in busy_order
        and s.name not in ("frontend-proxy", "frontend", "load-generator", "image-provider")
    ]
    rollout = rng.choice(sorted(quiet))
    # the unrelated rollout lands well before or after the fault, never on top of it
    offset = rng.choice((-1, 1)) * rng.randint(4, max(5, window_min // 2 - 3))
    rollouts = [
        Rollout(
            rollout,
            fault + dt.timedelta(minutes=offset, seconds=rng.randint(0, 59)),
            image=f"ghcr.io/open-telemetry/demo:2.0.3-{rollout}",
        )
    ]
    # routine releases of the faulty service's neighbours in the same minutes as the fault: a
    # diagnosis that blames whatever changed last next to the symptom picks one of these
    target = next(iter(busy_order))
    neighbours = sorted(
        {*topology.callers(target), *topology.callees(target)}
        - {target, rollout, "frontend-proxy", "load-generator", "image-provider"}
    )
    neighbours = [n for n in neighbours if not topology.service(n).backing]
    for name in rng.sample(neighbours, min(2, len(neighbours))):
        seconds = rng.choice((-1, 1)) * rng.randint(40, 150)
        rollouts.append(
            Rollout(
                name,
                fault + dt.timedelta(seconds=seconds),
                image=f"ghcr.io/open-telemetry/demo:2.0.3-{name}",
            )
        )
    degraded_since = start + dt.timedelta(minutes=rng.randint(1, 5))
    if "image-provider" not in busy_order:
        # the second degraded service has a cause of its own: its CPU limit was cut
        rollouts.append(Rollout("image-provider", degraded_since, cpu_limit="50m"))
    return Noise(
        rollouts=tuple(sorted(rollouts, key=lambda r: r.time)),
        degraded_service="image-provider",
        degraded_since=degraded_since,
        degraded_latency_ms=float(rng.choice((700, 900, 1200))),
        cronjob="cart-cache-compaction",
        cron_every_min=10,
    )
