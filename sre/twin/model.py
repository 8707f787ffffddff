"""What the OpenTelemetry demo does with a given set of Kubernetes objects: each pod's state
follows from its spec and the cluster around it, each service's health from its pods, its
callees and what stands between them (NetworkPolicies, Chaos Mesh experiments, flagd flags).

Pure functions over plain objects; the reconciler (``twin.py``) keeps the bookkeeping that needs
memory (revisions, when each pod was created) and calls these.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from sre.generator.alerts import ERROR_RATIO
from sre.generator.demo_flags import EFFECTS, FLAG_EFFECTS, FlagEffect
from sre.generator.objects import FLAGD_CONFIGMAP, FLAGS, NODES, node_for
from sre.generator.topology import Topology

#: demo releases whose images exist in the registry (``ghcr.io/open-telemetry/demo:<v>-<svc>``)
DEMO_VERSIONS = ("1.11.1", "1.12.0", "2.0.0", "2.0.1", "2.0.2", "2.0.3")
IMAGE_REPOSITORY = "ghcr.io/open-telemetry/demo"
#: memory a service's container needs at steady state (MiB); below it the kernel OOM-kills it
WORKING_SET_MI = 96.0
#: seconds from a pod's creation to Ready (pull, start, first readiness probe)
STARTUP_S = 15.0
#: seconds from a container's start to its first crash (then CrashLoopBackOff)
CRASH_AFTER_S = 10.0
#: latency a saturated CPU adds (StressChaos cpu, adHighCpu), as the generator's symptom
CPU_SATURATED_MS = 900.0

PodState = Literal[
    "Running", "NotReady", "Pending", "ImagePullBackOff", "CrashLoopBackOff", "Evicted"
]  # fmt: skip


@dataclass(frozen=True)
class Pod:
    """One pod a ReplicaSet runs (or tries to): its state and why."""

    name: str
    namespace: str
    deployment: str
    replicaset: str
    labels: Mapping[str, str]
    template: Mapping[str, Any]
    created: float
    node: str | None
    state: PodState
    #: the cause in the words Kubernetes uses (a Warning event's reason and message)
    reason: str = ""
    message: str = ""
    oom: bool = False
    #: the port the application listens on (None: it does not run)
    listen_port: int | None = None

    def ready(self, now: float) -> bool:
        return self.state == "Running" and now >= self.created + STARTUP_S

    def crash_looping(self, now: float) -> bool:
        return self.state == "CrashLoopBackOff" and now >= self.created + CRASH_AFTER_S

    def restarts(self, now: float) -> int:
        if self.state != "CrashLoopBackOff" or now < self.created + CRASH_AFTER_S:
            return 0
        # back-off doubles from 10 s to 5 min, as the kubelet's
        elapsed, delay, count = now - self.created - CRASH_AFTER_S, 10.0, 1
        while elapsed > delay:
            elapsed -= delay
            delay = min(delay * 2, 300.0)
            count += 1
        return count


@dataclass(frozen=True)
class ServiceHealth:
    name: str
    #: ready pods listening on the Service's targetPort (0: nobody answers)
    serving: int
    #: whether callers get errors from it (its own failure or a failed call of its own)
    errors: bool
    latency_ms: float
    #: whether it receives requests at all (serving and reachable): only then has it spans
    receives: bool
    why: tuple[str, ...] = ()

    @property
    def healthy(self) -> bool:
        return self.serving > 0 and not self.errors and self.latency_ms <= 500.0


# -- quantities and selectors -----------------------------------------------------------------
_UNITS = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "k": 1e3, "M": 1e6, "G": 1e9,
          "T": 1e12, "m": 1e-3, "": 1}  # fmt: skip


def quantity(value: object) -> float | None:
    """A Kubernetes quantity (``512Mi``, ``600MB``, ``100m``) in base units; None if unreadable."""
    match = re.fullmatch(r"\s*([0-9.]+)\s*([KMGT]i|[kMGT]B?|m|B)?\s*", str(value))
    if match is None:
        return None
    unit = (match.group(2) or "").removesuffix("B")
    try:
        return float(match.group(1)) * _UNITS[unit]
    except (KeyError, ValueError):
        return None


def matches(selector: Mapping[str, Any] | None, labels: Mapping[str, str]) -> bool:
    """A label selector (``matchLabels``/``matchExpressions``, or a plain map) against labels."""
    if not isinstance(selector, Mapping):
        return False
    plain = selector.get("matchLabels") if "matchLabels" in selector else None
    if plain is None and "matchExpressions" not in selector:
        plain = selector
    for key, value in (plain or {}).items():
        if labels.get(key) != value:
            return False
    for expr in selector.get("matchExpressions") or ():
        key, op, values = expr.get("key"), expr.get("operator"), expr.get("values") or ()
        present = key in labels
        if (
            (op == "In" and labels.get(key) not in values)
            or (op == "NotIn" and present and labels.get(key) in values)
            or (op == "Exists" and not present)
            or (op == "DoesNotExist" and present)
        ):
            return False
    return True


def container(template: Mapping[str, Any]) -> Mapping[str, Any]:
    containers = (template.get("spec") or {}).get("containers") or [{}]
    return containers[0] if isinstance(containers[0], Mapping) else {}


def _named_port(port: object, ctr: Mapping[str, Any]) -> int | None:
    if isinstance(port, int):
        return port
    if isinstance(port, str) and port.isdigit():
        return int(port)
    for p in ctr.get("ports") or ():
        if p.get("name") == port:
            return int(p.get("containerPort", 0))
    return None


# -- one pod ------------------------------------------------------------------------------------
def image_shipped(image: str, service: str) -> bool:
    """Whether the registry has this image: the demo ships ``<repo>:<release>-<service>``."""
    return any(image == f"{IMAGE_REPOSITORY}:{v}-{service}" for v in DEMO_VERSIONS)


def stress_memory_mi(stressors: Mapping[str, Any]) -> float:
    memory = stressors.get("memory") or {}
    size = quantity(memory.get("size", 0)) or 0.0
    return size * int(memory.get("workers", 1) or 1) / 2**20


def memory_stressed(chaos: Iterable[Mapping[str, Any]]) -> bool:
    """Whether an active memory stressor acts on the pod. Rule (docs/sre-mitigation.md): the
    stressor is injected into the container's cgroup and keeps allocating while the experiment
    runs, so the working set plus the stress reaches whatever limit the container is given:
    raising (or removing) the limit moves the ceiling, the OOM kills go on. Only deleting or
    pausing the experiment stops them."""
    return any(stress_memory_mi((c.get("spec") or {}).get("stressors") or {}) > 0 for c in chaos)


def runtime_state(
    service: str,
    template: Mapping[str, Any],
    chaos: Iterable[Mapping[str, Any]],
    leaks: bool = False,
) -> tuple[PodState, str, str, bool, int | None]:
    """(state, reason, message, OOM-killed, listening port) of a scheduled pod of ``service``
    running ``template``, with the StressChaos experiments that select it; ``leaks``: a flag
    makes its memory grow without bound."""
    ctr = container(template)
    image = str(ctr.get("image", ""))
    if not image_shipped(image, service):
        return (
            "ImagePullBackOff",
            "Failed",
            f'Failed to pull image "{image}": rpc error: code = NotFound desc = failed to '
            "resolve reference: not found",
            False,
            None,
        )
    command = ctr.get("command")
    if command:
        binary = str(command[0])
        return (
            "CrashLoopBackOff",
            "Failed",
            "Error: failed to create containerd task: failed to create shim task: OCI runtime "
            f'create failed: exec: "{binary}": stat {binary}: no such file or directory',
            False,
            None,
        )
    port_var = f"{service.upper().replace('-', '_')}_PORT"
    listen: int | None = None
    for env in ctr.get("env") or ():
        if env.get("name") == port_var:
            value = str(env.get("value", ""))
            if not value.isdigit():
                return (
                    "CrashLoopBackOff",
                    "BackOff",
                    f"Back-off restarting failed container {ctr.get('name', service)}: "
                    f"invalid value {value!r} for {port_var}",
                    False,
                    None,
                )
            listen = int(value)
    if listen is None:
        ports = ctr.get("ports") or [{}]
        listen = int(ports[0].get("containerPort", 0) or 0) or None
    limit = quantity(((ctr.get("resources") or {}).get("limits") or {}).get("memory"))
    need = WORKING_SET_MI + sum(
        stress_memory_mi((c.get("spec") or {}).get("stressors") or {}) for c in chaos
    )
    if leaks:
        return (
            "CrashLoopBackOff",
            "BackOff",
            f"Back-off restarting failed container {ctr.get('name', service)} (OOMKilled: its "
            "cache grows without bound)",
            True,
            None,
        )
    if memory_stressed(chaos):
        return (
            "CrashLoopBackOff",
            "BackOff",
            f"Back-off restarting failed container {ctr.get('name', service)} (OOMKilled: a "
            "memory stressor fills whatever memory the container is given)",
            True,
            None,
        )
    if limit is not None and limit / 2**20 < need:
        return (
            "CrashLoopBackOff",
            "BackOff",
            f"Back-off restarting failed container {ctr.get('name', service)} (OOMKilled: "
            f"needs {need:.0f}Mi, limit {limit / 2**20:.0f}Mi)",
            True,
            None,
        )
    probe = ctr.get("readinessProbe") or {}
    handler = probe.get("tcpSocket") or probe.get("httpGet") or probe.get("grpc")
    if isinstance(handler, Mapping) and "port" in handler:
        probed = _named_port(handler["port"], ctr)
        if probed != listen:
            return (
                "NotReady",
                "Unhealthy",
                f"Readiness probe failed: dial tcp 10.244.1.17:{probed}: connect: connection "
                "refused",
                False,
                listen,
            )
    return "Running", "", "", False, listen


def node_pressure(node: Mapping[str, Any]) -> bool:
    for cond in (node.get("status") or {}).get("conditions") or ():
        if cond.get("type") == "DiskPressure" and cond.get("status") == "True":
            return True
    return False


def schedule(
    service: str,
    template: Mapping[str, Any],
    nodes: Mapping[str, Mapping[str, Any]],
    created: float,
    pressure_since: Mapping[str, float],
    cordoned_since: Mapping[str, float] | None = None,
) -> tuple[str | None, str]:
    """(node, FailedScheduling message). Every node is full with the pods placed on it, so a
    pod fits only on its service's own node (``node_for``), as in the generated incidents. A
    node's disk pressure taints it: pods created after it began are not placed there (the ones
    running before stay; the fault's victim was evicted and replaced, so it counts as new)."""
    spec = template.get("spec") or {}
    home = node_for(service)
    n = len(nodes) or len(NODES)
    node = nodes.get(home)
    selector = spec.get("nodeSelector") or {}
    if node is None or not matches(selector, (node.get("metadata") or {}).get("labels") or {}):
        return None, (
            f"0/{n} nodes are available: {n} node(s) didn't match Pod's node affinity/selector. "
            f"preemption: 0/{n} nodes are available: {n} Preemption is not helpful for "
            "scheduling."
        )
    if node_pressure(node) and created >= pressure_since.get(home, float("inf")):
        return None, (
            f"0/{n} nodes are available: 1 node(s) had untolerated taint "
            f"{{node.kubernetes.io/disk-pressure: }}, {n - 1} Insufficient memory. "
            f"preemption: 0/{n} nodes are available: {n} Preemption is not helpful."
        )
    if (node.get("spec") or {}).get("unschedulable") and created >= (cordoned_since or {}).get(
        home, float("-inf")
    ):
        # a cordon only stops new placements: the pods already running there keep serving
        return None, f"0/{n} nodes are available: 1 node(s) were unschedulable."
    return home, ""


