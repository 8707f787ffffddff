"""What crosses the Kyverno engine's boundary: one rule result, and the context a run is
given (the test's values, namespace labels, the user, objects and exceptions)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ciso.engines.kyverno.matching import Facts


@dataclass(frozen=True)
class RuleResult:
    policy: str  # "name", or "namespace/name" for a namespaced Policy
    rule: str
    kind: str
    namespace: str
    name: str
    status: str
    message: str
    rule_type: str = "Validation"
    #: for a mutate rule, the resource after it (and the policy's earlier mutate rules)
    patched: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    #: for a generate rule, the objects it would create
    generated: tuple[dict[str, Any], ...] | None = field(default=None, compare=False, repr=False)


@dataclass
class Context:
    """Values a rule's variables may read besides the resource (from a test's values file)."""

    global_values: dict[str, Any] = field(default_factory=dict)
    rule_values: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    resource_values: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    facts: Facts = field(default_factory=Facts)
    #: Objects a ``configMap`` context entry may read (the Kyverno CLI reads them from the test's
    #: resources, as the cluster would).
    config_maps: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    #: Objects a generate rule may clone (the test's resources, as the cluster would hold them).
    objects: list[dict[str, Any]] = field(default_factory=list)
    #: PolicyExceptions in force.
    exceptions: list[dict[str, Any]] = field(default_factory=list)
    #: An admission operation that wins over the values file (a test result's ``operation``).
    operation: str | None = None
    #: Answers to apiCall context entries (a test's ``apiCallResponses``), keyed by
    #: ``METHOD:url`` or ``url``: (status code, body).
    api_responses: dict[str, tuple[int, Any]] = field(default_factory=dict)


def policy_id(policy: dict[str, Any]) -> str:
    """A policy's name, ``namespace/name`` for a namespaced Policy (as Kyverno keys them)."""
    meta = policy.get("metadata") or {}
    if policy.get("kind") == "Policy" and meta.get("namespace"):
        return f"{meta['namespace']}/{meta['name']}"
    return meta.get("name", "")
