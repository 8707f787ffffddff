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
from dataclasses import dataclass, field
from typing import Any, Literal

from sre.generator.alerts import ERROR_RATIO
from sre.generator.demo_flags import EFFECTS, FLAG_EFFECTS, FlagEffect
from sre.generator.objects import FLAGD_CONFIGMAP, FLAGS, NODES, node_for
from sre.generator.topology import Topology
from sre.twin import mesh

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
    "Running", "NotReady", "Pending", "ImagePullBackOff", "CrashLoopBackOff", "Evicted",
    "CreateContainerConfigError",
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
    #: (from, until) a PodChaos pod-failure holds the pod (its containers paused)
    chaos_failure: tuple[float, float] | None = None

    def failed_by_chaos(self, now: float) -> bool:
        return self.chaos_failure is not None and (
            self.chaos_failure[0] <= now < self.chaos_failure[1]
        )

    def ready(self, now: float) -> bool:
        if self.failed_by_chaos(now):
            return False
        if self.chaos_failure is not None and now >= self.chaos_failure[1] > self.created:
            # the images are restored: the containers start again
            return self.state == "Running" and now >= self.chaos_failure[1] + STARTUP_S
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
    #: Ready pods its selector matches (its Endpoints); more than ``serving``: some of its
    #: calls land where nobody answers them
    endpoints: int = 0

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


def dialled_port(spec: Mapping[str, Any], port: int) -> Mapping[str, Any] | None:
    """The entry of a Service's ``ports`` that its callers reach: they dial the port the demo
    configures them with (``<service>:<port>`` in their environment, the topology's port), so a
    Service recreated on another port (``kubectl expose --port 80``) answers none of them. The
    demo's calls are gRPC and HTTP, over TCP: a port of another protocol carries none of them."""
    for entry in spec.get("ports") or ():
        if (
            isinstance(entry, Mapping)
            and str(entry.get("port")) == str(port)
            and str(entry.get("protocol") or "TCP").upper() == "TCP"
        ):
            return entry
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
    command = ctr.get("command")
    if image.startswith(UTILITY_IMAGES) and (not command or str(command[0]) in INIT_BINARIES):
        return "Running", "", "", False, None  # a helper workload: it runs, serves nothing
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
    selector = spec.get("nodeSelector") or {}
    # a pod pinned to a node by name goes there; any other to its service's own node
    home = str(selector.get("kubernetes.io/hostname") or node_for(service))
    n = len(nodes) or len(NODES)
    node = nodes.get(home)
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
    if (node.get("spec") or {}).get("unschedulable") and (
        # a cordon keeps new pods off the node; the ones running there stay
        cordoned_since is None or created >= cordoned_since.get(home, float("-inf"))
    ):
        return None, (
            f"0/{n} nodes are available: 1 node(s) were unschedulable, {n - 1} Insufficient "
            f"memory. preemption: 0/{n} nodes are available: {n} Preemption is not helpful."
        )
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


#: latency retransmissions add to calls crossing a lossy link (TCP's minimum RTO is 200 ms)
LOSS_RETRANSMIT_MS = 600.0
#: added by a JVM spending its time in garbage collection or burning CPU (JVMChaos gc/stress)
JVM_BUSY_MS = CPU_SATURATED_MS


def duration_s(value: object) -> float | None:
    """A Go duration (``90s``, ``1h30m``, ``500ms``) in seconds; None if unreadable."""
    text = str(value).strip()
    parts = re.findall(r"([0-9.]+)(ms|us|µs|ns|h|m|s)", text)
    if not parts or "".join(n + u for n, u in parts) != text:
        return None
    scale = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}
    try:
        return sum(float(n) * scale[u] for n, u in parts)
    except ValueError:
        return None


def chaos_acting(
    obj: Mapping[str, Any], since: Mapping[tuple[str, str], float], now: float
) -> bool:
    """Chaos Mesh's lifecycle: an experiment acts from its creation until deleted, paused, or
    its ``spec.duration`` has run out (then it recovers the pods by itself)."""
    if not active_chaos(obj):
        return False
    limit = duration_s((obj.get("spec") or {}).get("duration", ""))
    began = since.get((str(obj.get("kind")), str((obj.get("metadata") or {}).get("name"))))
    return limit is None or began is None or now < began + limit


