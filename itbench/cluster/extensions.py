"""What a domain adds to the offline cluster: its API types, their columns, their validation and the
reports derived from them.

Core serves the built-in Kubernetes kinds and knows nothing else. A domain that needs custom
resources (policies an agent deploys, reports a background controller writes) describes them in one
:class:`ClusterExtension` and hands it over through its ``Domain.cluster_extension`` hook, or a
caller passes extensions to ``start_cluster(extensions=[...])`` directly.

:func:`combine` checks a set of extensions against core and each other once, up front, so a clash
(two domains claiming one kind) is an error naming both instead of one silently shadowing the other.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from itbench.cluster.resources import BUILTIN_TYPES, Registry, ResourceType
from itbench.cluster.tables import BUILTIN_COLUMNS, DEFAULT_COLUMNS, Column
from itbench.errors import UsageError

if TYPE_CHECKING:
    from itbench.plugins.domains import LoadedDomain

__all__ = [
    "Admission",
    "AdmissionDecision",
    "AdmissionRequest",
    "ClusterExtension",
    "Column",
    "GroupKind",
    "ReportProducer",
    "ResourceType",
    "Validator",
    "combine",
    "domain_extensions",
    "extension_hooks",
    "extensions_from_hooks",
]

GroupKind = tuple[str, str]  # (API group, kind); "" is the core group

#: (the report inputs, every other object) -> report objects, as a background controller writes.
ReportProducer = Callable[
    [Sequence[dict[str, Any]], Sequence[dict[str, Any]]], Sequence[dict[str, Any]]
]

#: An object as sent by a client -> what is wrong with it (empty when it is acceptable). Messages
#: read as an API server's field errors: ``spec.rules[0].name: Required value``.
Validator = Callable[[dict[str, Any]], Sequence[str]]


#: Who every request to the offline cluster comes from: it has no authentication and no RBAC, so
#: one administrator (``kubectl auth whoami`` names it; admission webhooks see it).
OFFLINE_USER: Mapping[str, Any] = {
    "username": "itbench-offline",
    "groups": ["system:masters", "system:authenticated"],
}


@dataclass(frozen=True)
class AdmissionRequest:
    """One write on its way into the cluster, as an admission webhook is shown it."""

    #: ``CREATE`` or ``UPDATE`` (a replace or any patch)
    operation: str
    #: the object as it would be stored (namespace defaulted, metadata filled in)
    object: dict[str, Any]
    #: the stored object an update replaces; None on create
    old_object: dict[str, Any] | None
    #: the cluster's objects of the extension's ``admission_inputs`` kinds (its policies, say)
    inputs: tuple[dict[str, Any], ...]
    dry_run: bool = False
    #: the requesting user (``username``, ``groups``): the offline cluster's one user
    user: Mapping[str, Any] = field(default_factory=lambda: OFFLINE_USER)


@dataclass(frozen=True)
class AdmissionDecision:
    """What an admission controller decided: admit (maybe patched) or deny with a message."""

    allowed: bool = True
    #: on denial, the whole message the API server answers with (kubectl prints it as is)
    message: str = ""
    #: the object to store instead of the request's (a mutation); None keeps it unchanged
    patched: dict[str, Any] | None = None


#: Called for every object created, replaced or patched through the API (dry runs included),
#: before schema validation; never for the loaded manifests or for reports.
Admission = Callable[[AdmissionRequest], AdmissionDecision]


@dataclass(frozen=True)
class ClusterExtension:
    """The API types one domain serves, and what the server does with them."""

    #: Who provides it (a domain name): error messages name it.
    name: str
    types: tuple[ResourceType, ...] = ()
    #: Table columns per kind for plain ``kubectl get`` (a CRD's ``additionalPrinterColumns``).
    columns: Mapping[str, tuple[Column, ...]] = field(default_factory=dict)
    #: Schema checks per (group, kind): a create, replace or patch whose result the validator
    #: refuses fails with a 422 ``Invalid`` Status listing the messages.
    validators: Mapping[GroupKind, Validator] = field(default_factory=dict)
    #: Recomputes the reports whenever an input or any other object changes.
    report_producer: ReportProducer | None = None
    #: The kinds whose objects the producer reads as its first argument (policies, say).
    report_inputs: frozenset[GroupKind] = frozenset()
    #: The kinds the producer writes; they are never inputs to a producer.
    report_outputs: frozenset[GroupKind] = frozenset()
    #: An admission controller (mutating and validating webhook in one) for every write.
    admission: Admission | None = None
    #: The kinds whose current objects each admission request carries in ``inputs``.
    admission_inputs: frozenset[GroupKind] = frozenset()

    def replace_producer(self, producer: ReportProducer) -> ClusterExtension:
        """This extension with another producer of the same reports (``--report-producer``)."""
        return replace(self, report_producer=producer)


@dataclass(frozen=True)
class BoundAdmission:
    """An extension's admission controller with the kinds it reads, and whose it is."""

    owner: str
    admit: Admission
    inputs: frozenset[GroupKind]


