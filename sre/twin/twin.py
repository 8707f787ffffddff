"""The incident's twin: the reconciler the offline cluster calls after every write.

It plays the controllers of a real cluster for the demo's namespace — the Deployment controller
(revisions, ReplicaSets with ``pod-template-hash``, Recreate rollouts, so ``kubectl rollout
undo|status|restart`` work), the ReplicaSet controller (a deleted pod comes back under a new name;
a ResourceQuota refuses pods created after it), the scheduler (nodeSelector, disk-pressure taint),
the kubelet (image pulls, crashes, OOM kills, readiness probes), the endpoints controller — and
the application (``model.py``). Every write is kept as a :class:`Frame`, so alerts and health can
be read at any simulated moment afterwards.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from itbench.cluster import Reconciled, SimClock, Write
from sre.generator.objects import node_for, template_hash
from sre.generator.topology import Topology
from sre.twin import alerts as rules
from sre.twin import apiserver, autoscaler, mesh
from sre.twin.live_view import LiveView
from sre.twin.model import (
    CRASH_AFTER_S,
    INIT_BINARIES,
    STARTUP_S,
    Cluster,
    Pod,
    ServiceHealth,
    active_chaos,
    anti_affinity_conflict,
    chaos_ends,
    chaos_selects,
    claim_phase,
    failing_init_container,
    leaking,
    missing_claim,
    missing_config,
    node_pressure,
    one_shot_kill,
    pod_chaos_failure,
    preempted,
    quantity,
    runtime_state,
    schedule,
    service_health,
    wrong_platform,
)

Key = tuple[str, str, str, str]
_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"


def _suffix(*parts: object, n: int = 5) -> str:
    value = int(hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest(), 16)
    out = []
    for _ in range(n):
        value, i = divmod(value, len(_ALPHABET))
        out.append(_ALPHABET[i])
    return "".join(out)


def _uid(*parts: object) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_OID, "/".join(map(str, parts))))


@dataclass
class _Slot:
    """One replica of a Deployment: bumped when its pod is deleted or the template changes."""

    generation: int
    created: float
    admitted: bool = False


@dataclass
class _Workload:
    uid: str
    #: (canonical template, revision), the highest revision is the current one
    revisions: list[tuple[str, int]] = field(default_factory=list)
    slots: list[_Slot] = field(default_factory=list)

    @property
    def revision(self) -> int:
        return max(r for _, r in self.revisions)


@dataclass(frozen=True)
class Frame:
    """The cluster as a write left it, from ``at`` until the next write."""

    at: float
    cluster: Cluster
    pods: tuple[Pod, ...]
    #: ReplicaSet name -> message, for pods a quota refused
    refused: Mapping[str, str]
    write: Write | None
    desired: Mapping[str, int]


@dataclass(frozen=True)
class PodDeletion:
    at: float
    pod: str
    deployment: str


def _canonical(template: Mapping[str, Any]) -> str:
    """A pod template as the Deployment controller compares them (``EqualIgnoreHash``): without
    the ``pod-template-hash`` label and without a null ``creationTimestamp`` (the API server
    drops it; ``kubectl rollout undo`` sends the ReplicaSet's template with one), so a rollback
    finds the ReplicaSet of the revision it restores instead of making a new one."""
    template = copy.deepcopy(dict(template))
    meta = template.get("metadata")
    if isinstance(meta, dict):
        if "creationTimestamp" in meta and meta["creationTimestamp"] is None:
            del meta["creationTimestamp"]
        labels = meta.get("labels")
        if isinstance(labels, dict):
            labels.pop("pod-template-hash", None)
    return json.dumps(template, sort_keys=True)


class IncidentTwin:
    """Reconciler of one incident's cluster. ``history`` gives each Deployment's earlier pod
    templates (oldest first) so the faulty rollout can be undone; ``since`` is when the
    initial state began (the fault), ``created`` when each initial object appeared."""

    def __init__(
        self,
        topology: Topology,
        namespace: str,
        *,
        since: float,
        history: Mapping[str, list[dict[str, Any]]] | None = None,
        created: Mapping[Key, float] | None = None,
        pods_since: Mapping[str, float] | None = None,
    ) -> None:
        self.topology = topology
        self.namespace = namespace
        self.since = since
        self._history = {k: list(v) for k, v in (history or {}).items()}
        self._created: dict[Key, float] = dict(created or {})
        self._pods_since = dict(pods_since or {})
        self._workloads: dict[str, _Workload] = {}
        #: each Deployment's pod template at the last write (what a chaos selector sees)
        self._last_templates: dict[str, Mapping[str, Any]] = {}
        self.frames: list[Frame] = []
        self.deletions: list[PodDeletion] = []
        #: (deployment, pods) replaced by a template change after the start
        self.replacements: list[tuple[str, int]] = []
        self.normal_events: list[tuple[float, dict[str, Any], str, str]] = []
        self.reconcile_seconds: list[float] = []
        #: node -> when its disk pressure began (pods placed before keep running)
        self.pressure_since: dict[str, float] = {}
        #: node -> when it was cordoned (only pods created afterwards are refused)
        self.cordoned_since: dict[str, float] = {}
        #: told about every write's outcome (the workspace's live snapshot, ``live_view.py``)
        self.observer: LiveView | None = None
        self._observed_at: float | None = None
        #: wall-clock time (monotonic) of each write, for MTTR in wall seconds
        self.write_walls: list[float] = []
        #: PriorityClass name -> its value when first seen (pods keep the priority they were
        #: admitted with)
        self.priorities: dict[str, int] = {}
        #: when the API server's request surge began (None: it is not saturated)
        self.surge_since: float | None = None

    # -- the Reconciler protocol ----------------------------------------------------------------
    def owns(self, key: Key) -> bool:
        # what its controllers make again: a ReplicaSet (the Deployment's), its Pods, the
        # Endpoints of a Service (the endpoints controller's), events
        return key[2] == self.namespace and key[1] in ("pods", "replicasets", "endpoints", "events")

    def reconcile(
        self, declared: Mapping[Key, dict[str, Any]], write: Write | None, now: float
    ) -> Reconciled:
        import time

        began = time.perf_counter()
        if write is not None or not self.frames:
            at = now if self.frames else self.since
            self._apply(write, at)
            self.frames.append(self._frame(declared, write, at))
        made = self.render(self.frames[-1], now)
        if write is not None:
            self.reconcile_seconds.append(time.perf_counter() - began)
            self.write_walls.append(time.monotonic())
        if self.observer is not None and (write is not None or now != self._observed_at):
            # after a write, and when time has passed (a client waited on a watch)
            self._observed_at = now
            self.observer.record({**made.objects, **declared, **made.observed},
                                 self.alerts(now), now)  # fmt: skip
        return made

    # -- bookkeeping ----------------------------------------------------------------------------
    def _apply(self, write: Write | None, now: float) -> None:
        if write is not None and write.after is not None and write.before is None:
            self._one_shot_chaos(write.after, now)
        if write is None or not write.derived or write.before is None:
            return
        kind = write.before.get("kind")
        name = write.key[3]
        for dep, workload in self._workloads.items():
            for index, slot in enumerate(workload.slots):
                pod = self._pod_name(dep, workload, index, slot)
                owner = f"{dep}-{self._hash_of(workload)}"
                if (kind == "Pod" and pod == name) or (kind == "ReplicaSet" and owner == name):
                    self.deletions.append(PodDeletion(now, pod, dep))
                    self.normal_events.append(
                        (
                            now,
                            _ref("Pod", pod, self.namespace),
                            "Killing",
                            f"Stopping container {dep}",
                        )
                    )
                    slot.generation += 1
                    slot.created = now
                    slot.admitted = False

    def _one_shot_chaos(self, obj: Mapping[str, Any], now: float) -> None:
        """A PodChaos pod-kill or container-kill created now kills the pods it selects once: each
        comes back (a new pod, or its container restarted) and starts up again."""
        if not one_shot_kill(obj) or not active_chaos(obj):
            return
        for dep, workload in self._workloads.items():
            labels = {"app.kubernetes.io/name": dep}
            template = (self._last_templates.get(dep) or {}).get("metadata") or {}
            labels.update(template.get("labels") or {})
            if not chaos_selects(obj, self.namespace, labels):
                continue
            for slot in workload.slots:
                if (obj.get("spec") or {}).get("action") == "pod-kill":
                    slot.generation += 1
                    slot.admitted = False
                slot.created = now

    def _hash_of(self, workload: _Workload) -> str:
        current = max(workload.revisions, key=lambda r: r[1])[0]
        return template_hash({"spec": {"template": json.loads(current)}})

    def _pod_name(self, dep: str, workload: _Workload, index: int, slot: _Slot) -> str:
        pth = self._hash_of(workload)
        if slot.generation == 0 and index == 0:
            # the generator's name for the first pod, so snapshot and cluster agree
            from sre.generator.objects import pod_name

            try:
                return pod_name(self.topology.service(dep), pth, 0)
            except KeyError:
                pass
        return f"{dep}-{pth}-{_suffix(dep, pth, index, slot.generation)}"

    def _sync_workload(
        self, dep: dict[str, Any], now: float, initial: bool, autoscaled: int | None = None
    ) -> _Workload:
        name = dep["metadata"]["name"]
        template = _canonical((dep.get("spec") or {}).get("template") or {})
        replicas = (dep.get("spec") or {}).get("replicas", 1)
        replicas = replicas if isinstance(replicas, int) and replicas >= 0 else 1
        if autoscaled is not None:
            replicas = autoscaled
        workload = self._workloads.get(name)
        uid = str(dep["metadata"].get("uid", ""))
        if workload is None or workload.uid != uid:
            born = self._pods_since.get(name, self.since - 3 * 86400) if initial else now
            workload = _Workload(uid)
            for n, old in enumerate(self._history.get(name, ()) if initial else (), start=1):
                workload.revisions.append((_canonical(old), n))
            workload.revisions.append((template, len(workload.revisions) + 1))
            workload.slots = [_Slot(0, born) for _ in range(replicas)]
            self._workloads[name] = workload
            if not initial:
                self.normal_events.append(
                    (
                        now,
                        _ref("Deployment", name, self.namespace),
                        "ScalingReplicaSet",
                        f"Scaled up replica set {name}-{self._hash_of(workload)} to {replicas}",
                    )
                )
            return workload
        current = max(workload.revisions, key=lambda r: r[1])[0]
        if template != current:
            # a rollback moves an old revision to the top, as the Deployment controller does
            workload.revisions = [(t, r) for t, r in workload.revisions if t != template]
            workload.revisions.append((template, workload.revision + 1))
            self.replacements.append((name, len(workload.slots)))
            for slot in workload.slots:  # Recreate: every pod replaced
                slot.generation += 1
                slot.created = now
                slot.admitted = False
            self.normal_events.append(
                (
                    now,
                    _ref("Deployment", name, self.namespace),
                    "ScalingReplicaSet",
                    f"Scaled up replica set {name}-{self._hash_of(workload)} to {replicas}",
                )
            )
        while len(workload.slots) < replicas:
            workload.slots.append(_Slot(len(workload.slots), now))
        del workload.slots[replicas:]
        return workload

    def _frame(
        self, declared: Mapping[Key, dict[str, Any]], write: Write | None, now: float
    ) -> Frame:
        ns = self.namespace
        initial = not self.frames
        for key in declared:
            self._created.setdefault(key, now)
        deployments = {k[3]: o for k, o in declared.items() if k[:3] == ("apps", "deployments", ns)}
        for gone in set(self._workloads) - set(deployments):
            del self._workloads[gone]
        cluster = Cluster(
            namespace=ns,
            deployments=deployments,
            services={k[3]: o for k, o in declared.items() if k[:3] == ("", "services", ns)},
            configmaps=tuple(o for k, o in declared.items() if k[:3] == ("", "configmaps", ns)),
            policies=tuple(
                o for k, o in declared.items() if k[:2] == ("networking.k8s.io", "networkpolicies")
            ),
            chaos=tuple(o for k, o in declared.items() if k[0] == "chaos-mesh.org"),
            nodes={k[3]: o for k, o in declared.items() if k[:2] == ("", "nodes")},
            quotas=tuple(
                (self._created[k], o)
                for k, o in declared.items()
                if k[:3] == ("", "resourcequotas", ns)
            ),
            chaos_since={
                (str(o.get("kind")), k[3]): self._created[k]
                for k, o in declared.items()
                if k[0] == "chaos-mesh.org"
            },
            secrets={k[3]: o for k, o in declared.items() if k[:3] == ("", "secrets", ns)},
            claims=_claims(declared, ns),
            namespace_labels=(
                (declared.get(("", "namespaces", "", ns)) or {}).get("metadata") or {}
            ).get("labels")
            or {},
            mesh_policies=tuple(o for k, o in declared.items() if k[0] == "security.istio.io"),
            gateways=tuple(
                o for k, o in declared.items() if k[:2] == ("gateway.networking.k8s.io", "gateways")
            ),
            autoscalers={
                k[3]: o
                for k, o in declared.items()
                if k[:3] == ("autoscaling", "horizontalpodautoscalers", ns)
            },
        )
        # the autoscaler sets the replica count of the Deployment it targets
        autoscaled = {}
        for hpa in cluster.autoscalers.values():
            dep_name = autoscaler.target_of(hpa)
            if dep_name in deployments:
                autoscaled[dep_name] = autoscaler.scaled_replicas(hpa, deployments[dep_name])
        for name, node in cluster.nodes.items():
            if (node.get("spec") or {}).get("unschedulable"):
                self.cordoned_since.setdefault(name, self.since if initial else now)
            else:
                self.cordoned_since.pop(name, None)
            if node_pressure(node):
                self.pressure_since.setdefault(name, self.since if initial else now)
            else:
                self.pressure_since.pop(name, None)
        for name in sorted(deployments):
            self._sync_workload(deployments[name], now, initial, autoscaled.get(name))
            self._last_templates[name] = (deployments[name].get("spec") or {}).get("template") or {}
        candidates: list[tuple[float, str, int, dict[str, Any]]] = []
        for name, workload in sorted(self._workloads.items()):
            for index, slot in enumerate(workload.slots):
                candidates.append((slot.created, name, index, deployments[name]))
        pods: list[Pod] = []
        refused: dict[str, str] = {}
        usage = {
            "pods": 0.0,
            "limits.memory": 0.0,
            "requests.memory": 0.0,
            "limits.cpu": 0.0,
            "requests.cpu": 0.0,
        }
        for _created, name, index, dep in sorted(candidates, key=lambda c: (c[0], c[1], c[2])):
            workload = self._workloads[name]
            slot = workload.slots[index]
            template = copy.deepcopy((dep.get("spec") or {}).get("template") or {})
            demand = _demand(template)
            if not slot.admitted:
                blocked = _quota_refusal(cluster.quotas, usage, demand, slot.created)
                if blocked:
                    refused[f"{name}-{self._hash_of(workload)}"] = (
                        f'Error creating: pods "{self._pod_name(name, workload, index, slot)}" is '
                        f"forbidden: {blocked}"
                    )
                    continue
                slot.admitted = True
                slot.created = max(slot.created, now) if not initial else slot.created
            for k, v in demand.items():
                usage[k] += v
            pods.append(self._pod(name, workload, index, slot, template, cluster))
        pods = self._preempt(pods, cluster, declared)
        pods = self._hold_during_surge(pods, now, initial)
        desired = {name: len(w.slots) for name, w in self._workloads.items()}
        return Frame(now, cluster, tuple(pods), refused, write, desired)

    def _hold_during_surge(self, pods: list[Pod], now: float, initial: bool) -> list[Pod]:
        """Pods created while the API server is saturated are not bound: Pending."""
        if not apiserver.saturated(pods):
            self.surge_since = None
            return pods
        if self.surge_since is None:
            self.surge_since = self.since if initial else now
        since = self.surge_since
        return [
            dataclasses.replace(
                p,
                node=None,
                state="Pending",
                reason="FailedScheduling",
                message=apiserver.HELD_MESSAGE.format(ns=p.namespace, pod=p.name),
                listen_port=None,
                oom=False,
            )  # fmt: skip
            if p.created >= since and not apiserver.is_client(p.template) and p.node
            else p
            for p in pods
        ]

    def _preempt(
        self, pods: list[Pod], cluster: Cluster, declared: Mapping[Key, dict[str, Any]]
    ) -> list[Pod]:
        """Pods a higher-priority workload pushed off the node they are pinned to: Pending."""
        for key, obj in declared.items():
            if key[:2] == ("scheduling.k8s.io", "priorityclasses"):
                # a pod's priority is fixed when it is admitted: a class deleted or changed
                # later does not move running pods, so the first value seen stays
                value = obj.get("value", 0)
                self.priorities.setdefault(key[3], value if isinstance(value, int) else 0)
        pushed = preempted(pods, cluster.nodes, self.priorities)
        return [
            dataclasses.replace(
                p,
                node=None,
                state="Pending",
                reason="FailedScheduling",
                message=pushed[p.name],
                listen_port=None,
                oom=False,
            )  # fmt: skip
            if p.name in pushed
            else p
            for p in pods
        ]

    def _pod(
        self,
        dep: str,
        workload: _Workload,
        index: int,
        slot: _Slot,
        template: dict[str, Any],
        cluster: Cluster,
    ) -> Pod:
        pth = self._hash_of(workload)
        labels = {
            **((template.get("metadata") or {}).get("labels") or {}),
            "pod-template-hash": pth,
        }
        node, unschedulable = schedule(
            dep, template, cluster.nodes, slot.created, self.pressure_since, self.cordoned_since
        )
        if node is not None:
            unschedulable = missing_claim(template, cluster.claims) or anti_affinity_conflict(
                dep, template, cluster.deployments
            )
            node = None if unschedulable else node
        name = self._pod_name(dep, workload, index, slot)
        common: dict[str, Any] = dict(
            name=name,
            namespace=self.namespace,
            deployment=dep,
            replicaset=f"{dep}-{pth}",
            labels=labels,
            template=template,
            created=slot.created,
        )
        if node is None:
            return Pod(
                **common,
                node=None,
                state="Pending",
                reason="FailedScheduling",
                message=unschedulable,
            )
        chaos = [
            c
            for c in cluster.chaos
            if c.get("kind") == "StressChaos"
            and active_chaos(c)
            and chaos_selects(c, self.namespace, labels)
        ]
        leaks = leaking(cluster.configmaps, dep)
        state, reason, message, oom, port = runtime_state(dep, template, chaos, leaks)
        init_failure = failing_init_container(template)
        config_error = missing_config(template, cluster.secrets, cluster.configmaps)
        platform_error = wrong_platform(template, cluster.nodes.get(node))
        if platform_error:
            state, reason, message, oom, port = (
                "CrashLoopBackOff",
                "BackOff",
                platform_error,
                False,
                None,
            )
        elif state != "ImagePullBackOff" and init_failure:
            state, reason, message, oom, port = (
                "CrashLoopBackOff",
                "BackOff",
                init_failure,
                False,
                None,
            )
        elif state != "ImagePullBackOff" and config_error:
            state, reason, message, oom, port = (
                "CreateContainerConfigError", "Failed", config_error, False, None
            )  # fmt: skip
        return Pod(
            **common,
            node=node,
            state=state,
            reason=reason,
            message=message,
            oom=oom,
            listen_port=port,
            chaos_failure=pod_chaos_failure(
                cluster.chaos, cluster.chaos_since, self.namespace, labels
            ),
        )

    # -- reading a frame --------------------------------------------------------------------------
    def frame_at(self, t: float) -> Frame:
        current = self.frames[0]
        for frame in self.frames:
            if frame.at <= t:
                current = frame
        return current

    def health(self, t: float) -> dict[str, ServiceHealth]:
        frame = self.frame_at(t)
        return service_health(self.topology, frame.cluster, frame.pods, t)

    def alert_conditions(self, t: float) -> dict[rules.AlertKey, tuple[dict[str, str], str]]:
        frame = self.frame_at(t)
        health = service_health(self.topology, frame.cluster, frame.pods, t)
        pressured = [n for n, o in sorted(frame.cluster.nodes.items()) if node_pressure(o)]
        throttled = {}
        for pod in frame.pods:
            for c in frame.cluster.chaos:
                if (
                    c.get("kind") == "StressChaos"
                    and active_chaos(c)
                    and ((c.get("spec") or {}).get("stressors") or {}).get("cpu")
                    and chaos_selects(c, self.namespace, pod.labels)
                    and pod.state == "Running"
                ):
                    throttled[pod.deployment] = pod.name
        found = rules.conditions(self.namespace, health, frame.pods, pressured, throttled, t)
        available: dict[str, int] = {}
        for pod in frame.pods:
            if pod.ready(t):
                available[pod.deployment] = available.get(pod.deployment, 0) + 1
        found.update(rules.replicas_mismatch(self.namespace, frame.desired, available))
        for hpa_name, hpa in sorted(frame.cluster.autoscalers.items()):
            dep_name = autoscaler.target_of(hpa)
            if dep_name is None or dep_name not in frame.desired:
                continue
            if frame.desired[dep_name] == autoscaler.limits(hpa)[1]:
                found[rules.AlertKey("KubeHpaMaxedOut", hpa_name)] = (
                    {"namespace": self.namespace, "horizontalpodautoscaler": hpa_name,
                     "service_name": dep_name, "severity": "warning"},
                    f"HPA {self.namespace}/{hpa_name} has been running at max replicas",
                )  # fmt: skip
        if apiserver.saturated(frame.pods):
            found[rules.AlertKey("KubeAPITerminatedRequests", "apiserver")] = (
                {"job": "apiserver", "severity": "warning"},
                f"The API server terminates requests: {apiserver.request_rate(frame.pods):.0f}/s "
                f"against {apiserver.CAPACITY_RPS:.0f}/s admitted",
            )
        if mesh.installed(frame.cluster.gateways):
            blind = [
                name
                for name, h in sorted(health.items())
                if h.receives
                and self.topology.callers(name)
                and name != "load-generator"
                and not any(
                    mesh.enrolled(frame.cluster.namespace_labels, p.labels)
                    for p in frame.pods
                    if p.deployment == name
                )
            ]
            found.update(rules.no_requests_seen(self.namespace, blind))
        return found

    def moments(self, until: float) -> list[float]:
        """Every time a condition may change up to ``until``: writes, and pods' transitions."""
        points = {f.at for f in self.frames}
        for frame in self.frames:
            for pod in frame.pods:
                for delay in (0.0, CRASH_AFTER_S, STARTUP_S, 30.0):
                    points.add(pod.created + delay)
                if pod.chaos_failure is not None and pod.chaos_failure[1] != float("inf"):
                    for delay in (0.0, STARTUP_S):
                        points.add(pod.chaos_failure[1] + delay)
            for experiment in frame.cluster.chaos:
                end = chaos_ends(experiment, frame.cluster.chaos_since)
                if end is not None:
                    points.add(end)
        return sorted(p for p in points if p <= until)

    def alerts(self, t: float) -> dict[rules.AlertKey, rules.AlertState]:
        return rules.evaluate(self.moments(t), self.alert_conditions, t)

    # -- objects ----------------------------------------------------------------------------------
    def render(self, frame: Frame, now: float) -> Reconciled:
        ns = self.namespace
        clock = SimClock(now)
        objects: dict[Key, dict[str, Any]] = {}
        observed: dict[Key, dict[str, Any]] = {}
        ready_count: dict[str, int] = {}
        for pod in frame.pods:
            obj = _pod_object(pod, now, clock)
            objects[("", "pods", ns, pod.name)] = obj
            if pod.ready(now):
                ready_count[pod.deployment] = ready_count.get(pod.deployment, 0) + 1
        for name, workload in sorted(self._workloads.items()):
            dep = frame.cluster.deployments.get(name)
            if dep is None:
                continue
            selector = ((dep.get("spec") or {}).get("selector") or {}).get("matchLabels") or {}
            for canonical, revision in workload.revisions:
                template = json.loads(canonical)
                pth = template_hash({"spec": {"template": template}})
                current = revision == workload.revision
                rs_name = f"{name}-{pth}"
                template.setdefault("metadata", {}).setdefault("labels", {})[
                    "pod-template-hash"
                ] = pth
                replicas = len(workload.slots) if current else 0
                ready = ready_count.get(name, 0) if current else 0
                objects[("apps", "replicasets", ns, rs_name)] = {
                    "apiVersion": "apps/v1",
                    "kind": "ReplicaSet",
                    "metadata": {
                        "name": rs_name,
                        "namespace": ns,
                        "uid": _uid("rs", workload.uid, pth),
                        "labels": dict(template["metadata"]["labels"]),
                        "annotations": {
                            "deployment.kubernetes.io/revision": str(revision),
                            "deployment.kubernetes.io/desired-replicas": str(len(workload.slots)),
                        },
                        "ownerReferences": [
                            {
                                "apiVersion": "apps/v1",
                                "kind": "Deployment",
                                "name": name,
                                "uid": workload.uid,
                                "controller": True,
                                "blockOwnerDeletion": True,
                            }
                        ],  # fmt: skip
                        "creationTimestamp": clock.iso(self.since - 3 * 86400),
                    },
                    "spec": {
                        "replicas": replicas,
                        "selector": {"matchLabels": {**selector, "pod-template-hash": pth}},
                        "template": template,
                    },
                    "status": {
                        "replicas": sum(1 for p in frame.pods if p.replicaset == rs_name),
                        "readyReplicas": ready,
                        "availableReplicas": ready,
                        "observedGeneration": 1,
                    },
                }
            want = len(workload.slots)
            available = ready_count.get(name, 0)
            seen: dict[str, Any] = dict(copy.deepcopy(dep))
            seen.setdefault("spec", {})["replicas"] = want  # the autoscaler's count, if any
            meta = seen["metadata"]
            meta.setdefault("annotations", {})["deployment.kubernetes.io/revision"] = str(
                workload.revision
            )
            changed = max((s.created for s in workload.slots), default=self.since)
            stuck = available < want and now - changed > 600  # progressDeadlineSeconds
            seen["status"] = {
                "observedGeneration": meta.get("generation", 1),
                "replicas": sum(1 for p in frame.pods if p.deployment == name),
                "updatedReplicas": sum(1 for p in frame.pods if p.deployment == name),
                "readyReplicas": available,
                "availableReplicas": available,
                "unavailableReplicas": max(0, want - available),
                "conditions": [
                    {"type": "Available", "status": "True" if available >= want else "False",
                     "reason": "MinimumReplicasAvailable" if available >= want else "MinimumReplicasUnavailable"},
                    {"type": "Progressing", "status": "False" if stuck else "True",
                     "reason": "ProgressDeadlineExceeded" if stuck else "NewReplicaSetAvailable",
                     "message": f'ReplicaSet "{name}-{self._hash_of(workload)}" has '
                     + ("timed out progressing." if stuck else "successfully progressed.")},
                ],
            }  # fmt: skip
            observed[("apps", "deployments", ns, name)] = seen
        for pod in frame.pods:
            # a pod's controllerRef names its ReplicaSet's uid, as the ReplicaSet controller
            # writes it (the disruption controller resolves a pod's owner by it)
            rs = objects.get(("apps", "replicasets", ns, pod.replicaset))
            if rs is not None:
                ref = objects[("", "pods", ns, pod.name)]["metadata"]["ownerReferences"][0]
                ref["uid"] = rs["metadata"]["uid"]
        for node_name, node in frame.cluster.nodes.items():
            if node_pressure(node):
                seen = dict(copy.deepcopy(node))
                taints = [
                    t
                    for t in (seen.get("spec") or {}).get("taints") or ()
                    if t.get("key") != "node.kubernetes.io/disk-pressure"
                ]
                seen.setdefault("spec", {})["taints"] = [
                    *taints,
                    {"key": "node.kubernetes.io/disk-pressure", "effect": "NoSchedule"},
                ]
                observed[("", "nodes", "", node_name)] = seen
        for hpa_name, hpa in frame.cluster.autoscalers.items():
            dep_name = autoscaler.target_of(hpa)
            dep = frame.cluster.deployments.get(dep_name or "")
            if dep is not None:
                seen = dict(copy.deepcopy(hpa))
                seen["status"] = autoscaler.status(hpa, dep, frame.desired.get(dep_name or "", 0))
                observed[("autoscaling", "horizontalpodautoscalers", ns, hpa_name)] = seen
        for claim_name, claim in frame.cluster.claims.items():
            observed[("", "persistentvolumeclaims", ns, claim_name)] = dict(claim)
        for svc_name, svc in frame.cluster.services.items():
            selector = (svc.get("spec") or {}).get("selector") or {}
            from sre.twin.model import matches

            addresses = [
                {
                    "ip": _pod_ip(p.name),
                    "targetRef": {"kind": "Pod", "name": p.name, "namespace": ns},
                }
                for p in frame.pods
                if selector and matches(selector, p.labels) and p.ready(now)
            ]
            ports = [
                {
                    "name": p.get("name", ""),
                    "port": p.get("targetPort", p.get("port"))
                    if isinstance(p.get("targetPort", p.get("port")), int)
                    else p.get("port"),
                    "protocol": "TCP",
                }
                for p in (svc.get("spec") or {}).get("ports") or ()
            ]
            objects[("", "endpoints", ns, svc_name)] = {
                "apiVersion": "v1",
                "kind": "Endpoints",
                "metadata": {"name": svc_name, "namespace": ns, "uid": _uid("ep", svc_name)},
                "subsets": [{"addresses": addresses, "ports": ports}] if addresses else [],
            }
        for event in self._events(frame, now, clock):
            objects[("", "events", event["metadata"]["namespace"], event["metadata"]["name"])] = (
                event
            )
        return Reconciled(objects, observed)

    def _events(self, frame: Frame, now: float, clock: SimClock) -> list[dict[str, Any]]:
        ns = self.namespace
        out = []
        for pod in frame.pods:
            if pod.state == "Running" or not pod.reason:
                continue
            component = "default-scheduler" if pod.reason == "FailedScheduling" else "kubelet"
            out.append(
                _event(
                    _ref("Pod", pod.name, ns),
                    pod.reason,
                    pod.message,
                    component,
                    pod.created,
                    now,
                    clock,
                )
            )
        for rs, message in sorted(frame.refused.items()):
            out.append(
                _event(
                    _ref("ReplicaSet", rs, ns),
                    "FailedCreate",
                    message,
                    "replicaset-controller",
                    frame.at,
                    now,
                    clock,
                )
            )
        for name, node in sorted(frame.cluster.nodes.items()):
            if node_pressure(node):
                out.append(
                    _event(
                        _ref("Node", name, ""),
                        "EvictionThresholdMet",
                        "Attempting to reclaim ephemeral-storage",
                        "kubelet",
                        self.since,
                        now,
                        clock,
                        namespace="default",
                    )
                )
        for at, ref, reason, message in self.normal_events:
            out.append(
                _event(
                    ref,
                    reason,
                    message,
                    "deployment-controller" if reason == "ScalingReplicaSet" else "kubelet",
                    at,
                    at,
                    clock,
                    kind="Normal",
                )
            )
        return out


def _ref(kind: str, name: str, namespace: str) -> dict[str, Any]:
    return {
        "kind": kind,
        "name": name,
        "namespace": namespace,
        "apiVersion": "apps/v1" if kind in ("Deployment", "ReplicaSet") else "v1",
    }


def _event(
    ref: dict[str, Any],
    reason: str,
    message: str,
    component: str,
    first: float,
    now: float,
    clock: SimClock,
    kind: str = "Warning",
    namespace: str | None = None,
) -> dict[str, Any]:
    ns = namespace or ref.get("namespace") or "default"
    name = f"{ref['name']}.{_suffix(ref['kind'], reason, message, first, n=16)}"
    count = 1 + int(max(0.0, now - first) // 30) if kind == "Warning" else 1
    return {
        "apiVersion": "v1",
        "kind": "Event",
        "metadata": {
            "name": name,
            "namespace": ns,
            "uid": _uid("event", name),
            "creationTimestamp": clock.iso(first),
        },
        "involvedObject": ref,
        "reason": reason,
        "message": message,
        "type": kind,
        "source": {"component": component},
        "firstTimestamp": clock.iso(first),
        "lastTimestamp": clock.iso(now if kind == "Warning" else first),
        "count": count,
    }


def _pod_ip(name: str) -> str:
    digest = hashlib.sha256(name.encode()).digest()
    return f"10.244.{digest[0] % 4}.{2 + digest[1] % 250}"


def _pod_object(pod: Pod, now: float, clock: SimClock) -> dict[str, Any]:
    spec = copy.deepcopy(pod.template.get("spec") or {})
    ctr = (spec.get("containers") or [{}])[0]
    if pod.node:
        spec["nodeName"] = pod.node
    ready = pod.ready(now)
    status: dict[str, Any] = {
        "phase": "Pending"
        if pod.state in ("Pending", "ImagePullBackOff", "CreateContainerConfigError")
        else "Running",
        "conditions": [
            {"type": "PodScheduled", "status": "False" if pod.node is None else "True",
             **({"reason": "Unschedulable", "message": pod.message} if pod.node is None else {})},
            {"type": "Ready", "status": "True" if ready else "False"},
        ],
        "startTime": clock.iso(pod.created),
    }  # fmt: skip
    if pod.node is not None:
        status["hostIP"] = "10.0.0.1" + str(
            sorted(("worker-1", "worker-2", "worker-3")).index(pod.node)
            if pod.node in ("worker-1", "worker-2", "worker-3")
            else 0
        )
        status["podIP"] = _pod_ip(pod.name)
        if pod.state in ("ImagePullBackOff", "CreateContainerConfigError"):
            state: dict[str, Any] = {"waiting": {"reason": pod.state, "message": pod.message}}
        elif pod.crash_looping(now):
            state = {"waiting": {"reason": "CrashLoopBackOff", "message": pod.message}}
        elif pod.state == "CrashLoopBackOff":
            state = {"running": {"startedAt": clock.iso(pod.created)}}
        else:
            state = {"running": {"startedAt": clock.iso(pod.created)}}
        last = {}
        if pod.crash_looping(now):
            last = {
                "terminated": {
                    "reason": "OOMKilled" if pod.oom else "Error",
                    "exitCode": 137 if pod.oom else 1,
                }
            }
        status["containerStatuses"] = [
            {
                "name": ctr.get("name", pod.deployment),
                "image": ctr.get("image", ""),
                "ready": ready,
                "started": pod.state in ("Running", "NotReady"),
                "restartCount": pod.restarts(now),
                "state": state,
                "lastState": last,
            }
        ]
        if pod.state == "CrashLoopBackOff" and failing_init_container(pod.template):
            _init_failed(status, spec, pod, now, clock)
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": pod.name,
            "namespace": pod.namespace,
            "uid": _uid("pod", pod.name),
            "labels": dict(pod.labels),
            "ownerReferences": [
                {
                    "apiVersion": "apps/v1",
                    "kind": "ReplicaSet",
                    "name": pod.replicaset,
                    "uid": "",
                    "controller": True,
                    "blockOwnerDeletion": True,
                }
            ],  # fmt: skip
            "creationTimestamp": clock.iso(pod.created),
        },
        "spec": spec,
        "status": status,
    }


