"""Kyverno's ``DeletingPolicy`` (and ``NamespacedDeletingPolicy``), as the Kyverno CLI evaluates
one in ``kyverno test``/``apply``: the resource is matched by ``matchConstraints`` with every
rule's operations widened to ``*`` (a cleanup runs on a schedule, not on an admission request);
a resource outside them gets no response at all. A matched one has ``variables`` bound and its
``conditions`` evaluated: all true gives ``pass`` ("resource matched": it would be deleted), any
false gives ``fail`` ("resource did not match"), an expression that errors (or is not a bool)
gives ``error``. The response's rule is named after the policy, its type is ``Deletion``.

The expressions see ``object`` (the resource), ``namespaceObject`` (its Namespace as the test's
values declare it, else null), ``variables`` and Kyverno's libraries; there is no admission
request, so no ``request`` or ``oldObject``. A JSON payload (no apiVersion and kind) is not
matched at all: its conditions decide ("json matched"/"json did not match").

``schedule`` and ``deletionPropagationPolicy`` concern the cleanup controller in a cluster and
change nothing offline. A NamespacedDeletingPolicy is not narrowed to its namespace here: the
CLI's engine does not narrow it either."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from typing import Any

from ciso.engines.kyverno.cel import bindings as cel_bindings
from ciso.engines.kyverno.cel import matching, vpol
from ciso.engines.kyverno.cel.libraries.environment import using
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.model import Context, RuleOutcome, RuleStatus

KINDS = ("DeletingPolicy", "NamespacedDeletingPolicy")
#: Kyverno names a deleting policy's response after the policy (engine.py does, from the table)
RULE_NAME = ""


def is_payload(resource: Mapping[str, Any]) -> bool:
    """A JSON payload rather than a Kubernetes object: nothing to match it by."""
    return not (resource.get("apiVersion") and resource.get("kind"))


def namespace_object(resource: Mapping[str, Any], ctx: Context) -> dict[str, Any] | None:
    """The Namespace the Kyverno CLI resolves for a resource: for a namespaced one, the values
    file's ``namespaces`` entry of that name (whatever its ``kind`` spelling), else its
    ``namespaceSelector`` labels as a Namespace, else none; a Namespace is its own."""
    meta = resource.get("metadata") or {}
    name = meta.get("namespace")
    if not name:
        if resource.get("kind") == "Namespace" and "/" not in str(resource.get("apiVersion")):
            name = meta.get("name")
            own = {"apiVersion": "v1", "kind": "Namespace", "metadata": dict(meta)}
            return _declared_namespace(name, ctx) or own
        return None
    return _declared_namespace(name, ctx)


def _declared_namespace(name: Any, ctx: Context) -> dict[str, Any] | None:
    for candidate in ctx.cel_context.get("namespaces") or ():
        if isinstance(candidate, dict) and (candidate.get("metadata") or {}).get("name") == name:
            return candidate
    labels = ctx.facts.namespace_labels.get(str(name))
    if labels is not None:
        return {
            "apiVersion": "v1",
            "kind": "Namespace",
            "metadata": {"name": name, "labels": dict(labels)},
        }
    return None


def _any_operation(constraints: Any) -> Any:
    """The constraints with each resource rule's operations set to ``*``, as Kyverno's deleting
    engine rewrites them before matching."""
    if not isinstance(constraints, dict):
        return constraints
    widened = copy.deepcopy(constraints)
    for rule in widened.get("resourceRules") or []:
        if isinstance(rule, dict):
            rule["operations"] = ["*"]
    return widened


def selected(policy: dict[str, Any], resource: dict[str, Any], ctx: Context) -> bool:
    """Whether ``matchConstraints`` select the resource (a JSON payload always is)."""
    if is_payload(resource):
        return True
    spec = policy.get("spec") or {}
    namespace = namespace_object(resource, ctx)
    labels = ((namespace or {}).get("metadata") or {}).get("labels") or {}
    request = matching.admission_of(
        resource, "CREATE", labels if namespace else None, ctx.facts.subresources
    )
    return matching.matches(_any_operation(spec.get("matchConstraints")), request)


def conditions_hold(spec: dict[str, Any], bound: dict[str, Any]) -> bool:
    """All ``conditions`` true. As Kyverno evaluates them: a false one decides at once, even
    after one that failed; otherwise the first failure is the error (a RuleError)."""
    held, errors = cel_bindings.all_hold(spec.get("conditions"), bound, "conditions", "a condition")
    if held and errors:
        raise errors[0]
    return held


def evaluate(policy: dict[str, Any], resource: dict[str, Any], ctx: Context) -> RuleOutcome:
    """The conditions of a policy that selected ``resource``."""
    spec = policy.get("spec") or {}
    what = "json" if is_payload(resource) else "resource"
    bound = {
        "object": resource,
        "namespaceObject": namespace_object(resource, ctx),
    }
    bound = cel_bindings.with_variables(bound, spec.get("variables"), ("spec", "variables"))
    if conditions_hold(spec, bound):
        return RuleOutcome(RuleStatus.PASS, f"{what} matched")
    return RuleOutcome(RuleStatus.FAIL, f"{what} did not match")


def outcomes(
    policy: dict[str, Any], resource: dict[str, Any], ctx: Context, operation: str
) -> Iterator[RuleOutcome]:
    """The response of ``policy`` on ``resource``; none when its constraints do not select it.
    The operation is not used: a deleting policy is not an admission check."""
    del operation
    if not selected(policy, resource, ctx):
        return
    with using(vpol.environment(ctx)):
        try:
            yield evaluate(policy, resource, ctx)
        except RuleError as exc:
            yield RuleOutcome(RuleStatus.ERROR, str(exc))


def check_structure(policy: dict[str, Any]) -> list[str]:
    """What makes a DeletingPolicy unusable, each naming its field."""
    spec = policy.get("spec")
    if not isinstance(spec, dict):
        return ["spec: must be a map"]
    problems: list[str] = []
    if not isinstance(spec.get("schedule"), str) or not spec["schedule"].strip():
        problems.append("spec.schedule: required (a cron expression)")
    if "matchConstraints" in spec and not isinstance(spec["matchConstraints"], dict):
        problems.append("spec.matchConstraints: must be a map")
    for key in ("conditions", "variables"):
        if key in spec and not isinstance(spec[key], list):
            problems.append(f"spec.{key}: must be a list")
    for index, entry in enumerate(spec.get("conditions") or []):
        if not isinstance(entry, dict) or not isinstance(entry.get("expression"), str):
            problems.append(f"spec.conditions[{index}].expression: required")
    propagation = spec.get("deletionPropagationPolicy")
    if propagation is not None and propagation not in ("Orphan", "Background", "Foreground"):
        problems.append("spec.deletionPropagationPolicy: must be Orphan, Background or Foreground")
    return problems
