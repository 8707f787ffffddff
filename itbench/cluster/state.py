"""The cluster's objects: what was loaded, the overlay of writes on top, and what controllers and
report producers derive from them. Which kinds exist, how they are validated and which reports are
derived come from the :class:`~itbench.cluster.extensions.Catalog` (core plus extensions).

Reads see ``derived <- loaded <- overlay`` (later wins). Writes never touch the loaded objects, so
``overlay()`` is exactly what an agent changed: an evaluator reads it back.
"""

from __future__ import annotations

import builtins
import copy
import datetime as dt
import itertools
import json
import os
import threading
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from itbench.cluster import apiserver_rules, deadline, names
from itbench.cluster.controllers import (
    NODE_NAME,
    derive,
    namespaces_used,
    node,
    nodes_used,
    pod_count,
    with_workload_status,
)
from itbench.cluster.disruption import with_budget_status
from itbench.cluster.extensions import (
    AdmissionDecision,
    AdmissionRequest,
    Catalog,
    ClusterExtension,
    ReportProducer,
    combine,
)
from itbench.cluster.reconcile import Reconciled, Reconciler, SimClock, Write
from itbench.cluster.resources import Registry, ResourceType
from itbench.errors import UsageError

Key = tuple[str, str, str, str]  # (group, plural, namespace, name)
#: The most objects one cluster holds (loaded and written); more are refused.
MAX_OBJECTS = 100_000
#: The most bytes of writes one cluster keeps: every object written through the API as compact
#: JSON, and every deletion as the entry ``overlay()`` gives it. The API server runs in the
#: runner's process (an agent's memory cap does not apply to it) and the writes go back to the
#: trial's folder: a write past the budget is refused 403, as an exceeded quota is.
MAX_STORED_BYTES = 256 * 2**20
#: The environment variable that sets another budget (a number of bytes), for every cluster
#: the process serves.
STORED_BYTES_VARIABLE = "ITBENCH_CLUSTER_MAX_STORED_BYTES"
#: the name the refusal gives the budget, as a quota's name is given
STORED_BYTES_QUOTA = "itbench-stored-bytes"
#: The most Pods the emulated controllers make for one cluster's workloads (a Deployment's
#: replicas, a StatefulSet's, one per DaemonSet and Job). They are made in the runner's process,
#: out of reach of the agent's memory cap and not in the written bytes: one Deployment with
#: ``replicas: 400000`` took the runner to 1.3 GB. A create or scale past it is refused 403 as
#: an exceeded ``pods`` quota is; 10,000 is about 90 full nodes of 110 Pods.
MAX_DERIVED_PODS = 10_000
#: the name the refusal gives that cap
DERIVED_PODS_QUOTA = "itbench-derived-pods"

__all__ = [
    "MAX_DERIVED_PODS",
    "MAX_OBJECTS",
    "MAX_STORED_BYTES",
    "STORED_BYTES_VARIABLE",
    "Change",
    "ClusterError",
    "ClusterState",
    "Key",
    "ReportProducer",
    "stored_bytes_budget",
]


def stored_bytes_budget() -> int:
    """The budget of written bytes per cluster: :data:`STORED_BYTES_VARIABLE` when set, else
    :data:`MAX_STORED_BYTES`."""
    value = os.environ.get(STORED_BYTES_VARIABLE, "").strip()
    if not value:
        return MAX_STORED_BYTES
    if not value.isdigit() or int(value) <= 0:
        raise UsageError(f"{STORED_BYTES_VARIABLE}={value!r}: not a positive number of bytes")
    return int(value)


def _deleted_entry(key: Key) -> dict[str, str]:
    return {"group": key[0], "resource": key[1], "namespace": key[2], "name": key[3]}


def _entry_bytes(key: Key, obj: dict[str, Any] | None) -> int:
    """What one overlay entry weighs: its compact JSON as :meth:`ClusterState.overlay_text`
    writes it, and the comma before it."""
    entry = obj if obj is not None else _deleted_entry(key)
    return len(json.dumps(entry, separators=(",", ":"), default=str)) + 1