@dataclass(frozen=True)
class BoundProducer:
    """A report producer with the kinds it reads and writes, and whose it is."""

    owner: str
    produce: ReportProducer
    inputs: frozenset[GroupKind]
    outputs: frozenset[GroupKind]


@dataclass(frozen=True)
class Catalog:
    """Core's kinds plus every extension's, checked against each other: what one server serves."""

    registry: Registry
    columns: Mapping[GroupKind, tuple[Column, ...]]
    validators: Mapping[GroupKind, tuple[str, Validator]]
    producers: tuple[BoundProducer, ...]
    admissions: tuple[BoundAdmission, ...] = ()

    def columns_of(self, rtype: ResourceType) -> tuple[Column, ...]:
        return self.columns.get((rtype.group, rtype.kind), DEFAULT_COLUMNS)

    @property
    def report_kinds(self) -> frozenset[GroupKind]:
        return frozenset().union(*(p.outputs for p in self.producers))

    @property
    def input_kinds(self) -> frozenset[GroupKind]:
        return frozenset().union(*(p.inputs for p in self.producers))


def combine(
    extensions: Sequence[ClusterExtension], report_producer: ReportProducer | None = None
) -> Catalog:
    """One catalog from core and ``extensions``; ``report_producer`` replaces the producer of
    every extension that declares report inputs (a test's stand-in, or ``--report-producer``)."""
    owner: dict[GroupKind, str] = {(t.group, t.kind): "core" for t in BUILTIN_TYPES}
    plurals: dict[tuple[str, str], str] = {(t.group, t.plural): "core" for t in BUILTIN_TYPES}
    types: list[ResourceType] = list(BUILTIN_TYPES)
    columns: dict[GroupKind, tuple[Column, ...]] = {
        (t.group, t.kind): tuple(BUILTIN_COLUMNS[t.kind])
        for t in BUILTIN_TYPES
        if t.kind in BUILTIN_COLUMNS
    }
    validators: dict[GroupKind, tuple[str, Validator]] = {}
    producers: list[BoundProducer] = []
    admissions: list[BoundAdmission] = []
    if report_producer is not None:
        if not any(ext.report_inputs for ext in extensions):
            served = ", ".join(ext.name for ext in extensions) or "none"
            raise UsageError(
                "a report producer needs an extension that declares its input kinds "
                f"(extensions loaded: {served})"
            )
        extensions = [
            ext.replace_producer(report_producer) if ext.report_inputs else ext
            for ext in extensions
        ]
    for ext in extensions:
        for t in ext.types:
            gk = (t.group, t.kind)
            if gk in owner:
                raise UsageError(
                    f"cluster extension {ext.name!r}: kind {t.kind} in group {t.group!r} is "
                    f"already served by {owner[gk]!r}"
                )
            if (t.group, t.plural) in plurals:
                raise UsageError(
                    f"cluster extension {ext.name!r}: resource {t.plural} in group {t.group!r} "
                    f"is already served by {plurals[(t.group, t.plural)]!r}"
                )
            owner[gk] = plurals[(t.group, t.plural)] = ext.name
            types.append(t)
        own = {t.kind: t for t in ext.types}
        for kind, cols in ext.columns.items():
            if kind not in own:
                raise UsageError(
                    f"cluster extension {ext.name!r}: columns for kind {kind!r}, "
                    "which it does not serve"
                )
            columns[(own[kind].group, kind)] = tuple(cols)
        for gk, validator in ext.validators.items():
            if gk not in owner:
                raise UsageError(
                    f"cluster extension {ext.name!r}: validator for {gk[1]} in group {gk[0]!r}, "
                    "which no one serves"
                )
            if gk in validators:
                raise UsageError(
                    f"cluster extension {ext.name!r}: {gk[1]} in group {gk[0]!r} is already "
                    f"validated by {validators[gk][0]!r}"
                )
            validators[gk] = (ext.name, validator)
        for gk in ext.report_inputs | ext.report_outputs:
            if gk not in owner:
                raise UsageError(
                    f"cluster extension {ext.name!r}: report kind {gk[1]} in group {gk[0]!r} "
                    "is not served"
                )
        if ext.report_producer is not None:
            if not ext.report_inputs or not ext.report_outputs:
                raise UsageError(
                    f"cluster extension {ext.name!r}: a report producer needs report_inputs and "
                    "report_outputs"
                )
            producers.append(
                BoundProducer(ext.name, ext.report_producer, ext.report_inputs, ext.report_outputs)
            )
        for gk in ext.admission_inputs:
            if gk not in owner:
                raise UsageError(
                    f"cluster extension {ext.name!r}: admission input {gk[1]} in group "
                    f"{gk[0]!r} is not served"
                )
        if ext.admission is not None:
            admissions.append(BoundAdmission(ext.name, ext.admission, ext.admission_inputs))
    return Catalog(Registry(types), columns, validators, tuple(producers), tuple(admissions))