def chaos_ends(obj: Mapping[str, Any], since: Mapping[tuple[str, str], float]) -> float | None:
    """When an experiment's duration runs out (None: it never does by itself)."""
    limit = duration_s((obj.get("spec") or {}).get("duration", ""))
    began = since.get((str(obj.get("kind")), str((obj.get("metadata") or {}).get("name"))))
    return None if limit is None or began is None else began + limit


def _loss_percent(spec: Mapping[str, Any]) -> float:
    try:
        return float((spec.get("loss") or {}).get("loss", 100))
    except (TypeError, ValueError):
        return 100.0


def _http_chaos(spec: Mapping[str, Any], port: int) -> tuple[str, float]:
    """HTTPChaos on the service's HTTP server: abort drops the connection, replace/patch
    tamper with the message (its callers fail to decode it), delay holds it."""
    if spec.get("port") not in (None, port, str(port)):
        return "", 0.0  # it hijacks another port: the service's traffic passes untouched
    side = "request" if spec.get("target") == "Request" else "response"
    if spec.get("abort"):
        return f"HTTPChaos aborts every {side} on port {port}", 0.0
    if spec.get("replace") or spec.get("patch"):
        return f"HTTPChaos tampers with the {side} body on port {port}", 0.0
    delay = duration_s(spec.get("delay", ""))
    return "", 1000.0 * (delay or 0.0)


def _jvm_chaos(spec: Mapping[str, Any], port: int) -> tuple[str, float]:
    """JVMChaos in the service's Java process: an injected exception or return value fails the
    method's calls, latency slows them, gc and stress keep the JVM busy."""
    action = spec.get("action")
    method = f"{spec.get('class', '?')}.{spec.get('method', '?')}"
    if action == "exception":
        return f"JVMChaos throws {spec.get('exception', 'an exception')} in {method}", 0.0
    if action == "return":
        return f"JVMChaos makes {method} return {spec.get('value', 'a wrong value')}", 0.0
    if action == "latency":
        try:
            return "", float(spec.get("latency", 0) or 0)  # milliseconds, as Chaos Mesh's
        except (TypeError, ValueError):
            return "", 0.0
    if action in ("gc", "stress"):
        return "", JVM_BUSY_MS
    return "", 0.0


def _io_chaos(spec: Mapping[str, Any], port: int) -> tuple[str, float]:
    """IOChaos on a volume of the service: a fault makes its file operations fail (errno),
    latency slows every one of them."""
    action = spec.get("action")
    volume = spec.get("volumePath", "its volume")
    if action == "fault":
        return f"IOChaos fails file operations on {volume} (errno {spec.get('errno', 5)})", 0.0
    if action == "latency":
        return "", 1000.0 * (duration_s(spec.get("delay", "")) or 0.0)
    if action in ("attrOverride", "mistake"):
        return f"IOChaos corrupts file data on {volume}", 0.0
    return "", 0.0


#: Chaos Mesh kinds acting inside the application: (spec, service port) -> (failure, latency)
APPLICATION_CHAOS = {"HTTPChaos": _http_chaos, "JVMChaos": _jvm_chaos, "IOChaos": _io_chaos}


def pod_chaos_failure(
    chaos: Iterable[Mapping[str, Any]],
    since: Mapping[tuple[str, str], float],
    namespace: str,
    labels: Mapping[str, str],
) -> tuple[float, float] | None:
    """(from, until) of a PodChaos pod-failure acting on a pod with ``labels``: Chaos Mesh
    swaps its containers' images for a pause image, so the pod runs and serves nothing, until
    the experiment is deleted, paused or its duration ends. A replacement pod the selector
    matches is taken too (ITBench injects from a Schedule, which selects again at every run)."""
    for obj in chaos:
        spec = obj.get("spec") or {}
        if (
            obj.get("kind") == "PodChaos"
            and spec.get("action") == "pod-failure"
            and active_chaos(obj)
            and chaos_selects(obj, namespace, labels)
        ):
            key = (str(obj.get("kind")), str((obj.get("metadata") or {}).get("name")))
            began = since.get(key, float("-inf"))
            end = chaos_ends(obj, since)
            return began, end if end is not None else float("inf")
    return None


