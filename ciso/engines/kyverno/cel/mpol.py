"""Kyverno's ``MutatingPolicy`` (and ``NamespacedMutatingPolicy``), as the Kyverno CLI runs one
on a resource. Matching is a ValidatingPolicy's (``matchConstraints``, then ``matchConditions``,
which see the policy's ``variables``; any false gives a ``skip``); then each of ``mutations``, in
order, on the object as patched so far:

* ``ApplyConfiguration``: the expression builds a partial object (``Object{spec:
  Object.spec{...}}``) merged in as server-side apply would (``apply_configuration``);
* ``JSONPatch``: the expression gives a list of ``JSONPatch{op, path, value}`` operations.

A matched policy gives one rule response with an empty rule name: ``pass`` with the patched
object, ``skip``, or ``error``. Autogen follows Kyverno's MutatingPolicy autogen, which differs
from a ValidatingPolicy's: only ``matchConditions`` and apply configurations are rewritten
(``object.spec`` and ``Object.spec`` to the pod template's, metadata labels and annotations too),
and an apply configuration rooted at ``Object{...}`` is wrapped in the controller's template.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ciso.engines.kyverno.cel import (
    apply_configuration,
    autogen,
    matching,
    policy_exceptions,
    spec_shape,
    vpol,
)
from ciso.engines.kyverno.cel import bindings as cel_bindings
from ciso.engines.kyverno.cel.libraries.environment import using
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.model import Context, RuleStatus
from ciso.engines.kyverno.mutation.json_patch import PatchError, apply_patch

KINDS = ("MutatingPolicy", "NamespacedMutatingPolicy")
RULE_NAME = ""
PATCH_TYPES = ("ApplyConfiguration", "JSONPatch")

_SPEC = re.compile(r"\b(object|oldObject|Object)\.spec")
_LABELS = re.compile(r"\b(object|oldObject|Object)\.metadata\.labels")
_ANNOTATIONS = re.compile(r"\b(object|oldObject|Object)\.metadata\.annotations")
#: replacement set -> (spec path, metadata path, wrapper opening, closing braces)
_TEMPLATES = {
    "defaults": (
        "spec.template.spec",
        "spec.template.metadata",
        "Object{spec: Object.spec{template: Object.spec.template{",
        "}}}",
    ),
    "cronjobs": (
        "spec.jobTemplate.spec.template.spec",
        "spec.jobTemplate.spec.template.metadata",
        "Object{spec: Object.spec{jobTemplate: Object.spec.jobTemplate{spec: "
        "Object.spec.jobTemplate.spec{template: Object.spec.jobTemplate.spec.template{",
        "}}}}}",
    ),
}


@dataclass(frozen=True, slots=True)
class Outcome:
    """One matched (variant of a) policy on one resource."""

    status: RuleStatus
    message: str
    patched: dict[str, Any] | None = None
    #: the existing resource the response is about when it is not the trigger (mutateExisting)
    subject: dict[str, Any] | None = None


def _wrap_root(expression: str, opening: str, closing: str) -> str:
    """A root ``Object{...}`` construction inside the template's; as Kyverno, the matching
    brace is found by counting braces."""
    stripped = expression.strip()
    if not stripped.startswith("Object"):
        return expression
    rest = stripped[len("Object") :].lstrip()
    if not rest.startswith("{"):
        return expression
    content = rest[1:]
    depth = 1
    for index, char in enumerate(content):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 0:
            if index == 0:
                return expression
            return opening + content[:index] + closing + content[index + 1 :]
    return expression


def to_template(expression: str, replacement: str) -> str:
    """A pod expression as the pod controllers' variant of the policy reads it."""
    spec, metadata, opening, closing = _TEMPLATES[replacement]
    expression = _SPEC.sub(rf"\1.{spec}", expression)
    expression = _LABELS.sub(rf"\1.{metadata}.labels", expression)
    expression = _ANNOTATIONS.sub(rf"\1.{metadata}.annotations", expression)
    return _wrap_root(expression, opening, closing)