def _init_failed(
    status: dict[str, Any], spec: Mapping[str, Any], pod: Pod, now: float, clock: SimClock
) -> None:
    """A pod whose init container cannot complete, as the kubelet reports it: Pending, not
    Initialized, the init containers before it Completed, the failing one restarting (its
    restarts, not the app container's), the app container never started (PodInitializing), so
    kubectl shows ``Init:CrashLoopBackOff``."""
    status["phase"] = "Pending"
    status["conditions"].insert(0, {"type": "Initialized", "status": "False",
                                    "reason": "ContainersNotInitialized"})  # fmt: skip
    inits = []
    failed = False
    for ctr in spec.get("initContainers") or ():
        command = list(ctr.get("command") or [])
        fails = bool(command) and str(command[0]).startswith("/") and (
            str(command[0]) not in INIT_BINARIES
        )  # fmt: skip
        entry: dict[str, Any] = {"name": ctr.get("name", "init"), "image": ctr.get("image", ""),
                                 "ready": False, "restartCount": 0, "lastState": {}}  # fmt: skip
        if failed:  # never reached
            entry["state"] = {"waiting": {"reason": "PodInitializing"}}
        elif not fails:
            entry["state"] = {"terminated": {"reason": "Completed", "exitCode": 0}}
        else:
            failed = True
            entry["restartCount"] = pod.restarts(now)
            if pod.crash_looping(now):
                entry["state"] = {"waiting": {"reason": "CrashLoopBackOff", "message": pod.message}}
                entry["lastState"] = {"terminated": {"reason": "StartError", "exitCode": 128}}
            else:
                entry["state"] = {"running": {"startedAt": clock.iso(pod.created)}}
        inits.append(entry)
    status["initContainerStatuses"] = inits
    for app in status.get("containerStatuses") or ():
        app.update(ready=False, started=False, restartCount=0, lastState={},
                   state={"waiting": {"reason": "PodInitializing"}})  # fmt: skip