def one_shot_kill(obj: Mapping[str, Any]) -> bool:
    """A PodChaos pod-kill or container-kill acts once, when created: the killed pods come back
    (ReplicaSet, kubelet) and it does nothing more, whatever its duration."""
    spec = obj.get("spec") or {}
    return obj.get("kind") == "PodChaos" and spec.get("action") in ("pod-kill", "container-kill")


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
    quotas: tuple[tuple[float, Mapping[str, Any]], ...]  # (created, ResourceQuota)
    #: (kind, name) of each Chaos Mesh experiment -> when it was created (its duration runs
    #: from then)
    chaos_since: Mapping[tuple[str, str], float] = field(default_factory=dict)
    secrets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    claims: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: the application namespace's labels (the mesh's enrolment label among them)
    namespace_labels: Mapping[str, str] = field(default_factory=dict)
    #: Istio's PeerAuthentications and AuthorizationPolicies, every namespace
    mesh_policies: tuple[Mapping[str, Any], ...] = ()
    #: Gateway API Gateways (the users' way in when a mesh is installed)
    gateways: tuple[Mapping[str, Any], ...] = ()
    #: the namespace's HorizontalPodAutoscalers by name
    autoscalers: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


def serves(pod: Pod, service: str, port_spec: Mapping[str, Any]) -> bool:
    """Whether a call to ``service`` that lands on this endpoint gets its answer: the pod runs the
    service's own program (a pod of its workload: each demo image is one service) and listens on
    the Service's targetPort (a named port resolved in the pod's own container, as kube-proxy
    does). Another application's pod behind the Service closes the port, or answers in another
    protocol: the call fails either way."""
    target = _named_port(
        port_spec.get("targetPort", port_spec.get("port")), container(pod.template)
    )
    return pod.deployment == service and pod.listen_port is not None and pod.listen_port == target


def wrong_endpoints(endpoints: list[Pod], good: list[Pod]) -> float:
    """The share of a Service's calls that fail: kube-proxy picks an endpoint at random for each
    connection, so the share of endpoints that cannot answer."""
    return (len(endpoints) - len(good)) / len(endpoints) if endpoints else 0.0


def service_health(
    topology: Topology, cluster: Cluster, pods: Iterable[Pod], now: float
) -> dict[str, ServiceHealth]:
    """Health of every demo service at ``now``: callees first, errors and latency climbing to
    their callers."""
    pods = list(pods)
    ns = cluster.namespace
    serving: dict[str, int] = {}
    endpoint_count: dict[str, int] = {}
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
        port_spec = dialled_port(spec, svc.port)
        chosen = [p for p in pods if selector and matches(selector, p.labels)]
        # kube-proxy spreads the calls over every endpoint: each Ready pod the selector matches
        # (nobody is reached on a port the Service does not expose)
        endpoints = [p for p in chosen if p.ready(now)] if port_spec is not None else []
        ready = [p for p in endpoints if serves(p, svc.name, port_spec or {})]
        if port_spec is None:
            why.append(f"Service {svc.name} exposes no port {svc.port}, the one its callers dial")
        elif ready and len(ready) < len(endpoints):
            failing = wrong_endpoints(endpoints, ready)
            if failing > ERROR_RATIO:
                why.append(
                    f"{len(endpoints) - len(ready)} of the {len(endpoints)} endpoints of Service "
                    f"{svc.name} cannot answer its callers (pods of "
                    f"{', '.join(sorted({p.deployment for p in endpoints if p not in ready}))}): "
                    f"{failing:.0%} of its calls fail"
                )
        serving[svc.name] = len(ready)
        endpoint_count[svc.name] = len(endpoints)
        # whose network identity the calls meet (chaos, policies): its own pods first
        own = [p for p in chosen if p.deployment == svc.name] or chosen
        labels_of[svc.name] = dict(own[0].labels) if own else dict(selector)
        latency = 0.0
        partitioned = dns = False
        for experiment in cluster.chaos:
            if not chaos_acting(experiment, cluster.chaos_since, now) or not chaos_selects(
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
            elif kind == "NetworkChaos" and spec_c.get("action") == "loss":
                why.append(f"{_loss_percent(spec_c):.0f}% of packets to {svc.name} are lost")
                latency += LOSS_RETRANSMIT_MS
            elif kind == "NetworkChaos" and spec_c.get("action") == "partition":
                partitioned = True
            elif kind in APPLICATION_CHAOS:
                port = topology.service(svc.name).port
                failure, slower = APPLICATION_CHAOS[kind](spec_c, port)
                if failure:
                    why.append(failure)
                latency += slower
            elif kind == "StressChaos" and ((spec_c.get("stressors") or {}).get("cpu")):
                latency += CPU_SATURATED_MS
            elif kind == "DNSChaos":
                dns = True
        dns = dns or any(dns_misconfigured(p.template) for p in chosen)
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
        refused = [
            caller
            for caller in topology.callers(svc.name)
            if auth_refused(
                cluster.deployments.get(caller), cluster.deployments.get(svc.name), cluster.secrets
            )
        ]
        if refused:
            # the server turns its clients away: its own requests fail, its callers see errors
            why.append(f"refuses the commands of {', '.join(refused)} (NOAUTH)")
        full = valkey_out_of_memory(cluster.deployments.get(svc.name))
        if full:
            why.append(full)
        if svc.name == mesh.GATEWAY_BACKEND:
            denial = mesh.gateway_denial(cluster.mesh_policies, cluster.gateways)
            if denial:
                why.append(denial)
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
            elif mesh.mtls_refused(
                cluster.mesh_policies, ns, cluster.namespace_labels, labels_of[name],
                labels_of[callee],
            ):  # fmt: skip
                why.append(f"call to {callee}: connection reset (STRICT mTLS, {name} is outside "
                           "the mesh)")  # fmt: skip
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
            endpoint_count.get(name, 0),
        )
        return health[name]

    for svc in topology.services:
        visit(svc.name)
    return health


