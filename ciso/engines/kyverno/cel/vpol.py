"""Kyverno's ``ValidatingPolicy`` (and ``NamespacedValidatingPolicy``), as the Kyverno CLI runs
one on a resource: the policy and each of its autogen variants are matched by their
``matchConstraints``; a match evaluates ``matchConditions`` (all true, else a ``skip``),
``variables``, then ``validations`` in order, stopping at the first that fails (its
``messageExpression``, else its ``message``, else "CEL expression validation failed at index
N"); ``auditAnnotations`` are evaluated on the way. Each matched policy gives one rule response
with an empty rule name (these kinds have no rules): ``pass``, ``fail``, ``skip`` or ``error``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ciso.engines.kyverno.cel import autogen, matching, policy_exceptions, spec_shape
from ciso.engines.kyverno.cel import bindings as cel_bindings
from ciso.engines.kyverno.cel.libraries.environment import Environment, using
from ciso.engines.kyverno.cel.match_conditions import conditions_hold
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.model import Context, RuleOutcome, RuleStatus

KINDS = ("ValidatingPolicy", "NamespacedValidatingPolicy")
#: the rule name Kyverno's responses give these ruleless kinds
RULE_NAME = ""
CONTROLLER_KINDS = frozenset(c[3] for c in autogen.CONTROLLERS.values())


@dataclass(frozen=True, slots=True)
class Variant:
    """The policy's own spec, or one autogen variant of it."""

    name: str  # "" for the policy itself, else "defaults"/"cronjobs"
    spec: dict[str, Any]


#: autogen variants per policy object (by identity, the object kept to check it): rewriting a
#: policy for the pod controllers was half the time of evaluating it on a resource
_VARIANTS: dict[int, tuple[dict[str, Any], list[Variant]]] = {}


def variants(policy: dict[str, Any]) -> list[Variant]:
    """The policy's own spec and its autogen variants (policies are not changed while they are
    applied, so the variants of one policy object are computed once)."""
    cached = _VARIANTS.get(id(policy))
    if cached is not None and cached[0] is policy:
        return cached[1]
    spec = policy.get("spec") or {}
    own = [Variant("", spec)]
    found = own + [Variant(v.name, v.spec) for v in autogen.variants(spec)]
    if len(_VARIANTS) > 1024:
        _VARIANTS.clear()
    _VARIANTS[id(policy)] = (policy, found)
    return found


def environment(ctx: Context) -> Environment:
    """The libraries' view of the run: the context file's data, then the test's resources and
    target resources."""
    data = ctx.cel_context or {}
    return Environment(
        objects=tuple(data.get("resources") or ()) + tuple(ctx.objects) + tuple(ctx.targets),
        images={str(i.get("image")): i for i in data.get("images") or () if isinstance(i, dict)},
        global_context={**(data.get("globalContext") or {}), **ctx.global_context},
        http=ctx.api_responses,
    )


def namespace_labels(resource: dict[str, Any], ctx: Context) -> Mapping[str, str] | None:
    namespace = (resource.get("metadata") or {}).get("namespace")
    if not namespace:
        return None
    if namespace in ctx.facts.namespace_labels:
        return ctx.facts.namespace_labels[namespace]
    for candidate in [*(ctx.cel_context.get("namespaces") or ()), *ctx.objects]:
        meta = candidate.get("metadata") or {}
        if candidate.get("kind") == "Namespace" and meta.get("name") == namespace:
            return meta.get("labels") or {}
    return {}


