"""Kyverno's ``GeneratingPolicy`` (and ``NamespacedGeneratingPolicy``), as the Kyverno CLI runs
one on a trigger resource: matched by ``matchConstraints``; ``variables`` are bound and
``matchConditions`` evaluated (any false gives a ``skip``); then each ``generate`` entry in
order: an expression whose ``generator.Apply(namespace, objects)`` calls record the objects the
policy would create (``libraries.generator``), or a YAML ``template`` (``gpol_template``). A matched policy gives one rule response with an empty rule
name: ``pass`` carrying the generated objects, ``skip`` or ``error``. ``evaluation``
(synchronize, generateExisting, orphanDownstreamOnPolicyDelete) is about a live cluster's
later events and changes nothing offline."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ciso.engines.kyverno.cel import bindings as cel_bindings
from ciso.engines.kyverno.cel import gpol_template, matching, policy_exceptions, spec_shape, vpol
from ciso.engines.kyverno.cel.libraries.environment import using
from ciso.engines.kyverno.cel.libraries.generator import collecting
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.model import Context, RuleOutcome, RuleStatus

KINDS = ("GeneratingPolicy", "NamespacedGeneratingPolicy")
RULE_NAME = ""


def evaluate_spec(
    spec: dict[str, Any],
    resource: dict[str, Any],
    ctx: Context,
    operation: str,
    policy_namespace: str = "",
    policy: dict[str, Any] | None = None,
) -> RuleOutcome:
    bound = cel_bindings.admission(resource, ctx, operation)
    bound = cel_bindings.with_variables(bound, spec.get("variables"), ("spec", "variables"))
    if not vpol.conditions_hold(spec, bound):
        return RuleOutcome(RuleStatus.SKIP, "skip: match conditions not met")
    excepted = policy_exceptions.covering(policy, bound, ctx) if policy is not None else None
    if excepted:
        return policy_exceptions.skip(excepted)
    with collecting() as made:
        for index, entry in enumerate(spec.get("generate") or []):
            where = ("spec", "generate", index)
            problem = _entry_problem(entry)
            if problem:
                raise RuleError(problem).at(*where)
            if "template" in entry:
                objects = gpol_template.render(entry["template"], bound, (*where, "template"))
                gpol_template.create(objects, policy_namespace, (*where, "template"))
            else:
                cel_bindings.run(entry["expression"], bound, (*where, "expression"))
    names = ", ".join(f"{g.get('kind')}/{(g.get('metadata') or {}).get('name', '')}" for g in made)
    message = f"created {names}" if names else "nothing to generate"
    return RuleOutcome(RuleStatus.PASS, message, generated=tuple(made))


def outcomes(
    policy: dict[str, Any], resource: dict[str, Any], ctx: Context, operation: str
) -> Iterator[RuleOutcome]:
    """The rule response of ``policy`` on the trigger ``resource``, if it matches."""
    if not matching.in_policy_scope(policy, resource) or operation == "DELETE":
        return
    spec = policy.get("spec") or {}
    request = matching.admission_of(
        resource, operation, vpol.namespace_labels(resource, ctx), ctx.facts.subresources
    )
    if not matching.matches(spec.get("matchConstraints"), request):
        return
    with using(vpol.environment(ctx)):
        try:
            namespace = (policy.get("metadata") or {}).get("namespace") or ""
            if policy.get("kind") != "NamespacedGeneratingPolicy":
                namespace = ""
            yield evaluate_spec(spec, resource, ctx, operation, namespace, policy)
        except RuleError as exc:
            yield RuleOutcome(RuleStatus.ERROR, str(exc))


def _entry_problem(entry: Any) -> str | None:
    """Why a ``generate`` entry cannot run: it needs one of ``expression`` and ``template``."""
    if not isinstance(entry, dict):
        return "must be a map with an expression or a template"
    if "expression" in entry and "template" in entry:
        return "only one of expression or template may be set"
    if "template" in entry:
        return None
    if not isinstance(entry.get("expression"), str):
        return "one of expression or template must be set"
    return None


def check_structure(policy: dict[str, Any]) -> list[str]:
    """What makes a GeneratingPolicy unusable, each naming its field."""

    def entry(index: int, value: Any) -> str | None:
        problem = _entry_problem(value)
        return f"spec.generate[{index}]: {problem}" if problem else None

    return spec_shape.problems(policy, "generate", ("variables", "matchConditions"), entry)