# -- what keeps a pod from being placed or started (misconfigurations) ---------------------------
def missing_claim(template: Mapping[str, Any], claims: Mapping[str, Mapping[str, Any]]) -> str:
    """The scheduler's message when a volume names a PersistentVolumeClaim that does not exist
    or is not bound ('' when every claim is there and Bound)."""
    for volume in (template.get("spec") or {}).get("volumes") or ():
        claim = (volume.get("persistentVolumeClaim") or {}).get("claimName")
        if claim is None:
            continue
        obj = claims.get(str(claim))
        if obj is None:
            return f'persistentvolumeclaim "{claim}" not found'
        phase = (obj.get("status") or {}).get("phase", "Bound")
        if phase != "Bound":
            return (
                "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. "
                "preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
            )
    return ""


def claim_phase(claim: Mapping[str, Any], storage_classes: Iterable[str]) -> str:
    """Bound when its storage class exists (the provisioner makes a volume), else Pending."""
    wanted = (claim.get("spec") or {}).get("storageClassName")
    return "Bound" if wanted is None or wanted in set(storage_classes) else "Pending"


def anti_affinity_conflict(
    service: str,
    template: Mapping[str, Any],
    deployments: Mapping[str, Mapping[str, Any]],
) -> str:
    """The scheduler's message when a required pod anti-affinity rules out the only node the
    pod fits on: a pod it must avoid runs there (every service runs on its own node, ``node_for``)
    ('' when none does)."""
    affinity = ((template.get("spec") or {}).get("affinity") or {}).get("podAntiAffinity") or {}
    home = node_for(service)
    for term in affinity.get("requiredDuringSchedulingIgnoredDuringExecution") or ():
        if term.get("topologyKey") not in ("kubernetes.io/hostname", None):
            continue
        for name, dep in deployments.items():
            if name == service or node_for(name) != home:
                continue
            spec = dep.get("spec") or {}
            labels = ((spec.get("template") or {}).get("metadata") or {}).get("labels") or {}
            if spec.get("replicas", 1) and matches(term.get("labelSelector") or {}, labels):
                return (
                    "0/3 nodes are available: 1 node(s) didn't match pod anti-affinity rules, "
                    "2 Insufficient memory. preemption: 0/3 nodes are available: 1 No preemption "
                    "victims found for incoming pod, 2 Preemption is not helpful for scheduling."
                )
    return ""


