"""Write one generated incident as an ITBench-Lite v0.2 snapshot folder.

Everything is derived from ``random.Random`` instances seeded from the incident's seed, so the
same (fault, target, seed, size) writes byte-identical files. Traces and logs stream to disk at a
rate calibrated to the size profile's byte budget; nothing large is held in memory.
"""

from __future__ import annotations

import datetime as dt
import random
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from itbench.errors import InputError, UsageError, unknown_name
from sre.generator import objects as k8s
from sre.generator.alerts import write_alerts
from sre.generator.faults import FAULT_TYPES
from sre.generator.ground_truth import write_ground_truth
from sre.generator.incident import SIZES, Incident, choose_noise, plan_pods
from sre.generator.k8s import ClusterState, fault_events, noise_events, write_events, write_objects
from sre.generator.metrics import write_pod_metrics, write_service_metrics
from sre.generator.model import FaultContext
from sre.generator.topology import NAMESPACE, OTEL_DEMO, Topology
from sre.generator.traces import TraceGenerator
from sre.generator.truth import build_ground_truth
from sre.generator.tsv import LOG_COLUMNS, TRACE_COLUMNS, TsvWriter

_EPOCH = dt.datetime(2025, 6, 2, 8, 0, tzinfo=dt.UTC)
_CRASH_MESSAGES = {
    "wrong-env-var": "fatal: invalid value {value!r} for {variable}: strconv.Atoi: parsing",
    "oom-killed": "runtime: out of memory: cannot allocate 4194304-byte block",
    "memory-stress": "runtime: out of memory: cannot allocate 4194304-byte block",
}


@dataclass(frozen=True)
class GeneratedIncident:
    """What was written: where, which fault on which service, when, and how big."""

    path: Path
    fault_type: str
    target: str
    seed: int
    fault_time: dt.datetime
    bytes: int
    seconds: float


def build_incident(
    fault_type: str,
    seed: int,
    size: str = "SMALL",
    target: str | None = None,
    incident_id: str = "1",
    topology: Topology = OTEL_DEMO,
) -> tuple[Incident, dict[str, dict], dict[str, dict]]:
    if fault_type not in FAULT_TYPES:
        raise unknown_name("fault type", fault_type, list(FAULT_TYPES))
    if size not in SIZES:
        raise unknown_name("size", size, list(SIZES))
    fault = FAULT_TYPES[fault_type]
    rng = random.Random(f"{fault_type}/{seed}")
    if target is None:
        target = rng.choice(fault.targets)
    elif target not in fault.targets:
        raise UsageError(
            f"fault type {fault_type!r} cannot target {target!r}; choose one of "
            + ", ".join(fault.targets)
        )
    profile = SIZES[size]
    start = _EPOCH + dt.timedelta(minutes=rng.randrange(0, 60 * 24 * 60))
    end = start + dt.timedelta(minutes=profile.window_min)
    fault_time = start + dt.timedelta(minutes=profile.fault_at_min, seconds=rng.randint(5, 50))
    deployments = {s.name: k8s.deployment(s, NAMESPACE) for s in topology.services}
    services = {s.name: k8s.service(s, NAMESPACE) for s in topology.services}
    svc = topology.service(target)
    installed = []
    for obj in fault.setup(NAMESPACE, svc) if fault.setup else ():
        # the scenario's installation: its Deployments and Services replace the demo's
        pool = {"Deployment": deployments, "Service": services}.get(obj["kind"])
        if pool is not None:
            pool[obj["metadata"]["name"]] = obj
        else:
            installed.append(obj)
    ctx = FaultContext(
        topology=topology,
        target=svc,
        rng=rng,
        fault_time=fault_time,
        deployment=deployments[target],
        service=services[target],
        nodes=k8s.NODES,
        namespace=NAMESPACE,
    )
    plan = fault.build(ctx)
    chain = topology.upstream_chain(target)
    affected = (target, *dict.fromkeys(caller for _, caller in chain))
    noise = choose_noise(rng, topology, affected, start, fault_time, profile.window_min)
    pods = plan_pods(topology, NAMESPACE, plan, fault_time, noise, start, deployments)
    # a restart or probe period passes before callers notice
    onset = fault_time + dt.timedelta(seconds=20)
    incident = Incident(
        id=incident_id,
        seed=seed,
        namespace=NAMESPACE,
        topology=topology,
        profile=profile,
        start=start,
        end=end,
        fault_time=fault_time,
        onset=onset,
        plan=plan,
        noise=noise,
        pods=pods,
        affected=affected,
        installed=tuple(installed),
    )
    return incident, deployments, services


def write_incident(
    out: Path,
    fault_type: str,
    seed: int,
    size: str = "SMALL",
    target: str | None = None,
    incident_id: str = "1",
) -> GeneratedIncident:
    """Write ``out`` (replaced if it exists) and return what was written."""
    began = time.perf_counter()
    incident, deployments, services = build_incident(fault_type, seed, size, target, incident_id)
    if out.exists() and any(out.iterdir()):
        if not (out / "ground_truth.yaml").is_file():
            raise UsageError(f"{out}: exists and is not a generated incident; not overwriting it")
        shutil.rmtree(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{out}: cannot create the incident folder: {exc.strerror}") from exc
    rng = random.Random(f"signals/{fault_type}/{seed}")
    with (
        TsvWriter(out / "otel_traces_raw.tsv", TRACE_COLUMNS) as traces,
        TsvWriter(out / "otel_logs_raw.tsv", LOG_COLUMNS) as logs,
    ):
        gen = TraceGenerator(incident, traces, logs, rng)
        gen.run(incident.profile.budget_bytes)
        plan = incident.plan
        if plan.fault_type in _CRASH_MESSAGES:
            gen.write_startup_failures(_CRASH_MESSAGES[plan.fault_type].format(**plan.extra))
    state = ClusterState(incident, deployments, services)
    write_objects(out / "k8s_objects_raw.tsv", state)
    write_events(out / "k8s_events_raw.tsv", fault_events(incident) + noise_events(incident))
    metrics = out / "metrics"
    metrics.mkdir()
    write_pod_metrics(metrics, incident, random.Random(f"metrics/{seed}").random)
    write_service_metrics(metrics, incident, gen.stats)
    fired = write_alerts(out / "alerts", incident, gen.stats)
    truth = build_ground_truth(incident, fired)
    write_ground_truth(out / "ground_truth.yaml", truth, f"generated-{incident_id}")
    total = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    return GeneratedIncident(
        path=out,
        fault_type=fault_type,
        target=plan.target.name,
        seed=seed,
        fault_time=incident.fault_time,
        bytes=total,
        seconds=time.perf_counter() - began,
    )


def generate_incidents(
    out_dir: Path, seed: int, n: int = 1, fault_type: str | None = None, size: str = "SMALL"
) -> list[GeneratedIncident]:
    """``n`` incidents ``Scenario-1..n``; without ``fault_type`` they cycle through every type."""
    kinds = [fault_type] if fault_type else sorted(FAULT_TYPES)
    written = []
    for i in range(n):
        kind = kinds[i % len(kinds)]
        written.append(
            write_incident(
                out_dir / f"Scenario-{i + 1}", kind, seed + i, size, incident_id=str(i + 1)
            )
        )
    return written
