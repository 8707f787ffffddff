"""What crosses the Kyverno engine's boundary: the context a run is given (the test's values,
namespace labels, the user, objects and exceptions), the request one rule is evaluated for, its
outcome, and the result reported per (policy, rule, resource)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, NamedTuple

from ciso.engines.kyverno.matching import Facts


class RuleStatus(StrEnum):
    """A rule's status on one resource, as Kyverno's engine responses and PolicyReports name
    it (``warn`` only appears in reports, for failures of unscored policies)."""

    PASS = "pass"
    FAIL = "fail"
    SKIP = "skip"
    ERROR = "error"
    WARN = "warn"


# RuleOutcome and RuleRequest are immutable NamedTuples rather than frozen dataclasses: one of
# each is built per (policy, rule, resource), and a frozen dataclass's __init__ costs about 1 us
# more, which was 8% of the pod-security throughput benchmark.


class RuleOutcome(NamedTuple):
    """What one rule decided about one resource."""

    status: RuleStatus
    message: str
    #: for a mutate rule, the resource after it
    patched: dict[str, Any] | None = None
    #: for a generate rule, the objects it would create
    generated: tuple[dict[str, Any], ...] | None = None
    #: for a rule that mutates existing resources: (target, its own outcome) per target; the
    #: responses are the targets', not the trigger's
    targets: tuple[tuple[dict[str, Any], RuleOutcome], ...] | None = None


@dataclass(frozen=True)
class RuleResult:
    policy: str  # "name", or "namespace/name" for a namespaced Policy
    rule: str
    kind: str
    namespace: str
    name: str
    #: a RuleStatus value, kept a plain string: results are written out as YAML and JSON
    status: str
    message: str
    rule_type: str = "Validation"
    #: for a mutate rule, the resource after it (and the policy's earlier mutate rules)
    patched: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    #: for a generate rule, the objects it would create
    generated: tuple[dict[str, Any], ...] | None = field(default=None, compare=False, repr=False)


@dataclass
class Context:
    """Everything a run knows besides the policies and resources: the test's values file (global,
    per rule, per resource), the admission request's facts (user, roles, operation, namespace
    labels), the objects a cluster would hold (ConfigMaps for context entries, objects to clone),
    the PolicyExceptions in force and the answers to apiCall entries. A runner fills it before
    ``apply``; the engine only reads it."""

    #: ``globalValues`` of the values file, keyed by variable name
    global_values: dict[str, Any] = field(default_factory=dict)
    #: per (policy id, rule name): the values file's rule values
    rule_values: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    #: per (policy id, resource name): the values file's resource values
    resource_values: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    #: the admission request: user, roles, default operation, namespace labels
    facts: Facts = field(default_factory=Facts)
    #: Objects a ``configMap`` context entry may read (the Kyverno CLI reads them from the test's
    #: resources, as the cluster would).
    config_maps: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    #: Objects a generate rule may clone (the test's resources, as the cluster would hold them).
    objects: list[dict[str, Any]] = field(default_factory=list)
    #: Existing objects a mutate rule's ``targets`` (a MutatingPolicy's
    #: ``targetMatchConstraints``) select: a Test's ``targetResources``.
    targets: list[dict[str, Any]] = field(default_factory=list)
    #: Per (policy id, rule name): the objects a test result's ``cloneSourceResource`` file holds,
    #: which that generate rule may clone besides the test's resources.
    clone_sources: dict[tuple[str, str], list[dict[str, Any]]] = field(default_factory=dict)
    #: PolicyExceptions in force.
    exceptions: list[dict[str, Any]] = field(default_factory=list)
    #: An admission operation that wins over the values file (a test result's ``operation``).
    operation: str | None = None
    #: The objects ``apiCall`` urlPaths are answered from (a Test with ``clusterResources``: its
    #: resources, targets, parameters and cluster resources, as the CLI's fake client holds
    #: them); None: no API server, as the CLI without clusterResources.
    api_objects: list[dict[str, Any]] | None = None
    #: Answers to apiCall context entries (a test's ``apiCallResponses``), keyed by
    #: ``METHOD:url`` or ``url``: (status code, body).
    api_responses: dict[str, tuple[int, Any]] = field(default_factory=dict)
    #: The data of GlobalContextEntry objects (a test's ``globalContextEntries``), by entry name.
    global_context: dict[str, Any] = field(default_factory=dict)
    #: The test's Kyverno CLI ``context`` file (``spec``: ``resources``, ``images``), which the
    #: CEL libraries (``resource.Get``, ``image.GetMetadata``) answer from.
    cel_context: dict[str, Any] = field(default_factory=dict)
    #: The test's ``paramResources``: the parameter objects a ValidatingAdmissionPolicyBinding's
    #: ``paramRef`` selects from.
    params: list[dict[str, Any]] = field(default_factory=list)
    #: Every document of the policy files (``apply`` sets it): the objects policies refer to,
    #: such as the bindings of a ValidatingAdmissionPolicy.
    policy_documents: list[dict[str, Any]] = field(default_factory=list)


def policy_id(policy: dict[str, Any]) -> str:
    """A policy's name, ``namespace/name`` for a namespaced Policy (as Kyverno keys them)."""
    meta = policy.get("metadata") or {}
    if policy.get("kind") == "Policy" and meta.get("namespace"):
        return f"{meta['namespace']}/{meta['name']}"
    return meta.get("name", "")


class RuleRequest(NamedTuple):
    """One rule to evaluate on one resource: built once per (policy, rule, resource) and handed
    to the rule type's handler whole."""

    policy: dict[str, Any]
    rule: dict[str, Any]
    resource: dict[str, Any]
    ctx: Context
    operation: str = "CREATE"

    @property
    def policy_id(self) -> str:
        return policy_id(self.policy)

    @property
    def rule_name(self) -> str:
        return self.rule["name"]

    @property
    def deleting(self) -> bool:
        return self.operation == "DELETE"

    def facts(self) -> Facts:
        """The run's admission facts with this request's operation."""
        facts = self.ctx.facts
        if facts.operation == self.operation:
            return facts
        return replace(facts, operation=self.operation)

    def with_operation(self, operation: str) -> RuleRequest:
        return self._replace(operation=operation)