def _claims(declared: Mapping[Key, dict[str, Any]], ns: str) -> dict[str, dict[str, Any]]:
    """The namespace's PersistentVolumeClaims with the phase the provisioner gives them."""
    classes = [k[3] for k in declared if k[:2] == ("storage.k8s.io", "storageclasses")]
    out = {}
    for key, obj in declared.items():
        if key[:3] == ("", "persistentvolumeclaims", ns):
            seen = copy.deepcopy(obj)
            seen["status"] = {"phase": claim_phase(obj, classes)}
            out[key[3]] = seen
    return out


def _demand(template: Mapping[str, Any]) -> dict[str, float]:
    """What one pod of ``template`` counts against a ResourceQuota."""
    limits: dict[str, Any] = {}
    requests: dict[str, Any] = {}
    for ctr in (template.get("spec") or {}).get("containers") or ():
        res = ctr.get("resources") or {}
        for k, v in (res.get("limits") or {}).items():
            limits[k] = limits.get(k, 0.0) + (quantity(v) or 0.0)
        for k, v in (res.get("requests") or {}).items():
            requests[k] = requests.get(k, 0.0) + (quantity(v) or 0.0)
    for k, v in limits.items():  # a limit without a request is the request too
        requests.setdefault(k, v)
    return {
        "pods": 1.0,
        "limits.memory": limits.get("memory", 0.0),
        "requests.memory": requests.get("memory", 0.0),
        "limits.cpu": limits.get("cpu", 0.0),
        "requests.cpu": requests.get("cpu", 0.0),
    }