def variants(policy: dict[str, Any]) -> list[vpol.Variant]:
    spec = policy.get("spec") or {}
    out = [vpol.Variant("", spec)]
    for generated in autogen.variants(spec):
        rewritten = copy.deepcopy(spec)
        rewritten["matchConstraints"] = generated.spec["matchConstraints"]
        for condition in rewritten.get("matchConditions") or []:
            if isinstance(condition, dict) and isinstance(condition.get("expression"), str):
                condition["expression"] = to_template(condition["expression"], generated.name)
        for mutation in rewritten.get("mutations") or []:
            config = mutation.get("applyConfiguration") if isinstance(mutation, dict) else None
            if isinstance(config, dict) and isinstance(config.get("expression"), str):
                config["expression"] = to_template(config["expression"], generated.name)
        out.append(vpol.Variant(generated.name, rewritten))
    return out


def mutate(
    target: dict[str, Any], mutation: Any, index: int, bound: dict[str, Any]
) -> dict[str, Any]:
    """``target`` after one entry of ``mutations``."""
    where: tuple[Any, ...] = ("spec", "mutations", index)
    if not isinstance(mutation, dict) or mutation.get("patchType") not in PATCH_TYPES:
        raise RuleError(f"patchType must be one of {', '.join(PATCH_TYPES)}").at(*where)
    if mutation["patchType"] == "ApplyConfiguration":
        where += ("applyConfiguration", "expression")
        body = mutation.get("applyConfiguration") or {}
        value = cel_bindings.run(str(body.get("expression", "")), bound, where)
        if not isinstance(value, dict):
            raise RuleError(f"must build an object, got {value!r}").at(*where)
        return apply_configuration.apply(target, value)
    where += ("jsonPatch", "expression")
    body = mutation.get("jsonPatch") or {}
    value = cel_bindings.run(str(body.get("expression", "")), bound, where)
    if not isinstance(value, list):
        raise RuleError(f"must give a list of JSONPatch operations, got {value!r}").at(*where)
    try:
        return apply_patch(target, value)
    except PatchError as exc:
        raise RuleError(f"JSON patch failed: {exc}").at(*where) from None


def evaluate_spec(
    spec: dict[str, Any],
    resource: dict[str, Any],
    ctx: Context,
    operation: str,
    policy: dict[str, Any] | None = None,
) -> Outcome:
    bound = cel_bindings.admission(resource, ctx, operation)
    return _evaluate_bound(spec, resource, bound, ctx, policy)


def _evaluate_bound(
    spec: dict[str, Any],
    resource: dict[str, Any],
    bound: dict[str, Any],
    ctx: Context,
    policy: dict[str, Any] | None,
) -> Outcome:
    # a MutatingPolicy's match conditions may read its variables (Kyverno binds them first)
    bound = cel_bindings.with_variables(bound, spec.get("variables"), ("spec", "variables"))
    if not vpol.conditions_hold(spec, bound):
        return Outcome(RuleStatus.SKIP, "skip")
    excepted = policy_exceptions.covering(policy, bound, ctx) if policy is not None else None
    if excepted:
        return Outcome(RuleStatus.SKIP, policy_exceptions.skip(excepted).message)
    target = resource
    for index, mutation in enumerate(spec.get("mutations") or []):
        target = mutate(target, mutation, index, bound)
        # the next mutation sees the object as patched so far
        bound = {**bound, "object": target}
    return Outcome(RuleStatus.PASS, "success", target)


def outcomes(
    policy: dict[str, Any], resource: dict[str, Any], ctx: Context, operation: str
) -> Iterator[Outcome]:
    """The rule responses of ``policy`` (and its autogen variants) on ``resource``."""
    if not matching.in_policy_scope(policy, resource) or operation == "DELETE":
        return
    request = matching.admission_of(
        resource, operation, vpol.namespace_labels(resource, ctx), ctx.facts.subresources
    )
    with using(vpol.environment(ctx)):
        for variant in variants(policy):
            if not matching.matches(variant.spec.get("matchConstraints"), request):
                continue
            try:
                yield evaluate_spec(variant.spec, resource, ctx, operation, policy)
            except RuleError as exc:
                yield Outcome(RuleStatus.ERROR, str(exc))
        if (
            ctx.targets
            and mutates_existing(policy)
            and matching.matches((policy.get("spec") or {}).get("matchConstraints"), request)
        ):
            yield from _existing_outcomes(policy, resource, ctx, operation)


