"""A CISO scenario as the benchmark sees it, whatever layout it was read from.

One scenario directory (our format, an ITBench live bundle or an ITBench-Lite ``opa-static``
directory) expands into one :class:`CisoScenario` per class it offers. Everything here is hidden
from agents except what :func:`ciso.scenarios.public` chooses to expose (the requirement text and,
for ``opa-static``, the static resources): the compliant environment, the violating resources and
the solution are ground truth.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any


class ScenarioClass(StrEnum):
    """The CISO classes: ITBench's five, spelled as ITBench spells them, and ``kyverno-migrate``
    (the same control in another policy dialect)."""

    KYVERNO = "kyverno"
    KUBECTL_OPA = "kubectl-opa"
    OPA_STATIC = "opa-static"
    RHEL9_ANSIBLE_OPA = "rhel9-ansible-opa"
    KYVERNO_UPDATE = "kyverno-update"
    KYVERNO_MIGRATE = "kyverno-migrate"


class Platform(StrEnum):
    KUBERNETES = "kubernetes"
    RHEL9 = "rhel9"


#: Which platform each class runs on.
CLASS_PLATFORM: Mapping[ScenarioClass, Platform] = {
    ScenarioClass.KYVERNO: Platform.KUBERNETES,
    ScenarioClass.KUBECTL_OPA: Platform.KUBERNETES,
    ScenarioClass.OPA_STATIC: Platform.KUBERNETES,
    ScenarioClass.KYVERNO_UPDATE: Platform.KUBERNETES,
    ScenarioClass.RHEL9_ANSIBLE_OPA: Platform.RHEL9,
    ScenarioClass.KYVERNO_MIGRATE: Platform.KUBERNETES,
}


@dataclass(frozen=True, order=True)
class ResourceRef:
    """One violating resource: ``Kind/namespace/name`` (cluster-scoped ``Kind//name``); on RHEL
    ``<config>//<setting>`` (``sshd//MaxAuthTries``), where ``kind`` is the config file family and
    the setting may be a path (``file///etc/ssh/ssh_host_ed25519_key``): everything after the
    second ``/`` is the name."""

    kind: str
    namespace: str
    name: str

    @classmethod
    def parse(cls, text: str) -> ResourceRef:
        parts = text.split("/", 2)
        if len(parts) != 3 or not parts[0] or not parts[2]:
            raise ValueError(f"{text!r} is not Kind/namespace/name (cluster-scoped: Kind//name)")
        return cls(parts[0], parts[1], parts[2])

    def __str__(self) -> str:
        return f"{self.kind}/{self.namespace}/{self.name}"


@dataclass(frozen=True)
class UpdateSpec:
    """What a ``kyverno-update`` scenario checks (ITBench's ``eval_config.yaml``), and the policies
    already deployed that the agent must edit in place."""

    existing_policies: tuple[Path, ...]
    #: ``check_violations`` entries as ITBench writes them (policy_name, resource, expected_result,
    #: strict_check, ignore_policies).
    check_violations: tuple[Mapping[str, Any], ...]
    #: Names of the policies whose rules must stay unchanged.
    unchanged_policies: tuple[str, ...]


@dataclass(frozen=True)
class CisoScenario:
    """One benchmark scenario: one requirement, one class, its two environments and its truth."""

    #: Benchmark id: ``<base_id>.<class>`` (e.g. ``cis-k8s-5.2.5-host-network.kyverno``).
    id: str
    #: The scenario directory's id (shared by the classes it expands into).
    base_id: str
    scenario_class: ScenarioClass
    platform: Platform
    #: The requirement the agent gets, phrased as an operator would ask.
    requirement: str
    #: kubernetes: a directory of manifests; rhel9: a host tree (a file tree rooted at /).
    violating: Path
    #: Same shape; ``None`` when the source has none (some ITBench live bundles).
    compliant: Path | None
    violating_resources: tuple[ResourceRef, ...] = ()
    cis_id: str | None = None
    #: Reference answer for the oracle: workspace file name -> source file.
    solution: Mapping[str, Path] = field(default_factory=dict)
    #: Where it was read from, and in which layout.
    source: Path | None = None
    origin: str = "itbench-ciso"
    #: Hidden from agents.
    notes: str = ""
    #: Facts about how the scenario was built (e.g. an environment derived from a bundle's
    #: injection description); shown in ``itbench ciso scenarios``.
    metadata: Mapping[str, Any] = field(default_factory=dict)
    update: UpdateSpec | None = None
    #: ``kyverno-migrate``: the working policy in the source dialect the agent is given.
    migration_source: Path | None = None
    #: ``kyverno-migrate``: the dialect the answer must be in (``migrate_to``); None: the
    #: source dialect's default (see ``ciso.scenarios.dialects.TARGETS``).
    migration_target: str | None = None