def _quota_refusal(
    quotas: tuple[tuple[float, Mapping[str, Any]], ...],
    usage: Mapping[str, float],
    demand: Mapping[str, float],
    created: float,
) -> str:
    """Why a ResourceQuota refuses a pod created at ``created`` ('' if none does). A quota only
    judges pods created after it; the ones before count towards its usage."""
    for since, quota in quotas:
        if created < since:
            continue
        hard = (quota.get("spec") or {}).get("hard") or {}
        name = (quota.get("metadata") or {}).get("name", "")
        over = []
        for resource, limit in sorted(hard.items()):
            key = {"memory": "requests.memory", "cpu": "requests.cpu", "count/pods": "pods"}.get(
                resource, resource
            )
            if key not in usage:
                continue
            cap = quantity(limit)
            if cap is not None and usage[key] + demand[key] > cap + 1e-9:
                over.append((resource, key, limit))
        if over:
            requested = ",".join(f"{r}={_show(demand[k], r)}" for r, k, _ in over)
            used = ",".join(f"{r}={_show(usage[k], r)}" for r, k, _ in over)
            limited = ",".join(f"{r}={lim}" for r, _, lim in over)
            return (
                f"exceeded quota: {name}, requested: {requested}, used: {used}, limited: {limited}"
            )
    return ""


def _show(value: float, resource: str) -> str:
    if "memory" in resource:
        return f"{value / 2**20:.0f}Mi"
    if "cpu" in resource:
        return f"{value * 1000:.0f}m"
    return f"{value:.0f}"


__all__ = ["Frame", "IncidentTwin", "PodDeletion", "node_for"]