def mutates_existing(policy: dict[str, Any]) -> bool:
    """``spec.evaluation.mutateExisting.enabled``: the policy also mutates existing objects."""
    evaluation = (policy.get("spec") or {}).get("evaluation")
    existing = evaluation.get("mutateExisting") if isinstance(evaluation, dict) else None
    return isinstance(existing, dict) and existing.get("enabled") is True


def _existing_outcomes(
    policy: dict[str, Any], trigger: dict[str, Any], ctx: Context, operation: str
) -> Iterator[Outcome]:
    """The policy on each existing object (a Test's ``targetResources``) its
    ``targetMatchConstraints`` select, as Kyverno's background controller runs it after the
    trigger's admission: ``object`` is the target, ``request`` the trigger's request."""
    spec = policy.get("spec") or {}
    trigger_request = cel_bindings.admission(trigger, ctx, operation)["request"]
    try:
        chosen = _targets(spec, trigger, ctx)
    except RuleError as exc:
        yield Outcome(RuleStatus.ERROR, str(exc))
        return
    for target in chosen:
        bound = {**cel_bindings.admission(target, ctx, operation), "request": trigger_request}
        try:
            found = _evaluate_bound(spec, target, bound, ctx, policy)
        except RuleError as exc:
            found = Outcome(RuleStatus.ERROR, str(exc))
        yield Outcome(found.status, found.message, found.patched, subject=target)


def _targets(spec: dict[str, Any], trigger: dict[str, Any], ctx: Context) -> list[dict[str, Any]]:
    """The test's target objects the policy selects: by ``targetMatchConstraints.expression``
    (over the trigger: an object, or a list's ``items``), by its resourceRules (any operation),
    or else by the policy's own matchConstraints."""
    constraints = spec.get("targetMatchConstraints")
    constraints = constraints if isinstance(constraints, dict) else {}
    if constraints.get("expression"):
        where = ("spec", "targetMatchConstraints", "expression")
        bound = {"object": trigger}
        bound = cel_bindings.with_variables(bound, spec.get("variables"), ("spec", "variables"))
        value = cel_bindings.run(str(constraints["expression"]), bound, where)
        if not isinstance(value, dict):
            raise RuleError(f"must give an object or a list of objects, got {value!r}").at(*where)
        listed = value.get("items")
        items = listed if isinstance(listed, list) else [value]
        keys = {_key(i) for i in items if isinstance(i, dict)}
        return [t for t in ctx.targets if _key(t) in keys]
    rules = constraints if constraints.get("resourceRules") else spec.get("matchConstraints")
    any_operation = _any_operation(rules if isinstance(rules, dict) else {})
    return [
        t
        for t in ctx.targets
        if matching.matches(any_operation, matching.admission_of(t, "CREATE", None))
    ]


def _key(obj: dict[str, Any]) -> tuple[str, str]:
    meta = obj.get("metadata") or {}
    return str(meta.get("namespace") or ""), str(meta.get("name") or "")


def _any_operation(constraints: dict[str, Any]) -> dict[str, Any]:
    """``constraints`` with every resource rule's operations ``*`` (targets are not admitted)."""
    rules = [
        {**r, "operations": ["*"]} if isinstance(r, dict) else r
        for r in constraints.get("resourceRules") or []
    ]
    return {**constraints, "resourceRules": rules}


def check_structure(policy: dict[str, Any]) -> list[str]:
    """What makes a MutatingPolicy unusable, each naming its field."""

    def patch_type(index: int, mutation: Any) -> str | None:
        kind = mutation.get("patchType") if isinstance(mutation, dict) else None
        if kind in PATCH_TYPES:
            return None
        return f"spec.mutations[{index}].patchType: must be one of {', '.join(PATCH_TYPES)}"

    return spec_shape.problems(policy, "mutations", ("variables", "matchConditions"), patch_type)