class ClusterError(Exception):
    """A request the API server refuses; carries the HTTP code, the Status reason and, for an
    invalid object, one cause per field error."""

    def __init__(
        self,
        code: int,
        reason: str,
        message: str,
        causes: Sequence[str] = (),
        details: dict[str, Any] | None = None,
    ) -> None:
        self.code, self.reason = code, reason
        self.causes = tuple(causes)
        #: The Status ``details`` (kind, group, name) when the server knows better than the route.
        self.details: dict[str, Any] = details or {}
        super().__init__(message)


@dataclass(frozen=True)
class Change:
    kind: str
    namespace: str
    name: str
    deleted: bool


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _group(api_version: str) -> str:
    return api_version.rpartition("/")[0] if "/" in api_version else ""


class ClusterState:
    def __init__(
        self,
        objects: Iterable[dict[str, Any]] = (),
        extensions: Sequence[ClusterExtension] = (),
        report_producer: ReportProducer | None = None,
        max_objects: int = MAX_OBJECTS,
        admission_seconds: float = deadline.ADMISSION_SECONDS,
        report_seconds: float = deadline.REPORT_SECONDS,
        reconciler: Reconciler | None = None,
        clock: SimClock | None = None,
        max_stored_bytes: int | None = None,
    ) -> None:
        """Core's kinds plus ``extensions``'; ``report_producer`` replaces the producer of the
        extensions that declare report inputs. Loaded objects are validated like written ones.
        After loading, an admission controller has ``admission_seconds`` to answer a write and
        the report producers ``report_seconds`` to rescan (see ``deadline``).

        A ``reconciler`` (see ``reconcile.py``) replaces core's workload controllers: it is
        called after every write, and the ``clock`` (one starting at 0 if not given) moves by its
        step on each write.

        ``max_stored_bytes`` bounds the writes kept (:data:`MAX_STORED_BYTES`, or
        :func:`stored_bytes_budget` when not given)."""
        self.catalog: Catalog = combine(extensions, report_producer)
        self.registry: Registry = self.catalog.registry
        self.max_objects = max_objects
        self.max_stored_bytes = (
            stored_bytes_budget() if max_stored_bytes is None else max_stored_bytes
        )
        #: the weight of each overlay entry (:func:`_entry_bytes`) and their sum
        self._entry_sizes: dict[Key, int] = {}
        self._stored_bytes = 0
        #: the Pods each declared object's controller makes, and their sum (:data:`MAX_DERIVED_PODS`)
        self.max_derived_pods = MAX_DERIVED_PODS
        self._pod_counts: dict[Key, int] = {}
        self._pods = 0
        self.admission_seconds = admission_seconds
        self.report_seconds = report_seconds
        self.lock = threading.RLock()
        self._version = itertools.count(1)
        self._resource_version = 1
        self._base: dict[Key, dict[str, Any]] = {}
        self._overlay: dict[Key, dict[str, Any] | None] = {}
        self._derived: dict[Key, dict[str, Any]] = {}
        self._reports: dict[Key, dict[str, Any]] = {}
        self._dirty = True
        self._started = _now()  # derived namespaces are as old as the server
        self.report_errors: list[str] = []
        self.reconciler = reconciler
        self.clock = clock if clock is not None or reconciler is None else SimClock(0.0)
        self._reconciled = Reconciled()
        self._reconciled_at: float | None = None
        #: uids of reconciler-made objects deleted through the API, by key: one the reconciler
        #: makes again (a ReplicaSet its Deployment recreates, the Endpoints of a Service) is a
        #: new object, and a uid is never reused, or a client waiting for the deletion (``kubectl
        #: delete`` compares uids) would wait forever
        self._buried: dict[Key, builtins.list[str]] = {}
        for obj in objects:
            rtype = self.type_of(obj)
            # a loaded object is one the cluster holds: its name follows the rules a create
            # checks (a real cluster never holds "Bad_Name"; live mode could not deploy it)
            metadata = obj.get("metadata")
            meta: dict[str, Any] = metadata if isinstance(metadata, dict) else {}
            self.refuse(rtype, obj, names.field_errors(rtype.group, rtype.kind, meta))
            self.validate(rtype, obj)
            normalised = self._normalise(obj, rtype)
            key = self.key(rtype, normalised)
            if key in self._base:
                raise ClusterError(
                    409, "AlreadyExists", f"{obj['kind']} {key[2]}/{key[3]} is defined twice"
                )
            self._base[key] = normalised
            self._count_pods(rtype, key, normalised)
            if len(self._base) > max_objects:
                # refused at the first object too many: ``objects`` may be a stream not yet read
                raise ClusterError(
                    413,
                    "RequestEntityTooLarge",
                    f"more than {max_objects} objects: over the limit of {max_objects}",
                )
        self._produce_reports()
        if self.reconciler is not None:
            self._reconcile(None)

    @property
    def loaded_count(self) -> int:
        """How many objects were loaded (before any write)."""
        return len(self._base)

    # -- identity -----------------------------------------------------------------------------
    def type_of(self, obj: dict[str, Any]) -> ResourceType:
        rtype = self.registry.by_api_version(
            str(obj.get("apiVersion", "")), str(obj.get("kind", ""))
        )
        if rtype is None:
            raise ClusterError(
                400,
                "BadRequest",
                f"no kind {obj.get('kind')!r} is registered for version {obj.get('apiVersion')!r} "
                "(custom kinds are served only when a loaded domain's cluster extension "
                "registers them)",
            )
        return rtype

    def validate(self, rtype: ResourceType, obj: dict[str, Any]) -> None:
        """Refuse an object its kind's validator finds errors in, as an API server refuses a
        custom resource its CRD schema rejects: 422 ``Invalid`` listing every field error."""
        entry = self.catalog.validators.get((rtype.group, rtype.kind))
        if entry is None:
            return
        owner, validator = entry
        try:
            errors = [str(e) for e in validator(obj)]
        except Exception as exc:  # a domain's validator bug must not take the API server down
            raise ClusterError(
                500,
                "InternalError",
                f"the validator of {owner!r} for {rtype.kind} failed: {type(exc).__name__}: {exc}",
            ) from exc
        self.refuse(rtype, obj, errors)

    @staticmethod
    def refuse(rtype: ResourceType, obj: dict[str, Any], errors: Sequence[str]) -> None:
        """422 ``Invalid`` listing the field errors, as the API server words it (none: allowed)."""
        if not errors:
            return
        name = (obj.get("metadata") or {}).get("name", "")
        resource = f"{rtype.kind}.{rtype.group}" if rtype.group else rtype.kind
        listed = errors[0] if len(errors) == 1 else "[" + ", ".join(errors) + "]"
        raise ClusterError(
            422,
            "Invalid",
            f'{resource} "{name}" is invalid: {listed}',
            errors,
            {"kind": rtype.kind, "group": rtype.group, "name": name},
        )

    @staticmethod
    def key(rtype: ResourceType, obj: dict[str, Any]) -> Key:
        meta = obj["metadata"]
        return (
            rtype.group,
            rtype.plural,
            meta.get("namespace", "") if rtype.namespaced else "",
            meta["name"],
        )

    def _normalise(
        self, obj: dict[str, Any], rtype: ResourceType, namespace: str | None = None
    ) -> dict[str, Any]:
        obj = copy.deepcopy(obj)
        meta = obj.setdefault("metadata", {})
        if rtype.namespaced:
            meta["namespace"] = namespace or meta.get("namespace") or "default"
        else:
            meta.pop("namespace", None)
        meta.setdefault("uid", str(uuid.uuid4()))
        if not meta.get("creationTimestamp"):  # typed clients send null: the server sets it
            meta["creationTimestamp"] = self.clock.iso() if self.clock is not None else _now()
        meta["resourceVersion"] = str(self._next_version())
        meta.setdefault("generation", 1)
        return with_workload_status(obj)

    def _next_version(self) -> int:
        self._resource_version = next(self._version)
        return self._resource_version

    @property
    def resource_version(self) -> str:
        return str(self._resource_version)

    # -- reading ------------------------------------------------------------------------------
    def _declared(self) -> dict[Key, dict[str, Any]]:
        merged = dict(self._base)
        for key, obj in self._overlay.items():
            if obj is None:
                merged.pop(key, None)
            else:
                merged[key] = obj
        return merged

    def _rebuild(self) -> None:
        if not self._dirty:
            return
        declared = self._declared()
        counter = itertools.count()
        derived: dict[Key, dict[str, Any]] = {}
        # a snapshot of a real cluster already holds what its controllers made (ReplicaSets and
        # Pods naming their owner): deriving more would show workloads twice
        owners = {
            (o["metadata"].get("namespace"), ref.get("kind"), ref.get("name"))
            for o in declared.values()
            for ref in o["metadata"].get("ownerReferences") or ()
            if isinstance(ref, dict)
        }
        # a reconciler derives workloads itself
        for obj in declared.values() if self.reconciler is None else ():
            meta = obj["metadata"]
            if (meta.get("namespace"), obj.get("kind"), meta["name"]) in owners:
                continue
            for child in derive(obj, counter):
                rtype = self.type_of(child)
                child["metadata"].setdefault(
                    "uid", str(uuid.uuid5(uuid.NAMESPACE_OID, "/".join(self.key(rtype, child))))
                )
                child["metadata"]["resourceVersion"] = self.resource_version
                derived[self.key(rtype, child)] = child
        ns_type = self.registry.by_plural("", "namespaces")
        assert ns_type is not None
        for ns in sorted(
            namespaces_used([*declared.values(), *derived.values()]) | {"default", "kube-system"}
        ):
            derived.setdefault(
                ("", "namespaces", "", ns),
                {
                    "apiVersion": "v1",
                    "kind": "Namespace",
                    "metadata": {
                        "name": ns,
                        "uid": str(uuid.uuid5(uuid.NAMESPACE_OID, ns)),
                        "creationTimestamp": self._started,
                        "resourceVersion": self.resource_version,
                        "labels": {"kubernetes.io/metadata.name": ns},
                    },
                    "spec": {"finalizers": ["kubernetes"]},
                    "status": {"phase": "Active"},
                },
            )
        # the node the emulated scheduler uses, and every node a Pod names
        objects = [*declared.values(), *derived.values()]
        for index, name in enumerate(sorted(nodes_used(objects) | {NODE_NAME})):
            key = ("", "nodes", "", name)
            if key not in declared:
                made = node(name, self._started, index)
                made["metadata"]["uid"] = str(uuid.uuid5(uuid.NAMESPACE_OID, "node/" + name))
                made["metadata"]["resourceVersion"] = self.resource_version
                derived[key] = made
        derived.update(self._reports)
        self._derived = derived
        self._dirty = False

    def objects(self) -> dict[Key, dict[str, Any]]:
        with self.lock:
            self._rebuild()
            if self.reconciler is None:
                merged = {**self._derived, **self._declared()}
            else:
                assert self.clock is not None
                if self._reconciled_at != self.clock.now:  # time moved: pods started, alerts
                    self._reconcile(None)
                made = self._reconciled
                merged = {**self._derived, **made.objects, **self._declared(), **made.observed}
            # the disruption controller: every budget's status follows the pods as read
            with_budget_status(merged)
            return merged

    # -- reacting -----------------------------------------------------------------------------
    def _reconcile(self, write: Write | None) -> None:
        assert self.reconciler is not None and self.clock is not None
        try:
            made = self.reconciler.reconcile(self._declared(), write, self.clock.now)
        except Exception as exc:  # a domain's bug must not take the API server down
            raise ClusterError(
                500, "InternalError", f"the reconciler failed: {type(exc).__name__}: {exc}"
            ) from exc
        if not isinstance(made, Reconciled):
            raise ClusterError(
                500,
                "InternalError",
                f"the reconciler returned {type(made).__name__}, not Reconciled",
            )
        version = self.resource_version
        for obj in [*made.objects.values(), *made.observed.values()]:
            meta = obj.setdefault("metadata", {})
            meta["resourceVersion"] = version
            if not meta.get("uid"):
                meta["uid"] = str(uuid.uuid5(uuid.NAMESPACE_OID, repr(sorted(meta.items()))))
        for key, obj in made.objects.items():
            buried = self._buried.get(key)
            if buried and obj["metadata"]["uid"] in buried:
                # made again after a delete: the n-th incarnation, deterministic and never
                # one of the deleted uids
                reborn = f"{obj['metadata']['uid']}/{len(buried)}"
                obj["metadata"]["uid"] = str(uuid.uuid5(uuid.NAMESPACE_OID, reborn))
        self._reconciled = made
        self._reconciled_at = self.clock.now

    def _reacted(
        self,
        verb: str,
        key: Key,
        before: dict[str, Any] | None,
        after: dict[str, Any] | None,
        derived: bool = False,
    ) -> None:
        """Let the write's time pass (an action takes time), then tell the reconciler."""
        if self.reconciler is None:
            return
        assert self.clock is not None
        self.clock.advance(self.clock.write_step_s)
        self._reconcile(Write(verb, key, before, after, self.clock.now, derived))

    def let_time_pass(self, seconds: float) -> None:
        """Move a reacting cluster's clock (a client waiting on a watch); no-op otherwise."""
        with self.lock:
            if self.reconciler is not None and self.clock is not None:
                self.clock.advance(seconds)
                self._next_version()  # what time changed reaches the watchers as new

    def list(self, rtype: ResourceType, namespace: str | None = None) -> list[dict[str, Any]]:
        with self.lock:
            found = [
                obj
                for (group, plural, ns, _), obj in self.objects().items()
                if group == rtype.group
                and plural == rtype.plural
                and (namespace is None or ns == namespace)
            ]
        return sorted(
            found, key=lambda o: (o["metadata"].get("namespace", ""), o["metadata"]["name"])
        )

    def get(self, rtype: ResourceType, namespace: str, name: str) -> dict[str, Any]:
        key = (rtype.group, rtype.plural, namespace if rtype.namespaced else "", name)
        with self.lock:
            obj = self.objects().get(key)
        if obj is None:
            raise ClusterError(
                404,
                "NotFound",
                f'{rtype.plural}{"." + rtype.group if rtype.group else ""} "{name}" not found',
            )
        return obj

    # -- writing ------------------------------------------------------------------------------
    def _write(self, rtype: ResourceType, key: Key, obj: dict[str, Any] | None) -> None:
        declared_count = len(self._base) + sum(
            1 for k, v in self._overlay.items() if v is not None and k not in self._base
        )
        if (
            obj is not None
            and key not in self._base
            and key not in self._overlay
            and declared_count >= self.max_objects
        ):
            raise ClusterError(422, "Invalid", f"object limit of {self.max_objects} reached")
        size = _entry_bytes(key, obj)
        before = self._entry_sizes.get(key, 0)
        stored = self._stored_bytes - before + size
        if obj is not None and size > before and stored > self.max_stored_bytes:
            # a deletion, or a write that shrinks an object, always passes: it frees room
            raise ClusterError(
                403,
                "Forbidden",
                f'{rtype.plural} "{key[3]}" is forbidden: exceeded quota: {STORED_BYTES_QUOTA}, '
                f"requested: {size - before} bytes, used: {self._stored_bytes} bytes, limited: "
                f"{self.max_stored_bytes} bytes (the offline cluster keeps at most "
                f"{self.max_stored_bytes} bytes of written objects; {STORED_BYTES_VARIABLE} "
                "sets it)",
            )
        self._count_pods(rtype, key, obj)
        self._entry_sizes[key] = size
        self._stored_bytes = stored
        self._overlay[key] = obj
        self._dirty = True
        # Reports follow their inputs and every resource, never other reports (no feedback loop).
        if (rtype.group, rtype.kind) not in self.catalog.report_kinds:
            self._produce_reports(bounded=True)

    def _count_pods(self, rtype: ResourceType, key: Key, obj: dict[str, Any] | None) -> None:
        """Counts the Pods ``obj``'s controller makes in place of ``key``'s, refusing a write that
        takes the cluster past :attr:`max_derived_pods` (a scale down or a deletion passes)."""
        wanted = pod_count(obj) if obj is not None else 0
        before = self._pod_counts.get(key, 0)
        total = self._pods - before + wanted
        if wanted > before and total > self.max_derived_pods:
            raise ClusterError(
                403,
                "Forbidden",
                f'{rtype.plural}{"." + rtype.group if rtype.group else ""} "{key[3]}" is '
                f"forbidden: exceeded quota: {DERIVED_PODS_QUOTA}, requested: pods={wanted}, "
                f"used: pods={self._pods - before}, limited: pods={self.max_derived_pods} (the "
                f"offline cluster's controllers make at most {self.max_derived_pods} Pods; "
                "lower spec.replicas)",
            )
        self._pods = total
        if wanted:
            self._pod_counts[key] = wanted
        else:
            self._pod_counts.pop(key, None)

    def create(
        self, obj: dict[str, Any], namespace: str | None = None, dry_run: bool = False
    ) -> dict[str, Any]:
        """Store a new object; ``dry_run`` checks and returns it without storing it."""
        with self.lock:
            rtype = self.type_of(obj)
            obj = self._normalise(obj, rtype, namespace)
            names.generate_name(obj["metadata"])
            self.refuse(rtype, obj, names.field_errors(rtype.group, rtype.kind, obj["metadata"]))
            # what a real API server refuses on create (a Pod's ephemeral containers)
            self.refuse(rtype, obj, apiserver_rules.create_errors(rtype.group, rtype.kind, obj))
            obj = self._admit(rtype, obj, None, dry_run)
            self.validate(rtype, obj)
            key = self.key(rtype, obj)
            if key in self._declared():
                raise ClusterError(
                    409, "AlreadyExists", f'{rtype.plural} "{key[3]}" already exists'
                )
            if not dry_run:
                self._write(rtype, key, obj)
                self._reacted("create", key, None, obj)
            return obj

    def replace(
        self,
        obj: dict[str, Any],
        namespace: str | None = None,
        dry_run: bool = False,
        subresource: str | None = None,
    ) -> dict[str, Any]:
        """Replace an existing object; ``dry_run`` checks and returns it without storing it;
        ``subresource`` names the one written through (``status``, ``ephemeralcontainers``)."""
        with self.lock:
            rtype = self.type_of(obj)
            key = self.key(
                rtype,
                {
                    "metadata": {
                        **obj.get("metadata", {}),
                        "namespace": namespace
                        or obj.get("metadata", {}).get("namespace")
                        or "default",
                    }
                },
            )
            current = self._declared().get(key)
            if current is None and key[:2] == ("", "nodes"):
                # a node the server made for its Pods is a node like any other: it can be
                # cordoned, labelled or tainted (the write makes it an object of its own)
                self._rebuild()
                current = self._derived.get(key)
            if current is None:
                raise ClusterError(404, "NotFound", f'{rtype.plural} "{key[3]}" not found')
            obj = copy.deepcopy(obj)
            meta = obj.setdefault("metadata", {})
            meta["uid"] = current["metadata"]["uid"]
            meta["creationTimestamp"] = current["metadata"]["creationTimestamp"]
            meta["generation"] = int(current["metadata"].get("generation", 1)) + 1
            obj = self._normalise(obj, rtype, namespace)
            # immutable fields, as a real API server keeps them
            self.refuse(
                rtype,
                obj,
                apiserver_rules.update_errors(rtype.group, rtype.kind, current, obj, subresource),
            )
            obj = self._admit(rtype, obj, current, dry_run)
            self.validate(rtype, obj)
            if not dry_run:
                self._write(rtype, key, obj)
                self._reacted("replace", key, current, obj)
            return obj

    def _admit(
        self,
        rtype: ResourceType,
        obj: dict[str, Any],
        old: dict[str, Any] | None,
        dry_run: bool,
    ) -> dict[str, Any]:
        """Run every extension's admission controller on a write, as the API server calls its
        webhooks: each may patch the object (the next sees the patched one) or deny it."""
        if (rtype.group, rtype.kind) in self.catalog.report_kinds:
            return obj  # reports belong to their producer, as a controller's writes do
        for bound in self.catalog.admissions:
            inputs = tuple(o for o in self._declared().values() if _group_kind(o) in bound.inputs)
            request = AdmissionRequest(
                "UPDATE" if old is not None else "CREATE", obj, old, inputs, dry_run
            )
            try:
                decision = deadline.call(
                    bound.admit, request, seconds=self.admission_seconds, name="admission"
                )
            except deadline.DeadlineExceeded as exc:
                # as the API server answers when a fail-closed webhook does not answer in time
                raise ClusterError(
                    500,
                    "InternalError",
                    f'Internal error occurred: failed calling webhook "{bound.owner}" on '
                    f"{rtype.kind} {obj['metadata']['name']!r}: {exc}",
                ) from None
            except Exception as exc:  # a domain's bug must not take the API server down
                raise ClusterError(
                    500,
                    "InternalError",
                    f"the admission controller of {bound.owner!r} failed on {rtype.kind} "
                    f"{obj['metadata']['name']!r}: {type(exc).__name__}: {exc}",
                ) from exc
            if not isinstance(decision, AdmissionDecision):
                raise ClusterError(
                    500,
                    "InternalError",
                    f"the admission controller of {bound.owner!r} returned "
                    f"{type(decision).__name__}, not AdmissionDecision",
                )
            if not decision.allowed:
                # as the API server words a webhook's denial: no reason, 403 unless it says
                raise ClusterError(403, "", decision.message or "denied by admission")
            if decision.patched is not None:
                obj = self._keep_identity(rtype, obj, decision.patched, bound.owner)
        return obj

    @staticmethod
    def _keep_identity(
        rtype: ResourceType, obj: dict[str, Any], patched: dict[str, Any], owner: str
    ) -> dict[str, Any]:
        """A mutation may change anything but what the object is: kind, name, namespace."""
        before, after = obj["metadata"], (patched.get("metadata") or {})
        same = (
            patched.get("kind") == obj.get("kind")
            and patched.get("apiVersion") == obj.get("apiVersion")
            and after.get("name") == before.get("name")
            and after.get("namespace") == before.get("namespace")
        )
        if not same:
            raise ClusterError(
                500,
                "InternalError",
                f"the admission controller of {owner!r} changed the identity of {rtype.kind} "
                f"{before.get('name')!r} (kind, apiVersion, name and namespace are fixed)",
            )
        return copy.deepcopy(patched)

    def delete(self, rtype: ResourceType, namespace: str, name: str) -> dict[str, Any]:
        with self.lock:
            key = (rtype.group, rtype.plural, namespace if rtype.namespaced else "", name)
            declared = self._declared()
            current = declared.get(key)
            if current is None and self.reconciler is not None:
                return self._delete_derived(rtype, key, declared)
            if current is None:
                raise ClusterError(404, "NotFound", f'{rtype.plural} "{name}" not found')
            self._write(rtype, key, None)
            if key[:2] == ("", "namespaces"):
                # the namespace controller empties a deleted namespace, reconciler or not
                self._empty_namespace(name, declared)
            self._reacted("delete", key, current, None)
            return current

    def _delete_derived(
        self, rtype: ResourceType, key: Key, declared: dict[Key, dict[str, Any]]
    ) -> dict[str, Any]:
        """Delete what a reconciler made: a Pod its ReplicaSet replaces, or a namespace (with
        everything in it, as the namespace controller empties it)."""
        assert self.reconciler is not None
        current = self.objects().get(key)
        if current is None or not (key[:2] == ("", "namespaces") or self.reconciler.owns(key)):
            raise ClusterError(404, "NotFound", f'{rtype.plural} "{key[3]}" not found')
        if key[:2] == ("", "namespaces"):
            self._empty_namespace(key[3], declared)
        uid = (current.get("metadata") or {}).get("uid")
        if uid:
            self._buried.setdefault(key, []).append(str(uid))
        self._reacted("delete", key, current, None, derived=True)
        return current

    def _empty_namespace(self, namespace: str, declared: dict[Key, dict[str, Any]]) -> None:
        for other, obj in declared.items():
            if other[2] == namespace:
                self._write(self.type_of(obj), other, None)

    def overlay(self) -> dict[str, builtins.list[dict[str, Any]]]:
        """The writes made through the API: objects created or changed, and keys deleted."""
        with self.lock:
            return {
                "applied": [copy.deepcopy(v) for v in self._overlay.values() if v is not None],
                "deleted": [_deleted_entry(k) for k, v in self._overlay.items() if v is None],
            }

    def overlay_text(self) -> str:
        """:meth:`overlay` as compact JSON: at most the stored-bytes budget and a few bytes of
        frame (each entry weighs what it takes here)."""
        return json.dumps(self.overlay(), separators=(",", ":"), default=str) + "\n"

    # -- reports ------------------------------------------------------------------------------
    def _produce_reports(self, bounded: bool = False) -> None:
        """Every producer's reports over the declared objects; ``bounded`` (a rescan after a
        write, where the agent's policies take part) stops a producer after report_seconds."""
        producers = self.catalog.producers
        if not producers:
            return
        declared = self._declared()
        self._dirty = True
        self._reports = {}
        self._rebuild()
        consumed = self.catalog.input_kinds | self.catalog.report_kinds
        everything = {**self._derived, **declared}.values()
        resources = [o for o in everything if _group_kind(o) not in consumed]
        reports: dict[Key, dict[str, Any]] = {}
        for producer in producers:
            inputs = [o for o in declared.values() if _group_kind(o) in producer.inputs]
            if not inputs:
                continue
            try:
                if bounded:
                    produced = deadline.call(
                        lambda i=inputs, p=producer: list(p.produce(i, resources)),
                        seconds=self.report_seconds,
                        name="reports",
                    )
                else:
                    produced = list(producer.produce(inputs, resources))
            except deadline.DeadlineExceeded as exc:
                self.report_errors.append(f"{producer.owner}: background scan stopped: {exc}")
                continue
            except Exception as exc:  # a producer's bug must not take the API server down
                self.report_errors.append(f"{producer.owner}: {type(exc).__name__}: {exc}")
                continue
            for report in produced:
                if not isinstance(report, dict) or _group_kind(report) not in producer.outputs:
                    what = _group_kind(report) if isinstance(report, dict) else type(report)
                    self.report_errors.append(
                        f"{producer.owner}: the report producer returned {what}, "
                        "which is not among its report_outputs"
                    )
                    continue
                rtype = self.type_of(report)
                report = self._normalise(report, rtype)
                reports[self.key(rtype, report)] = report
        self._reports = reports
        self._dirty = True


def _group_kind(obj: dict[str, Any]) -> tuple[str, str]:
    return (_group(str(obj.get("apiVersion", ""))), str(obj.get("kind", "")))