def audit_annotations(spec: dict[str, Any], bound: dict[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    for index, entry in enumerate(spec.get("auditAnnotations") or []):
        where = ("spec", "auditAnnotations", index, "valueExpression")
        if not isinstance(entry, dict) or not entry.get("key"):
            raise RuleError("an audit annotation needs a key and a valueExpression").at(*where)
        value = cel_bindings.run(str(entry.get("valueExpression", "")), bound, where)
        if value is None:
            continue
        if not isinstance(value, str):
            raise RuleError(f"expected a string, got {value!r}").at(*where)
        if value:
            out[str(entry["key"])] = value
    return out


def failure_message(entry: dict[str, Any], index: int, bound: dict[str, Any]) -> str:
    """As Kyverno: a messageExpression wins (its failure is the message), then the message."""
    message = str(entry.get("message") or "")
    if entry.get("messageExpression"):
        where = ("spec", "validations", index, "messageExpression")
        try:
            value = cel_bindings.run(str(entry["messageExpression"]), bound, where)
        except RuleError as exc:
            message = f"failed to evaluate message expression: {exc.message}"
        else:
            message = (
                value
                if isinstance(value, str)
                else f"failed to convert message expression to string: got {value!r}"
            )
    return message.strip() or f"CEL expression validation failed at index {index}"


def evaluate_spec(
    spec: dict[str, Any],
    resource: dict[str, Any],
    ctx: Context,
    operation: str,
    policy: Mapping[str, Any] | None = None,
) -> RuleOutcome:
    """One matched (variant of a) policy on one resource; ``policy``, when given, is what CEL
    PolicyExceptions name."""
    bound = cel_bindings.admission(resource, ctx, operation)
    if not conditions_hold(spec, bound):
        return RuleOutcome(RuleStatus.SKIP, "skip: match conditions not met")
    return _judged(spec, bound, ctx, policy)


def _judged(
    spec: dict[str, Any], bound: dict[str, Any], ctx: Context, policy: Mapping[str, Any] | None
) -> RuleOutcome:
    """Exceptions, variables and validations of a policy whose match conditions hold."""
    excepted = policy_exceptions.covering(policy, bound, ctx) if policy is not None else None
    if excepted:
        return policy_exceptions.skip(excepted)
    bound = cel_bindings.with_variables(bound, spec.get("variables"), ("spec", "variables"))
    failing = cel_bindings.first_failing(spec.get("validations"), bound)
    if failing is not None:
        message = failure_message(failing[1], failing[0], bound)
        audit_annotations(spec, bound)
        return RuleOutcome(RuleStatus.FAIL, message)
    audit_annotations(spec, bound)
    return RuleOutcome(RuleStatus.PASS, "success")


def outcomes(
    policy: dict[str, Any], resource: dict[str, Any], ctx: Context, operation: str
) -> Iterator[RuleOutcome]:
    """The rule responses of ``policy`` (and its autogen variants) on ``resource``."""
    if not matching.in_policy_scope(policy, resource):
        return
    if json_mode(policy):
        yield from _json_outcomes(policy, resource, ctx)
        return
    deleting = operation == "DELETE"
    request = matching.admission_of(
        resource, operation, namespace_labels(resource, ctx), ctx.facts.subresources
    )
    with using(environment(ctx)):
        for variant in variants(policy):
            if not matching.matches(variant.spec.get("matchConstraints"), request):
                continue
            if deleting and variant.name:
                continue  # a controller's pod template is not deleted with it
            try:
                yield evaluate_spec(variant.spec, resource, ctx, operation, policy)
            except RuleError as exc:
                yield RuleOutcome(RuleStatus.ERROR, str(exc))


def json_mode(policy: Mapping[str, Any]) -> bool:
    """``spec.evaluation.mode: JSON``: the policy validates any JSON document (a Test's
    ``jsonPayloads``, and Kubernetes objects read as plain JSON), not admission requests."""
    evaluation = (policy.get("spec") or {}).get("evaluation")
    return isinstance(evaluation, dict) and evaluation.get("mode") == "JSON"


def _json_outcomes(
    policy: dict[str, Any], resource: dict[str, Any], ctx: Context
) -> Iterator[RuleOutcome]:
    """As Kyverno evaluates a JSON-mode policy: ``object`` is the document and nothing else is
    bound (no request, old object or namespace); there are no matchConstraints or autogen; when
    the match conditions do not hold the policy gives no response at all."""
    spec = policy.get("spec") or {}
    bound = {"object": resource, "oldObject": None, "request": None, "namespaceObject": None}
    with using(environment(ctx)):
        try:
            if conditions_hold(spec, bound):
                yield _judged(spec, bound, ctx, policy)
        except RuleError as exc:
            yield RuleOutcome(RuleStatus.ERROR, str(exc))


def check_structure(policy: dict[str, Any]) -> list[str]:
    """What makes a ValidatingPolicy unusable, each naming its field (a JSON-mode policy
    needs no matchConstraints)."""
    return spec_shape.problems(
        policy,
        "validations",
        ("variables", "matchConditions", "auditAnnotations"),
        match_required=not json_mode(policy),
    )