def missing_config(
    template: Mapping[str, Any],
    secrets: Mapping[str, Mapping[str, Any]],
    configmaps: Iterable[Mapping[str, Any]],
) -> str:
    """The kubelet's CreateContainerConfigError message when an environment variable refers to a
    Secret or ConfigMap (or a key of one) that does not exist ('' when all resolve)."""
    maps = {(c.get("metadata") or {}).get("name"): c for c in configmaps}
    # a reference without a name looks up None, as a ConfigMap without one is keyed
    pools: tuple[tuple[str, str, Mapping[Any, Mapping[str, Any]]], ...] = (
        ("secretKeyRef", "secret", secrets),
        ("configMapKeyRef", "configmap", maps),
    )
    for ctr in (template.get("spec") or {}).get("containers") or ():
        for env in ctr.get("env") or ():
            source = env.get("valueFrom") or {}
            for ref_key, kind, pool in pools:
                ref = source.get(ref_key)
                if not isinstance(ref, Mapping) or ref.get("optional"):
                    continue
                obj = pool.get(ref.get("name"))
                if obj is None:
                    return f'Error: {kind} "{ref.get("name")}" not found'
                data = {**(obj.get("data") or {}), **(obj.get("stringData") or {})}
                if ref.get("key") not in data:
                    return (
                        f"Error: couldn't find key {ref.get('key')} in {kind.capitalize()} "
                        f"{(obj.get('metadata') or {}).get('namespace', '')}/{ref.get('name')}"
                    )
    return ""


def failing_init_container(template: Mapping[str, Any]) -> str:
    """The kubelet's message when an init container cannot complete: its command is a binary the
    image does not have ('' when every init container runs to completion)."""
    for ctr in (template.get("spec") or {}).get("initContainers") or ():
        command = ctr.get("command") or ()
        if command and str(command[0]).startswith("/") and str(command[0]) not in INIT_BINARIES:
            return (
                f"Back-off restarting failed container {ctr.get('name', 'init')} in pod: "
                f'exec: "{command[0]}": stat {command[0]}: no such file or directory'
            )
    return ""


#: binaries an init container image of the demo has (busybox): commands that start
INIT_BINARIES = frozenset({"/bin/sh", "/bin/true", "/bin/echo", "/bin/sleep"})
#: public base images (not the demo's) a scenario's helper workloads run: they exist in their
#: registries and have a shell
UTILITY_IMAGES = ("registry.access.redhat.com/ubi10", "busybox:", "docker.io/library/busybox:")


# -- node capacity and priority preemption -------------------------------------------------------
#: CPU a worker node offers its pods (millicores) when its status names no allocatable
NODE_CPU_M = 4000.0


def node_cpu_m(node: Mapping[str, Any] | None) -> float:
    value = (((node or {}).get("status") or {}).get("allocatable") or {}).get("cpu")
    amount = quantity(value) if value is not None else None
    return amount * 1000.0 if amount else NODE_CPU_M


def cpu_request_m(template: Mapping[str, Any]) -> float:
    total = 0.0
    for ctr in (template.get("spec") or {}).get("containers") or ():
        res = ctr.get("resources") or {}
        value = (res.get("requests") or {}).get("cpu") or (res.get("limits") or {}).get("cpu")
        total += (quantity(value) or 0.0) * 1000.0 if value is not None else 0.0
    return total


def pinned_node(template: Mapping[str, Any]) -> str | None:
    """The node a pod is pinned to by name (its nodeSelector on ``kubernetes.io/hostname``)."""
    selector = (template.get("spec") or {}).get("nodeSelector") or {}
    value = selector.get("kubernetes.io/hostname")
    return str(value) if value else None