def _installed_domains() -> tuple[LoadedDomain, ...]:
    """The installed domains, discovered once (a runner's worker asks for the extensions two or
    three times per cluster trial: the agent's cluster, the fetch driver's hooks)."""
    from itbench.plugins.domains import installed_domains

    return installed_domains()


def domain_extensions() -> list[ClusterExtension]:
    """The cluster extensions of every installed domain that loads; a domain that fails to load
    or to build its extension is skipped with one warning on stderr, as everywhere else. Each
    call builds them afresh, from the domains discovered once per process."""
    out: list[ClusterExtension] = []
    for loaded in _installed_domains():
        hook = loaded.domain.cluster_extension
        if hook is None:
            continue
        try:
            extension = hook()
        except Exception as exc:  # a domain's bug must cost that domain only
            print(
                f"warning: domain {loaded.domain.name!r} ({loaded.record.provider}): its cluster "
                f"extension failed to build: {type(exc).__name__}: {exc}",
                file=sys.stderr,
            )
            continue
        if not isinstance(extension, ClusterExtension):
            print(
                f"warning: domain {loaded.domain.name!r}: cluster_extension gave "
                f"{type(extension).__name__}, not ClusterExtension",
                file=sys.stderr,
            )
            continue
        out.append(extension)
    return out


#: One domain's cluster-extension hook, named so that another process can build the extension
#: without loading every domain plugin: (the domain's name, ``"module:attr"``).
NamedExtensionHook = tuple[str, str]


def extension_hooks() -> tuple[NamedExtensionHook, ...] | None:
    """Every installed domain's cluster-extension hook by name, in the order
    :func:`domain_extensions` builds them; None when one domain's hook is not a named one (then
    only :func:`domain_extensions` rebuilds the same set).

    A sandboxed process that serves the offline cluster (a fetcher's trial) builds the same
    extensions from these names with :func:`extensions_from_hooks`, importing only the modules
    that define them instead of every domain plugin and all it imports at the top: about a
    tenth of a second of CPU per sandbox."""
    from itbench.plugins.hooks import Hook

    named: list[NamedExtensionHook] = []
    for loaded in _installed_domains():
        hook = loaded.domain.cluster_extension
        if hook is None:
            continue
        if not isinstance(hook, Hook):
            return None
        named.append((loaded.domain.name, hook.target))
    return tuple(named)


def extensions_from_hooks(hooks: Sequence[NamedExtensionHook]) -> list[ClusterExtension]:
    """The extensions the named hooks build, in order; one that fails to import or build is
    skipped with one warning on stderr, as :func:`domain_extensions` skips it."""
    import importlib

    out: list[ClusterExtension] = []
    for domain, target in hooks:
        module_name, _, attribute = target.partition(":")
        try:
            found: Any = importlib.import_module(module_name)
            for part in attribute.split("."):
                found = getattr(found, part)
            extension = found()
        except Exception as exc:  # a domain's bug must cost that domain only
            print(
                f"warning: domain {domain!r}: its cluster extension ({target}) failed to build: "
                f"{type(exc).__name__}: {exc}",
                file=sys.stderr,
            )
            continue
        if not isinstance(extension, ClusterExtension):
            print(
                f"warning: domain {domain!r}: cluster_extension gave "
                f"{type(extension).__name__}, not ClusterExtension",
                file=sys.stderr,
            )
            continue
        out.append(extension)
    return out
