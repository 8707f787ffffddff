"""Kubernetes' ``ValidatingAdmissionPolicy`` with its ``ValidatingAdmissionPolicyBinding``s
(``admissionregistration.k8s.io`` v1, v1beta1, v1alpha1), as the Kyverno CLI evaluates them on a
resource, with Kubernetes' validator semantics:

- The policy's ``matchConstraints`` select the request. Without a binding the policy is
  evaluated once (Kubernetes would not enforce an unbound policy; the Kyverno CLI evaluates it,
  so that a policy can be tested alone). With bindings, each binding whose ``matchResources``
  (if any) also selects the request is evaluated with its parameters; the last such binding's
  response is the policy's, as in the CLI. No binding matching gives no response at all.
  Deviation, on purpose: offline with bindings the Kyverno CLI skips the policy's own
  ``matchConstraints``; Kubernetes requires both, and so do we.
- Parameters: the binding's ``paramRef`` selects among the test's ``paramResources`` (of the
  policy's ``paramKind``): by ``name`` (and ``namespace``), the first match; by ``selector``,
  a list of every match. None found leaves ``params`` null.
- The request is a CREATE without an old object, whatever the test's operation (as the CLI).
- ``matchConditions`` false: ``skip`` ("match conditions aren't met"); a condition that fails to
  evaluate is a non-match under ``failurePolicy: Ignore`` and an ``error`` otherwise; an error in
  a validation (or a variable it reads) is an ``error`` whatever the ``failurePolicy`` (the CLI
  reports evaluation errors as errors).
- ``validations`` in order: the first one not true (false, or not a bool) fails with its
  ``messageExpression`` (when it yields a one-line string), else its ``message``, else
  ``failed expression: <expression>``.
  A binding's ``validationActions`` (Deny, Warn, Audit) do not change the verdict offline.
- ``auditAnnotations`` do not change the response (Kubernetes publishes them on the audit event).

The response's rule is named after the policy, as Kyverno names it."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ciso.engines.kyverno.cel import bindings as cel_bindings
from ciso.engines.kyverno.cel import matching, vpol
from ciso.engines.kyverno.cel.libraries.environment import using
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.model import Context, RuleOutcome, RuleStatus

KINDS = ("ValidatingAdmissionPolicy",)
BINDING_KINDS = ("ValidatingAdmissionPolicyBinding",)
GROUP = "admissionregistration.k8s.io"
#: the rule name of the responses (the policy's own name replaces it: see ``engine``)
RULE_NAME = ""
#: Kubernetes refuses a messageExpression result longer than this (celconfig), or multi-line
MAX_MESSAGE = 5 * 1024


def is_vap(doc: Any) -> bool:
    return (
        isinstance(doc, dict)
        and doc.get("kind") in KINDS
        and str(doc.get("apiVersion", "")).startswith(f"{GROUP}/")
    )


def bindings_of(
    policy: Mapping[str, Any], documents: Sequence[Any], kinds: Sequence[str] = BINDING_KINDS
) -> list[dict[str, Any]]:
    """The bindings (of ``kinds``) among ``documents`` that name ``policy``, in document order."""
    name = (policy.get("metadata") or {}).get("name")
    return [
        d
        for d in documents
        if isinstance(d, dict)
        and d.get("kind") in kinds
        and str(d.get("apiVersion", "")).startswith(f"{GROUP}/")
        and ((d.get("spec") or {}).get("policyName")) == name
    ]


def params_for(spec: Mapping[str, Any], binding: Mapping[str, Any], ctx: Context) -> Any:
    ref = (binding.get("spec") or {}).get("paramRef")
    if not isinstance(ref, dict):
        return None
    kind = (spec.get("paramKind") or {}).get("kind")
    candidates = [p for p in ctx.params if not kind or p.get("kind") == kind]
    if isinstance(ref.get("selector"), dict):
        chosen = [
            p
            for p in candidates
            if matching.label_selector_matches(
                ref["selector"], (p.get("metadata") or {}).get("labels") or {}
            )
            and (
                not ref.get("namespace")
                or (p.get("metadata") or {}).get("namespace") == ref["namespace"]
            )
        ]
        return {"apiVersion": "v1", "kind": "List", "items": chosen} if chosen else None
    for candidate in candidates:
        meta = candidate.get("metadata") or {}
        if ref.get("name") and meta.get("name") != ref["name"]:
            continue
        if ref.get("namespace") and meta.get("namespace") != ref["namespace"]:
            continue
        if ref.get("name") or ref.get("namespace"):
            return candidate
    return None


def _message(entry: Mapping[str, Any], bound: dict[str, Any], index: int) -> str:
    """Kubernetes' choice: a usable messageExpression result, else the message, else the
    failed expression (a failing messageExpression only falls back)."""
    message = ""
    if entry.get("messageExpression"):
        where = ("spec", "validations", index, "messageExpression")
        try:
            value = cel_bindings.run(str(entry["messageExpression"]), bound, where)
        except RuleError:
            value = None
        if isinstance(value, str):
            value = value.strip()
            message = "" if len(value) > MAX_MESSAGE or "\n" in value else value
    if not message:
        message = str(entry.get("message") or "").strip()
    return message or f"failed expression: {str(entry.get('expression', '')).strip()}"


def evaluate(
    spec: dict[str, Any], resource: dict[str, Any], ctx: Context, operation: str, params: Any
) -> RuleOutcome:
    """The validator on one request: skip, fail, pass (RuleError for errors)."""
    bound = cel_bindings.admission(resource, ctx, operation, params)
    # Kubernetes' match-condition matcher: an error is a non-match under failurePolicy Ignore,
    # an error otherwise (vpol's rule)
    if not vpol.conditions_hold(spec, bound):
        return RuleOutcome(RuleStatus.SKIP, "match conditions aren't met")
    bound = cel_bindings.with_variables(bound, spec.get("variables"), ("spec", "variables"))
    # Kubernetes' validator denies whatever is not true (a non-bool value included)
    failing = cel_bindings.first_failing(spec.get("validations"), bound, bool_only=False)
    if failing is not None:
        return RuleOutcome(RuleStatus.FAIL, _message(failing[1], bound, failing[0]))
    return RuleOutcome(RuleStatus.PASS, "")


def outcomes(
    policy: dict[str, Any], resource: dict[str, Any], ctx: Context, operation: str
) -> Iterator[RuleOutcome]:
    """The policy's response on ``resource`` (at most one). The request is always a CREATE
    without an old object, whatever the test's operation: the Kyverno CLI builds it so for this
    kind."""
    operation = "CREATE"
    spec = policy.get("spec") or {}
    request = matching.admission_of(
        resource, operation, vpol.namespace_labels(resource, ctx), ctx.facts.subresources
    )
    if not matching.matches(spec.get("matchConstraints"), request):
        return
    bindings = bindings_of(policy, ctx.policy_documents)
    chosen: list[Mapping[str, Any] | None] = matching_bindings(bindings, request)
    if not bindings:
        chosen = [None]
    if not chosen:
        return
    binding = chosen[-1]
    params = params_for(spec, binding, ctx) if binding is not None else None
    with using(vpol.environment(ctx)):
        try:
            yield evaluate(spec, resource, ctx, operation, copy.deepcopy(params))
        except RuleError as exc:
            yield RuleOutcome(RuleStatus.ERROR, str(exc))


def matching_bindings(
    bindings: Sequence[dict[str, Any]], request: matching.Admission
) -> list[Mapping[str, Any] | None]:
    """The bindings whose ``matchResources`` (if any) select the request, in order."""
    return [
        b
        for b in bindings
        if not isinstance((b.get("spec") or {}).get("matchResources"), dict)
        or matching.matches(_with_all_resources(b["spec"]["matchResources"]), request)
    ]


def _with_all_resources(match_resources: dict[str, Any]) -> dict[str, Any]:
    """A binding's matchResources may leave out resourceRules: it then narrows by selectors
    only (the policy's constraints already chose the resources)."""
    if match_resources.get("resourceRules"):
        return match_resources
    every = {"apiGroups": ["*"], "apiVersions": ["*"], "resources": ["*"], "operations": ["*"]}
    return {**match_resources, "resourceRules": [every]}


def check_structure(policy: dict[str, Any]) -> list[str]:
    """What makes a ValidatingAdmissionPolicy unusable, each naming its field."""
    spec = policy.get("spec")
    if not isinstance(spec, dict):
        return ["spec: must be a map"]
    problems = []
    if not isinstance(spec.get("matchConstraints"), dict):
        problems.append("spec.matchConstraints: required")
    if not spec.get("validations") and not spec.get("auditAnnotations"):
        problems.append("spec: validations and auditAnnotations may not both be empty")
    for key in ("validations", "variables", "matchConditions", "auditAnnotations"):
        if key in spec and not isinstance(spec[key], list):
            problems.append(f"spec.{key}: must be a list")
    return problems
