"""Kubernetes' ``MutatingAdmissionPolicy`` with its ``MutatingAdmissionPolicyBinding``s
(``admissionregistration.k8s.io`` v1alpha1, v1beta1), as the Kyverno CLI evaluates them: the
policy's ``matchConstraints`` select a CREATE request; without a binding the policy mutates
once; with bindings, each binding whose ``matchResources`` also selects the request mutates in
turn, each seeing the object as the previous one left it, with its ``paramRef``'s parameters
(chosen as for a ValidatingAdmissionPolicy). One response, named after the policy: ``skip`` when
the match conditions are not met, else ``pass`` carrying the patched object (``mutations``:
ApplyConfiguration and JSONPatch, as a MutatingPolicy's); an error in a condition, a variable or
a mutation is an ``error``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ciso.engines.kyverno.cel import bindings as cel_bindings
from ciso.engines.kyverno.cel import matching, mpol, vap, vpol
from ciso.engines.kyverno.cel.libraries.environment import using
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.model import Context, RuleStatus

KINDS = ("MutatingAdmissionPolicy",)
BINDING_KINDS = ("MutatingAdmissionPolicyBinding",)
RULE_NAME = ""


def _mutated(
    spec: dict[str, Any], resource: dict[str, Any], ctx: Context, params: Any
) -> dict[str, Any] | None:
    """``resource`` after the policy's mutations; None when its match conditions leave it."""
    bound = cel_bindings.admission(resource, ctx, "CREATE", params)
    bound = cel_bindings.with_variables(bound, spec.get("variables"), ("spec", "variables"))
    if not vpol.conditions_hold(spec, bound):
        return None
    target = resource
    for index, mutation in enumerate(spec.get("mutations") or []):
        target = mpol.mutate(target, mutation, index, bound)
        bound = {**bound, "object": target}
    return target


def outcomes(
    policy: dict[str, Any], resource: dict[str, Any], ctx: Context, operation: str
) -> Iterator[mpol.Outcome]:
    """The policy's response on ``resource`` (at most one); the request is a CREATE whatever
    the test's operation, as the CLI builds it."""
    spec = policy.get("spec") or {}
    request = matching.admission_of(
        resource, "CREATE", vpol.namespace_labels(resource, ctx), ctx.facts.subresources
    )
    if not matching.matches(spec.get("matchConstraints"), request):
        return
    bindings = vap.bindings_of(policy, ctx.policy_documents, BINDING_KINDS)
    chosen: list[Any] = vap.matching_bindings(bindings, request) if bindings else [None]
    if not chosen:
        return
    target, applied = resource, False
    with using(vpol.environment(ctx)):
        try:
            for binding in chosen:
                params = vap.params_for(spec, binding, ctx) if binding is not None else None
                mutated = _mutated(spec, target, ctx, params)
                if mutated is not None:
                    target, applied = mutated, True
        except RuleError as exc:
            yield mpol.Outcome(RuleStatus.ERROR, str(exc))
            return
    if not applied:
        yield mpol.Outcome(RuleStatus.SKIP, "match conditions aren't met")
        return
    yield mpol.Outcome(RuleStatus.PASS, "mutation is successfully applied", target)


def check_structure(policy: dict[str, Any]) -> list[str]:
    """What makes a MutatingAdmissionPolicy unusable: the same fields as a MutatingPolicy's."""
    return mpol.check_structure(policy)
