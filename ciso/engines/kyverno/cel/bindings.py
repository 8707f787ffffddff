"""The variables Kyverno binds for a CEL expression: ``object``, ``oldObject``, ``request``,
``namespaceObject``, ``params`` and ``variables`` (the rule's or policy's named expressions,
evaluated in order, each seeing the ones before it)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from ciso.engines.kyverno.cel import limits
from ciso.engines.kyverno.cel.program import CelError, evaluate
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.model import Context


def _namespace_object(resource: dict[str, Any], ctx: Context) -> dict[str, Any] | None:
    """The resource's Namespace as the test's values file (``namespaces``) or resources declare
    it (a cluster would hold it); null for cluster-scoped resources, as in Kubernetes."""
    namespace = (resource.get("metadata") or {}).get("namespace")
    if not namespace:
        return None
    for candidate in [*(ctx.cel_context.get("namespaces") or ()), *ctx.objects]:
        if (
            candidate.get("kind") == "Namespace"
            and (candidate.get("metadata") or {}).get("name") == namespace
        ):
            return candidate
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespace}}


def admission(
    resource: dict[str, Any], ctx: Context, operation: str, params: Any = None
) -> dict[str, Any]:
    """The bindings before ``variables``, as the Kyverno CLI simulates an admission request: on
    CREATE there is no old object, on UPDATE the old object is the resource itself, on DELETE
    ``object`` is null and the resource is the old object."""
    meta = resource.get("metadata") or {}
    deleting = operation == "DELETE"
    old = copy.deepcopy(resource) if operation in ("UPDATE", "DELETE") else None
    obj = None if deleting else resource
    api_version = str(resource.get("apiVersion", ""))
    group, _, version = api_version.rpartition("/")
    kind = {"group": group, "version": version, "kind": resource.get("kind", "")}
    request = {
        "operation": operation,
        "name": meta.get("name", ""),
        "namespace": meta.get("namespace", ""),
        "kind": kind,
        "resource": kind,
        "userInfo": {
            "username": ctx.facts.user.username,
            "groups": list(ctx.facts.user.groups),
        },
        "object": obj,
        "oldObject": old,
        "dryRun": False,
    }
    return {
        "object": obj,
        "oldObject": old,
        "request": request,
        "namespaceObject": _namespace_object(resource, ctx),
        "params": params,
    }


def with_variables(
    bindings: dict[str, Any], variables: Sequence[Any] | None, where: Sequence[Any]
) -> dict[str, Any]:
    """``bindings`` plus ``variables``. A variable that fails to evaluate is left out, so that
    only an expression that reads it fails (Kubernetes evaluates variables lazily); the error
    names the variable."""
    values: dict[str, Any] = {}
    failures: dict[str, str] = {}
    bound = {**bindings, "variables": values}
    largest = limits.largest_collection(bindings)
    for index, variable in enumerate(variables or []):
        if not isinstance(variable, dict) or not variable.get("name"):
            raise RuleError("a variable needs a name and an expression").at(*where, index)
        try:
            values[variable["name"]] = evaluate(
                str(variable.get("expression", "")), bound, largest=largest
            )
        except CelError as exc:
            failures[variable["name"]] = str(exc)
    bound["_failed_variables"] = failures
    return bound


def run(source: str, bindings: dict[str, Any], where: Sequence[Any]) -> Any:
    """Evaluate ``source``; a RuleError at ``where`` naming the failure (and the failed variable
    it read, if any)."""
    failures = bindings.get("_failed_variables") or {}
    visible = {k: v for k, v in bindings.items() if k != "_failed_variables"}
    try:
        return evaluate(source, visible)
    except CelError as exc:
        read = [name for name in failures if f"variables.{name}" in source]
        if read:
            name = read[0]
            raise RuleError(f"variable {name!r} failed: {failures[name]}").at(*where) from None
        raise RuleError(f"CEL expression {source.strip()!r} failed: {exc}").at(*where) from None