# -- the call graph -----------------------------------------------------------------------------
def flags_on(configmaps: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """flag -> service of every demo flag that evaluates to a non-zero value."""
    values = flag_values(configmaps)
    on = {flag: EFFECTS[flag].service for flag, v in values.items() if flag in EFFECTS and v > 0}
    on.update({f: svc for f, svc in FLAGS.items() if values.get(f, 0) > 0 and f not in on})
    return on


def _variant_names(rule: object, variants: Mapping[str, Any]) -> set[str]:
    """Variant names a JSONLogic targeting rule can return (the strings in it naming one)."""
    if isinstance(rule, str):
        return {rule} & set(variants)
    if isinstance(rule, Mapping):
        if "var" in rule:
            return set()
        return set().union(*(_variant_names(v, variants) for v in rule.values()))
    if isinstance(rule, list):
        return set().union(*(_variant_names(v, variants) for v in rule))
    return set()


def _severity(value: object) -> float:
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int | float):
        return float(value)
    return 0.0


def flag_values(configmaps: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """flag -> the value flagd serves for it, as a number (true 1, false 0), the largest any
    request can get: a targeting rule's variants when it has one (for some product, user...),
    else the defaultVariant; a DISABLED flag is not served (the code's default, off)."""
    values: dict[str, float] = {}
    for cm in configmaps:
        if (cm.get("metadata") or {}).get("name") != FLAGD_CONFIGMAP:
            continue
        try:
            flags = json.loads((cm.get("data") or {}).get("demo.flagd.json", "{}"))["flags"]
        except (ValueError, KeyError, TypeError):
            continue  # flagd keeps its last good configuration on a file it cannot parse
        if not isinstance(flags, Mapping):
            continue
        for flag, entry in flags.items():
            if not isinstance(entry, Mapping) or entry.get("state", "ENABLED") != "ENABLED":
                continue
            variants = entry.get("variants") or {}
            if not isinstance(variants, Mapping):
                continue
            reachable = _variant_names(entry.get("targeting"), variants) or {
                str(entry.get("defaultVariant"))
            }
            values[flag] = max(_severity(variants.get(v)) for v in reachable)
    return values


def active_flag_effects(configmaps: Iterable[Mapping[str, Any]]) -> list[tuple[FlagEffect, float]]:
    """The demo flags on, with the value each is served at."""
    values = flag_values(configmaps)
    return [(e, values[e.flag]) for e in FLAG_EFFECTS if values.get(e.flag, 0) > 0]


def leaking(configmaps: Iterable[Mapping[str, Any]], service: str) -> bool:
    return any(e.leaks == service for e, _ in active_flag_effects(configmaps))


#: services that evaluate flagd flags on their request path (the demo's OpenFeature clients)
FLAG_READERS = frozenset(
    {"ad", "cart", "checkout", "frontend", "fraud-detection", "payment", "product-catalog",
     "recommendation", "load-generator"}
)  # fmt: skip


def flagd_configured(configmaps: Iterable[Mapping[str, Any]]) -> bool:
    """Whether flagd has its configuration: without the ConfigMap its file source is empty,
    every evaluation returns FLAG_NOT_FOUND and the services reading flags fail their requests."""
    return any((cm.get("metadata") or {}).get("name") == FLAGD_CONFIGMAP for cm in configmaps)


def active_chaos(obj: Mapping[str, Any]) -> bool:
    """A Chaos Mesh experiment acts until deleted or paused (its pause annotation)."""
    annotations = (obj.get("metadata") or {}).get("annotations") or {}
    return annotations.get("experiment.chaos-mesh.org/pause") != "true"


def chaos_selects(obj: Mapping[str, Any], namespace: str, labels: Mapping[str, str]) -> bool:
    selector = (obj.get("spec") or {}).get("selector") or {}
    namespaces = selector.get("namespaces")
    if namespaces and namespace not in namespaces:
        return False
    return matches(selector.get("labelSelectors") or {}, labels)


def policy_allows(
    policies: Iterable[Mapping[str, Any]],
    namespace: str,
    callee_labels: Mapping[str, str],
    caller_labels: Mapping[str, str],
    port: int,
) -> bool:
    """Whether NetworkPolicies in the callee's namespace let the caller's pods in on ``port``:
    with none selecting the callee everything may; otherwise some ingress rule must."""
    selecting = [
        p
        for p in policies
        if (p.get("metadata") or {}).get("namespace") == namespace
        and matches((p.get("spec") or {}).get("podSelector") or {}, callee_labels)
        and "Ingress" in ((p.get("spec") or {}).get("policyTypes") or ["Ingress"])
    ]
    if not selecting:
        return True
    for policy in selecting:
        for rule in (policy.get("spec") or {}).get("ingress") or ():
            ports = rule.get("ports")
            if ports and not any(_port_matches(p, port) for p in ports):
                continue
            sources = rule.get("from")
            if not sources:
                return True
            for source in sources:
                if "ipBlock" in source:
                    return True  # pod addresses fall in any sensible block: allow
                pod_sel = source.get("podSelector")
                ns_sel = source.get("namespaceSelector")
                # callers live in the callee's namespace (the demo's): a namespaceSelector
                # must select it, an empty one selects every namespace
                ns_ok = (
                    ns_sel is None
                    or not ns_sel
                    or matches(ns_sel, {"kubernetes.io/metadata.name": namespace})
                )
                pod_ok = pod_sel is None or not pod_sel or matches(pod_sel, caller_labels)
                if ns_ok and pod_ok:
                    return True
    return False


def _port_matches(rule_port: Mapping[str, Any], port: int) -> bool:
    value = rule_port.get("port")
    return value is None or value == port or str(value) == str(port)


@dataclass(frozen=True)
class Cluster:
    """The objects the application model reads, grouped once per reconcile."""

    namespace: str
    deployments: Mapping[str, Mapping[str, Any]]
    services: Mapping[str, Mapping[str, Any]]
    configmaps: tuple[Mapping[str, Any], ...]
    policies: tuple[Mapping[str, Any], ...]
    chaos: tuple[Mapping[str, Any], ...]
    nodes: Mapping[str, Mapping[str, Any]]
    quotas: tuple[Mapping[str, Any], ...]


def service_health(
    topology: Topology, cluster: Cluster, pods: Iterable[Pod], now: float
) -> dict[str, ServiceHealth]:
    """Health of every demo service at ``now``: callees first, errors and latency climbing to
    their callers."""
    pods = list(pods)
    ns = cluster.namespace
    serving: dict[str, int] = {}
    labels_of: dict[str, Mapping[str, str]] = {}
    own_error: dict[str, list[str]] = {}
    own_latency: dict[str, float] = {}
    cut_off: dict[str, bool] = {}  # partitioned: nobody reaches it, it reaches nobody
    no_dns: dict[str, bool] = {}
    for svc in topology.services:
        obj = cluster.services.get(svc.name)
        why: list[str] = []
        if obj is None:
            serving[svc.name] = 0
            labels_of[svc.name] = {"app.kubernetes.io/name": svc.name}
            own_error[svc.name] = [f"Service {svc.name} does not exist"]
            continue
        spec = obj.get("spec") or {}
        selector = spec.get("selector") or {}
        port_spec = (spec.get("ports") or [{}])[0]
        chosen = [p for p in pods if selector and matches(selector, p.labels)]
        ready = []
        for p in chosen:
            target = _named_port(
                port_spec.get("targetPort", port_spec.get("port")), container(p.template)
            )
            if p.ready(now) and p.listen_port is not None and p.listen_port == target:
                ready.append(p)
        serving[svc.name] = len(ready)
        labels_of[svc.name] = dict(chosen[0].labels) if chosen else dict(selector)
        latency = 0.0
        partitioned = dns = False
        for experiment in cluster.chaos:
            if not active_chaos(experiment) or not chaos_selects(
                experiment, ns, labels_of[svc.name]
            ):
                continue
            kind, spec_c = experiment.get("kind"), experiment.get("spec") or {}
            if kind == "NetworkChaos" and spec_c.get("action") == "delay":
                latency += (
                    quantity(
                        str((spec_c.get("delay") or {}).get("latency", "0")).removesuffix("ms")
                    )
                    or 0.0
                )
            elif kind == "NetworkChaos" and spec_c.get("action") in ("partition", "loss"):
                partitioned = True
            elif kind == "StressChaos" and ((spec_c.get("stressors") or {}).get("cpu")):
                latency += CPU_SATURATED_MS
            elif kind == "DNSChaos":
                dns = True
        for effect, value in active_flag_effects(cluster.configmaps):
            # a share of failing requests below the alert's threshold is no error rate to see
            if svc.name in effect.errors and value > ERROR_RATIO:
                why.append(f"feature flag {effect.flag} is on")
            if svc.name in effect.latency_ms:
                latency += effect.latency_ms[svc.name] or value
        if svc.name in FLAG_READERS and not flagd_configured(cluster.configmaps):
            why.append(
                f"flag evaluation fails: flagd has no configuration ({FLAGD_CONFIGMAP} is gone)"
            )
        own_error[svc.name] = why
        own_latency[svc.name] = latency
        cut_off[svc.name] = partitioned
        no_dns[svc.name] = dns
    health: dict[str, ServiceHealth] = {}
    unreachable = {
        e.unreachable: e.flag
        for e, _ in active_flag_effects(cluster.configmaps)
        if e.unreachable is not None
    }

    def visit(name: str, stack: tuple[str, ...] = ()) -> ServiceHealth:
        if name in health:
            return health[name]
        why = list(own_error.get(name, ()))
        latency = own_latency.get(name, 0.0)
        for callee in topology.callees(name):
            if callee in stack:
                continue
            callee_health = visit(callee, (*stack, name))
            target = topology.service(callee)
            if cut_off.get(name) or cut_off.get(callee):
                why.append(f"call to {callee}: network partition")
            elif (name, callee) in unreachable:
                why.append(f"call to {callee}: unreachable ({unreachable[(name, callee)]} is on)")
            elif no_dns.get(name):
                why.append(f"call to {callee}: DNS lookup fails")
            elif serving.get(callee, 0) == 0:
                why.append(f"call to {callee}: no endpoint answers")
            elif not policy_allows(
                cluster.policies, ns, labels_of[callee], labels_of[name], target.port
            ):
                why.append(f"call to {callee}: blocked by a NetworkPolicy")
            elif callee_health.errors:
                why.append(f"call to {callee}: it returns errors")
            latency = max(latency, own_latency.get(name, 0.0) + callee_health.latency_ms)
        reached = serving.get(name, 0) > 0 and not cut_off.get(name)
        if reached and topology.callers(name):
            reached = any(
                policy_allows(
                    cluster.policies, ns, labels_of[name], labels_of[c], topology.service(name).port
                )
                for c in topology.callers(name)
            )
        health[name] = ServiceHealth(
            name,
            serving.get(name, 0),
            bool(why),
            latency,
            reached,
            tuple(why),
        )
        return health[name]

    for svc in topology.services:
        visit(svc.name)
    return health