def preempted(
    pods: Iterable[Pod],
    nodes: Mapping[str, Mapping[str, Any]],
    priority: Mapping[str, int],
) -> dict[str, str]:
    """pod name -> the scheduler's message, for the pods pinned to a node that does not hold
    them all. The scheduler places pods by priority (a higher one preempts a lower one to get
    room; an equal one does not, so among equals the earlier pod keeps its place); a pod that
    does not fit on the only node it may run on stays Pending. Pods not pinned by name are
    movable: the scheduler finds them room elsewhere, so they do not count here.
    ``priority``: a pod's PriorityClass value by the class's name (no class: 0)."""
    by_node: dict[str, list[Pod]] = {}
    for pod in pods:
        node = pinned_node(pod.template)
        if node is not None and pod.node == node:
            by_node.setdefault(node, []).append(pod)
    out: dict[str, str] = {}
    for node, placed in sorted(by_node.items()):
        free = node_cpu_m(nodes.get(node))

        def rank(p: Pod) -> tuple[int, float, str]:
            cls = str((p.template.get("spec") or {}).get("priorityClassName") or "")
            return (-priority.get(cls, 0), p.created, p.name)

        for pod in sorted(placed, key=rank):
            need = cpu_request_m(pod.template)
            if need <= free + 1e-9:
                free -= need
                continue
            out[pod.name] = (
                f"0/{len(nodes) or len(NODES)} nodes are available: 1 Insufficient cpu, "
                f"{(len(nodes) or len(NODES)) - 1} node(s) didn't match Pod's node "
                "affinity/selector. preemption: 0/3 nodes are available: 1 No preemption victims "
                "found for incoming pod, 2 Preemption is not helpful for scheduling."
            )
    return out


#: the cluster DNS service's address (kube-dns), where pods' lookups of service names go
CLUSTER_DNS = "10.96.0.10"


def dns_misconfigured(template: Mapping[str, Any]) -> bool:
    """Whether a pod's DNS settings keep it from resolving the cluster's service names: policy
    ``Default`` uses the node's resolver, which knows no ``*.svc.cluster.local``; policy ``None``
    uses only its ``dnsConfig`` nameservers, which must include the cluster DNS."""
    spec = template.get("spec") or {}
    policy = spec.get("dnsPolicy", "ClusterFirst")
    if policy == "Default":
        return True
    if policy == "None":
        servers = (spec.get("dnsConfig") or {}).get("nameservers") or ()
        return CLUSTER_DNS not in servers
    return False


#: the CPU architectures images are built for; a single-platform image names its own
ARCHITECTURES = ("amd64", "arm64")


def image_platform(image: str) -> str | None:
    """The only architecture a single-platform image runs on, read from its repository name
    (``…/hello-arm64:1.0``); None for a multi-platform image (the demo's own)."""
    repository = image.split("@")[0].rsplit(":", 1)[0] if "/" in image else image
    name = repository.rsplit("/", 1)[-1]
    for arch in ARCHITECTURES:
        if name.endswith(f"-{arch}"):
            return arch
    return None


def node_architecture(node: Mapping[str, Any] | None) -> str:
    """A node's CPU architecture (its nodeInfo, else its kubernetes.io/arch label; the demo's
    nodes are amd64)."""
    node = node or {}
    info = ((node.get("status") or {}).get("nodeInfo") or {}).get("architecture")
    label = ((node.get("metadata") or {}).get("labels") or {}).get("kubernetes.io/arch")
    return str(info or label or "amd64")


def wrong_platform(template: Mapping[str, Any], node: Mapping[str, Any] | None) -> str:
    """The container's exit message when its image is built for another architecture than the
    node's: the pull succeeds, the binary cannot run ('' when it can)."""
    ctr = container(template)
    arch = image_platform(str(ctr.get("image", "")))
    if arch is None or arch == node_architecture(node):
        return ""
    return (
        f"Back-off restarting failed container {ctr.get('name', '')}: exec /app/server: exec "
        f"format error (image built for {arch}, node is {node_architecture(node)})"
    )


#: environment variables a client of the demo's Valkey reads its password from
VALKEY_PASSWORD_VARS = ("VALKEY_PASSWORD", "REDIS_PASSWORD")


def required_password(dep: Mapping[str, Any] | None) -> str | None:
    """The password a Valkey/Redis server demands (``--requirepass`` in its arguments)."""
    ctr = container(((dep or {}).get("spec") or {}).get("template") or {})
    args = [str(a) for a in [*(ctr.get("args") or ()), *(ctr.get("command") or ())]]
    for i, arg in enumerate(args):
        if arg == "--requirepass" and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--requirepass="):
            return arg.split("=", 1)[1]
    return None


