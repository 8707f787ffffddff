"""What a fault does to the cluster, as plain immutable records the writers consume.

A fault module turns a target service into a ``FaultPlan``: the objects it changes or creates
(and when), the Warning events Kubernetes would emit, how the faulty pods look afterwards, and the
symptom the application shows (unavailable, erroring, slow). Everything downstream — traces,
logs, metrics, alerts, ground truth — is derived from the plan, so the data agree with each other.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from sre.generator.topology import Service, Topology

Effect = Literal["unavailable", "error", "latency"]
#: the state the faulty workload's pods are in after the fault
PodState = Literal[
    "Running",
    "NotReady",
    "ImagePullBackOff",
    "CrashLoopBackOff",
    "OOMKilled",
    "Pending",
    "Evicted",
    "CreateContainerConfigError",
]


@dataclass(frozen=True)
class ObjectRef:
    kind: str
    name: str
    namespace: str

    @property
    def api_version(self) -> str:
        return API_VERSIONS.get(self.kind, "v1")


API_VERSIONS = {
    "Deployment": "apps/v1",
    "ReplicaSet": "apps/v1",
    "NetworkPolicy": "networking.k8s.io/v1",
    "NetworkChaos": "chaos-mesh.org/v1alpha1",
    "StressChaos": "chaos-mesh.org/v1alpha1",
    "DNSChaos": "chaos-mesh.org/v1alpha1",
    "HTTPChaos": "chaos-mesh.org/v1alpha1",
    "JVMChaos": "chaos-mesh.org/v1alpha1",
    "IOChaos": "chaos-mesh.org/v1alpha1",
    "PodChaos": "chaos-mesh.org/v1alpha1",
    "CronJob": "batch/v1",
    "Job": "batch/v1",
}


@dataclass(frozen=True)
class ObjectChange:
    """The faulty change: ``after`` replaces the object at the fault time (``before`` None = new;
    ``after`` None = the object is deleted at the fault time)."""

    ref: ObjectRef
    after: dict[str, Any] | None
    before: dict[str, Any] | None = None

    @property
    def deleted(self) -> bool:
        return self.after is None


@dataclass(frozen=True)
class WarningEvent:
    """A Warning event Kubernetes emits because of the fault, repeated while it lasts."""

    involved: ObjectRef
    reason: str
    message: str
    component: str
    #: seconds between repeats (the event's count grows)
    every_s: int = 60


@dataclass(frozen=True)
class Symptom:
    """How the application misbehaves. ``origin='client'``: the service's own outgoing calls fail
    (it cannot reach anything), otherwise calls *to* it fail or slow down."""

    service: str
    effect: Effect
    message: str
    latency_ms: float = 0.0
    origin: Literal["server", "client"] = "server"


@dataclass(frozen=True)
class FaultPlan:
    fault_type: str
    target: Service
    root: ObjectRef
    changes: tuple[ObjectChange, ...]
    warnings: tuple[WarningEvent, ...]
    symptom: Symptom
    pod_state: PodState
    #: ground-truth wording, in the originals' vocabulary
    category: str
    condition: str
    mechanism: str
    #: effect of the root object on the pods (first propagation)
    pod_effect: str
    #: alert fired on the faulty workload itself (besides the request-level ones)
    pod_alert: str | None = None
    #: whether new pods replace the old ones (a changed pod template)
    new_pods: bool = False
    replicas_after: int = 1
    cpu_factor: float = 1.0
    memory_mb: float | None = None
    restarts: bool = False
    #: the node the fault acts on (node faults), so pods placed there are the victims
    node: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class FaultContext:
    """What a fault module gets to build its plan from."""

    topology: Topology
    target: Service
    rng: random.Random
    fault_time: dt.datetime
    deployment: dict[str, Any]
    service: dict[str, Any]
    nodes: tuple[str, ...]
    namespace: str


@dataclass(frozen=True)
class RemedyContext:
    """What a remedy's commands are written from: the incident's names and the values the fault
    changed (so a patch can put them back)."""

    namespace: str
    target: str
    #: the faulty object (what the fault changed or created)
    root: ObjectRef
    #: the target's image, port and port variable before the fault
    image: str
    port: int
    port_variable: str
    #: a caller of the target in the demo's call graph
    caller: str


@dataclass(frozen=True)
class Remedy:
    """One way to repair a fault, as ``kubectl`` arguments (without ``kubectl`` and the
    kubeconfig), and whether it repairs the incident (``accepted``) or only looks like it does."""

    name: str
    why: str
    commands: Callable[[RemedyContext], list[list[str]]]
    accepted: bool = True
    #: a rejected remedy that still clears the fault's alerts (ITBench's lenient pass) by
    #: destroying something it did not need to: strict fails on its destructive blast radius
    clears_alerts: bool = False


@dataclass(frozen=True)
class FaultType:
    """One fault mechanism: its CLI name, a sentence, the targets it makes sense on, and the
    remedies a mitigation is judged against (the accepted ones, and fault-specific ones that
    look right but are not)."""

    name: str
    description: str
    build: Callable[[FaultContext], FaultPlan]
    targets: tuple[str, ...]
    remedies: tuple[Remedy, ...] = ()
    #: objects the scenario's installation holds before the incident window, besides the demo's
    #: own (a Secret and the Deployment reading it, the mesh's Namespace label and Gateway, an
    #: autoscaler): (namespace, target) -> objects; a Deployment or Service among them replaces
    #: the demo's, the others are added
    setup: Callable[[str, Service], tuple[dict[str, Any], ...]] | None = None