def auth_refused(
    caller: Mapping[str, Any] | None,
    callee: Mapping[str, Any] | None,
    secrets: Mapping[str, Mapping[str, Any]] | None = None,
) -> bool:
    """Whether the callee demands a password the caller does not send (its password variable
    unset or different, or the Secret file it reads the password from holds another value):
    every command is refused with NOAUTH / WRONGPASS."""
    wanted = required_password(callee)
    if wanted is None:
        return False
    template = ((caller or {}).get("spec") or {}).get("template") or {}
    env = container(template).get("env") or ()
    sent = {e.get("name"): e.get("value") for e in env if isinstance(e, Mapping)}
    for variable in VALKEY_PASSWORD_VARS:
        path = sent.get(f"{variable}_FILE")
        if path is not None:
            sent[variable] = secret_file(template, str(path), secrets or {})
    return not any(sent.get(v) == wanted for v in VALKEY_PASSWORD_VARS)


def secret_file(
    template: Mapping[str, Any], path: str, secrets: Mapping[str, Mapping[str, Any]]
) -> str | None:
    """The content of the file ``path`` in a container of ``template`` when it lies on a volume
    from a Secret: the key named by the file's name, decoded. Read as the Secret holds it now: the
    kubelet refreshes a mounted Secret (within its sync period) and the client reads the file on
    every reconnect. None when no such file exists (the Secret or the key is gone)."""
    import base64
    import binascii

    volumes = {
        v.get("name"): (v.get("secret") or {}).get("secretName")
        for v in (template.get("spec") or {}).get("volumes") or ()
        if isinstance(v, Mapping) and v.get("secret")
    }
    for mount in container(template).get("volumeMounts") or ():
        folder = str(mount.get("mountPath", "")).rstrip("/")
        secret_name = volumes.get(mount.get("name"))
        if secret_name is None or not path.startswith(folder + "/"):
            continue
        secret = secrets.get(str(secret_name))
        if secret is None:
            return None
        key = path[len(folder) + 1 :]
        if key in (secret.get("stringData") or {}):
            return str(secret["stringData"][key])
        encoded = (secret.get("data") or {}).get(key)
        if encoded is None:
            return None
        try:
            return base64.b64decode(str(encoded), validate=True).decode()
        except (binascii.Error, UnicodeDecodeError):
            return None  # garbled beyond base64: no password the server could accept
    return None


#: the data the cart keeps in its Valkey (MiB): a maxmemory below it fills up
CART_DATA_MI = 48.0
#: Redis/Valkey size units: ``kb``/``mb``/``gb`` are powers of 1024, ``k``/``m``/``g`` of 1000
_VALKEY_UNITS = {"": 1, "b": 1, "k": 1e3, "kb": 2**10, "m": 1e6, "mb": 2**20, "g": 1e9,
                 "gb": 2**30}  # fmt: skip


def valkey_bytes(value: str) -> float | None:
    match = re.fullmatch(r"\s*([0-9]+)\s*([a-z]*)\s*", value.lower())
    if match is None or match.group(2) not in _VALKEY_UNITS:
        return None
    return float(match.group(1)) * _VALKEY_UNITS[match.group(2)]


def _server_flag(args: list[str], flag: str) -> str | None:
    for i, arg in enumerate(args):
        if arg == flag and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(flag + "="):
            return arg.split("=", 1)[1]
    return None


def valkey_out_of_memory(dep: Mapping[str, Any] | None) -> str:
    """The error a Valkey gives every write when its ``--maxmemory`` is below the data it holds
    and its policy evicts nothing (``noeviction``, the default) ('' when writes succeed)."""
    ctr = container(((dep or {}).get("spec") or {}).get("template") or {})
    args = [str(a) for a in [*(ctr.get("command") or ()), *(ctr.get("args") or ())]]
    limit = _server_flag(args, "--maxmemory")
    size = valkey_bytes(limit) if limit is not None else None
    if not size or size >= CART_DATA_MI * 2**20:  # 0 or absent: no limit
        return ""
    if (_server_flag(args, "--maxmemory-policy") or "noeviction") != "noeviction":
        return ""
    return "OOM command not allowed when used memory > 'maxmemory'"
